/* cpel-search.c — finding events by code, text or regex
 *
 * A search runs in three passes:
 *  1. the event records are scanned in FILE order (sequential reads of the
 *     mapping, split into contiguous chunks for a few threads) and every
 *     match sets a bit in a bitmap indexed by file index;
 *  2. the per-track index (track-major positions, see cpel-file-private.h)
 *     is walked once, testing each event's bit: this gives every track's
 *     matches as sorted track indices;
 *  3. the global time order is a k-way merge of the tracks' matches on
 *     (time, file index).
 * Pass 1 reads the records in the order they sit in the file: walking them
 * track by track instead costs a cache miss per event on big captures.
 *
 * Text and regex modes match the label "name: datum".  Labels are not
 * formatted twice when it can be avoided: a type whose datum format is
 * constant is decided once; other types cache their outcome per datum value
 * (the usual "%s" datum has few distinct string offsets) until the cache
 * stops paying off.
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
  guint64           lookups;
  guint64           hits;
  gint8             constant;  /* constant formats: -1 undecided, 0/1 */
  gboolean          name_match;/* text: the name alone matches */
  gboolean          disabled;
} TypeCache;

#define CACHE_REVIEW      0x10000u    /* lookups between reviews of a type's cache */
#define CACHE_BUDGET      (1u << 21)  /* cached outcomes per thread, all types */

typedef struct _Scan Scan;

typedef struct
{
  Scan      *scan;
  guint64    begin, end;       /* file indices; begin is a multiple of 64 */
  TypeCache *caches;           /* n_types (text/regex) */
  gsize      cache_budget;     /* outcomes that may still be cached */
  GString   *label;
  GString   *scratch;
  gboolean   report;           /* the caller's chunk reports progress */
  GThread   *thread;
} Chunk;

struct _Scan
{
  CpelFile         *file;
  CpelQuery        *query;
  guint64          *bits;             /* match bit per file index */
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

/* Pass 1 over [chunk->begin, chunk->end) in file order.  FALSE when cancelled. */
static gboolean
scan_chunk (Chunk *chunk)
{
  Scan *scan = chunk->scan;
  CpelFile *file = scan->file;
  CpelQuery *query = scan->query;
  guint64 *bits = scan->bits;
  guint64 fi = chunk->begin;
  guint section;

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
            if (cpel_file_read32 (file, rec + 12) == wanted)
              bits[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
        }
      else if (query->mode == CPEL_SEARCH_CODE)
        {
          for (guint64 i = fi; i < stop; i++, rec += CPEL_EVENT_RECORD_SIZE)
            {
              guint32 type = cpel_u32map_get (file->type_map, cpel_file_read32 (file, rec + 12));

              if (type != CPEL_U32MAP_NONE && query->type_match[type])
                bits[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
            }
        }
      else
        {
          for (guint64 i = fi; i < stop; i++, rec += CPEL_EVENT_RECORD_SIZE)
            {
              guint32 type = cpel_u32map_get (file->type_map, cpel_file_read32 (file, rec + 12));

              g_assert (type < file->n_types);   /* every code used has a type */
              if (match_text (chunk, type, cpel_file_read32 (file, rec + 16), sec->strtab))
                bits[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
            }
        }

      g_atomic_pointer_add (&scan->processed, (gssize) (stop - fi));
      fi = stop;
      if (chunk->report && scan->progress && file->n_events > 0)
        scan->progress (0.9 * (double) (gsize) g_atomic_pointer_get (&scan->processed)
                        / file->n_events, scan->progress_data);
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

  g_array_append_val (bounds, zero);
  for (guint64 i = 1; i < n; i++)
    if (keyed[i].t < keyed[i - 1].t)
      {
        g_array_append_val (bounds, i);
        if (bounds->len > MAX (n_active, 64))
          {
            result->refs = g_new (CpelEventRef, MAX (n, 1));
            return merge_tracks (file, result, cancellable);
          }
      }
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

  /* The sorted keys become the references, in place (same size). */
  for (guint64 i = 0; i < n; i++)
    {
      CpelEventRef ref = { 0, };

      ref.slot = src[i].slot;
      ref.index = src[i].index;
      memcpy (&src[i], &ref, sizeof ref);
    }
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
    }
  g_free (chunks);
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
  guint64 n_words, total = 0, k;
  guint32 *word_rank = NULL;
  Keyed *keyed = NULL;
  guint n_active = 0;
  CpelSearchResult *result = NULL;
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
  n_words = (file->n_events + 63) / 64;
  scan.bits = g_new0 (guint64, MAX (n_words, 1));

  /* Pass 1: chunks of whole bitmap words, one per thread. */
  n_chunks = choose_threads (file->n_events);
  chunks = g_new0 (Chunk, n_chunks);
  for (guint c = 0; c < n_chunks; c++)
    {
      Chunk *chunk = &chunks[c];

      chunk->scan = &scan;
      chunk->begin = MIN (n_words * c / n_chunks * 64, file->n_events);
      chunk->end = MIN (n_words * (c + 1) / n_chunks * 64, file->n_events);
      chunk->label = g_string_sized_new (256);
      chunk->scratch = g_string_sized_new (256);
      chunk->cache_budget = CACHE_BUDGET;
      if (query->mode != CPEL_SEARCH_CODE)
        {
          chunk->caches = g_new0 (TypeCache, MAX (file->n_types, 1));
          for (guint t = 0; t < file->n_types; t++)
            {
              const char *name = file->types[t].name;

              chunk->caches[t].constant = -1;
              /* A substring of the name is one of "name: datum" too. */
              if (query->mode == CPEL_SEARCH_TEXT)
                chunk->caches[t].name_match =
                  label_matches (query, name, strlen (name), chunk->scratch);
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
  free_chunks (chunks, n_chunks, file->n_types);

  cancelled = g_atomic_int_get (&scan.cancelled);
  if (cancelled)
    goto cancelled;

  /* Pass 2: the tracks' matches as sorted track indices; and every match
   * with its time, placed at its rank in file order. */
  word_rank = g_new (guint32, MAX (n_words, 1));
  for (guint64 w = 0; w < n_words; w++)
    {
      word_rank[w] = (guint32) total;
      total += __builtin_popcountll (scan.bits[w]);
    }

  result = g_new0 (CpelSearchResult, 1);
  g_atomic_ref_count_init (&result->ref_count);
  result->n_tracks = file->n_tracks;
  result->n = total;
  result->track_matches = g_new (guint64, MAX (total, 1));
  result->track_offsets = g_new0 (guint64, file->n_tracks + 1);
  keyed = g_new (Keyed, MAX (total, 1));

  k = 0;
  for (guint s = 0; s < file->n_tracks; s++)
    {
      guint64 first = file->tracks[s].first;
      guint64 count = file->tracks[s].count;
      const guint32 *recs = file->recs + first;
      const gint64 *times = file->times + first;

      result->track_offsets[s] = k;
      for (guint64 i = 0; i < count; i++)
        {
          guint32 fi = recs[i];
          guint64 word = scan.bits[fi >> 6];
          guint64 below = (G_GUINT64_CONSTANT (1) << (fi & 63)) - 1;

          if (word & (below + 1))
            {
              Keyed *key = &keyed[word_rank[fi >> 6] + __builtin_popcountll (word & below)];

              key->t = times[i];
              key->slot = s;
              key->index = (guint32) i;
              result->track_matches[k++] = i;
            }
        }
      if (k > result->track_offsets[s])
        n_active++;
    }
  g_assert (k == total);
  result->track_offsets[file->n_tracks] = total;
  g_clear_pointer (&scan.bits, g_free);
  g_clear_pointer (&word_rank, g_free);

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
  g_free (scan.bits);
  g_free (word_rank);
  g_free (keyed);
  g_clear_pointer (&result, cpel_search_result_unref);
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Search cancelled"));
  return NULL;
}
