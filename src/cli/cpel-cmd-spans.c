/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-spans.c — `cpel spans`, `cpel states` and `cpel rules check` */
#include "cpel-cli.h"

#include <string.h>

#include <glib/gi18n.h>

typedef struct
{
  gboolean  hist, log, list, tsv;
  char     *bins_text;
  char     *span;
  char     *min_text;
  char     *top_text;
  char     *filter_text;
  guint     bins;
  guint64   top;
  CpelSpanFilter *filter;
} Latency;

static void
latency_clear (Latency *l)
{
  g_free (l->bins_text);
  g_free (l->span);
  g_free (l->min_text);
  g_free (l->top_text);
  g_free (l->filter_text);
  g_clear_pointer (&l->filter, cpel_span_filter_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Latency, latency_clear)

/* The options of --hist and --list checked and parsed; a usage error's
 * status, or -1. */
static int
latency_check (Latency    *l,
               gboolean    csv,
               const char *by)
{
  g_autoptr(GError) error = NULL;

  if (l->hist && l->list)
    return cpel_cli_usage_error ("spans", _("Give --hist or --list, not both"));
  if (!l->hist && (l->bins_text != NULL || l->log))
    return cpel_cli_usage_error ("spans", _("--bins and --log go with --hist"));
  if (!l->list && (l->min_text != NULL || l->top_text != NULL || l->tsv
                   || l->filter_text != NULL))
    return cpel_cli_usage_error ("spans", _("--min, --top, --tsv and --filter go with --list"));
  if (!l->hist && !l->list && l->span != NULL)
    return cpel_cli_usage_error ("spans", _("--span goes with --hist or --list"));
  if ((l->hist || l->list) && by != NULL)
    return cpel_cli_usage_error ("spans", _("--by goes without --hist and --list"));
  if (l->list && csv)
    return cpel_cli_usage_error ("spans", _("--list prints --tsv, not --csv"));
  l->bins = 20;
  if (l->bins_text != NULL)
    {
      guint64 n = 0;

      if (!cpel_cli_parse_count (l->bins_text, &n) || n < 1 || n > CPEL_SPAN_HIST_MAX_BINS)
        return cpel_cli_usage_error ("spans", _("--bins takes a number from 1 to %u, not “%s”"),
                                     CPEL_SPAN_HIST_MAX_BINS, l->bins_text);
      l->bins = (guint) n;
    }
  if (!l->list)
    return -1;
  if (l->top_text != NULL && (!cpel_cli_parse_count (l->top_text, &l->top) || l->top == 0))
    return cpel_cli_usage_error ("spans", _("--top takes a number greater than 0, not “%s”"),
                                 l->top_text);
  if (l->filter_text != NULL)
    {
      l->filter = cpel_span_filter_parse (l->filter_text, NULL, &error);
      if (l->filter == NULL)
        return cpel_cli_usage_error ("spans", "--filter: %s", error->message);
    }
  else
    l->filter = cpel_span_filter_parse ("", NULL, NULL);
  if (l->min_text != NULL)
    {
      gint64 min = 0;

      if (!cpel_span_duration_parse (l->min_text, &min))
        return cpel_cli_usage_error ("spans", _("--min takes a duration such as 250ns, 5us, "
                                                "1ms or 2s, not “%s”"), l->min_text);
      l->filter->min_ns = MAX (l->filter->min_ns, min);
    }
  if (l->span != NULL)
    {
      if (l->filter->name != NULL)
        return cpel_cli_usage_error ("spans", _("Give the span name with --span or in "
                                                "--filter, not both"));
      g_autoptr(CpelSpanFilter) named = cpel_span_filter_new (l->span, 0, G_MAXINT64);

      l->filter->name = g_steal_pointer (&named->name);
    }
  return -1;
}

/* A CPU's track, as the perf and CTF importers label them: `CPU n`, or
 * `TRACE CPU n` with several CTF traces. */
static gboolean
is_cpu_track (const char *label)
{
  const char *p = strrchr (label, ' ');

  if (p == NULL || p[1] == '\0' || strspn (p + 1, "0123456789") != strlen (p + 1))
    return FALSE;
  return p - label >= 3 && memcmp (p - 3, "CPU", 3) == 0 && (p - label == 3 || p[-4] == ' ');
}

static int
run (const char *command,
     int         argc,
     char      **argv)
{
  gboolean states = strcmp (command, "states") == 0;
  g_auto(CpelCliCommon) common = { 0 };
  g_autofree char *by = NULL;
  g_auto(GStrv) rule_files = NULL;
  gboolean csv = FALSE, no_builtin = FALSE, unfinished = FALSE;
  g_auto(Latency) lat = { 0 };
  const GOptionEntry span_entries[] = {
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv,
      N_("Comma-separated values (RFC 4180)"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("The table to print: spans (per span name, the default) or tracks"), N_("TABLE") },
    { "rules", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rule_files,
      N_("Rules from FILE too (doc/spans.md); may be repeated"), N_("FILE") },
    { "no-builtin", 0, 0, G_OPTION_ARG_NONE, &no_builtin,
      N_("Leave out the built-in rules (VPP, Snabb, DPDK)"), NULL },
    { "unfinished", 0, 0, G_OPTION_ARG_NONE, &unfinished,
      N_("Count orphans too, with their durations to the range's edges"), NULL },
    { "hist", 0, 0, G_OPTION_ARG_NONE, &lat.hist,
      N_("Histograms of the durations per span name: span,bin_lo_ns,bin_hi_ns,count"), NULL },
    { "bins", 0, 0, G_OPTION_ARG_STRING, &lat.bins_text,
      N_("With --hist: at most N bins per span name (default 20)"), N_("N") },
    { "log", 0, 0, G_OPTION_ARG_NONE, &lat.log,
      N_("With --hist: bins of equal ratio (a log axis) instead of equal width"), NULL },
    { "span", 0, 0, G_OPTION_ARG_STRING, &lat.span,
      N_("With --hist or --list: the span name NAME only"), N_("NAME") },
    { "list", 0, 0, G_OPTION_ARG_NONE, &lat.list,
      N_("One span per line: begin_ns end_ns duration_ns track span"), NULL },
    { "min", 0, 0, G_OPTION_ARG_STRING, &lat.min_text,
      N_("With --list: spans of at least D (250ns, 5us, 1ms, 2s)"), N_("D") },
    { "top", 0, 0, G_OPTION_ARG_STRING, &lat.top_text,
      N_("With --list: the N longest, longest first"), N_("N") },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &lat.filter_text,
      N_("With --list: a span name (glob) and duration conditions, e.g. "
         "'ip4-lookup dur>5us'"), N_("EXPR") },
    { "tsv", 't', 0, G_OPTION_ARG_NONE, &lat.tsv,
      N_("With --list: tab-separated values with a header line"), NULL },
    { NULL }
  };
  const GOptionEntry state_entries[] = {
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv,
      N_("Comma-separated values (RFC 4180)"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("The tracks: threads (every track but the CPUs', the default) or cpus "
         "(the threads each CPU ran)"), N_("TRACKS") },
    { "rules", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rule_files,
      N_("Rules from FILE too (doc/spans.md); may be repeated"), N_("FILE") },
    { "no-builtin", 0, 0, G_OPTION_ARG_NONE, &no_builtin,
      N_("Leave out the built-in rules"), NULL },
    { "unfinished", 0, 0, G_OPTION_ARG_NONE, &unfinished,
      N_("Count each track's last state too, up to the range's end"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GArray) slots = NULL;
  g_autoptr(CpelSpanRules) rules = NULL;
  g_autoptr(CpelSpanSummary) summary = NULL;
  g_autofree char *text = NULL;
  CpelSpansOptions options = { 0 };
  CpelSpanTable table = states ? CPEL_SPAN_TABLE_STATES : CPEL_SPAN_TABLE_SPANS;

  if (states)
    context = cpel_cli_context_new ("states", _("FILE"),
                                    _("Per track and state: how often and how long the track was in\n"
                                      "it, from the state rules (an event sets its track's state until\n"
                                      "the next state event on that track)."),
                                    state_entries, CPEL_CLI_OPTIONS_VIEW, &common);
  else
    context = cpel_cli_context_new ("spans", _("FILE"),
                                    _("Durations: spans from begin and end events by rules (built-in\n"
                                      "for VPP, Snabb and DPDK; more with --rules), per span name or per\n"
                                      "track and span: count, total, min, percentiles, max, mean, orphans.\n"
                                      "--hist: their histograms; --list: the spans themselves."),
                                    span_entries, CPEL_CLI_OPTIONS_VIEW, &common);
  if (!cpel_cli_parse (context, command, &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error (command, argc < 2 ? _("Missing FILE") : _("Too many arguments"));
  if (states && by != NULL && strcmp (by, "threads") != 0 && strcmp (by, "cpus") != 0)
    return cpel_cli_usage_error (command, _("--by takes “threads” or “cpus”, not “%s”"), by);
  if (!states && by != NULL && strcmp (by, "spans") != 0 && strcmp (by, "tracks") != 0)
    return cpel_cli_usage_error (command, _("--by takes “spans” or “tracks”, not “%s”"), by);
  if (by != NULL && strcmp (by, "tracks") == 0)
    table = CPEL_SPAN_TABLE_TRACKS;
  if (!states)
    {
      int bad = latency_check (&lat, csv, by);

      if (bad >= 0)
        return bad;
      if ((lat.hist || lat.list) && unfinished)
        return cpel_cli_usage_error (command, _("--unfinished goes without --hist and --list"));
    }
  if (by != NULL && strcmp (by, "cpus") == 0)
    table = CPEL_SPAN_TABLE_CPUS;
  options.t1 = G_MAXINT64;
  if (!cpel_cli_parse_range (common.from_text, common.to_text, &options.t0, &options.t1, &error))
    return cpel_cli_usage_error (command, "%s", error->message);
  if (options.t1 <= options.t0)
    return cpel_cli_usage_error (command, _("The end of the range must come after its start"));

  rules = cpel_cli_load_span_rules (command, rule_files, no_builtin);
  if (rules == NULL)
    return CPEL_EXIT_INVALID;

  file = cpel_cli_open_stream (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);
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
        return cpel_cli_usage_error (command, "%s", error->message);
      options.slots = (const guint *) slots->data;
      options.n_slots = slots->len;
    }
  if (states)
    {
      /* threads: every track but the CPUs'; cpus: the CPUs' */
      GArray *chosen = g_array_new (FALSE, FALSE, sizeof (guint));
      guint n = slots != NULL ? slots->len : cpel_file_get_n_tracks (file);

      for (guint k = 0; k < n; k++)
        {
          guint slot = slots != NULL ? g_array_index (slots, guint, k) : k;

          if (is_cpu_track (cpel_file_get_track_label (file, slot))
              == (table == CPEL_SPAN_TABLE_CPUS))
            g_array_append_val (chosen, slot);
        }
      g_clear_pointer (&slots, g_array_unref);
      slots = chosen;
      options.slots = (const guint *) slots->data;
      options.n_slots = slots->len;
      if (slots->len == 0)
        {
          /* no such track: the table's header only */
          cpel_span_rules_unref (rules);
          rules = cpel_span_rules_new ();
          options.slots = NULL;
        }
    }

  if (lat.hist)
    {
      g_autoptr(CpelSpanHistograms) hists = NULL;

      hists = cpel_span_histograms_compute (file, rules, &options, lat.span, lat.bins,
                                            lat.log ? CPEL_SPAN_HIST_LOG : CPEL_SPAN_HIST_LINEAR,
                                            NULL, &error);
      if (hists == NULL)
        return cpel_cli_file_error (argv[1], error);
      text = csv ? cpel_span_histograms_to_csv (hists) : cpel_span_histograms_to_text (hists);
    }
  else if (lat.list)
    {
      g_autoptr(CpelSpanList) list = NULL;

      list = cpel_span_list_compute (file, rules, &options, lat.filter, lat.top, NULL, &error);
      if (list == NULL)
        return cpel_cli_file_error (argv[1], error);
      text = cpel_span_list_to_text (list, lat.tsv);
    }
  else if ((summary = cpel_span_summary_compute (file, rules, &options, unfinished, NULL,
                                                 &error)) == NULL)
    return cpel_cli_file_error (argv[1], error);
  else if (csv)
    text = cpel_span_summary_to_csv (summary, table);
  else
    text = cpel_span_summary_to_text (summary, table);
  fputs (text, stdout);

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}

int
cpel_cmd_spans (int argc, char **argv)
{
  return run ("spans", argc, argv);
}

int
cpel_cmd_states (int argc, char **argv)
{
  return run ("states", argc, argv);
}

int
cpel_cmd_rules (int argc, char **argv)
{
  gboolean builtin = FALSE;
  const GOptionEntry entries[] = {
    { "builtin", 0, 0, G_OPTION_ARG_NONE, &builtin,
      N_("Print the built-in rules (no FILE needed)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  context = cpel_cli_context_new ("rules", _("check FILE"),
                                  _("Reads a span rules file (doc/spans.md) and prints its rules in\n"
                                    "their normal form, or its errors with line and column."),
                                  entries, 0, NULL);
  if (!cpel_cli_parse (context, "rules", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc < 2 || strcmp (argv[1], "check") != 0)
    return cpel_cli_usage_error ("rules", argc < 2 ? _("Missing “check”")
                                                   : _("Unknown subcommand “%s”"), argv[1]);
  if (builtin ? argc != 2 : argc != 3)
    return cpel_cli_usage_error ("rules", builtin || argc > 3 ? _("Too many arguments")
                                                              : _("Missing FILE"));
  if (builtin)
    {
      g_autoptr(CpelSpanRules) b = cpel_span_rules_new_builtin ();

      text = cpel_span_rules_to_text (b);
    }
  else
    {
      g_autofree char *contents = NULL;
      g_autofree char *display = g_filename_display_name (argv[2]);
      g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
      gsize len = 0;

      if (!g_file_get_contents (argv[2], &contents, &len, &error))
        {
          g_printerr ("cpel rules: %s\n", error->message);
          return CPEL_EXIT_INVALID;
        }
      if (len > CPEL_SPAN_RULES_FILE_MAX)
        {
          g_printerr ("cpel rules: ");
          g_printerr (_("%s: a rules file has at most %u bytes"), display,
                      CPEL_SPAN_RULES_FILE_MAX);
          g_printerr ("\n");
          return CPEL_EXIT_INVALID;
        }
      /* every line's error, not only the first */
      if (!cpel_span_rules_check_text (rules, contents, (gssize) len, display, errors))
        {
          for (guint i = 0; i < errors->len; i++)
            g_printerr ("cpel rules: %s\n", (const char *) g_ptr_array_index (errors, i));
          return CPEL_EXIT_INVALID;
        }
      text = cpel_span_rules_to_text (rules);
    }
  fputs (text, stdout);
  return cpel_cli_flush_stdout () ? CPEL_EXIT_OK : CPEL_EXIT_INVALID;
}
