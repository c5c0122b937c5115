/* SPDX-License-Identifier: Apache-2.0 */
/* test-clock-origin.c — a capture's own clock (cpel_file_get_clock_origin,
 * cpel_time_format_clock): the fixtures' absolute times against what the
 * reference tools print for them (perf script, babeltrace2 --clock-seconds,
 * the elog header's wall-clock start). */
#include <string.h>
#include <glib/gstdio.h>

#include "config.h"
#include "cpel-core.h"
#include "cpel-import.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"
#include "perf-script-util.h"

static CpelFile *
open_fixture (const char *relative, gboolean dir)
{
  g_autofree char *path = dir ? cpel_test_fixture_dir (relative)
                              : cpel_test_fixture_file (relative);
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return file;
}

/* The time of the file's earliest event on its clock, with `decimals`. */
static char *
first_event_clock (CpelFile *file, CpelClockKind want, guint decimals)
{
  gint64 origin;

  g_assert_cmpint (cpel_file_get_clock_origin (file, &origin), ==, want);
  return cpel_time_format_clock (want, origin, decimals);
}

static void
test_format (void)
{
  char buf[64];
  g_autofree char *s = NULL;

  /* perf script's seconds: cut to the decimals, not rounded */
  cpel_time_format_clock_to (CPEL_CLOCK_SECONDS, G_GINT64_CONSTANT (2584361365612), 6, FALSE,
                             buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "2584.361365");
  cpel_time_format_clock_to (CPEL_CLOCK_SECONDS, G_GINT64_CONSTANT (2584361365612), 9, FALSE,
                             buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "2584.361365612");
  cpel_time_format_clock_to (CPEL_CLOCK_SECONDS, G_GINT64_CONSTANT (2584999999999), 0, FALSE,
                             buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "2584");
  /* before the origin: floor, -0.25 s is -1 + 0.75 */
  cpel_time_format_clock_to (CPEL_CLOCK_SECONDS, -250000000, 3, FALSE, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "-1.750");
  /* the wall clock in UTC */
  s = cpel_time_format_clock (CPEL_CLOCK_WALL, G_GINT64_CONSTANT (1795684451326631721), 9);
  g_assert_cmpstr (s, ==, "2026-11-26 09:14:11.326631721");
  cpel_time_format_clock_to (CPEL_CLOCK_WALL, G_GINT64_CONSTANT (1795684451326631721), 3, TRUE,
                             buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "09:14:11.326");
  /* no clock: nothing */
  g_assert_cmpuint (cpel_time_format_clock_to (CPEL_CLOCK_NONE, 5, 3, FALSE, buf, sizeof buf),
                    ==, 0);
  g_assert_cmpstr (buf, ==, "");
  /* cut to the buffer */
  g_assert_cmpuint (cpel_time_format_clock_to (CPEL_CLOCK_SECONDS,
                                               G_GINT64_CONSTANT (2584361365612), 9, FALSE,
                                               buf, 5), ==, 4);
  g_assert_cmpstr (buf, ==, "2584");
}

#if HAVE_PERF
/* Every event's time on the perf.data's clock is the one perf script prints
 * for it (the reference texts: --ns, and the default µs, cut). */
static void
test_perf (void)
{
  g_autofree char *fields_path =
    cpel_test_fixture_file ("perf/sched-wakeup.perf-script-fields.txt");
  g_autofree char *text_path = cpel_test_fixture_file ("perf/sched-wakeup.perf-script.txt");
  g_autoptr(CpelFile) file = open_fixture ("perf/sched-wakeup.perf.data", FALSE);
  g_autoptr(GPtrArray) fields = cpel_perf_script_parse (fields_path);
  g_autoptr(GHashTable) times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) lines = cpel_perf_script_parse (text_path);
  g_autoptr(CpelMerge) merge = NULL;
  g_autofree char *first = NULL;
  CpelEvent ev;
  gint64 origin;
  guint64 n = 0;

  for (guint i = 0; i < fields->len; i++)
    {
      const CpelPerfScriptLine *l = fields->pdata[i];
      g_hash_table_add (times, g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                                                l->time_ns / 1000000000, l->time_ns % 1000000000));
    }
  g_assert_cmpint (cpel_file_get_clock_origin (file, &origin), ==, CPEL_CLOCK_SECONDS);
  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_autofree char *s = cpel_time_format_clock (CPEL_CLOCK_SECONDS, origin + ev.time_ns, 9);

      if (!g_hash_table_contains (times, s))
        g_error ("event %" G_GUINT64_FORMAT " at %s: perf script prints no such time", n, s);
      n++;
    }
  g_assert_cmpuint (n, ==, cpel_file_get_n_events (file));
  /* perf script's default: the earliest sample, in µs */
  first = first_event_clock (file, CPEL_CLOCK_SECONDS, 6);
  g_assert_cmpstr (first, ==, "2584.361365");
  g_assert_cmpuint (((CpelPerfScriptLine *) lines->pdata[0])->time_ns / 1000, ==,
                    (guint64) origin / 1000);
}
#endif

#if HAVE_CTF
/* A CTF clock from the Unix epoch: the wall clock; else (DPDK's, though
 * its offset is the time of day) its seconds, as
 * babeltrace2 --clock-seconds prints them. */
static void
test_ctf (void)
{
  struct { const char *trace; CpelClockKind kind; const char *first; } cases[] = {
    { "ctf/dpdk-22.11-lcores", CPEL_CLOCK_SECONDS, "1795684451.326631721" },
    { "ctf/lttng-ust-2.13-pid", CPEL_CLOCK_WALL, "1795684689.697457412" },
    /* [00:43:04.361365612] in babeltrace2's own text: 2584.361365612 s */
    { "ctf/perf-ctf-sched-wakeup", CPEL_CLOCK_SECONDS, "2584.361365612" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CpelFile) file = open_fixture (cases[i].trace, TRUE);
      g_autofree char *got = NULL;
      gint64 origin;

      g_assert_cmpint (cpel_file_get_clock_origin (file, &origin), ==, cases[i].kind);
      got = cpel_time_format_clock (CPEL_CLOCK_SECONDS, origin, 9);
      g_assert_cmpstr (got, ==, cases[i].first);
    }
  {
    /* the clock-seconds reference's first line */
    g_autofree char *ref_path =
      cpel_test_fixture_file ("ctf/lttng-ust-2.13-pid.babeltrace2-clock-seconds.txt");
    g_autofree char *ref = NULL;
    g_autoptr(CpelFile) file = open_fixture ("ctf/lttng-ust-2.13-pid", TRUE);
    g_autofree char *got = NULL, *want = NULL;
    gint64 origin;

    g_assert_true (g_file_get_contents (ref_path, &ref, NULL, NULL));
    g_assert_cmpint (cpel_file_get_clock_origin (file, &origin), ==, CPEL_CLOCK_WALL);
    got = cpel_time_format_clock (CPEL_CLOCK_SECONDS, origin, 9);
    want = g_strdup_printf ("[%s] ", got);
    g_assert_true (g_str_has_prefix (ref, want));
    /* on the wall clock, in UTC */
    g_clear_pointer (&got, g_free);
    got = first_event_clock (file, CPEL_CLOCK_WALL, 9);
    g_assert_cmpstr (got, ==, "2026-11-26 09:18:09.697457412");
  }
}
#endif

/* An elog's times count from its wall-clock start (the header's): the
 * earliest event is that start plus its time since. */
static void
test_elog (void)
{
  g_autoptr(CpelFile) file = open_fixture ("vpp-elog/tiny.elog", FALSE);
  g_autofree char *path = cpel_test_fixture_file ("vpp-elog/tiny.elog");
  g_autofree char *dir = g_dir_make_tmp ("cpel-clock-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "tiny.cpel", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) converted = NULL;
  CpelImportOptions options = { 0 };
  gint64 start, origin, origin2;

  g_assert_true (cpel_file_get_capture_start (file, &start));
  g_assert_cmpint (cpel_file_get_clock_origin (file, &origin), ==, CPEL_CLOCK_WALL);
  /* elog_dump: the first event 35.669 µs after the start */
  g_assert_cmpint (cpel_file_get_base_ns (file), ==, 35669);
  g_assert_cmpint (origin, ==, start + 35669);

  /* `cpel convert` keeps it */
  g_assert_true (cpel_import_convert (path, out, &options, FALSE, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  converted = cpel_file_new_for_path (out, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cpel_file_get_clock_origin (converted, &origin2), ==, CPEL_CLOCK_WALL);
  g_assert_cmpint (origin2, ==, origin);
  g_unlink (out);
  g_rmdir (dir);
}

/* A Snabb timeline whose TSC rate comes from engine.got_monotonic_time:
 * each of them reads its argument (CLOCK_MONOTONIC ns) on the capture's
 * clock, the first exactly, the others as the rate interpolates. */
static void
test_snabb (void)
{
  g_autoptr(CpelFile) file = open_fixture ("snabb-timeline/engine-pipeline.timeline", FALSE);
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  g_autoptr(GString) text = g_string_new (NULL);
  gint64 origin, worst = 0;
  guint n = 0;
  CpelEvent ev;

  g_assert_cmpint (cpel_file_get_clock_origin (file, &origin), ==, CPEL_CLOCK_SECONDS);
  while (cpel_merge_next (merge, &ev, NULL))
    {
      const char *arg;
      gint64 want, got;

      if (strcmp (cpel_file_get_type_name (file, ev.type), "engine.got_monotonic_time") != 0)
        continue;
      g_string_truncate (text, 0);
      cpel_file_append_datum (file, &ev, text);
      arg = strstr (text->str, "unixnanos=");
      g_assert_nonnull (arg);
      want = g_ascii_strtoll (arg + strlen ("unixnanos="), NULL, 10);
      got = origin + ev.time_ns;
      if (n++ == 0)
        g_assert_cmpint (got, ==, want);
      worst = MAX (worst, ABS (got - want));
    }
  g_assert_cmpuint (n, ==, 24);
  g_test_message ("worst got_monotonic_time: %" G_GINT64_FORMAT " ns off", worst);
  g_assert_cmpint (worst, <, 1000);
}

/* CPEL's own header has no clock, nor has a Snabb timeline without
 * engine.got_monotonic_time; read with another clock rate the times are
 * on no clock of the source's. */
static void
test_none (void)
{
  g_autoptr(CpelFile) cpel = open_fixture ("vpp-sample.cpel", FALSE);
  g_autoptr(CpelFile) snabb = open_fixture ("snabb-timeline/ring64-wrapped.timeline", FALSE);
  g_autofree char *path = cpel_test_fixture_file ("snabb-timeline/ring64-wrapped.timeline");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) rated = NULL;
  CpelLoadOptions options = { .ticks_per_second = 2000000000 };
  gint64 origin = 1;

  g_assert_cmpint (cpel_file_get_clock_origin (cpel, &origin), ==, CPEL_CLOCK_NONE);
  g_assert_cmpint (origin, ==, 0);
  g_assert_cmpint (cpel_file_get_clock_origin (snabb, NULL), ==, CPEL_CLOCK_NONE);
  /* a rate given: ns, but still no clock reading */
  rated = cpel_file_new_for_path (path, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cpel_file_get_time_kind (rated), ==, CPEL_TIME_KIND_NS);
  g_assert_cmpint (cpel_file_get_clock_origin (rated, NULL), ==, CPEL_CLOCK_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/clock/format", test_format);
#if HAVE_PERF
  g_test_add_func ("/core/clock/perf", test_perf);
#endif
#if HAVE_CTF
  g_test_add_func ("/core/clock/ctf", test_ctf);
#endif
  g_test_add_func ("/core/clock/elog", test_elog);
  g_test_add_func ("/core/clock/snabb", test_snabb);
  g_test_add_func ("/core/clock/none", test_none);
  return g_test_run ();
}
