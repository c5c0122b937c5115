/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-info-row.c — a title and its value */
#include "cpel-file-info-row.h"

struct _CpelFileInfoRow
{
  AdwActionRow  parent_instance;

  char         *value;
};

G_DEFINE_FINAL_TYPE (CpelFileInfoRow, cpel_file_info_row, ADW_TYPE_ACTION_ROW)

enum
{
  PROP_0,
  PROP_VALUE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
cpel_file_info_row_get_value (CpelFileInfoRow *self)
{
  g_return_val_if_fail (CPEL_IS_FILE_INFO_ROW (self), NULL);
  return self->value;
}

void
cpel_file_info_row_set_value (CpelFileInfoRow *self,
                              const char      *value)
{
  g_return_if_fail (CPEL_IS_FILE_INFO_ROW (self));

  if (g_strcmp0 (self->value, value) == 0)
    return;
  g_free (self->value);
  self->value = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE]);
}

static void
cpel_file_info_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  CpelFileInfoRow *self = CPEL_FILE_INFO_ROW (object);

  switch (prop_id)
    {
    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_file_info_row_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  CpelFileInfoRow *self = CPEL_FILE_INFO_ROW (object);

  switch (prop_id)
    {
    case PROP_VALUE:
      cpel_file_info_row_set_value (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_file_info_row_finalize (GObject *object)
{
  CpelFileInfoRow *self = CPEL_FILE_INFO_ROW (object);

  g_free (self->value);
  G_OBJECT_CLASS (cpel_file_info_row_parent_class)->finalize (object);
}

static void
cpel_file_info_row_class_init (CpelFileInfoRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = cpel_file_info_row_get_property;
  object_class->set_property = cpel_file_info_row_set_property;
  object_class->finalize = cpel_file_info_row_finalize;

  /* The value shown after the title (plain text). */
  properties[PROP_VALUE] =
    g_param_spec_string ("value", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-file-info-row.ui");
}

static void
cpel_file_info_row_init (CpelFileInfoRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
