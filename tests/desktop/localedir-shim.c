/* SPDX-License-Identifier: Apache-2.0 */
/* localedir-shim.c — LD_PRELOAD helper for the German UI test.
 *
 * cpelview and cpel bind their catalogue to the compile-time LOCALEDIR
 * (under the install prefix).  For a test of the uninstalled build this
 * redirects bindtextdomain ("cpelview", ...) to $CPEL_TEST_LOCALEDIR (the
 * build's po/ directory, which holds de/LC_MESSAGES/cpelview.mo); every other
 * domain and every other call is passed through unchanged. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

char *bindtextdomain (const char *domainname, const char *dirname);

char *
bindtextdomain (const char *domainname,
                const char *dirname)
{
  static char *(*real_bindtextdomain) (const char *, const char *);
  const char *dir = getenv ("CPEL_TEST_LOCALEDIR");

  if (real_bindtextdomain == NULL)
    real_bindtextdomain = (char *(*) (const char *, const char *)) dlsym (RTLD_NEXT, "bindtextdomain");
  if (real_bindtextdomain == NULL)
    abort ();
  if (dir != NULL && dirname != NULL && domainname != NULL &&
      strcmp (domainname, "cpelview") == 0)
    dirname = dir;
  return real_bindtextdomain (domainname, dirname);
}
