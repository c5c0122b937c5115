/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-watch.c — noticing that the open file changed on disk */
#include "cpel-file-watch.h"

#include <glib/gi18n.h>

#include "cpel-async.h"

/* Writers touch a file in bursts: one bar after the burst, not one per write. */
#define DEBOUNCE_MS 250

typedef struct
{
  CpelWindow    *window;        /* not owned: this lives as the window's data */
  GtkInfoBar    *bar;           /* owned by the window's box */
  GtkLabel      *label;
  GtkWidget     *button;

  GFileMonitor  *monitor;
  char          *stamp;         /* the shown file on disk, before it was read */
  char          *reload_stamp;  /* the same for a reload in flight */
  guint          debounce;
  GCancellable  *reload;        /* a reload in flight */
  gboolean       changed_while_reloading;
  gboolean       damage_reported;   /* once per file: closing the bar sticks */

  GdkFrameClock *clock;
  gulong         paint_id;
} FileWatch;

static const char watch_key[] = "cpel-file-watch";

static FileWatch *
get_watch (CpelWindow *window)
{
  return g_object_get_data (G_OBJECT (window), watch_key);
}

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
show_bar (FileWatch  *w,
          const char *message,
          gboolean    can_reload)
{
  gtk_label_set_text (w->label, message);
  gtk_widget_set_sensitive (w->button, can_reload);
  gtk_widget_set_visible (GTK_WIDGET (w->bar), TRUE);
  gtk_info_bar_set_revealed (w->bar, TRUE);
}

static void
show_changed (FileWatch *w)
{
  if (w->reload != NULL)
    {
      /* What is loading may already be stale: say so once it is shown. */
      w->changed_while_reloading = TRUE;
      return;
    }
  show_bar (w, _("The file changed on disk"), cpel_window_get_location (w->window) != NULL);
}

static void
hide_bar (FileWatch *w)
{
  gtk_info_bar_set_revealed (w->bar, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Watching                                                                   */

static gboolean
on_debounce (gpointer data)
{
  FileWatch *w = data;
  g_autofree char *now = NULL;

  w->debounce = 0;
  /* Late events of a change the shown file already has (a reload after a
   * write, or GIO's delayed "done" hint) change nothing. */
  if (w->reload == NULL && w->stamp != NULL)
    {
      now = disk_stamp (cpel_window_get_location (w->window));
      if (g_strcmp0 (now, w->stamp) == 0)
        return G_SOURCE_REMOVE;
    }
  show_changed (w);
  return G_SOURCE_REMOVE;
}

static void
on_monitor_changed (GFileMonitor      *monitor,
                    GFile             *file,
                    GFile             *other,
                    GFileMonitorEvent  event,
                    gpointer           data)
{
  FileWatch *w = data;

  switch (event)
    {
    case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
      /* The end of a burst of writes: wait from here if one is pending. */
      if (w->debounce == 0)
        break;
      G_GNUC_FALLTHROUGH;
    case G_FILE_MONITOR_EVENT_CHANGED:
    case G_FILE_MONITOR_EVENT_DELETED:
    case G_FILE_MONITOR_EVENT_CREATED:
    case G_FILE_MONITOR_EVENT_MOVED:
    case G_FILE_MONITOR_EVENT_RENAMED:
    case G_FILE_MONITOR_EVENT_MOVED_IN:
    case G_FILE_MONITOR_EVENT_MOVED_OUT:
      g_clear_handle_id (&w->debounce, g_source_remove);
      w->debounce = g_timeout_add (DEBOUNCE_MS, on_debounce, w);
      break;
    default:
      /* Attributes, mounts: the content is the same. */
      break;
    }
}

static void
stop_monitor (FileWatch *w)
{
  if (w->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (w->monitor, w);
      g_file_monitor_cancel (w->monitor);
    }
  g_clear_object (&w->monitor);
  g_clear_handle_id (&w->debounce, g_source_remove);
}

/* A new file is shown (a reload, or the first open): watch its path. */
static void
on_file_changed (FileWatch *w)
{
  GFile *location = cpel_window_get_location (w->window);
  CpelFile *file = cpel_window_get_file (w->window);
  g_autoptr(GFile) by_path = NULL;
  g_autoptr(GError) error = NULL;

  stop_monitor (w);
  hide_bar (w);
  w->damage_reported = FALSE;
  /* A reload took its stamp before reading; a first open is stamped now. */
  g_free (w->stamp);
  w->stamp = g_steal_pointer (&w->reload_stamp);
  if (w->stamp == NULL)
    w->stamp = disk_stamp (location);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (w->window),
                                                                            "reload")),
                               location != NULL);
  if (location == NULL && file != NULL && cpel_file_get_path (file) != NULL)
    location = by_path = g_file_new_for_path (cpel_file_get_path (file));
  if (location == NULL)
    return;

  w->monitor = g_file_monitor_file (location, G_FILE_MONITOR_NONE, NULL, &error);
  if (w->monitor == NULL)
    {
      /* Not fatal: the damage check after each frame still works. */
      g_debug ("Cannot watch the file: %s", error->message);
      return;
    }
  g_signal_connect (w->monitor, "changed", G_CALLBACK (on_monitor_changed), w);
}

/* The view read past the end of a file that shrank: its data is zeros now. */
static void
on_after_paint (GdkFrameClock *clock,
                FileWatch     *w)
{
  CpelFile *file = cpel_window_get_file (w->window);

  if (file != NULL && w->reload == NULL && !w->damage_reported && cpel_file_is_damaged (file))
    {
      w->damage_reported = TRUE;
      if (!gtk_info_bar_get_revealed (w->bar))
        show_changed (w);
    }
}

static void
disconnect_clock (FileWatch *w)
{
  if (w->clock != NULL)
    g_signal_handler_disconnect (w->clock, w->paint_id);
  w->paint_id = 0;
  g_clear_object (&w->clock);
}

static void
on_realize (FileWatch *w)
{
  disconnect_clock (w);
  w->clock = gtk_widget_get_frame_clock (GTK_WIDGET (w->window));
  if (w->clock == NULL)
    return;
  g_object_ref (w->clock);
  w->paint_id = g_signal_connect (w->clock, "after-paint", G_CALLBACK (on_after_paint), w);
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
restore_view (CpelWindow *window,
              gint64      t0,
              gint64      t1,
              gboolean    selected,
              guint       slot,
              guint64     index)
{
  CpelTimeline *timeline = cpel_window_get_timeline (window);
  CpelFile *file = cpel_window_get_file (window);

  if (t0 < cpel_file_get_duration (file))
    cpel_timeline_set_range (timeline, t0, t1, FALSE);
  if (selected && slot < cpel_file_get_n_tracks (file)
      && index < cpel_file_get_track_n_events (file, slot))
    cpel_timeline_select (timeline, slot, index, FALSE);
}

static void
on_reloaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  ReloadData *data = user_data;
  CpelWindow *window = data->window;
  FileWatch *w = get_watch (window);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelOverview) overview = NULL;
  g_autoptr(GError) error = NULL;
  gint64 t0, t1;
  guint slot = 0;
  guint64 index = 0;
  gboolean selected, changed;
  g_autoptr(GFile) location = NULL;

  file = cpel_load_file_finish (result, &overview, &error);
  if (w == NULL || data->cancellable != w->reload || g_cancellable_is_cancelled (data->cancellable))
    {
      /* Superseded, or the window went away. */
      reload_data_free (data);
      return;
    }
  g_clear_object (&w->reload);
  changed = w->changed_while_reloading;
  w->changed_while_reloading = FALSE;

  if (file == NULL)
    {
      /* TRANSLATORS: %s is why the file could not be read again */
      g_autofree char *message = g_strdup_printf (_("Could not reload the file: %s"),
                                                  error->message);

      g_clear_pointer (&w->reload_stamp, g_free);
      show_bar (w, message, TRUE);
      reload_data_free (data);
      return;
    }

  cpel_timeline_get_range (cpel_window_get_timeline (window), &t0, &t1);
  selected = cpel_timeline_get_selection (cpel_window_get_timeline (window), &slot, &index);
  location = g_object_ref (cpel_window_get_location (window));
  cpel_window_set_file (window, file, overview, location);
  restore_view (window, t0, t1, selected, slot, index);
  if (changed)
    {
      /* Changed while it was read: unless the events were late ones. */
      g_autofree char *now = disk_stamp (location);

      if (g_strcmp0 (now, w->stamp) != 0)
        show_changed (w);
    }
  reload_data_free (data);
}

static void
action_reload (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  CpelWindow *window = user_data;
  FileWatch *w = get_watch (window);
  GFile *location = cpel_window_get_location (window);
  ReloadData *data;

  if (w == NULL || location == NULL)
    return;
  if (w->reload != NULL)
    g_cancellable_cancel (w->reload);
  g_clear_object (&w->reload);
  w->reload = g_cancellable_new ();
  w->changed_while_reloading = FALSE;
  g_free (w->reload_stamp);
  w->reload_stamp = disk_stamp (location);
  show_bar (w, _("Reloading…"), FALSE);

  data = g_new0 (ReloadData, 1);
  data->window = g_object_ref (window);
  data->cancellable = g_object_ref (w->reload);
  cpel_load_file_async (location, w->reload, NULL, NULL, on_reloaded, data);
}

static void
on_bar_response (GtkInfoBar *bar,
                 int         response,
                 FileWatch  *w)
{
  if (response == GTK_RESPONSE_ACCEPT)
    g_action_group_activate_action (G_ACTION_GROUP (w->window), "reload", NULL);
  else
    hide_bar (w);
}

/* ------------------------------------------------------------------------ */

/* The window is going away (its dispose): nothing may call back into it. */
static void
on_destroy (FileWatch *w)
{
  if (w->reload != NULL)
    g_cancellable_cancel (w->reload);
  g_clear_object (&w->reload);
  stop_monitor (w);
  disconnect_clock (w);
}

static void
file_watch_free (FileWatch *w)
{
  on_destroy (w);
  g_free (w->stamp);
  g_free (w->reload_stamp);
  g_free (w);
}

static const GActionEntry watch_entries[] = {
  { "reload", action_reload },
};

void
cpel_file_watch_install (CpelWindow *window)
{
  GtkWidget *search_bar;
  GtkWidget *box;
  GtkWidget *bar;
  FileWatch *w;

  g_return_if_fail (CPEL_IS_WINDOW (window));
  g_return_if_fail (get_watch (window) == NULL);

  w = g_new0 (FileWatch, 1);
  w->window = window;
  g_object_set_data_full (G_OBJECT (window), watch_key, w, (GDestroyNotify) file_watch_free);

  bar = gtk_info_bar_new ();
  w->bar = GTK_INFO_BAR (bar);
  gtk_info_bar_set_message_type (w->bar, GTK_MESSAGE_WARNING);
  gtk_info_bar_set_show_close_button (w->bar, TRUE);
  gtk_info_bar_set_revealed (w->bar, FALSE);
  w->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (w->label, TRUE);
  gtk_label_set_xalign (w->label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (w->label), TRUE);
  gtk_info_bar_add_child (w->bar, GTK_WIDGET (w->label));
  w->button = gtk_info_bar_add_button (w->bar, _("_Reload"), GTK_RESPONSE_ACCEPT);
  g_signal_connect (bar, "response", G_CALLBACK (on_bar_response), w);

  /* Under the header bar and search bar, above the view. */
  search_bar = GTK_WIDGET (cpel_window_get_search_bar (window));
  box = gtk_widget_get_parent (search_bar);
  g_return_if_fail (GTK_IS_BOX (box));
  gtk_box_insert_child_after (GTK_BOX (box), bar, search_bar);

  g_action_map_add_action_entries (G_ACTION_MAP (window), watch_entries,
                                   G_N_ELEMENTS (watch_entries), window);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (window),
                                                                            "reload")),
                               FALSE);

  g_signal_connect_swapped (window, "notify::file", G_CALLBACK (on_file_changed), w);
  g_signal_connect_swapped (window, "realize", G_CALLBACK (on_realize), w);
  g_signal_connect_swapped (window, "unrealize", G_CALLBACK (disconnect_clock), w);
  g_signal_connect_swapped (window, "destroy", G_CALLBACK (on_destroy), w);
}

gboolean
cpel_file_watch_is_shown (CpelWindow *window)
{
  FileWatch *w;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), FALSE);
  w = get_watch (window);
  return w != NULL && gtk_info_bar_get_revealed (w->bar)
         && gtk_widget_get_mapped (GTK_WIDGET (w->bar));
}

const char *
cpel_file_watch_get_message (CpelWindow *window)
{
  FileWatch *w;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), NULL);
  w = get_watch (window);
  return w != NULL ? gtk_label_get_text (w->label) : NULL;
}
