/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-search.c — `cpel search`: events by code, text or regex */
#include "cpel-cli.h"

#include <glib/gi18n.h>

/* Streaming: whether an event matches depends only on its type, datum and
 * section (the datum's string table): a direct-mapped cache of decisions. */
#define DECISIONS (1u << 16)

typedef struct
{
  guint32 type;
  guint32 datum;
  guint32 section;
  gint8   match;    /* -1 = empty */
} Decision;

static gboolean
decide (CpelQuery       *query,
        Decision        *decisions,
        const CpelEvent *ev)
{
  guint32 h = (ev->datum * 0x9e3779b1u) ^ (ev->type * 0x85ebca6bu) ^ (ev->section * 0xc2b2ae35u);
  Decision *d = &decisions[(h ^ (h >> 16)) & (DECISIONS - 1)];

  if (d->match < 0 || d->type != ev->type || d->datum != ev->datum || d->section != ev->section)
    {
      d->type = ev->type;
      d->datum = ev->datum;
      d->section = ev->section;
      d->match = cpel_query_match (query, ev) ? 1 : 0;
    }
  return d->match;
}

int
cpel_cmd_search (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  g_autofree char *code = NULL;
  g_autofree char *text = NULL;
  g_autofree char *regex = NULL;
  gboolean ignore_case = FALSE, case_sensitive = FALSE, tsv = FALSE, count_only = FALSE;
  const GOptionEntry entries[] = {
    { "code", 0, 0, G_OPTION_ARG_STRING, &code,
      N_("Events with this code (decimal or 0x hex) or event name"), N_("CODE") },
    { "text", 0, 0, G_OPTION_ARG_STRING, &text,
      N_("Events whose label “event: datum” contains TEXT"), N_("TEXT") },
    { "regex", 0, 0, G_OPTION_ARG_STRING, &regex,
      N_("Events whose label matches a regular expression"), N_("REGEX") },
    { "ignore-case", 'i', 0, G_OPTION_ARG_NONE, &ignore_case,
      N_("Ignore case (the default)"), NULL },
    { "case-sensitive", 's', 0, G_OPTION_ARG_NONE, &case_sensitive,
      N_("Match case exactly"), NULL },
    { "tsv", 't', 0, G_OPTION_ARG_NONE, &tsv,
      N_("Print the matches as tab-separated values, like dump --tsv"), NULL },
    { "count", 0, 0, G_OPTION_ARG_NONE, &count_only,
      N_("Print only the number of matches"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelQuery) query = NULL;
  g_autoptr(CpelSearchResult) result = NULL;
  CpelSearchMode mode = CPEL_SEARCH_TEXT;
  const char *pattern = NULL;
  guint n_patterns;
  guint64 n;

  context = cpel_cli_context_new ("search", _("FILE [TEXT]"),
                                  _("Print the events that match, in time order, as dump does.\n"
                                    "A TEXT argument is the same as --text TEXT."),
                                  entries, CPEL_CLI_OPTIONS_FILE, &common);
  if (!cpel_cli_parse (context, "search", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc < 2)
    return cpel_cli_usage_error ("search", _("Missing FILE"));
  if (argc > 3)
    return cpel_cli_usage_error ("search", _("Too many arguments"));

  n_patterns = (code != NULL) + (text != NULL) + (regex != NULL) + (argc == 3);
  if (n_patterns != 1)
    return cpel_cli_usage_error ("search", n_patterns == 0
                                 ? _("Give what to search for: --code, --text, --regex or TEXT")
                                 : _("Give only one of --code, --text, --regex or TEXT"));
  if (ignore_case && case_sensitive)
    return cpel_cli_usage_error ("search", _("--ignore-case and --case-sensitive exclude each other"));
  if (count_only && tsv)
    return cpel_cli_usage_error ("search", _("--count and --tsv exclude each other"));

  if (code != NULL)
    mode = CPEL_SEARCH_CODE, pattern = code;
  else if (regex != NULL)
    mode = CPEL_SEARCH_REGEX, pattern = regex;
  else
    pattern = text != NULL ? text : argv[2];

  file = cpel_cli_open_stream (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);

  query = cpel_query_new (file, mode, pattern, case_sensitive, &error);
  if (query == NULL)
    return cpel_cli_usage_error ("search", "%s", error->message);

  if (!cpel_file_has_index (file))
    {
      /* in time order already: one pass, each event tested as it comes */
      g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
      g_autoptr(CpelLinePrinter) printer = NULL;
      g_autofree Decision *decisions = g_new (Decision, DECISIONS);
      CpelEvent ev;

      for (guint i = 0; i < DECISIONS; i++)
        decisions[i].match = -1;
      n = 0;
      if (!count_only)
        {
          printer = cpel_line_printer_new (file, tsv);
          cpel_line_printer_header (printer);
        }
      while (cpel_merge_next (merge, &ev, NULL))
        {
          if (decide (query, decisions, &ev))
            {
              n++;
              if (printer != NULL)
                cpel_line_printer_event (printer, &ev);
            }
          if (G_UNLIKELY (!cpel_query_check (query, &error)))
            {
              g_autofree char *message = cpel_cli_escape (error->message);

              fflush (stdout);
              g_printerr ("cpel: %s\n", message);
              return CPEL_EXIT_INVALID;
            }
        }
      if (count_only)
        g_print ("%" G_GUINT64_FORMAT "\n", n);
    }
  else
    {
      result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
      if (result == NULL && !cpel_query_check (query, NULL))
        {
          g_autofree char *message = cpel_cli_escape (error->message);

          g_printerr ("cpel: %s\n", message);
          return CPEL_EXIT_INVALID;
        }
      if (result == NULL)
        return cpel_cli_file_error (argv[1], error);

      n = cpel_search_result_get_n (result);
      if (count_only)
        g_print ("%" G_GUINT64_FORMAT "\n", n);
      else
        {
          g_autoptr(CpelLinePrinter) printer = cpel_line_printer_new (file, tsv);

          cpel_line_printer_header (printer);
          for (guint64 i = 0; i < n; i++)
            {
              const CpelEventRef *ref = cpel_search_result_get (result, i);
              CpelEvent ev;

              cpel_file_get_track_event (file, ref->slot, ref->index, &ev);
              cpel_line_printer_event (printer, &ev);
            }
        }
    }

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
