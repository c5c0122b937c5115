/* main.c — cpelview, the CPEL Viewer */
#include <glib/gi18n.h>
#include <locale.h>

#include "cpel-application.h"

int
main (int   argc,
      char *argv[])
{
  gint64 start_us = g_get_monotonic_time ();
  g_autoptr(CpelApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("CPEL Viewer"));
  app = cpel_application_new (start_us);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
