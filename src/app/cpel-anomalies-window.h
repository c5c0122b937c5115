/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-anomalies-window.h — the Anomalies window: events of one code whose
 * datum or interval lies beyond k σ of their track's mean, or spans of one
 * name whose duration does (the session's rules: cpel_span_anomalies_find
 * ()); a list to jump from, next / previous anomaly, per-track mean and σ.
 */
#pragma once

#include <adwaita.h>

#include "cpel-session.h"

G_BEGIN_DECLS

/* Above this many events in the file the search runs in a worker thread. */
#define CPEL_ANOMALIES_WINDOW_THREAD_EVENTS 1000000

#define CPEL_TYPE_ANOMALIES_WINDOW (cpel_anomalies_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelAnomaliesWindow, cpel_anomalies_window, CPEL, ANOMALIES_WINDOW, AdwWindow)

/* Searches the file `session` shows (cleared for each new file); transient
 * for `parent` (a CpelWindow's toaster tells about hidden types). */
CpelAnomaliesWindow *cpel_anomalies_window_new          (CpelSession         *session,
                                                         GtkWindow           *parent);
CpelSession         *cpel_anomalies_window_get_session  (CpelAnomaliesWindow *self);
/* Set the form: event code (FALSE when the file has no such code), metric,
 * threshold in σ. */
gboolean             cpel_anomalies_window_set_query    (CpelAnomaliesWindow *self,
                                                         guint32              code,
                                                         CpelAnomalyMetric    metric,
                                                         double               k);
/* Set the form to span durations: the spans named `name` (FALSE when the
 * session's spans have no such name, or are not derived yet), threshold
 * in σ. */
gboolean             cpel_anomalies_window_set_span_query (CpelAnomaliesWindow *self,
                                                           const char          *name,
                                                           double               k);
/* Find the anomalies for the form's query (in a worker for big files). */
void                 cpel_anomalies_window_run          (CpelAnomaliesWindow *self);
gboolean             cpel_anomalies_window_is_busy      (CpelAnomaliesWindow *self);
/* What the last run told the user about its hidden event type (the type
 * stays hidden), or NULL when its type was shown. */
const char          *cpel_anomalies_window_get_hidden_note (CpelAnomaliesWindow *self);
/* The last finished search (NULL when none). */
CpelAnomalyResult   *cpel_anomalies_window_get_result   (CpelAnomaliesWindow *self);
/* CpelTableRow items: the anomalies (id = position in the result) or the
 * per track statistics (id = slot). */
GListModel          *cpel_anomalies_window_get_rows     (CpelAnomaliesWindow *self,
                                                         gboolean             tracks);
/* Select and centre the anomaly at `position` of the result. */
void                 cpel_anomalies_window_jump         (CpelAnomaliesWindow *self,
                                                         guint64              position);
/* The next (direction > 0) or previous anomaly from the session's
 * selection (or its visible range), wrapping around; FALSE when there is
 * no result or it is empty. */
gboolean             cpel_anomalies_window_step         (CpelAnomaliesWindow *self,
                                                         int                  direction);
/* Files with more events than this are searched in a worker thread
 * (default CPEL_ANOMALIES_WINDOW_THREAD_EVENTS; tests lower it). */
void                 cpel_anomalies_window_set_thread_events (CpelAnomaliesWindow *self,
                                                              guint64              n_events);
/* Position of the anomaly last jumped to, or -1. */
gint64               cpel_anomalies_window_get_current  (CpelAnomaliesWindow *self);

G_END_DECLS
