/* SPDX-License-Identifier: Apache-2.0 */
/* test-event-types-window.c — the Event Types window: rows, toggles, and the window
 * going away with the file */
#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-anomalies-window.h"
#include "cpel-anomaly-list.h"
#include "cpel-application.h"
#include "cpel-details.h"
#include "cpel-cut-dialog.h"
#include "cpel-event-type-row.h"
#include "cpel-event-types-window.h"
#include "cpel-print.h"
#include "cpel-stats-window.h"
#include "cpel-table.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-tools", (AppTestWriteFunc) data, 1100, 700, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

static void
on_finalized (gpointer flag, GObject *where_the_object_was)
{
  *(gboolean *) flag = TRUE;
}

/* Destroys `window` and waits until it is finalized (nothing keeps it). */
static void
destroy_and_await_finalize (GtkWindow *window)
{
  gboolean gone = FALSE;

  g_object_weak_ref (G_OBJECT (window), on_finalized, &gone);
  gtk_window_destroy (window);
  app_test_await_flag (&gone, 10000);
}

static void
collect_rows (GtkWidget *widget, GPtrArray *rows)
{
  if (CPEL_IS_EVENT_TYPE_ROW (widget))
    g_ptr_array_add (rows, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_rows (c, rows);
}

static GtkWidget *
find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* One row per type with its check box: unchecking hides the type on the
 * timeline at once, Hide All / Show All set every one, and the rows follow
 * hidden types set elsewhere (a saved view). */
static void
test_event_types (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelFile *file = cpel_window_get_file (f->window);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  CpelEventTypesWindow *types;
  CpelEventTypeRow *recv = NULL;
  const guint8 *hidden;
  guint n_types = cpel_file_get_n_types (file);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.event-types", NULL));
  types = CPEL_EVENT_TYPES_WINDOW (app_test_find_toplevel ("Event Types", NULL));
  g_assert_nonnull (types);
  g_assert_true (cpel_event_types_window_get_session (types)
                 == cpel_timeline_get_session (timeline));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (types)) == GTK_WINDOW (f->window));

  collect_rows (GTK_WIDGET (types), rows);
  g_assert_cmpuint (rows->len, ==, n_types);
  for (guint i = 0; i < rows->len; i++)
    {
      CpelEventTypeRow *row = g_ptr_array_index (rows, i);
      guint type = cpel_event_type_row_get_type_index (row);

      g_assert_cmpuint (type, ==, i);
      g_assert_true (cpel_event_type_row_get_shown (row));
      g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==,
                       cpel_file_get_type_name (file, type));
      if (cpel_file_get_type_code (file, type) == CODE_RECV)
        recv = row;
    }
  g_assert_nonnull (recv);
  g_assert_null (cpel_session_get_hidden_types (cpel_timeline_get_session (timeline)));

  /* Unchecked: hidden at once. */
  cpel_event_type_row_set_shown (recv, FALSE);
  hidden = cpel_session_get_hidden_types (cpel_timeline_get_session (timeline));
  g_assert_nonnull (hidden);
  for (guint type = 0; type < n_types; type++)
    g_assert_cmpint (hidden[type], ==, type == cpel_event_type_row_get_type_index (recv));

  /* Set elsewhere: the rows follow. */
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), NULL);
  g_assert_true (cpel_event_type_row_get_shown (recv));

  /* Hide All, Show All. */
  g_signal_emit_by_name (find_button (GTK_WIDGET (types), "_Hide All"), "clicked");
  hidden = cpel_session_get_hidden_types (cpel_timeline_get_session (timeline));
  g_assert_nonnull (hidden);
  for (guint i = 0; i < rows->len; i++)
    {
      g_assert_false (cpel_event_type_row_get_shown (g_ptr_array_index (rows, i)));
      g_assert_cmpint (hidden[i], ==, 1);
    }
  g_signal_emit_by_name (find_button (GTK_WIDGET (types), "_Show All"), "clicked");
  for (guint i = 0; i < rows->len; i++)
    g_assert_true (cpel_event_type_row_get_shown (g_ptr_array_index (rows, i)));
  hidden = cpel_session_get_hidden_types (cpel_timeline_get_session (timeline));
  for (guint type = 0; hidden != NULL && type < n_types; type++)
    g_assert_cmpint (hidden[type], ==, 0);

  /* Opened again: the same window. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.event-types", NULL));
  g_assert_true (CPEL_EVENT_TYPES_WINDOW (app_test_find_toplevel ("Event Types", NULL)) == types);
  destroy_and_await_finalize (GTK_WINDOW (types));
}

#if HAVE_PERF
/* The capture: perf's sched_switch and sched_wakeup tracepoints. */
static void
write_perf_sched (const char *path)
{
  g_autofree char *fixture = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (fixture, &data, &len, NULL));
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
}

static CpelEventTypeRow *
row_named (CpelEventTypesWindow *types,
           const char           *name)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect_rows (GTK_WIDGET (types), rows);
  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (rows, i)), name) == 0)
      return g_ptr_array_index (rows, i);
  return NULL;
}

static gboolean
type_named (CpelFile   *file,
            const char *name,
            guint      *type)
{
  for (guint i = 0; i < cpel_file_get_n_types (file); i++)
    if (g_strcmp0 (cpel_file_get_type_name (file, i), name) == 0)
      {
        *type = i;
        return TRUE;
      }
  return FALSE;
}

static GtkWidget *
find_check (GtkWidget  *widget,
            const char *name)
{
  if (GTK_IS_CHECK_BUTTON (widget) && g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_check (c, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Selects the first sched_switch and returns the details' headline. */
static const char *
switch_headline (CpelWindow *window)
{
  CpelSession *session = cpel_timeline_get_session (cpel_window_get_timeline (window));
  CpelFile *file = cpel_window_get_file (window);

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
      {
        CpelEvent ev;

        cpel_file_get_track_event (file, slot, i, &ev);
        if (g_strcmp0 (cpel_file_get_type_name (file, ev.type), "sched:sched_switch") == 0)
          {
            cpel_session_select (session, slot, i, TRUE);
            return cpel_details_get_value (cpel_window_get_details (window), "headline");
          }
      }
  g_assert_not_reached ();
}

/* A type's label format: the default shown in its row and used by the
 * timeline and the details; one chosen (typed, or a field checked) applies
 * at once, is saved with the capture and is there again when the capture
 * is opened again; Reset to Default goes back. */
static void
test_label_format (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelSession *session = cpel_timeline_get_session (timeline);
  CpelFile *file = cpel_window_get_file (f->window);
  g_autofree char *sidecar = g_strconcat (f->path, CPEL_VIEWS_SUFFIX, NULL);
  CpelEventTypesWindow *types;
  CpelEventTypeRow *row;
  GtkWidget *button, *check;
  CpelWindow *window;
  guint type = 0;

  g_assert_true (type_named (file, "sched:sched_switch", &type));
  g_assert_true (cpel_timeline_get_view (timeline)->labels == cpel_session_get_labels (session));
  g_assert_cmpstr (switch_headline (f->window), ==, "perf [18880] → migration/0 [18]");
  g_assert_cmpstr (cpel_details_get_value (cpel_window_get_details (f->window), "label"), ==,
                   "sched:sched_switch: prev_comm=perf prev_pid=18880 prev_prio=120 "
                   "prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.event-types", NULL));
  types = CPEL_EVENT_TYPES_WINDOW (app_test_find_toplevel ("Event Types", NULL));
  g_assert_nonnull (types);
  row = row_named (types, "sched:sched_switch");
  g_assert_nonnull (row);
  g_assert_cmpstr (cpel_event_type_row_get_format (row), ==,
                   "{prev_comm} [{prev_pid}] → {next_comm} [{next_pid}]");

  /* typed: the session's labels, the details, the views file */
  cpel_event_type_row_choose_format (row, "{next_comm}");
  g_assert_true (cpel_labels_is_user_format (cpel_session_get_labels (session), type));
  g_assert_cmpstr (cpel_labels_get_format (cpel_session_get_labels (session), type), ==,
                   "{next_comm}");
  g_assert_true (cpel_timeline_get_view (timeline)->labels == cpel_session_get_labels (session));
  g_assert_cmpstr (switch_headline (f->window), ==, "migration/0");
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_IS_REGULAR));

  /* a field checked is added (the checks are made when the popover shows) */
  button = app_test_find_descendant (GTK_WIDGET (row), GTK_TYPE_MENU_BUTTON);
  g_assert_nonnull (button);
  g_assert_null (find_check (GTK_WIDGET (row), "next_pid"));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  check = find_check (GTK_WIDGET (row), "next_pid");
  g_assert_nonnull (check);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  g_assert_cmpstr (cpel_event_type_row_get_format (row), ==, "{next_comm} {next_pid}");
  g_assert_cmpstr (switch_headline (f->window), ==, "migration/0 18");
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
  destroy_and_await_finalize (GTK_WINDOW (types));

  /* opened again, in another window: the choice is there */
  window = cpel_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  app_test_open_and_wait (window, f->path);
  session = cpel_timeline_get_session (cpel_window_get_timeline (window));
  g_assert_cmpstr (cpel_labels_get_format (cpel_session_get_labels (session), type), ==,
                   "{next_comm} {next_pid}");
  g_assert_cmpstr (switch_headline (window), ==, "migration/0 18");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.event-types", NULL));
  types = CPEL_EVENT_TYPES_WINDOW (app_test_find_toplevel ("Event Types", NULL));
  row = row_named (types, "sched:sched_switch");
  g_assert_cmpstr (cpel_event_type_row_get_format (row), ==, "{next_comm} {next_pid}");

  /* Reset to Default: the default again, nothing left to keep */
  cpel_event_type_row_choose_format (row, NULL);
  g_assert_false (cpel_labels_is_user_format (cpel_session_get_labels (session), type));
  g_assert_cmpstr (cpel_event_type_row_get_format (row), ==,
                   "{prev_comm} [{prev_pid}] → {next_comm} [{next_pid}]");
  g_assert_cmpstr (switch_headline (window), ==, "perf [18880] → migration/0 [18]");
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  destroy_and_await_finalize (GTK_WINDOW (types));
  gtk_window_destroy (GTK_WINDOW (window));
}
#endif

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/event-types-window");

  app = app_test_new_application ();

#define ADD(path, func, write) \
  g_test_add ("/app/event-types-window/" path, Fixture, (gconstpointer) (write), fixture_setup, func, \
              fixture_teardown)
  ADD ("rows", test_event_types, app_test_write_regular);
#if HAVE_PERF
  ADD ("label-format", test_label_format, write_perf_sched);
#endif
#undef ADD
  return app_test_run (&app);
}
