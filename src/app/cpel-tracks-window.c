/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks-window.c — the Tracks window
 *
 * Lists the tracks in the session's order (pinned first,
 * cpel_track_order_get_listed) with a check box to show / hide each, a pin
 * toggle and move up / down buttons (CpelTrackRow); the entry filters the
 * tracks by name (text, or a regular expression with the toggle beside it);
 * clicking a track, or Enter in the filter for the first match, asks the
 * session to reveal it (the timeline scrolls); the header bar sorts them
 * (name, id, event count, file order) and resets everything.  A GtkListView
 * keeps 10^4 tracks cheap.  Everything edits the session's CpelTrackOrder.
 */
#include "cpel-tracks-window.h"

#include <glib/gi18n.h>

#include "cpel-track-row.h"

/* One item of the list: a track slot. */
#define CPEL_TYPE_TRACK_ITEM (cpel_track_item_get_type ())
G_DECLARE_FINAL_TYPE (CpelTrackItem, cpel_track_item, CPEL, TRACK_ITEM, GObject)

struct _CpelTrackItem
{
  GObject parent_instance;
  guint   slot;
};

G_DEFINE_FINAL_TYPE (CpelTrackItem, cpel_track_item, G_TYPE_OBJECT)

static void cpel_track_item_class_init (CpelTrackItemClass *klass) { }
static void cpel_track_item_init (CpelTrackItem *self) { }

static CpelTrackItem *
cpel_track_item_new (guint slot)
{
  CpelTrackItem *item = g_object_new (CPEL_TYPE_TRACK_ITEM, NULL);

  item->slot = slot;
  return item;
}

struct _CpelTracksWindow
{
  AdwWindow        parent_instance;

  /* template */
  GtkSearchEntry  *filter_entry;
  GtkToggleButton *regex_button;
  GtkStack        *stack;         /* the list, or "no matching tracks" */
  GtkListView     *list_view;

  CpelSession     *session;
  CpelTrackOrder  *order;
  GListStore      *store;         /* CpelTrackItem */
  guint            jumped;        /* the track last scrolled to, G_MAXUINT: none */
  gboolean         updating;      /* the widgets follow the order */
  guint            refill_tick;   /* a refill waits for the next frame, 0: none */
};

G_DEFINE_FINAL_TYPE (CpelTracksWindow, cpel_tracks_window, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void sync_filter_box (CpelTracksWindow *self);

/* The list: pinned tracks, then the others that match the filter, in the
 * order's sequence (hidden ones included, unchecked). */
static void
refill (CpelTracksWindow *self)
{
  guint n;
  g_autofree guint *slots = cpel_track_order_get_listed (self->order, &n);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, cpel_track_item_new (slots[i]));
  self->updating = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
  self->updating = FALSE;
  gtk_stack_set_visible_child_name (self->stack, items->len > 0 ? "list" : "empty");
}

/* The order changed while the list is on screen: the list is refilled on
 * the next frame, from its update phase, which GTK's layout phase follows
 * with nothing in between.  Refilled at once, every row of the list would
 * be new and without a height until that layout, and input handled
 * meanwhile (a wheel over the list: the order changes from a timeout, the
 * filter's search-changed, or from the previous event) moves the
 * scrollbar's adjustment, which GTK 4.8's list looks up among those rows:
 * "GtkListView failed to scroll to given position" (gtklistbase.c,
 * gtk_list_base_adjustment_value_changed_cb; random input seed 85). */
static gboolean
refill_tick (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       data)
{
  CpelTracksWindow *self = CPEL_TRACKS_WINDOW (widget);

  self->refill_tick = 0;
  refill (self);
  return G_SOURCE_REMOVE;
}

static void
cancel_refill_tick (CpelTracksWindow *self)
{
  if (self->refill_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->refill_tick);
  self->refill_tick = 0;
}

/* The filter box follows at once (only the list waits). */
static void
on_order_changed (CpelTracksWindow *self)
{
  sync_filter_box (self);
  /* Not on screen: no frame comes, and no input reaches the list. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      cancel_refill_tick (self);
      refill (self);
    }
  else if (self->refill_tick == 0)
    self->refill_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), refill_tick, NULL, NULL);
}

static void
on_setup_row (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              CpelTracksWindow         *self)
{
  gtk_list_item_set_child (item, GTK_WIDGET (cpel_track_row_new ()));
  gtk_list_item_set_activatable (item, TRUE);
}

static void
on_bind_row (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             CpelTracksWindow         *self)
{
  CpelTrackItem *track = gtk_list_item_get_item (item);

  cpel_track_row_bind (CPEL_TRACK_ROW (gtk_list_item_get_child (item)), self->order,
                       cpel_session_get_file (self->session),
                       track != NULL ? track->slot : G_MAXUINT);
}

/* The track to keep in view when the filter goes: the one last scrolled
 * to while it was on, else the first it kept. */
static guint
filter_anchor (CpelTracksWindow *self)
{
  if (self->jumped != G_MAXUINT && !cpel_track_order_get_hidden (self->order, self->jumped)
      && cpel_track_order_matches (self->order, self->jumped))
    return self->jumped;
  return cpel_track_order_first_shown_match (self->order);
}

/* The entry's text as the filter.  A pattern that does not compile marks
 * the entry and keeps the filter there was; its tooltip says why. */
static void
apply_filter (CpelTracksWindow *self)
{
  GtkWidget *entry = GTK_WIDGET (self->filter_entry);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  g_autoptr(GError) error = NULL;

  /* Clearing the filter keeps the place: the tracks it showed come back
   * with their neighbours around them, not scrolled back to the top. */
  if (*text == '\0' && cpel_track_order_get_filter (self->order) != NULL)
    {
      guint anchor = filter_anchor (self);

      cpel_track_order_set_filter (self->order, NULL);
      if (anchor != G_MAXUINT)
        cpel_session_reveal_track (self->session, anchor, TRUE);
    }
  else if (!gtk_toggle_button_get_active (self->regex_button))
    cpel_track_order_set_filter (self->order, text);
  else if (!cpel_track_order_set_filter_regex (self->order, text, &error))
    {
      gtk_widget_add_css_class (entry, "error");
      gtk_widget_set_tooltip_text (entry, error->message);
      gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      error->message, -1);
      return;
    }
  gtk_widget_remove_css_class (entry, "error");
  gtk_widget_set_tooltip_text (entry, NULL);
  gtk_accessible_reset_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
on_filter_changed (CpelTracksWindow *self)
{
  if (!self->updating)
    apply_filter (self);
}

static void
on_regex_toggled (CpelTracksWindow *self)
{
  if (!self->updating)
    apply_filter (self);
}

/* What the filter box would make of its text: the order's filter string
 * (casefolded text, or the pattern), NULL for none. */
static char *
entry_filter (CpelTracksWindow *self)
{
  g_autofree char *valid = g_utf8_make_valid (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), -1);

  if (*valid == '\0')
    return NULL;
  if (gtk_toggle_button_get_active (self->regex_button))
    return g_steal_pointer (&valid);
  return g_utf8_casefold (valid, -1);
}

/* The filter changed elsewhere (a chase clears it, No Chase puts it back,
 * Reset): the box shows it.  Not while it shows a pattern in error, whose
 * filter is the one before by design. */
static void
sync_filter_box (CpelTracksWindow *self)
{
  const char *filter = cpel_track_order_get_filter (self->order);
  gboolean regex = cpel_track_order_get_filter_is_regex (self->order);
  g_autofree char *shown = NULL;

  if (gtk_widget_has_css_class (GTK_WIDGET (self->filter_entry), "error"))
    return;
  shown = entry_filter (self);
  if (g_strcmp0 (shown, filter) == 0
      && (filter == NULL || regex == gtk_toggle_button_get_active (self->regex_button)))
    return;
  self->updating = TRUE;
  if (filter != NULL)
    gtk_toggle_button_set_active (self->regex_button, regex);
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), filter != NULL ? filter : "");
  self->updating = FALSE;
}

/* Scroll the timeline to a track, showing it when it was hidden. */
static void
jump_to (CpelTracksWindow *self,
         guint             slot)
{
  cpel_session_show_track (self->session, slot);
  self->jumped = slot;
}

static void
on_row_activated (CpelTracksWindow *self,
                  guint             position)
{
  g_autoptr(CpelTrackItem) item = g_list_model_get_item (G_LIST_MODEL (self->store), position);

  if (item != NULL)
    jump_to (self, item->slot);
}

/* Enter in the filter: the first track on the timeline that it keeps
 * (pinned tracks are shown first whatever the filter; hidden ones stay
 * hidden).  The filter typed just before Enter counts: the entry would
 * only report it a moment later. */
static void
on_filter_activate (CpelTracksWindow *self)
{
  guint slot;

  apply_filter (self);
  if (gtk_widget_has_css_class (GTK_WIDGET (self->filter_entry), "error")
      || cpel_track_order_get_filter (self->order) == NULL)
    return;
  slot = cpel_track_order_first_shown_match (self->order);
  if (slot != G_MAXUINT && cpel_session_reveal_track (self->session, slot, TRUE))
    self->jumped = slot;
}

static void
on_reset_clicked (CpelTracksWindow *self)
{
  cpel_track_order_reset (self->order);
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), "");
  gtk_toggle_button_set_active (self->regex_button, FALSE);
}

/* Escape in the filter clears it, and closes the window when it is empty
 * (the filter has the focus when the window opens).  Escape elsewhere
 * closes it (the class binding). */
static void
on_filter_stop (CpelTracksWindow *self)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), "");
  else
    gtk_window_close (GTK_WINDOW (self));
}

/* tracks.sort: reorder the tracks (keeps which are shown and pinned). */
static void
action_sort (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  CpelTracksWindow *self = CPEL_TRACKS_WINDOW (widget);
  const char *key = g_variant_get_string (parameter, NULL);

  if (g_str_equal (key, "name"))
    cpel_track_order_sort (self->order, CPEL_TRACK_SORT_NAME);
  else if (g_str_equal (key, "id"))
    cpel_track_order_sort (self->order, CPEL_TRACK_SORT_ID);
  else if (g_str_equal (key, "count"))
    cpel_track_order_sort (self->order, CPEL_TRACK_SORT_COUNT);
  else if (g_str_equal (key, "default"))
    cpel_track_order_sort (self->order, CPEL_TRACK_SORT_DEFAULT);
}

CpelTracksWindow *
cpel_tracks_window_new (CpelSession *session,
                        GtkWindow   *parent)
{
  g_return_val_if_fail (CPEL_IS_SESSION (session), NULL);
  g_return_val_if_fail (cpel_session_get_file (session) != NULL, NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (CPEL_TYPE_TRACKS_WINDOW,
                       "transient-for", parent,
                       "session", session,
                       NULL);
}

CpelSession *
cpel_tracks_window_get_session (CpelTracksWindow *self)
{
  g_return_val_if_fail (CPEL_IS_TRACKS_WINDOW (self), NULL);
  return self->session;
}

static void
cpel_tracks_window_constructed (GObject *object)
{
  CpelTracksWindow *self = CPEL_TRACKS_WINDOW (object);
  const char *filter;

  G_OBJECT_CLASS (cpel_tracks_window_parent_class)->constructed (object);

  g_assert (CPEL_IS_SESSION (self->session));
  self->order = g_object_ref (cpel_session_get_track_order (self->session));
  g_signal_connect_object (self->order, "changed", G_CALLBACK (on_order_changed), self, G_CONNECT_SWAPPED);

  /* The filter box starts with the filter there is. */
  filter = cpel_track_order_get_filter (self->order);
  self->updating = TRUE;
  gtk_toggle_button_set_active (self->regex_button, cpel_track_order_get_filter_is_regex (self->order));
  if (filter != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), filter);
  self->updating = FALSE;
  refill (self);
  sync_filter_box (self);
}

static void
cpel_tracks_window_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  CpelTracksWindow *self = CPEL_TRACKS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_tracks_window_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  CpelTracksWindow *self = CPEL_TRACKS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A refill still waiting for a frame is done now: no frame comes while
 * the window is not mapped. */
static void
cpel_tracks_window_unmap (GtkWidget *widget)
{
  CpelTracksWindow *self = CPEL_TRACKS_WINDOW (widget);

  if (self->refill_tick != 0)
    {
      cancel_refill_tick (self);
      refill (self);
    }
  GTK_WIDGET_CLASS (cpel_tracks_window_parent_class)->unmap (widget);
}

static void
cpel_tracks_window_dispose (GObject *object)
{
  CpelTracksWindow *self = CPEL_TRACKS_WINDOW (object);

  cancel_refill_tick (self);
  if (self->order != NULL)
    g_signal_handlers_disconnect_by_data (self->order, self);
  g_clear_object (&self->order);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (cpel_tracks_window_parent_class)->dispose (object);
}

static void
cpel_tracks_window_finalize (GObject *object)
{
  CpelTracksWindow *self = CPEL_TRACKS_WINDOW (object);

  g_clear_object (&self->store);

  G_OBJECT_CLASS (cpel_tracks_window_parent_class)->finalize (object);
}

static void
cpel_tracks_window_class_init (CpelTracksWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_tracks_window_constructed;
  object_class->get_property = cpel_tracks_window_get_property;
  object_class->set_property = cpel_tracks_window_set_property;
  object_class->dispose = cpel_tracks_window_dispose;
  object_class->finalize = cpel_tracks_window_finalize;
  widget_class->unmap = cpel_tracks_window_unmap;

  /* The session whose track order the window edits (its file's). */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, CPEL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-tracks-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelTracksWindow, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, CpelTracksWindow, regex_button);
  gtk_widget_class_bind_template_child (widget_class, CpelTracksWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, CpelTracksWindow, list_view);
  gtk_widget_class_bind_template_callback (widget_class, on_setup_row);
  gtk_widget_class_bind_template_callback (widget_class, on_bind_row);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_stop);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_regex_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_reset_clicked);

  gtk_widget_class_install_action (widget_class, "tracks.sort", "s", action_sort);
  /* Escape closes, as in the other tool windows (in the filter it first
   * clears the filter: the entry handles it before the window). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cpel_tracks_window_init (CpelTracksWindow *self)
{
  self->jumped = G_MAXUINT;
  self->store = g_list_store_new (CPEL_TYPE_TRACK_ITEM);
  g_type_ensure (CPEL_TYPE_TRACK_ROW);
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_list_view_set_model (self->list_view,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->store)))));
}
