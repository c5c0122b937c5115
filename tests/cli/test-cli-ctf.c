/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-ctf.c — `cpel info` on a damaged CTF trace exits 1 with a plain
 * message (libbabeltrace2 runs in a child: it loops forever on one, eats
 * memory on another),
 * and on a folder holding no trace says so. */
#include <sys/resource.h>
#include <unistd.h>

#include "cli-test-util.h"
#include "cpel-test-util.h"

#define TRACE "fixtures/ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809"

static void
test_truncated_metadata (void)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, TRACE, NULL);
  char *tmp = cli_tmpdir_new ();     /* freed by cli_tmpdir_free */
  g_autofree char *dir = g_build_filename (tmp, "trace", NULL);
  g_autofree char *meta = g_build_filename (dir, "metadata", NULL);
  g_auto(CliRun) r = { 0 };

  cpel_test_copy_tree (src, dir);
  g_assert_cmpint (truncate (meta, 412), ==, 0);
  /* checked before the library reads it */
  cli_run (&r, "info", dir);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "This CTF trace is damaged ("));
  g_assert_nonnull (strstr (r.err, "412 bytes left in the file"));
  /* handed to the library: the reader loops, the watchdog stops it */
  g_setenv ("CPEL_CTF_SKIP_CHECKS", "1", TRUE);
  g_setenv ("CPEL_CTF_READER_TIMEOUT", "1", TRUE);
  cli_run (&r, "info", dir);
  g_unsetenv ("CPEL_CTF_SKIP_CHECKS");
  g_unsetenv ("CPEL_CTF_READER_TIMEOUT");
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "This CTF trace is damaged (the trace reader stopped: "
                                   "no progress for 1 s)"));
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  cli_tmpdir_free (tmp);
}

/* The first fixture_app:queue_sample event of ch0_1: depths[4] (0, 0, 0,
 * 65535), the u32 length of the dynamic array hist (1), hist (1). */
static const guint8 queue_sample[] = { 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 0, 0, 0, 1 };

/* The trace with hist's length made 2^28: libbabeltrace2 2.0.4 allocates
 * GBs for it (3.3 GB in 20 s once, in this process).  `cpel info` exits 1
 * with one plain line, well within the reader's 8 s watchdog, and no
 * process of the run (cpel, the reader) went near 1 GiB resident. */
static void
test_array_length (void)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, TRACE, NULL);
  char *tmp = cli_tmpdir_new ();     /* freed by cli_tmpdir_free */
  g_autofree char *dir = g_build_filename (tmp, "trace", NULL);
  g_autofree char *stream = g_build_filename (dir, "ch0_1", NULL);
  g_autofree char *data = NULL;
  g_auto(CliRun) r = { 0 };
  struct rusage ru;
  gsize len = 0, at = 0;

  cpel_test_copy_tree (src, dir);
  g_assert_true (g_file_get_contents (stream, &data, &len, NULL));
  while (at + sizeof queue_sample <= len && memcmp (data + at, queue_sample, sizeof queue_sample))
    at++;
  g_assert_cmpuint (at + sizeof queue_sample, <=, len);
  guint32 huge = GUINT32_TO_LE (1u << 28);
  memcpy (data + at + 8, &huge, 4);
  g_assert_true (g_file_set_contents (stream, data, (gssize) len, NULL));

  gint64 start = g_get_monotonic_time ();
  cli_run (&r, "info", dir);
  gint64 took = g_get_monotonic_time () - start;
  g_test_message ("%s(%.1f s)", r.err, (double) took / G_USEC_PER_SEC);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "This CTF trace is damaged (the trace reader stopped: "
                                   "memory limit of "));
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  g_assert_cmpint (took, <, 10 * G_USEC_PER_SEC);
  /* ru_maxrss of the waited-for descendants, in KiB */
  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &ru), ==, 0);
  g_test_message ("peak resident memory of cpel and its reader: %ld MiB", ru.ru_maxrss >> 10);
  g_assert_cmpint (ru.ru_maxrss, <, 1 << 20);
  cli_tmpdir_free (tmp);
}

static void
test_no_trace (void)
{
  char *tmp = cli_tmpdir_new ();     /* freed by cli_tmpdir_free */
  g_autofree char *sub = g_build_filename (tmp, "a", "b", NULL);
  g_autofree char *meta = g_build_filename (sub, "metadata", NULL);
  g_auto(CliRun) r = { 0 };

  /* a file named metadata that is not CTF's: no trace */
  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  g_assert_true (g_file_set_contents (meta, "key=value\n", -1, NULL));
  cli_run (&r, "info", tmp);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "no CTF trace found in this folder"));
  cli_tmpdir_free (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/ctf/truncated-metadata", test_truncated_metadata);
  g_test_add_func ("/cli/ctf/array-length", test_array_length);
  g_test_add_func ("/cli/ctf/no-trace", test_no_trace);
  return g_test_run ();
}
