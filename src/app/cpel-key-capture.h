/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-key-capture.h — the timeline's keys from anywhere in its window
 *
 * After the main menu, a header button or the details pane took the
 * keyboard focus, g2's keys (w/s/a/d, +/-, 0, t/g, e/c, x/z, h/u, …) still
 * act on the timeline: a key press nothing else in the window handled is
 * forwarded to it.  Not forwarded: keys with Ctrl, Alt or Super (the
 * application's accelerators), keys typed into a text field, and the keys
 * other widgets navigate with (Tab, arrows, Enter, Space, Escape, Menu).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Forwards the key presses that reach `window` unhandled to `target`. */
void cpel_key_capture_install (GtkWindow *window,
                               GtkWidget *target);

/* A controller for the window of `bar`: while the bar is in search mode
 * but `entry` (its focus) is not mapped yet — Ctrl+F and typing at once:
 * the bar's revealer maps it a frame or two later — GTK would drop the
 * key presses; this gives them to the entry: its key bindings (BackSpace,
 * Return, Escape…), then its typing.  Add it to the window. */
GtkEventController *cpel_key_capture_new_search_keys (GtkSearchBar *bar,
                                                      GtkEditable  *entry);

G_END_DECLS
