/* SPDX-License-Identifier: Apache-2.0 */
/* test-count.c — counts with digit grouping */
#include <locale.h>

#include "cpel-core.h"

/* The C locale has no grouping: threes with a narrow no-break space. */
static void
test_count_c_locale (void)
{
  static const struct { guint64 n; const char *text; } cases[] = {
    { 0, "0" },
    { 7, "7" },
    { 999, "999" },
    { 1000, "1\u202f000" },
    { 234164, "234\u202f164" },
    { 10000000, "10\u202f000\u202f000" },
    { G_MAXUINT64, "18\u202f446\u202f744\u202f073\u202f709\u202f551\u202f615" },
  };

  g_assert_nonnull (setlocale (LC_NUMERIC, "C"));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = cpel_format_count (cases[i].n);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* A locale with grouping uses its own separator (when one is installed). */
static void
test_count_grouping_locale (void)
{
  static const char *locales[] = { "de_DE.UTF-8", "en_US.UTF-8" };
  static const char *expected[] = { "10.000.000", "10,000,000" };

  for (guint i = 0; i < G_N_ELEMENTS (locales); i++)
    {
      g_autofree char *text = NULL;

      if (setlocale (LC_NUMERIC, locales[i]) == NULL)
        {
          g_test_message ("locale %s not installed", locales[i]);
          continue;
        }
      text = cpel_format_count (10000000);
      g_assert_cmpstr (text, ==, expected[i]);
    }
  setlocale (LC_NUMERIC, "C");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/count/c-locale", test_count_c_locale);
  g_test_add_func ("/core/count/grouping-locale", test_count_grouping_locale);
  return g_test_run ();
}
