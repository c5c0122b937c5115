/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-output.c — output targets (see cpel-output.h) */
#include "cpel-output.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean
cpel_output_is_stdout (const char *path)
{
  return path != NULL && strcmp (path, "-") == 0;
}

static char *
not_regular (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                       _("This is not a regular file (a device, a pipe or a folder): "
                         "it is not replaced (use - for standard output)"));
  return NULL;
}

char *
cpel_output_resolve (const char  *path,
                     GError     **error)
{
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_lstat (path, &st) != 0)
    {
      int saved = errno;

      if (saved == ENOENT)
        return g_strdup (path);
      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved), g_strerror (saved));
      return NULL;
    }
  if (S_ISREG (st.st_mode))
    return g_strdup (path);
#ifdef S_ISLNK
  if (S_ISLNK (st.st_mode))
    {
      char *real;

      if (g_stat (path, &st) != 0)
        {
          int saved = errno;

          if (saved == ENOENT)
            g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                                 _("This is a link to a file that does not exist"));
          else
            g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved),
                                 g_strerror (saved));
          return NULL;
        }
      if (!S_ISREG (st.st_mode))
        return not_regular (error);
      real = realpath (path, NULL);
      if (real == NULL)
        {
          int saved = errno;

          g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved),
                               g_strerror (saved));
          return NULL;
        }
      {
        /* g_free () for what realpath () malloc ()ed */
        char *copy = g_strdup (real);

        free (real);
        return copy;
      }
    }
#endif
  return not_regular (error);
}

gboolean
cpel_output_write_stdout (const void  *data,
                          gsize        len,
                          GError     **error)
{
  const guint8 *p = data;

  while (len > 0)
    {
      gssize n = write (STDOUT_FILENO, p, MIN (len, (gsize) 1 << 30));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = n < 0 ? errno : EIO;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Could not write to standard output: %s"), g_strerror (saved));
          return FALSE;
        }
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}
