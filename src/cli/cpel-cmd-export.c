/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-export.c — `cpel export`: PNG / SVG / PDF of a view, headless */
#include "cpel-cli.h"

#include <glib/gi18n.h>

#include "cpel-render.h"

int
cpel_cmd_export (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  g_autofree char *png = NULL;
  g_autofree char *svg = NULL;
  g_autofree char *pdf = NULL;
  g_autofree char *color_by = NULL;
  int width = CPEL_EXPORT_DEFAULT_WIDTH, height = 0;
  double scale = 1;
  gboolean dark = FALSE, force = FALSE, summary = FALSE, paired = FALSE;
  g_autofree char *clock = NULL;
  g_autofree char *compare = NULL;
  g_auto(GStrv) rule_files = NULL;
  gboolean no_builtin = FALSE, no_spans = FALSE;
  g_autoptr(CpelSpanRules) rules = NULL;
  CpelColorMode color_mode = CPEL_COLOR_BY_CODE;
  const GOptionEntry entries[] = {
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png, N_("Write a PNG image"), N_("OUTPUT") },
    { "svg", 0, 0, G_OPTION_ARG_FILENAME, &svg, N_("Write an SVG image"), N_("OUTPUT") },
    { "pdf", 0, 0, G_OPTION_ARG_FILENAME, &pdf, N_("Write a PDF document"), N_("OUTPUT") },
    { "width", 'W', 0, G_OPTION_ARG_INT, &width,
      N_("Width in logical pixels (default 1920)"), N_("PX") },
    { "height", 'H', 0, G_OPTION_ARG_INT, &height,
      N_("Height in logical pixels (default: room for every track, at most 8192)"), N_("PX") },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale,
      N_("Device pixels per logical pixel for PNG (default 1)"), N_("S") },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, N_("Dark colours"), NULL },
    { "color-by", 0, 0, G_OPTION_ARG_STRING, &color_by,
      N_("Colour the events by MODE: code, track or none (one colour; default code)"), N_("MODE") },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary,
      N_("Summary mode: each row as a histogram of its events, no event labels"), NULL },
    { "clock", 0, 0, G_OPTION_ARG_STRING, &clock,
      N_("The ruler since the first event (first, the default) or on the capture's own clock "
         "(capture)"), N_("first|capture") },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_("Replace OUTPUT if it exists"), NULL },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, &compare,
      N_("Draw FILE and B in two panes under one ruler, both from their first event"), N_("B") },
    { "paired", 0, 0, G_OPTION_ARG_NONE, &paired,
      N_("With --compare: the tracks of the same label next to each other"), NULL },
    { "rules", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rule_files,
      N_("Spans by the rules from FILE too (doc/spans.md); may be repeated"), N_("FILE") },
    { "no-builtin", 0, 0, G_OPTION_ARG_NONE, &no_builtin,
      N_("Leave out the built-in rules (VPP, Snabb, DPDK, Linux scheduling)"), NULL },
    { "no-spans", 0, 0, G_OPTION_ARG_NONE, &no_spans,
      N_("Draw the events only, no spans or thread states"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(CpelFile) file_b = NULL;
  g_autoptr(GArray) rows_b = NULL;
  g_autofree char *name_a = NULL;
  g_autofree char *name_b = NULL;
  CpelExportOptions options;
  CpelExportFormat format;
  const char *output;
  gint64 from = 0, to = -1;
  guint n_outputs;
  gboolean ok;

  context = cpel_cli_context_new ("export", _("FILE"),
                                  _("Render a view of FILE into a PNG, SVG or PDF file, without a display.\n"
                                    "The output is written atomically and never replaces a file unless --force."),
                                  entries, CPEL_CLI_OPTIONS_VIEW, &common);
  if (!cpel_cli_parse (context, "export", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("export", argc < 2 ? _("Missing FILE") : _("Too many arguments"));

  n_outputs = (png != NULL) + (svg != NULL) + (pdf != NULL);
  if (n_outputs != 1)
    return cpel_cli_usage_error ("export", _("Give exactly one of --png, --svg or --pdf"));
  if (png != NULL)
    format = CPEL_EXPORT_PNG, output = png;
  else if (svg != NULL)
    format = CPEL_EXPORT_SVG, output = svg;
  else
    format = CPEL_EXPORT_PDF, output = pdf;

  if (width < 1 || width > 32767 || height < 0 || height > 32767)
    return cpel_cli_usage_error ("export", _("Width and height must be between 1 and 32767"));
  if (!(scale > 0 && scale <= 8))
    return cpel_cli_usage_error ("export", _("The scale must be greater than 0 and at most 8"));
  if (color_by != NULL && !cpel_color_mode_from_string (color_by, &color_mode))
    return cpel_cli_usage_error ("export", _("Unknown colour mode “%s”: use code, track or none"), color_by);
  if (!cpel_cli_parse_range (common.from_text, common.to_text, &from, &to, &error))
    return cpel_cli_usage_error ("export", "%s", error->message);

  if (paired && compare == NULL)
    return cpel_cli_usage_error ("export", _("--paired needs --compare"));
  if (no_spans && (rule_files != NULL || no_builtin))
    return cpel_cli_usage_error ("export", _("--rules and --no-builtin do not go with --no-spans"));
  if (compare != NULL && (rule_files != NULL || no_builtin))
    return cpel_cli_usage_error ("export", _("--rules and --no-builtin do not go with --compare"));
  /* spans and thread states, as the viewer draws them (not in --compare) */
  if (!no_spans && compare == NULL)
    {
      rules = cpel_cli_load_span_rules ("export", rule_files, no_builtin);
      if (rules == NULL)
        return CPEL_EXIT_INVALID;
    }
  if (clock != NULL && !g_str_equal (clock, "first") && !g_str_equal (clock, "capture"))
    return cpel_cli_usage_error ("export", _("--clock takes first or capture, not “%s”"), clock);
  if (g_strcmp0 (clock, "capture") == 0 && compare != NULL)
    return cpel_cli_usage_error ("export", _("--clock capture does not go with --compare"));
  file = cpel_cli_open (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);
  if (compare != NULL)
    {
      file_b = cpel_cli_open (compare, common.clock_rate, &error);
      if (file_b == NULL)
        return cpel_cli_file_error (compare, error);
    }

  if (g_strcmp0 (clock, "capture") == 0
      && cpel_file_get_clock_origin (file, NULL) == CPEL_CLOCK_NONE)
    {
      g_autofree char *name = cpel_cli_escape (argv[1]);

      return cpel_cli_usage_error ("export", _("%s does not say what its clock read: only "
                                               "times since the first event (--clock first)"),
                                   name);
    }
  cpel_export_options_init (&options);
  options.format = format;
  options.width = width;
  options.height = height;
  options.scale = scale;
  options.has_from = common.from_text != NULL;
  options.from = from;
  options.has_to = common.to_text != NULL;
  options.to = to;
  options.dark = dark;
  options.color_mode = color_mode;
  options.summary = summary;
  options.capture_clock = g_strcmp0 (clock, "capture") == 0;
  options.overwrite = force;
  options.span_rules = rules;

  if (common.tracks != NULL)
    {
      rows = cpel_cli_match_tracks (file, common.tracks, &error);
      if (rows == NULL)
        return cpel_cli_usage_error ("export", "%s", error->message);
      options.rows = (const guint *) rows->data;
      options.n_rows = rows->len;
    }

  if (file_b != NULL)
    {
      name_a = g_path_get_basename (argv[1]);
      name_b = g_path_get_basename (compare);
      options.file_b = file_b;
      options.name_a = name_a;
      options.name_b = name_b;
      options.paired = paired;
      if (common.tracks != NULL)
        {
          /* the same filter on B's labels; B may have no such track */
          g_autoptr(GError) none = NULL;

          rows_b = cpel_cli_match_tracks (file_b, common.tracks, &none);
          if (rows_b == NULL)
            rows_b = g_array_new (FALSE, FALSE, sizeof (guint));
          options.n_rows_b = rows_b->len;
          /* (no track of B: a filter that leaves none, never NULL) */
          options.rows_b = rows_b->len > 0 ? (const guint *) rows_b->data : &options.n_rows_b;
        }
    }

  ok = cpel_render_export_file (file, &options, output, &error);
  /* the spans kept in the cache for the next run are written in full (a
   * store cut short would leave its temporary file) */
  cpel_spans_wait_stored ();
  if (!ok)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
        return cpel_cli_usage_error ("export", "%s", error->message);
      /* the name and the message (which may quote it) escaped for the terminal */
      g_autofree char *name = cpel_cli_escape (output);
      g_autofree char *message = cpel_cli_escape (error->message);

      g_printerr ("cpel: %s: %s\n", name, message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        g_printerr (_("Use --force to replace it.\n"));
      return CPEL_EXIT_INVALID;
    }
  if (file_b != NULL)
    return cpel_cli_report_damage (file, argv[1]) | cpel_cli_report_damage (file_b, compare)
           ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
