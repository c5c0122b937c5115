/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-follow-lttng.c — `cpel dump --follow` on an LTTng live session:
 * a real session daemon, relay daemon and lttng-ust application
 * (tests/lib/cpel-test-lttng.c); skipped with a message where LTTng cannot
 * run.
 *
 * The test waits for the lines it expects (blocking reads of the child's
 * output), never for a time. */
#include <signal.h>
#include <string.h>

#include <gio/gio.h>

#include "cli-test-util.h"
#include "cpel-test-lttng.h"
#include "cpel-test-util.h"

static char *
next_line (GDataInputStream *in)
{
  g_autoptr(GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error);
  g_assert_no_error (error);
  return line;
}

/* The command has attached to the session (its line on stderr): what the
 * session records from now on is printed. */
static void
wait_attached (GDataInputStream *err)
{
  g_autofree char *said = next_line (err);

  g_assert_cmpstr (said, ==,
                   "cpel: reading the LTTng session: what it records from now on follows");
}

static CpelTestLttng *
start_or_skip (void)
{
  g_autofree char *why_not = NULL;
  CpelTestLttng *t = cpel_test_lttng_new (0, &why_not);

  if (t == NULL)
    g_test_skip (why_not);
  return t;
}

/* `cpel dump --follow --tsv URL` running, its output and error read a
 * line at a time. */
typedef struct
{
  GSubprocess      *proc;
  GDataInputStream *out;
  GDataInputStream *err;
} Cmd;

static void
cmd_start (Cmd        *c,
           const char *url)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  c->proc = g_subprocess_launcher_spawn (launcher, &error, cli_path (), "dump", "--follow",
                                         "--tsv", url, NULL);
  g_assert_no_error (error);
  c->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (c->proc));
  c->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (c->proc));
}

/* Waits for the command's end: exit status 0, or not 0. */
static void
cmd_finish (Cmd      *c,
            gboolean  success)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_subprocess_wait (c->proc, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (c->proc));
  if (success)
    g_assert_cmpint (g_subprocess_get_exit_status (c->proc), ==, 0);
  else
    g_assert_cmpint (g_subprocess_get_exit_status (c->proc), !=, 0);
  g_clear_object (&c->out);
  g_clear_object (&c->err);
  g_clear_object (&c->proc);
}

/* Each event as a TSV line while the application writes, in order; the
 * session's end ends the command (status 0) with a line on stderr. */
static void
test_follow (void)
{
  g_autoptr(CpelTestLttng) t = start_or_skip ();
  g_autofree char *header = NULL;
  g_autofree char *said = NULL;
  const guint n = 200;
  Cmd c;

  if (t == NULL)
    return;
  cmd_start (&c, cpel_test_lttng_get_url (t));
  header = next_line (c.out);
  g_assert_cmpstr (header, ==, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum");
  wait_attached (c.err);
  cpel_test_lttng_start_writer (t, n, 1000);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = next_line (c.out);
      g_auto(GStrv) cols = NULL;
      g_autofree char *msg = g_strdup_printf ("seq=%u", i);
      g_autofree char *want = g_strdup_printf ("_msg_length = %u, msg = \"%s\"",
                                               (guint) strlen (msg), msg);

      g_assert_nonnull (line);
      cols = g_strsplit (line, "\t", -1);
      g_assert_cmpuint (g_strv_length (cols), ==, 6);
      g_assert_true (g_str_has_prefix (cols[2], "lttng-tracef-wr ["));
      g_assert_cmpstr (cols[4], ==, "lttng_ust_tracef:event");
      g_assert_cmpstr (cols[5], ==, want);
    }
  cpel_test_lttng_wait_writer (t);
  cpel_test_lttng_end (t);
  said = next_line (c.err);
  g_assert_cmpstr (said, ==, "cpel: the LTTng session ended");
  g_assert_null (next_line (c.out));
  cmd_finish (&c, TRUE);
}

/* SIGINT ends it cleanly (status 0), the session still running. */
static void
test_sigint (void)
{
  g_autoptr(CpelTestLttng) t = start_or_skip ();
  g_autofree char *header = NULL;
  g_autofree char *first = NULL;
  Cmd c;

  if (t == NULL)
    return;
  cmd_start (&c, cpel_test_lttng_get_url (t));
  header = next_line (c.out);
  wait_attached (c.err);
  cpel_test_lttng_write (t, 5, 0, 0);
  first = next_line (c.out);
  g_assert_nonnull (strstr (first, "seq=0"));
  g_subprocess_send_signal (c.proc, SIGINT);
  cmd_finish (&c, TRUE);
}

/* A session that is not there: an error in words, status not 0. */
static void
test_missing (void)
{
  g_autoptr(CpelTestLttng) t = start_or_skip ();
  g_autofree char *url = NULL;
  g_autofree char *said = NULL;
  Cmd c;

  if (t == NULL)
    return;
  url = g_strdup_printf ("%s/host/nohost/nosession", cpel_test_lttng_get_relay (t));
  cmd_start (&c, url);
  said = next_line (c.err);
  g_assert_true (g_str_has_prefix (said, "cpel: "));
  g_assert_nonnull (strstr (said, "No LTTng live session"));
  cmd_finish (&c, FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/dump/follow/lttng", test_follow);
  g_test_add_func ("/cli/dump/follow/lttng-sigint", test_sigint);
  g_test_add_func ("/cli/dump/follow/lttng-missing", test_missing);
  return g_test_run ();
}
