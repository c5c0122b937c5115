/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-dump.c — `cpel dump`: every event in time order */
#include "cpel-cli.h"

#include <glib/gi18n.h>

int
cpel_cmd_dump (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  gboolean tsv = FALSE, follow = FALSE;
  g_autofree char *clock = NULL;
  CpelClockKind clock_kind = CPEL_CLOCK_NONE;
  gint64 clock_origin = 0;
  gint64 from = G_MININT64, to = G_MAXINT64;
  const GOptionEntry entries[] = {
    { "tsv", 't', 0, G_OPTION_ARG_NONE, &tsv,
      N_("Tab-separated values: time_ns, track, track_label, code, event, datum"), NULL },
    { "follow", 'f', 0, G_OPTION_ARG_NONE, &follow,
      N_("Print new events as they are written, until interrupted (a Snabb ring, snabb:PID, "
         "a growing CPEL file)"), NULL },
    { "clock", 0, 0, G_OPTION_ARG_STRING, &clock,
      N_("Times since the first event (first, the default) or on the capture's own clock "
         "(capture: perf's seconds as perf script prints them, a wall clock in UTC)"),
      N_("first|capture") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  g_autoptr(CpelLinePrinter) printer = NULL;
  CpelEvent ev;

  context = cpel_cli_context_new ("dump", _("FILE"),
                                  _("Print one line per event, in time order (file order breaks ties)."),
                                  entries, CPEL_CLI_OPTION_CLOCK_RATE | CPEL_CLI_OPTION_RANGE, &common);

  if (!cpel_cli_parse (context, "dump", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("dump", argc < 2 ? _("Missing FILE") : _("Too many arguments"));
  if (!cpel_cli_parse_range (common.from_text, common.to_text, &from, &to, &error))
    return cpel_cli_usage_error ("dump", "%s", error->message);
  if (clock != NULL && !g_str_equal (clock, "first") && !g_str_equal (clock, "capture"))
    return cpel_cli_usage_error ("dump", _("--clock takes first or capture, not “%s”"), clock);
  if (follow)
    {
      if (common.from_text != NULL || common.to_text != NULL)
        return cpel_cli_usage_error ("dump", _("--follow takes neither --from nor --to"));
      if (g_strcmp0 (clock, "capture") == 0)
        return cpel_cli_usage_error ("dump", _("--follow takes no --clock capture"));
      return cpel_cli_follow (argv[1], tsv, common.clock_rate);
    }

  file = cpel_cli_open_stream (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);

  if (g_strcmp0 (clock, "capture") == 0)
    {
      clock_kind = cpel_file_get_clock_origin (file, &clock_origin);
      if (clock_kind == CPEL_CLOCK_NONE)
        {
          g_autofree char *name = cpel_cli_escape (argv[1]);

          return cpel_cli_usage_error ("dump", _("%s does not say what its clock read: only "
                                                 "times since the first event (--clock first)"),
                                       name);
        }
    }
  printer = cpel_line_printer_new (file, tsv);
  cpel_line_printer_set_clock (printer, clock_kind, clock_origin);
  cpel_line_printer_header (printer);
  merge = cpel_merge_new (file, NULL, 0, from == G_MININT64 ? 0 : from);
  while (cpel_merge_next (merge, &ev, NULL))
    {
      if (ev.time_ns >= to)
        break;
      cpel_line_printer_event (printer, &ev);
    }
  g_clear_pointer (&printer, cpel_line_printer_free);

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
