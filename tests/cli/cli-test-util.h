/* SPDX-License-Identifier: Apache-2.0 */
/* cli-test-util.h — running the built `cpel` from the CLI tests */
#pragma once

#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-test-util.h"

typedef struct
{
  int   status;   /* exit status, or -1 when killed by a signal */
  char *out;
  char *err;
} CliRun;

static inline void
cli_run_clear (CliRun *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliRun, cli_run_clear)

static inline const char *
cli_path (void)
{
  const char *cli = g_getenv ("CPEL_CLI");

  g_assert_nonnull (cli);
  return cli;
}

/* Runs `cpel ARGS...` (NULL-terminated) in the C locale; fills `r`. */
static inline void
cli_runv (CliRun *r, const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  int wait_status = 0;

  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", "C", TRUE);
  g_ptr_array_add (argv, (gpointer) cli_path ());
  for (; *args != NULL; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);

  cli_run_clear (r);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait_status, &error));
  g_assert_no_error (error);
  r->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
}

#define cli_run(r, ...) G_STMT_START { \
    const char * const cli_args_[] = { __VA_ARGS__, NULL }; \
    cli_runv ((r), cli_args_); \
  } G_STMT_END

static inline guint
count_lines (const char *s)
{
  guint n = 0;

  for (; *s; s++)
    n += *s == '\n';
  return n;
}

/* A fresh temporary directory, removed (with its files) by cli_tmpdir_free. */
static inline char *
cli_tmpdir_new (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("cpel-cli-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static inline void
cli_tmpdir_free (char *dir)
{
  cpel_test_remove_tree (dir);
  g_free (dir);
}
