/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-event-type-row.h — one row of the Event Types window: a check box
 * (the "shown" property), the type's name, code and event count, its label
 * format (a button with a popover: the format, the fields to pick, reset)
 * and a swatch of its colour.
 */
#pragma once

#include <adwaita.h>

#include "cpel-core.h"

G_BEGIN_DECLS

#define CPEL_TYPE_EVENT_TYPE_ROW (cpel_event_type_row_get_type ())
G_DECLARE_FINAL_TYPE (CpelEventTypeRow, cpel_event_type_row, CPEL, EVENT_TYPE_ROW, AdwActionRow)

/* Event type `type` (an index, < cpel_file_get_n_types) of `file`. */
CpelEventTypeRow *cpel_event_type_row_new       (CpelFile         *file,
                                                 guint             type);
guint             cpel_event_type_row_get_type_index (CpelEventTypeRow *self);
gboolean          cpel_event_type_row_get_shown (CpelEventTypeRow *self);
void              cpel_event_type_row_set_shown (CpelEventTypeRow *self,
                                                 gboolean          shown);
/* Show the type's label format in `labels` (of the row's file). */
void              cpel_event_type_row_set_labels (CpelEventTypeRow *self,
                                                  CpelLabels       *labels);
/* The format shown (the entry's text; "" = the whole text). */
const char       *cpel_event_type_row_get_format (CpelEventTypeRow *self);
/* As the user typing `format` (NULL: Reset to Default): signal
 * "format-changed" (the format, NULL for the default). */
void              cpel_event_type_row_choose_format (CpelEventTypeRow *self,
                                                     const char       *format);

G_END_DECLS
