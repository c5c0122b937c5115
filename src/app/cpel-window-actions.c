/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-actions.c — every win.* action of the viewer window
 *
 * All are installed here, from class_init, and _cpel_window_update_actions()
 * is the one place that says which are enabled.  The toggles that mirror a
 * property (win.show-details, win.color-mode, win.summary-mode) are
 * property actions.  What an action does at length lives in the window's
 * part for it (chase, views, cut, watch, export, load).
 */
#include "cpel-window-private.h"

#include <glib/gi18n.h>

#include "cpel-anomalies-window.h"
#include "cpel-event-types-window.h"
#include "cpel-file-info-window.h"
#include "cpel-import.h"
#include "cpel-keycaps.h"
#include "cpel-print.h"
#include "cpel-stats-window.h"
#include "cpel-spans-window.h"
#include "cpel-tracks-window.h"

/* ------------------------------------------------------------------------ */
/* Files                                                                      */

static void
action_open (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  _cpel_window_choose_open (CPEL_WINDOW (widget));
}

static void
action_open_folder (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  _cpel_window_choose_open_folder (CPEL_WINDOW (widget));
}

static void
action_open_recent (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  cpel_window_open (CPEL_WINDOW (widget), file, 0);
}

static void
action_cancel_load (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  _cpel_window_cancel_load (CPEL_WINDOW (widget));
}

static void
action_reload (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  _cpel_window_watch_reload (CPEL_WINDOW (widget));
}

static void
action_export (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  _cpel_window_choose_export (CPEL_WINDOW (widget));
}

static void
action_export_to (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);
  const char *path = g_variant_get_string (parameter, NULL);

  if (self->file != NULL && path != NULL && *path != '\0')
    _cpel_window_export_and_report (self, path, 0, TRUE);
}

static void
action_save_range (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  _cpel_window_cut_choose (CPEL_WINDOW (widget));
}

/* "(sb)": path, visible tracks only; no chooser, for scripts and tests. */
static void
action_save_range_to (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);
  const char *path = NULL;
  gboolean visible_only = FALSE;

  g_variant_get (parameter, "(&sb)", &path, &visible_only);
  if (self->file != NULL && path != NULL && *path != '\0')
    {
      g_autoptr(GFile) target = g_file_new_for_path (path);

      cpel_window_save_range (self, target, visible_only);
    }
}

static void
action_print (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (self->file == NULL)
    return;
  if (!cpel_print_window (self, NULL, &error))
    {
      AdwMessageDialog *dialog;

      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Could Not Print"),
                                                           error->message));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

/* ------------------------------------------------------------------------ */
/* Tool windows                                                               */

/* The times are ticks: read the file again with a rate the user gives
 * (the first event section's filled in). */
static void
action_set_clock_rate (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);
  guint64 suggested = 0;

  if (self->file == NULL || self->location == NULL)
    return;
  /* ticks read as ns: their "rate" of 10^9 is no suggestion */
  for (guint i = 0; cpel_file_get_time_kind (self->file) == CPEL_TIME_KIND_NS
                    && i < cpel_file_get_n_sections (self->file) && suggested == 0; i++)
    {
      const CpelSectionInfo *info = cpel_file_get_section (self->file, i);

      if (info != NULL && info->type == CPEL_SECTION_EVENTS)
        suggested = info->ticks_per_second;
    }
  cpel_window_ask_clock_rate (self, self->location, suggested);
}

static void
action_file_info (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  if (self->file != NULL)
    gtk_window_present (GTK_WINDOW (cpel_file_info_window_new (self)));
}

GtkWindow *
_cpel_window_new_event_types (CpelWindow *self)
{
  return GTK_WINDOW (cpel_event_types_window_new (self->session, GTK_WINDOW (self)));
}

GtkWindow *
_cpel_window_new_tracks (CpelWindow *self)
{
  return GTK_WINDOW (cpel_tracks_window_new (self->session, GTK_WINDOW (self)));
}

static void
action_event_types (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  _cpel_window_present_tool (self, &self->event_types, _cpel_window_new_event_types);
}

static void
action_tracks (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  _cpel_window_present_tool (self, &self->tracks, _cpel_window_new_tracks);
}

static GtkWindow *
new_statistics (CpelWindow *self)
{
  return GTK_WINDOW (cpel_stats_window_new (self->session, GTK_WINDOW (self)));
}

static void
action_statistics (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  /* Shown again: counted again. */
  if (self->file != NULL && self->statistics != NULL)
    cpel_stats_window_refresh (CPEL_STATS_WINDOW (self->statistics));
  _cpel_window_present_tool (self, &self->statistics, new_statistics);
}

static GtkWindow *
new_spans (CpelWindow *self)
{
  return GTK_WINDOW (cpel_spans_window_new (self->session, GTK_WINDOW (self)));
}

static void
action_spans (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  _cpel_window_present_tool (self, &self->spans, new_spans);
}

static GtkWindow *
new_anomalies (CpelWindow *self)
{
  return GTK_WINDOW (cpel_anomalies_window_new (self->session, GTK_WINDOW (self)));
}

static void
action_anomalies (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  _cpel_window_present_tool (self, &self->anomalies, new_anomalies);
}

static void
action_anomaly_step (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  if (self->file == NULL)
    return;
  /* Nothing searched yet: show the form. */
  if (self->anomalies == NULL
      || cpel_anomalies_window_get_result (CPEL_ANOMALIES_WINDOW (self->anomalies)) == NULL)
    {
      _cpel_window_present_tool (self, &self->anomalies, new_anomalies);
      return;
    }
  cpel_anomalies_window_step (CPEL_ANOMALIES_WINDOW (self->anomalies),
                           g_str_equal (action_name, "win.anomaly-next") ? 1 : -1);
}

/* ------------------------------------------------------------------------ */
/* Search, zoom, rows                                                         */

static void
action_search (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  if (self->file != NULL)
    cpel_search_bar_set_search_mode (self->search_bar, TRUE);
}

static void
action_search_step (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  cpel_search_bar_step (self->search_bar, g_str_equal (action_name, "win.search-next") ? 1 : -1);
}

static void
action_zoom (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  /* comparing: the compare view's, around the middle of its range */
  if (cpel_window_is_comparing (self))
    {
      CpelComparePane *pane = self->compare.pane;
      const CpelCompareView *view = cpel_compare_pane_get_view (pane);
      gint64 centre = view->a.t0 + (view->a.t1 - view->a.t0) / 2;

      if (g_str_equal (action_name, "win.zoom-in"))
        cpel_compare_pane_zoom (pane, 0.5, centre);
      else if (g_str_equal (action_name, "win.zoom-out"))
        cpel_compare_pane_zoom (pane, 2.0, centre);
      else
        cpel_compare_pane_zoom_fit (pane);
      return;
    }
  if (g_str_equal (action_name, "win.zoom-in"))
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.zoom-in", NULL);
  else if (g_str_equal (action_name, "win.zoom-out"))
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.zoom-out", NULL);
  else
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.fit", NULL);
}

static void
action_row_height (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  CpelTimeline *timeline = CPEL_WINDOW (widget)->timeline;
  double step = g_str_equal (g_variant_get_string (parameter, NULL), "taller")
                ? CPEL_TIMELINE_ROW_HEIGHT_STEP : -CPEL_TIMELINE_ROW_HEIGHT_STEP;

  cpel_timeline_set_row_height (timeline, cpel_timeline_get_row_height (timeline) + step);
}

static void
action_sort_tracks (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  CpelTrackOrder *order = cpel_session_get_track_order (CPEL_WINDOW (widget)->session);
  const char *key = g_variant_get_string (parameter, NULL);
  CpelTrackSort sort;

  if (order == NULL)
    return;
  if (g_str_equal (key, "name"))
    sort = CPEL_TRACK_SORT_NAME;
  else if (g_str_equal (key, "id"))
    sort = CPEL_TRACK_SORT_ID;
  else if (g_str_equal (key, "count"))
    sort = CPEL_TRACK_SORT_COUNT;
  else if (g_str_equal (key, "default"))
    sort = CPEL_TRACK_SORT_DEFAULT;
  else
    return;
  cpel_track_order_sort (order, sort);
}

/* ------------------------------------------------------------------------ */
/* g2's chase and saved views                                                 */

static void
action_chase (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  CpelWindowChaseKind kind;

  if (g_str_equal (action_name, "win.chase-event"))
    kind = CPEL_WINDOW_CHASE_EVENT;
  else if (g_str_equal (action_name, "win.chase-datum"))
    kind = CPEL_WINDOW_CHASE_DATUM;
  else
    kind = CPEL_WINDOW_CHASE_TRACK;
  _cpel_window_chase (CPEL_WINDOW (widget), kind);
}

static void
action_no_chase (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  _cpel_window_no_chase (CPEL_WINDOW (widget));
}

static void
action_save_view (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  _cpel_window_views_save_dialog (CPEL_WINDOW (widget));
}

static void
action_view_step (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  _cpel_window_views_step (CPEL_WINDOW (widget), g_str_equal (action_name, "win.next-view") ? 1 : -1);
}

/* win.save-views (g2 p) writes the file now and says so; win.write-views
 * after a change made elsewhere (the list's rename) only on failure. */
static void
action_write_views (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  _cpel_window_views_write (CPEL_WINDOW (widget), g_str_equal (action_name, "win.save-views"));
}

static void
action_load_views (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  _cpel_window_views_reread (CPEL_WINDOW (widget));
}

static void
action_saved_views (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  _cpel_window_views_present_list (CPEL_WINDOW (widget));
}

static void
action_show_view (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  _cpel_window_views_show (CPEL_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
action_delete_view (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  _cpel_window_views_delete (CPEL_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
action_views_file (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  _cpel_window_views_choose_file (CPEL_WINDOW (widget), g_str_equal (action_name, "win.export-views"));
}

static void
action_compare (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  if (g_str_equal (action_name, "win.compare-with"))
    _cpel_window_choose_compare (self);
  else if (g_str_equal (action_name, "win.close-compare"))
    cpel_window_close_compare (self);
  else if (g_str_equal (action_name, "win.swap-compare"))
    _cpel_window_swap_compare (self);
  else if (g_str_equal (action_name, "win.compare-offset-dialog"))
    _cpel_window_ask_compare_offset (self);
  else if (g_str_equal (action_name, "win.compare-offset"))
    _cpel_window_set_compare_offset (self, g_variant_get_string (parameter, NULL));
  else
    _cpel_window_toggle_paired (self);
}

/* The Keyboard Shortcuts window, built the first time it is asked for (a
 * gtk/help-overlay.ui resource would have GtkApplication build it for
 * every window before its first frame: 15-20 ms of the start-up). */
static void
action_show_help_overlay (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (widget);
  GtkShortcutsWindow *help = gtk_application_window_get_help_overlay (window);

  if (help == NULL)
    {
      g_autoptr(GtkBuilder) builder =
        gtk_builder_new_from_resource ("/io/github/cpelview/CpelView/cpel-shortcuts.ui");

      help = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      /* Key caps as GTK's accelerator labels say them ("Page Up", a bare "w"). */
      cpel_keycaps_fix (GTK_WIDGET (help));
      gtk_application_window_set_help_overlay (window, help);
    }
  gtk_window_present (GTK_WINDOW (help));
}

/* ------------------------------------------------------------------------ */

void
_cpel_window_class_actions_init (CpelWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL,
                                   action_show_help_overlay);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, action_open);
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, action_open_folder);
  gtk_widget_class_install_action (widget_class, "win.compare-with", NULL, action_compare);
  gtk_widget_class_install_action (widget_class, "win.close-compare", NULL, action_compare);
  gtk_widget_class_install_action (widget_class, "win.swap-compare", NULL, action_compare);
  gtk_widget_class_install_action (widget_class, "win.paired-tracks", NULL, action_compare);
  gtk_widget_class_install_action (widget_class, "win.compare-offset-dialog", NULL, action_compare);
  gtk_widget_class_install_action (widget_class, "win.compare-offset", "s", action_compare);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.compare-with", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_O, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.compare-with", NULL);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", action_open_recent);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, action_cancel_load);
  gtk_widget_class_install_action (widget_class, "win.reload", NULL, action_reload);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, action_export);
  gtk_widget_class_install_action (widget_class, "win.export-to", "s", action_export_to);
  gtk_widget_class_install_action (widget_class, "win.save-range", NULL, action_save_range);
  gtk_widget_class_install_action (widget_class, "win.save-range-to", "(sb)", action_save_range_to);
  gtk_widget_class_install_action (widget_class, "win.print", NULL, action_print);

  gtk_widget_class_install_action (widget_class, "win.file-info", NULL, action_file_info);
  gtk_widget_class_install_action (widget_class, "win.set-clock-rate", NULL,
                                   action_set_clock_rate);
  gtk_widget_class_install_action (widget_class, "win.event-types", NULL, action_event_types);
  gtk_widget_class_install_action (widget_class, "win.tracks", NULL, action_tracks);
  gtk_widget_class_install_action (widget_class, "win.statistics", NULL, action_statistics);
  gtk_widget_class_install_action (widget_class, "win.anomalies", NULL, action_anomalies);
  gtk_widget_class_install_action (widget_class, "win.spans", NULL, action_spans);
  gtk_widget_class_install_action (widget_class, "win.anomaly-next", NULL, action_anomaly_step);
  gtk_widget_class_install_action (widget_class, "win.anomaly-previous", NULL, action_anomaly_step);

  gtk_widget_class_install_action (widget_class, "win.search", NULL, action_search);
  gtk_widget_class_install_action (widget_class, "win.search-next", NULL, action_search_step);
  gtk_widget_class_install_action (widget_class, "win.search-previous", NULL, action_search_step);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, action_zoom);
  gtk_widget_class_install_property_action (widget_class, "win.show-details", "show-details");
  /* They mirror the timeline's properties (its keys c, e, t and g change
   * them too). */
  gtk_widget_class_install_property_action (widget_class, "win.color-mode", "color-mode");
  gtk_widget_class_install_property_action (widget_class, "win.summary-mode", "summary-mode");
  gtk_widget_class_install_property_action (widget_class, "win.show-spans", "show-spans");
  gtk_widget_class_install_property_action (widget_class, "win.capture-clock", "capture-clock");
  gtk_widget_class_install_action (widget_class, "win.row-height", "s", action_row_height);
  gtk_widget_class_install_action (widget_class, "win.sort-tracks", "s", action_sort_tracks);

  gtk_widget_class_install_action (widget_class, "win.chase-event", NULL, action_chase);
  gtk_widget_class_install_action (widget_class, "win.chase-datum", NULL, action_chase);
  gtk_widget_class_install_action (widget_class, "win.chase-track", NULL, action_chase);
  gtk_widget_class_install_action (widget_class, "win.no-chase", NULL, action_no_chase);

  gtk_widget_class_install_action (widget_class, "win.save-view", NULL, action_save_view);
  gtk_widget_class_install_action (widget_class, "win.next-view", NULL, action_view_step);
  gtk_widget_class_install_action (widget_class, "win.previous-view", NULL, action_view_step);
  gtk_widget_class_install_action (widget_class, "win.save-views", NULL, action_write_views);
  gtk_widget_class_install_action (widget_class, "win.write-views", NULL, action_write_views);
  gtk_widget_class_install_action (widget_class, "win.load-views", NULL, action_load_views);
  gtk_widget_class_install_action (widget_class, "win.saved-views", NULL, action_saved_views);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", action_show_view);
  gtk_widget_class_install_action (widget_class, "win.delete-view", "s", action_delete_view);
  gtk_widget_class_install_action (widget_class, "win.export-views", NULL, action_views_file);
  gtk_widget_class_install_action (widget_class, "win.import-views", NULL, action_views_file);
}

/* g2's keys for the window's actions, on the timeline (its own keys are its
 * class's): they work where the timeline's do, when it has the keyboard
 * or the window passes it a key (cpel-key-capture.c). */
void
_cpel_window_add_timeline_keys (CpelWindow *self)
{
  static const struct
  {
    guint            keyval;
    GdkModifierType  modifiers;
    const char      *action;
  } keys[] = {
    /* x / z next / previous saved view, p / l write / reread them. */
    { GDK_KEY_x, 0, "win.next-view" },
    { GDK_KEY_z, 0, "win.previous-view" },
    { GDK_KEY_p, 0, "win.save-views" },
    { GDK_KEY_l, 0, "win.load-views" },
    /* Chase: h, Shift+H, Ctrl+H, u. */
    { GDK_KEY_h, 0, "win.chase-event" },
    { GDK_KEY_H, GDK_SHIFT_MASK, "win.chase-datum" },
    { GDK_KEY_h, GDK_CONTROL_MASK, "win.chase-track" },
    { GDK_KEY_u, 0, "win.no-chase" },
    /* b spans and states shown or not. */
    { GDK_KEY_b, 0, "win.show-spans" },
    /* Enter / Shift+Enter step through search matches, as in the search bar. */
    { GDK_KEY_Return, 0, "win.search-next" },
    { GDK_KEY_KP_Enter, 0, "win.search-next" },
    { GDK_KEY_Return, GDK_SHIFT_MASK, "win.search-previous" },
    { GDK_KEY_KP_Enter, GDK_SHIFT_MASK, "win.search-previous" },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_name (controller, "cpel-window-timeline-keys");
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].keyval,
                                                                                    keys[i].modifiers),
                                                            gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (GTK_WIDGET (self->timeline), controller);
}

static gboolean
in_list (const char *const *names,
         const char        *name)
{
  for (; *names != NULL; names++)
    if (g_str_equal (*names, name))
      return TRUE;
  return FALSE;
}

/* Whether an importer of this build reads folders (CTF traces) */
gboolean
_cpel_window_can_open_folders (void)
{
  const CpelImporter * const *importers = cpel_importers ();

  for (guint i = 0; importers[i] != NULL; i++)
    if (importers[i]->directory)
      return TRUE;
  return FALSE;
}

/* Whether win.NAME can be used now: after a file is shown, while loading,
 * a chase, the saved views changing.  The one place that says it. */
gboolean
_cpel_window_action_enabled (CpelWindow *self,
                             const char *name)
{
  static const char *const file_actions[] = {
    "win.export", "win.export-to", "win.save-range", "win.save-range-to", "win.print",
    "win.file-info", "win.event-types", "win.tracks", "win.statistics", "win.anomalies",
    "win.anomaly-next", "win.anomaly-previous", "win.search", "win.search-next",
    "win.search-previous", "win.zoom-in", "win.zoom-out", "win.zoom-fit", "win.show-details",
    "win.row-height", "win.sort-tracks", "win.chase-event", "win.chase-datum", "win.chase-track",
    "win.compare-with", "win.spans", NULL
  };
  static const char *const views_actions[] = {
    "win.save-view", "win.saved-views", "win.next-view", "win.previous-view", "win.save-views",
    "win.load-views", "win.import-views", NULL
  };
  static const char *const any_view_actions[] = {
    "win.export-views", "win.show-view", "win.delete-view", NULL
  };
  static const char *const compare_actions[] = {
    "win.close-compare", "win.swap-compare", "win.paired-tracks", "win.compare-offset-dialog",
    "win.compare-offset", NULL
  };
  gboolean has_file = self->file != NULL;
  gboolean has_views = self->views.views != NULL;

  if (in_list (file_actions, name))
    return has_file;
  if (in_list (views_actions, name))
    return has_views;
  if (in_list (any_view_actions, name))
    return has_views && cpel_views_get_n_views (self->views.views) > 0;
  if (in_list (compare_actions, name))
    return cpel_window_is_comparing (self);
  if (g_str_equal (name, "win.open-folder"))
    return _cpel_window_can_open_folders ();
  if (g_str_equal (name, "win.cancel-load"))
    return self->load_cancellable != NULL;
  if (g_str_equal (name, "win.reload"))
    return has_file && self->location != NULL;
  if (g_str_equal (name, "win.set-clock-rate"))
    return has_file && self->location != NULL && cpel_file_has_clock_rate (self->file);
  if (g_str_equal (name, "win.capture-clock"))
    return has_file && cpel_file_get_clock_origin (self->file, NULL) != CPEL_CLOCK_NONE;
  if (g_str_equal (name, "win.no-chase"))
    return cpel_session_get_chasing (self->session);
  /* following a source (cpel-window-follow.c) */
  if (g_str_equal (name, "win.follow") || g_str_equal (name, "win.follow-pause")
      || g_str_equal (name, "win.save-capture"))
    return self->follow.capture != NULL;
  return TRUE;
}

gboolean
cpel_window_get_action_enabled (CpelWindow *self,
                                const char *name)
{
  g_autofree char *full = NULL;

  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  full = g_strconcat ("win.", name, NULL);
  return _cpel_window_action_enabled (self, full);
}

void
_cpel_window_update_actions (CpelWindow *self)
{
  GtkWidgetClass *klass = GTK_WIDGET_GET_CLASS (self);
  gboolean has_file = self->file != NULL;
  const GVariantType *parameter_type;
  const char *name, *property_name;
  GType owner;

  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &name, &parameter_type,
                                                   &property_name); i++)
    if (g_str_has_prefix (name, "win."))
      gtk_widget_action_set_enabled (GTK_WIDGET (self), name,
                                     _cpel_window_action_enabled (self, name));
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_button), has_file);
  /* Without a file there is no details pane: no toggle that looks pressed
   * (the remembered state) while it can do nothing. */
  gtk_widget_set_visible (GTK_WIDGET (self->details_button), has_file);
}
