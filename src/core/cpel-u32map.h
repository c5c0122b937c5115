/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-u32map.h — a small map from 32-bit keys to 32-bit values
 *
 * Keys below the map's direct size (CPEL_U32MAP_DIRECT unless asked for
 * more) live in a direct table (the usual track ids and event codes); others
 * in an open-addressing hash.  Used on hot paths of
 * the loader and search where GHashTable's per-lookup cost shows.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CPEL_U32MAP_DIRECT 4096u
#define CPEL_U32MAP_NONE   G_MAXUINT32

typedef struct
{
  guint32 *direct;                       /* n_direct; CPEL_U32MAP_NONE = absent */
  guint32  n_direct;
  guint32 *keys;                         /* hash part; capacity a power of 2 */
  guint32 *values;
  guint8  *used;
  gsize    capacity;
  gsize    n_hashed;
  gsize    n_items;
} CpelU32Map;

CpelU32Map *cpel_u32map_new     (void);
/* With keys below n_direct in the direct table (4 bytes each). */
CpelU32Map *cpel_u32map_new_direct (guint32 n_direct);
void        cpel_u32map_free    (CpelU32Map *map);
/* The value of key, or CPEL_U32MAP_NONE. */
guint32     cpel_u32map_lookup  (const CpelU32Map *map, guint32 key);
/* Insert (or replace). value must not be CPEL_U32MAP_NONE. */
void        cpel_u32map_insert  (CpelU32Map *map, guint32 key, guint32 value);
gsize       cpel_u32map_size    (const CpelU32Map *map);
/* Calls func for every item (any order). */
void        cpel_u32map_foreach (const CpelU32Map *map,
                                 void (*func) (guint32 key, guint32 value, gpointer data),
                                 gpointer data);

static inline guint32
cpel_u32map_hash (guint32 key)
{
  return key * 0x9E3779B1u;
}

static inline guint32
cpel_u32map_get (const CpelU32Map *map, guint32 key)
{
  gsize mask, i;

  if (G_LIKELY (key < map->n_direct))
    return map->direct[key];
  if (map->capacity == 0)
    return CPEL_U32MAP_NONE;
  mask = map->capacity - 1;
  for (i = cpel_u32map_hash (key) & mask; map->used[i]; i = (i + 1) & mask)
    if (map->keys[i] == key)
      return map->values[i];
  return CPEL_U32MAP_NONE;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelU32Map, cpel_u32map_free)

G_END_DECLS
