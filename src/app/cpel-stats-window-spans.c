/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-window-spans.c — the Statistics window's Spans and Thread
 * States pages
 *
 * The counting worker (cpel-stats-window.c) also summarises the spans of
 * the session's rules over the same range and shown tracks
 * (cpel_span_summary_compute (), finished spans only, as `cpel spans`
 * counts them).  Spans: per span name count, total, self total (nested
 * spans' time left out), min, p50, p90, p99, max, mean, standard
 * deviation; Thread States: per track and state count, total, min, mean,
 * max.  Activating a row selects the longest span of its name in the range
 * (found in a worker: cpel_span_list_compute ()) and centres it; a state
 * row, the longest state of its track among the session's states.
 */
#include "cpel-stats-window-private.h"

#include <glib/gi18n.h>

#include "cpel-span-histogram-window.h"

/* The id of a track's row under a span name: its index in the summary's
 * per-track table, with this bit. */
#define SPAN_ROW_TRACK (G_GUINT64_CONSTANT (1) << 63)

enum
{
  SPAN_CELL_NAME,
  SPAN_CELL_COUNT,
  SPAN_CELL_TOTAL,
  SPAN_CELL_SELF,
  SPAN_CELL_MIN,
  SPAN_CELL_P50,
  SPAN_CELL_P90,
  SPAN_CELL_P99,
  SPAN_CELL_MAX,
  SPAN_CELL_MEAN,
  SPAN_CELL_STDDEV,
  N_SPAN_CELLS
};

enum
{
  STATE_CELL_TRACK,
  STATE_CELL_STATE,
  STATE_CELL_COUNT,
  STATE_CELL_TOTAL,
  STATE_CELL_MIN,
  STATE_CELL_MEAN,
  STATE_CELL_MAX,
  N_STATE_CELLS
};

static void
take_duration (CpelTableRow *row,
               guint         cell,
               gboolean      any,
               gint64        ns)
{
  cpel_table_row_take (row, cell, any ? cpel_time_format (ns) : g_strdup ("—"),
                       any ? (double) ns : -1);
}

/* A Spans row: a span name's (`track` NULL), or its spans on a track
 * (the name cell says the track; the percentiles are the name's only). */
static CpelTableRow *
span_row_new (const CpelSpanRow *r,
              guint64            id,
              const char        *track)
{
  CpelTableRow *row = cpel_table_row_new (N_SPAN_CELLS, id);
  gboolean any = r->count > 0;
  gboolean ranks = any && track == NULL;

  cpel_table_row_take (row, SPAN_CELL_NAME, g_strdup (track != NULL ? track : r->name), 0);
  cpel_table_row_take (row, SPAN_CELL_COUNT, cpel_format_count (r->count), (double) r->count);
  take_duration (row, SPAN_CELL_TOTAL, any, (gint64) MIN (r->total_ns, (guint64) G_MAXINT64));
  take_duration (row, SPAN_CELL_SELF, any, (gint64) MIN (r->self_ns, (guint64) G_MAXINT64));
  take_duration (row, SPAN_CELL_MIN, any, r->min_ns);
  take_duration (row, SPAN_CELL_P50, ranks, r->p50_ns);
  take_duration (row, SPAN_CELL_P90, ranks, r->p90_ns);
  take_duration (row, SPAN_CELL_P99, ranks, r->p99_ns);
  take_duration (row, SPAN_CELL_MAX, any, r->max_ns);
  take_duration (row, SPAN_CELL_MEAN, any, r->mean_ns);
  take_duration (row, SPAN_CELL_STDDEV, any, r->stddev_ns);
  return row;
}

void
_cpel_stats_window_fill_span_tables (CpelStatsWindow *self)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) per_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                          g_object_unref);
  guint n_spans = 0, n_states = 0, n_tracks = 0;

  if (self->span_summary != NULL)
    {
      n_spans = cpel_span_summary_get_n_rows (self->span_summary, CPEL_SPAN_TABLE_SPANS);
      n_states = cpel_span_summary_get_n_rows (self->span_summary, CPEL_SPAN_TABLE_STATES);
      n_tracks = cpel_span_summary_get_n_rows (self->span_summary, CPEL_SPAN_TABLE_TRACKS);
    }
  /* each name's tracks, in the table's order (by track label) */
  for (guint i = 0; i < n_tracks; i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (self->span_summary,
                                                        CPEL_SPAN_TABLE_TRACKS, i);
      GListStore *children = g_hash_table_lookup (per_name, r->name);
      g_autoptr(CpelTableRow) row = NULL;

      if (r->count == 0)
        continue;   /* orphans only */
      if (children == NULL)
        {
          children = g_list_store_new (CPEL_TYPE_TABLE_ROW);
          g_hash_table_insert (per_name, (gpointer) r->name, children);
        }
      row = span_row_new (r, SPAN_ROW_TRACK | i, r->track != NULL ? r->track : "");
      g_list_store_append (children, row);
    }
  for (guint i = 0; i < n_spans; i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (self->span_summary,
                                                        CPEL_SPAN_TABLE_SPANS, i);
      CpelTableRow *row = span_row_new (r, i, NULL);

      cpel_table_row_set_children (row, g_hash_table_lookup (per_name, r->name));
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->span_rows, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->span_rows)),
                       rows->pdata, rows->len);

  g_ptr_array_set_size (rows, 0);
  for (guint i = 0; i < n_states; i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (self->span_summary,
                                                        CPEL_SPAN_TABLE_STATES, i);
      CpelTableRow *row = cpel_table_row_new (N_STATE_CELLS, i);
      gboolean any = r->count > 0;

      cpel_table_row_take (row, STATE_CELL_TRACK, g_strdup (r->track != NULL ? r->track : ""), 0);
      cpel_table_row_take (row, STATE_CELL_STATE, g_strdup (r->name), 0);
      cpel_table_row_take (row, STATE_CELL_COUNT, cpel_format_count (r->count), (double) r->count);
      take_duration (row, STATE_CELL_TOTAL, any, (gint64) MIN (r->total_ns, (guint64) G_MAXINT64));
      take_duration (row, STATE_CELL_MIN, any, r->min_ns);
      take_duration (row, STATE_CELL_MEAN, any, r->mean_ns);
      take_duration (row, STATE_CELL_MAX, any, r->max_ns);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->state_rows, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->state_rows)),
                       rows->pdata, rows->len);
  adw_view_stack_page_set_visible (self->spans_page, n_spans > 0);
  adw_view_stack_page_set_visible (self->states_page, n_states > 0);
}

void
_cpel_stats_window_clear_span_tables (CpelStatsWindow *self)
{
  g_clear_pointer (&self->span_summary, cpel_span_summary_free);
  g_list_store_remove_all (self->span_rows);
  g_list_store_remove_all (self->state_rows);
}

/* The longest finished span (state) named `name` of the session's spans
 * that lies in [t0, t1) on a track counted (slot: that track only). */
gboolean
_cpel_stats_window_find_longest (CpelStatsWindow    *self,
                                 const char         *name,
                                 gboolean            state,
                                 guint               slot,
                                 CpelSessionSpanRef *ref)
{
  CpelSpans *spans = cpel_session_get_spans (self->session);
  guint n_names, name_index = G_MAXUINT;
  gint64 best = -1;

  if (spans == NULL || self->span_summary == NULL)
    return FALSE;
  n_names = cpel_spans_get_n_names (spans);
  for (guint i = 0; i < n_names && name_index == G_MAXUINT; i++)
    if (g_strcmp0 (cpel_spans_get_name (spans, i), name) == 0)
      name_index = i;
  if (name_index == G_MAXUINT)
    return FALSE;

  for (guint k = 0; k < (self->span_slots != NULL ? self->span_n_slots
                                                  : cpel_file_get_n_tracks (self->file)); k++)
    {
      guint s = self->span_slots != NULL ? self->span_slots[k] : k;
      guint64 n = 0;
      const CpelSpan *list;
      guint64 first = 0;

      if (slot != G_MAXUINT && s != slot)
        continue;
      list = state ? cpel_spans_get_track_states (spans, s, &n)
                   : cpel_spans_get_track_spans (spans, s, &n);
      if (list == NULL)
        continue;
      if (!state)
        first = cpel_spans_track_lower_bound (spans, s, self->span_t0);
      for (guint64 i = first; i < n; i++)
        {
          const CpelSpan *sp = &list[i];
          gint64 b = cpel_spans_begin_ns (spans, s, sp);
          gint64 e, d;

          if (!state && b >= self->span_t1)
            break;
          if (sp->name != name_index || (sp->flags & CPEL_SPAN_ORPHAN) != 0 || b < self->span_t0)
            continue;
          e = cpel_spans_end_ns (spans, s, sp);
          if (e >= self->span_t1)
            continue;
          d = e - b;
          if (d > best)
            {
              best = d;
              ref->slot = s;
              ref->state = state;
              ref->index = i;
            }
        }
    }
  return best >= 0;
}

/* The longest span of a name: cpel_span_list_compute () with top 1 in a
 * worker, over the range and tracks counted. */
typedef struct
{
  CpelFile         *file;
  CpelSpanRules    *rules;
  CpelSpansOptions  options;
  guint            *slots;
  CpelSpanFilter   *filter;
} LongestJob;

static void
longest_job_free (LongestJob *job)
{
  g_clear_object (&job->file);
  g_clear_pointer (&job->rules, cpel_span_rules_unref);
  g_free (job->slots);
  g_clear_pointer (&job->filter, cpel_span_filter_free);
  g_free (job);
}

static void
longest_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  LongestJob *job = task_data;
  GError *error = NULL;
  CpelSpanList *list = cpel_span_list_compute (job->file, job->rules, &job->options, job->filter,
                                               1, cancellable, &error);

  if (list == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, list, (GDestroyNotify) cpel_span_list_free);
}

static void
on_longest (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(CpelStatsWindow) self = user_data;
  g_autoptr(CpelSpanList) list = g_task_propagate_pointer (G_TASK (result), NULL);
  CpelSessionSpanRef ref;
  const CpelSpanItem *item;

  if (g_task_get_cancellable (G_TASK (result)) != self->longest_cancellable)
    return;
  g_clear_object (&self->longest_cancellable);
  item = list != NULL && cpel_span_list_get_n (list) > 0 ? cpel_span_list_get (list, 0) : NULL;
  if (item != NULL
      && cpel_session_find_span (self->session, item->slot, item->begin, item->begin_ns,
                                 item->name, &ref))
    cpel_session_go_to_span (self->session, &ref);
  else
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
go_to_longest_span (CpelStatsWindow *self,
                    const char      *name,
                    guint            slot)
{
  CpelFile *file = cpel_session_get_file (self->session);
  CpelSpanRules *rules = cpel_session_get_span_rules (self->session);
  g_autoptr(GTask) task = NULL;
  LongestJob *job;

  if (self->longest_cancellable != NULL)
    g_cancellable_cancel (self->longest_cancellable);
  g_clear_object (&self->longest_cancellable);
  if (file == NULL || rules == NULL)
    return;
  job = g_new0 (LongestJob, 1);
  job->file = g_object_ref (file);
  job->rules = cpel_span_rules_ref (rules);
  job->options.t0 = self->span_t0;
  job->options.t1 = self->span_t1;
  if (slot != G_MAXUINT)
    {
      /* a track's row: that track only */
      job->slots = g_new (guint, 1);
      job->slots[0] = slot;
      job->options.slots = job->slots;
      job->options.n_slots = 1;
    }
  else if (self->span_slots != NULL)
    {
      job->slots = g_memdup2 (self->span_slots, sizeof (guint) * MAX (self->span_n_slots, 1));
      job->options.slots = job->slots;
      job->options.n_slots = self->span_n_slots;
    }
  job->filter = cpel_span_filter_new (name, 0, G_MAXINT64);
  self->longest_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->longest_cancellable, on_longest, g_object_ref (self));
  g_task_set_source_tag (task, go_to_longest_span);
  g_task_set_task_data (task, job, (GDestroyNotify) longest_job_free);
  cpel_background_run (task, longest_thread);
}

/* The summary's row a table row stands for: a state's, a span name's or a
 * name's on a track. */
static const CpelSpanRow *
span_row_of (CpelStatsWindow *self,
             CpelTableRow    *row,
             gboolean         state)
{
  guint64 id = cpel_table_row_get_id (row);
  CpelSpanTable table = state ? CPEL_SPAN_TABLE_STATES
                        : (id & SPAN_ROW_TRACK) ? CPEL_SPAN_TABLE_TRACKS : CPEL_SPAN_TABLE_SPANS;

  id &= ~SPAN_ROW_TRACK;
  if (id >= cpel_span_summary_get_n_rows (self->span_summary, table))
    return NULL;
  return cpel_span_summary_get_row (self->span_summary, table, (guint) id);
}

/* The span name's row of the summary. */
static const CpelSpanRow *
name_row (CpelStatsWindow *self,
          const char      *name)
{
  for (guint i = 0; i < cpel_span_summary_get_n_rows (self->span_summary, CPEL_SPAN_TABLE_SPANS);
       i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (self->span_summary,
                                                        CPEL_SPAN_TABLE_SPANS, i);

      if (g_strcmp0 (r->name, name) == 0)
        return r;
    }
  return NULL;
}

static void
on_span_activate (GtkColumnView   *view,
                  guint            position,
                  CpelStatsWindow *self)
{
  g_autoptr(CpelTableRow) row = _cpel_stats_window_row_at (view, position);
  gboolean state = view == self->states_view;
  CpelSessionSpanRef ref = { 0 };
  const CpelSpanRow *r;
  gboolean on_track;

  if (row == NULL || self->span_summary == NULL)
    return;
  on_track = !state && (cpel_table_row_get_id (row) & SPAN_ROW_TRACK) != 0;
  r = span_row_of (self, row, state);
  if (r == NULL)
    return;
  if (!state)
    {
      /* Spans: the longest (on the row's track) found in a worker. */
      go_to_longest_span (self, r->name, on_track ? r->slot : G_MAXUINT);
      return;
    }
  /* States (cpel_span_list_compute () leaves them out): the session's
   * states of the row's track. */
  if (!_cpel_stats_window_find_longest (self, r->name, TRUE, r->slot, &ref))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  cpel_session_go_to_span (self->session, &ref);
}

GtkWindow *
cpel_stats_window_show_distribution (CpelStatsWindow *self,
                                     guint            position)
{
  g_autoptr(CpelTableRow) row = NULL;
  const CpelSpanRow *r;
  CpelSpanHistogramWindow *window;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  row = _cpel_stats_window_row_at (self->spans_view, position);
  if (row == NULL || self->span_summary == NULL)
    return NULL;
  r = span_row_of (self, row, FALSE);
  /* a track's row: its name's distribution */
  if (r != NULL && r->slot != G_MAXUINT)
    r = name_row (self, r->name);
  if (r == NULL)
    return NULL;
  window = cpel_span_histogram_window_new (self->session, GTK_WINDOW (self), r->name,
                                           self->span_t0, self->span_t1,
                                           self->span_slots, self->span_n_slots, r);
  gtk_window_present (GTK_WINDOW (window));
  return GTK_WINDOW (window);
}

/* stats.span-distribution: the selected row's (else the first row's). */
void
_cpel_stats_window_action_distribution (GtkWidget  *widget,
                                        const char *action_name,
                                        GVariant   *parameter)
{
  CpelStatsWindow *self = CPEL_STATS_WINDOW (widget);
  GtkSelectionModel *model = gtk_column_view_get_model (self->spans_view);
  guint position = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));

  if (position == GTK_INVALID_LIST_POSITION)
    position = 0;
  if (cpel_stats_window_show_distribution (self, position) == NULL)
    gtk_widget_error_bell (widget);
}

void
_cpel_stats_window_init_spans (CpelStatsWindow *self)
{
  self->span_rows = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  self->state_rows = g_list_store_new (CPEL_TYPE_TABLE_ROW);

  /* TRANSLATORS: column: span name (e.g. a VPP graph node) */
  {
    /* a span name's row unfolds into its tracks' */
    GtkColumnViewColumn *column = cpel_table_tree_column_new (_("Span"), SPAN_CELL_NAME, TRUE,
                                                              TRUE);

    gtk_column_view_append_column (self->spans_view, column);
    g_object_unref (column);
  }
  _cpel_stats_window_append_column (self->spans_view, _("Count"), SPAN_CELL_COUNT, TRUE, FALSE);
  /* TRANSLATORS: column: the durations' sum */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "Total"),
                                    SPAN_CELL_TOTAL, TRUE, FALSE);
  /* TRANSLATORS: column: the durations' sum less the nested spans' */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "Self"),
                                    SPAN_CELL_SELF, TRUE, FALSE);
  /* TRANSLATORS: column: shortest duration */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "Min"),
                                    SPAN_CELL_MIN, TRUE, FALSE);
  /* TRANSLATORS: column: median duration */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "p50"),
                                    SPAN_CELL_P50, TRUE, FALSE);
  /* TRANSLATORS: column: 90th percentile of the durations */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "p90"),
                                    SPAN_CELL_P90, TRUE, FALSE);
  /* TRANSLATORS: column: 99th percentile of the durations */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "p99"),
                                    SPAN_CELL_P99, TRUE, FALSE);
  /* TRANSLATORS: column: longest duration */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "Max"),
                                    SPAN_CELL_MAX, TRUE, FALSE);
  /* TRANSLATORS: column: mean duration */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "Mean"),
                                    SPAN_CELL_MEAN, TRUE, FALSE);
  /* TRANSLATORS: column: standard deviation of the durations */
  _cpel_stats_window_append_column (self->spans_view, C_("duration", "Std. Dev."),
                                    SPAN_CELL_STDDEV, TRUE, FALSE);
  self->sorted_spans = _cpel_stats_window_setup_tree_view (self->spans_view, self->span_rows);
  {
    GtkWidget *button = gtk_button_new_with_label (_("Show Distribution"));

    gtk_widget_set_tooltip_text (button, _("The histogram of the selected span’s durations"));
    gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "stats.span-distribution");
    gtk_widget_set_halign (button, GTK_ALIGN_END);
    gtk_widget_set_margin_end (button, 6);
    gtk_widget_set_margin_top (button, 6);
    gtk_widget_set_margin_bottom (button, 6);
    gtk_box_append (self->spans_box, button);
  }
  g_signal_connect (self->spans_view, "activate", G_CALLBACK (on_span_activate), self);

  _cpel_stats_window_append_column (self->states_view, _("Track"), STATE_CELL_TRACK, FALSE, TRUE);
  /* TRANSLATORS: column: a thread state (running, runnable, sleeping) */
  _cpel_stats_window_append_column (self->states_view, _("State"), STATE_CELL_STATE, FALSE, FALSE);
  _cpel_stats_window_append_column (self->states_view, _("Count"), STATE_CELL_COUNT, TRUE, FALSE);
  _cpel_stats_window_append_column (self->states_view, C_("duration", "Total"),
                                    STATE_CELL_TOTAL, TRUE, FALSE);
  _cpel_stats_window_append_column (self->states_view, C_("duration", "Min"),
                                    STATE_CELL_MIN, TRUE, FALSE);
  _cpel_stats_window_append_column (self->states_view, C_("duration", "Mean"),
                                    STATE_CELL_MEAN, TRUE, FALSE);
  _cpel_stats_window_append_column (self->states_view, C_("duration", "Max"),
                                    STATE_CELL_MAX, TRUE, FALSE);
  self->sorted_states = _cpel_stats_window_setup_view (self->states_view, self->state_rows);
  g_signal_connect (self->states_view, "activate", G_CALLBACK (on_span_activate), self);
}

CpelSpanSummary *
cpel_stats_window_get_span_summary (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return self->span_summary;
}

GListModel *
cpel_stats_window_get_span_rows (CpelStatsWindow *self,
                                 CpelSpanTable    table)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  g_return_val_if_fail (table == CPEL_SPAN_TABLE_SPANS || table == CPEL_SPAN_TABLE_STATES, NULL);
  return G_LIST_MODEL (table == CPEL_SPAN_TABLE_STATES ? self->sorted_states : self->sorted_spans);
}

void
cpel_stats_window_activate_span_row (CpelStatsWindow *self,
                                     CpelSpanTable    table,
                                     guint            position)
{
  g_return_if_fail (CPEL_IS_STATS_WINDOW (self));
  on_span_activate (table == CPEL_SPAN_TABLE_STATES ? self->states_view : self->spans_view,
                    position, self);
}
