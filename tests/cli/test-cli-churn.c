/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-churn.c — captures changed on disk while `cpel dump` and
 * `cpel search` read them never kill the program
 *
 * For each format (a generated CPEL file; the recorded VPP elog, Snabb
 * timeline, perf.data and LTTng CTF trace of tests/fixtures), a copy is read
 * by `cpel dump` and by `cpel search` RUNS times each while a thread changes
 * it the ways a capture changes under a reader: bytes overwritten in place
 * (then put back), the file cut short (then restored), and another capture
 * of the format copied over it as cp does (truncated, written in pieces,
 * then the original copied back).  The mutator is started before each run
 * and stops when the run has exited (it is never timed): every run must
 * exit 0, or 1 with a message of one plain line — no signal (SIGSEGV,
 * SIGBUS, SIGABRT).
 *
 * RUNS is 50 ($CPEL_CHURN_RUNS overrides it).  The mapping guard, pass B's
 * bounds and the isolated CTF reader are what this checks. */
#include <sys/wait.h>

#include <gio/gio.h>

#include "churn-mutator.h"
#include "cli-test-util.h"
#include "config.h"
#include "cpel-test-util.h"

typedef struct
{
  const char *name;
  const char *file;       /* under the fixtures, or NULL: generated */
  const char *other;      /* under the fixtures, or NULL: the file itself */
  const char *trace;      /* CTF: the folder read, with `file` the stream changed */
  const char *text;       /* searched for */
} Format;

static const Format formats[] = {
  { "cpel", NULL, NULL, NULL, "a" },
  { "elog", "vpp-sample.elog", "vpp-elog/ring256-wrapped.elog", NULL, "a" },
  { "snabb", "snabb-timeline/engine-pipeline.timeline", "snabb-timeline/ring64-wrapped.timeline",
    NULL, "a" },
#if HAVE_PERF
  { "perf", "perf/sched-wakeup.perf.data", "perf/gzip-callgraph.perf.data", NULL, "a" },
#endif
#if HAVE_CTF
  { "ctf", "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809/ch0_1",
    NULL, "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809", "request" },
  /* the same trace, its metadata changed */
  { "ctf-metadata", "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809/metadata",
    NULL, "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809", "request" },
#endif
};

static guint
n_runs (void)
{
  const char *env = g_getenv ("CPEL_CHURN_RUNS");
  guint64 n = env != NULL ? g_ascii_strtoull (env, NULL, 10) : 0;
  return n > 0 && n < 100000 ? (guint) n : 50;
}


/* Runs `cpel ARGS` once while `m` changes its file: from before it starts
 * (`early`), else from its first output on (it is then blocked on the pipe,
 * in the middle of its reading, when its output is big) or its exit.  The
 * exit status. */
static int
run_churned (Mutator *m, const char * const *args, gboolean early, GString *err_out)
{
  g_autoptr(GSubprocessLauncher) l =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) out = NULL, err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_subprocess_launcher_setenv (l, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_setenv (l, "LANGUAGE", "C", TRUE);
  /* libbabeltrace2 loops on some changed metadata: stopped sooner */
  g_subprocess_launcher_setenv (l, "CPEL_CTF_READER_TIMEOUT", "2", TRUE);
  g_ptr_array_add (argv, (gpointer) cli_path ());
  for (; *args != NULL; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);

  /* when early, at work before the reader starts */
  GThread *thread = mutator_start (m, early);

  proc = g_subprocess_launcher_spawnv (l, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  if (!early)
    {
      /* its first output (or its end) */
      guint8 first[1];
      g_input_stream_read (g_subprocess_get_stdout_pipe (proc), first, 1, NULL, &error);
      g_assert_no_error (error);
      mutator_go (m);
    }
  g_assert_true (g_subprocess_communicate (proc, NULL, NULL, &out, &err, &error));
  g_assert_no_error (error);
  /* and until it has exited */
  mutator_stop (m, thread);

  g_string_assign (err_out, "");
  g_string_append_len (err_out, g_bytes_get_data (err, NULL), (gssize) g_bytes_get_size (err));
  return g_subprocess_get_status (proc);
}

static void
test_churn (gconstpointer data)
{
  const Format *f = data;
  g_autofree char *tmp = cli_tmpdir_new ();
  g_autofree char *gen_path = NULL, *gen_other = NULL, *read_path = NULL;
  g_autoptr(GString) err = g_string_new (NULL);
  Mutator m;
  guint runs = n_runs (), failed = 0;

  if (f->file == NULL)
    {
      /* a CPEL file big enough that reading it takes a while */
      g_auto(CliRun) r = { 0 };
      gen_path = g_build_filename (tmp, "churn.cpel", NULL);
      gen_other = g_build_filename (tmp, "other.cpel", NULL);
      cli_run (&r, "gen", "--events", "20000", "--tracks", "8", gen_path);
      g_assert_cmpint (r.status, ==, 0);
      cli_run (&r, "gen", "--events", "5000", "--tracks", "3", "--seed", "2", gen_other);
      g_assert_cmpint (r.status, ==, 0);
    }
  read_path = mutator_init (&m, tmp, f->file, f->other, f->trace, gen_path, gen_other);

  guint exits[2] = { 0, 0 };
  g_autoptr(GHashTable) messages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < 2 * runs; i++)
    {
      const char * const dump[] = { "dump", "--no-cache", read_path, NULL };
      const char * const search[] = { "search", "--no-cache", read_path, f->text, NULL };
      int status = run_churned (&m, i % 2 == 0 ? dump : search, i % 4 < 2, err);
      if (WIFSIGNALED (status))
        {
          g_test_message ("cpel %s: killed by signal %d; stderr: %s",
                          i % 2 == 0 ? "dump" : "search", WTERMSIG (status), err->str);
          failed++;
          continue;
        }
      int code = WEXITSTATUS (status);
      /* 1 with one plain line: not the trace library's internals */
      if (code != 0 && (code != 1 || count_lines (err->str) != 1
                        || strstr (err->str, "comp-addr=") != NULL))
        {
          g_test_message ("cpel %s: exit status %d; stderr: %s",
                          i % 2 == 0 ? "dump" : "search", code, err->str);
          failed++;
          continue;
        }
      exits[code]++;
      if (code == 1)
        {
          /* the message after the file's name, its numbers as #, counted */
          const char *msg = strstr (err->str, read_path);
          GString *key = g_string_new (NULL);
          for (msg = msg != NULL ? msg + strlen (read_path) : err->str;
               *msg != '\0' && *msg != '\n'; msg++)
            if (!g_ascii_isdigit (*msg))
              g_string_append_c (key, *msg);
            else if (key->len == 0 || key->str[key->len - 1] != '#')
              g_string_append_c (key, '#');
          guint seen = GPOINTER_TO_UINT (g_hash_table_lookup (messages, key->str));
          g_hash_table_replace (messages, g_string_free (key, FALSE), GUINT_TO_POINTER (seen + 1));
        }
    }
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, messages);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_test_message ("%3u x %s", GPOINTER_TO_UINT (v), (const char *) k);
  g_test_message ("%s: %u runs, %u changes to the file, %u exited 0, %u exited 1 with a message",
                  f->name, 2 * runs, m.steps, exits[0], exits[1]);
  g_assert_cmpuint (failed, ==, 0);
  g_assert_cmpuint (m.steps, >=, 2 * runs);

  mutator_clear (&m);
  cpel_test_remove_tree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *p = g_strdup_printf ("/cli/churn/%s", formats[i].name);
      g_test_add_data_func (p, &formats[i], test_churn);
    }
  return g_test_run ();
}
