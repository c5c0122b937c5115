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
#include "cpel-print.h"
#include "cpel-stats-window.h"
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

  cpel_window_open (CPEL_WINDOW (widget), file);
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
  CpelTrackOrder *order = cpel_timeline_get_track_order (CPEL_WINDOW (widget)->timeline);
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

/* ------------------------------------------------------------------------ */

void
_cpel_window_class_actions_init (CpelWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

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
  gtk_widget_class_install_action (widget_class, "win.event-types", NULL, action_event_types);
  gtk_widget_class_install_action (widget_class, "win.tracks", NULL, action_tracks);
  gtk_widget_class_install_action (widget_class, "win.statistics", NULL, action_statistics);
  gtk_widget_class_install_action (widget_class, "win.anomalies", NULL, action_anomalies);
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

static void set_enabled (CpelWindowActions *self,
                         const char        *name,
                         gboolean           enabled);

static void
enable (CpelWindow *self,
        const char *name,
        gboolean    enabled)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), name, enabled);
  if (self->actions != NULL)
    set_enabled (self->actions, name, enabled);
}

/* Which actions can be used now: after a file is shown, while loading, a
 * chase, the saved views changing. */
void
_cpel_window_update_actions (CpelWindow *self)
{
  static const char *const file_actions[] = {
    "win.export", "win.export-to", "win.save-range", "win.save-range-to", "win.print",
    "win.file-info", "win.event-types", "win.tracks", "win.statistics", "win.anomalies",
    "win.anomaly-next", "win.anomaly-previous", "win.search", "win.search-next",
    "win.search-previous", "win.zoom-in", "win.zoom-out", "win.zoom-fit", "win.show-details",
    "win.row-height", "win.sort-tracks", "win.chase-event", "win.chase-datum", "win.chase-track",
  };
  static const char *const views_actions[] = {
    "win.save-view", "win.saved-views", "win.next-view", "win.previous-view", "win.save-views",
    "win.load-views", "win.import-views",
  };
  static const char *const any_view_actions[] = {
    "win.export-views", "win.show-view", "win.delete-view",
  };
  gboolean has_file = self->file != NULL;
  gboolean has_views = self->views.views != NULL;
  gboolean any_view = has_views && cpel_views_get_n_views (self->views.views) > 0;

  for (guint i = 0; i < G_N_ELEMENTS (file_actions); i++)
    enable (self, file_actions[i], has_file);
  for (guint i = 0; i < G_N_ELEMENTS (views_actions); i++)
    enable (self, views_actions[i], has_views);
  for (guint i = 0; i < G_N_ELEMENTS (any_view_actions); i++)
    enable (self, any_view_actions[i], any_view);
  enable (self, "win.cancel-load", self->load_cancellable != NULL);
  enable (self, "win.compare-with", has_file);
  enable (self, "win.close-compare", cpel_window_is_comparing (self));
  enable (self, "win.swap-compare", cpel_window_is_comparing (self));
  enable (self, "win.paired-tracks", cpel_window_is_comparing (self));
  enable (self, "win.compare-offset-dialog", cpel_window_is_comparing (self));
  enable (self, "win.compare-offset", cpel_window_is_comparing (self));
  enable (self, "win.reload", has_file && self->location != NULL);
  enable (self, "win.no-chase", cpel_session_get_chasing (self->session));
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_button), has_file);
  /* Without a file there is no details pane: no toggle that looks pressed
   * (the remembered state) while it can do nothing. */
  gtk_widget_set_visible (GTK_WIDGET (self->details_button), has_file);
}

/* ------------------------------------------------------------------------ */
/* The same actions as a GActionGroup, for the window's tool windows        */

/* Tool windows are toplevels of their own: GTK looks their actions up in
 * them and in the application, not in the window they belong to.  They
 * insert this group as "win": it activates the window's widget actions,
 * says which are enabled (what _cpel_window_update_actions() set) and
 * gives the state of the property actions. */
struct _CpelWindowActions
{
  GObject     parent_instance;
  CpelWindow *window;     /* weak */
  GHashTable *disabled;   /* names (without "win.") */
};

static void cpel_window_actions_group_init (GActionGroupInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CpelWindowActions, cpel_window_actions, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_ACTION_GROUP,
                                                      cpel_window_actions_group_init))

/* The window class's action `name` (without "win."). */
static gboolean
find_action (const char          *name,
             const GVariantType **parameter_type,
             const char         **property_name)
{
  GtkWidgetClass *klass = g_type_class_peek (CPEL_TYPE_WINDOW);
  const char *installed;
  GType owner;

  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &installed, parameter_type,
                                                   property_name); i++)
    if (g_str_has_prefix (installed, "win.") && g_str_equal (installed + 4, name))
      return TRUE;
  return FALSE;
}

static char **
cpel_window_actions_list_actions (GActionGroup *group)
{
  GtkWidgetClass *klass = g_type_class_peek (CPEL_TYPE_WINDOW);
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  const char *installed;
  const GVariantType *parameter_type;
  const char *property_name;
  GType owner;

  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &installed, &parameter_type,
                                                   &property_name); i++)
    if (g_str_has_prefix (installed, "win."))
      g_strv_builder_add (names, installed + 4);
  return g_strv_builder_end (names);
}

static GVariant *
property_state (CpelWindow *window,
                const char *property_name)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (window), property_name);
  g_auto(GValue) value = G_VALUE_INIT;

  g_value_init (&value, pspec->value_type);
  g_object_get_property (G_OBJECT (window), property_name, &value);
  if (G_VALUE_HOLDS_BOOLEAN (&value))
    return g_variant_new_boolean (g_value_get_boolean (&value));
  if (G_VALUE_HOLDS_ENUM (&value))
    {
      g_autoptr(GEnumClass) enum_class = g_type_class_ref (pspec->value_type);
      GEnumValue *enum_value = g_enum_get_value (enum_class, g_value_get_enum (&value));

      return g_variant_new_string (enum_value != NULL ? enum_value->value_nick : "");
    }
  g_return_val_if_reached (NULL);
}

static gboolean
cpel_window_actions_query_action (GActionGroup        *group,
                                  const char          *name,
                                  gboolean            *enabled,
                                  const GVariantType **parameter_type,
                                  const GVariantType **state_type,
                                  GVariant           **state_hint,
                                  GVariant           **state)
{
  CpelWindowActions *self = CPEL_WINDOW_ACTIONS (group);
  const GVariantType *parameter = NULL;
  const char *property_name = NULL;
  g_autoptr(GVariant) current = NULL;

  if (!find_action (name, &parameter, &property_name))
    return FALSE;
  if (property_name != NULL && self->window != NULL)
    current = g_variant_ref_sink (property_state (self->window, property_name));
  if (enabled != NULL)
    *enabled = self->window != NULL && !g_hash_table_contains (self->disabled, name);
  if (parameter_type != NULL)
    *parameter_type = parameter;
  if (state_type != NULL)
    *state_type = current != NULL ? g_variant_get_type (current) : NULL;
  if (state_hint != NULL)
    *state_hint = NULL;
  if (state != NULL)
    *state = g_steal_pointer (&current);
  return TRUE;
}

static void
cpel_window_actions_activate_action (GActionGroup *group,
                                     const char   *name,
                                     GVariant     *parameter)
{
  CpelWindowActions *self = CPEL_WINDOW_ACTIONS (group);
  g_autofree char *full = g_strconcat ("win.", name, NULL);
  g_autoptr(GVariant) owned = parameter != NULL ? g_variant_ref_sink (parameter) : NULL;

  if (self->window != NULL)
    gtk_widget_activate_action_variant (GTK_WIDGET (self->window), full, parameter);
}

static void
cpel_window_actions_change_action_state (GActionGroup *group,
                                         const char   *name,
                                         GVariant     *value)
{
  CpelWindowActions *self = CPEL_WINDOW_ACTIONS (group);
  g_autoptr(GVariant) owned = g_variant_ref_sink (value);
  const GVariantType *parameter = NULL;
  const char *property_name = NULL;

  if (self->window == NULL || !find_action (name, &parameter, &property_name) || property_name == NULL)
    return;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
    g_object_set (self->window, property_name, g_variant_get_boolean (value), NULL);
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      /* An enum: the same as activating it with the nick. */
      g_autofree char *full = g_strconcat ("win.", name, NULL);

      gtk_widget_activate_action_variant (GTK_WIDGET (self->window), full, value);
    }
}

static void
cpel_window_actions_group_init (GActionGroupInterface *iface)
{
  iface->list_actions = cpel_window_actions_list_actions;
  iface->query_action = cpel_window_actions_query_action;
  iface->activate_action = cpel_window_actions_activate_action;
  iface->change_action_state = cpel_window_actions_change_action_state;
}

static void
cpel_window_actions_finalize (GObject *object)
{
  CpelWindowActions *self = CPEL_WINDOW_ACTIONS (object);

  g_clear_weak_pointer (&self->window);
  g_clear_pointer (&self->disabled, g_hash_table_unref);
  G_OBJECT_CLASS (cpel_window_actions_parent_class)->finalize (object);
}

static void
cpel_window_actions_class_init (CpelWindowActionsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cpel_window_actions_finalize;
}

static void
cpel_window_actions_init (CpelWindowActions *self)
{
  self->disabled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* A property action's property changed: its state did. */
static void
on_window_notify (CpelWindow        *window,
                  GParamSpec        *pspec,
                  CpelWindowActions *self)
{
  const GVariantType *parameter;
  const char *property_name = NULL;

  if (find_action (pspec->name, &parameter, &property_name) && property_name != NULL)
    {
      g_autoptr(GVariant) state = g_variant_ref_sink (property_state (window, property_name));

      g_action_group_action_state_changed (G_ACTION_GROUP (self), pspec->name, state);
    }
}

CpelWindowActions *
_cpel_window_actions_new (CpelWindow *window)
{
  CpelWindowActions *self = g_object_new (CPEL_TYPE_WINDOW_ACTIONS, NULL);

  g_set_weak_pointer (&self->window, window);
  g_signal_connect_object (window, "notify", G_CALLBACK (on_window_notify), self, 0);
  return self;
}

static void
set_enabled (CpelWindowActions *self,
             const char        *name,
             gboolean           enabled)
{
  g_assert (g_str_has_prefix (name, "win."));

  name += 4;
  if (enabled == !g_hash_table_contains (self->disabled, name))
    return;
  if (enabled)
    g_hash_table_remove (self->disabled, name);
  else
    g_hash_table_add (self->disabled, g_strdup (name));
  g_action_group_action_enabled_changed (G_ACTION_GROUP (self), name, enabled);
}

GActionGroup *
cpel_window_get_actions (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return G_ACTION_GROUP (self->actions);
}
