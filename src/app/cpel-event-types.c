/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-event-types.c — the Event Types window
 *
 * One row per event type (name, code, event count) with a check box; the
 * window's search filters the rows.  Changes apply at once.
 */
#include "cpel-event-types.h"

#include <adwaita.h>
#include <glib/gi18n.h>

/* Types listed at most (a file may define very many). */
#define MAX_ROWS 5000

typedef struct
{
  CpelTimeline *timeline;
  GPtrArray    *checks;      /* GtkCheckButton per listed type, index = type */
  guint8       *hidden;      /* n_types */
  guint         n_types;
  gboolean      bulk;
} Selector;

static void
selector_free (Selector *selector)
{
  g_clear_object (&selector->timeline);
  g_ptr_array_unref (selector->checks);
  g_free (selector->hidden);
  g_free (selector);
}

/* A small swatch of the type's tick colour. */
static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  CpelFile *file = data;
  guint32 code = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (area), "code"));
  CpelPalette palette;
  CpelRGBA color;

  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  cpel_palette_get_type_color (&palette, file, code, &color);
  cairo_set_source_rgba (cr, color.r, color.g, color.b, color.a);
  cairo_arc (cr, width / 2.0, height / 2.0, MIN (width, height) / 2.0, 0, 2 * G_PI);
  cairo_fill (cr);
}

static void
apply (Selector *selector)
{
  if (cpel_timeline_get_file (selector->timeline) != NULL)
    cpel_timeline_set_hidden_types (selector->timeline, selector->hidden);
}

static void
on_toggled (GtkCheckButton *check,
            Selector       *selector)
{
  guint type = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "type"));

  if (type >= selector->n_types)
    return;
  selector->hidden[type] = !gtk_check_button_get_active (check);
  if (!selector->bulk)
    apply (selector);
}

static void
set_all (Selector *selector,
         gboolean  visible)
{
  selector->bulk = TRUE;
  memset (selector->hidden, visible ? 0 : 1, selector->n_types);
  for (guint i = 0; i < selector->checks->len; i++)
    gtk_check_button_set_active (g_ptr_array_index (selector->checks, i), visible);
  selector->bulk = FALSE;
  apply (selector);
}

/* The timeline's hidden types changed elsewhere (a saved view, the
 * anomaly search): follow them. */
static void
on_view_changed (Selector *selector)
{
  const guint8 *hidden = cpel_timeline_get_hidden_types (selector->timeline);
  CpelFile *file = cpel_timeline_get_file (selector->timeline);

  if (file == NULL || cpel_file_get_n_types (file) != selector->n_types)
    return;
  if (hidden == NULL)
    {
      guint i;

      for (i = 0; i < selector->n_types && !selector->hidden[i]; i++)
        ;
      if (i == selector->n_types)
        return;
    }
  else if (memcmp (hidden, selector->hidden, selector->n_types) == 0)
    return;

  selector->bulk = TRUE;
  for (guint i = 0; i < selector->n_types; i++)
    {
      selector->hidden[i] = hidden != NULL ? hidden[i] != 0 : 0;
      if (i < selector->checks->len)
        gtk_check_button_set_active (g_ptr_array_index (selector->checks, i), !selector->hidden[i]);
    }
  selector->bulk = FALSE;
}

static void
on_window_destroy (GtkWidget *window,
                   Selector  *selector)
{
  g_signal_handlers_disconnect_by_data (selector->timeline, selector);
}

static void
on_show_all (GtkButton *button,
             Selector  *selector)
{
  set_all (selector, TRUE);
}

static void
on_hide_all (GtkButton *button,
             Selector  *selector)
{
  set_all (selector, FALSE);
}

GtkWindow *
cpel_event_types_new (GtkWindow    *parent,
                      CpelTimeline *timeline)
{
  AdwPreferencesWindow *window;
  AdwPreferencesPage *page;
  AdwPreferencesGroup *group;
  GtkWidget *buttons, *button;
  const guint8 *hidden;
  CpelFile *file;
  Selector *selector;
  guint n_shown;

  g_return_val_if_fail (CPEL_IS_TIMELINE (timeline), NULL);
  file = cpel_timeline_get_file (timeline);
  g_return_val_if_fail (file != NULL, NULL);

  selector = g_new0 (Selector, 1);
  selector->timeline = g_object_ref (timeline);
  selector->n_types = cpel_file_get_n_types (file);
  selector->hidden = g_malloc0 (MAX (selector->n_types, 1));
  selector->checks = g_ptr_array_new ();
  hidden = cpel_timeline_get_hidden_types (timeline);
  if (hidden != NULL)
    memcpy (selector->hidden, hidden, selector->n_types);

  window = ADW_PREFERENCES_WINDOW (adw_preferences_window_new ());
  gtk_window_set_title (GTK_WINDOW (window), _("Event Types"));
  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_default_size (GTK_WINDOW (window), 520, 640);
  gtk_window_set_hide_on_close (GTK_WINDOW (window), FALSE);
  adw_preferences_window_set_search_enabled (window, TRUE);
  g_object_set_data_full (G_OBJECT (window), "selector", selector,
                          (GDestroyNotify) selector_free);

  page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  adw_preferences_window_add (window, page);

  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _("Shown on the Timeline"));
  adw_preferences_group_set_description (group, _("Hidden types are neither drawn nor selected"));
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_valign (buttons, GTK_ALIGN_CENTER);
  button = gtk_button_new_with_mnemonic (_("_Show All"));
  g_signal_connect (button, "clicked", G_CALLBACK (on_show_all), selector);
  gtk_box_append (GTK_BOX (buttons), button);
  button = gtk_button_new_with_mnemonic (_("_Hide All"));
  g_signal_connect (button, "clicked", G_CALLBACK (on_hide_all), selector);
  gtk_box_append (GTK_BOX (buttons), button);
  adw_preferences_group_set_header_suffix (group, buttons);
  adw_preferences_page_add (page, group);

  n_shown = MIN (selector->n_types, MAX_ROWS);
  for (guint type = 0; type < n_shown; type++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      g_autofree char *count = g_strdup_printf ("%'" G_GUINT64_FORMAT,
                                                cpel_file_get_type_n_events (file, type));
      g_autofree char *subtitle = NULL;
      const char *name = cpel_file_get_type_name (file, type);
      guint32 code = cpel_file_get_type_code (file, type);

      /* TRANSLATORS: event type row: code in decimal and hex, number of events */
      subtitle = g_strdup_printf (ngettext ("Code %u (0x%x) · %s event",
                                            "Code %u (0x%x) · %s events",
                                            cpel_file_get_type_n_events (file, type)),
                                  code, code, count);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     name != NULL && *name ? name : _("(unnamed)"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);

      g_object_set_data (G_OBJECT (check), "type", GUINT_TO_POINTER (type));
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !selector->hidden[type]);
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      g_signal_connect (check, "toggled", G_CALLBACK (on_toggled), selector);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
      {
        GtkWidget *swatch = gtk_drawing_area_new ();

        gtk_widget_set_size_request (swatch, 12, 12);
        gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
        g_object_set_data (G_OBJECT (swatch), "code", GUINT_TO_POINTER (code));
        gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                        g_object_ref (file), g_object_unref);
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), swatch);
      }
      adw_preferences_group_add (group, row);
      g_ptr_array_add (selector->checks, check);
    }
  if (selector->n_types > n_shown)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *text = g_strdup_printf (_("%'u more types are not listed"),
                                               selector->n_types - n_shown);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
      adw_preferences_group_add (group, row);
    }

  g_signal_connect_swapped (timeline, "view-changed", G_CALLBACK (on_view_changed), selector);
  g_signal_connect (window, "destroy", G_CALLBACK (on_window_destroy), selector);
  return GTK_WINDOW (window);
}
