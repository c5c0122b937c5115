/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window.c — a viewer window: one file, its timeline, search and details */
#include "cpel-window.h"

#include <glib/gi18n.h>

#include "cpel-anomaly-panel.h"
#include "cpel-app-util.h"
#include "cpel-async.h"
#include "cpel-chase-actions.h"
#include "cpel-cut-dialog.h"
#include "cpel-event-types-window.h"
#include "cpel-export-chooser.h"
#include "cpel-file-info.h"
#include "cpel-file-watch.h"
#include "cpel-key-capture.h"
#include "cpel-overview-strip.h"
#include "cpel-print.h"
#include "cpel-progress-relay.h"
#include "cpel-settings.h"
#include "cpel-stats-window.h"
#include "cpel-toaster.h"
#include "cpel-tracks-window.h"
#include "cpel-view-actions.h"
#include "cpel-views-controller.h"
#include "cpel-window-tools.h"

struct _CpelWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkToggleButton      *search_button;
  GtkToggleButton      *details_button;
  GtkMenuButton        *menu_button;
  GMenu                *recent_submenu;
  CpelSearchBar        *search_bar;
  GtkProgressBar       *load_progress;
  GtkStack             *main_stack;
  AdwStatusPage        *empty_page;
  AdwStatusPage        *loading_page;
  GtkProgressBar       *loading_progress;
  CpelOverviewStrip         *overview;
  CpelTimeline         *timeline;
  GtkScrollbar         *vscrollbar;
  GtkRevealer          *details_revealer;
  CpelDetails          *details;
  GtkLabel             *range_label;
  GtkLabel             *cursor_label;
  GtkLabel             *measure_label;

  CpelFile             *file;
  GFile                *location;

  GCancellable         *load_cancellable;
  GCancellable         *lod_cancellable;   /* summaries built in the background */
  CpelProgressRelay    *load_relay;

  CpelToaster          *toaster;          /* every toast of the window */
  GtkNativeDialog      *chooser;
  GtkWindow            *event_types;
  GtkWindow            *tracks;
  /* What the subtitle says now (it follows every view change, and is only
   * written again when one of these changes). */
  CpelFile             *subtitle_file;   /* not a reference: compared only */
  guint                 subtitle_shown;
  guint                 subtitle_hidden_types;
  guint                 scrollbar_idle;
};

G_DEFINE_FINAL_TYPE (CpelWindow, cpel_window, ADW_TYPE_APPLICATION_WINDOW)

enum
{
  PROP_0,
  PROP_FILE,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GSettings *
get_settings (CpelWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!CPEL_IS_APPLICATION (app))
    return NULL;
  return cpel_application_get_settings (CPEL_APPLICATION (app));
}

static void
toast (CpelWindow *self,
       const char *message)
{
  cpel_toaster_show (self->toaster, message);
}

static char *
display_name (GFile *location)
{
  g_autofree char *basename = NULL;

  if (location == NULL)
    return g_strdup (_("Untitled"));
  basename = g_file_get_basename (location);
  return g_filename_display_name (basename != NULL ? basename : "");
}

/* ------------------------------------------------------------------------ */
/* Status line and details                                                    */

/* Times on the status line, as precise as a pixel of the current view. */
static char *
format_view_time (CpelWindow *self,
                  gint64      t)
{
  gint64 t0, t1;
  double pixels = MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self->timeline))
                            - cpel_timeline_get_label_width (self->timeline));

  cpel_timeline_get_range (self->timeline, &t0, &t1);
  return cpel_render_format_tick (t, cpel_render_ruler_step (t0, t1, pixels, 1.0), MAX (ABS (t0), ABS (t1)));
}

static void
update_range_label (CpelWindow *self)
{
  gint64 t0, t1;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *span = NULL;
  g_autofree char *text = NULL;

  if (self->file == NULL)
    {
      gtk_label_set_text (self->range_label, "");
      return;
    }
  cpel_timeline_get_range (self->timeline, &t0, &t1);
  a = format_view_time (self, t0);
  b = format_view_time (self, t1);
  span = cpel_time_format (t1 - t0);
  /* TRANSLATORS: the visible range: start – end (span) */
  text = g_strdup_printf (_("%s – %s (%s)"), a, b, span);
  gtk_label_set_text (self->range_label, text);
}

static void
update_pointer_labels (CpelWindow *self)
{
  gint64 t, m0, m1;
  guint64 count;
  char buf[32];

  if (self->file != NULL && cpel_timeline_get_cursor_time (self->timeline, &t))
    {
      g_autofree char *text = NULL;
      g_autofree char *time = format_view_time (self, t);

      /* TRANSLATORS: time under the pointer */
      text = g_strdup_printf (_("Cursor %s"), time);
      gtk_label_set_text (self->cursor_label, text);
    }
  else
    gtk_label_set_text (self->cursor_label, "");

  if (self->file != NULL && cpel_timeline_get_measure (self->timeline, &m0, &m1, &count))
    {
      g_autofree char *n = cpel_format_count (count);
      g_autofree char *text = NULL;

      cpel_time_format_buf (m1 - m0, buf, sizeof buf);
      /* TRANSLATORS: a measured interval and the number of events in it */
      text = g_strdup_printf (ngettext ("Δt %s · %s event", "Δt %s · %s events", count), buf, n);
      gtk_label_set_text (self->measure_label, text);
    }
  else
    gtk_label_set_text (self->measure_label, "");
}

static void
update_details (CpelWindow *self)
{
  guint slot;
  guint64 index;

  if (self->file != NULL && cpel_timeline_get_selection (self->timeline, &slot, &index))
    cpel_details_set_event (self->details, self->file, slot, index);
  else
    cpel_details_clear (self->details);
}

static void
update_actions (CpelWindow *self)
{
  gboolean has_file = self->file != NULL;
  const char *names[] = {
    "export", "export-to", "file-info", "event-types", "tracks", "search",
    "search-next", "search-previous", "zoom-in", "zoom-out", "zoom-fit", "show-details",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), names[i]);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), has_file);
    }
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self),
                                                                            "cancel-load")),
                               self->load_cancellable != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_button), has_file);
}

/* ------------------------------------------------------------------------ */
/* Files                                                                      */

CpelWindow *
cpel_window_new (CpelApplication *application)
{
  CpelWindow *self = g_object_new (CPEL_TYPE_WINDOW, "application", application, NULL);
  GSettings *settings = get_settings (self);
  gboolean show_details;

  /* Restore what the settings remember (nothing without a schema). */
  gtk_window_set_default_size (GTK_WINDOW (self),
                               cpel_settings_get_int (settings, "window-width", 1100),
                               cpel_settings_get_int (settings, "window-height", 700));
  if (cpel_settings_get_boolean (settings, "window-maximized", FALSE))
    gtk_window_maximize (GTK_WINDOW (self));
  show_details = cpel_settings_get_boolean (settings, "details-visible", FALSE);
  g_action_group_change_action_state (G_ACTION_GROUP (self), "show-details",
                                      g_variant_new_boolean (show_details));

  if (application != NULL)
    g_menu_append_section (self->recent_submenu, NULL,
                           cpel_application_get_recent_menu (application));
  return self;
}

/* "1,234 events · 12 tracks", and what the view leaves out: "· 5 of 12
 * tracks shown", "· 2 event types hidden" (a filter is easy to forget). */
static void
update_subtitle (CpelWindow *self)
{
  CpelFile *file = self->file;
  const CpelView *view;
  const guint8 *hidden_types;
  guint n_tracks, n_shown, n_hidden_types = 0;
  g_autofree char *events = NULL;
  g_autofree char *tracks = NULL;
  g_autofree char *events_text = NULL;
  g_autofree char *tracks_text = NULL;
  g_autofree char *subtitle = NULL;

  if (file == NULL)
    return;
  view = cpel_timeline_get_view (self->timeline);
  n_tracks = cpel_file_get_n_tracks (file);
  n_shown = view != NULL ? cpel_view_get_n_rows (view) : n_tracks;
  hidden_types = cpel_timeline_get_hidden_types (self->timeline);
  for (guint t = 0; hidden_types != NULL && t < cpel_file_get_n_types (file); t++)
    n_hidden_types += hidden_types[t] != 0;
  if (file == self->subtitle_file && n_shown == self->subtitle_shown
      && n_hidden_types == self->subtitle_hidden_types)
    return;   /* a scroll or a zoom: nothing to say anew */
  self->subtitle_file = file;
  self->subtitle_shown = n_shown;
  self->subtitle_hidden_types = n_hidden_types;

  events = cpel_format_count (cpel_file_get_n_events (file));
  tracks = cpel_format_count (n_tracks);
  events_text = g_strdup_printf (ngettext ("%s event", "%s events",
                                           cpel_file_get_n_events (file)), events);
  if (n_shown < n_tracks)
    {
      g_autofree char *shown = cpel_format_count (n_shown);

      /* TRANSLATORS: window subtitle: "5 of 12 tracks shown" */
      tracks_text = g_strdup_printf (ngettext ("%s of %s track shown", "%s of %s tracks shown", n_tracks),
                                     shown, tracks);
    }
  else
    tracks_text = g_strdup_printf (ngettext ("%s track", "%s tracks", n_tracks), tracks);
  /* TRANSLATORS: window subtitle: "1,234 events · 12 tracks" */
  subtitle = g_strdup_printf (_("%s · %s"), events_text, tracks_text);
  if (n_hidden_types > 0)
    {
      g_autofree char *n = cpel_format_count (n_hidden_types);
      g_autofree char *types = g_strdup_printf (ngettext ("%s event type hidden", "%s event types hidden",
                                                          n_hidden_types), n);
      g_autofree char *longer = g_strdup_printf (_("%s · %s"), subtitle, types);

      g_free (subtitle);
      subtitle = g_steal_pointer (&longer);
    }
  if (g_strcmp0 (adw_window_title_get_subtitle (self->window_title), subtitle) != 0)
    adw_window_title_set_subtitle (self->window_title, subtitle);
}

static void present_tool (CpelWindow  *self,
                          GtkWindow  **slot,
                          GtkWindow  *(*create) (CpelWindow *self));
static GtkWindow *new_event_types_window (CpelWindow *self);
static GtkWindow *new_tracks_window (CpelWindow *self);

/* The Tracks and Event Types windows edit the timeline's track order and
 * types of one file: a new file (a reload too) gets new ones, open again
 * where they were open. */
static void
close_tool (GtkWindow **slot,
            gboolean   *was_open)
{
  GtkWindow *window = *slot;

  *was_open = window != NULL && gtk_widget_get_visible (GTK_WIDGET (window));
  if (window == NULL)
    return;
  g_object_remove_weak_pointer (G_OBJECT (window), (gpointer *) slot);
  *slot = NULL;
  gtk_window_destroy (window);
}

void
cpel_window_set_file (CpelWindow   *self,
                      CpelFile     *file,
                      CpelOverview *overview,
                      GFile        *location)
{
  g_autofree char *name = NULL;
  GSettings *settings;
  gboolean tracks_open, types_open;

  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (CPEL_IS_FILE (file));

  g_set_object (&self->file, file);
  g_set_object (&self->location, location);

  /* The first frame is drawn first; the summaries of the tracks it does
   * not show are built meanwhile, before anyone scrolls to them. */
  if (self->lod_cancellable != NULL)
    g_cancellable_cancel (self->lod_cancellable);
  g_clear_object (&self->lod_cancellable);
  self->lod_cancellable = g_cancellable_new ();
  cpel_prepare_lod_async (file, self->lod_cancellable);

  settings = get_settings (self);
  close_tool (&self->tracks, &tracks_open);
  close_tool (&self->event_types, &types_open);
  cpel_timeline_set_file_full (self->timeline, file, overview);
  cpel_timeline_set_label_width (self->timeline,
                                 cpel_settings_get_int (settings, "label-width", 160));

  name = location != NULL ? display_name (location)
                          : g_strdup (cpel_file_get_path (file) != NULL
                                      ? cpel_file_get_path (file) : _("Untitled"));
  adw_window_title_set_title (self->window_title, name);
  update_subtitle (self);
  gtk_window_set_title (GTK_WINDOW (self), name);

  /* No crossfade into the capture: its first frame is the whole capture,
   * not a blend with the page before that lasts another 200 ms (and costs
   * every frame in between twice). */
  gtk_stack_set_visible_child_full (self->main_stack, "view", GTK_STACK_TRANSITION_TYPE_NONE);
  update_actions (self);
  update_range_label (self);
  update_pointer_labels (self);
  update_details (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
  if (types_open)
    present_tool (self, &self->event_types, new_event_types_window);
  if (tracks_open)
    present_tool (self, &self->tracks, new_tracks_window);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);

  /* Problems that did not stop the load are listed in File Information:
   * say that there are some. */
  {
    const char * const *warnings = cpel_file_get_warnings (file);
    guint n = warnings != NULL ? g_strv_length ((char **) warnings) : 0;

    if (n > 0)
      {
        g_autofree char *text = g_strdup_printf (ngettext ("The file has %u warning",
                                                           "The file has %u warnings", n), n);

        cpel_toaster_show_full (self->toaster, text, CPEL_TOASTER_TIMEOUT,
                                _("Details"), "win.file-info", NULL);
      }
  }
}

CpelFile *
cpel_window_get_file (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->file;
}

GFile *
cpel_window_get_location (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->location;
}

gboolean
cpel_window_is_loading (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->load_cancellable != NULL;
}

static void
on_load_progress (double   fraction,
                  gpointer data)
{
  CpelWindow *self = data;

  gtk_progress_bar_set_fraction (self->loading_progress, fraction);
  gtk_progress_bar_set_fraction (self->load_progress, fraction);
}

static void
stop_loading (CpelWindow *self)
{
  if (self->load_relay != NULL)
    cpel_progress_relay_close (self->load_relay);
  g_clear_pointer (&self->load_relay, cpel_progress_relay_unref);
  g_clear_object (&self->load_cancellable);
  gtk_widget_set_visible (GTK_WIDGET (self->load_progress), FALSE);
  gtk_stack_set_visible_child_name (self->main_stack, self->file != NULL ? "view" : "empty");
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

typedef struct
{
  CpelWindow   *self;
  GFile        *location;
  GCancellable *cancellable;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_object_unref (data->self);
  g_object_unref (data->location);
  g_object_unref (data->cancellable);
  g_free (data);
}

static void
show_load_error (CpelWindow *self,
                 GFile      *location,
                 GError     *error)
{
  g_autofree char *name = display_name (location);
  g_autofree char *heading = NULL;
  AdwMessageDialog *dialog;

  /* TRANSLATORS: dialog heading; %s is a file name */
  heading = g_strdup_printf (_("Could Not Open “%s”"), name);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, error->message));
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  adw_message_dialog_set_default_response (dialog, "close");
  adw_message_dialog_set_close_response (dialog, "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  LoadData *data = user_data;
  CpelWindow *self = data->self;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelOverview) overview = NULL;
  g_autoptr(GError) error = NULL;
  gboolean current = data->cancellable == self->load_cancellable;

  file = cpel_load_file_finish (result, &overview, &error);
  if (file == NULL)
    {
      if (current)
        stop_loading (self);
      if (current && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_load_error (self, data->location, error);
      load_data_free (data);
      return;
    }

  if (!current)
    {
      /* Superseded or the window went away. */
      load_data_free (data);
      return;
    }

  if (self->file == NULL)
    cpel_window_set_file (self, file, overview, data->location);
  else
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      GtkWindow *window;

      if (!CPEL_IS_APPLICATION (app))
        {
          stop_loading (self);
          load_data_free (data);
          return;
        }
      window = cpel_application_new_window (CPEL_APPLICATION (app));
      cpel_window_set_file (CPEL_WINDOW (window), file, overview, data->location);
      gtk_window_present (window);
    }

  stop_loading (self);
  {
    GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

    if (CPEL_IS_APPLICATION (app))
      cpel_application_add_recent (CPEL_APPLICATION (app), data->location);
  }
  load_data_free (data);
}

void
cpel_window_open (CpelWindow *self,
                  GFile      *location)
{
  g_autofree char *name = NULL;
  LoadData *data;

  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (location));

  /* A newer request replaces a running one. */
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->load_relay != NULL)
    cpel_progress_relay_close (self->load_relay);
  g_clear_pointer (&self->load_relay, cpel_progress_relay_unref);
  g_clear_object (&self->load_cancellable);

  self->load_cancellable = g_cancellable_new ();
  self->load_relay = cpel_progress_relay_new (on_load_progress, self);
  gtk_progress_bar_set_fraction (self->loading_progress, 0);
  gtk_progress_bar_set_fraction (self->load_progress, 0);

  name = display_name (location);
  if (self->file == NULL)
    {
      /* The description is markup; a file name may hold '&' or '<'. */
      g_autofree char *escaped = g_markup_escape_text (name, -1);

      adw_status_page_set_description (self->loading_page, escaped);
      gtk_stack_set_visible_child_name (self->main_stack, "loading");
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->load_progress), TRUE);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);

  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->location = g_object_ref (location);
  data->cancellable = g_object_ref (self->load_cancellable);
  cpel_load_file_async (location, self->load_cancellable,
                        cpel_progress_relay_report, self->load_relay,
                        on_loaded, data);
}

/* ------------------------------------------------------------------------ */
/* Export                                                                     */

gboolean
cpel_window_export (CpelWindow  *self,
                    const char  *path,
                    double       scale,
                    gboolean     overwrite,
                    GError     **error)
{
  const CpelView *current;
  CpelView view;
  CpelExportFormat format;
  double width, height;

  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  current = cpel_timeline_get_view (self->timeline);
  if (current == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No file is open"));
      return FALSE;
    }
  if (!cpel_render_export_format_for_path (path, &format))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("Unknown image format for “%s”: use .png, .svg or .pdf"), path);
      return FALSE;
    }

  /* What is on screen, without the pointer's cursor line. */
  view = *current;
  view.has_cursor = FALSE;
  width = gtk_widget_get_width (GTK_WIDGET (self->timeline));
  height = gtk_widget_get_height (GTK_WIDGET (self->timeline));
  if (width < 1 || height < 1)
    {
      width = 1280;
      height = 720;
    }
  if (scale <= 0)
    scale = gtk_widget_get_scale_factor (GTK_WIDGET (self->timeline));
  return cpel_render_export (&view, format, width, height, scale, path, overwrite, error);
}

static void
export_and_report (CpelWindow *self,
                   const char *path,
                   double      scale,
                   gboolean    overwrite)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_filename_display_basename (path);
  g_autofree char *message = NULL;

  if (!cpel_window_export (self, path, scale, overwrite, &error))
    /* TRANSLATORS: %s is a file name, then the reason */
    message = g_strdup_printf (_("Could not export “%s”: %s"), name, error->message);
  else
    message = g_strdup_printf (_("View exported as “%s”"), name);
  toast (self, message);
}

static void
remember_folder (CpelWindow *self,
                 GFile      *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *uri = parent != NULL ? g_file_get_uri (parent) : NULL;

  if (uri != NULL)
    cpel_settings_set_string (get_settings (self), "last-folder", uri);
}

static void
set_initial_folder (CpelWindow     *self,
                    GtkFileChooser *chooser)
{
  g_autofree char *folder = cpel_settings_get_string (get_settings (self), "last-folder");
  g_autoptr(GFile) dir = NULL;

  if (folder != NULL)
    {
      dir = g_file_new_for_uri (folder);
      if (g_file_query_file_type (dir, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_DIRECTORY)
        g_clear_object (&dir);
    }
  if (dir == NULL && self->location != NULL)
    dir = g_file_get_parent (self->location);
  if (dir != NULL)
    gtk_file_chooser_set_current_folder (chooser, dir, NULL);
}

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    CpelWindow      *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  const char *scale_choice;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    path = g_file_get_path (file);

  if (path != NULL)
    {
      GtkFileFilter *chosen = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
      const char *chosen_suffix = chosen != NULL ? g_object_get_data (G_OBJECT (chosen), "suffix") : NULL;
      gboolean overwrite;
      char *resolved = cpel_export_dialog_path (path, g_object_get_data (G_OBJECT (dialog), "suggested"),
                                                chosen_suffix, &overwrite);

      remember_folder (self, file);
      g_free (path);
      path = resolved;
      scale_choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "scale");
      export_and_report (self, path, scale_choice != NULL ? g_ascii_strtod (scale_choice, NULL) : 0,
                         overwrite);
    }
  g_clear_object (&self->chooser);
}

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *mime_type,
            const char     *suffix)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strconcat ("*.", suffix, NULL);

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_filter_add_pattern (filter, pattern);
  g_object_set_data_full (G_OBJECT (filter), "suffix", g_strdup (suffix), g_free);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
action_export (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       data)
{
  CpelWindow *self = data;
  const char *scripted = g_getenv ("CPEL_EXPORT_PATH");
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;
  g_autofree char *suggested = NULL;
  char *dot;

  if (self->file == NULL)
    return;

  /* Automation: export straight to the given path. */
  if (scripted != NULL && *scripted != '\0')
    {
      export_and_report (self, scripted, 0, TRUE);
      return;
    }

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }

  name = self->location != NULL ? g_file_get_basename (self->location) : g_strdup ("capture");
  dot = strrchr (name, '.');
  base = dot != NULL && dot != name ? g_strndup (name, dot - name) : g_strdup (name);
  suggested = g_strdup_printf ("%s-view.png", base);

  self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (_("Export View"),
                                                                  GTK_WINDOW (self),
                                                                  GTK_FILE_CHOOSER_ACTION_SAVE,
                                                                  _("_Export"), _("_Cancel")));
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  add_filter (GTK_FILE_CHOOSER (self->chooser), _("PNG Image"), "image/png", "png");
  add_filter (GTK_FILE_CHOOSER (self->chooser), _("SVG Image"), "image/svg+xml", "svg");
  add_filter (GTK_FILE_CHOOSER (self->chooser), _("PDF Document"), "application/pdf", "pdf");
  set_initial_folder (self, GTK_FILE_CHOOSER (self->chooser));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested);
  g_object_set_data_full (G_OBJECT (self->chooser), "suggested", g_strdup (suggested), g_free);
  {
    /* The image's pixel density (PNG); SVG and PDF are vector anyway.  The
     * screen's comes first (see cpel_export_scale_order). */
    static const char *all_ids[] = { "1", "2", "3", "4" };
    const char *all_labels[] = { C_("image scale", "1×"), C_("image scale", "2×"),
                                 C_("image scale", "3×"), C_("image scale", "4×") };
    const char *ids[5] = { NULL }, *labels[5] = { NULL };
    guint order[4];

    cpel_export_scale_order (gtk_widget_get_scale_factor (GTK_WIDGET (self->timeline)), order);
    for (guint i = 0; i < 4; i++)
      {
        ids[i] = all_ids[order[i] - 1];
        labels[i] = all_labels[order[i] - 1];
      }
    gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (self->chooser), "scale", _("Scale"), ids, labels);
    gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (self->chooser), "scale", ids[0]);
  }
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (self->chooser);
}

static void
action_export_to (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       data)
{
  CpelWindow *self = data;
  const char *path = g_variant_get_string (parameter, NULL);

  if (self->file != NULL && path != NULL && *path != '\0')
    export_and_report (self, path, 0, TRUE);
}

/* ------------------------------------------------------------------------ */
/* Opening                                                                    */

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  CpelWindow      *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      guint n = g_list_model_get_n_items (files);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          if (i == 0)
            remember_folder (self, file);
          cpel_window_open (self, file);
        }
    }
  g_clear_object (&self->chooser);
}

static void
action_open (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       data)
{
  CpelWindow *self = data;
  g_autoptr(GtkFileFilter) cpel_filter = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all_filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }

  self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (_("Open CPEL File"),
                                                                  GTK_WINDOW (self),
                                                                  GTK_FILE_CHOOSER_ACTION_OPEN,
                                                                  _("_Open"), _("_Cancel")));
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);

  gtk_file_filter_set_name (cpel_filter, _("CPEL Event Logs"));
  gtk_file_filter_add_mime_type (cpel_filter, "application/x-cpel");
  gtk_file_filter_add_suffix (cpel_filter, "cpel");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), cpel_filter);
  gtk_file_filter_set_name (all_filter, _("All Files"));
  gtk_file_filter_add_pattern (all_filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), all_filter);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (self->chooser), cpel_filter);
  set_initial_folder (self, GTK_FILE_CHOOSER (self->chooser));

  g_signal_connect (self->chooser, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (self->chooser);
}

static void
action_open_recent (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  CpelWindow *self = data;
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  cpel_window_open (self, file);
}

static void
action_cancel_load (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  CpelWindow *self = data;

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         CpelWindow    *self)
{
  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = g_value_get_boxed (value);

      if (files == NULL)
        return FALSE;
      for (GSList *l = files; l != NULL; l = l->next)
        cpel_window_open (self, l->data);
      return TRUE;
    }
  if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    {
      cpel_window_open (self, g_value_get_object (value));
      return TRUE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Other actions                                                              */

static void
action_file_info (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       data)
{
  CpelWindow *self = data;
  GtkWindow *dialog;

  if (self->file == NULL)
    return;
  dialog = cpel_file_info_new (GTK_WINDOW (self), self->file, self->location);
  gtk_window_present (dialog);
}

/* Show the window in *slot, made by `create` the first time. */
static void
present_tool (CpelWindow  *self,
              GtkWindow  **slot,
              GtkWindow  *(*create) (CpelWindow *self))
{
  if (self->file == NULL)
    return;
  if (*slot == NULL)
    {
      *slot = create (self);
      g_object_add_weak_pointer (G_OBJECT (*slot), (gpointer *) slot);
    }
  gtk_window_present (*slot);
}

static GtkWindow *
new_event_types_window (CpelWindow *self)
{
  return GTK_WINDOW (cpel_event_types_window_new (self));
}

static GtkWindow *
new_tracks_window (CpelWindow *self)
{
  return GTK_WINDOW (cpel_tracks_window_new (self));
}

static void
action_event_types (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  CpelWindow *self = data;

  present_tool (self, &self->event_types, new_event_types_window);
}

static void
action_tracks (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       data)
{
  CpelWindow *self = data;

  present_tool (self, &self->tracks, new_tracks_window);
}

static void
action_search (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       data)
{
  CpelWindow *self = data;

  if (self->file != NULL)
    cpel_search_bar_set_search_mode (self->search_bar, TRUE);
}

static void
action_search_step (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  CpelWindow *self = data;
  const char *name = g_action_get_name (G_ACTION (action));

  cpel_search_bar_step (self->search_bar, g_str_equal (name, "search-next") ? 1 : -1);
}

static void
action_zoom (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       data)
{
  CpelWindow *self = data;
  const char *name = g_action_get_name (G_ACTION (action));

  if (g_str_equal (name, "zoom-in"))
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.zoom-in", NULL);
  else if (g_str_equal (name, "zoom-out"))
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.zoom-out", NULL);
  else
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.fit", NULL);
}

static void
change_show_details (GSimpleAction *action,
                     GVariant      *state,
                     gpointer       data)
{
  CpelWindow *self = data;
  gboolean show = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  gtk_revealer_set_reveal_child (self->details_revealer, show);
  cpel_settings_set_boolean (get_settings (self), "details-visible", show);
}

static const GActionEntry win_entries[] = {
  { "open", action_open },
  { "open-recent", action_open_recent, "s" },
  { "cancel-load", action_cancel_load },
  { "export", action_export },
  { "export-to", action_export_to, "s" },
  { "file-info", action_file_info },
  { "event-types", action_event_types },
  { "tracks", action_tracks },
  { "search", action_search },
  { "search-next", action_search_step },
  { "search-previous", action_search_step },
  { "zoom-in", action_zoom },
  { "zoom-out", action_zoom },
  { "zoom-fit", action_zoom },
  { "show-details", NULL, NULL, "false", change_show_details },
};

/* ------------------------------------------------------------------------ */

/* The track scrollbar shows only when there is something to scroll (its
 * width does not change the page height: no feedback loop).  The
 * adjustment changes while the timeline is being allocated, so the
 * scrollbar's visibility follows in an idle, outside the layout. */
static gboolean
update_scrollbar_idle (gpointer data)
{
  CpelWindow *self = data;
  GtkAdjustment *adj = cpel_timeline_get_vadjustment (self->timeline);

  self->scrollbar_idle = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->vscrollbar),
                          gtk_adjustment_get_upper (adj) - gtk_adjustment_get_lower (adj)
                          > gtk_adjustment_get_page_size (adj) + 0.5);
  return G_SOURCE_REMOVE;
}

static void
update_scrollbar (CpelWindow *self)
{
  if (self->scrollbar_idle == 0)
    self->scrollbar_idle = g_idle_add (update_scrollbar_idle, self);
}

static void
on_search_mode_changed (CpelWindow *self)
{
  /* Closing the search bar gives the keyboard back to the timeline. */
  if (!cpel_search_bar_get_search_mode (self->search_bar) && self->file != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

static gboolean
cpel_window_close_request (GtkWindow *window)
{
  CpelWindow *self = CPEL_WINDOW (window);
  GSettings *settings = get_settings (self);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  cpel_settings_set_int (settings, "window-width", width);
  cpel_settings_set_int (settings, "window-height", height);
  cpel_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
  if (self->file != NULL)
    cpel_settings_set_int (settings, "label-width",
                           (int) cpel_timeline_get_label_width (self->timeline));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  cpel_search_bar_cancel (self->search_bar);

  return GTK_WINDOW_CLASS (cpel_window_parent_class)->close_request (window);
}

static void
cpel_window_dispose (GObject *object)
{
  CpelWindow *self = CPEL_WINDOW (object);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->load_relay != NULL)
    cpel_progress_relay_close (self->load_relay);
  g_clear_pointer (&self->load_relay, cpel_progress_relay_unref);
  g_clear_object (&self->load_cancellable);
  if (self->lod_cancellable != NULL)
    g_cancellable_cancel (self->lod_cancellable);
  g_clear_object (&self->lod_cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  if (self->event_types != NULL)
    gtk_window_destroy (self->event_types);
  if (self->tracks != NULL)
    gtk_window_destroy (self->tracks);

  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (cpel_timeline_get_vadjustment (self->timeline), self);
  g_clear_handle_id (&self->scrollbar_idle, g_source_remove);
  g_clear_object (&self->toaster);
  gtk_widget_dispose_template (GTK_WIDGET (self), CPEL_TYPE_WINDOW);

  g_clear_object (&self->file);
  g_clear_object (&self->location);

  G_OBJECT_CLASS (cpel_window_parent_class)->dispose (object);
}

static void
cpel_window_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CpelWindow *self = CPEL_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->load_cancellable != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_window_class_init (CpelWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cpel_window_dispose;
  object_class->get_property = cpel_window_get_property;
  window_class->close_request = cpel_window_close_request;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, CPEL_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CPEL_TYPE_TIMELINE);
  g_type_ensure (CPEL_TYPE_OVERVIEW_STRIP);
  g_type_ensure (CPEL_TYPE_DETAILS);
  g_type_ensure (CPEL_TYPE_SEARCH_BAR);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, details_button);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, recent_submenu);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, load_progress);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, loading_progress);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, vscrollbar);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, details_revealer);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, details);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, range_label);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, cursor_label);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, measure_label);
}

static void
cpel_window_init (CpelWindow *self)
{
  GtkDropTarget *drop;
  GtkIconTheme *theme;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->toaster = cpel_toaster_new (self->toast_overlay);

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries,
                                   G_N_ELEMENTS (win_entries), self);
  /* Tools with their own actions (win.statistics, win.anomalies,
   * win.anomaly-next/-previous, win.print, win.save-range). */
  cpel_stats_window_install (self);
  cpel_anomaly_panel_install (self);
  cpel_print_install (self);
  cpel_cut_dialog_install (self);
  /* g2's chase, view modes and saved views (win.chase-*, win.color-mode,
   * win.summary-mode, win.sort-tracks, win.*-view(s)). */
  cpel_chase_actions_install (self);
  cpel_view_actions_install (self);
  cpel_views_controller_install (self);
  /* "The file changed on disk — Reload" (win.reload). */
  cpel_file_watch_install (self);

  cpel_search_bar_set_timeline (self->search_bar, self->timeline);
  cpel_key_capture_install (GTK_WINDOW (self), GTK_WIDGET (self->timeline));
  gtk_scrollbar_set_adjustment (self->vscrollbar, cpel_timeline_get_vadjustment (self->timeline));
  g_signal_connect_swapped (cpel_timeline_get_vadjustment (self->timeline), "changed",
                            G_CALLBACK (update_scrollbar), self);
  update_scrollbar (self);

  g_object_bind_property (self->search_button, "active",
                          self->search_bar, "search-mode-enabled",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->search_bar, "notify::search-mode-enabled",
                            G_CALLBACK (on_search_mode_changed), self);

  g_signal_connect_swapped (self->timeline, "view-changed",
                            G_CALLBACK (update_range_label), self);
  g_signal_connect_swapped (self->timeline, "view-changed",
                            G_CALLBACK (update_subtitle), self);
  /* The time under a still pointer changes when the keys move the view. */
  g_signal_connect_swapped (self->timeline, "view-changed",
                            G_CALLBACK (update_pointer_labels), self);
  g_signal_connect_swapped (self->timeline, "pointer-changed",
                            G_CALLBACK (update_pointer_labels), self);
  g_signal_connect_swapped (self->timeline, "selection-changed",
                            G_CALLBACK (update_details), self);

  drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop, (GType[2]) { GDK_TYPE_FILE_LIST, G_TYPE_FILE }, 2);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self->main_stack), GTK_EVENT_CONTROLLER (drop));

  /* The app's own symbolic icon when installed. */
  theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (self)));
  if (gtk_icon_theme_has_icon (theme, APP_ID "-symbolic"))
    adw_status_page_set_icon_name (self->empty_page, APP_ID "-symbolic");

  gtk_stack_set_visible_child_name (self->main_stack, "empty");
  update_actions (self);
}

CpelTimeline *
cpel_window_get_timeline (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->timeline;
}

CpelSearchBar *
cpel_window_get_search_bar (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->search_bar;
}

CpelDetails *
cpel_window_get_details (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->details;
}

CpelToaster *
cpel_window_get_toaster (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->toaster;
}

const char *
cpel_window_get_status (CpelWindow *self,
                        const char *which)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (which != NULL, NULL);

  if (g_str_equal (which, "range"))
    return gtk_label_get_text (self->range_label);
  if (g_str_equal (which, "cursor"))
    return gtk_label_get_text (self->cursor_label);
  if (g_str_equal (which, "measure"))
    return gtk_label_get_text (self->measure_label);
  return NULL;
}
