/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import-elog.c — VPP clib event logs ("elog v0", vppinfra serialize)
 *
 * Layout, clocks and traps: doc/import-formats.md, section 1.
 * Every field is read through a bounded reader: a count, a length, a varint,
 * a type or track index, an enum index or a string-table offset that the
 * file cannot back is an error naming its byte offset (or, for enum and
 * string references inside an event's text, a visible marker), never a read
 * outside the file.
 *
 * Text: each event is rendered as VPP's elog_dump prints it: the type's
 * format is cut into pieces at each conversion and every piece formatted by
 * a re-implementation of clib's format() (cpel-elog-clib-format.c).
 */
#include "cpel-import-elog-private.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cpel-elog-clib-format.h"
#include "cpel-error.h"
#include "cpel-writer.h"

#define ELOG_MAGIC "elog v0"
#define ELOG_EPOCH_2017 G_GINT64_CONSTANT (1490885108)   /* 2017-03-30 14:45:08 UTC */

static gboolean
probe_elog (const guint8 *data,
            gsize         size,
            const char   *path)
{
  return size >= 11 && memcmp (data, "\0\0\0\7" ELOG_MAGIC, 11) == 0;
}

/* ---- bounded reader ------------------------------------------------------------ */

static gsize
rd_offset (const Reader *r)
{
  return (gsize) (r->p - r->start);
}

static gboolean
rd_need (Reader     *r,
         gsize       n,
         const char *what)
{
  if ((gsize) (r->end - r->p) >= n)
    return TRUE;
  g_set_error (r->error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
               _("VPP elog: %s at offset %" PRIu64 " needs %" PRIu64
                 " bytes, the file ends at %" PRIu64),
               _(what), rd_offset (r), n, (gsize) (r->end - r->start));
  return FALSE;
}

static inline guint32
get_be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

static gboolean
rd_u8 (Reader *r, guint32 *v, const char *what)
{
  if (!rd_need (r, 1, what))
    return FALSE;
  *v = r->p[0];
  r->p += 1;
  return TRUE;
}

static gboolean
rd_u16 (Reader *r, guint32 *v, const char *what)
{
  if (!rd_need (r, 2, what))
    return FALSE;
  *v = (guint32) r->p[0] << 8 | r->p[1];
  r->p += 2;
  return TRUE;
}

static gboolean
rd_u32 (Reader *r, guint32 *v, const char *what)
{
  if (!rd_need (r, 4, what))
    return FALSE;
  *v = get_be32 (r->p);
  r->p += 4;
  return TRUE;
}

/* serialize_64: two big-endian u32, low half first. */
static gboolean
rd_u64 (Reader *r, guint64 *v, const char *what)
{
  if (!rd_need (r, 8, what))
    return FALSE;
  *v = (guint64) get_be32 (r->p) | (guint64) get_be32 (r->p + 4) << 32;
  r->p += 8;
  return TRUE;
}

static gboolean
rd_f64 (Reader *r, double *v, const char *what)
{
  guint64 bits;

  if (!rd_u64 (r, &bits, what))
    return FALSE;
  memcpy (v, &bits, 8);
  return TRUE;
}

static gboolean
rd_f32 (Reader *r, double *v, const char *what)
{
  guint32 bits;
  float f;

  if (!rd_u32 (r, &bits, what))
    return FALSE;
  memcpy (&f, &bits, 4);
  *v = f;
  return TRUE;
}

/* Little-endian varint with the size tag in the low bits of byte 0. */
static gboolean
rd_varint (Reader *r, guint64 *v, const char *what)
{
  guint8 b;

  if (!rd_need (r, 1, what))
    return FALSE;
  b = r->p[0];
  if (b & 1)
    {
      *v = b >> 1;
      r->p += 1;
    }
  else if (b & 2)
    {
      if (!rd_need (r, 2, what))
        return FALSE;
      *v = 128 + ((guint64) (r->p[0] | r->p[1] << 8) >> 2);
      r->p += 2;
    }
  else if (b & 4)
    {
      if (!rd_need (r, 4, what))
        return FALSE;
      *v = 16512 + (((guint64) r->p[0] | (guint64) r->p[1] << 8 | (guint64) r->p[2] << 16
                     | (guint64) r->p[3] << 24) >> 3);
      r->p += 4;
    }
  else
    {
      guint64 x = 0;

      if (!rd_need (r, 9, what))
        return FALSE;
      for (int i = 8; i >= 1; i--)
        x = x << 8 | r->p[i];
      *v = x;
      r->p += 9;
    }
  return TRUE;
}

/* A cstring: varint length then the bytes, bounded by the file. */
static gboolean
rd_cstring (Reader *r, const char **s, gsize *len, const char *what)
{
  const guint8 *at = r->p;
  guint64 n;

  if (!rd_varint (r, &n, what))
    return FALSE;
  if (n > (guint64) (r->end - r->p))
    {
      g_set_error (r->error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("VPP elog: %s at offset %" PRIu64 " claims %" PRIu64
                     " bytes, only %" PRIu64 " remain"),
                   _(what), (gsize) (at - r->start), n, (gsize) (r->end - r->p));
      return FALSE;
    }
  *s = (const char *) r->p;
  *len = (gsize) n;
  r->p += n;
  return TRUE;
}

static char *
rd_strdup (Reader *r, const char *what)
{
  const char *s;
  gsize len;

  if (!rd_cstring (r, &s, &len, what))
    return NULL;
  return g_strndup (s, len);   /* an embedded NUL ends it, as in C */
}

/* ---- types ---------------------------------------------------------------------- */

/* Parse "i4T4s0f8…": a letter and a 1–2 digit size per argument. */
static void
compile_args (ElogType *t)
{
  GArray *specs = g_array_new (FALSE, FALSE, sizeof (ArgSpec));
  const char *a = t->args;

  while (*a)
    {
      ArgSpec spec = { *a, 0 };
      guint n = 0, digits = 0;

      while (digits < 2 && g_ascii_isdigit (a[1 + digits]))
        {
          n = n * 10 + (guint) (a[1 + digits] - '0');
          digits++;
        }
      if (digits == 0)
        {
          t->bad_args = g_strdup_printf (_("argument %u (“%c”) has no size"), specs->len + 1, *a);
          break;
        }
      spec.size = (guint8) n;
      switch (spec.letter)
        {
        case 'i': case 't': case 'T':
          if (n != 1 && n != 2 && n != 4 && n != 8)
            t->bad_args = g_strdup_printf (_("argument %u is “%c%u”: integers have 1, 2, 4 or 8 bytes"),
                                           specs->len + 1, spec.letter, n);
          break;
        case 'f':
          if (n != 4 && n != 8)
            t->bad_args = g_strdup_printf (_("argument %u is “f%u”: floats have 4 or 8 bytes"),
                                           specs->len + 1, n);
          break;
        case 's':
          break;
        default:
          t->bad_args = g_strdup_printf (_("argument %u has the unknown letter “%c” (0x%02x)"),
                                         specs->len + 1, g_ascii_isprint (spec.letter) ? spec.letter : '?',
                                         (guint8) spec.letter);
          break;
        }
      if (t->bad_args)
        break;
      if (spec.letter == 'i' && !t->has_int)
        t->has_int = TRUE;
      g_array_append_val (specs, spec);
      a += 1 + digits;
    }
  t->n_specs = specs->len;
  t->specs = (ArgSpec *) g_array_free (specs, FALSE);
}

/* c2cpel's brief name: the format up to the first ' ', '%' or '('. */
static void
compile_name (ElogType *t)
{
  gsize j = strcspn (t->format, " %(");

  t->name = g_strndup (t->format, j);
  t->cut = j + 1;
}

static void
elog_type_clear (ElogType *t)
{
  g_free (t->format);
  g_free (t->args);
  g_strfreev (t->enums);
  g_free (t->specs);
  g_free (t->bad_args);
  g_free (t->name);
}

/* ---- the file --------------------------------------------------------------------- */

static void
elog_clear (Elog *e)
{
  if (e->types)
    for (guint32 i = 0; i < e->n_types; i++)
      elog_type_clear (&e->types[i]);
  g_free (e->types);
  if (e->tracks)
    for (guint32 i = 0; i < e->n_tracks; i++)
      g_free (e->tracks[i]);
  g_free (e->tracks);
}

/* A vector count, bounded by the bytes left (each element >= min_size). */
static gboolean
rd_count (Reader *r, guint32 *n, gsize min_size, const char *what)
{
  gsize at = rd_offset (r);

  if (!rd_u32 (r, n, what))
    return FALSE;
  if ((guint64) *n * min_size > (guint64) (r->end - r->p))
    {
      g_set_error (r->error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("VPP elog: %s at offset %" PRIu64 " claims %u, but only %"
                     PRIu64 " bytes follow"),
                   _(what), at, *n, (gsize) (r->end - r->p));
      return FALSE;
    }
  return TRUE;
}

static gboolean
elog_parse_header (Elog          *e,
                   const guint8  *data,
                   gsize          size,
                   GError       **error)
{
  Reader *r = &e->r;
  const char *magic;
  gsize len;
  guint32 n;

  r->start = r->p = data;
  r->end = data + size;
  r->error = error;

  if (!rd_u32 (r, &n, N_("the magic’s length")))
    return FALSE;
  if (n != 7 || !rd_need (r, 7, N_("the magic")) || memcmp (r->p, ELOG_MAGIC, 7) != 0)
    {
      if (error && *error == NULL)
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
                     _("VPP elog: no “elog v0” magic at offset 0"));
      return FALSE;
    }
  magic = (const char *) r->p;
  (void) magic;
  r->p += 7;
  if (!rd_u32 (r, &e->ring_size, N_("the ring size"))
      || !rd_u64 (r, &e->save_os, N_("the save time"))
      || !rd_u64 (r, &e->save_cpu, N_("the save time"))
      || !rd_u64 (r, &e->init_os, N_("the init time"))
      || !rd_u64 (r, &e->init_cpu, N_("the init time")))
    return FALSE;

  /* event types: each at least 1 + 1 + 4 + 4 bytes */
  if (!rd_count (r, &e->n_types, 10, N_("the number of event types")))
    return FALSE;
  if (e->n_types > 65536)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("VPP elog: %u event types (offset %" PRIu64 "): events index them "
                     "with 16 bits"), e->n_types, rd_offset (r) - 4);
      return FALSE;
    }
  e->types = g_new0 (ElogType, MAX (e->n_types, 1));
  for (guint32 i = 0; i < e->n_types; i++)
    {
      ElogType *t = &e->types[i];
      guint32 index_plus_one;

      if ((t->format = rd_strdup (r, N_("an event type’s format"))) == NULL)
        return FALSE;
      t->args_offset = rd_offset (r);
      if ((t->args = rd_strdup (r, N_("an event type’s argument list"))) == NULL)
        return FALSE;
      if (!rd_u32 (r, &index_plus_one, N_("an event type’s index"))
          || !rd_count (r, &t->n_enums, 1, N_("the number of enum strings")))
        return FALSE;
      t->enums = g_new0 (char *, (gsize) t->n_enums + 1);
      for (guint32 k = 0; k < t->n_enums; k++)
        if ((t->enums[k] = rd_strdup (r, N_("an enum string"))) == NULL)
          return FALSE;
      compile_args (t);
      compile_name (t);
    }

  /* tracks */
  if (!rd_count (r, &e->n_tracks, 1, N_("the number of tracks")))
    return FALSE;
  if (e->n_tracks > 65536)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("VPP elog: %u tracks (offset %" PRIu64 "): events index them "
                     "with 16 bits"), e->n_tracks, rd_offset (r) - 4);
      return FALSE;
    }
  e->tracks = g_new0 (char *, (gsize) e->n_tracks + 1);
  for (guint32 i = 0; i < e->n_tracks; i++)
    if ((e->tracks[i] = rd_strdup (r, N_("a track name"))) == NULL)
      return FALSE;

  /* string table */
  if (!rd_count (r, &e->strtab_len, 1, N_("the string table’s length")))
    return FALSE;
  e->strtab_offset = rd_offset (r);
  r->p += e->strtab_len;

  /* events: each at least 2 + 2 + 8 bytes */
  if (!rd_count (r, &e->n_events, 12, N_("the number of events")))
    return FALSE;
  e->events_offset = rd_offset (r);
  (void) len;
  return TRUE;
}

/* The checks every event passes, at import and when its text is made. */
static gboolean
elog_check_event (const Elog *e,
                  Reader     *r,
                  ElogEvent  *ev)
{
  if (ev->type >= e->n_types)
    {
      g_set_error (r->error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("VPP elog: the event at offset %" PRIu64 " has type %u, but the file "
                     "defines %u types"), ev->offset, ev->type, e->n_types);
      return FALSE;
    }
  if (ev->track >= e->n_tracks)
    {
      g_set_error (r->error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("VPP elog: the event at offset %" PRIu64 " is on track %u, but the "
                     "file defines %u tracks"), ev->offset, ev->track, e->n_tracks);
      return FALSE;
    }
  if (!isfinite (ev->time) || ev->time < 0 || ev->time > 9.2e9)
    {
      g_set_error (r->error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("VPP elog: the event at offset %" PRIu64 " has an impossible time "
                     "(%g s)"), ev->offset, ev->time);
      return FALSE;
    }
  if (e->types[ev->type].bad_args)
    {
      const ElogType *t = &e->types[ev->type];

      g_set_error (r->error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("VPP elog: the event at offset %" PRIu64 " has type %u “%s” whose "
                     "argument list “%s” (offset %" PRIu64 ") cannot be read: %s"),
                   ev->offset, ev->type, t->format, t->args, t->args_offset, t->bad_args);
      return FALSE;
    }
  return TRUE;
}

/* Read one event without its text (the import): type, track, time, datum. */
static inline gboolean
elog_scan_event (const Elog *e,
                 Reader     *r,
                 ElogEvent  *ev)
{
  const ElogType *t;
  const guint8 *p = r->p;
  gboolean have_datum = FALSE, have_other = FALSE;
  guint32 datum_other = 0;

  ev->offset = rd_offset (r);
  if (G_UNLIKELY ((gsize) (r->end - p) < 12))
    {
      guint32 x;
      double d;
      /* for the error message */
      if (rd_u16 (r, &x, N_("an event’s type")) && rd_u16 (r, &x, N_("an event’s track")))
        (void) rd_f64 (r, &d, N_("an event’s time"));   /* fails: fewer than 12 bytes */
      return FALSE;
    }
  ev->type = (guint32) p[0] << 8 | p[1];
  ev->track = (guint32) p[2] << 8 | p[3];
  {
    guint64 bits = (guint64) get_be32 (p + 4) | (guint64) get_be32 (p + 8) << 32;
    memcpy (&ev->time, &bits, 8);
  }
  r->p = p + 12;
  if (G_UNLIKELY (ev->type >= e->n_types || ev->track >= e->n_tracks
                  || !(ev->time >= 0 && ev->time <= 9.2e9) || e->types[ev->type].bad_args))
    return elog_check_event (e, r, ev);   /* FALSE, with the reason */
  t = &e->types[ev->type];
  for (guint k = 0; k < t->n_specs; k++)
    {
      const ArgSpec *spec = &t->specs[k];
      guint64 v;

      switch (spec->letter)
        {
        case 'i': case 't': case 'T':
          if (G_UNLIKELY ((gsize) (r->end - r->p) < spec->size))
            return rd_need (r, spec->size, N_("an integer argument"));
          p = r->p;
          switch (spec->size)
            {
            case 1: v = p[0]; break;
            case 2: v = (guint32) p[0] << 8 | p[1]; break;
            case 4: v = get_be32 (p); break;
            default: v = (guint64) get_be32 (p) | (guint64) get_be32 (p + 4) << 32; break;
            }
          r->p += spec->size;
          if (spec->letter == 'i' && !have_datum)
            {
              ev->datum = (guint32) v;
              have_datum = TRUE;
            }
          else if (!have_other)
            {
              datum_other = (guint32) v;
              have_other = TRUE;
            }
          break;
        case 'f':
          if (G_UNLIKELY ((gsize) (r->end - r->p) < spec->size))
            return rd_need (r, spec->size, N_("a float argument"));
          r->p += spec->size;
          break;
        default:   /* 's' */
          {
            const char *str;
            gsize len;

            if (!rd_cstring (r, &str, &len, N_("a string argument")))
              return FALSE;
          }
          break;
        }
    }
  if (!have_datum)
    ev->datum = have_other ? datum_other : 0;
  return TRUE;
}

/* Read one event and append its text (elog_dump's) to `text`. */
gboolean
_cpel_import_elog_read_event (const Elog *e,
                              Reader     *r,
                              ElogEvent  *ev,
                              GString    *text)
{
  const ElogType *t;
  const char *f, *prev_piece = NULL;
  const char *strtab = (const char *) r->start + e->strtab_offset;
  gsize prev_len = 0;
  gboolean have_datum = FALSE;
  guint32 datum_other = 0;
  gboolean have_other = FALSE;

  gsize text_start = text->len;

  ev->offset = rd_offset (r);
  if (!rd_u16 (r, &ev->type, N_("an event’s type")) || !rd_u16 (r, &ev->track, N_("an event’s track"))
      || !rd_f64 (r, &ev->time, N_("an event’s time")))
    return FALSE;
  if (!elog_check_event (e, r, ev))
    return FALSE;
  t = &e->types[ev->type];

  f = t->format;
  for (guint k = 0;; k++)
    {
      /* fixed_format(): the literal text up to the next conversion, then the
       * conversion itself ("%-08.3Ld") */
      const char *lit = f, *piece = NULL;
      gsize piece_len = 0;
      char piece_buf[64];
      CpelElogClibArg arg = { CPEL_ELOG_CLIB_ARG_NONE };
      const ArgSpec *spec;
      guint64 v = 0;

      while (f[0] != 0 && !(f[0] == '%' && f[1] != '%'))
        f++;
      g_string_append_len (text, lit, f - lit);
      if (f[0] == '%')
        {
          piece = f++;
          f += f[0] == '+' || f[0] == '-' || f[0] == '=';
          while ((f[0] >= '0' && f[0] <= '9') || f[0] == '.')
            f++;
          f += f[0] == 'w' || f[0] == 'l' || f[0] == 'L';
          f += f[0] != 0;
          piece_len = MIN ((gsize) (f - piece), sizeof piece_buf - 1);
          prev_piece = piece;
          prev_len = piece_len;
        }
      else if (prev_piece != NULL)
        {
          /* no conversion left: clib reuses the previous one */
          piece = prev_piece;
          piece_len = prev_len;
        }

      if (k >= t->n_specs)
        break;
      spec = &t->specs[k];
      switch (spec->letter)
        {
        case 'i': case 't': case 'T':
          {
            guint32 x;
            gboolean ok = spec->size == 1 ? rd_u8 (r, &x, N_("an integer argument"))
                          : spec->size == 2 ? rd_u16 (r, &x, N_("an integer argument"))
                          : spec->size == 4 ? rd_u32 (r, &x, N_("an integer argument"))
                          : rd_u64 (r, &v, N_("an integer argument"));
            if (!ok)
              return FALSE;
            if (spec->size != 8)
              v = x;
            arg.kind = spec->size == 8 ? CPEL_ELOG_CLIB_ARG_INT64 : CPEL_ELOG_CLIB_ARG_INT;
            arg.u = v;
            if (spec->letter == 'i' && !have_datum)
              {
                ev->datum = (guint32) v;
                have_datum = TRUE;
              }
            else if (!have_other)
              {
                datum_other = (guint32) v;
                have_other = TRUE;
              }
            if (spec->letter == 't')
              {
                arg.kind = CPEL_ELOG_CLIB_ARG_STRING;
                arg.s = v < t->n_enums ? t->enums[v] : NULL;
                if (arg.s == NULL)
                  {
                    g_autofree char *m = g_strdup_printf ("<bad enum %" PRIu64 ">", v);
                    if (piece)
                      g_string_append (text, m);
                    continue;
                  }
              }
            else if (spec->letter == 'T')
              {
                if (v >= e->strtab_len)
                  {
                    if (piece)
                      g_string_append_printf (text, "<bad string offset 0x%" PRIx64 ">", v);
                    continue;
                  }
                arg.kind = CPEL_ELOG_CLIB_ARG_STRING;
                /* bounded by the table: a string without NUL ends with it */
                if (memchr (strtab + v, 0, e->strtab_len - v) != NULL)
                  arg.s = strtab + v;
                else
                  {
                    g_autofree char *s = g_strndup (strtab + v, e->strtab_len - v);
                    if (piece)
                      {
                        memcpy (piece_buf, piece, piece_len);
                        piece_buf[piece_len] = 0;
                        arg.s = s;
                        cpel_elog_clib_format_piece (text, text_start, piece_buf, &arg);
                      }
                    continue;
                  }
              }
          }
          break;

        case 'f':
          if (!(spec->size == 4 ? rd_f32 (r, &arg.f, N_("a float argument"))
                                : rd_f64 (r, &arg.f, N_("a float argument"))))
            return FALSE;
          arg.kind = CPEL_ELOG_CLIB_ARG_FLOAT;
          break;

        case 's':
          {
            const char *s;
            gsize len;
            g_autofree char *copy = NULL;

            if (!rd_cstring (r, &s, &len, N_("a string argument")))
              return FALSE;
            copy = g_strndup (s, len);
            arg.kind = CPEL_ELOG_CLIB_ARG_STRING;
            arg.s = copy;
            if (piece)
              {
                memcpy (piece_buf, piece, piece_len);
                piece_buf[piece_len] = 0;
                cpel_elog_clib_format_piece (text, text_start, piece_buf, &arg);
              }
            continue;
          }
        }
      if (piece)
        {
          memcpy (piece_buf, piece, piece_len);
          piece_buf[piece_len] = 0;
          cpel_elog_clib_format_piece (text, text_start, piece_buf, &arg);
        }
    }
  if (!have_datum)
    ev->datum = have_other ? datum_other : 0;
  return TRUE;
}

/* ---- header information ------------------------------------------------------------ */

static char *
format_wall (gint64 epoch_s, guint64 os_nsec)
{
  gint64 s = epoch_s + (gint64) (os_nsec / 1000000000);
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (s);
  g_autofree char *date = NULL;

  if (dt == NULL)
    return g_strdup (_("out of range"));
  date = g_date_time_format (dt, "%Y-%m-%d %H:%M:%S");
  return g_strdup_printf ("%s.%09u UTC", date, (guint) (os_nsec % 1000000000));
}

static void
elog_describe (const Elog        *e,
               CpelImportBuilder *b)
{
  g_autofree char *s = NULL;
  gint64 dos = (gint64) (e->save_os - e->init_os);
  gint64 dcpu = (gint64) (e->save_cpu - e->init_cpu);
  gboolean from_1970 = e->init_os > G_GUINT64_CONSTANT (1000000000000000000);

  s = g_strdup_printf ("%u", e->ring_size);
  cpel_import_builder_add_info (b, N_("Ring size"), s);
  g_clear_pointer (&s, g_free);
  s = g_strdup_printf ("%u", e->n_types);
  cpel_import_builder_add_info (b, N_("Event types"), s);
  g_clear_pointer (&s, g_free);
  s = g_strdup_printf ("%u", e->n_tracks);
  cpel_import_builder_add_info (b, N_("Tracks"), s);
  g_clear_pointer (&s, g_free);
  if (dos > 0 && dcpu > 0)
    s = g_strdup_printf (_("%.3f MHz (estimated: %.6f ns per cycle between init and save)"),
                         (double) dcpu / (double) dos * 1e3, (double) dos / (double) dcpu);
  else
    s = g_strdup (_("unknown (init and save times do not advance)"));
  cpel_import_builder_add_info (b, N_("CPU clock"), s);
  g_clear_pointer (&s, g_free);

  s = format_wall (from_1970 ? 0 : ELOG_EPOCH_2017, e->init_os);
  cpel_import_builder_add_info (b, N_("Start (wall clock)"), s);
  g_clear_pointer (&s, g_free);
  /* the capture's start for `cpel info` (a reserved key, not listed) */
  {
    guint64 start;

    if (!__builtin_add_overflow (e->init_os,
                                 (guint64) (from_1970 ? 0 : ELOG_EPOCH_2017) * 1000000000u,
                                 &start))
      {
        s = g_strdup_printf ("%" PRIu64, start);
        cpel_import_builder_add_info (b, "start-unix-ns", s);
        g_clear_pointer (&s, g_free);
        /* event times count from the start: on the wall clock, start + t */
        if (start <= G_MAXINT64)
          cpel_import_builder_set_clock_origin (b, CPEL_CLOCK_WALL, (gint64) start);
      }
  }
  cpel_import_builder_add_info (b, N_("Wall-clock epoch"),
                                from_1970 ? _("1970-01-01 (os_nsec above 1e18: an old file)")
                                          : _("2017-03-30 14:45:08 UTC (VPP since April 2017)"));
  s = format_wall (from_1970 ? 0 : ELOG_EPOCH_2017, e->save_os);
  cpel_import_builder_add_info (b, N_("Saved (wall clock)"), s);
  g_clear_pointer (&s, g_free);
  /* Why there is nothing to show (a reserved key: the viewer's empty page) */
  if (e->n_events == 0 && e->ring_size == 0)
    cpel_import_builder_add_info (b, "empty-reason",
                                  _("The log’s header gives a ring size of 0: it had no "
                                    "room for events."));
  else if (e->n_events == 0)
    {
      s = g_strdup_printf (ngettext ("The log’s ring (room for %u event) was empty when "
                                     "it was saved.",
                                     "The log’s ring (room for %u events) was empty when "
                                     "it was saved.", e->ring_size), e->ring_size);
      cpel_import_builder_add_info (b, "empty-reason", s);
    }
}

/* ---- import ------------------------------------------------------------------------ */

/* An event's text, made when asked: the event read again from the source,
 * bounded as at import (the bytes may have changed since: a marker then). */
static void
elog_format_text (gconstpointer  state,
                  const guint8  *data,
                  gsize          size,
                  guint64        ref,
                  GString       *out)
{
  const Elog *e = state;
  g_autoptr(GError) local = NULL;
  Reader r = { data, data + MIN (ref, size), data + size, &local };
  ElogEvent ev;
  gsize before = out->len;

  if (e->strtab_offset + e->strtab_len <= size && _cpel_import_elog_read_event (e, &r, &ev, out))
    return;
  g_string_truncate (out, before);
  g_string_append_printf (out, "<%s>", local ? local->message : _("VPP elog: the file changed"));
}

static void
elog_free (gpointer state)
{
  elog_clear (state);
  g_free (state);
}

static const CpelImportTextFuncs elog_text_funcs = { elog_format_text, elog_free };

static gboolean
import_elog (const CpelImportSource  *src,
             const CpelImportOptions *options,
             CpelImportBuilder       *b,
             GCancellable            *cancellable,
             GError                 **error)
{
  Elog *e = g_new0 (Elog, 1);
  Reader *r = &e->r;

  if (!elog_parse_header (e, src->data, src->size, error))
    {
      elog_free (e);
      return FALSE;
    }

  if (options->c2cpel)
    {
      gboolean ok = _cpel_import_elog_c2cpel (e, b, error);
      elog_free (e);
      return ok;
    }

  elog_describe (e, b);
  cpel_import_builder_set_clock (b, CPEL_IMPORT_CLOCK_EXACT,
                                 _("event times are seconds since the log’s start, as VPP "
                                   "converted them with its CPU clock"));
  if (options->ticks_per_second)
    cpel_import_builder_add_info (b, N_("Clock rate option"),
                                  _("ignored: elog times are already in seconds"));

  for (guint32 i = 0; i < e->n_tracks; i++)
    cpel_import_builder_add_track (b, i, e->tracks[i]);
  for (guint32 i = 0; i < e->n_types; i++)
    cpel_import_builder_add_type (b, i, e->types[i].name, e->types[i].has_int ? "%d" : NULL);
  /* from here on the builder owns e */
  cpel_import_builder_set_text_source (b, &elog_text_funcs, e, src->size);
  if (!cpel_import_builder_begin_events (b, e->n_events, error))
    return FALSE;

  for (guint32 i = 0; i < e->n_events; i++)
    {
      ElogEvent ev;
      double x;
      guint64 ns;

      if (G_UNLIKELY (!elog_scan_event (e, r, &ev)))
        return FALSE;
      /* llround () without the call: 0 <= x < 2^63 was checked, x - ns is exact */
      x = ev.time * 1e9;
      ns = (guint64) x;
      ns += x - (double) ns >= 0.5;
      cpel_import_builder_add_event_ref (b, ns, ev.track, ev.type, ev.datum, ev.offset);
      if (G_UNLIKELY ((i & 0xffff) == 0xffff))
        {
          if (!cpel_import_check_cancel (b, error))
            return FALSE;
          cpel_import_report_progress (b, (double) i / e->n_events);
        }
    }
  if (r->p != r->end)
    {
      g_autofree char *s = g_strdup_printf (_("%" PRIu64 " bytes at offset %" PRIu64
                                              " after the last event are ignored"),
                                            (gsize) (r->end - r->p), rd_offset (r));
      cpel_import_builder_add_info (b, N_("Trailing data"), s);
    }
  return TRUE;
}

const CpelImporter cpel_importer_elog = {
  .id = "elog",
  .name = N_("VPP elog"),
  .mime_type = "application/x-vpp-elog",
  .patterns = (const char * const[]) { "*.elog", NULL },
  .directory = FALSE,
  .probe = probe_elog,
  .import = import_elog,
};
