/* SPDX-License-Identifier: Apache-2.0 */
/* test-session.c — CpelSession: the view state's properties, their
 * notifications and signals (range and history, tracks, types, selection,
 * measure, chase, modes, saved views), on a small file built in memory;
 * no display needed. */
#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-session.h"

/* Four tracks; slots follow the ids; events i = 0..6 at 100·i ns:
 *   slot 0  id 2   "worker 10"  event 3 (300 ns)
 *   slot 1  id 3   "Main"       events 0, 2, 4, 6 (0, 200, 400, 600 ns)
 *   slot 2  id 7   "worker 9"   events 1, 5 (100, 500 ns)
 *   slot 3  id 10  "Idle"       none
 * Codes: 2 ("tock") for events 1 and 4, else 1 ("tick"). */
#define N_TRACKS 4

static CpelFile *
file_new (void)
{
  static const struct { guint32 id; const char *label; } tracks[] = {
    { 10, "Idle" }, { 7, "worker 9" }, { 2, "worker 10" }, { 3, "Main" },
  };
  static const guint32 events[] = { 3, 7, 3, 2, 3, 7, 3 };   /* track id per event */
  static const guint32 codes[] = { 1, 2, 1, 1, 2, 1, 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, &error);
  g_autoptr(GBytes) bytes = NULL;
  CpelFile *file;
  guint table;

  g_assert_no_error (error);
  table = cpel_writer_add_string_table (w, "FileStrtab");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, 1, "tick", NULL);
  cpel_writer_add_event_def (w, 2, "tock", NULL);
  cpel_writer_begin_track_defs (w, table);
  for (guint i = 0; i < G_N_ELEMENTS (tracks); i++)
    cpel_writer_add_track_def (w, tracks[i].id, tracks[i].label);
  cpel_writer_begin_events (w, table, 1000000000u, G_N_ELEMENTS (events));
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    cpel_writer_add_event (w, 100 * i, events[i], codes[i], i);
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
  CpelFile    *file;
  CpelSession *session;
  GHashTable  *notified;      /* property name -> count */
  guint        n_tracks_changed;
  guint        n_types_changed;
  guint        n_matches_changed;
  guint        n_selection_changed;
  guint        n_reveal;
  guint        reveal_slot;
  gboolean     reveal_centre;
} Fixture;

static void
on_notify (GObject *object, GParamSpec *pspec, Fixture *f)
{
  const char *name = g_param_spec_get_name (pspec);

  g_hash_table_insert (f->notified, (gpointer) name,
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (f->notified,
                                                                                 name)) + 1));
}

static guint
n_notified (Fixture *f, const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (f->notified, name));
}

static void
on_tracks_changed (CpelSession *session, Fixture *f)
{
  f->n_tracks_changed++;
}

static void
on_types_changed (CpelSession *session, Fixture *f)
{
  f->n_types_changed++;
}

static void
on_matches_changed (CpelSession *session, Fixture *f)
{
  f->n_matches_changed++;
}

static void
on_selection_changed (CpelSession *session, Fixture *f)
{
  f->n_selection_changed++;
}

static void
on_reveal_track (CpelSession *session, guint slot, gboolean centre, Fixture *f)
{
  f->n_reveal++;
  f->reveal_slot = slot;
  f->reveal_centre = centre;
}

static void
reset_counts (Fixture *f)
{
  g_hash_table_remove_all (f->notified);
  f->n_tracks_changed = 0;
  f->n_types_changed = 0;
  f->n_matches_changed = 0;
  f->n_selection_changed = 0;
  f->n_reveal = 0;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->file = file_new ();
  f->session = cpel_session_new ();
  /* no spans: a derivation would hold the file past the teardown's check
   * (test-session-spans.c tests them) */
  cpel_session_set_span_rules (f->session, NULL);
  f->notified = g_hash_table_new (g_str_hash, g_str_equal);
  g_signal_connect (f->session, "notify", G_CALLBACK (on_notify), f);
  g_signal_connect (f->session, "tracks-changed", G_CALLBACK (on_tracks_changed), f);
  g_signal_connect (f->session, "types-changed", G_CALLBACK (on_types_changed), f);
  g_signal_connect (f->session, "matches-changed", G_CALLBACK (on_matches_changed), f);
  g_signal_connect (f->session, "selection-changed", G_CALLBACK (on_selection_changed), f);
  g_signal_connect (f->session, "reveal-track", G_CALLBACK (on_reveal_track), f);
  if (data == NULL)
    {
      cpel_session_set_file (f->session, f->file);
      reset_counts (f);
    }
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_hash_table_unref (f->notified);
  g_assert_finalize_object (f->session);
  g_assert_finalize_object (f->file);
}

static void
set_range (Fixture *f, gint64 t0, gint64 t1, CpelSessionRemember remember)
{
  CpelRange range = { t0, t1 };

  cpel_session_set_range (f->session, &range, remember);
}

static void
assert_range (Fixture *f, gint64 t0, gint64 t1)
{
  const CpelRange *range = cpel_session_get_range (f->session);

  g_assert_cmpint (range->t0, ==, t0);
  g_assert_cmpint (range->t1, ==, t1);
}

/* The rows shown are exactly `expected` (-1 ends the list). */
static void
assert_rows (CpelSession *session, const int *expected)
{
  guint n, n_expected = 0;
  const guint *rows = cpel_session_get_rows (session, &n);

  while (expected[n_expected] >= 0)
    n_expected++;
  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (rows != NULL ? rows[i] : i, ==, (guint) expected[i]);
}
#define ROWS(session, ...) assert_rows ((session), (const int[]) { __VA_ARGS__, -1 })

static void
test_file (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelFile) other = file_new ();
  CpelTrackOrder *order;
  CpelRange range = { 100, 200 };

  /* Nothing without a file. */
  g_assert_null (cpel_session_get_file (f->session));
  g_assert_null (cpel_session_get_track_order (f->session));
  g_assert_false (cpel_session_set_range (f->session, &range, CPEL_SESSION_STEP));
  cpel_session_select (f->session, 1, 0, FALSE);
  g_assert_false (cpel_session_get_selection (f->session, NULL, NULL));
  assert_rows (f->session, (const int[]) { -1 });

  cpel_session_set_file (f->session, f->file);
  g_assert_true (cpel_session_get_file (f->session) == f->file);
  g_assert_cmpuint (n_notified (f, "file"), ==, 1);
  g_assert_cmpuint (n_notified (f, "track-order"), ==, 1);
  g_assert_cmpuint (n_notified (f, "range"), ==, 1);
  g_assert_cmpuint (f->n_tracks_changed, ==, 1);
  /* The whole capture, every track. */
  assert_range (f, 0, 601);
  ROWS (f->session, 0, 1, 2, 3);
  order = cpel_session_get_track_order (f->session);
  g_assert_nonnull (order);

  /* The same file again changes nothing. */
  reset_counts (f);
  cpel_session_set_file (f->session, f->file);
  g_assert_cmpuint (g_hash_table_size (f->notified), ==, 0);
  g_assert_cmpuint (f->n_tracks_changed, ==, 0);

  /* Another file: the view starts anew; the modes stay. */
  set_range (f, 100, 200, CPEL_SESSION_STEP);
  cpel_session_set_type_hidden (f->session, 1, TRUE);
  cpel_session_select (f->session, 1, 0, FALSE);
  cpel_session_set_measure (f->session, 10, 50);
  cpel_session_set_summary (f->session, TRUE);
  cpel_track_order_set_hidden (order, 2, TRUE);
  reset_counts (f);
  cpel_session_set_file (f->session, other);
  g_assert_true (cpel_session_get_track_order (f->session) != order);
  g_assert_cmpuint (n_notified (f, "file"), ==, 1);
  g_assert_cmpuint (n_notified (f, "range"), ==, 1);
  g_assert_cmpuint (n_notified (f, "has-selection"), ==, 1);
  g_assert_cmpuint (n_notified (f, "measure"), ==, 1);
  g_assert_cmpuint (n_notified (f, "can-go-back"), ==, 1);
  g_assert_cmpuint (n_notified (f, "summary"), ==, 0);
  g_assert_cmpuint (f->n_types_changed, ==, 1);
  g_assert_cmpuint (f->n_selection_changed, ==, 1);
  assert_range (f, 0, 601);
  ROWS (f->session, 0, 1, 2, 3);
  g_assert_null (cpel_session_get_hidden_types (f->session));
  g_assert_false (cpel_session_get_selection (f->session, NULL, NULL));
  g_assert_false (cpel_session_get_measure (f->session, NULL, NULL));
  g_assert_false (cpel_session_can_go_back (f->session));
  g_assert_true (cpel_session_get_summary (f->session));

  /* The compare file is a property of its own. */
  cpel_session_set_compare_file (f->session, f->file);
  cpel_session_set_compare_file (f->session, f->file);
  g_assert_cmpuint (n_notified (f, "compare-file"), ==, 1);
  g_assert_true (cpel_session_get_compare_file (f->session) == f->file);
  cpel_session_set_compare_file (f->session, NULL);
  cpel_session_set_file (f->session, NULL);
}

static void
test_range (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelRange) got = NULL;

  /* A new range notifies once. */
  set_range (f, 100, 300, CPEL_SESSION_FORGET);
  g_assert_cmpuint (n_notified (f, "range"), ==, 1);
  assert_range (f, 100, 300);
  g_object_get (f->session, "range", &got, NULL);
  g_assert_cmpint (got->t0, ==, 100);
  g_assert_cmpint (got->t1, ==, 300);

  /* The same range does not. */
  g_assert_false (cpel_session_set_range (f->session, &(CpelRange) { 100, 300 },
                                          CPEL_SESSION_STEP));
  g_assert_cmpuint (n_notified (f, "range"), ==, 1);

  /* Clamped to the capture and the minimum span. */
  set_range (f, -500, 100, CPEL_SESSION_FORGET);
  assert_range (f, 0, 600);
  set_range (f, 50, 51, CPEL_SESSION_FORGET);
  g_assert_cmpint (cpel_range_span (cpel_session_get_range (f->session)), ==,
                   CPEL_RANGE_MIN_SPAN);
  g_assert_cmpuint (n_notified (f, "range"), ==, 3);
  /* Forgotten changes are no history. */
  g_assert_false (cpel_session_can_go_back (f->session));
  g_assert_cmpuint (n_notified (f, "can-go-back"), ==, 0);

  cpel_session_fit (f->session);
  assert_range (f, 0, 601);
}

static void
test_history (Fixture *f, gconstpointer data)
{
  g_assert_false (cpel_session_go_back (f->session));

  set_range (f, 100, 300, CPEL_SESSION_STEP);
  set_range (f, 200, 250, CPEL_SESSION_STEP);
  g_assert_true (cpel_session_can_go_back (f->session));
  g_assert_false (cpel_session_can_go_forward (f->session));
  g_assert_cmpuint (n_notified (f, "can-go-back"), ==, 1);

  g_assert_true (cpel_session_go_back (f->session));
  assert_range (f, 100, 300);
  g_assert_cmpuint (n_notified (f, "can-go-forward"), ==, 1);
  g_assert_true (cpel_session_go_back (f->session));
  assert_range (f, 0, 601);
  g_assert_false (cpel_session_can_go_back (f->session));
  g_assert_false (cpel_session_go_back (f->session));
  g_assert_cmpuint (n_notified (f, "can-go-back"), ==, 2);

  g_assert_true (cpel_session_go_forward (f->session));
  g_assert_true (cpel_session_go_forward (f->session));
  assert_range (f, 200, 250);
  g_assert_false (cpel_session_go_forward (f->session));
  g_assert_cmpuint (n_notified (f, "range"), ==, 6);

  /* Continuous changes in a row are one step. */
  cpel_session_go_back (f->session);
  set_range (f, 110, 310, CPEL_SESSION_CONTINUOUS);
  set_range (f, 120, 320, CPEL_SESSION_CONTINUOUS);
  set_range (f, 130, 330, CPEL_SESSION_CONTINUOUS);
  g_assert_false (cpel_session_can_go_forward (f->session));
  g_assert_true (cpel_session_go_back (f->session));
  assert_range (f, 100, 300);
}

static void
test_tracks (Fixture *f, gconstpointer data)
{
  CpelTrackOrder *order = cpel_session_get_track_order (f->session);

  /* Hiding a track changes the rows shown, once. */
  cpel_track_order_set_hidden (order, 2, TRUE);
  g_assert_cmpuint (f->n_tracks_changed, ==, 1);
  ROWS (f->session, 0, 1, 3);
  g_assert_cmpint (cpel_session_get_slot_row (f->session, 2), ==, -1);
  g_assert_cmpint (cpel_session_get_slot_row (f->session, 3), ==, 2);

  /* A hidden track cannot be revealed; a shown one asks the widget. */
  g_assert_false (cpel_session_reveal_track (f->session, 2, TRUE));
  g_assert_cmpuint (f->n_reveal, ==, 0);
  g_assert_true (cpel_session_reveal_track (f->session, 3, TRUE));
  g_assert_cmpuint (f->n_reveal, ==, 1);
  g_assert_cmpuint (f->reveal_slot, ==, 3);
  g_assert_true (f->reveal_centre);
  g_assert_false (cpel_session_reveal_track (f->session, N_TRACKS, TRUE));

  cpel_track_order_set_pinned (order, 3, TRUE);
  ROWS (f->session, 3, 0, 1);
  cpel_track_order_reset (order);
  ROWS (f->session, 0, 1, 2, 3);
  g_assert_cmpuint (f->n_tracks_changed, ==, 3);
}

/* The Tracks window's logic: its list, Enter in the filter, activating a
 * row. */
static void
test_tracks_window (Fixture *f, gconstpointer data)
{
  CpelTrackOrder *order = cpel_session_get_track_order (f->session);
  g_autofree guint *listed = NULL;
  g_autofree guint *all = NULL;
  guint n;

  all = cpel_track_order_get_listed (order, &n);
  g_assert_cmpuint (n, ==, N_TRACKS);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (all[i], ==, i);

  /* Pinned first whatever the filter, then the matches, hidden included. */
  cpel_track_order_set_filter (order, "WORKER");
  cpel_track_order_set_pinned (order, 3, TRUE);
  cpel_track_order_set_hidden (order, 0, TRUE);
  listed = cpel_track_order_get_listed (order, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (listed[0], ==, 3);
  g_assert_cmpuint (listed[1], ==, 0);
  g_assert_cmpuint (listed[2], ==, 2);
  ROWS (f->session, 3, 2);

  /* Enter: the first track shown that the filter keeps ("Idle" does not). */
  g_assert_cmpuint (cpel_track_order_first_shown_match (order), ==, 2);
  cpel_track_order_set_filter (order, "nothing");
  g_assert_cmpuint (cpel_track_order_first_shown_match (order), ==, G_MAXUINT);
  cpel_track_order_set_filter (order, "worker");

  /* Activating a hidden track's row shows it and asks for it centred. */
  reset_counts (f);
  cpel_session_show_track (f->session, 0);
  g_assert_false (cpel_track_order_get_hidden (order, 0));
  ROWS (f->session, 3, 0, 2);
  g_assert_cmpuint (f->n_reveal, ==, 1);
  g_assert_cmpuint (f->reveal_slot, ==, 0);
  g_assert_true (f->reveal_centre);
  cpel_session_show_track (f->session, N_TRACKS);
  g_assert_cmpuint (f->n_reveal, ==, 1);
}

static void
test_types (Fixture *f, gconstpointer data)
{
  guint tock;
  guint8 hidden[2] = { 0, 0 };

  g_assert_true (cpel_file_lookup_type (f->file, 2, &tock));
  g_assert_cmpuint (cpel_file_get_n_types (f->file), ==, 2);

  /* Hiding a type: once; again: nothing. */
  cpel_session_set_type_hidden (f->session, tock, TRUE);
  g_assert_cmpuint (f->n_types_changed, ==, 1);
  g_assert_true (cpel_session_get_type_hidden (f->session, tock));
  g_assert_false (cpel_session_get_type_hidden (f->session, 1 - tock));
  cpel_session_set_type_hidden (f->session, tock, TRUE);
  hidden[tock] = 1;
  cpel_session_set_hidden_types (f->session, hidden);
  g_assert_cmpuint (f->n_types_changed, ==, 1);
  /* Event 1 (slot 2, index 0) is a tock; event 5 (slot 2, index 1) a tick. */
  g_assert_true (cpel_session_event_hidden (f->session, 2, 0));
  g_assert_false (cpel_session_event_hidden (f->session, 2, 1));

  /* All shown again: no array at all. */
  hidden[tock] = 0;
  cpel_session_set_hidden_types (f->session, hidden);
  g_assert_null (cpel_session_get_hidden_types (f->session));
  g_assert_cmpuint (f->n_types_changed, ==, 2);
  cpel_session_set_hidden_types (f->session, NULL);
  g_assert_cmpuint (f->n_types_changed, ==, 2);

  /* Hiding the selected event's type drops the selection. */
  cpel_session_select (f->session, 2, 0, FALSE);
  g_assert_true (cpel_session_get_selection (f->session, NULL, NULL));
  cpel_session_set_type_hidden (f->session, tock, TRUE);
  g_assert_false (cpel_session_get_selection (f->session, NULL, NULL));
  g_assert_cmpuint (f->n_selection_changed, ==, 2);
  g_assert_cmpuint (n_notified (f, "has-selection"), ==, 2);
}

static void
test_selection (Fixture *f, gconstpointer data)
{
  guint slot;
  guint64 index;

  /* Selecting notifies once; the same event again: nothing. */
  cpel_session_select (f->session, 1, 2, FALSE);
  g_assert_true (cpel_session_get_selection (f->session, &slot, &index));
  g_assert_cmpuint (slot, ==, 1);
  g_assert_cmpuint (index, ==, 2);
  cpel_session_select (f->session, 1, 2, FALSE);
  g_assert_cmpuint (f->n_selection_changed, ==, 1);
  g_assert_cmpuint (n_notified (f, "has-selection"), ==, 1);

  /* Another event: the selection changes, has-selection does not. */
  cpel_session_select (f->session, 1, 3, FALSE);
  g_assert_cmpuint (f->n_selection_changed, ==, 2);
  g_assert_cmpuint (n_notified (f, "has-selection"), ==, 1);
  /* No such event: nothing. */
  cpel_session_select (f->session, 1, 4, FALSE);
  cpel_session_select (f->session, 3, 0, FALSE);
  g_assert_true (cpel_session_get_selection (f->session, &slot, &index));
  g_assert_cmpuint (index, ==, 3);
  g_assert_cmpuint (f->n_selection_changed, ==, 2);
  g_assert_cmpuint (f->n_reveal, ==, 0);

  /* Revealing an event in view scrolls its track by the least amount... */
  set_range (f, 0, 300, CPEL_SESSION_FORGET);
  cpel_session_select (f->session, 1, 1, TRUE);   /* 200 ns */
  g_assert_cmpuint (f->n_reveal, ==, 1);
  g_assert_cmpuint (f->reveal_slot, ==, 1);
  g_assert_false (f->reveal_centre);
  assert_range (f, 0, 300);

  /* ...one outside it is centred (one history step) and so is its track. */
  cpel_session_select (f->session, 2, 1, TRUE);   /* 500 ns; clamped to the end */
  assert_range (f, 301, 601);
  g_assert_true (cpel_session_can_go_back (f->session));
  g_assert_cmpuint (f->n_reveal, ==, 2);
  g_assert_cmpuint (f->reveal_slot, ==, 2);
  g_assert_true (f->reveal_centre);

  cpel_session_unselect (f->session);
  cpel_session_unselect (f->session);
  g_assert_false (cpel_session_get_selection (f->session, NULL, NULL));
  g_assert_cmpuint (n_notified (f, "has-selection"), ==, 2);
  g_assert_cmpuint (f->n_selection_changed, ==, 5);
}

static void
test_measure (Fixture *f, gconstpointer data)
{
  gint64 t0, t1;
  g_autoptr(CpelRange) got = NULL;

  g_assert_false (cpel_session_get_measure (f->session, &t0, &t1));
  /* Given backwards (a drag to the left): ordered when read. */
  cpel_session_set_measure (f->session, 400, 100);
  cpel_session_set_measure (f->session, 400, 100);
  g_assert_cmpuint (n_notified (f, "measure"), ==, 1);
  g_assert_true (cpel_session_get_measure (f->session, &t0, &t1));
  g_assert_cmpint (t0, ==, 100);
  g_assert_cmpint (t1, ==, 400);
  g_assert_true (cpel_session_get_measure_raw (f->session, &t0, &t1));
  g_assert_cmpint (t0, ==, 400);
  g_object_get (f->session, "measure", &got, NULL);
  g_assert_cmpint (got->t0, ==, 100);
  g_assert_cmpint (got->t1, ==, 400);

  cpel_session_clear_measure (f->session);
  cpel_session_clear_measure (f->session);
  g_assert_cmpuint (n_notified (f, "measure"), ==, 2);
  g_assert_false (cpel_session_get_measure (f->session, NULL, NULL));
}

static void
test_chase (Fixture *f, gconstpointer data)
{
  CpelTrackOrder *order = cpel_session_get_track_order (f->session);
  static const guint found[] = { 2, 0 };

  /* The order before the chase: slot 3 pinned, slot 1 hidden. */
  cpel_track_order_set_pinned (order, 3, TRUE);
  cpel_track_order_set_hidden (order, 1, TRUE);
  ROWS (f->session, 3, 0, 2);
  g_assert_false (cpel_session_end_chase (f->session));

  /* Chasing shows exactly the tracks found, in the order shown before. */
  cpel_session_chase_rows (f->session, found, G_N_ELEMENTS (found));
  g_assert_true (cpel_session_get_chasing (f->session));
  g_assert_cmpuint (n_notified (f, "chasing"), ==, 1);
  ROWS (f->session, 0, 2);
  /* A second chase keeps the first one's "before". */
  cpel_session_chase_rows (f->session, (const guint[]) { 1, 3 }, 2);
  ROWS (f->session, 3, 1);
  cpel_session_chase_track (f->session, 2);
  ROWS (f->session, 2, 3, 1);
  g_assert_cmpuint (n_notified (f, "chasing"), ==, 1);

  /* No chase: the order before the first chase. */
  g_assert_true (cpel_session_end_chase (f->session));
  g_assert_false (cpel_session_get_chasing (f->session));
  g_assert_cmpuint (n_notified (f, "chasing"), ==, 2);
  ROWS (f->session, 3, 0, 2);
  g_assert_true (cpel_track_order_get_pinned (order, 3));
  g_assert_false (cpel_track_order_get_pinned (order, 2));

  /* Chasing a track pins it on top, shown. */
  cpel_session_chase_track (f->session, 1);
  ROWS (f->session, 1, 3, 0, 2);
  /* Another file forgets the chase. */
  {
    g_autoptr(CpelFile) other = file_new ();

    cpel_session_set_file (f->session, other);
    g_assert_false (cpel_session_get_chasing (f->session));
    g_assert_cmpuint (n_notified (f, "chasing"), ==, 4);
    cpel_session_set_file (f->session, NULL);
  }
}

/* Counts what the Statistics window would show for the session's scope. */
static guint64
count_scope (Fixture *f, gboolean *measured)
{
  CpelStatsOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  CpelStats *stats;
  guint64 total;

  *measured = cpel_session_get_stats_scope (f->session, &options);
  stats = cpel_stats_compute (f->file, &options, NULL, &error);
  g_assert_no_error (error);
  total = cpel_stats_get_total (stats);
  cpel_stats_free (stats);
  return total;
}

/* The Statistics window's scope: the visible range (or the measurement,
 * inclusive), the tracks shown, the types shown. */
static void
test_stats_scope (Fixture *f, gconstpointer data)
{
  CpelStatsOptions options = { 0 };
  gboolean measured;
  guint tock;

  g_assert_true (cpel_file_lookup_type (f->file, 2, &tock));
  g_assert_cmpuint (count_scope (f, &measured), ==, 7);
  g_assert_false (measured);

  /* [100, 400): the events at 100, 200 and 300 ns. */
  set_range (f, 100, 400, CPEL_SESSION_STEP);
  g_assert_cmpuint (count_scope (f, &measured), ==, 3);
  /* Without slot 0 (300 ns). */
  cpel_track_order_set_hidden (cpel_session_get_track_order (f->session), 0, TRUE);
  g_assert_cmpuint (count_scope (f, &measured), ==, 2);
  /* Without the tocks (100 ns). */
  cpel_session_set_type_hidden (f->session, tock, TRUE);
  g_assert_cmpuint (count_scope (f, &measured), ==, 1);
  cpel_session_set_type_hidden (f->session, tock, FALSE);

  /* A measurement [200, 400] counts both ends: 200 and 400 ns (slot 1). */
  cpel_session_set_measure (f->session, 400, 200);
  g_assert_cmpuint (count_scope (f, &measured), ==, 2);
  g_assert_true (measured);
  g_assert_true (cpel_session_get_stats_scope (f->session, &options));
  g_assert_cmpint (options.t0, ==, 200);
  g_assert_cmpint (options.t1, ==, 401);
  g_assert_cmpuint (options.n_slots, ==, 3);
}

/* The Anomalies window's navigation through the session.  Code 1's datums
 * on slot 1 are 0, 2, 6 (events at 0, 200, 600 ns): mean 8/3, σ 2.49, so
 * with k = 1 the first and the last are anomalies; the other tracks have
 * one value each (none). */
static void
test_anomalies (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelAnomalyResult) result = NULL;
  g_autoptr(CpelAnomalyResult) intervals = NULL;
  guint64 position = 99;
  guint slot;
  guint64 index;

  result = cpel_anomaly_find (f->file, 1, CPEL_ANOMALY_DATUM, 1.0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_anomaly_result_get_n (result), ==, 2);

  /* No result, no anomaly. */
  g_assert_false (cpel_session_find_anomaly (f->session, NULL, 1, &position));
  g_assert_cmpuint (position, ==, 99);

  /* No selection: from the range. */
  set_range (f, 100, 500, CPEL_SESSION_FORGET);
  g_assert_true (cpel_session_find_anomaly (f->session, result, 1, &position));
  g_assert_cmpuint (position, ==, 1);
  g_assert_true (cpel_session_find_anomaly (f->session, result, -1, &position));
  g_assert_cmpuint (position, ==, 0);

  /* Going to one selects its event and centres it (its track too). */
  cpel_session_go_to_anomaly (f->session, result, 1);
  g_assert_true (cpel_session_get_selection (f->session, &slot, &index));
  g_assert_cmpuint (slot, ==, 1);
  g_assert_cmpuint (index, ==, 3);
  assert_range (f, 201, 601);
  g_assert_cmpuint (f->n_reveal, ==, 1);
  g_assert_cmpuint (f->reveal_slot, ==, 1);

  /* From the selection, wrapping around both ways. */
  g_assert_true (cpel_session_find_anomaly (f->session, result, 1, &position));
  g_assert_cmpuint (position, ==, 0);
  g_assert_true (cpel_session_find_anomaly (f->session, result, -1, &position));
  g_assert_cmpuint (position, ==, 0);
  cpel_session_go_to_anomaly (f->session, result, 0);
  g_assert_true (cpel_session_get_selection (f->session, &slot, &index));
  g_assert_cmpuint (index, ==, 0);
  g_assert_true (cpel_session_find_anomaly (f->session, result, -1, &position));
  g_assert_cmpuint (position, ==, 1);

  /* An interval anomaly is shown whole when the range is too narrow: the
   * intervals of code 1 on slot 1 are 200 (at 200 ns) and 400 ns. */
  intervals = cpel_anomaly_find (f->file, 1, CPEL_ANOMALY_INTERVAL, 0.5, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_anomaly_result_get_n (intervals), ==, 2);
  set_range (f, 190, 210, CPEL_SESSION_FORGET);
  cpel_session_go_to_anomaly (f->session, intervals, 0);
  assert_range (f, 0, 400);
  /* Wide enough already: only centred. */
  set_range (f, 0, 400, CPEL_SESSION_FORGET);
  cpel_session_go_to_anomaly (f->session, intervals, 0);
  assert_range (f, 0, 400);
}

/* The search bar's stepping through the session: code 2 ("tock") matches
 * event 1 (slot 2, index 0, 100 ns) and event 4 (slot 1, index 2, 400 ns). */
static void
test_search (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelQuery) query = cpel_query_new (f->file, CPEL_SEARCH_CODE, "2", FALSE, &error);
  g_autoptr(CpelSearchResult) matches = NULL;
  g_autofree guint8 *hidden = NULL;
  guint64 position = 99;

  g_assert_no_error (error);
  matches = cpel_search_run (f->file, query, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_search_result_get_n (matches), ==, 2);

  g_assert_false (cpel_session_find_match (f->session, NULL, 1, -1, &position));
  g_assert_cmpuint (position, ==, 99);

  /* From the range: the first match in it, the last one before its end. */
  set_range (f, 200, 500, CPEL_SESSION_FORGET);
  g_assert_true (cpel_session_find_match (f->session, matches, 1, -1, &position));
  g_assert_cmpuint (position, ==, 1);
  set_range (f, 150, 350, CPEL_SESSION_FORGET);
  g_assert_true (cpel_session_find_match (f->session, matches, -1, -1, &position));
  g_assert_cmpuint (position, ==, 0);

  /* From the selected match: the next one, wrapping around. */
  cpel_session_select (f->session, 1, 2, FALSE);
  g_assert_true (cpel_session_find_match (f->session, matches, 1, 1, &position));
  g_assert_cmpuint (position, ==, 0);
  g_assert_true (cpel_session_find_match (f->session, matches, -1, 1, &position));
  g_assert_cmpuint (position, ==, 0);
  /* From another selected event (300 ns): by time. */
  cpel_session_select (f->session, 0, 0, FALSE);
  g_assert_true (cpel_session_find_match (f->session, matches, 1, 0, &position));
  g_assert_cmpuint (position, ==, 1);
  g_assert_true (cpel_session_find_match (f->session, matches, -1, 0, &position));
  g_assert_cmpuint (position, ==, 0);

  /* The matches highlighted: set once, cleared by another file. */
  cpel_session_set_matches (f->session, matches);
  cpel_session_set_matches (f->session, matches);
  g_assert_true (cpel_session_get_matches (f->session) == matches);
  g_assert_cmpuint (f->n_matches_changed, ==, 1);
  {
    g_autoptr(CpelFile) other = file_new ();

    cpel_session_set_file (f->session, other);
    g_assert_null (cpel_session_get_matches (f->session));
    g_assert_cmpuint (f->n_matches_changed, ==, 2);
    cpel_session_set_file (f->session, f->file);
  }

  /* The tracks not shown, for filtering the matches. */
  g_assert_null (cpel_session_dup_hidden_slots (f->session));
  cpel_track_order_set_hidden (cpel_session_get_track_order (f->session), 2, TRUE);
  hidden = cpel_session_dup_hidden_slots (f->session);
  g_assert_nonnull (hidden);
  g_assert_cmpuint (hidden[0], ==, 0);
  g_assert_cmpuint (hidden[1], ==, 0);
  g_assert_cmpuint (hidden[2], ==, 1);
  g_assert_cmpuint (hidden[3], ==, 0);
}

static void
test_modes (Fixture *f, gconstpointer data)
{
  cpel_session_set_color_mode (f->session, CPEL_COLOR_BY_TRACK);
  cpel_session_set_color_mode (f->session, CPEL_COLOR_BY_TRACK);
  g_assert_cmpint (cpel_session_get_color_mode (f->session), ==, CPEL_COLOR_BY_TRACK);
  g_assert_cmpuint (n_notified (f, "color-mode"), ==, 1);
  g_object_set (f->session, "color-mode", CPEL_COLOR_NONE, "summary", TRUE, NULL);
  g_object_set (f->session, "summary", TRUE, NULL);
  g_assert_cmpint (cpel_session_get_color_mode (f->session), ==, CPEL_COLOR_NONE);
  g_assert_true (cpel_session_get_summary (f->session));
  g_assert_cmpuint (n_notified (f, "color-mode"), ==, 2);
  g_assert_cmpuint (n_notified (f, "summary"), ==, 1);
}

static void
test_saved_view (Fixture *f, gconstpointer data)
{
  CpelTrackOrder *order = cpel_session_get_track_order (f->session);
  g_autoptr(CpelSavedView) view = NULL;
  g_autoptr(CpelSavedView) again = NULL;
  guint tock, slot;
  guint64 index;

  g_assert_true (cpel_file_lookup_type (f->file, 2, &tock));
  set_range (f, 100, 400, CPEL_SESSION_STEP);
  cpel_track_order_set_hidden (order, 0, TRUE);
  cpel_track_order_raise (order, 2, TRUE);
  cpel_session_set_type_hidden (f->session, tock, TRUE);
  cpel_session_select (f->session, 1, 1, FALSE);   /* 200 ns on id 3 */

  view = cpel_session_capture_view (f->session, "mine");
  g_assert_cmpstr (view->name, ==, "mine");
  g_assert_cmpint (view->t0, ==, 100);
  g_assert_cmpint (view->t1, ==, 400);
  g_assert_cmpuint (view->hidden_tracks->len, ==, 1);
  g_assert_cmpuint (g_array_index (view->hidden_tracks, guint32, 0), ==, 2);
  g_assert_cmpuint (view->hidden_codes->len, ==, 1);
  g_assert_cmpuint (g_array_index (view->hidden_codes, guint32, 0), ==, 2);
  g_assert_true (view->has_selection);
  g_assert_cmpuint (view->selected_track, ==, 3);
  g_assert_cmpint (view->selected_time, ==, 200);

  /* Change everything, then apply the view: all of it comes back. */
  cpel_track_order_reset (order);
  cpel_session_set_hidden_types (f->session, NULL);
  cpel_session_unselect (f->session);
  cpel_session_fit (f->session);
  reset_counts (f);
  cpel_session_apply_view (f->session, view);
  ROWS (f->session, 2, 1, 3);
  assert_range (f, 100, 400);
  g_assert_true (cpel_session_get_type_hidden (f->session, tock));
  g_assert_true (cpel_session_get_selection (f->session, &slot, &index));
  g_assert_cmpuint (slot, ==, 1);
  g_assert_cmpuint (index, ==, 1);
  g_assert_cmpuint (n_notified (f, "range"), ==, 1);
  g_assert_cmpuint (f->n_types_changed, ==, 1);
  /* Applying is one step back. */
  g_assert_true (cpel_session_go_back (f->session));
  assert_range (f, 0, 601);
  g_assert_true (cpel_session_go_forward (f->session));

  /* Captured again: the same view. */
  again = cpel_session_capture_view (f->session, "mine");
  g_assert_true (cpel_saved_view_equal (view, again));

  /* Saved views by name, through the session's list. */
  {
    g_autoptr(CpelViews) views = cpel_views_new ("/nonexistent/capture.cpel");
    g_autoptr(CpelSavedView) other = cpel_saved_view_new ("other");
    const CpelSavedView *applied;

    g_assert_null (cpel_session_apply_saved_view (f->session, "mine"));
    reset_counts (f);
    cpel_session_set_views (f->session, views);
    cpel_session_set_views (f->session, views);
    g_assert_cmpuint (n_notified (f, "views"), ==, 1);
    g_assert_true (cpel_session_get_views (f->session) == views);
    cpel_views_put (views, view);
    other->t0 = 500;
    other->t1 = 600;
    cpel_views_put (views, other);
    g_assert_cmpint (cpel_views_get_current (views), ==, 1);

    cpel_track_order_reset (order);
    cpel_session_fit (f->session);
    applied = cpel_session_apply_saved_view (f->session, "mine");
    g_assert_nonnull (applied);
    g_assert_cmpstr (applied->name, ==, "mine");
    g_assert_cmpint (cpel_views_get_current (views), ==, 0);
    ROWS (f->session, 2, 1, 3);
    assert_range (f, 100, 400);
    g_assert_null (cpel_session_apply_saved_view (f->session, "none such"));
    assert_range (f, 100, 400);
    g_assert_nonnull (cpel_session_apply_saved_view (f->session, "other"));
    assert_range (f, 500, 600);
    ROWS (f->session, 0, 1, 2, 3);
    cpel_session_set_views (f->session, NULL);
  }

  /* A view without a selection drops the current one. */
  view->has_selection = FALSE;
  cpel_session_apply_view (f->session, view);
  g_assert_false (cpel_session_get_selection (f->session, NULL, NULL));
}

/* The compare state: B's offset and the ruler's origin (each notified
 * once, on a real change, clamped), pairing; another compare file resets
 * the alignment and keeps the pairing. */
static void
test_compare (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelFile) b = file_new ();
  g_autoptr(CpelFile) c = file_new ();
  gint64 offset = 0;

  cpel_session_set_compare_file (f->session, b);
  g_assert_true (cpel_session_get_compare_file (f->session) == b);
  g_assert_cmpuint (n_notified (f, "compare-file"), ==, 1);
  g_assert_cmpuint (n_notified (f, "compare-offset"), ==, 0);   /* already 0 */

  reset_counts (f);
  cpel_session_set_compare_alignment (f->session, -250, 300);
  cpel_session_set_compare_alignment (f->session, -250, 300);
  g_assert_cmpint (cpel_session_get_compare_offset (f->session), ==, -250);
  g_assert_cmpint (cpel_session_get_compare_origin (f->session), ==, 300);
  g_assert_cmpuint (n_notified (f, "compare-offset"), ==, 1);
  g_assert_cmpuint (n_notified (f, "compare-origin"), ==, 1);

  /* The offset alone keeps the origin. */
  reset_counts (f);
  cpel_session_set_compare_offset (f->session, 40);
  g_assert_cmpint (cpel_session_get_compare_offset (f->session), ==, 40);
  g_assert_cmpint (cpel_session_get_compare_origin (f->session), ==, 300);
  g_assert_cmpuint (n_notified (f, "compare-offset"), ==, 1);
  g_assert_cmpuint (n_notified (f, "compare-origin"), ==, 0);
  g_object_get (f->session, "compare-offset", &offset, NULL);
  g_assert_cmpint (offset, ==, 40);

  /* Typed or read from a file: clamped where sums cannot overflow. */
  cpel_session_set_compare_alignment (f->session, G_MININT64, G_MAXINT64);
  g_assert_cmpint (cpel_session_get_compare_offset (f->session), ==, -CPEL_SESSION_MAX_ALIGNMENT);
  g_assert_cmpint (cpel_session_get_compare_origin (f->session), ==, CPEL_SESSION_MAX_ALIGNMENT);

  reset_counts (f);
  cpel_session_set_compare_paired (f->session, TRUE);
  g_object_set (f->session, "compare-paired", TRUE, NULL);
  g_assert_true (cpel_session_get_compare_paired (f->session));
  g_assert_cmpuint (n_notified (f, "compare-paired"), ==, 1);

  /* Another B: aligned at 0 again (one notification each), still paired. */
  reset_counts (f);
  cpel_session_set_compare_file (f->session, c);
  g_assert_cmpint (cpel_session_get_compare_offset (f->session), ==, 0);
  g_assert_cmpint (cpel_session_get_compare_origin (f->session), ==, 0);
  g_assert_true (cpel_session_get_compare_paired (f->session));
  g_assert_cmpuint (n_notified (f, "compare-offset"), ==, 1);
  g_assert_cmpuint (n_notified (f, "compare-origin"), ==, 1);
  g_assert_cmpuint (n_notified (f, "compare-paired"), ==, 0);
  /* The same B again: nothing changes. */
  cpel_session_set_compare_offset (f->session, 7);
  reset_counts (f);
  cpel_session_set_compare_file (f->session, c);
  g_assert_cmpint (cpel_session_get_compare_offset (f->session), ==, 7);
  g_assert_cmpuint (n_notified (f, "compare-file"), ==, 0);

  cpel_session_set_compare_file (f->session, NULL);
  g_assert_cmpint (cpel_session_get_compare_offset (f->session), ==, 0);
}

/* The compare view's range (not clamped: A's time, the view knows both
 * captures), its own Back and Forward, its measurement; another compare
 * file starts afresh. */
static void
test_compare_view (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelFile) b = file_new ();
  const CpelRange *range;

  cpel_session_set_compare_file (f->session, b);
  cpel_session_reset_compare_view (f->session, &(CpelRange) { -50, 700 });
  reset_counts (f);
  g_assert_false (cpel_session_compare_can_go_back (f->session));

  /* an empty range is 1 ns; the main range is not touched */
  cpel_session_set_compare_range (f->session, &(CpelRange) { -20, -40 }, CPEL_SESSION_STEP);
  range = cpel_session_get_compare_range (f->session);
  g_assert_cmpint (range->t0, ==, -20);
  g_assert_cmpint (range->t1, ==, -19);
  g_assert_cmpuint (n_notified (f, "range"), ==, 0);
  g_assert_true (cpel_session_compare_can_go_back (f->session));
  g_assert_cmpuint (n_notified (f, "compare-can-go-back"), ==, 1);
  g_assert_false (cpel_session_can_go_back (f->session));

  /* continuous changes in a row are one step */
  cpel_session_set_compare_range (f->session, &(CpelRange) { 10, 20 }, CPEL_SESSION_CONTINUOUS);
  cpel_session_set_compare_range (f->session, &(CpelRange) { 11, 21 }, CPEL_SESSION_CONTINUOUS);
  g_assert_false (cpel_session_set_compare_range (f->session, &(CpelRange) { 11, 21 },
                                                  CPEL_SESSION_STEP));
  g_assert_cmpuint (n_notified (f, "compare-range"), ==, 3);
  g_assert_true (cpel_session_compare_go_back (f->session));
  range = cpel_session_get_compare_range (f->session);
  g_assert_cmpint (range->t0, ==, -20);
  g_assert_true (cpel_session_compare_go_back (f->session));
  range = cpel_session_get_compare_range (f->session);
  g_assert_cmpint (range->t0, ==, -50);
  g_assert_cmpint (range->t1, ==, 700);
  g_assert_false (cpel_session_compare_go_back (f->session));
  g_assert_true (cpel_session_compare_can_go_forward (f->session));
  g_assert_true (cpel_session_compare_go_forward (f->session));
  g_assert_true (cpel_session_compare_go_forward (f->session));
  range = cpel_session_get_compare_range (f->session);
  g_assert_cmpint (range->t0, ==, 11);
  g_assert_false (cpel_session_compare_can_go_forward (f->session));

  /* the measurement: ordered, notified on a real change */
  g_assert_null (cpel_session_get_compare_measure (f->session));
  cpel_session_set_compare_measure (f->session, &(CpelRange) { 90, 30 });
  cpel_session_set_compare_measure (f->session, &(CpelRange) { 30, 90 });
  g_assert_cmpuint (n_notified (f, "compare-measure"), ==, 1);
  g_assert_cmpint (cpel_session_get_compare_measure (f->session)->t0, ==, 30);
  g_assert_cmpint (cpel_session_get_compare_measure (f->session)->t1, ==, 90);
  g_assert_null (cpel_session_get_measure (f->session, NULL, NULL) ? "main" : NULL);

  /* another B: no history, no measurement */
  cpel_session_set_compare_file (f->session, NULL);
  g_assert_false (cpel_session_compare_can_go_back (f->session));
  g_assert_false (cpel_session_compare_can_go_forward (f->session));
  g_assert_null (cpel_session_get_compare_measure (f->session));
  g_assert_cmpuint (n_notified (f, "compare-measure"), ==, 2);
}

/* The file's label formats: the defaults of each new file, replaced by
 * the user's (notified), gone with the file. */
static void
test_labels (Fixture *f, gconstpointer data)
{
  CpelLabels *defaults = cpel_session_get_labels (f->session);
  g_autoptr(CpelLabels) mine = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  CpelEvent ev;

  g_assert_nonnull (defaults);
  g_assert_true (cpel_labels_get_file (defaults) == f->file);
  g_assert_cmpstr (cpel_labels_get_format (defaults, 0), ==, "");

  mine = cpel_labels_new_with_format (defaults, 0, "[{event}]");
  cpel_session_set_labels (f->session, mine);
  g_assert_cmpuint (n_notified (f, "labels"), ==, 1);
  g_assert_true (cpel_session_get_labels (f->session) == mine);
  cpel_file_get_track_event (f->file, 0, 0, &ev);
  cpel_labels_append (cpel_session_get_labels (f->session), &ev, out);
  g_assert_cmpstr (out->str, ==, "[tick]");
  cpel_session_set_labels (f->session, mine);
  g_assert_cmpuint (n_notified (f, "labels"), ==, 1);

  cpel_session_set_file (f->session, NULL);
  g_assert_null (cpel_session_get_labels (f->session));
  g_assert_cmpuint (n_notified (f, "labels"), ==, 2);
  g_clear_pointer (&mine, cpel_labels_unref);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func, data) \
  g_test_add ((path), Fixture, (data), fixture_setup, (func), fixture_teardown)
  ADD ("/model/session/file", test_file, GINT_TO_POINTER (1));
  ADD ("/model/session/range", test_range, NULL);
  ADD ("/model/session/history", test_history, NULL);
  ADD ("/model/session/tracks", test_tracks, NULL);
  ADD ("/model/session/tracks-window", test_tracks_window, NULL);
  ADD ("/model/session/types", test_types, NULL);
  ADD ("/model/session/selection", test_selection, NULL);
  ADD ("/model/session/measure", test_measure, NULL);
  ADD ("/model/session/chase", test_chase, NULL);
  ADD ("/model/session/stats-scope", test_stats_scope, NULL);
  ADD ("/model/session/anomalies", test_anomalies, NULL);
  ADD ("/model/session/search", test_search, NULL);
  ADD ("/model/session/modes", test_modes, NULL);
  ADD ("/model/session/saved-view", test_saved_view, NULL);
  ADD ("/model/session/compare", test_compare, NULL);
  ADD ("/model/session/compare-view", test_compare_view, NULL);
  ADD ("/model/session/labels", test_labels, NULL);
#undef ADD

  return g_test_run ();
}
