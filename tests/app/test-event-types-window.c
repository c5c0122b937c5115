/* SPDX-License-Identifier: Apache-2.0 */
/* test-event-types-window.c — the Event Types window: rows, toggles, and the window
 * going away with the file */
#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-anomalies-window.h"
#include "cpel-anomaly-list.h"
#include "cpel-application.h"
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
#undef ADD
  return app_test_run (&app);
}
