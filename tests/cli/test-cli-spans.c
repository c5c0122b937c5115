/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-spans.c — `cpel spans`, `cpel states`, `cpel rules check` */
#include "config.h"

#include <string.h>

#include "cpel-core.h"
#include "cpel-test-util.h"
#include "cli-test-util.h"

static char *tmpdir;

static char *
write_tmp (const char *name,
           const char *contents)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (tmpdir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
  return path;
}

/* The dispatch-traced VPP elog: the CSVs exactly (the core test checks the
 * same spans against elog_dump's text and the file's own times). */
static void
test_vpp_csv (void)
{
  g_autofree char *path = cpel_test_fixture_file ("spans/vpp-dispatch.elog");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "spans", "--csv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpstr (r.out, ==,
    "span,count,total_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,orphan_begins,orphan_ends\r\n"
    "GigabitEthernet0/8/0-tx,541,707584,0,1024,2048,3072,60416,1308,0,0\r\n"
    "GigabitEthernet0/8/0-output,541,591872,0,1024,2048,3072,3072,1094,0,0\r\n"
    "ip4-rewrite,541,567296,0,1024,2048,2048,50176,1049,0,0\r\n"
    "api-msg,39,563200,0,12288,27648,28672,28672,14441,1,0\r\n"
    "process tw,270,526336,0,2048,4096,4096,5120,1949,0,0\r\n"
    "ip4-lookup,541,444416,0,1024,2048,2048,2048,821,0,0\r\n"
    "ip4-input-no-checksum,541,371712,0,1024,1024,2048,2048,687,0,0\r\n"
    "ethernet-input,541,326656,0,1024,1024,2048,10240,604,0,0\r\n"
    "dpdk-input,540,262144,0,0,1024,1024,30720,485,0,1\r\n");

  cli_run (&r, "spans", "--csv", "--by", "tracks", "--tracks", "^(main|workers 2)", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
    "track,span,count,total_ns,min_ns,mean_ns,max_ns,orphan_begins,orphan_ends\r\n"
    "main thread,api-msg,39,563200,0,14441,28672,1,0\r\n"
    "main thread,process tw,270,526336,0,1949,5120,0,0\r\n"
    "workers 2,GigabitEthernet0/8/0-output,271,302080,0,1115,3072,0,0\r\n"
    "workers 2,GigabitEthernet0/8/0-tx,271,317440,0,1171,3072,0,0\r\n"
    "workers 2,dpdk-input,270,125952,0,466,1024,0,1\r\n"
    "workers 2,ethernet-input,271,155648,0,574,2048,0,0\r\n"
    "workers 2,ip4-input-no-checksum,271,186368,0,688,2048,0,0\r\n"
    "workers 2,ip4-lookup,271,232448,0,858,2048,0,0\r\n"
    "workers 2,ip4-rewrite,271,309248,0,1141,50176,0,0\r\n");

  /* the human table: aligned, with units */
  cli_run (&r, "spans", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "Span "));
  g_assert_nonnull (strstr (r.out, "\nip4-lookup "));
  g_assert_nonnull (strstr (r.out, "821 ns"));

  /* without the built-in rules: nothing */
  cli_run (&r, "spans", "--csv", "--no-builtin", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_lines (r.out), ==, 1);

  /* orphans counted in with --unfinished */
  cli_run (&r, "spans", "--csv", "--unfinished", "--tracks", "main", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\r\napi-msg,40,"));

  /* dump --tsv is the events only */
  cli_run (&r, "dump", "--tsv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_lines (r.out), ==, 8192 + 1);
}

static void
test_rules_file (void)
{
  g_autofree char *path = cpel_test_fixture_file ("snabb-timeline/engine-pipeline.timeline");
  g_autofree char *rules = write_tmp ("r.rules",
                                      "# per-breath packet work, as a state\n"
                                      "state pulled on event=engine.breath_pulled\n"
                                      "state pushed on event=engine.breath_pushed\n"
                                      "span pulled-to-pushed begin event=engine.breath_pulled "
                                      "end event=engine.breath_pushed\n");
  g_autofree char *bad = write_tmp ("bad.rules", "span x begin event=a end event=b\n"
                                                 "state y on \"text=oops\n"
                                                 "span z\n");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "spans", "--csv", "--rules", rules, path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "span,count,"));
  g_assert_nonnull (strstr (r.out, "\r\nengine.breath,498,2796242,"));
  g_assert_nonnull (strstr (r.out, "\r\npulled-to-pushed,106,"));

  cli_run (&r, "states", "--csv", "--rules", rules, path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "track,state,count,total_ns,min_ns,mean_ns,max_ns\r\n"
                                          "engine,pulled,106,"));
  g_assert_nonnull (strstr (r.out, "\r\nengine,pushed,105,"));

  cli_run (&r, "rules", "check", rules);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "state pulled on event=engine.breath_pulled\n"
                              "state pushed on event=engine.breath_pushed\n"
                              "span pulled-to-pushed begin event=engine.breath_pulled "
                              "end event=engine.breath_pushed\n");

  cli_run (&r, "rules", "check", bad);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "bad.rules:2:12: the quote is not closed\n"));
  /* every line's error */
  g_assert_nonnull (strstr (r.err, "bad.rules:3:7: expected “begin”"));
  g_assert_cmpuint (count_lines (r.err), ==, 2);

  cli_run (&r, "spans", "--rules", bad, path);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "bad.rules:2:12:"));

  cli_run (&r, "rules", "check", "--builtin");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "span * begin event=*-call end event=*-return restart\n"));

  cli_run (&r, "spans", "--by", "codes", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "rules", "verify", rules);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "rules", "check");
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "spans");
  g_assert_cmpint (r.status, ==, 2);
}

#if HAVE_PERF
/* Parses `cpel states --csv` rows: "a,b,count,total_ns,…" (no quoted
 * fields in these files) into `sums`: key "b" (cpus) or "a" (Running rows
 * of threads) -> count and total. */
static void
add_rows (GHashTable *sums,
          const char *csv,
          gboolean    cpus)
{
  g_auto(GStrv) lines = g_strsplit (csv, "\r\n", -1);

  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);
      guint64 *v;

      g_assert_cmpuint (g_strv_length (f), ==, 7);
      if (cpus ? g_str_has_suffix (f[1], " [0]") : strcmp (f[1], "Running") != 0)
        continue;
      v = g_hash_table_lookup (sums, cpus ? f[1] : f[0]);
      if (v == NULL)
        {
          v = g_new0 (guint64, 2);
          g_hash_table_insert (sums, g_strdup (cpus ? f[1] : f[0]), v);
        }
      v[0] += g_ascii_strtoull (f[2], NULL, 10);
      v[1] += g_ascii_strtoull (f[3], NULL, 10);
    }
}

/* perf.data of perf record -e sched:sched_switch -e sched:sched_wakeup -a:
 * --by cpus lists the CPUs' tracks only, per CPU and thread; summed over
 * the CPUs, each thread's runs are its Running state's (no switch was
 * lost in this recording). */
static void
test_states_by_cpus (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autoptr(GHashTable) by_cpu = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) by_thread = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                           g_free);
  g_auto(CliRun) r = { 0 };
  GHashTableIter it;
  gpointer k, v;

  cli_run (&r, "states", "--by", "cpus", "--csv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_true (g_str_has_prefix (r.out, "cpu,thread,count,total_ns,min_ns,mean_ns,max_ns\r\n"
                                          "CPU 0,bash [18887],1,1299210,1299210,1299210,"
                                          "1299210\r\n"));
  g_assert_nonnull (strstr (r.out, "\r\nCPU 1,swapper/1 [0],12,60314897,776049,5026241,"
                                   "12637237\r\n"));
  g_assert_null (strstr (r.out, "Running"));
  add_rows (by_cpu, r.out, TRUE);

  cli_run (&r, "states", "--csv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "\r\nCPU "));
  g_assert_nonnull (strstr (r.out, "\r\nbash [18883],Runnable (Preempted),3,1955974,"));
  g_assert_nonnull (strstr (r.out, "\r\nbash [18883],Sleeping,3,13510550,"));
  add_rows (by_thread, r.out, FALSE);
  g_assert_cmpuint (g_hash_table_size (by_cpu), ==, 24);
  g_assert_cmpuint (g_hash_table_size (by_thread), ==, g_hash_table_size (by_cpu));
  g_hash_table_iter_init (&it, by_cpu);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      guint64 *t = g_hash_table_lookup (by_thread, k);

      g_assert_nonnull (t);
      g_assert_cmpuint (t[0], ==, ((guint64 *) v)[0]);
      g_assert_cmpuint (t[1], ==, ((guint64 *) v)[1]);
    }

  /* the aligned table's headings */
  cli_run (&r, "states", "--by", "cpus", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "CPU "));
  g_assert_nonnull (strstr (r.out, " Thread "));

  /* --tracks narrows both; a file without CPU tracks: the header only */
  cli_run (&r, "states", "--by", "cpus", "--csv", "--tracks", "^CPU 1$", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "\r\nCPU 0,"));
  g_assert_nonnull (strstr (r.out, "\r\nCPU 1,"));
  cli_run (&r, "states", "--by", "cpus", "--csv", "--tracks", "^bash", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "cpu,thread,count,total_ns,min_ns,mean_ns,max_ns\r\n");

  cli_run (&r, "states", "--by", "tracks", path);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "“threads” or “cpus”"));
}
#endif

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = cli_tmpdir_new ();
  g_test_add_func ("/cli/spans/vpp-csv", test_vpp_csv);
  g_test_add_func ("/cli/spans/rules-file", test_rules_file);
#if HAVE_PERF
  g_test_add_func ("/cli/spans/states-by-cpus", test_states_by_cpus);
#endif
  status = g_test_run ();
  cli_tmpdir_free (tmpdir);
  return status;
}
