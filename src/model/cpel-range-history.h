/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-range-history.h — a view's zoom history: Back and Forward
 *
 * Before a view's range changes, the range it leaves is remembered;
 * continuous changes (the wheel's, keys held down) within `coalesce_us` of
 * each other are one step.  A new change drops what Forward had.  Going
 * back puts the range left on the Forward list and the other way round.
 * The timeline and the compare pane keep one each.  Pure data (no GTK);
 * the caller gives the time, so that it can be tested without a clock.
 */
#pragma once

#include "cpel-range.h"

G_BEGIN_DECLS

typedef struct _CpelRangeHistory CpelRangeHistory;

/* At most `max` steps back (the oldest go first). */
CpelRangeHistory *cpel_range_history_new       (guint                   max,
                                                gint64                  coalesce_us);
void              cpel_range_history_free      (CpelRangeHistory       *history);
void              cpel_range_history_clear     (CpelRangeHistory       *history);

/* The view leaves `current` (at monotonic time `now_us`): a step back to
 * it, unless `coalesce` and the last continuous change was less than
 * coalesce_us ago, or it is the last step already.  A change that is not
 * continuous (`coalesce` FALSE) ends a coalesced run. */
void              cpel_range_history_remember  (CpelRangeHistory       *history,
                                                const CpelRange        *current,
                                                gboolean                coalesce,
                                                gint64                  now_us);

/* The range to show instead of `current` for Back (Forward), `current`
 * going onto the other list; FALSE (`to` untouched) when there is none. */
gboolean          cpel_range_history_back      (CpelRangeHistory       *history,
                                                const CpelRange        *current,
                                                CpelRange              *to);
gboolean          cpel_range_history_forward   (CpelRangeHistory       *history,
                                                const CpelRange        *current,
                                                CpelRange              *to);
gboolean          cpel_range_history_can_back    (const CpelRangeHistory *history);
gboolean          cpel_range_history_can_forward (const CpelRangeHistory *history);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelRangeHistory, cpel_range_history_free)

G_END_DECLS
