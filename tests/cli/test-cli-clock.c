/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-clock.c — `cpel dump --clock capture`: times on the capture's own
 * clock, against `perf script` (run on the fixture when perf is installed,
 * and its reference text kept with the fixture) */
#include <cairo.h>

#include "config.h"
#include "cpel-core.h"
#include "cpel-test-util.h"
#include "cli-test-util.h"

/* The first field of each line of `out` (up to two spaces). */
static char *
first_time (const char *out, guint line)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  const char *l;
  const char *end;

  g_assert_cmpuint (g_strv_length (lines), >, line);
  l = lines[line] + strspn (lines[line], " ");
  end = strstr (l, "  ");
  g_assert_nonnull (end);
  return g_strndup (l, (gsize) (end - l));
}

#if HAVE_PERF
static void
test_perf (void)
{
  g_autofree char *data = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autofree char *ref_path = cpel_test_fixture_file ("perf/sched-wakeup.perf-script.txt");
  g_autofree char *ref = NULL;
  g_autofree char *t = NULL, *t6 = NULL;
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "dump", "--clock", "capture", data);
  g_assert_cmpint (r.status, ==, 0);
  t = first_time (r.out, 0);
  /* perf script --ns: 2584.361365612; its default, µs cut: 2584.361365 */
  g_assert_cmpstr (t, ==, "2584.361365612");
  g_assert_true (g_file_get_contents (ref_path, &ref, NULL, NULL));
  t6 = g_strndup (t, strlen (t) - 3);
  g_assert_nonnull (strstr (ref, t6));
  g_assert_true (strstr (ref, t6) < strchr (ref, '\n'));

  if (perf != NULL)
    {
      /* the tool itself, at test time */
      g_autofree char *out = NULL;
      g_autofree char *got = NULL;
      const char *argv[] = { perf, "script", "-i", data, "--ns", "-F", "time", NULL };
      int status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
                                   NULL, NULL, &out, NULL, &status, NULL));
      if (g_spawn_check_wait_status (status, NULL))
        {
          got = g_strdup_printf ("%s:", t);
          g_assert_true (g_str_has_prefix (out + strspn (out, " "), got));
        }
      else
        g_test_message ("perf script failed here: the reference text alone was compared");
    }

  /* TSV: the clock's ns in the first column */
  cli_run (&r, "dump", "--tsv", "--clock", "capture", data);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "clock_ns\ttrack\ttrack_label\tcode\tevent\tdatum\n"
                                          "2584361365612\t"));
}
#endif

/* An elog: the wall clock in UTC, the header's start plus the time since. */
static void
test_elog (void)
{
  g_autofree char *elog = cpel_test_fixture_file ("vpp-elog/tiny.elog");
  g_autoptr(GRegex) re = g_regex_new ("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{9}$", 0, 0,
                                      NULL);
  g_autofree char *t = NULL, *t0 = NULL;
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "dump", "--clock", "capture", elog);
  g_assert_cmpint (r.status, ==, 0);
  t = first_time (r.out, 0);
  g_assert_true (g_regex_match (re, t, 0, NULL));
  cli_run (&r, "dump", "--clock", "first", elog);
  g_assert_cmpint (r.status, ==, 0);
  t0 = first_time (r.out, 0);
  g_assert_cmpstr (t0, !=, t);
}

/* `cpel info` says what the capture's clock read at its first event. */
static void
test_info (void)
{
  g_autofree char *elog = cpel_test_fixture_file ("vpp-elog/tiny.elog");
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "info", elog);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\nCapture clock: wall clock, first event at "
                                   "2026-11-26 09:11:13.604387861 UTC\n"));
  cli_run (&r, "info", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\nCapture clock: none (the source does not say what its "
                                   "clock read)\n"));
#if HAVE_PERF
  {
    g_autofree char *data = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");

    cli_run (&r, "info", data);
    g_assert_cmpint (r.status, ==, 0);
    /* perf script --ns: 2584.361365612 */
    g_assert_nonnull (strstr (r.out, "\nCapture clock: seconds since boot, first event at "
                                     "2584.361365612 s\n"));
  }
#endif
}

/* A capture without a clock of its own, a wrong value: usage errors. */
static void
test_errors (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "dump", "--clock", "capture", sample);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "does not say what its clock read"));
  cli_run (&r, "dump", "--clock", "boot", sample);
  g_assert_cmpint (r.status, ==, 2);
  /* the default is unchanged */
  cli_run (&r, "dump", "--tsv", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "time_ns\t"));
}

/* `cpel export --clock capture`: the same view, another ruler (the rows
 * below it alike); not for a capture without a clock, nor with --compare. */
static void
test_export (void)
{
  g_autofree char *elog = cpel_test_fixture_file ("vpp-elog/tiny.elog");
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  char *dir = cli_tmpdir_new ();
  g_autofree char *plain = g_build_filename (dir, "plain.png", NULL);
  g_autofree char *clock = g_build_filename (dir, "clock.png", NULL);
  g_autofree char *none = g_build_filename (dir, "none.png", NULL);
  cairo_surface_t *a, *b;
  guint64 ruler = 0, rows = 0;
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "export", "--png", plain, "-W", "600", "-H", "120", elog);
  g_assert_cmpint (r.status, ==, 0);
  cli_run (&r, "export", "--png", clock, "-W", "600", "-H", "120", "--clock", "capture", elog);
  g_assert_cmpint (r.status, ==, 0);
  a = cairo_image_surface_create_from_png (plain);
  b = cairo_image_surface_create_from_png (clock);
  g_assert_cmpint (cairo_surface_status (a), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_surface_status (b), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  for (int y = 0; y < 120; y++)
    {
      const guint32 *pa = (const guint32 *) (cairo_image_surface_get_data (a)
                                             + y * cairo_image_surface_get_stride (a));
      const guint32 *pb = (const guint32 *) (cairo_image_surface_get_data (b)
                                             + y * cairo_image_surface_get_stride (b));

      for (int x = 0; x < 600; x++)
        if (pa[x] != pb[x])
          {
            if (y < 28)
              ruler++;
            else
              rows++;
          }
    }
  g_assert_cmpuint (ruler, >, 50);
  g_test_message ("%" G_GUINT64_FORMAT " pixels of the rows differ (the grid)", rows);
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);

  cli_run (&r, "export", "--png", none, "--clock", "capture", sample);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "does not say what its clock read"));
  cli_run (&r, "export", "--png", none, "--clock", "capture", "--compare", sample, elog);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_false (g_file_test (none, G_FILE_TEST_EXISTS));
  cli_tmpdir_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#if HAVE_PERF
  g_test_add_func ("/cli/dump/clock/perf", test_perf);
#endif
  g_test_add_func ("/cli/dump/clock/elog", test_elog);
  g_test_add_func ("/cli/dump/clock/errors", test_errors);
  g_test_add_func ("/cli/info/clock", test_info);
  g_test_add_func ("/cli/export/clock", test_export);
  return g_test_run ();
}
