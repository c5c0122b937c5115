/* SPDX-License-Identifier: Apache-2.0 */
/* test-import-snabb.c — Snabb timelines: the fixtures against their reference
 * listings, and writer-made files (wrapped rings, ties, hostile input) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpel-core.h"
#include "cpel-import.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"
#include "import-writers.h"

static char *
datum_of (CpelFile *file, const CpelEvent *ev)
{
  GString *s = g_string_new (NULL);
  cpel_file_append_datum (file, ev, s);
  return g_string_free (s, FALSE);
}

static CpelFile *
load_writer (Snabbw *w, guint64 rate, GError **error)
{
  g_autoptr(GBytes) b = g_bytes_new (w->a->data, w->a->len);
  CpelLoadOptions options = { .ticks_per_second = rate };
  return cpel_file_new_for_bytes (b, &options, error);
}

/* ---- fixtures ---------------------------------------------------------------------- */

static void
check_fixture (const char *name, const char *clock)
{
  g_autofree char *rel = g_strdup_printf ("snabb-timeline/%s.timeline", name);
  g_autofree char *rel_ref = g_strdup_printf ("snabb-timeline/%s.timeline.listing.txt", name);
  g_autofree char *path = cpel_test_fixture_file (rel);
  g_autofree char *ref_path = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) n_attrs = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  CpelEvent ev;
  guint i = 0, n_ref = 0;

  ref_path = cpel_test_fixture_file (rel_ref);
  g_assert_true (g_file_get_contents (ref_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);

  /* "#   msgid N: L,R|cat.event attrs: names" */
  for (guint k = 0; lines[k]; k++)
    if (g_str_has_prefix (lines[k], "#   msgid "))
      {
        guint id = (guint) atoi (lines[k] + 10);
        const char *spec = strchr (lines[k], '|') + 1;
        g_autofree char *head = g_strndup (spec, strrchr (spec, ':') - spec);
        g_auto(GStrv) words = g_strsplit (head, " ", -1);
        g_hash_table_insert (n_attrs, GUINT_TO_POINTER (id), GUINT_TO_POINTER (g_strv_length (words) - 1));
      }
    else if (lines[k][0] != '#' && lines[k][0] != '\0')
      n_ref++;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cpel_file_get_imported_from (file), ==, "snabb");
  g_assert_cmpstr (cpel_file_get_source_value (file, "clock"), ==, clock);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, n_ref);
  /* a rate to set only when the file gives none (a derived one wins) */
  g_assert_cmpint (cpel_file_has_clock_rate (file), ==, g_str_equal (clock, "unknown"));
  g_assert_cmpint (cpel_file_get_time_kind (file), ==,
                   g_str_equal (clock, "unknown") ? CPEL_TIME_KIND_TICKS : CPEL_TIME_KIND_NS);

  merge = cpel_merge_new (file, NULL, 0, 0);
  for (guint k = 0; lines[k]; k++)
    {
      g_auto(GStrv) f = NULL, mine = NULL;
      g_autofree char *datum = NULL;
      g_autofree char *track = NULL;
      guint msgid, attrs, nf;
      gint64 ns;

      if (lines[k][0] == '#' || lines[k][0] == '\0')
        continue;
      g_assert_true (cpel_merge_next (merge, &ev, NULL));
      i++;
      f = g_strsplit (lines[k], " ", -1);
      nf = g_strv_length (f);
      ns = g_ascii_strtoll (f[1], NULL, 10);
      msgid = (guint) atoi (f[3]);
      g_assert_cmpint (llabs (ev.time_ns - ns), <=, 1);
      g_assert_cmpuint (ev.code, ==, msgid);
      /* "L,R|cat.event" then the attributes, then name=value */
      g_assert_cmpstr (cpel_file_get_type_name (file, ev.type), ==, strchr (f[5], '|') + 1);
      attrs = GPOINTER_TO_UINT (g_hash_table_lookup (n_attrs, GUINT_TO_POINTER (msgid)));
      {
        GString *t = g_string_new (NULL);
        const char *dot = strchr (strchr (f[5], '|') + 1, '.');
        g_string_append_len (t, strchr (f[5], '|') + 1, dot - strchr (f[5], '|') - 1);
        for (guint a = 0; a < attrs; a++)
          g_string_append_printf (t, " %s", strchr (f[6 + a], '=') + 1);
        track = g_string_free (t, FALSE);
      }
      g_assert_cmpstr (cpel_file_get_track_label (file, ev.track_slot), ==, track);
      datum = datum_of (file, &ev);
      mine = g_strsplit (datum, " ", -1);
      if (datum[0] == '\0')
        g_assert_cmpuint (nf, ==, 6 + attrs);
      else
        {
          g_assert_cmpuint (g_strv_length (mine), ==, nf - 6 - attrs);
          for (guint a = 0; mine[a]; a++)
            {
              const char *r = f[6 + attrs + a];
              const char *req = strchr (r, '='), *meq = strchr (mine[a], '=');
              g_assert_nonnull (meq);
              g_assert_cmpint (req - r, ==, meq - mine[a]);
              g_assert_true (strncmp (r, mine[a], req - r) == 0);
              g_assert_cmpfloat (g_ascii_strtod (req + 1, NULL), ==, g_ascii_strtod (meq + 1, NULL));
            }
        }
    }
  g_assert_false (cpel_merge_next (merge, &ev, NULL));
  g_assert_cmpuint (i, ==, n_ref);
}

static void
test_fixture_engine (void)
{
  check_fixture ("engine-pipeline", "derived");
}

static void
test_fixture_ring64 (void)
{
  g_autofree char *path = cpel_test_fixture_file ("snabb-timeline/ring64-wrapped.timeline");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  CpelLoadOptions options = { .ticks_per_second = 2000000000 };

  check_fixture ("ring64-wrapped", "unknown");
  /* the clock is unknown: the user's rate applies (ticks / 2 = ns) */
  file = cpel_file_new_for_path (path, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cpel_file_get_source_value (file, "clock"), ==, "user");
  g_assert_cmpint (cpel_file_get_duration (file), ==, 425292 / 2);
  g_assert_nonnull (strstr (cpel_file_get_source_value (file, "clock-description"), "2000000000"));
}

/* ---- writer-made ------------------------------------------------------------------- */

/* A ring written past its end: the oldest entry is the one after the newest;
 * equal timestamps keep ring order. */
static void
test_wrapped (void)
{
  Snabbw w;
  guint16 m;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  CpelEvent ev;
  static const double tsc[8] = { 1500, 1600, 1600, 1700, 1000, 1100, 1200, 1300 };
  static const guint order[8] = { 4, 5, 6, 7, 0, 1, 2, 3 };

  snabbw_init (&w, 8, 256, 3);
  m = snabbw_message (&w, "5,9|lane.step lane=a: seq");
  for (guint s = 0; s < 8; s++)
    {
      double arg = s;
      snabbw_entry (&w, s, tsc[s], m, 0, &arg, 1);
    }
  file = load_writer (&w, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 8);
  merge = cpel_merge_new (file, NULL, 0, 0);
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *d = NULL, *want = NULL;
      g_assert_true (cpel_merge_next (merge, &ev, NULL));
      d = datum_of (file, &ev);
      want = g_strdup_printf ("seq=%u", order[i]);
      g_assert_cmpstr (d, ==, want);
      g_assert_cmpuint (ev.datum, ==, order[i]);
      g_assert_cmpint (ev.time_ns, ==, (gint64) (tsc[order[i]] - 1000));
    }
  g_assert_cmpstr (cpel_file_get_track_label (file, 0), ==, "lane a");
  g_assert_cmpstr (cpel_file_get_type_name (file, 0), ==, "lane.step");
  g_byte_array_unref (w.a);
}

/* 0 entries and 1 entry; empty slots skipped; TSC rate from got_monotonic_time. */
static void
test_counts_and_clock (void)
{
  for (guint n = 0; n <= 3; n++)
    {
      Snabbw w;
      guint16 m, mono;
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = NULL;

      snabbw_init (&w, 16, 512, 3);
      m = snabbw_message (&w, "1,5|engine.breath_start: breath totalpackets");
      mono = snabbw_message (&w, "2,3|engine.got_monotonic_time: unixnanos\nA description.");
      if (n >= 1)
        snabbw_entry (&w, 3, 5000, m, 0, (double[]) { 1, 2.5 }, 2);
      if (n >= 2)
        {
          /* 2 GHz: 2e9 ticks per 1e9 ns */
          snabbw_entry (&w, 5, 10000, mono, 0, (double[]) { 1e9 }, 1);
          snabbw_entry (&w, 6, 10000 + 2e9, mono, 0, (double[]) { 2e9 }, 1);
        }
      file = load_writer (&w, 0, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_file_get_n_events (file), ==, n == 0 ? 0 : n == 1 ? 1 : 3);
      if (n == 1)
        {
          CpelEvent ev;
          g_autofree char *d = NULL;
          cpel_file_get_track_event (file, 0, 0, &ev);
          d = datum_of (file, &ev);
          g_assert_cmpstr (d, ==, "breath=1 totalpackets=2.5");
          g_assert_cmpstr (cpel_file_get_source_value (file, "clock"), ==, "unknown");
        }
      if (n >= 2)
        {
          g_assert_cmpstr (cpel_file_get_source_value (file, "clock"), ==, "derived");
          g_assert_cmpint (cpel_file_get_duration (file), ==, 1000002500);
        }
      g_byte_array_unref (w.a);
    }
}

static void
expect_error (GByteArray *a, int code, const char *needle)
{
  g_autoptr(GBytes) b = g_bytes_new (a->data, a->len);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_bytes (b, NULL, &error);

  g_assert_null (file);
  g_test_message ("%s", error->message);
  g_assert_error (error, CPEL_ERROR, code);
  g_assert_nonnull (strstr (error->message, needle));
}

static void
test_hostile (void)
{
  /* old layouts are refused by name, unknown ones by number */
  for (guint16 major = 1; major <= 4; major++)
    {
      Snabbw w;
      snabbw_init (&w, 4, 64, major);
      if (major == 3)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(CpelFile) file = load_writer (&w, 0, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (cpel_file_get_n_events (file), ==, 0);
        }
      else
        expect_error (w.a, CPEL_ERROR_SOURCE_UNSUPPORTED,
                      major == 1 ? "2016" : major == 2 ? "February 2017" : "4.0");
      g_byte_array_unref (w.a);
    }
  /* message ids past the table, into the middle of a message, and 0xFFFF */
  {
    Snabbw w;
    guint16 m;

    snabbw_init (&w, 4, 128, 3);
    m = snabbw_message (&w, "1,1|cat.a_rather_long_event_name x=y: arg");
    snabbw_entry (&w, 0, 10, m, 0, NULL, 0);
    snabbw_entry (&w, 1, 20, m + 1, 0, NULL, 0);   /* the second 16 bytes of that message */
    expect_error (w.a, CPEL_ERROR_SOURCE_DAMAGED, "not the start of a message");
    snabbw_entry (&w, 1, 20, 500, 0, NULL, 0);
    expect_error (w.a, CPEL_ERROR_SOURCE_DAMAGED, "message id 500");
    snabbw_entry (&w, 1, 20, 0xFFFF, 0, NULL, 0);
    {
      g_autoptr(GBytes) b = g_bytes_new (w.a->data, w.a->len);
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = cpel_file_new_for_bytes (b, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_file_get_n_events (file), ==, 2);
    }
    /* truncated at every byte of the header and of the first entry */
    for (guint len = 8; len < 64 + 64; len++)
      {
        g_autoptr(GBytes) b = g_bytes_new (w.a->data, len);
        g_autoptr(GError) error = NULL;
        g_autoptr(CpelFile) file = cpel_file_new_for_bytes (b, NULL, &error);
        g_assert_null (file);
        g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
        g_assert_nonnull (strstr (error->message, "offset"));
      }
    /* huge sizes */
    w.a->data[15] = 0x7f;
    expect_error (w.a, CPEL_ERROR_SOURCE_DAMAGED, "but the file has");
    w.a->data[15] = 0;
    w.a->data[12] = 1;
    expect_error (w.a, CPEL_ERROR_SOURCE_DAMAGED, "not a multiple");
    g_byte_array_unref (w.a);
  }
}


/* Every event as "time_ns track code name text", in time order. */
static GPtrArray *
dump_lines (CpelFile *file)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  CpelEvent ev;

  while (cpel_merge_next (merge, &ev, NULL))
    {
      g_autofree char *d = datum_of (file, &ev);
      g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT " %s %u %s %s", ev.time_ns,
                                               cpel_file_get_track_label (file, ev.track_slot),
                                               ev.code, cpel_file_get_type_name (file, ev.type), d));
    }
  return lines;
}

/* Texts made when asked: equal to the import that formats them all (what
 * `cpel convert` writes), in the three entry orders (slot order, one
 * wrapped ring, sorted); a message id changed after the import gives a
 * marker. */
static void
test_texts_when_asked (void)
{
  static const double tsc[3][8] = {
    { 1000, 1100, 1100, 1200, 1300, 0, 0, 0 },           /* in slot order, 3 empty */
    { 1500, 1600, 1600, 1700, 1000, 1100, 1200, 1300 },  /* wrapped once */
    { 1300, 1000, 1700, 1100, 1100, 1600, 1000, 1200 },  /* no order: sorted, ties by slot */
  };
  static const double args[8][4] = {
    { 1, 2.5, -3, 1e300 }, { 0.1, 64, 8192, -0.0 }, { 7 }, { 1e-7, 4.5e15 },
    { 12345.5, -7.25 }, { 3 }, { 1.0 / 3 }, { 9007199254740993.0 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (tsc); c++)
    {
      Snabbw w;
      guint16 m[3];
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) lazy = NULL, eager = NULL;
      g_autoptr(GPtrArray) lazy_lines = NULL, eager_lines = NULL, changed = NULL;
      g_autoptr(GBytes) source = NULL, converted = NULL;
      CpelImportSource src = { 0 };
      guint8 *buf;
      guint64 n = 0;

      snabbw_init (&w, 8, 512, 3);
      m[0] = snabbw_message (&w, "1,5|engine.breath_start: breath totalpackets totalbytes totaletherbits");
      m[1] = snabbw_message (&w, "3,3|app.pull app=tee:");
      m[2] = snabbw_message (&w, "2,3|lane.step lane=a: seq value");
      for (guint s = 0; s < 8; s++)
        if (tsc[c][s] != 0)
          {
            snabbw_entry (&w, s, tsc[c][s], m[s % 3], 0, args[s], s % 3 == 0 ? 4 : s % 3 == 2 ? 2 : 0);
            n++;
          }
      buf = g_memdup2 (w.a->data, w.a->len);
      source = g_bytes_new_with_free_func (buf, w.a->len, g_free, buf);
      lazy = cpel_file_new_for_bytes (source, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_file_get_n_events (lazy), ==, n);
      for (guint i = 0; i < cpel_file_get_n_sections (lazy); i++)
        g_assert_cmpuint (cpel_file_get_section (lazy, i)->type, !=, CPEL_SECTION_EXT_EVENT_TEXTS);

      src.data = w.a->data;
      src.size = w.a->len;
      converted = cpel_import_run (&cpel_importer_snabb, &src, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      eager = cpel_file_new_for_bytes (converted, NULL, &error);
      g_assert_no_error (error);
      lazy_lines = dump_lines (lazy);
      eager_lines = dump_lines (eager);
      g_assert_cmpuint (lazy_lines->len, ==, n);
      g_assert_cmpuint (eager_lines->len, ==, n);
      for (guint i = 0; i < n; i++)
        {
          g_test_message ("%s", (const char *) g_ptr_array_index (lazy_lines, i));
          g_assert_cmpstr (g_ptr_array_index (lazy_lines, i), ==, g_ptr_array_index (eager_lines, i));
        }
      if (c == 0)
        {
          g_assert_cmpstr (g_ptr_array_index (lazy_lines, 0), ==,
                           "0 engine 0 engine.breath_start breath=1 totalpackets=2.5 totalbytes=-3 "
                           "totaletherbits=1e+300");
          g_assert_cmpstr (g_ptr_array_index (lazy_lines, 2), ==,
                           "100 lane a 7 lane.step seq=7 value=0");
        }

      /* slot 0's message id changes under the open file */
      buf[64 + 8] = 0x21;
      buf[64 + 9] = 0x00;
      changed = dump_lines (lazy);
      g_assert_cmpuint (changed->len, ==, n);
      {
        gboolean marker = FALSE;
        for (guint i = 0; i < n; i++)
          marker |= strstr (g_ptr_array_index (changed, i), "<message id 33: the file changed>") != NULL;
        g_assert_true (marker);
      }
      g_byte_array_unref (w.a);
    }
}


/* The TSC rate from the first and the last engine.got_monotonic_time in
 * time order, whichever order the ring is in (slot order, wrapped, sorted);
 * a decoy between them must not count. */
static void
test_clock_orders (void)
{
  /* tsc per slot; mono: the unixnanos of got_monotonic_time entries (0: other) */
  static const double tsc[3][6] = {
    { 1000, 2000, 3000, 4000, 5000, 6000 },
    { 4000, 5000, 6000, 1000, 2000, 3000 },
    { 4000, 1000, 6000, 2000, 5000, 3000 },
  };
  static const double mono[3][6] = {
    { 1e9, 0, 7e9, 0, 0, 1e9 + 2500 },
    { 0, 0, 1e9 + 2500, 1e9, 0, 7e9 },
    { 7e9, 1e9, 1e9 + 2500, 0, 0, 0 },
  };

  for (guint c = 0; c < 3; c++)
    {
      Snabbw w;
      guint16 m_mono, m_other;
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = NULL;
      g_autoptr(CpelMerge) merge = NULL;
      CpelEvent ev;
      gint64 last = -1;

      snabbw_init (&w, 6, 256, 3);
      m_mono = snabbw_message (&w, "2,3|engine.got_monotonic_time: unixnanos");
      m_other = snabbw_message (&w, "5,9|lane.step lane=a: seq");
      for (guint s = 0; s < 6; s++)
        {
          double arg = mono[c][s] != 0 ? mono[c][s] : s;
          snabbw_entry (&w, s, tsc[c][s], mono[c][s] != 0 ? m_mono : m_other, 0, &arg, 1);
        }
      file = load_writer (&w, 0, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (cpel_file_get_source_value (file, "clock"), ==, "derived");
      /* 5000 ticks between the first and the last at 2500 ns: 2 GHz */
      merge = cpel_merge_new (file, NULL, 0, 0);
      while (cpel_merge_next (merge, &ev, NULL))
        last = ev.time_ns;
      g_assert_cmpint (last, ==, 2500);
      g_byte_array_unref (w.a);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/snabb/fixture/engine", test_fixture_engine);
  g_test_add_func ("/core/import/snabb/fixture/ring64", test_fixture_ring64);
  g_test_add_func ("/core/import/snabb/wrapped", test_wrapped);
  g_test_add_func ("/core/import/snabb/counts-and-clock", test_counts_and_clock);
  g_test_add_func ("/core/import/snabb/hostile", test_hostile);
  g_test_add_func ("/core/import/snabb/texts-when-asked", test_texts_when_asked);
  g_test_add_func ("/core/import/snabb/clock-orders", test_clock_orders);
  return g_test_run ();
}
