/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-compare.c — the window comparing two captures */
#include "app-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cpel-application.h"
#include "cpel-compare-pane.h"
#include "cpel-print.h"
#include "cpel-search-bar.h"
#include "cpel-stats-window.h"
#include "cpel-table.h"
#include "cpel-test-pair.h"
#include "cpel-toaster.h"
#include "cpel-window.h"

typedef struct
{
  CpelApplication *app;
  CpelWindow      *window;
  char            *dir;
  char            *a;
  char            *b;
  char            *bad;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("cpel-compare-XXXXXX", NULL);
  f->a = g_build_filename (f->dir, "a.cpel", NULL);
  f->b = g_build_filename (f->dir, "b.cpel", NULL);
  f->bad = g_build_filename (f->dir, "bad.cpel", NULL);
  cpel_test_pair_write_files (f->a, f->b);
  g_assert_true (g_file_set_contents (f->bad, "not an event log at all", -1, NULL));
  f->app = app_test_new_application ();
  f->window = cpel_window_new (f->app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 600);
  gtk_window_present (GTK_WINDOW (f->window));
  app_test_open_and_wait (f->window, f->a);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_free (f->a);
  g_free (f->b);
  g_unlink (f->bad);
  g_free (f->bad);
  app_test_fixture_cleanup (f->app, f->dir, NULL);
  g_clear_object (&f->app);
}

static void
compare_and_wait (Fixture *f, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  cpel_window_compare_with (f->window, file);
  app_test_wait_until (cpel_window_is_comparing (f->window), 60);
  app_test_wait_drawn (cpel_window_get_compare_pane (f->window));
}

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  return *(const guint32 *) (cairo_image_surface_get_data (s)
                             + (gsize) y * cairo_image_surface_get_stride (s) + (gsize) x * 4);
}

static AdwMessageDialog *
find_offset_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w))
          && g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (w)), "Offset of B") == 0)
        return ADW_MESSAGE_DIALOG (w);
    }
  return NULL;
}

/* Both panes shown: A's and B's headers, each with its badge colour. */
static void
test_both_panes (Fixture *f, gconstpointer data)
{
  GtkWidget *pane;
  const CpelCompareView *view;
  cairo_surface_t *image = NULL;
  double top_b, ph;
  CpelPalette light;

  g_assert_false (cpel_window_is_comparing (f->window));
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), "compare-with"));
  g_assert_false (app_test_action_enabled (GTK_WIDGET (f->window), "close-compare"));
  compare_and_wait (f, f->b);
  pane = cpel_window_get_compare_pane (f->window);
  g_assert_true (gtk_widget_get_mapped (pane));
  /* shown at once, not crossfaded from the single view over 200 ms */
  g_assert_false (gtk_stack_get_transition_running (
                    GTK_STACK (gtk_widget_get_ancestor (pane, GTK_TYPE_STACK))));
  view = cpel_compare_pane_get_view (CPEL_COMPARE_PANE (pane));
  g_assert_true (view->a.file == cpel_window_get_file (f->window));
  g_assert_cmpuint (cpel_file_get_n_tracks (view->b.file), ==, 3);
  g_assert_cmpstr (view->name_b, ==, "b.cpel");
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), "close-compare"));

  app_test_wait_until ((image = app_test_widget_image (pane)) != NULL, 30);
  cpel_palette_init_light (&light);
  cpel_compare_view_pane (view, gtk_widget_get_height (pane), CPEL_COMPARE_B, &top_b, &ph);
  g_assert_cmphex (pixel (image, 10, (int) (view->a.ruler_height + view->header_height / 2)) & 0xffffff,
                   ==, ((guint32) (light.accent.r * 255 + 0.5) << 16
                        | (guint32) (light.accent.g * 255 + 0.5) << 8
                        | (guint32) (light.accent.b * 255 + 0.5)));
  g_assert_cmphex (pixel (image, 10, (int) (top_b + view->header_height / 2)) & 0xffffff,
                   ==, ((guint32) (light.highlight.r * 255 + 0.5) << 16
                        | (guint32) (light.highlight.g * 255 + 0.5) << 8
                        | (guint32) (light.highlight.b * 255 + 0.5)));
  cairo_surface_destroy (image);

  /* zooming acts on both: B's range follows A's */
  cpel_compare_pane_set_range (CPEL_COMPARE_PANE (pane), 100, 900);
  cpel_compare_pane_set_offset (CPEL_COMPARE_PANE (pane), 50);
  view = cpel_compare_pane_get_view (CPEL_COMPARE_PANE (pane));
  g_assert_cmpint (view->b.t0, ==, 150);
  g_assert_cmpint (view->b.t1, ==, 950);

  /* Export View draws both panes */
  {
    g_autofree char *png = g_build_filename (f->dir, "both.png", NULL);
    g_autoptr(GError) error = NULL;
    cairo_surface_t *out;

    g_assert_true (cpel_window_export (f->window, png, 1, FALSE, &error));
    g_assert_no_error (error);
    out = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_image_surface_get_height (out), ==, gtk_widget_get_height (pane));
    g_assert_cmphex (pixel (out, 10, (int) (top_b + view->header_height / 2)) & 0xffffff,
                     ==, ((guint32) (light.highlight.r * 255 + 0.5) << 16
                          | (guint32) (light.highlight.g * 255 + 0.5) << 8
                          | (guint32) (light.highlight.b * 255 + 0.5)));
    cairo_surface_destroy (out);
    g_unlink (png);
  }

  /* the offset: B drawn 1 µs later than A */
  app_test_activate_action (GTK_WIDGET (f->window), "compare-offset", g_variant_new_string ("1us"));
  g_assert_cmpint (cpel_compare_pane_get_view (CPEL_COMPARE_PANE (pane))->offset_b, ==, -1000);
  app_test_activate_action (GTK_WIDGET (f->window), "compare-offset", g_variant_new_string ("-200ns"));
  g_assert_cmpint (cpel_compare_pane_get_view (CPEL_COMPARE_PANE (pane))->offset_b, ==, 200);
  app_test_activate_action (GTK_WIDGET (f->window), "compare-offset", g_variant_new_string ("nonsense"));
  g_assert_cmpint (cpel_compare_pane_get_view (CPEL_COMPARE_PANE (pane))->offset_b, ==, 200);

  /* the dialog asks for it, showing the offset in force */
  app_test_activate_action (GTK_WIDGET (f->window), "compare-offset-dialog", NULL);
  {
    AdwMessageDialog *dialog = NULL;
    GtkWidget *entry;

    app_test_wait_until ((dialog = find_offset_dialog ()) != NULL, 30);
    entry = adw_message_dialog_get_extra_child (dialog);
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "-200ns");
    adw_message_dialog_response (dialog, "cancel");
  }

  /* paired mode pairs by label; swap; close */
  app_test_activate_action (GTK_WIDGET (f->window), "paired-tracks", NULL);
  g_assert_true (cpel_compare_pane_get_paired (CPEL_COMPARE_PANE (pane)));
  {
    g_autoptr(GArray) rows = cpel_compare_view_rows (view, gtk_widget_get_height (pane));

    g_assert_cmpuint (rows->len, ==, 5);
    g_assert_cmpint (g_array_index (rows, CpelCompareRow, 0).side, ==, CPEL_COMPARE_A);
    g_assert_cmpint (g_array_index (rows, CpelCompareRow, 1).side, ==, CPEL_COMPARE_B);
  }
  app_test_activate_action (GTK_WIDGET (f->window), "swap-compare", NULL);
  g_assert_cmpuint (cpel_file_get_n_tracks (cpel_compare_pane_get_file_a (CPEL_COMPARE_PANE (pane))), ==, 3);
  app_test_activate_action (GTK_WIDGET (f->window), "close-compare", NULL);
  g_assert_false (cpel_window_is_comparing (f->window));
  g_assert_false (gtk_stack_get_transition_running (
                    GTK_STACK (gtk_widget_get_ancestor (pane, GTK_TYPE_STACK))));
  app_test_wait_until (!gtk_widget_get_mapped (pane), 30);
  g_assert_nonnull (cpel_window_get_file (f->window));
}

/* Enter in the "Offset of B" dialog applies the offset and closes the
 * dialog, as the Apply button does; Enter on text that is no time does
 * neither. Real Enter through xdotool when input can be sent, else the
 * entry's activate (what Enter emits). */
static void
press_enter (GtkWidget *entry)
{
  if (app_test_can_send_input ())
    {
      app_test_focus (entry);
      app_test_xdo ("key", "--clearmodifiers", "Return", NULL);
    }
  else
    g_signal_emit_by_name (entry, "activate");
}

static void
test_offset_enter (Fixture *f, gconstpointer data)
{
  CpelComparePane *pane;
  AdwMessageDialog *dialog = NULL;
  GtkWidget *entry;

  compare_and_wait (f, f->b);
  pane = CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window));
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->offset_b, ==, 0);

  app_test_activate_action (GTK_WIDGET (f->window), "compare-offset-dialog", NULL);
  app_test_wait_until ((dialog = find_offset_dialog ()) != NULL, 30);
  app_test_wait_drawn (GTK_WIDGET (dialog));
  entry = adw_message_dialog_get_extra_child (dialog);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);

  /* not a time: Apply is off, Enter changes nothing and the dialog stays */
  gtk_editable_set_text (GTK_EDITABLE (entry), "soon");
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "apply"));
  press_enter (entry);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->offset_b, ==, 0);

  /* a time: Enter applies it (B drawn 1.5 ms later) and the dialog goes */
  gtk_editable_set_text (GTK_EDITABLE (entry), "1.5ms");
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "apply"));
  press_enter (entry);
  app_test_wait_until (dialog == NULL || !gtk_widget_get_visible (GTK_WIDGET (dialog)), 10);
  if (dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_assert_null (find_offset_dialog ());
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->offset_b, ==, -1500000);
}

/* The message dialog transient for `parent` with a "close" response, or NULL. */
static AdwMessageDialog *
find_error_dialog (CpelWindow *parent)
{
  AdwMessageDialog *found = NULL;

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (found == NULL && ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data)
        && gtk_window_get_transient_for (l->data) == GTK_WINDOW (parent)
        && adw_message_dialog_has_response (l->data, "close"))
      found = l->data;
  return found;
}

/* B unreadable: A stays; a dialog names B and says what is wrong as the
 * main view's does (a plain sentence, then the detail, whole, until it is
 * closed), not a toast that cuts the reason off. */
static void
test_bad_b (Fixture *f, gconstpointer data)
{
  g_autoptr(GFile) bad = g_file_new_for_path (f->bad);
  CpelFile *a = cpel_window_get_file (f->window);
  AdwMessageDialog *dialog;
  GtkWidget *detail;

  cpel_window_compare_with (f->window, bad);
  app_test_wait_until (find_error_dialog (f->window) != NULL, 60);
  dialog = find_error_dialog (f->window);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==,
                   "Could Not Compare With “bad.cpel”");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, "This is not a supported event log.");
  detail = adw_message_dialog_get_extra_child (dialog);
  g_assert_true (GTK_IS_LABEL (detail));
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (detail)));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (detail)), "the file starts with"));
  g_assert_false (adw_message_dialog_has_response (dialog, "clock-rate"));
  g_assert_null (cpel_toaster_get_text (cpel_window_get_toaster (f->window)));
  adw_message_dialog_response (dialog, "close");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_false (cpel_window_is_comparing (f->window));
  g_assert_true (cpel_window_get_file (f->window) == a);
}

/* F9 in the compare view: the details pane shows beside it, with the event
 * selected last in either pane; none selected, "nothing selected"; back in
 * the single view, A's own selection. */
static void
test_details (Fixture *f, gconstpointer data)
{
  CpelComparePane *pane;
  CpelDetails *details = cpel_window_get_details (f->window);
  CpelFile *file_b;
  g_autofree char *track_b = NULL;

  compare_and_wait (f, f->b);
  pane = CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window));
  file_b = cpel_compare_pane_get_file_b (pane);
  g_object_set (f->window, "show-details", TRUE, NULL);
  app_test_wait_until (gtk_widget_get_mapped (GTK_WIDGET (details)), 30);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (details)));
  g_assert_true (gtk_widget_get_mapped (cpel_window_get_compare_pane (f->window)));
  g_assert_cmpstr (cpel_details_get_value (details, "code"), ==, "");

  /* B's second event of its first track */
  cpel_compare_pane_select (pane, CPEL_COMPARE_B, 0, 1);
  track_b = g_strdup_printf ("%s (id %u)", cpel_file_get_track_label (file_b, 0),
                             cpel_file_get_track_id (file_b, 0));
  g_assert_cmpstr (cpel_details_get_value (details, "track"), ==, track_b);
  g_assert_cmpstr (cpel_details_get_value (details, "code"), !=, "");
  /* then A's: A's shown; A unselected: B's again */
  cpel_compare_pane_select (pane, CPEL_COMPARE_A, 1, 0);
  {
    CpelFile *file_a = cpel_compare_pane_get_file_a (pane);
    g_autofree char *track_a = g_strdup_printf ("%s (id %u)",
                                                cpel_file_get_track_label (file_a, 1),
                                                cpel_file_get_track_id (file_a, 1));

    g_assert_cmpstr (cpel_details_get_value (details, "track"), ==, track_a);
  }
  cpel_compare_pane_select (pane, CPEL_COMPARE_A, G_MAXUINT, 0);
  g_assert_cmpstr (cpel_details_get_value (details, "track"), ==, track_b);
  cpel_compare_pane_select (pane, CPEL_COMPARE_B, G_MAXUINT, 0);
  g_assert_cmpstr (cpel_details_get_value (details, "code"), ==, "");

  /* back to A alone: its own (no) selection */
  cpel_window_close_compare (f->window);
  g_assert_false (cpel_window_is_comparing (f->window));
  g_assert_cmpstr (cpel_details_get_value (details, "code"), ==, "");
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_ancestor (
    GTK_WIDGET (details), GTK_TYPE_REVEALER))));
}

/* The header bar's subtitle (the window's AdwWindowTitle). */
static const char *
subtitle_of (CpelWindow *window)
{
  GtkWidget *title = app_test_find_descendant (GTK_WIDGET (window), ADW_TYPE_WINDOW_TITLE);

  g_assert_nonnull (title);
  return adw_window_title_get_subtitle (ADW_WINDOW_TITLE (title));
}

/* The title names both captures, A first, and follows a swap and the
 * closing of B. */
static void
test_title (Fixture *f, gconstpointer data)
{
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "a.cpel");
  compare_and_wait (f, f->b);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "a.cpel — b.cpel");
  g_assert_nonnull (strstr (subtitle_of (f->window), "A: "));
  g_assert_nonnull (strstr (subtitle_of (f->window), " · B: "));
  app_test_activate_action (GTK_WIDGET (f->window), "swap-compare", NULL);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "b.cpel — a.cpel");
  app_test_activate_action (GTK_WIDGET (f->window), "close-compare", NULL);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "a.cpel");
  g_assert_null (strstr (subtitle_of (f->window), "B: "));
}

static void
on_finished (CpelSearchBar *bar, gboolean *flag)
{
  *flag = TRUE;
}

static void
search (CpelWindow *window, CpelSearchMode mode, const char *text)
{
  CpelSearchBar *bar = cpel_window_get_search_bar (window);
  gboolean done = FALSE;
  gulong id = g_signal_connect (bar, "search-finished", G_CALLBACK (on_finished), &done);

  cpel_search_bar_search (bar, mode, text, FALSE);
  if (!app_test_wait_flag (&done, 10000))
    g_error ("search “%s” did not finish: status “%s”", text, cpel_search_bar_get_status (bar));
  g_signal_handler_disconnect (bar, id);
}

/* Search runs in both panes: counts per pane, the matches of each
 * highlighted in its pane, Enter steps A's matches with B's match at the
 * same aligned time selected with it; a name only B has still finds B's. */
static void
test_search (Fixture *f, gconstpointer data)
{
  CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
  CpelComparePane *pane;
  const CpelCompareView *view;
  CpelEvent event;

  compare_and_wait (f, f->b);
  pane = CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window));
  cpel_search_bar_set_search_mode (bar, TRUE);
  search (f->window, CPEL_SEARCH_CODE, "double");
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "5 in A · 10 in B");
  view = cpel_compare_pane_get_view (pane);
  g_assert_nonnull (view->a.matches);
  g_assert_nonnull (view->b.matches);
  g_assert_cmpuint (cpel_search_result_get_n (view->a.matches), ==, 5);
  g_assert_cmpuint (cpel_search_result_get_n (view->b.matches), ==, 10);

  cpel_compare_pane_set_range (pane, 0, 100);
  cpel_search_bar_step (bar, 1);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "1 of 5 in A · 1 of 10 in B");
  /* at the start of the captures: not centred into the time before them */
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->a.t0, ==, 0);
  cpel_search_bar_step (bar, 1);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "2 of 5 in A · 3 of 10 in B");
  view = cpel_compare_pane_get_view (pane);
  g_assert_true (view->a.has_selection);
  g_assert_true (view->b.has_selection);
  cpel_file_get_track_event (view->a.file, view->a.selected_slot, view->a.selected_index, &event);
  g_assert_cmpint (event.time_ns, ==, 200);
  cpel_file_get_track_event (view->b.file, view->b.selected_slot, view->b.selected_index, &event);
  g_assert_cmpint (event.time_ns, ==, 200);
  /* the match is centred */
  g_assert_cmpint (view->a.t0 + (view->a.t1 - view->a.t0) / 2, ==, 200);
  cpel_search_bar_step (bar, -1);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "1 of 5 in A · 1 of 10 in B");

  /* a name only B defines */
  search (f->window, CPEL_SEARCH_CODE, "only-b");
  g_assert_null (cpel_search_bar_get_error (bar));
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "0 in A · 1 in B");
  cpel_search_bar_step (bar, 1);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "0 in A · 1 of 1 in B");
  /* a name neither has */
  search (f->window, CPEL_SEARCH_CODE, "nowhere");
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "No such event");

  /* text search; the bar closed takes the highlights away, swap runs the
   * query again over the swapped captures */
  search (f->window, CPEL_SEARCH_TEXT, "only");
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "4 in A · 1 in B");
  {
    gboolean done = FALSE;
    gulong id = g_signal_connect (bar, "search-finished", G_CALLBACK (on_finished), &done);

    app_test_activate_action (GTK_WIDGET (f->window), "swap-compare", NULL);
    g_assert_true (app_test_wait_flag (&done, 10000));
    g_signal_handler_disconnect (bar, id);
  }
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "1 in A · 4 in B");
  cpel_search_bar_set_search_mode (bar, FALSE);
  g_assert_null (cpel_compare_pane_get_view (pane)->a.matches);

  /* closing B: the bar searches the single view again */
  cpel_search_bar_set_search_mode (bar, TRUE);
  app_test_activate_action (GTK_WIDGET (f->window), "close-compare", NULL);
  search (f->window, CPEL_SEARCH_TEXT, "only");
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "4 matches");
  g_assert_true (cpel_session_get_matches (
                   cpel_timeline_get_session (cpel_window_get_timeline (f->window)))
                 == cpel_search_bar_get_result (bar));
}

/* The single view's hidden event types and track filters apply to both
 * panes by name (B's codes and track ids differ); the search counts
 * follow; a swap keeps them. */
static void
test_filters (Fixture *f, gconstpointer data)
{
  CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelFile *a = cpel_window_get_file (f->window);
  CpelTrackOrder *order = cpel_session_get_track_order (cpel_timeline_get_session (timeline));
  g_autofree guint8 *hidden = g_malloc0 (cpel_file_get_n_types (a));
  CpelComparePane *pane;
  const CpelCompareView *view;
  CpelFile *b;

  compare_and_wait (f, f->b);
  pane = CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window));
  view = cpel_compare_pane_get_view (pane);
  b = view->b.file;
  g_assert_null (view->b.hidden_types);
  /* B's tracks in A's order of labels, then the one A has not */
  g_assert_null (view->a.rows);
  cpel_test_assert_rows (b, view->b.rows, view->b.n_rows, "wk0", "wk1", "wk2", NULL);
  cpel_search_bar_set_search_mode (bar, TRUE);
  search (f->window, CPEL_SEARCH_CODE, "double");
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "5 in A · 10 in B");

  /* "double" hidden in the single view: hidden in both, matches gone */
  hidden[cpel_test_type_named (a, "double")] = 1;
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
  view = cpel_compare_pane_get_view (pane);
  g_assert_nonnull (view->a.hidden_types);
  g_assert_true (view->a.hidden_types[cpel_test_type_named (a, "double")]);
  g_assert_nonnull (view->b.hidden_types);
  g_assert_true (view->b.hidden_types[cpel_test_type_named (b, "double")]);
  g_assert_false (view->b.hidden_types[cpel_test_type_named (b, "same")]);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "No matches");

  /* wk1 hidden: B shows wk0 and wk2 (a label A has not); a filter "wk0"
   * leaves wk0 alone in both */
  cpel_track_order_set_hidden (order, cpel_test_slot_labelled (a, "wk1"), TRUE);
  view = cpel_compare_pane_get_view (pane);
  g_assert_cmpuint (view->a.n_rows, ==, 1);
  g_assert_nonnull (view->b.rows);
  cpel_test_assert_rows (b, view->b.rows, view->b.n_rows, "wk0", "wk2", NULL);
  cpel_track_order_set_hidden (order, cpel_test_slot_labelled (a, "wk1"), FALSE);
  cpel_track_order_set_filter (order, "wk0");
  view = cpel_compare_pane_get_view (pane);
  cpel_test_assert_rows (b, view->b.rows, view->b.n_rows, "wk0", NULL);
  {
    g_autoptr(GArray) rows = cpel_compare_view_rows (view, gtk_widget_get_height (GTK_WIDGET (pane)));

    g_assert_cmpuint (rows->len, ==, 2);
  }

  /* swapped: the filters follow the captures */
  app_test_activate_action (GTK_WIDGET (f->window), "swap-compare", NULL);
  view = cpel_compare_pane_get_view (pane);
  g_assert_true (view->a.file == b);
  g_assert_true (view->a.hidden_types[cpel_test_type_named (b, "double")]);
  cpel_test_assert_rows (b, view->a.rows, view->a.n_rows, "wk0", NULL);
  g_assert_true (view->b.hidden_types[cpel_test_type_named (a, "double")]);

  /* shown again */
  cpel_track_order_set_filter (order, NULL);
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), NULL);
  view = cpel_compare_pane_get_view (pane);
  g_assert_null (view->a.hidden_types);
  g_assert_null (view->b.hidden_types);
  g_assert_null (view->b.rows);
  g_assert_cmpuint (view->a.n_rows, ==, 3);
}

/* The middle of the row of `label` in a side's pane. */
static double
row_middle (const CpelCompareView *view, double height, CpelCompareSide side, const char *label)
{
  g_autoptr(GArray) rows = cpel_compare_view_rows (view, height);
  CpelFile *file = side == CPEL_COMPARE_A ? view->a.file : view->b.file;

  for (guint i = 0; i < rows->len; i++)
    {
      const CpelCompareRow *row = &g_array_index (rows, CpelCompareRow, i);

      if (row->side == side && g_strcmp0 (cpel_file_get_track_label (file, row->slot), label) == 0)
        return row->y + view->a.row_height / 2;
    }
  g_assert_not_reached ();
}

/* A click selects the event under it in its pane; Align Here draws B's
 * selected event at A's, the ruler reading from there; Reset puts both
 * back at their first events; Swap keeps the alignment. */
static void
test_align (Fixture *f, gconstpointer data)
{
  GtkWidget *widget;
  CpelComparePane *pane;
  const CpelCompareView *view;
  double width, height;
  CpelEvent event;

  compare_and_wait (f, f->b);
  widget = cpel_window_get_compare_pane (f->window);
  pane = CPEL_COMPARE_PANE (widget);
  cpel_compare_pane_set_range (pane, 0, 1000);
  app_test_wait_drawn (widget);
  view = cpel_compare_pane_get_view (pane);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_false (gtk_widget_activate_action (widget, "compare.align", NULL)
                  && cpel_compare_pane_get_view (pane)->offset_b != 0);

  /* A's second "slow" (100 ns), B's second (300 ns) */
  if (app_test_can_send_input ())
    {
      app_test_pointer_to (widget, cpel_view_time_to_x (&view->a, width, 100),
                           row_middle (view, height, CPEL_COMPARE_A, "wk1"));
      app_test_xdo ("click", "1", NULL);
      app_test_pointer_to (widget, cpel_view_time_to_x (&view->a, width, 300),
                           row_middle (view, height, CPEL_COMPARE_B, "wk1"));
      app_test_xdo ("click", "1", NULL);
    }
  else
    {
      g_test_message ("no xdotool: selecting without clicks");
      cpel_compare_pane_select (pane, CPEL_COMPARE_A, cpel_test_slot_labelled (view->a.file, "wk1"), 1);
      cpel_compare_pane_select (pane, CPEL_COMPARE_B, cpel_test_slot_labelled (view->b.file, "wk1"), 1);
    }
  view = cpel_compare_pane_get_view (pane);
  g_assert_true (view->a.has_selection);
  g_assert_true (view->b.has_selection);
  cpel_file_get_track_event (view->a.file, view->a.selected_slot, view->a.selected_index, &event);
  g_assert_cmpint (event.time_ns, ==, 100);
  cpel_file_get_track_event (view->b.file, view->b.selected_slot, view->b.selected_index, &event);
  g_assert_cmpint (event.time_ns, ==, 300);

  g_assert_true (gtk_widget_activate_action (widget, "compare.align", NULL));
  view = cpel_compare_pane_get_view (pane);
  g_assert_cmpint (view->offset_b, ==, 200);
  g_assert_cmpint (view->a.ruler_origin, ==, 100);
  g_assert_cmpint (view->b.ruler_origin, ==, 300);
  /* drawn at one x; A has not moved */
  g_assert_cmpfloat (cpel_view_time_to_x (&view->b, width, 300), ==,
                     cpel_view_time_to_x (&view->a, width, 100));
  g_assert_cmpint (view->a.t0, ==, 0);
  g_assert_cmpint (view->a.t1, ==, 1000);
  /* the offset dialog shows it: B drawn 200 ns earlier */
  app_test_activate_action (GTK_WIDGET (f->window), "compare-offset-dialog", NULL);
  {
    AdwMessageDialog *dialog = NULL;

    app_test_wait_until ((dialog = find_offset_dialog ()) != NULL, 30);
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog))),
                     ==, "-200ns");
    adw_message_dialog_response (dialog, "cancel");
  }

  /* swapped: the same alignment seen from B */
  app_test_activate_action (GTK_WIDGET (f->window), "swap-compare", NULL);
  view = cpel_compare_pane_get_view (pane);
  g_assert_cmpint (view->offset_b, ==, -200);
  g_assert_cmpint (view->a.ruler_origin, ==, 300);
  g_assert_cmpint (view->b.ruler_origin, ==, 100);
  app_test_activate_action (GTK_WIDGET (f->window), "swap-compare", NULL);

  g_assert_true (gtk_widget_activate_action (widget, "compare.reset-alignment", NULL));
  view = cpel_compare_pane_get_view (pane);
  g_assert_cmpint (view->offset_b, ==, 0);
  g_assert_cmpint (view->a.ruler_origin, ==, 0);
}

/* B read before A (as `cpelview --compare A B` may): when A is open the
 * compare view shows, and stays once A's load is over. */
static void
test_b_first (Fixture *f, gconstpointer data)
{
  g_autoptr(GFile) b = g_file_new_for_path (f->b);
  CpelWindow *window = cpel_window_new (f->app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 600);
  gtk_window_present (GTK_WINDOW (window));
  cpel_window_compare_with (window, b);
  /* B is read: the window waits for A */
  app_test_wait_until (cpel_window_get_compare_file (window) != NULL, 30);
  g_assert_null (cpel_window_get_file (window));
  app_test_open_and_wait (window, f->a);
  app_test_wait_until (cpel_window_is_comparing (window), 60);
  app_test_drain ();
  g_assert_true (cpel_window_is_comparing (window));
  g_assert_false (cpel_window_is_loading (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "a.cpel — b.cpel");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A view saved while comparing keeps the alignment and the panes' range;
 * shown again (after Reset Alignment) it puts them back. */
static void
test_saved_view (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelSavedView) saved = NULL;
  CpelComparePane *pane;
  const CpelCompareView *view;

  compare_and_wait (f, f->b);
  pane = CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window));
  cpel_compare_pane_set_alignment (pane, 200, 100);
  cpel_compare_pane_set_range (pane, -300, 700);
  saved = cpel_window_capture_view (f->window, "aligned");
  g_assert_true (saved->has_alignment);
  g_assert_cmpint (saved->compare_offset, ==, 200);
  g_assert_cmpint (saved->compare_origin, ==, 100);
  g_assert_cmpint (saved->t0, ==, -300);
  g_assert_cmpint (saved->t1, ==, 700);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pane), "compare.reset-alignment", NULL));
  cpel_compare_pane_zoom_fit (pane);
  cpel_window_apply_view (f->window, saved);
  view = cpel_compare_pane_get_view (pane);
  g_assert_cmpint (view->offset_b, ==, 200);
  g_assert_cmpint (view->a.ruler_origin, ==, 100);
  g_assert_cmpint (view->a.t0, ==, -300);
  g_assert_cmpint (view->a.t1, ==, 700);

  /* an alignment from a file is kept where it cannot overflow */
  saved->compare_offset = G_MININT64;
  saved->compare_origin = G_MAXINT64;
  cpel_window_apply_view (f->window, saved);
  app_test_wait_drawn (GTK_WIDGET (pane));
  view = cpel_compare_pane_get_view (pane);
  g_assert_cmpint (view->offset_b, ==, -(G_GINT64_CONSTANT (1) << 60));
  g_assert_cmpint (view->a.ruler_origin, ==, G_GINT64_CONSTANT (1) << 60);
  cpel_compare_pane_zoom_fit (pane);
  app_test_wait_drawn (GTK_WIDGET (pane));

  /* a view saved in the single view leaves the alignment as it is */
  cpel_compare_pane_set_alignment (pane, 50, 0);
  saved->has_alignment = FALSE;
  cpel_window_apply_view (f->window, saved);
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->offset_b, ==, 50);
}

/* Zoom history, the measure band and the cursor line act on both panes:
 * Alt+Left goes back to the range before, a drag across the ruler measures
 * (drawn in both panes), the pointer's time is a line across both. */
static void
test_history_measure_cursor (Fixture *f, gconstpointer data)
{
  GtkWidget *widget;
  CpelComparePane *pane;
  const CpelCompareView *view;
  double width, height, top_b, ph;
  cairo_surface_t *image = NULL, *plain = NULL;

  compare_and_wait (f, f->b);
  widget = cpel_window_get_compare_pane (f->window);
  pane = CPEL_COMPARE_PANE (widget);
  view = cpel_compare_pane_get_view (pane);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);

  /* history */
  g_assert_false (cpel_compare_pane_go_back (pane));
  cpel_compare_pane_set_range (pane, 0, 1000);
  cpel_compare_pane_zoom (pane, 0.5, 500);
  g_assert_cmpint (view->a.t0, ==, 250);
  g_assert_cmpint (view->a.t1, ==, 750);
  g_assert_true (gtk_widget_activate_action (widget, "compare.back", NULL));
  g_assert_cmpint (view->a.t0, ==, 0);
  g_assert_cmpint (view->a.t1, ==, 1000);
  g_assert_true (gtk_widget_activate_action (widget, "compare.forward", NULL));
  g_assert_cmpint (view->a.t0, ==, 250);
  view = cpel_compare_pane_get_view (pane);
  g_assert_cmpint (view->b.t0, ==, 250);   /* B follows */
  if (app_test_can_send_input ())
    {
      /* Alt+Left: back, not a pan */
      app_test_focus (widget);
      app_test_xdo ("key", "--clearmodifiers", "alt+Left", NULL);
      app_test_wait_until (cpel_compare_pane_get_view (pane)->a.t0 == 0, 30);
      g_assert_cmpint (cpel_compare_pane_get_view (pane)->a.t1, ==, 1000);
    }
  else
    cpel_compare_pane_go_back (pane);

  /* the measure band crosses both panes */
  cpel_compare_pane_set_range (pane, 0, 1000);
  if (app_test_can_send_input ())
    {
      int rx0, ry, rx1, ry1;
      g_autofree char *sx0 = NULL, *sy = NULL, *sx1 = NULL;

      app_test_to_root (widget, cpel_view_time_to_x (&view->a, width, 200), view->a.ruler_height / 2, &rx0, &ry);
      app_test_to_root (widget, cpel_view_time_to_x (&view->a, width, 600), view->a.ruler_height / 2, &rx1, &ry1);
      sx0 = g_strdup_printf ("%d", rx0);
      sy = g_strdup_printf ("%d", ry);
      sx1 = g_strdup_printf ("%d", rx1);
      app_test_xdo ("mousemove", "--sync", sx0, sy, "mousedown", "1", NULL);
      app_test_xdo ("mousemove", "--sync", sx1, sy, NULL);
      app_test_xdo ("mouseup", "1", NULL);
    }
  else
    cpel_compare_pane_set_measure (pane, 200, 600);
  view = cpel_compare_pane_get_view (pane);
  g_assert_true (view->a.has_measure);
  g_assert_cmpint (llabs (view->a.measure_t0 - 200), <=, 5);
  g_assert_cmpint (llabs (view->a.measure_t1 - 600), <=, 5);
  /* the cursor line at the pointer, across both panes */
  if (app_test_can_send_input ())
    {
      app_test_pointer_to (widget, cpel_view_time_to_x (&view->a, width, 800), height - 5);
      /* until the motion to 800 is handled: the cursor may still show
       * where the drag above left it */
      app_test_wait_until (cpel_compare_pane_get_view (pane)->a.has_cursor
                           && llabs (cpel_compare_pane_get_view (pane)->a.cursor_t - 800) <= 5, 30);
    }

  cpel_compare_view_pane (view, height, CPEL_COMPARE_B, &top_b, &ph);
  app_test_wait_until ((image = app_test_widget_image (widget)) != NULL, 30);
  cpel_compare_pane_clear_measure (pane);
  g_assert_false (cpel_compare_pane_get_view (pane)->a.has_measure);
  app_test_wait_until ((plain = app_test_widget_image (widget)) != NULL, 30);
  {
    /* the band tints A's rows and B's rows alike */
    int x = (int) cpel_view_time_to_x (&view->a, width, 450);
    int ya = (int) (view->a.ruler_height + view->header_height + 2);
    int yb = (int) (top_b + view->header_height + 2);

    g_assert_cmphex (pixel (image, x, ya) & 0xffffff, !=, pixel (plain, x, ya) & 0xffffff);
    g_assert_cmphex (pixel (image, x, yb) & 0xffffff, !=, pixel (plain, x, yb) & 0xffffff);
    /* outside it, nothing changed */
    x = (int) cpel_view_time_to_x (&view->a, width, 100);
    g_assert_cmphex (pixel (image, x, yb) & 0xffffff, ==, pixel (plain, x, yb) & 0xffffff);
  }
  cairo_surface_destroy (image);
  cairo_surface_destroy (plain);
}

/* Print draws both panes: the header names both, the page holds B's
 * header (its badge colour), the PDF is written. */
static void
test_print (Fixture *f, gconstpointer data)
{
  g_autofree char *pdf_single = g_build_filename (f->dir, "single.pdf", NULL);
  g_autofree char *pdf_both = g_build_filename (f->dir, "both.pdf", NULL);
  g_autofree char *header = NULL;
  g_autofree char *single = NULL;
  g_autofree char *both = NULL;
  gsize single_len = 0, both_len = 0;
  g_autoptr(GError) error = NULL;
  const CpelCompareView *view;
  cairo_surface_t *surface;
  cairo_t *cr;
  CpelPalette light;
  guint32 badge;
  guint n_badge = 0;

  g_assert_true (cpel_print_window (f->window, pdf_single, &error));
  g_assert_no_error (error);
  compare_and_wait (f, f->b);
  view = cpel_compare_pane_get_view (CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window)));
  header = cpel_print_header (f->window);
  g_assert_true (g_str_has_prefix (header, "a.cpel — b.cpel — "));

  cpel_palette_init_light (&light);
  badge = ((guint32) (light.highlight.r * 255 + 0.5) << 16 | (guint32) (light.highlight.g * 255 + 0.5) << 8
           | (guint32) (light.highlight.b * 255 + 0.5));
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 842, 595);
  cr = cairo_create (surface);
  cpel_print_draw_compare_page (cr, 842, 595, view, 1000, 600, header);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  for (int y = 0; y < 595; y++)
    for (int x = 0; x < 60; x++)
      n_badge += (pixel (surface, x, y) & 0xffffff) == badge;
  g_assert_cmpuint (n_badge, >, 20);
  cairo_surface_destroy (surface);

  g_assert_true (cpel_print_window (f->window, pdf_both, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (pdf_single, &single, &single_len, NULL));
  g_assert_true (g_file_get_contents (pdf_both, &both, &both_len, NULL));
  g_assert_true (g_str_has_prefix (both, "%PDF"));
  /* two panes: far more drawn than the single view's page (16.8 kB and
   * 20.5 kB when written; a longer header alone adds some bytes) */
  g_assert_cmpuint (both_len, >, single_len + 2000);
  g_unlink (pdf_single);
  g_unlink (pdf_both);
}

/* Whether a label under `widget` reads `text`. */
static gboolean
has_label (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (has_label (c, text))
      return TRUE;
  return FALSE;
}

static CpelStatsWindow *
wait_statistics (Fixture *f)
{
  CpelStatsWindow *stats = CPEL_STATS_WINDOW (cpel_window_get_statistics (f->window));

  g_assert_nonnull (stats);
  app_test_wait_until (!cpel_stats_window_is_busy (stats) && cpel_stats_window_get_stats (stats) != NULL, 30);
  app_test_drain ();
  return stats;
}

/* One shown row of a Compare table against the core's row of that name. */
static void
check_diff_row (CpelTableRow *row, const CpelDiffRow *want, gboolean events)
{
  g_autofree char *count_a = cpel_format_count (want->count_a);
  g_autofree char *count_b = cpel_format_count (want->count_b);

  g_assert_cmpfloat (cpel_table_row_get_key (row, 1), ==, (double) want->count_a);
  g_assert_cmpfloat (cpel_table_row_get_key (row, 2), ==, (double) want->count_b);
  g_assert_cmpfloat (cpel_table_row_get_key (row, 3), ==, (double) want->count_delta);
  g_assert_cmpstr (cpel_table_row_get_text (row, 1), ==, count_a);
  g_assert_cmpstr (cpel_table_row_get_text (row, 2), ==, count_b);
  if (!events)
    return;
  if (want->n_intervals_a > 0)
    g_assert_cmpfloat (cpel_table_row_get_key (row, 4), ==, want->mean_a);
  else
    g_assert_cmpstr (cpel_table_row_get_text (row, 4), ==, "—");
  if (want->n_intervals_b > 0)
    g_assert_cmpfloat (cpel_table_row_get_key (row, 5), ==, want->mean_b);
  else
    g_assert_cmpstr (cpel_table_row_get_text (row, 5), ==, "—");
}

/* Statistics while comparing: a Compare page (per event name) and a
 * Compare Tracks page (per label) whose numbers are the core diff model's
 * (= `cpel diff A B`), the selected row's histograms drawn in both
 * colours; gone again when B is closed. */
static void
test_statistics (Fixture *f, gconstpointer data)
{
  CpelStatsWindow *stats;
  g_autoptr(CpelDiff) want = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *rows;
  CpelFile *file_a, *file_b;
  g_autofree char *csv_path = g_build_filename (f->dir, "compare.csv", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv_path);
  g_autofree char *csv = NULL;
  CpelPalette light;
  cairo_surface_t *image = NULL;
  GtkWidget *area;
  gboolean found_a = FALSE, found_b = FALSE;

  /* not comparing: no Compare pages */
  app_test_activate_action (GTK_WIDGET (f->window), "statistics", NULL);
  stats = wait_statistics (f);
  g_assert_false (cpel_stats_window_has_compare_pages (stats));
  g_assert_null (cpel_stats_window_get_diff (stats));

  /* comparing: the open window counts the pair */
  compare_and_wait (f, f->b);
  app_test_wait_until (cpel_stats_window_get_diff (stats) != NULL, 30);
  stats = wait_statistics (f);
  g_assert_true (cpel_stats_window_has_compare_pages (stats));
  file_a = cpel_compare_pane_get_file_a (CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window)));
  file_b = cpel_compare_pane_get_file_b (CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window)));
  want = cpel_diff_compute (file_a, file_b, NULL, NULL, &error);
  g_assert_no_error (error);
  /* the Event Codes and Tracks pages count A only, and say so */
  {
    AdwViewStack *pages = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                        CPEL_TYPE_STATS_WINDOW,
                                                                        "view_stack"));
    GtkLabel *range = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                               CPEL_TYPE_STATS_WINDOW,
                                                               "range_label"));
    g_autofree char *page = g_strdup (adw_view_stack_get_visible_child_name (pages));

    adw_view_stack_set_visible_child_name (pages, "codes");
    app_test_wait_until (g_str_has_prefix (gtk_label_get_text (range), "A only ("), 30);
    g_test_message ("codes page: %s", gtk_label_get_text (range));
    adw_view_stack_set_visible_child_name (pages, "tracks");
    g_assert_true (g_str_has_prefix (gtk_label_get_text (range), "A only ("));
    adw_view_stack_set_visible_child_name (pages, page);
  }

  rows = cpel_stats_window_get_compare_rows (stats, CPEL_DIFF_BY_EVENTS);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, cpel_diff_get_n_rows (want, CPEL_DIFF_BY_EVENTS));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 6);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(CpelTableRow) row = g_list_model_get_item (rows, i);
      const CpelDiffRow *w = cpel_diff_lookup (want, CPEL_DIFF_BY_EVENTS, cpel_table_row_get_text (row, 0));

      g_assert_nonnull (w);
      check_diff_row (row, w, TRUE);
    }
  /* the planted differences, as shown */
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(CpelTableRow) row = g_list_model_get_item (rows, i);
      const char *name = cpel_table_row_get_text (row, 0);

      if (g_strcmp0 (name, "double") == 0)
        {
          g_assert_cmpstr (cpel_table_row_get_text (row, 3), ==, "+5");
          g_assert_cmpstr (cpel_table_row_get_text (row, 6), ==, "−50.0 %");
        }
      else if (g_strcmp0 (name, "slow") == 0)
        g_assert_cmpstr (cpel_table_row_get_text (row, 6), ==, "+200.0 %");
      else if (g_strcmp0 (name, "only-a") == 0)
        {
          g_assert_cmpstr (cpel_table_row_get_text (row, 3), ==, "−4");
          g_assert_cmpstr (cpel_table_row_get_text (row, 6), ==, "—");
        }
    }

  rows = cpel_stats_window_get_compare_rows (stats, CPEL_DIFF_BY_TRACKS);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 3);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(CpelTableRow) row = g_list_model_get_item (rows, i);
      const CpelDiffRow *w = cpel_diff_lookup (want, CPEL_DIFF_BY_TRACKS, cpel_table_row_get_text (row, 0));

      g_assert_nonnull (w);
      check_diff_row (row, w, FALSE);
    }

  /* Save as CSV: exactly `cpel diff --csv` */
  g_assert_true (cpel_stats_window_save_compare_csv (stats, csv_file, CPEL_DIFF_BY_EVENTS, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_cmpstr (csv, ==, CPEL_TEST_PAIR_CSV);
  g_clear_pointer (&csv, g_free);
  g_assert_true (cpel_stats_window_save_compare_csv (stats, csv_file, CPEL_DIFF_BY_TRACKS, &error));
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_cmpstr (csv, ==, CPEL_TEST_PAIR_TRACKS_CSV);

  /* the first row ("double", selected) drawn as two histograms: A's
   * accent and B's highlight colour both present */
  area = app_test_find_descendant (GTK_WIDGET (stats), GTK_TYPE_DRAWING_AREA);
  g_assert_nonnull (area);
  gtk_window_set_default_size (GTK_WINDOW (stats), 760, 560);
  gtk_window_present (GTK_WINDOW (stats));
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (app_test_find_descendant (GTK_WIDGET (stats), ADW_TYPE_VIEW_STACK)),
                                         "compare");
  app_test_wait_drawn (area);
  /* the header says what the Compare pages count */
  g_assert_true (has_label (GTK_WIDGET (stats), "a.cpel — b.cpel, whole captures"));
  {
    g_autofree char *a = cpel_format_count (cpel_diff_get_total_a (want));
    g_autofree char *b = cpel_format_count (cpel_diff_get_total_b (want));
    g_autofree char *summary = g_strdup_printf ("Events: %s in A · %s in B", a, b);

    g_assert_true (has_label (GTK_WIDGET (stats), summary));
  }
  app_test_wait_until ((image = app_test_widget_image (area)) != NULL, 30);
  /* (bars at 60 % over the background: A bluish, B yellowish; the
   * text and axes are grey) */
  cpel_palette_init_light (&light);
  g_assert_true (light.accent.b > light.accent.r + 0.2);
  g_assert_true (light.highlight.r > light.highlight.b + 0.2);
  for (int y = 0; y < cairo_image_surface_get_height (image); y++)
    for (int x = 0; x < cairo_image_surface_get_width (image); x++)
      {
        guint32 p = pixel (image, x, y);
        int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

        found_a |= b > r + 50;
        found_b |= r > b + 50 && g > b + 30;
      }
  cairo_surface_destroy (image);
  g_assert_true (found_a);
  g_assert_true (found_b);

  /* Save Histogram: the same two histograms as a PNG of the asked size */
  {
    g_autofree char *png_path = g_build_filename (f->dir, "histogram.png", NULL);
    g_autoptr(GFile) png_file = g_file_new_for_path (png_path);
    cairo_surface_t *png;
    gboolean png_a = FALSE, png_b = FALSE;

    g_assert_true (cpel_stats_window_save_histogram (stats, png_file, 640, 320, &error));
    g_assert_no_error (error);
    png = cairo_image_surface_create_from_png (png_path);
    g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
    g_assert_cmpint (cairo_image_surface_get_width (png), ==, 640);
    g_assert_cmpint (cairo_image_surface_get_height (png), ==, 320);
    for (int y = 0; y < 320; y++)
      for (int x = 0; x < 640; x++)
        {
          guint32 p = pixel (png, x, y);
          int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

          png_a |= b > r + 50;
          png_b |= r > b + 50 && g > b + 30;
        }
    cairo_surface_destroy (png);
    g_assert_true (png_a);
    g_assert_true (png_b);
  }

  /* Copy as Text on the Compare pages: `cpel diff`'s table */
  {
    AdwViewStack *pages = ADW_VIEW_STACK (app_test_find_descendant (GTK_WIDGET (stats), ADW_TYPE_VIEW_STACK));
    g_autofree char *text = cpel_stats_window_get_text (stats);
    g_autofree char *expected = cpel_diff_to_text (want, CPEL_DIFF_BY_EVENTS, "a.cpel", "b.cpel");
    g_autofree char *text_tracks = NULL;
    g_autofree char *expected_tracks = cpel_diff_to_text (want, CPEL_DIFF_BY_TRACKS, "a.cpel", "b.cpel");

    g_assert_cmpstr (text, ==, expected);
    adw_view_stack_set_visible_child_name (pages, "compare-tracks");
    text_tracks = cpel_stats_window_get_text (stats);
    g_assert_cmpstr (text_tracks, ==, expected_tracks);
    adw_view_stack_set_visible_child_name (pages, "compare");
  }

  /* activating a row searches its name in both panes */
  {
    GtkWidget *table = app_test_find_descendant (app_test_find_descendant (GTK_WIDGET (stats), GTK_TYPE_PANED),
                                        GTK_TYPE_COLUMN_VIEW);
    CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
    gboolean done = FALSE;
    gulong id = g_signal_connect (bar, "search-finished", G_CALLBACK (on_finished), &done);
    g_autoptr(CpelTableRow) first = g_list_model_get_item (cpel_stats_window_get_compare_rows (stats, CPEL_DIFF_BY_EVENTS), 0);
    const char *status;

    g_assert_cmpstr (cpel_table_row_get_text (first, 0), ==, "double");
    g_signal_emit_by_name (table, "activate", 0);
    /* opening the bar settles its previous (empty) query at once, with
     * "search-finished": the row's search is the one still running then */
    app_test_wait_until (done && !cpel_search_bar_is_running (bar), 60);
    g_signal_handler_disconnect (bar, id);
    app_test_drain ();
    status = cpel_search_bar_get_status (bar);
    g_assert_nonnull (strstr (status, "5 in A"));
    g_assert_nonnull (strstr (status, "10 in B"));
  }

  /* event types hidden in the panes (by name) are not counted */
  {
    CpelTimeline *timeline = cpel_window_get_timeline (f->window);
    CpelFile *a = cpel_window_get_file (f->window);
    g_autofree guint8 *hidden = g_malloc0 (cpel_file_get_n_types (a));

    hidden[cpel_test_type_named (a, "double")] = 1;
    cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
    cpel_stats_window_refresh (stats);
    stats = wait_statistics (f);
    g_assert_nonnull (cpel_stats_window_get_diff (stats));
    g_assert_null (cpel_diff_lookup (cpel_stats_window_get_diff (stats), CPEL_DIFF_BY_EVENTS, "double"));
    g_assert_cmpuint (g_list_model_get_n_items (cpel_stats_window_get_compare_rows (stats, CPEL_DIFF_BY_EVENTS)), ==, 5);
    g_assert_cmpuint (cpel_diff_get_total_a (cpel_stats_window_get_diff (stats)), ==, cpel_diff_get_total_a (want) - 5);
    g_assert_cmpuint (cpel_diff_get_total_b (cpel_stats_window_get_diff (stats)), ==, cpel_diff_get_total_b (want) - 10);
    cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), NULL);
    cpel_stats_window_refresh (stats);
    stats = wait_statistics (f);
    g_assert_nonnull (cpel_diff_lookup (cpel_stats_window_get_diff (stats), CPEL_DIFF_BY_EVENTS, "double"));
  }

  /* Swap: counted again, the other way round */
  app_test_activate_action (GTK_WIDGET (f->window), "swap-compare", NULL);
  app_test_wait_until (cpel_stats_window_get_diff (stats) != NULL
                       && cpel_diff_lookup (cpel_stats_window_get_diff (stats), CPEL_DIFF_BY_EVENTS, "double")->count_a == 10,
                       30);
  stats = wait_statistics (f);
  g_assert_cmpuint (cpel_diff_lookup (cpel_stats_window_get_diff (stats), CPEL_DIFF_BY_EVENTS, "only-b")->count_a, ==, 1);

  /* closing B: the pages go */
  cpel_window_close_compare (f->window);
  app_test_wait_until (cpel_stats_window_get_diff (stats) == NULL, 30);
  stats = wait_statistics (f);
  g_assert_false (cpel_stats_window_has_compare_pages (stats));
  g_assert_cmpuint (g_list_model_get_n_items (cpel_stats_window_get_compare_rows (stats, CPEL_DIFF_BY_EVENTS)), ==, 0);
}

/* Each pane draws its capture's label formats: A the session's (the single
 * view's), B those of B's views file; the details headline of a selected
 * event follows them; after a swap each side keeps its file's. */
static void
test_labels (Fixture *f, gconstpointer data)
{
  static const char *const formats_b[] = {
    "same", "B {event}", "double", "B {event}", "slow", "B {event}",
    "only-b", "B {event}", "dup", "B {event}", NULL
  };
  static const char *const formats_a[] = {
    "same", "A {event}", "double", "A {event}", "slow", "A {event}",
    "only-a", "A {event}", "dup", "A {event}", NULL
  };
  CpelSession *session = cpel_timeline_get_session (cpel_window_get_timeline (f->window));
  CpelDetails *details = cpel_window_get_details (f->window);
  g_autoptr(CpelViews) views = cpel_views_new (f->b);
  g_autoptr(CpelLabels) mine = NULL;
  g_autoptr(GError) error = NULL;
  CpelComparePane *pane;
  const CpelCompareView *view;
  CpelFile *file_a, *file_b;

  cpel_views_set_label_formats (views, formats_b);
  g_assert_true (cpel_views_save (views, &error));
  g_assert_no_error (error);
  mine = cpel_labels_new_with_formats (cpel_session_get_labels (session), formats_a);
  cpel_session_set_labels (session, mine);

  compare_and_wait (f, f->b);
  pane = CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window));
  view = cpel_compare_pane_get_view (pane);
  file_a = cpel_compare_pane_get_file_a (pane);
  file_b = cpel_compare_pane_get_file_b (pane);
  g_assert_true (view->a.labels == cpel_session_get_labels (session));
  g_assert_nonnull (view->b.labels);
  g_assert_true (cpel_labels_get_file (view->b.labels) == file_b);
  g_assert_cmpstr (cpel_labels_get_format (view->b.labels, cpel_test_type_named (file_b, "double")),
                   ==, "B {event}");

  g_object_set (f->window, "show-details", TRUE, NULL);
  cpel_compare_pane_select (pane, CPEL_COMPARE_B, 0, 0);
  g_assert_true (g_str_has_prefix (cpel_details_get_value (details, "headline"), "B "));
  cpel_compare_pane_select (pane, CPEL_COMPARE_A, 0, 0);
  g_assert_true (g_str_has_prefix (cpel_details_get_value (details, "headline"), "A "));

  /* A's formats changed in Event Types: the pane follows */
  {
    g_autoptr(CpelLabels) plain = cpel_labels_new (file_a);

    cpel_session_set_labels (session, plain);
    g_assert_true (view->a.labels == plain);
  }

  /* swapped: B (now on top) keeps its own formats */
  app_test_activate_action (GTK_WIDGET (f->window), "swap-compare", NULL);
  view = cpel_compare_pane_get_view (pane);
  g_assert_true (view->a.file == file_b);
  g_assert_nonnull (view->a.labels);
  g_assert_true (cpel_labels_get_file (view->a.labels) == file_b);
  g_assert_true (cpel_labels_get_file (view->b.labels) == file_a);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window/compare");
  g_test_add ("/app/window/compare/both-panes", Fixture, NULL, fixture_setup, test_both_panes, fixture_teardown);
  g_test_add ("/app/window/compare/title", Fixture, NULL, fixture_setup, test_title, fixture_teardown);
  g_test_add ("/app/window/compare/search", Fixture, NULL, fixture_setup, test_search, fixture_teardown);
  g_test_add ("/app/window/compare/filters", Fixture, NULL, fixture_setup, test_filters, fixture_teardown);
  g_test_add ("/app/window/compare/align", Fixture, NULL, fixture_setup, test_align, fixture_teardown);
  g_test_add ("/app/window/compare/b-first", Fixture, NULL, fixture_setup, test_b_first, fixture_teardown);
  g_test_add ("/app/window/compare/saved-view", Fixture, NULL, fixture_setup, test_saved_view, fixture_teardown);
  g_test_add ("/app/window/compare/history-measure-cursor", Fixture, NULL, fixture_setup, test_history_measure_cursor, fixture_teardown);
  g_test_add ("/app/window/compare/print", Fixture, NULL, fixture_setup, test_print, fixture_teardown);
  g_test_add ("/app/window/compare/bad-b", Fixture, NULL, fixture_setup, test_bad_b, fixture_teardown);
  g_test_add ("/app/window/compare/details", Fixture, NULL, fixture_setup, test_details,
              fixture_teardown);
  g_test_add ("/app/window/compare/statistics", Fixture, NULL, fixture_setup, test_statistics, fixture_teardown);
  g_test_add ("/app/window/compare/labels", Fixture, NULL, fixture_setup, test_labels,
              fixture_teardown);
  g_test_add ("/app/window/compare/offset-enter", Fixture, NULL, fixture_setup, test_offset_enter, fixture_teardown);
  return g_test_run ();
}
