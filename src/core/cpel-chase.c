/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-chase.c — g2's "chase": the tracks an event code or datum runs through
 *
 * Each track is scanned until its first match, so a code present on every
 * track costs a few reads per track; a code or datum found nowhere costs one
 * pass over the events.  A code absent from the file costs nothing.
 */
#include "cpel-chase.h"

#include "cpel-file-private.h"

#define CANCEL_CHECK_MASK 0xffff
#define PREFETCH_AHEAD    32

/* The array's data, never NULL (an empty result is a valid array). */
static guint *
steal_slots (GArray *array)
{
  guint *data;

  if (array->len == 0)
    {
      g_array_unref (array);
      return g_new0 (guint, 1);
    }
  data = (guint *) (void *) array->data;
  g_array_free (array, FALSE);
  return data;
}

/* TRUE when the track has a matching event; cancelled set on cancellation. */
static gboolean
track_matches (CpelFile             *file,
               guint                 slot,
               const CpelChaseQuery *q,
               GCancellable         *cancellable,
               gboolean             *cancelled)
{
  const CpelTrack *track = &file->tracks[slot];
  const guint32 *recs = file->recs + track->first;

  if (!q->match_code && !q->match_datum)
    return track->count > 0;
  for (guint64 i = 0; i < track->count; i++)
    {
      const guint8 *rec = cpel_file_record (file, recs[i], NULL);

      /* records are visited in time order, scattered over the mapping */
      if (G_LIKELY (i + PREFETCH_AHEAD < track->count))
        __builtin_prefetch (cpel_file_record (file, recs[i + PREFETCH_AHEAD], NULL) + 12);

      if (G_UNLIKELY ((i & CANCEL_CHECK_MASK) == CANCEL_CHECK_MASK)
          && g_cancellable_is_cancelled (cancellable))
        {
          *cancelled = TRUE;
          return FALSE;
        }
      if (q->match_code && cpel_file_read32 (file, rec + 12) != q->code)
        continue;
      if (q->match_datum && cpel_file_read32 (file, rec + 16) != q->datum)
        continue;
      return TRUE;
    }
  return FALSE;
}

guint *
cpel_chase_find_tracks (CpelFile              *file,
                        const CpelChaseQuery  *query,
                        guint                 *n_slots,
                        GCancellable          *cancellable,
                        GError               **error)
{
  g_autoptr(GArray) slots = NULL;
  guint type;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (n_slots != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  *n_slots = 0;
  slots = g_array_new (FALSE, FALSE, sizeof (guint));
  if (query->match_code
      && (!cpel_file_lookup_type (file, query->code, &type) || file->types[type].count == 0))
    return steal_slots (g_steal_pointer (&slots));

  for (guint slot = 0; slot < file->n_tracks; slot++)
    {
      gboolean cancelled = FALSE;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (track_matches (file, slot, query, cancellable, &cancelled))
        g_array_append_val (slots, slot);
      if (cancelled)
        {
          g_cancellable_set_error_if_cancelled (cancellable, error);
          return NULL;
        }
    }
  *n_slots = slots->len;
  return steal_slots (g_steal_pointer (&slots));
}

guint *
cpel_chase_tracks_with_code (CpelFile *file,
                             guint32   code,
                             guint    *n_slots)
{
  CpelChaseQuery q = { .match_code = TRUE, .code = code };

  return cpel_chase_find_tracks (file, &q, n_slots, NULL, NULL);
}

guint *
cpel_chase_tracks_with_datum (CpelFile *file,
                              guint32   datum,
                              guint    *n_slots)
{
  CpelChaseQuery q = { .match_datum = TRUE, .datum = datum };

  return cpel_chase_find_tracks (file, &q, n_slots, NULL, NULL);
}

guint *
cpel_chase_tracks_with_event (CpelFile *file,
                              guint32   code,
                              guint32   datum,
                              guint    *n_slots)
{
  CpelChaseQuery q = { .match_code = TRUE, .code = code, .match_datum = TRUE, .datum = datum };

  return cpel_chase_find_tracks (file, &q, n_slots, NULL, NULL);
}

guint *
cpel_chase_order_to_top (const guint *order,
                         guint        n_order,
                         const guint *slots,
                         guint        n_slots,
                         guint       *n_out)
{
  g_autoptr(GHashTable) top = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) out = NULL;

  g_return_val_if_fail (n_out != NULL, NULL);
  g_return_val_if_fail (slots != NULL || n_slots == 0, NULL);

  out = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_order + n_slots);
  for (guint i = 0; i < n_slots; i++)
    if (g_hash_table_add (top, GUINT_TO_POINTER (slots[i] + 1)))
      g_array_append_val (out, slots[i]);
  for (guint i = 0; i < n_order; i++)
    {
      guint slot = order ? order[i] : i;

      if (!g_hash_table_contains (top, GUINT_TO_POINTER (slot + 1)))
        g_array_append_val (out, slot);
    }
  *n_out = out->len;
  return steal_slots (g_steal_pointer (&out));
}

guint *
cpel_chase_order_pin (const guint *order,
                      guint        n_order,
                      guint        slot,
                      guint       *n_out)
{
  return cpel_chase_order_to_top (order, n_order, &slot, 1, n_out);
}
