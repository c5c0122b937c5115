/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-scan.c — finding events by code, text or regex: the scan
 *
 * A search runs in three passes:
 *  1. the event records are scanned in FILE order (sequential reads of the
 *     mapping, split into contiguous chunks for a few threads); every event
 *     advances a counter of its track, so a match is recorded at once as
 *     (track, index on the track) — the loader keeps a track's events in
 *     file order unless they were not in time order, and for those rare
 *     tracks the file index is recorded and turned into the track index by
 *     one walk of the track afterwards;
 *  2. every match gets its time, in file order, and each track's matches
 *     their sorted list;
 *  3. the global time order: captures are in time order, or nearly (a few
 *     sorted sections: a natural merge; neighbours swapped: an insertion
 *     sort), else a k-way merge of the tracks' matches on (time, file index).
 * Pass 1 reads the records in the order they sit in the file: walking them
 * track by track instead costs a cache miss per event on big captures.
 *
 * Text and regex modes match the label "name: datum".  Labels are not
 * formatted when it can be avoided: in text mode a type whose label cannot
 * hold some byte of the needle (from what its name and datum format can
 * produce) never matches; a type whose datum format is constant is decided
 * once; other types cache their outcome per datum value (the usual "%s"
 * datum has few distinct string offsets) until the cache stops paying off.
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cpel-search-private.h"

/* ---- the scan ---------------------------------------------------------- */

typedef struct
{
  CpelU32Map       *map;       /* datum -> 1 no / 2 yes */
  const CpelStrtab *strtab;    /* table the cached outcomes used (%s formats) */
  guint64           lookups;
  guint64           hits;
  gint8             constant;  /* constant formats: -1 undecided, 0/1 */
  gboolean          name_match;/* text: the name alone matches */
  gboolean          disabled;
} TypeCache;

#define CACHE_REVIEW      0x10000u    /* lookups between reviews of a type's cache */
#define CACHE_BUDGET      (1u << 21)  /* cached outcomes per thread, all types */

typedef struct _Scan Scan;

/* A match, in file order: its track and its index on the track (for a track
 * whose events are not in file order: its file index, turned into the track
 * index afterwards).  The same as the result's references: the hits in file
 * order become them, then sorted in place. */
typedef CpelEventRef Hit;

G_STATIC_ASSERT (CPEL_MAX_EVENTS <= G_MAXUINT32);

typedef struct
{
  Scan      *scan;
  guint64    begin, end;       /* file indices */
  TypeCache *caches;           /* n_types (text/regex) */
  gsize      cache_budget;     /* outcomes that may still be cached */
  GString   *label;
  GString   *scratch;
  gboolean   report;           /* the caller's chunk reports progress */
  GThread   *thread;
  guint64   *next;             /* per slot: track index of its next event */
  GArray    *hits;             /* Hit, in file order */
} Chunk;

struct _Scan
{
  CpelFile         *file;
  CpelQuery        *query;
  const guint8     *unordered;        /* per slot: events not in file order */
  const guint32    *direct;           /* track id -> slot for small ids, or NULL */
  guint32           n_direct;
  const guint32    *type_direct;      /* code -> type for small codes, or NULL */
  guint32           n_type_direct;
  GCancellable     *cancellable;
  gint              cancelled;        /* atomic */
  gsize             processed;        /* atomic */
  CpelProgressFunc  progress;
  gpointer          progress_data;
};

static gboolean
decide_label (Chunk            *chunk,
              guint             type,
              guint32           datum,
              const CpelStrtab *strtab)
{
  _cpel_query_build_label (chunk->scan->file, type, datum, strtab, chunk->label);
  return _cpel_query_label_matches (chunk->scan->query, chunk->label->str, chunk->label->len,
                        chunk->scratch);
}

static gboolean
match_text (Chunk            *chunk,
            guint             type,
            guint32           datum,
            const CpelStrtab *strtab)
{
  TypeCache *c = &chunk->caches[type];
  const CpelFormat *format = chunk->scan->file->types[type].datum_format;
  guint32 v;
  gboolean m;

  if (c->name_match)
    return TRUE;
  if (c->constant >= 0)
    return c->constant;
  if (cpel_format_is_constant (format))
    {
      c->constant = decide_label (chunk, type, datum, strtab);
      return c->constant;
    }
  if (c->disabled)
    return decide_label (chunk, type, datum, strtab);

  if (c->map == NULL)
    {
      c->map = cpel_u32map_new ();
      c->strtab = strtab;
    }
  else if (c->strtab != strtab && cpel_format_uses_string (format))
    return decide_label (chunk, type, datum, strtab);   /* another event section's table */

  /* Mostly distinct datums: the cache only costs. */
  if (++c->lookups % CACHE_REVIEW == 0 && c->hits < c->lookups / 2)
    {
      c->disabled = TRUE;
      chunk->cache_budget += cpel_u32map_size (c->map);
      g_clear_pointer (&c->map, cpel_u32map_free);
      return decide_label (chunk, type, datum, strtab);
    }

  v = cpel_u32map_get (c->map, datum);
  if (v != CPEL_U32MAP_NONE)
    {
      c->hits++;
      return v == 2;
    }

  m = decide_label (chunk, type, datum, strtab);
  if (chunk->cache_budget > 0)
    {
      cpel_u32map_insert (c->map, datum, m ? 2 : 1);
      chunk->cache_budget--;
    }
  return m;
}

/* Track slot of a track id (every id used by an event has one). */
static inline guint32
lookup_slot (const Scan *scan,
             guint32     id)
{
  if (scan->direct != NULL && id < scan->n_direct)
    return scan->direct[id];
  return cpel_u32map_get (scan->file->track_map, id);
}

/* Type of an event code (CPEL_U32MAP_NONE when unknown). */
static inline guint32
lookup_type (const Scan *scan,
             guint32     code)
{
  if (scan->type_direct != NULL && code < scan->n_type_direct)
    return scan->type_direct[code];
  return cpel_u32map_get (scan->file->type_map, code);
}

/* Pass 1 over [chunk->begin, chunk->end) in file order: every event
 * advances its track's counter, so a match's track index is known on the
 * spot (tracks in file order).  FALSE when cancelled. */
static gboolean
scan_chunk (Chunk *chunk)
{
  Scan *scan = chunk->scan;
  CpelFile *file = scan->file;
  CpelQuery *query = scan->query;
  const guint8 *unordered = scan->unordered;
  guint64 *next = chunk->next;
  guint64 fi = chunk->begin;
  guint32 last_id = 0, last_slot = G_MAXUINT32;
  guint section;

#define HIT(i, slot)                                                                   \
  G_STMT_START {                                                                       \
    Hit h_ = { (slot), unordered[(slot)] ? (guint32) (i) : (guint32) next[(slot)] };   \
    g_array_append_val (chunk->hits, h_);                                              \
  } G_STMT_END
#define TRACK_OF(rec, slot)                                                            \
  G_STMT_START {                                                                       \
    guint32 id_ = cpel_file_read32 (file, (rec) + 8);                                  \
    if (G_UNLIKELY (id_ != last_id || last_slot == G_MAXUINT32))                       \
      {                                                                                \
        last_id = id_;                                                                 \
        last_slot = lookup_slot (scan, id_);                                           \
      }                                                                                \
    (slot) = last_slot;                                                                \
  } G_STMT_END

  if (fi >= chunk->end)
    return TRUE;
  cpel_file_section_of (file, fi, &section);

  while (fi < chunk->end)
    {
      const CpelEventSection *sec;
      const guint8 *rec;
      guint64 stop;

      if (g_atomic_int_get (&scan->cancelled))
        return FALSE;
      if (G_UNLIKELY (g_atomic_int_get (&scan->query->gave_up)))
        {
          g_atomic_int_set (&scan->cancelled, 1);
          return FALSE;
        }
      if (scan->cancellable && g_cancellable_is_cancelled (scan->cancellable))
        {
          g_atomic_int_set (&scan->cancelled, 1);
          return FALSE;
        }

      /* the step stays inside one event section */
      while (fi >= file->evsecs[section].first_index + file->evsecs[section].count)
        section++;
      sec = &file->evsecs[section];
      stop = MIN (chunk->end, fi + CHECK_INTERVAL);
      stop = MIN (stop, sec->first_index + sec->count);
      rec = sec->records + (fi - sec->first_index) * CPEL_EVENT_RECORD_SIZE;

      if (query->mode == CPEL_SEARCH_CODE && query->n_codes == 1)
        {
          guint32 wanted = query->codes[0];

          for (guint64 i = fi; i < stop; i++, rec += CPEL_EVENT_RECORD_SIZE)
            {
              guint32 slot;

              TRACK_OF (rec, slot);
              if (G_UNLIKELY (slot >= file->n_tracks))
                continue;   /* only on a damaged mapping (zeros): see below */
              if (cpel_file_read32 (file, rec + 12) == wanted)
                HIT (i, slot);
              next[slot]++;
            }
        }
      else if (query->mode == CPEL_SEARCH_CODE)
        {
          for (guint64 i = fi; i < stop; i++, rec += CPEL_EVENT_RECORD_SIZE)
            {
              guint32 type = lookup_type (scan, cpel_file_read32 (file, rec + 12));
              guint32 slot;

              TRACK_OF (rec, slot);
              if (G_UNLIKELY (slot >= file->n_tracks))
                continue;   /* only on a damaged mapping (zeros): see below */
              if (type != CPEL_U32MAP_NONE && query->type_match[type])
                HIT (i, slot);
              next[slot]++;
            }
        }
      else
        {
          guint32 last_code = 0, type = G_MAXUINT32;

          for (guint64 i = fi; i < stop; i++, rec += CPEL_EVENT_RECORD_SIZE)
            {
              guint32 code = cpel_file_read32 (file, rec + 12);
              const TypeCache *c;
              guint32 slot;

              if (G_UNLIKELY (code != last_code || type == G_MAXUINT32))
                {
                  last_code = code;
                  type = lookup_type (scan, code);
                  /* every code used has a type, unless the mapping was damaged */
                  if (G_UNLIKELY (type >= file->n_types))
                    {
                      type = G_MAXUINT32;
                      continue;
                    }
                }
              TRACK_OF (rec, slot);
              if (G_UNLIKELY (slot >= file->n_tracks))
                continue;   /* only on a damaged mapping (zeros): see below */
              /* Decided for the whole type (name matches, or cannot), or per label. */
              c = &chunk->caches[type];
              if (G_UNLIKELY (file->text_offsets != NULL || file->lazy_texts != NULL))
                {
                  /* imported files: each event's own text, no per-datum shortcut */
                  if (!c->name_match)
                    _cpel_query_build_event_label (file, type, cpel_file_read32 (file, rec + 16),
                                                   sec->strtab, i, chunk->label);
                  if (c->name_match
                      || _cpel_query_label_matches (query, chunk->label->str, chunk->label->len,
                                                    chunk->scratch))
                    HIT (i, slot);
                }
              else if (c->name_match
                  || (c->constant != 0
                      && match_text (chunk, type, cpel_file_read32 (file, rec + 16), sec->strtab)))
                HIT (i, slot);
              next[slot]++;
            }
        }

      /* Read once: not kept resident (see cpel_file_drop_pages). */
      cpel_file_drop_pages (file, sec->records + (fi - sec->first_index) * CPEL_EVENT_RECORD_SIZE, rec);
      g_atomic_pointer_add (&scan->processed, (gssize) (stop - fi));
      fi = stop;
      if (chunk->report && scan->progress && file->n_events > 0)
        scan->progress (0.9 * (double) (gsize) g_atomic_pointer_get (&scan->processed)
                        / file->n_events, scan->progress_data);
    }
#undef HIT
#undef TRACK_OF
  return TRUE;
}

static gpointer
chunk_thread (gpointer data)
{
  scan_chunk (data);
  return NULL;
}

static guint
choose_threads (guint64 n_events)
{
  guint64 n = MIN (g_get_num_processors (), MAX_THREADS);

  n = MIN (n, n_events / MIN_PER_THREAD);
  return (guint) MAX (n, 1);
}

static void
free_chunks (Chunk *chunks,
             guint  n_chunks,
             guint  n_types)
{
  for (guint c = 0; c < n_chunks; c++)
    {
      g_string_free (chunks[c].label, TRUE);
      g_string_free (chunks[c].scratch, TRUE);
      if (chunks[c].caches != NULL)
        for (guint t = 0; t < n_types; t++)
          g_clear_pointer (&chunks[c].caches[t].map, cpel_u32map_free);
      g_free (chunks[c].caches);
      g_free (chunks[c].next);
      if (chunks[c].hits != NULL)
        g_array_unref (chunks[c].hits);
    }
  g_free (chunks);
}

/* ---- what the search keeps about a file --------------------------------- */

/* Computed at the first search of a file and kept with it (object data):
 * which tracks are not in file order (the loader sorted their events by
 * time), and a direct track id -> slot table when the ids are small. */
typedef struct _CpelSearchFileInfo
{
  guint8  *unordered;
  guint32 *direct;        /* track id -> slot */
  guint32  n_direct;
  guint32 *type_direct;   /* event code -> type */
  guint32  n_type_direct;
} FileInfo;

void
cpel_search_file_info_free (FileInfo *info)
{
  g_free (info->unordered);
  g_free (info->direct);
  g_free (info->type_direct);
  g_free (info);
}

static const FileInfo *
file_info_get (CpelFile *file)
{
  static GMutex lock;
  FileInfo *info;

  g_mutex_lock (&lock);
  info = file->search_info;
  if (info == NULL)
    {
      guint32 max_id = file->n_tracks > 0 ? file->tracks[file->n_tracks - 1].id : 0;

      info = g_new0 (FileInfo, 1);
      info->unordered = g_new0 (guint8, MAX (file->n_tracks, 1));
      for (guint s = 0; s < file->n_tracks; s++)
        {
          const guint32 *recs = file->recs + file->tracks[s].first;

          for (guint64 i = 1; i < file->tracks[s].count; i++)
            if (recs[i] < recs[i - 1])
              {
                info->unordered[s] = 1;
                break;
              }
          cpel_index_store_drop (file, recs, recs + file->tracks[s].count);
        }
      /* Slots are in ascending id order: the largest id is the last. */
      if (file->n_tracks > 0 && max_id < 4 * (guint64) file->n_tracks + 65536)
        {
          info->n_direct = max_id + 1;
          info->direct = g_new (guint32, info->n_direct);
          memset (info->direct, 0xff, sizeof (guint32) * info->n_direct);
          for (guint s = 0; s < file->n_tracks; s++)
            info->direct[file->tracks[s].id] = s;
        }
      /* Types are in ascending code order too. */
      if (file->n_types > 0 && file->types[file->n_types - 1].code < 4 * (guint64) file->n_types + 65536)
        {
          info->n_type_direct = file->types[file->n_types - 1].code + 1;
          info->type_direct = g_new (guint32, info->n_type_direct);
          memset (info->type_direct, 0xff, sizeof (guint32) * info->n_type_direct);
          for (guint t = 0; t < file->n_types; t++)
            info->type_direct[file->types[t].code] = t;
        }
      file->search_info = info;
    }
  g_mutex_unlock (&lock);
  return info;
}

/* ---- the search -------------------------------------------------------- */

/* Turns the hits of tracks not in file order (their file index) into track
 * indices: each such track's events are walked once. */
static void
fix_unordered (CpelFile     *file,
               const guint8 *unordered,
               Chunk        *chunks,
               guint         n_chunks)
{
  for (guint s = 0; s < file->n_tracks; s++)
    {
      g_autoptr(GArray) fis = NULL;
      g_autofree guint32 *idx = NULL;
      const guint32 *recs;
      guint64 k;

      if (!unordered[s])
        continue;
      fis = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (guint c = 0; c < n_chunks; c++)
        for (guint i = 0; i < chunks[c].hits->len; i++)
          {
            const Hit *h = &g_array_index (chunks[c].hits, Hit, i);
            if (h->slot == s)
              g_array_append_val (fis, h->index);   /* ascending: file order */
          }
      if (fis->len == 0)
        continue;
      /* idx[j]: track index of the j-th match (in file order). */
      idx = g_new (guint32, fis->len);
      recs = file->recs + file->tracks[s].first;
      for (guint64 i = 0; i < file->tracks[s].count; i++)
        {
          const guint32 *f = (const guint32 *) (gpointer) fis->data;
          guint lo = 0, hi = fis->len;

          while (lo < hi)
            {
              guint mid = lo + (hi - lo) / 2;
              if (f[mid] < recs[i])
                lo = mid + 1;
              else
                hi = mid;
            }
          if (lo < fis->len && f[lo] == recs[i])
            idx[lo] = (guint32) i;
        }
      cpel_index_store_drop (file, recs, recs + file->tracks[s].count);
      k = 0;
      for (guint c = 0; c < n_chunks; c++)
        for (guint i = 0; i < chunks[c].hits->len; i++)
          {
            Hit *h = &g_array_index (chunks[c].hits, Hit, i);
            if (h->slot == s)
              h->index = idx[k++];
          }
    }
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

CpelSearchResult *
cpel_search_run (CpelFile          *file,
                 CpelQuery         *query,
                 GCancellable      *cancellable,
                 CpelProgressFunc   progress,
                 gpointer           progress_data,
                 GError           **error)
{
  Scan scan = { 0, };
  const FileInfo *info;
  Chunk *chunks = NULL;
  guint n_chunks;
  guint64 total;
  g_autofree guint64 *fill = NULL;
  GArray *all;
  CpelSearchResult *result = NULL;
  g_autofree guint8 *may_match = NULL;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (query->file == file, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = file_info_get (file);
  scan.file = file;
  scan.query = query;
  scan.unordered = info->unordered;
  scan.direct = info->direct;
  scan.n_direct = info->n_direct;
  scan.type_direct = info->type_direct;
  scan.n_type_direct = info->n_type_direct;
  scan.cancellable = cancellable;
  scan.progress = progress;
  scan.progress_data = progress_data;

  if (query->mode == CPEL_SEARCH_TEXT)
    {
      may_match = g_new (guint8, MAX (file->n_types, 1));
      for (guint t = 0; t < file->n_types; t++)
        may_match[t] = _cpel_query_type_may_match (query, t);
    }

  /* Pass 1: contiguous chunks of the file, one per thread. */
  n_chunks = choose_threads (file->n_events);
  chunks = g_new0 (Chunk, n_chunks);
  for (guint c = 0; c < n_chunks; c++)
    {
      Chunk *chunk = &chunks[c];

      chunk->scan = &scan;
      chunk->begin = file->n_events * c / n_chunks;
      chunk->end = file->n_events * (c + 1) / n_chunks;
      chunk->label = g_string_sized_new (256);
      chunk->scratch = g_string_sized_new (256);
      chunk->cache_budget = CACHE_BUDGET;
      chunk->hits = g_array_new (FALSE, FALSE, sizeof (Hit));
      /* Each track's counter starts at its events before the chunk. */
      chunk->next = g_new0 (guint64, MAX (file->n_tracks, 1));
      if (c > 0)
        for (guint s = 0; s < file->n_tracks; s++)
          {
            const guint32 *recs = file->recs + file->tracks[s].first;
            guint64 lo = 0, hi = file->tracks[s].count;

            if (info->unordered[s])
              continue;
            while (lo < hi)
              {
                guint64 mid = lo + (hi - lo) / 2;
                if (recs[mid] < chunk->begin)
                  lo = mid + 1;
                else
                  hi = mid;
              }
            chunk->next[s] = lo;
          }
      if (query->mode != CPEL_SEARCH_CODE)
        {
          chunk->caches = g_new0 (TypeCache, MAX (file->n_types, 1));
          for (guint t = 0; t < file->n_types; t++)
            {
              const char *name = file->types[t].name;

              chunk->caches[t].constant = -1;
              /* A substring of the name is one of "name: datum" too. */
              if (query->mode == CPEL_SEARCH_TEXT)
                {
                  chunk->caches[t].name_match =
                    _cpel_query_label_matches (query, name, strlen (name), chunk->scratch);
                  if (!may_match[t])
                    chunk->caches[t].constant = 0;
                }
            }
        }
    }
  chunks[0].report = TRUE;
  for (guint c = 1; c < n_chunks; c++)
    {
      chunks[c].thread = g_thread_try_new ("cpel-search", chunk_thread, &chunks[c], NULL);
      if (chunks[c].thread == NULL)
        scan_chunk (&chunks[c]);   /* no thread: do it here */
    }
  scan_chunk (&chunks[0]);
  for (guint c = 1; c < n_chunks; c++)
    if (chunks[c].thread != NULL)
      g_thread_join (chunks[c].thread);

  if (!cpel_query_check (query, error))
    {
      free_chunks (chunks, n_chunks, file->n_types);
      return NULL;
    }
  if (g_atomic_int_get (&scan.cancelled))
    goto cancelled;
  /* The file shrank under the scan (SIGBUS repaired with zeros): what was
   * read from then on is not the file's; its track indices cannot be trusted. */
  if (cpel_file_is_damaged (file))
    {
      free_chunks (chunks, n_chunks, file->n_types);
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_IO,
                           _("The file changed on disk while it was searched"));
      return NULL;
    }

  /* Pass 2: track indices for the tracks not in file order; the hits of
   * all chunks in one array (chunk 0's grows: its pages are moved, not
   * copied), which becomes the result's references; each track's matches. */
  fix_unordered (file, info->unordered, chunks, n_chunks);
  all = g_steal_pointer (&chunks[0].hits);
  for (guint c = 1; c < n_chunks; c++)
    {
      g_array_append_vals (all, chunks[c].hits->data, chunks[c].hits->len);
      g_clear_pointer (&chunks[c].hits, g_array_unref);
    }
  free_chunks (chunks, n_chunks, file->n_types);
  chunks = NULL;
  total = all->len;

  result = g_new0 (CpelSearchResult, 1);
  g_atomic_ref_count_init (&result->ref_count);
  result->n_tracks = file->n_tracks;
  result->n = total;
  if (total == 0)
    g_array_set_size (all, 1);
  result->refs = (CpelEventRef *) (gpointer) g_array_free (g_steal_pointer (&all), FALSE);
  result->track_offsets = g_new0 (guint64, file->n_tracks + 1);
  for (guint64 i = 0; i < total; i++)
    result->track_offsets[result->refs[i].slot + 1]++;
  for (guint s = 0; s < file->n_tracks; s++)
    result->track_offsets[s + 1] += result->track_offsets[s];
  result->track_matches = g_new (guint32, MAX (total, 1));
  fill = g_new (guint64, MAX (file->n_tracks, 1));
  for (guint s = 0; s < file->n_tracks; s++)
    fill[s] = result->track_offsets[s];
  for (guint64 i = 0; i < total; i++)
    result->track_matches[fill[result->refs[i].slot]++] = result->refs[i].index;
  for (guint s = 0; s < file->n_tracks; s++)
    if (info->unordered[s])
      qsort (result->track_matches + result->track_offsets[s],
             result->track_offsets[s + 1] - result->track_offsets[s], sizeof (guint32),
             compare_u32);

  _cpel_search_result_build_track_bits (file, result);

  if (progress)
    progress (0.95, progress_data);

  /* Pass 3: global time order (file order breaks ties). */
  if (!_cpel_search_result_order (file, result, cancellable))
    goto cancelled;

  if (progress)
    progress (1.0, progress_data);
  return result;

cancelled:
  if (chunks != NULL)
    free_chunks (chunks, n_chunks, file->n_types);
  g_clear_pointer (&result, cpel_search_result_unref);
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Search cancelled"));
  return NULL;
}
