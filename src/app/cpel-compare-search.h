/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-compare-search.h — one query run over both captures of a compare
 * pane: the matches of each highlighted in its pane, counted per pane
 * ("3 of 120 in A · 0 of 95 in B"), stepped through together */
#pragma once

#include "cpel-compare-pane.h"

G_BEGIN_DECLS

#define CPEL_TYPE_COMPARE_SEARCH (cpel_compare_search_get_type ())
G_DECLARE_FINAL_TYPE (CpelCompareSearch, cpel_compare_search, CPEL, COMPARE_SEARCH, GObject)

CpelCompareSearch *cpel_compare_search_new        (CpelComparePane   *pane);
/* Compiles the query for each capture (codes and names are each file's
 * own) and runs both in workers; "finished" when both are done.  FALSE
 * with the error when neither capture can take the query (a bad pattern,
 * a name neither knows); a capture that cannot (a name only the other
 * has) simply has no matches.  An empty text clears the matches. */
gboolean           cpel_compare_search_run        (CpelCompareSearch *self,
                                                   CpelSearchMode     mode,
                                                   const char        *text,
                                                   gboolean           case_sensitive,
                                                   GError           **error);
void               cpel_compare_search_cancel     (CpelCompareSearch *self);
gboolean           cpel_compare_search_is_running (CpelCompareSearch *self);
/* Highlight the matches in the panes (or not: the bar closed). */
void               cpel_compare_search_set_shown  (CpelCompareSearch *self,
                                                   gboolean           shown);
/* Selects and centres the next (direction > 0) or previous match of A (of
 * B when A has none) and, in the other pane, its match at or after the same
 * aligned time.  FALSE when there is nothing to step to. */
gboolean           cpel_compare_search_step       (CpelCompareSearch *self,
                                                   int                direction);
/* Matches of a side (0 when none or no result), the current one or -1. */
guint64            cpel_compare_search_get_n      (CpelCompareSearch *self,
                                                   CpelCompareSide    side);
gint64             cpel_compare_search_get_current (CpelCompareSearch *self,
                                                    CpelCompareSide    side);
/* TRUE when a result is there (a query ran to its end). */
gboolean           cpel_compare_search_has_result (CpelCompareSearch *self);
/* "3 of 120 in A · 0 of 95 in B", "120 in A · 95 in B", or NULL. */
char              *cpel_compare_search_dup_status (CpelCompareSearch *self);

G_END_DECLS
