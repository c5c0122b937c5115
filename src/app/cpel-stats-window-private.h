/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-window-private.h — CpelStatsWindow's instance struct and the
 * helpers shared by its parts:
 *
 *   cpel-stats-window.c          the class: template, counting in a worker,
 *                                the Event Codes and Tracks pages
 *   cpel-stats-window-compare.c  the Compare and Compare Tracks pages (two
 *                                captures) and the interval histogram
 *   cpel-stats-window-export.c   Copy as Text, the file choosers and what
 *                                they write (CSV of a table, histogram PNG)
 *   cpel-stats-window-spans.c    the Spans and Thread States pages
 *   cpel-stats-window-functions.c  the Functions page (perf record -g
 *                                call chains)
 */
#pragma once

#include "cpel-stats-window.h"
#include "cpel-render.h"
#include "cpel-table.h"
#include "cpel-toaster.h"
/* The parent window: its search bar and, while it compares, its panes. */
#include "cpel-window.h"

G_BEGIN_DECLS

/* What a file chooser's "Save" writes: `chooser` for its choices. */
typedef gboolean (*CpelStatsSaveFunc) (CpelStatsWindow  *self,
                                       GtkFileChooser   *chooser,
                                       GFile            *file,
                                       GError          **error);

struct _CpelStatsWindow
{
  AdwWindow            parent_instance;

  /* Template */
  AdwViewSwitcherTitle *switcher_title;
  GtkButton           *refresh_button;
  GtkButton           *save_button;
  GtkButton           *copy_button;
  AdwToastOverlay     *toast_overlay;
  CpelToaster         *toaster;
  GtkStack            *state_stack;
  GtkSpinner          *spinner;
  AdwStatusPage       *error_page;
  GtkLabel            *range_label;
  GtkLabel            *summary_label;
  AdwViewStack        *view_stack;
  GtkColumnView       *codes_view;
  GtkColumnView       *tracks_view;
  AdwViewStackPage    *compare_page;
  AdwViewStackPage    *compare_tracks_page;
  GtkColumnView       *compare_view;
  GtkColumnView       *compare_tracks_view;
  GtkDrawingArea      *histogram_area;
  AdwViewStackPage    *spans_page;
  AdwViewStackPage    *states_page;
  GtkBox              *spans_box;
  GtkColumnView       *spans_view;
  GtkColumnView       *states_view;
  AdwViewStackPage    *functions_page;
  GtkColumnView       *functions_view;

  CpelSession         *session;
  CpelFile            *file;         /* the file the statistics are about */
  CpelStats           *stats;
  gboolean             measured;     /* the range came from the ruler */
  CpelDiff            *diff;         /* while comparing: A (the pane's top) with B */
  char                *name_a;
  char                *name_b;
  gboolean             compare_hidden; /* event types hidden in the panes are not counted */

  GListStore          *codes;
  GListStore          *tracks;
  GtkSortListModel    *sorted_codes;
  GtkSortListModel    *sorted_tracks;
  GListStore          *diff_events;
  GListStore          *diff_tracks;
  GtkSortListModel    *sorted_diff_events;
  GtkSortListModel    *sorted_diff_tracks;

  /* The Spans pages: the summary of the range and tracks counted. */
  CpelSpanSummary     *span_summary;
  gint64               span_t0;
  gint64               span_t1;
  guint               *span_slots;   /* NULL: every track */
  guint                span_n_slots;
  GListStore          *span_rows;
  GListStore          *state_rows;
  GtkSortListModel    *sorted_spans;   /* the span names' rows, each with its tracks' */
  GtkSortListModel    *sorted_states;

  /* The Functions page: the call chains' functions of the range. */
  CpelTop             *top;
  GListStore          *function_rows;
  GtkSortListModel    *sorted_functions;

  GCancellable        *cancellable;          /* the event statistics being counted */
  GCancellable        *span_cancellable;     /* the Spans pages' count, apart from them */
  gboolean             spans_apart;          /* the Spans pages counted by a task of their own */
  gboolean             failed;               /* the error page shown */
  guint                scope_id;             /* a recount once the range holds still */
  guint8              *counted_hidden;       /* the hidden types counted without, or NULL */
  GCancellable        *longest_cancellable;  /* a Spans row's longest span looked for */
  /* one file chooser at a time; what its Save writes */
  GtkFileChooserNative *chooser;
  CpelStatsSaveFunc    chooser_save;
  CpelDiffBy           chooser_by;   /* the Compare table a comparison chooser saves */
  CpelSpanTable        chooser_span_table;  /* the Spans table a spans chooser saves */
};

/* cpel-stats-window.c */
CpelTableRow      *_cpel_stats_window_row_at          (GtkColumnView   *view,
                                                       guint            position);
GtkSortListModel  *_cpel_stats_window_setup_view      (GtkColumnView   *view,
                                                       GListStore      *store);
/* The same for rows with children (cpel_table_tree_model_new ()). */
GtkSortListModel  *_cpel_stats_window_setup_tree_view (GtkColumnView   *view,
                                                       GListStore      *store);
void               _cpel_stats_window_append_column   (GtkColumnView   *view,
                                                       const char      *title,
                                                       guint            cell,
                                                       gboolean         numeric,
                                                       gboolean         expand);

/* cpel-stats-window-compare.c */
void               _cpel_stats_window_init_compare    (CpelStatsWindow *self);
void               _cpel_stats_window_fill_diff_tables (CpelStatsWindow *self);
void               _cpel_stats_window_update_compare_texts (CpelStatsWindow *self);
/* the Compare page shown (a CpelDiffBy), or -1 */
int                _cpel_stats_window_current_compare (CpelStatsWindow *self);
/* the Compare page's selected row of the diff, or NULL */
const CpelDiffRow *_cpel_stats_window_selected_diff_row (CpelStatsWindow *self);
void               _cpel_stats_window_render_histogram (CpelStatsWindow   *self,
                                                        const CpelDiffRow *row,
                                                        cairo_t           *cr,
                                                        int                width,
                                                        int                height,
                                                        const CpelPalette *palette);

/* cpel-stats-window-spans.c */
void               _cpel_stats_window_init_spans      (CpelStatsWindow *self);
void               _cpel_stats_window_fill_span_tables (CpelStatsWindow *self);
void               _cpel_stats_window_clear_span_tables (CpelStatsWindow *self);
void               _cpel_stats_window_action_distribution (GtkWidget  *widget,
                                                          const char *action_name,
                                                          GVariant   *parameter);
gboolean           _cpel_stats_window_find_longest    (CpelStatsWindow    *self,
                                                       const char         *name,
                                                       gboolean            state,
                                                       guint               slot,
                                                       CpelSessionSpanRef *ref);

/* cpel-stats-window-functions.c */
void               _cpel_stats_window_init_functions  (CpelStatsWindow *self);
/* Shows `top` (taken; NULL: the page hides). */
void               _cpel_stats_window_set_functions   (CpelStatsWindow *self,
                                                       CpelTop         *top);

/* cpel-stats-window-export.c: the template's buttons and stats.copy */
void               _cpel_stats_window_copy_clicked    (CpelStatsWindow *self);
void               _cpel_stats_window_save_clicked    (CpelStatsWindow *self);
void               _cpel_stats_window_save_histogram_clicked (CpelStatsWindow *self);
void               _cpel_stats_window_action_copy     (GtkWidget       *widget,
                                                       const char      *action_name,
                                                       GVariant        *parameter);

G_END_DECLS
