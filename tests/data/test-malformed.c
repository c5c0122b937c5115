/* SPDX-License-Identifier: Apache-2.0 */
/* test-malformed.c — the loader on the malformed-file corpus
 *
 * For each case of malformed-cases.h, loading from bytes and from a file
 * must give the expected CPEL_ERROR code with a message naming the offset
 * of the fault, or load with the expected warnings and labels.  Every
 * prefix of the cases that load must fail cleanly (a truncated file) with
 * a message naming an offset.
 *
 * `test-malformed --write DIR` writes the corpus to DIR as NAME.cpel.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "cpel-loader.h"
#include "malformed-cases.h"

static char *tmpdir;

static void
check_result (const MalformedCase *c,
              CpelFile            *file,
              GError              *error)
{
  if (c->code < 0)
    {
      g_assert_no_error (error);
      g_assert_nonnull (file);
      c->check (file);
    }
  else
    {
      g_assert_null (file);
      g_assert_error (error, CPEL_ERROR, c->code);
      if (strstr (error->message, c->needle) == NULL)
        g_error ("%s: “%s” does not name “%s”", c->name, error->message, c->needle);
    }
}

static void
test_bytes (gconstpointer data)
{
  const MalformedCase *c = data;
  g_autoptr(GBytes) bytes = malformed_build (c);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;

  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  check_result (c, file, error);
}

static void
test_path (gconstpointer data)
{
  const MalformedCase *c = data;
  g_autoptr(GBytes) bytes = malformed_build (c);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autofree char *name = g_strconcat (c->name, ".cpel", NULL);
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  gsize len;
  gconstpointer p = g_bytes_get_data (bytes, &len);

  g_assert_true (g_file_set_contents (path, p, len, NULL));
  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  check_result (c, file, error);
  if (file)
    g_assert_cmpstr (cpel_file_get_path (file), ==, path);
  g_unlink (path);
}

/* Every proper prefix of a file that loads is a truncated file. */
static void
test_prefixes (gconstpointer data)
{
  const MalformedCase *c = data;
  g_autoptr(GBytes) bytes = malformed_build (c);
  gsize len;
  const guint8 *p = g_bytes_get_data (bytes, &len);

  for (gsize n = 0; n < len; n++)
    {
      g_autoptr(GBytes) prefix = g_bytes_new (p, n);
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = cpel_file_new_for_bytes (prefix, NULL, &error);

      /* a prefix ending exactly at a section boundary may still load */
      if (file != NULL)
        continue;
      g_assert_nonnull (error);
      g_assert_true (error->domain == CPEL_ERROR);
      g_assert_true (error->code == CPEL_ERROR_EMPTY || error->code == CPEL_ERROR_TRUNCATED);
      if (strstr (error->message, "offset ") == NULL)
        g_error ("%s[:%" G_GSIZE_FORMAT "]: “%s” names no offset", c->name, n, error->message);
    }
}

/* Clock 0 loads once the user gives a rate. */
static void
test_clock_override (void)
{
  const MalformedCase *c = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  CpelLoadOptions options = { 1000, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (malformed_cases); i++)
    if (g_str_equal (malformed_cases[i].name, "clock-0"))
      c = &malformed_cases[i];
  g_assert_nonnull (c);
  bytes = malformed_build (c);
  file = cpel_file_new_for_bytes (bytes, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_section (file, 0)->ticks_per_second, ==, 1000);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 1);
}

static int
write_corpus (const char *dir)
{
  g_mkdir_with_parents (dir, 0755);
  for (guint i = 0; i < G_N_ELEMENTS (malformed_cases); i++)
    {
      g_autoptr(GBytes) bytes = malformed_build (&malformed_cases[i]);
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strconcat ("malformed-", malformed_cases[i].name, ".cpel", NULL);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      gsize len;
      gconstpointer p = g_bytes_get_data (bytes, &len);

      if (!g_file_set_contents (path, p, len, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
    }
  return 0;
}

int
main (int    argc,
      char **argv)
{
  int ret;

  if (argc == 3 && g_str_equal (argv[1], "--write"))
    return write_corpus (argv[2]);

  g_test_init (&argc, &argv, NULL);

  tmpdir = g_dir_make_tmp ("cpel-malformed-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);

  for (guint i = 0; i < G_N_ELEMENTS (malformed_cases); i++)
    {
      const MalformedCase *c = &malformed_cases[i];
      g_autofree char *p1 = g_strconcat ("/core/malformed/bytes/", c->name, NULL);
      g_autofree char *p2 = g_strconcat ("/core/malformed/path/", c->name, NULL);

      g_test_add_data_func (p1, c, test_bytes);
      g_test_add_data_func (p2, c, test_path);
      if (c->code < 0)
        {
          g_autofree char *p3 = g_strconcat ("/core/malformed/prefixes/", c->name, NULL);
          g_test_add_data_func (p3, c, test_prefixes);
        }
    }
  g_test_add_func ("/core/malformed/clock-override", test_clock_override);

  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
