/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-access.c — reading a loaded CpelFile: header, tracks, types, labels */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "cpel-file-private.h"
#include "cpel-mapguard.h"

const char *
cpel_file_get_path (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  return self->path;
}

guint64
cpel_file_get_size (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->size;
}

guint
cpel_file_get_version (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->version;
}

gboolean
cpel_file_is_little_endian (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return self->little_endian;
}

guint32
cpel_file_get_date (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->date;
}

guint
cpel_file_get_n_sections (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->sections->len;
}

const CpelSectionInfo *
cpel_file_get_section (CpelFile *self,
                       guint     i)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  g_return_val_if_fail (i < self->sections->len, NULL);
  return &g_array_index (self->sections, CpelSectionInfo, i);
}

const char * const *
cpel_file_get_warnings (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  return (const char * const *) self->warnings->pdata;
}

guint64
cpel_file_get_n_events (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->n_events;
}

gint64
cpel_file_get_duration (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->duration;
}

gint64
cpel_file_get_base_ns (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->base_ns;
}

guint
cpel_file_get_n_tracks (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->n_tracks;
}

guint32
cpel_file_get_track_id (CpelFile *self,
                        guint     slot)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (slot < self->n_tracks, 0);
  return self->tracks[slot].id;
}

const char *
cpel_file_get_track_label (CpelFile *self,
                           guint     slot)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  g_return_val_if_fail (slot < self->n_tracks, NULL);
  return self->tracks[slot].label;
}

gboolean
cpel_file_lookup_track (CpelFile *self,
                        guint32   id,
                        guint    *slot)
{
  guint32 s;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  s = cpel_u32map_get (self->track_map, id);
  if (s == CPEL_U32MAP_NONE)
    return FALSE;
  if (slot)
    *slot = s;
  return TRUE;
}

guint64
cpel_file_get_track_n_events (CpelFile *self,
                              guint     slot)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (slot < self->n_tracks, 0);
  return self->tracks[slot].count;
}

const gint64 *
cpel_file_get_track_times (CpelFile *self,
                           guint     slot,
                           guint64  *n_events)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  g_return_val_if_fail (slot < self->n_tracks, NULL);
  if (n_events)
    *n_events = self->tracks[slot].count;
  return self->times + self->tracks[slot].first;
}

static guint64
lower_bound (const gint64 *t,
             guint64       n,
             gint64        value)
{
  guint64 lo = 0, hi = n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (t[mid] < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint64
cpel_file_track_lower_bound (CpelFile *self,
                             guint     slot,
                             gint64    t)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (slot < self->n_tracks, 0);
  return lower_bound (self->times + self->tracks[slot].first, self->tracks[slot].count, t);
}

guint64
cpel_file_track_count_range (CpelFile *self,
                             guint     slot,
                             gint64    t0,
                             gint64    t1)
{
  const gint64 *t;
  guint64 n, a, b;

  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (slot < self->n_tracks, 0);
  if (t1 <= t0)
    return 0;
  t = self->times + self->tracks[slot].first;
  n = self->tracks[slot].count;
  a = lower_bound (t, n, t0);
  b = a + lower_bound (t + a, n - a, t1);
  return b - a;
}

void
cpel_file_get_track_event (CpelFile  *self,
                           guint      slot,
                           guint64    index,
                           CpelEvent *event)
{
  const guint8 *rec;
  guint64 pos;

  g_return_if_fail (CPEL_IS_FILE (self));
  g_return_if_fail (slot < self->n_tracks);
  g_return_if_fail (index < self->tracks[slot].count);
  g_return_if_fail (event != NULL);

  pos = self->tracks[slot].first + index;
  event->time_ns = self->times[pos];
  event->file_index = self->recs[pos];
  rec = cpel_file_record (self, event->file_index, &event->section);
  event->track_id = cpel_file_read32 (self, rec + 8);
  event->code = cpel_file_read32 (self, rec + 12);
  event->datum = cpel_file_read32 (self, rec + 16);
  event->track_slot = slot;
  /* CPEL_U32MAP_NONE (>= n_types) only when the mapping was damaged */
  event->type = cpel_u32map_get (self->type_map, event->code);
}

guint32
cpel_file_get_track_event_code (CpelFile *self,
                                guint     slot,
                                guint64   index)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (slot < self->n_tracks && index < self->tracks[slot].count, 0);
  return cpel_file_read32 (self, cpel_file_record (self, self->recs[self->tracks[slot].first + index], NULL) + 12);
}

guint32
cpel_file_get_track_event_datum (CpelFile *self,
                                 guint     slot,
                                 guint64   index)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (slot < self->n_tracks && index < self->tracks[slot].count, 0);
  return cpel_file_read32 (self, cpel_file_record (self, self->recs[self->tracks[slot].first + index], NULL) + 16);
}

#define PREFETCH_SPAN     (1u << 16)   /* records (1.3 MB) read ahead as one range */
#define PREFETCH_SCATTERED 64          /* else at most so many records, each */

void
cpel_file_prefetch_track_records (CpelFile *self,
                                  guint     slot,
                                  guint64   lo,
                                  guint64   hi)
{
  const guint32 *recs;
  guint64 a, b;

  g_return_if_fail (CPEL_IS_FILE (self));
  g_return_if_fail (slot < self->n_tracks);

  if (self->mapped == NULL || self->recs == NULL)
    return;
  hi = MIN (hi, self->tracks[slot].count);
  if (lo >= hi)
    return;
  recs = self->recs + self->tracks[slot].first;
  a = MIN (recs[lo], recs[hi - 1]);
  b = MAX (recs[lo], recs[hi - 1]);
  if (b - a < PREFETCH_SPAN && a < self->n_events && b < self->n_events)
    {
      /* in file order over event sections: each section's part */
      guint sa, sb;

      cpel_file_section_of (self, a, &sa);
      cpel_file_section_of (self, b, &sb);
      for (guint s = sa; s <= sb; s++)
        {
          const CpelEventSection *es = &self->evsecs[s];
          guint64 from = MAX (a, es->first_index) - es->first_index;
          guint64 to = MIN (b + 1, es->first_index + es->count) - es->first_index;

          if (to > from)
            cpel_mapping_will_need (es->records + from * CPEL_EVENT_RECORD_SIZE,
                                    es->records + to * CPEL_EVENT_RECORD_SIZE);
        }
      return;
    }
  for (guint64 i = lo; i < hi && i < lo + PREFETCH_SCATTERED; i++)
    {
      const guint8 *rec = cpel_file_record (self, recs[i], NULL);

      cpel_mapping_will_need (rec, rec + CPEL_EVENT_RECORD_SIZE);
    }
}

guint
cpel_file_get_n_types (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->n_types;
}

guint32
cpel_file_get_type_code (CpelFile *self,
                         guint     type)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (type < self->n_types, 0);
  return self->types[type].code;
}

const char *
cpel_file_get_type_name (CpelFile *self,
                         guint     type)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  g_return_val_if_fail (type < self->n_types, NULL);
  return self->types[type].name;
}

guint64
cpel_file_get_type_n_events (CpelFile *self,
                             guint     type)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (type < self->n_types, 0);
  return self->types[type].count;
}

gboolean
cpel_file_get_type_defined (CpelFile *self,
                            guint     type)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  g_return_val_if_fail (type < self->n_types, FALSE);
  return self->types[type].defined;
}

gboolean
cpel_file_lookup_type (CpelFile *self,
                       guint32   code,
                       guint    *type)
{
  guint32 t;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  t = cpel_u32map_get (self->type_map, code);
  if (t == CPEL_U32MAP_NONE)
    return FALSE;
  if (type)
    *type = t;
  return TRUE;
}

const CpelFormat *
cpel_file_get_type_datum_format (CpelFile *self,
                                 guint     type)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  g_return_val_if_fail (type < self->n_types, NULL);
  return self->types[type].datum_format;
}

const CpelStrtab *
cpel_file_get_event_strtab (CpelFile *self,
                            guint     section)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  if (section >= self->n_evsecs)
    return NULL;
  return self->evsecs[section].strtab;
}

const CpelSymtab *
cpel_file_get_symtab (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  return &self->symtab;
}

void
cpel_file_append_datum (CpelFile        *self,
                        const CpelEvent *event,
                        GString         *out)
{
  g_return_if_fail (CPEL_IS_FILE (self));
  g_return_if_fail (event != NULL && out != NULL);

  /* A code not in the index: the mapping was damaged under us (see
   * cpel_file_is_damaged); print no datum. */
  if (G_UNLIKELY (event->type >= self->n_types))
    return;
  if (G_UNLIKELY (self->text_offsets != NULL || self->lazy_texts != NULL)
      && cpel_file_append_event_text (self, event->file_index, out))
    return;
  cpel_format_append (self->types[event->type].datum_format, event->datum,
                      cpel_file_get_event_strtab (self, event->section), &self->symtab, out);
}

void
cpel_file_append_label (CpelFile        *self,
                        const CpelEvent *event,
                        GString         *out)
{
  gsize before;

  g_return_if_fail (CPEL_IS_FILE (self));
  g_return_if_fail (event != NULL && out != NULL);

  if (G_UNLIKELY (event->type >= self->n_types))
    {
      g_string_append_printf (out, "E%d", (gint32) event->code);
      return;
    }
  g_string_append (out, self->types[event->type].name);
  g_string_append (out, ": ");
  before = out->len;
  if (G_UNLIKELY (self->text_offsets != NULL || self->lazy_texts != NULL)
      && cpel_file_append_event_text (self, event->file_index, out))
    {
      _cpel_label_drop_repeated_name (out, before, self->types[event->type].name);
      return;
    }
  cpel_format_append (self->types[event->type].datum_format, event->datum,
                      cpel_file_get_event_strtab (self, event->section), &self->symtab, out);
  if (out->len == before)
    g_string_truncate (out, before - 2);
}

/* An event's own text that starts with its type's name (VPP elog: the name
 * is the text's first word) is the whole label: "state idle -> polling",
 * not "state: state idle -> polling".  `out` ends with "name: text", the
 * text starting at `text_start`; an empty text leaves "name". */
void
_cpel_label_drop_repeated_name (GString    *out,
                                gsize       text_start,
                                const char *name)
{
  gsize name_len = strlen (name);

  g_assert (text_start >= name_len + 2);
  if (out->len == text_start)
    g_string_truncate (out, text_start - 2);
  else if (name_len > 0 && out->len - text_start >= name_len
           && memcmp (out->str + text_start, name, name_len) == 0)
    g_string_erase (out, text_start - name_len - 2, name_len + 2);
}

void
cpel_file_drop_pages (const CpelFile *self,
                      const guint8   *from,
                      const guint8   *to)
{
  /* Only a mapping: on heap memory madvise would zero the data. */
  if (self->mapped != NULL)
    cpel_mapping_drop_pages (from, to);
}

gboolean
cpel_file_check_slots (CpelFile     *self,
                       const guint  *slots,
                       guint         n_slots,
                       GError      **error)
{
  g_autofree guint8 *seen = NULL;

  if (slots == NULL)
    return TRUE;
  seen = g_malloc0 (MAX (self->n_tracks, 1));
  for (guint i = 0; i < n_slots; i++)
    {
      guint slot = slots[i];

      if (slot >= self->n_tracks || seen[slot])
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                       slot >= self->n_tracks ? _("Track slot %u does not exist")
                                              : _("Track slot %u is given twice"),
                       slot);
          return FALSE;
        }
      seen[slot] = 1;
    }
  return TRUE;
}
