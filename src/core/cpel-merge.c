/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-merge.c — global time order as a k-way merge of the tracks
 *
 * A binary min-heap of the tracks keyed by (time, file index) of their next
 * event: O(log tracks) per event, no memory per event.
 *
 * A file loaded without its index (CpelLoadOptions.defer_index) whose event
 * sections are each in time order is merged over its sections instead,
 * straight from the mapped records: (time, file index) is then ascending
 * within every section, so the order is the same, event for event.  The
 * pages read are given back as the merge goes, so memory stays bounded
 * whatever the file's size.  A file without an index that is not in time
 * order gets its index built first.
 */
#include "cpel-file-private.h"
#include "cpel-heap-private.h"

#define DROP_EVERY (1u << 16)   /* records: give back what was read */

typedef struct
{
  gint64         t;
  guint64        fi;        /* file index of rec */
  const guint8  *rec;
  const guint8  *end;
  const guint8  *drop_from;
  guint          section;
} SectionHead;


struct _CpelMerge
{
  CpelFile    *file;
  CpelTrackCursor *heap;  /* pos: the next index on the track */
  guint        n;

  /* merging sections (no index) */
  SectionHead *sheap;
  CpelDiv64   *divs;
  guint8      *wanted;      /* per slot, or NULL for every track */
  guint32      last_id;
  guint32      last_slot;
  guint32      last_code;
  guint32      last_type;
};

static inline gboolean
section_less (const SectionHead *a,
              const SectionHead *b)
{
  return a->t < b->t || (a->t == b->t && a->fi < b->fi);
}

CPEL_DEFINE_MIN_HEAP (section_heap, SectionHead, section_less)

/* The time of the record as in the index: ns since the earliest event. */
static inline gint64
record_time (CpelMerge    *merge,
             guint         section,
             const guint8 *rec)
{
  CpelFile *file = merge->file;
  gint64 ns = cpel_div64_ticks_to_ns (&merge->divs[section], cpel_file_record_ticks (file, rec));

  return MIN (ns - file->base_ns, CPEL_TIME_MAX);
}

guint64
cpel_file_section_lower_bound (CpelFile *self,
                               guint     section,
                               gint64    t)
{
  const CpelEventSection *es;
  CpelDiv64 dv;
  guint64 lo = 0, hi;

  g_assert (section < self->n_evsecs);
  es = &self->evsecs[section];
  hi = es->count;
  cpel_div64_init (&dv, es->tps);
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      const guint8 *rec = es->records + mid * CPEL_EVENT_RECORD_SIZE;
      gint64 ns = cpel_div64_ticks_to_ns (&dv, cpel_file_record_ticks (self, rec));

      if (MIN (ns - self->base_ns, CPEL_TIME_MAX) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
sections_init (CpelMerge   *merge,
               const guint *slots,
               guint        n_slots,
               gint64       from)
{
  CpelFile *file = merge->file;

  merge->divs = g_new (CpelDiv64, MAX (file->n_evsecs, 1));
  merge->sheap = g_new (SectionHead, MAX (file->n_evsecs, 1));
  merge->last_slot = merge->last_type = CPEL_U32MAP_NONE;
  if (slots != NULL)
    {
      merge->wanted = g_new0 (guint8, MAX (file->n_tracks, 1));
      for (guint i = 0; i < n_slots; i++)
        if (slots[i] < file->n_tracks)
          merge->wanted[slots[i]] = 1;
    }

  for (guint s = 0; s < file->n_evsecs; s++)
    {
      const CpelEventSection *es = &file->evsecs[s];
      SectionHead *h = &merge->sheap[merge->n];
      guint64 lo;

      cpel_div64_init (&merge->divs[s], es->tps);
      /* the first record at or after `from` (the section is in time order) */
      lo = cpel_file_section_lower_bound (file, s, from);
      if (lo == es->count)
        continue;
      h->section = s;
      h->rec = es->records + lo * CPEL_EVENT_RECORD_SIZE;
      h->end = es->records + (guint64) es->count * CPEL_EVENT_RECORD_SIZE;
      h->drop_from = h->rec;
      h->fi = es->first_index + lo;
      h->t = record_time (merge, s, h->rec);
      merge->n++;
    }
  section_heap_heapify (merge->sheap, merge->n);
}

static gboolean
sections_next (CpelMerge *merge,
               CpelEvent *event)
{
  CpelFile *file = merge->file;

  while (merge->n > 0)
    {
      SectionHead *top = &merge->sheap[0];
      const guint8 *rec = top->rec;
      guint32 id = cpel_file_read32 (file, rec + 8);
      gboolean keep;

      if (id != merge->last_id || merge->last_slot == CPEL_U32MAP_NONE)
        {
          merge->last_id = id;
          merge->last_slot = cpel_u32map_get (file->track_map, id);
        }
      /* a slot unknown to the index only when the mapping was damaged */
      keep = merge->wanted == NULL
             || (merge->last_slot < file->n_tracks && merge->wanted[merge->last_slot]);
      if (keep && event != NULL)
        {
          guint32 code = cpel_file_read32 (file, rec + 12);

          if (code != merge->last_code || merge->last_type == CPEL_U32MAP_NONE)
            {
              merge->last_code = code;
              merge->last_type = cpel_u32map_get (file->type_map, code);
            }
          event->time_ns = top->t;
          event->file_index = top->fi;
          event->track_id = id;
          event->code = code;
          event->datum = cpel_file_read32 (file, rec + 16);
          event->track_slot = merge->last_slot;
          event->type = merge->last_type;
          event->section = top->section;
        }

      top->rec += CPEL_EVENT_RECORD_SIZE;
      top->fi++;
      if (G_UNLIKELY ((guint64) (top->rec - top->drop_from) >= (guint64) DROP_EVERY * CPEL_EVENT_RECORD_SIZE))
        {
          cpel_file_drop_pages (file, top->drop_from, top->rec);
          top->drop_from = top->rec;
        }
      if (top->rec < top->end)
        top->t = record_time (merge, top->section, top->rec);
      else
        {
          cpel_file_drop_pages (file, top->drop_from, top->end);
          merge->sheap[0] = merge->sheap[--merge->n];
        }
      if (merge->n > 1)
        section_heap_sift_down (merge->sheap, merge->n, 0);
      if (keep)
        return TRUE;
    }
  return FALSE;
}

static inline void
load_head (CpelFile        *file,
           CpelTrackCursor *h)
{
  guint64 pos = file->tracks[h->slot].first + h->pos;

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
  if (!cpel_file_has_index (self))
    {
      if (cpel_file_is_time_ordered (self))
        {
          sections_init (merge, slots, n_slots, from);
          return merge;
        }
      /* cannot be cancelled: builds or aborts */
      cpel_file_ensure_index (self, NULL, NULL);
    }
  merge->heap = g_new (CpelTrackCursor, MAX (n_slots, 1));
  for (guint i = 0; i < n_slots; i++)
    {
      guint slot = slots ? slots[i] : i;
      CpelTrackCursor *h = &merge->heap[merge->n];

      g_return_val_if_fail (slot < self->n_tracks, merge);
      h->slot = slot;
      h->pos = cpel_file_track_lower_bound (self, slot, from);
      h->end = self->tracks[slot].count;
      if (h->pos < h->end)
        {
          load_head (self, h);
          merge->n++;
        }
    }
  cpel_track_heap_heapify (merge->heap, merge->n);
  return merge;
}

gboolean
cpel_merge_next (CpelMerge *merge,
                 CpelEvent *event,
                 guint64   *track_index)
{
  CpelTrackCursor *top;

  g_return_val_if_fail (merge != NULL, FALSE);

  if (merge->sheap != NULL)
    {
      /* no track index: the event's index in its track is not known */
      g_return_val_if_fail (track_index == NULL, FALSE);
      return sections_next (merge, event);
    }
  if (merge->n == 0)
    return FALSE;
  top = &merge->heap[0];
  if (event)
    cpel_file_get_track_event (merge->file, top->slot, top->pos, event);
  if (track_index)
    *track_index = top->pos;

  if (++top->pos < top->end)
    load_head (merge->file, top);
  else
    merge->heap[0] = merge->heap[--merge->n];
  cpel_track_heap_sift_down (merge->heap, merge->n, 0);
  return TRUE;
}

void
cpel_merge_free (CpelMerge *merge)
{
  if (merge == NULL)
    return;
  g_object_unref (merge->file);
  g_free (merge->heap);
  g_free (merge->sheap);
  g_free (merge->divs);
  g_free (merge->wanted);
  g_free (merge);
}
