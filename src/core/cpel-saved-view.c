/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-view.c — one saved view of a capture, and its conversions to
 * a loaded file's slots and types */
#include "cpel-saved-view.h"

#include <string.h>

#include "cpel-file-private.h"

G_DEFINE_BOXED_TYPE (CpelSavedView, cpel_saved_view, cpel_saved_view_copy, cpel_saved_view_free)

static GArray *
id_array (void)
{
  return g_array_new (FALSE, FALSE, sizeof (guint32));
}

CpelSavedView *
cpel_saved_view_new (const char *name)
{
  CpelSavedView *view;

  g_return_val_if_fail (name != NULL, NULL);

  view = g_new0 (CpelSavedView, 1);
  view->name = g_strdup (name);
  view->t1 = 1;
  view->track_order = id_array ();
  view->hidden_tracks = id_array ();
  view->hidden_codes = id_array ();
  return view;
}

static GArray *
copy_ids (GArray *ids)
{
  GArray *copy = id_array ();

  if (ids != NULL)
    g_array_append_vals (copy, ids->data, ids->len);
  return copy;
}

CpelSavedView *
cpel_saved_view_copy (const CpelSavedView *view)
{
  CpelSavedView *copy;

  g_return_val_if_fail (view != NULL, NULL);

  copy = g_memdup2 (view, sizeof *view);
  copy->name = g_strdup (view->name);
  copy->track_order = copy_ids (view->track_order);
  copy->hidden_tracks = copy_ids (view->hidden_tracks);
  copy->hidden_codes = copy_ids (view->hidden_codes);
  return copy;
}

void
cpel_saved_view_free (CpelSavedView *view)
{
  if (view == NULL)
    return;
  g_free (view->name);
  g_clear_pointer (&view->track_order, g_array_unref);
  g_clear_pointer (&view->hidden_tracks, g_array_unref);
  g_clear_pointer (&view->hidden_codes, g_array_unref);
  g_free (view);
}

static gboolean
ids_equal (GArray *a,
           GArray *b)
{
  guint na = a ? a->len : 0, nb = b ? b->len : 0;

  return na == nb && (na == 0 || memcmp (a->data, b->data, na * sizeof (guint32)) == 0);
}

gboolean
cpel_saved_view_equal (const CpelSavedView *a,
                       const CpelSavedView *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return g_strcmp0 (a->name, b->name) == 0
         && a->t0 == b->t0 && a->t1 == b->t1
         && ids_equal (a->track_order, b->track_order)
         && ids_equal (a->hidden_tracks, b->hidden_tracks)
         && ids_equal (a->hidden_codes, b->hidden_codes)
         && a->has_selection == b->has_selection
         && (!a->has_selection
             || (a->selected_track == b->selected_track
                 && a->selected_time == b->selected_time
                 && a->selected_file_index == b->selected_file_index))
         && a->scroll_y == b->scroll_y
         && a->has_alignment == b->has_alignment
         && (!a->has_alignment
             || (a->compare_offset == b->compare_offset
                 && a->compare_origin == b->compare_origin));
}

void
cpel_saved_view_set_rows (CpelSavedView *view,
                          CpelFile      *file,
                          const guint   *slots,
                          guint          n_slots)
{
  g_return_if_fail (view != NULL);
  g_return_if_fail (CPEL_IS_FILE (file));

  g_array_set_size (view->track_order, 0);
  for (guint i = 0; slots != NULL && i < n_slots; i++)
    {
      guint32 id;

      g_return_if_fail (slots[i] < file->n_tracks);
      id = file->tracks[slots[i]].id;
      g_array_append_val (view->track_order, id);
    }
}

guint *
cpel_saved_view_get_rows (const CpelSavedView *view,
                          CpelFile            *file,
                          guint               *n_slots)
{
  guint *slots;
  guint n = 0;

  g_return_val_if_fail (view != NULL, NULL);
  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (n_slots != NULL, NULL);

  if (view->track_order == NULL || view->track_order->len == 0)
    {
      *n_slots = file->n_tracks;
      return NULL;
    }
  slots = g_new (guint, view->track_order->len);
  for (guint i = 0; i < view->track_order->len; i++)
    if (cpel_file_lookup_track (file, g_array_index (view->track_order, guint32, i), &slots[n]))
      n++;
  *n_slots = n;
  return slots;
}

void
cpel_saved_view_set_hidden_types (CpelSavedView *view,
                                  CpelFile      *file,
                                  const guint8  *hidden_types)
{
  g_return_if_fail (view != NULL);
  g_return_if_fail (CPEL_IS_FILE (file));

  g_array_set_size (view->hidden_codes, 0);
  for (guint type = 0; hidden_types != NULL && type < file->n_types; type++)
    if (hidden_types[type])
      g_array_append_val (view->hidden_codes, file->types[type].code);
}

guint8 *
cpel_saved_view_get_hidden_types (const CpelSavedView *view,
                                  CpelFile            *file)
{
  guint8 *hidden;

  g_return_val_if_fail (view != NULL, NULL);
  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);

  hidden = g_malloc0 (MAX (file->n_types, 1));
  for (guint i = 0; view->hidden_codes != NULL && i < view->hidden_codes->len; i++)
    {
      guint type;

      if (cpel_file_lookup_type (file, g_array_index (view->hidden_codes, guint32, i), &type))
        hidden[type] = 1;
    }
  return hidden;
}

gboolean
cpel_saved_view_find_selection (const CpelSavedView *view,
                                CpelFile            *file,
                                guint               *slot,
                                guint64             *index)
{
  const CpelTrack *track;
  guint s;

  g_return_val_if_fail (view != NULL, FALSE);
  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);

  if (!view->has_selection || !cpel_file_lookup_track (file, view->selected_track, &s))
    return FALSE;
  track = &file->tracks[s];
  for (guint64 i = cpel_file_track_lower_bound (file, s, view->selected_time);
       i < track->count && file->times[track->first + i] == view->selected_time; i++)
    if (file->recs[track->first + i] == view->selected_file_index)
      {
        if (slot)
          *slot = s;
        if (index)
          *index = i;
        return TRUE;
      }
  return FALSE;
}
