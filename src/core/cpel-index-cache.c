/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache.c — the persisted per-track index (see the header and
 * cpel-index-cache-private.h for the file layout)
 *
 * Loading: the cache file is mapped read-only and checked against the file
 * just parsed (identity, event sections, counts), then one sequential pass
 * over its times and record indices checks their order and range and their
 * checksums, giving the pages back as it goes (they stay in the page
 * cache).  Only then does the file use it; otherwise the index is built as
 * usual and the cache written again.
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

/* Header and meta of the indexed `self`. */
static GByteArray *
make_head (CpelFile                *self,
           const CpelIndexCacheKey *key,
           CpelIndexCacheHeader    *h)
{
  GByteArray *meta = g_byte_array_new ();
  guint64 ts = SUM_SEED, rs = SUM_SEED;

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
  for (guint64 i = 0; i < self->n_events; i++)
    {
      ts = sum_step (ts, (guint64) self->times[i]);
      rs = sum_step (rs, self->recs[i]);
    }

  memset (h, 0, sizeof *h);
  memcpy (h->magic, CPEL_INDEX_CACHE_MAGIC, 8);
  h->version = CPEL_INDEX_CACHE_VERSION;
  h->byte_order = BYTE_ORDER_MARK;
  h->header_size = sizeof *h;
  h->key = *key;
  h->n_events = self->n_events;
  h->n_evsecs = self->n_evsecs;
  h->n_tracks = self->n_tracks;
  h->n_types = self->n_types;
  h->flags = (self->time_ordered ? CPEL_INDEX_CACHE_FLAG_TIME_ORDERED : 0)
             | (self->duration == CPEL_TIME_MAX ? CPEL_INDEX_CACHE_FLAG_DURATION_CLAMPED : 0);
  h->base_ns = self->base_ns;
  h->duration = self->duration;
  h->meta_offset = sizeof *h;
  h->meta_size = meta->len;
  g_assert (h->meta_size == meta_size_for (self->n_evsecs, self->n_tracks, self->n_types));
  h->times_offset = align_up (h->meta_offset + h->meta_size);
  h->recs_offset = h->times_offset + 8 * self->n_events;
  h->file_size = h->recs_offset + 4 * self->n_events;
  h->meta_sum = sum_bytes (meta->data, meta->len);
  h->times_sum = ts;
  h->recs_sum = rs;
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

static CpelIndexCacheLoad
adopt (CpelFile                *self,
       const guint8            *data,
       gsize                    len,
       const CpelIndexCacheKey *key,
       gboolean                 check_sums,
       gboolean                 mapping,
       guint                    guard)
{
  CpelIndexCacheHeader h;
  const guint8 *meta, *m_tracks, *m_types;
  const gint64 *times;
  const guint32 *recs;
  guint64 n, pos, sum, ts = SUM_SEED, rs = SUM_SEED;
  gint64 t_min = G_MAXINT64, t_max = G_MININT64;
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
  if (h.meta_offset != sizeof h
      || h.meta_size != meta_size_for (h.n_evsecs, h.n_tracks, h.n_types)
      || h.times_offset != align_up (h.meta_offset + h.meta_size)
      || h.recs_offset != h.times_offset + 8 * n
      || h.file_size != h.recs_offset + 4 * n)
    return CPEL_INDEX_CACHE_DAMAGED;
  if (len < h.file_size)
    return CPEL_INDEX_CACHE_TRUNCATED;
  if (len > h.file_size)
    return CPEL_INDEX_CACHE_DAMAGED;
  meta = data + h.meta_offset;
  if (check_sums && sum_bytes (meta, h.meta_size) != h.meta_sum)
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

  /* Times and record indices: each track in (time, record) order, times in
   * [0, duration] with both ends reached, records in range. */
  if ((((guintptr) (data + h.times_offset)) & 7) != 0)
    return CPEL_INDEX_CACHE_DAMAGED;
  times = (const gint64 *) (data + h.times_offset);
  recs = (const guint32 *) (data + h.recs_offset);
  if (mapping)
    {
#if defined(G_OS_UNIX) && defined(MADV_SEQUENTIAL)
      madvise ((void *) (((guintptr) times) & ~(guintptr) 4095),
               h.file_size - (h.times_offset & ~(guint64) 4095), MADV_SEQUENTIAL);
#endif
    }
  for (guint64 s = 0, i = 0, dropped = 0; s < h.n_tracks; s++)
    {
      guint64 end = i + meta64 (m_tracks, 3 * s + 2);
      gint64 prev_t = G_MININT64;
      guint32 prev_r = 0;

      for (; i < end; i++)
        {
          gint64 t = times[i];
          guint32 r = recs[i];

          if (t < 0 || t > h.duration || (guint64) r >= n
              || t < prev_t || (t == prev_t && r <= prev_r))
            return CPEL_INDEX_CACHE_DAMAGED;
          prev_t = t;
          prev_r = r;
          ts = sum_step (ts, (guint64) t);
          rs = sum_step (rs, r);
        }
      if (meta64 (m_tracks, 3 * s + 2) > 0)
        {
          t_min = MIN (t_min, times[end - meta64 (m_tracks, 3 * s + 2)]);
          t_max = MAX (t_max, prev_t);
        }
      if (mapping && i - dropped >= DROP_EVERY)
        {
          drop_range ((const guint8 *) (times + dropped), (const guint8 *) (times + i));
          drop_range ((const guint8 *) (recs + dropped), (const guint8 *) (recs + i));
          dropped = i;
        }
    }
  if (n > 0 && (t_min != 0 || t_max != h.duration))
    return CPEL_INDEX_CACHE_DAMAGED;
  if (check_sums && (ts != h.times_sum || rs != h.recs_sum))
    return CPEL_INDEX_CACHE_DAMAGED;
  if (mapping)
    {
      drop_range (data + h.times_offset, data + h.file_size);
#if defined(G_OS_UNIX) && defined(MADV_NORMAL)
      madvise ((void *) (((guintptr) times) & ~(guintptr) 4095),
               h.file_size - (h.times_offset & ~(guint64) 4095), MADV_NORMAL);
#endif
    }

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
      self->times = (gint64 *) times;
      self->recs = (guint32 *) recs;
      return CPEL_INDEX_CACHE_USED;
    }

  /* All checked: the index is the cache's. */
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
  self->times = (gint64 *) times;
  self->recs = (guint32 *) recs;
  return CPEL_INDEX_CACHE_USED;
}

gboolean
cpel_index_cache_reseal (guint8 *data,
                         gsize   len)
{
  CpelIndexCacheHeader h;
  guint64 ts = SUM_SEED, rs = SUM_SEED, n;

  if (len < sizeof h)
    return FALSE;
  memcpy (&h, data, sizeof h);
  n = h.n_events;
  if (h.meta_offset > len || h.meta_size > len - h.meta_offset
      || n > len / 12 || h.times_offset > len - 8 * n || h.recs_offset > len - 4 * n)
    return FALSE;
  h.meta_sum = sum_bytes (data + h.meta_offset, h.meta_size);
  for (guint64 i = 0; i < n; i++)
    {
      guint64 t;
      guint32 r;

      memcpy (&t, data + h.times_offset + 8 * i, 8);
      memcpy (&r, data + h.recs_offset + 4 * i, 4);
      ts = sum_step (ts, t);
      rs = sum_step (rs, r);
    }
  h.times_sum = ts;
  h.recs_sum = rs;
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

  return adopt (self, data, len, key, check_sums, FALSE, 0);
}

/* ---- loading and storing ---- */

/* The cache file at `path`, mapped, when it is a regular file (never
 * following a link, never blocking on a FIFO). */
static GMappedFile *
map_cache (const char *path)
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
  mapped = g_mapped_file_new_from_fd (fd, FALSE, NULL);
  g_close (fd, NULL);
  return mapped;
#else
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
      r = adopt (self, data ? data : (const guint8 *) "", len, key, self->cache_check_sums, FALSE, 0);
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
  CpelIndexCacheLoad r;

  if (!cpel_index_cache_compute_key (self, self->cache_tps, key))
    {
      self->cache_wanted = FALSE;   /* the file changed since it was mapped */
      return FALSE;
    }
  path = cpel_index_cache_path_for (self->cache_dir, key);
  mapped = map_cache (path);
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
  r = adopt (self, data, len, key, TRUE, TRUE, guard);
  self->cache_load = r;
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
