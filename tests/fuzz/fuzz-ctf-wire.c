/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-ctf-wire.c — libFuzzer target: what the CTF reader child writes back
 * (cpel-ctf-wire.h), read by the parent as untrusted input
 *
 * libbabeltrace2 runs in cpel-ctf-reader, a child process under limits:
 * a damaged trace that makes it abort, loop or eat memory kills or stalls
 * that child only (tests/core/test-ctf-damaged.c).  What must never fail is
 * the parent's reading of whatever the child wrote before it died or went
 * astray: this target feeds the input as the reader's output.  Whatever is
 * accepted must hold together: every event's track and class in range, its
 * text within the text read, every accessor callable.
 *
 * Seeds: corpus/ctf-wire/, the reader's output for the fixture traces
 * (cpel-ctf-reader TRACE-FOLDER > FILE), whole and cut.
 */
#include <stdint.h>
#include <string.h>

#include "cpel-ctf-trace.h"
#include "fuzz-common.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GError *error = NULL;
  CpelCtfTrace *t = cpel_ctf_trace_new_from_wire (data, size, &error);

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
      text_end += ev[i].text_len;
      const char *text = cpel_ctf_trace_get_text (t, &ev[i]);
      volatile char sink = ev[i].text_len > 0 ? text[ev[i].text_len - 1] : 0;
      (void) sink;
    }
  for (guint i = 0; i < cpel_ctf_trace_get_n_tracks (t); i++)
    FUZZ_CHECK (g_utf8_validate (cpel_ctf_trace_get_track_label (t, i), -1, NULL));
  for (guint i = 0; i < cpel_ctf_trace_get_n_classes (t); i++)
    FUZZ_CHECK (g_utf8_validate (cpel_ctf_trace_get_class_name (t, i), -1, NULL));
  GPtrArray *notes = cpel_ctf_trace_get_notes (t);
  for (guint i = 0; i < notes->len; i++)
    FUZZ_CHECK (g_utf8_validate (notes->pdata[i], -1, NULL));
  const char *clock = cpel_ctf_trace_get_clock_name (t);
  FUZZ_CHECK (clock == NULL || g_utf8_validate (clock, -1, NULL));
  cpel_ctf_trace_free (t);
  return 0;
}
