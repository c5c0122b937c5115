/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-session.c — what a viewer window shows of its capture */
#include "cpel-session.h"

#include <string.h>

/* Back and Forward over one of the session's ranges (the main view's, the
 * compare view's): its history and the properties that tell of it. */
typedef struct
{
  CpelRangeHistory  *steps;
  gboolean           can_back;       /* as last notified */
  gboolean           can_forward;
  guint              prop_range;
  guint              prop_back;
  guint              prop_forward;
} RangeNav;

struct _CpelSession
{
  GObject            parent_instance;

  CpelFile          *file;
  CpelFile          *compare_file;
  /* comparing: B's time = A's time + compare_offset; the ruler reads A's
   * time - compare_origin; tracks of the same label side by side */
  gint64             compare_offset;
  gint64             compare_origin;
  gboolean           compare_paired;
  /* the compare view's range (A's time), its history and measurement */
  CpelRange          compare_range;
  RangeNav           compare_nav;
  gboolean           compare_has_measure;
  CpelRange          compare_measure;
  CpelRange          range;
  CpelRangeLimits    limits;
  RangeNav           nav;
  CpelTrackOrder    *order;
  CpelTrackOrder    *chase_saved;    /* the track list before the first chase */
  guint8            *hidden_types;   /* n_types flags, NULL = none hidden */
  CpelSearchResult  *matches;        /* highlighted; NULL = none */
  CpelViews         *views;
  gboolean           has_selection;
  guint              selected_slot;
  guint64            selected_index;
  gboolean           has_measure;
  gint64             measure_t0;     /* as given: anchor, then the moving end */
  gint64             measure_t1;
  CpelColorMode      color_mode;
  gboolean           summary;
  gboolean           capture_clock;
  /* spans: derived from `file` by `span_rules` in a worker thread */
  CpelSpanRules     *span_rules;
  /* the file's label formats (defaults and the user's) */
  CpelLabels        *labels;
  CpelSpans         *spans;          /* NULL until derived */
  GCancellable      *spans_cancel;   /* the derivation running, or NULL */
  gboolean           show_spans;
  CpelSpanFilter    *span_filter;    /* the spans highlighted (a histogram's selection) */
  /* the compare file's spans, by its own rules */
  CpelSpanRules     *compare_span_rules;
  CpelSpans         *compare_spans;
  GCancellable      *compare_spans_cancel;
  GArray            *span_matches;   /* CpelSessionSpanMatch: span_filter's, NULL: not yet */
  gboolean           has_span_selection;
  CpelSessionSpanRef selected_span;
};

G_DEFINE_FINAL_TYPE (CpelSession, cpel_session, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (CpelColorMode, cpel_color_mode,
                    G_DEFINE_ENUM_VALUE (CPEL_COLOR_BY_CODE, "code"),
                    G_DEFINE_ENUM_VALUE (CPEL_COLOR_BY_TRACK, "track"),
                    G_DEFINE_ENUM_VALUE (CPEL_COLOR_NONE, "none"))

enum
{
  PROP_0,
  PROP_FILE,
  PROP_COMPARE_FILE,
  PROP_COMPARE_OFFSET,
  PROP_COMPARE_ORIGIN,
  PROP_COMPARE_PAIRED,
  PROP_RANGE,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_TRACK_ORDER,
  PROP_HAS_SELECTION,
  PROP_MEASURE,
  PROP_CHASING,
  PROP_COLOR_MODE,
  PROP_SUMMARY,
  PROP_VIEWS,
  PROP_COMPARE_RANGE,
  PROP_COMPARE_CAN_GO_BACK,
  PROP_COMPARE_CAN_GO_FORWARD,
  PROP_COMPARE_MEASURE,
  PROP_SPAN_RULES,
  PROP_SPANS,
  PROP_SPANS_PENDING,
  PROP_SHOW_SPANS,
  PROP_SPAN_FILTER,
  PROP_COMPARE_SPAN_RULES,
  PROP_COMPARE_SPANS,
  PROP_CAPTURE_CLOCK,
  PROP_HAS_CAPTURE_CLOCK,
  PROP_LABELS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  TRACKS_CHANGED,
  TYPES_CHANGED,
  MATCHES_CHANGED,
  SELECTION_CHANGED,
  REVEAL_TRACK,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
notify (CpelSession *self,
        guint        prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
nav_init (RangeNav *nav,
          guint     prop_range,
          guint     prop_back,
          guint     prop_forward)
{
  nav->steps = cpel_range_history_new (CPEL_SESSION_HISTORY_MAX, CPEL_SESSION_HISTORY_COALESCE);
  nav->prop_range = prop_range;
  nav->prop_back = prop_back;
  nav->prop_forward = prop_forward;
}

/* Notify can-go-back / can-go-forward when they changed; neither can
 * without `enabled`. */
static void
nav_update (CpelSession *self,
            RangeNav    *nav,
            gboolean     enabled)
{
  gboolean back = enabled && cpel_range_history_can_back (nav->steps);
  gboolean forward = enabled && cpel_range_history_can_forward (nav->steps);

  if (back != nav->can_back)
    {
      nav->can_back = back;
      notify (self, nav->prop_back);
    }
  if (forward != nav->can_forward)
    {
      nav->can_forward = forward;
      notify (self, nav->prop_forward);
    }
}

/* The range `*current` becomes `next`, the one it leaves a step back as
 * `remember` says. */
static void
nav_move (CpelSession         *self,
          RangeNav            *nav,
          CpelRange           *current,
          const CpelRange     *next,
          CpelSessionRemember  remember)
{
  if (remember != CPEL_SESSION_FORGET)
    cpel_range_history_remember (nav->steps, current, remember == CPEL_SESSION_CONTINUOUS,
                                 g_get_monotonic_time ());
  *current = *next;
  notify (self, nav->prop_range);
  nav_update (self, nav, TRUE);
}

/* Back (Forward) from `*current`, to a range clamped to `limits` (NULL:
 * as it was); FALSE when there is no step. */
static gboolean
nav_step (CpelSession           *self,
          RangeNav              *nav,
          CpelRange             *current,
          const CpelRangeLimits *limits,
          gboolean               forward)
{
  CpelRange range;

  if (!(forward ? cpel_range_history_forward
                : cpel_range_history_back) (nav->steps, current, &range))
    return FALSE;
  if (limits != NULL)
    cpel_range_clamp (&range, limits);
  if (!cpel_range_equal (&range, current))
    {
      *current = range;
      notify (self, nav->prop_range);
    }
  nav_update (self, nav, TRUE);
  return TRUE;
}

static void
set_has_selection (CpelSession *self,
                   gboolean     has)
{
  if (self->has_selection == has)
    return;
  self->has_selection = has;
  notify (self, PROP_HAS_SELECTION);
}

static void spans_restart (CpelSession *self);
static void compare_spans_restart (CpelSession *self);
static void span_matches_clear (CpelSession *self);

static void
on_order_changed (CpelTrackOrder *order,
                  CpelSession    *self)
{
  g_signal_emit (self, signals[TRACKS_CHANGED], 0);
}

CpelSession *
cpel_session_new (void)
{
  return g_object_new (CPEL_TYPE_SESSION, NULL);
}

/* ------------------------------------------------------------------------ */
/* Files                                                                      */

void
cpel_session_set_file (CpelSession *self,
                       CpelFile    *file)
{
  gboolean had_selection, had_measure, was_chasing, had_hidden, had_matches, had_clock;
  CpelRange old_range;

  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (file == NULL || CPEL_IS_FILE (file));

  if (self->file == file)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  had_selection = self->has_selection;
  had_measure = self->has_measure;
  was_chasing = self->chase_saved != NULL;
  had_hidden = self->hidden_types != NULL;
  had_matches = self->matches != NULL;
  old_range = self->range;
  had_clock = cpel_session_has_capture_clock (self);

  if (self->order != NULL)
    g_signal_handlers_disconnect_by_data (self->order, self);
  g_clear_object (&self->order);
  g_clear_object (&self->chase_saved);
  g_clear_pointer (&self->hidden_types, g_free);
  g_clear_pointer (&self->matches, cpel_search_result_unref);
  g_set_object (&self->file, file);
  g_clear_pointer (&self->labels, cpel_labels_unref);
  if (file != NULL)
    {
      self->labels = cpel_labels_new (file);
      self->order = cpel_track_order_new (file);
      g_signal_connect (self->order, "changed", G_CALLBACK (on_order_changed), self);
    }
  cpel_range_history_clear (self->nav.steps);
  cpel_range_limits_init (&self->limits, file != NULL ? cpel_file_get_duration (file) : 0);
  cpel_range_fit (&self->range, &self->limits);
  self->has_selection = FALSE;
  self->has_measure = FALSE;

  notify (self, PROP_FILE);
  notify (self, PROP_LABELS);
  notify (self, PROP_TRACK_ORDER);
  if (!cpel_range_equal (&old_range, &self->range))
    notify (self, PROP_RANGE);
  if (had_selection)
    notify (self, PROP_HAS_SELECTION);
  if (had_measure)
    notify (self, PROP_MEASURE);
  if (was_chasing)
    notify (self, PROP_CHASING);
  if (had_clock != cpel_session_has_capture_clock (self))
    notify (self, PROP_HAS_CAPTURE_CLOCK);
  nav_update (self, &self->nav, self->file != NULL);
  spans_restart (self);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[TRACKS_CHANGED], 0);
  if (had_hidden)
    g_signal_emit (self, signals[TYPES_CHANGED], 0);
  if (had_matches)
    g_signal_emit (self, signals[MATCHES_CHANGED], 0);
  if (had_selection)
    g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

CpelFile *
cpel_session_get_file (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->file;
}

void
cpel_session_set_compare_file (CpelSession *self,
                               CpelFile    *file)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (file == NULL || CPEL_IS_FILE (file));
  if (!g_set_object (&self->compare_file, file))
    return;
  /* another capture: its alignment, range, history and measurement mean
   * nothing (pairing is kept) */
  g_object_freeze_notify (G_OBJECT (self));
  cpel_session_set_compare_alignment (self, 0, 0);
  cpel_session_reset_compare_view (self, &(CpelRange) { 0, 1 });
  compare_spans_restart (self);
  notify (self, PROP_COMPARE_FILE);
  g_object_thaw_notify (G_OBJECT (self));
}

void
cpel_session_set_compare_alignment (CpelSession *self,
                                    gint64       offset,
                                    gint64       origin)
{
  g_return_if_fail (CPEL_IS_SESSION (self));

  /* from a file (a saved view) or typed: kept where sums cannot overflow */
  offset = CLAMP (offset, -CPEL_SESSION_MAX_ALIGNMENT, CPEL_SESSION_MAX_ALIGNMENT);
  origin = CLAMP (origin, -CPEL_SESSION_MAX_ALIGNMENT, CPEL_SESSION_MAX_ALIGNMENT);
  g_object_freeze_notify (G_OBJECT (self));
  if (self->compare_offset != offset)
    {
      self->compare_offset = offset;
      notify (self, PROP_COMPARE_OFFSET);
    }
  if (self->compare_origin != origin)
    {
      self->compare_origin = origin;
      notify (self, PROP_COMPARE_ORIGIN);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

void
cpel_session_set_compare_offset (CpelSession *self,
                                 gint64       offset)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  cpel_session_set_compare_alignment (self, offset, self->compare_origin);
}

gint64
cpel_session_get_compare_offset (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), 0);
  return self->compare_offset;
}

gint64
cpel_session_get_compare_origin (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), 0);
  return self->compare_origin;
}

void
cpel_session_set_compare_paired (CpelSession *self,
                                 gboolean     paired)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  paired = !!paired;
  if (self->compare_paired == paired)
    return;
  self->compare_paired = paired;
  notify (self, PROP_COMPARE_PAIRED);
}

gboolean
cpel_session_get_compare_paired (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->compare_paired;
}

CpelFile *
cpel_session_get_compare_file (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->compare_file;
}

/* ------------------------------------------------------------------------ */
/* The compare view's range, history and measurement                         */

const CpelRange *
cpel_session_get_compare_range (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return &self->compare_range;
}

void
cpel_session_reset_compare_view (CpelSession     *self,
                                 const CpelRange *range)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (range != NULL);

  g_object_freeze_notify (G_OBJECT (self));
  cpel_range_history_clear (self->compare_nav.steps);
  nav_update (self, &self->compare_nav, TRUE);
  cpel_session_set_compare_range (self, range, CPEL_SESSION_FORGET);
  cpel_session_set_compare_measure (self, NULL);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
cpel_session_set_compare_range (CpelSession         *self,
                                const CpelRange     *range,
                                CpelSessionRemember  remember)
{
  CpelRange next;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (range != NULL, FALSE);
  g_return_val_if_fail (remember <= CPEL_SESSION_CONTINUOUS, FALSE);

  next = *range;
  if (next.t1 <= next.t0)
    next.t1 = next.t0 == G_MAXINT64 ? G_MAXINT64 : next.t0 + 1;
  if (cpel_range_equal (&next, &self->compare_range))
    return FALSE;
  nav_move (self, &self->compare_nav, &self->compare_range, &next,
            self->compare_file != NULL ? remember : CPEL_SESSION_FORGET);
  return TRUE;
}

gboolean
cpel_session_compare_go_back (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return nav_step (self, &self->compare_nav, &self->compare_range, NULL, FALSE);
}

gboolean
cpel_session_compare_go_forward (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return nav_step (self, &self->compare_nav, &self->compare_range, NULL, TRUE);
}

gboolean
cpel_session_compare_can_go_back (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->compare_nav.can_back;
}

gboolean
cpel_session_compare_can_go_forward (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->compare_nav.can_forward;
}

void
cpel_session_set_compare_measure (CpelSession     *self,
                                  const CpelRange *measure)
{
  CpelRange next = { 0, 0 };

  g_return_if_fail (CPEL_IS_SESSION (self));

  if (measure != NULL)
    {
      next.t0 = MIN (measure->t0, measure->t1);
      next.t1 = MAX (measure->t0, measure->t1);
    }
  if ((measure != NULL) == self->compare_has_measure
      && (measure == NULL || cpel_range_equal (&next, &self->compare_measure)))
    return;
  self->compare_has_measure = measure != NULL;
  self->compare_measure = next;
  notify (self, PROP_COMPARE_MEASURE);
}

const CpelRange *
cpel_session_get_compare_measure (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->compare_has_measure ? &self->compare_measure : NULL;
}

/* ------------------------------------------------------------------------ */
/* Range and history                                                          */

const CpelRange *
cpel_session_get_range (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return &self->range;
}

const CpelRangeLimits *
cpel_session_get_limits (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return &self->limits;
}

gboolean
cpel_session_set_range (CpelSession         *self,
                        const CpelRange     *range,
                        CpelSessionRemember  remember)
{
  CpelRange next;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (range != NULL, FALSE);
  g_return_val_if_fail (remember <= CPEL_SESSION_CONTINUOUS, FALSE);

  if (self->file == NULL)
    return FALSE;
  next = *range;
  cpel_range_clamp (&next, &self->limits);
  if (cpel_range_equal (&next, &self->range))
    return FALSE;
  nav_move (self, &self->nav, &self->range, &next, remember);
  return TRUE;
}

void
cpel_session_fit (CpelSession *self)
{
  CpelRange range;

  g_return_if_fail (CPEL_IS_SESSION (self));
  cpel_range_fit (&range, &self->limits);
  cpel_session_set_range (self, &range, CPEL_SESSION_STEP);
}

gboolean
cpel_session_go_back (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->file != NULL
         && nav_step (self, &self->nav, &self->range, &self->limits, FALSE);
}

gboolean
cpel_session_go_forward (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->file != NULL
         && nav_step (self, &self->nav, &self->range, &self->limits, TRUE);
}

gboolean
cpel_session_can_go_back (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->nav.can_back;
}

gboolean
cpel_session_can_go_forward (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->nav.can_forward;
}

/* ------------------------------------------------------------------------ */
/* Tracks and types                                                           */

CpelTrackOrder *
cpel_session_get_track_order (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->order;
}

const guint *
cpel_session_get_rows (CpelSession *self,
                       guint       *n_rows)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  g_return_val_if_fail (n_rows != NULL, NULL);
  if (self->order == NULL)
    {
      *n_rows = 0;
      return NULL;
    }
  return cpel_track_order_get_rows (self->order, n_rows);
}

int
cpel_session_get_slot_row (CpelSession *self,
                           guint        slot)
{
  const guint *rows;
  guint n;

  g_return_val_if_fail (CPEL_IS_SESSION (self), -1);
  rows = cpel_session_get_rows (self, &n);
  if (rows == NULL)
    return slot < n ? (int) slot : -1;
  for (guint i = 0; i < n; i++)
    if (rows[i] == slot)
      return (int) i;
  return -1;
}

gboolean
cpel_session_event_hidden (CpelSession *self,
                           guint        slot,
                           guint64      index)
{
  guint32 code;
  guint type;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  if (self->hidden_types == NULL || self->file == NULL)
    return FALSE;
  code = cpel_file_get_track_event_code (self->file, slot, index);
  if (!cpel_file_lookup_type (self->file, code, &type))
    return FALSE;
  return self->hidden_types[type] != 0;
}

void
cpel_session_set_hidden_types (CpelSession  *self,
                               const guint8 *hidden)
{
  guint n_types;
  gboolean any = FALSE;

  g_return_if_fail (CPEL_IS_SESSION (self));
  if (self->file == NULL)
    return;

  n_types = cpel_file_get_n_types (self->file);
  if (hidden != NULL)
    for (guint i = 0; i < n_types && !any; i++)
      any = hidden[i] != 0;
  if (!any && self->hidden_types == NULL)
    return;
  if (any && self->hidden_types != NULL && memcmp (hidden, self->hidden_types, n_types) == 0)
    return;
  g_clear_pointer (&self->hidden_types, g_free);
  if (any)
    self->hidden_types = g_memdup2 (hidden, n_types);

  /* A hidden selection is no selection. */
  if (self->has_selection
      && cpel_session_event_hidden (self, self->selected_slot, self->selected_index))
    cpel_session_unselect (self);
  g_signal_emit (self, signals[TYPES_CHANGED], 0);
}

const guint8 *
cpel_session_get_hidden_types (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->hidden_types;
}

void
cpel_session_set_type_hidden (CpelSession *self,
                              guint        type,
                              gboolean     hidden)
{
  guint n_types;
  g_autofree guint8 *flags = NULL;

  g_return_if_fail (CPEL_IS_SESSION (self));
  if (self->file == NULL)
    return;
  n_types = cpel_file_get_n_types (self->file);
  g_return_if_fail (type < n_types);
  flags = self->hidden_types != NULL ? g_memdup2 (self->hidden_types, n_types)
                                     : g_malloc0 (n_types);
  flags[type] = hidden ? 1 : 0;
  cpel_session_set_hidden_types (self, flags);
}

gboolean
cpel_session_get_type_hidden (CpelSession *self,
                              guint        type)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  if (self->hidden_types == NULL || self->file == NULL
      || type >= cpel_file_get_n_types (self->file))
    return FALSE;
  return self->hidden_types[type] != 0;
}

/* ------------------------------------------------------------------------ */
/* Selection                                                                  */

static gboolean
event_exists (CpelSession *self,
              guint        slot,
              guint64      index)
{
  return self->file != NULL && slot < cpel_file_get_n_tracks (self->file)
         && index < cpel_file_get_track_n_events (self->file, slot);
}

gboolean
cpel_session_get_selection (CpelSession *self,
                            guint       *slot,
                            guint64     *index)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  if (self->file == NULL || !self->has_selection)
    return FALSE;
  if (slot != NULL)
    *slot = self->selected_slot;
  if (index != NULL)
    *index = self->selected_index;
  return TRUE;
}

void
cpel_session_reveal_event (CpelSession *self,
                           guint        slot,
                           guint64      index)
{
  CpelEvent event;
  CpelRange range;

  g_return_if_fail (CPEL_IS_SESSION (self));
  if (!event_exists (self, slot, index))
    return;
  cpel_file_get_track_event (self->file, slot, index, &event);
  range = self->range;
  cpel_range_center (&range, event.time_ns, &self->limits);
  cpel_session_set_range (self, &range, CPEL_SESSION_STEP);
  cpel_session_reveal_track (self, slot, TRUE);
}

gboolean
cpel_session_reveal_track (CpelSession *self,
                           guint        slot,
                           gboolean     centre)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  if (self->file == NULL || slot >= cpel_file_get_n_tracks (self->file)
      || cpel_session_get_slot_row (self, slot) < 0)
    return FALSE;
  g_signal_emit (self, signals[REVEAL_TRACK], 0, slot, !!centre);
  return TRUE;
}

void
cpel_session_show_track (CpelSession *self,
                         guint        slot)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (self->order == NULL || slot >= cpel_track_order_get_n (self->order))
    return;
  if (cpel_track_order_get_hidden (self->order, slot))
    cpel_track_order_set_hidden (self->order, slot, FALSE);
  cpel_session_reveal_track (self, slot, TRUE);
}

void
cpel_session_select (CpelSession *self,
                     guint        slot,
                     guint64      index,
                     gboolean     reveal)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (!event_exists (self, slot, index))
    return;

  if (reveal)
    {
      CpelEvent event;

      cpel_file_get_track_event (self->file, slot, index, &event);
      if (event.time_ns < self->range.t0 || event.time_ns >= self->range.t1
          || cpel_session_get_slot_row (self, slot) < 0)
        cpel_session_reveal_event (self, slot, index);
      else
        cpel_session_reveal_track (self, slot, FALSE);
    }

  if (self->has_selection && self->selected_slot == slot && self->selected_index == index)
    return;
  self->has_span_selection = FALSE;
  self->selected_slot = slot;
  self->selected_index = index;
  set_has_selection (self, TRUE);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
cpel_session_unselect (CpelSession *self)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (!self->has_selection && !self->has_span_selection)
    return;
  self->has_span_selection = FALSE;
  set_has_selection (self, FALSE);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

/* ------------------------------------------------------------------------ */
/* Spans                                                                      */

typedef struct
{
  CpelFile      *file;
  CpelSpanRules *rules;
} DeriveData;

static void
derive_data_free (gpointer data)
{
  DeriveData *d = data;

  g_clear_object (&d->file);
  g_clear_pointer (&d->rules, cpel_span_rules_unref);
  g_free (d);
}

static void
derive_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  DeriveData *d = task_data;
  GError *error = NULL;
  CpelSpans *spans = cpel_spans_derive (d->file, d->rules, NULL, cancellable, &error);

  if (spans == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, spans, (GDestroyNotify) cpel_spans_free);
}

/* The task holds no reference to the session (a window closed while its
 * spans are derived goes at once): the callback gets a weak one. */
static void
derive_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(CpelSession) self = g_weak_ref_get (weak);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(GError) error = NULL;
  CpelSpans *spans = g_task_propagate_pointer (G_TASK (result), &error);

  g_weak_ref_clear (weak);
  g_free (weak);
  /* A derivation cancelled (another file or rules since, or the session
   * gone) is forgotten: its successor has started already. */
  if (self != NULL && self->compare_spans_cancel != NULL
      && cancellable == self->compare_spans_cancel)
    {
      g_clear_object (&self->compare_spans_cancel);
      if (spans == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not derive the compared capture's spans: %s", error->message);
      self->compare_spans = spans;
      if (spans != NULL)
        notify (self, PROP_COMPARE_SPANS);
      return;
    }
  if (self == NULL || cancellable != self->spans_cancel)
    {
      g_clear_pointer (&spans, cpel_spans_free);
      return;
    }
  g_clear_object (&self->spans_cancel);
  if (spans == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Could not derive the spans: %s", error->message);
  g_object_freeze_notify (G_OBJECT (self));
  self->spans = spans;
  span_matches_clear (self);
  if (spans != NULL)
    notify (self, PROP_SPANS);
  notify (self, PROP_SPANS_PENDING);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Derive `file`'s spans by `rules` in a worker; returns its cancellable
 * (derive_done tells the derivations apart by it). */
static GCancellable *
start_derive (CpelSession   *self,
              CpelFile      *file,
              CpelSpanRules *rules)
{
  g_autoptr(GTask) task = NULL;
  GWeakRef *weak = g_new0 (GWeakRef, 1);
  GCancellable *cancellable = g_cancellable_new ();
  DeriveData *d;

  g_weak_ref_init (weak, self);
  task = g_task_new (NULL, cancellable, derive_done, weak);
  g_task_set_source_tag (task, start_derive);
  d = g_new0 (DeriveData, 1);
  d->file = g_object_ref (file);
  d->rules = cpel_span_rules_ref (rules);
  g_task_set_task_data (task, d, derive_data_free);
  g_task_set_return_on_cancel (task, FALSE);
  cpel_background_run (task, derive_thread);
  return cancellable;
}

/* The same for the compare file and its rules (no selection to drop). */
static void
compare_spans_restart (CpelSession *self)
{
  gboolean had_spans = self->compare_spans != NULL;

  if (self->compare_spans_cancel != NULL)
    g_cancellable_cancel (self->compare_spans_cancel);
  g_clear_object (&self->compare_spans_cancel);
  g_clear_pointer (&self->compare_spans, cpel_spans_free);
  if (self->compare_file != NULL && self->compare_span_rules != NULL)
    self->compare_spans_cancel = start_derive (self, self->compare_file,
                                               self->compare_span_rules);
  if (had_spans)
    notify (self, PROP_COMPARE_SPANS);
}

void
cpel_session_set_compare_span_rules (CpelSession   *self,
                                     CpelSpanRules *rules)
{
  g_return_if_fail (CPEL_IS_SESSION (self));

  if (self->compare_span_rules == rules)
    return;
  if (rules != NULL)
    cpel_span_rules_ref (rules);
  g_clear_pointer (&self->compare_span_rules, cpel_span_rules_unref);
  self->compare_span_rules = rules;
  g_object_freeze_notify (G_OBJECT (self));
  notify (self, PROP_COMPARE_SPAN_RULES);
  compare_spans_restart (self);
  g_object_thaw_notify (G_OBJECT (self));
}

CpelSpanRules *
cpel_session_get_compare_span_rules (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->compare_span_rules;
}

CpelSpans *
cpel_session_get_compare_spans (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->compare_spans;
}

CpelSpans *
cpel_session_get_spans_for (CpelSession *self,
                            CpelFile    *file)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  if (file == NULL)
    return NULL;
  if (file == self->file)
    return self->spans;
  if (file == self->compare_file)
    return self->compare_spans;
  return NULL;
}

/* Drop the spans (and the selected span), cancel a derivation and start
 * one for the current file and rules. */
static void
spans_restart (CpelSession *self)
{
  gboolean had_spans = self->spans != NULL;
  gboolean was_pending = self->spans_cancel != NULL;
  gboolean had_span_selection = self->has_span_selection;

  if (self->spans_cancel != NULL)
    g_cancellable_cancel (self->spans_cancel);
  g_clear_object (&self->spans_cancel);
  g_clear_pointer (&self->spans, cpel_spans_free);
  span_matches_clear (self);
  self->has_span_selection = FALSE;

  if (self->file != NULL && self->span_rules != NULL)
    self->spans_cancel = start_derive (self, self->file, self->span_rules);

  if (had_spans)
    notify (self, PROP_SPANS);
  if (was_pending != (self->spans_cancel != NULL))
    notify (self, PROP_SPANS_PENDING);
  if (had_span_selection)
    g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
cpel_session_set_span_rules (CpelSession   *self,
                             CpelSpanRules *rules)
{
  g_return_if_fail (CPEL_IS_SESSION (self));

  if (self->span_rules == rules)
    return;
  if (rules != NULL)
    cpel_span_rules_ref (rules);
  g_clear_pointer (&self->span_rules, cpel_span_rules_unref);
  self->span_rules = rules;
  g_object_freeze_notify (G_OBJECT (self));
  notify (self, PROP_SPAN_RULES);
  spans_restart (self);
  g_object_thaw_notify (G_OBJECT (self));
}

void
cpel_session_set_labels (CpelSession *self,
                         CpelLabels  *labels)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (labels != NULL);
  g_return_if_fail (self->file != NULL && cpel_labels_get_file (labels) == self->file);

  if (self->labels == labels)
    return;
  cpel_labels_ref (labels);
  g_clear_pointer (&self->labels, cpel_labels_unref);
  self->labels = labels;
  notify (self, PROP_LABELS);
}

CpelLabels *
cpel_session_get_labels (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->labels;
}

CpelSpanRules *
cpel_session_get_span_rules (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->span_rules;
}

CpelSpans *
cpel_session_get_spans (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->spans;
}

gboolean
cpel_session_get_spans_pending (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->spans_cancel != NULL;
}

void
cpel_session_set_show_spans (CpelSession *self,
                             gboolean     show)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  show = !!show;
  if (self->show_spans == show)
    return;
  self->show_spans = show;
  notify (self, PROP_SHOW_SPANS);
}

gboolean
cpel_session_get_show_spans (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->show_spans;
}

void
cpel_session_set_span_filter (CpelSession          *self,
                              const CpelSpanFilter *filter)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (cpel_span_filter_equal (filter, self->span_filter))
    return;
  g_clear_pointer (&self->span_filter, cpel_span_filter_free);
  if (filter != NULL)
    self->span_filter = cpel_span_filter_copy (filter);
  span_matches_clear (self);
  notify (self, PROP_SPAN_FILTER);
}

static void
span_matches_clear (CpelSession *self)
{
  g_clear_pointer (&self->span_matches, g_array_unref);
}

static int
span_match_cmp (gconstpointer a,
                gconstpointer b)
{
  const CpelSessionSpanMatch *x = a, *y = b;

  if (x->begin_ns != y->begin_ns)
    return x->begin_ns < y->begin_ns ? -1 : 1;
  if (x->slot != y->slot)
    return x->slot < y->slot ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

const CpelSessionSpanMatch *
cpel_session_get_span_matches (CpelSession *self,
                               guint64     *n)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  g_return_val_if_fail (n != NULL, NULL);

  *n = 0;
  if (self->span_filter == NULL || self->spans == NULL || self->file == NULL)
    return NULL;
  if (self->span_matches == NULL)
    {
      guint n_names = cpel_spans_get_n_names (self->spans);
      g_autofree guint8 *wanted = g_new0 (guint8, MAX (n_names, 1));
      guint n_tracks = cpel_file_get_n_tracks (self->file);

      for (guint i = 0; i < n_names; i++)
        wanted[i] = cpel_span_filter_match_name (self->span_filter,
                                                 cpel_spans_get_name (self->spans, i));
      self->span_matches = g_array_new (FALSE, FALSE, sizeof (CpelSessionSpanMatch));
      for (guint slot = 0; slot < n_tracks; slot++)
        {
          guint64 count = 0;
          const CpelSpan *a = cpel_spans_get_track_spans (self->spans, slot, &count);

          for (guint64 i = 0; a != NULL && i < count; i++)
            {
              CpelSessionSpanMatch m;
              gint64 e, d;

              if ((a[i].flags & (CPEL_SPAN_ORPHAN | CPEL_SPAN_STATE)) != 0
                  || a[i].name >= n_names || !wanted[a[i].name])
                continue;
              m.begin_ns = cpel_spans_begin_ns (self->spans, slot, &a[i]);
              e = cpel_spans_end_ns (self->spans, slot, &a[i]);
              d = e - m.begin_ns;
              if (d < self->span_filter->min_ns || d > self->span_filter->max_ns
                  || m.begin_ns < self->span_filter->from_ns
                  || m.begin_ns > self->span_filter->to_ns)
                continue;
              m.slot = slot;
              m.index = i;
              g_array_append_val (self->span_matches, m);
            }
        }
      g_array_sort (self->span_matches, span_match_cmp);
    }
  *n = self->span_matches->len;
  return *n > 0 ? (const CpelSessionSpanMatch *) (gpointer) self->span_matches->data : NULL;
}

/* The first match not before `key` (n when none). */
static guint64
span_match_lower_bound (const CpelSessionSpanMatch *m,
                        guint64                     n,
                        const CpelSessionSpanMatch *key)
{
  guint64 lo = 0, hi = n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (span_match_cmp (&m[mid], key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gint64
cpel_session_get_span_match_position (CpelSession *self)
{
  const CpelSessionSpanMatch *m;
  CpelSessionSpanMatch key;
  const CpelSpan *span;
  guint64 n = 0, k;

  g_return_val_if_fail (CPEL_IS_SESSION (self), -1);
  m = cpel_session_get_span_matches (self, &n);
  if (m == NULL || !self->has_span_selection || self->selected_span.state)
    return -1;
  span = cpel_session_get_span (self, &self->selected_span);
  if (span == NULL)
    return -1;
  key.begin_ns = cpel_spans_begin_ns (self->spans, self->selected_span.slot, span);
  key.slot = self->selected_span.slot;
  key.index = self->selected_span.index;
  k = span_match_lower_bound (m, n, &key);
  return k < n && span_match_cmp (&m[k], &key) == 0 ? (gint64) k : -1;
}

gboolean
cpel_session_step_span_match (CpelSession *self,
                              int          direction)
{
  const CpelSessionSpanMatch *m;
  CpelSessionSpanMatch key = { 0 };
  CpelSessionSpanRef ref = { 0 };
  const CpelSpan *span;
  guint64 n = 0, k;
  gint64 pos;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  m = cpel_session_get_span_matches (self, &n);
  if (m == NULL)
    return FALSE;
  pos = cpel_session_get_span_match_position (self);
  if (pos >= 0)
    k = direction < 0 ? (pos > 0 ? (guint64) pos - 1 : n - 1) : ((guint64) pos + 1) % n;
  else
    {
      span = self->has_span_selection ? cpel_session_get_span (self, &self->selected_span)
                                      : NULL;
      if (span != NULL)
        {
          key.begin_ns = cpel_spans_begin_ns (self->spans, self->selected_span.slot, span);
          key.slot = self->selected_span.slot;
          key.index = self->selected_span.index;
        }
      else
        {
          key.begin_ns = self->range.t0 + (self->range.t1 - self->range.t0) / 2;
          key.slot = 0;
          key.index = 0;
        }
      /* the first after the key (the key itself is no match), or the last before */
      k = span_match_lower_bound (m, n, &key);
      if (direction < 0)
        k = k > 0 ? k - 1 : n - 1;
      else if (k >= n)
        k = 0;
    }
  ref.slot = m[k].slot;
  ref.state = FALSE;
  ref.index = m[k].index;
  cpel_session_go_to_span (self, &ref);
  return TRUE;
}

const CpelSpanFilter *
cpel_session_get_span_filter (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->span_filter;
}

void
cpel_session_go_to_span (CpelSession              *self,
                         const CpelSessionSpanRef *ref)
{
  const CpelSpan *span;
  CpelRange range;
  gint64 b, e;

  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (ref != NULL);
  span = cpel_session_get_span (self, ref);
  if (span == NULL)
    return;
  b = cpel_spans_begin_ns (self->spans, ref->slot, span);
  e = cpel_spans_end_ns (self->spans, ref->slot, span);
  cpel_session_select_span (self, ref);
  range = self->range;
  if (range.t1 - range.t0 < (e - b) * 2)
    {
      range.t0 = b - MAX ((e - b) / 2, 1);
      range.t1 = e + MAX ((e - b) / 2, 1);
    }
  cpel_range_center (&range, b + (e - b) / 2, &self->limits);
  cpel_session_set_range (self, &range, CPEL_SESSION_STEP);
  cpel_session_reveal_track (self, ref->slot, TRUE);
}

gboolean
cpel_session_find_span (CpelSession        *self,
                        guint               slot,
                        guint32             begin,
                        gint64              begin_ns,
                        const char         *name,
                        CpelSessionSpanRef *ref)
{
  const CpelSpan *list;
  guint64 n = 0;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (ref != NULL, FALSE);
  if (self->spans == NULL || self->file == NULL || slot >= cpel_file_get_n_tracks (self->file))
    return FALSE;
  list = cpel_spans_get_track_spans (self->spans, slot, &n);
  for (guint64 i = cpel_spans_track_lower_bound (self->spans, slot, begin_ns); i < n; i++)
    {
      if (cpel_spans_begin_ns (self->spans, slot, &list[i]) > begin_ns)
        break;
      if (list[i].begin != begin || (list[i].flags & CPEL_SPAN_ORPHAN) != 0
          || g_strcmp0 (cpel_spans_get_name (self->spans, list[i].name), name) != 0)
        continue;
      ref->slot = slot;
      ref->state = FALSE;
      ref->index = i;
      return TRUE;
    }
  return FALSE;
}

const CpelSpan *
cpel_session_get_span (CpelSession              *self,
                       const CpelSessionSpanRef *ref)
{
  const CpelSpan *a;
  guint64 n = 0;

  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  g_return_val_if_fail (ref != NULL, NULL);
  if (self->spans == NULL || self->file == NULL
      || ref->slot >= cpel_file_get_n_tracks (self->file))
    return NULL;
  a = ref->state ? cpel_spans_get_track_states (self->spans, ref->slot, &n)
                 : cpel_spans_get_track_spans (self->spans, ref->slot, &n);
  return a != NULL && ref->index < n ? &a[ref->index] : NULL;
}

void
cpel_session_select_span (CpelSession              *self,
                          const CpelSessionSpanRef *ref)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (ref != NULL);
  if (cpel_session_get_span (self, ref) == NULL)
    return;
  if (self->has_span_selection && self->selected_span.slot == ref->slot
      && self->selected_span.state == !!ref->state && self->selected_span.index == ref->index)
    return;
  self->has_span_selection = TRUE;
  self->selected_span = *ref;
  self->selected_span.state = !!ref->state;
  set_has_selection (self, FALSE);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

gboolean
cpel_session_step_span (CpelSession *self,
                        int          direction)
{
  CpelSessionSpanRef ref;
  const CpelSpan *span;
  gint64 t;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  if (!self->has_span_selection)
    return FALSE;
  ref = self->selected_span;
  if (direction < 0 ? ref.index == 0 : ref.index == G_MAXUINT64)
    return FALSE;
  ref.index = direction < 0 ? ref.index - 1 : ref.index + 1;
  span = cpel_session_get_span (self, &ref);
  if (span == NULL)
    return FALSE;
  /* its begin centred when it is not in the range, its track in view */
  t = cpel_spans_begin_ns (self->spans, ref.slot, span);
  if (t < self->range.t0 || t >= self->range.t1)
    {
      CpelRange range = self->range;

      cpel_range_center (&range, t, &self->limits);
      cpel_session_set_range (self, &range, CPEL_SESSION_STEP);
    }
  cpel_session_reveal_track (self, ref.slot, FALSE);
  cpel_session_select_span (self, &ref);
  return TRUE;
}

const CpelSpan *
cpel_session_get_span_selection (CpelSession        *self,
                                 CpelSessionSpanRef *ref)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  if (!self->has_span_selection)
    return NULL;
  if (ref != NULL)
    *ref = self->selected_span;
  return cpel_session_get_span (self, &self->selected_span);
}

/* ------------------------------------------------------------------------ */
/* Measure                                                                    */

void
cpel_session_set_measure (CpelSession *self,
                          gint64       t0,
                          gint64       t1)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (self->file == NULL)
    return;
  if (self->has_measure && self->measure_t0 == t0 && self->measure_t1 == t1)
    return;
  self->has_measure = TRUE;
  self->measure_t0 = t0;
  self->measure_t1 = t1;
  notify (self, PROP_MEASURE);
}

void
cpel_session_clear_measure (CpelSession *self)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (!self->has_measure)
    return;
  self->has_measure = FALSE;
  notify (self, PROP_MEASURE);
}

gboolean
cpel_session_get_measure (CpelSession *self,
                          gint64      *t0,
                          gint64      *t1)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  if (self->file == NULL || !self->has_measure)
    return FALSE;
  if (t0 != NULL)
    *t0 = MIN (self->measure_t0, self->measure_t1);
  if (t1 != NULL)
    *t1 = MAX (self->measure_t0, self->measure_t1);
  return TRUE;
}

gboolean
cpel_session_get_measure_raw (CpelSession *self,
                              gint64      *anchor,
                              gint64      *end)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  if (self->file == NULL || !self->has_measure)
    return FALSE;
  if (anchor != NULL)
    *anchor = self->measure_t0;
  if (end != NULL)
    *end = self->measure_t1;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Chase                                                                      */

void
cpel_session_begin_chase (CpelSession *self)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (self->order == NULL || self->chase_saved != NULL)
    return;
  self->chase_saved = cpel_track_order_copy (self->order);
  notify (self, PROP_CHASING);
}

gboolean
cpel_session_end_chase (CpelSession *self)
{
  g_autoptr(CpelTrackOrder) saved = NULL;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  if (self->chase_saved == NULL)
    return FALSE;
  saved = g_steal_pointer (&self->chase_saved);
  cpel_track_order_assign (self->order, saved);
  notify (self, PROP_CHASING);
  return TRUE;
}

gboolean
cpel_session_get_chasing (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->chase_saved != NULL;
}

void
cpel_session_chase_rows (CpelSession *self,
                         const guint *slots,
                         guint        n_slots)
{
  g_autofree guint8 *wanted = NULL;
  g_autofree guint *rows = NULL;
  const guint *saved_rows;
  guint n_tracks, n_saved, n = 0;

  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (slots != NULL || n_slots == 0);
  if (self->order == NULL)
    return;

  cpel_session_begin_chase (self);
  n_tracks = cpel_track_order_get_n (self->chase_saved);
  wanted = g_malloc0 (MAX (n_tracks, 1));
  for (guint i = 0; i < n_slots; i++)
    if (slots[i] < n_tracks)
      wanted[slots[i]] = 1;
  rows = g_new (guint, MAX (n_tracks, 1));

  /* The tracks shown before first (pinned on top), then the ones the chase
   * brings back, in the full order. */
  saved_rows = cpel_track_order_get_rows (self->chase_saved, &n_saved);
  for (guint r = 0; r < n_saved; r++)
    {
      guint slot = saved_rows != NULL ? saved_rows[r] : r;

      if (slot < n_tracks && wanted[slot] == 1)
        {
          rows[n++] = slot;
          wanted[slot] = 2;
        }
    }
  for (guint p = 0; p < n_tracks; p++)
    {
      guint slot = cpel_track_order_get_slot (self->chase_saved, p);

      if (wanted[slot] == 1)
        rows[n++] = slot;
    }
  cpel_track_order_set_rows (self->order, rows, n);
}

void
cpel_session_chase_track (CpelSession *self,
                          guint        slot)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (self->order == NULL || slot >= cpel_track_order_get_n (self->order))
    return;
  cpel_session_begin_chase (self);
  cpel_track_order_set_hidden (self->order, slot, FALSE);
  cpel_track_order_set_pinned (self->order, slot, TRUE);
  cpel_track_order_raise (self->order, slot, TRUE);
}

/* ------------------------------------------------------------------------ */
/* Modes                                                                      */

CpelColorMode
cpel_session_get_color_mode (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), CPEL_COLOR_BY_CODE);
  return self->color_mode;
}

void
cpel_session_set_color_mode (CpelSession   *self,
                             CpelColorMode  mode)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (mode <= CPEL_COLOR_NONE);
  if (self->color_mode == mode)
    return;
  self->color_mode = mode;
  notify (self, PROP_COLOR_MODE);
}

gboolean
cpel_session_get_summary (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->summary;
}

void
cpel_session_set_summary (CpelSession *self,
                          gboolean     summary)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  summary = !!summary;
  if (self->summary == summary)
    return;
  self->summary = summary;
  notify (self, PROP_SUMMARY);
}

gboolean
cpel_session_get_capture_clock (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->capture_clock;
}

void
cpel_session_set_capture_clock (CpelSession *self,
                                gboolean     capture_clock)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  capture_clock = !!capture_clock;
  if (self->capture_clock == capture_clock)
    return;
  self->capture_clock = capture_clock;
  notify (self, PROP_CAPTURE_CLOCK);
}

gboolean
cpel_session_has_capture_clock (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  return self->file != NULL && cpel_file_get_clock_origin (self->file, NULL) != CPEL_CLOCK_NONE;
}

CpelClockKind
cpel_session_get_time_clock (CpelSession *self,
                             gint64      *origin_ns)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), CPEL_CLOCK_NONE);
  if (origin_ns != NULL)
    *origin_ns = 0;
  if (!self->capture_clock || self->file == NULL)
    return CPEL_CLOCK_NONE;
  return cpel_file_get_clock_origin (self->file, origin_ns);
}

/* ------------------------------------------------------------------------ */
/* Statistics                                                                 */

gboolean
cpel_session_get_stats_scope (CpelSession      *self,
                              CpelStatsOptions *options)
{
  const guint *rows;
  guint n_rows;
  gint64 m0, m1;
  gboolean measured;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  if (self->file == NULL)
    return FALSE;

  measured = cpel_session_get_measure (self, &m0, &m1);
  if (measured)
    {
      options->t0 = m0;
      options->t1 = m1 < G_MAXINT64 ? m1 + 1 : G_MAXINT64;
    }
  else
    {
      options->t0 = self->range.t0;
      options->t1 = self->range.t1;
    }
  rows = cpel_track_order_get_rows (self->order, &n_rows);
  options->slots = rows;
  options->n_slots = rows != NULL ? n_rows : 0;
  options->hidden_types = self->hidden_types;
  return measured;
}

/* ------------------------------------------------------------------------ */
/* Anomalies                                                                  */

void
cpel_session_go_to_anomaly (CpelSession       *self,
                            CpelAnomalyResult *result,
                            guint64            position)
{
  const CpelAnomaly *anomaly;

  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (result != NULL);
  g_return_if_fail (position < cpel_anomaly_result_get_n (result));

  anomaly = cpel_anomaly_result_get (result, position);
  cpel_session_select (self, anomaly->ref.slot, anomaly->ref.index, FALSE);
  cpel_session_reveal_event (self, anomaly->ref.slot, anomaly->ref.index);
  if (cpel_anomaly_result_get_metric (result) == CPEL_ANOMALY_INTERVAL
      && anomaly->value >= 1 && anomaly->value < (double) G_MAXINT64 / 4)
    {
      gint64 interval = (gint64) anomaly->value;
      gint64 span = cpel_range_span (&self->range);

      if (span > 8 * interval || span < interval + interval / 4)
        {
          CpelRange range = { anomaly->time_ns - interval - interval / 2,
                              anomaly->time_ns + interval / 2 };

          cpel_session_set_range (self, &range, CPEL_SESSION_STEP);
        }
    }
  /* a span's duration: the span whole, from its begin event on */
  if (cpel_anomaly_result_get_metric (result) == CPEL_ANOMALY_DURATION
      && anomaly->value >= 1 && anomaly->value < (double) G_MAXINT64 / 4)
    {
      gint64 d = (gint64) anomaly->value;
      gint64 span = cpel_range_span (&self->range);

      if (span > 8 * d || span < d + d / 4 || anomaly->time_ns < self->range.t0
          || anomaly->time_ns + d > self->range.t1)
        {
          CpelRange range = { anomaly->time_ns - d / 2, anomaly->time_ns + d + d / 2 };

          cpel_session_set_range (self, &range, CPEL_SESSION_STEP);
        }
    }
}

gboolean
cpel_session_find_anomaly (CpelSession       *self,
                           CpelAnomalyResult *result,
                           int                direction,
                           guint64           *position)
{
  guint64 n, i = 0;
  guint slot;
  guint64 index;
  gboolean found;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (position != NULL, FALSE);

  n = result != NULL ? cpel_anomaly_result_get_n (result) : 0;
  if (n == 0 || self->file == NULL)
    return FALSE;

  if (cpel_session_get_selection (self, &slot, &index))
    {
      CpelEvent event;

      cpel_file_get_track_event (self->file, slot, index, &event);
      found = direction > 0
              ? cpel_anomaly_result_next (result, event.time_ns, event.file_index, &i)
              : cpel_anomaly_result_prev (result, event.time_ns, event.file_index, &i);
    }
  else
    {
      gint64 t0 = self->range.t0;

      /* From the visible range: the first anomaly in view, or the last one
       * before its end. */
      found = direction > 0 ? cpel_anomaly_result_next (result, t0 > G_MININT64 ? t0 - 1 : t0,
                                                        G_MAXUINT64, &i)
                            : cpel_anomaly_result_prev (result, self->range.t1, 0, &i);
    }
  /* Wrap around. */
  if (!found)
    i = direction > 0 ? 0 : n - 1;
  *position = i;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Search                                                                     */

void
cpel_session_set_matches (CpelSession      *self,
                          CpelSearchResult *matches)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  if (self->matches == matches)
    return;
  if (matches != NULL)
    cpel_search_result_ref (matches);
  g_clear_pointer (&self->matches, cpel_search_result_unref);
  self->matches = matches;
  g_signal_emit (self, signals[MATCHES_CHANGED], 0);
}

CpelSearchResult *
cpel_session_get_matches (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->matches;
}

guint8 *
cpel_session_dup_hidden_slots (CpelSession *self)
{
  guint n_tracks, n_rows;
  const guint *rows;
  guint8 *hidden;

  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  if (self->file == NULL)
    return NULL;
  n_tracks = cpel_file_get_n_tracks (self->file);
  rows = cpel_track_order_get_rows (self->order, &n_rows);
  if (rows == NULL || n_rows >= n_tracks)
    return NULL;
  hidden = g_malloc (MAX (n_tracks, 1));
  memset (hidden, 1, n_tracks);
  for (guint r = 0; r < n_rows; r++)
    if (rows[r] < n_tracks)
      hidden[rows[r]] = 0;
  return hidden;
}

static gboolean
ref_equal (const CpelEventRef *ref,
           guint               slot,
           guint64             index)
{
  return ref->slot == slot && ref->index == index;
}

gboolean
cpel_session_find_match (CpelSession      *self,
                         CpelSearchResult *matches,
                         int               direction,
                         gint64            current,
                         guint64          *position)
{
  guint64 n, index;
  gint64 pos;
  guint slot;

  g_return_val_if_fail (CPEL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (position != NULL, FALSE);

  n = matches != NULL ? cpel_search_result_get_n (matches) : 0;
  if (self->file == NULL || n == 0)
    return FALSE;
  direction = direction >= 0 ? 1 : -1;

  if (cpel_session_get_selection (self, &slot, &index))
    {
      if (current >= 0 && (guint64) current < n
          && ref_equal (cpel_search_result_get (matches, (guint64) current), slot, index))
        pos = current + direction;
      else
        {
          CpelEvent event;

          /* From the selected event. */
          cpel_file_get_track_event (self->file, slot, index, &event);
          pos = (gint64) cpel_search_result_find_next (matches, self->file,
                                                       event.time_ns, event.file_index);
          if (direction > 0)
            {
              if ((guint64) pos < n
                  && ref_equal (cpel_search_result_get (matches, (guint64) pos), slot, index))
                pos++;
            }
          else
            pos--;
        }
    }
  /* From the visible range: the first match in view, or the last one
   * before its end. */
  else if (direction > 0)
    pos = (gint64) cpel_search_result_find_next (matches, self->file, self->range.t0, 0);
  else
    pos = (gint64) cpel_search_result_find_next (matches, self->file, self->range.t1, 0) - 1;

  /* Wrap around. */
  if (pos < 0)
    pos = (gint64) n - 1;
  else if ((guint64) pos >= n)
    pos = 0;
  *position = (guint64) pos;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Saved views                                                                */

CpelSavedView *
cpel_session_capture_view (CpelSession *self,
                           const char  *name)
{
  CpelFile *file;
  CpelSavedView *view;
  const guint *rows;
  guint n_rows, slot;
  guint64 index;

  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL && *name != '\0', NULL);

  file = self->file;
  if (file == NULL)
    return NULL;

  view = cpel_saved_view_new (name);
  view->t0 = self->range.t0;
  view->t1 = self->range.t1;

  /* The rows exactly; every track in file order is kept as "every track". */
  rows = cpel_track_order_get_rows (self->order, &n_rows);
  cpel_saved_view_set_rows (view, file, rows, rows != NULL ? n_rows : 0);
  if (rows != NULL)
    {
      guint n_tracks = cpel_file_get_n_tracks (file);
      g_autofree guint8 *shown = g_malloc0 (MAX (n_tracks, 1));

      for (guint r = 0; r < n_rows; r++)
        shown[rows[r]] = 1;
      for (guint s = 0; s < n_tracks; s++)
        if (!shown[s])
          {
            guint32 id = cpel_file_get_track_id (file, s);

            g_array_append_val (view->hidden_tracks, id);
          }
    }

  cpel_saved_view_set_hidden_types (view, file, self->hidden_types);

  if (cpel_session_get_selection (self, &slot, &index))
    {
      CpelEvent event;

      cpel_file_get_track_event (file, slot, index, &event);
      view->has_selection = TRUE;
      view->selected_track = event.track_id;
      view->selected_time = event.time_ns;
      view->selected_file_index = event.file_index;
    }
  return view;
}

void
cpel_session_set_views (CpelSession *self,
                        CpelViews   *views)
{
  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (views == NULL || CPEL_IS_VIEWS (views));
  if (g_set_object (&self->views, views))
    notify (self, PROP_VIEWS);
}

CpelViews *
cpel_session_get_views (CpelSession *self)
{
  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  return self->views;
}

const CpelSavedView *
cpel_session_apply_saved_view (CpelSession *self,
                               const char  *name)
{
  const CpelSavedView *view;
  guint i;

  g_return_val_if_fail (CPEL_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  if (self->views == NULL || self->file == NULL || !cpel_views_lookup (self->views, name, &i))
    return NULL;
  cpel_views_set_current (self->views, (int) i);
  view = cpel_views_get_view (self->views, i);
  cpel_session_apply_view (self, view);
  return view;
}

void
cpel_session_apply_view (CpelSession         *self,
                         const CpelSavedView *view)
{
  CpelFile *file;
  g_autofree guint *rows = NULL;
  g_autofree guint8 *hidden_types = NULL;
  CpelRange range;
  guint n_rows, slot;
  guint64 index;

  g_return_if_fail (CPEL_IS_SESSION (self));
  g_return_if_fail (view != NULL);

  file = self->file;
  if (file == NULL)
    return;

  rows = cpel_saved_view_get_rows (view, file, &n_rows);
  if (rows != NULL)
    cpel_track_order_set_rows (self->order, rows, n_rows);
  else
    {
      cpel_track_order_reset (self->order);
      for (guint i = 0; view->hidden_tracks != NULL && i < view->hidden_tracks->len; i++)
        if (cpel_file_lookup_track (file, g_array_index (view->hidden_tracks, guint32, i), &slot))
          cpel_track_order_set_hidden (self->order, slot, TRUE);
    }

  /* Types before the selection: hiding a type drops a selection of it. */
  hidden_types = cpel_saved_view_get_hidden_types (view, file);
  cpel_session_set_hidden_types (self, hidden_types);
  range.t0 = view->t0;
  range.t1 = view->t1;
  cpel_session_set_range (self, &range, CPEL_SESSION_STEP);
  if (cpel_saved_view_find_selection (view, file, &slot, &index))
    cpel_session_select (self, slot, index, FALSE);
  else
    cpel_session_unselect (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                    */

static void
cpel_session_dispose (GObject *object)
{
  CpelSession *self = CPEL_SESSION (object);

  if (self->order != NULL)
    g_signal_handlers_disconnect_by_data (self->order, self);
  g_clear_object (&self->order);
  g_clear_object (&self->chase_saved);
  g_clear_pointer (&self->matches, cpel_search_result_unref);
  g_clear_object (&self->views);
  g_clear_object (&self->file);
  g_clear_object (&self->compare_file);
  if (self->spans_cancel != NULL)
    g_cancellable_cancel (self->spans_cancel);
  g_clear_object (&self->spans_cancel);
  g_clear_pointer (&self->spans, cpel_spans_free);
  span_matches_clear (self);
  g_clear_pointer (&self->span_rules, cpel_span_rules_unref);
  if (self->compare_spans_cancel != NULL)
    g_cancellable_cancel (self->compare_spans_cancel);
  g_clear_object (&self->compare_spans_cancel);
  g_clear_pointer (&self->compare_spans, cpel_spans_free);
  g_clear_pointer (&self->compare_span_rules, cpel_span_rules_unref);
  g_clear_pointer (&self->labels, cpel_labels_unref);

  G_OBJECT_CLASS (cpel_session_parent_class)->dispose (object);
}

static void
cpel_session_finalize (GObject *object)
{
  CpelSession *self = CPEL_SESSION (object);

  g_clear_pointer (&self->span_filter, cpel_span_filter_free);

  g_clear_pointer (&self->nav.steps, cpel_range_history_free);
  g_clear_pointer (&self->compare_nav.steps, cpel_range_history_free);
  g_clear_pointer (&self->hidden_types, g_free);

  G_OBJECT_CLASS (cpel_session_parent_class)->finalize (object);
}

static void
cpel_session_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  CpelSession *self = CPEL_SESSION (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_COMPARE_FILE:
      g_value_set_object (value, self->compare_file);
      break;
    case PROP_COMPARE_OFFSET:
      g_value_set_int64 (value, self->compare_offset);
      break;
    case PROP_COMPARE_ORIGIN:
      g_value_set_int64 (value, self->compare_origin);
      break;
    case PROP_COMPARE_PAIRED:
      g_value_set_boolean (value, self->compare_paired);
      break;
    case PROP_RANGE:
      g_value_set_boxed (value, &self->range);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, self->nav.can_back);
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, self->nav.can_forward);
      break;
    case PROP_TRACK_ORDER:
      g_value_set_object (value, self->order);
      break;
    case PROP_HAS_SELECTION:
      g_value_set_boolean (value, self->has_selection);
      break;
    case PROP_MEASURE:
      if (self->has_measure)
        {
          CpelRange measure;

          cpel_session_get_measure (self, &measure.t0, &measure.t1);
          g_value_set_boxed (value, &measure);
        }
      else
        g_value_set_boxed (value, NULL);
      break;
    case PROP_CHASING:
      g_value_set_boolean (value, self->chase_saved != NULL);
      break;
    case PROP_COLOR_MODE:
      g_value_set_enum (value, self->color_mode);
      break;
    case PROP_SUMMARY:
      g_value_set_boolean (value, self->summary);
      break;
    case PROP_CAPTURE_CLOCK:
      g_value_set_boolean (value, self->capture_clock);
      break;
    case PROP_HAS_CAPTURE_CLOCK:
      g_value_set_boolean (value, cpel_session_has_capture_clock (self));
      break;
    case PROP_VIEWS:
      g_value_set_object (value, self->views);
      break;
    case PROP_COMPARE_RANGE:
      g_value_set_boxed (value, &self->compare_range);
      break;
    case PROP_COMPARE_CAN_GO_BACK:
      g_value_set_boolean (value, self->compare_nav.can_back);
      break;
    case PROP_COMPARE_CAN_GO_FORWARD:
      g_value_set_boolean (value, self->compare_nav.can_forward);
      break;
    case PROP_COMPARE_MEASURE:
      g_value_set_boxed (value, cpel_session_get_compare_measure (self));
      break;
    case PROP_SPAN_RULES:
      g_value_set_pointer (value, self->span_rules);
      break;
    case PROP_SPANS:
      g_value_set_pointer (value, self->spans);
      break;
    case PROP_SPANS_PENDING:
      g_value_set_boolean (value, self->spans_cancel != NULL);
      break;
    case PROP_SHOW_SPANS:
      g_value_set_boolean (value, self->show_spans);
      break;
    case PROP_SPAN_FILTER:
      g_value_set_pointer (value, self->span_filter);
      break;
    case PROP_COMPARE_SPAN_RULES:
      g_value_set_pointer (value, self->compare_span_rules);
      break;
    case PROP_COMPARE_SPANS:
      g_value_set_pointer (value, self->compare_spans);
      break;
    case PROP_LABELS:
      g_value_set_pointer (value, self->labels);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_session_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  CpelSession *self = CPEL_SESSION (object);

  switch (prop_id)
    {
    case PROP_FILE:
      cpel_session_set_file (self, g_value_get_object (value));
      break;
    case PROP_COMPARE_FILE:
      cpel_session_set_compare_file (self, g_value_get_object (value));
      break;
    case PROP_COMPARE_OFFSET:
      cpel_session_set_compare_offset (self, g_value_get_int64 (value));
      break;
    case PROP_COMPARE_ORIGIN:
      cpel_session_set_compare_alignment (self, self->compare_offset,
                                          g_value_get_int64 (value));
      break;
    case PROP_COMPARE_PAIRED:
      cpel_session_set_compare_paired (self, g_value_get_boolean (value));
      break;
    case PROP_RANGE:
      {
        const CpelRange *range = g_value_get_boxed (value);

        if (range != NULL)
          cpel_session_set_range (self, range, CPEL_SESSION_STEP);
      }
      break;
    case PROP_MEASURE:
      {
        const CpelRange *measure = g_value_get_boxed (value);

        if (measure != NULL)
          cpel_session_set_measure (self, measure->t0, measure->t1);
        else
          cpel_session_clear_measure (self);
      }
      break;
    case PROP_COLOR_MODE:
      cpel_session_set_color_mode (self, g_value_get_enum (value));
      break;
    case PROP_SUMMARY:
      cpel_session_set_summary (self, g_value_get_boolean (value));
      break;
    case PROP_CAPTURE_CLOCK:
      cpel_session_set_capture_clock (self, g_value_get_boolean (value));
      break;
    case PROP_VIEWS:
      cpel_session_set_views (self, g_value_get_object (value));
      break;
    case PROP_COMPARE_RANGE:
      if (g_value_get_boxed (value) != NULL)
        cpel_session_set_compare_range (self, g_value_get_boxed (value), CPEL_SESSION_STEP);
      break;
    case PROP_COMPARE_MEASURE:
      cpel_session_set_compare_measure (self, g_value_get_boxed (value));
      break;
    case PROP_SPAN_RULES:
      cpel_session_set_span_rules (self, g_value_get_pointer (value));
      break;
    case PROP_SHOW_SPANS:
      cpel_session_set_show_spans (self, g_value_get_boolean (value));
      break;
    case PROP_COMPARE_SPAN_RULES:
      cpel_session_set_compare_span_rules (self, g_value_get_pointer (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_session_class_init (CpelSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = cpel_session_dispose;
  object_class->finalize = cpel_session_finalize;
  object_class->get_property = cpel_session_get_property;
  object_class->set_property = cpel_session_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, CPEL_TYPE_FILE, rw);
  properties[PROP_COMPARE_FILE] =
    g_param_spec_object ("compare-file", NULL, NULL, CPEL_TYPE_FILE, rw);
  /* B's time = A's time + offset (ns, clamped to ±CPEL_SESSION_MAX_ALIGNMENT) */
  properties[PROP_COMPARE_OFFSET] =
    g_param_spec_int64 ("compare-offset", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  /* The compare ruler reads A's time minus this. */
  properties[PROP_COMPARE_ORIGIN] =
    g_param_spec_int64 ("compare-origin", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  /* Tracks of the same label next to each other. */
  properties[PROP_COMPARE_PAIRED] =
    g_param_spec_boolean ("compare-paired", NULL, NULL, FALSE, rw);
  /* Setting it is one history step. */
  properties[PROP_RANGE] =
    g_param_spec_boxed ("range", NULL, NULL, CPEL_TYPE_RANGE, rw);
  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE, ro);
  properties[PROP_TRACK_ORDER] =
    g_param_spec_object ("track-order", NULL, NULL, CPEL_TYPE_TRACK_ORDER, ro);
  properties[PROP_HAS_SELECTION] =
    g_param_spec_boolean ("has-selection", NULL, NULL, FALSE, ro);
  /* Ordered [t0, t1]; NULL: no measurement. */
  properties[PROP_MEASURE] =
    g_param_spec_boxed ("measure", NULL, NULL, CPEL_TYPE_RANGE, rw);
  properties[PROP_CHASING] =
    g_param_spec_boolean ("chasing", NULL, NULL, FALSE, ro);
  properties[PROP_COLOR_MODE] =
    g_param_spec_enum ("color-mode", NULL, NULL, CPEL_TYPE_COLOR_MODE, CPEL_COLOR_BY_CODE, rw);
  properties[PROP_SUMMARY] =
    g_param_spec_boolean ("summary", NULL, NULL, FALSE, rw);
  properties[PROP_VIEWS] =
    g_param_spec_object ("views", NULL, NULL, CPEL_TYPE_VIEWS, rw);
  properties[PROP_COMPARE_RANGE] =
    g_param_spec_boxed ("compare-range", NULL, NULL, CPEL_TYPE_RANGE, rw);
  properties[PROP_COMPARE_CAN_GO_BACK] =
    g_param_spec_boolean ("compare-can-go-back", NULL, NULL, FALSE, ro);
  properties[PROP_COMPARE_CAN_GO_FORWARD] =
    g_param_spec_boolean ("compare-can-go-forward", NULL, NULL, FALSE, ro);
  properties[PROP_COMPARE_MEASURE] =
    g_param_spec_boxed ("compare-measure", NULL, NULL, CPEL_TYPE_RANGE, rw);
  /* CpelSpanRules (a reference is taken); the built-in rules by default;
   * NULL: no spans. */
  properties[PROP_SPAN_RULES] =
    g_param_spec_pointer ("span-rules", NULL, NULL, rw);
  /* CpelSpans of the file by the rules; NULL while they are derived.
   * Notified when they are ready (and when dropped). */
  properties[PROP_SPANS] =
    g_param_spec_pointer ("spans", NULL, NULL, ro);
  properties[PROP_SPANS_PENDING] =
    g_param_spec_boolean ("spans-pending", NULL, NULL, FALSE, ro);
  properties[PROP_SHOW_SPANS] =
    g_param_spec_boolean ("show-spans", NULL, NULL, TRUE, rw);
  /* The spans highlighted (a CpelSpanFilter owned by the session), or NULL. */
  properties[PROP_SPAN_FILTER] =
    g_param_spec_pointer ("span-filter", NULL, NULL, ro);
  /* The same for the compare file (its own rules; NULL: no spans). */
  properties[PROP_COMPARE_SPAN_RULES] =
    g_param_spec_pointer ("compare-span-rules", NULL, NULL, rw);
  properties[PROP_COMPARE_SPANS] =
    g_param_spec_pointer ("compare-spans", NULL, NULL, ro);
  /* Times on the capture's own clock (chosen; see cpel_session_get_time_clock). */
  properties[PROP_CAPTURE_CLOCK] =
    g_param_spec_boolean ("capture-clock", NULL, NULL, FALSE, rw);
  properties[PROP_HAS_CAPTURE_CLOCK] =
    g_param_spec_boolean ("has-capture-clock", NULL, NULL, FALSE, ro);
  /* The file's CpelLabels (cpel_session_set_labels ()), NULL without a file. */
  properties[PROP_LABELS] =
    g_param_spec_pointer ("labels", NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[TRACKS_CHANGED] =
    g_signal_new ("tracks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[TYPES_CHANGED] =
    g_signal_new ("types-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MATCHES_CHANGED] =
    g_signal_new ("matches-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[REVEAL_TRACK] =
    g_signal_new ("reveal-track", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BOOLEAN);
}

static void
cpel_session_init (CpelSession *self)
{
  nav_init (&self->nav, PROP_RANGE, PROP_CAN_GO_BACK, PROP_CAN_GO_FORWARD);
  cpel_range_limits_init (&self->limits, 0);
  cpel_range_fit (&self->range, &self->limits);
  nav_init (&self->compare_nav, PROP_COMPARE_RANGE, PROP_COMPARE_CAN_GO_BACK,
            PROP_COMPARE_CAN_GO_FORWARD);
  self->compare_range = (CpelRange) { 0, 1 };
  self->span_rules = cpel_span_rules_new_builtin ();
  self->show_spans = TRUE;
}
