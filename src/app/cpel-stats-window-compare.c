/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-window-compare.c — the Statistics window's Compare pages
 *
 * While the window compares two captures, two more pages: Compare (one row
 * per event name: count in A, in B, Δ, mean interval in A, in B, Δ %, and
 * the selected row's interval distributions as two overlaid histograms) and
 * Compare Tracks (per track label).  cpel_diff_compute() counts them over
 * the whole of both captures (as `cpel diff A B`, without the event types
 * hidden in the panes), in the window's worker (cpel-stats-window.c).
 */
#include "cpel-stats-window-private.h"

#include <glib/gi18n.h>

#include "cpel-app-util.h"
#include "cpel-search-bar.h"

enum
{
  DIFF_CELL_NAME,
  DIFF_CELL_COUNT_A,
  DIFF_CELL_COUNT_B,
  DIFF_CELL_COUNT_DELTA,
  DIFF_CELL_MEAN_A,
  DIFF_CELL_MEAN_B,
  DIFF_CELL_MEAN_PCT,
  N_DIFF_CELLS
};

/* "+5", "−3", "0" */
static char *
format_delta (gint64 delta)
{
  g_autofree char *abs_text = cpel_format_count (delta < 0 ? -(guint64) delta : (guint64) delta);

  if (delta > 0)
    return g_strconcat ("+", abs_text, NULL);
  if (delta < 0)
    return g_strconcat ("−", abs_text, NULL);
  return g_steal_pointer (&abs_text);
}

/* "+200.0 %", "−50.0 %", "0.0 %" from cpel_diff_format_pct's "200.0" */
static char *
format_pct (const char *pct)
{
  if (pct[0] == '-')
    return g_strdup_printf ("−%s %%", pct + 1);
  if (g_strcmp0 (pct, "0.0") == 0)
    return g_strdup_printf ("%s %%", pct);
  return g_strdup_printf ("+%s %%", pct);
}

static char *
format_mean (guint64 n_intervals,
             double  mean)
{
  if (n_intervals == 0)
    return g_strdup ("—");
  return cpel_time_format ((gint64) (mean + 0.5));
}

void
_cpel_stats_window_fill_diff_tables (CpelStatsWindow *self)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  guint n;

  g_list_store_remove_all (self->diff_events);
  g_list_store_remove_all (self->diff_tracks);
  if (self->diff == NULL)
    return;

  n = cpel_diff_get_n_rows (self->diff, CPEL_DIFF_BY_EVENTS);
  for (guint i = 0; i < n; i++)
    {
      const CpelDiffRow *d = cpel_diff_get_row (self->diff, CPEL_DIFF_BY_EVENTS, i);
      CpelTableRow *row = cpel_table_row_new (N_DIFF_CELLS, i);
      g_autofree char *pct = cpel_diff_format_pct (d);
      gboolean has_pct = *pct != '\0';

      cpel_table_row_take (row, DIFF_CELL_NAME,
                           g_strdup (d->name != NULL && *d->name ? d->name : _("(unnamed)")), 0);
      cpel_table_row_take (row, DIFF_CELL_COUNT_A, cpel_format_count (d->count_a), (double) d->count_a);
      cpel_table_row_take (row, DIFF_CELL_COUNT_B, cpel_format_count (d->count_b), (double) d->count_b);
      cpel_table_row_take (row, DIFF_CELL_COUNT_DELTA, format_delta (d->count_delta), (double) d->count_delta);
      cpel_table_row_take (row, DIFF_CELL_MEAN_A, format_mean (d->n_intervals_a, d->mean_a),
                           d->n_intervals_a > 0 ? d->mean_a : -1);
      cpel_table_row_take (row, DIFF_CELL_MEAN_B, format_mean (d->n_intervals_b, d->mean_b),
                           d->n_intervals_b > 0 ? d->mean_b : -1);
      cpel_table_row_take (row, DIFF_CELL_MEAN_PCT,
                           has_pct ? format_pct (pct) : g_strdup ("—"),
                           has_pct ? g_ascii_strtod (pct, NULL) : -G_MAXDOUBLE);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->diff_events, 0, 0, rows->pdata, rows->len);

  g_ptr_array_set_size (rows, 0);
  n = cpel_diff_get_n_rows (self->diff, CPEL_DIFF_BY_TRACKS);
  for (guint i = 0; i < n; i++)
    {
      const CpelDiffRow *d = cpel_diff_get_row (self->diff, CPEL_DIFF_BY_TRACKS, i);
      CpelTableRow *row = cpel_table_row_new (N_DIFF_CELLS, i);

      cpel_table_row_take (row, DIFF_CELL_NAME, g_strdup (d->name != NULL ? d->name : ""), 0);
      cpel_table_row_take (row, DIFF_CELL_COUNT_A, cpel_format_count (d->count_a), (double) d->count_a);
      cpel_table_row_take (row, DIFF_CELL_COUNT_B, cpel_format_count (d->count_b), (double) d->count_b);
      cpel_table_row_take (row, DIFF_CELL_COUNT_DELTA, format_delta (d->count_delta), (double) d->count_delta);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->diff_tracks, 0, 0, rows->pdata, rows->len);
}


/* The Compare pages count the whole of both captures: their header says so. */
void
_cpel_stats_window_update_compare_texts (CpelStatsWindow *self)
{
  g_autofree char *total_a = cpel_format_count (cpel_diff_get_total_a (self->diff));
  g_autofree char *total_b = cpel_format_count (cpel_diff_get_total_b (self->diff));
  g_autofree char *range = NULL;
  g_autofree char *summary = NULL;

  /* TRANSLATORS: statistics window, Compare pages: "a.cpel — b.cpel, whole captures" */
  range = g_strdup_printf (_("%s — %s, whole captures"), self->name_a, self->name_b);
  /* TRANSLATORS: statistics window, Compare pages: events counted in A and in B */
  summary = g_strdup_printf (_("Events: %s in A · %s in B"), total_a, total_b);
  if (self->compare_hidden)
    {
      char *with_note = g_strconcat (summary, " · ", _("hidden event types not counted"), NULL);

      g_free (summary);
      summary = with_note;
    }
  gtk_label_set_text (self->range_label, range);
  gtk_label_set_text (self->summary_label, summary);
}

int
_cpel_stats_window_current_compare (CpelStatsWindow *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  if (self->diff == NULL)
    return -1;
  if (g_strcmp0 (page, "compare") == 0)
    return CPEL_DIFF_BY_EVENTS;
  if (g_strcmp0 (page, "compare-tracks") == 0)
    return CPEL_DIFF_BY_TRACKS;
  return -1;
}

const CpelDiffRow *
_cpel_stats_window_selected_diff_row (CpelStatsWindow *self)
{
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (self->compare_view));
  CpelTableRow *row = gtk_single_selection_get_selected_item (selection);
  guint64 i;

  if (row == NULL || self->diff == NULL)
    return NULL;
  i = cpel_table_row_get_id (row);
  if (i >= cpel_diff_get_n_rows (self->diff, CPEL_DIFF_BY_EVENTS))
    return NULL;
  return cpel_diff_get_row (self->diff, CPEL_DIFF_BY_EVENTS, (guint) i);
}

void
_cpel_stats_window_render_histogram (CpelStatsWindow   *self,
                                    const CpelDiffRow *row,
                                    cairo_t           *cr,
                                    int                width,
                                    int                height,
                                    const CpelPalette *palette)
{
  g_autofree char *title = NULL;

  /* TRANSLATORS: histogram title: intervals between events of a name */
  title = g_strdup_printf (_("Intervals of %s"), row->name);
  cpel_render_histogram (cr, width, height, palette, title,
                         row->histogram_a, self->name_a, row->histogram_b, self->name_b);
}

static void
draw_histogram (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  CpelStatsWindow *self = user_data;
  const CpelDiffRow *row = _cpel_stats_window_selected_diff_row (self);
  CpelPalette palette;

  if (row == NULL)
    return;
  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  _cpel_stats_window_render_histogram (self, row, cr, width, height, &palette);
}

/* Activating a Compare row searches that event name in both panes. */
static void
on_compare_activate (GtkColumnView   *view,
                     guint            position,
                     CpelStatsWindow *self)
{
  g_autoptr(CpelTableRow) row = _cpel_stats_window_row_at (view, position);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  const CpelDiffRow *d;
  CpelSearchBar *bar;

  if (row == NULL || self->diff == NULL || !CPEL_IS_WINDOW (parent)
      || cpel_table_row_get_id (row) >= cpel_diff_get_n_rows (self->diff, CPEL_DIFF_BY_EVENTS))
    return;
  d = cpel_diff_get_row (self->diff, CPEL_DIFF_BY_EVENTS, (guint) cpel_table_row_get_id (row));
  bar = cpel_window_get_search_bar (CPEL_WINDOW (parent));
  cpel_search_bar_set_search_mode (bar, TRUE);
  cpel_search_bar_search (bar, CPEL_SEARCH_CODE, d->name, FALSE);
  cpel_search_bar_step (bar, 1);
}

void
_cpel_stats_window_init_compare (CpelStatsWindow *self)
{
  self->diff_events = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  self->diff_tracks = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  _cpel_stats_window_append_column (self->compare_view, _("Event"), DIFF_CELL_NAME, FALSE, TRUE);
  /* TRANSLATORS: column: number of events in capture A */
  _cpel_stats_window_append_column (self->compare_view, _("Count A"), DIFF_CELL_COUNT_A, TRUE, FALSE);
  _cpel_stats_window_append_column (self->compare_view, _("Count B"), DIFF_CELL_COUNT_B, TRUE, FALSE);
  /* TRANSLATORS: column: change of the count from A to B */
  _cpel_stats_window_append_column (self->compare_view, _("Δ Count"), DIFF_CELL_COUNT_DELTA, TRUE, FALSE);
  /* TRANSLATORS: column: mean interval in capture A */
  _cpel_stats_window_append_column (self->compare_view, _("Mean A"), DIFF_CELL_MEAN_A, TRUE, FALSE);
  _cpel_stats_window_append_column (self->compare_view, _("Mean B"), DIFF_CELL_MEAN_B, TRUE, FALSE);
  /* TRANSLATORS: column: change of the mean interval in percent */
  _cpel_stats_window_append_column (self->compare_view, _("Δ Mean"), DIFF_CELL_MEAN_PCT, TRUE, FALSE);
  self->sorted_diff_events = _cpel_stats_window_setup_view (self->compare_view, self->diff_events);
  gtk_single_selection_set_autoselect (GTK_SINGLE_SELECTION (gtk_column_view_get_model (self->compare_view)), TRUE);
  g_signal_connect_object (gtk_column_view_get_model (self->compare_view), "notify::selected",
                           G_CALLBACK (gtk_widget_queue_draw), self->histogram_area, G_CONNECT_SWAPPED);
  g_signal_connect (self->compare_view, "activate", G_CALLBACK (on_compare_activate), self);
  gtk_drawing_area_set_draw_func (self->histogram_area, draw_histogram, self, NULL);

  _cpel_stats_window_append_column (self->compare_tracks_view, _("Label"), DIFF_CELL_NAME, FALSE, TRUE);
  /* TRANSLATORS: column: events of the track in capture A */
  _cpel_stats_window_append_column (self->compare_tracks_view, _("Events A"), DIFF_CELL_COUNT_A, TRUE, FALSE);
  _cpel_stats_window_append_column (self->compare_tracks_view, _("Events B"), DIFF_CELL_COUNT_B, TRUE, FALSE);
  _cpel_stats_window_append_column (self->compare_tracks_view, _("Δ Events"), DIFF_CELL_COUNT_DELTA, TRUE, FALSE);
  self->sorted_diff_tracks = _cpel_stats_window_setup_view (self->compare_tracks_view, self->diff_tracks);
}

CpelDiff *
cpel_stats_window_get_diff (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return self->diff;
}

GListModel *
cpel_stats_window_get_compare_rows (CpelStatsWindow *self,
                                    CpelDiffBy       by)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return G_LIST_MODEL (by == CPEL_DIFF_BY_TRACKS ? self->sorted_diff_tracks : self->sorted_diff_events);
}

gboolean
cpel_stats_window_has_compare_pages (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  return adw_view_stack_page_get_visible (self->compare_page)
         && adw_view_stack_page_get_visible (self->compare_tracks_page);
}
