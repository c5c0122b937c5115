/* SPDX-License-Identifier: Apache-2.0 */
/* test-span-histogram.c — a span name's duration histogram on an image
 * surface: bars where their bins are and as tall as their counts, a
 * selection tinted, percentile markers, duration labels in the unit that
 * fits */
#include "render-test-util.h"

#include "cpel-span-histogram.h"

#define W 480
#define H 240

/* Four bins of 10 µs from 0: counts 2, 4, 0, 1. */
static const gint64 edges[] = { 0, 10000, 20000, 30000, 40000 };
static const guint64 counts[] = { 2, 4, 0, 1 };
static const guint64 totals[] = { 10000, 60000, 0, 35000 };

static CpelSpanHistogram
test_hist (void)
{
  CpelSpanHistogram h = { "ip4-lookup", 7, 105000, 0, 39999, 4, edges, counts, totals };

  return h;
}

static cairo_surface_t *
draw (const CpelSpanHistogramView *view)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  cairo_t *cr = cairo_create (surface);

  cpel_render_span_histogram (cr, W, H, view);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static void
test_format (void)
{
  const struct { gint64 ns; const char *text; } cases[] = {
    { 0, "0 ns" }, { 250, "250 ns" }, { 999, "999 ns" }, { 1000, "1 µs" },
    { 10000, "10 µs" }, { 12345, "12.3 µs" }, { 1500000, "1.5 ms" },
    { 999999, "1 ms" }, { 2000000000, "2 s" }, { 120000000000, "120 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = cpel_span_histogram_format_duration (cases[i].ns);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_bars (void)
{
  CpelSpanHistogram h = test_hist ();
  CpelPalette palette;
  CpelSpanHistogramView view = { &h, FALSE, -1, -1, -1, 1, 0, &palette };
  cairo_surface_t *surface;
  double px, py, pw, ph, bw;

  cpel_palette_init_light (&palette);
  surface = draw (&view);
  cpel_span_histogram_plot_rect (W, H, &px, &py, &pw, &ph);
  bw = pw / 4;

  /* Bin 1 (4, the top) is a bar from the base to the top of the plot. */
  g_assert_cmpfloat (test_color_distance (surface, (int) (px + 1.5 * bw), (int) (py + 3),
                                          &palette.accent), <, 0.05);
  /* Bin 0 (2): a bar up to half the height, background above it. */
  g_assert_cmpfloat (test_color_distance (surface, (int) (px + 0.5 * bw), (int) (py + ph * 0.75),
                                          &palette.accent), <, 0.05);
  g_assert_cmpfloat (test_color_distance (surface, (int) (px + 0.5 * bw), (int) (py + ph * 0.25),
                                          &palette.background), <, 0.05);
  /* Bin 2 (0): no bar. */
  g_assert_cmpfloat (test_color_distance (surface, (int) (px + 2.5 * bw), (int) (py + ph - 3),
                                          &palette.background), <, 0.05);
  /* Bin 3 (1): a quarter of the height. */
  g_assert_cmpfloat (test_color_distance (surface, (int) (px + 3.5 * bw), (int) (py + ph - 5),
                                          &palette.accent), <, 0.05);
  g_assert_cmpfloat (test_color_distance (surface, (int) (px + 3.5 * bw), (int) (py + ph * 0.6),
                                          &palette.background), <, 0.05);

  /* Labels: something drawn under the plot at the first edge, and left of
   * the count axis' top. */
  {
    gboolean under = FALSE, left = FALSE;

    for (int y = (int) (py + ph + 6); y < H; y++)
      for (int x = (int) px; x < (int) px + 30; x++)
        under |= test_color_distance (surface, x, y, &palette.background) > 0.3;
    for (int y = (int) py - 8; y < (int) py + 8; y++)
      for (int x = 0; x < (int) px - 4; x++)
        left |= test_color_distance (surface, x, y, &palette.background) > 0.3;
    g_assert_true (under);
    g_assert_true (left);
  }
  cairo_surface_destroy (surface);

  /* Hit testing and the axis. */
  g_assert_cmpint (cpel_span_histogram_bin_at (&h, W, H, px + 1.5 * bw), ==, 1);
  g_assert_cmpint (cpel_span_histogram_bin_at (&h, W, H, 0), ==, 0);
  g_assert_cmpint (cpel_span_histogram_bin_at (&h, W, H, W), ==, 3);
  g_assert_cmpfloat_with_epsilon (cpel_span_histogram_x_of (&h, W, H, 15000), px + 1.5 * bw, 1e-6);
}

static void
test_selection_and_markers (void)
{
  CpelSpanHistogram h = test_hist ();
  CpelPalette palette;
  CpelSpanHistogramView view = { &h, FALSE, 15000, -1, 35000, 1, 1, &palette };
  cairo_surface_t *surface;
  double px, py, pw, ph, bw;

  cpel_palette_init_dark (&palette);
  surface = draw (&view);
  cpel_span_histogram_plot_rect (W, H, &px, &py, &pw, &ph);
  bw = pw / 4;
  /* The selected bin's bar in the accent colour, the others faded. */
  g_assert_cmpfloat (test_color_distance (surface, (int) (px + 1.25 * bw), (int) (py + ph - 3),
                                          &palette.accent), <, 0.05);
  g_assert_cmpfloat (test_color_distance (surface, (int) (px + 0.5 * bw), (int) (py + ph - 3),
                                          &palette.accent), >, 0.1);
  /* A marker at p99 (35 µs: the middle of bin 3), over the background
   * above its bar; none where p90 would be. */
  {
    int x = (int) (px + 3.5 * bw);
    gboolean marked = FALSE;

    for (int y = (int) (py + ph * 0.3); y < (int) (py + ph * 0.6); y++)
      marked |= test_color_distance (surface, x, y, &palette.background) > 0.3;
    g_assert_true (marked);
  }
  cairo_surface_destroy (surface);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/span-histogram/format", test_format);
  g_test_add_func ("/render/span-histogram/bars", test_bars);
  g_test_add_func ("/render/span-histogram/selection-markers", test_selection_and_markers);
  return g_test_run ();
}
