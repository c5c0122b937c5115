/* SPDX-License-Identifier: Apache-2.0 */
/* test-saved-views-window.c — the Saved Views window: its rows, and a row's activation
 * showing the view */
#include "app-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cpel-application.h"
#include "cpel-print.h"
#include "cpel-saved-view-row.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-saved-views-window", app_test_write_four_tracks,
                          1000, 640, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

#define SKIP_WITHOUT_DISPLAY() \
  G_STMT_START { if (app == NULL) { app_test_skip_no_display (); return; } } G_STMT_END
#define SKIP_WITHOUT_INPUT() \
  G_STMT_START { if (!app_test_can_send_input ()) { g_test_skip ("xdotool or X11 missing"); return; } } G_STMT_END

/* The timeline's rows as track ids, "7,12". */
static char *
row_ids (CpelWindow *window)
{
  const CpelView *view = cpel_timeline_get_view (cpel_window_get_timeline (window));
  CpelFile *file = cpel_window_get_file (window);
  GString *s = g_string_new (NULL);
  guint n = cpel_view_get_n_rows (view);

  for (guint r = 0; r < n; r++)
    g_string_append_printf (s, "%s%u", r > 0 ? "," : "",
                            cpel_file_get_track_id (file, cpel_view_get_row_slot (view, r)));
  return g_string_free (s, FALSE);
}

/* Select the first event of track `id` matching code (or datum). */
static void
select_first (CpelWindow *window, guint32 id, gboolean by_code, guint32 value)
{
  CpelFile *file = cpel_window_get_file (window);
  guint slot;

  g_assert_true (cpel_file_lookup_track (file, id, &slot));
  for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
    if ((by_code ? cpel_file_get_track_event_code (file, slot, i)
                 : cpel_file_get_track_event_datum (file, slot, i)) == value)
      {
        cpel_session_select (cpel_timeline_get_session (cpel_window_get_timeline (window)),
                             slot, i, FALSE);
        return;
      }
  g_assert_not_reached ();
}

static guint
slot_of (CpelWindow *window, guint32 id)
{
  guint slot;

  g_assert_true (cpel_file_lookup_track (cpel_window_get_file (window), id, &slot));
  return slot;
}

static void
activate (CpelWindow *window, const char *action)
{
  g_assert_true (app_test_action_enabled (GTK_WIDGET (window), action));
  app_test_activate_action (GTK_WIDGET (window), action, NULL);
}

static void
assert_shows (CpelWindow *window, gint64 t0, gint64 t1, const char *ids, gboolean recv_hidden,
              guint32 sel_track)
{
  CpelTimeline *timeline = cpel_window_get_timeline (window);
  CpelFile *file = cpel_window_get_file (window);
  const guint8 *hidden = cpel_session_get_hidden_types (cpel_timeline_get_session (timeline));
  g_autofree char *rows = row_ids (window);
  gint64 a, b;
  guint type, slot;

  cpel_timeline_get_range (timeline, &a, &b);
  g_assert_cmpint (a, ==, t0);
  g_assert_cmpint (b, ==, t1);
  g_assert_cmpstr (rows, ==, ids);
  g_assert_true (cpel_file_lookup_type (file, CODE_RECV, &type));
  g_assert_cmpint (hidden != NULL && hidden[type], ==, recv_hidden);
  if (sel_track == G_MAXUINT32)
    g_assert_false (cpel_session_get_selection (cpel_timeline_get_session (timeline), NULL, NULL));
  else
    {
      g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                                 &slot, NULL));
      g_assert_cmpuint (cpel_file_get_track_id (file, slot), ==, sel_track);
    }
}

/* View A: [1000, 9000), tracks 12 and 7, recv hidden, a send of 7 selected.
 * View B: [20000, 30000), every track, nothing hidden or selected. */
static void
make_views (CpelWindow *window)
{
  CpelTimeline *timeline = cpel_window_get_timeline (window);
  CpelTrackOrder *order = cpel_session_get_track_order (cpel_timeline_get_session (timeline));
  CpelFile *file = cpel_window_get_file (window);
  g_autofree guint8 *hidden = g_malloc0 (cpel_file_get_n_types (file));
  g_autoptr(GError) error = NULL;
  guint type;
  const guint rows[] = { slot_of (window, 12), slot_of (window, 7) };

  cpel_timeline_set_range (timeline, 1000, 9000, FALSE);
  cpel_track_order_set_rows (order, rows, 2);
  g_assert_true (cpel_file_lookup_type (file, CODE_RECV, &type));
  hidden[type] = 1;
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
  select_first (window, 7, TRUE, CODE_SEND);
  g_assert_true (cpel_window_save_view (window, "A", &error));
  g_assert_no_error (error);

  cpel_timeline_set_range (timeline, 20000, 30000, FALSE);
  cpel_track_order_reset (order);
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), NULL);
  cpel_session_unselect (cpel_timeline_get_session (timeline));
  g_assert_true (cpel_window_save_view (window, "B", &error));
  g_assert_no_error (error);
}

/* The Saved Views window lists the views; activating a row shows it. */
static void
test_views_window (Fixture *f, gconstpointer data)
{
  GtkWindow *list = NULL;
  GtkWidget *row;
  GList *toplevels;

  SKIP_WITHOUT_DISPLAY ();
  make_views (f->window);
  activate (f->window, "saved-views");
  app_test_wait_until (app_test_find_toplevel ("Saved Views", NULL) != NULL, 30);
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (gtk_window_get_transient_for (l->data) == GTK_WINDOW (f->window)
        && g_strcmp0 (gtk_window_get_title (l->data), "Saved Views") == 0)
      list = l->data;
  g_list_free (toplevels);
  g_assert_nonnull (list);

  /* Two rows, in order; the first one's activation shows view A. */
  {
    GtkWidget *box = app_test_find_descendant (GTK_WIDGET (list), GTK_TYPE_LIST_BOX);

    g_assert_true (GTK_IS_LIST_BOX (box));
    row = GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (box), 0));
    g_assert_nonnull (row);
    g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "A");
    g_assert_nonnull (gtk_list_box_get_row_at_index (GTK_LIST_BOX (box), 1));
    g_assert_null (gtk_list_box_get_row_at_index (GTK_LIST_BOX (box), 2));
    g_assert_true (CPEL_IS_SAVED_VIEW_ROW (row));
    g_assert_true (g_str_has_suffix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                                     " · 2 tracks · 1 event type hidden"));
    g_signal_emit_by_name (row, "activate");
    app_test_wait_drawn (GTK_WIDGET (f->window));
    assert_shows (f->window, 1000, 9000, "12,7", TRUE, 7);

    /* The rows follow: A is the current view now. */
    row = GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (box), 0));
    g_assert_true (cpel_saved_view_row_get_current (CPEL_SAVED_VIEW_ROW (row)));
    row = GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (box), 1));
    g_assert_false (cpel_saved_view_row_get_current (CPEL_SAVED_VIEW_ROW (row)));
    g_assert_cmpstr (cpel_saved_view_row_get_view_name (CPEL_SAVED_VIEW_ROW (row)), ==, "B");

    /* Renaming B: not to a name in use (the entry says why), then to C. */
    {
      GtkWidget *entry = app_test_find_descendant (row, GTK_TYPE_ENTRY);
      CpelViews *views = cpel_window_get_views (f->window);

      g_assert_nonnull (entry);
      g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "B");
      gtk_editable_set_text (GTK_EDITABLE (entry), "A");
      g_signal_emit_by_name (entry, "activate");
      g_assert_true (gtk_widget_has_css_class (entry, "error"));
      g_assert_true (cpel_views_lookup (views, "B", NULL));
      gtk_editable_set_text (GTK_EDITABLE (entry), " C ");
      g_assert_false (gtk_widget_has_css_class (entry, "error"));
      g_signal_emit_by_name (entry, "activate");
      g_assert_false (cpel_views_lookup (views, "B", NULL));
      g_assert_true (cpel_views_lookup (views, "C", NULL));
      row = GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (box), 1));
      g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "C");
    }
  }
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/saved-views-window");

  app = app_test_new_application ();

#define ADD(path, func) \
  g_test_add ("/app/saved-views-window/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("list", test_views_window);
#undef ADD
  return app_test_run (&app);
}
