/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-private.h — CpelWindow's instance struct and the helpers
 * shared by its parts:
 *
 *   cpel-window.c          the class: template, properties, status line, set_file
 *   cpel-window-actions.c  every win.* action (installed in class_init) and
 *                          _cpel_window_update_actions(), the one place
 *                          that says which are enabled
 *   cpel-window-load.c     opening a file in a worker
 *   cpel-window-export.c   the Open and Export choosers, exporting the view
 *   cpel-window-dnd.c      dropping files on the window
 *   cpel-window-chase.c    g2's chase (win.chase-*, win.no-chase)
 *   cpel-window-views.c    saved views (g2's snapshots)
 *   cpel-window-cut.c      Save Range As (win.save-range)
 *   cpel-window-watch.c    the file changed on disk: the reload bar, win.reload
 *   cpel-window-follow.c   following a capture while it is written (--follow)
 */
#pragma once

#include "cpel-window.h"
#include "cpel-window-test.h"
#include "cpel-compare-pane.h"
#include "cpel-compare-search.h"
#include "cpel-cut-dialog.h"
#include "cpel-live-capture.h"
#include "cpel-overview-strip.h"
#include "cpel-progress-relay.h"

G_BEGIN_DECLS

/* g2's chase: the lookup running in a worker (the track list before the
 * first chase is the session's). */
typedef struct
{
  CpelTrackOrder *order;        /* the order chased (the session's) */
  GCancellable   *cancellable;  /* the running lookup */
  guint           toast_id;     /* the chase's toast (cpel_toaster_withdraw) */
} CpelWindowChase;

/* The saved views of the capture shown. */
typedef struct
{
  CpelFile        *file;      /* the file the views belong to */
  CpelViews       *views;
  char            *pending;   /* view to show once loaded */
  GtkWindow       *list;      /* the Saved Views window (weak) */
  GtkNativeDialog *chooser;   /* export / import */
} CpelWindowViews;

/* Save Range As: the chooser and the cut being written. */
typedef struct
{
  GtkFileChooserNative *chooser;
  GCancellable         *cancellable;
  GFile                *target;
  CpelProgressRelay    *relay;
  CpelCutDialog        *progress_dialog;
  guint                 progress_timeout;
  char                 *error;
} CpelWindowCut;

/* The file on disk: a monitor, the damage check after each frame, a reload. */
typedef struct
{
  GFileMonitor  *monitor;
  char          *stamp;         /* the shown file on disk, before it was read */
  char          *reload_stamp;  /* the same for a reload in flight */
  char          *failed_stamp;  /* the same for the last reload that failed */
  guint          debounce;
  GCancellable  *reload;        /* a reload in flight */
  gboolean       changed_while_reloading;
  gboolean       damage_reported;   /* once per file: closing the bar sticks */
  GdkFrameClock *clock;
  gulong         paint_id;
} CpelWindowWatch;

/* Comparing with a second capture (cpel-window-compare.c). */
typedef struct
{
  CpelComparePane      *pane;         /* the "compare" page of main_stack, once made */
  CpelFile             *file_b;       /* loaded, waiting for A when A is still loading */
  GFile                *location_b;
  GCancellable         *cancellable;  /* B's load */
  GtkFileChooserNative *chooser;
  gulong                file_handler; /* notify::file while waiting for A */
  CpelCompareSearch    *search;       /* the search bar's query in both panes */
  GtkWidget            *page;         /* the "compare" page: strip, pane, status line */
  GtkWidget            *strip;        /* A and B on one axis (a CpelOverviewStrip) */
  GtkLabel             *range_label;  /* the compare view's status line */
  GtkLabel             *cursor_label;
  GtkLabel             *measure_label;
  CpelOverview         *overview_b;   /* B's density summary, from its load */
  CpelLabels           *labels_b;     /* B's label formats: its views file's, else defaults */
} CpelWindowCompare;

/* Following a capture while it is written (cpel-window-follow.c). */
typedef struct
{
  CpelLiveCapture      *capture;     /* NULL: the capture shown is not live */
  CpelLiveStatus        status;
  gboolean              following;   /* the newest events kept in sight */
  gint64                span;        /* how much of them; 0: all while short */
  gboolean              setting;     /* the range is changed by following */
  gboolean              updating;    /* set_file shows a newer capture of the same source */
  gboolean              syncing;     /* the buttons are set to the state */
  GtkWidget            *box;         /* in the header bar: Follow, Pause */
  GtkWidget            *follow_button;
  GtkWidget            *pause_button;
  GtkWidget            *label;       /* in the status line */
  AdwStatusPage        *waiting_page; /* main_stack's "waiting": no events yet */
  GtkFileChooserNative *chooser;     /* Save As */
} CpelWindowFollow;

struct _CpelWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkToggleButton      *search_button;
  GtkToggleButton      *details_button;
  GtkMenuButton        *menu_button;
  GMenuModel           *primary_menu;   /* menu_button's, given when it first opens */
  GMenu                *recent_submenu;
  GMenu                *open_section;
  CpelSearchBar        *search_bar;
  GtkInfoBar           *reload_bar;
  GtkLabel             *reload_label;
  GtkWidget            *reload_button;
  GtkInfoBar           *ticks_bar;         /* the times are ticks: "Set Clock Rate…" */
  GtkLabel             *ticks_label;
  GtkProgressBar       *load_progress;
  GtkStack             *main_stack;
  AdwStatusPage        *empty_page;
  AdwStatusPage        *loading_page;
  AdwStatusPage        *no_events_page;    /* a capture without events */
  GtkButton            *no_events_button;
  GtkProgressBar       *loading_progress;
  CpelOverviewStrip    *overview;
  CpelTimeline         *timeline;
  CpelSession          *session;           /* the timeline's, the tool windows' */
  GtkScrollbar         *vscrollbar;
  GtkRevealer          *details_revealer;
  CpelDetails          *details;
  GtkLabel             *range_label;
  GtkLabel             *cursor_label;
  GtkLabel             *measure_label;
  GtkLabel             *modes_label;
  GtkWidget            *clock_button;      /* win.capture-clock, with a tooltip */

  CpelFile             *file;
  GFile                *location;
  guint64               clock_rate;        /* the file was read with this clock; 0 = its own */

  GCancellable         *load_cancellable;
  GCancellable         *lod_cancellable;   /* summaries built in the background */
  CpelProgressRelay    *load_relay;

  gboolean              show_details;      /* the details pane is revealed */

  CpelToaster          *toaster;           /* every toast of the window */

  GtkNativeDialog      *chooser;           /* Open or Export */
  char                 *export_suggested;  /* the name the Export chooser offered */

  /* Tool windows (weak pointers: each goes away on its own). */
  GtkWindow            *event_types;
  GtkWindow            *tracks;
  GtkWindow            *statistics;
  GtkWindow            *anomalies;
  GtkWindow            *spans;

  CpelWindowChase       chase;
  CpelWindowViews       views;
  CpelWindowCut         cut;
  CpelWindowWatch       watch;
  CpelWindowCompare     compare;
  CpelWindowFollow      follow;

  /* What the subtitle says now (it follows every view change, and is only
   * written again when one of these changes). */
  CpelFile             *subtitle_file;   /* not a reference: compared only */
  guint                 subtitle_shown;
  guint                 subtitle_hidden_types;
  guint                 scrollbar_idle;
};

/* cpel-window.c */
/* Show an already loaded file (`overview`: its summary, or NULL to build
 * it now; `location` may be NULL). */
void       cpel_window_set_file          (CpelWindow   *self,
                                          CpelFile     *file,
                                          CpelOverview *overview,
                                          GFile        *location);
GSettings *_cpel_window_get_settings     (CpelWindow  *self);
char      *_cpel_window_display_name     (GFile       *location);
/* The main stack's page for the file shown: "empty" without one,
 * "no-events" for a capture without events, else "view". */
const char *_cpel_window_view_page       (CpelWindow  *self);
/* A's name (the file's, else its path, else "Untitled"). */
char      *_cpel_window_name_a           (CpelWindow  *self);
/* Title and subtitle: the capture shown, or both while comparing. */
void       _cpel_window_update_title     (CpelWindow  *self);
/* Where the saved views are kept, as a sentence (cpel-window-views.c). */
char      *_cpel_window_views_place      (CpelWindow  *self);
/* "“name”" for a dialog heading (markup): long names shortened in the
 * middle, never hyphenated (cpel-window-load.c). */
char      *_cpel_window_heading_name_markup (const char *name);
/* Show the tool window in *slot (a weak pointer), made by `create` the
 * first time; nothing without a file. */
void       _cpel_window_present_tool     (CpelWindow  *self,
                                          GtkWindow  **slot,
                                          GtkWindow  *(*create) (CpelWindow *self));
void       _cpel_window_notify_loading   (CpelWindow  *self);
void       _cpel_window_set_show_details (CpelWindow  *self,
                                          gboolean     show);

void       _cpel_window_on_ticks_bar_response (CpelWindow *self,
                                               int         response);

/* The status line's texts, for the single view and the compare view: a
 * time as precise as a pixel of a view of [t0, t1) `pixels` wide, on a
 * capture's clock when `clock` is one (`origin`: its reading at 0; the
 * wall clock's date only when `date`), the visible range "start – end
 * (span)", "Cursor time", a measured Δt. */
char      *_cpel_window_format_status_time (CpelFile      *file,
                                            CpelClockKind  clock,
                                            gint64         origin,
                                            gint64         t,
                                            gint64         t0,
                                            gint64         t1,
                                            double         pixels,
                                            gboolean       date);
char      *_cpel_window_range_text       (CpelFile      *file,
                                          CpelClockKind  clock,
                                          gint64         origin,
                                          gint64         t0,
                                          gint64         t1,
                                          double         pixels);
char      *_cpel_window_cursor_text      (CpelFile      *file,
                                          CpelClockKind  clock,
                                          gint64         origin,
                                          gint64         t,
                                          gint64         t0,
                                          gint64         t1,
                                          double         pixels);
char      *_cpel_window_delta_text       (CpelFile      *file,
                                          gint64         dt);

/* The details pane anew: the single view's selection or the compare
 * pane's. */
void       _cpel_window_update_details   (CpelWindow  *self);

/* cpel-window-actions.c */
void       _cpel_window_class_actions_init (CpelWindowClass *klass);
void       _cpel_window_update_actions     (CpelWindow      *self);
/* Whether win.NAME can be used now (what _cpel_window_update_actions sets). */
gboolean   _cpel_window_action_enabled     (CpelWindow      *self,
                                            const char      *name);
/* Whether an importer of this build reads folders (win.open-folder). */
gboolean   _cpel_window_can_open_folders   (void);
void       _cpel_window_add_timeline_keys  (CpelWindow      *self);
/* The tool windows a new file opens again (see set_file). */
GtkWindow *_cpel_window_new_event_types    (CpelWindow      *self);
GtkWindow *_cpel_window_new_tracks         (CpelWindow      *self);

/* cpel-window-load.c */
void       _cpel_window_load_dispose     (CpelWindow  *self);
void       _cpel_window_cancel_load      (CpelWindow  *self);
/* A file could not be read: a dialog "Could Not Open “name”" (`compare`:
 * "Could Not Compare With “name”") saying plainly what is wrong, the
 * technical detail below it. */
void       _cpel_window_show_load_error  (CpelWindow  *self,
                                          GFile       *location,
                                          GError      *error,
                                          gboolean     compare);

/* cpel-window-export.c */
void       _cpel_window_choose_open      (CpelWindow  *self);
void       _cpel_window_choose_open_folder (CpelWindow *self);
void       _cpel_window_choose_export    (CpelWindow  *self);
void       _cpel_window_export_and_report (CpelWindow *self,
                                           const char *path,
                                           double      scale,
                                           gboolean    overwrite);

/* cpel-window-compare.c */
void       _cpel_window_compare_dispose   (CpelWindow  *self);
void       _cpel_window_choose_compare    (CpelWindow  *self);
void       _cpel_window_swap_compare      (CpelWindow  *self);
void       _cpel_window_toggle_paired     (CpelWindow  *self);
gboolean   _cpel_window_set_compare_offset (CpelWindow *self,
                                            const char *later_by);
void       _cpel_window_ask_compare_offset (CpelWindow *self);

/* cpel-window-dnd.c */
void       _cpel_window_dnd_init         (CpelWindow  *self);

/* cpel-window-chase.c */
typedef enum
{
  CPEL_WINDOW_CHASE_EVENT,
  CPEL_WINDOW_CHASE_DATUM,
  CPEL_WINDOW_CHASE_TRACK,
} CpelWindowChaseKind;

void       _cpel_window_chase_file_changed (CpelWindow          *self);
void       _cpel_window_chase_dispose      (CpelWindow          *self);
void       _cpel_window_chase              (CpelWindow          *self,
                                            CpelWindowChaseKind  kind);
void       _cpel_window_no_chase           (CpelWindow          *self);

/* cpel-window-views.c */
void       _cpel_window_views_file_changed (CpelWindow  *self);
void       _cpel_window_views_dispose      (CpelWindow  *self);
void       _cpel_window_views_finalize     (CpelWindow  *self);
void       _cpel_window_views_save_dialog  (CpelWindow  *self);
void       _cpel_window_views_step         (CpelWindow  *self,
                                            int          direction);
void       _cpel_window_views_write        (CpelWindow  *self,
                                            gboolean     report);
void       _cpel_window_views_reread       (CpelWindow  *self);
void       _cpel_window_views_show         (CpelWindow  *self,
                                            const char  *name);
void       _cpel_window_views_delete       (CpelWindow  *self,
                                            const char  *name);
void       _cpel_window_views_present_list (CpelWindow  *self);
void       _cpel_window_views_choose_file  (CpelWindow  *self,
                                            gboolean     export);

/* cpel-window-cut.c */
/* Save Range As: write the visible range of the file to `target`
 * (replacing it: the chooser confirmed); `visible_tracks_only`: the shown
 * rows only.  Progress shows after a moment; the outcome is a toast. */
void       cpel_window_save_range          (CpelWindow  *self,
                                            GFile       *target,
                                            gboolean     visible_tracks_only);
void       _cpel_window_cut_dispose        (CpelWindow  *self);
void       _cpel_window_cut_choose         (CpelWindow  *self);

/* cpel-window-follow.c */
void       _cpel_window_follow_class_init  (CpelWindowClass *klass);
void       _cpel_window_follow_init        (CpelWindow      *self);
void       _cpel_window_follow_dispose     (CpelWindow      *self);
/* Another file shown (not a newer capture of the one followed): following ends. */
void       _cpel_window_follow_file_changed (CpelWindow     *self);

/* cpel-window-watch.c */
void       _cpel_window_watch_init         (CpelWindow  *self);
void       _cpel_window_watch_file_changed (CpelWindow  *self);
void       _cpel_window_watch_dispose      (CpelWindow  *self);
void       _cpel_window_watch_finalize     (CpelWindow  *self);
void       _cpel_window_watch_reload       (CpelWindow  *self);
void       _cpel_window_on_reload_bar_response (CpelWindow *self,
                                                int         response);

G_END_DECLS
