/* SPDX-License-Identifier: Apache-2.0 */
/* test-import-elog.c — VPP elog files: the fixtures against elog_dump and
 * c2cpel, and writer-made files for every argument kind and hostile input */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-import.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"
#include "import-writers.h"

/* Every event as "time_ns\ttrack\tcode\tname\ttext", in time order. */
static GPtrArray *
dump_lines (CpelFile *file)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  g_autoptr(GString) datum = g_string_new (NULL);
  CpelEvent ev;

  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_string_truncate (datum, 0);
      cpel_file_append_datum (file, &ev, datum);
      g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT "\t%s\t%u\t%s\t%s", ev.time_ns,
                                               cpel_file_get_track_label (file, ev.track_slot),
                                               ev.code, cpel_file_get_type_name (file, ev.type),
                                               datum->str));
    }
  return lines;
}

static CpelFile *
load_bytes (GByteArray *a, GError **error)
{
  g_autoptr(GBytes) b = g_bytes_new (a->data, a->len);
  return cpel_file_new_for_bytes (b, NULL, error);
}

/* ---- fixtures: elog_dump's text -------------------------------------------------- */

static void
check_fixture (const char *name)
{
  g_autofree char *rel = g_strdup_printf ("vpp-elog/%s.elog", name);
  g_autofree char *rel_dump = g_strdup_printf ("vpp-elog/%s.elog_dump.txt", name);
  g_autofree char *path = cpel_test_fixture_file (rel);
  g_autofree char *dump_path = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) ref = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  g_autoptr(GString) datum = g_string_new (NULL);
  guint64 n_ref;
  gint64 t0 = -1;
  CpelEvent ev;
  guint line = 1;

  dump_path = cpel_test_fixture_file (rel_dump);
  g_assert_true (g_file_get_contents (dump_path, &text, NULL, NULL));
  ref = g_strsplit (text, "\n", -1);

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cpel_file_get_imported_from (file), ==, "elog");
  g_assert_cmpstr (cpel_file_get_source_format (file), ==, "VPP elog");
  g_assert_true (cpel_file_has_event_texts (file));

  n_ref = g_ascii_strtoull (ref[0], NULL, 10);
  g_assert_true (g_str_has_suffix (ref[0], " events"));
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, n_ref);

  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL))
    {
      const char *l = ref[line++];
      const char *label = cpel_file_get_track_label (file, ev.track_slot);
      const char *rest, *expect_text;
      gint64 ns;

      g_assert_nonnull (l);
      g_assert_cmpuint (strlen (l), >, 19);
      /* "%18.9f %-24s %s" */
      ns = (gint64) llround (g_ascii_strtod (l, NULL) * 1e9);
      if (t0 < 0)
        t0 = ns;
      g_assert_cmpint (ev.time_ns, ==, ns - t0);
      rest = l + 19;
      g_assert_true (g_str_has_prefix (rest, label));
      expect_text = strlen (label) < 24 ? rest + 25 : rest + strlen (label) + 1;
      g_string_truncate (datum, 0);
      cpel_file_append_datum (file, &ev, datum);
      g_assert_cmpstr (datum->str, ==, expect_text);
      /* the event name is c2cpel's brief name: a prefix of the text */
      g_assert_true (g_str_has_prefix (expect_text, cpel_file_get_type_name (file, ev.type)));
      /* so the label is the text once, not "name: name …" (the viewer, cpel dump) */
      g_string_truncate (datum, 0);
      cpel_file_append_label (file, &ev, datum);
      g_assert_cmpstr (datum->str, ==, expect_text);
    }
  g_assert_cmpuint (line - 1, ==, n_ref);
}

static void
test_fixture_tiny (void)
{
  check_fixture ("tiny");
}

static void
test_fixture_workers (void)
{
  check_fixture ("workers");
}

static void
test_fixture_wrapped (void)
{
  check_fixture ("ring256-wrapped");
}

/* The tracks are the elog's, empty ones included; types by index. */
static void
test_fixture_tracks (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-elog/workers.elog");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  static const char *names[] = { "default", "main", "worker 0", "worker 1", "worker 2",
                                 "worker 3", "stats", "spare (unused)" };
  static const guint64 counts[] = { 0, 11, 262, 256, 256, 262, 18, 0 };

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      g_assert_cmpuint (cpel_file_get_track_id (file, i), ==, i);
      g_assert_cmpstr (cpel_file_get_track_label (file, i), ==, names[i]);
      g_assert_cmpuint (cpel_file_get_track_n_events (file, i), ==, counts[i]);
    }
  g_assert_cmpuint (cpel_file_get_n_types (file), ==, 11);
  g_assert_nonnull (strstr (cpel_file_get_source_value (file, "clock-description"), "seconds"));
}

/* The header: CPU clock and the start (read from the right epoch only). */
static void
test_fixture_header (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-elog/tiny.elog");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_auto(GStrv) header = NULL;
  gboolean clock = FALSE, start = FALSE, other = FALSE;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  header = cpel_file_dup_source_header (file);
  for (guint i = 0; header[i] != NULL; i += 2)
    {
      g_test_message ("%s: %s", header[i], header[i + 1]);
      if (strcmp (header[i], "CPU clock") == 0)
        clock = g_str_has_prefix (header[i + 1], "2096.");
      if (strcmp (header[i], "Start (wall clock)") == 0)
        start = g_str_has_prefix (header[i + 1], "2026-11-26 ");
      /* no start read from the other epoch ("1979-…") */
      if (g_str_has_prefix (header[i], "Start read from"))
        other = TRUE;
    }
  g_assert_true (clock);
  g_assert_true (start);
  g_assert_false (other);
  /* the capture's start for `cpel info`, a reserved key (not in the header) */
  {
    const char *v = cpel_file_get_source_value (file, "start-unix-ns");
    guint64 ns;
    g_autoptr(GDateTime) when = NULL;
    g_autofree char *day = NULL;

    g_assert_nonnull (v);
    g_assert_true (g_ascii_string_to_unsigned (v, 10, 0, G_MAXINT64, &ns, NULL));
    when = g_date_time_new_from_unix_utc ((gint64) (ns / 1000000000));
    day = g_date_time_format (when, "%Y-%m-%d");
    g_assert_cmpstr (day, ==, "2026-11-26");
  }
  g_assert_cmpstr (cpel_file_get_source_value (file, "clock"), ==, "exact");
  /* times in seconds: no clock rate to set; events: no reason for none */
  g_assert_false (cpel_file_has_clock_rate (file));
  g_assert_null (cpel_file_get_source_value (file, "empty-reason"));
}

/* c2cpel mode: the fixtures byte for byte, except the file date. */
static void
check_c2cpel (const char *elog_rel, const char *cpel_rel)
{
  g_autofree char *path = cpel_test_fixture_file (elog_rel);
  g_autofree char *ref_path = NULL;
  g_autofree char *ref = NULL;
  gsize ref_len;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  CpelImportOptions options = { .c2cpel = TRUE, .date = 1234 };
  CpelImportSource src = { 0 };
  const guint8 *data;
  gsize len;

  ref_path = cpel_test_fixture_file (cpel_rel);
  g_assert_true (g_file_get_contents (ref_path, &ref, &ref_len, NULL));
  mapped = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  src.path = path;
  src.data = (const guint8 *) g_mapped_file_get_contents (mapped);
  src.size = g_mapped_file_get_length (mapped);
  out = cpel_import_run (&cpel_importer_elog, &src, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (out, &len);
  g_assert_cmpuint (len, ==, ref_len);
  g_assert_cmpmem (data, 4, ref, 4);
  g_assert_cmpmem (data + 8, len - 8, ref + 8, len - 8);
  g_assert_cmpuint (data[4] << 24 | data[5] << 16 | data[6] << 8 | data[7], ==, 1234);
}

static void
test_c2cpel (void)
{
  check_c2cpel ("vpp-sample.elog", "vpp-sample.cpel");
  check_c2cpel ("vpp-elog/tiny.elog", "vpp-elog/tiny.c2cpel.cpel");
  check_c2cpel ("vpp-elog/workers.elog", "vpp-elog/workers.c2cpel.cpel");
  check_c2cpel ("vpp-elog/ring256-wrapped.elog", "vpp-elog/ring256-wrapped.c2cpel.cpel");
}

/* Convert, load the CPEL written, and the dump equals the direct one (both byte orders). */
static void
test_round_trip (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-elog/workers.elog");
  g_autofree char *dir = NULL;

  dir = g_dir_make_tmp ("cpel-elog-XXXXXX", NULL);
  for (int le = 0; le < 2; le++)
    {
      g_autofree char *out = g_build_filename (dir, le ? "le.cpel" : "be.cpel", NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) direct = NULL, converted = NULL;
      g_autoptr(GPtrArray) a = NULL, b = NULL;
      CpelImportOptions options = { .little_endian = le };

      g_assert_true (cpel_import_convert (path, out, &options, FALSE, NULL, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      /* no overwrite without being asked */
      g_assert_false (cpel_import_convert (path, out, &options, FALSE, NULL, NULL, NULL, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
      g_clear_error (&error);
      g_assert_true (cpel_import_convert (path, out, &options, TRUE, NULL, NULL, NULL, NULL, &error));

      direct = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      converted = cpel_file_new_for_path (out, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_null (cpel_file_get_imported_from (converted));
      g_assert_cmpstr (cpel_file_get_source_format (converted), ==, "VPP elog");
      g_assert_true (cpel_file_is_little_endian (converted) == le);
      a = dump_lines (direct);
      b = dump_lines (converted);
      g_assert_cmpuint (a->len, ==, b->len);
      for (guint i = 0; i < a->len; i++)
        g_assert_cmpstr (g_ptr_array_index (a, i), ==, g_ptr_array_index (b, i));
      g_unlink (out);
    }
  g_rmdir (dir);
}

/* ---- writer-made files ---------------------------------------------------------------- */

static const char *tracks2[] = { "default", "rx worker 1" };

/* One event of each argument kind, with the text VPP prints. */
/* The arguments file: one event of each kind; offsets[i] = event i's byte offset. */
static const char *arguments_expected[] = {
  "a 200 b", "h 65535", "w -2", "q 1250999896491 1234567890abcdef",
  "e up 10G 100G down", "T ip6-lookup", "f .125 -2.50", "s [] [abcdefgh]",
  "pad 0000abcd|7    |    7|0-7", "none", "fn(x) 4294967295",
};

static void
write_arguments_elog (GByteArray *a,
                      guint      *offsets)
{
  static const char *link_enum[] = { "down", "up", "10G", "100G", NULL };
  static const ElogwType types[] = {
    { "a %d b", "i1", NULL },          /* 0 */
    { "h %d", "i2", NULL },            /* 1 */
    { "w %d", "i4", NULL },            /* 2 */
    { "q %Ld %Lx", "i8i8", NULL },     /* 3 */
    { "e %s %s %s %s", "t1t2t4t8", link_enum }, /* 4 */
    { "T %s", "T4", NULL },            /* 5 */
    { "f %.3f %.2f", "f4f8", NULL },   /* 6 */
    { "s [%s] [%s]", "s0s8", NULL },   /* 7 */
    { "pad %08x|%-5d|%5d|%03d", "i4i4i4i4", NULL }, /* 8 */
    { "none", "", NULL },              /* 9 */
    { "fn(x) %u", "i4", NULL },        /* 10 */
  };
  static const char strtab[] = "ethernet-input\0ip6-lookup";
  double t = 0.001;
  guint k = 0;

  elogw_header (a, types, G_N_ELEMENTS (types), tracks2, 2, strtab, sizeof strtab);
  elogw_u32 (a, G_N_ELEMENTS (types));
  offsets[k++] = a->len; elogw_event_head (a, 0, 1, t += 1e-6); elogw_u8 (a, 200);
  offsets[k++] = a->len; elogw_event_head (a, 1, 1, t += 1e-6); elogw_u16 (a, 65535);
  offsets[k++] = a->len; elogw_event_head (a, 2, 1, t += 1e-6); elogw_u32 (a, 0xfffffffe);
  offsets[k++] = a->len; elogw_event_head (a, 3, 1, t += 1e-6);
  elogw_u64 (a, G_GUINT64_CONSTANT (1250999896491));
  elogw_u64 (a, G_GUINT64_CONSTANT (0x1234567890abcdef));
  offsets[k++] = a->len; elogw_event_head (a, 4, 0, t += 1e-6);
  elogw_u8 (a, 1); elogw_u16 (a, 2); elogw_u32 (a, 3); elogw_u64 (a, 0);
  offsets[k++] = a->len; elogw_event_head (a, 5, 0, t += 1e-6); elogw_u32 (a, 15);
  offsets[k++] = a->len; elogw_event_head (a, 6, 0, t += 1e-6); elogw_f32 (a, 0.125f); elogw_f64 (a, -2.5);
  offsets[k++] = a->len; elogw_event_head (a, 7, 0, t += 1e-6);
  elogw_cstring (a, ""); elogw_cstring (a, "abcdefgh");
  offsets[k++] = a->len; elogw_event_head (a, 8, 0, t += 1e-6);
  elogw_u32 (a, 0xabcd); elogw_u32 (a, 7); elogw_u32 (a, 7); elogw_u32 (a, (guint32) -7);
  offsets[k++] = a->len; elogw_event_head (a, 9, 0, t += 1e-6);
  offsets[k++] = a->len; elogw_event_head (a, 10, 0, t += 1e-6); elogw_u32 (a, 0xffffffff);
  g_assert_cmpuint (k, ==, G_N_ELEMENTS (types));
}

static void
test_arguments (void)
{
  static const char **expected = arguments_expected;
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  guint offsets[G_N_ELEMENTS (arguments_expected)];

  write_arguments_elog (a, offsets);
  file = load_bytes (a, &error);
  g_assert_no_error (error);
  lines = dump_lines (file);
  g_assert_cmpuint (lines->len, ==, G_N_ELEMENTS (arguments_expected));
  for (guint i = 0; i < lines->len; i++)
    {
      const char *l = g_ptr_array_index (lines, i);
      g_test_message ("%s", l);
      g_assert_true (g_str_has_suffix (l, expected[i]));
    }
  /* names as c2cpel cuts them; the numeric datum is the first integer */
  g_assert_cmpstr (cpel_file_get_type_name (file, 10), ==, "fn");
  g_assert_cmpstr (cpel_file_get_type_name (file, 0), ==, "a");
  {
    CpelEvent ev;
    guint slot;
    g_assert_true (cpel_file_lookup_track (file, 1, &slot));
    cpel_file_get_track_event (file, slot, 2, &ev);
    g_assert_cmpuint (ev.datum, ==, 0xfffffffe);
  }
  /* times to the ns, from the first event */
  g_assert_true (g_str_has_prefix (g_ptr_array_index (lines, 1), "1000\t"));
}

/* Strings of every varint length class. */
static void
test_varint (void)
{
  static const ElogwType types[] = { { "%s", "s0", NULL } };
  static const gsize lengths[] = { 0, 1, 127, 128, 129, 16511, 16512, 16513, 70000 };
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GPtrArray) lines = NULL;

  elogw_header (a, types, 1, tracks2, 1, "", 0);
  elogw_u32 (a, G_N_ELEMENTS (lengths));
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autofree char *s = g_strnfill (lengths[i], 'a' + i);
      elogw_event_head (a, 0, 0, 1.0 + i);
      elogw_cstring (a, s);
    }
  file = load_bytes (a, &error);
  g_assert_no_error (error);
  lines = dump_lines (file);
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      const char *l = g_ptr_array_index (lines, i);
      const char *text = strrchr (l, '\t') + 1;
      g_assert_cmpuint (strlen (text), ==, lengths[i]);
    }
}

/* 0 events, 1 event, equal timestamps (file order kept). */
static void
test_counts (void)
{
  static const ElogwType types[] = { { "ev %d", "i4", NULL } };

  for (guint n = 0; n <= 3; n++)
    {
      g_autoptr(GByteArray) a = g_byte_array_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = NULL;
      g_autoptr(GPtrArray) lines = NULL;

      elogw_header (a, types, 1, tracks2, 2, "", 0);
      elogw_u32 (a, n);
      for (guint i = 0; i < n; i++)
        {
          elogw_event_head (a, 0, 1, 0.5);
          elogw_u32 (a, i);
        }
      file = load_bytes (a, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_file_get_n_events (file), ==, n);
      g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 2);
      lines = dump_lines (file);
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *want = g_strdup_printf ("0\trx worker 1\t0\tev\tev %u", i);
          g_assert_cmpstr (g_ptr_array_index (lines, i), ==, want);
        }
    }
}

/* A file with one event of each kind, truncated at every byte: an error
 * naming an offset, never a crash or a file. */
static void
test_truncated (void)
{
  static const char *e[] = { "x", "y", NULL };
  static const ElogwType types[] = { { "all %d %s %s %f %s", "i4t1T4f8s0", e } };
  g_autoptr(GByteArray) a = g_byte_array_new ();

  elogw_header (a, types, 1, tracks2, 2, "str", 4);
  elogw_u32 (a, 2);
  for (int k = 0; k < 2; k++)
    {
      elogw_event_head (a, 0, 1, 0.25 * k);
      elogw_u32 (a, 5); elogw_u8 (a, 1); elogw_u32 (a, 0); elogw_f64 (a, 1.5); elogw_cstring (a, "hi");
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(CpelFile) whole = load_bytes (a, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (cpel_file_get_n_events (whole), ==, 2);
  }
  for (guint len = 0; len < a->len; len++)
    {
      g_autoptr(GBytes) b = g_bytes_new (a->data, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = cpel_file_new_for_bytes (b, NULL, &error);

      g_assert_null (file);
      g_assert_nonnull (error);
      if (len >= 11)
        {
          g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
          g_assert_nonnull (strstr (error->message, "offset"));
        }
    }
}

static void
expect_damaged (GByteArray *a, const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = load_bytes (a, &error);

  g_assert_null (file);
  g_test_message ("%s", error->message);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
  g_assert_nonnull (strstr (error->message, needle));
  g_assert_nonnull (strstr (error->message, "offset"));
}

/* Counts that the file cannot back, unknown letters, indexes out of range. */
static void
test_hostile (void)
{
  static const ElogwType ok[] = { { "v %d", "i4", NULL } };
  static const ElogwType unknown[] = { { "v %d", "i4", NULL }, { "z %d", "z4", NULL } };
  static const char *e[] = { "only", NULL };
  static const ElogwType refs[] = { { "e %s T %s", "t1T4", e } };

  /* huge event count */
  {
    g_autoptr(GByteArray) a = g_byte_array_new ();
    elogw_header (a, ok, 1, tracks2, 1, "", 0);
    elogw_u32 (a, 0xffffffff);
    expect_damaged (a, "4294967295");
  }
  /* huge type count */
  {
    g_autoptr(GByteArray) a = g_byte_array_new ();
    elogw_header (a, ok, 0, tracks2, 0, "", 0);
    a->data[51] = 0xff; a->data[50] = 0xff; a->data[49] = 0xff; a->data[48] = 0xff;
    expect_damaged (a, "event types");
  }
  /* huge string table length */
  {
    g_autoptr(GByteArray) a = g_byte_array_new ();
    elogw_header (a, ok, 1, tracks2, 1, "", 0);
    g_byte_array_set_size (a, a->len - 4);
    elogw_u32 (a, 0x7fffffff);
    elogw_u32 (a, 0);
    expect_damaged (a, "string table");
  }
  /* an unknown argument letter: an error, not a guess */
  {
    g_autoptr(GByteArray) a = g_byte_array_new ();
    elogw_header (a, unknown, 2, tracks2, 1, "", 0);
    elogw_u32 (a, 2);
    elogw_event_head (a, 0, 0, 0.1); elogw_u32 (a, 1);
    elogw_event_head (a, 1, 0, 0.2); elogw_u32 (a, 1);
    expect_damaged (a, "unknown letter");
  }
  /* type and track out of range */
  {
    g_autoptr(GByteArray) a = g_byte_array_new ();
    elogw_header (a, ok, 1, tracks2, 1, "", 0);
    elogw_u32 (a, 1);
    elogw_event_head (a, 7, 0, 0.1); elogw_u32 (a, 1);
    expect_damaged (a, "type 7");
  }
  {
    g_autoptr(GByteArray) a = g_byte_array_new ();
    elogw_header (a, ok, 1, tracks2, 1, "", 0);
    elogw_u32 (a, 1);
    elogw_event_head (a, 0, 9, 0.1); elogw_u32 (a, 1);
    expect_damaged (a, "track 9");
  }
  /* an impossible time */
  {
    g_autoptr(GByteArray) a = g_byte_array_new ();
    elogw_header (a, ok, 1, tracks2, 1, "", 0);
    elogw_u32 (a, 1);
    elogw_event_head (a, 0, 0, NAN); elogw_u32 (a, 1);
    expect_damaged (a, "time");
  }
  /* enum index and string offset out of range: visible markers */
  {
    g_autoptr(GByteArray) a = g_byte_array_new ();
    g_autoptr(GError) error = NULL;
    g_autoptr(CpelFile) file = NULL;
    g_autoptr(GPtrArray) lines = NULL;

    elogw_header (a, refs, 1, tracks2, 1, "abc", 3);   /* no NUL at the end */
    elogw_u32 (a, 2);
    elogw_event_head (a, 0, 0, 0.1); elogw_u8 (a, 5); elogw_u32 (a, 99);
    elogw_event_head (a, 0, 0, 0.2); elogw_u8 (a, 0); elogw_u32 (a, 1);
    file = load_bytes (a, &error);
    g_assert_no_error (error);
    lines = dump_lines (file);
    g_assert_true (g_str_has_suffix (g_ptr_array_index (lines, 0), "e <bad enum 5> T <bad string offset 0x63>"));
    g_assert_true (g_str_has_suffix (g_ptr_array_index (lines, 1), "e only T bc"));
  }
  /* a varint length that claims more than the file */
  {
    static const ElogwType s[] = { { "%s", "s0", NULL } };
    g_autoptr(GByteArray) a = g_byte_array_new ();
    guint8 huge[9] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };

    elogw_header (a, s, 1, tracks2, 1, "", 0);
    elogw_u32 (a, 1);
    elogw_event_head (a, 0, 0, 0.1);
    g_byte_array_append (a, huge, 9);
    g_byte_array_append (a, (const guint8 *) "padding-padding", 15);
    expect_damaged (a, "claims");
  }
}


static gboolean
has_section (CpelFile *file,
             guint32   type)
{
  for (guint i = 0; i < cpel_file_get_n_sections (file); i++)
    if (cpel_file_get_section (file, i)->type == type)
      return TRUE;
  return FALSE;
}

/* Texts made when asked: an opened file keeps no texts (the CPEL made in
 * memory has no texts section) yet every label equals the one of the
 * import that formats them all (what `cpel convert` writes); and the
 * source read again at format time is as hostile as at import: bytes
 * changed after the import give markers, never a read outside. */
static void
test_texts_when_asked (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) lazy = NULL, eager = NULL;
  g_autoptr(GPtrArray) lazy_lines = NULL, eager_lines = NULL, hostile = NULL;
  g_autoptr(GBytes) source = NULL, converted = NULL;
  guint offsets[G_N_ELEMENTS (arguments_expected)];
  CpelImportSource src = { 0 };
  guint8 *buf;

  write_arguments_elog (a, offsets);
  buf = g_memdup2 (a->data, a->len);
  source = g_bytes_new_with_free_func (buf, a->len, g_free, buf);
  lazy = cpel_file_new_for_bytes (source, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (cpel_file_has_event_texts (lazy));
  g_assert_false (has_section (lazy, CPEL_SECTION_EXT_EVENT_TEXTS));

  src.data = a->data;
  src.size = a->len;
  converted = cpel_import_run (&cpel_importer_elog, &src, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  eager = cpel_file_new_for_bytes (converted, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (has_section (eager, CPEL_SECTION_EXT_EVENT_TEXTS));

  lazy_lines = dump_lines (lazy);
  eager_lines = dump_lines (eager);
  g_assert_cmpuint (lazy_lines->len, ==, G_N_ELEMENTS (arguments_expected));
  g_assert_cmpuint (eager_lines->len, ==, lazy_lines->len);
  for (guint i = 0; i < lazy_lines->len; i++)
    {
      g_assert_cmpstr (g_ptr_array_index (lazy_lines, i), ==, g_ptr_array_index (eager_lines, i));
      g_assert_true (g_str_has_suffix (g_ptr_array_index (lazy_lines, i), arguments_expected[i]));
    }

  /* The source changes under the open file (as a mapping may). */
  buf[offsets[0]] = 0xff;                          /* type 0xff?? */
  buf[offsets[1] + 2] = 0x7f;                      /* track 0x7f?? */
  memset (buf + offsets[2] + 4, 0xff, 8);          /* time: NaN */
  buf[offsets[5] + 12] = 0x7f;                     /* T: string offset 0x7f000000 */
  buf[offsets[4] + 12] = 9;                        /* t1: enum 9 of 4 */
  buf[offsets[7] + 12] = 0;                        /* s0: a 9-byte varint */
  memset (buf + offsets[7] + 13, 0xff, 8);         /*     claiming 2^64 - 1 bytes */
  buf[offsets[10] + 1] = 7;                        /* the last event is an "s [%s] [%s]" now */
  buf[offsets[10] + 12] = 0xff;                    /* whose string claims more than the file */
  hostile = dump_lines (lazy);
  g_assert_cmpuint (hostile->len, ==, lazy_lines->len);
  for (guint i = 0; i < hostile->len; i++)
    g_test_message ("%s", (const char *) g_ptr_array_index (hostile, i));
  g_assert_nonnull (strstr (g_ptr_array_index (hostile, 0), "<VPP elog: the event at offset"));
  g_assert_nonnull (strstr (g_ptr_array_index (hostile, 0), "has type 65280"));
  g_assert_nonnull (strstr (g_ptr_array_index (hostile, 1), "is on track 32513"));
  g_assert_nonnull (strstr (g_ptr_array_index (hostile, 2), "impossible time"));
  g_assert_nonnull (strstr (g_ptr_array_index (hostile, 4), "e <bad enum 9>"));
  g_assert_nonnull (strstr (g_ptr_array_index (hostile, 5), "T <bad string offset 0x7f00000f>"));
  g_assert_nonnull (strstr (g_ptr_array_index (hostile, 7), "claims 18446744073709551615 bytes"));
  g_assert_nonnull (strstr (g_ptr_array_index (hostile, 10), "claims 127 bytes, only 3 remain"));
  /* untouched events keep their text */
  g_assert_cmpstr (g_ptr_array_index (hostile, 3), ==, g_ptr_array_index (lazy_lines, 3));
  g_assert_cmpstr (g_ptr_array_index (hostile, 9), ==, g_ptr_array_index (lazy_lines, 9));
}

/* The file shrinks on disk while open: texts read zeros (the mapping is
 * guarded), the file says it is damaged, nothing crashes. */
static void
test_texts_truncated_on_disk (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GPtrArray) before = NULL, after = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-elog-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "shrinks.elog", NULL);
  guint offsets[G_N_ELEMENTS (arguments_expected)];
  write_arguments_elog (a, offsets);
  g_assert_true (g_file_set_contents (path, (const char *) a->data, a->len, &error));
  g_assert_no_error (error);
  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  before = dump_lines (file);
  g_assert_false (cpel_file_is_damaged (file));
  g_assert_cmpint (truncate (path, 0), ==, 0);
  after = dump_lines (file);
  g_assert_cmpuint (after->len, ==, before->len);
  g_assert_true (cpel_file_is_damaged (file));
  g_clear_object (&file);
  g_unlink (path);
  g_rmdir (dir);
}


/* An unknown conversion throws away the text formatted so far, as clib
 * does — only the event's text, not what the label put before it. */
static void
test_unknown_conversion_label (void)
{
  static const ElogwType types[] = { { "big %d then %Q", "i4i4", NULL } };
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GString) label = g_string_new ("kept|");
  CpelEvent ev;

  elogw_header (a, types, 1, tracks2, 1, "", 0);
  elogw_u32 (a, 1);
  elogw_event_head (a, 0, 0, 0.5);
  elogw_u32 (a, 7);
  elogw_u32 (a, 8);
  file = load_bytes (a, &error);
  g_assert_no_error (error);
  cpel_file_get_track_event (file, 0, 0, &ev);
  cpel_file_append_label (file, &ev, label);
  g_assert_cmpstr (label->str, ==, "kept|big: **** CLIB unknown format `%Q' ****");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/elog/fixture/tiny", test_fixture_tiny);
  g_test_add_func ("/core/import/elog/fixture/workers", test_fixture_workers);
  g_test_add_func ("/core/import/elog/fixture/wrapped", test_fixture_wrapped);
  g_test_add_func ("/core/import/elog/fixture/tracks", test_fixture_tracks);
  g_test_add_func ("/core/import/elog/fixture/header", test_fixture_header);
  g_test_add_func ("/core/import/elog/c2cpel", test_c2cpel);
  g_test_add_func ("/core/import/elog/round-trip", test_round_trip);
  g_test_add_func ("/core/import/elog/arguments", test_arguments);
  g_test_add_func ("/core/import/elog/varint", test_varint);
  g_test_add_func ("/core/import/elog/counts", test_counts);
  g_test_add_func ("/core/import/elog/truncated", test_truncated);
  g_test_add_func ("/core/import/elog/hostile", test_hostile);
  g_test_add_func ("/core/import/elog/texts-when-asked", test_texts_when_asked);
  g_test_add_func ("/core/import/elog/texts-truncated-on-disk", test_texts_truncated_on_disk);
  g_test_add_func ("/core/import/elog/unknown-conversion-label", test_unknown_conversion_label);
  return g_test_run ();
}
