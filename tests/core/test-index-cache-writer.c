/* SPDX-License-Identifier: Apache-2.0 */
/* The index cache's writer: its own thread at the lowest CPU and I/O
 * priority, bounded chunks that give the same file as one write, and the
 * temporary files of writers that died removed when a load opens the dir. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <utime.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#include <sys/file.h>
#endif

#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-file-private.h"
#include "cpel-index-cache-private.h"
#include "cpel-loader.h"

typedef struct
{
  char *dir;
  char *cache_dir;
  char *path;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  CpelGenOptions options = { .n_events = 30000, .n_tracks = 9, .seed = 11, .overwrite = TRUE };
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("cpel-index-cache-writer-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->cache_dir = g_build_filename (f->dir, "cache", NULL);
  f->path = g_build_filename (f->dir, "capture.cpel", NULL);
  g_assert_true (cpel_gen_write (f->path, &options, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (f->cache_dir, 0700), ==, 0);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);

      g_remove (p);
    }
  g_rmdir (dir);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  remove_dir (f->cache_dir);
  g_remove (f->path);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->cache_dir);
  g_free (f->path);
}

/* A load that leaves the store to cpel_file_store_index (). */
static CpelFile *
open_later (const char *path,
            const char *cache_dir)
{
  CpelLoadOptions options = { .use_cache = TRUE, .cache_dir = cache_dir, .cache_min_events = 1,
                              .cache_store_later = TRUE };
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (path, &options, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

/* The one cache file in `dir`, read whole. */
static GBytes *
read_cache (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *found = NULL;
  const char *name;
  char *data = NULL;
  gsize len = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_assert_true (g_str_has_suffix (name, CPEL_INDEX_CACHE_SUFFIX));
      g_assert_null (found);
      found = g_build_filename (dir, name, NULL);
    }
  g_assert_nonnull (found);
  g_assert_true (g_file_get_contents (found, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* The store runs in a thread of its own at SCHED_IDLE and in the idle I/O
 * class; the caller's thread keeps its priority. */
static void
test_idle (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(CpelFile) file = open_later (f->path, f->cache_dir);
  int policy = -2, ioprio = -2;
  guint n_chunks;

  g_assert_true (cpel_file_store_index (file, NULL));
  cpel_index_cache_get_writer (file, &policy, &ioprio, &n_chunks);
#ifdef __linux__
  g_assert_cmpint (policy, ==, SCHED_IDLE);
  g_assert_cmpint (ioprio >> 13, ==, 3);   /* IOPRIO_CLASS_IDLE */
  g_assert_cmpint (sched_getscheduler (0), ==, SCHED_OTHER);
#else
  (void) policy;
  (void) ioprio;
#endif
  g_assert_cmpint (cpel_file_get_cache_write (file), ==, CPEL_INDEX_CACHE_WRITTEN);
}

/* Written in chunks of 16 KiB (each written back and dropped before the
 * next but one), the cache file is byte for byte the one written at once. */
static void
test_chunks (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *other = g_build_filename (f->dir, "other", NULL);
  g_autoptr(GBytes) at_once = NULL, chunked = NULL;
  int policy, ioprio;
  guint n_chunks;

  g_assert_cmpint (g_mkdir (other, 0700), ==, 0);
  {
    g_autoptr(CpelFile) file = open_later (f->path, f->cache_dir);

    cpel_index_cache_set_write_chunk (0);
    g_assert_true (cpel_file_store_index (file, NULL));
    cpel_index_cache_get_writer (file, &policy, &ioprio, &n_chunks);
    g_assert_cmpuint (n_chunks, ==, 0);
  }
  {
    g_autoptr(CpelFile) file = open_later (f->path, other);

    cpel_index_cache_set_write_chunk (16384);
    g_assert_true (cpel_file_store_index (file, NULL));
    cpel_index_cache_get_writer (file, &policy, &ioprio, &n_chunks);
    /* 12 bytes an event and the head: more than 20 chunks */
    g_assert_cmpuint (n_chunks, >, 30000 * 12 / 16384);
  }
  cpel_index_cache_set_write_chunk (CPEL_INDEX_CACHE_WRITE_CHUNK);
  at_once = read_cache (f->cache_dir);
  chunked = read_cache (other);
  g_assert_cmpuint (g_bytes_get_size (chunked), >, 30000 * 12);
  g_assert_true (g_bytes_equal (at_once, chunked));
  /* and it serves the next load */
  {
    CpelLoadOptions options = { .use_cache = TRUE, .cache_dir = other, .cache_min_events = 1 };
    g_autoptr(CpelFile) file = cpel_file_new_for_path (f->path, &options, NULL, NULL, NULL, NULL);

    g_assert_nonnull (file);
    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_USED);
  }
  remove_dir (other);
}

static char *
make_tmp (const char *dir,
          const char *name,
          gint64      age_s)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, "partial", -1, NULL));
  if (age_s > 0)
    {
      struct utimbuf times;

      times.actime = times.modtime = (time_t) (g_get_real_time () / G_USEC_PER_SEC - age_s);
      g_assert_cmpint (g_utime (path, &times), ==, 0);
    }
  return path;
}

/* A pid no process has: pids are below pid_max. */
static long
dead_pid (void)
{
  g_autofree char *text = NULL;
  long max = 0;

  if (g_file_get_contents ("/proc/sys/kernel/pid_max", &text, NULL, NULL))
    max = strtol (text, NULL, 10);
  if (max <= 1)
    max = 4194304;   /* PID_MAX_LIMIT */
  return max;
}

/* The temporary files of writers that are gone go as soon as a load opens
 * the cache dir: one of a dead pid, an old one of a pid that runs (used
 * again), an old one without a pid; kept: a live writer's (locked, whatever
 * its pid), a fresh one of a running pid (a writer about to lock it), a
 * fresh one without a pid (an older writer). */
static void
test_stale (Fixture       *f,
            gconstpointer  data)
{
  long me = (long) getpid (), dead = dead_pid ();
  g_autofree char *n_dead = g_strdup_printf (".cpelidx-%ld-aaaaaa.tmp", dead);
  g_autofree char *n_locked = g_strdup_printf (".cpelidx-%ld-bbbbbb.tmp", dead);
  g_autofree char *n_mine = g_strdup_printf (".cpelidx-%ld-cccccc.tmp", me);
  g_autofree char *n_old_mine = g_strdup_printf (".cpelidx-%ld-dddddd.tmp", me);
  g_autofree char *p_dead = make_tmp (f->cache_dir, n_dead, 0);
  g_autofree char *p_locked = make_tmp (f->cache_dir, n_locked, 0);
  g_autofree char *p_mine = make_tmp (f->cache_dir, n_mine, 0);
  g_autofree char *p_old_mine = make_tmp (f->cache_dir, n_old_mine, 7200);
  g_autofree char *p_legacy = make_tmp (f->cache_dir, ".cpelidx-eeeeee.tmp", 0);
  g_autofree char *p_old_legacy = make_tmp (f->cache_dir, ".cpelidx-ffffff.tmp", 7200);
  g_autofree char *p_other = make_tmp (f->cache_dir, "notes.txt", 7200);
  int fd = open (p_locked, O_RDONLY | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX), ==, 0);
  {
    /* a load that finds no cache, and stores none */
    g_autoptr(CpelFile) file = open_later (f->path, f->cache_dir);

    g_assert_cmpint (cpel_file_get_cache_load (file), ==, CPEL_INDEX_CACHE_MISSING);
    g_assert_false (g_file_test (p_dead, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (p_old_mine, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (p_old_legacy, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (p_locked, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (p_mine, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (p_legacy, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (p_other, G_FILE_TEST_EXISTS));
  }
  /* the lock gone with its writer: the next look removes it */
  close (fd);
  g_assert_cmpuint (cpel_index_cache_remove_stale_tmps (f->cache_dir), ==, 1);
  g_assert_false (g_file_test (p_locked, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (p_mine, G_FILE_TEST_EXISTS));
}

/* A writer's own temporary file: named with its pid, locked while it is
 * written, so that another process's look leaves it alone. */
static void
test_own_tmp (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GDir) d = NULL;
  g_autofree char *prefix = g_strdup_printf (".cpelidx-%ld-", (long) getpid ());
  const char *name;
  guint n = 0;

  /* too big for memory: built in the cache file's temporary file */
  g_setenv ("CPEL_INDEX_FILE_MIN_MB", "0", TRUE);
  file = open_later (f->path, f->cache_dir);
  g_unsetenv ("CPEL_INDEX_FILE_MIN_MB");
  g_assert_cmpint (file->index_home, ==, CPEL_INDEX_HOME_CACHE_FILE);
  d = g_dir_open (f->cache_dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (f->cache_dir, name, NULL);
      int fd = open (p, O_RDONLY | O_CLOEXEC);

      g_assert_true (g_str_has_prefix (name, prefix));
      g_assert_true (g_str_has_suffix (name, CPEL_INDEX_CACHE_TMP_SUFFIX));
      g_assert_cmpint (fd, >=, 0);
      g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), !=, 0);
      g_assert_cmpint (errno, ==, EWOULDBLOCK);
      close (fd);
      n++;
    }
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (cpel_index_cache_remove_stale_tmps (f->cache_dir), ==, 0);
  g_assert_true (cpel_file_store_index (file, NULL));
}

/* Hurried (an application quitting waits for it): the write runs in the
 * caller's thread at its priority, and gives the same file. */
static void
test_hurry_subprocess (void)
{
  Fixture fx = { 0 }, *f = &fx;
  g_autofree char *other = NULL;
  g_autoptr(GBytes) idle = NULL, hurried = NULL;
  int policy, ioprio;
  guint n_chunks;

  fixture_setup (f, NULL);
  other = g_build_filename (f->dir, "other", NULL);
  g_assert_cmpint (g_mkdir (other, 0700), ==, 0);
  {
    g_autoptr(CpelFile) file = open_later (f->path, f->cache_dir);

    g_assert_true (cpel_file_store_index (file, NULL));
    cpel_index_cache_get_writer (file, &policy, &ioprio, &n_chunks);
#ifdef __linux__
    g_assert_cmpint (policy, ==, SCHED_IDLE);
#endif
  }
  cpel_index_cache_hurry ();
  {
    g_autoptr(CpelFile) file = open_later (f->path, other);

    g_assert_true (cpel_file_store_index (file, NULL));
    cpel_index_cache_get_writer (file, &policy, &ioprio, &n_chunks);
    g_assert_cmpint (policy, ==, -1);   /* no idle thread */
    g_assert_cmpuint (n_chunks, >, 0);  /* in chunks all the same */
  }
  idle = read_cache (f->cache_dir);
  hurried = read_cache (other);
  g_assert_true (g_bytes_equal (idle, hurried));
  remove_dir (other);
  fixture_teardown (f, NULL);
}

static void
test_hurry (void)
{
  g_test_trap_subprocess ("/core/index-cache-writer/hurry/subprocess", 0,
                          G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(name, func) \
  g_test_add ("/core/index-cache-writer/" name, Fixture, NULL, fixture_setup, func, \
              fixture_teardown)
  ADD ("idle", test_idle);
  ADD ("chunks", test_chunks);
  ADD ("stale", test_stale);
  ADD ("own-tmp", test_own_tmp);
  g_test_add_func ("/core/index-cache-writer/hurry", test_hurry);
  g_test_add_func ("/core/index-cache-writer/hurry/subprocess", test_hurry_subprocess);
  return g_test_run ();
}
