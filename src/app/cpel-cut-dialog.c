/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cut-dialog.c — "Save Range As…"
 *
 * The chooser (GtkFileChooserNative, which confirms replacing a file) has a
 * "Visible tracks only" check.  cpel_cut_write runs in a GTask worker; it
 * writes a temporary file renamed at the end, so a failed or cancelled cut
 * leaves nothing behind.  A progress dialog with Cancel appears when the
 * cut takes longer than a moment; a toast tells the outcome and offers to
 * open the new file.
 */
#include "cpel-cut-dialog.h"
#include "cpel-window-tools.h"

#include <glib/gi18n.h>

#include "cpel-app-util.h"
#include "cpel-progress-relay.h"

/* Show the progress dialog when a cut takes longer than this. */
#define PROGRESS_DELAY_MS 300

#define STATE_KEY "cpel-cut-state"

typedef struct
{
  CpelWindow           *window;       /* not owned: the state is its data */
  GtkFileChooserNative *chooser;
  GCancellable         *cancellable;
  CpelProgressRelay    *relay;
  AdwMessageDialog     *progress_dialog;
  GtkProgressBar       *progress_bar;
  guint                 progress_timeout;
  char                 *error;
} CutState;

typedef struct
{
  CpelFile  *file;
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
  g_free (job->path);
  g_free (job->slots);
  g_clear_pointer (&job->relay, cpel_progress_relay_unref);
  g_free (job);
}

static void
close_progress (CutState *state)
{
  g_clear_handle_id (&state->progress_timeout, g_source_remove);
  if (state->relay != NULL)
    cpel_progress_relay_close (state->relay);
  g_clear_pointer (&state->relay, cpel_progress_relay_unref);
  if (state->progress_dialog != NULL)
    {
      AdwMessageDialog *dialog = state->progress_dialog;

      state->progress_dialog = NULL;
      state->progress_bar = NULL;
      g_signal_handlers_disconnect_by_data (dialog, state);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

static void
cut_state_free (CutState *state)
{
  if (state->cancellable != NULL)
    g_cancellable_cancel (state->cancellable);
  g_clear_object (&state->cancellable);
  close_progress (state);
  if (state->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (state->chooser));
  g_clear_object (&state->chooser);
  g_free (state->error);
  g_free (state);
}

static CutState *
get_state (CpelWindow *window)
{
  CutState *state = g_object_get_data (G_OBJECT (window), STATE_KEY);

  if (state == NULL)
    {
      state = g_new0 (CutState, 1);
      state->window = window;
      g_object_set_data_full (G_OBJECT (window), STATE_KEY, state, (GDestroyNotify) cut_state_free);
    }
  return state;
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
  CutState *state = data;

  if (state->progress_bar != NULL)
    gtk_progress_bar_set_fraction (state->progress_bar, fraction);
}

static void
on_progress_response (AdwMessageDialog *dialog,
                      const char       *response,
                      CutState         *state)
{
  /* The only response is Cancel (also Escape). */
  if (state->cancellable != NULL)
    g_cancellable_cancel (state->cancellable);
  state->progress_dialog = NULL;
  state->progress_bar = NULL;
}

static gboolean
show_progress (gpointer data)
{
  CutState *state = data;
  GFile *target = g_object_get_data (G_OBJECT (state->cancellable), "target");
  g_autofree char *name = target != NULL ? display_basename (target) : g_strdup ("");
  g_autofree char *body = NULL;
  GtkWidget *bar;

  state->progress_timeout = 0;
  /* TRANSLATORS: %s is a file name */
  body = g_strdup_printf (_("Writing “%s”"), name);
  state->progress_dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (state->window),
                                                                       _("Saving Range…"), body));
  bar = gtk_progress_bar_new ();
  gtk_widget_set_size_request (bar, 240, -1);
  state->progress_bar = GTK_PROGRESS_BAR (bar);
  adw_message_dialog_set_extra_child (state->progress_dialog, bar);
  adw_message_dialog_add_response (state->progress_dialog, "cancel", _("_Cancel"));
  adw_message_dialog_set_close_response (state->progress_dialog, "cancel");
  g_signal_connect (state->progress_dialog, "response", G_CALLBACK (on_progress_response), state);
  gtk_window_present (GTK_WINDOW (state->progress_dialog));
  return G_SOURCE_REMOVE;
}

static void
on_cut_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  CpelWindow *window = CPEL_WINDOW (source);
  CutState *state = get_state (window);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  GFile *target = g_object_get_data (G_OBJECT (cancellable), "target");
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *name = display_basename (target);
  g_autofree char *message = NULL;
  CpelToaster *toaster = cpel_window_get_toaster (window);

  if (cancellable != state->cancellable)
    return;   /* superseded */

  g_task_propagate_boolean (G_TASK (result), &error);
  close_progress (state);
  g_clear_object (&state->cancellable);
  g_clear_pointer (&state->error, g_free);

  if (error != NULL)
    {
      state->error = g_strdup (error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* TRANSLATORS: %s is a file name, then the reason */
      message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);
      cpel_toaster_show_full (toaster, message, 0, NULL, NULL, NULL);
    }
  else
    {
      g_autofree char *count = cpel_format_count (job->n_events);
      g_autofree char *uri = g_file_get_uri (target);

      /* TRANSLATORS: toast: file name, number of events written */
      message = g_strdup_printf (ngettext ("Saved “%s” (%s event)", "Saved “%s” (%s events)",
                                           job->n_events), name, count);
      cpel_toaster_show_full (toaster, message, 8, _("_Open"), "win.open-recent",
                              g_variant_new_string (uri));
    }
}

void
cpel_cut_dialog_save (CpelWindow *window,
                      GFile      *target,
                      gboolean    visible_tracks_only)
{
  CpelTimeline *timeline;
  const CpelView *view;
  CpelFile *file;
  GFile *location;
  CutState *state;
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (CPEL_IS_WINDOW (window));
  g_return_if_fail (G_IS_FILE (target));

  file = cpel_window_get_file (window);
  timeline = cpel_window_get_timeline (window);
  view = cpel_timeline_get_view (timeline);
  if (file == NULL || view == NULL)
    return;
  state = get_state (window);
  g_clear_pointer (&state->error, g_free);

  /* Replacing the open file under its own mapping would only confuse. */
  location = cpel_window_get_location (window);
  if ((location != NULL && g_file_equal (location, target))
      || g_file_peek_path (target) == NULL
      || (cpel_file_get_path (file) != NULL
          && g_strcmp0 (g_file_peek_path (target), cpel_file_get_path (file)) == 0))
    {
      g_autofree char *name = display_basename (target);
      g_autofree char *message = NULL;

      state->error = g_file_peek_path (target) == NULL
                     ? g_strdup (_("Only local files can be written"))
                     : g_strdup (_("This file is open: choose another name"));
      message = g_strdup_printf (_("Could not save “%s”: %s"), name, state->error);
      cpel_toaster_show (cpel_window_get_toaster (window), message);
      return;
    }

  if (state->cancellable != NULL)
    g_cancellable_cancel (state->cancellable);
  g_clear_object (&state->cancellable);
  close_progress (state);

  job = g_new0 (Job, 1);
  job->file = g_object_ref (file);
  job->path = g_file_get_path (target);
  cpel_timeline_get_range (timeline, &job->options.t0, &job->options.t1);
  if (visible_tracks_only && view->rows != NULL)
    {
      job->slots = g_memdup2 (view->rows, sizeof (guint) * MAX (view->n_rows, 1));
      job->options.slots = job->slots;
      job->options.n_slots = view->n_rows;
    }
  job->options.overwrite = TRUE;

  state->cancellable = g_cancellable_new ();
  g_object_set_data_full (G_OBJECT (state->cancellable), "target", g_object_ref (target), g_object_unref);
  state->relay = cpel_progress_relay_new (on_progress, state);
  job->relay = cpel_progress_relay_ref (state->relay);
  state->progress_timeout = g_timeout_add (PROGRESS_DELAY_MS, show_progress, state);

  task = g_task_new (window, state->cancellable, on_cut_done, NULL);
  g_task_set_source_tag (task, cpel_cut_dialog_save);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, cut_thread);
}

gboolean
cpel_cut_dialog_is_busy (CpelWindow *window)
{
  CutState *state;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), FALSE);
  state = g_object_get_data (G_OBJECT (window), STATE_KEY);
  return state != NULL && state->cancellable != NULL;
}

const char *
cpel_cut_dialog_get_error (CpelWindow *window)
{
  CutState *state;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), NULL);
  state = g_object_get_data (G_OBJECT (window), STATE_KEY);
  return state != NULL ? state->error : NULL;
}

/* ------------------------------------------------------------------------ */
/* The chooser                                                                */

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     CutState        *state)
{
  g_autoptr(GFile) target = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    target = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (target != NULL)
    {
      const char *tracks = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "tracks");

      cpel_cut_dialog_save (state->window, target, g_strcmp0 (tracks, "true") == 0);
    }
  g_clear_object (&state->chooser);
}

static void
action_save_range (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       data)
{
  CpelWindow *window = data;
  CutState *state;
  GFile *location;
  const CpelView *view;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;
  g_autofree char *suggested = NULL;
  char *dot;

  if (cpel_window_get_file (window) == NULL)
    return;
  state = get_state (window);
  if (state->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (state->chooser));
      return;
    }

  location = cpel_window_get_location (window);
  name = location != NULL ? g_file_get_basename (location) : g_strdup ("capture");
  dot = strrchr (name, '.');
  base = dot != NULL && dot != name ? g_strndup (name, dot - name) : g_strdup (name);
  suggested = g_strdup_printf ("%s-range.cpel", base);

  state->chooser = gtk_file_chooser_native_new (_("Save Range As"), GTK_WINDOW (window),
                                                GTK_FILE_CHOOSER_ACTION_SAVE,
                                                _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (state->chooser), TRUE);
  gtk_file_filter_set_name (filter, _("CPEL Event Logs"));
  gtk_file_filter_add_mime_type (filter, "application/x-cpel");
  gtk_file_filter_add_suffix (filter, "cpel");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (state->chooser), filter);
  if (location != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (location);

      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (state->chooser), parent, NULL);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (state->chooser), suggested);
  /* Checked when some tracks are hidden or reordered: keep what is seen. */
  view = cpel_timeline_get_view (cpel_window_get_timeline (window));
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (state->chooser), "tracks",
                               _("Visible tracks only"), NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (state->chooser), "tracks",
                               view != NULL && view->rows != NULL ? "true" : "false");
  g_signal_connect (state->chooser, "response", G_CALLBACK (on_chooser_response), state);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (state->chooser));
}

static void
action_save_range_to (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       data)
{
  CpelWindow *window = data;
  const char *path = NULL;
  gboolean visible_only = FALSE;

  g_variant_get (parameter, "(&sb)", &path, &visible_only);
  if (cpel_window_get_file (window) != NULL && path != NULL && *path != '\0')
    {
      g_autoptr(GFile) target = g_file_new_for_path (path);

      cpel_cut_dialog_save (window, target, visible_only);
    }
}

void
cpel_cut_dialog_install (CpelWindow *window)
{
  const GActionEntry entries[] = {
    { "save-range", action_save_range },
    { "save-range-to", action_save_range_to, "(sb)" },
  };

  g_return_if_fail (CPEL_IS_WINDOW (window));

  cpel_window_tools_add_file_actions (window, entries, G_N_ELEMENTS (entries));
}
