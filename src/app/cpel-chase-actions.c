/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-chase-actions.c — g2's chase on a window (see the header) */
#include "cpel-chase-actions.h"

#include <glib/gi18n.h>

#include "cpel-window-tools.h"

#define DATA_KEY "cpel-chase-actions"

typedef struct
{
  CpelWindow     *window;      /* not owned: the data lives on it */
  CpelTrackOrder *order;       /* the order chased (the timeline's) */
  CpelTrackOrder *saved;       /* before the first chase; NULL = no chase */
  GCancellable   *cancellable; /* the running lookup */
  guint           toast_id;    /* the chase's toast (cpel_toaster_withdraw) */
} Chase;

typedef enum
{
  CHASE_EVENT,
  CHASE_DATUM,
} ChaseKind;

typedef struct
{
  CpelFile       *file;
  CpelChaseQuery  query;
  guint          *slots;
  guint           n_slots;
} Lookup;

static void
lookup_free (Lookup *lookup)
{
  g_clear_object (&lookup->file);
  g_free (lookup->slots);
  g_free (lookup);
}

static Chase *
get_chase (CpelWindow *window)
{
  return g_object_get_data (G_OBJECT (window), DATA_KEY);
}

/* Says `text` (with a No Chase button when `no_chase`), or takes the
 * chase's last toast away when `text` is NULL. */
static void
set_toast (Chase      *chase,
           const char *text,
           gboolean    no_chase)
{
  CpelToaster *toaster = cpel_window_get_toaster (chase->window);

  if (text == NULL)
    cpel_toaster_withdraw (toaster, chase->toast_id);
  else
    chase->toast_id = cpel_toaster_show_full (toaster, text, CPEL_TOASTER_TIMEOUT,
                                              no_chase ? _("_No Chase") : NULL,
                                              no_chase ? "win.no-chase" : NULL, NULL);
  if (text == NULL)
    chase->toast_id = 0;
}

static void
update_actions (Chase *chase)
{
  gboolean has_file = cpel_window_get_file (chase->window) != NULL;

  cpel_window_tools_enable (G_ACTION_MAP (chase->window), "chase-event", has_file);
  cpel_window_tools_enable (G_ACTION_MAP (chase->window), "chase-datum", has_file);
  cpel_window_tools_enable (G_ACTION_MAP (chase->window), "chase-track", has_file);
  cpel_window_tools_enable (G_ACTION_MAP (chase->window), "no-chase", chase->saved != NULL);
}

/* A new file (or none): forget the chase of the previous one. */
static void
on_file_changed (CpelWindow *window,
                 GParamSpec *pspec,
                 Chase      *chase)
{
  CpelTrackOrder *order = cpel_timeline_get_track_order (cpel_window_get_timeline (window));

  if (order != chase->order)
    {
      g_cancellable_cancel (chase->cancellable);
      g_clear_object (&chase->cancellable);
      g_clear_object (&chase->saved);
      g_set_object (&chase->order, order);
      set_toast (chase, NULL, FALSE);
    }
  update_actions (chase);
}

static void
chase_free (Chase *chase)
{
  if (chase->cancellable != NULL)
    g_cancellable_cancel (chase->cancellable);
  g_clear_object (&chase->cancellable);
  g_clear_object (&chase->saved);
  g_clear_object (&chase->order);
  g_free (chase);
}

/* The selected event, or a toast saying to select one. */
static gboolean
get_selected (Chase     *chase,
              CpelEvent *event)
{
  CpelTimeline *timeline = cpel_window_get_timeline (chase->window);
  CpelFile *file = cpel_window_get_file (chase->window);
  guint slot;
  guint64 index;

  if (file == NULL || chase->order == NULL)
    return FALSE;
  if (!cpel_timeline_get_selection (timeline, &slot, &index))
    {
      set_toast (chase, _("Select an event to chase first"), FALSE);
      return FALSE;
    }
  cpel_file_get_track_event (file, slot, index, event);
  return TRUE;
}

/* Remember the track list before the first chase. */
static void
begin_chase (Chase *chase)
{
  if (chase->saved == NULL)
    chase->saved = cpel_track_order_copy (chase->order);
}

static void
scroll_to_selection (Chase *chase)
{
  CpelTimeline *timeline = cpel_window_get_timeline (chase->window);
  guint slot;
  guint64 index;

  gtk_adjustment_set_value (cpel_timeline_get_vadjustment (timeline), 0);
  if (cpel_timeline_get_selection (timeline, &slot, &index))
    cpel_timeline_select (timeline, slot, index, TRUE);
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
  CpelWindow *window = CPEL_WINDOW (source);
  Lookup *lookup = g_task_get_task_data (G_TASK (result));
  ChaseKind kind = GPOINTER_TO_INT (user_data);
  Chase *chase = get_chase (window);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *wanted = NULL;
  g_autofree guint *rows = NULL;
  g_autofree char *text = NULL;
  guint n_tracks, n = 0;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return;   /* cancelled: superseded, another file or the window went away */
  if (chase == NULL || chase->order == NULL
      || cpel_window_get_file (window) != lookup->file)
    return;
  g_clear_object (&chase->cancellable);

  /* The chased tracks in the order they were shown before the chase. */
  begin_chase (chase);
  n_tracks = cpel_track_order_get_n (chase->saved);
  wanted = g_malloc0 (MAX (n_tracks, 1));
  for (guint i = 0; i < lookup->n_slots; i++)
    if (lookup->slots[i] < n_tracks)
      wanted[lookup->slots[i]] = 1;
  rows = g_new (guint, MAX (lookup->n_slots, 1));
  {
    guint n_saved;
    const guint *saved_rows = cpel_track_order_get_rows (chase->saved, &n_saved);

    /* Shown before first (pinned on top), then the ones the chase brings
     * back, in the full order. */
    for (guint r = 0; r < n_saved; r++)
      {
        guint slot = saved_rows != NULL ? saved_rows[r] : r;

        if (slot < n_tracks && wanted[slot] == 1)
          {
            rows[n++] = slot;
            wanted[slot] = 2;
          }
      }
    for (guint p = 0; p < n_tracks; p++)
      {
        guint slot = cpel_track_order_get_slot (chase->saved, p);

        if (wanted[slot] == 1)
          rows[n++] = slot;
      }
  }
  cpel_track_order_set_rows (chase->order, rows, n);
  scroll_to_selection (chase);
  update_actions (chase);

  if (kind == CHASE_EVENT)
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
  set_toast (chase, text, TRUE);
}

static void
start_lookup (Chase     *chase,
              ChaseKind  kind)
{
  CpelEvent event;
  Lookup *lookup;
  g_autoptr(GTask) task = NULL;

  if (!get_selected (chase, &event))
    return;
  if (chase->cancellable != NULL)
    g_cancellable_cancel (chase->cancellable);
  g_clear_object (&chase->cancellable);
  chase->cancellable = g_cancellable_new ();

  lookup = g_new0 (Lookup, 1);
  lookup->file = g_object_ref (cpel_window_get_file (chase->window));
  if (kind == CHASE_EVENT)
    {
      lookup->query.match_code = TRUE;
      lookup->query.code = event.code;
    }
  else
    {
      lookup->query.match_datum = TRUE;
      lookup->query.datum = event.datum;
    }
  task = g_task_new (chase->window, chase->cancellable, on_lookup_done, GINT_TO_POINTER (kind));
  g_task_set_source_tag (task, start_lookup);
  g_task_set_task_data (task, lookup, (GDestroyNotify) lookup_free);
  g_task_run_in_thread (task, lookup_thread);
}

static void
action_chase (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       data)
{
  Chase *chase = get_chase (CPEL_WINDOW (data));
  const char *name = g_action_get_name (G_ACTION (action));

  if (chase == NULL)
    return;
  if (g_str_equal (name, "chase-event"))
    start_lookup (chase, CHASE_EVENT);
  else if (g_str_equal (name, "chase-datum"))
    start_lookup (chase, CHASE_DATUM);
  else
    {
      /* Chase track: pin the selected event's track on top. */
      CpelEvent event;
      g_autofree char *text = NULL;
      const char *label;

      if (!get_selected (chase, &event))
        return;
      begin_chase (chase);
      cpel_track_order_set_hidden (chase->order, event.track_slot, FALSE);
      cpel_track_order_set_pinned (chase->order, event.track_slot, TRUE);
      cpel_track_order_raise (chase->order, event.track_slot, TRUE);
      scroll_to_selection (chase);
      update_actions (chase);
      label = cpel_file_get_track_label (cpel_window_get_file (chase->window), event.track_slot);
      /* TRANSLATORS: toast; %s is a track name */
      text = g_strdup_printf (_("Track “%s” pinned on top"), label != NULL ? label : "");
      set_toast (chase, text, TRUE);
    }
}

static void
action_no_chase (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       data)
{
  Chase *chase = get_chase (CPEL_WINDOW (data));

  if (chase == NULL)
    return;
  if (chase->cancellable != NULL)
    g_cancellable_cancel (chase->cancellable);
  g_clear_object (&chase->cancellable);
  if (chase->saved == NULL)
    return;
  cpel_track_order_assign (chase->order, chase->saved);
  g_clear_object (&chase->saved);
  set_toast (chase, NULL, FALSE);
  scroll_to_selection (chase);
  update_actions (chase);
}

static const GActionEntry entries[] = {
  { "chase-event", action_chase },
  { "chase-datum", action_chase },
  { "chase-track", action_chase },
  { "no-chase", action_no_chase },
};

/* The window closes: no lookup keeps it alive. */
static void
on_destroy (CpelWindow *window,
            Chase      *chase)
{
  if (chase->cancellable != NULL)
    g_cancellable_cancel (chase->cancellable);
}

void
cpel_chase_actions_install (CpelWindow *window)
{
  Chase *chase;

  g_return_if_fail (CPEL_IS_WINDOW (window));

  chase = g_new0 (Chase, 1);
  chase->window = window;
  g_object_set_data_full (G_OBJECT (window), DATA_KEY, chase, (GDestroyNotify) chase_free);
  g_action_map_add_action_entries (G_ACTION_MAP (window), entries, G_N_ELEMENTS (entries), window);
  g_signal_connect (window, "notify::file", G_CALLBACK (on_file_changed), chase);
  g_signal_connect (window, "destroy", G_CALLBACK (on_destroy), chase);
  on_file_changed (window, NULL, chase);
}

gboolean
cpel_chase_actions_chasing (CpelWindow *window)
{
  Chase *chase;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), FALSE);
  chase = get_chase (window);
  return chase != NULL && chase->saved != NULL;
}

gboolean
cpel_chase_actions_busy (CpelWindow *window)
{
  Chase *chase;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), FALSE);
  chase = get_chase (window);
  return chase != NULL && chase->cancellable != NULL;
}
