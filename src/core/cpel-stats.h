/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats.h — per event code and per track statistics over a time range
 *
 * For the events with t0 <= time < t1 on the chosen tracks (types marked
 * hidden are left out entirely): per event code the number of events and the
 * interval between successive events of that code on the same track (both
 * inside the range), as minimum / mean / maximum in ns; per track the number
 * of events; the totals.  One pass over the events in the range: O(events in
 * range), no memory per event.
 */
#pragma once

#include "cpel-file.h"

G_BEGIN_DECLS

typedef struct
{
  gint64          t0;            /* range [t0, t1) in ns since the earliest event */
  gint64          t1;
  const guint    *slots;         /* tracks to count; NULL = every track */
  guint           n_slots;
  const guint8   *hidden_types;  /* hidden_types[type] != 0: left out; NULL = none
                                  * (cpel_file_get_n_types entries, as in CpelView) */
  const guint    *type_groups;   /* type_groups[type] <= type: the type that stands for a
                                  * group of types counted as one (e.g. the codes sharing
                                  * a name: the first of them); the group's events and
                                  * intervals are those of all its types together.  NULL
                                  * = every type by itself */
  gboolean        histograms;    /* fill CpelStatsCode.histogram */
} CpelStatsOptions;

/* Interval histograms: 4 bins per octave of ns; bin 0 holds 0 and 1 ns. */
#define CPEL_STATS_HISTOGRAM_BINS 256
/* The bin of an interval of d ns (d >= 0), and the lowest d in bin `bin`. */
guint                 cpel_stats_histogram_bin       (gint64 d);
gint64                cpel_stats_histogram_bin_start (guint bin);

typedef struct
{
  guint32      code;
  guint        type;             /* event type index in the file */
  const char  *name;             /* the type's name (valid while the stats live) */
  guint64      count;            /* events of this code in the range */
  guint64      n_intervals;      /* successive pairs on the same track; 0 = no interval */
  gint64       interval_min;     /* ns; 0 when n_intervals == 0 */
  gint64       interval_max;
  double       interval_mean;
  const guint64 *histogram;      /* CPEL_STATS_HISTOGRAM_BINS interval counts, when asked
                                  * for (else NULL); valid while the stats live */
} CpelStatsCode;

typedef struct
{
  guint        slot;
  guint32      track_id;
  const char  *label;            /* valid while the stats live */
  guint64      count;            /* events in the range (hidden types excluded) */
} CpelStatsTrack;

typedef struct _CpelStats CpelStats;

/* NULL with G_IO_ERROR_CANCELLED when cancelled, CPEL_ERROR_INVALID on a bad
 * slot.  `options` NULL = the whole file, every track, nothing hidden. */
CpelStats            *cpel_stats_compute        (CpelFile               *file,
                                                 const CpelStatsOptions *options,
                                                 GCancellable           *cancellable,
                                                 GError                **error);
void                  cpel_stats_free           (CpelStats *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelStats, cpel_stats_free)

gint64                cpel_stats_get_t0         (CpelStats *stats);
gint64                cpel_stats_get_t1         (CpelStats *stats);
/* Codes with at least one event in the range, ascending code order (with
 * type_groups: one entry per group, under the code of its first type). */
guint                 cpel_stats_get_n_codes    (CpelStats *stats);
const CpelStatsCode  *cpel_stats_get_code       (CpelStats *stats, guint i);
/* The chosen tracks in the order given (slot order when every track). */
guint                 cpel_stats_get_n_tracks   (CpelStats *stats);
const CpelStatsTrack *cpel_stats_get_track      (CpelStats *stats, guint i);
guint64               cpel_stats_get_total      (CpelStats *stats);
/* Tracks with at least one event in the range. */
guint                 cpel_stats_get_n_busy_tracks (CpelStats *stats);

/* Human-readable aligned tables (codes, tracks, totals); translated headings. */
char                 *cpel_stats_to_text        (CpelStats *stats);

typedef enum
{
  CPEL_STATS_CSV_CODES,   /* code,event,count,intervals,min_ns,mean_ns,max_ns */
  CPEL_STATS_CSV_TRACKS,  /* slot,track,label,count */
} CpelStatsCsvTable;

/* The summary lines and one of the two tables, as in cpel_stats_to_text. */
char                 *cpel_stats_table_to_text  (CpelStats *stats, CpelStatsCsvTable table);

/* RFC 4180 CSV (CRLF line ends, fields quoted when they hold a comma, quote,
 * CR or LF; quotes doubled), with a header line. */
char                 *cpel_stats_to_csv         (CpelStats *stats, CpelStatsCsvTable table);
/* Quote one CSV field as above, appended to `out`. */
void                  cpel_csv_append_field     (GString *out, const char *field);

G_END_DECLS
