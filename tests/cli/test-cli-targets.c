/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-targets.c — what `--force` may replace, and "-" for standard output
 *
 * The outputs are written to a temporary file renamed over the target: a
 * FIFO or a device node named as OUT must be refused, even with --force,
 * and stay what it was; a symbolic link to a regular file stays a link,
 * its target gets the new content; "-" writes the output to standard
 * output (a pipe here).  For gen, cut, convert and export (--png, --svg).
 */
#include <fcntl.h>
#include "cpel-loader.h"
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cpel-core.h"
#include "cli-test-util.h"
#include "import-writers.h"

typedef struct
{
  char *dir;
  char *sample;   /* a small CPEL file */
  char *elog;     /* a small VPP elog */
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_auto(CliRun) r = { 0 };
  static const ElogwType types[] = { { "tick %d", "i4", NULL } };
  static const char *tracks[] = { "main" };
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;

  f->dir = cli_tmpdir_new ();
  f->sample = g_build_filename (f->dir, "sample.cpel", NULL);
  cli_run (&r, "gen", "--events", "2000", "--tracks", "4", f->sample);
  g_assert_cmpint (r.status, ==, 0);

  elogw_header (a, types, 1, tracks, 1, "", 1);
  elogw_u32 (a, 3);
  for (guint i = 0; i < 3; i++)
    {
      elogw_event_head (a, 0, 0, 0.001 * (i + 1));
      elogw_u32 (a, i);
    }
  f->elog = g_build_filename (f->dir, "sample.elog", NULL);
  g_assert_true (g_file_set_contents (f->elog, (const char *) a->data, a->len, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_free (f->sample);
  g_free (f->elog);
  cli_tmpdir_free (f->dir);
}

/* Every command that writes OUT, with OUT and --force. */
static void
run_writer (CliRun *r, Fixture *f, guint which, const char *out)
{
  switch (which)
    {
    case 0:
      cli_run (r, "gen", "--events", "100", "--tracks", "2", "--force", out);
      break;
    case 1:
      cli_run (r, "cut", f->sample, out, "--from", "0", "--to", "1s", "--force");
      break;
    case 2:
      cli_run (r, "convert", f->elog, out, "--force");
      break;
    case 3:
      cli_run (r, "export", "--png", out, "--width", "200", "--height", "100", "--force",
               f->sample);
      break;
    case 4:
      cli_run (r, "export", "--svg", out, "--width", "200", "--height", "100", "--force",
               f->sample);
      break;
    default:
      g_assert_not_reached ();
    }
}

#define N_WRITERS 5

static void
check_refused (CliRun *r)
{
  g_assert_cmpint (r->status, ==, 1);
  g_assert_nonnull (strstr (r->err, "not a regular file"));
}

/* A FIFO stays a FIFO (and nothing opens it: that would block). */
static void
test_fifo (Fixture *f, gconstpointer data)
{
  g_autofree char *fifo = g_build_filename (f->dir, "fifo", NULL);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint w = 0; w < N_WRITERS; w++)
    {
      g_auto(CliRun) r = { 0 };
      struct stat st;

      run_writer (&r, f, w, fifo);
      check_refused (&r);
      g_assert_cmpint (lstat (fifo, &st), ==, 0);
      g_assert_true (S_ISFIFO (st.st_mode));
    }
}

/* A device node (a copy of /dev/null's, made here; root only) stays one. */
static void
test_device (Fixture *f, gconstpointer data)
{
  g_autofree char *dev = g_build_filename (f->dir, "null", NULL);

  if (mknod (dev, S_IFCHR | 0666, makedev (1, 3)) != 0)
    {
      g_test_skip ("cannot make a device node here (not root?)");
      return;
    }
  for (guint w = 0; w < N_WRITERS; w++)
    {
      g_auto(CliRun) r = { 0 };
      struct stat st;

      run_writer (&r, f, w, dev);
      check_refused (&r);
      g_assert_cmpint (lstat (dev, &st), ==, 0);
      g_assert_true (S_ISCHR (st.st_mode));
      g_assert_cmpuint (st.st_rdev, ==, makedev (1, 3));
    }
}

/* A symbolic link to a regular file: written through. */
static void
test_symlink (Fixture *f, gconstpointer data)
{
  g_autofree char *target = g_build_filename (f->dir, "target", NULL);
  g_autofree char *link = g_build_filename (f->dir, "link", NULL);
  g_autofree char *dangling = g_build_filename (f->dir, "dangling", NULL);

  g_assert_cmpint (symlink ("target", link), ==, 0);
  g_assert_cmpint (symlink ("nowhere", dangling), ==, 0);
  for (guint w = 0; w < N_WRITERS; w++)
    {
      g_auto(CliRun) r = { 0 };
      g_autofree char *contents = NULL;
      g_autofree char *read_link = NULL;
      struct stat st;
      gsize len;

      g_assert_true (g_file_set_contents (target, "old", 3, NULL));
      run_writer (&r, f, w, link);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpint (lstat (link, &st), ==, 0);
      g_assert_true (S_ISLNK (st.st_mode));
      read_link = g_file_read_link (link, NULL);
      g_assert_cmpstr (read_link, ==, "target");
      g_assert_cmpint (lstat (target, &st), ==, 0);
      g_assert_true (S_ISREG (st.st_mode));
      g_assert_true (g_file_get_contents (target, &contents, &len, NULL));
      g_assert_cmpuint (len, >, 3);

      /* a link to nothing: refused, left alone */
      run_writer (&r, f, w, dangling);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_cmpint (lstat (dangling, &st), ==, 0);
      g_assert_true (S_ISLNK (st.st_mode));
      g_assert_false (g_file_test (dangling, G_FILE_TEST_EXISTS));
    }
}

/* Runs the writer with OUT "-", its standard output a pipe; the bytes. */
static GBytes *
run_to_pipe (Fixture *f, guint which)
{
  const char *argv_gen[] = { "gen", "--events", "100", "--tracks", "2", "-", NULL };
  const char *argv_cut[] = { "cut", f->sample, "-", "--from", "0", "--to", "1s", NULL };
  const char *argv_conv[] = { "convert", f->elog, "-", NULL };
  const char *argv_png[] = { "export", "--png", "-", "--width", "200", "--height", "100",
                             f->sample, NULL };
  const char *argv_svg[] = { "export", "--svg", "-", "--width", "200", "--height", "100",
                             f->sample, NULL };
  const char **args[] = { argv_gen, argv_cut, argv_conv, argv_png, argv_svg };
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) err = NULL;
  g_autofree char *dash = g_build_filename (f->dir, "-", NULL);
  GBytes *out = NULL;

  g_ptr_array_add (argv, (gpointer) cli_path ());
  for (const char **a = args[which]; *a != NULL; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  g_ptr_array_add (argv, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_cwd (launcher, f->dir);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate (proc, NULL, NULL, &out, &err, &error));
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (proc) || g_subprocess_get_exit_status (proc) != 0)
    g_error ("%s to -: %.*s", args[which][0], (int) g_bytes_get_size (err),
             (const char *) g_bytes_get_data (err, NULL));
  /* nothing but the output on standard output, no "-" file made */
  g_assert_false (g_file_test (dash, G_FILE_TEST_EXISTS));
  return out;
}

static void
test_stdout (Fixture *f, gconstpointer data)
{
  for (guint w = 0; w < N_WRITERS; w++)
    {
      g_autoptr(GBytes) out = run_to_pipe (f, w);
      const guint8 *p = g_bytes_get_data (out, NULL);
      gsize len = g_bytes_get_size (out);

      g_assert_cmpuint (len, >, 8);
      if (w < 3)
        {
          /* a CPEL file, whole */
          g_autoptr(GError) error = NULL;
          g_autoptr(CpelFile) file = cpel_file_new_for_bytes (out, NULL, &error);

          g_assert_no_error (error);
          g_assert_cmpuint (cpel_file_get_n_events (file), >, 0);
        }
      else if (w == 3)
        g_assert_cmpmem (p, 8, "\x89PNG\r\n\x1a\n", 8);
      else
        g_assert_nonnull (g_strstr_len ((const char *) p, (gssize) MIN (len, 512), "<svg"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/cli/targets/fifo", Fixture, NULL, fixture_set_up, test_fifo, fixture_tear_down);
  g_test_add ("/cli/targets/device", Fixture, NULL, fixture_set_up, test_device,
              fixture_tear_down);
  g_test_add ("/cli/targets/symlink", Fixture, NULL, fixture_set_up, test_symlink,
              fixture_tear_down);
  g_test_add ("/cli/targets/stdout", Fixture, NULL, fixture_set_up, test_stdout,
              fixture_tear_down);
  return g_test_run ();
}
