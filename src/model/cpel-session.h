/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-session.h — what a viewer window shows of its capture, as a GObject
 *
 * The open file (and the second file while comparing), the visible time
 * range and its zoom history, which tracks are shown in what order, which
 * event types are hidden, the selected event, the measurement, the chase
 * and the colour and summary modes.  Widgets (the timeline, the tool
 * windows) read it and change it through this API and redraw on its
 * notifications; nothing here needs a display.
 *
 * Properties (notified only on a real change): "file", "compare-file",
 * "compare-offset", "compare-origin", "compare-paired", "compare-range",
 * "compare-can-go-back", "compare-can-go-forward", "compare-measure",
 * "range" (CpelRange), "can-go-back", "can-go-forward", "track-order",
 * "has-selection", "measure" (CpelRange or NULL), "chasing", "color-mode",
 * "summary", "views" (the capture's saved views), "span-rules", "spans" (the
 * file's spans, derived off the main thread), "spans-pending",
 * "show-spans", "capture-clock", "has-capture-clock", "compare-span-rules",
 * "compare-spans".  Signals: "tracks-changed" (the rows shown changed),
 * "types-changed" (the hidden event types changed), "matches-changed" (the
 * search matches highlighted), "selection-changed"
 * (another event or none), "reveal-track" (guint slot, gboolean centre:
 * a request to scroll a track into view, for the widget that scrolls).
 */
#pragma once

#include "cpel-core.h"
#include "cpel-labels.h"
#include "cpel-span-dist.h"
#include "cpel-color-mode.h"
#include "cpel-range.h"
#include "cpel-range-history.h"
#include "cpel-track-order.h"

G_BEGIN_DECLS

/* Back and Forward keep this many steps; continuous changes within this
 * time are one step. */
#define CPEL_SESSION_HISTORY_MAX      100
#define CPEL_SESSION_HISTORY_COALESCE (700 * G_TIME_SPAN_MILLISECOND)

/* How a range change is remembered for Back. */
typedef enum
{
  CPEL_SESSION_FORGET,       /* not at all */
  CPEL_SESSION_STEP,         /* one step */
  CPEL_SESSION_CONTINUOUS,   /* one step per run of changes (wheel, keys held) */
} CpelSessionRemember;

#define CPEL_TYPE_SESSION (cpel_session_get_type ())
G_DECLARE_FINAL_TYPE (CpelSession, cpel_session, CPEL, SESSION, GObject)

CpelSession    *cpel_session_new                (void);

/* The file shown (NULL: none).  A new file resets the view: the whole
 * capture, every track, no hidden type, no selection, measure or chase, an
 * empty history.  The colour and summary modes stay. */
void            cpel_session_set_file           (CpelSession       *self,
                                                 CpelFile          *file);
CpelFile       *cpel_session_get_file           (CpelSession       *self);
/* The second capture while comparing (NULL: not comparing). */
void            cpel_session_set_compare_file   (CpelSession       *self,
                                                 CpelFile          *file);
CpelFile       *cpel_session_get_compare_file   (CpelSession       *self);
/* How the compare view aligns B: B's time = A's time + offset; the ruler
 * reads A's time - origin.  Both clamped to ±CPEL_SESSION_MAX_ALIGNMENT (no
 * overflow in sums); each notified once, on a real change.  Another compare
 * file resets both to 0. */
#define CPEL_SESSION_MAX_ALIGNMENT (G_GINT64_CONSTANT (1) << 60)
void            cpel_session_set_compare_alignment (CpelSession    *self,
                                                    gint64          offset,
                                                    gint64          origin);
/* The offset alone (the origin kept). */
void            cpel_session_set_compare_offset (CpelSession       *self,
                                                 gint64             offset);
gint64          cpel_session_get_compare_offset (CpelSession       *self);
gint64          cpel_session_get_compare_origin (CpelSession       *self);
/* Paired: the tracks of the same label side by side (kept across files). */
void            cpel_session_set_compare_paired (CpelSession       *self,
                                                 gboolean           paired);
gboolean        cpel_session_get_compare_paired (CpelSession       *self);
/* The compare view's range in A's time (not clamped: the view knows both
 * captures' limits; an empty range becomes 1 ns), remembered for its own
 * Back and Forward; another compare file clears the history and the
 * measurement.  TRUE when the range changed. */
const CpelRange *cpel_session_get_compare_range (CpelSession       *self);
gboolean        cpel_session_set_compare_range  (CpelSession       *self,
                                                 const CpelRange   *range,
                                                 CpelSessionRemember remember);
/* Other captures in the compare view: `range`, no history, no measurement. */
void            cpel_session_reset_compare_view (CpelSession       *self,
                                                 const CpelRange   *range);
gboolean        cpel_session_compare_go_back    (CpelSession       *self);
gboolean        cpel_session_compare_go_forward (CpelSession       *self);
gboolean        cpel_session_compare_can_go_back (CpelSession      *self);
gboolean        cpel_session_compare_can_go_forward (CpelSession   *self);
/* The compare view's measurement (A's time, ordered), NULL: none. */
void            cpel_session_set_compare_measure (CpelSession      *self,
                                                  const CpelRange  *measure);
const CpelRange *cpel_session_get_compare_measure (CpelSession     *self);

/* Visible range [t0, t1) and the capture's limits. */
const CpelRange *cpel_session_get_range         (CpelSession       *self);
const CpelRangeLimits *cpel_session_get_limits  (CpelSession       *self);
/* Clamped to the limits; TRUE when the range changed.  Nothing without a
 * file. */
gboolean        cpel_session_set_range          (CpelSession       *self,
                                                 const CpelRange   *range,
                                                 CpelSessionRemember remember);
void            cpel_session_fit                (CpelSession       *self);
gboolean        cpel_session_go_back            (CpelSession       *self);
gboolean        cpel_session_go_forward         (CpelSession       *self);
gboolean        cpel_session_can_go_back        (CpelSession       *self);
gboolean        cpel_session_can_go_forward     (CpelSession       *self);

/* Which tracks are shown and in what order (NULL without a file); its
 * changes are the session's "tracks-changed". */
CpelTrackOrder *cpel_session_get_track_order    (CpelSession       *self);
/* The rows shown (slots), as cpel_track_order_get_rows; NULL with
 * *n_rows = every track in slot order (0 without a file). */
const guint    *cpel_session_get_rows           (CpelSession       *self,
                                                 guint             *n_rows);
/* Display row of `slot`, or -1 when it is not shown. */
int             cpel_session_get_slot_row       (CpelSession       *self,
                                                 guint              slot);

/* Hidden event types: n_types flags (cpel_file_get_n_types), NULL when
 * none is hidden.  Setting copies; a hidden selection is dropped. */
void            cpel_session_set_hidden_types   (CpelSession       *self,
                                                 const guint8      *hidden);
const guint8   *cpel_session_get_hidden_types   (CpelSession       *self);
void            cpel_session_set_type_hidden    (CpelSession       *self,
                                                 guint              type,
                                                 gboolean           hidden);
gboolean        cpel_session_get_type_hidden    (CpelSession       *self,
                                                 guint              type);
/* Whether the event `index` of `slot` is of a hidden type. */
gboolean        cpel_session_event_hidden       (CpelSession       *self,
                                                 guint              slot,
                                                 guint64            index);

/* The selected event. */
gboolean        cpel_session_get_selection      (CpelSession       *self,
                                                 guint             *slot,
                                                 guint64           *index);
/* Select an event; `reveal`: centre it when it is outside the range or its
 * track is not shown, and ask for its track to be scrolled into view. */
void            cpel_session_select             (CpelSession       *self,
                                                 guint              slot,
                                                 guint64            index,
                                                 gboolean           reveal);
void            cpel_session_unselect           (CpelSession       *self);
/* Centre an event (keeping the span, one history step) and ask for its
 * track to be centred. */
void            cpel_session_reveal_event       (CpelSession       *self,
                                                 guint              slot,
                                                 guint64            index);
/* Ask for the row of `slot` to be scrolled into view ("reveal-track");
 * FALSE (nothing asked) when the track is not shown. */
gboolean        cpel_session_reveal_track       (CpelSession       *self,
                                                 guint              slot,
                                                 gboolean           centre);

/* Show `slot` when it is hidden and ask for it to be centred (the Tracks
 * window's activation). */
void            cpel_session_show_track         (CpelSession       *self,
                                                 guint              slot);

/* The measurement: two times in the order they were given (the anchor
 * first); get returns them ordered. */
void            cpel_session_set_measure        (CpelSession       *self,
                                                 gint64             t0,
                                                 gint64             t1);
void            cpel_session_clear_measure      (CpelSession       *self);
gboolean        cpel_session_get_measure        (CpelSession       *self,
                                                 gint64            *t0,
                                                 gint64            *t1);
/* As given (unordered), for the widget drawing the anchor. */
gboolean        cpel_session_get_measure_raw    (CpelSession       *self,
                                                 gint64            *anchor,
                                                 gint64            *end);

/* Chase: the track list before the first chase is kept until
 * cpel_session_end_chase() puts it back ("chasing" TRUE meanwhile). */
void            cpel_session_begin_chase        (CpelSession       *self);
gboolean        cpel_session_end_chase          (CpelSession       *self);
gboolean        cpel_session_get_chasing        (CpelSession       *self);
/* Show exactly `slots` (a chase's result), the track list before it kept. */
void            cpel_session_chase_rows         (CpelSession       *self,
                                                 const guint       *slots,
                                                 guint              n_slots);
/* Pin `slot` on top (chase the track), the list before it kept. */
void            cpel_session_chase_track        (CpelSession       *self,
                                                 guint              slot);

CpelColorMode   cpel_session_get_color_mode     (CpelSession       *self);
void            cpel_session_set_color_mode     (CpelSession       *self,
                                                 CpelColorMode      mode);
gboolean        cpel_session_get_summary        (CpelSession       *self);
void            cpel_session_set_summary        (CpelSession       *self,
                                                 gboolean           summary);

/* How times are shown: since the first event (the default), or on the
 * capture's own clock ("capture-clock": the user's choice, kept across
 * files; cpel_file_get_clock_origin).  "has-capture-clock" (read-only):
 * the file's source says what its clock read.  The clock the times are
 * shown on: the capture's when chosen and known, else CPEL_CLOCK_NONE
 * (*origin_ns: the clock's reading at time 0, else 0). */
gboolean        cpel_session_get_capture_clock  (CpelSession       *self);
void            cpel_session_set_capture_clock  (CpelSession       *self,
                                                 gboolean           capture_clock);
gboolean        cpel_session_has_capture_clock  (CpelSession       *self);
CpelClockKind   cpel_session_get_time_clock     (CpelSession       *self,
                                                 gint64            *origin_ns);

/* What the Statistics window counts: the measurement when there is one
 * (inclusive: [m0, m1 + 1), as the ruler counts), else the visible range;
 * the rows shown; the hidden types.  The pointers set in `options` are the
 * session's (valid until its next change); the other fields are left
 * alone.  TRUE when the range is the measurement; FALSE without a file
 * (options untouched) or for the visible range. */
gboolean        cpel_session_get_stats_scope    (CpelSession       *self,
                                                 CpelStatsOptions  *options);

/* The Anomalies window's navigation.  Go to anomaly `position` of
 * `result` (a search of the session's file): select its event and centre
 * it; an unusual interval is shown whole (from the previous event of its
 * code, with as much again around it) unless the range already shows it at
 * a readable size. */
void            cpel_session_go_to_anomaly      (CpelSession       *self,
                                                 CpelAnomalyResult *result,
                                                 guint64            position);
/* The anomaly after (direction > 0) or before the selected event, or,
 * without a selection, the first one in the range (the last one before
 * its end); wrapping around.  FALSE (position untouched) when there is no
 * anomaly or no file. */
gboolean        cpel_session_find_anomaly       (CpelSession       *self,
                                                 CpelAnomalyResult *result,
                                                 int                direction,
                                                 guint64           *position);

/* The search matches to highlight (a new reference is taken; NULL clears;
 * a new file clears them). */
void            cpel_session_set_matches        (CpelSession       *self,
                                                 CpelSearchResult  *matches);
CpelSearchResult *cpel_session_get_matches      (CpelSession       *self);

/* The search bar's view of the session.  The tracks not shown as n_tracks
 * flags (free with g_free), NULL when every track is shown or without a
 * file. */
guint8         *cpel_session_dup_hidden_slots   (CpelSession       *self);
/* The match to step to in `matches` (filtered to what is shown): after
 * (direction > 0) or before `current` (the position last stepped to, or
 * -1) when the selected event is that match, else from the selected event,
 * else from the range (the first match in it, the last one before its
 * end); wrapping around.  FALSE (position untouched) without a file or a
 * match. */
gboolean        cpel_session_find_match         (CpelSession       *self,
                                                 CpelSearchResult  *matches,
                                                 int                direction,
                                                 gint64             current,
                                                 guint64           *position);

/* The saved views of the capture shown (NULL: none to keep, e.g. a file
 * that is not on disk); set by the owner when it reads them. */
void            cpel_session_set_views          (CpelSession       *self,
                                                 CpelViews         *views);
CpelViews      *cpel_session_get_views          (CpelSession       *self);
/* Apply the saved view `name` (it becomes the current one); the view
 * applied (for the caller's scroll and compare alignment), or NULL when
 * there is no such view. */
const CpelSavedView *cpel_session_apply_saved_view (CpelSession    *self,
                                                    const char     *name);

/* Saved views: what the session shows as a view named `name` (NULL without
 * a file; scroll_y and the compare alignment are the caller's), and
 * putting one back (tracks, types, range as one history step,
 * selection). */
CpelSavedView  *cpel_session_capture_view       (CpelSession       *self,
                                                 const char        *name);
void            cpel_session_apply_view         (CpelSession       *self,
                                                 const CpelSavedView *view);

/* The labels of the file's events (cpel-labels.h): the default formats of
 * a new file; set: the user's ("labels" notified).  `labels` must be of the
 * session's file. */
void            cpel_session_set_labels         (CpelSession       *self,
                                                 CpelLabels        *labels);
CpelLabels     *cpel_session_get_labels         (CpelSession       *self);

/* Spans and states (cpel-spans.h): the session derives them from its file
 * by its rules (the built-in ones by default) in a worker thread, again
 * whenever the file or the rules change (a derivation running is
 * cancelled).  "spans" is notified when they are ready, and when they are
 * dropped (a new file or rules): NULL meanwhile ("spans-pending" TRUE).
 * Rules NULL: no spans (nothing derived).  A derivation holds a reference
 * to the file until it has seen it is cancelled, not to the session. */
void            cpel_session_set_span_rules     (CpelSession       *self,
                                                 CpelSpanRules     *rules);
CpelSpanRules  *cpel_session_get_span_rules     (CpelSession       *self);
CpelSpans      *cpel_session_get_spans          (CpelSession       *self);
gboolean        cpel_session_get_spans_pending  (CpelSession       *self);
/* The compare file's spans, derived as the file's are, by rules of its own
 * (a capture's settings: NULL, the default, derives none): notified as
 * "compare-spans"; another compare file derives them anew. */
void            cpel_session_set_compare_span_rules (CpelSession   *self,
                                                     CpelSpanRules *rules);
CpelSpanRules  *cpel_session_get_compare_span_rules (CpelSession   *self);
CpelSpans      *cpel_session_get_compare_spans  (CpelSession       *self);
/* The spans of `file`: the file's or the compare file's (NULL: neither,
 * or not derived yet). */
CpelSpans      *cpel_session_get_spans_for      (CpelSession       *self,
                                                 CpelFile          *file);
/* Whether views draw the spans (default TRUE). */
void            cpel_session_set_show_spans     (CpelSession       *self,
                                                 gboolean           show);
gboolean        cpel_session_get_show_spans     (CpelSession       *self);

/* The spans highlighted ("span-filter"): those a filter lets through (a
 * histogram's selection, cpel_span_histogram_selection ()), copied; NULL:
 * none. */
void            cpel_session_set_span_filter    (CpelSession       *self,
                                                 const CpelSpanFilter *filter);
const CpelSpanFilter *cpel_session_get_span_filter (CpelSession    *self);

/* The spans the span filter lets through, of the session's spans (finished
 * spans, no states), in time order: by begin, then track slot, then index.
 * Made when first asked after the filter or the spans changed (a pass
 * over every span); NULL (*n 0) without a filter or spans.  Valid until
 * the filter or the spans change ("span-filter", "spans"). */
typedef struct
{
  gint64   begin_ns;
  guint    slot;
  guint64  index;    /* into the track's spans */
} CpelSessionSpanMatch;

const CpelSessionSpanMatch *cpel_session_get_span_matches (CpelSession *self, guint64 *n);
/* The selected span's position among the matches (0-based), or -1. */
gint64          cpel_session_get_span_match_position (CpelSession *self);
/* Select and centre (cpel_session_go_to_span ()) the next (direction > 0)
 * or previous match: next to the selected span when it is one, else the
 * first beginning after (the last before) the selected span's begin, or
 * the range's centre without a selected span; from the last on to the
 * first, and back.  FALSE (nothing changed) without matches. */
gboolean        cpel_session_step_span_match    (CpelSession       *self,
                                                 int                direction);

/* A span (state) of the session's spans: index into the track's spans
 * (states, when `state`). */
typedef struct
{
  guint    slot;
  gboolean state;
  guint64  index;
} CpelSessionSpanRef;

/* The span `ref` names, or NULL (no such span, no spans yet). */
const CpelSpan *cpel_session_get_span           (CpelSession       *self,
                                                 const CpelSessionSpanRef *ref);
/* Select a span instead of an event ("selection-changed"; "has-selection"
 * becomes FALSE: it is about events).  cpel_session_select () and
 * cpel_session_unselect () drop it, as new spans do. */
void            cpel_session_select_span        (CpelSession       *self,
                                                 const CpelSessionSpanRef *ref);
/* Select the span after (direction > 0) or before the selected one on its
 * track (states: the next state), its begin centred when it is outside the
 * range; FALSE (nothing changed) without a selected span or at the end. */
gboolean        cpel_session_step_span          (CpelSession       *self,
                                                 int                direction);
/* The selected span (and its reference), or NULL. */
const CpelSpan *cpel_session_get_span_selection (CpelSession       *self,
                                                 CpelSessionSpanRef *ref);

/* Select a span (state) and centre it, the range widened to twice its
 * duration when narrower (one history step), its track scrolled into
 * view. */
void            cpel_session_go_to_span         (CpelSession       *self,
                                                 const CpelSessionSpanRef *ref);
/* The reference of the finished span named `name` of track `slot` whose
 * begin event is `begin` (an index in the track); FALSE when there is no
 * such span (or no spans yet). */
gboolean        cpel_session_find_span          (CpelSession       *self,
                                                 guint              slot,
                                                 guint32            begin,
                                                 gint64             begin_ns,
                                                 const char        *name,
                                                 CpelSessionSpanRef *ref);

G_END_DECLS
