/* SPDX-License-Identifier: Apache-2.0 */
/* test-ctf-trace.c — the CTF reader (libbabeltrace2) against babeltrace2's
 * text of every fixture: same count, order, event names, times to the ns
 * and payload text; tracks; discarded events; broken traces. */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-ctf-trace.h"
#include "cpel-test-util.h"

typedef struct
{
  guint64  ns;        /* ns from origin, or time of day in ns (UTC) */
  char    *name;
  char    *payload;   /* inside of the last { … } group */
} RefLine;

static void
ref_free (gpointer p)
{
  RefLine *r = p;
  g_free (r->name);
  g_free (r->payload);
  g_free (r);
}

/* The top-level `{ … }` groups of the rest of a line, the last one's inside. */
static char *
last_group (const char *s)
{
  int depth = 0;
  gboolean quoted = FALSE;
  const char *start = NULL, *last_start = NULL, *last_end = NULL;
  for (const char *p = s; *p; p++)
    {
      if (quoted)
        {
          if (*p == '\\' && p[1])
            p++;
          else if (*p == '"')
            quoted = FALSE;
          continue;
        }
      if (*p == '"')
        quoted = TRUE;
      else if (*p == '{' || *p == '[' || *p == '(')
        {
          if (depth++ == 0 && *p == '{')
            start = p;
        }
      else if (*p == '}' || *p == ']' || *p == ')')
        {
          if (--depth == 0 && *p == '}' && start)
            {
              last_start = start;
              last_end = p;
              start = NULL;
            }
        }
    }
  g_assert_nonnull (last_start);
  /* "{ a = 1 }" -> "a = 1"; "{ }" -> "" */
  const char *a = last_start + 1, *b = last_end;
  while (a < b && *a == ' ')
    a++;
  while (b > a && b[-1] == ' ')
    b--;
  return g_strndup (a, b - a);
}

/* The text of a reference file; one ending in .gz (the kernel trace's,
 * 2 MB as text) is gunzipped. */
static char *
read_ref (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  if (!g_str_has_suffix (path, ".gz"))
    return g_steal_pointer (&data);

  g_autoptr(GInputStream) raw = g_memory_input_stream_new_from_data (data, len, NULL);
  g_autoptr(GZlibDecompressor) gz = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) in = g_converter_input_stream_new (raw, G_CONVERTER (gz));
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  g_autoptr(GBytes) bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  gsize n = g_bytes_get_size (bytes);
  char *text = g_malloc (n + 1);
  memcpy (text, g_bytes_get_data (bytes, NULL), n);
  text[n] = '\0';
  return text;
}

static GPtrArray *
parse_ref (const char *path, gboolean seconds)
{
  g_autofree char *text = read_ref (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) re = g_regex_new (seconds ? "^\\[(\\d+)\\.(\\d{9})\\] (.*?)(\\S+): \\{(.*)$"
                                              : "^\\[(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{9})\\] \\(\\+[^)]*\\) (.*?)(\\S+): \\{(.*)$",
                                      0, 0, &error);
  g_assert_no_error (error);
  GPtrArray *out = g_ptr_array_new_with_free_func (ref_free);
  g_auto(GStrv) rows = g_strsplit (text, "\n", -1);
  for (guint i = 0; rows[i]; i++)
    {
      if (rows[i][0] == 0)
        continue;
      g_autoptr(GMatchInfo) m = NULL;
      if (!g_regex_match (re, rows[i], 0, &m))
        g_error ("unparsed reference line %u: %s", i + 1, rows[i]);
      RefLine *r = g_new0 (RefLine, 1);
      int k = 1;
      if (seconds)
        {
          g_autofree char *sec = g_match_info_fetch (m, k++);
          g_autofree char *ns = g_match_info_fetch (m, k++);
          r->ns = g_ascii_strtoull (sec, NULL, 10) * 1000000000 + g_ascii_strtoull (ns, NULL, 10);
        }
      else
        {
          g_autofree char *h = g_match_info_fetch (m, k++);
          g_autofree char *mi = g_match_info_fetch (m, k++);
          g_autofree char *s = g_match_info_fetch (m, k++);
          g_autofree char *ns = g_match_info_fetch (m, k++);
          r->ns = ((g_ascii_strtoull (h, NULL, 10) * 60 + g_ascii_strtoull (mi, NULL, 10)) * 60
                   + g_ascii_strtoull (s, NULL, 10)) * G_GUINT64_CONSTANT (1000000000)
                  + g_ascii_strtoull (ns, NULL, 10);
        }
      k++;   /* trace prefix */
      r->name = g_match_info_fetch (m, k++);
      g_autofree char *rest = g_match_info_fetch (m, k++);
      g_autofree char *line = g_strconcat ("{", rest, NULL);
      r->payload = last_group (line);
      g_ptr_array_add (out, r);
    }
  return out;
}

static CpelCtfTrace *
read_fixture (const char *rel, char **path_out)
{
  g_autofree char *dir = cpel_test_fixture_dir (rel);
  g_autoptr(GError) error = NULL;
  CpelCtfTrace *t = cpel_ctf_trace_read (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  if (path_out)
    *path_out = g_steal_pointer (&dir);
  return t;
}

static void compare_ref (CpelCtfTrace *t, GPtrArray *ref, gboolean seconds, guint expected);

/* `sched_switch: in` / `out` / `next`, `sched_waking: woken`, … */
static gboolean
is_sched_mark (const char *name)
{
  return g_str_has_prefix (name, "sched_") && strstr (name, ": ") != NULL;
}

static void
compare (CpelCtfTrace *t, const char *ref_rel, gboolean seconds, guint expected)
{
  g_autofree char *ref_path = cpel_test_fixture_file (ref_rel);
  g_autoptr(GPtrArray) ref = parse_ref (ref_path, seconds);
  compare_ref (t, ref, seconds, expected);
}

static void
compare_ref (CpelCtfTrace *t, GPtrArray *ref, gboolean seconds, guint expected)
{
  g_assert_cmpuint (ref->len, ==, expected);
  /* the trace's events, without the scheduling marks the reader adds on
   * the threads' and CPUs' tracks (`sched_switch: in`, …: doc/spans.md) */
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CpelCtfEvent));
  const CpelCtfEvent *all = cpel_ctf_trace_get_events (t);
  for (guint64 i = 0; i < cpel_ctf_trace_get_n_events (t); i++)
    if (!is_sched_mark (cpel_ctf_trace_get_class_name (t, all[i].cls)))
      g_array_append_val (events, all[i]);
  g_assert_cmpuint (events->len, ==, expected);
  const CpelCtfEvent *ev = (const CpelCtfEvent *) events->data;
  for (guint i = 0; i < expected; i++)
    {
      RefLine *r = ref->pdata[i];
      guint64 ns = (guint64) ev[i].ns;
      if (!seconds)
        ns %= G_GUINT64_CONSTANT (86400000000000);
      g_assert_cmpuint (ns, ==, r->ns);
      g_assert_cmpstr (cpel_ctf_trace_get_class_name (t, ev[i].cls), ==, r->name);
      g_autofree char *text = g_strndup (cpel_ctf_trace_get_text (t, &ev[i]), ev[i].text_len);
      g_assert_cmpstr (text, ==, r->payload);
    }
}

/* The tracks: `labels`, plus `n_threads` tracks `comm [tid]` of the
 * threads a kernel trace's scheduling events name. */
static void
assert_tracks_threads (CpelCtfTrace *t, const char * const *labels, guint n_threads)
{
  g_autoptr(GPtrArray) got = g_ptr_array_new ();
  g_autoptr(GRegex) thread = g_regex_new ("^.* \\[[1-9][0-9]*\\]$", 0, 0, NULL);
  guint threads = 0;
  for (guint i = 0; i < cpel_ctf_trace_get_n_tracks (t); i++)
    {
      const char *label = cpel_ctf_trace_get_track_label (t, i);
      if (n_threads > 0 && g_regex_match (thread, label, 0, NULL))
        threads++;
      else
        g_ptr_array_add (got, (gpointer) label);
    }
  g_assert_cmpuint (threads, ==, n_threads);
  g_assert_cmpuint (got->len, ==, g_strv_length ((char **) labels));
  for (guint i = 0; labels[i]; i++)
    {
      gboolean found = FALSE;
      for (guint k = 0; k < got->len; k++)
        found |= strcmp (got->pdata[k], labels[i]) == 0;
      if (!found)
        g_error ("track %s missing", labels[i]);
    }
}

static void
assert_tracks (CpelCtfTrace *t, const char * const *labels)
{
  assert_tracks_threads (t, labels, 0);
}

static void
test_dpdk (void)
{
  g_autoptr(CpelCtfTrace) t = read_fixture ("ctf/dpdk-22.11-lcores", NULL);
  compare (t, "ctf/dpdk-22.11-lcores.babeltrace2-clock-seconds.txt", TRUE, 171);
  compare (t, "ctf/dpdk-22.11-lcores.babeltrace2.txt", FALSE, 171);
  static const char * const labels[] = { "eal-intr-thread", "fixture-main lcore 3", "rte-worker-7 lcore 7",
                                         "rte-worker-5 lcore 5", "stats-collector", "housekeeper lcore 0", NULL };
  assert_tracks (t, labels);
  g_assert_cmpuint (cpel_ctf_trace_get_discarded_events (t), ==, 0);
  g_assert_cmpstr (cpel_ctf_trace_get_clock_name (t), ==, "dpdk");
  g_assert_cmpuint (cpel_ctf_trace_get_clock_frequency (t), ==, 2100000000);
  /* the numeric datum is the first integer field: burst's port */
  const CpelCtfEvent *ev = cpel_ctf_trace_get_events (t);
  for (guint i = 0; i < cpel_ctf_trace_get_n_events (t); i++)
    if (strcmp (cpel_ctf_trace_get_class_name (t, ev[i].cls), "lib.eal.thread.lcore.ready") == 0)
      {
        g_autofree char *text = g_strndup (cpel_ctf_trace_get_text (t, &ev[i]), ev[i].text_len);
        g_autofree char *want = g_strdup_printf ("lcore_id = 0x%X, ", ev[i].datum);
        g_assert_true (g_str_has_prefix (text, want));
      }
}

static void
test_lttng_ust (void)
{
  g_autoptr(CpelCtfTrace) t = read_fixture ("ctf/lttng-ust-2.13-pid", NULL);
  compare (t, "ctf/lttng-ust-2.13-pid.babeltrace2-clock-seconds.txt", TRUE, 257);
  compare (t, "ctf/lttng-ust-2.13-pid.babeltrace2.txt", FALSE, 257);
  g_assert_cmpuint (cpel_ctf_trace_get_trace_dirs (t)->len, ==, 2);
  g_assert_cmpuint (cpel_ctf_trace_get_discarded_events (t), ==, 411);
  g_assert_cmpuint (cpel_ctf_trace_get_notes (t)->len, ==, 1);
  g_assert_cmpstr (cpel_ctf_trace_get_notes (t)->pdata[0], ==,
                   "fixture_app-20994-20261126-091809/ch0_0: 411 events discarded");
  g_assert_true (cpel_ctf_trace_get_clock_is_unix_epoch (t));
  static const char * const labels[] = { "fixture_app [20993]", "reqworker-1 [20999]", "reqworker-2 [21000]",
                                         "fixture_app [20994]", NULL };
  assert_tracks (t, labels);
}

static void
test_perf_ctf (void)
{
  g_autoptr(CpelCtfTrace) t = read_fixture ("ctf/perf-ctf-sched-wakeup", NULL);
  compare (t, "ctf/perf-ctf-sched-wakeup.babeltrace2.txt", FALSE, 147);
  static const char * const labels[] = { "CPU 0", "CPU 1", NULL };
  assert_tracks_threads (t, labels, 24);
}

static void
test_kernel_rotation (void)
{
  g_autoptr(CpelCtfTrace) t = read_fixture ("ctf/public/lttng-tracefile-rotation", NULL);
  compare (t, "ctf/public/lttng-tracefile-rotation.babeltrace2.txt.gz", FALSE, 12305);
  static const char * const labels[] = { "CPU 0", "CPU 1", "CPU 2", "CPU 3", NULL };
  assert_tracks_threads (t, labels, 180);
}

static void
test_heartbeat (void)
{
  g_autoptr(CpelCtfTrace) t = read_fixture ("ctf/public/wk-heartbeat-u", NULL);
  compare (t, "ctf/public/wk-heartbeat-u.babeltrace2.txt", FALSE, 20);
  /* no procname context: the trace environment's procname and the vtid */
  static const char * const labels[] = { "wk-heartbeat [3214]", "wk-heartbeat [3215]", NULL };
  assert_tracks (t, labels);
}

/* A metadata file or a stream file opens its whole trace. */
static void
test_open_file_inside (void)
{
  g_autofree char *dir = cpel_test_fixture_dir ("ctf/dpdk-22.11-lcores");
  const char *inside[] = { "metadata", "channel0_3" };
  for (guint i = 0; i < G_N_ELEMENTS (inside); i++)
    {
      g_autofree char *p = g_build_filename (dir, inside[i], NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelCtfTrace) t = cpel_ctf_trace_read (p, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_ctf_trace_get_n_events (t), ==, 171);
      g_autofree char *head = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (p, &head, &len, NULL));
      g_assert_true (cpel_ctf_sniff ((const guint8 *) head, len));
    }
  g_assert_true (cpel_ctf_path_is_trace (dir));
  /* the session root of the LTTng fixture holds two traces */
  g_autofree char *session = cpel_test_fixture_dir ("ctf/lttng-ust-2.13-pid");
  g_autoptr(GPtrArray) dirs = cpel_ctf_find_trace_dirs (session, NULL);
  g_assert_nonnull (dirs);
  g_assert_cmpuint (dirs->len, ==, 2);
}

static void
copy_dir (const char *from, const char *to)
{
  g_autoptr(GDir) d = g_dir_open (from, 0, NULL);
  g_assert_nonnull (d);
  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *src = g_build_filename (from, name, NULL);
      g_autofree char *dst = g_build_filename (to, name, NULL);
      if (g_file_test (src, G_FILE_TEST_IS_DIR))
        continue;
      g_autofree char *data = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (src, &data, &len, NULL));
      g_assert_true (g_file_set_contents (dst, data, len, NULL));
    }
}

static void
rm_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

/* Broken metadata, a truncated stream, an empty folder: a clear error. */
static void
test_broken (void)
{
  g_autofree char *src = cpel_test_fixture_dir ("ctf/dpdk-22.11-lcores");
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("cpel-ctf-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *trace = g_build_filename (tmp, "trace", NULL);
  g_autofree char *meta = g_build_filename (trace, "metadata", NULL);

  /* metadata cut in the middle of a declaration, then garbage */
  static const char *const damage[] = { "cut", "garbage", "empty" };
  for (guint k = 0; k < G_N_ELEMENTS (damage); k++)
    {
      copy_dir (src, trace);
      g_autofree char *text = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (meta, &text, &len, NULL));
      if (k == 0)
        g_assert_true (g_file_set_contents (meta, text, len / 2, NULL));
      else if (k == 1)
        g_assert_true (g_file_set_contents (meta, "/* CTF 1.8 */\ntrace { major = 1; minor = 8; ; ; }}}{{\n", -1, NULL));
      else
        g_assert_true (g_file_set_contents (meta, "", 0, NULL));
      g_autoptr(CpelCtfTrace) t = cpel_ctf_trace_read (trace, NULL, NULL, NULL, &error);
      g_assert_null (t);
      g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
      g_assert_nonnull (strstr (error->message, "trace"));
      g_clear_error (&error);
      rm_dir (trace);
    }

  /* a stream file cut short: babeltrace2 reports it, no crash */
  copy_dir (src, trace);
  g_autofree char *stream = g_build_filename (trace, "channel0_1", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (stream, &data, &len, NULL));
  g_assert_true (g_file_set_contents (stream, data, len - 13, NULL));
  {
    g_autoptr(CpelCtfTrace) t = cpel_ctf_trace_read (trace, NULL, NULL, NULL, &error);
    /* either an error or fewer events, never garbage */
    if (t == NULL)
      g_assert_nonnull (error);
    else
      g_assert_cmpuint (cpel_ctf_trace_get_n_events (t), <, 171);
    g_clear_error (&error);
  }
  rm_dir (trace);

  /* no trace at all */
  {
    g_autoptr(CpelCtfTrace) t = cpel_ctf_trace_read (tmp, NULL, NULL, NULL, &error);
    g_assert_null (t);
    g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
    g_clear_error (&error);
  }
  g_rmdir (tmp);
}

static void
count_progress (double fraction, gpointer data)
{
  double *last = data;
  g_assert_cmpfloat (fraction, >=, *last);
  *last = fraction;
}

static void
test_cancel_and_progress (void)
{
  g_autofree char *dir = cpel_test_fixture_dir ("ctf/public/lttng-tracefile-rotation");
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) c = g_cancellable_new ();
  g_cancellable_cancel (c);
  g_autoptr(CpelCtfTrace) t = cpel_ctf_trace_read (dir, c, NULL, NULL, &error);
  g_assert_null (t);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  double last = 0;
  g_autoptr(CpelCtfTrace) t2 = cpel_ctf_trace_read (dir, NULL, count_progress, &last, &error);
  g_assert_no_error (error);
  guint64 n_trace = 0;
  const CpelCtfEvent *evs2 = cpel_ctf_trace_get_events (t2);
  for (guint64 i = 0; i < cpel_ctf_trace_get_n_events (t2); i++)
    n_trace += !is_sched_mark (cpel_ctf_trace_get_class_name (t2, evs2[i].cls));
  g_assert_cmpuint (n_trace, ==, 12305);
  g_assert_cmpfloat (last, ==, 1.0);
}

/* babeltrace2 itself (the CLI, Debian babeltrace2) on every fixture: exact ns. */
static void
test_cli (gconstpointer data)
{
  const char *rel = data;
  g_autofree char *bt = g_find_program_in_path ("babeltrace2");
  if (bt == NULL)
    {
      g_test_skip ("babeltrace2 (Debian babeltrace2) is not installed: skipping");
      return;
    }
  g_autofree char *dir = NULL;
  g_autoptr(CpelCtfTrace) t = read_fixture (rel, &dir);
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("cpel-bt-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *out = g_build_filename (tmp, "out.txt", NULL);
  const char *argv[] = { bt, "--clock-gmt", "--clock-seconds", "--no-delta", dir, NULL };
  g_autofree char *stdout_text = NULL;
  int status;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &stdout_text, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_set_contents (out, stdout_text, -1, NULL));
  g_autoptr(GPtrArray) ref = parse_ref (out, TRUE);
  compare_ref (t, ref, TRUE, ref->len);
  g_unlink (out);
  g_rmdir (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/ctf/dpdk", test_dpdk);
  g_test_add_func ("/core/import/ctf/lttng-ust", test_lttng_ust);
  g_test_add_func ("/core/import/ctf/perf-ctf", test_perf_ctf);
  g_test_add_func ("/core/import/ctf/kernel-rotation", test_kernel_rotation);
  g_test_add_func ("/core/import/ctf/heartbeat", test_heartbeat);
  g_test_add_func ("/core/import/ctf/open-file-inside", test_open_file_inside);
  g_test_add_func ("/core/import/ctf/broken", test_broken);
  g_test_add_func ("/core/import/ctf/cancel-progress", test_cancel_and_progress);
  static const char *const all[] = { "dpdk-22.11-lcores", "lttng-ust-2.13-pid", "perf-ctf-sched-wakeup",
                                     "public/lttng-tracefile-rotation", "public/wk-heartbeat-u" };
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      g_autofree char *name = g_strdup_printf ("/core/import/ctf/babeltrace2-cli/%s", all[i]);
      g_test_add_data_func_full (name, g_strdup_printf ("ctf/%s", all[i]), test_cli, g_free);
    }
  return g_test_run ();
}
