/* SPDX-License-Identifier: Apache-2.0 */
/* test-import-compressed.c — gzip and zstd captures open directly (the
 * same events as the plain file), xz is named; and what files that are no
 * supported event log are called: a CPEL header of another version, random
 * bytes */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#if HAVE_ZSTD
#include <zstd.h>
#endif

#include "cpel-core.h"
#include "cpel-import.h"
#include "cpel-import-compressed.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

/* Every event as "time track type label", in time order. */
static GPtrArray *
event_lines (CpelFile *file)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  g_autoptr(GString) label = g_string_new (NULL);
  CpelEvent ev;

  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_string_truncate (label, 0);
      cpel_file_append_label (file, &ev, label);
      g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT " %s %s %s", ev.time_ns,
                                               cpel_file_get_track_label (file, ev.track_slot),
                                               cpel_file_get_type_name (file, ev.type),
                                               label->str));
    }
  return lines;
}

static GBytes *
gzip_bytes (const guint8 *data, gsize size)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (g_memdup2 (data, size), size,
                                                                     g_free);
  g_autoptr(GInputStream) conv = g_converter_input_stream_new (in, G_CONVERTER (z));
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_output_stream_splice (out, conv, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE
                          | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

#if HAVE_ZSTD
static GBytes *
zstd_bytes (const guint8 *data, gsize size)
{
  gsize cap = ZSTD_compressBound (size);
  guint8 *buf = g_malloc (cap);
  size_t n = ZSTD_compress (buf, cap, data, size, 3);

  g_assert_false (ZSTD_isError (n));
  return g_bytes_new_take (buf, n);
}
#endif

static char *
write_tmp (const char *name, GBytes *bytes, char **dir)
{
  g_autoptr(GError) error = NULL;
  char *path;

  *dir = g_dir_make_tmp ("cpel-compressed-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (*dir, name, NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  return path;
}

static void
remove_tmp (char *path, char *dir)
{
  g_unlink (path);
  g_rmdir (dir);
}

/* The fixture compressed by `compress` opens, by path and from memory,
 * with the same events and labels as the fixture itself. */
static void
check_same_events (const char *fixture, GBytes *(*compress) (const guint8 *, gsize),
                   const char *suffix)
{
  g_autofree char *path = cpel_test_fixture_file (fixture);
  g_autofree char *text = NULL;
  g_autofree char *dir = NULL, *tmp = NULL, *name = NULL;
  g_autoptr(GBytes) packed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) plain = NULL, opened = NULL, from_bytes = NULL;
  g_autoptr(GPtrArray) want = NULL, got = NULL, got_bytes = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  packed = compress ((const guint8 *) text, len);
  g_assert_cmpint (memcmp (g_bytes_get_data (packed, NULL), text, MIN (len, 4)), !=, 0);
  name = g_strconcat (strrchr (fixture, '/') + 1, suffix, NULL);
  tmp = write_tmp (name, packed, &dir);

  plain = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  opened = cpel_file_new_for_path (tmp, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  from_bytes = cpel_file_new_for_bytes (packed, NULL, &error);
  g_assert_no_error (error);

  want = event_lines (plain);
  got = event_lines (opened);
  got_bytes = event_lines (from_bytes);
  g_assert_cmpuint (want->len, >, 0);
  cpel_test_assert_same_lines (want, got);
  cpel_test_assert_same_lines (want, got_bytes);
  g_assert_cmpstr (cpel_file_get_imported_from (opened), ==, cpel_file_get_imported_from (plain));
  if (cpel_file_get_imported_from (opened) != NULL)
    {
      /* the compressed file is the source: its path, its size on disk */
      g_assert_cmpstr (cpel_file_get_path (opened), ==, tmp);
      g_assert_cmpuint (cpel_file_get_source_size (opened), ==, g_bytes_get_size (packed));
    }
  g_clear_object (&opened);
  remove_tmp (tmp, dir);
}

static void
test_gzip (void)
{
  check_same_events ("vpp-elog/tiny.elog", gzip_bytes, ".gz");
  check_same_events ("vpp-elog/tiny.c2cpel.cpel", gzip_bytes, ".gz");
}

static void
test_zstd (void)
{
#if HAVE_ZSTD
  check_same_events ("vpp-elog/workers.elog", zstd_bytes, ".zst");
  check_same_events ("vpp-elog/workers.c2cpel.cpel", zstd_bytes, ".zst");
#else
  g_test_skip ("built without libzstd");
#endif
}

/* Two gzip members one after the other (gzip -c a b) are one file. */
static void
test_gzip_members (void)
{
  static const char a[] = "first part, ", b[] = "second part";
  g_autoptr(GBytes) ga = gzip_bytes ((const guint8 *) a, strlen (a));
  g_autoptr(GBytes) gb = gzip_bytes ((const guint8 *) b, strlen (b));
  g_autoptr(GByteArray) both = g_byte_array_new ();
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;

  g_byte_array_append (both, g_bytes_get_data (ga, NULL), (guint) g_bytes_get_size (ga));
  g_byte_array_append (both, g_bytes_get_data (gb, NULL), (guint) g_bytes_get_size (gb));
  out = cpel_import_decompress (both->data, both->len, 1000, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "first part, second part", 23);
}

/* More than the limit once decompressed: refused, with the limit named;
 * damaged or cut data: the offset. */
static void
test_limit_and_damage (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-elog/workers.elog");
  g_autofree char *text = NULL;
  g_autoptr(GBytes) packed = NULL, out = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *p;
  gsize len, plen;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  packed = gzip_bytes ((const guint8 *) text, len);
  p = g_bytes_get_data (packed, &plen);

  out = cpel_import_decompress (p, plen, len - 1, NULL, &error);
  g_assert_null (out);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "more than"));
  g_assert_nonnull (strstr (error->message, "decompress it first"));
  g_clear_error (&error);

  out = cpel_import_decompress (p, plen, len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (out), ==, len);
  g_clear_pointer (&out, g_bytes_unref);

  out = cpel_import_decompress (p, plen / 2, len, NULL, &error);
  g_assert_null (out);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
  g_assert_nonnull (strstr (error->message, "offset"));
  g_clear_error (&error);

  g_assert_cmpuint (cpel_import_decompress_limit (), <=, CPEL_IMPORT_DECOMPRESS_MAX);
  g_assert_cmpuint (cpel_import_decompress_limit (), >, 0);
}

static GError *
open_error (const guint8 *data, gsize size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autofree char *dir = NULL;
  g_autofree char *path = write_tmp ("capture", bytes, &dir);
  GError *error = NULL;
  g_autoptr(GError) from_bytes = NULL;
  CpelFile *file;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (file);
  g_assert_nonnull (error);
  file = cpel_file_new_for_bytes (bytes, NULL, &from_bytes);
  g_assert_null (file);
  g_assert_nonnull (from_bytes);
  g_assert_true (g_error_matches (from_bytes, error->domain, error->code));
  g_assert_cmpstr (from_bytes->message, ==, error->message);
  remove_tmp (path, dir);
  return error;
}

static void
test_xz (void)
{
  static const guint8 xz[32] = { 0xfd, '7', 'z', 'X', 'Z', 0x00, 0x00, 0x04, 0xe6, 0xd6 };
  g_autoptr(GError) error = open_error (xz, sizeof xz);
  g_autofree char *line = cpel_error_dup_line (error);

  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_cmpstr (line, ==, "This is an xz-compressed file: decompress it first (unxz)");
}

/* A CPEL header of version 127: said so, not "not a CPEL file". */
static void
test_cpel_version (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-elog/tiny.c2cpel.cpel");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  text[0] = (char) ((text[0] & 0x80) | 127);
  error = open_error ((const guint8 *) text, len);
  line = cpel_error_dup_line (error);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_VERSION);
  g_assert_nonnull (strstr (error->message, "a CPEL file of version 127"));
  g_assert_nonnull (strstr (error->message, "which this program does not read"));
  g_assert_null (strstr (line, "not a CPEL file"));
}

/* Random bytes (their first byte even reading as CPEL version 1): "not a
 * supported event log", without a CPEL section's detail. */
static void
test_random_bytes (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (30);
  guint8 data[4096];

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *line = NULL;

      for (gsize i = 0; i < sizeof data; i++)
        data[i] = (guint8) g_rand_int_range (rand, 0, 256);
      data[0] = round == 0 ? 0x81 : 0x5a;
      data[1] = 0x3c;
      error = open_error (data, sizeof data);
      line = cpel_error_dup_line (error);
      g_assert_error (error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL);
      g_assert_true (g_str_has_prefix (line, "This is not a supported event log. "));
      g_assert_null (strstr (line, "Section"));
      g_assert_null (strstr (line, "version"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/compressed/gzip", test_gzip);
  g_test_add_func ("/core/import/compressed/zstd", test_zstd);
  g_test_add_func ("/core/import/compressed/gzip-members", test_gzip_members);
  g_test_add_func ("/core/import/compressed/limit-and-damage", test_limit_and_damage);
  g_test_add_func ("/core/import/compressed/xz", test_xz);
  g_test_add_func ("/core/import/compressed/cpel-version", test_cpel_version);
  g_test_add_func ("/core/import/compressed/random-bytes", test_random_bytes);
  return g_test_run ();
}
