/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-tools.c — `cpel` search / gen / export / top */
#include "config.h"

#include <string.h>

#include "cpel-core.h"
#include "cpel-test-util.h"
#include "cli-test-util.h"

static char *tmpdir;
static char *demo;   /* a demo capture generated once */

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* ---- search ----------------------------------------------------------------- */

static void
test_search_sample (void)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;

  /* Text, case-insensitive by default; lines as dump prints them. */
  cli_run (&r, "search", sample, "--text", "1): 4", "--tsv");
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum");
  g_assert_cmpstr (lines[1], ==, "138910\t0\tworkers 1\t0\trx\t1): 4");

  cli_run (&r, "search", sample, "RX", "--count");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "67\n");
  cli_run (&r, "search", sample, "RX", "--count", "--case-sensitive");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "0\n");
  cli_run (&r, "search", sample, "--code", "0", "--count");
  g_assert_cmpstr (r.out, ==, "67\n");
  cli_run (&r, "search", sample, "--code", "rx", "--count");
  g_assert_cmpstr (r.out, ==, "67\n");
  /* A code the file does not use: no match, not a usage error. */
  cli_run (&r, "search", sample, "--code", "99", "--count");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "0\n");
  cli_run (&r, "search", sample, "--regex", "^rx: 1\\): [0-3]$", "--count");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (g_ascii_strtoull (r.out, NULL, 10), >, 0);
  g_assert_cmpuint (g_ascii_strtoull (r.out, NULL, 10), <, 67);

  /* Human format: the same lines as dump. */
  cli_run (&r, "search", sample, "1): 4");
  g_assert_cmpint (r.status, ==, 0);
  g_clear_pointer (&lines, g_strfreev);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_true (g_str_has_suffix (lines[0], "138.910 µs  workers 1  rx: 1): 4"));
}

/* Search output is exactly the matching subset of the dump, in order. */
static void
test_search_matches_dump (void)
{
  g_auto(CliRun) r = { 0 };
  g_autoptr(GString) expected = g_string_new ("time_ns\ttrack\ttrack_label\tcode\tevent\tdatum\n");
  g_auto(GStrv) lines = NULL;

  cli_run (&r, "dump", "--tsv", demo);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", -1);

      if (strcmp (f[4], "dispatch") == 0 && strcmp (f[5], "ip4-lookup") == 0)
        g_string_append_printf (expected, "%s\n", lines[i]);
    }
  g_assert_cmpuint (expected->len, >, 100);
  cli_run (&r, "search", "--tsv", "--text", "dispatch: IP4-LOOKUP", demo);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, expected->str);
}

/* ---- gen -------------------------------------------------------------------- */

static void
test_gen (void)
{
  g_autofree char *a = tmp_path ("gen-a.cpel");
  g_autofree char *b = tmp_path ("gen-b.cpel");
  g_autofree char *ca = NULL, *cb = NULL;
  gsize la, lb;
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "gen", "--events", "10k", "--tracks", "50", "--seed", "9", a);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  cli_run (&r, "gen", "-n", "1e4", "--tracks", "50", "--seed", "9", b);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (a, &ca, &la, NULL));
  g_assert_true (g_file_get_contents (b, &cb, &lb, NULL));
  g_assert_cmpmem (ca, la, cb, lb);
  g_assert_cmpuint ((guint8) ca[0], ==, 0x01);   /* big-endian by default */

  cli_run (&r, "info", a);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("^Events: +10000$", r.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^Tracks: +50$", r.out, G_REGEX_MULTILINE, 0));

  /* Refuses to replace without --force; the file stays as it was. */
  cli_run (&r, "gen", "--events", "5", "--tracks", "2", a);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "--force"));
  g_clear_pointer (&cb, g_free);
  g_assert_true (g_file_get_contents (a, &cb, &lb, NULL));
  g_assert_cmpmem (ca, la, cb, lb);

  cli_run (&r, "gen", "--events", "5", "--tracks", "2", "--little-endian", "--force", a);
  g_assert_cmpint (r.status, ==, 0);
  g_clear_pointer (&cb, g_free);
  g_assert_true (g_file_get_contents (a, &cb, &lb, NULL));
  g_assert_cmpuint ((guint8) cb[0], ==, 0x81);

  cli_run (&r, "info", demo);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_regex_match_simple ("^Clock: .*2600000000 ticks/s.*1000000000 ticks/s",
                                       r.out, G_REGEX_MULTILINE, 0));
}

/* ---- export ----------------------------------------------------------------- */

static void
png_size (const char *path, guint *width, guint *height)
{
  g_autofree char *data = NULL;
  gsize len;
  const guint8 *p;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 24);
  p = (const guint8 *) data;
  g_assert_cmpmem (p, 8, "\x89PNG\r\n\x1a\n", 8);
  *width = (guint32) p[16] << 24 | p[17] << 16 | p[18] << 8 | p[19];
  *height = (guint32) p[20] << 24 | p[21] << 16 | p[22] << 8 | p[23];
}

static void
test_export (void)
{
  g_autofree char *png = tmp_path ("view.png");
  g_autofree char *svg = tmp_path ("view.svg");
  g_autofree char *pdf = tmp_path ("view.pdf");
  g_autofree char *data = NULL;
  g_auto(CliRun) r = { 0 };
  guint w, h;
  gsize len;

  cli_run (&r, "export", "--png", png, "--width", "640", "--height", "360", demo);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  png_size (png, &w, &h);
  g_assert_cmpuint (w, ==, 640);
  g_assert_cmpuint (h, ==, 360);

  /* No overwrite without --force. */
  cli_run (&r, "export", "--png", png, "--width", "320", "--height", "200", demo);
  g_assert_cmpint (r.status, ==, 1);
  png_size (png, &w, &h);
  g_assert_cmpuint (w, ==, 640);

  /* A range, some tracks, dark, replaced; height fits the rows. */
  cli_run (&r, "export", "--png", png, "--width", "800", "--from", "1ms", "--to", "1.5ms",
           "--tracks", "^vpp_wk_[0-3]$", "--dark", "--force", demo);
  g_assert_cmpint (r.status, ==, 0);
  png_size (png, &w, &h);
  g_assert_cmpuint (w, ==, 800);
  g_assert_cmpuint (h, ==, 28 + 4 * 24);

  cli_run (&r, "export", "--svg", svg, demo);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (svg, &data, &len, NULL));
  g_assert_nonnull (strstr (data, "<svg"));
  g_clear_pointer (&data, g_free);

  cli_run (&r, "export", "--pdf", pdf, "--width", "1000", "--height", "500", demo);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (pdf, &data, &len, NULL));
  g_assert_true (g_str_has_prefix (data, "%PDF"));

  /* Usage errors. */
  cli_run (&r, "export", "--png", png, "--tracks", "(", "--force", demo);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "export", "--png", png, "--tracks", "^nothing-like-this$", "--force", demo);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "export", "--png", png, "--from", "2ms", "--to", "1ms", "--force", demo);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "export", "--png", png, "--width", "0", "--force", demo);
  g_assert_cmpint (r.status, ==, 2);
}

static GBytes *
read_bytes (const char *path)
{
  char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* --color-by and --summary: the viewer's modes (the pixels are checked in
 * tests/render; here, that the options reach the view). */
static void
test_export_modes (void)
{
  static const char *runs[][3] = {
    { NULL, NULL, "default.png" },
    { "--color-by", "code", "code.png" },
    { "--color-by", "track", "track.png" },
    { "--color-by", "none", "none.png" },
    { "--summary", NULL, "summary.png" },
  };
  GBytes *images[G_N_ELEMENTS (runs)] = { NULL };
  g_autofree char *unused = tmp_path ("unused.png");
  g_auto(CliRun) r = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *png = tmp_path (runs[i][2]);

      /* 1 ms of the demo: ticks with labels on several tracks. */
      if (runs[i][0] == NULL)
        cli_run (&r, "export", "--png", png, "--width", "800", "--to", "1ms", "--force", demo);
      else if (runs[i][1] == NULL)
        cli_run (&r, "export", "--png", png, "--width", "800", "--to", "1ms", "--force", runs[i][0], demo);
      else
        cli_run (&r, "export", "--png", png, "--width", "800", "--to", "1ms", "--force", runs[i][0],
                 runs[i][1], demo);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpstr (r.err, ==, "");
      images[i] = read_bytes (png);
    }
  /* By code is the default; every other mode draws something else. */
  g_assert_true (g_bytes_equal (images[0], images[1]));
  for (guint i = 2; i < G_N_ELEMENTS (runs); i++)
    for (guint j = 0; j < i; j++)
      g_assert_false (g_bytes_equal (images[i], images[j]));
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    g_bytes_unref (images[i]);

  cli_run (&r, "export", "--png", unused, "--color-by", "type", demo);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "type"));
  g_assert_false (g_file_test (unused, G_FILE_TEST_EXISTS));
}

/* Spans and thread states as the viewer draws them: on by default (the
 * built-in rules: a Snabb breath, pulls and pushes here), --no-spans and
 * --no-builtin without rules leave the events alone, --rules adds. */
static void
test_export_spans (void)
{
  g_autofree char *snabb = cpel_test_fixture_file ("snabb-timeline/engine-pipeline.timeline");
  g_autofree char *rules = tmp_path ("export.rules");
  static const char *runs[][3] = {
    { NULL, NULL, "spans.png" },
    { "--no-spans", NULL, "no-spans.png" },
    { "--no-builtin", NULL, "no-builtin.png" },
    { "--no-builtin", "--rules", "user.png" },
  };
  GBytes *images[G_N_ELEMENTS (runs)] = { NULL };
  g_autofree char *unused = tmp_path ("unused-spans.png");
  g_auto(CliRun) r = { 0 };

  /* the breath of 133 µs with app.pull and app.push inside */
  g_assert_true (g_file_set_contents (rules,
                                      "span pulled begin event=app.pull end event=app.pulled\n",
                                      -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *png = tmp_path (runs[i][2]);

      if (runs[i][0] == NULL)
        cli_run (&r, "export", "--png", png, "--width", "800", "--from", "362.67ms",
                 "--to", "362.83ms", "--force", snabb);
      else if (runs[i][1] == NULL)
        cli_run (&r, "export", "--png", png, "--width", "800", "--from", "362.67ms",
                 "--to", "362.83ms", "--force", runs[i][0], snabb);
      else
        cli_run (&r, "export", "--png", png, "--width", "800", "--from", "362.67ms",
                 "--to", "362.83ms", "--force", runs[i][0], runs[i][1], rules, snabb);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpstr (r.err, ==, "");
      images[i] = read_bytes (png);
    }
  g_assert_false (g_bytes_equal (images[0], images[1]));
  g_assert_true (g_bytes_equal (images[1], images[2]));
  g_assert_false (g_bytes_equal (images[3], images[1]));
  g_assert_false (g_bytes_equal (images[3], images[0]));
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    g_bytes_unref (images[i]);

  /* usage: --no-spans with rules, rules with --compare; a rules file with
   * an error */
  cli_run (&r, "export", "--png", unused, "--no-spans", "--rules", rules, snabb);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "export", "--png", unused, "--compare", snabb, "--no-builtin", snabb);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_file_set_contents (rules, "span broken begin\n", -1, NULL));
  cli_run (&r, "export", "--png", unused, "--rules", rules, snabb);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "export.rules:1:"));
  g_assert_false (g_file_test (unused, G_FILE_TEST_EXISTS));
}

/* An export that cannot be written leaves nothing behind. */
static void
test_export_failure (void)
{
  g_autofree char *bad = g_build_filename (tmpdir, "missing-dir", "x.png", NULL);
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "export", "--png", bad, demo);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "cpel: "));
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
}

/* ---- top ---------------------------------------------------------------------- */

#if HAVE_PERF
/* The functions of the recorded call chains: every sample's innermost
 * frame counted once (the self column adds up to the samples), none
 * counted in more samples than there are; a range, a limit; a capture
 * without chains is an error. */
static void
test_top (void)
{
  g_autofree char *data = cpel_test_fixture_file ("perf/gzip-callgraph.perf.data");
  g_autofree char *plain = cpel_test_fixture_file ("perf/zstd-mono.perf.data");
  g_auto(CliRun) r = { 0 };
  g_auto(GStrv) lines = NULL;
  guint64 self = 0;

  cli_run (&r, "top", data, "--csv");
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\r\n", -1);
  g_assert_cmpstr (lines[0], ==, "self_percent,total_percent,self,total,symbol,dso");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", 6);
      g_assert_cmpuint (g_strv_length (f), ==, 6);
      guint64 s = g_ascii_strtoull (f[2], NULL, 10), t = g_ascii_strtoull (f[3], NULL, 10);
      g_assert_cmpuint (s, <=, t);
      g_assert_cmpuint (t, <=, 53);
      self += s;
    }
  g_assert_cmpuint (self, ==, 53);
  /* the binaries as recorded (their symbols need this machine's copies) */
  g_assert_nonnull (strstr (r.out, ",/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2\r\n"));
  g_assert_nonnull (strstr (r.out, ",[kernel.kallsyms]\r\n"));

  cli_run (&r, "top", data, "--limit", "2");
  g_assert_cmpint (r.status, ==, 0);
  g_strfreev (lines);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "53 samples with a call chain");
  g_assert_true (g_str_has_prefix (g_strstrip (lines[1]), "Self"));
  g_assert_cmpuint (g_strv_length (lines), ==, 5);   /* 2 rows, the last newline */

  cli_run (&r, "top", data, "--from", "0", "--to", "5ms");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_false (g_str_has_prefix (r.out, "53 "));

  cli_run (&r, "top", plain);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "No event has a call chain"));
  cli_run (&r, "top", data, "--limit", "-1");
  g_assert_cmpint (r.status, ==, 2);
}
#endif

int
main (int argc, char **argv)
{
  g_auto(CliRun) r = { 0 };
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = cli_tmpdir_new ();
  demo = tmp_path ("demo.cpel");
  cli_run (&r, "gen", "--demo", demo);
  g_assert_cmpint (r.status, ==, 0);

  g_test_add_func ("/cli/search/sample", test_search_sample);
  g_test_add_func ("/cli/search/matches-dump", test_search_matches_dump);
  g_test_add_func ("/cli/gen", test_gen);
  g_test_add_func ("/cli/export", test_export);
  g_test_add_func ("/cli/export/failure", test_export_failure);
  g_test_add_func ("/cli/export/modes", test_export_modes);
  g_test_add_func ("/cli/export/spans", test_export_spans);
#if HAVE_PERF
  g_test_add_func ("/cli/top", test_top);
#endif

  status = g_test_run ();
  g_free (demo);
  cli_tmpdir_free (tmpdir);
  return status;
}
