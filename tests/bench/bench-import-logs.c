/* SPDX-License-Identifier: Apache-2.0 */
/* bench-import-logs.c — import speed and memory of VPP elog and Snabb
 * timeline files (written here by the test writers into OUTDIR, never
 * committed).
 *
 * usage: bench-import-logs OUTDIR [EVENTS]   (default 10^7; CPEL_BENCH_IMPORT_EVENTS)
 *
 * Per format: the import alone (source -> CPEL bytes in memory, the texts
 * made when asked: what opening a file does), the texts of all events made
 * (what a text search over every event or `cpel convert` costs on top), and
 * the whole open (import + index), best of 2, in events per second; memory
 * = resident growth beyond the source file's size, per event.  Targets of
 * the elog and timeline importers: import >= 10^7 events/s, <= 32 B/event
 * beyond the file.  Also the open of a 10^6-event elog (what the viewer
 * waits for before its first frame; target <= 1 s).  Exit status 1 when a target is missed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cpel-core.h"
#include "cpel-import.h"
#include "cpel-loader.h"
#include "import-writers.h"

/* user + system CPU time of this process, in s (the import runs in one
 * thread: on a machine shared with other jobs this is the time it would
 * take alone, page faults included) */
static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static gint64
rss_bytes (void)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  p = strstr (status, "VmRSS:");
  return p ? g_ascii_strtoll (p + 6, NULL, 10) * 1024 : 0;
}

/* A 10^N-event elog: 4 types (i4, i4i4, T4, no argument), 16 tracks. */
static char *
write_elog (const char *dir, guint64 n)
{
  static const ElogwType types[] = {
    { "rx burst n %d", "i4", NULL }, { "tx q %d drops %d", "i4i4", NULL },
    { "node %s", "T4", NULL }, { "idle", "", NULL },
  };
  static const char *tracks[] = { "default", "w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7",
                                  "w8", "w9", "w10", "w11", "w12", "w13", "w14" };
  static const char strtab[] = "ip4-input\0ip4-lookup\0";
  g_autofree char *path = g_strdup_printf ("%s/bench-import-%" G_GUINT64_FORMAT ".elog", dir, n);
  g_autoptr(GByteArray) a = g_byte_array_new ();
  FILE *f;

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&path);
  f = fopen (path, "wb");
  g_assert_nonnull (f);
  elogw_header (a, types, 4, tracks, 16, strtab, sizeof strtab);
  elogw_u32 (a, (guint32) n);
  for (guint64 i = 0; i < n; i++)
    {
      guint type = i % 4;
      elogw_event_head (a, type, 1 + i % 15, i * 1e-7);
      if (type == 0)
        elogw_u32 (a, (guint32) i);
      else if (type == 1)
        {
          elogw_u32 (a, i % 8);
          elogw_u32 (a, (guint32) (i % 3));
        }
      else if (type == 2)
        elogw_u32 (a, (i & 1) ? 10 : 0);
      if (a->len > (1 << 20))
        {
          fwrite (a->data, 1, a->len, f);
          g_byte_array_set_size (a, 0);
        }
    }
  fwrite (a->data, 1, a->len, f);
  fclose (f);
  return g_steal_pointer (&path);
}

/* A timeline of n entries, wrapped once, 3 messages with 0–4 arguments. */
static char *
write_timeline (const char *dir, guint64 n)
{
  g_autofree char *path = g_strdup_printf ("%s/bench-import-%" G_GUINT64_FORMAT ".timeline", dir, n);
  Snabbw w;
  guint16 m[3];

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&path);
  snabbw_init (&w, (guint32) n, 4096, 3);
  m[0] = snabbw_message (&w, "1,5|engine.breath_start: breath totalpackets totalbytes totaletherbits");
  m[1] = snabbw_message (&w, "3,3|app.pull app=tee:");
  m[2] = snabbw_message (&w, "2,3|engine.got_monotonic_time: unixnanos");
  for (guint64 i = 0; i < n; i++)
    {
      guint64 slot = (i + n / 3) % n;   /* oldest entry one third into the ring */
      guint k = i % 3;
      double args[4] = { (double) i, i * 64.0, i * 8192.0, i * 0.5 };

      if (k == 2)
        args[0] = 1e9 + i * 50.0;
      snabbw_entry (&w, (guint32) slot, 1e6 + i * 105.0, m[k], 67, args, k == 0 ? 4 : k == 2 ? 1 : 0);
    }
  g_assert_true (g_file_set_contents (path, (const char *) w.a->data, w.a->len, NULL));
  g_byte_array_unref (w.a);
  return g_steal_pointer (&path);
}

typedef struct
{
  double import_s, open_s, texts_s, import_cpu;
  double import_bpe, open_bpe;
} Result;

static Result
measure (const char *path, guint64 n, const CpelImporter *importer)
{
  Result r = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE, 0, 0 };

  for (int run = 0; run < 2; run++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, &error);
      g_autoptr(GBytes) owner = NULL;
      g_autoptr(GString) text = g_string_sized_new (256);
      CpelImportSource src = { path, NULL, 0, NULL };
      CpelImportTexts *texts = NULL;
      gint64 rss0, t0, t1, rss1;
      double c0, c1;
      GBytes *bytes;

      g_assert_no_error (error);
      src.data = (const guint8 *) g_mapped_file_get_contents (mapped);
      src.size = g_mapped_file_get_length (mapped);
      src.owner = owner = g_mapped_file_get_bytes (mapped);

      rss0 = rss_bytes ();
      c0 = cpu_seconds ();
      t0 = g_get_monotonic_time ();
      bytes = cpel_import_run_lazy (importer, &src, NULL, NULL, NULL, NULL, &texts, &error);
      t1 = g_get_monotonic_time ();
      c1 = cpu_seconds ();
      r.import_cpu = MIN (r.import_cpu, c1 - c0);
      g_assert_no_error (error);
      g_assert_nonnull (texts);
      rss1 = rss_bytes ();
      r.import_s = MIN (r.import_s, (t1 - t0) / 1e6);
      /* the source pages read count in RSS: subtract the file */
      r.import_bpe = (double) (rss1 - rss0 - (gint64) src.size) / n;
      t0 = g_get_monotonic_time ();
      for (guint64 i = 0; i < n; i++)
        {
          g_string_truncate (text, 0);
          g_assert_true (cpel_import_texts_append (texts, i, text));
        }
      t1 = g_get_monotonic_time ();
      r.texts_s = MIN (r.texts_s, (t1 - t0) / 1e6);
      cpel_import_texts_free (texts);
      g_bytes_unref (bytes);
    }
  for (int run = 0; run < 2; run++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelFile) file = NULL;
      gint64 rss0 = rss_bytes (), t0, t1, rss1;

      t0 = g_get_monotonic_time ();
      file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
      t1 = g_get_monotonic_time ();
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_file_get_n_events (file), ==, n);
      rss1 = rss_bytes ();
      r.open_s = MIN (r.open_s, (t1 - t0) / 1e6);
      r.open_bpe = (double) (rss1 - rss0) / n;   /* the source is unmapped after the import */
    }
  return r;
}

int
main (int argc, char **argv)
{
  const char *dir;
  guint64 n = 10000000;
  gboolean ok = TRUE;
  double load1 = 0;
  char loadavg[64] = "?";
  FILE *f;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s OUTDIR [EVENTS]\n", argv[0]);
      return 2;
    }
  dir = argv[1];
  if (argc > 2)
    n = g_ascii_strtoull (argv[2], NULL, 10);
  else if (g_getenv ("CPEL_BENCH_IMPORT_EVENTS"))
    n = g_ascii_strtoull (g_getenv ("CPEL_BENCH_IMPORT_EVENTS"), NULL, 10);
  if ((f = fopen ("/proc/loadavg", "r")) != NULL)
    {
      if (fgets (loadavg, sizeof loadavg, f) == NULL)
        strcpy (loadavg, "?");
      fclose (f);
      loadavg[strcspn (loadavg, "\n")] = 0;
      load1 = g_ascii_strtod (loadavg, NULL);
    }

  printf ("| measure (%" G_GUINT64_FORMAT " events, load %s) | value | target |\n|---|---|---|\n",
          n, loadavg);
  {
    g_autofree char *elog = write_elog (dir, n);
    g_autofree char *timeline = write_timeline (dir, n);
    Result e = measure (elog, n, &cpel_importer_elog);
    Result s = measure (timeline, n, &cpel_importer_snabb);

    printf ("| VPP elog: import | %.2f s = %.2f M events/s (CPU time %.2f s = %.2f M events/s), %.1f B/event | >= 10 M events/s, <= 32 B/event |\n",
            e.import_s, n / e.import_s / 1e6, e.import_cpu, n / e.import_cpu / 1e6, e.import_bpe);
    printf ("| VPP elog: all texts made (a full text search, convert) | %.2f s = %.2f M texts/s | |\n",
            e.texts_s, n / e.texts_s / 1e6);
    printf ("| VPP elog: open (import + index) | %.2f s = %.2f M events/s, %.1f B/event | |\n",
            e.open_s, n / e.open_s / 1e6, e.open_bpe);
    printf ("| Snabb timeline: import | %.2f s = %.2f M events/s (CPU time %.2f s = %.2f M events/s), %.1f B/event | >= 10 M events/s, <= 32 B/event |\n",
            s.import_s, n / s.import_s / 1e6, s.import_cpu, n / s.import_cpu / 1e6, s.import_bpe);
    printf ("| Snabb timeline: all texts made (a full text search, convert) | %.2f s = %.2f M texts/s | |\n",
            s.texts_s, n / s.texts_s / 1e6);
    printf ("| Snabb timeline: open (import + index) | %.2f s = %.2f M events/s, %.1f B/event | |\n",
            s.open_s, n / s.open_s / 1e6, s.open_bpe);
    ok &= n / e.import_s >= 1e7 && n / s.import_s >= 1e7;
    ok &= e.import_bpe <= 32 && s.import_bpe <= 32;
  }
  {
    g_autofree char *elog = write_elog (dir, 1000000);
    Result e = measure (elog, 1000000, &cpel_importer_elog);

    printf ("| VPP elog, 10^6 events: open (the viewer's wait before drawing) | %.2f s | <= 1 s |\n",
            e.open_s);
    ok &= e.open_s <= 1.0;
  }
  printf ("targets %s (machine load %.2f: timings vary 2-10x with load)\n", ok ? "met" : "MISSED", load1);
  return ok ? 0 : 1;
}
