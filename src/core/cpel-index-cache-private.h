/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache-private.h — the cache file's layout and checks, for the
 * loader, the tests and the fuzzer
 *
 * Layout (native byte order, marked in the header; another order reads as
 * another version):
 *   header   CpelIndexCacheHeader (all 8-byte fields)
 *   meta     per event section { first_index, count, ticks_per_second, sorted }
 *            per track         { id, first, count }
 *            per type          { code, count }                 (u64 each)
 *   summary  what the first frame needs, so that it reads no event time:
 *            the overview's CPEL_INDEX_CACHE_OVERVIEW_BUCKETS counts (u64),
 *            per track { origin, span, shift, n_buckets } (u64 each) of its
 *            level-of-detail summary (cpel-lod.c), then every track's
 *            n_buckets + 1 cumulative counts (u32), padded to 8 bytes
 *   blocks   per block of CPEL_INDEX_CACHE_BLOCK_ELEMS elements of times /
 *            recs { times_sum, recs_sum }
 *   times    gint64 × n_events, at a 4096-aligned offset, track-major:
 *            the first one after the block table, or any up to the one
 *            after the largest summary the counts allow
 *            (cpel_index_cache_times_offset_max; an index built straight
 *            into the cache file takes its place before its summaries
 *            are known; the zero gap is never read)
 *   recs     guint32 × n_events
 * The header has a checksum of itself, of the meta, of the summary and of
 * the block table; the block table one of each block of times and of recs
 * (a 64-bit multiply-xor chain: a change confined to one 8-byte word,
 * such as any single bit flip, always changes it).
 *
 * Verification: header, meta, summary and block table (small: about
 * 0.25 byte per event) are checked in full on load — checksums, every
 * offset and count, each summary's shape and bucket counts.  The times and
 * recs (12 bytes per event) are checked against the block table and for
 * order, range and agreement with the summary and the overview either on
 * load too (the default) or, with CpelLoadOptions.cache_verify_later, by
 * cpel_file_verify_index () in a worker thread after the first frame (see
 * cpel-file.h for what happens when that fails).
 */
#pragma once

#include <string.h>

#include "cpel-file-private.h"
#include "cpel-index-cache.h"
#include "cpel-lod.h"

G_BEGIN_DECLS

#define CPEL_INDEX_CACHE_MAGIC    "CPELIDX\n"
#define CPEL_INDEX_CACHE_VERSION  3
#define CPEL_INDEX_CACHE_SUFFIX   ".cpelidx"
/* The derived spans' cache files share the dir, its cap and its trim
 * (cpel-span-cache.c) */
#define CPEL_SPAN_CACHE_SUFFIX    ".cpelspans"
#define CPEL_INDEX_CACHE_ALIGN    4096
/* Sampled blocks of the captured file in the identity hash */
#define CPEL_INDEX_CACHE_HEAD     65536
#define CPEL_INDEX_CACHE_BLOCK    4096
#define CPEL_INDEX_CACHE_N_BLOCKS 32
/* Elements of times / recs per checksum of the block table */
#define CPEL_INDEX_CACHE_BLOCK_ELEMS (G_GUINT64_CONSTANT (1) << 16)
/* Buckets of the stored overview (= the viewer's CPEL_OVERVIEW_DEFAULT_BUCKETS) */
#define CPEL_INDEX_CACHE_OVERVIEW_BUCKETS 4096

/* A writer's temporary file in the cache dir, renamed when complete:
 * ".cpelidx-PID-XXXXXX.tmp", locked (flock) by its writer while open. */
#define CPEL_INDEX_CACHE_TMP_PREFIX    ".cpelidx-"
#define CPEL_INDEX_CACHE_TMP_SUFFIX    ".tmp"
#define CPEL_INDEX_CACHE_TMP_MAX_AGE_S 3600   /* unlocked and this old: stale whatever its pid */


typedef struct
{
  guint64 dev;
  guint64 ino;
  guint64 size;
  guint64 mtime_s;
  guint64 mtime_ns;
  guint64 tps_override;
  guint8  hash[32];     /* SHA-256 of the head and the sampled blocks */
} CpelIndexCacheKey;

enum
{
  CPEL_INDEX_CACHE_FLAG_TIME_ORDERED     = 1 << 0,
  CPEL_INDEX_CACHE_FLAG_DURATION_CLAMPED = 1 << 1,
};

typedef struct
{
  char              magic[8];
  guint64           version;
  guint64           byte_order;    /* 0x0102030405060708 as written */
  guint64           header_size;
  CpelIndexCacheKey key;
  guint64           n_events;
  guint64           n_evsecs;
  guint64           n_tracks;
  guint64           n_types;
  guint64           flags;
  gint64            base_ns;
  gint64            duration;
  guint64           meta_offset;
  guint64           meta_size;
  guint64           times_offset;
  guint64           summary_offset;
  guint64           summary_size;
  guint64           blocks_offset;
  guint64           n_blocks;
  guint64           recs_offset;
  guint64           file_size;
  guint64           meta_sum;
  guint64           summary_sum;
  guint64           blocks_sum;
  guint64           header_sum;    /* of every field above */
} CpelIndexCacheHeader;

/* ---- shared by cpel-index-cache.c (writing, loading) and
 * cpel-index-cache-check.c ---- */

#define CPEL_INDEX_CACHE_BYTE_ORDER_MARK G_GUINT64_CONSTANT (0x0102030405060708)
#define CPEL_INDEX_CACHE_SUM_SEED        G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)
#define CPEL_INDEX_CACHE_SUM_MUL         G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD)

/* One step of the checksum chain: bijective in h for every w and in w for
 * every h, so a change confined to one word always changes the result. */
static inline guint64
cpel_index_cache_sum_step (guint64 h,
                           guint64 w)
{
  h = (h ^ w) * CPEL_INDEX_CACHE_SUM_MUL;
  return (h << 31) | (h >> 33);
}

/* The chain continued from h over the whole 8-byte words of p[0, n) (n a
 * multiple of 8), without the length step that ends a sum: what a sum
 * over several parts chains (the spans cache). */
static inline guint64
cpel_index_cache_sum_words (guint64       h,
                            const guint8 *p,
                            gsize         n)
{
  guint64 w;

  for (gsize i = 0; i + 8 <= n; i += 8)
    {
      memcpy (&w, p + i, 8);
      h = cpel_index_cache_sum_step (h, w);
    }
  return h;
}

static inline guint64
cpel_index_cache_sum_bytes (const guint8 *p,
                            gsize         n)
{
  gsize i = n & ~(gsize) 7;
  guint64 h = cpel_index_cache_sum_words (CPEL_INDEX_CACHE_SUM_SEED, p, i), w;

  if (i < n)
    {
      w = 0;
      memcpy (&w, p + i, n - i);
      h = cpel_index_cache_sum_step (h, w);
    }
  return cpel_index_cache_sum_step (h, n);
}

static inline guint64
cpel_index_cache_sum_header (const CpelIndexCacheHeader *h)
{
  return cpel_index_cache_sum_bytes ((const guint8 *) h,
                                     G_STRUCT_OFFSET (CpelIndexCacheHeader, header_sum));
}

/* Bytes of the meta of so many event sections, tracks and types */
static inline guint64
cpel_index_cache_meta_size (guint64 n_evsecs,
                            guint64 n_tracks,
                            guint64 n_types)
{
  return n_evsecs * 32 + n_tracks * 24 + n_types * 16;
}

static inline guint64
cpel_index_cache_align_up (guint64 v)
{
  return (v + CPEL_INDEX_CACHE_ALIGN - 1) & ~(guint64) (CPEL_INDEX_CACHE_ALIGN - 1);
}

/* The largest summary of n events on so many tracks: each track's has at
 * most max(count / CPEL_LOD_EVENTS_PER_BUCKET, 1) + 1 cumulative counts,
 * in all at most n / CPEL_LOD_EVENTS_PER_BUCKET + 2 · n_tracks. */
static inline guint64
cpel_index_cache_summary_max (guint64 n,
                              guint64 n_tracks)
{
  return 8 * CPEL_INDEX_CACHE_OVERVIEW_BUCKETS + 32 * n_tracks
         + 4 * (n / CPEL_LOD_EVENTS_PER_BUCKET + 2 * n_tracks) + 8;
}

/* The last offset the times may start at (see the layout above). */
static inline guint64
cpel_index_cache_times_offset_max (guint64 n,
                                   guint64 n_evsecs,
                                   guint64 n_tracks,
                                   guint64 n_types)
{
  guint64 n_blocks = (n + CPEL_INDEX_CACHE_BLOCK_ELEMS - 1) / CPEL_INDEX_CACHE_BLOCK_ELEMS;

  return cpel_index_cache_align_up (sizeof (CpelIndexCacheHeader)
                                    + cpel_index_cache_meta_size (n_evsecs, n_tracks, n_types)
                                    + cpel_index_cache_summary_max (n, n_tracks) + 16 * n_blocks);
}

/* bounds[0..CPEL_INDEX_CACHE_OVERVIEW_BUCKETS] of the overview of a
 * capture of `duration` (g_free) */
gint64  *cpel_index_cache_overview_bounds (gint64 duration);
/* The bucket of t in [0, duration]: the last b with bounds[b] <= t. */
guint    cpel_index_cache_overview_find   (const gint64 *bounds, gint64 t);
/* Whether `shift` is the shift cpel-lod.c gives a track of `count`
 * events over `span` */
gboolean cpel_index_cache_lod_shift_ok    (guint64 count, guint64 span, guint64 shift);

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
  /* the file indexed: each entry's record is read back (time, track), and
   * every record must be in the index exactly once */
  CpelFile            *file;
  gint64               base_ns;
  /* the cache file, removed when the check fails (if it is still that file) */
  char                *path;
  guint64              dev;
  guint64              ino;
};
typedef struct _CpelIndexCacheBulk CpelIndexCacheBulk;

void cpel_index_cache_bulk_free (CpelIndexCacheBulk *bulk);

/* cpel_index_cache_adopt () with what loading a mapped cache adds: the
 * mapping's pages are given back as they are checked, `guard` is its
 * cpel-mapguard id, and with verify_later the times and recs are left
 * for cpel_file_verify_index () (*bulk_out: what it needs). */
CpelIndexCacheLoad cpel_index_cache_adopt_full (CpelFile *self, const guint8 *data, gsize len,
                                                const CpelIndexCacheKey *key, gboolean check_sums,
                                                gboolean mapping, guint guard,
                                                gboolean verify_later,
                                                CpelIndexCacheBulk **bulk_out);

/* The k-th sampled block (k < CPEL_INDEX_CACHE_N_BLOCKS) of a file of
 * `size` bytes: [*offset, *offset + *len). */
void     cpel_index_cache_sample_block (guint64 size, guint k, guint64 *offset, gsize *len);
/* The key of `self` (opened by path: from stat; else dev, ino, mtime 0). */
gboolean cpel_index_cache_compute_key  (CpelFile *self, guint64 tps_override,
                                        CpelIndexCacheKey *key);
/* The cache file's path for `self` in `dir`. */
char    *cpel_index_cache_path_for     (const char *dir, const CpelIndexCacheKey *key);
/* A temporary file in `self`'s cache dir for a cache file of `size`
 * bytes (locked while open; within the cap and the free space), or -1. */
int      cpel_index_cache_create_tmp   (CpelFile *self, guint64 size, char **tmp_path);
/* Closes it and renames it to `path` when `ok`, else removes it. */
gboolean cpel_index_cache_commit_tmp   (int fd, const char *tmp, const char *path, gboolean ok);
/* The whole cache file of an indexed `self`, in memory (tests, seeds). */
GBytes  *cpel_index_cache_serialize    (CpelFile *self, const CpelIndexCacheKey *key);
/* Checks `data` as the cache of `self` (parsed, not indexed) under `key`
 * and on success sets the index from it (times / recs point into data:
 * the caller keeps it alive).  With check_sums FALSE the checksums are
 * not compared (the fuzzer: to reach the other checks); everything that
 * memory safety depends on is checked anyway. */
CpelIndexCacheLoad cpel_index_cache_adopt (CpelFile *self, const guint8 *data, gsize len,
                                           const CpelIndexCacheKey *key, gboolean check_sums);

/* Recomputes every checksum of a cache in memory after it was changed
 * (tests and the fuzzer: to reach the checks behind the checksums, as a
 * hostile cache would); FALSE when its offsets do not fit `len`. */
gboolean cpel_index_cache_reseal (guint8 *data, gsize len);

/* Loads `bytes` like cpel_file_new_for_bytes (), with `cache` as its index
 * cache; *result: what became of it. */
CpelFile *cpel_file_new_for_bytes_with_cache (GBytes *bytes, GBytes *cache,
                                              gboolean check_sums,
                                              CpelIndexCacheLoad *result,
                                              GError **error);
/* The same; with verify_later, as CpelLoadOptions.cache_verify_later. */
CpelFile *cpel_file_new_for_bytes_with_cache_full (GBytes *bytes, GBytes *cache,
                                                   gboolean check_sums,
                                                   gboolean verify_later,
                                                   CpelIndexCacheLoad *result,
                                                   GError **error);

/* ---- writing (cpel-index-cache-writer.c) ---- */

/* Bytes the writer writes before it starts their write-back (and settles the
 * chunk before: waits for it and drops it from the page cache) */
#define CPEL_INDEX_CACHE_WRITE_CHUNK (G_GUINT64_CONSTANT (8) << 20)

/* The chunk of the writers to come (tests, benchmarks); 0: one plain write,
 * no write-back of our own. */
void     cpel_index_cache_set_write_chunk (guint64 bytes);

typedef struct
{
  int     fd;
  guint64 chunk;
  guint64 settled;    /* [0, settled) written back and dropped */
  guint64 started;    /* [settled, started) its write-back started */
  guint64 end;        /* the end of what was written */
  guint   n_chunks;
  gboolean may_stop;  /* stop (FALSE, `stopped`) once cpel_index_cache_hurry () is called */
  gboolean stopped;
} CpelIndexCacheWriter;

void     cpel_index_cache_writer_init   (CpelIndexCacheWriter *w, int fd);
/* pwrite ()s in file order, in chunks; FALSE when it failed, was cancelled
 * or stopped (may_stop: then w->end is where to go on). */
gboolean cpel_index_cache_writer_write  (CpelIndexCacheWriter *w, const guint8 *p, guint64 n,
                                         guint64 offset, GCancellable *cancellable);
/* The last chunk written back and dropped. */
void     cpel_index_cache_writer_finish (CpelIndexCacheWriter *w);

/* What the last cpel_file_store_index () of `self` ran with: its thread's
 * policy and I/O priority (as cpel_index_cache_run_idle () gives them) and
 * the chunks it wrote (tests). */
void     cpel_index_cache_get_writer (CpelFile *self, int *policy, int *ioprio, guint *n_chunks);

/* Whether cpel_index_cache_hurry () was called. */
gboolean cpel_index_cache_is_hurried (void);

typedef void (*CpelIndexCacheIdleFunc) (gpointer data);
/* Runs func (data) in a thread of its own at the lowest CPU priority
 * (SCHED_IDLE) and the idle I/O class, and waits for it; *policy and
 * *ioprio: what that thread had (sched_getscheduler (), ioprio_get ();
 * -1 where unknown). */
void     cpel_index_cache_run_idle (CpelIndexCacheIdleFunc func, gpointer data,
                                    int *policy, int *ioprio);

G_END_DECLS
