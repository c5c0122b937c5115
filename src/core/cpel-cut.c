/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cut.c — write a time range (and some tracks) of a file as a new file
 *
 * 1. Definition sections are copied in their order, byte for byte: string
 *    tables through cpel_writer_add_string_table_data (a table whose length
 *    is not a multiple of 4, which the writer would pad, as a raw section),
 *    symbol tables, event definitions and unknown sections as raw sections
 *    (but those of type 0 or above 0xff, which no CPEL section has),
 *    track definitions reduced to the chosen tracks.  Every offset into a
 *    string table therefore reads the same string in the cut — repeated or
 *    empty strings, padding, anything between the strings.
 * 2. The events of the range are visited in time order with the merge
 *    iterator; their file indices are kept (4 octets each) and, with several
 *    event sections, grouped by section with a stable counting sort.
 *    A file loaded without its index (defer_index) that is in time order
 *    needs neither: a section's events of the range are the records between
 *    two binary searches, in file order; the chosen tracks' ones are counted
 *    in one pass, then written in a second (no memory per event).  A
 *    section only nearly in time order (cpel_file_check_nearly_ordered) is
 *    read the same two times through its reorder heap
 *    (cpel_merge_new_section): the same records in the same order.
 * 3. Each source event section becomes one event section, streamed through
 *    the writer, each record re-read from the source mapping.  The writer
 *    names an event section's table by a table handle; when no copied table
 *    can lend its name (the table is missing, was copied raw, or its name
 *    fills all 64 octets) the section is assembled in memory from the
 *    source header and written raw instead.
 */
#include "cpel-cut.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "cpel-file-private.h"
#include "cpel-writer.h"

#define TABLE_NAME_LEN     64
#define EVENTS_HEADER_LEN  (TABLE_NAME_LEN + 8)
#define PROGRESS_MASK      0xffff

typedef struct
{
  CpelFile              *file;
  const CpelCutOptions  *opt;
  CpelWriter            *w;
  GHashTable            *handles;    /* table name -> writer handle + 1 */
  GCancellable          *cancellable;
  CpelProgressFunc       progress;
  gpointer               progress_data;
  guint64                n_range;    /* events in the range */
  guint64                done;       /* progress steps: 2 per event */
  GArray                *text_fis;   /* imported files: the source file index of
                                      * each event written, for its text */
} Cut;

/* The event written from `rec` (a record of event section `section`): note
 * its file index when the texts extension is rewritten. */
static inline void
note_text (Cut          *cut,
           guint         section,
           const guint8 *rec)
{
  if (cut->text_fis != NULL)
    {
      const CpelEventSection *es = &cut->file->evsecs[section];
      guint64 fi = es->first_index + (guint64) (rec - es->records) / CPEL_EVENT_RECORD_SIZE;

      g_array_append_val (cut->text_fis, fi);
    }
}

/* The event texts of the kept events, in their new file order (the
 * source's section is indexed by the source's file order: not copied). */
static gboolean
write_texts (Cut     *cut,
             GError **error)
{
  CpelFile *file = cut->file;
  guint n = cut->text_fis->len;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GByteArray) texts = g_byte_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  guint32 v;

  v = file->little_endian ? GUINT32_TO_LE (0) : GUINT32_TO_BE (0);
  g_byte_array_append (out, (const guint8 *) &v, 4);
  v = file->little_endian ? GUINT32_TO_LE (n) : GUINT32_TO_BE (n);
  g_byte_array_append (out, (const guint8 *) &v, 4);
  for (guint i = 0; i < n; i++)
    {
      guint32 off = G_MAXUINT32;

      g_string_truncate (text, 0);
      if (cpel_file_append_event_text (file, g_array_index (cut->text_fis, guint64, i), text))
        {
          if ((guint64) texts->len + text->len + 1 + 8 + 4 * (guint64) n > G_MAXUINT32)
            {
              g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                           _("The events' texts take more than 4 GiB"));
              return FALSE;
            }
          off = texts->len;
          g_byte_array_append (texts, (const guint8 *) text->str, (guint) text->len);
          g_byte_array_append (texts, (const guint8 *) "", 1);
        }
      v = file->little_endian ? GUINT32_TO_LE (off) : GUINT32_TO_BE (off);
      g_byte_array_append (out, (const guint8 *) &v, 4);
    }
  g_byte_array_append (out, texts->data, texts->len);
  cpel_writer_add_raw_section (cut->w, CPEL_SECTION_EXT_EVENT_TEXTS, out->data, out->len);
  return TRUE;
}

static void
report (Cut *cut)
{
  if (cut->progress != NULL)
    cut->progress (cut->n_range ? (double) cut->done / (2.0 * (double) cut->n_range) : 1.0,
                   cut->progress_data);
}

static gboolean
step (Cut     *cut,
      GError **error)
{
  if ((++cut->done & PROGRESS_MASK) != 0)
    return TRUE;
  report (cut);
  return !g_cancellable_set_error_if_cancelled (cut->cancellable, error);
}

static void
store32 (CpelFile *file,
         guint8   *p,
         guint32   v)
{
  v = file->little_endian ? GUINT32_TO_LE (v) : GUINT32_TO_BE (v);
  memcpy (p, &v, 4);
}

/* ---- definition sections ------------------------------------------------- */

/* A string table, byte for byte.  The writer pads a table to a multiple of
 * 4, which would turn references past the end into empty strings: such a
 * table is copied as a raw section instead (it then lends no handle).  The
 * writer names a table by its first string cut at 63 octets, the loader by
 * the whole string: a handle is recorded only when the two agree. */
static void
copy_string_table (Cut                   *cut,
                   const CpelSectionInfo *info,
                   const guint8          *data)
{
  guint handle;

  if (info->length % 4 != 0)
    {
      cpel_writer_add_raw_section (cut->w, CPEL_SECTION_STRING_TABLE, data, info->length);
      return;
    }
  handle = cpel_writer_add_string_table_data (cut->w, data, info->length);
  if (strlen (info->table_name) < TABLE_NAME_LEN
      && !g_hash_table_contains (cut->handles, info->table_name))
    g_hash_table_insert (cut->handles, (gpointer) info->table_name, GUINT_TO_POINTER (handle + 1));
}

/* A track definition section keeping only the chosen tracks' records. */
static void
copy_track_defs (Cut                   *cut,
                 const CpelSectionInfo *info,
                 const guint8          *data,
                 GHashTable            *keep)
{
  CpelFile *file = cut->file;
  g_autofree guint8 *out = g_malloc (TABLE_NAME_LEN + 4 + (gsize) info->count * 8);
  guint8 *p = out + TABLE_NAME_LEN + 4;
  const guint8 *rec = data + TABLE_NAME_LEN + 4;
  guint32 kept = 0;

  memcpy (out, data, TABLE_NAME_LEN);
  for (guint32 i = 0; i < info->count; i++, rec += 8)
    if (g_hash_table_contains (keep, GUINT_TO_POINTER (cpel_file_read32 (file, rec))))
      {
        memcpy (p, rec, 8);
        p += 8;
        kept++;
      }
  store32 (file, out + TABLE_NAME_LEN, kept);
  cpel_writer_add_raw_section (cut->w, CPEL_SECTION_TRACK_DEFS, out, p - out);
}

static void
copy_definitions (Cut *cut)
{
  CpelFile *file = cut->file;
  g_autoptr(GHashTable) keep = NULL;

  if (cut->opt->slots != NULL)
    {
      keep = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < cut->opt->n_slots; i++)
        g_hash_table_add (keep, GUINT_TO_POINTER (file->tracks[cut->opt->slots[i]].id));
    }

  for (guint i = 0; i < file->sections->len; i++)
    {
      const CpelSectionInfo *info = &g_array_index (file->sections, CpelSectionInfo, i);
      const guint8 *data = file->data + info->offset + 8;

      switch (info->type)
        {
        case CPEL_SECTION_EVENTS:
          break;
        case CPEL_SECTION_EXT_EVENT_TEXTS:
          if (cut->text_fis != NULL)
            break;   /* rewritten for the kept events: write_texts() */
          cpel_writer_add_raw_section (cut->w, info->type, data, info->length);
          break;
        case CPEL_SECTION_STRING_TABLE:
          copy_string_table (cut, info, data);
          break;
        case CPEL_SECTION_TRACK_DEFS:
          if (keep != NULL)
            {
              copy_track_defs (cut, info, data, keep);
              break;
            }
          G_GNUC_FALLTHROUGH;
        default:
          /* a type no CPEL section has (0, or above 0xff): left out, as the
           * first section it would make the cut no CPEL file (detection) */
          if (info->type == 0 || info->type > 0xff)
            break;
          cpel_writer_add_raw_section (cut->w, info->type, data, info->length);
          break;
        }
    }
}

/* ---- events ------------------------------------------------------------- */

static gboolean
changed_error (GError **error)
{
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("The file changed on disk while it was read"));
  return FALSE;
}

/* The records of one section to write: the next file indices of `fis`, or
 * (streaming) the records [pos, hi) of the section whose track is wanted. */
typedef struct
{
  const guint32 *fis;
  const guint8  *wanted;     /* per slot, or NULL = every track */
  guint64        pos;
  guint64        hi;
  guint32        last_id;
  guint32        last_slot;
  const guint8  *drop_from;  /* streaming: read records not given back yet */
  CpelMerge     *merge;      /* streaming a section not in time order: its reorder heap */
  gint64         t1;         /* … up to this time */
} Cursor;

static inline gboolean
cursor_wants (CpelFile     *file,
              Cursor       *c,
              const guint8 *rec)
{
  guint32 id;

  if (c->wanted == NULL)
    return TRUE;
  id = cpel_file_read32 (file, rec + 8);
  if (id != c->last_id || c->last_slot == CPEL_U32MAP_NONE)
    {
      c->last_id = id;
      c->last_slot = cpel_u32map_get (file->track_map, id);
    }
  return c->last_slot < file->n_tracks && c->wanted[c->last_slot];
}

/* The next record of the section, or NULL (the file changed under us). */
static inline const guint8 *
cursor_next (CpelFile *file,
             Cursor   *c,
             guint     section)
{
  const CpelEventSection *es = &file->evsecs[section];

  if (c->fis != NULL)
    return cpel_file_record (file, *c->fis++, NULL);
  if (c->merge != NULL)
    {
      CpelEvent ev;

      if (!cpel_merge_next (c->merge, &ev, NULL) || ev.time_ns >= c->t1)
        return NULL;
      return cpel_file_record (file, ev.file_index, NULL);
    }
  while (c->pos < c->hi)
    {
      const guint8 *rec = es->records + c->pos++ * CPEL_EVENT_RECORD_SIZE;

      /* give back the pages read (they stay in the page cache) */
      if (G_UNLIKELY ((c->pos & PROGRESS_MASK) == 0))
        {
          if (c->drop_from != NULL)
            cpel_file_drop_pages (file, c->drop_from, rec);
          c->drop_from = rec;
        }
      if (cursor_wants (file, c, rec))
        return rec;
    }
  return NULL;
}

/* Streaming: each section's records in [t0, t1) and how many are wanted. */
static gboolean
stream_ranges (Cut      *cut,
               guint8   *wanted,
               guint64  *lo,
               guint64  *hi,
               guint64  *counts,
               GError  **error)
{
  CpelFile *file = cut->file;
  const CpelCutOptions *opt = cut->opt;

  if (opt->slots != NULL)
    for (guint i = 0; i < opt->n_slots; i++)
      wanted[opt->slots[i]] = 1;
  for (guint s = 0; s < file->n_evsecs; s++)
    {
      if (!file->evsecs[s].sorted)
        {
          /* nearly in time order: its events of the range through the
           * section's reorder heap, counted here, read again to write */
          Cursor c = { .wanted = wanted, .last_slot = CPEL_U32MAP_NONE, .t1 = opt->t1 };

          counts[s] = 0;
          if (opt->t1 > opt->t0)
            {
              c.merge = cpel_merge_new_section (file, s, opt->slots, opt->n_slots, opt->t0);
              while (cursor_next (file, &c, s) != NULL)
                if ((++counts[s] & PROGRESS_MASK) == 0
                    && g_cancellable_set_error_if_cancelled (cut->cancellable, error))
                  {
                    cpel_merge_free (c.merge);
                    return FALSE;
                  }
              cpel_merge_free (c.merge);
            }
          lo[s] = hi[s] = 0;
          cut->n_range += counts[s];
          continue;
        }
      lo[s] = cpel_file_section_lower_bound (file, s, opt->t0);
      hi[s] = opt->t1 > opt->t0 ? cpel_file_section_lower_bound (file, s, opt->t1) : lo[s];
      hi[s] = MAX (hi[s], lo[s]);
      if (opt->slots == NULL)
        counts[s] = hi[s] - lo[s];
      else
        {
          Cursor c = { NULL, wanted, lo[s], hi[s], 0, CPEL_U32MAP_NONE, NULL };

          counts[s] = 0;
          while (cursor_next (file, &c, s) != NULL)
            {
              counts[s]++;
              if ((c.pos & PROGRESS_MASK) == 0
                  && g_cancellable_set_error_if_cancelled (cut->cancellable, error))
                return FALSE;
            }
        }
      cut->n_range += counts[s];
    }
  return TRUE;
}

/* The file indices of the range's events in time order, grouped by event
 * section; counts[s] receives each section's number. */
static guint32 *
collect_events (Cut      *cut,
                guint64  *counts,
                GError  **error)
{
  CpelFile *file = cut->file;
  const CpelCutOptions *opt = cut->opt;
  g_autofree guint32 *fis = NULL;
  g_autofree guint32 *grouped = NULL;
  g_autofree guint64 *pos = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  CpelEvent e;
  guint64 k = 0;

  fis = g_try_new (guint32, MAX (cut->n_range, 1));
  if (fis == NULL)
    goto no_memory;
  if (cut->n_range > 0)
    {
      merge = cpel_merge_new (file, opt->slots, opt->slots ? opt->n_slots : 0, opt->t0);
      while (k < cut->n_range && cpel_merge_next (merge, &e, NULL) && e.time_ns < opt->t1)
        {
          fis[k++] = (guint32) e.file_index;
          counts[e.section]++;
          if (!step (cut, error))
            return NULL;
        }
    }
  if (k != cut->n_range)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("The file changed on disk while it was read"));
      return NULL;
    }
  if (file->n_evsecs <= 1)
    return g_steal_pointer (&fis);

  /* counting sort by section; sections hold consecutive file indices */
  pos = g_new0 (guint64, file->n_evsecs);
  for (guint s = 1; s < file->n_evsecs; s++)
    pos[s] = pos[s - 1] + counts[s - 1];
  grouped = g_try_new (guint32, MAX (cut->n_range, 1));
  if (grouped == NULL)
    goto no_memory;
  for (guint64 i = 0; i < k; i++)
    {
      guint s;

      cpel_file_section_of (file, fis[i], &s);
      grouped[pos[s]++] = fis[i];
    }
  return g_steal_pointer (&grouped);

no_memory:
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
               _("Not enough memory to cut %" PRIu64 " events"), cut->n_range);
  return NULL;
}

/* An event section assembled in memory: the source header (table name
 * field and clock as they are), the count, then the chosen records. */
static gboolean
write_raw_events (Cut            *cut,
                  const guint8   *header,
                  guint           section,
                  Cursor         *cursor,
                  guint64         count,
                  GError        **error)
{
  CpelFile *file = cut->file;
  gsize len = EVENTS_HEADER_LEN + (gsize) count * CPEL_EVENT_RECORD_SIZE;
  g_autofree guint8 *out = g_try_malloc (len);
  guint8 *p;

  if (out == NULL)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                   _("Not enough memory to cut %" PRIu64 " events"), count);
      return FALSE;
    }
  memcpy (out, header, EVENTS_HEADER_LEN);
  store32 (file, out + TABLE_NAME_LEN, (guint32) count);
  p = out + EVENTS_HEADER_LEN;
  for (guint64 j = 0; j < count; j++, p += CPEL_EVENT_RECORD_SIZE)
    {
      const guint8 *rec = cursor_next (file, cursor, section);

      if (rec == NULL)
        return changed_error (error);
      memcpy (p, rec, CPEL_EVENT_RECORD_SIZE);
      note_text (cut, section, rec);
      if (!step (cut, error))
        return FALSE;
    }
  cpel_writer_add_raw_section (cut->w, CPEL_SECTION_EVENTS, out, len);
  return TRUE;
}

/* `fis` the file indices grouped by section, or NULL to stream the ranges
 * [lo[s], hi[s]) of the tracks `wanted`. */
static gboolean
write_events (Cut            *cut,
              const guint32  *fis,
              const guint8   *wanted,
              const guint64  *lo,
              const guint64  *hi,
              const guint64  *counts,
              GError        **error)
{
  CpelFile *file = cut->file;
  guint s = 0;

  for (guint i = 0; i < file->sections->len; i++)
    {
      const CpelSectionInfo *info = &g_array_index (file->sections, CpelSectionInfo, i);
      const guint8 *header = file->data + info->offset + 8;
      guint handle;

      if (info->type != CPEL_SECTION_EVENTS)
        continue;
      handle = GPOINTER_TO_UINT (g_hash_table_lookup (cut->handles, info->table_name));
      {
        Cursor c = { fis, wanted, lo ? lo[s] : 0, hi ? hi[s] : 0, 0, CPEL_U32MAP_NONE, NULL, NULL,
                     cut->opt->t1 };
        gboolean ok = TRUE;

        if (fis == NULL && !file->evsecs[s].sorted && counts[s] > 0)
          c.merge = cpel_merge_new_section (file, s, cut->opt->slots, cut->opt->n_slots, cut->opt->t0);

        if (handle == 0)
          ok = write_raw_events (cut, header, s, &c, counts[s], error);
        else
          {
            cpel_writer_begin_events (cut->w, handle - 1,
                                      cpel_file_read32 (file, header + TABLE_NAME_LEN + 4),
                                      (guint32) counts[s]);
            for (guint64 j = 0; ok && j < counts[s]; j++)
              {
                const guint8 *rec = cursor_next (file, &c, s);
                guint64 ticks;

                if (rec == NULL)
                  {
                    ok = changed_error (error);
                    break;
                  }
                note_text (cut, s, rec);
                ticks = (guint64) cpel_file_read32 (file, rec) << 32 | cpel_file_read32 (file, rec + 4);
                cpel_writer_add_event (cut->w, ticks,
                                       cpel_file_read32 (file, rec + 8),
                                       cpel_file_read32 (file, rec + 12),
                                       cpel_file_read32 (file, rec + 16));
                ok = step (cut, error);
              }
          }
        g_clear_pointer (&c.merge, cpel_merge_free);
        if (!ok)
          return FALSE;
      }
      if (fis != NULL)
        fis += counts[s];
      s++;
    }
  return TRUE;
}

static gboolean
run (CpelFile              *file,
     const char            *path,
     const CpelCutOptions  *options,
     GCancellable          *cancellable,
     CpelProgressFunc       progress,
     gpointer               progress_data,
     guint64               *n_events,
     GBytes               **bytes,
     GError               **error)
{
  g_autoptr(CpelWriter) w = NULL;
  g_autoptr(GHashTable) handles = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree guint64 *counts = g_new0 (guint64, MAX (file->n_evsecs, 1));
  g_autofree guint32 *fis = NULL;
  g_autofree guint8 *wanted = NULL;
  g_autofree guint64 *lo = NULL;
  g_autofree guint64 *hi = NULL;
  CpelCutOptions all = { 0, 0, NULL, 0, FALSE };
  Cut cut = { 0 };
  gboolean streaming;

  if (options == NULL)
    {
      all.t1 = file->n_events ? file->duration + 1 : 0;
      options = &all;
    }
  if (!cpel_file_check_slots (file, options->slots, options->n_slots, error))
    return FALSE;

  cut.file = file;
  cut.opt = options;
  cut.handles = handles;
  cut.cancellable = cancellable;
  cut.progress = progress;
  cut.progress_data = progress_data;
  streaming = !cpel_file_has_index (file) && cpel_file_can_stream (file);
  if (streaming)
    {
      wanted = options->slots ? g_malloc0 (MAX (file->n_tracks, 1)) : NULL;
      lo = g_new0 (guint64, MAX (file->n_evsecs, 1));
      hi = g_new0 (guint64, MAX (file->n_evsecs, 1));
      if (!stream_ranges (&cut, wanted, lo, hi, counts, error))
        return FALSE;
    }
  else if (!cpel_file_ensure_index (file, cancellable, error))
    return FALSE;
  else if (options->t1 > options->t0)
    {
      guint n = options->slots ? options->n_slots : file->n_tracks;

      for (guint i = 0; i < n; i++)
        cut.n_range += cpel_file_track_count_range (file, options->slots ? options->slots[i] : i,
                                                    options->t0, options->t1);
    }

  report (&cut);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  w = cpel_writer_new (path, file->little_endian, file->date, error);
  if (w == NULL)
    return FALSE;
  cpel_writer_set_overwrite (w, options->overwrite);
  cut.w = w;
  if (file->text_offsets != NULL || file->lazy_texts != NULL)
    cut.text_fis = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (guint) MIN (cut.n_range, 1u << 20));

  copy_definitions (&cut);
  if (!streaming)
    {
      fis = collect_events (&cut, counts, error);
      if (fis == NULL)
        return FALSE;
    }
  if (!write_events (&cut, fis, wanted, lo, hi, counts, error)
      || (cut.text_fis != NULL && !write_texts (&cut, error)))
    {
      g_clear_pointer (&cut.text_fis, g_array_unref);
      return FALSE;
    }
  g_clear_pointer (&cut.text_fis, g_array_unref);
  if (cpel_file_is_damaged (file))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("The file changed on disk while it was read"));
      return FALSE;
    }
  if (!cpel_writer_finish (w, error))
    return FALSE;
  if (bytes != NULL)
    *bytes = cpel_writer_steal_bytes (w);
  if (n_events != NULL)
    *n_events = cut.n_range;
  cut.done = 2 * cut.n_range;
  report (&cut);
  return TRUE;
}

gboolean
cpel_cut_write (CpelFile              *file,
                const char            *path,
                const CpelCutOptions  *options,
                GCancellable          *cancellable,
                CpelProgressFunc       progress,
                gpointer               progress_data,
                guint64               *n_events,
                GError               **error)
{
  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return run (file, path, options, cancellable, progress, progress_data, n_events, NULL, error);
}

GBytes *
cpel_cut_to_bytes (CpelFile              *file,
                   const CpelCutOptions  *options,
                   GCancellable          *cancellable,
                   GError               **error)
{
  GBytes *bytes = NULL;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!run (file, NULL, options, cancellable, NULL, NULL, NULL, &bytes, error))
    return NULL;
  return bytes;
}
