/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-output.h — where a file the user names as an output is written
 *
 * Outputs are written to a temporary file that is then renamed over the
 * target, so a target that is not a regular file would be replaced by one:
 * a device node, a FIFO, a socket or a folder is refused; a symbolic link
 * to a regular file is written through (its target is replaced, the link
 * stays).  "-" names standard output (for outputs that are a stream).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE for "-": standard output. */
gboolean cpel_output_is_stdout (const char *path);

/* The path to rename the finished output onto: `path` itself when it does
 * not exist or is a regular file, the file a symbolic link points to when
 * it is one to a regular file.  NULL with G_IO_ERROR_NOT_REGULAR_FILE for
 * anything else (a link to nothing too); the message does not name it. */
char    *cpel_output_resolve   (const char  *path,
                                GError     **error);

/* Writes all of data to standard output (retrying short writes). */
gboolean cpel_output_write_stdout (const void  *data,
                                   gsize        len,
                                   GError     **error);

G_END_DECLS
