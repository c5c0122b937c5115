/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-follow.c — following a capture while it is written
 *
 * `cpelview --follow SOURCE` (cpel_window_follow ()): a CpelLiveCapture
 * (cpel-live-capture.h) reads the source in a worker and hands the window a
 * new CpelFile of everything kept, at most every UPDATE_MS.  The window
 * shows it in place of the last one, keeping the hidden types, the track
 * order and the selection; while "following", the range shows the newest
 * FOLLOW_SPAN (or the whole capture while it is shorter), and any other
 * change of the range (a pan, a zoom) stops following: the Follow button
 * in the header bar (win.follow) brings it back, with the span the user
 * chose.  Pause (win.follow-pause) stops reading; everything seen stays.
 * The status line says how many events, their rate and what was lost.
 * Save As (win.save-capture) writes the events kept as CPEL, also after
 * the writer is gone.
 */
#include "cpel-window-private.h"

#include <glib/gi18n.h>

#include "cpel-live-capture.h"
#include "cpel-timeline.h"
#include "cpel-toaster.h"

#define UPDATE_MS    250
/* 10 s: the newest this much is kept in sight while following */
#define FOLLOW_SPAN  (G_GINT64_CONSTANT (10) * 1000000000)

static void update_status (CpelWindow *self);

static void
sync_buttons (CpelWindow *self)
{
  CpelWindowFollow *f = &self->follow;

  f->syncing = TRUE;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (f->follow_button), f->following);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (f->pause_button), f->status.paused);
  f->syncing = FALSE;
  gtk_widget_set_sensitive (f->pause_button, !f->status.gone);
}

/* The newest span in sight. */
static void
show_newest (CpelWindow *self)
{
  CpelWindowFollow *f = &self->follow;
  CpelSession *session = self->session;
  gint64 dur, span;

  if (self->file == NULL)
    return;
  dur = cpel_file_get_duration (self->file);
  span = f->span > 0 ? f->span : FOLLOW_SPAN;
  f->setting = TRUE;
  if (f->span == 0 && dur < span)
    cpel_session_fit (session);
  else
    {
      CpelRange r = { MAX (0, dur + 1 - span), dur + 1 };

      cpel_session_set_range (session, &r, CPEL_SESSION_FORGET);
    }
  f->setting = FALSE;
}

static void
set_following (CpelWindow *self,
               gboolean    following)
{
  CpelWindowFollow *f = &self->follow;

  if (f->capture == NULL)
    following = FALSE;
  if (following && !f->following && self->file != NULL)
    {
      const CpelRange *r = cpel_session_get_range (self->session);

      /* the span the user chose, unless it shows the whole capture */
      f->span = r->t0 <= 0 && r->t1 > cpel_file_get_duration (self->file) ? 0 : r->t1 - r->t0;
    }
  f->following = following;
  if (following)
    show_newest (self);
  sync_buttons (self);
  update_status (self);
}

/* ---- the status line ------------------------------------------------------------ */

static void
update_status (CpelWindow *self)
{
  CpelWindowFollow *f = &self->follow;
  const CpelLiveStatus *s = &f->status;
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  /* the events shown (the reader may be a little ahead of them) */
  guint64 n = self->file != NULL ? cpel_file_get_n_events (self->file) : 0;
  g_autofree char *count = cpel_format_count (n);
  g_autofree char *text = NULL;

  if (f->capture == NULL)
    return;
  if (s->failed)
    {
      g_autoptr(GError) error = cpel_live_capture_dup_error (f->capture);

      /* TRANSLATORS: the source followed cannot be read; %s says why */
      g_ptr_array_add (parts, g_strdup_printf (_("Reading stopped: %s"),
                                               error != NULL ? error->message : "?"));
    }
  else if (s->connecting)
    g_ptr_array_add (parts, g_strdup (_("Connecting to the session…")));
  else if (s->gone && cpel_live_capture_get_kind (f->capture) == CPEL_LIVE_SOURCE_LTTNG)
    g_ptr_array_add (parts, g_strdup (_("The session has ended")));
  else if (s->gone)
    g_ptr_array_add (parts, g_strdup (_("The writer has exited")));
  else if (s->paused)
    g_ptr_array_add (parts, g_strdup (_("Paused")));
  else if (f->following)
    g_ptr_array_add (parts, g_strdup (_("Following")));
  else
    g_ptr_array_add (parts, g_strdup (_("Live")));
  g_ptr_array_add (parts, g_strdup_printf (ngettext ("%s event", "%s events", n), count));
  if (!s->gone && !s->paused)
    {
      g_autofree char *rate = cpel_format_count ((guint64) (s->rate + 0.5));

      /* TRANSLATORS: the rate events are read at, e.g. "1,234 events/s" */
      g_ptr_array_add (parts, g_strdup_printf (_("%s events/s"), rate));
    }
  if (s->n_lost > 0)
    {
      g_autofree char *lost = cpel_format_count (s->n_lost);

      if (s->lost_exact)
        g_ptr_array_add (parts, g_strdup_printf (ngettext ("lost %s event", "lost %s events",
                                                           s->n_lost), lost));
      else
        g_ptr_array_add (parts, g_strdup_printf (ngettext ("lost at least %s event",
                                                           "lost at least %s events",
                                                           s->n_lost), lost));
    }
  if (s->unreadable)
    g_ptr_array_add (parts, g_strdup (_("the last save cannot be read: waiting for the next")));
  if (s->n_new_rings > 0)
    g_ptr_array_add (parts, g_strdup (_("the writer started again")));
  if (s->n_rewritten > 0)
    g_ptr_array_add (parts, g_strdup (_("the file was rewritten: the capture started again")));
  g_ptr_array_add (parts, NULL);
  text = g_strjoinv (" · ", (char **) parts->pdata);
  gtk_label_set_text (GTK_LABEL (f->label), text);
  /* no events yet: the page in their place says the same */
  adw_status_page_set_title (f->waiting_page,
                             s->failed ? _("Cannot Read the Source")
                             : s->gone ? _("No Events Were Written")
                             : _("Waiting for Events"));
  adw_status_page_set_icon_name (f->waiting_page,
                                 s->failed ? "dialog-error-symbolic"
                                 : s->gone ? "dialog-information-symbolic"
                                 : "content-loading-symbolic");
  adw_status_page_set_description (f->waiting_page, text);
}

/* ---- a new capture ---------------------------------------------------------------- */

static void
show_capture (CpelWindow *self,
              CpelFile   *file)
{
  CpelWindowFollow *f = &self->follow;
  CpelSession *session = self->session;
  CpelFile *old = self->file;
  g_autoptr(CpelTrackOrder) order = NULL;
  g_autofree guint8 *hidden = NULL;
  CpelRange range = { 0, 0 };
  gboolean selected = FALSE;
  guint slot = 0, old_types = 0;
  guint64 index = 0;

  if (old != NULL)
    {
      const guint8 *h = cpel_session_get_hidden_types (session);

      range = *cpel_session_get_range (session);
      selected = cpel_session_get_selection (session, &slot, &index);
      old_types = cpel_file_get_n_types (old);
      if (h != NULL)
        hidden = g_memdup2 (h, old_types);
      if (cpel_session_get_track_order (session) != NULL)
        order = cpel_track_order_copy (cpel_session_get_track_order (session));
    }
  f->setting = TRUE;
  f->updating = TRUE;
  cpel_window_set_file (self, file, NULL, NULL);
  f->updating = FALSE;
  if (hidden != NULL && cpel_file_get_n_types (file) == old_types)
    cpel_session_set_hidden_types (session, hidden);
  if (order != NULL && cpel_track_order_get_n (order) == cpel_file_get_n_tracks (file)
      && cpel_session_get_track_order (session) != NULL)
    cpel_track_order_assign (cpel_session_get_track_order (session), order);
  if (selected && slot < cpel_file_get_n_tracks (file)
      && index < cpel_file_get_track_n_events (file, slot))
    cpel_session_select (session, slot, index, FALSE);
  if (old != NULL && !f->following)
    cpel_session_set_range (session, &range, CPEL_SESSION_FORGET);
  f->setting = FALSE;
  if (f->following)
    show_newest (self);
}

/* Where entries were lost, on the timeline. */
static void
show_gaps (CpelWindow *self)
{
  g_autoptr(GArray) gaps = cpel_live_capture_dup_gaps (self->follow.capture);
  g_autofree gint64 *times = g_new (gint64, MAX (gaps->len, 1));
  g_autofree guint64 *lost = g_new (guint64, MAX (gaps->len, 1));

  for (guint i = 0; i < gaps->len; i++)
    {
      times[i] = g_array_index (gaps, CpelLiveGap, i).time_ns;
      lost[i] = g_array_index (gaps, CpelLiveGap, i).n_lost;
    }
  cpel_timeline_set_gaps (self->timeline, times, lost, gaps->len,
                          !self->follow.status.lost_exact);
}

static void
on_update (CpelFile             *file,
           const CpelLiveStatus *status,
           gpointer              user_data)
{
  CpelWindow *self = user_data;   /* the capture is stopped before the window goes */
  gboolean was_paused = self->follow.status.paused;

  self->follow.status = *status;
  if (file != NULL)
    {
      gint64 t0 = g_get_monotonic_time ();

      show_capture (self, file);
      show_gaps (self);
      /* what an update costs the main thread (a frame waits for it) */
      g_debug ("follow: %" G_GUINT64_FORMAT " events shown in %.1f ms (last frame %.1f ms)",
               cpel_file_get_n_events (file), (g_get_monotonic_time () - t0) / 1e3,
               cpel_timeline_get_last_frame_us (self->timeline) / 1e3);
    }
  if (was_paused != status->paused || status->gone)
    sync_buttons (self);
  update_status (self);
}

static void
on_range_changed (CpelWindow *self)
{
  /* a pan or a zoom: the user looks elsewhere */
  if (self->follow.following && !self->follow.setting)
    set_following (self, FALSE);
}

static void
on_follow_toggled (GtkToggleButton *button,
                   CpelWindow      *self)
{
  if (!self->follow.syncing)
    set_following (self, gtk_toggle_button_get_active (button));
}

static void
on_pause_toggled (GtkToggleButton *button,
                  CpelWindow      *self)
{
  if (!self->follow.syncing && self->follow.capture != NULL)
    cpel_live_capture_set_paused (self->follow.capture, gtk_toggle_button_get_active (button));
}

/* Which actions are enabled is said in one place
 * (_cpel_window_action_enabled). */
static void
update_actions (CpelWindow *self)
{
  _cpel_window_update_actions (self);
}

gboolean
cpel_window_follow (CpelWindow *self,
                    const char *source,
                    guint64     clock_rate,
                    GError    **error)
{
  CpelLiveCapture *capture;

  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (source != NULL, FALSE);

  capture = cpel_live_capture_new (source, clock_rate, error);
  if (capture == NULL)
    return FALSE;
  _cpel_window_follow_dispose (self);
  self->follow.capture = capture;
  self->follow.following = TRUE;
  self->follow.span = 0;
  cpel_live_capture_get_status (capture, &self->follow.status);
  gtk_widget_set_visible (self->follow.box, TRUE);
  gtk_widget_set_visible (self->follow.label, TRUE);
  gtk_stack_set_visible_child_full (self->main_stack, _cpel_window_view_page (self),
                                    GTK_STACK_TRANSITION_TYPE_NONE);
  if (self->file == NULL)
    adw_window_title_set_title (self->window_title, source);   /* as once events come */
  sync_buttons (self);
  update_actions (self);
  update_status (self);
  cpel_live_capture_start (capture, NULL, UPDATE_MS, on_update, self);
  return TRUE;
}

/* ---- Save As ------------------------------------------------------------------------ */

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;

  if (cpel_live_capture_save (((gpointer *) task_data)[0], ((gpointer *) task_data)[1], &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
save_data_free (gpointer data)
{
  gpointer *d = data;

  cpel_live_capture_unref (d[0]);
  g_free (d[1]);
  g_free (d);
}

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  CpelWindow *self = CPEL_WINDOW (source);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *path = ((gpointer *) g_task_get_task_data (G_TASK (result)))[1];
  g_autofree char *name = g_path_get_basename (path);

  if (g_task_propagate_boolean (G_TASK (result), &error))
    /* TRANSLATORS: %s is a file name */
    text = g_strdup_printf (_("Saved “%s”"), name);
  else
    /* TRANSLATORS: %s is why the capture could not be saved */
    text = g_strdup_printf (_("Could not save the capture: %s"), error->message);
  cpel_toaster_show (self->toaster, text);
}

static void
save_async (CpelWindow *self,
            const char *path)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, on_saved, NULL);
  gpointer *d = g_new0 (gpointer, 2);

  d[0] = cpel_live_capture_ref (self->follow.capture);
  d[1] = g_strdup (path);
  g_task_set_task_data (task, d, save_data_free);
  g_task_run_in_thread (task, save_thread);
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     CpelWindow      *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->follow.capture != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        save_async (self, path);
    }
  g_clear_object (&self->follow.chooser);
}

static void
choose_save (CpelWindow *self)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  if (self->follow.capture == NULL || self->follow.chooser != NULL)
    return;
  self->follow.chooser = gtk_file_chooser_native_new (_("Save Capture As"), GTK_WINDOW (self),
                                                      GTK_FILE_CHOOSER_ACTION_SAVE,
                                                      _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->follow.chooser), TRUE);
  gtk_file_filter_set_name (filter, _("CPEL Event Logs"));
  gtk_file_filter_add_mime_type (filter, "application/x-cpel");
  gtk_file_filter_add_suffix (filter, "cpel");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->follow.chooser), filter);
  g_object_unref (filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->follow.chooser), "capture.cpel");
  g_signal_connect (self->follow.chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->follow.chooser));
}

gboolean
cpel_window_save_capture (CpelWindow *self,
                          const char *path,
                          GError    **error)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  if (self->follow.capture == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("Nothing is followed"));
      return FALSE;
    }
  return cpel_live_capture_save (self->follow.capture, path, error);
}

/* ---- actions and set-up ------------------------------------------------------------- */

static void
follow_action (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  set_following (CPEL_WINDOW (widget), TRUE);
}

static void
pause_action (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  CpelWindow *self = CPEL_WINDOW (widget);

  if (self->follow.capture != NULL)
    cpel_live_capture_set_paused (self->follow.capture, !self->follow.status.paused);
}

static void
save_action (GtkWidget  *widget,
             const char *name,
             GVariant   *parameter)
{
  choose_save (CPEL_WINDOW (widget));
}

void
_cpel_window_follow_class_init (CpelWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.follow", NULL, follow_action);
  gtk_widget_class_install_action (widget_class, "win.follow-pause", NULL, pause_action);
  gtk_widget_class_install_action (widget_class, "win.save-capture", NULL, save_action);
}

void
_cpel_window_follow_init (CpelWindow *self)
{
  CpelWindowFollow *f = &self->follow;
  /* beside the template's widgets, found from their neighbours */
  GtkWidget *header = gtk_widget_get_ancestor (GTK_WIDGET (self->search_button),
                                               ADW_TYPE_HEADER_BAR);
  GtkWidget *status_bar = gtk_widget_get_parent (GTK_WIDGET (self->modes_label));

  f->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (f->box, "linked");
  f->follow_button = gtk_toggle_button_new ();
  gtk_widget_set_tooltip_text (f->follow_button, _("Keep the Newest Events in Sight"));
  {
    /* icon and label */
    GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

    gtk_box_append (GTK_BOX (content), gtk_image_new_from_icon_name ("go-last-symbolic"));
    gtk_box_append (GTK_BOX (content), gtk_label_new (_("Follow")));
    gtk_button_set_child (GTK_BUTTON (f->follow_button), content);
  }
  f->pause_button = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (f->pause_button), "media-playback-pause-symbolic");
  gtk_widget_set_tooltip_text (f->pause_button, _("Pause Reading"));
  gtk_box_append (GTK_BOX (f->box), f->follow_button);
  gtk_box_append (GTK_BOX (f->box), f->pause_button);
  gtk_widget_set_visible (f->box, FALSE);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), f->box);
  g_signal_connect (f->follow_button, "toggled", G_CALLBACK (on_follow_toggled), self);
  g_signal_connect (f->pause_button, "toggled", G_CALLBACK (on_pause_toggled), self);

  /* following a source that has no events yet (an LTTng session being
   * connected to, a ring not written yet): what it says, in their place */
  f->waiting_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (f->waiting_page, "content-loading-symbolic");
  adw_status_page_set_title (f->waiting_page, _("Waiting for Events"));
  gtk_stack_add_named (self->main_stack, GTK_WIDGET (f->waiting_page), "waiting");

  f->label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (f->label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (f->label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (f->label, "numeric");
  gtk_widget_set_visible (f->label, FALSE);
  gtk_box_insert_child_after (GTK_BOX (status_bar), f->label, GTK_WIDGET (self->modes_label));

  g_signal_connect_swapped (self->session, "notify::range", G_CALLBACK (on_range_changed), self);
  /* which actions are enabled: the window's init ends saying it */
}

void
_cpel_window_follow_dispose (CpelWindow *self)
{
  CpelWindowFollow *f = &self->follow;

  if (f->capture != NULL)
    {
      cpel_live_capture_stop (f->capture);
      g_clear_pointer (&f->capture, cpel_live_capture_unref);
    }
  if (f->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (f->chooser));
      g_clear_object (&f->chooser);
    }
}

void
_cpel_window_follow_file_changed (CpelWindow *self)
{
  if (self->follow.updating || self->follow.capture == NULL)
    return;
  _cpel_window_follow_dispose (self);
  cpel_timeline_set_gaps (self->timeline, NULL, NULL, 0, FALSE);
  self->follow.following = FALSE;
  gtk_widget_set_visible (self->follow.box, FALSE);
  gtk_widget_set_visible (self->follow.label, FALSE);
  update_actions (self);
  gtk_stack_set_visible_child_name (self->main_stack, _cpel_window_view_page (self));
}

/* ---- for the tests ------------------------------------------------------------------ */

gboolean
cpel_window_get_following (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->follow.following;
}

gboolean
cpel_window_is_live (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->follow.capture != NULL;
}

const char *
cpel_window_get_follow_text (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->follow.label));
}
