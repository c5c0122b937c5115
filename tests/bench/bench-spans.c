/* SPDX-License-Identifier: Apache-2.0 */
/* bench-spans.c — deriving spans against building the index
 *
 * usage: bench-spans DIR [EVENTS] [TRACKS]
 * Writes DIR/bench-spans-EVENTS-TRACKS.cpel (generated, never committed;
 * kept for a next run of the same size): EVENTS (default 10^7) events in time order on
 * TRACKS (default 64) tracks, VPP dispatch tracing as c2cpel names it — per
 * track, rounds of 7 nodes, each `NODE-call:` then `NODE-return:`, one
 * return in 4096 dropped (an unfinished span, interrupted by the next call).  Then, best of 3 each:
 *   open + index (the file's index build)
 *   cpel_spans_derive () with the built-in rules (spans kept, 16 B each)
 *   cpel_span_summary_compute () on the file opened without its index
 *     (one merge; what `cpel spans` does on a sorted file)
 * then, with the index cache on (in DIR/bench-spans-cache, emptied first):
 * a derive that stores the spans (the store timed apart: it runs in the
 * background) and, best of 3, a warm re-open's derive that reads them back;
 * then 40 frames of the whole capture (1280 × 700, a cairo image surface,
 * each one shifted by a nanosecond as a pan), without and with the spans;
 * then the Statistics window's Spans page over the whole capture and over
 * its middle half (best of 3 each): the span summary from the spans kept
 * (cpel_span_summary_compute_from_spans ()) against deriving the range
 * again, the event statistics of the range, and both on two threads as
 * the window counts them (each page fills in when its own count ends),
 * with the summary's resident growth per span in the range, and frames
 * drawn at 60 Hz (a pan) while the two counts run as the viewer runs them
 * (threads of a lower priority, cpel_background_run ());
 * and prints wall and CPU times (best of 3), the ratio derive / index, spans, bytes per span
 * and the resident growth of derive and of the streamed summary.
 */
#include <stdio.h>
#include "cpel-loader.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-render.h"

static const char *nodes[] = {
  "dpdk-input", "ethernet-input", "ip4-input-no-checksum", "ip4-lookup",
  "ip4-rewrite", "GigabitEthernet0/8/0-output", "GigabitEthernet0/8/0-tx",
};

/* CPU time of the whole process (every thread), s: a figure that a loaded
 * machine does not stretch as it does the wall time. */
static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static guint64
status_kb (const char *key)
{
  g_autofree char *text = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return 0;
  p = strstr (text, key);
  return p ? g_ascii_strtoull (p + strlen (key), NULL, 10) : 0;
}

/* Resets VmHWM (the peak) to the current resident set (Linux >= 4.0). */
static gboolean
reset_peak (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  gboolean ok;

  if (f == NULL)
    return FALSE;
  ok = fputs ("5", f) >= 0;
  return fclose (f) == 0 && ok;
}

static guint64
rss_anon (void)
{
  g_autofree char *text = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return 0;
  p = strstr (text, "RssAnon:");
  return p ? g_ascii_strtoull (p + 8, NULL, 10) * 1024 : 0;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

#define N_FRAMES 40

static gboolean have_reset_peak;

/* Frames of the whole capture (p50 and p95, ms), with `spans` or none. */
static void
frames (CpelFile  *file,
        CpelSpans *spans,
        double    *p50,
        double    *p95)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1280, 700);
  double ms[N_FRAMES];
  CpelPalette palette;
  CpelView view;

  cpel_palette_init_light (&palette);
  cpel_view_init (&view, file, &palette);
  view.spans = spans;
  for (int i = 0; i < N_FRAMES; i++)
    {
      cairo_t *cr = cairo_create (surface);
      gint64 t0;

      view.t0 = i;
      view.t1 = cpel_file_get_duration (file) + 1 + i;
      t0 = g_get_monotonic_time ();
      cpel_render_view (cr, 1280, 700, &view);
      ms[i] = (g_get_monotonic_time () - t0) / 1e3;
      cairo_destroy (cr);
    }
  qsort (ms, N_FRAMES, sizeof (double), cmp_double);
  *p50 = ms[N_FRAMES / 2];
  *p95 = ms[N_FRAMES * 95 / 100 - 1];
  cairo_surface_destroy (surface);
}

/* The Statistics window's count of a range: the event statistics and the
 * span summary from the spans kept, on two threads. */
typedef struct
{
  CpelSpans              *spans;
  const CpelSpansOptions *options;
  CpelFile               *file;
  const CpelStatsOptions *stats_options;
  double                  s;
  gint                    done;
} SummaryJob;

/* A count's end, told to the drawing loop waiting for it (or for its next
 * frame's time). */
static GMutex done_lock;
static GCond  done_cond;

static void
count_done (SummaryJob *job)
{
  g_mutex_lock (&done_lock);
  g_atomic_int_set (&job->done, 1);
  g_cond_broadcast (&done_cond);
  g_mutex_unlock (&done_lock);
}

static gpointer
summary_thread (gpointer data)
{
  SummaryJob *job = data;
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  CpelSpanSummary *sum = cpel_span_summary_compute_from_spans (job->spans, job->options, FALSE,
                                                               NULL, &error);

  g_assert_no_error (error);
  job->s = (g_get_monotonic_time () - t0) / 1e6;
  cpel_span_summary_free (sum);
  count_done (job);
  return NULL;
}

static gpointer
stats_thread (gpointer data)
{
  SummaryJob *job = data;
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  CpelStats *stats = cpel_stats_compute (job->file, job->stats_options, NULL, &error);

  g_assert_no_error (error);
  job->s = (g_get_monotonic_time () - t0) / 1e6;
  cpel_stats_free (stats);
  count_done (job);
  return NULL;
}

static void
summary_task (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  summary_thread (data);
  g_task_return_boolean (task, TRUE);
}

static void
stats_task (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  stats_thread (data);
  g_task_return_boolean (task, TRUE);
}

/* Frames of the whole capture with its spans drawn on this thread while
 * the window's two counts run as the viewer runs them (cpel_background_run
 * (): threads of a lower priority), as its main thread draws meanwhile:
 * p50, p95 and the longest, ms. */
static void
frames_while_counting (CpelFile               *file,
                       CpelSpans              *spans,
                       const CpelSpansOptions *so,
                       const CpelStatsOptions *eo,
                       double                 *page_s,
                       double                 *spans_s,
                       double                 *p50,
                       double                 *p95,
                       double                 *max,
                       guint                  *n_frames)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1280, 700);
  g_autoptr(GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));
  SummaryJob a = { spans, so, NULL, NULL, 0, 0 }, b = { NULL, NULL, file, eo, 0, 0 };
  g_autoptr(GTask) ta = g_task_new (NULL, NULL, NULL, NULL);
  g_autoptr(GTask) tb = g_task_new (NULL, NULL, NULL, NULL);
  CpelPalette palette;
  CpelView view;
  gint64 start = g_get_monotonic_time ();

  cpel_palette_init_light (&palette);
  cpel_view_init (&view, file, &palette);
  view.spans = spans;
  g_task_set_task_data (ta, &a, NULL);
  g_task_set_task_data (tb, &b, NULL);
  cpel_background_run (ta, summary_task);
  cpel_background_run (tb, stats_task);
  for (guint i = 0; !g_atomic_int_get (&a.done) || !g_atomic_int_get (&b.done); i++)
    {
      cairo_t *cr = cairo_create (surface);
      gint64 t0 = g_get_monotonic_time (), next = start + (gint64) (i + 1) * 16667;
      double d;

      view.t0 = i;
      view.t1 = cpel_file_get_duration (file) + 1 + i;
      cpel_render_view (cr, 1280, 700, &view);
      d = (g_get_monotonic_time () - t0) / 1e3;
      g_array_append_val (ms, d);
      cairo_destroy (cr);
      /* a frame each 1/60 s, as a display asks for them while the user pans:
       * until then, wait for the counts' end */
      g_mutex_lock (&done_lock);
      while ((!g_atomic_int_get (&a.done) || !g_atomic_int_get (&b.done))
             && g_cond_wait_until (&done_cond, &done_lock, next))
        ;
      g_mutex_unlock (&done_lock);
    }
  *page_s = (g_get_monotonic_time () - start) / 1e6;
  *spans_s = a.s;
  g_array_sort (ms, cmp_double);
  *n_frames = ms->len;
  *p50 = ms->len ? g_array_index (ms, double, ms->len / 2) : 0;
  *p95 = ms->len ? g_array_index (ms, double, MIN (ms->len - 1, ms->len * 95 / 100)) : 0;
  *max = ms->len ? g_array_index (ms, double, ms->len - 1) : 0;
  cairo_surface_destroy (surface);
}

static void
spans_page (CpelFile   *file,
            CpelSpans  *spans,
            CpelSpanRules *rules,
            gint64      t0,
            gint64      t1,
            const char *what)
{
  CpelSpansOptions so = { t0, t1, NULL, 0 };
  CpelStatsOptions eo = { 0 };
  double best_replay = 1e9, best_derive = 1e9, best_stats = 1e9, best_page = 1e9;
  double best_spans_alone = 1e9;
  guint64 growth = 0, n_in = 0;

  eo.t0 = t0;
  eo.t1 = t1;
  for (int run = 0; run < 3; run++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelSpanSummary) sum = NULL;
      g_autoptr(CpelStats) stats = NULL;
      SummaryJob job = { spans, &so, NULL, NULL, 0, 0 };
      GThread *thread;
      guint64 a0, a1;
      gint64 c0;

      have_reset_peak = reset_peak ();
      a0 = status_kb ("VmRSS:") * 1024;
      c0 = g_get_monotonic_time ();
      sum = cpel_span_summary_compute_from_spans (spans, &so, FALSE, NULL, &error);
      g_assert_no_error (error);
      best_replay = MIN (best_replay, (g_get_monotonic_time () - c0) / 1e6);
      a1 = status_kb ("VmHWM:") * 1024;
      if (run == 0)
        {
          growth = a1 > a0 ? a1 - a0 : 0;
          for (guint i = 0; i < cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_SPANS); i++)
            {
              const CpelSpanRow *r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_SPANS, i);

              n_in += r->count + r->orphan_begins + r->orphan_ends;
            }
        }
      g_clear_pointer (&sum, cpel_span_summary_free);

      c0 = g_get_monotonic_time ();
      sum = cpel_span_summary_compute (file, rules, &so, FALSE, NULL, &error);
      g_assert_no_error (error);
      best_derive = MIN (best_derive, (g_get_monotonic_time () - c0) / 1e6);
      g_clear_pointer (&sum, cpel_span_summary_free);

      c0 = g_get_monotonic_time ();
      stats = cpel_stats_compute (file, &eo, NULL, &error);
      g_assert_no_error (error);
      best_stats = MIN (best_stats, (g_get_monotonic_time () - c0) / 1e6);
      g_clear_pointer (&stats, cpel_stats_free);

      c0 = g_get_monotonic_time ();
      thread = g_thread_new ("summary", summary_thread, &job);
      stats = cpel_stats_compute (file, &eo, NULL, &error);
      g_assert_no_error (error);
      g_thread_join (thread);
      best_page = MIN (best_page, (g_get_monotonic_time () - c0) / 1e6);
      best_spans_alone = MIN (best_spans_alone, job.s);
    }
  {
    double page_s, spans_s, p50, p95, max;
    guint n;

    frames_while_counting (file, spans, &so, &eo, &page_s, &spans_s, &p50, &p95, &max, &n);
    printf ("spans_page_%s_while_drawing: spans %.3f s, both counts %.3f s, %u frames of the "
            "whole capture with spans drawn meanwhile at 60 Hz p50=%.1f p95=%.1f "
            "max=%.1f ms\n", what, spans_s, page_s, n, p50, p95, max);
  }
  /* the Spans pages fill in when their own count ends (beside the event
   * statistics); the event pages when theirs does */
  printf ("spans_page_%s_s=%.3f (beside the event statistics; alone %.3f; derived again %.3f) "
          "event_pages_s=%.3f (alone %.3f) spans_in_range=%" G_GUINT64_FORMAT
          " summary_peak_growth=%.2f B/span%s\n", what, best_spans_alone, best_replay,
          best_derive, best_page, best_stats, n_in, n_in ? (double) growth / n_in : 0.0,
          !have_reset_peak ? " (no peak reset)"
          : growth == 0 ? " (memory the allocator kept from before: not measured)" : "");
}

static void
write_capture (const char *path,
               guint64     n_events,
               guint       n_tracks)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (path, FALSE, 0, &error);
  guint t;
  guint64 written = 0, tick = 0;
  guint32 rng = 12345;

  g_assert_no_error (error);
  cpel_writer_set_overwrite (w, TRUE);
  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_event_defs (w, t);
  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    {
      g_autofree char *c = g_strdup_printf ("%s-call:", nodes[i]);
      g_autofree char *r = g_strdup_printf ("%s-return:", nodes[i]);

      cpel_writer_add_event_def (w, 2 * i, c, "%d");
      cpel_writer_add_event_def (w, 2 * i + 1, r, "%d");
    }
  cpel_writer_begin_track_defs (w, t);
  for (guint k = 0; k < n_tracks; k++)
    {
      g_autofree char *label = g_strdup_printf ("vpp_wk_%u", k);

      cpel_writer_add_track_def (w, k, label);
    }
  cpel_writer_begin_events (w, t, 1000000000, (guint32) n_events);
  /* round-robin over tracks: each event on the next track, times rising */
  while (written < n_events)
    for (guint k = 0; k < n_tracks && written < n_events; k++)
      {
        static guint64 *step;
        guint64 s;
        guint node, ret;

        if (step == NULL)
          step = g_new0 (guint64, n_tracks);
        s = step[k]++;
        node = (guint) (s / 2) % G_N_ELEMENTS (nodes);
        ret = (guint) (s & 1);
        rng = rng * 1103515245 + 12345;
        tick += 1 + (rng >> 28);
        /* one return in 4096 dropped: an unfinished span, then an
         * interrupted one when the node is called again */
        if (ret && (rng >> 8) % 4096 == 0)
          continue;
        cpel_writer_add_event (w, tick, k, 2 * node + ret, (rng >> 20) & 255);
        written++;
      }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : ".";
  guint64 n_events = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10) : 10000000;
  guint n_tracks = argc > 3 ? (guint) g_ascii_strtoull (argv[3], NULL, 10) : 64;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  double best_open = 1e9, best_derive = 1e9, best_stream = 1e9;
  double cpu_open = 1e9, cpu_derive = 1e9, cpu_stream = 1e9;
  guint64 n_spans = 0, bytes = 0, derive_anon = 0, stream_anon = 0, rows = 0;
  gboolean have_peak = FALSE;

  if (n_events == 0 || n_events > G_MAXUINT32 || n_tracks == 0)
    return 2;
  name = g_strdup_printf ("bench-spans-%" G_GUINT64_FORMAT "-%u.cpel", n_events, n_tracks);
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      gint64 t0 = g_get_monotonic_time ();

      write_capture (path, n_events, n_tracks);
      printf ("generated %s: %" G_GUINT64_FORMAT " events, %u tracks in %.2f s\n", path,
              n_events, n_tracks, (g_get_monotonic_time () - t0) / 1e6);
    }

  for (int run = 0; run < 3; run++)
    {
      g_autoptr(GError) error = NULL;
      CpelLoadOptions lo = { 0 };
      g_autoptr(CpelFile) file = NULL;
      g_autoptr(CpelSpans) spans = NULL;
      g_autoptr(CpelSpanSummary) sum = NULL;
      gint64 t0, t1;
      guint64 a0, a1;
      double c0;

      /* streamed first: its memory is not what the indexed pass freed */
      lo.defer_index = TRUE;
      file = cpel_file_new_for_path (path, &lo, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (cpel_file_can_stream (file));
      have_peak = reset_peak ();
      a0 = status_kb ("VmRSS:") * 1024;
      c0 = cpu_s ();
      t0 = g_get_monotonic_time ();
      sum = cpel_span_summary_compute (file, rules, NULL, FALSE, NULL, &error);
      g_assert_no_error (error);
      t1 = g_get_monotonic_time ();
      cpu_stream = MIN (cpu_stream, cpu_s () - c0);
      a1 = status_kb ("VmHWM:") * 1024;
      g_assert_false (cpel_file_has_index (file));
      best_stream = MIN (best_stream, (t1 - t0) / 1e6);
      if (run == 0)
        stream_anon = a1 > a0 ? a1 - a0 : 0;
      rows = cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_SPANS);
      g_clear_pointer (&sum, cpel_span_summary_free);
      g_clear_object (&file);
      lo.defer_index = FALSE;

      c0 = cpu_s ();
      t0 = g_get_monotonic_time ();
      file = cpel_file_new_for_path (path, &lo, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      t1 = g_get_monotonic_time ();
      best_open = MIN (best_open, (t1 - t0) / 1e6);
      cpu_open = MIN (cpu_open, cpu_s () - c0);

      a0 = rss_anon ();
      c0 = cpu_s ();
      t0 = g_get_monotonic_time ();
      spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
      g_assert_no_error (error);
      t1 = g_get_monotonic_time ();
      cpu_derive = MIN (cpu_derive, cpu_s () - c0);
      a1 = rss_anon ();
      best_derive = MIN (best_derive, (t1 - t0) / 1e6);
      n_spans = cpel_spans_get_n_spans (spans);
      bytes = cpel_spans_get_bytes (spans);
      /* the first run's: later ones reuse what the allocator kept */
      if (run == 0)
        derive_anon = a1 > a0 ? a1 - a0 : 0;
      g_clear_pointer (&spans, cpel_spans_free);
    }

  /* the spans kept in the cache, read back by a warm re-open */
  {
    g_autofree char *cache_dir = g_build_filename (dir, "bench-spans-cache", NULL);
    CpelLoadOptions lo = { .use_cache = TRUE, .cache_dir = cache_dir, .cache_min_events = 1 };
    g_autoptr(GError) error = NULL;
    guint n_files = 0;
    guint64 cache_bytes = 0, index_bytes;
    double best_warm = 1e9, cpu_warm = 1e9, store_s;
    gint64 t0, t1;
    double c0;

    cpel_index_cache_clear (cache_dir, NULL, NULL, NULL);
    {
      g_autoptr(CpelFile) file = cpel_file_new_for_path (path, &lo, NULL, NULL, NULL, &error);
      g_autoptr(CpelSpans) spans = NULL;

      g_assert_no_error (error);
      /* the index cache written first, so that only the spans' store is timed */
      cpel_file_store_index (file, NULL);
      cpel_index_cache_get_usage (cache_dir, &n_files, &index_bytes, NULL);
      spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
      g_assert_no_error (error);
      t0 = g_get_monotonic_time ();
      cpel_spans_wait_stored ();
      t1 = g_get_monotonic_time ();
      store_s = (t1 - t0) / 1e6;
      cpel_index_cache_get_usage (cache_dir, &n_files, &cache_bytes, NULL);
    }
    for (int run = 0; run < 3; run++)
      {
        g_autoptr(CpelFile) file = cpel_file_new_for_path (path, &lo, NULL, NULL, NULL, &error);
        g_autoptr(CpelSpans) spans = NULL;

        g_assert_no_error (error);
        c0 = cpu_s ();
        t0 = g_get_monotonic_time ();
        spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
        t1 = g_get_monotonic_time ();
        g_assert_no_error (error);
        g_assert_cmpuint (cpel_spans_get_n_spans (spans), ==, n_spans);
        best_warm = MIN (best_warm, (t1 - t0) / 1e6);
        cpu_warm = MIN (cpu_warm, cpu_s () - c0);
        if (run == 2)
          {
            double p50, p95, s50, s95;

            /* the index checked first (a viewer does it after its first
             * frame), so that the frames run alone */
            cpel_file_verify_index (file, NULL);
            frames (file, NULL, &p50, &p95);
            frames (file, spans, &s50, &s95);
            printf ("frame_whole_capture_ms events p50=%.1f p95=%.1f with_spans p50=%.1f "
                    "p95=%.1f\n", p50, p95, s50, s95);
            spans_page (file, spans, rules, 0, cpel_file_get_duration (file) + 1, "whole");
            spans_page (file, spans, rules, cpel_file_get_duration (file) / 4,
                        cpel_file_get_duration (file) / 4 * 3, "half");
          }
      }
    printf ("store_after_derive_s=%.3f span_cache_bytes=%" G_GUINT64_FORMAT "\n", store_s,
            cache_bytes - index_bytes);
    printf ("warm_reopen_spans_best_s=%.3f cpu_s=%.3f (derive / warm: %.1fx wall)\n",
            best_warm, cpu_warm, best_derive / best_warm);
    cpel_index_cache_clear (cache_dir, NULL, NULL, NULL);
    g_rmdir (cache_dir);
  }

  printf ("events=%" G_GUINT64_FORMAT " tracks=%u\n", n_events, n_tracks);
  printf ("open_index_best_s=%.3f cpu_s=%.3f\n", best_open, cpu_open);
  printf ("derive_best_s=%.3f cpu_s=%.3f\n", best_derive, cpu_derive);
  printf ("derive_over_index=%.2f (wall) %.2f (cpu)\n", best_derive / best_open,
          cpu_derive / cpu_open);
  printf ("spans=%" G_GUINT64_FORMAT " span_bytes=%" G_GUINT64_FORMAT
          " bytes_per_span=%.2f\n", n_spans, bytes, n_spans ? (double) bytes / n_spans : 0.0);
  printf ("derive_rss_anon_growth_bytes=%" G_GUINT64_FORMAT " (%.2f B/span)\n",
          derive_anon, n_spans ? (double) derive_anon / n_spans : 0.0);
  printf ("stream_summary_best_s=%.3f cpu_s=%.3f rows=%" G_GUINT64_FORMAT "\n", best_stream,
          cpu_stream, rows);
  /* the peak includes the records' pages mapped while the merge reads them */
  printf ("stream_summary_peak_growth_bytes=%" G_GUINT64_FORMAT " (%.2f B/span)%s\n",
          stream_anon, n_spans ? (double) stream_anon / n_spans : 0.0,
          have_peak ? "" : " (no peak reset: resident growth after)");
  return 0;
}
