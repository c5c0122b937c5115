/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-pair.h — two captures with planted differences, for the tests
 * of `cpel diff`, the compare rendering and the compare window, and the
 * checks they share (cpel-test-pair.c, compiled once into the tests'
 * helper library with cpel-test-util.c)
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

#include "cpel-file.h"

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

/* A's (`b_side` FALSE) or B's bytes: a CPEL file in time order (it can be
 * streamed without an index). */
GBytes *cpel_test_pair_write (gboolean b_side);

/* Writes A and B as files (paths given). */
void cpel_test_pair_write_files (const char *path_a,
                                 const char *path_b);

/* A or B loaded from memory with `options` (or NULL). */
CpelFile *cpel_test_pair_file (gboolean  b_side,
                               const CpelLoadOptions *options);

/* The event type named `name` of `file`; fails the test without one. */
guint cpel_test_type_named (CpelFile   *file,
                            const char *name);

/* The track slot of `file` labelled `label`; fails the test without one. */
guint cpel_test_slot_labelled (CpelFile   *file,
                               const char *label);

/* `rows` (`n_rows` track slots of `file`) are the tracks labelled as
 * given (NULL-terminated), in that order; a failure names the caller's
 * line. */
#define cpel_test_assert_rows(file, rows, n_rows, ...) \
  cpel_test_assert_rows_at (G_STRLOC, (file), (rows), (n_rows), __VA_ARGS__)

void cpel_test_assert_rows_at (const char  *where,
                               CpelFile    *file,
                               const guint *rows,
                               guint        n_rows,
                               const char  *first_label,
                               ...) G_GNUC_NULL_TERMINATED;
