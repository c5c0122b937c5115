/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-window.h — the Statistics window: per event code counts and
 * intervals, per track counts, for the measured range (when the ruler has
 * one) or else the visible range, over the shown tracks and event types.
 * Copy as text, save as CSV.
 */
#pragma once

#include <adwaita.h>

#include "cpel-diff.h"
#include "cpel-session.h"
#include "cpel-spans.h"

G_BEGIN_DECLS

#define CPEL_TYPE_STATS_WINDOW (cpel_stats_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelStatsWindow, cpel_stats_window, CPEL, STATS_WINDOW, AdwWindow)

/* Counting starts at once (in a worker thread).  Counts what `session`
 * shows (again for each new file); transient for `parent` (while a
 * CpelWindow parent compares two captures, the Compare pages count them). */
CpelStatsWindow *cpel_stats_window_new        (CpelSession      *session,
                                               GtkWindow        *parent);
CpelSession     *cpel_stats_window_get_session (CpelStatsWindow *self);
/* Count again over the session's current range, tracks and types. */
void             cpel_stats_window_refresh    (CpelStatsWindow  *self);
/* TRUE while counting ("busy" property; without a notification, also while
 * an activated Spans row's longest span is looked for). */
gboolean         cpel_stats_window_is_busy    (CpelStatsWindow  *self);
/* The statistics shown (NULL while counting or after an error). */
CpelStats       *cpel_stats_window_get_stats  (CpelStatsWindow  *self);
/* The rows of a table as shown (CpelTableRow items, sorted as shown). */
GListModel      *cpel_stats_window_get_rows   (CpelStatsWindow  *self,
                                               CpelStatsCsvTable table);
/* What "Copy as Text" puts on the clipboard; NULL without statistics. */
char            *cpel_stats_window_get_text   (CpelStatsWindow  *self);
/* Write one table as CSV, atomically (replacing an existing file). */
gboolean         cpel_stats_window_save_csv   (CpelStatsWindow  *self,
                                               GFile            *file,
                                               CpelStatsCsvTable table,
                                               GError          **error);

/* The Spans and Thread States pages: the summary of the session's spans
 * over the range and tracks counted (finished spans, as `cpel spans`
 * counts them; NULL while counting or without span rules), the rows of
 * CPEL_SPAN_TABLE_SPANS or CPEL_SPAN_TABLE_STATES as shown, and
 * activating one (selects the longest span of its name in the range and
 * centres it: asynchronously for spans, busy until done). */
CpelSpanSummary *cpel_stats_window_get_span_summary (CpelStatsWindow *self);
/* The Functions page (a capture with call chains; tests): the functions of
 * the range counted (NULL: none), and its rows as sorted. */
CpelTop         *cpel_stats_window_get_top (CpelStatsWindow *self);
GListModel      *cpel_stats_window_get_function_rows (CpelStatsWindow *self);
/* Activating the row at `position` as shown: the earliest sample counted
 * whose call chain holds its function is selected and centred. */
void             cpel_stats_window_activate_function_row (CpelStatsWindow *self,
                                                          guint            position);
/* The rows as shown (sorted; the Spans page's are GtkTreeListRow items, a
 * span name's row with its tracks' under it when unfolded:
 * cpel_table_row_of () gives each its CpelTableRow). */
GListModel      *cpel_stats_window_get_span_rows (CpelStatsWindow *self,
                                                  CpelSpanTable    table);
void             cpel_stats_window_activate_span_row (CpelStatsWindow *self,
                                                      CpelSpanTable    table,
                                                      guint            position);
/* Write the Spans (CPEL_SPAN_TABLE_SPANS) or Thread States
 * (CPEL_SPAN_TABLE_STATES) table as CSV, as `cpel spans --csv` (`cpel
 * states --csv`) writes it, atomically. */
gboolean         cpel_stats_window_save_span_csv (CpelStatsWindow *self,
                                                  GFile           *file,
                                                  CpelSpanTable    table,
                                                  GError         **error);
/* The distribution window (cpel-span-histogram-window.h) of the Spans
 * row at `position` as shown, presented; NULL without such a row. */
GtkWindow       *cpel_stats_window_show_distribution (CpelStatsWindow *self,
                                                      guint            position);

/* While the parent window compares two captures: the diff the Compare and
 * Compare Tracks pages show (NULL otherwise; the pages are hidden then),
 * their rows (CpelTableRow, sorted as shown), CSV of one of them. */
CpelDiff        *cpel_stats_window_get_diff   (CpelStatsWindow  *self);
GListModel      *cpel_stats_window_get_compare_rows (CpelStatsWindow *self,
                                                     CpelDiffBy       by);
gboolean         cpel_stats_window_has_compare_pages (CpelStatsWindow *self);
gboolean         cpel_stats_window_save_compare_csv (CpelStatsWindow *self,
                                                     GFile           *file,
                                                     CpelDiffBy       by,
                                                     GError         **error);
/* The Compare page's selected row: its two overlaid interval histograms
 * (cpel_render_histogram, light palette) as a WIDTH x HEIGHT PNG. */
gboolean         cpel_stats_window_save_histogram (CpelStatsWindow *self,
                                                   GFile           *file,
                                                   int              width,
                                                   int              height,
                                                   GError         **error);

G_END_DECLS
