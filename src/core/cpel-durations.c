/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-durations.c — durations in chunks, selected in place */
#include "cpel-durations-private.h"

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

guint64
cpel_durations_bytes (const CpelDurations *d)
{
  guint64 full = d->n_chunks > 1 ? (guint64) (d->n_chunks - 1) * CPEL_DURATIONS_CHUNK : 0;

  return (full + d->cap_first) * sizeof (gint64) + (guint64) d->cap_chunks * sizeof (gint64 *);
}
