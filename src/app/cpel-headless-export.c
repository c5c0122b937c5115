/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-headless-export.c — `cpelview --export-png`: export without a display */
#include "cpel-headless-export.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cpel-loader.h"
#include "cpel-span-settings.h"

int
cpel_export_headless (const char               *file_path,
                      const char               *out_path,
                      const CpelHeadlessExport *options)
{
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  CpelExportOptions export;
  CpelLoadOptions load_options = { 0 };
  g_autoptr(CpelSpanRules) span_rules = NULL;
  gboolean ok;

  /* 0: the default size (cpel_render_export_file) */
  if ((options->width != 0 && (options->width < 16 || options->width > 16384))
      || (options->height != 0 && (options->height < 16 || options->height > 16384)))
    {
      g_printerr (_("Width and height must be between 16 and 16384 pixels\n"));
      return 2;
    }

  cpel_export_options_init (&export);
  if (!cpel_render_export_format_for_path (out_path, &export.format))
    export.format = CPEL_EXPORT_PNG;
  export.width = options->width;
  export.height = options->height;
  export.dark = options->dark;
  export.color_mode = options->color_mode;
  export.summary = options->summary;
  export.overwrite = options->force;
  /* times count from the first event: a negative one is an error too */
  if (options->from != NULL
      && (!cpel_time_parse (options->from, &export.from) || export.from < 0))
    {
      g_printerr (_("Invalid time “%s”\n"), options->from);
      return 2;
    }
  if (options->to != NULL && (!cpel_time_parse (options->to, &export.to) || export.to < 0))
    {
      g_printerr (_("Invalid time “%s”\n"), options->to);
      return 2;
    }
  export.has_from = options->from != NULL;
  export.has_to = options->to != NULL;

  load_options.ticks_per_second = options->clock_rate;
  file = cpel_file_new_for_path (file_path, &load_options, NULL, NULL, NULL, &error);
  if (file == NULL)
    {
      g_autofree char *line = cpel_error_dup_line (error);

      if (g_error_matches (error, CPEL_ERROR, CPEL_ERROR_CLOCK))
        /* TRANSLATORS: after “Event section at offset 8 has a clock rate of 0”;
           --clock-rate is the option's name, keep it */
        g_printerr ("%s: %s; %s\n", file_path, line,
                    _("read it with --clock-rate HZ, e.g. --clock-rate 2.6GHz"));
      else
        g_printerr ("%s: %s\n", file_path, line);
      return 1;
    }

  /* as the viewer shows it: with the built-in spans */
  span_rules = cpel_span_settings_make_rules (NULL, NULL, NULL);
  export.span_rules = span_rules;
  ok = cpel_render_export_file (file, &export, out_path, &error);
  /* the spans kept in the cache for the next open are written in full (a
   * store cut short would leave its temporary file) */
  cpel_spans_wait_stored ();
  if (!ok)
    {
      g_printerr ("%s: %s\n", out_path, error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        g_printerr (_("Use --force to replace it.\n"));
      return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT) ? 2 : 1;
    }
  return 0;
}
