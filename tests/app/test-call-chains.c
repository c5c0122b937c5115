/* SPDX-License-Identifier: Apache-2.0 */
/* test-call-chains.c — perf record -g call chains in the viewer: the
 * details pane's Call Chain group (a sample's frames as the core reads
 * them: each binary, then the symbols of its consecutive frames; none for
 * a selection without a chain) and the Statistics window's Functions page
 * (the core's summary of the range: its text, rows, CSV) */
#include "app-test-util.h"

#include <string.h>

#include "cpel-application.h"
#include "cpel-details.h"
#include "cpel-session.h"
#include "cpel-stats-window.h"
#include "cpel-table.h"
#include "cpel-test-util.h"
#include "cpel-timeline.h"
#include "cpel-window.h"
#include "cpel-window-test.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

/* The recorded capture with call chains (perf.data, found by content). */
static void
write_callgraph (const char *path)
{
  g_autofree char *src = cpel_test_fixture_file ("perf/gzip-callgraph.perf.data");
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (src, &data, &len, NULL));
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-chain", write_callgraph, 1100, 700, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

/* To look at the pane: CPEL_TEST_SHOT_DIR=dir saves the screen (under
 * xvfb) as dir/NAME-light.png and dir/NAME-dark.png. */
static void
shoot (GtkWidget *widget, const char *name)
{
  const char *dir = g_getenv ("CPEL_TEST_SHOT_DIR");
  AdwStyleManager *style = adw_style_manager_get_default ();

  if (dir == NULL)
    return;
  for (guint dark = 0; dark < 2; dark++)
    {
      g_autofree char *file = g_strdup_printf ("%s-%s.png", name, dark ? "dark" : "light");
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autofree char *argv0 = g_find_program_in_path ("import");
      const char *argv[] = { argv0, "-window", "root", path, NULL };

      adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                      : ADW_COLOR_SCHEME_FORCE_LIGHT);
      app_test_drain ();
      app_test_wait_frames (widget, 40);
      app_test_settle ();
      if (argv0 != NULL)
        g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL,
                      NULL);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

static void
test_call_chain (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelSession *session = cpel_timeline_get_session (timeline);
  CpelDetails *details = cpel_window_get_details (f->window);
  CpelFile *file = cpel_window_get_file (f->window);
  guint best_slot = 0;
  guint64 best_index = 0;
  guint best_n = 0;

  g_assert_nonnull (file);
  g_assert_true (cpel_file_has_call_chains (file));
  /* the longest chain among each track's first events (kernel and user
   * frames) */
  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    for (guint64 i = 0; i < MIN (cpel_file_get_track_n_events (file, s), 4); i++)
      {
        CpelEvent ev;

        cpel_file_get_track_event (file, s, i, &ev);
        guint n = cpel_file_get_event_chain (file, ev.file_index, NULL, 0);
        if (n > best_n)
          {
            best_n = n;
            best_slot = s;
            best_index = i;
          }
      }
  g_assert_cmpuint (best_n, >, 5);

  g_object_set (f->window, "show-details", TRUE, NULL);
  app_test_wait_until (gtk_widget_get_mapped (GTK_WIDGET (details)), 30);
  cpel_session_select (session, best_slot, best_index, TRUE);

  CpelEvent ev;
  cpel_file_get_track_event (file, best_slot, best_index, &ev);
  g_autofree CpelChainFrame *frames = g_new0 (CpelChainFrame, best_n);
  cpel_file_get_event_chain (file, ev.file_index, frames, best_n);
  g_autoptr(GString) want = g_string_new (NULL);
  for (guint i = 0; i < best_n; i++)
    {
      const char *dso = frames[i].dso ? frames[i].dso : "[unknown]";

      /* each binary once for its consecutive frames, then their symbols */
      if (i == 0 || g_strcmp0 (frames[i - 1].dso, frames[i].dso) != 0)
        g_string_append_printf (want, "%s%s", i ? "\n" : "", dso);
      g_string_append_printf (want, "\n\u2003%s", frames[i].symbol ? frames[i].symbol
                                                                   : "[unknown]");
      if (frames[i].symbol == NULL)
        g_string_append_printf (want, " %" G_GINT64_MODIFIER "x", frames[i].ip);
    }
  g_assert_cmpstr (cpel_details_get_value (details, "call-chain"), ==, want->str);
  g_assert_nonnull (strstr (want->str, "[kernel.kallsyms]"));
  g_assert_nonnull (strstr (want->str, "/usr/lib/x86_64-linux-gnu/"));
  shoot (GTK_WIDGET (f->window), "details-call-chain");

  cpel_session_unselect (session);
  g_assert_cmpstr (cpel_details_get_value (details, "call-chain"), ==, "");
  g_object_set (f->window, "show-details", FALSE, NULL);
}

static void
test_functions (Fixture *f, gconstpointer data)
{
  CpelSession *session = cpel_timeline_get_session (cpel_window_get_timeline (f->window));
  CpelFile *file = cpel_window_get_file (f->window);
  CpelStatsOptions scope = { 0 };
  g_autoptr(GError) error = NULL;

  app_test_activate_action (GTK_WIDGET (f->window), "statistics", NULL);
  CpelStatsWindow *stats = CPEL_STATS_WINDOW (cpel_window_get_statistics (f->window));
  g_assert_nonnull (stats);
  app_test_wait_until (!cpel_stats_window_is_busy (stats), 30);
  g_assert_false (cpel_stats_window_is_busy (stats));

  /* the core's summary of the same range and tracks */
  cpel_session_get_stats_scope (session, &scope);
  g_autoptr(CpelTop) want = cpel_top_compute_scope (file, &scope, NULL, &error);
  g_assert_no_error (error);
  CpelTop *top = cpel_stats_window_get_top (stats);
  g_assert_nonnull (top);
  g_assert_cmpuint (cpel_top_get_n_samples (top), ==, cpel_top_get_n_samples (want));
  g_assert_cmpuint (cpel_top_get_n_samples (top), >, 0);
  g_autofree char *want_text = cpel_top_to_text (want, 0);
  g_autofree char *got_text = cpel_top_to_text (top, 0);
  g_assert_cmpstr (got_text, ==, want_text);

  /* a row per function, the page shown; Copy gives `cpel top`'s text */
  GListModel *rows = cpel_stats_window_get_function_rows (stats);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, cpel_top_get_n_entries (want));
  guint64 self = 0;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(CpelTableRow) row = g_list_model_get_item (rows, i);
      const CpelTopEntry *e = cpel_top_get_entry (want, (guint) cpel_table_row_get_id (row));

      g_assert_cmpstr (cpel_table_row_get_text (row, 0), ==, cpel_top_entry_symbol (e));
      g_assert_cmpstr (cpel_table_row_get_text (row, 1), ==, cpel_top_entry_dso (e));
      self += (guint64) cpel_table_row_get_key (row, 4);
    }
  g_assert_cmpuint (self, ==, cpel_top_get_n_samples (want));
  AdwViewStack *pages = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                       CPEL_TYPE_STATS_WINDOW,
                                                                       "view_stack"));
  adw_view_stack_set_visible_child_name (pages, "functions");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (pages), ==, "functions");
  g_autofree char *copied = cpel_stats_window_get_text (stats);
  g_assert_cmpstr (copied, ==, want_text);
  shoot (GTK_WIDGET (stats), "stats-functions");

  /* activating a row (the last one of a function in several samples)
   * selects the earliest sample of the range whose chain holds it */
  {
    guint last = g_list_model_get_n_items (rows);
    const CpelTopEntry *e = NULL;

    while (e == NULL || e->total < 2)
      {
        g_autoptr(CpelTableRow) row = NULL;

        g_assert_cmpuint (last, >, 0);
        row = g_list_model_get_item (rows, --last);
        e = cpel_top_get_entry (want, (guint) cpel_table_row_get_id (row));
      }
    guint n_slots = scope.slots != NULL ? scope.n_slots : cpel_file_get_n_tracks (file);
    gint64 earliest = G_MAXINT64;
    guint slot;
    guint64 index;
    CpelEvent ev;
    const CpelRange *range;

    for (guint s = 0; s < n_slots; s++)
      {
        guint sl = scope.slots != NULL ? scope.slots[s] : s;
        guint64 hi = cpel_file_track_lower_bound (file, sl, scope.t1);

        for (guint64 i = cpel_file_track_lower_bound (file, sl, scope.t0); i < hi; i++)
          {
            CpelChainFrame frames[256];
            guint n;

            cpel_file_get_track_event (file, sl, i, &ev);
            n = MIN (cpel_file_get_event_chain (file, ev.file_index, frames, 256), 256);
            for (guint k = 0; k < n; k++)
              if (g_strcmp0 (frames[k].symbol, e->symbol) == 0
                  && g_strcmp0 (frames[k].dso, e->dso) == 0)
                {
                  earliest = MIN (earliest, ev.time_ns);
                  break;
                }
          }
      }
    g_assert_cmpint (earliest, <, G_MAXINT64);
    g_test_message ("function %s in %" G_GUINT64_FORMAT " samples: first at %"
                    G_GINT64_FORMAT " ns", cpel_top_entry_symbol (e), e->total, earliest);
    cpel_session_unselect (session);
    cpel_stats_window_activate_function_row (stats, last);
    g_assert_true (cpel_session_get_selection (session, &slot, &index));
    cpel_file_get_track_event (file, slot, index, &ev);
    g_assert_cmpint (ev.time_ns, ==, earliest);
    range = cpel_session_get_range (session);
    g_assert_cmpint (range->t0, <=, earliest);
    g_assert_cmpint (earliest, <, range->t1);
  }
  gtk_window_destroy (GTK_WINDOW (stats));
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/details");

  app = app_test_new_application ();
  g_test_add ("/app/details/call-chain", Fixture, NULL, fixture_setup, test_call_chain,
              fixture_teardown);
  g_test_add ("/app/stats-window/functions", Fixture, NULL, fixture_setup, test_functions,
              fixture_teardown);
  return app_test_run (&app);
}
