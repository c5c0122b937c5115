/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-bar-private.h — CpelSearchBar's instance struct and the
 * helpers shared by its parts:
 *
 *   cpel-search-bar.c          the widget: entry, mode, running a query in
 *                              a worker (or in both panes while comparing),
 *                              status, errors, progress
 *   cpel-search-bar-matches.c  the matches the timeline shows (on shown
 *                              tracks, of shown event types) and stepping
 *                              through them
 */
#pragma once

#include "cpel-search-bar.h"
#include "cpel-compare-search.h"
#include "cpel-progress-relay.h"

G_BEGIN_DECLS

struct _CpelSearchBar
{
  GtkWidget          parent_instance;

  GtkSearchBar      *search_bar;
  GtkSearchEntry    *entry;
  GtkDropDown       *mode_dropdown;
  GtkToggleButton   *case_button;
  GtkLabel          *count_label;
  GtkProgressBar    *progress_bar;
  GtkButton         *cancel_button;
  char              *error;      /* the query's or the search's, or NULL */
  char              *searched_text;   /* the entry's text the last search started with */

  CpelSession       *session;
  CpelCompareSearch *compare;    /* comparing: the query runs in both panes */
  CpelSearchResult  *result;     /* every match of the query */
  /* The matches on tracks and of event types the session shows: counted,
   * stepped through and highlighted (`result` itself when nothing is
   * hidden); and the hidden flags it was filtered for. */
  CpelSearchResult  *visible;
  guint8            *hidden_types_for;
  guint8            *hidden_slots_for;
  gint64             current;    /* position in `visible`, or -1 */
  CpelEventRef       current_ref;   /* the last match stepped to (slot G_MAXUINT: none) */
  /* what current_ref's event is: a newer capture of a source followed
   * (cpelview --follow) keeps the match stepped to where that event is the
   * same (its track's label, its time and code) */
  gint64             current_time;
  guint32            current_code;
  char              *current_track;
  gboolean           keep_ref;      /* the next result keeps current_ref */

  GCancellable      *cancellable;
  CpelProgressRelay *relay;
  guint              progress_timeout;
  guint              generation;
  int                pending_step;
  gboolean           setting_query;

  GtkEventController *type_ahead;   /* on the root while rooted */

  /* A duration filter (`ip4-lookup dur>5us`, text mode): the spans it lets
   * through are the matches, as the session's span filter */
  CpelSpanFilter    *span_filter;
};


/* cpel-search-bar.c */
void     _cpel_search_bar_update_status (CpelSearchBar *self);
/* Whether the session's span filter is the search bar's. */
gboolean _cpel_search_bar_span_filter_shown (CpelSearchBar *self);

/* cpel-search-bar-matches.c */
/* Filter `result` into `visible` for the session's hidden tracks and
 * types (again only when they changed, unless `force`); TRUE when
 * `visible` changed. */
gboolean _cpel_search_bar_refilter      (CpelSearchBar *self,
                                         gboolean       force);

G_END_DECLS
