/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-window-functions.c — the Statistics window's Functions page
 *
 * For a capture with call chains (perf record -g): the counting worker
 * (cpel-stats-window.c) also summarises the chains of the samples in the
 * same range and shown tracks (cpel_top_compute (), what `cpel top`
 * prints): per function its binary, self (the samples it was running in)
 * and total (the samples whose chain holds it), as shares and counts.
 * Activating a row selects the earliest sample of the range whose chain
 * holds that function and centres it in the window.
 */
#include "cpel-stats-window-private.h"

#include <glib/gi18n.h>

enum
{
  FUNCTION_CELL_NAME,
  FUNCTION_CELL_DSO,
  FUNCTION_CELL_SELF_SHARE,
  FUNCTION_CELL_TOTAL_SHARE,
  FUNCTION_CELL_SELF,
  FUNCTION_CELL_TOTAL,
  N_FUNCTION_CELLS
};

static char *
share (guint64 part,
       guint64 whole,
       double *value)
{
  *value = whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
  /* TRANSLATORS: a share of the samples, e.g. "12.34 %" */
  return g_strdup_printf (_("%.2f %%"), *value);
}

void
_cpel_stats_window_set_functions (CpelStatsWindow *self,
                                  CpelTop         *top)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  guint64 n = 0;

  g_clear_pointer (&self->top, cpel_top_free);
  self->top = top;
  if (top != NULL)
    n = cpel_top_get_n_samples (top);
  for (guint i = 0; top != NULL && i < cpel_top_get_n_entries (top); i++)
    {
      const CpelTopEntry *e = cpel_top_get_entry (top, i);
      CpelTableRow *row = cpel_table_row_new (N_FUNCTION_CELLS, i);
      double v;
      char *text;

      cpel_table_row_take (row, FUNCTION_CELL_NAME, g_strdup (cpel_top_entry_symbol (e)), 0);
      cpel_table_row_take (row, FUNCTION_CELL_DSO, g_strdup (cpel_top_entry_dso (e)), 0);
      text = share (e->self, n, &v);
      cpel_table_row_take (row, FUNCTION_CELL_SELF_SHARE, text, v);
      text = share (e->total, n, &v);
      cpel_table_row_take (row, FUNCTION_CELL_TOTAL_SHARE, text, v);
      cpel_table_row_take (row, FUNCTION_CELL_SELF, cpel_format_count (e->self), (double) e->self);
      cpel_table_row_take (row, FUNCTION_CELL_TOTAL, cpel_format_count (e->total),
                           (double) e->total);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->function_rows, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->function_rows)),
                       rows->pdata, rows->len);
  adw_view_stack_page_set_visible (self->functions_page, top != NULL);
}

/* The earliest sample counted whose chain holds the row's function:
 * selected and centred (a bell when the counts are of another file). */
static void
on_function_activate (GtkColumnView   *view,
                      guint            position,
                      CpelStatsWindow *self)
{
  g_autoptr(CpelTableRow) row = _cpel_stats_window_row_at (view, position);
  CpelFile *file = cpel_session_get_file (self->session);
  const CpelTopEntry *e;
  guint id;

  if (row == NULL || self->top == NULL || file == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  id = (guint) cpel_table_row_get_id (row);
  if (id >= cpel_top_get_n_entries (self->top))
    return;
  e = cpel_top_get_entry (self->top, id);
  if (e->total == 0 || e->first_slot >= cpel_file_get_n_tracks (file)
      || e->first_index >= cpel_file_get_track_n_events (file, e->first_slot))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  cpel_session_select (self->session, e->first_slot, e->first_index, FALSE);
  cpel_session_reveal_event (self->session, e->first_slot, e->first_index);
}

void
cpel_stats_window_activate_function_row (CpelStatsWindow *self,
                                         guint            position)
{
  g_return_if_fail (CPEL_IS_STATS_WINDOW (self));
  on_function_activate (self->functions_view, position, self);
}

void
_cpel_stats_window_init_functions (CpelStatsWindow *self)
{
  GtkColumnView *view = self->functions_view;

  self->function_rows = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  /* TRANSLATORS: column: a function of the samples' call chains */
  _cpel_stats_window_append_column (view, _("Function"), FUNCTION_CELL_NAME, FALSE, TRUE);
  /* TRANSLATORS: column: the binary (program, library, kernel) a function is in */
  _cpel_stats_window_append_column (view, _("Binary"), FUNCTION_CELL_DSO, FALSE, TRUE);
  /* TRANSLATORS: column: share of the samples a function was running in */
  _cpel_stats_window_append_column (view, _("Self"), FUNCTION_CELL_SELF_SHARE, TRUE, FALSE);
  /* TRANSLATORS: column: share of the samples whose call chain holds a function */
  _cpel_stats_window_append_column (view, C_("samples", "Total"), FUNCTION_CELL_TOTAL_SHARE,
                                    TRUE, FALSE);
  /* TRANSLATORS: column: the samples a function was running in */
  _cpel_stats_window_append_column (view, _("Self Samples"), FUNCTION_CELL_SELF, TRUE, FALSE);
  /* TRANSLATORS: column: the samples whose call chain holds a function */
  _cpel_stats_window_append_column (view, _("Total Samples"), FUNCTION_CELL_TOTAL, TRUE, FALSE);
  self->sorted_functions = _cpel_stats_window_setup_view (view, self->function_rows);
  g_signal_connect (view, "activate", G_CALLBACK (on_function_activate), self);
}

CpelTop *
cpel_stats_window_get_top (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return self->top;
}

GListModel *
cpel_stats_window_get_function_rows (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return G_LIST_MODEL (self->sorted_functions);
}
