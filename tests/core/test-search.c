/* SPDX-License-Identifier: Apache-2.0 */
/* test-search.c — search by text, regex and code */
#include <string.h>

#include <gio/gio.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-loader.h"
#include <glib/gstdio.h>
#include "cpel-test-util.h"

/* ---- helpers ------------------------------------------------------------ */

/* The small file:
 *  file order  ticks  track  code            datum
 *   0          100    1      1 rx  "%s"      "hello"
 *   1          100    0      1 rx            "Hello World"
 *   2           50    2      1 rx            "hello"
 *   3          300    0      2 tx "len %d"   42
 *   4          200    1      3 Drop (none)   7
 *   5          100    2      2 tx            420
 *   6          400    0      9 (undefined)   5
 *   7          250    1      4 Café "%s"     "naïve"
 *   8          100    1      1 rx            "bye"
 *   9          500    2      5 call "%k"     0x1010
 */
static CpelFile *
small_file (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  guint32 hello = cpel_writer_add_string (w, t, "hello");
  guint32 hw = cpel_writer_add_string (w, t, "Hello World");
  guint32 naive = cpel_writer_add_string (w, t, "na\303\257ve");
  guint32 bye = cpel_writer_add_string (w, t, "bye");

  cpel_writer_begin_symbols (w, t);
  cpel_writer_add_symbol (w, 0x1000, "vlib_main");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "rx", "%s");
  cpel_writer_add_event_def (w, 2, "tx", "len %d");
  cpel_writer_add_event_def (w, 3, "Drop", NULL);
  cpel_writer_add_event_def (w, 4, "Caf\303\251", "%s");
  cpel_writer_add_event_def (w, 5, "call", "%k");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 0, "worker 0");
  cpel_writer_add_track_def (w, 1, "worker 1");
  cpel_writer_add_track_def (w, 2, "worker 2");
  cpel_writer_begin_events (w, t, 1000000000, 10);
  cpel_writer_add_event (w, 100, 1, 1, hello);
  cpel_writer_add_event (w, 100, 0, 1, hw);
  cpel_writer_add_event (w, 50, 2, 1, hello);
  cpel_writer_add_event (w, 300, 0, 2, 42);
  cpel_writer_add_event (w, 200, 1, 3, 7);
  cpel_writer_add_event (w, 100, 2, 2, 420);
  cpel_writer_add_event (w, 400, 0, 9, 5);
  cpel_writer_add_event (w, 250, 1, 4, naive);
  cpel_writer_add_event (w, 100, 1, 1, bye);
  cpel_writer_add_event (w, 500, 2, 5, 0x1010);
  return cpel_test_writer_file (w);
}

static CpelSearchResult *
run (CpelFile       *file,
     CpelSearchMode  mode,
     const char     *text,
     gboolean        case_sensitive)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelQuery) query = cpel_query_new (file, mode, text, case_sensitive, &error);
  CpelSearchResult *result;

  g_assert_no_error (error);
  g_assert_nonnull (query);
  result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* The matches as "fileindex" list in result order. */
static char *
file_indices (CpelFile         *file,
              CpelSearchResult *result)
{
  GString *s = g_string_new ("");

  for (guint64 i = 0; i < cpel_search_result_get_n (result); i++)
    {
      const CpelEventRef *r = cpel_search_result_get (result, i);
      CpelEvent ev;

      cpel_file_get_track_event (file, r->slot, r->index, &ev);
      g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, i ? " " : "", ev.file_index);
    }
  return g_string_free (s, FALSE);
}

/* Structural checks every result must pass: global order strictly by
 * (time, file index), per-track lists sorted and exactly the global ones. */
static void
check_consistent (CpelFile         *file,
                  CpelSearchResult *result)
{
  guint64 n = cpel_search_result_get_n (result);
  guint64 sum = 0;
  g_autofree guint64 *seen = g_new0 (guint64, cpel_file_get_n_tracks (file) + 1);
  CpelEvent prev = { 0, };

  for (guint64 i = 0; i < n; i++)
    {
      const CpelEventRef *r = cpel_search_result_get (result, i);
      const guint32 *track;
      guint64 tn;
      CpelEvent ev;

      g_assert_cmpuint (r->slot, <, cpel_file_get_n_tracks (file));
      g_assert_cmpuint (r->index, <, cpel_file_get_track_n_events (file, r->slot));
      cpel_file_get_track_event (file, r->slot, r->index, &ev);
      if (i > 0)
        g_assert_true (prev.time_ns < ev.time_ns
                       || (prev.time_ns == ev.time_ns && prev.file_index < ev.file_index));
      prev = ev;

      /* the k-th match of this track in time order is the k-th per-track entry */
      track = cpel_search_result_get_track (result, r->slot, &tn);
      g_assert_cmpuint (seen[r->slot], <, tn);
      g_assert_cmpuint (track[seen[r->slot]], ==, r->index);
      seen[r->slot]++;
    }
  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    {
      guint64 tn;

      cpel_search_result_get_track (result, s, &tn);
      g_assert_cmpuint (seen[s], ==, tn);
      sum += tn;
    }
  g_assert_cmpuint (sum, ==, n);
}

/* Independent oracle: every event's label through cpel_file_append_label,
 * matched naively. */
static guint64
oracle_count (CpelFile       *file,
              CpelSearchMode  mode,
              const char     *text,
              gboolean        case_sensitive,
              GArray         *file_indices_out)
{
  g_autoptr(GString) label = g_string_new ("");
  g_autoptr(GRegex) regex = NULL;
  g_autofree char *needle = NULL;
  guint64 count = 0;

  if (mode == CPEL_SEARCH_REGEX)
    regex = g_regex_new (text, case_sensitive ? 0 : G_REGEX_CASELESS, 0, NULL);
  else
    needle = case_sensitive ? g_strdup (text) : g_utf8_casefold (text, -1);

  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    for (guint64 i = 0; i < cpel_file_get_track_n_events (file, s); i++)
      {
        CpelEvent ev;
        gboolean m;

        cpel_file_get_track_event (file, s, i, &ev);
        g_string_truncate (label, 0);
        cpel_file_append_label (file, &ev, label);
        if (mode == CPEL_SEARCH_REGEX)
          m = g_regex_match (regex, label->str, 0, NULL);
        else if (case_sensitive)
          m = strstr (label->str, needle) != NULL;
        else
          {
            g_autofree char *folded = g_utf8_casefold (label->str, -1);
            m = strstr (folded, needle) != NULL;
          }
        if (m)
          {
            count++;
            if (file_indices_out)
              g_array_append_val (file_indices_out, ev.file_index);
          }
      }
  return count;
}

static int
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* The result holds exactly the oracle's events. */
static void
check_against_oracle (CpelFile       *file,
                      CpelSearchMode  mode,
                      const char     *text,
                      gboolean        case_sensitive)
{
  g_autoptr(CpelSearchResult) result = run (file, mode, text, case_sensitive);
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (guint64));

  oracle_count (file, mode, text, case_sensitive, expected);
  check_consistent (file, result);
  for (guint64 i = 0; i < cpel_search_result_get_n (result); i++)
    {
      const CpelEventRef *r = cpel_search_result_get (result, i);
      CpelEvent ev;

      cpel_file_get_track_event (file, r->slot, r->index, &ev);
      g_array_append_val (got, ev.file_index);
    }
  g_array_sort (expected, cmp_u64);
  g_array_sort (got, cmp_u64);
  if (expected->len != got->len)
    g_error ("query \"%s\" (mode %d): %u matches, oracle %u", text, mode, got->len, expected->len);
  g_assert_cmpmem (got->data, got->len * 8, expected->data, expected->len * 8);
}

/* ---- small file --------------------------------------------------------- */

static void
test_text (void)
{
  g_autoptr(CpelFile) file = small_file ();
  static const struct { const char *text; gboolean cs; const char *order; } cases[] = {
    { "hello", FALSE, "2 0 1" },           /* ties at 100: file order */
    { "hello", TRUE, "2 0" },
    { "HELLO", FALSE, "2 0 1" },
    { "HELLO", TRUE, "" },
    { "rx", FALSE, "2 0 1 8" },
    { "rx: h", FALSE, "2 0 1" },           /* across the ": " */
    { "len 42", FALSE, "5 3" },
    { "len 420", FALSE, "5" },
    { "LEN 42", TRUE, "" },
    { "tx: len 4", FALSE, "5 3" },
    { "drop", FALSE, "4" },
    { "Drop:", FALSE, "" },                /* empty datum: label "Drop" only */
    { "E9", FALSE, "6" },                  /* undefined code */
    { "e9: 5", FALSE, "" },                /* no datum format: no datum */
    { "CAF\303\211", FALSE, "7" },         /* Unicode case folding */
    { "NA\303\217VE", FALSE, "7" },
    { "caf\303\251: na\303\257ve", TRUE, "" },
    { "Caf\303\251: na\303\257ve", TRUE, "7" },
    { "vlib_main+0x10", FALSE, "9" },
    { "workers", FALSE, "" },              /* track labels are not searched */
    { "worker", FALSE, "" },
    { "", FALSE, "2 0 1 5 8 4 7 3 6 9" },  /* empty text: everything */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CpelSearchResult) r = run (file, CPEL_SEARCH_TEXT, cases[i].text, cases[i].cs);
      g_autofree char *order = file_indices (file, r);

      if (strcmp (order, cases[i].order) != 0)
        g_error ("text \"%s\"%s: got \"%s\", expected \"%s\"", cases[i].text,
                 cases[i].cs ? " (case-sensitive)" : "", order, cases[i].order);
      check_consistent (file, r);
      check_against_oracle (file, CPEL_SEARCH_TEXT, cases[i].text, cases[i].cs);
    }
}

static void
test_regex (void)
{
  g_autoptr(CpelFile) file = small_file ();
  static const struct { const char *re; gboolean cs; const char *order; } cases[] = {
    { "^rx: h", FALSE, "2 0 1" },
    { "^rx: h", TRUE, "2 0" },
    { "len [0-9]{3}$", FALSE, "5" },
    { "^drop$", FALSE, "4" },
    { "^[a-z]+$", TRUE, "" },
    { "^\\w+$", FALSE, "4 6" },
    { "na.ve", FALSE, "7" },                  /* '.' is one character, not a byte */
    { "^caf\303\251", FALSE, "7" },
    { "world|bye", FALSE, "1 8" },
    { "", FALSE, "2 0 1 5 8 4 7 3 6 9" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CpelSearchResult) r = run (file, CPEL_SEARCH_REGEX, cases[i].re, cases[i].cs);
      g_autofree char *order = file_indices (file, r);

      if (strcmp (order, cases[i].order) != 0)
        g_error ("regex \"%s\": got \"%s\", expected \"%s\"", cases[i].re, order, cases[i].order);
      check_against_oracle (file, CPEL_SEARCH_REGEX, cases[i].re, cases[i].cs);
    }
}

static void
test_bad_regex (void)
{
  g_autoptr(CpelFile) file = small_file ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) gregex_error = NULL;
  g_autoptr(GRegex) re = g_regex_new ("rx(", 0, 0, &gregex_error);
  CpelQuery *query;

  g_assert_null (re);
  query = cpel_query_new (file, CPEL_SEARCH_REGEX, "rx(", FALSE, &error);
  g_assert_null (query);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, gregex_error->message));
}

static void
test_code (void)
{
  g_autoptr(CpelFile) file = small_file ();
  static const struct { const char *text; const char *order; } cases[] = {
    { "1", "2 0 1 8" },
    { "0x1", "2 0 1 8" },
    { "0X02", "5 3" },
    { " 3 ", "4" },
    { "9", "6" },                 /* used but undefined */
    { "rx", "2 0 1 8" },
    { "RX", "2 0 1 8" },
    { "  tx ", "5 3" },
    { "drop", "4" },
    { "e9", "6" },                /* the undefined code's name */
    { "caf\303\211", "7" },
    { "5", "9" },
    { "7", "" },                  /* a code the file does not use: no match, no error */
    { "0x7", "" },
    { "4294967295", "" },
  };
  static const char *bad[] = { "", "  ", "0xg", "rxx", "r", "-1", "4294967296", "1.0" };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CpelSearchResult) r = run (file, CPEL_SEARCH_CODE, cases[i].text, FALSE);
      g_autofree char *order = file_indices (file, r);

      if (strcmp (order, cases[i].order) != 0)
        g_error ("code \"%s\": got \"%s\", expected \"%s\"", cases[i].text, order, cases[i].order);
      check_consistent (file, r);
    }

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      CpelQuery *query = cpel_query_new (file, CPEL_SEARCH_CODE, bad[i], FALSE, &error);

      if (query != NULL)
        g_error ("code \"%s\" accepted", bad[i]);
      g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
    }
}

static void
test_query_match (void)
{
  g_autoptr(CpelFile) file = small_file ();
  static const struct { CpelSearchMode mode; const char *text; } queries[] = {
    { CPEL_SEARCH_TEXT, "hello" }, { CPEL_SEARCH_TEXT, "LEN" },
    { CPEL_SEARCH_REGEX, "^(rx|tx)" }, { CPEL_SEARCH_CODE, "rx" }, { CPEL_SEARCH_CODE, "9" },
  };

  for (gsize q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      g_autoptr(CpelQuery) query = cpel_query_new (file, queries[q].mode, queries[q].text, FALSE, NULL);
      g_autoptr(CpelSearchResult) r = cpel_search_run (file, query, NULL, NULL, NULL, NULL);

      for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
        {
          guint64 tn, k = 0;
          const guint32 *track = cpel_search_result_get_track (r, s, &tn);

          for (guint64 i = 0; i < cpel_file_get_track_n_events (file, s); i++)
            {
              CpelEvent ev;
              gboolean in_result = k < tn && track[k] == i;

              cpel_file_get_track_event (file, s, i, &ev);
              g_assert_cmpint (cpel_query_match (query, &ev), ==, in_result);
              k += in_result;
            }
        }
    }
}

static void
test_find_next (void)
{
  g_autoptr(CpelFile) file = small_file ();
  g_autoptr(CpelSearchResult) r = run (file, CPEL_SEARCH_TEXT, "rx", FALSE);
  guint64 n = cpel_search_result_get_n (r);

  /* times are relative to the earliest event (tick 50): matches at
   * (0,2) (50,0) (50,1) (50,8) */
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (cpel_file_get_base_ns (file), ==, 50);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, -1, 0), ==, 0);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 0, 2), ==, 0);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 0, 3), ==, 1);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 1, 0), ==, 1);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 50, 0), ==, 1);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 50, 1), ==, 2);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 50, 2), ==, 3);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 50, 8), ==, 3);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 50, 9), ==, 4);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 51, 0), ==, 4);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, G_MAXINT64, 0), ==, n);
}

static void
test_refcount (void)
{
  g_autoptr(CpelFile) file = small_file ();
  CpelSearchResult *r = run (file, CPEL_SEARCH_TEXT, "tx", FALSE);
  CpelSearchResult *r2 = cpel_search_result_ref (r);

  g_assert_true (r == r2);
  cpel_search_result_unref (r);
  g_assert_cmpuint (cpel_search_result_get_n (r2), ==, 2);
  cpel_search_result_unref (r2);
}

/* Two event sections whose string tables differ: the same datum offset is a
 * different string in each.  Outcome caching must not mix them up. */
static void
test_two_sections (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, NULL);
  g_autoptr(CpelFile) file = NULL;
  guint a = cpel_writer_add_string_table (w, "A");
  guint32 off_a = cpel_writer_add_string (w, a, "apple");
  guint b = cpel_writer_add_string_table (w, "B");
  guint32 off_b = cpel_writer_add_string (w, b, "bread");
  g_autoptr(CpelSearchResult) r = NULL;

  g_assert_cmpuint (off_a, ==, off_b);
  cpel_writer_begin_event_defs (w, a);
  cpel_writer_add_event_def (w, 1, "fruit", "%s");
  cpel_writer_begin_events (w, a, 1000000000, 3);
  for (guint i = 0; i < 3; i++)
    cpel_writer_add_event (w, i * 10, 0, 1, off_a);
  cpel_writer_begin_events (w, b, 1000000000, 2);
  for (guint i = 0; i < 2; i++)
    cpel_writer_add_event (w, i * 10 + 5, 0, 1, off_b);
  file = cpel_test_writer_file (w);

  r = run (file, CPEL_SEARCH_TEXT, "apple", FALSE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, 3);
  g_clear_pointer (&r, cpel_search_result_unref);
  r = run (file, CPEL_SEARCH_TEXT, "bread", FALSE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, 2);
  check_consistent (file, r);
}

/* A file whose event section is empty: no matches, no trouble. */
static void
test_no_events (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSearchResult) r = NULL;
  guint64 n = 42;

  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "rx", "%s");
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 3, "lonely");
  cpel_writer_begin_events (w, t, 1000000000, 0);
  file = cpel_test_writer_file (w);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 0);

  r = run (file, CPEL_SEARCH_TEXT, "", FALSE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, 0);
  g_assert_cmpuint (cpel_search_result_find_next (r, file, 0, 0), ==, 0);
  if (cpel_file_get_n_tracks (file) > 0)
    {
      cpel_search_result_get_track (r, 0, &n);
      g_assert_cmpuint (n, ==, 0);
    }
  g_clear_pointer (&r, cpel_search_result_unref);
  r = run (file, CPEL_SEARCH_CODE, "RX", FALSE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, 0);
}

/* ---- larger files: caching, threads, cancel ----------------------------- */

#define BIG_EVENTS 600000
#define BIG_TRACKS 37

/* Types: 1 "%s" over 50 strings, 2 "%d" (distinct datums), 3 "x %s %u"
 * (string and number), 4 constant "fixed", 5 empty datum, 6 "%c". */
static CpelFile *
big_file_full (guint    n_sections,
               gboolean sorted)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  guint32 strs[50];
  GRand *rand = g_rand_new_with_seed (1234);
  CpelFile *file;

  for (guint i = 0; i < G_N_ELEMENTS (strs); i++)
    {
      g_autofree char *s = g_strdup_printf ("str%02u%s", i, i % 7 == 0 ? " Needle" : "");
      strs[i] = cpel_writer_add_string (w, t, s);
    }
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "one", "%s");
  cpel_writer_add_event_def (w, 2, "two", "n=%d");
  cpel_writer_add_event_def (w, 3, "three", "x %s %u");
  cpel_writer_add_event_def (w, 4, "four", "fixed needle");
  cpel_writer_add_event_def (w, 5, "five", NULL);
  cpel_writer_add_event_def (w, 6, "six", "%c");
  for (guint i = 0; i < BIG_EVENTS; i++)
    {
      if (i % (BIG_EVENTS / n_sections) == 0)
        cpel_writer_begin_events (w, t, 1000000000, BIG_EVENTS / n_sections);
      guint code = g_rand_int_range (rand, 1, 7);
      guint32 datum;

      switch (code)
        {
        case 1: datum = strs[g_rand_int_range (rand, 0, 50)]; break;
        case 3: datum = g_rand_boolean (rand) ? strs[g_rand_int_range (rand, 0, 50)] : 0xfffff; break;
        case 6: datum = g_rand_int_range (rand, 0, 256); break;
        default: datum = g_rand_int (rand) % 100000; break;
        }
      /* coarse times: many ties across tracks */
      cpel_writer_add_event (w, sorted ? (i % (BIG_EVENTS / n_sections)) / 3
                                       : (guint) g_rand_int_range (rand, 0, BIG_EVENTS / 4),
                             g_rand_int_range (rand, 0, BIG_TRACKS), code, datum);
    }
  g_rand_free (rand);
  file = cpel_test_writer_file (w);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, BIG_EVENTS);
  return file;
}

/* Events in no order: the result is ordered by the k-way merge of tracks. */
static CpelFile *
big_file (void)
{
  return big_file_full (1, FALSE);
}

static void
big_oracle (CpelFile *file,
            gsize     n_cases)
{
  static const struct { CpelSearchMode mode; const char *text; gboolean cs; } cases[] = {
    { CPEL_SEARCH_TEXT, "needle", FALSE },
    { CPEL_SEARCH_TEXT, "Needle", TRUE },
    { CPEL_SEARCH_TEXT, "n=12", FALSE },
    { CPEL_SEARCH_TEXT, "str1", FALSE },
    { CPEL_SEARCH_TEXT, "e: str", FALSE },
    { CPEL_SEARCH_TEXT, "bad string", FALSE },
    { CPEL_SEARCH_TEXT, "five", FALSE },
    { CPEL_SEARCH_TEXT, "\\x0", FALSE },
    { CPEL_SEARCH_REGEX, "^(one|three).*needle", FALSE },
    { CPEL_SEARCH_REGEX, "n=9+$", FALSE },
    { CPEL_SEARCH_REGEX, "^six: [A-Z]$", TRUE },
  };

  for (gsize i = 0; i < MIN (n_cases, G_N_ELEMENTS (cases)); i++)
    check_against_oracle (file, cases[i].mode, cases[i].text, cases[i].cs);

  /* code mode against type counts */
  for (guint type = 0; type < cpel_file_get_n_types (file); type++)
    {
      g_autofree char *code = g_strdup_printf ("%u", cpel_file_get_type_code (file, type));
      g_autoptr(CpelSearchResult) r = run (file, CPEL_SEARCH_CODE, code, FALSE);

      g_assert_cmpuint (cpel_search_result_get_n (r), ==, cpel_file_get_type_n_events (file, type));
      check_consistent (file, r);
    }
}

/* The three ways to time order: events in no order (k-way merge over the
 * tracks), one sorted section (already in order), several sorted sections
 * (natural merge sort of the runs). */
static void
test_big_oracle (void)
{
  g_autoptr(CpelFile) file = big_file ();

  big_oracle (file, G_MAXSIZE);
}

static void
test_big_sorted (void)
{
  g_autoptr(CpelFile) file = big_file_full (1, TRUE);

  big_oracle (file, 4);
}

static void
test_big_sections (void)
{
  for (guint n = 2; n <= 10; n += 8)
    {
      g_autoptr(CpelFile) file = big_file_full (n, TRUE);

      big_oracle (file, 4);
    }
}

/* One type whose datums are all distinct (its outcome cache gives up after a
 * while) next to one whose datums repeat (its cache keeps being used). */
static void
test_big_distinct (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  guint32 strs[3];
  g_autoptr(CpelFile) file = NULL;
  guint n = 400000;

  strs[0] = cpel_writer_add_string (w, t, "alpha");
  strs[1] = cpel_writer_add_string (w, t, "beta 77");
  strs[2] = cpel_writer_add_string (w, t, "gamma");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "num", "%u");
  cpel_writer_add_event_def (w, 2, "str", "%s");
  cpel_writer_begin_events (w, t, 1000000000, n);
  for (guint i = 0; i < n; i++)
    {
      if (i % 5 == 0)
        cpel_writer_add_event (w, i, i % 3, 2, strs[(i / 5) % 3]);
      else
        cpel_writer_add_event (w, i, i % 3, 1, i * 2654435761u);
    }
  file = cpel_test_writer_file (w);

  check_against_oracle (file, CPEL_SEARCH_TEXT, "77", FALSE);
  check_against_oracle (file, CPEL_SEARCH_REGEX, "^(num: 1|str: b)", FALSE);
}

static void
test_big_find_next (void)
{
  g_autoptr(CpelFile) file = big_file ();
  g_autoptr(CpelSearchResult) r = run (file, CPEL_SEARCH_TEXT, "needle", FALSE);
  guint64 n = cpel_search_result_get_n (r);
  GRand *rand = g_rand_new_with_seed (99);

  g_autofree gint64 *times = NULL;
  g_autofree guint64 *fis = NULL;

  g_assert_cmpuint (n, >, 1000);
  times = g_new (gint64, n);
  fis = g_new (guint64, n);
  for (guint64 i = 0; i < n; i++)
    {
      const CpelEventRef *ref = cpel_search_result_get (r, i);
      CpelEvent ev;

      cpel_file_get_track_event (file, ref->slot, ref->index, &ev);
      times[i] = ev.time_ns;
      fis[i] = ev.file_index;
    }
  for (guint iter = 0; iter < 3000; iter++)
    {
      guint64 pick = g_rand_int_range (rand, 0, n);
      gint64 t;
      guint64 fi, expected = n;

      /* around real match keys, and random ones */
      switch (iter % 3)
        {
        case 0: t = times[pick]; fi = fis[pick]; break;
        case 1: t = times[pick]; fi = fis[pick] + g_rand_int_range (rand, -2, 3); break;
        default:
          t = g_rand_int_range (rand, -1, cpel_file_get_duration (file) + 2);
          fi = g_rand_int_range (rand, 0, BIG_EVENTS);
          break;
        }
      for (guint64 i = 0; i < n; i++)
        if (times[i] > t || (times[i] == t && fis[i] >= fi))
          {
            expected = i;
            break;
          }
      g_assert_cmpuint (cpel_search_result_find_next (r, file, t, fi), ==, expected);
    }
  g_rand_free (rand);
}

static void
progress_cb (double   fraction,
             gpointer data)
{
  double *last = data;

  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

static void
cancel_cb (double   fraction,
           gpointer data)
{
  g_cancellable_cancel (data);
}

static void
test_cancel_progress (void)
{
  g_autoptr(CpelFile) file = big_file ();
  g_autoptr(CpelQuery) query = cpel_query_new (file, CPEL_SEARCH_TEXT, "needle", FALSE, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CpelSearchResult *r;
  double last = 0;

  /* progress rises to 1 */
  r = cpel_search_run (file, query, NULL, progress_cb, &last, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  g_assert_cmpfloat (last, ==, 1.0);
  cpel_search_result_unref (r);

  /* cancelled before */
  g_cancellable_cancel (cancellable);
  r = cpel_search_run (file, query, cancellable, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* cancelled during (from the first progress report) */
  g_cancellable_reset (cancellable);
  r = cpel_search_run (file, query, cancellable, cancel_cb, cancellable, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- the real sample ---------------------------------------------------- */

static void
test_sample (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSearchResult) r = NULL;
  g_autoptr(GString) label = g_string_new ("");
  guint64 count4 = 0, count3 = 0;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 67);

  /* independent counts: walk the merged timeline, format each label */
  {
    g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, G_MININT64);
    CpelEvent ev;
    guint64 ti;

    while (cpel_merge_next (merge, &ev, &ti))
      {
        g_string_truncate (label, 0);
        cpel_file_append_label (file, &ev, label);
        count4 += strstr (label->str, "1): 4") != NULL;
        count3 += strstr (label->str, "1): 3") != NULL;
      }
  }
  g_assert_cmpuint (count3 + count4, ==, 67);
  g_assert_cmpuint (count4, >, 0);
  g_assert_cmpuint (count3, >, 0);

  r = run (file, CPEL_SEARCH_TEXT, "1): 4", FALSE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, count4);
  check_consistent (file, r);
  g_clear_pointer (&r, cpel_search_result_unref);

  r = run (file, CPEL_SEARCH_TEXT, "RX: 1): 3", FALSE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, count3);
  g_clear_pointer (&r, cpel_search_result_unref);

  r = run (file, CPEL_SEARCH_TEXT, "workers", FALSE);   /* a track label, not a label */
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, 0);
  g_clear_pointer (&r, cpel_search_result_unref);

  r = run (file, CPEL_SEARCH_REGEX, "^rx: 1\\): [34]$", TRUE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, 67);
  check_consistent (file, r);
  g_clear_pointer (&r, cpel_search_result_unref);

  r = run (file, CPEL_SEARCH_CODE, "rx", FALSE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, 67);
  g_clear_pointer (&r, cpel_search_result_unref);
  r = run (file, CPEL_SEARCH_CODE, "0", FALSE);
  g_assert_cmpuint (cpel_search_result_get_n (r), ==, 67);
}

/* Per track, the matches as bits where they are dense (one event in 64 at
 * least), exactly the matched track indices; NULL where sparse. */
static void
test_track_bits (void)
{
  g_autoptr(CpelFile) file = small_file ();
  guint with_bits = 0;

  for (guint k = 0; k < 3; k++)
    {
      static const char *codes[] = { "rx", "tx", "drop" };
      g_autoptr(CpelSearchResult) r = run (file, CPEL_SEARCH_CODE, codes[k], FALSE);

      for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
        {
          guint64 n_events, n_matches, j = 0;
          const guint32 *m = cpel_search_result_get_track (r, slot, &n_matches);
          const guint64 *bits = cpel_search_result_get_track_bits (r, slot);

          cpel_file_get_track_times (file, slot, &n_events);
          if (n_matches == 0 || n_matches * 64 < n_events)
            {
              g_assert_null (bits);
              continue;
            }
          g_assert_nonnull (bits);
          with_bits++;
          for (guint64 i = 0; i < n_events; i++)
            {
              gboolean set = (bits[i / 64] >> (i % 64)) & 1;
              gboolean matched = j < n_matches && m[j] == i;

              g_assert_cmpint (set, ==, matched);
              j += matched;
            }
        }
    }
  g_assert_cmpuint (with_bits, >, 0);
}

/* Filtering a result by hidden tracks and types keeps exactly the other
 * matches, in the same order, per track and globally, with bit sets where
 * the kept matches are dense. */
static void
test_filter (void)
{
  g_autoptr(CpelFile) file = big_file ();
  g_autoptr(CpelSearchResult) all = run (file, CPEL_SEARCH_TEXT, "needle", FALSE);
  guint n_tracks = cpel_file_get_n_tracks (file), n_types = cpel_file_get_n_types (file);
  g_autofree guint8 *slots = g_new0 (guint8, n_tracks);
  g_autofree guint8 *types = g_new0 (guint8, n_types);
  guint type;

  /* Nothing hidden: the same result (no copy of every match), also when
   * the flags are there but none is set. */
  {
    g_autoptr(CpelSearchResult) same = cpel_search_result_filter (all, file, NULL, NULL);
    g_autoptr(CpelSearchResult) same2 = cpel_search_result_filter (all, file, slots, types);
    g_assert_true (same == all);
    g_assert_true (same2 == all);
  }

  for (guint s = 0; s < n_tracks; s += 3)
    slots[s] = 1;
  g_assert_true (cpel_file_lookup_type (file, 4, &type));   /* "fixed needle": every one matches */
  types[type] = 1;

  for (int variant = 0; variant < 3; variant++)
    {
      const guint8 *hs = variant != 1 ? slots : NULL;
      const guint8 *ht = variant != 0 ? types : NULL;
      g_autoptr(CpelSearchResult) f = cpel_search_result_filter (all, file, hs, ht);
      guint64 k = 0;

      g_assert_true (f != all);
      for (guint64 i = 0; i < cpel_search_result_get_n (all); i++)
        {
          const CpelEventRef *ref = cpel_search_result_get (all, i);
          guint t;
          gboolean hidden;

          g_assert_true (cpel_file_lookup_type (file, cpel_file_get_track_event_code (file, ref->slot,
                                                                                     ref->index), &t));
          hidden = (hs != NULL && hs[ref->slot]) || (ht != NULL && ht[t]);
          if (hidden)
            continue;
          g_assert_cmpuint (k, <, cpel_search_result_get_n (f));
          g_assert_cmpuint (cpel_search_result_get (f, k)->slot, ==, ref->slot);
          g_assert_cmpuint (cpel_search_result_get (f, k)->index, ==, ref->index);
          k++;
        }
      g_assert_cmpuint (k, ==, cpel_search_result_get_n (f));
      g_assert_cmpuint (k, >, 0);

      for (guint s = 0; s < n_tracks; s++)
        {
          guint64 n_all, n_f, n_events, j = 0;
          const guint32 *m_all = cpel_search_result_get_track (all, s, &n_all);
          const guint32 *m_f = cpel_search_result_get_track (f, s, &n_f);
          const guint64 *bits = cpel_search_result_get_track_bits (f, s);

          cpel_file_get_track_times (file, s, &n_events);
          for (guint64 i = 0; i < n_all; i++)
            {
              guint t;

              cpel_file_lookup_type (file, cpel_file_get_track_event_code (file, s, m_all[i]), &t);
              if ((hs != NULL && hs[s]) || (ht != NULL && ht[t]))
                continue;
              g_assert_cmpuint (j, <, n_f);
              g_assert_cmpuint (m_f[j], ==, m_all[i]);
              j++;
            }
          g_assert_cmpuint (j, ==, n_f);
          g_assert_true ((bits != NULL) == (n_f > 0 && n_f * 64 >= n_events));
          for (guint64 i = 0; bits != NULL && i < n_f; i++)
            g_assert_true ((bits[m_f[i] / 64] >> (m_f[i] % 64)) & 1);
        }
    }
}

/* A regex with catastrophic backtracking on the labels (nested repeats
 * that cannot match): PCRE2 gives up on a label after its backtracking
 * limit (some 0.1 s); the search stops there with "too complex" instead of
 * spending that on every label (101 s on a demo capture). */
#define TOO_COMPLEX "^([\\w: ]+ ?)*[!?]$"

static void
test_regex_too_complex (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-search-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "labels.cpel", NULL);
  CpelGenOptions gen = { 2000, 4, 7, FALSE, FALSE, TRUE, FALSE };
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelQuery) query = NULL;
  g_autoptr(CpelSearchResult) result = NULL;

  g_assert_true (cpel_gen_write (path, &gen, &error));
  g_assert_no_error (error);
  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  query = cpel_query_new (file, CPEL_SEARCH_REGEX, TOO_COMPLEX, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (cpel_query_check (query, NULL));
  result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "too complex"));
  g_assert_false (cpel_query_check (query, NULL));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/search/text", test_text);
  g_test_add_func ("/core/search/regex", test_regex);
  g_test_add_func ("/core/search/bad-regex", test_bad_regex);
  g_test_add_func ("/core/search/regex-too-complex", test_regex_too_complex);
  g_test_add_func ("/core/search/code", test_code);
  g_test_add_func ("/core/search/track-bits", test_track_bits);
  g_test_add_func ("/core/search/filter", test_filter);
  g_test_add_func ("/core/search/query-match", test_query_match);
  g_test_add_func ("/core/search/find-next", test_find_next);
  g_test_add_func ("/core/search/refcount", test_refcount);
  g_test_add_func ("/core/search/two-sections", test_two_sections);
  g_test_add_func ("/core/search/no-events", test_no_events);
  g_test_add_func ("/core/search/big-oracle", test_big_oracle);
  g_test_add_func ("/core/search/big-sorted", test_big_sorted);
  g_test_add_func ("/core/search/big-sections", test_big_sections);
  g_test_add_func ("/core/search/big-distinct", test_big_distinct);
  g_test_add_func ("/core/search/big-find-next", test_big_find_next);
  g_test_add_func ("/core/search/cancel-progress", test_cancel_progress);
  g_test_add_func ("/core/search/sample", test_sample);

  return g_test_run ();
}
