/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-cut.c — the window's Save Range As: the action writes a file whose
 * events equal the range */
#include "app-test-util.h"
#include "cpel-loader.h"

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
activate (Fixture *f, const char *action, GVariant *parameter)
{
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), action));
  app_test_activate_action (GTK_WIDGET (f->window), action, parameter);
}

static void
wait_cut (Fixture *f)
{
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  while (cpel_window_is_saving_range (f->window) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (cpel_window_is_saving_range (f->window));
  app_test_drain ();
}

/* One "dump" line per event: absolute ns, track, label, code, event label. */
static GPtrArray *
dump_lines (CpelFile *file, const guint *slots, guint n_slots, gint64 t0, gint64 t1)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, slots, n_slots, t0);
  g_autoptr(GString) label = g_string_new (NULL);
  CpelEvent ev;
  guint64 index;

  while (cpel_merge_next (merge, &ev, &index))
    {
      if (ev.time_ns >= t1)
        break;
      g_string_truncate (label, 0);
      cpel_file_append_label (file, &ev, label);
      g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT "\t%u\t%s\t%u\t%s",
                                               cpel_file_get_base_ns (file) + ev.time_ns, ev.track_id,
                                               cpel_file_get_track_label (file, ev.track_slot),
                                               ev.code, label->str));
    }
  return lines;
}

static void
check_cut (const char *path, CpelFile *source, const guint *slots, guint n_slots, gint64 t0, gint64 t1)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) cut = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(GPtrArray) want = NULL;
  g_autoptr(GPtrArray) got = NULL;

  g_assert_no_error (error);
  want = dump_lines (source, slots, n_slots, t0, t1);
  got = dump_lines (cut, NULL, 0, G_MININT64, G_MAXINT64);
  g_assert_cmpuint (want->len, >, 0);
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    g_assert_cmpstr (got->pdata[i], ==, want->pdata[i]);
}

static void
test_save_range (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelFile *file = cpel_window_get_file (f->window);
  g_autofree char *all_path = g_build_filename (f->dir, "all.cpel", NULL);
  g_autofree char *some_path = g_build_filename (f->dir, "some.cpel", NULL);
  const guint two[] = { 0, 2 };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize before_len, after_len;
  gint64 t0, t1;

  cpel_timeline_set_range (timeline, 50050, 120000, FALSE);
  cpel_timeline_get_range (timeline, &t0, &t1);

  /* Every track (the check unset). */
  activate (f, "save-range-to", g_variant_new ("(sb)", all_path, FALSE));
  wait_cut (f);
  g_assert_null (cpel_window_get_save_range_error (f->window));
  check_cut (all_path, file, NULL, 0, t0, t1);

  /* Visible tracks only: track 1 hidden. */
  cpel_track_order_set_hidden (cpel_session_get_track_order (cpel_timeline_get_session (timeline)),
                               1, TRUE);
  activate (f, "save-range-to", g_variant_new ("(sb)", some_path, TRUE));
  wait_cut (f);
  g_assert_null (cpel_window_get_save_range_error (f->window));
  check_cut (some_path, file, two, G_N_ELEMENTS (two), t0, t1);

  /* Replacing a file (the chooser confirmed it). */
  activate (f, "save-range-to", g_variant_new ("(sb)", some_path, FALSE));
  wait_cut (f);
  g_assert_null (cpel_window_get_save_range_error (f->window));
  check_cut (some_path, file, NULL, 0, t0, t1);

  /* Never over the open file itself. */
  g_assert_true (g_file_get_contents (f->path, &before, &before_len, NULL));
  activate (f, "save-range-to", g_variant_new ("(sb)", f->path, FALSE));
  wait_cut (f);
  g_assert_nonnull (cpel_window_get_save_range_error (f->window));
  g_assert_true (g_file_get_contents (f->path, &after, &after_len, NULL));
  g_assert_cmpmem (before, before_len, after, after_len);

  /* The new file opens (as the toast's Open does) in a new window. */
  {
    g_autofree char *uri = g_filename_to_uri (all_path, NULL, NULL);
    guint n_windows = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
    gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

    activate (f, "open-recent", g_variant_new_string (uri));
    while (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))) == n_windows
           && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, TRUE);
    g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==,
                      n_windows + 1);
  }
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window");

  app = app_test_new_application ();

#define ADD(path, func, write) \
  g_test_add ("/app/window/" path, Fixture, (gconstpointer) (write), fixture_setup, func, \
              fixture_teardown)
  ADD ("save-range", test_save_range, app_test_write_regular);
#undef ADD
  return app_test_run (&app);
}
