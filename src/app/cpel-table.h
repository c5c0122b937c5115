/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-table.h — rows of text cells for the tool windows' column views
 *
 * A CpelTableRow holds one text and one numeric sort key per column, plus a
 * number the owner uses to find what the row stands for (an anomaly's
 * position, a track's slot).  cpel_table_column_new() makes a column that
 * shows a cell as a label and sorts by its key (numeric columns) or its
 * text.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CPEL_TYPE_TABLE_ROW (cpel_table_row_get_type ())
G_DECLARE_FINAL_TYPE (CpelTableRow, cpel_table_row, CPEL, TABLE_ROW, GObject)

CpelTableRow *cpel_table_row_new       (guint          n_cells,
                                        guint64        id);
guint64       cpel_table_row_get_id    (CpelTableRow  *self);
/* Takes `text`; `key` orders numeric columns. */
void          cpel_table_row_take      (CpelTableRow  *self,
                                        guint          cell,
                                        char          *text,
                                        double         key);
const char   *cpel_table_row_get_text  (CpelTableRow  *self,
                                        guint          cell);
double        cpel_table_row_get_key   (CpelTableRow  *self,
                                        guint          cell);

/* A column showing `cell` (numeric: right-aligned tabular figures, sorted
 * by key; else sorted by text).  `sortable` FALSE: no sorter. */
GtkColumnViewColumn *cpel_table_column_new (const char *title,
                                            guint       cell,
                                            gboolean    numeric,
                                            gboolean    expand,
                                            gboolean    sortable);

G_END_DECLS
