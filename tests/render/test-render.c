/* SPDX-License-Identifier: Apache-2.0 */
/* test-render.c — drawing a view on image surfaces: event positions,
 * density, labels, ruler, selection, highlights, measurement, cursor,
 * colour modes and summary mode */
#include "cpel-loader.h"
#include "cpel-test-util.h"
#include "render-test-util.h"

#define W 1160   /* label column 160 + timeline 1000 */
#define H 120

static CpelPalette light;
static CpelPalette dark;

static void
view_for (CpelView *view, CpelFile *file, gint64 t0, gint64 t1)
{
  cpel_view_init (view, file, &light);
  view->t0 = t0;
  view->t1 = t1;
  view->color_by_type = FALSE;
}

/* ---- events zoomed in -------------------------------------------------- */

static const TestEvent two_tracks[] = {
  { 0, 0, CODE_SEND, 1 },
  { 1000, 1, CODE_RECV, 5 },
  { 1500, 0, CODE_IDLE, 0 },
  { 1990, 1, CODE_SEND, 2 },
};

static void
test_event_position (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, two_tracks, G_N_ELEMENTS (two_tracks));
  CpelView view;
  cairo_surface_t *s;
  double y1;

  /* 0.5 px per ns: t = 1000 on track 1 is at x = 160 + 500. */
  view_for (&view, file, 0, 2000);
  s = test_render (&view, W, H);
  y1 = view.ruler_height + view.row_height + 5;       /* inside row 1's tick */
  test_assert_color (s, 660, (int) y1, &light.event);
  test_assert_color (s, 660, (int) y1 + 12, &light.event);
  test_assert_not_color (s, 658, (int) y1, &light.event);
  /* Row 0 has nothing at x = 660. */
  test_assert_not_color (s, 660, (int) (view.ruler_height + 5), &light.event);
  /* t = 1500 on track 0: x = 910, row 0. */
  test_assert_color (s, 910, (int) (view.ruler_height + 5), &light.event);
  /* The row's edges are not painted by the tick (inset). */
  test_assert_not_color (s, 660, (int) (view.ruler_height + view.row_height + 1), &light.event);
  cairo_surface_destroy (s);

  /* Per-type colours: the tick takes its type's colour. */
  view.color_by_type = TRUE;
  s = test_render (&view, W, H);
  {
    CpelRGBA c;
    cpel_palette_get_type_color (&light, file, CODE_RECV, &c);
    test_assert_color (s, 660, (int) y1, &c);
  }
  cairo_surface_destroy (s);

  /* Dark palette: same place, dark colours. */
  view.palette = &dark;
  view.color_by_type = FALSE;
  s = test_render (&view, W, H);
  test_assert_color (s, 660, (int) y1, &dark.event);
  test_assert_color (s, 1100, (int) (view.ruler_height + 5), &dark.background);
  cairo_surface_destroy (s);

  /* Panned so that the event leaves the window: nothing at its old place,
   * and it is drawn where the new mapping puts it. */
  view.palette = &light;
  view.t0 = 800;
  view.t1 = 1800;    /* 1 px per ns: t = 1000 at x = 360 */
  s = test_render (&view, W, H);
  test_assert_color (s, 360, (int) y1, &light.event);
  test_assert_not_color (s, 660, (int) y1, &light.event);
  cairo_surface_destroy (s);
}

static void
test_event_scrolled_rows (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, two_tracks, G_N_ELEMENTS (two_tracks));
  const guint rows[] = { 1, 0 };
  CpelView view;
  cairo_surface_t *s;

  /* Rows reordered (track 1 first) and scrolled by 10 px. */
  view_for (&view, file, 0, 2000);
  view.rows = rows;
  view.n_rows = 2;
  view.scroll_y = 10;
  s = test_render (&view, W, H);
  /* Track 1 is row 0: y in [28 - 10, 52 - 10), clipped under the ruler;
   * its tick shows from y = 28 to 39. */
  test_assert_color (s, 660, 35, &light.event);
  /* Track 0 is row 1: y in [42, 66); its t = 1500 tick at x = 910. */
  test_assert_color (s, 910, 50, &light.event);
  /* The ruler is drawn over the scrolled row. */
  test_assert_not_color (s, 660, 20, &light.event);
  cairo_surface_destroy (s);
}

/* ---- density zoomed out ----------------------------------------------- */

/* Track 0: 10 events in [0,100), 1000 in [5000,5100), 100 in [9000,9100). */
static void
density_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->track = 0;
  ev->code = CODE_SEND;
  ev->datum = (guint32) i;
  if (i < 10)
    ev->t = i * 10;
  else if (i < 1010)
    ev->t = 5000 + (i - 10) / 10;
  else
    ev->t = 9000 + (i - 1010);
}

static void
test_density (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 1110, density_func, NULL);
  CpelView view;
  cairo_surface_t *s;
  int y;
  double l_empty, l_10, l_100, l_1000;

  /* Timeline 100 px over [0, 10000): 100 ns per column. */
  view_for (&view, file, 0, 10000);
  s = test_render (&view, 260, 60);
  y = (int) (view.ruler_height + view.row_height / 2);
  l_empty = test_luma (s, 160 + 30, y);
  l_10 = test_luma (s, 160 + 0, y);
  l_1000 = test_luma (s, 160 + 50, y);
  l_100 = test_luma (s, 160 + 90, y);
  g_assert_cmpfloat (l_1000, <, l_100 - 0.03);
  g_assert_cmpfloat (l_100, <, l_10 - 0.03);
  g_assert_cmpfloat (l_10, <, l_empty - 0.03);
  /* Columns next to the busy ones stay empty: no smear. */
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 49, y) - l_empty), <, 0.01);
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 51, y) - l_empty), <, 0.01);
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 91, y) - l_empty), <, 0.01);
  /* No labels in a density row: nothing dark right of the busy column. */
  for (int x = 160 + 52; x < 160 + 89; x++)
    g_assert_cmpfloat (fabs (test_luma (s, x, y) - l_empty), <, 0.01);
  cairo_surface_destroy (s);

  /* At HiDPI scale 2 the same view has 200 device columns: still dark at
   * the busy column, empty next to it. */
  {
    cairo_surface_t *hs = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 520, 120);
    cairo_t *cr;
    cairo_surface_set_device_scale (hs, 2, 2);
    cr = cairo_create (hs);
    cpel_render_view (cr, 260, 60, &view);
    cairo_destroy (cr);
    cairo_surface_flush (hs);
    g_assert_cmpfloat (test_luma (hs, 2 * (160 + 50), 2 * y), <, test_luma (hs, 2 * (160 + 90), 2 * y) - 0.03);
    g_assert_cmpfloat (fabs (test_luma (hs, 2 * (160 + 30), 2 * y) - l_empty), <, 0.01);
    cairo_surface_destroy (hs);
  }
}

/* A sparse track with a burst: t = 0 and 1000, a burst of 40 events 100 ns
 * apart from 20000, t = 50000, then a pair 100 ns apart at 80000. */
static void
burst_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->track = 0;
  ev->code = CODE_SEND;
  ev->datum = (guint32) i;
  if (i <= 1)
    ev->t = i * 1000;
  else if (i <= 41)
    ev->t = 20000 + (i - 2) * 100;
  else if (i == 42)
    ev->t = 50000;
  else
    ev->t = 80000 + (i - 43) * 100;
}

static void
test_density_bursts (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 45, burst_func, NULL);
  CpelView view;
  cairo_surface_t *s;
  int y;
  double l_empty;

  /* Timeline 1000 px over [0, 100000): 100 ns per column; 45 events on
   * 1000 columns is a tick row. */
  view_for (&view, file, 0, 100000);
  s = test_render (&view, W, 60);
  y = (int) (view.ruler_height + view.row_height / 2);
  l_empty = test_luma (s, 160 + 310, y);
  /* Lone events and the pair are ticks. */
  test_assert_color (s, 160 + 10, y, &light.event);
  test_assert_color (s, 160 + 500, y, &light.event);
  test_assert_color (s, 160 + 800, y, &light.event);
  test_assert_color (s, 160 + 801, y, &light.event);
  /* The burst (columns 200..239) is shaded, not a block of ticks. */
  for (int x = 160 + 200; x < 160 + 240; x++)
    {
      test_assert_not_color (s, x, y, &light.event);
      g_assert_cmpfloat (test_luma (s, x, y), <, l_empty - 0.03);
    }
  /* No label after the burst's last event: nothing darker than the grid
   * lines up to the next event. */
  for (int x = 160 + 241; x < 160 + 490; x++)
    for (int dy = -4; dy <= 4; dy++)
      g_assert_cmpfloat (test_luma (s, x, y + dy), >, l_empty - 0.1);
  /* The lone event before it has its label in the room up to the burst. */
  {
    gboolean dark_text = FALSE;
    for (int x = 160 + 14; x < 160 + 190 && !dark_text; x++)
      for (int dy = -4; dy <= 4 && !dark_text; dy++)
        dark_text = test_luma (s, x, y + dy) < l_empty - 0.3;
    g_assert_true (dark_text);
  }
  cairo_surface_destroy (s);

  /* Zoomed in on the burst: 10 ns per column, its events 10 px apart,
   * ticks again. */
  view.t0 = 19000;
  view.t1 = 29000;
  s = test_render (&view, W, 60);
  test_assert_color (s, 160 + 100, y, &light.event);
  test_assert_color (s, 160 + 110, y, &light.event);
  cairo_surface_destroy (s);
}

static void hidden_func (guint64 i, TestEvent *ev, gpointer data);

/* The density of one zoom level is reused between frames: changing the
 * hidden types, the range or the file must not show stale counts. */
static void
test_density_cache (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 1110, density_func, NULL);
  g_autoptr(CpelFile) other = test_file_new_func (1, 151, hidden_func, NULL);
  g_autofree guint8 *hidden = NULL;
  guint send;
  CpelView view;
  cairo_surface_t *s;
  int y;
  double empty, busy;

  view_for (&view, file, 0, 10000);
  y = (int) (view.ruler_height + view.row_height / 2);
  s = test_render (&view, 260, 60);
  empty = test_luma (s, 160 + 30, y);
  busy = test_luma (s, 160 + 50, y);
  g_assert_cmpfloat (busy, <, empty - 0.1);
  cairo_surface_destroy (s);

  /* Same level again (cached): same picture. */
  s = test_render (&view, 260, 60);
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 50, y) - busy), <, 0.001);
  cairo_surface_destroy (s);

  /* Every event is a send: hiding sends empties the row. */
  g_assert_true (cpel_file_lookup_type (file, CODE_SEND, &send));
  hidden = g_new0 (guint8, cpel_file_get_n_types (file));
  hidden[send] = 1;
  view.hidden_types = hidden;
  s = test_render (&view, 260, 60);
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 50, y) - empty), <, 0.01);
  cairo_surface_destroy (s);
  hidden[send] = 0;
  s = test_render (&view, 260, 60);
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 50, y) - busy), <, 0.001);
  cairo_surface_destroy (s);

  /* Another range: the busy burst moves to column 0, the old place (away
   * from the ruler grid line at 10000 ns = column 50) is empty. */
  view.t0 = 5000;
  view.t1 = 15000;
  s = test_render (&view, 260, 60);
  g_assert_cmpfloat (test_luma (s, 160 + 0, y), <, empty - 0.1);
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 45, y) - empty), <, 0.01);
  /* [9000, 9100) is column 40 now (empty at the previous level). */
  g_assert_cmpfloat (test_luma (s, 160 + 40, y), <, empty - 0.1);
  cairo_surface_destroy (s);

  /* Another file at the first level: its own counts (nothing at column 50,
   * sends at column 10). */
  view_for (&view, other, 0, 10000);
  s = test_render (&view, 260, 60);
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 50, y) - empty), <, 0.01);
  g_assert_cmpfloat (test_luma (s, 160 + 10, y), <, empty - 0.1);
  cairo_surface_destroy (s);
}

/* Column 10: 50 sends; column 20: 50 recvs; column 30: sends and recvs
 * alternating (50 in all); an idle at 0 anchors the times. */
static void
hidden_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->track = 0;
  ev->datum = 0;
  if (i == 150)
    {
      ev->t = 0;
      ev->code = CODE_IDLE;
    }
  else if (i < 50)
    {
      ev->t = 1000 + i;
      ev->code = CODE_SEND;
    }
  else if (i < 100)
    {
      ev->t = 2000 + (i - 50);
      ev->code = CODE_RECV;
    }
  else
    {
      ev->t = 3000 + (i - 100);
      ev->code = (i % 2) ? CODE_RECV : CODE_SEND;
    }
}

static void
test_density_hidden_types (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 151, hidden_func, NULL);
  guint recv_type;
  g_autofree guint8 *hidden = NULL;
  CpelView view;
  cairo_surface_t *s;
  int y;
  double empty;

  g_assert_true (cpel_file_lookup_type (file, CODE_RECV, &recv_type));
  hidden = g_new0 (guint8, cpel_file_get_n_types (file));
  hidden[recv_type] = 1;

  /* 100 columns over [0, 10000): 150 events, drawn as density. */
  view_for (&view, file, 0, 10000);
  view.hidden_types = hidden;
  s = test_render (&view, 260, 60);
  y = (int) (view.ruler_height + view.row_height / 2);
  empty = test_luma (s, 160 + 50, y);
  /* Only hidden events: empty. */
  g_assert_cmpfloat (fabs (test_luma (s, 160 + 20, y) - empty), <, 0.01);
  /* Half hidden (estimated from samples): lighter than all visible, but drawn. */
  g_assert_cmpfloat (test_luma (s, 160 + 10, y), <, test_luma (s, 160 + 30, y) - 0.02);
  g_assert_cmpfloat (test_luma (s, 160 + 30, y), <, empty - 0.03);
  cairo_surface_destroy (s);

  /* Zoomed in on column 20 (event mode): no tick of a hidden type. */
  view.t0 = 1990;
  view.t1 = 2060;
  view.color_by_type = FALSE;
  s = test_render (&view, 1160, 60);
  for (int x = 161; x < 1160; x++)
    test_assert_not_color (s, x, (int) (view.ruler_height + 5), &light.event);
  cairo_surface_destroy (s);
}

/* ---- labels ----------------------------------------------------------- */

/* Track 0: three events 400 px apart; track 1: 25 events 8 px apart. */
static void
labels_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->code = CODE_RECV;
  ev->datum = 1234;
  if (i < 3)
    {
      ev->track = 0;
      ev->t = i * 800;
    }
  else
    {
      ev->track = 1;
      ev->t = (i - 3) * 16;
    }
}

static gboolean
has_dark_pixel (cairo_surface_t *s, int x0, int x1, int y0, int y1, double below)
{
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      if (test_luma (s, x, y) < below)
        return TRUE;
  return FALSE;
}

static void
test_labels_fit (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (2, 28, labels_func, NULL);
  CpelView view;
  cairo_surface_t *s;
  int r0, r1;

  view_for (&view, file, 0, 2000);      /* 0.5 px per ns */
  s = test_render (&view, W, H);
  r0 = (int) view.ruler_height;
  r1 = (int) (view.ruler_height + view.row_height);
  /* Track 0: "recv: len 1234" right of the ticks at x = 160, 560, 960. */
  g_assert_true (has_dark_pixel (s, 565, 620, r0 + 4, r0 + 20, 0.5));
  g_assert_true (has_dark_pixel (s, 965, 1020, r0 + 4, r0 + 20, 0.5));
  /* Track 1: ticks 8 px apart leave no room: between two ticks nothing
   * but the row background (and the faint ruler grid): no box border, no
   * text. */
  for (int k = 1; k < 20; k++)
    {
      int x = 160 + 8 * k;
      double bg = test_luma (s, x + 4, r1 + 1);
      for (int dx = 2; dx < 7; dx++)
        for (int y = r1 + 2; y < r1 + 22; y++)
          g_assert_cmpfloat (test_luma (s, x + dx, y), >, bg - 0.08);
    }
  /* And past the last of them (x = 160 + 8 * 24 = 352), room again: its
   * label is drawn. */
  g_assert_true (has_dark_pixel (s, 357, 420, r1 + 4, r1 + 20, 0.5));
  cairo_surface_destroy (s);

  /* 36 px before the right edge (t = 1600 at x = 1124 over [0, 1660)):
   * too little room for a label, none drawn to be cut by the edge. */
  view.t1 = 1660;
  s = test_render (&view, W, H);
  g_assert_true (has_dark_pixel (s, 647, 700, r0 + 4, r0 + 20, 0.5));   /* t = 800 */
  g_assert_false (has_dark_pixel (s, 1128, W, r0 + 4, r0 + 20, 0.5));
  cairo_surface_destroy (s);

  /* The same with the next event closer than the label: no label. */
  view.t0 = 0;
  view.t1 = 40000;   /* 0.025 px/ns: track 0 events 20 px apart */
  s = test_render (&view, W, H);
  g_assert_false (has_dark_pixel (s, 163, 179, r0 + 4, r0 + 20, 0.5));
  g_assert_false (has_dark_pixel (s, 183, 199, r0 + 4, r0 + 20, 0.5));
  cairo_surface_destroy (s);
}

/* Two events 70 px apart: the first label is cut with an ellipsis and its
 * box ends before the second tick. */
static const TestEvent close_pair[] = {
  { 0, 0, CODE_RECV, 1234567 },
  { 140, 0, CODE_RECV, 7 },
};

static void
test_labels_ellipsized (void)
{
  g_autoptr(CpelFile) file = test_file_new (1, close_pair, G_N_ELEMENTS (close_pair));
  CpelView view;
  cairo_surface_t *s;
  int r0;
  double bg;

  view_for (&view, file, 0, 2000);      /* 0.5 px per ns: ticks at 160 and 230 */
  s = test_render (&view, W, 60);
  r0 = (int) view.ruler_height;
  bg = test_luma (s, 700, r0 + 12);
  /* Some text in the first box... */
  g_assert_true (has_dark_pixel (s, 166, 200, r0 + 4, r0 + 20, 0.5));
  /* ...which ends before the second tick: the column just left of it is
   * the row background from top to bottom. */
  for (int y = r0 + 1; y < r0 + 23; y++)
    g_assert_cmpfloat (fabs (test_luma (s, 229, y) - bg), <, 0.02);
  /* The second label is whole ("recv: len 7"), right of x = 230. */
  g_assert_true (has_dark_pixel (s, 236, 290, r0 + 4, r0 + 20, 0.5));
  cairo_surface_destroy (s);
}

/* ---- ruler ------------------------------------------------------------ */

static gboolean
is_nice (gint64 s)
{
  while (s % 10 == 0)
    s /= 10;
  return s == 1 || s == 2 || s == 5;
}

/* The nice step before s (0 for 1). */
static gint64
prev_nice (gint64 s)
{
  gint64 m = s, p = 1;
  while (m % 10 == 0)
    {
      m /= 10;
      p *= 10;
    }
  if (m == 1)
    return p / 2;
  if (m == 2)
    return p;
  return 2 * p;
}

static void
test_ruler_step (void)
{
  g_assert_cmpint (cpel_render_ruler_step (0, 1000000, 1000, 50), ==, 50000);
  g_assert_cmpint (cpel_render_ruler_step (0, 1000000000, 1000, 80), ==, 100000000);
  g_assert_cmpint (cpel_render_ruler_step (0, 1000000000, 1000, 101), ==, 200000000);
  g_assert_cmpint (cpel_render_ruler_step (0, 7, 1000, 50), ==, 1);
  g_assert_cmpint (cpel_render_ruler_step (5, 5, 1000, 50), ==, 1);
  g_assert_cmpint (cpel_render_ruler_step (0, G_MAXINT64, 100, 50), ==,
                   5 * G_GINT64_CONSTANT (1000000000000000000));
  /* Offsets do not matter, only the span. */
  g_assert_cmpint (cpel_render_ruler_step (123456789, 123456789 + 3000, 600, 60), ==, 500);

  /* The smallest nice step that keeps ticks min_px apart. */
  for (guint i = 0; i < 2000; i++)
    {
      gint64 span = g_test_rand_int_range (1, G_MAXINT32) * (gint64) g_test_rand_int_range (1, 1000);
      double px = g_test_rand_double_range (50, 4000);
      double min_px = g_test_rand_double_range (20, 200);
      gint64 s = cpel_render_ruler_step (1000, 1000 + span, px, min_px);

      g_assert_true (is_nice (s));
      g_assert_cmpfloat ((double) s * px / (double) span, >=, min_px * (1 - 1e-9));
      /* The next smaller nice step would be too dense. */
      if (prev_nice (s) > 0)
        g_assert_cmpfloat ((double) prev_nice (s) * px / (double) span, <, min_px);
    }
}

static void
assert_tick (gint64 t, gint64 step, gint64 t_max, const char *expected)
{
  g_autofree char *s = cpel_render_format_tick (t, step, t_max);
  g_assert_cmpstr (s, ==, expected);
}

static void
test_ruler_format (void)
{
  assert_tick (0, 100, 900, "0 ns");
  assert_tick (500, 100, 900, "500 ns");
  assert_tick (2500, 500, 5000, "2.5 µs");
  assert_tick (3000, 1000, 5000, "3 µs");
  assert_tick (1500000, 500000, 10000000, "1.5 ms");
  assert_tick (-1500000, 500000, 10000000, "-1.5 ms");
  assert_tick (20000000, 10000000, 900000000, "20 ms");
  assert_tick (12345600000, 100000, 20000000000, "12.3456 s");
  assert_tick (2000000000, 1000000000, 5000000000, "2 s");
  assert_tick (1000000120, 10, 2000000000, "1.000\u2009000\u200912 s");
  assert_tick (0, 1000000, 2000000000, "0 s");
  /* Between steps (the status line's range): rounded, half up. */
  assert_tick (2888808194, 1000000, 2900000000, "2.889 s");
  assert_tick (2888408194, 1000000, 2900000000, "2.888 s");
  assert_tick (2888500000, 1000000, 2900000000, "2.889 s");
  assert_tick (-2888808194, 1000000, 2900000000, "-2.889 s");
  assert_tick (50329600, 10000, 50329600, "50.33 ms");
  assert_tick (999999999, 1000000, 999999999, "1000 ms");
  assert_tick (1234, 1, 2000, "1.234 µs");
}

static void
test_ruler_drawn (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, two_tracks, G_N_ELEMENTS (two_tracks));
  CpelView view;
  cairo_surface_t *s;
  int labels_seen = 0;

  /* 1 µs over 1000 px: ticks and labels in the ruler, left of each label a
   * tick; nothing of the ruler below it. */
  view_for (&view, file, 0, 1000);
  s = test_render (&view, W, H);
  for (int x = 160; x < W; x += 100)
    if (has_dark_pixel (s, x + 3, x + 40, 2, (int) view.ruler_height - 4, 0.6))
      labels_seen++;
  g_assert_cmpint (labels_seen, >=, 5);
  /* The ruler's background is its own colour. */
  test_assert_color (s, 1150, 2, &light.ruler_bg);
  cairo_surface_destroy (s);
}

/* A Snabb timeline without engine.got_monotonic_time
 * events has TSC ticks for times: the ruler labels them ticks, never µs;
 * read with a clock rate given, the same times read as ns again. */
static void
test_ruler_ticks (void)
{
  g_autofree char *path = cpel_test_fixture_file ("snabb-timeline/ring64-wrapped.timeline");
  CpelLoadOptions rate = { .ticks_per_second = 1000000000 };
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) ticks = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(CpelFile) ns = NULL;
  g_autofree char *span_ticks = NULL;
  g_autofree char *span_ns = NULL;
  CpelView vt, vn;
  cairo_surface_t *st, *sn;
  guint64 differ = 0;

  g_assert_no_error (error);
  ns = cpel_file_new_for_path (path, &rate, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cpel_file_get_time_kind (ticks), ==, CPEL_TIME_KIND_TICKS);
  g_assert_cmpint (cpel_file_get_time_kind (ns), ==, CPEL_TIME_KIND_NS);
  g_assert_cmpint (cpel_file_get_duration (ticks), ==, cpel_file_get_duration (ns));

  view_for (&vt, ticks, 0, cpel_file_get_duration (ticks) + 1);
  view_for (&vn, ns, 0, cpel_file_get_duration (ns) + 1);
  span_ticks = cpel_render_format_span (&vt, cpel_file_get_time_kind (ticks));
  span_ns = cpel_render_format_span (&vn, cpel_file_get_time_kind (ns));
  g_assert_cmpstr (span_ticks, ==, "425.292 kticks");
  g_assert_cmpstr (span_ns, ==, "425.292 µs");
  {
    g_autofree char *t = cpel_render_format_tick_kind (150000, 50000, 425293, CPEL_TIME_KIND_TICKS);

    g_assert_cmpstr (t, ==, "150 kticks");
  }
  /* the ruler as drawn: the same ticks, other labels */
  st = test_render (&vt, W, 28);
  sn = test_render (&vn, W, 28);
  for (int y = 0; y < 28; y++)
    for (int x = 0; x < W; x++)
      differ += test_luma (st, x, y) != test_luma (sn, x, y);
  g_assert_cmpuint (differ, >, 50);
  cairo_surface_destroy (st);
  cairo_surface_destroy (sn);
}

/* The ruler's corner reads the whole capture's span as
 * `cpel info` does (first to last event), not 1 ns more; a window ending
 * elsewhere reads t1 - t0. */
static void
test_ruler_span (void)
{
  static const TestEvent events[] = {
    { 0, 0, CODE_SEND, 1 },
    { 532734, 1, CODE_RECV, 5 },
  };
  g_autoptr(CpelFile) file = test_file_new (2, events, G_N_ELEMENTS (events));
  g_autofree char *info = cpel_time_format (cpel_file_get_duration (file));
  g_autofree char *whole = NULL;
  g_autofree char *part = NULL;
  CpelView view;

  cpel_view_init (&view, file, &light);
  g_assert_cmpint (view.t1, ==, 532735);
  whole = cpel_render_format_span (&view, CPEL_TIME_KIND_NS);
  g_assert_cmpstr (info, ==, "532.734 µs");
  g_assert_cmpstr (whole, ==, info);
  view.t0 = 1000;
  view.t1 = 2000;
  part = cpel_render_format_span (&view, CPEL_TIME_KIND_NS);
  g_assert_cmpstr (part, ==, "1.000 µs");
}

/* Axis labels in the unit that fits, no needless
 * decimals. */
static void
test_axis_format (void)
{
  static const struct { gint64 t; const char *text; } cases[] = {
    { 1, "1 ns" }, { 100, "100 ns" }, { 10000, "10 µs" }, { 2500000, "2.5 ms" },
    { 1000000000, "1 s" }, { 1234, "1.234 µs" }, { 10000000000, "10 s" }, { 0, "0 ns" },
    { -2500, "-2.5 µs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = cpel_render_format_axis (cases[i].t, CPEL_TIME_KIND_NS);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
  {
    g_autofree char *text = cpel_render_format_axis (10000, CPEL_TIME_KIND_TICKS);

    g_assert_cmpstr (text, ==, "10 kticks");
  }
}

/* ---- colour modes, summary mode ----------------------------------------- */

static double
color_distance (const CpelRGBA *a, const CpelRGBA *b)
{
  return fabs (a->r - b->r) + fabs (a->g - b->g) + fabs (a->b - b->b);
}

/* The type colours: all different (a file's first 16 types each get its
 * own, in the order of its types), none near the blue of density, plain
 * ticks and selection nor the search highlight's yellow. */
static void
test_palette_distinct (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, two_tracks, G_N_ELEMENTS (two_tracks));
  const CpelPalette *palettes[] = { &light, &dark };

  g_assert_cmpuint (cpel_file_get_n_types (file), <, CPEL_PALETTE_N_TYPE_COLORS / 2);
  for (guint p = 0; p < G_N_ELEMENTS (palettes); p++)
    {
      const CpelPalette *pal = palettes[p];

      for (guint i = 0; i < CPEL_PALETTE_N_TYPE_COLORS; i++)
        {
          for (guint j = i + 1; j < CPEL_PALETTE_N_TYPE_COLORS; j++)
            g_assert_cmpfloat (color_distance (&pal->type_colors[i], &pal->type_colors[j]), >, 0.25);
          g_assert_cmpfloat (color_distance (&pal->type_colors[i], &pal->density), >, 0.35);
          g_assert_cmpfloat (color_distance (&pal->type_colors[i], &pal->event), >, 0.35);
          g_assert_cmpfloat (color_distance (&pal->type_colors[i], &pal->selection), >, 0.35);
          g_assert_cmpfloat (color_distance (&pal->type_colors[i], &pal->highlight), >, 0.3);
        }
      /* By the type's place in the file; unknown codes still get one. */
      for (guint t = 0; t < cpel_file_get_n_types (file); t++)
        {
          CpelRGBA c;

          cpel_palette_get_type_color (pal, file, cpel_file_get_type_code (file, t), &c);
          g_assert_cmpfloat (color_distance (&c, &pal->type_colors[t]), ==, 0);
          cpel_palette_get_track_color (pal, t, &c);
          g_assert_cmpfloat (color_distance (&c, &pal->type_colors[t + CPEL_PALETTE_N_TYPE_COLORS / 2]), ==, 0);
        }
      {
        CpelRGBA c = { 0 };

        cpel_palette_get_type_color (pal, file, 0xdeadbeef, &c);
        g_assert_cmpfloat (c.a, ==, 1.0);
        cpel_palette_get_type_color (pal, NULL, 7, &c);
        g_assert_cmpfloat (c.a, ==, 1.0);
      }
    }
}

static void
track_color_of (CpelFile *file, guint slot, CpelRGBA *color)
{
  cpel_palette_get_track_color (&light, slot, color);
}

/* two_tracks: track 0 has send at x = 160 and idle at x = 910, track 1
 * recv at x = 660 and send at x = 1155 (0.5 px per ns). */
static void
test_color_by_track (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, two_tracks, G_N_ELEMENTS (two_tracks));
  CpelView view;
  cairo_surface_t *by_code, *by_track;
  CpelRGBA t0, t1, idle, recv;
  int y0 = 28 + 5, y1 = 28 + 24 + 5;

  track_color_of (file, 0, &t0);
  track_color_of (file, 1, &t1);
  cpel_palette_get_type_color (&light, file, CODE_IDLE, &idle);
  cpel_palette_get_type_color (&light, file, CODE_RECV, &recv);
  /* Otherwise the checks below could not tell the modes apart. */
  g_assert_cmpfloat (MAX (fabs (t0.r - t1.r), MAX (fabs (t0.g - t1.g), fabs (t0.b - t1.b))), >, 0.1);
  g_assert_cmpfloat (MAX (fabs (t0.r - idle.r), MAX (fabs (t0.g - idle.g), fabs (t0.b - idle.b))), >, 0.1);
  g_assert_cmpfloat (MAX (fabs (t1.r - recv.r), MAX (fabs (t1.g - recv.g), fabs (t1.b - recv.b))), >, 0.1);

  view_for (&view, file, 0, 2000);
  view.color_by_type = TRUE;
  by_code = test_render (&view, W, H);
  view.color_mode = CPEL_COLOR_BY_TRACK;
  by_track = test_render (&view, W, H);

  /* By code: the ticks in their codes' colours. */
  test_assert_color (by_code, 910, y0, &idle);
  test_assert_color (by_code, 660, y1, &recv);
  /* By track: each track's ticks in its colour, whatever their code. */
  test_assert_color (by_track, 910, y0, &t0);
  test_assert_color (by_track, 910, y0 + 12, &t0);
  test_assert_color (by_track, 660, y1, &t1);
  test_assert_color (by_track, 1155, y1, &t1);
  /* Nothing else changes: the label column, the ruler, the row backgrounds
   * and the event labels (recv's label right of x = 660). */
  for (int y = 0; y < H; y += 3)
    for (int x = 0; x < W; x++)
      if (x != 160 && x != 660 && x != 910 && x != 1155)
        {
          double a[3], b[3];

          test_pixel (by_code, x, y, a);
          test_pixel (by_track, x, y, b);
          g_assert_cmpfloat (fabs (a[0] - b[0]) + fabs (a[1] - b[1]) + fabs (a[2] - b[2]), <, 0.01);
        }
  g_assert_true (has_dark_pixel (by_track, 665, 740, y1, y1 + 14, 0.5));
  cairo_surface_destroy (by_code);
  cairo_surface_destroy (by_track);

  /* color_by_type FALSE does not matter in this mode. */
  view.color_by_type = FALSE;
  by_track = test_render (&view, W, H);
  test_assert_color (by_track, 910, y0, &t0);
  cairo_surface_destroy (by_track);

  /* CPEL_COLOR_NONE: one colour even with color_by_type TRUE. */
  view.color_by_type = TRUE;
  view.color_mode = CPEL_COLOR_NONE;
  by_track = test_render (&view, W, H);
  test_assert_color (by_track, 910, y0, &light.event);
  test_assert_color (by_track, 660, y1, &light.event);
  cairo_surface_destroy (by_track);
}

/* Two busy tracks: 4000 events each, evenly spaced over [0, 4000). */
static void
busy_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i / 2;
  ev->track = (guint32) (i % 2);
  ev->code = i % 4 < 2 ? CODE_SEND : CODE_RECV;
  ev->datum = 0;
}

static void
test_density_by_track (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (2, 8000, busy_func, NULL);
  CpelView view;
  cairo_surface_t *none, *by_track;
  CpelRGBA t0, t1;
  int y0 = 28 + 12, y1 = 28 + 24 + 12;

  track_color_of (file, 0, &t0);
  track_color_of (file, 1, &t1);
  /* 100 px for 4000 ns: 40 events a column, every row a density row whose
   * columns all hold the most (full shade). */
  view_for (&view, file, 0, 4000);
  none = test_render (&view, 260, 90);
  view.color_mode = CPEL_COLOR_BY_TRACK;
  by_track = test_render (&view, 260, 90);
  for (int x = 165; x < 255; x += 10)
    {
      test_assert_color (none, x, y0, &light.density);
      test_assert_color (none, x, y1, &light.density);
      test_assert_color (by_track, x, y0, &t0);
      test_assert_color (by_track, x, y1, &t1);
    }
  cairo_surface_destroy (none);
  cairo_surface_destroy (by_track);
}

static void
test_summary (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (2, 28, labels_func, NULL);
  CpelView view;
  cairo_surface_t *plain, *summary, *empty;
  guint8 all_hidden[3] = { 1, 1, 1 };
  int r0 = 28, r1 = 28 + 24;

  /* As in /render/labels/fit: labels right of the ticks at x = 560, 960
   * (track 0) and x = 352 (track 1). */
  view_for (&view, file, 0, 2000);
  view.summary = TRUE;
  view.hidden_types = all_hidden;
  empty = test_render (&view, W, H);
  view.hidden_types = NULL;
  view.summary = FALSE;
  plain = test_render (&view, W, H);
  view.summary = TRUE;
  summary = test_render (&view, W, H);
  g_assert_true (has_dark_pixel (plain, 565, 620, r0 + 4, r0 + 20, 0.5));
  g_assert_true (has_dark_pixel (plain, 965, 1020, r0 + 4, r0 + 20, 0.5));
  g_assert_true (has_dark_pixel (plain, 357, 420, r1 + 4, r1 + 20, 0.5));
  /* Summary: no text and no box right of the ticks, only what a frame
   * without any event has there (row backgrounds, baselines, ruler grid
   * lines). */
  for (int y = r0 + 1; y < r1 + 23; y++)
    for (int x = 161; x < W; x++)
      {
        if (x == 560 || x == 960 || (y >= r1 && x <= 352 && (x - 160) % 8 == 0))
          continue;   /* a tick */
        g_assert_cmpfloat (fabs (test_luma (summary, x, y) - test_luma (empty, x, y)), <, 0.001);
      }
  /* The ticks stand on the row's baseline (one event's bar: 52 % of the
   * 18 px); the track labels and the ruler are as before. */
  test_assert_color (summary, 560, r0 + 20, &light.event);
  test_assert_color (summary, 960, r0 + 12, &light.event);
  test_assert_color (plain, 960, r0 + 10, &light.event);
  test_assert_not_color (summary, 960, r0 + 10, &light.event);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < 160; x++)
      g_assert_cmpfloat (fabs (test_luma (summary, x, y) - test_luma (plain, x, y)), <, 0.001);
  for (int y = 0; y < r0; y++)
    for (int x = 160; x < W; x++)
      g_assert_cmpfloat (fabs (test_luma (summary, x, y) - test_luma (plain, x, y)), <, 0.001);
  cairo_surface_destroy (summary);

  /* The selected event keeps its label (on the selection fill). */
  view.has_selection = TRUE;
  view.selected_slot = 0;
  view.selected_index = 1;
  summary = test_render (&view, W, H);
  test_assert_color (summary, 568, r0 + 6, &light.selection);
  g_assert_false (has_dark_pixel (summary, 965, 1020, r0 + 4, r0 + 20, 0.5));
  cairo_surface_destroy (summary);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (empty);
}

/* Track 0: a burst of 2000 events over [0, 1000) (8 a column at full
 * zoom), then 20 lone events 150 ns apart from t = 1000; track 1: 5 events
 * 800 ns apart. */
static void
burst_then_quiet_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->code = CODE_SEND;
  ev->datum = (guint32) i;
  ev->track = 0;
  if (i < 2000)
    ev->t = i / 2;
  else if (i < 2020)
    ev->t = 1000 + (i - 2000) * 150;
  else
    {
      ev->track = 1;
      ev->t = 100 + (i - 2020) * 800;
    }
}

/* Pixels that differ between two frames in [y0, y1), right of the label
 * column. */
static guint
rows_differences (cairo_surface_t *a, cairo_surface_t *b, int y0, int y1)
{
  guint n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = 160; x < W; x++)
      {
        double pa[3], pb[3];

        test_pixel (a, x, y, pa);
        test_pixel (b, x, y, pb);
        n += fabs (pa[0] - pb[0]) + fabs (pa[1] - pb[1]) + fabs (pa[2] - pb[2]) > 0.01;
      }
  return n;
}

/* Height from the bar region's bottom (y = r0 + 21) of the run of `color`. */
static int
bar_height (cairo_surface_t *s, int x, int r0, const CpelRGBA *color)
{
  int n = 0;

  while (n < 18 && test_color_distance (s, x, r0 + 20 - n, color) < 0.02)
    n++;
  return n;
}

/* Summary mode looks different from the normal mode at every zoom, down to
 * the whole capture where every row is density (no labels to leave out):
 * each row is a histogram on a baseline, a column as tall as its count. */
static void
test_summary_every_zoom (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (2, 2025, burst_then_quiet_func, NULL);
  static const gint64 ranges[][2] = {
    { 0, 4000 },      /* whole capture: both rows density */
    { 0, 200 },       /* inside the burst: density */
    { 1000, 3000 },   /* lone events with room for labels */
    { 1590, 1610 },   /* one event */
    { 3500, 3600 },   /* no event at all on screen */
  };
  const CpelPalette *palettes[] = { &light, &dark };
  int r0 = 28, r1 = 28 + 24;

  for (guint p = 0; p < G_N_ELEMENTS (palettes); p++)
    for (guint z = 0; z < G_N_ELEMENTS (ranges); z++)
      {
        CpelView view;
        cairo_surface_t *plain, *summary;

        view_for (&view, file, ranges[z][0], ranges[z][1]);
        view.palette = palettes[p];
        plain = test_render (&view, W, H);
        view.summary = TRUE;
        summary = test_render (&view, W, H);
        /* At least the baselines of both rows (1000 px each). */
        g_assert_cmpuint (rows_differences (plain, summary, r0, H), >=, 2000);
        cairo_surface_destroy (plain);
        cairo_surface_destroy (summary);
      }

  /* The whole capture, 4 ns a column: the burst fills columns 0..249 with 8
   * events each, the lone events are single columns (t = 1600: x = 560). */
  {
    CpelView view;
    cairo_surface_t *plain, *summary;
    int x_burst = 160 + 100, x_lone = 560, x_none = 560 + 15;

    view_for (&view, file, 0, 4000);
    plain = test_render (&view, W, H);
    view.summary = TRUE;
    summary = test_render (&view, W, H);

    /* Row 0 is density only (no label anywhere): it differs all the same. */
    g_assert_true (cpel_view_get_row_slot (&view, 0) == 0);
    g_assert_cmpuint (rows_differences (plain, summary, r0, r1), >=, 1200);
    /* Normal: the lone event's column shaded over the row's whole height. */
    test_assert_not_color (plain, x_lone, r0 + 4, &light.background);
    /* Summary: the burst's bars fill the row, the lone event's is about
     * half as tall and solid, above it the row is empty; the counts read
     * as heights. */
    g_assert_cmpint (bar_height (summary, x_burst, r0, &light.density), ==, 18);
    g_assert_cmpint (bar_height (summary, x_lone, r0, &light.density), >=, 7);
    g_assert_cmpint (bar_height (summary, x_lone, r0, &light.density), <=, 11);
    test_assert_color (summary, x_lone, r0 + 4, &light.background);
    test_assert_color (summary, x_none, r0 + 20, &light.background);
    /* A baseline under the bars, on empty stretches too (row 1: only five
     * events). */
    test_assert_not_color (summary, x_none, r0 + 21, &light.background);
    g_assert_cmpfloat (fabs (test_luma (summary, x_none, r0 + 21) - test_luma (plain, x_none, r0 + 21)), >, 0.05);
    g_assert_cmpfloat (fabs (test_luma (summary, x_none, r1 + 21) - test_luma (plain, x_none, r1 + 21)), >, 0.05);
    /* The label column and the ruler stay as they are. */
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
        if (x < 160 || y < r0)
          g_assert_cmpfloat (fabs (test_luma (summary, x, y) - test_luma (plain, x, y)), <, 0.001);
    cairo_surface_destroy (plain);
    cairo_surface_destroy (summary);

    /* By track: the bars in the track's colour. */
    {
      CpelRGBA t0;

      cpel_palette_get_track_color (&light, 0, &t0);
      view.color_mode = CPEL_COLOR_BY_TRACK;
      summary = test_render (&view, W, H);
      g_assert_cmpint (bar_height (summary, x_burst, r0, &t0), ==, 18);
      g_assert_cmpint (bar_height (summary, x_lone, r0, &t0), <, 18);
      cairo_surface_destroy (summary);
    }
  }
}

/* ---- selection, highlights, measurement, cursor ------------------------ */

static void
test_selection (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, two_tracks, G_N_ELEMENTS (two_tracks));
  CpelView view;
  cairo_surface_t *plain, *sel;
  int y1 = 28 + 24;

  view_for (&view, file, 0, 2000);
  plain = test_render (&view, W, H);
  view.has_selection = TRUE;
  view.selected_slot = 1;
  view.selected_index = 0;     /* t = 1000, x = 660 */
  sel = test_render (&view, W, H);
  /* The tick in the selection colour. */
  test_assert_color (sel, 660, y1 + 12, &light.selection);
  test_assert_color (sel, 661, y1 + 12, &light.selection);
  /* Its row is tinted (empty part), the other row is not. */
  g_assert_cmpfloat (test_color_distance (sel, 400, y1 + 20, &light.row_alt), >, 0.02);
  g_assert_cmpfloat (test_color_distance (plain, 400, y1 + 20, &light.row_alt), <, 0.01);
  g_assert_cmpfloat (test_color_distance (sel, 400, 28 + 20, &light.background), <, 0.01);
  /* Its label is drawn on a selection fill, even where the next event... */
  test_assert_color (sel, 668, y1 + 6, &light.selection);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (sel);
}

/* The selection's label: with room before the next event it stays in the
 * row and ends before that event; without, it is a translucent callout in
 * its row over the next events, through which their ticks show, never over
 * the row above. */
static const TestEvent crowded[] = {
  { 0, 0, CODE_IDLE, 0 },         /* times count from the first event */
  { 900, 0, CODE_SEND, 1 },       /* x = 610, in the row above */
  { 1000, 1, CODE_RECV, 12345 },  /* x = 660: selected */
  { 1040, 1, CODE_SEND, 7 },      /* x = 680: 20 px later */
  { 1100, 1, CODE_SEND, 8 },      /* x = 710 */
  { 1400, 1, CODE_RECV, 9 },      /* x = 860 */
  { 1800, 1, CODE_SEND, 1 },      /* x = 1060 */
};

static void
test_selection_neighbours (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, crowded, G_N_ELEMENTS (crowded));
  CpelView view;
  cairo_surface_t *plain, *sel;
  int y0 = 28, y1 = 28 + 24;

  view_for (&view, file, 0, 2000);
  plain = test_render (&view, W, H);
  view.has_selection = TRUE;
  view.selected_slot = 1;
  view.selected_index = 0;
  sel = test_render (&view, W, H);
  /* The callout stays in its row; the row above (another
   * track) is drawn exactly as without the selection… */
  for (int x = 160; x < W; x++)
    for (int y = y0; y < y1 - 1; y++)
      g_assert_cmphex (test_luma (sel, x, y) * 1000, ==, test_luma (plain, x, y) * 1000);
  /* …a translucent selection fill right of the tick, over the neighbours… */
  g_assert_cmpfloat (test_color_distance (sel, 666, y1 + 4, &light.selection), <, 0.3);
  test_assert_not_color (plain, 666, y1 + 4, &light.selection);
  /* …through which the neighbouring tick at x = 680 shows. */
  g_assert_cmpfloat (test_luma (sel, 680, y1 + 4), <, test_luma (sel, 676, y1 + 4) - 0.05);
  /* The label of the event at x = 710 gives way to it: the plain frame has
   * its box there, the selected one none of event_label_bg. */
  test_assert_color (plain, 716, y1 + 4, &light.event_label_bg);
  test_assert_not_color (sel, 716, y1 + 4, &light.event_label_bg);
  /* Further ticks are untouched. */
  for (int y = y1 + 6; y < y1 + 20; y += 4)
    {
      test_assert_color (sel, 860, y, &light.event);
      test_assert_color (sel, 1060, y, &light.event);
    }
  cairo_surface_destroy (sel);

  /* Selecting the event at x = 710 (150 px before the next): its label is
   * in the row, ends before the next tick, and nothing is drawn above. */
  view.selected_index = 2;
  sel = test_render (&view, W, H);
  test_assert_color (sel, 720, y1 + 6, &light.selection);
  test_assert_color (sel, 860, y1 + 12, &light.event);
  for (int x = 700; x < 860; x++)
    g_assert_cmpfloat (test_color_distance (sel, x, y1 - 4, &light.selection), >, 0.3);
  cairo_surface_destroy (sel);
  cairo_surface_destroy (plain);
}

/* The view drawn at `scale` device pixels per logical one; the surface's
 * pixels read at device scale 1. */
static cairo_surface_t *
test_render_scaled (const CpelView *view, int width, int height, double scale)
{
  cairo_surface_t *s;
  cairo_t *cr;

  if (scale == 1.0)
    return test_render (view, width, height);
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (width * scale),
                                  (int) (height * scale));
  cairo_surface_set_device_scale (s, scale, scale);
  cr = cairo_create (s);
  cpel_render_view (cr, width, height, view);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  cairo_surface_set_device_scale (s, 1, 1);
  return s;
}

/* The selected event's label box stays inside its row at every row height
 * the viewer offers, the row's top line included: the row above (another
 * track) is drawn exactly as without the selection. */
static void
test_selection_row_above (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, crowded, G_N_ELEMENTS (crowded));
  static const double heights[] = { 12, 14, 16, 18, 20, 24, 32, 48 };
  static const double scales[] = { 1.0, 2.0 };

  for (guint s = 0; s < G_N_ELEMENTS (scales); s++)
    for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
      for (guint64 sel_index = 0; sel_index < 3; sel_index++)
        {
          CpelView view;
          cairo_surface_t *plain, *sel;
          int y1;

          view_for (&view, file, 0, 2000);
          view.row_height = heights[h];
          y1 = (int) ((view.ruler_height + view.row_height) * scales[s]);
          plain = test_render_scaled (&view, W, H, scales[s]);
          view.has_selection = TRUE;
          view.selected_slot = 1;
          view.selected_index = sel_index;
          sel = test_render_scaled (&view, W, H, scales[s]);
          for (int x = (int) (160 * scales[s]); x < (int) (W * scales[s]); x++)
            for (int y = (int) (view.ruler_height * scales[s]); y < y1; y++)
              if (test_luma (sel, x, y) != test_luma (plain, x, y))
                g_error ("row height %g, scale %g, event %" G_GUINT64_FORMAT ": the selection "
                         "draws over the row above at %d,%d (its row starts at y %d)",
                         heights[h], scales[s], sel_index, x, y, y1);
          cairo_surface_destroy (sel);
          cairo_surface_destroy (plain);
        }
}

/* A label of nothing but blanks draws no box (not an empty "…" one); runs
 * of blanks inside a label read as one space. */
static void
test_labels_blank (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  CpelView view;
  cairo_surface_t *s;
  guint t;
  int y0 = 28;

  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "                                        ", NULL);
  cpel_writer_add_event_def (w, 2, "a                                        b", NULL);
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 0, "blank");
  cpel_writer_begin_events (w, t, 1000000000u, 3);
  cpel_writer_add_event (w, 0, 0, 1, 0);      /* x = 160 */
  cpel_writer_add_event (w, 200, 0, 2, 0);    /* x = 260 */
  cpel_writer_add_event (w, 400, 0, 1, 0);    /* x = 360 */
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);

  view_for (&view, file, 0, 2000);
  s = test_render (&view, W, H);
  /* The blank label: no box, no ellipsis between its tick and the next. */
  g_assert_false (has_dark_pixel (s, 163, 258, y0 + 2, y0 + 22, 0.8));
  g_assert_false (has_dark_pixel (s, 363, W, y0 + 2, y0 + 22, 0.8));
  /* "a b" fits in the 100 px before the next event: text, no ellipsis cut. */
  g_assert_true (has_dark_pixel (s, 263, 300, y0 + 6, y0 + 18, 0.5));
  cairo_surface_destroy (s);
}

/* ---- track labels ------------------------------------------------------ */

/* Ink in a track label: pixels of the row (label column, text band) that
 * differ from the row's own background (sampled left of the text). */
static GByteArray *
track_label_ink (cairo_surface_t *s, const CpelView *view, guint row, int *ink_right)
{
  GByteArray *ink = g_byte_array_new ();
  int y = (int) cpel_view_get_row_y (view, row);
  int rh = (int) view->row_height;
  double bg = test_luma (s, 6, y + rh / 2);

  *ink_right = -1;
  for (int yy = y + 2; yy < y + rh - 2; yy++)
    for (int x = 0; x < (int) view->label_width; x++)
      {
        guint8 on = fabs (test_luma (s, x, yy) - bg) > 0.25;

        g_byte_array_append (ink, &on, 1);
        if (on)
          *ink_right = MAX (*ink_right, x);
      }
  return ink;
}

/* Track labels too wide for the label column stay distinguishable: perf's
 * "comm [tid]" tracks of one process were all cut to "memfd:sealed-91 [1…"
 * (ellipsized at the end); now the head is cut and " [tid]" is kept. */
static void
test_track_label_suffix (void)
{
  static const char *labels[] = {
    /* pairs two rows apart: on the same row background */
    "memfd:sealed-91 [1234]", "memfd:sealed-91 [12345]",
    "memfd:sealed-91 [9876]", "memfd:sealed-91 [22345]",
  };
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  GByteArray *ink[G_N_ELEMENTS (labels)];
  CpelView view;
  cairo_surface_t *s;
  guint t;

  t = cpel_writer_add_string_table (w, "T");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "e", NULL);
  cpel_writer_begin_track_defs (w, t);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    cpel_writer_add_track_def (w, i, labels[i]);
  cpel_writer_begin_events (w, t, 1000000000u, G_N_ELEMENTS (labels));
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    cpel_writer_add_event (w, 100 * i, i, 1, 0);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    g_assert_cmpstr (cpel_file_get_track_label (file, i), ==, labels[i]);

  view_for (&view, file, 0, 2000);
  /* A 110 px column: 86 px for the text, less than the labels need. */
  view.label_width = 110;
  s = test_render (&view, W, 28 + 4 * 24);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      int right;

      ink[i] = track_label_ink (s, &view, i, &right);
      /* Some text, cut to stay inside the column's 12 px margins. */
      g_assert_cmpint (right, >, 12);
      g_assert_cmpint (right, <, (int) view.label_width - 11);
    }
  /* Each pair reads differently: the ends that tell them apart are drawn
   * (alike, they would match pixel for pixel on the same background). */
  for (guint i = 0; i < 2; i++)
    {
      guint differ = 0;

      g_assert_cmpuint (ink[i]->len, ==, ink[i + 2]->len);
      for (guint k = 0; k < ink[i]->len; k++)
        differ += ink[i]->data[k] != ink[i + 2]->data[k];
      if (differ < 8)
        g_error ("track labels \"%s\" and \"%s\" are drawn alike (%u pixels differ)",
                 labels[i], labels[i + 2], differ);
    }
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    g_byte_array_unref (ink[i]);
  cairo_surface_destroy (s);
}

static void
test_highlights (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, two_tracks, G_N_ELEMENTS (two_tracks));
  g_autoptr(CpelSearchResult) result = test_search_code (file, "2");
  CpelView view;
  cairo_surface_t *s;
  double rgb[3];
  int y1 = 28 + 24;

  g_assert_cmpuint (cpel_search_result_get_n (result), ==, 1);

  view_for (&view, file, 0, 2000);
  view.matches = result;
  s = test_render (&view, W, H);
  /* A warm band around the match at x = 660 (above its tick). */
  test_pixel (s, 660, y1 + 2, rgb);
  g_assert_cmpfloat (rgb[0], >, rgb[2] + 0.3);
  /* Its label on the highlight fill. */
  test_assert_color (s, 668, y1 + 6, &light.highlight);
  /* No band on the other events. */
  test_pixel (s, 910, 28 + 2, rgb);
  g_assert_cmpfloat (fabs (rgb[0] - rgb[2]), <, 0.05);
  cairo_surface_destroy (s);
}

/* Matches on a dense track: the bands follow the matches at full zoom out. */
static void
many_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->track = 0;
  ev->t = i;
  ev->code = (i >= 500000 && i < 500100) ? CODE_RECV : CODE_SEND;
  ev->datum = 0;
}

static void
test_highlights_dense (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 1000000, many_func, NULL);
  g_autoptr(CpelSearchResult) result = test_search_code (file, "recv");
  CpelView view;
  cairo_surface_t *s;
  double rgb[3];

  g_assert_cmpuint (cpel_search_result_get_n (result), ==, 100);

  view_for (&view, file, 0, 1000000);
  view.matches = result;
  s = test_render (&view, W, H);
  /* Matches at [500000, 500100): column 500 (x = 660); band x 659..661. */
  test_pixel (s, 660, 28 + 1, rgb);
  g_assert_cmpfloat (rgb[0], >, rgb[2] + 0.3);
  test_pixel (s, 600, 28 + 1, rgb);
  g_assert_cmpfloat (fabs (rgb[0] - rgb[2]), <, 0.05);
  cairo_surface_destroy (s);
}

static void
every_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->track = 0;
  ev->t = i * 2;
  ev->code = CODE_RECV;
  ev->datum = 0;
}

/* A match in every column: one band of one colour, its translucent fill
 * applied once everywhere (the bands are filled in runs: none may overlap
 * another run's). */
static void
test_highlights_contiguous (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 1000, every_func, NULL);
  g_autoptr(CpelSearchResult) result = test_search_code (file, "recv");
  CpelView view;
  cairo_surface_t *s, *plain;
  double first[3], under[3];

  g_assert_cmpuint (cpel_search_result_get_n (result), ==, 1000);

  view_for (&view, file, 0, 2000);
  plain = test_render (&view, W, H);
  view.matches = result;
  s = test_render (&view, W, H);
  /* Row 0's band above the ticks (y = 29), x 170 .. 1150: the same colour
   * wherever the picture under it is (grid lines aside). */
  test_pixel (s, 170, 28 + 1, first);
  test_pixel (plain, 170, 28 + 1, under);
  g_assert_cmpfloat (first[0], >, first[2] + 0.3);
  for (int x = 171; x < 1150; x++)
    {
      double rgb[3], p[3];

      test_pixel (plain, x, 28 + 1, p);
      if (fabs (p[0] - under[0]) + fabs (p[1] - under[1]) + fabs (p[2] - under[2]) > 0.5 / 255)
        continue;
      test_pixel (s, x, 28 + 1, rgb);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat (fabs (rgb[k] - first[k]), <=, 1.5 / 255);
    }
  cairo_surface_destroy (plain);
  cairo_surface_destroy (s);
}

static void
mixed_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->track = (guint32) (i % 3);
  ev->t = i * 37 + (i % 5);
  ev->code = (guint32) (i % 3) + 1;
  ev->datum = (guint32) i;
}

/* Ticks are stored straight into an image target's pixels (CpelPixels);
 * through a recording surface the same frame is drawn by cairo alone.  The
 * two must be the same picture, at several zooms (ticks dense, sparse with
 * labels), colours, a fractional scroll (no direct stores) and scale 2. */
static void
test_direct_pixels (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (3, 30000, mixed_func, NULL);
  struct { gint64 t1; gboolean by_type; double scroll; int scale; } cases[] = {
    { 1110000, TRUE, 0, 1 },
    { 200000, TRUE, 0, 1 },
    { 40000, FALSE, 0, 1 },
    { 6000, TRUE, 0, 1 },
    { 200000, TRUE, 0.5, 1 },
    { 40000, TRUE, 0, 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      CpelView view;
      int sc = cases[i].scale;
      cairo_surface_t *direct = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W * sc, H * sc);
      cairo_surface_t *replayed = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W * sc, H * sc);
      cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
      cairo_t *cr;
      int stride = cairo_image_surface_get_stride (direct);

      view_for (&view, file, 1000, cases[i].t1);
      view.color_by_type = cases[i].by_type;
      view.scroll_y = cases[i].scroll;
      /* The scale as a transformation: the recording surface has no device
       * scale of its own, and the renderer picks its columns by the scale. */
      cr = cairo_create (direct);
      cairo_scale (cr, sc, sc);
      cpel_render_view (cr, W, H, &view);
      cairo_destroy (cr);
      cairo_surface_flush (direct);

      cr = cairo_create (rec);
      cairo_scale (cr, sc, sc);
      cpel_render_view (cr, W, H, &view);
      cairo_destroy (cr);
      cr = cairo_create (replayed);
      cairo_set_source_surface (cr, rec, 0, 0);
      cairo_paint (cr);
      cairo_destroy (cr);
      cairo_surface_flush (replayed);

      for (int y = 0; y < H * sc; y++)
        g_assert_cmpmem (cairo_image_surface_get_data (direct) + (gsize) y * stride, W * sc * 4,
                         cairo_image_surface_get_data (replayed) + (gsize) y * stride, W * sc * 4);
      cairo_surface_destroy (rec);
      cairo_surface_destroy (direct);
      cairo_surface_destroy (replayed);
    }
}

static void
gap_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->track = 0;
  ev->t = i;
  ev->code = (i % 50 < 5 && (i < 100000 || i >= 120000)) || i == 110017 || i == 112400 ? CODE_RECV : CODE_SEND;
  ev->datum = 0;
}

/* Dense matches (one event in ten, the search keeps them as bits) on a row
 * of 200 events a column: a band in exactly the columns holding a match,
 * none in the gap but for its two lone matches. */
static void
test_highlights_dense_bits (void)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 200000, gap_func, NULL);
  g_autoptr(CpelSearchResult) result = test_search_code (file, "recv");
  g_autofree gboolean *expected = g_new0 (gboolean, 1000);
  CpelView view;
  cairo_surface_t *s, *plain;
  guint64 n;
  const guint32 *m = cpel_search_result_get_track (result, 0, &n);

  g_assert_nonnull (cpel_search_result_get_track_bits (result, 0));
  for (guint64 i = 0; i < n; i++)
    expected[m[i] / 200] = TRUE;   /* t = i; 200 ns a column */

  view_for (&view, file, 0, 200000);
  plain = test_render (&view, W, H);
  view.matches = result;
  s = test_render (&view, W, H);
  for (int c = 0; c < 1000; c++)
    {
      /* A band is 3 px wide around its column: look at columns whose
       * neighbours agree, on the row's top line (above the density). */
      double a[3], b[3];
      gboolean banded;

      if ((c > 0 && expected[c - 1] != expected[c]) || (c < 999 && expected[c + 1] != expected[c]))
        continue;
      test_pixel (plain, 160 + c, 28 + 1, a);
      test_pixel (s, 160 + c, 28 + 1, b);
      banded = fabs (a[0] - b[0]) + fabs (a[1] - b[1]) + fabs (a[2] - b[2]) > 0.05;
      g_assert_cmpint (banded, ==, expected[c]);
    }
  /* The lone matches in the gap: inside column 550, first event of 562. */
  for (guint k = 0; k < 2; k++)
    {
      int c = k == 0 ? 550 : 562;
      double a[3], b[3];

      g_assert_true (expected[c]);
      test_pixel (plain, 160 + c, 28 + 1, a);
      test_pixel (s, 160 + c, 28 + 1, b);
      g_assert_cmpfloat (fabs (a[0] - b[0]) + fabs (a[1] - b[1]) + fabs (a[2] - b[2]), >, 0.05);
    }
  cairo_surface_destroy (plain);
  cairo_surface_destroy (s);
}

/* A HiDPI target (device scale 2) is drawn at its device pixels: a tick at
 * logical x 660.5 starts at device pixel 1321 (a tick is one logical pixel,
 * two device pixels, wide), where snapping to logical pixels would put it at
 * 1322. */
static void
test_device_scale (void)
{
  static const TestEvent half[] = {
    { 0, 0, CODE_SEND, 1 },
    { 1001, 0, CODE_SEND, 2 },     /* 0.5 px per ns: x = 160 + 500.5 */
    { 2000, 0, CODE_SEND, 3 },
  };
  g_autoptr(CpelFile) file = test_file_new (1, half, G_N_ELEMENTS (half));
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W * 2, H * 2);
  CpelView view;
  cairo_t *cr;
  int y;

  view_for (&view, file, 0, 2000);
  cairo_surface_set_device_scale (s, 2, 2);
  cr = cairo_create (s);
  cpel_render_view (cr, W, H, &view);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  cairo_surface_set_device_scale (s, 1, 1);
  y = 2 * (int) (view.ruler_height + 5);
  test_assert_not_color (s, 1320, y, &light.event);
  test_assert_color (s, 1321, y, &light.event);
  test_assert_color (s, 1322, y, &light.event);
  test_assert_not_color (s, 1323, y, &light.event);
  cairo_surface_destroy (s);
}

static void
test_measure_cursor (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, two_tracks, G_N_ELEMENTS (two_tracks));
  CpelView view;
  cairo_surface_t *plain, *s;

  view_for (&view, file, 0, 2000);
  plain = test_render (&view, W, H);
  view.has_measure = TRUE;
  view.measure_t0 = 1200;   /* x 660 .. 760 */
  view.measure_t1 = 1000;   /* reversed on purpose */
  view.has_cursor = TRUE;
  view.cursor_t = 1900;     /* x = 1110 */
  s = test_render (&view, W, H);
  /* The band tints the rows (and below them), not outside it. */
  g_assert_cmpfloat (test_color_distance (plain, 700, 100, &light.background), <, 0.01);
  g_assert_cmpfloat (test_color_distance (s, 700, 100, &light.background), >, 0.03);
  g_assert_cmpfloat (test_color_distance (s, 640, 100, &light.background), <, 0.01);
  g_assert_cmpfloat (test_color_distance (s, 780, 100, &light.background), <, 0.01);
  /* Its edges in the accent colour. */
  g_assert_cmpfloat (test_color_distance (s, 660, 100, &light.accent), <, 0.25);
  /* The Δt pill just below the ruler, in the selection colour (a little
   * translucent)… */
  g_assert_cmpfloat (test_color_distance (s, 710, 28 + 10, &light.selection), <, 0.15);
  /* …never over the ruler's labels: the ruler is drawn as without the
   * measurement, but for the band's tint and edges. */
  for (int y = 0; y < 27; y++)
    for (int x = 161; x < W; x++)
      if ((x < 655 || x > 765) && (x < 1104 || x > 1116))   /* not the band, not the cursor */
        g_assert_cmpfloat (fabs (test_luma (s, x, y) - test_luma (plain, x, y)), <, 0.001);
      else if (x > 662 && x < 758)
        g_assert_cmpfloat (test_color_distance (s, x, y, &light.selection), >, 0.1);
  /* The cursor line. */
  test_assert_color (s, 1110, 100, &light.accent);
  test_assert_not_color (plain, 1110, 100, &light.accent);
  g_assert_cmpuint (cpel_view_count_range (&view, 1000, 1200), ==, 1);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (s);
}

/* ---- the real sample ---------------------------------------------------- */

static void
test_sample (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  CpelView view;
  cairo_surface_t *s;
  int drawn = 0;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  cpel_view_init (&view, file, &dark);
  s = test_render (&view, 1200, 200);
  for (int x = 161; x < 1200; x++)
    if (test_color_distance (s, x, 28 + 12, &dark.background) > 0.1
        && test_color_distance (s, x, 28 + 12, &dark.row_alt) > 0.1)
      drawn++;
  g_assert_cmpint (drawn, >, 10);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  cpel_palette_init_light (&light);
  cpel_palette_init_dark (&dark);

  g_test_add_func ("/render/events/position", test_event_position);
  g_test_add_func ("/render/palette/distinct", test_palette_distinct);
  g_test_add_func ("/render/events/scrolled-rows", test_event_scrolled_rows);
  g_test_add_func ("/render/events/direct-pixels", test_direct_pixels);
  g_test_add_func ("/render/events/device-scale", test_device_scale);
  g_test_add_func ("/render/density/zoom-out", test_density);
  g_test_add_func ("/render/density/hidden-types", test_density_hidden_types);
  g_test_add_func ("/render/density/bursts", test_density_bursts);
  g_test_add_func ("/render/density/cache", test_density_cache);
  g_test_add_func ("/render/labels/fit", test_labels_fit);
  g_test_add_func ("/render/selection/row-above", test_selection_row_above);
  g_test_add_func ("/render/labels/ellipsized", test_labels_ellipsized);
  g_test_add_func ("/render/ruler/step", test_ruler_step);
  g_test_add_func ("/render/ruler/format", test_ruler_format);
  g_test_add_func ("/render/ruler/drawn", test_ruler_drawn);
  g_test_add_func ("/render/modes/color-by-track", test_color_by_track);
  g_test_add_func ("/render/modes/density-by-track", test_density_by_track);
  g_test_add_func ("/render/modes/summary", test_summary);
  g_test_add_func ("/render/modes/summary-every-zoom", test_summary_every_zoom);
  g_test_add_func ("/render/selection", test_selection);
  g_test_add_func ("/render/ruler/ticks", test_ruler_ticks);
  g_test_add_func ("/render/ruler/span", test_ruler_span);
  g_test_add_func ("/render/axis-format", test_axis_format);
  g_test_add_func ("/render/selection/neighbours", test_selection_neighbours);
  g_test_add_func ("/render/labels/blank", test_labels_blank);
  g_test_add_func ("/render/tracks/label-suffix", test_track_label_suffix);
  g_test_add_func ("/render/highlights/sparse", test_highlights);
  g_test_add_func ("/render/highlights/dense", test_highlights_dense);
  g_test_add_func ("/render/highlights/contiguous", test_highlights_contiguous);
  g_test_add_func ("/render/highlights/dense-bits", test_highlights_dense_bits);
  g_test_add_func ("/render/measure-cursor", test_measure_cursor);
  g_test_add_func ("/render/sample", test_sample);
  return g_test_run ();
}
