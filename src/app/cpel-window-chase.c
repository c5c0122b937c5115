/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-chase.c — g2's chase
 *
 * win.chase-event: show only the tracks holding an event with the selected
 * event's code; win.chase-datum: ... with its datum; win.chase-track: pin
 * the selected event's track on top; win.no-chase: the track list as it was
 * before the first chase (the session keeps it: cpel_session_chase_rows,
 * _chase_track, _end_chase).  Event and datum are looked up in a worker
 * (cancellable; a newer chase replaces a running one).
 */
#include "cpel-window-private.h"

#include <glib/gi18n.h>

typedef struct
{
  CpelFile       *file;
  CpelChaseQuery  query;
  guint          *slots;
  guint           n_slots;
  CpelWindowChaseKind kind;
} Lookup;

static void
lookup_free (Lookup *lookup)
{
  g_clear_object (&lookup->file);
  g_free (lookup->slots);
  g_free (lookup);
}

/* Says `text` (with a No Chase button when `no_chase`), or takes the
 * chase's last toast away when `text` is NULL. */
static void
set_toast (CpelWindow *self,
           const char *text,
           gboolean    no_chase)
{
  if (text == NULL)
    cpel_toaster_withdraw (self->toaster, self->chase.toast_id);
  else
    self->chase.toast_id = cpel_toaster_show_full (self->toaster, text, CPEL_TOASTER_TIMEOUT,
                                                   no_chase ? _("_No Chase") : NULL,
                                                   no_chase ? "win.no-chase" : NULL, NULL);
  if (text == NULL)
    self->chase.toast_id = 0;
}

/* A new file (or none): forget the chase of the previous one. */
void
_cpel_window_chase_file_changed (CpelWindow *self)
{
  CpelTrackOrder *order = cpel_session_get_track_order (self->session);

  if (order != self->chase.order)
    {
      g_cancellable_cancel (self->chase.cancellable);
      g_clear_object (&self->chase.cancellable);
      g_set_object (&self->chase.order, order);
      set_toast (self, NULL, FALSE);
    }
}

/* The window goes away: no lookup keeps it alive. */
void
_cpel_window_chase_dispose (CpelWindow *self)
{
  if (self->chase.cancellable != NULL)
    g_cancellable_cancel (self->chase.cancellable);
  g_clear_object (&self->chase.cancellable);
  g_clear_object (&self->chase.order);
  self->chase.toast_id = 0;
}

/* The selected event, or a toast saying to select one. */
static gboolean
get_selected (CpelWindow *self,
              CpelEvent *event)
{
  CpelFile *file = self->file;
  guint slot;
  guint64 index;

  if (file == NULL || self->chase.order == NULL)
    return FALSE;
  if (!cpel_session_get_selection (self->session, &slot, &index))
    {
      set_toast (self, _("Select an event to chase first"), FALSE);
      return FALSE;
    }
  cpel_file_get_track_event (file, slot, index, event);
  return TRUE;
}

static void
scroll_to_selection (CpelWindow *self)
{
  guint slot;
  guint64 index;

  gtk_adjustment_set_value (cpel_timeline_get_vadjustment (self->timeline), 0);
  if (cpel_session_get_selection (self->session, &slot, &index))
    cpel_session_select (self->session, slot, index, TRUE);
}

static void
lookup_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Lookup *lookup = task_data;
  GError *error = NULL;

  lookup->slots = cpel_chase_find_tracks (lookup->file, &lookup->query, &lookup->n_slots,
                                          cancellable, &error);
  if (lookup->slots == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_lookup_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(CpelWindow) window = user_data;
  Lookup *lookup = g_task_get_task_data (G_TASK (result));
  CpelWindowChaseKind kind = lookup->kind;
  CpelWindow *self = window;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint n_tracks, n = 0;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return;   /* cancelled: superseded, another file or the window went away */
  if (self->chase.order == NULL
      || cpel_window_get_file (window) != lookup->file)
    return;
  g_clear_object (&self->chase.cancellable);

  /* The chased tracks in the order they were shown before the chase. */
  cpel_session_chase_rows (self->session, lookup->slots, lookup->n_slots);
  n_tracks = cpel_file_get_n_tracks (lookup->file);
  cpel_session_get_rows (self->session, &n);
  scroll_to_selection (self);
  _cpel_window_update_actions (self);

  if (kind == CPEL_WINDOW_CHASE_EVENT)
    {
      CpelFile *file = lookup->file;
      guint type;
      const char *name = cpel_file_lookup_type (file, lookup->query.code, &type)
                         ? cpel_file_get_type_name (file, type) : NULL;
      g_autofree char *what = name != NULL && *name != '\0'
                              ? g_strdup_printf ("“%s”", name)
                              : g_strdup_printf ("%u", (guint) lookup->query.code);

      /* TRANSLATORS: toast; %s is an event name (quoted) or code, then "n of N" tracks */
      text = g_strdup_printf (ngettext ("Chasing event %s: %u of %u track",
                                        "Chasing event %s: %u of %u tracks", n_tracks),
                              what, n, n_tracks);
    }
  else
    /* TRANSLATORS: toast; a datum in hex, then "n of N" tracks */
    text = g_strdup_printf (ngettext ("Chasing datum 0x%x: %u of %u track",
                                      "Chasing datum 0x%x: %u of %u tracks", n_tracks),
                            (guint) lookup->query.datum, n, n_tracks);
  set_toast (self, text, TRUE);
}

static void
start_lookup (CpelWindow *self,
              CpelWindowChaseKind  kind)
{
  CpelEvent event;
  Lookup *lookup;
  g_autoptr(GTask) task = NULL;

  if (!get_selected (self, &event))
    return;
  if (self->chase.cancellable != NULL)
    g_cancellable_cancel (self->chase.cancellable);
  g_clear_object (&self->chase.cancellable);
  self->chase.cancellable = g_cancellable_new ();

  lookup = g_new0 (Lookup, 1);
  lookup->file = g_object_ref (self->file);
  if (kind == CPEL_WINDOW_CHASE_EVENT)
    {
      lookup->query.match_code = TRUE;
      lookup->query.code = event.code;
    }
  else
    {
      lookup->query.match_datum = TRUE;
      lookup->query.datum = event.datum;
    }
  lookup->kind = kind;
  /* Not the task's source object: a worker thread may drop the task's
   * last reference, and the window must be finalized in the main thread;
   * the callback (main thread, always called) drops this one. */
  task = g_task_new (NULL, self->chase.cancellable, on_lookup_done, g_object_ref (self));
  g_task_set_source_tag (task, start_lookup);
  g_task_set_task_data (task, lookup, (GDestroyNotify) lookup_free);
  g_task_run_in_thread (task, lookup_thread);
}

void
_cpel_window_chase (CpelWindow          *self,
                    CpelWindowChaseKind  kind)
{
  if (kind != CPEL_WINDOW_CHASE_TRACK)
    start_lookup (self, kind);
  else
    {
      /* Chase track: pin the selected event's track on top. */
      CpelEvent event;
      g_autofree char *text = NULL;
      const char *label;

      if (!get_selected (self, &event))
        return;
      cpel_session_chase_track (self->session, event.track_slot);
      scroll_to_selection (self);
      _cpel_window_update_actions (self);
      label = cpel_file_get_track_label (self->file, event.track_slot);
      /* TRANSLATORS: toast; %s is a track name */
      text = g_strdup_printf (_("Track “%s” pinned on top"), label != NULL ? label : "");
      set_toast (self, text, TRUE);
    }
}

void
_cpel_window_no_chase (CpelWindow *self)
{
  if (self->chase.cancellable != NULL)
    g_cancellable_cancel (self->chase.cancellable);
  g_clear_object (&self->chase.cancellable);
  if (!cpel_session_end_chase (self->session))
    return;
  set_toast (self, NULL, FALSE);
  scroll_to_selection (self);
  _cpel_window_update_actions (self);
}

gboolean
cpel_window_is_chasing (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return cpel_session_get_chasing (self->session);
}

gboolean
cpel_window_is_chase_busy (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->chase.cancellable != NULL;
}
