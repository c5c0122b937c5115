/* cpel-cli-lines.c — one line per event, human-readable or TSV
 *
 * TSV (product.md):  time_ns TAB track TAB track_label TAB code TAB event TAB datum
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

struct _CpelLinePrinter
{
  CpelFile  *file;
  gboolean   tsv;
  guint      n_tracks;
  guint      n_types;
  char     **track_cols;   /* per slot, built on first use */
  char     **type_cols;    /* per type, built on first use */
  GString   *out;
  GString   *datum;
  guint      time_width;   /* human: columns of the time field */
  guint      track_width;  /* human: columns of the track field */
};

void
cpel_cli_escape_append (GString    *out,
                        const char *s,
                        gsize       len)
{
  static const char hex[] = "0123456789abcdef";
  const guchar *p = (const guchar *) s, *end = p + len, *run = p;

  for (; p < end; p++)
    {
      guchar c = *p;

      if (G_LIKELY (c >= 0x20 && c != 0x7f && c != '\\'))
        continue;
      if (p > run)
        g_string_append_len (out, (const char *) run, p - run);
      run = p + 1;
      switch (c)
        {
        case '\\': g_string_append_len (out, "\\\\", 2); break;
        case '\t': g_string_append_len (out, "\\t", 2); break;
        case '\r': g_string_append_len (out, "\\r", 2); break;
        case '\n': g_string_append_len (out, "\\n", 2); break;
        default:
          {
            char esc[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };
            g_string_append_len (out, esc, 4);
          }
          break;
        }
    }
  if (p > run)
    g_string_append_len (out, (const char *) run, p - run);
}

static inline void
append_u64 (GString *out, guint64 v)
{
  char buf[24];
  char *p = buf + sizeof buf;

  do
    {
      *--p = '0' + v % 10;
      v /= 10;
    }
  while (v != 0);
  g_string_append_len (out, p, buf + sizeof buf - p);
}

static inline void
append_i64 (GString *out, gint64 v)
{
  if (v < 0)
    {
      g_string_append_c (out, '-');
      append_u64 (out, -(guint64) v);
    }
  else
    append_u64 (out, v);
}

/* Appends s, then spaces up to `width` display columns. */
static void
append_padded (GString *out, const char *s, guint width, gboolean right)
{
  glong cols = g_utf8_validate (s, -1, NULL) ? g_utf8_strlen (s, -1) : (glong) strlen (s);

  if (right)
    for (glong i = cols; i < (glong) width; i++)
      g_string_append_c (out, ' ');
  g_string_append (out, s);
  if (!right)
    for (glong i = cols; i < (glong) width; i++)
      g_string_append_c (out, ' ');
}

static char *
escaped (const char *s)
{
  GString *e = g_string_new (NULL);

  cpel_cli_escape_append (e, s, strlen (s));
  return g_string_free (e, FALSE);
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
  p->out = g_string_sized_new (FLUSH_THRESHOLD + 65536);
  p->datum = g_string_sized_new (256);

  if (!tsv)
    {
      char buf[64];

      cpel_time_format_buf (cpel_file_get_duration (file), buf, sizeof buf);
      p->time_width = MAX (10, g_utf8_strlen (buf, -1));
      for (guint slot = 0; slot < p->n_tracks && p->track_width < HUMAN_TRACK_MAX; slot++)
        {
          g_autofree char *label = escaped (cpel_file_get_track_label (file, slot));

          p->track_width = MAX (p->track_width, (guint) g_utf8_strlen (label, -1));
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
      GString *s = g_string_new (NULL);
      g_autofree char *label = escaped (cpel_file_get_track_label (p->file, slot));

      if (p->tsv)
        {
          append_u64 (s, cpel_file_get_track_id (p->file, slot));
          g_string_append_c (s, '\t');
          g_string_append (s, label);
          g_string_append_c (s, '\t');
        }
      else
        {
          append_padded (s, label, p->track_width, FALSE);
          g_string_append (s, "  ");
        }
      p->track_cols[slot] = g_string_free (s, FALSE);
    }
  return p->track_cols[slot];
}

static const char *
type_col (CpelLinePrinter *p, guint type)
{
  if (G_UNLIKELY (p->type_cols[type] == NULL))
    {
      GString *s = g_string_new (NULL);
      g_autofree char *name = escaped (cpel_file_get_type_name (p->file, type));

      if (p->tsv)
        {
          append_u64 (s, cpel_file_get_type_code (p->file, type));
          g_string_append_c (s, '\t');
          g_string_append (s, name);
          g_string_append_c (s, '\t');
        }
      else
        g_string_append (s, name);
      p->type_cols[type] = g_string_free (s, FALSE);
    }
  return p->type_cols[type];
}

void
cpel_line_printer_header (CpelLinePrinter *p)
{
  if (p->tsv)
    g_string_append (p->out, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum\n");
}

void
cpel_line_printer_event (CpelLinePrinter *p,
                         const CpelEvent *ev)
{
  GString *out = p->out;

  g_string_truncate (p->datum, 0);
  cpel_file_append_datum (p->file, ev, p->datum);

  if (p->tsv)
    {
      append_i64 (out, ev->time_ns);
      g_string_append_c (out, '\t');
      g_string_append (out, track_col (p, ev->track_slot));
      g_string_append (out, type_col (p, ev->type));
      cpel_cli_escape_append (out, p->datum->str, p->datum->len);
    }
  else
    {
      char buf[64];

      cpel_time_format_buf (ev->time_ns, buf, sizeof buf);
      append_padded (out, buf, p->time_width, TRUE);
      g_string_append (out, "  ");
      g_string_append (out, track_col (p, ev->track_slot));
      g_string_append (out, type_col (p, ev->type));
      if (p->datum->len > 0)
        {
          g_string_append (out, ": ");
          cpel_cli_escape_append (out, p->datum->str, p->datum->len);
        }
    }
  g_string_append_c (out, '\n');

  if (G_UNLIKELY (out->len >= FLUSH_THRESHOLD))
    cpel_line_printer_flush (p);
}

void
cpel_line_printer_flush (CpelLinePrinter *p)
{
  if (p->out->len > 0)
    fwrite (p->out->str, 1, p->out->len, stdout);
  g_string_truncate (p->out, 0);
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
  g_string_free (p->out, TRUE);
  g_string_free (p->datum, TRUE);
  g_object_unref (p->file);
  g_free (p);
}
