/* SPDX-License-Identifier: Apache-2.0 */
/* test-chase.c — tracks holding a code / datum, and pinned track orders */
#include <gio/gio.h>

#include "cpel-chase.h"
#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

/* Tracks 100..105 (slots 0..5); 105 is defined but has no event.
 *   slot 0 (100): code 1 datum 0xaaa, code 2 datum 7
 *   slot 1 (101): code 2 datum 0xaaa
 *   slot 2 (102): code 3 datum 9 (many times), then code 1 datum 0xbbb
 *   slot 3 (103): code 1 datum 0xaaa
 *   slot 4 (104): code 2 datum 9
 */
static CpelFile *
known_file (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 105, "idle");
  cpel_writer_begin_events (w, t, 1000000000, 5 + 100000 + 1);
  cpel_writer_add_event (w, 10, 100, 1, 0xaaa);
  cpel_writer_add_event (w, 20, 100, 2, 7);
  cpel_writer_add_event (w, 15, 101, 2, 0xaaa);
  for (guint i = 0; i < 100000; i++)
    cpel_writer_add_event (w, 100 + i, 102, 3, 9);
  cpel_writer_add_event (w, 5, 102, 1, 0xbbb);   /* earliest on its track */
  cpel_writer_add_event (w, 30, 103, 1, 0xaaa);
  cpel_writer_add_event (w, 40, 104, 2, 9);
  return cpel_test_writer_file (w);
}

static void
assert_slots (guint *got, const guint *n_got, const guint *want, guint n_want)
{
  /* n_got is read here, after the call that filled it */
  g_assert_nonnull (got);
  g_assert_cmpmem (got, *n_got * sizeof (guint), want, n_want * sizeof (guint));
  g_free (got);
}

static void
test_code (void)
{
  g_autoptr(CpelFile) file = known_file ();
  static const guint code1[] = { 0, 2, 3 }, code2[] = { 0, 1, 4 }, code3[] = { 2 };
  guint n;

  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 6);
  assert_slots (cpel_chase_tracks_with_code (file, 1, &n), &n, code1, 3);
  assert_slots (cpel_chase_tracks_with_code (file, 2, &n), &n, code2, 3);
  assert_slots (cpel_chase_tracks_with_code (file, 3, &n), &n, code3, 1);
  assert_slots (cpel_chase_tracks_with_code (file, 4, &n), &n, NULL, 0);
  g_assert_cmpuint (n, ==, 0);
}

static void
test_datum (void)
{
  g_autoptr(CpelFile) file = known_file ();
  static const guint aaa[] = { 0, 1, 3 }, nine[] = { 2, 4 }, bbb[] = { 2 };
  guint n;

  assert_slots (cpel_chase_tracks_with_datum (file, 0xaaa, &n), &n, aaa, 3);
  assert_slots (cpel_chase_tracks_with_datum (file, 9, &n), &n, nine, 2);
  assert_slots (cpel_chase_tracks_with_datum (file, 0xbbb, &n), &n, bbb, 1);
  assert_slots (cpel_chase_tracks_with_datum (file, 12345, &n), &n, NULL, 0);
}

static void
test_event (void)
{
  g_autoptr(CpelFile) file = known_file ();
  static const guint c1aaa[] = { 0, 3 }, c2aaa[] = { 1 }, c2nine[] = { 4 }, c3nine[] = { 2 };
  static const guint busy[] = { 0, 1, 2, 3, 4 };
  CpelChaseQuery any = { 0 };
  guint n;

  assert_slots (cpel_chase_tracks_with_event (file, 1, 0xaaa, &n), &n, c1aaa, 2);
  assert_slots (cpel_chase_tracks_with_event (file, 2, 0xaaa, &n), &n, c2aaa, 1);
  assert_slots (cpel_chase_tracks_with_event (file, 2, 9, &n), &n, c2nine, 1);
  assert_slots (cpel_chase_tracks_with_event (file, 3, 9, &n), &n, c3nine, 1);
  assert_slots (cpel_chase_tracks_with_event (file, 3, 0xaaa, &n), &n, NULL, 0);
  /* no criterion: tracks with any event (slot 5 has none) */
  assert_slots (cpel_chase_find_tracks (file, &any, &n, NULL, NULL), &n, busy, 5);
}

static void
test_cancel (void)
{
  g_autoptr(CpelFile) file = known_file ();
  g_autoptr(GCancellable) c = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CpelChaseQuery q = { .match_datum = TRUE, .datum = 1 };
  guint n = 77;

  g_cancellable_cancel (c);
  g_assert_null (cpel_chase_find_tracks (file, &q, &n, c, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (n, ==, 0);
}

static void
test_sample (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) label = g_string_new (NULL);
  static const guint both[] = { 0, 1 }, first[] = { 0 };
  guint32 datum4 = 0, datum3 = 0;
  guint n;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* the sample: one code (0, "rx") on both tracks; its datum is a string
   * reference, "1): 4" once on track 0 ("workers 1"), "1): 3" elsewhere */
  for (guint slot = 0; slot < 2; slot++)
    for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
      {
        CpelEvent e;

        cpel_file_get_track_event (file, slot, i, &e);
        g_string_truncate (label, 0);
        cpel_file_append_datum (file, &e, label);
        if (g_str_equal (label->str, "1): 4"))
          datum4 = e.datum;
        else
          datum3 = e.datum;
      }
  g_assert_cmpuint (datum4, !=, 0);
  g_assert_cmpuint (datum3, !=, 0);
  g_assert_cmpstr (cpel_file_get_track_label (file, 0), ==, "workers 1");

  assert_slots (cpel_chase_tracks_with_code (file, 0, &n), &n, both, 2);
  assert_slots (cpel_chase_tracks_with_code (file, 1, &n), &n, NULL, 0);
  assert_slots (cpel_chase_tracks_with_datum (file, datum3, &n), &n, both, 2);
  assert_slots (cpel_chase_tracks_with_datum (file, datum4, &n), &n, first, 1);
  assert_slots (cpel_chase_tracks_with_event (file, 0, datum4, &n), &n, first, 1);
  assert_slots (cpel_chase_tracks_with_event (file, 1, datum4, &n), &n, NULL, 0);
}

static void
test_pin (void)
{
  static const guint order[] = { 4, 2, 0, 3, 1 };
  static const guint pin3[] = { 3, 4, 2, 0, 1 };
  static const guint pin4[] = { 4, 2, 0, 3, 1 };
  static const guint id_pin2[] = { 2, 0, 1, 3 };
  static const guint absent[] = { 9, 4, 2, 0, 3, 1 };
  static const guint many[] = { 1, 3, 4, 2, 0 };
  static const guint top[] = { 1, 3, 1 };
  guint n;

  assert_slots (cpel_chase_order_pin (order, 5, 3, &n), &n, pin3, 5);
  assert_slots (cpel_chase_order_pin (order, 5, 4, &n), &n, pin4, 5);
  assert_slots (cpel_chase_order_pin (NULL, 4, 2, &n), &n, id_pin2, 4);
  assert_slots (cpel_chase_order_pin (order, 5, 9, &n), &n, absent, 6);
  assert_slots (cpel_chase_order_to_top (order, 5, top, 3, &n), &n, many, 5);
  assert_slots (cpel_chase_order_to_top (order, 5, NULL, 0, &n), &n, order, 5);
  assert_slots (cpel_chase_order_pin (NULL, 0, 0, &n), &n, (const guint[]) { 0 }, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/chase/code", test_code);
  g_test_add_func ("/core/chase/datum", test_datum);
  g_test_add_func ("/core/chase/event", test_event);
  g_test_add_func ("/core/chase/cancel", test_cancel);
  g_test_add_func ("/core/chase/sample", test_sample);
  g_test_add_func ("/core/chase/pin", test_pin);
  return g_test_run ();
}
