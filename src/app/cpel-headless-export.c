/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-headless-export.c — `cpelview --export-png`: export without a display */
#include "cpel-headless-export.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cpel-range.h"

int
cpel_export_headless (const char               *file_path,
                      const char               *out_path,
                      const CpelHeadlessExport *options)
{
  int width = options->width, height = options->height;
  const char *from = options->from, *to = options->to;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  CpelExportFormat format = CPEL_EXPORT_PNG;
  CpelRangeLimits limits;
  CpelRange range;
  CpelPalette palette;
  CpelView view;
  CpelLoadOptions load_options = { 0 };

  if (width < 16 || height < 16 || width > 16384 || height > 16384)
    {
      g_printerr (_("Width and height must be between 16 and 16384 pixels\n"));
      return 2;
    }
  if (!cpel_render_export_format_for_path (out_path, &format))
    format = CPEL_EXPORT_PNG;

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

  if (options->dark)
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  cpel_view_init (&view, file, &palette);
  view.color_mode = options->color_mode;
  view.summary = options->summary;

  cpel_range_limits_init (&limits, cpel_file_get_duration (file));
  cpel_range_fit (&range, &limits);
  /* times count from the first event: a negative one is an error too */
  if (from != NULL && (!cpel_time_parse (from, &range.t0) || range.t0 < 0))
    {
      g_printerr (_("Invalid time “%s”\n"), from);
      return 2;
    }
  if (to != NULL && (!cpel_time_parse (to, &range.t1) || range.t1 < 0))
    {
      g_printerr (_("Invalid time “%s”\n"), to);
      return 2;
    }
  if (range.t1 <= range.t0)
    {
      g_printerr (_("The end time must be after the start time\n"));
      return 2;
    }
  cpel_range_clamp (&range, &limits);
  view.t0 = range.t0;
  view.t1 = range.t1;

  if (!cpel_render_export (&view, format, width, height, 1.0, out_path, options->force, &error))
    {
      g_printerr ("%s: %s\n", out_path, error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        g_printerr (_("Use --force to replace it.\n"));
      return 1;
    }
  return 0;
}
