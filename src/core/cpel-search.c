/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search.c — finding events by code, text or regex
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

/* Substring test for short haystacks (labels) and needles: cheaper than
 * memmem's set-up. */
static inline gboolean
contains (const char *hay,
          gsize       hay_len,
          const char *needle,
          gsize       needle_len)
{
  const char *p, *last;

  if (needle_len == 0)
    return TRUE;
  if (needle_len > hay_len)
    return FALSE;
  last = hay + (hay_len - needle_len);
  for (p = hay; p <= last; p++)
    {
      p = memchr (p, needle[0], last - p + 1);
      if (p == NULL)
        return FALSE;
      if (memcmp (p + 1, needle + 1, needle_len - 1) == 0)
        return TRUE;
    }
  return FALSE;
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
  gboolean numeric;

  query->type_match = g_new0 (guint8, MAX (file->n_types, 1));

  /* A number: decimal or 0x hex. */
  numeric = (g_str_has_prefix (stripped, "0x") || g_str_has_prefix (stripped, "0X"))
            ? g_ascii_string_to_unsigned (stripped + 2, 16, 0, G_MAXUINT32, &number, NULL)
            : g_ascii_string_to_unsigned (stripped, 10, 0, G_MAXUINT32, &number, NULL);
  if (numeric)
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
  /* A code the file does not use matches nothing; a name must exist. */
  if (query->n_codes == 0 && !numeric)
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
    return contains (label, len, query->needle, query->needle_len);

  /* ASCII labels (the usual): lower in one pass, noticing other bytes. */
  {
    char *dst;
    guchar high = 0;

    g_string_set_size (scratch, len);
    dst = scratch->str;
    for (gsize i = 0; i < len; i++)
      {
        guchar ch = label[i];

        high |= ch;
        dst[i] = (ch >= 'A' && ch <= 'Z') ? ch + ('a' - 'A') : ch;
      }
    if (G_LIKELY (high < 0x80))
      return contains (dst, len, query->needle, query->needle_len);
  }
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
  guint64        **track_bits;      /* per track: matched indices as bits, or NULL */
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
  for (guint s = 0; result->track_bits != NULL && s < result->n_tracks; s++)
    g_free (result->track_bits[s]);
  g_free (result->track_bits);
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

const guint64 *
cpel_search_result_get_track_bits (CpelSearchResult *result,
                                   guint             slot)
{
  g_return_val_if_fail (result != NULL, NULL);

  if (result->track_bits == NULL || slot >= result->n_tracks)
    return NULL;
  return result->track_bits[slot];
}

/* Bit sets of the tracks where at least one event in 64 matches: there they
 * take no more room than the match list, and answer "any match between
 * these two events" with a scan of neighbouring words. */
static void
build_track_bits (CpelFile         *file,
                  CpelSearchResult *result)
{
  result->track_bits = g_new0 (guint64 *, MAX (result->n_tracks, 1));
  for (guint s = 0; s < result->n_tracks; s++)
    {
      guint64 n = file->tracks[s].count;
      guint64 m = result->track_offsets[s + 1] - result->track_offsets[s];
      const guint64 *matches = result->track_matches + result->track_offsets[s];
      guint64 *bits;

      if (m == 0 || m * 64 < n)
        continue;
      bits = g_new0 (guint64, n / 64 + 1);
      for (guint64 i = 0; i < m; i++)
        if (matches[i] < n)
          bits[matches[i] >> 6] |= G_GUINT64_CONSTANT (1) << (matches[i] & 63);
      result->track_bits[s] = bits;
    }
}

static gboolean
filtered_out (CpelFile     *file,
              const guint8 *hidden_slots,
              const guint8 *hidden_types,
              guint         slot,
              guint64       index)
{
  guint32 type;

  if (hidden_slots != NULL && hidden_slots[slot])
    return TRUE;
  if (hidden_types == NULL)
    return FALSE;
  type = cpel_u32map_get (file->type_map, cpel_file_get_track_event_code (file, slot, index));
  return type != CPEL_U32MAP_NONE && hidden_types[type];
}

CpelSearchResult *
cpel_search_result_filter (CpelSearchResult *result,
                           CpelFile         *file,
                           const guint8     *hidden_slots,
                           const guint8     *hidden_types)
{
  CpelSearchResult *out;
  g_autofree guint8 *keep = NULL;
  g_autofree guint64 *cursor = NULL;
  guint64 k = 0, kept = 0;

  g_return_val_if_fail (result != NULL, NULL);
  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (result->n_tracks == file->n_tracks, NULL);

  if (hidden_slots == NULL && hidden_types == NULL)
    return cpel_search_result_ref (result);

  out = g_new0 (CpelSearchResult, 1);
  g_atomic_ref_count_init (&out->ref_count);
  out->n_tracks = result->n_tracks;
  out->track_offsets = g_new0 (guint64, result->n_tracks + 1);
  out->track_matches = g_new (guint64, MAX (result->track_offsets[result->n_tracks], 1));
  /* Each match decided once (a type lookup reads its record): per track,
   * then the global list takes the decisions back in the same order. */
  keep = g_new (guint8, MAX (result->track_offsets[result->n_tracks], 1));
  for (guint s = 0; s < result->n_tracks; s++)
    {
      for (guint64 i = result->track_offsets[s]; i < result->track_offsets[s + 1]; i++)
        {
          guint64 index = result->track_matches[i];

          keep[i] = index < file->tracks[s].count
                    && !filtered_out (file, hidden_slots, hidden_types, s, index);
          if (keep[i])
            out->track_matches[kept++] = index;
        }
      out->track_offsets[s + 1] = kept;
    }
  build_track_bits (file, out);

  /* A track's matches come in the global list in track order. */
  cursor = g_new (guint64, MAX (result->n_tracks, 1));
  memcpy (cursor, result->track_offsets, sizeof (guint64) * MAX (result->n_tracks, 1));
  out->refs = g_new (CpelEventRef, MAX (result->n, 1));
  for (guint64 i = 0; i < result->n; i++)
    {
      const CpelEventRef *ref = &result->refs[i];
      guint64 at;

      if (ref->slot >= result->n_tracks)
        continue;
      at = cursor[ref->slot]++;
      if (at < result->track_offsets[ref->slot + 1] && result->track_matches[at] == ref->index
          ? keep[at]
          : ref->index < file->tracks[ref->slot].count      /* not expected: decide again */
            && !filtered_out (file, hidden_slots, hidden_types, ref->slot, ref->index))
        out->refs[k++] = *ref;
    }
  out->n = k;
  return out;
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
 * index afterwards). */
typedef struct
{
  guint32 slot;
  guint32 index;
} Hit;

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
              if (c->name_match
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

/* A match with its sort key, at its rank in file order. */
typedef struct
{
  gint64   t;
  guint32  slot;
  guint32  index;   /* track index (< 2^32: CPEL_MAX_EVENTS) */
} Keyed;

G_STATIC_ASSERT (CPEL_MAX_EVENTS <= G_MAXUINT32);
G_STATIC_ASSERT (sizeof (Keyed) == sizeof (CpelEventRef));

/* Merges the sorted runs [a, b) and [b, c) of src into dst; on equal times
 * the left (earlier in file order) goes first: a stable merge. */
static void
merge_runs (const Keyed *src,
            Keyed       *dst,
            guint64      a,
            guint64      b,
            guint64      c)
{
  guint64 i = a, j = b, o = a;

  while (i < b && j < c)
    dst[o++] = src[j].t < src[i].t ? src[j++] : src[i++];
  while (i < b)
    dst[o++] = src[i++];
  while (j < c)
    dst[o++] = src[j++];
}

/* ---- ordering ---------------------------------------------------------- */

/* Stable insertion sort of keyed[0..n) by time, giving up (the array is then
 * some permutation of itself) after `budget` moves: linear for a capture in
 * time order but for events swapped with their neighbours. */
static gboolean
insertion_sort_bounded (Keyed   *a,
                        guint64  n,
                        guint64  budget)
{
  guint64 moves = 0;

  for (guint64 i = 1; i < n; i++)
    if (a[i].t < a[i - 1].t)
      {
        Keyed x = a[i];
        guint64 j = i;

        while (j > 0 && a[j - 1].t > x.t)
          {
            a[j] = a[j - 1];
            j--;
            if (++moves > budget)
              {
                a[j] = x;
                return FALSE;
              }
          }
        a[j] = x;
      }
  return TRUE;
}

/* The sorted keys become the references, in place (same size). */
static void
keys_to_refs (Keyed   *keyed,
              guint64  n)
{
  for (guint64 i = 0; i < n; i++)
    {
      CpelEventRef ref = { 0, };

      ref.slot = keyed[i].slot;
      ref.index = keyed[i].index;
      memcpy (&keyed[i], &ref, sizeof ref);
    }
}

/* Fills result->refs in (time, file index) order from `keyed` (all matches
 * in file order).  Captures are usually written in time order, or as a few
 * sections each in time order: a natural merge sort of the runs of `keyed`
 * then reads memory sequentially.  Many runs (events in no order at all):
 * the k-way merge over the tracks instead.  FALSE when cancelled. */
static gboolean
order_matches (CpelFile         *file,
               CpelSearchResult *result,
               Keyed           **keyed_inout,
               guint             n_active,
               GCancellable     *cancellable)
{
  Keyed *keyed = *keyed_inout;
  guint64 n = result->n;
  g_autoptr(GArray) bounds = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 zero = 0;
  Keyed *src = keyed;
  g_autofree Keyed *tmp = NULL;

  /* Out of order somewhere: most often a capture in time order but for
   * neighbours swapped (per-CPU buffers merged), which an insertion sort
   * fixes in a move or two per swap; it gives up after a few moves per
   * match (a capture of several sorted sections, or of no order at all). */
  for (guint64 i = 1; i < n; i++)
    if (keyed[i].t < keyed[i - 1].t)
      {
        if (insertion_sort_bounded (keyed, n, 2 * n + 4096))
          n = 0;   /* sorted: no runs below */
        break;
      }

  /* Sorted runs: a natural merge sort of a few; many (no order at all):
   * the k-way merge over the tracks. */
  g_array_append_val (bounds, zero);
  for (guint64 i = 1; i < n; i++)
    if (keyed[i].t < keyed[i - 1].t)
      {
        g_array_append_val (bounds, i);
        if (bounds->len > MAX (n_active, 64))
          {
            result->refs = g_new (CpelEventRef, MAX (result->n, 1));
            return merge_tracks (file, result, cancellable);
          }
      }
  n = result->n;
  g_array_append_val (bounds, n);

  if (bounds->len > 2)
    {
      Keyed *dst = tmp = g_new (Keyed, n);

      while (bounds->len > 2)
        {
          guint64 *b = (guint64 *) bounds->data;
          guint n_runs = bounds->len - 1, out = 0;
          Keyed *swap;

          if (cancellable && g_cancellable_is_cancelled (cancellable))
            return FALSE;
          for (guint r = 0; r < n_runs; r += 2)
            {
              if (r + 1 < n_runs)
                merge_runs (src, dst, b[r], b[r + 1], b[r + 2]);
              else
                memcpy (dst + b[r], src + b[r], (b[r + 1] - b[r]) * sizeof (Keyed));
              b[out++] = b[r];
            }
          b[out++] = n;
          g_array_set_size (bounds, out);
          swap = src;
          src = dst;
          dst = swap;
        }
    }

  keys_to_refs (src, n);
  result->refs = (CpelEventRef *) src;
  if (src == keyed)
    *keyed_inout = NULL;
  else
    tmp = NULL;   /* stolen by result->refs */
  return TRUE;
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
typedef struct
{
  guint8  *unordered;
  guint32 *direct;        /* track id -> slot */
  guint32  n_direct;
  guint32 *type_direct;   /* event code -> type */
  guint32  n_type_direct;
} FileInfo;

#define FILE_INFO_KEY "cpel-search-file-info"

static void
file_info_free (gpointer data)
{
  FileInfo *info = data;

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
  info = g_object_get_data (G_OBJECT (file), FILE_INFO_KEY);
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
      g_object_set_data_full (G_OBJECT (file), FILE_INFO_KEY, info, file_info_free);
    }
  g_mutex_unlock (&lock);
  return info;
}

/* ---- what a type's label can hold (text mode) ---------------------------- */

/* Text mode: can the label "name: datum" of `type` contain the needle at
 * all?  FALSE only when the needle has a byte that neither the name nor
 * anything the datum format can produce holds: then no event of the type
 * needs formatting.  (The search for "ip4-lookup" need not format a single
 * "buffer 0x%08x" or "%u cycles" datum.) */
static gboolean
type_may_match (CpelQuery *query,
                guint      type)
{
  CpelFile *file = query->file;
  const CpelType *t = &file->types[type];
  static const guint32 samples[] = { 0, 1, 7, 12345, 0x7fffffff, 0x80000000, 0xdeadbeef, 0xffffffff };
  g_autoptr(GString) out = NULL;
  CpelByteSet set = { { 0 } };

  for (gsize i = 0; i < query->needle_len; i++)
    if ((guchar) query->needle[i] >= 0x80)
      return TRUE;   /* casefolding of non-ASCII text: not worth second-guessing */

  cpel_byte_set_add_len (&set, t->name, strlen (t->name));
  cpel_byte_set_add_len (&set, ": ", 2);
  cpel_format_alphabet (t->datum_format, &file->symtab, &set);

  /* What the compiled format really prints must be in the set; if not, the
   * reading above is wrong somewhere: no shortcut. */
  out = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_string_truncate (out, 0);
      cpel_format_append (t->datum_format, samples[i], cpel_file_get_event_strtab (file, 0),
                          &file->symtab, out);
      for (gsize k = 0; k < out->len; k++)
        if (!cpel_byte_set_has (&set, (guchar) out->str[k]))
          return TRUE;
    }

  if (!query->case_sensitive)
    {
      /* Labels are compared lowered (ASCII) or casefolded (other text,
       * which can fold to ASCII letters: the Kelvin sign to "k"). */
      gboolean other = FALSE;

      for (guint c = 0x80; c < 0x100; c++)
        other |= cpel_byte_set_has (&set, (guchar) c);
      for (guint c = 'A'; c <= 'Z'; c++)
        if (other || cpel_byte_set_has (&set, (guchar) c) || cpel_byte_set_has (&set, (guchar) (c + 32)))
          {
            cpel_byte_set_add (&set, (guchar) c);
            cpel_byte_set_add (&set, (guchar) (c + 32));
          }
    }
  for (gsize i = 0; i < query->needle_len; i++)
    if (!cpel_byte_set_has (&set, (guchar) query->needle[i]))
      return FALSE;
  return TRUE;
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
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

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
  guint64 total = 0, k;
  g_autofree guint64 *fill = NULL;
  Keyed *keyed = NULL;
  guint n_active = 0;
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
        may_match[t] = type_may_match (query, t);
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
                    label_matches (query, name, strlen (name), chunk->scratch);
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

  /* Pass 2: track indices for the tracks not in file order, then every
   * match with its time (file order) and each track's matches. */
  fix_unordered (file, info->unordered, chunks, n_chunks);
  for (guint c = 0; c < n_chunks; c++)
    total += chunks[c].hits->len;

  result = g_new0 (CpelSearchResult, 1);
  g_atomic_ref_count_init (&result->ref_count);
  result->n_tracks = file->n_tracks;
  result->n = total;
  result->track_offsets = g_new0 (guint64, file->n_tracks + 1);
  keyed = g_new (Keyed, MAX (total, 1));

  k = 0;
  for (guint c = 0; c < n_chunks; c++)
    {
      const Hit *h = (const Hit *) (gpointer) chunks[c].hits->data;

      for (guint i = 0; i < chunks[c].hits->len; i++, k++)
        {
          keyed[k].t = file->times[file->tracks[h[i].slot].first + h[i].index];
          keyed[k].slot = h[i].slot;
          keyed[k].index = h[i].index;
          result->track_offsets[h[i].slot + 1]++;
        }
      g_clear_pointer (&chunks[c].hits, g_array_unref);
    }
  free_chunks (chunks, n_chunks, file->n_types);
  chunks = NULL;

  for (guint s = 0; s < file->n_tracks; s++)
    {
      if (result->track_offsets[s + 1] > 0)
        n_active++;
      result->track_offsets[s + 1] += result->track_offsets[s];
    }
  result->track_matches = g_new (guint64, MAX (total, 1));
  fill = g_new (guint64, MAX (file->n_tracks, 1));
  for (guint s = 0; s < file->n_tracks; s++)
    fill[s] = result->track_offsets[s];
  for (guint64 i = 0; i < total; i++)
    result->track_matches[fill[keyed[i].slot]++] = keyed[i].index;
  for (guint s = 0; s < file->n_tracks; s++)
    if (info->unordered[s])
      qsort (result->track_matches + result->track_offsets[s],
             result->track_offsets[s + 1] - result->track_offsets[s], sizeof (guint64),
             compare_u64);

  build_track_bits (file, result);

  if (progress)
    progress (0.95, progress_data);

  /* Pass 3: global time order (file order breaks ties). */
  if (!order_matches (file, result, &keyed, n_active, cancellable))
    goto cancelled;
  g_clear_pointer (&keyed, g_free);

  if (progress)
    progress (1.0, progress_data);
  return result;

cancelled:
  if (chunks != NULL)
    free_chunks (chunks, n_chunks, file->n_types);
  g_free (keyed);
  g_clear_pointer (&result, cpel_search_result_unref);
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Search cancelled"));
  return NULL;
}
