/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-lttng.c — an LTTng live session for the tests (see the header) */
#include "cpel-test-lttng.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "cpel-test-util.h"

#define START_TIMEOUT_S 30

struct _CpelTestLttng
{
  char     *dir;          /* LTTNG_HOME, the relay daemon's output */
  char    **env;
  GPid      sessiond;     /* 0: one was there already */
  GPid      relayd;
  GThread  *drain;        /* reads the relay daemon's standard error */
  GPid      writer;
  char     *session;
  char     *url;
  char     *relay;
  gboolean  ended;
};

/* Runs `lttng ARGS…`; its exit status is 0, or the test fails with what
 * it said (quiet: FALSE returned instead). */
static gboolean
lttng (CpelTestLttng *t,
       gboolean       quiet,
       ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  va_list ap;
  const char *arg;

  g_ptr_array_add (argv, (char *) "lttng");
  g_ptr_array_add (argv, (char *) "--no-sessiond");
  va_start (ap, quiet);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, t->env, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &status, &error))
    g_error ("lttng: %s", error->message);
  if (g_spawn_check_wait_status (status, NULL))
    return TRUE;
  if (!quiet)
    g_error ("lttng %s failed: %s%s", (const char *) argv->pdata[2], out, err);
  return FALSE;
}

/* A free local TCP port (closed again: the relay daemon takes it). */
static guint
free_port (void)
{
  struct sockaddr_in a = { .sin_family = AF_INET };
  socklen_t len = sizeof a;
  int fd = socket (AF_INET, SOCK_STREAM, 0);

  g_assert_cmpint (fd, >=, 0);
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &a, sizeof a), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &a, &len), ==, 0);
  close (fd);
  return ntohs (a.sin_port);
}

/* A daemon of the test's ends with it, also when an assertion aborts it. */
static void
die_with_parent (gpointer data)
{
  (void) data;
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

/* err_fd: NULL, or its standard error's pipe */
static GPid
spawn_daemon (CpelTestLttng *t,
              char         **argv,
              int           *err_fd)
{
  g_autoptr(GError) error = NULL;
  GPid pid = 0;

  if (!g_spawn_async_with_pipes (NULL, argv, t->env,
                                 G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD
                                 | G_SPAWN_STDOUT_TO_DEV_NULL
                                 | (err_fd == NULL ? G_SPAWN_STDERR_TO_DEV_NULL : 0)
                                 | G_SPAWN_CLOEXEC_PIPES,
                                 die_with_parent, NULL, &pid, NULL, NULL, err_fd, &error))
    g_error ("%s: %s", argv[0], error->message);
  return pid;
}

static void
stop_daemon (GPid pid)
{
  int status;

  if (pid <= 0)
    return;
  kill (pid, SIGTERM);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (pid);
}

static gboolean
flag_up (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
child_ended (GPid     pid,
             gint     status,
             gpointer data)
{
  (void) pid;
  (void) status;
  *(gboolean *) data = TRUE;
}

/* lttng-sessiond --sig-parent in the foreground: ready when it sends this
 * process SIGUSR1; FALSE when it exits first (or says nothing for 30 s). */
static gboolean
start_sessiond (CpelTestLttng *t)
{
  char *argv[] = { (char *) "lttng-sessiond", (char *) "--no-kernel", (char *) "--sig-parent",
                   NULL };
  gboolean ready = FALSE, ended = FALSE, late = FALSE;
  guint sig = g_unix_signal_add (SIGUSR1, flag_up, &ready);
  guint bound = g_timeout_add_seconds (START_TIMEOUT_S, flag_up, &late);
  guint watch;

  t->sessiond = spawn_daemon (t, argv, NULL);
  watch = g_child_watch_add (t->sessiond, child_ended, &ended);
  while (!ready && !ended && !late)
    g_main_context_iteration (NULL, TRUE);
  if (!ready)
    g_source_remove (sig);
  if (!late)
    g_source_remove (bound);
  if (!ended)
    g_source_remove (watch);
  else
    t->sessiond = 0;   /* reaped */
  return ready;
}

/* Discards what the relay daemon says once it is ready (its pipe never fills). */
static gpointer
drain_thread (gpointer data)
{
  g_autoptr(GInputStream) in = data;
  char buf[4096];

  while (g_input_stream_read (in, buf, sizeof buf, NULL, NULL) > 0)
    ;
  return NULL;
}

/* lttng-relayd -v in the foreground: ready once it says its listeners
 * accept connections (read from its standard error); FALSE when it exits
 * first (a port taken meanwhile). */
static gboolean
start_relayd (CpelTestLttng *t,
              char         **argv)
{
  int err_fd = -1;
  gboolean control = FALSE, live = FALSE;

  t->relayd = spawn_daemon (t, argv, &err_fd);
  {
    g_autoptr(GInputStream) raw = g_unix_input_stream_new (err_fd, TRUE);
    g_autoptr(GDataInputStream) in = g_data_input_stream_new (raw);
    char *line;

    g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (in), FALSE);
    while ((!control || !live)
           && (line = g_data_input_stream_read_line (in, NULL, NULL, NULL)) != NULL)
      {
        live = live || strstr (line, "Listener accepting live viewers connections") != NULL;
        control = control || strstr (line, "Listener accepting connections") != NULL;
        g_free (line);
      }
    t->drain = g_thread_new ("relayd-stderr", drain_thread, g_object_ref (raw));
  }
  if (control && live)
    return TRUE;
  stop_daemon (t->relayd);
  t->relayd = 0;
  g_thread_join (g_steal_pointer (&t->drain));
  return FALSE;
}


CpelTestLttng *
cpel_test_lttng_new (guint   subbuf_size,
                     char  **why_not)
{
  static guint serial;
  const char *writer = g_getenv ("CPEL_LTTNG_WRITER");
  g_autoptr(GError) error = NULL;
  char host[256] = "";

  g_return_val_if_fail (why_not != NULL, NULL);
  *why_not = NULL;
  if (writer == NULL || !g_file_test (writer, G_FILE_TEST_IS_EXECUTABLE))
    {
      *why_not = g_strdup ("no LTTng application to trace: lttng-ust was not found at build time "
                           "(Debian: liblttng-ust-dev)");
      return NULL;
    }
  for (const char *const *p = (const char *const[]) { "lttng", "lttng-sessiond", "lttng-relayd",
                                                      NULL }; *p != NULL; p++)
    {
      g_autofree char *found = g_find_program_in_path (*p);
      if (found == NULL)
        {
          *why_not = g_strdup_printf ("%s is not installed (Debian: lttng-tools)", *p);
          return NULL;
        }
    }

  CpelTestLttng *t = g_new0 (CpelTestLttng, 1);
  t->dir = g_dir_make_tmp ("cpel-lttng-XXXXXX", &error);
  g_assert_no_error (error);
  t->env = g_get_environ ();
  t->env = g_environ_setenv (t->env, "LTTNG_HOME", t->dir, TRUE);
  /* the application waits until the session daemon has registered it */
  t->env = g_environ_setenv (t->env, "LTTNG_UST_REGISTER_TIMEOUT", "-1", TRUE);

  if (!lttng (t, TRUE, "list", NULL))
    {
      if (!start_sessiond (t))
        {
          *why_not = g_strdup ("lttng-sessiond did not start");
          cpel_test_lttng_free (t);
          return NULL;
        }
    }

  /* free ports, asked of the kernel and closed again: another program may
   * take one meanwhile, and the relay daemon then exits; so a few tries */
  guint ports[3] = { 0 };
  g_autofree char *out = g_build_filename (t->dir, "relayd", NULL);
  for (guint tries = 0; t->relayd == 0 && tries < 5; tries++)
    {
      for (guint k = 0; k < 3; k++)
        do
          ports[k] = free_port ();
        while ((k > 0 && ports[k] == ports[0]) || (k > 1 && ports[k] == ports[1]));
      g_autofree char *c = g_strdup_printf ("tcp://127.0.0.1:%u", ports[0]);
      g_autofree char *d = g_strdup_printf ("tcp://127.0.0.1:%u", ports[1]);
      g_autofree char *l = g_strdup_printf ("tcp://127.0.0.1:%u", ports[2]);
      char *argv[] = { (char *) "lttng-relayd", (char *) "-v", (char *) "-C", c, (char *) "-D", d,
                       (char *) "-L", l, (char *) "-o", out, NULL };

      start_relayd (t, argv);
    }
  if (t->relayd == 0)
    {
      *why_not = g_strdup ("lttng-relayd did not start");
      cpel_test_lttng_free (t);
      return NULL;
    }

  gethostname (host, sizeof host - 1);
  t->session = g_strdup_printf ("cpel-test-%d-%u", (int) getpid (), serial++);
  t->relay = g_strdup_printf ("net://127.0.0.1:%u", ports[2]);
  t->url = g_strdup_printf ("%s/host/%s/%s", t->relay, host, t->session);
  g_autofree char *set_url = g_strdup_printf ("--set-url=net://127.0.0.1:%u:%u", ports[0],
                                              ports[1]);
  lttng (t, FALSE, "create", t->session, "--live=100000", set_url, NULL);
  if (subbuf_size > 0)
    {
      g_autofree char *size = g_strdup_printf ("--subbuf-size=%u", subbuf_size);
      lttng (t, FALSE, "enable-channel", "-u", "-s", t->session, size, "--num-subbuf=2",
             "--discard", "ch", NULL);
      lttng (t, FALSE, "enable-event", "-u", "-s", t->session, "-c", "ch", "lttng_ust_tracef:*",
             NULL);
      lttng (t, FALSE, "add-context", "-u", "-s", t->session, "-c", "ch", "-t", "vtid", "-t",
             "procname", NULL);
    }
  else
    {
      lttng (t, FALSE, "enable-event", "-u", "-s", t->session, "lttng_ust_tracef:*", NULL);
      lttng (t, FALSE, "add-context", "-u", "-s", t->session, "-t", "vtid", "-t", "procname",
             NULL);
    }
  lttng (t, FALSE, "start", t->session, NULL);
  return t;
}

const char *
cpel_test_lttng_get_url (CpelTestLttng *t)
{
  return t->url;
}

const char *
cpel_test_lttng_get_relay (CpelTestLttng *t)
{
  return t->relay;
}

void
cpel_test_lttng_write (CpelTestLttng *t,
                       guint          n,
                       guint          gap_us,
                       guint          first)
{
  g_autofree char *ns = g_strdup_printf ("%u", n), *gs = g_strdup_printf ("%u", gap_us);
  g_autofree char *fs = g_strdup_printf ("%u", first);
  char *argv[] = { (char *) g_getenv ("CPEL_LTTNG_WRITER"), ns, gs, fs, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, argv, t->env, G_SPAWN_DEFAULT, die_with_parent, NULL, NULL,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

void
cpel_test_lttng_start_writer (CpelTestLttng *t,
                              guint          n,
                              guint          gap_us)
{
  g_autofree char *ns = g_strdup_printf ("%u", n), *gs = g_strdup_printf ("%u", gap_us);
  char *argv[] = { (char *) g_getenv ("CPEL_LTTNG_WRITER"), ns, gs, NULL };
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (t->writer, ==, 0);
  g_assert_true (g_spawn_async (NULL, argv, t->env, G_SPAWN_DO_NOT_REAP_CHILD, die_with_parent,
                                NULL, &t->writer, &error));
  g_assert_no_error (error);
}

static gboolean
writer_wait (CpelTestLttng *t,
             gboolean       block)
{
  int status = 0;
  pid_t got;

  if (t->writer == 0)
    return TRUE;
  while ((got = waitpid (t->writer, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
    ;
  if (got != t->writer)
    return FALSE;
  g_spawn_close_pid (t->writer);
  t->writer = 0;
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return TRUE;
}

gboolean
cpel_test_lttng_writer_done (CpelTestLttng *t)
{
  return writer_wait (t, FALSE);
}

void
cpel_test_lttng_wait_writer (CpelTestLttng *t)
{
  writer_wait (t, TRUE);
}

void
cpel_test_lttng_end (CpelTestLttng *t)
{
  if (t->ended || t->session == NULL)
    return;
  t->ended = TRUE;
  lttng (t, FALSE, "stop", t->session, NULL);
  lttng (t, FALSE, "destroy", t->session, NULL);
}


void
cpel_test_lttng_free (CpelTestLttng *t)
{
  if (t == NULL)
    return;
  if (t->session != NULL && !t->ended)
    {
      t->ended = TRUE;
      lttng (t, TRUE, "destroy", t->session, NULL);
    }
  stop_daemon (t->writer);
  stop_daemon (t->relayd);
  if (t->drain != NULL)
    g_thread_join (t->drain);
  stop_daemon (t->sessiond);
  cpel_test_remove_tree (t->dir);
  g_free (t->dir);
  g_strfreev (t->env);
  g_free (t->session);
  g_free (t->url);
  g_free (t->relay);
  g_free (t);
}
