/* SPDX-License-Identifier: Apache-2.0 */
/* bench-import.c — import speed of perf.data and CTF, on files it writes
 * itself into OUTDIR (never committed):
 *
 *  - perf.data: SAMPLES samples (default 5·10^6) of cpu-clock on 16
 *    threads (IP|TID|TIME|PERIOD, 40 bytes each) with COMM records, by the
 *    synthetic writer of the tests; measured: the reader alone (records
 *    decoded, best of 3) and the whole import to CPEL bytes (best of 3);
 *    the same with user-space samples in libc named from its symbols
 *    (interleaved with the plain runs; the CPU-time ratio is printed);
 *  - CTF: a two-stream CTF 1.8 trace with CTF_EVENTS events (default
 *    10^6; a u32 and a u64 payload field each) in 64 KiB packets; measured:
 *    libbabeltrace2 reading it through our sink (best of 3).
 *
 * usage: bench-import OUTDIR
 * Prints key=value lines (rates in events per second) for run-bench.sh.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-perf-data.h"
#include "cpel-ctf-trace.h"
#include "cpel-perf-writer.h"
#include "cpel-ctf-writer.h"
#include "cpel-import.h"

/* CPU time of this process (user + system), seconds: with other builds
 * running, wall time says more about the load than about the code. */
static double
cpu_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static guint64
env_count (const char *name, guint64 def)
{
  const char *v = g_getenv (name);
  return v ? g_ascii_strtoull (v, NULL, 10) : def;
}

/* `lib`: NULL for kernel-mode samples without symbols (no kallsyms), or
 * a shared library mapped into the process and sampled near `near` (an
 * offset into it): every sample's symbol is looked up. */
static char *
write_perf (const char *outdir, guint64 n, const char *lib, guint64 near)
{
  char *path = g_strdup_printf ("%s/bench-%" G_GUINT64_FORMAT "%s.perf.data", outdir, n, lib ? "-sym" : "");
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return path;
  guint64 st = CPEL_TEST_PERF_IP | CPEL_TEST_PERF_TID | CPEL_TEST_PERF_TIME | CPEL_TEST_PERF_PERIOD;
  g_autoptr(GByteArray) rec = g_byte_array_sized_new ((guint) MIN (n * 40 + 4096, G_MAXUINT));
  for (guint t = 0; t < 16; t++)
    {
      g_autofree char *comm = g_strdup_printf ("worker-%u", t);
      cpel_test_perf_comm (rec, 1000, 1000 + t, comm);
    }
  const guint64 base = G_GUINT64_CONSTANT (0x7f0000000000);
  if (lib != NULL)
    cpel_test_perf_mmap2 (rec, 1000, base, 0x400000, 0, lib);
  guint64 time = G_GUINT64_CONSTANT (2584000000000);
  guint32 rng = 1;
  for (guint64 i = 0; i < n; i++)
    {
      rng = rng * 1103515245u + 12345u;
      time += 250 + (rng >> 24);
      if (lib != NULL)
        cpel_test_perf_sample_misc (rec, 2, st, 1, base + near + (rng & 0x3ffff) - 0x20000,
                                    1000, 1000 + (guint32) (i % 16), time, 0);
      else
        cpel_test_perf_sample (rec, st, 1, G_GUINT64_CONSTANT (0xffffffff81000000) + (rng & 0xfffff),
                               1000, 1000 + (guint32) (i % 16), time, 0);
    }
  g_autoptr(GBytes) b = cpel_test_perf_file (&st, 1, 144, rec->data, rec->len);
  g_autofree char *part = g_strconcat (path, ".part", NULL);
  g_autoptr(GError) error = NULL;
  if (!g_file_set_contents (part, g_bytes_get_data (b, NULL), g_bytes_get_size (b), &error)
      || g_rename (part, path) != 0)
    g_error ("writing %s: %s", path, error ? error->message : g_strerror (errno));
  return path;
}

static char *
write_ctf (const char *outdir, guint64 n)
{
  char *dir = g_strdup_printf ("%s/bench-%" G_GUINT64_FORMAT ".ctf", outdir, n);
  g_autofree char *meta = g_build_filename (dir, "metadata", NULL);
  if (!g_file_test (meta, G_FILE_TEST_EXISTS))
    cpel_test_ctf_write (dir, n);
  return dir;
}

static gboolean
count_record (const CpelPerfRecord *r, gpointer data, GError **error)
{
  if (r->type == CPEL_PERF_RECORD_SAMPLE)
    (*(guint64 *) data)++;
  return TRUE;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-import OUTDIR\n");
      return 2;
    }
  g_mkdir_with_parents (argv[1], 0755);
  guint64 n_perf = env_count ("CPEL_BENCH_PERF_SAMPLES", 5000000);
  guint64 n_ctf = env_count ("CPEL_BENCH_CTF_EVENTS", 1000000);
  g_autoptr(GError) error = NULL;

  /* perf.data */
  g_autofree char *perf = write_perf (argv[1], n_perf, NULL, 0);
  g_autoptr(GMappedFile) mf = g_mapped_file_new (perf, FALSE, &error);
  g_assert_no_error (error);
  g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (mf);
  /* page the file in once, as the other benchmarks do */
  volatile guint8 sink = 0;
  const guint8 *p = g_bytes_get_data (bytes, NULL);
  for (gsize i = 0; i < g_bytes_get_size (bytes); i += 4096)
    sink ^= p[i];
  double best = G_MAXDOUBLE, best_cpu = G_MAXDOUBLE;
  for (int run = 0; run < 3; run++)
    {
      double c0 = cpu_s ();
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(CpelPerfData) pd = cpel_perf_data_new (bytes, &error);
      g_assert_no_error (error);
      guint64 n = 0;
      cpel_perf_data_read_records (pd, count_record, &n, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, n_perf);
      best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
      best_cpu = MIN (best_cpu, cpu_s () - c0);
    }
  printf ("perf_samples=%" G_GUINT64_FORMAT "\n", n_perf);
  printf ("perf_file_mb=%.0f\n", g_bytes_get_size (bytes) / 1e6);
  printf ("perf_read_s=%.3f\n", best);
  printf ("perf_read_rate=%.0f\n", n_perf / best);
  printf ("perf_read_cpu_rate=%.0f\n", n_perf / best_cpu);

  /* the whole import: perf.data -> CPEL bytes (tracks, texts, extension
   * sections), then the CPEL loaded and indexed */
  best = G_MAXDOUBLE;
  best_cpu = G_MAXDOUBLE;
  double best_load = G_MAXDOUBLE;
  const CpelImporter *perf_importer = cpel_importer_lookup ("perf");
  /* the same samples in user space, named from libc's symbols (its debug
   * file when installed): interleaved with the plain runs */
  Dl_info libc;
  g_autofree char *perf_sym = NULL;
  g_autoptr(GMappedFile) mf_sym = NULL;
  g_autoptr(GBytes) bytes_sym = NULL;
  if (dladdr ((void *) qsort, &libc) != 0 && libc.dli_fname != NULL && libc.dli_fname[0] == '/')
    {
      perf_sym = write_perf (argv[1], n_perf, libc.dli_fname,
                             (guint64) ((const char *) (void *) qsort - (const char *) libc.dli_fbase));
      mf_sym = g_mapped_file_new (perf_sym, FALSE, &error);
      g_assert_no_error (error);
      bytes_sym = g_mapped_file_get_bytes (mf_sym);
      const guint8 *q = g_bytes_get_data (bytes_sym, NULL);
      for (gsize i = 0; i < g_bytes_get_size (bytes_sym); i += 4096)
        sink ^= q[i];
    }
  double best_sym = G_MAXDOUBLE, best_sym_cpu = G_MAXDOUBLE;
  for (int run = 0; run < 3; run++)
    {
      CpelImportSource src = { perf, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes) };
      double c0 = cpu_s ();
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(GBytes) cpel = cpel_import_run (perf_importer, &src, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      gint64 t1 = g_get_monotonic_time ();
      best_cpu = MIN (best_cpu, cpu_s () - c0);
      g_autoptr(CpelFile) file = cpel_file_new_for_bytes (cpel, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_file_get_n_events (file), ==, n_perf);
      gint64 t2 = g_get_monotonic_time ();
      best = MIN (best, (t1 - t0) / 1e6);
      best_load = MIN (best_load, (t2 - t0) / 1e6);
      g_clear_object (&file);
      g_clear_pointer (&cpel, g_bytes_unref);

      if (bytes_sym == NULL)
        continue;
      CpelImportSource src_sym = { perf_sym, g_bytes_get_data (bytes_sym, NULL), g_bytes_get_size (bytes_sym) };
      c0 = cpu_s ();
      t0 = g_get_monotonic_time ();
      cpel = cpel_import_run (perf_importer, &src_sym, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      best_sym = MIN (best_sym, (g_get_monotonic_time () - t0) / 1e6);
      best_sym_cpu = MIN (best_sym_cpu, cpu_s () - c0);
      if (run == 0)
        {
          /* every sample named: libc's symbols were found */
          file = cpel_file_new_for_bytes (cpel, NULL, &error);
          g_assert_no_error (error);
          g_autoptr(GString) t = g_string_new (NULL);
          g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
          CpelEvent ev;
          guint64 idx;
          g_assert_true (cpel_merge_next (merge, &ev, &idx));
          cpel_file_append_datum (file, &ev, t);
          g_assert_nonnull (strstr (t->str, "+0x"));
          printf ("perf_import_sym_example=%s\n", t->str);
        }
    }
  printf ("perf_import_s=%.3f\n", best);
  printf ("perf_import_rate=%.0f\n", n_perf / best);
  printf ("perf_import_cpu_rate=%.0f\n", n_perf / best_cpu);
  printf ("perf_import_load_s=%.3f\n", best_load);
  printf ("perf_import_load_rate=%.0f\n", n_perf / best_load);
  if (bytes_sym != NULL)
    {
      printf ("perf_import_sym_rate=%.0f\n", n_perf / best_sym);
      printf ("perf_import_sym_cpu_rate=%.0f\n", n_perf / best_sym_cpu);
      printf ("perf_import_sym_cpu_ratio=%.2f\n", best_sym_cpu / best_cpu);
    }

  /* CTF */
  g_autofree char *ctf = write_ctf (argv[1], n_ctf);
  best = G_MAXDOUBLE;
  best_cpu = G_MAXDOUBLE;
  for (int run = 0; run < 3; run++)
    {
      double c0 = cpu_s ();
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(CpelCtfTrace) t = cpel_ctf_trace_read (ctf, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_ctf_trace_get_n_events (t), ==, n_ctf);
      best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
      best_cpu = MIN (best_cpu, cpu_s () - c0);
    }
  printf ("ctf_events=%" G_GUINT64_FORMAT "\n", n_ctf);
  printf ("ctf_read_s=%.3f\n", best);
  printf ("ctf_read_rate=%.0f\n", n_ctf / best);
  printf ("ctf_read_cpu_rate=%.0f\n", n_ctf / best_cpu);
  return sink == 0x5a ? 0 : 0;
}
