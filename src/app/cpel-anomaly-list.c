/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-anomaly-list.c — anomalies as a lazily built GListModel */
#include "cpel-anomaly-list.h"

#include <math.h>

#include "cpel-table.h"

struct _CpelAnomalyList
{
  GObject            parent_instance;

  CpelFile          *file;
  CpelAnomalyResult *result;
  guint              n_items;
};

static void cpel_anomaly_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CpelAnomalyList, cpel_anomaly_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, cpel_anomaly_list_model_init))

char *
cpel_anomaly_format_value (CpelAnomalyMetric metric,
                           double            value)
{
  if (metric == CPEL_ANOMALY_INTERVAL || metric == CPEL_ANOMALY_DURATION)
    return cpel_time_format ((gint64) llround (value));
  if (value == floor (value) && fabs (value) < 1e15)
    return g_strdup_printf ("%.0f", value);
  return g_strdup_printf ("%.2f", value);
}

static GType
get_item_type (GListModel *model)
{
  return CPEL_TYPE_TABLE_ROW;
}

static guint
get_n_items (GListModel *model)
{
  return CPEL_ANOMALY_LIST (model)->n_items;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  CpelAnomalyList *self = CPEL_ANOMALY_LIST (model);
  CpelAnomalyMetric metric;
  const CpelAnomaly *anomaly;
  CpelTableRow *row;
  const char *label;

  if (position >= self->n_items)
    return NULL;
  anomaly = cpel_anomaly_result_get (self->result, position);
  metric = cpel_anomaly_result_get_metric (self->result);
  label = cpel_file_get_track_label (self->file, anomaly->ref.slot);

  row = cpel_table_row_new (CPEL_ANOMALY_N_CELLS, position);
  cpel_table_row_take (row, CPEL_ANOMALY_CELL_TIME, cpel_time_format (anomaly->time_ns),
                       (double) anomaly->time_ns);
  cpel_table_row_take (row, CPEL_ANOMALY_CELL_TRACK, g_strdup (label != NULL ? label : ""),
                       anomaly->ref.slot);
  cpel_table_row_take (row, CPEL_ANOMALY_CELL_VALUE, cpel_anomaly_format_value (metric, anomaly->value),
                       anomaly->value);
  /* U+2212 MINUS SIGN reads better than '-' in a table of numbers. */
  cpel_table_row_take (row, CPEL_ANOMALY_CELL_Z,
                       anomaly->z < 0 ? g_strdup_printf ("−%.2f", -anomaly->z)
                                      : g_strdup_printf ("+%.2f", anomaly->z),
                       anomaly->z);
  return row;
}

static void
cpel_anomaly_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
cpel_anomaly_list_finalize (GObject *object)
{
  CpelAnomalyList *self = CPEL_ANOMALY_LIST (object);

  g_clear_pointer (&self->result, cpel_anomaly_result_free);
  g_clear_object (&self->file);
  G_OBJECT_CLASS (cpel_anomaly_list_parent_class)->finalize (object);
}

static void
cpel_anomaly_list_class_init (CpelAnomalyListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cpel_anomaly_list_finalize;
}

static void
cpel_anomaly_list_init (CpelAnomalyList *self)
{
}

CpelAnomalyList *
cpel_anomaly_list_new (CpelFile          *file,
                       CpelAnomalyResult *result)
{
  CpelAnomalyList *self;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (result != NULL, NULL);

  self = g_object_new (CPEL_TYPE_ANOMALY_LIST, NULL);
  self->file = g_object_ref (file);
  self->result = result;
  self->n_items = (guint) MIN (cpel_anomaly_result_get_n (result), (guint64) G_MAXUINT);
  return self;
}

CpelAnomalyResult *
cpel_anomaly_list_get_result (CpelAnomalyList *self)
{
  g_return_val_if_fail (CPEL_IS_ANOMALY_LIST (self), NULL);
  return self->result;
}
