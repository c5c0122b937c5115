/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-diff.h — the differences between two captures
 *
 * Events are matched across the two captures by event name (codes may
 * differ between the files; the codes of one file sharing a name count as
 * one), tracks by label (tracks of one file sharing a label count as one).
 * Per name: the number of events in A and in B, and the mean interval
 * between consecutive events of that name on the same track, as
 * cpel_stats_compute() counts them (it does the counting, with the codes
 * of one name grouped).  The range applies to both captures, each relative
 * to its own first event.  A and B are counted in parallel.
 */
#pragma once

#include "cpel-file.h"
#include "cpel-stats.h"

G_BEGIN_DECLS

typedef struct
{
  gint64         from;        /* ns since each capture's first event */
  gint64         to;          /* excluded; G_MAXINT64 = to the end of each */
  gboolean       histograms;  /* fill CpelDiffRow.histogram_a/_b */
  const guint8  *hidden_a;    /* per type of A (as CpelStatsOptions.hidden_types); NULL = none */
  const guint8  *hidden_b;
} CpelDiffOptions;

typedef struct
{
  const char    *name;          /* event name or track label (valid while the diff lives) */
  guint64        count_a;
  guint64        count_b;
  gint64         count_delta;   /* count_b - count_a (saturated) */
  guint64        n_intervals_a; /* 0: no interval, mean_a meaningless */
  guint64        n_intervals_b;
  double         mean_a;        /* ns */
  double         mean_b;
  const guint64 *histogram_a;   /* CPEL_STATS_HISTOGRAM_BINS bins, or NULL (not asked for,
                                 * not in the capture, or a track row) */
  const guint64 *histogram_b;
} CpelDiffRow;

typedef enum
{
  CPEL_DIFF_BY_EVENTS,
  CPEL_DIFF_BY_TRACKS,
} CpelDiffBy;

typedef struct _CpelDiff CpelDiff;

/* `options` NULL = the whole of both.  NULL with G_IO_ERROR_CANCELLED when
 * cancelled. */
CpelDiff          *cpel_diff_compute       (CpelFile              *a,
                                            CpelFile              *b,
                                            const CpelDiffOptions *options,
                                            GCancellable          *cancellable,
                                            GError               **error);
void               cpel_diff_free          (CpelDiff *diff);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelDiff, cpel_diff_free)

/* Rows, one per name (label) in the union, sorted by |count_delta|
 * descending, then name bytewise ascending.  Event names with no event in
 * the range in either capture have no row; every track label has one. */
guint              cpel_diff_get_n_rows    (CpelDiff *diff, CpelDiffBy by);
const CpelDiffRow *cpel_diff_get_row       (CpelDiff *diff, CpelDiffBy by, guint i);
/* The row of `name`, or NULL. */
const CpelDiffRow *cpel_diff_lookup        (CpelDiff *diff, CpelDiffBy by, const char *name);
/* Events counted in the range (hidden types left out). */
guint64            cpel_diff_get_total_a   (CpelDiff *diff);
guint64            cpel_diff_get_total_b   (CpelDiff *diff);

/* The mean interval of a row as a CSV field ("%.3f", as `cpel stats --csv`
 * mean_ns) and the change in percent ("%.1f"); "" when there is none. */
char              *cpel_diff_format_mean   (guint64 n_intervals, double mean);
char              *cpel_diff_format_pct    (const CpelDiffRow *row);

/* RFC 4180 CSV with CRLF line ends, as cpel_stats_to_csv:
 *   events: event,count_a,count_b,count_delta,mean_ns_a,mean_ns_b,mean_delta_pct
 *   tracks: track,count_a,count_b,count_delta */
char              *cpel_diff_to_csv        (CpelDiff *diff, CpelDiffBy by);
/* An aligned table with units, preceded by one line per capture naming it
 * (`name_a`, `name_b`: e.g. the file names) with its events and span. */
char              *cpel_diff_to_text       (CpelDiff *diff, CpelDiffBy by,
                                            const char *name_a, const char *name_b);

/* ---- What one capture's view leaves out, applied to another by name ----
 *
 * Hidden event types: `to`'s types whose name is the name of a type hidden
 * in `from` (hidden: cpel_file_get_n_types (from) flags, NULL = none); NULL
 * when none of `to`'s is hidden, else cpel_file_get_n_types (to) flags. */
guint8            *cpel_diff_map_hidden_types (CpelFile *from, const guint8 *hidden,
                                               CpelFile *to);
/* The rows of `to` for the rows (slots of `from`, in display order) shown
 * in `from`: for each shown label in that order, `to`'s tracks of that
 * label (in slot order, each once); then `to`'s tracks whose label `from`
 * has no track of, in slot order, when keep_unknown (slot of `to`) says so
 * (NULL: all of them).  rows NULL = every track of `from` shown.  NULL when
 * every track of `to` is shown in slot order (as CpelView.rows). */
typedef gboolean (*CpelDiffKeepFunc) (guint slot, gpointer data);
guint             *cpel_diff_map_rows      (CpelFile *from, const guint *rows, guint n_rows,
                                            CpelFile *to, CpelDiffKeepFunc keep_unknown,
                                            gpointer keep_data, guint *n_out);

G_END_DECLS
