/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search.h — finding events by code, text or regex */
#pragma once

#include "cpel-file.h"

G_BEGIN_DECLS

typedef enum
{
  CPEL_SEARCH_TEXT,    /* substring of the label "name: datum" */
  CPEL_SEARCH_REGEX,   /* GRegex on the label */
  CPEL_SEARCH_CODE,    /* event code (decimal / 0x hex) or event name (exact, case-insensitive) */
} CpelSearchMode;

typedef struct _CpelQuery CpelQuery;

/* NULL with CPEL_ERROR_INVALID on a bad regex or an unknown code/name. */
CpelQuery *cpel_query_new      (CpelFile        *file,
                                CpelSearchMode   mode,
                                const char      *text,
                                gboolean         case_sensitive,
                                GError         **error);
gboolean   cpel_query_match    (CpelQuery       *query,
                                const CpelEvent *event);
/* FALSE with CPEL_ERROR_INVALID once matching a regex gave up on a label
 * (catastrophic backtracking): every match after that says FALSE, and
 * cpel_search_run () stops with this error. */
gboolean   cpel_query_check    (CpelQuery       *query,
                                GError         **error);
void       cpel_query_free     (CpelQuery       *query);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelQuery, cpel_query_free)

/* A reference to one event: track slot and index within the track (a
 * track holds fewer than 2^32 events: CPEL_MAX_EVENTS).  8 bytes: a search
 * result holds one per match, and a search over 10^9 events can match
 * hundreds of millions. */
typedef struct
{
  guint32  slot;
  guint32  index;
} CpelEventRef;

typedef struct _CpelSearchResult CpelSearchResult;

/* Runs the query over every event (may be called from a worker thread).
 * NULL with G_IO_ERROR_CANCELLED when cancelled, CPEL_ERROR_INVALID when
 * the regex is too complex (cpel_query_check ()).  Progress in [0,1]. */
CpelSearchResult *cpel_search_run   (CpelFile          *file,
                                     CpelQuery         *query,
                                     GCancellable      *cancellable,
                                     CpelProgressFunc   progress,
                                     gpointer           progress_data,
                                     GError           **error);
CpelSearchResult *cpel_search_result_ref   (CpelSearchResult *result);
void              cpel_search_result_unref (CpelSearchResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSearchResult, cpel_search_result_unref)

/* Matches in global time order (ties: file order). */
guint64             cpel_search_result_get_n       (CpelSearchResult *result);
const CpelEventRef *cpel_search_result_get         (CpelSearchResult *result, guint64 i);
/* Per track: sorted track indices of the matches on that track. */
const guint32      *cpel_search_result_get_track   (CpelSearchResult *result, guint slot,
                                                    guint64 *n_matches);
/* For a track where at least one event in 64 matches: bit i (word i / 64,
 * bit i % 64) is set when its event i matches; NULL on other tracks. */
const guint64      *cpel_search_result_get_track_bits (CpelSearchResult *result, guint slot);
/* Position of the first match at or after (time, file_index) in time order
 * (ties broken by file index); get_n when none.  For "next from here". */
guint64             cpel_search_result_find_next   (CpelSearchResult *result, CpelFile *file,
                                                    gint64 time, guint64 file_index);

/* The matches on tracks and of event types still shown: `hidden_slots`
 * (n_tracks flags) and `hidden_types` (n_types flags), either NULL for none
 * hidden.  A new result (a new reference to `result` when no flag is set).
 * O(matches). */
CpelSearchResult   *cpel_search_result_filter      (CpelSearchResult *result,
                                                    CpelFile         *file,
                                                    const guint8     *hidden_slots,
                                                    const guint8     *hidden_types);

G_END_DECLS
