/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window.h — a viewer window: one file, its timeline, search and details */
#pragma once

#include <adwaita.h>

#include "cpel-application.h"
#include "cpel-search-bar.h"
#include "cpel-timeline.h"
#include "cpel-toaster.h"

G_BEGIN_DECLS

#define CPEL_TYPE_WINDOW (cpel_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelWindow, cpel_window, CPEL, WINDOW, AdwApplicationWindow)

CpelWindow    *cpel_window_new           (CpelApplication *application);

/* Load `location` in a worker, reading every event section with
 * `clock_rate` ticks per second (0: the file's own clock); shown here when
 * this window has no file yet (or it is this window's own file read again
 * with another rate), else in a new window.  Errors are reported in this
 * window. */
void           cpel_window_open          (CpelWindow      *self,
                                          GFile           *location,
                                          guint64          clock_rate);
/* A small dialog asking for the clock rate ("2.6GHz", "1e9") to open
 * `location` with (`suggested`, when not 0, filled in). */
void           cpel_window_ask_clock_rate (CpelWindow     *self,
                                           GFile          *location,
                                           guint64         suggested);
/* Follow SOURCE while it is written (`cpelview --follow`): a Snabb
 * timeline ring file, `snabb:PID`, or a CPEL file that grows; the newest
 * events kept in sight until the user pans or zooms (win.follow brings it
 * back).  FALSE with an error (CPEL_ERROR) when it cannot be read. */
gboolean       cpel_window_follow        (CpelWindow      *self,
                                          const char      *source,
                                          guint64          clock_rate,
                                          GError         **error);
CpelFile      *cpel_window_get_file      (CpelWindow      *self);
GFile         *cpel_window_get_location  (CpelWindow      *self);
gboolean       cpel_window_is_loading    (CpelWindow      *self);
/* Show the view `name` once the window's file is loaded (now when it is);
 * a toast when the capture has no such view.  (`cpelview --view NAME`) */
void           cpel_window_open_view     (CpelWindow      *self,
                                          const char      *name);

CpelTimeline  *cpel_window_get_timeline  (CpelWindow      *self);
CpelSearchBar *cpel_window_get_search_bar (CpelWindow     *self);
/* Every toast of the window goes through it. */
CpelToaster   *cpel_window_get_toaster   (CpelWindow      *self);

/* Compare the shown capture (A) with `b` in two panes under one ruler
 * (cpel-window-compare.c).  B is read in a worker; when it cannot be read,
 * A stays and a message names B.  Before A is loaded, B waits for it. */
void           cpel_window_compare_with  (CpelWindow      *self,
                                          GFile           *b);
/* Whether the two panes show (B read, the compare view up). */
gboolean       cpel_window_is_comparing  (CpelWindow      *self);
/* TRUE while B is being read. */
gboolean       cpel_window_is_loading_compare (CpelWindow *self);
/* The compare view's widget, a CpelComparePane (NULL before the first
 * comparison). */
GtkWidget     *cpel_window_get_compare_pane (CpelWindow   *self);

G_END_DECLS
