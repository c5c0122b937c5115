/* SPDX-License-Identifier: Apache-2.0 */
/* test-session-clock.c — the session's time display (cpel-session.h):
 * "capture-clock" (the user's choice, kept across files),
 * "has-capture-clock" (the file's source says what its clock read) and the
 * clock the times are shown on. */
#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-session.h"

static CpelFile *
open_fixture (const char *name)
{
  const char *dir = g_getenv ("CPEL_FIXTURES_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  CpelFile *file;

  g_assert_nonnull (dir);
  path = g_build_filename (dir, name, NULL);
  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return file;
}

static void
count_notify (GObject *object, GParamSpec *pspec, guint *n)
{
  (*n)++;
}

static void
test_clock (void)
{
  g_autoptr(CpelSession) session = cpel_session_new ();
  g_autoptr(CpelFile) elog = open_fixture ("vpp-elog/tiny.elog");
  g_autoptr(CpelFile) cpel = open_fixture ("vpp-sample.cpel");
  guint n_choice = 0, n_has = 0;
  gint64 origin = 1, start;
  gboolean chosen = FALSE;

  g_signal_connect (session, "notify::capture-clock", G_CALLBACK (count_notify), &n_choice);
  g_signal_connect (session, "notify::has-capture-clock", G_CALLBACK (count_notify), &n_has);

  /* no file: no clock, whatever the choice */
  g_assert_false (cpel_session_has_capture_clock (session));
  g_assert_cmpint (cpel_session_get_time_clock (session, &origin), ==, CPEL_CLOCK_NONE);
  g_assert_cmpint (origin, ==, 0);

  /* an elog: its wall clock, once chosen */
  cpel_session_set_file (session, elog);
  g_assert_cmpuint (n_has, ==, 1);
  g_assert_true (cpel_session_has_capture_clock (session));
  g_assert_cmpint (cpel_session_get_time_clock (session, NULL), ==, CPEL_CLOCK_NONE);
  g_object_set (session, "capture-clock", TRUE, NULL);
  g_assert_cmpuint (n_choice, ==, 1);
  cpel_session_set_capture_clock (session, TRUE);
  g_assert_cmpuint (n_choice, ==, 1);
  g_assert_cmpint (cpel_session_get_time_clock (session, &origin), ==, CPEL_CLOCK_WALL);
  g_assert_true (cpel_file_get_capture_start (elog, &start));
  g_assert_cmpint (origin, ==, start + cpel_file_get_base_ns (elog));

  /* a CPEL file: no clock; the choice stays for the next file */
  cpel_session_set_file (session, cpel);
  g_assert_cmpuint (n_has, ==, 2);
  g_assert_false (cpel_session_has_capture_clock (session));
  g_assert_cmpint (cpel_session_get_time_clock (session, NULL), ==, CPEL_CLOCK_NONE);
  g_object_get (session, "capture-clock", &chosen, NULL);
  g_assert_true (chosen);
  cpel_session_set_file (session, elog);
  g_assert_cmpuint (n_has, ==, 3);
  g_assert_cmpint (cpel_session_get_time_clock (session, NULL), ==, CPEL_CLOCK_WALL);
  cpel_session_set_capture_clock (session, FALSE);
  g_assert_cmpuint (n_choice, ==, 2);
  g_assert_cmpint (cpel_session_get_time_clock (session, NULL), ==, CPEL_CLOCK_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/session/capture-clock", test_clock);
  return g_test_run ();
}
