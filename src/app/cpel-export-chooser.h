/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-export-chooser.h — what the Export View file chooser's answer means,
 * and the order of its Scale menu (plain GLib) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

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
