/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-bar-matches.c — the matches the search bar counts, steps
 * through and highlights: those on tracks and of event types the session
 * shows (the query's whole result filtered again when the view's filters
 * change), and Enter / Shift+Enter stepping from the selected event or the
 * visible range, wrapping around (cpel_session_find_match).
 */
#include "cpel-search-bar-private.h"

#include <string.h>

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
  CpelSession *session = self->session;
  CpelFile *file = session != NULL ? cpel_session_get_file (session) : NULL;
  const guint8 *types = file != NULL ? cpel_session_get_hidden_types (session) : NULL;
  g_autofree guint8 *slots = file != NULL ? cpel_session_dup_hidden_slots (session) : NULL;

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

void
cpel_search_bar_step (CpelSearchBar *self,
                      int            direction)
{
  CpelSession *session;
  const CpelEventRef *ref;
  guint64 pos;

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
  session = self->session;
  if (self->span_filter != NULL)
    {
      /* a duration filter: its spans, in time order */
      if (session == NULL || !_cpel_search_bar_span_filter_shown (self)
          || !cpel_session_step_span_match (session, direction))
        gtk_widget_error_bell (GTK_WIDGET (self));
      _cpel_search_bar_update_status (self);
      return;
    }
  _cpel_search_bar_refilter (self, FALSE);
  if (session == NULL
      || !cpel_session_find_match (session, self->visible, direction, self->current, &pos))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }

  self->current = (gint64) pos;
  ref = cpel_search_result_get (self->visible, pos);
  self->current_ref = *ref;
  {
    CpelFile *file = cpel_session_get_file (session);
    CpelEvent event;

    cpel_file_get_track_event (file, ref->slot, ref->index, &event);
    self->current_time = event.time_ns;
    self->current_code = event.code;
    g_free (self->current_track);
    self->current_track = g_strdup (cpel_file_get_track_label (file, ref->slot));
  }
  cpel_session_select (session, ref->slot, ref->index, FALSE);
  cpel_session_reveal_event (session, ref->slot, ref->index);
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
