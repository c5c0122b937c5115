/* SPDX-License-Identifier: Apache-2.0 */
/* render-shots.c — PNGs of a capture at full, mid and deep zoom, light and
 * dark, with the overview strip on top (as in the window), for looking at.
 *
 *   render-shots FILE OUTDIR [QUERY]
 */
#include <stdio.h>
#include <stdlib.h>

#include "cpel-loader.h"
#include "cpel-render.h"

#define WIDTH 1400
#define HEIGHT 640
#define OVERVIEW_H 44

static void
shot (CpelView *view, const char *dir, const char *name)
{
  g_autofree char *path = g_strdup_printf ("%s/%s.png", dir, name);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (s);
  gint64 start = g_get_monotonic_time ();

  cpel_render_overview (cr, WIDTH, OVERVIEW_H, view);
  cairo_translate (cr, 0, OVERVIEW_H);
  cpel_render_view (cr, WIDTH, HEIGHT - OVERVIEW_H, view);
  printf ("%s: %.1f ms\n", path, (g_get_monotonic_time () - start) / 1000.0);
  cairo_destroy (cr);
  cairo_surface_write_to_png (s, path);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelOverview) ov = NULL;
  g_autoptr(CpelSearchResult) matches = NULL;
  CpelPalette palettes[2];
  const char *names[2] = { "light", "dark" };
  gint64 dur, mid;
  guint busiest = 0;

  if (argc < 3)
    {
      fprintf (stderr, "usage: render-shots FILE OUTDIR [QUERY]\n");
      return 2;
    }
  file = cpel_file_new_for_path (argv[1], NULL, NULL, NULL, NULL, &error);
  if (file == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  {
    gint64 start = g_get_monotonic_time ();
    ov = cpel_overview_new (file, 0, NULL, NULL);
    printf ("overview of %" G_GUINT64_FORMAT " events, %u tracks: %.1f ms\n",
            cpel_file_get_n_events (file), cpel_file_get_n_tracks (file),
            (g_get_monotonic_time () - start) / 1000.0);
  }
  if (argc > 3)
    {
      g_autoptr(CpelQuery) q = cpel_query_new (file, CPEL_SEARCH_TEXT, argv[3], FALSE, &error);
      if (q == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      matches = cpel_search_run (file, q, NULL, NULL, NULL, NULL);
    }
  cpel_palette_init_light (&palettes[0]);
  cpel_palette_init_dark (&palettes[1]);
  dur = cpel_file_get_duration (file);
  mid = dur / 2;
  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    if (cpel_file_get_track_n_events (file, s) > cpel_file_get_track_n_events (file, busiest))
      busiest = s;

  for (int p = 0; p < 2; p++)
    {
      CpelView view;
      g_autofree char *full = g_strdup_printf ("full-%s", names[p]);
      g_autofree char *midz = g_strdup_printf ("mid-%s", names[p]);
      g_autofree char *deep = g_strdup_printf ("deep-%s", names[p]);
      guint64 n, i;
      const gint64 *times;

      cpel_view_init (&view, file, &palettes[p]);
      view.overview = ov;
      view.matches = matches;
      shot (&view, argv[2], full);

      /* Mid: 1/40 of the capture around the middle, with a measurement. */
      view.t0 = mid - dur / 80;
      view.t1 = mid + dur / 80;
      view.has_measure = TRUE;
      view.measure_t0 = mid - dur / 400;
      view.measure_t1 = mid + dur / 400;
      shot (&view, argv[2], midz);

      /* Deep: about 12 events of the busiest track, one selected. */
      times = cpel_file_get_track_times (file, busiest, &n);
      i = cpel_file_track_lower_bound (file, busiest, mid);
      if (i + 12 >= n)
        i = n > 13 ? n - 13 : 0;
      view.has_measure = FALSE;
      view.t0 = times[i];
      view.t1 = times[MIN (i + 12, n - 1)] + 1;
      if (view.t1 - view.t0 < 100)
        view.t1 = view.t0 + 100;
      view.t0 -= (view.t1 - view.t0) / 20;
      view.has_selection = TRUE;
      view.selected_slot = busiest;
      view.selected_index = i + 3;
      view.has_cursor = TRUE;
      view.cursor_t = times[MIN (i + 6, n - 1)] + 1;
      shot (&view, argv[2], deep);
    }
  return 0;
}
