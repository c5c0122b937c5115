/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-cut.c — "Save Range As…" (win.save-range, win.save-range-to)
 *
 * The chooser (GtkFileChooserNative, which confirms replacing a file) has a
 * "Visible tracks only" check.  cpel_cut_write runs in a GTask worker; it
 * writes a temporary file renamed at the end, so a failed or cancelled cut
 * leaves nothing behind.  A progress dialog with Cancel appears when the
 * cut takes longer than a moment; a toast tells the outcome and offers to
 * open the new file.
 */
#include "cpel-window-private.h"

#include <glib/gi18n.h>

#include "cpel-app-util.h"

/* Show the progress dialog when a cut takes longer than this. */
#define PROGRESS_DELAY_MS 300

typedef struct
{
  CpelFile  *file;
  GFile     *target;
  char      *path;
  CpelCutOptions options;
  guint     *slots;
  guint64    n_events;
  CpelProgressRelay *relay;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->file);
  g_clear_object (&job->target);
  g_free (job->path);
  g_free (job->slots);
  g_clear_pointer (&job->relay, cpel_progress_relay_unref);
  g_free (job);
}

static void
close_progress (CpelWindow *self)
{
  g_clear_handle_id (&self->cut.progress_timeout, g_source_remove);
  if (self->cut.relay != NULL)
    cpel_progress_relay_close (self->cut.relay);
  g_clear_pointer (&self->cut.relay, cpel_progress_relay_unref);
  if (self->cut.progress_dialog != NULL)
    {
      CpelCutDialog *dialog = self->cut.progress_dialog;

      self->cut.progress_dialog = NULL;
      g_signal_handlers_disconnect_by_data (dialog, self);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

static char *
display_basename (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);

  return g_filename_display_name (name != NULL ? name : "");
}

/* ------------------------------------------------------------------------ */
/* The worker                                                                 */

static void
cut_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;

  if (cpel_cut_write (job->file, job->path, &job->options, cancellable,
                      cpel_progress_relay_report, job->relay, &job->n_events, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
on_progress (double   fraction,
             gpointer data)
{
  CpelWindow *self = data;

  if (self->cut.progress_dialog != NULL)
    cpel_cut_dialog_set_fraction (self->cut.progress_dialog, fraction);
}

static void
on_progress_response (CpelCutDialog *dialog,
                      const char    *response,
                      CpelWindow    *self)
{
  /* The only response is Cancel (also Escape). */
  if (self->cut.cancellable != NULL)
    g_cancellable_cancel (self->cut.cancellable);
  self->cut.progress_dialog = NULL;
}

static gboolean
show_progress (gpointer data)
{
  CpelWindow *self = data;

  self->cut.progress_timeout = 0;
  if (self->cut.target == NULL)
    return G_SOURCE_REMOVE;
  self->cut.progress_dialog = cpel_cut_dialog_new (self, self->cut.target);
  g_signal_connect (self->cut.progress_dialog, "response", G_CALLBACK (on_progress_response), self);
  gtk_window_present (GTK_WINDOW (self->cut.progress_dialog));
  return G_SOURCE_REMOVE;
}

static void
on_cut_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(CpelWindow) self = user_data;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  Job *job = g_task_get_task_data (G_TASK (result));
  GFile *target = job->target;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = display_basename (target);
  g_autofree char *message = NULL;

  if (cancellable != self->cut.cancellable)
    return;   /* superseded */

  g_task_propagate_boolean (G_TASK (result), &error);
  close_progress (self);
  g_clear_object (&self->cut.cancellable);
  g_clear_object (&self->cut.target);
  g_clear_pointer (&self->cut.error, g_free);

  if (error != NULL)
    {
      self->cut.error = g_strdup (error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* TRANSLATORS: %s is a file name, then the reason */
      message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);
      cpel_toaster_show_full (self->toaster, message, 0, NULL, NULL, NULL);
    }
  else
    {
      g_autofree char *count = cpel_format_count (job->n_events);
      g_autofree char *uri = g_file_get_uri (target);

      /* TRANSLATORS: toast: file name, number of events written */
      message = g_strdup_printf (ngettext ("Saved “%s” (%s event)", "Saved “%s” (%s events)",
                                           job->n_events), name, count);
      cpel_toaster_show_full (self->toaster, message, 8, _("_Open"), "win.open-recent",
                              g_variant_new_string (uri));
    }
}

void
cpel_window_save_range (CpelWindow *self,
                        GFile      *target,
                        gboolean    visible_tracks_only)
{
  CpelTimeline *timeline;
  const CpelView *view;
  CpelFile *file;
  GFile *location;
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (target));

  file = self->file;
  timeline = self->timeline;
  view = cpel_timeline_get_view (timeline);
  if (file == NULL || view == NULL)
    return;
  g_clear_pointer (&self->cut.error, g_free);

  /* Replacing the open file under its own mapping would only confuse. */
  location = self->location;
  if ((location != NULL && g_file_equal (location, target))
      || g_file_peek_path (target) == NULL
      || (cpel_file_get_path (file) != NULL
          && g_strcmp0 (g_file_peek_path (target), cpel_file_get_path (file)) == 0))
    {
      g_autofree char *name = display_basename (target);
      g_autofree char *message = NULL;

      self->cut.error = g_file_peek_path (target) == NULL
                        ? g_strdup (_("Only local files can be written"))
                        : g_strdup (_("This file is open: choose another name"));
      message = g_strdup_printf (_("Could not save “%s”: %s"), name, self->cut.error);
      cpel_toaster_show (self->toaster, message);
      return;
    }

  if (self->cut.cancellable != NULL)
    g_cancellable_cancel (self->cut.cancellable);
  g_clear_object (&self->cut.cancellable);
  close_progress (self);

  job = g_new0 (Job, 1);
  job->file = g_object_ref (file);
  job->target = g_object_ref (target);
  job->path = g_file_get_path (target);
  cpel_timeline_get_range (timeline, &job->options.t0, &job->options.t1);
  if (visible_tracks_only && view->rows != NULL)
    {
      job->slots = g_memdup2 (view->rows, sizeof (guint) * MAX (view->n_rows, 1));
      job->options.slots = job->slots;
      job->options.n_slots = view->n_rows;
    }
  job->options.overwrite = TRUE;

  self->cut.cancellable = g_cancellable_new ();
  g_set_object (&self->cut.target, target);
  self->cut.relay = cpel_progress_relay_new (on_progress, self);
  job->relay = cpel_progress_relay_ref (self->cut.relay);
  self->cut.progress_timeout = g_timeout_add (PROGRESS_DELAY_MS, show_progress, self);

  /* Not the task's source object: a worker thread may drop the task's
   * last reference, and the window must be finalized in the main thread;
   * the callback (main thread, always called) drops this one. */
  task = g_task_new (NULL, self->cut.cancellable, on_cut_done, g_object_ref (self));
  g_task_set_source_tag (task, cpel_window_save_range);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, cut_thread);
}

gboolean
cpel_window_is_saving_range (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->cut.cancellable != NULL;
}

const char *
cpel_window_get_save_range_error (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->cut.error;
}

/* The window goes away: the cut is cancelled (its temporary file removed). */
void
_cpel_window_cut_dispose (CpelWindow *self)
{
  if (self->cut.cancellable != NULL)
    g_cancellable_cancel (self->cut.cancellable);
  g_clear_object (&self->cut.cancellable);
  g_clear_object (&self->cut.target);
  close_progress (self);
  if (self->cut.chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->cut.chooser));
  g_clear_object (&self->cut.chooser);
  g_clear_pointer (&self->cut.error, g_free);
}

/* ------------------------------------------------------------------------ */
/* The chooser                                                                */

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     CpelWindow      *self)
{
  g_autoptr(GFile) target = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    target = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (target != NULL)
    {
      const char *tracks = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "tracks");

      cpel_window_save_range (self, target, g_strcmp0 (tracks, "true") == 0);
    }
  g_clear_object (&self->cut.chooser);
}

void
_cpel_window_cut_choose (CpelWindow *self)
{
  GFile *location;
  const CpelView *view;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;
  g_autofree char *suggested = NULL;
  char *dot;

  if (self->file == NULL)
    return;
  if (self->cut.chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->cut.chooser));
      return;
    }

  location = self->location;
  name = location != NULL ? g_file_get_basename (location) : g_strdup ("capture");
  dot = strrchr (name, '.');
  base = dot != NULL && dot != name ? g_strndup (name, dot - name) : g_strdup (name);
  suggested = g_strdup_printf ("%s-range.cpel", base);

  self->cut.chooser = gtk_file_chooser_native_new (_("Save Range As"), GTK_WINDOW (self),
                                                   GTK_FILE_CHOOSER_ACTION_SAVE,
                                                   _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->cut.chooser), TRUE);
  gtk_file_filter_set_name (filter, _("CPEL Event Logs"));
  gtk_file_filter_add_mime_type (filter, "application/x-cpel");
  gtk_file_filter_add_suffix (filter, "cpel");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->cut.chooser), filter);
  if (location != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (location);

      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->cut.chooser), parent, NULL);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->cut.chooser), suggested);
  /* Checked when some tracks are hidden or reordered: keep what is seen. */
  view = cpel_timeline_get_view (self->timeline);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (self->cut.chooser), "tracks",
                               _("Visible tracks only"), NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (self->cut.chooser), "tracks",
                               view != NULL && view->rows != NULL ? "true" : "false");
  g_signal_connect (self->cut.chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->cut.chooser));
}
