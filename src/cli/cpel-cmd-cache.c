/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-cache.c — `cpel cache info|clear`: the persisted index's folder */
#include "cpel-cli.h"

#include <string.h>

#include <glib/gi18n.h>

int
cpel_cmd_cache (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = cpel_index_cache_get_default_dir ();
  g_autofree char *size_text = NULL;
  CpelLoadOptions options = { 0 };
  guint n = 0;
  guint64 bytes = 0;

  context = cpel_cli_context_new ("cache", _("info|clear"),
                                  _("Opening a big file stores its index, and its spans\n"
                                    "once derived, in the cache folder, so that the next\n"
                                    "open only reads them back. “info” shows the folder,\n"
                                    "its size and its limit; “clear” removes everything\n"
                                    "stored."),
                                  NULL, 0, NULL);
  if (!cpel_cli_parse (context, "cache", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("cache", argc < 2 ? _("Missing “info” or “clear”")
                                                  : _("Too many arguments"));

  if (strcmp (argv[1], "clear") == 0)
    {
      if (!cpel_index_cache_clear (dir, &n, &bytes, &error))
        {
          g_printerr ("cpel: %s\n", error->message);
          return CPEL_EXIT_INVALID;
        }
      size_text = g_format_size (bytes);
      /* TRANSLATORS: "Removed 3 cache files (1.2 GB) from /home/…/index" (the
         index and the spans of captures) */
      g_print (g_dngettext (GETTEXT_PACKAGE, "Removed %u cache file (%s) from %s\n",
                            "Removed %u cache files (%s) from %s\n", n),
               n, size_text, dir);
      return cpel_cli_flush_stdout () ? CPEL_EXIT_OK : CPEL_EXIT_INVALID;
    }
  if (strcmp (argv[1], "info") == 0)
    {
      g_autofree char *limit_text = NULL;

      if (!cpel_index_cache_get_usage (dir, &n, &bytes, &error))
        {
          g_printerr ("cpel: %s\n", error->message);
          return CPEL_EXIT_INVALID;
        }
      cpel_cli_cache_options (&options);
      size_text = g_format_size (bytes);
      limit_text = g_format_size (options.cache_max_bytes ? options.cache_max_bytes
                                                          : CPEL_INDEX_CACHE_DEFAULT_MAX_BYTES);
      g_print ("%s: %s\n", _("Folder"), dir);
      g_print ("%s: %u (%s)\n", _("Cache files"), n, size_text);
      g_print ("%s: %s\n", _("Limit"), limit_text);
      g_print ("%s: %s\n", _("Used"), options.use_cache ? _("yes") : _("no (turned off in the settings)"));
      return cpel_cli_flush_stdout () ? CPEL_EXIT_OK : CPEL_EXIT_INVALID;
    }
  return cpel_cli_usage_error ("cache", _("Unknown action “%s”: give “info” or “clear”"), argv[1]);
}
