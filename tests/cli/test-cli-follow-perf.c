/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-follow-perf.c — `cpel dump --follow -` on a perf pipe-mode
 * stream: a fixture written again in pipe mode (tests/cpel-perf-pipe-writer.h)
 * fed in pieces, with a LOST record; and, as root, a live
 * `perf record -o - | cpel dump --follow -`.
 *
 * The test waits for the lines it expects (blocking reads of the child's
 * output), never for a time. */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "cli-test-util.h"
#include "cpel-test-util.h"
#include "cpel-perf-pipe-writer.h"

static char *
next_line (GDataInputStream *in)
{
  g_autoptr(GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error);
  g_assert_no_error (error);
  return line;
}

/* The sched-wakeup fixture (147 samples) in pipe mode, a LOST record of 7
 * after its first sample; the header and the first sample written first:
 * its line comes before the rest is written; the rest in two writes split
 * inside a record.  stderr says "lost 7 events"; the end of the input
 * ends the command (status 0). */
static void
test_stdin (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_autoptr(GBytes) file = g_bytes_new_take (g_steal_pointer (&data), len);
  g_autoptr(GBytes) pipe = cpel_test_perf_to_pipe (file, NULL);
  gsize plen;
  const guint8 *p = g_bytes_get_data (pipe, &plen);

  /* the first SAMPLE: after it, the LOST record */
  gsize pos = 16, first_sample_end = 0;
  while (pos + 8 <= plen && first_sample_end == 0)
    {
      guint32 type;
      guint16 size;
      memcpy (&type, p + pos, 4);
      memcpy (&size, p + pos + 6, 2);
      g_assert_cmpuint (size, >=, 8);
      pos += size;
      if (type == 66)
        {
          guint32 tsize;
          memcpy (&tsize, p + pos - size + 8, 4);
          pos += tsize;
        }
      if (type == 9)
        first_sample_end = pos;
    }
  g_assert_cmpuint (first_sample_end, >, 0);
  g_autoptr(GByteArray) lost = g_byte_array_new ();
  cpel_test_pipe_hdr (lost, 2, 0, 24);
  guint64 id = 0, n = 7;
  g_byte_array_append (lost, (const guint8 *) &id, 8);
  g_byte_array_append (lost, (const guint8 *) &n, 8);

  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                               | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GError) error = NULL;
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_autoptr(GSubprocess) proc = g_subprocess_launcher_spawn (launcher, &error, cli_path (), "dump",
                                                             "--follow", "-", NULL);
  g_assert_no_error (error);
  g_autoptr(GDataInputStream) out =
    g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  g_autoptr(GDataInputStream) err =
    g_data_input_stream_new (g_subprocess_get_stderr_pipe (proc));
  GOutputStream *in = g_subprocess_get_stdin_pipe (proc);

  g_assert_true (g_output_stream_write_all (in, p, first_sample_end, NULL, NULL, &error));
  g_assert_true (g_output_stream_flush (in, NULL, &error));
  {
    g_autofree char *line = next_line (out);
    g_assert_nonnull (line);
    g_assert_nonnull (strstr (line, "sched:sched_"));
  }
  gsize rest = plen - first_sample_end;
  g_assert_true (g_output_stream_write_all (in, lost->data, lost->len, NULL, NULL, &error));
  g_assert_true (g_output_stream_write_all (in, p + first_sample_end, rest / 2 + 3, NULL, NULL,
                                            &error));
  g_assert_true (g_output_stream_flush (in, NULL, &error));
  g_assert_true (g_output_stream_write_all (in, p + first_sample_end + rest / 2 + 3,
                                            rest - rest / 2 - 3, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (in, NULL, &error));
  g_assert_no_error (error);

  guint n_lines = 1;
  char *line;
  while ((line = next_line (out)) != NULL)
    {
      g_assert_nonnull (strstr (line, "sched:sched_"));
      n_lines++;
      g_free (line);
    }
  g_assert_cmpuint (n_lines, ==, 147);
  g_autofree char *e = next_line (err);
  g_assert_cmpstr (e, ==, "cpel: lost 7 events");
  g_assert_true (g_subprocess_wait (proc, NULL, &error));
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
}

/* perf record -o - | tee | cpel dump --follow -: one line per sample
 * perf script reads from the copy (as root; skipped where perf cannot
 * record). */
static void
test_live (void)
{
  g_autofree char *perf = g_find_program_in_path ("perf");
  if (perf == NULL)
    {
      g_test_skip ("perf (Debian linux-perf) is not installed: skipping");
      return;
    }
  char *dir = cli_tmpdir_new ();
  g_autofree char *copy = g_build_filename (dir, "copy.data", NULL);
  g_autofree char *cmd = g_strdup_printf ("%s record -q -o - -e sched:sched_switch -a -- "
                                          "sleep 0.2 2>/dev/null | tee %s | %s dump --follow -",
                                          perf, copy, cli_path ());
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GError) error = NULL;
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  g_autoptr(GSubprocess) proc = g_subprocess_launcher_spawn (launcher, &error, "sh", "-c", cmd,
                                                             NULL);
  g_assert_no_error (error);
  g_autofree char *stdout_text = NULL, *stderr_text = NULL;
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &stdout_text, &stderr_text,
                                                &error));
  g_assert_no_error (error);

  GStatBuf st;
  if (g_stat (copy, &st) != 0 || st.st_size <= 16)
    {
      g_test_skip ("perf record is not permitted here (not root, perf_event_paranoid): skipping");
      cli_tmpdir_free (dir);
      return;
    }
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  g_autofree char *script = NULL;
  g_autofree char *script_cmd = g_strdup_printf ("%s script -i %s", perf, copy);
  int status = 0;
  g_assert_true (g_spawn_command_line_sync (script_cmd, &script, NULL, &status, &error));
  g_assert_no_error (error);
  guint n_script = 0, n_ours = 0;
  for (const char *c = script; *c; c++)
    n_script += *c == '\n';
  for (const char *c = stdout_text; *c; c++)
    n_ours += *c == '\n';
  g_test_message ("live: %u lines, perf script %u", n_ours, n_script);
  g_assert_cmpuint (n_ours, >, 0);
  g_assert_cmpuint (n_ours, ==, n_script);
  g_assert_nonnull (strstr (stdout_text, "sched:sched_switch: prev_comm="));
  cli_tmpdir_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/dump/follow/perf-stdin", test_stdin);
  g_test_add_func ("/cli/dump/follow/perf-live", test_live);
  return g_test_run ();
}
