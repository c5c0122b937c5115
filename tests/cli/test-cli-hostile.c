/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-hostile.c — odd input on the command line
 *
 * /cli/hostile/regex: a regex with catastrophic backtracking stops `cpel
 * search` with "too complex" (exit 1), streamed and indexed, not after
 * minutes.
 * /cli/hostile/negative-time: a negative --from / --to is a usage error.
 * /cli/hostile/escaped-names: a file name with control characters is
 * printed escaped (\x1b, \n), never raw to the terminal.
 * /cli/hostile/unreadable-folder: a folder that cannot be read is
 * "Permission denied", not "a folder, not a file" (as root: checked in a
 * child that drops to the user nobody).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpel-core.h"
#include "cli-test-util.h"

#define TOO_COMPLEX "^([\\w: ]+ ?)*[!?]$"

static void
test_regex (void)
{
  g_autofree char *dir = cli_tmpdir_new ();
  g_autofree char *sorted = g_build_filename (dir, "sorted.cpel", NULL);
  g_autofree char *mixed = g_build_filename (dir, "mixed.cpel", NULL);
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "gen", "--events", "2000", "--tracks", "4", "--sorted", sorted);
  g_assert_cmpint (r.status, ==, 0);
  cli_run (&r, "gen", "--events", "2000", "--tracks", "4", mixed);
  g_assert_cmpint (r.status, ==, 0);
  /* time-ordered: streamed, each label tested as it comes */
  cli_run (&r, "search", sorted, "--regex", TOO_COMPLEX);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "too complex"));
  /* out of order: the indexed search */
  cli_run (&r, "search", mixed, "--regex", TOO_COMPLEX, "--count");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "too complex"));
  g_assert_cmpstr (r.out, ==, "");
  g_unlink (sorted);
  g_unlink (mixed);
  cli_tmpdir_free (g_steal_pointer (&dir));
}

static void
test_negative_time (void)
{
  g_autofree char *dir = cli_tmpdir_new ();
  g_autofree char *sample = g_build_filename (dir, "s.cpel", NULL);
  g_autofree char *out = g_build_filename (dir, "out.cpel", NULL);
  g_autofree char *png = g_build_filename (dir, "out.png", NULL);
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "gen", "--events", "100", "--tracks", "2", sample);
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; i < 6; i++)
    {
      switch (i)
        {
        case 0: cli_run (&r, "dump", sample, "--from", "-1ms"); break;
        case 1: cli_run (&r, "dump", sample, "--to", "-5"); break;
        case 2: cli_run (&r, "stats", sample, "--from", "-1us", "--to", "1ms"); break;
        case 3: cli_run (&r, "cut", sample, out, "--from", "-1ms", "--to", "1ms"); break;
        case 4: cli_run (&r, "export", "--png", png, "--from", "-0.5s", sample); break;
        case 5: cli_run (&r, "diff", sample, sample, "--from", "-2ns"); break;
        default: g_assert_not_reached ();
        }
      g_test_message ("case %u: %s", i, r.err);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, "never negative"));
    }
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  g_unlink (sample);
  cli_tmpdir_free (g_steal_pointer (&dir));
}

/* No byte below 0x20 but the line ends; no DEL. */
static void
assert_no_control (const char *s)
{
  for (const guchar *p = (const guchar *) s; *p; p++)
    if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
      g_error ("control byte 0x%02x in “%s”", *p, s);
}

static void
test_escaped_names (void)
{
  g_autofree char *dir = cli_tmpdir_new ();
  g_autofree char *bad = g_build_filename (dir, "bad\x1b[2J\rname\n.cpel", NULL);
  g_autofree char *missing = g_build_filename (dir, "gone\x1b]0;title\x07.cpel", NULL);
  g_autofree char *out = g_build_filename (dir, "out\x1b[1m.cpel", NULL);
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "gen", "--events", "100", "--tracks", "2", bad);
  g_assert_cmpint (r.status, ==, 0);
  assert_no_control (r.out);
  assert_no_control (r.err);

  /* printed on success */
  cli_run (&r, "info", bad);
  g_assert_cmpint (r.status, ==, 0);
  assert_no_control (r.out);
  g_assert_nonnull (strstr (r.out, "bad\\x1b[2J\\rname\\n.cpel"));
  cli_run (&r, "cut", bad, out, "--from", "0", "--to", "1s");
  g_assert_cmpint (r.status, ==, 0);
  assert_no_control (r.out);
  g_assert_nonnull (strstr (r.out, "out\\x1b[1m.cpel"));
  cli_run (&r, "diff", bad, out);
  assert_no_control (r.out);

  /* in errors */
  cli_run (&r, "info", missing);
  g_assert_cmpint (r.status, ==, 1);
  assert_no_control (r.err);
  g_assert_nonnull (strstr (r.err, "gone\\x1b]0;title\\x07.cpel"));
  cli_run (&r, "cut", bad, out, "--from", "0", "--to", "1s");
  g_assert_cmpint (r.status, ==, 1);
  assert_no_control (r.err);
  g_assert_nonnull (strstr (r.err, "out\\x1b[1m.cpel"));
  g_unlink (bad);
  g_unlink (out);
  cli_tmpdir_free (g_steal_pointer (&dir));
}

static void
test_unreadable_folder (void)
{
  g_autofree char *dir = cli_tmpdir_new ();
  g_autofree char *locked = g_build_filename (dir, "locked", NULL);
  pid_t pid;
  int status = 0;

  g_assert_cmpint (chmod (dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (locked, 0700), ==, 0);
  if (getuid () != 0)
    {
      g_auto(CliRun) r = { 0 };

      g_assert_cmpint (chmod (locked, 0), ==, 0);
      cli_run (&r, "info", locked);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, "Permission denied"));
      g_assert_null (strstr (r.err, "folder, not a file"));
      chmod (locked, 0700);
      g_rmdir (locked);
      cli_tmpdir_free (g_steal_pointer (&dir));
      return;
    }
  /* root reads every folder: a child that gives up the two capabilities
   * that let root past a folder's mode (CAP_DAC_OVERRIDE,
   * CAP_DAC_READ_SEARCH) cannot read this one.  Dropping them from the
   * bounding set keeps them from cpel after execv; the build folder stays
   * readable as its owner (a user like nobody may not reach a 0700 one). */
  g_assert_cmpint (chmod (locked, 0), ==, 0);
  {
    int fds[2];
    char buf[512] = { 0 };
    gssize n, got = 0;

    g_assert_cmpint (pipe (fds), ==, 0);
    pid = fork ();
    g_assert_cmpint (pid, >=, 0);
    if (pid == 0)
      {
        const char *argv[] = { cli_path (), "info", locked, NULL };
        int devnull = open ("/dev/null", O_WRONLY);

        close (fds[0]);
        dup2 (devnull, STDOUT_FILENO);
        dup2 (fds[1], STDERR_FILENO);
        if (prctl (PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) != 0
            || prctl (PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0) != 0)
          _exit (77);
        g_setenv ("LC_ALL", "C.UTF-8", TRUE);
        g_setenv ("LANGUAGE", "C", TRUE);
        execv (argv[0], (char **) argv);
        _exit (78);
      }
    close (fds[1]);
    while ((n = read (fds[0], buf + got, sizeof buf - 1 - got)) > 0)
      got += n;
    close (fds[0]);
    g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), !=, 78);
    if (WEXITSTATUS (status) == 77)
      {
        chmod (locked, 0700);
        g_rmdir (locked);
        cli_tmpdir_free (g_steal_pointer (&dir));
        g_test_skip ("running as root without CAP_SETPCAP: cannot drop "
                     "the capability to read any folder");
        return;
      }
    g_test_message ("without CAP_DAC_*: %s", buf);
    g_assert_cmpint (WEXITSTATUS (status), ==, 1);
    g_assert_nonnull (strstr (buf, "Permission denied"));
    g_assert_null (strstr (buf, "folder, not a file"));
  }
  chmod (locked, 0700);
  g_rmdir (locked);
  cli_tmpdir_free (g_steal_pointer (&dir));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/hostile/regex", test_regex);
  g_test_add_func ("/cli/hostile/negative-time", test_negative_time);
  g_test_add_func ("/cli/hostile/escaped-names", test_escaped_names);
  g_test_add_func ("/cli/hostile/unreadable-folder", test_unreadable_folder);
  return g_test_run ();
}
