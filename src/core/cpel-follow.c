/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-follow.c — a growing CPEL file read section by section
 * (see cpel-follow.h; the layout is doc/cpel-format.md's) */
#include "cpel-follow.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"
#include "cpel-file-private.h"
#include "cpel-format.h"

#define HEADER_SIZE   8
#define PREFIX_SIZE   64      /* string table name in sections 2–5 */
#define RECORD_SIZE   20
#define CHECK_SIZE    64      /* bytes before the read point compared at each poll */
#define STREAM_CHUNK  65536
#define STREAM_READ_MAX (16u << 20)   /* per poll */

typedef struct
{
  char       *name;
  CpelFormat *datum;
} EventDef;

struct _CpelFollower
{
  char        *path;          /* NULL: a stream (a pipe), read as it comes */
  guint64      clock_rate;
  int          fd;
  GByteArray  *sbuf;          /* stream: the bytes from sbuf_start not yet consumed */
  guint64      sbuf_start;
  gboolean     eof;
  dev_t        dev;
  ino_t        ino;

  gboolean     little;
  guint64      offset;        /* the next section's */
  guint8       check[CHECK_SIZE];   /* the bytes before offset, as read */
  guint        check_len;

  GPtrArray   *strtabs;       /* GBytes, the sections' data */
  GHashTable  *strtab_names;  /* name -> GBytes (the first of that name) */
  GHashTable  *event_defs;    /* code -> EventDef */
  GHashTable  *track_labels;  /* id -> char * */

  GBytes      *records;       /* the events section being returned */
  const guint8 *rec_data;
  guint32      rec_n, rec_next;
  guint64      rec_tps;
  guint64      rec_offset;    /* of its first record in the file */
  GBytes      *rec_strtab;

  gboolean     have_t0;
  gint64       t0;

  GArray      *events;        /* CpelFollowEvent of the last poll */
  GStringChunk *texts;
  GString     *scratch;
};

static void
event_def_free (gpointer data)
{
  EventDef *d = data;

  g_free (d->name);
  g_clear_pointer (&d->datum, cpel_format_free);
  g_free (d);
}

static inline guint32
rd32 (const CpelFollower *f,
      const guint8       *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return f->little ? GUINT32_FROM_LE (v) : GUINT32_FROM_BE (v);
}

static void
reset (CpelFollower *f)
{
  f->offset = HEADER_SIZE;
  f->check_len = 0;
  g_ptr_array_set_size (f->strtabs, 0);
  g_hash_table_remove_all (f->strtab_names);
  g_hash_table_remove_all (f->event_defs);
  g_hash_table_remove_all (f->track_labels);
  g_clear_pointer (&f->records, g_bytes_unref);
  g_clear_pointer (&f->rec_strtab, g_bytes_unref);
  f->rec_n = f->rec_next = 0;
  f->have_t0 = FALSE;
}

static gboolean
read_at (CpelFollower *f,
         guint8       *buf,
         gsize         len,
         guint64       offset)
{
  gsize done = 0;

  if (f->path == NULL)
    {
      if (offset < f->sbuf_start || offset + len > f->sbuf_start + f->sbuf->len)
        return FALSE;
      memcpy (buf, f->sbuf->data + (offset - f->sbuf_start), len);
      return TRUE;
    }

  while (done < len)
    {
      gssize r = pread (f->fd, buf + done, len - done, (off_t) (offset + done));

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return FALSE;
      done += (gsize) r;
    }
  return TRUE;
}

int
cpel_follow_open_regular (const char  *path,
                          int          flags,
                          struct stat *st,
                          GError     **error)
{
  int fd;

  g_return_val_if_fail (path != NULL && st != NULL, -1);

  fd = g_open (path, O_RDONLY | O_CLOEXEC | flags, 0);
  if (fd < 0 || fstat (fd, st) != 0)
    {
      int e = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", g_strerror (e));
      return -1;
    }
  if (!S_ISREG (st->st_mode))
    {
      close (fd);
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("This is not a regular file"));
      return -1;
    }
  return fd;
}

static gboolean
open_file (CpelFollower *f,
           GError      **error)
{
  struct stat st;
  int fd = cpel_follow_open_regular (f->path, 0, &st, error);

  if (fd < 0)
    return FALSE;
  if (f->fd >= 0)
    close (f->fd);
  f->fd = fd;
  f->dev = st.st_dev;
  f->ino = st.st_ino;
  reset (f);
  return TRUE;
}

CpelFollower *
cpel_follower_new (const char *path,
                   guint64     clock_rate,
                   GError    **error)
{
  CpelFollower *f;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  f = g_new0 (CpelFollower, 1);
  f->path = g_strdup (path);
  f->clock_rate = clock_rate;
  f->fd = -1;
  f->strtabs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  f->strtab_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->event_defs = g_hash_table_new_full (NULL, NULL, NULL, event_def_free);
  f->track_labels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  f->events = g_array_new (FALSE, FALSE, sizeof (CpelFollowEvent));
  f->texts = g_string_chunk_new (4096);
  f->scratch = g_string_new (NULL);
  if (!open_file (f, error))
    {
      cpel_follower_free (f);
      return NULL;
    }
  {
    guint8 first;

    /* a file that is there already must start as CPEL does (version 1) */
    if (read_at (f, &first, 1, 0) && (first & 0x7f) != 1)
      {
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL,
                     _("Only a Snabb timeline or a CPEL file can be followed; this file "
                       "starts with byte 0x%02x"), first);
        cpel_follower_free (f);
        return NULL;
      }
  }
  return f;
}

CpelFollower *
cpel_follower_new_for_fd (int     fd,
                          guint64 clock_rate)
{
  CpelFollower *f;

  g_return_val_if_fail (fd >= 0, NULL);

  f = g_new0 (CpelFollower, 1);
  f->clock_rate = clock_rate;
  f->fd = -1;   /* not ours */
  f->sbuf = g_byte_array_new ();
  f->strtabs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  f->strtab_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->event_defs = g_hash_table_new_full (NULL, NULL, NULL, event_def_free);
  f->track_labels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  f->events = g_array_new (FALSE, FALSE, sizeof (CpelFollowEvent));
  f->texts = g_string_chunk_new (4096);
  f->scratch = g_string_new (NULL);
  reset (f);
  f->fd = fd;
  return f;
}

void
cpel_follower_push_prefix (CpelFollower *f,
                           const guint8 *data,
                           gsize         len)
{
  g_return_if_fail (f != NULL && f->path == NULL);
  g_byte_array_append (f->sbuf, data, (guint) len);
}

/* Reads what the stream has now, without waiting; at most STREAM_READ_MAX
 * bytes a poll, and never more buffered than a section and its header.
 * Returns the stream offset up to which bytes are there. */
gsize
cpel_follow_read_available (int          fd,
                            GByteArray  *into,
                            gsize        max,
                            gboolean    *eof,
                            GError     **error)
{
  gsize got = 0;

  g_return_val_if_fail (into != NULL && eof != NULL, 0);

  while (!*eof && got < max)
    {
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      guint8 chunk[STREAM_CHUNK];
      gssize r;

      if (poll (&pfd, 1, 0) <= 0)
        break;   /* nothing more now */
      r = read (fd, chunk, MIN (sizeof chunk, max - got));
      if (r < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (r < 0)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", g_strerror (errno));
          *eof = TRUE;
          break;
        }
      if (r == 0)
        *eof = TRUE;
      g_byte_array_append (into, chunk, (guint) r);
      got += (gsize) r;
    }
  return got;
}

static guint64
stream_fill (CpelFollower *f,
             GError      **error)
{
  gsize room = (gsize) CPEL_FOLLOW_SECTION_MAX + 2 * STREAM_CHUNK;

  if (f->sbuf->len < room)
    cpel_follow_read_available (f->fd, f->sbuf, MIN (STREAM_READ_MAX, room - f->sbuf->len),
                                &f->eof, error);
  return f->sbuf_start + f->sbuf->len;
}

void
cpel_follower_free (CpelFollower *f)
{
  if (f == NULL)
    return;
  if (f->fd >= 0 && f->path != NULL)
    close (f->fd);
  if (f->sbuf != NULL)
    g_byte_array_unref (f->sbuf);
  g_clear_pointer (&f->records, g_bytes_unref);
  g_clear_pointer (&f->rec_strtab, g_bytes_unref);
  g_ptr_array_unref (f->strtabs);
  g_hash_table_unref (f->strtab_names);
  g_hash_table_unref (f->event_defs);
  g_hash_table_unref (f->track_labels);
  g_array_unref (f->events);
  g_string_chunk_free (f->texts);
  g_string_free (f->scratch, TRUE);
  g_free (f->path);
  g_free (f);
}

/* The string table a section names (the 64-byte, NUL-padded field at p). */
static GBytes *
strtab_named (CpelFollower *f,
              const guint8 *p)
{
  g_autofree char *name = g_strndup ((const char *) p, PREFIX_SIZE);

  return g_hash_table_lookup (f->strtab_names, name);
}

/* A definition's format applied to its code or id; without one, the event
 * type is "E<code>", the track its id. */
static char *
format_string (GBytes     *strtab,
               guint32     offset,
               guint32     value,
               gboolean    track)
{
  gsize len = 0;
  const char *data = strtab ? g_bytes_get_data (strtab, &len) : NULL;
  g_autoptr(CpelFormat) format = NULL;
  CpelStrtab st = { data, len };
  GString *out;

  if (data == NULL || offset == 0 || offset >= len)
    return !track ? g_strdup_printf ("E%d", (gint32) value)
           : value <= 65535 ? g_strdup_printf ("%u", value) : g_strdup_printf ("0x%08x", value);
  format = cpel_format_new (data + offset, (gssize) strnlen (data + offset, len - offset));
  out = g_string_new (NULL);
  cpel_format_append (format, value, &st, NULL, out);
  return g_string_free (out, FALSE);
}

/* Takes one complete section (data at its offset + 8). */
static gboolean
take_section (CpelFollower *f,
              guint32       type,
              GBytes       *bytes,
              guint64       offset,
              GError      **error)
{
  gsize len;
  const guint8 *d = g_bytes_get_data (bytes, &len);
  guint32 n, rec_size = type == 2 || type == 4 ? 8 : type == 3 ? 12 : RECORD_SIZE;
  guint32 prefix = PREFIX_SIZE + 4 + (type == 5 ? 4 : 0);

  if (type == 1)
    {
      const guint8 *nul = len > 0 ? memchr (d, 0, len) : NULL;
      char *name = g_strndup ((const char *) d, nul ? (gsize) (nul - d) : len);

      g_ptr_array_add (f->strtabs, g_bytes_ref (bytes));
      if (g_hash_table_contains (f->strtab_names, name))
        g_free (name);
      else
        g_hash_table_insert (f->strtab_names, name, bytes);
      return TRUE;
    }
  if (type < 2 || type > 5)
    return TRUE;   /* not ours: skipped by its length */
  if (len < prefix)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                   _("Section at offset %" PRIu64 ": %" PRIu64
                     " data bytes are too few for its header"), offset, (guint64) len);
      return FALSE;
    }
  n = rd32 (f, d + PREFIX_SIZE);
  if ((guint64) n * rec_size > len - prefix)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                   _("Section at offset %" PRIu64 ": %u records of %u bytes do not "
                     "fit in its %" PRIu64 " data bytes"), offset, n, rec_size, (guint64) len);
      return FALSE;
    }
  if (type == 3)
    {
      GBytes *st = strtab_named (f, d);

      for (guint32 i = 0; i < n; i++)
        {
          const guint8 *r = d + prefix + (gsize) i * rec_size;
          guint32 code = rd32 (f, r), name_off = rd32 (f, r + 4), datum_off = rd32 (f, r + 8);
          EventDef *def;
          gsize st_len = 0;
          const char *st_data = st ? g_bytes_get_data (st, &st_len) : NULL;

          if (g_hash_table_contains (f->event_defs, GUINT_TO_POINTER (code)))
            continue;   /* the first definition holds */
          def = g_new0 (EventDef, 1);
          def->name = format_string (st, name_off, code, FALSE);
          if (st_data != NULL && datum_off != 0 && datum_off < st_len)
            def->datum = cpel_format_new (st_data + datum_off,
                                          (gssize) strnlen (st_data + datum_off,
                                                            st_len - datum_off));
          g_hash_table_insert (f->event_defs, GUINT_TO_POINTER (code), def);
        }
      return TRUE;
    }
  if (type == 4)
    {
      GBytes *st = strtab_named (f, d);

      for (guint32 i = 0; i < n; i++)
        {
          const guint8 *r = d + prefix + (gsize) i * rec_size;
          guint32 id = rd32 (f, r), fmt = rd32 (f, r + 4);

          if (!g_hash_table_contains (f->track_labels, GUINT_TO_POINTER (id)))
            g_hash_table_insert (f->track_labels, GUINT_TO_POINTER (id),
                                 format_string (st, fmt, id, TRUE));
        }
      return TRUE;
    }
  if (type == 5)
    {
      guint32 clock = rd32 (f, d + PREFIX_SIZE + 4);
      guint64 tps = f->clock_rate;

      if (tps == 0)
        tps = clock == 0 ? 0 : clock < 100000 ? (guint64) clock * 1000000 : clock;
      if (tps == 0 && n > 0)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_CLOCK,
                       _("The events section at offset %" PRIu64 " has a clock rate "
                         "of 0; read it with --clock-rate HZ"), offset);
          return FALSE;
        }
      g_clear_pointer (&f->records, g_bytes_unref);
      g_clear_pointer (&f->rec_strtab, g_bytes_unref);
      f->records = g_bytes_ref (bytes);
      f->rec_data = d + prefix;
      f->rec_n = n;
      f->rec_next = 0;
      f->rec_tps = tps;
      f->rec_offset = offset + 8 + prefix;
      f->rec_strtab = strtab_named (f, d);
      if (f->rec_strtab != NULL)
        g_bytes_ref (f->rec_strtab);
    }
  return TRUE;   /* type 2: symbols are not used (%k prints the address) */
}

static const char *
intern_track (CpelFollower *f,
              guint32       id)
{
  const char *label = g_hash_table_lookup (f->track_labels, GUINT_TO_POINTER (id));

  if (label != NULL)
    return label;
  if (id <= 65535)
    g_string_printf (f->scratch, "%u", id);
  else
    g_string_printf (f->scratch, "0x%08x", id);
  return g_string_chunk_insert (f->texts, f->scratch->str);
}

static void
emit_records (CpelFollower *f,
              gsize         max)
{
  gsize len = 0;
  const char *st = f->rec_strtab ? g_bytes_get_data (f->rec_strtab, &len) : NULL;
  CpelStrtab strtab = { st, len };

  while (f->rec_next < f->rec_n && f->events->len < max)
    {
      const guint8 *r = f->rec_data + (gsize) f->rec_next++ * RECORD_SIZE;
      guint64 ticks = (guint64) rd32 (f, r) << 32 | rd32 (f, r + 4);
      gint64 ns = cpel_ticks_to_ns (ticks, f->rec_tps);
      CpelFollowEvent ev;
      const EventDef *def;

      if (!f->have_t0)
        {
          f->t0 = ns;
          f->have_t0 = TRUE;
        }
      ev.time_ns = ns - f->t0;
      ev.track_id = rd32 (f, r + 8);
      ev.code = rd32 (f, r + 12);
      ev.datum_value = rd32 (f, r + 16);
      ev.track_label = intern_track (f, ev.track_id);
      def = g_hash_table_lookup (f->event_defs, GUINT_TO_POINTER (ev.code));
      if (def != NULL)
        ev.name = def->name;
      else
        {
          g_string_printf (f->scratch, "E%d", (gint32) ev.code);
          ev.name = g_string_chunk_insert (f->texts, f->scratch->str);
        }
      g_string_truncate (f->scratch, 0);
      if (def != NULL && def->datum != NULL)
        cpel_format_append (def->datum, ev.datum_value, st ? &strtab : NULL, NULL, f->scratch);
      ev.datum = g_string_chunk_insert (f->texts, f->scratch->str);
      g_array_append_val (f->events, ev);
    }
}

/* Is the file at the path the one read so far, with the bytes before the
 * read point unchanged?  *gone when it is no longer there. */
static gboolean
unchanged (CpelFollower *f,
           guint64      *size,
           gboolean     *gone)
{
  struct stat st;
  guint8 now[CHECK_SIZE];

  *gone = FALSE;
  if (g_stat (f->path, &st) != 0)
    {
      *gone = TRUE;
      return FALSE;
    }
  if (st.st_dev != f->dev || st.st_ino != f->ino)
    return FALSE;
  *size = (guint64) st.st_size;
  if (f->check_len == 0)
    return TRUE;   /* nothing read yet: a file still shorter than its header is not rewritten */
  if (*size < f->offset)
    return FALSE;
  if (!read_at (f, now, f->check_len, f->offset - f->check_len)
      || memcmp (now, f->check, f->check_len) != 0)
    return FALSE;
  return TRUE;
}

gsize
cpel_follower_poll (CpelFollower   *f,
                    gsize           max,
                    CpelFollowInfo *info,
                    GError        **error)
{
  guint64 size = 0;
  gboolean gone;

  g_return_val_if_fail (f != NULL, 0);
  g_return_val_if_fail (info != NULL, 0);

  memset (info, 0, sizeof *info);
  g_array_set_size (f->events, 0);
  g_string_chunk_clear (f->texts);

  if (f->path == NULL)
    {
      size = stream_fill (f, error);
      if (error != NULL && *error != NULL)
        return 0;
    }
  else if (!unchanged (f, &size, &gone))
    {
      if (gone)
        {
          info->gone = TRUE;
          return 0;
        }
      if (!open_file (f, error))
        return 0;
      info->rewritten = TRUE;
      if (!unchanged (f, &size, &gone))
        return 0;
    }

  while (f->events->len < max)
    {
      guint8 head[HEADER_SIZE];
      guint32 type, len;
      g_autofree guint8 *data = NULL;
      g_autoptr(GBytes) bytes = NULL;

      if (f->rec_next < f->rec_n)
        {
          emit_records (f, max);
          continue;
        }
      if (f->offset == HEADER_SIZE && f->check_len == 0)
        {
          /* the file header, once it is there */
          if (size < HEADER_SIZE || !read_at (f, head, HEADER_SIZE, 0))
            break;
          if ((head[0] & 0x7f) != 1)
            {
              g_set_error (error, CPEL_ERROR, CPEL_ERROR_VERSION,
                           _("Unknown CPEL version %u at offset 0"), head[0] & 0x7f);
              return 0;
            }
          f->little = (head[0] & 0x80) != 0;
        }
      if (size < f->offset + 8 || !read_at (f, head, 8, f->offset))
        break;
      type = rd32 (f, head);
      len = rd32 (f, head + 4);
      if (len > CPEL_FOLLOW_SECTION_MAX)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                       _("Section at offset %" PRIu64 ": %u data bytes, more than "
                         "this program follows (%u)"), f->offset, len, CPEL_FOLLOW_SECTION_MAX);
          return 0;
        }
      if (size < f->offset + 8 + len)
        break;   /* not all there yet */
      data = g_malloc (MAX (len, 1));
      if (!read_at (f, data, len, f->offset + 8))
        break;
      bytes = g_bytes_new_take (g_steal_pointer (&data), len);
      if (!take_section (f, type, bytes, f->offset, error))
        return 0;
      f->offset += 8 + (guint64) len;
      if (f->path == NULL)
        {
          /* a stream: what was consumed is dropped */
          g_byte_array_remove_range (f->sbuf, 0, (guint) (f->offset - f->sbuf_start));
          f->sbuf_start = f->offset;
          continue;
        }
      /* remember the bytes before the read point to notice a rewrite */
      f->check_len = (guint) MIN (f->offset, CHECK_SIZE);
      if (!read_at (f, f->check, f->check_len, f->offset - f->check_len))
        f->check_len = 0;
    }
  if (f->path == NULL && f->eof && f->events->len == 0 && f->rec_next >= f->rec_n)
    info->gone = TRUE;   /* the end of the stream */
  return f->events->len;
}

const CpelFollowEvent *
cpel_follower_event (CpelFollower *f,
                     gsize         i)
{
  g_return_val_if_fail (f != NULL, NULL);
  g_return_val_if_fail (i < f->events->len, NULL);

  return &g_array_index (f->events, CpelFollowEvent, i);
}
