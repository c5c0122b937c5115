/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache.c — the persisted per-track index (see the header and
 * cpel-index-cache-private.h for the file layout)
 *
 * Loading: the cache file is mapped read-only and checked
 * (cpel-index-cache-check.c) against the file just parsed (identity, event sections, counts), its summaries (overview,
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
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <utime.h>
#include <unistd.h>
#endif

#define WRITE_MAX        ((guint64) 1 << 30)
#define OV_BUCKETS       CPEL_INDEX_CACHE_OVERVIEW_BUCKETS

G_STATIC_ASSERT (sizeof (CpelIndexCacheKey) == 6 * 8 + 32);
G_STATIC_ASSERT (sizeof (CpelIndexCacheHeader) % 8 == 0);
G_STATIC_ASSERT (CPEL_INDEX_CACHE_HEAD + CPEL_INDEX_CACHE_N_BLOCKS * CPEL_INDEX_CACHE_BLOCK <= 4 * 65536);

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

static void
put64 (GByteArray *b,
       guint64     v)
{
  g_byte_array_append (b, (const guint8 *) &v, 8);
}

/* ---- the overview and the level-of-detail summaries ---- */

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
gint64 *
cpel_index_cache_overview_bounds (gint64 duration)
{
  gint64 *bnd = g_new (gint64, OV_BUCKETS + 1);
  guint64 span = (guint64) duration + 1;

  for (guint b = 0; b <= OV_BUCKETS; b++)
    bnd[b] = ov_bound (span, b);
  return bnd;
}

/* The bucket of t in [0, duration]: the last b with bnd[b] <= t. */
guint
cpel_index_cache_overview_find (const gint64 *bnd,
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

/* Whether a writer in the idle thread is to stop (see cpel-index-cache-writer.c). */
static gboolean
must_stop (gboolean may_stop)
{
  return may_stop && cpel_index_cache_is_hurried ();
}

/* FALSE when stopped (may_stop), the counts not set. */
static gboolean
count_overview (CpelFile *self,
                gboolean  may_stop)
{
  g_autofree gint64 *bnd = NULL;
  g_autofree guint64 *counts = NULL;

  if (self->overview_counts != NULL || self->times == NULL)
    return TRUE;
  bnd = cpel_index_cache_overview_bounds (self->duration);
  counts = g_new0 (guint64, OV_BUCKETS);
  for (guint s = 0; s < self->n_tracks; s++)
    {
      if (must_stop (may_stop))
        return FALSE;
      const gint64 *times = self->times + self->tracks[s].first;
      guint b = 0;

      for (guint64 i = 0; i < self->tracks[s].count; i++)
        {
          if (times[i] >= bnd[b + 1] || times[i] < bnd[b])
            b = cpel_index_cache_overview_find (bnd, times[i]);
          counts[b]++;
        }
      cpel_index_store_drop (self, times, times + self->tracks[s].count);
    }
  self->overview_counts = g_steal_pointer (&counts);
  return TRUE;
}

void
cpel_index_cache_count_overview (CpelFile *self)
{
  count_overview (self, FALSE);
}

/* The shift of a track's summary (cpel-lod.c): the least with at most
 * max(count / CPEL_LOD_EVENTS_PER_BUCKET, 1) buckets. */
gboolean
cpel_index_cache_lod_shift_ok (guint64 count,
              guint64 span,
              guint64 shift)
{
  guint64 target = MAX (count / CPEL_LOD_EVENTS_PER_BUCKET, 1);

  return shift < 64 && (span >> shift) + 1 <= target
         && (shift == 0 || (span >> (shift - 1)) + 1 > target);
}

/* Header, meta, summary and block table of the indexed `self`: the bytes
 * from the end of the header to the (zero) padding before the times,
 * which start at `times_offset` (0: right after the block table). */
static GByteArray *
make_head (CpelFile                *self,
           const CpelIndexCacheKey *key,
           guint64                  times_offset,
           CpelIndexCacheHeader    *h,
           gboolean                 may_stop)
{
  g_autoptr(GByteArray) meta = g_byte_array_new ();
  g_autofree CpelLodStored *lods = g_new0 (CpelLodStored, MAX (self->n_tracks, 1));
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
  g_assert (meta->len == cpel_index_cache_meta_size (self->n_evsecs, self->n_tracks, self->n_types));

  /* the summary */
  summary_offset = sizeof *h + meta->len;
  if (!count_overview (self, may_stop))
    return NULL;
  g_byte_array_append (meta, (const guint8 *) self->overview_counts, 8 * OV_BUCKETS);
  for (guint s = 0; s < self->n_tracks; s++)
    {
      if (must_stop (may_stop))
        return NULL;
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
      guint64 ts = CPEL_INDEX_CACHE_SUM_SEED, rs = CPEL_INDEX_CACHE_SUM_SEED;
      guint64 end = MIN ((k + 1) * CPEL_INDEX_CACHE_BLOCK_ELEMS, n);

      if (must_stop (may_stop))
        return NULL;
      for (guint64 i = k * CPEL_INDEX_CACHE_BLOCK_ELEMS; i < end; i++)
        {
          ts = cpel_index_cache_sum_step (ts, (guint64) self->times[i]);
          rs = cpel_index_cache_sum_step (rs, self->recs[i]);
        }
      cpel_index_store_drop (self, self->times + k * CPEL_INDEX_CACHE_BLOCK_ELEMS, self->times + end);
      cpel_index_store_drop (self, self->recs + k * CPEL_INDEX_CACHE_BLOCK_ELEMS, self->recs + end);
      put64 (meta, ts);
      put64 (meta, rs);
    }

  memset (h, 0, sizeof *h);
  memcpy (h->magic, CPEL_INDEX_CACHE_MAGIC, 8);
  h->version = CPEL_INDEX_CACHE_VERSION;
  h->byte_order = CPEL_INDEX_CACHE_BYTE_ORDER_MARK;
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
  h->meta_size = cpel_index_cache_meta_size (self->n_evsecs, self->n_tracks, self->n_types);
  h->summary_offset = summary_offset;
  h->summary_size = blocks_offset - summary_offset;
  h->blocks_offset = blocks_offset;
  h->n_blocks = n_blocks;
  h->times_offset = times_offset != 0 ? times_offset : cpel_index_cache_align_up (sizeof *h + meta->len);
  g_assert (h->times_offset >= cpel_index_cache_align_up (sizeof *h + meta->len));
  h->recs_offset = h->times_offset + 8 * n;
  h->file_size = h->recs_offset + 4 * n;
  h->meta_sum = cpel_index_cache_sum_bytes (meta->data, h->meta_size);
  h->summary_sum = cpel_index_cache_sum_bytes (meta->data + (summary_offset - sizeof *h), h->summary_size);
  h->blocks_sum = cpel_index_cache_sum_bytes (meta->data + (blocks_offset - sizeof *h), 16 * n_blocks);
  h->header_sum = cpel_index_cache_sum_header (h);
  return g_steal_pointer (&meta);
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

  meta = make_head (self, key, 0, &h, FALSE);
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
      r = cpel_index_cache_adopt_full (self, data ? data : (const guint8 *) "", len, key, self->cache_check_sums, FALSE, 0,
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
  self->cache_store_later = options->cache_store_later;
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
  CpelIndexCacheBulk *bulk = NULL;
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
  r = cpel_index_cache_adopt_full (self, data, len, key, TRUE, TRUE, guard,
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

/* A temporary file in the cache dir for a cache of `size` bytes, or -1. */
int
cpel_index_cache_create_tmp (CpelFile *self,
            guint64   size,
            char    **tmp_path)
{
  g_autofree char *tmp = NULL;
  int fd;

  g_autofree char *name = NULL;

  if (g_mkdir_with_parents (self->cache_dir, 0700) != 0)
    return -1;
  cpel_index_cache_remove_stale_tmps (self->cache_dir);
  if (size > self->cache_max_bytes || !enough_space (self->cache_dir, size))
    return -1;
#ifdef G_OS_UNIX
  name = g_strdup_printf (CPEL_INDEX_CACHE_TMP_PREFIX "%ld-XXXXXX" CPEL_INDEX_CACHE_TMP_SUFFIX,
                          (long) getpid ());
#else
  name = g_strdup (CPEL_INDEX_CACHE_TMP_PREFIX "XXXXXX" CPEL_INDEX_CACHE_TMP_SUFFIX);
#endif
  tmp = g_build_filename (self->cache_dir, name, NULL);
  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    return -1;
#ifdef G_OS_UNIX
  /* held while the file is open: no one takes it for a dead writer's (a
   * cleaner that locked it first still sees our pid running) */
  while (flock (fd, LOCK_EX) != 0 && errno == EINTR)
    ;
#endif
  *tmp_path = g_steal_pointer (&tmp);
  return fd;
}

int
cpel_index_cache_begin (CpelFile *self,
                        guint64  *times_offset,
                        char    **tmp_path)
{
#ifdef G_OS_UNIX
  guint64 offset, size;
  int fd;

  if (!self->cache_wanted || cpel_file_index_is_cached (self) || self->n_events < self->cache_min_events
      || self->n_events == 0)
    return -1;
  /* small enough for memory: built there, stored by cpel_file_store_index () */
  if (self->cache_store_later && 12 * self->n_events < cpel_index_store_file_min ())
    return -1;
  offset = cpel_index_cache_times_offset_max (self->n_events, self->n_evsecs, self->n_tracks, self->n_types);
  size = offset + 12 * self->n_events;
  fd = cpel_index_cache_create_tmp (self, size, tmp_path);
  if (fd < 0)
    return -1;
  if (ftruncate (fd, (off_t) size) != 0)
    {
      g_close (fd, NULL);
      g_unlink (*tmp_path);
      g_clear_pointer (tmp_path, g_free);
      return -1;
    }
  *times_offset = offset;
  return fd;
#else
  return -1;
#endif
}

/* Closes the temporary file `tmp` and renames it to `path` when all went
 * well (`ok`), else removes it. */
gboolean
cpel_index_cache_commit_tmp (int         fd,
            const char *tmp,
            const char *path,
            gboolean    ok)
{
  ok = g_close (fd, NULL) && ok;
  if (ok)
    ok = g_rename (tmp, path) == 0;
  if (!ok)
    g_unlink (tmp);
  return ok;
}

/* The cache of an index built in its temporary file: the head written,
 * then the rename.  The index stays mapped from it, read-only now. */
static gboolean
store_in_place (CpelFile *self,
                gboolean  may_stop,
                gboolean *stopped)
{
  CpelIndexCacheKey key;
  CpelIndexCacheHeader h;
  g_autoptr(GByteArray) meta = NULL;
  g_autofree char *path = NULL;
  CpelIndexCacheWriter w;
  gboolean ok;

  if (!cpel_index_cache_compute_key (self, self->cache_tps, &key))
    return FALSE;
  meta = make_head (self, &key, self->index_times_offset, &h, may_stop);
  if (meta == NULL)
    {
      *stopped = TRUE;   /* hurried: done again by the caller's thread */
      return FALSE;
    }
  g_assert (h.file_size == self->index_times_offset + 12 * self->n_events);
  path = cpel_index_cache_path_for (self->cache_dir, &key);
  cpel_index_cache_writer_init (&w, self->index_fd);
  w.chunk = 0;   /* the index is written back by the kernel from the mapping */
  ok = cpel_index_cache_writer_write (&w, (const guint8 *) &h, sizeof h, 0, NULL)
       && cpel_index_cache_writer_write (&w, meta->data, meta->len, sizeof h, NULL);
  ok = cpel_index_cache_commit_tmp (self->index_fd, self->index_tmp, path, ok);
  self->index_fd = -1;
#ifdef G_OS_UNIX
  mprotect (self->index_map, self->index_map_len, PROT_READ);
#endif
  return ok;
}

/* A cache write in steps: prepared (head made, temporary file created),
 * then its parts written in file order from where the last step stopped
 * (the idle thread stops when cpel_index_cache_hurry () is called: the
 * caller's thread goes on), then committed. */
typedef struct
{
  CpelFile             *self;
  GCancellable         *cancellable;
  gboolean              prepared;
  gboolean              done;
  gboolean              ok;
  CpelIndexCacheHeader  h;
  GByteArray           *meta;
  char                 *path;
  char                 *tmp;
  CpelIndexCacheWriter  w;
  struct
  {
    const guint8 *p;
    guint64       n;
    guint64       offset;
  }                     parts[5];
  guint                 n_parts;
  guint                 part;     /* the part being written */
} StoreJob;

static void
store_job_clear (StoreJob *job)
{
  g_clear_pointer (&job->meta, g_byte_array_unref);
  g_clear_pointer (&job->path, g_free);
  g_clear_pointer (&job->tmp, g_free);
}

static void
add_part (StoreJob     *job,
          const guint8 *p,
          guint64       n,
          guint64       offset)
{
  g_assert (job->n_parts < G_N_ELEMENTS (job->parts));
  job->parts[job->n_parts].p = p;
  job->parts[job->n_parts].n = n;
  job->parts[job->n_parts].offset = offset;
  job->n_parts++;
}

/* 1: prepared; 0: failed; -1: stopped (may_stop), nothing made yet */
static int
store_prepare (StoreJob *job,
               gboolean  may_stop)
{
  static const guint8 zeros[CPEL_INDEX_CACHE_ALIGN];
  CpelFile *self = job->self;
  CpelIndexCacheKey key;
  CpelIndexCacheHeader *h = &job->h;
  int fd;

  if (!cpel_index_cache_compute_key (self, self->cache_tps, &key))
    return 0;
  job->meta = make_head (self, &key, 0, h, may_stop);
  if (job->meta == NULL)
    return -1;
  fd = cpel_index_cache_create_tmp (self, h->file_size, &job->tmp);
  if (fd < 0)
    return 0;
  job->path = cpel_index_cache_path_for (self->cache_dir, &key);
  g_assert (h->times_offset - sizeof *h - job->meta->len <= sizeof zeros);
  cpel_index_cache_writer_init (&job->w, fd);
  add_part (job, (const guint8 *) h, sizeof *h, 0);
  add_part (job, job->meta->data, job->meta->len, sizeof *h);
  add_part (job, zeros, h->times_offset - sizeof *h - job->meta->len,
            sizeof *h + job->meta->len);
  add_part (job, (const guint8 *) self->times, 8 * self->n_events, h->times_offset);
  add_part (job, (const guint8 *) self->recs, 4 * self->n_events, h->recs_offset);
  return 1;
}

/* One step of the job, in the idle thread (`may_stop`: it stops, job->done
 * still FALSE, when hurried) or in the caller's. */
static void
store_step (StoreJob *job,
            gboolean  may_stop)
{
  CpelFile *self = job->self;

  if (!job->prepared)
    {
      int r;

      if (self->index_fd >= 0)
        {
          gboolean stopped = FALSE;

          job->ok = store_in_place (self, may_stop, &stopped);
          if (stopped)
            return;
          job->prepared = TRUE;
          job->done = TRUE;
          return;
        }
      r = store_prepare (job, may_stop);
      if (r < 0)
        return;   /* hurried: prepared again by the caller's thread */
      job->prepared = TRUE;
      if (r == 0)
        {
          job->ok = FALSE;
          job->done = TRUE;
          return;
        }
    }
  job->w.may_stop = may_stop;
  while (job->ok && job->part < job->n_parts)
    {
      guint64 from = job->parts[job->part].offset;
      guint64 at = MAX (job->w.end, from) - from;   /* written of this part */
      const guint8 *p = job->parts[job->part].p + at;

      job->ok = cpel_index_cache_writer_write (&job->w, p, job->parts[job->part].n - at,
                                               from + at, job->cancellable);
      if (!job->ok && job->w.stopped)
        {
          job->ok = TRUE;   /* to be gone on with */
          job->w.stopped = FALSE;
          return;
        }
      job->part++;
    }
  if (job->ok)
    cpel_index_cache_writer_finish (&job->w);
  self->cache_write_chunks = job->w.n_chunks;
  job->ok = cpel_index_cache_commit_tmp (job->w.fd, job->tmp, job->path, job->ok);
  job->done = TRUE;
}

static gboolean
store_wanted (CpelFile *self)
{
  return self->cache_wanted && !cpel_file_index_is_cached (self) && self->times != NULL
         && self->n_events >= self->cache_min_events;
}

static void
store_ended (CpelFile     *self,
             gboolean      ok,
             GCancellable *cancellable)
{
  if (ok)
    {
      g_atomic_int_set (&self->cache_write, CPEL_INDEX_CACHE_WRITTEN);
      cpel_index_cache_trim (self->cache_dir, self->cache_max_bytes);
    }
  else if (!g_cancellable_is_cancelled (cancellable))
    g_atomic_int_set (&self->cache_write, CPEL_INDEX_CACHE_WRITE_FAILED);
}

void
cpel_index_cache_store (CpelFile *self)
{
  /* never here: the loader (or the viewer, after its first frame) calls
   * cpel_file_store_index () */
  if (store_wanted (self))
    g_atomic_int_set (&self->cache_store_pending, TRUE);
}

static void
store_job_run (gpointer data)
{
  store_step (data, TRUE);
}

gboolean
cpel_file_store_index (CpelFile     *self,
                       GCancellable *cancellable)
{
  StoreJob job = { 0 };

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);

  if (!g_atomic_int_compare_and_exchange (&self->cache_store_pending, TRUE, FALSE))
    return FALSE;
  job.self = self;
  job.cancellable = cancellable;
  job.ok = TRUE;
  if (!cpel_index_cache_is_hurried ())
    cpel_index_cache_run_idle (store_job_run, &job, &self->cache_writer_policy,
                               &self->cache_writer_ioprio);
  /* hurried (someone waits for it): the rest at this thread's priority */
  while (!job.done)
    store_step (&job, FALSE);
  store_job_clear (&job);
  store_ended (self, job.ok, cancellable);
  return g_atomic_int_get (&self->cache_write) == CPEL_INDEX_CACHE_WRITTEN;
}

void
cpel_index_cache_get_writer (CpelFile *self,
                             int      *policy,
                             int      *ioprio,
                             guint    *n_chunks)
{
  *policy = self->cache_writer_policy;
  *ioprio = self->cache_writer_ioprio;
  *n_chunks = self->cache_write_chunks;
}

gboolean
cpel_file_index_store_is_pending (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return g_atomic_int_get (&self->cache_store_pending);
}

gboolean
cpel_file_claim_deferred_cache (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  if (!cpel_file_index_is_unverified (self) && !cpel_file_index_store_is_pending (self))
    return FALSE;
  return g_atomic_int_compare_and_exchange (&self->cache_deferred_claimed, FALSE, TRUE);
}

void
cpel_index_cache_release (CpelFile *self)
{
  cpel_mapguard_unregister (self->cache_guard_id);
  self->cache_guard_id = 0;
  g_clear_pointer (&self->cache_mapped, g_mapped_file_unref);
  g_clear_pointer (&self->cache_bytes, g_bytes_unref);
  g_clear_pointer (&self->cache_dir, g_free);
  g_clear_pointer (&self->cache_bulk, cpel_index_cache_bulk_free);
  g_clear_pointer (&self->cache_lod, g_free);
  self->cache_overview = NULL;
  g_clear_pointer (&self->overview_counts, g_free);
}
