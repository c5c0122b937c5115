/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-top.h — the functions the call chains of a time range hold
 *
 * For the events with t0 <= time < t1 on the chosen tracks that carry a
 * call chain (perf record -g samples): per function (symbol and binary;
 * an unknown symbol counts per binary) the samples whose innermost frame it
 * is ("self", what `perf report --no-children` shows) and the samples
 * whose chain holds it anywhere, once per sample ("total", perf report's
 * "Children").  One pass over the events in the range.
 */
#pragma once

#include "cpel-file.h"
#include "cpel-stats.h"

G_BEGIN_DECLS

typedef struct
{
  const char  *symbol;    /* NULL: unknown ("[unknown]") */
  const char  *dso;       /* NULL: unknown */
  guint64      self;      /* samples it is the innermost frame of */
  guint64      total;     /* samples whose chain holds it */
  /* The earliest of those samples (the first of its track at that time):
   * its track slot, index in the track and time. */
  guint        first_slot;
  guint64      first_index;
  gint64       first_time;
} CpelTopEntry;

typedef struct _CpelTop CpelTop;

/* `slots` NULL = every track.  NULL with G_IO_ERROR_CANCELLED when
 * cancelled, CPEL_ERROR_INVALID on a bad slot. */
CpelTop            *cpel_top_compute        (CpelFile      *file,
                                             gint64         t0,
                                             gint64         t1,
                                             const guint   *slots,
                                             guint          n_slots,
                                             GCancellable  *cancellable,
                                             GError       **error);
/* The same over the scope the Statistics window counts: options->t0, t1,
 * slots, n_slots and hidden_types (a sample of a hidden type is left out);
 * `options` NULL = the whole file. */
CpelTop            *cpel_top_compute_scope  (CpelFile               *file,
                                             const CpelStatsOptions *options,
                                             GCancellable           *cancellable,
                                             GError                **error);
void                cpel_top_free           (CpelTop *top);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelTop, cpel_top_free)

/* Events with a call chain in the range. */
guint64             cpel_top_get_n_samples  (CpelTop *top);
/* Functions by self samples, then total samples (most first), then name. */
guint               cpel_top_get_n_entries  (CpelTop *top);
const CpelTopEntry *cpel_top_get_entry      (CpelTop *top, guint i);

/* A function's name as shown: the symbol, or "[unknown]". */
const char         *cpel_top_entry_symbol   (const CpelTopEntry *entry);
const char         *cpel_top_entry_dso      (const CpelTopEntry *entry);

/* A table, most first, at most `limit` rows (0 = all): self %, total %,
 * self, total, symbol, binary; as text or CSV (RFC 4180, with a header). */
char               *cpel_top_to_text        (CpelTop *top, guint limit);
char               *cpel_top_to_csv         (CpelTop *top, guint limit);

G_END_DECLS
