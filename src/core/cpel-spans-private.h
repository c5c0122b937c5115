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

G_END_DECLS
