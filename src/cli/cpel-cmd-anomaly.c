/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-anomaly.c — `cpel anomaly`: events of a code with an unusual datum
 * or interval */
#include "cpel-cli.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

/* The codes of `codes` as "1, 2, 3". */
static char *
codes_list (GArray *codes)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < codes->len; i++)
    g_string_append_printf (s, i ? ", %u" : "%u", g_array_index (codes, guint32, i));
  return g_string_free (s, FALSE);
}

/* --above: "p99", "P99.9", "99"; FALSE unless 0 < p < 100. */
static gboolean
parse_percentile (const char *text,
                  double     *p)
{
  const char *s = text;
  char *end = NULL;

  if (*s == 'p' || *s == 'P')
    s++;
  if (!g_ascii_isdigit (*s))
    return FALSE;
  *p = g_ascii_strtod (s, &end);
  return end != NULL && *end == '\0' && *p > 0 && *p < 100;
}

/* `cpel anomaly --span NAME`: spans whose duration is unusual for their
 * track and name, each as its begin event's line with the span, its
 * duration and z. */
static int
span_anomalies (CpelCliCommon *common,
                const char    *path,
                const char    *name,
                double         sigma,
                const char    *above_text,
                char         **rule_files,
                gboolean       no_builtin,
                gboolean       tsv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanRules) rules = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanAnomalies) result = NULL;
  g_autoptr(CpelLinePrinter) printer = NULL;
  g_autoptr(GString) suffix = g_string_new (NULL);
  CpelSpanAnomalyMethod method = CPEL_SPAN_ANOMALY_SIGMA;
  double k = sigma;
  guint64 n;

  if (above_text != NULL)
    {
      method = CPEL_SPAN_ANOMALY_ABOVE;
      if (!parse_percentile (above_text, &k))
        return cpel_cli_usage_error ("anomaly", _("--above takes a percentile such as p99 or "
                                                  "p99.9, not “%s”"), above_text);
    }
  rules = cpel_cli_load_span_rules ("anomaly", rule_files, no_builtin);
  if (rules == NULL)
    return CPEL_EXIT_INVALID;
  file = cpel_cli_open (path, common->clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (path, error);
  result = cpel_span_anomalies_find (file, rules, NULL, name, method, k, NULL, &error);
  if (result == NULL)
    return cpel_cli_file_error (path, error);

  printer = cpel_line_printer_new (file, tsv);
  cpel_line_printer_header_extra (printer, "\tspan\tduration_ns\tz");
  n = cpel_span_anomalies_get_n (result);
  for (guint64 i = 0; i < n; i++)
    {
      const CpelSpanAnomaly *a = cpel_span_anomalies_get (result, i);
      char z[G_ASCII_DTOSTR_BUF_SIZE];
      CpelEvent ev;

      cpel_file_get_track_event (file, a->span.slot, a->span.begin, &ev);
      g_ascii_formatd (z, sizeof z, tsv ? "%+.4f" : "%+.2f", a->z);
      g_string_truncate (suffix, 0);
      if (tsv)
        {
          g_string_append_c (suffix, '\t');
          cpel_cli_escape_append (suffix, a->span.name, strlen (a->span.name));
          g_string_append_printf (suffix, "\t%" G_GINT64_FORMAT "\t%s", a->duration_ns, z);
        }
      else
        {
          g_autofree char *shown = cpel_time_format_kind (a->duration_ns,
                                                          cpel_file_get_time_kind (file));
          g_autofree char *span = cpel_cli_escape (a->span.name);

          /* TRANSLATORS: after a span's begin event line: its name, duration and z-score */
          g_string_append_printf (suffix, _("  [span %s, duration %s, z %s]"), span, shown, z);
        }
      cpel_line_printer_event_suffix (printer, &ev, suffix->str);
    }
  g_clear_pointer (&printer, cpel_line_printer_free);

  if (!tsv)
    {
      guint64 n_spans = cpel_span_anomalies_get_n_spans (result);
      g_autofree char *an = cpel_format_count (n);
      g_autofree char *sn = cpel_format_count (n_spans);
      g_autofree char *spans = NULL;

      /* TRANSLATORS: the second half of “2 anomalies among 1,200 spans” */
      spans = g_strdup_printf (ngettext ("%s span", "%s spans", n_spans), sn);
      g_print (ngettext ("%s anomaly among %s\n", "%s anomalies among %s\n", n), an, spans);
    }

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, path) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}

int
cpel_cmd_anomaly (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  g_autofree char *code_text = NULL;
  g_autofree char *metric_text = NULL;
  double sigma = NAN;
  gboolean tsv = FALSE, no_builtin = FALSE;
  g_autofree char *span = NULL;
  g_autofree char *above = NULL;
  g_auto(GStrv) rule_files = NULL;
  const GOptionEntry entries[] = {
    { "code", 0, 0, G_OPTION_ARG_STRING, &code_text,
      N_("The event code (decimal or 0x hex) or event name"), N_("CODE") },
    { "metric", 0, 0, G_OPTION_ARG_STRING, &metric_text,
      N_("What is measured: datum (the default) or interval (since the previous event "
         "of the code on the track)"), N_("METRIC") },
    { "sigma", 0, 0, G_OPTION_ARG_DOUBLE, &sigma,
      N_("Report values more than K standard deviations from their track's mean "
         "(default 2.5)"), N_("K") },
    { "tsv", 't', 0, G_OPTION_ARG_NONE, &tsv,
      N_("Tab-separated values: the columns of dump --tsv, then value and z"), NULL },
    { "span", 0, 0, G_OPTION_ARG_STRING, &span,
      N_("Spans of the name NAME whose duration is unusual for their track, instead of "
         "events of a code (doc/spans.md)"), N_("NAME") },
    { "above", 0, 0, G_OPTION_ARG_STRING, &above,
      N_("With --span: spans longer than the percentile P of their track (e.g. p99), "
         "instead of --sigma"), N_("P") },
    { "rules", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rule_files,
      N_("With --span: rules from FILE too (doc/spans.md); may be repeated"), N_("FILE") },
    { "no-builtin", 0, 0, G_OPTION_ARG_NONE, &no_builtin,
      N_("With --span: leave out the built-in rules"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GArray) codes = NULL;
  g_autoptr(CpelAnomalyResult) result = NULL;
  g_autoptr(CpelLinePrinter) printer = NULL;
  g_autoptr(GString) suffix = g_string_new (NULL);
  CpelAnomalyMetric metric = CPEL_ANOMALY_DATUM;
  guint64 n;

  context = cpel_cli_context_new ("anomaly", _("FILE"),
                                  _("Print the events of one code whose datum (or interval since the previous\n"
                                    "event of the code on the same track) lies more than K standard deviations\n"
                                    "from the mean of its track, in time order, as dump does, followed by the\n"
                                    "value and its z-score."),
                                  entries, CPEL_CLI_OPTIONS_FILE, &common);
  if (!cpel_cli_parse (context, "anomaly", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("anomaly", argc < 2 ? _("Missing FILE") : _("Too many arguments"));
  if (!isnan (sigma) && !(isfinite (sigma) && sigma > 0 && sigma <= 1e6))
    return cpel_cli_usage_error ("anomaly", _("--sigma must be a number greater than 0"));
  if (isnan (sigma))
    sigma = CPEL_ANOMALY_DEFAULT_K;
  else if (above != NULL)
    return cpel_cli_usage_error ("anomaly", _("Give --sigma or --above, not both"));
  if (span != NULL && (code_text != NULL || metric_text != NULL))
    return cpel_cli_usage_error ("anomaly", _("--span goes without --code and --metric"));
  if (span == NULL && (above != NULL || rule_files != NULL || no_builtin))
    return cpel_cli_usage_error ("anomaly", _("--above, --rules and --no-builtin go with --span"));
  if (span != NULL)
    return span_anomalies (&common, argv[1], span, sigma, above, rule_files, no_builtin, tsv);
  if (code_text == NULL)
    return cpel_cli_usage_error ("anomaly", _("Give the event code with --code"));
  if (metric_text != NULL && strcmp (metric_text, "interval") == 0)
    metric = CPEL_ANOMALY_INTERVAL;
  else if (metric_text != NULL && strcmp (metric_text, "datum") != 0)
    return cpel_cli_usage_error ("anomaly", _("--metric takes “datum” or “interval”, not “%s”"),
                                 metric_text);
  file = cpel_cli_open (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);

  codes = cpel_cli_resolve_codes (file, code_text, &error);
  if (codes == NULL)
    return cpel_cli_usage_error ("anomaly", "%s", error->message);
  if (codes->len > 1)
    {
      g_autofree char *list = codes_list (codes);

      return cpel_cli_usage_error ("anomaly", _("“%s” names several event codes (%s): give one number"),
                                   code_text, list);
    }

  result = cpel_anomaly_find (file, g_array_index (codes, guint32, 0), metric, sigma, NULL, &error);
  if (result == NULL && g_error_matches (error, CPEL_ERROR, CPEL_ERROR_INVALID))
    return cpel_cli_usage_error ("anomaly", "%s", error->message);   /* a text datum */
  if (result == NULL)
    return cpel_cli_file_error (argv[1], error);

  printer = cpel_line_printer_new (file, tsv);
  cpel_line_printer_header_extra (printer, "\tvalue\tz");
  n = cpel_anomaly_result_get_n (result);
  for (guint64 i = 0; i < n; i++)
    {
      const CpelAnomaly *a = cpel_anomaly_result_get (result, i);
      char value[G_ASCII_DTOSTR_BUF_SIZE];
      char z[G_ASCII_DTOSTR_BUF_SIZE];
      CpelEvent ev;

      cpel_file_get_track_event (file, a->ref.slot, a->ref.index, &ev);
      /* values are whole numbers: a 32-bit datum or an interval in ns */
      g_ascii_formatd (value, sizeof value, "%.0f", a->value);
      g_ascii_formatd (z, sizeof z, tsv ? "%+.4f" : "%+.2f", a->z);
      g_string_truncate (suffix, 0);
      if (tsv)
        g_string_append_printf (suffix, "\t%s\t%s", value, z);
      else
        {
          g_autofree char *shown = metric == CPEL_ANOMALY_INTERVAL
                                   ? cpel_time_format_kind ((gint64) a->value,
                                                            cpel_file_get_time_kind (file))
                                   : g_strdup (value);

          /* TRANSLATORS: after an event line: its value (datum or interval) and z-score */
          g_string_append_printf (suffix, _("  [value %s, z %s]"), shown, z);
        }
      cpel_line_printer_event_suffix (printer, &ev, suffix->str);
    }
  g_clear_pointer (&printer, cpel_line_printer_free);

  /* The human format ends with what was looked at, so that finding nothing
   * says so (--tsv stays the header and the rows only). */
  if (!tsv)
    {
      guint32 code = g_array_index (codes, guint32, 0);
      guint64 n_code = 0;
      g_autofree char *an = cpel_format_count (n);
      g_autofree char *en = NULL;
      g_autofree char *events = NULL;

      for (guint t = 0; t < cpel_file_get_n_types (file); t++)
        if (cpel_file_get_type_code (file, t) == code)
          n_code += cpel_file_get_type_n_events (file, t);
      en = cpel_format_count (n_code);
      /* TRANSLATORS: the second half of “2 anomalies among 1,200 events” */
      events = g_strdup_printf (ngettext ("%s event", "%s events", n_code), en);
      /* TRANSLATORS: the last line of `cpel anomaly`: “2 anomalies among 1,200 events”
       * (the events of the code looked at) */
      g_print (ngettext ("%s anomaly among %s\n", "%s anomalies among %s\n", n), an, events);
    }

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
