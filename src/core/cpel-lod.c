/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-lod.c — level-of-detail summaries of the tracks' event times
 *
 * A track's summary: bucket b covers [origin + b·2^shift, origin +
 * (b+1)·2^shift) and cum[b] is the number of events before it, so the
 * events of bucket b are the indices [cum[b], cum[b+1]).  Times are compared
 * as unsigned offsets from the origin (the first event's time): no overflow
 * whatever the times.
 */
#include "cpel-lod.h"
#include "cpel-file-private.h"
#include "cpel-mapguard.h"

#include <math.h>

#define PREFETCH_AHEAD 8

typedef struct
{
  gint64   origin;      /* time of the track's first event */
  guint64  span;        /* last - origin */
  guint    shift;       /* bucket width 2^shift ns */
  guint64  n_buckets;   /* (span >> shift) + 1 */
  guint32 *cum;         /* n_buckets + 1 */
  gboolean  owned;      /* cum allocated here, not in the index cache */
} Summary;

struct _CpelLod
{
  CpelFile  *file;      /* not a reference: the file owns the summaries */
  guint      n_tracks;
  Summary  **tracks;    /* published atomically, NULL until built */
  gsize      size;      /* bytes, atomic */
};

static void
summary_free (Summary *s)
{
  if (s->owned)
    g_free (s->cum);
  g_free (s);
}

void
cpel_lod_free (CpelLod *lod)
{
  for (guint i = 0; i < lod->n_tracks; i++)
    if (lod->tracks[i] != NULL)
      summary_free (lod->tracks[i]);
  g_free (lod->tracks);
  g_free (lod);
}

CpelLod *
cpel_lod_get_for_file (CpelFile *file)
{
  static GMutex lock;
  CpelLod *lod;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);

  g_mutex_lock (&lock);
  lod = file->lod;
  if (lod == NULL)
    {
      lod = g_new0 (CpelLod, 1);
      lod->file = file;
      lod->n_tracks = cpel_file_get_n_tracks (file);
      lod->tracks = g_new0 (Summary *, MAX (lod->n_tracks, 1));
      lod->size = sizeof *lod + sizeof (Summary *) * MAX (lod->n_tracks, 1);
      /* Stored with the index: checked on load (shape and counts; against
       * the times with the rest of the index), mapped, not copied. */
      if (file->cache_lod != NULL)
        for (guint i = 0; i < lod->n_tracks; i++)
          {
            Summary *s = g_new0 (Summary, 1);

            s->origin = file->cache_lod[i].origin;
            s->span = file->cache_lod[i].span;
            s->shift = file->cache_lod[i].shift;
            s->n_buckets = file->cache_lod[i].n_buckets;
            s->cum = (guint32 *) file->cache_lod[i].cum;
            lod->tracks[i] = s;
            lod->size += sizeof *s;
          }
      file->lod = lod;
    }
  g_mutex_unlock (&lock);
  return lod;
}

static inline guint64
rel (const Summary *s, gint64 t)
{
  return (guint64) t - (guint64) s->origin;
}

/* First i in [lo, hi) with rel(times[i]) >= r, else hi: a binary search. */
static guint64
search (const Summary *s, const gint64 *times, guint64 lo, guint64 hi, guint64 r)
{
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (rel (s, times[mid]) < r)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static Summary *
summary_build (CpelLod *lod, guint slot)
{
  guint64 n;
  const gint64 *times = cpel_file_get_track_times (lod->file, slot, &n);
  guint64 target = MAX (n / CPEL_LOD_EVENTS_PER_BUCKET, 1);
  Summary *s = g_new0 (Summary, 1);
  guint64 b = 0;

  s->owned = TRUE;
  if (n == 0)
    {
      s->n_buckets = 1;
      s->cum = g_new0 (guint32, 2);
      return s;
    }
  s->origin = times[0];
  s->span = rel (s, times[n - 1]);
  while ((s->span >> s->shift) + 1 > target)
    s->shift++;
  s->n_buckets = (s->span >> s->shift) + 1;
  s->cum = g_new (guint32, s->n_buckets + 1);
  /* One sequential pass: cum[b] is the index of the first event at or
   * after bucket b's start. */
  for (guint64 i = 0; i < n; i++)
    {
      guint64 k = rel (s, times[i]) >> s->shift;

      while (b < k)
        s->cum[++b] = (guint32) i;
    }
  while (b < s->n_buckets)
    s->cum[++b] = (guint32) n;
  s->cum[0] = 0;
  /* read once: an index in a file gives the pages back */
  cpel_index_store_drop (lod->file, times, times + n);
  return s;
}

static const Summary *
summary_get (CpelLod *lod, guint slot)
{
  Summary *s = g_atomic_pointer_get (&lod->tracks[slot]);

  if (G_LIKELY (s != NULL))
    return s;
  s = summary_build (lod, slot);
  if (g_atomic_pointer_compare_and_exchange (&lod->tracks[slot], NULL, s))
    g_atomic_pointer_add (&lod->size, sizeof *s + sizeof (guint32) * (s->n_buckets + 1));
  else
    {
      /* Another thread built it first. */
      summary_free (s);
      s = g_atomic_pointer_get (&lod->tracks[slot]);
    }
  return s;
}

static guint64
lower_bound (const Summary *s, const gint64 *times, guint64 n, gint64 t)
{
  guint64 r, k;

  if (n == 0 || t <= s->origin)
    return 0;
  r = rel (s, t);
  if (r > s->span)
    return n;
  k = r >> s->shift;
  return search (s, times, s->cum[k], s->cum[k + 1], r);
}

guint64
cpel_lod_lower_bound (CpelLod *lod,
                      guint    slot,
                      gint64   t)
{
  guint64 n;
  const gint64 *times;

  g_return_val_if_fail (lod != NULL, 0);
  g_return_val_if_fail (slot < lod->n_tracks, 0);

  times = cpel_file_get_track_times (lod->file, slot, &n);
  return lower_bound (summary_get (lod, slot), times, n, t);
}

/* The bucket of t (clamped to the track's). */
static inline guint64
bucket_of (const Summary *s,
           gint64         t)
{
  if (t <= s->origin)
    return 0;
  return MIN (rel (s, t) >> s->shift, s->n_buckets - 1);
}

#define PREFETCH_MAX_EVENTS 8192   /* 64 KB of times: all of it */

static void
prefetch_range (CpelFile *file,
                guint     slot,
                guint64   from,
                guint64   to)
{
  guint64 n;
  const gint64 *times = cpel_file_get_track_times (file, slot, &n);
  const guint32 *recs = file->recs + file->tracks[slot].first;

  to = MIN (to, n);
  if (from >= to)
    return;
  cpel_mapping_will_need (times + from, times + to);
  cpel_mapping_will_need (recs + from, recs + to);
}

void
cpel_lod_prefetch (CpelLod *lod,
                   guint    slot,
                   gint64   t0,
                   gint64   t1,
                   guint64  times_max)
{
  const Summary *s;
  guint64 k0, k1;

  g_return_if_fail (lod != NULL);

  if (slot >= lod->n_tracks || !cpel_file_index_in_file (lod->file))
    return;
  s = g_atomic_pointer_get (&lod->tracks[slot]);
  if (s == NULL || s->n_buckets == 0)
    return;
  k0 = bucket_of (s, t0);
  k1 = bucket_of (s, MAX (t1, t0));
  if (s->cum[k1 + 1] - s->cum[k0] <= PREFETCH_MAX_EVENTS)
    prefetch_range (lod->file, slot, s->cum[k0], s->cum[k1 + 1]);
  else
    {
      prefetch_range (lod->file, slot, s->cum[k0], s->cum[k0 + 1]);
      prefetch_range (lod->file, slot, s->cum[k1], s->cum[k1 + 1]);
      if (s->cum[k1 + 1] - s->cum[k0] <= times_max)
        {
          guint64 n;
          const gint64 *times = cpel_file_get_track_times (lod->file, slot, &n);

          cpel_mapping_will_need (times + s->cum[k0], times + MIN (s->cum[k1 + 1], n));
        }
    }
}

/* The position of t interpolated in its bucket, and the bucket's population
 * (the most it can be off by; 0 = exact). */
static double
estimate (const Summary *s, guint64 n, gint64 t, guint64 *err)
{
  guint64 r, k, pop;
  double f;

  *err = 0;
  if (n == 0 || t <= s->origin)
    return 0;
  r = rel (s, t);
  if (r > s->span)
    return (double) n;
  k = r >> s->shift;
  pop = s->cum[k + 1] - s->cum[k];
  if (pop == 0)
    return s->cum[k];
  /* Somewhere in [cum[k], cum[k+1]]: off by the larger side at most. */
  f = ldexp ((double) (r - (k << s->shift)), -(int) s->shift);
  *err = (guint64) ceil (pop * MAX (f, 1 - f));
  return s->cum[k] + pop * f;
}

/* The exact lower bound of t, near a guess g of it in [lo, hi] (the bounds
 * of t's bucket): one or two cache lines when the guess is close. */
static guint64
search_near (const Summary *s, const gint64 *times, guint64 lo, guint64 hi, gint64 t, guint64 g)
{
  guint64 r = rel (s, t), step, a, b;

  g = CLAMP (g, lo, hi);
  if (g < hi && rel (s, times[g]) < r)
    {
      /* Forward: the answer is in (g, hi]. */
      a = g + 1;
      for (step = 1;; step *= 2)
        {
          b = hi - a > step ? a + step : hi;
          if (b == hi || rel (s, times[b]) >= r)
            return search (s, times, a, b, r);
          a = b + 1;
        }
    }
  if (g > lo && rel (s, times[g - 1]) >= r)
    {
      /* Backward: the answer is in [lo, g - 1]. */
      b = g - 1;
      for (step = 1;; step *= 2)
        {
          a = b - lo > step ? b - step : lo;
          if (a == lo || rel (s, times[a - 1]) < r)
            return search (s, times, a, b, r);
          b = a - 1;
        }
    }
  return g;
}

/* The estimates of the bounds (out) and which of them need an exact
 * search: their indices in order in *search_out (n_bounds long, to be
 * freed), how many returned. */
static guint
plan_locate (const Summary *s,
             guint64        n,
             const gint64  *bounds,
             guint          n_bounds,
             double         tolerance,
             double        *out,
             guint        **search_out)
{
  g_autofree guint8 *refine = g_new0 (guint8, n_bounds);
  g_autofree guint64 *err = g_new (guint64, n_bounds);
  guint *search = g_new (guint, n_bounds);
  guint m = 0;

  for (guint j = 0; j < n_bounds; j++)
    out[j] = estimate (s, n, bounds[j], &err[j]);

  /* Pairs whose estimate is not good enough: both ends exact. */
  for (guint j = 0; j + 1 < n_bounds; j++)
    {
      double e = (double) err[j] + (double) err[j + 1];
      double c = out[j + 1] - out[j];

      if (e > 0 && (c < CPEL_LOD_MIN_ESTIMATE || e > tolerance * c))
        refine[j] = refine[j + 1] = 1;
    }
  if (n_bounds == 1)
    refine[0] = 1;
  for (guint j = 0; j < n_bounds; j++)
    if (refine[j] && err[j] != 0)
      search[m++] = j;
  *search_out = search;
  return m;
}

void
cpel_lod_locate (CpelLod      *lod,
                 guint         slot,
                 const gint64 *bounds,
                 guint         n_bounds,
                 double        tolerance,
                 double       *out)
{
  g_autofree guint *search = NULL;
  const Summary *s;
  const gint64 *times;
  guint64 n;
  guint m;

  g_return_if_fail (lod != NULL);
  g_return_if_fail (slot < lod->n_tracks);
  g_return_if_fail (n_bounds == 0 || (bounds != NULL && out != NULL));

  if (n_bounds == 0)
    return;
  times = cpel_file_get_track_times (lod->file, slot, &n);
  s = summary_get (lod, slot);
  m = plan_locate (s, n, bounds, n_bounds, tolerance, out, &search);

  /* Each search starts at the interpolated guess, whose line is asked
   * for PREFETCH_AHEAD searches ahead: the cache misses of consecutive
   * searches overlap instead of following one another. */
  for (guint i = 0; i < m + PREFETCH_AHEAD; i++)
    {
      if (i < m)
        __builtin_prefetch (&times[(guint64) out[search[i]]]);
      if (i >= PREFETCH_AHEAD)
        {
          guint j = search[i - PREFETCH_AHEAD];
          guint64 r = rel (s, bounds[j]), k = r >> s->shift;

          out[j] = (double) search_near (s, times, s->cum[k], s->cum[k + 1], bounds[j],
                                         (guint64) (out[j] + 0.5));
        }
    }
}

#define LOCATE_GAP_EVENTS  8192   /* searches closer than this: one read */
#define LOCATE_MAX_RUNS    16     /* more separate places: not asked for */

void
cpel_lod_prefetch_locate (CpelLod      *lod,
                          guint         slot,
                          const gint64 *bounds,
                          guint         n_bounds,
                          double        tolerance)
{
  g_autofree guint *search = NULL;
  g_autofree double *out = NULL;
  const Summary *s;
  const gint64 *times;
  guint64 n, run_lo = 0, run_hi = 0;
  guint m, runs = 0;

  g_return_if_fail (lod != NULL);
  g_return_if_fail (n_bounds == 0 || bounds != NULL);

  if (n_bounds == 0 || slot >= lod->n_tracks || !cpel_file_index_in_file (lod->file))
    return;
  s = g_atomic_pointer_get (&lod->tracks[slot]);
  if (s == NULL || s->n_buckets == 0)
    return;
  times = cpel_file_get_track_times (lod->file, slot, &n);
  out = g_new (double, n_bounds);
  m = plan_locate (s, n, bounds, n_bounds, tolerance, out, &search);

  /* The buckets the searches read, as a few runs of the times. */
  for (guint i = 0; i <= m; i++)
    {
      guint64 lo = 0, hi = 0;

      if (i < m)
        {
          guint64 k = rel (s, bounds[search[i]]) >> s->shift;

          lo = s->cum[k];
          hi = MIN (s->cum[k + 1] + 1, n);
          if (run_hi > run_lo && lo <= run_hi + LOCATE_GAP_EVENTS)
            {
              run_hi = MAX (run_hi, hi);
              continue;
            }
        }
      if (run_hi > run_lo)
        {
          if (++runs > LOCATE_MAX_RUNS)
            return;
          cpel_mapping_will_need (times + run_lo, times + run_hi);
        }
      run_lo = lo;
      run_hi = hi;
    }
}

void
cpel_lod_prepare (CpelLod      *lod,
                  GCancellable *cancellable)
{
  g_return_if_fail (lod != NULL);

  for (guint slot = 0; slot < lod->n_tracks; slot++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        return;
      summary_get (lod, slot);
    }
}

gsize
cpel_lod_get_size (CpelLod *lod)
{
  g_return_val_if_fail (lod != NULL, 0);
  return g_atomic_pointer_get (&lod->size);
}

void
cpel_lod_export_stored (CpelFile      *file,
                        guint          slot,
                        CpelLodStored *out)
{
  const Summary *s = summary_get (cpel_lod_get_for_file (file), slot);

  out->origin = s->origin;
  out->span = s->span;
  out->shift = s->shift;
  out->n_buckets = s->n_buckets;
  out->cum = s->cum;
}
