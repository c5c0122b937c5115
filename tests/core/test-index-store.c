/* SPDX-License-Identifier: Apache-2.0 */
/* test-index-store.c — where a built index lives (cpel-index-store.c)
 *
 * An index built in a temporary file or straight into the cache file is
 * the index built in memory, element for element; the passes give its
 * pages back, so the process keeps little of it resident; the cache file
 * written in place is a valid cache; and a track out of time order only
 * where one thread's part of the file meets the next is still sorted.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"
#include "cpel-file-private.h"
#include "cpel-index-cache-private.h"
#include "cpel-lod.h"
#include "cpel-mapguard.h"

static char *
gen (const char *dir,
     const char *name,
     guint64     n_events,
     guint       n_tracks,
     gboolean    sorted)
{
  CpelGenOptions options = { .n_events = n_events, .n_tracks = n_tracks, .seed = 3,
                             .overwrite = TRUE, .sorted = sorted };
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (cpel_gen_write (path, &options, &error));
  g_assert_no_error (error);
  return path;
}

static CpelFile *
open_path (const char *path,
           const char *cache_dir,
           guint       n_threads)
{
  CpelLoadOptions options = { .use_cache = cache_dir != NULL, .cache_dir = cache_dir,
                              .cache_min_events = 1, .n_threads = n_threads };
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (path, &options, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

/* Every track's times and record indices, element for element. */
static void
assert_same_index (CpelFile *a,
                   CpelFile *b)
{
  g_assert_cmpuint (a->n_events, ==, b->n_events);
  g_assert_cmpuint (a->n_tracks, ==, b->n_tracks);
  g_assert_cmpint (a->base_ns, ==, b->base_ns);
  g_assert_cmpint (a->duration, ==, b->duration);
  for (guint s = 0; s < a->n_tracks; s++)
    {
      g_assert_cmpuint (a->tracks[s].first, ==, b->tracks[s].first);
      g_assert_cmpuint (a->tracks[s].count, ==, b->tracks[s].count);
    }
  g_assert_cmpmem (a->times, 8 * a->n_events, b->times, 8 * b->n_events);
  g_assert_cmpmem (a->recs, 4 * a->n_events, b->recs, 4 * b->n_events);
}

/* The stored overview counts of `file` are those of `ref`'s times. */
static void
assert_overview (CpelFile *file,
                 CpelFile *ref)
{
  const guint64 *counts = cpel_file_get_stored_overview (file, CPEL_INDEX_CACHE_OVERVIEW_BUCKETS);
  g_autofree gint64 *bounds = cpel_index_cache_overview_bounds (ref->duration);
  g_autofree guint64 *expected = g_new0 (guint64, CPEL_INDEX_CACHE_OVERVIEW_BUCKETS);

  g_assert_nonnull (counts);
  for (guint64 i = 0; i < ref->n_events; i++)
    expected[cpel_index_cache_overview_find (bounds, ref->times[i])]++;
  g_assert_cmpmem (counts, 8 * CPEL_INDEX_CACHE_OVERVIEW_BUCKETS, expected, 8 * CPEL_INDEX_CACHE_OVERVIEW_BUCKETS);
}

/* Each track in time order, ties in file order. */
static void
assert_tracks_ordered (CpelFile *file)
{
  for (guint s = 0; s < file->n_tracks; s++)
    for (guint64 i = file->tracks[s].first + 1; i < file->tracks[s].first + file->tracks[s].count; i++)
      g_assert_true (file->times[i - 1] < file->times[i]
                     || (file->times[i - 1] == file->times[i] && file->recs[i - 1] < file->recs[i]));
}

static void
test_temp_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-index-store-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(CpelFile) ref = NULL;
  g_autoptr(CpelFile) file = NULL;
  guint64 n = 1000000;
  gint64 before, index_kb = (gint64) (n * 12 / 1024), records_kb = (gint64) (n * 20 / 1024);

  g_assert_no_error (error);
  path = gen (dir, "capture.cpel", n, 64, FALSE);

  /* in memory: the reference */
  g_setenv ("CPEL_INDEX_FILE_MIN_MB", "1000000", TRUE);
  ref = open_path (path, NULL, 2);
  g_assert_cmpint (ref->index_home, ==, CPEL_INDEX_HOME_MEMORY);

  /* in a temporary file, whatever its size */
  g_setenv ("CPEL_INDEX_FILE_MIN_MB", "0", TRUE);
  before = cpel_test_status_kb ("RssFile:");
  file = open_path (path, NULL, 2);
  g_assert_cmpint (file->index_home, ==, CPEL_INDEX_HOME_TEMP_FILE);
  g_assert_nonnull (file->index_map);
  /* Written, sorted, read: little of the index or of the records stays
   * resident (without the drops, all 12 MB of the index would). */
  if (before >= 0)
    g_assert_cmpint (cpel_test_status_kb ("RssFile:") - before, <, (index_kb + records_kb) / 8);
  cpel_lod_prepare (cpel_lod_get_for_file (file), NULL);
  if (before >= 0)
    g_assert_cmpint (cpel_test_status_kb ("RssFile:") - before, <, (index_kb + records_kb) / 8);
  /* a search over every event (each one matches): the same */
  {
    g_autoptr(CpelQuery) query = cpel_query_new (file, CPEL_SEARCH_TEXT, "", FALSE, &error);
    g_autoptr(CpelSearchResult) result = NULL;

    g_assert_no_error (error);
    result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (cpel_search_result_get_n (result), ==, n);
    if (before >= 0)
      g_assert_cmpint (cpel_test_status_kb ("RssFile:") - before, <, (index_kb + records_kb) / 8);
  }
  /* the overview's counts, counted with the index (in a file or in
   * memory): the viewer's overview reads no event time */
  assert_overview (file, ref);
  assert_overview (ref, ref);
  /* and every element is what the memory build has */
  assert_same_index (file, ref);
  assert_tracks_ordered (file);

  g_unsetenv ("CPEL_INDEX_FILE_MIN_MB");
  g_clear_object (&file);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_cache_in_place (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-index-store-XXXXXX", &error);
  g_autofree char *cache_dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(CpelFile) ref = NULL;
  g_autoptr(CpelFile) built = NULL;
  g_autoptr(CpelFile) again = NULL;
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint n_files = 0;
  gsize len = 0;
  CpelIndexCacheHeader h;

  g_assert_no_error (error);
  cache_dir = g_build_filename (dir, "cache", NULL);
  path = gen (dir, "capture.cpel", 300000, 40, FALSE);

  g_setenv ("CPEL_INDEX_FILE_MIN_MB", "1000000", TRUE);
  ref = open_path (path, NULL, 2);
  g_assert_cmpint (ref->index_home, ==, CPEL_INDEX_HOME_MEMORY);

  built = open_path (path, cache_dir, 2);
  g_assert_cmpint (built->index_home, ==, CPEL_INDEX_HOME_CACHE_FILE);
  g_assert_cmpint (cpel_file_get_cache_write (built), ==, CPEL_INDEX_CACHE_WRITTEN);
  g_assert_cmpint (built->index_fd, ==, -1);   /* stored: closed, not removed */
  assert_same_index (built, ref);
  assert_overview (built, ref);

  /* one cache file, no temporary one left, laid out with the times at
   * the place kept for them before the summaries were known */
  d = g_dir_open (cache_dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *file_path = g_build_filename (cache_dir, name, NULL);

      g_assert_true (g_str_has_suffix (name, CPEL_INDEX_CACHE_SUFFIX));
      g_assert_true (g_file_get_contents (file_path, &contents, &len, &error));
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, 1);
  g_assert_cmpuint (len, >=, sizeof h);
  memcpy (&h, contents, sizeof h);
  g_assert_cmpuint (h.times_offset, ==,
                    cpel_index_cache_times_offset_max (ref->n_events, ref->n_evsecs, ref->n_tracks, ref->n_types));
  g_assert_cmpuint (h.times_offset, >, cpel_index_cache_align_up (h.blocks_offset + 16 * h.n_blocks));
  g_assert_cmpuint (len, ==, h.times_offset + 12 * ref->n_events);
  g_assert_cmpmem (contents + h.times_offset, 8 * ref->n_events, ref->times, 8 * ref->n_events);

  /* read back: used, the same index */
  again = open_path (path, cache_dir, 2);
  g_assert_cmpint (cpel_file_get_cache_load (again), ==, CPEL_INDEX_CACHE_USED);
  g_assert_cmpint (again->index_home, ==, CPEL_INDEX_HOME_NONE);
  /* a search over every event reads all of the index through the cache
   * file's mapping: its pages go back too (read-only, private: they come
   * back from the page cache), as they do for an index built in a file */
  {
    g_autoptr(CpelQuery) query = cpel_query_new (again, CPEL_SEARCH_TEXT, "", FALSE, &error);
    g_autoptr(CpelSearchResult) result = NULL;
    gint64 index_kb = 12 * ref->n_events / 1024, before;
    guint64 sum = 0;

    g_assert_no_error (error);
    /* all of it resident first */
    for (guint64 i = 0; i < again->n_events; i++)
      sum += (guint64) again->times[i] + again->recs[i];
    g_assert_cmpuint (sum, >, 0);
    before = cpel_test_mapping_rss_kb (again->times);
    result = cpel_search_run (again, query, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (cpel_search_result_get_n (result), ==, ref->n_events);
    if (before >= 0)
      {
        g_assert_cmpint (before, >=, index_kb);
        g_assert_cmpint (cpel_test_mapping_rss_kb (again->times), <, index_kb / 8);
      }
    /* and when the viewer's overview says it is done with the index */
    for (guint64 i = 0; i < again->n_events; i++)
      sum += (guint64) again->times[i] + again->recs[i];
    g_assert_cmpuint (sum, >, 0);
    before = cpel_test_mapping_rss_kb (again->times);
    cpel_file_release_index_pages (again);
    if (before >= 0)
      {
        g_assert_cmpint (before, >=, index_kb);
        g_assert_cmpint (cpel_test_mapping_rss_kb (again->times), <, index_kb / 8);
      }
    /* an index in memory keeps its pages (giving them back would zero
     * them): still the same index below */
    cpel_file_release_index_pages (ref);
  }
  assert_same_index (again, ref);
  assert_overview (again, ref);

  g_unsetenv ("CPEL_INDEX_FILE_MIN_MB");
  g_clear_object (&built);
  g_clear_object (&again);
  g_unlink (path);
  g_dir_rewind (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *file_path = g_build_filename (cache_dir, name, NULL);
      g_unlink (file_path);
    }
  g_rmdir (cache_dir);
  g_rmdir (dir);
}

static void
cancel_in_pass_b (double   fraction,
                  gpointer data)
{
  /* pass A reports up to 0.45 */
  if (fraction > 0.45)
    g_cancellable_cancel (data);
}

/* Cancelled while built into the cache file: no file is left in the cache
 * dir, and the next open builds and stores it. */
static void
test_cancel_in_place (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-index-store-XXXXXX", &error);
  g_autofree char *cache_dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(CpelFile) cancelled = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GDir) d = NULL;
  CpelLoadOptions options = { .use_cache = TRUE, .cache_min_events = 1, .n_threads = 1 };
  guint n_left = 0;

  g_assert_no_error (error);
  cache_dir = g_build_filename (dir, "cache", NULL);
  options.cache_dir = cache_dir;
  /* 3 · 2^20 events: pass B looks at the cancellable after 2^20 of them */
  path = gen (dir, "capture.cpel", 3 << 20, 8, FALSE);

  g_setenv ("CPEL_INDEX_FILE_MIN_MB", "1000000", TRUE);
  cancelled = cpel_file_new_for_path (path, &options, cancellable, cancel_in_pass_b, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (cancelled);
  if (g_file_test (cache_dir, G_FILE_TEST_IS_DIR))
    n_left = cpel_test_count_entries (cache_dir);
  g_assert_cmpuint (n_left, ==, 0);

  g_clear_error (&error);
  file = open_path (path, cache_dir, 1);
  g_assert_cmpint (file->index_home, ==, CPEL_INDEX_HOME_CACHE_FILE);
  g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
  assert_tracks_ordered (file);

  g_unsetenv ("CPEL_INDEX_FILE_MIN_MB");
  g_clear_object (&file);
  g_clear_pointer (&d, g_dir_close);
  d = g_dir_open (cache_dir, 0, NULL);
  {
    const char *name;
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (cache_dir, name, NULL);
        g_unlink (p);
      }
  }
  g_rmdir (cache_dir);
  g_unlink (path);
  g_rmdir (dir);
}

/* A sorted capture with the two records where the first thread's part
 * ends and the second's begins swapped: each part is in time order, the
 * track is not. */
static void
test_unsorted_at_boundary (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-index-store-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) swapped = NULL;
  g_autoptr(CpelFile) parsed = NULL;
  g_autoptr(CpelFile) one = NULL;
  g_autoptr(CpelFile) two = NULL;
  g_autofree guint8 *copy = NULL;
  CpelLoadOptions opt1 = { .n_threads = 1 }, opt2 = { .n_threads = 2 };
  guint64 n = 1200000, at = n / 2;   /* two parts of 600000: at is the second's first */
  const guint8 *ra, *rb;
  gsize len;
  guint8 tmp[CPEL_EVENT_RECORD_SIZE];

  g_assert_no_error (error);
  path = gen (dir, "sorted.cpel", n, 1, TRUE);
  {
    gchar *data;
    g_assert_true (g_file_get_contents (path, &data, &len, &error));
    bytes = g_bytes_new_take (data, len);
  }
  parsed = cpel_file_new_for_bytes (bytes, &opt1, &error);
  g_assert_no_error (error);
  g_assert_true (parsed->time_ordered);
  ra = cpel_file_record (parsed, at - 1, NULL);
  rb = cpel_file_record (parsed, at, NULL);
  g_assert_cmpuint (cpel_file_record_ticks (parsed, ra), <, cpel_file_record_ticks (parsed, rb));

  copy = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
  memcpy (tmp, copy + (ra - parsed->data), sizeof tmp);
  memcpy (copy + (ra - parsed->data), copy + (rb - parsed->data), sizeof tmp);
  memcpy (copy + (rb - parsed->data), tmp, sizeof tmp);
  swapped = g_bytes_new_take (g_steal_pointer (&copy), len);

  one = cpel_file_new_for_bytes (swapped, &opt1, &error);
  g_assert_no_error (error);
  two = cpel_file_new_for_bytes (swapped, &opt2, &error);
  g_assert_no_error (error);
  g_assert_false (two->time_ordered);
  assert_tracks_ordered (one);
  assert_tracks_ordered (two);
  assert_same_index (two, one);

  g_unlink (path);
  g_rmdir (dir);
}

/* Whether the page holding p is in the page cache. */
static gboolean
resident (const void *p)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  unsigned char vec = 0;

  g_assert_cmpint (mincore ((void *) ((guintptr) p & ~(guintptr) (page - 1)), page, &vec), ==, 0);
  return (vec & 1) != 0;
}

/* Waits until the pages of `a` and `b` (b may be NULL) are in the page
 * cache, 20 s at most; TRUE when they are.  The kernel reads them ahead
 * without telling anyone when they arrive: mincore () is asked again
 * until then. */
static gboolean
wait_resident (const void *a,
               const void *b)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!(resident (a) && (b == NULL || resident (b))))
    {
      if (g_get_monotonic_time () >= deadline)
        return FALSE;
      g_usleep (1000);
    }
  return TRUE;
}

/* The pages a frame of a range will read, asked for from a cache mapping
 * whose pages are out of the page cache: they come in without being
 * touched; an index in memory is left alone. */
static void
test_prefetch (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-index-store-XXXXXX", &error);
  g_autofree char *cache_dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *cache_path = NULL;
  g_autoptr(CpelFile) built = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelFile) mem = NULL;
  g_autoptr(GDir) d = NULL;
  const gint64 *times, *ref;
  guint64 n, mid;
  gint64 t;
  int fd;

  g_assert_no_error (error);
  cache_dir = g_build_filename (dir, "cache", NULL);
  path = gen (dir, "capture.cpel", 2000000, 4, FALSE);
  g_setenv ("CPEL_INDEX_FILE_MIN_MB", "1000000", TRUE);
  built = open_path (path, cache_dir, 1);
  g_clear_object (&built);
  file = open_path (path, cache_dir, 1);
  g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
  g_assert_true (cpel_file_index_in_file (file));
  cpel_lod_prepare (cpel_lod_get_for_file (file), NULL);   /* the summaries are the cache's */

  /* the cache file's pages out of the page cache (those mapped stay) */
  d = g_dir_open (cache_dir, 0, &error);
  g_assert_no_error (error);
  cache_path = g_build_filename (cache_dir, g_dir_read_name (d), NULL);
  fd = open (cache_path, O_RDONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fdatasync (fd), ==, 0);
  g_assert_cmpint (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), ==, 0);
  close (fd);

  /* where to look, from the same index in memory (reading the cache
   * mapping would fault its pages in, and their neighbours) */
  mem = open_path (path, NULL, 1);
  g_assert_false (cpel_file_index_in_file (mem));
  cpel_lod_prefetch (cpel_lod_get_for_file (mem), 2, 0, G_MAXINT64, G_MAXUINT64);   /* nothing to do */
  ref = cpel_file_get_track_times (mem, 2, &n);
  mid = n / 2;
  t = ref[mid];
  times = cpel_file_get_track_times (file, 2, &n);
  if (resident (&times[mid]))
    {
      g_test_skip ("the page cache kept the cache file's pages");
      return;
    }
  cpel_lod_prefetch (cpel_lod_get_for_file (file), 2, t, t + 1, 0);
  /* read ahead by the kernel: a condition, waited for, bounded */
  g_assert_true (wait_resident (&times[mid], &file->recs[file->tracks[2].first + mid]));

  /* A row drawn by counting each of its 40,000 events (more than the few
   * read in full anyway): all of its times, the middle too, when the
   * frame says it reads that many. */
  fd = open (cache_path, O_RDONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), ==, 0);
  close (fd);
  if (resident (&times[mid]))
    {
      g_test_skip ("the page cache kept the cache file's pages");
      return;
    }
  cpel_lod_prefetch (cpel_lod_get_for_file (file), 2, ref[mid - 20000], ref[mid + 20000], 160000);
  g_assert_true (wait_resident (&times[mid], NULL));

  /* The times that locating column boundaries a few events apart will
   * search (too few events a column for the summary's estimate), far from
   * the range's ends: asked for ahead too. */
  fd = open (cache_path, O_RDONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), ==, 0);
  close (fd);
  if (!resident (&times[mid]))
    {
      gint64 bounds[21];
      double pos[21];

      for (guint j = 0; j < G_N_ELEMENTS (bounds); j++)
        bounds[j] = ref[mid - 50 + 5 * j];
      cpel_lod_prefetch_locate (cpel_lod_get_for_file (mem), 2, bounds, G_N_ELEMENTS (bounds), 0.125);
      cpel_lod_prefetch_locate (cpel_lod_get_for_file (file), 2, bounds, G_N_ELEMENTS (bounds), 0.125);
      g_assert_true (wait_resident (&times[mid], NULL));
      /* and they are where the search finds them */
      cpel_lod_locate (cpel_lod_get_for_file (file), 2, bounds, G_N_ELEMENTS (bounds), 0.125, pos);
      for (guint j = 0; j < G_N_ELEMENTS (bounds); j++)
        g_assert_cmpfloat (pos[j], ==, (double) cpel_file_track_lower_bound (mem, 2, bounds[j]));
    }

  /* the records a sparse row draws: from the capture, out of the page
   * cache too */
  {
    guint32 fi = file->recs[file->tracks[2].first + mid];
    const guint8 *rec = cpel_file_record (file, fi, NULL);
    const guint8 *rec_mem = cpel_file_record (mem, fi, NULL);
    gsize page = (gsize) sysconf (_SC_PAGESIZE);
    const guint8 *page_start = (const guint8 *) ((guintptr) rec & ~(guintptr) (page - 1));
    const guint8 *page_mem = (const guint8 *) ((guintptr) rec_mem & ~(guintptr) (page - 1));

    /* out of both files' mappings first: a mapped page stays cached */
    cpel_mapping_drop_pages (page_start, page_start + page);
    cpel_mapping_drop_pages (page_mem, page_mem + page);
    fd = open (path, O_RDONLY);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (fdatasync (fd), ==, 0);   /* written just now: clean first */
    g_assert_cmpint (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED), ==, 0);
    close (fd);
    if (resident (rec))
      {
        g_test_skip ("the page cache kept the capture's pages");
        return;
      }
    cpel_file_prefetch_track_records (file, 2, mid, mid + 1);
    g_assert_true (wait_resident (rec, NULL));
    g_assert_true (resident (rec));
  }

  g_unsetenv ("CPEL_INDEX_FILE_MIN_MB");
  g_clear_object (&file);
  g_unlink (cache_path);
  g_rmdir (cache_dir);
  g_unlink (path);
  g_rmdir (dir);
}

/* An index in memory is faulted in with small pages and asked for huge
 * ones once built (CPEL_INDEX_HUGEPAGES unset): its mappings carry the
 * "hg" flag afterwards. */
static void
test_hugepages_after_build (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(CpelFile) file = NULL;
  int times_hg, recs_hg;

  if (g_getenv ("CPEL_INDEX_HUGEPAGES") != NULL)
    {
      g_test_skip ("CPEL_INDEX_HUGEPAGES is set");
      return;
    }
  dir = g_dir_make_tmp ("cpel-index-store-XXXXXX", &error);
  g_assert_no_error (error);
  /* 2^19 events: 4 MB of times, 2 MB of record indices, mappings of their own */
  path = gen (dir, "capture.cpel", 1 << 19, 8, FALSE);
  file = open_path (path, NULL, 2);
  g_assert_cmpint (file->index_home, ==, CPEL_INDEX_HOME_MEMORY);
  times_hg = cpel_test_mapping_has_flag (file->times, "hg");
  recs_hg = cpel_test_mapping_has_flag (file->recs, "hg");
  /* the scratch files go whatever the outcome */
  g_clear_object (&file);
  g_unlink (path);
  g_rmdir (dir);
  if (times_hg < 0)
    {
      g_test_skip ("no VmFlags in /proc/self/smaps");
      return;
    }
  g_assert_cmpint (times_hg, ==, 1);
  g_assert_cmpint (recs_hg, ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/core/index-store/temp-file", test_temp_file);
  g_test_add_func ("/core/index-store/cache-in-place", test_cache_in_place);
  g_test_add_func ("/core/index-store/unsorted-at-boundary", test_unsorted_at_boundary);
  g_test_add_func ("/core/index-store/cancel-in-place", test_cancel_in_place);
  g_test_add_func ("/core/index-store/prefetch", test_prefetch);
  g_test_add_func ("/core/index-store/hugepages-after-build", test_hugepages_after_build);
  return g_test_run ();
}
