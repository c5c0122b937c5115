/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window.h — a viewer window: one file, its timeline, search and details */
#pragma once

#include <adwaita.h>

#include "cpel-application.h"
#include "cpel-details.h"
#include "cpel-search-bar.h"
#include "cpel-timeline.h"
#include "cpel-toaster.h"

G_BEGIN_DECLS

#define CPEL_TYPE_WINDOW (cpel_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelWindow, cpel_window, CPEL, WINDOW, AdwApplicationWindow)

CpelWindow    *cpel_window_new           (CpelApplication *application);

/* Load `location` in a worker; shown here when this window has no file yet,
 * else in a new window.  Errors are reported in this window. */
void           cpel_window_open          (CpelWindow      *self,
                                          GFile           *location);
/* The same, reading every event section with `clock_rate` ticks per second
 * (0: the file's own clock); the window's own file read again with another
 * rate replaces it in this window. */
void           cpel_window_open_with_clock_rate (CpelWindow *self,
                                                 GFile      *location,
                                                 guint64     clock_rate);
/* A small dialog asking for the clock rate ("2.6GHz", "1e9") to open
 * `location` with (`suggested`, when not 0, filled in). */
void           cpel_window_ask_clock_rate (CpelWindow     *self,
                                           GFile          *location,
                                           guint64         suggested);
/* The rate the shown file was read with; 0: its own clock. */
guint64        cpel_window_get_clock_rate (CpelWindow     *self);
/* Show an already loaded file (`overview`: its summary, or NULL to build
 * it now; `location` may be NULL). */
void           cpel_window_set_file      (CpelWindow      *self,
                                          CpelFile        *file,
                                          CpelOverview    *overview,
                                          GFile           *location);
CpelFile      *cpel_window_get_file      (CpelWindow      *self);
GFile         *cpel_window_get_location  (CpelWindow      *self);
gboolean       cpel_window_is_loading    (CpelWindow      *self);

/* Export the current view (format from the suffix) at the timeline's size,
 * `scale` device pixels per logical one (0: the screen's scale factor). */
gboolean       cpel_window_export        (CpelWindow      *self,
                                          const char      *path,
                                          double           scale,
                                          gboolean         overwrite,
                                          GError         **error);

/* The Open dialog's filters (GtkFileFilter, newly made): "All supported
 * event logs" (the one selected), one per format of the importer table
 * (CPEL first; CTF's matches a trace's "metadata" file, which opens the
 * trace), then "All Files". */
GListModel    *cpel_window_new_open_filters (void);

CpelTimeline  *cpel_window_get_timeline  (CpelWindow      *self);
CpelSearchBar *cpel_window_get_search_bar (CpelWindow     *self);
CpelDetails   *cpel_window_get_details   (CpelWindow      *self);
/* Every toast of the window goes through it. */
CpelToaster   *cpel_window_get_toaster   (CpelWindow      *self);
/* The window's win.* actions (widget actions) as a GActionGroup: its tool
 * windows insert it as "win"; tests ask it which are enabled. */
GActionGroup  *cpel_window_get_actions   (CpelWindow      *self);

/* The tool windows made so far (NULL before the first use). */
GtkWindow     *cpel_window_get_statistics (CpelWindow     *self);
GtkWindow     *cpel_window_get_anomalies (CpelWindow      *self);

/* g2's chase (win.chase-event, -datum, -track, win.no-chase): whether one
 * is in effect (win.no-chase would undo it), whether a lookup is running. */
gboolean       cpel_window_is_chasing    (CpelWindow      *self);
gboolean       cpel_window_is_chase_busy (CpelWindow      *self);

/* Saved views (g2's snapshots) of the capture shown: a sidecar next to it,
 * or the user data dir; loaded when a file is shown, saved after every
 * change.  NULL without a file on disk. */
CpelViews     *cpel_window_get_views     (CpelWindow      *self);
/* What the window shows now, as a view named `name`. */
CpelSavedView *cpel_window_capture_view  (CpelWindow      *self,
                                          const char      *name);
/* Show `view`: time range (back in zoom history returns), tracks, hidden
 * event types, selection, scroll. */
void           cpel_window_apply_view    (CpelWindow          *self,
                                          const CpelSavedView *view);
/* Save what is shown under `name` (replacing a view of that name) and
 * write the views file.  FALSE with an error when writing failed (the view
 * is kept in the list). */
gboolean       cpel_window_save_view     (CpelWindow      *self,
                                          const char      *name,
                                          GError         **error);
/* Show the view `name` once the window's file is loaded (now when it is);
 * a toast when the capture has no such view.  (`cpelview --view NAME`) */
void           cpel_window_open_view     (CpelWindow      *self,
                                          const char      *name);
/* A name no view has: "View N". */
char          *cpel_window_new_view_name (CpelWindow      *self);

/* Save Range As: write the visible range of the file to `target`
 * (replacing it: the chooser confirmed); `visible_tracks_only`: the shown
 * rows only.  Progress shows after a moment; the outcome is a toast. */
void           cpel_window_save_range    (CpelWindow      *self,
                                          GFile           *target,
                                          gboolean         visible_tracks_only);
/* TRUE while a range is being written. */
gboolean       cpel_window_is_saving_range (CpelWindow    *self);
/* The last finished cut's error message, or NULL when it succeeded (or
 * none ran). */
const char    *cpel_window_get_save_range_error (CpelWindow *self);

/* The bar saying that the file changed on disk (win.reload): whether it is
 * shown, and its message (tests). */
gboolean       cpel_window_is_reload_bar_shown (CpelWindow *self);
const char    *cpel_window_get_reload_message  (CpelWindow *self);
/* A change seen on disk waits out its debounce before the window looks at
 * the file (tests wait for it to pass). */
gboolean       cpel_window_is_watch_pending    (CpelWindow *self);

/* The status line's texts (tests). */
const char    *cpel_window_get_status    (CpelWindow      *self,
                                          const char      *which);   /* "range", "cursor", "measure" */

/* Compare the shown capture (A) with `b` in two panes under one ruler
 * (cpel-window-compare.c).  B is read in a worker; when it cannot be read,
 * A stays and a message names B.  Before A is loaded, B waits for it. */
void           cpel_window_compare_with  (CpelWindow      *self,
                                          GFile           *b);
/* Back to the single view of A. */
void           cpel_window_close_compare (CpelWindow      *self);
gboolean       cpel_window_is_comparing  (CpelWindow      *self);
/* B once read (NULL while it is read, or without one). */
CpelFile      *cpel_window_get_compare_file (CpelWindow     *self);
/* The compare view's widget (NULL before the first comparison). */
GtkWidget     *cpel_window_get_compare_pane (CpelWindow   *self);
/* TRUE while B is being read. */
gboolean       cpel_window_is_loading_compare (CpelWindow *self);

G_END_DECLS
