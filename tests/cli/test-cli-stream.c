/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-stream.c — the CLI reading a time-ordered file without an index
 *
 * `cpel search` on such a file tests each event as the section merge yields
 * it (with a cache of decisions per type, datum and section): the events it
 * prints must be those the indexed search finds, in the same order.  The
 * reference is computed here, in process, with the index.
 */
#include "cpel-core.h"
#include "cli-test-util.h"
#include "cpel-loader.h"

/* "time_ns\ttrack\tcode" of every match, one per line, from the index. */
static char *
expected_matches (const char     *path,
                  CpelSearchMode  mode,
                  const char     *pattern,
                  gboolean        case_sensitive)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(CpelQuery) query = NULL;
  g_autoptr(CpelSearchResult) result = NULL;
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  query = cpel_query_new (file, mode, pattern, case_sensitive, &error);
  g_assert_no_error (error);
  result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint64 i = 0; i < cpel_search_result_get_n (result); i++)
    {
      const CpelEventRef *ref = cpel_search_result_get (result, i);
      CpelEvent ev;

      cpel_file_get_track_event (file, ref->slot, ref->index, &ev);
      g_string_append_printf (out, "%" G_GINT64_FORMAT "\t%u\t%u\n", ev.time_ns, ev.track_id, ev.code);
    }
  return g_string_free (out, FALSE);
}

/* Columns 1, 2 and 4 (time_ns, track, code) of `search --tsv` output. */
static char *
printed_matches (const char *tsv)
{
  g_auto(GStrv) lines = g_strsplit (tsv, "\n", -1);
  GString *out = g_string_new (NULL);

  g_assert_true (g_str_has_prefix (tsv, "time_ns\t"));
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) cols = g_strsplit (lines[i], "\t", 6);

      g_assert_cmpuint (g_strv_length (cols), ==, 6);
      g_string_append_printf (out, "%s\t%s\t%s\n", cols[0], cols[1], cols[3]);
    }
  return g_string_free (out, FALSE);
}

static void
test_search (void)
{
  char *dir = cli_tmpdir_new ();
  g_autofree char *sorted = g_build_filename (dir, "sorted.cpel", NULL);
  g_autofree char *usual = g_build_filename (dir, "usual.cpel", NULL);
  static const struct
  {
    CpelSearchMode mode;
    const char *option;
    const char *pattern;
    gboolean case_sensitive;
  } queries[] = {
    { CPEL_SEARCH_TEXT, "--text", "ip4", FALSE },
    { CPEL_SEARCH_TEXT, "--text", "PACKETS", TRUE },
    { CPEL_SEARCH_TEXT, "--text", "Packets", FALSE },
    { CPEL_SEARCH_REGEX, "--regex", "^call: .*\\+0x", FALSE },
    { CPEL_SEARCH_REGEX, "--regex", "errno -1[0-9]$", FALSE },
    { CPEL_SEARCH_CODE, "--code", "tx-burst", FALSE },
    { CPEL_SEARCH_CODE, "--code", "0x7", FALSE },
  };
  CliRun r = { 0 };

  cli_runv (&r, (const char *[]) { "gen", "--sorted", "--events", "60000", "--tracks", "9",
                                   sorted, NULL });
  g_assert_cmpint (r.status, ==, 0);
  cli_run_clear (&r);
  cli_runv (&r, (const char *[]) { "gen", "--little-endian", "--events", "60000", "--tracks", "9",
                                   usual, NULL });
  g_assert_cmpint (r.status, ==, 0);
  cli_run_clear (&r);

  for (guint f = 0; f < 2; f++)
    for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
      {
        const char *path = f == 0 ? sorted : usual;
        g_autofree char *want = expected_matches (path, queries[q].mode, queries[q].pattern,
                                                  queries[q].case_sensitive);
        g_autofree char *got = NULL;
        g_autofree char *count = NULL;

        cli_runv (&r, (const char *[]) { "search", path, queries[q].option, queries[q].pattern,
                                         queries[q].case_sensitive ? "-s" : "-i", "--tsv", NULL });
        g_assert_cmpint (r.status, ==, 0);
        got = printed_matches (r.out);
        g_assert_cmpstr (got, ==, want);
        cli_run_clear (&r);

        cli_runv (&r, (const char *[]) { "search", path, queries[q].option, queries[q].pattern,
                                         queries[q].case_sensitive ? "-s" : "-i", "--count", NULL });
        g_assert_cmpint (r.status, ==, 0);
        count = g_strdup_printf ("%u\n", count_lines (want));
        g_assert_cmpstr (r.out, ==, count);
        cli_run_clear (&r);
      }
  cli_tmpdir_free (dir);
}

/* `cpel diff` (sorted files streamed, the usual ones indexed) against the
 * diff computed here with both files indexed, byte for byte. */
static void
test_diff (void)
{
  char *dir = cli_tmpdir_new ();
  g_autofree char *sorted_a = g_build_filename (dir, "sorted-a.cpel", NULL);
  g_autofree char *sorted_b = g_build_filename (dir, "sorted-b.cpel", NULL);
  g_autofree char *usual = g_build_filename (dir, "usual.cpel", NULL);
  const char *pairs[][2] = {
    { sorted_a, sorted_b }, { sorted_b, sorted_a }, { sorted_a, usual }, { usual, sorted_b },
  };
  static const struct
  {
    const char *from, *to, *by;
    gboolean csv;
  } runs[] = {
    { NULL, NULL, "events", TRUE },
    { NULL, NULL, "tracks", TRUE },
    { NULL, NULL, "events", FALSE },
    { NULL, NULL, "tracks", FALSE },
    { "1ms", NULL, "events", TRUE },
    { "0.5ms", "2ms", "events", FALSE },
    { NULL, "1500us", "tracks", FALSE },
  };
  CliRun r = { 0 };

  cli_runv (&r, (const char *[]) { "gen", "--sorted", "--events", "40000", "--tracks", "9",
                                   "--seed", "3", sorted_a, NULL });
  g_assert_cmpint (r.status, ==, 0);
  cli_run_clear (&r);
  cli_runv (&r, (const char *[]) { "gen", "--sorted", "--little-endian", "--events", "50000",
                                   "--tracks", "7", "--seed", "4", sorted_b, NULL });
  g_assert_cmpint (r.status, ==, 0);
  cli_run_clear (&r);
  cli_runv (&r, (const char *[]) { "gen", "--events", "45000", "--tracks", "8", usual, NULL });
  g_assert_cmpint (r.status, ==, 0);
  cli_run_clear (&r);

  for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
    for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(CpelFile) a = cpel_file_new_for_path (pairs[p][0], NULL, NULL, NULL, NULL, &error);
        g_autoptr(CpelFile) b = cpel_file_new_for_path (pairs[p][1], NULL, NULL, NULL, NULL, &error);
        g_autoptr(CpelDiff) diff = NULL;
        g_autofree char *want = NULL;
        g_autofree char *name_a = g_path_get_basename (pairs[p][0]);
        g_autofree char *name_b = g_path_get_basename (pairs[p][1]);
        CpelDiffOptions options = { 0, G_MAXINT64, FALSE, NULL, NULL };
        CpelDiffBy by = g_str_equal (runs[i].by, "tracks") ? CPEL_DIFF_BY_TRACKS : CPEL_DIFF_BY_EVENTS;
        const char *argv[12];
        guint n = 0;

        g_assert_no_error (error);
        if (runs[i].from != NULL)
          g_assert_true (cpel_time_parse (runs[i].from, &options.from));
        if (runs[i].to != NULL)
          g_assert_true (cpel_time_parse (runs[i].to, &options.to));
        diff = cpel_diff_compute (a, b, &options, NULL, &error);
        g_assert_no_error (error);
        want = runs[i].csv ? cpel_diff_to_csv (diff, by) : cpel_diff_to_text (diff, by, name_a, name_b);

        argv[n++] = "diff";
        argv[n++] = "--no-cache";
        argv[n++] = "--by";
        argv[n++] = runs[i].by;
        if (runs[i].csv)
          argv[n++] = "--csv";
        if (runs[i].from != NULL)
          {
            argv[n++] = "--from";
            argv[n++] = runs[i].from;
          }
        if (runs[i].to != NULL)
          {
            argv[n++] = "--to";
            argv[n++] = runs[i].to;
          }
        argv[n++] = pairs[p][0];
        argv[n++] = pairs[p][1];
        argv[n] = NULL;
        cli_runv (&r, argv);
        g_assert_cmpint (r.status, ==, 0);
        g_assert_cmpstr (r.out, ==, want);
        cli_run_clear (&r);
      }
  cli_tmpdir_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/stream/search", test_search);
  g_test_add_func ("/cli/stream/diff", test_diff);
  return g_test_run ();
}
