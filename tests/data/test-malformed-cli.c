/* SPDX-License-Identifier: Apache-2.0 */
/* test-malformed-cli.c — `cpel info` and `cpel dump` on the malformed corpus
 *
 * For every case that the loader rejects, both commands must exit with
 * status 1 and write exactly one line to stderr, naming the offset of the
 * fault; for the cases that load, both must exit 0.  CPEL_CLI is the CLI.
 * With CPEL_CLI_VALGRIND set (valgrind's path), the CLI runs under
 * valgrind's memcheck; an error it finds makes the exit status 99.
 */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "malformed-cases.h"

static char *tmpdir;

/* The failure of `cpel COMMAND` on the case, or NULL. */
static char *
check_cli (const MalformedCase *c,
           const char          *command,
           int                  status,
           const char          *err)
{
  if (!WIFEXITED (status))
    return g_strdup_printf ("cpel %s %s: killed by signal %d, stderr: %s", command, c->name,
                            WTERMSIG (status), err);
  if (c->code < 0)
    {
      if (WEXITSTATUS (status) != 0)
        return g_strdup_printf ("cpel %s %s: exit %d, stderr: %s", command, c->name,
                                WEXITSTATUS (status), err);
      return NULL;
    }
  if (WEXITSTATUS (status) != 1)
    return g_strdup_printf ("cpel %s %s: exit %d (1 expected), stderr: %s", command, c->name,
                            WEXITSTATUS (status), err);
  /* one non-empty line */
  if (strlen (err) < 2 || strchr (err, '\n') != err + strlen (err) - 1)
    return g_strdup_printf ("cpel %s %s: stderr is not one line: “%s”", command, c->name, err);
  if (strstr (err, c->needle) == NULL)
    return g_strdup_printf ("cpel %s %s: “%s” does not name “%s”", command, c->name, err, c->needle);
  return NULL;
}

/* Cases listed (comma-separated) in CPEL_KNOWN_BAD fail for a reported,
 * not yet fixed bug: their failure is reported as TODO (an expected
 * failure), not as a failure. */
static gboolean
known_bad (const MalformedCase *c)
{
  const char *list = g_getenv ("CPEL_KNOWN_BAD");
  g_auto(GStrv) names = list ? g_strsplit (list, ",", -1) : NULL;

  return names != NULL && g_strv_contains ((const char * const *) names, c->name);
}

static void
run_cli (const MalformedCase *c,
         const char          *command)
{
  const char *cli = g_getenv ("CPEL_CLI");
  g_autoptr(GBytes) bytes = malformed_build (c);
  g_autofree char *name = g_strconcat (c->name, ".cpel", NULL);
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autofree char *out = NULL, *err = NULL, *failure = NULL;
  g_autoptr(GError) error = NULL;
  const char *valgrind = g_getenv ("CPEL_CLI_VALGRIND");
  const char *argv[] = { valgrind, "-q", "--error-exitcode=99", cli, command, path, NULL };
  const char **args = valgrind ? argv : argv + 3;
  gsize len;
  gconstpointer p = g_bytes_get_data (bytes, &len);
  int status;

  if (cli == NULL)
    {
      g_test_skip ("CPEL_CLI is not set");
      return;
    }
  g_assert_true (g_file_set_contents (path, p, len, NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_unlink (path);

  failure = check_cli (c, command, status, err);
  if (failure == NULL)
    return;
  g_strdelimit (failure, "\n", ' ');   /* one TAP line */
  if (known_bad (c))
    g_test_incomplete (failure);
  else
    g_test_fail_printf ("%s", failure);
}

static void
test_info (gconstpointer data)
{
  run_cli (data, "info");
}

static void
test_dump (gconstpointer data)
{
  run_cli (data, "dump");
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("cpel-malformed-cli-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);

  for (guint i = 0; i < G_N_ELEMENTS (malformed_cases); i++)
    {
      const MalformedCase *c = &malformed_cases[i];
      g_autofree char *p1 = g_strconcat ("/cli/malformed/info/", c->name, NULL);
      g_autofree char *p2 = g_strconcat ("/cli/malformed/dump/", c->name, NULL);

      g_test_add_data_func (p1, c, test_info);
      g_test_add_data_func (p2, c, test_dump);
    }

  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
