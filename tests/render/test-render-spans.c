/* SPDX-License-Identifier: Apache-2.0 */
/* test-render-spans.c — spans and states drawn in their rows: where, in
 * what colour, nested by depth, orphans fading, per column when dense,
 * the selected one outlined, light and dark; and picking them */
#include "render-test-util.h"

/* Rules: "io" spans from a send of 1 to a recv of len 1; on other tracks
 * a send of 2 starts Running, an idle Sleeping. */
static const char rules_text[] =
  "span io begin event=send text=1 end event=recv \"text=len 1\"\n"
  "span burst begin event=send text=3 end event=recv \"text=len 3\"\n"
  "state Running on event=send text=2\n"
  "state Sleeping on event=idle\n";

/* Track 0: io [1000, 8000) holding io [2000, 3000) (depth 1); io from 9000
 *          never ends (drawn to the capture's end, 9995).
 * Track 1: Sleeping [0, 4000), Running [4000, 6000), Sleeping [6000, …).
 * Track 2: 1000 "burst" spans [10 i, 10 i + 5). */
static void
events_func (guint64 i, TestEvent *e, gpointer data)
{
  static const TestEvent fixed[] = {
    { 0, 1, CODE_IDLE, 0 },
    { 1000, 0, CODE_SEND, 1 },
    { 2000, 0, CODE_SEND, 1 },
    { 3000, 0, CODE_RECV, 1 },
    { 4000, 1, CODE_SEND, 2 },
    { 6000, 1, CODE_IDLE, 0 },
    { 8000, 0, CODE_RECV, 1 },
    { 9000, 0, CODE_SEND, 1 },
    { 9500, 1, CODE_IDLE, 0 },
  };

  if (i < G_N_ELEMENTS (fixed))
    *e = fixed[i];
  else
    {
      guint64 j = i - G_N_ELEMENTS (fixed);

      e->t = 10 * (j / 2) + 5 * (j % 2);
      e->track = 2;
      e->code = j % 2 ? CODE_RECV : CODE_SEND;
      e->datum = 3;
    }
}

#define N_EVENTS (9 + 2000)
#define WIDTH 1100
#define HEIGHT 110

typedef struct
{
  CpelFile      *file;
  CpelSpanRules *rules;
  CpelSpans     *spans;
  CpelPalette    light, dark;
  guint8        *hidden;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->file = test_file_new_func (3, N_EVENTS, events_func, NULL);
  f->rules = cpel_span_rules_new ();
  g_assert_true (cpel_span_rules_add_text (f->rules, rules_text, -1, "test", &error));
  g_assert_no_error (error);
  f->spans = cpel_spans_derive (f->file, f->rules, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (f->spans);
  cpel_palette_init_light (&f->light);
  cpel_palette_init_dark (&f->dark);
  /* every event type hidden: the rows show the spans alone */
  f->hidden = g_new0 (guint8, cpel_file_get_n_types (f->file));
  memset (f->hidden, 1, cpel_file_get_n_types (f->file));
}

static void
teardown (Fixture *f, gconstpointer data)
{
  g_free (f->hidden);
  cpel_spans_free (f->spans);
  cpel_span_rules_unref (f->rules);
  g_object_unref (f->file);
}

/* 10 ns a pixel from x = 100; rows 24 px from y = 28. */
static void
view_init (Fixture *f, CpelView *view, const CpelPalette *palette)
{
  cpel_view_init (view, f->file, palette);
  view->label_width = 100;
  view->ruler_height = 28;
  view->row_height = 24;
  view->t0 = 0;
  view->t1 = 10000;
  view->hidden_types = f->hidden;
  view->spans = f->spans;
}

static int
x_of (gint64 t)
{
  return 100 + (int) (t / 10);
}

static void
span_color (Fixture *f, const CpelPalette *p, const char *name, CpelRGBA *c)
{
  cpel_palette_get_span_color (p, name, c);
}

static void
test_nested (Fixture *f, gconstpointer data)
{
  CpelView view;
  CpelRGBA io, burst;
  cairo_surface_t *s;

  view_init (f, &view, &f->light);
  span_color (f, &f->light, "io", &io);
  s = test_render (&view, WIDTH, HEIGHT);

  /* track 0 (y 28..52): two lanes of 11 px from y 29; the parent in the
   * top lane over its whole time, the child below it only in its own */
  test_assert_color (s, x_of (2600), 33, &io);
  test_assert_color (s, x_of (2600), 46, &io);
  test_assert_color (s, x_of (5000), 33, &io);
  test_assert_not_color (s, x_of (5000), 46, &io);
  /* before the first span: nothing */
  test_assert_not_color (s, x_of (500), 33, &io);
  /* the orphan from 9000: solid at its begin, fading to the capture's
   * end (9995) */
  test_assert_color (s, x_of (9030), 33, &io);
  g_assert_cmpfloat (test_color_distance (s, x_of (9990), 33, &io), >,
                     test_color_distance (s, x_of (9030), 33, &io) + 0.05);
  cairo_surface_destroy (s);

  /* no spans in the view: no bars */
  view.spans = NULL;
  s = test_render (&view, WIDTH, HEIGHT);
  test_assert_not_color (s, x_of (5000), 33, &io);
  cairo_surface_destroy (s);

  /* track 2 (y 76..100) is dense: 1000 spans, one per pixel column,
   * covering half of it: the colour at half strength */
  view.spans = f->spans;
  s = test_render (&view, WIDTH, HEIGHT);
  span_color (f, &f->light, "burst", &burst);
  {
    double px[3], bg[3];
    cairo_surface_t *none;

    test_pixel (s, x_of (5000), 88, px);
    view.spans = NULL;
    none = test_render (&view, WIDTH, HEIGHT);
    test_pixel (none, x_of (5000), 88, bg);
    cairo_surface_destroy (none);
    g_assert_cmpfloat (fabs (px[0] - (bg[0] + burst.r) / 2), <, 0.03);
    g_assert_cmpfloat (fabs (px[1] - (bg[1] + burst.g) / 2), <, 0.03);
    g_assert_cmpfloat (fabs (px[2] - (bg[2] + burst.b) / 2), <, 0.03);
  }
  cairo_surface_destroy (s);
}

/* Zoomed out so far that no sample time of a column falls in a span (10
 * px for 10 µs: samples 250 ns apart, spans 5 ns long): the columns where
 * spans begin are still marked, at half strength. */
static void
test_trace (Fixture *f, gconstpointer data)
{
  CpelView view;
  CpelRGBA burst;
  cairo_surface_t *s;
  double px[3], bg[3];

  view_init (f, &view, &f->light);
  span_color (f, &f->light, "burst", &burst);
  s = test_render (&view, 110, HEIGHT);
  test_pixel (s, 105, 88, px);
  cairo_surface_destroy (s);
  view.spans = NULL;
  s = test_render (&view, 110, HEIGHT);
  test_pixel (s, 105, 88, bg);
  cairo_surface_destroy (s);
  g_assert_cmpfloat (fabs (px[0] - (bg[0] + burst.r) / 2), <, 0.03);
  g_assert_cmpfloat (fabs (px[1] - (bg[1] + burst.g) / 2), <, 0.03);
  g_assert_cmpfloat (fabs (px[2] - (bg[2] + burst.b) / 2), <, 0.03);
}

/* 3072 "burst" spans [128 i, 128 i + 64) but none in [262144, 393216):
 * zoomed out, the columns are read from the spans' coverage, not sampled
 * (the samples, 2048 ns apart, would all fall in spans: full strength). */
static void
coverage_func (guint64 i, TestEvent *e, gpointer data)
{
  guint64 j = i / 2;

  if (j >= 2048)
    j += 1024;   /* the gap */
  e->t = 128 * j + 64 * (i % 2);
  e->track = 0;
  e->code = i % 2 ? CODE_RECV : CODE_SEND;
  e->datum = 3;
}

static void
test_coverage (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 2 * 3072, coverage_func, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpans) spans = cpel_spans_derive (file, f->rules, NULL, NULL, &error);
  g_autofree guint8 *hidden = NULL;
  guint shift = 0;
  CpelRGBA burst;
  CpelView view;
  cairo_surface_t *s, *none;
  double px[3], bg[3];

  g_assert_no_error (error);
  g_assert_nonnull (cpel_spans_get_coverage (spans, 0, &shift, NULL));
  hidden = g_new0 (guint8, cpel_file_get_n_types (file));
  memset (hidden, 1, cpel_file_get_n_types (file));
  cpel_view_init (&view, file, &f->light);
  view.label_width = 100;
  view.ruler_height = 28;
  view.row_height = 24;
  view.hidden_types = hidden;
  /* 64 columns of 8192 ns: at least two buckets each */
  view.t0 = 0;
  view.t1 = 524288;
  g_assert_cmpuint ((guint64) 8192, >=, (guint64) 2 << shift);
  span_color (f, &f->light, "burst", &burst);
  view.spans = spans;
  s = test_render (&view, 164, 60);
  view.spans = NULL;
  none = test_render (&view, 164, 60);
  /* half of each column covered: the colour at half strength */
  for (int c = 0; c < 64; c++)
    {
      test_pixel (s, 100 + c, 40, px);
      test_pixel (none, 100 + c, 40, bg);
      if (c >= 32 && c < 48)
        {
          /* the gap: nothing */
          g_assert_cmpfloat (fabs (px[0] - bg[0]) + fabs (px[1] - bg[1]) + fabs (px[2] - bg[2]), <,
                             0.01);
          continue;
        }
      g_assert_cmpfloat (fabs (px[0] - (bg[0] + burst.r) / 2), <, 0.03);
      g_assert_cmpfloat (fabs (px[1] - (bg[1] + burst.g) / 2), <, 0.03);
      g_assert_cmpfloat (fabs (px[2] - (bg[2] + burst.b) / 2), <, 0.03);
    }
  cairo_surface_destroy (s);
  cairo_surface_destroy (none);
}

static void
test_states (Fixture *f, gconstpointer data)
{
  CpelView view;
  CpelRGBA running, sleeping;
  cairo_surface_t *s;

  view_init (f, &view, &f->light);
  cpel_palette_get_state_color (&f->light, "Running", &running);
  cpel_palette_get_state_color (&f->light, "Sleeping", &sleeping);
  s = test_render (&view, WIDTH, HEIGHT);
  /* track 1 (y 52..76) has states only: the band is its lower two thirds
   * (y 61..75), labelled from the left of each state */
  test_assert_color (s, x_of (3000), 70, &sleeping);
  test_assert_color (s, x_of (5900), 70, &running);
  test_assert_color (s, x_of (9000), 70, &sleeping);
  test_assert_not_color (s, x_of (5000), 56, &running);
  /* a legend at the lower right, below track 1: the states' colours */
  {
    gboolean found_running = FALSE, found_sleeping = FALSE;

    for (int y = 78; y < HEIGHT; y++)
      for (int x = WIDTH / 2; x < WIDTH; x++)
        {
          found_running |= test_color_distance (s, x, y, &running) < 0.02;
          found_sleeping |= test_color_distance (s, x, y, &sleeping) < 0.02;
        }
    g_assert_true (found_running);
    g_assert_true (found_sleeping);
  }
  cairo_surface_destroy (s);
}

/* The legend never covers the last row: the content height keeps room for
 * it below the rows, and drawn at that height (as exported, or scrolled
 * to the end) it sits in that room, the rows left clear. */
static gboolean
has_state_colours (cairo_surface_t *s, int y0, int y1, const CpelRGBA *a, const CpelRGBA *b)
{
  for (int y = y0; y < y1; y++)
    for (int x = WIDTH / 2; x < WIDTH; x++)
      if (test_color_distance (s, x, y, a) < 0.02 || test_color_distance (s, x, y, b) < 0.02)
        return TRUE;
  return FALSE;
}

static void
test_legend_room (Fixture *f, gconstpointer data)
{
  CpelView view;
  CpelRGBA running, sleeping;
  cairo_surface_t *s;
  int height;

  view_init (f, &view, &f->light);
  cpel_palette_get_state_color (&f->light, "Running", &running);
  cpel_palette_get_state_color (&f->light, "Sleeping", &sleeping);
  g_assert_cmpfloat (cpel_view_get_legend_room (&view), ==, CPEL_VIEW_LEGEND_ROOM);
  g_assert_cmpfloat (cpel_view_get_content_height (&view), ==, 3 * 24 + CPEL_VIEW_LEGEND_ROOM);
  height = (int) (view.ruler_height + cpel_view_get_content_height (&view));
  s = test_render (&view, WIDTH, height);
  /* the last row (track 2, y 76..100) is clear of the legend; the legend
   * is drawn below it */
  g_assert_false (has_state_colours (s, 77, 100, &running, &sleeping));
  g_assert_true (has_state_colours (s, 100, height, &running, &sleeping));
  cairo_surface_destroy (s);

  /* scrolled: the rows fill a smaller view; scrolled to the end, the last
   * row is above the legend again */
  view.scroll_y = cpel_view_get_content_height (&view) - 64;
  s = test_render (&view, WIDTH, 28 + 64);
  /* row 1's states at y 12..36, row 2 at 36..60, the room 60..92 */
  g_assert_false (has_state_colours (s, 37, 60, &running, &sleeping));
  g_assert_true (has_state_colours (s, 60, 28 + 64, &running, &sleeping));
  cairo_surface_destroy (s);

  /* no states: no room kept */
  view.spans = NULL;
  g_assert_cmpfloat (cpel_view_get_legend_room (&view), ==, 0);
  g_assert_cmpfloat (cpel_view_get_content_height (&view), ==, 3 * 24);
}

/* The measure tool's snapping: 10 ns a pixel, 5 px either way. */
static void
test_snap (Fixture *f, gconstpointer data)
{
  CpelView view;
  gint64 t = -1;

  view_init (f, &view, &f->light);
  /* track 0 (y 28..52): io [1000, 8000) holding io [2000, 3000) */
  g_assert_true (cpel_view_span_snap (&view, WIDTH, x_of (2030), 40, 5, &t));
  g_assert_cmpint (t, ==, 2000);
  g_assert_true (cpel_view_span_snap (&view, WIDTH, x_of (2970), 40, 5, &t));
  g_assert_cmpint (t, ==, 3000);
  /* the outer span's end, past the inner one */
  g_assert_true (cpel_view_span_snap (&view, WIDTH, x_of (7960), 40, 5, &t));
  g_assert_cmpint (t, ==, 8000);
  g_assert_true (cpel_view_span_snap (&view, WIDTH, x_of (1040), 40, 5, &t));
  g_assert_cmpint (t, ==, 1000);
  /* too far from any edge */
  g_assert_false (cpel_view_span_snap (&view, WIDTH, x_of (2100), 40, 5, &t));
  g_assert_false (cpel_view_span_snap (&view, WIDTH, x_of (5000), 40, 5, &t));
  /* track 1's states (y 52..76): Running [4000, 6000) */
  g_assert_true (cpel_view_span_snap (&view, WIDTH, x_of (4020), 64, 5, &t));
  g_assert_cmpint (t, ==, 4000);
  g_assert_true (cpel_view_span_snap (&view, WIDTH, x_of (5980), 64, 5, &t));
  g_assert_cmpint (t, ==, 6000);
  /* the row under the pointer only: track 1 has no edge at 2000 */
  g_assert_false (cpel_view_span_snap (&view, WIDTH, x_of (2030), 64, 5, &t));
  /* the ruler, the label column's time: no row; no spans: nothing */
  g_assert_false (cpel_view_span_snap (&view, WIDTH, x_of (2030), 10, 5, &t));
  view.spans = NULL;
  g_assert_false (cpel_view_span_snap (&view, WIDTH, x_of (2030), 40, 5, &t));
}

static void
test_outside (Fixture *f, gconstpointer data)
{
  CpelView view;
  cairo_surface_t *with, *without;

  /* [8200, 8900): the parent ended, the orphan has not begun */
  view_init (f, &view, &f->light);
  view.t0 = 8200;
  view.t1 = 8900;
  with = test_render (&view, WIDTH, HEIGHT);
  view.spans = NULL;
  without = test_render (&view, WIDTH, HEIGHT);
  for (int x = 101; x < WIDTH; x += 7)
    for (int y = 29; y < 52; y += 3)
      {
        double a[3], b[3];

        test_pixel (with, x, y, a);
        test_pixel (without, x, y, b);
        g_assert_cmpfloat (fabs (a[0] - b[0]) + fabs (a[1] - b[1]) + fabs (a[2] - b[2]), <,
                           0.01);
      }
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

static void
test_dark (Fixture *f, gconstpointer data)
{
  CpelView view;
  CpelRGBA io_light, io_dark, run_light, run_dark;
  cairo_surface_t *s;

  span_color (f, &f->light, "io", &io_light);
  span_color (f, &f->dark, "io", &io_dark);
  cpel_palette_get_state_color (&f->light, "Running", &run_light);
  cpel_palette_get_state_color (&f->dark, "Running", &run_dark);
  g_assert_cmpfloat (fabs (io_light.r - io_dark.r) + fabs (io_light.g - io_dark.g)
                     + fabs (io_light.b - io_dark.b), >, 0.3);
  /* dark spans are dark, light ones light, so that the text on them reads */
  g_assert_cmpfloat (0.2126 * io_dark.r + 0.7152 * io_dark.g + 0.0722 * io_dark.b, <, 0.45);
  g_assert_cmpfloat (0.2126 * io_light.r + 0.7152 * io_light.g + 0.0722 * io_light.b, >, 0.55);

  view_init (f, &view, &f->dark);
  s = test_render (&view, WIDTH, HEIGHT);
  test_assert_color (s, x_of (5000), 33, &io_dark);
  test_assert_not_color (s, x_of (5000), 33, &io_light);
  test_assert_color (s, x_of (5900), 70, &run_dark);
  cairo_surface_destroy (s);
}

static void
test_hit (Fixture *f, gconstpointer data)
{
  CpelView view;
  guint slot = 99;
  gboolean state = TRUE;
  guint64 index = 99;
  CpelRGBA sel;
  cairo_surface_t *s;
  guint64 n;
  const CpelSpan *a;

  view_init (f, &view, &f->light);
  a = cpel_spans_get_track_spans (f->spans, 0, &n);
  g_assert_cmpuint (n, ==, 3);

  /* the child in the lower lane, the parent in the upper one */
  g_assert_true (cpel_view_span_hit_test (&view, WIDTH, x_of (2500), 46, &slot, &state,
                                          &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_false (state);
  g_assert_cmpuint (a[index].depth, ==, 1);
  g_assert_true (cpel_view_span_hit_test (&view, WIDTH, x_of (2500), 33, &slot, &state,
                                          &index));
  g_assert_cmpuint (a[index].depth, ==, 0);
  g_assert_cmpint (cpel_spans_begin_ns (f->spans, 0, &a[index]), ==, 1000);
  /* nothing under the parent's lane after the child */
  g_assert_false (cpel_view_span_hit_test (&view, WIDTH, x_of (5000), 46, &slot, &state,
                                           &index));
  g_assert_false (cpel_view_span_hit_test (&view, WIDTH, x_of (500), 33, &slot, &state,
                                           &index));
  /* a state */
  g_assert_true (cpel_view_span_hit_test (&view, WIDTH, x_of (5000), 70, &slot, &state,
                                          &index));
  g_assert_cmpuint (slot, ==, 1);
  g_assert_true (state);
  g_assert_cmpuint (index, ==, 1);
  /* dense: not picked */
  g_assert_false (cpel_view_span_hit_test (&view, WIDTH, x_of (5000), 88, &slot, &state,
                                           &index));

  /* the selected span outlined */
  g_assert_true (cpel_view_span_hit_test (&view, WIDTH, x_of (5000), 33, &slot, &state,
                                          &index));
  view.has_span_selection = TRUE;
  view.selected_span_slot = slot;
  view.selected_span_state = FALSE;
  view.selected_span_index = index;
  sel = f->light.selection;
  s = test_render (&view, WIDTH, HEIGHT);
  test_assert_color (s, x_of (5000), 30, &sel);
  cairo_surface_destroy (s);
}

/* Deeper than the row has lanes for (5 of 4.4 px in 22): four lanes, then
 * a grey "+n" band. */
static void
nested_func (guint64 i, TestEvent *e, gpointer data)
{
  /* sends of 1 at 0, 100, …, 700; recvs of len 1 at 9300, …, 10000 */
  e->track = 0;
  e->datum = 1;
  e->code = i < 8 ? CODE_SEND : CODE_RECV;
  e->t = i < 8 ? 100 * i : 9300 + 100 * (i - 8);
}

static void
test_overflow (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelFile) file = test_file_new_func (1, 16, nested_func, NULL);
  g_autoptr(GError) error = NULL;
  CpelSpans *spans = cpel_spans_derive (file, f->rules, NULL, NULL, &error);
  CpelView view;
  CpelRGBA io;
  cairo_surface_t *s;
  double px[3];

  g_assert_no_error (error);
  cpel_view_init (&view, file, &f->light);
  view.label_width = 100;
  view.ruler_height = 28;
  view.row_height = 24;
  view.t0 = 0;
  view.t1 = 10000;
  view.spans = spans;
  span_color (f, &f->light, "io", &io);
  s = test_render (&view, WIDTH, 60);
  /* lanes 0..3 the spans' colour, the band (y 46.6..51) grey */
  test_assert_color (s, x_of (5000), 31, &io);
  test_assert_color (s, x_of (5000), 44, &io);
  test_assert_not_color (s, x_of (5000), 49, &io);
  test_pixel (s, x_of (5000), 49, px);
  g_assert_cmpfloat (fabs (px[0] - px[1]) + fabs (px[1] - px[2]), <, 0.02);
  g_assert_cmpfloat (px[0], <, 0.9);
  cairo_surface_destroy (s);
  cpel_spans_free (spans);
}

/* The spans a filter lets through outlined in the accent colour, the
 * others dimmed (orphans never highlighted); a dense row's columns with a
 * highlighted span in the accent colour; light and dark. */
static void
test_highlight (Fixture *f, gconstpointer data)
{
  for (guint dark = 0; dark < 2; dark++)
    {
      const CpelPalette *pal = dark ? &f->dark : &f->light;
      g_autoptr(CpelSpanFilter) io_long = cpel_span_filter_new ("io", 5000, G_MAXINT64);
      g_autoptr(CpelSpanFilter) bursts = cpel_span_filter_new ("burst", 0, G_MAXINT64);
      g_autoptr(CpelSpanFilter) none = cpel_span_filter_new ("burst", 6, G_MAXINT64);
      CpelView view;
      CpelRGBA io, burst;
      cairo_surface_t *plain, *s;
      double a[3], b[3];

      view_init (f, &view, pal);
      span_color (f, pal, "io", &io);
      span_color (f, pal, "burst", &burst);
      plain = test_render (&view, WIDTH, HEIGHT);

      /* io of 7 us [1000, 8000) in; its child (1 us) and the orphan out */
      view.span_filter = io_long;
      s = test_render (&view, WIDTH, HEIGHT);
      test_assert_color (s, x_of (5000), 30, &pal->accent);
      test_assert_color (s, x_of (5000), 35, &io);
      test_assert_not_color (s, x_of (2600), 46, &io);
      test_assert_not_color (s, x_of (9030), 33, &io);
      /* dimmed: nearer the background than before */
      g_assert_cmpfloat (test_color_distance (s, x_of (2600), 46, &pal->background), <,
                         test_color_distance (plain, x_of (2600), 46, &pal->background));
      test_pixel (s, x_of (9030), 33, a);
      test_pixel (plain, x_of (9030), 33, b);
      g_assert_cmpfloat (fabs (a[0] - b[0]) + fabs (a[1] - b[1]) + fabs (a[2] - b[2]), >, 0.1);
      /* the dense row's spans are another name: dimmed */
      g_assert_cmpfloat (test_color_distance (s, x_of (5000), 88, &pal->background), <,
                         test_color_distance (plain, x_of (5000), 88, &pal->background));
      cairo_surface_destroy (s);

      /* every burst: the dense row's columns in the accent colour */
      view.span_filter = bursts;
      s = test_render (&view, WIDTH, HEIGHT);
      test_assert_color (s, x_of (5000), 88, &pal->accent);
      test_assert_not_color (s, x_of (5000), 33, &io);
      cairo_surface_destroy (s);

      /* a filter no span passes: everything dimmed, no accent */
      view.span_filter = none;
      s = test_render (&view, WIDTH, HEIGHT);
      test_assert_not_color (s, x_of (5000), 88, &pal->accent);
      test_assert_not_color (s, x_of (5000), 30, &pal->accent);
      test_pixel (s, x_of (5000), 88, a);
      test_pixel (plain, x_of (5000), 88, b);
      g_assert_cmpfloat (fabs (a[0] - b[0]) + fabs (a[1] - b[1]) + fabs (a[2] - b[2]), >, 0.05);
      cairo_surface_destroy (s);
      cairo_surface_destroy (plain);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add (path, Fixture, NULL, setup, func, teardown)
  ADD ("/render/spans/nested", test_nested);
  ADD ("/render/spans/states", test_states);
  ADD ("/render/spans/legend-room", test_legend_room);
  ADD ("/render/spans/snap", test_snap);
  ADD ("/render/spans/outside", test_outside);
  ADD ("/render/spans/dark", test_dark);
  ADD ("/render/spans/hit", test_hit);
  ADD ("/render/spans/overflow", test_overflow);
  ADD ("/render/spans/trace", test_trace);
  ADD ("/render/spans/coverage", test_coverage);
  ADD ("/render/spans/highlight", test_highlight);
  return g_test_run ();
}
