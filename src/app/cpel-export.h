/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-export.h — `cpelview --export-png`: export without a display */
#pragma once

#include "cpel-render.h"

G_BEGIN_DECLS

typedef struct
{
  int            width, height;   /* pixels */
  const char    *from, *to;       /* times as typed, or NULL */
  gboolean       dark;
  CpelColorMode  color_mode;
  gboolean       summary;
  gboolean       force;           /* replace OUT when it exists */
} CpelHeadlessExport;

/* Headless `cpelview --export-png OUT FILE`: load, fit (or [from, to]),
 * render in the given colour and summary modes, write atomically; an
 * existing OUT only with `force` (as `cpel export`).  Returns the process
 * exit status; messages go to stderr. */
int         cpel_export_headless        (const char               *file_path,
                                         const char               *out_path,
                                         const CpelHeadlessExport *options);

/* The file the Export View dialog's answer means: `path` as accepted, the
 * dialog having `suggested` a name and the user picked the format of
 * `filter_suffix` ("png", "svg", "pdf"; NULL: none) in its menu.  The
 * suggested name kept with another format picked: that format's suffix in
 * place of the name's; a name without a known suffix: the picked format's
 * (else .png) added.  *overwrite is FALSE for a name the dialog did not
 * confirm (then no existing file is replaced).  Newly allocated. */
char       *cpel_export_dialog_path     (const char               *path,
                                         const char               *suggested,
                                         const char               *filter_suffix,
                                         gboolean                 *overwrite);

/* The Export View dialog's Scale menu (1× to 4×) in the order it lists
 * them: the screen's `scale` (clamped to 1..4) first, then the others
 * ascending — GTK 4.8's own file chooser shows the first choice whatever
 * gtk_file_chooser_set_choice says. */
void        cpel_export_scale_order     (int                       scale,
                                         guint                     order[4]);

G_END_DECLS
