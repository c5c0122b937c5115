/* SPDX-License-Identifier: Apache-2.0 */
/* bench-open.c — open + index a CPEL file: wall time (best of N) and the
 * memory the index costs beyond the file mapping.
 *
 * usage: bench-open FILE [RUNS]
 * Prints key=value lines for run-bench.sh:
 *   events, tracks, open_best_s, open_runs_s, peak_anon_bytes, bytes_per_event
 *
 * Memory: in this fresh process, after a warm-up load of a tiny file (so
 * one-time costs — libraries, thread pool, allocator arenas — are not
 * charged to the index), VmRSS and RssAnon are read from /proc/self/status;
 * after the first load VmHWM (peak RSS) and RssAnon again.  Index bytes =
 * RssAnon_after - RssAnon_before: the memory the loaded file holds beyond
 * its mapping (whose pages the index build gives back once read).  The
 * peak (VmHWM - VmRSS_before) includes the mapped records while a pass
 * reads them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"

typedef struct
{
  guint64 rss, hwm, rss_file, rss_anon;   /* bytes */
} Status;

static guint64
field_kb (const char *status, const char *key)
{
  const char *p = strstr (status, key);

  return p != NULL ? g_ascii_strtoull (p + strlen (key), NULL, 10) : 0;
}

static gboolean
read_status (Status *s)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return FALSE;
  s->rss = field_kb (text, "VmRSS:") * 1024;
  s->hwm = field_kb (text, "VmHWM:") * 1024;
  s->rss_file = field_kb (text, "RssFile:") * 1024;
  s->rss_anon = field_kb (text, "RssAnon:") * 1024;
  return s->rss != 0;
}

/* Loads a one-event file once: one-time initialisation happens here. */
static void
warm_up (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-bench-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(CpelWriter) w = NULL;
  g_autoptr(CpelFile) file = NULL;
  guint t;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, "warm-up.cpel", NULL);
  w = cpel_writer_new (path, FALSE, 0, &error);
  if (w != NULL)
    {
      t = cpel_writer_add_string_table (w, "T");
      cpel_writer_begin_events (w, t, 1000000000, 1);
      cpel_writer_add_event (w, 1, 1, 1, 1);
      if (cpel_writer_finish (w, &error))
        file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
    }
  g_clear_object (&file);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_autoptr(GString) runs_text = g_string_new (NULL);
  Status before = { 0 }, after = { 0 };
  gboolean have_status;
  double best = G_MAXDOUBLE;
  guint64 n_events = 0;
  guint n_tracks = 0;
  int runs;

  if (argc < 2 || argc > 3)
    {
      fprintf (stderr, "usage: %s FILE [RUNS]\n", argv[0]);
      return 2;
    }
  runs = argc == 3 ? atoi (argv[2]) : 3;
  if (runs < 1)
    runs = 1;

  warm_up ();
  have_status = read_status (&before);
  for (int i = 0; i < runs; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = NULL;
      gint64 t0 = g_get_monotonic_time ();
      double s;

      file = cpel_file_new_for_path (argv[1], NULL, NULL, NULL, NULL, &error);
      s = (g_get_monotonic_time () - t0) / 1e6;
      if (file == NULL)
        {
          fprintf (stderr, "%s: %s\n", argv[1], error->message);
          return 1;
        }
      if (i == 0)
        {
          have_status = have_status && read_status (&after);
          n_events = cpel_file_get_n_events (file);
          n_tracks = cpel_file_get_n_tracks (file);
        }
      g_string_append_printf (runs_text, "%s%.3f", i ? "," : "", s);
      best = MIN (best, s);
    }

  printf ("events=%" G_GUINT64_FORMAT "\n", n_events);
  printf ("tracks=%u\n", n_tracks);
  printf ("open_best_s=%.3f\n", best);
  printf ("open_runs_s=%s\n", runs_text->str);
  if (have_status && n_events > 0)
    {
      gint64 mapped = (gint64) after.rss_file - (gint64) before.rss_file;
      gint64 added = (gint64) after.rss_anon - (gint64) before.rss_anon;
      gint64 peak = (gint64) after.hwm - (gint64) before.rss;

      printf ("mapped_bytes=%" G_GINT64_FORMAT "\n", mapped);
      printf ("anon_bytes=%" G_GINT64_FORMAT "\n", added);
      printf ("bytes_per_event=%.2f\n", (double) added / n_events);
      printf ("peak_bytes_per_event=%.2f\n", (double) peak / n_events);
    }
  return 0;
}
