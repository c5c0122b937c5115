/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-elog-clib-format.h — VPP's clib format() for one conversion, as elog_dump
 * prints an event's arguments */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CPEL_ELOG_CLIB_ARG_NONE,
  CPEL_ELOG_CLIB_ARG_INT,
  CPEL_ELOG_CLIB_ARG_INT64,
  CPEL_ELOG_CLIB_ARG_FLOAT,
  CPEL_ELOG_CLIB_ARG_STRING,
} CpelElogClibArgKind;

typedef struct
{
  CpelElogClibArgKind     kind;
  guint64     u;        /* integers; index for t/T */
  double      f;
  const char *s;        /* strings (NUL-terminated) */
} CpelElogClibArg;

/* Appends one conversion piece ("%-08.3Ld", from '%' through the letter)
 * formatted with `arg` as clib's do_percent() does; the event's text starts
 * at out->str + text_start (what an unknown conversion throws away).  A wrong argument kind
 * (which in VPP reads garbage or crashes) gives a neutral value. */
void cpel_elog_clib_format_piece (GString           *out,
                             gsize              text_start,
                             const char        *piece,
                             const CpelElogClibArg *arg);

G_END_DECLS
