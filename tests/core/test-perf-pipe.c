/* SPDX-License-Identifier: Apache-2.0 */
/* test-perf-pipe.c — pipe-mode perf.data (perf record -o - > file): the
 * fixtures written again in pipe mode read exactly as their file-mode
 * originals; a live pipe-mode recording against perf script's text and a
 * file-mode recording of the same command; damaged pipe streams. */
#define _GNU_SOURCE
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-perf-data.h"
#include "cpel-test-util.h"
#include "cpel-perf-pipe-writer.h"
#include "perf-script-util.h"

/* Everything the reader reports, one line per record (offsets aside),
 * after the header information and the attrs' names. */
static gboolean
dump_record (const CpelPerfRecord *r, gpointer data, GError **error)
{
  CpelPerfData *pd = ((gpointer *) data)[0];
  GString *s = ((gpointer *) data)[1];
  g_string_append_printf (s, "%u %u %s t=%d:%" G_GUINT64_FORMAT " cpu=%d:%u tid=%d:%u/%u",
                          r->type, r->misc, cpel_perf_data_get_attr_name (pd, r->attr),
                          r->has_time, r->time, r->has_cpu, r->cpu, r->has_tid, r->pid, r->tid);
  g_string_append_printf (s, " ip=%" G_GUINT64_FORMAT " lost=%" G_GUINT64_FORMAT " cc=%"
                          G_GUINT64_FORMAT, r->ip, r->lost, r->callchain_nr);
  if (r->comm != NULL)
    g_string_append_printf (s, " comm=%s", r->comm);
  if (r->filename != NULL)
    g_string_append_printf (s, " file=%s", r->filename);
  if (r->type == CPEL_PERF_RECORD_SAMPLE && cpel_perf_data_attr_is_tracepoint (pd, r->attr))
    {
      g_string_append_c (s, ' ');
      if (!cpel_perf_data_format_tracepoint (pd, r->attr, r->raw, r->raw_size, s, NULL, error))
        return FALSE;
    }
  g_string_append_c (s, '\n');
  return TRUE;
}

static char *
dump (GBytes *bytes, guint *n_records, GError **error)
{
  g_autoptr(CpelPerfData) pd = cpel_perf_data_new (bytes, error);
  if (pd == NULL)
    return NULL;
  g_autoptr(GString) s = g_string_new (NULL);
  g_string_append_printf (s, "host=%s os=%s version=%s cmdline=%s cpus=%u clockid=%d zstd=%d\n",
                          cpel_perf_data_get_hostname (pd), cpel_perf_data_get_os_release (pd),
                          cpel_perf_data_get_perf_version (pd), cpel_perf_data_get_cmdline (pd),
                          cpel_perf_data_get_nr_cpus (pd), cpel_perf_data_get_clockid (pd),
                          cpel_perf_data_is_compressed (pd));
  gint clockid = 0;
  guint64 tod = 0, clk = 0;
  if (cpel_perf_data_get_clock_data (pd, &clockid, &tod, &clk))
    g_string_append_printf (s, "clock data %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
                            clockid, tod, clk);
  for (guint i = 0; i < cpel_perf_data_get_n_build_ids (pd); i++)
    {
      const CpelPerfBuildId *b = cpel_perf_data_get_build_id (pd, i);
      g_autofree char *hex = g_malloc0 (2 * b->build_id_size + 1);
      for (guint k = 0; k < b->build_id_size; k++)
        g_snprintf (hex + 2 * k, 3, "%02x", b->build_id[k]);
      g_string_append_printf (s, "build id %u %u %s %s\n", b->pid, b->misc, hex, b->filename);
    }
  for (guint i = 0; i < cpel_perf_data_get_n_attrs (pd); i++)
    g_string_append_printf (s, "attr %u %s type %u config %" G_GUINT64_FORMAT
                            " sample_type 0x%" G_GINT64_MODIFIER "x tp %d\n",
                            i, cpel_perf_data_get_attr_name (pd, i),
                            cpel_perf_data_get_attr_type (pd, i),
                            cpel_perf_data_get_attr_config (pd, i),
                            cpel_perf_data_get_attr_sample_type (pd, i),
                            cpel_perf_data_attr_is_tracepoint (pd, i));
  gsize header_len = s->len;
  gpointer ctx[2] = { pd, s };
  if (!cpel_perf_data_read_records (pd, dump_record, ctx, NULL, NULL, NULL, error))
    return NULL;
  if (n_records != NULL)
    {
      *n_records = 0;
      for (gsize i = header_len; i < s->len; i++)
        if (s->str[i] == '\n')
          (*n_records)++;
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static GBytes *
read_bytes (const char *path)
{
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

/* The attrs' names of a file-mode file, for EVENT_UPDATE records. */
static GStrv
attr_names (GBytes *file)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfData) pd = cpel_perf_data_new (file, &error);
  g_assert_no_error (error);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  for (guint i = 0; i < cpel_perf_data_get_n_attrs (pd); i++)
    g_strv_builder_add (b, cpel_perf_data_get_attr_name (pd, i));
  return g_strv_builder_end (b);
}

static GBytes *
pipe_of_fixture (const char *name, GBytes **file_out)
{
  g_autofree char *rel = g_strdup_printf ("perf/%s.perf.data", name);
  g_autofree char *path = cpel_test_fixture_file (rel);
  g_autoptr(GBytes) file = read_bytes (path);
  g_auto(GStrv) names = attr_names (file);
  GBytes *pipe = cpel_test_perf_to_pipe (file, (const char *const *) names);
  if (file_out != NULL)
    *file_out = g_bytes_ref (file);
  return pipe;
}

/* Each fixture (tracepoints with TRACING_DATA; call chains and build ids;
 * zstd-compressed records with CLOCK_DATA) written again in pipe mode:
 * the same header information, attrs, names and every record. */
static void
test_fixtures (void)
{
  static const char *const names[] = { "sched-wakeup", "gzip-callgraph", "zstd-mono" };
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(GBytes) file = NULL;
      g_autoptr(GBytes) pipe = pipe_of_fixture (names[k], &file);
      g_autoptr(GError) error = NULL;
      guint n_file = 0, n_pipe = 0;
      g_autofree char *a = dump (file, &n_file, &error);
      g_assert_no_error (error);
      g_autofree char *b = dump (pipe, &n_pipe, &error);
      g_assert_no_error (error);
      g_test_message ("%s: %u records", names[k], n_pipe);
      g_assert_cmpuint (n_file, >, 30);
      g_assert_cmpuint (n_pipe, ==, n_file);
      g_assert_cmpstr (b, ==, a);
    }
}

static GError *
try_bytes (GBytes *bytes, guint *n)
{
  GError *error = NULL;
  g_autofree char *s = dump (bytes, n, &error);
  return error;
}

/* Every prefix of the pipe stream's header records and a sample of later
 * ones: an error or fewer records, never a crash (copied so that ASan sees
 * reads past the end). */
static void
test_truncations (void)
{
  g_autoptr(GBytes) all = pipe_of_fixture ("sched-wakeup", NULL);
  guint n_all = 0;
  g_autoptr(GError) whole = try_bytes (all, &n_all);
  g_assert_no_error (whole);
  gsize len = g_bytes_get_size (all);
  guint n_ok = 0;
  for (gsize cut = 0; cut < len; cut += cut < 9000 ? 1 : 37)
    {
      g_autoptr(GBytes) part = g_bytes_new (g_bytes_get_data (all, NULL), cut);
      guint n = 0;
      g_autoptr(GError) error = try_bytes (part, &n);
      g_assert_true (error != NULL || n <= n_all);
      if (error == NULL)
        n_ok++;
    }
  /* cuts between records read as the records before them */
  g_assert_cmpuint (n_ok, >, 0);
}

static guint8 *
find_record (guint8 *d, gsize len, guint32 type)
{
  for (gsize pos = 16; pos + 8 <= len;)
    {
      guint32 t;
      guint16 size;
      memcpy (&t, d + pos, 4);
      memcpy (&size, d + pos + 6, 2);
      if (t == type)
        return d + pos;
      g_assert_cmpuint (size, >=, 8);
      pos += size;
      if (t == 66)
        {
          guint32 tsize;
          memcpy (&tsize, d + pos - size + 8, 4);
          pos += tsize;
        }
    }
  return NULL;
}

static void
expect_damage (GBytes *pipe, guint32 type, gsize at, const void *value, gsize n,
               const char *fragment)
{
  gsize len;
  const guint8 *d = g_bytes_get_data (pipe, &len);
  g_autofree guint8 *copy = g_memdup2 (d, len);
  guint8 *rec = find_record (copy, len, type);
  g_assert_nonnull (rec);
  memcpy (rec + at, value, n);
  g_autoptr(GBytes) b = g_bytes_new (copy, len);
  g_autoptr(GError) error = try_bytes (b, NULL);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not say “%s”", error->message, fragment);
}

/* Lengths in the header records that run past their record or the file. */
static void
test_hostile (void)
{
  g_autoptr(GBytes) pipe = pipe_of_fixture ("sched-wakeup", NULL);
  guint32 huge = 0x7fffffff, big = 4000;
  guint16 small = 9;
  /* the tracing text says it is longer than the file */
  expect_damage (pipe, 66, 8, &huge, 4, "runs past the end of the file");
  /* the tracing text's length off by a few bytes: the records after it are misread */
  guint32 tsize;
  gsize len;
  const guint8 *d = g_bytes_get_data (pipe, &len);
  g_autofree guint8 *copy = g_memdup2 (d, len);
  memcpy (&tsize, find_record (copy, len, 66) + 8, 4);
  guint32 off_by = tsize + 4;
  expect_damage (pipe, 66, 8, &off_by, 4, "offset");
  /* an attr bigger than its record */
  expect_damage (pipe, 64, 12, &big, 4, "more than its");
  /* the tracing record too short to hold its size */
  expect_damage (pipe, 66, 6, &small, 2, "offset");
  /* an attr record whose size runs past the file: no attr */
  g_autoptr(GByteArray) one = g_byte_array_new ();
  g_byte_array_append (one, d, 16);
  cpel_test_pipe_hdr (one, 64, 0, 0xfff0);
  g_byte_array_append (one, find_record (copy, len, 64) + 8, 128);
  g_autoptr(GBytes) b = g_bytes_new (one->data, one->len);
  g_autoptr(GError) error = try_bytes (b, NULL);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
  g_assert_nonnull (strstr (error->message, "without an attr record"));
}

/* The stream read in pieces of a few sizes, as `cpel dump --follow -` reads
 * it: the header records found once whole, then every record once, the
 * same as the whole file; and every cut of its header: more bytes wanted,
 * never a header that runs past what is there.  Compressed records
 * (perf record -z) are refused in a stream. */
static void
test_stream (void)
{
  g_autoptr(GBytes) pipe = pipe_of_fixture ("gzip-callgraph", NULL);
  g_autoptr(GBytes) pipe2 = pipe_of_fixture ("sched-wakeup", NULL);
  GBytes *all[] = { pipe, pipe2 };
  for (guint k = 0; k < G_N_ELEMENTS (all); k++)
    {
      gsize len;
      const guint8 *d = g_bytes_get_data (all[k], &len);
      gssize hl_all = cpel_perf_data_pipe_header_len (d, len, len);
      g_assert_cmpint (hl_all, >, 16);
      for (gsize cut = 0; cut < (gsize) hl_all; cut++)
        {
          g_autofree guint8 *part = g_memdup2 (d, cut);
          gssize hl = cpel_perf_data_pipe_header_len (part, cut, len);
          g_assert_true (hl == 0 || (cut < 8 && hl == -1));
        }
      g_assert_cmpint (cpel_perf_data_pipe_header_len (d, len, 100), ==, -1);
      static const gsize pieces[] = { 7, 61, 4096 };
      for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GString) got = g_string_new (NULL);
          g_autoptr(GByteArray) buf = g_byte_array_new ();
          g_autoptr(CpelPerfData) pd = NULL;
          guint64 off = 0;
          for (gsize pos = 0; pos < len; pos += pieces[i])
            {
              g_byte_array_append (buf, d + pos, (guint) MIN (pieces[i], len - pos));
              if (pd == NULL)
                {
                  gssize hl = cpel_perf_data_pipe_header_len (buf->data, buf->len, len);
                  g_assert_cmpint (hl, >=, 0);
                  if (hl == 0)
                    continue;
                  g_assert_cmpint (hl, ==, hl_all);
                  g_autoptr(GBytes) head = g_bytes_new (buf->data, (gsize) hl);
                  pd = cpel_perf_data_new (head, &error);
                  g_assert_no_error (error);
                  g_byte_array_remove_range (buf, 0, (guint) hl);
                  off = (guint64) hl;
                }
              gsize used = 0;
              gpointer ctx[2] = { pd, got };
              g_assert_true (cpel_perf_data_read_stream (pd, buf->data, buf->len, off,
                                                         dump_record, ctx, &used, &error));
              g_assert_no_error (error);
              g_byte_array_remove_range (buf, 0, (guint) used);
              off += used;
            }
          g_assert_cmpuint (buf->len, ==, 0);
          g_autofree char *whole = dump (all[k], NULL, &error);
          g_assert_no_error (error);
          /* the whole file's dump: its header lines, then the same records */
          g_assert_cmpuint (got->len, >, 0);
          g_assert_true (g_str_has_suffix (whole, got->str));
        }
    }

  g_autoptr(GBytes) z = pipe_of_fixture ("zstd-mono", NULL);
  gsize zlen;
  const guint8 *zd = g_bytes_get_data (z, &zlen);
  gssize hl = cpel_perf_data_pipe_header_len (zd, zlen, zlen);
  g_assert_cmpint (hl, >, 16);
  g_autoptr(GBytes) head = g_bytes_new (zd, (gsize) hl);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfData) pd = cpel_perf_data_new (head, &error);
  g_assert_no_error (error);
  g_autoptr(GString) got = g_string_new (NULL);
  gpointer ctx[2] = { pd, got };
  gsize used = 0;
  g_assert_false (cpel_perf_data_read_stream (pd, zd + hl, zlen - (gsize) hl, (guint64) hl,
                                              dump_record, ctx, &used, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED);
}

/* The attrs named in a header dump (its "attr" lines). */
static char *
attr_lines (const char *dump_text)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_auto(GStrv) lines = g_strsplit (dump_text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "attr ") || g_str_has_prefix (lines[i], "host="))
      {
        /* the command lines differ in the output file's name */
        char *cmd = strstr (lines[i], " cmdline=");
        char *cpus = strstr (lines[i], " cpus=");
        if (cmd != NULL && cpus != NULL)
          {
            g_string_append_len (s, lines[i], cmd - lines[i]);
            g_string_append (s, cpus);
          }
        else
          g_string_append (s, lines[i]);
        g_string_append_c (s, '\n');
      }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static gboolean
run (const char *cmd)
{
  int status = 0;
  if (!g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

/* perf record -o - > file on this machine: every sample as perf script
 * prints it (count, times, threads, CPUs, tracepoint text); the same header
 * information and attrs as a file-mode recording of the same command; and,
 * where perf inject turns the stream into a file perf itself reads back, the
 * same records as that file. */
static void
test_live (void)
{
  g_autofree char *perf = g_find_program_in_path ("perf");
  if (perf == NULL)
    {
      g_test_skip ("perf (Debian linux-perf) is not installed: skipping");
      return;
    }
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-perf-pipe-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *pipe_path = g_build_filename (dir, "pipe.data", NULL);
  g_autofree char *file_path = g_build_filename (dir, "file.data", NULL);
  g_autofree char *inject_path = g_build_filename (dir, "inject.data", NULL);
  g_autofree char *script = g_build_filename (dir, "pipe.txt", NULL);
  g_autofree char *inject_script = g_build_filename (dir, "inject.txt", NULL);
  const char *events = "-a -e sched:sched_switch -e sched:sched_wakeup";
  const char *workload = "-- sh -c 'ls / >/dev/null; sleep 0.01'";
  g_autofree char *sh_pipe = g_strdup_printf ("%s record -q -o - %s %s > %s 2>/dev/null",
                                              perf, events, workload, pipe_path);
  g_autofree char *sh_file = g_strdup_printf ("%s record -q -o %s %s %s >/dev/null 2>&1",
                                              perf, file_path, events, workload);
  const char *argv_pipe[] = { "sh", "-c", sh_pipe, NULL };
  const char *argv_file[] = { "sh", "-c", sh_file, NULL };
  int st_pipe = 0, st_file = 0;
  g_spawn_sync (NULL, (char **) argv_pipe, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                &st_pipe, NULL);
  g_spawn_sync (NULL, (char **) argv_file, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                &st_file, NULL);
  if (!g_spawn_check_wait_status (st_pipe, NULL) || !g_spawn_check_wait_status (st_file, NULL)
      || !g_file_test (pipe_path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("perf record is not permitted here (not root, perf_event_paranoid): skipping");
      goto out;
    }

  {
    /* against perf script of the pipe file */
    g_autofree char *cmd = g_strdup_printf ("sh -c '%s script -i %s --ns > %s 2>/dev/null'",
                                            perf, pipe_path, script);
    g_assert_true (run (cmd));
    g_autoptr(GBytes) pipe = read_bytes (pipe_path);
    g_autoptr(CpelPerfData) pd = cpel_perf_data_new (pipe, &error);
    g_assert_no_error (error);
    g_autoptr(GPtrArray) ref = cpel_perf_script_parse (script);
    guint n = 0;
    g_autofree char *text = dump (pipe, &n, &error);
    g_assert_no_error (error);
    g_autoptr(GPtrArray) mine = g_ptr_array_new_with_free_func (g_free);
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
    guint n_samples = 0;
    for (guint i = 0; lines[i] != NULL; i++)
      if (g_str_has_prefix (lines[i], "9 "))
        n_samples++;
    g_test_message ("pipe mode: %u samples, perf script %u lines", n_samples, ref->len);
    g_assert_cmpuint (n_samples, >, 0);
    g_assert_cmpuint (n_samples, ==, ref->len);
    /* each perf script line's time, tid, event and text among ours */
    for (guint i = 0; i < ref->len; i++)
      {
        CpelPerfScriptLine *l = ref->pdata[i];
        g_autofree char *needle = g_strdup_printf (" %s t=1:%" G_GUINT64_FORMAT " ", l->event,
                                                   l->time_ns);
        g_autofree char *tid = g_strdup_printf ("/%d ", l->tid);
        gboolean found = FALSE;
        /* perf script prints -1 for a sample whose thread it could not
         * find (on a busy machine, when the stream lost the thread's
         * records); the sample has its own tid, which we print */
        gboolean any_tid = l->tid == (guint32) -1;

        for (guint k = 0; lines[k] != NULL && !found; k++)
          found = strstr (lines[k], needle) != NULL && (any_tid || strstr (lines[k], tid) != NULL)
                  && (l->text == NULL || g_str_has_suffix (lines[k], l->text));
        if (!found)
          g_error ("perf script's “%s at %" G_GUINT64_FORMAT "” [%d] is not read", l->event,
                   l->time_ns, l->tid);
      }

    /* the header and attrs of a file-mode recording of the same command */
    g_autoptr(GBytes) file = read_bytes (file_path);
    g_autofree char *file_text = dump (file, NULL, &error);
    g_assert_no_error (error);
    g_autofree char *a = attr_lines (file_text);
    g_autofree char *b = attr_lines (text);
    g_assert_cmpstr (b, ==, a);

    /* perf inject: the stream as a file */
    g_autofree char *inj = g_strdup_printf ("sh -c '%s inject -i %s -o %s >/dev/null 2>&1'", perf,
                                           pipe_path, inject_path);
    g_autofree char *inj_script = g_strdup_printf ("sh -c '%s script -i %s --ns > %s 2>/dev/null'",
                                                   perf, inject_path, inject_script);
    g_autoptr(GPtrArray) inj_ref = NULL;
    if (run (inj) && run (inj_script)
        && (inj_ref = cpel_perf_script_parse (inject_script))->len == ref->len)
      {
        g_autoptr(GBytes) injected = read_bytes (inject_path);
        guint n_inj = 0;
        g_autofree char *inj_text = dump (injected, &n_inj, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (n_inj, ==, n);
      }
    else
      g_test_message ("perf inject -i pipe -o file wrote a file perf script does not read back "
                      "(perf 6.1 does): compared with perf script and a file-mode recording");
  }

out:
  g_unlink (script);
  g_unlink (inject_script);
  g_unlink (pipe_path);
  g_unlink (file_path);
  g_unlink (inject_path);
  g_rmdir (dir);
}

/* Lost samples counted once: the kernel counts a sample its ring had no
 * room for in the LOST records and again in the event's lost samples (the
 * LOST_SAMPLES perf writes at its end); the capture's loss is the larger
 * sum (LOST 7 + 5, LOST_SAMPLES 10: 12; LOST_SAMPLES 20: 20). */
static void
test_lost_once (void)
{
  static const guint64 samples[] = { 10, 20 };
  static const char *const want[] = { "12", "20" };

  for (guint k = 0; k < G_N_ELEMENTS (samples); k++)
    {
      g_autoptr(GBytes) pipe = pipe_of_fixture ("sched-wakeup", NULL);
      g_autoptr(GByteArray) a = g_byte_array_new ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(CpelFile) file = NULL;
      g_autoptr(GError) error = NULL;
      guint64 id = 0, n;

      g_byte_array_append (a, g_bytes_get_data (pipe, NULL), (guint) g_bytes_get_size (pipe));
      for (guint i = 0; i < 2; i++)
        {
          n = i == 0 ? 7 : 5;
          cpel_test_pipe_hdr (a, 2, 0, 24);   /* LOST */
          g_byte_array_append (a, (const guint8 *) &id, 8);
          g_byte_array_append (a, (const guint8 *) &n, 8);
        }
      cpel_test_pipe_hdr (a, 13, 0, 16);       /* LOST_SAMPLES */
      g_byte_array_append (a, (const guint8 *) &samples[k], 8);
      bytes = g_byte_array_free_to_bytes (g_steal_pointer (&a));
      file = cpel_file_new_for_bytes (bytes, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (cpel_file_get_source_value (file, "lost-events"), ==, want[k]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/perf/pipe/fixtures", test_fixtures);
  g_test_add_func ("/core/import/perf/pipe/hostile/truncations", test_truncations);
  g_test_add_func ("/core/import/perf/pipe/hostile/lengths", test_hostile);
  g_test_add_func ("/core/import/perf/pipe/stream", test_stream);
  g_test_add_func ("/core/import/perf/pipe/live", test_live);
  g_test_add_func ("/core/import/perf/pipe/lost-once", test_lost_once);
  return g_test_run ();
}
