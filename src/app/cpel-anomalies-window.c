/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-anomalies-window.c — the Anomalies window
 *
 * The form (event type, datum or interval, threshold in σ) runs
 * cpel_anomaly_find(): on the main thread for small files, in a GTask
 * worker with a Cancel button above CPEL_ANOMALIES_WINDOW_THREAD_EVENTS
 * events.  The anomalies show in time order in a lazily built list; picking
 * one selects and centres its event (through the session).  Next /
 * previous step from the session's selection.  The window hides on close and keeps its result,
 * so that F4 / Shift+F4 in the main window keep working.
 */
#include "cpel-anomalies-window.h"

#include <glib/gi18n.h>

#include "cpel-anomaly-list.h"
#include "cpel-app-util.h"
#include "cpel-close-with-parent.h"
#include "cpel-table.h"
#include "cpel-window.h"   /* the parent's toaster */

/* Event types offered at most (a file may define very many). */
#define MAX_TYPES 5000

enum
{
  TRACK_CELL_LABEL,
  TRACK_CELL_N,
  TRACK_CELL_MEAN,
  TRACK_CELL_SIGMA,
  TRACK_CELL_ANOMALIES,
  N_TRACK_CELLS
};

struct _CpelAnomaliesWindow
{
  AdwWindow             parent_instance;

  /* Template */
  AdwViewSwitcherTitle *switcher_title;
  AdwComboRow          *code_row;
  AdwComboRow          *metric_row;
  GtkSpinButton        *threshold_spin;
  GtkLabel             *summary_label;
  GtkStack             *state_stack;
  GtkSpinner           *spinner;
  AdwStatusPage        *empty_page;
  GtkColumnView        *anomaly_view;
  GtkColumnView        *track_view;

  CpelSession          *session;
  char                 *hidden_note;   /* the last run's type was hidden: what the user was told */
  CpelFile             *file;
  GArray               *types;        /* guint type per code_row position */
  GPtrArray            *span_names;   /* span durations: the name per code_row position */
  gboolean              span_mode;    /* code_row lists span names */

  CpelAnomalyList      *list;         /* NULL: no result */
  GtkSingleSelection   *selection;
  GListStore           *track_rows;
  GtkSortListModel     *sorted_tracks;
  gint64                current;
  char                 *summary;      /* "12 anomalies on 2 tracks" */
  gboolean              syncing;
  guint64               thread_events;

  GCancellable         *cancellable;
  guint                 scroll_position;   /* for scroll_list_to */
  GdkFrameClock        *scroll_clock;      /* waited on (a reference) */
  gulong                scroll_paint_id;
};

G_DEFINE_FINAL_TYPE (CpelAnomaliesWindow, cpel_anomalies_window, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------------ */
/* The form                                                                   */

static void
fill_codes (CpelAnomaliesWindow *self)
{
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  guint n_types, best = 0, sel_pos = G_MAXUINT;
  guint64 best_n = 0;
  guint slot;
  guint64 index;
  gboolean have_selection;
  CpelEvent selected = { 0 };

  g_array_set_size (self->types, 0);
  if (self->file == NULL)
    {
      adw_combo_row_set_model (self->code_row, G_LIST_MODEL (model));
      return;
    }

  have_selection = cpel_session_get_selection (self->session, &slot, &index);
  if (have_selection)
    cpel_file_get_track_event (self->file, slot, index, &selected);

  n_types = cpel_file_get_n_types (self->file);
  for (guint type = 0; type < n_types && self->types->len < MAX_TYPES; type++)
    {
      guint64 n = cpel_file_get_type_n_events (self->file, type);
      const char *name = cpel_file_get_type_name (self->file, type);
      g_autofree char *label = NULL;

      if (n == 0)
        continue;
      /* TRANSLATORS: an event type in a list: name, then its code */
      label = g_strdup_printf (_("%s (%u)"), name != NULL && *name ? name : _("(unnamed)"),
                               cpel_file_get_type_code (self->file, type));
      gtk_string_list_append (model, label);
      if (have_selection && selected.type == type)
        sel_pos = self->types->len;
      if (n > best_n)
        {
          best_n = n;
          best = self->types->len;
        }
      g_array_append_val (self->types, type);
    }
  adw_combo_row_set_model (self->code_row, G_LIST_MODEL (model));
  /* The selected event's type, else the most frequent one. */
  if (self->types->len > 0)
    adw_combo_row_set_selected (self->code_row, sel_pos != G_MAXUINT ? sel_pos : best);
}

#define METRIC_SPAN_DURATION 2   /* metric_row's third item */

static gint
cmp_names (gconstpointer a,
           gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Span durations: the names of the session's spans (not states), in
 * name order, the selected span's first. */
static void
fill_span_names (CpelAnomaliesWindow *self)
{
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  CpelSpans *spans = cpel_session_get_spans (self->session);
  CpelSessionSpanRef ref;
  const CpelSpan *sel = cpel_session_get_span_selection (self->session, &ref);
  guint sel_pos = 0;

  g_ptr_array_set_size (self->span_names, 0);
  if (spans != NULL && self->file != NULL)
    {
      guint n_names = cpel_spans_get_n_names (spans);
      g_autofree guint8 *used = g_new0 (guint8, MAX (n_names, 1));

      for (guint slot = 0; slot < cpel_file_get_n_tracks (self->file); slot++)
        {
          guint64 n = 0;
          const CpelSpan *a = cpel_spans_get_track_spans (spans, slot, &n);

          for (guint64 i = 0; a != NULL && i < n; i++)
            if (a[i].name < n_names)
              used[a[i].name] = 1;
        }
      for (guint i = 0; i < n_names; i++)
        if (used[i])
          g_ptr_array_add (self->span_names, (gpointer) cpel_spans_get_name (spans, i));
      g_ptr_array_sort (self->span_names, cmp_names);
      for (guint i = 0; i < self->span_names->len; i++)
        {
          const char *name = g_ptr_array_index (self->span_names, i);

          gtk_string_list_append (model, name);
          if (sel != NULL && !ref.state && g_str_equal (name, cpel_spans_get_name (spans,
                                                                                  sel->name)))
            sel_pos = i;
        }
    }
  adw_combo_row_set_model (self->code_row, G_LIST_MODEL (model));
  if (self->span_names->len > 0)
    adw_combo_row_set_selected (self->code_row, sel_pos);
}

/* The metric chooses what the first row lists: event types, or span names. */
static void
on_metric_changed (CpelAnomaliesWindow *self)
{
  gboolean spans = adw_combo_row_get_selected (self->metric_row) == METRIC_SPAN_DURATION;

  if (spans == self->span_mode)
    return;
  self->span_mode = spans;
  /* TRANSLATORS: the Anomalies window's first row: an event type, or a span name */
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->code_row),
                                 spans ? _("_Span") : _("_Event"));
  if (spans)
    fill_span_names (self);
  else
    fill_codes (self);
}

static void
on_spans_changed (CpelAnomaliesWindow *self)
{
  if (self->span_mode)
    fill_span_names (self);
}

gboolean
cpel_anomalies_window_set_span_query (CpelAnomaliesWindow *self,
                                      const char          *name,
                                      double               k)
{
  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  adw_combo_row_set_selected (self->metric_row, METRIC_SPAN_DURATION);
  gtk_spin_button_set_value (self->threshold_spin, k > 0 ? k : CPEL_ANOMALY_DEFAULT_K);
  for (guint i = 0; i < self->span_names->len; i++)
    if (g_str_equal (g_ptr_array_index (self->span_names, i), name))
      {
        adw_combo_row_set_selected (self->code_row, i);
        return TRUE;
      }
  return FALSE;
}

/* A text datum (a string-table offset) has no meaningful mean: such a
 * type is measured by the intervals between its events. */
static void
on_code_changed (CpelAnomaliesWindow *self)
{
  guint position = adw_combo_row_get_selected (self->code_row);
  guint type;

  if (self->file == NULL || self->span_mode || position >= self->types->len)
    return;
  type = g_array_index (self->types, guint, position);
  if (!cpel_anomaly_datum_is_number (self->file, cpel_file_get_type_code (self->file, type)))
    adw_combo_row_set_selected (self->metric_row, 1);
}

gboolean
cpel_anomalies_window_set_query (CpelAnomaliesWindow *self,
                                 guint32              code,
                                 CpelAnomalyMetric    metric,
                                 double               k)
{
  guint type;

  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), FALSE);

  adw_combo_row_set_selected (self->metric_row, metric == CPEL_ANOMALY_INTERVAL ? 1 : 0);
  gtk_spin_button_set_value (self->threshold_spin, k > 0 ? k : CPEL_ANOMALY_DEFAULT_K);
  if (self->file == NULL || !cpel_file_lookup_type (self->file, code, &type))
    return FALSE;
  for (guint i = 0; i < self->types->len; i++)
    if (g_array_index (self->types, guint, i) == type)
      {
        adw_combo_row_set_selected (self->code_row, i);
        return TRUE;
      }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Results                                                                    */

static char *
format_stat (CpelAnomalyMetric metric,
             double            value)
{
  if (metric == CPEL_ANOMALY_INTERVAL || metric == CPEL_ANOMALY_DURATION)
    return cpel_anomaly_format_value (metric, value);
  return g_strdup_printf ("%.1f", value);
}

static void
update_subtitle (CpelAnomaliesWindow *self)
{
  CpelAnomalyResult *result = cpel_anomalies_window_get_result (self);
  gboolean any = result != NULL && cpel_anomaly_result_get_n (result) > 0;
  g_autofree char *text = NULL;

  /* Stepping and the two views mean something only with anomalies. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "anomaly.next", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "anomaly.previous", any);
  adw_view_switcher_title_set_view_switcher_enabled (self->switcher_title, any);

  if (result != NULL && self->current >= 0)
    {
      g_autofree char *position = cpel_format_count ((guint64) self->current + 1);
      g_autofree char *total = cpel_format_count (cpel_anomaly_result_get_n (result));

      /* TRANSLATORS: "12 anomalies on 2 tracks · 3 of 12" */
      text = g_strdup_printf (_("%s · %s of %s"), self->summary != NULL ? self->summary : "",
                              position, total);
    }
  /* The view switcher takes the title when wide: the position goes with
   * the summary under the form. */
  gtk_label_set_text (self->summary_label, text != NULL ? text : self->summary != NULL ? self->summary : "");
}

static void
clear_result (CpelAnomaliesWindow *self)
{
  self->syncing = TRUE;
  gtk_single_selection_set_model (self->selection, NULL);
  self->syncing = FALSE;
  g_clear_object (&self->list);
  g_list_store_remove_all (self->track_rows);
  self->current = -1;
  g_clear_pointer (&self->summary, g_free);
  update_subtitle (self);
}

static void
show_result (CpelAnomaliesWindow *self,
             CpelAnomalyResult   *result)
{
  guint n_tracks = cpel_file_get_n_tracks (self->file);
  CpelAnomalyMetric metric = cpel_anomaly_result_get_metric (result);
  guint64 n = cpel_anomaly_result_get_n (result);
  g_autofree guint64 *per_track = g_new0 (guint64, MAX (n_tracks, 1));
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *count = cpel_format_count (n);
  g_autofree char *busy_text = NULL;
  g_autofree char *summary = NULL;
  guint n_busy = 0, n_series = 0;

  clear_result (self);

  for (guint64 i = 0; i < n; i++)
    {
      guint slot = cpel_anomaly_result_get (result, i)->ref.slot;

      if (slot < n_tracks)
        per_track[slot]++;
    }
  for (guint slot = 0; slot < n_tracks; slot++)
    {
      guint64 n_values;
      double mean, sigma;
      const char *label;
      CpelTableRow *row;

      if (!cpel_anomaly_result_get_track_stats (result, slot, &n_values, &mean, &sigma))
        continue;
      label = cpel_file_get_track_label (self->file, slot);
      row = cpel_table_row_new (N_TRACK_CELLS, slot);
      cpel_table_row_take (row, TRACK_CELL_LABEL, g_strdup (label != NULL ? label : ""), 0);
      cpel_table_row_take (row, TRACK_CELL_N, cpel_format_count (n_values), (double) n_values);
      cpel_table_row_take (row, TRACK_CELL_MEAN, format_stat (metric, mean), mean);
      cpel_table_row_take (row, TRACK_CELL_SIGMA, format_stat (metric, sigma), sigma);
      cpel_table_row_take (row, TRACK_CELL_ANOMALIES, cpel_format_count (per_track[slot]),
                           (double) per_track[slot]);
      g_ptr_array_add (rows, row);
      n_series++;
      if (per_track[slot] > 0)
        n_busy++;
    }
  g_list_store_splice (self->track_rows, 0, 0, rows->pdata, rows->len);

  self->list = cpel_anomaly_list_new (self->file, result);
  self->syncing = TRUE;
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->list));
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;

  busy_text = cpel_format_count (n_busy);
  /* TRANSLATORS: "12 anomalies on 2 tracks" */
  summary = g_strdup_printf (ngettext ("%s anomaly", "%s anomalies", n), count);
  if (n > 0)
    {
      char *with_tracks = g_strdup_printf (ngettext ("%s on %s track", "%s on %s tracks", n_busy),
                                           summary, busy_text);

      g_free (summary);
      summary = with_tracks;
    }
  self->summary = g_steal_pointer (&summary);

  if (n > 0)
    gtk_stack_set_visible_child_name (self->state_stack, "list");
  else
    {
      adw_status_page_set_description (self->empty_page,
                                       n_series == 0
                                       ? _("No track has two or more values to compare")
                                       : _("Every value lies within the threshold of its track’s mean"));
      gtk_stack_set_visible_child_name (self->state_stack, "empty");
    }
  update_subtitle (self);
}

/* ------------------------------------------------------------------------ */
/* Running                                                                    */

typedef struct
{
  CpelFile          *file;
  guint32            code;
  CpelAnomalyMetric  metric;
  double             k;
  CpelSpanRules     *rules;   /* span durations: the session's rules, */
  char              *name;    /* and the span name */
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->file);
  g_clear_pointer (&job->rules, cpel_span_rules_unref);
  g_free (job->name);
  g_free (job);
}

/* The job's anomalies: events' (cpel_anomaly_find ()) or spans'. */
static CpelAnomalyResult *
job_find (Job           *job,
          GCancellable  *cancellable,
          GError       **error)
{
  g_autoptr(CpelSpanAnomalies) spans = NULL;

  if (job->name == NULL)
    return cpel_anomaly_find (job->file, job->code, job->metric, job->k, cancellable, error);
  spans = cpel_span_anomalies_find (job->file, job->rules, NULL, job->name,
                                    CPEL_SPAN_ANOMALY_SIGMA, job->k, cancellable, error);
  if (spans == NULL)
    return NULL;
  return cpel_anomaly_result_new_for_spans (job->file, spans, job->k);
}

static void
find_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  CpelAnomalyResult *result = job_find (job, cancellable, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) cpel_anomaly_result_free);
}

static void
set_busy (CpelAnomaliesWindow *self,
          gboolean             busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "anomaly.find", !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "anomaly.cancel", busy);
  if (busy)
    gtk_stack_set_visible_child_name (self->state_stack, "busy");
}

static void
finish (CpelAnomaliesWindow *self,
        CpelAnomalyResult   *result,
        GError              *error)
{
  set_busy (self, FALSE);
  if (result != NULL)
    show_result (self, result);
  else
    {
      clear_result (self);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_stack_set_visible_child_name (self->state_stack, "start");
      else
        {
          adw_status_page_set_description (self->empty_page, error->message);
          gtk_stack_set_visible_child_name (self->state_stack, "empty");
        }
    }
}

static void
on_found (GObject      *source,
          GAsyncResult *res,
          gpointer      user_data)
{
  g_autoptr(CpelAnomaliesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  CpelAnomalyResult *result = g_task_propagate_pointer (G_TASK (res), &error);

  if (g_task_get_cancellable (G_TASK (res)) != self->cancellable)
    {
      g_clear_pointer (&result, cpel_anomaly_result_free);
      return;   /* superseded */
    }
  g_clear_object (&self->cancellable);
  finish (self, result, error);
}

void
cpel_anomalies_window_run (CpelAnomaliesWindow *self)
{
  guint position;
  guint type;
  guint8 *hidden;
  Job *job;

  g_return_if_fail (CPEL_IS_ANOMALIES_WINDOW (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  position = adw_combo_row_get_selected (self->code_row);
  if (self->span_mode)
    {
      CpelSpanRules *rules = cpel_session_get_span_rules (self->session);

      if (self->file == NULL || rules == NULL || position >= self->span_names->len)
        {
          gtk_widget_error_bell (GTK_WIDGET (self));
          return;
        }
      g_clear_pointer (&self->hidden_note, g_free);
      job = g_new0 (Job, 1);
      job->file = g_object_ref (self->file);
      job->rules = cpel_span_rules_ref (rules);
      job->name = g_strdup (g_ptr_array_index (self->span_names, position));
      job->metric = CPEL_ANOMALY_DURATION;
      job->k = gtk_spin_button_get_value (self->threshold_spin);
      goto run;
    }
  if (self->file == NULL || position >= self->types->len)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  type = g_array_index (self->types, guint, position);

  /* A hidden type stays hidden (never changed without a word): its
   * anomalies are still selected and shown whole when gone to (the
   * selection is drawn whatever its type), and the window says so, with
   * Event Types one click away to show the type again. */
  hidden = (guint8 *) cpel_session_get_hidden_types (self->session);
  if (hidden != NULL && type < cpel_file_get_n_types (self->file) && hidden[type])
    {
      GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
      const char *name = cpel_file_get_type_name (self->file, type);
      g_autofree char *text = NULL;

      /* TRANSLATORS: toast; %s is an event type's name */
      text = g_strdup_printf (_("“%s” is hidden: its anomalies are selected and shown, "
                                "the type stays hidden"),
                              name != NULL && *name ? name : "?");
      if (CPEL_IS_WINDOW (parent))
        cpel_toaster_show_full (cpel_window_get_toaster (CPEL_WINDOW (parent)), text,
                                CPEL_TOASTER_TIMEOUT, _("_Event Types…"), "win.event-types", NULL);
      g_free (self->hidden_note);
      self->hidden_note = g_steal_pointer (&text);
    }
  else
    g_clear_pointer (&self->hidden_note, g_free);

  job = g_new0 (Job, 1);
  job->file = g_object_ref (self->file);
  job->code = cpel_file_get_type_code (self->file, type);
  job->metric = adw_combo_row_get_selected (self->metric_row) == 1 ? CPEL_ANOMALY_INTERVAL
                                                                   : CPEL_ANOMALY_DATUM;
  job->k = gtk_spin_button_get_value (self->threshold_spin);

run:
  if (cpel_file_get_n_events (self->file) <= self->thread_events)
    {
      g_autoptr(GError) error = NULL;
      CpelAnomalyResult *result = job_find (job, NULL, &error);

      job_free (job);
      finish (self, result, error);
      return;
    }

  {
    g_autoptr(GTask) task = NULL;

    self->cancellable = g_cancellable_new ();
    clear_result (self);
    set_busy (self, TRUE);
    task = g_task_new (NULL, self->cancellable, on_found, g_object_ref (self));
    g_task_set_source_tag (task, cpel_anomalies_window_run);
    g_task_set_task_data (task, job, (GDestroyNotify) job_free);
    cpel_background_run (task, find_thread);
  }
}

const char *
cpel_anomalies_window_get_hidden_note (CpelAnomaliesWindow *self)
{
  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), NULL);
  return self->hidden_note;
}

gboolean
cpel_anomalies_window_is_busy (CpelAnomaliesWindow *self)
{
  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), FALSE);
  return self->cancellable != NULL;
}

CpelAnomalyResult *
cpel_anomalies_window_get_result (CpelAnomaliesWindow *self)
{
  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), NULL);
  return self->list != NULL ? cpel_anomaly_list_get_result (self->list) : NULL;
}

GListModel *
cpel_anomalies_window_get_rows (CpelAnomaliesWindow *self,
                                gboolean             tracks)
{
  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), NULL);
  if (tracks)
    return G_LIST_MODEL (self->sorted_tracks);
  return self->list != NULL ? G_LIST_MODEL (self->list) : NULL;
}

void
cpel_anomalies_window_set_thread_events (CpelAnomaliesWindow *self,
                                         guint64              n_events)
{
  g_return_if_fail (CPEL_IS_ANOMALIES_WINDOW (self));
  self->thread_events = n_events;
}

gint64
cpel_anomalies_window_get_current (CpelAnomaliesWindow *self)
{
  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), -1);
  return self->current;
}

/* ------------------------------------------------------------------------ */
/* Jumping                                                                    */

static GtkWidget *
anomaly_list_view (CpelAnomaliesWindow *self)
{
  /* GTK 4.8 has no gtk_column_view_scroll_to(): its list view does. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->anomaly_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

static void
stop_scroll (CpelAnomaliesWindow *self)
{
  /* (a clock disposed with its surface has dropped its handlers) */
  if (self->scroll_paint_id != 0
      && g_signal_handler_is_connected (self->scroll_clock, self->scroll_paint_id))
    g_signal_handler_disconnect (self->scroll_clock, self->scroll_paint_id);
  self->scroll_paint_id = 0;
  g_clear_object (&self->scroll_clock);
}

static void
on_scroll_after_paint (GdkFrameClock       *clock,
                       CpelAnomaliesWindow *self)
{
  GtkWidget *list = anomaly_list_view (self);

  stop_scroll (self);
  if (list != NULL && gtk_widget_get_mapped (list)
      && self->scroll_position < g_list_model_get_n_items (G_LIST_MODEL (self->selection)))
    gtk_widget_activate_action (list, "list.scroll-to-item", "u", self->scroll_position);
}

/* GTK 4.8's list view warns ("failed to scroll to given position") for a
 * row it has not laid out yet: right after its model changed, or on the
 * other tab.  So the list scrolls after the next frame, when shown. */
static void
scroll_list_to (CpelAnomaliesWindow *self,
                guint                position)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  self->scroll_position = position;
  if (clock == NULL || self->scroll_paint_id != 0)
    return;
  self->scroll_clock = g_object_ref (clock);
  self->scroll_paint_id = g_signal_connect (clock, "after-paint",
                                            G_CALLBACK (on_scroll_after_paint), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
cpel_anomalies_window_jump (CpelAnomaliesWindow *self,
                            guint64              position)
{
  CpelAnomalyResult *result;

  g_return_if_fail (CPEL_IS_ANOMALIES_WINDOW (self));
  result = cpel_anomalies_window_get_result (self);
  g_return_if_fail (result != NULL);
  g_return_if_fail (position < cpel_anomaly_result_get_n (result));

  self->current = (gint64) position;
  cpel_session_go_to_anomaly (self->session, result, position);

  if (position < G_MAXUINT)
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->selection, (guint) position);
      self->syncing = FALSE;
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        scroll_list_to (self, (guint) position);
    }
  update_subtitle (self);
}

gboolean
cpel_anomalies_window_step (CpelAnomaliesWindow *self,
                            int                  direction)
{
  guint64 position;

  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), FALSE);

  if (self->file == NULL
      || !cpel_session_find_anomaly (self->session, cpel_anomalies_window_get_result (self),
                                     direction, &position))
    {
      GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

      gtk_widget_error_bell (parent != NULL ? GTK_WIDGET (parent) : GTK_WIDGET (self));
      return FALSE;
    }
  cpel_anomalies_window_jump (self, position);
  return TRUE;
}

static void
on_selected (CpelAnomaliesWindow *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);

  if (!self->syncing && position != GTK_INVALID_LIST_POSITION)
    cpel_anomalies_window_jump (self, position);
}

static void
on_anomaly_activate (CpelAnomaliesWindow *self,
                     guint                position)
{
  if (self->list != NULL && position < g_list_model_get_n_items (G_LIST_MODEL (self->list)))
    cpel_anomalies_window_jump (self, position);
}

/* ------------------------------------------------------------------------ */

static void
on_file_changed (CpelAnomaliesWindow *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);
  clear_result (self);
  g_set_object (&self->file, cpel_session_get_file (self->session));
  if (self->span_mode)
    fill_span_names (self);
  else
    fill_codes (self);
  gtk_stack_set_visible_child_name (self->state_stack, "start");
}

static void
action_find (GtkWidget  *widget,
             const char *name,
             GVariant   *parameter)
{
  cpel_anomalies_window_run (CPEL_ANOMALIES_WINDOW (widget));
}

static void
action_cancel (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  CpelAnomaliesWindow *self = CPEL_ANOMALIES_WINDOW (widget);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
action_step (GtkWidget  *widget,
             const char *name,
             GVariant   *parameter)
{
  cpel_anomalies_window_step (CPEL_ANOMALIES_WINDOW (widget), g_str_equal (name, "anomaly.next") ? 1 : -1);
}

static void
cpel_anomalies_window_dispose (GObject *object)
{
  CpelAnomaliesWindow *self = CPEL_ANOMALIES_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  stop_scroll (self);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_pointer (&self->hidden_note, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), CPEL_TYPE_ANOMALIES_WINDOW);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted_tracks);
  g_clear_object (&self->track_rows);
  g_clear_object (&self->list);
  g_clear_object (&self->file);
  g_clear_object (&self->session);
  g_clear_pointer (&self->types, g_array_unref);
  g_clear_pointer (&self->span_names, g_ptr_array_unref);
  g_clear_pointer (&self->summary, g_free);

  G_OBJECT_CLASS (cpel_anomalies_window_parent_class)->dispose (object);
}

static void
cpel_anomalies_window_constructed (GObject *object)
{
  CpelAnomaliesWindow *self = CPEL_ANOMALIES_WINDOW (object);

  G_OBJECT_CLASS (cpel_anomalies_window_parent_class)->constructed (object);

  g_assert (CPEL_IS_SESSION (self->session));
  g_signal_connect_object (self->session, "notify::file", G_CALLBACK (on_file_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::spans", G_CALLBACK (on_spans_changed), self,
                           G_CONNECT_SWAPPED);
  on_file_changed (self);
}

static void
cpel_anomalies_window_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  CpelAnomaliesWindow *self = CPEL_ANOMALIES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_anomalies_window_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  CpelAnomaliesWindow *self = CPEL_ANOMALIES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_anomalies_window_class_init (CpelAnomaliesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_anomalies_window_constructed;
  object_class->get_property = cpel_anomalies_window_get_property;
  object_class->set_property = cpel_anomalies_window_set_property;
  object_class->dispose = cpel_anomalies_window_dispose;

  /* The session whose file is searched and whose selection steps. */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, CPEL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-anomalies-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, code_row);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, metric_row);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, threshold_spin);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, state_stack);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, anomaly_view);
  gtk_widget_class_bind_template_child (widget_class, CpelAnomaliesWindow, track_view);
  gtk_widget_class_bind_template_callback (widget_class, on_anomaly_activate);

  gtk_widget_class_install_action (widget_class, "anomaly.find", NULL, action_find);
  gtk_widget_class_install_action (widget_class, "anomaly.cancel", NULL, action_cancel);
  gtk_widget_class_install_action (widget_class, "anomaly.next", NULL, action_step);
  gtk_widget_class_install_action (widget_class, "anomaly.previous", NULL, action_step);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F4, 0, "anomaly.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F4, GDK_SHIFT_MASK, "anomaly.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
append_column (GtkColumnView *view,
               const char    *title,
               guint          cell,
               gboolean       numeric,
               gboolean       expand,
               gboolean       sortable)
{
  GtkColumnViewColumn *column = cpel_table_column_new (title, cell, numeric, expand, sortable);

  gtk_column_view_append_column (view, column);
  g_object_unref (column);
}

static void
cpel_anomalies_window_init (CpelAnomaliesWindow *self)
{
  GtkNoSelection *no_selection;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->types = g_array_new (FALSE, FALSE, sizeof (guint));
  self->span_names = g_ptr_array_new ();
  self->current = -1;
  self->thread_events = CPEL_ANOMALIES_WINDOW_THREAD_EVENTS;

  /* Anomalies in time order (a lazily built list: not sortable). */
  append_column (self->anomaly_view, _("Time"), CPEL_ANOMALY_CELL_TIME, TRUE, FALSE, FALSE);
  append_column (self->anomaly_view, _("Track"), CPEL_ANOMALY_CELL_TRACK, FALSE, TRUE, FALSE);
  append_column (self->anomaly_view, _("Value"), CPEL_ANOMALY_CELL_VALUE, TRUE, FALSE, FALSE);
  /* TRANSLATORS: column: the z-score, distance from the mean in σ */
  append_column (self->anomaly_view, _("z"), CPEL_ANOMALY_CELL_Z, TRUE, FALSE, FALSE);
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->anomaly_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (on_selected), self);

  append_column (self->track_view, _("Track"), TRACK_CELL_LABEL, FALSE, TRUE, TRUE);
  /* TRANSLATORS: column: number of values in the track's series */
  append_column (self->track_view, _("Values"), TRACK_CELL_N, TRUE, FALSE, TRUE);
  append_column (self->track_view, _("Mean"), TRACK_CELL_MEAN, TRUE, FALSE, TRUE);
  /* TRANSLATORS: column: standard deviation */
  append_column (self->track_view, _("σ"), TRACK_CELL_SIGMA, TRUE, FALSE, TRUE);
  append_column (self->track_view, _("Anomalies"), TRACK_CELL_ANOMALIES, TRUE, FALSE, TRUE);
  self->track_rows = g_list_store_new (CPEL_TYPE_TABLE_ROW);
  self->sorted_tracks = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->track_rows)),
                                                 g_object_ref (gtk_column_view_get_sorter (self->track_view)));
  no_selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->sorted_tracks)));
  gtk_column_view_set_model (self->track_view, GTK_SELECTION_MODEL (no_selection));
  g_object_unref (no_selection);

  g_signal_connect_swapped (self->code_row, "notify::selected", G_CALLBACK (on_code_changed), self);
  g_signal_connect_swapped (self->metric_row, "notify::selected", G_CALLBACK (on_metric_changed),
                            self);

  /* Enter in the threshold runs the search (GTK 4.8: the spin button's
   * text has the "activate" signal). */
  g_signal_connect_swapped (gtk_editable_get_delegate (GTK_EDITABLE (self->threshold_spin)), "activate",
                            G_CALLBACK (cpel_anomalies_window_run), self);
  set_busy (self, FALSE);
}

CpelAnomaliesWindow *
cpel_anomalies_window_new (CpelSession *session,
                           GtkWindow   *parent)
{
  g_return_val_if_fail (CPEL_IS_SESSION (session), NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  CpelAnomaliesWindow *self = g_object_new (CPEL_TYPE_ANOMALIES_WINDOW,
                                            "transient-for", parent,
                                            "session", session,
                                            NULL);

  cpel_close_with_parent (GTK_WINDOW (self));
  return self;
}

CpelSession *
cpel_anomalies_window_get_session (CpelAnomaliesWindow *self)
{
  g_return_val_if_fail (CPEL_IS_ANOMALIES_WINDOW (self), NULL);
  return self->session;
}
