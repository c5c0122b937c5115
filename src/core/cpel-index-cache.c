/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache.c — the persisted per-track index (see the header and
 * cpel-index-cache-private.h for the file layout)
 *
 * Loading: the cache file is mapped read-only and checked against the file
 * just parsed (identity, event sections, counts), its summaries (overview,
 * level-of-detail) for shape and counts, then one sequential pass over its
 * times and record indices (verify_bulk) checks their order and range,
 * their block checksums and that the summaries and the overview are what
 * they give, giving the pages back as it goes (they stay in the page
 * cache).  Only then does the file use it; otherwise the index is built as
 * usual and the cache written again.  With cache_verify_later the pass is
 * cpel_file_verify_index (), run by the viewer after its first frame; a
 * failure there removes the cache file and marks the file damaged.
 *
 * Writing: to a temporary file in the cache dir, renamed over the cache
 * file when complete — a reader maps either the old file or the new one,
 * never a partial one; two processes writing at once each rename a
 * complete file.  Any failure (dir not creatable, not writable, full, over
 * the cap) leaves no file behind and the index in memory as built.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "cpel-index-cache-private.h"
#include "cpel-lod.h"
#include "cpel-mapguard.h"

#ifdef G_OS_UNIX
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <utime.h>
#include <unistd.h>
#endif

#define BYTE_ORDER_MARK  G_GUINT64_CONSTANT (0x0102030405060708)
#define SUM_SEED         G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)
#define SUM_MUL          G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD)
#define DROP_EVERY       (G_GUINT64_CONSTANT (1) << 21)   /* elements between page drops */
#define WRITE_MAX        ((guint64) 1 << 30)

G_STATIC_ASSERT (sizeof (CpelIndexCacheKey) == 6 * 8 + 32);
G_STATIC_ASSERT (sizeof (CpelIndexCacheHeader) % 8 == 0);
G_STATIC_ASSERT (CPEL_INDEX_CACHE_HEAD + CPEL_INDEX_CACHE_N_BLOCKS * CPEL_INDEX_CACHE_BLOCK <= 4 * 65536);

/* ---- checksums ---- */

/* One step of the chain: bijective in h for every w and in w for every h,
 * so a change confined to one word always changes the result. */
static inline guint64
sum_step (guint64 h,
          guint64 w)
{
  h = (h ^ w) * SUM_MUL;
  return (h << 31) | (h >> 33);
}

static guint64
sum_bytes (const guint8 *p,
           gsize         n)
{
  guint64 h = SUM_SEED, w;
  gsize i;

  for (i = 0; i + 8 <= n; i += 8)
    {
      memcpy (&w, p + i, 8);
      h = sum_step (h, w);
    }
  if (i < n)
    {
      w = 0;
      memcpy (&w, p + i, n - i);
      h = sum_step (h, w);
    }
  return sum_step (h, n);
}

static guint64
sum_header (const CpelIndexCacheHeader *h)
{
  return sum_bytes ((const guint8 *) h, G_STRUCT_OFFSET (CpelIndexCacheHeader, header_sum));
}

/* ---- identity ---- */

void
cpel_index_cache_sample_block (guint64  size,
                               guint    k,
                               guint64 *offset,
                               gsize   *len)
{
  g_assert (k < CPEL_INDEX_CACHE_N_BLOCKS);

  if (size <= CPEL_INDEX_CACHE_BLOCK)
    {
      *offset = 0;
      *len = (gsize) size;
      return;
    }
  *offset = (size - CPEL_INDEX_CACHE_BLOCK) / (CPEL_INDEX_CACHE_N_BLOCKS - 1) * k;
  *len = CPEL_INDEX_CACHE_BLOCK;
}

static void
compute_hash (const guint8 *data,
              guint64       size,
              guint8        out[32])
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint64 le = GUINT64_TO_LE (size);
  gsize out_len = 32;

  g_checksum_update (sum, (const guint8 *) &le, sizeof le);
  if (size <= 4 * 65536)
    g_checksum_update (sum, data, (gssize) size);
  else
    {
      g_checksum_update (sum, data, CPEL_INDEX_CACHE_HEAD);
      for (guint k = 0; k < CPEL_INDEX_CACHE_N_BLOCKS; k++)
        {
          guint64 off;
          gsize len;

          cpel_index_cache_sample_block (size, k, &off, &len);
          g_checksum_update (sum, data + off, (gssize) len);
        }
    }
  g_checksum_get_digest (sum, out, &out_len);
  g_assert (out_len == 32);
}

gboolean
cpel_index_cache_compute_key (CpelFile          *self,
                              guint64            tps_override,
                              CpelIndexCacheKey *key)
{
  memset (key, 0, sizeof *key);
  key->size = self->size;
  key->tps_override = tps_override;
#ifdef G_OS_UNIX
  if (self->path != NULL && self->mapped != NULL)
    {
      struct stat st;

      if (stat (self->path, &st) != 0 || !S_ISREG (st.st_mode) || (guint64) st.st_size != self->size)
        return FALSE;
      key->dev = (guint64) st.st_dev;
      key->ino = (guint64) st.st_ino;
      key->mtime_s = (guint64) st.st_mtim.tv_sec;
      key->mtime_ns = (guint64) st.st_mtim.tv_nsec;
    }
#endif
  compute_hash (self->data, self->size, key->hash);
  return TRUE;
}

char *
cpel_index_cache_path_for (const char              *dir,
                           const CpelIndexCacheKey *key)
{
  guint64 id[3] = { key->dev, key->ino, key->tps_override };
  g_autofree char *hex = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guint8 *) id, sizeof id);
  g_autofree char *name = NULL;

  hex[32] = '\0';
  name = g_strconcat (hex, CPEL_INDEX_CACHE_SUFFIX, NULL);
  return g_build_filename (dir, name, NULL);
}

char *
cpel_index_cache_get_default_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "cpel-viewer", "index", NULL);
}

/* ---- the file's layout ---- */

static guint64
meta_size_for (guint64 n_evsecs,
               guint64 n_tracks,
               guint64 n_types)
{
  return n_evsecs * 32 + n_tracks * 24 + n_types * 16;
}

static guint64
align_up (guint64 v)
{
  return (v + CPEL_INDEX_CACHE_ALIGN - 1) & ~(guint64) (CPEL_INDEX_CACHE_ALIGN - 1);
}

static void
put64 (GByteArray *b,
       guint64     v)
{
  g_byte_array_append (b, (const guint8 *) &v, 8);
}

/* ---- the overview and the level-of-detail summaries ---- */

#define OV_BUCKETS CPEL_INDEX_CACHE_OVERVIEW_BUCKETS

/* Start of overview bucket b of [0, span): ceil(span · b / OV_BUCKETS),
 * exactly (= cpel_render_column_time (0, span, b, OV_BUCKETS)). */
static gint64
ov_bound (guint64 span,
          guint   b)
{
  guint64 q = span / OV_BUCKETS, r = span % OV_BUCKETS;

  return (gint64) (q * b + (r * b + OV_BUCKETS - 1) / OV_BUCKETS);
}

/* bounds[0..OV_BUCKETS] of a capture of `duration` */
static gint64 *
ov_bounds (gint64 duration)
{
  gint64 *bnd = g_new (gint64, OV_BUCKETS + 1);
  guint64 span = (guint64) duration + 1;

  for (guint b = 0; b <= OV_BUCKETS; b++)
    bnd[b] = ov_bound (span, b);
  return bnd;
}

/* The bucket of t in [0, duration]: the last b with bnd[b] <= t. */
static guint
ov_find (const gint64 *bnd,
         gint64        t)
{
  guint lo = 0, hi = OV_BUCKETS;   /* bnd[lo] <= t < bnd[hi] */

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (bnd[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* Events per overview bucket of the indexed `self`. */
static void
ov_count (CpelFile *self,
          guint64  *counts)
{
  g_autofree gint64 *bnd = ov_bounds (self->duration);

  memset (counts, 0, 8 * OV_BUCKETS);
  for (guint s = 0; s < self->n_tracks; s++)
    {
      const gint64 *times = self->times + self->tracks[s].first;
      guint b = 0;

      for (guint64 i = 0; i < self->tracks[s].count; i++)
        {
          if (times[i] >= bnd[b + 1] || times[i] < bnd[b])
            b = ov_find (bnd, times[i]);
          counts[b]++;
        }
    }
}

/* The shift of a track's summary (cpel-lod.c): the least with at most
 * max(count / CPEL_LOD_EVENTS_PER_BUCKET, 1) buckets. */
static gboolean
lod_shift_ok (guint64 count,
              guint64 span,
              guint64 shift)
{
  guint64 target = MAX (count / CPEL_LOD_EVENTS_PER_BUCKET, 1);

  return shift < 64 && (span >> shift) + 1 <= target
         && (shift == 0 || (span >> (shift - 1)) + 1 > target);
}

/* Header, meta, summary and block table of the indexed `self`: the bytes
 * from the end of the header to the (zero) padding before the times. */
static GByteArray *
make_head (CpelFile                *self,
           const CpelIndexCacheKey *key,
           CpelIndexCacheHeader    *h)
{
  GByteArray *meta = g_byte_array_new ();
  g_autofree CpelLodStored *lods = g_new0 (CpelLodStored, MAX (self->n_tracks, 1));
  g_autofree guint64 *ov = g_new (guint64, OV_BUCKETS);
  guint64 n = self->n_events, n_blocks = (n + CPEL_INDEX_CACHE_BLOCK_ELEMS - 1) / CPEL_INDEX_CACHE_BLOCK_ELEMS;
  guint64 summary_offset, blocks_offset;

  for (guint s = 0; s < self->n_evsecs; s++)
    {
      put64 (meta, self->evsecs[s].first_index);
      put64 (meta, self->evsecs[s].count);
      put64 (meta, self->evsecs[s].tps);
      put64 (meta, self->evsecs[s].sorted ? 1 : 0);
    }
  for (guint s = 0; s < self->n_tracks; s++)
    {
      put64 (meta, self->tracks[s].id);
      put64 (meta, self->tracks[s].first);
      put64 (meta, self->tracks[s].count);
    }
  for (guint t = 0; t < self->n_types; t++)
    {
      put64 (meta, self->types[t].code);
      put64 (meta, self->types[t].count);
    }
  g_assert (meta->len == meta_size_for (self->n_evsecs, self->n_tracks, self->n_types));

  /* the summary */
  summary_offset = sizeof *h + meta->len;
  ov_count (self, ov);
  g_byte_array_append (meta, (const guint8 *) ov, 8 * OV_BUCKETS);
  for (guint s = 0; s < self->n_tracks; s++)
    {
      cpel_lod_export_stored (self, s, &lods[s]);
      g_assert (lods[s].n_buckets >= 1 && lods[s].cum[lods[s].n_buckets] == self->tracks[s].count);
      put64 (meta, (guint64) lods[s].origin);
      put64 (meta, lods[s].span);
      put64 (meta, lods[s].shift);
      put64 (meta, lods[s].n_buckets);
    }
  for (guint s = 0; s < self->n_tracks; s++)
    g_byte_array_append (meta, (const guint8 *) lods[s].cum, (guint) (4 * (lods[s].n_buckets + 1)));
  while ((meta->len & 7) != 0)
    g_byte_array_append (meta, (const guint8 *) "", 1);

  /* the block table */
  blocks_offset = sizeof *h + meta->len;
  for (guint64 k = 0; k < n_blocks; k++)
    {
      guint64 ts = SUM_SEED, rs = SUM_SEED;
      guint64 end = MIN ((k + 1) * CPEL_INDEX_CACHE_BLOCK_ELEMS, n);

      for (guint64 i = k * CPEL_INDEX_CACHE_BLOCK_ELEMS; i < end; i++)
        {
          ts = sum_step (ts, (guint64) self->times[i]);
          rs = sum_step (rs, self->recs[i]);
        }
      put64 (meta, ts);
      put64 (meta, rs);
    }

  memset (h, 0, sizeof *h);
  memcpy (h->magic, CPEL_INDEX_CACHE_MAGIC, 8);
  h->version = CPEL_INDEX_CACHE_VERSION;
  h->byte_order = BYTE_ORDER_MARK;
  h->header_size = sizeof *h;
  h->key = *key;
  h->n_events = n;
  h->n_evsecs = self->n_evsecs;
  h->n_tracks = self->n_tracks;
  h->n_types = self->n_types;
  h->flags = (self->time_ordered ? CPEL_INDEX_CACHE_FLAG_TIME_ORDERED : 0)
             | (self->duration == CPEL_TIME_MAX ? CPEL_INDEX_CACHE_FLAG_DURATION_CLAMPED : 0);
  h->base_ns = self->base_ns;
  h->duration = self->duration;
  h->meta_offset = sizeof *h;
  h->meta_size = meta_size_for (self->n_evsecs, self->n_tracks, self->n_types);
  h->summary_offset = summary_offset;
  h->summary_size = blocks_offset - summary_offset;
  h->blocks_offset = blocks_offset;
  h->n_blocks = n_blocks;
  h->times_offset = align_up (sizeof *h + meta->len);
  h->recs_offset = h->times_offset + 8 * n;
  h->file_size = h->recs_offset + 4 * n;
  h->meta_sum = sum_bytes (meta->data, h->meta_size);
  h->summary_sum = sum_bytes (meta->data + (summary_offset - sizeof *h), h->summary_size);
  h->blocks_sum = sum_bytes (meta->data + (blocks_offset - sizeof *h), 16 * n_blocks);
  h->header_sum = sum_header (h);
  return meta;
}

GBytes *
cpel_index_cache_serialize (CpelFile                *self,
                            const CpelIndexCacheKey *key)
{
  CpelIndexCacheHeader h;
  g_autoptr(GByteArray) meta = NULL;
  GByteArray *out;

  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  g_return_val_if_fail (self->times != NULL, NULL);

  meta = make_head (self, key, &h);
  out = g_byte_array_sized_new ((guint) MIN (h.file_size, G_MAXUINT));
  g_byte_array_append (out, (const guint8 *) &h, sizeof h);
  g_byte_array_append (out, meta->data, meta->len);
  g_byte_array_set_size (out, (guint) h.times_offset);
  memset (out->data + sizeof h + meta->len, 0, h.times_offset - sizeof h - meta->len);
  g_byte_array_append (out, (const guint8 *) self->times, (guint) (8 * self->n_events));
  g_byte_array_append (out, (const guint8 *) self->recs, (guint) (4 * self->n_events));
  g_assert (out->len == h.file_size);
  return g_byte_array_free_to_bytes (out);
}

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

static void
drop_range (const guint8 *from,
            const guint8 *to)
{
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
  static gsize page;
  guintptr a, b;

  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  a = ((guintptr) from + page - 1) & ~(guintptr) (page - 1);
  b = (guintptr) to & ~(guintptr) (page - 1);
  if (b > a)
    madvise ((void *) a, b - a, MADV_DONTNEED);
#endif
}

/* What is left to check of a cache adopted with verify_later: the times
 * and recs (12 bytes per event) against the block table, for order and
 * range, and against the summaries and the overview. */
struct _CpelIndexCacheBulk
{
  guint64              n;
  guint64              n_tracks;
  const guint8        *m_tracks;    /* meta: { id, first, count } per track */
  gint64               duration;
  const gint64        *times;
  const guint32       *recs;
  const guint8        *blocks;      /* { times_sum, recs_sum } per block */
  const CpelLodStored *lod;
  const guint8        *overview;    /* OV_BUCKETS u64 */
  gboolean             check_sums;
  gboolean             mapping;
  guint                guard;
  /* the cache file, removed when the check fails (if it is still that file) */
  char                *path;
  guint64              dev;
  guint64              ino;
};
typedef struct _CpelIndexCacheBulk Bulk;

typedef enum { BULK_OK, BULK_BAD, BULK_CANCELLED } BulkResult;

static BulkResult
verify_bulk (const Bulk   *b,
             GCancellable *cancellable)
{
  g_autofree gint64 *bnd = ov_bounds (b->duration);
  g_autofree guint64 *ov = g_new0 (guint64, OV_BUCKETS);
  const gint64 *times = b->times;
  const guint32 *recs = b->recs;
  guint64 n = b->n, i = 0, dropped = 0, blk = 0;
  guint64 blk_end = MIN (CPEL_INDEX_CACHE_BLOCK_ELEMS, n);
  guint64 ts = SUM_SEED, rs = SUM_SEED;
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
          prev_t = t;
          prev_r = r;
          bucket = ((guint64) t - (guint64) l->origin) >> l->shift;
          if (bucket >= l->n_buckets)
            return BULK_BAD;
          while (k < bucket)
            if (l->cum[++k] != i - first)
              return BULK_BAD;
          if (t >= bnd[ob + 1])
            ob = ov_find (bnd, t);
          ov[ob]++;
          ts = sum_step (ts, (guint64) t);
          rs = sum_step (rs, r);
          if (i + 1 == blk_end)
            {
              if (b->check_sums && (ts != meta64 (b->blocks, 2 * blk) || rs != meta64 (b->blocks, 2 * blk + 1)))
                return BULK_BAD;
              ts = rs = SUM_SEED;
              blk++;
              blk_end = MIN (blk_end + CPEL_INDEX_CACHE_BLOCK_ELEMS, n);
              if (g_cancellable_is_cancelled (cancellable))
                return BULK_CANCELLED;
              if (b->mapping && i + 1 - dropped >= DROP_EVERY)
                {
                  drop_range ((const guint8 *) (times + dropped), (const guint8 *) (times + i + 1));
                  drop_range ((const guint8 *) (recs + dropped), (const guint8 *) (recs + i + 1));
                  dropped = i + 1;
                }
            }
        }
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
      drop_range ((const guint8 *) (times + dropped), (const guint8 *) (recs + n));
#if defined(G_OS_UNIX) && defined(MADV_NORMAL)
      madvise ((void *) (((guintptr) times) & ~(guintptr) 4095),
               (guint8 *) (recs + n) - (guint8 *) (((guintptr) times) & ~(guintptr) 4095),
               MADV_NORMAL);
#endif
    }
  /* a cache file that shrank while it was read reads as zeros from there */
  if (b->guard != 0 && cpel_mapguard_is_damaged (b->guard))
    return BULK_BAD;
  return BULK_OK;
}

static CpelIndexCacheLoad
adopt (CpelFile                *self,
       const guint8            *data,
       gsize                    len,
       const CpelIndexCacheKey *key,
       gboolean                 check_sums,
       gboolean                 mapping,
       guint                    guard,
       gboolean                 verify_later,
       Bulk                   **bulk_out)
{
  CpelIndexCacheHeader h;
  const guint8 *meta, *m_tracks, *m_types, *m_summary, *m_lod;
  g_autofree CpelLodStored *lods = NULL;
  g_autofree Bulk *bulk = NULL;
  guint64 n, pos, sum, summary_max, cum_bytes;
  gboolean all_sorted = TRUE;
  DefinedCheck dc;

  if (len < sizeof h)
    return len >= 8 && memcmp (data, CPEL_INDEX_CACHE_MAGIC, 8) == 0
           ? CPEL_INDEX_CACHE_TRUNCATED : CPEL_INDEX_CACHE_DAMAGED;
  memcpy (&h, data, sizeof h);
  if (memcmp (h.magic, CPEL_INDEX_CACHE_MAGIC, 8) != 0)
    return CPEL_INDEX_CACHE_DAMAGED;
  if (h.version != CPEL_INDEX_CACHE_VERSION || h.byte_order != BYTE_ORDER_MARK
      || h.header_size != sizeof h)
    return CPEL_INDEX_CACHE_OTHER_VERSION;
  if (check_sums && sum_header (&h) != h.header_sum)
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
  /* Each summary has at most max(count / 16, 1) + 1 cumulative counts:
   * in all at most n / 16 + 2 · n_tracks. */
  summary_max = 8 * OV_BUCKETS + 32 * h.n_tracks
                + 4 * (n / CPEL_LOD_EVENTS_PER_BUCKET + 2 * h.n_tracks) + 8;
  if (h.meta_offset != sizeof h
      || h.meta_size != meta_size_for (h.n_evsecs, h.n_tracks, h.n_types)
      || h.summary_offset != h.meta_offset + h.meta_size
      || h.summary_size < 8 * OV_BUCKETS + 32 * h.n_tracks || h.summary_size > summary_max
      || (h.summary_size & 7) != 0
      || h.blocks_offset != h.summary_offset + h.summary_size
      || h.n_blocks != (n + CPEL_INDEX_CACHE_BLOCK_ELEMS - 1) / CPEL_INDEX_CACHE_BLOCK_ELEMS
      || h.times_offset != align_up (h.blocks_offset + 16 * h.n_blocks)
      || h.recs_offset != h.times_offset + 8 * n
      || h.file_size != h.recs_offset + 4 * n)
    return CPEL_INDEX_CACHE_DAMAGED;
  if (len < h.file_size)
    return CPEL_INDEX_CACHE_TRUNCATED;
  if (len > h.file_size || (((guintptr) data) & 7) != 0)
    return CPEL_INDEX_CACHE_DAMAGED;
  meta = data + h.meta_offset;
  m_summary = data + h.summary_offset;
  if (check_sums && (sum_bytes (meta, h.meta_size) != h.meta_sum
                     || sum_bytes (m_summary, h.summary_size) != h.summary_sum
                     || sum_bytes (data + h.blocks_offset, 16 * h.n_blocks) != h.blocks_sum))
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
                        || !lod_shift_ok (count, span, shift) || nb != (span >> shift) + 1))
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
  bulk = g_new0 (Bulk, 1);
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
  if (!verify_later && verify_bulk (bulk, NULL) != BULK_OK)
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
  h.meta_sum = sum_bytes (data + h.meta_offset, h.meta_size);
  for (guint64 k = 0; k < h.n_blocks; k++)
    {
      guint64 ts = SUM_SEED, rs = SUM_SEED;
      guint64 end = MIN ((k + 1) * CPEL_INDEX_CACHE_BLOCK_ELEMS, n);

      for (guint64 i = k * CPEL_INDEX_CACHE_BLOCK_ELEMS; i < end; i++)
        {
          guint64 t;
          guint32 r;

          memcpy (&t, data + h.times_offset + 8 * i, 8);
          memcpy (&r, data + h.recs_offset + 4 * i, 4);
          ts = sum_step (ts, t);
          rs = sum_step (rs, r);
        }
      memcpy (data + h.blocks_offset + 16 * k, &ts, 8);
      memcpy (data + h.blocks_offset + 16 * k + 8, &rs, 8);
    }
  h.summary_sum = sum_bytes (data + h.summary_offset, h.summary_size);
  h.blocks_sum = sum_bytes (data + h.blocks_offset, 16 * h.n_blocks);
  h.header_sum = sum_header (&h);
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

  return adopt (self, data, len, key, check_sums, FALSE, 0, FALSE, NULL);
}

/* ---- loading and storing ---- */

/* The cache file at `path`, mapped, when it is a regular file (never
 * following a link, never blocking on a FIFO). */
static GMappedFile *
map_cache (const char *path,
           guint64    *dev,
           guint64    *ino)
{
#ifdef G_OS_UNIX
  struct stat st;
  GMappedFile *mapped;
  int fd = g_open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);

  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_close (fd, NULL);
      return NULL;
    }
  *dev = (guint64) st.st_dev;
  *ino = (guint64) st.st_ino;
  mapped = g_mapped_file_new_from_fd (fd, FALSE, NULL);
  g_close (fd, NULL);
  return mapped;
#else
  *dev = *ino = 0;
  return g_mapped_file_new (path, FALSE, NULL);
#endif
}

static gboolean map_and_adopt (CpelFile *self);

gboolean
cpel_index_cache_try_load (CpelFile              *self,
                           const CpelLoadOptions *options)
{
  g_autofree CpelIndexCacheKey *key = NULL;
  const guint8 *data;
  gsize len;
  CpelIndexCacheLoad r;

  if (self->cache_bytes != NULL)
    {
      /* in memory: tests and the fuzzer */
      key = g_new0 (CpelIndexCacheKey, 1);
      cpel_index_cache_compute_key (self, self->cache_tps, key);
      data = g_bytes_get_data (self->cache_bytes, &len);
      r = adopt (self, data ? data : (const guint8 *) "", len, key, self->cache_check_sums, FALSE, 0,
                 self->cache_verify_later, &self->cache_bulk);
      self->cache_load = r;
      if (r != CPEL_INDEX_CACHE_USED)
        g_clear_pointer (&self->cache_bytes, g_bytes_unref);
      return r == CPEL_INDEX_CACHE_USED;
    }

  if (options == NULL || !options->use_cache || self->mapped == NULL || self->path == NULL
      || self->imported_from != NULL)
    return FALSE;
  self->cache_min_events = options->cache_min_events ? options->cache_min_events
                                                     : CPEL_INDEX_CACHE_DEFAULT_MIN_EVENTS;
  if (self->n_events < self->cache_min_events)
    return FALSE;
  self->cache_tps = options->ticks_per_second;
  self->cache_max_bytes = options->cache_max_bytes ? options->cache_max_bytes
                                                   : CPEL_INDEX_CACHE_DEFAULT_MAX_BYTES;
  self->cache_dir = options->cache_dir ? g_strdup (options->cache_dir)
                                       : cpel_index_cache_get_default_dir ();
  self->cache_wanted = TRUE;
  self->cache_verify_later = options->cache_verify_later;
  if (options->defer_index)
    return FALSE;   /* read by cpel_index_cache_try_fill () if the index is needed */
  return map_and_adopt (self);
}

gboolean
cpel_index_cache_try_fill (CpelFile *self)
{
  g_assert (self->times == NULL && self->tracks != NULL);

  if (!self->cache_wanted || self->n_events < self->cache_min_events)
    return FALSE;
  return map_and_adopt (self);
}

static gboolean
map_and_adopt (CpelFile *self)
{
  g_autofree CpelIndexCacheKey *key = g_new0 (CpelIndexCacheKey, 1);
  g_autofree char *path = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  const guint8 *data;
  gsize len;
  guint guard;
  guint64 dev = 0, ino = 0;
  Bulk *bulk = NULL;
  CpelIndexCacheLoad r;

  if (!cpel_index_cache_compute_key (self, self->cache_tps, key))
    {
      self->cache_wanted = FALSE;   /* the file changed since it was mapped */
      return FALSE;
    }
  path = cpel_index_cache_path_for (self->cache_dir, key);
  mapped = map_cache (path, &dev, &ino);
  if (mapped == NULL)
    {
      self->cache_load = CPEL_INDEX_CACHE_MISSING;
      return FALSE;
    }
  data = (const guint8 *) g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);
  if (data == NULL)
    data = (const guint8 *) "";   /* empty */
  guard = cpel_mapguard_register (data, len);
  /* verify_later only for a whole load: a deferred index (streaming
   * CLI) is checked in full */
  r = adopt (self, data, len, key, TRUE, TRUE, guard,
             self->cache_verify_later && self->tracks == NULL, &bulk);
  self->cache_load = r;
  if (bulk != NULL)
    {
      bulk->path = g_strdup (path);
      bulk->dev = dev;
      bulk->ino = ino;
      self->cache_bulk = bulk;
    }
  if (r != CPEL_INDEX_CACHE_USED)
    {
      cpel_mapguard_unregister (guard);
      return FALSE;
    }
  self->cache_mapped = g_steal_pointer (&mapped);
  self->cache_guard_id = guard;
  /* least recently used = oldest mtime */
  g_utime (path, NULL);
  return TRUE;
}

static gboolean
write_all (int           fd,
           const guint8 *p,
           guint64       n)
{
  while (n > 0)
    {
      gssize w = write (fd, p, (gsize) MIN (n, WRITE_MAX));

      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return FALSE;
      p += w;
      n -= (guint64) w;
    }
  return TRUE;
}

static gboolean
enough_space (const char *dir,
              guint64     size)
{
#ifdef G_OS_UNIX
  struct statvfs vfs;

  if (statvfs (dir, &vfs) != 0)
    return TRUE;   /* unknown: the write will tell */
  /* leave some room: a cache is not worth filling the disk */
  return (guint64) vfs.f_bavail * vfs.f_frsize >= size + size / 8 + (G_GUINT64_CONSTANT (1) << 20);
#else
  return TRUE;
#endif
}

static gboolean
store (CpelFile *self)
{
  CpelIndexCacheKey key;
  CpelIndexCacheHeader h;
  g_autoptr(GByteArray) meta = NULL;
  g_autofree char *path = NULL;
  g_autofree char *tmp = NULL;
  static const guint8 zeros[CPEL_INDEX_CACHE_ALIGN];
  gboolean ok;
  int fd;

  if (!cpel_index_cache_compute_key (self, self->cache_tps, &key))
    return FALSE;
  if (g_mkdir_with_parents (self->cache_dir, 0700) != 0)
    return FALSE;
  meta = make_head (self, &key, &h);
  if (h.file_size > self->cache_max_bytes || !enough_space (self->cache_dir, h.file_size))
    return FALSE;

  path = cpel_index_cache_path_for (self->cache_dir, &key);
  tmp = g_build_filename (self->cache_dir, CPEL_INDEX_CACHE_TMP_PREFIX "XXXXXX" CPEL_INDEX_CACHE_TMP_SUFFIX, NULL);
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    return FALSE;
  ok = write_all (fd, (const guint8 *) &h, sizeof h)
       && write_all (fd, meta->data, meta->len)
       && write_all (fd, zeros, h.times_offset - sizeof h - meta->len)
       && write_all (fd, (const guint8 *) self->times, 8 * self->n_events)
       && write_all (fd, (const guint8 *) self->recs, 4 * self->n_events);
  ok = g_close (fd, NULL) && ok;
  if (ok)
    ok = g_rename (tmp, path) == 0;
  if (!ok)
    g_unlink (tmp);
  return ok;
}

void
cpel_index_cache_store (CpelFile *self)
{
  if (!self->cache_wanted || cpel_file_index_is_cached (self) || self->times == NULL
      || self->n_events < self->cache_min_events)
    return;
  if (store (self))
    {
      self->cache_write = CPEL_INDEX_CACHE_WRITTEN;
      cpel_index_cache_trim (self->cache_dir, self->cache_max_bytes);
    }
  else
    self->cache_write = CPEL_INDEX_CACHE_WRITE_FAILED;
}

void
cpel_index_cache_release (CpelFile *self)
{
  cpel_mapguard_unregister (self->cache_guard_id);
  self->cache_guard_id = 0;
  g_clear_pointer (&self->cache_mapped, g_mapped_file_unref);
  g_clear_pointer (&self->cache_bytes, g_bytes_unref);
  g_clear_pointer (&self->cache_dir, g_free);
  if (self->cache_bulk != NULL)
    g_free (self->cache_bulk->path);
  g_clear_pointer (&self->cache_bulk, g_free);
  g_clear_pointer (&self->cache_lod, g_free);
  self->cache_overview = NULL;
}

/* ---- the deferred check ---- */

gboolean
cpel_file_verify_index (CpelFile     *self,
                        GCancellable *cancellable)
{
  static GMutex lock;
  Bulk *bulk;
  BulkResult r;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);

  g_mutex_lock (&lock);
  bulk = self->cache_bulk;
  if (bulk == NULL)
    {
      g_mutex_unlock (&lock);
      return !g_atomic_int_get (&self->cache_bad);
    }
  r = verify_bulk (bulk, cancellable);
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
  return n_buckets == CPEL_INDEX_CACHE_OVERVIEW_BUCKETS ? self->cache_overview : NULL;
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
  return self->cache_write;
}
