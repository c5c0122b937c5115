/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-density-cache.c — density counts of the last zoom level, per track
 *
 * Redraws at the same zoom (cursor moves, selection, scrolling, hover) reuse
 * the column counts of the previous frame instead of searching the times
 * again.  The cache hangs off the CpelFile (its render cache slot), holds the rows of
 * one zoom level and is emptied when the level (t0, t1, columns, hidden
 * types) changes. */
#include <string.h>

#include "cpel-render-private.h"

#define MAX_ENTRIES 512

typedef struct
{
  float *counts;
  float  max;
} Entry;

typedef struct
{
  GMutex      lock;
  GHashTable *entries;   /* slot -> Entry */
  gint64      t0;
  gint64      t1;
  guint       n_columns;
  guint64     hidden_hash;
} Cache;

static void
entry_free (gpointer data)
{
  Entry *e = data;
  g_free (e->counts);
  g_free (e);
}

static void
cache_free (gpointer data)
{
  Cache *c = data;
  g_hash_table_unref (c->entries);
  g_mutex_clear (&c->lock);
  g_free (c);
}

static gpointer
cache_new (void)
{
  Cache *c = g_new0 (Cache, 1);

  g_mutex_init (&c->lock);
  c->entries = g_hash_table_new_full (NULL, NULL, NULL, entry_free);
  return c;
}

static Cache *
get_cache (CpelFile *file)
{
  return cpel_file_ensure_render_cache (file, cache_new, cache_free);
}

guint64
cpel_render_hidden_hash (const CpelView *view)
{
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325);
  guint n;

  if (view->hidden_types == NULL || view->file == NULL)
    return 0;
  n = cpel_file_get_n_types (view->file);
  for (guint i = 0; i < n; i++)
    if (view->hidden_types[i])
      {
        h ^= i;
        h *= G_GUINT64_CONSTANT (0x100000001b3);
      }
  return h;
}

/* Caller holds c->lock. */
static gboolean
same_level (Cache *c, const CpelRenderCtx *ctx, guint64 hidden_hash)
{
  return c->t0 == ctx->view->t0 && c->t1 == ctx->view->t1 && c->n_columns == ctx->n_columns
         && c->hidden_hash == hidden_hash;
}

gboolean
cpel_render_density_cache_get (CpelRenderCtx *ctx, guint slot, guint64 hidden_hash,
                               float *counts, float *max)
{
  Cache *c = get_cache (ctx->file);
  gboolean found = FALSE;

  g_mutex_lock (&c->lock);
  if (same_level (c, ctx, hidden_hash))
    {
      Entry *e = g_hash_table_lookup (c->entries, GUINT_TO_POINTER (slot + 1));
      if (e != NULL)
        {
          memcpy (counts, e->counts, sizeof (float) * ctx->n_columns);
          *max = e->max;
          found = TRUE;
        }
    }
  g_mutex_unlock (&c->lock);
  return found;
}

void
cpel_render_density_cache_put (CpelRenderCtx *ctx, guint slot, guint64 hidden_hash,
                               const float *counts, float max)
{
  Cache *c = get_cache (ctx->file);
  Entry *e;

  g_mutex_lock (&c->lock);
  if (!same_level (c, ctx, hidden_hash) || g_hash_table_size (c->entries) >= MAX_ENTRIES)
    {
      g_hash_table_remove_all (c->entries);
      c->t0 = ctx->view->t0;
      c->t1 = ctx->view->t1;
      c->n_columns = ctx->n_columns;
      c->hidden_hash = hidden_hash;
    }
  e = g_new (Entry, 1);
  e->counts = g_memdup2 (counts, sizeof (float) * ctx->n_columns);
  e->max = max;
  g_hash_table_replace (c->entries, GUINT_TO_POINTER (slot + 1), e);
  g_mutex_unlock (&c->lock);
}
