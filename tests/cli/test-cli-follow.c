/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-follow.c — `cpel dump --follow` on a Snabb ring being written
 * (tests/snabb-ring-writer.h) and on a CPEL file that grows.
 *
 * The test waits for the lines it expects (blocking reads of the child's
 * output), never for a time: the writer stops the reader (SIGSTOP) to lap
 * it on purpose. */
#include <signal.h>

#include <gio/gio.h>

#include "cli-test-util.h"
#include "cpel-test-util.h"
#include "cpel-append-writer.h"
#include "snabb-ring-writer.h"

typedef struct
{
  GSubprocess      *proc;
  GDataInputStream *out;
  GDataInputStream *err;
} Follow;

static void
follow_start (Follow     *f,
              const char *source,
              const char *shm_root,
              gboolean    tsv)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  if (shm_root != NULL)
    g_subprocess_launcher_setenv (launcher, "SNABB_SHM_ROOT", shm_root, TRUE);
  f->proc = g_subprocess_launcher_spawn (launcher, &error, cli_path (), "dump", "--follow",
                                         tsv ? "--tsv" : source, tsv ? source : NULL, NULL);
  g_assert_no_error (error);
  f->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (f->proc));
  f->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (f->proc));
}

/* The next line (blocks until it is there); NULL at the end. */
static char *
next_line (GDataInputStream *in)
{
  g_autoptr(GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error);

  g_assert_no_error (error);
  return line;
}

/* Sends a signal, reads the rest, and checks the exit status is 0. */
static void
follow_stop (Follow *f,
             int     sig)
{
  g_autoptr(GError) error = NULL;
  char *line;

  if (sig != 0)
    g_subprocess_send_signal (f->proc, sig);
  while ((line = next_line (f->out)) != NULL)
    g_free (line);
  g_assert_true (g_subprocess_wait (f->proc, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (f->proc));
  g_assert_cmpint (g_subprocess_get_exit_status (f->proc), ==, 0);
  g_clear_object (&f->out);
  g_clear_object (&f->err);
  g_clear_object (&f->proc);
}

/* The TSV line `cpel dump --follow --tsv` prints for entry seq, times counted
 * from entry first; tracks numbered as first seen (test 0 / test 7 1 when
 * first is even). */
static char *
expected_line (guint64 seq,
               guint64 first)
{
  gboolean odd = seq % 2, first_odd = first % 2;
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%" G_GUINT64_FORMAT "\t%u\t%s\t%u\t%s\tseq=%" G_GUINT64_FORMAT,
                          3 * (seq - first), odd == first_odd ? 0 : 1,
                          odd ? "test 7" : "test", odd ? 3 : 0, odd ? "test.odd" : "test.seq",
                          seq);
  for (guint i = 1; i < 6; i++)
    g_string_append_printf (s, " c%u=%.0f", i, snabb_ring_check (seq, i));
  return g_string_free (s, FALSE);
}

/* Waits until the child is stopped (its state in /proc is T). */
static void
wait_stopped (Follow *f)
{
  g_autofree char *stat_path = g_strdup_printf ("/proc/%s/stat",
                                                g_subprocess_get_identifier (f->proc));
  guint64 spins = 0;

  for (;;)
    {
      g_autofree char *text = NULL;
      const char *p;

      g_assert_true (g_file_get_contents (stat_path, &text, NULL, NULL));
      p = strrchr (text, ')');
      g_assert_nonnull (p);
      if (p[1] == ' ' && (p[2] == 'T' || p[2] == 't'))
        return;
      g_assert_cmpuint (++spins, <, 100000000);   /* a failure guard only */
      g_thread_yield ();
    }
}

static guint64
seq_of (const char *line)
{
  const char *p = strstr (line, "\tseq=");

  g_assert_nonnull (p);
  return g_ascii_strtoull (p + 5, NULL, 10);
}

static void
expect_entries (Follow *f,
                guint64 from,
                guint64 to,
                guint64 first)
{
  for (guint64 s = from; s < to; s++)
    {
      g_autofree char *line = next_line (f->out);
      g_autofree char *want = expected_line (s, first);

      g_assert_cmpstr (line, ==, want);
    }
}

static void
test_snabb (void)
{
  char *dir = cli_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "events.timeline", NULL);
  SnabbRing *r = snabb_ring_create (path, 64);
  Follow f = { 0 };
  g_autofree char *header = NULL, *err = NULL, *line = NULL;
  guint64 seq, lost;

  snabb_ring_write (r, 10);
  follow_start (&f, path, NULL, TRUE);
  header = next_line (f.out);
  g_assert_cmpstr (header, ==, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum");
  expect_entries (&f, 0, 10, 0);

  /* more, wrapping the 64-slot ring twice, read as they come */
  for (guint k = 0; k < 4; k++)
    {
      snabb_ring_write (r, 40);
      expect_entries (&f, 10 + 40 * k, 10 + 40 * (k + 1), 0);
    }

  /* the reader stopped while the writer goes round the ring 3 times */
  g_subprocess_send_signal (f.proc, SIGSTOP);
  wait_stopped (&f);
  snabb_ring_write (r, 200);
  g_subprocess_send_signal (f.proc, SIGCONT);
  err = next_line (f.err);
  g_assert_true (g_str_has_prefix (err, "cpel: lost at least "));
  lost = g_ascii_strtoull (err + strlen ("cpel: lost at least "), NULL, 10);
  line = next_line (f.out);
  seq = seq_of (line);
  /* 170..369 written, the stopped reader at 169: entries 170..seq-1 lost */
  g_assert_cmpuint (seq, >, 170);
  g_assert_cmpuint (lost, >=, 1);
  g_assert_cmpuint (lost, <=, seq - 170);
  {
    g_autofree char *want = expected_line (seq, 0);
    g_assert_cmpstr (line, ==, want);
  }
  expect_entries (&f, seq + 1, 370, 0);

  follow_stop (&f, SIGINT);
  snabb_ring_free (r);
  cli_tmpdir_free (dir);
}

/* snabb:PID finds the ring; removing it ends the command with status 0. */
static void
test_snabb_pid_removed (void)
{
  char *dir = cli_tmpdir_new ();
  g_autofree char *pid_dir = g_build_filename (dir, "4242", NULL);
  g_autofree char *path = g_build_filename (pid_dir, "events.timeline", NULL);
  SnabbRing *r;
  Follow f = { 0 };
  g_autofree char *err = NULL;
  g_auto(CliRun) run = { 0 };

  g_assert_cmpint (g_mkdir (pid_dir, 0700), ==, 0);
  r = snabb_ring_create (path, 16);
  snabb_ring_write (r, 3);
  follow_start (&f, "snabb:4242", dir, FALSE);
  {
    /* text lines: ticks (no clock rate), track label padded, "event: text" */
    const char *want[] = {
      "       0 ticks  test  test.seq: seq=0 c1=40520 c2=81023 c3=121526 c4=162029 c5=202532",
      "       3 ticks  test 7  test.odd: seq=1 c1=",
      "       6 ticks  test    test.seq: seq=2 c1=",
    };

    for (guint i = 0; i < G_N_ELEMENTS (want); i++)
      {
        g_autofree char *line = next_line (f.out);
        g_assert_true (g_str_has_prefix (line, want[i]));
      }
  }
  g_unlink (path);
  err = next_line (f.err);
  g_assert_cmpstr (err, ==, "cpel: the ring file was removed: the writer has exited");
  follow_stop (&f, 0);
  snabb_ring_free (r);
  g_rmdir (pid_dir);
  cli_tmpdir_free (dir);

  cli_run (&run, "dump", "--follow", "snabb:12x");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "process id"));
}

static void
test_cpel_growing (void)
{
  char *dir = cli_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "growing.cpel", NULL);
  g_autoptr(GByteArray) a = cpel_start ();
  g_autoptr(GByteArray) more = g_byte_array_new ();
  g_autoptr(GByteArray) half = g_byte_array_new ();
  Follow f = { 0 };
  g_autofree char *header = NULL, *err = NULL;
  const char *lines[] = {
    "0\t5\tworker 5\t1\trx\t100 pkts",
    "100\t5\tworker 5\t1\trx\t110 pkts",
    "1000\t5\tworker 5\t1\trx\t200 pkts",
    "1100\t5\tworker 5\t1\trx\t210 pkts",
    "1200\t5\tworker 5\t1\trx\t220 pkts",
  };

  put_events (a, 1000, 2);
  g_assert_true (g_file_set_contents (path, (const char *) a->data, a->len, NULL));
  follow_start (&f, path, NULL, TRUE);
  header = next_line (f.out);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *line = next_line (f.out);
      g_assert_cmpstr (line, ==, lines[i]);
    }

  /* a section appended in two writes: read once it is whole */
  put_events (more, 2000, 3);
  g_byte_array_append (half, more->data, 30);
  append_file (path, half);
  g_byte_array_remove_range (more, 0, 30);
  append_file (path, more);
  for (guint i = 2; i < 5; i++)
    {
      g_autofree char *line = next_line (f.out);
      g_assert_cmpstr (line, ==, lines[i]);
    }

  /* rewritten shorter: said, and read again from the start */
  {
    g_autoptr(GByteArray) b = cpel_start ();
    g_autofree char *line = NULL;

    put_events (b, 500, 1);
    g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));
    err = next_line (f.err);
    g_assert_cmpstr (err, ==, "cpel: the file was rewritten: reading it again from the start");
    line = next_line (f.out);
    g_assert_cmpstr (line, ==, "0\t5\tworker 5\t1\trx\t50 pkts");
  }
  follow_stop (&f, SIGTERM);
  cli_tmpdir_free (dir);
}

/* A file made empty by its writer, not yet written: told once it holds
 * CPEL, then followed as any CPEL file. */
static void
test_pending (void)
{
  char *dir = cli_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "new.cpel", NULL);
  g_autoptr(GByteArray) a = cpel_start ();
  Follow f = { 0 };
  g_autofree char *header = NULL, *line = NULL;

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  follow_start (&f, path, NULL, TRUE);
  header = next_line (f.out);   /* the TSV header: the command runs */
  put_events (a, 1000, 1);
  append_file (path, a);
  line = next_line (f.out);
  g_assert_cmpstr (line, ==, "0\t5\tworker 5\t1\trx\t100 pkts");
  follow_stop (&f, SIGTERM);
  cli_tmpdir_free (dir);
}

/* `-`: a CPEL stream on standard input, sections in pieces; its end ends
 * the command (status 0). */
static void
test_cpel_stdin (void)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) a = cpel_start ();
  g_autoptr(GByteArray) more = g_byte_array_new ();
  Follow f = { 0 };
  GOutputStream *in;
  g_autofree char *header = NULL;
  const char *lines[] = {
    "0\t5\tworker 5\t1\trx\t100 pkts",
    "1000\t5\tworker 5\t1\trx\t200 pkts",
    "1100\t5\tworker 5\t1\trx\t210 pkts",
  };

  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  f.proc = g_subprocess_launcher_spawn (launcher, &error, cli_path (), "dump", "--follow",
                                        "--tsv", "-", NULL);
  g_assert_no_error (error);
  f.out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (f.proc));
  in = g_subprocess_get_stdin_pipe (f.proc);

  put_events (a, 1000, 1);
  g_assert_true (g_output_stream_write_all (in, a->data, a->len, NULL, NULL, &error));
  g_assert_true (g_output_stream_flush (in, NULL, &error));
  header = next_line (f.out);
  g_assert_cmpstr (header, ==, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum");
  {
    g_autofree char *line = next_line (f.out);
    g_assert_cmpstr (line, ==, lines[0]);
  }
  /* a section in two writes */
  put_events (more, 2000, 2);
  g_assert_true (g_output_stream_write_all (in, more->data, 40, NULL, NULL, &error));
  g_assert_true (g_output_stream_flush (in, NULL, &error));
  g_assert_true (g_output_stream_write_all (in, more->data + 40, more->len - 40, NULL, NULL,
                                            &error));
  g_assert_true (g_output_stream_close (in, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 1; i < 3; i++)
    {
      g_autofree char *line = next_line (f.out);
      g_assert_cmpstr (line, ==, lines[i]);
    }
  follow_stop (&f, 0);   /* the end of the input ends it */
}

/* Files that are not followed this way say so in one line (status 1):
 * a perf.data written to a file (pipe mode is the way), a VPP elog (the
 * viewer reads it again at each save). */
static void
test_refused (void)
{
  g_autofree char *perf = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autofree char *elog = cpel_test_fixture_file ("vpp-sample.elog");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "dump", "--follow", perf);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpuint (count_lines (r.err), ==, 1);
#if HAVE_PERF
  g_assert_nonnull (strstr (r.err, "pipe mode (perf record -o -"));
#else
  g_assert_nonnull (strstr (r.err, "reads no perf.data"));
#endif
  cli_run (&r, "dump", "--follow", elog);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  g_assert_nonnull (strstr (r.err, "cpelview --follow reads it again"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/dump/follow/snabb", test_snabb);
  g_test_add_func ("/cli/dump/follow/snabb-pid-removed", test_snabb_pid_removed);
  g_test_add_func ("/cli/dump/follow/cpel-growing", test_cpel_growing);
  g_test_add_func ("/cli/dump/follow/cpel-stdin", test_cpel_stdin);
  g_test_add_func ("/cli/dump/follow/refused", test_refused);
  g_test_add_func ("/cli/dump/follow/pending", test_pending);
  return g_test_run ();
}
