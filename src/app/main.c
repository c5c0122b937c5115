/* SPDX-License-Identifier: Apache-2.0 */
/* main.c — cpelview, the CPEL Viewer */
#include <glib/gi18n.h>
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cpel-application.h"

int
main (int   argc,
      char *argv[])
{
  gint64 start_us = g_get_monotonic_time ();
  g_autoptr(CpelApplication) app = NULL;

#ifdef __GLIBC__
  /* Each frame allocates and frees images of a few megabytes (the
   * timeline's pixels, cairo's copies of them).  glibc serves such blocks
   * with fresh mmap()s until its adaptive threshold has seen enough of
   * them, and every fresh page then faults: the first zooms after opening
   * cost twice their drawing.  Blocks up to 32 MiB (a 4K frame at scale 2)
   * come from the heap, which keeps up to 64 MiB of freed memory. */
  mallopt (M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, 64 * 1024 * 1024);
#endif

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("CPEL Viewer"));
  app = cpel_application_new (start_us);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
