/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-span-rules.c — libFuzzer target: a span rules file
 *
 * The input is the rules text.  cpel_span_rules_add_text must accept it or
 * fail with a syntax error "SOURCE:LINE:COLUMN: …" (line and column within
 * the input) and append nothing; what it accepts must survive a normal
 * form round trip unchanged, and derive spans on a small capture (events
 * with names and texts that globs, fields and regexes can match): every
 * span inside the capture, begin <= end, sorted by begin; the statistics
 * count every span once.
 */
#include <stdint.h>
#include "cpel-loader.h"
#include <string.h>

#include "cpel-core.h"
#include "fuzz-common.h"

static CpelFile *capture;

static CpelFile *
make_capture (void)
{
  static const struct { guint64 t; guint32 track; const char *name, *text; } evs[] = {
    { 0, 1, "dpdk-input-call:", "dpdk-input-call: 3" },
    { 5, 1, "ip4-lookup-call:", "ip4-lookup-call: 3" },
    { 7, 1, "ip4-lookup-return:", "ip4-lookup-return: 3" },
    { 9, 1, "dpdk-input-return:", "dpdk-input-return: 3" },
    { 9, 2, "engine.breath_start", "breath=1 totalpackets=3" },
    { 12, 2, "engine.breath_end", "breath=1 totalpackets=5" },
    { 13, 2, "engine.breath_end", "breath=0 totalpackets=5" },
    { 15, 3, "process", "process tw start" },
    { 15, 3, "process", "process tw end: 2" },
    { 20, 3, "cli-cmd:", "show run" },
    { 21, 3, "lib.eal.service.run.begin", "id = 1, lcore = 3, s = \"a b\"" },
    { 25, 3, "cli-cmd:", "show run OK" },
    { 26, 1, "b", "" },
    { 26, 1, "b", "x" },
    { 30, 3, "lib.eal.service.run.end", "id = 1, lcore = 3" },
  };
  CpelWriter *w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  guint32 datums[G_N_ELEMENTS (evs)];
  GError *error = NULL;
  GBytes *bytes;
  CpelFile *file;

  cpel_writer_begin_event_defs (w, t);
  for (guint i = 0; i < G_N_ELEMENTS (evs); i++)
    cpel_writer_add_event_def (w, i + 1, evs[i].name, "%s");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 1, "workers 1");
  cpel_writer_add_track_def (w, 2, "engine");
  cpel_writer_add_track_def (w, 3, "main");
  for (guint i = 0; i < G_N_ELEMENTS (evs); i++)
    datums[i] = cpel_writer_add_string (w, t, evs[i].text);
  cpel_writer_begin_events (w, t, 1000000000, G_N_ELEMENTS (evs));
  for (guint i = 0; i < G_N_ELEMENTS (evs); i++)
    cpel_writer_add_event (w, evs[i].t, evs[i].track, i + 1, datums[i]);
  if (!cpel_writer_finish (w, &error))
    g_error ("capture: %s", error->message);
  bytes = cpel_writer_steal_bytes (w);
  cpel_writer_free (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  if (file == NULL)
    g_error ("capture: %s", error->message);
  g_bytes_unref (bytes);
  return file;
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  (void) argc;
  (void) argv;
  fuzz_init ();
  capture = make_capture ();
  return 0;
}

static void
check_spans (CpelSpanRules *rules)
{
  GError *error = NULL;
  CpelSpans *spans = cpel_spans_derive (capture, rules, NULL, NULL, &error);
  CpelSpanSummary *sum;
  guint64 n_all = 0, counted = 0;

  FUZZ_CHECK (spans != NULL && error == NULL);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (capture); slot++)
    for (guint k = 0; k < 2; k++)
      {
        guint64 n;
        const CpelSpan *a = k ? cpel_spans_get_track_states (spans, slot, &n)
                              : cpel_spans_get_track_spans (spans, slot, &n);

        n_all += n;
        for (guint64 i = 0; i < n; i++)
          {
            gint64 b = cpel_spans_begin_ns (spans, slot, &a[i]);
            gint64 e = cpel_spans_end_ns (spans, slot, &a[i]);

            FUZZ_CHECK (0 <= b && b <= e && e <= cpel_file_get_duration (capture));
            FUZZ_CHECK (a[i].name < cpel_spans_get_n_names (spans));
            FUZZ_CHECK (((a[i].flags & CPEL_SPAN_STATE) != 0) == (k == 1));
            FUZZ_CHECK (a[i].begin < cpel_file_get_track_n_events (capture, slot));
            FUZZ_CHECK (a[i].end < cpel_file_get_track_n_events (capture, slot));
            if (i > 0)
              FUZZ_CHECK (cpel_spans_begin_ns (spans, slot, &a[i - 1]) <= b);
          }
      }
  FUZZ_CHECK (n_all == cpel_spans_get_n_spans (spans));

  sum = cpel_span_summary_compute (capture, rules, NULL, TRUE, NULL, &error);
  FUZZ_CHECK (sum != NULL && error == NULL);
  for (guint t = CPEL_SPAN_TABLE_TRACKS; t <= CPEL_SPAN_TABLE_STATES; t++)
    for (guint i = 0; i < cpel_span_summary_get_n_rows (sum, t); i++)
      {
        const CpelSpanRow *r = cpel_span_summary_get_row (sum, t, i);

        FUZZ_CHECK (r->min_ns <= r->mean_ns && r->mean_ns <= r->max_ns);
        counted += r->count;
      }
  /* with the orphans counted, every span and state is in one row */
  FUZZ_CHECK (counted == n_all);
  for (guint t = CPEL_SPAN_TABLE_SPANS; t <= CPEL_SPAN_TABLE_STATES; t++)
    {
      char *csv = cpel_span_summary_to_csv (sum, t);
      char *text = cpel_span_summary_to_text (sum, t);

      FUZZ_CHECK (g_utf8_validate (csv, -1, NULL));
      g_free (csv);
      g_free (text);
    }
  cpel_span_summary_free (sum);
  cpel_spans_free (spans);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  CpelSpanRules *rules = cpel_span_rules_new ();
  GError *error = NULL;

  if (size > 65536)
    size = 65536;
  if (!cpel_span_rules_add_text (rules, (const char *) data, (gssize) size, "in", &error))
    {
      guint line = 0, column = 0;

      FUZZ_CHECK (error != NULL);
      FUZZ_CHECK (error->domain == CPEL_SPAN_RULES_ERROR);
      FUZZ_CHECK (sscanf (error->message, "in:%u:%u: ", &line, &column) == 2);
      FUZZ_CHECK (line >= 1 && column >= 1);
      FUZZ_CHECK (g_utf8_validate (error->message, -1, NULL));
      FUZZ_CHECK (cpel_span_rules_get_n_rules (rules) == 0);
      g_error_free (error);
    }
  else
    {
      char *text = cpel_span_rules_to_text (rules);
      CpelSpanRules *again = cpel_span_rules_new ();
      char *text2;

      FUZZ_CHECK (error == NULL);
      if (!cpel_span_rules_add_text (again, text, -1, "normal", &error))
        {
          fprintf (stderr, "normal form not read back: %s\n", error->message);
          abort ();
        }
      text2 = cpel_span_rules_to_text (again);
      FUZZ_CHECK (strcmp (text, text2) == 0);
      FUZZ_CHECK (cpel_span_rules_get_n_rules (again) == cpel_span_rules_get_n_rules (rules));
      g_free (text);
      g_free (text2);
      cpel_span_rules_unref (again);
      if (cpel_span_rules_get_n_rules (rules) <= 64)
        check_spans (rules);
    }
  cpel_span_rules_unref (rules);
  return 0;
}
