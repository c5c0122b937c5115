/* SPDX-License-Identifier: Apache-2.0 */
/* test-truncate.c — a file truncated while it is being read
 *
 * /core/truncate/file: a CpelFile loaded from a path, then the file is cut
 * to 4 KiB and every event is labelled: the records past the cut are no
 * longer in the file; the file must say it is damaged.
 * /core/truncate/search: text, regex and code searches on such a file.
 * /core/truncate/during-load: the file is cut while the index is built:
 * loading fails with CPEL_ERROR_IO.
 * /cli/truncate/dump: `cpel dump` on a big file; once it has written 64 KiB
 * (and is blocked on the pipe), the file is cut to 4 KiB; the rest of the
 * output is read.  `cpel dump` must not be killed by a signal, and exits 1
 * with a message.
 *
 * Without the SIGBUS guard (cpel-mapguard) in CpelFile these die of SIGBUS.
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-perf-writer.h"
#include "import-writers.h"
#include "cpel-loader.h"

#define N_EVENTS 200000
#define CUT      4096

static char *tmpdir;

static char *
make_big_file (const char *name)
{
  g_autoptr(GError) error = NULL;
  CpelGenOptions options = { N_EVENTS, 8, 7, FALSE, FALSE, TRUE };
  char *path = g_build_filename (tmpdir, name, NULL);

  g_assert_true (cpel_gen_write (path, &options, &error));
  g_assert_no_error (error);
  return path;
}

static void
cut (const char *path)
{
  int fd = open (path, O_WRONLY);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, CUT), ==, 0);
  close (fd);
}

static void
test_file (void)
{
  g_autofree char *path = make_big_file ("file.cpel");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  g_autoptr(GString) label = g_string_new (NULL);
  CpelEvent ev;
  guint64 n = 0;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  cut (path);

  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_string_truncate (label, 0);
      cpel_file_append_label (file, &ev, label);
      n++;
    }
  g_assert_cmpuint (n, ==, N_EVENTS);
  g_assert_true (cpel_file_is_damaged (file));
  g_unlink (path);
}

static void
test_search (void)
{
  g_autofree char *path = make_big_file ("search.cpel");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  const struct { CpelSearchMode mode; const char *text; } queries[] = {
    { CPEL_SEARCH_TEXT, "a" },
    { CPEL_SEARCH_REGEX, "[0-9]+" },
    { CPEL_SEARCH_CODE, "0" },
  };

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  cut (path);

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autoptr(CpelQuery) query = NULL;
      g_autoptr(CpelSearchResult) result = NULL;

      query = cpel_query_new (file, queries[i].mode, queries[i].text, FALSE, &error);
      if (query == NULL)
        {
          /* no event code 0 in the file: fine */
          g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
          g_clear_error (&error);
          continue;
        }
      /* no crash; a search that read zeros says the file changed */
      result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
      if (result == NULL)
        {
          g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
          g_clear_error (&error);
        }
    }
  g_assert_true (cpel_file_is_damaged (file));
  g_unlink (path);
}

/* Cut the file at the first progress report: after the first 2^20 events
 * of the index's first pass (one thread), before the rest. */
static void
cut_on_progress (double   fraction,
                 gpointer data)
{
  char **path = data;

  if (*path != NULL)
    {
      cut (*path);
      g_clear_pointer (path, g_free);
    }
}

static void
test_during_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  CpelGenOptions gen = { 1200000, 4, 3, FALSE, FALSE, TRUE };
  CpelLoadOptions options = { 0, 1 };
  g_autofree char *path = g_build_filename (tmpdir, "load.cpel", NULL);
  char *to_cut = g_strdup (path);

  g_assert_true (cpel_gen_write (path, &gen, &error));
  g_assert_no_error (error);
  file = cpel_file_new_for_path (path, &options, NULL, cut_on_progress, &to_cut, &error);
  g_assert_null (to_cut);   /* it was cut */
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_unlink (path);
}

/* The importers read a mapping of the source: a VPP elog or perf.data cut
 * at the import's first progress report (after its first 2^16 events,
 * before the rest) must give an error, not SIGBUS. */
#define IMPORT_EVENTS 200000

static void
check_cut_during_import (const char *name,
                         GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  char *to_cut = g_strdup (path);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  /* the whole file imports */
  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, IMPORT_EVENTS);
  g_clear_object (&file);

  file = cpel_file_new_for_path (path, NULL, NULL, cut_on_progress, &to_cut, &error);
  g_assert_null (to_cut);   /* it was cut */
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_assert_cmpstr (error->message, ==, "The file changed on disk while it was read");
  g_unlink (path);
}

static void
test_import_elog (void)
{
  static const ElogwType types[] = { { "none", "", NULL } };
  static const char *tracks[] = { "main" };
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;

  elogw_header (a, types, 1, tracks, 1, "", 1);
  elogw_u32 (a, IMPORT_EVENTS);
  for (guint i = 0; i < IMPORT_EVENTS; i++)
    elogw_event_head (a, 0, 0, 0.001 + 1e-6 * i);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&a));
  check_cut_during_import ("cut.elog", bytes);
}

#if HAVE_PERF
static void
test_import_perf (void)
{
  const guint64 type = CPEL_TEST_PERF_IP | CPEL_TEST_PERF_TID | CPEL_TEST_PERF_TIME;
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;

  for (guint i = 0; i < IMPORT_EVENTS; i++)
    cpel_test_perf_sample (rec, type, 1, 0x1000 + i, 100, 100 + (i & 3),
                           1000 + 10 * (guint64) i, 0);
  bytes = cpel_test_perf_file (&type, 1, 144, rec->data, rec->len);
  check_cut_during_import ("cut.perf.data", bytes);
}
#endif

static void
test_dump (void)
{
  const char *cli = g_getenv ("CPEL_CLI");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) rest = NULL, err = NULL;
  GInputStream *out;
  guint8 buf[4096];
  gsize got = 0;
  int status;

  if (cli == NULL)
    {
      g_test_skip ("CPEL_CLI is not set");
      return;
    }
  path = make_big_file ("dump.cpel");
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           cli, "dump", path, NULL);
  g_assert_no_error (error);
  out = g_subprocess_get_stdout_pipe (proc);

  /* let it get going; it then blocks on the full pipe */
  while (got < 64 * 1024)
    {
      gssize n = g_input_stream_read (out, buf, sizeof buf, NULL, &error);
      g_assert_no_error (error);
      if (n == 0)
        break;
      got += n;
    }
  g_assert_cmpuint (got, >=, 64 * 1024);
  cut (path);

  g_subprocess_communicate (proc, NULL, NULL, &rest, &err, &error);
  g_assert_no_error (error);
  status = g_subprocess_get_status (proc);
  if (WIFSIGNALED (status))
    g_error ("cpel dump was killed by signal %d after the file was cut; stderr: %.*s",
             WTERMSIG (status), (int) g_bytes_get_size (err), (const char *) g_bytes_get_data (err, NULL));
  g_test_message ("cpel dump exited with %d; %" G_GSIZE_FORMAT " + %" G_GSIZE_FORMAT " bytes out",
                  WEXITSTATUS (status), got, g_bytes_get_size (rest));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_cmpuint (g_bytes_get_size (err), >, 0);
  g_unlink (path);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("cpel-truncate-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);

  g_test_add_func ("/core/truncate/file", test_file);
  g_test_add_func ("/core/truncate/search", test_search);
  g_test_add_func ("/core/truncate/during-load", test_during_load);
  g_test_add_func ("/core/truncate/import-elog", test_import_elog);
#if HAVE_PERF
  g_test_add_func ("/core/truncate/import-perf", test_import_perf);
#endif
  g_test_add_func ("/cli/truncate/dump", test_dump);

  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
