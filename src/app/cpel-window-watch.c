/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-watch.c — noticing that the open file changed on disk
 *
 * Watches the window's file (GFileMonitor, debounced) and checks after
 * every painted frame whether the mapping was damaged (the file shrank
 * under the view: cpel_file_is_damaged()).  Either shows the reload bar
 * under the header (declared in the window's template), "The file changed
 * on disk", with a Reload button (win.reload): the same path loads again in
 * a worker; on success it replaces the view, keeping the visible range and
 * the selection when they still fit; on error the previous view stays and
 * the bar says why.
 *
 * An index read from the cache (cpel-index-cache.c, loaded with
 * cache_verify_later) is checked in full in a worker after the first
 * frame; when that fails the cache file is gone and the bar says "The
 * index cache of this file was damaged": Reload builds the index again.
 */
#include "cpel-window-private.h"

#include <glib/gi18n.h>

#include "cpel-async.h"
#include "cpel-loader.h"

/* Writers touch a file in bursts: one bar after the burst, not one per write. */
#define DEBOUNCE_MS 250

/* What identifies the file's content on disk without reading it: inode,
 * size and modification time; NULL when it is gone. */
static char *
disk_stamp (GFile *location)
{
  g_autoptr(GFileInfo) info = NULL;

  if (location == NULL)
    return NULL;
  info = g_file_query_info (location,
                            G_FILE_ATTRIBUTE_UNIX_INODE "," G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                            G_FILE_ATTRIBUTE_TIME_MODIFIED "," G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info == NULL)
    return NULL;
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GOFFSET_FORMAT ":%" G_GUINT64_FORMAT ".%u",
                          g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_UNIX_INODE),
                          g_file_info_get_size (info),
                          g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED),
                          g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC));
}

static void
show_bar (CpelWindow *self,
          const char *message,
          gboolean    can_reload)
{
  gtk_label_set_text (self->reload_label, message);
  gtk_widget_set_sensitive (self->reload_button, can_reload);
  gtk_widget_set_visible (GTK_WIDGET (self->reload_bar), TRUE);
  gtk_info_bar_set_revealed (self->reload_bar, TRUE);
}

static void
show_changed (CpelWindow *self)
{
  if (self->watch.reload != NULL)
    {
      /* What is loading may already be stale: say so once it is shown. */
      self->watch.changed_while_reloading = TRUE;
      return;
    }
  show_bar (self, _("The file changed on disk"), self->location != NULL);
}

static void
hide_bar (CpelWindow *self)
{
  gtk_info_bar_set_revealed (self->reload_bar, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Watching                                                                   */

static gboolean
on_debounce (gpointer data)
{
  CpelWindow *self = data;
  g_autofree char *now = NULL;

  self->watch.debounce = 0;
  /* Late events of a change the shown file already has (a reload after a
   * write, or GIO's delayed "done" hint) change nothing; nor do late events
   * of the change a reload just failed to read: the bar keeps saying why. */
  if (self->watch.reload == NULL
      && (self->watch.stamp != NULL || self->watch.failed_stamp != NULL))
    {
      now = disk_stamp (self->location);
      if (g_strcmp0 (now, self->watch.stamp) == 0
          || (now != NULL && g_strcmp0 (now, self->watch.failed_stamp) == 0))
        return G_SOURCE_REMOVE;
    }
  show_changed (self);
  return G_SOURCE_REMOVE;
}

static void
on_monitor_changed (GFileMonitor      *monitor,
                    GFile             *file,
                    GFile             *other,
                    GFileMonitorEvent  event,
                    gpointer           data)
{
  CpelWindow *self = data;

  switch (event)
    {
    case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
      /* The end of a burst of writes: wait from here if one is pending. */
      if (self->watch.debounce == 0)
        break;
      G_GNUC_FALLTHROUGH;
    case G_FILE_MONITOR_EVENT_CHANGED:
    case G_FILE_MONITOR_EVENT_DELETED:
    case G_FILE_MONITOR_EVENT_CREATED:
    case G_FILE_MONITOR_EVENT_MOVED:
    case G_FILE_MONITOR_EVENT_RENAMED:
    case G_FILE_MONITOR_EVENT_MOVED_IN:
    case G_FILE_MONITOR_EVENT_MOVED_OUT:
      g_clear_handle_id (&self->watch.debounce, g_source_remove);
      self->watch.debounce = g_timeout_add (DEBOUNCE_MS, on_debounce, self);
      break;
    default:
      /* Attributes, mounts: the content is the same. */
      break;
    }
}

static void
stop_monitor (CpelWindow *self)
{
  if (self->watch.monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->watch.monitor, self);
      g_file_monitor_cancel (self->watch.monitor);
    }
  g_clear_object (&self->watch.monitor);
  g_clear_handle_id (&self->watch.debounce, g_source_remove);
}

/* A new file is shown (a reload, or the first open): watch its path. */
void
_cpel_window_watch_file_changed (CpelWindow *self)
{
  GFile *location = self->location;
  CpelFile *file = self->file;
  g_autoptr(GFile) by_path = NULL;
  g_autoptr(GError) error = NULL;

  stop_monitor (self);
  hide_bar (self);
  self->watch.damage_reported = FALSE;
  g_clear_pointer (&self->watch.failed_stamp, g_free);
  /* A reload took its stamp before reading; a first open is stamped now. */
  g_free (self->watch.stamp);
  self->watch.stamp = g_steal_pointer (&self->watch.reload_stamp);
  if (self->watch.stamp == NULL)
    self->watch.stamp = disk_stamp (location);
  if (location == NULL && file != NULL && cpel_file_get_path (file) != NULL)
    location = by_path = g_file_new_for_path (cpel_file_get_path (file));
  if (location == NULL)
    return;

  self->watch.monitor = g_file_monitor_file (location, G_FILE_MONITOR_NONE, NULL, &error);
  if (self->watch.monitor == NULL)
    {
      /* Not fatal: the damage check after each frame still works. */
      g_debug ("Cannot watch the file: %s", error->message);
      return;
    }
  g_signal_connect (self->watch.monitor, "changed", G_CALLBACK (on_monitor_changed), self);
}

/* The deferred step of the index cache is done: a damaged cache shows at
 * the next frame. */
static void
on_deferred_cache_done (GObject      *source,
                        GAsyncResult *result,
                        gpointer      data)
{
  g_autoptr(CpelWindow) self = data;
  g_autoptr(GError) error = NULL;

  if (!cpel_loader_run_deferred_cache_finish (CPEL_FILE (source), result, &error)
      && self->file != NULL && cpel_file_is_damaged (self->file))
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The view read past the end of a file that shrank: its data is zeros now.
 * Or the deferred check of the index found its cache damaged. */
static void
on_after_paint (GdkFrameClock *clock,
                CpelWindow    *self)
{
  CpelFile *file = self->file;

  /* the deferred check of the index steps aside while the user looks */
  if (file != NULL)
    cpel_file_note_frame (file);
  /* the first frame is on screen: now the rest of the index (its check,
   * or writing it to the cache for the next open) */
  if (file != NULL && cpel_file_claim_deferred_cache (file))
    cpel_run_deferred_cache_async (file, self->lod_cancellable, on_deferred_cache_done,
                                   g_object_ref (self));
  if (file != NULL && self->watch.reload == NULL && !self->watch.damage_reported
      && cpel_file_is_damaged (file))
    {
      self->watch.damage_reported = TRUE;
      if (cpel_file_index_cache_is_damaged (file))
        show_bar (self, _("The index cache of this file was damaged: reload to rebuild the index"),
                  TRUE);
      else if (!gtk_info_bar_get_revealed (self->reload_bar))
        show_changed (self);
    }
}

static void
disconnect_clock (CpelWindow *self)
{
  if (self->watch.clock != NULL)
    g_signal_handler_disconnect (self->watch.clock, self->watch.paint_id);
  self->watch.paint_id = 0;
  g_clear_object (&self->watch.clock);
}

static void
on_realize (CpelWindow *self)
{
  disconnect_clock (self);
  self->watch.clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  if (self->watch.clock == NULL)
    return;
  g_object_ref (self->watch.clock);
  self->watch.paint_id = g_signal_connect (self->watch.clock, "after-paint",
                                           G_CALLBACK (on_after_paint), self);
}

/* ------------------------------------------------------------------------ */
/* Reloading                                                                  */

typedef struct
{
  CpelWindow   *window;
  GCancellable *cancellable;
} ReloadData;

static void
reload_data_free (ReloadData *data)
{
  g_object_unref (data->window);
  g_object_unref (data->cancellable);
  g_free (data);
}

/* Keep what the user looked at when the new file still has it. */
static void
restore_view (CpelWindow *self,
              gint64      t0,
              gint64      t1,
              gboolean    selected,
              guint       slot,
              guint64     index)
{
  CpelTimeline *timeline = self->timeline;
  CpelFile *file = self->file;

  if (t0 < cpel_file_get_duration (file))
    cpel_timeline_set_range (timeline, t0, t1, FALSE);
  if (selected && slot < cpel_file_get_n_tracks (file)
      && index < cpel_file_get_track_n_events (file, slot))
    cpel_session_select (cpel_timeline_get_session (timeline), slot, index, FALSE);
}

static void
on_reloaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  ReloadData *data = user_data;
  CpelWindow *self = data->window;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelOverview) overview = NULL;
  g_autoptr(GError) error = NULL;
  gint64 t0, t1;
  guint slot = 0;
  guint64 index = 0;
  gboolean selected, changed;
  g_autoptr(GFile) location = NULL;

  file = cpel_load_file_finish (result, &overview, &error);
  if (data->cancellable != self->watch.reload || g_cancellable_is_cancelled (data->cancellable))
    {
      /* Superseded, or the window went away. */
      reload_data_free (data);
      return;
    }
  g_clear_object (&self->watch.reload);
  changed = self->watch.changed_while_reloading;
  self->watch.changed_while_reloading = FALSE;

  if (file == NULL)
    {
      /* The plain sentence first ("This CPEL file is damaged."), then the detail. */
      g_autofree char *why = cpel_error_dup_line (error);
      /* TRANSLATORS: %s is why the file could not be read again */
      g_autofree char *message = g_strdup_printf (_("Could not reload the file: %s"), why);

      g_free (self->watch.failed_stamp);
      self->watch.failed_stamp = g_steal_pointer (&self->watch.reload_stamp);
      show_bar (self, message, TRUE);
      reload_data_free (data);
      return;
    }

  cpel_timeline_get_range (self->timeline, &t0, &t1);
  selected = cpel_session_get_selection (cpel_timeline_get_session (self->timeline), &slot, &index);
  location = g_object_ref (self->location);
  cpel_window_set_file (self, file, overview, location);
  restore_view (self, t0, t1, selected, slot, index);
  if (changed)
    {
      /* Changed while it was read: unless the events were late ones. */
      g_autofree char *now = disk_stamp (location);

      if (g_strcmp0 (now, self->watch.stamp) != 0)
        show_changed (self);
    }
  reload_data_free (data);
}

void
_cpel_window_watch_reload (CpelWindow *self)
{
  GFile *location = self->location;
  ReloadData *data;

  if (location == NULL)
    return;
  if (self->watch.reload != NULL)
    g_cancellable_cancel (self->watch.reload);
  g_clear_object (&self->watch.reload);
  self->watch.reload = g_cancellable_new ();
  self->watch.changed_while_reloading = FALSE;
  g_free (self->watch.reload_stamp);
  self->watch.reload_stamp = disk_stamp (location);
  show_bar (self, _("Reloading…"), FALSE);

  data = g_new0 (ReloadData, 1);
  data->window = g_object_ref (self);
  data->cancellable = g_object_ref (self->watch.reload);
  cpel_load_file_async (location, self->clock_rate, TRUE, self->watch.reload, NULL, on_reloaded, data);
}

/* The bar's Reload button, or its close button. */
void
_cpel_window_on_reload_bar_response (CpelWindow *self,
                                     int         response)
{
  if (response == GTK_RESPONSE_ACCEPT)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.reload", NULL);
  else
    hide_bar (self);
}

/* ------------------------------------------------------------------------ */

void
_cpel_window_watch_init (CpelWindow *self)
{
  g_signal_connect_swapped (self, "realize", G_CALLBACK (on_realize), self);
  g_signal_connect_swapped (self, "unrealize", G_CALLBACK (disconnect_clock), self);
}

/* The window is going away: nothing may call back into it. */
void
_cpel_window_watch_dispose (CpelWindow *self)
{
  if (self->watch.reload != NULL)
    g_cancellable_cancel (self->watch.reload);
  g_clear_object (&self->watch.reload);
  stop_monitor (self);
  disconnect_clock (self);
  /* closed before its first frame: the cache all the same */
  if (self->file != NULL)
    cpel_store_index_async (self->file);
}

void
_cpel_window_watch_finalize (CpelWindow *self)
{
  g_clear_pointer (&self->watch.stamp, g_free);
  g_clear_pointer (&self->watch.reload_stamp, g_free);
  g_clear_pointer (&self->watch.failed_stamp, g_free);
}

gboolean
cpel_window_is_reload_bar_shown (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return gtk_info_bar_get_revealed (self->reload_bar)
         && gtk_widget_get_mapped (GTK_WIDGET (self->reload_bar));
}

gboolean
cpel_window_is_watch_pending (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->watch.debounce != 0;
}

const char *
cpel_window_get_reload_message (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->reload_label);
}
