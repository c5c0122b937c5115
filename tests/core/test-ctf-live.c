/* SPDX-License-Identifier: Apache-2.0 */
/* test-ctf-live.c — following an LTTng live session (cpel-ctf-follow.h) and
 * the live capture on one (cpel-live-capture.h): a real session daemon,
 * relay daemon and lttng-ust application (tests/lib/cpel-test-lttng.c);
 * skipped with a message where LTTng cannot run. */
#include <string.h>
#include <glib/gstdio.h>

#include "cpel-error.h"

#include "cpel-ctf-follow.h"
#include "cpel-live-capture.h"
#include "cpel-test-lttng.h"
#include "cpel-test-util.h"

#define POLL_MS      20
#define DEADLINE_US  (120 * G_USEC_PER_SEC)

/* The writer's sequence number in an event's text (msg = "seq=I"), or -1. */
static gint64
seq_of (const char *text)
{
  const char *p = strstr (text, "msg = \"seq=");
  return p != NULL ? g_ascii_strtoll (p + 11, NULL, 10) : -1;
}

/* Waits until the follower's reader has written more (a heartbeat every
 * quarter of a second at least), or ended. */
static void
wait_reader (CpelCtfFollower *f)
{
  g_assert_true (cpel_ctf_follower_wait (f, DEADLINE_US / 1000));
}

typedef struct
{
  GArray  *seqs;         /* gint64, in the order read */
  GArray  *gap_after;    /* guint64 n_lost before seqs[i] (0: none), one per seq */
  guint64  lost;
  guint64  lost_pending;
  gint64   last_ns;
  gboolean attached;
  gboolean gone;
} Seen;

static void
poll_once (CpelCtfFollower *f,
           Seen            *s)
{
  CpelCtfFollowInfo info;
  do
    {
      g_autoptr(GError) error = NULL;
      gsize n = cpel_ctf_follower_poll (f, 4096, &info, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (info.lost_packets, ==, 0);
      s->attached = s->attached || info.attached;
      s->lost += info.lost;
      s->lost_pending += info.lost;
      for (gsize i = 0; i < n; i++)
        {
          const CpelFollowEvent *ev = cpel_ctf_follower_event (f, i);
          gint64 seq = seq_of (ev->datum);

          g_assert_cmpstr (ev->name, ==, "lttng_ust_tracef:event");
          /* procname is cut to 15 bytes by LTTng; the track is the thread's */
          g_assert_true (g_str_has_prefix (ev->track_label, "lttng-tracef-wr ["));
          g_assert_cmpint (seq, >=, 0);
          g_assert_cmpint (ev->time_ns, >=, s->last_ns);
          s->last_ns = ev->time_ns;
          g_array_append_val (s->seqs, seq);
          g_array_append_val (s->gap_after, s->lost_pending);
          s->lost_pending = 0;
        }
      if (info.gone)
        s->gone = TRUE;
    }
  while (info.more);
}

static void
seen_init (Seen *s)
{
  memset (s, 0, sizeof *s);
  s->seqs = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->gap_after = g_array_new (FALSE, FALSE, sizeof (guint64));
}

static void
seen_clear (Seen *s)
{
  g_array_unref (s->seqs);
  g_array_unref (s->gap_after);
}

static CpelTestLttng *
start_or_skip (guint subbuf_size)
{
  g_autofree char *why_not = NULL;
  CpelTestLttng *t = cpel_test_lttng_new (subbuf_size, &why_not);

  if (t == NULL)
    g_test_skip (why_not);
  return t;
}

typedef gboolean (*StatusDone) (const CpelLiveStatus *status);

static gboolean
is_connected (const CpelLiveStatus *status)
{
  return !status->connecting;
}

static gboolean
is_gone (const CpelLiveStatus *status)
{
  return status->gone;
}

static gboolean
has_events (const CpelLiveStatus *status)
{
  return status->n_events > 0;
}

static gboolean
has_failed (const CpelLiveStatus *status)
{
  return status->failed;
}

/* The newest status the capture's worker told (cpel_live_capture_start). */
static CpelLiveStatus worker_told;

static void
on_update (CpelFile             *file,
           const CpelLiveStatus *status,
           gpointer              user_data)
{
  (void) file;
  (void) user_data;
  worker_told = *status;
}

static gboolean
deadline_passed (gpointer data)
{
  g_error ("no update from the capture's worker for %d s", DEADLINE_US / (int) G_USEC_PER_SEC);
  return G_SOURCE_REMOVE;
}

/* Starts the capture's worker: its updates come in the default context. */
static void
capture_start (CpelLiveCapture *cap)
{
  memset (&worker_told, 0, sizeof worker_told);
  cpel_live_capture_get_status (cap, &worker_told);
  cpel_live_capture_start (cap, NULL, 50, on_update, NULL);
}

/* Runs the default context, each update of the worker, until `done` holds
 * of the status it told. */
static void
capture_wait (CpelLiveCapture *cap,
              CpelLiveStatus  *status,
              StatusDone       done)
{
  guint deadline = g_timeout_add_seconds (DEADLINE_US / G_USEC_PER_SEC, deadline_passed, NULL);

  (void) cap;
  while (!done (&worker_told))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (deadline);
  *status = worker_told;
}

/* Polls until the reader has attached to the session: what the session
 * records from then on is read (libbabeltrace2 starts a live session at
 * its newest data). */
static void
wait_attached (CpelCtfFollower *f,
               Seen            *s)
{
  gint64 deadline = g_get_monotonic_time () + DEADLINE_US;

  while (!s->attached)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      poll_once (f, s);
      if (!s->attached)
        wait_reader (f);
    }
  g_assert_cmpuint (s->seqs->len, ==, 0);
}

/* A follower of the session, attached (see wait_attached). */
static CpelCtfFollower *
follow_session (CpelTestLttng *t,
                Seen          *s)
{
  g_autoptr(GError) error = NULL;
  CpelCtfFollower *f;

  seen_init (s);
  f = cpel_ctf_follower_new (cpel_test_lttng_get_url (t), &error);
  g_assert_no_error (error);
  wait_attached (f, s);
  return f;
}

/* Reads until the session's end. */
static void
read_to_end (CpelCtfFollower *f,
             Seen            *s)
{
  gint64 deadline = g_get_monotonic_time () + DEADLINE_US;

  while (!s->gone)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      poll_once (f, s);
      if (!s->gone)
        wait_reader (f);
    }
}

/* Events appear while the application writes them, each once, in order. */
static void
test_follow (void)
{
  g_autoptr(CpelTestLttng) t = start_or_skip (0);
  g_autoptr(CpelCtfFollower) f = NULL;
  const guint n = 3000;
  guint64 before_exit;
  gint64 deadline = g_get_monotonic_time () + DEADLINE_US;
  Seen s;

  if (t == NULL)
    return;
  f = follow_session (t, &s);
  cpel_test_lttng_start_writer (t, n, 1000);
  while (!cpel_test_lttng_writer_done (t))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      poll_once (f, &s);
      wait_reader (f);
    }
  before_exit = s.seqs->len;
  g_test_message ("%" G_GUINT64_FORMAT " of %u events read while the writer ran",
                  before_exit, n);
  /* live: the session sends every 100 ms, the writer takes 3 s or more */
  g_assert_cmpuint (before_exit, >, 0);
  cpel_test_lttng_end (t);
  read_to_end (f, &s);
  g_assert_cmpuint (s.lost, ==, 0);
  g_assert_cmpuint (s.seqs->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (g_array_index (s.seqs, gint64, i), ==, i);
  seen_clear (&s);
}

/* A ring too small for the writer: LTTng discards events and counts them,
 * per packet (CTF's events_discarded, a snapshot taken when a packet
 * closes).  The counts add up exactly; a gap is never told before the
 * events were lost (where the writer's sequence jumps), and where a count
 * holds losses from before the packet's first event too (the live timer
 * closed a packet while events were being discarded) it is late by at
 * most a packet: every jump is told within PACKET_EVENTS events. */
#define PACKET_EVENTS 256   /* events of a 4 KiB packet, at most */

static void
test_discarded (void)
{
  g_autoptr(CpelTestLttng) t = start_or_skip (4096);
  g_autoptr(CpelCtfFollower) f = NULL;
  const guint n = 200000;
  gint64 deadline = g_get_monotonic_time () + DEADLINE_US;
  guint gaps = 0;
  Seen s;

  if (t == NULL)
    return;
  f = follow_session (t, &s);
  /* a few events at a pace the ring holds, until the reader has them (see
   * cpel_test_lttng_end), then a burst it cannot hold */
  cpel_test_lttng_start_writer (t, 100, 1000);
  while (!cpel_test_lttng_writer_done (t) || s.seqs->len == 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      poll_once (f, &s);
      wait_reader (f);
    }
  cpel_test_lttng_write (t, n - 100, 0, 100);
  cpel_test_lttng_end (t);
  read_to_end (f, &s);
  g_test_message ("%u events read, %" G_GUINT64_FORMAT " discarded", s.seqs->len, s.lost);
  g_assert_cmpuint (s.lost, >, 0);
  g_assert_cmpuint (s.seqs->len + s.lost, ==, n);
  {
    /* told[i]: losses told before event i; lost[i]: lost before it */
    g_autofree gint64 *told = g_new0 (gint64, s.seqs->len + 1);
    guint exact = 0, late = 0;

    for (guint i = 0; i < s.seqs->len; i++)
      told[i + 1] = told[i] + (gint64) g_array_index (s.gap_after, guint64, i);
    for (guint i = 0; i < s.seqs->len; i++)
      {
        gint64 lost_before = g_array_index (s.seqs, gint64, i) - i;
        gint64 told_before = told[i + 1];
        gint64 told_later = told[MIN (i + PACKET_EVENTS, s.seqs->len)];
        gint64 prev = i > 0 ? g_array_index (s.seqs, gint64, i - 1) : -1;
        gint64 jump = g_array_index (s.seqs, gint64, i) - prev - 1;

        /* never told before it happened; told within a packet after */
        g_assert_cmpint (told_before, <=, lost_before);
        if (i + PACKET_EVENTS <= s.seqs->len)
          g_assert_cmpint (lost_before, <=, told_later);
        if (jump > 0)
          {
            gaps++;
            if (jump == (gint64) g_array_index (s.gap_after, guint64, i))
              exact++;
            else
              late++;
          }
      }
    g_test_message ("%u jumps told where they are, %u told up to a packet late", exact, late);
  }
  /* what was lost after the last event read */
  g_assert_cmpint ((gint64) s.lost_pending, ==,
                   (gint64) n - 1 - g_array_index (s.seqs, gint64, s.seqs->len - 1));
  g_test_message ("%u gaps", gaps);
  seen_clear (&s);
}

/* A session that is not there, a relay daemon that is not: said in words. */
static void
test_missing (void)
{
  g_autoptr(CpelTestLttng) t = start_or_skip (0);
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  CpelCtfFollowInfo info;

  if (t == NULL)
    return;
  url = g_strdup_printf ("%s/host/nohost/nosession", cpel_test_lttng_get_relay (t));
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(CpelCtfFollower) f = cpel_ctf_follower_new (url, &error);
      gint64 deadline = g_get_monotonic_time () + DEADLINE_US;

      g_assert_no_error (error);
      while (error == NULL)
        {
          g_assert_cmpint (g_get_monotonic_time (), <, deadline);
          g_assert_cmpuint (cpel_ctf_follower_poll (f, 16, &info, &error), ==, 0);
          if (error == NULL)
            wait_reader (f);
        }
      g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
      g_assert_nonnull (strstr (error->message,
                                k == 0 ? "No LTTng live session" : "cannot be reached"));
      g_test_message ("%s", error->message);
      g_clear_error (&error);
      /* the error again at the next poll */
      g_assert_cmpuint (cpel_ctf_follower_poll (f, 16, &info, &error), ==, 0);
      g_assert_nonnull (error);
      g_clear_error (&error);
      g_free (url);
      url = g_strdup ("net://127.0.0.1:1/host/nohost/nosession");
    }
  /* not a live URL: refused at once */
  g_assert_null (cpel_ctf_follower_new ("/tmp/nosession", &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
}

/* The live capture: everything the session recorded, kept, saved as CPEL
 * after the session ended, and read back the same. */
static void
test_live_capture (void)
{
  g_autoptr(CpelTestLttng) t = start_or_skip (0);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelFile) cf = NULL;
  g_autoptr(CpelFile) saved = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  const guint n = 500;
  CpelLiveStatus status = { 0 };
  CpelLiveSourceKind kind;
  g_autofree char *resolved = NULL;

  if (t == NULL)
    return;
  resolved = cpel_live_source_resolve (cpel_test_lttng_get_url (t), &kind, &error);
  g_assert_no_error (error);
  g_assert_cmpint (kind, ==, CPEL_LIVE_SOURCE_LTTNG);
  cap = cpel_live_capture_new (cpel_test_lttng_get_url (t), 0, &error);
  g_assert_no_error (error);
  cpel_live_capture_get_status (cap, &status);
  g_assert_true (status.connecting);
  capture_start (cap);
  capture_wait (cap, &status, is_connected);
  cpel_test_lttng_start_writer (t, n, 1000);
  capture_wait (cap, &status, has_events);
  cpel_test_lttng_wait_writer (t);
  cpel_test_lttng_end (t);
  capture_wait (cap, &status, is_gone);
  g_assert_cmpuint (status.n_events, ==, n);
  g_assert_cmpuint (status.n_lost, ==, 0);
  g_assert_true (status.lost_exact);

  dir = g_dir_make_tmp ("cpel-lttng-save-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "saved.cpel", NULL);
  g_assert_true (cpel_live_capture_save (cap, path, &error));
  g_assert_no_error (error);
  cf = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  saved = cpel_file_new_for_cpel_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (CpelFile *file = cf; file != NULL; file = file == cf ? saved : NULL)
    {
      guint64 next = 0;

      g_assert_cmpuint (cpel_file_get_n_events (file), ==, n);
      g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 1);
      g_assert_true (g_str_has_prefix (cpel_file_get_track_label (file, 0), "lttng-tracef-wr ["));
      for (guint64 i = 0; i < n; i++)
        {
          CpelEvent ev;

          cpel_file_get_track_event (file, 0, i, &ev);
          g_string_truncate (text, 0);
          cpel_file_append_datum (file, &ev, text);
          g_assert_cmpint (seq_of (text->str), ==, (gint64) next++);
        }
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* The live capture on a session that is not there: failed, and why. */
static void
test_live_capture_missing (void)
{
  g_autoptr(CpelTestLttng) t = start_or_skip (0);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autofree char *url = NULL;
  CpelLiveStatus status = { 0 };

  if (t == NULL)
    return;
  url = g_strdup_printf ("%s/host/nohost/nosession", cpel_test_lttng_get_relay (t));
  cap = cpel_live_capture_new (url, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cpel_live_capture_get_kind (cap), ==, CPEL_LIVE_SOURCE_LTTNG);
  g_assert_null (cpel_live_capture_dup_error (cap));
  capture_start (cap);
  capture_wait (cap, &status, has_failed);
  g_assert_true (status.gone);
  g_assert_cmpuint (status.n_events, ==, 0);
  error = cpel_live_capture_dup_error (cap);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "No LTTng live session"));
}

/* ---- what a reader writes, checked as untrusted input -------------------- */

static void
put_record (GByteArray   *out,
            char          type,
            const void   *data,
            guint32       len)
{
  guint8 head[8] = { (guint8) type, 0, 0, 0 };

  memcpy (head + 4, &len, 4);
  g_byte_array_append (out, head, 8);
  if (len > 0)
    g_byte_array_append (out, data, len);
}

/* An 'E' record of events on track 0, class 0, texts "e<seq>"; the one
 * at `bad` (G_MAXUINT: none) on a track there is not. */
static void
put_events (GByteArray *out,
            guint       bad,
            gint64      ns0,
            guint       first,
            guint       n)
{
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  g_autoptr(GString) texts = g_string_new (NULL);
  guint32 count = n;

  g_byte_array_append (rec, (const guint8 *) &count, 4);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("e%u", first + i);
      gint64 ns = ns0 + (gint64) i * 1000;
      guint32 cls = 0, datum = first + i, len = (guint32) strlen (text);
      guint32 track = i == bad ? 7 : 0;

      g_byte_array_append (rec, (const guint8 *) &ns, 8);
      g_byte_array_append (rec, (const guint8 *) &track, 4);
      g_byte_array_append (rec, (const guint8 *) &cls, 4);
      g_byte_array_append (rec, (const guint8 *) &datum, 4);
      g_byte_array_append (rec, (const guint8 *) &len, 4);
      g_string_append (texts, text);
    }
  g_byte_array_append (rec, (const guint8 *) texts->str, (guint) texts->len);
  put_record (out, 'E', rec->data, rec->len);
}

/* A reader script that writes `wire`: its path (freed with the folder by
 * the caller: *dir). */
static char *
reader_script (GByteArray *wire,
               char      **dir)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *wire_path = NULL;
  g_autofree char *body = NULL;
  char *script;

  *dir = g_dir_make_tmp ("cpel-ctf-reader-XXXXXX", &error);
  g_assert_no_error (error);
  wire_path = g_build_filename (*dir, "wire", NULL);
  script = g_build_filename (*dir, "reader", NULL);
  body = g_strdup_printf ("#!/bin/sh\nexec cat '%s'\n", wire_path);
  g_assert_true (g_file_set_contents (wire_path, (const char *) wire->data, wire->len, &error));
  g_assert_true (g_file_set_contents (script, body, -1, &error));
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  return script;
}

static void
remove_script (char *dir)
{
  g_autofree char *wire_path = g_build_filename (dir, "wire", NULL);
  g_autofree char *script = g_build_filename (dir, "reader", NULL);

  g_unlink (wire_path);
  g_unlink (script);
  g_rmdir (dir);
  g_free (dir);
}

/* A reader (CPEL_CTF_READER: a script that writes `wire`) whose output
 * holds a loss and then a record that does not hold together: the events
 * before are handed out with the loss where it was told, none of the bad
 * record's, then the error, again at every later poll. */
static void
test_hostile_reader (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *script = NULL;
  char *dir = NULL;
  g_autoptr(GByteArray) wire = g_byte_array_new ();
  g_autoptr(CpelCtfFollower) f = NULL;
  guint64 counts[2] = { 5, 0 };
  gint64 deadline = g_get_monotonic_time () + DEADLINE_US;
  guint n_seen = 0, lost_at = G_MAXUINT;
  gboolean attached = FALSE;
  GError *failure = NULL;

  g_byte_array_append (wire, (const guint8 *) "CPELCTF1", 8);
  put_record (wire, 'A', NULL, 0);
  put_record (wire, 'T', "app [7]", 7);
  put_record (wire, 'C', "ev", 2);
  put_events (wire, G_MAXUINT, 1000000, 0, 3);
  put_record (wire, 'N', "s: 5 events discarded", 21);
  put_record (wire, 'X', counts, sizeof counts);
  put_events (wire, G_MAXUINT, 2000000, 8, 2);
  put_events (wire, 2, 3000000, 10, 4);   /* its third on track 7: there is none */
  script = reader_script (wire, &dir);

  g_setenv ("CPEL_CTF_READER", script, TRUE);
  f = cpel_ctf_follower_new ("net://127.0.0.1/host/h/s", &error);
  g_unsetenv ("CPEL_CTF_READER");
  g_assert_no_error (error);
  while (failure == NULL)
    {
      CpelCtfFollowInfo info;
      gsize n;

      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      n = cpel_ctf_follower_poll (f, 16, &info, &failure);
      attached = attached || info.attached;
      if (info.lost > 0)
        {
          g_assert_cmpuint (info.lost, ==, 5);
          g_assert_cmpuint (lost_at, ==, G_MAXUINT);
          lost_at = n_seen;
        }
      for (gsize i = 0; i < n; i++)
        {
          const CpelFollowEvent *ev = cpel_ctf_follower_event (f, i);
          guint want = n_seen < 3 ? n_seen : n_seen + 5;
          g_autofree char *text = g_strdup_printf ("e%u", want);

          g_assert_cmpstr (ev->datum, ==, text);
          g_assert_cmpstr (ev->track_label, ==, "app [7]");
          g_assert_cmpstr (ev->name, ==, "ev");
          n_seen++;
        }
      if (failure == NULL && n == 0 && !info.more)
        wait_reader (f);
    }
  g_assert_true (attached);
  g_assert_cmpuint (n_seen, ==, 5);
  g_assert_cmpuint (lost_at, ==, 3);
  g_assert_error (failure, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
  g_assert_nonnull (strstr (failure->message, "does not hold together"));
  g_clear_error (&failure);
  {
    CpelCtfFollowInfo info;

    g_assert_cmpuint (cpel_ctf_follower_poll (f, 16, &info, &failure), ==, 0);
    g_assert_error (failure, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
    g_clear_error (&failure);
  }
  remove_script (dir);
}

/* The live capture keeps the session's clock: a CTF clock counting from
 * 1970 dates the capture and gives its wall clock, saved with it. */
static void
test_live_capture_clock (void)
{
  const gint64 first_ns = G_GINT64_CONSTANT (1796300000123456789);
  g_autoptr(GByteArray) wire = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelFile) cf = NULL;
  g_autoptr(CpelFile) saved = NULL;
  g_autofree char *script = NULL;
  g_autofree char *path = NULL;
  char *dir = NULL;
  guint8 clock[12 + 9];
  guint64 freq = 1000000000;
  guint32 unix_epoch = 1;
  CpelLiveStatus status = { 0 };

  g_byte_array_append (wire, (const guint8 *) "CPELCTF1", 8);
  put_record (wire, 'T', "app [7]", 7);
  put_record (wire, 'C', "ev", 2);
  memcpy (clock, &freq, 8);
  memcpy (clock + 8, &unix_epoch, 4);
  memcpy (clock + 12, "monotonic", 9);
  put_record (wire, 'K', clock, sizeof clock);
  put_record (wire, 'A', NULL, 0);
  put_events (wire, G_MAXUINT, first_ns, 0, 3);
  put_record (wire, 'Z', NULL, 0);
  script = reader_script (wire, &dir);

  g_setenv ("CPEL_CTF_READER", script, TRUE);
  cap = cpel_live_capture_new ("net://127.0.0.1/host/h/s", 0, &error);
  g_unsetenv ("CPEL_CTF_READER");
  g_assert_no_error (error);
  capture_start (cap);
  capture_wait (cap, &status, is_gone);
  g_assert_false (status.failed);
  g_assert_false (status.connecting);
  g_assert_cmpuint (status.n_events, ==, 3);
  cf = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "saved.cpel", NULL);
  g_assert_true (cpel_live_capture_save (cap, path, &error));
  saved = cpel_file_new_for_cpel_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (CpelFile *file = cf; file != NULL; file = file == cf ? saved : NULL)
    {
      gint64 origin = 0;
      g_autofree char *said = NULL;

      g_assert_cmpint (cpel_file_get_clock_origin (file, &origin), ==, CPEL_CLOCK_WALL);
      g_assert_cmpint (origin, ==, first_ns);
      said = cpel_file_describe_clock_origin (file);
      g_assert_nonnull (said);
      g_test_message ("%s", said);
      g_assert_cmpint (cpel_file_get_duration (file), ==, 2000);
    }
  g_unlink (path);
  remove_script (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/ctf/live/follow", test_follow);
  g_test_add_func ("/core/import/ctf/live/discarded", test_discarded);
  g_test_add_func ("/core/import/ctf/live/missing", test_missing);
  g_test_add_func ("/core/live-capture/lttng", test_live_capture);
  g_test_add_func ("/core/live-capture/lttng-missing", test_live_capture_missing);
  g_test_add_func ("/core/import/ctf/live/hostile-reader", test_hostile_reader);
  g_test_add_func ("/core/live-capture/lttng-clock", test_live_capture_clock);
  return g_test_run ();
}
