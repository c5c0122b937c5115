/* SPDX-License-Identifier: Apache-2.0 */
/* test-track-order.c — CpelTrackOrder: which tracks a timeline shows and in
 * what order (move, pin, hide, filter, sort, drag and drop, saved rows),
 * on a small file built in memory; no display needed. */
#include "cpel-core.h"
#include "cpel-loader.h"
#include <string.h>

#include "cpel-track-order.h"

/* Four tracks; slots follow the ids:
 *   slot 0  id 2   "worker 10"  1 event
 *   slot 1  id 3   "Main"       4 events
 *   slot 2  id 7   "worker 9"   2 events
 *   slot 3  id 10  "Idle"       0 events  */
#define N_TRACKS 4

static CpelFile *
file_new (void)
{
  static const struct { guint32 id; const char *label; } tracks[] = {
    { 10, "Idle" }, { 7, "worker 9" }, { 2, "worker 10" }, { 3, "Main" },
  };
  static const guint32 events[] = { 3, 7, 3, 2, 3, 7, 3 };   /* track id per event */
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, &error);
  g_autoptr(GBytes) bytes = NULL;
  CpelFile *file;
  guint table;

  g_assert_no_error (error);
  table = cpel_writer_add_string_table (w, "FileStrtab");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, 1, "tick", NULL);
  cpel_writer_begin_track_defs (w, table);
  for (guint i = 0; i < G_N_ELEMENTS (tracks); i++)
    cpel_writer_add_track_def (w, tracks[i].id, tracks[i].label);
  cpel_writer_begin_events (w, table, 1000000000u, G_N_ELEMENTS (events));
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    cpel_writer_add_event (w, 100 * i, events[i], 1, i);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (file);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, N_TRACKS);
  return file;
}

typedef struct
{
  CpelFile       *file;
  CpelTrackOrder *order;
  guint           n_changed;
} Fixture;

static void
on_changed (CpelTrackOrder *order,
            Fixture        *f)
{
  f->n_changed++;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->file = file_new ();
  f->order = cpel_track_order_new (f->file);
  g_signal_connect (f->order, "changed", G_CALLBACK (on_changed), f);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_assert_finalize_object (f->order);
  g_assert_finalize_object (f->file);
}

/* The rows to draw are exactly `expected` (-1 ends the list). */
static void
assert_rows (CpelTrackOrder *order, const int *expected)
{
  guint n, n_expected = 0;
  const guint *rows = cpel_track_order_get_rows (order, &n);

  while (expected[n_expected] >= 0)
    n_expected++;
  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (rows != NULL ? rows[i] : i, ==, (guint) expected[i]);
}
#define ROWS(order, ...) assert_rows ((order), (const int[]) { __VA_ARGS__, -1 })

/* The full order, hidden tracks included. */
static void
assert_order (CpelTrackOrder *order, const guint expected[N_TRACKS])
{
  g_assert_cmpuint (cpel_track_order_get_n (order), ==, N_TRACKS);
  for (guint p = 0; p < N_TRACKS; p++)
    g_assert_cmpuint (cpel_track_order_get_slot (order, p), ==, expected[p]);
}
#define ORDER(order, a, b, c, d) assert_order ((order), (const guint[]) { a, b, c, d })

static void
test_new (Fixture *f, gconstpointer data)
{
  guint n = 0;

  /* Every track, in slot order: no row list at all. */
  g_assert_null (cpel_track_order_get_rows (f->order, &n));
  g_assert_cmpuint (n, ==, N_TRACKS);
  ORDER (f->order, 0, 1, 2, 3);
  g_assert_null (cpel_track_order_get_filter (f->order));
  g_assert_false (cpel_track_order_get_filter_is_regex (f->order));
  for (guint slot = 0; slot < N_TRACKS; slot++)
    {
      g_assert_false (cpel_track_order_get_hidden (f->order, slot));
      g_assert_false (cpel_track_order_get_pinned (f->order, slot));
      g_assert_true (cpel_track_order_matches (f->order, slot));
    }
  g_assert_cmpuint (f->n_changed, ==, 0);
}

static void
test_move (Fixture *f, gconstpointer data)
{
  /* A pinned track comes first and moves within its own group only. */
  cpel_track_order_set_pinned (f->order, 2, TRUE);
  g_assert_true (cpel_track_order_get_pinned (f->order, 2));
  ROWS (f->order, 2, 0, 1, 3);
  g_assert_false (cpel_track_order_can_move (f->order, 2, -1));
  g_assert_false (cpel_track_order_can_move (f->order, 2, 1));
  g_assert_false (cpel_track_order_can_move (f->order, 0, -1));
  g_assert_true (cpel_track_order_can_move (f->order, 0, 1));
  g_assert_true (cpel_track_order_can_move (f->order, 3, -1));
  g_assert_false (cpel_track_order_can_move (f->order, 3, 1));
  g_assert_false (cpel_track_order_can_move (f->order, 3, 0));

  cpel_track_order_move (f->order, 0, 1);
  ORDER (f->order, 1, 0, 2, 3);
  ROWS (f->order, 2, 1, 0, 3);
  /* The next unpinned neighbour is past the pinned track. */
  cpel_track_order_move (f->order, 0, 1);
  ORDER (f->order, 1, 2, 3, 0);
  ROWS (f->order, 2, 1, 3, 0);
  g_assert_false (cpel_track_order_can_move (f->order, 0, 1));

  /* Nothing to do at the end: no change signalled. */
  f->n_changed = 0;
  cpel_track_order_move (f->order, 0, 1);
  cpel_track_order_move (f->order, 2, -1);
  g_assert_cmpuint (f->n_changed, ==, 0);

  /* A long way up stops at the top of the group. */
  cpel_track_order_move (f->order, 0, -5);
  ORDER (f->order, 0, 1, 2, 3);
  ROWS (f->order, 2, 0, 1, 3);
  g_assert_cmpuint (f->n_changed, ==, 1);
}

static void
test_hide (Fixture *f, gconstpointer data)
{
  cpel_track_order_set_pinned (f->order, 2, TRUE);
  cpel_track_order_set_hidden (f->order, 1, TRUE);
  g_assert_true (cpel_track_order_get_hidden (f->order, 1));
  ROWS (f->order, 2, 0, 3);
  /* A pinned track can be hidden too. */
  cpel_track_order_set_hidden (f->order, 2, TRUE);
  ROWS (f->order, 0, 3);

  /* Setting what is already set changes nothing. */
  f->n_changed = 0;
  cpel_track_order_set_hidden (f->order, 2, TRUE);
  cpel_track_order_set_hidden (f->order, 0, FALSE);
  cpel_track_order_set_pinned (f->order, 2, TRUE);
  g_assert_cmpuint (f->n_changed, ==, 0);

  cpel_track_order_set_hidden (f->order, 1, FALSE);
  cpel_track_order_set_hidden (f->order, 2, FALSE);
  cpel_track_order_set_pinned (f->order, 2, FALSE);
  g_assert_cmpuint (f->n_changed, ==, 3);
  g_assert_null (cpel_track_order_get_rows (f->order, NULL));
}

static void
test_filter_text (Fixture *f, gconstpointer data)
{
  /* Case-insensitive, a part of the label. */
  cpel_track_order_set_filter (f->order, "WORKER");
  g_assert_cmpstr (cpel_track_order_get_filter (f->order), ==, "worker");
  g_assert_false (cpel_track_order_get_filter_is_regex (f->order));
  ROWS (f->order, 0, 2);
  g_assert_true (cpel_track_order_matches (f->order, 0));
  g_assert_false (cpel_track_order_matches (f->order, 1));

  /* Pinned tracks ignore the filter; hidden ones stay hidden. */
  cpel_track_order_set_pinned (f->order, 1, TRUE);
  ROWS (f->order, 1, 0, 2);
  cpel_track_order_set_hidden (f->order, 2, TRUE);
  ROWS (f->order, 1, 0);

  /* The same filter again is no change. */
  f->n_changed = 0;
  cpel_track_order_set_filter (f->order, "Worker");
  g_assert_cmpuint (f->n_changed, ==, 0);

  /* A filter that keeps none. */
  cpel_track_order_set_filter (f->order, "nothing");
  ROWS (f->order, 1);
  cpel_track_order_set_pinned (f->order, 1, FALSE);
  ROWS (f->order, -1);

  /* Empty clears it. */
  cpel_track_order_set_filter (f->order, "");
  g_assert_null (cpel_track_order_get_filter (f->order));
  ROWS (f->order, 0, 1, 3);
}

static void
test_filter_regex (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (cpel_track_order_set_filter_regex (f->order, "^w.*r [0-9]$", &error));
  g_assert_no_error (error);
  g_assert_true (cpel_track_order_get_filter_is_regex (f->order));
  g_assert_cmpstr (cpel_track_order_get_filter (f->order), ==, "^w.*r [0-9]$");
  ROWS (f->order, 2);

  /* Case-insensitive too. */
  g_assert_true (cpel_track_order_set_filter_regex (f->order, "^MAIN$|idle", &error));
  ROWS (f->order, 1, 3);

  /* A pattern in error changes nothing and says why. */
  f->n_changed = 0;
  g_assert_false (cpel_track_order_set_filter_regex (f->order, "(", &error));
  g_assert_error (error, G_REGEX_ERROR, G_REGEX_ERROR_UNMATCHED_PARENTHESIS);
  g_clear_error (&error);
  g_assert_cmpuint (f->n_changed, ==, 0);
  g_assert_cmpstr (cpel_track_order_get_filter (f->order), ==, "^MAIN$|idle");
  ROWS (f->order, 1, 3);

  /* Catastrophic backtracking (nested repeats that cannot match): PCRE2
   * gives up on the first label; the filter says so and is cleared, the
   * other labels are not tried (each would take as long). */
  f->n_changed = 0;
  g_assert_false (cpel_track_order_set_filter_regex (f->order, "^((((\\w| )*)*)*)*[!?]$",
                                                     &error));
  g_assert_error (error, G_REGEX_ERROR, G_REGEX_ERROR_MATCH);
  g_assert_nonnull (strstr (error->message, "too complex"));
  g_clear_error (&error);
  g_assert_null (cpel_track_order_get_filter (f->order));
  g_assert_null (cpel_track_order_get_rows (f->order, NULL));

  /* A text filter replaces it; an empty pattern clears. */
  cpel_track_order_set_filter (f->order, "main");
  g_assert_false (cpel_track_order_get_filter_is_regex (f->order));
  ROWS (f->order, 1);
  g_assert_true (cpel_track_order_set_filter_regex (f->order, "10$", &error));
  ROWS (f->order, 0);
  g_assert_true (cpel_track_order_set_filter_regex (f->order, "", &error));
  g_assert_no_error (error);
  g_assert_null (cpel_track_order_get_filter (f->order));
  g_assert_false (cpel_track_order_get_filter_is_regex (f->order));
  g_assert_null (cpel_track_order_get_rows (f->order, NULL));
}

static void
test_sort (Fixture *f, gconstpointer data)
{
  /* By name, numbers as numbers: Idle, Main, worker 9, worker 10. */
  cpel_track_order_sort (f->order, CPEL_TRACK_SORT_NAME);
  ORDER (f->order, 3, 1, 2, 0);
  ROWS (f->order, 3, 1, 2, 0);
  /* By id: slot order again, which needs no row list. */
  cpel_track_order_sort (f->order, CPEL_TRACK_SORT_ID);
  ORDER (f->order, 0, 1, 2, 3);
  g_assert_null (cpel_track_order_get_rows (f->order, NULL));
  /* Busiest first; the empty track last. */
  cpel_track_order_sort (f->order, CPEL_TRACK_SORT_COUNT);
  ORDER (f->order, 1, 2, 0, 3);

  /* Hidden, pinned and the filter stay. */
  cpel_track_order_set_hidden (f->order, 2, TRUE);
  cpel_track_order_set_pinned (f->order, 0, TRUE);
  cpel_track_order_set_filter (f->order, "i");   /* Idle, Main */
  cpel_track_order_sort (f->order, CPEL_TRACK_SORT_NAME);
  ORDER (f->order, 3, 1, 2, 0);
  ROWS (f->order, 0, 3, 1);
  cpel_track_order_sort (f->order, CPEL_TRACK_SORT_DEFAULT);
  ORDER (f->order, 0, 1, 2, 3);
  ROWS (f->order, 0, 1, 3);
  g_assert_true (cpel_track_order_get_hidden (f->order, 2));
}

static void
test_raise_place (Fixture *f, gconstpointer data)
{
  /* g2's Shift+click and Ctrl+click: to the top, to the bottom. */
  cpel_track_order_raise (f->order, 3, TRUE);
  ORDER (f->order, 3, 0, 1, 2);
  cpel_track_order_raise (f->order, 3, FALSE);
  ORDER (f->order, 0, 1, 2, 3);
  cpel_track_order_raise (f->order, 1, FALSE);
  ORDER (f->order, 0, 2, 3, 1);
  cpel_track_order_reset (f->order);

  /* Drag and drop: before another track, or after all. */
  cpel_track_order_place (f->order, 3, 0);
  ORDER (f->order, 3, 0, 1, 2);
  cpel_track_order_place (f->order, 3, G_MAXUINT);
  ORDER (f->order, 0, 1, 2, 3);
  g_assert_null (cpel_track_order_get_rows (f->order, NULL));

  /* Dropped among the pinned tracks, a track is pinned... */
  cpel_track_order_set_pinned (f->order, 1, TRUE);
  cpel_track_order_place (f->order, 2, 1);
  ORDER (f->order, 0, 2, 1, 3);
  g_assert_true (cpel_track_order_get_pinned (f->order, 2));
  ROWS (f->order, 2, 1, 0, 3);
  /* ...and dropped among the others, it is not. */
  cpel_track_order_place (f->order, 2, 3);
  ORDER (f->order, 0, 1, 2, 3);
  g_assert_false (cpel_track_order_get_pinned (f->order, 2));
  ROWS (f->order, 1, 0, 2, 3);
  /* After every track means unpinned, at the end. */
  cpel_track_order_place (f->order, 1, G_MAXUINT);
  ORDER (f->order, 0, 2, 3, 1);
  g_assert_false (cpel_track_order_get_pinned (f->order, 1));

  /* Onto itself, or where it already is: nothing. */
  f->n_changed = 0;
  cpel_track_order_place (f->order, 2, 2);
  cpel_track_order_place (f->order, 0, 2);
  cpel_track_order_place (f->order, 1, G_MAXUINT);
  g_assert_cmpuint (f->n_changed, ==, 0);
}

static void
test_set_rows (Fixture *f, gconstpointer data)
{
  static const guint slots[] = { 2, 9, 0, 2 };

  cpel_track_order_set_filter (f->order, "worker");
  cpel_track_order_set_pinned (f->order, 3, TRUE);
  /* Exactly these, in this order; out of range and repeated slots skipped. */
  cpel_track_order_set_rows (f->order, slots, G_N_ELEMENTS (slots));
  ROWS (f->order, 2, 0);
  ORDER (f->order, 2, 0, 1, 3);
  g_assert_null (cpel_track_order_get_filter (f->order));
  g_assert_false (cpel_track_order_get_pinned (f->order, 3));
  g_assert_true (cpel_track_order_get_hidden (f->order, 1));
  g_assert_true (cpel_track_order_get_hidden (f->order, 3));

  /* None at all is a view with no tracks. */
  cpel_track_order_set_rows (f->order, NULL, 0);
  ROWS (f->order, -1);

  cpel_track_order_reset (f->order);
  g_assert_null (cpel_track_order_get_rows (f->order, NULL));
  ORDER (f->order, 0, 1, 2, 3);
}

static void
test_copy (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelTrackOrder) copy = NULL;
  g_autoptr(GError) error = NULL;

  cpel_track_order_move (f->order, 0, 2);
  cpel_track_order_set_pinned (f->order, 3, TRUE);
  cpel_track_order_set_hidden (f->order, 1, TRUE);
  g_assert_true (cpel_track_order_set_filter_regex (f->order, "o", &error));

  copy = cpel_track_order_copy (f->order);
  g_assert_true (cpel_track_order_equal (copy, f->order));
  g_assert_true (cpel_track_order_get_filter_is_regex (copy));
  ROWS (copy, 3, 2, 0);
  ROWS (f->order, 3, 2, 0);

  /* The copy is separate. */
  cpel_track_order_set_hidden (copy, 1, FALSE);
  g_assert_false (cpel_track_order_equal (copy, f->order));
  g_assert_true (cpel_track_order_get_hidden (f->order, 1));
  /* The same text as a text filter is not the same filter. */
  cpel_track_order_set_hidden (copy, 1, TRUE);
  g_assert_true (cpel_track_order_equal (copy, f->order));
  cpel_track_order_set_filter (copy, "o");
  g_assert_false (cpel_track_order_equal (copy, f->order));

  /* Putting a state back. */
  cpel_track_order_reset (copy);
  f->n_changed = 0;
  cpel_track_order_assign (f->order, copy);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_true (cpel_track_order_equal (copy, f->order));
  g_assert_null (cpel_track_order_get_rows (f->order, NULL));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/model/track-order/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("new", test_new);
  ADD ("move", test_move);
  ADD ("hide", test_hide);
  ADD ("filter-text", test_filter_text);
  ADD ("filter-regex", test_filter_regex);
  ADD ("sort", test_sort);
  ADD ("raise-place", test_raise_place);
  ADD ("set-rows", test_set_rows);
  ADD ("copy", test_copy);
#undef ADD
  return g_test_run ();
}
