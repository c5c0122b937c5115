/* SPDX-License-Identifier: Apache-2.0 */
/* test-labels.c — which fields make an event's label (cpel-labels.h): the
 * fields read from texts, the defaults per format on the real fixtures
 * (perf samples, sched_switch from perf.data and from CTF, LTTng's tracef
 * on a trace written here with LTTng-UST's declaration), the user's
 * formats. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-labels.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

static char *
field (const CpelLabelField *fields,
       guint                 n,
       const char           *name)
{
  for (guint i = 0; i < n; i++)
    if (fields[i].name_len == strlen (name)
        && memcmp (fields[i].name, name, fields[i].name_len) == 0)
      return g_strndup (fields[i].value, fields[i].value_len);
  return NULL;
}

#define CHECK_FIELD(fields, n, name, want) \
  G_STMT_START { \
    g_autofree char *got_ = field (fields, n, name); \
    g_assert_cmpstr (got_, ==, want); \
  } G_STMT_END

static void
test_fields_perf_tracepoint (void)
{
  const char *t = "prev_comm=Web Content prev_pid=18880 prev_prio=120 prev_state=D ==> "
                  "next_comm=migration/0 next_pid=18 next_prio=0";
  CpelLabelField f[CPEL_LABELS_MAX_FIELDS];
  guint n = cpel_label_fields_parse (t, strlen (t), FALSE, f, G_N_ELEMENTS (f));

  g_assert_cmpuint (n, ==, 7);
  CHECK_FIELD (f, n, "prev_comm", "Web Content");
  CHECK_FIELD (f, n, "prev_state", "D");
  CHECK_FIELD (f, n, "next_comm", "migration/0");
  CHECK_FIELD (f, n, "next_prio", "0");
}

static void
test_fields_ctf (void)
{
  const char *t = "id = 2001, resource = \"al=pha, x = 1\", method = ( \"GET\" : container = 0 ), "
                  "depths = [ [0] = 1, [1] = 2 ], msg = \"a \\\" b\"";
  CpelLabelField f[CPEL_LABELS_MAX_FIELDS];
  guint n = cpel_label_fields_parse (t, strlen (t), FALSE, f, G_N_ELEMENTS (f));

  g_assert_cmpuint (n, ==, 5);
  CHECK_FIELD (f, n, "id", "2001");
  CHECK_FIELD (f, n, "resource", "al=pha, x = 1");
  CHECK_FIELD (f, n, "method", "( \"GET\" : container = 0 )");
  CHECK_FIELD (f, n, "depths", "[ [0] = 1, [1] = 2 ]");
  CHECK_FIELD (f, n, "msg", "a \\\" b");
  g_assert_null (field (f, n, "container"));
}

static void
test_fields_perf_sample (void)
{
  const char *t = "19013/19014 7f72fcec60c0 foo(int, char) const+0x3 (/usr/lib/libx (deleted).so)";
  const char *bare = "12/12 ffffffff8225fd19";
  CpelLabelField f[CPEL_LABELS_MAX_FIELDS];
  guint n = cpel_label_fields_parse (t, strlen (t), TRUE, f, G_N_ELEMENTS (f));

  g_assert_cmpuint (n, ==, 5);
  CHECK_FIELD (f, n, "pid", "19013");
  CHECK_FIELD (f, n, "tid", "19014");
  CHECK_FIELD (f, n, "ip", "7f72fcec60c0");
  CHECK_FIELD (f, n, "symbol", "foo(int, char) const+0x3");
  CHECK_FIELD (f, n, "dso", "/usr/lib/libx (deleted).so");
  n = cpel_label_fields_parse (bare, strlen (bare), TRUE, f, G_N_ELEMENTS (f));
  g_assert_cmpuint (n, ==, 3);
  CHECK_FIELD (f, n, "ip", "ffffffff8225fd19");
  /* not a perf sample: no sample fields */
  n = cpel_label_fields_parse (t, strlen (t), FALSE, f, G_N_ELEMENTS (f));
  g_assert_cmpuint (n, ==, 0);
}

/* Any bytes: fields within the text, values within it, no more than asked. */
static void
test_fields_random (void)
{
  static const char alphabet[] = "ab_=\" ,()[]{}/0123456789ef>\\";
  GRand *rand = g_rand_new_with_seed (20261202);
  char text[300];

  for (guint round = 0; round < 20000; round++)
    {
      CpelLabelField f[8];
      gsize len = (gsize) g_rand_int_range (rand, 0, sizeof text);
      guint n;

      for (gsize i = 0; i < len; i++)
        text[i] = round % 2 ? alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]
                            : (char) g_rand_int_range (rand, 1, 256);
      n = cpel_label_fields_parse (text, len, round % 3 == 0, f, G_N_ELEMENTS (f));
      g_assert_cmpuint (n, <=, G_N_ELEMENTS (f));
      for (guint k = 0; k < n; k++)
        {
          g_assert_true (f[k].name >= text && f[k].name + f[k].name_len <= text + len);
          g_assert_true (f[k].value >= text && f[k].value + f[k].value_len <= text + len);
        }
    }
  g_rand_free (rand);
}

static CpelFile *
open_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return file;
}

static CpelFile *
open_fixture (const char *rel)
{
  g_autofree char *path = cpel_test_fixture_file (rel);

  return open_path (path);
}

static gboolean
type_named (CpelFile   *file,
            const char *name,
            guint      *type)
{
  for (guint i = 0; i < cpel_file_get_n_types (file); i++)
    if (g_strcmp0 (cpel_file_get_type_name (file, i), name) == 0)
      {
        *type = i;
        return TRUE;
      }
  return FALSE;
}

/* The labels of the first `max` events of type `name`, in file order of
 * tracks, a line each. */
static char *
labels_of (CpelLabels *labels,
           const char *name,
           guint       max)
{
  CpelFile *file = cpel_labels_get_file (labels);
  GString *out = g_string_new (NULL);
  guint type = 0, n = 0;

  g_assert_true (type_named (file, name, &type));
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file) && n < max; slot++)
    for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot) && n < max; i++)
      {
        CpelEvent ev;

        cpel_file_get_track_event (file, slot, i, &ev);
        if (ev.type != type)
          continue;
        cpel_labels_append (labels, &ev, out);
        g_string_append_c (out, '\n');
        n++;
      }
  return g_string_free (out, FALSE);
}

static void
test_perf_sample_symbol_first (void)
{
  g_autoptr(CpelFile) file = open_fixture ("perf/gzip-callgraph.perf.data");
  g_autoptr(CpelLabels) labels = cpel_labels_new (file);
  g_autofree char *text = labels_of (labels, "cpu-clock:ppp", 1000);
  guint type = 0;

  g_assert_true (type_named (file, "cpu-clock:ppp", &type));
  g_assert_cmpstr (cpel_labels_get_default_format (labels, type), ==, "{symbol} ({dso})");
  g_assert_cmpstr (cpel_labels_get_format (labels, type), ==, "{symbol} ({dso})");
  g_assert_false (cpel_labels_is_user_format (labels, type));
  g_assert_true (g_strv_contains (cpel_labels_get_fields (labels, type), "symbol"));
  g_assert_true (g_strv_contains (cpel_labels_get_fields (labels, type), "pid"));
  /* as perf script prints a sample's symbol and DSO, first */
  g_assert_true (g_str_has_prefix (text, "[unknown] ([kernel.kallsyms])\n"));
  g_assert_nonnull (strstr (text, "\ndo_lookup_x+0x360 "
                            "(/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n"));
  g_assert_nonnull (strstr (text, "\n[unknown] (/usr/bin/gzip)\n"));
  g_assert_null (strstr (text, "cpu-clock"));
}

static void
check_sched_switch (CpelFile *file)
{
  g_autoptr(CpelLabels) labels = cpel_labels_new (file);
  g_autofree char *text = labels_of (labels, "sched:sched_switch", 3);
  g_autofree char *derived = labels_of (labels, "sched_switch: next", 1);

  g_assert_cmpstr (text, ==,
                   "perf [18880] → migration/0 [18]\n"
                   "migration/0 [18] → swapper/0 [0]\n"
                   "swapper/0 [0] → rcu_preempt [15]\n");
  /* the viewer's own switch events keep their whole label */
  g_assert_cmpstr (derived, ==, "sched_switch: next: migration/0 [18]\n");
}

static void
test_sched_switch_perf (void)
{
  g_autoptr(CpelFile) file = open_fixture ("perf/sched-wakeup.perf.data");

  check_sched_switch (file);
}

static void
test_sched_switch_ctf (void)
{
  g_autofree char *dir = cpel_test_fixture_dir ("ctf/perf-ctf-sched-wakeup");
  g_autoptr(CpelFile) file = open_path (dir);

  check_sched_switch (file);
}

/* LTTng's kernel tracer: tids */
static void
test_sched_switch_lttng (void)
{
  g_autofree char *dir = cpel_test_fixture_dir ("ctf/public/lttng-tracefile-rotation");
  g_autoptr(CpelFile) file = open_path (dir);
  g_autoptr(CpelLabels) labels = cpel_labels_new (file);
  g_autofree char *text = labels_of (labels, "sched_switch", 1);

  g_assert_cmpstr (text, ==, "swapper/0 [0] → rcu_sched [8]\n");
}

/* LTTng-UST 2.13's declaration of tracef()'s event (lttng/tracef.h,
 * ust-tracepoint-event.h): a UTF-8 char sequence `_msg`, its length
 * `__msg_length`, shown by babeltrace2 without their first '_'. */
static const char tracef_metadata[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "trace { major = 1; minor = 8; byte_order = le;\n"
  "  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };\n"
  "env { domain = \"ust\"; tracer_name = \"lttng-ust\"; procname = \"app\"; vpid = 42; };\n"
  "clock { name = monotonic; freq = 1000000000; offset = 0; };\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; }"
  " := clock_u64;\n"
  "stream { id = 0;\n"
  "  packet.context := struct { clock_u64 timestamp_begin; clock_u64 timestamp_end;\n"
  "    uint64_t content_size; uint64_t packet_size; uint32_t cpu_id; };\n"
  "  event.header := struct { uint32_t id; clock_u64 timestamp; }; };\n"
  "event { name = \"lttng_ust_tracef:event\"; id = 0; stream_id = 0; loglevel = 14;\n"
  "  fields := struct {\n"
  "    integer { size = 32; align = 8; signed = 0; encoding = none; base = 10; }"
  " __msg_length;\n"
  "    integer { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; }"
  " _msg[ __msg_length ];\n"
  "  }; };\n";

static void
write_tracef_trace (const char        *dir,
                    const char *const *messages)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autofree char *meta = g_build_filename (dir, "metadata", NULL);
  g_autofree char *stream = g_build_filename (dir, "channel0_0", NULL);
  guint64 t = 1000, size = 44;
  guint n = g_strv_length ((char **) messages);
  guint32 u32;
  guint64 u64;

  for (guint i = 0; i < n; i++)
    size += 16 + strlen (messages[i]);
#define PUT32(v) (u32 = (v), g_byte_array_append (a, (const guint8 *) &u32, 4))
#define PUT64(v) (u64 = (v), g_byte_array_append (a, (const guint8 *) &u64, 8))
  PUT32 (0xC1FC1FC1);
  PUT32 (0);
  PUT64 (t);
  PUT64 (t + (n - 1) * 100);
  PUT64 (size * 8);
  PUT64 (size * 8);
  PUT32 (0);
  for (guint i = 0; i < n; i++, t += 100)
    {
      PUT32 (0);
      PUT64 (t);
      PUT32 ((guint32) strlen (messages[i]));
      g_byte_array_append (a, (const guint8 *) messages[i], (guint) strlen (messages[i]));
    }
#undef PUT32
#undef PUT64
  g_assert_cmpuint (a->len, ==, size);
  g_assert_true (g_file_set_contents (meta, tracef_metadata, -1, NULL));
  g_assert_true (g_file_set_contents (stream, (const char *) a->data, a->len, NULL));
}

static void
test_tracef_message (void)
{
  static const char *const messages[] = {
    "worker 3 took the lock after 17 retries", "queue drained", NULL
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-labels-tracef-XXXXXX", &error);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelLabels) labels = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GString) whole = g_string_new (NULL);
  CpelEvent ev;

  g_assert_no_error (error);
  write_tracef_trace (dir, messages);
  file = open_path (dir);
  labels = cpel_labels_new (file);
  text = labels_of (labels, "lttng_ust_tracef:event", 10);
  g_assert_cmpstr (text, ==, "worker 3 took the lock after 17 retries\nqueue drained\n");
  /* the whole label, as babeltrace2 prints the payload */
  cpel_file_get_track_event (file, 0, 1, &ev);
  cpel_file_append_label (file, &ev, whole);
  g_assert_cmpstr (whole->str, ==,
                   "lttng_ust_tracef:event: _msg_length = 13, msg = \"queue drained\"");

  g_clear_object (&file);
  g_clear_pointer (&labels, cpel_labels_unref);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *f = g_build_filename (dir, i ? "metadata" : "channel0_0", NULL);
      g_unlink (f);
    }
  g_rmdir (dir);
}

static void
test_user_formats (void)
{
  g_autoptr(CpelFile) file = open_fixture ("perf/sched-wakeup.perf.data");
  g_autoptr(CpelLabels) defaults = cpel_labels_new (file);
  g_autoptr(CpelLabels) mine = NULL;
  g_autoptr(CpelLabels) back = NULL;
  g_autoptr(CpelLabels) again = NULL;
  g_auto(GStrv) saved = NULL;
  g_autofree char *text = NULL;
  guint sw = 0, wk = 0;

  g_assert_true (type_named (file, "sched:sched_switch", &sw));
  g_assert_true (type_named (file, "sched:sched_wakeup", &wk));
  g_assert_cmpstr (cpel_labels_get_default_format (defaults, wk), ==, "");

  mine = cpel_labels_new_with_format (defaults, sw, "{next_comm} ← {prev_comm} {event}");
  g_assert_true (cpel_labels_is_user_format (mine, sw));
  text = labels_of (mine, "sched:sched_switch", 1);
  g_assert_cmpstr (text, ==, "migration/0 ← perf sched:sched_switch\n");
  g_clear_pointer (&text, g_free);

  /* a field that is not there: the whole label */
  g_clear_pointer (&mine, cpel_labels_unref);
  mine = cpel_labels_new_with_format (defaults, wk, "{comm} → {no_such_field}");
  text = labels_of (mine, "sched:sched_wakeup", 1);
  g_assert_cmpstr (text, ==,
                   "sched:sched_wakeup: comm=migration/0 pid=18 prio=0 target_cpu=000\n");
  g_clear_pointer (&text, g_free);

  /* "": the whole label, even where a default would apply */
  g_clear_pointer (&mine, cpel_labels_unref);
  mine = cpel_labels_new_with_format (defaults, sw, "");
  g_clear_pointer (&back, cpel_labels_unref);
  back = cpel_labels_new_with_format (mine, wk, "{comm}");
  text = labels_of (back, "sched:sched_switch", 1);
  g_assert_true (g_str_has_prefix (text, "sched:sched_switch: prev_comm=perf "));
  g_clear_pointer (&text, g_free);
  text = labels_of (back, "sched:sched_wakeup", 1);
  g_assert_cmpstr (text, ==, "migration/0\n");
  g_clear_pointer (&text, g_free);

  /* saved and read back */
  saved = cpel_labels_dup_user_formats (back);
  g_assert_cmpuint (g_strv_length (saved), ==, 4);
  g_assert_cmpstr (saved[0], ==, "sched:sched_switch");
  g_assert_cmpstr (saved[1], ==, "");
  g_assert_cmpstr (saved[2], ==, "sched:sched_wakeup");
  g_assert_cmpstr (saved[3], ==, "{comm}");
  again = cpel_labels_new_with_formats (defaults, (const char *const *) saved);
  g_assert_cmpstr (cpel_labels_get_format (again, sw), ==, "");
  g_assert_cmpstr (cpel_labels_get_format (again, wk), ==, "{comm}");

  /* NULL: back to the default */
  g_clear_pointer (&mine, cpel_labels_unref);
  mine = cpel_labels_new_with_format (again, sw, NULL);
  g_assert_false (cpel_labels_is_user_format (mine, sw));
  text = labels_of (mine, "sched:sched_switch", 1);
  g_assert_cmpstr (text, ==, "perf [18880] → migration/0 [18]\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/labels/fields/perf-tracepoint", test_fields_perf_tracepoint);
  g_test_add_func ("/core/labels/fields/ctf", test_fields_ctf);
  g_test_add_func ("/core/labels/fields/perf-sample", test_fields_perf_sample);
  g_test_add_func ("/core/labels/fields/random", test_fields_random);
#if HAVE_PERF
  g_test_add_func ("/core/labels/default/perf-sample", test_perf_sample_symbol_first);
  g_test_add_func ("/core/labels/default/sched-switch-perf", test_sched_switch_perf);
  g_test_add_func ("/core/labels/user", test_user_formats);
#endif
#if HAVE_CTF
  g_test_add_func ("/core/labels/default/sched-switch-ctf", test_sched_switch_ctf);
  g_test_add_func ("/core/labels/default/tracef", test_tracef_message);
  g_test_add_func ("/core/labels/default/sched-switch-lttng", test_sched_switch_lttng);
#endif
  return g_test_run ();
}
