/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-event-type-row.c — one row of the Event Types window */
#include "cpel-event-type-row.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cpel-render.h"

struct _CpelEventTypeRow
{
  AdwActionRow    parent_instance;

  GtkDrawingArea *swatch;
  GtkLabel       *label_summary;
  GtkEntry       *format_entry;
  GtkWidget      *fields_title;
  GtkFlowBox     *fields_box;
  GtkWidget      *reset_button;

  CpelFile       *file;
  guint           type;
  gboolean        shown;
  char          **fields;     /* the type's fields */
  GPtrArray      *checks;     /* GtkCheckButton per field, named by it */
  gboolean        syncing;    /* the entry or checks set from the labels */
};

G_DEFINE_FINAL_TYPE (CpelEventTypeRow, cpel_event_type_row, ADW_TYPE_ACTION_ROW)

enum
{
  PROP_0,
  PROP_FILE,
  PROP_TYPE_INDEX,
  PROP_SHOWN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  FORMAT_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  CpelEventTypeRow *self = data;
  CpelPalette palette;
  CpelRGBA color;

  if (self->file == NULL)
    return;
  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  cpel_palette_get_type_color (&palette, self->file,
                               cpel_file_get_type_code (self->file, self->type), &color);
  cairo_set_source_rgba (cr, color.r, color.g, color.b, color.a);
  cairo_arc (cr, width / 2.0, height / 2.0, MIN (width, height) / 2.0, 0, 2 * G_PI);
  cairo_fill (cr);
}

CpelEventTypeRow *
cpel_event_type_row_new (CpelFile *file,
                         guint     type)
{
  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (type < cpel_file_get_n_types (file), NULL);

  return g_object_new (CPEL_TYPE_EVENT_TYPE_ROW, "file", file, "type-index", type, NULL);
}

guint
cpel_event_type_row_get_type_index (CpelEventTypeRow *self)
{
  g_return_val_if_fail (CPEL_IS_EVENT_TYPE_ROW (self), 0);
  return self->type;
}

gboolean
cpel_event_type_row_get_shown (CpelEventTypeRow *self)
{
  g_return_val_if_fail (CPEL_IS_EVENT_TYPE_ROW (self), FALSE);
  return self->shown;
}

void
cpel_event_type_row_set_shown (CpelEventTypeRow *self,
                               gboolean          shown)
{
  g_return_if_fail (CPEL_IS_EVENT_TYPE_ROW (self));

  shown = !!shown;
  if (self->shown == shown)
    return;
  self->shown = shown;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWN]);
}

/* "{name}" in `text` */
static const char *
find_field (const char *text,
            const char *name)
{
  g_autofree char *braced = g_strdup_printf ("{%s}", name);

  return strstr (text, braced);
}

/* The checks say which fields the format names. */
static void
sync_checks (CpelEventTypeRow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->format_entry));
  gboolean was = self->syncing;

  self->syncing = TRUE;
  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (self->checks, i);

      const char *name = gtk_widget_get_name (GTK_WIDGET (check));

      gtk_check_button_set_active (check, find_field (text, name) != NULL);
    }
  self->syncing = was;
}

static void
on_format_changed (CpelEventTypeRow *self)
{
  sync_checks (self);
  if (!self->syncing)
    g_signal_emit (self, signals[FORMAT_CHANGED], 0,
                   gtk_editable_get_text (GTK_EDITABLE (self->format_entry)));
}

static void
on_reset_clicked (CpelEventTypeRow *self)
{
  g_signal_emit (self, signals[FORMAT_CHANGED], 0, NULL);
}

/* A field checked is added at the end of the format, unchecked removed
 * (with a space before it). */
static void
on_field_toggled (GtkCheckButton   *check,
                  CpelEventTypeRow *self)
{
  const char *name = gtk_widget_get_name (GTK_WIDGET (check));
  g_autoptr(GString) text = NULL;
  const char *at;

  if (self->syncing)
    return;
  text = g_string_new (gtk_editable_get_text (GTK_EDITABLE (self->format_entry)));
  at = find_field (text->str, name);
  if (gtk_check_button_get_active (check) && at == NULL)
    g_string_append_printf (text, text->len > 0 ? " {%s}" : "{%s}", name);
  else if (!gtk_check_button_get_active (check) && at != NULL)
    {
      gsize pos = (gsize) (at - text->str), len = strlen (name) + 2;

      if (pos > 0 && text->str[pos - 1] == ' ')
        pos--, len++;
      else if (pos + len < text->len && text->str[pos + len] == ' ')
        len++;
      g_string_erase (text, (gssize) pos, (gssize) len);
    }
  else
    return;
  gtk_editable_set_text (GTK_EDITABLE (self->format_entry), text->str);
}

/* The fields' check buttons, made when the popover first shows (a window
 * may list thousands of types). */
static void
on_popover_show (CpelEventTypeRow *self)
{
  gboolean was = self->syncing;

  if (self->checks->len > 0 || self->fields == NULL)
    return;
  self->syncing = TRUE;
  for (guint i = 0; self->fields[i] != NULL; i++)
    {
      GtkWidget *check = gtk_check_button_new_with_label (self->fields[i]);

      gtk_widget_set_name (check, self->fields[i]);
      g_signal_connect (check, "toggled", G_CALLBACK (on_field_toggled), self);
      gtk_flow_box_append (self->fields_box, check);
      g_ptr_array_add (self->checks, check);
    }
  sync_checks (self);
  self->syncing = was;
}

void
cpel_event_type_row_set_labels (CpelEventTypeRow *self,
                                CpelLabels       *labels)
{
  const char *format;
  const char *const *fields;
  gboolean was;

  g_return_if_fail (CPEL_IS_EVENT_TYPE_ROW (self));
  g_return_if_fail (labels != NULL);

  if (cpel_labels_get_file (labels) != self->file)
    return;
  format = cpel_labels_get_format (labels, self->type);
  gtk_label_set_text (self->label_summary, *format ? format : _("Whole text"));
  gtk_widget_set_sensitive (self->reset_button, cpel_labels_is_user_format (labels, self->type));

  was = self->syncing;
  self->syncing = TRUE;
  fields = cpel_labels_get_fields (labels, self->type);
  g_strfreev (self->fields);
  self->fields = g_strdupv ((char **) fields);
  gtk_widget_set_visible (self->fields_title, fields[0] != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->fields_box), fields[0] != NULL);
  /* typed here: the entry keeps its text (and cursor) */
  if (!g_str_equal (gtk_editable_get_text (GTK_EDITABLE (self->format_entry)), format))
    gtk_editable_set_text (GTK_EDITABLE (self->format_entry), format);
  sync_checks (self);
  self->syncing = was;
}

const char *
cpel_event_type_row_get_format (CpelEventTypeRow *self)
{
  g_return_val_if_fail (CPEL_IS_EVENT_TYPE_ROW (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->format_entry));
}

void
cpel_event_type_row_choose_format (CpelEventTypeRow *self,
                                   const char       *format)
{
  g_return_if_fail (CPEL_IS_EVENT_TYPE_ROW (self));

  if (format == NULL)
    on_reset_clicked (self);
  else
    gtk_editable_set_text (GTK_EDITABLE (self->format_entry), format);
}

static void
cpel_event_type_row_constructed (GObject *object)
{
  CpelEventTypeRow *self = CPEL_EVENT_TYPE_ROW (object);
  g_autofree char *count = NULL;
  g_autofree char *subtitle = NULL;
  const char *name;
  guint64 n_events;
  guint32 code;

  G_OBJECT_CLASS (cpel_event_type_row_parent_class)->constructed (object);

  g_assert (CPEL_IS_FILE (self->file));
  g_assert (self->type < cpel_file_get_n_types (self->file));

  name = cpel_file_get_type_name (self->file, self->type);
  code = cpel_file_get_type_code (self->file, self->type);
  n_events = cpel_file_get_type_n_events (self->file, self->type);
  count = cpel_format_count (n_events);
  /* TRANSLATORS: event type row: code in decimal and hex, number of events */
  subtitle = g_strdup_printf (ngettext ("Code %u (0x%x) · %s event",
                                        "Code %u (0x%x) · %s events", n_events),
                              code, code, count);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self),
                                 name != NULL && *name ? name : _("(unnamed)"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), subtitle);
}

static void
cpel_event_type_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  CpelEventTypeRow *self = CPEL_EVENT_TYPE_ROW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_TYPE_INDEX:
      g_value_set_uint (value, self->type);
      break;
    case PROP_SHOWN:
      g_value_set_boolean (value, self->shown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_event_type_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  CpelEventTypeRow *self = CPEL_EVENT_TYPE_ROW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    case PROP_TYPE_INDEX:
      self->type = g_value_get_uint (value);
      break;
    case PROP_SHOWN:
      cpel_event_type_row_set_shown (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_event_type_row_dispose (GObject *object)
{
  CpelEventTypeRow *self = CPEL_EVENT_TYPE_ROW (object);

  g_clear_object (&self->file);
  g_ptr_array_set_size (self->checks, 0);
  G_OBJECT_CLASS (cpel_event_type_row_parent_class)->dispose (object);
}

static void
cpel_event_type_row_finalize (GObject *object)
{
  CpelEventTypeRow *self = CPEL_EVENT_TYPE_ROW (object);

  g_ptr_array_unref (self->checks);
  g_strfreev (self->fields);
  G_OBJECT_CLASS (cpel_event_type_row_parent_class)->finalize (object);
}

static void
cpel_event_type_row_class_init (CpelEventTypeRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_event_type_row_constructed;
  object_class->get_property = cpel_event_type_row_get_property;
  object_class->set_property = cpel_event_type_row_set_property;
  object_class->dispose = cpel_event_type_row_dispose;
  object_class->finalize = cpel_event_type_row_finalize;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, CPEL_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The type's index in the file (not its code). */
  properties[PROP_TYPE_INDEX] =
    g_param_spec_uint ("type-index", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Checked: the type is drawn on the timeline. */
  properties[PROP_SHOWN] =
    g_param_spec_boolean ("shown", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-event-type-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelEventTypeRow, swatch);
  gtk_widget_class_bind_template_child (widget_class, CpelEventTypeRow, label_summary);
  gtk_widget_class_bind_template_child (widget_class, CpelEventTypeRow, format_entry);
  gtk_widget_class_bind_template_child (widget_class, CpelEventTypeRow, fields_title);
  gtk_widget_class_bind_template_child (widget_class, CpelEventTypeRow, fields_box);
  gtk_widget_class_bind_template_child (widget_class, CpelEventTypeRow, reset_button);
  gtk_widget_class_bind_template_callback (widget_class, on_format_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_reset_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_popover_show);

  /* The user chose a format for the type: its text ("" = the whole
   * text), or NULL for the default. */
  signals[FORMAT_CHANGED] =
    g_signal_new ("format-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
cpel_event_type_row_init (CpelEventTypeRow *self)
{
  self->shown = TRUE;
  self->checks = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->format_entry),
                               _("Fields in braces, such as {msg}; {event} is the event’s "
                                 "name, {text} its whole text"));
  gtk_drawing_area_set_draw_func (self->swatch, draw_swatch, self, NULL);
}
