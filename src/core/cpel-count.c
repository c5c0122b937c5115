/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-count.c — counts with digit grouping */
#include "cpel-count.h"

#include <langinfo.h>
#include <string.h>

#define NARROW_NBSP "\u202f"

char *
cpel_format_count (guint64 n)
{
  const char *sep = nl_langinfo (THOUSEP);
  char digits[24];
  GString *out;
  gsize len;

  if (sep != NULL && *sep != '\0')
    return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);

  len = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, n);
  out = g_string_sized_new (len + len / 3 * strlen (NARROW_NBSP));
  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (out, NARROW_NBSP);
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}
