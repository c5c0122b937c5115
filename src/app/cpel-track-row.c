/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-track-row.c — one row of the Tracks window */
#include "cpel-track-row.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "cpel-count.h"

struct _CpelTrackRow
{
  GtkBox          parent_instance;

  GtkCheckButton *shown_check;
  GtkLabel       *title_label;
  GtkLabel       *subtitle_label;
  GtkToggleButton *pin_button;
  GtkWidget      *up_button;
  GtkWidget      *down_button;

  CpelTrackOrder *order;
  guint           slot;       /* G_MAXUINT: none */
  gboolean        binding;    /* setting the widgets from the order */
};

G_DEFINE_FINAL_TYPE (CpelTrackRow, cpel_track_row, GTK_TYPE_BOX)

static void
on_shown_toggled (CpelTrackRow *self)
{
  if (!self->binding && self->order != NULL && self->slot != G_MAXUINT)
    cpel_track_order_set_hidden (self->order, self->slot,
                                 !gtk_check_button_get_active (self->shown_check));
}

static void
on_pin_toggled (CpelTrackRow *self)
{
  if (!self->binding && self->order != NULL && self->slot != G_MAXUINT)
    cpel_track_order_set_pinned (self->order, self->slot,
                                 gtk_toggle_button_get_active (self->pin_button));
}

static void
on_up_clicked (CpelTrackRow *self)
{
  if (self->order != NULL && self->slot != G_MAXUINT)
    cpel_track_order_move (self->order, self->slot, -1);
}

static void
on_down_clicked (CpelTrackRow *self)
{
  if (self->order != NULL && self->slot != G_MAXUINT)
    cpel_track_order_move (self->order, self->slot, 1);
}

void
cpel_track_row_bind (CpelTrackRow   *self,
                     CpelTrackOrder *order,
                     CpelFile       *file,
                     guint           slot)
{
  g_autofree char *subtitle = NULL;
  g_autofree char *count = NULL;
  const char *label;
  guint64 n_events;

  g_return_if_fail (CPEL_IS_TRACK_ROW (self));
  g_return_if_fail (order == NULL || CPEL_IS_TRACK_ORDER (order));
  g_return_if_fail (file == NULL || CPEL_IS_FILE (file));

  g_set_object (&self->order, order);
  self->slot = slot;
  if (order == NULL || file == NULL || slot == G_MAXUINT)
    {
      self->slot = G_MAXUINT;
      return;
    }
  g_return_if_fail (slot < cpel_track_order_get_n (order));

  label = cpel_file_get_track_label (file, slot);
  n_events = cpel_file_get_track_n_events (file, slot);
  /* TRANSLATORS: track id and its number of events */
  count = cpel_format_count (n_events);
  subtitle = g_strdup_printf (ngettext ("Id %u · %s event", "Id %u · %s events", n_events),
                              cpel_file_get_track_id (file, slot), count);

  self->binding = TRUE;
  gtk_label_set_text (self->title_label, label != NULL && *label ? label : _("(unnamed)"));
  gtk_label_set_text (self->subtitle_label, subtitle);
  gtk_check_button_set_active (self->shown_check, !cpel_track_order_get_hidden (order, slot));
  gtk_toggle_button_set_active (self->pin_button, cpel_track_order_get_pinned (order, slot));
  gtk_widget_set_sensitive (self->up_button, cpel_track_order_can_move (order, slot, -1));
  gtk_widget_set_sensitive (self->down_button, cpel_track_order_can_move (order, slot, 1));
  self->binding = FALSE;
}

guint
cpel_track_row_get_slot (CpelTrackRow *self)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ROW (self), G_MAXUINT);
  return self->slot;
}

CpelTrackRow *
cpel_track_row_new (void)
{
  return g_object_new (CPEL_TYPE_TRACK_ROW, NULL);
}

static void
cpel_track_row_dispose (GObject *object)
{
  CpelTrackRow *self = CPEL_TRACK_ROW (object);

  g_clear_object (&self->order);
  G_OBJECT_CLASS (cpel_track_row_parent_class)->dispose (object);
}

static void
cpel_track_row_class_init (CpelTrackRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cpel_track_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-track-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelTrackRow, shown_check);
  gtk_widget_class_bind_template_child (widget_class, CpelTrackRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, CpelTrackRow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, CpelTrackRow, pin_button);
  gtk_widget_class_bind_template_child (widget_class, CpelTrackRow, up_button);
  gtk_widget_class_bind_template_child (widget_class, CpelTrackRow, down_button);
  gtk_widget_class_bind_template_callback (widget_class, on_shown_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_pin_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_up_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_down_clicked);
}

static void
cpel_track_row_init (CpelTrackRow *self)
{
  self->slot = G_MAXUINT;
  gtk_widget_init_template (GTK_WIDGET (self));
}
