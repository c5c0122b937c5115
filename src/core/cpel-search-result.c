/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-result.c — a search result: matches in global time order, per track, filtered */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cpel-heap-private.h"
#include "cpel-search-private.h"

/* ---- results ----------------------------------------------------------- */


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

const guint32 *
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
void
_cpel_search_result_build_track_bits (CpelFile         *file,
                  CpelSearchResult *result)
{
  result->track_bits = g_new0 (guint64 *, MAX (result->n_tracks, 1));
  for (guint s = 0; s < result->n_tracks; s++)
    {
      guint64 n = file->tracks[s].count;
      guint64 m = result->track_offsets[s + 1] - result->track_offsets[s];
      const guint32 *matches = result->track_matches + result->track_offsets[s];
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

static gboolean
any_set (const guint8 *flags,
         guint         n)
{
  if (flags != NULL)
    for (guint i = 0; i < n; i++)
      if (flags[i])
        return TRUE;
  return FALSE;
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

  /* nothing hidden: no copy (hundreds of millions of matches, maybe) */
  if (!any_set (hidden_slots, file->n_tracks) && !any_set (hidden_types, file->n_types))
    return cpel_search_result_ref (result);

  out = g_new0 (CpelSearchResult, 1);
  g_atomic_ref_count_init (&out->ref_count);
  out->n_tracks = result->n_tracks;
  out->track_offsets = g_new0 (guint64, result->n_tracks + 1);
  out->track_matches = g_new (guint32, MAX (result->track_offsets[result->n_tracks], 1));
  /* Each match decided once (a type lookup reads its record): per track,
   * then the global list takes the decisions back in the same order. */
  keep = g_new (guint8, MAX (result->track_offsets[result->n_tracks], 1));
  for (guint s = 0; s < result->n_tracks; s++)
    {
      for (guint64 i = result->track_offsets[s]; i < result->track_offsets[s + 1]; i++)
        {
          guint32 index = result->track_matches[i];

          keep[i] = index < file->tracks[s].count
                    && !filtered_out (file, hidden_slots, hidden_types, s, index);
          if (keep[i])
            out->track_matches[kept++] = index;
        }
      out->track_offsets[s + 1] = kept;
    }
  _cpel_search_result_build_track_bits (file, out);

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

static inline void
load_head (CpelFile               *file,
           const CpelSearchResult *result,
           CpelTrackCursor        *h)
{
  guint64 pos = file->tracks[h->slot].first + result->track_matches[h->pos];

  h->t = file->times[pos];
  h->rec = file->recs[pos];
}

/* The references are dropped from the index's pages every this many:
 * an index in a file then stays out of the resident set. */
#define DROP_INTERVAL  (1u << 24)

/* Fills result->refs in (time, file index) order from the matches of each
 * track (a k-way merge over the tracks); FALSE when cancelled. */
static gboolean
merge_tracks (CpelFile         *file,
              CpelSearchResult *result,
              GCancellable     *cancellable)
{
  g_autofree CpelTrackCursor *heap = NULL;  /* pos: in track_matches */
  guint n = 0;
  guint64 j = 0;

  heap = g_new (CpelTrackCursor, MAX (result->n_tracks, 1));
  for (guint s = 0; s < result->n_tracks; s++)
    {
      if (result->track_offsets[s] == result->track_offsets[s + 1])
        continue;
      heap[n].slot = s;
      heap[n].pos = result->track_offsets[s];
      heap[n].end = result->track_offsets[s + 1];
      load_head (file, result, &heap[n]);
      n++;
    }
  cpel_track_heap_heapify (heap, n);

  while (n > 0)
    {
      CpelTrackCursor *top = &heap[0];

      /* Only one track left: the rest of it in order. */
      if (n == 1)
        {
          for (; top->pos < top->end; top->pos++, j++)
            {
              result->refs[j].slot = top->slot;
              result->refs[j].index = result->track_matches[top->pos];
            }
          break;
        }

      if ((j & (CHECK_INTERVAL - 1)) == 0 && cancellable
          && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if ((j & (DROP_INTERVAL - 1)) == DROP_INTERVAL - 1)
        {
          cpel_index_store_drop (file, file->times, file->times + file->n_events);
          cpel_index_store_drop (file, file->recs, file->recs + file->n_events);
        }

      result->refs[j].slot = top->slot;
      result->refs[j].index = result->track_matches[top->pos];
      j++;
      if (++top->pos < top->end)
        load_head (file, result, top);
      else
        heap[0] = heap[--n];
      cpel_track_heap_sift_down (heap, n, 0);
    }
  cpel_index_store_drop (file, file->times, file->times + file->n_events);
  cpel_index_store_drop (file, file->recs, file->recs + file->n_events);
  g_assert (j == result->n);
  return TRUE;
}

static inline gint64
ref_time (const CpelFile     *file,
          const CpelEventRef *ref)
{
  return file->times[file->tracks[ref->slot].first + ref->index];
}

/* Sorts result->refs (all matches, in file order) into (time, file index)
 * order, in place: no second array and no copy of the keys, which would
 * double what a result of hundreds of millions of matches holds.
 *
 * Captures are usually written in time order but for neighbours swapped
 * (per-CPU buffers merged), which a stable insertion sort fixes in a move or
 * two per swap (ties keep file order).  It gives up after a few moves per
 * match (a capture of several sorted sections, or of no order at all): the
 * k-way merge over the tracks' sorted matches then writes the references
 * again.  FALSE when cancelled. */
gboolean
_cpel_search_result_order (CpelFile         *file,
                           CpelSearchResult *result,
                           GCancellable     *cancellable)
{
  CpelEventRef *a = result->refs;
  guint64 n = result->n, moves = 0, budget = 2 * result->n + 4096;
  gint64 last = G_MININT64;   /* the largest time so far: a[i - 1]'s */

  for (guint64 i = 0; i < n; i++)
    {
      gint64 t = ref_time (file, &a[i]);

      if ((i & (CHECK_INTERVAL - 1)) == 0 && cancellable
          && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if ((i & (DROP_INTERVAL - 1)) == DROP_INTERVAL - 1)
        cpel_index_store_drop (file, file->times, file->times + file->n_events);

      if (t >= last)
        {
          last = t;
          continue;
        }
      {
        CpelEventRef x = a[i];
        guint64 j = i;

        while (j > 0 && ref_time (file, &a[j - 1]) > t)
          {
            a[j] = a[j - 1];
            j--;
            if (++moves > budget)
              {
                a[j] = x;   /* a permutation: written again below */
                g_free (result->refs);
                result->refs = g_new (CpelEventRef, MAX (n, 1));
                return merge_tracks (file, result, cancellable);
              }
          }
        a[j] = x;
      }
    }
  cpel_index_store_drop (file, file->times, file->times + file->n_events);
  return TRUE;
}
