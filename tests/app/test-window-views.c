/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-views.c — the window's g2 features: chase (event, datum, track, no
 * chase; on a built file and the real sample), saved views (sidecar round
 * trip, x / z stepping, p / l, --view, export) and the subtitle's filters */
#include "app-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cpel-application.h"
#include "cpel-print.h"
#include "cpel-saved-view-row.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

static CpelWindow *
new_window (void)
{
  CpelWindow *window = cpel_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 640);
  gtk_window_present (GTK_WINDOW (window));
  app_test_wait_drawn (GTK_WIDGET (window));
  return window;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-window-views", app_test_write_four_tracks,
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

/* Oracle: ids (in slot order) of the tracks with an event matching. */
static char *
expected_ids (CpelFile *file, gboolean by_code, guint32 value)
{
  GString *s = g_string_new (NULL);

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      guint64 n = cpel_file_get_track_n_events (file, slot);

      for (guint64 i = 0; i < n; i++)
        {
          guint32 v = by_code ? cpel_file_get_track_event_code (file, slot, i)
                              : cpel_file_get_track_event_datum (file, slot, i);
          if (v == value)
            {
              g_string_append_printf (s, "%s%u", s->len > 0 ? "," : "",
                                      cpel_file_get_track_id (file, slot));
              break;
            }
        }
    }
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
wait_chase (CpelWindow *window)
{
  app_test_wait_until (!cpel_window_is_chase_busy (window), 30);
  app_test_drain ();
}

static void
activate (CpelWindow *window, const char *action)
{
  g_assert_true (app_test_action_enabled (GTK_WIDGET (window), action));
  app_test_activate_action (GTK_WIDGET (window), action, NULL);
}

static void
test_chase (Fixture *f, gconstpointer data)
{
  CpelFile *file;
  g_autofree char *before = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *expected = NULL;
  guint slot;
  guint64 index;

  SKIP_WITHOUT_DISPLAY ();
  file = cpel_window_get_file (f->window);
  before = row_ids (f->window);
  g_assert_cmpstr (before, ==, "3,5,7,12");
  g_assert_false (app_test_action_enabled (GTK_WIDGET (f->window), "no-chase"));

  /* Chase event: only the tracks with a recv. */
  select_first (f->window, 3, TRUE, CODE_RECV);
  activate (f->window, "chase-event");
  wait_chase (f->window);
  expected = expected_ids (file, TRUE, CODE_RECV);
  g_assert_cmpstr (expected, ==, "3,5");
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, expected);
  g_assert_true (cpel_window_is_chasing (f->window));
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), "no-chase"));
  /* The selection stays. */
  g_assert_true (cpel_session_get_selection (
                   cpel_timeline_get_session (cpel_window_get_timeline (f->window)),
                   &slot, &index));
  g_assert_cmpuint (cpel_file_get_track_id (file, slot), ==, 3);

  /* Chase datum (from within a chase): the tracks with that datum. */
  select_first (f->window, 3, TRUE, CODE_RECV);
  activate (f->window, "no-chase");
  select_first (f->window, 12, FALSE, APP_TEST_FOUR_DATUM);
  activate (f->window, "chase-datum");
  wait_chase (f->window);
  g_clear_pointer (&expected, g_free);
  g_clear_pointer (&rows, g_free);
  expected = expected_ids (file, FALSE, APP_TEST_FOUR_DATUM);
  g_assert_cmpstr (expected, ==, "7,12");
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, expected);

  /* Chase track: the selected track pinned on top, the others stay. */
  activate (f->window, "no-chase");
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, before);
  select_first (f->window, 5, TRUE, CODE_RECV);
  activate (f->window, "chase-track");
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "5,3,7,12");

  /* No chase: the track list of before the first chase, even after a
   * sort during the chase. */
  app_test_activate_action (GTK_WIDGET (f->window), "sort-tracks", g_variant_new_string ("name"));
  activate (f->window, "no-chase");
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, before);
  g_assert_false (cpel_window_is_chasing (f->window));

  /* A chase restores what was shown before it: a sorted list. */
  app_test_activate_action (GTK_WIDGET (f->window), "sort-tracks", g_variant_new_string ("count"));
  g_clear_pointer (&before, g_free);
  before = row_ids (f->window);
  select_first (f->window, 3, TRUE, CODE_RECV);
  activate (f->window, "chase-event");
  wait_chase (f->window);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "3,5");     /* 100 and 50 events: by count */
  activate (f->window, "no-chase");
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, before);

  /* Nothing selected: nothing chased. */
  cpel_session_unselect (cpel_timeline_get_session (cpel_window_get_timeline (f->window)));
  activate (f->window, "chase-event");
  wait_chase (f->window);
  g_assert_false (cpel_window_is_chasing (f->window));
}

/* The real VPP sample: one event code on both tracks; the datum of the
 * second event only on "workers 1". */
static void
test_chase_sample (Fixture *f, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *rows = NULL;
  CpelWindow *window;
  CpelFile *file;
  CpelEvent event;
  guint slot;

  SKIP_WITHOUT_DISPLAY ();
  path = cpel_test_fixture_file ("vpp-sample.cpel");
  window = new_window ();
  app_test_open_and_wait (window, path);
  file = cpel_window_get_file (window);
  g_assert_nonnull (file);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 2);

  /* Chase event: code 0 is on both tracks. */
  cpel_session_select (cpel_timeline_get_session (cpel_window_get_timeline (window)), 0, 0, FALSE);
  cpel_file_get_track_event (file, 0, 0, &event);
  activate (window, "chase-event");
  wait_chase (window);
  expected = expected_ids (file, TRUE, event.code);
  rows = row_ids (window);
  g_assert_cmpstr (rows, ==, expected);
  g_assert_cmpuint (cpel_view_get_n_rows (cpel_timeline_get_view (cpel_window_get_timeline (window))), ==, 2);
  activate (window, "no-chase");

  /* Chase datum of the event at 138910 ns ("workers 1", the only "1): 4"). */
  for (slot = 0; slot < 2; slot++)
    if (g_str_equal (cpel_file_get_track_label (file, slot), "workers 1"))
      break;
  g_assert_cmpuint (slot, <, 2);
  cpel_file_get_track_event (file, slot, 0, &event);
  g_assert_cmpint (event.time_ns, ==, 138910);
  cpel_session_select (cpel_timeline_get_session (cpel_window_get_timeline (window)),
                       slot, 0, FALSE);
  activate (window, "chase-datum");
  wait_chase (window);
  g_clear_pointer (&expected, g_free);
  g_clear_pointer (&rows, g_free);
  expected = expected_ids (file, FALSE, event.datum);
  rows = row_ids (window);
  g_assert_cmpstr (rows, ==, expected);
  g_assert_cmpuint (cpel_view_get_n_rows (cpel_timeline_get_view (cpel_window_get_timeline (window))), ==, 1);
  g_assert_cmpuint (cpel_view_get_row_slot (cpel_timeline_get_view (cpel_window_get_timeline (window)), 0), ==, slot);
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

static gboolean
never_writable (const char *dir, gpointer user_data)
{
  return FALSE;
}

/* The open Save View dialog of `window`, or NULL. */
static AdwMessageDialog *
save_view_dialog (CpelWindow *window)
{
  AdwMessageDialog *found = NULL;

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (found == NULL && ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data)
        && gtk_window_get_transient_for (l->data) == GTK_WINDOW (window)
        && adw_message_dialog_has_response (l->data, "save"))
      found = l->data;
  return found;
}

/* Save View says where the views are kept: next to the capture (the
 * sidecar's name), or in the data folder when the capture's folder cannot
 * be written. */
static void
test_views_place (Fixture *f, gconstpointer data)
{
  g_autofree char *base = g_path_get_basename (f->path);
  g_autofree char *sidecar = g_strconcat ("“", base, CPEL_VIEWS_SUFFIX, "”", NULL);
  AdwMessageDialog *dialog;
  GtkEditable *entry;

  SKIP_WITHOUT_DISPLAY ();
  activate (f->window, "save-view");
  dialog = save_view_dialog (f->window);
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "next to the capture"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), sidecar));

  cpel_views_set_writable_func (cpel_window_get_views (f->window), never_writable, NULL, NULL);
  entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  gtk_editable_set_text (entry, "Somewhere");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "cannot be written"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), g_get_user_data_dir ()));
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_views_round_trip (Fixture *f, gconstpointer data)
{
  g_autofree char *sidecar = NULL;
  CpelWindow *window;
  CpelViews *views;

  SKIP_WITHOUT_DISPLAY ();
  make_views (f->window);
  sidecar = g_strconcat (f->path, CPEL_VIEWS_SUFFIX, NULL);
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_IS_REGULAR));

  /* Another window on the same capture reads them from the sidecar. */
  window = new_window ();
  g_assert_false (app_test_action_enabled (GTK_WIDGET (window), "next-view"));
  app_test_open_and_wait (window, f->path);
  views = cpel_window_get_views (window);
  g_assert_nonnull (views);
  g_assert_cmpuint (cpel_views_get_n_views (views), ==, 2);
  /* The file remembers the current view: B, the last saved. */
  g_assert_cmpint (cpel_views_get_current (views), ==, 1);

  /* x: the first (wrapping), x: the second, x: the first again, z: back
   * to B. */
  activate (window, "next-view");
  assert_shows (window, 1000, 9000, "12,7", TRUE, 7);
  activate (window, "next-view");
  assert_shows (window, 20000, 30000, "3,5,7,12", FALSE, G_MAXUINT32);
  activate (window, "next-view");
  assert_shows (window, 1000, 9000, "12,7", TRUE, 7);
  activate (window, "previous-view");
  assert_shows (window, 20000, 30000, "3,5,7,12", FALSE, G_MAXUINT32);
  /* Back in zoom history: where the view was before. */
  g_assert_true (cpel_session_go_back (
                   cpel_timeline_get_session (cpel_window_get_timeline (window))));
  {
    gint64 a, b;

    cpel_timeline_get_range (cpel_window_get_timeline (window), &a, &b);
    g_assert_cmpint (a, ==, 1000);
  }

  /* Renaming and deleting write the file at once. */
  app_test_activate_action (GTK_WIDGET (window), "delete-view", g_variant_new_string ("B"));
  {
    g_autoptr(CpelViews) reread = cpel_views_new (f->path);

    g_assert_true (cpel_views_load (reread, NULL));
    g_assert_cmpuint (cpel_views_get_n_views (reread), ==, 1);
    g_assert_cmpstr (cpel_views_get_view (reread, 0)->name, ==, "A");
  }

  /* The default name of the next view. */
  {
    g_autofree char *name = cpel_window_new_view_name (window);

    g_assert_cmpstr (name, ==, "View 2");
  }

  /* Export (what win.export-views writes once a file is chosen), then the
   * file holds the views. */
  {
    g_autofree char *out = g_build_filename (f->dir, "exported.cpelviews", NULL);
    g_autoptr(CpelViews) other = cpel_views_new (f->path);

    g_assert_true (cpel_views_export (cpel_window_get_views (window), out, NULL));
    g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
    g_assert_true (cpel_views_import (other, out, NULL));
    g_assert_true (cpel_views_lookup (other, "A", NULL));
    g_unlink (out);
  }
}

/* cpelview --view NAME FILE: the view shown once the file is loaded. */
static void
test_open_at_view (Fixture *f, gconstpointer data)
{
  CpelWindow *window;

  SKIP_WITHOUT_DISPLAY ();
  make_views (f->window);
  window = new_window ();
  cpel_window_open_view (window, "A");
  app_test_open_and_wait (window, f->path);
  assert_shows (window, 1000, 9000, "12,7", TRUE, 7);
  g_assert_cmpint (cpel_views_get_current (cpel_window_get_views (window)), ==, 0);

  /* An unknown name changes nothing (a toast says so). */
  cpel_window_open_view (window, "no such view");
  assert_shows (window, 1000, 9000, "12,7", TRUE, 7);
}

/* The window's subtitle says what the view leaves out: hidden tracks (a
 * filter too) and hidden event types. */
static void
test_subtitle_filters (Fixture *f, gconstpointer data)
{
  CpelTimeline *tl = cpel_window_get_timeline (f->window);
  CpelTrackOrder *order = cpel_session_get_track_order (cpel_timeline_get_session (tl));
  AdwWindowTitle *title;
  g_autofree char *plain = NULL;
  g_autofree guint8 *hidden = g_new0 (guint8, cpel_file_get_n_types (cpel_window_get_file (f->window)));

  SKIP_WITHOUT_DISPLAY ();
  title = ADW_WINDOW_TITLE (app_test_find_descendant (GTK_WIDGET (f->window), ADW_TYPE_WINDOW_TITLE));
  g_assert_nonnull (title);
  plain = g_strdup (adw_window_title_get_subtitle (title));
  g_assert_true (g_str_has_suffix (plain, " · 4 tracks"));

  cpel_track_order_set_hidden (order, 0, TRUE);
  g_assert_true (g_str_has_suffix (adw_window_title_get_subtitle (title), " · 3 of 4 tracks shown"));
  cpel_track_order_set_filter (order, "net");
  g_assert_true (g_str_has_suffix (adw_window_title_get_subtitle (title), " · 2 of 4 tracks shown"));
  hidden[0] = 1;
  cpel_session_set_hidden_types (cpel_timeline_get_session (tl), hidden);
  g_assert_true (g_str_has_suffix (adw_window_title_get_subtitle (title),
                                   " · 2 of 4 tracks shown · 1 event type hidden"));
  cpel_track_order_reset (order);
  hidden[0] = 0;
  cpel_session_set_hidden_types (cpel_timeline_get_session (tl), hidden);
  g_assert_cmpstr (adw_window_title_get_subtitle (title), ==, plain);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window");

  app = app_test_new_application ();

#define ADD(path, func) \
  g_test_add ("/app/window/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("chase", test_chase);
  ADD ("chase-sample", test_chase_sample);
  ADD ("views-place", test_views_place);
  ADD ("views-round-trip", test_views_round_trip);
  ADD ("open-at-view", test_open_at_view);
  ADD ("subtitle-filters", test_subtitle_filters);
#undef ADD
  return app_test_run (&app);
}
