/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache-dir.c — the cache dir as a whole: what it holds
 * (usage), emptying it (clear) and keeping it under its cap (trim: the
 * least recently used cache files first, temporary files of writers that
 * died).  The cache files themselves: cpel-index-cache.c.
 */
#include <glib/gstdio.h>
#include <errno.h>

#include "cpel-index-cache-private.h"

#ifdef G_OS_UNIX
#include <sys/stat.h>
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
  return g_str_has_prefix (name, CPEL_INDEX_CACHE_TMP_PREFIX) && g_str_has_suffix (name, CPEL_INDEX_CACHE_TMP_SUFFIX);
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

      if (!g_str_has_suffix (name, CPEL_INDEX_CACHE_SUFFIX) && !(tmps && is_tmp_name (name)))
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
          if (now - e->mtime > CPEL_INDEX_CACHE_TMP_MAX_AGE_S)
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
