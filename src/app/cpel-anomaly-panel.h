/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-anomaly-panel.h — the Anomalies window: events of one code whose
 * datum or interval lies beyond k σ of their track's mean; a list to jump
 * from, next / previous anomaly, per-track mean and σ.
 */
#pragma once

#include <adwaita.h>

#include "cpel-timeline.h"
#include "cpel-window.h"

G_BEGIN_DECLS

/* Above this many events in the file the search runs in a worker thread. */
#define CPEL_ANOMALY_PANEL_THREAD_EVENTS 1000000

#define CPEL_TYPE_ANOMALY_PANEL (cpel_anomaly_panel_get_type ())
G_DECLARE_FINAL_TYPE (CpelAnomalyPanel, cpel_anomaly_panel, CPEL, ANOMALY_PANEL, AdwWindow)

CpelAnomalyPanel  *cpel_anomaly_panel_new         (GtkWindow         *parent,
                                                   CpelTimeline      *timeline);
/* Set the form: event code (FALSE when the file has no such code), metric,
 * threshold in σ. */
gboolean           cpel_anomaly_panel_set_query   (CpelAnomalyPanel  *self,
                                                   guint32            code,
                                                   CpelAnomalyMetric  metric,
                                                   double             k);
/* Find the anomalies for the form's query (in a worker for big files). */
void               cpel_anomaly_panel_run         (CpelAnomalyPanel  *self);
gboolean           cpel_anomaly_panel_is_busy     (CpelAnomalyPanel  *self);
/* The last finished search (NULL when none). */
CpelAnomalyResult *cpel_anomaly_panel_get_result  (CpelAnomalyPanel  *self);
/* CpelTableRow items: the anomalies (id = position in the result) or the
 * per track statistics (id = slot). */
GListModel        *cpel_anomaly_panel_get_rows    (CpelAnomalyPanel  *self,
                                                   gboolean           tracks);
/* Select and centre the anomaly at `position` of the result. */
void               cpel_anomaly_panel_jump        (CpelAnomalyPanel  *self,
                                                   guint64            position);
/* The next (direction > 0) or previous anomaly from the timeline's
 * selection (or its visible range), wrapping around; FALSE when there is
 * no result or it is empty. */
gboolean           cpel_anomaly_panel_step        (CpelAnomalyPanel  *self,
                                                   int                direction);
/* Files with more events than this are searched in a worker thread
 * (default CPEL_ANOMALY_PANEL_THREAD_EVENTS; tests lower it). */
void               cpel_anomaly_panel_set_thread_events (CpelAnomalyPanel *self,
                                                         guint64           n_events);
/* Position of the anomaly last jumped to, or -1. */
gint64             cpel_anomaly_panel_get_current (CpelAnomalyPanel  *self);

G_END_DECLS
