/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-store.c — where a built index (times[], recs[]) lives
 *
 * 12 bytes an event, in one of three homes:
 *  - the cache file being written (cpel_index_cache_begin): the build
 *    writes the index where the cache keeps it, so storing the cache is
 *    writing its head and a rename, not a second copy of the index;
 *  - an unlinked temporary file, when the index is big for this machine
 *    (cpel_index_store_file_min) and no cache file takes it: 10^9 events
 *    make a 12 GB index;
 *  - anonymous memory with transparent huge pages otherwise (the fastest
 *    to build on this kind of machine, where page faults are expensive).
 * The file homes are shared mappings whose blocks are allocated up front
 * (a full disk is found here, not as a SIGBUS in the middle of the
 * build).  The kernel writes their dirty pages back and may drop them, and
 * the passes over the index give back the pages they are done with
 * (cpel_index_store_drop), so that the resident set stays bounded by what
 * is being looked at.
 */
#include "cpel-file-private.h"
#include "cpel-mapguard.h"

#include <errno.h>
#include <glib/gstdio.h>

#ifdef G_OS_UNIX
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

guint64
cpel_index_store_file_min (void)
{
  const char *env = g_getenv ("CPEL_INDEX_FILE_MIN_MB");

  if (env != NULL && *env != '\0')
    return g_ascii_strtoull (env, NULL, 10) << 20;
#if defined(G_OS_UNIX) && defined(_SC_PHYS_PAGES)
  {
    long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);

    if (pages > 0 && page > 0)
      return (guint64) pages * (guint64) page / 4;
  }
#endif
  return G_MAXUINT64;
}

#ifdef G_OS_UNIX

/* Blocks for [offset, offset + len) of fd, so that writing through the
 * mapping never meets a full disk. */
static gboolean
reserve (int     fd,
         guint64 offset,
         guint64 len)
{
  int r;

  do
    r = posix_fallocate (fd, (off_t) offset, (off_t) len);
  while (r == EINTR);
  return r == 0;
}

/* Maps [offset, offset + 12 n) of fd shared as times and recs. */
static gboolean
map_index (CpelFile *self,
           int       fd,
           guint64   offset)
{
  guint64 n = MAX (self->n_events, 1);
  gsize len = (gsize) (12 * n);
  void *mem;

  if (offset % (guint64) sysconf (_SC_PAGESIZE) != 0)
    return FALSE;
  mem = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t) offset);
  if (mem == MAP_FAILED)
    return FALSE;
  self->index_map = mem;
  self->index_map_len = len;
  self->index_guard_id = cpel_mapguard_register (mem, len);
  self->times = (gint64 *) mem;
  self->recs = (guint32 *) (self->index_map + 8 * n);
  return TRUE;
}

/* An unlinked file for an index of `size` bytes, in the user's cache
 * folder (on disk, where /tmp may be memory), else in the temporary one. */
static int
open_temp_file (guint64 size)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "cpel-viewer", NULL);
  const char *dirs[] = { dir, g_get_tmp_dir () };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], ".cpel-index-XXXXXX", NULL);
      int fd;

      if (i == 0 && g_mkdir_with_parents (dirs[i], 0700) != 0)
        continue;
      fd = g_mkstemp_full (path, O_RDWR | O_CLOEXEC, 0600);
      if (fd < 0)
        continue;
      g_unlink (path);
      if (ftruncate (fd, (off_t) size) == 0 && reserve (fd, 0, size))
        return fd;
      g_close (fd, NULL);
    }
  return -1;
}

#endif

void
cpel_index_store_alloc (CpelFile *self)
{
  guint64 n = MAX (self->n_events, 1);

  g_assert (self->times == NULL && self->index_home == CPEL_INDEX_HOME_NONE);

#ifdef G_OS_UNIX
  {
    g_autofree char *tmp = NULL;
    guint64 offset = 0;
    int fd = cpel_index_cache_begin (self, &offset, &tmp);

    if (fd >= 0)
      {
        if (reserve (fd, offset, 12 * n) && map_index (self, fd, offset))
          {
            self->index_home = CPEL_INDEX_HOME_CACHE_FILE;
            self->index_fd = fd;
            self->index_tmp = g_steal_pointer (&tmp);
            self->index_times_offset = offset;
            return;
          }
        g_close (fd, NULL);
        g_unlink (tmp);
      }
    if (12 * n >= cpel_index_store_file_min ())
      {
        fd = open_temp_file (12 * n);
        if (fd >= 0)
          {
            gboolean mapped = map_index (self, fd, 0);

            g_close (fd, NULL);   /* the mapping keeps the file */
            if (mapped)
              {
                self->index_home = CPEL_INDEX_HOME_TEMP_FILE;
                return;
              }
          }
      }
  }
#endif
  self->times = cpel_index_alloc (sizeof (gint64) * n);
  self->recs = cpel_index_alloc (sizeof (guint32) * n);
  self->index_home = CPEL_INDEX_HOME_MEMORY;
}

void
cpel_index_store_free (CpelFile *self)
{
  guint64 n = MAX (self->n_events, 1);

  switch ((CpelIndexHome) self->index_home)
    {
    case CPEL_INDEX_HOME_MEMORY:
      cpel_index_free (self->times, sizeof (gint64) * n);
      cpel_index_free (self->recs, sizeof (guint32) * n);
      break;
    case CPEL_INDEX_HOME_TEMP_FILE:
    case CPEL_INDEX_HOME_CACHE_FILE:
#ifdef G_OS_UNIX
      cpel_mapguard_unregister (self->index_guard_id);
      munmap (self->index_map, self->index_map_len);
      if (self->index_fd >= 0)
        {
          /* not stored: not a cache file */
          g_close (self->index_fd, NULL);
          g_unlink (self->index_tmp);
        }
#endif
      break;
    case CPEL_INDEX_HOME_NONE:
    default:
      break;
    }
  self->index_guard_id = 0;
  self->index_map = NULL;
  self->index_map_len = 0;
  self->index_fd = -1;
  g_clear_pointer (&self->index_tmp, g_free);
  self->index_home = CPEL_INDEX_HOME_NONE;
  self->times = NULL;
  self->recs = NULL;
}

void
cpel_index_store_drop (const CpelFile *self,
                       const void     *from,
                       const void     *to)
{
  /* never memory: giving back anonymous pages would zero them */
  if (self->index_map != NULL
      && (const guint8 *) from >= self->index_map
      && (const guint8 *) to <= self->index_map + self->index_map_len)
    cpel_mapping_drop_pages (from, to);
  /* an index read from the cache file: a private read-only mapping, never
   * written, its pages come back from the page cache */
  else if (self->cache_mapped != NULL)
    {
      const guint8 *map = (const guint8 *) g_mapped_file_get_contents (self->cache_mapped);
      gsize len = g_mapped_file_get_length (self->cache_mapped);

      if (map != NULL && (const guint8 *) from >= map && (const guint8 *) to <= map + len)
        cpel_mapping_drop_pages (from, to);
    }
}

void
cpel_file_release_index_pages (CpelFile *self)
{
  g_return_if_fail (CPEL_IS_FILE (self));

  if (self->times == NULL || self->n_events == 0)
    return;
  cpel_index_store_drop (self, self->times, self->times + self->n_events);
  cpel_index_store_drop (self, self->recs, self->recs + self->n_events);
}
