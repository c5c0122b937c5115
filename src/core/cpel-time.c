/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-time.c — times shown to people
 *
 * Times are 64-bit integer nanoseconds; they are printed in the largest unit
 * (ns, µs, ms, s) that keeps at least 3 significant digits, with 3 decimals
 * (rounded to nearest) above ns, and parsed back exactly.
 */
#include "cpel-time.h"

#include <string.h>

#define MICRO_SIGN "\302\265"   /* U+00B5 */
#define GREEK_MU   "\316\274"   /* U+03BC, accepted when parsing */

/* Decimal digits of v at the end of buf[0..24): returns the first. */
static inline char *
u64_digits (char    *end,
            guint64  v)
{
  do
    {
      *--end = '0' + v % 10;
      v /= 10;
    }
  while (v != 0);
  return end;
}

/* By hand rather than printf: `cpel dump` formats one time per event. */
char *
cpel_time_format_buf (gint64  ns,
                      char   *buf,
                      gsize   len)
{
  static const struct { guint64 ns; const char *name; guint name_len; } units[] = {
    { G_GUINT64_CONSTANT (1000), MICRO_SIGN "s", 3 },
    { G_GUINT64_CONSTANT (1000000), "ms", 2 },
    { G_GUINT64_CONSTANT (1000000000), "s", 1 },
  };
  char tmp[48];
  char *p = tmp;
  char digits[24];
  char *d;
  guint64 mag, q = 0;
  guint u;
  gsize n;

  g_return_val_if_fail (buf != NULL, NULL);
  g_return_val_if_fail (len > 0, buf);

  if (ns < 0)
    *p++ = '-';
  mag = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;

  if (mag < 1000)
    {
      d = u64_digits (digits + sizeof digits, mag);
      n = digits + sizeof digits - d;
      memcpy (p, d, n);
      p += n;
      memcpy (p, " ns", 3);
      p += 3;
    }
  else
    {
      guint frac;

      for (u = 0; u < G_N_ELEMENTS (units); u++)
        {
          guint64 step = units[u].ns / 1000;   /* ns per thousandth of the unit */

          if (u + 1 < G_N_ELEMENTS (units) && mag >= units[u + 1].ns)
            continue;
          /* thousandths of the unit, rounded to nearest */
          q = mag / step + ((mag % step) * 2 >= step ? 1 : 0);
          if (q >= 1000000 && u + 1 < G_N_ELEMENTS (units))
            continue;   /* rounding reached 1000 units: next unit */
          break;
        }
      d = u64_digits (digits + sizeof digits, q / 1000);
      n = digits + sizeof digits - d;
      memcpy (p, d, n);
      p += n;
      frac = (guint) (q % 1000);
      p[0] = '.';
      p[1] = '0' + frac / 100;
      p[2] = '0' + frac / 10 % 10;
      p[3] = '0' + frac % 10;
      p[4] = ' ';
      p += 5;
      memcpy (p, units[u].name, units[u].name_len);
      p += units[u].name_len;
    }

  /* as g_snprintf: truncated to len - 1 bytes */
  n = MIN ((gsize) (p - tmp), len - 1);
  memcpy (buf, tmp, n);
  buf[n] = '\0';
  return buf;
}

char *
cpel_time_format (gint64 ns)
{
  char buf[64];

  return g_strdup (cpel_time_format_buf (ns, buf, sizeof buf));
}

static const char *
skip_space (const char *p)
{
  while (g_ascii_isspace (*p))
    p++;
  return p;
}

char *
cpel_time_format_range_end (gint64  t,
                            gint64  other,
                            char   *buf,
                            gsize   len)
{
  char other_text[32];
  const char *unit;

  g_return_val_if_fail (buf != NULL, NULL);
  g_return_val_if_fail (len > 0, buf);

  if (t != 0 || other == 0)
    return cpel_time_format_buf (t, buf, len);
  cpel_time_format_buf (other, other_text, sizeof other_text);
  unit = strrchr (other_text, ' ');
  g_snprintf (buf, len, "0%s", unit != NULL ? unit : " ns");
  return buf;
}

gboolean
cpel_time_parse (const char *text,
                 gint64     *ns)
{
  const char *p, *int_start, *frac_start = NULL;
  gsize int_len, frac_len = 0;
  gboolean negative = FALSE;
  guint exponent;   /* unit = 10^exponent ns */
  guint64 value = 0, frac = 0;
  guint64 limit;

  g_return_val_if_fail (text != NULL, FALSE);

  p = skip_space (text);
  if (*p == '-' || *p == '+')
    negative = *p++ == '-';

  int_start = p;
  while (g_ascii_isdigit (*p))
    p++;
  int_len = p - int_start;
  if (*p == '.')
    {
      p++;
      frac_start = p;
      while (g_ascii_isdigit (*p))
        p++;
      frac_len = p - frac_start;
    }
  if (int_len == 0 && frac_len == 0)
    return FALSE;

  p = skip_space (p);
  if (strncmp (p, "ns", 2) == 0)
    exponent = 0, p += 2;
  else if (strncmp (p, "us", 2) == 0)
    exponent = 3, p += 2;
  else if (strncmp (p, MICRO_SIGN "s", 3) == 0 || strncmp (p, GREEK_MU "s", 3) == 0)
    exponent = 3, p += 3;
  else if (strncmp (p, "ms", 2) == 0)
    exponent = 6, p += 2;
  else if (*p == 's')
    exponent = 9, p += 1;
  else if (*p == '\0' && frac_start == NULL)
    exponent = 0;   /* a plain integer is nanoseconds */
  else
    return FALSE;
  p = skip_space (p);
  if (*p != '\0')
    return FALSE;

  /* Integer part, then scaled by the unit, with overflow checks. */
  limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
  for (gsize i = 0; i < int_len; i++)
    {
      guint d = int_start[i] - '0';

      if (value > (limit - d) / 10)
        return FALSE;
      value = value * 10 + d;
    }
  for (guint e = 0; e < exponent; e++)
    {
      if (value > limit / 10)
        return FALSE;
      value *= 10;
    }

  /* Fraction: its first `exponent` digits are whole ns, the next rounds. */
  for (guint e = 0; e < exponent; e++)
    frac = frac * 10 + (e < frac_len ? (guint) (frac_start[e] - '0') : 0);
  if (frac_len > exponent && frac_start[exponent] >= '5')
    frac++;
  if (value > limit - frac)
    return FALSE;
  value += frac;

  if (ns != NULL)
    *ns = negative ? (gint64) ((guint64) 0 - value) : (gint64) value;
  return TRUE;
}
