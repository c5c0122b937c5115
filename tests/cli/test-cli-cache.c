/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-cache.c — `cpel` with the persisted index: the same output byte
 * for byte with and without it (written, used, damaged, written by two
 * processes at once), --no-cache, `cpel cache info|clear`.
 *
 * XDG_CACHE_HOME is a temporary dir; CPEL_CACHE_MIN_EVENTS=1 caches small
 * files too.
 */
#include <gio/gio.h>
#include <string.h>

#include "cpel-core.h"
#include "cli-test-util.h"

typedef struct
{
  char *dir;
  char *index_dir;
  char *path;
} Fixture;

/* cpel gen's file has a few neighbours swapped, which the CLI streams
 * through its reorder window (cpel_file_check_nearly_ordered): two records
 * of its first big event section 6000 places apart are swapped too, so
 * that only the index reads it in time order.  Big-endian, as gen writes. */
static void
swap_far_apart (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len, off = 8;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  while (off + 8 <= len)
    {
      guint32 type = GUINT32_FROM_BE (*(guint32 *) (data + off));
      guint32 size = GUINT32_FROM_BE (*(guint32 *) (data + off + 4));
      guint32 count;

      g_assert_cmpuint (size, <=, len - off - 8);
      if (type == 5 && size >= 72
          && (count = GUINT32_FROM_BE (*(guint32 *) (data + off + 8 + 64))) > 10000)
        {
          char *a = data + off + 8 + 72 + 100 * 20, *b = a + 6000 * 20, tmp[20];

          g_assert_cmpuint ((guint64) count * 20, <=, size - 72);
          memcpy (tmp, a, 20);
          memcpy (a, b, 20);
          memcpy (b, tmp, 20);
          g_assert_true (g_file_set_contents (path, data, len, &error));
          g_assert_no_error (error);
          return;
        }
      off += 8 + size;
    }
  g_assert_not_reached ();
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_auto(CliRun) r = { 0 };
  g_autofree char *xdg = NULL;

  f->dir = cli_tmpdir_new ();
  xdg = g_build_filename (f->dir, "xdg-cache", NULL);
  f->index_dir = g_build_filename (xdg, "cpel-viewer", "index", NULL);
  f->path = g_build_filename (f->dir, "usual.cpel", NULL);
  g_setenv ("XDG_CACHE_HOME", xdg, TRUE);
  g_setenv ("CPEL_CACHE_MIN_EVENTS", "1", TRUE);
  /* not in time order: the CLI needs the index */
  cli_run (&r, "gen", "--events", "40000", "--tracks", "24", "--seed", "3", f->path);
  g_assert_cmpint (r.status, ==, 0);
  swap_far_apart (f->path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  cli_tmpdir_free (f->dir);
  g_free (f->index_dir);
  g_free (f->path);
}

static guint
n_cache_files (Fixture *f)
{
  guint n = 0;

  g_assert_true (cpel_index_cache_get_usage (f->index_dir, &n, NULL, NULL));
  return n;
}

/* stdout of `cpel ARGS`, which must succeed */
static char *
output_of (const char * const *args)
{
  g_auto(CliRun) r = { 0 };

  cli_runv (&r, args);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  return g_steal_pointer (&r.out);
}

/* The commands compared; `--no-cache` is inserted after the command. */
static const char *commands[][7] = {
  { "dump", NULL },
  { "dump", "--tsv", "--from", "1ms", NULL },
  { "stats", NULL },
  { "search", "--count", "--code", "2", NULL },
  { "chase", "--code", "3", NULL },
  { "cut", "--from", "0", "--to", "5ms", "--force", NULL },
};

static char *
run_command (Fixture  *f,
             guint     i,
             gboolean  no_cache)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *cut = g_build_filename (f->dir, "cut.cpel", NULL);
  char *out;

  g_ptr_array_add (args, g_strdup (commands[i][0]));
  if (no_cache)
    g_ptr_array_add (args, g_strdup ("--no-cache"));
  for (guint j = 1; commands[i][j] != NULL; j++)
    g_ptr_array_add (args, g_strdup (commands[i][j]));
  g_ptr_array_add (args, g_strdup (f->path));
  if (g_str_equal (commands[i][0], "cut"))
    g_ptr_array_add (args, g_strdup (cut));
  g_ptr_array_add (args, NULL);
  out = output_of ((const char * const *) args->pdata);
  if (g_str_equal (commands[i][0], "cut"))
    {
      gsize len;
      char *bytes;

      g_free (out);
      g_assert_true (g_file_get_contents (cut, &bytes, &len, NULL));
      out = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guint8 *) bytes, len);
      g_free (bytes);
    }
  return out;
}

static void
test_same_output (Fixture       *f,
                  gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *ref = run_command (f, i, TRUE);
      g_assert_cmpuint (n_cache_files (f), ==, 0);   /* --no-cache writes nothing */
      for (guint round = 0; round < 2; round++)
        {
          /* round 0 writes the cache (when the command needs the index), 1 reads it */
          g_autofree char *out = run_command (f, i, FALSE);

          g_assert_cmpstr (out, ==, ref);
        }
      {
        g_auto(CliRun) r = { 0 };

        cli_run (&r, "cache", "clear");
        g_assert_cmpint (r.status, ==, 0);
      }
    }
  /* dump builds the index of this file: the cache is there after it */
  {
    g_autofree char *ref = run_command (f, 0, TRUE);
    g_autofree char *out = run_command (f, 0, FALSE);

    g_assert_cmpuint (n_cache_files (f), ==, 1);
    g_assert_cmpstr (out, ==, ref);
  }
}

/* A damaged cache file: the same output, and a good cache again after. */
static void
test_damaged (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *ref = run_command (f, 0, TRUE);
  g_autofree char *first = run_command (f, 0, FALSE);
  g_autoptr(GDir) d = g_dir_open (f->index_dir, 0, NULL);
  const char *name = d ? g_dir_read_name (d) : NULL;
  g_autofree char *cache = NULL;
  char *bytes;
  gsize len;

  g_assert_nonnull (name);
  cache = g_build_filename (f->index_dir, name, NULL);
  g_assert_true (g_file_get_contents (cache, &bytes, &len, NULL));
  g_assert_cmpuint (len, >, 8192 + 100);
  bytes[len - 100] ^= 0x40;    /* in the record indices */
  bytes[8192] ^= 0x01;         /* in the times */
  g_assert_true (g_file_set_contents (cache, bytes, (gssize) len, NULL));
  g_free (bytes);
  for (guint round = 0; round < 2; round++)
    {
      g_autofree char *out = run_command (f, 0, FALSE);

      g_assert_cmpstr (out, ==, ref);
    }
  g_assert_cmpuint (n_cache_files (f), ==, 1);
}

/* Two `cpel dump` at once, both writing the cache. */
static void
test_two_processes (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *ref = run_command (f, 0, TRUE);

  for (guint round = 0; round < 2; round++)
    {
      GSubprocess *p[2];
      g_autoptr(GError) error = NULL;

      for (guint i = 0; i < 2; i++)
        {
          p[i] = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                   cli_path (), "dump", f->path, NULL);
          g_assert_no_error (error);
        }
      for (guint i = 0; i < 2; i++)
        {
          g_autoptr(GBytes) out = NULL;

          g_assert_true (g_subprocess_communicate (p[i], NULL, NULL, &out, NULL, &error));
          g_assert_no_error (error);
          g_assert_true (g_subprocess_get_if_exited (p[i]));
          g_assert_cmpint (g_subprocess_get_exit_status (p[i]), ==, 0);
          g_assert_cmpuint (g_bytes_get_size (out), ==, strlen (ref));
          g_assert_true (memcmp (g_bytes_get_data (out, NULL), ref, strlen (ref)) == 0);
          g_object_unref (p[i]);
        }
      g_assert_cmpuint (n_cache_files (f), ==, 1);
    }
}

static void
test_info_clear (Fixture       *f,
                 gconstpointer  data)
{
  g_auto(CliRun) r = { 0 };
  g_autofree char *out = run_command (f, 0, FALSE);

  cli_run (&r, "cache", "info");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, f->index_dir));
  g_assert_nonnull (strstr (r.out, "Cache files: 1 ("));
  cli_run (&r, "cache", "clear");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "Removed 1 cache file ("));
  g_assert_cmpuint (n_cache_files (f), ==, 0);
  cli_run (&r, "cache", "info");
  g_assert_nonnull (strstr (r.out, "Cache files: 0 ("));
  /* clearing an empty or missing folder is fine */
  cli_run (&r, "cache", "clear");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "Removed 0 cache files ("));
  /* usage errors */
  cli_run (&r, "cache");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "cache", "frobnicate");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "cache", "info", "extra");
  g_assert_cmpint (r.status, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/cli/cache/same-output", Fixture, NULL, fixture_setup, test_same_output, fixture_teardown);
  g_test_add ("/cli/cache/damaged", Fixture, NULL, fixture_setup, test_damaged, fixture_teardown);
  g_test_add ("/cli/cache/two-processes", Fixture, NULL, fixture_setup, test_two_processes, fixture_teardown);
  g_test_add ("/cli/cache/info-clear", Fixture, NULL, fixture_setup, test_info_clear, fixture_teardown);
  return g_test_run ();
}
