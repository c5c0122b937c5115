/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-span-cache.c — libFuzzer target: the persisted spans' reader
 *
 * The input is a spans cache file (cpel-span-cache-private.h) for a fixed
 * capture made here in memory (nested and keyed spans, orphans at both
 * ends, states) and fixed rules.  It is read twice:
 *   1. as it is (checksums checked);
 *   2. resealed (every checksum recomputed, as a hostile writer would):
 *      only the other checks stand between it and use.
 * Whatever is accepted must survive every reader of the spans (times,
 * names, keys, wakers, counts by rule, lower bounds) with every event
 * index in its track's range; what the capture's own spans serialize to
 * must be read back equal.
 *
 * Seeds: corpus/span-cache/, written by FUZZ_SPAN_CACHE_SEEDS=DIR
 * fuzz-span-cache-replay (any input file).
 */
#include <stdint.h>
#include <string.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-span-cache-private.h"
#include "cpel-spans-private.h"
#include "fuzz-common.h"

#define RULES "span x begin event=b end event=e\n" \
              "span k begin event=kb end event=ke key id restart\n" \
              "state * on event=st field.s=*\n"

static CpelFile *file;
static CpelSpanRules *rules;
static CpelIndexCacheKey key;
static GBytes *good;

static GBytes *
make_capture (void)
{
  static const struct { guint64 t; guint32 track; const char *event, *text; } ev[] = {
    { 0, 1, "e", "" }, { 5, 1, "b", "" }, { 8, 1, "b", "" }, { 9, 2, "st", "s=run" },
    { 10, 1, "e", "" }, { 12, 2, "kb", "id=1" }, { 14, 2, "kb", "id=1" }, { 15, 2, "ke", "id=1" },
    { 20, 2, "st", "s=wait" }, { 25, 3, "kb", "id=7" }, { 30, 1, "e", "" }, { 40, 1, "b", "" },
    { 50, 2, "st", "s=run" }, { 60, 3, "z", "" },
  };
  static const char *codes[] = { "b", "e", "st", "kb", "ke", "z" };
  CpelWriter *w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint32 datums[G_N_ELEMENTS (ev)];
  guint t = cpel_writer_add_string_table (w, "T");
  GBytes *bytes;

  cpel_writer_begin_event_defs (w, t);
  for (guint c = 0; c < G_N_ELEMENTS (codes); c++)
    cpel_writer_add_event_def (w, c + 1, codes[c], "%s");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 1, "track 1");
  cpel_writer_add_track_def (w, 2, "track 2");
  cpel_writer_add_track_def (w, 3, "track 3");
  for (guint i = 0; i < G_N_ELEMENTS (ev); i++)
    datums[i] = cpel_writer_add_string (w, t, ev[i].text);
  cpel_writer_begin_events (w, t, 1000000000, G_N_ELEMENTS (ev));
  for (guint i = 0; i < G_N_ELEMENTS (ev); i++)
    {
      guint code = 0;

      for (guint c = 0; c < G_N_ELEMENTS (codes); c++)
        if (strcmp (codes[c], ev[i].event) == 0)
          code = c + 1;
      cpel_writer_add_event (w, ev[i].t, ev[i].track, code, datums[i]);
    }
  FUZZ_CHECK (cpel_writer_finish (w, NULL));
  bytes = cpel_writer_steal_bytes (w);
  cpel_writer_free (w);
  return bytes;
}

/* Every span through every reader; returns a digest of what was read. */
static guint64
read_all (CpelSpans *spans)
{
  guint64 h = 0, total = 0;
  guint n_rules = cpel_span_rules_get_n_rules (rules);
  CpelSpanRuleCount *counts = g_new0 (CpelSpanRuleCount, n_rules);

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    for (int k = 0; k < 2; k++)
      {
        guint64 n, n_events = cpel_file_get_track_n_events (file, slot);
        const CpelSpan *a = k ? cpel_spans_get_track_states (spans, slot, &n)
                              : cpel_spans_get_track_spans (spans, slot, &n);

        FUZZ_CHECK (n == 0 || a != NULL);
        for (guint64 i = 0; i < n; i++)
          {
            char *field = NULL, *value = NULL, *waker;
            gint64 b = cpel_spans_begin_ns (spans, slot, &a[i]);
            gint64 e = cpel_spans_end_ns (spans, slot, &a[i]);
            const char *name = cpel_spans_get_name (spans, a[i].name);

            FUZZ_CHECK (a[i].begin < n_events && a[i].end < n_events);
            FUZZ_CHECK (name != NULL && g_utf8_validate (name, -1, NULL));
            FUZZ_CHECK (((a[i].flags & CPEL_SPAN_STATE) != 0) == (k == 1));
            h = h * 31 + (guint64) b * 7 + (guint64) e + a[i].depth + a[i].flags + strlen (name);
            if (cpel_spans_dup_key (spans, slot, &a[i], &field, &value))
              {
                FUZZ_CHECK (field != NULL && value != NULL);
                h += strlen (value);
              }
            g_free (field);
            g_free (value);
            waker = k ? cpel_spans_dup_waker (spans, slot, &a[i]) : NULL;
            g_free (waker);
            total++;
          }
        if (k == 0)
          for (gint64 t = -1; t <= 61; t += 7)
            FUZZ_CHECK (cpel_spans_track_lower_bound (spans, slot, t) <= n);
      }
  FUZZ_CHECK (total == cpel_spans_get_n_spans (spans));
  cpel_spans_count_by_rule (spans, counts, n_rules);
  g_free (counts);
  return h;
}

static void
write_seeds (const char *dir)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (good, &len);
  guint8 *buf = g_memdup2 (data, len);
  CpelSpanCacheHeader *h = (CpelSpanCacheHeader *) buf;
  gsize records = (gsize) h->records_offset;

  g_mkdir_with_parents (dir, 0755);
#define SEED(name, d, n) \
  G_STMT_START { char *p_ = g_build_filename (dir, name, NULL); \
                 FUZZ_CHECK (g_file_set_contents (p_, (const char *) (d), (gssize) (n), NULL)); \
                 g_free (p_); } G_STMT_END
  SEED ("valid", data, len);
  SEED ("truncated-header", data, sizeof *h / 2);
  SEED ("truncated-names", data, (gsize) h->names_offset + 5);
  SEED ("truncated-records", data, len - 3);
  h->version++;
  cpel_span_cache_reseal (buf, len);
  SEED ("other-version", buf, len);
  memcpy (buf, data, len);
  buf[records + 4] ^= 0x01;   /* a span's end */
  SEED ("bit-flip-records", buf, len);
  memcpy (buf, data, len);
  buf[records + 16 + 8] = 0x7f;   /* a name id past the names, resealed */
  cpel_span_cache_reseal (buf, len);
  SEED ("bad-name-resealed", buf, len);
  memcpy (buf, data, len);
  h->key.mtime_s = 1;
  cpel_span_cache_reseal (buf, len);
  SEED ("stale", buf, len);
#undef SEED
  g_free (buf);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  const char *seeds = g_getenv ("FUZZ_SPAN_CACHE_SEEDS");
  GBytes *capture;
  CpelSpans *spans;

  fuzz_init ();
  capture = make_capture ();
  file = cpel_file_new_for_bytes (capture, NULL, NULL);
  g_bytes_unref (capture);
  FUZZ_CHECK (file != NULL);
  rules = cpel_span_rules_new ();
  FUZZ_CHECK (cpel_span_rules_add_text (rules, RULES, -1, "fuzz", NULL));
  spans = cpel_spans_derive (file, rules, NULL, NULL, NULL);
  FUZZ_CHECK (spans != NULL && cpel_spans_get_n_spans (spans) == 10);
  FUZZ_CHECK (cpel_index_cache_compute_key (file, 0, &key));
  good = cpel_span_cache_serialize (spans, &key);
  {
    gsize len;
    const guint8 *data = g_bytes_get_data (good, &len);
    CpelSpans *back = cpel_span_cache_load_data (file, rules, &key, data, len, NULL);

    /* what the capture's spans serialize to reads back equal */
    FUZZ_CHECK (back != NULL && cpel_spans_is_from_cache (back));
    FUZZ_CHECK (read_all (back) == read_all (spans));
    cpel_spans_free (back);
  }
  cpel_spans_free (spans);
  if (seeds != NULL)
    write_seeds (seeds);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  guint8 *copy = g_memdup2 (data, size);
  CpelIndexCacheLoad status;
  CpelSpans *spans;

  /* 1. as it is */
  spans = cpel_span_cache_load_data (file, rules, &key, copy, size, &status);
  FUZZ_CHECK ((spans != NULL) == (status == CPEL_INDEX_CACHE_USED));
  if (spans != NULL)
    read_all (spans);
  g_clear_pointer (&spans, cpel_spans_free);

  /* 2. resealed */
  if (cpel_span_cache_reseal (copy, size))
    {
      spans = cpel_span_cache_load_data (file, rules, &key, copy, size, &status);
      FUZZ_CHECK ((spans != NULL) == (status == CPEL_INDEX_CACHE_USED));
      if (spans != NULL)
        read_all (spans);
      g_clear_pointer (&spans, cpel_spans_free);
    }
  g_free (copy);
  return 0;
}
