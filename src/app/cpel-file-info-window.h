/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-info-window.h — the File Information window: the file's size,
 * format, contents, sections and load warnings.
 */
#pragma once

#include <adwaita.h>

#include "cpel-core.h"
#include "cpel-window.h"

G_BEGIN_DECLS

#define CPEL_TYPE_FILE_INFO_WINDOW (cpel_file_info_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelFileInfoWindow, cpel_file_info_window, CPEL, FILE_INFO_WINDOW,
                      AdwPreferencesWindow)

/* About the file `parent` shows now. */
CpelFileInfoWindow *cpel_file_info_window_new          (CpelWindow         *parent);
CpelFile           *cpel_file_info_window_get_file     (CpelFileInfoWindow *self);
GFile              *cpel_file_info_window_get_location (CpelFileInfoWindow *self);

G_END_DECLS
