/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cut-dialog.h — "Save Range As…": the visible time range of a
 * window's file (optionally its visible tracks only) written as a new CPEL
 * file by cpel_cut_write, in a worker, with progress; the new file can be
 * opened from the toast that follows.
 */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

/* Start writing the visible range of `window`'s file to `target`
 * (replacing it: the chooser confirmed); `visible_tracks_only`: the shown
 * rows only.  Progress shows after a moment; the outcome is a toast. */
void     cpel_cut_dialog_save     (CpelWindow *window,
                                   GFile      *target,
                                   gboolean    visible_tracks_only);
/* TRUE while a cut of `window` is being written. */
gboolean cpel_cut_dialog_is_busy  (CpelWindow *window);
/* The last finished cut's error message, or NULL when it succeeded (or
 * none ran). */
const char *cpel_cut_dialog_get_error (CpelWindow *window);

/* Add win.save-range (the file chooser) and win.save-range-to ("(sb)":
 * path, visible tracks only; no chooser, for scripts and tests). */
void     cpel_cut_dialog_install  (CpelWindow *window);

G_END_DECLS
