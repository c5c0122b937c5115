/* SPDX-License-Identifier: Apache-2.0 */
/* test-leaks.c — open, read and close 100+ different files in one process
 *
 * Run under valgrind (--leak-check=full --errors-for-leak-kinds=definite)
 * by tests/data/meson.build, and under LeakSanitizer in the sanitizer build
 * (build-aux/sanitize.sh): every definite leak is a failure.  The files:
 * the real sample, generated files of both byte orders and many shapes
 * (and the demo capture), every case of the malformed corpus from bytes and
 * from a path, a clock-0 file read with an override, a cancelled load, and
 * a path that does not exist.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "cpel-gen.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"
#include "malformed-cases.h"

static guint n_opened, n_loaded;

/* Everything a viewer reads of a loaded file. */
static void
walk (CpelFile *file)
{
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  g_autoptr(GString) s = g_string_new (NULL);
  CpelEvent ev;

  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_string_truncate (s, 0);
      cpel_file_append_label (file, &ev, s);
    }
  for (guint i = 0; i < cpel_file_get_n_tracks (file); i++)
    g_string_append (s, cpel_file_get_track_label (file, i));
  for (guint i = 0; i < cpel_file_get_n_types (file); i++)
    g_string_append (s, cpel_file_get_type_name (file, i));
  for (const char * const *w = cpel_file_get_warnings (file); *w; w++)
    g_string_append (s, *w);
}

static void
open_path (const char            *path,
           const CpelLoadOptions *options,
           GCancellable          *cancellable)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, options, cancellable, NULL, NULL, &error);

  n_opened++;
  g_assert_true ((file == NULL) == (error != NULL));
  if (file)
    {
      walk (file);
      n_loaded++;
    }
}

static void
test_many_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cpel-leaks-XXXXXX", NULL);
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  CpelLoadOptions rate = { 1000000, 0 };

  g_assert_nonnull (dir);

  if (sample)
    {
      open_path (sample, NULL, NULL);
      open_path (sample, &rate, NULL);
    }

  /* generated: 40 shapes, and the demo capture */
  for (guint i = 0; i < 41; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("gen-%u.cpel", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      CpelGenOptions options = { 0 };

      options.n_events = 1 + (i * 337) % 3000;
      options.n_tracks = 1 + i % 9;
      options.seed = i;
      options.little_endian = i % 2;
      options.demo = i == 40;
      g_assert_true (cpel_gen_write (path, &options, &error));
      g_assert_no_error (error);
      open_path (path, NULL, NULL);
      g_unlink (path);
    }

  /* the malformed corpus, from bytes and from a path */
  for (guint i = 0; i < G_N_ELEMENTS (malformed_cases); i++)
    {
      const MalformedCase *c = &malformed_cases[i];
      g_autoptr(GBytes) bytes = malformed_build (c);
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = NULL;
      g_autofree char *path = g_build_filename (dir, c->name, NULL);
      gsize len;
      gconstpointer p = g_bytes_get_data (bytes, &len);

      file = cpel_file_new_for_bytes (bytes, NULL, &error);
      n_opened++;
      if (file)
        {
          walk (file);
          n_loaded++;
        }
      g_assert_true (g_file_set_contents (path, p, len, NULL));
      open_path (path, NULL, NULL);
      open_path (path, &rate, NULL);     /* clock 0 then loads */
      g_unlink (path);
    }

  /* a cancelled load and a missing file */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *path = g_build_filename (dir, "cancel.cpel", NULL);
    CpelGenOptions options = { 1000, 3, 1, FALSE, FALSE, TRUE };

    g_assert_true (cpel_gen_write (path, &options, &error));
    g_cancellable_cancel (cancelled);
    open_path (path, NULL, cancelled);
    g_unlink (path);
    open_path (path, NULL, NULL);
  }

  g_test_message ("%u files opened, %u loaded", n_opened, n_loaded);
  g_assert_cmpuint (n_opened, >=, 100);
  g_assert_cmpuint (n_loaded, >=, 50);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/leaks/many-files", test_many_files);
  return g_test_run ();
}
