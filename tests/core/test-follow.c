/* SPDX-License-Identifier: Apache-2.0 */
/* test-follow.c — a CPEL file read while sections are appended to it
 * (tests/cpel-append-writer.h writes it in pieces) */
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-append-writer.h"
#include "cpel-error.h"
#include "cpel-follow.h"

typedef struct
{
  char         *dir;
  char         *path;
  CpelFollower *follower;
} Fixture;

static void
fixture_set_up (Fixture      *fx,
                gconstpointer data)
{
  fx->dir = g_dir_make_tmp ("cpel-follow-XXXXXX", NULL);
  g_assert_nonnull (fx->dir);
  fx->path = g_build_filename (fx->dir, "growing.cpel", NULL);
}

static void
fixture_tear_down (Fixture      *fx,
                   gconstpointer data)
{
  g_clear_pointer (&fx->follower, cpel_follower_free);
  g_unlink (fx->path);
  g_rmdir (fx->dir);
  g_free (fx->path);
  g_free (fx->dir);
}

/* Polls once; the events as "time track label code name datum" lines. */
static char *
poll_text (Fixture        *fx,
           CpelFollowInfo *info)
{
  g_autoptr(GError) error = NULL;
  GString *s = g_string_new (NULL);
  gsize n = cpel_follower_poll (fx->follower, 1000, info, &error);

  g_assert_no_error (error);
  for (gsize i = 0; i < n; i++)
    {
      const CpelFollowEvent *ev = cpel_follower_event (fx->follower, i);

      g_string_append_printf (s, "%" G_GINT64_FORMAT " %u %s %u %s %s\n", ev->time_ns,
                              ev->track_id, ev->track_label, ev->code, ev->name, ev->datum);
    }
  return g_string_free (s, FALSE);
}

static void
test_appended (Fixture      *fx,
               gconstpointer data)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GByteArray) defs = cpel_start ();
  g_autoptr(GByteArray) ev = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  CpelFollowInfo info;
  char *text;

  /* an empty file, then its header in two pieces: nothing yet */
  g_assert_true (g_file_set_contents (fx->path, "", 0, NULL));
  fx->follower = cpel_follower_new (fx->path, 0, &error);
  g_assert_no_error (error);
  text = poll_text (fx, &info);
  g_assert_cmpstr (text, ==, "");
  g_assert_false (info.rewritten);
  g_free (text);
  g_byte_array_append (a, defs->data, 5);
  append_file (fx->path, a);
  text = poll_text (fx, &info);
  g_assert_cmpstr (text, ==, "");
  g_assert_false (info.rewritten);
  g_free (text);

  /* the definitions and an events section, byte by byte at its end */
  g_byte_array_set_size (a, 0);
  g_byte_array_append (a, defs->data + 5, defs->len - 5);
  put_events (ev, 1000, 2);
  g_byte_array_append (a, ev->data, ev->len - 3);
  append_file (fx->path, a);
  text = poll_text (fx, &info);
  g_assert_cmpstr (text, ==, "");   /* the events section is not whole */
  g_free (text);
  for (guint i = 3; i > 0; i--)
    {
      g_byte_array_set_size (a, 0);
      g_byte_array_append (a, ev->data + ev->len - i, 1);
      append_file (fx->path, a);
      text = poll_text (fx, &info);
      if (i > 1)
        g_assert_cmpstr (text, ==, "");
      else
        g_assert_cmpstr (text, ==, "0 5 worker 5 1 rx 100 pkts\n100 5 worker 5 1 rx 110 pkts\n");
      g_free (text);
    }
  g_assert_false (info.rewritten);

  /* another section: only its events */
  g_byte_array_set_size (a, 0);
  put_events (a, 5000, 1);
  append_file (fx->path, a);
  text = poll_text (fx, &info);
  g_assert_cmpstr (text, ==, "4000 5 worker 5 1 rx 500 pkts\n");
  g_free (text);
  text = poll_text (fx, &info);
  g_assert_cmpstr (text, ==, "");
  g_free (text);
}

/* Rewritten in place (same inode, other bytes), shortened, removed. */
static void
test_rewritten (Fixture      *fx,
                gconstpointer data)
{
  g_autoptr(GByteArray) a = cpel_start ();
  g_autoptr(GByteArray) b = cpel_start ();
  g_autoptr(GError) error = NULL;
  CpelFollowInfo info;
  char *text;
  FILE *fp;
  off_t defs_len = (off_t) b->len;

  put_events (a, 1000, 3);
  append_file (fx->path, a);
  fx->follower = cpel_follower_new (fx->path, 0, &error);
  g_assert_no_error (error);
  g_free (poll_text (fx, &info));

  /* the same length, other events: the bytes before the read point differ */
  put_events (b, 7000, 3);
  fp = fopen (fx->path, "r+b");
  g_assert_nonnull (fp);
  g_assert_cmpuint (fwrite (b->data, 1, b->len, fp), ==, b->len);
  g_assert_cmpint (fclose (fp), ==, 0);
  text = poll_text (fx, &info);
  g_assert_true (info.rewritten);
  g_assert_cmpstr (text, ==, "0 5 worker 5 1 rx 700 pkts\n100 5 worker 5 1 rx 710 pkts\n"
                   "200 5 worker 5 1 rx 720 pkts\n");
  g_free (text);

  /* shorter: the definitions only */
  g_assert_cmpint (truncate (fx->path, defs_len), ==, 0);
  text = poll_text (fx, &info);
  g_assert_true (info.rewritten);
  g_assert_cmpstr (text, ==, "");
  g_free (text);
  text = poll_text (fx, &info);
  g_assert_false (info.rewritten);
  g_free (text);

  g_unlink (fx->path);
  text = poll_text (fx, &info);
  g_assert_true (info.gone);
  g_free (text);
}

/* A section whose records do not fit, and a version that is not 1. */
static void
test_damaged (Fixture      *fx,
              gconstpointer data)
{
  g_autoptr(GByteArray) a = cpel_start ();
  g_autoptr(GError) error = NULL;
  CpelFollowInfo info;
  gsize at = a->len;

  put_events (a, 0, 2);
  /* its count (after type, length and the 64-byte name) says 1000 */
  a->data[at + 8 + 64] = 0xe8;
  a->data[at + 8 + 65] = 0x03;
  append_file (fx->path, a);
  fx->follower = cpel_follower_new (fx->path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_follower_poll (fx->follower, 100, &info, &error), ==, 0);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SECTION);
  g_assert_nonnull (strstr (error->message, "offset"));
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (fx->path, "\x02\0\0\0\0\0\0\0", 8, NULL));
  g_assert_cmpuint (cpel_follower_poll (fx->follower, 100, &info, &error), ==, 0);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_VERSION);
  g_clear_error (&error);

  /* not CPEL from the start: refused when opened */
  g_assert_null (cpel_follower_new (fx->path, 0, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL);
}

/* A stream (a pipe): bytes taken as they come, a section once whole, the
 * end of the stream is gone. */
static void
test_stream (void)
{
  g_autoptr(GByteArray) a = cpel_start ();
  g_autoptr(CpelFollower) f = NULL;
  g_autoptr(GError) error = NULL;
  CpelFollowInfo info;
  int fds[2];
  gsize half;

  g_assert_cmpint (pipe (fds), ==, 0);
  f = cpel_follower_new_for_fd (fds[0], 0);
  g_assert_cmpuint (cpel_follower_poll (f, 10, &info, &error), ==, 0);
  g_assert_no_error (error);
  g_assert_false (info.gone);

  put_events (a, 1000, 2);
  half = a->len - 10;
  g_assert_cmpint (write (fds[1], a->data, half), ==, (gssize) half);
  g_assert_cmpuint (cpel_follower_poll (f, 10, &info, &error), ==, 0);   /* not whole */
  g_assert_cmpint (write (fds[1], a->data + half, 10), ==, 10);
  g_assert_cmpuint (cpel_follower_poll (f, 1, &info, &error), ==, 1);   /* at most max */
  g_assert_cmpstr (cpel_follower_event (f, 0)->datum, ==, "100 pkts");
  g_assert_cmpuint (cpel_follower_poll (f, 10, &info, &error), ==, 1);
  g_assert_cmpstr (cpel_follower_event (f, 0)->datum, ==, "110 pkts");
  g_assert_cmpint (cpel_follower_event (f, 0)->time_ns, ==, 100);
  g_assert_no_error (error);

  close (fds[1]);
  g_assert_cmpuint (cpel_follower_poll (f, 10, &info, &error), ==, 0);
  g_assert_true (info.gone);
  close (fds[0]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/core/follow/appended", Fixture, NULL, fixture_set_up, test_appended,
              fixture_tear_down);
  g_test_add ("/core/follow/rewritten", Fixture, NULL, fixture_set_up, test_rewritten,
              fixture_tear_down);
  g_test_add ("/core/follow/damaged", Fixture, NULL, fixture_set_up, test_damaged,
              fixture_tear_down);
  g_test_add_func ("/core/follow/stream", test_stream);
  return g_test_run ();
}
