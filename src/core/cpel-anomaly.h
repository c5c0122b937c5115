/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-anomaly.h — events of one code whose datum or interval is unusual
 *
 * For one event code, each track's events of that code give a series of
 * values: the datum (as an unsigned 32-bit number) or the interval in ns
 * since the previous event of that code on the same track (the first event
 * of a track has none).  Per track the mean and the standard deviation
 * (population, Welford's method) of the series are computed; an event is an
 * anomaly when |value - mean| > k * sigma.  A track whose series has fewer
 * than two values or sigma 0 has no anomalies.
 */
#pragma once

#include "cpel-file.h"
#include "cpel-search.h"
#include "cpel-span-dist.h"

G_BEGIN_DECLS

#define CPEL_ANOMALY_DEFAULT_K 2.5

typedef enum
{
  CPEL_ANOMALY_DATUM,
  CPEL_ANOMALY_INTERVAL,
  CPEL_ANOMALY_DURATION,   /* of spans (cpel_anomaly_result_new_for_spans ()) */
} CpelAnomalyMetric;

typedef struct
{
  CpelEventRef  ref;          /* track slot + index in the track */
  gint64        time_ns;
  guint64       file_index;
  double        value;        /* datum, or interval in ns */
  double        z;            /* (value - mean) / sigma of its track */
} CpelAnomaly;

typedef struct _CpelAnomalyResult CpelAnomalyResult;

/* FALSE when the code's datum is text (its format has a %s: the datum is a
 * string-table offset, its mean means nothing); TRUE otherwise, also for a
 * code the file does not define. */
gboolean           cpel_anomaly_datum_is_number (CpelFile *file,
                                                 guint32   code);

/* k <= 0 means CPEL_ANOMALY_DEFAULT_K.  A code with no event gives an empty
 * result.  NULL with G_IO_ERROR_CANCELLED when cancelled, with
 * CPEL_ERROR_INVALID for the datum of a code whose datum is text. */
CpelAnomalyResult *cpel_anomaly_find        (CpelFile          *file,
                                             guint32            code,
                                             CpelAnomalyMetric  metric,
                                             double             k,
                                             GCancellable      *cancellable,
                                             GError           **error);
/* Span duration anomalies (cpel_span_anomalies_find () with SIGMA k) as a
 * result over the spans' begin events: metric CPEL_ANOMALY_DURATION, value
 * the duration in ns, code that of the first one's begin event (0 when
 * none), the tracks' mean and sigma of their spans of the name. */
CpelAnomalyResult *cpel_anomaly_result_new_for_spans (CpelFile          *file,
                                                      CpelSpanAnomalies *anomalies,
                                                      double             k);
void               cpel_anomaly_result_free (CpelAnomalyResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelAnomalyResult, cpel_anomaly_result_free)

guint32            cpel_anomaly_result_get_code   (CpelAnomalyResult *result);
CpelAnomalyMetric  cpel_anomaly_result_get_metric (CpelAnomalyResult *result);
double             cpel_anomaly_result_get_k      (CpelAnomalyResult *result);
/* Anomalies in time order (ties: file order). */
guint64            cpel_anomaly_result_get_n      (CpelAnomalyResult *result);
const CpelAnomaly *cpel_anomaly_result_get        (CpelAnomalyResult *result, guint64 i);
/* Per track statistics of the series (FALSE when the track has no value). */
gboolean           cpel_anomaly_result_get_track_stats (CpelAnomalyResult *result, guint slot,
                                                        guint64 *n, double *mean, double *sigma);

/* The first anomaly strictly after / the last strictly before the event at
 * (time, file_index) in time order; FALSE when none.  From "no position",
 * use next with (G_MININT64, 0) / prev with (G_MAXINT64, G_MAXUINT64). */
gboolean           cpel_anomaly_result_next       (CpelAnomalyResult *result, gint64 time,
                                                   guint64 file_index, guint64 *i);
gboolean           cpel_anomaly_result_prev       (CpelAnomalyResult *result, gint64 time,
                                                   guint64 file_index, guint64 *i);

G_END_DECLS
