/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-views.c — the Saved Views window
 *
 * A boxed list of the capture's views (the current one marked): activating
 * a row shows the view; each row renames (a popover with an entry) and
 * deletes.  The header bar saves the current view and, in its menu, imports,
 * exports, writes and rereads the views file.  Buttons use the viewer
 * window's actions (its "win" group is inserted here).
 */
#include "cpel-saved-views.h"

#include <glib/gi18n.h>

#include "cpel-app-util.h"

typedef struct
{
  CpelWindow *window;   /* not owned (this window is transient for it) */
  CpelViews  *views;
  GtkStack   *stack;
  GtkListBox *list;
} SavedViews;

static void
saved_views_free (SavedViews *sv)
{
  g_signal_handlers_disconnect_by_data (sv->views, sv);
  g_clear_object (&sv->views);
  g_free (sv);
}

static char *
describe (SavedViews          *sv,
          const CpelSavedView *view)
{
  CpelFile *file = cpel_window_get_file (sv->window);
  g_autofree char *t0 = cpel_time_format (view->t0);
  g_autofree char *t1 = cpel_time_format (view->t1);
  guint n_tracks = view->track_order->len > 0 ? view->track_order->len
                   : (file != NULL ? cpel_file_get_n_tracks (file) - MIN (view->hidden_tracks->len, cpel_file_get_n_tracks (file)) : 0);
  g_autofree char *tracks = g_strdup_printf (ngettext ("%u track", "%u tracks", n_tracks), n_tracks);

  if (view->hidden_codes->len > 0)
    {
      g_autofree char *types = g_strdup_printf (ngettext ("%u event type hidden",
                                                          "%u event types hidden",
                                                          view->hidden_codes->len),
                                                view->hidden_codes->len);

      /* TRANSLATORS: a saved view: "start – end · n tracks · n event types hidden" */
      return g_strdup_printf (_("%s – %s · %s · %s"), t0, t1, tracks, types);
    }
  /* TRANSLATORS: a saved view: "start – end · n tracks" */
  return g_strdup_printf (_("%s – %s · %s"), t0, t1, tracks);
}

static void
on_rename_activate (GtkWidget *widget,
                    GtkWidget *popover)
{
  SavedViews *sv = g_object_get_data (G_OBJECT (popover), "saved-views");
  const char *old_name = g_object_get_data (G_OBJECT (popover), "view-name");
  GtkEditable *entry = g_object_get_data (G_OBJECT (popover), "entry");
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  if (g_strcmp0 (name, old_name) == 0)
    {
      gtk_popover_popdown (GTK_POPOVER (popover));
      return;
    }
  if (*name == '\0' || cpel_views_lookup (sv->views, name, NULL))
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry),
                                   *name == '\0' ? _("A view needs a name")
                                                 : _("Another view has this name"));
      return;
    }
  /* The list is rebuilt on the change: this popover goes away. */
  gtk_popover_popdown (GTK_POPOVER (popover));
  {
    g_autofree char *from = g_strdup (old_name);
    g_autoptr(GError) error = NULL;

    if (cpel_views_rename (sv->views, from, name, &error))
      /* Written at once, as every change. */
      gtk_widget_activate_action (GTK_WIDGET (sv->window), "win.write-views", NULL);
  }
}

static void
on_rename_changed (GtkEditable *entry)
{
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry), NULL);
}

static GtkWidget *
rename_button (SavedViews *sv,
               const char *name)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Rename"));

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "document-edit-symbolic");
  gtk_widget_set_tooltip_text (button, _("Rename"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");

  gtk_editable_set_text (GTK_EDITABLE (entry), name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("View name"), -1);
  gtk_widget_add_css_class (apply, "suggested-action");
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), apply);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_popover_set_default_widget (GTK_POPOVER (popover), apply);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);

  g_object_set_data (G_OBJECT (popover), "saved-views", sv);
  g_object_set_data_full (G_OBJECT (popover), "view-name", g_strdup (name), g_free);
  g_object_set_data (G_OBJECT (popover), "entry", entry);
  g_signal_connect (entry, "activate", G_CALLBACK (on_rename_activate), popover);
  g_signal_connect (entry, "changed", G_CALLBACK (on_rename_changed), NULL);
  g_signal_connect (apply, "clicked", G_CALLBACK (on_rename_activate), popover);
  return button;
}

static void
refill (SavedViews *sv)
{
  guint n = cpel_views_get_n_views (sv->views);
  int current = cpel_views_get_current (sv->views);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (sv->list))) != NULL)
    gtk_list_box_remove (sv->list, child);

  for (guint i = 0; i < n; i++)
    {
      const CpelSavedView *view = cpel_views_get_view (sv->views, i);
      g_autofree char *subtitle = describe (sv, view);
      g_autofree char *escaped = g_markup_escape_text (view->name, -1);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *mark = gtk_image_new_from_icon_name ("object-select-symbolic");
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_add_css_class (row, "numeric");
      gtk_widget_set_tooltip_text (row, _("Show this view"));

      /* The current view (x and z step from it). */
      gtk_widget_set_opacity (mark, (int) i == current ? 1.0 : 0.0);
      gtk_accessible_update_property (GTK_ACCESSIBLE (mark), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Current view"), -1);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), mark);

      adw_action_row_add_suffix (ADW_ACTION_ROW (row), rename_button (sv, view->name));
      gtk_widget_set_tooltip_text (remove, _("Delete"));
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "win.delete-view");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "s", view->name);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);

      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.show-view");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", view->name);
      gtk_list_box_append (sv->list, row);
    }
  gtk_stack_set_visible_child_name (sv->stack, n > 0 ? "list" : "empty");
}

GtkWindow *
cpel_saved_views_new (CpelWindow *window,
                      CpelViews  *views)
{
  GtkWidget *win, *box, *header, *add, *menu_button, *stack, *empty, *empty_button;
  GtkWidget *scrolled, *clamp, *list;
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  SavedViews *sv;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), NULL);
  g_return_val_if_fail (CPEL_IS_VIEWS (views), NULL);

  sv = g_new0 (SavedViews, 1);
  sv->window = window;
  sv->views = g_object_ref (views);

  win = adw_window_new ();
  gtk_window_set_title (GTK_WINDOW (win), _("Saved Views"));
  gtk_window_set_transient_for (GTK_WINDOW (win), GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (win), 460, 520);
  gtk_widget_insert_action_group (win, "win", cpel_window_get_actions (window));
  g_object_set_data_full (G_OBJECT (win), "saved-views", sv, (GDestroyNotify) saved_views_free);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  add = gtk_button_new_from_icon_name ("list-add-symbolic");
  gtk_widget_set_tooltip_text (add, _("Save Current View"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (add), "win.save-view");
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), add);

  g_menu_append (section, _("_Import…"), "win.import-views");
  g_menu_append (section, _("_Export…"), "win.export-views");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);
  section = g_menu_new ();
  g_menu_append (section, _("_Write to Disk"), "win.save-views");
  g_menu_append (section, _("_Reread from Disk"), "win.load-views");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (menu_button), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (menu_button, _("More"));
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), menu_button);
  gtk_box_append (GTK_BOX (box), header);

  stack = gtk_stack_new ();
  sv->stack = GTK_STACK (stack);
  gtk_widget_set_vexpand (stack, TRUE);

  empty = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "view-list-bullet-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Saved Views"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("Save what the timeline shows — time range, tracks, event "
                                     "types and selection — to come back to it later"));
  empty_button = gtk_button_new_with_mnemonic (_("_Save Current View"));
  gtk_widget_set_halign (empty_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (empty_button, "pill");
  gtk_widget_add_css_class (empty_button, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (empty_button), "win.save-view");
  adw_status_page_set_child (ADW_STATUS_PAGE (empty), empty_button);
  gtk_stack_add_named (GTK_STACK (stack), empty, "empty");

  list = gtk_list_box_new ();
  sv->list = GTK_LIST_BOX (list);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_set_valign (list, GTK_ALIGN_START);
  clamp = adw_clamp_new ();
  adw_clamp_set_child (ADW_CLAMP (clamp), list);
  gtk_widget_set_margin_top (clamp, 18);
  gtk_widget_set_margin_bottom (clamp, 18);
  gtk_widget_set_margin_start (clamp, 12);
  gtk_widget_set_margin_end (clamp, 12);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  gtk_stack_add_named (GTK_STACK (stack), scrolled, "list");
  gtk_box_append (GTK_BOX (box), stack);
  adw_window_set_content (ADW_WINDOW (win), box);

  g_signal_connect_swapped (views, "changed", G_CALLBACK (refill), sv);
  g_signal_connect_swapped (views, "notify::current", G_CALLBACK (refill), sv);
  refill (sv);

  /* Escape closes, as in the other tool windows. */
  {
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                            gtk_named_action_new ("window.close")));
    gtk_widget_add_controller (win, shortcuts);
  }
  return GTK_WINDOW (win);
}
