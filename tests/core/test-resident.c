/* SPDX-License-Identifier: Apache-2.0 */
/* test-resident.c — a pass over every record (the index build, a search
 * or a span derivation) leaves the records' pages out of the process
 * (cpel_file_drop_pages): the peak stays at the index, 12 bytes per event,
 * not 32. */
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

static void
test_resident (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-resident-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelQuery) query = NULL;
  g_autoptr(CpelSearchResult) result = NULL;
  CpelGenOptions opt = { 0, };
  gint64 before, records_kb;

  if (cpel_test_status_kb ("RssFile:") < 0)
    {
      g_test_skip ("no RssFile in /proc/self/status");
      return;
    }
  g_assert_no_error (error);
  path = g_build_filename (dir, "big.cpel", NULL);
  opt.n_events = 1000000;   /* 20 MB of records */
  opt.n_tracks = 64;
  opt.seed = 1;
  g_assert_true (cpel_gen_write (path, &opt, &error));
  g_assert_no_error (error);
  records_kb = (gint64) (opt.n_events * 20 / 1024);

  before = cpel_test_status_kb ("RssFile:");
  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, opt.n_events);
  /* All records were read; fewer than a tenth of their pages stay. */
  g_assert_cmpint (cpel_test_status_kb ("RssFile:") - before, <, records_kb / 10);

  query = cpel_query_new (file, CPEL_SEARCH_TEXT, "no such text anywhere", FALSE, &error);
  g_assert_no_error (error);
  result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cpel_test_status_kb ("RssFile:") - before, <, records_kb / 10);

  /* Deriving spans reads every record in file order (each track's events
   * are in file order), giving the pages back behind it. */
  {
    g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
    g_autoptr(CpelSpans) spans = cpel_spans_derive (file, rules, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_nonnull (spans);
    g_assert_cmpint (cpel_test_status_kb ("RssFile:") - before, <, records_kb / 10);
  }

  /* The records read again after that are the same. */
  {
    g_autoptr(GString) label = g_string_new (NULL);
    CpelEvent ev;

    cpel_file_get_track_event (file, 0, 0, &ev);
    cpel_file_append_label (file, &ev, label);
    g_assert_cmpuint (label->len, >, 0);
  }

  g_clear_object (&file);

  /* The first pass alone (the streaming CLI's deferred build) gives them
   * back too, whatever the memory: a dump streams with little resident. */
  {
    CpelLoadOptions deferred = { .defer_index = TRUE };

    before = cpel_test_status_kb ("RssFile:");
    file = cpel_file_new_for_path (path, &deferred, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (cpel_test_status_kb ("RssFile:") - before, <, records_kb / 10);
    g_clear_object (&file);
  }
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/file/resident", test_resident);
  return g_test_run ();
}
