/* cpel-cut.c — write a time range (and some tracks) of a file as a new file
 *
 * 1. String tables are planned first: an event section names its table by
 *    a writer handle, so each table must be re-created through the writer's
 *    string API (name, then each string once).  That gives the same bytes
 *    when the table holds distinct non-empty strings followed by NUL padding
 *    — except padding beyond the next multiple of 4 (VPP's converter adds
 *    some), which is dropped.  A string reference into dropped padding would
 *    then read differently, so the references are checked (formats and
 *    symbol names of definition sections, datums of the range's events whose
 *    datum format uses %s) and the cut fails rather than change a label.
 *    A referenced table the string API cannot re-create at all (repeated or
 *    empty strings inside) also fails the cut (a writer call taking a table
 *    verbatim would lift this); an unreferenced one is left out.
 * 2. Other definition sections are copied as raw sections, in their order
 *    (track definitions reduced to the chosen tracks).
 * 3. The events of the range are visited in time order with the merge
 *    iterator; their file indices are kept (4 octets each) and, with several
 *    event sections, grouped by section with a stable counting sort.
 * 4. Each source event section becomes one event section, streamed through
 *    the writer, each record re-read from the source mapping.
 */
#include "cpel-cut.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "cpel-file-private.h"
#include "cpel-writer.h"

#define TABLE_NAME_LEN     64
#define PROGRESS_MASK      0xffff
#define NO_HANDLE          G_MAXUINT

typedef struct
{
  const CpelSectionInfo *info;
  const char            *data;
  gboolean               first;         /* first of its name: references resolve to it */
  gboolean               referenced;    /* a section names it */
  gboolean               reproducible;
  gsize                  writer_len;    /* length the writer gives it (reproducible) */
  GPtrArray             *strings;       /* pointers into data */
  guint                  handle;
} Table;

typedef struct
{
  CpelFile              *file;
  const CpelCutOptions  *opt;
  CpelWriter            *w;
  GArray                *tables;     /* Table, in section order */
  GHashTable            *by_name;    /* name -> index + 1 in tables, of the first */
  guint8                *datum_str;  /* per type: its datum format uses %s */
  GCancellable          *cancellable;
  CpelProgressFunc       progress;
  gpointer               progress_data;
  guint64                n_range;    /* events in the range */
  guint64                done;       /* progress steps: 2 per event */
} Cut;

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

static gboolean
check_slots (CpelFile              *file,
             const CpelCutOptions  *opt,
             GError               **error)
{
  g_autofree guint8 *seen = NULL;

  if (opt->slots == NULL)
    return TRUE;
  seen = g_malloc0 (MAX (file->n_tracks, 1));
  for (guint i = 0; i < opt->n_slots; i++)
    {
      guint slot = opt->slots[i];

      if (slot >= file->n_tracks || seen[slot])
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                       slot >= file->n_tracks ? _("Track slot %u does not exist")
                                              : _("Track slot %u is given twice"),
                       slot);
          return FALSE;
        }
      seen[slot] = 1;
    }
  return TRUE;
}

/* ---- string tables ------------------------------------------------------- */

static Table *
table_named (Cut        *cut,
             const char *name)
{
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (cut->by_name, name));

  return i ? &g_array_index (cut->tables, Table, i - 1) : NULL;
}

static void
table_clear (gpointer data)
{
  Table *t = data;

  g_clear_pointer (&t->strings, g_ptr_array_unref);
}

/* Whether the writer's string table (name, NUL, each string with its NUL,
 * NUL padding to 4) re-creates `data`, up to the extra padding: a name
 * shorter than 64, distinct non-empty strings, then only NULs. */
static gboolean
strtab_reproducible (const char *data,
                     gsize       len,
                     GPtrArray  *strings,
                     gsize      *writer_len)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *nul = memchr (data, '\0', len);
  gsize pos;

  if (nul == NULL || (gsize) (nul - data) >= TABLE_NAME_LEN)
    return FALSE;
  pos = nul - data + 1;
  while (pos < len && data[pos] != '\0')
    {
      const char *s = data + pos;

      nul = memchr (s, '\0', len - pos);
      if (nul == NULL || !g_hash_table_add (seen, (gpointer) s))
        return FALSE;
      g_ptr_array_add (strings, (gpointer) s);
      pos = nul - data + 1;
    }
  *writer_len = (pos + 3) & ~(gsize) 3;
  if (*writer_len > len)
    return FALSE;
  for (; pos < len; pos++)
    if (data[pos] != '\0')
      return FALSE;
  return TRUE;
}

static void
plan_tables (Cut *cut)
{
  CpelFile *file = cut->file;

  for (guint i = 0; i < file->sections->len; i++)
    {
      const CpelSectionInfo *info = &g_array_index (file->sections, CpelSectionInfo, i);
      Table t = { 0 };

      if (info->type != CPEL_SECTION_STRING_TABLE)
        continue;
      t.info = info;
      t.data = (const char *) file->data + info->offset + 8;
      t.strings = g_ptr_array_new ();
      t.reproducible = strtab_reproducible (t.data, info->length, t.strings, &t.writer_len);
      t.handle = NO_HANDLE;
      t.first = !g_hash_table_contains (cut->by_name, info->table_name);
      g_array_append_val (cut->tables, t);
      if (t.first)
        g_hash_table_insert (cut->by_name, (gpointer) info->table_name,
                             GUINT_TO_POINTER (cut->tables->len));
    }
  for (guint i = 0; i < file->sections->len; i++)
    {
      const CpelSectionInfo *info = &g_array_index (file->sections, CpelSectionInfo, i);
      Table *t;

      if (info->type >= CPEL_SECTION_SYMBOL_TABLE && info->type <= CPEL_SECTION_EVENTS
          && (t = table_named (cut, info->table_name)) != NULL)
        t->referenced = TRUE;
    }
}

static inline gboolean
in_dropped_tail (const Table *t,
                 guint32      offset)
{
  return offset >= t->writer_len && offset < t->info->length;
}

/* Whether the string at `offset` (a format) has a %s conversion. */
static gboolean
format_uses_string (const Table *t,
                    guint32      offset)
{
  g_autoptr(CpelFormat) format = NULL;
  const char *s, *nul;

  if (offset == 0 || offset >= t->writer_len)
    return FALSE;
  s = t->data + offset;
  nul = memchr (s, '\0', t->writer_len - offset);
  format = cpel_format_new (s, nul ? nul - s : (gssize) (t->writer_len - offset));
  return cpel_format_uses_string (format);
}

/* Whether a definition section naming `t` refers into its dropped padding:
 * a format or symbol name there, or a code / track id read through %s. */
static gboolean
defs_reach_tail (Cut                   *cut,
                 const Table           *t,
                 const CpelSectionInfo *info)
{
  CpelFile *file = cut->file;
  const guint8 *rec = file->data + info->offset + 8 + TABLE_NAME_LEN + 4;
  guint words = info->type == CPEL_SECTION_EVENT_DEFS ? 3 : 2;

  for (guint32 j = 0; j < info->count; j++, rec += 4 * words)
    {
      guint32 key = cpel_file_read32 (file, rec);
      guint32 fmt = cpel_file_read32 (file, rec + 4);

      switch (info->type)
        {
        case CPEL_SECTION_SYMBOL_TABLE:
          if (in_dropped_tail (t, fmt))
            return TRUE;
          break;
        case CPEL_SECTION_EVENT_DEFS:
          if (in_dropped_tail (t, fmt) || in_dropped_tail (t, cpel_file_read32 (file, rec + 8)))
            return TRUE;
          G_GNUC_FALLTHROUGH;
        case CPEL_SECTION_TRACK_DEFS:
          if (in_dropped_tail (t, fmt) || (in_dropped_tail (t, key) && format_uses_string (t, fmt)))
            return TRUE;
          break;
        default:
          break;
        }
    }
  return FALSE;
}

static gboolean
check_tables (Cut     *cut,
              GError **error)
{
  CpelFile *file = cut->file;

  for (guint i = 0; i < cut->tables->len; i++)
    {
      const Table *t = &g_array_index (cut->tables, Table, i);

      if (!t->first || !t->referenced)
        continue;
      if (!t->reproducible)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                       _("String table “%s” at offset %" PRIu64 " holds repeated or empty "
                         "strings; it cannot be copied into a cut yet"),
                       t->info->table_name, t->info->offset);
          return FALSE;
        }
    }
  for (guint i = 0; i < file->sections->len; i++)
    {
      const CpelSectionInfo *info = &g_array_index (file->sections, CpelSectionInfo, i);
      const Table *t;

      if (info->type < CPEL_SECTION_SYMBOL_TABLE || info->type > CPEL_SECTION_TRACK_DEFS
          || (t = table_named (cut, info->table_name)) == NULL
          || t->writer_len == t->info->length)
        continue;
      if (defs_reach_tail (cut, t, info))
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                       _("Section of type %u at offset %" PRIu64 " refers to the padding of "
                         "string table “%s”; it cannot be copied into a cut"),
                       info->type, info->offset, info->table_name);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
copy_string_table (Cut     *cut,
                   Table   *t,
                   GError **error)
{
  gsize expect;

  /* an unreferenced table the writer cannot re-create is left out */
  if (!t->reproducible)
    return TRUE;
  t->handle = cpel_writer_add_string_table (cut->w, t->data);
  expect = strlen (t->data) + 1;
  for (guint i = 0; i < t->strings->len; i++)
    {
      const char *s = g_ptr_array_index (t->strings, i);

      if (cpel_writer_add_string (cut->w, t->handle, s) != expect)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                       _("String table “%s” at offset %" PRIu64 " could not be copied"),
                       t->info->table_name, t->info->offset);
          return FALSE;
        }
      expect += strlen (s) + 1;
    }
  return TRUE;
}

/* ---- other definition sections ------------------------------------------ */

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

static gboolean
copy_definitions (Cut     *cut,
                  GError **error)
{
  CpelFile *file = cut->file;
  g_autoptr(GHashTable) keep = NULL;
  guint table = 0;

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
        case CPEL_SECTION_STRING_TABLE:
          if (!copy_string_table (cut, &g_array_index (cut->tables, Table, table++), error))
            return FALSE;
          break;
        case CPEL_SECTION_TRACK_DEFS:
          if (keep != NULL)
            {
              copy_track_defs (cut, info, data, keep);
              break;
            }
          G_GNUC_FALLTHROUGH;
        default:
          cpel_writer_add_raw_section (cut->w, info->type, data, info->length);
          break;
        }
    }
  return TRUE;
}

/* ---- events ------------------------------------------------------------- */

/* What an event section's %s datums would read differently in the cut:
 * its table is missing (every %s datum), or has dropped padding. */
typedef struct
{
  gboolean  missing;
  const Table *table;
} DatumCheck;

static gboolean
datum_changes (const DatumCheck *c,
               guint32           datum)
{
  return c->missing || (c->table != NULL && in_dropped_tail (c->table, datum));
}

/* The file indices of the range's events in time order, grouped by event
 * section; counts[s] receives each section's number. */
static guint32 *
collect_events (Cut               *cut,
                const DatumCheck  *checks,
                guint64           *counts,
                GError           **error)
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
          if (e.type < file->n_types && cut->datum_str[e.type]
              && datum_changes (&checks[e.section], e.datum))
            {
              g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                           _("The string reference 0x%x of event %" PRIu64 " cannot be "
                             "kept in a cut (its string table is missing or it points into padding)"),
                           e.datum, e.file_index);
              return NULL;
            }
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

/* The writer handle naming each event section's table (a missing table gets
 * an empty one of that name, which no %s datum of the cut reads: checked). */
static guint *
event_handles (Cut        *cut,
               DatumCheck *checks)
{
  CpelFile *file = cut->file;
  g_autoptr(GHashTable) missing = g_hash_table_new (g_str_hash, g_str_equal);
  guint *handles = g_new (guint, MAX (file->n_evsecs, 1));
  guint s = 0;

  for (guint i = 0; i < file->sections->len; i++)
    {
      const CpelSectionInfo *info = &g_array_index (file->sections, CpelSectionInfo, i);
      Table *t;

      if (info->type != CPEL_SECTION_EVENTS)
        continue;
      t = table_named (cut, info->table_name);
      if (t == NULL)
        {
          gpointer h = g_hash_table_lookup (missing, info->table_name);

          if (h == NULL)
            {
              h = GUINT_TO_POINTER (cpel_writer_add_string_table (cut->w, info->table_name) + 1);
              g_hash_table_insert (missing, (gpointer) info->table_name, h);
            }
          handles[s] = GPOINTER_TO_UINT (h) - 1;
          checks[s].missing = TRUE;
        }
      else
        {
          handles[s] = t->handle;
          if (t->writer_len < t->info->length)
            checks[s].table = t;
        }
      s++;
    }
  return handles;
}

static gboolean
write_events (Cut            *cut,
              const guint    *handles,
              const guint32  *fis,
              const guint64  *counts,
              GError        **error)
{
  CpelFile *file = cut->file;
  guint s = 0;

  for (guint i = 0; i < file->sections->len; i++)
    {
      const CpelSectionInfo *info = &g_array_index (file->sections, CpelSectionInfo, i);
      const guint8 *header = file->data + info->offset + 8;

      if (info->type != CPEL_SECTION_EVENTS)
        continue;
      cpel_writer_begin_events (cut->w, handles[s],
                                cpel_file_read32 (file, header + TABLE_NAME_LEN + 4),
                                (guint32) counts[s]);
      for (guint64 j = 0; j < counts[s]; j++)
        {
          const guint8 *rec = cpel_file_record (file, fis[j], NULL);
          guint64 ticks = (guint64) cpel_file_read32 (file, rec) << 32 | cpel_file_read32 (file, rec + 4);

          cpel_writer_add_event (cut->w, ticks,
                                 cpel_file_read32 (file, rec + 8),
                                 cpel_file_read32 (file, rec + 12),
                                 cpel_file_read32 (file, rec + 16));
          if (!step (cut, error))
            return FALSE;
        }
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
  g_autoptr(GArray) tables = g_array_new (FALSE, TRUE, sizeof (Table));
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree guint8 *datum_str = g_malloc0 (MAX (file->n_types, 1));
  g_autofree DatumCheck *checks = g_new0 (DatumCheck, MAX (file->n_evsecs, 1));
  g_autofree guint64 *counts = g_new0 (guint64, MAX (file->n_evsecs, 1));
  g_autofree guint *handles = NULL;
  g_autofree guint32 *fis = NULL;
  CpelCutOptions all = { 0, 0, NULL, 0, FALSE };
  Cut cut = { 0 };

  g_array_set_clear_func (tables, table_clear);
  if (options == NULL)
    {
      all.t1 = file->n_events ? file->duration + 1 : 0;
      options = &all;
    }
  if (!check_slots (file, options, error))
    return FALSE;

  cut.file = file;
  cut.opt = options;
  cut.tables = tables;
  cut.by_name = by_name;
  cut.datum_str = datum_str;
  cut.cancellable = cancellable;
  cut.progress = progress;
  cut.progress_data = progress_data;
  for (guint type = 0; type < file->n_types; type++)
    datum_str[type] = cpel_format_uses_string (file->types[type].datum_format);
  if (options->t1 > options->t0)
    {
      guint n = options->slots ? options->n_slots : file->n_tracks;

      for (guint i = 0; i < n; i++)
        cut.n_range += cpel_file_track_count_range (file, options->slots ? options->slots[i] : i,
                                                    options->t0, options->t1);
    }

  report (&cut);
  plan_tables (&cut);
  if (g_cancellable_set_error_if_cancelled (cancellable, error) || !check_tables (&cut, error))
    return FALSE;

  w = cpel_writer_new (path, file->little_endian, file->date, error);
  if (w == NULL)
    return FALSE;
  cpel_writer_set_overwrite (w, options->overwrite);
  cut.w = w;

  if (!copy_definitions (&cut, error))
    return FALSE;
  handles = event_handles (&cut, checks);
  fis = collect_events (&cut, checks, counts, error);
  if (fis == NULL)
    return FALSE;
  if (!write_events (&cut, handles, fis, counts, error))
    return FALSE;
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
