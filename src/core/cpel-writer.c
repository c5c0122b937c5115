/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-writer.c — writes CPEL files (both byte orders, every section type)
 *
 * Output goes through one GOutputStream (a temporary file next to the
 * target) or into a GByteArray (in memory: unlike a GMemoryOutputStream,
 * which zeroes each doubling, it touches only the pages written) behind a
 * large buffer of our own, so the
 * hot path (one event = 20 octets) is a bounds check and five stores.
 *
 * Definition sections (string, symbol, event and track tables, raw sections)
 * are small: they are kept in memory, in order, until an event section
 * begins or the writer finishes; then they are written.  A string table may
 * therefore receive strings (formats added by a later definition section)
 * until the next event section begins; after that it is sealed.  Event
 * sections are streamed: their length is known from the declared count.
 *
 * The only octets patched after the fact are the header's 16-bit section
 * count (a seek back on the GSeekable stream at finish).
 */
#include "cpel-writer.h"
#include "cpel-output.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"

#define BUFFER_SIZE        (1u << 20)
#define TABLE_NAME_SIZE    64
#define EVENT_SIZE         20
#define EVENTS_HEADER_SIZE (TABLE_NAME_SIZE + 8)
#define MAX_SECTIONS       0xFFFF

enum
{
  TYPE_STRING_TABLE = 1,
  TYPE_SYMBOL_TABLE = 2,
  TYPE_EVENT_DEFS   = 3,
  TYPE_TRACK_DEFS   = 4,
  TYPE_EVENTS       = 5,
};

typedef struct
{
  char       *name;
  GString    *data;      /* name, NUL, strings with their NULs (unpadded) */
  GHashTable *offsets;   /* string -> GUINT_TO_POINTER (offset) */
  gboolean    sealed;    /* written: no new strings */
} StringTable;

typedef struct
{
  guint32  type;
  guint    table;        /* string table handle (types 1-4) */
  guint    words;        /* guint32 words per record (types 2-4) */
  GArray  *records;      /* guint32, host order (types 2-4) */
  GBytes  *raw;          /* raw sections */
  GPtrArray *raw_parts;  /* raw sections given in parts (GBytes*), or NULL */
} Pending;

struct _CpelWriter
{
  char          *path;
  GFile         *target;
  GFile         *tmp;
  GOutputStream *out;        /* file output, or NULL */
  GByteArray    *mem;        /* memory output, or NULL */
  gboolean       little_endian;
  gboolean       overwrite;
  gboolean       finished;
  gboolean       to_stdout;  /* "-": made in memory, written out at finish */

  guint8        *buf;
  gsize          buf_len;

  GPtrArray     *tables;     /* StringTable* by handle */
  GPtrArray     *pending;    /* Pending* not yet written, in order */
  Pending       *current;    /* the definition section being filled */

  gboolean       in_events;
  guint32        events_left;
  guint32        events_declared;

  guint          n_sections;
  GError        *error;      /* first error; later calls do nothing */
  GBytes        *bytes;
};

/* ---- errors ------------------------------------------------------------ */

G_GNUC_PRINTF (3, 4) static void
set_error (CpelWriter *w, int code, const char *fmt, ...)
{
  va_list args;

  if (w->error != NULL)
    return;
  va_start (args, fmt);
  w->error = g_error_new_valist (CPEL_ERROR, code, fmt, args);
  va_end (args);
}

/* ---- output ------------------------------------------------------------ */

static inline void
store32 (const CpelWriter *w, guint8 *p, guint32 v)
{
  if (w->little_endian)
    {
      p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
    }
  else
    {
      p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
    }
}

static void
write_out (CpelWriter *w, const void *data, gsize len)
{
  if (w->error != NULL)
    return;
  if (w->mem != NULL)
    {
      if (len > G_MAXUINT - w->mem->len)
        set_error (w, CPEL_ERROR_TOO_LARGE, _("The file would be larger than 4 GiB"));
      else
        g_byte_array_append (w->mem, data, (guint) len);
    }
  else
    g_output_stream_write_all (w->out, data, len, NULL, NULL, &w->error);
}

static void
flush_buffer (CpelWriter *w)
{
  if (w->buf_len == 0)
    return;
  write_out (w, w->buf, w->buf_len);
  w->buf_len = 0;
}

static void
put_bytes (CpelWriter *w, const void *data, gsize len)
{
  if (len == 0)
    return;
  if (w->buf_len + len > BUFFER_SIZE)
    flush_buffer (w);
  if (len >= BUFFER_SIZE)
    {
      write_out (w, data, len);
      return;
    }
  memcpy (w->buf + w->buf_len, data, len);
  w->buf_len += len;
}

static void
put_zeros (CpelWriter *w, gsize len)
{
  static const guint8 zeros[TABLE_NAME_SIZE];

  while (len > 0)
    {
      gsize n = MIN (len, sizeof zeros);
      put_bytes (w, zeros, n);
      len -= n;
    }
}

static void
put_u32 (CpelWriter *w, guint32 v)
{
  guint8 b[4];

  store32 (w, b, v);
  put_bytes (w, b, 4);
}

static void
put_table_name (CpelWriter *w, guint table)
{
  StringTable *t = g_ptr_array_index (w->tables, table);
  gsize len = strlen (t->name);

  put_bytes (w, t->name, len);
  put_zeros (w, TABLE_NAME_SIZE - len);
}

static gboolean
count_section (CpelWriter *w)
{
  if (w->n_sections >= MAX_SECTIONS)
    {
      set_error (w, CPEL_ERROR_TOO_LARGE,
                 _("A CPEL file holds at most %u sections"), MAX_SECTIONS);
      return FALSE;
    }
  w->n_sections++;
  return TRUE;
}

/* ---- pending sections ---------------------------------------------------- */

static void
pending_free (gpointer data)
{
  Pending *p = data;

  if (p->records != NULL)
    g_array_unref (p->records);
  g_clear_pointer (&p->raw, g_bytes_unref);
  g_clear_pointer (&p->raw_parts, g_ptr_array_unref);
  g_free (p);
}

static void
string_table_free (gpointer data)
{
  StringTable *t = data;

  g_free (t->name);
  g_string_free (t->data, TRUE);
  g_hash_table_unref (t->offsets);
  g_free (t);
}

static void
write_pending (CpelWriter *w, Pending *p)
{
  if (p->raw != NULL)
    {
      gsize len;
      const void *data = g_bytes_get_data (p->raw, &len);

      put_u32 (w, p->type);
      put_u32 (w, len);
      put_bytes (w, data, len);
    }
  else if (p->raw_parts != NULL)
    {
      gsize len = 0;

      for (guint i = 0; i < p->raw_parts->len; i++)
        len += g_bytes_get_size (g_ptr_array_index (p->raw_parts, i));
      put_u32 (w, p->type);
      put_u32 (w, len);
      for (guint i = 0; i < p->raw_parts->len; i++)
        {
          gsize n;
          const void *data = g_bytes_get_data (g_ptr_array_index (p->raw_parts, i), &n);
          put_bytes (w, data, n);
        }
      g_clear_pointer (&p->raw_parts, g_ptr_array_unref);   /* give the memory back early */
    }
  else if (p->type == TYPE_STRING_TABLE)
    {
      StringTable *t = g_ptr_array_index (w->tables, p->table);
      gsize padded = (t->data->len + 3) & ~(gsize) 3;

      t->sealed = TRUE;
      if (padded > G_MAXUINT32)
        {
          set_error (w, CPEL_ERROR_TOO_LARGE,
                     _("String table “%s” is larger than 4 GiB"), t->name);
          return;
        }
      put_u32 (w, TYPE_STRING_TABLE);
      put_u32 (w, padded);
      put_bytes (w, t->data->str, t->data->len);
      put_zeros (w, padded - t->data->len);
    }
  else
    {
      guint32 n = p->records->len / p->words;
      guint64 len = TABLE_NAME_SIZE + 4 + (guint64) p->records->len * 4;

      if (len > G_MAXUINT32)
        {
          set_error (w, CPEL_ERROR_TOO_LARGE,
                     _("Section of type %u is larger than 4 GiB"), p->type);
          return;
        }
      put_u32 (w, p->type);
      put_u32 (w, len);
      put_table_name (w, p->table);
      put_u32 (w, n);
      for (guint i = 0; i < p->records->len; i++)
        put_u32 (w, g_array_index (p->records, guint32, i));
    }
}

static void
end_events (CpelWriter *w)
{
  if (!w->in_events)
    return;
  w->in_events = FALSE;
  if (w->events_left != 0)
    set_error (w, CPEL_ERROR_SECTION,
               _("Event section declared %u events but %u were written"),
               w->events_declared, w->events_declared - w->events_left);
}

static void
write_all_pending (CpelWriter *w)
{
  for (guint i = 0; i < w->pending->len; i++)
    write_pending (w, g_ptr_array_index (w->pending, i));
  g_ptr_array_set_size (w->pending, 0);
  w->current = NULL;
}

static Pending *
add_pending (CpelWriter *w, guint32 type, guint table, guint words)
{
  Pending *p;

  end_events (w);
  w->current = NULL;
  if (!count_section (w))
    return NULL;
  p = g_new0 (Pending, 1);
  p->type = type;
  p->table = table;
  p->words = words;
  if (words > 0)
    p->records = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_ptr_array_add (w->pending, p);
  return p;
}

/* ---- public API ---------------------------------------------------------- */

static GFile *
create_temp_next_to (GFile *target, GFileOutputStream **stream, GError **error)
{
  g_autoptr(GFile) dir = g_file_get_parent (target);
  g_autofree char *base = g_file_get_basename (target);

  if (dir == NULL || base == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("Invalid file name"));
      return NULL;
    }
  for (int attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *name = g_strdup_printf (".%s.%08x.tmp", base, g_random_int ());
      g_autoptr(GFile) tmp = g_file_get_child (dir, name);
      g_autoptr(GError) local = NULL;

      *stream = g_file_create (tmp, G_FILE_CREATE_NONE, NULL, &local);
      if (*stream != NULL)
        return g_steal_pointer (&tmp);
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_EXISTS))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               _("Could not create a temporary file"));
  return NULL;
}

CpelWriter *
cpel_writer_new (const char  *path,
                 gboolean     little_endian,
                 guint32      date,
                 GError     **error)
{
  g_autoptr(CpelWriter) w = g_new0 (CpelWriter, 1);
  guint8 header[8];

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  w->little_endian = little_endian;
  w->tables = g_ptr_array_new_with_free_func (string_table_free);
  w->pending = g_ptr_array_new_with_free_func (pending_free);
  w->buf = g_malloc (BUFFER_SIZE);

  if (path != NULL && !cpel_output_is_stdout (path))
    {
      GFileOutputStream *stream = NULL;

      /* a symbolic link is written through; a device, FIFO or folder is
       * never replaced by the rename at finish */
      w->path = cpel_output_resolve (path, error);
      if (w->path == NULL)
        return NULL;
      path = w->path;
      w->target = g_file_new_for_path (path);
      w->tmp = create_temp_next_to (w->target, &stream, error);
      if (w->tmp == NULL)
        return NULL;
      w->out = G_OUTPUT_STREAM (stream);
    }
  else
    {
      w->mem = g_byte_array_new ();
      w->to_stdout = path != NULL;
    }

  header[0] = 1 | (little_endian ? 0x80 : 0);
  header[1] = 0;
  header[2] = 0;   /* section count: patched at finish */
  header[3] = 0;
  store32 (w, header + 4, date);
  put_bytes (w, header, sizeof header);

  return g_steal_pointer (&w);
}

void
cpel_writer_set_overwrite (CpelWriter *writer,
                           gboolean    overwrite)
{
  g_return_if_fail (writer != NULL);
  writer->overwrite = !!overwrite;
}

guint
cpel_writer_add_string_table (CpelWriter *writer,
                              const char *name)
{
  StringTable *t;
  Pending *p;
  guint handle;

  g_return_val_if_fail (writer != NULL, 0);
  g_return_val_if_fail (name != NULL, 0);

  if (strlen (name) >= TABLE_NAME_SIZE)
    set_error (writer, CPEL_ERROR_INVALID,
               _("String table name “%s” is longer than %d bytes"),
               name, TABLE_NAME_SIZE - 1);

  t = g_new0 (StringTable, 1);
  t->name = g_strndup (name, TABLE_NAME_SIZE - 1);
  t->data = g_string_sized_new (256);
  g_string_append_len (t->data, name, strlen (name) + 1);
  /* The name itself is not registered: offset 0 means "no string" to a
   * reader, so an equal string gets its own, non-zero offset. */
  t->offsets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  handle = writer->tables->len;
  g_ptr_array_add (writer->tables, t);

  p = add_pending (writer, TYPE_STRING_TABLE, handle, 0);
  if (p == NULL)
    t->sealed = TRUE;
  return handle;
}

guint
cpel_writer_add_string_table_data (CpelWriter *writer,
                                   const void *data,
                                   gsize       len)
{
  const char *bytes = data;
  const char *nul;
  StringTable *t;
  guint handle;

  g_return_val_if_fail (writer != NULL, 0);
  g_return_val_if_fail (data != NULL || len == 0, 0);

  if (len > G_MAXUINT32 - 3)
    set_error (writer, CPEL_ERROR_TOO_LARGE, _("A section holds at most 4 GiB"));

  nul = len ? memchr (bytes, '\0', len) : NULL;
  t = g_new0 (StringTable, 1);
  t->name = g_strndup (bytes, MIN (nul ? (gsize) (nul - bytes) : len, TABLE_NAME_SIZE - 1));
  t->data = g_string_new_len (bytes, len);
  t->offsets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  t->sealed = TRUE;
  handle = writer->tables->len;
  g_ptr_array_add (writer->tables, t);

  add_pending (writer, TYPE_STRING_TABLE, handle, 0);
  return handle;
}

guint32
cpel_writer_add_string (CpelWriter *writer,
                        guint       table,
                        const char *s)
{
  StringTable *t;
  gpointer value;
  gsize offset;

  g_return_val_if_fail (writer != NULL, 0);
  g_return_val_if_fail (table < writer->tables->len, 0);
  g_return_val_if_fail (s != NULL, 0);

  t = g_ptr_array_index (writer->tables, table);
  if (g_hash_table_lookup_extended (t->offsets, s, NULL, &value))
    return GPOINTER_TO_UINT (value);
  if (t->sealed)
    {
      set_error (writer, CPEL_ERROR_INVALID,
                 _("String table “%s” was already written: cannot add “%s”"),
                 t->name, s);
      return 0;
    }
  offset = t->data->len;
  if (offset > G_MAXUINT32 - 4)
    {
      set_error (writer, CPEL_ERROR_TOO_LARGE,
                 _("String table “%s” is larger than 4 GiB"), t->name);
      return 0;
    }
  g_string_append_len (t->data, s, strlen (s) + 1);
  g_hash_table_insert (t->offsets, g_strdup (s), GUINT_TO_POINTER ((guint) offset));
  return offset;
}

static guint32
add_format (CpelWriter *w, guint table, const char *s)
{
  return s != NULL ? cpel_writer_add_string (w, table, s) : 0;
}

static void
add_record (CpelWriter *w, guint32 type, const guint32 *words, guint n)
{
  if (w->current == NULL || w->current->type != type)
    {
      set_error (w, CPEL_ERROR_INVALID,
                 _("A record of type %u was added outside a section of that type"), type);
      return;
    }
  g_array_append_vals (w->current->records, words, n);
}

static void
begin_defs (CpelWriter *w, guint32 type, guint table, guint words)
{
  g_return_if_fail (w != NULL);
  g_return_if_fail (table < w->tables->len);

  w->current = add_pending (w, type, table, words);
}

void
cpel_writer_begin_symbols (CpelWriter *writer, guint table)
{
  begin_defs (writer, TYPE_SYMBOL_TABLE, table, 2);
}

void
cpel_writer_add_symbol (CpelWriter *writer, guint32 value, const char *name)
{
  guint32 rec[2];

  g_return_if_fail (writer != NULL);
  g_return_if_fail (writer->current != NULL && writer->current->type == TYPE_SYMBOL_TABLE);

  rec[0] = value;
  rec[1] = add_format (writer, writer->current->table, name);
  add_record (writer, TYPE_SYMBOL_TABLE, rec, 2);
}

void
cpel_writer_begin_event_defs (CpelWriter *writer, guint table)
{
  begin_defs (writer, TYPE_EVENT_DEFS, table, 3);
}

void
cpel_writer_add_event_def (CpelWriter *writer,
                           guint32     code,
                           const char *event_format,
                           const char *datum_format)
{
  guint32 rec[3];

  g_return_if_fail (writer != NULL);
  g_return_if_fail (writer->current != NULL && writer->current->type == TYPE_EVENT_DEFS);

  rec[0] = code;
  rec[1] = add_format (writer, writer->current->table, event_format);
  rec[2] = add_format (writer, writer->current->table, datum_format);
  add_record (writer, TYPE_EVENT_DEFS, rec, 3);
}

void
cpel_writer_begin_track_defs (CpelWriter *writer, guint table)
{
  begin_defs (writer, TYPE_TRACK_DEFS, table, 2);
}

void
cpel_writer_add_track_def (CpelWriter *writer, guint32 id, const char *format)
{
  guint32 rec[2];

  g_return_if_fail (writer != NULL);
  g_return_if_fail (writer->current != NULL && writer->current->type == TYPE_TRACK_DEFS);

  rec[0] = id;
  rec[1] = add_format (writer, writer->current->table, format);
  add_record (writer, TYPE_TRACK_DEFS, rec, 2);
}

void
cpel_writer_begin_events (CpelWriter *writer,
                          guint       table,
                          guint32     clock_ticks,
                          guint32     n_events)
{
  guint64 len = EVENTS_HEADER_SIZE + (guint64) n_events * EVENT_SIZE;

  g_return_if_fail (writer != NULL);
  g_return_if_fail (table < writer->tables->len);

  end_events (writer);
  write_all_pending (writer);
  if (len > G_MAXUINT32)
    {
      set_error (writer, CPEL_ERROR_TOO_LARGE,
                 _("An event section holds at most %u events"),
                 (G_MAXUINT32 - EVENTS_HEADER_SIZE) / EVENT_SIZE);
      return;
    }
  if (!count_section (writer))
    return;

  put_u32 (writer, TYPE_EVENTS);
  put_u32 (writer, len);
  put_table_name (writer, table);
  put_u32 (writer, n_events);
  put_u32 (writer, clock_ticks);
  writer->in_events = TRUE;
  writer->events_left = n_events;
  writer->events_declared = n_events;
}

void
cpel_writer_add_event (CpelWriter *writer,
                       guint64     ticks,
                       guint32     track,
                       guint32     code,
                       guint32     datum)
{
  guint8 *p;

  if (G_UNLIKELY (!writer->in_events || writer->events_left == 0))
    {
      set_error (writer, CPEL_ERROR_SECTION,
                 _("An event was added outside an event section or beyond its declared count"));
      return;
    }
  writer->events_left--;
  if (G_UNLIKELY (writer->buf_len + EVENT_SIZE > BUFFER_SIZE))
    flush_buffer (writer);
  p = writer->buf + writer->buf_len;
  store32 (writer, p, ticks >> 32);
  store32 (writer, p + 4, (guint32) ticks);
  store32 (writer, p + 8, track);
  store32 (writer, p + 12, code);
  store32 (writer, p + 16, datum);
  writer->buf_len += EVENT_SIZE;
}

void
cpel_writer_add_raw_section (CpelWriter *writer,
                             guint32     type,
                             const void *data,
                             gsize       len)
{
  Pending *p;

  g_return_if_fail (writer != NULL);
  g_return_if_fail (data != NULL || len == 0);

  if (len > G_MAXUINT32)
    {
      set_error (writer, CPEL_ERROR_TOO_LARGE, _("A section holds at most 4 GiB"));
      return;
    }
  p = add_pending (writer, type, 0, 0);
  if (p != NULL)
    p->raw = g_bytes_new (data, len);
}

void
cpel_writer_add_raw_section_parts (CpelWriter   *writer,
                                   guint32       type,
                                   GBytes      **parts,
                                   guint         n_parts)
{
  Pending *p;
  guint64 len = 0;

  g_return_if_fail (writer != NULL);
  g_return_if_fail (parts != NULL || n_parts == 0);

  for (guint i = 0; i < n_parts; i++)
    len += g_bytes_get_size (parts[i]);
  if (len > G_MAXUINT32)
    {
      set_error (writer, CPEL_ERROR_TOO_LARGE, _("A section holds at most 4 GiB"));
      return;
    }
  p = add_pending (writer, type, 0, 0);
  if (p == NULL)
    return;
  p->raw_parts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (guint i = 0; i < n_parts; i++)
    g_ptr_array_add (p->raw_parts, g_bytes_ref (parts[i]));
}

static gboolean
patch_section_count (CpelWriter *w, GError **error)
{
  guint8 count[2];

  if (w->mem != NULL)
    {
      g_assert (w->mem->len >= 4);
      w->mem->data[2] = w->little_endian ? (w->n_sections & 0xff) : (w->n_sections >> 8);
      w->mem->data[3] = w->little_endian ? (w->n_sections >> 8) : (w->n_sections & 0xff);
      return TRUE;
    }
  if (!G_IS_SEEKABLE (w->out) || !g_seekable_can_seek (G_SEEKABLE (w->out)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("The output stream cannot seek"));
      return FALSE;
    }
  if (w->little_endian)
    {
      count[0] = w->n_sections & 0xff;
      count[1] = w->n_sections >> 8;
    }
  else
    {
      count[0] = w->n_sections >> 8;
      count[1] = w->n_sections & 0xff;
    }
  return g_seekable_seek (G_SEEKABLE (w->out), 2, G_SEEK_SET, NULL, error)
         && g_output_stream_write_all (w->out, count, 2, NULL, NULL, error)
         && g_seekable_seek (G_SEEKABLE (w->out), 0, G_SEEK_END, NULL, error);
}

/* Moves the finished temporary file to the target; without overwrite this
 * is a hard link (fails atomically when the target exists) then an unlink. */
static gboolean
commit_file (CpelWriter *w, GError **error)
{
  g_autofree char *tmp_path = g_file_get_path (w->tmp);
  int saved_errno;

  if (w->overwrite)
    return g_file_move (w->tmp, w->target,
                        G_FILE_COPY_OVERWRITE | G_FILE_COPY_NO_FALLBACK_FOR_MOVE,
                        NULL, NULL, NULL, error);

  if (tmp_path != NULL && link (tmp_path, w->path) == 0)
    {
      g_unlink (tmp_path);
      return TRUE;
    }
  saved_errno = errno;
  if (saved_errno == EEXIST)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("This file already exists"));
      return FALSE;
    }
  /* No hard links here (e.g. FAT): a move that refuses an existing target. */
  return g_file_move (w->tmp, w->target, G_FILE_COPY_NO_FALLBACK_FOR_MOVE,
                      NULL, NULL, NULL, error);
}

static void
discard_output (CpelWriter *w)
{
  if (w->out != NULL && !g_output_stream_is_closed (w->out))
    g_output_stream_close (w->out, NULL, NULL);
  if (w->tmp != NULL)
    {
      g_file_delete (w->tmp, NULL, NULL);
      g_clear_object (&w->tmp);
    }
}

gboolean
cpel_writer_finish (CpelWriter  *writer,
                    GError     **error)
{
  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (!writer->finished, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  writer->finished = TRUE;
  end_events (writer);
  write_all_pending (writer);
  flush_buffer (writer);
  if (writer->error == NULL)
    patch_section_count (writer, &writer->error);
  if (writer->error == NULL && writer->out != NULL)
    g_output_stream_close (writer->out, NULL, &writer->error);
  if (writer->error == NULL && writer->tmp != NULL)
    {
      if (commit_file (writer, &writer->error))
        g_clear_object (&writer->tmp);
    }
  if (writer->error != NULL)
    {
      discard_output (writer);
      g_propagate_error (error, g_steal_pointer (&writer->error));
      return FALSE;
    }
  if (writer->to_stdout)
    return cpel_output_write_stdout (writer->mem->data, writer->mem->len, error);
  if (writer->mem != NULL)
    writer->bytes = g_byte_array_free_to_bytes (g_steal_pointer (&writer->mem));
  return TRUE;
}

GBytes *
cpel_writer_steal_bytes (CpelWriter *writer)
{
  g_return_val_if_fail (writer != NULL, NULL);
  g_return_val_if_fail (writer->finished, NULL);

  return g_steal_pointer (&writer->bytes);
}

void
cpel_writer_free (CpelWriter *writer)
{
  if (writer == NULL)
    return;
  discard_output (writer);
  g_clear_object (&writer->out);
  g_clear_pointer (&writer->mem, g_byte_array_unref);
  g_clear_object (&writer->target);
  g_clear_pointer (&writer->path, g_free);
  g_clear_pointer (&writer->tables, g_ptr_array_unref);
  g_clear_pointer (&writer->pending, g_ptr_array_unref);
  g_clear_pointer (&writer->bytes, g_bytes_unref);
  g_clear_error (&writer->error);
  g_free (writer->buf);
  g_free (writer);
}
