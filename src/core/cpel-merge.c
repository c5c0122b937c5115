/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-merge.c — global time order as a k-way merge of the tracks
 *
 * A binary min-heap of the tracks keyed by (time, file index) of their next
 * event: O(log tracks) per event, no memory per event.
 */
#include "cpel-file-private.h"

typedef struct
{
  gint64   t;
  guint32  rec;
  guint    slot;
  guint64  index;   /* next index in the track */
  guint64  end;
} Head;

struct _CpelMerge
{
  CpelFile *file;
  Head     *heap;
  guint     n;
};

static inline gboolean
head_less (const Head *a,
           const Head *b)
{
  return a->t < b->t || (a->t == b->t && a->rec < b->rec);
}

static void
sift_down (CpelMerge *merge,
           guint      i)
{
  Head *h = merge->heap;
  guint n = merge->n;

  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      Head tmp;

      if (l < n && head_less (&h[l], &h[m]))
        m = l;
      if (r < n && head_less (&h[r], &h[m]))
        m = r;
      if (m == i)
        return;
      tmp = h[i];
      h[i] = h[m];
      h[m] = tmp;
      i = m;
    }
}

static inline void
load_head (CpelFile *file,
           Head     *h)
{
  guint64 pos = file->tracks[h->slot].first + h->index;

  h->t = file->times[pos];
  h->rec = file->recs[pos];
}

CpelMerge *
cpel_merge_new (CpelFile    *self,
                const guint *slots,
                guint        n_slots,
                gint64       from)
{
  CpelMerge *merge;

  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);

  if (slots == NULL)
    n_slots = self->n_tracks;

  merge = g_new0 (CpelMerge, 1);
  merge->file = g_object_ref (self);
  merge->heap = g_new (Head, MAX (n_slots, 1));
  for (guint i = 0; i < n_slots; i++)
    {
      guint slot = slots ? slots[i] : i;
      Head *h = &merge->heap[merge->n];

      g_return_val_if_fail (slot < self->n_tracks, merge);
      h->slot = slot;
      h->index = cpel_file_track_lower_bound (self, slot, from);
      h->end = self->tracks[slot].count;
      if (h->index < h->end)
        {
          load_head (self, h);
          merge->n++;
        }
    }
  for (guint i = merge->n / 2; i-- > 0;)
    sift_down (merge, i);
  return merge;
}

gboolean
cpel_merge_next (CpelMerge *merge,
                 CpelEvent *event,
                 guint64   *track_index)
{
  Head *top;

  g_return_val_if_fail (merge != NULL, FALSE);

  if (merge->n == 0)
    return FALSE;
  top = &merge->heap[0];
  if (event)
    cpel_file_get_track_event (merge->file, top->slot, top->index, event);
  if (track_index)
    *track_index = top->index;

  if (++top->index < top->end)
    load_head (merge->file, top);
  else
    merge->heap[0] = merge->heap[--merge->n];
  sift_down (merge, 0);
  return TRUE;
}

void
cpel_merge_free (CpelMerge *merge)
{
  if (merge == NULL)
    return;
  g_object_unref (merge->file);
  g_free (merge->heap);
  g_free (merge);
}
