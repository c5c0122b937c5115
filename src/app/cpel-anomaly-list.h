/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-anomaly-list.h — the anomalies of a CpelAnomalyResult as a
 * GListModel of CpelTableRow (time, track, value, z), made on demand so
 * that millions of anomalies cost nothing until shown.  A row's id is the
 * anomaly's position in the result.
 */
#pragma once

#include <gio/gio.h>

#include "cpel-core.h"

G_BEGIN_DECLS

enum
{
  CPEL_ANOMALY_CELL_TIME,
  CPEL_ANOMALY_CELL_TRACK,
  CPEL_ANOMALY_CELL_VALUE,
  CPEL_ANOMALY_CELL_Z,
  CPEL_ANOMALY_N_CELLS
};

#define CPEL_TYPE_ANOMALY_LIST (cpel_anomaly_list_get_type ())
G_DECLARE_FINAL_TYPE (CpelAnomalyList, cpel_anomaly_list, CPEL, ANOMALY_LIST, GObject)

/* Keeps `file` referenced and `result` (taken: freed with the list).  Lists
 * at most G_MAXUINT anomalies. */
CpelAnomalyList   *cpel_anomaly_list_new        (CpelFile          *file,
                                                 CpelAnomalyResult *result);
CpelAnomalyResult *cpel_anomaly_list_get_result (CpelAnomalyList   *self);

/* A value of the metric as shown: the datum in decimal, an interval as a
 * duration. */
char              *cpel_anomaly_format_value    (CpelAnomalyMetric  metric,
                                                 double             value);

G_END_DECLS
