/* SPDX-License-Identifier: Apache-2.0 */
#include "cpel-u32map.h"

#include <string.h>

CpelU32Map *
cpel_u32map_new_direct (guint32 n_direct)
{
  CpelU32Map *map = g_new0 (CpelU32Map, 1);

  map->n_direct = n_direct;
  map->direct = g_new (guint32, MAX (n_direct, 1));
  memset (map->direct, 0xff, sizeof (guint32) * n_direct);
  return map;
}

CpelU32Map *
cpel_u32map_new (void)
{
  return cpel_u32map_new_direct (CPEL_U32MAP_DIRECT);
}

void
cpel_u32map_free (CpelU32Map *map)
{
  if (map == NULL)
    return;
  g_free (map->keys);
  g_free (map->values);
  g_free (map->used);
  g_free (map->direct);
  g_free (map);
}

guint32
cpel_u32map_lookup (const CpelU32Map *map, guint32 key)
{
  return cpel_u32map_get (map, key);
}

static void
grow (CpelU32Map *map)
{
  gsize old_capacity = map->capacity;
  guint32 *old_keys = map->keys;
  guint32 *old_values = map->values;
  guint8 *old_used = map->used;
  gsize new_capacity = old_capacity ? old_capacity * 2 : 64;
  gsize mask = new_capacity - 1;

  map->keys = g_new (guint32, new_capacity);
  map->values = g_new (guint32, new_capacity);
  map->used = g_new0 (guint8, new_capacity);
  map->capacity = new_capacity;

  for (gsize j = 0; j < old_capacity; j++)
    {
      gsize i;

      if (!old_used[j])
        continue;
      for (i = cpel_u32map_hash (old_keys[j]) & mask; map->used[i]; i = (i + 1) & mask)
        ;
      map->used[i] = 1;
      map->keys[i] = old_keys[j];
      map->values[i] = old_values[j];
    }
  g_free (old_keys);
  g_free (old_values);
  g_free (old_used);
}

void
cpel_u32map_insert (CpelU32Map *map, guint32 key, guint32 value)
{
  gsize mask, i;

  g_assert (value != CPEL_U32MAP_NONE);

  if (key < map->n_direct)
    {
      if (map->direct[key] == CPEL_U32MAP_NONE)
        map->n_items++;
      map->direct[key] = value;
      return;
    }
  if ((map->n_hashed + 1) * 2 > map->capacity)
    grow (map);
  mask = map->capacity - 1;
  for (i = cpel_u32map_hash (key) & mask; map->used[i]; i = (i + 1) & mask)
    if (map->keys[i] == key)
      {
        map->values[i] = value;
        return;
      }
  map->used[i] = 1;
  map->keys[i] = key;
  map->values[i] = value;
  map->n_hashed++;
  map->n_items++;
}

gsize
cpel_u32map_size (const CpelU32Map *map)
{
  return map->n_items;
}

void
cpel_u32map_foreach (const CpelU32Map *map,
                     void (*func) (guint32 key, guint32 value, gpointer data),
                     gpointer data)
{
  for (guint32 k = 0; k < map->n_direct; k++)
    if (map->direct[k] != CPEL_U32MAP_NONE)
      func (k, map->direct[k], data);
  for (gsize i = 0; i < map->capacity; i++)
    if (map->used[i])
      func (map->keys[i], map->values[i], data);
}
