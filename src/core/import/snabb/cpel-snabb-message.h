/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-snabb-message.h — a Snabb timeline message and argument, as text
 *
 * Shared by the importer and the ring follower (doc/import-formats.md,
 * section 2): a message of the string table parsed into its name, track
 * label and argument names; a number printed in its shortest exact form.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CPEL_SNABB_MAX_ARGS 6

typedef struct
{
  gboolean  valid;
  char     *name;        /* category.event */
  char     *track;       /* category + attribute values */
  guint32   track_id;
  char     *arg_names[CPEL_SNABB_MAX_ARGS];
  guint     n_args;
  guint     level, rate;
  gboolean  is_mono;     /* engine.got_monotonic_time */
} CpelSnabbMessage;

/* Frees the strings of *m (not m itself). */
void     cpel_snabb_message_clear  (CpelSnabbMessage *m);
/* Parses "<level>,<rate>|<category>.<event>[ key=value…]: <arg names>"
 * (the first line of s[0..len)) into the zeroed *m; FALSE when it is not
 * a message (m->valid stays FALSE).  Sets neither track_id nor is_mono. */
gboolean cpel_snabb_message_parse  (const char       *s,
                                    gsize             len,
                                    CpelSnabbMessage *m);
/* The shortest text that reads back as x; integral values as integers. */
void     cpel_snabb_append_number  (GString          *out,
                                    double            x);

G_END_DECLS
