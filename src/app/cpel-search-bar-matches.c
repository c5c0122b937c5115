/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-bar-matches.c — the matches the search bar counts, steps
 * through and highlights: those on tracks and of event types the timeline
 * shows (the query's whole result filtered again when the view's filters
 * change), and Enter / Shift+Enter stepping from the selected event or the
 * visible range, wrapping around.
 */
#include "cpel-search-bar-private.h"

#include <string.h>

/* The timeline's hidden tracks (filtered out or hidden) as n_tracks flags,
 * or NULL when every track is shown. */
static guint8 *
hidden_slots (CpelSearchBar *self,
              CpelFile      *file)
{
  CpelTrackOrder *order = cpel_timeline_get_track_order (self->timeline);
  guint n_tracks = cpel_file_get_n_tracks (file), n_rows = n_tracks;
  const guint *rows = order != NULL ? cpel_track_order_get_rows (order, &n_rows) : NULL;
  guint8 *hidden;

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
same_flags (const guint8 *a,
            const guint8 *b,
            guint         n)
{
  return (a == NULL && b == NULL) || (a != NULL && b != NULL && memcmp (a, b, n) == 0);
}

/* Matches on hidden tracks or of hidden event types are neither counted,
 * nor stepped to, nor highlighted: `visible` holds the others.  Returns
 * TRUE when it changed. */
gboolean
_cpel_search_bar_refilter (CpelSearchBar *self,
                           gboolean       force)
{
  CpelFile *file = self->timeline != NULL ? cpel_timeline_get_file (self->timeline) : NULL;
  const guint8 *types = file != NULL ? cpel_timeline_get_hidden_types (self->timeline) : NULL;
  g_autofree guint8 *slots = file != NULL ? hidden_slots (self, file) : NULL;

  if (file == NULL || self->result == NULL)
    {
      /* Nothing to filter: a change only when there were matches (not
       * while a search runs, which the timeline's every allocation would
       * otherwise tell the status line, in the middle of a layout). */
      gboolean changed = self->visible != NULL;

      g_clear_pointer (&self->visible, cpel_search_result_unref);
      g_clear_pointer (&self->hidden_types_for, g_free);
      g_clear_pointer (&self->hidden_slots_for, g_free);
      return changed || force;
    }
  if (!force && self->visible != NULL
      && same_flags (types, self->hidden_types_for, cpel_file_get_n_types (file))
      && same_flags (slots, self->hidden_slots_for, cpel_file_get_n_tracks (file)))
    return FALSE;

  g_clear_pointer (&self->visible, cpel_search_result_unref);
  self->visible = cpel_search_result_filter (self->result, file, slots, types);
  /* The match last stepped to keeps its place while it is shown (also
   * after a filter that hid it for a while). */
  self->current = -1;
  if (self->current_ref.slot < cpel_file_get_n_tracks (file)
      && self->current_ref.index < cpel_file_get_track_n_events (file, self->current_ref.slot))
    {
      CpelEvent event;
      guint64 pos;

      cpel_file_get_track_event (file, self->current_ref.slot, self->current_ref.index, &event);
      pos = cpel_search_result_find_next (self->visible, file, event.time_ns, event.file_index);
      if (pos < cpel_search_result_get_n (self->visible)
          && cpel_search_result_get (self->visible, pos)->slot == self->current_ref.slot
          && cpel_search_result_get (self->visible, pos)->index == self->current_ref.index)
        self->current = (gint64) pos;
    }
  g_free (self->hidden_types_for);
  self->hidden_types_for = types != NULL ? g_memdup2 (types, cpel_file_get_n_types (file)) : NULL;
  g_free (self->hidden_slots_for);
  self->hidden_slots_for = g_steal_pointer (&slots);
  return TRUE;
}

static gboolean
ref_equal (const CpelEventRef *ref,
           guint               slot,
           guint64             index)
{
  return ref->slot == slot && ref->index == index;
}

void
cpel_search_bar_step (CpelSearchBar *self,
                      int            direction)
{
  CpelFile *file;
  const CpelEventRef *ref;
  guint64 n;
  gint64 pos;
  guint slot;
  guint64 index;

  g_return_if_fail (CPEL_IS_SEARCH_BAR (self));

  direction = direction >= 0 ? 1 : -1;
  if (self->compare != NULL)
    {
      if (cpel_compare_search_is_running (self->compare))
        self->pending_step = direction;
      else if (!cpel_compare_search_step (self->compare, direction))
        gtk_widget_error_bell (GTK_WIDGET (self));
      _cpel_search_bar_update_status (self);
      return;
    }
  if (self->cancellable != NULL)
    {
      self->pending_step = direction;   /* when the search finishes */
      return;
    }
  file = self->timeline != NULL ? cpel_timeline_get_file (self->timeline) : NULL;
  _cpel_search_bar_refilter (self, FALSE);
  if (file == NULL || self->visible == NULL || cpel_search_result_get_n (self->visible) == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  n = cpel_search_result_get_n (self->visible);

  if (cpel_timeline_get_selection (self->timeline, &slot, &index))
    {
      if (self->current >= 0 && (guint64) self->current < n
          && ref_equal (cpel_search_result_get (self->visible, (guint64) self->current), slot, index))
        pos = self->current + direction;
      else
        {
          CpelEvent event;

          /* From the selected event. */
          cpel_file_get_track_event (file, slot, index, &event);
          pos = (gint64) cpel_search_result_find_next (self->visible, file,
                                                       event.time_ns, event.file_index);
          if (direction > 0)
            {
              if ((guint64) pos < n
                  && ref_equal (cpel_search_result_get (self->visible, (guint64) pos), slot, index))
                pos++;
            }
          else
            pos--;
        }
    }
  else
    {
      gint64 t0, t1;

      /* From the visible range: the first match in view, or the last one
       * before its end. */
      cpel_timeline_get_range (self->timeline, &t0, &t1);
      if (direction > 0)
        pos = (gint64) cpel_search_result_find_next (self->visible, file, t0, 0);
      else
        pos = (gint64) cpel_search_result_find_next (self->visible, file, t1, 0) - 1;
    }

  /* Wrap around. */
  if (pos < 0)
    pos = (gint64) n - 1;
  else if ((guint64) pos >= n)
    pos = 0;

  self->current = pos;
  ref = cpel_search_result_get (self->visible, (guint64) pos);
  self->current_ref = *ref;
  cpel_timeline_select (self->timeline, ref->slot, ref->index, FALSE);
  cpel_timeline_reveal (self->timeline, ref->slot, ref->index);
  _cpel_search_bar_update_status (self);
}

CpelSearchResult *
cpel_search_bar_get_result (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), NULL);
  return self->visible;
}

gint64
cpel_search_bar_get_current (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), -1);
  return self->current;
}
