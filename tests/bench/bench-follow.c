/* SPDX-License-Identifier: Apache-2.0 */
/* bench-follow.c — the Snabb ring follower against a writer thread
 * (tests/snabb-ring-writer.h) on a ring of Snabb's default size, 10^6 slots
 *
 * lockstep: the writer never more than half a ring ahead of the reader, so
 *   nothing is lost: the follower's throughput (entries/s read and checked).
 * rate R: the writer paced at R entries/s for SECONDS, the reader polling
 *   every 20 ms as `cpel dump --follow` does: entries seen, lost (real, and
 *   reported "at least"), and the largest delay from an entry's write to its
 *   read (bounded by the polling interval when the reader keeps up).
 * Every entry read is checked whole (checksums) and in order.
 *
 * usage: bench-follow DIR [SECONDS]   prints key=value lines
 */
#include <stdio.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-snabb-follow.h"
#include "snabb-ring-writer.h"

#define SLOTS    1000000u
#define BATCH    4096
#define POLL_US  20000

typedef struct
{
  SnabbRing *ring;
  guint64    rate;         /* 0: lockstep */
  gint64     until_us;     /* rate: stop then */
  guint64    total;        /* lockstep: this many */
  guint64   *reader_seq;
  gint64    *write_us;     /* per slot: when its entry was written (rate) */
  gint       done;
} Writer;

static gpointer
writer_main (gpointer data)
{
  Writer *w = data;
  gint64 t0 = g_get_monotonic_time ();

  for (;;)
    {
      gint64 now = g_get_monotonic_time ();
      guint64 n = snabb_ring_written (w->ring), want;

      if (w->rate == 0)
        {
          if (n >= w->total)
            break;
          want = MIN (w->total, __atomic_load_n (w->reader_seq, __ATOMIC_ACQUIRE) + SLOTS / 2);
        }
      else
        {
          if (now >= w->until_us)
            break;
          want = (guint64) ((double) (now - t0) * 1e-6 * (double) w->rate);
        }
      if (want <= n)
        {
          g_thread_yield ();
          continue;
        }
      want = MIN (want, n + 256);
      for (guint64 s = n; s < want; s++)
        w->write_us[s % SLOTS] = now;
      snabb_ring_write (w->ring, want - n);
    }
  g_atomic_int_set (&w->done, 1);
  return NULL;
}

typedef struct
{
  guint64 seen, lost_real, lost_reported, next_seq, bad;
  gint64  max_delay_us;
} Tally;

static void
take (CpelSnabbFollower *f,
      CpelSnabbEntry    *out,
      Tally             *t,
      const gint64      *write_us,
      gboolean          *any)
{
  CpelSnabbPollInfo info;
  gsize n = cpel_snabb_follower_poll (f, out, BATCH, &info);
  gint64 now = g_get_monotonic_time ();

  t->lost_reported += info.lost;
  *any = n > 0;
  for (gsize i = 0; i < n; i++)
    {
      guint64 seq;

      if (!snabb_ring_entry_ok (out[i].tsc, out[i].msgid, out[i].args, &seq)
          || seq < t->next_seq)
        {
          t->bad++;
          continue;
        }
      t->lost_real += seq - t->next_seq;
      t->next_seq = seq + 1;
      t->seen++;
      if (write_us != NULL && now - write_us[seq % SLOTS] > t->max_delay_us)
        t->max_delay_us = now - write_us[seq % SLOTS];
    }
}

static void
run (const char *dir,
     guint64     rate,
     double      seconds)
{
  g_autofree char *path = g_build_filename (dir, "bench-follow.timeline", NULL);
  SnabbRing *ring = snabb_ring_create (path, SLOTS);
  g_autoptr(CpelSnabbFollower) f = cpel_snabb_follower_new (path, NULL);
  g_autofree CpelSnabbEntry *out = g_new (CpelSnabbEntry, BATCH);
  g_autofree gint64 *write_us = g_new0 (gint64, SLOTS);
  guint64 reader_seq = 0;
  Writer w = { ring, rate, 0, 20000000, &reader_seq, write_us, 0 };
  Tally t = { 0 };
  GThread *thread;
  gint64 t0, t1;
  gboolean any;

  g_assert_nonnull (f);
  t0 = g_get_monotonic_time ();
  w.until_us = t0 + (gint64) (seconds * 1e6);
  thread = g_thread_new ("writer", writer_main, &w);
  if (rate == 0)
    {
      while (t.next_seq < w.total)
        {
          take (f, out, &t, NULL, &any);
          __atomic_store_n (&reader_seq, t.next_seq, __ATOMIC_RELEASE);
        }
    }
  else
    {
      while (!g_atomic_int_get (&w.done))
        {
          do
            take (f, out, &t, write_us, &any);
          while (any);
          g_usleep (POLL_US);   /* the CLI's polling interval (a benchmark, not a test) */
        }
      do
        take (f, out, &t, write_us, &any);
      while (any);
    }
  t1 = g_get_monotonic_time ();
  g_thread_join (thread);

  if (rate == 0)
    printf ("lockstep_entries=%" G_GUINT64_FORMAT "\nlockstep_entries_per_s=%.0f\n"
            "lockstep_lost=%" G_GUINT64_FORMAT "\nlockstep_bad=%" G_GUINT64_FORMAT "\n",
            t.seen, t.seen / ((t1 - t0) * 1e-6), t.lost_real, t.bad);
  else
    printf ("rate_%" G_GUINT64_FORMAT "_written=%" G_GUINT64_FORMAT "\n"
            "rate_%" G_GUINT64_FORMAT "_seen=%" G_GUINT64_FORMAT "\n"
            "rate_%" G_GUINT64_FORMAT "_lost=%" G_GUINT64_FORMAT "\n"
            "rate_%" G_GUINT64_FORMAT "_lost_reported_at_least=%" G_GUINT64_FORMAT "\n"
            "rate_%" G_GUINT64_FORMAT "_bad=%" G_GUINT64_FORMAT "\n"
            "rate_%" G_GUINT64_FORMAT "_max_delay_ms=%.1f\n",
            rate, snabb_ring_written (ring), rate, t.seen, rate, t.lost_real, rate,
            t.lost_reported, rate, t.bad, rate, t.max_delay_us / 1000.0);
  fflush (stdout);
  snabb_ring_free (ring);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  double seconds = argc > 2 ? g_ascii_strtod (argv[2], NULL) : 5;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s DIR [SECONDS]\n", argv[0]);
      return 2;
    }
  run (argv[1], 0, 0);
  run (argv[1], 1000000, seconds);
  run (argv[1], 10000000, seconds);
  return 0;
}
