/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-error.h — the error domain of the core library */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CPEL_ERROR (cpel_error_quark ())

typedef enum
{
  CPEL_ERROR_IO,          /* the file could not be read */
  CPEL_ERROR_EMPTY,       /* zero-length file */
  CPEL_ERROR_TRUNCATED,   /* a header, section or record runs past the end of the file */
  CPEL_ERROR_GIST,        /* version 0: an old "Gist" log */
  CPEL_ERROR_VERSION,     /* unknown version */
  CPEL_ERROR_SECTION,     /* a section's count or length is inconsistent */
  CPEL_ERROR_REFERENCE,   /* a section names a string table that does not exist */
  CPEL_ERROR_CLOCK,       /* clock rate 0 and no override */
  CPEL_ERROR_TOO_LARGE,   /* more than the implementation limits (events, tracks) */
  CPEL_ERROR_INVALID,     /* invalid argument from the user (bad regex, bad code...) */
  CPEL_ERROR_NOT_CPEL,    /* the first section is no CPEL section: some other kind of file */
  CPEL_ERROR_SOURCE_DAMAGED,     /* an imported format (VPP elog, Snabb timeline…): damaged */
  CPEL_ERROR_SOURCE_UNSUPPORTED, /* an imported format in a version or variant not read */
} CpelErrorCode;

GQuark      cpel_error_quark       (void);

/* A plain first sentence for an error reading a file ("This is not a CPEL
 * file.", "This CPEL file is damaged.", "The file is empty." …), or NULL when
 * the error's message is plain already (I/O: "No such file") or the error is
 * not about reading a file.  The error's message is then the detail. */
const char *cpel_error_get_summary (const GError *error);

/* One line: the summary, then the detail ("This is not a CPEL file. Section
 * 1 of 9 at offset 8: …"); the message alone when there is no summary. */
char       *cpel_error_dup_line    (const GError *error);

G_END_DECLS
