/* SPDX-License-Identifier: Apache-2.0 */
/* test-import-table.c — the importer table holds exactly the formats this
 * build compiled in (-Dctf, -Dperf: config.h), and what follows the table
 * (the "not a supported event log" list, detection, the source format's
 * name) follows it. */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-import.h"

/* The table this build must have, in detection order. */
static GPtrArray *
expected_ids (void)
{
  GPtrArray *ids = g_ptr_array_new ();

#if HAVE_PERF
  g_ptr_array_add (ids, "perf");
#endif
#if HAVE_CTF
  g_ptr_array_add (ids, "ctf");
#endif
  g_ptr_array_add (ids, "elog");
  g_ptr_array_add (ids, "snabb");
  g_ptr_array_add (ids, "cpel");
  return ids;
}

static void
test_ids (void)
{
  g_autoptr(GPtrArray) ids = expected_ids ();
  const CpelImporter * const *table = cpel_importers ();
  guint n = 0;

  while (table[n] != NULL)
    {
      g_assert_cmpuint (n, <, ids->len);
      g_assert_cmpstr (table[n]->id, ==, g_ptr_array_index (ids, n));
      g_assert_true (cpel_importer_lookup (table[n]->id) == table[n]);
      n++;
    }
  g_assert_cmpuint (n, ==, ids->len);
  g_assert_true ((cpel_importer_lookup ("perf") != NULL) == HAVE_PERF);
  g_assert_true ((cpel_importer_lookup ("ctf") != NULL) == HAVE_CTF);
  g_assert_null (cpel_importer_lookup ("gist"));
}

/* The message names every format of the table (CPEL first), and no other. */
static void
test_unsupported_list (void)
{
  static const guint8 junk[8] = { 0x7e, 'j', 'u', 'n', 'k', 0, 0, 0 };
  const CpelImporter * const *table = cpel_importers ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) list = g_string_new (_("CPEL"));
  g_autofree char *expected = NULL;

  for (guint i = 0; table[i] != NULL; i++)
    if (strcmp (table[i]->id, "cpel") != 0)
      g_string_append_printf (list, ", %s", _(table[i]->name));
  expected = g_strdup_printf ("(%s)", list->str);

  g_assert_null (cpel_import_detect_bytes (junk, sizeof junk, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL);
  g_assert_nonnull (strstr (error->message, expected));
  g_assert_true ((strstr (error->message, "perf.data") != NULL) == HAVE_PERF);
  g_assert_true ((strstr (error->message, "CTF") != NULL) == HAVE_CTF);
  g_assert_nonnull (strstr (error->message, "VPP elog"));
  g_assert_nonnull (strstr (error->message, "Snabb timeline"));
}

/* A perf.data header and a CTF trace folder are detected exactly when
 * their importer is compiled in; else they are not supported. */
static void
test_detect (void)
{
  static const guint8 perf_head[16] = "PERFILE2";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-table-XXXXXX", &error);
  g_autofree char *metadata = NULL;
  const CpelImporter *imp;

  imp = cpel_import_detect_bytes (perf_head, sizeof perf_head, &error);
#if HAVE_PERF
  g_assert_no_error (error);
  g_assert_nonnull (imp);
  g_assert_cmpstr (imp->id, ==, "perf");
#else
  g_assert_null (imp);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL);
  g_assert_nonnull (strstr (error->message, "none of the formats this program reads"));
  g_clear_error (&error);
#endif

  g_assert_nonnull (dir);
  metadata = g_build_filename (dir, "metadata", NULL);
  g_assert_true (g_file_set_contents (metadata, "/* CTF 1.8 */\n", -1, &error));
  imp = cpel_import_detect (dir, &error);
#if HAVE_CTF
  g_assert_no_error (error);
  g_assert_nonnull (imp);
  g_assert_cmpstr (imp->id, ==, "ctf");
#else
  g_assert_null (imp);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_clear_error (&error);
#endif
  g_assert_cmpint (g_remove (metadata), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/table/ids", test_ids);
  g_test_add_func ("/core/import/table/unsupported-list", test_unsupported_list);
  g_test_add_func ("/core/import/table/detect", test_detect);
  return g_test_run ();
}
