/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-histogram-window.c — a span name's duration distribution (see
 * the header) */
#include "cpel-span-histogram-window.h"

#include <math.h>
#include <cairo-svg.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cpel-close-with-parent.h"
#include "cpel-span-diff.h"
#include "cpel-span-histogram.h"
#include "cpel-span-scatter.h"

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
  GtkDrawingArea     *scatter_area;
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
  guint               sel_first;  /* > sel_last: no bins selected */
  guint               sel_last;
  int                 drag_bin;
  CpelSpanList       *scatter;    /* the spans of the name, or NULL */
  CpelSpanList       *scatter_b;  /* comparing: B's, or NULL */
  gint64              scatter_b_offset;   /* B's time - A's */
  gint64              scatter_p[3];   /* their p50, p90, p99 (-1: none) */
  gboolean            rect_sel;   /* a rectangle of the scatter is selected */
  CpelSpanFilter     *my_filter;  /* what this window made the session's span filter */
  char               *status;
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
  gint64            offset_b;     /* B's time - A's */
} Job;

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
  job->offset_b = offset;
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

/* What the worker computes: the histogram, the spans for the scatter and
 * their percentiles. */
typedef struct
{
  CpelSpanHistograms *hists;
  CpelSpanList       *list;
  CpelSpanList       *list_b;     /* comparing: B's spans of the name */
  gint64              offset_b;
  gint64              p[3];
  /* comparing: B's histogram on A's bins, and both captures' figures */
  CpelSpanHistograms *hists_b;
  CpelSpanRow         row_a, row_b;
} Result;

static void
result_free (Result *r)
{
  g_clear_pointer (&r->hists, cpel_span_histograms_free);
  g_clear_pointer (&r->hists_b, cpel_span_histograms_free);
  g_clear_pointer (&r->list, cpel_span_list_free);
  g_clear_pointer (&r->list_b, cpel_span_list_free);
  g_free (r);
}

static int
cmp_gint64 (gconstpointer a,
            gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
hist_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  g_autoptr(CpelSpanFilter) named = cpel_span_filter_new (job->name, 0, G_MAXINT64);
  Result *r = g_new0 (Result, 1);
  guint64 n;

  if (job->file_b == NULL)
    r->hists = cpel_span_histograms_compute (job->file, job->rules, &job->options, job->name,
                                             N_BINS, job->axis, cancellable, &error);
  else if (!cpel_span_histograms_compute_pair (job->file, job->rules, &job->options,
                                               job->file_b, job->rules_b, &job->options_b,
                                               job->name, N_BINS, job->axis, &r->hists,
                                               &r->hists_b, cancellable, &error)
           || !find_row (job->file, job->rules, &job->options, job->name, &r->row_a,
                         cancellable, &error)
           || !find_row (job->file_b, job->rules_b, &job->options_b, job->name, &r->row_b,
                         cancellable, &error))
    g_clear_pointer (&r->hists, cpel_span_histograms_free);
  if (r->hists != NULL)
    r->list = cpel_span_list_compute (job->file, job->rules, &job->options, named, 0,
                                      cancellable, &error);
  if (r->list != NULL && job->file_b != NULL)
    {
      r->offset_b = job->offset_b;
      r->list_b = cpel_span_list_compute (job->file_b, job->rules_b, &job->options_b, named, 0,
                                          cancellable, &error);
      if (r->list_b == NULL)
        g_clear_pointer (&r->list, cpel_span_list_free);
    }
  if (r->hists == NULL || r->list == NULL)
    {
      result_free (r);
      g_task_return_error (task, error);
      return;
    }
  /* exact, nearest rank: the smallest d with at least p % of the spans <= d */
  n = cpel_span_list_get_n (r->list);
  r->p[0] = r->p[1] = r->p[2] = -1;
  if (n > 0)
    {
      static const guint pct[3] = { 50, 90, 99 };
      g_autofree gint64 *d = g_new (gint64, n);

      for (guint64 i = 0; i < n; i++)
        {
          const CpelSpanItem *it = cpel_span_list_get (r->list, i);

          d[i] = it->end_ns - it->begin_ns;
        }
      qsort (d, n, sizeof *d, cmp_gint64);
      for (guint k = 0; k < 3; k++)
        r->p[k] = d[MAX ((n * pct[k] + 99) / 100, 1) - 1];
    }
  g_task_return_pointer (task, r, (GDestroyNotify) result_free);
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

/* Spans of the scatter the window's filter lets through. */
static guint64
rect_count (CpelSpanHistogramWindow *self)
{
  guint64 n = 0;

  if (self->scatter == NULL || self->my_filter == NULL)
    return 0;
  for (guint64 i = 0; i < cpel_span_list_get_n (self->scatter); i++)
    {
      const CpelSpanItem *it = cpel_span_list_get (self->scatter, i);

      n += cpel_span_filter_match_span (self->my_filter, it->name, it->begin_ns, it->end_ns);
    }
  return n;
}

/* " · 3 of 12 in the timeline (n, Shift+N)": where the selected span is
 * among those the timeline highlights. */
static char *
position_text (CpelSpanHistogramWindow *self)
{
  guint64 n = 0;
  gint64 pos;
  g_autofree char *total = NULL;

  if (self->my_filter == NULL || cpel_session_get_span_matches (self->session, &n) == NULL)
    return g_strdup ("");
  pos = cpel_session_get_span_match_position (self->session);
  total = cpel_format_count (n);
  if (pos < 0)
    /* TRANSLATORS: the spans selected, highlighted in the timeline; n and
     * Shift+N are keys */
    return g_strdup_printf (_(" · %s in the timeline: n, Shift+N step through them"), total);
  {
    g_autofree char *k = cpel_format_count ((guint64) pos + 1);

    /* TRANSLATORS: "3 of 12": the selected span among those highlighted */
    return g_strdup_printf (_(" · %s of %s in the timeline (n, Shift+N)"), k, total);
  }
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

      if (self->rect_sel && self->my_filter != NULL)
        {
          g_autofree char *sel = cpel_format_count (rect_count (self));
          g_autofree char *lo = cpel_span_histogram_format_duration (self->my_filter->min_ns);
          g_autofree char *hi = cpel_span_histogram_format_duration (self->my_filter->max_ns);
          g_autofree char *from = cpel_span_histogram_format_duration (self->my_filter->from_ns);
          g_autofree char *to = cpel_span_histogram_format_duration (self->my_filter->to_ns);

          /* TRANSLATORS: "3 of 101 spans selected (10 µs – 20 µs, begun 1 ms – 2 ms)" */
          text = g_strdup_printf (ngettext ("%s of %s span selected (%s – %s, begun %s – %s)",
                                            "%s of %s spans selected (%s – %s, begun %s – %s)",
                                            self->hist->count),
                                  sel, count, lo, hi, from, to);
        }
      else if (self->sel_first <= self->sel_last)
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
        text = g_strdup_printf (ngettext ("%s span · drag over the bars or the points "
                                          "to select",
                                          "%s spans · drag over the bars or the points "
                                          "to select",
                                          self->hist->count), count);
    }
  if (self->hist != NULL && self->cancellable == NULL)
    {
      g_autofree char *pos = position_text (self);
      char *all = g_strconcat (text, pos, NULL);

      g_free (text);
      text = all;
    }
  g_free (self->status);
  self->status = g_strdup (text);
  gtk_label_set_text (self->status_label, text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->longest_button),
                            self->hist != NULL && self->longest_cancellable == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), self->hist != NULL);
}

/* The session's span filter made `filter` (taken; NULL: none). */
static void
apply_filter (CpelSpanHistogramWindow *self,
              CpelSpanFilter          *filter)
{
  g_clear_pointer (&self->my_filter, cpel_span_filter_free);
  self->my_filter = filter;
  cpel_session_set_span_filter (self->session, filter);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
  gtk_widget_queue_draw (GTK_WIDGET (self->scatter_area));
  update_status (self);
}

static void
set_selection (CpelSpanHistogramWindow *self,
               guint                    first,
               guint                    last)
{
  self->sel_first = first;
  self->sel_last = last;
  self->rect_sel = FALSE;
  if (self->hist != NULL && first <= last && last < self->hist->n_bins)
    apply_filter (self, cpel_span_histogram_selection (self->hist, first, last));
  else if (self->my_filter != NULL)
    apply_filter (self, NULL);
  else
    {
      /* the session's filter is another's (or none): left as it is */
      gtk_widget_queue_draw (GTK_WIDGET (self->area));
      gtk_widget_queue_draw (GTK_WIDGET (self->scatter_area));
      update_status (self);
    }
}

/* Another window (or the search bar) set the session's span filter: this
 * window's selection is gone. */
static void
on_span_filter (CpelSpanHistogramWindow *self)
{
  if (!cpel_span_filter_equal (cpel_session_get_span_filter (self->session), self->my_filter))
    {
      g_clear_pointer (&self->my_filter, cpel_span_filter_free);
      self->sel_first = 1;
      self->sel_last = 0;
      self->rect_sel = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self->area));
      gtk_widget_queue_draw (GTK_WIDGET (self->scatter_area));
    }
  update_status (self);
}

static void
on_computed (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(CpelSpanHistogramWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  Result *r = g_task_propagate_pointer (G_TASK (result), &error);
  CpelSpanHistograms *hists = NULL;

  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&r, result_free);
      return;
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->hists, cpel_span_histograms_free);
  g_clear_pointer (&self->hists_b, cpel_span_histograms_free);
  g_clear_pointer (&self->scatter, cpel_span_list_free);
  g_clear_pointer (&self->scatter_b, cpel_span_list_free);
  self->hist = NULL;
  self->hist_b = NULL;
  memset (&self->row_a, 0, sizeof self->row_a);
  memset (&self->row_b, 0, sizeof self->row_b);
  self->scatter_p[0] = self->scatter_p[1] = self->scatter_p[2] = -1;
  if (r != NULL)
    {
      hists = g_steal_pointer (&r->hists);
      self->scatter = g_steal_pointer (&r->list);
      self->scatter_b = g_steal_pointer (&r->list_b);
      self->scatter_b_offset = r->offset_b;
      memcpy (self->scatter_p, r->p, sizeof self->scatter_p);
      self->hists_b = g_steal_pointer (&r->hists_b);
      if (self->hists_b != NULL && cpel_span_histograms_get_n (self->hists_b) > 0)
        self->hist_b = cpel_span_histograms_get (self->hists_b, 0);
      self->row_a = r->row_a;
      self->row_b = r->row_b;
      result_free (r);
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
  gtk_widget_queue_draw (GTK_WIDGET (self->scatter_area));
  task = g_task_new (NULL, self->cancellable, on_computed, g_object_ref (self));
  g_task_set_source_tag (task, compute);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  cpel_background_run (task, hist_thread);
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
  if (self->my_filter != NULL)
    job->filter = cpel_span_filter_copy (self->my_filter);
  else
    job->filter = cpel_span_filter_new (self->name, 0, G_MAXINT64);
  self->longest_cancellable = g_cancellable_new ();
  update_status (self);
  task = g_task_new (NULL, self->longest_cancellable, on_longest, g_object_ref (self));
  g_task_set_source_tag (task, cpel_span_histogram_window_go_to_longest);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  cpel_background_run (task, longest_thread);
}

/* ------------------------------------------------------------------------ */

/* The histogram as drawn, in `palette`'s colours. */
static void
draw_histogram (CpelSpanHistogramWindow *self,
                cairo_t                 *cr,
                double                   width,
                double                   height,
                const CpelPalette       *palette)
{
  CpelSpanHistogramView view = { 0 };

  view.hist = self->hist;
  view.time_weighted = gtk_toggle_button_get_active (self->weighted_button);
  view.p50_ns = self->p50_ns;
  view.p90_ns = self->p90_ns;
  view.p99_ns = self->p99_ns;
  view.sel_first = self->sel_first;
  view.sel_last = self->sel_last;
  view.palette = palette;
  view.log_axis = self->log_hist;
  view.hist_b = self->hist_b;
  cpel_render_span_histogram (cr, width, height, &view);
}

static void
draw (GtkDrawingArea *area,
      cairo_t        *cr,
      int             width,
      int             height,
      gpointer        user_data)
{
  CpelSpanHistogramWindow *self = user_data;
  CpelPalette palette;

  if (self->hist == NULL && self->hist_b == NULL)
    return;
  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  draw_histogram (self, cr, width, height, &palette);
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

/* The scatter as drawn: its axes fitted to the spans, the selection the
 * window's filter. */
static void
scatter_view (CpelSpanHistogramWindow *self,
              CpelSpanScatterView     *view,
              const CpelPalette       *palette)
{
  memset (view, 0, sizeof *view);
  view->list = self->scatter;
  view->list_b = self->scatter_b;
  view->b_offset = self->scatter_b_offset;
  view->max_ns = -1;
  view->log_axis = self->log_hist;
  view->p50_ns = self->p50_ns >= 0 ? self->p50_ns : self->scatter_p[0];
  view->p90_ns = self->p90_ns >= 0 ? self->p90_ns : self->scatter_p[1];
  view->p99_ns = self->p99_ns >= 0 ? self->p99_ns : self->scatter_p[2];
  view->palette = palette;
  if (self->my_filter != NULL)
    {
      view->has_selection = TRUE;
      view->sel_from_ns = self->my_filter->from_ns;
      view->sel_to_ns = self->my_filter->to_ns;
      view->sel_min_ns = self->my_filter->min_ns;
      view->sel_max_ns = self->my_filter->max_ns;
    }
  cpel_span_scatter_fit (view);
  if (view->has_selection)
    {
      /* a band of durations (the histogram's selection) across the plot */
      view->sel_from_ns = MAX (view->sel_from_ns, view->t0);
      view->sel_to_ns = MIN (view->sel_to_ns, view->t1);
      view->sel_min_ns = MAX (view->sel_min_ns, view->min_ns);
      view->sel_max_ns = MIN (view->sel_max_ns, view->max_ns);
    }
}

static void
draw_scatter (GtkDrawingArea *area,
              cairo_t        *cr,
              int             width,
              int             height,
              gpointer        user_data)
{
  CpelSpanHistogramWindow *self = user_data;
  CpelPalette palette;
  CpelSpanScatterView view;

  if (self->scatter == NULL)
    return;
  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  scatter_view (self, &view, &palette);
  cpel_render_span_scatter (cr, width, height, &view);
}

void
cpel_span_histogram_window_select_rect (CpelSpanHistogramWindow *self,
                                        double                   x0,
                                        double                   y0,
                                        double                   x1,
                                        double                   y1)
{
  CpelSpanScatterView view;
  double w, h;

  g_return_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self));
  if (self->scatter == NULL)
    return;
  w = gtk_widget_get_width (GTK_WIDGET (self->scatter_area));
  h = gtk_widget_get_height (GTK_WIDGET (self->scatter_area));
  scatter_view (self, &view, NULL);
  self->sel_first = 1;
  self->sel_last = 0;
  self->rect_sel = TRUE;
  apply_filter (self, cpel_span_scatter_selection (&view, self->name, w, h, x0, y0, x1, y1));
}

static void
on_scatter_drag_update (GtkGestureDrag          *gesture,
                        double                   dx,
                        double                   dy,
                        CpelSpanHistogramWindow *self)
{
  double x0, y0;

  gtk_gesture_drag_get_start_point (gesture, &x0, &y0);
  if (fabs (dx) < 2 && fabs (dy) < 2)
    return;
  cpel_span_histogram_window_select_rect (self, x0, y0, x0 + dx, y0 + dy);
}

static void
on_scatter_drag_end (GtkGestureDrag          *gesture,
                     double                   dx,
                     double                   dy,
                     CpelSpanHistogramWindow *self)
{
  /* a click: no selection */
  if (fabs (dx) < 2 && fabs (dy) < 2)
    set_selection (self, 1, 0);
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

/* The histogram as an image: PNG or SVG by the file's name (800 x 400,
 * light colours, as on screen otherwise). */
static gboolean
save_image (CpelSpanHistogramWindow  *self,
            GFile                    *file,
            gboolean                  svg,
            GError                  **error)
{
  g_autofree char *path = g_file_get_path (file);
  CpelPalette palette;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  if (path == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("Not a local file"));
      return FALSE;
    }
  cpel_palette_init_light (&palette);
  surface = svg ? cairo_svg_surface_create (path, 800, 400)
                : cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 400);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, palette.background.r, palette.background.g, palette.background.b);
  cairo_paint (cr);
  draw_histogram (self, cr, 800, 400, &palette);
  cairo_destroy (cr);
  if (svg)
    cairo_surface_finish (surface);
  else
    cairo_surface_write_to_png (surface, path);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("Could not write “%s”: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

gboolean
cpel_span_histogram_window_save (CpelSpanHistogramWindow  *self,
                                 GFile                    *file,
                                 GError                  **error)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  name = g_file_get_basename (file);
  if (name != NULL && (g_str_has_suffix (name, ".png") || g_str_has_suffix (name, ".svg")))
    {
      if (self->hist == NULL && self->hist_b == NULL)
        {
          g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                               _("No histogram to save yet"));
          return FALSE;
        }
      return save_image (self, file, g_str_has_suffix (name, ".svg"), error);
    }
  return cpel_span_histogram_window_save_csv (self, file, error);
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
  if (file != NULL && !cpel_span_histogram_window_save (self, file, &error))
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
  self->chooser = gtk_file_chooser_native_new (_("Save Bins or Image"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_filter_set_name (filter, _("CSV Files"));
  gtk_file_filter_add_mime_type (filter, "text/csv");
  gtk_file_filter_add_suffix (filter, "csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GtkFileFilter) image = gtk_file_filter_new ();

      gtk_file_filter_set_name (image, i == 0 ? _("PNG Image (the histogram)")
                                              : _("SVG Image (the histogram)"));
      gtk_file_filter_add_suffix (image, i == 0 ? "png" : "svg");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), image);
    }
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
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  /* Its selection goes with it (nothing else could clear it). */
  if (self->session != NULL && self->my_filter != NULL
      && cpel_span_filter_equal (cpel_session_get_span_filter (self->session), self->my_filter))
    cpel_session_set_span_filter (self->session, NULL);
  g_clear_pointer (&self->my_filter, cpel_span_filter_free);
  g_clear_pointer (&self->scatter, cpel_span_list_free);
  g_clear_pointer (&self->scatter_b, cpel_span_list_free);
  g_clear_pointer (&self->status, g_free);
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
  gtk_widget_class_bind_template_child (widget_class, CpelSpanHistogramWindow, scatter_area);
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
  gtk_drawing_area_set_draw_func (self->scatter_area, draw_scatter, self, NULL);
  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_scatter_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_scatter_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self->scatter_area), GTK_EVENT_CONTROLLER (drag));
  self->scatter_p[0] = self->scatter_p[1] = self->scatter_p[2] = -1;
}

CpelSpanList *
cpel_span_histogram_window_get_scatter (CpelSpanHistogramWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), NULL);
  return self->scatter;
}

CpelSpanList *
cpel_span_histogram_window_get_scatter_b (CpelSpanHistogramWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), NULL);
  return self->scatter_b;
}

GtkWidget *
cpel_span_histogram_window_get_scatter_area (CpelSpanHistogramWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), NULL);
  return GTK_WIDGET (self->scatter_area);
}

const char *
cpel_span_histogram_window_get_status (CpelSpanHistogramWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPAN_HISTOGRAM_WINDOW (self), NULL);
  return self->status != NULL ? self->status : "";
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
  cpel_close_with_parent (GTK_WINDOW (self));
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::span-filter", G_CALLBACK (on_span_filter), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-changed", G_CALLBACK (update_status), self,
                           G_CONNECT_SWAPPED);
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
