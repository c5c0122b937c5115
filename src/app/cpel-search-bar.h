/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-bar.h — the search bar: text / regex / code search in a
 * worker thread, "n of N", next / previous match.
 */
#pragma once

#include "cpel-compare-search.h"
#include <gtk/gtk.h>
#include "cpel-session.h"

G_BEGIN_DECLS

#define CPEL_TYPE_SEARCH_BAR (cpel_search_bar_get_type ())
G_DECLARE_FINAL_TYPE (CpelSearchBar, cpel_search_bar, CPEL, SEARCH_BAR, GtkWidget)

GtkWidget        *cpel_search_bar_new              (void);
/* The session searched: its file, hidden tracks and types; the matches
 * shown are set on it. */
void              cpel_search_bar_set_session      (CpelSearchBar   *self,
                                                    CpelSession     *session);
CpelSession      *cpel_search_bar_get_session      (CpelSearchBar   *self);
/* Comparing: the query runs in both captures (status "3 of 120 in A · 0 of
 * 95 in B"); NULL: in the timeline again. */
void              cpel_search_bar_set_compare      (CpelSearchBar     *self,
                                                    CpelCompareSearch *compare);
CpelCompareSearch *cpel_search_bar_get_compare     (CpelSearchBar   *self);
gboolean          cpel_search_bar_get_search_mode  (CpelSearchBar   *self);
/* Show (and focus the entry) or hide the bar. */
void              cpel_search_bar_set_search_mode  (CpelSearchBar   *self,
                                                    gboolean         enabled);
/* Set the query and start searching at once (no typing delay). */
void              cpel_search_bar_search           (CpelSearchBar   *self,
                                                    CpelSearchMode   mode,
                                                    const char      *text,
                                                    gboolean         case_sensitive);
/* Select and centre the next (direction > 0) or previous match; while a
 * search runs the step happens when it finishes. */
void              cpel_search_bar_step             (CpelSearchBar   *self,
                                                    int              direction);
void              cpel_search_bar_cancel           (CpelSearchBar   *self);
gboolean          cpel_search_bar_is_running       (CpelSearchBar   *self);
/* The finished search's result (NULL when none). */
CpelSearchResult *cpel_search_bar_get_result       (CpelSearchBar   *self);
/* Position of the current match in the result, or -1. */
gint64            cpel_search_bar_get_current      (CpelSearchBar   *self);
/* The inline error message, or NULL. */
const char       *cpel_search_bar_get_error        (CpelSearchBar   *self);
/* The "n of N" text. */
const char       *cpel_search_bar_get_status       (CpelSearchBar   *self);
/* Whether the progress bar and Stop button show (a long search). */
gboolean          cpel_search_bar_is_busy_shown    (CpelSearchBar   *self);

G_END_DECLS
