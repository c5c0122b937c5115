/* SPDX-License-Identifier: Apache-2.0 */
/* test-lod.c — level-of-detail summaries (src/core/cpel-lod.h) agree with
 * the index: exact lower bounds, estimates within their stated tolerance,
 * bounded memory, one summary per track under concurrent use. */
#include <math.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-lod.h"

typedef enum
{
  SHAPE_UNIFORM,     /* random gaps */
  SHAPE_BURSTS,      /* dense bursts separated by long idle gaps */
  SHAPE_TIES,        /* many events on the same nanosecond */
  SHAPE_ONE,         /* a single event */
  N_SHAPES
} Shape;

/* A file with one track per shape (ids 0..N_SHAPES-1, each with `n` events,
 * SHAPE_ONE with one) plus a defined track without events (id 99); events
 * interleaved across tracks in time order. */
static CpelFile *
make_file (guint64 n, guint32 seed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint64 t[N_SHAPES] = { 0 }, left[N_SHAPES];
  guint64 total = 0;
  guint table;
  CpelFile *file;

  g_assert_no_error (error);
  for (guint s = 0; s < N_SHAPES; s++)
    {
      left[s] = s == SHAPE_ONE ? 1 : n;
      total += left[s];
      t[s] = g_rand_int_range (rand, 0, 1000);
    }
  table = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, 1, "e", "%d");
  cpel_writer_begin_track_defs (w, table);
  for (guint s = 0; s < N_SHAPES; s++)
    cpel_writer_add_track_def (w, s, "track %d");
  cpel_writer_add_track_def (w, 99, "empty");
  cpel_writer_begin_events (w, table, 1000000000u, (guint32) total);
  while (total > 0)
    {
      guint s = 0;

      /* The track whose next event comes first. */
      for (guint k = 0; k < N_SHAPES; k++)
        if (left[k] > 0 && (left[s] == 0 || t[k] < t[s]))
          s = k;
      cpel_writer_add_event (w, t[s], s, 1, (guint32) left[s]);
      left[s]--;
      total--;
      switch (s)
        {
        case SHAPE_UNIFORM:
          t[s] += g_rand_int_range (rand, 1, 200);
          break;
        case SHAPE_BURSTS:
          t[s] += g_rand_int_range (rand, 0, 100) < 2 ? g_rand_int_range (rand, 100000, 5000000)
                                                     : g_rand_int_range (rand, 0, 4);
          break;
        case SHAPE_TIES:
          t[s] += g_rand_int_range (rand, 0, 10) == 0 ? g_rand_int_range (rand, 1, 1000) : 0;
          break;
        default:
          t[s] += 1;
          break;
        }
    }
  g_assert_true (cpel_writer_finish (w, &error));
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  return file;
}

/* Times worth asking about on a track: around each of a sample of events,
 * before the first and past the last. */
static GArray *
probe_times (CpelFile *file, guint slot, GRand *rand)
{
  GArray *probes = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint64 n;
  const gint64 *times = cpel_file_get_track_times (file, slot, &n);
  gint64 extremes[] = { G_MININT64, -1, 0, 1, G_MAXINT64 - 1, G_MAXINT64 };

  g_array_append_vals (probes, extremes, G_N_ELEMENTS (extremes));
  for (guint k = 0; k < 2000 && n > 0; k++)
    {
      guint64 i = k < 3 ? (k == 0 ? 0 : n - 1) : (guint64) g_rand_int_range (rand, 0, (gint32) n);
      for (gint64 d = -2; d <= 2; d++)
        {
          gint64 v = times[i] + d;
          g_array_append_val (probes, v);
        }
    }
  return probes;
}

static void
test_lower_bound (void)
{
  g_autoptr(CpelFile) file = make_file (50000, 1);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  CpelLod *lod = cpel_lod_get_for_file (file);

  g_assert_true (cpel_lod_get_for_file (file) == lod);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      g_autoptr(GArray) probes = probe_times (file, slot, rand);

      for (guint k = 0; k < probes->len; k++)
        {
          gint64 t = g_array_index (probes, gint64, k);
          g_assert_cmpuint (cpel_lod_lower_bound (lod, slot, t), ==,
                            cpel_file_track_lower_bound (file, slot, t));
        }
    }
}

/* Column bounds over [t0, t1) as the renderer makes them. */
static gint64 *
columns (gint64 t0, gint64 t1, guint n)
{
  gint64 *b = g_new (gint64, n + 1);

  for (guint c = 0; c <= n; c++)
    b[c] = t0 + (gint64) ceil ((double) (t1 - t0) * c / n);
  return b;
}

static void
check_locate (CpelFile *file, CpelLod *lod, guint slot, gint64 t0, gint64 t1, guint nc,
              double tolerance, guint *n_estimated)
{
  g_autofree gint64 *bounds = columns (t0, t1, nc);
  g_autofree double *pos = g_new (double, nc + 1);

  cpel_lod_locate (lod, slot, bounds, nc + 1, tolerance, pos);
  for (guint c = 0; c < nc; c++)
    {
      double exact = (double) cpel_file_track_count_range (file, slot, bounds[c], bounds[c + 1]);
      double est = pos[c + 1] - pos[c];

      if (tolerance == 0 || est == exact)
        {
          g_assert_cmpfloat (est, ==, exact);
          if (tolerance == 0)
            g_assert_cmpfloat (pos[c], ==, (double) cpel_file_track_lower_bound (file, slot, bounds[c]));
          continue;
        }
      (*n_estimated)++;
      g_assert_cmpfloat (est, >=, CPEL_LOD_MIN_ESTIMATE);
      g_assert_cmpfloat (fabs (est - exact), <=, tolerance * est + 1e-9);
      /* A non-empty estimate is never an empty column. */
      g_assert_cmpfloat (exact, >, 0);
    }
}

static void
test_locate (void)
{
  g_autoptr(CpelFile) file = make_file (200000, 2);
  CpelLod *lod = cpel_lod_get_for_file (file);
  guint estimated = 0;
  gint64 d = cpel_file_get_duration (file) + 1;

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    for (gint64 span = d; span > 1000; span /= 7)
      for (guint k = 0; k < 3; k++)
        {
          gint64 t0 = (d - span) / 3 * k - span / 50;

          check_locate (file, lod, slot, t0, t0 + span, 997, 0, &estimated);
          check_locate (file, lod, slot, t0, t0 + span, 997, 1.0 / 8, &estimated);
          check_locate (file, lod, slot, t0, t0 + span, 61, 1.0 / 4, &estimated);
        }
  /* The point of it: wide columns were estimated, not searched. */
  g_assert_cmpuint (estimated, >, 1000);

  /* A single bound is exact. */
  {
    gint64 t = d / 2;
    double pos;

    cpel_lod_locate (lod, SHAPE_UNIFORM, &t, 1, 1.0, &pos);
    g_assert_cmpfloat (pos, ==, (double) cpel_file_track_lower_bound (file, SHAPE_UNIFORM, t));
  }
}

static void
test_size (void)
{
  g_autoptr(CpelFile) file = make_file (100000, 3);
  CpelLod *lod = cpel_lod_get_for_file (file);
  gsize before = cpel_lod_get_size (lod), after;
  guint64 n_events = cpel_file_get_n_events (file);

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    cpel_lod_lower_bound (lod, slot, 0);
  after = cpel_lod_get_size (lod);
  g_assert_cmpuint (after, >, before);
  /* About 4 bytes per CPEL_LOD_EVENTS_PER_BUCKET events, plus a small
   * header per track. */
  g_assert_cmpuint (after - before, <=,
                    4 * (n_events / CPEL_LOD_EVENTS_PER_BUCKET) + 128 * cpel_file_get_n_tracks (file));
  g_test_message ("summaries: %" G_GSIZE_FORMAT " bytes for %" G_GUINT64_FORMAT " events",
                  after - before, n_events);
}

typedef struct
{
  CpelFile *file;
  guint64   sum;
} ThreadData;

static gpointer
thread_func (gpointer data)
{
  ThreadData *td = data;
  CpelLod *lod = cpel_lod_get_for_file (td->file);
  gint64 d = cpel_file_get_duration (td->file);

  for (guint k = 0; k < 200; k++)
    for (guint slot = 0; slot < cpel_file_get_n_tracks (td->file); slot++)
      td->sum += cpel_lod_lower_bound (lod, slot, d / 200 * k);
  return NULL;
}

static void
test_threads (void)
{
  g_autoptr(CpelFile) file = make_file (100000, 4);
  ThreadData td[4];
  GThread *threads[4];

  for (guint i = 0; i < 4; i++)
    {
      td[i].file = file;
      td[i].sum = 0;
      threads[i] = g_thread_new ("lod", thread_func, &td[i]);
    }
  for (guint i = 0; i < 4; i++)
    g_thread_join (threads[i]);
  for (guint i = 1; i < 4; i++)
    g_assert_cmpuint (td[i].sum, ==, td[0].sum);
}

/* cpel_lod_prepare builds every summary at once (what lookups would build
 * one by one), and stops when cancelled; lookups after it build nothing. */
static void
test_prepare (void)
{
  g_autoptr(CpelFile) file = make_file (100000, 5);
  g_autoptr(CpelFile) other = make_file (100000, 5);
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  CpelLod *lod = cpel_lod_get_for_file (file);
  CpelLod *lazy = cpel_lod_get_for_file (other);
  gsize before = cpel_lod_get_size (lod), prepared;

  g_cancellable_cancel (cancelled);
  cpel_lod_prepare (lod, cancelled);
  g_assert_cmpuint (cpel_lod_get_size (lod), ==, before);

  cpel_lod_prepare (lod, NULL);
  prepared = cpel_lod_get_size (lod);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (other); slot++)
    cpel_lod_lower_bound (lazy, slot, 0);
  g_assert_cmpuint (prepared, ==, cpel_lod_get_size (lazy));
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    g_assert_cmpuint (cpel_lod_lower_bound (lod, slot, 12345), ==,
                      cpel_lod_lower_bound (lazy, slot, 12345));
  g_assert_cmpuint (cpel_lod_get_size (lod), ==, prepared);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scale/lod/lower-bound", test_lower_bound);
  g_test_add_func ("/scale/lod/locate", test_locate);
  g_test_add_func ("/scale/lod/size", test_size);
  g_test_add_func ("/scale/lod/threads", test_threads);
  g_test_add_func ("/scale/lod/prepare", test_prepare);
  return g_test_run ();
}
