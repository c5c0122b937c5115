/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-window.c — the Statistics window
 *
 * cpel_stats_compute() runs in a GTask worker over the range (the ruler
 * measurement [m0, m1], else the visible [t0, t1)), the timeline's shown
 * tracks and without its hidden event types; a newer request cancels the
 * running one.  Two sortable tables (event codes, tracks) show the result.
 * While the window compares two captures, the same worker counts the diff
 * for the Compare pages (cpel-stats-window-compare.c); Copy and Save are in
 * cpel-stats-window-export.c.
 */
#include "cpel-stats-window-private.h"

#include <glib/gi18n.h>

#include "cpel-app-util.h"
#include "cpel-close-with-parent.h"
#include "cpel-compare-pane.h"
#include "cpel-search-bar.h"

enum
{
  CODE_CELL_CODE,
  CODE_CELL_NAME,
  CODE_CELL_COUNT,
  CODE_CELL_INTERVALS,
  CODE_CELL_MIN,
  CODE_CELL_MEAN,
  CODE_CELL_MAX,
  N_CODE_CELLS
};

enum
{
  TRACK_CELL_ID,
  TRACK_CELL_LABEL,
  TRACK_CELL_COUNT,
  N_TRACK_CELLS
};
G_DEFINE_FINAL_TYPE (CpelStatsWindow, cpel_stats_window, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------------ */
/* Counting in a worker                                                       */

typedef struct
{
  CpelFile         *file;
  CpelStatsOptions  options;
  guint            *slots;
  guint8           *hidden;
  CpelFile         *compare_a;   /* both set while comparing */
  CpelFile         *compare_b;
  guint8           *hidden_a;    /* the panes' hidden types (by name from the single view) */
  guint8           *hidden_b;
  CpelSpanRules    *rules;       /* the session's; NULL: no spans, or counted apart */
} Job;

/* The Spans pages' count from the session's spans (derived of the whole
 * capture), a task of its own beside the event statistics: on two CPUs
 * the pages fill in when it ends, not when the longer of the two does. */
typedef struct
{
  CpelSpans        *spans;
  CpelSpansOptions  options;
  guint            *slots;
} SpanJob;

static void
span_job_free (SpanJob *job)
{
  g_clear_pointer (&job->spans, cpel_spans_free);
  g_free (job->slots);
  g_free (job);
}

static void
span_count_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  SpanJob *job = task_data;
  GError *error = NULL;
  CpelSpanSummary *summary = cpel_span_summary_compute_from_spans (job->spans, &job->options,
                                                                   FALSE, cancellable, &error);

  if (summary == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, summary, (GDestroyNotify) cpel_span_summary_free);
}

typedef struct
{
  CpelStats *stats;
  CpelDiff  *diff;
  CpelSpanSummary *spans;
  CpelTop   *top;
} Counted;

static void
counted_free (Counted *counted)
{
  g_clear_pointer (&counted->stats, cpel_stats_free);
  g_clear_pointer (&counted->diff, cpel_diff_free);
  g_clear_pointer (&counted->spans, cpel_span_summary_free);
  g_clear_pointer (&counted->top, cpel_top_free);
  g_free (counted);
}

static void
job_free (Job *job)
{
  g_clear_object (&job->file);
  g_clear_object (&job->compare_a);
  g_clear_object (&job->compare_b);
  g_free (job->hidden_a);
  g_free (job->hidden_b);
  g_free (job->slots);
  g_free (job->hidden);
  g_clear_pointer (&job->rules, cpel_span_rules_unref);
  g_free (job);
}

static void
count_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  Counted *counted = g_new0 (Counted, 1);

  counted->stats = cpel_stats_compute (job->file, &job->options, cancellable, &error);
  if (counted->stats != NULL && job->compare_a != NULL)
    {
      CpelDiffOptions options = { 0, G_MAXINT64, TRUE, job->hidden_a, job->hidden_b };

      counted->diff = cpel_diff_compute (job->compare_a, job->compare_b, &options, cancellable, &error);
      if (counted->diff == NULL)
        g_clear_pointer (&counted->stats, cpel_stats_free);
    }
  if (counted->stats != NULL && job->rules != NULL)
    {
      /* The same range and tracks (every event type: spans pair events
       * whatever is hidden), derived again: the session's spans are not
       * there yet. */
      CpelSpansOptions options = { job->options.t0, job->options.t1,
                                   job->options.slots, job->options.n_slots };

      counted->spans = cpel_span_summary_compute (job->file, job->rules, &options, FALSE,
                                                  cancellable, &error);
      if (counted->spans == NULL)
        g_clear_pointer (&counted->stats, cpel_stats_free);
    }
  if (counted->stats != NULL && cpel_file_has_call_chains (job->file))
    {
      /* the Functions page: the same range, tracks and hidden types */
      counted->top = cpel_top_compute_scope (job->file, &job->options, cancellable, &error);
      if (counted->top == NULL)
        g_clear_pointer (&counted->stats, cpel_stats_free);
    }
  if (counted->stats == NULL)
    {
      counted_free (counted);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, counted, (GDestroyNotify) counted_free);
}

static char *
format_interval (const CpelStatsCode *code,
                 gint64               ns)
{
  if (code->n_intervals == 0)
    return g_strdup ("—");
  return cpel_time_format (ns);
}

static void
fill_tables (CpelStatsWindow *self)
{
  guint n_codes = cpel_stats_get_n_codes (self->stats);
  guint n_tracks = cpel_stats_get_n_tracks (self->stats);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n_codes; i++)
    {
      const CpelStatsCode *code = cpel_stats_get_code (self->stats, i);
      CpelTableRow *row = cpel_table_row_new (N_CODE_CELLS, code->type);
      gboolean any = code->n_intervals > 0;

      cpel_table_row_take (row, CODE_CELL_CODE, g_strdup_printf ("%u", code->code), code->code);
      cpel_table_row_take (row, CODE_CELL_NAME,
                           g_strdup (code->name != NULL && *code->name ? code->name : _("(unnamed)")), 0);
      cpel_table_row_take (row, CODE_CELL_COUNT, cpel_format_count (code->count), (double) code->count);
      cpel_table_row_take (row, CODE_CELL_INTERVALS, cpel_format_count (code->n_intervals),
                           (double) code->n_intervals);
      cpel_table_row_take (row, CODE_CELL_MIN, format_interval (code, code->interval_min),
                           any ? (double) code->interval_min : -1);
      cpel_table_row_take (row, CODE_CELL_MEAN, format_interval (code, (gint64) (code->interval_mean + 0.5)),
                           any ? code->interval_mean : -1);
      cpel_table_row_take (row, CODE_CELL_MAX, format_interval (code, code->interval_max),
                           any ? (double) code->interval_max : -1);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->codes, 0, g_list_model_get_n_items (G_LIST_MODEL (self->codes)),
                       rows->pdata, rows->len);

  g_ptr_array_set_size (rows, 0);
  for (guint i = 0; i < n_tracks; i++)
    {
      const CpelStatsTrack *track = cpel_stats_get_track (self->stats, i);
      CpelTableRow *row = cpel_table_row_new (N_TRACK_CELLS, track->slot);

      cpel_table_row_take (row, TRACK_CELL_ID, g_strdup_printf ("%u", track->track_id), track->track_id);
      cpel_table_row_take (row, TRACK_CELL_LABEL, g_strdup (track->label != NULL ? track->label : ""), 0);
      cpel_table_row_take (row, TRACK_CELL_COUNT, cpel_format_count (track->count), (double) track->count);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->tracks, 0, g_list_model_get_n_items (G_LIST_MODEL (self->tracks)),
                       rows->pdata, rows->len);
}

static void
update_texts (CpelStatsWindow *self)
{
  gint64 t0 = cpel_stats_get_t0 (self->stats);
  /* A measurement [m0, m1] is counted as [m0, m1 + 1): shown as measured,
   * with the ruler's Δt. */
  gint64 t1 = cpel_stats_get_t1 (self->stats) - (self->measured && cpel_stats_get_t1 (self->stats) > t0);
  guint64 total = cpel_stats_get_total (self->stats);
  guint n_tracks = cpel_stats_get_n_tracks (self->stats);
  guint n_busy = cpel_stats_get_n_busy_tracks (self->stats);
  guint n_codes = cpel_stats_get_n_codes (self->stats);
  const guint8 *hidden = cpel_session_get_hidden_types (self->session);
  char a[32], b[32];
  g_autofree char *span = cpel_time_format (t1 - t0);
  g_autofree char *total_text = cpel_format_count (total);
  g_autofree char *busy_text = cpel_format_count (n_busy);
  g_autofree char *tracks_text = cpel_format_count (n_tracks);
  g_autofree char *codes_text = cpel_format_count (n_codes);
  g_autofree char *events = NULL;
  g_autofree char *tracks = NULL;
  g_autofree char *codes = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *subtitle = NULL;

  if (_cpel_stats_window_current_compare (self) >= 0)
    {
      _cpel_stats_window_update_compare_texts (self);
      return;
    }
  if (self->measured)
    /* TRANSLATORS: statistics window: the measured range, start – end (span) */
    subtitle = g_strdup_printf (_("Measured range %s – %s (%s)"),
                                cpel_time_format_range_end (t0, t1, a, sizeof a),
                                cpel_time_format_range_end (t1, t0, b, sizeof b), span);
  else
    /* TRANSLATORS: statistics window: the visible range, start – end (span) */
    subtitle = g_strdup_printf (_("Visible range %s – %s (%s)"),
                                cpel_time_format_range_end (t0, t1, a, sizeof a),
                                cpel_time_format_range_end (t1, t0, b, sizeof b), span);
  /* comparing: these pages count A's events only, which they say (B's are
   * on the Compare pages) */
  if (self->diff != NULL && self->name_a != NULL)
    {
      /* TRANSLATORS: statistics window while comparing, Event Codes and
       * Tracks pages: "A only (a.cpel) · Visible range 0 ns – 2 ms (2 ms)" */
      char *only_a = g_strdup_printf (_("A only (%s) · %s"), self->name_a, subtitle);

      g_free (subtitle);
      subtitle = only_a;
    }
  gtk_label_set_text (self->range_label, subtitle);

  events = g_strdup_printf (ngettext ("%s event", "%s events", total), total_text);
  /* TRANSLATORS: "3 of 4 tracks with events" */
  tracks = g_strdup_printf (ngettext ("%s of %s track with events", "%s of %s tracks with events",
                                      n_tracks), busy_text, tracks_text);
  codes = g_strdup_printf (ngettext ("%s event code", "%s event codes", n_codes), codes_text);
  /* TRANSLATORS: statistics summary: events · tracks · codes */
  summary = g_strdup_printf (_("%s · %s · %s"), events, tracks, codes);
  if (hidden != NULL)
    {
      char *with_note = g_strconcat (summary, " · ", _("hidden event types not counted"), NULL);

      g_free (summary);
      summary = with_note;
    }
  gtk_label_set_text (self->summary_label, summary);
}

/* Whether the page shown is one of the Spans pages. */
static gboolean
showing_spans (CpelStatsWindow *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  return g_strcmp0 (page, "spans") == 0 || g_strcmp0 (page, "states") == 0;
}

/* The one place that says what is busy: the spinner while anything is
 * counted, the busy page while what the page shown needs is (the event
 * statistics, or the Spans pages' count when apart), Copy and Save once it
 * is there. */
static void
update_state (CpelStatsWindow *self)
{
  gboolean counting = self->cancellable != NULL;
  gboolean waiting = showing_spans (self) && self->spans_apart ? self->span_cancellable != NULL
                                                               : counting;
  gboolean have = showing_spans (self) && self->spans_apart ? self->span_summary != NULL
                                                            : self->stats != NULL;

  gtk_spinner_set_spinning (self->spinner, counting || self->span_cancellable != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), !waiting && have);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), !waiting && have);
  if (!self->failed)
    gtk_stack_set_visible_child_name (self->state_stack, waiting ? "busy" : "stats");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
show_error (CpelStatsWindow *self,
            const GError    *error)
{
  adw_status_page_set_description (self->error_page, error->message);
  gtk_stack_set_visible_child_name (self->state_stack, "error");
  self->failed = TRUE;
}

static void
on_span_counted (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(CpelStatsWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  CpelSpanSummary *summary = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_task_get_cancellable (G_TASK (result)) != self->span_cancellable)
    {
      /* superseded by a newer count (or the window went away) */
      g_clear_pointer (&summary, cpel_span_summary_free);
      return;
    }
  g_clear_object (&self->span_cancellable);
  if (summary == NULL)
    show_error (self, error);
  else
    {
      self->span_summary = summary;
      _cpel_stats_window_fill_span_tables (self);
    }
  update_state (self);
}

static void
on_counted (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(CpelStatsWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  Counted *counted = g_task_propagate_pointer (G_TASK (result), &error);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));

  if (cancellable != self->cancellable)
    {
      /* Superseded by a newer count (or the window went away). */
      g_clear_pointer (&counted, counted_free);
      return;
    }
  g_clear_object (&self->cancellable);

  if (counted == NULL)
    {
      show_error (self, error);
      update_state (self);
      return;
    }
  self->stats = g_steal_pointer (&counted->stats);
  self->diff = g_steal_pointer (&counted->diff);
  _cpel_stats_window_set_functions (self, g_steal_pointer (&counted->top));
  if (!self->spans_apart)
    {
      self->span_summary = g_steal_pointer (&counted->spans);
      _cpel_stats_window_fill_span_tables (self);
    }
  counted_free (counted);
  fill_tables (self);
  _cpel_stats_window_fill_diff_tables (self);
  adw_view_stack_page_set_visible (self->compare_page, self->diff != NULL);
  adw_view_stack_page_set_visible (self->compare_tracks_page, self->diff != NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self->histogram_area));
  update_texts (self);
  update_state (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->codes_view));
}

void
cpel_stats_window_refresh (CpelStatsWindow *self)
{
  CpelFile *file;
  CpelStatsOptions scope = { 0 };
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (CPEL_IS_STATS_WINDOW (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->span_cancellable != NULL)
    g_cancellable_cancel (self->span_cancellable);
  g_clear_object (&self->span_cancellable);
  self->spans_apart = FALSE;
  self->failed = FALSE;
  g_clear_pointer (&self->stats, cpel_stats_free);
  g_clear_pointer (&self->diff, cpel_diff_free);
  g_list_store_remove_all (self->codes);
  g_list_store_remove_all (self->tracks);
  g_list_store_remove_all (self->diff_events);
  g_list_store_remove_all (self->diff_tracks);
  _cpel_stats_window_clear_span_tables (self);
  _cpel_stats_window_set_functions (self, NULL);

  file = cpel_session_get_file (self->session);
  g_set_object (&self->file, file);
  if (file == NULL)
    {
      adw_status_page_set_description (self->error_page, _("No file is open"));
      gtk_stack_set_visible_child_name (self->state_stack, "error");
      self->failed = TRUE;
      update_state (self);
      return;
    }

  job = g_new0 (Job, 1);
  job->file = g_object_ref (file);
  /* The ruler counts [m0, m1] inclusive: the same events here. */
  self->measured = cpel_session_get_stats_scope (self->session, &scope);
  job->options.t0 = scope.t0;
  job->options.t1 = scope.t1;
  if (scope.slots != NULL)
    {
      job->slots = g_memdup2 (scope.slots, sizeof (guint) * MAX (scope.n_slots, 1));
      job->options.slots = job->slots;
      job->options.n_slots = scope.n_slots;
    }
  self->span_t0 = scope.t0;
  self->span_t1 = scope.t1;
  g_clear_pointer (&self->span_slots, g_free);
  self->span_n_slots = 0;
  if (scope.slots != NULL)
    {
      self->span_slots = g_memdup2 (scope.slots, sizeof (guint) * MAX (scope.n_slots, 1));
      self->span_n_slots = scope.n_slots;
    }
  if (cpel_session_get_span_rules (self->session) != NULL)
    {
      /* the session's spans are those of its file and rules, or none yet */
      CpelSpans *spans = cpel_session_get_spans (self->session);

      if (spans != NULL && cpel_spans_is_whole (spans))
        {
          SpanJob *span_job = g_new0 (SpanJob, 1);
          g_autoptr(GTask) span_task = NULL;

          span_job->spans = cpel_spans_ref (spans);
          span_job->options.t0 = scope.t0;
          span_job->options.t1 = scope.t1;
          if (scope.slots != NULL)
            {
              span_job->slots = g_memdup2 (scope.slots, sizeof (guint) * MAX (scope.n_slots, 1));
              span_job->options.slots = span_job->slots;
              span_job->options.n_slots = scope.n_slots;
            }
          self->spans_apart = TRUE;
          self->span_cancellable = g_cancellable_new ();
          span_task = g_task_new (NULL, self->span_cancellable, on_span_counted,
                                  g_object_ref (self));
          g_task_set_source_tag (span_task, cpel_stats_window_refresh);
          g_task_set_task_data (span_task, span_job, (GDestroyNotify) span_job_free);
          cpel_background_run (span_task, span_count_thread);
        }
      else
        job->rules = cpel_span_rules_ref (cpel_session_get_span_rules (self->session));
    }
  g_clear_pointer (&self->counted_hidden, g_free);
  if (scope.hidden_types != NULL)
    {
      job->hidden = g_memdup2 (scope.hidden_types, cpel_file_get_n_types (file));
      job->options.hidden_types = job->hidden;
      self->counted_hidden = g_memdup2 (scope.hidden_types, cpel_file_get_n_types (file));
    }
  {
    GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

    if (CPEL_IS_WINDOW (parent) && cpel_window_is_comparing (CPEL_WINDOW (parent)))
      {
        CpelComparePane *pane = CPEL_COMPARE_PANE (cpel_window_get_compare_pane (CPEL_WINDOW (parent)));
        const CpelCompareView *cv = cpel_compare_pane_get_view (pane);

        job->compare_a = g_object_ref (cpel_compare_pane_get_file_a (pane));
        job->compare_b = g_object_ref (cpel_compare_pane_get_file_b (pane));
        if (cv->a.hidden_types != NULL)
          job->hidden_a = g_memdup2 (cv->a.hidden_types, cpel_file_get_n_types (job->compare_a));
        if (cv->b.hidden_types != NULL)
          job->hidden_b = g_memdup2 (cv->b.hidden_types, cpel_file_get_n_types (job->compare_b));
        self->compare_hidden = job->hidden_a != NULL || job->hidden_b != NULL;
        g_free (self->name_a);
        g_free (self->name_b);
        self->name_a = g_strdup (cv->name_a != NULL ? cv->name_a : "A");
        self->name_b = g_strdup (cv->name_b != NULL ? cv->name_b : "B");
      }
  }

  self->cancellable = g_cancellable_new ();
  update_state (self);
  task = g_task_new (NULL, self->cancellable, on_counted, g_object_ref (self));
  g_task_set_source_tag (task, cpel_stats_window_refresh);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  cpel_background_run (task, count_thread);
}

static void
on_refresh_clicked (CpelStatsWindow *self)
{
  cpel_stats_window_refresh (self);
}

/* ------------------------------------------------------------------------ */

gboolean
cpel_stats_window_is_busy (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  return self->cancellable != NULL || self->span_cancellable != NULL
         || self->longest_cancellable != NULL;
}

CpelStats *
cpel_stats_window_get_stats (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return self->stats;
}

GListModel *
cpel_stats_window_get_rows (CpelStatsWindow   *self,
                            CpelStatsCsvTable  table)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return G_LIST_MODEL (table == CPEL_STATS_CSV_TRACKS ? self->sorted_tracks : self->sorted_codes);
}


/* The table row at `position` of a view's (sorted) model, or NULL. */
CpelTableRow *
_cpel_stats_window_row_at (GtkColumnView *view,
                           guint          position)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(GObject) item = NULL;
  CpelTableRow *row;

  if (model == NULL || position >= g_list_model_get_n_items (model))
    return NULL;
  /* a tree's row: its table row */
  item = g_list_model_get_item (model, position);
  row = cpel_table_row_of (item);
  return row != NULL ? g_object_ref (row) : NULL;
}

/* Activating an event-code row searches that code in the window (the
 * search bar opens, steps to its first match and highlights them all). */
static void
on_code_activate (GtkColumnView   *view,
                  guint            position,
                  CpelStatsWindow *self)
{
  g_autoptr(CpelTableRow) row = _cpel_stats_window_row_at (view, position);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  CpelFile *file = cpel_session_get_file (self->session);
  g_autofree char *code = NULL;
  CpelSearchBar *bar;
  guint type;

  if (row == NULL || file == NULL || !CPEL_IS_WINDOW (parent))
    return;
  type = (guint) cpel_table_row_get_id (row);
  if (type >= cpel_file_get_n_types (file))
    return;
  code = g_strdup_printf ("%u", cpel_file_get_type_code (file, type));
  bar = cpel_window_get_search_bar (CPEL_WINDOW (parent));
  cpel_search_bar_set_search_mode (bar, TRUE);
  cpel_search_bar_search (bar, CPEL_SEARCH_CODE, code, FALSE);
  cpel_search_bar_step (bar, 1);
}

/* Activating a track row scrolls the timeline to that track. */
static void
on_track_activate (GtkColumnView   *view,
                   guint            position,
                   CpelStatsWindow *self)
{
  g_autoptr(CpelTableRow) row = _cpel_stats_window_row_at (view, position);

  if (row == NULL
      || !cpel_session_reveal_track (self->session, (guint) cpel_table_row_get_id (row), TRUE))
    gtk_widget_error_bell (GTK_WIDGET (self));
}

/* A new sort order starts at the top of the list (GTK 4.8's column view
 * cannot scroll to a row, so the selected one could not be followed).
 * Not at once: the sort model has just replaced every row, and GTK 4.8's
 * list looks for the row at a new scroll position among rows not laid
 * out yet ("GtkColumnListView failed to scroll to given position");
 * before the sort, GTK's list keeps its top row in view through the sort.
 * So on the second frame tick from now, when the rows have been laid out
 * (random input seed 47). */
static gboolean
scroll_to_top_tick (GtkWidget     *view,
                    GdkFrameClock *clock,
                    gpointer       data)
{
  guint *ticks = data;

  if (++*ticks < 2)
    return G_SOURCE_CONTINUE;
  /* The first row anchored at the top: through the column view's list
   * (GTK 4.8 has no gtk_column_view_scroll_to()), which moves nothing
   * when that row has no allocation yet, rather than through the
   * adjustment, whose new value the list then looks up. */
  for (GtkWidget *child = gtk_widget_get_first_child (view); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)));

        if (model != NULL && g_list_model_get_n_items (model) > 0)
          gtk_widget_activate_action (child, "list.scroll-to-item", "u", 0);
      }
  return G_SOURCE_REMOVE;
}

static void
on_sorter_changed (GtkSorter       *sorter,
                   GtkSorterChange  change,
                   GtkColumnView   *view)
{
  gtk_widget_add_tick_callback (GTK_WIDGET (view), scroll_to_top_tick, g_new0 (guint, 1), g_free);
}


static void
on_page_changed (CpelStatsWindow *self)
{
  if (self->stats != NULL)
    update_texts (self);
  update_state (self);
}


static GtkSortListModel *
setup_view (GtkColumnView    *view,
            GtkSortListModel *sorted)
{
  GtkSingleSelection *selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (sorted)));

  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  g_signal_connect_object (gtk_column_view_get_sorter (view), "changed",
                           G_CALLBACK (on_sorter_changed), view, 0);
  return sorted;
}

GtkSortListModel *
_cpel_stats_window_setup_view (GtkColumnView *view,
                               GListStore    *store)
{
  return setup_view (view, gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (store)),
                                                    g_object_ref (gtk_column_view_get_sorter (view))));
}

GtkSortListModel *
_cpel_stats_window_setup_tree_view (GtkColumnView *view,
                                    GListStore    *store)
{
  return setup_view (view, cpel_table_tree_model_new (G_LIST_MODEL (store),
                                                      gtk_column_view_get_sorter (view)));
}

void
_cpel_stats_window_append_column (GtkColumnView *view,
                                  const char    *title,
                                  guint          cell,
                                  gboolean       numeric,
                                  gboolean       expand)
{
  GtkColumnViewColumn *column = cpel_table_column_new (title, cell, numeric, expand, TRUE);

  gtk_column_view_append_column (view, column);
  g_object_unref (column);
}

static void
cpel_stats_window_dispose (GObject *object)
{
  CpelStatsWindow *self = CPEL_STATS_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->span_cancellable != NULL)
    g_cancellable_cancel (self->span_cancellable);
  g_clear_object (&self->span_cancellable);
  g_clear_handle_id (&self->scope_id, g_source_remove);
  g_clear_pointer (&self->counted_hidden, g_free);
  if (self->longest_cancellable != NULL)
    g_cancellable_cancel (self->longest_cancellable);
  g_clear_object (&self->longest_cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->toaster);
  if (self->view_stack != NULL)
    g_signal_handlers_disconnect_by_data (self->view_stack, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CPEL_TYPE_STATS_WINDOW);
  g_clear_object (&self->sorted_codes);
  g_clear_object (&self->sorted_tracks);
  g_clear_object (&self->codes);
  g_clear_object (&self->tracks);
  g_clear_object (&self->sorted_diff_events);
  g_clear_object (&self->sorted_diff_tracks);
  g_clear_object (&self->diff_events);
  g_clear_object (&self->diff_tracks);
  g_clear_pointer (&self->diff, cpel_diff_free);
  g_clear_pointer (&self->name_a, g_free);
  g_clear_pointer (&self->name_b, g_free);
  g_clear_pointer (&self->stats, cpel_stats_free);
  g_clear_pointer (&self->span_summary, cpel_span_summary_free);
  g_clear_pointer (&self->span_slots, g_free);
  g_clear_object (&self->sorted_spans);
  g_clear_object (&self->sorted_states);
  g_clear_object (&self->span_rows);
  g_clear_object (&self->state_rows);
  g_clear_pointer (&self->top, cpel_top_free);
  g_clear_object (&self->sorted_functions);
  g_clear_object (&self->function_rows);
  g_clear_object (&self->file);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (cpel_stats_window_parent_class)->dispose (object);
}

static void
cpel_stats_window_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  CpelStatsWindow *self = CPEL_STATS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->cancellable != NULL || self->span_cancellable != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_stats_window_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  CpelStatsWindow *self = CPEL_STATS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Whether the session's scope (range or measurement, tracks shown, types
 * hidden) is still what was counted. */
static gboolean
scope_counted (CpelStatsWindow *self)
{
  CpelStatsOptions scope = { 0 };
  CpelFile *file = cpel_session_get_file (self->session);
  guint n_types;

  if (file == NULL || file != self->file)
    return FALSE;
  cpel_session_get_stats_scope (self->session, &scope);
  n_types = cpel_file_get_n_types (file);
  if (scope.t0 != self->span_t0 || scope.t1 != self->span_t1)
    return FALSE;
  if ((scope.slots == NULL) != (self->span_slots == NULL)
      || (scope.slots != NULL
          && (scope.n_slots != self->span_n_slots
              || memcmp (scope.slots, self->span_slots, sizeof (guint) * scope.n_slots) != 0)))
    return FALSE;
  if ((scope.hidden_types == NULL) != (self->counted_hidden == NULL)
      || (scope.hidden_types != NULL
          && memcmp (scope.hidden_types, self->counted_hidden, n_types) != 0))
    return FALSE;
  return TRUE;
}

static gboolean
scope_settled (gpointer data)
{
  CpelStatsWindow *self = data;

  self->scope_id = 0;
  if (!scope_counted (self))
    cpel_stats_window_refresh (self);
  return G_SOURCE_REMOVE;
}

/* The range, the measurement, the tracks or the hidden types changed (in
 * the main window): a window that is shown counts again once they hold
 * still for CPEL_STATS_SETTLE_MS (a pan or a zoom changes the range every
 * frame; a count under way is cancelled by the next). */
#define CPEL_STATS_SETTLE_MS 200

/* Whether the user works in this window or one of its own (the span
 * distribution): a range it moved to (a row's longest span) is not a new
 * range to count — the table clicked stays as it was. */
static gboolean
working_here (CpelStatsWindow *self)
{
  GListModel *toplevels;

  if (gtk_window_is_active (GTK_WINDOW (self)))
    return TRUE;
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (gtk_window_is_active (window)
          && gtk_window_get_transient_for (window) == GTK_WINDOW (self))
        return TRUE;
    }
  return FALSE;
}

static void
on_scope_changed (CpelStatsWindow *self)
{
  if (!gtk_widget_get_visible (GTK_WIDGET (self)))
    return;   /* counted again when shown (the Statistics action) */
  if (working_here (self))
    return;
  g_clear_handle_id (&self->scope_id, g_source_remove);
  self->scope_id = g_timeout_add (CPEL_STATS_SETTLE_MS, scope_settled, self);
}

static void
cpel_stats_window_constructed (GObject *object)
{
  CpelStatsWindow *self = CPEL_STATS_WINDOW (object);

  G_OBJECT_CLASS (cpel_stats_window_parent_class)->constructed (object);

  g_assert (CPEL_IS_SESSION (self->session));
  /* Another file in the same session: count it. */
  g_signal_connect_object (self->session, "notify::file", G_CALLBACK (cpel_stats_window_refresh),
                           self, G_CONNECT_SWAPPED);
  /* Other span rules: other spans. */
  g_signal_connect_object (self->session, "notify::span-rules",
                           G_CALLBACK (cpel_stats_window_refresh), self, G_CONNECT_SWAPPED);
  /* Another range, measurement, tracks or hidden types: count them. */
  g_signal_connect_object (self->session, "notify::range", G_CALLBACK (on_scope_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::measure", G_CALLBACK (on_scope_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::track-order", G_CALLBACK (on_scope_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "types-changed", G_CALLBACK (on_scope_changed),
                           self, G_CONNECT_SWAPPED);
  cpel_stats_window_refresh (self);
}

static void
cpel_stats_window_class_init (CpelStatsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cpel_stats_window_dispose;
  object_class->constructed = cpel_stats_window_constructed;
  object_class->get_property = cpel_stats_window_get_property;
  object_class->set_property = cpel_stats_window_set_property;

  /* The session whose range, shown tracks and types are counted. */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, CPEL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* A count runs. */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-stats-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, refresh_button);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, save_button);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, copy_button);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, state_stack);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, range_label);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, codes_view);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, tracks_view);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, compare_page);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, compare_tracks_page);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, compare_view);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, compare_tracks_view);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, histogram_area);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, spans_page);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, states_page);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, spans_box);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, spans_view);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, states_view);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, functions_page);
  gtk_widget_class_bind_template_child (widget_class, CpelStatsWindow, functions_view);
  gtk_widget_class_bind_template_callback (widget_class, on_refresh_clicked);
  gtk_widget_class_bind_template_callback_full (widget_class, "on_save_clicked",
                                                G_CALLBACK (_cpel_stats_window_save_clicked));
  gtk_widget_class_bind_template_callback_full (widget_class, "on_save_histogram_clicked",
                                                G_CALLBACK (_cpel_stats_window_save_histogram_clicked));
  gtk_widget_class_bind_template_callback_full (widget_class, "on_copy_clicked",
                                                G_CALLBACK (_cpel_stats_window_copy_clicked));
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "stats.copy", NULL);
  gtk_widget_class_install_action (widget_class, "stats.copy", NULL,
                                   _cpel_stats_window_action_copy);
  gtk_widget_class_install_action (widget_class, "stats.span-distribution", NULL,
                                   _cpel_stats_window_action_distribution);
}

static void
cpel_stats_window_init (CpelStatsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->toaster = cpel_toaster_new (self->toast_overlay);

  self->codes = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  self->tracks = g_list_store_new (CPEL_TYPE_TABLE_ROW);

  _cpel_stats_window_append_column (self->codes_view, _("Code"), CODE_CELL_CODE, TRUE, FALSE);
  _cpel_stats_window_append_column (self->codes_view, _("Event"), CODE_CELL_NAME, FALSE, TRUE);
  _cpel_stats_window_append_column (self->codes_view, _("Count"), CODE_CELL_COUNT, TRUE, FALSE);
  /* TRANSLATORS: column: number of intervals between successive events */
  _cpel_stats_window_append_column (self->codes_view, _("Intervals"), CODE_CELL_INTERVALS, TRUE, FALSE);
  /* TRANSLATORS: column: shortest interval */
  _cpel_stats_window_append_column (self->codes_view, C_("interval", "Min"), CODE_CELL_MIN, TRUE, FALSE);
  /* TRANSLATORS: column: mean interval */
  _cpel_stats_window_append_column (self->codes_view, C_("interval", "Mean"), CODE_CELL_MEAN, TRUE, FALSE);
  /* TRANSLATORS: column: longest interval */
  _cpel_stats_window_append_column (self->codes_view, C_("interval", "Max"), CODE_CELL_MAX, TRUE, FALSE);
  self->sorted_codes = _cpel_stats_window_setup_view (self->codes_view, self->codes);
  g_signal_connect (self->codes_view, "activate", G_CALLBACK (on_code_activate), self);

  _cpel_stats_window_append_column (self->tracks_view, _("Track"), TRACK_CELL_ID, TRUE, FALSE);
  _cpel_stats_window_append_column (self->tracks_view, _("Label"), TRACK_CELL_LABEL, FALSE, TRUE);
  _cpel_stats_window_append_column (self->tracks_view, _("Events"), TRACK_CELL_COUNT, TRUE, FALSE);
  self->sorted_tracks = _cpel_stats_window_setup_view (self->tracks_view, self->tracks);
  g_signal_connect (self->tracks_view, "activate", G_CALLBACK (on_track_activate), self);

  _cpel_stats_window_init_compare (self);
  _cpel_stats_window_init_spans (self);
  _cpel_stats_window_init_functions (self);
  g_signal_connect_swapped (self->view_stack, "notify::visible-child-name",
                            G_CALLBACK (on_page_changed), self);
}

CpelStatsWindow *
cpel_stats_window_new (CpelSession *session,
                       GtkWindow   *parent)
{
  g_return_val_if_fail (CPEL_IS_SESSION (session), NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  CpelStatsWindow *self = g_object_new (CPEL_TYPE_STATS_WINDOW,
                                        "transient-for", parent,
                                        "session", session,
                                        NULL);

  cpel_close_with_parent (GTK_WINDOW (self));
  return self;
}

CpelSession *
cpel_stats_window_get_session (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return self->session;
}

