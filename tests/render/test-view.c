/* SPDX-License-Identifier: Apache-2.0 */
/* test-view.c — view geometry, hit testing, counting, the overview summary */
#include "cpel-test-util.h"
#include "render-test-util.h"

static CpelPalette light;

static const TestEvent events[] = {
  { 0, 0, CODE_SEND, 1 },
  { 100, 0, CODE_RECV, 2 },
  { 104, 0, CODE_SEND, 3 },
  { 1000, 1, CODE_IDLE, 0 },
  { 1000, 1, CODE_SEND, 4 },     /* a tie: file order */
  { 1990, 2, CODE_RECV, 5 },
};

static void
test_init (void)
{
  g_autoptr(CpelFile) file = test_file_new (3, events, G_N_ELEMENTS (events));
  CpelView view;

  cpel_view_init (&view, file, &light);
  g_assert_true (view.file == file);
  g_assert_true (view.palette == &light);
  g_assert_cmpint (view.t0, ==, 0);
  g_assert_cmpint (view.t1, ==, 1991);   /* the last event is visible */
  g_assert_null (view.rows);
  g_assert_cmpuint (cpel_view_get_n_rows (&view), ==, 3);
  g_assert_cmpfloat (view.row_height, ==, 24);
  g_assert_cmpfloat (view.label_width, ==, 160);
  g_assert_cmpfloat (view.ruler_height, ==, 28);
  g_assert_false (view.has_selection);
  g_assert_false (view.has_measure);
  g_assert_false (view.has_cursor);
  g_assert_true (view.color_by_type);
  g_assert_cmpint (view.color_mode, ==, CPEL_COLOR_BY_CODE);
  g_assert_false (view.summary);
  g_assert_null (view.overview);
  g_assert_cmpfloat (cpel_view_get_content_height (&view), ==, 72);
}

static void
test_geometry (void)
{
  g_autoptr(CpelFile) file = test_file_new (3, events, G_N_ELEMENTS (events));
  const guint rows[] = { 2, 0, 7 };    /* 7 is no track */
  CpelView view;

  cpel_view_init (&view, file, &light);
  view.t0 = 1000;
  view.t1 = 3000;
  /* 1160 wide: timeline of 1000 px over 2000 ns. */
  g_assert_cmpfloat (cpel_view_time_to_x (&view, 1160, 1000), ==, 160);
  g_assert_cmpfloat (cpel_view_time_to_x (&view, 1160, 2000), ==, 660);
  g_assert_cmpfloat (cpel_view_time_to_x (&view, 1160, 0), ==, -340);
  g_assert_cmpint (cpel_view_x_to_time (&view, 1160, 160), ==, 1000);
  g_assert_cmpint (cpel_view_x_to_time (&view, 1160, 660), ==, 2000);
  g_assert_cmpint (cpel_view_x_to_time (&view, 1160, 660.4), ==, 2000);
  g_assert_cmpint (cpel_view_x_to_time (&view, 1160, 659.9), ==, 1999);
  for (gint64 t = 1000; t < 3000; t += 7)
    g_assert_cmpint (cpel_view_x_to_time (&view, 1160, cpel_view_time_to_x (&view, 1160, t)),
                     ==, t);

  /* Deep in a long capture: nanoseconds survive. */
  view.t0 = G_GINT64_CONSTANT (3600000000000);     /* one hour */
  view.t1 = view.t0 + 100;
  g_assert_cmpint (cpel_view_x_to_time (&view, 1160, 160 + 505), ==, view.t0 + 50);
  g_assert_cmpfloat (cpel_view_time_to_x (&view, 1160, view.t0 + 37), ==, 160 + 370);

  /* Rows. */
  g_assert_cmpint (cpel_view_row_at_y (&view, 0), ==, -1);
  g_assert_cmpint (cpel_view_row_at_y (&view, 27.9), ==, -1);
  g_assert_cmpint (cpel_view_row_at_y (&view, 28), ==, 0);
  g_assert_cmpint (cpel_view_row_at_y (&view, 52), ==, 1);
  g_assert_cmpint (cpel_view_row_at_y (&view, 99), ==, 2);
  g_assert_cmpint (cpel_view_row_at_y (&view, 100), ==, -1);
  view.scroll_y = 30;
  g_assert_cmpint (cpel_view_row_at_y (&view, 28), ==, 1);
  g_assert_cmpfloat (cpel_view_get_row_y (&view, 1), ==, 28 + 24 - 30);
  view.rows = rows;
  view.n_rows = 3;
  g_assert_cmpuint (cpel_view_get_row_slot (&view, 0), ==, 2);
  g_assert_cmpuint (cpel_view_get_row_slot (&view, 1), ==, 0);
  g_assert_cmpuint (cpel_view_get_row_slot (&view, 2), ==, G_MAXUINT);
  g_assert_cmpuint (cpel_view_get_row_slot (&view, 3), ==, G_MAXUINT);
}

static void
test_hit (void)
{
  g_autoptr(CpelFile) file = test_file_new (3, events, G_N_ELEMENTS (events));
  CpelView view;
  guint slot = 99;
  guint64 index = 99;
  guint8 *hidden;
  guint send;
  double y0 = 28 + 12, y1 = 28 + 24 + 12;

  cpel_view_init (&view, file, &light);
  view.t0 = 0;
  view.t1 = 2000;     /* 0.5 px per ns on 1160 */

  /* Exactly on the event at t = 100 (x = 210). */
  g_assert_true (cpel_view_hit_test (&view, 1160, 210, y0, 4, &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 1);
  /* Nearest of t=100 (x=210) and t=104 (x=212). */
  g_assert_true (cpel_view_hit_test (&view, 1160, 211.6, y0, 4, &slot, &index));
  g_assert_cmpuint (index, ==, 2);
  g_assert_true (cpel_view_hit_test (&view, 1160, 210.4, y0, 4, &slot, &index));
  g_assert_cmpuint (index, ==, 1);
  /* Equidistant: the earlier one. */
  g_assert_true (cpel_view_hit_test (&view, 1160, 211, y0, 4, &slot, &index));
  g_assert_cmpuint (index, ==, 1);
  /* Outside the radius. */
  g_assert_false (cpel_view_hit_test (&view, 1160, 230, y0, 4, &slot, &index));
  g_assert_true (cpel_view_hit_test (&view, 1160, 230, y0, 20, &slot, &index));
  g_assert_cmpuint (index, ==, 2);
  /* The row decides the track: nothing on track 1 near x = 210. */
  g_assert_false (cpel_view_hit_test (&view, 1160, 210, y1, 4, &slot, &index));
  /* Track 1, the tie at t = 1000 (x = 660): the first in file order. */
  g_assert_true (cpel_view_hit_test (&view, 1160, 661, y1, 4, &slot, &index));
  g_assert_cmpuint (slot, ==, 1);
  g_assert_cmpuint (index, ==, 0);
  /* Ruler, label column, below the rows. */
  g_assert_false (cpel_view_hit_test (&view, 1160, 210, 10, 4, &slot, &index));
  g_assert_false (cpel_view_hit_test (&view, 1160, 100, y0, 100, &slot, &index));
  g_assert_false (cpel_view_hit_test (&view, 1160, 210, 28 + 72 + 5, 4, &slot, &index));

  /* Hidden types are not hit: hiding send, the tie's other event wins and
   * at t = 104 the recv at t = 100. */
  g_assert_true (cpel_file_lookup_type (file, CODE_SEND, &send));
  hidden = g_new0 (guint8, cpel_file_get_n_types (file));
  hidden[send] = 1;
  view.hidden_types = hidden;
  g_assert_true (cpel_view_hit_test (&view, 1160, 212, y0, 4, &slot, &index));
  g_assert_cmpuint (index, ==, 1);
  g_assert_false (cpel_view_hit_test (&view, 1160, 160, y0, 4, &slot, &index));
  g_assert_true (cpel_view_hit_test (&view, 1160, 660, y1, 4, &slot, &index));
  g_assert_cmpuint (index, ==, 0);
  g_free (hidden);
}

static void
test_count_range (void)
{
  g_autoptr(CpelFile) file = test_file_new (3, events, G_N_ELEMENTS (events));
  const guint rows[] = { 1, 2 };
  CpelView view;

  cpel_view_init (&view, file, &light);
  g_assert_cmpuint (cpel_view_count_range (&view, 0, 1990), ==, 6);
  g_assert_cmpuint (cpel_view_count_range (&view, 0, 1989), ==, 5);
  g_assert_cmpuint (cpel_view_count_range (&view, 100, 104), ==, 2);
  g_assert_cmpuint (cpel_view_count_range (&view, 101, 103), ==, 0);
  g_assert_cmpuint (cpel_view_count_range (&view, 0, G_MAXINT64), ==, 6);
  g_assert_cmpuint (cpel_view_count_range (&view, 5, 4), ==, 0);
  view.rows = rows;
  view.n_rows = 2;
  g_assert_cmpuint (cpel_view_count_range (&view, 0, 1990), ==, 3);
}

/* ---- overview ---------------------------------------------------------- */

/* Track 0 dense (every 3 ns), track 1 sparse, track 2 a single event. */
static void
ov_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->code = CODE_SEND;
  ev->datum = 0;
  if (i < 30000)
    {
      ev->track = 0;
      ev->t = i * 3;
    }
  else if (i < 30100)
    {
      ev->track = 1;
      ev->t = (i - 30000) * 997;
    }
  else
    {
      ev->track = 2;
      ev->t = 99999;
    }
}

static void
test_overview (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (3, 30101, ov_func, NULL);
  guint sizes[] = { 1, 7, 64, 4096 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autoptr(CpelOverview) ov = cpel_overview_new (file, sizes[k], NULL, NULL);
      guint n = cpel_overview_get_n_buckets (ov);
      gint64 span = cpel_overview_get_span (ov);
      guint64 total = 0;

      g_assert_cmpuint (n, ==, sizes[k]);
      g_assert_cmpint (span, ==, 100000);
      /* Each bucket [ceil(b*span/n), ceil((b+1)*span/n)) against a count
       * over every track. */
      for (guint b = 0; b < n; b++)
        {
          gint64 a = (gint64) (((guint64) b * span + n - 1) / n);
          gint64 e = (gint64) (((guint64) (b + 1) * span + n - 1) / n);
          guint64 expect = 0;
          for (guint s = 0; s < 3; s++)
            expect += cpel_file_track_count_range (file, s, a, e);
          g_assert_cmpuint (cpel_overview_get_bucket (ov, b), ==, expect);
          g_assert_cmpfloat (cpel_overview_count_range (ov, a, e), ==, (double) expect);
          total += expect;
        }
      g_assert_cmpuint (total, ==, 30101);
      g_assert_cmpfloat (cpel_overview_count_range (ov, 0, span), ==, 30101);
      g_assert_cmpfloat (cpel_overview_count_range (ov, -5, G_MAXINT64), ==, 30101);
      g_assert_cmpfloat (cpel_overview_count_range (ov, 10, 10), ==, 0);
    }

  /* Interpolated inside a bucket: about proportional. */
  {
    g_autoptr(CpelOverview) ov = cpel_overview_new (file, 10, NULL, NULL);
    double c = cpel_overview_count_range (ov, 0, 45000);    /* track 0 only, mostly */
    g_assert_cmpfloat (c, >, 15000 - 100);
    g_assert_cmpfloat (c, <, 15000 + 100);
  }
  /* Boxed type for the widget's properties. */
  g_assert_true (G_TYPE_IS_BOXED (CPEL_TYPE_OVERVIEW));
}

static void
test_overview_cancel (void)
{
  g_autoptr(CpelFile) file = test_file_new (3, events, G_N_ELEMENTS (events));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CpelOverview *ov;

  g_cancellable_cancel (cancellable);
  /* other than the 4096 buckets the index build counts: a walk over the
   * times, which the cancellable stops */
  ov = cpel_overview_new (file, 100, cancellable, &error);
  g_assert_null (ov);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  /* the 4096 the build counted: nothing to walk, nothing to cancel */
  ov = cpel_overview_new (file, 0, cancellable, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ov);
  g_assert_cmpfloat (cpel_overview_count_range (ov, G_MININT64, G_MAXINT64), ==, G_N_ELEMENTS (events));
  cpel_overview_unref (ov);
}

static void
test_overview_render (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (3, 30101, ov_func, NULL);
  g_autoptr(CpelOverview) ov = cpel_overview_new (file, 0, NULL, NULL);
  CpelView view;
  cairo_surface_t *s, *s2;
  cairo_t *cr;
  double busy, idle;

  cpel_view_init (&view, file, &light);
  view.t0 = 80000;
  view.t1 = 90000;
  view.overview = ov;
  g_assert_cmpfloat (cpel_render_overview_time_to_x (&view, 1000, 50000), ==, 500);
  g_assert_cmpint (cpel_render_overview_x_to_time (&view, 1000, 500), ==, 50000);

  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 40);
  cr = cairo_create (s);
  cpel_render_overview (cr, 1000, 40, &view);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  /* Track 0 covers [0, 90000): bars there (x < 900), only sparse ones after. */
  busy = test_luma (s, 300, 30);
  idle = test_luma (s, 950, 30);
  g_assert_cmpfloat (busy, <, idle - 0.1);
  /* The window [80000, 90000) is outlined in the accent colour. */
  test_assert_color (s, 800, 20, &light.accent);
  test_assert_color (s, 899, 20, &light.accent);

  /* Without a cached summary: the same picture. */
  view.overview = NULL;
  s2 = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 40);
  cr = cairo_create (s2);
  cpel_render_overview (cr, 1000, 40, &view);
  cairo_destroy (cr);
  cairo_surface_flush (s2);
  g_assert_cmpfloat (fabs (test_luma (s2, 300, 30) - busy), <, 0.05);
  cairo_surface_destroy (s);
  cairo_surface_destroy (s2);
}

static cairo_surface_t *
draw_layers (const CpelView *view, int w, int h, CpelOverviewLayer layers)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);

  cpel_render_overview_layers (cr, w, h, view, layers);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* Track 0: an event per ns over [0, 20000) (100 per column of a 1000 px
 * strip); track 1: one per 10 ns over [20000, 100000), alternately send
 * and recv (10 per column). */
static void
scale_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->datum = 0;
  if (i < 20000)
    {
      ev->track = 0;
      ev->t = i;
      ev->code = CODE_SEND;
    }
  else
    {
      ev->track = 1;
      ev->t = 20000 + (i - 20000) * 10;
      ev->code = i % 2 ? CODE_RECV : CODE_SEND;
    }
}

/* Height in pixels of the strip's bar at column x. */
static int
bar_height (cairo_surface_t *s, int x, int h)
{
  double bg = test_luma (s, x, 0);
  int n = 0;

  for (int y = 0; y < h - 1; y++)
    n += test_luma (s, x, y) < bg - 0.05;
  return n;
}

/* The strip's scale shows the difference between busy and quiet stretches
 * (linear up to the 99th percentile), and it follows what the view shows:
 * hidden or filtered-out tracks and hidden event types are left out. */
static void
test_overview_scale_shown (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (2, 28000, scale_func, NULL);
  g_autoptr(CpelOverview) ov = cpel_overview_new (file, 0, NULL, NULL);
  const guint only_track_1[] = { 1 };
  guint8 hidden[3] = { 0, 0, 0 };
  CpelView view;
  cairo_surface_t *s;
  int busy, quiet;

  cpel_view_init (&view, file, &light);
  view.overview = ov;
  s = draw_layers (&view, 1000, 40, CPEL_OVERVIEW_LAYER_BASE);
  busy = bar_height (s, 100, 40);
  quiet = bar_height (s, 600, 40);
  g_test_message ("busy %d px, quiet %d px", busy, quiet);
  g_assert_cmpint (busy, >=, 30);
  g_assert_cmpint (quiet, >=, 1);
  g_assert_cmpint (quiet * 5, <, busy);   /* a tenth of the events: far lower */
  g_assert_cmpuint (cpel_render_overview_shown_hash (&view), ==, 0);
  cairo_surface_destroy (s);

  /* Track 0 filtered out: its stretch is empty, track 1 fills the strip. */
  view.rows = only_track_1;
  view.n_rows = 1;
  g_assert_cmpuint (cpel_render_overview_shown_hash (&view), !=, 0);
  s = draw_layers (&view, 1000, 40, CPEL_OVERVIEW_LAYER_BASE);
  g_assert_cmpint (bar_height (s, 100, 40), ==, 0);
  g_assert_cmpint (bar_height (s, 600, 40), >=, 30);
  cairo_surface_destroy (s);

  /* "send" hidden: track 0's stretch is empty, track 1 keeps half. */
  view.rows = NULL;
  view.n_rows = 0;
  hidden[0] = 1;   /* types in code order: send, recv, idle */
  view.hidden_types = hidden;
  g_assert_cmpuint (cpel_render_overview_shown_hash (&view), !=, 0);
  s = draw_layers (&view, 1000, 40, CPEL_OVERVIEW_LAYER_BASE);
  g_assert_cmpint (bar_height (s, 100, 40), ==, 0);
  g_assert_cmpint (bar_height (s, 600, 40), >=, 30);
  cairo_surface_destroy (s);
}

/* Matches: a burst of 2000 inside one column of the strip, then one per
 * column, then every 7th event of a steady stream, and a sparse track. */
static void
layers_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->datum = 0;
  ev->code = CODE_RECV;
  if (i < 2000)
    {
      ev->track = 0;
      ev->t = 1000 + i / 200;
    }
  else if (i < 2500)
    {
      ev->track = 0;
      ev->t = 2000 + (i - 2000) * 100;
    }
  else if (i < 32500)
    {
      ev->track = 1;
      ev->t = 60000 + (i - 2500) * 3;
      ev->code = i % 7 == 0 ? CODE_RECV : CODE_SEND;
    }
  else
    {
      ev->track = 2;
      ev->t = (i - 32500) * 997;
    }
}


/* The strip widget draws BASE and MATCHES once into images and the rest
 * over them at each frame: the same picture as all layers at once.  And
 * the match ticks sit exactly in the columns that hold matches. */
static void
test_overview_layers (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (3, 32650, layers_func, NULL);
  g_autoptr(CpelOverview) ov = cpel_overview_new (file, 0, NULL, NULL);
  g_autoptr(CpelSearchResult) matches = test_search_code (file, "recv");
  cairo_surface_t *all, *base, *ticks, *composed;
  const int w = 997, h = 40;
  g_autofree gboolean *expected = g_new0 (gboolean, w);
  CpelView view;
  cairo_t *cr;
  gint64 span;

  g_assert_cmpuint (cpel_search_result_get_n (matches), >, 4000);

  cpel_view_init (&view, file, &light);
  view.t0 = 20000;
  view.t1 = 50000;
  view.overview = ov;
  view.matches = matches;
  view.has_cursor = TRUE;
  view.cursor_t = 70000;

  all = draw_layers (&view, w, h, CPEL_OVERVIEW_LAYER_ALL);
  base = draw_layers (&view, w, h, CPEL_OVERVIEW_LAYER_BASE);
  ticks = draw_layers (&view, w, h, CPEL_OVERVIEW_LAYER_MATCHES);
  composed = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (composed);
  cairo_set_source_surface (cr, base, 0, 0);
  cairo_paint (cr);
  cpel_render_overview_layers (cr, w, h, &view, CPEL_OVERVIEW_LAYER_WINDOW);
  cairo_set_source_surface (cr, ticks, 0, 0);
  cairo_paint (cr);
  cpel_render_overview_layers (cr, w, h, &view, CPEL_OVERVIEW_LAYER_TOP);
  cairo_destroy (cr);
  cairo_surface_flush (composed);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double a[3], b[3];

        test_pixel (all, x, y, a);
        test_pixel (composed, x, y, b);
        for (int k = 0; k < 3; k++)
          g_assert_cmpfloat (fabs (a[k] - b[k]), <=, 1.5 / 255);
      }

  /* Columns with matches, by brute force over every match. */
  span = cpel_file_get_duration (file) + 1;
  for (guint64 i = 0; i < cpel_search_result_get_n (matches); i++)
    {
      const CpelEventRef *ref = cpel_search_result_get (matches, i);
      guint64 n;
      const gint64 *times = cpel_file_get_track_times (file, ref->slot, &n);
      gint64 c = (gint64) ((double) times[ref->index] * w / (double) span);

      expected[MIN (c, w - 1)] = TRUE;
    }
  /* The tick of column c covers [c - 1, c + 1): its right pixel is c. */
  for (int x = 0; x < w; x++)
    {
      double rgb[3];
      gboolean has_tick;

      test_pixel (ticks, x, 2, rgb);
      has_tick = cairo_image_surface_get_data (ticks)[2 * cairo_image_surface_get_stride (ticks) + 4 * x + 3] != 0;
      if (expected[x])
        g_assert_true (has_tick);
      else if (x + 1 < w && !expected[x + 1])
        g_assert_false (has_tick);
    }

  cairo_surface_destroy (all);
  cairo_surface_destroy (base);
  cairo_surface_destroy (ticks);
  cairo_surface_destroy (composed);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  cpel_palette_init_light (&light);

  g_test_add_func ("/render/view/init", test_init);
  g_test_add_func ("/render/view/geometry", test_geometry);
  g_test_add_func ("/render/view/hit-test", test_hit);
  g_test_add_func ("/render/view/count-range", test_count_range);
  g_test_add_func ("/render/overview/buckets", test_overview);
  g_test_add_func ("/render/overview/cancel", test_overview_cancel);
  g_test_add_func ("/render/overview/render", test_overview_render);
  g_test_add_func ("/render/overview/layers", test_overview_layers);
  g_test_add_func ("/render/overview/scale-shown", test_overview_scale_shown);
  return g_test_run ();
}
