/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-watch.h — noticing that the open file changed on disk
 *
 * Watches the window's file (GFileMonitor, debounced) and checks after
 * every painted frame whether the mapping was damaged (the file shrank
 * under the view: cpel_file_is_damaged()).  Either shows a bar under the
 * header, "The file changed on disk", with a Reload button (win.reload):
 * the same path loads again in a worker; on success it replaces the view,
 * keeping the visible range and the selection when they still fit; on
 * error the previous view stays and the bar says why.
 */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

/* Adds the bar and win.reload to `window` (once, from its init). */
void     cpel_file_watch_install        (CpelWindow *window);

/* Tests: whether the bar is shown, and its message. */
gboolean    cpel_file_watch_is_shown    (CpelWindow *window);
const char *cpel_file_watch_get_message (CpelWindow *window);

G_END_DECLS
