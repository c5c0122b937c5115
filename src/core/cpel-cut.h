/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cut.h — write a time range (and some tracks) of a file as a new file
 *
 * The cut is a valid CPEL file in the source's byte order and date, holding:
 * the source's string tables, symbol tables, event definitions and unknown
 * sections; its track definitions (only the chosen tracks' when a subset is
 * given); then one event section per source event section, with that
 * section's string table name and clock field, holding the section's events
 * with t0 <= time < t1 on the chosen tracks in time order (stable), each
 * record copied from the source (ticks, track, code and datum exact).
 * Definition sections keep their relative order and come before the event
 * sections; they are copied byte for byte (track definitions record by
 * record).
 *
 * String tables are copied byte for byte too (through the writer's
 * cpel_writer_add_string_table_data, or as a raw section when their length
 * is not a multiple of 4), so every string reference of the source — to
 * repeated or empty strings, into padding, past the end — reads the same in
 * the cut, and a table nothing refers to is kept.  An event section whose
 * table the writer cannot name (missing, copied raw, a 64-octet name) keeps
 * its header as it was and is written raw.
 *
 * Written through CpelWriter, streamed: to a temporary file renamed at the
 * end, never replacing an existing file unless `overwrite`.
 * Memory: 4 octets per event in the range (8 with several event sections),
 * plus 40 per event of a section written raw (assembled, then handed over).
 */
#pragma once

#include "cpel-file.h"

G_BEGIN_DECLS

typedef struct
{
  gint64        t0;          /* [t0, t1) in ns since the source's earliest event */
  gint64        t1;
  const guint  *slots;       /* tracks to keep; NULL = every track */
  guint         n_slots;
  gboolean      overwrite;   /* replace an existing file at the path */
} CpelCutOptions;

/* FALSE with an error (G_IO_ERROR_EXISTS when the path exists and not
 * overwrite; G_IO_ERROR_CANCELLED; CPEL_ERROR_INVALID for bad slots); no
 * file is left behind on failure.  Progress in [0,1].  *n_events (may be
 * NULL) receives the number of events written. */
gboolean  cpel_cut_write     (CpelFile              *file,
                              const char            *path,
                              const CpelCutOptions  *options,
                              GCancellable          *cancellable,
                              CpelProgressFunc       progress,
                              gpointer               progress_data,
                              guint64               *n_events,
                              GError               **error);

/* The same cut, in memory (overwrite is ignored). */
GBytes   *cpel_cut_to_bytes  (CpelFile              *file,
                              const CpelCutOptions  *options,
                              GCancellable          *cancellable,
                              GError               **error);

G_END_DECLS
