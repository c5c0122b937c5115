/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-cut.c — `cpel cut`: a time range (and some tracks) as a new file */
#include "cpel-cli.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <string.h>

int
cpel_cmd_cut (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  gboolean force = FALSE;
  const GOptionEntry entries[] = {
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_("Replace OUTPUT if it exists"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GArray) slots = NULL;
  CpelCutOptions options = { 0 };
  const char *output;
  guint64 n = 0;

  context = cpel_cli_context_new ("cut", _("FILE OUTPUT"),
                                  _("Write the events of FILE from --from up to --to (and only the chosen\n"
                                    "tracks) as a new CPEL file, with every definition of FILE.\n"
                                    "The output is written atomically and never replaces a file unless --force."),
                                  entries, CPEL_CLI_OPTIONS_VIEW, &common);
  if (!cpel_cli_parse (context, "cut", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 3)
    return cpel_cli_usage_error ("cut", argc < 2 ? _("Missing FILE")
                                        : argc < 3 ? _("Missing OUTPUT")
                                        : _("Too many arguments"));
  output = argv[2];
  if (common.from_text == NULL || common.to_text == NULL)
    return cpel_cli_usage_error ("cut", _("Give the range with --from and --to"));
  if (!cpel_cli_parse_range (common.from_text, common.to_text, &options.t0, &options.t1, &error))
    return cpel_cli_usage_error ("cut", "%s", error->message);
  if (options.t1 <= options.t0)
    return cpel_cli_usage_error ("cut", _("The end of the range must come after its start"));

  file = cpel_cli_open_stream (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);

  if (common.tracks != NULL)
    {
      slots = cpel_cli_match_tracks (file, common.tracks, &error);
      if (slots == NULL)
        return cpel_cli_usage_error ("cut", "%s", error->message);
      options.slots = (const guint *) slots->data;
      options.n_slots = slots->len;
    }
  options.overwrite = force;

  if (!cpel_cut_write (file, output, &options, NULL, NULL, NULL, &n, &error))
    {
      /* the source changed while it was read; anything else is the output's */
      g_autofree char *out_name = cpel_cli_escape (output);
      g_autofree char *message = cpel_cli_escape (error->message);

      if (g_error_matches (error, CPEL_ERROR, CPEL_ERROR_IO))
        return cpel_cli_file_error (argv[1], error);
      fflush (stdout);
      /* GIO's messages name the file already (ours for an existing file do not) */
      if (error->domain == G_IO_ERROR && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS)
          && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE))
        g_printerr ("cpel: %s\n", message);
      else
        g_printerr ("cpel: %s: %s\n", out_name, message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        g_printerr (_("Use --force to replace it.\n"));
      return CPEL_EXIT_INVALID;
    }
  /* standard output is the file's ("-") */
  if (strcmp (output, "-") != 0)
    {
      g_autofree char *out_name = cpel_cli_escape (output);

      g_print (ngettext ("%" PRIu64 " event written to %s\n",
                         "%" PRIu64 " events written to %s\n", (gulong) MIN (n, G_MAXULONG)),
               n, out_name);
    }
  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
