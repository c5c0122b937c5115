/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline-selection.c — the selected event (the session's):
 * selecting, revealing, stepping to the next or previous visible event */
#include "cpel-timeline-private.h"

/* First visible event on `slot` at or after index `from` going in
 * `direction`; FALSE when none. */
static gboolean
find_visible (CpelTimeline *self,
              guint         slot,
              gint64        from,
              int           direction,
              guint64      *found)
{
  guint64 n = cpel_file_get_track_n_events (self->file, slot);

  for (gint64 i = from; i >= 0 && (guint64) i < n; i += direction)
    if (!_cpel_timeline_type_hidden (self, slot, (guint64) i))
      {
        *found = (guint64) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
cpel_timeline_select_adjacent (CpelTimeline *self,
                               int           direction)
{
  guint64 found;

  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL || _cpel_timeline_n_rows (self) == 0)
    return FALSE;

  direction = direction >= 0 ? 1 : -1;
  /* a span selected: span by span on its track */
  if (cpel_session_get_span_selection (self->session, NULL) != NULL)
    {
      if (!cpel_session_step_span (self->session, direction))
        {
          gtk_widget_error_bell (GTK_WIDGET (self));
          return FALSE;
        }
      return TRUE;
    }
  if (self->view.has_selection)
    {
      guint slot = self->view.selected_slot;
      gint64 from = (gint64) self->view.selected_index + direction;

      if (!find_visible (self, slot, from, direction, &found))
        {
          gtk_widget_error_bell (GTK_WIDGET (self));
          return FALSE;
        }
      cpel_session_select (self->session, slot, found, TRUE);
      return TRUE;
    }

  /* No selection: the first (last) event in view on the topmost row shown
   * that has one. */
  {
    guint first_row = (guint) (gtk_adjustment_get_value (self->vadjustment) / self->view.row_height);
    guint n = _cpel_timeline_n_rows (self);

    for (guint r = first_row; r < n; r++)
      {
        guint slot = _cpel_timeline_row_slot (self, r);
        guint64 lo = cpel_file_track_lower_bound (self->file, slot, self->view.t0);
        guint64 hi = cpel_file_track_lower_bound (self->file, slot, self->view.t1);

        if (lo >= hi)
          continue;
        if (find_visible (self, slot, direction > 0 ? (gint64) lo : (gint64) hi - 1,
                          direction, &found))
          {
            cpel_session_select (self->session, slot, found, TRUE);
            return TRUE;
          }
      }
  }

  /* Nothing in view (a deep zoom between events): the nearest event past
   * the view that way, on any row shown, brought into view. */
  {
    gboolean have = FALSE;
    guint best_slot = 0;
    guint64 best_index = 0;
    gint64 best_t = 0;

    for (guint r = 0; r < _cpel_timeline_n_rows (self); r++)
      {
        guint slot = _cpel_timeline_row_slot (self, r);
        guint64 n;
        const gint64 *times = cpel_file_get_track_times (self->file, slot, &n);
        gint64 from = direction > 0
                      ? (gint64) cpel_file_track_lower_bound (self->file, slot, self->view.t1)
                      : (gint64) cpel_file_track_lower_bound (self->file, slot, self->view.t0) - 1;

        if (times == NULL || !find_visible (self, slot, from, direction, &found))
          continue;
        if (!have || (direction > 0 ? times[found] < best_t : times[found] > best_t))
          {
            have = TRUE;
            best_slot = slot;
            best_index = found;
            best_t = times[found];
          }
      }
    if (have)
      {
        cpel_session_select (self->session, best_slot, best_index, TRUE);
        return TRUE;
      }
  }
  gtk_widget_error_bell (GTK_WIDGET (self));
  return FALSE;
}

gboolean
cpel_timeline_select_at (CpelTimeline *self,
                         double        x,
                         double        y)
{
  guint slot;
  guint64 index;

  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL)
    return FALSE;
  if (!cpel_view_hit_test (&self->view, gtk_widget_get_width (GTK_WIDGET (self)),
                           x, y, HIT_RADIUS, &slot, &index))
    return FALSE;
  cpel_session_select (self->session, slot, index, FALSE);
  return TRUE;
}


gboolean
cpel_timeline_select_span_at (CpelTimeline *self,
                              double        x,
                              double        y)
{
  CpelSessionSpanRef ref;

  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL || self->view.spans == NULL)
    return FALSE;
  if (!cpel_view_span_hit_test (&self->view, gtk_widget_get_width (GTK_WIDGET (self)),
                                x, y, &ref.slot, &ref.state, &ref.index))
    return FALSE;
  cpel_session_select_span (self->session, &ref);
  return cpel_session_get_span_selection (self->session, NULL) != NULL;
}
