/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-labels.h — which fields of an event make its label, per event type
 *
 * An event's text (its datum as shown: an imported event's own text, else
 * its decoded datum) is read as fields:
 *
 *   - `name=value` and `name = value` parts (perf tracepoints, CTF payloads;
 *     a value runs to the next field, a quoted value loses its quotes, a
 *     bracketed one is kept whole);
 *   - a perf.data sample's `PID/TID IP SYMBOL (DSO)`: pid, tid, ip, symbol
 *     and dso.
 *
 * A label format names fields in braces, the rest is copied:
 * "{prev_comm} [{prev_pid}] → {next_comm} [{next_pid}]".  `{event}` is the
 * type's name and `{text}` the whole text (unless the text has fields of
 * those names).  An event that lacks a field of the format keeps the whole
 * label ("name: text"), as does a type without a format ("").
 *
 * Defaults, per format: perf samples show "{symbol} ({dso})"; sched_switch
 * (perf, CTF) "{prev_comm} [{prev_pid}] → {next_comm} [{next_pid}]" (LTTng's
 * kernel tracer: prev_tid, next_tid);
 * LTTng's lttng_ust_tracef / lttng_ust_tracelog "{msg}".  The user's formats
 * (per type name, kept with the capture's views) replace them.
 *
 * A CpelLabels is immutable once made: any thread may read it.
 */
#pragma once

#include "cpel-file.h"

G_BEGIN_DECLS

/* At most this many fields are read from a text, and user formats kept. */
#define CPEL_LABELS_MAX_FIELDS  64
#define CPEL_LABELS_MAX_FORMATS 4096

typedef struct
{
  const char *name;
  gsize       name_len;
  const char *value;
  gsize       value_len;
} CpelLabelField;

/* The fields of `text` (`len` bytes) into `fields` (at most `max`); returns
 * their number.  `perf_sample`: also read a perf sample's fields.  The
 * pointers point into `text`. */
guint        cpel_label_fields_parse     (const char     *text,
                                          gsize           len,
                                          gboolean        perf_sample,
                                          CpelLabelField *fields,
                                          guint           max);

typedef struct _CpelLabels CpelLabels;

/* The default formats of `file`'s types (and the fields of each type's
 * first events, read from a bounded number of events). */
CpelLabels  *cpel_labels_new             (CpelFile          *file);
/* `base`'s file and defaults with the user's `formats`: type name, format,
 * type name, format, …, NULL ("" = the whole label; NULL = none). */
CpelLabels  *cpel_labels_new_with_formats (CpelLabels       *base,
                                           const char *const *formats);
/* `base` with the format of every type named as `type` set to `format`
 * (NULL: back to the default). */
CpelLabels  *cpel_labels_new_with_format (CpelLabels        *base,
                                          guint              type,
                                          const char        *format);
CpelLabels  *cpel_labels_ref             (CpelLabels        *self);
void         cpel_labels_unref           (CpelLabels        *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelLabels, cpel_labels_unref)

CpelFile    *cpel_labels_get_file        (CpelLabels        *self);
/* The format in effect for `type` ("" = the whole label). */
const char  *cpel_labels_get_format      (CpelLabels        *self,
                                          guint              type);
const char  *cpel_labels_get_default_format (CpelLabels     *self,
                                          guint              type);
/* Whether the user chose the format of `type`. */
gboolean     cpel_labels_is_user_format  (CpelLabels        *self,
                                          guint              type);
/* The fields seen in the type's first events (NULL-terminated). */
const char * const *cpel_labels_get_fields (CpelLabels      *self,
                                            guint            type);
/* The user's formats as cpel_labels_new_with_formats () takes them. */
char       **cpel_labels_dup_user_formats (CpelLabels       *self);

/* Append the label of `event` by its type's format; FALSE (nothing
 * appended) when the type has none or the event lacks one of its fields. */
gboolean     cpel_labels_append_formatted (CpelLabels      *self,
                                           const CpelEvent *event,
                                           GString         *out);
/* The label shown: as above, else cpel_file_append_label (). */
void         cpel_labels_append          (CpelLabels        *self,
                                          const CpelEvent   *event,
                                          GString           *out);

G_END_DECLS
