/* SPDX-License-Identifier: Apache-2.0 */
/* test-scale-search.c — the search's shortcuts against an oracle
 *
 * cpel_search_run skips formatting for types whose labels cannot hold the
 * needle (from what their name and datum format can produce), records
 * matches as (track, index) while scanning in file order (tracks whose
 * events the loader re-sorted are fixed afterwards), and orders them by an
 * insertion sort when the capture is nearly in time order.  Each test
 * compares a search with cpel_query_match applied to every event in global
 * time order (cpel_merge: time, then file order) — the same matches, in the
 * same order.  Files are big enough for two scan threads.
 */
#include <string.h>

#include "cpel-core.h"
#include "cpel-loader.h"

#define N_EVENTS 600000   /* above twice the search's per-thread minimum */

typedef enum
{
  ORDER_NEARLY,      /* in time order but for neighbours swapped */
  ORDER_SECTIONS,    /* three sections, each in time order */
  ORDER_NONE,        /* random times */
} Order;

/* Formats chosen to exercise the alphabet of each conversion. */
static const struct { guint32 code; const char *name; const char *datum; } defs[] = {
  { 1, "dispatch", "%s" },
  { 2, "enqueue", "buffer 0x%08x" },
  { 3, "call", "%k" },
  { 4, "wait", "%u cycles" },
  { 5, "upper", "%#X!" },
  { 6, "signed", "% d|%-6i|%+d" },
  { 7, "oct", "%o" },
  { 8, "char", "[%c]" },
  { 9, "odd", "%q %% 100%" },
  { 10, "trunc", "x%5.3s" },
  { 11, "temp", "\xe2\x84\xaa%u" },          /* U+212A KELVIN SIGN: folds to "k" */
  { 12, "hex", "%lx-%hhx" },
  { 13, "fixed", "always the same" },
  { 14, "empty", NULL },
  /* 15: used by events, not defined: label "E15" */
};

static const char *strings[] = { "ip4-lookup", "ip6-input", "l2-fwd", "Error-Drop", "tcp4" };
static const char *symbols[] = { "vlib_main", "ip4_lookup_node_fn", "dpdk_input", "dead_beef_fn" };

static CpelFile *
make_file (Order order, guint32 track_base, guint32 seed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint32 offs[G_N_ELEMENTS (strings)];
  guint n_sections = order == ORDER_SECTIONS ? 3 : 1;
  guint64 per = N_EVENTS / n_sections;
  guint table, ev_table;
  CpelFile *file;

  table = cpel_writer_add_string_table (w, "Defs");
  ev_table = cpel_writer_add_string_table (w, "Strings");
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    offs[i] = cpel_writer_add_string (w, ev_table, strings[i]);
  cpel_writer_begin_symbols (w, table);
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    cpel_writer_add_symbol (w, 0x1000 * (i + 1), symbols[i]);
  cpel_writer_begin_event_defs (w, table);
  for (guint i = 0; i < G_N_ELEMENTS (defs); i++)
    cpel_writer_add_event_def (w, defs[i].code, defs[i].name, defs[i].datum);

  for (guint s = 0; s < n_sections; s++)
    {
      guint64 t = 0;
      guint64 prev_t = 0;
      guint32 prev_track = 0, prev_code = 0, prev_datum = 0;
      gboolean pending = FALSE;

      cpel_writer_begin_events (w, ev_table, 1000000000u, (guint32) per);
      for (guint64 i = 0; i < per; i++)
        {
          guint32 code = g_rand_int_range (rand, 1, 16);
          guint32 track = track_base + g_rand_int_range (rand, 0, 40);
          guint32 datum;

          switch (code)
            {
            case 1: datum = offs[g_rand_int_range (rand, 0, G_N_ELEMENTS (offs))]; break;
            case 3: datum = g_rand_int_range (rand, 0, 0x6000); break;
            case 8: datum = g_rand_int_range (rand, 0, 256); break;
            case 10: datum = g_rand_boolean (rand) ? offs[g_rand_int_range (rand, 0, 5)] : 0xffffff; break;
            default: datum = g_rand_int (rand); break;
            }
          t += g_rand_int_range (rand, 0, 5);   /* ties happen */
          if (order == ORDER_NONE)
            {
              cpel_writer_add_event (w, g_rand_int_range (rand, 0, N_EVENTS), track, code, datum);
              continue;
            }
          /* ORDER_NEARLY: now and then hold an event back one place. */
          if (pending)
            {
              cpel_writer_add_event (w, t, track, code, datum);
              cpel_writer_add_event (w, prev_t, prev_track, prev_code, prev_datum);
              pending = FALSE;
              continue;
            }
          if (order == ORDER_NEARLY && i + 1 < per && g_rand_int_range (rand, 0, 50) == 0)
            {
              prev_t = t;
              prev_track = track;
              prev_code = code;
              prev_datum = datum;
              pending = TRUE;
              t += 1;
              continue;
            }
          cpel_writer_add_event (w, t, track, code, datum);
        }
      if (pending)
        cpel_writer_add_event (w, prev_t, prev_track, prev_code, prev_datum);
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, per * n_sections);
  return file;
}

/* The search against cpel_query_match over every event in global order. */
static void
check (CpelFile *file, CpelSearchMode mode, const char *text, gboolean case_sensitive)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelQuery) query = cpel_query_new (file, mode, text, case_sensitive, &error);
  g_autoptr(CpelSearchResult) result = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  CpelEvent ev;
  guint64 index, k = 0;

  g_assert_no_error (error);
  result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  merge = cpel_merge_new (file, NULL, 0, G_MININT64);
  while (cpel_merge_next (merge, &ev, &index))
    if (cpel_query_match (query, &ev))
      {
        const CpelEventRef *ref;

        if (k >= cpel_search_result_get_n (result))
          g_error ("“%s”: the search found %" G_GUINT64_FORMAT " matches, the oracle more",
                   text, cpel_search_result_get_n (result));
        ref = cpel_search_result_get (result, k++);
        if (ref->slot != ev.track_slot || ref->index != index)
          g_error ("“%s”: match %" G_GUINT64_FORMAT " is track %u #%u"
                   ", the oracle says track %u #%" G_GUINT64_FORMAT,
                   text, k - 1, ref->slot, ref->index, ev.track_slot, index);
      }
  g_assert_cmpuint (k, ==, cpel_search_result_get_n (result));

  /* Per track: sorted, and the same events. */
  for (guint s = 0, total = 0; s < cpel_file_get_n_tracks (file); s++)
    {
      guint64 n;
      const guint32 *m = cpel_search_result_get_track (result, s, &n);

      for (guint64 i = 1; i < n; i++)
        g_assert_cmpuint (m[i - 1], <, m[i]);
      total += n;
      if (s + 1 == cpel_file_get_n_tracks (file))
        g_assert_cmpuint (total, ==, k);
    }
  g_test_message ("“%s” (mode %d%s): %" G_GUINT64_FORMAT " matches", text, mode,
                  case_sensitive ? ", case-sensitive" : "", k);
}

static const struct { const char *text; gboolean cs; } needles[] = {
  { "ip4-lookup", FALSE },   /* %s strings; no numeric type can hold '-' with 'i' */
  { "IP4_LOOKUP", FALSE },   /* a symbol (%k) */
  { "ip4_lookup", TRUE },
  { "0xdead", FALSE },       /* hex digits */
  { "DEAD", TRUE },
  { "0X", TRUE },            /* %#X */
  { "!", FALSE },
  { "-1", FALSE },           /* signs */
  { " 1", FALSE },           /* "% d" */
  { "+4", FALSE },
  { "|", FALSE },
  { "77", FALSE },
  { "%q", FALSE },           /* unknown conversion, as written */
  { "% 1", FALSE },          /* "%% 100%" */
  { "100%", FALSE },
  { "[a]", FALSE },          /* %c */
  { "[\\x", FALSE },         /* %c escapes */
  { "x ip", FALSE },         /* %5.3s */
  { "k12", FALSE },          /* Kelvin sign folds to k */
  { "K", TRUE },
  { "\xe2\x84\xaa", TRUE },
  { "e15", FALSE },          /* undefined code */
  { "same", FALSE },
  { "empty", FALSE },
  { "y: ", FALSE },          /* across name and datum */
  { "zzz", FALSE },          /* nothing */
  { "", FALSE },             /* everything */
};

static void
run_needles (CpelFile *file)
{
  for (guint i = 0; i < G_N_ELEMENTS (needles); i++)
    check (file, CPEL_SEARCH_TEXT, needles[i].text, needles[i].cs);
  check (file, CPEL_SEARCH_REGEX, "^(dispatch|call): ip4", FALSE);
  check (file, CPEL_SEARCH_CODE, "enqueue", FALSE);
  check (file, CPEL_SEARCH_CODE, "15", FALSE);
}

static void
test_nearly_sorted (void)
{
  g_autoptr(CpelFile) file = make_file (ORDER_NEARLY, 0, 1);

  run_needles (file);
}

static void
test_sections (void)
{
  g_autoptr(CpelFile) file = make_file (ORDER_SECTIONS, 0, 2);

  run_needles (file);
}

/* Random times: every track re-sorted by the loader (not in file order). */
static void
test_unordered (void)
{
  g_autoptr(CpelFile) file = make_file (ORDER_NONE, 0, 3);

  check (file, CPEL_SEARCH_TEXT, "ip4", FALSE);
  check (file, CPEL_SEARCH_TEXT, "0xdead", FALSE);
  check (file, CPEL_SEARCH_CODE, "wait", FALSE);
}

/* Track ids far apart (no direct id table). */
static void
test_big_ids (void)
{
  g_autoptr(CpelFile) file = make_file (ORDER_NEARLY, 0x7fff0000u, 4);

  check (file, CPEL_SEARCH_TEXT, "ip4", FALSE);
  check (file, CPEL_SEARCH_CODE, "call", FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scale/search/nearly-sorted", test_nearly_sorted);
  g_test_add_func ("/scale/search/sections", test_sections);
  g_test_add_func ("/scale/search/unordered", test_unordered);
  g_test_add_func ("/scale/search/big-ids", test_big_ids);
  return g_test_run ();
}
