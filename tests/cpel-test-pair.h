/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-pair.h — two captures with planted differences, for the tests
 * of `cpel diff`, the compare rendering and the compare window
 *
 * A: big-endian, 1 GHz clock, first event at 100 ns.  B: little-endian,
 * 2.5 GHz clock, first event at 4000 ns; its codes renumbered and its
 * tracks given other ids in another order.  Relative to each first event:
 *
 *   name    A                                  B
 *   same    wk0: 10 every 100 ns from 0        wk0: the same
 *   double  wk0: 5 every 200 ns from 0         wk0: 10 every 100 ns from 0
 *   slow    wk1: 4 every 100 ns from 0         wk1: 4 every 300 ns from 0
 *   only-a  wk1: at 900, 910, 920, 931         —
 *   only-b  —                                  wk2: at 500 (a track only in B)
 *   dup     wk0: 1900 (code 5), 1950 (code 6),  wk0: 1900, 1950, 2000 (code 14)
 *           2000 (code 5): two codes, one name
 */
#pragma once

#include <glib.h>

#include "cpel-writer.h"

#define CPEL_TEST_PAIR_CSV \
  "event,count_a,count_b,count_delta,mean_ns_a,mean_ns_b,mean_delta_pct\r\n" \
  "double,5,10,5,200.000,100.000,-50.0\r\n" \
  "only-a,4,0,-4,10.333,,\r\n" \
  "only-b,0,1,1,,,\r\n" \
  "dup,3,3,0,50.000,50.000,0.0\r\n" \
  "same,10,10,0,100.000,100.000,0.0\r\n" \
  "slow,4,4,0,100.000,300.000,200.0\r\n"

#define CPEL_TEST_PAIR_TRACKS_CSV \
  "track,count_a,count_b,count_delta\r\n" \
  "wk0,18,23,5\r\n" \
  "wk1,8,4,-4\r\n" \
  "wk2,0,1,1\r\n"

/* --from 150ns --to 950ns */
#define CPEL_TEST_PAIR_RANGE_CSV \
  "event,count_a,count_b,count_delta,mean_ns_a,mean_ns_b,mean_delta_pct\r\n" \
  "double,4,8,4,200.000,100.000,-50.0\r\n" \
  "only-a,4,0,-4,10.333,,\r\n" \
  "only-b,0,1,1,,,\r\n" \
  "slow,2,3,1,100.000,300.000,200.0\r\n" \
  "same,8,8,0,100.000,100.000,0.0\r\n"

typedef struct
{
  gint64  rel_ns;
  guint32 track;
  guint32 code;
} CpelTestPairEvent;

static inline gint
cpel_test_pair_cmp (gconstpointer a, gconstpointer b)
{
  const CpelTestPairEvent *x = a, *y = b;

  return x->rel_ns < y->rel_ns ? -1 : x->rel_ns > y->rel_ns;
}

static inline GBytes *
cpel_test_pair_write (gboolean b_side)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, b_side, 0, NULL);
  g_autoptr(GArray) ev = g_array_new (FALSE, FALSE, sizeof (CpelTestPairEvent));
  g_autoptr(GError) error = NULL;
  guint t = cpel_writer_add_string_table (w, "T");
  /* A: wk0 = 1, wk1 = 2; B: wk1 = 5, wk0 = 6, wk2 = 7 */
  guint32 wk0 = b_side ? 6 : 1, wk1 = b_side ? 5 : 2;
  guint32 same = b_side ? 10 : 2, dbl = b_side ? 11 : 3, slow = b_side ? 12 : 4;
  guint64 base_ns = b_side ? 4000 : 100;
  CpelTestPairEvent e;

  cpel_writer_begin_event_defs (w, t);
  if (!b_side)
    {
      cpel_writer_add_event_def (w, 1, "only-a", NULL);
      cpel_writer_add_event_def (w, 2, "same", NULL);
      cpel_writer_add_event_def (w, 3, "double", NULL);
      cpel_writer_add_event_def (w, 4, "slow", NULL);
      cpel_writer_add_event_def (w, 5, "dup", NULL);
      cpel_writer_add_event_def (w, 6, "dup", NULL);
    }
  else
    {
      cpel_writer_add_event_def (w, 10, "same", NULL);
      cpel_writer_add_event_def (w, 11, "double", NULL);
      cpel_writer_add_event_def (w, 12, "slow", NULL);
      cpel_writer_add_event_def (w, 13, "only-b", NULL);
      cpel_writer_add_event_def (w, 14, "dup", NULL);
    }
  cpel_writer_begin_track_defs (w, t);
  if (!b_side)
    {
      cpel_writer_add_track_def (w, 1, "wk0");
      cpel_writer_add_track_def (w, 2, "wk1");
    }
  else
    {
      cpel_writer_add_track_def (w, 5, "wk1");
      cpel_writer_add_track_def (w, 6, "wk0");
      cpel_writer_add_track_def (w, 7, "wk2");
    }

#define PAIR_ADD(ns, tr, c) G_STMT_START { e.rel_ns = (ns); e.track = (tr); e.code = (c); \
    g_array_append_val (ev, e); } G_STMT_END
  for (guint k = 0; k < 10; k++)
    PAIR_ADD (100 * k, wk0, same);
  for (guint k = 0; k < (b_side ? 10u : 5u); k++)
    PAIR_ADD ((b_side ? 100 : 200) * k, wk0, dbl);
  for (guint k = 0; k < 4; k++)
    PAIR_ADD ((b_side ? 300 : 100) * k, wk1, slow);
  if (!b_side)
    {
      PAIR_ADD (900, wk1, 1);
      PAIR_ADD (910, wk1, 1);
      PAIR_ADD (920, wk1, 1);
      PAIR_ADD (931, wk1, 1);
      PAIR_ADD (1900, wk0, 5);
      PAIR_ADD (1950, wk0, 6);
      PAIR_ADD (2000, wk0, 5);
    }
  else
    {
      PAIR_ADD (500, 7, 13);
      PAIR_ADD (1900, wk0, 14);
      PAIR_ADD (1950, wk0, 14);
      PAIR_ADD (2000, wk0, 14);
    }
#undef PAIR_ADD
  /* in time order: the file can be streamed without an index */
  g_array_sort (ev, cpel_test_pair_cmp);

  /* 1 GHz: ticks are ns; 2.5 GHz: 2.5 ticks per ns (every time is even) */
  cpel_writer_begin_events (w, t, b_side ? 2500000000u : 1000000000u, ev->len);
  for (guint i = 0; i < ev->len; i++)
    {
      const CpelTestPairEvent *p = &g_array_index (ev, CpelTestPairEvent, i);
      guint64 ns = base_ns + (guint64) p->rel_ns;
      guint64 ticks = b_side ? ns * 5 / 2 : ns;

      g_assert (!b_side || ns % 2 == 0);
      cpel_writer_add_event (w, ticks, p->track, p->code, i);
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return cpel_writer_steal_bytes (w);
}

/* Writes A and B as files (paths given). */
static inline void
cpel_test_pair_write_files (const char *path_a,
                            const char *path_b)
{
  g_autoptr(GError) error = NULL;

  for (guint side = 0; side < 2; side++)
    {
      g_autoptr(GBytes) bytes = cpel_test_pair_write (side == 1);
      gsize len;
      const char *data = g_bytes_get_data (bytes, &len);

      g_assert_true (g_file_set_contents (side == 0 ? path_a : path_b, data, len, &error));
      g_assert_no_error (error);
    }
}
