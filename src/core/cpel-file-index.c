/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-index.c — the per-track time index
 *
 * Two passes over the mapped event records, split in chunks across threads
 * (a parallel, stable counting sort by track):
 *   A. per chunk: the track ids and event codes it holds and their counts,
 *      and the earliest/latest time;
 *   B. per chunk: scatter each event's time (ns since the earliest) and file
 *      index to its track's next position, and count the overview's buckets.
 * Each track's events are then in file order; a track that is not sorted by
 * time (rare) is sorted by (time, file index), which is stable.  The result
 * does not depend on the number of threads.  Index memory: 12 bytes/event,
 * anonymous memory faulted in by each thread for its share before pass B
 * (or a file: cpel-index-store.c): the build writes all over it, and on this
 * kind of machine page faults and TLB misses are most of its cost.
 *
 * Pass A also notes which event sections are in time order.  A deferred
 * build (for streaming) stops after pass A, keeps what pass B needs (each
 * chunk's first write position per track) and gives back the mapped pages
 * it read; cpel_file_fill_index () runs passes B and C later if needed.
 */
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "cpel-file-private.h"
#include "cpel-index-cache-private.h"

#ifdef G_OS_UNIX
#include <sys/mman.h>
#include <unistd.h>
#endif

#define CHECK_EVERY (1u << 20)
/* progress after the first 2^20 events of the first chunk, then every
 * 2^22: ~25 reports for 10^8 events on two threads, each a redraw of the
 * viewer's progress bars (the UI thread's and the display server's CPU,
 * taken from the build) */
#define REPORT_EVERY (1u << 22)
#define DROP_EVERY  (1u << 16)   /* deferred pass A: give back what was read (1.3 MB) */
#define MIN_EVENTS_PER_THREAD 500000
/* Records up to this size stay mapped from pass A to pass B (below). */
#define PASS_A_KEEP_MAX (64u << 20)

#define record_ticks cpel_file_record_ticks

/* Below this, plain g_malloc: a mapping of its own costs more than it saves. */
#define INDEX_MMAP_MIN (1u << 21)

/* Transparent huge pages for an index in memory.  They spare the
 * scattering pass TLB misses, but on a virtual machine whose host takes
 * back free guest memory (free page reporting returns whole 2 MB blocks)
 * their first touch is most of the build's cost: 1.2 GB of huge pages took
 * 3.5 s to fault in there after a few seconds idle, 4 KB pages 0.3–0.5 s
 * every time.  So by default the index is faulted in with 4 KB pages and
 * asked for huge pages after it is built (khugepaged may then collapse it
 * at its own pace, the build never waits for one);
 * CPEL_INDEX_HUGEPAGES=1 asks before the first touch, =0 never. */
typedef enum
{
  HUGEPAGES_AFTER_BUILD,
  HUGEPAGES_AT_FAULT,
  HUGEPAGES_NEVER,
} Hugepages;

static Hugepages
hugepages_mode (void)
{
  static gsize once;
  static Hugepages mode;

  if (g_once_init_enter (&once))
    {
      const char *env = g_getenv ("CPEL_INDEX_HUGEPAGES");

      mode = g_strcmp0 (env, "1") == 0   ? HUGEPAGES_AT_FAULT
             : g_strcmp0 (env, "0") == 0 ? HUGEPAGES_NEVER
                                         : HUGEPAGES_AFTER_BUILD;
      g_once_init_leave (&once, 1);
    }
  return mode;
}

/* An index array of cpel_index_alloc (), built: huge pages asked for now
 * (HUGEPAGES_AFTER_BUILD). */
static void
index_built (gpointer mem,
             gsize    size)
{
#if defined(G_OS_UNIX) && defined(MADV_HUGEPAGE)
  if (size >= INDEX_MMAP_MIN && hugepages_mode () == HUGEPAGES_AFTER_BUILD)
    madvise (mem, size, MADV_HUGEPAGE);
#endif
}

gpointer
cpel_index_alloc (gsize size)
{
#if defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
  if (size >= INDEX_MMAP_MIN)
    {
      void *mem = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

      if (mem == MAP_FAILED)
        g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
#ifdef MADV_HUGEPAGE
      if (hugepages_mode () == HUGEPAGES_AT_FAULT)
        madvise (mem, size, MADV_HUGEPAGE);
#endif
      return mem;
    }
#endif
  return g_malloc (size);
}

void
cpel_index_free (gpointer mem,
                 gsize    size)
{
  if (mem == NULL)
    return;
#if defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
  if (size >= INDEX_MMAP_MIN)
    {
      munmap (mem, size);
      return;
    }
#endif
  g_free (mem);
}

typedef struct _Chunk Chunk;
typedef void (*ChunkFunc) (Chunk *chunk);

struct _Chunk
{
  CpelFile       *file;
  ChunkFunc       func;
  guint64         begin;           /* file index range [begin, end) */
  guint64         end;
  GCancellable   *cancellable;
  CpelProgressFunc progress;       /* only the first chunk reports */
  gpointer        progress_data;
  gboolean        cancelled;
  gboolean        changed;         /* pass B read what pass A did not count */

  /* pass A */
  CpelU32Map     *tracks;          /* id -> local index */
  GArray         *track_ids;       /* guint32 */
  GArray         *track_counts;    /* guint64 */
  CpelU32Map     *codes;
  GArray         *code_ids;
  GArray         *code_counts;
  gint64          min_ns;
  gint64          max_ns;

  /* pass B */
  guint64        *next;            /* per slot: next write position */
  const CpelDiv64 *divs;           /* per event section */
  gboolean        drop;            /* pass A gives back the pages it read (so
                                    * that the whole file mapped does not add
                                    * its size to the peak) */
  gboolean       *unsorted;        /* pass A: per event section */

  gint64         *last_ns;         /* pass B: per slot, the last time written */
  guint8         *track_unsorted;  /* pass B: per slot, a time below the one before */
  guint64        *dropped;         /* pass B, index in a file: per slot, given back up to */
  guint           index;           /* this chunk's number, of n_chunks */
  guint           n_chunks;
  gboolean        populate;        /* pass B: fault in the chunk's share of the index first */
  const gint64   *ov_bounds;       /* pass B: the overview's bucket bounds */
  double          ov_scale;        /* buckets per ns */
  guint64        *ov_counts;       /* pass B: the chunk's overview counts */

  /* pass C: tracks [slot_begin, slot_end) that are not in time order */
  guint           slot_begin;
  guint           slot_end;
  const guint8   *sort;            /* per slot: to be sorted */
};

/* Drops what the chunk read of every event section so far (up to rec in
 * `section`). */
#define DROP_BEHIND(chunk, section, rec, from)                                              \
  G_STMT_START {                                                                            \
    if ((from) == NULL || (from) < (section)->records                                       \
        || (from) >= (section)->records + (guint64) (section)->count * CPEL_EVENT_RECORD_SIZE) \
      (from) = (section)->records + (MAX ((chunk)->begin, (section)->first_index)           \
                                     - (section)->first_index) * CPEL_EVENT_RECORD_SIZE;    \
    cpel_file_drop_pages ((chunk)->file, (from), (rec));                                              \
    (from) = (rec);                                                                         \
  } G_STMT_END

static void
report (Chunk   *chunk,
        double   base,
        double   span,
        guint64  done)
{
  if (chunk->progress && chunk->end > chunk->begin)
    chunk->progress (base + span * (double) done / (double) (chunk->end - chunk->begin),
                     chunk->progress_data);
}

static gboolean
check_cancel (Chunk *chunk)
{
  if (chunk->cancellable && g_cancellable_is_cancelled (chunk->cancellable))
    chunk->cancelled = TRUE;
  return chunk->cancelled;
}

static inline guint32
local_index (CpelU32Map *map,
             GArray     *ids,
             GArray     *counts,
             guint32     key)
{
  guint32 idx = cpel_u32map_get (map, key);

  if (G_UNLIKELY (idx == CPEL_U32MAP_NONE))
    {
      guint64 zero = 0;

      idx = ids->len;
      cpel_u32map_insert (map, key, idx);
      g_array_append_val (ids, key);
      g_array_append_val (counts, zero);
    }
  return idx;
}

/* Counts one more `key` and gives its local index.  A key in the map's
 * direct table is one load (no branch on whether it changed: with many
 * tracks or codes interleaved that branch is a guess); others go through
 * the last key seen, then the hash. */
static inline guint32
count_key (CpelU32Map    *map,
           const guint32 *direct,
           guint32        n_direct,
           GArray        *ids,
           GArray        *counts,
           guint32        key,
           guint32       *last_key,
           guint32       *last_idx)
{
  guint32 idx = key < n_direct ? direct[key] : CPEL_U32MAP_NONE;

  if (G_UNLIKELY (idx == CPEL_U32MAP_NONE))
    {
      if (key != *last_key || *last_idx == CPEL_U32MAP_NONE)
        {
          *last_key = key;
          *last_idx = local_index (map, ids, counts, key);
        }
      idx = *last_idx;
    }
  ((guint64 *) counts->data)[idx]++;
  return idx;
}



/* A 32-bit field of a record; `le` is the file's byte order, read once
 * into a local by the passes (the file's own flag would be read again after
 * every store of the same type: it may alias it). */
static inline guint32
rd32 (gboolean      le,
      const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return le ? GUINT32_FROM_LE (v) : GUINT32_FROM_BE (v);
}

/* A pass's rare work, out of its loop (pass B's is bound by its scattered
 * stores and was seen to lose a quarter of its speed to a few more lines
 * inside it), every DROP_EVERY (pass A) or CHECK_EVERY (pass B) events:
 * the records read so far given back (`drop`), what pass B wrote of an
 * index in a file too, and every CHECK_EVERY the cancellable and the
 * progress.  FALSE when cancelled. */
static void drop_written (Chunk   *chunk,
                          gboolean all);

static G_GNUC_NO_INLINE gboolean
checkpoint (Chunk                  *chunk,
            const CpelEventSection *section,
            const guint8           *rec,
            const guint8          **drop_from,
            guint64                 done,
            gboolean                drop,
            gboolean                in_pass_b)
{
  if (drop)
    DROP_BEHIND (chunk, section, rec, *drop_from);
  if (in_pass_b)
    drop_written (chunk, FALSE);
  if (done % CHECK_EVERY != 0)
    return TRUE;
  if (check_cancel (chunk))
    return FALSE;
  if (done == CHECK_EVERY || done % REPORT_EVERY == 0)
    report (chunk, in_pass_b ? 0.45 : 0.0, 0.45, done);
  return TRUE;
}

static void
pass_a (Chunk *chunk)
{
  CpelFile *file = chunk->file;
  const gboolean le = file->little_endian;
  gint64 min_ns = G_MAXINT64, max_ns = G_MININT64;
  guint32 last_track = 0, last_track_idx = CPEL_U32MAP_NONE;
  guint32 last_code = 0, last_code_idx = CPEL_U32MAP_NONE;
  const guint32 *track_direct = chunk->tracks->direct, *code_direct = chunk->codes->direct;
  const guint32 n_track_direct = chunk->tracks->n_direct, n_code_direct = chunk->codes->n_direct;
  guint64 done = 0;
  const guint8 *drop_from = NULL;

  for (guint s = 0; s < file->n_evsecs; s++)
    {
      const CpelEventSection *section = &file->evsecs[s];
      guint64 lo = MAX (chunk->begin, section->first_index);
      guint64 hi = MIN (chunk->end, section->first_index + section->count);
      const guint8 *rec = section->records + (lo - section->first_index) * CPEL_EVENT_RECORD_SIZE;
      guint64 min_t = G_MAXUINT64, max_t = 0, prev_t = 0;
      gboolean unsorted = FALSE;

      for (guint64 fi = lo; fi < hi; fi++, rec += CPEL_EVENT_RECORD_SIZE)
        {
          guint64 ticks = (guint64) rd32 (le, rec) << 32 | rd32 (le, rec + 4);

          /* raw ticks: converted once per section at its end (monotonic) */
          unsorted |= ticks < prev_t;
          prev_t = ticks;
          min_t = MIN (min_t, ticks);
          max_t = MAX (max_t, ticks);
          count_key (chunk->tracks, track_direct, n_track_direct, chunk->track_ids, chunk->track_counts,
                     rd32 (le, rec + 8), &last_track, &last_track_idx);
          count_key (chunk->codes, code_direct, n_code_direct, chunk->code_ids, chunk->code_counts,
                     rd32 (le, rec + 12), &last_code, &last_code_idx);

          if (G_UNLIKELY (++done % DROP_EVERY == 0)
              && !checkpoint (chunk, section, rec, &drop_from, done, chunk->drop, FALSE))
            return;
        }
      if (unsorted)
        chunk->unsorted[s] = TRUE;
      if (min_t <= max_t)
        {
          min_ns = MIN (min_ns, cpel_ticks_to_ns (min_t, section->tps));
          max_ns = MAX (max_ns, cpel_ticks_to_ns (max_t, section->tps));
        }
    }
  chunk->min_ns = min_ns;
  chunk->max_ns = max_ns;
}

/* An index in a file: gives back what the chunk wrote of each track (in
 * whole runs of DROP_ELEMS; the last, partial one when `all`). */
#define DROP_ELEMS 4096u

static void
drop_written (Chunk   *chunk,
              gboolean all)
{
  CpelFile *file = chunk->file;

  if (file->index_map == NULL)
    return;
  for (guint s = 0; s < file->n_tracks; s++)
    {
      guint64 to = all ? chunk->next[s] : chunk->next[s] & ~(guint64) (DROP_ELEMS - 1);

      if (to > chunk->dropped[s] && (all || to - chunk->dropped[s] >= DROP_ELEMS))
        {
          cpel_index_store_drop (file, file->times + chunk->dropped[s], file->times + to);
          cpel_index_store_drop (file, file->recs + chunk->dropped[s], file->recs + to);
          chunk->dropped[s] = to;
        }
    }
}

#ifdef MADV_POPULATE_WRITE
/* Faults in [from, to) of an index in memory in one call (Linux 5.14): a
 * third cheaper here than a fault a page as the scatter first writes there.
 * Older kernels refuse it and the build faults its pages in as it goes. */
static void
populate (gpointer from,
          gpointer to)
{
  /* each build thread calls this once: no shared state to race on */
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr lo, hi;

  lo = (guintptr) from & ~(guintptr) (page - 1);
  hi = ((guintptr) to + page - 1) & ~(guintptr) (page - 1);
  if (hi > lo)
    madvise ((void *) lo, hi - lo, MADV_POPULATE_WRITE);
}
#endif

/* Pass B's rare paths, out of its loop (see checkpoint ()): the slot of a
 * track id beyond the direct table (CPEL_U32MAP_NONE for a track pass A
 * did not see: the file changed in between) ... */
static G_GNUC_NO_INLINE guint32
slot_hashed (CpelFile *file,
             guint32   track)
{
  return cpel_u32map_get (file->track_map, track);
}

/* ... and the overview bucket of a time outside the current one (`*run`
 * events were in bucket `*b`). */
static G_GNUC_NO_INLINE void
overview_move (Chunk   *chunk,
               gint64   ns,
               guint   *b,
               guint64 *run,
               gint64  *lo,
               gint64  *hi)
{
  const gint64 *bnd = chunk->ov_bounds;
  guint k = (guint) MIN ((double) ns * chunk->ov_scale, (double) (CPEL_INDEX_CACHE_OVERVIEW_BUCKETS - 1));

  while (k > 0 && ns < bnd[k])
    k--;
  while (k + 1 < CPEL_INDEX_CACHE_OVERVIEW_BUCKETS && ns >= bnd[k + 1])
    k++;
  chunk->ov_counts[*b] += *run;
  *b = k;
  *run = 1;
  *lo = bnd[k];
  *hi = bnd[k + 1];
}

static void
pass_b (Chunk *chunk)
{
  CpelFile *file = chunk->file;
  guint64 *next = chunk->next;
  gint64 *last_ns = chunk->last_ns;
  guint8 *track_unsorted = chunk->track_unsorted;
  gint64 *times = file->times;
  guint32 *recs = file->recs;
  const gboolean le = file->little_endian;
  const guint32 *direct = file->track_map->direct;
  const guint32 n_direct = file->track_map->n_direct;
  const gint64 base = file->base_ns;
  /* Pass B trusts nothing of what pass A counted: the records are read
   * again from the mapping, and the file may have changed in between.  A
   * track pass A did not see, or a write past the index, stops the pass;
   * a track with more events than pass A counted writes into its
   * neighbour's reservation (inside the index): fill () compares every
   * chunk's counts with its reservation at the end. */
  const guint32 n_slots = file->n_tracks;
  const guint64 n_events = file->n_events;
  guint run_b = 0;
  guint64 run_n = 0;
  gint64 run_lo = chunk->ov_bounds[0], run_hi = chunk->ov_bounds[1];
  guint64 done = 0;
  const guint8 *drop_from = NULL;

#ifdef MADV_POPULATE_WRITE
  if (chunk->populate)
    {
      guint64 n = file->n_events;
      guint64 lo = n * chunk->index / chunk->n_chunks, hi = n * (chunk->index + 1) / chunk->n_chunks;

      populate (times + lo, times + hi);
      populate (recs + lo, recs + hi);
    }
#endif

  /* every invariant in a local: the loop's stores to the index may alias
   * anything of their types, and a reload per event shows here */
  for (guint s = 0; s < file->n_evsecs; s++)
    {
      const CpelEventSection *section = &file->evsecs[s];
      const CpelDiv64 dv = chunk->divs[s];
      guint64 lo = MAX (chunk->begin, section->first_index);
      guint64 hi = MIN (chunk->end, section->first_index + section->count);
      const guint8 *rec = section->records + (lo - section->first_index) * CPEL_EVENT_RECORD_SIZE;

      for (guint64 fi = lo; fi < hi; fi++, rec += CPEL_EVENT_RECORD_SIZE)
        {
          guint64 ticks = (guint64) rd32 (le, rec) << 32 | rd32 (le, rec + 4);
          gint64 ns = cpel_div64_ticks_to_ns (&dv, ticks);
          guint32 track = rd32 (le, rec + 8);
          guint32 slot = G_LIKELY (track < n_direct) ? direct[track] : slot_hashed (file, track);
          guint64 pos;

          if (G_UNLIKELY (slot >= n_slots))
            {
              chunk->changed = TRUE;
              return;
            }
          pos = next[slot]++;
          if (G_UNLIKELY (pos >= n_events))
            {
              chunk->changed = TRUE;
              return;
            }
          ns = CLAMP (ns - base, 0, CPEL_TIME_MAX);
          times[pos] = ns;
          recs[pos] = (guint32) fi;
          if (G_UNLIKELY (ns < last_ns[slot]))
            track_unsorted[slot] = TRUE;
          last_ns[slot] = ns;

          /* the overview: counted in runs of the same bucket (the file is
           * mostly in time order) */
          if (G_LIKELY (ns >= run_lo && ns < run_hi))
            run_n++;
          else
            overview_move (chunk, ns, &run_b, &run_n, &run_lo, &run_hi);

          if (G_UNLIKELY (++done % CHECK_EVERY == 0)
              && !checkpoint (chunk, section, rec, &drop_from, done, TRUE, TRUE))
            return;
        }
    }
  chunk->ov_counts[run_b] += run_n;
  drop_written (chunk, TRUE);
}

typedef struct
{
  gint64  t;
  guint32 rec;
} TimeRec;

static int
compare_time_rec (gconstpointer a,
                  gconstpointer b)
{
  const TimeRec *x = a, *y = b;

  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->rec < y->rec ? -1 : x->rec > y->rec;
}

/* Sort the tracks of the chunk that are not in time order (as pass B
 * found). */
static void
pass_c (Chunk *chunk)
{
  CpelFile *file = chunk->file;

  for (guint slot = chunk->slot_begin; slot < chunk->slot_end; slot++)
    {
      CpelTrack *track = &file->tracks[slot];
      gint64 *t = file->times + track->first;
      guint32 *r = file->recs + track->first;
      TimeRec *tmp;

      if (!chunk->sort[slot])
        continue;

      tmp = g_new (TimeRec, track->count);
      for (guint64 i = 0; i < track->count; i++)
        {
          tmp[i].t = t[i];
          tmp[i].rec = r[i];
        }
      qsort (tmp, track->count, sizeof (TimeRec), compare_time_rec);
      for (guint64 i = 0; i < track->count; i++)
        {
          t[i] = tmp[i].t;
          r[i] = tmp[i].rec;
        }
      g_free (tmp);
      cpel_index_store_drop (file, t, t + track->count);
      cpel_index_store_drop (file, r, r + track->count);
    }
}

static gpointer
run_chunk_thread (gpointer data)
{
  Chunk *chunk = data;

  chunk->func (chunk);
  return NULL;
}

/* Runs func on every chunk, chunk 0 in this thread. */
static void
run_chunks (CpelFile *file,
            Chunk    *chunks,
            guint     n,
            ChunkFunc func)
{
  GThread *threads[64];

  g_assert (n <= G_N_ELEMENTS (threads));

  for (guint i = 0; i < n; i++)
    chunks[i].func = func;
  for (guint i = 1; i < n; i++)
    threads[i] = g_thread_new ("cpel-index", run_chunk_thread, &chunks[i]);
  func (&chunks[0]);
  for (guint i = 1; i < n; i++)
    g_thread_join (threads[i]);
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

static void
collect_key (guint32  key,
             guint32  value,
             gpointer data)
{
  g_array_append_val ((GArray *) data, key);
}

/* Every key of `map` (the defined ones) and of the chunks' arrays, sorted and
 * unique; `map` is rebuilt as key -> rank. */
static GArray *
number_keys (CpelU32Map *map,
             Chunk      *chunks,
             guint       n_chunks,
             gsize       ids_offset)
{
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n = 0;

  cpel_u32map_foreach (map, collect_key, keys);
  for (guint c = 0; c < n_chunks; c++)
    {
      GArray *ids = G_STRUCT_MEMBER (GArray *, &chunks[c], ids_offset);
      g_array_append_vals (keys, ids->data, ids->len);
    }
  g_array_sort (keys, compare_u32);
  for (guint i = 0; i < keys->len; i++)
    {
      guint32 k = g_array_index (keys, guint32, i);
      if (n == 0 || g_array_index (keys, guint32, n - 1) != k)
        g_array_index (keys, guint32, n++) = k;
    }
  g_array_set_size (keys, n);
  for (guint i = 0; i < n; i++)
    cpel_u32map_insert (map, g_array_index (keys, guint32, i), i);
  return keys;
}

static Chunk *
chunks_new (CpelFile        *self,
            guint            n,
            const CpelDiv64 *divs,
            GCancellable    *cancellable,
            CpelProgressFunc progress,
            gpointer         progress_data)
{
  Chunk *chunks = g_new0 (Chunk, n);

  for (guint c = 0; c < n; c++)
    {
      chunks[c].file = self;
      chunks[c].index = c;
      chunks[c].n_chunks = n;
      chunks[c].begin = self->n_events * c / n;
      chunks[c].end = self->n_events * (c + 1) / n;
      chunks[c].cancellable = cancellable;
      chunks[c].divs = divs;
    }
  chunks[0].progress = progress;
  chunks[0].progress_data = progress_data;
  return chunks;
}

static void
chunks_free (Chunk *chunks,
             guint  n)
{
  for (guint c = 0; c < n; c++)
    {
      g_clear_pointer (&chunks[c].tracks, cpel_u32map_free);
      g_clear_pointer (&chunks[c].codes, cpel_u32map_free);
      g_clear_pointer (&chunks[c].track_ids, g_array_unref);
      g_clear_pointer (&chunks[c].track_counts, g_array_unref);
      g_clear_pointer (&chunks[c].code_ids, g_array_unref);
      g_clear_pointer (&chunks[c].code_counts, g_array_unref);
      g_free (chunks[c].unsorted);
      g_free (chunks[c].next);
      g_free (chunks[c].last_ns);
      g_free (chunks[c].track_unsorted);
      g_free (chunks[c].dropped);
      g_free (chunks[c].ov_counts);
    }
  g_free (chunks);
}

static CpelDiv64 *
divs_new (CpelFile *self)
{
  CpelDiv64 *divs = g_new (CpelDiv64, MAX (self->n_evsecs, 1));

  for (guint i = 0; i < self->n_evsecs; i++)
    cpel_div64_init (&divs[i], self->evsecs[i].tps);
  return divs;
}

static void
drop_all_pages (CpelFile *self)
{
  for (guint s = 0; s < self->n_evsecs; s++)
    cpel_file_drop_pages (self, self->evsecs[s].records,
                          self->evsecs[s].records
                          + (guint64) self->evsecs[s].count * CPEL_EVENT_RECORD_SIZE);
}

static gboolean
cancelled_error (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
  return FALSE;
}

/* After pass B: each chunk wrote exactly the events of each track that
 * pass A counted (its next[] at the end of its reservation, where the next
 * chunk's starts), and no record named a track pass A did not see. */
static gboolean
counts_match (CpelFile       *self,
              const Chunk    *chunks,
              guint           n,
              const guint64  *start,
              gsize           n_slots)
{
  for (guint c = 0; c < n; c++)
    {
      if (chunks[c].changed)
        return FALSE;
      for (guint s = 0; s < self->n_tracks; s++)
        {
          guint64 end = c + 1 < n ? start[(c + 1) * n_slots + s]
                                  : self->tracks[s].first + self->tracks[s].count;

          if (chunks[c].next[s] != end)
            return FALSE;
        }
    }
  return TRUE;
}

/* Passes B and C over `chunks` whose next[] are set. */
static gboolean
fill (CpelFile        *self,
      Chunk           *chunks,
      guint            n,
      CpelProgressFunc progress,
      gpointer         progress_data,
      GError         **error)
{
  gboolean cancelled = FALSE;
  gsize n_slots = MAX (self->n_tracks, 1);
  g_autofree guint8 *sort = g_new0 (guint8, n_slots);
  g_autofree guint64 *start = g_new (guint64, (gsize) n * n_slots);
  g_autofree gint64 *ov_bounds = cpel_index_cache_overview_bounds (self->duration);

  cpel_index_store_alloc (self);

  for (guint c = 0; c < n; c++)
    {
      chunks[c].last_ns = g_new (gint64, n_slots);
      for (gsize s = 0; s < n_slots; s++)
        chunks[c].last_ns[s] = G_MININT64;
      chunks[c].track_unsorted = g_new0 (guint8, n_slots);
      if (self->index_map != NULL)
        chunks[c].dropped = g_memdup2 (chunks[c].next, sizeof (guint64) * n_slots);
      memcpy (start + c * n_slots, chunks[c].next, sizeof (guint64) * n_slots);
      chunks[c].ov_bounds = ov_bounds;
      chunks[c].ov_scale = (double) CPEL_INDEX_CACHE_OVERVIEW_BUCKETS / ((double) self->duration + 1);
      chunks[c].ov_counts = g_new0 (guint64, CPEL_INDEX_CACHE_OVERVIEW_BUCKETS);
      chunks[c].populate = self->index_home == CPEL_INDEX_HOME_MEMORY
                           && sizeof (gint64) * self->n_events >= INDEX_MMAP_MIN;
    }

  /* Pass B */
  run_chunks (self, chunks, n, pass_b);
  if (self->index_home == CPEL_INDEX_HOME_MEMORY)
    {
      index_built (self->times, sizeof (gint64) * self->n_events);
      index_built (self->recs, sizeof (guint32) * self->n_events);
    }
  drop_all_pages (self);
  for (guint c = 0; c < n; c++)
    cancelled |= chunks[c].cancelled;
  if (cancelled)
    return cancelled_error (error);
  if (!counts_match (self, chunks, n, start, n_slots))
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_IO,
                           _("The file changed on disk while it was read"));
      return FALSE;
    }

  /* The tracks out of time order: within a chunk's part, or where one
   * chunk's part follows an earlier one's. */
  for (guint s = 0; s < self->n_tracks; s++)
    for (guint c = 0; c < n; c++)
      {
        guint64 at = start[c * n_slots + s];

        if (chunks[c].track_unsorted[s]
            || (chunks[c].next[s] > at && at > self->tracks[s].first
                && self->times[at - 1] > self->times[at]))
          sort[s] = TRUE;
      }

  {
    gboolean in_order = TRUE;

    for (guint s = 0; s < self->n_tracks && in_order; s++)
      in_order = !sort[s];
    g_atomic_int_set (&self->tracks_in_file_order, in_order ? 1 : 2);
  }

  /* Pass C: balance tracks across chunks by event count. */
  {
    guint64 per = self->n_events / n + 1, acc = 0;
    guint c = 0;

    chunks[0].slot_begin = 0;
    for (guint s = 0; s < self->n_tracks; s++)
      {
        acc += self->tracks[s].count;
        if (acc >= per * (c + 1) && c + 1 < n)
          {
            chunks[c].slot_end = s + 1;
            chunks[++c].slot_begin = s + 1;
          }
      }
    chunks[c].slot_end = self->n_tracks;
    for (c = c + 1; c < n; c++)
      chunks[c].slot_begin = chunks[c].slot_end = self->n_tracks;
    for (c = 0; c < n; c++)
      chunks[c].sort = sort;
    run_chunks (self, chunks, n, pass_c);
  }
  /* the overview, counted by pass B: for the cache, and for the viewer's
   * overview strip (cpel_file_get_stored_overview ()) */
  if (self->overview_counts == NULL)
    {
      guint64 *counts = g_new0 (guint64, CPEL_INDEX_CACHE_OVERVIEW_BUCKETS);

      for (guint c = 0; c < n; c++)
        for (guint b = 0; b < CPEL_INDEX_CACHE_OVERVIEW_BUCKETS; b++)
          counts[b] += chunks[c].ov_counts[b];
      self->overview_counts = counts;
    }
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

static guint
choose_chunks (CpelFile *self,
               guint     n_threads)
{
  guint n;

  if (n_threads == 0)
    n_threads = g_get_num_processors ();
  n = (guint) MIN ((guint64) MAX (n_threads, 1), MAX (self->n_events / MIN_EVENTS_PER_THREAD, 1));
  return MIN (n, 64);
}

gboolean
cpel_file_build_index (CpelFile          *self,
                       guint              n_threads,
                       gboolean           defer,
                       GCancellable      *cancellable,
                       CpelProgressFunc   progress,
                       gpointer           progress_data,
                       GError           **error)
{
  Chunk *chunks;
  g_autofree CpelDiv64 *divs = NULL;
  g_autoptr(GArray) track_ids = NULL;
  g_autoptr(GArray) codes = NULL;
  gboolean cancelled = FALSE, drop;
  gint64 min_ns = G_MAXINT64, max_ns = 0;
  guint n;

  /* Pass A gives back the records' pages it read (pass B maps them again
   * from the page cache) unless they are few: kept, the whole file mapped
   * adds its 20 B/event to the index's 12 at the peak, which a user sees in
   * their system monitor (10^8 x 10^4, same run: peak at the first frame
   * 20.9-22.8 B/event instead of 33.2, the load 1.63-1.72 s against
   * 1.78-1.94 s; 10^7 x 10^4: 27.7 against 43.6 B/event, load 187-190 ms
   * against 171-201 ms — libraries count more there).  A deferred build
   * (the streaming CLI) always gives them back. */
  drop = defer || CPEL_EVENT_RECORD_SIZE * self->n_events >= PASS_A_KEEP_MAX
         || 32 * self->n_events >= cpel_index_store_file_min ();
  n = choose_chunks (self, n_threads);
  self->n_threads = n_threads;
  divs = divs_new (self);
  chunks = chunks_new (self, n, divs, cancellable, progress, progress_data);
  for (guint c = 0; c < n; c++)
    {
      chunks[c].tracks = cpel_u32map_new_direct (CPEL_FILE_TRACKS_DIRECT);
      chunks[c].track_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
      chunks[c].track_counts = g_array_new (FALSE, FALSE, sizeof (guint64));
      chunks[c].codes = cpel_u32map_new ();
      chunks[c].code_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
      chunks[c].code_counts = g_array_new (FALSE, FALSE, sizeof (guint64));
      chunks[c].unsorted = g_new0 (gboolean, MAX (self->n_evsecs, 1));
      chunks[c].drop = drop;
    }

  /* Pass A */
  run_chunks (self, chunks, n, pass_a);
  if (drop)
    drop_all_pages (self);
  for (guint c = 0; c < n; c++)
    cancelled |= chunks[c].cancelled;
  if (cancelled)
    {
      chunks_free (chunks, n);
      return cancelled_error (error);
    }

  /* Which sections are in time order: within each chunk, and where a
   * section goes on from one chunk into the next. */
  for (guint s = 0; s < self->n_evsecs; s++)
    {
      self->evsecs[s].sorted = TRUE;
      for (guint c = 0; c < n; c++)
        if (chunks[c].unsorted[s])
          self->evsecs[s].sorted = FALSE;
    }
  for (guint c = 0; c + 1 < n; c++)
    if (chunks[c].end > chunks[c].begin && chunks[c + 1].end > chunks[c + 1].begin)
      {
        guint sa, sb;
        const guint8 *ra = cpel_file_record (self, chunks[c].end - 1, &sa);
        const guint8 *rb = cpel_file_record (self, chunks[c + 1].begin, &sb);

        if (sa == sb && record_ticks (self, ra) > record_ticks (self, rb))
          self->evsecs[sa].sorted = FALSE;
      }
  self->time_ordered = TRUE;
  for (guint s = 0; s < self->n_evsecs; s++)
    self->time_ordered &= self->evsecs[s].sorted;

  for (guint c = 0; c < n; c++)
    if (chunks[c].end > chunks[c].begin)
      {
        min_ns = MIN (min_ns, chunks[c].min_ns);
        max_ns = MAX (max_ns, chunks[c].max_ns);
      }
  self->base_ns = self->n_events ? min_ns : 0;
  self->duration = self->n_events ? max_ns - min_ns : 0;
  if (self->duration > CPEL_TIME_MAX)
    {
      cpel_file_warn (self, "%s", _("Some events are more than 36 years after the first one "
                                    "(damaged timestamps?): they are shown at that time"));
      self->duration = CPEL_TIME_MAX;
    }

  /* Slots: every track id, ascending; types: every code, ascending. */
  track_ids = number_keys (self->track_map, chunks, n, G_STRUCT_OFFSET (Chunk, track_ids));
  codes = number_keys (self->type_map, chunks, n, G_STRUCT_OFFSET (Chunk, code_ids));

  self->n_tracks = track_ids->len;
  self->tracks = g_new0 (CpelTrack, MAX (self->n_tracks, 1));
  for (guint s = 0; s < self->n_tracks; s++)
    self->tracks[s].id = g_array_index (track_ids, guint32, s);
  self->n_types = codes->len;
  self->types = g_new0 (CpelType, MAX (self->n_types, 1));
  for (guint t = 0; t < self->n_types; t++)
    self->types[t].code = g_array_index (codes, guint32, t);

  for (guint c = 0; c < n; c++)
    {
      for (guint i = 0; i < chunks[c].track_ids->len; i++)
        {
          guint32 slot = cpel_u32map_get (self->track_map, g_array_index (chunks[c].track_ids, guint32, i));
          self->tracks[slot].count += g_array_index (chunks[c].track_counts, guint64, i);
        }
      for (guint i = 0; i < chunks[c].code_ids->len; i++)
        {
          guint32 type = cpel_u32map_get (self->type_map, g_array_index (chunks[c].code_ids, guint32, i));
          self->types[type].count += g_array_index (chunks[c].code_counts, guint64, i);
        }
    }

  /* Each chunk writes its events of a track after those of earlier chunks. */
  {
    guint64 pos = 0;

    for (guint c = 0; c < n; c++)
      chunks[c].next = g_new0 (guint64, MAX (self->n_tracks, 1));
    for (guint s = 0; s < self->n_tracks; s++)
      {
        self->tracks[s].first = pos;
        for (guint c = 0; c < n; c++)
          chunks[c].next[s] = pos;
        pos += self->tracks[s].count;
      }
    for (guint c = 0; c < n; c++)
      for (guint i = 0; i < chunks[c].track_ids->len; i++)
        {
          guint32 slot = cpel_u32map_get (self->track_map, g_array_index (chunks[c].track_ids, guint32, i));
          guint64 count = g_array_index (chunks[c].track_counts, guint64, i);
          for (guint later = c + 1; later < n; later++)
            chunks[later].next[slot] += count;
        }
  }

  if (defer)
    {
      /* keep the next[] of every chunk for cpel_file_fill_index () */
      self->n_deferred_chunks = n;
      self->deferred_next = g_new (guint64, (gsize) n * MAX (self->n_tracks, 1));
      for (guint c = 0; c < n; c++)
        memcpy (self->deferred_next + (gsize) c * MAX (self->n_tracks, 1), chunks[c].next,
                sizeof (guint64) * MAX (self->n_tracks, 1));
      chunks_free (chunks, n);
      return TRUE;
    }

  if (!fill (self, chunks, n, progress, progress_data, error))
    {
      chunks_free (chunks, n);
      return FALSE;
    }
  chunks_free (chunks, n);
  return TRUE;
}

gboolean
cpel_file_fill_index (CpelFile          *self,
                      GCancellable      *cancellable,
                      CpelProgressFunc   progress,
                      gpointer           progress_data,
                      GError           **error)
{
  g_autofree CpelDiv64 *divs = NULL;
  Chunk *chunks;
  guint n = self->n_deferred_chunks;
  gsize stride = MAX (self->n_tracks, 1);
  gboolean ok;

  g_assert (self->times == NULL && self->deferred_next != NULL);
  g_assert (n == choose_chunks (self, self->n_threads));

  divs = divs_new (self);
  chunks = chunks_new (self, n, divs, cancellable, progress, progress_data);
  for (guint c = 0; c < n; c++)
    chunks[c].next = g_memdup2 (self->deferred_next + (gsize) c * stride, sizeof (guint64) * stride);
  ok = fill (self, chunks, n, progress, progress_data, error);
  chunks_free (chunks, n);
  if (!ok)
    {
      cpel_index_store_free (self);
      return FALSE;
    }
  g_clear_pointer (&self->deferred_next, g_free);
  return TRUE;
}
