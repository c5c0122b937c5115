/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-format.c — the CPEL label formatter
 *
 * A format string from a file is compiled once into segments (literal runs
 * and conversion specifications) and then interpreted by hand for each
 * value: the file's string never reaches printf.  See "The formatter" in
 * doc/cpel-format.md.
 */
#include "cpel-format.h"

#include <string.h>

typedef enum
{
  SEG_LITERAL,
  SEG_CONV,
} SegKind;

enum
{
  FLAG_MINUS = 1 << 0,
  FLAG_PLUS  = 1 << 1,
  FLAG_SPACE = 1 << 2,
  FLAG_HASH  = 1 << 3,
  FLAG_ZERO  = 1 << 4,
};

typedef enum
{
  LEN_NONE,
  LEN_H,
  LEN_HH,
} LenMod;

typedef struct
{
  guint8  kind;       /* SegKind */
  guint8  conv;       /* d i u x X o c s k */
  guint8  flags;
  guint8  length;     /* LenMod */
  guint16 width;      /* 0..CPEL_FORMAT_MAX_WIDTH */
  gint16  precision;  /* -1: none; else 0..CPEL_FORMAT_MAX_WIDTH */
  guint32 lit_off;    /* literal: offset into text */
  guint32 lit_len;
} Segment;

struct _CpelFormat
{
  char     *text;       /* literal bytes of all literal segments */
  Segment  *segs;
  guint     n_segs;
  gboolean  uses_string;
  gboolean  constant;
};

G_STATIC_ASSERT (CPEL_FORMAT_MAX_WIDTH <= G_MAXINT16);

/* ---- compilation ------------------------------------------------------ */

typedef struct
{
  GString *text;
  GArray  *segs;
} Builder;

static void
builder_literal (Builder    *b,
                 const char *s,
                 gsize       len)
{
  Segment *last;
  Segment seg = { 0, };

  if (len == 0)
    return;

  if (b->segs->len > 0)
    {
      last = &g_array_index (b->segs, Segment, b->segs->len - 1);
      if (last->kind == SEG_LITERAL && last->lit_off + last->lit_len == b->text->len)
        {
          g_string_append_len (b->text, s, len);
          last->lit_len += len;
          return;
        }
    }

  seg.kind = SEG_LITERAL;
  seg.lit_off = b->text->len;
  seg.lit_len = len;
  g_string_append_len (b->text, s, len);
  g_array_append_val (b->segs, seg);
}

/* Reads decimal digits at *p (< end), saturating at the cap. */
static guint
parse_number (const char **p,
              const char  *end)
{
  guint n = 0;

  while (*p < end && **p >= '0' && **p <= '9')
    {
      if (n <= CPEL_FORMAT_MAX_WIDTH)
        n = n * 10 + (guint) (**p - '0');
      (*p)++;
    }
  return MIN (n, CPEL_FORMAT_MAX_WIDTH);
}

CpelFormat *
cpel_format_new (const char *fmt,
                 gssize      len)
{
  CpelFormat *format;
  const char *p, *end, *nul;
  Builder b;

  if (fmt == NULL)
    {
      fmt = "";
      len = 0;
    }
  if (len < 0)
    len = strlen (fmt);
  /* A format is a C string: it ends at its first NUL. */
  nul = memchr (fmt, '\0', len);
  if (nul != NULL)
    len = nul - fmt;

  b.text = g_string_sized_new (len + 1);
  b.segs = g_array_new (FALSE, TRUE, sizeof (Segment));

  p = fmt;
  end = fmt + len;
  while (p < end)
    {
      const char *start = p;
      const char *pct = memchr (p, '%', end - p);
      Segment seg = { 0, };

      if (pct == NULL)
        {
          builder_literal (&b, p, end - p);
          break;
        }
      builder_literal (&b, p, pct - p);
      start = pct;
      p = pct + 1;

      if (p < end && *p == '%')
        {
          builder_literal (&b, "%", 1);
          p++;
          continue;
        }

      /* flags */
      for (; p < end; p++)
        {
          if (*p == '-')
            seg.flags |= FLAG_MINUS;
          else if (*p == '+')
            seg.flags |= FLAG_PLUS;
          else if (*p == ' ')
            seg.flags |= FLAG_SPACE;
          else if (*p == '#')
            seg.flags |= FLAG_HASH;
          else if (*p == '0')
            seg.flags |= FLAG_ZERO;
          else
            break;
        }

      /* width */
      seg.width = parse_number (&p, end);

      /* precision */
      seg.precision = -1;
      if (p < end && *p == '.')
        {
          p++;
          seg.precision = parse_number (&p, end);
        }

      /* length */
      seg.length = LEN_NONE;
      if (p < end)
        {
          switch (*p)
            {
            case 'h':
              p++;
              if (p < end && *p == 'h')
                {
                  p++;
                  seg.length = LEN_HH;
                }
              else
                seg.length = LEN_H;
              break;
            case 'l':
              p++;
              if (p < end && *p == 'l')
                p++;
              break;
            case 'L': case 'q': case 'j': case 'z': case 't':
              p++;
              break;
            default:
              break;
            }
        }

      if (p >= end)
        {
          /* A specification cut short by the end of the string: literal. */
          builder_literal (&b, start, end - start);
          break;
        }

      switch (*p)
        {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
        case 'c': case 's': case 'k':
          seg.kind = SEG_CONV;
          seg.conv = (guint8) *p;
          p++;
          g_array_append_val (b.segs, seg);
          break;
        default:
          /* n, p, f, anything unknown: emitted as written. */
          p++;
          builder_literal (&b, start, p - start);
          break;
        }
    }

  format = g_new0 (CpelFormat, 1);
  format->n_segs = b.segs->len;
  format->segs = (Segment *) g_array_free (b.segs, FALSE);
  format->text = g_string_free (b.text, FALSE);
  format->constant = TRUE;
  for (guint i = 0; i < format->n_segs; i++)
    {
      if (format->segs[i].kind != SEG_CONV)
        continue;
      format->constant = FALSE;
      if (format->segs[i].conv == 's')
        format->uses_string = TRUE;
    }

  return format;
}

#define HEX_DIGITS "0123456789abcdefABCDEF"

void
cpel_format_alphabet (const CpelFormat *format,
                      const CpelSymtab *symtab,
                      CpelByteSet      *set)
{
  g_return_if_fail (format != NULL);
  g_return_if_fail (set != NULL);

  for (guint i = 0; i < format->n_segs; i++)
    {
      const Segment *seg = &format->segs[i];

      if (seg->kind == SEG_LITERAL)
        {
          cpel_byte_set_add_len (set, format->text + seg->lit_off, seg->lit_len);
          continue;
        }
      switch (seg->conv)
        {
        case 'd': case 'i': case 'u': case 'o':
          cpel_byte_set_add_len (set, "0123456789+- ", 13);
          break;
        case 'x': case 'X':
          cpel_byte_set_add_len (set, HEX_DIGITS "xX+- ", strlen (HEX_DIGITS) + 5);
          break;
        case 'k':
          cpel_byte_set_add_len (set, HEX_DIGITS "xX+ ", strlen (HEX_DIGITS) + 4);
          for (gsize k = 0; symtab != NULL && k < symtab->n_symbols; k++)
            cpel_byte_set_add_len (set, symtab->symbols[k].name, symtab->symbols[k].name_len);
          break;
        default:   /* c, s: anything */
          memset (set, 0xff, sizeof *set);
          break;
        }
      if (seg->flags != 0 || seg->width > 0)
        cpel_byte_set_add_len (set, " 0", 2);
    }
}

void
cpel_format_free (CpelFormat *format)
{
  if (format == NULL)
    return;
  g_free (format->text);
  g_free (format->segs);
  g_free (format);
}

gboolean
cpel_format_is_empty (const CpelFormat *format)
{
  g_return_val_if_fail (format != NULL, TRUE);
  return format->n_segs == 0;
}

gboolean
cpel_format_uses_string (const CpelFormat *format)
{
  g_return_val_if_fail (format != NULL, FALSE);
  return format->uses_string;
}

gboolean
cpel_format_is_constant (const CpelFormat *format)
{
  g_return_val_if_fail (format != NULL, TRUE);
  return format->constant;
}

/* ---- symbols ---------------------------------------------------------- */

gssize
cpel_symtab_lookup (const CpelSymtab *symtab,
                    guint32           value)
{
  gsize lo, hi;
  guint32 found;

  if (symtab == NULL || symtab->symbols == NULL || symtab->n_symbols == 0)
    return -1;

  /* The last symbol with value <= `value` (branch-free binary search). */
  {
    const CpelSymbol *base = symtab->symbols;
    gsize n = symtab->n_symbols;

    while (n > 1)
      {
        gsize half = n / 2;

        base = base[half].value <= value ? base + half : base;
        n -= half;
      }
    if (base->value > value)
      return -1;
    lo = (base - symtab->symbols) + 1;
  }

  /* Of several symbols with that value, the first one. */
  found = symtab->symbols[lo - 1].value;
  if (lo == 1 || symtab->symbols[lo - 2].value != found)
    return (gssize) (lo - 1);
  hi = lo - 1;
  lo = 0;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (symtab->symbols[mid].value < found)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gssize) lo;
}

/* ---- interpretation --------------------------------------------------- */

static const char lower_digits[] = "0123456789abcdef";
static const char upper_digits[] = "0123456789ABCDEF";

/* Grows `out` by `n` bytes and returns where they go.  The terminating NUL
 * is written once, at the end of cpel_format_append(). */
static inline char *
grow (GString *out,
      gsize    n)
{
  gsize old = out->len;

  if (G_UNLIKELY (old + n >= out->allocated_len))
    g_string_set_size (out, old + n);   /* reallocates */
  out->len = old + n;
  return out->str + old;
}

/* fill() and put() mostly move a handful of bytes: a plain loop beats a
 * call to memset/memcpy there. */
static inline char *
fill (char *dst,
      char  c,
      gsize n)
{
  if (G_UNLIKELY (n > 16))
    {
      memset (dst, c, n);
      return dst + n;
    }
  while (n-- > 0)
    *dst++ = c;
  return dst;
}

static inline char *
put (char       *dst,
     const char *src,
     gsize       n)
{
  if (n > 16)
    {
      memcpy (dst, src, n);
      return dst + n;
    }
  while (n-- > 0)
    *dst++ = *src++;
  return dst;
}

static void
append_int (GString       *out,
            const Segment *seg,
            guint32        value)
{
  char digits[16];
  char prefix[2];
  gsize nd = 0, plen = 0, zeros = 0, body, total;
  guint32 mag;
  guint base;
  const char *set = lower_digits;
  char *dst;

  switch (seg->conv)
    {
    case 'd':
    case 'i':
      {
        gint32 v;

        if (seg->length == LEN_HH)
          v = (gint8) value;
        else if (seg->length == LEN_H)
          v = (gint16) value;
        else
          v = (gint32) value;
        if (v < 0)
          {
            mag = (guint32) (-(gint64) v);
            prefix[plen++] = '-';
          }
        else
          {
            mag = (guint32) v;
            if (seg->flags & FLAG_PLUS)
              prefix[plen++] = '+';
            else if (seg->flags & FLAG_SPACE)
              prefix[plen++] = ' ';
          }
        base = 10;
      }
      break;
    default:
      if (seg->length == LEN_HH)
        mag = (guint8) value;
      else if (seg->length == LEN_H)
        mag = (guint16) value;
      else
        mag = value;
      if (seg->conv == 'o')
        base = 8;
      else if (seg->conv == 'u')
        base = 10;
      else
        {
          base = 16;
          if (seg->conv == 'X')
            set = upper_digits;
          if ((seg->flags & FLAG_HASH) && mag != 0)
            {
              prefix[plen++] = '0';
              prefix[plen++] = seg->conv;
            }
        }
      break;
    }

  /* Digits, least significant first.  Precision 0 and value 0: none.
   * Constant divisors: no division instructions. */
  if (mag != 0 || seg->precision != 0)
    {
      switch (base)
        {
        case 10:
          do
            {
              digits[nd++] = '0' + mag % 10;
              mag /= 10;
            }
          while (mag != 0);
          break;
        case 16:
          do
            {
              digits[nd++] = set[mag & 0xf];
              mag >>= 4;
            }
          while (mag != 0);
          break;
        default:
          do
            {
              digits[nd++] = '0' + (mag & 7);
              mag >>= 3;
            }
          while (mag != 0);
          break;
        }
    }

  if (seg->precision >= 0 && (gsize) seg->precision > nd)
    zeros = seg->precision - nd;
  /* '#' with 'o': the first digit is a 0. */
  if (seg->conv == 'o' && (seg->flags & FLAG_HASH) && zeros == 0
      && (nd == 0 || digits[nd - 1] != '0'))
    zeros = 1;

  body = plen + zeros + nd;
  total = MAX (body, (gsize) seg->width);
  dst = grow (out, total);

  if (total > body)
    {
      gsize pad = total - body;

      if (seg->flags & FLAG_MINUS)
        {
          dst = put (dst, prefix, plen);
          dst = fill (dst, '0', zeros);
          while (nd > 0)
            *dst++ = digits[--nd];
          fill (dst, ' ', pad);
          return;
        }
      if ((seg->flags & FLAG_ZERO) && seg->precision < 0)
        zeros += pad;
      else
        dst = fill (dst, ' ', pad);
    }
  dst = put (dst, prefix, plen);
  dst = fill (dst, '0', zeros);
  while (nd > 0)
    *dst++ = digits[--nd];
}

/* Appends a (two-piece) text padded with spaces to the segment's width. */
static void
append_padded (GString       *out,
               const Segment *seg,
               const char    *a,
               gsize          alen,
               const char    *b,
               gsize          blen)
{
  gsize body = alen + blen;
  gsize total = MAX (body, (gsize) seg->width);
  char *dst = grow (out, total);

  if (!(seg->flags & FLAG_MINUS))
    dst = fill (dst, ' ', total - body);
  dst = put (dst, a, alen);
  dst = put (dst, b, blen);
  if (seg->flags & FLAG_MINUS)
    fill (dst, ' ', total - body);
}

static gsize
format_hex (char    *buf,
            guint32  value,
            gsize    min_digits)
{
  char tmp[8];
  gsize n = 0, i = 0;

  do
    {
      tmp[n++] = lower_digits[value & 0xf];
      value >>= 4;
    }
  while (value != 0);
  while (n < min_digits)
    tmp[n++] = '0';
  while (n > 0)
    buf[i++] = tmp[--n];
  return i;
}

static void
append_char (GString       *out,
             const Segment *seg,
             guint32        value)
{
  guint8 c = value & 0xff;
  char buf[4];

  if (c >= 0x20 && c < 0x7f)
    {
      buf[0] = (char) c;
      append_padded (out, seg, buf, 1, NULL, 0);
    }
  else
    {
      buf[0] = '\\';
      buf[1] = 'x';
      buf[2] = lower_digits[c >> 4];
      buf[3] = lower_digits[c & 0xf];
      append_padded (out, seg, buf, 4, NULL, 0);
    }
}

static void
append_string (GString          *out,
               const Segment    *seg,
               guint32           value,
               const CpelStrtab *strtab)
{
  const char *s, *nul;
  gsize avail, n;

  if (strtab == NULL)
    {
      static const char none[] = "<no string table>";
      append_padded (out, seg, none, sizeof none - 1, NULL, 0);
      return;
    }
  if (strtab->data == NULL || value >= strtab->len)
    {
      static const char bad[] = "<bad string offset 0x";
      char buf[9];
      gsize n_hex = format_hex (buf, value, 1);

      buf[n_hex++] = '>';
      append_padded (out, seg, bad, sizeof bad - 1, buf, n_hex);
      return;
    }

  s = strtab->data + value;
  avail = strtab->len - value;
  if (avail > CPEL_FORMAT_MAX_STRING)
    avail = CPEL_FORMAT_MAX_STRING;
  if (seg->precision >= 0 && (gsize) seg->precision < avail)
    avail = seg->precision;
  nul = memchr (s, '\0', avail);
  n = nul != NULL ? (gsize) (nul - s) : avail;
  append_padded (out, seg, s, n, NULL, 0);
}

static void
append_symbol (GString          *out,
               const Segment    *seg,
               guint32           value,
               const CpelSymtab *symtab)
{
  gssize i = cpel_symtab_lookup (symtab, value);
  char buf[16];
  gsize n;

  if (i < 0)
    {
      buf[0] = '0';
      buf[1] = 'x';
      n = 2 + format_hex (buf + 2, value, 8);
      append_padded (out, seg, buf, n, NULL, 0);
    }
  else
    {
      const CpelSymbol *sym = &symtab->symbols[i];
      guint32 off = value - sym->value;
      gsize name_len = sym->name != NULL ? sym->name_len : 0;
      const char *nul;

      if (name_len > CPEL_FORMAT_MAX_STRING)
        name_len = CPEL_FORMAT_MAX_STRING;
      if (name_len > 0 && (nul = memchr (sym->name, '\0', name_len)) != NULL)
        name_len = nul - sym->name;

      n = 0;
      if (off != 0)
        {
          buf[0] = '+';
          buf[1] = '0';
          buf[2] = 'x';
          n = 3 + format_hex (buf + 3, off, 1);
        }
      append_padded (out, seg, sym->name, name_len, buf, n);
    }
}

void
cpel_format_append (const CpelFormat *format,
                    guint32           value,
                    const CpelStrtab *strtab,
                    const CpelSymtab *symtab,
                    GString          *out)
{
  g_return_if_fail (format != NULL);
  g_return_if_fail (out != NULL);

  for (guint i = 0; i < format->n_segs; i++)
    {
      const Segment *seg = &format->segs[i];

      if (seg->kind == SEG_LITERAL)
        {
          put (grow (out, seg->lit_len), format->text + seg->lit_off, seg->lit_len);
          continue;
        }

      switch (seg->conv)
        {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
          append_int (out, seg, value);
          break;
        case 'c':
          append_char (out, seg, value);
          break;
        case 's':
          append_string (out, seg, value, strtab);
          break;
        case 'k':
          append_symbol (out, seg, value, symtab);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  out->str[out->len] = '\0';
}
