/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-overview-strip.h — the whole-capture density strip above the timeline;
 * shows the visible window and navigates on click / drag.
 */
#pragma once

#include "cpel-compare-pane.h"
#include "cpel-timeline.h"

G_BEGIN_DECLS

#define CPEL_TYPE_OVERVIEW_STRIP (cpel_overview_strip_get_type ())
G_DECLARE_FINAL_TYPE (CpelOverviewStrip, cpel_overview_strip, CPEL, OVERVIEW_STRIP, GtkWidget)

GtkWidget    *cpel_overview_strip_new          (void);
void          cpel_overview_strip_set_timeline (CpelOverviewStrip *self,
                                          CpelTimeline *timeline);
CpelTimeline *cpel_overview_strip_get_timeline (CpelOverviewStrip *self);
/* The compare view's strip instead (A and B on one axis; it moves the
 * compare range of the pane's session). */
void          cpel_overview_strip_set_compare_pane (CpelOverviewStrip *self,
                                                    CpelComparePane   *pane);
CpelComparePane *cpel_overview_strip_get_compare_pane (CpelOverviewStrip *self);
/* The time under x (widget coordinates). */
gint64        cpel_overview_strip_x_to_time    (CpelOverviewStrip *self,
                                          double        x);

G_END_DECLS
