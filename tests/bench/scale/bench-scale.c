/* SPDX-License-Identifier: Apache-2.0 */
/* bench-scale.c — one capture through core and render, as the viewer uses
 * them: open + index, first frame, frames at five zoom levels, searches,
 * and the process's peak memory.
 *
 * usage: bench-scale FILE [FRAMES [PARTS]]
 *   FRAMES  frames per zoom level (default 60)
 *   PARTS   what to run after the first frame, comma-separated: zoom, redraw,
 *           sweep, search (default all of them); span=NS pans at one zoom
 *           (for profiling); none: open and first frame only
 *
 * Prints key=value lines (parsed by run-scale.sh):
 *   events, tracks, open_s, overview_s, first_frame_s, open_to_first_frame_s
 *   rss_base_bytes         VmRSS before opening (libraries, fonts, warm-up)
 *   hwm_open_bytes         VmHWM after open + first frame (the whole process)
 *   hwm_frames_bytes       VmHWM after all frames
 *   lod_bytes              level-of-detail summaries built by then
 *   hwm_search_bytes       VmHWM after the searches (results of each freed
 *                          before the next)
 *   zoom_<level>_{p50,p95,max}_ms  for level full, 1e-1, 1e-3, 1e-5, 1us
 *   zoom_<level>_cpu_{mean,p95,max}_ms  the thread's CPU time per frame
 *   redraw_{p50,p95,max}_ms         frames at one zoom (cursor moves)
 *   search_<mode>_s, search_<mode>_cpu_s (all threads), search_<mode>_matches
 *                          for text, text2, regex, code
 *
 * Frames are drawn offscreen through cpel_render_view onto a 1920×1080
 * ARGB32 image at scale 1.  Each frame of a level pans to a new position
 * (evenly spaced across the capture) and scrolls to another set of rows,
 * so nothing is reused from the previous frame (the worst case for the
 * renderer's between-frame caches); "full" pans by a nanosecond per frame
 * to defeat the density cache.  "redraw" repeats one position with a
 * moving cursor: what the cache is for.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "cpel-loader.h"
#include "cpel-lod.h"
#include "cpel-render.h"

#define WIDTH  1920
#define HEIGHT 1080
#define OVERVIEW_HEIGHT 48

static guint64
status_kb (const char *key)
{
  g_autofree char *text = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return 0;
  p = strstr (text, key);
  return p != NULL ? g_ascii_strtoull (p + strlen (key), NULL, 10) : 0;
}

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* CPU time of this thread spent drawing each frame (ms) since the last
 * print_stats: unlike the wall times it does not grow when other processes
 * share the cores. */
static GArray *cpu_frames;

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted v[0..n). */
static double
percentile (const double *v, guint n, double p)
{
  guint k;

  if (n == 0)
    return 0;
  k = (guint) MAX (0.0, ceil (p * n) - 1);
  return v[MIN (k, n - 1)];
}

static void
print_stats (const char *name, GArray *ms)
{
  double *v = (double *) ms->data;

  {
    double *c = (double *) (gpointer) cpu_frames->data, sum = 0;

    for (guint i = 0; i < cpu_frames->len; i++)
      sum += c[i];
    g_array_sort (cpu_frames, compare_double);
    printf ("%s_cpu_mean_ms=%.3f\n", name, cpu_frames->len ? sum / cpu_frames->len : 0.0);
    printf ("%s_cpu_p95_ms=%.3f\n", name, percentile (c, cpu_frames->len, 0.95));
    printf ("%s_cpu_max_ms=%.3f\n", name, cpu_frames->len ? c[cpu_frames->len - 1] : 0.0);
    g_array_set_size (cpu_frames, 0);
  }

  g_array_sort (ms, compare_double);
  printf ("%s_p50_ms=%.3f\n", name, percentile (v, ms->len, 0.50));
  printf ("%s_p95_ms=%.3f\n", name, percentile (v, ms->len, 0.95));
  printf ("%s_max_ms=%.3f\n", name, ms->len ? v[ms->len - 1] : 0.0);
}

static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}


static double
draw_frame (cairo_t *cr, const CpelView *view)
{
  double t0 = now_s (), c0 = cpu_s ();

  cpel_render_view (cr, WIDTH, HEIGHT, view);
  cairo_surface_flush (cairo_get_target (cr));
  {
    double c = (cpu_s () - c0) * 1000;
    g_array_append_val (cpu_frames, c);
  }
  return (now_s () - t0) * 1000;
}

/* Rows scrolled to for frame k: a different screenful each frame. */
static double
scroll_for (const CpelView *view, guint k)
{
  guint n_rows = cpel_view_get_n_rows (view);
  guint visible = (guint) ((HEIGHT - view->ruler_height) / view->row_height) + 1;
  guint range = n_rows > visible ? n_rows - visible : 0;

  if (range == 0)
    return 0;
  return (double) ((guint64) k * 7919u % (range + 1)) * view->row_height;
}

static void
bench_zoom (cairo_t *cr, CpelView *view, const char *name, gint64 span, guint frames)
{
  g_autoptr(GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));
  gint64 d = cpel_file_get_duration (view->file) + 1;
  CpelView v = *view;

  span = CLAMP (span, 1, d);
  for (guint k = 0; k < frames; k++)
    {
      double t;

      if (span >= d)
        v.t0 = -(gint64) k;          /* the whole capture, never the same twice */
      else
        v.t0 = (gint64) ((double) (d - span) * k / MAX (frames - 1, 1));
      v.t1 = v.t0 + span;
      v.scroll_y = scroll_for (view, k);
      t = draw_frame (cr, &v);
      g_array_append_val (ms, t);
    }
  print_stats (name, ms);
}

/* Every zoom from the whole capture down to ~1 µs by halves, a few panned
 * frames each: the worst level shows (e.g. rows just below the density
 * threshold, drawn tick by tick). */
static void
bench_sweep (cairo_t *cr, CpelView *view, guint frames_per_level)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (double));
  gint64 d = cpel_file_get_duration (view->file) + 1;
  double worst_p95 = 0;
  gint64 worst_span = d;
  guint level = 0;
  double worst_cpu_p95 = 0;
  CpelView v = *view;

  for (gint64 span = d; span >= 1000; span /= 2, level++)
    {
      g_autoptr(GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));
      double p95;

      for (guint k = 0; k < frames_per_level; k++)
        {
          double t;

          v.t0 = span >= d ? -(gint64) k
                           : (gint64) ((double) (d - span) * (k + 0.5) / frames_per_level);
          v.t1 = v.t0 + span;
          v.scroll_y = scroll_for (view, k + level * frames_per_level);
          t = draw_frame (cr, &v);
          g_array_append_val (ms, t);
          g_array_append_val (all, t);
        }
      g_array_sort (ms, compare_double);
      p95 = percentile ((double *) ms->data, ms->len, 0.95);
      {
        /* This level's frames are the last ones in cpu_frames. */
        g_autoptr(GArray) c = g_array_new (FALSE, FALSE, sizeof (double));
        double cpu_p95, sum = 0;

        g_array_append_vals (c, &g_array_index (cpu_frames, double, cpu_frames->len - frames_per_level),
                             frames_per_level);
        for (guint i = 0; i < c->len; i++)
          sum += g_array_index (c, double, i);
        g_array_sort (c, compare_double);
        cpu_p95 = percentile ((double *) (gpointer) c->data, c->len, 0.95);
        worst_cpu_p95 = MAX (worst_cpu_p95, cpu_p95);
        printf ("sweep_level_%02u span_ns=%" G_GINT64_FORMAT " p95_ms=%.3f cpu_mean_ms=%.3f cpu_p95_ms=%.3f\n",
                level, span, p95, sum / frames_per_level, cpu_p95);
      }
      if (p95 > worst_p95)
        {
          worst_p95 = p95;
          worst_span = span;
        }
    }
  print_stats ("sweep", all);
  printf ("sweep_levels=%u\n", level);
  printf ("sweep_worst_span_ns=%" G_GINT64_FORMAT "\n", worst_span);
  printf ("sweep_worst_p95_ms=%.3f\n", worst_p95);
  printf ("sweep_worst_cpu_p95_ms=%.3f\n", worst_cpu_p95);
}

static void
bench_redraw (cairo_t *cr, CpelView *view, guint frames)
{
  g_autoptr(GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));
  CpelView v = *view;

  v.t0 = 0;
  v.t1 = cpel_file_get_duration (view->file) / 1000 + 1;
  draw_frame (cr, &v);
  g_array_set_size (cpu_frames, 0);
  v.has_cursor = TRUE;
  for (guint k = 0; k < frames; k++)
    {
      double t;

      v.cursor_t = v.t0 + (v.t1 - v.t0) * k / MAX (frames, 1);
      t = draw_frame (cr, &v);
      g_array_append_val (ms, t);
    }
  print_stats ("redraw", ms);
}

/* CPU time of the whole process (all threads), s. */
static double
process_cpu_s (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static void
bench_search (CpelFile *file, const char *name, CpelSearchMode mode, const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelQuery) query = cpel_query_new (file, mode, text, FALSE, &error);
  g_autoptr(CpelSearchResult) result = NULL;
  double t0, c0;

  if (query == NULL)
    {
      fprintf (stderr, "search %s: %s\n", text, error->message);
      return;
    }
  c0 = process_cpu_s ();
  t0 = now_s ();
  result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
  if (result == NULL)
    {
      fprintf (stderr, "search %s: %s\n", text, error->message);
      return;
    }
  printf ("search_%s_s=%.3f\n", name, now_s () - t0);
  printf ("search_%s_cpu_s=%.3f\n", name, process_cpu_s () - c0);
  printf ("search_%s_matches=%" G_GUINT64_FORMAT "\n", name, cpel_search_result_get_n (result));
}

/* Load a one-event file and draw it: libraries, fonts and allocator arenas
 * are set up here, not charged to the capture. */
static void
warm_up (cairo_t *cr)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) file = NULL;
  CpelPalette palette;
  CpelView view;
  guint t;

  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "warm-up", "%d");
  cpel_writer_begin_events (w, t, 1000000000, 2);
  cpel_writer_add_event (w, 1, 1, 1, 1);
  cpel_writer_add_event (w, 2, 1, 1, 2);
  if (!cpel_writer_finish (w, &error))
    return;
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  if (file == NULL)
    return;
  cpel_palette_init_light (&palette);
  cpel_view_init (&view, file, &palette);
  cpel_render_view (cr, WIDTH, HEIGHT, &view);
  cpel_render_overview (cr, WIDTH, OVERVIEW_HEIGHT, &view);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelOverview) overview = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  CpelPalette palette;
  CpelView view;
  guint frames = 60;
  g_auto(GStrv) parts = NULL;
  guint64 n_events;
  gint64 d;
  double t0, t_open, t_overview, t_frame, c0, c_open;

  if (argc < 2 || argc > 4)
    {
      fprintf (stderr, "usage: %s FILE [FRAMES [PARTS]]\n", argv[0]);
      return 2;
    }
  if (argc >= 3)
    frames = (guint) CLAMP (atoi (argv[2]), 1, 100000);
  if (argc >= 4)
    parts = g_strsplit (argv[3], ",", -1);

  cpu_frames = g_array_new (FALSE, FALSE, sizeof (double));
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cr = cairo_create (surface);
  warm_up (cr);
  {
    double load[3];
    if (getloadavg (load, 3) == 3)
      printf ("loadavg=%.2f\n", load[0]);
  }
  printf ("rss_base_bytes=%" G_GUINT64_FORMAT "\n", status_kb ("VmRSS:") * 1024);

  /* Open to first frame: load + index, the overview summary, the first
   * view and the overview strip, as the viewer shows them. */
  c0 = process_cpu_s ();
  t0 = now_s ();
  file = cpel_file_new_for_path (argv[1], NULL, NULL, NULL, NULL, &error);
  if (file == NULL)
    {
      fprintf (stderr, "%s: %s\n", argv[1], error->message);
      return 1;
    }
  t_open = now_s ();
  c_open = process_cpu_s ();
  overview = cpel_overview_new (file, 0, NULL, &error);
  t_overview = now_s ();
  cpel_palette_init_light (&palette);
  cpel_view_init (&view, file, &palette);
  view.overview = overview;
  cpel_render_view (cr, WIDTH, HEIGHT, &view);
  cpel_render_overview (cr, WIDTH, OVERVIEW_HEIGHT, &view);
  cairo_surface_flush (surface);
  t_frame = now_s ();

  n_events = cpel_file_get_n_events (file);
  d = cpel_file_get_duration (file) + 1;
  printf ("events=%" G_GUINT64_FORMAT "\n", n_events);
  printf ("tracks=%u\n", cpel_file_get_n_tracks (file));
  printf ("duration_ns=%" G_GINT64_FORMAT "\n", d - 1);
  printf ("open_s=%.3f\n", t_open - t0);
  printf ("open_cpu_s=%.3f\n", c_open - c0);
  printf ("overview_s=%.3f\n", t_overview - t_open);
  printf ("first_frame_s=%.3f\n", t_frame - t_overview);
  printf ("open_to_first_frame_s=%.3f\n", t_frame - t0);
  printf ("hwm_open_bytes=%" G_GUINT64_FORMAT "\n", status_kb ("VmHWM:") * 1024);
  printf ("rss_file_open_bytes=%" G_GUINT64_FORMAT "\n", status_kb ("RssFile:") * 1024);
  fflush (stdout);

  if (parts == NULL || g_strv_contains ((const char * const *) parts, "zoom"))
    {
      bench_zoom (cr, &view, "zoom_full", d, frames);
      bench_zoom (cr, &view, "zoom_1e-1", d / 10, frames);
      bench_zoom (cr, &view, "zoom_1e-3", d / 1000, frames);
      bench_zoom (cr, &view, "zoom_1e-5", d / 100000, frames);
      bench_zoom (cr, &view, "zoom_1us", 1000, frames);
    }
  for (guint i = 0; parts != NULL && parts[i] != NULL; i++)
    if (g_str_has_prefix (parts[i], "span="))
      bench_zoom (cr, &view, "span", g_ascii_strtoll (parts[i] + 5, NULL, 10), frames);
  if (parts == NULL || g_strv_contains ((const char * const *) parts, "redraw"))
    bench_redraw (cr, &view, frames);
  if (parts == NULL || g_strv_contains ((const char * const *) parts, "sweep"))
    bench_sweep (cr, &view, 8);
  printf ("hwm_frames_bytes=%" G_GUINT64_FORMAT "\n", status_kb ("VmHWM:") * 1024);
  printf ("lod_bytes=%" G_GSIZE_FORMAT "\n", cpel_lod_get_size (cpel_lod_get_for_file (file)));
  fflush (stdout);

  if (parts == NULL || g_strv_contains ((const char * const *) parts, "search"))
    {
      bench_search (file, "text", CPEL_SEARCH_TEXT, "ip4-lookup");
      bench_search (file, "text2", CPEL_SEARCH_TEXT, "0xdead");
      bench_search (file, "regex", CPEL_SEARCH_REGEX, "ip[46]-(lookup|input)");
      bench_search (file, "code", CPEL_SEARCH_CODE, "rx-burst");
      printf ("hwm_search_bytes=%" G_GUINT64_FORMAT "\n", status_kb ("VmHWM:") * 1024);
      printf ("rss_file_search_bytes=%" G_GUINT64_FORMAT "\n", status_kb ("RssFile:") * 1024);
    }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
