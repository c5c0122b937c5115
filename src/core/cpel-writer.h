/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-writer.h — writes CPEL files (both byte orders, every section type)
 *
 * Sections are written in the order they are added.  String tables collect
 * strings (deduplicated) and are emitted where they were added, padded to 4.
 * Event sections may be streamed: cpel_writer_begin_events() with the final
 * count, then exactly that many cpel_writer_add_event() calls; events are
 * written straight to the output, so 10^8 events need no memory.
 *
 * Usage: w = cpel_writer_new (path_or_NULL, little_endian); add sections ...;
 * cpel_writer_finish (w, &error).  With a path the file is written to a
 * temporary file next to it and renamed on finish (atomic); with NULL the
 * result is kept in memory: cpel_writer_steal_bytes().
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _CpelWriter CpelWriter;

CpelWriter *cpel_writer_new              (const char  *path,      /* NULL = in memory */
                                          gboolean     little_endian,
                                          guint32      date,
                                          GError     **error);
/* Overwrite an existing file at path only when allowed (default FALSE:
 * cpel_writer_finish fails with G_IO_ERROR_EXISTS). */
void        cpel_writer_set_overwrite    (CpelWriter  *writer,
                                          gboolean     overwrite);

/* A string table section named `name`; returns its handle (>= 0).  Strings
 * may be added to it until the next event section is begun (definition
 * sections are kept in memory until then); the table is written before it. */
guint       cpel_writer_add_string_table (CpelWriter  *writer,
                                          const char  *name);
/* A string table copied byte for byte from `data` (its name is the first
 * string); padded with NULs to a multiple of 4.  No strings can be added to
 * it.  Returns its handle, usable by the begin_* calls. */
guint       cpel_writer_add_string_table_data (CpelWriter *writer,
                                               const void *data,
                                               gsize       len);
/* Offset of `s` in the table (added once, deduplicated). */
guint32     cpel_writer_add_string       (CpelWriter  *writer,
                                          guint        table,
                                          const char  *s);

/* Definition sections.  Each call to begin_* starts a new section whose
 * string table is `table` (by handle); strings passed as formats are added
 * to that table (NULL format = offset 0). */
void        cpel_writer_begin_symbols    (CpelWriter  *writer, guint table);
void        cpel_writer_add_symbol       (CpelWriter  *writer, guint32 value, const char *name);
void        cpel_writer_begin_event_defs (CpelWriter  *writer, guint table);
void        cpel_writer_add_event_def    (CpelWriter  *writer, guint32 code,
                                          const char *event_format, const char *datum_format);
void        cpel_writer_begin_track_defs (CpelWriter  *writer, guint table);
void        cpel_writer_add_track_def    (CpelWriter  *writer, guint32 id, const char *format);

/* An event section of exactly n_events events; clock_ticks is written as is. */
void        cpel_writer_begin_events     (CpelWriter  *writer, guint table,
                                          guint32 clock_ticks, guint32 n_events);
void        cpel_writer_add_event        (CpelWriter  *writer, guint64 ticks, guint32 track,
                                          guint32 code, guint32 datum);

/* A raw section (any type, data as given) — for tests of odd files. */
void        cpel_writer_add_raw_section  (CpelWriter  *writer, guint32 type,
                                          const void *data, gsize len);

/* A raw section whose data is the concatenation of `parts` (referenced,
 * not copied: for large extension sections). */
void        cpel_writer_add_raw_section_parts (CpelWriter *writer, guint32 type,
                                               GBytes **parts, guint n_parts);

/* Ends the last section, patches the section count, writes and renames. */
gboolean    cpel_writer_finish           (CpelWriter  *writer, GError **error);
/* After finish on an in-memory writer: the file's bytes. */
GBytes     *cpel_writer_steal_bytes      (CpelWriter  *writer);
void        cpel_writer_free             (CpelWriter  *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelWriter, cpel_writer_free)

G_END_DECLS
