/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-view-row.c — one row of the Saved Views window */
#include "cpel-saved-view-row.h"

#include <glib/gi18n.h>

struct _CpelSavedViewRow
{
  AdwActionRow  parent_instance;

  /* template */
  GtkImage     *current_image;
  GtkPopover   *rename_popover;
  GtkEditable  *name_entry;
  GtkWidget    *delete_button;

  CpelViews    *views;
  char         *view_name;
  gboolean      current;
};

G_DEFINE_FINAL_TYPE (CpelSavedViewRow, cpel_saved_view_row, ADW_TYPE_ACTION_ROW)

enum
{
  PROP_0,
  PROP_VIEWS,
  PROP_VIEW_NAME,
  PROP_CURRENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Rename to the entry's name: a name in use or an empty one marks the
 * entry and says why. */
static void
on_rename_activate (CpelSavedViewRow *self)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (self->name_entry)));
  g_autofree char *from = NULL;
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (name, self->view_name) == 0)
    {
      gtk_popover_popdown (self->rename_popover);
      return;
    }
  if (*name == '\0' || cpel_views_lookup (self->views, name, NULL))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->name_entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->name_entry),
                                   *name == '\0' ? _("A view needs a name")
                                                 : _("Another view has this name"));
      return;
    }
  /* The list is rebuilt on the change: this row goes away. */
  gtk_popover_popdown (self->rename_popover);
  from = g_strdup (self->view_name);
  if (cpel_views_rename (self->views, from, name, &error))
    /* Written at once, as every change. */
    gtk_widget_activate_action (GTK_WIDGET (self), "views.write-views", NULL);
}

static void
on_name_changed (CpelSavedViewRow *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->name_entry), NULL);
}

CpelSavedViewRow *
cpel_saved_view_row_new (CpelViews  *views,
                         const char *name)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (views), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_object_new (CPEL_TYPE_SAVED_VIEW_ROW, "views", views, "view-name", name, NULL);
}

const char *
cpel_saved_view_row_get_view_name (CpelSavedViewRow *self)
{
  g_return_val_if_fail (CPEL_IS_SAVED_VIEW_ROW (self), NULL);
  return self->view_name;
}

gboolean
cpel_saved_view_row_get_current (CpelSavedViewRow *self)
{
  g_return_val_if_fail (CPEL_IS_SAVED_VIEW_ROW (self), FALSE);
  return self->current;
}

void
cpel_saved_view_row_set_current (CpelSavedViewRow *self,
                                 gboolean          current)
{
  g_return_if_fail (CPEL_IS_SAVED_VIEW_ROW (self));

  current = !!current;
  if (self->current == current)
    return;
  self->current = current;
  /* Always there, so that the names line up. */
  gtk_widget_set_opacity (GTK_WIDGET (self->current_image), current ? 1.0 : 0.0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT]);
}

static void
cpel_saved_view_row_constructed (GObject *object)
{
  CpelSavedViewRow *self = CPEL_SAVED_VIEW_ROW (object);

  G_OBJECT_CLASS (cpel_saved_view_row_parent_class)->constructed (object);

  g_assert (CPEL_IS_VIEWS (self->views));
  g_assert (self->view_name != NULL);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), self->view_name);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self), "s", self->view_name);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->delete_button), "s", self->view_name);
  gtk_editable_set_text (self->name_entry, self->view_name);
}

static void
cpel_saved_view_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  CpelSavedViewRow *self = CPEL_SAVED_VIEW_ROW (object);

  switch (prop_id)
    {
    case PROP_VIEWS:
      g_value_set_object (value, self->views);
      break;
    case PROP_VIEW_NAME:
      g_value_set_string (value, self->view_name);
      break;
    case PROP_CURRENT:
      g_value_set_boolean (value, self->current);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_saved_view_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  CpelSavedViewRow *self = CPEL_SAVED_VIEW_ROW (object);

  switch (prop_id)
    {
    case PROP_VIEWS:
      self->views = g_value_dup_object (value);
      break;
    case PROP_VIEW_NAME:
      self->view_name = g_value_dup_string (value);
      break;
    case PROP_CURRENT:
      cpel_saved_view_row_set_current (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_saved_view_row_dispose (GObject *object)
{
  CpelSavedViewRow *self = CPEL_SAVED_VIEW_ROW (object);

  g_clear_object (&self->views);
  G_OBJECT_CLASS (cpel_saved_view_row_parent_class)->dispose (object);
}

static void
cpel_saved_view_row_finalize (GObject *object)
{
  CpelSavedViewRow *self = CPEL_SAVED_VIEW_ROW (object);

  g_free (self->view_name);
  G_OBJECT_CLASS (cpel_saved_view_row_parent_class)->finalize (object);
}

static void
cpel_saved_view_row_class_init (CpelSavedViewRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_saved_view_row_constructed;
  object_class->get_property = cpel_saved_view_row_get_property;
  object_class->set_property = cpel_saved_view_row_set_property;
  object_class->dispose = cpel_saved_view_row_dispose;
  object_class->finalize = cpel_saved_view_row_finalize;

  /* The capture's views (renaming checks the new name against them). */
  properties[PROP_VIEWS] =
    g_param_spec_object ("views", NULL, NULL, CPEL_TYPE_VIEWS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_VIEW_NAME] =
    g_param_spec_string ("view-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The view last shown (x and z step from it): marked. */
  properties[PROP_CURRENT] =
    g_param_spec_boolean ("current", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-saved-view-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelSavedViewRow, current_image);
  gtk_widget_class_bind_template_child (widget_class, CpelSavedViewRow, rename_popover);
  gtk_widget_class_bind_template_child (widget_class, CpelSavedViewRow, name_entry);
  gtk_widget_class_bind_template_child (widget_class, CpelSavedViewRow, delete_button);
  gtk_widget_class_bind_template_callback (widget_class, on_rename_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_name_changed);
}

static void
cpel_saved_view_row_init (CpelSavedViewRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
