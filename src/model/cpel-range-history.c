/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-range-history.c — a view's zoom history: Back and Forward */
#include "cpel-range-history.h"

struct _CpelRangeHistory
{
  GArray *back;      /* CpelRange, the newest last */
  GArray *forward;   /* CpelRange, the next last */
  guint   max;
  gint64  coalesce_us;
  gint64  last_us;   /* the last continuous change, 0: none running */
};

CpelRangeHistory *
cpel_range_history_new (guint  max,
                        gint64 coalesce_us)
{
  CpelRangeHistory *history = g_new0 (CpelRangeHistory, 1);

  history->back = g_array_new (FALSE, FALSE, sizeof (CpelRange));
  history->forward = g_array_new (FALSE, FALSE, sizeof (CpelRange));
  history->max = MAX (max, 1);
  history->coalesce_us = MAX (coalesce_us, 0);
  return history;
}

void
cpel_range_history_free (CpelRangeHistory *history)
{
  if (history == NULL)
    return;
  g_array_unref (history->back);
  g_array_unref (history->forward);
  g_free (history);
}

void
cpel_range_history_clear (CpelRangeHistory *history)
{
  g_return_if_fail (history != NULL);

  g_array_set_size (history->back, 0);
  g_array_set_size (history->forward, 0);
  history->last_us = 0;
}

void
cpel_range_history_remember (CpelRangeHistory *history,
                             const CpelRange  *current,
                             gboolean          coalesce,
                             gint64            now_us)
{
  g_return_if_fail (history != NULL);
  g_return_if_fail (current != NULL);

  if (coalesce && history->last_us != 0 && now_us - history->last_us < history->coalesce_us)
    {
      history->last_us = now_us;
      return;
    }
  history->last_us = coalesce ? now_us : 0;
  if (history->back->len > 0
      && cpel_range_equal (&g_array_index (history->back, CpelRange, history->back->len - 1), current))
    return;
  g_array_append_val (history->back, *current);
  if (history->back->len > history->max)
    g_array_remove_index (history->back, 0);
  g_array_set_size (history->forward, 0);
}

static gboolean
step (CpelRangeHistory *history,
      GArray           *from,
      GArray           *onto,
      const CpelRange  *current,
      CpelRange        *to)
{
  if (from->len == 0)
    return FALSE;
  *to = g_array_index (from, CpelRange, from->len - 1);
  g_array_set_size (from, from->len - 1);
  g_array_append_val (onto, *current);
  history->last_us = 0;
  return TRUE;
}

gboolean
cpel_range_history_back (CpelRangeHistory *history,
                         const CpelRange  *current,
                         CpelRange        *to)
{
  g_return_val_if_fail (history != NULL, FALSE);
  g_return_val_if_fail (current != NULL && to != NULL, FALSE);
  return step (history, history->back, history->forward, current, to);
}

gboolean
cpel_range_history_forward (CpelRangeHistory *history,
                            const CpelRange  *current,
                            CpelRange        *to)
{
  g_return_val_if_fail (history != NULL, FALSE);
  g_return_val_if_fail (current != NULL && to != NULL, FALSE);
  return step (history, history->forward, history->back, current, to);
}

gboolean
cpel_range_history_can_back (const CpelRangeHistory *history)
{
  g_return_val_if_fail (history != NULL, FALSE);
  return history->back->len > 0;
}

gboolean
cpel_range_history_can_forward (const CpelRangeHistory *history)
{
  g_return_val_if_fail (history != NULL, FALSE);
  return history->forward->len > 0;
}
