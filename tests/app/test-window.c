/* SPDX-License-Identifier: Apache-2.0 */
/* test-window.c — the viewer window: loading (good and bad files), title,
 * search (modes, counts, errors, stepping), details pane, status line,
 * export, recent files; and real keyboard / pointer input via xdotool. */
#include "config.h"

#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-app-util.h"
#include "cpel-application.h"
#include "cpel-export-chooser.h"
#include "cpel-file-info-row.h"
#include "cpel-gen.h"
#include "cpel-import.h"
#include "cpel-loader.h"
#include "cpel-settings.h"
#include "cpel-window.h"

#define N_EVENTS 3000
#define N_TRACKS 3
#define STEP_NS  100
#define N_RECV   429     /* i % 7 == 0 for i < 3000 */

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
event_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i * STEP_NS;
  ev->track = (guint32) (i % N_TRACKS);
  ev->code = i % 7 == 0 ? CODE_RECV : CODE_SEND;
  ev->datum = (guint32) i;
}

/* The test file on disk: same events as the in-memory builder. */
static void
write_file (const char *path)
{
  test_write_capture (path, N_TRACKS, N_EVENTS, event_func, NULL);
}

/* data "": the window stays empty. */
static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-test", write_file, 1100, 700, data == NULL);
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

static gboolean
action_enabled (CpelWindow *window, const char *name)
{
  return app_test_action_enabled (GTK_WIDGET (window), name);
}

/* ---- loading ----------------------------------------------------------- */

/* Actions of the tools installed beside the window, usable with a file only. */
static const char *file_actions[] = {
  "print", "statistics", "anomalies", "anomaly-next", "anomaly-previous", "save-range", "save-range-to",
  "row-height", "sort-tracks",
};

/* The toggle button under `widget` bound to `action`, or NULL. */
static GtkWidget *
find_toggle_with_action (GtkWidget *widget, const char *action)
{
  if (GTK_IS_TOGGLE_BUTTON (widget)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_toggle_with_action (c, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The window's main stack: the empty page, the loading page, the view. */
static gboolean
is_main_stack (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_STACK (widget) && gtk_stack_get_child_by_name (GTK_STACK (widget), "empty") != NULL
         && gtk_stack_get_child_by_name (GTK_STACK (widget), "loading") != NULL;
}

/* meson -Dprofile=development: another application id (beside an installed
 * viewer), and windows marked as a development build (libadwaita's
 * stripes); the default profile: neither. */
static void
test_profile (Fixture *f, gconstpointer data)
{
  gboolean devel = g_str_equal (PROFILE, "development");

  SKIP_WITHOUT_DISPLAY ();
  g_assert_cmpstr (g_application_get_application_id (G_APPLICATION (app)), ==,
                   devel ? BASE_ID ".Devel" : BASE_ID);
  g_assert_cmpstr (APP_ID, ==, g_application_get_application_id (G_APPLICATION (app)));
  g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (f->window), "devel"), ==, devel);
}

static void
test_empty (Fixture *f, gconstpointer data)
{
  SKIP_WITHOUT_DISPLAY ();
  g_assert_null (cpel_window_get_file (f->window));
  g_assert_false (action_enabled (f->window, "export"));
  g_assert_false (action_enabled (f->window, "search"));
  /* The tools' actions wait for a file too (cpel_window_tools_add_file_actions). */
  for (guint i = 0; i < G_N_ELEMENTS (file_actions); i++)
    g_assert_false (action_enabled (f->window, file_actions[i]));
  g_assert_true (action_enabled (f->window, "open"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "CPEL Viewer");
  /* No details toggle that looks pressed while there is nothing to show,
   * even when the details pane was left open last time. */
  {
    GtkWidget *button = find_toggle_with_action (GTK_WIDGET (f->window), "win.show-details");

    g_assert_nonnull (button);
    g_assert_false (gtk_widget_get_visible (button));
  }
  /* The empty page invites to open any event log the viewer reads, not
   * only CPEL: its description names every importer's format. */
  {
    GtkWidget *stack = app_test_find_widget (GTK_WIDGET (f->window), is_main_stack, NULL);
    AdwStatusPage *page;
    AdwSplitButton *open = ADW_SPLIT_BUTTON (app_test_find_descendant (GTK_WIDGET (f->window),
                                                                      ADW_TYPE_SPLIT_BUTTON));
    const char *description;

    g_assert_nonnull (stack);
    page = ADW_STATUS_PAGE (gtk_stack_get_child_by_name (GTK_STACK (stack), "empty"));
    description = adw_status_page_get_description (page);
    g_assert_cmpstr (adw_status_page_get_title (page), ==, "Open an Event Log");
    g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (open)), ==, "Open an Event Log");
    for (const CpelImporter * const *imp = cpel_importers (); *imp != NULL; imp++)
      if (strstr (description, (*imp)->name) == NULL)
        g_error ("the empty page's description \"%s\" does not name %s", description, (*imp)->name);
  }
}

/* The search bar's progress bar keeps its room while hidden: nothing in
 * the bar moves sideways when "Searching…" and the progress show. */
static void
test_search_bar_steady (Fixture *f, gconstpointer data)
{
  CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
  GtkWidget *progress;
  graphene_rect_t before, during;
  GtkWidget *entry;

  SKIP_WITHOUT_DISPLAY ();
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL);
  progress = app_test_find_descendant (GTK_WIDGET (bar), GTK_TYPE_PROGRESS_BAR);
  entry = app_test_find_descendant (GTK_WIDGET (bar), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (progress);
  g_assert_nonnull (entry);
  app_test_wait_frames (GTK_WIDGET (f->window), 2);
  g_assert_false (cpel_search_bar_is_busy_shown (bar));
  g_assert_true (gtk_widget_get_visible (progress));
  g_assert_true (gtk_widget_compute_bounds (entry, GTK_WIDGET (f->window), &before));
  g_assert_cmpint (gtk_widget_get_width (progress), >=, 72);
  /* Showing it changes opacity only. */
  gtk_widget_set_opacity (progress, 1);
  app_test_wait_frames (GTK_WIDGET (f->window), 2);
  g_assert_true (gtk_widget_compute_bounds (entry, GTK_WIDGET (f->window), &during));
  g_assert_cmpfloat (before.origin.x, ==, during.origin.x);
  g_assert_cmpfloat (before.size.width, ==, during.size.width);
  gtk_widget_set_opacity (progress, 0);
}

static void
on_view_changed_count (CpelTimeline *timeline, guint *count)
{
  (*count)++;
}

/* The timeline's every allocation (the search bar revealed, a window
 * resized) tells the search bar its view changed: without matches to
 * filter that is no change, and the status line keeps what it says.  It
 * was cleared then, in the middle of a layout, and GTK painted the bar
 * without an allocation ("Trying to snapshot CpelSearchBar … without a
 * current allocation", `cpelview --benchmark` on 10^7 events). */
static void
test_search_status_steady (Fixture *f, gconstpointer data)
{
  CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  guint changed = 0;
  gulong handler;

  SKIP_WITHOUT_DISPLAY ();
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.search", NULL);
  app_test_wait_frames (GTK_WIDGET (f->window), 2);
  /* A search stopped before it gave a result: "Stopped", no matches. */
  cpel_search_bar_search (bar, CPEL_SEARCH_CODE, "2", FALSE);
  cpel_search_bar_cancel (bar);
  app_test_wait_until (!cpel_search_bar_is_running (bar), 10);
  g_assert_null (cpel_search_bar_get_result (bar));
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "Stopped");

  handler = g_signal_connect (timeline, "view-changed", G_CALLBACK (on_view_changed_count), &changed);
  gtk_widget_queue_allocate (GTK_WIDGET (timeline));
  app_test_wait_until (changed > 0, 10);
  app_test_wait_frames (GTK_WIDGET (f->window), 2);
  g_signal_handler_disconnect (timeline, handler);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "Stopped");
}

static void
test_load (Fixture *f, gconstpointer data)
{
  CpelFile *file;

  SKIP_WITHOUT_DISPLAY ();
  file = cpel_window_get_file (f->window);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, N_EVENTS);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "capture.cpel");
  g_assert_true (cpel_timeline_get_file (cpel_window_get_timeline (f->window)) == file);
  g_assert_true (action_enabled (f->window, "export"));
  for (guint i = 0; i < G_N_ELEMENTS (file_actions); i++)
    g_assert_true (action_enabled (f->window, file_actions[i]));
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (cpel_window_get_timeline (f->window))));

  /* Remembered as recent (the schema is compiled in the build tree). */
  {
    GSettings *settings = cpel_application_get_settings (app);
    GMenuModel *recent = cpel_application_get_recent_menu (app);
    g_autoptr(GFile) location = g_file_new_for_path (f->path);
    g_autofree char *uri = g_file_get_uri (location);
    g_autoptr(GVariant) target = NULL;

    if (settings != NULL)
      {
        g_auto(GStrv) uris = cpel_settings_get_strv (settings, "recent-views");
        g_assert_cmpstr (uris[0], ==, uri);
      }
    target = g_menu_model_get_item_attribute_value (recent, 0, G_MENU_ATTRIBUTE_TARGET,
                                                    G_VARIANT_TYPE_STRING);
    g_assert_nonnull (target);
    g_assert_cmpstr (g_variant_get_string (target, NULL), ==, uri);
  }

  /* The same file again: a second window (this one keeps its file). */
  {
    guint n = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));

    app_test_open_and_wait (f->window, f->path);
    g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, n + 1);
    g_assert_true (cpel_window_get_file (f->window) == file);
  }
}

static gboolean
has_error_dialog (CpelWindow *parent)
{
  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_window_get_transient_for (l->data) == GTK_WINDOW (parent))
      {
        g_list_free (l);
        return TRUE;
      }
  return FALSE;
}

static void
test_bad_file (Fixture *f, gconstpointer data)
{
  g_autofree char *bad = NULL;
  g_autofree char *contents = NULL;
  gsize len;
  CpelFile *before;
  gint64 t0, t1;

  SKIP_WITHOUT_DISPLAY ();
  /* A truncated copy. */
  g_assert_true (g_file_get_contents (f->path, &contents, &len, NULL));
  bad = g_build_filename (f->dir, "bad.cpel", NULL);
  g_assert_true (g_file_set_contents (bad, contents, len / 2, NULL));

  before = cpel_window_get_file (f->window);
  cpel_timeline_set_range (cpel_window_get_timeline (f->window), 5000, 6000, FALSE);
  app_test_open_and_wait (f->window, bad);

  /* A message, and the previous view as it was. */
  g_assert_true (has_error_dialog (f->window));
  g_assert_true (cpel_window_get_file (f->window) == before);
  cpel_timeline_get_range (cpel_window_get_timeline (f->window), &t0, &t1);
  g_assert_cmpint (t0, ==, 5000);
  g_assert_cmpint (t1, ==, 6000);
  g_assert_true (action_enabled (f->window, "export"));
}

/* The window showing `path` (a second file opens in a new window). */
static CpelFile *
file_shown (const char *given)
{
  CpelFile *found = NULL;
  /* the window's path comes from a GFile: "dir/../x" reads "x" */
  g_autofree char *path = g_canonicalize_filename (given, NULL);

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (found == NULL && CPEL_IS_WINDOW (l->data) && cpel_window_get_file (l->data) != NULL
        && g_strcmp0 (cpel_file_get_path (cpel_window_get_file (l->data)), path) == 0)
      found = cpel_window_get_file (l->data);
  return found;
}

/* The window that shows the file at `path`. */
static CpelWindow *
window_showing (const char *path)
{
  CpelWindow *found = NULL;

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (found == NULL && CPEL_IS_WINDOW (l->data) && cpel_window_get_file (l->data) != NULL
        && g_strcmp0 (cpel_file_get_path (cpel_window_get_file (l->data)), path) == 0)
      found = l->data;
  return found;
}

/* A VPP elog and a Snabb timeline open like CPEL (by content, whatever the
 * name); an elog without events opens too (an empty view, no error). */
static void
test_imported (Fixture *f, gconstpointer data)
{
  static const guint8 empty_elog[] = {
    0, 0, 0, 7, 'e', 'l', 'o', 'g', ' ', 'v', '0', 0, 0, 0, 64,
    0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,   /* save time */
    0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,   /* init time */
    0, 0, 0, 0,                                        /* no types */
    0, 0, 0, 1, 15, 'd', 'e', 'f', 'a', 'u', 'l', 't', /* track "default" */
    0, 0, 0, 0,                                        /* no strings */
    0, 0, 0, 0,                                        /* no events */
  };
  static const char *fixtures[] = { "vpp-elog/workers.elog",
                                    "snabb-timeline/ring64-wrapped.timeline" };
  g_autofree char *empty = NULL;
  CpelFile *file;

  SKIP_WITHOUT_DISPLAY ();
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *path = cpel_test_fixture_file (fixtures[i]);

      app_test_open_and_wait (f->window, path);
      g_assert_false (has_error_dialog (f->window));
      file = file_shown (path);
      g_assert_nonnull (file);
      g_assert_cmpstr (cpel_file_get_imported_from (file), ==, i == 0 ? "elog" : "snabb");
      g_assert_cmpuint (cpel_file_get_n_events (file), ==, i == 0 ? 1065 : 64);
    }
  empty = g_build_filename (f->dir, "no-events.log", NULL);
  g_assert_true (g_file_set_contents (empty, (const char *) empty_elog, sizeof empty_elog, NULL));
  app_test_open_and_wait (f->window, empty);
  g_assert_false (has_error_dialog (f->window));
  file = file_shown (empty);
  g_assert_nonnull (file);
  g_assert_cmpstr (cpel_file_get_imported_from (file), ==, "elog");
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 0);
  /* No rows on a made-up ruler: a page that says there are no events, and
   * why (the elog's header tells). */
  {
    CpelWindow *window = window_showing (empty);
    GtkWidget *stack = app_test_find_widget (GTK_WIDGET (window), is_main_stack, NULL);
    GtkWidget *page;

    g_assert_nonnull (stack);
    g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "no-events");
    page = gtk_stack_get_visible_child (GTK_STACK (stack));
    g_assert_true (ADW_IS_STATUS_PAGE (page));
    g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (page)), ==,
                     "This capture has no events");
    g_assert_cmpstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), ==,
                     "The log’s ring (room for 64 events) was empty when it was saved.");
    g_assert_true (action_enabled (window, "file-info"));
    /* the file gets events (reloaded): the window shows its view */
    {
      g_autofree char *path = cpel_test_fixture_file (fixtures[0]);
      g_autofree char *contents = NULL;
      gsize len;
      CpelFile *before = cpel_window_get_file (window);

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      g_assert_true (g_file_set_contents (empty, contents, len, NULL));
      app_test_activate_action (GTK_WIDGET (window), "reload", NULL);
      while (cpel_window_get_file (window) == before || cpel_window_is_loading (window))
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpuint (cpel_file_get_n_events (cpel_window_get_file (window)), ==, 1065);
      g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "view");
    }
  }
}

static void
test_bad_file_empty_window (Fixture *f, gconstpointer data)
{
  g_autofree char *bad = NULL;

  SKIP_WITHOUT_DISPLAY ();
  bad = g_build_filename (f->dir, "empty.cpel", NULL);
  g_assert_true (g_file_set_contents (bad, "", 0, NULL));
  app_test_open_and_wait (f->window, bad);
  g_assert_true (has_error_dialog (f->window));
  g_assert_null (cpel_window_get_file (f->window));
  g_assert_false (cpel_window_is_loading (f->window));
}

/* The error dialog transient for `parent`, or NULL. */
static AdwMessageDialog *
find_message_dialog (CpelWindow *parent, const char *with_response)
{
  AdwMessageDialog *found = NULL;

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (found == NULL && ADW_IS_MESSAGE_DIALOG (l->data)
        && gtk_widget_get_visible (l->data)
        && gtk_window_get_transient_for (l->data) == GTK_WINDOW (parent)
        && adw_message_dialog_has_response (l->data, with_response))
      found = l->data;
  return found;
}

/* The label under `widget` whose text contains `part`, or NULL. */
static GtkLabel *
find_label_containing (GtkWidget *widget, const char *part)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), part) != NULL)
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label_containing (child, part);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The line of the laid-out label that holds the byte at `needle` (the
 * first occurrence in the layout's text). */
static int
layout_line_of (PangoLayout *layout, const char *needle)
{
  const char *text = pango_layout_get_text (layout);
  const char *at = strstr (text, needle);
  int line = -1, x;

  g_assert_nonnull (at);
  pango_layout_index_to_line_x (layout, (int) (at - text), FALSE, &line, &x);
  return line;
}

/* A file that is no event log: the dialog's body says so plainly, the detail
 * follows it; a long name in the heading is shortened in the middle and
 * never hyphenated. */
static void
test_bad_file_plain (Fixture *f, gconstpointer data)
{
  static const guint8 random_bytes[32] = {
    0x81, 0x3c, 0x00, 0x09, 0x9a, 0x10, 0x42, 0x77, 0x77, 0x61, 0x73, 0x20, 0x77, 0x62, 0xe8, 0x73,
  };
  static const struct { const char *file, *shown; } names[] = {
    { "a_rather_long_capture_name_from_the_lab.cpel", "a_rather_l…e_lab.cpel" },
    { "a_rather_long_capture_name_clock_zero.cpel", "a_rather_l…_zero.cpel" },
    { "nightly build - run 2 of 3.cpel", "nightly bu… of 3.cpel" },
  };

  SKIP_WITHOUT_DISPLAY ();
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *bad = g_build_filename (f->dir, names[i].file, NULL);
      AdwMessageDialog *dialog;
      GtkLabel *heading;
      PangoLayout *layout;
      const char *text, *open, *close;
      GString *name = g_string_new (NULL);
      int line;

      g_assert_true (g_file_set_contents (bad, (const char *) random_bytes, sizeof random_bytes, NULL));
      app_test_open_and_wait (f->window, bad);
      dialog = find_message_dialog (f->window, "close");
      g_assert_nonnull (dialog);
      g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, "This is not a supported event log.");
      g_assert_true (GTK_IS_LABEL (adw_message_dialog_get_extra_child (dialog)));
      g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (adw_message_dialog_get_extra_child (dialog))),
                                "the file starts with 81 3c 00 09"));
      g_assert_true (adw_message_dialog_get_heading_use_markup (dialog));
      g_assert_nonnull (strstr (adw_message_dialog_get_heading (dialog), "insert_hyphens=\"false\""));
      g_assert_false (adw_message_dialog_has_response (dialog, "clock-rate"));

      /* As laid out: the name shortened in the middle, in its quotes, on
       * one line of the heading — never broken inside (after its
       * ellipsis, at a space or a hyphen). */
      app_test_wait_drawn (GTK_WIDGET (dialog));
      heading = find_label_containing (GTK_WIDGET (dialog), "Could Not Open");
      g_assert_nonnull (heading);
      layout = gtk_label_get_layout (heading);
      g_assert_cmpint (pango_layout_get_line_count (layout), <=, 2);
      text = pango_layout_get_text (layout);
      open = strstr (text, "“");
      close = strstr (text, "”");
      g_assert_nonnull (open);
      g_assert_nonnull (close);
      line = layout_line_of (layout, "“");
      for (const char *c = open; c <= close; c = g_utf8_next_char (c))
        {
          int l, x;

          pango_layout_index_to_line_x (layout, (int) (c - text), FALSE, &l, &x);
          g_assert_cmpint (l, ==, line);
          if (c > open && c < close && g_utf8_get_char (c) != 0x2060)
            g_string_append_unichar (name, g_utf8_get_char (c));
        }
      g_assert_cmpstr (name->str, ==, names[i].shown);
      g_string_free (name, TRUE);
      /* The dialog's window title (what a window list or a screen reader
       * says) is plain text: the whole name, no markup, no invisible word
       * joiners between its letters. */
      {
        const char *title = gtk_window_get_title (GTK_WINDOW (dialog));
        g_autofree char *expected = g_strdup_printf ("Could Not Open “%s”", names[i].file);

        g_assert_cmpstr (title, ==, expected);
        g_assert_null (g_utf8_strchr (title, -1, 0x2060));
      }
      adw_message_dialog_response (dialog, "close");
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

/* A file with clock rate 0: the error offers "Open with Clock Rate…", whose
 * dialog takes "2.6GHz" or "1e9" and opens the file with it. */
static void
test_clock_rate (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "clock0.cpel", NULL);
  AdwMessageDialog *dialog;
  GtkEditable *entry;
  guint t;

  SKIP_WITHOUT_DISPLAY ();
  w = cpel_writer_new (path, FALSE, 0, &error);
  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_events (w, t, 0, 2);
  cpel_writer_add_event (w, 1000, 1, 1, 1);
  cpel_writer_add_event (w, 3600, 1, 1, 2);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);

  app_test_open_and_wait (f->window, path);
  g_assert_null (cpel_window_get_file (f->window));
  dialog = find_message_dialog (f->window, "clock-rate");
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==,
                   "This CPEL file does not say how fast its clock runs.");
  adw_message_dialog_response (dialog, "clock-rate");
  gtk_window_destroy (GTK_WINDOW (dialog));

  dialog = find_message_dialog (f->window, "open");
  g_assert_nonnull (dialog);
  entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "open"));
  gtk_editable_set_text (entry, "fast");
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "open"));
  gtk_editable_set_text (entry, "2.6GHz");
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "open"));
  gtk_editable_set_text (entry, "1e9");
  /* Enter in the entry opens the file and closes the dialog, as the Open
   * button does. */
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_signal_emit_by_name (entry, "activate");
  app_test_wait_until (dialog == NULL || !gtk_widget_get_visible (GTK_WIDGET (dialog)), 10);
  if (dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  while (cpel_window_is_loading (f->window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (cpel_window_get_file (f->window));
  g_assert_cmpuint (cpel_window_get_clock_rate (f->window), ==, 1000000000);
  /* 2600 ticks at 10^9 per second */
  g_assert_cmpint (cpel_file_get_duration (cpel_window_get_file (f->window)), ==, 2600);

  /* Read again with another rate (File Information's button): same window. */
  cpel_window_open (f->window, cpel_window_get_location (f->window), 500000000);
  while (cpel_window_is_loading (f->window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (cpel_window_get_clock_rate (f->window), ==, 500000000);
  g_assert_cmpint (cpel_file_get_duration (cpel_window_get_file (f->window)), ==, 5200);
}

/* A Snabb timeline without engine.got_monotonic_time counts TSC ticks of
 * an unknown rate: the status line says ticks, a bar says why and offers
 * "Set Clock Rate…", which reads the file again with the rate given.  An
 * elog's times are seconds already: no bar, no clock rate to set. */
static void
test_ticks (Fixture *f, gconstpointer data)
{
  g_autofree char *path = cpel_test_fixture_file ("snabb-timeline/ring64-wrapped.timeline");
  g_autofree char *elog = cpel_test_fixture_file ("vpp-elog/workers.elog");
  const char *range;
  AdwMessageDialog *dialog;
  GtkEditable *entry;
  CpelWindow *other;

  SKIP_WITHOUT_DISPLAY ();
  app_test_open_and_wait (f->window, path);
  g_assert_nonnull (cpel_window_get_file (f->window));
  g_assert_true (cpel_window_is_ticks_bar_shown (f->window));
  range = cpel_window_get_range_text (f->window);
  g_test_message ("range: %s", range);
  g_assert_nonnull (strstr (range, "ticks"));
  g_assert_null (strstr (range, "µs"));
  g_assert_null (strstr (range, " ns"));
  g_assert_true (action_enabled (f->window, "set-clock-rate"));

  app_test_activate_action (GTK_WIDGET (f->window), "set-clock-rate", NULL);
  dialog = find_message_dialog (f->window, "open");
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Read with Different Clock Rate");
  entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  /* ticks read as ns: no rate of 10^9 offered */
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "");
  gtk_editable_set_text (entry, "2GHz");
  adw_message_dialog_response (dialog, "open");
  gtk_window_destroy (GTK_WINDOW (dialog));
  while (cpel_window_get_clock_rate (f->window) != 2000000000 || cpel_window_is_loading (f->window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (cpel_window_is_ticks_bar_shown (f->window));
  range = cpel_window_get_range_text (f->window);
  g_assert_null (strstr (range, "ticks"));

  /* an elog (times in seconds): no bar, nothing to set */
  app_test_open_and_wait (f->window, elog);
  other = window_showing (elog);
  g_assert_nonnull (other);
  g_assert_false (cpel_window_is_ticks_bar_shown (other));
  g_assert_false (action_enabled (other, "set-clock-rate"));
  gtk_window_destroy (GTK_WINDOW (other));
}

/* A file name is not markup anywhere (a warning would abort the test). */
static void
test_markup_name (Fixture *f, gconstpointer data)
{
  g_autofree char *odd = NULL;

  SKIP_WITHOUT_DISPLAY ();
  odd = g_build_filename (f->dir, "a&b<i>c.cpel", NULL);
  write_file (odd);
  app_test_open_and_wait (f->window, odd);
  g_assert_nonnull (cpel_window_get_file (f->window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "a&b<i>c.cpel");
}

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

/* Every AdwActionRow subtitle under `widget`, one per line. */
static void
collect_subtitles (GtkWidget *widget, GString *out)
{
  if (ADW_IS_ACTION_ROW (widget) && adw_action_row_get_subtitle (ADW_ACTION_ROW (widget)) != NULL)
    g_string_append_printf (out, "%s\n", adw_action_row_get_subtitle (ADW_ACTION_ROW (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_subtitles (c, out);
}

/* The File Information row titled `title`. */
static CpelFileInfoRow *
find_info_row (GtkWidget *widget, const char *title)
{
  if (CPEL_IS_FILE_INFO_ROW (widget)
      && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return CPEL_FILE_INFO_ROW (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      CpelFileInfoRow *row = find_info_row (c, title);

      if (row != NULL)
        return row;
    }
  return NULL;
}

/* Whether a visible preferences group titled `title` is under `widget`. */
static gboolean
shows_group (GtkWidget *widget, const char *title)
{
  if (ADW_IS_PREFERENCES_GROUP (widget) && gtk_widget_get_visible (widget)
      && g_strcmp0 (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (widget)), title) == 0)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (shows_group (c, title))
      return TRUE;
  return FALSE;
}

/* The button labelled `label` under `widget`, or NULL. */
static GtkWidget *
find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* File Information lists the sections; an event section's clock reads in
 * MHz when whole (not ten digits and "ticks/s" that wrap). */
static void
test_file_info (Fixture *f, gconstpointer data)
{
  GtkWindow *info;
  g_autoptr(GString) text = g_string_new (NULL);

  app_test_activate_action (GTK_WIDGET (f->window), "file-info", NULL);
  app_test_wait_until (app_test_find_toplevel ("File Information", NULL) != NULL, 30);
  info = app_test_find_toplevel ("File Information", NULL);
  g_assert_nonnull (info);
  collect_subtitles (GTK_WIDGET (info), text);
  g_assert_nonnull (strstr (text->str, "Type 5 at offset "));
  g_assert_nonnull (strstr (text->str, " · clock 1000 MHz"));
  g_assert_null (strstr (text->str, "ticks/s"));
  /* a CPEL file's ticks: its rate may be given */
  g_assert_true (gtk_widget_get_visible (find_button (GTK_WIDGET (info),
                                                      "Read with Different Clock Rate…")));

  /* The fixed rows: where the file is, what it holds; no warnings. */
  {
    g_autofree char *where = g_file_get_parse_name (cpel_window_get_location (f->window));
    g_autofree char *events = cpel_format_count (cpel_file_get_n_events (cpel_window_get_file (f->window)));
    CpelFileInfoRow *row;

    row = find_info_row (GTK_WIDGET (info), "Location");
    g_assert_nonnull (row);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (row)));
    g_assert_cmpstr (cpel_file_info_row_get_value (row), ==, where);
    row = find_info_row (GTK_WIDGET (info), "Events");
    g_assert_nonnull (row);
    g_assert_cmpstr (cpel_file_info_row_get_value (row), ==, events);
    g_assert_true (has_label (GTK_WIDGET (row), events));
    /* The size in bytes is grouped as every count ("60.3 kB (60 312 bytes)"). */
    {
      guint64 size = cpel_file_get_source_size (cpel_window_get_file (f->window));
      g_autofree char *bytes = cpel_format_count (size);
      g_autofree char *human = g_format_size (size);
      g_autofree char *expected = g_strdup_printf ("%s (%s bytes)", human, bytes);

      g_assert_cmpuint (size, >=, 10000);
      row = find_info_row (GTK_WIDGET (info), "Size");
      g_assert_nonnull (row);
      g_assert_cmpstr (cpel_file_info_row_get_value (row), ==, expected);
    }
    g_assert_false (shows_group (GTK_WIDGET (info), "Warnings"));
  }
  gtk_window_destroy (info);
}

/* File Information of an imported capture: its source's account (format,
 * clock, capture clock, header), not the CPEL sections made in memory to hold it ("String
 * table “ImportStrtab”", "Type 1129316353"); "Read with Different Clock
 * Rate…" only where the times are ticks of a rate that may be given (a
 * Snabb timeline without its rate, a CPEL file), never for an elog's
 * seconds; its Date is the elog's start, not the file's mtime. */
static void
test_file_info_imported (Fixture *f, gconstpointer data)
{
  static const struct { const char *file; gboolean clock_rate; const char *clock; } cases[] = {
    { "vpp-elog/workers.elog", FALSE, "wall clock, first event at 20" },
    { "snabb-timeline/ring64-wrapped.timeline", TRUE,
      "none (the source does not say what its clock read)" },
    { "snabb-timeline/engine-pipeline.timeline", FALSE, "seconds since boot, first event at " },
  };

  SKIP_WITHOUT_DISPLAY ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = cpel_test_fixture_file (cases[i].file);
      g_autoptr(GString) text = g_string_new (NULL);
      CpelWindow *window;
      GtkWindow *info;
      GtkWidget *button;

      app_test_open_and_wait (f->window, path);
      window = window_showing (path);
      g_assert_nonnull (window);
      app_test_activate_action (GTK_WIDGET (window), "file-info", NULL);
      app_test_wait_until (app_test_find_toplevel ("File Information", NULL) != NULL, 30);
      info = app_test_find_toplevel ("File Information", NULL);
      g_assert_nonnull (info);
      collect_subtitles (GTK_WIDGET (info), text);
      g_test_message ("%s:\n%s", cases[i].file, text->str);
      g_assert_null (strstr (text->str, "Type 1129316353"));
      g_assert_null (strstr (text->str, " at offset "));
      g_assert_false (shows_group (GTK_WIDGET (info), "Sections"));
      g_assert_true (shows_group (GTK_WIDGET (info), "Source"));
      button = find_button (GTK_WIDGET (info), "Read with Different Clock Rate…");
      g_assert_nonnull (button);
      g_assert_cmpint (gtk_widget_get_visible (button), ==, cases[i].clock_rate);
      /* what the capture's own clock read at its first event */
      g_assert_nonnull (strstr (text->str, cases[i].clock));
      if (i == 0)
        {
          CpelFileInfoRow *row = find_info_row (GTK_WIDGET (info), "Date");
          g_autoptr(GDateTime) when = NULL;
          gint64 start;

          g_assert_true (cpel_file_get_capture_start (cpel_window_get_file (window), &start));
          when = g_date_time_new_from_unix_local (start / 1000000000);
          g_assert_nonnull (row);
          g_assert_cmpstr (cpel_file_info_row_get_value (row), ==,
                           g_date_time_format (when, "%Y-%m-%d %H:%M:%S %Z"));
        }
      gtk_window_destroy (info);
      if (window != f->window)
        gtk_window_destroy (GTK_WINDOW (window));
      else
        app_test_drain ();
    }
}

/* The first selectable label under `widget`. */
static GtkWidget *
find_selectable_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_label_get_selectable (GTK_LABEL (widget)))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_selectable_label (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A value's menu in File Information (GTK's own, a selectable label's)
 * leaves the page where it is.  GTK 4.8's viewport scrolled to the menu's
 * items when they took the keyboard, as if they were in the page, moving
 * the value and its menu by about the menu's height: off the screen near
 * its top, where the menu's next layout found no monitor (random input
 * seed 91: Gdk-CRITICAL gdk_monitor_get_geometry). */
static void
test_file_info_value_menu (Fixture *f, gconstpointer data)
{
  GtkWindow *info;
  GtkWidget *label, *scrolled, *viewport, *popover = NULL;
  GtkAdjustment *adj;
  graphene_point_t p;
  double value;

  SKIP_WITHOUT_DISPLAY ();
  app_test_activate_action (GTK_WIDGET (f->window), "file-info", NULL);
  app_test_wait_until (app_test_find_toplevel ("File Information", NULL) != NULL, 30);
  info = app_test_find_toplevel ("File Information", NULL);
  /* Short: the page scrolls.  The window is shown at its own size
   * (560 × 640) and the window manager resizes it: waited for, or on a
   * busy machine the page would shrink under the positions below. */
  gtk_window_set_default_size (info, 400, 300);
  app_test_wait_until (gtk_widget_get_width (GTK_WIDGET (info)) > 0
                       && gtk_widget_get_width (GTK_WIDGET (info)) <= 400
                       && gtk_widget_get_height (GTK_WIDGET (info)) <= 300, 30);
  label = find_selectable_label (GTK_WIDGET (find_info_row (GTK_WIDGET (info), "Events")));
  g_assert_nonnull (label);
  scrolled = gtk_widget_get_ancestor (label, GTK_TYPE_SCROLLED_WINDOW);
  viewport = gtk_widget_get_ancestor (label, GTK_TYPE_VIEWPORT);
  g_assert_nonnull (scrolled);
  g_assert_nonnull (viewport);
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  app_test_wait_until (gtk_adjustment_get_upper (adj) > gtk_adjustment_get_page_size (adj) + 100, 30);
  app_test_wait_drawn (GTK_WIDGET (info));

  /* The value at the bottom of the page: a menu below it would not fit. */
  g_assert_true (gtk_widget_compute_point (label, scrolled, &GRAPHENE_POINT_INIT (0, 0), &p));
  gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + p.y + gtk_widget_get_height (label)
                                 - gtk_adjustment_get_page_size (adj));
  app_test_wait_drawn (GTK_WIDGET (info));
  value = gtk_adjustment_get_value (adj);
  g_assert_true (gtk_widget_compute_point (label, scrolled, &GRAPHENE_POINT_INIT (0, 0), &p));
  g_assert_cmpfloat (p.y, >, 0);
  g_assert_cmpfloat (p.y + gtk_widget_get_height (label), <=, gtk_adjustment_get_page_size (adj));

  /* Its menu (as Shift+F10 opens it) takes the keyboard; the page stays.
   * Twice: the first time GTK's viewport found the menu's items not laid
   * out yet, and left the page. */
  for (guint i = 0; i < 2; i++)
    {
      g_assert_true (gtk_widget_activate_action (label, "menu.popup", NULL));
      for (GtkWidget *c = gtk_widget_get_first_child (label); c != NULL; c = gtk_widget_get_next_sibling (c))
        if (GTK_IS_POPOVER (c))
          popover = c;
      g_assert_nonnull (popover);
      app_test_wait_until (gtk_widget_get_mapped (popover), 30);
      app_test_wait_until (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (info)), popover), 30);
      app_test_wait_frames (GTK_WIDGET (info), 20);
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, value);

      /* Closed: the page follows the keyboard again. */
      gtk_popover_popdown (GTK_POPOVER (popover));
      app_test_wait_until (!gtk_widget_get_mapped (popover), 30);
      g_assert_true (gtk_viewport_get_scroll_to_focus (GTK_VIEWPORT (viewport)));
      app_test_wait_drawn (GTK_WIDGET (info));
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, value);
    }

  /* The value half below the page: the keyboard moving to it (as a click
   * on it does) scrolls it into view ... */
  gtk_root_set_focus (GTK_ROOT (info), NULL);
  g_assert_true (gtk_widget_compute_point (label, scrolled, &GRAPHENE_POINT_INIT (0, 0), &p));
  value = gtk_adjustment_get_value (adj) + p.y + gtk_widget_get_height (label) / 2
          - gtk_adjustment_get_page_size (adj);
  gtk_adjustment_set_value (adj, value);
  app_test_wait_drawn (GTK_WIDGET (info));
  g_assert_true (gtk_widget_grab_focus (label));
  app_test_wait_until (gtk_adjustment_get_value (adj) > value, 30);
  /* ... over 200 ms, unless animations are off; its menu opening then
   * stops the scroll where it is (seed 91: a right-click on a value
   * just after a left one; the page went on scrolling, the value and its
   * menu with it, off the screen). */
  gtk_root_set_focus (GTK_ROOT (info), NULL);
  gtk_adjustment_set_value (adj, value);
  app_test_wait_drawn (GTK_WIDGET (info));
  g_assert_true (gtk_widget_grab_focus (label));
  g_assert_true (gtk_widget_activate_action (label, "menu.popup", NULL));
  value = gtk_adjustment_get_value (adj);
  app_test_wait_until (gtk_widget_get_mapped (popover), 30);
  app_test_wait_frames (GTK_WIDGET (info), 30);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, value);
  gtk_popover_popdown (GTK_POPOVER (popover));
  app_test_wait_until (!gtk_widget_get_mapped (popover), 30);
  app_test_wait_drawn (GTK_WIDGET (info));
  gtk_window_destroy (info);
}

/* A file that loads with warnings says so in a toast (details in File
 * Information); a clean one does not. */
static void
test_warnings_toast (Fixture *f, gconstpointer data)
{
  g_autofree char *clean = NULL;
  g_autofree char *junk = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  SKIP_WITHOUT_DISPLAY ();
  g_assert_false (has_label (GTK_WIDGET (f->window), "The file has 1 warning"));
  clean = g_build_filename (f->dir, "clean.cpel", NULL);
  junk = g_build_filename (f->dir, "junk.cpel", NULL);
  write_file (clean);
  g_assert_true (g_file_get_contents (clean, &contents, &len, NULL));
  contents = g_realloc (contents, len + 12);
  memset (contents + len, 0xab, 12);            /* bytes after the last section */
  g_assert_true (g_file_set_contents (junk, contents, (gssize) len + 12, NULL));
  app_test_open_and_wait (f->window, junk);
  g_assert_cmpstr (cpel_file_get_warnings (cpel_window_get_file (f->window))[0], !=, NULL);
  app_test_wait_until (has_label (GTK_WIDGET (f->window), "The file has 1 warning"), 30);

  /* File Information lists it. */
  {
    GtkWindow *info;

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.file-info", NULL));
    info = app_test_find_toplevel ("File Information", NULL);
    g_assert_nonnull (info);
    g_assert_true (shows_group (GTK_WIDGET (info), "Warnings"));
    g_assert_true (has_label (GTK_WIDGET (info),
                              cpel_file_get_warnings (cpel_window_get_file (f->window))[0]));
    gtk_window_destroy (info);
  }
}

/* The search bar's revealer has opened fully. */
static gboolean
bar_revealed (GtkWidget *widget)
{
  if (GTK_IS_REVEALER (widget))
    return gtk_revealer_get_child_revealed (GTK_REVEALER (widget));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (bar_revealed (c))
      return TRUE;
  return FALSE;
}

/* How many toast widgets the window's overlay holds (shown or hiding). */
static guint
count_toasts (CpelWindow *window)
{
  GtkWidget *overlay = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  GtkWidget *content = adw_toast_overlay_get_child (ADW_TOAST_OVERLAY (overlay));
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (overlay); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += c != content;
  return n;
}

/* Toasts in quick succession (h u h u … did it): messages replace the one
 * shown, some time out, some are withdrawn, some have a button, one to
 * three frames apart; libadwaita 1.2's overlay crashed when a toast was
 * dismissed during its show animation.  At most one toast shows and one
 * hides; the last message is the one on screen. */
static void
test_toast_quick (Fixture *f, gconstpointer data)
{
  CpelToaster *toaster;
  gboolean shown = FALSE;

  SKIP_WITHOUT_DISPLAY ();
  toaster = cpel_window_get_toaster (f->window);
  for (guint i = 0; i < 80; i++)
    {
      g_autofree char *text = g_strdup_printf ("message %u", i);
      guint id = cpel_toaster_show_full (toaster, text, i % 3 == 0 ? 1 : 5,
                                         i % 2 == 1 ? "_Details" : NULL, "win.file-info", NULL);

      g_assert_cmpstr (cpel_toaster_get_text (toaster), ==, text);
      if (i % 4 == 1)
        cpel_toaster_withdraw (toaster, id);
      app_test_wait_frames (GTK_WIDGET (f->window), 1 + i % 3);
      g_assert_cmpuint (count_toasts (f->window), <=, 2);
    }
  cpel_toaster_show (toaster, "the last one");
  for (gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
       !shown && g_get_monotonic_time () < end;)
    {
      app_test_wait_frames (GTK_WIDGET (f->window), 1);
      shown = has_label (GTK_WIDGET (f->window), "the last one");
    }
  g_assert_true (shown);
  g_assert_cmpuint (count_toasts (f->window), ==, 1);
}

/* ---- search ------------------------------------------------------------ */

static void
on_finished (CpelSearchBar *bar, gboolean *flag)
{
  *flag = TRUE;
}

static void
search (CpelWindow *window, CpelSearchMode mode, const char *text, gboolean case_sensitive)
{
  CpelSearchBar *bar = cpel_window_get_search_bar (window);
  gboolean done = FALSE;
  gulong id = g_signal_connect (bar, "search-finished", G_CALLBACK (on_finished), &done);

  cpel_search_bar_search (bar, mode, text, case_sensitive);
  if (!app_test_wait_flag (&done, 10000))
    g_error ("search “%s” did not finish: status “%s”, error “%s”", text,
             cpel_search_bar_get_status (bar), cpel_search_bar_get_error (bar));
  g_signal_handler_disconnect (bar, id);
  app_test_drain ();
}

static guint64
n_matches (CpelWindow *window)
{
  CpelSearchResult *result = cpel_search_bar_get_result (cpel_window_get_search_bar (window));

  return result != NULL ? cpel_search_result_get_n (result) : G_MAXUINT64;
}

static void
test_search (Fixture *f, gconstpointer data)
{
  CpelSearchBar *bar;
  CpelTimeline *timeline;
  guint slot;
  guint64 index;
  g_autofree char *expected = NULL;

  SKIP_WITHOUT_DISPLAY ();
  bar = cpel_window_get_search_bar (f->window);
  timeline = cpel_window_get_timeline (f->window);
  app_test_activate_action (GTK_WIDGET (f->window), "search", NULL);
  g_assert_true (cpel_search_bar_get_search_mode (bar));

  search (f->window, CPEL_SEARCH_TEXT, "recv", FALSE);
  g_assert_cmpuint (n_matches (f->window), ==, N_RECV);
  expected = g_strdup_printf ("%d matches", N_RECV);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, expected);
  /* The timeline highlights them. */
  g_assert_true (cpel_session_get_matches (cpel_timeline_get_session (timeline))
                 == cpel_search_bar_get_result (bar));
  /* The overview strip's match ticks are drawn by a worker: they come, and
   * the strip is then the renderer's strip for the view. */
  {
    GtkWidget *overview = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f->window),
                                                                     CPEL_TYPE_WINDOW, "overview"));
    int ow = gtk_widget_get_width (overview), oh = gtk_widget_get_height (overview);
    cairo_surface_t *expected_strip = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, ow, oh);
    cairo_t *cr = cairo_create (expected_strip);
    gboolean same = FALSE;

    cpel_render_overview (cr, ow, oh, cpel_timeline_get_view (timeline));
    cairo_destroy (cr);
    cairo_surface_flush (expected_strip);
    for (guint k = 0; k < 300 && !same; k++)
      {
        cairo_surface_t *shown = app_test_widget_image (overview);

        if (shown != NULL)
          {
            int stride = cairo_image_surface_get_stride (shown);
            const guint8 *a = cairo_image_surface_get_data (shown);
            const guint8 *b = cairo_image_surface_get_data (expected_strip);

            same = TRUE;
            for (int i = 0; i < stride * oh && same; i++)
              same = ABS ((int) a[i] - (int) b[i]) <= 2;
            cairo_surface_destroy (shown);
          }
        if (!same)
          app_test_wait_drawn (overview);
      }
    g_assert_true (same);
    cairo_surface_destroy (expected_strip);
  }

  /* Case: "RECV" matches only without "match case". */
  search (f->window, CPEL_SEARCH_TEXT, "RECV", FALSE);
  g_assert_cmpuint (n_matches (f->window), ==, N_RECV);
  search (f->window, CPEL_SEARCH_TEXT, "RECV", TRUE);
  g_assert_cmpuint (n_matches (f->window), ==, 0);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "No matches");

  /* Regex on the label "recv: len N": N ending in 35 mod 70 → 43 events. */
  search (f->window, CPEL_SEARCH_REGEX, "^recv: len [0-9]*5$", FALSE);
  g_assert_cmpuint (n_matches (f->window), ==, 43);

  /* A bad regex: the error on the bar's line (the timeline does not move
   * while a pattern is being typed), no result. */
  {
    int height;

    /* the bar's revealer open (its height grows while it slides in) */
    app_test_wait_until (bar_revealed (GTK_WIDGET (bar)), 30);
    app_test_wait_drawn (GTK_WIDGET (bar));
    height = gtk_widget_get_height (GTK_WIDGET (bar));
    search (f->window, CPEL_SEARCH_REGEX, "len [", FALSE);
    app_test_wait_drawn (GTK_WIDGET (bar));
    g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (bar)), ==, height);
  }
  g_assert_nonnull (cpel_search_bar_get_error (bar));
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "Invalid pattern");
  g_assert_null (cpel_search_bar_get_result (bar));
  g_assert_null (cpel_session_get_matches (cpel_timeline_get_session (timeline)));

  /* Code: number or name. */
  search (f->window, CPEL_SEARCH_CODE, "2", FALSE);
  g_assert_null (cpel_search_bar_get_error (bar));
  g_assert_cmpuint (n_matches (f->window), ==, N_RECV);
  search (f->window, CPEL_SEARCH_CODE, "send", FALSE);
  g_assert_cmpuint (n_matches (f->window), ==, N_EVENTS - N_RECV);
  search (f->window, CPEL_SEARCH_CODE, "no-such-event", FALSE);
  g_assert_nonnull (cpel_search_bar_get_error (bar));
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "No such event");

  /* Next / previous from the visible range; wraps around. */
  search (f->window, CPEL_SEARCH_TEXT, "recv", FALSE);
  cpel_timeline_set_range (timeline, 10000, 20000, FALSE);
  cpel_session_unselect (cpel_timeline_get_session (timeline));
  app_test_activate_action (GTK_WIDGET (f->window), "search-next", NULL);
  /* The first recv at or after t = 10000 is event 105 (t = 10500). */
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 35);
  g_assert_cmpint (cpel_search_bar_get_current (bar), ==, 15);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "16 of 429");
  {
    gint64 t0, t1;
    cpel_timeline_get_range (timeline, &t0, &t1);
    g_assert_cmpint (t1 - t0, ==, 10000);
    g_assert_cmpint (ABS ((t0 + t1) / 2 - 10500), <=, 1);   /* centred */
  }
  app_test_activate_action (GTK_WIDGET (f->window), "search-next", NULL);
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
  g_assert_cmpuint (slot, ==, 1);            /* event 112 */
  g_assert_cmpuint (index, ==, 37);
  app_test_activate_action (GTK_WIDGET (f->window), "search-previous", NULL);
  app_test_activate_action (GTK_WIDGET (f->window), "search-previous", NULL);
  g_assert_cmpint (cpel_search_bar_get_current (bar), ==, 14);   /* event 98 */
  /* From the first match, previous wraps to the last. */
  cpel_timeline_set_range (timeline, 0, 1000, FALSE);
  cpel_session_unselect (cpel_timeline_get_session (timeline));
  app_test_activate_action (GTK_WIDGET (f->window), "search-next", NULL);
  g_assert_cmpint (cpel_search_bar_get_current (bar), ==, 0);
  app_test_activate_action (GTK_WIDGET (f->window), "search-previous", NULL);
  g_assert_cmpint (cpel_search_bar_get_current (bar), ==, N_RECV - 1);

  /* Emptying the entry clears the highlights. */
  search (f->window, CPEL_SEARCH_TEXT, "", FALSE);
  g_assert_null (cpel_session_get_matches (cpel_timeline_get_session (timeline)));
}

/* ---- details and status line -------------------------------------------- */

static void
test_details (Fixture *f, gconstpointer data)
{
  CpelDetails *details;
  CpelTimeline *timeline;

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  details = cpel_window_get_details (f->window);
  g_assert_cmpstr (cpel_details_get_value (details, "time"), ==, "");

  /* Event 126: t = 12600, track 0, index 42, recv, datum 126. */
  cpel_session_select (cpel_timeline_get_session (timeline), 0, 42, TRUE);
  /* A short headline (the event's name), the whole label as body text. */
  g_assert_cmpstr (cpel_details_get_value (details, "headline"), ==, "recv");
  g_assert_cmpstr (cpel_details_get_value (details, "label"), ==, "recv: len 126");
  g_assert_cmpstr (cpel_details_get_value (details, "code"), ==, "2 (0x2)");
  g_assert_cmpstr (cpel_details_get_value (details, "event"), ==, "recv");
  g_assert_cmpstr (cpel_details_get_value (details, "datum-hex"), ==, "0x0000007e");
  g_assert_cmpstr (cpel_details_get_value (details, "datum-dec"), ==, "126");
  g_assert_cmpstr (cpel_details_get_value (details, "decoded"), ==, "len 126");
  g_assert_cmpstr (cpel_details_get_value (details, "track"), ==, "thread 0 (id 0)");
  g_assert_nonnull (strstr (cpel_details_get_value (details, "time"), "12\u202f600 ns"));
  g_assert_cmpstr (cpel_details_get_value (details, "delta"), ==, "300 ns");

  cpel_session_unselect (cpel_timeline_get_session (timeline));
  g_assert_cmpstr (cpel_details_get_value (details, "code"), ==, "");

  /* F9's action shows and hides the pane. */
  g_object_set (f->window, "show-details", TRUE, NULL);
  app_test_wait_until (gtk_widget_get_mapped (GTK_WIDGET (details)), 30);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (details)));
  app_test_activate_action (GTK_WIDGET (f->window), "show-details", NULL);
}

static void
test_status (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  cpel_timeline_set_range (timeline, 1000, 2000, FALSE);
  g_assert_nonnull (strstr (cpel_window_get_range_text (f->window), "(1.000 µs)"));
  cpel_session_set_measure (cpel_timeline_get_session (timeline), 1000, 2000);
  g_assert_cmpstr (cpel_window_get_measure_text (f->window), ==, "Δt 1.000 µs · 11 events");
  cpel_timeline_clear_measure (timeline);
  g_assert_cmpstr (cpel_window_get_measure_text (f->window), ==, "");
}

/* ---- export ------------------------------------------------------------ */

static void
test_export (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  int scale;
  const char *names[] = { "view.png", "view.svg", "view.pdf" };

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (timeline));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *out = g_build_filename (f->dir, names[i], NULL);

      app_test_activate_action (GTK_WIDGET (f->window), "export-to",
                                      g_variant_new_string (out));
      g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
      if (i == 0)
        {
          cairo_surface_t *png = cairo_image_surface_create_from_png (out);

          g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
          g_assert_cmpint (cairo_image_surface_get_width (png), ==,
                           gtk_widget_get_width (GTK_WIDGET (timeline)) * scale);
          g_assert_cmpint (cairo_image_surface_get_height (png), ==,
                           gtk_widget_get_height (GTK_WIDGET (timeline)) * scale);
          cairo_surface_destroy (png);
        }
    }

  /* A chosen scale: twice the pixels. */
  {
    g_autofree char *out = g_build_filename (f->dir, "view2x.png", NULL);
    cairo_surface_t *png;

    g_assert_true (cpel_window_export (f->window, out, 2, FALSE, NULL));
    png = cairo_image_surface_create_from_png (out);
    g_assert_cmpint (cairo_image_surface_get_width (png), ==,
                     2 * gtk_widget_get_width (GTK_WIDGET (timeline)));
    cairo_surface_destroy (png);
  }

  /* An unknown suffix is refused and writes nothing. */
  {
    g_autofree char *out = g_build_filename (f->dir, "view.bmp", NULL);
    g_autoptr(GError) error = NULL;

    g_assert_false (cpel_window_export (f->window, out, 0, TRUE, &error));
    g_assert_nonnull (error);
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  /* No overwrite unless allowed. */
  {
    g_autofree char *out = g_build_filename (f->dir, "view.png", NULL);
    g_autoptr(GError) error = NULL;

    g_assert_false (cpel_window_export (f->window, out, 0, FALSE, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  }
}

/* ---- real input -------------------------------------------------------- */

static void
test_input_keys (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  GtkWidget *w;
  gint64 t0, t1, s0;
  guint slot;
  guint64 index;

  SKIP_WITHOUT_DISPLAY ();
  if (!app_test_can_send_input ())
    {
      g_test_skip ("xdotool or X11 missing");
      return;
    }
  timeline = cpel_window_get_timeline (f->window);
  w = GTK_WIDGET (timeline);
  /* Keep the pointer off the timeline's time area. */
  app_test_pointer_to (w, 5, 5);
  app_test_focus (w);

  s0 = app_test_timeline_span (timeline);
  app_test_xdo ("key", "w", NULL);
  g_assert_cmpint (ABS (app_test_timeline_span (timeline) - s0 / 2), <=, 1);
  app_test_xdo ("key", "plus", NULL);
  g_assert_cmpint (ABS (app_test_timeline_span (timeline) - s0 / 4), <=, 1);
  app_test_xdo ("key", "s", "minus", NULL);
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);

  cpel_timeline_set_range (timeline, 100000, 110000, FALSE);
  app_test_xdo ("key", "d", NULL);
  cpel_timeline_get_range (timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 101000);
  app_test_xdo ("key", "Left", "a", NULL);
  cpel_timeline_get_range (timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 99000);
  app_test_xdo ("key", "Right", NULL);
  cpel_timeline_get_range (timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 100000);

  /* Home / 0 fit; Alt+Left goes back. */
  app_test_xdo ("key", "Home", NULL);
  cpel_timeline_get_range (timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 299901);
  app_test_xdo ("key", "alt+Left", NULL);
  cpel_timeline_get_range (timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 100000);
  app_test_xdo ("key", "alt+Right", NULL);
  cpel_timeline_get_range (timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  app_test_xdo ("key", "0", NULL);

  /* Tab selects the first event in view; Shift+Tab walks back. */
  cpel_timeline_set_range (timeline, 10000, 20000, FALSE);
  app_test_xdo ("key", "Tab", NULL);
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 34);    /* t = 10200 */
  app_test_xdo ("key", "Tab", "Tab", "shift+Tab", NULL);
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
  g_assert_cmpuint (index, ==, 35);
  g_assert_true (gtk_widget_is_focus (w));
  app_test_xdo ("key", "Escape", NULL);
  g_assert_false (cpel_session_get_selection (cpel_timeline_get_session (timeline), NULL, NULL));

  /* Ctrl+F, a query, Enter: the first match in view is selected. */
  app_test_xdo ("key", "ctrl+f", NULL);
  g_assert_true (cpel_search_bar_get_search_mode (cpel_window_get_search_bar (f->window)));
  {
    CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
    gboolean done = FALSE;
    gulong id = g_signal_connect (bar, "search-finished", G_CALLBACK (on_finished), &done);

    app_test_xdo ("type", "recv", NULL);
    /* the entry's typing delay, then the worker */
    g_assert_true (app_test_wait_flag (&done, 30000));
    g_signal_handler_disconnect (bar, id);
  }
  app_test_xdo ("key", "Return", NULL);
  app_test_wait_until (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                                   NULL, NULL), 30);
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 35);    /* event 105, the first recv after 10000 */
  app_test_xdo ("key", "F3", NULL);
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
  g_assert_cmpuint (slot, ==, 1);      /* event 112 */
  app_test_xdo ("key", "shift+Return", NULL);
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  /* Escape closes the bar and gives the keys back to the timeline. */
  app_test_xdo ("key", "Escape", NULL);
  app_test_wait_until (!cpel_search_bar_get_search_mode (cpel_window_get_search_bar (f->window))
                       && gtk_widget_is_focus (w), 30);
  g_assert_false (cpel_search_bar_get_search_mode (cpel_window_get_search_bar (f->window)));
  g_assert_true (gtk_widget_is_focus (w));
}

/* Keys typed right after Ctrl+F, before the bar is on screen (one xdotool
 * call: no frame between them), go to the search entry: characters, the
 * entry's key bindings (BackSpace, Return, Escape); none is lost, none
 * zooms the timeline. */
static void
test_search_type_ahead (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  CpelSearchBar *bar;
  GtkWidget *focus;
  gint64 s0;
  guint slot;
  guint64 index;

  SKIP_WITHOUT_DISPLAY ();
  if (!app_test_can_send_input ())
    {
      g_test_skip ("xdotool or X11 missing");
      return;
    }
  timeline = cpel_window_get_timeline (f->window);
  bar = cpel_window_get_search_bar (f->window);
  app_test_pointer_to (GTK_WIDGET (timeline), 5, 5);
  app_test_focus (GTK_WIDGET (timeline));
  s0 = app_test_timeline_span (timeline);

  /* A query, corrected, and Return: the first match is selected when the
   * search has run. */
  app_test_xdo ("key", "--delay", "0", "ctrl+f", "w", "x", "BackSpace", "BackSpace",
                "r", "e", "c", "v", "Return", NULL);
  g_assert_true (cpel_search_bar_get_search_mode (bar));
  focus = gtk_root_get_focus (GTK_ROOT (f->window));
  g_assert_true (GTK_IS_EDITABLE (focus));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (focus)), ==, "recv");
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);
  app_test_wait_until (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                                   NULL, NULL), 30);
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 0);     /* event 0, the first recv */
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);
  app_test_xdo ("key", "Escape", NULL);
  app_test_wait_until (!cpel_search_bar_get_search_mode (bar)
                       && gtk_widget_is_focus (GTK_WIDGET (timeline)), 30);

  /* Escape at once closes the bar again; the keys are the timeline's. */
  app_test_xdo ("key", "--delay", "0", "ctrl+f", "Escape", "w", NULL);
  app_test_wait_until (!cpel_search_bar_get_search_mode (bar)
                       && gtk_widget_is_focus (GTK_WIDGET (timeline)), 30);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (focus)), ==, "");
  g_assert_cmpint (ABS (app_test_timeline_span (timeline) - s0 / 2), <=, 1);
  app_test_xdo ("key", "s", NULL);
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);

  /* Opened again (a bar that was shown before). */
  app_test_xdo ("key", "--delay", "0", "ctrl+f", "s", "e", "n", "d", NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (focus)), ==, "send");
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);
  app_test_xdo ("key", "Escape", NULL);
  app_test_wait_until (!cpel_search_bar_get_search_mode (bar), 30);
}

static void
test_input_pointer (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  GtkWidget *w;
  const CpelView *view;
  int width;
  gint64 t0, t1, before, after;
  guint slot;
  guint64 index;

  SKIP_WITHOUT_DISPLAY ();
  if (!app_test_can_send_input ())
    {
      g_test_skip ("xdotool or X11 missing");
      return;
    }
  timeline = cpel_window_get_timeline (f->window);
  w = GTK_WIDGET (timeline);
  width = gtk_widget_get_width (w);
  app_test_focus (w);

  /* Ctrl+wheel zooms in at the pointer: the time under it stays. */
  view = cpel_timeline_get_view (timeline);
  app_test_pointer_to (w, 400, 100);
  before = cpel_view_x_to_time (view, width, 400);
  app_test_xdo ("keydown", "ctrl", "click", "4", "keyup", "ctrl", NULL);
  g_assert_cmpint (app_test_timeline_span (timeline), <, 299901);
  view = cpel_timeline_get_view (timeline);
  after = cpel_view_x_to_time (view, width, 400);
  g_assert_cmpint (ABS (after - before), <=, app_test_timeline_span (timeline) / width + 1);

  /* Shift+wheel pans. */
  cpel_timeline_get_range (timeline, &t0, &t1);
  app_test_xdo ("keydown", "shift", "click", "5", "keyup", "shift", NULL);
  {
    gint64 n0, n1;
    cpel_timeline_get_range (timeline, &n0, &n1);
    g_assert_cmpint (n0, >, t0);
    g_assert_cmpint (n1 - n0, ==, t1 - t0);
  }

  /* Drag across the ruler: zoom to that range. */
  cpel_session_fit (cpel_timeline_get_session (timeline));
  view = cpel_timeline_get_view (timeline);
  {
    gint64 a = cpel_view_x_to_time (view, width, 300);
    gint64 b = cpel_view_x_to_time (view, width, 500);
    int rx0, ry0, rx1, ry1;
    g_autofree char *sx = NULL, *sy = NULL, *ex = NULL, *ey = NULL, *mx = NULL;

    app_test_to_root (w, 300, 14, &rx0, &ry0);
    app_test_to_root (w, 500, 14, &rx1, &ry1);
    sx = g_strdup_printf ("%d", rx0);
    sy = g_strdup_printf ("%d", ry0);
    mx = g_strdup_printf ("%d", (rx0 + rx1) / 2);
    ex = g_strdup_printf ("%d", rx1);
    ey = g_strdup_printf ("%d", ry1);
    app_test_xdo ("mousemove", "--sync", sx, sy, "mousedown", "1",
                  "mousemove", "--sync", mx, sy, "mousemove", "--sync", ex, ey,
                  "mouseup", "1", NULL);
    gint64 px = 2 * 299901 / (width - 160);   /* two pixels at fit */

    cpel_timeline_get_range (timeline, &t0, &t1);
    g_assert_cmpint (ABS (t0 - a), <=, px);
    g_assert_cmpint (ABS (t1 - b), <=, px);
  }

  /* Click selects the nearest event. */
  cpel_timeline_set_range (timeline, 0, 10000, FALSE);
  view = cpel_timeline_get_view (timeline);
  {
    double x = cpel_view_time_to_x (view, width, 3000) + 2;   /* event 30, track 0 */
    double y = cpel_view_get_row_y (view, 0) + 12;

    app_test_pointer_to (w, x, y);
    app_test_xdo ("click", "1", NULL);
    g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                               &slot, &index));
    g_assert_cmpuint (slot, ==, 0);
    g_assert_cmpuint (index, ==, 10);
  }

  /* Right-drag measures. */
  {
    int rx0, ry0, rx1, ry1;
    g_autofree char *sx = NULL, *sy = NULL, *ex = NULL;
    gint64 a, b;
    guint64 n;
    double xa = cpel_view_time_to_x (view, width, 2000);
    double xb = cpel_view_time_to_x (view, width, 4000);

    app_test_to_root (w, xa, 200, &rx0, &ry0);
    app_test_to_root (w, xb, 200, &rx1, &ry1);
    sx = g_strdup_printf ("%d", rx0);
    sy = g_strdup_printf ("%d", ry0);
    ex = g_strdup_printf ("%d", rx1);
    app_test_xdo ("mousemove", "--sync", sx, sy, "mousedown", "3",
                  "mousemove", "--sync", ex, sy, "mouseup", "3", NULL);
    g_assert_true (cpel_timeline_get_measure (timeline, &a, &b, &n));
    g_assert_cmpint (ABS (a - 2000), <=, 20);
    g_assert_cmpint (ABS (b - 4000), <=, 20);
    g_assert_cmpuint (n, >=, 20);
    g_assert_cmpuint (n, <=, 21);
    g_assert_nonnull (strstr (cpel_window_get_measure_text (f->window), "Δt"));
  }

  /* Dragging the label column's edge resizes it. */
  {
    double lw = cpel_timeline_get_label_width (timeline);
    int rx0, ry0;
    g_autofree char *sx = NULL, *sy = NULL, *ex = NULL;

    app_test_to_root (w, lw, 200, &rx0, &ry0);
    sx = g_strdup_printf ("%d", rx0);
    sy = g_strdup_printf ("%d", ry0);
    ex = g_strdup_printf ("%d", rx0 + 60);
    app_test_xdo ("mousemove", "--sync", sx, sy, "mousedown", "1",
                  "mousemove", "--sync", ex, sy, "mouseup", "1", NULL);
    g_assert_cmpfloat (fabs (cpel_timeline_get_label_width (timeline) - (lw + 60)), <=, 1.5);
    cpel_timeline_set_label_width (timeline, lw);
    view = cpel_timeline_get_view (timeline);
  }

  /* A click on the overview strip centres the view there; a drag moves it. */
  {
    GtkWidget *overview = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f->window),
                                                                     CPEL_TYPE_WINDOW, "overview"));
    double ow = gtk_widget_get_width (overview);
    gint64 target = cpel_render_overview_x_to_time (cpel_timeline_get_view (timeline), ow, ow * 0.75);
    gint64 s0;

    cpel_timeline_set_range (timeline, 0, 10000, FALSE);
    s0 = app_test_timeline_span (timeline);
    app_test_pointer_to (overview, ow * 0.75, 10);
    app_test_xdo ("click", "1", NULL);
    cpel_timeline_get_range (timeline, &t0, &t1);
    g_assert_cmpint (t1 - t0, ==, s0);
    g_assert_cmpint (ABS ((t0 + t1) / 2 - target), <=, 299901 / (gint64) ow + 2);
    /* Back in history: where it was. */
    g_assert_true (cpel_session_go_back (cpel_timeline_get_session (timeline)));
    cpel_timeline_get_range (timeline, &t0, &t1);
    g_assert_cmpint (t0, ==, 0);
    view = cpel_timeline_get_view (timeline);
  }

  /* The cursor time follows the pointer. */
  {
    gint64 t;
    app_test_pointer_to (w, 660, 200);
    g_assert_true (cpel_timeline_get_cursor_time (timeline, &t));
    g_assert_cmpint (ABS (t - cpel_view_x_to_time (view, width, 660)), <=, 10);
    g_assert_nonnull (strstr (cpel_window_get_cursor_text (f->window), "µs"));
  }
}

/* The Export View dialog's answer: the format picked in its menu wins over
 * the suggested name's suffix; a name the user typed keeps its suffix. */
/* The Export View dialog lists the screen's scale first (GTK 4.8's own
 * chooser shows the first choice, so a HiDPI screen exports at 2× by
 * default). */
static void
test_export_scale_order (void)
{
  static const struct { int scale; guint order[4]; } cases[] = {
    { 1, { 1, 2, 3, 4 } },
    { 2, { 2, 1, 3, 4 } },
    { 3, { 3, 1, 2, 4 } },
    { 4, { 4, 1, 2, 3 } },
    { 0, { 1, 2, 3, 4 } },
    { 9, { 4, 1, 2, 3 } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint order[4];

      cpel_export_scale_order (cases[i].scale, order);
      for (guint k = 0; k < 4; k++)
        g_assert_cmpuint (order[k], ==, cases[i].order[k]);
    }
}

/* Whether `filter` shows a file named `name` of `content_type`. */
static gboolean
filter_shows (GtkFileFilter *filter, const char *name, const char *content_type)
{
  g_autoptr(GFileInfo) info = g_file_info_new ();

  g_file_info_set_display_name (info, name);
  g_file_info_set_content_type (info, content_type);
  return gtk_filter_match (GTK_FILTER (filter), info);
}

/* The Open dialog's filters: every format, CTF's by a trace's "metadata"
 * file (it opens the trace), which "All supported event logs" shows too. */
static void
test_open_filters (void)
{
  g_autoptr(GListModel) filters = cpel_window_new_open_filters ();
  guint n = g_list_model_get_n_items (filters);
  g_autoptr(GtkFileFilter) supported = NULL;
  g_autoptr(GtkFileFilter) ctf = NULL;
  g_autoptr(GtkFileFilter) all = NULL;
  const char *octets = "application/octet-stream";

  g_assert_cmpuint (n, >=, 3);
  supported = g_list_model_get_item (filters, 0);
  all = g_list_model_get_item (filters, n - 1);
  g_assert_cmpstr (gtk_file_filter_get_name (supported), ==, "All supported event logs");
  g_assert_cmpstr (gtk_file_filter_get_name (all), ==, "All Files");
  for (guint i = 1; i + 1 < n; i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, i);

      if (g_strcmp0 (gtk_file_filter_get_name (filter), "CTF trace") == 0)
        ctf = g_object_ref (filter);
    }
  /* One filter per format of the table, CTF's included when built (-Dctf). */
  {
    guint n_importers = 0;

    for (const CpelImporter * const *imp = cpel_importers (); *imp != NULL; imp++)
      n_importers++;
    g_assert_cmpuint (n, ==, n_importers + 2);
  }
#if HAVE_CTF
  g_assert_nonnull (ctf);
  g_assert_true (filter_shows (ctf, "metadata", octets));
  g_assert_true (filter_shows (ctf, "x", "application/x-ctf-metadata"));
  g_assert_false (filter_shows (ctf, "x.cpel", octets));
  g_assert_true (filter_shows (supported, "metadata", octets));
#else
  g_assert_null (ctf);
  g_assert_false (filter_shows (supported, "metadata", octets));
#endif
  g_assert_true (filter_shows (supported, "x.cpel", octets));
  g_assert_cmpint (filter_shows (supported, "perf.data", octets), ==, HAVE_PERF);
  g_assert_true (filter_shows (supported, "x.elog", octets));
  g_assert_true (filter_shows (supported, "x.timeline", octets));
  g_assert_true (filter_shows (supported, "x.elog.gz", octets));
  g_assert_true (filter_shows (supported, "x.cpel.zst", octets));
  g_assert_false (filter_shows (supported, "channel0_0", octets));
  g_assert_false (filter_shows (supported, "notes.txt", "text/plain"));
  g_assert_true (filter_shows (all, "channel0_0", octets));
}

static void
test_export_dialog_path (void)
{
  struct {
    const char *path, *suffix, *expected;
    gboolean overwrite;
  } cases[] = {
    { "/tmp/d/demo-view.png", "png", "/tmp/d/demo-view.png", TRUE },
    { "/tmp/d/demo-view.png", "pdf", "/tmp/d/demo-view.pdf", FALSE },
    { "/tmp/d/demo-view.png", "svg", "/tmp/d/demo-view.svg", FALSE },
    { "/tmp/d/demo-view.png", NULL, "/tmp/d/demo-view.png", TRUE },
    { "/tmp/d/mine.svg", "png", "/tmp/d/mine.svg", TRUE },        /* typed: the name wins */
    { "/tmp/d/mine", "pdf", "/tmp/d/mine.pdf", FALSE },           /* no suffix: the format's */
    { "/tmp/d/mine", NULL, "/tmp/d/mine.png", FALSE },
    { "/tmp/d.x/mine", "svg", "/tmp/d.x/mine.svg", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean overwrite = !cases[i].overwrite;
      g_autofree char *p = cpel_export_dialog_path (cases[i].path, "demo-view.png", cases[i].suffix, &overwrite);

      g_assert_cmpstr (p, ==, cases[i].expected);
      g_assert_cmpint (overwrite, ==, cases[i].overwrite);
    }
}

/* The names in `dir` (none when it does not exist). */
static GHashTable *
dir_names (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    g_hash_table_add (names, g_strdup (name));
  return names;
}

/* The end of the worker writing `file`'s cache, waited for (no signal
 * tells it; 60 s at most): its CpelIndexCacheWrite then. */
static int
wait_cache_written (CpelFile *file)
{
  gint64 end = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
  guint wakeup = g_timeout_add (10, app_test_wakeup, NULL);

  while (cpel_file_get_cache_write (file) == CPEL_INDEX_CACHE_NOT_WRITTEN && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wakeup);
  return cpel_file_get_cache_write (file);
}

/* A capture big enough for the persisted index: built in memory and shown,
 * then written to the cache by a worker after the first frame; the next
 * open reads it. */
static void
test_index_cache_after_frame (Fixture *f, gconstpointer data)
{
  CpelGenOptions options = { .n_events = CPEL_INDEX_CACHE_DEFAULT_MIN_EVENTS, .n_tracks = 8, .seed = 3,
                             .overwrite = TRUE };
  CpelLoadOptions cached = { .use_cache = TRUE, .cache_verify_later = TRUE };
  g_autofree char *path = NULL;
  g_autofree char *cache_dir = cpel_index_cache_get_default_dir ();
  g_autoptr(GHashTable) before = NULL, after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) again = NULL;
  GHashTableIter iter;
  const char *name;
  CpelFile *file;

  SKIP_WITHOUT_DISPLAY ();
  path = g_build_filename (f->dir, "big.cpel", NULL);
  g_assert_true (cpel_gen_write (path, &options, &error));
  g_assert_no_error (error);
  before = dir_names (cache_dir);
  app_test_open_and_wait (f->window, path);
  file = cpel_window_get_file (f->window);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, CPEL_INDEX_CACHE_DEFAULT_MIN_EVENTS);
  g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_MISSING);

  g_assert_cmpint (wait_cache_written (file), ==, CPEL_INDEX_CACHE_WRITTEN);
  g_assert_false (cpel_file_index_store_is_pending (file));

  again = cpel_file_new_for_path (path, &cached, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cpel_file_get_cache_load (again), ==, CPEL_INDEX_CACHE_USED);
  g_assert_true (cpel_file_verify_index (again, NULL));
  g_clear_object (&again);

  /* a window closed before any frame (never shown): the file's cache is
   * written all the same, by a worker that is not the window's */
  {
    CpelWindow *window = cpel_window_new (app);
    g_autofree char *path2 = g_build_filename (f->dir, "big2.cpel", NULL);
    g_autoptr(CpelFile) file2 = NULL;

    options.seed = 4;
    g_assert_true (cpel_gen_write (path2, &options, &error));
    g_assert_no_error (error);
    app_test_open_and_wait (window, path2);
    g_assert_true (cpel_file_index_store_is_pending (cpel_window_get_file (window)));
    file2 = g_object_ref (cpel_window_get_file (window));
    gtk_window_destroy (GTK_WINDOW (window));
    g_assert_cmpint (wait_cache_written (file2), ==, CPEL_INDEX_CACHE_WRITTEN);
  }

  /* the test's cache files go with the test */
  after = dir_names (cache_dir);
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, NULL))
    if (!g_hash_table_contains (before, name) && g_str_has_suffix (name, ".cpelidx"))
      {
        g_autofree char *p = g_build_filename (cache_dir, name, NULL);
        g_unlink (p);
      }
}

int
main (int argc, char *argv[])
{
  gboolean display = app_test_init (&argc, &argv);

  g_test_add_func ("/app/window/export-dialog-path", test_export_dialog_path);
  g_test_add_func ("/app/window/export-scale-order", test_export_scale_order);
  g_test_add_func ("/app/window/open-filters", test_open_filters);
  if (!display)
    return app_test_run_no_display ("/app/window");

  app = app_test_new_application ();

#define ADD(path, func, empty) \
  g_test_add ("/app/window/" path, Fixture, (empty) ? "" : NULL, fixture_setup, func, fixture_teardown)
  ADD ("empty", test_empty, TRUE);
  ADD ("profile", test_profile, TRUE);
  ADD ("load", test_load, FALSE);
  ADD ("search-bar-steady", test_search_bar_steady, FALSE);
  ADD ("search-status-steady", test_search_status_steady, FALSE);
  ADD ("bad-file", test_bad_file, FALSE);
  ADD ("bad-file-empty-window", test_bad_file_empty_window, TRUE);
  ADD ("imported", test_imported, FALSE);
  ADD ("markup-name", test_markup_name, TRUE);
  ADD ("bad-file-plain", test_bad_file_plain, TRUE);
  ADD ("clock-rate", test_clock_rate, TRUE);
  ADD ("ticks", test_ticks, TRUE);
  ADD ("warnings-toast", test_warnings_toast, TRUE);
  ADD ("toast-quick", test_toast_quick, TRUE);
  ADD ("file-info", test_file_info, FALSE);
  ADD ("file-info-value-menu", test_file_info_value_menu, FALSE);
  ADD ("file-info-imported", test_file_info_imported, TRUE);
  ADD ("search", test_search, FALSE);
  ADD ("details", test_details, FALSE);
  ADD ("status", test_status, FALSE);
  ADD ("export", test_export, FALSE);
  ADD ("input-keys", test_input_keys, FALSE);
  ADD ("input-pointer", test_input_pointer, FALSE);
  ADD ("search-type-ahead", test_search_type_ahead, FALSE);
  ADD ("index-cache-after-frame", test_index_cache_after_frame, TRUE);
#undef ADD
  return app_test_run (&app);
}
