/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-time.c — times shown to people
 *
 * Times are 64-bit integer nanoseconds; they are printed in the largest unit
 * (ns, µs, ms, s) that keeps at least 3 significant digits, with 3 decimals
 * (rounded to nearest) above ns, and parsed back exactly.
 */
#include "cpel-time.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

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

/* By hand rather than printf, with constant divisors: `cpel dump` formats
 * one time per event.  The unit is the largest of µs, ms, s that the value
 * reaches; thousandths of it rounded to nearest, and when that rounding
 * reaches 1000 units, the next unit. */
gsize
cpel_time_format_to (gint64  ns,
                     char   *buf)
{
  char digits[24];
  char *p = buf, *d;
  const char *unit;
  gsize n, unit_len;
  guint64 mag, q;
  guint frac;

  if (ns < 0)
    *p++ = '-';
  mag = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;

  if (mag < 1000)
    {
      d = u64_digits (digits + sizeof digits, mag);
      n = digits + sizeof digits - d;
      memcpy (p, d, n);
      memcpy (p + n, " ns", 3);
      return p + n + 3 - buf;
    }
  if (mag < G_GUINT64_CONSTANT (1000000))
    {
      q = mag;                       /* thousandths of a µs: exact */
      unit = MICRO_SIGN "s";
      unit_len = 3;
    }
  else
    {
      q = mag / 1000 + (mag % 1000 >= 500);
      unit = "ms";
      unit_len = 2;
      if (mag >= G_GUINT64_CONSTANT (1000000000) || q >= 1000000)
        {
          q = mag / 1000000 + (mag % 1000000 >= 500000);
          unit = "s";
          unit_len = 1;
        }
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
  memcpy (p + 5, unit, unit_len);
  return p + 5 + unit_len - buf;
}

const char *
cpel_time_unit_name (CpelTimeKind kind,
                     guint        unit)
{
  static const char * const ns_units[] = { "ns", MICRO_SIGN "s", "ms", "s" };

  unit = MIN (unit, 3);
  if (kind != CPEL_TIME_KIND_TICKS)
    return ns_units[unit];
  switch (unit)
    {
    /* TRANSLATORS: times of a clock whose rate is unknown: "850 ticks",
     * "1.234 kticks" (thousands), "12.345 Mticks", "3.210 Gticks" */
    case 0:  return _("ticks");
    case 1:  return _("kticks");
    case 2:  return _("Mticks");
    default: return _("Gticks");
    }
}

/* The unit cpel_time_format() picks for a magnitude (0 ns … 3 s). */
static guint
unit_of (guint64 mag)
{
  if (mag < 1000)
    return 0;
  if (mag < G_GUINT64_CONSTANT (1000000))
    return 1;
  if (mag < G_GUINT64_CONSTANT (1000000000))
    return 2;
  return 3;
}

static guint64
pow10_u64 (guint k)
{
  guint64 p = 1;

  while (k-- > 0)
    p *= 10;
  return p;
}

char *
cpel_time_format_kind (gint64       t,
                       CpelTimeKind kind)
{
  char buf[CPEL_TIME_FORMAT_SIZE + 1];
  const char *space;
  gsize n;

  n = cpel_time_format_to (t, buf);
  buf[n] = '\0';
  if (kind != CPEL_TIME_KIND_TICKS)
    return g_strdup (buf);
  /* the same digits: one tick is read as one ns */
  space = strrchr (buf, ' ');
  g_assert (space != NULL);
  {
    guint64 mag = t < 0 ? (guint64) 0 - (guint64) t : (guint64) t;
    guint unit = unit_of (mag);

    /* 999.9996 ms rounds to "1.000 s": the unit the text took */
    if (strcmp (space + 1, "s") == 0)
      unit = 3;
    else if (strcmp (space + 1, "ms") == 0)
      unit = 2;
    return g_strdup_printf ("%.*s %s", (int) (space - buf), buf, cpel_time_unit_name (kind, unit));
  }
}

gsize
cpel_time_format_exact_to (gint64        t,
                           gint64        scale,
                           CpelTimeKind  kind,
                           char         *buf,
                           gsize         len)
{
  char tmp[64], digits[24];
  char *p = tmp, *d;
  const char *unit_text;
  guint64 mag, smag, up;
  guint unit;
  gsize n;

  g_return_val_if_fail (buf != NULL && len > 0, 0);

  /* by hand, as cpel_time_format_to: `cpel dump` formats one per event */
  mag = t < 0 ? (guint64) 0 - (guint64) t : (guint64) t;
  smag = scale < 0 ? (guint64) 0 - (guint64) scale : (guint64) scale;
  unit = unit_of (smag);
  up = pow10_u64 (unit * 3);
  if (t < 0)
    *p++ = '-';
  d = u64_digits (digits + sizeof digits, mag / up);
  n = digits + sizeof digits - d;
  memcpy (p, d, n);
  p += n;
  if (unit > 0)
    {
      guint64 frac = mag % up;

      *p++ = '.';
      for (guint k = unit * 3; k-- > 0;)
        {
          p[k] = '0' + frac % 10;
          frac /= 10;
        }
      p += unit * 3;
    }
  *p++ = ' ';
  unit_text = cpel_time_unit_name (kind, unit);
  n = strlen (unit_text);
  memcpy (p, unit_text, MIN (n, 24));
  p += MIN (n, 24);
  n = MIN ((gsize) (p - tmp), len - 1);
  memcpy (buf, tmp, n);
  buf[n] = '\0';
  return n;
}

char *
cpel_time_format_buf (gint64  ns,
                      char   *buf,
                      gsize   len)
{
  char tmp[CPEL_TIME_FORMAT_SIZE];
  gsize n;

  g_return_val_if_fail (buf != NULL, NULL);
  g_return_val_if_fail (len > 0, buf);

  /* as g_snprintf: truncated to len - 1 bytes */
  n = MIN (cpel_time_format_to (ns, tmp), len - 1);
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

gboolean
cpel_clock_rate_parse (const char *text,
                       guint64    *rate)
{
  g_autofree char *t = NULL;
  char *end = NULL;
  double v, mult = 1;
  guint64 n;

  g_return_val_if_fail (rate != NULL, FALSE);

  if (text == NULL)
    return FALSE;
  t = g_strstrip (g_strdup (text));
  if (*t == '\0' || *t == '-' || *t == '+')
    return FALSE;
  if (g_ascii_string_to_unsigned (t, 10, 1, G_MAXINT64, &n, NULL))
    {
      *rate = n;
      return TRUE;
    }
  errno = 0;
  v = g_ascii_strtod (t, &end);
  if (end == t || errno != 0 || !isfinite (v))
    return FALSE;
  while (*end == ' ')
    end++;
  switch (*end)
    {
    case 'k': case 'K': mult = 1e3; end++; break;
    case 'M':           mult = 1e6; end++; break;
    case 'G': case 'g': mult = 1e9; end++; break;
    default: break;
    }
  if (g_ascii_strcasecmp (end, "Hz") == 0)
    end += 2;
  if (*end != '\0')
    return FALSE;
  v *= mult;
  if (!(v >= 1) || v >= 9.2e18)
    return FALSE;
  *rate = (guint64) llround (v);
  return TRUE;
}

gsize
cpel_time_format_clock_to (CpelClockKind  kind,
                           gint64         abs_ns,
                           guint          decimals,
                           gboolean       time_only,
                           char          *buf,
                           gsize          len)
{
  gint64 sec = abs_ns / 1000000000, frac = abs_ns % 1000000000;
  char digits[16] = "";
  int n;

  g_return_val_if_fail (buf != NULL && len > 0, 0);

  buf[0] = '\0';
  if (frac < 0)
    {
      /* floor: -0.25 s is second -1 and 0.75 of it */
      sec--;
      frac += 1000000000;
    }
  decimals = MIN (decimals, 9);
  if (decimals > 0)
    {
      g_snprintf (digits, sizeof digits, ".%09" G_GINT64_FORMAT, frac);
      digits[decimals + 1] = '\0';
    }
  switch (kind)
    {
    case CPEL_CLOCK_SECONDS:
      n = g_snprintf (buf, len, "%" G_GINT64_FORMAT "%s", sec, digits);
      break;
    case CPEL_CLOCK_WALL:
      {
        g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (sec);
        g_autofree char *when = NULL;

        if (dt == NULL)
          when = g_strdup_printf ("%" G_GINT64_FORMAT, sec);
        else
          when = g_date_time_format (dt, time_only ? "%H:%M:%S" : "%Y-%m-%d %H:%M:%S");
        n = g_snprintf (buf, len, "%s%s", when, digits);
      }
      break;
    case CPEL_CLOCK_NONE:
    default:
      return 0;
    }
  return MIN ((gsize) MAX (n, 0), len - 1);
}

char *
cpel_time_format_clock (CpelClockKind kind,
                        gint64        abs_ns,
                        guint         decimals)
{
  char buf[64];

  cpel_time_format_clock_to (kind, abs_ns, decimals, FALSE, buf, sizeof buf);
  return g_strdup (buf);
}
