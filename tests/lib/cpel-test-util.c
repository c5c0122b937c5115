/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-util.c — shared helpers for the test programs */
#include "cpel-test-util.h"

#include <string.h>

#include <glib/gstdio.h>

#include "cpel-loader.h"
#include "cpel-span-rules.h"

/* The fixtures folder: $CPEL_FIXTURES_DIR (set by tests/meson.build), else
 * the source tree's tests/fixtures compiled in, so that a test program run
 * by hand finds it too. */
static const char *
fixtures_dir (void)
{
  const char *dir = g_getenv ("CPEL_FIXTURES_DIR");

  return dir != NULL && *dir != '\0' ? dir : CPEL_TEST_FIXTURES_DIR;
}

static char *
fixture_path (const char *relative,
              GFileTest   test,
              const char *what)
{
  char *path = g_build_filename (fixtures_dir (), relative, NULL);

  /* A fixture is part of the repository: its absence is a broken checkout,
   * never a reason to test less. */
  if (!g_file_test (path, test))
    g_error ("fixture %s %s is missing (see tests/fixtures/README.md)", what, path);
  return path;
}

char *
cpel_test_fixture_file (const char *relative)
{
  return fixture_path (relative, G_FILE_TEST_IS_REGULAR, "file");
}

char *
cpel_test_fixture_dir (const char *relative)
{
  return fixture_path (relative, G_FILE_TEST_IS_DIR, "folder");
}

guint
cpel_test_count_entries (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = g_dir_open (dir, 0, &error);
  guint n = 0;

  g_assert_no_error (error);
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

guint
cpel_test_count_suffix (const char *dir,
                        const char *suffix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    n += g_str_has_suffix (name, suffix);
  return n;
}

gint64
cpel_test_status_kb (const char *key)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, key);
  return line != NULL ? g_ascii_strtoll (line + strlen (key), NULL, 10) : -1;
}

/* The line of /proc/self/smaps starting with `key` in the mapping holding
 * addr, after the key (NULL when there is none). */
static char *
mapping_line (const void *addr,
              const char *key)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean in = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return NULL;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 lo, hi;
      char *end;

      /* a mapping's first line: "lo-hi perms offset dev inode path" */
      lo = g_ascii_strtoull (lines[i], &end, 16);
      if (end != lines[i] && *end == '-')
        {
          hi = g_ascii_strtoull (end + 1, &end, 16);
          if (*end == ' ')
            {
              in = (guintptr) addr >= lo && (guintptr) addr < hi;
              continue;
            }
        }
      if (in && g_str_has_prefix (lines[i], key))
        return g_strdup (lines[i] + strlen (key));
    }
  return NULL;
}

gint64
cpel_test_mapping_rss_kb (const void *addr)
{
  g_autofree char *rss = mapping_line (addr, "Rss:");

  return rss != NULL ? g_ascii_strtoll (rss, NULL, 10) : -1;
}

int
cpel_test_mapping_has_flag (const void *addr,
                            const char *flag)
{
  g_autofree char *flags = mapping_line (addr, "VmFlags:");
  g_auto(GStrv) words = NULL;

  if (flags == NULL)
    return -1;
  words = g_strsplit_set (flags, " ", -1);
  return g_strv_contains ((const char * const *) words, flag);
}

void
cpel_test_assert_same_lines (GPtrArray *a, GPtrArray *b)
{
  for (guint i = 0; i < MIN (a->len, b->len); i++)
    g_assert_cmpstr (g_ptr_array_index (a, i), ==, g_ptr_array_index (b, i));
  g_assert_cmpuint (a->len, ==, b->len);
}

CpelFile *
cpel_test_file_for_bytes (GBytes                *bytes,
                          const CpelLoadOptions *options)
{
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_bytes (bytes, options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

CpelFile *
cpel_test_writer_file (CpelWriter *w)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);
  return cpel_test_file_for_bytes (bytes, NULL);
}

CpelSpanRules *
cpel_test_span_rules_new (const char *text)
{
  CpelSpanRules *rules = cpel_span_rules_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (cpel_span_rules_add_text (rules, text, -1, "test", &error));
  g_assert_no_error (error);
  return rules;
}

void
cpel_test_remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);

      if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
        cpel_test_remove_tree (p);
      else
        g_unlink (p);
    }
  g_rmdir (dir);
}

void
cpel_test_copy_tree (const char *from, const char *to)
{
  g_autoptr(GDir) d = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *a = g_build_filename (from, name, NULL);
      g_autofree char *b = g_build_filename (to, name, NULL);
      g_autofree char *data = NULL;
      gsize len = 0;

      if (g_file_test (a, G_FILE_TEST_IS_DIR))
        {
          cpel_test_copy_tree (a, b);
          continue;
        }
      g_assert_true (g_file_get_contents (a, &data, &len, NULL));
      g_assert_true (g_file_set_contents (b, data, (gssize) len, NULL));
    }
}
