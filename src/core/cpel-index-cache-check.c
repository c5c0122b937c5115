/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache-check.c — checking a cache file before and after the
 * file uses it (the layout is in cpel-index-cache-private.h)
 *
 * cpel_index_cache_adopt_full () checks header, meta, summaries and block
 * table and, unless the check of the times and record indices is deferred,
 * those too (verify_bulk), then points the file's index into the cache.
 * A deferred check is cpel_file_verify_index (), run by the viewer in a
 * worker after its first frame.
 */

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cpel-index-cache-private.h"
#include "cpel-span-cache-private.h"
#include "cpel-lod.h"
#include "cpel-mapguard.h"

#ifdef G_OS_UNIX
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#define DROP_EVERY       (G_GUINT64_CONSTANT (1) << 21)   /* elements between page drops */
#define OV_BUCKETS       CPEL_INDEX_CACHE_OVERVIEW_BUCKETS

/* ---- checking a cache ---- */

static inline guint64
meta64 (const guint8 *p,
        guint64       i)
{
  guint64 v;

  memcpy (&v, p + 8 * i, 8);
  return v;
}

/* Whether `key` is among the n sorted 64-bit values at p with stride
 * `stride` words. */
static gboolean
meta_contains (const guint8 *p,
               guint64       n,
               guint         stride,
               guint64       key)
{
  guint64 lo = 0, hi = n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      guint64 v = meta64 (p, mid * stride);

      if (v == key)
        return TRUE;
      if (v < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

typedef struct
{
  const guint8 *ids;
  guint64       n;
  guint         stride;
  gboolean      missing;
} DefinedCheck;

static void
check_defined (guint32  key,
               guint32  value,
               gpointer data)
{
  DefinedCheck *c = data;

  if (!meta_contains (c->ids, c->n, c->stride, key))
    c->missing = TRUE;
}

typedef enum { BULK_OK, BULK_BAD, BULK_CANCELLED } BulkResult;

/* The deferred check steps aside while frames are drawn: */
#define YIELD_QUIET_US   (150 * 1000)    /* no frame for this long: go on */
#define YIELD_MAX_US     (1000 * 1000)   /* at most this long a pause, */
#define YIELD_TURN_US    (250 * 1000)    /* then this long without one */

typedef struct
{
  const gint64 *frame_at;   /* cpel_file_note_frame ()'s, or NULL: never */
  gint64        turn_until; /* no pause before this */
} Yield;

/* Between blocks of the check: sleeps while the file's frames come. */
static void
yield_to_frames (Yield        *y,
                 GCancellable *cancellable)
{
  gint64 start;

  if (y->frame_at == NULL)
    return;
  start = g_get_monotonic_time ();
  if (start < y->turn_until)
    return;
  for (;;)
    {
      gint64 now = g_get_monotonic_time ();
      gint64 quiet = now - __atomic_load_n (y->frame_at, __ATOMIC_RELAXED);

      if (quiet >= YIELD_QUIET_US || g_cancellable_is_cancelled (cancellable))
        return;
      if (now - start >= YIELD_MAX_US)
        {
          y->turn_until = now + YIELD_TURN_US;
          return;
        }
      g_usleep (MIN (YIELD_QUIET_US - quiet, 20 * 1000) + 1000);
    }
}

void
cpel_file_note_frame (CpelFile *self)
{
  g_return_if_fail (CPEL_IS_FILE (self));
  __atomic_store_n (&self->frame_at_us, g_get_monotonic_time (), __ATOMIC_RELAXED);
}

/* What the index says of each record against the record itself: every
 * record exactly once, in the track the index puts it in, at the time pass
 * B would have written for it.
 *
 * Reading each entry's record would be a random read per event (ten times
 * the rest of the check at 10^4 tracks), so both sides are summed per
 * track instead, each in its own order: the entries (time t, record r) as
 * the check reads them, the records in file order (their track, the time
 * pass B gives them, their index) — the sum of a keyed 64-bit hash of
 * (t, r) and the count.  The key is new for every check (not in the file,
 * nor in the cache): the two sides of a track agree exactly when the
 * track's entries are its records, each once, at their times — but for a
 * chance of about 2^-64 per track that a difference sums to zero. */
typedef struct
{
  const CpelFile *file;
  gint64          base;
  gboolean        le;
  CpelDiv64      *divs;
  guint64         key0;
  guint64         key1;
  guint64        *index_sum;   /* per track: the entries' */
  guint64        *record_sum;  /* per track: the records' */
  guint64        *record_n;
} RecordCheck;

static void
record_check_init (RecordCheck              *rc,
                   const CpelIndexCacheBulk *b)
{
  const CpelFile *file = b->file;
  gsize n_tracks = MAX (b->n_tracks, 1);

  memset (rc, 0, sizeof *rc);
  if (file == NULL)
    return;
  rc->file = file;
  rc->base = b->base_ns;
  rc->le = file->little_endian;
  rc->divs = g_new (CpelDiv64, MAX (file->n_evsecs, 1));
  for (guint s = 0; s < file->n_evsecs; s++)
    cpel_div64_init (&rc->divs[s], file->evsecs[s].tps);
  rc->key0 = (guint64) g_random_int () << 32 | g_random_int ();
  rc->key1 = (guint64) g_random_int () << 32 | g_random_int () | 1;
  rc->index_sum = g_new0 (guint64, n_tracks);
  rc->record_sum = g_new0 (guint64, n_tracks);
  rc->record_n = g_new0 (guint64, n_tracks);
}

static void
record_check_clear (RecordCheck *rc)
{
  g_clear_pointer (&rc->divs, g_free);
  g_clear_pointer (&rc->index_sum, g_free);
  g_clear_pointer (&rc->record_sum, g_free);
  g_clear_pointer (&rc->record_n, g_free);
}

static inline guint64
mix64 (guint64 x)
{
  x ^= x >> 30;
  x *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

static inline guint64
entry_hash (const RecordCheck *rc,
            gint64             t,
            guint64            r)
{
  return mix64 (mix64 ((guint64) t ^ rc->key0) ^ (r * rc->key1));
}

static inline guint32
rec32 (gboolean      le,
       const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return le ? GUINT32_FROM_LE (v) : GUINT32_FROM_BE (v);
}

#define RECORDS_STEP 0x10000u   /* records between page drops: 1.3 MB */

/* Maps the records [k, k + RECORDS_STEP) of a mapped file's section in one
 * call (Linux 5.14) rather than a page fault every few pages (the records
 * were given back after the first pass: they are in the page cache). */
static void
populate_records (const CpelFile         *file,
                  const CpelEventSection *es,
                  guint64                 k)
{
#if defined(G_OS_UNIX) && defined(MADV_POPULATE_READ)
  static gsize page;
  guintptr a, z;

  if (file->mapped == NULL || k >= es->count)
    return;
  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  a = (guintptr) (es->records + k * CPEL_EVENT_RECORD_SIZE) & ~(guintptr) (page - 1);
  z = (guintptr) (es->records + MIN (k + RECORDS_STEP, es->count) * CPEL_EVENT_RECORD_SIZE);
  madvise ((void *) a, z - a, MADV_POPULATE_READ);
#endif
}

/* The records in file order, summed per track; then both sides compared. */
static BulkResult
check_records (const CpelIndexCacheBulk *b,
               RecordCheck              *rc,
               Yield                    *yield,
               GCancellable             *cancellable)
{
  const CpelFile *file = rc->file;
  g_autoptr(CpelU32Map) slots = cpel_u32map_new_direct (CPEL_FILE_TRACKS_DIRECT);
  const guint32 *direct = slots->direct;
  const guint32 n_direct = slots->n_direct;
  const gboolean le = rc->le;
  const gint64 base = rc->base;
  guint64 *sum = rc->record_sum, *count = rc->record_n;

  for (guint64 s = 0; s < b->n_tracks; s++)
    cpel_u32map_insert (slots, (guint32) meta64 (b->m_tracks, 3 * s), (guint32) s);
  for (guint sec = 0; sec < file->n_evsecs; sec++)
    {
      const CpelEventSection *es = &file->evsecs[sec];
      const CpelDiv64 dv = rc->divs[sec];
      const guint8 *rec = es->records, *dropped = es->records;

      populate_records (file, es, 0);
      for (guint64 k = 0; k < es->count; k++, rec += CPEL_EVENT_RECORD_SIZE)
        {
          guint64 ticks = (guint64) rec32 (le, rec) << 32 | rec32 (le, rec + 4);
          gint64 t = CLAMP (cpel_div64_ticks_to_ns (&dv, ticks) - base, 0, CPEL_TIME_MAX);
          guint32 track = rec32 (le, rec + 8);
          guint32 s = track < n_direct ? direct[track] : cpel_u32map_get (slots, track);

          if (G_UNLIKELY (s == CPEL_U32MAP_NONE))
            return cpel_mapguard_is_damaged (file->guard_id) ? BULK_OK : BULK_BAD;
          sum[s] += entry_hash (rc, t, es->first_index + k);
          count[s]++;
          if (G_UNLIKELY ((k & (RECORDS_STEP - 1)) == RECORDS_STEP - 1))
            {
              cpel_file_drop_pages (file, dropped, rec);
              dropped = rec;
              populate_records (file, es, k + 1);
              yield_to_frames (yield, cancellable);
              if (g_cancellable_is_cancelled (cancellable))
                return BULK_CANCELLED;
            }
        }
      cpel_file_drop_pages (file, dropped, rec);
    }
  /* the file itself shrank under the check (its records read as zeros
   * from there): that is the file's damage, reported as such, not the
   * cache's */
  if (cpel_mapguard_is_damaged (file->guard_id))
    return BULK_OK;
  for (guint64 s = 0; s < b->n_tracks; s++)
    if (rc->index_sum[s] != sum[s] || meta64 (b->m_tracks, 3 * s + 2) != count[s])
      return BULK_BAD;
  return BULK_OK;
}

static BulkResult verify_bulk_full (const CpelIndexCacheBulk *b, RecordCheck *rc,
                                    const gint64 *frame_at, GCancellable *cancellable);

static BulkResult
verify_bulk (const CpelIndexCacheBulk *b,
             const gint64             *frame_at,
             GCancellable             *cancellable)
{
  RecordCheck rc;
  BulkResult r;

  record_check_init (&rc, b);
  r = verify_bulk_full (b, &rc, frame_at, cancellable);
  record_check_clear (&rc);
  return r;
}

static BulkResult
verify_bulk_full (const CpelIndexCacheBulk *b,
                  RecordCheck              *rc,
                  const gint64             *frame_at,
                  GCancellable             *cancellable)
{
  Yield yield = { frame_at, 0 };
  g_autofree gint64 *bnd = cpel_index_cache_overview_bounds (b->duration);
  g_autofree guint64 *ov = g_new0 (guint64, OV_BUCKETS);
  const gint64 *times = b->times;
  const guint32 *recs = b->recs;
  guint64 n = b->n, i = 0, dropped = 0, blk = 0;
  guint64 blk_end = MIN (CPEL_INDEX_CACHE_BLOCK_ELEMS, n);
  guint64 ts = CPEL_INDEX_CACHE_SUM_SEED, rs = CPEL_INDEX_CACHE_SUM_SEED;
  gint64 t_min = G_MAXINT64, t_max = G_MININT64;

  if (b->mapping)
    {
#if defined(G_OS_UNIX) && defined(MADV_SEQUENTIAL)
      madvise ((void *) (((guintptr) times) & ~(guintptr) 4095),
               (guint8 *) (recs + n) - (guint8 *) (((guintptr) times) & ~(guintptr) 4095),
               MADV_SEQUENTIAL);
#endif
    }
  for (guint64 s = 0; s < b->n_tracks; s++)
    {
      guint64 count = meta64 (b->m_tracks, 3 * s + 2), first = i, end = i + count, k = 0;
      const CpelLodStored *l = &b->lod[s];
      gint64 prev_t = G_MININT64;
      guint32 prev_r = 0;
      guint ob = 0;
      guint64 hs = 0;

      /* each summary as cpel-lod.c builds it from these times */
      if (count > 0 && (times[first] != l->origin
                        || (guint64) times[end - 1] - (guint64) l->origin != l->span))
        return BULK_BAD;
      for (; i < end; i++)
        {
          gint64 t = times[i];
          guint32 r = recs[i];
          guint64 bucket;

          if (t < 0 || t > b->duration || (guint64) r >= n
              || t < prev_t || (t == prev_t && r <= prev_r))
            return BULK_BAD;
          hs += entry_hash (rc, t, r);
          prev_t = t;
          prev_r = r;
          bucket = ((guint64) t - (guint64) l->origin) >> l->shift;
          if (bucket >= l->n_buckets)
            return BULK_BAD;
          while (k < bucket)
            if (l->cum[++k] != i - first)
              return BULK_BAD;
          if (t >= bnd[ob + 1])
            ob = cpel_index_cache_overview_find (bnd, t);
          ov[ob]++;
          ts = cpel_index_cache_sum_step (ts, (guint64) t);
          rs = cpel_index_cache_sum_step (rs, r);
          if (i + 1 == blk_end)
            {
              if (b->check_sums && (ts != meta64 (b->blocks, 2 * blk) || rs != meta64 (b->blocks, 2 * blk + 1)))
                return BULK_BAD;
              ts = rs = CPEL_INDEX_CACHE_SUM_SEED;
              blk++;
              blk_end = MIN (blk_end + CPEL_INDEX_CACHE_BLOCK_ELEMS, n);
              yield_to_frames (&yield, cancellable);
              if (g_cancellable_is_cancelled (cancellable))
                return BULK_CANCELLED;
              if (b->mapping && i + 1 - dropped >= DROP_EVERY)
                {
                  cpel_mapping_drop_pages ((const guint8 *) (times + dropped), (const guint8 *) (times + i + 1));
                  cpel_mapping_drop_pages ((const guint8 *) (recs + dropped), (const guint8 *) (recs + i + 1));
                  dropped = i + 1;
                }
            }
        }
      if (rc->file != NULL)
        rc->index_sum[s] = hs;
      if (count > 0)
        {
          while (k < l->n_buckets)
            if (l->cum[++k] != count)
              return BULK_BAD;
          t_min = MIN (t_min, times[first]);
          t_max = MAX (t_max, prev_t);
        }
    }
  if (n > 0 && (t_min != 0 || t_max != b->duration))
    return BULK_BAD;
  for (guint o = 0; o < OV_BUCKETS; o++)
    if (ov[o] != meta64 (b->overview, o))
      return BULK_BAD;
  if (b->mapping)
    {
      cpel_mapping_drop_pages ((const guint8 *) (times + dropped), (const guint8 *) (recs + n));
#if defined(G_OS_UNIX) && defined(MADV_NORMAL)
      madvise ((void *) (((guintptr) times) & ~(guintptr) 4095),
               (guint8 *) (recs + n) - (guint8 *) (((guintptr) times) & ~(guintptr) 4095),
               MADV_NORMAL);
#endif
    }
  /* a cache file that shrank while it was read reads as zeros from there */
  if (b->guard != 0 && cpel_mapguard_is_damaged (b->guard))
    return BULK_BAD;
  if (rc->file != NULL)
    {
      BulkResult r = check_records (b, rc, &yield, cancellable);

      if (b->mapping)
        {
          cpel_mapping_drop_pages ((const guint8 *) times, (const guint8 *) (times + n));
          cpel_mapping_drop_pages ((const guint8 *) recs, (const guint8 *) (recs + n));
        }
      if (r == BULK_OK && b->guard != 0 && cpel_mapguard_is_damaged (b->guard))
        r = BULK_BAD;
      return r;
    }
  return BULK_OK;
}

CpelIndexCacheLoad
cpel_index_cache_adopt_full (CpelFile                *self,
       const guint8            *data,
       gsize                    len,
       const CpelIndexCacheKey *key,
       gboolean                 check_sums,
       gboolean                 mapping,
       guint                    guard,
       gboolean                 verify_later,
       CpelIndexCacheBulk                   **bulk_out)
{
  CpelIndexCacheHeader h;
  const guint8 *meta, *m_tracks, *m_types, *m_summary, *m_lod;
  g_autofree CpelLodStored *lods = NULL;
  g_autofree CpelIndexCacheBulk *bulk = NULL;
  guint64 n, pos, sum, summary_max, cum_bytes;
  gboolean all_sorted = TRUE;
  DefinedCheck dc;

  if (len < sizeof h)
    return len >= 8 && memcmp (data, CPEL_INDEX_CACHE_MAGIC, 8) == 0
           ? CPEL_INDEX_CACHE_TRUNCATED : CPEL_INDEX_CACHE_DAMAGED;
  memcpy (&h, data, sizeof h);
  if (memcmp (h.magic, CPEL_INDEX_CACHE_MAGIC, 8) != 0)
    return CPEL_INDEX_CACHE_DAMAGED;
  if (h.version != CPEL_INDEX_CACHE_VERSION || h.byte_order != CPEL_INDEX_CACHE_BYTE_ORDER_MARK
      || h.header_size != sizeof h)
    return CPEL_INDEX_CACHE_OTHER_VERSION;
  if (check_sums && cpel_index_cache_sum_header (&h) != h.header_sum)
    return CPEL_INDEX_CACHE_DAMAGED;
  if (memcmp (&h.key, key, sizeof *key) != 0)
    return CPEL_INDEX_CACHE_STALE;
  n = self->n_events;
  if (h.n_events != n || h.n_evsecs != self->n_evsecs)
    return CPEL_INDEX_CACHE_STALE;
  if (h.n_tracks > G_MAXUINT32 || h.n_types > G_MAXUINT32 || n > CPEL_MAX_EVENTS
      || (h.flags & ~(guint64) (CPEL_INDEX_CACHE_FLAG_TIME_ORDERED
                                | CPEL_INDEX_CACHE_FLAG_DURATION_CLAMPED)) != 0)
    return CPEL_INDEX_CACHE_DAMAGED;
  summary_max = cpel_index_cache_summary_max (n, h.n_tracks);
  if (h.meta_offset != sizeof h
      || h.meta_size != cpel_index_cache_meta_size (h.n_evsecs, h.n_tracks, h.n_types)
      || h.summary_offset != h.meta_offset + h.meta_size
      || h.summary_size < 8 * OV_BUCKETS + 32 * h.n_tracks || h.summary_size > summary_max
      || (h.summary_size & 7) != 0
      || h.blocks_offset != h.summary_offset + h.summary_size
      || h.n_blocks != (n + CPEL_INDEX_CACHE_BLOCK_ELEMS - 1) / CPEL_INDEX_CACHE_BLOCK_ELEMS
      || h.times_offset < cpel_index_cache_align_up (h.blocks_offset + 16 * h.n_blocks)
      || h.times_offset > cpel_index_cache_times_offset_max (n, h.n_evsecs, h.n_tracks, h.n_types)
      || (h.times_offset & (CPEL_INDEX_CACHE_ALIGN - 1)) != 0
      || h.recs_offset != h.times_offset + 8 * n
      || h.file_size != h.recs_offset + 4 * n)
    return CPEL_INDEX_CACHE_DAMAGED;
  if (len < h.file_size)
    return CPEL_INDEX_CACHE_TRUNCATED;
  if (len > h.file_size || (((guintptr) data) & 7) != 0)
    return CPEL_INDEX_CACHE_DAMAGED;
  meta = data + h.meta_offset;
  m_summary = data + h.summary_offset;
  if (check_sums && (cpel_index_cache_sum_bytes (meta, h.meta_size) != h.meta_sum
                     || cpel_index_cache_sum_bytes (m_summary, h.summary_size) != h.summary_sum
                     || cpel_index_cache_sum_bytes (data + h.blocks_offset, 16 * h.n_blocks) != h.blocks_sum))
    return CPEL_INDEX_CACHE_DAMAGED;

  /* Event sections: as parsed. */
  for (guint s = 0; s < self->n_evsecs; s++)
    {
      const CpelEventSection *es = &self->evsecs[s];
      guint64 sorted = meta64 (meta, 4 * s + 3);

      if (meta64 (meta, 4 * s) != es->first_index || meta64 (meta, 4 * s + 1) != es->count
          || meta64 (meta, 4 * s + 2) != es->tps)
        return CPEL_INDEX_CACHE_STALE;
      if (sorted > 1)
        return CPEL_INDEX_CACHE_DAMAGED;
      all_sorted &= sorted == 1;
    }
  if (all_sorted != ((h.flags & CPEL_INDEX_CACHE_FLAG_TIME_ORDERED) != 0))
    return CPEL_INDEX_CACHE_DAMAGED;

  /* Tracks: ids ascending, consecutive ranges covering every event; a
   * track without events only when it is defined. */
  m_tracks = meta + 32 * h.n_evsecs;
  pos = 0;
  for (guint64 s = 0; s < h.n_tracks; s++)
    {
      guint64 id = meta64 (m_tracks, 3 * s), first = meta64 (m_tracks, 3 * s + 1);
      guint64 count = meta64 (m_tracks, 3 * s + 2);

      if (id > G_MAXUINT32 || (s > 0 && id <= meta64 (m_tracks, 3 * (s - 1)))
          || first != pos || count > n - pos
          || (count == 0 && cpel_u32map_get (self->track_map, (guint32) id) == CPEL_U32MAP_NONE))
        return CPEL_INDEX_CACHE_DAMAGED;
      pos += count;
    }
  if (pos != n)
    return CPEL_INDEX_CACHE_DAMAGED;
  dc = (DefinedCheck) { m_tracks, h.n_tracks, 3, FALSE };
  cpel_u32map_foreach (self->track_map, check_defined, &dc);
  if (dc.missing)
    return CPEL_INDEX_CACHE_DAMAGED;

  m_types = m_tracks + 24 * h.n_tracks;
  sum = 0;
  for (guint64 t = 0; t < h.n_types; t++)
    {
      guint64 code = meta64 (m_types, 2 * t), count = meta64 (m_types, 2 * t + 1);

      if (code > G_MAXUINT32 || (t > 0 && code <= meta64 (m_types, 2 * (t - 1)))
          || count > n - sum
          || (count == 0 && cpel_u32map_get (self->type_map, (guint32) code) == CPEL_U32MAP_NONE))
        return CPEL_INDEX_CACHE_DAMAGED;
      sum += count;
    }
  if (sum != n)
    return CPEL_INDEX_CACHE_DAMAGED;
  dc = (DefinedCheck) { m_types, h.n_types, 2, FALSE };
  cpel_u32map_foreach (self->type_map, check_defined, &dc);
  if (dc.missing)
    return CPEL_INDEX_CACHE_DAMAGED;

  if (h.duration < 0 || h.duration > CPEL_TIME_MAX
      || (n == 0 && (h.duration != 0 || h.base_ns != 0))
      || (((h.flags & CPEL_INDEX_CACHE_FLAG_DURATION_CLAMPED) != 0) != (h.duration == CPEL_TIME_MAX)))
    return CPEL_INDEX_CACHE_DAMAGED;

  /* The overview: n events in all. */
  sum = 0;
  for (guint o = 0; o < OV_BUCKETS; o++)
    {
      guint64 c = meta64 (m_summary, o);

      if (c > n - sum)
        return CPEL_INDEX_CACHE_DAMAGED;
      sum += c;
    }
  if (sum != n)
    return CPEL_INDEX_CACHE_DAMAGED;

  /* The level-of-detail summaries: the shape cpel-lod.c gives a track of
   * that count and span inside [0, duration], cumulative counts from 0 up
   * to the count, never down, exactly filling the summary. */
  m_lod = m_summary + 8 * OV_BUCKETS;
  lods = g_new0 (CpelLodStored, MAX (h.n_tracks, 1));
  cum_bytes = 0;
  for (guint64 s = 0; s < h.n_tracks; s++)
    {
      guint64 count = meta64 (m_tracks, 3 * s + 2);
      gint64 origin = (gint64) meta64 (m_lod, 4 * s);
      guint64 span = meta64 (m_lod, 4 * s + 1), shift = meta64 (m_lod, 4 * s + 2);
      guint64 nb = meta64 (m_lod, 4 * s + 3);

      if (count == 0 ? (origin != 0 || span != 0 || shift != 0 || nb != 1)
                     : (origin < 0 || origin > h.duration || span > (guint64) (h.duration - origin)
                        || !cpel_index_cache_lod_shift_ok (count, span, shift) || nb != (span >> shift) + 1))
        return CPEL_INDEX_CACHE_DAMAGED;
      lods[s].origin = origin;
      lods[s].span = span;
      lods[s].shift = (guint) shift;
      lods[s].n_buckets = nb;
      cum_bytes += 4 * (nb + 1);
    }
  if (((8 * OV_BUCKETS + 32 * h.n_tracks + cum_bytes + 7) & ~(guint64) 7) != h.summary_size)
    return CPEL_INDEX_CACHE_DAMAGED;
  {
    const guint8 *p = m_lod + 32 * h.n_tracks;

    for (guint64 s = 0; s < h.n_tracks; s++)
      {
        const guint32 *cum = (const guint32 *) p;   /* 4-aligned: 8-aligned start, 4-byte steps */
        guint64 count = meta64 (m_tracks, 3 * s + 2);

        if (cum[0] != 0 || cum[lods[s].n_buckets] != count)
          return CPEL_INDEX_CACHE_DAMAGED;
        for (guint64 k = 0; k < lods[s].n_buckets; k++)
          if (cum[k + 1] < cum[k])
            return CPEL_INDEX_CACHE_DAMAGED;
        lods[s].cum = cum;
        p += 4 * (lods[s].n_buckets + 1);
      }
  }

  /* Times and record indices: each track in (time, record) order, times in
   * [0, duration] with both ends reached, records in range, as the block
   * table, the summaries and the overview say — now, or later (see
   * cpel_file_verify_index ()). */
  bulk = g_new0 (CpelIndexCacheBulk, 1);
  bulk->n = n;
  bulk->n_tracks = h.n_tracks;
  bulk->m_tracks = m_tracks;
  bulk->duration = h.duration;
  bulk->times = (const gint64 *) (data + h.times_offset);
  bulk->recs = (const guint32 *) (data + h.recs_offset);
  bulk->blocks = data + h.blocks_offset;
  bulk->lod = lods;
  bulk->overview = m_summary;
  bulk->check_sums = check_sums;
  bulk->mapping = mapping;
  bulk->guard = guard;
  bulk->file = self;
  bulk->base_ns = h.base_ns;
  if (!verify_later && verify_bulk (bulk, NULL, NULL) != BULK_OK)
    return CPEL_INDEX_CACHE_DAMAGED;

  /* a cache file that shrank while it was read reads as zeros from there */
  if (guard != 0 && cpel_mapguard_is_damaged (guard))
    return CPEL_INDEX_CACHE_TRUNCATED;

  if (self->tracks != NULL)
    {
      /* A deferred index: the first pass is done; the cache must agree with
       * it and gives only times and recs. */
      if (self->n_tracks != h.n_tracks || self->n_types != h.n_types
          || self->base_ns != h.base_ns || self->duration != h.duration)
        return CPEL_INDEX_CACHE_STALE;
      for (guint s = 0; s < self->n_tracks; s++)
        if (self->tracks[s].id != meta64 (m_tracks, 3 * s)
            || self->tracks[s].first != meta64 (m_tracks, 3 * s + 1)
            || self->tracks[s].count != meta64 (m_tracks, 3 * s + 2))
          return CPEL_INDEX_CACHE_STALE;
      for (guint t = 0; t < self->n_types; t++)
        if (self->types[t].code != meta64 (m_types, 2 * t)
            || self->types[t].count != meta64 (m_types, 2 * t + 1))
          return CPEL_INDEX_CACHE_STALE;
      for (guint s = 0; s < self->n_evsecs; s++)
        if (self->evsecs[s].sorted != (meta64 (meta, 4 * s + 3) == 1))
          return CPEL_INDEX_CACHE_STALE;
    }
  else
    {
      /* All checked (but the bulk when verify_later): the index is the cache's. */
      self->n_tracks = (guint) h.n_tracks;
      self->tracks = g_new0 (CpelTrack, MAX (self->n_tracks, 1));
      for (guint s = 0; s < self->n_tracks; s++)
        {
          self->tracks[s].id = (guint32) meta64 (m_tracks, 3 * s);
          self->tracks[s].first = meta64 (m_tracks, 3 * s + 1);
          self->tracks[s].count = meta64 (m_tracks, 3 * s + 2);
          cpel_u32map_insert (self->track_map, self->tracks[s].id, s);
        }
      self->n_types = (guint) h.n_types;
      self->types = g_new0 (CpelType, MAX (self->n_types, 1));
      for (guint t = 0; t < self->n_types; t++)
        {
          self->types[t].code = (guint32) meta64 (m_types, 2 * t);
          self->types[t].count = meta64 (m_types, 2 * t + 1);
          cpel_u32map_insert (self->type_map, self->types[t].code, t);
        }
      for (guint s = 0; s < self->n_evsecs; s++)
        self->evsecs[s].sorted = meta64 (meta, 4 * s + 3) == 1;
      self->time_ordered = all_sorted;
      self->base_ns = h.base_ns;
      self->duration = h.duration;
      if (h.flags & CPEL_INDEX_CACHE_FLAG_DURATION_CLAMPED)
        cpel_file_warn (self, "%s", _("Some events are more than 36 years after the first one "
                                      "(damaged timestamps?): they are shown at that time"));
    }
  self->times = (gint64 *) bulk->times;
  self->recs = (guint32 *) bulk->recs;
  self->cache_lod = g_steal_pointer (&lods);
  self->cache_overview = (const guint64 *) m_summary;   /* 8-aligned: right after the meta */
  if (verify_later && bulk_out != NULL)
    *bulk_out = g_steal_pointer (&bulk);
  return CPEL_INDEX_CACHE_USED;
}

gboolean
cpel_index_cache_reseal (guint8 *data,
                         gsize   len)
{
  CpelIndexCacheHeader h;
  guint64 n;

  if (len < sizeof h)
    return FALSE;
  memcpy (&h, data, sizeof h);
  n = h.n_events;
  if (h.meta_offset > len || h.meta_size > len - h.meta_offset
      || h.summary_offset > len || h.summary_size > len - h.summary_offset
      || h.blocks_offset > len || h.n_blocks > (len - h.blocks_offset) / 16
      || n > len / 12 || h.times_offset > len - 8 * n || h.recs_offset > len - 4 * n)
    return FALSE;
  h.meta_sum = cpel_index_cache_sum_bytes (data + h.meta_offset, h.meta_size);
  for (guint64 k = 0; k < h.n_blocks; k++)
    {
      guint64 ts = CPEL_INDEX_CACHE_SUM_SEED, rs = CPEL_INDEX_CACHE_SUM_SEED;
      guint64 end = MIN ((k + 1) * CPEL_INDEX_CACHE_BLOCK_ELEMS, n);

      for (guint64 i = k * CPEL_INDEX_CACHE_BLOCK_ELEMS; i < end; i++)
        {
          guint64 t;
          guint32 r;

          memcpy (&t, data + h.times_offset + 8 * i, 8);
          memcpy (&r, data + h.recs_offset + 4 * i, 4);
          ts = cpel_index_cache_sum_step (ts, t);
          rs = cpel_index_cache_sum_step (rs, r);
        }
      memcpy (data + h.blocks_offset + 16 * k, &ts, 8);
      memcpy (data + h.blocks_offset + 16 * k + 8, &rs, 8);
    }
  h.summary_sum = cpel_index_cache_sum_bytes (data + h.summary_offset, h.summary_size);
  h.blocks_sum = cpel_index_cache_sum_bytes (data + h.blocks_offset, 16 * h.n_blocks);
  h.header_sum = cpel_index_cache_sum_header (&h);
  memcpy (data, &h, sizeof h);
  return TRUE;
}

CpelIndexCacheLoad
cpel_index_cache_adopt (CpelFile                *self,
                        const guint8            *data,
                        gsize                    len,
                        const CpelIndexCacheKey *key,
                        gboolean                 check_sums)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), CPEL_INDEX_CACHE_DAMAGED);
  g_return_val_if_fail (self->times == NULL, CPEL_INDEX_CACHE_DAMAGED);

  return cpel_index_cache_adopt_full (self, data, len, key, check_sums, FALSE, 0, FALSE, NULL);
}
void
cpel_index_cache_bulk_free (CpelIndexCacheBulk *bulk)
{
  if (bulk == NULL)
    return;
  g_free (bulk->path);
  g_free (bulk);
}

/* ---- the deferred check ---- */

gboolean
cpel_file_verify_index (CpelFile     *self,
                        GCancellable *cancellable)
{
  static GMutex lock;
  CpelIndexCacheBulk *bulk;
  BulkResult r;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);

  g_mutex_lock (&lock);
  bulk = self->cache_bulk;
  if (bulk == NULL)
    {
      g_mutex_unlock (&lock);
      return !g_atomic_int_get (&self->cache_bad);
    }
  r = verify_bulk (bulk, &self->frame_at_us, cancellable);
  if (r == BULK_CANCELLED)
    {
      g_mutex_unlock (&lock);
      return FALSE;
    }
  if (r == BULK_BAD)
    {
#ifdef G_OS_UNIX
      struct stat st;

      /* so that a reload builds the index again (unless it is another
       * cache file by now) */
      if (bulk->path != NULL && lstat (bulk->path, &st) == 0
          && (guint64) st.st_dev == bulk->dev && (guint64) st.st_ino == bulk->ino)
        g_unlink (bulk->path);
#endif
      g_atomic_int_set (&self->cache_bad, TRUE);
      /* and the spans derived from it (a store under way checks cache_bad) */
      cpel_span_cache_forget (self);
    }
  g_free (bulk->path);
  /* the file keeps the summaries (cache_lod): only the bulk's own state goes */
  g_atomic_pointer_set (&self->cache_bulk, NULL);
  g_free (bulk);
  g_mutex_unlock (&lock);
  return r == BULK_OK;
}

gboolean
cpel_file_index_is_unverified (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return g_atomic_pointer_get (&self->cache_bulk) != NULL;
}

gboolean
cpel_file_index_cache_is_damaged (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return g_atomic_int_get (&self->cache_bad);
}

const guint64 *
cpel_file_get_stored_overview (CpelFile *self,
                               guint     n_buckets)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  if (n_buckets != CPEL_INDEX_CACHE_OVERVIEW_BUCKETS)
    return NULL;
  return self->cache_overview != NULL ? self->cache_overview : self->overview_counts;
}

int
cpel_file_get_cache_load (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), CPEL_INDEX_CACHE_OFF);
  return self->cache_load;
}

int
cpel_file_get_cache_write (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), CPEL_INDEX_CACHE_NOT_WRITTEN);
  return g_atomic_int_get (&self->cache_write);
}
