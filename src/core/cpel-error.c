/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-error.c — the error domain of the core library, and the plain
 * sentence a user reads first when a file cannot be read */
#include "cpel-error.h"

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (cpel-error-quark, cpel_error)

const char *
cpel_error_get_summary (const GError *error)
{
  g_return_val_if_fail (error != NULL, NULL);

  if (error->domain != CPEL_ERROR)
    return NULL;
  switch ((CpelErrorCode) error->code)
    {
    case CPEL_ERROR_EMPTY:
      return _("The file is empty.");
    case CPEL_ERROR_NOT_CPEL:
      return _("This is not a supported event log.");
    case CPEL_ERROR_VERSION:
      return _("This CPEL version is not supported.");
    case CPEL_ERROR_GIST:
      return _("This is an old Gist event log, not a CPEL file.");
    case CPEL_ERROR_TRUNCATED:
    case CPEL_ERROR_SECTION:
    case CPEL_ERROR_REFERENCE:
      return _("This CPEL file is damaged.");
    case CPEL_ERROR_CLOCK:
      return _("This CPEL file does not say how fast its clock runs.");
    case CPEL_ERROR_TOO_LARGE:
      return _("This CPEL file is larger than the viewer can read.");
    case CPEL_ERROR_SOURCE_DAMAGED:
      return _("This event log is damaged.");
    case CPEL_ERROR_SOURCE_UNSUPPORTED:
      return _("This version of the event log format is not supported.");
    case CPEL_ERROR_IO:
    case CPEL_ERROR_INVALID:
    default:
      return NULL;
    }
}

char *
cpel_error_dup_line (const GError *error)
{
  const char *summary;

  g_return_val_if_fail (error != NULL, NULL);

  summary = cpel_error_get_summary (error);
  if (summary == NULL)
    return g_strdup (error->message);
  return g_strconcat (summary, " ", error->message, NULL);
}
