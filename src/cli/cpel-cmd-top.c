/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-top.c — `cpel top`: the functions the call chains hold */
#include "cpel-cli.h"

#include <glib/gi18n.h>

int
cpel_cmd_top (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  gboolean csv = FALSE;
  gint limit = 0;
  const GOptionEntry entries[] = {
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv,
      N_("Comma-separated values (RFC 4180)"), NULL },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit,
      N_("At most N functions (default: all)"), N_("N") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GArray) slots = NULL;
  g_autoptr(CpelTop) top = NULL;
  g_autofree char *text = NULL;
  gint64 t0 = 0, t1 = G_MAXINT64;

  context = cpel_cli_context_new ("top", _("FILE"),
    _("The functions of the samples' call chains (perf record -g), most\n"
      "sampled first: self, the samples a function was running in (as\n"
      "perf report --no-children), and total, the samples whose call chain\n"
      "holds it; for the whole file or a time range."),
    entries, CPEL_CLI_OPTIONS_VIEW, &common);
  if (!cpel_cli_parse (context, "top", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("top", argc < 2 ? _("Missing FILE") : _("Too many arguments"));
  if (limit < 0)
    return cpel_cli_usage_error ("top", _("--limit takes a count, not %d"), limit);
  if (!cpel_cli_parse_range (common.from_text, common.to_text, &t0, &t1, &error))
    return cpel_cli_usage_error ("top", "%s", error->message);
  if (t1 <= t0)
    return cpel_cli_usage_error ("top", _("The end of the range must come after its start"));

  file = cpel_cli_open (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);
  if (common.tracks != NULL)
    {
      slots = cpel_cli_match_tracks (file, common.tracks, &error);
      if (slots == NULL)
        return cpel_cli_usage_error ("top", "%s", error->message);
    }
  if (!cpel_file_has_call_chains (file))
    {
      g_set_error (&error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("No event has a call chain (record with perf record -g)"));
      return cpel_cli_file_error (argv[1], error);
    }

  top = cpel_top_compute (file, t0, t1, slots ? (const guint *) slots->data : NULL,
                          slots ? slots->len : 0, NULL, &error);
  if (top == NULL)
    return cpel_cli_file_error (argv[1], error);
  text = csv ? cpel_top_to_csv (top, (guint) limit) : cpel_top_to_text (top, (guint) limit);
  fputs (text, stdout);

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
