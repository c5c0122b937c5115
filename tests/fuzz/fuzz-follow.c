/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-follow.c — libFuzzer target: a CPEL file followed while it grows
 * (cpel-follow.c)
 *
 * The input is written to a file in three appends (at a third and two
 * thirds of its length), the follower polled after each, then the same
 * bytes are fed through a pipe in the same pieces (stream mode).  Checked:
 * no crash, no read outside what was written (the sanitizers), an error
 * with a message, never more events per poll than asked, every event's
 * strings set, and the same events, in the same order, both ways.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-follow.h"
#include "fuzz-common.h"

#define MAX_PER_POLL 7
#define PIPE_MAX     32768     /* below a pipe's capacity: writes never block */

static char *scratch_dir;
static char *in_path;

static void
remove_scratch (void)
{
  g_unlink (in_path);
  g_rmdir (scratch_dir);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  scratch_dir = g_dir_make_tmp ("cpel-fuzz-follow-XXXXXX", NULL);
  FUZZ_CHECK (scratch_dir != NULL);
  in_path = g_build_filename (scratch_dir, "in.cpel", NULL);
  atexit (remove_scratch);
  return 0;
}

/* Polls until nothing more comes (or an error), appending each event as a
 * line to `out`; FALSE on an error. */
static gboolean
drain (CpelFollower *f,
       GString      *out)
{
  for (guint round = 0; round < 100000; round++)
    {
      GError *error = NULL;
      CpelFollowInfo info;
      gsize n = cpel_follower_poll (f, MAX_PER_POLL, &info, &error);

      FUZZ_CHECK (n <= MAX_PER_POLL);
      if (error != NULL)
        {
          FUZZ_CHECK (n == 0 && error->message[0] != '\0');
          g_error_free (error);
          return FALSE;
        }
      for (gsize i = 0; i < n; i++)
        {
          const CpelFollowEvent *ev = cpel_follower_event (f, i);

          FUZZ_CHECK (ev->track_label != NULL && ev->name != NULL && ev->datum != NULL);
          g_string_append_printf (out, "%" G_GINT64_FORMAT " %u %u %u ", ev->time_ns,
                                  ev->track_id, ev->code, ev->datum_value);
          g_string_append (out, ev->track_label);
          g_string_append_c (out, ' ');
          g_string_append (out, ev->name);
          g_string_append_c (out, ' ');
          g_string_append (out, ev->datum);
          g_string_append_c (out, '\n');
        }
      if (n == 0)
        return TRUE;
    }
  FUZZ_CHECK (!"the follower never stopped returning events");
  return FALSE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  gsize cut[4] = { 0, size / 3, 2 * size / 3, size };
  GString *by_file = g_string_new (NULL), *by_pipe = g_string_new (NULL);
  gboolean file_ok = TRUE, pipe_ok = TRUE;
  CpelFollower *f;
  FILE *fp;

  FUZZ_CHECK (g_file_set_contents (in_path, "", 0, NULL));
  f = cpel_follower_new (in_path, 0, NULL);
  FUZZ_CHECK (f != NULL);
  for (guint k = 0; k < 3 && file_ok; k++)
    {
      fp = fopen (in_path, "ab");
      FUZZ_CHECK (fp != NULL);
      if (cut[k + 1] > cut[k])
        FUZZ_CHECK (fwrite (data + cut[k], 1, cut[k + 1] - cut[k], fp) == cut[k + 1] - cut[k]);
      FUZZ_CHECK (fclose (fp) == 0);
      file_ok = drain (f, by_file);
    }
  cpel_follower_free (f);

  if (size <= PIPE_MAX)
    {
      int fds[2];

      FUZZ_CHECK (pipe (fds) == 0);
      f = cpel_follower_new_for_fd (fds[0], 0);
      for (guint k = 0; k < 3 && pipe_ok; k++)
        {
          if (cut[k + 1] > cut[k])
            FUZZ_CHECK (write (fds[1], data + cut[k], cut[k + 1] - cut[k])
                        == (gssize) (cut[k + 1] - cut[k]));
          pipe_ok = drain (f, by_pipe);
        }
      close (fds[1]);
      if (pipe_ok)
        pipe_ok = drain (f, by_pipe);
      cpel_follower_free (f);
      close (fds[0]);
      /* the same bytes, the same events (up to an error, which both meet) */
      FUZZ_CHECK (file_ok == pipe_ok);
      FUZZ_CHECK (strcmp (by_file->str, by_pipe->str) == 0);
    }
  g_string_free (by_file, TRUE);
  g_string_free (by_pipe, TRUE);
  return 0;
}
