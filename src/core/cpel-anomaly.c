/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-anomaly.c — events of one code whose datum or interval is unusual
 *
 * Two passes over each track (the code of every event is read from its
 * record): the first accumulates the series' mean and M2 with Welford's
 * update, the second keeps the events outside mean ± k·sigma.  No memory
 * per event; the anomalies, few by construction, are sorted at the end.
 */
#include "cpel-anomaly.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "cpel-error.h"
#include "cpel-file-private.h"

#define CANCEL_CHECK_MASK 0xffff
#define PREFETCH_AHEAD    32

typedef struct
{
  guint64 n;
  double  mean;
  double  sigma;
} TrackStats;

struct _CpelAnomalyResult
{
  guint32            code;
  CpelAnomalyMetric  metric;
  double             k;
  GArray            *items;    /* CpelAnomaly, time order */
  TrackStats        *tracks;
  guint              n_tracks;
};

typedef struct
{
  CpelFile          *file;
  guint32            code;
  CpelAnomalyMetric  metric;
  GCancellable      *cancellable;
} Scan;

typedef void (*VisitFunc) (guint64 index, gint64 time, double value, gpointer data);

/* Calls visit for each value of the track's series; FALSE when cancelled. */
static gboolean
scan_track (const Scan *scan,
            guint       slot,
            VisitFunc   visit,
            gpointer    data)
{
  CpelFile *file = scan->file;
  const CpelTrack *track = &file->tracks[slot];
  const gint64 *times = file->times + track->first;
  const guint32 *recs = file->recs + track->first;
  gboolean have_prev = FALSE;
  gint64 prev = 0;

  for (guint64 i = 0; i < track->count; i++)
    {
      const guint8 *rec;

      if (G_UNLIKELY ((i & CANCEL_CHECK_MASK) == CANCEL_CHECK_MASK)
          && g_cancellable_is_cancelled (scan->cancellable))
        return FALSE;
      rec = cpel_file_record (file, recs[i], NULL);
      /* records are visited in time order, scattered over the mapping */
      if (G_LIKELY (i + PREFETCH_AHEAD < track->count))
        __builtin_prefetch (cpel_file_record (file, recs[i + PREFETCH_AHEAD], NULL) + 12);
      if (cpel_file_read32 (file, rec + 12) != scan->code)
        continue;
      if (scan->metric == CPEL_ANOMALY_DATUM)
        visit (i, times[i], (double) cpel_file_read32 (file, rec + 16), data);
      else
        {
          if (have_prev)
            visit (i, times[i], (double) (times[i] - prev), data);
          have_prev = TRUE;
          prev = times[i];
        }
    }
  return TRUE;
}

typedef struct
{
  guint64 n;
  double  mean;
  double  m2;
} Welford;

static void
welford_add (guint64  index,
             gint64   time,
             double   x,
             gpointer data)
{
  Welford *w = data;
  double delta = x - w->mean;

  w->n++;
  w->mean += delta / (double) w->n;
  w->m2 += delta * (x - w->mean);
}

typedef struct
{
  CpelFile         *file;
  guint             slot;
  const TrackStats *stats;
  double            k;
  GArray           *items;
} Flag;

static void
flag_add (guint64  index,
          gint64   time,
          double   x,
          gpointer data)
{
  Flag *f = data;
  double dev = x - f->stats->mean;

  if (fabs (dev) > f->k * f->stats->sigma)
    {
      CpelAnomaly a;

      a.ref.slot = f->slot;
      a.ref.index = index;
      a.time_ns = time;
      a.file_index = f->file->recs[f->file->tracks[f->slot].first + index];
      a.value = x;
      a.z = dev / f->stats->sigma;
      g_array_append_val (f->items, a);
    }
}

static inline int
compare_pos (gint64  ta,
             guint64 fa,
             gint64  tb,
             guint64 fb)
{
  if (ta != tb)
    return ta < tb ? -1 : 1;
  return fa < fb ? -1 : fa > fb;
}

static int
compare_anomalies (gconstpointer a,
                   gconstpointer b)
{
  const CpelAnomaly *x = a, *y = b;

  return compare_pos (x->time_ns, x->file_index, y->time_ns, y->file_index);
}

gboolean
cpel_anomaly_datum_is_number (CpelFile *file,
                              guint32   code)
{
  guint type;

  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);

  if (!cpel_file_lookup_type (file, code, &type))
    return TRUE;
  return !cpel_format_uses_string (cpel_file_get_type_datum_format (file, type));
}

CpelAnomalyResult *
cpel_anomaly_find (CpelFile          *file,
                   guint32            code,
                   CpelAnomalyMetric  metric,
                   double             k,
                   GCancellable      *cancellable,
                   GError           **error)
{
  g_autoptr(CpelAnomalyResult) result = NULL;
  Scan scan = { file, code, metric, cancellable };
  guint type;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (metric == CPEL_ANOMALY_DATUM || metric == CPEL_ANOMALY_INTERVAL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (metric == CPEL_ANOMALY_DATUM && !cpel_anomaly_datum_is_number (file, code))
    {
      const char *name = cpel_file_lookup_type (file, code, &type)
                         ? cpel_file_get_type_name (file, type) : NULL;

      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   /* TRANSLATORS: %s is an event name, %u its code */
                   _("The datum of “%s” (code %u) is text, not a number: measure the interval between its events instead"),
                   name != NULL && *name != '\0' ? name : "?", code);
      return NULL;
    }

  result = g_new0 (CpelAnomalyResult, 1);
  result->code = code;
  result->metric = metric;
  result->k = k > 0 && isfinite (k) ? k : CPEL_ANOMALY_DEFAULT_K;
  result->items = g_array_new (FALSE, FALSE, sizeof (CpelAnomaly));
  result->n_tracks = file->n_tracks;
  result->tracks = g_new0 (TrackStats, MAX (file->n_tracks, 1));

  if (!cpel_file_lookup_type (file, code, &type) || file->types[type].count == 0)
    return g_steal_pointer (&result);

  for (guint slot = 0; slot < file->n_tracks; slot++)
    {
      TrackStats *ts = &result->tracks[slot];
      Welford w = { 0 };
      Flag flag = { file, slot, ts, result->k, result->items };

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (!scan_track (&scan, slot, welford_add, &w))
        break;
      ts->n = w.n;
      ts->mean = w.mean;
      ts->sigma = w.n > 0 ? sqrt (w.m2 / (double) w.n) : 0;
      if (w.n < 2 || !(ts->sigma > 0))
        continue;
      if (!scan_track (&scan, slot, flag_add, &flag))
        break;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  g_array_sort (result->items, compare_anomalies);
  return g_steal_pointer (&result);
}

CpelAnomalyResult *
cpel_anomaly_result_new_for_spans (CpelFile          *file,
                                   CpelSpanAnomalies *anomalies,
                                   double             k)
{
  CpelAnomalyResult *r;
  guint64 n;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (anomalies != NULL, NULL);

  r = g_new0 (CpelAnomalyResult, 1);
  r->metric = CPEL_ANOMALY_DURATION;
  r->k = k;
  r->n_tracks = file->n_tracks;
  r->tracks = g_new0 (TrackStats, MAX (r->n_tracks, 1));
  r->items = g_array_new (FALSE, FALSE, sizeof (CpelAnomaly));
  for (guint slot = 0; slot < r->n_tracks; slot++)
    {
      guint64 count = 0;
      double mean = 0, sigma = 0;
      gint64 p = 0;

      if (cpel_span_anomalies_get_track (anomalies, slot, &count, &mean, &sigma, &p))
        {
          r->tracks[slot].n = count;
          r->tracks[slot].mean = mean;
          r->tracks[slot].sigma = sigma;
        }
    }
  n = cpel_span_anomalies_get_n (anomalies);
  for (guint64 i = 0; i < n; i++)
    {
      const CpelSpanAnomaly *a = cpel_span_anomalies_get (anomalies, i);
      CpelAnomaly item = { { 0 } };
      CpelEvent event;

      if (a->span.slot >= r->n_tracks || a->span.begin >= file->tracks[a->span.slot].count)
        continue;
      cpel_file_get_track_event (file, a->span.slot, a->span.begin, &event);
      if (r->items->len == 0)
        r->code = event.code;
      item.ref.slot = a->span.slot;
      item.ref.index = a->span.begin;
      item.time_ns = event.time_ns;
      item.file_index = event.file_index;
      item.value = (double) a->duration_ns;
      item.z = a->z;
      g_array_append_val (r->items, item);
    }
  return r;
}

void
cpel_anomaly_result_free (CpelAnomalyResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->items, g_array_unref);
  g_free (result->tracks);
  g_free (result);
}

guint32
cpel_anomaly_result_get_code (CpelAnomalyResult *result)
{
  g_return_val_if_fail (result != NULL, 0);
  return result->code;
}

CpelAnomalyMetric
cpel_anomaly_result_get_metric (CpelAnomalyResult *result)
{
  g_return_val_if_fail (result != NULL, CPEL_ANOMALY_DATUM);
  return result->metric;
}

double
cpel_anomaly_result_get_k (CpelAnomalyResult *result)
{
  g_return_val_if_fail (result != NULL, 0);
  return result->k;
}

guint64
cpel_anomaly_result_get_n (CpelAnomalyResult *result)
{
  g_return_val_if_fail (result != NULL, 0);
  return result->items->len;
}

const CpelAnomaly *
cpel_anomaly_result_get (CpelAnomalyResult *result,
                         guint64            i)
{
  g_return_val_if_fail (result != NULL, NULL);
  g_return_val_if_fail (i < result->items->len, NULL);
  return &g_array_index (result->items, CpelAnomaly, i);
}

gboolean
cpel_anomaly_result_get_track_stats (CpelAnomalyResult *result,
                                     guint              slot,
                                     guint64           *n,
                                     double            *mean,
                                     double            *sigma)
{
  const TrackStats *ts;

  g_return_val_if_fail (result != NULL, FALSE);
  if (slot >= result->n_tracks || result->tracks[slot].n == 0)
    return FALSE;
  ts = &result->tracks[slot];
  if (n)
    *n = ts->n;
  if (mean)
    *mean = ts->mean;
  if (sigma)
    *sigma = ts->sigma;
  return TRUE;
}

/* Number of anomalies before (time, file_index), or at or before it when
 * `inclusive`. */
static guint64
rank (CpelAnomalyResult *result,
      gint64             time,
      guint64            file_index,
      gboolean           inclusive)
{
  guint64 lo = 0, hi = result->items->len;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      const CpelAnomaly *a = &g_array_index (result->items, CpelAnomaly, mid);
      int c = compare_pos (a->time_ns, a->file_index, time, file_index);

      if (c < 0 || (inclusive && c == 0))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
cpel_anomaly_result_next (CpelAnomalyResult *result,
                          gint64             time,
                          guint64            file_index,
                          guint64           *i)
{
  guint64 r;

  g_return_val_if_fail (result != NULL, FALSE);
  r = rank (result, time, file_index, TRUE);
  if (r >= result->items->len)
    return FALSE;
  if (i)
    *i = r;
  return TRUE;
}

gboolean
cpel_anomaly_result_prev (CpelAnomalyResult *result,
                          gint64             time,
                          guint64            file_index,
                          guint64           *i)
{
  guint64 r;

  g_return_val_if_fail (result != NULL, FALSE);
  r = rank (result, time, file_index, FALSE);
  if (r == 0)
    return FALSE;
  if (i)
    *i = r - 1;
  return TRUE;
}
