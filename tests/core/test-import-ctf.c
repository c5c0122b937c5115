/* SPDX-License-Identifier: Apache-2.0 */
/* test-import-ctf.c — CTF traces opened as event logs (cpel-import-ctf.c):
 * a trace folder, a session folder holding two traces, a metadata file and
 * a stream file through cpel_file_new_for_path; tracks, names, texts, times
 * from the earliest event, discarded events as lost events. */
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-ctf-writer.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

/* A trace folder under tests/fixtures/ctf (a missing one fails the test). */
static char *
fixture_dir (const char *rel)
{
  g_autofree char *path = g_build_filename ("ctf", rel, NULL);

  return cpel_test_fixture_dir (path);
}

static CpelFile *
open_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cpel_file_get_imported_from (file), ==, "ctf");
  return file;
}

/* The first event in time order: its label parts. */
static void
first_event (CpelFile *file, char **track, char **name, char **datum, gint64 *ns)
{
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  CpelEvent ev;
  guint64 idx;
  g_assert_true (cpel_merge_next (merge, &ev, &idx));
  g_autoptr(GString) s = g_string_new (NULL);
  cpel_file_append_datum (file, &ev, s);
  *track = g_strdup (cpel_file_get_track_label (file, ev.track_slot));
  *name = g_strdup (cpel_file_get_type_name (file, ev.type));
  *datum = g_strdup (s->str);
  *ns = ev.time_ns;
}

static void
test_dpdk (void)
{
  g_autofree char *dir = fixture_dir ("dpdk-22.11-lcores");
  g_autoptr(CpelFile) file = open_path (dir);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 171);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 6);
  g_autofree char *track = NULL, *name = NULL, *datum = NULL;
  gint64 ns;
  first_event (file, &track, &name, &datum, &ns);
  /* [1795684451.326631721] lib.eal.thread.lcore.ready: { cpu_id = 0x7, name = "rte-worker-7" }, { lcore_id = 0x7, cpuset = "1" } */
  g_assert_cmpint (ns, ==, 0);
  g_assert_cmpstr (track, ==, "rte-worker-7 lcore 7");
  g_assert_cmpstr (name, ==, "lib.eal.thread.lcore.ready");
  g_assert_cmpstr (datum, ==, "lcore_id = 0x7, cpuset = \"1\"");
  /* [1795684451.364895571] is the last event: 38263850 ns after the first */
  g_assert_cmpint (cpel_file_get_duration (file), ==, 38263850);
  g_assert_cmpstr (cpel_file_get_source_value (file, "lost-events"), ==, "0");

  /* the built-in rules: each worker lcore is ready from its start on (DPDK
   * 22.11 has no running / stopped tracepoints, nor service runs) */
  {
    g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
    g_autoptr(GError) error = NULL;
    g_autoptr(CpelSpans) spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
    guint workers = 0;

    g_assert_no_error (error);
    for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
      {
        const char *label = cpel_file_get_track_label (file, slot);
        guint64 n_spans = 0, n_states = 0;
        const CpelSpan *st;

        cpel_spans_get_track_spans (spans, slot, &n_spans);
        st = cpel_spans_get_track_states (spans, slot, &n_states);
        g_assert_cmpuint (n_spans, ==, 0);
        if (!g_str_has_prefix (label, "rte-worker-"))
          {
            g_assert_cmpuint (n_states, ==, 0);
            continue;
          }
        workers++;
        g_assert_cmpuint (n_states, ==, 1);
        g_assert_cmpstr (cpel_spans_get_name (spans, st[0].name), ==, "lcore ready");
        g_assert_cmpuint (st[0].flags, ==, CPEL_SPAN_STATE | CPEL_SPAN_NO_END);
        g_assert_cmpint (cpel_spans_end_ns (spans, slot, &st[0]), ==, 38263850);
      }
    g_assert_cmpuint (workers, ==, 2);
  }
}

static void
test_lttng_session (void)
{
  g_autofree char *dir = fixture_dir ("lttng-ust-2.13-pid");
  g_autoptr(CpelFile) file = open_path (dir);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 257);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 4);
  g_assert_cmpstr (cpel_file_get_source_value (file, "lost-events"), ==, "411");
  g_autofree char *track = NULL, *name = NULL, *datum = NULL;
  gint64 ns;
  first_event (file, &track, &name, &datum, &ns);
  g_assert_cmpstr (track, ==, "reqworker-1 [20999]");
  g_assert_cmpstr (name, ==, "fixture_app:request_begin");
  g_assert_cmpstr (datum, ==, "id = 1000, resource = \"beta/gamma\", method = ( \"OTHER\" : container = 2 )");
}

/* A trace's metadata file or one of its stream files opens the trace. */
static void
test_file_inside (void)
{
  g_autofree char *dir = fixture_dir ("lttng-ust-2.13-pid/ust/pid/fixture_app-20994-20261126-091809");
  static const char *const inside[] = { "metadata", "ch0_1" };
  for (guint i = 0; i < G_N_ELEMENTS (inside); i++)
    {
      g_autofree char *path = g_build_filename (dir, inside[i], NULL);
      g_autoptr(CpelFile) file = open_path (path);
      g_assert_cmpuint (cpel_file_get_n_events (file), ==, 190);
      g_assert_cmpstr (cpel_file_get_source_value (file, "lost-events"), ==, "411");
    }
}

static void
test_kernel (void)
{
  g_autofree char *dir = fixture_dir ("public/lttng-tracefile-rotation");
  g_autoptr(CpelFile) file = open_path (dir);
  /* the trace's events, and the scheduling marks on the threads' and
   * CPUs' tracks (doc/spans.md): a switch-in and -out per switch but the
   * idle task's, a `next` per switch, one per wake-up */
  guint64 marks = 0;
  for (guint t = 0; t < cpel_file_get_n_types (file); t++)
    if (g_str_has_prefix (cpel_file_get_type_name (file, t), "sched_")
        && strstr (cpel_file_get_type_name (file, t), ": ") != NULL)
      marks += cpel_file_get_type_n_events (file, t);
  g_assert_cmpuint (cpel_file_get_n_events (file) - marks, ==, 12305);
  g_assert_cmpuint (marks, >, 4687 + 2378 * 2);
  /* 4 CPUs, 180 threads (labelled in natural order) */
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 4 + 180);
  guint cpus = 0;
  for (guint i = 0; i < cpel_file_get_n_tracks (file); i++)
    {
      g_autofree char *want = g_strdup_printf ("CPU %u", cpus);
      cpus += strcmp (cpel_file_get_track_label (file, i), want) == 0;
    }
  g_assert_cmpuint (cpus, ==, 4);
  guint type;
  g_assert_true (cpel_file_lookup_type (file, 0, &type));
  guint64 switches = 0;
  for (guint t = 0; t < cpel_file_get_n_types (file); t++)
    if (strcmp (cpel_file_get_type_name (file, t), "sched_switch") == 0)
      switches = cpel_file_get_type_n_events (file, t);
  g_assert_cmpuint (switches, ==, 4687);
}

static void
test_not_a_trace (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("cpel-ctf-none-XXXXXX", &error);
  g_assert_no_error (error);
  g_autoptr(CpelFile) file = cpel_file_new_for_path (tmp, NULL, NULL, NULL, NULL, &error);
  g_assert_null (file);
  g_assert_nonnull (error);
  g_rmdir (tmp);
}

/* A CTF trace is a folder: its size (cpel info, File Information) is the
 * bytes of its files, sub-folders included, not 0; a symbolic link is not
 * followed (one to a file outside, one back up to the trace). */
static void
test_size (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("cpel-ctf-size-XXXXXX", &error);
  g_autofree char *trace = g_build_filename (tmp, "trace", NULL);
  g_autofree char *extra = g_build_filename (trace, "extra", NULL);
  g_autofree char *outside = g_build_filename (tmp, "outside", NULL);
  g_autofree char *notes = g_build_filename (extra, "notes.txt", NULL);
  g_autofree char *link_out = g_build_filename (extra, "outside", NULL);
  g_autofree char *link_up = g_build_filename (extra, "up", NULL);
  g_autofree char *metadata = g_build_filename (trace, "metadata", NULL);
  g_autofree char *big = g_malloc0 (50000);
  guint64 expected;

  g_assert_no_error (error);
  cpel_test_ctf_write (trace, 100);     /* two streams of one 64 KiB packet */
  g_assert_cmpint (g_mkdir (extra, 0755), ==, 0);
  g_assert_true (g_file_set_contents (notes, "0123456789", 10, NULL));
  g_assert_true (g_file_set_contents (outside, big, 50000, NULL));
  g_assert_cmpint (symlink (outside, link_out), ==, 0);
  g_assert_cmpint (symlink (trace, link_up), ==, 0);
  expected = strlen (cpel_test_ctf_metadata) + 2 * CPEL_TEST_CTF_PACKET + 10;

  /* the folder, and its metadata file (which opens it) */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(CpelFile) file = open_path (i == 0 ? trace : metadata);

      g_assert_cmpuint (cpel_file_get_n_events (file), ==, 100);
      g_assert_cmpuint (cpel_file_get_source_size (file), ==, expected);
    }

  g_unlink (link_up);
  g_unlink (link_out);
  g_unlink (notes);
  g_rmdir (extra);
  for (guint cpu = 0; cpu < 2; cpu++)
    {
      g_autofree char *stream = g_strdup_printf ("%s/stream_%u", trace, cpu);
      g_unlink (stream);
    }
  g_unlink (metadata);
  g_rmdir (trace);
  g_unlink (outside);
  g_rmdir (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/ctf-file/dpdk", test_dpdk);
  g_test_add_func ("/core/import/ctf-file/lttng-session", test_lttng_session);
  g_test_add_func ("/core/import/ctf-file/file-inside", test_file_inside);
  g_test_add_func ("/core/import/ctf-file/kernel", test_kernel);
  g_test_add_func ("/core/import/ctf-file/not-a-trace", test_not_a_trace);
  g_test_add_func ("/core/import/ctf-file/size", test_size);
  return g_test_run ();
}
