/* SPDX-License-Identifier: Apache-2.0 */
/* test-time.c — human time formatting and parsing */
#include <string.h>

#include <glib.h>

#include "cpel-time.h"

#define MU "\302\265"

static void
assert_format (gint64      ns,
               const char *expected)
{
  char buf[32];
  g_autofree char *s = cpel_time_format (ns);

  g_assert_cmpstr (s, ==, expected);
  g_assert_true (cpel_time_format_buf (ns, buf, sizeof buf) == buf);
  g_assert_cmpstr (buf, ==, expected);
}

static void
test_format_units (void)
{
  assert_format (0, "0 ns");
  assert_format (1, "1 ns");
  assert_format (850, "850 ns");
  assert_format (999, "999 ns");
  assert_format (1000, "1.000 " MU "s");
  assert_format (1234, "1.234 " MU "s");
  assert_format (999999, "999.999 " MU "s");
  assert_format (1000000, "1.000 ms");
  assert_format (12345000, "12.345 ms");
  assert_format (999999000, "999.999 ms");
  assert_format (1000000000, "1.000 s");
  assert_format (3210000000, "3.210 s");
  assert_format (G_GINT64_CONSTANT (86400) * 1000000000, "86400.000 s");
}

static void
test_format_rounding (void)
{
  assert_format (12345499, "12.345 ms");   /* to nearest */
  assert_format (12345500, "12.346 ms");
  assert_format (1000499, "1.000 ms");
  assert_format (999999499, "999.999 ms");
  assert_format (999999500, "1.000 s");    /* rounds up into the next unit */
  assert_format (999999999, "1.000 s");
  assert_format (1999999999, "2.000 s");
  assert_format (1234567, "1.235 ms");
  assert_format (1000000500, "1.000 s");
  assert_format (1000000499, "1.000 s");
}

static void
test_format_negative (void)
{
  assert_format (-1, "-1 ns");
  assert_format (-850, "-850 ns");
  assert_format (-1234, "-1.234 " MU "s");
  assert_format (-12345678, "-12.346 ms");
  assert_format (-1000000000, "-1.000 s");
  assert_format (G_MAXINT64, "9223372036.855 s");
  assert_format (G_MININT64, "-9223372036.855 s");
}

static void
test_format_small_buffer (void)
{
  char buf[6];

  cpel_time_format_buf (12345000, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "12.34");   /* truncated, always terminated */
}

static void
assert_parse (const char *text,
              gint64      expected)
{
  gint64 ns = -42;

  if (!cpel_time_parse (text, &ns))
    g_error ("\"%s\" did not parse", text);
  g_assert_cmpint (ns, ==, expected);
}

static void
assert_no_parse (const char *text)
{
  gint64 ns = -42;

  if (cpel_time_parse (text, &ns))
    g_error ("\"%s\" parsed as %" G_GINT64_FORMAT, text, ns);
  g_assert_cmpint (ns, ==, -42);
}

/* A 0 at one end of a range takes the other end's unit. */
static void
test_format_range_end (void)
{
  char buf[32];

  g_assert_cmpstr (cpel_time_format_range_end (0, 50330000, buf, sizeof buf), ==, "0 ms");
  g_assert_cmpstr (cpel_time_format_range_end (0, 2889000000, buf, sizeof buf), ==, "0 s");
  g_assert_cmpstr (cpel_time_format_range_end (0, 1500, buf, sizeof buf), ==, "0 µs");
  g_assert_cmpstr (cpel_time_format_range_end (0, 999, buf, sizeof buf), ==, "0 ns");
  g_assert_cmpstr (cpel_time_format_range_end (0, -2000000, buf, sizeof buf), ==, "0 ms");
  g_assert_cmpstr (cpel_time_format_range_end (0, 0, buf, sizeof buf), ==, "0 ns");
  /* Anything else as cpel_time_format. */
  g_assert_cmpstr (cpel_time_format_range_end (50330000, 0, buf, sizeof buf), ==, "50.330 ms");
  g_assert_cmpstr (cpel_time_format_range_end (12, 50330000, buf, sizeof buf), ==, "12 ns");
  /* A small buffer is not overrun. */
  g_assert_cmpstr (cpel_time_format_range_end (0, 50330000, buf, 3), ==, "0 ");
}

static void
test_parse (void)
{
  assert_parse ("0", 0);
  assert_parse ("123", 123);
  assert_parse ("123ns", 123);
  assert_parse ("123 ns", 123);
  assert_parse ("  7  ", 7);
  assert_parse ("1.5us", 1500);
  assert_parse ("1.5" MU "s", 1500);
  assert_parse ("1.5\316\274s", 1500);     /* Greek mu too */
  assert_parse ("2ms", 2000000);
  assert_parse ("0.3s", 300000000);
  assert_parse (".5s", 500000000);
  assert_parse ("5.s", 5000000000);
  assert_parse ("12.345 ms", 12345000);
  assert_parse ("1.000000001s", 1000000001);
  assert_parse ("1.0000000014s", 1000000001);   /* rounded to nearest ns */
  assert_parse ("1.0000000015s", 1000000002);
  assert_parse ("1.9999999999s", 2000000000);
  assert_parse ("1.4ns", 1);
  assert_parse ("1.5ns", 2);
  assert_parse ("-3ms", -3000000);
  assert_parse ("+3ms", 3000000);
  assert_parse ("9223372036854775807", G_MAXINT64);
  assert_parse ("-9223372036854775808", G_MININT64);
  assert_parse ("9223372036.854775807s", G_MAXINT64);
}

static void
test_parse_invalid (void)
{
  assert_no_parse ("");
  assert_no_parse ("   ");
  assert_no_parse ("ms");
  assert_no_parse (".");
  assert_no_parse ("1.5");          /* a fraction needs a unit */
  assert_no_parse ("12x");
  assert_no_parse ("12 m");
  assert_no_parse ("12 ms ms");
  assert_no_parse ("1e3");
  assert_no_parse ("0x10");
  assert_no_parse ("--1");
  assert_no_parse ("1 2");
  assert_no_parse ("9223372036854775808");     /* overflow */
  assert_no_parse ("9223372037s");
  assert_no_parse ("9223372036.854775808s");
  assert_no_parse ("99999999999999999999999999ns");
}

static void
test_roundtrip (void)
{
  /* In ns and µs the printed text is exact: it parses back to the value. */
  for (gint64 ns = -2000000; ns <= 2000000; ns += 7)
    {
      char buf[32];
      gint64 back;

      if (ns <= -1000000 || ns >= 1000000)
        continue;
      cpel_time_format_buf (ns, buf, sizeof buf);
      g_assert_true (cpel_time_parse (buf, &back));
      g_assert_cmpint (back, ==, ns);
    }
  /* Above, within half a thousandth of the unit. */
  for (gint64 ns = 1000000; ns < G_GINT64_CONSTANT (1) << 40; ns = ns * 3 + 17)
    {
      char buf[32];
      gint64 back;

      cpel_time_format_buf (ns, buf, sizeof buf);
      g_assert_true (cpel_time_parse (buf, &back));
      g_assert_cmpint (ABS (back - ns), <=, ns >= 1000000000 ? 500000 : 500);
    }
}

/* The formatter before it lost printf: the reference, value for value. */
static char *
reference_format (gint64 ns)
{
  static const struct { guint64 ns; const char *name; } units[] = {
    { G_GUINT64_CONSTANT (1000), "\302\265s" },
    { G_GUINT64_CONSTANT (1000000), "ms" },
    { G_GUINT64_CONSTANT (1000000000), "s" },
  };
  const char *sign = ns < 0 ? "-" : "";
  guint64 mag = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns, q = 0;
  guint u;

  if (mag < 1000)
    return g_strdup_printf ("%s%u ns", sign, (guint) mag);
  for (u = 0; u < G_N_ELEMENTS (units); u++)
    {
      guint64 step = units[u].ns / 1000;

      if (u + 1 < G_N_ELEMENTS (units) && mag >= units[u + 1].ns)
        continue;
      q = mag / step + ((mag % step) * 2 >= step ? 1 : 0);
      if (q >= 1000000 && u + 1 < G_N_ELEMENTS (units))
        continue;
      break;
    }
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%03u %s", sign, q / 1000, (guint) (q % 1000),
                          units[u].name);
}

static void
test_format_reference (void)
{
  GRand *rand = g_rand_new_with_seed (17);
  const gint64 fixed[] = {
    0, 1, 999, 1000, 1499, 1500, 999499, 999500, 999999, 1000000, 999999499, 999999500,
    999999999, 1000000000, G_MAXINT64, G_MININT64, G_MININT64 + 1, -1, -999, -1000, -999500,
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixed) + 200000; i++)
    {
      gint64 ns;
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;

      if (i < G_N_ELEMENTS (fixed))
        ns = fixed[i];
      else
        {
          /* every magnitude: a random number of bits */
          guint bits = g_rand_int_range (rand, 0, 64);
          ns = (gint64) (((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> (63 - bits));
          if (g_rand_boolean (rand))
            ns = -ns;
        }
      want = reference_format (ns);
      got = cpel_time_format (ns);
      g_assert_cmpstr (got, ==, want);
    }
  g_rand_free (rand);
}

/* Clock rates as the CLI's --clock-rate and the viewer's dialog take them. */
static void
test_clock_rate_parse (void)
{
  static const struct { const char *text; guint64 rate; } good[] = {
    { "1000000000", 1000000000 }, { "1e9", 1000000000 }, { "2.6GHz", 2600000000 },
    { "2.6 GHz", 2600000000 }, { "2.6G", 2600000000 }, { "500MHz", 500000000 },
    { "33.3kHz", 33300 }, { " 1e6 ", 1000000 }, { "1hz", 1 },
  };
  static const char *bad[] = { "", "0", "-1", "fast", "1e30", "2.6 GHzz", "0.1", "nan", NULL };
  guint64 rate;

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      rate = 0;
      g_assert_true (cpel_clock_rate_parse (good[i].text, &rate));
      g_assert_cmpuint (rate, ==, good[i].rate);
    }
  for (guint i = 0; bad[i] != NULL; i++)
    g_assert_false (cpel_clock_rate_parse (bad[i], &rate));
  g_assert_false (cpel_clock_rate_parse (NULL, &rate));
}

/* Every digit, in the unit of a scale (a capture's span),
 * so that times 1 ns apart never read alike. */
static void
test_format_exact (void)
{
  static const struct { gint64 t, scale; const char *text; } cases[] = {
    { 28121000, 50329615, "28.121000 ms" },
    { 28121210, 50329615, "28.121210 ms" },     /* 210 ns later: apart */
    { 1075, 50329615, "0.001075 ms" },
    { 0, 50329615, "0.000000 ms" },
    { 532734, 532734, "532.734 " MU "s" },
    { 850, 999, "850 ns" },
    { 1234, 3210000000, "0.000001234 s" },
    { 3210000001, 3210000000, "3.210000001 s" },
    { -1500, 50329615, "-0.001500 ms" },
  };
  char buf[64];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize n = cpel_time_format_exact_to (cases[i].t, cases[i].scale, CPEL_TIME_KIND_NS,
                                           buf, sizeof buf);

      g_assert_cmpstr (buf, ==, cases[i].text);
      g_assert_cmpuint (n, ==, strlen (cases[i].text));
    }
  /* truncated as g_snprintf */
  g_assert_cmpuint (cpel_time_format_exact_to (28121210, 50329615, CPEL_TIME_KIND_NS, buf, 5),
                    ==, 4);
  g_assert_cmpstr (buf, ==, "28.1");
  /* ticks: the same digits, never seconds */
  cpel_time_format_exact_to (28121210, 50329615, CPEL_TIME_KIND_TICKS, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "28.121210 Mticks");
}

/* Ticks of an unknown clock are labelled ticks. */
static void
test_format_kind (void)
{
  static const struct { gint64 t; const char *ns, *ticks; } cases[] = {
    { 0, "0 ns", "0 ticks" },
    { 850, "850 ns", "850 ticks" },
    { 12500, "12.500 " MU "s", "12.500 kticks" },
    { 425292, "425.292 " MU "s", "425.292 kticks" },
    { 12345000, "12.345 ms", "12.345 Mticks" },
    { 999999600, "1.000 s", "1.000 Gticks" },
    { 3210000000, "3.210 s", "3.210 Gticks" },
    { -1234, "-1.234 " MU "s", "-1.234 kticks" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *ns = cpel_time_format_kind (cases[i].t, CPEL_TIME_KIND_NS);
      g_autofree char *ticks = cpel_time_format_kind (cases[i].t, CPEL_TIME_KIND_TICKS);

      g_assert_cmpstr (ns, ==, cases[i].ns);
      g_assert_cmpstr (ticks, ==, cases[i].ticks);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/time/format/units", test_format_units);
  g_test_add_func ("/core/time/clock-rate-parse", test_clock_rate_parse);
  g_test_add_func ("/core/time/format/rounding", test_format_rounding);
  g_test_add_func ("/core/time/format/reference", test_format_reference);
  g_test_add_func ("/core/time/format/negative", test_format_negative);
  g_test_add_func ("/core/time/format/small-buffer", test_format_small_buffer);
  g_test_add_func ("/core/time/format/range-end", test_format_range_end);
  g_test_add_func ("/core/time/parse/valid", test_parse);
  g_test_add_func ("/core/time/parse/invalid", test_parse_invalid);
  g_test_add_func ("/core/time/roundtrip", test_roundtrip);
  g_test_add_func ("/core/time/format/exact", test_format_exact);
  g_test_add_func ("/core/time/format/kind", test_format_kind);

  return g_test_run ();
}
