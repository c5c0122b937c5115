/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-elog-clib-format.c — a re-implementation of VPP's clib format() for the
 * conversions elog types use (vppinfra/format.c): widths that also truncate,
 * '0' padding, %d of a 4-byte value signed, %Ld/%Lx 64-bit, floats without
 * the leading zero, t/T arguments as strings. */
#include "cpel-elog-clib-format.h"

#include <math.h>
#include <string.h>

#define MAX_WIDTH 1024



/* Value as the vararg `int` clib reads. */
static gint64
arg_int (const CpelElogClibArg *a)
{
  switch (a->kind)
    {
    case CPEL_ELOG_CLIB_ARG_INT:
    case CPEL_ELOG_CLIB_ARG_INT64:
    case CPEL_ELOG_CLIB_ARG_STRING:
      return (gint32) (guint32) a->u;
    case CPEL_ELOG_CLIB_ARG_FLOAT:
      return 0;
    default:
      return 0;
    }
}

static guint64
arg_u64 (const CpelElogClibArg *a)
{
  return a->kind == CPEL_ELOG_CLIB_ARG_FLOAT ? 0 : a->u;
}

static void
clib_integer (GString *out, guint64 number, guint n_bits, gboolean is_signed,
              guint base, gboolean upper)
{
  char digits[72];
  char *d = digits + sizeof digits;

  if (is_signed && (gint64) number < 0)
    {
      number = -number;
      g_string_append_c (out, '-');
    }
  if (n_bits < 64)
    number &= (G_GUINT64_CONSTANT (1) << n_bits) - 1;
  do
    {
      guint r = number % base;
      char c = r < 10 ? '0' + r : 'a' + (r - 10);

      if (upper && c >= 'a' && c <= 'z')
        c += 'A' - 'a';
      *--d = c;
      number /= base;
    }
  while (number != 0);
  g_string_append_len (out, d, digits + sizeof digits - d);
}

/* IEEE helpers as clib's format_float uses them. */
static double
f64_up (int expon, guint64 fraction)
{
  union { guint64 u; double f; } t;

  expon += 1023;
  if (expon > 1023)
    expon = 1023;
  if (expon < 0)
    expon = 0;
  t.u = (guint64) expon << 52 | (fraction & ((G_GUINT64_CONSTANT (1) << 52) - 1));
  return t.f;
}

static double
times_power_of_ten (double x, int n)
{
  static const double up[8] = { 1e+0, 1e+1, 1e+2, 1e+3, 1e+4, 1e+5, 1e+6, 1e+7 };
  static const double down[8] = { 1e-0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7 };

  if (n >= 0)
    {
      while (n >= 8)
        {
          x *= 1e+8;
          n -= 8;
        }
      return x * up[n];
    }
  while (n <= -8)
    {
      x *= 1e-8;
      n += 8;
    }
  return x * down[-n];
}

static double
normalize (double x, gint64 *expon_return, double *prec_return)
{
  union { guint64 u; double f; } t = { .f = x };
  int expon2 = (int) ((t.u >> 52) & 0x7ff) - 1023;
  gint64 expon10 = (gint64) (.5 + expon2 * .301029995663981195213738894724493);
  double prec = f64_up (expon2 - 53, 0);

  x = times_power_of_ten (x, (int) -expon10);
  prec = times_power_of_ten (prec, (int) -expon10);
  while (x < 1)
    {
      x *= 10;
      prec *= 10;
      expon10--;
    }
  while (x > 10)
    {
      x *= .1;
      prec *= .1;
      expon10++;
    }
  if (x + prec >= 10)
    {
      x = 1;
      expon10++;
    }
  *expon_return = expon10;
  *prec_return = prec;
  return x;
}

static void
add_zeros (GString *out, gint64 n)
{
  for (; n > 0; n--)
    g_string_append_c (out, '0');
}

static void
clib_float (GString *out, double x, gint64 n_fraction_digits, char style)
{
  double prec, rounding = 0.5;
  gint64 expon = 0, n_fraction_done = 0, decimal_point = 0;
  gboolean sign = FALSE, added_decimal_point = FALSE;

  if (n_fraction_digits < 0)
    n_fraction_digits = 6;

  if (x == 0)
    {
      g_string_append_c (out, '0');
      goto done;
    }
  if (x < 0)
    {
      x = -x;
      sign = TRUE;
    }
  for (gint64 i = 0; i < n_fraction_digits; i++)
    rounding *= 0.1;
  x += rounding;
  if (isnan (x))
    {
      g_string_append (out, sign ? "-NaN" : "+NaN");
      return;
    }
  if (isinf (x))
    {
      g_string_append (out, sign ? "-infinity" : "+infinity");
      return;
    }
  x = normalize (x, &expon, &prec);
  if (-expon > n_fraction_digits && (style == 'f' || style == 'g'))
    {
      g_string_append_c (out, '0');
      goto done;
    }
  if (sign)
    g_string_append_c (out, '-');
  if (style == 'f' || (style == 'g' && expon > -10 && expon < 10))
    {
      if (expon < 0)
        {
          g_string_append_c (out, '.');
          n_fraction_done = MIN (-(expon + 1), n_fraction_digits);
          add_zeros (out, n_fraction_done);
          decimal_point = -n_fraction_done;
          added_decimal_point = TRUE;
        }
      else
        decimal_point = expon + 1;
    }
  else
    {
      decimal_point = 1;
      style = 'e';
    }

  for (guint guard = 0; guard < 4096; guard++)
    {
      guint64 digit;

      if (x < prec)
        break;
      digit = (guint64) x;
      x -= digit;
      if (x + prec >= 1)
        {
          digit++;
          x -= 1;
        }
      g_string_append_c (out, (char) ('0' + digit));
      decimal_point--;
      n_fraction_done += decimal_point < 0;
      if (decimal_point <= 0 && n_fraction_done >= n_fraction_digits)
        break;
      if (decimal_point == 0 && x != 0)
        {
          g_string_append_c (out, '.');
          added_decimal_point = TRUE;
        }
      x *= 10;
      prec *= 10;
    }

done:
  if (decimal_point > 0)
    add_zeros (out, MIN (decimal_point, MAX_WIDTH));
  if (n_fraction_done < n_fraction_digits)
    {
      if (!added_decimal_point)
        g_string_append_c (out, '.');
      add_zeros (out, n_fraction_digits - n_fraction_done);
    }
  if (style == 'e')
    {
      g_string_append_c (out, 'e');
      clib_integer (out, (guint64) expon, 64, TRUE, 10, FALSE);
    }
}

static void
clib_justify (GString *out, gsize i0, char justify, gsize width, char pad)
{
  gsize l0 = i0 + width, l1 = out->len;

  if (l0 == i0)
    l0 = l1;
  if (l1 > l0)
    g_string_truncate (out, l0);
  else if (l0 > l1)
    {
      gsize n = l0 - l1, left = 0, right = 0;

      if (justify == '-')
        right = n;
      else if (justify == '+')
        left = n;
      else
        {
          right = left = n / 2;
          left += n % 2;
        }
      if (left > 0)
        {
          char *fill = g_malloc (left);
          memset (fill, pad, left);
          g_string_insert_len (out, i0, fill, left);
          g_free (fill);
        }
      for (; right > 0; right--)
        g_string_append_c (out, pad);
    }
}

/* One conversion piece ("%-08.3Ld", from '%' through the letter), with the
 * one argument elog passes; clib's do_percent().  A wrong argument kind
 * (which in VPP reads garbage or crashes) gives a neutral value. */
void
cpel_elog_clib_format_piece (GString                *out,
                             gsize                   text_start,
                             const char             *f,
                             const CpelElogClibArg  *arg)
{
  char justify = '+', pad = ' ', how_long = 0, c;
  gsize width[2] = { 0, 0 };
  gboolean precision_set = FALSE, first_digit = TRUE;
  gsize initial;

  g_assert (f[0] == '%');
  c = *++f;
  if (c == '%')
    {
      g_string_append_c (out, '%');
      return;
    }
  if (c == '-' || c == '+' || c == '=')
    {
      justify = c;
      c = *++f;
    }
  for (int i = 0; i < 2; i++)
    {
      if (c == '0' && i == 0 && first_digit)
        pad = '0';
      first_digit = FALSE;
      if (c == '*')
        {
          gint64 w = arg_int (arg);
          width[i] = (gsize) CLAMP (w, 0, MAX_WIDTH);
          c = *++f;
        }
      else
        while (c >= '0' && c <= '9')
          {
            width[i] = MIN (10 * width[i] + (gsize) (c - '0'), MAX_WIDTH);
            c = *++f;
          }
      if (c != '.')
        break;
      precision_set = TRUE;
      c = *++f;
    }
  if (c == 'w')
    {
      how_long = 'w';
      c = *++f;
    }
  else if (c == 'L' || c == 'l')
    {
      how_long = c;
      c = *++f;
      if (c == 'l')
        {
          how_long = 'L';
          c = *++f;
        }
    }
  if (c == 0)
    return;

  initial = out->len;
  switch (c)
    {
    default:
      /* clib throws away everything formatted so far (of this text) */
      g_string_truncate (out, MIN (text_start, out->len));
      g_string_append_printf (out, "**** CLIB unknown format `%%%c' ****", c);
      return;

    case 'c':
      g_string_append_c (out, (char) arg_int (arg));
      break;

    case 'p':
      g_string_append (out, "0x");
      clib_integer (out, arg_u64 (arg), 64, FALSE, 16, FALSE);
      break;

    case 'x': case 'X': case 'u': case 'o': case 'd':
      {
        guint base = c == 'x' || c == 'X' ? 16 : c == 'o' ? 8 : 10;
        guint64 number;
        guint n_bits;

        if (how_long == 'L')
          {
            number = arg_u64 (arg);
            n_bits = 64;
          }
        else if (how_long == 'l' || how_long == 'w')
          {
            number = arg->kind == CPEL_ELOG_CLIB_ARG_INT64 ? arg_u64 (arg)
                     : (guint64) (guint32) arg_u64 (arg);
            n_bits = 64;
          }
        else
          {
            number = (guint64) arg_int (arg);
            n_bits = 32;
          }
        clib_integer (out, number, n_bits, c == 'd', base, c == 'X');
      }
      break;

    case 's': case 'S': case 'v':
      {
        const char *s = arg->kind == CPEL_ELOG_CLIB_ARG_STRING ? arg->s : NULL;
        gsize len;

        if (s == NULL)
          {
            s = arg->kind == CPEL_ELOG_CLIB_ARG_NONE ? "(nil)" : "(not a string)";
            len = strlen (s);
          }
        else if (precision_set)
          len = strnlen (s, width[1]);
        else
          len = strlen (s);
        if (c == 'S')
          for (gsize i = 0; i < len; i++)
            g_string_append_c (out, s[i] == '_' ? ' ' : s[i]);
        else
          g_string_append_len (out, s, len);
      }
      break;

    case 'f': case 'g': case 'e':
      {
        double x = arg->kind == CPEL_ELOG_CLIB_ARG_FLOAT ? arg->f
                   : arg->kind == CPEL_ELOG_CLIB_ARG_NONE
                     || arg->kind == CPEL_ELOG_CLIB_ARG_STRING ? 0.0
                   : (double) arg->u;
        clib_float (out, x, precision_set ? (gint64) width[1] : -1, c);
      }
      break;

    case 'U':
      break;   /* a function pointer in VPP: nothing sensible to print */
    }
  clib_justify (out, initial, justify, width[0], pad);
}
