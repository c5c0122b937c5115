/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-spans-window.h — the Spans window: the span rules of the session's
 * capture, each with its span and orphan counts; switch built-in rules
 * off, write your own (checked as you type, errors with line and column).
 */
#pragma once

#include <adwaita.h>

#include "cpel-session.h"

G_BEGIN_DECLS

#define CPEL_TYPE_SPANS_WINDOW (cpel_spans_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelSpansWindow, cpel_spans_window, CPEL, SPANS_WINDOW, AdwWindow)

/* Follows `session`'s "span-rules", "spans" and "views"; what it applies
 * becomes the session's span rules and is saved with the capture's views.
 * Transient for `parent`. */
CpelSpansWindow *cpel_spans_window_new         (CpelSession     *session,
                                                GtkWindow       *parent);
CpelSession     *cpel_spans_window_get_session (CpelSpansWindow *self);
/* For tests: the built-in rules' ids listed, the switch of one (NULL when
 * not listed), the editor's buffer, the status line's text, and the rows
 * of the user's rules (titles and subtitles). */
guint            cpel_spans_window_get_n_builtin (CpelSpansWindow *self);
const char      *cpel_spans_window_get_builtin_id (CpelSpansWindow *self, guint i);
GtkSwitch       *cpel_spans_window_get_switch    (CpelSpansWindow *self, const char *id);
/* The subtitle of a built-in rule's row ("12 spans · 1 orphan begin …"). */
const char      *cpel_spans_window_get_counts    (CpelSpansWindow *self, const char *id);
GtkTextBuffer   *cpel_spans_window_get_buffer    (CpelSpansWindow *self);
const char      *cpel_spans_window_get_status    (CpelSpansWindow *self);

G_END_DECLS
