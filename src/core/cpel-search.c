/* cpel-search.c — finding events by code, text or regex
 *
 * A search scans the per-track index (track-major positions, see
 * cpel-file-private.h), split into contiguous chunks scanned by a few
 * threads; every thread collects the matching positions of its chunk in
 * ascending order, so their concatenation is sorted by (slot, track index).
 * The global time order is then a k-way merge of the tracks' matches on
 * (time, file index).
 *
 * Text and regex modes match the label "name: datum".  Labels are not
 * formatted twice when it can be avoided: a type whose datum format is
 * constant is decided once; other types cache their outcome per datum value
 * (the usual "%s" datum has few distinct string offsets) until the cache
 * stops paying off.
 */
#define _GNU_SOURCE
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cpel-file-private.h"
#include "cpel-search.h"

#define CHECK_INTERVAL   0x10000u    /* events between cancel/progress checks */
#define MIN_PER_THREAD   (1u << 18)  /* no threads for small files */
#define MAX_THREADS      8

/* ---- queries ----------------------------------------------------------- */

struct _CpelQuery
{
  CpelFile       *file;
  CpelSearchMode  mode;
  gboolean        case_sensitive;

  /* text */
  char           *needle;        /* casefolded unless case_sensitive */
  gsize           needle_len;

  /* regex */
  GRegex         *regex;

  /* code */
  guint8         *type_match;    /* n_types flags */
  guint32        *codes;         /* the matching codes */
  guint           n_codes;
};

static gboolean
is_ascii (const char *s,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if ((guchar) s[i] >= 0x80)
      return FALSE;
  return TRUE;
}

/* A case-insensitive key for `s`: Unicode casefolding for valid UTF-8,
 * ASCII lowering otherwise. */
static char *
fold (const char *s,
      gssize      len)
{
  if (len < 0)
    len = strlen (s);
  if (g_utf8_validate_len (s, len, NULL))
    return g_utf8_casefold (s, len);
  return g_ascii_strdown (s, len);
}

static gboolean
setup_code (CpelQuery   *query,
            const char  *text,
            GError     **error)
{
  CpelFile *file = query->file;
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  g_autofree char *key = NULL;
  GArray *codes = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 number;
  guint type;

  query->type_match = g_new0 (guint8, MAX (file->n_types, 1));

  /* A number: decimal or 0x hex. */
  if ((g_str_has_prefix (stripped, "0x") || g_str_has_prefix (stripped, "0X"))
      ? g_ascii_string_to_unsigned (stripped + 2, 16, 0, G_MAXUINT32, &number, NULL)
      : g_ascii_string_to_unsigned (stripped, 10, 0, G_MAXUINT32, &number, NULL))
    {
      if (cpel_file_lookup_type (file, (guint32) number, &type))
        {
          query->type_match[type] = 1;
          g_array_append_val (codes, file->types[type].code);
        }
    }

  /* Otherwise an event type name, case-insensitive. */
  if (codes->len == 0 && stripped[0] != '\0')
    {
      key = fold (stripped, -1);
      for (guint t = 0; t < file->n_types; t++)
        {
          g_autofree char *name = g_strstrip (g_strdup (file->types[t].name));
          g_autofree char *name_key = fold (name, -1);

          if (strcmp (name_key, key) == 0)
            {
              query->type_match[t] = 1;
              g_array_append_val (codes, file->types[t].code);
            }
        }
    }

  query->n_codes = codes->len;
  query->codes = (guint32 *) g_array_free (codes, FALSE);
  if (query->n_codes == 0)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("No event code or event type named “%s” in this file"), stripped);
      return FALSE;
    }
  return TRUE;
}

CpelQuery *
cpel_query_new (CpelFile        *file,
                CpelSearchMode   mode,
                const char      *text,
                gboolean         case_sensitive,
                GError         **error)
{
  g_autoptr(CpelQuery) query = NULL;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  query = g_new0 (CpelQuery, 1);
  query->file = g_object_ref (file);
  query->mode = mode;
  query->case_sensitive = case_sensitive;

  switch (mode)
    {
    case CPEL_SEARCH_TEXT:
      query->needle = case_sensitive ? g_strdup (text) : fold (text, -1);
      query->needle_len = strlen (query->needle);
      break;

    case CPEL_SEARCH_REGEX:
      {
        g_autoptr(GError) local = NULL;
        GRegexCompileFlags flags = G_REGEX_OPTIMIZE;

        if (!case_sensitive)
          flags |= G_REGEX_CASELESS;
        query->regex = g_regex_new (text, flags, 0, &local);
        if (query->regex == NULL)
          {
            g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                         _("Invalid regular expression: %s"), local->message);
            return NULL;
          }
      }
      break;

    case CPEL_SEARCH_CODE:
      if (!setup_code (query, text, error))
        return NULL;
      break;

    default:
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("Unknown search mode %d"), (int) mode);
      return NULL;
    }

  return g_steal_pointer (&query);
}

void
cpel_query_free (CpelQuery *query)
{
  if (query == NULL)
    return;
  g_clear_object (&query->file);
  g_free (query->needle);
  g_clear_pointer (&query->regex, g_regex_unref);
  g_free (query->type_match);
  g_free (query->codes);
  g_free (query);
}

/* Does the label (text or regex mode) match?  `scratch` is working space. */
static gboolean
label_matches (const CpelQuery *query,
               const char      *label,
               gsize            len,
               GString         *scratch)
{
  if (query->mode == CPEL_SEARCH_REGEX)
    {
      if (G_LIKELY (g_utf8_validate_len (label, len, NULL)))
        return g_regex_match_full (query->regex, label, len, 0, 0, NULL, NULL);
      else
        {
          g_autofree char *valid = g_utf8_make_valid (label, len);
          return g_regex_match (query->regex, valid, 0, NULL);
        }
    }

  if (query->needle_len == 0)
    return TRUE;
  if (query->case_sensitive)
    return memmem (label, len, query->needle, query->needle_len) != NULL;

  if (G_LIKELY (is_ascii (label, len)))
    {
      char *dst;

      g_string_set_size (scratch, len);
      dst = scratch->str;
      for (gsize i = 0; i < len; i++)
        dst[i] = g_ascii_tolower (label[i]);
      return memmem (dst, len, query->needle, query->needle_len) != NULL;
    }
  else
    {
      g_autofree char *key = fold (label, len);
      return strstr (key, query->needle) != NULL;
    }
}

/* "name: datum", or "name" when the datum is empty (as cpel_file_append_label). */
static void
build_label (CpelFile         *file,
             guint             type,
             guint32           datum,
             const CpelStrtab *strtab,
             GString          *out)
{
  gsize before;

  g_string_truncate (out, 0);
  g_string_append (out, file->types[type].name);
  g_string_append_len (out, ": ", 2);
  before = out->len;
  cpel_format_append (file->types[type].datum_format, datum, strtab, &file->symtab, out);
  if (out->len == before)
    g_string_truncate (out, before - 2);
}

gboolean
cpel_query_match (CpelQuery       *query,
                  const CpelEvent *event)
{
  g_autoptr(GString) label = NULL;
  g_autoptr(GString) scratch = NULL;

  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (event->type >= query->file->n_types)
    return FALSE;
  if (query->mode == CPEL_SEARCH_CODE)
    return query->type_match[event->type] != 0;

  label = g_string_sized_new (64);
  scratch = g_string_sized_new (64);
  build_label (query->file, event->type, event->datum,
               cpel_file_get_event_strtab (query->file, event->section), label);
  return label_matches (query, label->str, label->len, scratch);
}

/* ---- results ----------------------------------------------------------- */

struct _CpelSearchResult
{
  gatomicrefcount  ref_count;
  guint            n_tracks;
  guint64         *track_offsets;   /* n_tracks + 1 */
  guint64         *track_matches;   /* per track, sorted track indices */
  CpelEventRef    *refs;            /* global time order */
  guint64          n;
};

CpelSearchResult *
cpel_search_result_ref (CpelSearchResult *result)
{
  g_return_val_if_fail (result != NULL, NULL);
  g_atomic_ref_count_inc (&result->ref_count);
  return result;
}

void
cpel_search_result_unref (CpelSearchResult *result)
{
  g_return_if_fail (result != NULL);
  if (!g_atomic_ref_count_dec (&result->ref_count))
    return;
  g_free (result->track_offsets);
  g_free (result->track_matches);
  g_free (result->refs);
  g_free (result);
}

guint64
cpel_search_result_get_n (CpelSearchResult *result)
{
  g_return_val_if_fail (result != NULL, 0);
  return result->n;
}

const CpelEventRef *
cpel_search_result_get (CpelSearchResult *result,
                        guint64           i)
{
  g_return_val_if_fail (result != NULL, NULL);
  g_return_val_if_fail (i < result->n, NULL);
  return &result->refs[i];
}

const guint64 *
cpel_search_result_get_track (CpelSearchResult *result,
                              guint             slot,
                              guint64          *n_matches)
{
  g_return_val_if_fail (result != NULL, NULL);

  if (slot >= result->n_tracks)
    {
      if (n_matches)
        *n_matches = 0;
      g_return_val_if_reached (NULL);
    }
  if (n_matches)
    *n_matches = result->track_offsets[slot + 1] - result->track_offsets[slot];
  return result->track_matches + result->track_offsets[slot];
}

guint64
cpel_search_result_find_next (CpelSearchResult *result,
                              CpelFile         *file,
                              gint64            time,
                              guint64           file_index)
{
  guint64 lo = 0, hi;

  g_return_val_if_fail (result != NULL, 0);
  g_return_val_if_fail (CPEL_IS_FILE (file), result->n);
  g_return_val_if_fail (file->n_tracks == result->n_tracks, result->n);

  hi = result->n;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      const CpelEventRef *r = &result->refs[mid];
      guint64 pos = file->tracks[r->slot].first + r->index;
      gint64 t = file->times[pos];

      if (t < time || (t == time && file->recs[pos] < file_index))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* ---- the scan ---------------------------------------------------------- */

typedef struct
{
  CpelU32Map       *map;       /* datum -> 1 no / 2 yes */
  const CpelStrtab *strtab;    /* table the cached outcomes used (%s formats) */
  guint32           inserts;
  guint32           hits;
  gint8             constant;  /* constant formats: -1 undecided, 0/1 */
  gboolean          disabled;
} TypeCache;

#define CACHE_MAX_INSERTS (1u << 18)
#define CACHE_REVIEW      4096u

typedef struct _Scan Scan;

typedef struct
{
  Scan      *scan;
  guint64    begin, end;       /* track-major positions */
  GArray    *positions;        /* guint64, matching positions, ascending */
  TypeCache *caches;           /* n_types (text/regex) */
  GString   *label;
  GString   *scratch;
  gboolean   report;           /* the caller's chunk reports progress */
  GThread   *thread;
} Chunk;

struct _Scan
{
  CpelFile         *file;
  CpelQuery        *query;
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
  build_label (chunk->scan->file, type, datum, strtab, chunk->label);
  return label_matches (chunk->scan->query, chunk->label->str, chunk->label->len,
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

  v = cpel_u32map_get (c->map, datum);
  if (v != CPEL_U32MAP_NONE)
    {
      c->hits++;
      return v == 2;
    }

  m = decide_label (chunk, type, datum, strtab);
  cpel_u32map_insert (c->map, datum, m ? 2 : 1);
  c->inserts++;
  /* Mostly distinct datums: the cache only costs. */
  if (c->inserts >= CACHE_MAX_INSERTS
      || (c->inserts % CACHE_REVIEW == 0 && c->hits < 2 * c->inserts))
    {
      c->disabled = TRUE;
      g_clear_pointer (&c->map, cpel_u32map_free);
    }
  return m;
}

/* Returns FALSE when cancelled. */
static gboolean
scan_chunk (Chunk *chunk)
{
  Scan *scan = chunk->scan;
  CpelFile *file = scan->file;
  CpelQuery *query = scan->query;
  gboolean report = chunk->report;
  guint64 pos = chunk->begin;

  while (pos < chunk->end)
    {
      guint64 stop = MIN (chunk->end, pos + CHECK_INTERVAL);
      guint64 step_begin = pos;

      if (g_atomic_int_get (&scan->cancelled))
        return FALSE;
      if (scan->cancellable && g_cancellable_is_cancelled (scan->cancellable))
        {
          g_atomic_int_set (&scan->cancelled, 1);
          return FALSE;
        }

      for (; pos < stop; pos++)
        {
          guint section;
          const guint8 *rec = cpel_file_record (file, file->recs[pos], &section);
          guint32 code = cpel_file_read32 (file, rec + 12);
          gboolean m;

          if (query->mode == CPEL_SEARCH_CODE)
            {
              if (G_LIKELY (query->n_codes == 1))
                m = code == query->codes[0];
              else
                {
                  guint32 type = cpel_u32map_get (file->type_map, code);
                  m = type != CPEL_U32MAP_NONE && query->type_match[type];
                }
            }
          else
            {
              guint32 type = cpel_u32map_get (file->type_map, code);

              g_assert (type < file->n_types);   /* every code used has a type */
              m = match_text (chunk, type, cpel_file_read32 (file, rec + 16),
                              file->evsecs[section].strtab);
            }
          if (m)
            g_array_append_val (chunk->positions, pos);
        }

      g_atomic_pointer_add (&scan->processed, (gssize) (stop - step_begin));
      if (report && scan->progress && file->n_events > 0)
        scan->progress ((double) (gsize) g_atomic_pointer_get (&scan->processed) / file->n_events,
                        scan->progress_data);
    }
  return TRUE;
}

static gpointer
chunk_thread (gpointer data)
{
  scan_chunk (data);
  return NULL;
}

typedef struct
{
  gint64   t;
  guint32  rec;
  guint    slot;
  guint64  k;      /* next position in track_matches */
  guint64  end;
} Head;

static inline gboolean
head_less (const Head *a,
           const Head *b)
{
  return a->t < b->t || (a->t == b->t && a->rec < b->rec);
}

static void
sift_down (Head  *h,
           guint  n,
           guint  i)
{
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      Head tmp;

      if (l < n && head_less (&h[l], &h[m]))
        m = l;
      if (r < n && head_less (&h[r], &h[m]))
        m = r;
      if (m == i)
        return;
      tmp = h[i];
      h[i] = h[m];
      h[m] = tmp;
      i = m;
    }
}

static inline void
load_head (CpelFile               *file,
           const CpelSearchResult *result,
           Head                   *h)
{
  guint64 pos = file->tracks[h->slot].first + result->track_matches[h->k];

  h->t = file->times[pos];
  h->rec = file->recs[pos];
}

/* Fills result->refs in (time, file index) order; FALSE when cancelled. */
static gboolean
merge_tracks (CpelFile         *file,
              CpelSearchResult *result,
              GCancellable     *cancellable)
{
  g_autofree Head *heap = NULL;
  guint n = 0;
  guint64 j = 0;

  heap = g_new (Head, MAX (result->n_tracks, 1));
  for (guint s = 0; s < result->n_tracks; s++)
    {
      if (result->track_offsets[s] == result->track_offsets[s + 1])
        continue;
      heap[n].slot = s;
      heap[n].k = result->track_offsets[s];
      heap[n].end = result->track_offsets[s + 1];
      load_head (file, result, &heap[n]);
      n++;
    }
  for (guint i = n / 2; i-- > 0;)
    sift_down (heap, n, i);

  while (n > 0)
    {
      Head *top = &heap[0];

      /* Only one track left: the rest of it in order. */
      if (n == 1)
        {
          for (; top->k < top->end; top->k++, j++)
            {
              result->refs[j].slot = top->slot;
              result->refs[j].index = result->track_matches[top->k];
            }
          break;
        }

      if ((j & (CHECK_INTERVAL - 1)) == 0 && cancellable
          && g_cancellable_is_cancelled (cancellable))
        return FALSE;

      result->refs[j].slot = top->slot;
      result->refs[j].index = result->track_matches[top->k];
      j++;
      if (++top->k < top->end)
        load_head (file, result, top);
      else
        heap[0] = heap[--n];
      sift_down (heap, n, 0);
    }
  g_assert (j == result->n);
  return TRUE;
}

static guint
choose_threads (guint64 n_events)
{
  guint64 n = MIN (g_get_num_processors (), MAX_THREADS);

  n = MIN (n, n_events / MIN_PER_THREAD);
  return (guint) MAX (n, 1);
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
  Chunk *chunks;
  guint n_chunks;
  CpelSearchResult *result = NULL;
  guint64 total = 0, i;
  gboolean cancelled;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (query->file == file, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  scan.file = file;
  scan.query = query;
  scan.cancellable = cancellable;
  scan.progress = progress;
  scan.progress_data = progress_data;

  n_chunks = choose_threads (file->n_events);
  chunks = g_new0 (Chunk, n_chunks);
  for (guint c = 0; c < n_chunks; c++)
    {
      Chunk *chunk = &chunks[c];

      chunk->scan = &scan;
      chunk->begin = file->n_events * c / n_chunks;
      chunk->end = file->n_events * (c + 1) / n_chunks;
      chunk->positions = g_array_new (FALSE, FALSE, sizeof (guint64));
      chunk->label = g_string_sized_new (256);
      chunk->scratch = g_string_sized_new (256);
      if (query->mode != CPEL_SEARCH_CODE)
        {
          chunk->caches = g_new0 (TypeCache, MAX (file->n_types, 1));
          for (guint t = 0; t < file->n_types; t++)
            chunk->caches[t].constant = -1;
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

  cancelled = g_atomic_int_get (&scan.cancelled);
  if (!cancelled)
    {
      guint64 *dst;

      result = g_new0 (CpelSearchResult, 1);
      g_atomic_ref_count_init (&result->ref_count);
      result->n_tracks = file->n_tracks;
      for (guint c = 0; c < n_chunks; c++)
        total += chunks[c].positions->len;
      result->n = total;
      result->track_matches = g_new (guint64, MAX (total, 1));
      result->track_offsets = g_new0 (guint64, file->n_tracks + 1);
      result->refs = g_new (CpelEventRef, MAX (total, 1));

      dst = result->track_matches;
      for (guint c = 0; c < n_chunks; c++)
        {
          memcpy (dst, chunks[c].positions->data, chunks[c].positions->len * sizeof (guint64));
          dst += chunks[c].positions->len;
        }
    }

  for (guint c = 0; c < n_chunks; c++)
    {
      g_array_free (chunks[c].positions, TRUE);
      g_string_free (chunks[c].label, TRUE);
      g_string_free (chunks[c].scratch, TRUE);
      if (chunks[c].caches != NULL)
        for (guint t = 0; t < file->n_types; t++)
          g_clear_pointer (&chunks[c].caches[t].map, cpel_u32map_free);
      g_free (chunks[c].caches);
    }
  g_free (chunks);

  if (cancelled)
    goto cancelled;

  /* Track-major positions -> per-track indices and offsets. */
  i = 0;
  for (guint s = 0; s < file->n_tracks; s++)
    {
      guint64 first = file->tracks[s].first;
      guint64 end = first + file->tracks[s].count;

      result->track_offsets[s] = i;
      for (; i < total && result->track_matches[i] < end; i++)
        result->track_matches[i] -= first;
    }
  g_assert (i == total);
  result->track_offsets[file->n_tracks] = total;

  if (!merge_tracks (file, result, cancellable))
    goto cancelled;

  if (progress)
    progress (1.0, progress_data);
  return result;

cancelled:
  g_clear_pointer (&result, cpel_search_result_unref);
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Search cancelled"));
  return NULL;
}
