/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-diff.c — `cpel diff`: per event name and per track label
 * differences between two captures */
#include "cpel-cli.h"

#include <string.h>

#include <glib/gi18n.h>

typedef struct
{
  const char *path;
  guint64     clock_rate;
  CpelFile   *file;
  GError     *error;
} Open;

static gpointer
open_run (gpointer data)
{
  Open *o = data;

  o->file = cpel_cli_open_stream (o->path, o->clock_rate, &o->error);
  return NULL;
}

int
cpel_cmd_diff (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  g_autofree char *by = NULL;
  gboolean csv = FALSE, no_builtin = FALSE;
  g_auto(GStrv) rule_files = NULL;
  const GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("Match events by name (events, the default), tracks by label (tracks) or span "
         "durations by span name (spans)"), N_("TABLE") },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv,
      N_("Comma-separated values (RFC 4180)"), NULL },
    { "rules", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rule_files,
      N_("With --by spans: rules from FILE too, for both (doc/spans.md); may be repeated"),
      N_("FILE") },
    { "no-builtin", 0, 0, G_OPTION_ARG_NONE, &no_builtin,
      N_("With --by spans: leave out the built-in rules"), NULL },
    { NULL }
  };
  g_autoptr(CpelSpanRules) rules = NULL;
  g_autoptr(CpelSpanDiff) span_diff = NULL;
  gboolean spans = FALSE;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) a = NULL;
  g_autoptr(CpelFile) b = NULL;
  g_autoptr(CpelDiff) diff = NULL;
  g_autofree char *text = NULL;
  g_autofree char *name_a = NULL;
  g_autofree char *name_b = NULL;
  CpelDiffOptions options = { 0 };
  CpelDiffBy table = CPEL_DIFF_BY_EVENTS;
  Open open_b = { 0 };
  GThread *thread;
  gboolean damaged;

  context = cpel_cli_context_new ("diff", _("A B"),
    _("The differences between two captures: per event name the number of events\n"
      "and the mean interval between consecutive events of the name on a track, in\n"
      "A and in B; per track label the number of events.  Events are matched by\n"
      "name (their codes may differ), tracks by label; biggest changes first.\n"
      "--by spans: per span name the count, mean and p99 of the durations.\n"
      "--from and --to apply to both, each from its own first event."),
    entries, CPEL_CLI_OPTION_CLOCK_RATE | CPEL_CLI_OPTION_RANGE, &common);
  if (!cpel_cli_parse (context, "diff", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 3)
    return cpel_cli_usage_error ("diff", argc < 3 ? _("Give two files, A and B") : _("Too many arguments"));
  if (by != NULL && strcmp (by, "events") != 0 && strcmp (by, "tracks") != 0
      && strcmp (by, "spans") != 0)
    return cpel_cli_usage_error ("diff", _("--by takes “events”, “tracks” or “spans”, "
                                           "not “%s”"), by);
  if (by != NULL && strcmp (by, "tracks") == 0)
    table = CPEL_DIFF_BY_TRACKS;
  spans = by != NULL && strcmp (by, "spans") == 0;
  if (!spans && (rule_files != NULL || no_builtin))
    return cpel_cli_usage_error ("diff", _("--rules and --no-builtin go with --by spans"));
  options.to = G_MAXINT64;
  if (!cpel_cli_parse_range (common.from_text, common.to_text, &options.from, &options.to, &error))
    return cpel_cli_usage_error ("diff", "%s", error->message);
  if (options.to <= options.from)
    return cpel_cli_usage_error ("diff", _("The end of the range must come after its start"));

  if (spans)
    {
      rules = cpel_cli_load_span_rules ("diff", rule_files, no_builtin);
      if (rules == NULL)
        return CPEL_EXIT_INVALID;
    }

  /* the two are opened (and indexed) at the same time */
  open_b.path = argv[2];
  open_b.clock_rate = common.clock_rate;
  thread = g_thread_try_new ("cpel-open", open_run, &open_b, NULL);
  a = cpel_cli_open_stream (argv[1], common.clock_rate, &error);
  if (thread != NULL)
    g_thread_join (thread);
  else
    open_run (&open_b);
  b = g_steal_pointer (&open_b.file);
  if (a == NULL)
    {
      g_clear_error (&open_b.error);
      return cpel_cli_file_error (argv[1], error);
    }
  if (b == NULL)
    {
      cpel_cli_file_error (argv[2], open_b.error);
      g_clear_error (&open_b.error);
      return CPEL_EXIT_INVALID;
    }

  if (spans)
    {
      CpelSpansOptions so = { 0 };

      /* each from its own first event: times are relative to it already */
      so.t0 = options.from;
      so.t1 = options.to;
      span_diff = cpel_span_diff_compute (a, b, rules, &so, NULL, &error);
      if (span_diff == NULL)
        return cpel_cli_file_error (argv[1], error);
    }
  else if ((diff = cpel_diff_compute (a, b, &options, NULL, &error)) == NULL)
    return cpel_cli_file_error (argv[1], error);
  if (csv)
    text = spans ? cpel_span_diff_to_csv (span_diff) : cpel_diff_to_csv (diff, table);
  else
    {
      name_a = g_path_get_basename (argv[1]);
      name_b = g_path_get_basename (argv[2]);
      /* the same name twice says nothing: the paths then */
      if (strcmp (name_a, name_b) == 0)
        {
          g_free (name_a);
          g_free (name_b);
          name_a = g_strdup (argv[1]);
          name_b = g_strdup (argv[2]);
        }
      {
        /* file names for the terminal */
        g_autofree char *shown_a = cpel_cli_escape (name_a);
        g_autofree char *shown_b = cpel_cli_escape (name_b);

        if (spans)
          text = cpel_span_diff_to_text (span_diff, shown_a, shown_b);
        else
          text = cpel_diff_to_text (diff, table, shown_a, shown_b);
      }
    }
  fputs (text, stdout);

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  damaged = cpel_cli_report_damage (a, argv[1]);
  damaged |= cpel_cli_report_damage (b, argv[2]);
  return damaged ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
