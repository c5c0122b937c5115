/* SPDX-License-Identifier: Apache-2.0 */
/* png-check.c — checks an exported view for the end-to-end test:
 *
 *   app-png-check FILE.png WMIN-WMAX HMIN-HMAX [--highlight] [--dark]
 *
 * The size must be in the ranges (one number = exact), the image must not
 * be blank (many distinct colours, both light and dark pixels), and with
 * --highlight some pixels must have the hue of the palette's search
 * highlight (thin match ticks are blended with what is under them; the
 * palette keeps that hue for highlights only).
 * Exit 0 when all hold; prints what it found. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpel-render.h"

/* Hue in degrees and saturation of an RGB colour. */
static void
hue_sat (double r, double g, double b, double *hue, double *sat)
{
  double max = MAX (r, MAX (g, b)), min = MIN (r, MIN (g, b)), d = max - min;

  *sat = max > 0 ? d / max : 0;
  if (d == 0)
    *hue = 0;
  else if (max == r)
    *hue = 60 * fmod ((g - b) / d + 6, 6);
  else if (max == g)
    *hue = 60 * ((b - r) / d + 2);
  else
    *hue = 60 * ((r - g) / d + 4);
}

static gboolean
parse_range (const char *s, int *lo, int *hi)
{
  char *end;

  *lo = (int) strtol (s, &end, 10);
  if (*end == '-')
    *hi = (int) strtol (end + 1, &end, 10);
  else
    *hi = *lo;
  return *end == '\0' && *lo > 0 && *hi >= *lo;
}

int
main (int argc, char *argv[])
{
  int wmin, wmax, hmin, hmax, width, height, stride;
  gboolean want_highlight = FALSE, dark = FALSE;
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  guint64 n_highlight = 0, n_light = 0, n_dark = 0;
  CpelPalette palette;
  cairo_surface_t *png;
  double hl_hue, hl_sat;
  const guint8 *data;
  gboolean ok = TRUE;

  if (argc < 4 || !parse_range (argv[2], &wmin, &wmax) || !parse_range (argv[3], &hmin, &hmax))
    {
      fprintf (stderr, "usage: %s FILE WMIN-WMAX HMIN-HMAX [--highlight] [--dark]\n", argv[0]);
      return 2;
    }
  for (int i = 4; i < argc; i++)
    {
      if (strcmp (argv[i], "--highlight") == 0)
        want_highlight = TRUE;
      else if (strcmp (argv[i], "--dark") == 0)
        dark = TRUE;
    }
  if (dark)
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);

  hue_sat (palette.highlight.r, palette.highlight.g, palette.highlight.b, &hl_hue, &hl_sat);

  png = cairo_image_surface_create_from_png (argv[1]);
  if (cairo_surface_status (png) != CAIRO_STATUS_SUCCESS)
    {
      fprintf (stderr, "%s: not a PNG (%s)\n", argv[1], cairo_status_to_string (cairo_surface_status (png)));
      return 1;
    }
  width = cairo_image_surface_get_width (png);
  height = cairo_image_surface_get_height (png);
  stride = cairo_image_surface_get_stride (png);
  data = cairo_image_surface_get_data (png);

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        guint32 px;
        double r, g, b, luma, hue, sat;

        memcpy (&px, data + (gsize) y * stride + (gsize) x * 4, 4);
        g_hash_table_add (colours, GUINT_TO_POINTER (px & 0xffffff));
        r = ((px >> 16) & 0xff) / 255.0;
        g = ((px >> 8) & 0xff) / 255.0;
        b = (px & 0xff) / 255.0;
        luma = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        n_light += luma > 0.7;
        n_dark += luma < 0.3;
        hue_sat (r, g, b, &hue, &sat);
        if (fabs (hue - hl_hue) < 8 && sat > 0.4 && MAX (r, MAX (g, b)) > 0.6)
          n_highlight++;
      }

  printf ("%s: %d x %d, %u colours, %" G_GUINT64_FORMAT " light, %" G_GUINT64_FORMAT
          " dark, %" G_GUINT64_FORMAT " highlight pixels\n",
          argv[1], width, height, g_hash_table_size (colours), n_light, n_dark, n_highlight);

  if (width < wmin || width > wmax || height < hmin || height > hmax)
    {
      fprintf (stderr, "size %d x %d outside %d-%d x %d-%d\n", width, height, wmin, wmax, hmin, hmax);
      ok = FALSE;
    }
  if (g_hash_table_size (colours) < 16 || n_light < 100 || n_dark < 100)
    {
      fprintf (stderr, "the image looks blank\n");
      ok = FALSE;
    }
  if (want_highlight && n_highlight < 50)
    {
      fprintf (stderr, "no search highlight colour in the image\n");
      ok = FALSE;
    }
  cairo_surface_destroy (png);
  return ok ? 0 : 1;
}
