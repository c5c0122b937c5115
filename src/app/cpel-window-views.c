/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-views.c — saved views (g2's snapshots) of the window's capture
 *
 * The views (CpelViews: a sidecar next to the capture, or the user data
 * dir) are loaded when a file is shown and saved after every change.
 * Actions: win.save-view (a dialog for the name), win.next-view /
 * win.previous-view (g2 x / z), win.save-views / win.load-views (g2 p / l:
 * write / reread the file now), win.saved-views (the list window),
 * win.export-views / win.import-views (a chosen file), win.show-view,
 * win.delete-view.
 */
#include "cpel-window-private.h"

#include <glib/gi18n.h>

#include "cpel-close-with-parent.h"
#include "cpel-saved-views-window.h"
#include "cpel-span-settings.h"

/* One at a time: stepping through the views with x / z says where it is
 * now, not where it was a few presses ago. */
static void
toast (CpelWindow *self,
       const char *text)
{
  cpel_toaster_show (self->toaster, text);
}

static void
report_error (CpelWindow *self,
              const char *what,
              GError     *error)
{
  /* TRANSLATORS: toast: what failed, then why */
  g_autofree char *text = g_strdup_printf (_("%s: %s"), what, error->message);

  toast (self, text);
}

/* Write the views now; a toast on failure. */
static gboolean
save_now (CpelWindow  *self,
          GError     **error)
{
  g_autoptr(GError) local = NULL;

  if (self->views.views == NULL)
    return TRUE;
  if (cpel_views_save (self->views.views, &local))
    return TRUE;
  if (error != NULL)
    *error = g_error_copy (local);
  report_error (self, _("Could not save the views"), local);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Between the window and a saved view                                        */

CpelSavedView *
cpel_window_capture_view (CpelWindow *self,
                               const char *name)
{
  GtkAdjustment *adjustment;
  CpelSavedView *view;

  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (name != NULL && *name != '\0', NULL);

  if (self->file == NULL)
    return NULL;
  /* The session's state; the scroll is the timeline's. */
  view = cpel_session_capture_view (self->session, name);
  if (view == NULL)
    return NULL;
  adjustment = cpel_timeline_get_vadjustment (self->timeline);
  view->scroll_y = MAX (0.0, gtk_adjustment_get_value (adjustment));

  /* comparing: the range shown in the panes and how they are aligned */
  if (cpel_window_is_comparing (self))
    {
      const CpelCompareView *cv = cpel_compare_pane_get_view (self->compare.pane);

      view->t0 = cv->a.t0;
      view->t1 = cv->a.t1;
      view->has_alignment = TRUE;
      view->compare_offset = cpel_session_get_compare_offset (self->session);
      view->compare_origin = cpel_session_get_compare_origin (self->session);
    }
  return view;
}

/* What of a view is the window's, not the session's: the scroll, and
 * while comparing the panes' range and alignment. */
static void
apply_view_to_widgets (CpelWindow          *self,
                       const CpelSavedView *view)
{
  gtk_adjustment_set_value (cpel_timeline_get_vadjustment (self->timeline), view->scroll_y);

  /* comparing: the panes take the range, and the alignment when saved */
  if (cpel_window_is_comparing (self))
    {
      if (view->has_alignment)
        cpel_session_set_compare_alignment (self->session, view->compare_offset,
                                            view->compare_origin);
      cpel_compare_pane_set_range (self->compare.pane, view->t0, view->t1);
    }
}

void
cpel_window_apply_view (CpelWindow          *self,
                             const CpelSavedView *view)
{
  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (view != NULL);

  if (self->file == NULL)
    return;
  cpel_session_apply_view (self->session, view);
  apply_view_to_widgets (self, view);
}

char *
cpel_window_new_view_name (CpelWindow *self)
{
  
  guint n;

  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  n = self->views.views != NULL ? cpel_views_get_n_views (self->views.views) : 0;
  for (guint i = n + 1; ; i++)
    {
      /* TRANSLATORS: the default name of a saved view */
      char *name = g_strdup_printf (_("View %u"), i);

      if (self->views.views == NULL || !cpel_views_lookup (self->views.views, name, NULL))
        return name;
      g_free (name);
    }
}

gboolean
cpel_window_save_view (CpelWindow  *self,
                                 const char  *name,
                                 GError     **error)
{
  
  g_autoptr(CpelSavedView) view = NULL;

  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (self->views.views == NULL || *name == '\0')
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No capture file is open"));
      return FALSE;
    }
  view = cpel_window_capture_view (self, name);
  cpel_views_put (self->views.views, view);
  return save_now (self, error);
}

CpelViews *
cpel_window_get_views (CpelWindow *self)
{
  

  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->views.views;
}

static gboolean
show_named (CpelWindow *self,
            const char *name)
{
  const CpelSavedView *view = cpel_session_apply_saved_view (self->session, name);

  if (view == NULL)
    {
      /* TRANSLATORS: toast; %s is a view name */
      g_autofree char *text = g_strdup_printf (_("No saved view named “%s”"), name);

      toast (self, text);
      return FALSE;
    }
  apply_view_to_widgets (self, view);
  return TRUE;
}

void
cpel_window_open_view (CpelWindow *self,
                       const char *name)
{
  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (name != NULL);

  if (self->views.views != NULL)
    {
      show_named (self, name);
      return;
    }
  g_free (self->views.pending);
  self->views.pending = g_strdup (name);
}

/* ------------------------------------------------------------------------ */
/* A new file                                                                 */

/* The capture's label formats (kept in its views file) on its labels. */
static void
apply_label_formats (CpelWindow *self)
{
  CpelLabels *labels = cpel_session_get_labels (self->session);
  const char *const *formats = NULL;
  g_auto(GStrv) now = NULL;
  g_autoptr(CpelLabels) mine = NULL;

  if (labels == NULL)
    return;
  if (self->views.views != NULL)
    formats = cpel_views_get_label_formats (self->views.views);
  now = cpel_labels_dup_user_formats (labels);
  if (formats == NULL ? now[0] == NULL : g_strv_equal (formats, (const char *const *) now))
    return;
  mine = cpel_labels_new_with_formats (labels, formats);
  cpel_session_set_labels (self->session, mine);
}

static void
on_views_changed (CpelWindow *self)
{
  /* the views file read again (`l`) may hold other span settings; the
   * same rules derive nothing again */
  if (self->file != NULL && self->views.views != NULL)
    {
      cpel_span_settings_apply (self->session, self->views.views, NULL);
      apply_label_formats (self);
    }
  _cpel_window_update_actions (self);
}

void
_cpel_window_views_file_changed (CpelWindow *self)
{
  CpelFile *file = self->file;
  GFile *location = self->location;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (file == self->views.file)
    return;
  g_set_object (&self->views.file, file);
  if (self->views.views != NULL)
    g_signal_handlers_disconnect_by_data (self->views.views, self);
  g_clear_object (&self->views.views);
  if (self->views.list != NULL)
    {
      GtkWindow *list = self->views.list;

      g_clear_weak_pointer (&self->views.list);
      gtk_window_destroy (list);
    }

  path = file != NULL && location != NULL ? g_file_get_path (location) : NULL;
  if (path != NULL)
    {
      self->views.views = cpel_views_new (path);
      g_signal_connect_swapped (self->views.views, "changed", G_CALLBACK (on_views_changed), self);
      if (!cpel_views_load (self->views.views, &error))
        report_error (self, _("Could not read the saved views"), error);
    }
  cpel_session_set_views (self->session, self->views.views);
  /* the capture's span rules (switched off built-ins, its own rules) */
  if (file != NULL)
    {
      g_autoptr(GError) rules_error = NULL;

      if (!cpel_span_settings_apply (self->session, self->views.views, &rules_error))
        report_error (self, _("Could not read the capture’s span rules"), rules_error);
      apply_label_formats (self);
    }
  _cpel_window_update_actions (self);

  if (self->views.pending != NULL && file != NULL)
    {
      g_autofree char *name = g_steal_pointer (&self->views.pending);

      show_named (self, name);
    }
}

/* ------------------------------------------------------------------------ */
/* Save View dialog                                                           */

/* Where the views are kept, as a sentence: next to the capture (the
 * sidecar's name), or, when the capture's folder cannot be written, in the
 * user's data folder.  NULL without views. */
char *
_cpel_window_views_place (CpelWindow *self)
{
  g_autofree char *save = NULL;
  g_autofree char *sidecar = NULL;

  if (self->views.views == NULL)
    return NULL;
  save = cpel_views_get_save_path (self->views.views);
  sidecar = cpel_views_get_sidecar_path (self->views.views);
  if (g_strcmp0 (save, sidecar) == 0)
    {
      g_autofree char *base = g_path_get_basename (sidecar);

      /* TRANSLATORS: %s is a file name such as capture.cpel.cpelviews */
      return g_strdup_printf (_("Views are kept next to the capture, in “%s”."), base);
    }
  else
    {
      g_autofree char *dir = g_path_get_dirname (save);

      /* TRANSLATORS: %s is a folder */
      return g_strdup_printf (_("The capture's folder cannot be written: views are kept in “%s”."), dir);
    }
}

static void
on_name_changed (GtkEditable *entry,
                 CpelWindow  *self)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (gtk_widget_get_ancestor (GTK_WIDGET (entry),
                                                                          ADW_TYPE_MESSAGE_DIALOG));
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));
  gboolean exists = self->views.views != NULL && cpel_views_lookup (self->views.views, name, NULL);

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
    {
      g_autofree char *place = _cpel_window_views_place (self);
      g_autofree char *body = g_strdup_printf ("%s %s",
                                               _("Come back to it from Saved Views, or step through "
                                                 "your views with x and z."),
                                               place != NULL ? place : "");

      adw_message_dialog_set_body (dialog, g_strstrip (body));
    }
}

static void
on_save_response (AdwMessageDialog *dialog,
                  const char       *response,
                  CpelWindow       *self)
{
  GtkEditable *entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  if (g_str_equal (response, "save") && *name != '\0'
      && cpel_window_save_view (self, name, NULL))
    {
      g_autofree char *save = cpel_views_get_save_path (self->views.views);
      g_autofree char *sidecar = cpel_views_get_sidecar_path (self->views.views);
      g_autofree char *base = g_path_get_basename (sidecar);
      g_autofree char *text = NULL;

      if (g_strcmp0 (save, sidecar) == 0)
        /* TRANSLATORS: toast; a view name, then the file next to the capture */
        text = g_strdup_printf (_("View “%s” saved in “%s”"), name, base);
      else
        /* TRANSLATORS: toast; %s is a view name */
        text = g_strdup_printf (_("View “%s” saved in your data folder (the capture's folder is read-only)"),
                                name);

      toast (self, text);
    }
}

void
_cpel_window_views_save_dialog (CpelWindow *self)
{
  g_autofree char *name = NULL;
  GtkWidget *dialog, *entry;
  GtkWindow *parent;

  if (self->views.views == NULL)
    return;
  /* From the Saved Views window: over it. */
  parent = self->views.list != NULL && gtk_widget_get_visible (GTK_WIDGET (self->views.list))
           && gtk_window_is_active (self->views.list) ? self->views.list : GTK_WINDOW (self);

  name = cpel_window_new_view_name (self);
  dialog = adw_message_dialog_new (parent, _("Save View"), NULL);
  /* It refers to the window: it goes with it. */
  cpel_close_with_parent (GTK_WINDOW (dialog));
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
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_name_changed), self, 0);
  on_name_changed (GTK_EDITABLE (entry), self);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_save_response), self, 0);

  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
  gtk_editable_select_region (GTK_EDITABLE (entry), 0, -1);
}

/* ------------------------------------------------------------------------ */
/* Stepping, disk                                                             */

void
_cpel_window_views_step (CpelWindow *self,
                         int         direction)
{
  const CpelSavedView *view;
  g_autofree char *text = NULL;
  guint n;

  if (self->views.views == NULL)
    return;
  n = cpel_views_get_n_views (self->views.views);
  if (n == 0)
    {
      cpel_toaster_show_full (self->toaster, _("No saved views yet"),
                              CPEL_TOASTER_TIMEOUT, _("_Save View…"), "win.save-view", NULL);
      return;
    }
  view = direction > 0 ? cpel_views_next (self->views.views) : cpel_views_previous (self->views.views);
  cpel_window_apply_view (self, view);
  /* TRANSLATORS: toast: "View 2 of 5: name" */
  text = g_strdup_printf (_("View %d of %u: %s"), cpel_views_get_current (self->views.views) + 1, n,
                          view->name);
  toast (self, text);
}

/* g2's p: write now and say so.  Without `report` (after a change made
 * elsewhere, the list's rename): write, a toast only on failure. */
void
_cpel_window_views_write (CpelWindow *self,
                          gboolean    report)
{
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  g_autofree char *text = NULL;
  guint n;

  if (!report)
    {
      save_now (self, NULL);
      return;
    }
  if (self->views.views == NULL)
    return;
  n = cpel_views_get_n_views (self->views.views);
  if (n == 0)
    {
      /* Saving none would remove the file: keep it for `l`. */
      toast (self, _("No saved views to write"));
      return;
    }
  path = cpel_views_get_save_path (self->views.views);
  if (!save_now (self, NULL))
    return;
  {
    g_autofree char *sidecar = cpel_views_get_sidecar_path (self->views.views);

    /* Next to the capture: its name says enough; elsewhere (the capture's
     * folder is read-only) the whole path. */
    base = g_strcmp0 (path, sidecar) == 0 ? g_filename_display_basename (path)
                                          : g_filename_display_name (path);
  }
  /* TRANSLATORS: toast; %u views, %s a file name */
  text = g_strdup_printf (ngettext ("%u view written to “%s”", "%u views written to “%s”", n), n, base);
  toast (self, text);
}

void
_cpel_window_views_reread (CpelWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint n;

  if (self->views.views == NULL)
    return;
  if (!cpel_views_load (self->views.views, &error))
    {
      report_error (self, _("Could not read the saved views"), error);
      return;
    }
  n = cpel_views_get_n_views (self->views.views);
  if (n == 0)
    text = g_strdup (_("This capture has no saved views"));
  else
    /* TRANSLATORS: toast */
    text = g_strdup_printf (ngettext ("%u saved view read", "%u saved views read", n), n);
  toast (self, text);
}

void
_cpel_window_views_show (CpelWindow *self,
                         const char *name)
{
  show_named (self, name);
}

void
_cpel_window_views_delete (CpelWindow *self,
                           const char *name)
{
  if (self->views.views == NULL)
    return;
  if (cpel_views_remove (self->views.views, name))
    save_now (self, NULL);
}

void
_cpel_window_views_present_list (CpelWindow *self)
{

  if (self->views.views == NULL)
    return;
  if (self->views.list == NULL)
    {
      self->views.list = GTK_WINDOW (cpel_saved_views_window_new (GTK_WINDOW (self),
                                                                  self->session));
      g_object_add_weak_pointer (G_OBJECT (self->views.list), (gpointer *) &self->views.list);
    }
  gtk_window_present (self->views.list);
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
                     CpelWindow      *self)
{
  gboolean export = gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)) == GTK_FILE_CHOOSER_ACTION_SAVE;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    path = g_file_get_path (file);
  if (path != NULL && self->views.views != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *base = g_filename_display_basename (path);
      g_autofree char *text = NULL;

      if (export)
        {
          if (cpel_views_export (self->views.views, path, &error))
            /* TRANSLATORS: toast; %s is a file name */
            text = g_strdup_printf (_("Views exported to “%s”"), base);
          else
            report_error (self, _("Could not export the views"), error);
        }
      else
        {
          guint before = cpel_views_get_n_views (self->views.views);

          if (cpel_views_import (self->views.views, path, &error))
            {
              guint added = cpel_views_get_n_views (self->views.views) - MIN (before, cpel_views_get_n_views (self->views.views));

              save_now (self, NULL);
              /* TRANSLATORS: toast; %s is a file name */
              text = g_strdup_printf (ngettext ("Views imported from “%s” (%u new)",
                                                "Views imported from “%s” (%u new)", added),
                                      base, added);
            }
          else
            report_error (self, _("Could not import the views"), error);
        }
      if (text != NULL)
        toast (self, text);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->views.chooser);
}

static void
choose_file (CpelWindow *self,
             gboolean    export)
{
  GtkWindow *parent = self->views.list != NULL && gtk_widget_get_visible (GTK_WIDGET (self->views.list))
                      ? self->views.list : GTK_WINDOW (self);
  g_autoptr(GtkFileFilter) filter = views_filter ();
  GtkFileChooser *chooser;

  if (self->views.views == NULL)
    return;
  if (self->views.chooser != NULL)
    gtk_native_dialog_destroy (self->views.chooser);
  g_clear_object (&self->views.chooser);

  self->views.chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (export ? _("Export Views") : _("Import Views"),
                                                                 parent,
                                                                 export ? GTK_FILE_CHOOSER_ACTION_SAVE
                                                                        : GTK_FILE_CHOOSER_ACTION_OPEN,
                                                                 export ? _("_Export") : _("_Import"),
                                                                 _("_Cancel")));
  chooser = GTK_FILE_CHOOSER (self->views.chooser);
  gtk_native_dialog_set_modal (self->views.chooser, TRUE);
  gtk_file_chooser_add_filter (chooser, filter);
  {
    g_autoptr(GFile) capture = g_file_new_for_path (cpel_views_get_capture_path (self->views.views));
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
  g_signal_connect (self->views.chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (self->views.chooser);
}

/* win.export-views, win.import-views: a file chosen. */
void
_cpel_window_views_choose_file (CpelWindow *self,
                                gboolean    export)
{
  if (self->views.views == NULL)
    return;
  choose_file (self, export);
}

/* ------------------------------------------------------------------------ */

void
_cpel_window_views_dispose (CpelWindow *self)
{
  /* The list window is transient for this one: it goes first. */
  if (self->views.list != NULL)
    {
      GtkWindow *list = self->views.list;

      g_clear_weak_pointer (&self->views.list);
      gtk_window_destroy (list);
    }
  if (self->views.chooser != NULL)
    gtk_native_dialog_destroy (self->views.chooser);
  g_clear_object (&self->views.chooser);
  if (self->views.views != NULL)
    g_signal_handlers_disconnect_by_data (self->views.views, self);
  g_clear_object (&self->views.views);
  g_clear_object (&self->views.file);
}

void
_cpel_window_views_finalize (CpelWindow *self)
{
  g_clear_pointer (&self->views.pending, g_free);
}
