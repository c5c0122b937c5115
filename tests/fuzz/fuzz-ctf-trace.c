/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-ctf-trace.c — libFuzzer target: CTF traces read through the
 * isolated reader
 *
 * The input is a stream file of the recorded LTTng trace
 * (tests/fixtures/ctf/lttng-ust-2.13-pid, process 20993), written beside
 * that trace's metadata into a scratch folder and read with
 * cpel_ctf_trace_read (): the checks made before the library reads a trace
 * (cpel-ctf-check.c) run in this process, libbabeltrace2 in the
 * cpel-ctf-reader child under its limits and watchdog (2 s here).  Whatever
 * the library does with the input — abort, loop, eat memory — must end as
 * a trace or a plain error, and an accepted trace must hold together.
 *
 * Seeds: corpus/ctf-trace/, the trace's two stream files (one packet each).
 */
#include <stdint.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-ctf-trace.h"
#include "fuzz-common.h"

#define METADATA "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809/metadata"

static char *trace_dir;
static char *stream_path;

static void
remove_trace_dir (void)
{
  g_autofree char *meta = g_build_filename (trace_dir, "metadata", NULL);
  g_unlink (meta);
  g_unlink (stream_path);
  g_rmdir (trace_dir);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autofree char *from = g_build_filename (CPEL_FUZZ_FIXTURES, METADATA, NULL);
  g_autofree char *meta = NULL;
  g_autofree char *data = NULL;
  gsize len = 0;

  fuzz_init ();
  if (!g_file_get_contents (from, &data, &len, NULL))
    {
      fprintf (stderr, "fuzz-ctf-trace: cannot read %s\n", from);
      abort ();
    }
  trace_dir = g_dir_make_tmp ("cpel-fuzz-ctf-XXXXXX", NULL);
  FUZZ_CHECK (trace_dir != NULL);
  meta = g_build_filename (trace_dir, "metadata", NULL);
  stream_path = g_build_filename (trace_dir, "ch0_0", NULL);
  FUZZ_CHECK (g_file_set_contents (meta, data, (gssize) len, NULL));
  atexit (remove_trace_dir);
  /* a reader that loops is stopped sooner than a user's would be */
  g_setenv ("CPEL_CTF_READER_TIMEOUT", "2", TRUE);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GError *error = NULL;

  FUZZ_CHECK (g_file_set_contents (stream_path, (const char *) data, (gssize) size, NULL));
  CpelCtfTrace *t = cpel_ctf_trace_read (trace_dir, NULL, NULL, NULL, &error);
  FUZZ_CHECK ((t == NULL) == (error != NULL));
  if (t == NULL)
    {
      FUZZ_CHECK (error->message != NULL && g_utf8_validate (error->message, -1, NULL));
      g_error_free (error);
      return 0;
    }
  guint64 n = cpel_ctf_trace_get_n_events (t);
  const CpelCtfEvent *ev = cpel_ctf_trace_get_events (t);
  guint64 text_end = 0;
  for (guint64 i = 0; i < n; i++)
    {
      FUZZ_CHECK (ev[i].track < cpel_ctf_trace_get_n_tracks (t));
      FUZZ_CHECK (ev[i].cls < cpel_ctf_trace_get_n_classes (t));
      FUZZ_CHECK (ev[i].text_off == text_end);
      FUZZ_CHECK (i == 0 || ev[i].ns >= ev[i - 1].ns);
      text_end += ev[i].text_len;
    }
  for (guint i = 0; i < cpel_ctf_trace_get_n_tracks (t); i++)
    FUZZ_CHECK (g_utf8_validate (cpel_ctf_trace_get_track_label (t, i), -1, NULL));
  for (guint i = 0; i < cpel_ctf_trace_get_n_classes (t); i++)
    FUZZ_CHECK (g_utf8_validate (cpel_ctf_trace_get_class_name (t, i), -1, NULL));
  cpel_ctf_trace_free (t);
  return 0;
}
