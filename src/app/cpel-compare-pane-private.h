/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-compare-pane-private.h — CpelComparePane's instance struct and the
 * helpers shared by its parts:
 *
 *   cpel-compare-pane.c        the widget: files, filters, matches, the
 *                              range (its history is the session's), alignment, drawing
 *   cpel-compare-pane-input.c  wheel, keys, pointer, measuring drags,
 *                              clicks, the context menu and compare.* actions
 */
#pragma once

#include "cpel-compare-pane.h"

G_BEGIN_DECLS

struct _CpelComparePane
{
  GtkWidget        parent_instance;

  /* the alignment and the pairing (the view mirrors them) */
  CpelSession     *session;
  CpelFile        *a;
  CpelFile        *b;
  char            *name_a;
  char            *name_b;
  CpelCompareView  view;
  CpelCompareSide  last_selected;   /* the side selected last (the details pane's) */
  CpelSearchResult *matches_a;
  CpelSearchResult *matches_b;
  CpelOverview    *overview[2];     /* each side's density summary (the strip's) */
  /* the captures' label formats, each drawn on the side of its file */
  CpelLabels      *labels[2];
  /* each side's filters (the views point at them) */
  guint8          *hidden[2];
  guint           *rows[2];
  CpelPalette      light;
  CpelPalette      dark;
  double           pointer_x;
  double           pointer_y;
  GtkWidget       *context_menu;
  /* a measurement being dragged across the ruler */
  double           drag_x;
  gboolean         measuring;
  /* frames drawn and the last one's drawing time (`--benchmark --compare`) */
  guint            n_frames;
  gint64           last_frame_us;
};

/* cpel-compare-pane.c */
/* Sync B's view with A's, notify t0/t1 when `range` changed, redraw. */
void _cpel_compare_pane_changed        (CpelComparePane *self,
                                        gboolean         range);
/* history: 0 none, 1 a step, 2 continuous (coalesced) */
void _cpel_compare_pane_zoom           (CpelComparePane *self,
                                        double           factor,
                                        gint64           center,
                                        int              history);
void _cpel_compare_pane_pan            (CpelComparePane *self,
                                        double           fraction,
                                        int              history);
/* The cursor line at A's time t (has FALSE: none); notifies "cursor". */
void _cpel_compare_pane_set_cursor     (CpelComparePane *self,
                                        gboolean         has,
                                        gint64           t);
/* The one place that says which compare.* actions are enabled. */
void _cpel_compare_pane_update_actions (CpelComparePane *self);

/* cpel-compare-pane-input.c */
void _cpel_compare_pane_init_input     (CpelComparePane *self);
void _cpel_compare_pane_class_init_input (GtkWidgetClass *widget_class);

G_END_DECLS
