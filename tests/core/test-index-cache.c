/* SPDX-License-Identifier: Apache-2.0 */
/* test-index-cache.c — the persisted per-track index (cpel-index-cache.c)
 *
 * Every case compares the loaded index, field for field, with the index
 * built from the file without a cache: a cache is either used and gives
 * exactly that, or it is rejected (with the expected reason) and the
 * index is rebuilt — never a crash, never other data.  Files live in a
 * private temporary dir (XDG dirs isolated too).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#include <sys/mount.h>
#endif

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-file-private.h"
#include "cpel-index-cache-private.h"
#include "cpel-span-cache-private.h"
#include "cpel-loader.h"
#include "cpel-lod.h"
#include "cpel-test-util.h"

typedef struct
{
  char *dir;        /* temporary dir of the test */
  char *cache_dir;
  char *path;       /* a generated capture */
} Fixture;

static void
gen (const char *path,
     guint64     n_events,
     guint       n_tracks,
     guint64     seed,
     gboolean    sorted)
{
  CpelGenOptions options = { .n_events = n_events, .n_tracks = n_tracks, .seed = seed,
                             .overwrite = TRUE, .sorted = sorted };
  g_autoptr(GError) error = NULL;

  g_assert_true (cpel_gen_write (path, &options, &error));
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("cpel-index-cache-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->cache_dir = g_build_filename (f->dir, "cache", "index", NULL);
  f->path = g_build_filename (f->dir, "capture.cpel", NULL);
  gen (f->path, 20000, 12, 7, FALSE);
}

static void
remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d == NULL)
    {
      g_remove (path);
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      GStatBuf st;

      if (g_lstat (child, &st) == 0 && S_ISDIR (st.st_mode))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_dir_close (d);
  g_rmdir (path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_chmod (f->dir, 0700);
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->cache_dir);
  g_free (f->path);
}

static CpelFile *
open_with (const char *path,
           const char *cache_dir,
           guint64     max_bytes,
           gboolean    defer)
{
  CpelLoadOptions options = { .use_cache = cache_dir != NULL, .cache_dir = cache_dir,
                              .cache_max_bytes = max_bytes, .cache_min_events = 1,
                              .defer_index = defer };
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (path, &options, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

static CpelFile *
open_cached (Fixture *f)
{
  return open_with (f->path, f->cache_dir, 0, FALSE);
}

/* The index of `file` is exactly that of `ref` (built without a cache). */
static void
assert_same_index (CpelFile *file,
                   CpelFile *ref)
{
  const char * const *wa, * const *wb;

  g_assert_true (cpel_file_has_index (file));
  g_assert_cmpuint (file->n_events, ==, ref->n_events);
  g_assert_cmpint (file->base_ns, ==, ref->base_ns);
  g_assert_cmpint (file->duration, ==, ref->duration);
  g_assert_cmpint (file->time_ordered, ==, ref->time_ordered);
  for (guint s = 0; s < ref->n_evsecs; s++)
    g_assert_cmpint (file->evsecs[s].sorted, ==, ref->evsecs[s].sorted);
  g_assert_cmpuint (file->n_tracks, ==, ref->n_tracks);
  for (guint s = 0; s < ref->n_tracks; s++)
    {
      g_assert_cmpuint (file->tracks[s].id, ==, ref->tracks[s].id);
      g_assert_cmpuint (file->tracks[s].first, ==, ref->tracks[s].first);
      g_assert_cmpuint (file->tracks[s].count, ==, ref->tracks[s].count);
      g_assert_cmpstr (file->tracks[s].label, ==, ref->tracks[s].label);
    }
  g_assert_cmpuint (file->n_types, ==, ref->n_types);
  for (guint t = 0; t < ref->n_types; t++)
    {
      g_assert_cmpuint (file->types[t].code, ==, ref->types[t].code);
      g_assert_cmpuint (file->types[t].count, ==, ref->types[t].count);
      g_assert_cmpstr (file->types[t].name, ==, ref->types[t].name);
    }
  g_assert_true (memcmp (file->times, ref->times, 8 * ref->n_events) == 0);
  g_assert_true (memcmp (file->recs, ref->recs, 4 * ref->n_events) == 0);
  wa = cpel_file_get_warnings (file);
  wb = cpel_file_get_warnings (ref);
  g_assert_cmpuint (g_strv_length ((char **) wa), ==, g_strv_length ((char **) wb));
  for (guint i = 0; wb[i]; i++)
    g_assert_cmpstr (wa[i], ==, wb[i]);
  /* the overview and the summaries stored with a cache: as built */
  if (file->cache_overview != NULL)
    {
      g_autofree guint64 *ov = g_new0 (guint64, CPEL_INDEX_CACHE_OVERVIEW_BUCKETS);
      guint64 span = (guint64) ref->duration + 1;

      /* bucket b: [ceil(span·b/B), ceil(span·(b+1)/B)) — counted naively */
      for (guint64 i = 0; i < ref->n_events; i++)
        {
          guint b = (guint) ((unsigned __int128) (guint64) ref->times[i] * CPEL_INDEX_CACHE_OVERVIEW_BUCKETS / span);

          while (b + 1 < CPEL_INDEX_CACHE_OVERVIEW_BUCKETS
                 && (guint64) ref->times[i] >= (guint64) (((unsigned __int128) span * (b + 1) + CPEL_INDEX_CACHE_OVERVIEW_BUCKETS - 1) / CPEL_INDEX_CACHE_OVERVIEW_BUCKETS))
            b++;
          while (b > 0 && (guint64) ref->times[i] < (guint64) (((unsigned __int128) span * b + CPEL_INDEX_CACHE_OVERVIEW_BUCKETS - 1) / CPEL_INDEX_CACHE_OVERVIEW_BUCKETS))
            b--;
          ov[b]++;
        }
      g_assert_true (cpel_file_get_stored_overview (file, CPEL_INDEX_CACHE_OVERVIEW_BUCKETS) == file->cache_overview);
      g_assert_null (cpel_file_get_stored_overview (file, 100));
      g_assert_true (memcmp (ov, file->cache_overview, sizeof (guint64) * CPEL_INDEX_CACHE_OVERVIEW_BUCKETS) == 0);
    }
  if (file->cache_lod != NULL)
    for (guint s = 0; s < ref->n_tracks; s++)
      {
        CpelLodStored l;

        cpel_lod_export_stored (ref, s, &l);
        g_assert_cmpint (file->cache_lod[s].origin, ==, l.origin);
        g_assert_cmpuint (file->cache_lod[s].span, ==, l.span);
        g_assert_cmpuint (file->cache_lod[s].shift, ==, l.shift);
        g_assert_cmpuint (file->cache_lod[s].n_buckets, ==, l.n_buckets);
        g_assert_true (memcmp (file->cache_lod[s].cum, l.cum, 4 * (l.n_buckets + 1)) == 0);
        /* and the file's summaries are these */
        g_assert_cmpuint (cpel_lod_lower_bound (cpel_lod_get_for_file (file), s, ref->duration / 2), ==,
                          cpel_lod_lower_bound (cpel_lod_get_for_file (ref), s, ref->duration / 2));
      }
  /* and through the public API, event by event */
  for (guint s = 0; s < ref->n_tracks; s++)
    for (guint64 i = 0; i < ref->tracks[s].count; i += 1 + i / 8)
      {
        CpelEvent a, b;

        cpel_file_get_track_event (file, s, i, &a);
        cpel_file_get_track_event (ref, s, i, &b);
        g_assert_true (memcmp (&a, &b, sizeof a) == 0);
      }
}

static CpelFile *
open_reference (const char *path)
{
  return open_with (path, NULL, 0, FALSE);
}

static char *
cache_path_of (Fixture  *f,
               CpelFile *file)
{
  CpelIndexCacheKey key;

  g_assert_true (cpel_index_cache_compute_key (file, 0, &key));
  return cpel_index_cache_path_for (f->cache_dir, &key);
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
write_bytes (const char   *path,
             const guint8 *data,
             gsize         len)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, &error));
  g_assert_no_error (error);
}

/* A cache file for f->path; returns its path and content. */
static char *
make_cache (Fixture  *f,
            GBytes  **content)
{
  g_autoptr(CpelFile) file = open_cached (f);
  char *path = cache_path_of (f, file);

  g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  if (content)
    *content = read_bytes (path);
  return path;
}

/* Opens f->path with the cache: expects `load`, the reference index, and
 * (when the cache was not used) a fresh cache written. */
static void
expect_open (Fixture            *f,
             CpelIndexCacheLoad  load)
{
  g_autoptr(CpelFile) ref = open_reference (f->path);
  g_autoptr(CpelFile) file = open_cached (f);

  g_assert_cmpint (cpel_file_get_cache_load (file), ==, load);
  assert_same_index (file, ref);
  if (load == CPEL_INDEX_CACHE_USED)
    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_NOT_WRITTEN);
  else
    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
}

static void
test_roundtrip (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(CpelFile) ref = open_reference (f->path);
  g_autofree char *cpath = NULL;
  guint n_files = 0;
  guint64 bytes = 0;

  /* first open writes, the second uses it, the third still does */
  expect_open (f, CPEL_INDEX_CACHE_MISSING);
  expect_open (f, CPEL_INDEX_CACHE_USED);
  expect_open (f, CPEL_INDEX_CACHE_USED);
  g_assert_true (cpel_index_cache_get_usage (f->cache_dir, &n_files, &bytes, NULL));
  g_assert_cmpuint (n_files, ==, 1);
  /* header, meta, summary (overview, 12 summaries), block table, aligned,
   * then 12 bytes per event */
  cpath = cache_path_of (f, ref);
  {
    g_autoptr(GBytes) content = read_bytes (cpath);
    const CpelIndexCacheHeader *h = g_bytes_get_data (content, NULL);
    guint64 cums = 0;

    for (guint s = 0; s < ref->n_tracks; s++)
      {
        CpelLodStored l;

        cpel_lod_export_stored (ref, s, &l);
        cums += 4 * (l.n_buckets + 1);
      }
    g_assert_cmpuint (h->meta_size, ==, 32 + 24 * 12 + 16 * ref->n_types);
    g_assert_cmpuint (h->summary_size, ==, (8 * 4096 + 32 * 12 + cums + 7) / 8 * 8);
    g_assert_cmpuint (h->n_blocks, ==, 1);
    g_assert_cmpuint (bytes, ==, 4096 * ((sizeof (CpelIndexCacheHeader) + h->meta_size + h->summary_size
                                          + 16 + 4095) / 4096) + 12 * 20000);
    /* the summary is about a quarter byte per event (here mostly the overview) */
    g_assert_cmpuint (cums, <=, 4 * (20000 / CPEL_LOD_EVENTS_PER_BUCKET + 2 * 12));
  }
  g_assert_true (g_str_has_prefix (cpath, f->cache_dir));

  /* no cache asked for: none read, none written */
  {
    g_autoptr(CpelFile) plain = open_reference (f->path);

    g_assert_cmpint (cpel_file_get_cache_load (plain), ==, CPEL_INDEX_CACHE_OFF);
    g_assert_cmpint (cpel_file_get_cache_write (plain), ==, CPEL_INDEX_CACHE_NOT_WRITTEN);
  }
  /* another clock: another cache */
  {
    CpelLoadOptions options = { .use_cache = TRUE, .cache_dir = f->cache_dir,
                                .cache_min_events = 1, .ticks_per_second = 3000000000u };
    g_autoptr(CpelFile) a = cpel_file_new_for_path (f->path, &options, NULL, NULL, NULL, NULL);
    g_autoptr(CpelFile) b = cpel_file_new_for_path (f->path, &options, NULL, NULL, NULL, NULL);
    CpelLoadOptions ref_options = { .ticks_per_second = 3000000000u };
    g_autoptr(CpelFile) r = cpel_file_new_for_path (f->path, &ref_options, NULL, NULL, NULL, NULL);

    g_assert_cmpint (cpel_file_get_cache_load (a), ==, CPEL_INDEX_CACHE_MISSING);
    g_assert_cmpint (cpel_file_get_cache_load (b), ==, CPEL_INDEX_CACHE_USED);
    assert_same_index (b, r);
    g_assert_cmpint (b->duration, !=, ref->duration);
  }
}

/* Below the minimum (the default: 2^20 events) nothing is cached. */
static void
test_small (Fixture       *f,
            gconstpointer  data)
{
  CpelLoadOptions options = { .use_cache = TRUE, .cache_dir = f->cache_dir };
  g_autoptr(CpelFile) file = cpel_file_new_for_path (f->path, &options, NULL, NULL, NULL, NULL);
  guint n_files = 1;

  g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_OFF);
  g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_NOT_WRITTEN);
  g_assert_true (cpel_index_cache_get_usage (f->cache_dir, &n_files, NULL, NULL));
  g_assert_cmpuint (n_files, ==, 0);
}

/* A deferred index (the streaming CLI): a time-ordered file never needs
 * one; another builds it on demand and then writes / uses the cache. */
static void
test_deferred (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(CpelFile) ref = open_reference (f->path);

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(CpelFile) file = open_with (f->path, f->cache_dir, 0, TRUE);

      g_assert_false (cpel_file_is_time_ordered (file));
      g_assert_false (cpel_file_has_index (file));
      g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_OFF);
      g_assert_true (cpel_file_ensure_index (file, NULL, NULL));
      g_assert_cmpint (cpel_file_get_cache_load (file), ==,
                       round == 0 ? CPEL_INDEX_CACHE_MISSING : CPEL_INDEX_CACHE_USED);
      /* the file never writes the cache by itself: its user stores it */
      g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_NOT_WRITTEN);
      g_assert_true (cpel_file_index_store_is_pending (file) == (round == 0));
      g_assert_true (cpel_file_store_index (file, NULL) == (round == 0));
      g_assert_cmpint (cpel_file_get_cache_write (file), ==,
                       round == 0 ? CPEL_INDEX_CACHE_WRITTEN : CPEL_INDEX_CACHE_NOT_WRITTEN);
      assert_same_index (file, ref);
    }
  /* a cache from a full load serves a deferred one and the other way round */
  {
    g_autoptr(CpelFile) full = open_cached (f);

    g_assert_cmpint (cpel_file_get_cache_load (full), ==, CPEL_INDEX_CACHE_USED);
    assert_same_index (full, ref);
  }
  {
    g_autofree char *sorted = g_build_filename (f->dir, "sorted.cpel", NULL);
    g_autoptr(CpelFile) file = NULL;

    gen (sorted, 5000, 4, 3, TRUE);
    file = open_with (sorted, f->cache_dir, 0, TRUE);
    g_assert_true (cpel_file_is_time_ordered (file));
    g_assert_false (cpel_file_has_index (file));
  }
}

static void
set_mtime (const char            *path,
           const struct timespec *ts)
{
  struct timespec times[2] = { ts[0], ts[1] };

  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
}

/* The file changed in place: same size and mtime, other bytes in a sampled
 * block; only the mtime; replaced by another file (another inode). */
static void
test_stale (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *cpath = NULL;
  struct stat st;
  struct timespec ts[2];
  guint64 off;
  gsize len;
  int fd;
  guint8 byte;

  /* big enough that only sampled blocks are hashed */
  gen (f->path, 100000, 12, 9, FALSE);
  g_assert_cmpint (stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 4 * 65536);
  cpath = make_cache (f, NULL);
  expect_open (f, CPEL_INDEX_CACHE_USED);

  /* a track id's low byte in the middle sampled block: an event moves to
   * another track, the size and the mtime stay */
  cpel_index_cache_sample_block ((guint64) st.st_size, CPEL_INDEX_CACHE_N_BLOCKS / 2, &off, &len);
  g_assert_cmpuint (off, >, 65536);
  ts[0] = st.st_atim;
  ts[1] = st.st_mtim;
  fd = g_open (f->path, O_RDWR, 0);
  g_assert_cmpint (fd, >=, 0);
  /* the block's bytes all belong to event records (past the first 64 KiB) */
  g_assert_cmpint (pread (fd, &byte, 1, (off_t) off + 100), ==, 1);
  byte ^= 0x01;
  g_assert_cmpint (pwrite (fd, &byte, 1, (off_t) off + 100), ==, 1);
  g_close (fd, NULL);
  set_mtime (f->path, ts);
  g_assert_cmpint (stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_mtim.tv_nsec, ==, ts[1].tv_nsec);
  expect_open (f, CPEL_INDEX_CACHE_STALE);
  expect_open (f, CPEL_INDEX_CACHE_USED);

  /* only the mtime */
  ts[1].tv_sec -= 10;
  set_mtime (f->path, ts);
  expect_open (f, CPEL_INDEX_CACHE_STALE);
  expect_open (f, CPEL_INDEX_CACHE_USED);

  /* replaced (rename over it): another inode, another cache file */
  gen (f->path, 100000, 12, 10, FALSE);
  expect_open (f, CPEL_INDEX_CACHE_MISSING);
  expect_open (f, CPEL_INDEX_CACHE_USED);
}

static void
test_truncated (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GBytes) content = NULL;
  g_autofree char *cpath = make_cache (f, &content);
  gsize len = g_bytes_get_size (content);
  const guint8 *bytes = g_bytes_get_data (content, NULL);
  const gsize cuts[] = { 0, 5, 8, 100, sizeof (CpelIndexCacheHeader) - 1,
                         sizeof (CpelIndexCacheHeader), 4096, len / 2, len - 4, len - 1 };

  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      g_autoptr(CpelFile) ref = open_reference (f->path);
      g_autoptr(CpelFile) file = NULL;
      int load;

      write_bytes (cpath, bytes, cuts[i]);
      file = open_cached (f);
      load = cpel_file_get_cache_load (file);
      g_test_message ("cut at %" G_GSIZE_FORMAT ": %d", cuts[i], load);
      g_assert_true (load == (cuts[i] >= 8 ? CPEL_INDEX_CACHE_TRUNCATED : CPEL_INDEX_CACHE_DAMAGED));
      assert_same_index (file, ref);
      g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
    }
  /* longer than it says */
  {
    g_autofree guint8 *longer = g_malloc0 (len + 1);

    memcpy (longer, bytes, len);
    write_bytes (cpath, longer, len + 1);
    expect_open (f, CPEL_INDEX_CACHE_DAMAGED);
    expect_open (f, CPEL_INDEX_CACHE_USED);
  }
}

/* A flipped bit anywhere (every byte of the header and the meta, some of
 * the rest): detected, except in the zero padding before the
 * times (not read at all); either way the right index. */
static GBytes *cache_for_bytes (GBytes *capture, CpelFile **loaded);

static void
test_bitflip (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GBytes) content = NULL;
  g_autofree char *cpath = make_cache (f, &content);
  g_autoptr(CpelFile) ref = NULL;
  g_autoptr(GBytes) capture = read_bytes (f->path);
  g_autoptr(GBytes) mem = cache_for_bytes (capture, &ref);
  gsize len = g_bytes_get_size (mem);
  g_autofree guint8 *buf = g_memdup2 (g_bytes_get_data (mem, NULL), len);
  const CpelIndexCacheHeader *h = (const CpelIndexCacheHeader *) buf;
  guint64 pad_from = h->blocks_offset + 16 * h->n_blocks, pad_to = h->times_offset;
  guint64 ov_from = h->summary_offset, ov_to = h->summary_offset + 8 * CPEL_INDEX_CACHE_OVERVIEW_BUCKETS;
  GRand *rand = g_rand_new_with_seed (17);
  guint n_used = 0, n = 0;

  guint64 cum_from = ov_to + 32 * h->n_tracks, cum_to = h->blocks_offset;

  /* every byte of header, meta, the summaries' shapes and the block table;
   * one in ~60 of the overview, one in ~20 of the cumulative counts and one
   * in ~100 of the rest */
  for (guint64 pos = 0; pos < len;
       pos += (pos >= ov_from && pos < ov_to) ? 1 + g_rand_int_range (rand, 0, 120)
              : (pos >= cum_from && pos < cum_to) ? 1 + g_rand_int_range (rand, 0, 40)
              : pos < pad_from ? 1 : 1 + g_rand_int_range (rand, 0, 200))
    {
      guint bit = g_rand_int_range (rand, 0, 8);
      g_autoptr(CpelFile) file = NULL;
      g_autoptr(GBytes) cache = NULL;
      CpelIndexCacheLoad load = CPEL_INDEX_CACHE_OFF;
      g_autoptr(GError) error = NULL;

      buf[pos] ^= (guint8) (1u << bit);
      cache = g_bytes_new (buf, len);
      buf[pos] ^= (guint8) (1u << bit);
      /* in memory: the same checks as a mapped cache file, faster */
      file = cpel_file_new_for_bytes_with_cache (capture, cache, TRUE, &load, &error);
      g_assert_no_error (error);
      n++;
      assert_same_index (file, ref);
      if (pos >= pad_from && pos < pad_to)
        continue;   /* not read: used, and right */
      if (load == CPEL_INDEX_CACHE_USED)
        n_used++;
    }
  g_assert_cmpuint (n, >, pad_from - (ov_to - ov_from) - (cum_to - cum_from) + 500);
  g_assert_cmpuint (n_used, ==, 0);
  g_rand_free (rand);

  /* and through the file: one flip in the times */
  g_clear_pointer (&buf, g_free);
  len = g_bytes_get_size (content);
  buf = g_memdup2 (g_bytes_get_data (content, NULL), len);
  h = (const CpelIndexCacheHeader *) buf;
  buf[h->times_offset + 8 * 1000 + 3] ^= 0x10;
  write_bytes (cpath, buf, len);
  expect_open (f, CPEL_INDEX_CACHE_DAMAGED);
  expect_open (f, CPEL_INDEX_CACHE_USED);
}

/* The key of a capture loaded from bytes, for caches made in memory. */
static GBytes *
cache_for_bytes (GBytes    *capture,
                 CpelFile **loaded)
{
  g_autoptr(CpelFile) file = cpel_file_new_for_bytes (capture, NULL, NULL);
  CpelIndexCacheKey key;

  g_assert_nonnull (file);
  g_assert_true (cpel_index_cache_compute_key (file, 0, &key));
  if (loaded)
    *loaded = g_object_ref (file);
  return cpel_index_cache_serialize (file, &key);
}

typedef void (*Mutate) (guint8 *buf, CpelIndexCacheHeader *h);

static void mut_version (guint8 *b, CpelIndexCacheHeader *h) { h->version++; }
static void mut_order (guint8 *b, CpelIndexCacheHeader *h) { h->byte_order = GUINT64_SWAP_LE_BE (h->byte_order); }
static void mut_rec_range (guint8 *b, CpelIndexCacheHeader *h)
{ guint32 v = (guint32) h->n_events; memcpy (b + h->recs_offset + 4 * 5, &v, 4); }
static void mut_rec_huge (guint8 *b, CpelIndexCacheHeader *h)
{ guint32 v = G_MAXUINT32; memcpy (b + h->recs_offset, &v, 4); }
static void mut_time_order (guint8 *b, CpelIndexCacheHeader *h)
{ gint64 t; memcpy (&t, b + h->times_offset + 8 * 3, 8); t += 1000000000; memcpy (b + h->times_offset + 8 * 2, &t, 8); }
static void mut_time_negative (guint8 *b, CpelIndexCacheHeader *h)
{ gint64 t = -1; memcpy (b + h->times_offset, &t, 8); }
static void mut_time_past_end (guint8 *b, CpelIndexCacheHeader *h)
{ gint64 t = h->duration + 1; memcpy (b + h->recs_offset - 8, &t, 8); }
static void mut_duration (guint8 *b, CpelIndexCacheHeader *h) { h->duration += 1; }
static void mut_duration_max (guint8 *b, CpelIndexCacheHeader *h) { h->duration = G_MAXINT64; }
static void mut_n_tracks (guint8 *b, CpelIndexCacheHeader *h) { h->n_tracks = G_MAXUINT64 / 24; }
static void mut_n_tracks_more (guint8 *b, CpelIndexCacheHeader *h) { h->n_tracks++; }
static void mut_n_types_more (guint8 *b, CpelIndexCacheHeader *h) { h->n_types += 1u << 20; }
static void mut_times_offset (guint8 *b, CpelIndexCacheHeader *h) { h->times_offset = G_MAXUINT64 - 7; }
static void mut_file_size (guint8 *b, CpelIndexCacheHeader *h) { h->file_size = 0; }
static void mut_track_count (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *m = (guint64 *) (b + h->meta_offset + 32 * h->n_evsecs); m[2] += 1; m[5] -= 1; }
static void mut_track_count_big (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *m = (guint64 *) (b + h->meta_offset + 32 * h->n_evsecs); m[2] = G_MAXUINT64; }
static void mut_track_order (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *m = (guint64 *) (b + h->meta_offset + 32 * h->n_evsecs); guint64 t = m[0]; m[0] = m[3]; m[3] = t; }
static void mut_track_id (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *m = (guint64 *) (b + h->meta_offset + 32 * h->n_evsecs); m[3 * (h->n_tracks - 1)] = 1ull << 40; }
static void mut_type_sum (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *m = (guint64 *) (b + h->meta_offset + 32 * h->n_evsecs + 24 * h->n_tracks); m[1] += 1; }
static void mut_sorted_flag (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *m = (guint64 *) (b + h->meta_offset); m[3] = 2; }
static void mut_sorted_lie (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *m = (guint64 *) (b + h->meta_offset); m[3] = !m[3]; }
static void mut_section_count (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *m = (guint64 *) (b + h->meta_offset); m[1] += 1; }
static void mut_flags (guint8 *b, CpelIndexCacheHeader *h) { h->flags |= 1u << 7; }
static void mut_tie_order (guint8 *b, CpelIndexCacheHeader *h)
{ guint32 r[2]; memcpy (r, b + h->recs_offset, 8); guint32 t = r[0]; r[0] = r[1]; r[1] = t;
  gint64 tt; memcpy (&tt, b + h->times_offset, 8); memcpy (b + h->times_offset + 8, &tt, 8);
  memcpy (b + h->recs_offset, r, 8); }

/* the forgery once found accepted: one record index replaced by its
 * neighbour's in the same track (where the times differ, so that the order
 * holds) — a record twice, another never, an entry whose time is not its
 * record's */
static void
mut_rec_neighbour (guint8 *b, CpelIndexCacheHeader *h)
{
  guint64 *m = (guint64 *) (b + h->meta_offset + 32 * h->n_evsecs);
  guint64 k = m[1];
  gint64 t[2];

  memcpy (t, b + h->times_offset + 8 * k, 16);
  while (t[0] == t[1])
    {
      k++;
      memcpy (t, b + h->times_offset + 8 * k, 16);
    }
  g_assert_cmpuint (k + 1, <, m[1] + m[2]);
  memcpy (b + h->recs_offset + 4 * k, b + h->recs_offset + 4 * (k + 1), 4);
}

/* the first entries of tracks 0 and 1 trade records and times: every
 * record once, each time its record's, in the other track's place */
static void
mut_rec_track (guint8 *b, CpelIndexCacheHeader *h)
{
  guint64 *m = (guint64 *) (b + h->meta_offset + 32 * h->n_evsecs);
  guint64 a = m[1], c = m[4];
  guint32 ra, rc;
  gint64 ta, tc;

  memcpy (&ra, b + h->recs_offset + 4 * a, 4);
  memcpy (&rc, b + h->recs_offset + 4 * c, 4);
  memcpy (&ta, b + h->times_offset + 8 * a, 8);
  memcpy (&tc, b + h->times_offset + 8 * c, 8);
  memcpy (b + h->recs_offset + 4 * a, &rc, 4);
  memcpy (b + h->recs_offset + 4 * c, &ra, 4);
  memcpy (b + h->times_offset + 8 * a, &tc, 8);
  memcpy (b + h->times_offset + 8 * c, &ta, 8);
}

/* the stored summary: overview counts, per-track shapes, track 0's cumulative counts */
static guint64 *ov_of (guint8 *b, CpelIndexCacheHeader *h) { return (guint64 *) (b + h->summary_offset); }
static guint64 *lodh_of (guint8 *b, CpelIndexCacheHeader *h) { return ov_of (b, h) + CPEL_INDEX_CACHE_OVERVIEW_BUCKETS; }
static guint32 *cum_of (guint8 *b, CpelIndexCacheHeader *h) { return (guint32 *) (lodh_of (b, h) + 4 * h->n_tracks); }
static void mut_ov_move (guint8 *b, CpelIndexCacheHeader *h)
{ guint64 *o = ov_of (b, h); guint a = 0; while (o[a] == 0) a++; o[a]--; o[(a + 7) % CPEL_INDEX_CACHE_OVERVIEW_BUCKETS]++; }
static void mut_ov_sum (guint8 *b, CpelIndexCacheHeader *h) { ov_of (b, h)[0] += 1; }
static void mut_lod_cum (guint8 *b, CpelIndexCacheHeader *h)
{ guint32 *c = cum_of (b, h); g_assert_true (c[1] < c[2] || c[1] > 0); if (c[1] < c[2]) c[1]++; else c[1]--; }
static void mut_lod_cum_down (guint8 *b, CpelIndexCacheHeader *h) { guint32 *c = cum_of (b, h); c[1] = c[2] + 1; }
static void mut_lod_shift (guint8 *b, CpelIndexCacheHeader *h) { lodh_of (b, h)[2] += 1; }
static void mut_lod_origin (guint8 *b, CpelIndexCacheHeader *h) { lodh_of (b, h)[0] += 1; lodh_of (b, h)[1] -= 1; }
static void mut_summary_size (guint8 *b, CpelIndexCacheHeader *h) { h->summary_size += 8; }
static void mut_n_blocks (guint8 *b, CpelIndexCacheHeader *h) { h->n_blocks += 1; }

/* Reads every event and some summaries of a file whose index is not
 * checked yet: whatever the cache holds, no read outside the file. */
static void
touch_everything (CpelFile *file)
{
  CpelLod *lod = cpel_lod_get_for_file (file);
  gint64 bounds[5];
  double out[5];

  for (guint k = 0; k < 5; k++)
    bounds[k] = file->duration / 4 * k;
  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    {
      guint64 n;

      cpel_file_get_track_times (file, s, &n);
      for (guint64 i = 0; i < n; i++)
        {
          CpelEvent e;

          cpel_file_get_track_event (file, s, i, &e);
          cpel_file_get_track_event_code (file, s, i);
        }
      cpel_lod_locate (lod, s, bounds, 5, 0.0, out);
      cpel_lod_lower_bound (lod, s, file->duration / 3);
    }
}

/* Hostile caches: valid checksums (resealed), wrong contents — each must
 * be rejected for the right reason before anything is used; with the
 * check of times and recs deferred (cache_verify_later), either rejected
 * as well or used and then caught by cpel_file_verify_index (). */
static void
test_hostile (void)
{
  static const struct { const char *name; Mutate mutate; CpelIndexCacheLoad expect; } cases[] = {
    { "version", mut_version, CPEL_INDEX_CACHE_OTHER_VERSION },
    { "byte-order", mut_order, CPEL_INDEX_CACHE_OTHER_VERSION },
    { "rec-range", mut_rec_range, CPEL_INDEX_CACHE_DAMAGED },
    { "rec-huge", mut_rec_huge, CPEL_INDEX_CACHE_DAMAGED },
    { "time-order", mut_time_order, CPEL_INDEX_CACHE_DAMAGED },
    { "time-negative", mut_time_negative, CPEL_INDEX_CACHE_DAMAGED },
    { "time-past-end", mut_time_past_end, CPEL_INDEX_CACHE_DAMAGED },
    { "duration", mut_duration, CPEL_INDEX_CACHE_DAMAGED },
    { "duration-max", mut_duration_max, CPEL_INDEX_CACHE_DAMAGED },
    { "n-tracks", mut_n_tracks, CPEL_INDEX_CACHE_DAMAGED },
    { "n-tracks-more", mut_n_tracks_more, CPEL_INDEX_CACHE_DAMAGED },
    { "n-types-more", mut_n_types_more, CPEL_INDEX_CACHE_DAMAGED },
    { "times-offset", mut_times_offset, CPEL_INDEX_CACHE_DAMAGED },
    { "file-size", mut_file_size, CPEL_INDEX_CACHE_DAMAGED },
    { "track-count", mut_track_count, CPEL_INDEX_CACHE_DAMAGED },
    { "track-count-big", mut_track_count_big, CPEL_INDEX_CACHE_DAMAGED },
    { "track-order", mut_track_order, CPEL_INDEX_CACHE_DAMAGED },
    { "track-id", mut_track_id, CPEL_INDEX_CACHE_DAMAGED },
    { "type-sum", mut_type_sum, CPEL_INDEX_CACHE_DAMAGED },
    { "sorted-flag", mut_sorted_flag, CPEL_INDEX_CACHE_DAMAGED },
    /* only detectable with one event section (the flags must agree with
     * the time-ordered flag); a lie about one of several sections is not
     * (see cpel-index-cache.c), and is harmless with the index there */
    { "sorted-lie", mut_sorted_lie, CPEL_INDEX_CACHE_DAMAGED },
    { "section-count", mut_section_count, CPEL_INDEX_CACHE_STALE },
    { "flags", mut_flags, CPEL_INDEX_CACHE_DAMAGED },
    { "tie-order", mut_tie_order, CPEL_INDEX_CACHE_DAMAGED },
    { "overview-move", mut_ov_move, CPEL_INDEX_CACHE_DAMAGED },
    { "overview-sum", mut_ov_sum, CPEL_INDEX_CACHE_DAMAGED },
    { "lod-cum", mut_lod_cum, CPEL_INDEX_CACHE_DAMAGED },
    { "lod-cum-down", mut_lod_cum_down, CPEL_INDEX_CACHE_DAMAGED },
    { "lod-shift", mut_lod_shift, CPEL_INDEX_CACHE_DAMAGED },
    { "lod-origin", mut_lod_origin, CPEL_INDEX_CACHE_DAMAGED },
    { "summary-size", mut_summary_size, CPEL_INDEX_CACHE_DAMAGED },
    { "n-blocks", mut_n_blocks, CPEL_INDEX_CACHE_DAMAGED },
    { "rec-neighbour", mut_rec_neighbour, CPEL_INDEX_CACHE_DAMAGED },
    { "rec-track", mut_rec_track, CPEL_INDEX_CACHE_DAMAGED },
  };
  guint n_later = 0;
  g_autofree char *dir = g_dir_make_tmp ("cpel-index-cache-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "c.cpel", NULL);
  g_autoptr(GBytes) capture = NULL;
  g_autoptr(GBytes) good = NULL;
  g_autoptr(CpelFile) ref = NULL;

  gen (path, 3000, 5, 4, FALSE);
  capture = read_bytes (path);
  g_unlink (path);
  g_rmdir (dir);
  good = cache_for_bytes (capture, &ref);

  /* unchanged (resealed): used */
  {
    g_autofree guint8 *buf = g_memdup2 (g_bytes_get_data (good, NULL), g_bytes_get_size (good));
    g_autoptr(GBytes) cache = NULL;
    g_autoptr(CpelFile) file = NULL;
    CpelIndexCacheLoad load = CPEL_INDEX_CACHE_OFF;

    g_assert_true (cpel_index_cache_reseal (buf, g_bytes_get_size (good)));
    cache = g_bytes_new (buf, g_bytes_get_size (good));
    file = cpel_file_new_for_bytes_with_cache (capture, cache, TRUE, &load, NULL);
    g_assert_cmpint (load, ==, CPEL_INDEX_CACHE_USED);
    assert_same_index (file, ref);
    g_assert_false (cpel_file_index_is_unverified (file));
    g_clear_object (&file);
    file = cpel_file_new_for_bytes_with_cache_full (capture, cache, TRUE, TRUE, &load, NULL);
    g_assert_cmpint (load, ==, CPEL_INDEX_CACHE_USED);
    g_assert_true (cpel_file_index_is_unverified (file));
    assert_same_index (file, ref);
    g_assert_true (cpel_file_verify_index (file, NULL));
    g_assert_false (cpel_file_index_is_unverified (file));
    g_assert_false (cpel_file_is_damaged (file));
  }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len = g_bytes_get_size (good);
      g_autofree guint8 *buf = g_memdup2 (g_bytes_get_data (good, NULL), len);
      CpelIndexCacheHeader h;
      g_autoptr(GBytes) cache = NULL;
      g_autoptr(CpelFile) file = NULL;
      CpelIndexCacheLoad load = CPEL_INDEX_CACHE_OFF;

      memcpy (&h, buf, sizeof h);
      if (cases[i].mutate == mut_sorted_lie && h.n_evsecs != 1)
        continue;
      cases[i].mutate (buf, &h);
      memcpy (buf, &h, sizeof h);
      cpel_index_cache_reseal (buf, len);
      cache = g_bytes_new (buf, len);
      file = cpel_file_new_for_bytes_with_cache (capture, cache, TRUE, &load, NULL);
      g_test_message ("%s: %d", cases[i].name, load);
      g_assert_cmpint (load, ==, cases[i].expect);
      assert_same_index (file, ref);

      /* deferred */
      {
        g_autoptr(CpelFile) later = NULL;

        later = cpel_file_new_for_bytes_with_cache_full (capture, cache, TRUE, TRUE, &load, NULL);
        g_assert_nonnull (later);
        g_test_message ("%s, verify later: %d", cases[i].name, load);
        if (load == CPEL_INDEX_CACHE_USED)
          {
            g_assert_cmpint (cases[i].expect, ==, CPEL_INDEX_CACHE_DAMAGED);
            g_assert_true (cpel_file_index_is_unverified (later));
            g_assert_false (cpel_file_is_damaged (later));
            touch_everything (later);
            g_assert_false (cpel_file_verify_index (later, NULL));
            g_assert_true (cpel_file_is_damaged (later));
            g_assert_true (cpel_file_index_cache_is_damaged (later));
            g_assert_false (cpel_file_index_is_unverified (later));
            g_assert_false (cpel_file_verify_index (later, NULL));
            n_later++;
          }
        else
          {
            g_assert_cmpint (load, ==, cases[i].expect);
            assert_same_index (later, ref);
          }
      }
    }
  /* the times, recs, summaries and overview checked after the first frame:
   * rec-range, rec-huge, time-order, -negative, -past-end, duration (no
   * time reaches it), tie-order, overview-move, lod-cum, lod-origin; each
   * entry against its record: rec-neighbour, rec-track */
  g_assert_cmpuint (n_later, ==, 12);
}

/* The deferred check of a cache file: intact, it passes (not when
 * cancelled); damaged, it marks the file damaged and removes the cache
 * file, so that a reload builds the index again. */
static CpelFile *
open_later (Fixture *f)
{
  CpelLoadOptions options = { .use_cache = TRUE, .cache_dir = f->cache_dir, .cache_min_events = 1,
                              .cache_verify_later = TRUE };
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (f->path, &options, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

static void
flip_and_verify_later (Fixture    *f,
                       const char *cpath,
                       GBytes     *content,
                       guint64     pos)
{
  gsize len = g_bytes_get_size (content);
  g_autofree guint8 *buf = g_memdup2 (g_bytes_get_data (content, NULL), len);
  g_autoptr(CpelFile) ref = open_reference (f->path);

  buf[pos] ^= 0x04;
  write_bytes (cpath, buf, len);
  {
    g_autoptr(CpelFile) file = open_later (f);

    g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
    g_autoptr(CpelSpans) spans = NULL;

    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
    g_assert_true (cpel_file_index_is_unverified (file));
    g_assert_false (cpel_file_is_damaged (file));
    /* spans derived from the unchecked index are stored... */
    spans = cpel_spans_derive (file, rules, NULL, NULL, NULL);
    g_assert_nonnull (spans);
    cpel_spans_wait_stored ();
    g_assert_cmpuint (cpel_test_count_suffix (f->cache_dir, CPEL_SPAN_CACHE_SUFFIX), ==, 1);
    g_assert_false (cpel_file_verify_index (file, NULL));
    g_assert_true (cpel_file_is_damaged (file));
    g_assert_true (cpel_file_index_cache_is_damaged (file));
    g_assert_false (g_file_test (cpath, G_FILE_TEST_EXISTS));
    /* ...and go with the index found damaged; none stored after it */
    g_assert_cmpuint (cpel_test_count_suffix (f->cache_dir, CPEL_SPAN_CACHE_SUFFIX), ==, 0);
    g_clear_pointer (&spans, cpel_spans_free);
    spans = cpel_spans_derive (file, rules, NULL, NULL, NULL);
    cpel_spans_wait_stored ();
    g_assert_cmpuint (cpel_test_count_suffix (f->cache_dir, CPEL_SPAN_CACHE_SUFFIX), ==, 0);
  }
  /* eagerly: rejected */
  write_bytes (cpath, buf, len);
  expect_open (f, CPEL_INDEX_CACHE_DAMAGED);
  /* rebuilt: right */
  {
    g_autoptr(CpelFile) file = open_later (f);

    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
    g_assert_true (cpel_file_verify_index (file, NULL));
    assert_same_index (file, ref);
  }
}

static void
test_verify_later (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GBytes) content = NULL;
  g_autofree char *cpath = make_cache (f, &content);
  g_autoptr(CpelFile) ref = open_reference (f->path);
  const CpelIndexCacheHeader *h = g_bytes_get_data (content, NULL);

  {
    g_autoptr(CpelFile) file = open_later (f);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();

    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
    g_assert_true (cpel_file_index_is_unverified (file));
    assert_same_index (file, ref);
    g_cancellable_cancel (cancellable);
    g_assert_false (cpel_file_verify_index (file, cancellable));
    g_assert_true (cpel_file_index_is_unverified (file));
    g_assert_false (cpel_file_is_damaged (file));
    g_assert_true (cpel_file_verify_index (file, NULL));
    g_assert_false (cpel_file_index_is_unverified (file));
    g_assert_false (cpel_file_is_damaged (file));
    g_assert_true (cpel_file_verify_index (file, NULL));
  }
  /* the last time, the last record index */
  flip_and_verify_later (f, cpath, content, h->recs_offset - 8 + 1);
  flip_and_verify_later (f, cpath, content, h->file_size - 4);

  /* a damaged cache replaced meanwhile by a good one: that one stays */
  {
    gsize len = g_bytes_get_size (content);
    g_autofree guint8 *buf = g_memdup2 (g_bytes_get_data (content, NULL), len);
    g_autofree char *other = g_strconcat (cpath, ".new", NULL);
    g_autoptr(CpelFile) file = NULL;

    buf[h->times_offset + 16] ^= 0x01;
    write_bytes (cpath, buf, len);
    file = open_later (f);
    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
    write_bytes (other, g_bytes_get_data (content, NULL), len);
    g_assert_cmpint (g_rename (other, cpath), ==, 0);
    g_assert_false (cpel_file_verify_index (file, NULL));
    g_assert_true (cpel_file_is_damaged (file));
    g_assert_true (g_file_test (cpath, G_FILE_TEST_EXISTS));
    expect_open (f, CPEL_INDEX_CACHE_USED);
  }
}

/* A capture of several checksum blocks: a flip in the last one is caught,
 * on load and deferred. */
static void
test_late_block (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GBytes) content = NULL;
  g_autofree char *cpath = NULL;
  const CpelIndexCacheHeader *h;
  guint64 n = 3 * CPEL_INDEX_CACHE_BLOCK_ELEMS + 1000;

  gen (f->path, n, 5, 11, FALSE);
  cpath = make_cache (f, &content);
  h = g_bytes_get_data (content, NULL);
  g_assert_cmpuint (h->n_blocks, ==, 4);
  /* in the last block's times (not the very last: inside a track) and recs */
  flip_and_verify_later (f, cpath, content, h->times_offset + 8 * (n - 500) + 2);
  flip_and_verify_later (f, cpath, content, h->recs_offset + 4 * (3 * CPEL_INDEX_CACHE_BLOCK_ELEMS + 17));
}

static void
test_version (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GBytes) content = NULL;
  g_autofree char *cpath = make_cache (f, &content);
  gsize len = g_bytes_get_size (content);
  g_autofree guint8 *buf = g_memdup2 (g_bytes_get_data (content, NULL), len);
  CpelIndexCacheHeader *h = (CpelIndexCacheHeader *) buf;

  h->version = CPEL_INDEX_CACHE_VERSION + 1;
  cpel_index_cache_reseal (buf, len);
  write_bytes (cpath, buf, len);
  expect_open (f, CPEL_INDEX_CACHE_OTHER_VERSION);
  expect_open (f, CPEL_INDEX_CACHE_USED);
  /* version 1 (no summaries, no block table) */
  h->version = 1;
  write_bytes (cpath, buf, len);
  expect_open (f, CPEL_INDEX_CACHE_OTHER_VERSION);
  expect_open (f, CPEL_INDEX_CACHE_USED);
  /* not a cache at all */
  write_bytes (cpath, (const guint8 *) "#!/bin/sh\n", 10);
  expect_open (f, CPEL_INDEX_CACHE_DAMAGED);
  memset (buf, 'x', len);
  write_bytes (cpath, buf, len);
  expect_open (f, CPEL_INDEX_CACHE_DAMAGED);
}

/* Where no cache can be: the right index all the same. */
static void
expect_no_cache (Fixture    *f,
                 const char *cache_dir)
{
  g_autoptr(CpelFile) ref = open_reference (f->path);

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(CpelFile) file = open_with (f->path, cache_dir, 0, FALSE);

      g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_MISSING);
      g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITE_FAILED);
      assert_same_index (file, ref);
    }
}

static void
test_dir_is_file (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *parent = g_build_filename (f->dir, "cache", NULL);

  write_bytes (parent, (const guint8 *) "x", 1);
  expect_no_cache (f, f->cache_dir);
  /* the cache dir itself a file */
  g_unlink (parent);
  g_assert_cmpint (g_mkdir (parent, 0700), ==, 0);
  write_bytes (f->cache_dir, (const guint8 *) "x", 1);
  expect_no_cache (f, f->cache_dir);
  /* the cache file a directory or a FIFO: not read (never blocks), not replaced */
  g_unlink (f->cache_dir);
  {
    g_autoptr(CpelFile) file = open_reference (f->path);
    g_autofree char *cpath = cache_path_of (f, file);

    g_assert_cmpint (g_mkdir_with_parents (cpath, 0700), ==, 0);
    expect_no_cache (f, f->cache_dir);
    g_rmdir (cpath);
    g_assert_cmpint (mkfifo (cpath, 0600), ==, 0);
    {
      g_autoptr(CpelFile) ref = open_reference (f->path);
      g_autoptr(CpelFile) c = open_cached (f);

      g_assert_cmpint (cpel_file_get_cache_load (c), ==, CPEL_INDEX_CACHE_MISSING);
      /* rename replaces the FIFO with a cache file */
      g_assert_cmpint (cpel_file_get_cache_write (c), ==, CPEL_INDEX_CACHE_WRITTEN);
      assert_same_index (c, ref);
    }
  }
}

static void
test_not_writable (Fixture       *f,
                   gconstpointer  data)
{
  /* /proc takes no new dirs, not even from root */
  expect_no_cache (f, "/proc/self/cpel-index-cache");
  if (geteuid () != 0)
    {
      g_autofree char *parent = g_build_filename (f->dir, "cache", NULL);

      g_assert_cmpint (g_mkdir_with_parents (f->cache_dir, 0700), ==, 0);
      g_chmod (f->cache_dir, 0500);
      expect_no_cache (f, f->cache_dir);
      g_chmod (f->cache_dir, 0700);
    }
  else
    g_test_message ("running as root: a 0500 dir is writable; /proc checked instead");
}

static guint
count_entries (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  if (d == NULL)
    return 0;
  while (g_dir_read_name (d) != NULL)
    n++;
  g_dir_close (d);
  return n;
}

/* A write that fails part-way (the file size limit: the same path in the
 * code as a full disk) leaves nothing behind. */
static void
test_full_subprocess (void)
{
  const char *path = g_getenv ("CPEL_TEST_CAPTURE");
  const char *cache_dir = g_getenv ("CPEL_TEST_CACHE_DIR");
  struct rlimit rl = { 8192, 8192 };
  g_autoptr(CpelFile) file = NULL;

  if (!g_test_subprocess ())
    {
      g_test_skip ("run by /core/index-cache/full");
      return;
    }
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &rl), ==, 0);
  file = open_with (path, cache_dir, 0, FALSE);
  g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITE_FAILED);
  g_assert_cmpuint (count_entries (cache_dir), ==, 0);
}

static void
test_full (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(CpelFile) ref = open_reference (f->path);

  g_setenv ("CPEL_TEST_CAPTURE", f->path, TRUE);
  g_setenv ("CPEL_TEST_CACHE_DIR", f->cache_dir, TRUE);
  g_test_trap_subprocess ("/core/index-cache/full/subprocess", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_assert_cmpuint (count_entries (f->cache_dir), ==, 0);
  expect_open (f, CPEL_INDEX_CACHE_MISSING);
}

/* A real small tmpfs, in a mount namespace of its own (root only). */
static void
test_tmpfs_subprocess (void)
{
#ifdef __linux__
  const char *path = g_getenv ("CPEL_TEST_CAPTURE");
  const char *cache_dir = g_getenv ("CPEL_TEST_CACHE_DIR");
  g_autoptr(CpelFile) file = NULL;

  if (!g_test_subprocess ())
    {
      g_test_skip ("run by /core/index-cache/tmpfs");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (cache_dir, 0700), ==, 0);
  if (unshare (CLONE_NEWNS) != 0
      || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
      || mount ("tmpfs", cache_dir, "tmpfs", 0, "size=64k") != 0)
    {
      g_test_message ("no tmpfs: %s", g_strerror (errno));
      return;
    }
  file = open_with (path, cache_dir, 0, FALSE);
  g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITE_FAILED);
  g_assert_cmpuint (count_entries (cache_dir), ==, 0);
  /* outside the mount: the parent sees it */
  write_bytes (g_getenv ("CPEL_TEST_MARKER"), (const guint8 *) "ok", 2);
#endif
}

static void
test_tmpfs (Fixture       *f,
            gconstpointer  data)
{
  g_setenv ("CPEL_TEST_CAPTURE", f->path, TRUE);
  g_autofree char *marker = g_build_filename (f->dir, "tmpfs-ok", NULL);

  g_setenv ("CPEL_TEST_CACHE_DIR", f->cache_dir, TRUE);
  g_setenv ("CPEL_TEST_MARKER", marker, TRUE);
  g_test_trap_subprocess ("/core/index-cache/tmpfs/subprocess", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  if (!g_file_test (marker, G_FILE_TEST_EXISTS))
    g_test_skip ("no mount namespace / tmpfs mount here (needs root)");
}

/* Child mode: open the capture with the cache and check it against the
 * index built without; exit status 0 when equal. */
static int
child_main (const char *path,
            const char *cache_dir)
{
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(CpelFile) ref = open_reference (path);
      g_autoptr(CpelFile) file = open_with (path, cache_dir, 0, FALSE);

      assert_same_index (file, ref);
    }
  return 0;
}

static void
test_two_processes (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  GSubprocess *children[4];
  g_autoptr(GError) error = NULL;
  const char *self_exe = "/proc/self/exe";
  g_autofree char *exe = g_file_read_link (self_exe, NULL);

  gen (f->path, 100000, 16, 5, FALSE);
  g_subprocess_launcher_setenv (launcher, "CPEL_TEST_CHILD_CAPTURE", f->path, TRUE);
  g_subprocess_launcher_setenv (launcher, "CPEL_TEST_CHILD_CACHE_DIR", f->cache_dir, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (children); i++)
    {
      children[i] = g_subprocess_launcher_spawn (launcher, &error, exe, NULL);
      g_assert_no_error (error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (children); i++)
    {
      g_assert_true (g_subprocess_wait_check (children[i], NULL, &error));
      g_assert_no_error (error);
      g_object_unref (children[i]);
    }
  /* one complete cache file, no temporary left */
  g_assert_cmpuint (count_entries (f->cache_dir), ==, 1);
  expect_open (f, CPEL_INDEX_CACHE_USED);
}

/* Threads of one process opening the same file at once. */
static gpointer
open_thread (gpointer data)
{
  Fixture *f = data;
  g_autoptr(CpelFile) file = open_cached (f);

  return g_object_ref (file);
}

static void
test_threads (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(CpelFile) ref = open_reference (f->path);
  GThread *threads[4];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("open", open_thread, f);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr(CpelFile) file = g_thread_join (threads[i]);

      assert_same_index (file, ref);
    }
  g_assert_cmpuint (count_entries (f->cache_dir), ==, 1);
  expect_open (f, CPEL_INDEX_CACHE_USED);
}

/* The capture and its cache file deleted while the cache is in use; the
 * cache dir cleared. */
static void
test_deleted (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(CpelFile) ref = open_reference (f->path);
  g_autofree char *cpath = make_cache (f, NULL);
  g_autoptr(CpelFile) file = open_cached (f);
  guint n = 0;
  CpelMerge *merge;
  CpelEvent ev;
  guint64 count = 0;

  g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
  g_assert_cmpint (g_unlink (cpath), ==, 0);
  g_assert_cmpint (g_unlink (f->path), ==, 0);
  assert_same_index (file, ref);
  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL))
    count++;
  cpel_merge_free (merge);
  g_assert_cmpuint (count, ==, 20000);
  g_assert_false (cpel_file_is_damaged (file));

  /* clear while another cache is open */
  gen (f->path, 20000, 12, 8, FALSE);
  g_clear_object (&file);
  g_clear_object (&ref);
  ref = open_reference (f->path);
  g_clear_pointer (&cpath, g_free);
  cpath = make_cache (f, NULL);
  file = open_cached (f);
  g_assert_true (cpel_index_cache_clear (f->cache_dir, &n, NULL, NULL));
  g_assert_cmpuint (n, ==, 1);
  assert_same_index (file, ref);
}

static void
set_age (const char *path,
         gint64      seconds_ago)
{
  struct timespec ts[2];

  clock_gettime (CLOCK_REALTIME, &ts[0]);
  ts[0].tv_sec -= seconds_ago;
  ts[1] = ts[0];
  g_assert_cmpint (utimensat (AT_FDCWD, path, ts, 0), ==, 0);
}

/* The cap: least recently used (opened) caches go first; one bigger than
 * the cap is not written. */
static void
test_lru (Fixture       *f,
          gconstpointer  data)
{
  char *paths[4], *caches[4];
  guint64 one;
  guint n_files;

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("c%u.cpel", i);

      paths[i] = g_build_filename (f->dir, name, NULL);
      gen (paths[i], 5000, 4, 20 + i, FALSE);
    }
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(CpelFile) file = open_with (paths[i], f->cache_dir, 0, FALSE);
      CpelIndexCacheKey key;

      g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
      g_assert_true (cpel_index_cache_compute_key (file, 0, &key));
      caches[i] = cpel_index_cache_path_for (f->cache_dir, &key);
      set_age (caches[i], 1000 - 100 * i);   /* 0 oldest */
    }
  g_assert_true (cpel_index_cache_get_usage (f->cache_dir, &n_files, &one, NULL));
  g_assert_cmpuint (n_files, ==, 3);
  one /= 3;
  /* using cache 0 makes it the most recent */
  {
    g_autoptr(CpelFile) file = open_with (paths[0], f->cache_dir, 0, FALSE);

    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
  }
  /* a fourth with room for three: cache 1 goes */
  {
    g_autoptr(CpelFile) file = open_with (paths[3], f->cache_dir, 3 * one, FALSE);
    CpelIndexCacheKey key;

    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
    g_assert_true (cpel_index_cache_compute_key (file, 0, &key));
    caches[3] = cpel_index_cache_path_for (f->cache_dir, &key);
  }
  g_assert_true (g_file_test (caches[0], G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (caches[1], G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (caches[2], G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (caches[3], G_FILE_TEST_EXISTS));
  /* bigger than the cap: not written, nothing evicted for it */
  {
    g_autoptr(CpelFile) file = open_with (paths[1], f->cache_dir, one - 1, FALSE);

    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITE_FAILED);
  }
  g_assert_true (cpel_index_cache_get_usage (f->cache_dir, &n_files, NULL, NULL));
  g_assert_cmpuint (n_files, ==, 3);
  for (guint i = 0; i < 4; i++)
    {
      g_free (paths[i]);
      g_free (caches[i]);
    }
}

static void
test_clear (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *cpath = make_cache (f, NULL);
  g_autofree char *tmp = g_build_filename (f->cache_dir, ".cpelidx-abcdef.tmp", NULL);
  g_autofree char *other = g_build_filename (f->cache_dir, "README", NULL);
  guint n = 0;
  guint64 bytes = 0;

  write_bytes (tmp, (const guint8 *) "partial", 7);
  write_bytes (other, (const guint8 *) "not ours", 8);
  g_assert_true (cpel_index_cache_get_usage (f->cache_dir, &n, &bytes, NULL));
  g_assert_cmpuint (n, ==, 1);
  g_assert_true (cpel_index_cache_clear (f->cache_dir, &n, &bytes, NULL));
  g_assert_cmpuint (n, ==, 2);
  g_assert_false (g_file_test (cpath, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (tmp, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));
  /* a dir that is not there is empty */
  g_assert_true (cpel_index_cache_clear ("/nonexistent/cpel-cache", &n, NULL, NULL));
  g_assert_cmpuint (n, ==, 0);
  /* the default dir follows XDG_CACHE_HOME (isolated by the test) */
  {
    g_autofree char *def = cpel_index_cache_get_default_dir ();

    g_assert_true (g_str_has_prefix (def, g_get_user_cache_dir ()));
    g_assert_true (g_str_has_suffix (def, "cpel-viewer/index"));
  }
  /* a stale temporary file of a writer that died goes at the next trim */
  g_assert_cmpint (g_mkdir_with_parents (f->cache_dir, 0700), ==, 0);
  write_bytes (tmp, (const guint8 *) "partial", 7);
  set_age (tmp, 7200);
  cpel_index_cache_trim (f->cache_dir, G_MAXUINT64);
  g_assert_false (g_file_test (tmp, G_FILE_TEST_EXISTS));
}

/* The deferred check steps aside while frames are drawn
 * (cpel_file_note_frame), and still ends while they never stop. */
typedef struct
{
  CpelFile *file;
  GMutex    lock;
  GCond     cond;     /* done */
  gint      done;     /* atomic, and under lock for cond */
  gboolean  ok;
} VerifyJob;

static gpointer
verify_job (gpointer data)
{
  VerifyJob *job = data;

  job->ok = cpel_file_verify_index (job->file, NULL);
  g_mutex_lock (&job->lock);
  g_atomic_int_set (&job->done, TRUE);
  g_cond_signal (&job->cond);
  g_mutex_unlock (&job->lock);
  return NULL;
}

/* Frames for `us` microseconds, one a millisecond, or until the job is
 * done; returns the longest gap between two frames (a loaded machine may
 * not run this thread for a while). */
static gint64
frames_for (VerifyJob *job,
            gint64     us)
{
  gint64 end = g_get_monotonic_time () + us, last = g_get_monotonic_time (), gap = 0;

  g_mutex_lock (&job->lock);
  while (g_get_monotonic_time () < end && !g_atomic_int_get (&job->done))
    {
      gint64 now;

      cpel_file_note_frame (job->file);
      now = g_get_monotonic_time ();
      gap = MAX (gap, now - last);
      last = now;
      /* the next frame in a millisecond, unless the job is done first */
      g_cond_wait_until (&job->cond, &job->lock, now + 1000);
    }
  g_mutex_unlock (&job->lock);
  return gap;
}

static void
test_verify_steps_aside (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cpel-index-cache-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "c.cpel", NULL);
  g_autoptr(GBytes) capture = NULL;
  g_autoptr(GBytes) cache = NULL;
  g_autoptr(CpelFile) ref = NULL;
  VerifyJob job = { 0, };
  CpelIndexCacheLoad load = CPEL_INDEX_CACHE_OFF;
  GThread *thread;

  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  /* several blocks of the check (CPEL_INDEX_CACHE_BLOCK_ELEMS each) */
  gen (path, 6 * CPEL_INDEX_CACHE_BLOCK_ELEMS, 4, 12, FALSE);
  capture = read_bytes (path);
  g_unlink (path);
  g_rmdir (dir);
  cache = cache_for_bytes (capture, &ref);

  for (guint round = 0; round < 2; round++)
    {
      g_clear_object (&job.file);
      job.file = cpel_file_new_for_bytes_with_cache_full (capture, cache, TRUE, TRUE, &load, NULL);
      g_assert_cmpint (load, ==, CPEL_INDEX_CACHE_USED);
      g_assert_true (cpel_file_index_is_unverified (job.file));
      job.done = FALSE;
      job.ok = FALSE;

      /* a frame was just drawn: the check waits after its first block */
      cpel_file_note_frame (job.file);
      thread = g_thread_new ("verify", verify_job, &job);
      if (round == 0)
        {
          /* frames for 0.4 s (less than a pause's longest): not done yet;
           * then none: it goes on */
          gint64 gap = frames_for (&job, 400 * 1000);

          /* (a gap near the 150 ms the check waits for is a pause in the
           * frames: then it may go on, rightly) */
          if (gap < 100 * 1000)
            g_assert_false (g_atomic_int_get (&job.done));
          else
            g_test_message ("frames %" G_GINT64_FORMAT " ms apart once: not checked", gap / 1000);
        }
      else
        {
          /* frames that never stop: it takes its turns, and ends while
           * they still come */
          frames_for (&job, 120 * G_USEC_PER_SEC);
          g_assert_true (g_atomic_int_get (&job.done));
        }
      g_thread_join (thread);
      g_assert_true (g_atomic_int_get (&job.done));
      g_assert_true (job.ok);
      g_assert_false (cpel_file_index_is_unverified (job.file));
      assert_same_index (job.file, ref);
    }
  g_clear_object (&job.file);
  g_cond_clear (&job.cond);
  g_mutex_clear (&job.lock);
}

/* Files in `dir` (temporary ones too). */
static guint
count_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static CpelFile *
open_store_later (Fixture *f)
{
  CpelLoadOptions options = { .use_cache = TRUE, .cache_dir = f->cache_dir, .cache_min_events = 1,
                              .cache_store_later = TRUE };
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (f->path, &options, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return file;
}

/* cache_store_later: the index is built in memory, nothing is written
 * until cpel_file_store_index (), which writes the usual cache once; a
 * cancelled one leaves nothing; an index too big for memory is built in the
 * cache file as without the option. */
static void
test_store_later (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(CpelFile) ref = open_reference (f->path);
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();

  g_cancellable_cancel (cancelled);
  {
    g_autoptr(CpelFile) file = open_store_later (f);

    g_assert_cmpint (file->index_home, ==, CPEL_INDEX_HOME_MEMORY);
    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_MISSING);
    g_assert_true (cpel_file_index_store_is_pending (file));
    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_NOT_WRITTEN);
    g_assert_cmpuint (count_dir (f->cache_dir), ==, 0);
    assert_same_index (file, ref);
    /* cancelled: nothing written, nothing left behind, not to be done again */
    g_assert_false (cpel_file_store_index (file, cancelled));
    g_assert_false (cpel_file_index_store_is_pending (file));
    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_NOT_WRITTEN);
    g_assert_cmpuint (count_dir (f->cache_dir), ==, 0);
  }
  {
    g_autoptr(CpelFile) file = open_store_later (f);

    g_assert_true (cpel_file_store_index (file, NULL));
    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
    g_assert_false (cpel_file_index_store_is_pending (file));
    g_assert_false (cpel_file_store_index (file, NULL));
    g_assert_cmpuint (count_dir (f->cache_dir), ==, 1);
    {
      g_autofree char *cpath = cache_path_of (f, ref);

      g_assert_true (g_file_test (cpath, G_FILE_TEST_IS_REGULAR));
    }
    assert_same_index (file, ref);
  }
  /* the next open uses it (and has nothing to store) */
  {
    g_autoptr(CpelFile) file = open_store_later (f);

    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
    g_assert_false (cpel_file_index_store_is_pending (file));
    g_assert_true (cpel_file_verify_index (file, NULL));
    assert_same_index (file, ref);
  }
  /* too big for memory (CPEL_INDEX_FILE_MIN_MB=0): built in the cache
   * file's temporary file, completed (head, rename) by the store too */
  g_assert_true (cpel_index_cache_clear (f->cache_dir, NULL, NULL, NULL));
  g_setenv ("CPEL_INDEX_FILE_MIN_MB", "0", TRUE);
  {
    g_autoptr(CpelFile) file = open_store_later (f);
    g_autofree char *cpath = cache_path_of (f, ref);

    g_assert_cmpint (file->index_home, ==, CPEL_INDEX_HOME_CACHE_FILE);
    g_assert_true (cpel_file_index_store_is_pending (file));
    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_NOT_WRITTEN);
    g_assert_false (g_file_test (cpath, G_FILE_TEST_EXISTS));
    g_assert_true (cpel_file_store_index (file, NULL));
    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
    g_assert_true (g_file_test (cpath, G_FILE_TEST_IS_REGULAR));
    g_assert_cmpuint (count_dir (f->cache_dir), ==, 1);
    assert_same_index (file, ref);
  }
  /* not stored: its temporary file goes with it */
  g_assert_true (cpel_index_cache_clear (f->cache_dir, NULL, NULL, NULL));
  {
    g_autoptr(CpelFile) file = open_store_later (f);

    g_assert_cmpuint (count_dir (f->cache_dir), ==, 1);
  }
  g_assert_cmpuint (count_dir (f->cache_dir), ==, 0);
  g_unsetenv ("CPEL_INDEX_FILE_MIN_MB");
  /* no cache wanted: nothing pending */
  {
    g_autoptr(CpelFile) plain = open_reference (f->path);

    g_assert_false (cpel_file_index_store_is_pending (plain));
    g_assert_false (cpel_file_store_index (plain, NULL));
  }
}

static void
on_async_result (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

/* cpel_loader_run_deferred_cache_async () / _store_cache_async () to the
 * end in this thread's main context. */
static gboolean
run_deferred (CpelFile      *file,
              gboolean       store,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  if (store)
    cpel_loader_store_cache_async (file, cancellable, on_async_result, &result);
  else
    cpel_loader_run_deferred_cache_async (file, cancellable, on_async_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return store ? cpel_loader_store_cache_finish (file, result, error)
               : cpel_loader_run_deferred_cache_finish (file, result, error);
}

/* The loader's steps of the index cache after the load: claimed once per
 * file with something to do; the write of an index built in memory, the
 * check of one read from the cache (cancelled: an error, the check still
 * due; damaged: an error, the file damaged). */
static void
test_deferred_steps (Fixture       *f,
                     gconstpointer  data)
{
  CpelLoadOptions later = { .use_cache = TRUE, .cache_dir = f->cache_dir, .cache_min_events = 1,
                            .cache_store_later = TRUE, .cache_verify_later = TRUE };
  g_autoptr(CpelFile) ref = open_reference (f->path);
  g_autoptr(GError) error = NULL;

  /* nothing deferred: nothing to claim */
  g_assert_false (cpel_file_claim_deferred_cache (ref));
  {
    g_autoptr(CpelFile) file = open_store_later (f);

    g_assert_true (cpel_file_claim_deferred_cache (file));
    g_assert_false (cpel_file_claim_deferred_cache (file));
    g_assert_cmpuint (count_dir (f->cache_dir), ==, 0);
    g_assert_true (run_deferred (file, FALSE, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
    g_assert_cmpuint (count_dir (f->cache_dir), ==, 1);
    /* written: the viewer's store when it drops the file does nothing */
    g_assert_false (run_deferred (file, TRUE, NULL, &error));
    g_assert_no_error (error);
  }
  {
    g_autoptr(CpelFile) file = cpel_file_new_for_path (f->path, &later, NULL, NULL, NULL, &error);
    g_autoptr(GCancellable) cancelled = g_cancellable_new ();

    g_assert_no_error (error);
    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
    g_assert_true (cpel_file_index_is_unverified (file));
    g_assert_true (cpel_file_claim_deferred_cache (file));
    g_assert_false (cpel_file_claim_deferred_cache (file));
    g_cancellable_cancel (cancelled);
    g_assert_false (run_deferred (file, FALSE, cancelled, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    g_assert_true (cpel_file_index_is_unverified (file));
    g_assert_true (run_deferred (file, FALSE, NULL, &error));
    g_assert_no_error (error);
    g_assert_false (cpel_file_index_is_unverified (file));
    g_assert_false (cpel_file_is_damaged (file));
    assert_same_index (file, ref);
  }
  /* the last record index of the cache damaged */
  {
    g_autofree char *cpath = cache_path_of (f, ref);
    g_autoptr(GBytes) content = read_bytes (cpath);
    gsize len = g_bytes_get_size (content);
    g_autofree guint8 *buf = g_memdup2 (g_bytes_get_data (content, NULL), len);
    g_autoptr(CpelFile) file = NULL;

    buf[len - 4] ^= 0x04;
    write_bytes (cpath, buf, len);
    file = cpel_file_new_for_path (f->path, &later, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (cpel_file_claim_deferred_cache (file));
    g_assert_false (run_deferred (file, FALSE, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_true (cpel_file_index_cache_is_damaged (file));
    g_assert_false (g_file_test (cpath, G_FILE_TEST_EXISTS));
  }
}

int
main (int argc, char **argv)
{
  const char *child = g_getenv ("CPEL_TEST_CHILD_CAPTURE");

  if (child != NULL)
    return child_main (child, g_getenv ("CPEL_TEST_CHILD_CACHE_DIR"));

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(name, func) \
  g_test_add ("/core/index-cache/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("roundtrip", test_roundtrip);
  ADD ("small", test_small);
  ADD ("deferred", test_deferred);
  ADD ("stale", test_stale);
  ADD ("truncated", test_truncated);
  ADD ("bitflip", test_bitflip);
  ADD ("version", test_version);
  ADD ("verify-later", test_verify_later);
  ADD ("late-block", test_late_block);
  ADD ("dir-is-file", test_dir_is_file);
  ADD ("not-writable", test_not_writable);
  ADD ("full", test_full);
  ADD ("tmpfs", test_tmpfs);
  ADD ("two-processes", test_two_processes);
  ADD ("threads", test_threads);
  ADD ("deleted", test_deleted);
  ADD ("lru", test_lru);
  ADD ("clear", test_clear);
  ADD ("store-later", test_store_later);
  ADD ("deferred-steps", test_deferred_steps);
#undef ADD
  g_test_add_func ("/core/index-cache/hostile", test_hostile);
  g_test_add_func ("/core/index-cache/verify-steps-aside", test_verify_steps_aside);
  g_test_add_func ("/core/index-cache/full/subprocess", test_full_subprocess);
  g_test_add_func ("/core/index-cache/tmpfs/subprocess", test_tmpfs_subprocess);
  return g_test_run ();
}
