/* SPDX-License-Identifier: Apache-2.0 */
/* bench-live-capture.c — the viewer's follow mode without the window: the
 * live capture (cpel-live-capture.h) following a Snabb ring written by a
 * thread (tests/snabb-ring-writer.h) at R entries/s for S seconds, its
 * worker making a CpelFile at most every 250 ms as the window asks.
 *
 * For each rate: entries written, kept, lost ("at least"); the updates
 * handed to the main context; the delay from an entry's write to the
 * update that holds it (max, p95: what the window adds is one frame); the
 * time to make the last capture (the rebuild grows with the events kept),
 * and the bytes kept per event (store and texts, not the CpelFile).
 *
 * usage: bench-live-capture DIR [SECONDS]   prints key=value lines
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-live-capture.h"
#include "snabb-ring-writer.h"

#define SLOTS      1000000u
#define STAMP_EVERY 1024u

typedef struct
{
  SnabbRing *ring;
  guint64    rate;
  gint64     until_us;
  gint64    *stamp_us;   /* write time of entry k * STAMP_EVERY */
  guint64    n_stamps;
  gint       done;
} Writer;

static gpointer
writer_main (gpointer data)
{
  Writer *w = data;
  gint64 t0 = g_get_monotonic_time ();

  while (g_get_monotonic_time () < w->until_us)
    {
      guint64 n = snabb_ring_written (w->ring);
      guint64 want = (guint64) ((double) (g_get_monotonic_time () - t0) * 1e-6 * (double) w->rate);

      want = MIN (want, n + 4096);
      while (n < want)
        {
          snabb_ring_write (w->ring, 1);
          if (n % STAMP_EVERY == 0 && n / STAMP_EVERY < w->n_stamps)
            g_atomic_pointer_set ((gpointer *) &w->stamp_us[n / STAMP_EVERY],
                                  GSIZE_TO_POINTER ((gsize) g_get_monotonic_time ()));
          n++;
        }
      if (want == n)
        g_thread_yield ();
    }
  g_atomic_int_set (&w->done, 1);
  return NULL;
}

typedef struct
{
  Writer  *writer;
  GArray  *delays;    /* gint64 us */
  guint64  shown;
  guint    updates;
  CpelLiveStatus status;
} Reader;

static void
on_update (CpelFile             *file,
           const CpelLiveStatus *status,
           gpointer              user_data)
{
  Reader *r = user_data;
  gint64 now = g_get_monotonic_time ();

  r->status = *status;
  if (file == NULL)
    return;
  r->updates++;
  r->shown = cpel_file_get_n_events (file);
  if (r->shown > 0 && status->n_lost == 0)
    {
      /* the newest stamped entry the update holds */
      guint64 k = (r->shown - 1) / STAMP_EVERY;
      gint64 t = (gint64) GPOINTER_TO_SIZE (g_atomic_pointer_get (
                   (gpointer *) &r->writer->stamp_us[MIN (k, r->writer->n_stamps - 1)]));

      if (t > 0)
        {
          gint64 d = now - t;

          g_array_append_val (r->delays, d);
        }
    }
}

/* Resident set size, bytes (Linux), 0 when unknown. */
static guint64
rss_bytes (void)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  p = strstr (status, "VmRSS:");
  return p != NULL ? g_ascii_strtoull (p + 6, NULL, 10) * 1024 : 0;
}

static int
cmp_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
run (const char *dir,
     guint64     rate,
     double      seconds)
{
  g_autofree char *path = g_build_filename (dir, "live-bench.timeline", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainContext) context = g_main_context_new ();
  Writer w = { 0 };
  Reader r = { &w, g_array_new (FALSE, FALSE, sizeof (gint64)), 0, 0, { 0 } };
  CpelLiveCapture *cap;
  GThread *thread;
  gint64 t_end, t0;
  g_autoptr(CpelFile) last = NULL;
  double make_s;
  guint64 rss0 = rss_bytes ();

  w.ring = snabb_ring_create (path, SLOTS);
  w.rate = rate;
  w.n_stamps = (guint64) (rate * seconds) / STAMP_EVERY + 16;
  w.stamp_us = g_new0 (gint64, w.n_stamps);
  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  g_main_context_push_thread_default (context);
  cpel_live_capture_start (cap, context, 250, on_update, &r);
  w.until_us = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  thread = g_thread_new ("writer", writer_main, &w);
  /* until the writer is done and the capture holds what it wrote (or lost) */
  t_end = G_MAXINT64;
  while (TRUE)
    {
      g_main_context_iteration (context, TRUE);
      if (g_atomic_int_get (&w.done) && t_end == G_MAXINT64)
        t_end = g_get_monotonic_time ();
      if (t_end != G_MAXINT64
          && (r.shown + r.status.n_lost >= snabb_ring_written (w.ring)
              || g_get_monotonic_time () - t_end > 30 * G_USEC_PER_SEC))
        break;
    }
  g_thread_join (thread);
  cpel_live_capture_stop (cap);
  g_main_context_pop_thread_default (context);

  t0 = g_get_monotonic_time ();
  last = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  make_s = (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;
  /* the store and one capture (a window holds one; a second while the next is made) */
  printf ("rss_per_event=%.0f B (store and one capture, ring mapping included)\n",
          (double) (rss_bytes () - MIN (rss0, rss_bytes ())) / MAX (r.status.n_events, 1));

  g_array_sort (r.delays, cmp_i64);
  printf ("rate=%" G_GUINT64_FORMAT " seconds=%.1f written=%" G_GUINT64_FORMAT
          " kept=%" G_GUINT64_FORMAT " lost_at_least=%" G_GUINT64_FORMAT " updates=%u"
          " delay_p95_ms=%.1f delay_max_ms=%.1f make_last_s=%.3f (%" G_GUINT64_FORMAT
          " events)\n",
          rate, seconds, snabb_ring_written (w.ring), r.status.n_events, r.status.n_lost,
          r.updates,
          r.delays->len ? g_array_index (r.delays, gint64, r.delays->len * 95 / 100) / 1e3 : 0.0,
          r.delays->len ? g_array_index (r.delays, gint64, r.delays->len - 1) / 1e3 : 0.0,
          make_s, cpel_file_get_n_events (last));
  fflush (stdout);
  cpel_live_capture_unref (cap);
  g_array_unref (r.delays);
  g_free (w.stamp_us);
  snabb_ring_free (w.ring);
  g_unlink (path);
}

/* The reader alone: a full ring read and kept (texts made), entries/s. */
static void
reader_throughput (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "live-bench.timeline", NULL);
  g_autoptr(GError) error = NULL;
  SnabbRing *ring = snabb_ring_create (path, SLOTS);
  CpelLiveCapture *cap;
  guint64 n = 0;
  gint64 t0;

  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  snabb_ring_write (ring, SLOTS - 1);
  t0 = g_get_monotonic_time ();
  while (n < SLOTS - 1)
    n += cpel_live_capture_poll (cap);
  printf ("reader alone: %" G_GUINT64_FORMAT " entries in %.3f s: %.2f M entries/s\n", n,
          (g_get_monotonic_time () - t0) / 1e6, n / ((g_get_monotonic_time () - t0) / 1e6) / 1e6);
  cpel_live_capture_unref (cap);
  snabb_ring_free (ring);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  double seconds = argc > 2 ? g_ascii_strtod (argv[2], NULL) : 10;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s DIR [SECONDS]\n", argv[0]);
      return 2;
    }
  reader_throughput (argv[1]);
  run (argv[1], 10000, seconds);
  run (argv[1], 100000, seconds);
  run (argv[1], 300000, seconds);
  run (argv[1], 1000000, MIN (seconds, 3));
  return 0;
}
