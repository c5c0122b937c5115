/* SPDX-License-Identifier: Apache-2.0 */
/* bench-verify.c — the deferred check of an index cache (what the viewer
 * runs in a worker after its first frame): its wall time, best of RUNS.
 *
 * usage: bench-verify FILE CACHE_DIR [RUNS]
 * The first open builds the index and writes the cache into CACHE_DIR;
 * each run then opens FILE with the cache and cache_verify_later, and
 * times cpel_file_verify_index () alone (wall, and the CPU time of the
 * thread that runs it: less dependent on the machine's load).  Prints
 * key=value lines:
 *   events, tracks, verify_best_s, verify_runs_s, verify_cpu_best_s
 */
#include <stdio.h>
#include "cpel-loader.h"
#include <stdlib.h>
#include <time.h>

#include "cpel-core.h"

static double
thread_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  CpelLoadOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) runs_s = g_string_new (NULL);
  double best = G_MAXDOUBLE, cpu_best = G_MAXDOUBLE;
  guint runs = argc > 3 ? (guint) atoi (argv[3]) : 3;
  guint64 n_events = 0;
  guint n_tracks = 0;

  if (argc < 3)
    {
      fprintf (stderr, "usage: bench-verify FILE CACHE_DIR [RUNS]\n");
      return 2;
    }
  options.use_cache = TRUE;
  options.cache_dir = argv[2];
  options.cache_min_events = 1;
  {
    g_autoptr(CpelFile) file = cpel_file_new_for_path (argv[1], &options, NULL, NULL, NULL, &error);

    if (file == NULL)
      {
        fprintf (stderr, "bench-verify: %s\n", error->message);
        return 1;
      }
    n_events = cpel_file_get_n_events (file);
    n_tracks = cpel_file_get_n_tracks (file);
  }
  options.cache_verify_later = TRUE;
  for (guint r = 0; r < MAX (runs, 1); r++)
    {
      g_autoptr(CpelFile) file = NULL;
      gint64 t0;
      double s, c0;

      file = cpel_file_new_for_path (argv[1], &options, NULL, NULL, NULL, &error);
      if (file == NULL)
        {
          fprintf (stderr, "bench-verify: %s\n", error->message);
          return 1;
        }
      if (cpel_file_get_cache_load (file) != CPEL_INDEX_CACHE_USED
          || !cpel_file_index_is_unverified (file))
        {
          fprintf (stderr, "bench-verify: the cache was not used\n");
          return 1;
        }
      t0 = g_get_monotonic_time ();
      c0 = thread_cpu_s ();
      if (!cpel_file_verify_index (file, NULL))
        {
          fprintf (stderr, "bench-verify: the cache failed its check\n");
          return 1;
        }
      s = (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;
      cpu_best = MIN (cpu_best, thread_cpu_s () - c0);
      best = MIN (best, s);
      g_string_append_printf (runs_s, "%s%.3f", r ? "," : "", s);
    }
  printf ("events=%" G_GUINT64_FORMAT "\ntracks=%u\nverify_best_s=%.3f\nverify_runs_s=%s\n"
          "verify_cpu_best_s=%.3f\n", n_events, n_tracks, best, runs_s->str, cpu_best);
  return 0;
}
