/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-info.h — the File Information window */
#pragma once

#include <gtk/gtk.h>

#include "cpel-core.h"

G_BEGIN_DECLS

/* A new modal window describing `file` (header, counts, sections, warnings). */
GtkWindow *cpel_file_info_new (GtkWindow *parent,
                               CpelFile  *file,
                               GFile     *location);

G_END_DECLS
