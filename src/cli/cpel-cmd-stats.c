/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-stats.c — `cpel stats`: per event code and per track statistics */
#include "cpel-cli.h"

#include <string.h>

#include <glib/gi18n.h>

int
cpel_cmd_stats (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  g_autofree char *by = NULL;
  gboolean csv = FALSE;
  const GOptionEntry entries[] = {
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv,
      N_("Comma-separated values (RFC 4180) of one table"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("The table to print: codes or tracks (default: both; codes with --csv)"), N_("TABLE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GArray) slots = NULL;
  g_autoptr(CpelStats) stats = NULL;
  g_autofree char *text = NULL;
  CpelStatsOptions options = { 0 };
  CpelStatsCsvTable table = CPEL_STATS_CSV_CODES;

  context = cpel_cli_context_new ("stats", _("FILE"),
                                  _("Per event code: the number of events and the interval between successive\n"
                                    "events of the code on a track (minimum, mean, maximum); per track: the\n"
                                    "number of events; for the whole file or a time range."),
                                  entries, CPEL_CLI_OPTIONS_VIEW, &common);
  if (!cpel_cli_parse (context, "stats", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("stats", argc < 2 ? _("Missing FILE") : _("Too many arguments"));
  if (by != NULL && strcmp (by, "codes") != 0 && strcmp (by, "tracks") != 0)
    return cpel_cli_usage_error ("stats", _("--by takes “codes” or “tracks”, not “%s”"), by);
  if (by != NULL && strcmp (by, "tracks") == 0)
    table = CPEL_STATS_CSV_TRACKS;
  options.t1 = G_MAXINT64;
  if (!cpel_cli_parse_range (common.from_text, common.to_text, &options.t0, &options.t1, &error))
    return cpel_cli_usage_error ("stats", "%s", error->message);
  if (options.t1 <= options.t0)
    return cpel_cli_usage_error ("stats", _("The end of the range must come after its start"));

  file = cpel_cli_open_stream (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);
  /* an open end: just after the last event, so that the range reads well */
  if (common.to_text == NULL)
    {
      options.t1 = MAX (options.t0, cpel_file_get_duration (file));
      if (options.t1 < G_MAXINT64)
        options.t1++;
    }

  if (common.tracks != NULL)
    {
      slots = cpel_cli_match_tracks (file, common.tracks, &error);
      if (slots == NULL)
        return cpel_cli_usage_error ("stats", "%s", error->message);
      options.slots = (const guint *) slots->data;
      options.n_slots = slots->len;
    }

  stats = cpel_stats_compute (file, &options, NULL, &error);
  if (stats == NULL)
    return cpel_cli_file_error (argv[1], error);
  if (csv)
    text = cpel_stats_to_csv (stats, table);
  else if (by != NULL)
    text = cpel_stats_table_to_text (stats, table);
  else
    text = cpel_stats_to_text (stats);
  fputs (text, stdout);

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
