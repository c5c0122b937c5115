/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-table.c — rows of text cells for the tool windows' column views */
#include "cpel-table.h"

struct _CpelTableRow
{
  GObject   parent_instance;

  guint64     id;
  guint       n_cells;
  char      **texts;
  double     *keys;
  GListModel *children;   /* rows shown under it in a tree, or NULL */
};

G_DEFINE_FINAL_TYPE (CpelTableRow, cpel_table_row, G_TYPE_OBJECT)

static void
cpel_table_row_finalize (GObject *object)
{
  CpelTableRow *self = CPEL_TABLE_ROW (object);

  for (guint i = 0; i < self->n_cells; i++)
    g_free (self->texts[i]);
  g_free (self->texts);
  g_free (self->keys);
  g_clear_object (&self->children);
  G_OBJECT_CLASS (cpel_table_row_parent_class)->finalize (object);
}

static void
cpel_table_row_class_init (CpelTableRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cpel_table_row_finalize;
}

static void
cpel_table_row_init (CpelTableRow *self)
{
}

CpelTableRow *
cpel_table_row_new (guint   n_cells,
                    guint64 id)
{
  CpelTableRow *self = g_object_new (CPEL_TYPE_TABLE_ROW, NULL);

  self->id = id;
  self->n_cells = n_cells;
  self->texts = g_new0 (char *, MAX (n_cells, 1));
  self->keys = g_new0 (double, MAX (n_cells, 1));
  return self;
}

guint64
cpel_table_row_get_id (CpelTableRow *self)
{
  g_return_val_if_fail (CPEL_IS_TABLE_ROW (self), 0);
  return self->id;
}

void
cpel_table_row_take (CpelTableRow *self,
                     guint         cell,
                     char         *text,
                     double        key)
{
  g_return_if_fail (CPEL_IS_TABLE_ROW (self));
  g_return_if_fail (cell < self->n_cells);

  g_free (self->texts[cell]);
  self->texts[cell] = text;
  self->keys[cell] = key;
}

const char *
cpel_table_row_get_text (CpelTableRow *self,
                         guint         cell)
{
  g_return_val_if_fail (CPEL_IS_TABLE_ROW (self), NULL);
  if (cell >= self->n_cells || self->texts[cell] == NULL)
    return "";
  return self->texts[cell];
}

double
cpel_table_row_get_key (CpelTableRow *self,
                        guint         cell)
{
  g_return_val_if_fail (CPEL_IS_TABLE_ROW (self), 0);
  return cell < self->n_cells ? self->keys[cell] : 0;
}

void
cpel_table_row_set_children (CpelTableRow *self,
                             GListModel   *children)
{
  g_return_if_fail (CPEL_IS_TABLE_ROW (self));
  g_set_object (&self->children, children);
}

GListModel *
cpel_table_row_get_children (CpelTableRow *self)
{
  g_return_val_if_fail (CPEL_IS_TABLE_ROW (self), NULL);
  return self->children;
}

CpelTableRow *
cpel_table_row_of (gpointer item)
{
  if (GTK_IS_TREE_LIST_ROW (item))
    {
      g_autoptr(GObject) inner = gtk_tree_list_row_get_item (item);

      /* the tree's model holds it while the row is listed */
      return CPEL_IS_TABLE_ROW (inner) ? CPEL_TABLE_ROW (inner) : NULL;
    }
  return CPEL_IS_TABLE_ROW (item) ? item : NULL;
}

/* ------------------------------------------------------------------------ */

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  gboolean numeric = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0f : 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), numeric ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  /* a name keeps a dozen characters however many columns share the width
   * (an ellipsized label asks for none) */
  if (!numeric)
    gtk_label_set_width_chars (GTK_LABEL (label), 12);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  guint cell = GPOINTER_TO_UINT (data);
  CpelTableRow *row = cpel_table_row_of (gtk_list_item_get_item (item));
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), row != NULL ? cpel_table_row_get_text (row, cell) : "");
}

/* The tree column: an expander (indented by the row's depth, with a
 * triangle where the row has children) around the label. */
static void
setup_tree_cell (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 12);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (item, expander);
}

static void
bind_tree_cell (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  data)
{
  guint cell = GPOINTER_TO_UINT (data);
  gpointer listed = gtk_list_item_get_item (item);
  CpelTableRow *row = cpel_table_row_of (listed);
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (item));
  GtkWidget *label = gtk_tree_expander_get_child (expander);

  gtk_tree_expander_set_list_row (expander, GTK_IS_TREE_LIST_ROW (listed) ? listed : NULL);
  gtk_label_set_text (GTK_LABEL (label), row != NULL ? cpel_table_row_get_text (row, cell) : "");
}

static void
unbind_tree_cell (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  data)
{
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (item)), NULL);
}

static double
row_key (CpelTableRow *row,
         guint         cell)
{
  return row != NULL ? cpel_table_row_get_key (row, cell) : 0;
}

static char *
row_text (CpelTableRow *row,
          guint         cell)
{
  return g_strdup (row != NULL ? cpel_table_row_get_text (row, cell) : "");
}

static GtkColumnViewColumn *
column_new (const char *title,
            guint       cell,
            gboolean    numeric,
            gboolean    tree,
            gboolean    expand,
            gboolean    sortable)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  if (tree)
    {
      g_signal_connect (factory, "setup", G_CALLBACK (setup_tree_cell), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_tree_cell), GUINT_TO_POINTER (cell));
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_tree_cell), NULL);
    }
  else
    {
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (numeric));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (cell));
    }
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);

  if (sortable)
    {
      GtkExpression *expr;
      GtkSorter *sorter;

      if (numeric)
        {
          expr = gtk_cclosure_expression_new (G_TYPE_DOUBLE, NULL, 0, NULL,
                                              G_CALLBACK (row_key), GUINT_TO_POINTER (cell), NULL);
          sorter = GTK_SORTER (gtk_numeric_sorter_new (expr));
        }
      else
        {
          expr = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                              G_CALLBACK (row_text), GUINT_TO_POINTER (cell), NULL);
          sorter = GTK_SORTER (gtk_string_sorter_new (expr));
        }
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);
    }
  return column;
}

GtkColumnViewColumn *
cpel_table_column_new (const char *title,
                       guint       cell,
                       gboolean    numeric,
                       gboolean    expand,
                       gboolean    sortable)
{
  return column_new (title, cell, numeric, FALSE, expand, sortable);
}

GtkColumnViewColumn *
cpel_table_tree_column_new (const char *title,
                            guint       cell,
                            gboolean    expand,
                            gboolean    sortable)
{
  return column_new (title, cell, FALSE, TRUE, expand, sortable);
}

static GListModel *
children_of (gpointer item,
             gpointer user_data)
{
  GListModel *children = CPEL_IS_TABLE_ROW (item) ? CPEL_TABLE_ROW (item)->children : NULL;

  return children != NULL ? g_object_ref (children) : NULL;
}

GtkSortListModel *
cpel_table_tree_model_new (GListModel *rows,
                           GtkSorter  *sorter)
{
  GtkTreeListModel *tree = gtk_tree_list_model_new (g_object_ref (rows), FALSE, FALSE, children_of,
                                                    NULL, NULL);
  GtkTreeListRowSorter *row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (sorter));
  return gtk_sort_list_model_new (G_LIST_MODEL (tree), GTK_SORTER (row_sorter));
}
