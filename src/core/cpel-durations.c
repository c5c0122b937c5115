/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-durations.c — durations in chunks, selected in place */
#include "cpel-durations-private.h"

#include <string.h>

void
cpel_durations_init (CpelDurations *d)
{
  d->chunks = NULL;
  d->n = 0;
  d->n_chunks = 0;
  d->cap_chunks = 0;
  d->cap_first = 0;
}

void
cpel_durations_clear (CpelDurations *d)
{
  for (guint c = 0; c < d->n_chunks; c++)
    g_free (d->chunks[c]);
  g_free (d->chunks);
  cpel_durations_init (d);
}

void
cpel_durations_append (CpelDurations *d,
                       gint64         v)
{
  guint64 c = d->n >> CPEL_DURATIONS_CHUNK_SHIFT;
  guint64 off = d->n & (CPEL_DURATIONS_CHUNK - 1);

  if (c == 0 && off >= d->cap_first)
    {
      /* the first chunk grows up to a full one */
      guint cap = MIN (MAX (d->cap_first * 2, 16u), CPEL_DURATIONS_CHUNK);

      if (d->n_chunks == 0)
        {
          d->cap_chunks = 4;
          d->chunks = g_new (gint64 *, d->cap_chunks);
          d->chunks[0] = NULL;
          d->n_chunks = 1;
        }
      d->chunks[0] = g_renew (gint64, d->chunks[0], cap);
      d->cap_first = cap;
    }
  else if (c > 0 && off == 0)
    {
      if (d->n_chunks == d->cap_chunks)
        {
          d->cap_chunks *= 2;
          d->chunks = g_renew (gint64 *, d->chunks, d->cap_chunks);
        }
      d->chunks[d->n_chunks++] = g_new (gint64, CPEL_DURATIONS_CHUNK);
    }
  d->chunks[c][off] = v;
  d->n++;
}

#define AT(i) (*cpel_durations_at (d, (i)))

gint64
cpel_durations_select (CpelDurations *d,
                       guint64        lo,
                       guint64        hi,
                       guint64        k)
{
  g_assert (lo <= k && k <= hi && hi < d->n);

  while (hi > lo)
    {
      gint64 a = AT (lo), b = AT (lo + (hi - lo) / 2), c = AT (hi);
      gint64 pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
      guint64 lt = lo, i = lo, gt = hi;

      /* AT(lt..i-1) == pivot, AT(lo..lt-1) < pivot, AT(gt+1..hi) > pivot */
      while (i <= gt)
        {
          gint64 x = AT (i);

          if (x < pivot)
            {
              AT (i) = AT (lt);
              AT (lt) = x;
              lt++;
              i++;
            }
          else if (x > pivot)
            {
              AT (i) = AT (gt);
              AT (gt) = x;
              if (gt == 0)
                break;
              gt--;
            }
          else
            i++;
        }
      if (k < lt)
        hi = lt - 1;
      else if (k > gt)
        lo = gt + 1;
      else
        return pivot;
    }
  return AT (k);
}

typedef struct
{
  guint64  rank;
  guint64  lo, hi;     /* the value is in [lo, hi], offsets from min */
  guint64  below;      /* values < lo */
  guint    shift;      /* bucket width 2^shift this pass */
  guint    hist;       /* its histogram (shared by ranks of the same range) */
  gboolean done;
} Narrow;

void
cpel_durations_select_ranks (CpelDurations *d,
                             gint64         min,
                             gint64         max,
                             const guint64 *ranks,
                             guint          n_ranks,
                             gint64        *out)
{
  g_autofree Narrow *nw = NULL;
  g_autofree guint64 *hists = NULL;
  guint n_left = n_ranks;

  g_assert (min <= max);
  if (d->n < CPEL_DURATIONS_SELECT_MIN)
    {
      /* ranks in any order: each selection on the whole */
      for (guint i = 0; i < n_ranks; i++)
        {
          g_assert (ranks[i] < d->n);
          out[i] = cpel_durations_select (d, 0, d->n - 1, ranks[i]);
        }
      return;
    }
  nw = g_new0 (Narrow, n_ranks);
  hists = g_new (guint64, (gsize) n_ranks * CPEL_DURATIONS_BUCKETS);
  for (guint i = 0; i < n_ranks; i++)
    {
      g_assert (ranks[i] < d->n);
      nw[i].rank = ranks[i];
      nw[i].hi = (guint64) max - (guint64) min;
    }
  while (n_left > 0)
    {
      guint n_hist = 0;

      for (guint i = 0; i < n_ranks; i++)
        {
          Narrow *r = &nw[i];

          if (r->done)
            continue;
          r->shift = 0;
          while (((r->hi - r->lo) >> r->shift) >= CPEL_DURATIONS_BUCKETS)
            r->shift++;
          r->hist = n_hist;
          for (guint j = 0; j < i; j++)
            if (!nw[j].done && nw[j].lo == r->lo && nw[j].hi == r->hi)
              {
                r->hist = nw[j].hist;
                break;
              }
          if (r->hist == n_hist)
            memset (&hists[(gsize) n_hist++ * CPEL_DURATIONS_BUCKETS], 0,
                    CPEL_DURATIONS_BUCKETS * sizeof (guint64));
        }
      /* one pass over the values, chunk by chunk, for every histogram */
      for (guint c = 0; c < d->n_chunks; c++)
        {
          const gint64 *v = d->chunks[c];
          guint64 len = MIN ((guint64) CPEL_DURATIONS_CHUNK,
                             d->n - (guint64) c * CPEL_DURATIONS_CHUNK);

          for (guint h = 0; h < n_hist; h++)
            {
              const Narrow *r = NULL;
              guint64 *hist = &hists[(gsize) h * CPEL_DURATIONS_BUCKETS];

              for (guint i = 0; i < n_ranks && r == NULL; i++)
                if (!nw[i].done && nw[i].hist == h)
                  r = &nw[i];
              for (guint64 k = 0; k < len; k++)
                {
                  guint64 x = (guint64) v[k] - (guint64) min;

                  if (x >= r->lo && x <= r->hi)
                    hist[(x - r->lo) >> r->shift]++;
                }
            }
        }
      for (guint i = 0; i < n_ranks; i++)
        {
          Narrow *r = &nw[i];
          const guint64 *hist = &hists[(gsize) r->hist * CPEL_DURATIONS_BUCKETS];
          guint64 seen = r->below;
          guint b = 0;

          if (r->done)
            continue;
          while (b + 1 < CPEL_DURATIONS_BUCKETS && seen + hist[b] <= r->rank)
            seen += hist[b++];
          r->below = seen;
          r->lo += (guint64) b << r->shift;
          if (r->shift == 0)
            {
              r->done = TRUE;
              out[i] = (gint64) ((guint64) min + r->lo);
              n_left--;
            }
          else
            r->hi = MIN (r->hi, r->lo + (((guint64) 1 << r->shift) - 1));
        }
    }
}

guint64
cpel_durations_bytes (const CpelDurations *d)
{
  guint64 full = d->n_chunks > 1 ? (guint64) (d->n_chunks - 1) * CPEL_DURATIONS_CHUNK : 0;

  return (full + d->cap_first) * sizeof (gint64) + (guint64) d->cap_chunks * sizeof (gint64 *);
}
