/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-load.c — opening a file in a worker, with progress */
#include "cpel-window-private.h"

#include <glib/gi18n.h>

#include "cpel-async.h"

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
  _cpel_window_update_actions (self);
  _cpel_window_notify_loading (self);
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
  g_autofree char *name = _cpel_window_display_name (location);
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

  name = _cpel_window_display_name (location);
  if (self->file == NULL)
    {
      /* The description is markup; a file name may hold '&' or '<'. */
      g_autofree char *escaped = g_markup_escape_text (name, -1);

      adw_status_page_set_description (self->loading_page, escaped);
      gtk_stack_set_visible_child_name (self->main_stack, "loading");
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->load_progress), TRUE);
  _cpel_window_update_actions (self);
  _cpel_window_notify_loading (self);

  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->location = g_object_ref (location);
  data->cancellable = g_object_ref (self->load_cancellable);
  cpel_load_file_async (location, self->load_cancellable,
                        cpel_progress_relay_report, self->load_relay,
                        on_loaded, data);
}

gboolean
cpel_window_is_loading (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->load_cancellable != NULL;
}

void
_cpel_window_cancel_load (CpelWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
}

/* The window goes away: no load calls back into it. */
void
_cpel_window_load_dispose (CpelWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->load_relay != NULL)
    cpel_progress_relay_close (self->load_relay);
  g_clear_pointer (&self->load_relay, cpel_progress_relay_unref);
  g_clear_object (&self->load_cancellable);
  if (self->lod_cancellable != NULL)
    g_cancellable_cancel (self->lod_cancellable);
  g_clear_object (&self->lod_cancellable);
}
