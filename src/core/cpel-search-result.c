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
void
_cpel_search_result_build_track_bits (CpelFile         *file,
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

/* Fills result->refs in (time, file index) order; FALSE when cancelled. */
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

      result->refs[j].slot = top->slot;
      result->refs[j].index = result->track_matches[top->pos];
      j++;
      if (++top->pos < top->end)
        load_head (file, result, top);
      else
        heap[0] = heap[--n];
      cpel_track_heap_sift_down (heap, n, 0);
    }
  g_assert (j == result->n);
  return TRUE;
}



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
gboolean
_cpel_search_result_order (CpelFile         *file,
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
