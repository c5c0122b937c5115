/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-spans-private.h — the span engine's driver, for the analyses built
 * on it (cpel-span-dist.c, cpel-span-diff.c) */
#pragma once

#include "cpel-spans.h"

G_BEGIN_DECLS

/* The span names met so far, by id (CpelSpan.name). */
typedef struct _CpelSpanNames CpelSpanNames;

CpelSpanNames *cpel_span_names_new   (void);
void           cpel_span_names_free  (CpelSpanNames *names);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpanNames, cpel_span_names_free)
guint          cpel_span_names_get_n (CpelSpanNames *names);
/* Valid while `names` lives. */
const char    *cpel_span_names_get   (CpelSpanNames *names, guint32 id);

/* Called for each span and state as it completes (in the order they end
 * per track), with its begin and end time as drawn. */
typedef void (*CpelSpanSinkFunc) (gpointer        data,
                                  guint           slot,
                                  const CpelSpan *span,
                                  gint64          t_begin,
                                  gint64          t_end);

/* Runs the engine over the chosen range and tracks, calling `sink` from
 * this thread only: as cpel_span_summary_compute () reads (one merge for
 * a file that can stream and has no index, else track by track). */
gboolean       cpel_spans_run        (CpelFile               *file,
                                      CpelSpanRules          *rules,
                                      const CpelSpansOptions *options,
                                      CpelSpanNames          *names,
                                      CpelSpanSinkFunc        sink,
                                      gpointer                data,
                                      GCancellable           *cancellable,
                                      GError                **error);

/* A flag of the spans a replay tells only for the depths of the spans they
 * held (an interrupted span that began before the range): counted nowhere. */
#define CPEL_SPAN_REPLAY_UNSEEN (1u << 15)

/* Calls `sink` for each of the spans of the whole capture (`spans`,
 * cpel_spans_is_whole ()) as cpel_spans_run () would over the range and
 * tracks of `options` (see cpel_span_summary_compute_from_spans ()): per
 * track in the order they end there, then the track's states. */
gboolean       cpel_spans_replay     (CpelSpans              *spans,
                                      const CpelSpansOptions *options,
                                      CpelSpanSinkFunc        sink,
                                      gpointer                data,
                                      GCancellable           *cancellable,
                                      GError                **error);

/* ---- for the cache of derived spans (cpel-span-cache.c) ---- */

/* The rule that made name `name` first. */
guint32        cpel_spans_get_name_rule (CpelSpans *spans, guint name);
CpelFile      *cpel_spans_get_file      (CpelSpans *spans);
CpelSpanRules *cpel_spans_get_rules     (CpelSpans *spans);
/* Whether these spans were read from the cache rather than derived. */
gboolean       cpel_spans_is_from_cache (CpelSpans *spans);
/* Spans of the whole of `file` from checked parts: `names` (n_names, all
 * different) with the rule of each, and `block` (taken): each track's
 * spans, then its states, track after track; counts[2 s] spans and
 * counts[2 s + 1] states for track s.  NULL (block not taken) when two
 * names are the same. */
CpelSpans     *cpel_spans_new_from_parts (CpelFile       *file,
                                          CpelSpanRules  *rules,
                                          const char    **names,
                                          const guint32  *name_rules,
                                          guint           n_names,
                                          CpelSpan       *block,
                                          const guint64  *counts);

G_END_DECLS
