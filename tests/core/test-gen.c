/* SPDX-License-Identifier: Apache-2.0 */
/* test-gen.c — the synthetic and demo generators */
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-loader.h"

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  GError *error = NULL;

  f->dir = g_dir_make_tmp ("cpel-gen-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_autoptr(GDir) d = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
}

static char *
gen (Fixture *f, const char *name, const CpelGenOptions *opt)
{
  GError *error = NULL;
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (cpel_gen_write (path, opt, &error));
  g_assert_no_error (error);
  return path;
}

static GBytes *
read_bytes (const char *path)
{
  char *contents;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (contents, len);
}

static CpelFile *
load (const char *path)
{
  GError *error = NULL;
  CpelFile *file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return file;
}

static void
test_deterministic (Fixture *f, gconstpointer data)
{
  CpelGenOptions opt = { .n_events = 20000, .n_tracks = 37, .seed = 42 };
  g_autofree char *p1 = gen (f, "a.cpel", &opt);
  g_autofree char *p2 = gen (f, "b.cpel", &opt);
  g_autofree char *p3 = NULL;
  g_autoptr(GBytes) b1 = read_bytes (p1);
  g_autoptr(GBytes) b2 = read_bytes (p2);
  g_autoptr(GBytes) b3 = NULL;

  opt.seed = 43;
  p3 = gen (f, "c.cpel", &opt);
  b3 = read_bytes (p3);
  g_assert_true (g_bytes_equal (b1, b2));
  g_assert_cmpuint (g_bytes_get_size (b1), ==, g_bytes_get_size (b3));
  g_assert_false (g_bytes_equal (b1, b3));
}

static void
test_demo_deterministic (Fixture *f, gconstpointer data)
{
  CpelGenOptions opt = { .demo = TRUE, .seed = 1 };
  g_autofree char *p1 = gen (f, "a.cpel", &opt);
  g_autofree char *p2 = gen (f, "b.cpel", &opt);
  g_autofree char *p3 = NULL;
  g_autoptr(GBytes) b1 = read_bytes (p1);
  g_autoptr(GBytes) b2 = read_bytes (p2);
  g_autoptr(GBytes) b3 = NULL;

  opt.seed = 2;
  p3 = gen (f, "c.cpel", &opt);
  b3 = read_bytes (p3);
  g_assert_true (g_bytes_equal (b1, b2));
  g_assert_false (g_bytes_equal (b1, b3));
}

/* Counts, byte order, labels, and "mostly sorted": per track the file order
 * is the time order, but the section as a whole is not quite sorted. */
static void
test_synthetic (Fixture *f, gconstpointer data)
{
  gboolean le = GPOINTER_TO_INT (data);
  CpelGenOptions opt = { .n_events = 50000, .n_tracks = 100, .seed = 7, .little_endian = le };
  g_autofree char *path = gen (f, "s.cpel", &opt);
  g_autoptr(CpelFile) file = load (path);
  g_autoptr(CpelMerge) merge = NULL;
  g_autoptr(GString) label = g_string_new (NULL);
  guint64 total = 0, out_of_order = 0, prev_index = 0;
  gboolean saw_symbol = FALSE, saw_string = FALSE;
  CpelEvent ev;

  g_assert_cmpuint (cpel_file_is_little_endian (file), ==, le);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 50000);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 100);
  g_assert_cmpuint (cpel_file_get_n_types (file), ==, 8);
  g_assert_null (cpel_file_get_warnings (file)[0]);
  g_assert_cmpstr (cpel_file_get_track_label (file, 0), ==, "thread 0");
  g_assert_cmpstr (cpel_file_get_track_label (file, 3), ==, "queue 0x3");
  g_assert_cmpint (cpel_file_get_duration (file), >, 0);

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      guint64 n = cpel_file_get_track_n_events (file, slot);
      guint64 last = 0;

      g_assert_cmpuint (n, >, 0);
      for (guint64 i = 0; i < n; i++)
        {
          cpel_file_get_track_event (file, slot, i, &ev);
          if (i > 0)
            g_assert_cmpuint (ev.file_index, >, last);
          last = ev.file_index;
        }
    }

  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL))
    {
      if (total > 0 && ev.file_index < prev_index)
        out_of_order++;
      prev_index = ev.file_index;
      total++;
      g_string_truncate (label, 0);
      cpel_file_append_label (file, &ev, label);
      if (g_str_has_prefix (label->str, "call: ") && g_ascii_isalpha (label->str[6]))
        saw_symbol = TRUE;
      if (strcmp (label->str, "dispatch: ip4-lookup") == 0)
        saw_string = TRUE;
      g_assert_null (strstr (label->str, "<bad"));
    }
  g_assert_cmpuint (total, ==, 50000);
  g_assert_cmpuint (out_of_order, >, 0);
  g_assert_cmpuint (out_of_order, <, total / 100);
  g_assert_true (saw_symbol);
  g_assert_true (saw_string);
}

static void
test_demo (Fixture *f, gconstpointer data)
{
  CpelGenOptions opt = { .demo = TRUE, .seed = 1 };
  g_autofree char *path = gen (f, "demo.cpel", &opt);
  g_autoptr(CpelFile) file = load (path);
  g_autoptr(GString) label = g_string_new (NULL);
  guint n_strtabs = 0, n_evsecs = 0;
  guint64 tps[2] = { 0, 0 };
  gboolean names[4] = { FALSE };
  guint slot;
  guint64 n_api = 0;

  g_assert_null (cpel_file_get_warnings (file)[0]);
  g_assert_cmpuint (cpel_file_get_n_events (file), >=, 50000);
  g_assert_cmpuint (cpel_file_get_n_events (file), <=, 200000);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), >=, 20);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), <=, 60);
  for (guint i = 0; i < cpel_file_get_n_sections (file); i++)
    {
      const CpelSectionInfo *s = cpel_file_get_section (file, i);

      if (s->type == CPEL_SECTION_STRING_TABLE)
        n_strtabs++;
      if (s->type == CPEL_SECTION_EVENTS && n_evsecs < 2)
        tps[n_evsecs++] = s->ticks_per_second;
    }
  g_assert_cmpuint (n_strtabs, >=, 2);
  g_assert_cmpuint (n_evsecs, ==, 2);
  g_assert_cmpuint (tps[0], !=, tps[1]);

  g_assert_true (cpel_file_lookup_track (file, 1, &slot));
  g_assert_cmpstr (cpel_file_get_track_label (file, slot), ==, "vpp_wk_0");
  g_assert_cmpuint (cpel_file_get_track_n_events (file, slot), >, 1000);
  for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
    {
      CpelEvent ev;

      cpel_file_get_track_event (file, slot, i, &ev);
      g_string_truncate (label, 0);
      cpel_file_append_label (file, &ev, label);
      g_assert_null (strstr (label->str, "<bad"));
      if (strcmp (label->str, "dispatch: ethernet-input") == 0)
        names[0] = TRUE;
      if (strcmp (label->str, "dispatch: ip4-lookup") == 0)
        names[1] = TRUE;
      if (g_str_has_prefix (label->str, "vectors: ") && g_str_has_suffix (label->str, " pkts"))
        names[2] = TRUE;
      if (g_str_has_prefix (label->str, "suspend: "))
        names[3] = TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_true (names[i]);

  /* The main thread's section: API names from its own string table, %k. */
  g_assert_true (cpel_file_lookup_track (file, 0, &slot));
  g_assert_cmpstr (cpel_file_get_track_label (file, slot), ==, "vpp_main");
  for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
    {
      CpelEvent ev;

      cpel_file_get_track_event (file, slot, i, &ev);
      g_string_truncate (label, 0);
      cpel_file_append_label (file, &ev, label);
      g_assert_null (strstr (label->str, "<bad"));
      g_assert_null (strstr (label->str, "+0x"));   /* process entries are exact symbols */
      if (g_str_has_prefix (label->str, "api-msg: ") && g_ascii_islower (label->str[9]))
        n_api++;
    }
  g_assert_cmpuint (n_api, >, 0);
}

static void
test_refuses_existing (Fixture *f, gconstpointer data)
{
  CpelGenOptions opt = { .n_events = 10, .n_tracks = 2, .seed = 1 };
  g_autofree char *path = gen (f, "x.cpel", &opt);
  g_autoptr(GError) error = NULL;

  g_assert_false (cpel_gen_write (path, &opt, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  opt.overwrite = TRUE;
  opt.n_events = 20;
  g_clear_error (&error);
  g_assert_true (cpel_gen_write (path, &opt, &error));
  g_assert_no_error (error);
}

static void
test_zero_tracks (Fixture *f, gconstpointer data)
{
  CpelGenOptions opt = { .n_events = 10, .n_tracks = 0 };
  g_autofree char *path = g_build_filename (f->dir, "z.cpel", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (cpel_gen_write (path, &opt, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_zero_events (Fixture *f, gconstpointer data)
{
  CpelGenOptions opt = { .n_events = 0, .n_tracks = 3 };
  g_autofree char *path = gen (f, "e.cpel", &opt);
  g_autoptr(CpelFile) file = load (path);

  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 0);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 3);
}

static guint64
status_kb (const char *key)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  p = strstr (status, key);
  if (p == NULL)
    return 0;
  return g_ascii_strtoull (p + strlen (key), NULL, 10);
}

/* Streaming: generating 60 MB of events must not grow the heap with them. */
static void
test_streams (Fixture *f, gconstpointer data)
{
  CpelGenOptions opt = { .n_events = 3000000, .n_tracks = 1000, .seed = 3 };
  g_autofree char *path = NULL;
  guint64 before = status_kb ("VmRSS:"), after;

  if (before == 0)
    {
      g_test_skip ("no /proc/self/status");
      return;
    }
  path = gen (f, "big.cpel", &opt);
  after = status_kb ("VmHWM:");
  g_test_message ("RSS before %" G_GUINT64_FORMAT " kB, peak after %" G_GUINT64_FORMAT " kB",
                  before, after);
  g_assert_cmpuint (after, <, before + 16 * 1024);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func, data) \
  g_test_add ("/core/gen/" path, Fixture, data, fixture_setup, func, fixture_teardown)
  ADD ("streams", test_streams, NULL);   /* first: the peak RSS is still low */
  ADD ("deterministic", test_deterministic, NULL);
  ADD ("demo/deterministic", test_demo_deterministic, NULL);
  ADD ("synthetic/big-endian", test_synthetic, GINT_TO_POINTER (FALSE));
  ADD ("synthetic/little-endian", test_synthetic, GINT_TO_POINTER (TRUE));
  ADD ("demo", test_demo, NULL);
  ADD ("refuses-existing", test_refuses_existing, NULL);
  ADD ("zero-tracks", test_zero_tracks, NULL);
  ADD ("zero-events", test_zero_events, NULL);
#undef ADD

  return g_test_run ();
}
