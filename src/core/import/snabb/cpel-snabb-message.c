/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-snabb-message.c — Snabb timeline messages (see cpel-snabb-message.h) */
#include "cpel-snabb-message.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void
cpel_snabb_message_clear (CpelSnabbMessage *m)
{
  g_free (m->name);
  g_free (m->track);
  for (guint i = 0; i < m->n_args; i++)
    g_free (m->arg_names[i]);
}

/* "<level>,<rate>|<category>.<event>[ key=value…]: <arg names>[\n…]" */
gboolean
cpel_snabb_message_parse (const char       *s,
                          gsize             len,
                          CpelSnabbMessage *m)
{
  g_autofree char *line = NULL;
  g_auto(GStrv) words = NULL, names = NULL;
  char *bar, *colon, *spec;
  GString *track;
  const char *nl = memchr (s, '\n', len);

  line = g_strndup (s, nl ? (gsize) (nl - s) : len);
  bar = strchr (line, '|');
  colon = strrchr (line, ':');
  if (bar == NULL || colon == NULL || colon < bar)
    return FALSE;
  *bar = '\0';
  *colon = '\0';
  if (sscanf (line, "%u,%u", &m->level, &m->rate) != 2)
    m->level = m->rate = 0;
  spec = bar + 1;
  words = g_strsplit (g_strstrip (spec), " ", -1);
  if (words[0] == NULL || words[0][0] == '\0')
    return FALSE;
  m->name = g_strdup (words[0]);
  track = g_string_new (NULL);
  {
    const char *dot = strchr (words[0], '.');
    g_string_append_len (track, words[0], dot ? dot - words[0] : (gssize) strlen (words[0]));
  }
  for (guint i = 1; words[i] != NULL; i++)
    {
      const char *eq = strchr (words[i], '=');
      if (words[i][0] == '\0')
        continue;
      g_string_append_c (track, ' ');
      g_string_append (track, eq ? eq + 1 : words[i]);
    }
  m->track = g_string_free (track, FALSE);
  names = g_strsplit (colon + 1, " ", -1);
  for (guint i = 0; names[i] != NULL && m->n_args < CPEL_SNABB_MAX_ARGS; i++)
    if (names[i][0] != '\0')
      m->arg_names[m->n_args++] = g_strdup (names[i]);
  m->valid = TRUE;
  return TRUE;
}

/* Shortest text that reads back as the same double; integral values as integers. */
void
cpel_snabb_append_number (GString *out,
                          double   x)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (x == floor (x) && fabs (x) < 9.2e18)
    {
      /* as "%" PRId64, without printf */
      gint64 v = (gint64) x;
      guint64 u = v < 0 ? -(guint64) v : (guint64) v;
      char digits[24], *d = digits + sizeof digits;

      do
        *--d = (char) ('0' + u % 10);
      while ((u /= 10) != 0);
      if (v < 0)
        *--d = '-';
      g_string_append_len (out, d, digits + sizeof digits - d);
      return;
    }
  if (!isfinite (x))
    {
      g_string_append (out, isnan (x) ? "nan" : x > 0 ? "inf" : "-inf");
      return;
    }
  /* The shortest "%.Ng" that reads back.  For a normal double whose
   * shortest has N <= 15 digits, "%.15g" prints the same (x is within half
   * an ulp, 2^-53 relative, of that decimal: rounding to 15 digits gives it
   * back, zeros stripped); else 16 or 17.  Subnormals have fewer bits: the
   * plain search. */
  if (fabs (x) >= DBL_MIN)
    {
      static const char * const formats[] = { "%.15g", "%.16g", "%.17g" };

      for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
        {
          g_ascii_formatd (buf, sizeof buf, formats[i], x);
          if (g_ascii_strtod (buf, NULL) == x)
            break;
        }
    }
  else
    for (int prec = 1; prec <= 17; prec++)
      {
        char format[8];

        g_snprintf (format, sizeof format, "%%.%dg", prec);
        g_ascii_formatd (buf, sizeof buf, format, x);
        if (g_ascii_strtod (buf, NULL) == x)
          break;
      }
  g_string_append (out, buf);
}
