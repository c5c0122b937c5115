/* SPDX-License-Identifier: Apache-2.0 */
/* test-file.c — the loader and the per-track index */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

/* ---- a tiny byte builder for hand-made files ---- */

typedef struct
{
  GByteArray *b;
  gboolean    le;
} Buf;

static void
put32 (Buf *buf, guint32 v)
{
  guint32 x = buf->le ? GUINT32_TO_LE (v) : GUINT32_TO_BE (v);
  g_byte_array_append (buf->b, (guint8 *) &x, 4);
}

static void
put_name (Buf *buf, const char *name)
{
  guint8 field[64] = { 0 };
  memcpy (field, name, MIN (strlen (name), 64));
  g_byte_array_append (buf->b, field, 64);
}

static Buf
buf_new (gboolean le)
{
  Buf buf = { g_byte_array_new (), le };
  return buf;
}

/* Header with n sections. */
static Buf
file_new (gboolean le, guint n_sections)
{
  Buf f = buf_new (le);
  guint8 h[4] = { (guint8) (1 | (le ? 0x80 : 0)), 0, 0, 0 };

  if (le)
    { h[2] = n_sections & 0xff; h[3] = n_sections >> 8; }
  else
    { h[2] = n_sections >> 8; h[3] = n_sections & 0xff; }
  g_byte_array_append (f.b, h, 4);
  put32 (&f, 1700000000);
  return f;
}

static void
add_section (Buf *f, guint32 type, Buf *data)
{
  put32 (f, type);
  put32 (f, data->b->len);
  g_byte_array_append (f->b, data->b->data, data->b->len);
  g_byte_array_unref (data->b);
}

/* A string table "T" with strings; offsets returned in offs. */
static Buf
strtab (gboolean le, const char *name, const char * const *strings, guint32 *offs)
{
  Buf s = buf_new (le);

  g_byte_array_append (s.b, (const guint8 *) name, strlen (name) + 1);
  for (guint i = 0; strings[i]; i++)
    {
      offs[i] = s.b->len;
      g_byte_array_append (s.b, (const guint8 *) strings[i], strlen (strings[i]) + 1);
    }
  while (s.b->len % 4)
    g_byte_array_append (s.b, (const guint8 *) "", 1);
  return s;
}

static CpelFile *
load_buf (Buf *f, const CpelLoadOptions *opts, GError **error)
{
  g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (f->b);
  f->b = NULL;
  return cpel_file_new_for_bytes (bytes, opts, error);
}

static char *
label_of (CpelFile *file, guint slot, guint64 index)
{
  CpelEvent ev;
  GString *s = g_string_new (NULL);

  cpel_file_get_track_event (file, slot, index, &ev);
  cpel_file_append_label (file, &ev, s);
  return g_string_free (s, FALSE);
}

/* ---- the real sample ---- */

static void
test_sample (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  CpelEvent ev;
  guint slot1, slot2;
  g_autofree char *label = NULL;
  guint64 n = 0;
  gint64 last = -1;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (file);

  g_assert_false (cpel_file_is_little_endian (file));
  g_assert_cmpuint (cpel_file_get_version (file), ==, 1);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 67);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 2);
  g_assert_cmpuint (cpel_file_get_n_sections (file), ==, 4);
  g_assert_cmpuint (cpel_file_get_section (file, 3)->ticks_per_second, ==, 1000000000);
  g_assert_null (cpel_file_get_warnings (file)[0]);

  g_assert_true (cpel_file_lookup_track (file, 0, &slot1));
  g_assert_true (cpel_file_lookup_track (file, 1, &slot2));
  g_assert_cmpstr (cpel_file_get_track_label (file, slot1), ==, "workers 1");
  g_assert_cmpstr (cpel_file_get_track_label (file, slot2), ==, "workers 2");
  g_assert_cmpuint (cpel_file_get_n_types (file), ==, 1);
  g_assert_cmpstr (cpel_file_get_type_name (file, 0), ==, "rx");
  g_assert_cmpuint (cpel_file_get_type_n_events (file, 0), ==, 67);

  merge = cpel_merge_new (file, NULL, 0, 0);
  g_assert_true (cpel_merge_next (merge, &ev, NULL));
  g_assert_cmpint (ev.time_ns, ==, 0);
  g_assert_cmpuint (ev.track_slot, ==, slot2);
  label = label_of (file, ev.track_slot, 0);
  g_assert_cmpstr (label, ==, "rx: 1): 3");
  g_assert_true (cpel_merge_next (merge, &ev, NULL));
  g_assert_cmpint (ev.time_ns, ==, 138910);
  g_assert_cmpuint (ev.track_slot, ==, slot1);
  n = 2;
  last = ev.time_ns;
  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_assert_cmpint (ev.time_ns, >=, last);
      last = ev.time_ns;
      n++;
    }
  g_assert_cmpuint (n, ==, 67);
  g_assert_cmpint (cpel_file_get_duration (file), ==, last);
}

/* ---- hand-made files ---- */

/* Two string tables, defs in one, events in two sections with different clocks,
 * unsorted and tied times; built in either byte order. */
static Buf
make_rich (gboolean le)
{
  const char *s1[] = { "ev-a", "val=%d", "cpu %d", "%s", "node-x", NULL };
  const char *s2[] = { "second", NULL };
  guint32 o1[5], o2[1];
  Buf f = file_new (le, 6);
  Buf t1 = strtab (le, "T1", s1, o1);
  Buf t2 = strtab (le, "T2", s2, o2);
  Buf defs = buf_new (le), tracks = buf_new (le), ev1 = buf_new (le), ev2 = buf_new (le);

  add_section (&f, 1, &t1);
  add_section (&f, 1, &t2);

  put_name (&defs, "T1");
  put32 (&defs, 3);
  put32 (&defs, 10); put32 (&defs, o1[0]); put32 (&defs, o1[1]);   /* ev-a, val=%d */
  put32 (&defs, 11); put32 (&defs, 0); put32 (&defs, o1[3]);       /* E%d, %s */
  put32 (&defs, 10); put32 (&defs, o1[4]); put32 (&defs, 0);       /* duplicate: ignored */
  add_section (&f, 3, &defs);

  put_name (&tracks, "T1");
  put32 (&tracks, 1);
  put32 (&tracks, 7); put32 (&tracks, o1[2]);                       /* "cpu 7" */
  add_section (&f, 4, &tracks);

  /* section 1: 1 GHz, unsorted on track 7, tie at 500 */
  put_name (&ev1, "T1");
  put32 (&ev1, 4);
  put32 (&ev1, 1000000000);
  put32 (&ev1, 0); put32 (&ev1, 900); put32 (&ev1, 7); put32 (&ev1, 10); put32 (&ev1, 1);
  put32 (&ev1, 0); put32 (&ev1, 500); put32 (&ev1, 7); put32 (&ev1, 10); put32 (&ev1, 2);
  put32 (&ev1, 0); put32 (&ev1, 500); put32 (&ev1, 7); put32 (&ev1, 11); put32 (&ev1, o1[4]);
  put32 (&ev1, 1); put32 (&ev1, 0); put32 (&ev1, 70000); put32 (&ev1, 12); put32 (&ev1, 3);
  add_section (&f, 5, &ev1);

  /* section 2: 2 MHz given per µs (2 -> 2e6/s): tick 1 = 500 ns; strings from T2 */
  put_name (&ev2, "T2");
  put32 (&ev2, 2);
  put32 (&ev2, 2);
  put32 (&ev2, 0); put32 (&ev2, 1); put32 (&ev2, 7); put32 (&ev2, 11); put32 (&ev2, o2[0]);
  put32 (&ev2, 0); put32 (&ev2, 3); put32 (&ev2, 8); put32 (&ev2, 10); put32 (&ev2, 4);
  add_section (&f, 5, &ev2);
  return f;
}

static void
check_rich (CpelFile *file)
{
  guint slot7, slot8, slot70000, type10;
  const gint64 *t;
  guint64 n;
  CpelEvent ev;
  g_autofree char *l0 = NULL, *l1 = NULL, *l2 = NULL, *l3 = NULL, *lx = NULL;
  const char * const *warnings = cpel_file_get_warnings (file);
  gboolean dup_warned = FALSE, clock_warned = FALSE;

  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 6);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 3);
  g_assert_true (cpel_file_lookup_track (file, 7, &slot7));
  g_assert_true (cpel_file_lookup_track (file, 8, &slot8));
  g_assert_true (cpel_file_lookup_track (file, 70000, &slot70000));
  g_assert_cmpuint (slot7, <, slot8);
  g_assert_cmpuint (slot8, <, slot70000);
  g_assert_cmpstr (cpel_file_get_track_label (file, slot7), ==, "cpu 7");
  g_assert_cmpstr (cpel_file_get_track_label (file, slot8), ==, "8");
  g_assert_cmpstr (cpel_file_get_track_label (file, slot70000), ==, "0x00011170");

  /* track 7: times 500 (x2, file order kept), 500 (sec 2, tick 1), 900; earliest = 500 */
  t = cpel_file_get_track_times (file, slot7, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (t[0], ==, 0);
  g_assert_cmpint (t[1], ==, 0);
  g_assert_cmpint (t[2], ==, 0);
  g_assert_cmpint (t[3], ==, 400);
  l0 = label_of (file, slot7, 0);
  l1 = label_of (file, slot7, 1);
  l2 = label_of (file, slot7, 2);
  l3 = label_of (file, slot7, 3);
  g_assert_cmpstr (l0, ==, "ev-a: val=2");
  g_assert_cmpstr (l1, ==, "E11: node-x");
  g_assert_cmpstr (l2, ==, "E11: second");     /* %s from the section's table T2 */
  g_assert_cmpstr (l3, ==, "ev-a: val=1");
  cpel_file_get_track_event (file, slot7, 2, &ev);
  g_assert_cmpuint (ev.section, ==, 1);
  g_assert_cmpuint (ev.file_index, ==, 4);

  /* track 8: tick 3 at 2 MHz = 1500 ns -> 1000 after the base */
  t = cpel_file_get_track_times (file, slot8, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (t[0], ==, 1000);
  /* track 70000: 2^32 ns after 0 */
  t = cpel_file_get_track_times (file, slot70000, &n);
  g_assert_cmpint (t[0], ==, (G_GINT64_CONSTANT (1) << 32) - 500);
  lx = label_of (file, slot70000, 0);
  g_assert_cmpstr (lx, ==, "E12");
  g_assert_cmpint (cpel_file_get_duration (file), ==, (G_GINT64_CONSTANT (1) << 32) - 500);

  g_assert_true (cpel_file_lookup_type (file, 10, &type10));
  g_assert_cmpstr (cpel_file_get_type_name (file, type10), ==, "ev-a");
  g_assert_cmpuint (cpel_file_get_type_n_events (file, type10), ==, 3);
  g_assert_cmpuint (cpel_file_get_n_types (file), ==, 3);
  g_assert_false (cpel_file_get_type_defined (file, 2));

  g_assert_cmpuint (cpel_file_track_lower_bound (file, slot7, 1), ==, 3);
  g_assert_cmpuint (cpel_file_track_lower_bound (file, slot7, 0), ==, 0);
  g_assert_cmpuint (cpel_file_track_lower_bound (file, slot7, 401), ==, 4);
  g_assert_cmpuint (cpel_file_track_count_range (file, slot7, 0, 400), ==, 3);
  g_assert_cmpuint (cpel_file_track_count_range (file, slot7, 0, 401), ==, 4);

  for (guint i = 0; warnings[i]; i++)
    {
      if (strstr (warnings[i], "defined again"))
        dup_warned = TRUE;
      if (strstr (warnings[i], "microsecond"))
        clock_warned = TRUE;
    }
  g_assert_true (dup_warned);
  g_assert_true (clock_warned);
}

static void
test_rich (gconstpointer data)
{
  gboolean le = GPOINTER_TO_INT (data);
  Buf f = make_rich (le);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = load_buf (&f, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (cpel_file_is_little_endian (file), ==, le);
  check_rich (file);
}

static void
test_merge_order (void)
{
  Buf f = make_rich (FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = load_buf (&f, NULL, &error);
  g_autoptr(CpelMerge) merge = NULL;
  CpelEvent ev;
  guint64 expect[] = { 1, 2, 4, 0, 5, 3 };   /* file indices in time order, ties by file order */
  guint i = 0;

  g_assert_no_error (error);
  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_assert_cmpuint (i, <, G_N_ELEMENTS (expect));
      g_assert_cmpuint (ev.file_index, ==, expect[i]);
      i++;
    }
  g_assert_cmpuint (i, ==, 6);

  /* from a time, and a subset of tracks */
  {
    guint slot8;
    g_autoptr(CpelMerge) m2 = NULL;
    g_assert_true (cpel_file_lookup_track (file, 8, &slot8));
    m2 = cpel_merge_new (file, &slot8, 1, 0);
    g_assert_true (cpel_merge_next (m2, &ev, NULL));
    g_assert_cmpuint (ev.track_id, ==, 8);
    g_assert_false (cpel_merge_next (m2, &ev, NULL));
  }
  {
    g_autoptr(CpelMerge) m3 = cpel_merge_new (file, NULL, 0, 401);
    g_assert_true (cpel_merge_next (m3, &ev, NULL));
    g_assert_cmpuint (ev.file_index, ==, 5);
  }
}

static void
test_clock_override (void)
{
  Buf f = make_rich (FALSE);
  CpelLoadOptions opts = { .ticks_per_second = 1000000 };   /* 1 tick = 1 µs */
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = load_buf (&f, &opts, &error);
  guint slot7;
  const gint64 *t;
  guint64 n;

  g_assert_no_error (error);
  g_assert_true (cpel_file_lookup_track (file, 7, &slot7));
  t = cpel_file_get_track_times (file, slot7, &n);
  /* ticks 1 (sec 2), 500, 500, 900 -> 1000, 500000, 500000, 900000 ns; base 1000 */
  g_assert_cmpint (t[0], ==, 0);
  g_assert_cmpint (t[1], ==, 499000);
  g_assert_cmpint (t[3], ==, 899000);
}

static void
test_ticks_exact (void)
{
  /* A section at 3 ticks per second: floor(ticks * 1e9 / 3), exactly, with 64-bit ticks. */
  Buf f = file_new (TRUE, 1), ev = buf_new (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  const gint64 *t;
  guint64 n;

  put_name (&ev, "none");
  put32 (&ev, 2);
  put32 (&ev, 3000000);   /* 3e6 per second: >= 100000, read per second */
  put32 (&ev, 0); put32 (&ev, 1); put32 (&ev, 0); put32 (&ev, 1); put32 (&ev, 0);
  put32 (&ev, 0x12345); put32 (&ev, 0x6789abcd); put32 (&ev, 0); put32 (&ev, 1); put32 (&ev, 0);
  add_section (&f, 5, &ev);
  file = load_buf (&f, NULL, &error);
  g_assert_no_error (error);
  t = cpel_file_get_track_times (file, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  {
    unsigned __int128 ticks = ((unsigned __int128) 0x12345 << 32) | 0x6789abcd;
    gint64 expect = (gint64) (ticks * 1000000000u / 3000000u) - 333;   /* minus floor(1e9/3e6) */
    g_assert_cmpint (t[1], ==, expect);
  }
}

/* ---- invalid files ---- */

static void
expect_error (Buf *f, int code, const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = load_buf (f, NULL, &error);

  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, code);
  if (needle)
    g_assert_nonnull (strstr (error->message, needle));
}

/* Every error reading a file starts with a plain sentence; the detail (with
 * its offset) follows it on the one line the CLI prints. */
static void
test_error_summary (void)
{
  static const struct { int code; const char *summary; } cases[] = {
    { CPEL_ERROR_EMPTY,     "The file is empty." },
    { CPEL_ERROR_NOT_CPEL,  "This is not a supported event log." },
    { CPEL_ERROR_VERSION,   "This CPEL version is not supported." },
    { CPEL_ERROR_GIST,      "This is an old Gist event log, not a CPEL file." },
    { CPEL_ERROR_TRUNCATED, "This CPEL file is damaged." },
    { CPEL_ERROR_SECTION,   "This CPEL file is damaged." },
    { CPEL_ERROR_CLOCK,     "This CPEL file does not say how fast its clock runs." },
  };
  Buf f;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = g_error_new (CPEL_ERROR, cases[i].code, "Detail at offset 8");
      g_autofree char *line = cpel_error_dup_line (error);
      g_autofree char *expected = g_strconcat (cases[i].summary, " Detail at offset 8", NULL);

      g_assert_cmpstr (cpel_error_get_summary (error), ==, cases[i].summary);
      g_assert_cmpstr (line, ==, expected);
    }

  /* I/O errors and errors of other domains are plain already */
  {
    g_autoptr(GError) io = g_error_new (CPEL_ERROR, CPEL_ERROR_IO, "No such file");
    g_autoptr(GError) other = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, "Failed");
    g_autofree char *line = cpel_error_dup_line (io);

    g_assert_null (cpel_error_get_summary (io));
    g_assert_null (cpel_error_get_summary (other));
    g_assert_cmpstr (line, ==, "No such file");
  }

  /* an empty file's detail still names the offset, not the summary again */
  f = buf_new (FALSE);
  expect_error (&f, CPEL_ERROR_EMPTY, "offset 0");
  /* a text file is not a CPEL file, however short */
  f = buf_new (FALSE);
  g_byte_array_append (f.b, (const guint8 *) "hi\n", 3);
  expect_error (&f, CPEL_ERROR_NOT_CPEL, "offset 0");
}

static void
test_invalid (void)
{
  Buf f;

  f = buf_new (FALSE);
  expect_error (&f, CPEL_ERROR_EMPTY, "no bytes");

  f = buf_new (FALSE);
  g_byte_array_append (f.b, (const guint8 *) "\x01\x00\x00", 3);
  expect_error (&f, CPEL_ERROR_TRUNCATED, "offset");

  f = file_new (FALSE, 1);
  f.b->data[0] = 0;
  expect_error (&f, CPEL_ERROR_GIST, "Gist");

  f = file_new (FALSE, 1);
  f.b->data[0] = 7;
  expect_error (&f, CPEL_ERROR_VERSION, "7");

  /* random bytes whose first byte reads as version 1: a first section of no
   * known type is some other kind of file, said without a CPEL section's
   * detail */
  f = file_new (FALSE, 9);
  put32 (&f, 0x77617320);
  put32 (&f, 0x7762e873);
  put32 (&f, 0);
  expect_error (&f, CPEL_ERROR_NOT_CPEL, "none of the formats this program reads");

  /* 65535 sections in a tiny file */
  f = file_new (FALSE, 65535);
  expect_error (&f, CPEL_ERROR_TRUNCATED, "offset 8");

  /* a section claiming more data than the file holds */
  f = file_new (FALSE, 1);
  put32 (&f, 1);
  put32 (&f, 0xfffffff0);
  put32 (&f, 0);
  expect_error (&f, CPEL_ERROR_TRUNCATED, "offset 8");

  /* an event section whose count overflows it */
  {
    Buf ev = buf_new (FALSE);
    f = file_new (FALSE, 1);
    put_name (&ev, "x");
    put32 (&ev, 0x7fffffff);
    put32 (&ev, 1000000000);
    put32 (&ev, 0); put32 (&ev, 0); put32 (&ev, 0); put32 (&ev, 0); put32 (&ev, 0);
    add_section (&f, 5, &ev);
    expect_error (&f, CPEL_ERROR_SECTION, "claims 2147483647");
  }

  /* a definitions section too short for its header */
  {
    Buf d = buf_new (FALSE);
    f = file_new (FALSE, 1);
    put32 (&d, 1);
    add_section (&f, 3, &d);
    expect_error (&f, CPEL_ERROR_SECTION, "too short");
  }

  /* clock 0 */
  {
    Buf ev = buf_new (FALSE);
    f = file_new (FALSE, 1);
    put_name (&ev, "x");
    put32 (&ev, 1);
    put32 (&ev, 0);
    put32 (&ev, 0); put32 (&ev, 0); put32 (&ev, 0); put32 (&ev, 0); put32 (&ev, 0);
    add_section (&f, 5, &ev);
    expect_error (&f, CPEL_ERROR_CLOCK, "clock");
  }
}

static void
test_hostile_strings (void)
{
  /* a string table without NUL, out-of-range offsets, unknown table name */
  Buf f = file_new (FALSE, 4), s = buf_new (FALSE), d = buf_new (FALSE), t = buf_new (FALSE),
      ev = buf_new (FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autofree char *l0 = NULL, *l1 = NULL;

  g_byte_array_append (s.b, (const guint8 *) "S\0%s%n%999999999d", 18);   /* last string has no NUL */
  add_section (&f, 1, &s);
  put_name (&d, "S");
  put32 (&d, 2);
  put32 (&d, 1); put32 (&d, 2); put32 (&d, 2);           /* name "%s%n%9..d" with value 1, datum same */
  put32 (&d, 2); put32 (&d, 5000); put32 (&d, 6000);     /* offsets past the table */
  add_section (&f, 3, &d);
  put_name (&t, "nope");
  put32 (&t, 1);
  put32 (&t, 0); put32 (&t, 9);
  add_section (&f, 4, &t);
  put_name (&ev, "S");
  put32 (&ev, 2);
  put32 (&ev, 1000000000);
  put32 (&ev, 0); put32 (&ev, 0); put32 (&ev, 0); put32 (&ev, 1); put32 (&ev, 0xdead);
  put32 (&ev, 0); put32 (&ev, 1); put32 (&ev, 0); put32 (&ev, 2); put32 (&ev, 3);
  add_section (&f, 5, &ev);

  file = load_buf (&f, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (cpel_file_get_warnings (file)[0]);   /* unknown table "nope" */
  g_assert_cmpstr (cpel_file_get_track_label (file, 0), ==, "<bad string offset 0x9>");
  l0 = label_of (file, 0, 0);
  l1 = label_of (file, 0, 1);
  g_assert_cmpuint (strlen (l0), <, 2 * 4096);
  g_assert_nonnull (strstr (l0, "<bad string offset 0xdead>"));
  g_assert_nonnull (strstr (l0, "%n"));
  g_assert_nonnull (strstr (l1, "<bad string offset 0x1388>"));
  g_assert_nonnull (strstr (l1, "<bad string offset 0x1770>"));
}

static void
test_random_bytes (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (guint iter = 0; iter < 2000; iter++)
    {
      gsize len = g_rand_int_range (rand, 0, 400);
      guint8 *data = g_malloc (len + 1);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = NULL;

      for (gsize i = 0; i < len; i++)
        data[i] = g_rand_int (rand) & 0xff;
      if (len > 0 && iter % 2)
        data[0] = 1;                  /* get past the version check */
      if (len > 3 && iter % 4 == 1)
        { data[2] = 0; data[3] = g_rand_int_range (rand, 0, 6); }
      bytes = g_bytes_new_take (data, len);
      file = cpel_file_new_for_bytes (bytes, NULL, &error);
      if (file == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == CPEL_ERROR);
        }
      else
        {
          /* everything reachable must be readable */
          g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
          CpelEvent ev;
          GString *s = g_string_new (NULL);
          while (cpel_merge_next (merge, &ev, NULL))
            cpel_file_append_label (file, &ev, s);
          g_string_free (s, TRUE);
        }
    }
  g_rand_free (rand);
}

/* The index must not depend on the number of threads. */
static void
test_threads_identical (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint n_events = 1200000;
  Buf f = file_new (TRUE, 1), ev = buf_new (TRUE);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) a = NULL, b = NULL;
  g_autoptr(GError) error = NULL;
  CpelLoadOptions one = { .n_threads = 1 }, four = { .n_threads = 4 };
  /* ids in the maps' direct tables and beyond them (hashed), interleaved
   * event by event and in runs */
  static const guint32 codes[] = { 0, 1, 2, 3, 4, 70000, 0xfffffff0u };
  g_autoptr(GHashTable) track_n = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) code_n = g_hash_table_new (NULL, NULL);
  guint32 track = 0;

  put_name (&ev, "x");
  put32 (&ev, n_events);
  put32 (&ev, 1000000000);
  for (guint i = 0; i < n_events; i++)
    {
      guint64 t = i * 10 + g_rand_int_range (rand, 0, 40);   /* mostly sorted, some disorder */
      guint32 code = codes[g_rand_int_range (rand, 0, G_N_ELEMENTS (codes))];
      guint k = g_rand_int_range (rand, 0, 60);

      if (i % 1000 < 900 || i == 0)
        track = k < 50 ? k * 997 : k < 55 ? 65536 + k * 7919 : 0xfffffff0u - k;
      put32 (&ev, t >> 32);
      put32 (&ev, (guint32) t);
      put32 (&ev, track);
      put32 (&ev, code);
      put32 (&ev, i);
      g_hash_table_insert (track_n, GUINT_TO_POINTER (track),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (track_n, GUINT_TO_POINTER (track))) + 1));
      g_hash_table_insert (code_n, GUINT_TO_POINTER (code),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (code_n, GUINT_TO_POINTER (code))) + 1));
    }
  add_section (&f, 5, &ev);
  bytes = g_byte_array_free_to_bytes (f.b);
  a = cpel_file_new_for_bytes (bytes, &one, &error);
  g_assert_no_error (error);
  b = cpel_file_new_for_bytes (bytes, &four, &error);
  g_assert_no_error (error);

  /* every id counted, wherever its map keeps it */
  for (CpelFile *x = a; x != NULL; x = x == a ? b : NULL)
    {
      g_assert_cmpuint (cpel_file_get_n_tracks (x), ==, g_hash_table_size (track_n));
      for (guint s = 0; s < cpel_file_get_n_tracks (x); s++)
        {
          guint64 n;

          cpel_file_get_track_times (x, s, &n);
          g_assert_cmpuint (n, ==, GPOINTER_TO_UINT (g_hash_table_lookup (track_n,
                                       GUINT_TO_POINTER (cpel_file_get_track_id (x, s)))));
        }
      g_assert_cmpuint (cpel_file_get_n_types (x), ==, g_hash_table_size (code_n));
      for (guint t = 0; t < cpel_file_get_n_types (x); t++)
        g_assert_cmpuint (cpel_file_get_type_n_events (x, t), ==,
                          GPOINTER_TO_UINT (g_hash_table_lookup (code_n,
                              GUINT_TO_POINTER (cpel_file_get_type_code (x, t)))));

      /* the overview's 4096 counts, counted with the index: bucket b holds
       * the times t with b <= t × 4096 / (duration + 1) < b + 1 */
      {
        const guint64 *stored = cpel_file_get_stored_overview (x, 4096);
        g_autofree guint64 *expected = g_new0 (guint64, 4096);
        guint64 span = (guint64) cpel_file_get_duration (x) + 1;

        g_assert_nonnull (stored);
        for (guint s = 0; s < cpel_file_get_n_tracks (x); s++)
          {
            guint64 n;
            const gint64 *times = cpel_file_get_track_times (x, s, &n);

            for (guint64 i = 0; i < n; i++)
              expected[(guint64) ((unsigned __int128) times[i] * 4096 / span)]++;
          }
        g_assert_cmpmem (stored, 8 * 4096, expected, 8 * 4096);
      }
    }

  g_assert_cmpuint (cpel_file_get_n_tracks (a), ==, cpel_file_get_n_tracks (b));
  for (guint s = 0; s < cpel_file_get_n_tracks (a); s++)
    {
      guint64 na, nb;
      const gint64 *ta = cpel_file_get_track_times (a, s, &na);
      const gint64 *tb = cpel_file_get_track_times (b, s, &nb);
      g_assert_cmpuint (na, ==, nb);
      g_assert_cmpmem (ta, na * 8, tb, nb * 8);
      for (guint64 i = 0; i < na; i++)
        {
          CpelEvent ea, eb;
          cpel_file_get_track_event (a, s, i, &ea);
          cpel_file_get_track_event (b, s, i, &eb);
          g_assert_cmpuint (ea.file_index, ==, eb.file_index);
          if (i > 0)
            {
              CpelEvent prev;
              cpel_file_get_track_event (a, s, i - 1, &prev);
              g_assert_true (prev.time_ns < ea.time_ns ||
                             (prev.time_ns == ea.time_ns && prev.file_index < ea.file_index));
            }
        }
    }
}

static void
progress_cb (double fraction, gpointer data)
{
  double *last = data;
  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

static void
test_path_and_cancel (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  double last = 0;

  file = cpel_file_new_for_path (path, NULL, NULL, progress_cb, &last, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (last, ==, 1.0);
  g_clear_object (&file);

  file = cpel_file_new_for_path ("/nonexistent/x.cpel", NULL, NULL, NULL, NULL, &error);
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_clear_error (&error);

  g_cancellable_cancel (cancellable);
  (void) cancellable;
}

/* A damaged timestamp centuries after the rest reads as CPEL_TIME_MAX, with
 * a warning; nothing is dropped, every time and the duration stay small
 * enough to add spans to. */
static void
test_time_max (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  const char * const *warnings;
  CpelEvent ev;
  guint n = 0;
  gint64 last = -1;

  cpel_writer_begin_events (w, t, 1000000000, 3);
  cpel_writer_add_event (w, 1000, 1, 1, 0);
  cpel_writer_add_event (w, G_GUINT64_CONSTANT (0xf700000000000000), 1, 1, 1);   /* > 2^63 ns */
  cpel_writer_add_event (w, 3000, 2, 1, 2);
  g_assert_true (cpel_writer_finish (w, &error));
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpint (cpel_file_get_duration (file), ==, CPEL_TIME_MAX);
  warnings = cpel_file_get_warnings (file);
  g_assert_nonnull (warnings[0]);
  g_assert_nonnull (strstr (warnings[0], "36 years"));
  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_assert_cmpint (ev.time_ns, >=, last);
      g_assert_cmpint (ev.time_ns, <=, CPEL_TIME_MAX);
      last = ev.time_ns;
      n++;
    }
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (last, ==, CPEL_TIME_MAX);
}

/* What cannot be mapped says so in a few words (the caller names the path):
 * a folder, a device, a missing file. */
static void
test_not_a_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-notfile-XXXXXX", NULL);
  CpelFile *file;

  g_assert_nonnull (dir);
  file = cpel_file_new_for_path (dir, NULL, NULL, NULL, NULL, &error);
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  /* with the CTF importer: "…: no CTF trace found in this folder" */
  g_assert_true (g_str_has_prefix (error->message, "This is a folder, not a file"));
  g_clear_error (&error);
  g_assert_cmpint (g_rmdir (dir), ==, 0);

  file = cpel_file_new_for_path ("/dev/null", NULL, NULL, NULL, NULL, &error);
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_assert_cmpstr (error->message, ==, "This is not a regular file");
  g_clear_error (&error);

  file = cpel_file_new_for_path ("/nonexistent/x.cpel", NULL, NULL, NULL, NULL, &error);
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_assert_cmpstr (error->message, ==, "No such file");
}

/* ---- a file overwritten in place between the index's passes ---- */

#define CHANGED_EVENTS 4000

/* A file of CHANGED_EVENTS events alternating between tracks 1 and 2, its
 * event section last: record i is at size - (n - i) * 20.  Opened with the
 * index deferred (pass A only); `edit` (a track id written over record
 * `at`) is then written into the file in place (the mapping sees it), and
 * the deferred pass B must fail with "The file changed on disk while it
 * was read", never crash or write outside the index. */
static void
check_changed (guint32 at,
               guint32 new_track,
               guint   n_threads,
               guint   n_events)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-changed-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "changed.cpel", NULL);
  CpelLoadOptions options = { 0 };
  const guint8 *data;
  gsize size;
  guint32 be = GUINT32_TO_BE (new_track), old;
  int fd;

  cpel_writer_begin_events (w, cpel_writer_add_string_table (w, "Strings"), 1000000, n_events);
  for (guint i = 0; i < n_events; i++)
    cpel_writer_add_event (w, 10 * (guint64) i, 1 + (i & 1), 5, i);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);
  data = g_bytes_get_data (bytes, &size);
  g_assert_true (g_file_set_contents (path, (const char *) data, size, &error));
  g_assert_no_error (error);
  /* the record is where this test thinks it is */
  memcpy (&old, data + size - (gsize) (n_events - at) * 20 + 8, 4);
  g_assert_cmpuint (GUINT32_FROM_BE (old), ==, 1 + (at & 1));

  options.n_threads = n_threads;
  options.defer_index = TRUE;
  file = cpel_file_new_for_path (path, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (cpel_file_has_index (file));

  fd = g_open (path, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, &be, 4, (off_t) (size - (gsize) (n_events - at) * 20 + 8)), ==, 4);
  g_assert_cmpint (close (fd), ==, 0);

  g_assert_false (cpel_file_ensure_index (file, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_assert_cmpstr (error->message, ==, "The file changed on disk while it was read");
  g_unlink (path);
  g_rmdir (dir);
}

/* A track id pass A never saw, in the direct table and beyond it. */
static void
test_changed_unknown_track (void)
{
  check_changed (100, 7, 1, CHANGED_EVENTS);
  check_changed (CHANGED_EVENTS - 1, 100000, 1, CHANGED_EVENTS);
}

/* More events of a track than pass A counted: the last track's run would
 * end past the index; the first one's into its neighbour's reservation. */
static void
test_changed_counts (void)
{
  check_changed (0, 2, 1, CHANGED_EVENTS);   /* track 2 (the last) gets one more */
  check_changed (1, 1, 1, CHANGED_EVENTS);   /* track 1 gets one more */
}

/* Two build threads: one more event of track 1 in the second chunk writes
 * into its share of track 2, inside the index; the counts tell. */
static void
test_changed_chunks (void)
{
  check_changed (1000001, 1, 2, 1200000);
  check_changed (2, 2, 2, 1200000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/file/sample", test_sample);
  g_test_add_data_func ("/core/file/rich-big-endian", GINT_TO_POINTER (FALSE), test_rich);
  g_test_add_data_func ("/core/file/rich-little-endian", GINT_TO_POINTER (TRUE), test_rich);
  g_test_add_func ("/core/file/merge-order", test_merge_order);
  g_test_add_func ("/core/file/clock-override", test_clock_override);
  g_test_add_func ("/core/file/ticks-exact", test_ticks_exact);
  g_test_add_func ("/core/file/invalid", test_invalid);
  g_test_add_func ("/core/file/error-summary", test_error_summary);
  g_test_add_func ("/core/file/not-a-file", test_not_a_file);
  g_test_add_func ("/core/file/changed/unknown-track", test_changed_unknown_track);
  g_test_add_func ("/core/file/changed/counts", test_changed_counts);
  g_test_add_func ("/core/file/changed/chunks", test_changed_chunks);
  g_test_add_func ("/core/file/time-max", test_time_max);
  g_test_add_func ("/core/file/hostile-strings", test_hostile_strings);
  g_test_add_func ("/core/file/random-bytes", test_random_bytes);
  g_test_add_func ("/core/file/threads-identical", test_threads_identical);
  g_test_add_func ("/core/file/path", test_path_and_cancel);

  return g_test_run ();
}
