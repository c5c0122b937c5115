/* SPDX-License-Identifier: Apache-2.0 */
/* test-compare.c — two captures under one ruler, interval histograms */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-render.h"
#include "cpel-test-pair.h"
#include "render-test-util.h"

#define WIDTH  1160.0   /* timeline 1000 px after the 160 px labels */
#define HEIGHT 400.0

static cairo_surface_t *
draw (const CpelCompareView *cv, double width, double height)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (s);

  cpel_render_compare (cr, width, height, cv);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);

  return *(const guint32 *) (data + (gsize) y * stride + (gsize) x * 4);
}

static gboolean
saturated (guint32 p)
{
  int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

  return MAX (MAX (r, g), b) - MIN (MIN (r, g), b) > 40;
}

static guint32
argb_of (const CpelRGBA *c)
{
  return 0xff000000u | ((guint32) lround (c->r * 255) << 16)
         | ((guint32) lround (c->g * 255) << 8) | (guint32) lround (c->b * 255);
}

/* First x in the timeline of row y with a saturated (event) colour, or -1. */
static int
first_event_x (cairo_surface_t *s, int y)
{
  for (int x = 160; x < cairo_image_surface_get_width (s); x++)
    if (saturated (pixel (s, x, y)))
      return x;
  return -1;
}

/* A capture compared with itself: the panes' rows are identical pixel for
 * pixel (the line between the panes and the side marks left out). */
static void
test_self_identical (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (TRUE, NULL);
  CpelPalette palette;
  CpelCompareView cv;
  cairo_surface_t *s;
  double top_a, ph_a, top_b, ph_b;
  int rows;
  guint64 same = 0;

  cpel_palette_init_light (&palette);
  cpel_compare_view_init (&cv, a, a, &palette);
  cv.a.t0 = -100;
  cv.a.t1 = 2100;
  s = draw (&cv, WIDTH, HEIGHT);
  cpel_compare_view_pane (&cv, HEIGHT, CPEL_COMPARE_A, &top_a, &ph_a);
  cpel_compare_view_pane (&cv, HEIGHT, CPEL_COMPARE_B, &top_b, &ph_b);
  g_assert_cmpfloat (ph_a, ==, ph_b);
  g_assert_cmpfloat (top_b, ==, top_a + ph_a);
  rows = (int) (ph_a - cv.header_height) - 1;
  g_assert_cmpint (rows, >=, 3 * (int) cv.a.row_height);
  for (int y = 0; y < rows; y++)
    for (int x = 8; x < (int) WIDTH; x++)
      {
        guint32 pa = pixel (s, x, (int) (top_a + cv.header_height) + y);
        guint32 pb = pixel (s, x, (int) (top_b + cv.header_height) + y);

        if (pa != pb)
          g_error ("pane A and B differ at x %d, row y %d: %08x %08x", x, y, pa, pb);
        same++;
      }
  /* the rows hold events */
  g_assert_cmpint (first_event_x (s, (int) (top_a + cv.header_height + cv.a.row_height / 2)), >, 160);
  /* the headers tell A from B */
  g_assert_cmphex (pixel (s, 8, (int) (top_a + cv.header_height / 2)), ==, argb_of (&palette.accent));
  g_assert_cmphex (pixel (s, 8, (int) (top_b + cv.header_height / 2)), ==, argb_of (&palette.highlight));
  g_assert_cmpuint (same, >, 100000);
  cairo_surface_destroy (s);
}

/* An offset moves B's events against A's: 200 ns at 0.5 px/ns = 100 px. */
static void
test_alignment_moves_b (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  CpelPalette palette;
  CpelCompareView cv;
  cairo_surface_t *s0, *s1;
  double top_a, top_b, ph;
  int ya, yb, xa0, xb0, xa1, xb1;

  cpel_palette_init_light (&palette);
  cpel_compare_view_init (&cv, a, a, &palette);
  cv.a.t0 = -500;
  cv.a.t1 = 1500;
  s0 = draw (&cv, WIDTH, HEIGHT);
  cv.offset_b = 200;
  s1 = draw (&cv, WIDTH, HEIGHT);
  cpel_compare_view_pane (&cv, HEIGHT, CPEL_COMPARE_A, &top_a, &ph);
  cpel_compare_view_pane (&cv, HEIGHT, CPEL_COMPARE_B, &top_b, &ph);
  ya = (int) (top_a + cv.header_height + cv.a.row_height / 2);
  yb = (int) (top_b + cv.header_height + cv.a.row_height / 2);
  xa0 = first_event_x (s0, ya);
  xb0 = first_event_x (s0, yb);
  xa1 = first_event_x (s1, ya);
  xb1 = first_event_x (s1, yb);
  g_assert_cmpint (xa0, ==, 160 + 250);      /* time 0 at 0.5 px/ns from -500 */
  g_assert_cmpint (xb0, ==, xa0);
  g_assert_cmpint (xa1, ==, xa0);            /* A stays */
  g_assert_cmpint (xb1, ==, xa0 - 100);      /* B's 0 is A's -200 */

  /* B's range follows */
  cpel_compare_view_sync (&cv);
  g_assert_cmpint (cv.b.t0, ==, -300);
  g_assert_cmpint (cv.b.t1, ==, 1700);
  g_assert_cmpint (cv.b.ruler_origin, ==, 200);
  cairo_surface_destroy (s0);
  cairo_surface_destroy (s1);
}

/* Paired: rows of one label next to each other, then the unpaired. */
static void
test_paired (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, NULL);
  static const char *want[][2] = { { "A", "wk0" }, { "B", "wk0" }, { "A", "wk1" },
                                   { "B", "wk1" }, { "B", "wk2" } };
  CpelPalette palette;
  CpelCompareView cv;
  g_autoptr(GArray) rows = NULL;
  CpelCompareRow row;
  cairo_surface_t *s;

  cpel_palette_init_light (&palette);
  cpel_compare_view_init (&cv, a, b, &palette);
  cv.paired = TRUE;
  rows = cpel_compare_view_rows (&cv, HEIGHT);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelCompareRow *r = &g_array_index (rows, CpelCompareRow, i);
      CpelFile *f = r->side == CPEL_COMPARE_A ? a : b;

      g_assert_cmpstr (r->side == CPEL_COMPARE_A ? "A" : "B", ==, want[i][0]);
      g_assert_cmpstr (cpel_file_get_track_label (f, r->slot), ==, want[i][1]);
      if (i > 0)
        g_assert_cmpfloat (r->y, ==, g_array_index (rows, CpelCompareRow, i - 1).y + cv.a.row_height);
    }
  g_assert_cmpfloat (cpel_compare_view_get_content_height (&cv, CPEL_COMPARE_A), ==, 5 * cv.a.row_height);

  /* the row under a point: B's wk0 is the second */
  g_assert_true (cpel_compare_view_row_at_y (&cv, HEIGHT, g_array_index (rows, CpelCompareRow, 1).y + 2, &row));
  g_assert_cmpint (row.side, ==, CPEL_COMPARE_B);
  g_assert_cmpstr (cpel_file_get_track_label (b, row.slot), ==, "wk0");
  g_assert_false (cpel_compare_view_row_at_y (&cv, HEIGHT, 5, &row));   /* the ruler */

  /* drawn: each row's mark in its side's colour */
  s = draw (&cv, WIDTH, HEIGHT);
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelCompareRow *r = &g_array_index (rows, CpelCompareRow, i);

      g_assert_cmphex (pixel (s, 1, (int) (r->y + cv.a.row_height / 2)), ==,
                       argb_of (r->side == CPEL_COMPARE_A ? &palette.accent : &palette.highlight));
    }
  cairo_surface_destroy (s);
}

/* The event under a point, in either pane: the one drawn there. */
static void
test_hit (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, NULL);
  CpelPalette palette;
  CpelCompareView cv;
  g_autoptr(GArray) rows = NULL;
  cairo_surface_t *s;
  guint checked = 0;
  CpelCompareSide side;
  guint slot;
  guint64 index;

  cpel_palette_init_light (&palette);
  cpel_compare_view_init (&cv, a, b, &palette);
  cpel_compare_view_sync (&cv);
  rows = cpel_compare_view_rows (&cv, HEIGHT);
  s = draw (&cv, WIDTH, HEIGHT);
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelCompareRow *r = &g_array_index (rows, CpelCompareRow, i);
      const CpelView *v = r->side == CPEL_COMPARE_A ? &cv.a : &cv.b;
      int y = (int) (r->y + cv.a.row_height / 2);
      int x;
      CpelEvent event;

      if (y < 0 || y >= HEIGHT || (x = first_event_x (s, y)) < 0)
        continue;
      g_assert_true (cpel_compare_view_hit_test (&cv, WIDTH, HEIGHT, x, y, CPEL_VIEW_HIT_RADIUS,
                                                 &side, &slot, &index));
      g_assert_cmpint (side, ==, r->side);
      g_assert_cmpuint (slot, ==, r->slot);
      cpel_file_get_track_event (v->file, slot, index, &event);
      g_assert_cmpfloat (fabs (cpel_view_time_to_x (v, WIDTH, event.time_ns) - x), <=, CPEL_VIEW_HIT_RADIUS);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 2);
  /* the ruler, the labels: no event */
  g_assert_false (cpel_compare_view_hit_test (&cv, WIDTH, HEIGHT, 500, 5, CPEL_VIEW_HIT_RADIUS,
                                              &side, &slot, &index));
  g_assert_false (cpel_compare_view_hit_test (&cv, WIDTH, HEIGHT, 10,
                                              g_array_index (rows, CpelCompareRow, 0).y + 2,
                                              CPEL_VIEW_HIT_RADIUS, &side, &slot, &index));
  cairo_surface_destroy (s);
}

/* Export: a PNG with both panes; the ruler reads from the origin. */
static void
test_export (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-compare-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "both.png", NULL);
  CpelPalette palette;
  CpelCompareView cv;
  cairo_surface_t *s;
  double top_b, ph;

  cpel_palette_init_light (&palette);
  cpel_compare_view_init (&cv, a, b, &palette);
  cv.name_a = "a.cpel";
  cv.name_b = "b.cpel";
  cv.a.ruler_origin = 900;       /* A's only-a event reads 0 */
  g_assert_true (cpel_render_compare_export (&cv, CPEL_EXPORT_PNG, 800, 300, 2, path, FALSE, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, 1600);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 600);
  cpel_compare_view_pane (&cv, 300, CPEL_COMPARE_B, &top_b, &ph);
  g_assert_cmphex (pixel (s, 16, (int) (2 * (top_b + cv.header_height / 2))), ==,
                   argb_of (&palette.highlight));
  g_assert_cmphex (pixel (s, 16, (int) (2 * (cv.a.ruler_height + cv.header_height / 2))), ==,
                   argb_of (&palette.accent));
  cairo_surface_destroy (s);
  /* never over an existing file unless asked */
  g_assert_false (cpel_render_compare_export (&cv, CPEL_EXPORT_PNG, 800, 300, 1, path, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_unlink (path);
  g_rmdir (dir);
}

static guint
count_color (cairo_surface_t *s, guint32 argb)
{
  guint n = 0;

  for (int y = 0; y < cairo_image_surface_get_height (s); y++)
    for (int x = 0; x < cairo_image_surface_get_width (s); x++)
      n += pixel (s, x, y) == argb;
  return n;
}

/* Two overlaid distributions: A's bars where A's intervals are, B's where
 * B's are (3 × longer: right of A's on the log axis). */
static void
test_histogram (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, NULL);
  CpelDiffOptions options = { .to = G_MAXINT64, .histograms = TRUE };
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelDiff) diff = cpel_diff_compute (a, b, &options, NULL, &error);
  const CpelDiffRow *row = cpel_diff_lookup (diff, CPEL_DIFF_BY_EVENTS, "slow");
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 240);
  cairo_t *cr = cairo_create (s);
  CpelPalette palette;
  CpelRGBA solid_a, solid_b;
  int xa = -1, xb = -1;

  g_assert_no_error (error);
  cpel_palette_init_light (&palette);
  cpel_render_histogram (cr, 600, 240, &palette, "slow", row->histogram_a, "a.cpel",
                         row->histogram_b, "b.cpel");
  cairo_surface_flush (s);
  /* the outlines are drawn at 0.95: look for the bars' fill instead, at 0.45
   * over white; find the leftmost column of each near the axis */
  solid_a = palette.accent;
  solid_b = palette.highlight;
  for (int x = 0; x < 600 && (xa < 0 || xb < 0); x++)
    {
      guint32 p = pixel (s, x, 200);
      int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, bl = p & 0xff;
      int ra = (int) lround ((solid_a.r * 0.45 + 0.55) * 255), ga = (int) lround ((solid_a.g * 0.45 + 0.55) * 255);
      int rb = (int) lround ((solid_b.r * 0.45 + 0.55) * 255), gb = (int) lround ((solid_b.g * 0.45 + 0.55) * 255);

      if (xa < 0 && ABS (r - ra) <= 2 && ABS (g - ga) <= 2)
        xa = x;
      if (xb < 0 && ABS (r - rb) <= 2 && ABS (g - gb) <= 2 && bl < 200)
        xb = x;
    }
  g_assert_cmpint (xa, >, 0);
  g_assert_cmpint (xb, >, xa);
  cairo_destroy (cr);

  /* nothing to show: a message, no bars */
  cr = cairo_create (s);
  cpel_render_histogram (cr, 600, 240, &palette, NULL, NULL, "a", NULL, "b");
  cairo_surface_flush (s);
  g_assert_cmpuint (count_color (s, argb_of (&palette.background)), >, 600 * 200);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The ruler reads from an origin: negative before it. */
static void
test_ruler_origin (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  CpelPalette palette;
  CpelView view, moved;
  cairo_surface_t *s0 = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1160, 28);
  cairo_surface_t *s1 = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1160, 28);
  cairo_t *cr;
  guint rows = 0;
  guint64 differ = 0;

  cpel_palette_init_light (&palette);
  cpel_view_init (&view, a, &palette);
  view.rows = &rows;
  view.n_rows = 0;
  view.t0 = 0;
  view.t1 = 1000;
  moved = view;
  moved.ruler_origin = 500;
  cr = cairo_create (s0);
  cpel_render_view (cr, 1160, 28, &view);
  cairo_destroy (cr);
  cr = cairo_create (s1);
  cpel_render_view (cr, 1160, 28, &moved);
  cairo_destroy (cr);
  /* the same ticks (every 100 ns, origin a multiple), other labels */
  for (int y = 0; y < 28; y++)
    for (int x = 170; x < 1160; x++)
      differ += pixel (s0, x, y) != pixel (s1, x, y);
  g_assert_cmpuint (differ, >, 0);
  {
    g_autofree char *tick = cpel_render_format_tick (-200, 100, 500);

    g_assert_cmpstr (tick, ==, "-200 ns");
  }
  cairo_surface_destroy (s0);
  cairo_surface_destroy (s1);
}

/* B's selected event ("send: 602") has a neighbour 1.3 µs
 * later ("recv: len 985"), too close for its label in the row; its label
 * is drawn all the same, in its own row (a callout over the neighbour's
 * place, hiding the neighbour's label), not pushed out of the row where
 * the pane's clip drops it and the neighbour's label reads as the
 * selection's.  Nothing outside the selected row changes. */
static void
test_selected_label (void)
{
  /* on every track, one at 10 µs and its neighbour 1.3 µs later */
  static const TestEvent events[] = {
    { 10000, 0, CODE_SEND, 602 },
    { 10000, 1, CODE_SEND, 602 },
    { 10000, 2, CODE_SEND, 602 },
    { 11300, 0, CODE_RECV, 985 },
    { 11300, 1, CODE_RECV, 985 },
    { 11300, 2, CODE_RECV, 985 },
    { 0, 2, CODE_IDLE, 0 },       /* times count from here */
    { 29000, 2, CODE_IDLE, 0 },
  };
  g_autoptr(CpelFile) a = test_file_new (3, events, G_N_ELEMENTS (events));
  g_autoptr(CpelFile) b = test_file_new (3, events, G_N_ELEMENTS (events));
  CpelPalette palette;
  CpelCompareView cv;
  cairo_surface_t *plain;

  cpel_palette_init_light (&palette);
  cpel_compare_view_init (&cv, a, b, &palette);
  cv.a.t0 = 0;
  cv.a.t1 = 30000;    /* 1.3 µs = 43 px */
  plain = draw (&cv, WIDTH, HEIGHT);
  /* the rows at even and odd places of the pane alike */
  for (guint slot = 0; slot < 3; slot++)
    {
      g_autoptr(GArray) rows = NULL;
      const CpelCompareRow *row = NULL;
      cairo_surface_t *selected;
      double x;
      guint64 inside = 0, outside = 0;

      cv.b.has_selection = TRUE;
      cv.b.selected_slot = slot;
      cv.b.selected_index = slot == 2 ? 1 : 0;   /* the send at 10 µs */
      selected = draw (&cv, WIDTH, HEIGHT);
      rows = cpel_compare_view_rows (&cv, HEIGHT);
      for (guint i = 0; i < rows->len; i++)
        {
          const CpelCompareRow *r = &g_array_index (rows, CpelCompareRow, i);

          if (r->side == CPEL_COMPARE_B && r->slot == slot)
            row = r;
        }
      g_assert_nonnull (row);
      x = cpel_view_time_to_x (&cv.a, WIDTH, 10000);
      for (int y = 0; y < (int) HEIGHT; y++)
        for (int px = 160; px < (int) WIDTH; px++)
          {
            gboolean in_row = y >= row->y && y < row->y + cv.a.row_height;

            if (pixel (plain, px, y) == pixel (selected, px, y))
              continue;
            if (!in_row)
              outside++;
            else if (px >= x + 8 && px < x + 40 && y >= row->y + 4
                     && y < row->y + cv.a.row_height - 4
                     && test_color_distance (selected, px, y, &palette.selection) < 0.3)
              inside++;
          }
      /* the label box right of the tick, over the neighbour's place: the
       * selection's fill (text aside) */
      g_assert_cmpuint (inside, >, 32 * 8);
      g_assert_cmpuint (outside, ==, 0);
      cairo_surface_destroy (selected);
    }
  cairo_surface_destroy (plain);
}

/* States drawn in the panes get one legend at the view's lower right (the
 * rows are views of their own, too small for one), naming the states of
 * the rows shown. */
static void
test_states_legend (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (TRUE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(GError) error = NULL;
  static const char text[] = "state Running on event=same\nstate Sleeping on event=slow\n";
  CpelPalette palette;
  CpelCompareView cv;
  CpelRGBA running;
  cairo_surface_t *with, *without;
  guint found[2] = { 0, 0 };

  g_assert_true (cpel_span_rules_add_text (rules, text, -1, "test", &error));
  g_assert_no_error (error);
  spans = cpel_spans_derive (a, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  cpel_palette_init_light (&palette);
  cpel_palette_get_state_color (&palette, "Running", &running);
  cpel_compare_view_init (&cv, a, b, &palette);
  cv.a.t0 = 0;
  cv.a.t1 = 2100;
  without = draw (&cv, WIDTH, HEIGHT);
  cv.a.spans = spans;
  with = draw (&cv, WIDTH, HEIGHT);
  /* Running's swatch in the lower right corner, only with the spans */
  for (int y = (int) HEIGHT - 40; y < (int) HEIGHT; y++)
    for (int x = (int) WIDTH - 300; x < (int) WIDTH; x++)
      {
        found[0] += pixel (without, x, y) == argb_of (&running);
        found[1] += pixel (with, x, y) == argb_of (&running);
      }
  g_assert_cmpuint (found[0], ==, 0);
  g_assert_cmpuint (found[1], >=, 60);   /* a 10 x 10 swatch, its edges blended */
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/compare/self-identical", test_self_identical);
  g_test_add_func ("/render/compare/alignment", test_alignment_moves_b);
  g_test_add_func ("/render/compare/paired", test_paired);
  g_test_add_func ("/render/compare/hit", test_hit);
  g_test_add_func ("/render/compare/export", test_export);
  g_test_add_func ("/render/compare/histogram", test_histogram);
  g_test_add_func ("/render/compare/ruler-origin", test_ruler_origin);
  g_test_add_func ("/render/compare/selected-label", test_selected_label);
  g_test_add_func ("/render/compare/states-legend", test_states_legend);
  return g_test_run ();
}
