/* SPDX-License-Identifier: Apache-2.0 */
/* test-format.c — the label formatter: every rule of "The formatter" */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "cpel-format.h"

/* A string table as in a file: its name first, then strings; the last one
 * runs to the end of the table without a NUL. */
static const char tab_bytes[] = "Tab\0hello\0world wide\0\0unterminated";
#define TAB_LEN (sizeof tab_bytes - 1)   /* not the NUL C adds */
#define OFF_HELLO 4
#define OFF_WORLD 10
#define OFF_EMPTY 21
#define OFF_UNTERM 22

static const CpelStrtab strtab = { tab_bytes, TAB_LEN };

static const CpelSymbol syms[] = {
  { 0x1000, 4, "main" },
  { 0x1100, 3, "foo" },
  { 0x1100, 3, "bar" },            /* same value: the first one wins */
  { 0x2000, 10, "vlib_main\0x" },  /* NUL inside name_len: ends there */
};
static const CpelSymtab symtab = { syms, G_N_ELEMENTS (syms) };

static char *
fmt (const char *format,
     guint32     value)
{
  g_autoptr(CpelFormat) f = cpel_format_new (format, -1);
  GString *out = g_string_new ("");

  cpel_format_append (f, value, &strtab, &symtab, out);
  return g_string_free (out, FALSE);
}

#define assert_fmt(format, value, expected) \
  G_STMT_START { \
    char *_s = fmt (format, value); \
    g_assert_cmpstr (_s, ==, expected); \
    g_free (_s); \
  } G_STMT_END

static void
test_literal (void)
{
  assert_fmt ("", 1, "");
  assert_fmt ("rx", 1, "rx");
  assert_fmt ("100%%", 1, "100%");
  assert_fmt ("%%d", 5, "%d");
  assert_fmt ("%%%d%%", 5, "%5%");
  assert_fmt ("a%", 1, "a%");          /* lone % at the end */
  assert_fmt ("%", 1, "%");
  assert_fmt ("%-08", 1, "%-08");      /* spec cut short by the end */
  assert_fmt ("%5.3l", 1, "%5.3l");
}

static void
test_unknown (void)
{
  assert_fmt ("%n", 1, "%n");
  assert_fmt ("x%ny", 1, "x%ny");
  assert_fmt ("%p", 1, "%p");
  assert_fmt ("%f", 1, "%f");
  assert_fmt ("%10.3f", 1, "%10.3f");
  assert_fmt ("%lln", 1, "%lln");
  assert_fmt ("%*d", 7, "%*d");        /* no '*' in the grammar */
  assert_fmt ("%hhhd", 7, "%hhhd");    /* one length modifier only */
  assert_fmt ("%y %d", 7, "%y 7");
  assert_fmt ("%S%C%D", 7, "%S%C%D");
}

static void
test_signed (void)
{
  assert_fmt ("%d", 0, "0");
  assert_fmt ("%d", 42, "42");
  assert_fmt ("%i", 42, "42");
  assert_fmt ("%d", 0xffffffff, "-1");
  assert_fmt ("%d", 0x80000000, "-2147483648");
  assert_fmt ("%d", 0x7fffffff, "2147483647");
  assert_fmt ("%hd", 0x12348000, "-32768");
  assert_fmt ("%hd", 0x00017fff, "32767");
  assert_fmt ("%hhd", 0x1ff, "-1");
  assert_fmt ("%hhd", 0x17f, "127");
  assert_fmt ("%hhi", 0x80, "-128");
  /* other length modifiers are accepted and ignored (32-bit values) */
  assert_fmt ("%ld %lld %Ld %qd %jd %zd %td", 0xffffffff, "-1 -1 -1 -1 -1 -1 -1");
}

static void
test_unsigned (void)
{
  assert_fmt ("%u", 0xffffffff, "4294967295");
  assert_fmt ("%x", 0xdeadbeef, "deadbeef");
  assert_fmt ("%X", 0xdeadbeef, "DEADBEEF");
  assert_fmt ("%o", 8, "10");
  assert_fmt ("%o", 0xffffffff, "37777777777");
  assert_fmt ("%hu", 0x12345678, "22136");
  assert_fmt ("%hx", 0x12345678, "5678");
  assert_fmt ("%hhx", 0x12345678, "78");
  assert_fmt ("%hho", 0x1ff, "377");
  assert_fmt ("%hhu", 0xfff, "255");
  assert_fmt ("%lu", 0xffffffff, "4294967295");
}

static void
test_flags (void)
{
  assert_fmt ("%#x", 255, "0xff");
  assert_fmt ("%#X", 255, "0XFF");
  assert_fmt ("%#x", 0, "0");             /* no prefix on 0 */
  assert_fmt ("%#o", 8, "010");
  assert_fmt ("%#o", 0, "0");
  assert_fmt ("%#.0o", 0, "0");
  assert_fmt ("%#.5o", 8, "00010");       /* precision already gives the 0 */
  assert_fmt ("%+d", 5, "+5");
  assert_fmt ("%+d", -5, "-5");
  assert_fmt ("% d", 5, " 5");
  assert_fmt ("% +d", 5, "+5");           /* + wins over space */
  assert_fmt ("%+u", 5, "5");             /* sign flags: signed only */
  assert_fmt ("% x", 255, "ff");
  assert_fmt ("%05d", 42, "00042");
  assert_fmt ("%05d", -42, "-0042");
  assert_fmt ("%+05d", 42, "+0042");
  assert_fmt ("%-5d|", 42, "42   |");
  assert_fmt ("%-05d|", 42, "42   |");    /* - wins over 0 */
  assert_fmt ("%#08x", 255, "0x0000ff");
  assert_fmt ("%#8x", 255, "    0xff");
  assert_fmt ("%#-8x|", 255, "0xff    |");
  assert_fmt ("%08.3d", 42, "     042");  /* precision disables 0 */
}

static void
test_width_precision (void)
{
  assert_fmt ("%5d", 42, "   42");
  assert_fmt ("%1d", 4242, "4242");
  assert_fmt ("%.5d", 42, "00042");
  assert_fmt ("%.5d", -42, "-00042");
  assert_fmt ("%8.5x", 0xab, "   000ab");
  assert_fmt ("%.0d", 0, "");
  assert_fmt ("%5.0d|", 0, "     |");
  assert_fmt ("%+.0d", 0, "+");
  assert_fmt ("%.0x", 0, "");
  assert_fmt ("%.d", 0, "");              /* '.' alone: precision 0 */
  assert_fmt ("%.d", 3, "3");
  assert_fmt ("%08x", 0x1234, "00001234");
}

static void
test_width_cap (void)
{
  char *s;

  s = fmt ("%999999999d", 7);
  g_assert_cmpuint (strlen (s), ==, CPEL_FORMAT_MAX_WIDTH);
  g_assert_cmpint (s[CPEL_FORMAT_MAX_WIDTH - 1], ==, '7');
  g_free (s);

  s = fmt ("%-99999999999999999999999999999999s|", OFF_HELLO);
  g_assert_cmpuint (strlen (s), ==, CPEL_FORMAT_MAX_WIDTH + 1);
  g_assert_true (g_str_has_prefix (s, "hello "));
  g_free (s);

  s = fmt ("%.999999999d", 7);
  g_assert_cmpuint (strlen (s), ==, CPEL_FORMAT_MAX_WIDTH);
  g_free (s);

  s = fmt ("%257d", 7);
  g_assert_cmpuint (strlen (s), ==, CPEL_FORMAT_MAX_WIDTH);
  g_free (s);
  s = fmt ("%256d", 7);
  g_assert_cmpuint (strlen (s), ==, 256);
  g_free (s);
  s = fmt ("%255d", 7);
  g_assert_cmpuint (strlen (s), ==, 255);
  g_free (s);

  /* many capped conversions: still bounded by count * cap */
  {
    GString *f = g_string_new ("");
    for (guint i = 0; i < 100; i++)
      g_string_append (f, "%4294967296x");
    s = fmt (f->str, 1);
    g_assert_cmpuint (strlen (s), ==, 100 * CPEL_FORMAT_MAX_WIDTH);
    g_free (s);
    g_string_free (f, TRUE);
  }
}

static void
test_char (void)
{
  assert_fmt ("%c", 'A', "A");
  assert_fmt ("%c", 0x4142, "B");          /* low byte */
  assert_fmt ("[%3c]", 'z', "[  z]");
  assert_fmt ("[%-3c]", 'z', "[z  ]");
  assert_fmt ("[%03c]", 'z', "[  z]");     /* as glibc: spaces */
  assert_fmt ("%c", 0, "\\x00");
  assert_fmt ("%c", '\n', "\\x0a");
  assert_fmt ("%c", 0x7f, "\\x7f");
  assert_fmt ("%c", 0xe9, "\\xe9");
  assert_fmt ("%c", ' ', " ");
  assert_fmt ("%c", '~', "~");
  assert_fmt ("[%6c]", 1, "[  \\x01]");
}

static void
test_string (void)
{
  g_autoptr(CpelFormat) f = NULL;
  GString *out;

  assert_fmt ("%s", 0, "Tab");
  assert_fmt ("%s", OFF_HELLO, "hello");
  assert_fmt ("<%s>", OFF_WORLD, "<world wide>");
  assert_fmt ("%s", OFF_HELLO + 2, "llo");          /* mid-string offset */
  assert_fmt ("[%s]", OFF_EMPTY, "[]");
  assert_fmt ("[%s]", OFF_HELLO - 1, "[]");         /* on a NUL */
  assert_fmt ("%s", OFF_UNTERM, "unterminated");    /* ends at the table end */
  assert_fmt ("%s", TAB_LEN - 1, "d");
  assert_fmt ("%s", TAB_LEN, "<bad string offset 0x22>");
  assert_fmt ("%s", 0x1234, "<bad string offset 0x1234>");
  assert_fmt ("%s", 0xffffffff, "<bad string offset 0xffffffff>");
  assert_fmt ("%.3s", OFF_HELLO, "hel");
  assert_fmt ("%.0s|", OFF_HELLO, "|");
  assert_fmt ("%.30s", OFF_HELLO, "hello");
  assert_fmt ("%.4s", OFF_UNTERM, "unte");
  assert_fmt ("[%8s]", OFF_HELLO, "[   hello]");
  assert_fmt ("[%-8s]", OFF_HELLO, "[hello   ]");
  assert_fmt ("[%8.2s]", OFF_HELLO, "[      he]");
  assert_fmt ("%hs %ls", OFF_HELLO, "hello hello");
  assert_fmt ("%s=%d", OFF_HELLO, "hello=4");

  /* no string table at all */
  f = cpel_format_new ("%s", -1);
  out = g_string_new ("");
  cpel_format_append (f, 4, NULL, NULL, out);
  g_assert_cmpstr (out->str, ==, "<no string table>");
  /* an empty table: every offset is out of range */
  {
    CpelStrtab empty = { NULL, 0 };
    g_string_truncate (out, 0);
    cpel_format_append (f, 0, &empty, NULL, out);
    g_assert_cmpstr (out->str, ==, "<bad string offset 0x0>");
  }
  g_string_free (out, TRUE);
}

static void
test_string_cap (void)
{
  gsize len = CPEL_FORMAT_MAX_STRING * 3;
  char *big = g_malloc (len);
  CpelStrtab t = { big, len };
  g_autoptr(CpelFormat) f = cpel_format_new ("%s", -1);
  GString *out = g_string_new ("");

  memset (big, 'a', len);      /* no NUL anywhere */
  cpel_format_append (f, 0, &t, NULL, out);
  g_assert_cmpuint (out->len, ==, CPEL_FORMAT_MAX_STRING);
  g_string_truncate (out, 0);
  cpel_format_append (f, len - 10, &t, NULL, out);
  g_assert_cmpuint (out->len, ==, 10);

  g_string_free (out, TRUE);
  g_free (big);
}

static void
test_symbol (void)
{
  g_autoptr(CpelFormat) f = cpel_format_new ("%k", -1);
  CpelSymtab empty = { NULL, 0 };
  GString *out = g_string_new ("");

  assert_fmt ("%k", 0, "0x00000000");         /* below every symbol */
  assert_fmt ("%k", 0xfff, "0x00000fff");
  assert_fmt ("%k", 0x1000, "main");           /* at */
  assert_fmt ("%k", 0x1001, "main+0x1");       /* after */
  assert_fmt ("%k", 0x10ff, "main+0xff");
  assert_fmt ("%k", 0x1100, "foo");            /* ties: first */
  assert_fmt ("%k", 0x1234, "foo+0x134");
  assert_fmt ("%k", 0x2000, "vlib_main");
  assert_fmt ("%k", 0xffffffff, "vlib_main+0xffffdfff");
  assert_fmt ("[%12k]", 0x1001, "[    main+0x1]");
  assert_fmt ("[%-12k]", 0x1001, "[main+0x1    ]");
  assert_fmt ("call %k (%#x)", 0x1004, "call main+0x4 (0x1004)");

  cpel_format_append (f, 0x1234, NULL, &empty, out);
  g_assert_cmpstr (out->str, ==, "0x00001234");
  g_string_truncate (out, 0);
  cpel_format_append (f, 0xabcdef12, NULL, NULL, out);
  g_assert_cmpstr (out->str, ==, "0xabcdef12");
  g_string_free (out, TRUE);
}

static void
test_symtab_lookup (void)
{
  CpelSymbol many[1000];
  CpelSymtab t = { many, G_N_ELEMENTS (many) };
  CpelSymtab empty = { NULL, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (many); i++)
    {
      many[i].value = 100 + (i / 2) * 10;    /* pairs of equal values */
      many[i].name = "s";
      many[i].name_len = 1;
    }
  g_assert_cmpint (cpel_symtab_lookup (&t, 0), ==, -1);
  g_assert_cmpint (cpel_symtab_lookup (&t, 99), ==, -1);
  g_assert_cmpint (cpel_symtab_lookup (&empty, 99), ==, -1);
  g_assert_cmpint (cpel_symtab_lookup (NULL, 99), ==, -1);
  for (guint32 v = 100; v < 100 + 500 * 10 + 20; v++)
    {
      gssize expected = -1;

      for (gsize i = 0; i < G_N_ELEMENTS (many); i++)
        if (many[i].value <= v && (expected < 0 || many[i].value > many[expected].value))
          expected = i;
      g_assert_cmpint (cpel_symtab_lookup (&t, v), ==, expected);
    }
  g_assert_cmpint (cpel_symtab_lookup (&t, G_MAXUINT32), ==, G_N_ELEMENTS (many) - 2);
}

static void
test_several (void)
{
  assert_fmt ("0x%08x (%d)", 0xffffffff, "0xffffffff (-1)");
  assert_fmt ("%d %u %x %o %c", 65, "65 65 41 101 A");
  assert_fmt ("%s: %d%%", OFF_HELLO, "hello: 4%");
  assert_fmt ("%s %s", OFF_HELLO, "hello hello");
}

static void
test_length_and_nul (void)
{
  g_autoptr(CpelFormat) a = cpel_format_new ("%dxyz", 2);
  g_autoptr(CpelFormat) b = cpel_format_new ("ab\0%d", 5);
  g_autoptr(CpelFormat) c = cpel_format_new ("%d%", 3);
  g_autoptr(CpelFormat) d = cpel_format_new (NULL, 0);
  GString *out = g_string_new ("");

  cpel_format_append (a, 7, NULL, NULL, out);
  g_assert_cmpstr (out->str, ==, "7");
  g_string_truncate (out, 0);
  cpel_format_append (b, 7, NULL, NULL, out);
  g_assert_cmpstr (out->str, ==, "ab");
  g_string_truncate (out, 0);
  cpel_format_append (c, 7, NULL, NULL, out);
  g_assert_cmpstr (out->str, ==, "7%");
  g_string_truncate (out, 0);
  cpel_format_append (d, 7, NULL, NULL, out);
  g_assert_cmpstr (out->str, ==, "");
  /* appends, never replaces */
  g_string_assign (out, "pre:");
  cpel_format_append (a, 9, NULL, NULL, out);
  g_assert_cmpstr (out->str, ==, "pre:9");
  g_string_free (out, TRUE);
}

static void
test_predicates (void)
{
  static const struct { const char *f; gboolean empty, string, constant; } cases[] = {
    { "", TRUE, FALSE, TRUE },
    { "x", FALSE, FALSE, TRUE },
    { "%%", FALSE, FALSE, TRUE },
    { "%n%f", FALSE, FALSE, TRUE },
    { "%", FALSE, FALSE, TRUE },
    { "%d", FALSE, FALSE, FALSE },
    { "a %k", FALSE, FALSE, FALSE },
    { "%c", FALSE, FALSE, FALSE },
    { "%s", FALSE, TRUE, FALSE },
    { "%d %.3s", FALSE, TRUE, FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CpelFormat) f = cpel_format_new (cases[i].f, -1);

      g_assert_cmpint (cpel_format_is_empty (f), ==, cases[i].empty);
      g_assert_cmpint (cpel_format_uses_string (f), ==, cases[i].string);
      g_assert_cmpint (cpel_format_is_constant (f), ==, cases[i].constant);
    }
}

/* Property: for random specs (integers, printable %c, %s; '0' with c/s pads
 * with spaces as in glibc) with in-range widths, the output is the
 * C library's. */
static void
test_random_vs_libc (void)
{
  static const char *lengths[] = { "", "", "", "h", "hh", "l", "ll", "L", "q", "j", "z", "t" };
  static const char convs[] = "diuxXocs";
  static const char flag_chars[] = "-+ #0";
  GRand *rand = g_rand_new_with_seed (g_test_rand_int ());
  g_autoptr(GString) spec = g_string_new ("");
  g_autoptr(GString) cspec = g_string_new ("");
  g_autoptr(GString) out = g_string_new ("");
  guint n = g_test_slow () ? 1000000 : 100000;

  for (guint iter = 0; iter < n; iter++)
    {
      char conv = convs[g_rand_int_range (rand, 0, sizeof convs - 1)];
      const char *len = lengths[g_rand_int_range (rand, 0, G_N_ELEMENTS (lengths))];
      guint32 value;
      char expected[1024];
      g_autoptr(CpelFormat) f = NULL;

      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0: value = g_rand_int_range (rand, 0, 20); break;
        case 1: value = -(guint32) g_rand_int_range (rand, 0, 20); break;
        case 2: value = g_rand_int_range (rand, 0, 2) ? 0x80000000u : 0x7fffffffu; break;
        default: value = g_rand_int (rand); break;
        }

      g_string_assign (spec, "<%");
      for (guint k = 0; k < 5; k++)
        if (g_rand_int_range (rand, 0, 4) == 0)
          g_string_append_c (spec, flag_chars[k]);
      if (g_rand_boolean (rand))
        g_string_append_printf (spec, "%d", g_rand_int_range (rand, 1, 60));
      if (g_rand_boolean (rand))
        {
          g_string_append_c (spec, '.');
          if (g_rand_int_range (rand, 0, 5) != 0)
            g_string_append_printf (spec, "%d", g_rand_int_range (rand, 0, 40));
        }
      /* the C spec: the same without the length modifiers that would change
       * the argument's type (our values are always 32-bit) */
      g_string_assign (cspec, spec->str);
      g_string_append (spec, len);
      if (conv != 'c' && conv != 's' && (strcmp (len, "h") == 0 || strcmp (len, "hh") == 0))
        g_string_append (cspec, len);
      g_string_append_c (spec, conv);
      g_string_append_c (cspec, conv);
      g_string_append_c (spec, '>');
      g_string_append_c (cspec, '>');

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      switch (conv)
        {
        case 'd':
        case 'i':
          snprintf (expected, sizeof expected, cspec->str, (int) (gint32) value);
          break;
        case 'c':
          value = 0x20 + value % 0x5f;   /* printable: libc prints it as is */
          snprintf (expected, sizeof expected, cspec->str, (int) value);
          break;
        case 's':
          value = value % TAB_LEN;
          snprintf (expected, sizeof expected, cspec->str, tab_bytes + value);
          break;
        default:
          snprintf (expected, sizeof expected, cspec->str, (unsigned) value);
          break;
        }
#pragma GCC diagnostic pop

      f = cpel_format_new (spec->str, -1);
      g_string_truncate (out, 0);
      cpel_format_append (f, value, &strtab, &symtab, out);
      if (strcmp (out->str, expected) != 0)
        g_error ("format \"%s\" (C \"%s\") value 0x%x: got \"%s\", libc \"%s\"",
                 spec->str, cspec->str, value, out->str, expected);
    }
  g_rand_free (rand);
}

/* Adversarial formats: never crash, output bounded. */
/* What a format can print, for search's shortcut: "%u cycles" never
 * prints a "z" or an "x", "buffer 0x%08x" never a "z" either; %s anything. */
static void
test_alphabet (void)
{
  struct { const char *fmt; const char *has; const char *hasnt; } cases[] = {
    { "%u cycles", "0123456789+- cyles", "zxXk" },
    { "buffer 0x%08x", "buffer0x9af", "zkq" },
    { "%-5d|", "-12 0|", "xz" },
    { "at %k", "at mainvlib_foo+0x", "zq" },
    { "%%d", "%d", "0123456789" },
    { "%s", "\x01\xffz", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CpelFormat) f = cpel_format_new (cases[i].fmt, -1);
      CpelByteSet set = { { 0 } };

      cpel_format_alphabet (f, &symtab, &set);
      for (const char *c = cases[i].has; *c; c++)
        g_assert_true (cpel_byte_set_has (&set, (guchar) *c));
      for (const char *c = cases[i].hasnt; *c; c++)
        g_assert_false (cpel_byte_set_has (&set, (guchar) *c));
    }
}

static void
test_random_garbage (void)
{
  GRand *rand = g_rand_new_with_seed (g_test_rand_int ());
  static const char alphabet[] = "%%%%-+ #0123456789.hlLqjztdiuxXocskpnf*$\\\n\xff";
  g_autoptr(GString) out = g_string_new ("");
  guint32 values[] = { 0, 0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x1001 };
  CpelByteSet set;
  char buf[64];

  for (guint iter = 0; iter < 100000; iter++)
    {
      gsize n = g_rand_int_range (rand, 0, sizeof buf);
      g_autoptr(CpelFormat) f = NULL;
      gsize conversions = 0;

      for (gsize i = 0; i < n; i++)
        {
          buf[i] = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
          conversions += buf[i] == '%';
        }
      f = cpel_format_new (buf, n);
      memset (&set, 0, sizeof set);
      cpel_format_alphabet (f, &symtab, &set);
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          values[0] = g_rand_int (rand);
          g_string_truncate (out, 0);
          cpel_format_append (f, values[v], &strtab, &symtab, out);
          g_assert_cmpuint (out->len, <=, n + conversions * (CPEL_FORMAT_MAX_WIDTH + 32));
          g_assert_null (memchr (out->str, '\0', out->len));
          /* Every byte printed is in the format's alphabet. */
          for (gsize k = 0; k < out->len; k++)
            g_assert_true (cpel_byte_set_has (&set, (guchar) out->str[k]));
        }
    }
  g_rand_free (rand);
}

static void
test_speed (void)
{
  g_autoptr(CpelFormat) a = cpel_format_new ("%s", -1);
  g_autoptr(CpelFormat) b = cpel_format_new ("0x%08x (%d)", -1);
  g_autoptr(GString) out = g_string_sized_new (256);
  guint n = 2000000;
  gint64 t0, t1;

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      g_string_truncate (out, 0);
      cpel_format_append (i & 1 ? a : b, i & 1 ? OFF_WORLD : i, &strtab, &symtab, out);
    }
  t1 = g_get_monotonic_time ();
  g_test_message ("%u labels in %.3f s (%.1f ns/label)", n,
                  (t1 - t0) / 1e6, (t1 - t0) * 1e3 / n);
  /* generous bound: catches accidental per-call allocation or printf */
  g_assert_cmpint (t1 - t0, <, 5 * G_USEC_PER_SEC);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/format/literal", test_literal);
  g_test_add_func ("/core/format/unknown", test_unknown);
  g_test_add_func ("/core/format/signed", test_signed);
  g_test_add_func ("/core/format/unsigned", test_unsigned);
  g_test_add_func ("/core/format/flags", test_flags);
  g_test_add_func ("/core/format/width", test_width_precision);
  g_test_add_func ("/core/format/width-cap", test_width_cap);
  g_test_add_func ("/core/format/char", test_char);
  g_test_add_func ("/core/format/string", test_string);
  g_test_add_func ("/core/format/string-cap", test_string_cap);
  g_test_add_func ("/core/format/symbol", test_symbol);
  g_test_add_func ("/core/format/symtab-lookup", test_symtab_lookup);
  g_test_add_func ("/core/format/several", test_several);
  g_test_add_func ("/core/format/length-and-nul", test_length_and_nul);
  g_test_add_func ("/core/format/predicates", test_predicates);
  g_test_add_func ("/core/format/random-vs-libc", test_random_vs_libc);
  g_test_add_func ("/core/format/random-garbage", test_random_garbage);
  g_test_add_func ("/core/format/alphabet", test_alphabet);
  g_test_add_func ("/core/format/speed", test_speed);

  return g_test_run ();
}
