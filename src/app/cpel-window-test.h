/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-test.h — what the tests ask a CpelWindow, beyond its public
 * header (cpel-window.h).  Included by tests only; implemented in the
 * window's own files. */
#pragma once

#include "cpel-window.h"
#include "cpel-details.h"

G_BEGIN_DECLS

/* Whether win.NAME (`name` without "win.") can be used now. */
gboolean       cpel_window_get_action_enabled (CpelWindow *self,
                                               const char *name);

/* The rate the shown file was read with; 0: its own clock. */
guint64        cpel_window_get_clock_rate (CpelWindow     *self);
/* The Open dialog's filters (GtkFileFilter, newly made): "All supported
 * event logs" (the one selected), one per format of the importer table
 * (CPEL first; CTF's matches a trace's "metadata" file, which opens the
 * trace), then "All Files". */
GListModel    *cpel_window_new_open_filters (void);

/* Export the current view (format from the suffix) at the timeline's size,
 * `scale` device pixels per logical one (0: the screen's scale factor);
 * what win.export-to does, with the error returned. */
gboolean       cpel_window_export        (CpelWindow      *self,
                                          const char      *path,
                                          double           scale,
                                          gboolean         overwrite,
                                          GError         **error);

CpelDetails   *cpel_window_get_details   (CpelWindow      *self);
/* The status line's texts. */
const char    *cpel_window_get_range_text   (CpelWindow   *self);
const char    *cpel_window_get_cursor_text  (CpelWindow   *self);
const char    *cpel_window_get_measure_text (CpelWindow   *self);
/* The modes shown ("Summary", "Colored by track"), "" when none. */
const char    *cpel_window_get_modes_text   (CpelWindow   *self);

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
/* A name no view has: "View N". */
char          *cpel_window_new_view_name (CpelWindow      *self);

/* Save Range As (win.save-range-to): TRUE while a range is being written;
 * the last finished cut's error message, or NULL when it succeeded (or
 * none ran). */
gboolean       cpel_window_is_saving_range (CpelWindow    *self);
const char    *cpel_window_get_save_range_error (CpelWindow *self);

/* The bar saying that the file changed on disk (win.reload): whether it is
 * shown, and its message. */
gboolean       cpel_window_is_reload_bar_shown (CpelWindow *self);
const char    *cpel_window_get_reload_message  (CpelWindow *self);
/* A change seen on disk waits out its debounce before the window looks at
 * the file (tests wait for it to pass). */
gboolean       cpel_window_is_watch_pending    (CpelWindow *self);

/* The bar saying that the times are clock ticks ("Set Clock Rate…"). */
gboolean       cpel_window_is_ticks_bar_shown  (CpelWindow *self);

/* B once read (NULL while it is read, or without one). */
CpelFile      *cpel_window_get_compare_file (CpelWindow     *self);
/* The compare view's overview strip (NULL before the first compare). */
GtkWidget     *cpel_window_get_compare_strip (CpelWindow    *self);
/* Back to the single view of A (win.close-compare). */
void           cpel_window_close_compare (CpelWindow      *self);

/* Following (cpel-window-follow.c): whether the capture shown is live,
 * whether the newest events are kept in sight, the status line's text
 * about it; Save As without the chooser (synchronous). */
gboolean       cpel_window_is_live        (CpelWindow     *self);
gboolean       cpel_window_get_following  (CpelWindow     *self);
const char    *cpel_window_get_follow_text (CpelWindow    *self);
gboolean       cpel_window_save_capture   (CpelWindow     *self,
                                           const char     *path,
                                           GError        **error);

G_END_DECLS
