/* SPDX-License-Identifier: Apache-2.0 */
/* test-cut-dialog.c — the progress dialog of Save Range As */
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
on_response (AdwMessageDialog *dialog, const char *response, char **out)
{
  g_free (*out);
  *out = g_strdup (response);
}

/* It names the file written, its bar follows the progress, and closing it
 * (Escape, the close button) answers "cancel". */
static void
test_cut_dialog (Fixture *f, gconstpointer data)
{
  g_autoptr(GFile) target = g_file_new_for_path ("/tmp/some where/range.cpel");
  g_autofree char *response = NULL;
  CpelCutDialog *dialog = cpel_cut_dialog_new (f->window, target);
  GtkWidget *bar;

  g_assert_true (cpel_cut_dialog_get_target (dialog) == target);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (f->window));
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Saving Range…");
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==, "Writing “range.cpel”");
  g_assert_cmpstr (adw_message_dialog_get_close_response (ADW_MESSAGE_DIALOG (dialog)), ==, "cancel");
  g_assert_true (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "cancel"));

  bar = app_test_find_descendant (adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (dialog)),
                      GTK_TYPE_PROGRESS_BAR);
  g_assert_nonnull (bar);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)), ==, 0.0);
  cpel_cut_dialog_set_fraction (dialog, 0.25);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)), ==, 0.25);
  cpel_cut_dialog_set_fraction (dialog, 7.0);
  g_assert_cmpfloat (cpel_cut_dialog_get_fraction (dialog), ==, 1.0);

  g_signal_connect (dialog, "response", G_CALLBACK (on_response), &response);
  gtk_window_present (GTK_WINDOW (dialog));
  g_object_ref (dialog);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL));
  g_assert_cmpstr (response, ==, "cancel");
  /* Answered, it goes. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_object_unref (dialog);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/cut-dialog");

  app = app_test_new_application ();

#define ADD(path, func, write) \
  g_test_add ("/app/cut-dialog/" path, Fixture, (gconstpointer) (write), fixture_setup, func, \
              fixture_teardown)
  ADD ("progress", test_cut_dialog, app_test_write_regular);
#undef ADD
  return app_test_run (&app);
}
