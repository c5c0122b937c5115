/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cut-dialog.h — the progress of Save Range As: the file being
 * written, a progress bar and Cancel (the "cancel" response, also Escape).
 */
#pragma once

#include <adwaita.h>

#include "cpel-window.h"

G_BEGIN_DECLS

#define CPEL_TYPE_CUT_DIALOG (cpel_cut_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CpelCutDialog, cpel_cut_dialog, CPEL, CUT_DIALOG, AdwMessageDialog)

/* For `parent`'s cut of its range into `target`. */
CpelCutDialog *cpel_cut_dialog_new          (CpelWindow    *parent,
                                             GFile         *target);
GFile         *cpel_cut_dialog_get_target   (CpelCutDialog *self);
double         cpel_cut_dialog_get_fraction (CpelCutDialog *self);
void           cpel_cut_dialog_set_fraction (CpelCutDialog *self,
                                             double         fraction);

G_END_DECLS
