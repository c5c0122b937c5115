/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache-dir.c — the cache dir as a whole: what it holds
 * (usage), emptying it (clear), keeping it under its cap (trim: the
 * least recently used cache files first) and removing the temporary files
 * of writers that died (each writer holds a lock on its temporary file, whose
 * name carries its pid).  The cache files themselves: cpel-index-cache.c
 * (the index) and cpel-span-cache.c (the derived spans).
 */
#include <glib/gstdio.h>
#include <errno.h>

#include "cpel-index-cache-private.h"

#ifdef G_OS_UNIX
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

typedef struct
{
  char    *path;
  guint64  size;
  gint64   mtime;
} Entry;

static void
entry_clear (gpointer p)
{
  g_free (((Entry *) p)->path);
}

static gboolean
is_tmp_name (const char *name)
{
  return g_str_has_prefix (name, CPEL_INDEX_CACHE_TMP_PREFIX)
         && g_str_has_suffix (name, CPEL_INDEX_CACHE_TMP_SUFFIX);
}

/* The writer's pid in a temporary file's name (".cpelidx-PID-XXXXXX.tmp"),
 * or 0 (a name from before pids were in it). */
static guint64
tmp_name_pid (const char *name)
{
  const char *p = name + strlen (CPEL_INDEX_CACHE_TMP_PREFIX);
  char *end = NULL;
  guint64 pid;

  if (!g_ascii_isdigit (*p))
    return 0;
  pid = g_ascii_strtoull (p, &end, 10);
  return end != NULL && *end == '-' && pid <= G_MAXINT ? pid : 0;
}

/* Whether the temporary file `path` (named `name`, modified at `mtime`) was
 * left by a writer that is gone: nobody holds its lock (its writer holds one
 * as long as the file is open) and the process its name names is not
 * running, or it is older than CPEL_INDEX_CACHE_TMP_MAX_AGE_S (a pid used
 * again, another pid namespace, a name without a pid). */
static gboolean
tmp_is_stale (const char *path,
              const char *name,
              gint64      mtime,
              gint64      now)
{
#ifdef G_OS_UNIX
  guint64 pid;
  gboolean locked;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

  if (fd < 0)
    return FALSE;
  locked = flock (fd, LOCK_EX | LOCK_NB) != 0;
  close (fd);   /* our lock, if we got it, goes with it */
  if (locked)
    return FALSE;
  if (now - mtime > CPEL_INDEX_CACHE_TMP_MAX_AGE_S)
    return TRUE;
  pid = tmp_name_pid (name);
  return pid != 0 && kill ((pid_t) pid, 0) != 0 && errno == ESRCH;
#else
  return now - mtime > CPEL_INDEX_CACHE_TMP_MAX_AGE_S;
#endif
}

/* The cache files (and, with `tmps`, the temporary files) in dir. */
static GArray *
list_dir (const char  *dir,
          gboolean     tmps,
          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GDir) d = g_dir_open (dir, 0, &local_error);
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  const char *name;

  g_array_set_clear_func (entries, entry_clear);
  if (d == NULL)
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return entries;
      g_propagate_error (error, g_steal_pointer (&local_error));
      g_array_unref (entries);
      return NULL;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      GStatBuf st;
      Entry e;

      if (!g_str_has_suffix (name, CPEL_INDEX_CACHE_SUFFIX)
          && !g_str_has_suffix (name, CPEL_SPAN_CACHE_SUFFIX) && !(tmps && is_tmp_name (name)))
        continue;
      e.path = g_build_filename (dir, name, NULL);
      if (g_lstat (e.path, &st) != 0 || !S_ISREG (st.st_mode))
        {
          g_free (e.path);
          continue;
        }
      e.size = (guint64) st.st_size;
      e.mtime = (gint64) st.st_mtime;
      g_array_append_val (entries, e);
    }
  return entries;
}

gboolean
cpel_index_cache_get_usage (const char  *dir,
                            guint       *n_files,
                            guint64     *bytes,
                            GError     **error)
{
  g_autofree char *def = dir ? NULL : cpel_index_cache_get_default_dir ();
  g_autoptr(GArray) entries = list_dir (dir ? dir : def, FALSE, error);
  guint64 total = 0;

  if (entries == NULL)
    return FALSE;
  for (guint i = 0; i < entries->len; i++)
    total += g_array_index (entries, Entry, i).size;
  if (n_files)
    *n_files = entries->len;
  if (bytes)
    *bytes = total;
  return TRUE;
}

gboolean
cpel_index_cache_clear (const char  *dir,
                        guint       *n_removed,
                        guint64     *bytes_removed,
                        GError     **error)
{
  g_autofree char *def = dir ? NULL : cpel_index_cache_get_default_dir ();
  g_autoptr(GArray) entries = list_dir (dir ? dir : def, TRUE, error);
  guint n = 0;
  guint64 total = 0;

  if (entries == NULL)
    return FALSE;
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);

      if (g_unlink (e->path) != 0)
        {
          int saved = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       "%s: %s", e->path, g_strerror (saved));
          return FALSE;
        }
      n++;
      total += e->size;
    }
  if (n_removed)
    *n_removed = n;
  if (bytes_removed)
    *bytes_removed = total;
  return TRUE;
}

guint
cpel_index_cache_remove_stale_tmps (const char *dir)
{
  g_autofree char *def = dir ? NULL : cpel_index_cache_get_default_dir ();
  g_autoptr(GDir) d = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  const char *name;
  guint n = 0;

  if (dir == NULL)
    dir = def;
  d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return 0;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      GStatBuf st;

      if (!is_tmp_name (name))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (g_lstat (path, &st) == 0 && S_ISREG (st.st_mode)
          && tmp_is_stale (path, name, (gint64) st.st_mtime, now) && g_unlink (path) == 0)
        n++;
    }
  return n;
}

static int
compare_mtime (gconstpointer a,
               gconstpointer b)
{
  const Entry *x = a, *y = b;

  return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

void
cpel_index_cache_trim (const char *dir,
                       guint64     max_bytes)
{
  g_autofree char *def = dir ? NULL : cpel_index_cache_get_default_dir ();
  g_autoptr(GArray) entries = list_dir (dir ? dir : def, TRUE, NULL);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  guint64 total = 0;

  if (entries == NULL)
    return;
  /* temporary files of writers that died */
  for (guint i = 0; i < entries->len; )
    {
      Entry *e = &g_array_index (entries, Entry, i);
      g_autofree char *base = g_path_get_basename (e->path);

      if (is_tmp_name (base))
        {
          if (tmp_is_stale (e->path, base, e->mtime, now))
            g_unlink (e->path);
          g_array_remove_index_fast (entries, i);
          continue;
        }
      total += e->size;
      i++;
    }
  g_array_sort (entries, compare_mtime);
  for (guint i = 0; i < entries->len && total > max_bytes; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);

      if (g_unlink (e->path) == 0)
        total -= e->size;
    }
}
