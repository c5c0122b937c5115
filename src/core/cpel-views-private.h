/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-views-private.h — the views file format, shared by CpelViews and
 * its GKeyFile (de)serialisation (cpel-views-keyfile.c) */
#pragma once

#include "cpel-views.h"

G_BEGIN_DECLS

/* At most this many views in a file or a CpelViews. */
#define CPEL_VIEWS_MAX 10000

/* A capture's span settings, kept in its views file's [Spans] group:
 *   UserRules=the user's rules text (GKeyFile escapes: \n a newline)
 *   DisabledRules=the ids of the built-in rules switched off, one a line
 * NULL members: none.  Both NULL: no [Spans] group.
 * And its label formats (cpel-labels.h), in the [Labels] group:
 *   Formats=type name;format;type name;format;…   (a string list)
 * NULL: none, no [Labels] group. */
typedef struct
{
  char  *user_rules;
  char **disabled;
  char **labels;
} CpelViewsSpanSettings;

void       cpel_views_span_settings_clear (CpelViewsSpanSettings *s);

/* As below, and the span settings (`spans` may be NULL). */
GPtrArray *cpel_views_read_file_full  (const char            *path,
                                       int                   *current,
                                       CpelViewsSpanSettings *spans,
                                       GError               **error);
gboolean   cpel_views_write_file_full (const char                  *path,
                                       GPtrArray                   *views,
                                       int                          current,
                                       const CpelViewsSpanSettings *spans,
                                       GError                     **error);

/* Reads a views file (at most CPEL_VIEWS_MAX_FILE_SIZE octets, strictly
 * parsed): its views (CpelSavedView*, owning, in file order) and current
 * index (-1 = none).  NULL with an error naming the path. */
GPtrArray *cpel_views_read_file  (const char  *path,
                                  int         *current,
                                  GError     **error);
/* Writes `views` (CpelSavedView*) and `current` atomically. */
gboolean   cpel_views_write_file (const char  *path,
                                  GPtrArray   *views,
                                  int          current,
                                  GError     **error);

G_END_DECLS
