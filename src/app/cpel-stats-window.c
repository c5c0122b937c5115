/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-window.c — the Statistics window
 *
 * cpel_stats_compute() runs in a GTask worker over the range (the ruler
 * measurement [m0, m1], else the visible [t0, t1)), the timeline's shown
 * tracks and without its hidden event types; a newer request cancels the
 * running one.  Two sortable tables (event codes, tracks) show the result;
 * "Copy as Text" and "Save as CSV…" use the core's text and CSV forms.
 *
 * While the window compares two captures, two more pages: Compare (one row
 * per event name: count in A, in B, Δ, mean interval in A, in B, Δ %, and
 * the selected row's interval distributions as two overlaid histograms) and
 * Compare Tracks (per track label).  cpel_diff_compute() counts them over
 * the whole of both captures (as `cpel diff A B`, without the event types
 * hidden in the panes), in the same worker.
 */
#include "cpel-stats-window.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cpel-app-util.h"
#include "cpel-compare-pane.h"
#include "cpel-diff.h"
#include "cpel-table.h"
#include "cpel-search-bar.h"
#include "cpel-toaster.h"

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
  DIFF_CELL_NAME,
  DIFF_CELL_COUNT_A,
  DIFF_CELL_COUNT_B,
  DIFF_CELL_COUNT_DELTA,
  DIFF_CELL_MEAN_A,
  DIFF_CELL_MEAN_B,
  DIFF_CELL_MEAN_PCT,
  N_DIFF_CELLS
};

enum
{
  TRACK_CELL_ID,
  TRACK_CELL_LABEL,
  TRACK_CELL_COUNT,
  N_TRACK_CELLS
};

struct _CpelStatsWindow
{
  AdwWindow            parent_instance;

  /* Template */
  AdwViewSwitcherTitle *switcher_title;
  GtkButton           *refresh_button;
  GtkButton           *save_button;
  GtkButton           *copy_button;
  AdwToastOverlay     *toast_overlay;
  CpelToaster         *toaster;
  GtkStack            *state_stack;
  GtkSpinner          *spinner;
  AdwStatusPage       *error_page;
  GtkLabel            *range_label;
  GtkLabel            *summary_label;
  AdwViewStack        *view_stack;
  GtkColumnView       *codes_view;
  GtkColumnView       *tracks_view;
  AdwViewStackPage    *compare_page;
  AdwViewStackPage    *compare_tracks_page;
  GtkColumnView       *compare_view;
  GtkColumnView       *compare_tracks_view;
  GtkDrawingArea      *histogram_area;

  CpelTimeline        *timeline;
  CpelFile            *file;         /* the file the statistics are about */
  CpelStats           *stats;
  gboolean             measured;     /* the range came from the ruler */
  CpelDiff            *diff;         /* while comparing: A (the pane's top) with B */
  char                *name_a;
  char                *name_b;
  gboolean             compare_hidden; /* event types hidden in the panes are not counted */

  GListStore          *codes;
  GListStore          *tracks;
  GtkSortListModel    *sorted_codes;
  GtkSortListModel    *sorted_tracks;
  GListStore          *diff_events;
  GListStore          *diff_tracks;
  GtkSortListModel    *sorted_diff_events;
  GtkSortListModel    *sorted_diff_tracks;

  GCancellable        *cancellable;
  GtkFileChooserNative *chooser;
  int                  chooser_by;   /* the chooser saves: a CpelDiffBy, -1 = a statistics table */
};

G_DEFINE_FINAL_TYPE (CpelStatsWindow, cpel_stats_window, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_TIMELINE,
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
} Job;

typedef struct
{
  CpelStats *stats;
  CpelDiff  *diff;
} Counted;

static void
counted_free (Counted *counted)
{
  g_clear_pointer (&counted->stats, cpel_stats_free);
  g_clear_pointer (&counted->diff, cpel_diff_free);
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
  if (counted->stats == NULL)
    {
      counted_free (counted);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, counted, (GDestroyNotify) counted_free);
}

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

static void
fill_diff_tables (CpelStatsWindow *self)
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

static int current_compare (CpelStatsWindow *self);

/* The Compare pages count the whole of both captures: their header says so. */
static void
update_compare_texts (CpelStatsWindow *self)
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
  const guint8 *hidden = cpel_timeline_get_hidden_types (self->timeline);
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

  if (current_compare (self) >= 0)
    {
      update_compare_texts (self);
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

static void
set_busy (CpelStatsWindow *self,
          gboolean         busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), !busy && self->stats != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), !busy && self->stats != NULL);
  if (busy)
    gtk_stack_set_visible_child_name (self->state_stack, "busy");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
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
      adw_status_page_set_description (self->error_page, error->message);
      gtk_stack_set_visible_child_name (self->state_stack, "error");
      set_busy (self, FALSE);
      return;
    }
  self->stats = g_steal_pointer (&counted->stats);
  self->diff = g_steal_pointer (&counted->diff);
  counted_free (counted);
  fill_tables (self);
  fill_diff_tables (self);
  adw_view_stack_page_set_visible (self->compare_page, self->diff != NULL);
  adw_view_stack_page_set_visible (self->compare_tracks_page, self->diff != NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self->histogram_area));
  update_texts (self);
  gtk_stack_set_visible_child_name (self->state_stack, "stats");
  set_busy (self, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->codes_view));
}

void
cpel_stats_window_refresh (CpelStatsWindow *self)
{
  CpelFile *file;
  const CpelView *view;
  g_autoptr(GTask) task = NULL;
  gint64 m0, m1;
  guint64 n;
  Job *job;

  g_return_if_fail (CPEL_IS_STATS_WINDOW (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->stats, cpel_stats_free);
  g_clear_pointer (&self->diff, cpel_diff_free);
  g_list_store_remove_all (self->codes);
  g_list_store_remove_all (self->tracks);
  g_list_store_remove_all (self->diff_events);
  g_list_store_remove_all (self->diff_tracks);

  file = cpel_timeline_get_file (self->timeline);
  view = cpel_timeline_get_view (self->timeline);
  g_set_object (&self->file, file);
  if (file == NULL || view == NULL)
    {
      adw_status_page_set_description (self->error_page, _("No file is open"));
      gtk_stack_set_visible_child_name (self->state_stack, "error");
      set_busy (self, FALSE);
      return;
    }

  job = g_new0 (Job, 1);
  job->file = g_object_ref (file);
  self->measured = cpel_timeline_get_measure (self->timeline, &m0, &m1, &n);
  if (self->measured)
    {
      /* The ruler counts [m0, m1] inclusive: the same events here. */
      job->options.t0 = MIN (m0, m1);
      job->options.t1 = MAX (m0, m1) < G_MAXINT64 ? MAX (m0, m1) + 1 : G_MAXINT64;
    }
  else
    cpel_timeline_get_range (self->timeline, &job->options.t0, &job->options.t1);
  if (view->rows != NULL)
    {
      job->slots = g_memdup2 (view->rows, sizeof (guint) * view->n_rows);
      job->options.slots = job->slots;
      job->options.n_slots = view->n_rows;
    }
  if (view->hidden_types != NULL)
    {
      job->hidden = g_memdup2 (view->hidden_types, cpel_file_get_n_types (file));
      job->options.hidden_types = job->hidden;
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
  set_busy (self, TRUE);
  task = g_task_new (NULL, self->cancellable, on_counted, g_object_ref (self));
  g_task_set_source_tag (task, cpel_stats_window_refresh);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, count_thread);
}

/* ------------------------------------------------------------------------ */
/* Copy and save                                                              */

static void
show_toast (CpelStatsWindow *self,
            const char      *message)
{
  cpel_toaster_show_full (self->toaster, message, 3, NULL, NULL, NULL);
}

char *
cpel_stats_window_get_text (CpelStatsWindow *self)
{
  const char *page;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  page = adw_view_stack_get_visible_child_name (self->view_stack);
  if (self->diff != NULL && g_strcmp0 (page, "compare") == 0)
    return cpel_diff_to_text (self->diff, CPEL_DIFF_BY_EVENTS, self->name_a, self->name_b);
  if (self->diff != NULL && g_strcmp0 (page, "compare-tracks") == 0)
    return cpel_diff_to_text (self->diff, CPEL_DIFF_BY_TRACKS, self->name_a, self->name_b);
  return self->stats != NULL ? cpel_stats_to_text (self->stats) : NULL;
}

static void
on_copy_clicked (CpelStatsWindow *self)
{
  g_autofree char *text = cpel_stats_window_get_text (self);

  if (text == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  show_toast (self, _("Statistics copied"));
}

gboolean
cpel_stats_window_save_csv (CpelStatsWindow   *self,
                            GFile             *file,
                            CpelStatsCsvTable  table,
                            GError           **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->stats == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No statistics to save yet"));
      return FALSE;
    }
  csv = cpel_stats_to_csv (self->stats, table);
  /* Written to a temporary file renamed over the target: a failed write
   * leaves any existing file as it was. */
  return g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

gboolean
cpel_stats_window_save_compare_csv (CpelStatsWindow  *self,
                                    GFile            *file,
                                    CpelDiffBy        by,
                                    GError          **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->diff == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No comparison to save yet"));
      return FALSE;
    }
  csv = cpel_diff_to_csv (self->diff, by);
  return g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

/* -1: not a compare page */
static int
current_compare (CpelStatsWindow *self)
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

static void
on_save_compare_response (GtkNativeDialog *dialog,
                          int              response,
                          CpelStatsWindow *self)
{
  g_autoptr(GFile) file = NULL;
  CpelDiffBy by = (CpelDiffBy) self->chooser_by;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *display = g_filename_display_name (name != NULL ? name : "");
      g_autofree char *message = NULL;

      if (cpel_stats_window_save_compare_csv (self, file, by, &error))
        message = g_strdup_printf (_("Saved “%s”"), display);
      else
        message = g_strdup_printf (_("Could not save “%s”: %s"), display, error->message);
      show_toast (self, message);
    }
  g_clear_object (&self->chooser);
}

static void
save_compare (CpelStatsWindow *self,
              CpelDiffBy       by)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Save Comparison as CSV"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_filter_set_name (filter, _("CSV Files"));
  gtk_file_filter_add_mime_type (filter, "text/csv");
  gtk_file_filter_add_suffix (filter, "csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser),
                                     by == CPEL_DIFF_BY_TRACKS ? "compare-tracks.csv" : "compare-events.csv");
  self->chooser_by = by;
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_save_compare_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static CpelStatsCsvTable
current_table (CpelStatsWindow *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  return g_strcmp0 (page, "tracks") == 0 ? CPEL_STATS_CSV_TRACKS : CPEL_STATS_CSV_CODES;
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  CpelStatsWindow *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    {
      g_autoptr(GError) error = NULL;
      const char *choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "table");
      CpelStatsCsvTable table = g_strcmp0 (choice, "tracks") == 0 ? CPEL_STATS_CSV_TRACKS
                                                                  : CPEL_STATS_CSV_CODES;
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *display = g_filename_display_name (name != NULL ? name : "");
      g_autofree char *message = NULL;

      if (cpel_stats_window_save_csv (self, file, table, &error))
        /* TRANSLATORS: %s is a file name */
        message = g_strdup_printf (_("Saved “%s”"), display);
      else
        /* TRANSLATORS: %s is a file name, then the reason */
        message = g_strdup_printf (_("Could not save “%s”: %s"), display, error->message);
      show_toast (self, message);
    }
  g_clear_object (&self->chooser);
}

static void
on_save_clicked (CpelStatsWindow *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  CpelStatsCsvTable table = current_table (self);
  gboolean tracks = table == CPEL_STATS_CSV_TRACKS;
  /* The table shown comes first: GTK 4.8's fallback dialog starts on the
   * first option whatever gtk_file_chooser_set_choice() says. */
  const char *ids[] = { tracks ? "tracks" : "codes", tracks ? "codes" : "tracks", NULL };
  const char *labels[] = { tracks ? _("Tracks") : _("Event codes"), tracks ? _("Event codes") : _("Tracks"), NULL };

  if (self->stats == NULL)
    return;
  if (current_compare (self) >= 0)
    {
      save_compare (self, (CpelDiffBy) current_compare (self));
      return;
    }
  if (self->chooser != NULL && self->chooser_by >= 0)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }
  self->chooser_by = -1;
  self->chooser = gtk_file_chooser_native_new (_("Save Statistics as CSV"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_filter_set_name (filter, _("CSV Files"));
  gtk_file_filter_add_mime_type (filter, "text/csv");
  gtk_file_filter_add_suffix (filter, "csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (self->chooser), "table", _("Table"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (self->chooser), "table", ids[0]);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser),
                                     tracks ? "statistics-tracks.csv" : "statistics-codes.csv");
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
action_copy (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  on_copy_clicked (CPEL_STATS_WINDOW (widget));
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
  return self->cancellable != NULL;
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

/* The table row at `position` of a view's (sorted) model, or NULL. */
static CpelTableRow *
row_at (GtkColumnView *view,
        guint          position)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));

  if (model == NULL || position >= g_list_model_get_n_items (model))
    return NULL;
  return g_list_model_get_item (model, position);
}

/* Activating an event-code row searches that code in the window (the
 * search bar opens, steps to its first match and highlights them all). */
static void
on_code_activate (GtkColumnView   *view,
                  guint            position,
                  CpelStatsWindow *self)
{
  g_autoptr(CpelTableRow) row = row_at (view, position);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  CpelFile *file = cpel_timeline_get_file (self->timeline);
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
  g_autoptr(CpelTableRow) row = row_at (view, position);

  if (row == NULL || !cpel_timeline_reveal_track (self->timeline, (guint) cpel_table_row_get_id (row)))
    gtk_widget_error_bell (GTK_WIDGET (self));
}

/* A new sort order starts at the top of the list (GTK 4.8's column view
 * cannot scroll to a row, so the selected one could not be followed). */
static void
on_sorter_changed (GtkSorter       *sorter,
                   GtkSorterChange  change,
                   GtkColumnView   *view)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj;

  if (scrolled == NULL)
    return;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adj, gtk_adjustment_get_lower (adj));
}

/* The Compare page's selected row of the diff, or NULL. */
static const CpelDiffRow *
selected_diff_row (CpelStatsWindow *self)
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

static void
render_histogram (CpelStatsWindow   *self,
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
  const CpelDiffRow *row = selected_diff_row (self);
  CpelPalette palette;

  if (row == NULL)
    return;
  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  render_histogram (self, row, cr, width, height, &palette);
}

static cairo_status_t
append_png (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
cpel_stats_window_save_histogram (CpelStatsWindow  *self,
                                  GFile            *file,
                                  int               width,
                                  int               height,
                                  GError          **error)
{
  const CpelDiffRow *row;
  cairo_surface_t *surface;
  cairo_t *cr;
  CpelPalette palette;
  g_autoptr(GByteArray) png = NULL;
  cairo_status_t status;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  row = self->diff != NULL ? selected_diff_row (self) : NULL;
  if (row == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No histogram to save yet"));
      return FALSE;
    }
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cr = cairo_create (surface);
  cpel_palette_init_light (&palette);
  render_histogram (self, row, cr, width, height, &palette);
  cairo_destroy (cr);
  png = g_byte_array_new ();
  status = cairo_surface_write_to_png_stream (surface, append_png, png);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("Could not draw the histogram: %s"),
                   cairo_status_to_string (status));
      return FALSE;
    }
  return g_file_replace_contents (file, (const char *) png->data, png->len, NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

static void
on_save_histogram_response (GtkNativeDialog *dialog,
                            int              response,
                            CpelStatsWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      g_autofree char *display = g_file_get_parse_name (file);
      g_autofree char *message = NULL;

      if (cpel_stats_window_save_histogram (self, file, 1200, 600, &error))
        message = g_strdup_printf (_("Saved “%s”"), display);
      else
        message = g_strdup_printf (_("Could not save “%s”: %s"), display, error->message);
      show_toast (self, message);
    }
  g_clear_object (&self->chooser);
}

static void
on_save_histogram_clicked (CpelStatsWindow *self)
{
  const CpelDiffRow *row = self->diff != NULL ? selected_diff_row (self) : NULL;
  g_autofree char *name = NULL;

  if (row == NULL || self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Save Histogram as PNG"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  /* TRANSLATORS: file name suggested for a saved histogram; %s is an event name */
  name = g_strdup_printf (_("intervals-%s.png"), row->name);
  g_strdelimit (name, "/\\", '_');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_save_histogram_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_page_changed (CpelStatsWindow *self)
{
  if (self->stats != NULL)
    update_texts (self);
}

/* Activating a Compare row searches that event name in both panes. */
static void
on_compare_activate (GtkColumnView   *view,
                     guint            position,
                     CpelStatsWindow *self)
{
  g_autoptr(CpelTableRow) row = row_at (view, position);
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

static GtkSortListModel *
setup_view (GtkColumnView *view,
            GListStore    *store)
{
  GtkSortListModel *sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (store)),
                                                      g_object_ref (gtk_column_view_get_sorter (view)));
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

static void
append_column (GtkColumnView *view,
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
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
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
  g_clear_object (&self->file);
  g_clear_object (&self->timeline);

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
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->cancellable != NULL);
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
    case PROP_TIMELINE:
      self->timeline = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_stats_window_constructed (GObject *object)
{
  CpelStatsWindow *self = CPEL_STATS_WINDOW (object);

  G_OBJECT_CLASS (cpel_stats_window_parent_class)->constructed (object);

  g_assert (CPEL_IS_TIMELINE (self->timeline));
  /* Another file in the same timeline: count it. */
  g_signal_connect_object (self->timeline, "notify::file", G_CALLBACK (cpel_stats_window_refresh),
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

  /* The timeline whose range, shown tracks and types are counted. */
  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, CPEL_TYPE_TIMELINE,
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
  gtk_widget_class_bind_template_callback (widget_class, on_refresh_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_save_histogram_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "stats.copy", NULL);
  gtk_widget_class_install_action (widget_class, "stats.copy", NULL, action_copy);
}

static void
cpel_stats_window_init (CpelStatsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->toaster = cpel_toaster_new (self->toast_overlay);

  self->codes = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  self->tracks = g_list_store_new (CPEL_TYPE_TABLE_ROW);

  append_column (self->codes_view, _("Code"), CODE_CELL_CODE, TRUE, FALSE);
  append_column (self->codes_view, _("Event"), CODE_CELL_NAME, FALSE, TRUE);
  append_column (self->codes_view, _("Count"), CODE_CELL_COUNT, TRUE, FALSE);
  /* TRANSLATORS: column: number of intervals between successive events */
  append_column (self->codes_view, _("Intervals"), CODE_CELL_INTERVALS, TRUE, FALSE);
  /* TRANSLATORS: column: shortest interval */
  append_column (self->codes_view, C_("interval", "Min"), CODE_CELL_MIN, TRUE, FALSE);
  /* TRANSLATORS: column: mean interval */
  append_column (self->codes_view, C_("interval", "Mean"), CODE_CELL_MEAN, TRUE, FALSE);
  /* TRANSLATORS: column: longest interval */
  append_column (self->codes_view, C_("interval", "Max"), CODE_CELL_MAX, TRUE, FALSE);
  self->sorted_codes = setup_view (self->codes_view, self->codes);
  g_signal_connect (self->codes_view, "activate", G_CALLBACK (on_code_activate), self);

  append_column (self->tracks_view, _("Track"), TRACK_CELL_ID, TRUE, FALSE);
  append_column (self->tracks_view, _("Label"), TRACK_CELL_LABEL, FALSE, TRUE);
  append_column (self->tracks_view, _("Events"), TRACK_CELL_COUNT, TRUE, FALSE);
  self->sorted_tracks = setup_view (self->tracks_view, self->tracks);
  g_signal_connect (self->tracks_view, "activate", G_CALLBACK (on_track_activate), self);

  self->chooser_by = -1;
  self->diff_events = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  self->diff_tracks = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  append_column (self->compare_view, _("Event"), DIFF_CELL_NAME, FALSE, TRUE);
  /* TRANSLATORS: column: number of events in capture A */
  append_column (self->compare_view, _("Count A"), DIFF_CELL_COUNT_A, TRUE, FALSE);
  append_column (self->compare_view, _("Count B"), DIFF_CELL_COUNT_B, TRUE, FALSE);
  /* TRANSLATORS: column: change of the count from A to B */
  append_column (self->compare_view, _("Δ Count"), DIFF_CELL_COUNT_DELTA, TRUE, FALSE);
  /* TRANSLATORS: column: mean interval in capture A */
  append_column (self->compare_view, _("Mean A"), DIFF_CELL_MEAN_A, TRUE, FALSE);
  append_column (self->compare_view, _("Mean B"), DIFF_CELL_MEAN_B, TRUE, FALSE);
  /* TRANSLATORS: column: change of the mean interval in percent */
  append_column (self->compare_view, _("Δ Mean"), DIFF_CELL_MEAN_PCT, TRUE, FALSE);
  self->sorted_diff_events = setup_view (self->compare_view, self->diff_events);
  gtk_single_selection_set_autoselect (GTK_SINGLE_SELECTION (gtk_column_view_get_model (self->compare_view)), TRUE);
  g_signal_connect_object (gtk_column_view_get_model (self->compare_view), "notify::selected",
                           G_CALLBACK (gtk_widget_queue_draw), self->histogram_area, G_CONNECT_SWAPPED);
  g_signal_connect (self->compare_view, "activate", G_CALLBACK (on_compare_activate), self);
  gtk_drawing_area_set_draw_func (self->histogram_area, draw_histogram, self, NULL);
  g_signal_connect_swapped (self->view_stack, "notify::visible-child-name",
                            G_CALLBACK (on_page_changed), self);

  append_column (self->compare_tracks_view, _("Label"), DIFF_CELL_NAME, FALSE, TRUE);
  /* TRANSLATORS: column: events of the track in capture A */
  append_column (self->compare_tracks_view, _("Events A"), DIFF_CELL_COUNT_A, TRUE, FALSE);
  append_column (self->compare_tracks_view, _("Events B"), DIFF_CELL_COUNT_B, TRUE, FALSE);
  append_column (self->compare_tracks_view, _("Δ Events"), DIFF_CELL_COUNT_DELTA, TRUE, FALSE);
  self->sorted_diff_tracks = setup_view (self->compare_tracks_view, self->diff_tracks);
}

CpelStatsWindow *
cpel_stats_window_new (CpelWindow *parent)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (parent), NULL);

  return g_object_new (CPEL_TYPE_STATS_WINDOW,
                       "transient-for", parent,
                       "timeline", cpel_window_get_timeline (parent),
                       NULL);
}

CpelTimeline *
cpel_stats_window_get_timeline (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);
  return self->timeline;
}
