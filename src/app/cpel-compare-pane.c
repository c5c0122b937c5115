/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-compare-pane.c — two captures under one ruler
 *
 * The widget keeps a CpelCompareView and draws it with
 * cpel_render_compare() (so the window, Export View and `cpel export
 * --compare` draw the same), its range with a zoom history, and the
 * alignment of B: "Align Here" moves B so that its selected event is drawn
 * at A's, and the ruler reads time from that point.  Wheel, keys, clicks
 * and the context menu are in cpel-compare-pane-input.c.
 */
#include "cpel-compare-pane-private.h"

#include <adwaita.h>
#include <math.h>
#include <string.h>

enum
{
  PROP_0,
  PROP_PAIRED,
  PROP_FILE_A,
  PROP_FILE_B,
  PROP_FILTERS,
  PROP_OFFSET,
  PROP_T0,
  PROP_T1,
  PROP_SELECTION,
  PROP_CURSOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (CpelComparePane, cpel_compare_pane, GTK_TYPE_WIDGET)

static gint64
span_end (CpelComparePane *self)
{
  gint64 da = self->a ? cpel_file_get_duration (self->a) : 0;
  gint64 db = self->b ? cpel_file_get_duration (self->b) : 0;

  return MAX (da, db - self->view.offset_b) + 1;
}

void
_cpel_compare_pane_changed (CpelComparePane *self,
                            gboolean         range)
{
  cpel_compare_view_sync (&self->view);
  if (range)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_T0]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_T1]);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* history: 0 none, 1 a step, 2 continuous (coalesced) */
static void
apply_range (CpelComparePane *self,
             gint64           t0,
             gint64           t1,
             int              history)
{
  if (t1 <= t0)
    t1 = t0 + 1;
  /* not narrower than 10 ns */
  if (t1 - t0 < 10)
    t1 = t0 + 10;
  /* the session remembers the range before a change (continuous changes,
   * the wheel's, coalesced into one step); on_session_range follows */
  cpel_session_set_compare_range (self->session, &(CpelRange) { t0, t1 },
                                  history == 0 || self->a == NULL ? CPEL_SESSION_FORGET
                                  : history == 2 ? CPEL_SESSION_CONTINUOUS
                                  : CPEL_SESSION_STEP);
}

void
cpel_compare_pane_set_range (CpelComparePane *self,
                             gint64           t0,
                             gint64           t1)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  apply_range (self, t0, t1, 1);
}

gboolean
cpel_compare_pane_go_back (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), FALSE);
  return cpel_session_compare_go_back (self->session);
}

gboolean
cpel_compare_pane_go_forward (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), FALSE);
  return cpel_session_compare_go_forward (self->session);
}

void
_cpel_compare_pane_zoom (CpelComparePane *self,
                         double           factor,
                         gint64           center,
                         int              history)
{
  double t0, t1, span;

  t0 = (double) self->view.a.t0;
  t1 = (double) self->view.a.t1;
  span = (t1 - t0) * factor;
  if (span > 10.0 * (double) span_end (self))
    span = 10.0 * (double) span_end (self);
  t0 = center - ((double) center - t0) * (span / (t1 - t0));
  apply_range (self, (gint64) llround (t0), (gint64) llround (t0 + span), history);
}

void
cpel_compare_pane_zoom (CpelComparePane *self,
                        double           factor,
                        gint64           center)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  _cpel_compare_pane_zoom (self, factor, center, 1);
}

void
_cpel_compare_pane_pan (CpelComparePane *self,
                        double           fraction,
                        int              history)
{
  gint64 d = (gint64) llround ((double) (self->view.a.t1 - self->view.a.t0) * fraction);

  apply_range (self, self->view.a.t0 + d, self->view.a.t1 + d, history);
}

void
cpel_compare_pane_pan (CpelComparePane *self,
                       double           fraction)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  _cpel_compare_pane_pan (self, fraction, 2);
}

void
cpel_compare_pane_zoom_fit (CpelComparePane *self)
{
  gint64 start;

  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));

  /* from the earlier of the two first events (B's 0 is A's -offset) */
  start = MIN (0, -self->view.offset_b);
  cpel_compare_pane_set_range (self, start, span_end (self));
}

void
cpel_compare_pane_set_measure (CpelComparePane *self,
                               gint64           t0,
                               gint64           t1)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  cpel_session_set_compare_measure (self->session, &(CpelRange) { t0, t1 });
}

void
cpel_compare_pane_clear_measure (CpelComparePane *self)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  cpel_session_set_compare_measure (self->session, NULL);
}

void
_cpel_compare_pane_update_actions (CpelComparePane *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.align",
                                 self->view.a.has_selection && self->view.b.has_selection);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.reset-alignment",
                                 self->view.offset_b != 0 || self->view.a.ruler_origin != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.back",
                                 cpel_session_compare_can_go_back (self->session));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.forward",
                                 cpel_session_compare_can_go_forward (self->session));
}

gboolean
cpel_compare_pane_align_selected (CpelComparePane *self)
{
  CpelEvent ea, eb;

  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), FALSE);

  if (!self->view.a.has_selection || !self->view.b.has_selection)
    return FALSE;
  cpel_file_get_track_event (self->a, self->view.a.selected_slot, self->view.a.selected_index, &ea);
  cpel_file_get_track_event (self->b, self->view.b.selected_slot, self->view.b.selected_index, &eb);
  cpel_compare_pane_set_alignment (self, eb.time_ns - ea.time_ns, ea.time_ns);
  return TRUE;
}

void
cpel_compare_pane_set_alignment (CpelComparePane *self,
                                 gint64           offset_b,
                                 gint64           origin)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  /* (clamped by the session; on_session_alignment redraws) */
  cpel_session_set_compare_alignment (self->session, offset_b, origin);
}

/* The session's alignment changed: the view follows (once for both). */
static void
on_session_alignment (CpelComparePane *self)
{
  gint64 offset = cpel_session_get_compare_offset (self->session);
  gint64 origin = cpel_session_get_compare_origin (self->session);

  if (self->view.offset_b == offset && self->view.a.ruler_origin == origin)
    return;
  self->view.offset_b = offset;
  self->view.a.ruler_origin = origin;
  _cpel_compare_pane_changed (self, FALSE);
  _cpel_compare_pane_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFSET]);
}

/* The session's compare range changed (a zoom, Back, Forward): the view
 * follows. */
static void
on_session_range (CpelComparePane *self)
{
  const CpelRange *range = cpel_session_get_compare_range (self->session);

  if (self->view.a.t0 == range->t0 && self->view.a.t1 == range->t1)
    return;
  self->view.a.t0 = range->t0;
  self->view.a.t1 = range->t1;
  _cpel_compare_pane_changed (self, TRUE);
}

static void
on_session_measure (CpelComparePane *self)
{
  const CpelRange *measure = cpel_session_get_compare_measure (self->session);

  self->view.a.has_measure = measure != NULL;
  if (measure != NULL)
    {
      self->view.a.measure_t0 = measure->t0;
      self->view.a.measure_t1 = measure->t1;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_session_paired (CpelComparePane *self)
{
  gboolean paired = cpel_session_get_compare_paired (self->session);

  if (self->view.paired == paired)
    return;
  self->view.paired = paired;
  self->view.a.scroll_y = 0;
  self->view.b.scroll_y = 0;
  _cpel_compare_pane_changed (self, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAIRED]);
}

/* Each side's labels: the ones of its file. */
static void
apply_labels (CpelComparePane *self)
{
  self->view.a.labels = NULL;
  self->view.b.labels = NULL;
  for (guint i = 0; i < 2; i++)
    {
      CpelFile *file = self->labels[i] != NULL ? cpel_labels_get_file (self->labels[i]) : NULL;

      if (file == NULL)
        continue;
      if (file == self->a && self->view.a.labels == NULL)
        self->view.a.labels = self->labels[i];
      else if (file == self->b && self->view.b.labels == NULL)
        self->view.b.labels = self->labels[i];
    }
}

/* Display ▸ Capture Clock: the ruler reads A's clock (when A has one). */
static void
apply_clock (CpelComparePane *self)
{
  self->view.a.clock = CPEL_CLOCK_NONE;
  self->view.a.clock_origin = 0;
  if (self->a != NULL && self->session != NULL
      && cpel_session_get_capture_clock (self->session))
    self->view.a.clock = cpel_file_get_clock_origin (self->a, &self->view.a.clock_origin);
}

static void
on_session_clock (CpelComparePane *self)
{
  apply_clock (self);
  _cpel_compare_pane_changed (self, FALSE);
}

/* Each side draws its own capture's spans (the session derives the
 * compare file's by that capture's rules), as Display ▸ Spans and States
 * says. */
static void
on_session_spans (CpelComparePane *self)
{
  gboolean show = cpel_session_get_show_spans (self->session);
  CpelSpans *a = show ? cpel_session_get_spans_for (self->session, self->a) : NULL;
  CpelSpans *b = show ? cpel_session_get_spans_for (self->session, self->b) : NULL;

  if (self->view.a.spans == a && self->view.b.spans == b)
    return;
  self->view.a.spans = a;
  self->view.b.spans = b;
  _cpel_compare_pane_changed (self, FALSE);
}

CpelSession *
cpel_compare_pane_get_session (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), NULL);
  return self->session;
}

void
cpel_compare_pane_set_session (CpelComparePane *self,
                               CpelSession     *session)
{
  g_autoptr(CpelSession) own = NULL;

  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  g_return_if_fail (session == NULL || CPEL_IS_SESSION (session));

  if (session == NULL)
    session = own = cpel_session_new ();
  if (session == self->session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  g_signal_connect_swapped (session, "notify::compare-offset",
                            G_CALLBACK (on_session_alignment), self);
  g_signal_connect_swapped (session, "notify::compare-origin",
                            G_CALLBACK (on_session_alignment), self);
  g_signal_connect_swapped (session, "notify::compare-paired",
                            G_CALLBACK (on_session_paired), self);
  g_signal_connect_swapped (session, "notify::compare-range",
                            G_CALLBACK (on_session_range), self);
  g_signal_connect_swapped (session, "notify::compare-measure",
                            G_CALLBACK (on_session_measure), self);
  g_signal_connect_swapped (session, "notify::compare-can-go-back",
                            G_CALLBACK (_cpel_compare_pane_update_actions), self);
  g_signal_connect_swapped (session, "notify::compare-can-go-forward",
                            G_CALLBACK (_cpel_compare_pane_update_actions), self);
  g_signal_connect_swapped (session, "notify::spans",
                            G_CALLBACK (on_session_spans), self);
  g_signal_connect_swapped (session, "notify::compare-spans",
                            G_CALLBACK (on_session_spans), self);
  g_signal_connect_swapped (session, "notify::show-spans",
                            G_CALLBACK (on_session_spans), self);
  g_signal_connect_swapped (session, "notify::capture-clock",
                            G_CALLBACK (on_session_clock), self);
  on_session_alignment (self);
  on_session_paired (self);
  on_session_range (self);
  on_session_measure (self);
  on_session_spans (self);
  on_session_clock (self);
  _cpel_compare_pane_update_actions (self);
}

static void
cpel_compare_pane_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  CpelComparePane *self = CPEL_COMPARE_PANE (widget);

  if (self->context_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->context_menu));
}

static void
cpel_compare_pane_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  CpelComparePane *self = CPEL_COMPARE_PANE (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  gint64 start;
  cairo_t *cr;

  if (self->a == NULL || self->b == NULL || width <= 0 || height <= 0)
    return;
  self->view.a.palette = adw_style_manager_get_dark (adw_style_manager_get_default ())
                         ? &self->dark : &self->light;
  cpel_compare_view_sync (&self->view);
  start = g_get_monotonic_time ();
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cpel_render_compare (cr, width, height, &self->view);
  cairo_destroy (cr);
  self->n_frames++;
  self->last_frame_us = g_get_monotonic_time () - start;
}

guint
cpel_compare_pane_get_n_frames (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), 0);
  return self->n_frames;
}

gint64
cpel_compare_pane_get_last_frame_us (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), 0);
  return self->last_frame_us;
}

void
cpel_compare_pane_set_files (CpelComparePane *self,
                             CpelFile        *a,
                             const char      *name_a,
                             CpelFile        *b,
                             const char      *name_b)
{
  gboolean paired;

  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  g_return_if_fail (CPEL_IS_FILE (a));
  g_return_if_fail (CPEL_IS_FILE (b));

  paired = cpel_session_get_compare_paired (self->session);
  g_set_object (&self->a, a);
  g_set_object (&self->b, b);
  g_free (self->name_a);
  g_free (self->name_b);
  self->name_a = g_strdup (name_a);
  self->name_b = g_strdup (name_b);
  cpel_compare_view_init (&self->view, a, b, &self->light);
  /* other captures (or swapped): the old ranges mean other times; the
   * session starts from the view's range (on_session_range: no change) */
  cpel_session_reset_compare_view (self->session,
                                   &(CpelRange) { self->view.a.t0, self->view.a.t1 });
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&self->hidden[i], g_free);
      g_clear_pointer (&self->rows[i], g_free);
    }
  self->view.name_a = self->name_a;
  self->view.name_b = self->name_b;
  self->view.paired = paired;
  apply_labels (self);
  apply_clock (self);
  /* the view starts aligned at 0: so does the session (no redraw twice) */
  cpel_session_set_compare_alignment (self->session, 0, 0);
  g_clear_pointer (&self->matches_a, cpel_search_result_unref);
  g_clear_pointer (&self->matches_b, cpel_search_result_unref);
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&self->overview[i], cpel_overview_unref);
  on_session_spans (self);
  _cpel_compare_pane_changed (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE_A]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE_B]);
}

void
cpel_compare_pane_set_overviews (CpelComparePane *self,
                                 CpelOverview    *a,
                                 CpelOverview    *b)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));

  if (a != NULL)
    cpel_overview_ref (a);
  if (b != NULL)
    cpel_overview_ref (b);
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&self->overview[i], cpel_overview_unref);
  self->overview[0] = a;
  self->overview[1] = b;
  self->view.a.overview = a;
  self->view.b.overview = b;
}

void
cpel_compare_pane_set_labels (CpelComparePane *self,
                              CpelLabels      *one,
                              CpelLabels      *other)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));

  if (one != NULL)
    cpel_labels_ref (one);
  if (other != NULL)
    cpel_labels_ref (other);
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&self->labels[i], cpel_labels_unref);
  self->labels[0] = one;
  self->labels[1] = other;
  apply_labels (self);
  _cpel_compare_pane_changed (self, FALSE);
}

void
cpel_compare_pane_set_matches (CpelComparePane  *self,
                               CpelSearchResult *a,
                               CpelSearchResult *b)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));

  if (a != NULL)
    cpel_search_result_ref (a);
  if (b != NULL)
    cpel_search_result_ref (b);
  g_clear_pointer (&self->matches_a, cpel_search_result_unref);
  g_clear_pointer (&self->matches_b, cpel_search_result_unref);
  self->matches_a = a;
  self->matches_b = b;
  self->view.a.matches = a;
  self->view.b.matches = b;
  _cpel_compare_pane_changed (self, FALSE);
}

void
cpel_compare_pane_select (CpelComparePane *self,
                          CpelCompareSide  side,
                          guint            slot,
                          guint64          index)
{
  CpelView *v;

  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));

  v = side == CPEL_COMPARE_A ? &self->view.a : &self->view.b;
  v->has_selection = v->file != NULL && slot < cpel_file_get_n_tracks (v->file)
                     && index < cpel_file_get_track_n_events (v->file, slot);
  v->selected_slot = slot;
  v->selected_index = index;
  if (v->has_selection)
    self->last_selected = side;
  _cpel_compare_pane_changed (self, FALSE);
  _cpel_compare_pane_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
}

gboolean
cpel_compare_pane_get_selection (CpelComparePane *self,
                                 CpelCompareSide *side,
                                 guint           *slot,
                                 guint64         *index)
{
  const CpelView *v;
  CpelCompareSide s;

  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), FALSE);

  s = self->last_selected;
  v = s == CPEL_COMPARE_A ? &self->view.a : &self->view.b;
  if (!v->has_selection)
    {
      /* the side selected last has none now: the other's */
      s = s == CPEL_COMPARE_A ? CPEL_COMPARE_B : CPEL_COMPARE_A;
      v = s == CPEL_COMPARE_A ? &self->view.a : &self->view.b;
    }
  if (!v->has_selection || v->file == NULL)
    return FALSE;
  if (side != NULL)
    *side = s;
  if (slot != NULL)
    *slot = v->selected_slot;
  if (index != NULL)
    *index = v->selected_index;
  return TRUE;
}

gboolean
cpel_compare_pane_set_filters (CpelComparePane *self,
                               CpelCompareSide  side,
                               guint8          *hidden_types,
                               guint           *rows,
                               guint            n_rows)
{
  CpelView *v;
  guint n_types;
  gboolean same;

  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), FALSE);

  v = side == CPEL_COMPARE_A ? &self->view.a : &self->view.b;
  n_types = v->file != NULL ? cpel_file_get_n_types (v->file) : 0;
  same = ((hidden_types == NULL && self->hidden[side] == NULL)
          || (hidden_types != NULL && self->hidden[side] != NULL
              && memcmp (hidden_types, self->hidden[side], n_types) == 0))
         && ((rows == NULL && self->rows[side] == NULL)
             || (rows != NULL && self->rows[side] != NULL && n_rows == v->n_rows
                 && memcmp (rows, self->rows[side], n_rows * sizeof (guint)) == 0));
  if (same)
    {
      g_free (hidden_types);
      g_free (rows);
      return FALSE;
    }
  g_free (self->hidden[side]);
  g_free (self->rows[side]);
  self->hidden[side] = hidden_types;
  self->rows[side] = rows;
  v->hidden_types = hidden_types;
  v->rows = rows;
  v->n_rows = rows != NULL ? n_rows : 0;
  v->scroll_y = 0;
  /* a selection on a row no longer shown is none */
  if (v->has_selection && rows != NULL)
    {
      gboolean shown = FALSE;

      for (guint r = 0; r < n_rows && !shown; r++)
        shown = rows[r] == v->selected_slot;
      v->has_selection = shown;
      if (!shown)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
    }
  _cpel_compare_pane_changed (self, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTERS]);
  return TRUE;
}

void
cpel_compare_pane_center (CpelComparePane *self,
                          gint64           t)
{
  gint64 span, t0, first, last;

  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));

  span = self->view.a.t1 - self->view.a.t0;
  t0 = t - span / 2;
  /* not past either end of the captures when the span fits between them */
  first = MIN (0, -self->view.offset_b);
  last = span_end (self);
  if (span < last - first)
    t0 = CLAMP (t0, first, last - span);
  cpel_compare_pane_set_range (self, t0, t0 + span);
}

CpelFile *
cpel_compare_pane_get_file_a (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), NULL);
  return self->a;
}

CpelFile *
cpel_compare_pane_get_file_b (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), NULL);
  return self->b;
}

const CpelCompareView *
cpel_compare_pane_get_view (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), NULL);
  cpel_compare_view_sync (&self->view);
  return &self->view;
}

void
cpel_compare_pane_set_offset (CpelComparePane *self,
                              gint64           offset_b)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  cpel_session_set_compare_offset (self->session, offset_b);
}

gboolean
cpel_compare_pane_get_cursor (CpelComparePane *self,
                              gint64          *t)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), FALSE);
  if (t != NULL && self->view.a.has_cursor)
    *t = self->view.a.cursor_t;
  return self->a != NULL && self->view.a.has_cursor;
}

void
_cpel_compare_pane_set_cursor (CpelComparePane *self,
                               gboolean         has,
                               gint64           t)
{
  if (self->view.a.has_cursor == has && (!has || self->view.a.cursor_t == t))
    return;
  self->view.a.has_cursor = has;
  if (has)
    self->view.a.cursor_t = t;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURSOR]);
}

gboolean
cpel_compare_pane_get_paired (CpelComparePane *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (self), FALSE);
  return self->view.paired;
}

void
cpel_compare_pane_set_paired (CpelComparePane *self,
                              gboolean         paired)
{
  g_return_if_fail (CPEL_IS_COMPARE_PANE (self));
  cpel_session_set_compare_paired (self->session, paired);
}

static void
cpel_compare_pane_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  CpelComparePane *self = CPEL_COMPARE_PANE (object);

  switch (prop_id)
    {
    case PROP_PAIRED:
      g_value_set_boolean (value, self->view.paired);
      break;
    case PROP_FILE_A:
      g_value_set_object (value, self->a);
      break;
    case PROP_FILE_B:
      g_value_set_object (value, self->b);
      break;
    case PROP_FILTERS:
      g_value_set_boolean (value, self->hidden[0] || self->hidden[1] || self->rows[0] || self->rows[1]);
      break;
    case PROP_OFFSET:
      g_value_set_int64 (value, self->view.offset_b);
      break;
    case PROP_T0:
      g_value_set_int64 (value, self->view.a.t0);
      break;
    case PROP_T1:
      g_value_set_int64 (value, self->view.a.t1);
      break;
    case PROP_SELECTION:
      g_value_set_boolean (value, cpel_compare_pane_get_selection (self, NULL, NULL, NULL));
      break;
    case PROP_CURSOR:
      g_value_set_boolean (value, cpel_compare_pane_get_cursor (self, NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_compare_pane_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  CpelComparePane *self = CPEL_COMPARE_PANE (object);

  switch (prop_id)
    {
    case PROP_PAIRED:
      cpel_compare_pane_set_paired (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_compare_pane_dispose (GObject *object)
{
  CpelComparePane *self = CPEL_COMPARE_PANE (object);

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->a);
  g_clear_object (&self->b);
  g_clear_pointer (&self->matches_a, cpel_search_result_unref);
  g_clear_pointer (&self->matches_b, cpel_search_result_unref);
  self->view.a.matches = NULL;
  self->view.b.matches = NULL;
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&self->overview[i], cpel_overview_unref);
  self->view.a.overview = NULL;
  self->view.b.overview = NULL;
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&self->labels[i], cpel_labels_unref);
  self->view.a.labels = NULL;
  self->view.b.labels = NULL;
  G_OBJECT_CLASS (cpel_compare_pane_parent_class)->dispose (object);
}

static void
cpel_compare_pane_finalize (GObject *object)
{
  CpelComparePane *self = CPEL_COMPARE_PANE (object);

  g_free (self->name_a);
  g_free (self->name_b);
  for (guint i = 0; i < 2; i++)
    {
      g_free (self->hidden[i]);
      g_free (self->rows[i]);
    }
  G_OBJECT_CLASS (cpel_compare_pane_parent_class)->finalize (object);
}

static void
cpel_compare_pane_class_init (CpelComparePaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = cpel_compare_pane_get_property;
  object_class->set_property = cpel_compare_pane_set_property;
  object_class->dispose = cpel_compare_pane_dispose;
  object_class->finalize = cpel_compare_pane_finalize;
  widget_class->snapshot = cpel_compare_pane_snapshot;
  widget_class->size_allocate = cpel_compare_pane_size_allocate;
  _cpel_compare_pane_class_init_input (widget_class);

  properties[PROP_PAIRED] =
    g_param_spec_boolean ("paired", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FILE_A] =
    g_param_spec_object ("file-a", NULL, NULL, CPEL_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FILE_B] =
    g_param_spec_object ("file-b", NULL, NULL, CPEL_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* notified when a side's hidden types or rows change */
  properties[PROP_FILTERS] =
    g_param_spec_boolean ("filters", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* B's time = A's time + offset (notified with the ruler's origin too) */
  properties[PROP_OFFSET] =
    g_param_spec_int64 ("offset", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_T0] =
    g_param_spec_int64 ("t0", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_T1] =
    g_param_spec_int64 ("t1", NULL, NULL, G_MININT64, G_MAXINT64, 1,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* whether an event is selected; notified on every selection change */
  properties[PROP_SELECTION] =
    g_param_spec_boolean ("selection", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* whether the pointer's time is shown; notified when it moves too */
  properties[PROP_CURSOR] =
    g_param_spec_boolean ("cursor", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "comparepane");
}

static void
cpel_compare_pane_init (CpelComparePane *self)
{
  cpel_palette_init_light (&self->light);
  cpel_palette_init_dark (&self->dark);
  cpel_compare_view_init (&self->view, NULL, NULL, &self->light);
  cpel_compare_pane_set_session (self, NULL);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  _cpel_compare_pane_init_input (self);
}

GtkWidget *
cpel_compare_pane_new (void)
{
  return g_object_new (CPEL_TYPE_COMPARE_PANE, NULL);
}

