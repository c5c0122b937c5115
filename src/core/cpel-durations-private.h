/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-durations-private.h — durations kept for exact percentiles, 8 bytes
 * each
 *
 * A growing array would take up to twice its contents while it doubles (and
 * a copy to flatten chunks twice as well); these are chunks of
 * CPEL_DURATIONS_CHUNK values (the first one grows up to that size, so that
 * a name with few spans takes little), selected in place: n values take
 * 8 n bytes plus less than one chunk and a pointer per chunk.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CPEL_DURATIONS_CHUNK_SHIFT 12
#define CPEL_DURATIONS_CHUNK       (1u << CPEL_DURATIONS_CHUNK_SHIFT)

typedef struct
{
  gint64  **chunks;
  guint64   n;
  guint     n_chunks;
  guint     cap_chunks;
  guint     cap_first;    /* values the first chunk holds */
} CpelDurations;

void     cpel_durations_init   (CpelDurations *d);
void     cpel_durations_clear  (CpelDurations *d);
void     cpel_durations_append (CpelDurations *d, gint64 v);

static inline gint64 *
cpel_durations_at (const CpelDurations *d,
                   guint64              i)
{
  return &d->chunks[i >> CPEL_DURATIONS_CHUNK_SHIFT][i & (CPEL_DURATIONS_CHUNK - 1)];
}

/* The k-th smallest (0-based) of the values lo..hi (quickselect, median of
 * three, three-way partition), reordering them so that every value before
 * k is <= it and every one after >= it. */
gint64   cpel_durations_select (CpelDurations *d, guint64 lo, guint64 hi, guint64 k);

/* The values of ranks[0..n_ranks) (0-based, each < d->n) in out[], read
 * without reordering: each pass counts the values in a histogram of
 * CPEL_DURATIONS_BUCKETS buckets over the range that still holds a rank's
 * value, which narrows it 4096-fold, until a bucket is one value (at most
 * 6 passes for 64-bit values; 2 or 3 for durations in ns up to seconds).
 * `min` and `max` bound the values.  Fewer than CPEL_DURATIONS_SELECT_MIN
 * values: cpel_durations_select () (no pass over a histogram for a few). */
#define CPEL_DURATIONS_BUCKETS    4096
#define CPEL_DURATIONS_SELECT_MIN 65536

void     cpel_durations_select_ranks (CpelDurations *d,
                                      gint64         min,
                                      gint64         max,
                                      const guint64 *ranks,
                                      guint          n_ranks,
                                      gint64        *out);

/* Bytes held (the chunks and their pointer array). */
guint64  cpel_durations_bytes  (const CpelDurations *d);

G_END_DECLS
