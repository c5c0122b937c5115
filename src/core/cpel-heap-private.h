/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-heap-private.h — the binary min-heap of the k-way merges
 *
 * Global time order is a k-way merge in several places (the tracks of a
 * file, the sections of a file read without its index, the matches of a
 * search): each keeps a min-heap of cursors keyed by (time, file order).
 * CPEL_DEFINE_MIN_HEAP generates the heap's two operations for one cursor
 * type, so that its comparison inlines (these merges are hot paths):
 *
 *   static inline void PREFIX_sift_down (TYPE *heap, guint n, guint i);
 *   static inline void PREFIX_heapify   (TYPE *heap, guint n);
 *
 * LESS (const TYPE *a, const TYPE *b) says whether a comes first.
 */
#pragma once

#include <glib.h>

#define CPEL_DEFINE_MIN_HEAP(prefix, Type, less)                               \
  static inline void                                                           \
  prefix##_sift_down (Type *h, guint n, guint i)                               \
  {                                                                            \
    for (;;)                                                                   \
      {                                                                        \
        guint l = 2 * i + 1, r = l + 1, m = i;                                 \
        Type tmp;                                                              \
                                                                               \
        if (l < n && less (&h[l], &h[m]))                                      \
          m = l;                                                               \
        if (r < n && less (&h[r], &h[m]))                                      \
          m = r;                                                               \
        if (m == i)                                                            \
          return;                                                              \
        tmp = h[i];                                                            \
        h[i] = h[m];                                                           \
        h[m] = tmp;                                                            \
        i = m;                                                                 \
      }                                                                        \
  }                                                                            \
                                                                               \
  static inline G_GNUC_UNUSED void                                             \
  prefix##_heapify (Type *h, guint n)                                          \
  {                                                                            \
    for (guint i = n / 2; i-- > 0;)                                            \
      prefix##_sift_down (h, n, i);                                            \
  }

/* A track's cursor: the time and record number (file order) of the event at
 * position `pos` of a list of positions on the track that ends at `end`
 * (the track's own events for a merge, its matches for a search). */
typedef struct
{
  gint64   t;
  guint32  rec;
  guint    slot;
  guint64  pos;
  guint64  end;
} CpelTrackCursor;

static inline gboolean
cpel_track_cursor_less (const CpelTrackCursor *a,
                        const CpelTrackCursor *b)
{
  return a->t < b->t || (a->t == b->t && a->rec < b->rec);
}

CPEL_DEFINE_MIN_HEAP (cpel_track_heap, CpelTrackCursor, cpel_track_cursor_less)
