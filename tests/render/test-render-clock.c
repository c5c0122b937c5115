/* SPDX-License-Identifier: Apache-2.0 */
/* test-render-clock.c — the ruler on a capture's own clock (CpelView.clock):
 * its labels (perf's seconds, the wall clock's time of day in UTC), its
 * ticks round on that clock, the rows drawn as before. */
#include "render-test-util.h"

#define W 800
#define H 100

static CpelPalette light;

static const TestEvent events[] = {
  { 0, 0, CODE_SEND, 1 },
  { 400000, 1, CODE_RECV, 5 },
  { 1000000, 0, CODE_IDLE, 0 },
};

static void
test_labels (void)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  /* the step's decimals, cut as perf script cuts */
  a = cpel_render_format_clock_tick (CPEL_CLOCK_SECONDS, G_GINT64_CONSTANT (2584361365612),
                                     100000);
  g_assert_cmpstr (a, ==, "2584.3613 s");
  b = cpel_render_format_clock_tick (CPEL_CLOCK_SECONDS, G_GINT64_CONSTANT (2584000000000),
                                     G_GINT64_CONSTANT (2000000000));
  g_assert_cmpstr (b, ==, "2584 s");
  /* the wall clock: the time of day, UTC */
  c = cpel_render_format_clock_tick (CPEL_CLOCK_WALL, G_GINT64_CONSTANT (1795684451326631721),
                                     1000000);
  g_assert_cmpstr (c, ==, "09:14:11.326");
  d = cpel_render_format_clock_tick (CPEL_CLOCK_WALL, G_GINT64_CONSTANT (1795684451326631721), 1);
  g_assert_cmpstr (d, ==, "09:14:11.326631721");
  g_assert_cmpuint (cpel_render_clock_decimals (5), ==, 9);
  g_assert_cmpuint (cpel_render_clock_decimals (200000), ==, 4);
  g_assert_cmpuint (cpel_render_clock_decimals (G_GINT64_CONSTANT (50000000000)), ==, 0);
}

/* Pixel columns of the ruler's major ticks (their lower part, below the
 * labels and above the minor ticks): unlike the ruler's background. */
static GArray *
tick_columns (cairo_surface_t *s, const CpelView *view)
{
  GArray *cols = g_array_new (FALSE, FALSE, sizeof (int));
  int y = (int) (view->ruler_height - 6);
  double bg = test_luma (s, W - 1, 1);

  for (int x = (int) view->label_width; x < W; x++)
    if (fabs (test_luma (s, x, y) - bg) > 0.15)
      g_array_append_val (cols, x);
  return cols;
}

/* The same capture with the ruler on a clock whose t = 0 reads
 * 2584.361365612 s: other labels, ticks where that clock is round (not at
 * time 0), the rows alike. */
static void
test_ruler (void)
{
  g_autoptr(CpelFile) file = test_file_new (2, events, G_N_ELEMENTS (events));
  CpelView plain, clock;
  cairo_surface_t *sp, *sc;
  guint64 rows_differ = 0, ruler_differ = 0;
  g_autoptr(GArray) cols_plain = NULL;
  g_autoptr(GArray) cols_clock = NULL;

  cpel_view_init (&plain, file, &light);
  plain.t0 = 0;
  plain.t1 = 1000001;
  clock = plain;
  clock.clock = CPEL_CLOCK_SECONDS;
  clock.clock_origin = G_GINT64_CONSTANT (2584361365612);

  sp = test_render (&plain, W, H);
  sc = test_render (&clock, W, H);
  for (int y = 0; y < H; y++)
    for (int x = (int) plain.label_width; x < W; x++)
      {
        gboolean differ = test_luma (sp, x, y) != test_luma (sc, x, y);

        if (y < plain.ruler_height)
          ruler_differ += differ;
        else
          rows_differ += differ;
      }
  g_assert_cmpuint (ruler_differ, >, 50);
  /* the grid lines follow the ticks; the events are where they were */
  cols_plain = tick_columns (sp, &plain);
  cols_clock = tick_columns (sc, &clock);
  g_assert_cmpuint (cols_plain->len, >, 0);
  g_assert_cmpuint (cols_clock->len, >, 0);
  /* plain: a tick at time 0, the left edge of the timeline */
  g_assert_cmpint (g_array_index (cols_plain, int, 0), <=, (int) plain.label_width + 1);
  /* on the clock 0 reads 2584.361365612: the first round tick comes later */
  g_assert_cmpint (g_array_index (cols_clock, int, 0), >, (int) plain.label_width + 2);
  g_test_message ("rows differ in %" G_GUINT64_FORMAT " pixels (grid lines)", rows_differ);
  cairo_surface_destroy (sp);
  cairo_surface_destroy (sc);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  cpel_palette_init_light (&light);
  g_test_add_func ("/render/ruler/clock-labels", test_labels);
  g_test_add_func ("/render/ruler/clock", test_ruler);
  return g_test_run ();
}
