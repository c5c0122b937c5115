/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-settings.h — the span rules the viewer derives a capture's
 * spans by: the built-in rules but those the capture switched off, the
 * capture's own rules (its views file, cpel-views.h), then the rules of the
 * files given with `cpelview --rules FILE`.
 */
#pragma once

#include "cpel-session.h"
#include "cpel-span-rules.h"
#include "cpel-views.h"

G_BEGIN_DECLS

/* Reads a `--rules` file and keeps its rules for every capture opened
 * after (called before any window).  FALSE with the parser's error
 * ("FILE:LINE:COLUMN: …"); then nothing is kept. */
gboolean       cpel_span_settings_add_rules_file (const char  *path,
                                                  GError     **error);
/* The rules for these settings (disabled built-in ids and the capture's
 * rules text, either NULL), plus the --rules files'.  NULL with the error
 * of a bad `user_text` (source "your rules"). */
CpelSpanRules *cpel_span_settings_make_rules     (const char *const *disabled,
                                                  const char        *user_text,
                                                  GError           **error);
/* Sets `session`'s span rules from the settings `views` keeps (NULL: the
 * defaults).  Saved settings that no longer parse: the built-in rules
 * only, and FALSE with the error. */
gboolean       cpel_span_settings_apply          (CpelSession *session,
                                                  CpelViews   *views,
                                                  GError     **error);

G_END_DECLS
