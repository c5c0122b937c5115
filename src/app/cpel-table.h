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
/* Rows shown under this one in a tree (CpelTableRow items; referenced),
 * or NULL (none: no expander). */
void          cpel_table_row_set_children (CpelTableRow *self,
                                           GListModel   *children);
GListModel   *cpel_table_row_get_children (CpelTableRow *self);
/* The CpelTableRow a list shows at an item: the item, or the item of a
 * GtkTreeListRow (the tree's model keeps it); NULL for anything else. */
CpelTableRow *cpel_table_row_of        (gpointer       item);

/* A column showing `cell` (numeric: right-aligned tabular figures, sorted
 * by key; else sorted by text).  `sortable` FALSE: no sorter. */
GtkColumnViewColumn *cpel_table_column_new (const char *title,
                                            guint       cell,
                                            gboolean    numeric,
                                            gboolean    expand,
                                            gboolean    sortable);

/* The same for the first column of a tree: the label in a GtkTreeExpander
 * (indented by depth, a triangle where the row has children). */
GtkColumnViewColumn *cpel_table_tree_column_new (const char *title,
                                                 guint       cell,
                                                 gboolean    expand,
                                                 gboolean    sortable);
/* `rows` (CpelTableRow) as a tree of their children
 * (cpel_table_row_set_children ()), collapsed, sorted by `sorter` (a
 * column view's) with children under their parent: GtkTreeListRow items
 * (cpel_table_row_of () for their rows). */
GtkSortListModel    *cpel_table_tree_model_new  (GListModel  *rows,
                                                 GtkSorter   *sorter);

G_END_DECLS
