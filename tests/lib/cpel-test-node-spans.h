/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-node-spans.h — captures of VPP-style node dispatches for the
 * span tests: `NODE-call` / `NODE-return` pairs, as vlib's dispatch tracing
 * logs them (the built-in rule `span * begin event=*-call end event=*-return`
 * pairs them into spans named NODE) */
#pragma once

#include "cpel-core.h"

G_BEGIN_DECLS

typedef struct
{
  guint32     track;       /* track id; its label is "vpp_wk_ID" */
  const char *node;
  gint64      begin_ns;
  gint64      duration_ns;
} CpelTestNodeSpan;

/* The events of `spans` in time order (an end before a begin of the same
 * time, but after the begin of its own span of 0 ns), 1 tick = 1 ns, in a
 * little-endian CPEL file in memory. */
GBytes *cpel_test_node_spans_bytes (const CpelTestNodeSpan *spans,
                                    guint                   n);
/* The same, written to `path`; fails the test on an error. */
void    cpel_test_node_spans_write (const char             *path,
                                    const CpelTestNodeSpan *spans,
                                    guint                   n);
/* `n` spans of `node` on track `track`, one after the other from `t0`
 * with gaps of `gap` ns, of durations durations[0..n-1]; returns the time
 * after the last.  Appends to `out` (an array of CpelTestNodeSpan). */
gint64  cpel_test_node_spans_append (GArray       *out,
                                     guint32       track,
                                     const char   *node,
                                     gint64        t0,
                                     gint64        gap,
                                     const gint64 *durations,
                                     guint         n);

/* Two dispatch captures with a planted regression, A (b FALSE) and B:
 *   node            A                     B
 *   l2-input        10 x 200 ns           10 x 150 ns           faster
 *   ip4-lookup      100 x 1000 ns         90 x 1000, 10 x 2000  slower (track 2)
 *   arp-input       1 x 16 ns             1 x 17 ns
 *   dpdk-input      50 x 300 ns           50 x 303 ns
 *   ethernet-input  100 x 500 ns          100 x 500 ns
 *   ip4-rewrite     -                     10 x 400 ns
 *   ip6-lookup      5 x 123 ns            -
 * Returns an array of CpelTestNodeSpan. */
GArray *cpel_test_node_spans_planted (gboolean b);

/* One event of a single-track capture: its time and its type's name. */
typedef struct
{
  gint64      t;
  const char *name;
} CpelTestNodeEvent;

/* `events` (in time order) on one track labelled `track`, 1 tick = 1 ns,
 * each type named as given (defined in the order first seen, without a
 * format), written to `path` as little-endian CPEL; fails the test on an
 * error.  For the captures that are more than call/return pairs: a return
 * without its call, state or message events. */
void    cpel_test_node_events_write (const char              *path,
                                     const char              *track,
                                     const CpelTestNodeEvent *events,
                                     guint                    n);

G_END_DECLS
