/* SPDX-License-Identifier: Apache-2.0 */
/* test-live-capture.c — the capture the viewer follows (cpel-live-capture.h),
 * against the Snabb ring writer (tests/snabb-ring-writer.h): every entry
 * kept once, in order; a lap is a gap of "at least N"; what is saved reads
 * back with the same events and texts.
 */
#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-live-capture.h"
#include "cpel-loader.h"
#include "cpel-append-writer.h"
#include "snabb-ring-writer.h"
#include "import-writers.h"
#include "cpel-test-util.h"

static char *
ring_path (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cpel-live-XXXXXX", NULL);

  g_assert_nonnull (dir);
  return g_build_filename (dir, "events.timeline", NULL);
}

static void
remove_path (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

/* Every event of the capture, each track's data in steps of 2 from its
 * first (the writer alternates two messages, argument 0 the sequence). */
static void
check_in_order (CpelFile *file,
                guint64   n)
{
  guint64 total = 0;

  g_assert_cmpuint (cpel_file_get_n_events (file), ==, n);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      guint64 m = cpel_file_get_track_n_events (file, slot);

      for (guint64 i = 1; i < m; i++)
        g_assert_cmpuint (cpel_file_get_track_event_datum (file, slot, i), ==,
                          cpel_file_get_track_event_datum (file, slot, i - 1) + 2);
      total += m;
    }
  g_assert_cmpuint (total, ==, n);
}

static void
test_ring (void)
{
  g_autofree char *path = ring_path ();
  SnabbRing *ring = snabb_ring_create (path, 1024);
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  CpelLiveStatus status;
  guint64 total = 0;

  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  /* three rounds of 700 entries: the ring (1024 slots) wraps, never laps */
  for (guint round = 0; round < 3; round++)
    {
      snabb_ring_write (ring, 700);
      total += cpel_live_capture_poll (cap);
    }
  g_assert_cmpuint (total, ==, 2100);
  file = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  check_in_order (file, 2100);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 2);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_events, ==, 2100);
  g_assert_cmpuint (status.n_lost, ==, 0);
  g_assert_false (status.lost_exact);
  snabb_ring_free (ring);
  remove_path (path);
}

static void
test_lapped (void)
{
  g_autofree char *path = ring_path ();
  SnabbRing *ring = snabb_ring_create (path, 256);
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) gaps = NULL;
  CpelLiveStatus status;
  guint64 kept;

  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  snabb_ring_write (ring, 100);
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, 100);
  /* the reader "paused": 1000 entries into 256 slots */
  snabb_ring_write (ring, 1000);
  kept = 100 + cpel_live_capture_poll (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_gaps, ==, 1);
  g_assert_cmpuint (status.n_lost, >, 0);
  /* at least, never more than was lost */
  g_assert_cmpuint (status.n_lost, <=, 1100 - kept);
  g_assert_cmpuint (status.n_events, ==, kept);
  gaps = cpel_live_capture_dup_gaps (cap);
  g_assert_cmpuint (gaps->len, ==, 1);
  g_assert_cmpuint (g_array_index (gaps, CpelLiveGap, 0).index, ==, 100);
  g_assert_cmpuint (g_array_index (gaps, CpelLiveGap, 0).n_lost, ==, status.n_lost);
  file = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, kept);
  snabb_ring_free (ring);
  remove_path (path);
}

static void
test_save (void)
{
  g_autofree char *path = ring_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *out = g_build_filename (dir, "saved.cpel", NULL);
  SnabbRing *ring = snabb_ring_create (path, 512);
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelFile) live = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *expected = NULL;
  CpelEvent ev;

  /* entry 10 (the sixth of the even ones): argument names as the writer's message */
  expected = g_strdup_printf ("seq=10 c1=%.0f c2=%.0f c3=%.0f c4=%.0f c5=%.0f",
                              snabb_ring_check (10, 1), snabb_ring_check (10, 2),
                              snabb_ring_check (10, 3), snabb_ring_check (10, 4),
                              snabb_ring_check (10, 5));
  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  snabb_ring_write (ring, 300);
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, 300);
  /* the writer exits: its ring goes, the capture stays */
  snabb_ring_free (ring);
  g_unlink (path);
  cpel_live_capture_poll (cap);
  g_assert_true (cpel_live_capture_save (cap, out, &error));
  g_assert_no_error (error);
  file = cpel_file_new_for_path (out, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_in_order (file, 300);
  /* the texts, as the capture showed them */
  live = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  cpel_file_get_track_event (file, 0, 5, &ev);
  cpel_file_append_datum (file, &ev, text);
  g_assert_cmpstr (text->str, ==, expected);
  g_string_truncate (text, 0);
  cpel_file_get_track_event (live, 0, 5, &ev);
  cpel_file_append_datum (live, &ev, text);
  g_assert_cmpstr (text->str, ==, expected);
  g_unlink (out);
  g_rmdir (dir);
}

/* A CPEL file that grows: sections appended are read as they complete;
 * a rewritten file starts the capture again. */
static void
test_cpel (void)
{
  g_autofree char *path = ring_path ();
  g_autoptr(GByteArray) start = cpel_start ();
  g_autoptr(GByteArray) more = g_byte_array_new ();
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  CpelLiveStatus status;
  CpelEvent ev;

  put_events (start, 0, 50);
  append_file (path, start);
  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, 50);
  put_events (more, 5000, 30);
  append_file (path, more);
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, 30);
  file = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 80);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 1);
  /* times from the first event, the texts as the file formats them */
  cpel_file_get_track_event (file, 0, 79, &ev);
  g_assert_cmpint (ev.time_ns, ==, 5000 + 29 * 100);
  cpel_file_append_datum (file, &ev, text);
  g_assert_cmpstr (text->str, ==, "790 pkts");
  cpel_live_capture_get_status (cap, &status);
  g_assert_true (status.lost_exact);
  g_assert_cmpuint (status.n_rewritten, ==, 0);

  /* rewritten (a new file in its place): the capture starts again */
  {
    g_autoptr(GByteArray) again = cpel_start ();
    g_autofree char *tmp = g_strconcat (path, ".new", NULL);

    put_events (again, 0, 10);
    append_file (tmp, again);
    g_assert_cmpint (g_rename (tmp, path), ==, 0);
  }
  cpel_live_capture_poll (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_rewritten, ==, 1);
  g_assert_cmpuint (status.n_events, ==, 10);
  g_clear_object (&file);
  file = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 10);
  remove_path (path);
}

/* `snabb:PID`: the ring of that process under $SNABB_SHM_ROOT. */
static void
test_snabb_pid (void)
{
  g_autofree char *root = g_dir_make_tmp ("cpel-live-root-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (root, "4242", NULL);
  g_autofree char *path = g_build_filename (dir, "events.timeline", NULL);
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelLiveCapture) none = NULL;
  g_autoptr(GError) error = NULL;
  SnabbRing *ring;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  ring = snabb_ring_create (path, 64);
  snabb_ring_write (ring, 10);
  g_setenv ("SNABB_SHM_ROOT", root, TRUE);
  cap = cpel_live_capture_new ("snabb:4242", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, 10);
  none = cpel_live_capture_new ("snabb:4243", 0, &error);
  g_assert_null (none);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_unsetenv ("SNABB_SHM_ROOT");
  snabb_ring_free (ring);
  g_unlink (path);
  g_rmdir (dir);
  g_rmdir (root);
}

typedef struct
{
  guint64  shown;
  guint    updates;
  gboolean gone;
} Seen;

static void
on_update (CpelFile             *file,
           const CpelLiveStatus *status,
           gpointer              user_data)
{
  Seen *seen = user_data;

  if (file != NULL)
    {
      seen->shown = cpel_file_get_n_events (file);
      seen->updates++;
      check_in_order (file, seen->shown);
    }
  seen->gone = status->gone;
}

static gpointer
write_thread (gpointer data)
{
  SnabbRing *ring = data;

  for (guint i = 0; i < 50; i++)
    snabb_ring_write (ring, 1000);
  return NULL;
}

/* The worker and the builder against a writer thread (ThreadSanitizer
 * runs this): captures handed to the context, in order, the last with
 * every entry; the ring's removal is "gone". */
static void
test_worker (void)
{
  g_autofree char *path = ring_path ();
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(GError) error = NULL;
  SnabbRing *ring = snabb_ring_create (path, 65536);
  Seen seen = { 0 };
  GThread *thread;

  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  cpel_live_capture_start (cap, context, 20, on_update, &seen);
  thread = g_thread_new ("ring-writer", write_thread, ring);
  while (seen.shown < 50000)
    g_main_context_iteration (context, TRUE);
  g_thread_join (thread);
  g_assert_cmpuint (seen.shown, ==, 50000);
  g_assert_cmpuint (seen.updates, >=, 1);
  snabb_ring_free (ring);
  g_unlink (path);
  while (!seen.gone)
    g_main_context_iteration (context, TRUE);
  cpel_live_capture_stop (cap);
  remove_path (path);
}

/* An elog saved as VPP's `event-logger save` writes it: events i in
 * [first, last), "rx %d" with i, on track i % 2 ("rx-a" or `track_a`,
 * "rx-b"), at i ms after init; `twins`: one more event at the last one's
 * time, with 100000 + i on the same track (1) or 200000 + i on the other
 * one (2). */
static void
save_elog (const char *path,
           guint       first,
           guint       last,
           guint       twins,
           const char *track_a)
{
  static const ElogwType types[] = { { "rx %d", "i4", NULL } };
  const char *tracks[] = { track_a != NULL ? track_a : "rx-a", "rx-b" };
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
  g_autoptr(GError) error = NULL;

  elogw_header (a, types, 1, tracks, 2, "", 0);
  elogw_u32 (a, last - first + (twins ? 1 : 0));
  for (guint i = first; i < last; i++)
    {
      elogw_event_head (a, 0, i % 2, i * 1e-3);
      elogw_u32 (a, i);
    }
  if (twins)
    {
      elogw_event_head (a, 0, (last - 1 + twins - 1) % 2, (last - 1) * 1e-3);
      elogw_u32 (a, 100000 * twins + last - 1);
    }
  g_assert_true (g_file_set_contents (tmp, (const char *) a->data, a->len, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_rename (tmp, path), ==, 0);
}

/* Polls until the capture reads the file again (it waits for the file to
 * hold still for one poll): at most a few polls. */
static void
poll_reread (CpelLiveCapture *cap)
{
  for (guint i = 0; i < 3; i++)
    cpel_live_capture_poll (cap);
}

static gint
cmp_u32 (gconstpointer a,
         gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Every datum of the capture, sorted. */
static GArray *
all_data (CpelLiveCapture *cap)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_live_capture_snapshot (cap, &error);
  GArray *data = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_assert_no_error (error);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
      {
        guint32 d = cpel_file_get_track_event_datum (file, slot, i);

        g_array_append_val (data, d);
      }
  g_array_sort (data, cmp_u32);
  return data;
}

/* A VPP elog saved again and again (`event-logger save`): each save read
 * whole, the events after the newest one kept on its clock appended once
 * (a save overlaps the one before; two events at the newest time are not
 * taken twice); a save that ends before what was kept (VPP started again)
 * starts the capture again; `cpel dump --follow` says it cannot follow
 * such a file (the viewer can). */
static void
test_elog_saved (void)
{
  g_autofree char *path = ring_path ();
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) data = NULL;
  g_autofree char *resolved = NULL;
  CpelLiveSourceKind kind;
  CpelLiveStatus status;
  g_autoptr(GMainContext) context = g_main_context_new ();
  Seen seen = { 0 };

  save_elog (path, 0, 50, 1, NULL);
  resolved = cpel_live_source_resolve (path, &kind, &error);
  g_assert_no_error (error);
  g_assert_cmpint (kind, ==, CPEL_LIVE_SOURCE_REREAD);
  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  poll_reread (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_events, ==, 51);

  /* the ring moved on: events 30..119 (30..49 and the twin kept already) */
  save_elog (path, 30, 120, 0, NULL);
  poll_reread (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_events, ==, 121);
  g_assert_cmpuint (status.n_rewritten, ==, 0);
  data = all_data (cap);
  g_assert_cmpuint (data->len, ==, 121);
  for (guint i = 0; i < 120; i++)
    g_assert_cmpuint (g_array_index (data, guint32, i), ==, i);
  g_assert_cmpuint (g_array_index (data, guint32, 120), ==, 100049);

  /* saved again with one more event at the newest time, on the other
   * track (slot order puts it first): that one is new, 119 is not */
  save_elog (path, 30, 120, 2, NULL);
  poll_reread (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_events, ==, 122);
  g_clear_pointer (&data, g_array_unref);
  data = all_data (cap);
  g_assert_cmpuint (g_array_index (data, guint32, 119), ==, 119);
  g_assert_cmpuint (g_array_index (data, guint32, 120), ==, 100049);
  g_assert_cmpuint (g_array_index (data, guint32, 121), ==, 200119);

  /* a VPP started again names its tracks anew: the capture starts again */
  save_elog (path, 200, 210, 0, "worker-0");
  poll_reread (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_rewritten, ==, 1);
  g_assert_cmpuint (status.n_events, ==, 10);

  /* a save that ends before the newest kept: again */
  save_elog (path, 0, 10, 0, "worker-0");
  poll_reread (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_rewritten, ==, 2);
  g_assert_cmpuint (status.n_events, ==, 10);

  /* a save that cannot be read is said, and the next one read */
  g_assert_true (g_file_set_contents (path, "\7\0\0\0elog v0", 11, &error));
  poll_reread (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_true (status.unreadable);
  g_assert_cmpuint (status.n_events, ==, 10);
  save_elog (path, 0, 12, 0, "worker-0");
  poll_reread (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_false (status.unreadable);
  g_assert_cmpuint (status.n_events, ==, 12);

  /* removed (for longer than a save takes): gone, what was kept stays;
   * the worker polls, the test waits for its update that says so */
  g_unlink (path);
  cpel_live_capture_start (cap, context, 20, on_update, &seen);
  while (!seen.gone)
    g_main_context_iteration (context, TRUE);
  cpel_live_capture_stop (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_true (status.gone);
  g_assert_cmpuint (status.n_events, ==, 12);
  remove_path (path);
}

/* A file too short to tell yet (a writer has just made it) is told once
 * it holds more: a perf header begun is not taken for CPEL; an empty file
 * that becomes CPEL is read as CPEL. */
static void
test_pending (void)
{
  g_autofree char *path = ring_path ();
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) start = cpel_start ();
  g_autofree char *resolved = NULL;
  CpelLiveSourceKind kind;
  CpelLiveStatus status;

  g_assert_true (g_file_set_contents (path, "PERFIL", 6, &error));
  resolved = cpel_live_source_resolve (path, &kind, &error);
  g_assert_no_error (error);
  g_assert_cmpint (kind, ==, CPEL_LIVE_SOURCE_PENDING);
  g_clear_pointer (&resolved, g_free);

  g_assert_true (g_file_set_contents (path, "", 0, &error));
  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, 0);
  put_events (start, 0, 20);
  append_file (path, start);
  cpel_live_capture_poll (cap);   /* told: CPEL */
  cpel_live_capture_poll (cap);
  cpel_live_capture_get_status (cap, &status);
  g_assert_false (status.gone);
  g_assert_cmpuint (status.n_events, ==, 20);
  remove_path (path);

  /* standard input: a perf.data written to a file cannot be followed
   * (said as such), CPEL can */
  {
    g_autofree char *fixture = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
    g_autofree char *head = NULL;
    gsize len;
    gboolean is_perf;

    g_assert_true (g_file_get_contents (fixture, &head, &len, NULL));
    g_assert_false (cpel_live_stream_sniff ((const guint8 *) head, 16, &is_perf, &error));
    g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED);
    g_clear_error (&error);
    g_assert_true (cpel_live_stream_sniff (start->data, 16, &is_perf, &error));
    g_assert_no_error (error);
    g_assert_false (is_perf);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/live-capture/ring", test_ring);
  g_test_add_func ("/core/live-capture/lapped", test_lapped);
  g_test_add_func ("/core/live-capture/save", test_save);
  g_test_add_func ("/core/live-capture/cpel", test_cpel);
  g_test_add_func ("/core/live-capture/snabb-pid", test_snabb_pid);
  g_test_add_func ("/core/live-capture/worker", test_worker);
  g_test_add_func ("/core/live-capture/elog-saved", test_elog_saved);
  g_test_add_func ("/core/live-capture/pending", test_pending);
  return g_test_run ();
}
