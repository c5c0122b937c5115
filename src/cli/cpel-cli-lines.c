/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cli-lines.c — one line per event, human-readable or TSV
 *
 * TSV:               time_ns TAB track TAB track_label TAB code TAB event TAB datum
 * Human:             aligned time, track label, "event: datum".
 *
 * Hot path for `dump --tsv` of 10^7 events: the track and event-type columns
 * are escaped once and cached; numbers are converted by hand; lines collect
 * in a large buffer written to stdout in big chunks.
 */
#include "cpel-cli.h"

#include <string.h>

#define FLUSH_THRESHOLD   (1u << 20)
#define HUMAN_TRACK_MAX   28     /* pad track labels to at most this many columns */

/* The output buffer: appends are inline (GString's are calls). */
typedef struct
{
  char  *buf;
  gsize  len;
  gsize  cap;
} Out;

static void
out_grow (Out *o, gsize need)
{
  while (o->cap - o->len < need)
    o->cap *= 2;
  o->buf = g_realloc (o->buf, o->cap);
}

static inline void
out_put (Out *o, const char *s, gsize n)
{
  if (G_UNLIKELY (o->cap - o->len < n))
    out_grow (o, n);
  memcpy (o->buf + o->len, s, n);
  o->len += n;
}

static inline void
out_putc (Out *o, char c)
{
  if (G_UNLIKELY (o->cap == o->len))
    out_grow (o, 1);
  o->buf[o->len++] = c;
}

static inline void
out_puts (Out *o, const char *s)
{
  out_put (o, s, strlen (s));
}

struct _CpelLinePrinter
{
  CpelFile  *file;
  gboolean   tsv;
  guint      n_tracks;
  guint      n_types;
  char     **track_cols;   /* per slot, built on first use */
  char     **type_cols;    /* per type, built on first use */
  guint     *track_lens;   /* their lengths in bytes */
  guint     *type_lens;
  Out        out;
  GString   *datum;
  guint      time_width;   /* human: columns of the time field */
  CpelTimeKind time_kind;  /* human: ns, or ticks of an unknown clock */
  guint      track_width;  /* human: columns of the track field */
  CpelClockKind clock;     /* times on the capture's clock (NONE: since the first event) */
  gint64     clock_origin;
};

/* Escapes control bytes (below 0x20, and 0x7f) as \t \r \n or \xHH; a
 * backslash is doubled only when `backslash` is set (TSV, where the escapes
 * must read back unambiguously): the human format prints a label's own
 * backslashes as they are. */
static void
escape_out_mode (Out *out, const char *s, gsize len, gboolean backslash)
{
  static const char hex[] = "0123456789abcdef";
  const guchar *p = (const guchar *) s, *end = p + len, *run = p;

  for (; p < end; p++)
    {
      guchar c = *p;

      if (G_LIKELY (c >= 0x20 && c != 0x7f && (c != '\\' || !backslash)))
        continue;
      if (p > run)
        out_put (out, (const char *) run, p - run);
      run = p + 1;
      switch (c)
        {
        case '\\': out_put (out, "\\\\", 2); break;
        case '\t': out_put (out, "\\t", 2); break;
        case '\r': out_put (out, "\\r", 2); break;
        case '\n': out_put (out, "\\n", 2); break;
        default:
          {
            char esc[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };
            out_put (out, esc, 4);
          }
          break;
        }
    }
  if (p > run)
    out_put (out, (const char *) run, p - run);
}

static inline void
escape_out (Out *out, const char *s, gsize len)
{
  escape_out_mode (out, s, len, TRUE);
}

char *
cpel_cli_escape (const char *s)
{
  gsize len = s != NULL ? strlen (s) : 0;
  Out o = { g_malloc (len + 16), 0, len + 16 };

  escape_out_mode (&o, s != NULL ? s : "", len, FALSE);
  out_put (&o, "", 1);
  return o.buf;
}

void
cpel_cli_escape_append (GString    *out,
                        const char *s,
                        gsize       len)
{
  Out o = { g_malloc (len + 16), 0, len + 16 };

  escape_out (&o, s, len);
  g_string_append_len (out, o.buf, o.len);
  g_free (o.buf);
}

static inline void
u64_out (Out *out, guint64 v)
{
  char buf[24];
  char *p = buf + sizeof buf;

  do
    {
      *--p = '0' + v % 10;
      v /= 10;
    }
  while (v != 0);
  out_put (out, p, buf + sizeof buf - p);
}

static inline void
i64_out (Out *out, gint64 v)
{
  if (v < 0)
    {
      out_putc (out, '-');
      u64_out (out, -(guint64) v);
    }
  else
    u64_out (out, v);
}

/* Columns ≈ characters: every byte that does not continue a UTF-8 sequence
 * (safe on invalid UTF-8, which labels from a file may hold). */
static glong
columns_of (const char *s)
{
  glong cols = 0;

  for (const char *c = s; *c; c++)
    cols += ((guchar) *c & 0xc0) != 0x80;
  return cols;
}

/* Appends s, then spaces up to `width` display columns (or spaces first). */
static void
padded_out (Out *out, const char *s, guint width, gboolean right)
{
  glong cols = columns_of (s);

  if (right)
    for (glong i = cols; i < (glong) width; i++)
      out_putc (out, ' ');
  out_puts (out, s);
  if (!right)
    for (glong i = cols; i < (glong) width; i++)
      out_putc (out, ' ');
}

static char *
escaped (const char *s, gboolean backslash)
{
  Out o = { g_malloc (64), 0, 64 };

  escape_out_mode (&o, s, strlen (s), backslash);
  out_putc (&o, '\0');
  return o.buf;
}

/* Column strings are built once per track / type into an Out, then kept. */
static char *
out_steal (Out *o)
{
  out_putc (o, '\0');
  return o->buf;
}

CpelLinePrinter *
cpel_line_printer_new (CpelFile *file,
                       gboolean  tsv)
{
  CpelLinePrinter *p = g_new0 (CpelLinePrinter, 1);

  p->file = g_object_ref (file);
  p->tsv = tsv;
  p->n_tracks = cpel_file_get_n_tracks (file);
  p->n_types = cpel_file_get_n_types (file);
  p->track_cols = g_new0 (char *, p->n_tracks);
  p->type_cols = g_new0 (char *, p->n_types);
  p->track_lens = g_new0 (guint, p->n_tracks);
  p->type_lens = g_new0 (guint, p->n_types);
  p->out.cap = FLUSH_THRESHOLD + 65536;
  p->out.buf = g_malloc (p->out.cap);
  p->datum = g_string_sized_new (256);

  if (!tsv)
    {
      char buf[64];

      /* Times in the largest unit they reach, with every digit down to the
       * ns: two events 210 ns apart never read alike ("28.121000 ms",
       * "28.121210 ms"). */
      p->time_kind = cpel_file_get_time_kind (file);
      cpel_time_format_exact_to (cpel_file_get_duration (file), cpel_file_get_duration (file),
                                 p->time_kind, buf, sizeof buf);
      p->time_width = MAX (10, columns_of (buf));
      for (guint slot = 0; slot < p->n_tracks && p->track_width < HUMAN_TRACK_MAX; slot++)
        {
          g_autofree char *label = escaped (cpel_file_get_track_label (file, slot), FALSE);

          p->track_width = MAX (p->track_width, (guint) columns_of (label));
        }
      p->track_width = MIN (p->track_width, HUMAN_TRACK_MAX);
    }
  return p;
}

static const char *
track_col (CpelLinePrinter *p, guint slot)
{
  if (G_UNLIKELY (p->track_cols[slot] == NULL))
    {
      Out o = { g_malloc (64), 0, 64 };
      g_autofree char *label = escaped (cpel_file_get_track_label (p->file, slot), p->tsv);

      if (p->tsv)
        {
          u64_out (&o, cpel_file_get_track_id (p->file, slot));
          out_putc (&o, '\t');
          out_puts (&o, label);
          out_putc (&o, '\t');
        }
      else
        {
          padded_out (&o, label, p->track_width, FALSE);
          out_puts (&o, "  ");
        }
      p->track_lens[slot] = o.len;
      p->track_cols[slot] = out_steal (&o);
    }
  return p->track_cols[slot];
}

static const char *
type_col (CpelLinePrinter *p, guint type)
{
  if (G_UNLIKELY (p->type_cols[type] == NULL))
    {
      Out o = { g_malloc (64), 0, 64 };
      g_autofree char *name = escaped (cpel_file_get_type_name (p->file, type), p->tsv);

      if (p->tsv)
        {
          u64_out (&o, cpel_file_get_type_code (p->file, type));
          out_putc (&o, '\t');
          out_puts (&o, name);
          out_putc (&o, '\t');
        }
      else
        out_puts (&o, name);
      p->type_lens[type] = o.len;
      p->type_cols[type] = out_steal (&o);
    }
  return p->type_cols[type];
}

/* The track and type columns; an event read from a file that shrank under
 * us may carry a slot or type the file does not have: print it by id/code. */
static inline void
track_out (CpelLinePrinter *p, const CpelEvent *ev)
{
  if (G_LIKELY (ev->track_slot < p->n_tracks))
    {
      const char *col = track_col (p, ev->track_slot);
      out_put (&p->out, col, p->track_lens[ev->track_slot]);
    }
  else
    {
      char label[16];

      g_snprintf (label, sizeof label, ev->track_id <= 65535 ? "%u" : "0x%08x", ev->track_id);
      if (p->tsv)
        {
          u64_out (&p->out, ev->track_id);
          out_putc (&p->out, '\t');
          out_puts (&p->out, label);
          out_putc (&p->out, '\t');
        }
      else
        {
          padded_out (&p->out, label, p->track_width, FALSE);
          out_put (&p->out, "  ", 2);
        }
    }
}

static inline void
type_out (CpelLinePrinter *p, const CpelEvent *ev)
{
  if (G_LIKELY (ev->type < p->n_types))
    {
      const char *col = type_col (p, ev->type);
      out_put (&p->out, col, p->type_lens[ev->type]);
    }
  else
    {
      if (p->tsv)
        {
          u64_out (&p->out, ev->code);
          out_putc (&p->out, '\t');
        }
      out_putc (&p->out, 'E');
      u64_out (&p->out, ev->code);
      if (p->tsv)
        out_putc (&p->out, '\t');
    }
}

void
cpel_line_printer_set_clock (CpelLinePrinter *p,
                             CpelClockKind    clock,
                             gint64           origin_ns)
{
  p->clock = clock;
  p->clock_origin = origin_ns;
  if (!p->tsv && clock != CPEL_CLOCK_NONE)
    {
      gint64 last = origin_ns + cpel_file_get_duration (p->file);
      char buf[64];

      p->time_width = (guint) cpel_time_format_clock_to (clock, last, 9, FALSE, buf, sizeof buf);
    }
}

/* The first column's name: the capture clock's ns (since 1970 for a wall
 * clock) or the time since the first event. */
static const char *
time_column (CpelLinePrinter *p)
{
  return p->clock != CPEL_CLOCK_NONE ? "clock_ns" : "time_ns";
}

void
cpel_line_printer_header (CpelLinePrinter *p)
{
  if (p->tsv)
    {
      out_puts (&p->out, time_column (p));
      out_puts (&p->out, "\ttrack\ttrack_label\tcode\tevent\tdatum\n");
    }
}

void
cpel_line_printer_header_extra (CpelLinePrinter *p,
                                const char      *extra)
{
  if (!p->tsv)
    return;
  out_puts (&p->out, time_column (p));
  out_puts (&p->out, "\ttrack\ttrack_label\tcode\tevent\tdatum");
  out_puts (&p->out, extra);
  out_putc (&p->out, '\n');
}

void
cpel_line_printer_event (CpelLinePrinter *p,
                         const CpelEvent *ev)
{
  cpel_line_printer_event_suffix (p, ev, NULL);
}

/* An event's own text that starts with its type's name (VPP elog: the name
 * is the text's first word) is the whole label, as cpel_file_append_label ()
 * makes it. */
static gboolean
repeats_name (CpelLinePrinter *p,
              const CpelEvent *ev)
{
  const char *name;
  gsize len;

  if (p->datum->len == 0 || ev->type >= cpel_file_get_n_types (p->file)
      || !cpel_file_has_event_texts (p->file))
    return FALSE;
  name = cpel_file_get_type_name (p->file, ev->type);
  len = strlen (name);
  return len > 0 && p->datum->len >= len && memcmp (p->datum->str, name, len) == 0;
}

void
cpel_line_printer_event_suffix (CpelLinePrinter *p,
                                const CpelEvent *ev,
                                const char      *suffix)
{
  Out *out = &p->out;

  g_string_truncate (p->datum, 0);
  cpel_file_append_datum (p->file, ev, p->datum);

  if (p->tsv)
    {
      i64_out (out, p->clock != CPEL_CLOCK_NONE ? p->clock_origin + ev->time_ns : ev->time_ns);
      out_putc (out, '\t');
      track_out (p, ev);
      type_out (p, ev);
      escape_out (out, p->datum->str, p->datum->len);
    }
  else
    {
      char buf[64];
      gsize len, cols;

      /* right-aligned: columns are bytes but for the micro sign's two */
      if (G_UNLIKELY (p->clock != CPEL_CLOCK_NONE))
        len = cpel_time_format_clock_to (p->clock, p->clock_origin + ev->time_ns, 9, FALSE,
                                         buf, sizeof buf);
      else
        len = cpel_time_format_exact_to (ev->time_ns, ev->time_ns, p->time_kind, buf, sizeof buf);
      cols = len - (len >= 4 && buf[len - 1] == 's' && (guchar) buf[len - 2] == 0xb5);
      if (G_UNLIKELY (out->cap - out->len < p->time_width + len + 2))
        out_grow (out, p->time_width + len + 2);
      if (cols < p->time_width)
        {
          memset (out->buf + out->len, ' ', p->time_width - cols);
          out->len += p->time_width - cols;
        }
      memcpy (out->buf + out->len, buf, len);
      out->len += len;
      out->buf[out->len++] = ' ';
      out->buf[out->len++] = ' ';
      track_out (p, ev);
      if (G_UNLIKELY (repeats_name (p, ev)))
        {
          /* "state idle -> polling", not "state: state idle -> polling" (as the viewer) */
          escape_out_mode (out, p->datum->str, p->datum->len, FALSE);
        }
      else
        {
          type_out (p, ev);
          if (p->datum->len > 0)
            {
              out_put (out, ": ", 2);
              escape_out_mode (out, p->datum->str, p->datum->len, FALSE);
            }
        }
    }
  if (suffix != NULL)
    out_puts (out, suffix);
  out_putc (out, '\n');

  if (G_UNLIKELY (out->len >= FLUSH_THRESHOLD))
    cpel_line_printer_flush (p);
}

void
cpel_line_printer_flush (CpelLinePrinter *p)
{
  if (p->out.len > 0)
    fwrite (p->out.buf, 1, p->out.len, stdout);
  p->out.len = 0;
}

void
cpel_line_printer_free (CpelLinePrinter *p)
{
  if (p == NULL)
    return;
  cpel_line_printer_flush (p);
  for (guint i = 0; i < p->n_tracks; i++)
    g_free (p->track_cols[i]);
  for (guint i = 0; i < p->n_types; i++)
    g_free (p->type_cols[i]);
  g_free (p->track_cols);
  g_free (p->type_cols);
  g_free (p->track_lens);
  g_free (p->type_lens);
  g_free (p->out.buf);
  g_string_free (p->datum, TRUE);
  g_object_unref (p->file);
  g_free (p);
}
