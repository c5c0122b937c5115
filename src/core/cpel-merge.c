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
 * whatever the file's size.
 *
 * A file that cpel_file_check_nearly_ordered() found nearly in time order
 * is merged the same way: a section whose records each come at or after
 * every record `window` places before them is read through a min-heap of
 * `window` records keyed (time, file index), refilled one record per record
 * taken.  That yields the section in (time, file index) order: when the
 * m-th record is taken the heap has seen records 0 … m + window − 1, of
 * which one of 0 … m is still in it, and every record after m + window − 1
 * comes after that one.  Equal times keep file order, as in the index.  A
 * file without an index that is neither gets its index built first.
 */
#include "cpel-file-private.h"
#include "cpel-heap-private.h"

#include <string.h>

#define DROP_EVERY (1u << 16)   /* records: give back what was read */

/* A record waiting in a section's reorder heap. */
typedef struct
{
  gint64         t;
  guint64        fi;
  const guint8  *rec;
} Pending;

typedef struct
{
  gint64         t;
  guint64        fi;        /* file index of rec */
  const guint8  *rec;
  const guint8  *end;
  const guint8  *drop_from;
  guint          section;
  /* a nearly ordered section: its reorder heap (rec, t, fi: its top) */
  Pending       *win;
  guint          n_win;
  guint          window;
  const guint8  *next;      /* the next record to read into the heap */
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

static inline gboolean
pending_less (const Pending *a,
              const Pending *b)
{
  return a->t < b->t || (a->t == b->t && a->fi < b->fi);
}

CPEL_DEFINE_MIN_HEAP (pending_heap, Pending, pending_less)

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

/* The smallest of the records [i, i + window) of a nearly ordered section
 * (G_MAXINT64 past its end): the smallest of all records from i on, since
 * every record after those comes after each of them.  Ascending in i. */
static gint64
window_min (CpelMerge              *merge,
            const CpelEventSection *es,
            guint                   section,
            guint64                 i)
{
  guint64 end = MIN ((guint64) es->count, i + es->window);
  gint64 m = G_MAXINT64;

  for (; i < end; i++)
    m = MIN (m, record_time (merge, section, es->records + i * CPEL_EVENT_RECORD_SIZE));
  return m;
}

/* A position in a nearly ordered section before which every record is
 * before `from`: q, the first position from which every record is at or
 * after `from`, less the window (each record before q − window is at or
 * before the smallest from q − 1 on, which is before `from`). */
static guint64
window_lower_bound (CpelMerge *merge,
                    guint      section,
                    gint64     from)
{
  const CpelEventSection *es = &merge->file->evsecs[section];
  guint64 lo = 0, hi = es->count;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (window_min (merge, es, section, mid) < from)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > es->window ? lo - es->window : 0;
}

static inline void
pending_load (CpelMerge   *merge,
              SectionHead *h,
              Pending     *p)
{
  const CpelEventSection *es = &merge->file->evsecs[h->section];

  p->rec = h->next;
  p->fi = es->first_index + (guint64) (h->next - es->records) / CPEL_EVENT_RECORD_SIZE;
  p->t = record_time (merge, h->section, h->next);
  h->next += CPEL_EVENT_RECORD_SIZE;
}

/* Takes the top of a section's reorder heap and reads the next record in;
 * FALSE when the section is done. */
static gboolean
window_advance (CpelMerge   *merge,
                SectionHead *h)
{
  if (h->next < h->end)
    pending_load (merge, h, &h->win[0]);
  else
    h->win[0] = h->win[--h->n_win];
  if (h->n_win > 1)
    pending_heap_sift_down (h->win, h->n_win, 0);
  if (h->n_win == 0)
    return FALSE;
  h->t = h->win[0].t;
  h->fi = h->win[0].fi;
  h->rec = h->win[0].rec;
  return TRUE;
}

/* A nearly ordered section from `from` on into its reorder heap; FALSE when
 * none of its records is at or after `from`. */
static gboolean
window_init (CpelMerge   *merge,
             SectionHead *h,
             gint64       from)
{
  const CpelEventSection *es = &merge->file->evsecs[h->section];
  guint64 start = window_lower_bound (merge, h->section, from);
  guint64 n = MIN ((guint64) es->count - start, (guint64) es->window);

  h->window = es->window;
  h->win = g_new (Pending, MAX (n, 1));
  h->end = es->records + (guint64) es->count * CPEL_EVENT_RECORD_SIZE;
  h->next = es->records + start * CPEL_EVENT_RECORD_SIZE;
  h->drop_from = h->next;
  for (h->n_win = 0; h->n_win < n; h->n_win++)
    pending_load (merge, h, &h->win[h->n_win]);
  if (h->n_win == 0)
    return FALSE;
  pending_heap_heapify (h->win, h->n_win);
  h->t = h->win[0].t;
  h->fi = h->win[0].fi;
  h->rec = h->win[0].rec;
  /* the records before `from` come first */
  while (h->t < from)
    if (!window_advance (merge, h))
      return FALSE;
  return TRUE;
}

static void
sections_init (CpelMerge   *merge,
               guint        only,
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
      if (only != G_MAXUINT && s != only)
        continue;
      memset (h, 0, sizeof *h);
      h->section = s;
      if (!es->sorted)
        {
          g_assert (file->nearly_ordered && es->window > 0);
          if (window_init (merge, h, from))
            merge->n++;
          else
            g_clear_pointer (&h->win, g_free);
          continue;
        }
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

      if (top->win != NULL)
        {
          /* what the heap still holds is at most `window` records back */
          const guint8 *behind = top->next - MIN ((guint64) (top->next - top->drop_from),
                                                  (guint64) top->window * CPEL_EVENT_RECORD_SIZE);

          if (G_UNLIKELY ((guint64) (behind - top->drop_from) >= (guint64) DROP_EVERY * CPEL_EVENT_RECORD_SIZE))
            {
              cpel_file_drop_pages (file, top->drop_from, behind);
              top->drop_from = behind;
            }
          if (!window_advance (merge, top))
            {
              cpel_file_drop_pages (file, top->drop_from, top->end);
              g_free (top->win);
              merge->sheap[0] = merge->sheap[--merge->n];
            }
          if (merge->n > 1)
            section_heap_sift_down (merge->sheap, merge->n, 0);
          if (keep)
            return TRUE;
          continue;
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
      if (cpel_file_can_stream (self))
        {
          sections_init (merge, G_MAXUINT, slots, n_slots, from);
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

CpelMerge *
cpel_merge_new_section (CpelFile    *self,
                        guint        section,
                        const guint *slots,
                        guint        n_slots,
                        gint64       from)
{
  CpelMerge *merge;

  g_assert (!cpel_file_has_index (self) && cpel_file_can_stream (self) && section < self->n_evsecs);
  merge = g_new0 (CpelMerge, 1);
  merge->file = g_object_ref (self);
  sections_init (merge, section, slots, slots != NULL ? n_slots : self->n_tracks, from);
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
  for (guint i = 0; merge->sheap != NULL && i < merge->n; i++)
    g_free (merge->sheap[i].win);
  g_free (merge->sheap);
  g_free (merge->divs);
  g_free (merge->wanted);
  g_free (merge);
}

/* ---- nearly ordered files ------------------------------------------- */

#define WINDOW_BUDGET (1u << 20)   /* reorder heap entries over all sections */

/* The window section `es` needs (1 when in order), or 0 when some record
 * is CPEL_REORDER_WINDOW or more places after a later one (or cancelled).
 * Raw ticks, as the first pass compares them: ns are ticks scaled, so the
 * order only loses strictness.  pm[] holds the prefix maxima of the last
 * CPEL_REORDER_WINDOW records (ascending): a record below the running
 * maximum needs a window reaching back to the first record above it. */
static guint32
section_window (CpelFile               *file,
                const CpelEventSection *es,
                guint64                *pm,
                GCancellable           *cancellable)
{
  const guint64 mask = CPEL_REORDER_WINDOW - 1;
  const guint8 *drop_from = es->records;
  guint64 max = 0;
  guint32 need = 1;

  G_STATIC_ASSERT ((CPEL_REORDER_WINDOW & (CPEL_REORDER_WINDOW - 1)) == 0);

  for (guint64 j = 0; j < es->count; j++)
    {
      const guint8 *rec = es->records + j * CPEL_EVENT_RECORD_SIZE;
      guint64 t = cpel_file_record_ticks (file, rec);

      if (G_LIKELY (t >= max))
        max = t;
      else
        {
          /* the first record above t: pm is ascending over [lo, j) */
          guint64 lo = j > CPEL_REORDER_WINDOW ? j - CPEL_REORDER_WINDOW : 0;
          guint64 hi = j;

          while (lo < hi)
            {
              guint64 mid = lo + (hi - lo) / 2;

              if (pm[mid & mask] > t)
                hi = mid;
              else
                lo = mid + 1;
            }
          /* lo = j - CPEL_REORDER_WINDOW: the first one above t may be
           * further back still; too far either way */
          if (j - lo + 1 > CPEL_REORDER_WINDOW)
            return 0;
          need = MAX (need, (guint32) (j - lo + 1));
        }
      pm[j & mask] = max;

      if (G_UNLIKELY ((j + 1) % DROP_EVERY == 0))
        {
          cpel_file_drop_pages (file, drop_from, rec);
          drop_from = rec;
          if (g_cancellable_is_cancelled (cancellable))
            return 0;
        }
    }
  cpel_file_drop_pages (file, drop_from, es->records + (guint64) es->count * CPEL_EVENT_RECORD_SIZE);
  return need;
}

gboolean
cpel_file_check_nearly_ordered (CpelFile     *self,
                                GCancellable *cancellable)
{
  g_autofree guint64 *pm = NULL;
  guint64 total = 0;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);

  if (self->time_ordered)
    return TRUE;
  if (self->nearly_ordered)
    return TRUE;
  pm = g_new (guint64, CPEL_REORDER_WINDOW);
  for (guint s = 0; s < self->n_evsecs; s++)
    {
      CpelEventSection *es = &self->evsecs[s];

      if (es->sorted)
        continue;
      es->window = section_window (self, es, pm, cancellable);
      total += es->window;
      if (es->window == 0 || total > WINDOW_BUDGET)
        return FALSE;
    }
  self->nearly_ordered = TRUE;
  return TRUE;
}

gboolean
cpel_file_can_stream (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return self->time_ordered || self->nearly_ordered;
}
