/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-benchmark.c — `cpelview --benchmark FILE`
 *
 * Opens FILE in a window, waits for the first frame, then replays a fixed
 * script, one frame per step: fit; 20 zoom-in steps at the centre; pan
 * across the capture at that depth; zoom out step by step to the whole
 * capture; a search for the most frequent event type (the frame that first
 * shows its matches is measured as "search-shown"); 10 × next match.
 * Each step's time is taken from the window's frame clock: `latency` runs
 * from the change to the end of the frame that shows it ("after-paint"),
 * `paint` from the timeline's snapshot to that end (snapshot + rendering),
 * `snapshot` is the timeline's own drawing call.  JSON goes to stdout.
 *
 * `cpelview --benchmark A --compare B`: A and B read at once (as
 * `cpelview --compare A B` does), then the same fit, zooms, pan and zoom
 * out on the compare view (both panes under one ruler; `snapshot` is
 * cpel_render_compare); no search steps.
 */
#include "cpel-benchmark.h"

#ifdef G_OS_UNIX
#include <sys/resource.h>
#endif

#include "cpel-application.h"
#include "cpel-async.h"
#include "cpel-compare-pane.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define ZOOM_STEPS 20
#define PAN_STEPS  16
#define SEARCH_STEPS 10

typedef enum
{
  STEP_FIT,
  STEP_ZOOM_IN,
  STEP_PAN,
  STEP_ZOOM_OUT,
  STEP_SEARCH_SHOWN,
  STEP_SEARCH_NEXT,
} StepKind;

static const char *step_names[] = {
  [STEP_FIT] = "fit",
  [STEP_ZOOM_IN] = "zoom-in",
  [STEP_PAN] = "pan",
  [STEP_ZOOM_OUT] = "zoom-out",
  [STEP_SEARCH_SHOWN] = "search-shown",
  [STEP_SEARCH_NEXT] = "search-next",
};

typedef struct
{
  StepKind kind;
  double   latency_ms;
  double   paint_ms;
  double   snapshot_ms;
  double   layout_ms;
  double   render_ms;
  gboolean storing;     /* the index cache was being written */
} Frame;

typedef struct
{
  CpelWindow    *window;
  GFile         *file;
  GFile         *compare_file;   /* B, or NULL: the single view */
  gint64         start_us;
  gint64         open_us;
  gint64         loaded_us;
  gint64         first_frame_us;
  gint64         hwm_first_frame_kb;
  gint64         hwm_before_search_kb;
  gint64         majflt_first_frame;   /* major page faults so far (-1: unknown) */
  gint64         majflt_before_search;
  gint64         search_start_us;
  gint64         search_end_us;
  gboolean       search_storing;   /* the index cache was written during the search */

  GdkFrameClock *clock;
  gulong         after_paint_id;
  gulong         layout_id;
  gulong         paint_id;
  gulong         before_paint_id;
  gint64         frame_start_us;   /* monotonic: GDK's frame time is smoothed
                                    * and can run ahead of the real clock */
  gint64         layout_end_us;
  gint64         paint_end_us;

  /* The step being measured. */
  gboolean       waiting;
  gboolean       first_frame;
  StepKind       kind;
  gint64         step_start_us;
  guint64        frames_before;
  GArray        *frames;

  /* Script position */
  guint          phase;
  guint          index;
  gint64         pan_span;
  gint64         fit_t0;          /* the compare view's fitted range */
  gint64         fit_t1;
} Bench;

static void next_step (Bench *bench);

/* Major page faults of the process so far (pages read from the disk),
 * or -1 where unknown. */
static gint64
major_faults (void)
{
#ifdef G_OS_UNIX
  struct rusage usage;

  if (getrusage (RUSAGE_SELF, &usage) == 0)
    return usage.ru_majflt;
#endif
  return -1;
}

/* The process's peak resident set so far (VmHWM), in KiB; -1 where
 * /proc does not tell. */
static gint64
peak_rss_kb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, "VmHWM:");
  return line != NULL ? g_ascii_strtoll (line + 6, NULL, 10) : -1;
}

static CpelTimeline *
timeline (Bench *bench)
{
  return cpel_window_get_timeline (bench->window);
}

static CpelComparePane *
compare_pane (Bench *bench)
{
  return CPEL_COMPARE_PANE (cpel_window_get_compare_pane (bench->window));
}

/* The widget measured: the timeline, or the compare view. */
static GtkWidget *
measured_widget (Bench *bench)
{
  if (bench->compare_file != NULL)
    return cpel_window_get_compare_pane (bench->window);
  return GTK_WIDGET (timeline (bench));
}

static guint64
n_frames (Bench *bench)
{
  if (bench->compare_file != NULL)
    return cpel_window_get_compare_pane (bench->window) != NULL
           ? cpel_compare_pane_get_n_frames (compare_pane (bench)) : 0;
  return cpel_timeline_get_n_frames (timeline (bench));
}

static gint64
last_frame_us (Bench *bench)
{
  if (bench->compare_file != NULL)
    return cpel_compare_pane_get_last_frame_us (compare_pane (bench));
  return cpel_timeline_get_last_frame_us (timeline (bench));
}

static double
ms (gint64 us)
{
  return us / 1000.0;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
percentile (GArray *values,
            double  p)
{
  guint i;

  if (values->len == 0)
    return 0;
  i = (guint) ceil (p * values->len) - 1;
  return g_array_index (values, double, MIN (i, values->len - 1));
}

typedef struct
{
  GString      *json;
  GApplication *app;
  gint64        since_us;
} Ending;

static void
on_stores_done (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  Ending *ending = data;

  cpel_index_stores_wait_finish (result, NULL);
  g_string_append_printf (ending->json, "  \"cache_wait_ms\": %.3f\n}\n",
                          ms (g_get_monotonic_time () - ending->since_us));
  g_print ("%s", ending->json->str);
  cpel_application_quit (CPEL_APPLICATION (ending->app));
  g_string_free (ending->json, TRUE);
  g_object_unref (ending->app);
  g_free (ending);
}

static void
finish (Bench *bench)
{
  CpelFile *file = cpel_window_get_file (bench->window);
  CpelSearchResult *result = cpel_search_bar_get_result (cpel_window_get_search_bar (bench->window));
  g_autoptr(GString) json = g_string_new ("{\n");
  g_autoptr(GArray) latency = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) paint = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) paint_storing = g_array_new (FALSE, FALSE, sizeof (double));

  /* no search step (compare mode): all of it came before one */
  if (bench->hwm_before_search_kb == 0)
    {
      bench->hwm_before_search_kb = peak_rss_kb ();
      bench->majflt_before_search = major_faults ();
    }
  g_autofree char *path = g_file_get_path (bench->file);
  g_autofree char *escaped = g_strescape (path != NULL ? path : "", NULL);

  g_string_append_printf (json, "  \"mode\": \"%s\",\n", bench->compare_file != NULL ? "compare" : "single");
  g_string_append_printf (json, "  \"file\": \"%s\",\n", escaped);
  g_string_append_printf (json, "  \"events\": %" G_GUINT64_FORMAT ",\n", cpel_file_get_n_events (file));
  g_string_append_printf (json, "  \"tracks\": %u,\n", cpel_file_get_n_tracks (file));
  if (bench->compare_file != NULL)
    {
      CpelFile *b = cpel_compare_pane_get_file_b (compare_pane (bench));
      g_autofree char *path_b = g_file_get_path (bench->compare_file);
      g_autofree char *escaped_b = g_strescape (path_b != NULL ? path_b : "", NULL);

      g_string_append_printf (json, "  \"file_b\": \"%s\",\n", escaped_b);
      g_string_append_printf (json, "  \"events_b\": %" G_GUINT64_FORMAT ",\n", cpel_file_get_n_events (b));
      g_string_append_printf (json, "  \"tracks_b\": %u,\n", cpel_file_get_n_tracks (b));
    }
  g_string_append_printf (json, "  \"start_to_window_ms\": %.3f,\n", ms (bench->open_us - bench->start_us));
  g_string_append_printf (json, "  \"load_ms\": %.3f,\n", ms (bench->loaded_us - bench->open_us));
  g_string_append_printf (json, "  \"start_to_first_frame_ms\": %.3f,\n",
                          ms (bench->first_frame_us - bench->start_us));
  g_string_append_printf (json, "  \"peak_rss_first_frame_kb\": %" G_GINT64_FORMAT ",\n",
                          bench->hwm_first_frame_kb);
  g_string_append_printf (json, "  \"peak_rss_before_search_kb\": %" G_GINT64_FORMAT ",\n",
                          bench->hwm_before_search_kb);
  g_string_append_printf (json, "  \"major_faults_view_steps\": %" G_GINT64_FORMAT ",\n",
                          bench->majflt_first_frame >= 0 && bench->majflt_before_search >= 0
                          ? bench->majflt_before_search - bench->majflt_first_frame : -1);
  g_string_append_printf (json, "  \"peak_rss_kb\": %" G_GINT64_FORMAT ",\n", peak_rss_kb ());
  g_string_append_printf (json, "  \"search_ms\": %.3f,\n", ms (bench->search_end_us - bench->search_start_us));
  g_string_append_printf (json, "  \"search_during_cache_write\": %s,\n",
                          bench->search_storing ? "true" : "false");
  g_string_append_printf (json, "  \"search_matches\": %" G_GUINT64_FORMAT ",\n",
                          result != NULL ? cpel_search_result_get_n (result) : 0);
  g_string_append (json, "  \"frames\": [\n");
  for (guint i = 0; i < bench->frames->len; i++)
    {
      Frame *f = &g_array_index (bench->frames, Frame, i);

      g_string_append_printf (json,
                              "    {\"step\": \"%s\", \"latency_ms\": %.3f, \"paint_ms\": %.3f, \"layout_ms\": %.3f, "
                              "\"render_ms\": %.3f, \"snapshot_ms\": %.3f, \"storing\": %s}%s\n",
                              step_names[f->kind], f->latency_ms, f->paint_ms, f->layout_ms,
                              f->render_ms, f->snapshot_ms, f->storing ? "true" : "false",
                              i + 1 < bench->frames->len ? "," : "");
      g_array_append_val (latency, f->latency_ms);
      g_array_append_val (paint, f->paint_ms);
      if (f->storing)
        g_array_append_val (paint_storing, f->paint_ms);
    }
  g_string_append (json, "  ],\n");
  g_array_sort (latency, compare_double);
  g_array_sort (paint, compare_double);
  g_array_sort (paint_storing, compare_double);
  g_string_append_printf (json,
                          "  \"summary\": {\"frames\": %u, \"latency_ms_median\": %.3f, \"latency_ms_p95\": %.3f, "
                          "\"latency_ms_max\": %.3f, \"paint_ms_median\": %.3f, \"paint_ms_p95\": %.3f, "
                          "\"paint_ms_max\": %.3f, \"frames_during_cache_write\": %u, "
                          "\"paint_ms_p95_during_cache_write\": %.3f, "
                          "\"paint_ms_max_during_cache_write\": %.3f},\n",
                          bench->frames->len, percentile (latency, 0.5), percentile (latency, 0.95),
                          percentile (latency, 1.0), percentile (paint, 0.5), percentile (paint, 0.95),
                          percentile (paint, 1.0), paint_storing->len,
                          paint_storing->len > 0 ? percentile (paint_storing, 0.95) : 0.0,
                          paint_storing->len > 0 ? percentile (paint_storing, 1.0) : 0.0);

  g_signal_handler_disconnect (bench->clock, bench->after_paint_id);
  g_signal_handler_disconnect (bench->clock, bench->layout_id);
  g_signal_handler_disconnect (bench->clock, bench->paint_id);
  g_signal_handler_disconnect (bench->clock, bench->before_paint_id);
  g_object_unref (bench->clock);
  g_array_unref (bench->frames);
  g_object_unref (bench->file);
  g_clear_object (&bench->compare_file);
  {
    GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (bench->window)));

    Ending *ending = g_new0 (Ending, 1);

    g_object_unref (bench->window);
    g_free (bench);
    /* the index cache being written is completed first (the next run of the
     * same file starts warm), then the figures are printed, with the wait */
    if (cpel_index_stores_in_progress () > 0)
      {
        g_printerr ("benchmark: %s\n", "waiting for the index cache to be written");
        cpel_index_cache_hurry ();
      }
    ending->json = g_steal_pointer (&json);
    ending->app = g_object_ref (app);
    ending->since_us = g_get_monotonic_time ();
    cpel_index_stores_wait_async (NULL, on_stores_done, ending);
  }
}

static void
fail (Bench      *bench,
      const char *message)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (bench->window)));

  g_printerr ("benchmark: %s\n", message);
  g_application_quit (app);
}

static gboolean
step_idle (gpointer data)
{
  next_step (data);
  return G_SOURCE_REMOVE;
}

static void
on_before_paint (GdkFrameClock *clock,
                 Bench         *bench)
{
  bench->frame_start_us = g_get_monotonic_time ();
}

static void
on_layout (GdkFrameClock *clock,
           Bench         *bench)
{
  bench->layout_end_us = g_get_monotonic_time ();
}

static void
on_paint (GdkFrameClock *clock,
          Bench         *bench)
{
  bench->paint_end_us = g_get_monotonic_time ();
}

static void
on_after_paint (GdkFrameClock *clock,
                Bench         *bench)
{
  gint64 now = g_get_monotonic_time ();
  gint64 snapshot_us;

  if (!bench->waiting)
    return;
  if (bench->compare_file != NULL && !cpel_window_is_comparing (bench->window))
    {
      /* B could not be read: A stays alone (a message names B) */
      if (!bench->first_frame || cpel_window_is_loading_compare (bench->window))
        return;
      bench->waiting = FALSE;
      fail (bench, _("the second file could not be loaded"));
      return;
    }
  if (n_frames (bench) <= bench->frames_before)
    return;
  bench->waiting = FALSE;
  snapshot_us = last_frame_us (bench);

  if (bench->first_frame)
    {
      bench->first_frame = FALSE;
      bench->first_frame_us = now;
      bench->hwm_first_frame_kb = peak_rss_kb ();
      bench->majflt_first_frame = major_faults ();
    }
  else
    {
      Frame frame;
      /* every step timed from its own start on the monotonic clock */
      gint64 paint_start = bench->frame_start_us;

      /* The frame's own work: from the frame's start (or the change, when
       * it came during the frame, as the first fit does in the layout) to
       * its end; its phases clipped to the same start, so that layout +
       * render <= paint whatever the order of events. */
      gint64 begin = MAX (paint_start, bench->step_start_us);

      frame.kind = bench->kind;
      frame.latency_ms = ms (now - bench->step_start_us);
      frame.paint_ms = ms (now - begin);
      frame.snapshot_ms = ms (snapshot_us);
      /* layout (size requests and allocation), then paint (every widget's
       * snapshot and the renderer's drawing) */
      frame.layout_ms = ms (MAX (0, bench->layout_end_us - begin));
      frame.render_ms = ms (MAX (0, bench->paint_end_us - MAX (bench->layout_end_us, begin)));
      frame.storing = cpel_index_stores_in_progress () > 0;
      g_array_append_val (bench->frames, frame);
    }
  g_idle_add (step_idle, bench);
}

/* Start measuring a step whose change was just made. */
static void
measure (Bench    *bench,
         StepKind  kind,
         gint64    start_us)
{
  bench->kind = kind;
  bench->step_start_us = start_us;
  bench->frames_before = n_frames (bench);
  bench->waiting = TRUE;
  /* A step that changes nothing still costs a frame. */
  gtk_widget_queue_draw (measured_widget (bench));
}

static void
on_search_finished (CpelSearchBar *bar,
                    Bench         *bench)
{
  g_signal_handlers_disconnect_by_func (bar, on_search_finished, bench);
  bench->search_end_us = g_get_monotonic_time ();
  bench->search_storing |= cpel_index_stores_in_progress () > 0;
  /* The frame that first shows the matches (count, highlights, overview). */
  measure (bench, STEP_SEARCH_SHOWN, bench->search_end_us);
}

static void
start_search (Bench *bench)
{
  CpelFile *file = cpel_window_get_file (bench->window);
  CpelSearchBar *bar = cpel_window_get_search_bar (bench->window);
  guint best = 0;
  guint64 best_n = 0;
  g_autofree char *code = NULL;

  /* The most frequent event type: many matches to step through. */
  for (guint t = 0; t < cpel_file_get_n_types (file); t++)
    if (cpel_file_get_type_n_events (file, t) > best_n)
      {
        best_n = cpel_file_get_type_n_events (file, t);
        best = t;
      }
  code = g_strdup_printf ("%u", cpel_file_get_type_code (file, best));

  g_signal_connect (bar, "search-finished", G_CALLBACK (on_search_finished), bench);
  bench->search_start_us = g_get_monotonic_time ();
  bench->search_storing = cpel_index_stores_in_progress () > 0;
  cpel_search_bar_set_search_mode (bar, TRUE);
  cpel_search_bar_search (bar, CPEL_SEARCH_CODE, code, FALSE);
}

/* The compare view: fit; ZOOM_STEPS zoom-ins at the centre; a pan across
 * the fitted span at that depth; zoom out until the fitted span shows. */
static void
next_step_compare (Bench *bench)
{
  CpelComparePane *pane = compare_pane (bench);
  const CpelCompareView *view = cpel_compare_pane_get_view (pane);
  gint64 now = g_get_monotonic_time ();

  switch (bench->phase)
    {
    case 0:   /* fit */
      cpel_compare_pane_zoom_fit (pane);
      bench->fit_t0 = view->a.t0;
      bench->fit_t1 = view->a.t1;
      measure (bench, STEP_FIT, now);
      bench->phase++;
      return;

    case 1:   /* zoom in at the centre */
      if (bench->index < ZOOM_STEPS)
        {
          bench->index++;
          cpel_compare_pane_zoom (pane, 1.0 / CPEL_TIMELINE_ZOOM_STEP,
                                  view->a.t0 + (view->a.t1 - view->a.t0) / 2);
          measure (bench, STEP_ZOOM_IN, now);
          return;
        }
      bench->phase++;
      bench->index = 0;
      bench->pan_span = view->a.t1 - view->a.t0;
      G_GNUC_FALLTHROUGH;

    case 2:   /* pan across the fitted span at that depth */
      if (bench->index < PAN_STEPS)
        {
          gint64 span = bench->fit_t1 - bench->fit_t0;
          gint64 start = bench->fit_t0 + (gint64) ((double) span * bench->index / (PAN_STEPS - 1))
                         - bench->pan_span / 2;

          bench->index++;
          cpel_compare_pane_set_range (pane, start, start + bench->pan_span);
          measure (bench, STEP_PAN, now);
          return;
        }
      bench->phase++;
      bench->index = 0;
      G_GNUC_FALLTHROUGH;

    case 3:   /* zoom out to the fitted span (bounded: the pane may clamp) */
      if ((view->a.t0 > bench->fit_t0 || view->a.t1 < bench->fit_t1) && bench->index < 2 * ZOOM_STEPS)
        {
          bench->index++;
          cpel_compare_pane_zoom (pane, CPEL_TIMELINE_ZOOM_STEP,
                                  view->a.t0 + (view->a.t1 - view->a.t0) / 2);
          measure (bench, STEP_ZOOM_OUT, now);
          return;
        }
      finish (bench);
      return;

    default:
      g_assert_not_reached ();
    }
}

static void
next_step (Bench *bench)
{
  CpelTimeline *tl = timeline (bench);
  CpelRangeLimits limits;
  gint64 t0, t1, now = g_get_monotonic_time ();

  if (bench->compare_file != NULL)
    {
      next_step_compare (bench);
      return;
    }
  limits = *cpel_session_get_limits (cpel_timeline_get_session (tl));
  switch (bench->phase)
    {
    case 0:   /* fit */
      cpel_session_fit (cpel_timeline_get_session (tl));
      measure (bench, STEP_FIT, now);
      bench->phase++;
      return;

    case 1:   /* zoom in at the centre */
      if (bench->index < ZOOM_STEPS)
        {
          bench->index++;
          cpel_timeline_zoom (tl, CPEL_TIMELINE_ZOOM_STEP, -1);
          measure (bench, STEP_ZOOM_IN, now);
          return;
        }
      bench->phase++;
      bench->index = 0;
      cpel_timeline_get_range (tl, &t0, &t1);
      bench->pan_span = t1 - t0;
      G_GNUC_FALLTHROUGH;

    case 2:   /* pan across the capture at that depth */
      if (bench->index < PAN_STEPS)
        {
          gint64 capture = limits.hi - limits.lo;
          gint64 start = limits.lo + (gint64) ((double) capture * bench->index / (PAN_STEPS - 1))
                         - bench->pan_span / 2;

          bench->index++;
          cpel_timeline_set_range (tl, start, start + bench->pan_span, FALSE);
          measure (bench, STEP_PAN, now);
          return;
        }
      bench->phase++;
      bench->index = 0;
      G_GNUC_FALLTHROUGH;

    case 3:   /* zoom out to the whole capture */
      cpel_timeline_get_range (tl, &t0, &t1);
      if (t0 > limits.lo || t1 < limits.hi)
        {
          cpel_timeline_zoom (tl, 1.0 / CPEL_TIMELINE_ZOOM_STEP, -1);
          measure (bench, STEP_ZOOM_OUT, now);
          return;
        }
      bench->phase++;
      bench->hwm_before_search_kb = peak_rss_kb ();
      bench->majflt_before_search = major_faults ();
      start_search (bench);
      return;

    case 4:   /* step through matches */
      if (bench->index < SEARCH_STEPS)
        {
          bench->index++;
          cpel_search_bar_step (cpel_window_get_search_bar (bench->window), 1);
          measure (bench, STEP_SEARCH_NEXT, now);
          return;
        }
      finish (bench);
      return;

    default:
      g_assert_not_reached ();
    }
}

static void
on_file_loaded (CpelWindow *window,
                GParamSpec *pspec,
                Bench      *bench)
{
  if (cpel_window_get_file (window) == NULL)
    return;
  g_signal_handlers_disconnect_by_func (window, on_file_loaded, bench);
  bench->loaded_us = g_get_monotonic_time ();
  bench->first_frame = TRUE;
  /* compare: the first frame of the compare view (B may still be read) */
  bench->frames_before = bench->compare_file != NULL ? 0 : n_frames (bench);
  bench->waiting = TRUE;
}

static void
on_loading_changed (CpelWindow *window,
                    GParamSpec *pspec,
                    Bench      *bench)
{
  if (!cpel_window_is_loading (window) && cpel_window_get_file (window) == NULL)
    fail (bench, _("the file could not be loaded"));
}

void
cpel_benchmark_start (CpelWindow *window,
                      GFile      *file,
                      GFile      *compare,
                      gint64      start_us)
{
  Bench *bench;
  GdkFrameClock *clock;

  g_return_if_fail (CPEL_IS_WINDOW (window));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (compare == NULL || G_IS_FILE (compare));

  gtk_widget_realize (GTK_WIDGET (window));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_return_if_fail (clock != NULL);

  bench = g_new0 (Bench, 1);
  bench->window = g_object_ref (window);
  bench->file = g_object_ref (file);
  bench->compare_file = compare != NULL ? g_object_ref (compare) : NULL;
  bench->start_us = start_us;
  bench->open_us = g_get_monotonic_time ();
  bench->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  bench->clock = g_object_ref (clock);
  bench->after_paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), bench);
  /* Connected after the window's own handlers: these mark the phases' ends. */
  bench->layout_id = g_signal_connect (clock, "layout", G_CALLBACK (on_layout), bench);
  bench->paint_id = g_signal_connect (clock, "paint", G_CALLBACK (on_paint), bench);
  bench->before_paint_id = g_signal_connect (clock, "before-paint", G_CALLBACK (on_before_paint), bench);

  g_signal_connect (window, "notify::file", G_CALLBACK (on_file_loaded), bench);
  g_signal_connect (window, "notify::loading", G_CALLBACK (on_loading_changed), bench);
  cpel_window_open (window, file, 0);
  if (compare != NULL)
    cpel_window_compare_with (window, compare);
}
