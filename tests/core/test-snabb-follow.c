/* SPDX-License-Identifier: Apache-2.0 */
/* test-snabb-follow.c — the Snabb ring follower against a live writer
 * (tests/snabb-ring-writer.h): every entry once, in order, whole; wrap;
 * laps counted as at most what was lost; a new ring; a removed file. */
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"
#include "cpel-snabb-follow.h"
#include "snabb-ring-writer.h"

#define BATCH 256

typedef struct
{
  guint64  n_seen;
  guint64  next_seq;        /* the seq expected next */
  guint64  lost_reported;
  guint64  pending_lost;    /* reported, before the next entry returned */
  guint64  lost_real;
  guint    n_gaps;
  guint    n_new_rings;
  gboolean gone;
} Seen;

static char *
ring_path (const char *name)
{
  g_autofree char *dir = g_dir_make_tmp ("cpel-follow-XXXXXX", NULL);

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

static void
remove_ring (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

/* One poll, every entry checked against the sequence: whole, in order, a
 * gap only where a loss is reported, and never smaller than the report. */
static gsize
poll_check (CpelSnabbFollower *f,
            Seen              *seen)
{
  CpelSnabbEntry out[BATCH];
  CpelSnabbPollInfo info;
  gsize n = cpel_snabb_follower_poll (f, out, BATCH, &info);

  if (info.new_ring)
    {
      seen->n_new_rings++;
      seen->next_seq = 0;
    }
  if (info.gone)
    seen->gone = TRUE;
  seen->pending_lost += info.lost;
  for (gsize i = 0; i < n; i++)
    {
      guint64 seq;

      if (!snabb_ring_entry_ok (out[i].tsc, out[i].msgid, out[i].args, &seq))
        g_error ("entry in slot %u is torn or invented (tsc %g, arg0 %g)",
                 out[i].slot, out[i].tsc, out[i].args[0]);
      if (i == 0 && seen->pending_lost > 0)
        {
          g_assert_cmpuint (seq, >, seen->next_seq);
          g_assert_cmpuint (seen->pending_lost, <=, seq - seen->next_seq);
          seen->lost_reported += seen->pending_lost;
          seen->pending_lost = 0;
          seen->lost_real += seq - seen->next_seq;
          seen->n_gaps++;
        }
      else
        g_assert_cmpuint (seq, ==, seen->next_seq);
      seen->next_seq = seq + 1;
      seen->n_seen++;
    }
  return n;
}

/* Polls until the entry `last` was seen (the writer wrote it). */
static void
poll_until (CpelSnabbFollower *f,
            Seen              *seen,
            guint64            last)
{
  guint64 spins = 0;

  while (seen->next_seq <= last)
    {
      if (poll_check (f, seen) == 0)
        {
          g_assert_false (seen->gone);
          /* a failure guard only: the entries are there, nothing to wait for */
          g_assert_cmpuint (++spins, <, 100000000);
          g_thread_yield ();
        }
    }
}

static void
test_empty_then_entries (void)
{
  g_autofree char *path = ring_path ("events.timeline");
  SnabbRing *r = snabb_ring_create (path, 64);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSnabbFollower) f = cpel_snabb_follower_new (path, &error);
  Seen seen = { 0 };
  const CpelSnabbMessage *m;

  g_assert_no_error (error);
  g_assert_cmpuint (poll_check (f, &seen), ==, 0);
  snabb_ring_write (r, 10);
  poll_until (f, &seen, 9);
  g_assert_cmpuint (seen.n_seen, ==, 10);
  g_assert_cmpuint (poll_check (f, &seen), ==, 0);
  /* wrap: 64 slots, 10 + 100 entries, read in two goes */
  snabb_ring_write (r, 50);
  poll_until (f, &seen, 59);
  snabb_ring_write (r, 50);
  poll_until (f, &seen, 109);
  g_assert_cmpuint (seen.n_seen, ==, 110);
  g_assert_cmpuint (seen.n_gaps, ==, 0);

  m = cpel_snabb_follower_message (f, 3);
  g_assert_nonnull (m);
  g_assert_cmpstr (m->name, ==, "test.odd");
  g_assert_cmpstr (m->track, ==, "test 7");
  g_assert_cmpuint (m->n_args, ==, 6);
  g_assert_null (cpel_snabb_follower_message (f, 1));   /* not on a message */
  g_assert_null (cpel_snabb_follower_message (f, 40));  /* past the table */

  snabb_ring_free (r);
  remove_ring (path);
}

/* A ring already wrapped when the follower starts: from its oldest safe entry. */
static void
test_start_wrapped (void)
{
  g_autofree char *path = ring_path ("events.timeline");
  SnabbRing *r = snabb_ring_create (path, 32);
  g_autoptr(CpelSnabbFollower) f = NULL;
  Seen seen = { 0 };

  snabb_ring_write (r, 32 * 3 + 5);   /* newest in slot 4 */
  f = cpel_snabb_follower_new (path, NULL);
  g_assert_nonnull (f);
  seen.next_seq = 32 * 2 + 6;  /* slot 5, the oldest, skipped: slot 6 on */
  poll_until (f, &seen, 32 * 3 + 4);
  g_assert_cmpuint (seen.n_seen, ==, 31);
  g_assert_cmpuint (seen.n_gaps, ==, 0);
  snabb_ring_free (r);
  remove_ring (path);
}

/* The reader paused while the writer goes round several times. */
static void
test_lapped (void)
{
  g_autofree char *path = ring_path ("events.timeline");
  SnabbRing *r = snabb_ring_create (path, 100);
  g_autoptr(CpelSnabbFollower) f = cpel_snabb_follower_new (path, NULL);
  Seen seen = { 0 };
  guint64 n_lost;

  snabb_ring_write (r, 40);
  poll_until (f, &seen, 39);
  snabb_ring_write (r, 250);     /* entries 40..289: 40..189 are overwritten */
  poll_until (f, &seen, 289);
  g_assert_cmpuint (seen.n_gaps, ==, 1);
  g_assert_cmpuint (seen.lost_reported, >=, 1);
  g_assert_cmpuint (seen.lost_reported, <=, seen.lost_real);
  /* 40..190 are not read (190, the oldest, is unsafe); the ring shows
   * only that the writer passed the reader's slot once: at least 51 */
  g_assert_cmpuint (seen.lost_real, ==, 151);
  g_assert_cmpuint (seen.lost_reported, ==, 51);
  cpel_snabb_follower_counts (f, NULL, &n_lost, NULL, NULL);
  g_assert_cmpuint (n_lost, ==, 51);

  /* exactly one lap: the writer overwrote the guard and nothing else unread */
  snabb_ring_write (r, 100);
  poll_until (f, &seen, 389);
  g_assert_cmpuint (seen.n_gaps, ==, 2);
  g_assert_cmpuint (seen.lost_real, ==, 152);
  g_assert_cmpuint (seen.lost_reported, ==, 52);
  snabb_ring_free (r);
  remove_ring (path);
}

typedef struct
{
  SnabbRing *ring;
  guint64    total;        /* 0: until stop is set */
  guint64   *reader_seq;   /* NULL: free-running; else stay within half a ring of it */
  gint       stop;
} WriterArgs;

static gpointer
writer_thread (gpointer data)
{
  WriterArgs *a = data;

  while (a->total == 0 ? !g_atomic_int_get (&a->stop) : snabb_ring_written (a->ring) < a->total)
    {
      guint64 chunk = a->total == 0 ? 7 : MIN (a->total - snabb_ring_written (a->ring), 7);

      if (a->reader_seq != NULL)
        while (snabb_ring_written (a->ring) + chunk
               > __atomic_load_n (a->reader_seq, __ATOMIC_ACQUIRE) + a->ring->n_slots / 2)
          g_thread_yield ();   /* flow control: wait for the reader */
      snabb_ring_write (a->ring, chunk);
    }
  return NULL;
}

/* A writer thread racing the reader, never more than half a ring ahead:
 * every entry once, in order, whole, over many wraps. */
static void
test_race_paced (void)
{
  g_autofree char *path = ring_path ("events.timeline");
  SnabbRing *r = snabb_ring_create (path, 256);
  g_autoptr(CpelSnabbFollower) f = cpel_snabb_follower_new (path, NULL);
  guint64 reader_seq = 0;
  WriterArgs args = { r, 200000, &reader_seq, 0 };
  GThread *writer;
  Seen seen = { 0 };

  writer = g_thread_new ("writer", writer_thread, &args);
  while (seen.next_seq < args.total)
    {
      if (poll_check (f, &seen) == 0)
        g_thread_yield ();
      __atomic_store_n (&reader_seq, seen.next_seq, __ATOMIC_RELEASE);
    }
  g_thread_join (writer);
  g_assert_cmpuint (seen.n_seen, ==, args.total);
  g_assert_cmpuint (seen.n_gaps, ==, 0);
  snabb_ring_free (r);
  remove_ring (path);
}

/* A free-running writer on a small ring, until the reader has read 20000
 * entries: laps happen; each loss reported is at most the real one,
 * nothing torn, duplicated or out of order. */
static void
test_race_free (void)
{
  g_autofree char *path = ring_path ("events.timeline");
  SnabbRing *r = snabb_ring_create (path, 64);
  g_autoptr(CpelSnabbFollower) f = cpel_snabb_follower_new (path, NULL);
  WriterArgs args = { r, 0, NULL, 0 };
  GThread *writer;
  Seen seen = { 0 };
  guint64 n_reread = 0, total;

  writer = g_thread_new ("writer", writer_thread, &args);
  while (seen.n_seen < 20000)
    poll_check (f, &seen);
  g_atomic_int_set (&args.stop, 1);
  g_thread_join (writer);
  total = snabb_ring_written (r);
  poll_until (f, &seen, total - 1);
  g_assert_cmpuint (seen.lost_reported, <=, seen.lost_real);
  g_assert_cmpuint (seen.n_seen + seen.lost_real, ==, total);
  cpel_snabb_follower_counts (f, NULL, NULL, &n_reread, NULL);
  g_test_message ("written %" G_GUINT64_FORMAT ", seen %" G_GUINT64_FORMAT ", lost %"
                  G_GUINT64_FORMAT " (reported at least %" G_GUINT64_FORMAT ") in %u gaps, %"
                  G_GUINT64_FORMAT " slots read again", total, seen.n_seen, seen.lost_real,
                  seen.lost_reported, seen.n_gaps, n_reread);
  snabb_ring_free (r);
  remove_ring (path);
}

/* The writer restarts (a new file at the path), then goes away. */
static void
test_new_ring_and_gone (void)
{
  g_autofree char *path = ring_path ("events.timeline");
  SnabbRing *r = snabb_ring_create (path, 32);
  g_autoptr(CpelSnabbFollower) f = cpel_snabb_follower_new (path, NULL);
  Seen seen = { 0 };
  guint rings = 0;

  snabb_ring_write (r, 20);
  poll_until (f, &seen, 19);
  /* three more, then the file replaced: those three first, then the new ring */
  snabb_ring_write (r, 3);
  snabb_ring_free (r);
  r = snabb_ring_create (path, 48);
  snabb_ring_write (r, 5);
  while (seen.n_new_rings == 0)
    poll_check (f, &seen);
  g_assert_cmpuint (seen.n_seen, >=, 23);
  poll_until (f, &seen, 4);
  g_assert_cmpuint (seen.n_seen, ==, 28);
  cpel_snabb_follower_counts (f, NULL, NULL, NULL, &rings);
  g_assert_cmpuint (rings, ==, 2);

  /* the same file started again in place: the guard's TSC goes back */
  memset (r->map + 64, 0, 48 * 64);
  r->cursor = 0;
  r->seq = 0;
  snabb_ring_write (r, 3);
  seen.n_new_rings = 0;
  while (seen.n_new_rings == 0)
    poll_check (f, &seen);
  poll_until (f, &seen, 2);

  /* removed: what is left is read, then gone */
  snabb_ring_write (r, 4);
  g_unlink (path);
  while (!seen.gone)
    poll_check (f, &seen);
  g_assert_cmpuint (seen.next_seq, ==, 7);
  snabb_ring_free (r);
  remove_ring (path);
}

/* The file shrinks under the mapping: reads past its end come back as
 * zeros (cpel-mapguard.h), nothing is invented, and a ring written again
 * at the path is a new ring. */
static void
test_shrunk (void)
{
  g_autofree char *path = ring_path ("events.timeline");
  SnabbRing *r = snabb_ring_create (path, 4096);   /* 256 KiB: the strings on a later page */
  g_autoptr(CpelSnabbFollower) f = cpel_snabb_follower_new (path, NULL);
  Seen seen = { 0 };

  snabb_ring_write (r, 10);
  poll_until (f, &seen, 9);
  snabb_ring_free (r);
  g_assert_cmpint (truncate (path, 64), ==, 0);
  /* the string table is past the end now: a fault, repaired with zeros */
  g_assert_null (cpel_snabb_follower_message (f, 0));
  g_assert_cmpuint (poll_check (f, &seen), ==, 0);
  g_assert_false (seen.gone);
  g_assert_cmpuint (poll_check (f, &seen), ==, 0);

  r = snabb_ring_create (path, 16);
  snabb_ring_write (r, 2);
  while (seen.n_new_rings == 0)
    poll_check (f, &seen);
  poll_until (f, &seen, 1);
  g_assert_cmpuint (seen.n_seen, ==, 12);
  snabb_ring_free (r);
  remove_ring (path);
}

static void
test_not_a_ring (void)
{
  g_autofree char *path = ring_path ("other");
  g_autoptr(GError) error = NULL;
  CpelSnabbFollower *f;

  g_assert_true (g_file_set_contents (path, "not a timeline, but long enough to have a header"
                                      " of sixty-four bytes and more", -1, NULL));
  f = cpel_snabb_follower_new (path, &error);
  g_assert_null (f);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL);
  g_clear_error (&error);
  g_assert_null (cpel_snabb_follower_new ("/nonexistent/events.timeline", &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  remove_ring (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/snabb/follow/empty-then-entries", test_empty_then_entries);
  g_test_add_func ("/core/import/snabb/follow/start-wrapped", test_start_wrapped);
  g_test_add_func ("/core/import/snabb/follow/lapped", test_lapped);
  g_test_add_func ("/core/import/snabb/follow/race-paced", test_race_paced);
  g_test_add_func ("/core/import/snabb/follow/race-free", test_race_free);
  g_test_add_func ("/core/import/snabb/follow/new-ring-and-gone", test_new_ring_and_gone);
  g_test_add_func ("/core/import/snabb/follow/shrunk", test_shrunk);
  g_test_add_func ("/core/import/snabb/follow/not-a-ring", test_not_a_ring);
  return g_test_run ();
}
