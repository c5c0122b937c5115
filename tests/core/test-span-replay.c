/* SPDX-License-Identifier: Apache-2.0 */
/* test-span-replay.c — statistics of a range from the whole capture's
 * spans (cpel_span_summary_compute_from_spans ()) against deriving the
 * range again (cpel_span_summary_compute ()) */
#include <string.h>

#include "cpel-core.h"
#include "cpel-test-util.h"

/* ---- random captures whose spans nest ------------------------------------- */

typedef struct
{
  guint64     t;
  guint32     track;
  const char *event;
  const char *text;
} Ev;

/* Rules of every kind the engine has: spans without a key (a name from the
 * event's), with a key, that restart, and states. */
#define RULES                                                          \
  "span * begin event=*-call end event=*-return\n"                     \
  "span k begin event=kb end event=ke key id\n"                        \
  "span r begin event=rb end event=re restart\n"                       \
  "state * on event=s field.v=*\n"

static const char *nodes[] = { "ip4-lookup", "ip4-rewrite", "dpdk-input" };
static const char *ids[] = { "id=1", "id=2", "id=3" };
static const char *values[] = { "v=run", "v=wait", "v=sleep" };

typedef struct
{
  int         kind;    /* 0 node, 1 keyed, 2 restart */
  const char *end;
  const char *text;
} Open;

/* Per track, spans open and close as a stack (one stack for every rule, so
 * that they nest); returns that end without a begin (the capture began
 * inside), begins left open, a restart's second begin, states between. */
static GArray *
random_events (GRand *rand,
               guint  n_tracks,
               guint  n)
{
  GArray *evs = g_array_new (FALSE, TRUE, sizeof (Ev));
  GArray **stacks = g_new0 (GArray *, n_tracks);
  static char *ends[G_N_ELEMENTS (nodes)];

  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    if (ends[i] == NULL)
      ends[i] = g_strdup_printf ("%s-return", nodes[i]);
  for (guint k = 0; k < n_tracks; k++)
    stacks[k] = g_array_new (FALSE, FALSE, sizeof (Open));
  for (guint i = 0; i < n; i++)
    {
      guint32 track = (guint32) g_rand_int_range (rand, 0, (gint32) n_tracks);
      GArray *st = stacks[track];
      int what = g_rand_int_range (rand, 0, 100);
      Ev ev = { (guint64) i * 3 + (guint64) g_rand_int_range (rand, 0, 3), track + 1, NULL, "" };

      if (what < 8)
        {
          ev.event = "s";
          ev.text = values[g_rand_int_range (rand, 0, G_N_ELEMENTS (values))];
        }
      else if (what < 10)
        {
          /* an end of nothing open */
          guint node = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (nodes));

          if (st->len > 0)
            continue;
          ev.event = ends[node];
        }
      else if (what < 14 && st->len > 0
               && g_array_index (st, Open, st->len - 1).kind == 2)
        /* a restart: the open one ends here, a new one begins */
        ev.event = "rb";
      else if (what < 55 && st->len < 6)
        {
          Open o;
          gboolean restart_open = FALSE;

          for (guint j = 0; j < st->len; j++)
            restart_open |= g_array_index (st, Open, j).kind == 2;
          /* one restart span open at a time: a second begin ends them all */
          o.kind = g_rand_int_range (rand, 0, restart_open ? 2 : 3);
          if (o.kind == 0)
            {
              guint node = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (nodes));
              static char *calls[G_N_ELEMENTS (nodes)];

              if (calls[node] == NULL)
                calls[node] = g_strdup_printf ("%s-call", nodes[node]);
              ev.event = calls[node];
              o.end = ends[node];
              o.text = "";
            }
          else if (o.kind == 1)
            {
              ev.event = "kb";
              ev.text = ids[g_rand_int_range (rand, 0, G_N_ELEMENTS (ids))];
              o.end = "ke";
              o.text = ev.text;
            }
          else
            {
              ev.event = "rb";
              o.end = "re";
              o.text = "";
            }
          g_array_append_val (st, o);
        }
      else if (st->len > 0)
        {
          Open *o = &g_array_index (st, Open, st->len - 1);

          ev.event = o->end;
          ev.text = o->text;
          g_array_set_size (st, st->len - 1);
        }
      else
        continue;
      g_array_append_val (evs, ev);
    }
  for (guint k = 0; k < n_tracks; k++)
    g_array_unref (stacks[k]);
  g_free (stacks);
  return evs;
}

static CpelFile *
file_of (GArray *evs)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GHashTable) codes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) tracks = g_hash_table_new (NULL, NULL);
  g_autofree guint32 *datums = g_new0 (guint32, MAX (evs->len, 1));
  guint t = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_event_defs (w, t);
  for (guint i = 0; i < evs->len; i++)
    {
      const Ev *e = &g_array_index (evs, Ev, i);

      if (!g_hash_table_contains (codes, e->event))
        {
          guint code = g_hash_table_size (codes) + 1;

          g_hash_table_insert (codes, (gpointer) e->event, GUINT_TO_POINTER (code));
          cpel_writer_add_event_def (w, code, e->event, "%s");
        }
    }
  cpel_writer_begin_track_defs (w, t);
  for (guint i = 0; i < evs->len; i++)
    {
      const Ev *e = &g_array_index (evs, Ev, i);

      if (!g_hash_table_contains (tracks, GUINT_TO_POINTER (e->track)))
        {
          g_autofree char *label = g_strdup_printf ("track %u", e->track);

          g_hash_table_add (tracks, GUINT_TO_POINTER (e->track));
          cpel_writer_add_track_def (w, e->track, label);
        }
    }
  for (guint i = 0; i < evs->len; i++)
    datums[i] = cpel_writer_add_string (w, t, g_array_index (evs, Ev, i).text);
  cpel_writer_begin_events (w, t, 1000000000, evs->len);
  for (guint i = 0; i < evs->len; i++)
    {
      const Ev *e = &g_array_index (evs, Ev, i);

      cpel_writer_add_event (w, e->t, e->track,
                             GPOINTER_TO_UINT (g_hash_table_lookup (codes, e->event)), datums[i]);
    }
  return cpel_test_writer_file (w);
}

/* Every field of every row of every table, a line each; self times only
 * `with_self`. */
static char *
summary_text (CpelSpanSummary *s,
              gboolean         with_self)
{
  GString *out = g_string_new (NULL);

  for (guint t = CPEL_SPAN_TABLE_SPANS; t <= CPEL_SPAN_TABLE_STATES; t++)
    for (guint i = 0; i < cpel_span_summary_get_n_rows (s, t); i++)
      {
        const CpelSpanRow *r = cpel_span_summary_get_row (s, t, i);

        g_string_append_printf (out,
                                "%u %s/%s n=%" G_GUINT64_FORMAT " total=%" G_GUINT64_FORMAT
                                " self=%" G_GUINT64_FORMAT " min=%" G_GINT64_FORMAT
                                " max=%" G_GINT64_FORMAT " mean=%" G_GINT64_FORMAT
                                " sd=%" G_GINT64_FORMAT " p=%" G_GINT64_FORMAT ",%"
                                G_GINT64_FORMAT ",%" G_GINT64_FORMAT " ob=%" G_GUINT64_FORMAT
                                " oe=%" G_GUINT64_FORMAT "\n",
                                t, r->track ? r->track : "-", r->name, r->count, r->total_ns,
                                with_self ? r->self_ns : 0, r->min_ns, r->max_ns, r->mean_ns,
                                r->stddev_ns, r->p50_ns, r->p90_ns, r->p99_ns, r->orphan_begins,
                                r->orphan_ends);
      }
  return g_string_free (out, FALSE);
}

static void
assert_same (CpelFile               *file,
             CpelSpanRules          *rules,
             CpelSpans              *spans,
             const CpelSpansOptions *options,
             gboolean                unfinished)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanSummary) derived = cpel_span_summary_compute (file, rules, options,
                                                                  unfinished, NULL, &error);
  g_autoptr(CpelSpanSummary) replayed = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_assert_no_error (error);
  replayed = cpel_span_summary_compute_from_spans (spans, options, unfinished, NULL, &error);
  g_assert_no_error (error);
  /* Unfinished spans cut by the range count with their self times too:
   * the replay's subtract the spans they hold, where deriving the range
   * again does not know that they hold them (/core/spans/replay/cut-self) */
  a = summary_text (derived, !unfinished || options == NULL);
  b = summary_text (replayed, !unfinished || options == NULL);
  if (g_strcmp0 (a, b) != 0)
    {
      g_auto(GStrv) la = g_strsplit (a, "\n", -1);
      g_auto(GStrv) lb = g_strsplit (b, "\n", -1);

      g_test_message ("range [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), %u tracks, "
                      "unfinished %d", options ? options->t0 : 0, options ? options->t1 : 0,
                      options ? options->n_slots : 0, unfinished);
      for (guint i = 0; la[i] != NULL && lb[i] != NULL; i++)
        if (strcmp (la[i], lb[i]) != 0)
          {
            /* the first row that differs */
            g_assert_cmpstr (la[i], ==, lb[i]);
          }
    }
  g_assert_cmpstr (a, ==, b);
}

/* Where the spans nest (as dispatch tracing's do), the range's statistics
 * from the whole capture's spans are exactly those of deriving the range
 * again — orphans, self times, deviations, percentiles and states — over
 * random ranges and tracks (with unfinished spans counted: all but the
 * self times). */
static void
test_equals_derive (void)
{
  GRand *rand = g_rand_new_with_seed (20261203);

  for (guint round = 0; round < 12; round++)
    {
      guint n_tracks = (guint) g_rand_int_range (rand, 1, 5);
      g_autoptr(GArray) evs = random_events (rand, n_tracks, 3000);
      g_autoptr(CpelFile) file = file_of (evs);
      g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelSpans) spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
      gint64 end = (gint64) g_array_index (evs, Ev, evs->len - 1).t;
      guint slots[4];

      g_assert_no_error (error);
      g_assert_true (cpel_spans_is_whole (spans));
      g_assert_cmpuint (cpel_spans_get_n_spans (spans), >, 500);
      assert_same (file, rules, spans, NULL, FALSE);
      assert_same (file, rules, spans, NULL, TRUE);
      for (guint k = 0; k < 20; k++)
        {
          CpelSpansOptions opt = { 0 };
          gint64 a = g_rand_int_range (rand, -5, (gint32) end + 5);
          gint64 b = g_rand_int_range (rand, -5, (gint32) end + 5);

          opt.t0 = MIN (a, b);
          opt.t1 = MAX (a, b) + 1;
          if (k % 3 == 1)
            {
              /* some tracks, in an order of their own */
              opt.n_slots = 0;
              for (guint s = cpel_file_get_n_tracks (file); s-- > 0;)
                if (g_rand_boolean (rand))
                  slots[opt.n_slots++] = s;
              opt.slots = opt.n_slots > 0 ? slots : NULL;
            }
          assert_same (file, rules, spans, &opt, k % 2 == 0);
        }
    }
  g_rand_free (rand);
}

/* A toggle (VPP's cli-cmd: one event begins and ends) whose first half
 * lies before the range: deriving the range again pairs the second half
 * with the next command's first; the whole capture's spans know better. */
static void
test_toggle (void)
{
  g_autoptr(GArray) evs = g_array_new (FALSE, TRUE, sizeof (Ev));
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(CpelSpanSummary) s = NULL;
  g_autoptr(CpelSpanSummary) again = NULL;
  g_autoptr(GError) error = NULL;
  CpelSpansOptions opt = { 5, 35, NULL, 0 };
  const CpelSpanRow *r;

  for (guint i = 0; i < 4; i++)
    {
      Ev ev = { i * 10, 1, "cli", "" };

      g_array_append_val (evs, ev);
    }
  file = file_of (evs);
  g_assert_true (cpel_span_rules_add_text (rules, "span cli begin event=cli end event=cli\n",
                                           -1, "test", &error));
  g_assert_no_error (error);
  spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  /* commands [0, 10] and [20, 30] */
  g_assert_cmpuint (cpel_spans_get_n_spans (spans), ==, 2);
  s = cpel_span_summary_compute_from_spans (spans, &opt, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_summary_get_n_rows (s, CPEL_SPAN_TABLE_SPANS), ==, 1);
  r = cpel_span_summary_get_row (s, CPEL_SPAN_TABLE_SPANS, 0);
  /* [20, 30] is in the range, [0, 10] cut by its start */
  g_assert_cmpuint (r->count, ==, 1);
  g_assert_cmpint (r->max_ns, ==, 10);
  g_assert_cmpuint (r->orphan_ends, ==, 1);
  g_assert_cmpuint (r->orphan_begins, ==, 0);
  /* the range derived again: [10, 20] — the end of one command and the
   * beginning of the next — and 30 left open */
  again = cpel_span_summary_compute (file, rules, &opt, FALSE, NULL, &error);
  g_assert_no_error (error);
  r = cpel_span_summary_get_row (again, CPEL_SPAN_TABLE_SPANS, 0);
  g_assert_cmpuint (r->count, ==, 1);
  g_assert_cmpuint (r->orphan_begins, ==, 1);
}

/* A span that the range's start cuts, holding one in the range: counted
 * unfinished, its self time is what is left of it less the one it holds
 * (deriving the range again would not know that it holds it). */
static void
test_cut_self (void)
{
  const Ev list[] = {
    { 0, 1, "ip4-lookup-call", "" }, { 20, 1, "dpdk-input-call", "" },
    { 30, 1, "dpdk-input-return", "" }, { 50, 1, "ip4-lookup-return", "" },
  };
  g_autoptr(GArray) evs = g_array_new (FALSE, TRUE, sizeof (Ev));
  g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(CpelSpanSummary) s = NULL;
  g_autoptr(GError) error = NULL;
  CpelSpansOptions opt = { 10, 60, NULL, 0 };

  g_array_append_vals (evs, list, G_N_ELEMENTS (list));
  file = file_of (evs);
  spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  s = cpel_span_summary_compute_from_spans (spans, &opt, TRUE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_summary_get_n_rows (s, CPEL_SPAN_TABLE_SPANS), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (s, CPEL_SPAN_TABLE_SPANS, i);

      if (strcmp (r->name, "ip4-lookup") == 0)
        {
          /* [10, 50] of [0, 50], holding [20, 30] */
          g_assert_cmpuint (r->orphan_ends, ==, 1);
          g_assert_cmpuint (r->total_ns, ==, 40);
          g_assert_cmpuint (r->self_ns, ==, 30);
        }
      else
        {
          g_assert_cmpstr (r->name, ==, "dpdk-input");
          g_assert_cmpuint (r->total_ns, ==, 10);
          g_assert_cmpuint (r->self_ns, ==, 10);
        }
    }
}

/* Spans of a range or of some tracks cannot be replayed; a bad slot is an
 * error; a cancelled replay ends with G_IO_ERROR_CANCELLED. */
static void
test_errors (void)
{
  GRand *rand = g_rand_new_with_seed (3);
  g_autoptr(GArray) evs = random_events (rand, 2, 200000);
  g_autoptr(CpelFile) file = file_of (evs);
  g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
  g_autoptr(CpelSpans) spans = cpel_spans_derive (file, rules, NULL, NULL, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  const guint bad[] = { 9 };
  CpelSpansOptions opt = { 10, 20, NULL, 0 };
  CpelSpansOptions slots = { 0, 0, bad, 1 };
  g_autoptr(CpelSpans) part = cpel_spans_derive (file, rules, &opt, NULL, NULL);

  g_rand_free (rand);
  g_assert_false (cpel_spans_is_whole (part));
  g_assert_true (cpel_spans_is_whole (spans));
  g_assert_null (cpel_span_summary_compute_from_spans (spans, &slots, FALSE, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_clear_error (&error);
  g_cancellable_cancel (cancellable);
  g_assert_null (cpel_span_summary_compute_from_spans (spans, NULL, FALSE, cancellable,
                                                       &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/spans/replay/equals-derive", test_equals_derive);
  g_test_add_func ("/core/spans/replay/toggle", test_toggle);
  g_test_add_func ("/core/spans/replay/cut-self", test_cut_self);
  g_test_add_func ("/core/spans/replay/errors", test_errors);
  return g_test_run ();
}
