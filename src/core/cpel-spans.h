/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-spans.h — spans and states derived from events by rules
 *
 * Each track is read in time order (file order breaks ties) and every event
 * is offered to every rule (cpel-span-rules.h), independently:
 *
 * - A span rule's open spans are kept as a stack per key: the track, the
 *   rule, the capture (when the rule's NAME has a `*`) and the value of the
 *   rule's key field (a missing field: the empty value).  A begin pushes; an
 *   end pops the innermost open span of its key (LIFO).  An event matching
 *   both the begin and the end (a toggle, e.g. VPP's cli-cmd) ends the open
 *   span of its key when there is one, else begins one.
 * - A second begin while a span of its key is open nests (pushed on the
 *   stack) — unless the rule says `restart`: then the open span ends there,
 *   flagged CPEL_SPAN_INTERRUPTED (its end index is the second begin's), and
 *   the second begin opens a new span.
 * - An end with no open span of its key is an orphan end: a span flagged
 *   CPEL_SPAN_NO_BEGIN (the capture began inside it), its begin index that
 *   of the end; it is drawn from the start of the range read.
 * - A span still open after the last event is flagged CPEL_SPAN_NO_END
 *   (the capture ended inside it), its end index that of the begin; it is
 *   drawn to the end of the range read (the capture's last event).
 * - A state rule's event ends the track's current state (one per track,
 *   whatever rule set it) and starts its own: states tile the track from its
 *   first state event on; the last state is CPEL_SPAN_NO_END.
 *
 * Orphans are kept and counted, never paired with anything else; statistics
 * leave out flagged spans unless asked.  Only events in [t0, t1) are read:
 * a range that cuts a span makes orphans of it, as cutting the capture
 * there would.  Depth: the number of spans open on the track (any rule,
 * any key) when the span began.
 */
#pragma once

#include "cpel-file.h"
#include "cpel-span-rules.h"

G_BEGIN_DECLS

typedef enum
{
  CPEL_SPAN_NO_BEGIN    = 1 << 0,   /* an end without a begin */
  CPEL_SPAN_NO_END      = 1 << 1,   /* a begin without an end */
  CPEL_SPAN_INTERRUPTED = 1 << 2,   /* ended by the next begin of its key (restart) */
  CPEL_SPAN_STATE       = 1 << 3,   /* a state, not a span */
} CpelSpanFlags;

#define CPEL_SPAN_ORPHAN (CPEL_SPAN_NO_BEGIN | CPEL_SPAN_NO_END | CPEL_SPAN_INTERRUPTED)

/* One span or state: 16 bytes.  Indices are event indices within the track
 * (cpel_file_get_track_event ()). */
typedef struct
{
  guint32 begin;   /* the begin event (CPEL_SPAN_NO_BEGIN: the end event) */
  guint32 end;     /* the end event (CPEL_SPAN_NO_END: the begin event) */
  guint32 name;    /* cpel_spans_get_name () */
  guint16 depth;   /* saturates at G_MAXUINT16 */
  guint16 flags;   /* CpelSpanFlags */
} CpelSpan;

G_STATIC_ASSERT (sizeof (CpelSpan) == 16);

typedef struct
{
  gint64        t0;        /* read the events in [t0, t1); t1 <= t0: the whole file */
  gint64        t1;
  const guint  *slots;     /* tracks; NULL = every track */
  guint         n_slots;
  gboolean      no_store;  /* a whole capture's spans not kept in the index cache (a
                            * count thrown away, as the rule editor's) */
} CpelSpansOptions;

typedef struct _CpelSpans CpelSpans;

/* Derives the spans and states of every chosen track (builds the file's
 * index when it is deferred).  NULL with G_IO_ERROR_CANCELLED when
 * cancelled, CPEL_ERROR_INVALID on a bad slot. */
CpelSpans       *cpel_spans_derive          (CpelFile               *file,
                                             CpelSpanRules          *rules,
                                             const CpelSpansOptions *options,
                                             GCancellable           *cancellable,
                                             GError                **error);
/* Spans are shared by reference (a print job keeps the ones it draws):
 * cpel_spans_free drops a reference, the last one frees them. */
CpelSpans       *cpel_spans_ref             (CpelSpans *spans);
void             cpel_spans_free            (CpelSpans *spans);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpans, cpel_spans_free)

/* The span names (rule NAMEs with their captures) and state names. */
guint            cpel_spans_get_n_names     (CpelSpans *spans);
const char      *cpel_spans_get_name        (CpelSpans *spans, guint name);
/* A track's spans (states), sorted by begin time, then by end; NULL when
 * there are none.  Valid while `spans` lives. */
const CpelSpan  *cpel_spans_get_track_spans (CpelSpans *spans, guint slot, guint64 *n);
const CpelSpan  *cpel_spans_get_track_states (CpelSpans *spans, guint slot, guint64 *n);
/* Begin and end time (ns) of a span of track `slot`, orphans drawn to the
 * range read's edges (t0; the last event read). */
gint64           cpel_spans_begin_ns        (CpelSpans *spans, guint slot, const CpelSpan *span);
gint64           cpel_spans_end_ns          (CpelSpans *spans, guint slot, const CpelSpan *span);
/* Those edges: where orphans are drawn from (no begin) and to (no end).
 * With cpel_file_get_track_times (), what a renderer needs to find a
 * span's times without a call per span. */
void             cpel_spans_get_edges       (CpelSpans *spans, gint64 *edge_begin,
                                             gint64 *edge_end);
/* The first of the track's spans whose begin time is >= t (n when none).
 * O(log n). */
guint64          cpel_spans_track_lower_bound (CpelSpans *spans, guint slot, gint64 t);
guint64          cpel_spans_get_n_spans     (CpelSpans *spans);   /* spans and states */
/* Whether these are the spans of every track over the whole capture
 * (derived without a range or chosen tracks, or read from the cache). */
gboolean         cpel_spans_is_whole        (CpelSpans *spans);
guint64          cpel_spans_get_n_states    (CpelSpans *spans);   /* states only */
/* A span's key, when the rule that made its name has one (`key FIELD`):
 * TRUE, the field's name and its value in the begin event's text ("" when
 * that has none); FALSE (both NULL) for a rule without a key, a state. */
gboolean         cpel_spans_dup_key         (CpelSpans       *spans,
                                             guint            slot,
                                             const CpelSpan  *span,
                                             char           **field,
                                             char           **value);
/* Who woke the thread into a state: the `waker` field of the text of the
 * event that began it (the importers' `…: woken` marks: "comm [tid]"), or
 * NULL. */
char            *cpel_spans_dup_waker       (CpelSpans       *spans,
                                             guint            slot,
                                             const CpelSpan  *state);
/* Spans (and states) per rule of the rules they were derived with. */
typedef struct
{
  guint64 spans;           /* every span and state the rule made, orphans too */
  guint64 orphan_begins;   /* NO_END + INTERRUPTED */
  guint64 orphan_ends;     /* NO_BEGIN */
} CpelSpanRuleCount;

/* Fills counts[0..n_rules) (zeroed first) by rule index; a span name two
 * rules make counts for the first that made it. */
void             cpel_spans_count_by_rule   (CpelSpans         *spans,
                                             CpelSpanRuleCount *counts,
                                             guint              n_rules);
/* A track's spans zoomed out: per bucket of 2^shift ns from time 0, the
 * share of it (0..1) that spans cover (their union) and the name of the
 * first span in it (G_MAXUINT32: none).  Made with the spans for each
 * track of at least CPEL_SPAN_COVERAGE_MIN spans, about one bucket per 16
 * spans; NULL for the others.  What a renderer reads instead of the spans
 * when a pixel holds many buckets. */
#define CPEL_SPAN_COVERAGE_MIN 1024

typedef struct
{
  float   covered;
  guint32 name;
} CpelSpanCoverage;

const CpelSpanCoverage *cpel_spans_get_coverage (CpelSpans *spans, guint slot, guint *shift,
                                                 guint64 *n_buckets);
/* Bytes the span records take (16 per span). */
guint64          cpel_spans_get_bytes       (CpelSpans *spans);
/* A whole capture's spans, derived from a file loaded with the index
 * cache on (CpelLoadOptions.use_cache), are kept in that cache by a thread
 * of their own, and read back by the next derive of the same file and
 * rules.  Waits until every such store under way has ended (a program
 * about to exit that wants the next run warm). */
void             cpel_spans_wait_stored     (void);
/* How many such stores are under way. */
guint            cpel_spans_stores_in_progress (void);

/* ---- statistics (cpel spans / cpel states) ---- */

typedef struct
{
  guint         slot;         /* by tracks / states: the track; else G_MAXUINT */
  const char   *track;        /* its label, or NULL */
  const char   *name;
  guint64       count;        /* spans counted (flagged ones only when asked) */
  guint64       total_ns;     /* saturates at G_MAXUINT64 */
  gint64        min_ns, max_ns, mean_ns;      /* mean rounded half up; 0 when count 0 */
  gint64        p50_ns, p90_ns, p99_ns;       /* by spans only: exact, nearest rank */
  guint64       orphan_begins;  /* NO_END + INTERRUPTED */
  guint64       orphan_ends;    /* NO_BEGIN */
  /* The durations less those of the spans nested one deeper on the track
   * (saturates; states: total_ns), and their population standard
   * deviation rounded to the ns (0 when count is 0). */
  guint64       self_ns;
  gint64        stddev_ns;
} CpelSpanRow;

typedef enum
{
  CPEL_SPAN_TABLE_SPANS,    /* per span name */
  CPEL_SPAN_TABLE_TRACKS,   /* per track and span name */
  CPEL_SPAN_TABLE_STATES,   /* per track and state */
  CPEL_SPAN_TABLE_CPUS,     /* the states' rows, headed as CPUs' threads (cpel states --by cpus) */
} CpelSpanTable;

typedef struct _CpelSpanSummary CpelSpanSummary;

/* Statistics without keeping the spans: a file loaded without its index
 * that can stream is read in one merge (bounded memory: the open spans,
 * a row per track and name, 8 bytes per span counted for the exact
 * percentiles); otherwise track by track through the index.  With
 * `unfinished`, flagged spans count too, with their drawn durations. */
CpelSpanSummary *cpel_span_summary_compute  (CpelFile               *file,
                                             CpelSpanRules          *rules,
                                             const CpelSpansOptions *options,
                                             gboolean                unfinished,
                                             GCancellable           *cancellable,
                                             GError                **error);
/* The same from spans derived of the whole capture (cpel_spans_is_whole ()),
 * for the range and tracks of `options`: each span as reading only the
 * range's events would make it — one cut by the range's edges is an
 * orphan there, one that ends after it unfinished — without deriving
 * again.  Pairs are the whole capture's: where the range would pair
 * otherwise (a toggle whose begin lies before the range, a state that
 * follows one), these are the right ones; depths (self time) too.  The
 * index's spans are read from the first that ends in the range, in
 * O(spans in the range + spans before it / 64). */
CpelSpanSummary *cpel_span_summary_compute_from_spans (CpelSpans              *spans,
                                                       const CpelSpansOptions *options,
                                                       gboolean                unfinished,
                                                       GCancellable           *cancellable,
                                                       GError                **error);
void             cpel_span_summary_free     (CpelSpanSummary *summary);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpanSummary, cpel_span_summary_free)

/* Rows in the tables' order: spans by total_ns descending, then name
 * (bytewise); tracks and states by track label, then name. */
guint            cpel_span_summary_get_n_rows (CpelSpanSummary *summary, CpelSpanTable table);
const CpelSpanRow *cpel_span_summary_get_row  (CpelSpanSummary *summary, CpelSpanTable table,
                                               guint i);
/* RFC 4180 CSV with a header line:
 *   spans:  span,count,total_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,
 *           orphan_begins,orphan_ends
 *   tracks: track,span,count,total_ns,min_ns,mean_ns,max_ns,orphan_begins,orphan_ends
 *   states: track,state,count,total_ns,min_ns,mean_ns,max_ns
 *   cpus:   cpu,thread,count,total_ns,min_ns,mean_ns,max_ns
 * Durations in integer ns; empty when count is 0. */
char            *cpel_span_summary_to_csv   (CpelSpanSummary *summary, CpelSpanTable table);
/* An aligned table with units (translated headings). */
char            *cpel_span_summary_to_text  (CpelSpanSummary *summary, CpelSpanTable table);

G_END_DECLS
