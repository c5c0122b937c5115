/* test-malformed-cli.c — `cpel info` and `cpel dump` on the malformed corpus
 *
 * For every case that the loader rejects, both commands must exit with
 * status 1 and write exactly one line to stderr, naming the offset of the
 * fault; for the cases that load, both must exit 0.  CPEL_CLI is the CLI.
 */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "malformed-cases.h"

static char *tmpdir;

static void
run_cli (const MalformedCase *c,
         const char          *command)
{
  const char *cli = g_getenv ("CPEL_CLI");
  g_autoptr(GBytes) bytes = malformed_build (c);
  g_autofree char *name = g_strconcat (c->name, ".cpel", NULL);
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { cli, command, path, NULL };
  gsize len;
  gconstpointer p = g_bytes_get_data (bytes, &len);
  int status;

  if (cli == NULL)
    {
      g_test_skip ("CPEL_CLI is not set");
      return;
    }
  g_assert_true (g_file_set_contents (path, p, len, NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_unlink (path);

  g_assert_true (WIFEXITED (status));
  if (c->code < 0)
    {
      if (WEXITSTATUS (status) != 0)
        g_error ("cpel %s %s: exit %d, stderr: %s", command, c->name, WEXITSTATUS (status), err);
      return;
    }
  if (WEXITSTATUS (status) != 1)
    g_error ("cpel %s %s: exit %d (1 expected), stderr: %s", command, c->name, WEXITSTATUS (status), err);
  /* one non-empty line */
  if (strlen (err) < 2 || strchr (err, '\n') != err + strlen (err) - 1)
    g_error ("cpel %s %s: stderr is not one line: “%s”", command, c->name, err);
  if (strstr (err, c->needle) == NULL)
    g_error ("cpel %s %s: “%s” does not name “%s”", command, c->name, err, c->needle);
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
