/* SPDX-License-Identifier: Apache-2.0 */
/* test-anomaly.c — unusual datums and intervals of one event code */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "cpel-anomaly.h"
#include "cpel-core.h"
#include "cpel-test-util.h"

#define CODE    5
#define NOISE   9        /* another code, wild datums, same tracks */
#define N_TRACKS 4
#define PER_TRACK 500

typedef struct
{
  guint32 track;
  guint64 ticks;
} Planted;

typedef struct
{
  guint64 ticks;
  guint32 track, code, datum;
} Ev;

/* Events of CODE every ~1000 ns per track with datums in [990, 1010], NOISE
 * events in between; planted: datum 5000 (datum metric) or a 20 µs stall
 * before an event (interval metric).  Events go to two sections in
 * shuffled order.  `planted` receives the planted events. */
static CpelFile *
planted_file (CpelAnomalyMetric  metric,
              guint32            seed,
              GArray            *planted)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, seed & 1, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  guint half;

  for (guint32 track = 0; track < N_TRACKS; track++)
    {
      guint64 ticks = 1000 + track * 7;
      /* 2..4 planted events per track, away from the first one */
      guint n_planted = 2 + track % 3;
      guint at[4];

      for (guint p = 0; p < n_planted; p++)
        at[p] = 10 + p * (PER_TRACK / n_planted) + g_rand_int_range (rand, 0, 20);

      for (guint i = 0; i < PER_TRACK; i++)
        {
          Ev e = { 0, track, CODE, 990 + g_rand_int_range (rand, 0, 21) };
          Ev noise = { 0, track, NOISE, g_rand_int (rand) };
          gboolean plant = FALSE;

          for (guint p = 0; p < n_planted; p++)
            plant |= at[p] == i;
          ticks += 1000 + g_rand_int_range (rand, -20, 21);
          if (plant && metric == CPEL_ANOMALY_INTERVAL)
            ticks += 20000;
          if (plant && metric == CPEL_ANOMALY_DATUM)
            e.datum = 5000;
          e.ticks = ticks;
          g_array_append_val (evs, e);
          if (plant)
            {
              Planted pl = { track, ticks };
              g_array_append_val (planted, pl);
            }
          noise.ticks = ticks + 300;
          g_array_append_val (evs, noise);
        }
    }

  /* shuffle: file order is not time order */
  for (guint i = evs->len - 1; i > 0; i--)
    {
      guint j = g_rand_int_range (rand, 0, i + 1);
      Ev tmp = g_array_index (evs, Ev, i);
      g_array_index (evs, Ev, i) = g_array_index (evs, Ev, j);
      g_array_index (evs, Ev, j) = tmp;
    }

  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, CODE, "packet", "%d");
  cpel_writer_add_event_def (w, NOISE, "noise", "%x");
  half = evs->len / 2;
  cpel_writer_begin_events (w, t, 1000000000, half);
  for (guint i = 0; i < evs->len; i++)
    {
      Ev *e = &g_array_index (evs, Ev, i);
      if (i == half)
        cpel_writer_begin_events (w, t, 1000000000, evs->len - half);
      cpel_writer_add_event (w, e->ticks, e->track, e->code, e->datum);
    }
  return cpel_test_writer_file (w);
}

static CpelAnomalyResult *
find (CpelFile *file, guint32 code, CpelAnomalyMetric metric, double k)
{
  g_autoptr(GError) error = NULL;
  CpelAnomalyResult *r = cpel_anomaly_find (file, code, metric, k, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (r);
  return r;
}

/* The result holds exactly the planted events, in time order. */
static void
check_exactly_planted (CpelFile *file, CpelAnomalyResult *r, GArray *planted, CpelAnomalyMetric metric)
{
  /* the clock is 1 GHz: ticks are absolute ns */
  gint64 base = cpel_file_get_base_ns (file);
  guint found = 0;

  g_assert_cmpuint (cpel_anomaly_result_get_n (r), ==, planted->len);
  for (guint64 i = 0; i < cpel_anomaly_result_get_n (r); i++)
    {
      const CpelAnomaly *a = cpel_anomaly_result_get (r, i);
      CpelEvent e;
      double mean, sigma;
      guint64 n;

      cpel_file_get_track_event (file, a->ref.slot, a->ref.index, &e);
      g_assert_cmpuint (e.code, ==, CODE);
      g_assert_cmpint (e.time_ns, ==, a->time_ns);
      g_assert_cmpuint (e.file_index, ==, a->file_index);
      if (i > 0)
        {
          const CpelAnomaly *p = cpel_anomaly_result_get (r, i - 1);
          g_assert_true (p->time_ns < a->time_ns ||
                         (p->time_ns == a->time_ns && p->file_index < a->file_index));
        }
      for (guint j = 0; j < planted->len; j++)
        {
          Planted *pl = &g_array_index (planted, Planted, j);
          if (pl->track == e.track_id && (gint64) pl->ticks - base == e.time_ns)
            found++;
        }
      g_assert_true (cpel_anomaly_result_get_track_stats (r, a->ref.slot, &n, &mean, &sigma));
      g_assert_cmpfloat_with_epsilon (a->z, (a->value - mean) / sigma, 1e-9);
      g_assert_cmpfloat (fabs (a->z), >, 2.5);
      if (metric == CPEL_ANOMALY_DATUM)
        {
          g_assert_cmpfloat (a->value, ==, 5000.0);
          g_assert_cmpuint (n, ==, PER_TRACK);
        }
      else
        {
          g_assert_cmpfloat (a->value, >=, 20980.0);
          g_assert_cmpuint (n, ==, PER_TRACK - 1);
        }
      g_assert_cmpfloat (a->z, >, 0);
    }
  g_assert_cmpuint (found, ==, planted->len);
}

static void
test_datum (void)
{
  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(GArray) planted = g_array_new (FALSE, FALSE, sizeof (Planted));
      g_autoptr(CpelFile) file = planted_file (CPEL_ANOMALY_DATUM, seed, planted);
      g_autoptr(CpelAnomalyResult) r = find (file, CODE, CPEL_ANOMALY_DATUM, 0);

      g_assert_cmpfloat (cpel_anomaly_result_get_k (r), ==, CPEL_ANOMALY_DEFAULT_K);
      g_assert_cmpuint (cpel_anomaly_result_get_code (r), ==, CODE);
      g_assert_cmpint (cpel_anomaly_result_get_metric (r), ==, CPEL_ANOMALY_DATUM);
      check_exactly_planted (file, r, planted, CPEL_ANOMALY_DATUM);
    }
}

static void
test_interval (void)
{
  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(GArray) planted = g_array_new (FALSE, FALSE, sizeof (Planted));
      g_autoptr(CpelFile) file = planted_file (CPEL_ANOMALY_INTERVAL, seed, planted);
      g_autoptr(CpelAnomalyResult) r = find (file, CODE, CPEL_ANOMALY_INTERVAL, 2.5);

      check_exactly_planted (file, r, planted, CPEL_ANOMALY_INTERVAL);
    }
}

/* The brute-force definition: mean and sigma per track, then |x-m| > k s. */
static guint64
reference_count (CpelFile *file, guint32 code, CpelAnomalyMetric metric, double k)
{
  guint64 total = 0;

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
      gint64 prev = -1;
      double sum = 0, sq = 0, mean, sigma;

      for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
        {
          CpelEvent e;
          double x;

          cpel_file_get_track_event (file, slot, i, &e);
          if (e.code != code)
            continue;
          if (metric == CPEL_ANOMALY_DATUM)
            x = e.datum;
          else
            {
              gint64 p = prev;
              prev = e.time_ns;
              if (p < 0)
                continue;
              x = (double) (e.time_ns - p);
            }
          g_array_append_val (xs, x);
        }
      if (xs->len < 2)
        continue;
      for (guint i = 0; i < xs->len; i++)
        sum += g_array_index (xs, double, i);
      mean = sum / xs->len;
      for (guint i = 0; i < xs->len; i++)
        sq += (g_array_index (xs, double, i) - mean) * (g_array_index (xs, double, i) - mean);
      sigma = sqrt (sq / xs->len);
      for (guint i = 0; i < xs->len; i++)
        if (sigma > 0 && fabs (g_array_index (xs, double, i) - mean) > k * sigma)
          total++;
    }
  return total;
}

static void
test_k_and_noise (void)
{
  g_autoptr(GArray) planted = g_array_new (FALSE, FALSE, sizeof (Planted));
  g_autoptr(CpelFile) file = planted_file (CPEL_ANOMALY_DATUM, 7, planted);
  g_autoptr(CpelAnomalyResult) tight = find (file, CODE, CPEL_ANOMALY_DATUM, 0.05);
  g_autoptr(CpelAnomalyResult) loose = find (file, CODE, CPEL_ANOMALY_DATUM, 100);
  g_autoptr(CpelAnomalyResult) noise = find (file, NOISE, CPEL_ANOMALY_DATUM, 1.0);
  g_autoptr(CpelAnomalyResult) noise_iv = find (file, NOISE, CPEL_ANOMALY_INTERVAL, 1.0);

  /* a smaller k flags more, a huge k nothing; both match the definition */
  g_assert_cmpuint (cpel_anomaly_result_get_n (tight), >, planted->len);
  g_assert_cmpuint (cpel_anomaly_result_get_n (tight), ==,
                    reference_count (file, CODE, CPEL_ANOMALY_DATUM, 0.05));
  g_assert_cmpuint (cpel_anomaly_result_get_n (loose), ==, 0);
  g_assert_cmpuint (cpel_anomaly_result_get_n (noise), ==,
                    reference_count (file, NOISE, CPEL_ANOMALY_DATUM, 1.0));
  g_assert_cmpuint (cpel_anomaly_result_get_n (noise), >, 0);
  g_assert_cmpuint (cpel_anomaly_result_get_n (noise_iv), ==,
                    reference_count (file, NOISE, CPEL_ANOMALY_INTERVAL, 1.0));
}

static void
test_next_prev (void)
{
  g_autoptr(GArray) planted = g_array_new (FALSE, FALSE, sizeof (Planted));
  g_autoptr(CpelFile) file = planted_file (CPEL_ANOMALY_DATUM, 2, planted);
  g_autoptr(CpelAnomalyResult) r = find (file, CODE, CPEL_ANOMALY_DATUM, 2.5);
  guint64 n = cpel_anomaly_result_get_n (r), i;
  const CpelAnomaly *a, *b;

  g_assert_cmpuint (n, >=, 3);
  g_assert_true (cpel_anomaly_result_next (r, G_MININT64, 0, &i));
  g_assert_cmpuint (i, ==, 0);
  g_assert_true (cpel_anomaly_result_prev (r, G_MAXINT64, G_MAXUINT64, &i));
  g_assert_cmpuint (i, ==, n - 1);

  /* from an anomaly itself: strictly after / before */
  a = cpel_anomaly_result_get (r, 1);
  g_assert_true (cpel_anomaly_result_next (r, a->time_ns, a->file_index, &i));
  g_assert_cmpuint (i, ==, 2);
  g_assert_true (cpel_anomaly_result_prev (r, a->time_ns, a->file_index, &i));
  g_assert_cmpuint (i, ==, 0);

  /* from between two anomalies */
  b = cpel_anomaly_result_get (r, 2);
  g_assert_cmpint (b->time_ns, >, a->time_ns + 1);
  g_assert_true (cpel_anomaly_result_next (r, a->time_ns + 1, 0, &i));
  g_assert_cmpuint (i, ==, 2);
  g_assert_true (cpel_anomaly_result_prev (r, b->time_ns - 1, 0, &i));
  g_assert_cmpuint (i, ==, 1);

  /* past the ends */
  a = cpel_anomaly_result_get (r, n - 1);
  g_assert_false (cpel_anomaly_result_next (r, a->time_ns, a->file_index, &i));
  a = cpel_anomaly_result_get (r, 0);
  g_assert_false (cpel_anomaly_result_prev (r, a->time_ns, a->file_index, &i));
}

static void
test_degenerate (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelAnomalyResult) same = NULL;
  g_autoptr(CpelAnomalyResult) single = NULL;
  g_autoptr(CpelAnomalyResult) absent = NULL;
  g_autoptr(CpelAnomalyResult) regular = NULL;
  guint64 n;
  double mean, sigma;

  cpel_writer_begin_events (w, t, 1000000000, 6);
  /* track 1: code 1, datum 7 three times, every 100 ns; track 2: one code 2 */
  cpel_writer_add_event (w, 100, 1, 1, 7);
  cpel_writer_add_event (w, 200, 1, 1, 7);
  cpel_writer_add_event (w, 300, 1, 1, 7);
  cpel_writer_add_event (w, 400, 1, 1, 7);
  cpel_writer_add_event (w, 150, 2, 2, 1);
  cpel_writer_add_event (w, 160, 2, 3, 1);
  file = cpel_test_writer_file (w);

  same = find (file, 1, CPEL_ANOMALY_DATUM, 2.5);
  g_assert_cmpuint (cpel_anomaly_result_get_n (same), ==, 0);
  g_assert_true (cpel_anomaly_result_get_track_stats (same, 0, &n, &mean, &sigma));
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpfloat (mean, ==, 7.0);
  g_assert_cmpfloat (sigma, ==, 0.0);
  g_assert_false (cpel_anomaly_result_get_track_stats (same, 1, NULL, NULL, NULL));

  regular = find (file, 1, CPEL_ANOMALY_INTERVAL, 0.1);
  g_assert_cmpuint (cpel_anomaly_result_get_n (regular), ==, 0);
  g_assert_true (cpel_anomaly_result_get_track_stats (regular, 0, &n, &mean, NULL));
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (mean, ==, 100.0);

  single = find (file, 2, CPEL_ANOMALY_INTERVAL, 2.5);
  g_assert_cmpuint (cpel_anomaly_result_get_n (single), ==, 0);
  absent = find (file, 12345, CPEL_ANOMALY_DATUM, 2.5);
  g_assert_cmpuint (cpel_anomaly_result_get_n (absent), ==, 0);
  g_assert_false (cpel_anomaly_result_next (absent, G_MININT64, 0, NULL));
}

/* A type whose datum is text (%s: a string-table offset) has no datum
 * statistics: an error, not a mean of offsets; its intervals are fine. */
static void
test_text_datum (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  guint32 a = cpel_writer_add_string (w, t, "ip4-lookup");
  guint32 b = cpel_writer_add_string (w, t, "ethernet-input with a longer name");
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelAnomalyResult) r = NULL;
  g_autoptr(GError) error = NULL;

  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "dispatch", "%s");
  cpel_writer_add_event_def (w, 2, "vectors", "%d");
  cpel_writer_add_event_def (w, 3, "idle", NULL);
  cpel_writer_begin_events (w, t, 1000000000, 40);
  for (guint i = 0; i < 20; i++)
    {
      cpel_writer_add_event (w, 100 * i, 0, 1, i % 3 == 0 ? b : a);
      cpel_writer_add_event (w, 100 * i + 50, 0, 2, i);
    }
  file = cpel_test_writer_file (w);

  g_assert_false (cpel_anomaly_datum_is_number (file, 1));
  g_assert_true (cpel_anomaly_datum_is_number (file, 2));
  g_assert_true (cpel_anomaly_datum_is_number (file, 3));
  g_assert_true (cpel_anomaly_datum_is_number (file, 99));

  g_assert_null (cpel_anomaly_find (file, 1, CPEL_ANOMALY_DATUM, 2.5, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "dispatch"));
  r = cpel_anomaly_find (file, 1, CPEL_ANOMALY_INTERVAL, 2.5, NULL, NULL);
  g_assert_nonnull (r);
  g_clear_pointer (&r, cpel_anomaly_result_free);
  r = cpel_anomaly_find (file, 2, CPEL_ANOMALY_DATUM, 2.5, NULL, NULL);
  g_assert_nonnull (r);
}

static void
test_cancel (void)
{
  g_autoptr(GArray) planted = g_array_new (FALSE, FALSE, sizeof (Planted));
  g_autoptr(CpelFile) file = planted_file (CPEL_ANOMALY_DATUM, 3, planted);
  g_autoptr(GCancellable) c = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (c);
  g_assert_null (cpel_anomaly_find (file, CODE, CPEL_ANOMALY_DATUM, 2.5, c, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/anomaly/datum", test_datum);
  g_test_add_func ("/core/anomaly/interval", test_interval);
  g_test_add_func ("/core/anomaly/k-and-noise", test_k_and_noise);
  g_test_add_func ("/core/anomaly/next-prev", test_next_prev);
  g_test_add_func ("/core/anomaly/degenerate", test_degenerate);
  g_test_add_func ("/core/anomaly/cancel", test_cancel);
  g_test_add_func ("/core/anomaly/text-datum", test_text_datum);
  return g_test_run ();
}
