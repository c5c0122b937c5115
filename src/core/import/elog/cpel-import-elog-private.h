/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import-elog-private.h — what the VPP elog importer's files share:
 * cpel-import-elog.c (the bounded reader, the header, events and their
 * text, the import) and cpel-import-elog-c2cpel.c (the c2cpel output) */
#pragma once

#include "cpel-import.h"

G_BEGIN_DECLS

typedef struct
{
  const guint8 *start;
  const guint8 *p;
  const guint8 *end;
  GError      **error;
} Reader;

typedef struct
{
  char     letter;      /* i t T f s */
  guint8   size;        /* bytes (0 for s0) */
} ArgSpec;

typedef struct
{
  char       *format;
  char       *args;        /* format_args as in the file */
  char      **enums;
  guint32     n_enums;
  gsize       args_offset; /* file offset of format_args (for errors) */
  ArgSpec    *specs;
  guint       n_specs;
  char       *bad_args;    /* why format_args cannot be decoded, or NULL */
  char       *name;        /* brief name */
  gsize       cut;         /* c2cpel: bytes of the text dropped with the name (j + 1) */
  gboolean    has_int;
} ElogType;

typedef struct
{
  guint64     save_os, save_cpu, init_os, init_cpu;
  guint32     ring_size;
  ElogType   *types;
  guint32     n_types;
  char      **tracks;
  guint32     n_tracks;
  gsize       strtab_offset;   /* in the source */
  guint32     strtab_len;
  guint32     n_events;
  Reader      r;          /* positioned at the first event */
  gsize       events_offset;
} Elog;

typedef struct
{
  guint32  type;
  guint32  track;
  double   time;
  guint32  datum;
  gsize    offset;
} ElogEvent;

/* Read one event and append its text (elog_dump's) to `text`. */
gboolean _cpel_import_elog_read_event (const Elog *e,
                                       Reader     *r,
                                       ElogEvent  *ev,
                                       GString    *text);
/* The file as VPP's c2cpel converts it, as the builder's raw output. */
gboolean _cpel_import_elog_c2cpel     (Elog              *e,
                                       CpelImportBuilder *b,
                                       GError           **error);

G_END_DECLS
