/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-format.c — libFuzzer target: the label formatter, differentially
 *
 * Input layout (little-endian):
 *   [0]      flags: bit 0 = no string table, bit 1 = no symbol table
 *   [1..4]   the value
 *   [5..6]   format length F      [7..8] string table length S
 *   F bytes  the format string (not NUL-terminated; may hold NULs)
 *   S bytes  the string table
 *   then 8-byte symbols: value (4), name offset into the table (2), name length (2)
 * Each part is copied into its own exact-size heap block so that any read
 * past it is caught.
 *
 * The output of cpel_format_append is compared with a reference that
 * follows doc/cpel-format.md independently, using the C library's
 * snprintf for the integer conversions (on a specification rebuilt from
 * parsed, capped numbers — never on the input itself).  Also checked: the
 * output bound, is_empty / is_constant / uses_string, appending, and
 * cpel_symtab_lookup against a linear scan.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpel-format.h"
#include "fuzz-common.h"

#define CAP CPEL_FORMAT_MAX_WIDTH
#define MAX_CONV_OUTPUT (CPEL_FORMAT_MAX_STRING + CPEL_FORMAT_MAX_WIDTH + 32)

typedef struct
{
  const CpelSymbol *symbols;
  gsize             n;
  guint            *order;   /* for stable sorting */
} SymSort;

static guint32
get_le16 (const guint8 *p)
{
  return p[0] | (guint32) p[1] << 8;
}

static guint32
get_le32 (const guint8 *p)
{
  return p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* ---- the reference ---------------------------------------------------- */

static gssize
ref_lookup (const CpelSymtab *symtab,
            guint32           value)
{
  gssize best = -1;

  if (symtab == NULL)
    return -1;
  for (gsize i = 0; i < symtab->n_symbols; i++)
    if (symtab->symbols[i].value <= value
        && (best < 0 || symtab->symbols[i].value > symtab->symbols[best].value))
      best = (gssize) i;
  return best;
}

static void
ref_padded (GString    *out,
            gboolean    minus,
            guint       width,
            const char *s,
            gsize       len)
{
  gsize pad = width > len ? width - len : 0;

  if (!minus)
    for (gsize i = 0; i < pad; i++)
      g_string_append_c (out, ' ');
  g_string_append_len (out, s, len);
  if (minus)
    for (gsize i = 0; i < pad; i++)
      g_string_append_c (out, ' ');
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
static void
ref_format (const char       *fmt,
            gsize             len,
            guint32           value,
            const CpelStrtab *strtab,
            const CpelSymtab *symtab,
            GString          *out)
{
  const char *p = fmt, *end;
  const char *nul = memchr (fmt, '\0', len);

  end = nul ? nul : fmt + len;
  while (p < end)
    {
      const char *start;
      gboolean minus = FALSE, plus = FALSE, space = FALSE, hash = FALSE, zero = FALSE;
      guint64 width = 0;
      gint64 prec = -1;
      int hlen = 0;   /* 1: h, 2: hh */
      char conv;

      if (*p != '%')
        {
          g_string_append_c (out, *p++);
          continue;
        }
      start = p++;
      if (p < end && *p == '%')
        {
          g_string_append_c (out, '%');
          p++;
          continue;
        }
      for (; p < end && strchr ("-+ #0", *p) != NULL && *p != '\0'; p++)
        switch (*p)
          {
          case '-': minus = TRUE; break;
          case '+': plus = TRUE; break;
          case ' ': space = TRUE; break;
          case '#': hash = TRUE; break;
          default:  zero = TRUE; break;
          }
      for (; p < end && g_ascii_isdigit (*p); p++)
        width = MIN (width * 10 + (guint64) (*p - '0'), (guint64) CAP + 1);
      width = MIN (width, CAP);
      if (p < end && *p == '.')
        {
          prec = 0;
          for (p++; p < end && g_ascii_isdigit (*p); p++)
            prec = MIN (prec * 10 + (*p - '0'), (gint64) CAP + 1);
          prec = MIN (prec, CAP);
        }
      if (p < end && *p == 'h')
        {
          hlen = 1;
          if (++p < end && *p == 'h')
            {
              hlen = 2;
              p++;
            }
        }
      else if (p < end && *p == 'l')
        {
          if (++p < end && *p == 'l')
            p++;
        }
      else if (p < end && strchr ("Lqjzt", *p) != NULL && *p != '\0')
        p++;
      if (p >= end)
        {
          g_string_append_len (out, start, end - start);
          break;
        }
      conv = *p++;
      switch (conv)
        {
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
          {
            char spec[64], buf[1024];
            GString *sp = g_string_new ("%");

            if (minus) g_string_append_c (sp, '-');
            if (plus) g_string_append_c (sp, '+');
            if (space) g_string_append_c (sp, ' ');
            if (hash && conv != 'd' && conv != 'i' && conv != 'u') g_string_append_c (sp, '#');
            if (zero) g_string_append_c (sp, '0');
            g_string_append_printf (sp, "%u", (guint) width);
            if (prec >= 0)
              g_string_append_printf (sp, ".%d", (int) prec);
            g_string_append (sp, hlen == 2 ? "hh" : hlen == 1 ? "h" : "");
            g_string_append_c (sp, conv);
            FUZZ_CHECK (sp->len < sizeof spec);
            memcpy (spec, sp->str, sp->len + 1);
            g_string_free (sp, TRUE);
            if (conv == 'd' || conv == 'i')
              snprintf (buf, sizeof buf, spec, (int) value);
            else
              snprintf (buf, sizeof buf, spec, (unsigned int) value);
            g_string_append (out, buf);
          }
          break;
        case 'c':
          {
            guint8 c = value & 0xff;
            char buf[8];

            if (c >= 0x20 && c < 0x7f)
              {
                buf[0] = (char) c;
                ref_padded (out, minus, width, buf, 1);
              }
            else
              {
                g_snprintf (buf, sizeof buf, "\\x%02x", c);
                ref_padded (out, minus, width, buf, 4);
              }
          }
          break;
        case 's':
          if (strtab == NULL)
            ref_padded (out, minus, width, "<no string table>", 17);
          else if (strtab->data == NULL || value >= strtab->len)
            {
              char buf[64];
              g_snprintf (buf, sizeof buf, "<bad string offset 0x%x>", value);
              ref_padded (out, minus, width, buf, strlen (buf));
            }
          else
            {
              gsize n = strtab->len - value;
              const char *s = strtab->data + value, *z;

              n = MIN (n, CPEL_FORMAT_MAX_STRING);
              if (prec >= 0)
                n = MIN (n, (gsize) prec);
              z = memchr (s, '\0', n);
              ref_padded (out, minus, width, s, z ? (gsize) (z - s) : n);
            }
          break;
        case 'k':
          {
            gssize i = ref_lookup (symtab, value);
            GString *t = g_string_new (NULL);

            if (i < 0)
              g_string_append_printf (t, "0x%08x", value);
            else
              {
                const CpelSymbol *sym = &symtab->symbols[i];
                gsize n = MIN (sym->name_len, CPEL_FORMAT_MAX_STRING);
                const char *z = memchr (sym->name, '\0', n);

                g_string_append_len (t, sym->name, z ? (gsize) (z - sym->name) : n);
                if (value != sym->value)
                  g_string_append_printf (t, "+0x%x", value - sym->value);
              }
            ref_padded (out, minus, width, t->str, t->len);
            g_string_free (t, TRUE);
          }
          break;
        default:
          g_string_append_len (out, start, p - start);
          break;
        }
    }
}
#pragma GCC diagnostic pop

/* ---- the target ------------------------------------------------------- */

static int
compare_symbols (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const CpelSymbol *x = a, *y = b;

  if (x->value != y->value)
    return x->value < y->value ? -1 : 1;
  /* a total order: ties broken by the name's position and length */
  if (x->name != y->name)
    return x->name < y->name ? -1 : 1;
  return x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

static GString *
run (const CpelFormat *format,
     guint32           value,
     const CpelStrtab *strtab,
     const CpelSymtab *symtab)
{
  GString *out = g_string_new (NULL);

  cpel_format_append (format, value, strtab, symtab, out);
  return out;
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  guint8 flags;
  guint32 value, fmt_len, tab_len;
  const guint8 *p, *end = data + size;
  char *fmt, *fmt0, *tab;
  CpelStrtab strtab;
  CpelSymbol *symbols;
  gsize n_symbols = 0;
  CpelSymtab symtab;
  const CpelStrtab *st;
  const CpelSymtab *sy;
  CpelFormat *format, *format0;
  GString *out, *again, *expect, *prefixed;

  if (size < 9)
    return 0;
  flags = data[0];
  value = get_le32 (data + 1);
  fmt_len = get_le16 (data + 5);
  tab_len = get_le16 (data + 7);
  p = data + 9;
  fmt_len = MIN (fmt_len, (guint32) (end - p));
  fmt = g_malloc (MAX (fmt_len, 1));
  memcpy (fmt, p, fmt_len);
  p += fmt_len;
  tab_len = MIN (tab_len, (guint32) (end - p));
  tab = tab_len ? g_memdup2 (p, tab_len) : NULL;
  p += tab_len;
  strtab.data = tab;
  strtab.len = tab_len;

  symbols = g_new0 (CpelSymbol, MAX ((end - p) / 8, 1));
  for (; end - p >= 8; p += 8)
    {
      CpelSymbol *sym = &symbols[n_symbols++];
      guint32 off = get_le16 (p + 4), len = get_le16 (p + 6);

      sym->value = get_le32 (p);
      if (off < tab_len)
        {
          sym->name = tab + off;
          sym->name_len = MIN (len, tab_len - off);
        }
      else
        {
          sym->name = "";
          sym->name_len = 0;
        }
    }
  g_qsort_with_data (symbols, (gint) n_symbols, sizeof (CpelSymbol), compare_symbols, NULL);
  symtab.symbols = symbols;
  symtab.n_symbols = n_symbols;

  st = (flags & 1) ? NULL : &strtab;
  sy = (flags & 2) ? NULL : &symtab;

  format = cpel_format_new (fmt, fmt_len);
  out = run (format, value, st, sy);

  /* the reference */
  expect = g_string_new (NULL);
  ref_format (fmt, fmt_len, value, st, sy, expect);
  if (out->len != expect->len || memcmp (out->str, expect->str, out->len) != 0)
    {
      g_autofree char *raw = g_strndup (fmt, fmt_len);
      g_autofree char *f = g_strescape (raw, NULL);
      g_autofree char *o = g_strescape (out->str, NULL);
      g_autofree char *e = g_strescape (expect->str, NULL);
      fprintf (stderr, "format \"%s\" value 0x%x:\n  got    \"%s\"\n  expect \"%s\"\n", f, value, o, e);
      FUZZ_CHECK (!"output differs from the reference");
    }

  /* the bound */
  FUZZ_CHECK (out->len <= fmt_len + (fmt_len / 2) * MAX_CONV_OUTPUT);

  /* properties */
  if (cpel_format_is_empty (format))
    FUZZ_CHECK (out->len == 0);
  if (cpel_format_is_constant (format))
    {
      again = run (format, ~value, st, sy);
      FUZZ_CHECK (g_string_equal (out, again));
      g_string_free (again, TRUE);
    }
  if (!cpel_format_uses_string (format))
    {
      again = run (format, value, NULL, sy);
      FUZZ_CHECK (g_string_equal (out, again));
      g_string_free (again, TRUE);
    }

  /* appending keeps what is there */
  prefixed = g_string_new ("prefix:");
  cpel_format_append (format, value, st, sy, prefixed);
  FUZZ_CHECK (prefixed->len == 7 + out->len && memcmp (prefixed->str + 7, out->str, out->len) == 0);
  g_string_free (prefixed, TRUE);

  /* a NUL-terminated copy compiles to the same */
  fmt0 = g_strndup (fmt, fmt_len);
  format0 = cpel_format_new (fmt0, -1);
  again = run (format0, value, st, sy);
  FUZZ_CHECK (g_string_equal (out, again));
  g_string_free (again, TRUE);
  cpel_format_free (format0);
  g_free (fmt0);

  /* symbol lookup */
  {
    gssize got = cpel_symtab_lookup (&symtab, value);
    gssize ref = ref_lookup (&symtab, value);

    FUZZ_CHECK ((got < 0) == (ref < 0));
    if (got >= 0)
      {
        FUZZ_CHECK (symbols[got].value == symbols[ref].value);
        FUZZ_CHECK (got == 0 || symbols[got - 1].value != symbols[got].value);
      }
  }

  g_string_free (out, TRUE);
  g_string_free (expect, TRUE);
  cpel_format_free (format);
  g_free (symbols);
  g_free (tab);
  g_free (fmt);
  return 0;
}
