/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli.c — `cpel` info / dump, exit codes, messages on invalid files, help */
#include "config.h"

#include "cpel-core.h"
#include "cpel-test-util.h"
#include "cli-test-util.h"

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static char *
write_file (const char *name, const void *data, gsize len)
{
  char *path = tmp_path (name);

  g_assert_true (g_file_set_contents (path, data, len, NULL));
  return path;
}

/* ---- dump ---------------------------------------------------------------- */

static void
test_dump_tsv_sample (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;
  gint64 prev = -1;

  cli_run (&r, "dump", "--tsv", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpuint (count_lines (r.out), ==, 68);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum");
  g_assert_cmpstr (lines[1], ==, "0\t1\tworkers 2\t0\trx\t1): 3");
  g_assert_cmpstr (lines[2], ==, "138910\t0\tworkers 1\t0\trx\t1): 4");
  for (guint i = 1; i <= 67; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", -1);
      gint64 t;

      g_assert_cmpuint (g_strv_length (f), ==, 6);
      g_assert_true (g_ascii_string_to_signed (f[0], 10, 0, G_MAXINT64, &t, NULL));
      g_assert_cmpint (t, >=, prev);
      prev = t;
      g_assert_cmpstr (f[4], ==, "rx");
      g_assert_true (g_str_has_prefix (f[5], "1): "));
      g_assert_cmpstr (f[2], ==, strcmp (f[1], "1") == 0 ? "workers 2" : "workers 1");
    }
  g_assert_cmpstr (lines[68], ==, "");
}

static void
test_dump_human_sample (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;

  cli_run (&r, "dump", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_lines (r.out), ==, 67);
  lines = g_strsplit (r.out, "\n", -1);
  /* Right-aligned times, then the track label, then "event: datum". */
  g_assert_true (g_str_has_suffix (lines[0], "0 ns  workers 2  rx: 1): 3"));
  g_assert_true (g_str_has_suffix (lines[1], "138.910 µs  workers 1  rx: 1): 4"));
  g_assert_cmpint (g_utf8_pointer_to_offset (lines[0], strstr (lines[0], "workers")), ==,
                   g_utf8_pointer_to_offset (lines[1], strstr (lines[1], "workers")));
}

/* Two events 210 ns apart at 28.121 ms read apart in the
 * human format (every digit down to the ns). */
static void
test_dump_human_precision (void)
{
  g_autoptr(CpelWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("precision.cpel");
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;
  guint t;

  w = cpel_writer_new (path, TRUE, 0, &error);
  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "ev", "%d");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 1, "t");
  cpel_writer_begin_events (w, t, 1000000000, 4);
  cpel_writer_add_event (w, 0, 1, 1, 1);
  cpel_writer_add_event (w, 28121000, 1, 1, 2);
  cpel_writer_add_event (w, 28121210, 1, 1, 3);
  cpel_writer_add_event (w, 1500000123, 1, 1, 4);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);

  cli_run (&r, "dump", path);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "         0 ns  t  ev: 1");
  g_assert_cmpstr (lines[1], ==, " 28.121000 ms  t  ev: 2");
  g_assert_cmpstr (lines[2], ==, " 28.121210 ms  t  ev: 3");
  g_assert_cmpstr (lines[3], ==, "1.500000123 s  t  ev: 4");
  g_unlink (path);
}

/* VPP elog: an event's text starts with its name (c2cpel's brief name):
 * the label shows the text once, as elog_dump does. */
static void
test_dump_elog_labels (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-elog/tiny.elog");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "dump", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "  cli      session 7 open\n"));
  g_assert_nonnull (strstr (r.out, "  port-0   poll_port rx_mask 0x5\n"));
  g_assert_nonnull (strstr (r.out, "  default  tick\n"));
  g_assert_null (strstr (r.out, "session: session"));
}

/* A Snabb timeline without engine.got_monotonic_time has
 * TSC ticks for times: dump and info say ticks, never µs; with a clock rate
 * given they are times again. */
static void
test_ticks (void)
{
  g_autofree char *path = cpel_test_fixture_file ("snabb-timeline/ring64-wrapped.timeline");
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;

  cli_run (&r, "dump", path);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "       0 ticks  bench a"));
  g_assert_true (g_str_has_prefix (lines[1], "     105 ticks  bench a"));
  g_assert_null (strstr (r.out, "µs"));
  g_assert_nonnull (strstr (r.out, "425.292 kticks  bench b hi  bench.poll_end\n"));

  cli_run (&r, "info", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Time span:     425.292 kticks (425292 ticks)\n"));
  g_assert_nonnull (strstr (r.out, "Clock:         unknown: times are the source's ticks"));
  g_assert_null (strstr (r.out, "µs"));

  cli_run (&r, "info", "--clock-rate", "1GHz", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Time span:     425.292 µs (425292 ns)\n"));
}

/* --clock-rate overrides every section's clock: half the rate, twice the time. */
static void
test_dump_clock_rate (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;

  cli_run (&r, "dump", "--tsv", "--clock-rate", "500000000", sample);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[2], ==, "277820\t0\tworkers 1\t0\trx\t1): 4");

  cli_run (&r, "dump", "--tsv", "--clock-rate", "0.5GHz", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\n277820\t0\t"));

  cli_run (&r, "dump", "--clock-rate", "fast", sample);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "dump", "--clock-rate", "0", sample);
  g_assert_cmpint (r.status, ==, 2);
}

static void
test_dump_range (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "dump", "--tsv", "--from", "138910ns", "--to", "1s", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum\n"
                                          "138910\t0\tworkers 1\t"));
  g_assert_cmpuint (count_lines (r.out), <, 68);
  g_assert_cmpuint (count_lines (r.out), >, 2);

  cli_run (&r, "dump", "--from", "soon", sample);
  g_assert_cmpint (r.status, ==, 2);
}

/* Text fields are escaped: \\ \t \r \n, other control bytes as \xHH. */
static void
test_dump_escaping (void)
{
  g_autoptr(CpelWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("escape.cpel");
  g_auto(CliRun) r = { 0 };
  guint t;
  guint32 s;

  w = cpel_writer_new (path, TRUE, 0, &error);
  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "T");
  s = cpel_writer_add_string (w, t, "x\ry\x1b" "z");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "ev\tname", "%s");
  cpel_writer_add_event_def (w, 2, "plain", "%d\n");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 5, "a\tb\nc\\d\x01" "e\x7f");
  cpel_writer_begin_events (w, t, 1000000000, 2);
  cpel_writer_add_event (w, 100, 5, 1, s);
  cpel_writer_add_event (w, 150, 5, 2, (guint32) -3);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);

  cli_run (&r, "dump", "--tsv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum\n"
                   "0\t5\ta\\tb\\nc\\\\d\\x01e\\x7f\t1\tev\\tname\tx\\ry\\x1bz\n"
                   "50\t5\ta\\tb\\nc\\\\d\\x01e\\x7f\t2\tplain\t-3\\n\n");
  g_unlink (path);
}

/* The human format prints a label's backslashes as they are (a strace label
 * "\177ELF\2" stays so) and escapes only control characters. */
static void
test_dump_human_escaping (void)
{
  g_autoptr(CpelWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("escape-human.cpel");
  g_auto(CliRun) r = { 0 };
  guint t;
  guint32 s, s2;

  w = cpel_writer_new (path, TRUE, 0, &error);
  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "T");
  s = cpel_writer_add_string (w, t, "read(3, \"\\177ELF\\2\\1\", 832) = 832");
  s2 = cpel_writer_add_string (w, t, "x\ry\x1b" "z\\n");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "sys\\call", "%s");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 5, "C:\\tmp\tx");
  cpel_writer_begin_events (w, t, 1000000000, 2);
  cpel_writer_add_event (w, 100, 5, 1, s);
  cpel_writer_add_event (w, 150, 5, 1, s2);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);

  cli_run (&r, "dump", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "      0 ns  C:\\tmp\\tx  sys\\call: read(3, \"\\177ELF\\2\\1\", 832) = 832\n"
                   "     50 ns  C:\\tmp\\tx  sys\\call: x\\ry\\x1bz\\n\n");

  /* --tsv keeps its documented escaping: backslashes doubled. */
  cli_run (&r, "dump", "--tsv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\tsys\\\\call\tread(3, \"\\\\177ELF\\\\2\\\\1\", 832) = 832\n"));
  g_unlink (path);
}

/* The same capture in either byte order dumps identically. */
static void
test_dump_byte_orders (void)
{
  g_autofree char *be = tmp_path ("be.cpel");
  g_autofree char *le = tmp_path ("le.cpel");
  g_auto(CliRun) r = { 0 };
  g_autofree char *out_be = NULL;

  cli_run (&r, "gen", "--events", "3000", "--tracks", "7", "--seed", "5", be);
  g_assert_cmpint (r.status, ==, 0);
  cli_run (&r, "gen", "--events", "3000", "--tracks", "7", "--seed", "5", "--little-endian", le);
  g_assert_cmpint (r.status, ==, 0);
  cli_run (&r, "dump", "--tsv", be);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_lines (r.out), ==, 3001);
  out_be = g_steal_pointer (&r.out);
  cli_run (&r, "dump", "--tsv", le);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, out_be);
  g_unlink (be);
  g_unlink (le);
}

/* ---- info ---------------------------------------------------------------- */

static void
test_info_sample (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "info", "--tracks", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_nonnull (strstr (r.out, "big-endian"));
  g_assert_true (g_regex_match_simple ("^Events: +67$", r.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^Tracks: +2$", r.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^Sections: +4$", r.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^Clock: +1000000000 ticks/s", r.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +0 +67 +rx$", r.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("workers 2$", r.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^Diagnostics: +none$", r.out, G_REGEX_MULTILINE, 0));
}

/* An imported capture's Date is its start as its source says it (the
 * elog's wall-clock start), never the file's modification time. */
static void
test_info_capture_start (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.elog");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "info", sample);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("^Date: +2016-02-04 21:23:40\\.775990016 UTC$",
                                       r.out, G_REGEX_MULTILINE, 0));
  g_assert_null (strstr (r.out, "modification time"));
  g_assert_null (strstr (r.out, "Start read from"));
  g_assert_null (strstr (r.out, "start-unix-ns"));

  /* a source that does not say: unknown (a Snabb timeline, a perf.data
   * file on perf's default clock); a perf.data file with a wall-clock
   * reference (-k mono) and a CTF clock from the Unix epoch: their first
   * event's wall-clock time */
  {
    const struct { const char *file; const char *date; } cases[] = {
      { "snabb-timeline/ring64-wrapped.timeline", "unknown \\(" },
#if HAVE_PERF
      { "perf/sched-wakeup.perf.data", "unknown \\(" },
      { "perf/zstd-mono.perf.data", "2026-11-26 09:16:24\\.824478754 UTC$" },
#endif
#if HAVE_CTF
      { "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809/metadata",
        "2026-11-26 09:18:09\\.697457412 UTC$" },
#endif
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *path = cpel_test_fixture_file (cases[i].file);
        g_autofree char *pattern = g_strconcat ("^Date: +", cases[i].date, NULL);
        g_auto(CliRun) run = { 0 };

        cli_run (&run, "info", path);
        g_assert_cmpint (run.status, ==, 0);
        if (!g_regex_match_simple (pattern, run.out, G_REGEX_MULTILINE, 0))
          g_error ("%s: no line /%s/ in:\n%s", cases[i].file, pattern, run.out);
        g_assert_null (strstr (run.out, "modification time"));
      }
  }
}

/* A clock given per µs is reported in the diagnostics. */
static void
test_info_diagnostics (void)
{
  g_autoptr(CpelWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("perus.cpel");
  g_auto(CliRun) r = { 0 };
  guint t;

  w = cpel_writer_new (path, FALSE, 0, &error);
  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_events (w, t, 2000, 1);
  cpel_writer_add_event (w, 1, 1, 1, 1);
  g_assert_true (cpel_writer_finish (w, &error));

  cli_run (&r, "info", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("^Diagnostics:$\n^  \\S", r.out, G_REGEX_MULTILINE, 0));
  g_assert_nonnull (strstr (r.out, "2000000000 ticks/s"));
  g_unlink (path);
}

/* ---- invalid files: exit 1, one line "cpel: FILE: message" --------------- */

static void
check_invalid (const char *path, const char *must_contain)
{
  g_autofree char *prefix = g_strdup_printf ("cpel: %s: ", path);
  const char *commands[] = { "info", "dump", "search" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(CliRun) r = { 0 };

      if (i == 2)
        cli_run (&r, commands[i], path, "x");
      else
        cli_run (&r, commands[i], path);
      g_test_message ("%s %s: %s", commands[i], path, r.err);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_cmpstr (r.out, ==, "");
      g_assert_true (g_str_has_prefix (r.err, prefix));
      g_assert_cmpuint (count_lines (r.err), ==, 1);
      if (must_contain != NULL)
        g_assert_nonnull (strstr (r.err, must_contain));
    }
}

static void
test_invalid_empty (void)
{
  g_autofree char *path = write_file ("empty.cpel", "", 0);

  check_invalid (path, ": The file is empty. It has no bytes");
  check_invalid (path, "offset 0");
}

/* Random bytes: a plain first sentence, then the detail on the same line. */
static void
test_invalid_not_cpel (void)
{
  static const guint8 random_bytes[32] = {
    0x81, 0x3c, 0x00, 0x09, 0x9a, 0x10, 0x42, 0x77, 0x77, 0x61, 0x73, 0x20, 0x77, 0x62, 0xe8, 0x73,
  };
  g_autofree char *path = write_file ("random.cpel", random_bytes, sizeof random_bytes);
  g_autofree char *text = write_file ("notes.txt", "hello\n", 6);

  /* its first byte reads as CPEL version 1, its first section is of no
   * CPEL type: no CPEL section's detail */
  check_invalid (path, ": This is not a supported event log. It is none of the formats this "
                 "program reads (");
  check_invalid (path, "the file starts with 81 3c 00 09");
  /* the formats this build has (-Dctf, -Dperf), in the table's order */
  check_invalid (text, ": This is not a supported event log. It is none of the formats this "
                 "program reads (CPEL, "
#if HAVE_PERF
                 "Linux perf.data, "
#endif
#if HAVE_CTF
                 "CTF trace, "
#endif
                 "VPP elog, Snabb timeline): the file starts with 68 65 6c 6c 6f 0a");
}

/* Clock rate 0: the message names the option that reads the file. */
static void
test_invalid_clock (void)
{
  g_autoptr(CpelWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("clock0.cpel");
  g_auto(CliRun) r = { 0 };
  guint t;

  w = cpel_writer_new (path, FALSE, 0, &error);
  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_events (w, t, 0, 1);
  cpel_writer_add_event (w, 1, 1, 1, 1);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);

  check_invalid (path, "does not say how fast its clock runs. Event section at offset ");
  check_invalid (path, "--clock-rate HZ");
  cli_run (&r, "dump", "--clock-rate", "2.6GHz", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_lines (r.out), ==, 1);
  g_unlink (path);
}

static void
test_invalid_truncated (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autofree char *contents = NULL;
  g_autofree char *path = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (sample, &contents, &len, NULL));
  path = write_file ("truncated.cpel", contents, 300);
  check_invalid (path, "offset 252");
  g_free (path);
  path = write_file ("header.cpel", contents, 5);
  check_invalid (path, "offset");
}

static void
test_invalid_gist (void)
{
  /* Version 0: the first 4 octets of an old Gist log are an event count. */
  static const guint8 gist[16] = { 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 7 };
  g_autofree char *path = write_file ("gist.cpel", gist, sizeof gist);

  check_invalid (path, "Gist");
}

static void
test_invalid_missing (void)
{
  g_autofree char *path = tmp_path ("does-not-exist.cpel");

  check_invalid (path, NULL);
}

/* ---- usage: exit 2 -------------------------------------------------------- */

static void
test_usage_errors (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };
  const char *s;

  s = sample;

  cli_runv (&r, (const char *[]) { NULL });
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "cpel --help"));

#define USAGE(...) G_STMT_START { \
    cli_run (&r, __VA_ARGS__); \
    g_assert_cmpint (r.status, ==, 2); \
    g_assert_cmpstr (r.out, ==, ""); \
    g_assert_nonnull (strstr (r.err, "--help")); \
  } G_STMT_END
  USAGE ("frobnicate");
  USAGE ("--frobnicate");
  USAGE ("dump");
  USAGE ("dump", s, s);
  USAGE ("dump", "--frobnicate", s);
  USAGE ("dump", "--from", "2s", "--to", "1s", s);   /* as stats, cut and export */
  USAGE ("dump", "--from", "1s", "--to", "1s", s);
  USAGE ("info");
  USAGE ("info", "--tsv", s);
  USAGE ("search", s);
  USAGE ("search", s, "--text", "a", "--regex", "b");
  USAGE ("search", s, "--regex", "(unclosed");
  USAGE ("search", s, "--code", "no-such-event");
  USAGE ("gen");
  USAGE ("gen", "--events", "many", "x.cpel");
  USAGE ("gen", "--tracks", "0", "x.cpel");
  USAGE ("export", s);
  USAGE ("export", "--png", "a.png", "--svg", "b.svg", s);
#undef USAGE
}

/* ---- help ------------------------------------------------------------------ */

static void
test_help (void)
{
  const char *commands[] = { "info", "dump", "search", "gen", "export", "spans", "states" };
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "--help");
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_assert_nonnull (strstr (r.out, commands[i]));

  cli_run (&r, "--version");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "cpel "));

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *usage = g_strdup_printf ("cpel %s [OPTION", commands[i]);

      cli_run (&r, commands[i], "--help");
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, usage));
      g_assert_nonnull (strstr (r.out, "--"));
      cli_run (&r, "help", commands[i]);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, usage));
    }
  cli_run (&r, "dump", "--help");
  g_assert_nonnull (strstr (r.out, "--tsv"));
  g_assert_nonnull (strstr (r.out, "--clock-rate"));
}

/* cpel convert: the CPEL it writes dumps like the source; no overwrite
 * without --force; every command opens the elog and timeline directly. */
static void
test_convert (void)
{
  static const char *sources[] = { "vpp-elog/workers.elog",
                                   "snabb-timeline/engine-pipeline.timeline" };

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autofree char *src = cpel_test_fixture_file (sources[i]);
      g_autofree char *out = NULL;
      g_auto(CliRun) direct = { 0 }, conv = { 0 }, again = { 0 }, dumped = { 0 }, info = { 0 };

      out = tmp_path (i == 0 ? "converted-elog.cpel" : "converted-timeline.cpel");
      cli_run (&conv, "convert", src, out);
      g_assert_cmpint (conv.status, ==, 0);
      cli_run (&again, "convert", src, out);
      g_assert_cmpint (again.status, ==, 1);
      g_assert_nonnull (strstr (again.err, "--force"));
      cli_run (&direct, "dump", "--tsv", src);
      cli_run (&dumped, "dump", "--tsv", out);
      g_assert_cmpint (direct.status, ==, 0);
      g_assert_cmpint (dumped.status, ==, 0);
      g_assert_cmpstr (direct.out, ==, dumped.out);
      cli_run (&info, "info", src);
      g_assert_nonnull (strstr (info.out, i == 0 ? "VPP elog" : "Snabb timeline"));
      g_assert_nonnull (strstr (info.out, "Source header:"));
    }
  {
    g_autofree char *src = cpel_test_fixture_file ("vpp-elog/tiny.elog");
    g_autofree char *out = tmp_path ("c2cpel-le.cpel");
    g_auto(CliRun) r = { 0 };

    cli_run (&r, "convert", "--c2cpel", "--little-endian", src, out);
    g_assert_cmpint (r.status, ==, 2);
  }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = cli_tmpdir_new ();

  g_test_add_func ("/cli/dump/tsv-sample", test_dump_tsv_sample);
  g_test_add_func ("/cli/dump/human-sample", test_dump_human_sample);
  g_test_add_func ("/cli/dump/clock-rate", test_dump_clock_rate);
  g_test_add_func ("/cli/dump/human-precision", test_dump_human_precision);
  g_test_add_func ("/cli/ticks", test_ticks);
  g_test_add_func ("/cli/dump/elog-labels", test_dump_elog_labels);
  g_test_add_func ("/cli/dump/range", test_dump_range);
  g_test_add_func ("/cli/dump/escaping", test_dump_escaping);
  g_test_add_func ("/cli/dump/human-escaping", test_dump_human_escaping);
  g_test_add_func ("/cli/dump/byte-orders", test_dump_byte_orders);
  g_test_add_func ("/cli/info/sample", test_info_sample);
  g_test_add_func ("/cli/info/capture-start", test_info_capture_start);
  g_test_add_func ("/cli/info/diagnostics", test_info_diagnostics);
  g_test_add_func ("/cli/invalid/empty", test_invalid_empty);
  g_test_add_func ("/cli/invalid/not-cpel", test_invalid_not_cpel);
  g_test_add_func ("/cli/invalid/clock", test_invalid_clock);
  g_test_add_func ("/cli/invalid/truncated", test_invalid_truncated);
  g_test_add_func ("/cli/invalid/gist", test_invalid_gist);
  g_test_add_func ("/cli/invalid/missing", test_invalid_missing);
  g_test_add_func ("/cli/usage", test_usage_errors);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/convert", test_convert);

  status = g_test_run ();
  cli_tmpdir_free (tmpdir);
  return status;
}
