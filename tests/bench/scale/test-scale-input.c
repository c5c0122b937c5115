/* SPDX-License-Identifier: Apache-2.0 */
/* test-scale-input.c — files that claim more than they hold fail before
 * any allocation of the claimed size.
 *
 * Each case runs in a subprocess whose address space is capped
 * (RLIMIT_AS, 512 MiB): the claims here (2^31 and more events, tracks,
 * symbols, definitions) would need gigabytes to index, so a loader that
 * allocated by the claim before checking it against the section's length
 * would abort in g_malloc instead of returning an error.  Both loading paths
 * run (from bytes, and from a mapped file).
 */
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

#define LIMIT_BYTES ((rlim_t) 512 << 20)

/* Big-endian writer of a hand-made file. */
typedef struct
{
  GByteArray *b;
} Buf;

static void
put32 (Buf *buf, guint32 v)
{
  guint8 be[4] = { v >> 24, v >> 16, v >> 8, v };
  g_byte_array_append (buf->b, be, 4);
}

static void
put_name (Buf *buf, const char *name)
{
  guint8 field[64] = { 0 };

  memcpy (field, name, MIN (strlen (name), sizeof field - 1));
  g_byte_array_append (buf->b, field, sizeof field);
}

static void
put_header (Buf *buf, guint n_sections)
{
  guint8 h[8] = { 0x01, 0, n_sections >> 8, n_sections & 0xff, 0x67, 0x74, 0x8a, 0x00 };
  g_byte_array_append (buf->b, h, 8);
}

/* A string table "T" (12 bytes: name, one string, padding). */
static void
put_strtab (Buf *buf)
{
  static const guint8 data[12] = { 'T', 0, 'e', 'v', '%', 'd', 0, 0, 0, 0, 0, 0 };

  put32 (buf, CPEL_SECTION_STRING_TABLE);
  put32 (buf, sizeof data);
  g_byte_array_append (buf->b, data, sizeof data);
}

/* A table section (2-5) claiming `count` records, holding `held_bytes`
 * bytes of records. */
static void
put_table (Buf *buf, guint32 type, guint32 count, guint held_bytes)
{
  guint header = type == CPEL_SECTION_EVENTS ? 72 : 68;

  put32 (buf, type);
  put32 (buf, header + held_bytes);
  put_name (buf, "T");
  put32 (buf, count);
  if (type == CPEL_SECTION_EVENTS)
    put32 (buf, 1000000000u);
  for (guint i = 0; i < held_bytes; i++)
    g_byte_array_append (buf->b, (const guint8 *) "\1", 1);
}

/* Loads `bytes` both ways; both must fail with a CPEL_ERROR. */
static void
expect_rejected (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, error->code);
  g_test_message ("from bytes: %s", error->message);
  g_clear_error (&error);

  dir = g_dir_make_tmp ("cpel-scale-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "claim.cpel", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), &error));
  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, error->code);
  g_test_message ("from a file: %s", error->message);
  g_unlink (path);
  g_rmdir (dir);
}

static void
cap_memory (void)
{
  struct rlimit rl = { LIMIT_BYTES, LIMIT_BYTES };

  g_assert_cmpint (setrlimit (RLIMIT_AS, &rl), ==, 0);
}

/* The case from the issue: a 100-byte file claiming 2^31 events. */
static void
case_events_2_31 (void)
{
  Buf buf = { g_byte_array_new () };
  g_autoptr(GBytes) bytes = NULL;

  put_header (&buf, 1);
  put_table (&buf, CPEL_SECTION_EVENTS, 1u << 31, 100 - 8 - 8 - 72);
  g_assert_cmpuint (buf.b->len, ==, 100);
  bytes = g_byte_array_free_to_bytes (buf.b);
  expect_rejected (bytes);
}

/* Several event sections: each claims 2^32 - 1 events. */
static void
case_events_many_sections (void)
{
  Buf buf = { g_byte_array_new () };
  g_autoptr(GBytes) bytes = NULL;

  put_header (&buf, 5);
  put_strtab (&buf);
  for (guint i = 0; i < 4; i++)
    put_table (&buf, CPEL_SECTION_EVENTS, G_MAXUINT32, 40);
  bytes = g_byte_array_free_to_bytes (buf.b);
  expect_rejected (bytes);
}

static void
case_tracks (void)
{
  Buf buf = { g_byte_array_new () };
  g_autoptr(GBytes) bytes = NULL;

  put_header (&buf, 2);
  put_strtab (&buf);
  put_table (&buf, CPEL_SECTION_TRACK_DEFS, 1u << 31, 16);
  bytes = g_byte_array_free_to_bytes (buf.b);
  expect_rejected (bytes);
}

static void
case_event_defs (void)
{
  Buf buf = { g_byte_array_new () };
  g_autoptr(GBytes) bytes = NULL;

  put_header (&buf, 2);
  put_strtab (&buf);
  put_table (&buf, CPEL_SECTION_EVENT_DEFS, G_MAXUINT32, 24);
  bytes = g_byte_array_free_to_bytes (buf.b);
  expect_rejected (bytes);
}

static void
case_symbols (void)
{
  Buf buf = { g_byte_array_new () };
  g_autoptr(GBytes) bytes = NULL;

  put_header (&buf, 2);
  put_strtab (&buf);
  put_table (&buf, CPEL_SECTION_SYMBOL_TABLE, 1u << 31, 16);
  bytes = g_byte_array_free_to_bytes (buf.b);
  expect_rejected (bytes);
}

/* A section length of nearly 4 GiB in a 100-byte file. */
static void
case_section_length (void)
{
  Buf buf = { g_byte_array_new () };
  g_autoptr(GBytes) bytes = NULL;

  put_header (&buf, 1);
  put32 (&buf, CPEL_SECTION_EVENTS);
  put32 (&buf, 0xfffffff0u);
  put_name (&buf, "T");
  put32 (&buf, 1u << 31);
  put32 (&buf, 1000000000u);
  while (buf.b->len < 100)
    g_byte_array_append (buf.b, (const guint8 *) "\0", 1);
  bytes = g_byte_array_free_to_bytes (buf.b);
  expect_rejected (bytes);
}

/* 65535 sections announced, none there. */
static void
case_sections (void)
{
  Buf buf = { g_byte_array_new () };
  g_autoptr(GBytes) bytes = NULL;

  put_header (&buf, 0xffff);
  put_strtab (&buf);
  bytes = g_byte_array_free_to_bytes (buf.b);
  expect_rejected (bytes);
}

typedef struct
{
  const char *name;
  void      (*func) (void);
} Case;

static const Case cases[] = {
  { "events-2^31", case_events_2_31 },
  { "events-many-sections", case_events_many_sections },
  { "tracks", case_tracks },
  { "event-defs", case_event_defs },
  { "symbols", case_symbols },
  { "section-length", case_section_length },
  { "sections", case_sections },
};

static void
run_case (gconstpointer data)
{
  const Case *c = data;

  if (g_test_subprocess ())
    {
      cap_memory ();
      c->func ();
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The cap itself works: allocating twice the cap fails in the capped
 * subprocess (so the cases above would notice a loader that allocated by a
 * claim of gigabytes). */
static void
test_cap_is_effective (void)
{
  if (g_test_subprocess ())
    {
      gpointer p;

      cap_memory ();
      p = g_try_malloc (LIMIT_BYTES * 2);
      g_assert_null (p);
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* And a real file still loads under it. */
static void
test_sample_loads_under_cap (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-sample.cpel");

  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = NULL;

      cap_memory ();
      file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_file_get_n_events (file), ==, 67);
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scale/input/cap-is-effective", test_cap_is_effective);
  g_test_add_func ("/scale/input/sample-loads-under-cap", test_sample_loads_under_cap);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/scale/input/claims/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i], run_case);
    }
  return g_test_run ();
}
