/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache.h — the persisted per-track index
 *
 * Building the per-track index reads every event; a cache file keeps it
 * so that opening the same file again only maps it.  One cache file per
 * captured file (and clock override), in the XDG cache dir
 * ($XDG_CACHE_HOME/cpel-viewer/index), keyed by the file's identity:
 * device, inode, size, mtime and a SHA-256 of its header and of sampled
 * blocks.  Written atomically (a temporary file renamed over the old one),
 * versioned, and verified on every load like any other untrusted input:
 * every count, offset and length is checked against the file just parsed,
 * the per-track times must be in order and in range, every record index in
 * range, and checksums cover all of it.  A cache that fails any check is
 * ignored and rebuilt.  It also holds the overview's bucket counts and the
 * level-of-detail summaries, so that a viewer's first frame reads no event
 * time; the viewer may check the 12 bytes per event after that frame
 * (CpelLoadOptions.cache_verify_later).  A cache dir that cannot be created, is read-only or
 * full just means no cache.  The total size is capped: least recently used
 * cache files go first.
 *
 * Turned on per load with CpelLoadOptions.use_cache (off by default).
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Default cap on the cache dir's total size. */
#define CPEL_INDEX_CACHE_DEFAULT_MAX_BYTES  (G_GUINT64_CONSTANT (4) << 30)
/* Files with fewer events are not cached by default: they index in less
 * time than it takes to verify a cache. */
#define CPEL_INDEX_CACHE_DEFAULT_MIN_EVENTS (G_GUINT64_CONSTANT (1) << 20)

typedef enum
{
  CPEL_INDEX_CACHE_OFF = 0,      /* not asked for, or not a CPEL file opened by path */
  CPEL_INDEX_CACHE_USED,         /* the index was read from the cache */
  CPEL_INDEX_CACHE_MISSING,      /* no cache file for this file */
  CPEL_INDEX_CACHE_STALE,        /* one for another version of the file: rebuilt */
  CPEL_INDEX_CACHE_OTHER_VERSION,/* written by another version of the program: rebuilt */
  CPEL_INDEX_CACHE_TRUNCATED,    /* shorter than its header says: rebuilt */
  CPEL_INDEX_CACHE_DAMAGED,      /* a check or a checksum failed: rebuilt */
} CpelIndexCacheLoad;

typedef enum
{
  CPEL_INDEX_CACHE_NOT_WRITTEN = 0, /* not needed (used, off, too small, no index yet) */
  CPEL_INDEX_CACHE_WRITTEN,
  CPEL_INDEX_CACHE_WRITE_FAILED,    /* dir not creatable / writable, disk full, over the cap */
} CpelIndexCacheWrite;

/* $XDG_CACHE_HOME/cpel-viewer/index */
char      *cpel_index_cache_get_default_dir (void);

/* The cache files in `dir` (NULL: the default) and their total size. */
gboolean   cpel_index_cache_get_usage (const char  *dir,
                                       guint       *n_files,
                                       guint64     *bytes,
                                       GError     **error);
/* Removes every cache file (and leftover temporary file) in `dir` (NULL:
 * the default).  A dir that does not exist is empty: TRUE. */
gboolean   cpel_index_cache_clear     (const char  *dir,
                                       guint       *n_removed,
                                       guint64     *bytes_removed,
                                       GError     **error);
/* Removes the temporary files in `dir` (NULL: the default) of writers that
 * are gone: no lock on the file (a writer holds one while it writes), and
 * the pid in its name not running or the file older than an hour.  The
 * loader does it whenever a load opens the cache dir.  Returns how many. */
guint      cpel_index_cache_remove_stale_tmps (const char *dir);
/* Removes least recently used cache files until the total is <= max_bytes. */
void       cpel_index_cache_trim      (const char  *dir,
                                       guint64      max_bytes);

/* From now on, the cache writes under way and to come finish at their
 * caller's priority rather than the lowest: someone waits for them (an
 * application quitting).  For the whole process; not undone. */
void       cpel_index_cache_hurry     (void);

G_END_DECLS
