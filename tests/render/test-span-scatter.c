/* SPDX-License-Identifier: Apache-2.0 */
/* test-span-scatter.c — a span name's durations over time on an image
 * surface: points where their begin and duration put them, linear and
 * log, a selection's rectangle and the points outside it faded,
 * percentile lines, light and dark; a rectangle as a filter */
#include "render-test-util.h"

#include "cpel-span-histogram.h"
#include "cpel-span-scatter.h"

#define W 600
#define H 300

/* "io" spans on track 0 (an idle at 0): [1000, 2000) 1 µs, [3000, 3100) 100 ns,
 * [5000, 9000) 4 µs, [10000, 10500) 500 ns. */
static const TestEvent events[] = {
  { 0, 0, CODE_IDLE, 0 },
  { 1000, 0, CODE_SEND, 1 }, { 2000, 0, CODE_RECV, 1 },
  { 3000, 0, CODE_SEND, 1 }, { 3100, 0, CODE_RECV, 1 },
  { 5000, 0, CODE_SEND, 1 }, { 9000, 0, CODE_RECV, 1 },
  { 10000, 0, CODE_SEND, 1 }, { 10500, 0, CODE_RECV, 1 },
};

static const char rules_text[] =
  "span io begin event=send text=1 end event=recv \"text=len 1\"\n";

static CpelSpanList *
make_list (CpelFile **file_out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(CpelSpanFilter) filter = cpel_span_filter_new ("io", 0, G_MAXINT64);
  CpelSpansOptions options = { 0 };
  CpelFile *file = test_file_new (1, events, G_N_ELEMENTS (events));
  CpelSpanList *list;

  g_assert_true (cpel_span_rules_add_text (rules, rules_text, -1, "test", &error));
  g_assert_no_error (error);
  list = cpel_span_list_compute (file, rules, &options, filter, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_list_get_n (list), ==, 4);
  *file_out = file;
  return list;
}

static cairo_surface_t *
draw (const CpelSpanScatterView *view)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  cairo_t *cr = cairo_create (surface);

  cpel_render_span_scatter (cr, W, H, view);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Where the point of a span begun at t lasting d is. */
static void
point (const CpelSpanScatterView *view, gint64 t, gint64 d, int *x, int *y)
{
  *x = (int) floor (cpel_span_scatter_x_of (view, W, H, t));
  *y = (int) floor (cpel_span_scatter_y_of (view, W, H, d));
}

/* The distance to c of the pixel nearest it around (x, y) (a point is
 * two pixels wide, drawn inwards at the plot's edges). */
static double
near_color (cairo_surface_t *s, int x, int y, const CpelRGBA *c)
{
  double best = G_MAXDOUBLE;

  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++)
      best = MIN (best, test_color_distance (s, x + dx, y + dy, c));
  return best;
}

static void
test_points (void)
{
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanList) list = make_list (&file);

  for (guint dark = 0; dark < 2; dark++)
    {
      CpelPalette palette;
      CpelSpanScatterView view = { 0 };
      cairo_surface_t *s;
      double px, py, pw, ph;
      int x, y;

      if (dark)
        cpel_palette_init_dark (&palette);
      else
        cpel_palette_init_light (&palette);
      view.list = list;
      view.max_ns = -1;
      view.p50_ns = view.p90_ns = view.p99_ns = -1;
      view.palette = &palette;
      cpel_span_scatter_fit (&view);
      g_assert_cmpint (view.t0, ==, 1000);
      g_assert_cmpint (view.t1, ==, 10000);
      g_assert_cmpint (view.min_ns, ==, 100);
      g_assert_cmpint (view.max_ns, ==, 4000);
      cpel_span_scatter_plot_rect (W, H, &px, &py, &pw, &ph);
      /* linear: 1 µs of 100 ns..4 µs is 900/3900 of the way up */
      g_assert_cmpfloat (fabs (cpel_span_scatter_y_of (&view, W, H, 1000)
                               - (py + ph - ph * 900.0 / 3900)), <, 1e-6);
      g_assert_cmpint (cpel_span_scatter_duration_at (&view, W, H, py), ==, 4000);
      g_assert_cmpint (cpel_span_scatter_time_at (&view, W, H, px), ==, 1000);

      s = draw (&view);
      /* every point in the accent colour */
      point (&view, 5000, 4000, &x, &y);
      g_assert_cmpfloat (near_color (s, x, y, &palette.accent), <, 0.3);
      point (&view, 1000, 1000, &x, &y);
      g_assert_cmpfloat (near_color (s, x, y, &palette.accent), <, 0.3);
      point (&view, 10000, 500, &x, &y);
      g_assert_cmpfloat (near_color (s, x, y, &palette.accent), <, 0.3);
      /* none where there is no span (4 µs at 2000 ns) */
      point (&view, 2000, 4000, &x, &y);
      g_assert_cmpfloat (test_color_distance (s, x, y + 10, &palette.background), <, 0.02);
      cairo_surface_destroy (s);

      /* a selection of the 4 µs one: it stays, the others fade */
      view.has_selection = TRUE;
      view.sel_from_ns = 4000;
      view.sel_to_ns = 6000;
      view.sel_min_ns = 3000;
      view.sel_max_ns = 4000;
      s = draw (&view);
      point (&view, 5000, 4000, &x, &y);
      g_assert_cmpfloat (near_color (s, x, y, &palette.accent), <, 0.3);
      point (&view, 1000, 1000, &x, &y);
      g_assert_cmpfloat (near_color (s, x, y, &palette.accent), >, 0.3);
      /* faded, still there */
      {
        double most = 0;

        for (int dy = -2; dy <= 2; dy++)
          for (int dx = -2; dx <= 2; dx++)
            most = MAX (most, test_color_distance (s, x + dx, y + dy, &palette.background));
        g_assert_cmpfloat (most, >, 0.05);
      }
      cairo_surface_destroy (s);

      /* a p50 line at 1 µs: dashes across the plot */
      view.has_selection = FALSE;
      view.p50_ns = 1000;
      s = draw (&view);
      {
        guint hits = 0;
        int ly = (int) round (cpel_span_scatter_y_of (&view, W, H, 1000));

        for (int lx = (int) px + 20; lx < (int) (px + pw) - 20; lx++)
          hits += test_color_distance (s, lx, ly, &palette.foreground) < 0.35;
        g_assert_cmpuint (hits, >, 100);
      }
      cairo_surface_destroy (s);
    }
}

static void
test_log (void)
{
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanList) list = make_list (&file);
  CpelSpanScatterView view = { 0 };
  double px, py, pw, ph;

  view.list = list;
  view.max_ns = -1;
  view.log_axis = TRUE;
  view.p50_ns = view.p90_ns = view.p99_ns = -1;
  cpel_span_scatter_fit (&view);
  cpel_span_scatter_plot_rect (W, H, &px, &py, &pw, &ph);
  /* 1 µs is a decade above 100 ns of the 1.6 decades to 4 µs */
  g_assert_cmpfloat (fabs (cpel_span_scatter_y_of (&view, W, H, 1000)
                           - (py + ph - ph * 1.0 / log10 (40))), <, 1e-6);
  g_assert_cmpint (cpel_span_scatter_duration_at (&view, W, H, py + ph), ==, 100);
  g_assert_cmpint (cpel_span_scatter_duration_at (&view, W, H, py), ==, 4000);
  {
    cairo_surface_t *s = draw (&view);
    CpelPalette light;
    int x, y;

    cpel_palette_init_light (&light);
    point (&view, 3000, 100, &x, &y);
    g_assert_cmpfloat (near_color (s, x, y, &light.accent), <, 0.3);
    cairo_surface_destroy (s);
  }
}

/* A rectangle dragged around two points selects exactly those. */
static void
test_selection (void)
{
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanList) list = make_list (&file);
  CpelSpanScatterView view = { 0 };
  g_autoptr(CpelSpanFilter) f = NULL;
  double x0, y0, x1, y1;
  guint n = 0;

  view.list = list;
  view.max_ns = -1;
  cpel_span_scatter_fit (&view);
  /* around the 1 µs at 1000 and the 100 ns at 3000 */
  x0 = cpel_span_scatter_x_of (&view, W, H, 1000) - 3;
  x1 = cpel_span_scatter_x_of (&view, W, H, 3000) + 3;
  y0 = cpel_span_scatter_y_of (&view, W, H, 1000) - 3;
  y1 = cpel_span_scatter_y_of (&view, W, H, 100) + 3;
  f = cpel_span_scatter_selection (&view, "io", W, H, x1, y1, x0, y0);
  g_assert_cmpstr (f->name, ==, "io");
  for (guint64 i = 0; i < cpel_span_list_get_n (list); i++)
    {
      const CpelSpanItem *it = cpel_span_list_get (list, i);
      gboolean in = cpel_span_filter_match_span (f, "io", it->begin_ns, it->end_ns);

      g_assert_true (in == (it->begin_ns == 1000 || it->begin_ns == 3000));
      n += in;
    }
  g_assert_cmpuint (n, ==, 2);
}

/* Spans that all last 1 µs: the axis spans more than them, its bottom and
 * top read differently (not "1 µs" twice), the points are inside it. */
static void
test_alike (void)
{
  static const TestEvent alike[] = {
    { 1000, 0, CODE_SEND, 1 }, { 2000, 0, CODE_RECV, 1 },
    { 5000, 0, CODE_SEND, 1 }, { 6000, 0, CODE_RECV, 1 },
    { 9000, 0, CODE_SEND, 1 }, { 10000, 0, CODE_RECV, 1 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(CpelSpanFilter) filter = cpel_span_filter_new ("io", 0, G_MAXINT64);
  CpelSpansOptions options = { 0 };
  g_autoptr(CpelFile) file = test_file_new (1, alike, G_N_ELEMENTS (alike));
  CpelSpanList *list;
  CpelSpanScatterView view = { 0 };
  g_autofree char *bottom = NULL, *top = NULL;

  g_assert_true (cpel_span_rules_add_text (rules, rules_text, -1, "test", &error));
  list = cpel_span_list_compute (file, rules, &options, filter, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_list_get_n (list), ==, 3);
  view.list = list;
  view.max_ns = -1;
  cpel_span_scatter_fit (&view);
  g_assert_cmpint (view.min_ns, <, 1000);
  g_assert_cmpint (view.max_ns, >, 1000);
  bottom = cpel_span_histogram_format_duration (view.min_ns);
  top = cpel_span_histogram_format_duration (view.max_ns);
  g_assert_cmpstr (bottom, !=, top);
  cpel_span_list_free (list);
}

/* Comparing: B's spans (one of 20 µs begun at 6000 in B's time, B 1000
 * ns ahead of A) on the same axes as A's, in the highlight colour at B's
 * begin less the offset; the axes fitted to both. */
static void
test_compare (void)
{
  static const TestEvent b_events[] = {
    { 0, 0, CODE_IDLE, 0 },
    { 6000, 0, CODE_SEND, 1 }, { 26000, 0, CODE_RECV, 1 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(CpelSpanFilter) filter = cpel_span_filter_new ("io", 0, G_MAXINT64);
  CpelSpansOptions options = { 0 };
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelFile) file_b = test_file_new (1, b_events, G_N_ELEMENTS (b_events));
  CpelSpanList *list = make_list (&file), *list_b;
  CpelSpanScatterView view = { 0 };
  CpelPalette palette;
  cairo_surface_t *s;
  int x, y;

  g_assert_true (cpel_span_rules_add_text (rules, rules_text, -1, "test", &error));
  list_b = cpel_span_list_compute (file_b, rules, &options, filter, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_list_get_n (list_b), ==, 1);
  cpel_palette_init_light (&palette);
  view.list = list;
  view.list_b = list_b;
  view.b_offset = 1000;
  view.max_ns = -1;
  view.p50_ns = view.p90_ns = view.p99_ns = -1;
  view.palette = &palette;
  cpel_span_scatter_fit (&view);
  g_assert_cmpint (view.t0, ==, 1000);
  g_assert_cmpint (view.t1, ==, 10000);
  g_assert_cmpint (view.max_ns, ==, 20000);
  s = draw (&view);
  point (&view, 5000, 20000, &x, &y);
  g_assert_cmpfloat (near_color (s, x, y, &palette.highlight), <, 0.3);
  /* A's stay A's */
  point (&view, 5000, 4000, &x, &y);
  g_assert_cmpfloat (near_color (s, x, y, &palette.accent), <, 0.3);
  cairo_surface_destroy (s);
  cpel_span_list_free (list);
  cpel_span_list_free (list_b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/span-scatter/points", test_points);
  g_test_add_func ("/render/span-scatter/log", test_log);
  g_test_add_func ("/render/span-scatter/selection", test_selection);
  g_test_add_func ("/render/span-scatter/alike", test_alike);
  g_test_add_func ("/render/span-scatter/compare", test_compare);
  return g_test_run ();
}
