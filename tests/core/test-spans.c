/* SPDX-License-Identifier: Apache-2.0 */
/* test-spans.c — span rules, the span engine and its statistics */
#include <stdlib.h>
#include "cpel-loader.h"
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "cpel-core.h"
#include "cpel-file-private.h"
#include "cpel-span-rules-private.h"
#include "cpel-test-util.h"

/* ---- synthetic captures -------------------------------------------------- */

typedef struct
{
  guint64     t;       /* ticks = ns */
  guint32     track;
  const char *event;
  const char *text;    /* the datum (%s), or NULL */
} Ev;

/* The events in `parts` event sections, one after the other. */
static GBytes *
make_bytes_split (const Ev *evs,
                  guint     n,
                  guint     parts);

static GBytes *
make_bytes (const Ev *evs,
            guint     n)
{
  return make_bytes_split (evs, n, 1);
}

static GBytes *
make_bytes_split (const Ev *evs,
                  guint     n,
                  guint     parts)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GHashTable) codes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) tracks = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree guint32 *datums = g_new0 (guint32, MAX (n, 1));
  guint t = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_event_defs (w, t);
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (codes, evs[i].event))
      {
        guint code = g_hash_table_size (codes) + 1;

        g_hash_table_insert (codes, (gpointer) evs[i].event, GUINT_TO_POINTER (code));
        cpel_writer_add_event_def (w, code, evs[i].event, "%s");
      }
  /* at least one definition, for the file with no events */
  if (n == 0)
    cpel_writer_add_event_def (w, 1, "b", "%s");
  cpel_writer_begin_track_defs (w, t);
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (tracks, GUINT_TO_POINTER (evs[i].track)))
      {
        g_autofree char *label = g_strdup_printf ("track %u", evs[i].track);

        g_hash_table_add (tracks, GUINT_TO_POINTER (evs[i].track));
        cpel_writer_add_track_def (w, evs[i].track, label);
      }
  for (guint i = 0; i < n; i++)
    datums[i] = cpel_writer_add_string (w, t, evs[i].text ? evs[i].text : "");
  for (guint p = 0; p < parts; p++)
    {
      guint a = (guint) ((guint64) n * p / parts), b = (guint) ((guint64) n * (p + 1) / parts);

      cpel_writer_begin_events (w, t, 1000000000, b - a);
      for (guint i = a; i < b; i++)
        cpel_writer_add_event (w, evs[i].t, evs[i].track,
                               GPOINTER_TO_UINT (g_hash_table_lookup (codes, evs[i].event)),
                               datums[i]);
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return cpel_writer_steal_bytes (w);
}

static CpelFile *
make_file (const Ev *evs,
           guint     n)
{
  g_autoptr(GBytes) bytes = make_bytes (evs, n);

  return cpel_test_file_for_bytes (bytes, NULL);
}

static CpelSpanRules *
rules_of (const char *text,
          gboolean    builtin)
{
  CpelSpanRules *rules = builtin ? cpel_span_rules_new_builtin () : cpel_span_rules_new ();
  g_autoptr(GError) error = NULL;

  if (text != NULL)
    g_assert_true (cpel_span_rules_add_text (rules, text, -1, "test", &error));
  g_assert_no_error (error);
  return rules;
}

static void
append_spans (GString        *out,
              CpelSpans      *spans,
              guint           slot,
              const CpelSpan *a,
              guint64         n)
{
  for (guint64 i = 0; i < n; i++)
    {
      const CpelSpan *s = &a[i];

      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%u:%s[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "]",
                              slot,
                              cpel_spans_get_name (spans, s->name),
                              cpel_spans_begin_ns (spans, slot, s),
                              cpel_spans_end_ns (spans, slot, s));
      if (s->depth > 0)
        g_string_append_printf (out, "d%u", s->depth);
      if (s->flags & CPEL_SPAN_NO_BEGIN)
        g_string_append (out, "<");
      if (s->flags & CPEL_SPAN_NO_END)
        g_string_append (out, ">");
      if (s->flags & CPEL_SPAN_INTERRUPTED)
        g_string_append (out, "!");
    }
}

/* Every span (then every state) as "slot:name[begin,end]" plus d<depth> and
 * the flags: < no begin, > no end, ! interrupted; in track order. */
static char *
spans_string (CpelFile               *file,
              const char             *rules_text,
              gboolean                builtin,
              const CpelSpansOptions *options)
{
  g_autoptr(CpelSpanRules) rules = rules_of (rules_text, builtin);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpans) spans = cpel_spans_derive (file, rules, options, NULL, &error);
  GString *out = g_string_new (NULL);
  guint64 n;

  g_assert_no_error (error);
  g_assert_nonnull (spans);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      const CpelSpan *a = cpel_spans_get_track_spans (spans, slot, &n);

      append_spans (out, spans, slot, a, n);
    }
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      const CpelSpan *a = cpel_spans_get_track_states (spans, slot, &n);

      append_spans (out, spans, slot, a, n);
    }
  return g_string_free (out, FALSE);
}

static CpelSpanSummary *
summary_of (CpelFile   *file,
            const char *rules_text,
            gboolean    unfinished)
{
  g_autoptr(CpelSpanRules) rules = rules_of (rules_text, FALSE);
  g_autoptr(GError) error = NULL;
  CpelSpanSummary *s = cpel_span_summary_compute (file, rules, NULL, unfinished, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

#define NEST    "span x begin event=b end event=e\n"
#define RESTART "span x begin event=b end event=e restart\n"

static void
test_nesting (void)
{
  const Ev evs[] = {
    { 0, 1, "b", NULL }, { 10, 1, "b", NULL }, { 20, 1, "e", NULL }, { 40, 1, "e", NULL },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *s = spans_string (file, NEST, FALSE, NULL);
  g_autoptr(CpelSpanSummary) sum = summary_of (file, NEST, FALSE);
  const CpelSpanRow *r;

  g_assert_cmpstr (s, ==, "0:x[0,40] 0:x[10,20]d1");
  g_assert_cmpuint (cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_SPANS), ==, 1);
  r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_SPANS, 0);
  g_assert_cmpuint (r->count, ==, 2);
  g_assert_cmpuint (r->total_ns, ==, 50);
  g_assert_cmpint (r->min_ns, ==, 10);
  g_assert_cmpint (r->p50_ns, ==, 10);
  g_assert_cmpint (r->p90_ns, ==, 40);
  g_assert_cmpint (r->max_ns, ==, 40);
  g_assert_cmpint (r->mean_ns, ==, 25);
  g_assert_cmpuint (r->orphan_begins + r->orphan_ends, ==, 0);

  {
    const Ev deep[] = {
      { 0, 1, "b", NULL }, { 10, 1, "b", NULL }, { 20, 1, "e", NULL }, { 25, 1, "b", NULL },
      { 27, 1, "b", NULL }, { 28, 1, "e", NULL }, { 30, 1, "e", NULL }, { 40, 1, "e", NULL },
    };
    g_autoptr(CpelFile) f2 = make_file (deep, G_N_ELEMENTS (deep));
    g_autofree char *s2 = spans_string (f2, NEST, FALSE, NULL);

    /* kept in begin order although they end inner first */
    g_assert_cmpstr (s2, ==, "0:x[0,40] 0:x[10,20]d1 0:x[25,30]d1 0:x[27,28]d2");
  }
}

/* Self time: a span's duration less its children's (one deeper, on its
 * track), summed per name; the population standard deviation. */
static void
test_self_stddev (void)
{
  const Ev deep[] = {
    { 0, 1, "b", NULL }, { 10, 1, "b", NULL }, { 20, 1, "e", NULL }, { 25, 1, "b", NULL },
    { 27, 1, "b", NULL }, { 28, 1, "e", NULL }, { 30, 1, "e", NULL }, { 40, 1, "e", NULL },
    /* another track: y [0, 9] alone, and x [50, 60] holding y [52, 55] */
    { 0, 2, "B", NULL }, { 9, 2, "E", NULL }, { 50, 2, "b", NULL }, { 52, 2, "B", NULL },
    { 55, 2, "E", NULL }, { 60, 2, "e", NULL },
  };
  g_autoptr(CpelFile) file = make_file (deep, G_N_ELEMENTS (deep));
  g_autoptr(CpelSpanSummary) sum = summary_of (file, NEST "span y begin event=B end event=E\n",
                                               FALSE);
  const CpelSpanRow *x, *y;

  g_assert_cmpuint (cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_SPANS), ==, 2);
  x = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_SPANS, 0);
  y = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_SPANS, 1);
  g_assert_cmpstr (x->name, ==, "x");
  /* x: 40 (self 40 - 10 - 5 = 25), 10, 5 (self 4), 1, and 10 on track 2
   * (self 10 - 3 = 7) */
  g_assert_cmpuint (x->count, ==, 5);
  g_assert_cmpuint (x->total_ns, ==, 66);
  g_assert_cmpuint (x->self_ns, ==, 25 + 10 + 4 + 1 + 7);
  /* mean 13.2; squared deviations 718.24 + 10.24 + 67.24 + 148.84 + 10.24
   * = 954.8, / 5 = 190.96, sqrt 13.82 */
  g_assert_cmpint (x->stddev_ns, ==, 14);
  g_assert_cmpstr (y->name, ==, "y");
  g_assert_cmpuint (y->self_ns, ==, 12);
  /* 9 and 3: sigma 3 */
  g_assert_cmpint (y->stddev_ns, ==, 3);
  /* per track: track 1's x 40, track 2's x 7 */
  for (guint i = 0; i < cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_TRACKS); i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_TRACKS, i);

      if (g_str_equal (r->name, "x"))
        g_assert_cmpuint (r->self_ns, ==, r->slot == 0 ? 40 : 7);
    }
}

static const Ev orphan_evs[] = {
  { 0, 2, "z", NULL },
  { 5, 1, "e", NULL }, { 10, 1, "b", NULL }, { 20, 1, "e", NULL }, { 50, 1, "b", NULL },
  { 100, 2, "z", NULL },
};

static void
test_orphans (void)
{
  g_autoptr(CpelFile) file = make_file (orphan_evs, G_N_ELEMENTS (orphan_evs));
  g_autofree char *s = spans_string (file, NEST, FALSE, NULL);
  g_autoptr(CpelSpanSummary) sum = summary_of (file, NEST, FALSE);
  g_autoptr(CpelSpanSummary) all = summary_of (file, NEST, TRUE);
  const CpelSpanRow *r;
  g_autofree char *csv = NULL;

  /* the end drawn from the capture's start, the begin to its last event */
  g_assert_cmpstr (s, ==, "0:x[0,5]< 0:x[10,20] 0:x[50,100]>");
  r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_SPANS, 0);
  g_assert_cmpuint (r->count, ==, 1);
  g_assert_cmpuint (r->total_ns, ==, 10);
  g_assert_cmpuint (r->orphan_begins, ==, 1);
  g_assert_cmpuint (r->orphan_ends, ==, 1);
  r = cpel_span_summary_get_row (all, CPEL_SPAN_TABLE_SPANS, 0);
  g_assert_cmpuint (r->count, ==, 3);
  g_assert_cmpuint (r->total_ns, ==, 5 + 10 + 50);
  g_assert_cmpuint (r->orphan_begins, ==, 1);

  csv = cpel_span_summary_to_csv (sum, CPEL_SPAN_TABLE_TRACKS);
  g_assert_cmpstr (csv, ==,
                   "track,span,count,total_ns,min_ns,mean_ns,max_ns,orphan_begins,orphan_ends\r\n"
                   "track 1,x,1,10,10,10,10,1,1\r\n");
}

static void
test_second_begin (void)
{
  const Ev evs[] = {
    { 0, 1, "b", NULL }, { 10, 1, "b", NULL }, { 30, 1, "e", NULL }, { 100, 1, "z", NULL },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *restart = spans_string (file, RESTART, FALSE, NULL);
  g_autofree char *nest = spans_string (file, NEST, FALSE, NULL);
  g_autoptr(CpelSpanSummary) sum = summary_of (file, RESTART, FALSE);
  const CpelSpanRow *r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_SPANS, 0);

  /* restart: the first ends, interrupted, where the second begins */
  g_assert_cmpstr (restart, ==, "0:x[0,10]! 0:x[10,30]");
  /* nesting: the end closes the inner one, the outer stays open */
  g_assert_cmpstr (nest, ==, "0:x[0,100]> 0:x[10,30]d1");
  g_assert_cmpuint (r->count, ==, 1);
  g_assert_cmpuint (r->total_ns, ==, 20);
  g_assert_cmpuint (r->orphan_begins, ==, 1);
  g_assert_cmpuint (r->orphan_ends, ==, 0);
}

static void
test_keys (void)
{
  const Ev evs[] = {
    { 0, 1, "b", "id=1" }, { 3, 2, "e", "id=1" }, { 5, 1, "b", "x=0 id=2" },
    { 10, 1, "e", "id=1" }, { 20, 1, "e", "id = 2, more" }, { 30, 1, "e", "xid=2" },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *s = spans_string (file, "span k begin event=b end event=e key id restart",
                                     FALSE, NULL);

  /* interleaved keys pair by key; another track's end pairs with nothing;
   * "xid=2" has no id: the empty key, no begin */
  g_assert_cmpstr (s, ==, "0:k[0,30]< 0:k[0,10] 0:k[5,20]d1 1:k[0,3]<");
}

/* A span's key (its rule's key field, from the begin event's text) and a
 * state's waker (the `waker` field of the wake-up that began it). */
static void
test_key_waker (void)
{
  const Ev evs[] = {
    { 0, 1, "b", "breath=41" }, { 3, 1, "e", "breath=41" },
    { 5, 1, "c", "n=1" }, { 6, 1, "d", "n=1" },
    { 10, 2, "sched_switch: out", "CPU 0, prev_state=S" },
    { 20, 2, "sched_waking: woken", "waker=\"sh [7]\", CPU 1" },
    { 30, 2, "sched_switch: in", "CPU 0" },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autoptr(CpelSpanRules) rules = rules_of ("span k begin event=b end event=e key breath\n"
                                             "span c begin event=c end event=d\n", TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpans) spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  const CpelSpan *a;
  guint64 n = 0;
  char *field, *value, *waker;

  g_assert_no_error (error);
  a = cpel_spans_get_track_spans (spans, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (cpel_spans_dup_key (spans, 0, &a[0], &field, &value));
  g_assert_cmpstr (field, ==, "breath");
  g_assert_cmpstr (value, ==, "41");
  g_free (field);
  g_free (value);
  /* a rule without a key */
  g_assert_false (cpel_spans_dup_key (spans, 0, &a[1], &field, &value));
  g_assert_null (field);
  g_assert_null (value);
  g_assert_null (cpel_spans_dup_waker (spans, 0, &a[0]));

  /* Sleeping [10, 20), Runnable [20, 30) woken by sh [7], Running [30, …) */
  a = cpel_spans_get_track_states (spans, 1, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (cpel_spans_get_name (spans, a[1].name), ==, "Runnable");
  waker = cpel_spans_dup_waker (spans, 1, &a[1]);
  g_assert_cmpstr (waker, ==, "sh [7]");
  g_free (waker);
  g_assert_null (cpel_spans_dup_waker (spans, 1, &a[0]));
  g_assert_null (cpel_spans_dup_waker (spans, 1, &a[2]));
  g_assert_false (cpel_spans_dup_key (spans, 1, &a[1], &field, &value));
}

static void
test_equal_times (void)
{
  const Ev evs[] = {
    { 10, 1, "b", NULL }, { 10, 1, "e", NULL },
    { 20, 1, "e", NULL }, { 20, 1, "b", NULL },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *s = spans_string (file, RESTART, FALSE, NULL);

  /* file order breaks the tie: begin then end is a span of 0 ns; end then
   * begin an orphan end and an unfinished begin */
  g_assert_cmpstr (s, ==, "0:x[0,10]< 0:x[0,0] 0:x[10,10]>");
}

static void
test_wrapped_ring (void)
{
  /* a ring written from its oldest slot: the newest events come first in
   * the file, the capture begins inside a span */
  const Ev ring[] = {
    { 150, 1, "b", NULL }, { 160, 1, "e", NULL }, { 170, 1, "b", NULL },
    { 110, 1, "e", NULL }, { 120, 1, "b", NULL }, { 130, 1, "e", NULL },
  };
  const Ev sorted[] = {
    { 110, 1, "e", NULL }, { 120, 1, "b", NULL }, { 130, 1, "e", NULL },
    { 150, 1, "b", NULL }, { 160, 1, "e", NULL }, { 170, 1, "b", NULL },
  };
  g_autoptr(CpelFile) a = make_file (ring, G_N_ELEMENTS (ring));
  g_autoptr(CpelFile) b = make_file (sorted, G_N_ELEMENTS (sorted));
  g_autofree char *sa = spans_string (a, RESTART, FALSE, NULL);
  g_autofree char *sb = spans_string (b, RESTART, FALSE, NULL);

  g_assert_cmpstr (sa, ==, "0:x[0,0]< 0:x[10,20] 0:x[40,50] 0:x[60,60]>");
  g_assert_cmpstr (sa, ==, sb);
}

static void
test_no_events (void)
{
  g_autoptr(CpelFile) file = make_file (NULL, 0);
  g_autofree char *s = spans_string (file, NEST, TRUE, NULL);
  g_autoptr(CpelSpanSummary) sum = summary_of (file, NEST, FALSE);
  g_autofree char *csv = cpel_span_summary_to_csv (sum, CPEL_SPAN_TABLE_SPANS);

  g_assert_cmpstr (s, ==, "");
  g_assert_cmpuint (cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_SPANS), ==, 0);
  g_assert_cmpstr (csv, ==, "span,count,total_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,"
                            "orphan_begins,orphan_ends\r\n");
}

static void
test_captured_names (void)
{
  const Ev evs[] = {
    { 0, 1, "ip4-lookup-return:", "7" },
    { 10, 1, "dpdk-input-call:", "3" }, { 12, 1, "ip4-lookup-call:", "3" },
    { 15, 1, "ip4-lookup-return:", "3" }, { 20, 1, "dpdk-input-return:", "3" },
    { 30, 1, "dpdk-input-call", "3" }, { 35, 1, "dpdk-input-return", "3" },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *s = spans_string (file, NULL, TRUE, NULL);

  /* the node's name, with or without c2cpel's ':'; a return pairs only
   * with its own node's call */
  g_assert_cmpstr (s, ==, "0:ip4-lookup[0,0]< 0:dpdk-input[10,20] "
                          "0:ip4-lookup[12,15]d1 0:dpdk-input[30,35]");
}

/* per-rule counts, switching built-in rules off by id, the user's text */
static void
test_rule_counts (void)
{
  const Ev evs[] = {
    { 0, 1, "ip4-lookup-return:", "7" },
    { 10, 1, "dpdk-input-call:", "3" }, { 12, 1, "ip4-lookup-call:", "3" },
    { 15, 1, "ip4-lookup-return:", "3" }, { 20, 1, "dpdk-input-return:", "3" },
    { 30, 1, "api-msg", "a" }, { 35, 1, "api-msg-done", "a" },
    { 40, 1, "api-msg", "b" }, { 50, 1, "rx", "" },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  const char *const off[] = { "span api-msg", "state Nope", NULL };
  g_autoptr(CpelSpanRules) all = cpel_span_rules_new_with (NULL, NULL, NULL, NULL);
  g_autoptr(CpelSpanRules) some = NULL;
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree CpelSpanRuleCount *counts = NULL;
  g_auto(GStrv) ids = cpel_span_rules_dup_builtin_ids ();
  guint n, dispatch = G_MAXUINT, api = G_MAXUINT, user;

  g_assert_nonnull (all);
  g_assert_cmpuint (cpel_span_rules_get_n_builtin (all), ==, cpel_span_rules_get_n_rules (all));
  g_assert_null (cpel_span_rules_get_user_text (all));
  g_assert_true (g_strv_contains ((const char *const *) ids, "span *"));
  g_assert_true (g_strv_contains ((const char *const *) ids, "span api-msg"));
  g_assert_true (g_strv_contains ((const char *const *) ids, "state Running"));
  /* each id once though several rules make Stopped */
  for (guint i = 0; ids[i] != NULL; i++)
    for (guint j = i + 1; ids[j] != NULL; j++)
      g_assert_cmpstr (ids[i], !=, ids[j]);

  spans = cpel_spans_derive (file, all, NULL, NULL, &error);
  g_assert_no_error (error);
  n = cpel_span_rules_get_n_rules (all);
  counts = g_new (CpelSpanRuleCount, n);
  cpel_spans_count_by_rule (spans, counts, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = cpel_span_rules_dup_id (all, i);

      if (g_str_equal (id, "span *") && dispatch == G_MAXUINT)
        dispatch = i;
      if (g_str_equal (id, "span api-msg"))
        api = i;
    }
  g_assert_cmpuint (counts[dispatch].spans, ==, 3);
  g_assert_cmpuint (counts[dispatch].orphan_ends, ==, 1);
  g_assert_cmpuint (counts[dispatch].orphan_begins, ==, 0);
  g_assert_cmpuint (counts[api].spans, ==, 2);
  g_assert_cmpuint (counts[api].orphan_begins, ==, 1);
  g_assert_cmpuint (counts[api].orphan_ends, ==, 0);
  g_clear_pointer (&spans, cpel_spans_free);

  /* api-msg off, a user rule on */
  some = cpel_span_rules_new_with (off, "span rx begin event=rx end event=tx\n", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cpel_span_rules_get_user_text (some), ==,
                   "span rx begin event=rx end event=tx\n");
  g_assert_true (g_strv_equal (cpel_span_rules_get_disabled (some), off));
  g_assert_cmpuint (cpel_span_rules_get_n_builtin (some), ==,
                    cpel_span_rules_get_n_rules (all) - 1);
  user = cpel_span_rules_get_n_builtin (some);
  g_assert_cmpuint (cpel_span_rules_get_n_rules (some), ==, user + 1);
  for (guint i = 0; i < user; i++)
    {
      g_autofree char *id = cpel_span_rules_dup_id (some, i);

      g_assert_cmpstr (id, !=, "span api-msg");
    }
  spans = cpel_spans_derive (file, some, NULL, NULL, &error);
  g_assert_no_error (error);
  g_free (counts);
  n = cpel_span_rules_get_n_rules (some);
  counts = g_new (CpelSpanRuleCount, n);
  cpel_spans_count_by_rule (spans, counts, n);
  g_assert_cmpuint (counts[dispatch].spans, ==, 3);
  g_assert_cmpuint (counts[user].spans, ==, 1);
  g_assert_cmpuint (counts[user].orphan_begins, ==, 1);
  {
    g_autofree char *s = spans_string (file, NULL, TRUE, NULL);

    g_assert_nonnull (strstr (s, "api-msg"));
  }

  /* a bad user text: an error with its line and column, no rules */
  g_clear_pointer (&some, cpel_span_rules_unref);
  some = cpel_span_rules_new_with (NULL, "# ok\nspan x begin evnt=a end event=b\n", "mine",
                                   &error);
  g_assert_null (some);
  g_assert_error (error, CPEL_SPAN_RULES_ERROR, CPEL_SPAN_RULES_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "mine:2:"));
}

static void
test_builtin_texts (void)
{
  const Ev evs[] = {
    /* elog: the full text; c2cpel: the text after the name */
    { 0, 1, "process", "process tw start" }, { 4, 1, "process", "process tw end: 2" },
    { 6, 1, "process", "tw start" }, { 9, 1, "process", "tw end: 0" },
    { 10, 1, "cli-cmd:", "show run" }, { 20, 1, "cli-cmd:", "show run OK" },
    { 30, 1, "cli-cmd:", "show int" },
    { 40, 2, "engine.breath_start", "breath=7 totalpackets=1" },
    { 41, 2, "engine.breath_end", "breath=6 totalpackets=1" },
    { 45, 2, "engine.breath_end", "breath=7 totalpackets=2" },
    { 50, 2, "engine.sleep_on_idle", "usec=3" }, { 53, 2, "engine.wakeup_from_sleep", "" },
    { 60, 3, "lib.eal.service.run.begin", "id = 1, lcore = 3" },
    { 61, 3, "lib.eal.service.run.begin", "id = 2, lcore = 3" },
    { 62, 3, "lib.eal.service.run.end", "id = 1, lcore = 3" },
    { 66, 3, "lib.eal.service.run.end", "id = 2, lcore = 3" },
    { 70, 4, "lib.eal.thread.lcore.ready", "lcore_id = 0x5, cpuset = \"1\"" },
    { 72, 4, "lib.eal.thread.lcore.running", "lcore_id = 0x5, f = 0x7F8E" },
    { 75, 4, "lib.eal.thread.lcore.stopped", "lcore_id = 0x5" },
    { 80, 4, "lib.eal.thread.lcore.running", "lcore_id = 0x5, f = 0x7F8E" },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *s = spans_string (file, NULL, TRUE, NULL);

  g_assert_cmpstr (s, ==,
                   "0:process tw[0,4] 0:process tw[6,9] 0:cli-cmd[10,20] 0:cli-cmd[30,80]> "
                   "1:engine.breath[0,41]d1< 1:engine.breath[40,45] 1:engine.sleep[50,53] "
                   "2:lib.eal.service.run[60,62] 2:lib.eal.service.run[61,66]d1 "
                   /* an lcore's states */
                   "3:lcore ready[70,72] 3:lcore running[72,75] 3:lcore stopped[75,80] "
                   "3:lcore running[80,80]>");
}

static void
test_states (void)
{
  const Ev evs[] = {
    { 0, 1, "st", "s=run" }, { 10, 1, "st", "s=wait" }, { 12, 1, "other", NULL },
    { 25, 1, "st", "s=run" }, { 100, 2, "z", NULL },
  };
  const char *rules = "state * on event=st field.s=*";
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *s = spans_string (file, rules, FALSE, NULL);
  g_autoptr(CpelSpanSummary) sum = summary_of (file, rules, FALSE);
  g_autoptr(CpelSpanSummary) all = summary_of (file, rules, TRUE);
  g_autofree char *csv = cpel_span_summary_to_csv (sum, CPEL_SPAN_TABLE_STATES);
  g_autofree char *csv_all = cpel_span_summary_to_csv (all, CPEL_SPAN_TABLE_STATES);

  g_assert_cmpstr (s, ==, "0:run[0,10] 0:wait[10,25] 0:run[25,100]>");
  g_assert_cmpstr (csv, ==, "track,state,count,total_ns,min_ns,mean_ns,max_ns\r\n"
                            "track 1,run,1,10,10,10,10\r\n"
                            "track 1,wait,1,15,15,15,15\r\n");
  g_assert_cmpstr (csv_all, ==, "track,state,count,total_ns,min_ns,mean_ns,max_ns\r\n"
                                "track 1,run,2,85,10,43,75\r\n"
                                "track 1,wait,1,15,15,15,15\r\n");
  g_assert_cmpuint (cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_SPANS), ==, 0);
}

/* Linux thread states from the perf importer's marks (cpel-import-perf.c)
 * and the built-in rules: every prev_state, wake-ups only of a blocked
 * thread (sched_waking, then sched_wakeup finding it runnable), a first
 * wake-up with no state, sched_wakeup_new, and a CPU's threads. */
#define SW_IN  "sched_switch: in"
#define SW_OUT "sched_switch: out"
static void
test_sched_states (void)
{
  const Ev evs[] = {
    /* thread track 1 */
    { 0, 1, "sched_wakeup_new: woken", "waker=\"sh [7]\", CPU 0" },
    { 5, 1, SW_IN, "CPU 0" },
    { 20, 1, SW_OUT, "CPU 0, prev_state=S" },
    { 30, 1, "sched_waking: woken", "waker=\"B [2]\", CPU 1" },
    { 31, 1, "sched_wakeup: woken", "waker=\"B [2]\", CPU 1" },
    { 40, 1, SW_IN, "CPU 0" },
    { 45, 1, "sched_waking: woken", "waker=\"B [2]\", CPU 1" },   /* running: no change */
    { 50, 1, SW_OUT, "CPU 0, prev_state=R+" },
    { 52, 1, "sched_wakeup: woken", "waker=\"B [2]\", CPU 1" },   /* runnable: no change */
    { 60, 1, SW_IN, "CPU 0" },
    { 70, 1, SW_OUT, "CPU 0, prev_state=D" },
    { 80, 1, "sched_wakeup: woken", "waker=\"B [2]\", CPU 1" },
    { 90, 1, SW_IN, "CPU 0" },
    { 95, 1, SW_OUT, "CPU 0, prev_state=T" },
    { 99, 1, "sched_waking: woken", "waker=\"B [2]\", CPU 1" },
    { 100, 1, SW_IN, "CPU 0" },
    { 105, 1, SW_OUT, "CPU 0, prev_state=R" },
    { 106, 1, SW_IN, "CPU 0" },
    { 110, 1, SW_OUT, "CPU 0, prev_state=X" },
    /* thread track 2: a wake-up before any state changes nothing */
    { 3, 2, "sched_waking: woken", "waker=\"A [1]\", CPU 0" },
    { 10, 2, SW_IN, "CPU 1" },
    { 12, 2, SW_OUT, "CPU 1, prev_state=P" },
    { 14, 2, "sched_waking: woken", "waker=\"A [1]\", CPU 0" },
    { 16, 2, SW_IN, "CPU 1" },
    { 20, 2, SW_OUT, "CPU 1, prev_state=?" },
    { 22, 2, "sched_wakeup: woken", "waker=\"A [1]\", CPU 0" },
    { 24, 2, SW_IN, "CPU 1" },
    { 30, 2, SW_OUT, "CPU 1, prev_state=I" },
    { 33, 2, "sched_waking: woken", "waker=\"A [1]\", CPU 0" },
    { 35, 2, SW_IN, "CPU 1" },
    { 40, 2, SW_OUT, "CPU 1, prev_state=t" },
    { 41, 2, SW_IN, "CPU 1" },
    { 42, 2, SW_OUT, "CPU 1, prev_state=Z" },
    /* a CPU's track: the threads it ran */
    { 5, 3, "sched_switch: next", "A [1]" },
    { 20, 3, "sched_switch: next", "swapper/0 [0]" },
    { 40, 3, "sched_switch: next", "A [1]" },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *s = spans_string (file, NULL, TRUE, NULL);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanSummary) sum = cpel_span_summary_compute (file, rules, NULL, FALSE, NULL,
                                                               &error);
  g_autofree char *csv = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (s, ==,
                   "0:Runnable[0,5] 0:Running[5,20] 0:Sleeping[20,30] 0:Runnable[30,40] "
                   "0:Running[40,50] 0:Runnable (Preempted)[50,60] 0:Running[60,70] "
                   "0:Uninterruptible Sleep[70,80] 0:Runnable[80,90] 0:Running[90,95] "
                   "0:Stopped[95,99] 0:Runnable[99,100] 0:Running[100,105] "
                   "0:Runnable (Preempted)[105,106] 0:Running[106,110] 0:Dead[110,110]> "
                   "1:Running[10,12] 1:Parked[12,14] 1:Runnable[14,16] 1:Running[16,20] "
                   "1:Off CPU[20,22] 1:Runnable[22,24] 1:Running[24,30] 1:Idle[30,33] "
                   "1:Runnable[33,35] 1:Running[35,40] 1:Stopped[40,41] 1:Running[41,42] "
                   "1:Dead[42,110]> "
                   "2:A [1][5,20] 2:swapper/0 [0][20,40] 2:A [1][40,110]>");
  csv = cpel_span_summary_to_csv (sum, CPEL_SPAN_TABLE_CPUS);
  g_assert_cmpstr (csv, ==, "cpu,thread,count,total_ns,min_ns,mean_ns,max_ns\r\n"
                            "track 1,Dead,0,0,,,\r\n"
                            "track 1,Runnable,4,26,1,7,10\r\n"
                            "track 1,Runnable (Preempted),2,11,1,6,10\r\n"
                            "track 1,Running,6,49,4,8,15\r\n"
                            "track 1,Sleeping,1,10,10,10,10\r\n"
                            "track 1,Stopped,1,4,4,4,4\r\n"
                            "track 1,Uninterruptible Sleep,1,10,10,10,10\r\n"
                            "track 2,Dead,0,0,,,\r\n"
                            "track 2,Idle,1,3,3,3,3\r\n"
                            "track 2,Off CPU,1,2,2,2,2\r\n"
                            "track 2,Parked,1,2,2,2,2\r\n"
                            "track 2,Runnable,3,6,2,2,2\r\n"
                            "track 2,Running,5,18,1,4,6\r\n"
                            "track 2,Stopped,1,1,1,1,1\r\n"
                            "track 3,A [1],1,15,15,15,15\r\n"
                            "track 3,swapper/0 [0],1,20,20,20,20\r\n");
}

/* `from`: a state rule applies only while the track's state matches. */
static void
test_state_from (void)
{
  const Ev evs[] = {
    { 0, 1, "w", NULL }, { 5, 1, "a", NULL }, { 10, 1, "w", NULL }, { 15, 1, "b", NULL },
    { 20, 1, "w", NULL }, { 30, 1, "a", NULL },
  };
  const char *rules = "state A on event=a\nstate B on event=b\nstate W on event=w from B*\n";
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  g_autofree char *s = spans_string (file, rules, FALSE, NULL);
  g_autoptr(CpelSpanRules) r = rules_of (rules, FALSE);
  g_autofree char *text = cpel_span_rules_to_text (r);
  g_autoptr(CpelSpanRules) bad = cpel_span_rules_new ();
  g_autoptr(GError) error = NULL;

  /* the first w (no state) and the second (in A) change nothing */
  g_assert_cmpstr (s, ==, "0:A[5,15] 0:B[15,20] 0:W[20,30] 0:A[30,30]>");
  g_assert_cmpstr (text, ==, "state A on event=a\nstate B on event=b\n"
                             "state W on event=w from B*\n");
  g_assert_false (cpel_span_rules_add_text (bad, "state W on event=w from", -1, "t", &error));
  g_assert_error (error, CPEL_SPAN_RULES_ERROR, CPEL_SPAN_RULES_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "t:1:24:"));
}

static void
test_percentiles (void)
{
  g_autofree Ev *evs = g_new0 (Ev, 200 + 6);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanSummary) sum = NULL;
  g_autofree char *csv = NULL;
  guint n = 0;

  /* durations 1..100 in a scrambled order on track 1 (key per span) */
  for (guint i = 0; i < 100; i++)
    {
      guint d = (i * 37) % 100 + 1;

      evs[n++] = (Ev) { 1000 * i, 1, "b", NULL };
      evs[n++] = (Ev) { 1000 * i + d, 1, "e", NULL };
    }
  /* 10, 20, 30 on track 2 under another name */
  evs[n++] = (Ev) { 0, 2, "B", NULL };
  evs[n++] = (Ev) { 30, 2, "E", NULL };
  evs[n++] = (Ev) { 100, 2, "B", NULL };
  evs[n++] = (Ev) { 110, 2, "E", NULL };
  evs[n++] = (Ev) { 200, 2, "B", NULL };
  evs[n++] = (Ev) { 220, 2, "E", NULL };
  /* written in time order per track: the writer takes any order */
  file = make_file (evs, n);
  sum = summary_of (file, NEST "span y begin event=B end event=E\n", FALSE);
  csv = cpel_span_summary_to_csv (sum, CPEL_SPAN_TABLE_SPANS);
  /* mean 50.5 rounds half up to 51; nearest rank: p50 of 3 values is the 2nd */
  g_assert_cmpstr (csv, ==, "span,count,total_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,"
                            "orphan_begins,orphan_ends\r\n"
                            "x,100,5050,1,50,90,99,100,51,0,0\r\n"
                            "y,3,60,10,20,30,30,30,20,0,0\r\n");
}

static gint
cmp_i64 (gconstpointer a,
         gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Exact nearest-rank percentiles of many durations with repeats, against
 * sorting here. */
static void
test_percentiles_random (void)
{
  for (guint round = 0; round < 20; round++)
    {
      GRand *rand = g_rand_new_with_seed (round);
      guint n = 1 + (guint) g_rand_int_range (rand, 0, 700);
      g_autofree Ev *evs = g_new0 (Ev, 2 * n);
      g_autofree gint64 *d = g_new0 (gint64, n);
      g_autoptr(CpelFile) file = NULL;
      g_autoptr(CpelSpanSummary) sum = NULL;
      const CpelSpanRow *r;
      guint64 total = 0;

      for (guint i = 0; i < n; i++)
        {
          d[i] = g_rand_int_range (rand, 0, round % 2 ? 5 : 100000);
          total += (guint64) d[i];
          evs[2 * i] = (Ev) { 200000 * (guint64) i, 1, "b", NULL };
          evs[2 * i + 1] = (Ev) { 200000 * (guint64) i + (guint64) d[i], 1, "e", NULL };
        }
      g_rand_free (rand);
      file = make_file (evs, 2 * n);
      sum = summary_of (file, RESTART, FALSE);
      r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_SPANS, 0);
      qsort (d, n, sizeof (gint64), cmp_i64);
      g_assert_cmpuint (r->count, ==, n);
      g_assert_cmpuint (r->total_ns, ==, total);
      g_assert_cmpint (r->min_ns, ==, d[0]);
      g_assert_cmpint (r->max_ns, ==, d[n - 1]);
      g_assert_cmpint (r->p50_ns, ==, d[(n * 50 + 99) / 100 - 1]);
      g_assert_cmpint (r->p90_ns, ==, d[(n * 90 + 99) / 100 - 1]);
      g_assert_cmpint (r->p99_ns, ==, d[(n * 99 + 99) / 100 - 1]);
      g_assert_cmpint (r->mean_ns, ==, (gint64) ((total + n / 2) / n));
    }
}

static void
test_range (void)
{
  const Ev evs[] = {
    { 0, 1, "b", NULL }, { 20, 1, "e", NULL }, { 30, 1, "b", NULL }, { 50, 1, "e", NULL },
  };
  g_autoptr(CpelFile) file = make_file (evs, G_N_ELEMENTS (evs));
  CpelSpansOptions opt = { 10, 40, NULL, 0 };
  g_autofree char *s = spans_string (file, RESTART, FALSE, &opt);
  g_autofree char *whole = spans_string (file, RESTART, FALSE, NULL);
  g_autoptr(CpelSpanRules) rules = rules_of (RESTART, FALSE);
  g_autoptr(CpelSpans) spans = cpel_spans_derive (file, rules, NULL, NULL, NULL);

  /* the range cuts both spans: orphans drawn to its edges */
  g_assert_cmpstr (s, ==, "0:x[10,20]< 0:x[30,40]>");
  g_assert_cmpstr (whole, ==, "0:x[0,20] 0:x[30,50]");
  g_assert_cmpuint (cpel_spans_track_lower_bound (spans, 0, 0), ==, 0);
  g_assert_cmpuint (cpel_spans_track_lower_bound (spans, 0, 1), ==, 1);
  g_assert_cmpuint (cpel_spans_track_lower_bound (spans, 0, 30), ==, 1);
  g_assert_cmpuint (cpel_spans_track_lower_bound (spans, 0, 31), ==, 2);
  g_assert_cmpuint (cpel_spans_get_n_spans (spans), ==, 2);
  g_assert_cmpuint (cpel_spans_get_bytes (spans), ==, 32);
}

static void
test_errors (void)
{
  g_autoptr(CpelFile) file = make_file (orphan_evs, G_N_ELEMENTS (orphan_evs));
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  const guint bad[] = { 7 };
  const guint twice[] = { 1, 1 };
  CpelSpansOptions opt = { 0, 0, bad, 1 };

  g_assert_null (cpel_spans_derive (file, rules, &opt, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_clear_error (&error);
  opt.slots = twice;
  opt.n_slots = 2;
  g_assert_null (cpel_span_summary_compute (file, rules, &opt, FALSE, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_clear_error (&error);
  g_cancellable_cancel (cancellable);
  g_assert_null (cpel_spans_derive (file, rules, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_null (cpel_span_summary_compute (file, rules, NULL, FALSE, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A time-ordered file read without its index gives the same statistics. */
static void
test_stream_equals_index (void)
{
  g_autofree Ev *evs = g_new0 (Ev, 3000);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) indexed = NULL;
  g_autoptr(CpelFile) streamed = NULL;
  g_autoptr(CpelSpanRules) rules = rules_of ("span k begin event=b end event=e key id\n"
                                             "state * on event=s field.v=*\n", TRUE);
  CpelLoadOptions lo = { 0 };
  GRand *rand = g_rand_new_with_seed (7);
  const char *names[] = { "b", "e", "s", "ip4-lookup-call", "ip4-lookup-return" };
  const char *texts[] = { "id=1", "id=2", "v=a", "v=b", "" };

  for (guint i = 0; i < 3000; i++)
    {
      evs[i].t = i / 3;
      evs[i].track = g_rand_int_range (rand, 1, 5);
      evs[i].event = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
      evs[i].text = texts[g_rand_int_range (rand, 0, G_N_ELEMENTS (texts))];
    }
  g_rand_free (rand);
  bytes = make_bytes (evs, 3000);
  indexed = cpel_test_file_for_bytes (bytes, NULL);
  lo.defer_index = TRUE;
  streamed = cpel_test_file_for_bytes (bytes, &lo);
  g_assert_true (cpel_file_can_stream (streamed));
  for (guint u = 0; u < 2; u++)
    {
      g_autoptr(CpelSpanSummary) a = cpel_span_summary_compute (indexed, rules, NULL, u,
                                                                NULL, NULL);
      g_autoptr(CpelSpanSummary) b = cpel_span_summary_compute (streamed, rules, NULL, u,
                                                                NULL, NULL);

      for (guint t = CPEL_SPAN_TABLE_SPANS; t <= CPEL_SPAN_TABLE_STATES; t++)
        {
          g_autofree char *ca = cpel_span_summary_to_csv (a, t);
          g_autofree char *cb = cpel_span_summary_to_csv (b, t);

          g_assert_cmpuint (cpel_span_summary_get_n_rows (a, t), >, 0);
          g_assert_cmpstr (ca, ==, cb);
        }
    }
  /* streamed: the index was never built */
  g_assert_false (cpel_file_has_index (streamed));
}

/* Zoomed out: the share of each bucket the spans cover, their union (a
 * nested span adds nothing), and the first span's name; none for a track
 * of too few spans. */
static void
test_coverage (void)
{
  guint n = 0;
  g_autofree Ev *evs = g_new0 (Ev, 4 * 2048 + 8);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = rules_of (NEST, FALSE);
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(GError) error = NULL;
  const CpelSpanCoverage *cov;
  guint shift = 0;
  guint64 n_buckets = 0, covered_total = 0;

  /* track 1: x [100 i, 100 i + 80) holding x [100 i + 10, 100 i + 20),
   * none in [102400, 153600); track 2: 3 spans */
  for (guint i = 0; i < 2048; i++)
    {
      if (i >= 1024 && i < 1536)
        continue;
      evs[n++] = (Ev) { 100 * i, 1, "b", NULL };
      evs[n++] = (Ev) { 100 * i + 10, 1, "b", NULL };
      evs[n++] = (Ev) { 100 * i + 20, 1, "e", NULL };
      evs[n++] = (Ev) { 100 * i + 80, 1, "e", NULL };
    }
  for (guint i = 0; i < 3; i++)
    {
      evs[n++] = (Ev) { 1000 * i + 5, 2, "b", NULL };
      evs[n++] = (Ev) { 1000 * i + 6, 2, "e", NULL };
    }
  file = make_file (evs, n);
  spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (cpel_spans_get_coverage (spans, 1, NULL, NULL));
  cov = cpel_spans_get_coverage (spans, 0, &shift, &n_buckets);
  g_assert_nonnull (cov);
  /* 3072 spans: at most 192 buckets over the 204780 ns */
  g_assert_cmpuint (n_buckets, <=, 3072 / 16);
  g_assert_cmpuint (n_buckets, ==, (204780 >> shift) + 1);
  for (guint64 k = 0; k < n_buckets; k++)
    {
      gint64 lo = (gint64) (k << shift), hi = (gint64) ((k + 1) << shift);

      if (hi <= 102400 || (lo >= 153600 && hi <= 204700))
        {
          /* 80 of every 100 ns */
          g_assert_cmpfloat (fabs (cov[k].covered - 0.8), <, 100.0 / (1 << shift) + 1e-6);
          g_assert_cmpstr (cpel_spans_get_name (spans, cov[k].name), ==, "x");
        }
      else if (lo >= 102400 && hi <= 153600)
        {
          g_assert_cmpfloat (cov[k].covered, ==, 0);
          g_assert_cmpuint (cov[k].name, ==, G_MAXUINT32);
        }
      covered_total += (guint64) llround (cov[k].covered * (1 << shift));
    }
  /* in all: 1536 spans of 80 ns */
  g_assert_cmpuint (covered_total, ==, 1536 * 80);
}

/* Every span and state of every track, with flags and event indices. */
static char *
all_spans (CpelFile  *file,
           CpelSpans *spans)
{
  GString *out = g_string_new (NULL);

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    for (guint k = 0; k < 2; k++)
      {
        guint64 m;
        const CpelSpan *a = k ? cpel_spans_get_track_states (spans, slot, &m)
                              : cpel_spans_get_track_spans (spans, slot, &m);

        for (guint64 i = 0; i < m; i++)
          g_string_append_printf (out, "%u %s %u %u %u %u\n", slot,
                                  cpel_spans_get_name (spans, a[i].name), a[i].begin,
                                  a[i].end, a[i].depth, a[i].flags);
      }
  return g_string_free (out, FALSE);
}

/* The spans kept add up, per track and name, to what the (one-pass)
 * statistics count; sorted by begin. */
static void
check_store_against_summary (CpelFile      *file,
                             CpelSpanRules *rules,
                             CpelSpans     *spans)
{
  g_autoptr(CpelSpanSummary) sum = NULL;
  g_autoptr(GHashTable) totals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GError) error = NULL;
  guint64 n_rows = 0;

  sum = cpel_span_summary_compute (file, rules, NULL, TRUE, NULL, &error);
  g_assert_no_error (error);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    for (guint k = 0; k < 2; k++)
      {
        guint64 m;
        const CpelSpan *a = k ? cpel_spans_get_track_states (spans, slot, &m)
                              : cpel_spans_get_track_spans (spans, slot, &m);

        for (guint64 i = 0; i < m; i++)
          {
            char *key = g_strdup_printf ("%u/%u/%s", k, slot,
                                         cpel_spans_get_name (spans, a[i].name));
            guint64 *t = g_hash_table_lookup (totals, key);

            if (i > 0)
              g_assert_cmpint (cpel_spans_begin_ns (spans, slot, &a[i - 1]), <=,
                               cpel_spans_begin_ns (spans, slot, &a[i]));
            if (t == NULL)
              {
                t = g_new0 (guint64, 2);
                g_hash_table_insert (totals, key, t);
              }
            else
              g_free (key);
            t[0]++;
            t[1] += (guint64) (cpel_spans_end_ns (spans, slot, &a[i])
                               - cpel_spans_begin_ns (spans, slot, &a[i]));
          }
      }
  for (guint k = 0; k < 2; k++)
    {
      CpelSpanTable table = k ? CPEL_SPAN_TABLE_STATES : CPEL_SPAN_TABLE_TRACKS;

      for (guint i = 0; i < cpel_span_summary_get_n_rows (sum, table); i++)
        {
          const CpelSpanRow *r = cpel_span_summary_get_row (sum, table, i);
          g_autofree char *key = g_strdup_printf ("%u/%u/%s", k, r->slot, r->name);
          guint64 *t = g_hash_table_lookup (totals, key);

          g_assert_nonnull (t);
          g_assert_cmpuint (t[0], ==, r->count);
          g_assert_cmpuint (t[1], ==, r->total_ns);
          n_rows++;
        }
    }
  g_assert_cmpuint (n_rows, ==, g_hash_table_size (totals));
  g_assert_cmpuint (n_rows, >, 39 * 3);
}

/* A big capture in time order (read in file order) and the same events
 * with two records swapped in the file (read track by track through the
 * index, by several threads): the same spans. */
static void
test_parallel (void)
{
  guint n = 300000;
  g_autofree Ev *evs = g_new0 (Ev, n);
  g_autoptr(GBytes) sorted = NULL;
  g_autoptr(GBytes) swapped = NULL;
  g_autoptr(GBytes) interleaved = NULL;
  g_autoptr(CpelFile) fa = NULL;
  g_autoptr(CpelFile) fb = NULL;
  g_autoptr(CpelFile) fc = NULL;
  g_autoptr(CpelFile) fd = NULL;
  g_autoptr(GBytes) split = NULL;
  g_autoptr(CpelSpanRules) rules = rules_of ("span k begin event=b end event=e key id\n"
                                             "span t-* begin \"text~^call (\\w+)\" end "
                                             "\"text~^ret (\\w+)\"\n"
                                             "state * on event=s field.v=*\n", TRUE);
  g_autoptr(CpelSpans) sa = NULL;
  g_autoptr(CpelSpans) sb = NULL;
  g_autoptr(CpelSpans) sc = NULL;
  g_autoptr(CpelSpans) sd = NULL;
  g_autofree char *td = NULL;
  g_autofree char *ta = NULL;
  g_autofree char *tb = NULL;
  g_autofree char *tc = NULL;
  g_autoptr(GError) error = NULL;
  GRand *rand = g_rand_new_with_seed (11);
  const char *names[] = { "b", "e", "s", "x", "ip4-lookup-call", "ip4-lookup-return" };
  const char *texts[] = { "id=1", "id=2", "v=a", "v=b", "", "call n1", "ret n1", "call n2",
                          "ret n2" };
  Ev tmp;

  for (guint i = 0; i < n; i++)
    {
      evs[i].t = i;
      evs[i].track = g_rand_int_range (rand, 1, 40);
      evs[i].event = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
      evs[i].text = texts[g_rand_int_range (rand, 0, G_N_ELEMENTS (texts))];
    }
  g_rand_free (rand);
  sorted = make_bytes (evs, n);
  tmp = evs[0];
  evs[0] = evs[n - 1];
  evs[n - 1] = tmp;
  swapped = make_bytes (evs, n);
  fa = cpel_test_file_for_bytes (sorted, NULL);
  fb = cpel_test_file_for_bytes (swapped, NULL);
  g_assert_true (cpel_file_is_time_ordered (fa));
  g_assert_false (cpel_file_is_time_ordered (fb));
  sa = cpel_spans_derive (fa, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  sb = cpel_spans_derive (fb, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  check_store_against_summary (fa, rules, sa);
  check_store_against_summary (fb, rules, sb);
  ta = all_spans (fa, sa);
  tb = all_spans (fb, sb);
  g_assert_cmpstr (ta, ==, tb);
  g_assert_cmpuint (cpel_spans_get_n_spans (sa), ==, cpel_spans_get_n_spans (sb));

  /* The same events with neighbours on different tracks swapped in the
   * file (as a capture merged from per-CPU buffers): out of time order,
   * but each track's events in file order — read in file order, whole and
   * for a range of some tracks (each track's events before it skipped),
   * giving what the capture in time order gives. */
  tmp = evs[0];
  evs[0] = evs[n - 1];
  evs[n - 1] = tmp;
  for (guint i = 500; i + 1 < n; i += 997)
    if (evs[i].track != evs[i + 1].track)
      {
        tmp = evs[i];
        evs[i] = evs[i + 1];
        evs[i + 1] = tmp;
      }
  interleaved = make_bytes (evs, n);
  fc = cpel_test_file_for_bytes (interleaved, NULL);
  g_assert_false (cpel_file_is_time_ordered (fc));
  g_assert_true (cpel_file_tracks_in_file_order (fa));
  g_assert_false (cpel_file_tracks_in_file_order (fb));
  g_assert_true (cpel_file_tracks_in_file_order (fc));
  sc = cpel_spans_derive (fc, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  tc = all_spans (fc, sc);
  g_assert_cmpstr (ta, ==, tc);
  /* and split in three event sections (read on from one to the next) */
  split = make_bytes_split (evs, n, 3);
  fd = cpel_test_file_for_bytes (split, NULL);
  g_assert_cmpuint (fd->n_evsecs, ==, 3);
  g_assert_true (cpel_file_tracks_in_file_order (fd));
  sd = cpel_spans_derive (fd, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  td = all_spans (fd, sd);
  g_assert_cmpstr (ta, ==, td);
  for (guint k = 0; k < 3; k++)
    {
      static const guint some[] = { 2, 5, 7, 30 };
      guint most[37];
      CpelSpansOptions opt = { 0 };
      g_autoptr(CpelSpans) ra = NULL;
      g_autoptr(CpelSpans) rc = NULL;
      g_autoptr(CpelSpans) rd = NULL;
      g_autoptr(CpelSpans) rb = NULL;
      g_autofree char *tra = NULL;
      g_autofree char *trb = NULL;
      g_autofree char *trc = NULL;
      g_autofree char *trd = NULL;

      g_assert_cmpuint (cpel_file_get_n_tracks (fa), ==, G_N_ELEMENTS (most) + 2);
      for (guint i = 0; i < G_N_ELEMENTS (most); i++)
        most[i] = i + 1;
      opt.t0 = cpel_file_get_duration (fa) / 3;
      opt.t1 = 2 * cpel_file_get_duration (fa) / 3;
      /* k = 2: all tracks but one (read in file order from the range's
       * first event, across sections) */
      opt.slots = k == 1 ? some : k == 2 ? most : NULL;
      opt.n_slots = k == 1 ? G_N_ELEMENTS (some) : k == 2 ? G_N_ELEMENTS (most) : 0;
      ra = cpel_spans_derive (fa, rules, &opt, NULL, &error);
      g_assert_no_error (error);
      rc = cpel_spans_derive (fc, rules, &opt, NULL, &error);
      g_assert_no_error (error);
      rd = cpel_spans_derive (fd, rules, &opt, NULL, &error);
      g_assert_no_error (error);
      /* the reference: read through the index (its tracks out of file order) */
      rb = cpel_spans_derive (fb, rules, &opt, NULL, &error);
      g_assert_no_error (error);
      tra = all_spans (fa, ra);
      trb = all_spans (fb, rb);
      trc = all_spans (fc, rc);
      trd = all_spans (fd, rd);
      g_assert_cmpstr (tra, ==, trb);
      g_assert_cmpstr (tra, ==, trc);
      g_assert_cmpstr (tra, ==, trd);
      g_assert_cmpuint (cpel_spans_get_n_spans (rc), >, 1000 / (k == 1 ? 10 : 1));
    }
}

/* ---- the rule language --------------------------------------------------- */

static void
check_error (const char *text,
             const char *message)
{
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (cpel_span_rules_add_text (rules, text, -1, "r", &error));
  g_assert_error (error, CPEL_SPAN_RULES_ERROR, CPEL_SPAN_RULES_ERROR_SYNTAX);
  if (!g_str_has_prefix (error->message, message))
    g_error ("“%s”: got “%s”, want “%s…”", text, error->message, message);
  g_assert_cmpuint (cpel_span_rules_get_n_rules (rules), ==, 0);
}

static void
test_parse_errors (void)
{
  check_error ("span x begin event=a end\n", "r:1:22: ");
  check_error ("# c\n\nstate s on text~(a\n", "r:3:17: bad regular expression");
  check_error ("span \"x begin", "r:1:6: the quote is not closed");
  check_error ("spam x", "r:1:1: a rule starts with");
  check_error ("span", "r:1:5: the rule needs a NAME");
  check_error ("span x event=a", "r:1:8: expected “begin”");
  check_error ("span x begin event=a", "r:1:21: expected “end”");
  check_error ("span x begin event=a end event=b restart restart", "r:1:42: “restart” is given");
  check_error ("span x begin event=a end event=b key", "r:1:37: “key” needs a FIELD");
  check_error ("span x begin event=a end event=b key a=b", "r:1:38: a field name");
  check_error ("span x begin event=a end event=b extra", "r:1:34: expected a condition");
  check_error ("span x begin event=a end event=b restart x", "r:1:42: expected “key FIELD”");
  check_error ("span * begin event=a end event=b*", "r:1:6: the NAME has a “*”");
  check_error ("span * begin event=a* end event=b", "r:1:6: the NAME has a “*”");
  check_error ("state s on bogus", "r:1:12: expected a condition");
  check_error ("state s on field.=x", "r:1:18: a field name");
  check_error ("state s on field.x", "r:1:12: a field condition");
  check_error ("state s", "r:1:8: expected “on”");
  check_error ("state s on", "r:1:9: “on” needs at least one condition");
  check_error ("state \"\" on event=x", "r:1:7: the NAME is empty");
  check_error ("span ok begin event=a end event=b\nstate s on event=\xff", "r:2:18: the line is not valid");
}

static void
test_check_text (void)
{
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);

  g_assert_false (cpel_span_rules_check_text (rules, "span x\nstate y on event=a\n\nfoo \"",
                                              -1, "c", errors));
  g_assert_cmpuint (errors->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (errors, 0), ==,
                   "c:1:7: expected “begin” after the span's NAME");
  g_assert_cmpstr (g_ptr_array_index (errors, 1), ==, "c:4:5: the quote is not closed");
  g_assert_cmpuint (cpel_span_rules_get_n_rules (rules), ==, 0);
  g_ptr_array_set_size (errors, 0);
  g_assert_true (cpel_span_rules_check_text (rules, "state y on event=a", -1, "c", errors));
  g_assert_cmpuint (errors->len, ==, 0);
  g_assert_cmpuint (cpel_span_rules_get_n_rules (rules), ==, 1);
}

static void
test_parse_roundtrip (void)
{
  const char *text =
    "  # comment\n"
    "span \"a b\" begin event=x \"text=*tw start\" end text~^(\\w+)-done key id restart\n"
    "state \"q\\\"*\" on \"field.v=a\\\"*\"   # trailing comment\n"
    "span \\* begin event=a\\* end event=b\n";
  g_autoptr(CpelSpanRules) a = rules_of (text, FALSE);
  g_autoptr(CpelSpanRules) b = NULL;
  g_autoptr(CpelSpanRules) builtin = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpanRules) builtin2 = NULL;
  g_autofree char *ta = cpel_span_rules_to_text (a);
  g_autofree char *tb = NULL;
  g_autofree char *bt = cpel_span_rules_to_text (builtin);
  g_autofree char *bt2 = NULL;
  g_autofree char *line = NULL;

  g_assert_cmpuint (cpel_span_rules_get_n_rules (a), ==, 3);
  g_assert_cmpint (cpel_span_rules_get_kind (a, 1), ==, CPEL_SPAN_RULE_STATE);
  g_assert_cmpstr (cpel_span_rules_get_name (a, 1), ==, "q\"*");
  line = cpel_span_rules_dup_line (a, 0);
  g_assert_cmpstr (line, ==, "span \"a b\" begin event=x \"text=*tw start\" "
                             "end text~^(\\w+)-done key id restart");
  b = rules_of (ta, FALSE);
  tb = cpel_span_rules_to_text (b);
  g_assert_cmpstr (ta, ==, tb);
  builtin2 = rules_of (bt, FALSE);
  bt2 = cpel_span_rules_to_text (builtin2);
  g_assert_cmpstr (bt, ==, bt2);
  g_assert_cmpuint (cpel_span_rules_get_n_rules (builtin), >=, 10);
}

static void
test_glob_and_fields (void)
{
  const char *cap = NULL, *v = NULL;
  gsize n = 0;

  g_assert_true (cpel_span_glob_match ("*-call", "ip4-lookup-call", 15, &cap, &n));
  g_assert_cmpmem (cap, n, "ip4-lookup", 10);
  g_assert_true (cpel_span_glob_match ("a*c*", "abcbc", 5, &cap, &n));
  g_assert_cmpmem (cap, n, "b", 1);
  g_assert_true (cpel_span_glob_match ("a?c", "abc", 3, NULL, NULL));
  g_assert_false (cpel_span_glob_match ("a?c", "ac", 2, NULL, NULL));
  g_assert_true (cpel_span_glob_match ("a\\*", "a*", 2, NULL, NULL));
  g_assert_false (cpel_span_glob_match ("a\\*", "ab", 2, NULL, NULL));
  g_assert_true (cpel_span_glob_match ("*", "", 0, &cap, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_false (cpel_span_glob_match ("x*", "", 0, &cap, &n));
  g_assert_true (cpel_span_text_field ("breath=12 total=3", 17, "breath", &v, &n));
  g_assert_cmpmem (v, n, "12", 2);
  g_assert_true (cpel_span_text_field ("id = 1000, resource = \"b/c d\"", 30, "resource",
                                       &v, &n));
  g_assert_cmpmem (v, n, "b/c d", 5);
  g_assert_false (cpel_span_text_field ("xbreath=5", 9, "breath", &v, &n));
  g_assert_false (cpel_span_text_field ("breath", 6, "breath", &v, &n));
  g_assert_cmpuint (cpel_span_name_len ("api-msg:"), ==, 7);
  g_assert_cmpuint (cpel_span_name_len (":"), ==, 1);
}

/* ---- files the real tools wrote ------------------------------------------ */

typedef struct
{
  GArray *b;   /* gint64 */
  GArray *e;
} Pairs;

static void
pairs_free (gpointer p)
{
  Pairs *x = p;

  g_array_unref (x->b);
  g_array_unref (x->e);
  g_free (x);
}

static Pairs *
pairs_get (GHashTable *t,
           const char *key)
{
  Pairs *p = g_hash_table_lookup (t, key);

  if (p == NULL)
    {
      p = g_new0 (Pairs, 1);
      p->b = g_array_new (FALSE, FALSE, sizeof (gint64));
      p->e = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (t, g_strdup (key), p);
    }
  return p;
}

/* The engine's finished spans per "track label/name": begin and end times. */
static GHashTable *
engine_pairs (CpelFile  *file,
              CpelSpans *spans,
              guint     *orphans)
{
  GHashTable *t = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, pairs_free);

  *orphans = 0;
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      guint64 n;
      const CpelSpan *a = cpel_spans_get_track_spans (spans, slot, &n);

      for (guint64 i = 0; i < n; i++)
        {
          g_autofree char *key = g_strdup_printf ("%s/%s", cpel_file_get_track_label (file, slot),
                                                  cpel_spans_get_name (spans, a[i].name));
          Pairs *p;
          gint64 tb = cpel_spans_begin_ns (spans, slot, &a[i]);
          gint64 te = cpel_spans_end_ns (spans, slot, &a[i]);

          if (a[i].flags & CPEL_SPAN_ORPHAN)
            {
              (*orphans)++;
              continue;
            }
          p = pairs_get (t, key);
          g_array_append_val (p->b, tb);
          g_array_append_val (p->e, te);
        }
    }
  return t;
}

/* elog_dump's "SECONDS.FRACTION" (7 digits) in units of 100 ns. */
static gint64
dump_time (const char *s)
{
  const char *dot = strchr (s, '.');

  g_assert_nonnull (dot);
  g_assert_cmpuint (strspn (dot + 1, "0123456789"), ==, 7);
  return g_ascii_strtoll (s, NULL, 10) * 10000000 + g_ascii_strtoll (dot + 1, NULL, 10);
}

/* What a span of the dump's text line is: its name and whether it begins. */
static gboolean
vpp_span_of (const char *text,
             char      **name,
             gboolean   *begin)
{
  gsize n = strcspn (text, ": (");

  if (g_str_has_prefix (text, "process tw start"))
    *name = g_strdup ("process tw"), *begin = TRUE;
  else if (g_str_has_prefix (text, "process tw end"))
    *name = g_strdup ("process tw"), *begin = FALSE;
  else if (g_str_has_prefix (text, "api-msg-done"))
    *name = g_strdup ("api-msg"), *begin = FALSE;
  else if (g_str_has_prefix (text, "api-msg:"))
    *name = g_strdup ("api-msg"), *begin = TRUE;
  else if (n > 5 && strncmp (text + n - 5, "-call", 5) == 0)
    *name = g_strndup (text, n - 5), *begin = TRUE;
  else if (n > 7 && strncmp (text + n - 7, "-return", 7) == 0)
    *name = g_strndup (text, n - 7), *begin = FALSE;
  else
    return FALSE;
  return TRUE;
}

/* The dispatch-traced VPP elog (VPP's own elog code) against a pairing of
 * its elog_dump text done here: every span in the same order with the same
 * duration to the dump's precision (100 ns printed; the times are f64
 * seconds), and exactly against a pairing of the file's own event times. */
static void
test_vpp_dispatch (void)
{
  g_autofree char *path = cpel_test_fixture_file ("spans/vpp-dispatch.elog");
  g_autofree char *dump_path = cpel_test_fixture_file ("spans/vpp-dispatch.elog_dump.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(CpelSpanSummary) sum = NULL;
  g_autoptr(GHashTable) ours = NULL;
  g_autoptr(GHashTable) dump = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, pairs_free);
  g_autoptr(GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) exact = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTableIter it;
  gpointer k, v;
  guint orphans = 0, dump_orphans = 0, n_spans = 0;
  gint64 first = -1, worst = 0, worst_b = 0;

  g_assert_no_error (error);
  spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  ours = engine_pairs (file, spans, &orphans);

  g_assert_true (g_file_get_contents (dump_path, &contents, NULL, &error));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "8192 events");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      const char *rest = strchr (lines[i], ' ');
      gint64 t = dump_time (lines[i]);
      const char *label = NULL;
      g_autofree char *name = NULL;
      g_autofree char *key = NULL;
      gboolean begin;

      g_assert_nonnull (rest);
      rest++;
      for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
        {
          const char *l = cpel_file_get_track_label (file, slot);

          if (*l && g_str_has_prefix (rest, l) && rest[strlen (l)] == ' ')
            label = l;
        }
      g_assert_nonnull (label);
      rest += strlen (label);
      while (*rest == ' ')
        rest++;
      if (first < 0)
        first = t;
      if (!vpp_span_of (rest, &name, &begin))
        continue;
      key = g_strdup_printf ("%s/%s", label, name);
      if (begin)
        {
          if (g_hash_table_contains (open, key))
            dump_orphans++;
          g_hash_table_insert (open, g_strdup (key), g_memdup2 (&t, sizeof t));
        }
      else
        {
          gint64 *tb = g_hash_table_lookup (open, key);
          Pairs *p;

          if (tb == NULL)
            {
              dump_orphans++;
              continue;
            }
          p = pairs_get (dump, key);
          g_array_append_val (p->b, *tb);
          g_array_append_val (p->e, t);
          g_hash_table_remove (open, key);
        }
    }
  dump_orphans += g_hash_table_size (open);
  /* the ring starts on a dpdk-input-return, ends with an api-msg */
  g_assert_cmpuint (dump_orphans, ==, 2);
  g_assert_cmpuint (orphans, ==, dump_orphans);
  g_assert_cmpuint (g_hash_table_size (ours), ==, g_hash_table_size (dump));
  g_assert_cmpuint (g_hash_table_size (ours), ==, 2 + 2 * 7);

  g_hash_table_iter_init (&it, dump);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      Pairs *d = v, *o = g_hash_table_lookup (ours, k);

      g_assert_nonnull (o);
      g_assert_cmpuint (o->b->len, ==, d->b->len);
      n_spans += d->b->len;
      for (guint i = 0; i < d->b->len; i++)
        {
          gint64 od = g_array_index (o->e, gint64, i) - g_array_index (o->b, gint64, i);
          gint64 dd = (g_array_index (d->e, gint64, i) - g_array_index (d->b, gint64, i)) * 100;
          gint64 ob = g_array_index (o->b, gint64, i);
          gint64 db = (g_array_index (d->b, gint64, i) - first) * 100;

          /* the same span: it begins where the dump's does and lasts as
           * long, to the two readings' precision: the elog's times are f64
           * seconds near 7.4e9 (steps of 954 ns); elog_dump prints them to
           * 100 ns, the importer rounds time * 10^9 in f64 (steps of
           * 1024 ns): they differ by up to 2.9 µs in this file */
          worst = MAX (worst, ABS (od - dd));
          worst_b = MAX (worst_b, ABS (ob - db));
          g_assert_cmpint (ABS (ob - db), <=, 4000);
          g_assert_cmpint (ABS (od - dd), <=, 4000);
        }
    }
  g_assert_cmpuint (n_spans, ==, 270 + 39 + 270 * 7 + 271 * 6 + 270);
  g_test_message ("largest |duration - elog_dump's|: %" G_GINT64_FORMAT " ns, |begin - "
                  "elog_dump's|: %" G_GINT64_FORMAT " ns", worst, worst_b);

  /* exact: the file's own event times paired by name, summed per span */
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      g_autoptr(GHashTable) begins = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                            g_free, g_free);

      for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
        {
          g_autoptr(GString) text = g_string_new (NULL);
          g_autofree char *name = NULL;
          gboolean begin;
          CpelEvent ev;

          cpel_file_get_track_event (file, slot, i, &ev);
          cpel_file_append_datum (file, &ev, text);
          if (!vpp_span_of (text->str, &name, &begin))
            continue;
          if (begin)
            g_hash_table_insert (begins, g_strdup (name), g_memdup2 (&ev.time_ns, 8));
          else
            {
              gint64 *tb = g_hash_table_lookup (begins, name);
              guint64 *sum_ns;

              if (tb == NULL)
                continue;
              sum_ns = g_hash_table_lookup (exact, name);
              if (sum_ns == NULL)
                {
                  sum_ns = g_new0 (guint64, 1);
                  g_hash_table_insert (exact, g_strdup (name), sum_ns);
                }
              *sum_ns += (guint64) (ev.time_ns - *tb);
              g_hash_table_remove (begins, name);
            }
        }
    }
  sum = cpel_span_summary_compute (file, rules, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_SPANS), ==, 9);
  for (guint i = 0; i < 9; i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_SPANS, i);
      guint64 *want = g_hash_table_lookup (exact, r->name);

      g_assert_nonnull (want);
      g_assert_cmpuint (r->total_ns, ==, *want);
      if (strcmp (r->name, "dpdk-input") == 0)
        g_assert_cmpuint (r->orphan_ends, ==, 1);
      else
        g_assert_cmpuint (r->orphan_ends, ==, 0);
      g_assert_cmpuint (r->orphan_begins, ==, strcmp (r->name, "api-msg") == 0 ? 1 : 0);
    }
}

/* Snabb's breaths in a real engine run against its reference listing:
 * paired by breath number, times to the ns. */
static void
test_snabb_breaths (void)
{
  g_autofree char *path = cpel_test_fixture_file ("snabb-timeline/engine-pipeline.timeline");
  g_autofree char *listing =
    cpel_test_fixture_file ("snabb-timeline/engine-pipeline.timeline.listing.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(GHashTable) begins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GArray) want_b = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) want_e = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  guint engine = G_MAXUINT, k = 0;
  const CpelSpan *a;
  guint64 n;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (listing, &contents, NULL, &error));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = NULL;
      const char *breath;
      gint64 t;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], " ", 8);
      g_assert_cmpuint (g_strv_length (f), >=, 6);
      t = g_ascii_strtoll (f[1], NULL, 10);
      breath = f[6] ? strstr (f[6], "breath=") : NULL;
      if (strstr (f[5], "|engine.breath_start") != NULL)
        {
          g_assert_nonnull (breath);
          g_hash_table_insert (begins, g_strndup (breath, strcspn (breath, " ")),
                               g_memdup2 (&t, sizeof t));
        }
      else if (strstr (f[5], "|engine.breath_end") != NULL)
        {
          gint64 *tb;

          g_assert_nonnull (breath);
          tb = g_hash_table_lookup (begins, breath);
          if (tb == NULL)
            continue;
          g_array_append_val (want_b, *tb);
          g_array_append_val (want_e, t);
        }
    }
  g_assert_cmpuint (want_b->len, ==, 498);

  spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    if (strcmp (cpel_file_get_track_label (file, slot), "engine") == 0)
      engine = slot;
  g_assert_cmpuint (engine, !=, G_MAXUINT);
  a = cpel_spans_get_track_spans (spans, engine, &n);
  for (guint64 i = 0; i < n; i++)
    {
      if (strcmp (cpel_spans_get_name (spans, a[i].name), "engine.breath") != 0)
        continue;
      g_assert_cmpuint (a[i].flags, ==, 0);
      g_assert_cmpuint (k, <, want_b->len);
      g_assert_cmpint (cpel_spans_begin_ns (spans, engine, &a[i]), ==,
                       g_array_index (want_b, gint64, k));
      g_assert_cmpint (cpel_spans_end_ns (spans, engine, &a[i]), ==,
                       g_array_index (want_e, gint64, k));
      k++;
    }
  g_assert_cmpuint (k, ==, want_b->len);
}

/* perf.data of `perf record -e sched:sched_switch -e sched:sched_wakeup -a`:
 * per thread, the Running state (switched in until switched out) against
 * pairing perf script's sched_switch lines (prev_pid / next_pid; times to
 * the ns from the fields listing, line by line the same samples). */
#if HAVE_PERF
static void
test_perf_running (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autofree char *script_path = cpel_test_fixture_file ("perf/sched-wakeup.perf-script.txt");
  g_autofree char *fields_path =
    cpel_test_fixture_file ("perf/sched-wakeup.perf-script-fields.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpanSummary) sum = NULL;
  g_autofree char *script = NULL;
  g_autofree char *fields = NULL;
  g_auto(GStrv) sl = NULL;
  g_auto(GStrv) fl = NULL;
  g_autoptr(GHashTable) since = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) want = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  guint checked = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (script_path, &script, NULL, &error));
  g_assert_true (g_file_get_contents (fields_path, &fields, NULL, &error));
  sl = g_strsplit (script, "\n", -1);
  fl = g_strsplit (fields, "\n", -1);
  g_assert_cmpuint (g_strv_length (sl), ==, g_strv_length (fl));
  for (guint i = 0; sl[i] != NULL; i++)
    {
      const char *p = strstr (sl[i], "sched:sched_switch: ");
      const char *prev, *next, *colon;
      const char *dot;
      guint64 prev_pid, next_pid;
      gint64 t;

      if (p == NULL)
        continue;
      g_assert_nonnull (strstr (fl[i], "sched:sched_switch:"));
      /* "... [000]  2584.361371443: sched:..." */
      colon = strstr (fl[i], ": sched:");
      dot = colon;
      while (dot > fl[i] && dot[-1] != ' ')
        dot--;
      t = g_ascii_strtoll (dot, NULL, 10) * 1000000000
          + g_ascii_strtoll (strchr (dot, '.') + 1, NULL, 10);
      prev = strstr (p, " prev_pid=");
      next = strstr (p, " next_pid=");
      g_assert_nonnull (prev);
      g_assert_nonnull (next);
      prev_pid = g_ascii_strtoull (prev + 10, NULL, 10);
      next_pid = g_ascii_strtoull (next + 10, NULL, 10);
      if (prev_pid != 0 && g_hash_table_contains (since, GUINT_TO_POINTER (prev_pid)))
        {
          gint64 d = t - *(gint64 *) g_hash_table_lookup (since, GUINT_TO_POINTER (prev_pid));
          gint64 *w = g_hash_table_lookup (want, GUINT_TO_POINTER (prev_pid));

          if (w == NULL)
            {
              w = g_new0 (gint64, 3);
              g_hash_table_insert (want, GUINT_TO_POINTER (prev_pid), w);
            }
          w[0]++;
          w[1] += d;
          w[2] = MAX (w[2], d);
          g_hash_table_remove (since, GUINT_TO_POINTER (prev_pid));
        }
      if (next_pid != 0)
        g_hash_table_insert (since, GUINT_TO_POINTER (next_pid), g_memdup2 (&t, sizeof t));
    }
  g_assert_cmpuint (g_hash_table_size (want), >, 5);

  sum = cpel_span_summary_compute (file, rules, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_STATES); i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_STATES, i);
      const char *b = strrchr (r->track, '[');
      guint64 tid;
      gint64 *w;

      if (strcmp (r->name, "Running") != 0 || b == NULL)
        continue;
      tid = g_ascii_strtoull (b + 1, NULL, 10);
      w = g_hash_table_lookup (want, GUINT_TO_POINTER (tid));
      if (r->count == 0)
        {
          g_assert_null (w);
          continue;
        }
      g_assert_nonnull (w);
      g_assert_cmpuint (r->count, ==, (guint64) w[0]);
      g_assert_cmpuint (r->total_ns, ==, (guint64) w[1]);
      g_assert_cmpint (r->max_ns, ==, w[2]);
      checked++;
    }
  g_assert_cmpuint (checked, ==, g_hash_table_size (want));
}
#endif

#if HAVE_CTF
/* "tid|state" (or "CPU n|tid" for the CPUs' threads) -> count, total,
 * min, max of a summary's states table */
static GHashTable *
states_by_tid (CpelSpanSummary *sum)
{
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_STATES); i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_STATES, i);
      const char *tb = strrchr (r->track, '[');
      const char *nb = strrchr (r->name, '[');
      gint64 *v = g_new (gint64, 4);
      char *key;

      if (g_str_has_prefix (r->track, "CPU "))
        key = g_strdup_printf ("%s|%s", r->track, nb ? nb : r->name);
      else
        key = g_strdup_printf ("%s|%s", tb ? tb : r->track, r->name);
      v[0] = (gint64) r->count;
      v[1] = (gint64) r->total_ns;
      v[2] = r->min_ns;
      v[3] = r->max_ns;
      g_assert_false (g_hash_table_contains (h, key));
      g_hash_table_insert (h, key, v);
    }
  return h;
}

static void
assert_tiled (CpelSpans *spans,
              guint      slot)
{
  guint64 n = 0;
  const CpelSpan *a = cpel_spans_get_track_states (spans, slot, &n);

  for (guint64 i = 0; i + 1 < n; i++)
    {
      g_assert_cmpuint (a[i].flags, ==, CPEL_SPAN_STATE);
      g_assert_cmpint (cpel_spans_end_ns (spans, slot, &a[i]), ==,
                       cpel_spans_begin_ns (spans, slot, &a[i + 1]));
    }
  if (n > 0)
    g_assert_cmpuint (a[n - 1].flags, ==, CPEL_SPAN_STATE | CPEL_SPAN_NO_END);
}

#if HAVE_PERF
/* perf data convert --to-ctf of the sched_switch / sched_wakeup fixture:
 * the same states per thread and per CPU as the perf.data itself (the
 * tracks named by tid: CTF names a thread by its first comm, perf.data by
 * its last). */
static void
test_perf_ctf_states (void)
{
  g_autofree char *perf_path = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autofree char *ctf_path = cpel_test_fixture_dir ("ctf/perf-ctf-sched-wakeup");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) pf = cpel_file_new_for_path (perf_path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(CpelFile) cf = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpanSummary) ps = NULL;
  g_autoptr(CpelSpanSummary) cs = NULL;
  g_autoptr(GHashTable) p = NULL;
  g_autoptr(GHashTable) c = NULL;
  GHashTableIter it;
  gpointer k, v;
  guint woken = 0;

  g_assert_no_error (error);
  cf = cpel_file_new_for_path (ctf_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  ps = cpel_span_summary_compute (pf, rules, NULL, TRUE, NULL, &error);
  g_assert_no_error (error);
  cs = cpel_span_summary_compute (cf, rules, NULL, TRUE, NULL, &error);
  g_assert_no_error (error);
  p = states_by_tid (ps);
  c = states_by_tid (cs);
  g_assert_cmpuint (g_hash_table_size (p), >, 50);
  g_assert_cmpuint (g_hash_table_size (c), ==, g_hash_table_size (p));
  g_hash_table_iter_init (&it, p);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      gint64 *w = g_hash_table_lookup (c, k);

      if (w == NULL)
        g_error ("%s: in the perf.data only", (const char *) k);
      g_assert_cmpmem (w, 4 * sizeof (gint64), v, 4 * sizeof (gint64));
      woken += g_str_has_suffix (k, "|Runnable");
    }
  g_assert_cmpuint (woken, >, 5);
}
#endif

/* An LTTng kernel trace (LTTng-modules 2.10, sched_* events, four CPUs):
 * per thread, Running against pairing the listing's sched_switch lines
 * (next_tid in, prev_tid out, per thread); every prev_state it holds
 * (0, 1, 2, 128, 258, 1026, 4096) gives a state; the states tile. */
static void
test_lttng_states (void)
{
  g_autofree char *dir = cpel_test_fixture_dir ("ctf/public/lttng-tracefile-rotation");
  g_autofree char *ref = cpel_test_fixture_file (
    "ctf/public/lttng-tracefile-rotation.babeltrace2.txt.gz");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_path (dir, NULL, NULL, NULL, NULL, &error);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpanSummary) sum = NULL;
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(GHashTable) got = NULL;
  g_autoptr(GHashTable) since = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) want = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GRegex) re = g_regex_new ("^\\[(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{9})\\].* "
                                      "sched_switch: .* prev_tid = (\\d+), .* next_tid = (\\d+),",
                                      0, 0, NULL);
  g_autofree char *gz = NULL;
  gsize gz_len = 0;
  g_auto(GStrv) lines = NULL;
  static const char *const names[] = { "Running", "Sleeping", "Uninterruptible Sleep", "Idle",
                                       "Runnable (Preempted)", "Runnable" };
  guint checked = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (ref, &gz, &gz_len, &error));
  {
    g_autoptr(GInputStream) raw = g_memory_input_stream_new_from_data (gz, (gssize) gz_len, NULL);
    g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
    g_autoptr(GInputStream) in = g_converter_input_stream_new (raw, G_CONVERTER (z));
    g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
    g_autoptr(GBytes) bytes = NULL;
    g_autofree char *text = NULL;

    g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
    g_assert_no_error (error);
    bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
    text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    lines = g_strsplit (text, "\n", -1);
  }
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      gint64 t = 0;
      guint prev, next;

      if (!g_regex_match (re, lines[i], 0, &m))
        continue;
      for (guint g = 1; g <= 3; g++)
        {
          g_autofree char *f = g_match_info_fetch (m, (gint) g);

          t = t * 60 + g_ascii_strtoll (f, NULL, 10);
        }
      {
        g_autofree char *ns = g_match_info_fetch (m, 4);
        g_autofree char *ps = g_match_info_fetch (m, 5);
        g_autofree char *nx = g_match_info_fetch (m, 6);

        t = t * 1000000000 + g_ascii_strtoll (ns, NULL, 10);
        prev = (guint) g_ascii_strtoull (ps, NULL, 10);
        next = (guint) g_ascii_strtoull (nx, NULL, 10);
      }
      if (prev != 0 && g_hash_table_contains (since, GUINT_TO_POINTER (prev)))
        {
          gint64 d = t - *(gint64 *) g_hash_table_lookup (since, GUINT_TO_POINTER (prev));
          gint64 *w = g_hash_table_lookup (want, GUINT_TO_POINTER (prev));

          if (w == NULL)
            {
              w = g_new0 (gint64, 3);
              g_hash_table_insert (want, GUINT_TO_POINTER (prev), w);
            }
          w[0]++;
          w[1] += d;
          w[2] = MAX (w[2], d);
          g_hash_table_remove (since, GUINT_TO_POINTER (prev));
        }
      if (next != 0)
        g_hash_table_insert (since, GUINT_TO_POINTER (next), g_memdup2 (&t, sizeof t));
    }
  g_assert_cmpuint (g_hash_table_size (want), >, 100);

  sum = cpel_span_summary_compute (file, rules, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  got = states_by_tid (sum);
  {
    GHashTableIter it;
    gpointer k, v;

    g_hash_table_iter_init (&it, want);
    while (g_hash_table_iter_next (&it, &k, &v))
      {
        g_autofree char *key = g_strdup_printf ("[%u]|Running", GPOINTER_TO_UINT (k));
        gint64 *w = v, *r = g_hash_table_lookup (got, key);

        g_assert_nonnull (r);
        g_assert_cmpint (r[0], ==, w[0]);
        g_assert_cmpint (r[1], ==, w[1]);
        g_assert_cmpint (r[3], ==, w[2]);
        checked++;
      }
  }
  g_assert_cmpuint (checked, ==, g_hash_table_size (want));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GHashTableIter it;
      gpointer k, v;
      gint64 n = 0;

      g_hash_table_iter_init (&it, got);
      while (g_hash_table_iter_next (&it, &k, &v))
        if (g_str_has_suffix (k, names[i]) && ((const char *) k)[strlen (k) - strlen (names[i]) - 1]
                                              == '|')
          n += ((gint64 *) v)[0];
      if (n == 0)
        g_error ("no %s state", names[i]);
    }
  spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    assert_tiled (spans, slot);
}
#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/spans/nesting", test_nesting);
  g_test_add_func ("/core/spans/self-stddev", test_self_stddev);
  g_test_add_func ("/core/spans/orphans", test_orphans);
  g_test_add_func ("/core/spans/second-begin", test_second_begin);
  g_test_add_func ("/core/spans/keys", test_keys);
  g_test_add_func ("/core/spans/key-waker", test_key_waker);
  g_test_add_func ("/core/spans/equal-times", test_equal_times);
  g_test_add_func ("/core/spans/wrapped-ring", test_wrapped_ring);
  g_test_add_func ("/core/spans/no-events", test_no_events);
  g_test_add_func ("/core/spans/captured-names", test_captured_names);
  g_test_add_func ("/core/spans/builtin-texts", test_builtin_texts);
  g_test_add_func ("/core/spans/rule-counts", test_rule_counts);
  g_test_add_func ("/core/spans/states", test_states);
  g_test_add_func ("/core/spans/state-from", test_state_from);
  g_test_add_func ("/core/spans/sched-states", test_sched_states);
  g_test_add_func ("/core/spans/percentiles", test_percentiles);
  g_test_add_func ("/core/spans/percentiles-random", test_percentiles_random);
  g_test_add_func ("/core/spans/range", test_range);
  g_test_add_func ("/core/spans/stream-equals-index", test_stream_equals_index);
  g_test_add_func ("/core/spans/parallel", test_parallel);
  g_test_add_func ("/core/spans/errors", test_errors);
  g_test_add_func ("/core/spans/rules/errors", test_parse_errors);
  g_test_add_func ("/core/spans/rules/check", test_check_text);
  g_test_add_func ("/core/spans/rules/roundtrip", test_parse_roundtrip);
  g_test_add_func ("/core/spans/rules/glob", test_glob_and_fields);
  g_test_add_func ("/core/spans/vpp-dispatch", test_vpp_dispatch);
  g_test_add_func ("/core/spans/snabb-breaths", test_snabb_breaths);
#if HAVE_PERF
  g_test_add_func ("/core/spans/coverage", test_coverage);
  g_test_add_func ("/core/spans/perf-running", test_perf_running);
#endif
#if HAVE_CTF
  g_test_add_func ("/core/spans/lttng-states", test_lttng_states);
#if HAVE_PERF
  g_test_add_func ("/core/spans/perf-ctf-states", test_perf_ctf_states);
#endif
#endif
  return g_test_run ();
}
