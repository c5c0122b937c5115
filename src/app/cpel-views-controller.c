/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-views-controller.c — saved views (g2's snapshots) on a window (see
 * the header) */
#include "cpel-views-controller.h"

#include <glib/gi18n.h>

#include "cpel-saved-views.h"
#include "cpel-window-tools.h"

#define DATA_KEY "cpel-views-controller"

typedef struct
{
  CpelWindow      *window;    /* not owned: the data lives on it */
  CpelFile        *file;      /* the file the views belong to */
  CpelViews       *views;
  char            *pending;   /* view to show once loaded */
  GtkWindow       *list;      /* the Saved Views window (weak) */
  GtkNativeDialog *chooser;
} Controller;

static Controller *
get_controller (CpelWindow *window)
{
  return g_object_get_data (G_OBJECT (window), DATA_KEY);
}

/* One at a time (the toaster replaces the message shown): stepping
 * through the views with x / z says where it is now, not where it was a
 * few presses ago. */
static void
toast (Controller *ctl,
       const char *text)
{
  cpel_toaster_show (cpel_window_get_toaster (ctl->window), text);
}

static void
update_actions (Controller *ctl)
{
  GActionMap *map = G_ACTION_MAP (ctl->window);
  gboolean has = ctl->views != NULL;
  gboolean any = has && cpel_views_get_n_views (ctl->views) > 0;

  cpel_window_tools_enable (map, "save-view", has);
  cpel_window_tools_enable (map, "saved-views", has);
  cpel_window_tools_enable (map, "next-view", has);
  cpel_window_tools_enable (map, "previous-view", has);
  cpel_window_tools_enable (map, "save-views", has);
  cpel_window_tools_enable (map, "load-views", has);
  cpel_window_tools_enable (map, "import-views", has);
  cpel_window_tools_enable (map, "export-views", any);
  cpel_window_tools_enable (map, "show-view", any);
  cpel_window_tools_enable (map, "delete-view", any);
}

static void
report_error (Controller *ctl,
              const char *what,
              GError     *error)
{
  /* TRANSLATORS: toast: what failed, then why */
  g_autofree char *text = g_strdup_printf (_("%s: %s"), what, error->message);

  toast (ctl, text);
}

/* Write the views now; a toast on failure. */
static gboolean
save_now (Controller  *ctl,
          GError     **error)
{
  g_autoptr(GError) local = NULL;

  if (ctl->views == NULL)
    return TRUE;
  if (cpel_views_save (ctl->views, &local))
    return TRUE;
  if (error != NULL)
    *error = g_error_copy (local);
  report_error (ctl, _("Could not save the views"), local);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Between the window and a saved view                                        */

CpelSavedView *
cpel_views_controller_capture (CpelWindow *window,
                               const char *name)
{
  CpelTimeline *timeline;
  CpelTrackOrder *order;
  CpelFile *file;
  CpelSavedView *view;
  const guint *rows;
  guint n_rows, slot;
  guint64 index;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), NULL);
  g_return_val_if_fail (name != NULL && *name != '\0', NULL);

  file = cpel_window_get_file (window);
  if (file == NULL)
    return NULL;
  timeline = cpel_window_get_timeline (window);
  order = cpel_timeline_get_track_order (timeline);

  view = cpel_saved_view_new (name);
  cpel_timeline_get_range (timeline, &view->t0, &view->t1);

  /* The rows exactly; every track in file order is kept as "every track". */
  rows = cpel_track_order_get_rows (order, &n_rows);
  cpel_saved_view_set_rows (view, file, rows, rows != NULL ? n_rows : 0);
  if (rows != NULL)
    {
      guint n_tracks = cpel_file_get_n_tracks (file);
      g_autofree guint8 *shown = g_malloc0 (MAX (n_tracks, 1));

      for (guint r = 0; r < n_rows; r++)
        shown[rows[r]] = 1;
      for (guint s = 0; s < n_tracks; s++)
        if (!shown[s])
          {
            guint32 id = cpel_file_get_track_id (file, s);

            g_array_append_val (view->hidden_tracks, id);
          }
    }

  cpel_saved_view_set_hidden_types (view, file, cpel_timeline_get_hidden_types (timeline));

  if (cpel_timeline_get_selection (timeline, &slot, &index))
    {
      CpelEvent event;

      cpel_file_get_track_event (file, slot, index, &event);
      view->has_selection = TRUE;
      view->selected_track = event.track_id;
      view->selected_time = event.time_ns;
      view->selected_file_index = event.file_index;
    }
  view->scroll_y = MAX (0.0, gtk_adjustment_get_value (cpel_timeline_get_vadjustment (timeline)));
  return view;
}

void
cpel_views_controller_apply (CpelWindow          *window,
                             const CpelSavedView *view)
{
  CpelTimeline *timeline;
  CpelTrackOrder *order;
  CpelFile *file;
  g_autofree guint *rows = NULL;
  g_autofree guint8 *hidden_types = NULL;
  guint n_rows, slot;
  guint64 index;

  g_return_if_fail (CPEL_IS_WINDOW (window));
  g_return_if_fail (view != NULL);

  file = cpel_window_get_file (window);
  if (file == NULL)
    return;
  timeline = cpel_window_get_timeline (window);
  order = cpel_timeline_get_track_order (timeline);

  rows = cpel_saved_view_get_rows (view, file, &n_rows);
  if (rows != NULL)
    cpel_track_order_set_rows (order, rows, n_rows);
  else
    {
      cpel_track_order_reset (order);
      for (guint i = 0; view->hidden_tracks != NULL && i < view->hidden_tracks->len; i++)
        if (cpel_file_lookup_track (file, g_array_index (view->hidden_tracks, guint32, i), &slot))
          cpel_track_order_set_hidden (order, slot, TRUE);
    }

  /* Types before the selection: hiding a type drops a selection of it. */
  hidden_types = cpel_saved_view_get_hidden_types (view, file);
  cpel_timeline_set_hidden_types (timeline, hidden_types);
  cpel_timeline_set_range (timeline, view->t0, view->t1, TRUE);
  if (cpel_saved_view_find_selection (view, file, &slot, &index))
    cpel_timeline_select (timeline, slot, index, FALSE);
  else
    cpel_timeline_unselect (timeline);
  gtk_adjustment_set_value (cpel_timeline_get_vadjustment (timeline), view->scroll_y);
}

char *
cpel_views_controller_new_name (CpelWindow *window)
{
  Controller *ctl;
  guint n;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), NULL);
  ctl = get_controller (window);
  n = ctl != NULL && ctl->views != NULL ? cpel_views_get_n_views (ctl->views) : 0;
  for (guint i = n + 1; ; i++)
    {
      /* TRANSLATORS: the default name of a saved view */
      char *name = g_strdup_printf (_("View %u"), i);

      if (ctl == NULL || ctl->views == NULL || !cpel_views_lookup (ctl->views, name, NULL))
        return name;
      g_free (name);
    }
}

gboolean
cpel_views_controller_save_view (CpelWindow  *window,
                                 const char  *name,
                                 GError     **error)
{
  Controller *ctl;
  g_autoptr(CpelSavedView) view = NULL;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  ctl = get_controller (window);
  if (ctl == NULL || ctl->views == NULL || *name == '\0')
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No capture file is open"));
      return FALSE;
    }
  view = cpel_views_controller_capture (window, name);
  cpel_views_put (ctl->views, view);
  return save_now (ctl, error);
}

CpelViews *
cpel_views_controller_get_views (CpelWindow *window)
{
  Controller *ctl;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), NULL);
  ctl = get_controller (window);
  return ctl != NULL ? ctl->views : NULL;
}

static gboolean
show_named (Controller *ctl,
            const char *name)
{
  guint i;

  if (ctl->views == NULL || !cpel_views_lookup (ctl->views, name, &i))
    {
      /* TRANSLATORS: toast; %s is a view name */
      g_autofree char *text = g_strdup_printf (_("No saved view named “%s”"), name);

      toast (ctl, text);
      return FALSE;
    }
  cpel_views_set_current (ctl->views, (int) i);
  cpel_views_controller_apply (ctl->window, cpel_views_get_view (ctl->views, i));
  return TRUE;
}

void
cpel_views_controller_open_view (CpelWindow *window,
                                 const char *name)
{
  Controller *ctl;

  g_return_if_fail (CPEL_IS_WINDOW (window));
  g_return_if_fail (name != NULL);

  ctl = get_controller (window);
  if (ctl == NULL)
    return;
  if (ctl->views != NULL)
    {
      show_named (ctl, name);
      return;
    }
  g_free (ctl->pending);
  ctl->pending = g_strdup (name);
}

/* ------------------------------------------------------------------------ */
/* A new file                                                                 */

static void
on_views_changed (Controller *ctl)
{
  update_actions (ctl);
}

static void
on_file_changed (CpelWindow *window,
                 GParamSpec *pspec,
                 Controller *ctl)
{
  CpelFile *file = cpel_window_get_file (window);
  GFile *location = cpel_window_get_location (window);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (file == ctl->file)
    return;
  g_set_object (&ctl->file, file);
  if (ctl->views != NULL)
    g_signal_handlers_disconnect_by_data (ctl->views, ctl);
  g_clear_object (&ctl->views);
  if (ctl->list != NULL)
    gtk_window_destroy (ctl->list);

  path = file != NULL && location != NULL ? g_file_get_path (location) : NULL;
  if (path != NULL)
    {
      ctl->views = cpel_views_new (path);
      g_signal_connect_swapped (ctl->views, "changed", G_CALLBACK (on_views_changed), ctl);
      if (!cpel_views_load (ctl->views, &error))
        report_error (ctl, _("Could not read the saved views"), error);
    }
  update_actions (ctl);

  if (ctl->pending != NULL && file != NULL)
    {
      g_autofree char *name = g_steal_pointer (&ctl->pending);

      show_named (ctl, name);
    }
}

/* ------------------------------------------------------------------------ */
/* Save View dialog                                                           */

static void
on_name_changed (GtkEditable      *entry,
                 AdwMessageDialog *dialog)
{
  CpelWindow *window = g_object_get_data (G_OBJECT (dialog), "window");
  Controller *ctl = get_controller (window);
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));
  gboolean exists = ctl != NULL && ctl->views != NULL && cpel_views_lookup (ctl->views, name, NULL);

  adw_message_dialog_set_response_enabled (dialog, "save", *name != '\0');
  adw_message_dialog_set_response_label (dialog, "save", exists ? _("_Replace") : _("_Save"));
  adw_message_dialog_set_response_appearance (dialog, "save",
                                              exists ? ADW_RESPONSE_DESTRUCTIVE : ADW_RESPONSE_SUGGESTED);
  if (exists)
    {
      /* TRANSLATORS: %s is a view name */
      g_autofree char *body = g_strdup_printf (_("A view named “%s” exists: saving replaces it."), name);

      adw_message_dialog_set_body (dialog, body);
    }
  else
    adw_message_dialog_set_body (dialog, _("Come back to it from Saved Views, or step through "
                                           "your views with x and z."));
}

static void
on_save_response (AdwMessageDialog *dialog,
                  const char       *response,
                  GtkEditable      *entry)
{
  CpelWindow *window = g_object_get_data (G_OBJECT (dialog), "window");
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  if (g_str_equal (response, "save") && *name != '\0' && get_controller (window) != NULL
      && cpel_views_controller_save_view (window, name, NULL))
    {
      /* TRANSLATORS: toast; %s is a view name */
      g_autofree char *text = g_strdup_printf (_("View “%s” saved"), name);

      toast (get_controller (window), text);
    }
}

static void
action_save_view (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       data)
{
  CpelWindow *window = data;
  Controller *ctl = get_controller (window);
  g_autofree char *name = NULL;
  GtkWidget *dialog, *entry;
  GtkWindow *parent;

  if (ctl == NULL || ctl->views == NULL)
    return;
  /* From the Saved Views window: over it. */
  parent = ctl->list != NULL && gtk_widget_get_visible (GTK_WIDGET (ctl->list))
           && gtk_window_is_active (ctl->list) ? ctl->list : GTK_WINDOW (window);

  name = cpel_views_controller_new_name (window);
  dialog = adw_message_dialog_new (parent, _("Save View"), NULL);
  /* It refers to the window: it goes with it. */
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  g_object_set_data (G_OBJECT (dialog), "window", window);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  entry = gtk_entry_new ();
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (entry), name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("View name"), -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  g_signal_connect (entry, "changed", G_CALLBACK (on_name_changed), dialog);
  on_name_changed (GTK_EDITABLE (entry), ADW_MESSAGE_DIALOG (dialog));
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), entry);

  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
  gtk_editable_select_region (GTK_EDITABLE (entry), 0, -1);
}

/* ------------------------------------------------------------------------ */
/* Stepping, disk                                                             */

static void
step (Controller *ctl,
      int         direction)
{
  const CpelSavedView *view;
  g_autofree char *text = NULL;
  guint n;

  if (ctl->views == NULL)
    return;
  n = cpel_views_get_n_views (ctl->views);
  if (n == 0)
    {
      cpel_toaster_show_full (cpel_window_get_toaster (ctl->window), _("No saved views yet"),
                              CPEL_TOASTER_TIMEOUT, _("_Save View…"), "win.save-view", NULL);
      return;
    }
  view = direction > 0 ? cpel_views_next (ctl->views) : cpel_views_previous (ctl->views);
  cpel_views_controller_apply (ctl->window, view);
  /* TRANSLATORS: toast: "View 2 of 5: name" */
  text = g_strdup_printf (_("View %d of %u: %s"), cpel_views_get_current (ctl->views) + 1, n,
                          view->name);
  toast (ctl, text);
}

static void
action_step (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));

  if (ctl != NULL)
    step (ctl, g_str_equal (g_action_get_name (G_ACTION (action)), "next-view") ? 1 : -1);
}

static void
action_save_views (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  g_autofree char *text = NULL;
  guint n;

  if (ctl == NULL || ctl->views == NULL)
    return;
  n = cpel_views_get_n_views (ctl->views);
  if (n == 0)
    {
      /* Saving none would remove the file: keep it for `l`. */
      toast (ctl, _("No saved views to write"));
      return;
    }
  path = cpel_views_get_save_path (ctl->views);
  if (!save_now (ctl, NULL))
    return;
  {
    g_autofree char *sidecar = cpel_views_get_sidecar_path (ctl->views);

    /* Next to the capture: its name says enough; elsewhere (the capture's
     * folder is read-only) the whole path. */
    base = g_strcmp0 (path, sidecar) == 0 ? g_filename_display_basename (path)
                                          : g_filename_display_name (path);
  }
  /* TRANSLATORS: toast; %u views, %s a file name */
  text = g_strdup_printf (ngettext ("%u view written to “%s”", "%u views written to “%s”", n), n, base);
  toast (ctl, text);
}

/* After a change made elsewhere (the list's rename): write, toast only on
 * failure. */
static void
action_write_views (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));

  if (ctl != NULL)
    save_now (ctl, NULL);
}

static void
action_load_views (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint n;

  if (ctl == NULL || ctl->views == NULL)
    return;
  if (!cpel_views_load (ctl->views, &error))
    {
      report_error (ctl, _("Could not read the saved views"), error);
      return;
    }
  n = cpel_views_get_n_views (ctl->views);
  if (n == 0)
    text = g_strdup (_("This capture has no saved views"));
  else
    /* TRANSLATORS: toast */
    text = g_strdup_printf (ngettext ("%u saved view read", "%u saved views read", n), n);
  toast (ctl, text);
}

static void
action_show_view (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));

  if (ctl != NULL)
    show_named (ctl, g_variant_get_string (parameter, NULL));
}

static void
action_delete_view (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));

  if (ctl == NULL || ctl->views == NULL)
    return;
  if (cpel_views_remove (ctl->views, g_variant_get_string (parameter, NULL)))
    save_now (ctl, NULL);
}

static void
action_saved_views (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));

  if (ctl == NULL || ctl->views == NULL)
    return;
  if (ctl->list == NULL)
    {
      ctl->list = cpel_saved_views_new (ctl->window, ctl->views);
      g_object_add_weak_pointer (G_OBJECT (ctl->list), (gpointer *) &ctl->list);
    }
  gtk_window_present (ctl->list);
}

/* ------------------------------------------------------------------------ */
/* Export, import                                                             */

static GtkFileFilter *
views_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Saved Views"));
  gtk_file_filter_add_suffix (filter, "cpelviews");
  return filter;
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     Controller      *ctl)
{
  gboolean export = gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)) == GTK_FILE_CHOOSER_ACTION_SAVE;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    path = g_file_get_path (file);
  if (path != NULL && ctl->views != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *base = g_filename_display_basename (path);
      g_autofree char *text = NULL;

      if (export)
        {
          if (cpel_views_export (ctl->views, path, &error))
            /* TRANSLATORS: toast; %s is a file name */
            text = g_strdup_printf (_("Views exported to “%s”"), base);
          else
            report_error (ctl, _("Could not export the views"), error);
        }
      else
        {
          guint before = cpel_views_get_n_views (ctl->views);

          if (cpel_views_import (ctl->views, path, &error))
            {
              guint added = cpel_views_get_n_views (ctl->views) - MIN (before, cpel_views_get_n_views (ctl->views));

              save_now (ctl, NULL);
              /* TRANSLATORS: toast; %s is a file name */
              text = g_strdup_printf (ngettext ("Views imported from “%s” (%u new)",
                                                "Views imported from “%s” (%u new)", added),
                                      base, added);
            }
          else
            report_error (ctl, _("Could not import the views"), error);
        }
      if (text != NULL)
        toast (ctl, text);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&ctl->chooser);
}

static void
choose_file (Controller *ctl,
             gboolean    export)
{
  GtkWindow *parent = ctl->list != NULL && gtk_widget_get_visible (GTK_WIDGET (ctl->list))
                      ? ctl->list : GTK_WINDOW (ctl->window);
  g_autoptr(GtkFileFilter) filter = views_filter ();
  GtkFileChooser *chooser;

  if (ctl->views == NULL)
    return;
  if (ctl->chooser != NULL)
    gtk_native_dialog_destroy (ctl->chooser);
  g_clear_object (&ctl->chooser);

  ctl->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (export ? _("Export Views") : _("Import Views"),
                                                                 parent,
                                                                 export ? GTK_FILE_CHOOSER_ACTION_SAVE
                                                                        : GTK_FILE_CHOOSER_ACTION_OPEN,
                                                                 export ? _("_Export") : _("_Import"),
                                                                 _("_Cancel")));
  chooser = GTK_FILE_CHOOSER (ctl->chooser);
  gtk_native_dialog_set_modal (ctl->chooser, TRUE);
  gtk_file_chooser_add_filter (chooser, filter);
  {
    g_autoptr(GFile) capture = g_file_new_for_path (cpel_views_get_capture_path (ctl->views));
    g_autoptr(GFile) dir = g_file_get_parent (capture);

    if (dir != NULL)
      gtk_file_chooser_set_current_folder (chooser, dir, NULL);
    if (export)
      {
        g_autofree char *base = g_file_get_basename (capture);
        g_autofree char *name = g_strconcat (base != NULL ? base : "capture", CPEL_VIEWS_SUFFIX, NULL);

        gtk_file_chooser_set_current_name (chooser, name);
      }
  }
  g_signal_connect (ctl->chooser, "response", G_CALLBACK (on_chooser_response), ctl);
  gtk_native_dialog_show (ctl->chooser);
}

static void
action_export_views (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));
  const char *scripted = g_getenv ("CPEL_VIEWS_EXPORT_PATH");

  if (ctl == NULL || ctl->views == NULL)
    return;
  if (scripted != NULL && *scripted != '\0')
    {
      /* Automation, as CPEL_EXPORT_PATH for images. */
      g_autoptr(GError) error = NULL;

      if (!cpel_views_export (ctl->views, scripted, &error))
        report_error (ctl, _("Could not export the views"), error);
      return;
    }
  choose_file (ctl, TRUE);
}

static void
action_import_views (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       data)
{
  Controller *ctl = get_controller (CPEL_WINDOW (data));

  if (ctl != NULL)
    choose_file (ctl, FALSE);
}

/* ------------------------------------------------------------------------ */

static const GActionEntry entries[] = {
  { "save-view", action_save_view },
  { "next-view", action_step },
  { "previous-view", action_step },
  { "save-views", action_save_views },
  { "write-views", action_write_views },
  { "load-views", action_load_views },
  { "saved-views", action_saved_views },
  { "show-view", action_show_view, "s" },
  { "delete-view", action_delete_view, "s" },
  { "export-views", action_export_views },
  { "import-views", action_import_views },
};

static void
controller_free (Controller *ctl)
{
  if (ctl->views != NULL)
    g_signal_handlers_disconnect_by_data (ctl->views, ctl);
  g_clear_object (&ctl->views);
  g_clear_object (&ctl->file);
  if (ctl->chooser != NULL)
    gtk_native_dialog_destroy (ctl->chooser);
  g_clear_object (&ctl->chooser);
  if (ctl->list != NULL)
    g_object_remove_weak_pointer (G_OBJECT (ctl->list), (gpointer *) &ctl->list);
  g_free (ctl->pending);
  g_free (ctl);
}

static void
on_destroy (CpelWindow *window,
            Controller *ctl)
{
  /* The list window is transient for this one: it goes first. */
  if (ctl->list != NULL)
    gtk_window_destroy (ctl->list);
  if (ctl->chooser != NULL)
    gtk_native_dialog_destroy (ctl->chooser);
  g_clear_object (&ctl->chooser);
}

void
cpel_views_controller_install (CpelWindow *window)
{
  Controller *ctl;

  g_return_if_fail (CPEL_IS_WINDOW (window));

  ctl = g_new0 (Controller, 1);
  ctl->window = window;
  g_object_set_data_full (G_OBJECT (window), DATA_KEY, ctl, (GDestroyNotify) controller_free);
  g_action_map_add_action_entries (G_ACTION_MAP (window), entries, G_N_ELEMENTS (entries), window);
  g_signal_connect (window, "notify::file", G_CALLBACK (on_file_changed), ctl);
  g_signal_connect (window, "destroy", G_CALLBACK (on_destroy), ctl);
  update_actions (ctl);
}
