/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-analysis.c — `cpel` cut / stats / anomaly / chase */
#include <math.h>

#include <cairo.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"
#include "cli-test-util.h"
#include "cpel-test-pair.h"

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static void
finish_to (CpelWriter *w)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
}

/* The lines of `cpel dump --tsv FILE [ARGS]` without the header, times made
 * relative to the first line's (a cut's times start at its first event). */
static GPtrArray *
dump_rebased (const char *file, const char *from, const char *to)
{
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  gint64 first = 0;

  if (from != NULL)
    cli_run (&r, "dump", "--tsv", "--from", from, "--to", to, file);
  else
    cli_run (&r, "dump", "--tsv", file);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      char *tab = strchr (lines[i], '\t');
      gint64 t = g_ascii_strtoll (lines[i], NULL, 10);

      g_assert_nonnull (tab);
      if (i == 1)
        first = t;
      g_ptr_array_add (out, g_strdup_printf ("%" G_GINT64_FORMAT "%s", t - first, tab));
    }
  return out;
}

/* Only the lines whose track label (third field) matches `pattern`. */
static GPtrArray *
filter_track (GPtrArray *lines, const char *pattern)
{
  g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, NULL);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  gint64 first = -1;

  for (guint i = 0; i < lines->len; i++)
    {
      g_auto(GStrv) f = g_strsplit (g_ptr_array_index (lines, i), "\t", 2);
      g_auto(GStrv) g = g_strsplit (f[1], "\t", -1);
      gint64 t = g_ascii_strtoll (f[0], NULL, 10);

      if (!g_regex_match (regex, g[1], 0, NULL))
        continue;
      if (first < 0)
        first = t;
      g_ptr_array_add (out, g_strdup_printf ("%" G_GINT64_FORMAT "\t%s", t - first, f[1]));
    }
  return out;
}

/* ---- cut -------------------------------------------------------------------- */

static void
test_cut_sample (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autofree char *out = tmp_path ("cut-sample.cpel");
  g_autofree char *part = tmp_path ("cut-part.cpel");
  g_auto(CliRun) r = { 0 };
  g_autoptr(GPtrArray) want = NULL;
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GPtrArray) want2 = NULL;
  g_autoptr(GPtrArray) got2 = NULL;
  g_autofree char *message = NULL;

  cli_run (&r, "cut", sample, out, "--from", "1s", "--to", "2s");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  want = dump_rebased (sample, "1s", "2s");
  got = dump_rebased (out, NULL, NULL);
  g_assert_cmpuint (want->len, >, 10);
  g_assert_cmpuint (want->len, <, 67);
  cpel_test_assert_same_lines (want, got);
  message = g_strdup_printf ("%u events written to %s\n", want->len, out);
  g_assert_cmpstr (r.out, ==, message);

  /* one track: the range's lines of that track */
  cli_run (&r, "cut", sample, part, "--from", "500ms", "--to", "2.5s", "--tracks", "^workers 2$");
  g_assert_cmpint (r.status, ==, 0);
  g_clear_pointer (&want, g_ptr_array_unref);
  want = dump_rebased (sample, "500ms", "2.5s");
  want2 = filter_track (want, "^workers 2$");
  got2 = dump_rebased (part, NULL, NULL);
  g_assert_cmpuint (want2->len, >, 5);
  g_assert_cmpuint (want2->len, <, want->len);
  cpel_test_assert_same_lines (want2, got2);
  cli_run (&r, "info", part);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("^Tracks: +1$", r.out, G_REGEX_MULTILINE, 0));

  /* edges on events: event 10 is in, event 40 is out */
  {
    g_autoptr(GPtrArray) whole = dump_rebased (sample, NULL, NULL);
    g_autoptr(GPtrArray) want3 = NULL;
    g_autoptr(GPtrArray) got3 = NULL;
    char from[24], to[24];

    g_assert_cmpuint (whole->len, ==, 67);
    g_snprintf (from, sizeof from, "%" G_GINT64_FORMAT,
                g_ascii_strtoll (g_ptr_array_index (whole, 10), NULL, 10));
    g_snprintf (to, sizeof to, "%" G_GINT64_FORMAT,
                g_ascii_strtoll (g_ptr_array_index (whole, 40), NULL, 10));
    cli_run (&r, "cut", "--force", sample, part, "--from", from, "--to", to);
    g_assert_cmpint (r.status, ==, 0);
    want3 = dump_rebased (sample, from, to);
    got3 = dump_rebased (part, NULL, NULL);
    g_assert_cmpuint (want3->len, ==, 30);
    cpel_test_assert_same_lines (want3, got3);
  }
}

/* A generated capture (several tracks, 10^4 events): cuts of ranges and of
 * track subsets give exactly the dump restricted to them. */
static void
test_cut_generated (void)
{
  g_autofree char *src = tmp_path ("cut-src.cpel");
  g_autofree char *out = tmp_path ("cut-gen.cpel");
  g_auto(CliRun) r = { 0 };
  static const char *ranges[][2] = {
    { "0", "1ms" }, { "123456", "7654321" }, { "4.71ms", "4.73ms" }, { "0", "100s" },
    { "100s", "200s" },
  };

  g_autoptr(GPtrArray) whole = NULL;
  char edges[2][24];

  cli_run (&r, "gen", "--events", "10k", "--tracks", "12", "--seed", "4", src);
  g_assert_cmpint (r.status, ==, 0);
  /* and a range from one event's time to another's (both edges hit) */
  whole = dump_rebased (src, NULL, NULL);
  g_assert_cmpuint (whole->len, ==, 10000);
  g_snprintf (edges[0], sizeof edges[0], "%" G_GINT64_FORMAT,
              g_ascii_strtoll (g_ptr_array_index (whole, 1000), NULL, 10));
  g_snprintf (edges[1], sizeof edges[1], "%" G_GINT64_FORMAT,
              g_ascii_strtoll (g_ptr_array_index (whole, 5000), NULL, 10));
  for (guint i = 0; i <= G_N_ELEMENTS (ranges); i++)
    for (guint subset = 0; subset < 2; subset++)
      {
        const char *from = i < G_N_ELEMENTS (ranges) ? ranges[i][0] : edges[0];
        const char *to = i < G_N_ELEMENTS (ranges) ? ranges[i][1] : edges[1];
        g_autoptr(GPtrArray) want = NULL;
        g_autoptr(GPtrArray) got = NULL;

        if (subset)
          cli_run (&r, "cut", "--force", "--tracks", "[13579]$", src, out, "--from", from, "--to", to);
        else
          cli_run (&r, "cut", "--force", src, out, "--from", from, "--to", to);
        g_assert_cmpint (r.status, ==, 0);
        want = dump_rebased (src, from, to);
        if (subset)
          {
            GPtrArray *all = want;

            want = filter_track (all, "[13579]$");
            g_ptr_array_unref (all);
          }
        got = dump_rebased (out, NULL, NULL);
        g_test_message ("range %s..%s%s: %u events", from, to,
                        subset ? " (odd tracks)" : "", want->len);
        cpel_test_assert_same_lines (want, got);
        if (i == G_N_ELEMENTS (ranges) && !subset)
          g_assert_cmpuint (want->len, >=, 4000);   /* ties at the start may add some */
      }
}

static void
test_cut_refusals (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autofree char *dir = cli_tmpdir_new ();
  g_autofree char *out = g_build_filename (dir, "kept.cpel", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.cpel", NULL);
  g_autofree char *contents = NULL;
  g_auto(CliRun) r = { 0 };

  if (sample == NULL)
    {
      cli_tmpdir_free (g_steal_pointer (&dir));
      return;
    }
  /* never replaces a file without --force; nothing else left behind */
  g_assert_true (g_file_set_contents (out, "precious", -1, NULL));
  cli_run (&r, "cut", sample, out, "--from", "0", "--to", "1s");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "--force"));
  g_assert_nonnull (strstr (r.err, out));   /* "cpel: OUT: This file already exists" */
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "precious");
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);
  cli_run (&r, "cut", sample, out, "--from", "0", "--to", "1s", "-f");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);
  cli_run (&r, "info", out);
  g_assert_cmpint (r.status, ==, 0);

  /* usage: exit 2, nothing written */
  cli_run (&r, "cut", sample, bad, "--from", "0");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "cut", sample, bad, "--from", "2s", "--to", "1s");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "cut", sample, bad, "--from", "0", "--to", "1x");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "cut", sample, bad, "--from", "0", "--to", "1s", "--tracks", "(");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "cut", sample, bad, "--from", "0", "--to", "1s", "--tracks", "no such track");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "cut", sample, "--from", "0", "--to", "1s");
  g_assert_cmpint (r.status, ==, 2);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));

  /* not a CPEL file: exit 1 */
  cli_run (&r, "cut", out, bad, "--from", "0", "--to", "1s", "--force");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_set_contents (out, "precious", -1, NULL));
  cli_run (&r, "cut", out, bad, "--from", "0", "--to", "1s", "--force");
  g_assert_cmpint (r.status, ==, 1);
  cli_run (&r, "cut", "--help");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--tracks"));
  cli_tmpdir_free (g_steal_pointer (&dir));
}

/* ---- stats ------------------------------------------------------------------ */

typedef struct
{
  guint64 count, n_intervals;
  gint64  min, max, sum;
} Acc;

/* Per code statistics, from the TSV dump (lines as dump_rebased gives). */
static void
brute_codes (GPtrArray *lines, GHashTable *by_code)
{
  g_autoptr(GHashTable) last = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < lines->len; i++)
    {
      g_auto(GStrv) f = g_strsplit (g_ptr_array_index (lines, i), "\t", -1);
      gint64 t = g_ascii_strtoll (f[0], NULL, 10);
      char *key = g_strdup_printf ("%s/%s", f[1], f[3]);
      gint64 *prev = g_hash_table_lookup (last, key);
      Acc *a = g_hash_table_lookup (by_code, f[3]);

      if (a == NULL)
        {
          a = g_new0 (Acc, 1);
          a->min = G_MAXINT64;
          g_hash_table_insert (by_code, g_strdup (f[3]), a);
        }
      a->count++;
      if (prev != NULL)
        {
          gint64 d = t - *prev;

          a->n_intervals++;
          a->min = MIN (a->min, d);
          a->max = MAX (a->max, d);
          a->sum += d;
          *prev = t;
          g_free (key);
        }
      else
        g_hash_table_insert (last, key, g_memdup2 (&t, sizeof t));
    }
}

static void
check_codes_csv (const char *csv, GPtrArray *lines)
{
  g_autoptr(GHashTable) want = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) rows = g_strsplit (csv, "\r\n", -1);
  guint n_rows = 0;

  brute_codes (lines, want);
  g_assert_cmpstr (rows[0], ==, "code,event,count,intervals,min_ns,mean_ns,max_ns");
  for (guint i = 1; rows[i] != NULL && rows[i][0] != '\0'; i++, n_rows++)
    {
      g_auto(GStrv) f = g_strsplit (rows[i], ",", -1);
      Acc *a = g_hash_table_lookup (want, f[0]);

      g_assert_nonnull (a);
      g_assert_cmpuint (g_ascii_strtoull (f[2], NULL, 10), ==, a->count);
      g_assert_cmpuint (g_ascii_strtoull (f[3], NULL, 10), ==, a->n_intervals);
      if (a->n_intervals > 0)
        {
          g_assert_cmpint (g_ascii_strtoll (f[4], NULL, 10), ==, a->min);
          g_assert_cmpint (g_ascii_strtoll (f[6], NULL, 10), ==, a->max);
          g_assert_cmpfloat_with_epsilon (g_ascii_strtod (f[5], NULL),
                                          (double) a->sum / (double) a->n_intervals, 0.001);
        }
    }
  g_assert_cmpuint (n_rows, ==, g_hash_table_size (want));
}

static void
test_stats_sample (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) part = NULL;
  g_auto(GStrv) rows = NULL;
  guint64 per_track = 0;

  cli_run (&r, "stats", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Events: 67 on 2 of 2 tracks, 1 event code\n"));
  g_assert_true (g_regex_match_simple ("^ +Total +67$", r.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +0 +rx +67 +65 ", r.out, G_REGEX_MULTILINE, 0));

  /* per code numbers against the dump */
  all = dump_rebased (sample, NULL, NULL);
  g_assert_cmpuint (all->len, ==, 67);
  cli_run (&r, "stats", sample, "--csv");
  g_assert_cmpint (r.status, ==, 0);
  check_codes_csv (r.out, all);
  cli_run (&r, "stats", sample, "--csv", "--by", "codes", "--from", "0.5s", "--to", "2s");
  g_assert_cmpint (r.status, ==, 0);
  part = dump_rebased (sample, "0.5s", "2s");
  check_codes_csv (r.out, part);

  /* per track: the two tracks, counts adding up to 67 */
  cli_run (&r, "stats", sample, "--csv", "--by", "tracks");
  g_assert_cmpint (r.status, ==, 0);
  rows = g_strsplit (r.out, "\r\n", -1);
  g_assert_cmpstr (rows[0], ==, "slot,track,label,count");
  g_assert_cmpuint (g_strv_length (rows), ==, 4);   /* header, 2 tracks, "" */
  for (guint i = 1; i <= 2; i++)
    {
      g_auto(GStrv) f = g_strsplit (rows[i], ",", -1);
      g_autofree char *label = g_strdup_printf ("workers %u", i);
      guint n = 0;

      g_assert_cmpstr (f[2], ==, label);
      for (guint j = 0; j < all->len; j++)
        n += strstr (g_ptr_array_index (all, j), label) != NULL;
      g_assert_cmpuint (g_ascii_strtoull (f[3], NULL, 10), ==, n);
      per_track += n;
    }
  g_assert_cmpuint (per_track, ==, 67);

  /* one table as text; a track subset */
  cli_run (&r, "stats", sample, "--by", "tracks", "--tracks", "2$");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "Intervals"));
  g_assert_nonnull (strstr (r.out, "workers 2"));
  g_assert_null (strstr (r.out, "workers 1"));
  g_assert_nonnull (strstr (r.out, "on 1 of 1 track,"));

  cli_run (&r, "stats", sample, "--by", "lines");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "stats", sample, "--from", "2s", "--to", "1s");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "stats", sample, "extra");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "stats", "/nonexistent/file.cpel");
  g_assert_cmpint (r.status, ==, 1);
}

/* ---- anomaly ---------------------------------------------------------------- */

/* Track 1 and 2, code 7 ("work", datum %u): 200 events each, every 1000 ns
 * (track 2 offset by 500), datums 1000 + small noise; planted: datum outliers
 * on track 1 at events 50 and 120 and on track 2 at 80, one long gap (an
 * interval outlier) before track 2's event 150.  Code 8 ("other", same
 * name as code 9) on track 1 as noise. */
#define N_PER_TRACK 200

static char *
anomaly_source (void)
{
  char *path = tmp_path ("anomaly.cpel");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (path, FALSE, 0, &error);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint t;

  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "S");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 7, "work", "%u");
  cpel_writer_add_event_def (w, 8, "other", NULL);
  cpel_writer_add_event_def (w, 9, "Other", NULL);
  cpel_writer_add_event_def (w, 10, "node", "%s");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 1, "cpu %d");
  cpel_writer_add_track_def (w, 2, "cpu %d");
  cpel_writer_begin_events (w, t, 1000000000, 2 * N_PER_TRACK + 22);
  for (guint track = 1; track <= 2; track++)
    {
      guint64 time = track == 1 ? 0 : 500;

      for (guint i = 0; i < N_PER_TRACK; i++)
        {
          guint32 datum = 1000 + g_rand_int_range (rand, -20, 21);

          if ((track == 1 && (i == 50 || i == 120)) || (track == 2 && i == 80))
            datum = 5000;
          time += (track == 2 && i == 150) ? 40000 : 1000;
          cpel_writer_add_event (w, time, track, 7, datum);
        }
    }
  for (guint i = 0; i < 20; i++)
    cpel_writer_add_event (w, 1300 + i * 7000, 1, i % 2 ? 8 : 9, i);
  /* a text datum: string-table offsets */
  cpel_writer_add_event (w, 1700, 2, 10, 0);
  cpel_writer_add_event (w, 2700, 2, 10, 0);
  finish_to (w);
  return path;
}

typedef struct
{
  gint64  time;
  guint32 track;
  double  value;
  double  z;
} Found;

static GArray *
run_anomaly (const char *path, const char *code, const char *metric, const char *sigma)
{
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;
  GArray *found = g_array_new (FALSE, FALSE, sizeof (Found));

  cli_run (&r, "anomaly", path, "--code", code, "--metric", metric, "--sigma", sigma, "--tsv");
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum\tvalue\tz");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", -1);
      Found x;

      g_assert_cmpuint (g_strv_length (f), ==, 8);
      g_assert_cmpstr (f[3], ==, "7");
      g_assert_cmpstr (f[4], ==, "work");
      x.time = g_ascii_strtoll (f[0], NULL, 10);
      x.track = (guint32) g_ascii_strtoull (f[1], NULL, 10);
      x.value = g_ascii_strtod (f[6], NULL);
      x.z = g_ascii_strtod (f[7], NULL);
      if (strcmp (metric, "datum") == 0)
        g_assert_cmpfloat (x.value, ==, g_ascii_strtod (f[5], NULL));
      g_array_append_val (found, x);
    }
  return found;
}

/* mean and population sigma of code 7's datums / intervals on a track */
static void
series_stats (CpelFile *file, guint32 track, gboolean interval, double *mean, double *sigma)
{
  guint slot;
  double sum = 0, sum2 = 0;
  guint n = 0;
  gint64 prev = -1;

  g_assert_true (cpel_file_lookup_track (file, track, &slot));
  for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
    {
      CpelEvent e;
      double v;

      cpel_file_get_track_event (file, slot, i, &e);
      if (e.code != 7)
        continue;
      if (interval)
        {
          gint64 p = prev;

          prev = e.time_ns;
          if (p < 0)
            continue;
          v = (double) (e.time_ns - p);
        }
      else
        v = e.datum;
      sum += v;
      sum2 += v * v;
      n++;
    }
  *mean = sum / n;
  *sigma = sqrt (sum2 / n - *mean * *mean);
}

static void
test_anomaly_planted (void)
{
  g_autofree char *path = anomaly_source ();
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, NULL);
  g_autoptr(GArray) datum = NULL;
  g_autoptr(GArray) by_name = NULL;
  g_autoptr(GArray) interval = NULL;
  g_autoptr(GArray) strict = NULL;
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;
  /* ns since the first event (track 1's first, at 1000 ticks) */
  static const struct { gint64 time; guint32 track; } planted[] = {
    { 50 * 1000, 1 }, { 80 * 1000 + 500, 2 }, { 120 * 1000, 1 },
  };

  g_assert_nonnull (file);
  datum = run_anomaly (path, "7", "datum", "3");
  g_assert_cmpuint (datum->len, ==, G_N_ELEMENTS (planted));
  for (guint i = 0; i < datum->len; i++)
    {
      Found *x = &g_array_index (datum, Found, i);
      double mean, sigma;

      g_assert_cmpint (x->time, ==, planted[i].time);
      g_assert_cmpuint (x->track, ==, planted[i].track);
      g_assert_cmpfloat (x->value, ==, 5000);
      series_stats (file, x->track, FALSE, &mean, &sigma);
      g_assert_cmpfloat_with_epsilon (x->z, (x->value - mean) / sigma, 0.0001);
      g_assert_cmpfloat (x->z, >, 3);
    }

  /* by name, and the default sigma (2.5) finds the same */
  by_name = run_anomaly (path, "WORK", "datum", "2.5");
  g_assert_cmpuint (by_name->len, ==, datum->len);

  /* the long gap on track 2: one interval anomaly (the gap, 40 µs) */
  interval = run_anomaly (path, "work", "interval", "2.5");
  g_assert_cmpuint (interval->len, ==, 1);
  {
    Found *x = &g_array_index (interval, Found, 0);
    double mean, sigma;

    g_assert_cmpuint (x->track, ==, 2);
    g_assert_cmpfloat (x->value, ==, 40000);
    g_assert_cmpint (x->time, ==, 149 * 1000 + 500 + 40000);
    series_stats (file, 2, TRUE, &mean, &sigma);
    g_assert_cmpfloat_with_epsilon (x->z, (x->value - mean) / sigma, 0.0001);
  }

  /* a threshold above every z: nothing */
  strict = run_anomaly (path, "7", "datum", "1000");
  g_assert_cmpuint (strict->len, ==, 0);

  /* human lines: dump's line, then value and z */
  cli_run (&r, "anomaly", path, "--code", "7");
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_true (g_regex_match_simple ("^ *50\\.000 µs  cpu 1  work: 5000  \\[value 5000, z \\+[0-9.]+\\]$",
                                       lines[0], 0, 0));
  /* then what was looked at: the events of the code */
  g_assert_cmpstr (lines[3], ==, "3 anomalies among 400 events");
  /* finding nothing says so; --tsv stays the header alone */
  cli_run (&r, "anomaly", path, "--code", "7", "--sigma", "1000");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "0 anomalies among 400 events\n");
  cli_run (&r, "anomaly", path, "--code", "7", "--sigma", "1000", "--tsv");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum\tvalue\tz\n");
  cli_run (&r, "anomaly", path, "--code", "work", "--metric", "interval");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "[value 40.000 µs, z +"));

  /* usage */
  cli_run (&r, "anomaly", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "anomaly", path, "--code", "12345");   /* a code without events: none */
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "0 anomalies among 0 events\n");
  cli_run (&r, "anomaly", path, "--code", "nosuch");
  g_assert_cmpint (r.status, ==, 2);
  /* the datum of a %s type is a string offset: intervals only */
  cli_run (&r, "anomaly", path, "--code", "node");
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "“node”"));
  cli_run (&r, "anomaly", path, "--code", "node", "--metric", "interval");
  g_assert_cmpint (r.status, ==, 0);
  cli_run (&r, "anomaly", path, "--code", "other");   /* codes 8 and 9 */
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "8, 9"));
  cli_run (&r, "anomaly", path, "--code", "7", "--metric", "size");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "anomaly", path, "--code", "7", "--sigma", "0");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "anomaly", path, "--code", "7", "--sigma", "-1");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "anomaly", "/nonexistent.cpel", "--code", "7");
  g_assert_cmpint (r.status, ==, 1);
}

/* ---- chase ------------------------------------------------------------------ */

static char *
chase_source (void)
{
  char *path = tmp_path ("chase.cpel");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (path, TRUE, 0, &error);
  guint t;
  /* (track, code, datum) */
  static const guint32 events[][3] = {
    { 10, 3, 1 }, { 11, 4, 0xdead }, { 12, 3, 0xdead }, { 13, 5, 2 },
    { 0x12345678, 6, 0xdead }, { 14, 3, 7 }, { 13, 6, 9 }, { 10, 3, 2 },
  };

  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "S");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 3, "enqueue", "%x");
  cpel_writer_add_event_def (w, 4, "dequeue", "%x");
  cpel_writer_add_event_def (w, 5, "idle", NULL);
  cpel_writer_add_event_def (w, 6, "dequeue", "%x");   /* a name shared with code 4 */
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 10, "rx %d");
  cpel_writer_add_track_def (w, 11, "worker\t%d");       /* escaped on output */
  cpel_writer_add_track_def (w, 12, "worker %d");
  cpel_writer_begin_events (w, t, 1000000000, G_N_ELEMENTS (events));
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    cpel_writer_add_event (w, 100 * i, events[i][0], events[i][1], events[i][2]);
  finish_to (w);
  return path;
}

static void
test_chase (void)
{
  g_autofree char *path = chase_source ();
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "chase", path, "--code", "3");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "10  rx 10\n12  worker 12\n14  14\n");
  cli_run (&r, "chase", path, "--code", "enqueue", "--tsv");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "track\ttrack_label\n10\trx 10\n12\tworker 12\n14\t14\n");
  cli_run (&r, "chase", path, "--datum", "0xdead", "--tsv");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "track\ttrack_label\n11\tworker\\t11\n12\tworker 12\n"
                              "305419896\t0x12345678\n");
  cli_run (&r, "chase", path, "--datum", "57005", "--code", "3");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "12  worker 12\n");
  /* a name for two codes: the tracks of both */
  cli_run (&r, "chase", path, "--code", "Dequeue");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "       11  worker\\t11\n       13  13\n305419896  0x12345678\n");
  /* nothing matches: no line, success */
  cli_run (&r, "chase", path, "--code", "5", "--datum", "3");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");

  cli_run (&r, "chase", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "chase", path, "--datum", "0xfffffffff");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "chase", path, "--datum", "-1");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "chase", path, "--code", "nosuch");
  g_assert_cmpint (r.status, ==, 2);

  cli_run (&r, "chase", sample, "--code", "rx");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "0  workers 1\n1  workers 2\n");
}

/* ---- diff ------------------------------------------------------------------- */

static void
test_diff_planted (void)
{
  g_autofree char *a = tmp_path ("diff-a.cpel");
  g_autofree char *b = tmp_path ("diff-b.cpel");
  g_autofree char *bad = tmp_path ("diff-bad.cpel");
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;

  cpel_test_pair_write_files (a, b);
  cli_run (&r, "diff", a, b, "--csv");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpstr (r.out, ==, CPEL_TEST_PAIR_CSV);
  cli_run (&r, "diff", "--by", "events", "--csv", a, b);
  g_assert_cmpstr (r.out, ==, CPEL_TEST_PAIR_CSV);
  cli_run (&r, "diff", "--by", "tracks", "--csv", a, b);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, CPEL_TEST_PAIR_TRACKS_CSV);
  cli_run (&r, "diff", "--csv", "--from", "150ns", "--to", "950ns", a, b);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, CPEL_TEST_PAIR_RANGE_CSV);

  /* the table: both captures named, aligned columns with units, the
   * biggest change first */
  cli_run (&r, "diff", a, b);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "A: diff-a.cpel: 26 events, span 2.000 µs");
  g_assert_cmpstr (lines[1], ==, "B: diff-b.cpel: 28 events, span 2.000 µs");
  g_assert_cmpstr (lines[3], ==, "Event   Count A  Count B   Δ  Mean A  Mean B       Δ %");
  g_assert_cmpstr (lines[4], ==, "double        5       10  +5  200 ns  100 ns   -50.0 %");
  g_assert_cmpstr (lines[5], ==, "only-a        4        0  -4   10 ns       -         -");
  g_assert_cmpstr (lines[9], ==, "slow          4        4   0  100 ns  300 ns  +200.0 %");
  g_clear_pointer (&lines, g_strfreev);
  cli_run (&r, "diff", "--by", "tracks", a, b);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\nTrack  Count A  Count B   Δ\nwk0         18       23  +5\n"));

  /* a capture with itself: nothing changed */
  cli_run (&r, "diff", "--csv", b, b);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 7);
  for (guint i = 1; lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);

      g_assert_cmpstr (f[1], ==, f[2]);
      g_assert_cmpstr (f[3], ==, "0");
      g_assert_cmpstr (f[4], ==, f[5]);
      g_assert_cmpstr (f[6], ==, f[4][0] ? "0.0" : "");
    }

  /* bad B: an error naming B, exit 1; usage errors exit 2 */
  g_assert_true (g_file_set_contents (bad, "not a capture at all", -1, NULL));
  cli_run (&r, "diff", a, bad);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_true (g_str_has_prefix (r.err, "cpel: "));
  g_assert_nonnull (strstr (r.err, bad));
  g_assert_null (strstr (r.err, a));
  cli_run (&r, "diff", a, "/nonexistent/b.cpel");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "/nonexistent/b.cpel"));
  cli_run (&r, "diff", a);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "diff", a, b, b);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "diff", "--by", "codes", a, b);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "diff", "--from", "2us", "--to", "1us", a, b);
  g_assert_cmpint (r.status, ==, 2);
}

/* `cpel export --compare B`: both panes in one image */
static void
test_export_compare (void)
{
  g_autofree char *a = tmp_path ("xc-a.cpel");
  g_autofree char *b = tmp_path ("xc-b.cpel");
  g_autofree char *png = tmp_path ("xc.png");
  g_autofree char *png2 = tmp_path ("xc2.png");
  g_auto(CliRun) r = { 0 };
  cairo_surface_t *s;

  cpel_test_pair_write_files (a, b);
  cli_run (&r, "export", "--png", png, "--compare", b, "-W", "800", a);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  s = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, 800);
  /* ruler 28 + 2 × (header 22 + B's 3 rows of 24) */
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 28 + 2 * (22 + 3 * 24));
  cairo_surface_destroy (s);
  cli_run (&r, "export", "--png", png2, "--compare", b, "--paired", "-W", "800", a);
  g_assert_cmpint (r.status, ==, 0);
  s = cairo_image_surface_create_from_png (png2);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 28 + 2 * 22 + 5 * 24);
  cairo_surface_destroy (s);

  cli_run (&r, "export", "--png", png2, "--paired", "-f", a);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "export", "--png", png2, "-f", "--compare", "/nonexistent/b.cpel", a);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "/nonexistent/b.cpel"));
}

/* Every new command has --help (exit 0) and is in the command list. */
static void
test_help (void)
{
  static const char *commands[] = { "cut", "stats", "anomaly", "chase", "diff" };
  g_auto(CliRun) r = { 0 };
  g_auto(CliRun) top = { 0 };

  cli_run (&top, "--help");
  g_assert_cmpint (top.status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *usage = g_strdup_printf ("cpel %s [OPTION…]", commands[i]);
      g_autofree char *listed = g_strdup_printf ("\n  %s ", commands[i]);

      cli_run (&r, commands[i], "--help");
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, usage));
      g_assert_nonnull (strstr (top.out, listed));
      cli_run (&r, commands[i], "--no-such-option");
      g_assert_cmpint (r.status, ==, 2);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = cli_tmpdir_new ();

  g_test_add_func ("/cli/cut/sample", test_cut_sample);
  g_test_add_func ("/cli/cut/generated", test_cut_generated);
  g_test_add_func ("/cli/cut/refusals", test_cut_refusals);
  g_test_add_func ("/cli/stats/sample", test_stats_sample);
  g_test_add_func ("/cli/anomaly/planted", test_anomaly_planted);
  g_test_add_func ("/cli/chase/tracks", test_chase);
  g_test_add_func ("/cli/diff/planted", test_diff_planted);
  g_test_add_func ("/cli/export/compare", test_export_compare);
  g_test_add_func ("/cli/analysis/help", test_help);

  status = g_test_run ();
  cli_tmpdir_free (tmpdir);
  return status;
}
