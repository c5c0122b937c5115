/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cli.c — `cpel`: main dispatch to the subcommands */
#include "cpel-cli.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

typedef struct
{
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "info",   cpel_cmd_info,   N_("Header, sections, counts, time span, clock, diagnostics") },
  { "dump",   cpel_cmd_dump,   N_("One line per event in time order (--tsv for tab-separated values)") },
  { "search", cpel_cmd_search, N_("Events matching a code, a text or a regular expression") },
  { "gen",    cpel_cmd_gen,    N_("Write a synthetic or demo CPEL file") },
  { "export", cpel_cmd_export, N_("Render a view to PNG, SVG or PDF without a display") },
  { "convert", cpel_cmd_convert, N_("Write a VPP elog, Snabb timeline, … as a CPEL file") },
  { "cut",     cpel_cmd_cut,     N_("Write a time range (and some tracks) as a new CPEL file") },
  { "stats",   cpel_cmd_stats,   N_("Per event code and per track counts and intervals, as text or CSV") },
  { "anomaly", cpel_cmd_anomaly, N_("Events of a code whose datum or interval is unusual for its track") },
  { "chase",   cpel_cmd_chase,   N_("The tracks holding an event code or a datum") },
  { "diff",    cpel_cmd_diff,    N_("Differences between two captures per event name and per track") },
  { "spans",   cpel_cmd_spans,
    N_("Durations from begin and end events by rules: per span or per track, as text or CSV") },
  { "states",  cpel_cmd_states,
    N_("Time per track in each state set by state rules, as text or CSV") },
  { "rules",   cpel_cmd_rules,
    N_("Check a span rules file: its rules, or its errors with line and column") },
  { "top",     cpel_cmd_top,
    N_("The functions of the samples' call chains (perf record -g), most sampled first") },
  { "cache",   cpel_cmd_cache,   N_("The persisted index of big files: where, how big; clear it") },
};

static void
print_help (void)
{
  g_print ("%s\n  cpel %s\n\n", _("Usage:"), _("COMMAND [OPTION…] ARGUMENTS"));
  g_print ("%s\n\n", _("Inspect, dump, search, generate, render, cut and analyse CPEL performance event logs."));
  g_print ("%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_print ("  %-9s %s\n", commands[i].name, _(commands[i].summary));
  g_print ("\n%s\n", _("Options:"));
  g_print ("  -h, --help     %s\n", _("Show this help"));
  g_print ("  -V, --version  %s\n", _("Show the version"));
  g_print ("\n%s\n", _("Run “cpel COMMAND --help” for the options of a command."));
  g_print ("%s\n", _("Exit status: 0 success, 1 invalid file or failure, 2 wrong usage."));
}

int
main (int argc, char **argv)
{
  const char *name;
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("cpel");
  cpel_cli_setup_stdout ();

  if (argc < 2)
    {
      cpel_cli_usage_error (NULL, _("Missing COMMAND"));
      return CPEL_EXIT_USAGE;
    }
  name = argv[1];
  if (strcmp (name, "--help") == 0 || strcmp (name, "-h") == 0 || strcmp (name, "help") == 0)
    {
      if (strcmp (name, "help") == 0 && argc == 3)
        {
          /* "cpel help COMMAND" = "cpel COMMAND --help" */
          for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
            if (strcmp (argv[2], commands[i].name) == 0)
              {
                char *args[] = { argv[2], (char *) "--help", NULL };
                return commands[i].run (2, args);
              }
          return cpel_cli_usage_error (NULL, _("Unknown command “%s”"), argv[2]);
        }
      print_help ();
      return cpel_cli_flush_stdout () ? CPEL_EXIT_OK : CPEL_EXIT_INVALID;
    }
  if (strcmp (name, "--version") == 0 || strcmp (name, "-V") == 0)
    {
      g_print ("cpel (CPEL Viewer) %s\n", PACKAGE_VERSION);
      return cpel_cli_flush_stdout () ? CPEL_EXIT_OK : CPEL_EXIT_INVALID;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (name, commands[i].name) == 0)
      {
        status = commands[i].run (argc - 1, argv + 1);
        fflush (stdout);
        return status;
      }

  if (name[0] == '-')
    return cpel_cli_usage_error (NULL, _("Unknown option “%s”: give a COMMAND first"), name);
  return cpel_cli_usage_error (NULL, _("Unknown command “%s”"), name);
}
