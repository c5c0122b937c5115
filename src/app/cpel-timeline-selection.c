/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline-selection.c — the selected event: selecting, revealing,
 * stepping to the next or previous visible event */
#include "cpel-timeline-private.h"

gboolean
cpel_timeline_get_selection (CpelTimeline *self,
                             guint        *slot,
                             guint64      *index)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL || !self->view.has_selection)
    return FALSE;
  if (slot != NULL)
    *slot = self->view.selected_slot;
  if (index != NULL)
    *index = self->view.selected_index;
  return TRUE;
}

/* Scroll the tracks so that the row of `slot` is on screen: centred, or
 * by the least movement. */
static void
scroll_to_slot (CpelTimeline *self,
                guint         slot,
                gboolean      centre)
{
  int row = _cpel_timeline_slot_row (self, slot);
  double top, value, page, height = self->view.row_height;

  if (row < 0)
    return;
  top = row * height;
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  if (top >= value && top + height <= value + page)
    return;
  if (centre)
    gtk_adjustment_set_value (self->vadjustment, top - (page - height) / 2);
  else if (top < value)
    gtk_adjustment_set_value (self->vadjustment, top);
  else
    gtk_adjustment_set_value (self->vadjustment, top + height - page);
}

void
cpel_timeline_reveal (CpelTimeline *self,
                      guint         slot,
                      guint64       index)
{
  CpelEvent event;
  CpelRange range;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL || slot >= cpel_file_get_n_tracks (self->file)
      || index >= cpel_file_get_track_n_events (self->file, slot))
    return;

  cpel_file_get_track_event (self->file, slot, index, &event);
  range = *_cpel_timeline_view_range (self);
  cpel_range_center (&range, event.time_ns, &self->limits);
  _cpel_timeline_apply_range (self, &range, 1);

  scroll_to_slot (self, slot, TRUE);
}

gboolean
cpel_timeline_reveal_track (CpelTimeline *self,
                            guint         slot)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL || slot >= cpel_file_get_n_tracks (self->file) || _cpel_timeline_slot_row (self, slot) < 0)
    return FALSE;
  scroll_to_slot (self, slot, TRUE);
  return TRUE;
}

void
cpel_timeline_select (CpelTimeline *self,
                      guint         slot,
                      guint64       index,
                      gboolean      reveal)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL || slot >= cpel_file_get_n_tracks (self->file)
      || index >= cpel_file_get_track_n_events (self->file, slot))
    return;

  if (reveal)
    {
      CpelEvent event;

      cpel_file_get_track_event (self->file, slot, index, &event);
      if (event.time_ns < self->view.t0 || event.time_ns >= self->view.t1
          || _cpel_timeline_slot_row (self, slot) < 0)
        cpel_timeline_reveal (self, slot, index);
      else
        scroll_to_slot (self, slot, FALSE);
    }

  if (self->view.has_selection && self->view.selected_slot == slot
      && self->view.selected_index == index)
    return;
  self->view.has_selection = TRUE;
  self->view.selected_slot = slot;
  self->view.selected_index = index;
  _cpel_timeline_invalidate (self);
  g_signal_emit (self, _cpel_timeline_signals[SELECTION_CHANGED], 0);
}

void
cpel_timeline_unselect (CpelTimeline *self)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (!self->view.has_selection)
    return;
  self->view.has_selection = FALSE;
  _cpel_timeline_invalidate (self);
  g_signal_emit (self, _cpel_timeline_signals[SELECTION_CHANGED], 0);
}

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
  if (self->view.has_selection)
    {
      guint slot = self->view.selected_slot;
      gint64 from = (gint64) self->view.selected_index + direction;

      if (!find_visible (self, slot, from, direction, &found))
        {
          gtk_widget_error_bell (GTK_WIDGET (self));
          return FALSE;
        }
      cpel_timeline_select (self, slot, found, TRUE);
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
            cpel_timeline_select (self, slot, found, TRUE);
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
        cpel_timeline_select (self, best_slot, best_index, TRUE);
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
  cpel_timeline_select (self, slot, index, FALSE);
  return TRUE;
}

