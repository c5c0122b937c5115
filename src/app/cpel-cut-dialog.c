/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cut-dialog.c — the progress of Save Range As */
#include "cpel-cut-dialog.h"

#include <glib/gi18n.h>

struct _CpelCutDialog
{
  AdwMessageDialog  parent_instance;

  GFile            *target;
  double            fraction;
};

G_DEFINE_FINAL_TYPE (CpelCutDialog, cpel_cut_dialog, ADW_TYPE_MESSAGE_DIALOG)

enum
{
  PROP_0,
  PROP_TARGET,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

CpelCutDialog *
cpel_cut_dialog_new (CpelWindow *parent,
                     GFile      *target)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_FILE (target), NULL);

  return g_object_new (CPEL_TYPE_CUT_DIALOG, "transient-for", parent, "target", target, NULL);
}

GFile *
cpel_cut_dialog_get_target (CpelCutDialog *self)
{
  g_return_val_if_fail (CPEL_IS_CUT_DIALOG (self), NULL);
  return self->target;
}

double
cpel_cut_dialog_get_fraction (CpelCutDialog *self)
{
  g_return_val_if_fail (CPEL_IS_CUT_DIALOG (self), 0);
  return self->fraction;
}

void
cpel_cut_dialog_set_fraction (CpelCutDialog *self,
                              double         fraction)
{
  g_return_if_fail (CPEL_IS_CUT_DIALOG (self));

  fraction = CLAMP (fraction, 0.0, 1.0);
  if (self->fraction == fraction)
    return;
  self->fraction = fraction;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
}

static void
cpel_cut_dialog_constructed (GObject *object)
{
  CpelCutDialog *self = CPEL_CUT_DIALOG (object);
  g_autofree char *basename = NULL;
  g_autofree char *name = NULL;
  g_autofree char *body = NULL;

  G_OBJECT_CLASS (cpel_cut_dialog_parent_class)->constructed (object);

  g_assert (G_IS_FILE (self->target));
  basename = g_file_get_basename (self->target);
  name = g_filename_display_name (basename != NULL ? basename : "");
  /* TRANSLATORS: %s is a file name */
  body = g_strdup_printf (_("Writing “%s”"), name);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self), body);
}

static void
cpel_cut_dialog_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  CpelCutDialog *self = CPEL_CUT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_TARGET:
      g_value_set_object (value, self->target);
      break;
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_cut_dialog_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  CpelCutDialog *self = CPEL_CUT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_TARGET:
      self->target = g_value_dup_object (value);
      break;
    case PROP_FRACTION:
      cpel_cut_dialog_set_fraction (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_cut_dialog_dispose (GObject *object)
{
  CpelCutDialog *self = CPEL_CUT_DIALOG (object);

  g_clear_object (&self->target);
  G_OBJECT_CLASS (cpel_cut_dialog_parent_class)->dispose (object);
}

static void
cpel_cut_dialog_class_init (CpelCutDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_cut_dialog_constructed;
  object_class->get_property = cpel_cut_dialog_get_property;
  object_class->set_property = cpel_cut_dialog_set_property;
  object_class->dispose = cpel_cut_dialog_dispose;

  /* The file being written. */
  properties[PROP_TARGET] =
    g_param_spec_object ("target", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* How much of it is written, 0 to 1 (the progress bar). */
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-cut-dialog.ui");
  /* Escape cancels (closing gives the close response, "cancel"). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cpel_cut_dialog_init (CpelCutDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
