/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-info-row.h — a row of the File Information window: a title and
 * its value (selectable, wrapped), e.g. "Size  1.2 MB".
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CPEL_TYPE_FILE_INFO_ROW (cpel_file_info_row_get_type ())
G_DECLARE_FINAL_TYPE (CpelFileInfoRow, cpel_file_info_row, CPEL, FILE_INFO_ROW, AdwActionRow)

const char *cpel_file_info_row_get_value (CpelFileInfoRow *self);
void        cpel_file_info_row_set_value (CpelFileInfoRow *self,
                                          const char      *value);

G_END_DECLS
