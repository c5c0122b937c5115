/* SPDX-License-Identifier: Apache-2.0 */
/* test-writer.c — the CPEL writer: exact bytes, errors, atomic files, and
 * round trips through the loader. */
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

/* ---- an independent reader of the raw layout -------------------------------- */

typedef struct
{
  guint32       type;
  guint32       len;
  const guint8 *data;
} RawSection;

static guint32
rd32 (gboolean le, const guint8 *p)
{
  if (le)
    return p[0] | p[1] << 8 | p[2] << 16 | (guint32) p[3] << 24;
  return (guint32) p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* Splits a file into sections, asserting the header and that the sections
 * exactly fill the file.  Returns the number of sections. */
static guint
split_sections (GBytes *bytes, gboolean le, RawSection *out, guint max)
{
  gsize size;
  const guint8 *p = g_bytes_get_data (bytes, &size);
  guint n, i;
  gsize off = 8;

  g_assert_cmpuint (size, >=, 8);
  g_assert_cmpuint (p[0], ==, le ? 0x81 : 0x01);
  g_assert_cmpuint (p[1], ==, 0);
  n = le ? (p[2] | p[3] << 8) : (p[2] << 8 | p[3]);
  g_assert_cmpuint (n, <=, max);
  for (i = 0; i < n; i++)
    {
      g_assert_cmpuint (off + 8, <=, size);
      out[i].type = rd32 (le, p + off);
      out[i].len = rd32 (le, p + off + 4);
      out[i].data = p + off + 8;
      off += 8 + (gsize) out[i].len;
      g_assert_cmpuint (off, <=, size);
    }
  g_assert_cmpuint (off, ==, size);
  return n;
}

static const char *
strtab_at (const RawSection *s, guint32 offset)
{
  g_assert_cmpuint (s->type, ==, 1);
  g_assert_cmpuint (offset, <, s->len);
  g_assert_nonnull (memchr (s->data + offset, 0, s->len - offset));
  return (const char *) s->data + offset;
}

static GBytes *
finish_bytes (CpelWriter *w)
{
  GError *error = NULL;

  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return cpel_writer_steal_bytes (w);
}

/* ---- exact layout ----------------------------------------------------------- */

static void
test_empty (gconstpointer data)
{
  gboolean le = GPOINTER_TO_INT (data);
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, le, 0x56b3c5f2, NULL);
  g_autoptr(GBytes) bytes = finish_bytes (w);
  RawSection s[1];
  const guint8 *p = g_bytes_get_data (bytes, NULL);

  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 8);
  g_assert_cmpuint (split_sections (bytes, le, s, 1), ==, 0);
  g_assert_cmpuint (rd32 (le, p + 4), ==, 0x56b3c5f2);
}

static void
test_layout (gconstpointer data)
{
  gboolean le = GPOINTER_TO_INT (data);
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, le, 1234, NULL);
  g_autoptr(GBytes) bytes = NULL;
  RawSection s[8];
  guint strtab;
  guint32 off_hello;
  const guint8 *d;

  strtab = cpel_writer_add_string_table (w, "FileStrtab");
  off_hello = cpel_writer_add_string (w, strtab, "hello");
  g_assert_cmpuint (off_hello, ==, strlen ("FileStrtab") + 1);
  g_assert_cmpuint (cpel_writer_add_string (w, strtab, "hello"), ==, off_hello);
  /* A string equal to the table name is not offset 0 (0 means "none"). */
  g_assert_cmpuint (cpel_writer_add_string (w, strtab, "FileStrtab"), !=, 0);

  cpel_writer_begin_symbols (w, strtab);
  cpel_writer_add_symbol (w, 0x1000, "main");
  cpel_writer_begin_event_defs (w, strtab);
  cpel_writer_add_event_def (w, 7, "rx", "%d pkts");
  cpel_writer_add_event_def (w, 9, NULL, NULL);
  cpel_writer_begin_track_defs (w, strtab);
  cpel_writer_add_track_def (w, 3, "worker %d");
  cpel_writer_begin_events (w, strtab, 1000000000, 2);
  cpel_writer_add_event (w, G_GUINT64_CONSTANT (0x0000000100000002), 3, 7, off_hello);
  cpel_writer_add_event (w, G_GUINT64_CONSTANT (0xfedcba9876543210), 4, 9, 0xffffffff);
  bytes = finish_bytes (w);

  g_assert_cmpuint (split_sections (bytes, le, s, 8), ==, 5);

  /* String table: name first, NUL-padded to 4. */
  g_assert_cmpuint (s[0].type, ==, 1);
  g_assert_cmpuint (s[0].len % 4, ==, 0);
  g_assert_cmpstr ((const char *) s[0].data, ==, "FileStrtab");
  g_assert_cmpstr (strtab_at (&s[0], off_hello), ==, "hello");
  for (guint i = 0; i < s[0].len; i++)
    if (i + 1 == s[0].len)
      g_assert_cmpuint (s[0].data[i], ==, 0);

  /* Symbol table */
  d = s[1].data;
  g_assert_cmpuint (s[1].type, ==, 2);
  g_assert_cmpuint (s[1].len, ==, 64 + 4 + 8);
  g_assert_cmpstr ((const char *) d, ==, "FileStrtab");
  for (guint i = strlen ("FileStrtab"); i < 64; i++)
    g_assert_cmpuint (d[i], ==, 0);
  g_assert_cmpuint (rd32 (le, d + 64), ==, 1);
  g_assert_cmpuint (rd32 (le, d + 68), ==, 0x1000);
  g_assert_cmpstr (strtab_at (&s[0], rd32 (le, d + 72)), ==, "main");

  /* Event definitions */
  d = s[2].data;
  g_assert_cmpuint (s[2].type, ==, 3);
  g_assert_cmpuint (s[2].len, ==, 64 + 4 + 2 * 12);
  g_assert_cmpuint (rd32 (le, d + 64), ==, 2);
  g_assert_cmpuint (rd32 (le, d + 68), ==, 7);
  g_assert_cmpstr (strtab_at (&s[0], rd32 (le, d + 72)), ==, "rx");
  g_assert_cmpstr (strtab_at (&s[0], rd32 (le, d + 76)), ==, "%d pkts");
  g_assert_cmpuint (rd32 (le, d + 80), ==, 9);
  g_assert_cmpuint (rd32 (le, d + 84), ==, 0);
  g_assert_cmpuint (rd32 (le, d + 88), ==, 0);

  /* Track definitions */
  d = s[3].data;
  g_assert_cmpuint (s[3].type, ==, 4);
  g_assert_cmpuint (s[3].len, ==, 64 + 4 + 8);
  g_assert_cmpuint (rd32 (le, d + 64), ==, 1);
  g_assert_cmpuint (rd32 (le, d + 68), ==, 3);
  g_assert_cmpstr (strtab_at (&s[0], rd32 (le, d + 72)), ==, "worker %d");

  /* Events: 64-bit times split hi/lo. */
  d = s[4].data;
  g_assert_cmpuint (s[4].type, ==, 5);
  g_assert_cmpuint (s[4].len, ==, 64 + 8 + 2 * 20);
  g_assert_cmpstr ((const char *) d, ==, "FileStrtab");
  g_assert_cmpuint (rd32 (le, d + 64), ==, 2);
  g_assert_cmpuint (rd32 (le, d + 68), ==, 1000000000);
  d += 72;
  g_assert_cmpuint (rd32 (le, d + 0), ==, 1);
  g_assert_cmpuint (rd32 (le, d + 4), ==, 2);
  g_assert_cmpuint (rd32 (le, d + 8), ==, 3);
  g_assert_cmpuint (rd32 (le, d + 12), ==, 7);
  g_assert_cmpuint (rd32 (le, d + 16), ==, off_hello);
  g_assert_cmpuint (rd32 (le, d + 20), ==, 0xfedcba98);
  g_assert_cmpuint (rd32 (le, d + 24), ==, 0x76543210);
  g_assert_cmpuint (rd32 (le, d + 28), ==, 4);
  g_assert_cmpuint (rd32 (le, d + 32), ==, 9);
  g_assert_cmpuint (rd32 (le, d + 36), ==, 0xffffffff);
}

/* Formats added by a definition section after the table was begun land in
 * that table, and several tables keep their own offsets. */
static void
test_tables (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GBytes) bytes = NULL;
  RawSection s[8];
  guint a, b;

  a = cpel_writer_add_string_table (w, "A");
  b = cpel_writer_add_string_table (w, "Bee");
  cpel_writer_begin_event_defs (w, b);
  cpel_writer_add_event_def (w, 1, "one", "%s");
  cpel_writer_begin_event_defs (w, a);
  cpel_writer_add_event_def (w, 2, "two", NULL);
  cpel_writer_add_raw_section (w, 77, "xyz", 3);
  bytes = finish_bytes (w);

  g_assert_cmpuint (split_sections (bytes, FALSE, s, 8), ==, 5);
  g_assert_cmpstr ((const char *) s[0].data, ==, "A");
  g_assert_cmpstr ((const char *) s[1].data, ==, "Bee");
  g_assert_cmpstr ((const char *) s[2].data, ==, "Bee");
  g_assert_cmpstr (strtab_at (&s[1], rd32 (FALSE, s[2].data + 72)), ==, "one");
  g_assert_cmpstr (strtab_at (&s[1], rd32 (FALSE, s[2].data + 76)), ==, "%s");
  g_assert_cmpstr ((const char *) s[3].data, ==, "A");
  g_assert_cmpstr (strtab_at (&s[0], rd32 (FALSE, s[3].data + 72)), ==, "two");
  g_assert_cmpuint (s[4].type, ==, 77);
  g_assert_cmpuint (s[4].len, ==, 3);
  g_assert_cmpmem (s[4].data, 3, "xyz", 3);
}

/* ---- errors ----------------------------------------------------------------- */

static void
test_too_few_events (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GError) error = NULL;
  guint t = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_events (w, t, 1000, 3);
  cpel_writer_add_event (w, 1, 0, 0, 0);
  g_assert_false (cpel_writer_finish (w, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SECTION);
}

static void
test_too_many_events (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GError) error = NULL;
  guint t = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_events (w, t, 1000, 1);
  cpel_writer_add_event (w, 1, 0, 0, 0);
  cpel_writer_add_event (w, 2, 0, 0, 0);
  g_assert_false (cpel_writer_finish (w, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SECTION);
}

static void
test_sealed_table (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GError) error = NULL;
  guint t = cpel_writer_add_string_table (w, "T");
  guint32 old = cpel_writer_add_string (w, t, "old");

  cpel_writer_begin_events (w, t, 1000, 0);
  /* Known strings are still found; new ones cannot be added any more. */
  g_assert_cmpuint (cpel_writer_add_string (w, t, "old"), ==, old);
  cpel_writer_add_string (w, t, "new");
  g_assert_false (cpel_writer_finish (w, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
}

static void
test_long_table_name (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GError) error = NULL;
  char name[65];

  memset (name, 'n', 64);
  name[64] = 0;
  cpel_writer_add_string_table (w, name);
  g_assert_false (cpel_writer_finish (w, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
}

static void
test_huge_event_section (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GError) error = NULL;
  guint t = cpel_writer_add_string_table (w, "T");

  /* 20 * 2^32 - 1 octets do not fit a 32-bit section length. */
  cpel_writer_begin_events (w, t, 1000, G_MAXUINT32);
  g_assert_false (cpel_writer_finish (w, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE);
}

/* ---- files ------------------------------------------------------------------ */

static gboolean
write_small (const char *path, gboolean overwrite, guint32 date, GError **error)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (path, FALSE, date, error);
  guint t;

  if (w == NULL)
    return FALSE;
  cpel_writer_set_overwrite (w, overwrite);
  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_events (w, t, 1000000000, 1);
  cpel_writer_add_event (w, 5, 1, 2, 3);
  return cpel_writer_finish (w, error);
}

static void
test_file_atomic (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-writer-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_no_error (error);
  path = g_build_filename (dir, "out.cpel", NULL);

  g_assert_true (write_small (path, FALSE, 1, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, ==, 8 + 8 + 4 + 8 + 72 + 20);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);
  g_clear_pointer (&contents, g_free);

  /* No overwrite: the existing file stays as it was, no temp file left. */
  g_assert_false (write_small (path, FALSE, 2, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (((guint8 *) contents)[7], ==, 1);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);
  g_clear_pointer (&contents, g_free);

  /* Overwrite allowed. */
  g_assert_true (write_small (path, TRUE, 2, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (((guint8 *) contents)[7], ==, 2);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);

  g_unlink (path);
  g_rmdir (dir);
}

/* A failed or abandoned writer leaves nothing behind. */
static void
test_file_failure_leaves_nothing (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-writer-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "out.cpel", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-dir", "out.cpel", NULL);
  CpelWriter *w;
  guint t;

  w = cpel_writer_new (path, TRUE, 0, &error);
  g_assert_no_error (error);
  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_events (w, t, 1000, 2);
  cpel_writer_add_event (w, 1, 0, 0, 0);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);   /* the temp file */
  g_assert_false (cpel_writer_finish (w, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SECTION);
  g_clear_error (&error);
  cpel_writer_free (w);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 0);

  w = cpel_writer_new (path, TRUE, 0, &error);
  g_assert_no_error (error);
  cpel_writer_add_string_table (w, "T");
  cpel_writer_free (w);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 0);

  w = cpel_writer_new (missing, TRUE, 0, &error);
  g_assert_null (w);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  g_rmdir (dir);
}

/* A streamed section larger than the writer's buffer. */
static void
test_streaming (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, NULL);
  g_autoptr(GBytes) bytes = NULL;
  const guint n = 200000;   /* 4 MB of events */
  RawSection s[2];
  guint t = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_events (w, t, 1000, n);
  for (guint i = 0; i < n; i++)
    cpel_writer_add_event (w, (guint64) i << 20, i % 7, i, ~i);
  bytes = finish_bytes (w);
  g_assert_cmpuint (split_sections (bytes, TRUE, s, 2), ==, 2);
  g_assert_cmpuint (rd32 (TRUE, s[1].data + 64), ==, n);
  for (guint i = 0; i < n; i += 997)
    {
      const guint8 *e = s[1].data + 72 + (gsize) i * 20;

      g_assert_cmpuint (((guint64) rd32 (TRUE, e) << 32) | rd32 (TRUE, e + 4), ==,
                        (guint64) i << 20);
      g_assert_cmpuint (rd32 (TRUE, e + 12), ==, i);
      g_assert_cmpuint (rd32 (TRUE, e + 16), ==, ~i);
    }
}


/* ---- round trips through the loader ---------------------------------------- */

static CpelFile *
load_bytes (GBytes *bytes)
{
  GError *error = NULL;
  CpelFile *file = cpel_file_new_for_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

static char *
event_label (CpelFile *file, guint slot, guint64 index)
{
  CpelEvent ev;
  GString *s = g_string_new (NULL);

  cpel_file_get_track_event (file, slot, index, &ev);
  cpel_file_append_label (file, &ev, s);
  return g_string_free (s, FALSE);
}

static guint
slot_of (CpelFile *file, guint32 id)
{
  guint slot = G_MAXUINT;

  g_assert_true (cpel_file_lookup_track (file, id, &slot));
  return slot;
}

static void
test_roundtrip (gconstpointer data)
{
  gboolean le = GPOINTER_TO_INT (data);
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, le, 777, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) file = NULL;
  guint t, type;
  guint32 node;
  g_autofree char *l0 = NULL, *l1 = NULL, *l2 = NULL, *l3 = NULL;

  t = cpel_writer_add_string_table (w, "FileStrtab");
  node = cpel_writer_add_string (w, t, "ip4-lookup");
  cpel_writer_begin_symbols (w, t);
  cpel_writer_add_symbol (w, 0x2000, "beta");
  cpel_writer_add_symbol (w, 0x1000, "alpha");   /* unsorted on purpose */
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "dispatch", "%s");
  cpel_writer_add_event_def (w, 2, "call", "%k");
  cpel_writer_add_event_def (w, 3, "vec", "0x%08x (%d)");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 10, "worker %d");
  cpel_writer_add_track_def (w, 11, "main");
  cpel_writer_begin_events (w, t, 1000000000, 4);
  cpel_writer_add_event (w, 5000, 10, 1, node);
  cpel_writer_add_event (w, 6000, 11, 2, 0x1010);
  cpel_writer_add_event (w, 7000, 10, 3, 255);
  cpel_writer_add_event (w, 8000, 12, 9, 0);        /* undefined track and code */
  bytes = finish_bytes (w);
  file = load_bytes (bytes);

  g_assert_cmpuint (cpel_file_is_little_endian (file), ==, le);
  g_assert_cmpuint (cpel_file_get_version (file), ==, 1);
  g_assert_cmpuint (cpel_file_get_date (file), ==, 777);
  g_assert_cmpuint (cpel_file_get_n_sections (file), ==, 5);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 4);
  g_assert_cmpint (cpel_file_get_duration (file), ==, 3000);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 3);
  g_assert_cmpstr (cpel_file_get_track_label (file, slot_of (file, 10)), ==, "worker 10");
  g_assert_cmpstr (cpel_file_get_track_label (file, slot_of (file, 11)), ==, "main");
  g_assert_cmpstr (cpel_file_get_track_label (file, slot_of (file, 12)), ==, "12");
  g_assert_true (cpel_file_lookup_type (file, 9, &type));
  g_assert_false (cpel_file_get_type_defined (file, type));
  g_assert_cmpstr (cpel_file_get_type_name (file, type), ==, "E9");

  l0 = event_label (file, slot_of (file, 10), 0);
  l1 = event_label (file, slot_of (file, 10), 1);
  l2 = event_label (file, slot_of (file, 11), 0);
  l3 = event_label (file, slot_of (file, 12), 0);
  g_assert_cmpstr (l0, ==, "dispatch: ip4-lookup");
  g_assert_cmpstr (l1, ==, "vec: 0x000000ff (255)");
  g_assert_cmpstr (l2, ==, "call: alpha+0x10");
  g_assert_cmpstr (l3, ==, "E9");
}

/* Several string tables and event sections with different clocks: each
 * section's %s uses its own table; times are converted per section. */
static void
test_roundtrip_sections (gconstpointer data)
{
  gboolean le = GPOINTER_TO_INT (data);
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, le, 0, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) file = NULL;
  guint defs, a, b, slot;
  guint32 sa, sb;
  const gint64 *times;
  guint64 n;
  g_autofree char *la = NULL, *lb = NULL;

  defs = cpel_writer_add_string_table (w, "Defs");
  a = cpel_writer_add_string_table (w, "TableA");
  b = cpel_writer_add_string_table (w, "TableB");
  cpel_writer_add_string (w, b, "padding so offsets differ");
  sa = cpel_writer_add_string (w, a, "from A");
  sb = cpel_writer_add_string (w, b, "from B");
  g_assert_cmpuint (sa, !=, sb);
  cpel_writer_begin_event_defs (w, defs);
  cpel_writer_add_event_def (w, 1, "msg", "%s");
  /* Section 1: 1 GHz ticks (ns). */
  cpel_writer_begin_events (w, a, 1000000000, 2);
  cpel_writer_add_event (w, 1000, 1, 1, sa);
  cpel_writer_add_event (w, 3000, 1, 1, sa);
  /* Section 2: 2.5 GHz: 5000 ticks = 2000 ns, 5001 ticks = 2000.4 -> 2000 ns. */
  cpel_writer_begin_events (w, b, 2500000000u, 2);
  cpel_writer_add_event (w, 5000, 1, 1, sb);
  cpel_writer_add_event (w, 5001, 2, 1, sb);
  /* Section 3: 4 ticks per µs (read as per µs, with a warning). */
  cpel_writer_begin_events (w, a, 4, 1);
  cpel_writer_add_event (w, 10, 2, 1, sa);   /* 2.5 µs */
  bytes = finish_bytes (w);
  file = load_bytes (bytes);

  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 5);
  g_assert_cmpint (cpel_file_get_base_ns (file), ==, 1000);
  g_assert_cmpuint (cpel_file_get_section (file, 4)->ticks_per_second, ==, 1000000000);
  g_assert_cmpuint (cpel_file_get_section (file, 5)->ticks_per_second, ==, 2500000000u);
  g_assert_true (cpel_file_get_section (file, 6)->clock_per_us);
  g_assert_nonnull (cpel_file_get_warnings (file)[0]);

  slot = slot_of (file, 1);
  times = cpel_file_get_track_times (file, slot, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (times[0], ==, 0);
  g_assert_cmpint (times[1], ==, 1000);
  g_assert_cmpint (times[2], ==, 2000);
  la = event_label (file, slot, 0);
  lb = event_label (file, slot, 1);
  g_assert_cmpstr (la, ==, "msg: from A");
  g_assert_cmpstr (lb, ==, "msg: from B");

  slot = slot_of (file, 2);
  times = cpel_file_get_track_times (file, slot, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (times[0], ==, 1000);
  g_assert_cmpint (times[1], ==, 1500);
}

/* Unsorted events and ties: per-track time order, file order breaks ties;
 * 64-bit timestamps near the top of the range convert exactly. */
static void
test_roundtrip_unsorted (gconstpointer data)
{
  gboolean le = GPOINTER_TO_INT (data);
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, le, 0, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) file = NULL;
  const guint64 big = G_GUINT64_CONSTANT (0xfffffff000000000);
  const guint32 tps = 3000000000u;
  guint t, slot;
  const gint64 *times;
  guint64 n;

  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_events (w, t, tps, 6);
  cpel_writer_add_event (w, big + 300, 1, 1, 0);
  cpel_writer_add_event (w, big + 3, 1, 1, 1);
  cpel_writer_add_event (w, big + 300, 1, 1, 2);   /* tie with the first */
  cpel_writer_add_event (w, big, 1, 1, 3);
  cpel_writer_add_event (w, big + 300, 1, 1, 4);   /* tie again */
  cpel_writer_add_event (w, big + 3, 2, 1, 5);
  bytes = finish_bytes (w);
  file = load_bytes (bytes);

  /* floor (ticks * 10^9 / tps), computed exactly, minus the earliest. */
  {
    unsigned __int128 base = (unsigned __int128) big * 1000000000u / tps;
    gint64 d3 = (gint64) ((unsigned __int128) (big + 3) * 1000000000u / tps - base);
    gint64 d300 = (gint64) ((unsigned __int128) (big + 300) * 1000000000u / tps - base);

    g_assert_cmpint (cpel_file_get_base_ns (file), ==, (gint64) base);
    slot = slot_of (file, 1);
    times = cpel_file_get_track_times (file, slot, &n);
    g_assert_cmpuint (n, ==, 5);
    g_assert_cmpint (times[0], ==, 0);
    g_assert_cmpint (times[1], ==, d3);
    g_assert_cmpint (times[2], ==, d300);
    g_assert_cmpint (times[3], ==, d300);
    g_assert_cmpint (times[4], ==, d300);
    g_assert_cmpuint (cpel_file_get_track_event_datum (file, slot, 0), ==, 3);
    g_assert_cmpuint (cpel_file_get_track_event_datum (file, slot, 1), ==, 1);
    g_assert_cmpuint (cpel_file_get_track_event_datum (file, slot, 2), ==, 0);
    g_assert_cmpuint (cpel_file_get_track_event_datum (file, slot, 3), ==, 2);
    g_assert_cmpuint (cpel_file_get_track_event_datum (file, slot, 4), ==, 4);
  }
}

/* A file written to disk loads from its path. */
static void
test_roundtrip_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-writer-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "rt.cpel", NULL);
  g_autoptr(CpelFile) file = NULL;

  g_assert_true (write_small (path, FALSE, 9, &error));
  g_assert_no_error (error);
  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 1);
  g_assert_cmpuint (cpel_file_get_date (file), ==, 9);
  g_assert_cmpuint (cpel_file_get_track_id (file, 0), ==, 1);
  g_clear_object (&file);
  g_unlink (path);
  g_rmdir (dir);
}

/* Raw sections of type 1 are written as given; a table copied byte for byte
 * keeps every offset, padding included. */
static void
test_raw_string_table (void)
{
  static const char table[] = "Raw\0a\0\0b%s\0\0\0";   /* repeated/empty strings, extra padding */
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  RawSection sec[4];
  guint t;

  cpel_writer_add_raw_section (w, 1, "Other\0\0\0", 8);
  t = cpel_writer_add_string_table_data (w, table, sizeof table - 1);
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 5, NULL, NULL);
  cpel_writer_begin_events (w, t, 1000000000, 1);
  cpel_writer_add_event (w, 0, 0, 5, 0);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);

  g_assert_cmpuint (split_sections (bytes, FALSE, sec, G_N_ELEMENTS (sec)), ==, 4);
  g_assert_cmpuint (sec[0].type, ==, 1);
  g_assert_cmpmem (sec[0].data, sec[0].len, "Other\0\0\0", 8);
  g_assert_cmpuint (sec[1].type, ==, 1);
  g_assert_cmpuint (sec[1].len, ==, 16);   /* 13 octets, padded to 16 with NULs */
  g_assert_cmpmem (sec[1].data, 13, table, 13);
  g_assert_cmpmem (sec[1].data + 13, 3, "\0\0\0", 3);

  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cpel_file_get_section (file, 1)->table_name, ==, "Raw");
  g_assert_cmpstr (cpel_file_get_section (file, 3)->table_name, ==, "Raw");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/core/writer/empty/big-endian", GINT_TO_POINTER (FALSE), test_empty);
  g_test_add_data_func ("/core/writer/empty/little-endian", GINT_TO_POINTER (TRUE), test_empty);
  g_test_add_data_func ("/core/writer/layout/big-endian", GINT_TO_POINTER (FALSE), test_layout);
  g_test_add_data_func ("/core/writer/layout/little-endian", GINT_TO_POINTER (TRUE), test_layout);
  g_test_add_func ("/core/writer/tables", test_tables);
  g_test_add_func ("/core/writer/raw-string-table", test_raw_string_table);
  g_test_add_func ("/core/writer/error/too-few-events", test_too_few_events);
  g_test_add_func ("/core/writer/error/too-many-events", test_too_many_events);
  g_test_add_func ("/core/writer/error/sealed-table", test_sealed_table);
  g_test_add_func ("/core/writer/error/long-table-name", test_long_table_name);
  g_test_add_func ("/core/writer/error/huge-event-section", test_huge_event_section);
  g_test_add_func ("/core/writer/file/atomic", test_file_atomic);
  g_test_add_func ("/core/writer/file/failure-leaves-nothing", test_file_failure_leaves_nothing);
  g_test_add_func ("/core/writer/streaming", test_streaming);
  g_test_add_data_func ("/core/writer/roundtrip/big-endian", GINT_TO_POINTER (FALSE), test_roundtrip);
  g_test_add_data_func ("/core/writer/roundtrip/little-endian", GINT_TO_POINTER (TRUE), test_roundtrip);
  g_test_add_data_func ("/core/writer/roundtrip/sections/big-endian", GINT_TO_POINTER (FALSE),
                        test_roundtrip_sections);
  g_test_add_data_func ("/core/writer/roundtrip/sections/little-endian", GINT_TO_POINTER (TRUE),
                        test_roundtrip_sections);
  g_test_add_data_func ("/core/writer/roundtrip/unsorted/big-endian", GINT_TO_POINTER (FALSE),
                        test_roundtrip_unsorted);
  g_test_add_data_func ("/core/writer/roundtrip/unsorted/little-endian", GINT_TO_POINTER (TRUE),
                        test_roundtrip_unsorted);
  g_test_add_func ("/core/writer/roundtrip/file", test_roundtrip_file);

  return g_test_run ();
}
