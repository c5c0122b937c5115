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
} CpelErrorCode;

GQuark cpel_error_quark (void);

G_END_DECLS
