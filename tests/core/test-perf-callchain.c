/* SPDX-License-Identifier: Apache-2.0 */
/* test-perf-callchain.c — perf record -g call chains against perf itself
 *
 * The committed recording with chains (tests/fixtures/perf/gzip-callgraph:
 * another machine's, so only what the file itself tells is compared: the
 * frames, their binaries, the addresses of kernel and unknown frames) and a
 * new recording on this machine (every frame's symbol and binary against
 * `perf script -F tid,time,ip,sym,dso`; the top functions' self share
 * against `perf report --no-children`).  The call chains section of a
 * damaged file is read without harm.
 */
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-import.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

typedef struct
{
  guint64 ip;
  char   *sym;     /* without +0xoff */
  char   *dso;
} RefFrame;

typedef struct
{
  guint32  tid;
  guint64  time;   /* as printed: µs or ns */
  GArray  *frames; /* RefFrame */
} RefSample;

static void
ref_sample_free (gpointer p)
{
  RefSample *s = p;

  for (guint i = 0; i < s->frames->len; i++)
    {
      g_free (g_array_index (s->frames, RefFrame, i).sym);
      g_free (g_array_index (s->frames, RefFrame, i).dso);
    }
  g_array_unref (s->frames);
  g_free (s);
}

/* perf script text with call chains: a sample line (`… tid secs.frac: …`),
 * then one tab-indented line per frame, `ip sym[+0xoff] (dso)`. */
static GPtrArray *
parse_script (const char *text)
{
  g_autoptr(GRegex) head = g_regex_new ("(\\d+)\\s+(\\d+)\\.(\\d+):", 0, 0, NULL);
  g_auto(GStrv) rows = g_strsplit (text, "\n", -1);
  GPtrArray *samples = g_ptr_array_new_with_free_func (ref_sample_free);
  RefSample *cur = NULL;

  for (guint i = 0; rows[i] != NULL; i++)
    {
      const char *r = rows[i];
      g_autoptr(GMatchInfo) m = NULL;

      if (r[0] == '\0')
        continue;
      if (r[0] != '\t')
        {
          g_assert_true (g_regex_match (head, r, 0, &m));
          g_autofree char *tid = g_match_info_fetch (m, 1);
          g_autofree char *sec = g_match_info_fetch (m, 2);
          g_autofree char *frac = g_match_info_fetch (m, 3);
          cur = g_new0 (RefSample, 1);
          cur->tid = (guint32) g_ascii_strtoull (tid, NULL, 10);
          cur->time = g_ascii_strtoull (sec, NULL, 10);
          for (gsize k = 0; k < strlen (frac); k++)
            cur->time *= 10;
          cur->time += g_ascii_strtoull (frac, NULL, 10);
          cur->frames = g_array_new (FALSE, FALSE, sizeof (RefFrame));
          g_ptr_array_add (samples, cur);
          continue;
        }
      g_assert_nonnull (cur);
      while (*r == '\t' || *r == ' ')
        r++;
      const char *sp = strchr (r, ' ');
      const char *open = g_strrstr (r, " (");
      g_assert_nonnull (sp);
      g_assert_nonnull (open);
      g_assert_true (g_str_has_suffix (r, ")"));
      RefFrame f;
      f.ip = g_ascii_strtoull (r, NULL, 16);
      f.sym = g_strndup (sp + 1, (gsize) (open - sp - 1));
      f.dso = g_strndup (open + 2, strlen (open + 2) - 1);
      char *plus = g_strrstr (f.sym, "+0x");
      if (plus != NULL)
        *plus = '\0';
      g_array_append_val (cur->frames, f);
    }
  return samples;
}

/* The events with a chain, in time order. */
static GArray *
chained_events (CpelFile *file)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (CpelEvent));
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  CpelEvent ev;
  guint64 idx;

  while (cpel_merge_next (merge, &ev, &idx))
    if (cpel_file_get_event_chain (file, ev.file_index, NULL, 0) > 0)
      g_array_append_val (out, ev);
  return out;
}

typedef struct
{
  guint frames, symbols, kernel, user;
} Compared;

/* One sample's frames against perf's.  `same_machine`: every symbol too. */
static void
compare_chain (CpelFile        *file,
               const CpelEvent *ev,
               const RefSample *ref,
               gboolean         same_machine,
               Compared        *c)
{
  guint n = cpel_file_get_event_chain (file, ev->file_index, NULL, 0);
  g_autofree CpelChainFrame *frames = g_new0 (CpelChainFrame, n);

  g_assert_cmpuint (cpel_file_get_event_chain (file, ev->file_index, frames, n), ==, n);
  if (n != ref->frames->len)
    g_error ("sample of %u at %" G_GUINT64_FORMAT ": %u frames, perf script: %u",
             ref->tid, ref->time, n, ref->frames->len);
  for (guint i = 0; i < n; i++)
    {
      const RefFrame *want = &g_array_index (ref->frames, RefFrame, i);
      const CpelChainFrame *got = &frames[i];
      const char *dso = got->dso ? got->dso : "[unknown]";
      const char *sym = got->symbol ? got->symbol : "[unknown]";
      gboolean kernel = strcmp (want->dso, "[kernel.kallsyms]") == 0;

      if (g_str_has_prefix (want->dso, "/tmp/perf-"))
        continue;   /* JIT symbol files: not read */
      g_assert_cmpstr (dso, ==, want->dso);
      /* perf prints a mapped user address relative to its binary */
      if (kernel || strcmp (want->dso, "[unknown]") == 0)
        g_assert_cmphex (got->ip, ==, want->ip);
      if (same_machine || got->symbol != NULL)
        g_assert_cmpstr (sym, ==, want->sym);
      c->frames++;
      if (got->symbol != NULL)
        {
          c->symbols++;
          if (kernel)
            c->kernel++;
          else
            c->user++;
        }
    }
}

static void
test_fixture (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/gzip-callgraph.perf.data");
  g_autofree char *script_path = cpel_test_fixture_file ("perf/gzip-callgraph.perf-script.txt");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (script_path, &text, NULL, &error));
  g_autoptr(GPtrArray) ref = parse_script (text);
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (cpel_file_has_call_chains (file));
  g_autoptr(GArray) events = chained_events (file);
  g_assert_cmpuint (ref->len, ==, 53);
  g_assert_cmpuint (events->len, ==, ref->len);
  Compared c = { 0 };
  for (guint i = 0; i < events->len; i++)
    compare_chain (file, &g_array_index (events, CpelEvent, i), g_ptr_array_index (ref, i),
                   FALSE, &c);
  g_test_message ("%u frames compared, %u named here", c.frames, c.symbols);
  g_assert_cmpuint (c.frames, >, 300);

  /* a capture without chains has no section */
  g_autofree char *plain = cpel_test_fixture_file ("perf/zstd-mono.perf.data");
  g_autoptr(CpelFile) other = cpel_file_new_for_path (plain, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (cpel_file_has_call_chains (other));
  g_assert_cmpuint (cpel_file_get_event_chain (other, 0, NULL, 0), ==, 0);
}

/* perf report --stdio --no-children -F overhead,sym: percent per symbol
 * (addresses without one left out), summed over rows of the same name. */
static GHashTable *
perf_report_self (const char *perf,
                  const char *data)
{
  const char *argv[] = { perf, "report", "-i", data, "--stdio", "--no-children",
                         "-F", "overhead,sym", "-g", "none", NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_autoptr(GRegex) re = g_regex_new ("^\\s*([0-9.]+)%\\s+\\[.\\]\\s+(.+?)\\s*$", 0, 0, NULL);
  g_auto(GStrv) rows = g_strsplit (out, "\n", -1);
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; rows[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;

      if (!g_regex_match (re, rows[i], 0, &m))
        continue;
      g_autofree char *pct = g_match_info_fetch (m, 1);
      char *sym = g_match_info_fetch (m, 2);
      if (g_str_has_prefix (sym, "0x"))
        {
          g_free (sym);
          continue;
        }
      double *v = g_hash_table_lookup (h, sym);   /* percent, rows */
      if (v == NULL)
        {
          v = g_new0 (double, 2);
          g_hash_table_insert (h, sym, v);
        }
      else
        g_free (sym);
      v[0] += g_ascii_strtod (pct, NULL);
      v[1] += 1;
    }
  return h;
}

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
  g_autofree char *dir = g_dir_make_tmp ("cpel-callchain-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *data = g_build_filename (dir, "live.perf.data", NULL);
  /* a fixed period: perf report's shares are then shares of samples */
  const char *record[] = { perf, "record", "-q", "-g", "-e", "cpu-clock", "-c", "200000",
                           "-o", data, "--", "sh", "-c",
                           "for i in 1 2 3; do gzip -9 -c /usr/share/common-licenses/GPL-3 "
                           ">/dev/null; done; ls -lR /usr/share/doc >/dev/null", NULL };
  int status = 0;
  g_spawn_sync (NULL, (char **) record, NULL,
                G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                NULL, NULL, &status, NULL);
  if (!g_spawn_check_wait_status (status, NULL) || !g_file_test (data, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("perf record is not permitted here (not root, perf_event_paranoid): skipping");
      g_unlink (data);
      g_rmdir (dir);
      return;
    }

  const char *script[] = { perf, "script", "-i", data, "-F", "tid,time,ip,sym,dso", "--ns", NULL };
  g_autofree char *text = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) script, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &text, NULL, &status, &error));
  g_assert_no_error (error);
  g_autoptr(GPtrArray) ref = parse_script (text);

  g_autoptr(CpelFile) file = cpel_file_new_for_path (data, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autoptr(GArray) events = chained_events (file);
  g_assert_cmpuint (events->len, ==, ref->len);
  g_assert_cmpuint (events->len, >, 50);
  Compared c = { 0 };
  for (guint i = 0; i < events->len; i++)
    compare_chain (file, &g_array_index (events, CpelEvent, i), g_ptr_array_index (ref, i),
                   TRUE, &c);
  g_test_message ("%u samples, %u frames: %u named in the kernel, %u in user space, the same "
                  "as perf script", events->len, c.frames, c.kernel, c.user);
  g_assert_cmpuint (c.user, >, 0);

  /* the top functions: self shares as perf report's */
  g_autoptr(CpelTop) top = cpel_top_compute (file, 0, G_MAXINT64, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_top_get_n_samples (top), ==, events->len);
  g_autoptr(GHashTable) want = perf_report_self (perf, data);
  g_autoptr(GHashTable) got = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  guint64 self_sum = 0;
  for (guint i = 0; i < cpel_top_get_n_entries (top); i++)
    {
      const CpelTopEntry *e = cpel_top_get_entry (top, i);
      self_sum += e->self;
      g_assert_cmpuint (e->total, >=, e->self);
      g_assert_cmpuint (e->total, <=, cpel_top_get_n_samples (top));
      if (e->symbol == NULL)
        continue;
      double *v = g_hash_table_lookup (got, e->symbol);
      if (v == NULL)
        {
          v = g_new0 (double, 1);
          g_hash_table_insert (got, (gpointer) e->symbol, v);
        }
      *v += 100.0 * (double) e->self / (double) cpel_top_get_n_samples (top);
    }
  g_assert_cmpuint (self_sum, ==, cpel_top_get_n_samples (top));
  GHashTableIter it;
  gpointer k, v;
  guint compared = 0;
  g_hash_table_iter_init (&it, want);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      double *mine = g_hash_table_lookup (got, k);
      if (mine == NULL)
        g_error ("perf report: %s %.2f%%, not among the top functions", (char *) k, *(double *) v);
      /* perf rounds each row to 0.01 */
      if (ABS (*mine - *(double *) v) > 0.0051 * ((double *) v)[1])
        g_error ("%s: self %.4f%%, perf report %.2f%%", (char *) k, *mine, *(double *) v);
      compared++;
    }
  g_test_message ("%u functions' self shares as perf report's", compared);
  g_assert_cmpuint (compared, >, 10);

  g_unlink (data);
  g_autofree char *old = g_strconcat (data, ".old", NULL);
  g_unlink (old);
  g_rmdir (dir);
}

/* The fixture's CPEL with its call chains section's words changed one at
 * a time: no read outside it, chains of damaged parts read as none or
 * as frames without names. */
static void
test_hostile (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/gzip-callgraph.perf.data");
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) mf = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  CpelImportSource src = { path, (const guint8 *) g_mapped_file_get_contents (mf),
                           g_mapped_file_get_length (mf), NULL };
  CpelImportOptions opt = { 0 };
  g_autoptr(GBytes) cpel = cpel_import_run (cpel_importer_lookup ("perf"), &src, &opt, NULL, NULL,
                                            NULL, &error);
  g_assert_no_error (error);
  g_autoptr(CpelFile) good = cpel_file_new_for_cpel_bytes (cpel, NULL, &error);
  g_assert_no_error (error);
  const CpelSectionInfo *sec = NULL;
  for (guint i = 0; i < cpel_file_get_n_sections (good); i++)
    if (cpel_file_get_section (good, i)->type == CPEL_SECTION_EXT_CALL_CHAINS)
      sec = cpel_file_get_section (good, i);
  g_assert_nonnull (sec);
  g_assert_cmpuint (sec->count, ==, cpel_file_get_n_events (good));

  gsize size;
  const guint8 *orig = g_bytes_get_data (cpel, &size);
  static const guint32 values[] = { 0, 1, 0x7fffffff, 0xfffffffe, 0xffffffff, 0x40000000 };
  guint damaged_read = 0;
  for (guint64 w = 0; w < sec->length / 4; w += (w < 64 ? 1 : 7))
    for (guint v = 0; v < G_N_ELEMENTS (values); v++)
      {
        guint8 *copy = g_memdup2 (orig, size);
        guint32 x = cpel_file_is_little_endian (good) ? GUINT32_TO_LE (values[v])
                                                      : GUINT32_TO_BE (values[v]);
        memcpy (copy + sec->offset + 8 + w * 4, &x, 4);
        g_autoptr(GBytes) b = g_bytes_new_take (copy, size);
        g_autoptr(GError) e = NULL;
        g_autoptr(CpelFile) f = cpel_file_new_for_cpel_bytes (b, NULL, &e);
        g_assert_no_error (e);
        CpelChainFrame frames[256];
        for (guint64 i = 0; i < cpel_file_get_n_events (f) + 2; i++)
          {
            guint n = cpel_file_get_event_chain (f, i, frames, G_N_ELEMENTS (frames));
            for (guint k = 0; k < MIN (n, G_N_ELEMENTS (frames)); k++)
              {
                if (frames[k].symbol != NULL)
                  g_assert_true (g_utf8_validate (frames[k].symbol, -1, NULL));
                if (frames[k].dso != NULL)
                  g_assert_true (g_utf8_validate (frames[k].dso, -1, NULL));
              }
            damaged_read += n > 0;
          }
        g_autoptr(CpelTop) top = cpel_top_compute (f, 0, G_MAXINT64, NULL, 0, NULL, &e);
        g_assert_no_error (e);
      }
  g_assert_cmpuint (damaged_read, >, 0);
}

/* The section in either byte order (`cpel convert --little-endian` or
 * not) reads as the capture opened directly. */
static void
test_byte_order (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/gzip-callgraph.perf.data");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) direct = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autoptr(GMappedFile) mf = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  CpelImportSource src = { path, (const guint8 *) g_mapped_file_get_contents (mf),
                           g_mapped_file_get_length (mf), NULL };

  for (guint le = 0; le < 2; le++)
    {
      CpelImportOptions opt = { 0 };
      opt.little_endian = le;
      g_autoptr(GBytes) cpel = cpel_import_run (cpel_importer_lookup ("perf"), &src, &opt, NULL,
                                                NULL, NULL, &error);
      g_assert_no_error (error);
      g_autoptr(CpelFile) f = cpel_file_new_for_cpel_bytes (cpel, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (cpel_file_is_little_endian (f), ==, le);
      g_assert_cmpuint (cpel_file_get_n_events (f), ==, cpel_file_get_n_events (direct));
      guint64 frames = 0;
      for (guint64 i = 0; i < cpel_file_get_n_events (f); i++)
        {
          CpelChainFrame a[256], b[256];
          guint n = cpel_file_get_event_chain (f, i, a, G_N_ELEMENTS (a));
          g_assert_cmpuint (n, ==, cpel_file_get_event_chain (direct, i, b, G_N_ELEMENTS (b)));
          g_assert_cmpuint (n, <=, G_N_ELEMENTS (a));
          for (guint k = 0; k < n; k++)
            {
              g_assert_cmphex (a[k].ip, ==, b[k].ip);
              g_assert_cmpstr (a[k].symbol, ==, b[k].symbol);
              g_assert_cmpstr (a[k].dso, ==, b[k].dso);
            }
          frames += n;
        }
      g_assert_cmpuint (frames, >, 300);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/perf/callchain/fixture", test_fixture);
  g_test_add_func ("/core/import/perf/callchain/live", test_live);
  g_test_add_func ("/core/import/perf/callchain/hostile", test_hostile);
  g_test_add_func ("/core/import/perf/callchain/byte-order", test_byte_order);
  return g_test_run ();
}
