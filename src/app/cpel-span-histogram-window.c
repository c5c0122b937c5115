/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-histogram-window.c — a span name's duration distribution (see
 * the header) */
#include "cpel-span-histogram-window.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cpel-span-diff.h"
#include "cpel-span-histogram.h"

#define N_BINS 60

struct _CpelSpanHistogramWindow
{
  AdwWindow           parent_instance;

  /* Template */
  AdwWindowTitle     *window_title;
  GtkToggleButton    *log_button;
  GtkToggleButton    *weighted_button;
  GtkButton          *longest_button;
  GtkButton          *save_button;
  GtkFileChooserNative *chooser;
  GtkDrawingArea     *area;
  GtkLabel           *compare_label;
  GtkLabel           *status_label;

  CpelSession        *session;
  char               *name;
  gint64              t0, t1;
  guint              *slots;      /* NULL: every track */
  guint               n_slots;
  gint64              p50_ns, p90_ns, p99_ns;   /* -1: unknown */

  CpelSpanHistograms *hists;
  const CpelSpanHistogram *hist;  /* of `hists`, or NULL */
  /* comparing (the session's compare file, by its own rules): B's
   * histogram on A's bins, and both captures' figures of the name */
  CpelSpanHistograms *hists_b;
  const CpelSpanHistogram *hist_b;
  CpelSpanRow         row_a;      /* count 0: no span of the name */
  CpelSpanRow         row_b;
  gboolean            log_hist;   /* `hist` has log bins */
  guint               sel_first;  /* > sel_last: no selection */
  guint               sel_last;
  int                 drag_bin;
  GCancellable       *cancellable;          /* the histogram */
  GCancellable       *longest_cancellable;  /* Go to Longest */
};

G_DEFINE_FINAL_TYPE (CpelSpanHistogramWindow, cpel_span_histogram_window, ADW_TYPE_WINDOW)

/* ------------------------------------------------------------------------ */
/* Work in a thread                                                           */

typedef struct
{
  CpelFile         *file;
  CpelSpanRules    *rules;
  CpelSpansOptions  options;
  guint            *slots;
  char             *name;
  CpelSpanHistAxis  axis;
  CpelSpanFilter   *filter;    /* Go to Longest */
  /* comparing: B, its rules, its range (every track) */
  CpelFile         *file_b;
  CpelSpanRules    *rules_b;
  CpelSpansOptions  options_b;
} Job;

/* What a compare job returns. */
typedef struct
{
  CpelSpanHistograms *a, *b;
  CpelSpanRow         row_a, row_b;
} Pair;

static void
pair_free (Pair *pair)
{
  g_clear_pointer (&pair->a, cpel_span_histograms_free);
  g_clear_pointer (&pair->b, cpel_span_histograms_free);
  g_free (pair);
}

static void
job_free (Job *job)
{
  g_clear_object (&job->file);
  g_clear_object (&job->file_b);
  g_clear_pointer (&job->rules_b, cpel_span_rules_unref);
  g_clear_pointer (&job->rules, cpel_span_rules_unref);
  g_free (job->slots);
  g_free (job->name);
  g_clear_pointer (&job->filter, cpel_span_filter_free);
  g_free (job);
}

static Job *
job_new (CpelSpanHistogramWindow *self)
{
  CpelFile *file = cpel_session_get_file (self->session);
  CpelSpanRules *rules = cpel_session_get_span_rules (self->session);
  Job *job;

  if (file == NULL || rules == NULL)
    return NULL;
  job = g_new0 (Job, 1);
  job->file = g_object_ref (file);
  job->rules = cpel_span_rules_ref (rules);
  job->name = g_strdup (self->name);
  job->options.t0 = self->t0;
  job->options.t1 = self->t1;
  if (self->slots != NULL)
    {
      job->slots = g_memdup2 (self->slots, sizeof (guint) * MAX (self->n_slots, 1));
      job->options.slots = job->slots;
      job->options.n_slots = self->n_slots;
    }
  return job;
}

/* Comparing: B is the session's compare file, its spans by its own rules,
 * over the same range moved by the compare offset (B's time = A's time +
 * offset), every track. */
static void
job_add_compare (CpelSpanHistogramWindow *self,
                 Job                     *job)
{
  CpelFile *b = cpel_session_get_compare_file (self->session);
  CpelSpanRules *rules = cpel_session_get_compare_span_rules (self->session);
  gint64 offset = cpel_session_get_compare_offset (self->session);

  if (b == NULL || rules == NULL)
    return;
  job->file_b = g_object_ref (b);
  job->rules_b = cpel_span_rules_ref (rules);
  job->options_b.t0 = job->options.t0 == G_MININT64 ? G_MININT64 : job->options.t0 + offset;
  job->options_b.t1 = job->options.t1 == G_MAXINT64 ? G_MAXINT64 : job->options.t1 + offset;
}

/* The summary row of the spans named `name` (count 0: none). */
static gboolean
find_row (CpelFile               *file,
          CpelSpanRules          *rules,
          const CpelSpansOptions *options,
          const char             *name,
          CpelSpanRow            *row,
          GCancellable           *cancellable,
          GError                **error)
{
  g_autoptr(CpelSpanSummary) summary = cpel_span_summary_compute (file, rules, options, FALSE,
                                                                   cancellable, error);

  memset (row, 0, sizeof *row);
  if (summary == NULL)
    return FALSE;
  for (guint i = 0; i < cpel_span_summary_get_n_rows (summary, CPEL_SPAN_TABLE_SPANS); i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (summary, CPEL_SPAN_TABLE_SPANS, i);

      if (g_strcmp0 (r->name, name) == 0)
        {
          *row = *r;
          row->name = NULL;   /* the summary's */
          row->track = NULL;
          break;
        }
    }
  return TRUE;
}

static void
pair_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  Pair *pair = g_new0 (Pair, 1);

  if (!cpel_span_histograms_compute_pair (job->file, job->rules, &job->options,
                                          job->file_b, job->rules_b, &job->options_b,
                                          job->name, N_BINS, job->axis, &pair->a, &pair->b,
                                          cancellable, &error)
      || !find_row (job->file, job->rules, &job->options, job->name, &pair->row_a,
                    cancellable, &error)
      || !find_row (job->file_b, job->rules_b, &job->options_b, job->name, &pair->row_b,
                    cancellable, &error))
    {
      pair_free (pair);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, pair, (GDestroyNotify) pair_free);
}

static void
hist_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  CpelSpanHistograms *hists = cpel_span_histograms_compute (job->file, job->rules, &job->options,
                                                            job->name, N_BINS, job->axis,
                                                            cancellable, &error);

  if (hists == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, hists, (GDestroyNotify) cpel_span_histograms_free);
}

static void
longest_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  CpelSpanList *list = cpel_span_list_compute (job->file, job->rules, &job->options, job->filter,
                                               1, cancellable, &error);

  if (list == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, list, (GDestroyNotify) cpel_span_list_free);
}

/* ------------------------------------------------------------------------ */

static guint64
selected_count (CpelSpanHistogramWindow *self)
{
  guint64 n = 0;

  if (self->hist == NULL)
    return 0;
  for (guint i = self->sel_first; i <= self->sel_last && i < self->hist->n_bins; i++)
    n += self->hist->counts[i];
  return n;
}

/* "p99 +12.5 %", or the value alone without a change. */
static char *
change_text (const char *what,
             gboolean    has_a,
             gboolean    has_b,
             gint64      a,
             gint64      b)
{
  g_autofree char *va = has_a ? cpel_span_histogram_format_duration (a) : g_strdup ("–");
  g_autofree char *vb = has_b ? cpel_span_histogram_format_duration (b) : g_strdup ("–");
  gint64 pct10;

  if (has_a && has_b && cpel_span_diff_pct10 (a, b, &pct10))
    {
      g_autofree char *pct = cpel_span_diff_format_pct (TRUE, pct10);

      /* TRANSLATORS: a figure in A and B and its change in percent:
       * "p99 1 µs → 2 µs (+100.0 %)" */
      return g_strdup_printf (_("%s %s → %s (%s%s %%)"), what, va, vb, pct10 > 0 ? "+" : "",
                              pct);
    }
  /* TRANSLATORS: a figure in A and B: "p99 1 µs → –" */
  return g_strdup_printf (_("%s %s → %s"), what, va, vb);
}

/* Comparing: both captures' count, p50, p99 and mean of the name, and
 * their changes (cpel_span_diff's percentages). */
static void
update_compare_label (CpelSpanHistogramWindow *self)
{
  const CpelSpanRow *a = &self->row_a, *b = &self->row_b;
  gboolean ha = a->count > 0, hb = b->count > 0;
  g_autofree char *ca = NULL;
  g_autofree char *cb = NULL;
  g_autofree char *delta = NULL;
  g_autofree char *p50 = NULL;
  g_autofree char *p99 = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *text = NULL;
  gint64 d;

  if (self->hist_b == NULL && self->hists_b == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->compare_label), FALSE);
      return;
    }
  ca = cpel_format_count (a->count);
  cb = cpel_format_count (b->count);
  d = (gint64) b->count - (gint64) a->count;
  delta = g_strdup_printf ("%s%" G_GINT64_FORMAT, d > 0 ? "+" : "", d);
  p50 = change_text ("p50", ha, hb, a->p50_ns, b->p50_ns);
  p99 = change_text ("p99", ha, hb, a->p99_ns, b->p99_ns);
  /* TRANSLATORS: the mean duration, in the compare figures */
  mean = change_text (_("mean"), ha, hb, a->mean_ns, b->mean_ns);
  /* TRANSLATORS: the compare figures of a span name: "A 100 · B 110 spans
   * (Δ +10) · p50 … · p99 … · mean …" */
  text = g_strdup_printf (_("A %s · B %s spans (Δ %s) · %s · %s · %s"),
                          ca, cb, delta, p50, p99, mean);
  gtk_label_set_text (self->compare_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->compare_label), TRUE);
}

static void
update_status (CpelSpanHistogramWindow *self)
{
  g_autofree char *text = NULL;

  update_compare_label (self);
  if (self->cancellable != NULL)
    text = g_strdup (_("Computing…"));
  else if (self->hist == NULL)
    text = g_strdup (_("No finished span of this name in the range"));
  else
    {
      g_autofree char *count = cpel_format_count (self->hist->count);

      if (self->sel_first <= self->sel_last)
        {
          g_autofree char *sel = cpel_format_count (selected_count (self));
          const gint64 *edges = self->hist->edges;
          g_autofree char *lo = cpel_span_histogram_format_duration (edges[self->sel_first]);
          g_autofree char *hi = cpel_span_histogram_format_duration (edges[self->sel_last + 1]);

          /* TRANSLATORS: "12 of 101 spans selected (10 µs – 20 µs)" */
          text = g_strdup_printf (ngettext ("%s of %s span selected (%s – %s)",
                                            "%s of %s spans selected (%s – %s)", self->hist->count),
                                  sel, count, lo, hi);
        }
      else
        /* TRANSLATORS: histogram status line */
        text = g_strdup_printf (ngettext ("%s span · drag over the bars to select",
                                          "%s spans · drag over the bars to select",
                                          self->hist->count), count);
    }
  gtk_label_set_text (self->status_label, text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->longest_button),
                            self->hist != NULL && self->longest_cancellable == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), self->hist != NULL);
}

static void
set_selection (CpelSpanHistogramWindow *self,
               guint                    first,
               guint                    last)
{
  self->sel_first = first;
  self->sel_last = last;
  if (self->hist != NULL && first <= last && last < self->hist->n_bins)
    {
      g_autoptr(CpelSpanFilter) filter = cpel_span_histogram_selection (self->hist, first, last);

      cpel_session_set_span_filter (self->session, filter);
    }
  else
    cpel_session_set_span_filter (self->session, NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
  update_status (self);
}

static void
on_computed (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(CpelSpanHistogramWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean pair = g_task_get_source_tag (G_TASK (result)) == pair_thread;
  gpointer out = g_task_propagate_pointer (G_TASK (result), &error);
  CpelSpanHistograms *hists = NULL;

  if (pair && out != NULL)
    {
      Pair *p = out;

      hists = g_steal_pointer (&p->a);
    }
  else if (!pair)
    hists = out;
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&hists, cpel_span_histograms_free);
      if (pair)
        g_clear_pointer (&out, pair_free);
      return;
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->hists, cpel_span_histograms_free);
  g_clear_pointer (&self->hists_b, cpel_span_histograms_free);
  self->hist = NULL;
  self->hist_b = NULL;
  memset (&self->row_a, 0, sizeof self->row_a);
  memset (&self->row_b, 0, sizeof self->row_b);
  if (pair && out != NULL)
    {
      Pair *p = out;

      self->hists_b = g_steal_pointer (&p->b);
      if (cpel_span_histograms_get_n (self->hists_b) > 0)
        self->hist_b = cpel_span_histograms_get (self->hists_b, 0);
      self->row_a = p->row_a;
      self->row_b = p->row_b;
      pair_free (p);
    }
  self->hists = hists;
  if (hists != NULL && cpel_span_histograms_get_n (hists) > 0)
    self->hist = cpel_span_histograms_get (hists, 0);
  self->log_hist = gtk_toggle_button_get_active (self->log_button);
  set_selection (self, 1, 0);
  if (error != NULL)
    gtk_label_set_text (self->status_label, error->message);
}

static void
compute (CpelSpanHistogramWindow *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  job = job_new (self);
  if (job == NULL)
    return;
  job->axis = gtk_toggle_button_get_active (self->log_button) ? CPEL_SPAN_HIST_LOG
                                                              : CPEL_SPAN_HIST_LINEAR;
  job_add_compare (self, job);
  self->cancellable = g_cancellable_new ();
  update_status (self);
  task = g_task_new (NULL, self->cancellable, on_computed, g_object_ref (self));
  g_task_set_source_tag (task, job->file_b != NULL ? (gpointer) pair_thread : (gpointer) compute);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, job->file_b != NULL ? pair_thread : hist_thread);
}

/* The session's span of `item` (a span of the file's spans), selected and
 * centred. */
static void
select_item (CpelSpanHistogramWindow *self,
             const CpelSpanItem      *item)
{
  CpelSessionSpanRef ref;

  if (cpel_session_find_span (self->session, item->slot, item->begin, item->begin_ns,
                              item->name, &ref))
    cpel_session_go_to_span (self->session, &ref);
  else
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
on_longest (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(CpelSpanHistogramWindow) self = user_data;
  g_autoptr(CpelSpanList) list = g_task_propagate_pointer (G_TASK (result), NULL);

  if (g_task_get_cancellable (G_TASK (result)) != self->longest_cancellable)
    return;
  g_clear_object (&self->longest_cancellable);
  if (list != NULL && cpel_span_list_get_n (list) > 0)
    select_item (self, cpel_span_list_get (list, 0));
  else
    gtk_widget_error_bell (GTK_WIDGET (self));
  update_status (self);
}

void
cpel_span_histogram_window_go_to_longest (CpelSpanHistogramWindow *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self));
  if (self->longest_cancellable != NULL)
    g_cancellable_cancel (self->longest_cancellable);
  g_clear_object (&self->longest_cancellable);
  job = job_new (self);
  if (job == NULL)
    return;
  if (self->hist != NULL && self->sel_first <= self->sel_last)
    job->filter = cpel_span_histogram_selection (self->hist, self->sel_first, self->sel_last);
  else
    job->filter = cpel_span_filter_new (self->name, 0, G_MAXINT64);
  self->longest_cancellable = g_cancellable_new ();
  update_status (self);
  task = g_task_new (NULL, self->longest_cancellable, on_longest, g_object_ref (self));
  g_task_set_source_tag (task, cpel_span_histogram_window_go_to_longest);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, longest_thread);
}

/* ------------------------------------------------------------------------ */

static void
draw (GtkDrawingArea *area,
      cairo_t        *cr,
      int             width,
      int             height,
      gpointer        user_data)
{
  CpelSpanHistogramWindow *self = user_data;
  CpelPalette palette;
  CpelSpanHistogramView view = { 0 };

  if (self->hist == NULL && self->hist_b == NULL)
    return;
  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  view.hist = self->hist;
  view.time_weighted = gtk_toggle_button_get_active (self->weighted_button);
  view.p50_ns = self->p50_ns;
  view.p90_ns = self->p90_ns;
  view.p99_ns = self->p99_ns;
  view.sel_first = self->sel_first;
  view.sel_last = self->sel_last;
  view.palette = &palette;
  view.log_axis = self->log_hist;
  view.hist_b = self->hist_b;
  cpel_render_span_histogram (cr, width, height, &view);
}

static void
on_drag_begin (GtkGestureDrag          *gesture,
               double                   x,
               double                   y,
               CpelSpanHistogramWindow *self)
{
  if (self->hist == NULL)
    return;
  self->drag_bin = cpel_span_histogram_bin_at (self->hist,
                                               gtk_widget_get_width (GTK_WIDGET (self->area)),
                                               gtk_widget_get_height (GTK_WIDGET (self->area)), x);
  set_selection (self, (guint) self->drag_bin, (guint) self->drag_bin);
}

static void
on_drag_update (GtkGestureDrag          *gesture,
                double                   dx,
                double                   dy,
                CpelSpanHistogramWindow *self)
{
  double x0, y0;
  int bin;

  if (self->hist == NULL || self->drag_bin < 0)
    return;
  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  bin = cpel_span_histogram_bin_at (self->hist, gtk_widget_get_width (GTK_WIDGET (self->area)),
                                    gtk_widget_get_height (GTK_WIDGET (self->area)), x0 + dx);
  set_selection (self, (guint) MIN (bin, self->drag_bin), (guint) MAX (bin, self->drag_bin));
}

static void
on_log_toggled (CpelSpanHistogramWindow *self)
{
  compute (self);
}

static void
on_weighted_toggled (CpelSpanHistogramWindow *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
on_longest_clicked (CpelSpanHistogramWindow *self)
{
  cpel_span_histogram_window_go_to_longest (self);
}

gboolean
cpel_span_histogram_window_save_csv (CpelSpanHistogramWindow  *self,
                                     GFile                    *file,
                                     GError                  **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  if (self->hists == NULL || self->hist == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No histogram to save yet"));
      return FALSE;
    }
  csv = cpel_span_histograms_to_csv (self->hists);
  return g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

static void
on_chooser_response (GtkNativeDialog         *dialog,
                     int                      response,
                     CpelSpanHistogramWindow *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL && !cpel_span_histogram_window_save_csv (self, file, &error))
    gtk_label_set_text (self->status_label, error->message);
  g_clear_object (&self->chooser);
}

static void
on_save_clicked (CpelSpanHistogramWindow *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Save Bins as CSV"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_filter_set_name (filter, _("CSV Files"));
  gtk_file_filter_add_mime_type (filter, "text/csv");
  gtk_file_filter_add_suffix (filter, "csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  name = g_strdup_printf ("%s-histogram.csv", self->name);
  g_strdelimit (name, "/\\", '_');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ------------------------------------------------------------------------ */

gboolean
cpel_span_histogram_window_is_busy (CpelSpanHistogramWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), FALSE);
  return self->cancellable != NULL || self->longest_cancellable != NULL;
}

const CpelSpanHistogram *
cpel_span_histogram_window_get_histogram (CpelSpanHistogramWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), NULL);
  return self->hist;
}

const CpelSpanHistogram *
cpel_span_histogram_window_get_histogram_b (CpelSpanHistogramWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), NULL);
  return self->hist_b;
}

const char *
cpel_span_histogram_window_get_compare_text (CpelSpanHistogramWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->compare_label))
         ? gtk_label_get_text (self->compare_label) : NULL;
}

void
cpel_span_histogram_window_set_log (CpelSpanHistogramWindow *self,
                                    gboolean                 log)
{
  g_return_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self));
  gtk_toggle_button_set_active (self->log_button, log);
}

void
cpel_span_histogram_window_select_bins (CpelSpanHistogramWindow *self,
                                        guint                    first,
                                        guint                    last)
{
  g_return_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self));
  g_return_if_fail (self->hist != NULL && first <= last && last < self->hist->n_bins);
  set_selection (self, first, last);
}

static void
cpel_span_histogram_window_dispose (GObject *object)
{
  CpelSpanHistogramWindow *self = CPEL_SPAN_HISTOGRAM_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->longest_cancellable != NULL)
    g_cancellable_cancel (self->longest_cancellable);
  g_clear_object (&self->longest_cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), CPEL_TYPE_SPAN_HISTOGRAM_WINDOW);
  /* Its selection goes with it (nothing else could clear it). */
  if (self->session != NULL && self->hist != NULL && self->sel_first <= self->sel_last)
    cpel_session_set_span_filter (self->session, NULL);
  self->hist = NULL;
  self->hist_b = NULL;
  g_clear_pointer (&self->hists, cpel_span_histograms_free);
  g_clear_pointer (&self->hists_b, cpel_span_histograms_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->slots, g_free);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (cpel_span_histogram_window_parent_class)->dispose (object);
}

static void
cpel_span_histogram_window_class_init (CpelSpanHistogramWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cpel_span_histogram_window_dispose;
  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/cpelview/CpelView/cpel-span-histogram-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, log_button);
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, weighted_button);
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, longest_button);
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, save_button);
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, area);
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, compare_label);
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_log_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_weighted_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_longest_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cpel_span_histogram_window_init (CpelSpanHistogramWindow *self)
{
  GtkGesture *drag;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->sel_first = 1;
  self->sel_last = 0;
  self->drag_bin = -1;
  gtk_drawing_area_set_draw_func (self->area, draw, self, NULL);
  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), GTK_EVENT_CONTROLLER (drag));
}

CpelSpanHistogramWindow *
cpel_span_histogram_window_new (CpelSession       *session,
                                GtkWindow         *parent,
                                const char        *name,
                                gint64             t0,
                                gint64             t1,
                                const guint       *slots,
                                guint              n_slots,
                                const CpelSpanRow *row)
{
  CpelSpanHistogramWindow *self;
  g_autofree char *subtitle = NULL;

  g_return_val_if_fail (CPEL_IS_SESSION (session), NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (CPEL_TYPE_SPAN_HISTOGRAM_WINDOW, "transient-for", parent, NULL);
  self->session = g_object_ref (session);
  self->name = g_strdup (name);
  self->t0 = t0;
  self->t1 = t1;
  if (slots != NULL)
    {
      self->slots = g_memdup2 (slots, sizeof (guint) * MAX (n_slots, 1));
      self->n_slots = n_slots;
    }
  self->p50_ns = row != NULL && row->count > 0 ? row->p50_ns : -1;
  self->p90_ns = row != NULL && row->count > 0 ? row->p90_ns : -1;
  self->p99_ns = row != NULL && row->count > 0 ? row->p99_ns : -1;
  /* TRANSLATORS: window subtitle: the span name whose durations are shown */
  subtitle = g_strdup_printf (_("Durations of %s"), name);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  compute (self);
  return self;
}
