/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-lod.h — level-of-detail summaries of the tracks' event times
 *
 * For a track with n events, a grid of 2^shift-nanosecond buckets starting
 * at its first event, with shift chosen so that a bucket holds about
 * CPEL_LOD_EVENTS_PER_BUCKET events on average, and for each bucket
 * boundary the number of events before it (4 bytes per bucket: about
 * 4 / CPEL_LOD_EVENTS_PER_BUCKET bytes per event).  With it:
 *
 *  - a lower bound (first event at or after t) searches one bucket instead
 *    of the whole track: a few neighbouring cache lines, not ~log2(n) reads
 *    across the track;
 *  - the number of events in a span many buckets wide is known within the
 *    population of its two edge buckets without reading the times at all,
 *    so counting events per pixel column of a zoomed-out view costs
 *    O(columns) reads of a small array, whatever the number of events.
 *
 * A track's summary is built the first time it is needed (or beforehand
 * by cpel_lod_prepare), in one sequential pass over its times (~3 ms for
 * 1.5 million events), and kept with the file.
 * Everything here is thread-safe.
 */
#pragma once

#include <gio/gio.h>

#include "cpel-file.h"

G_BEGIN_DECLS

#define CPEL_LOD_EVENTS_PER_BUCKET 16

typedef struct _CpelLod CpelLod;

/* The summaries of `file` (created on first call, owned by the file). */
CpelLod  *cpel_lod_get_for_file  (CpelFile     *file);

/* Exactly cpel_file_track_lower_bound (): first index whose time >= t. */
guint64   cpel_lod_lower_bound   (CpelLod      *lod,
                                  guint         slot,
                                  gint64        t);

/* For sorted times bounds[0..n_bounds), the positions of the bounds among
 * the track's events: out[j] = lower bound of bounds[j], possibly
 * fractional (interpolated inside a bucket).  Every difference
 * out[j+1] - out[j] (events in [bounds[j], bounds[j+1])) is exact, or is at
 * least CPEL_LOD_MIN_ESTIMATE and off by at most `tolerance` times itself;
 * tolerance 0 gives exact lower bounds everywhere.  Reads the event times
 * only near bounds where the estimate is not good enough. */
#define CPEL_LOD_MIN_ESTIMATE 24
void      cpel_lod_locate        (CpelLod      *lod,
                                  guint         slot,
                                  const gint64 *bounds,
                                  guint         n_bounds,
                                  double        tolerance,
                                  double       *out);

/* An index in a file: asks the kernel to read ahead, without waiting, the
 * times that cpel_lod_locate () with these arguments will search (at most
 * a few runs of them; nothing for an index in memory or a summary not
 * built).  With cpel_lod_prefetch (), for every row before reading any. */
void      cpel_lod_prefetch_locate (CpelLod      *lod,
                                    guint         slot,
                                    const gint64 *bounds,
                                    guint         n_bounds,
                                    double        tolerance);

/* An index in a file (cpel-index-store.c, or the cache's): asks the kernel
 * to read ahead, without waiting, the pages of the track's times and
 * record indices a frame of [t0, t1) reads — all of them when few, else
 * those where t0 and t1 fall, and all of the times when [t0, t1) holds
 * at most `times_max` events (a row drawn by counting each of its events)
 * — from its summary alone (nothing when it is not built).  A renderer
 * calls it for every row before reading any, so that a frame at a place
 * not looked at yet waits for one round of reads, not one per row. */
void      cpel_lod_prefetch      (CpelLod      *lod,
                                  guint         slot,
                                  gint64        t0,
                                  gint64        t1,
                                  guint64       times_max);

/* Builds every summary not built yet, one track after another, until done
 * or `cancellable` (may be NULL) is cancelled: for a worker thread after
 * the file opened, so that no frame waits for one. */
void      cpel_lod_prepare       (CpelLod      *lod,
                                  GCancellable *cancellable);

/* Bytes held by the summaries built so far. */
gsize     cpel_lod_get_size      (CpelLod      *lod);

G_END_DECLS
