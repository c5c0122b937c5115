/* SPDX-License-Identifier: Apache-2.0 */
/* test-session-spans.c — CpelSession's spans: derived off the main thread
 * from the file by the rules, again when either changes (the derivation
 * running cancelled), shown or not, a span selected; no display needed. */
#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-session.h"

typedef struct
{
  guint64     t;
  guint32     track;
  const char *event;
} Ev;

/* VPP dispatch tracing on two threads (track 1: vpp_main, 2: worker 1):
 * (times from the first event, "start" at 0):
 *   track 1: ip4-input [100, 2000) holds ip4-lookup [200, 1400) (depth 1)
 *   track 2: an ip4-lookup ending at 50 (no begin), ethernet-input from
 *            3000 (no end: the capture's last event) */
static const Ev vpp_events[] = {
  { 0, 1, "start" },
  { 50, 2, "ip4-lookup-return" },
  { 100, 1, "ip4-input-call" },
  { 200, 1, "ip4-lookup-call" },
  { 1400, 1, "ip4-lookup-return" },
  { 2000, 1, "ip4-input-return" },
  { 3000, 2, "ethernet-input-call" },
};

/* Another capture: one span "api-msg" [10, 30) on track 1. */
static const Ev api_events[] = {
  { 0, 1, "start" },
  { 10, 1, "api-msg" },
  { 30, 1, "api-msg-done" },
};

static CpelFile *
file_new (const Ev *evs,
          guint     n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, &error);
  g_autoptr(GHashTable) codes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GBytes) bytes = NULL;
  CpelFile *file;
  guint table;

  g_assert_no_error (error);
  table = cpel_writer_add_string_table (w, "FileStrtab");
  cpel_writer_begin_event_defs (w, table);
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (codes, evs[i].event))
      {
        guint code = g_hash_table_size (codes) + 1;

        g_hash_table_insert (codes, (gpointer) evs[i].event, GUINT_TO_POINTER (code));
        cpel_writer_add_event_def (w, code, evs[i].event, NULL);
      }
  cpel_writer_begin_track_defs (w, table);
  cpel_writer_add_track_def (w, 1, "vpp_main");
  cpel_writer_add_track_def (w, 2, "worker 1");
  cpel_writer_begin_events (w, table, 1000000000u, n);
  for (guint i = 0; i < n; i++)
    cpel_writer_add_event (w, evs[i].t, evs[i].track,
                           GPOINTER_TO_UINT (g_hash_table_lookup (codes, evs[i].event)), 0);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

typedef struct
{
  guint n_ready;      /* "spans" notified with spans */
  guint n_dropped;    /* "spans" notified without */
  guint n_show;
  guint n_selection;
} Counts;

static void
on_spans (CpelSession *session, GParamSpec *pspec, Counts *c)
{
  if (cpel_session_get_spans (session) != NULL)
    c->n_ready++;
  else
    c->n_dropped++;
}

static void
on_show (CpelSession *session, GParamSpec *pspec, Counts *c)
{
  c->n_show++;
}

static void
on_selection (CpelSession *session, Counts *c)
{
  c->n_selection++;
}

static CpelSession *
session_new (Counts *c)
{
  CpelSession *session = cpel_session_new ();

  g_signal_connect (session, "notify::spans", G_CALLBACK (on_spans), c);
  g_signal_connect (session, "notify::show-spans", G_CALLBACK (on_show), c);
  g_signal_connect (session, "selection-changed", G_CALLBACK (on_selection), c);
  return session;
}

/* Waits for the derivation running to end (a condition, not a time). */
static void
wait_spans (CpelSession *session)
{
  while (cpel_session_get_spans_pending (session))
    g_main_context_iteration (NULL, TRUE);
}

/* The track's spans as "name[begin,end]d<depth><flags>" (< no begin,
 * > no end). */
static char *
describe (CpelSpans *spans, guint slot)
{
  GString *out = g_string_new (NULL);
  guint64 n = 0;
  const CpelSpan *a = cpel_spans_get_track_spans (spans, slot, &n);

  for (guint64 i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%s%s[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "]d%u",
                              out->len > 0 ? " " : "",
                              cpel_spans_get_name (spans, a[i].name),
                              cpel_spans_begin_ns (spans, slot, &a[i]),
                              cpel_spans_end_ns (spans, slot, &a[i]), a[i].depth);
      if (a[i].flags & CPEL_SPAN_NO_BEGIN)
        g_string_append_c (out, '<');
      if (a[i].flags & CPEL_SPAN_NO_END)
        g_string_append_c (out, '>');
    }
  return g_string_free (out, FALSE);
}

static void
test_derive (void)
{
  Counts c = { 0 };
  g_autoptr(CpelSession) session = session_new (&c);
  g_autoptr(CpelFile) file = file_new (vpp_events, G_N_ELEMENTS (vpp_events));
  g_autofree char *s0 = NULL;
  g_autofree char *s1 = NULL;

  /* built-in rules, shown, nothing derived without a file */
  g_assert_nonnull (cpel_session_get_span_rules (session));
  g_assert_cmpuint (cpel_span_rules_get_n_rules (cpel_session_get_span_rules (session)), >, 0);
  g_assert_true (cpel_session_get_show_spans (session));
  g_assert_false (cpel_session_get_spans_pending (session));
  g_assert_null (cpel_session_get_spans (session));

  cpel_session_set_file (session, file);
  g_assert_true (cpel_session_get_spans_pending (session));
  g_assert_null (cpel_session_get_spans (session));
  wait_spans (session);
  g_assert_cmpuint (c.n_ready, ==, 1);
  g_assert_nonnull (cpel_session_get_spans (session));

  s0 = describe (cpel_session_get_spans (session), 0);
  s1 = describe (cpel_session_get_spans (session), 1);
  g_assert_cmpstr (s0, ==, "ip4-input[100,2000]d0 ip4-lookup[200,1400]d1");
  g_assert_cmpstr (s1, ==, "ip4-lookup[0,50]d0< ethernet-input[3000,3000]d0>");

  /* show-spans: notified on a real change only */
  cpel_session_set_show_spans (session, TRUE);
  g_assert_cmpuint (c.n_show, ==, 0);
  cpel_session_set_show_spans (session, FALSE);
  g_assert_false (cpel_session_get_show_spans (session));
  g_object_set (session, "show-spans", TRUE, NULL);
  g_assert_true (cpel_session_get_show_spans (session));
  g_assert_cmpuint (c.n_show, ==, 2);
  /* nothing derived again */
  g_assert_false (cpel_session_get_spans_pending (session));
  g_assert_cmpuint (c.n_ready, ==, 1);
}

static void
test_rules (void)
{
  Counts c = { 0 };
  g_autoptr(CpelSession) session = session_new (&c);
  g_autoptr(CpelFile) file = file_new (vpp_events, G_N_ELEMENTS (vpp_events));
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *s0 = NULL;
  g_autofree char *s1 = NULL;
  gpointer got = NULL;

  cpel_session_set_file (session, file);
  wait_spans (session);
  g_assert_cmpuint (c.n_ready, ==, 1);

  g_assert_true (cpel_span_rules_add_text (rules, "span lookup begin event=ip4-lookup-call "
                                           "end event=ip4-lookup-return\n", -1, "test",
                                           &error));
  g_assert_no_error (error);
  cpel_session_set_span_rules (session, rules);
  g_object_get (session, "span-rules", &got, NULL);
  g_assert_true (got == rules);
  /* the old spans are dropped at once, the new ones derived */
  g_assert_cmpuint (c.n_dropped, ==, 1);
  g_assert_null (cpel_session_get_spans (session));
  g_assert_true (cpel_session_get_spans_pending (session));
  wait_spans (session);
  g_assert_cmpuint (c.n_ready, ==, 2);
  s0 = describe (cpel_session_get_spans (session), 0);
  s1 = describe (cpel_session_get_spans (session), 1);
  g_assert_cmpstr (s0, ==, "lookup[200,1400]d0");
  g_assert_cmpstr (s1, ==, "lookup[0,50]d0<");

  /* the same rules again: nothing to do */
  cpel_session_set_span_rules (session, rules);
  g_assert_false (cpel_session_get_spans_pending (session));
}

static void
finalized (gpointer data, GObject *where)
{
  *(gboolean *) data = TRUE;
}

static void
test_cancel (void)
{
  Counts c = { 0 };
  CpelSession *session = session_new (&c);
  g_autoptr(CpelFile) vpp = file_new (vpp_events, G_N_ELEMENTS (vpp_events));
  g_autoptr(CpelFile) api = file_new (api_events, G_N_ELEMENTS (api_events));
  g_autofree char *s0 = NULL;
  gboolean gone = FALSE;

  /* a second file while the first one's spans are derived: only the
   * second one's are ever shown */
  cpel_session_set_file (session, vpp);
  cpel_session_set_file (session, api);
  g_assert_true (cpel_session_get_spans_pending (session));
  wait_spans (session);
  g_assert_cmpuint (c.n_ready, ==, 1);
  s0 = describe (cpel_session_get_spans (session), 0);
  g_assert_cmpstr (s0, ==, "api-msg[10,30]d0");

  /* no file while deriving: nothing pending, nothing shown */
  cpel_session_set_file (session, vpp);
  g_assert_true (cpel_session_get_spans_pending (session));
  cpel_session_set_file (session, NULL);
  g_assert_false (cpel_session_get_spans_pending (session));
  g_assert_null (cpel_session_get_spans (session));

  /* a session closed while deriving goes at once (the derivation does not
   * hold it), and nothing is delivered to it */
  cpel_session_set_file (session, api);
  g_assert_true (cpel_session_get_spans_pending (session));
  g_object_weak_ref (G_OBJECT (session), finalized, &gone);
  g_object_unref (session);
  g_assert_true (gone);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (c.n_ready, ==, 1);
}

static void
count_notify (GObject *object, GParamSpec *pspec, guint *n)
{
  (*n)++;
}

/* Finding a span by its begin event, going to it: selected, the range
 * around it. */
static void
test_go_to_span (void)
{
  Counts c = { 0 };
  g_autoptr(CpelSession) session = session_new (&c);
  g_autoptr(CpelFile) file = file_new (vpp_events, G_N_ELEMENTS (vpp_events));
  CpelSessionSpanRef ref = { .slot = 0, .state = FALSE, .index = 1 }, found = { 0 }, got;
  const CpelSpan *span;
  CpelSpans *spans;
  const CpelRange *range;
  gint64 b, e;

  cpel_session_set_file (session, file);
  wait_spans (session);
  spans = cpel_session_get_spans (session);
  span = cpel_session_get_span (session, &ref);
  g_assert_nonnull (span);
  b = cpel_spans_begin_ns (spans, 0, span);
  e = cpel_spans_end_ns (spans, 0, span);
  g_assert_true (cpel_session_find_span (session, 0, span->begin, b,
                                         cpel_spans_get_name (spans, span->name), &found));
  g_assert_cmpuint (found.index, ==, 1);
  g_assert_false (found.state);
  g_assert_false (cpel_session_find_span (session, 0, span->begin, b, "no-such-span", &found));

  cpel_session_go_to_span (session, &ref);
  g_assert_nonnull (cpel_session_get_span_selection (session, &got));
  g_assert_cmpuint (got.index, ==, 1);
  range = cpel_session_get_range (session);
  g_assert_cmpint (range->t0, <=, b);
  g_assert_cmpint (range->t1, >=, e);
}

/* The spans highlighted: a copy kept, notified once per change. */
static void
test_span_filter (void)
{
  g_autoptr(CpelSession) session = cpel_session_new ();
  g_autoptr(CpelSpanFilter) filter = cpel_span_filter_new ("ip4-lookup", 1000, 1999);
  const CpelSpanFilter *kept;
  guint n = 0;

  g_signal_connect (session, "notify::span-filter", G_CALLBACK (count_notify), &n);
  g_assert_null (cpel_session_get_span_filter (session));
  cpel_session_set_span_filter (session, filter);
  g_assert_cmpuint (n, ==, 1);
  kept = cpel_session_get_span_filter (session);
  g_assert_true (kept != filter);
  g_assert_cmpstr (kept->name, ==, filter->name);
  g_assert_cmpint (kept->min_ns, ==, 1000);
  g_assert_cmpint (kept->max_ns, ==, 1999);
  g_assert_true (cpel_span_filter_match (kept, "ip4-lookup", 1500));
  g_assert_false (cpel_span_filter_match (kept, "ip4-lookup", 2000));
  /* the same again: no notification */
  cpel_session_set_span_filter (session, filter);
  g_assert_cmpuint (n, ==, 1);
  cpel_session_set_span_filter (session, NULL);
  g_assert_cmpuint (n, ==, 2);
  g_assert_null (cpel_session_get_span_filter (session));
  cpel_session_set_span_filter (session, NULL);
  g_assert_cmpuint (n, ==, 2);
}

static void
test_select (void)
{
  Counts c = { 0 };
  g_autoptr(CpelSession) session = session_new (&c);
  g_autoptr(CpelFile) file = file_new (vpp_events, G_N_ELEMENTS (vpp_events));
  CpelSessionSpanRef ref = { .slot = 0, .state = FALSE, .index = 1 }, got;
  CpelSessionSpanRef bad = { .slot = 0, .state = FALSE, .index = 2 };
  const CpelSpan *span;

  cpel_session_set_file (session, file);
  /* nothing to select before the spans are there */
  cpel_session_select_span (session, &ref);
  g_assert_null (cpel_session_get_span_selection (session, NULL));
  wait_spans (session);

  cpel_session_select_span (session, &bad);
  g_assert_null (cpel_session_get_span_selection (session, NULL));
  g_assert_cmpuint (c.n_selection, ==, 0);

  cpel_session_select (session, 0, 0, FALSE);
  g_assert_cmpuint (c.n_selection, ==, 1);
  cpel_session_select_span (session, &ref);
  g_assert_cmpuint (c.n_selection, ==, 2);
  g_assert_false (cpel_session_get_selection (session, NULL, NULL));
  span = cpel_session_get_span_selection (session, &got);
  g_assert_nonnull (span);
  g_assert_cmpuint (got.slot, ==, 0);
  g_assert_cmpuint (got.index, ==, 1);
  g_assert_cmpstr (cpel_spans_get_name (cpel_session_get_spans (session), span->name), ==,
                   "ip4-lookup");
  g_assert_cmpuint (span->depth, ==, 1);
  /* the same again: no signal */
  cpel_session_select_span (session, &ref);
  g_assert_cmpuint (c.n_selection, ==, 2);

  /* an event selected drops it */
  cpel_session_select (session, 1, 0, FALSE);
  g_assert_null (cpel_session_get_span_selection (session, NULL));
  g_assert_cmpuint (c.n_selection, ==, 3);

  /* as do new spans */
  cpel_session_select_span (session, &ref);
  g_assert_cmpuint (c.n_selection, ==, 4);
  {
    g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();

    cpel_session_set_span_rules (session, rules);
  }
  g_assert_null (cpel_session_get_span_selection (session, NULL));
  g_assert_cmpuint (c.n_selection, ==, 5);
  wait_spans (session);

  cpel_session_select_span (session, &ref);
  cpel_session_unselect (session);
  g_assert_null (cpel_session_get_span_selection (session, NULL));
  g_assert_cmpuint (c.n_selection, ==, 7);
}

static void
test_step (void)
{
  Counts c = { 0 };
  g_autoptr(CpelSession) session = session_new (&c);
  g_autoptr(CpelFile) file = file_new (vpp_events, G_N_ELEMENTS (vpp_events));
  CpelSessionSpanRef ref = { .slot = 1, .state = FALSE, .index = 0 }, got;
  CpelRange range = { 0, 40 };

  cpel_session_set_file (session, file);
  wait_spans (session);
  g_assert_false (cpel_session_step_span (session, 1));

  /* track 2: the orphan lookup [0, 50], then ethernet-input from 3000 */
  cpel_session_set_range (session, &range, CPEL_SESSION_STEP);
  cpel_session_select_span (session, &ref);
  g_assert_false (cpel_session_step_span (session, -1));
  g_assert_true (cpel_session_step_span (session, 1));
  g_assert_nonnull (cpel_session_get_span_selection (session, &got));
  g_assert_cmpuint (got.slot, ==, 1);
  g_assert_cmpuint (got.index, ==, 1);
  /* brought into the range */
  g_assert_cmpint (cpel_session_get_range (session)->t0, <=, 3000);
  g_assert_cmpint (cpel_session_get_range (session)->t1, >, 3000);
  g_assert_false (cpel_session_step_span (session, 1));
  g_assert_true (cpel_session_step_span (session, -1));
  g_assert_nonnull (cpel_session_get_span_selection (session, &got));
  g_assert_cmpuint (got.index, ==, 0);
}

static void
on_compare_spans (CpelSession *session, GParamSpec *pspec, guint *n)
{
  (*n)++;
}

/* The compare file's spans: derived by the compare rules (none without),
 * apart from the file's; again for another compare file or rules, dropped
 * (notified) without a compare file. */
static void
test_compare (void)
{
  g_autoptr(CpelSession) session = cpel_session_new ();
  g_autoptr(CpelFile) a = file_new (vpp_events, G_N_ELEMENTS (vpp_events));
  g_autoptr(CpelFile) b = file_new (api_events, G_N_ELEMENTS (api_events));
  g_autoptr(CpelSpanRules) builtin = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpanRules) none = cpel_span_rules_new ();
  CpelSpans *spans;
  guint n = 0;
  g_autofree char *text = NULL;

  g_signal_connect (session, "notify::compare-spans", G_CALLBACK (on_compare_spans), &n);
  cpel_session_set_file (session, a);
  cpel_session_set_compare_file (session, b);
  wait_spans (session);
  /* no compare rules: none derived */
  g_assert_null (cpel_session_get_compare_spans (session));
  g_assert_null (cpel_session_get_spans_for (session, b));
  g_assert_true (cpel_session_get_spans_for (session, a) == cpel_session_get_spans (session));

  cpel_session_set_compare_span_rules (session, builtin);
  g_assert_true (cpel_session_get_compare_span_rules (session) == builtin);
  while (cpel_session_get_compare_spans (session) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n, ==, 1);
  spans = cpel_session_get_compare_spans (session);
  g_assert_true (cpel_session_get_spans_for (session, b) == spans);
  g_assert_true (spans != cpel_session_get_spans (session));
  text = describe (spans, 0);
  g_assert_cmpstr (text, ==, "api-msg[10,30]d0");

  /* other rules for B only: A's spans stay */
  spans = cpel_session_get_spans (session);
  cpel_session_set_compare_span_rules (session, none);
  g_assert_cmpuint (n, ==, 2);   /* dropped */
  while (cpel_session_get_compare_spans (session) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (cpel_spans_get_n_spans (cpel_session_get_compare_spans (session)), ==, 0);
  g_assert_true (cpel_session_get_spans (session) == spans);

  /* no compare file: none */
  cpel_session_set_compare_file (session, NULL);
  g_assert_null (cpel_session_get_compare_spans (session));
  g_assert_null (cpel_session_get_spans_for (session, b));
}

/* ip4-lookup on both threads, of several durations:
 *   track 1: [100, 200) 100 ns, [300, 1300) 1000 ns, [5000, 5005) 5 ns
 *   track 2: [150, 2150) 2000 ns, [2500, 2510) 10 ns */
static const Ev lookup_events[] = {
  { 0, 1, "start" },
  { 100, 1, "ip4-lookup-call" },
  { 150, 2, "ip4-lookup-call" },
  { 200, 1, "ip4-lookup-return" },
  { 300, 1, "ip4-lookup-call" },
  { 1300, 1, "ip4-lookup-return" },
  { 2150, 2, "ip4-lookup-return" },
  { 2500, 2, "ip4-lookup-call" },
  { 2510, 2, "ip4-lookup-return" },
  { 5000, 1, "ip4-lookup-call" },
  { 5005, 1, "ip4-lookup-return" },
};

/* The spans a filter lets through, in time order; n / Shift+n's steps
 * through them (select and centre), wrapping around. */
static void
test_matches (void)
{
  Counts c = { 0 };
  g_autoptr(CpelSession) session = session_new (&c);
  g_autoptr(CpelFile) file = file_new (lookup_events, G_N_ELEMENTS (lookup_events));
  g_autoptr(CpelSpanFilter) filter = cpel_span_filter_new ("ip4-lookup", 100, G_MAXINT64);
  const CpelSessionSpanMatch *m;
  CpelSessionSpanRef got;
  CpelRange range = { 4000, 4100 };
  guint64 n = 1;

  cpel_session_set_file (session, file);
  g_assert_null (cpel_session_get_span_matches (session, &n));
  g_assert_cmpuint (n, ==, 0);
  wait_spans (session);
  g_assert_false (cpel_session_step_span_match (session, 1));
  cpel_session_set_span_filter (session, filter);
  m = cpel_session_get_span_matches (session, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (m[0].begin_ns, ==, 100);
  g_assert_cmpuint (m[0].slot, ==, 0);
  g_assert_cmpint (m[1].begin_ns, ==, 150);
  g_assert_cmpuint (m[1].slot, ==, 1);
  g_assert_cmpint (m[2].begin_ns, ==, 300);
  g_assert_cmpuint (m[2].slot, ==, 0);
  g_assert_cmpuint (m[2].index, ==, 1);
  g_assert_cmpint (cpel_session_get_span_match_position (session), ==, -1);

  /* from the range's centre (4050): the first after it is none, so the
   * first of all; back from there: the last */
  cpel_session_set_range (session, &range, CPEL_SESSION_STEP);
  g_assert_true (cpel_session_step_span_match (session, 1));
  g_assert_nonnull (cpel_session_get_span_selection (session, &got));
  g_assert_cmpuint (got.slot, ==, 0);
  g_assert_cmpuint (got.index, ==, 0);
  g_assert_cmpint (cpel_session_get_span_match_position (session), ==, 0);
  /* centred */
  g_assert_cmpint (cpel_session_get_range (session)->t0, <=, 100);
  g_assert_cmpint (cpel_session_get_range (session)->t1, >=, 200);
  g_assert_true (cpel_session_step_span_match (session, 1));
  g_assert_cmpint (cpel_session_get_span_match_position (session), ==, 1);
  g_assert_nonnull (cpel_session_get_span_selection (session, &got));
  g_assert_cmpuint (got.slot, ==, 1);
  g_assert_true (cpel_session_step_span_match (session, 1));
  g_assert_cmpint (cpel_session_get_span_match_position (session), ==, 2);
  g_assert_true (cpel_session_step_span_match (session, 1));
  g_assert_cmpint (cpel_session_get_span_match_position (session), ==, 0);
  g_assert_true (cpel_session_step_span_match (session, -1));
  g_assert_cmpint (cpel_session_get_span_match_position (session), ==, 2);

  /* a span selected that is no match: the next after it, the last before */
  {
    CpelSessionSpanRef short_one = { .slot = 1, .state = FALSE, .index = 1 };   /* 2500 */

    cpel_session_select_span (session, &short_one);
    g_assert_cmpint (cpel_session_get_span_match_position (session), ==, -1);
    g_assert_true (cpel_session_step_span_match (session, -1));
    g_assert_cmpint (cpel_session_get_span_match_position (session), ==, 2);
    cpel_session_select_span (session, &short_one);
    g_assert_true (cpel_session_step_span_match (session, 1));
    g_assert_cmpint (cpel_session_get_span_match_position (session), ==, 0);
  }

  /* a rectangle over a scatter: begins in [120, 400] and at least 1 us */
  {
    g_autoptr(CpelSpanFilter) rect = cpel_span_filter_new ("ip4-lookup", 1000, G_MAXINT64);

    rect->from_ns = 120;
    rect->to_ns = 400;
    cpel_session_set_span_filter (session, rect);
    m = cpel_session_get_span_matches (session, &n);
    g_assert_cmpuint (n, ==, 2);
    g_assert_cmpint (m[0].begin_ns, ==, 150);
    g_assert_cmpint (m[1].begin_ns, ==, 300);
    rect->to_ns = 299;
    cpel_session_set_span_filter (session, rect);
    m = cpel_session_get_span_matches (session, &n);
    g_assert_cmpuint (n, ==, 1);
  }
  cpel_session_set_span_filter (session, NULL);
  g_assert_null (cpel_session_get_span_matches (session, &n));
  g_assert_false (cpel_session_step_span_match (session, 1));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/session/spans/filter", test_span_filter);
  g_test_add_func ("/model/session/spans/matches", test_matches);
  g_test_add_func ("/model/session/spans/go-to", test_go_to_span);
  g_test_add_func ("/model/session/spans/derive", test_derive);
  g_test_add_func ("/model/session/spans/rules", test_rules);
  g_test_add_func ("/model/session/spans/cancel", test_cancel);
  g_test_add_func ("/model/session/spans/select", test_select);
  g_test_add_func ("/model/session/spans/step", test_step);
  g_test_add_func ("/model/session/spans/compare", test_compare);
  return g_test_run ();
}
