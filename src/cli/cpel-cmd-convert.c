/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-convert.c — `cpel convert`: a VPP elog, Snabb timeline, … as a CPEL file */
#include "cpel-cli.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cpel-import.h"

int
cpel_cmd_convert (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  gboolean force = FALSE, little_endian = FALSE, c2cpel = FALSE;
  const GOptionEntry entries[] = {
    { "little-endian", 0, 0, G_OPTION_ARG_NONE, &little_endian,
      N_("Write a little-endian file (default: big-endian, as VPP writes)"), NULL },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_("Replace OUTPUT if it exists"), NULL },
    { "c2cpel", 0, 0, G_OPTION_ARG_NONE, &c2cpel,
      N_("VPP elog only: write what VPP's c2cpel writes (names, codes, tracks and strings)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  CpelImportOptions options = { 0 };
  const CpelImporter *importer = NULL;
  const char *output;

  context = cpel_cli_context_new ("convert", _("FILE OUTPUT"),
                                  _("Write FILE (a VPP elog, a Snabb timeline or another supported\n"
                                    "event log) as a CPEL file that keeps every event's full text.\n"
                                    "The output is written atomically and never replaces a file unless --force."),
                                  entries, CPEL_CLI_OPTIONS_FILE, &common);
  if (!cpel_cli_parse (context, "convert", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 3)
    return cpel_cli_usage_error ("convert", argc < 2 ? _("Missing FILE")
                                            : argc < 3 ? _("Missing OUTPUT")
                                            : _("Too many arguments"));
  if (c2cpel && little_endian)
    return cpel_cli_usage_error ("convert", _("--c2cpel writes big-endian files, as c2cpel does"));
  output = argv[2];
  options.little_endian = little_endian;
  options.c2cpel = c2cpel;
  options.ticks_per_second = common.clock_rate;

  if (!cpel_import_convert (argv[1], output, &options, force, &importer, NULL, NULL, NULL, &error))
    {
      g_autofree char *out_name = cpel_cli_escape (output);
      g_autofree char *message = cpel_cli_escape (error->message);

      if (error->domain == CPEL_ERROR)
        return cpel_cli_file_error (argv[1], error);
      fflush (stdout);
      g_printerr ("cpel: %s: %s\n", out_name, message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        g_printerr (_("Use --force to replace it.\n"));
      return CPEL_EXIT_INVALID;
    }
  /* standard output is the file's ("-") */
  if (strcmp (output, "-") != 0)
    {
      g_autofree char *in_name = cpel_cli_escape (argv[1]);
      g_autofree char *out_name = cpel_cli_escape (output);

      g_print (_("%s (%s) written as CPEL to %s\n"), in_name, _(importer->name), out_name);
    }
  return cpel_cli_flush_stdout () ? CPEL_EXIT_OK : CPEL_EXIT_INVALID;
}
