/* SPDX-License-Identifier: Apache-2.0 */
/* test-perf-data.c — the perf.data reader against perf script's text of the
 * fixtures (count, event names, tids, CPUs, times to the ns, tracepoint
 * fields), and hostile variants of them. */
#define _GNU_SOURCE
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-perf-data.h"
#include "cpel-test-util.h"
#include "cpel-perf-writer.h"
#include "perf-script-util.h"

#include <zstd.h>

typedef CpelPerfScriptLine Line;
#define line_free cpel_perf_script_line_free

static gint
line_cmp (gconstpointer a, gconstpointer b)
{
  const Line *x = *(const Line * const *) a, *y = *(const Line * const *) b;
  if (x->time_ns != y->time_ns)
    return x->time_ns < y->time_ns ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  return strcmp (x->event, y->event);
}

typedef struct
{
  CpelPerfData *pd;
  GPtrArray    *lines;
  GHashTable   *comms;     /* tid -> comm */
  guint64       n_comm, n_fork, n_exit, lost;
} Collect;

static gboolean
collect (const CpelPerfRecord *r, gpointer data, GError **error)
{
  Collect *c = data;
  if (r->type == CPEL_PERF_RECORD_COMM)
    {
      c->n_comm++;
      g_hash_table_insert (c->comms, GUINT_TO_POINTER (r->tid), g_strdup (r->comm));
    }
  else if (r->type == CPEL_PERF_RECORD_FORK)
    c->n_fork++;
  else if (r->type == CPEL_PERF_RECORD_EXIT)
    c->n_exit++;
  else if (r->type == CPEL_PERF_RECORD_LOST)
    c->lost += r->lost;
  else if (r->type == CPEL_PERF_RECORD_SAMPLE)
    {
      Line *l = g_new0 (Line, 1);
      g_assert_true (r->has_time && r->has_tid);
      l->tid = r->tid;
      l->cpu = r->has_cpu ? (gint) r->cpu : -1;
      l->time_ns = r->time;
      l->event = g_strdup (cpel_perf_data_get_attr_name (c->pd, r->attr));
      if (cpel_perf_data_attr_is_tracepoint (c->pd, r->attr))
        {
          g_autoptr(GString) s = g_string_new (NULL);
          gint64 num;
          if (!cpel_perf_data_format_tracepoint (c->pd, r->attr, r->raw, r->raw_size, s, &num, error))
            {
              line_free (l);
              return FALSE;
            }
          l->text = g_string_free (g_steal_pointer (&s), FALSE);
        }
      g_ptr_array_add (c->lines, l);
    }
  return TRUE;
}

static CpelPerfData *
load (const char *path, GError **error)
{
  g_autoptr(GMappedFile) mf = g_mapped_file_new (path, FALSE, error);
  if (mf == NULL)
    return NULL;
  g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (mf);
  return cpel_perf_data_new (bytes, error);
}

/* Compares the reader's samples with perf script's lines: exact times from
 * `fields_path` (ns), tracepoint text and CPUs from `text_path`. */
static void
compare_with_script (const char *path, const char *fields_path, const char *text_path,
                     guint expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfData) pd = load (path, &error);
  g_assert_no_error (error);

  Collect c = { pd, g_ptr_array_new_with_free_func (line_free),
                g_hash_table_new_full (NULL, NULL, NULL, g_free), 0, 0, 0, 0 };
  g_assert_true (cpel_perf_data_read_records (pd, collect, &c, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  g_autoptr(GPtrArray) ref = cpel_perf_script_parse (fields_path);
  g_autoptr(GPtrArray) ref_text = cpel_perf_script_parse (text_path);
  if (expected != G_MAXUINT)
    g_assert_cmpuint (c.lines->len, ==, expected);
  else
    g_assert_cmpuint (c.lines->len, >, 0);
  g_assert_cmpuint (ref->len, ==, c.lines->len);
  g_assert_cmpuint (ref_text->len, ==, c.lines->len);
  g_ptr_array_sort (c.lines, line_cmp);
  g_ptr_array_sort (ref, line_cmp);
  g_ptr_array_sort (ref_text, line_cmp);
  for (guint i = 0; i < c.lines->len; i++)
    {
      Line *a = c.lines->pdata[i], *b = ref->pdata[i], *t = ref_text->pdata[i];
      g_assert_cmpuint (a->time_ns, ==, b->time_ns);
      g_assert_cmpuint (a->tid, ==, b->tid);
      /* the fields file has no CPU where perf refuses `-F cpu` for some events */
      g_assert_cmpint (a->cpu, ==, t->cpu);
      if (b->cpu >= 0)
        g_assert_cmpint (a->cpu, ==, b->cpu);
      g_assert_cmpstr (a->event, ==, b->event);
      /* the µs text: same order, same fields */
      g_assert_cmpuint (a->time_ns / 1000, ==, t->time_ns / 1000);
      g_assert_cmpstr (a->event, ==, t->event);
      if (a->text != NULL)
        g_assert_cmpstr (a->text, ==, t->text);
    }
  g_ptr_array_unref (c.lines);
  g_hash_table_unref (c.comms);
}

static void
compare_fixture (const char *name, guint expected)
{
  g_autofree char *rel = g_strdup_printf ("perf/%s.perf.data", name);
  g_autofree char *path = cpel_test_fixture_file (rel);
  gsize stem = strlen (path) - strlen (".perf.data");
  g_autofree char *fields_path = g_strdup_printf ("%.*s.perf-script-fields.txt", (int) stem, path);
  g_autofree char *text_path = g_strdup_printf ("%.*s.perf-script.txt", (int) stem, path);
  compare_with_script (path, fields_path, text_path, expected);
}

/* Records a new file with this machine's perf and compares with its perf
 * script (skipped where perf is missing or may not record). */
static void
test_live (gconstpointer data)
{
  const char *events = data;
  g_autofree char *perf = g_find_program_in_path ("perf");
  if (perf == NULL)
    {
      g_test_skip ("perf (Debian linux-perf) is not installed: skipping");
      return;
    }
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-perf-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *out = g_build_filename (dir, "live.perf.data", NULL);
  g_autofree char *script = g_build_filename (dir, "live.txt", NULL);
  g_autofree char *cmd = g_strdup_printf ("%s record -q -o %s %s -- sh -c 'ls / >/dev/null; sleep 0.01' "
                                          ">/dev/null 2>&1", perf, out, events);
  int status = 0;
  g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL);
  if (!g_spawn_check_wait_status (status, NULL) || !g_file_test (out, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("perf record is not permitted here (not root, perf_event_paranoid): skipping");
    }
  else
    {
      g_autofree char *cmd2 = g_strdup_printf ("sh -c '%s script -i %s --ns > %s 2>/dev/null'", perf, out, script);
      g_spawn_command_line_sync (cmd2, NULL, NULL, &status, &error);
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      compare_with_script (out, script, script, G_MAXUINT);
    }
  g_unlink (script);
  g_unlink (out);
  g_autofree char *old = g_strconcat (out, ".old", NULL);
  g_unlink (old);
  g_rmdir (dir);
}

static void
test_sched_wakeup (void)
{
  compare_fixture ("sched-wakeup", 147);
}

static void
test_gzip_callgraph (void)
{
  compare_fixture ("gzip-callgraph", 53);
}

static void
test_zstd_mono (void)
{
  compare_fixture ("zstd-mono", 38);
}

static void
test_header (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/zstd-mono.perf.data");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfData) pd = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_perf_data_get_n_attrs (pd), ==, 4);
  g_assert_cmpstr (cpel_perf_data_get_attr_name (pd, 0), ==, "cpu-clock");
  g_assert_cmpstr (cpel_perf_data_get_attr_name (pd, 1), ==, "sched:sched_process_fork");
  g_assert_cmpstr (cpel_perf_data_get_hostname (pd), ==, "vm");
  g_assert_cmpstr (cpel_perf_data_get_perf_version (pd), ==, "6.1.187");
  g_assert_cmpuint (cpel_perf_data_get_nr_cpus (pd), ==, 2);
  g_assert_true (g_str_has_prefix (cpel_perf_data_get_cmdline (pd),
                                   "/usr/bin/perf record -o zstd-mono.perf.data -z -k mono"));
  g_assert_true (cpel_perf_data_is_compressed (pd));
  g_assert_cmpint (cpel_perf_data_get_clockid (pd), ==, 1);
  gint clockid;
  guint64 tod, clk;
  g_assert_true (cpel_perf_data_get_clock_data (pd, &clockid, &tod, &clk));
  g_assert_cmpint (clockid, ==, 1);
  /* perf report: 1795684584.781727 (TOD) = 2606.566748520 (monotonic) */
  g_assert_cmpuint (tod / 1000, ==, G_GUINT64_CONSTANT (1795684584781727));
  g_assert_cmpuint (clk, ==, G_GUINT64_CONSTANT (2606566748520));
}

/* ---- hostile input --------------------------------------------------------- */

static gboolean
count_samples (const CpelPerfRecord *r, gpointer data, GError **error)
{
  if (r->type == CPEL_PERF_RECORD_SAMPLE)
    (*(guint64 *) data)++;
  return TRUE;
}

/* Parses and reads everything; returns the error (or NULL) */
static GError *
try_bytes (GBytes *bytes, guint64 *n_samples)
{
  GError *error = NULL;
  guint64 n = 0;
  g_autoptr(CpelPerfData) pd = cpel_perf_data_new (bytes, &error);
  if (pd != NULL)
    cpel_perf_data_read_records (pd, count_samples, &n, NULL, NULL, NULL, &error);
  if (n_samples)
    *n_samples = n;
  return error;
}

static void
test_synthetic (void)
{
  guint64 st = CPEL_TEST_PERF_IP | CPEL_TEST_PERF_TID | CPEL_TEST_PERF_TIME | CPEL_TEST_PERF_PERIOD;
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  cpel_test_perf_comm (rec, 10, 11, "worker");
  for (guint i = 0; i < 100; i++)
    cpel_test_perf_sample (rec, st, 1, 0xffffffff81000000 + i, 10, 11, 1000 + i, 0);
  g_autoptr(GBytes) b = cpel_test_perf_file (&st, 1, 144, rec->data, rec->len);
  guint64 n;
  g_autoptr(GError) error = try_bytes (b, &n);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 100);
}

static void
expect_error (GBytes *b, const char *fragment)
{
  g_autoptr(GError) error = try_bytes (b, NULL);
  g_assert_nonnull (error);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not say “%s”", error->message, fragment);
}

static void
test_attr_size (void)
{
  guint64 st = CPEL_TEST_PERF_IP | CPEL_TEST_PERF_TID | CPEL_TEST_PERF_TIME;
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  cpel_test_perf_sample (rec, st, 1, 1, 2, 3, 4, 0);
  g_autoptr(GBytes) zero = cpel_test_perf_file (&st, 1, 0, rec->data, rec->len);
  expect_error (zero, "attr_size 0");
  g_autoptr(GBytes) huge = cpel_test_perf_file (&st, 1, G_GUINT64_CONSTANT (1) << 40, rec->data, rec->len);
  expect_error (huge, "attr_size");
  /* smaller than the attr says it is */
  g_autoptr(GBytes) small = cpel_test_perf_file (&st, 1, 100, rec->data, rec->len);
  expect_error (small, NULL);
}

static void
test_sample_overrun (void)
{
  /* the attr promises fields the records do not hold */
  guint64 st_short = CPEL_TEST_PERF_IP;
  guint64 st = CPEL_TEST_PERF_IP | CPEL_TEST_PERF_TID | CPEL_TEST_PERF_TIME | CPEL_TEST_PERF_CPU;
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  cpel_test_perf_sample (rec, st_short, 1, 1, 2, 3, 4, 0);
  g_autoptr(GBytes) b = cpel_test_perf_file (&st, 1, 144, rec->data, rec->len);
  expect_error (b, "offset");
  /* a record header whose size runs past the data section */
  g_autoptr(GByteArray) rec2 = g_byte_array_new ();
  cpel_test_perf_hdr (rec2, 9, 0, 4000);
  cpel_test_perf_u64 (rec2, 1);
  g_autoptr(GBytes) b2 = cpel_test_perf_file (&st, 1, 144, rec2->data, rec2->len);
  expect_error (b2, "runs past");
  /* size smaller than its own header */
  g_autoptr(GByteArray) rec3 = g_byte_array_new ();
  cpel_test_perf_hdr (rec3, 9, 0, 4);
  cpel_test_perf_u32 (rec3, 0);
  g_autoptr(GBytes) b3 = cpel_test_perf_file (&st, 1, 144, rec3->data, rec3->len);
  expect_error (b3, "less than its header");
  /* two attrs, a sample naming an id no attr lists */
  guint64 sts[2] = { st | CPEL_TEST_PERF_IDENT, st | CPEL_TEST_PERF_IDENT };
  g_autoptr(GByteArray) rec4 = g_byte_array_new ();
  cpel_test_perf_sample (rec4, sts[0], 77, 1, 2, 3, 4, 0);
  g_autoptr(GBytes) b4 = cpel_test_perf_file (sts, 2, 144, rec4->data, rec4->len);
  expect_error (b4, "id 77");
}

static void
test_not_supported (void)
{
  static const char *const cases[][2] = {
    { "PERFILE2\x10\0\0\0\0\0\0\0", "without an attr record" },
    { "2ELIFREP\0\0\0\0\0\0\0\x68", "other byte order" },
    { "PERFFILE\0\0\0\0\0\0\0\0", "version 1" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint8 buf[104] = { 0 };
      memcpy (buf, cases[i][0], 16);
      g_autoptr(GBytes) b = g_bytes_new (buf, sizeof buf);
      expect_error (b, cases[i][1]);
    }
}

static GBytes *
fixture_bytes (const char *name)
{
  g_autofree char *rel = g_strdup_printf ("perf/%s.perf.data", name);
  g_autofree char *path = cpel_test_fixture_file (rel);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

/* Every prefix of the header region and a sample of later ones: an error or
 * fewer samples, never a crash (the ASan build runs this too). */
static void
test_truncations (void)
{
  static const char *const names[] = { "sched-wakeup", "gzip-callgraph", "zstd-mono" };
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(GBytes) all = fixture_bytes (names[k]);
      gsize len = g_bytes_get_size (all);
      for (gsize cut = 0; cut < len; cut += cut < 1024 ? 1 : 61)
        {
          /* copied so that ASan sees reads past the end */
          g_autoptr(GBytes) part = g_bytes_new (g_bytes_get_data (all, NULL), cut);
          guint64 n = 0;
          g_autoptr(GError) error = try_bytes (part, &n);
          g_assert_true (error != NULL || n <= 147);
        }
    }
}

/* A tracepoint format naming offsets past the record: an error, not a read. */
static void
test_tracepoint_offsets (void)
{
  g_autoptr(GBytes) all = fixture_bytes ("sched-wakeup");
  gsize len;
  const guint8 *d = g_bytes_get_data (all, &len);
  g_autofree guint8 *copy = g_memdup2 (d, len);
  const char *needle = "pid_t next_pid;\toffset:56;";
  guint8 *hit = memmem (copy, len, needle, strlen (needle));
  g_assert_nonnull (hit);
  memcpy (hit + strlen ("pid_t next_pid;\toffset:"), "99", 2);
  g_autoptr(GBytes) b = g_bytes_new (copy, len);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfData) pd = cpel_perf_data_new (b, &error);
  g_assert_no_error (error);
  Collect c = { pd, g_ptr_array_new_with_free_func (line_free),
                g_hash_table_new_full (NULL, NULL, NULL, g_free), 0, 0, 0, 0 };
  g_assert_false (cpel_perf_data_read_records (pd, collect, &c, NULL, NULL, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
  g_assert_nonnull (strstr (error->message, "next_pid"));
  g_ptr_array_unref (c.lines);
  g_hash_table_unref (c.comms);
}

/* Format texts of other shapes never reach libtraceevent (its parser
 * dereferences NULL on some: found by fuzzing): a field renamed under the
 * print format, a damaged "print fmt:" line, a field line cut in two. */
static void
test_format_text (void)
{
  g_autoptr(GBytes) all = fixture_bytes ("sched-wakeup");
  static const char *const damage[][2] = {
    { "long prev_state;", "long krev_state;" },
    { "print fmt: \"prev_comm", "print fm#: \"prev_comm" },
    { "char next_comm[16];", "char next_comm[\n6];" },
    { "REC->next_prio", "REC->next_pri)" },
  };
  for (guint k = 0; k < G_N_ELEMENTS (damage); k++)
    {
      gsize len;
      const guint8 *d = g_bytes_get_data (all, &len);
      g_autofree guint8 *copy = g_memdup2 (d, len);
      guint8 *hit = memmem (copy, len, damage[k][0], strlen (damage[k][0]));
      g_assert_nonnull (hit);
      g_assert_cmpuint (strlen (damage[k][0]), ==, strlen (damage[k][1]));
      memcpy (hit, damage[k][1], strlen (damage[k][1]));
      g_autoptr(GBytes) b = g_bytes_new (copy, len);
      g_autoptr(GError) error = try_bytes (b, NULL);
      g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
      g_assert_nonnull (strstr (error->message, "cannot be parsed"));
    }
}

/* Print formats libtraceevent's parser would crash on (a NULL it follows,
 * constants it folds) or whose expressions it would evaluate unguarded
 * (a field as divisor — SIGFPE on prev_prio=0, found by fuzzing —, a field
 * as array index, a width of megabytes, %n) are printed field by field:
 * every record imports, sched_switch shows its raw fields, and sched_wakeup,
 * whose format is sound, still prints as perf script prints it. */
static void
test_print_fmt_expressions (void)
{
  g_autoptr(GBytes) all = fixture_bytes ("sched-wakeup");
  static const struct { const char *from, *to; gboolean pretty; } damage[] = {
    /* the fuzzer's: "R / C->prev_comm", folded while libtraceevent parses */
    { "REC->prev_comm, REC->prev_pid", "R/C->prev_comm, REC->prev_pid", FALSE },
    { "REC->prev_pid, REC->prev_prio", "R%C->prev_pid, REC->prev_prio", FALSE },
    /* a NULL that libtraceevent's parser follows */
    { "__print_flags(REC->prev_state", "__print_flags(REC->0rev_state", FALSE },
    { "REC->next_comm, REC->next_pid", "REC->next_comm, RXC->next_pid", FALSE },
    { "__print_flags(REC->prev_state", "__print_flagz(REC->prev_state", FALSE },
    { "REC->prev_pid, REC->prev_prio", "REC->prev_pid% REC->prev_prio", FALSE },
    { "REC->prev_pid, REC->prev_prio", "REC->prev_pid/ REC->prev_prio", FALSE },
    { "REC->prev_comm, REC->prev_pid", "REC->prev_comm[REC->prev_pid]", FALSE },
    { "%s%s ==>", "%9999s=>", FALSE },
    { "next_pid=%d", "next_pid=%n", FALSE },
    /* a constant divisor is sound: still printed through the format */
    { "<< 1) - 1)) ?", "<< 1) / 1)) ?", TRUE },
  };
  for (guint k = 0; k < G_N_ELEMENTS (damage); k++)
    {
      gsize len;
      const guint8 *d = g_bytes_get_data (all, &len);
      g_autofree guint8 *copy = g_memdup2 (d, len);
      guint8 *hit = memmem (copy, len, damage[k].from, strlen (damage[k].from));
      g_assert_nonnull (hit);
      g_assert_cmpuint (strlen (damage[k].from), ==, strlen (damage[k].to));
      memcpy (hit, damage[k].to, strlen (damage[k].to));
      g_test_message ("%s", damage[k].to);
      g_autoptr(GBytes) b = g_bytes_new (copy, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelPerfData) pd = cpel_perf_data_new (b, &error);
      g_assert_no_error (error);
      Collect c = { pd, g_ptr_array_new_with_free_func (line_free),
                    g_hash_table_new_full (NULL, NULL, NULL, g_free), 0, 0, 0, 0 };
      g_assert_true (cpel_perf_data_read_records (pd, collect, &c, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      guint n_switch = 0, n_wakeup = 0, n_zero_prio = 0;
      for (guint i = 0; i < c.lines->len; i++)
        {
          Line *l = g_ptr_array_index (c.lines, i);
          if (g_strcmp0 (l->event, "sched:sched_switch") == 0)
            {
              n_switch++;
              /* raw fields: prev_state as a number, no "==>" */
              g_assert_true (g_str_has_prefix (l->text, "prev_comm="));
              g_assert_nonnull (strstr (l->text, "prev_prio="));
              if (damage[k].pretty)
                g_assert_nonnull (strstr (l->text, " ==> "));
              else
                g_assert_null (strstr (l->text, "==>"));
              if (strstr (l->text, "prev_prio=0 ") != NULL)
                n_zero_prio++;
            }
          else if (g_strcmp0 (l->event, "sched:sched_wakeup") == 0)
            {
              n_wakeup++;
              g_assert_true (g_str_has_prefix (l->text, "comm="));
              g_assert_nonnull (strstr (l->text, " target_cpu="));
            }
        }
      g_assert_cmpuint (n_switch, >, 0);
      g_assert_cmpuint (n_wakeup, >, 0);
      g_assert_cmpuint (n_zero_prio, >, 0);   /* the divisor that was zero */
      g_ptr_array_unref (c.lines);
      g_hash_table_unref (c.comms);
    }
}

/* COMPRESSED records that inflate past the limit (64 MiB for a small file). */
static void
test_zstd_bomb (void)
{
  gsize big = 80 << 20;
  g_autofree guint8 *zeros = g_malloc0 (big);
  gsize bound = ZSTD_compressBound (big);
  g_autofree guint8 *z = g_malloc (bound);
  gsize zlen = ZSTD_compress (z, bound, zeros, big, 19);
  g_assert_false (ZSTD_isError (zlen));
  g_assert_cmpuint (zlen, <, 60000);
  guint64 st = CPEL_TEST_PERF_IP;
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  cpel_test_perf_hdr (rec, 81, 0, (guint16) (8 + zlen));
  g_byte_array_append (rec, z, (guint) zlen);
  g_autoptr(GBytes) b = cpel_test_perf_file (&st, 1, 144, rec->data, rec->len);
  g_autoptr(GError) error = try_bytes (b, NULL);
  g_assert_nonnull (error);
  /* zeros are records of size 0: refused before the limit, or the limit */
  g_assert_true (g_error_matches (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE)
                 || g_error_matches (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED));

  /* records of 8 bytes of an unknown type, inflating forever */
  g_autoptr(GByteArray) filler = g_byte_array_sized_new (big);
  while (filler->len < big)
    cpel_test_perf_hdr (filler, 200, 0, 8);
  zlen = ZSTD_compress (z, bound, filler->data, filler->len, 19);
  g_assert_false (ZSTD_isError (zlen));
  g_autoptr(GByteArray) rec2 = g_byte_array_new ();
  cpel_test_perf_hdr (rec2, 81, 0, (guint16) (8 + zlen));
  g_byte_array_append (rec2, z, (guint) zlen);
  g_autoptr(GBytes) b2 = cpel_test_perf_file (&st, 1, 144, rec2->data, rec2->len);
  g_autoptr(GError) error2 = try_bytes (b2, NULL);
  g_assert_error (error2, CPEL_ERROR, CPEL_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error2->message, "inflate"));

  /* garbage instead of a zstd frame */
  g_autoptr(GByteArray) rec3 = g_byte_array_new ();
  cpel_test_perf_hdr (rec3, 81, 0, 8 + 16);
  cpel_test_perf_u64 (rec3, 0x1234);
  cpel_test_perf_u64 (rec3, 0x5678);
  g_autoptr(GBytes) b3 = cpel_test_perf_file (&st, 1, 144, rec3->data, rec3->len);
  expect_error (b3, "does not inflate");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/perf/sched-wakeup", test_sched_wakeup);
  g_test_add_func ("/core/import/perf/gzip-callgraph", test_gzip_callgraph);
  g_test_add_func ("/core/import/perf/zstd-mono", test_zstd_mono);
  g_test_add_func ("/core/import/perf/header", test_header);
  g_test_add_func ("/core/import/perf/synthetic", test_synthetic);
  g_test_add_func ("/core/import/perf/hostile/attr-size", test_attr_size);
  g_test_add_func ("/core/import/perf/hostile/sample-overrun", test_sample_overrun);
  g_test_add_func ("/core/import/perf/hostile/not-supported", test_not_supported);
  g_test_add_func ("/core/import/perf/hostile/truncations", test_truncations);
  g_test_add_func ("/core/import/perf/hostile/tracepoint-offsets", test_tracepoint_offsets);
  g_test_add_func ("/core/import/perf/hostile/zstd-bomb", test_zstd_bomb);
  g_test_add_func ("/core/import/perf/hostile/format-text", test_format_text);
  g_test_add_func ("/core/import/perf/hostile/print-fmt-expressions", test_print_fmt_expressions);
  g_test_add_data_func ("/core/import/perf/live/sched", "-a -e sched:sched_switch -e sched:sched_wakeup", test_live);
  g_test_add_data_func ("/core/import/perf/live/zstd-clock", "-z -k mono -F 999 -e cpu-clock -e sched:sched_process_exec", test_live);
  return g_test_run ();
}
