/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-replay.c — runs a fuzz target over files, without libFuzzer
 *
 * Usage: fuzz-replay PATH...   (a PATH may be a directory: its regular files,
 * in name order, are run; subdirectories are not entered).
 * Built with the ordinary compiler and registered as a meson test, so the
 * seed corpus and every regression input run in normal CI.  Exits non-zero
 * when no input was found; a failing input aborts (with its name printed
 * first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fuzz-common.h"

static guint n_run;

/* Under UBSan (a -Db_sanitize=undefined build) undefined behaviour is a
 * failure, whatever UBSAN_OPTIONS says. */
const char *__ubsan_default_options (void);
const char *
__ubsan_default_options (void)
{
  return "halt_on_error=1:print_stacktrace=1";
}

static void
run_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents;
  gsize len;
  guint8 *copy;

  if (!g_file_get_contents (path, &contents, &len, &error))
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      exit (1);
    }
  /* exact-size block, as libFuzzer passes it */
  copy = g_memdup2 (contents, len);
  g_free (contents);
  printf ("%s (%" G_GSIZE_FORMAT " bytes)\n", path, len);
  fflush (stdout);
  LLVMFuzzerTestOneInput (copy, len);
  g_free (copy);
  n_run++;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
run_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      run_file (path);
      return;
    }
  dir = g_dir_open (path, 0, &error);
  if (dir == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      exit (1);
    }
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    if (g_file_test (names->pdata[i], G_FILE_TEST_IS_REGULAR))
      run_file (names->pdata[i]);
}

int
main (int    argc,
      char **argv)
{
  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1; i < argc; i++)
    run_path (argv[i]);
  printf ("%u inputs run\n", n_run);
  return n_run > 0 ? 0 : 1;
}
