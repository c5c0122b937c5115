/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks-window.c — the Tracks window
 *
 * Lists the tracks in the timeline's order (pinned first) with a check box
 * to show / hide each, a pin toggle and move up / down buttons; the entry
 * filters the timeline's tracks by name (text, or a regular expression with
 * the toggle beside it); clicking a track, or Enter in the filter for the
 * first match, scrolls the timeline to it; the header bar sorts them (name,
 * id, event count, file order) and resets everything.  A GtkListView keeps
 * 10^4 tracks cheap.  Everything edits the timeline's CpelTrackOrder.
 */
#include <inttypes.h>
#include "cpel-tracks-window.h"

#include <adwaita.h>
#include <glib/gi18n.h>

/* One row: a track slot. */
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

typedef struct
{
  CpelTimeline   *timeline;
  CpelTrackOrder *order;
  GListStore     *store;
  GtkEditable    *entry;     /* the filter (owned by the window) */
  GtkToggleButton *regex;    /* regular expression or text */
  GtkStack       *stack;     /* the list, or "no matching tracks" */
  guint           jumped;    /* the track last scrolled to, G_MAXUINT: none */
  gboolean        updating;
} Tracks;

static void
tracks_free (Tracks *tracks)
{
  if (tracks->order != NULL)
    g_signal_handlers_disconnect_by_data (tracks->order, tracks);
  g_clear_object (&tracks->order);
  g_clear_object (&tracks->timeline);
  g_clear_object (&tracks->store);
  g_free (tracks);
}

static void sync_filter_box (Tracks *tracks);

/* The list: pinned tracks, then the others that match the filter, in the
 * order's sequence (hidden ones included, unchecked). */
static void
refill (Tracks *tracks)
{
  guint n = cpel_track_order_get_n (tracks->order);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (int pass = 0; pass < 2; pass++)
    for (guint p = 0; p < n; p++)
      {
        guint slot = cpel_track_order_get_slot (tracks->order, p);
        gboolean pinned = cpel_track_order_get_pinned (tracks->order, slot);

        if (pass == 0 ? pinned : !pinned && cpel_track_order_matches (tracks->order, slot))
          g_ptr_array_add (items, cpel_track_item_new (slot));
      }
  tracks->updating = TRUE;
  g_list_store_splice (tracks->store, 0, g_list_model_get_n_items (G_LIST_MODEL (tracks->store)),
                       items->pdata, items->len);
  tracks->updating = FALSE;
  if (tracks->stack != NULL)
    gtk_stack_set_visible_child_name (tracks->stack, items->len > 0 ? "list" : "empty");
  sync_filter_box (tracks);
}

static guint
row_slot (GtkWidget *widget)
{
  GtkListItem *item = g_object_get_data (G_OBJECT (widget), "list-item");
  CpelTrackItem *track = item != NULL ? gtk_list_item_get_item (item) : NULL;

  return track != NULL ? track->slot : G_MAXUINT;
}

static void
on_shown_toggled (GtkCheckButton *check,
                  Tracks         *tracks)
{
  guint slot = row_slot (GTK_WIDGET (check));

  if (tracks->updating || slot == G_MAXUINT)
    return;
  cpel_track_order_set_hidden (tracks->order, slot, !gtk_check_button_get_active (check));
}

static void
on_pin_toggled (GtkToggleButton *button,
                Tracks          *tracks)
{
  guint slot = row_slot (GTK_WIDGET (button));

  if (tracks->updating || slot == G_MAXUINT)
    return;
  cpel_track_order_set_pinned (tracks->order, slot, gtk_toggle_button_get_active (button));
}

static void
on_move_clicked (GtkButton *button,
                 Tracks    *tracks)
{
  guint slot = row_slot (GTK_WIDGET (button));
  int delta = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "delta"));

  if (slot != G_MAXUINT)
    cpel_track_order_move (tracks->order, slot, delta);
}

static GtkWidget *
icon_button (const char *icon,
             const char *tooltip,
             gboolean    toggle)
{
  GtkWidget *button = toggle ? gtk_toggle_button_new () : gtk_button_new ();

  gtk_button_set_icon_name (GTK_BUTTON (button), icon);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  return button;
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           Tracks                   *tracks)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *pin = icon_button ("view-pin-symbolic", _("Pin to Top"), TRUE);
  GtkWidget *up = icon_button ("go-up-symbolic", _("Move Up"), FALSE);
  GtkWidget *down = icon_button ("go-down-symbolic", _("Move Down"), FALSE);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_widget_set_tooltip_text (check, _("Show on the Timeline"));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_set_hexpand (labels, TRUE);
  gtk_widget_set_valign (labels, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (labels), title);
  gtk_box_append (GTK_BOX (labels), subtitle);
  g_object_set_data (G_OBJECT (up), "delta", GINT_TO_POINTER (-1));
  g_object_set_data (G_OBJECT (down), "delta", GINT_TO_POINTER (1));

  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), labels);
  gtk_box_append (GTK_BOX (box), pin);
  gtk_box_append (GTK_BOX (box), up);
  gtk_box_append (GTK_BOX (box), down);

  for (GtkWidget *w = gtk_widget_get_first_child (box); w != NULL; w = gtk_widget_get_next_sibling (w))
    g_object_set_data (G_OBJECT (w), "list-item", item);
  g_object_set_data (G_OBJECT (box), "check", check);
  g_object_set_data (G_OBJECT (box), "title", title);
  g_object_set_data (G_OBJECT (box), "subtitle", subtitle);
  g_object_set_data (G_OBJECT (box), "pin", pin);
  g_object_set_data (G_OBJECT (box), "up", up);
  g_object_set_data (G_OBJECT (box), "down", down);

  g_signal_connect (check, "toggled", G_CALLBACK (on_shown_toggled), tracks);
  g_signal_connect (pin, "toggled", G_CALLBACK (on_pin_toggled), tracks);
  g_signal_connect (up, "clicked", G_CALLBACK (on_move_clicked), tracks);
  g_signal_connect (down, "clicked", G_CALLBACK (on_move_clicked), tracks);
  gtk_list_item_set_child (item, box);
  gtk_widget_set_tooltip_text (labels, _("Scroll the timeline to this track"));
  gtk_list_item_set_activatable (item, TRUE);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          Tracks                   *tracks)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  CpelTrackItem *track = gtk_list_item_get_item (item);
  CpelFile *file = cpel_timeline_get_file (tracks->timeline);
  const char *label;
  g_autofree char *subtitle = NULL;
  guint slot;

  if (track == NULL || file == NULL)
    return;
  slot = track->slot;
  label = cpel_file_get_track_label (file, slot);
  /* TRANSLATORS: track id and its number of events */
  subtitle = g_strdup_printf (ngettext ("Id %u · %'" PRIu64 " event",
                                        "Id %u · %'" PRIu64 " events",
                                        cpel_file_get_track_n_events (file, slot)),
                              cpel_file_get_track_id (file, slot),
                              cpel_file_get_track_n_events (file, slot));

  tracks->updating = TRUE;
  gtk_label_set_text (g_object_get_data (G_OBJECT (box), "title"),
                      label != NULL && *label ? label : _("(unnamed)"));
  gtk_label_set_text (g_object_get_data (G_OBJECT (box), "subtitle"), subtitle);
  gtk_check_button_set_active (g_object_get_data (G_OBJECT (box), "check"),
                               !cpel_track_order_get_hidden (tracks->order, slot));
  gtk_toggle_button_set_active (g_object_get_data (G_OBJECT (box), "pin"),
                                cpel_track_order_get_pinned (tracks->order, slot));
  gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (box), "up"),
                            cpel_track_order_can_move (tracks->order, slot, -1));
  gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (box), "down"),
                            cpel_track_order_can_move (tracks->order, slot, 1));
  tracks->updating = FALSE;
}

/* The first track on the timeline that the filter keeps (pinned tracks
 * are shown first whatever the filter), G_MAXUINT: none. */
static guint
first_shown_match (Tracks *tracks)
{
  const guint *rows;
  guint n_rows;

  rows = cpel_track_order_get_rows (tracks->order, &n_rows);
  for (guint r = 0; r < n_rows; r++)
    {
      guint slot = rows != NULL ? rows[r] : r;

      if (cpel_track_order_matches (tracks->order, slot))
        return slot;
    }
  return G_MAXUINT;
}

/* The track to keep in view when the filter goes: the one last scrolled
 * to while it was on, else the first it kept. */
static guint
filter_anchor (Tracks *tracks)
{
  if (tracks->jumped != G_MAXUINT && !cpel_track_order_get_hidden (tracks->order, tracks->jumped)
      && cpel_track_order_matches (tracks->order, tracks->jumped))
    return tracks->jumped;
  return first_shown_match (tracks);
}

/* The entry's text as the filter.  A pattern that does not compile marks
 * the entry and keeps the filter there was; its tooltip says why. */
static void
apply_filter (Tracks *tracks)
{
  GtkWidget *entry = GTK_WIDGET (tracks->entry);
  const char *text = gtk_editable_get_text (tracks->entry);
  g_autoptr(GError) error = NULL;

  /* Clearing the filter keeps the place: the tracks it showed come back
   * with their neighbours around them, not scrolled back to the top. */
  if (*text == '\0' && cpel_track_order_get_filter (tracks->order) != NULL)
    {
      guint anchor = filter_anchor (tracks);

      cpel_track_order_set_filter (tracks->order, NULL);
      if (anchor != G_MAXUINT)
        cpel_timeline_reveal_track (tracks->timeline, anchor);
    }
  else if (!gtk_toggle_button_get_active (tracks->regex))
    cpel_track_order_set_filter (tracks->order, text);
  else if (!cpel_track_order_set_filter_regex (tracks->order, text, &error))
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
on_filter_changed (GtkSearchEntry *entry,
                   Tracks         *tracks)
{
  if (!tracks->updating)
    apply_filter (tracks);
}

static void
on_regex_toggled (GtkToggleButton *button,
                  Tracks          *tracks)
{
  if (!tracks->updating)
    apply_filter (tracks);
}

/* What the filter box would make of its text: the order's filter string
 * (casefolded text, or the pattern), NULL for none. */
static char *
entry_filter (Tracks *tracks)
{
  g_autofree char *valid = g_utf8_make_valid (gtk_editable_get_text (tracks->entry), -1);

  if (*valid == '\0')
    return NULL;
  if (gtk_toggle_button_get_active (tracks->regex))
    return g_steal_pointer (&valid);
  return g_utf8_casefold (valid, -1);
}

/* The filter changed elsewhere (a chase clears it, No Chase puts it back,
 * Reset): the box shows it.  Not while it shows a pattern in error, whose
 * filter is the one before by design. */
static void
sync_filter_box (Tracks *tracks)
{
  const char *filter = cpel_track_order_get_filter (tracks->order);
  gboolean regex = cpel_track_order_get_filter_is_regex (tracks->order);
  g_autofree char *shown = NULL;

  if (tracks->entry == NULL || gtk_widget_has_css_class (GTK_WIDGET (tracks->entry), "error"))
    return;
  shown = entry_filter (tracks);
  if (g_strcmp0 (shown, filter) == 0
      && (filter == NULL || regex == gtk_toggle_button_get_active (tracks->regex)))
    return;
  tracks->updating = TRUE;
  if (filter != NULL)
    gtk_toggle_button_set_active (tracks->regex, regex);
  gtk_editable_set_text (tracks->entry, filter != NULL ? filter : "");
  tracks->updating = FALSE;
}

/* Scroll the timeline to a track, showing it when it was hidden. */
static void
jump_to (Tracks *tracks,
         guint   slot)
{
  if (cpel_track_order_get_hidden (tracks->order, slot))
    cpel_track_order_set_hidden (tracks->order, slot, FALSE);
  cpel_timeline_reveal_track (tracks->timeline, slot);
  tracks->jumped = slot;
}

static void
on_row_activated (GtkListView *list,
                  guint        position,
                  Tracks      *tracks)
{
  g_autoptr(CpelTrackItem) item = g_list_model_get_item (G_LIST_MODEL (tracks->store), position);

  if (item != NULL)
    jump_to (tracks, item->slot);
}

/* Enter in the filter: the first track on the timeline that it keeps
 * (pinned tracks are shown first whatever the filter; hidden ones stay
 * hidden).  The filter typed just before Enter counts: the entry would
 * only report it a moment later. */
static void
on_filter_activate (GtkSearchEntry *entry,
                    Tracks         *tracks)
{
  guint slot;

  apply_filter (tracks);
  if (gtk_widget_has_css_class (GTK_WIDGET (entry), "error")
      || cpel_track_order_get_filter (tracks->order) == NULL)
    return;
  slot = first_shown_match (tracks);
  if (slot != G_MAXUINT && cpel_timeline_reveal_track (tracks->timeline, slot))
    tracks->jumped = slot;
}

static void
on_reset_clicked (GtkButton *button,
                  Tracks    *tracks)
{
  cpel_track_order_reset (tracks->order);
  gtk_editable_set_text (tracks->entry, "");
  gtk_toggle_button_set_active (tracks->regex, FALSE);
}

/* Escape in the filter clears it, and closes the window when it is empty
 * (the filter has the focus when the window opens). */
static void
on_filter_stop (GtkSearchEntry *entry,
                GtkWindow      *window)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (entry)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (entry), "");
  else
    gtk_window_close (window);
}

static void
action_sort (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       data)
{
  Tracks *tracks = data;
  const char *key = g_variant_get_string (parameter, NULL);

  if (g_str_equal (key, "name"))
    cpel_track_order_sort (tracks->order, CPEL_TRACK_SORT_NAME);
  else if (g_str_equal (key, "id"))
    cpel_track_order_sort (tracks->order, CPEL_TRACK_SORT_ID);
  else if (g_str_equal (key, "count"))
    cpel_track_order_sort (tracks->order, CPEL_TRACK_SORT_COUNT);
  else if (g_str_equal (key, "default"))
    cpel_track_order_sort (tracks->order, CPEL_TRACK_SORT_DEFAULT);
}

/* Sort the tracks (keeps which are shown and pinned). */
static GtkWidget *
sort_button (Tracks    *tracks,
             GtkWidget *window)
{
  static const GActionEntry entries[] = { { "sort", action_sort, "s" } };
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkWidget *button = gtk_menu_button_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), tracks);
  gtk_widget_insert_action_group (window, "tracks", G_ACTION_GROUP (group));
  g_menu_append (menu, _("By _Name"), "tracks.sort::name");
  g_menu_append (menu, _("By _Id"), "tracks.sort::id");
  g_menu_append (menu, _("By Event _Count"), "tracks.sort::count");
  g_menu_append (menu, _("_File Order"), "tracks.sort::default");
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-sort-descending-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (button, _("Sort Tracks"));
  return button;
}

GtkWindow *
cpel_tracks_new (GtkWindow    *parent,
                 CpelTimeline *timeline)
{
  GtkWidget *window, *box, *header, *entry, *scrolled, *list, *reset, *clamp, *filter_box, *regex;
  GtkListItemFactory *factory;
  GtkSelectionModel *selection;
  Tracks *tracks;
  const char *filter;

  g_return_val_if_fail (CPEL_IS_TIMELINE (timeline), NULL);
  g_return_val_if_fail (cpel_timeline_get_track_order (timeline) != NULL, NULL);

  tracks = g_new0 (Tracks, 1);
  tracks->timeline = g_object_ref (timeline);
  tracks->order = g_object_ref (cpel_timeline_get_track_order (timeline));
  tracks->store = g_list_store_new (CPEL_TYPE_TRACK_ITEM);
  tracks->jumped = G_MAXUINT;
  g_signal_connect_swapped (tracks->order, "changed", G_CALLBACK (refill), tracks);

  window = adw_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), _("Tracks"));
  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_default_size (GTK_WINDOW (window), 460, 600);
  g_object_set_data_full (G_OBJECT (window), "tracks", tracks, (GDestroyNotify) tracks_free);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  reset = gtk_button_new_with_mnemonic (_("_Reset"));
  gtk_widget_set_tooltip_text (reset, _("Show every track in file order"));
  g_signal_connect (reset, "clicked", G_CALLBACK (on_reset_clicked), tracks);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), reset);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), sort_button (tracks, window));
  gtk_box_append (GTK_BOX (box), header);

  entry = gtk_search_entry_new ();
  g_object_set (entry, "placeholder-text", _("Filter tracks by name"), NULL);
  gtk_widget_set_hexpand (entry, TRUE);
  regex = gtk_toggle_button_new_with_label (".*");
  gtk_widget_set_tooltip_text (regex, _("Regular Expression"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (regex), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Regular Expression"), -1);
  tracks->entry = GTK_EDITABLE (entry);
  tracks->regex = GTK_TOGGLE_BUTTON (regex);
  filter = cpel_track_order_get_filter (tracks->order);
  gtk_toggle_button_set_active (tracks->regex, cpel_track_order_get_filter_is_regex (tracks->order));
  if (filter != NULL)
    gtk_editable_set_text (GTK_EDITABLE (entry), filter);
  g_signal_connect (entry, "search-changed", G_CALLBACK (on_filter_changed), tracks);
  g_signal_connect (entry, "stop-search", G_CALLBACK (on_filter_stop), window);
  g_signal_connect (entry, "activate", G_CALLBACK (on_filter_activate), tracks);
  g_signal_connect (regex, "toggled", G_CALLBACK (on_regex_toggled), tracks);
  filter_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (filter_box), entry);
  gtk_box_append (GTK_BOX (filter_box), regex);
  clamp = adw_clamp_new ();
  adw_clamp_set_child (ADW_CLAMP (clamp), filter_box);
  gtk_widget_set_margin_top (clamp, 12);
  gtk_widget_set_margin_bottom (clamp, 12);
  gtk_widget_set_margin_start (clamp, 12);
  gtk_widget_set_margin_end (clamp, 12);
  gtk_box_append (GTK_BOX (box), clamp);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), tracks);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), tracks);
  selection = GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (g_object_ref (tracks->store))));
  list = gtk_list_view_new (selection, factory);
  gtk_widget_add_css_class (list, "navigation-sidebar");
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (list), TRUE);
  g_signal_connect (list, "activate", G_CALLBACK (on_row_activated), tracks);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_widget_set_vexpand (scrolled, TRUE);
  {
    GtkWidget *stack = gtk_stack_new ();
    GtkWidget *empty = adw_status_page_new ();

    adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "edit-find-symbolic");
    adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Matching Tracks"));
    adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                     _("No track name matches the filter"));
    gtk_widget_add_css_class (empty, "compact");
    gtk_stack_add_named (GTK_STACK (stack), scrolled, "list");
    gtk_stack_add_named (GTK_STACK (stack), empty, "empty");
    gtk_widget_set_vexpand (stack, TRUE);
    gtk_widget_set_name (stack, "tracks-stack");
    tracks->stack = GTK_STACK (stack);
    gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
    gtk_box_append (GTK_BOX (box), stack);
  }

  adw_window_set_content (ADW_WINDOW (window), box);
  refill (tracks);

  /* Escape closes, as in the other dialogs; typing goes to the filter. */
  {
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                            gtk_named_action_new ("window.close")));
    gtk_widget_add_controller (window, shortcuts);
  }
  gtk_window_set_focus (GTK_WINDOW (window), entry);
  return GTK_WINDOW (window);
}
