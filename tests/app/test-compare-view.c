/* SPDX-License-Identifier: Apache-2.0 */
/* test-compare-view.c — the compare page around its pane: the overview
 * strip of both captures (following and moving the compare range), the
 * status line (range, cursor, a measurement's Δt), and spans and states
 * drawn in both panes, B's by B's own span settings */
#include "app-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cpel-compare-pane.h"
#include "cpel-overview-strip.h"
#include "cpel-span-histogram-window.h"
#include "cpel-span-histogram.h"
#include "cpel-test-node-spans.h"
#include "cpel-test-pair.h"
#include "cpel-views.h"
#include "cpel-window-test.h"

typedef struct
{
  CpelApplication *app;
  CpelWindow      *window;
  char            *dir;
  char            *a;
  char            *b;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  gboolean spans = GPOINTER_TO_INT (data);

  f->dir = g_dir_make_tmp ("cpel-compare-view-XXXXXX", NULL);
  f->a = g_build_filename (f->dir, "a.cpel", NULL);
  f->b = g_build_filename (f->dir, "b.cpel", NULL);
  if (spans)
    {
      for (guint i = 0; i < 2; i++)
        {
          g_autoptr(GArray) planted = cpel_test_node_spans_planted (i == 1);

          cpel_test_node_spans_write (i == 0 ? f->a : f->b,
                                      (const CpelTestNodeSpan *) planted->data, planted->len);
        }
    }
  else
    cpel_test_pair_write_files (f->a, f->b);
  f->app = app_test_new_application ();
  f->window = cpel_window_new (f->app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 600);
  gtk_window_present (GTK_WINDOW (f->window));
  app_test_open_and_wait (f->window, f->a);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_free (f->a);
  g_free (f->b);
  app_test_fixture_cleanup (f->app, f->dir, NULL);
  g_clear_object (&f->app);
}

static void
compare_and_wait (Fixture *f, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  cpel_window_compare_with (f->window, file);
  app_test_wait_until (cpel_window_is_comparing (f->window)
                       && cpel_window_get_compare_file (f->window) != NULL, 60);
  g_assert_true (cpel_window_is_comparing (f->window));
  app_test_wait_drawn (cpel_window_get_compare_pane (f->window));
}

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  return *(const guint32 *) (cairo_image_surface_get_data (s)
                             + (gsize) y * cairo_image_surface_get_stride (s) + (gsize) x * 4)
         & 0xffffff;
}

/* The widget as drawn now (after the redraw pending, if any). */
static cairo_surface_t *
image_of (GtkWidget *widget)
{
  cairo_surface_t *image = NULL;

  app_test_wait_drawn (widget);
  app_test_wait_until ((image = app_test_widget_image (widget)) != NULL, 30);
  g_assert_nonnull (image);
  return image;
}

/* The strip shows both captures on one axis with the compare range's
 * window on it, follows the session's compare range, and a click on it
 * centres the range there (one step back in the compare history). */
static void
test_overview (Fixture *f, gconstpointer data)
{
  CpelComparePane *pane;
  CpelSession *session;
  const CpelCompareView *view;
  GtkWidget *strip;
  cairo_surface_t *first, *last;
  gint64 e0, e1, span;
  double sw;
  int sh, x_first, x_last;

  compare_and_wait (f, f->b);
  pane = CPEL_COMPARE_PANE (cpel_window_get_compare_pane (f->window));
  session = cpel_compare_pane_get_session (pane);
  strip = cpel_window_get_compare_strip (f->window);
  g_assert_nonnull (strip);
  g_assert_true (gtk_widget_get_mapped (strip));
  g_assert_true (cpel_overview_strip_get_compare_pane (CPEL_OVERVIEW_STRIP (strip)) == pane);
  app_test_wait_allocated (strip, 100);
  sw = gtk_widget_get_width (strip);
  sh = gtk_widget_get_height (strip);
  g_assert_cmpint (sh, >, 10);

  /* the axis: from A's first event to the later capture's end */
  view = cpel_compare_pane_get_view (pane);
  cpel_compare_view_overview_extent (view, &e0, &e1);
  g_assert_cmpint (e0, ==, 0);
  g_assert_cmpint (e1, ==, MAX (cpel_file_get_duration (view->a.file),
                                cpel_file_get_duration (view->b.file)) + 1);

  /* a window on the first fifth, then on the last: unveiled where it is */
  span = (e1 - e0) / 5;
  cpel_session_set_compare_range (session, &(CpelRange) { e0, e0 + span }, CPEL_SESSION_STEP);
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->a.t0, ==, e0);
  first = image_of (strip);
  cpel_session_set_compare_range (session, &(CpelRange) { e1 - span, e1 }, CPEL_SESSION_STEP);
  last = image_of (strip);
  x_first = (int) cpel_render_compare_overview_time_to_x (view, sw, e0 + span / 2);
  x_last = (int) cpel_render_compare_overview_time_to_x (view, sw, e1 - span / 2);
  for (int y = 4; y < sh - 4; y += sh / 4)
    {
      g_assert_cmphex (pixel (first, x_first, y), !=, pixel (last, x_first, y));
      g_assert_cmphex (pixel (first, x_last, y), !=, pixel (last, x_last, y));
    }
  /* each half starts with its side's mark: A's accent above, B's below */
  g_assert_cmphex (pixel (first, 1, sh / 4), !=, pixel (first, 1, sh * 3 / 4));
  cairo_surface_destroy (first);
  cairo_surface_destroy (last);

  /* a click centres the range there, the span kept; Back returns */
  if (app_test_can_send_input ())
    {
      gint64 target = cpel_render_compare_overview_x_to_time (view, sw, sw * 0.25);
      const CpelRange *r;

      cpel_session_set_compare_range (session, &(CpelRange) { e1 - span, e1 },
                                      CPEL_SESSION_STEP);
      app_test_pointer_to (strip, sw * 0.25, sh / 2.0);
      app_test_xdo ("click", "1", NULL);
      app_test_wait_until (cpel_session_get_compare_range (session)->t0 != e1 - span, 30);
      r = cpel_session_get_compare_range (session);
      g_assert_cmpint (r->t1 - r->t0, ==, span);
      g_assert_cmpint (ABS ((r->t0 + r->t1) / 2 - target), <=, (e1 - e0) / (gint64) sw + 2);
      /* the pane follows */
      g_assert_cmpint (cpel_compare_pane_get_view (pane)->a.t0, ==, r->t0);
      g_assert_true (cpel_session_compare_go_back (session));
      g_assert_cmpint (cpel_session_get_compare_range (session)->t0, ==, e1 - span);
    }
}

/* The status line while comparing: the compare range (not the single
 * view's), the cursor's time, a measurement's Δt with the events of A and
 * of B in it; its zoom buttons' actions zoom the compare view. */
static void
test_status (Fixture *f, gconstpointer data)
{
  CpelComparePane *pane;
  GtkWidget *widget;
  const CpelCompareView *view;
  const char *text;
  g_autofree char *span = NULL;

  compare_and_wait (f, f->b);
  widget = cpel_window_get_compare_pane (f->window);
  pane = CPEL_COMPARE_PANE (widget);

  /* the zoom actions (and buttons) act on the compare view */
  cpel_compare_pane_set_range (pane, 0, 1600);
  app_test_activate_action (GTK_WIDGET (f->window), "zoom-in", NULL);
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->a.t0, ==, 400);
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->a.t1, ==, 1200);
  app_test_activate_action (GTK_WIDGET (f->window), "zoom-out", NULL);
  g_assert_cmpint (cpel_compare_pane_get_view (pane)->a.t1, ==, 1600);

  cpel_compare_pane_set_range (pane, 100, 900);
  text = cpel_window_get_range_text (f->window);
  span = cpel_time_format (800);
  g_assert_nonnull (strstr (text, "–"));
  g_assert_nonnull (strstr (text, span));
  g_assert_true (g_str_has_suffix (text, ")"));

  /* in [200, 600] after each first event (cpel-test-pair.h): A's "same" 5,
   * "double" 3, "slow" 2; B's "same" 5, "double" 5, "slow" 2, "only-b" 1 */
  g_assert_cmpstr (cpel_window_get_measure_text (f->window), ==, "");
  cpel_compare_pane_set_measure (pane, 200, 600);
  text = cpel_window_get_measure_text (f->window);
  g_assert_true (g_str_has_prefix (text, "Δt 400 ns · "));
  g_assert_nonnull (strstr (text, "A: 10 events"));
  g_assert_nonnull (strstr (text, "B: 13 events"));
  cpel_compare_pane_clear_measure (pane);
  g_assert_cmpstr (cpel_window_get_measure_text (f->window), ==, "");

  /* the cursor's time, as the ruler reads it */
  view = cpel_compare_pane_get_view (pane);
  if (app_test_can_send_input ())
    {
      double width = gtk_widget_get_width (widget);

      app_test_pointer_to (widget, cpel_view_time_to_x (&view->a, width, 500),
                           gtk_widget_get_height (widget) - 5);
      app_test_wait_until (cpel_compare_pane_get_cursor (pane, NULL), 30);
      text = cpel_window_get_cursor_text (f->window);
      g_assert_true (g_str_has_prefix (text, "Cursor "));
      g_assert_nonnull (strstr (text, "ns"));
    }

  /* back to the single view: its own status line */
  cpel_window_close_compare (f->window);
  g_assert_null (strstr (cpel_window_get_range_text (f->window), span));
}

/* Pixels that differ between two images inside rows [y0, y1). */
static guint
count_differences (cairo_surface_t *a, cairo_surface_t *b, int x0, int y0, int y1)
{
  guint n = 0;

  for (int y = MAX (y0, 0); y < MIN (y1, cairo_image_surface_get_height (a)); y++)
    for (int x = x0; x < cairo_image_surface_get_width (a); x++)
      n += pixel (a, x, y) != pixel (b, x, y);
  return n;
}

static void
wait_compare_spans (CpelSession *session)
{
  app_test_wait_until (cpel_session_get_compare_spans (session) != NULL
                       && cpel_session_get_spans (session) != NULL, 60);
  g_assert_nonnull (cpel_session_get_compare_spans (session));
  g_assert_nonnull (cpel_session_get_spans (session));
}

/* Spans and states are drawn in A's rows and in B's, as Display ▸ Spans
 * and States says, and exported so; B's spans follow B's own settings (here: every
 * built-in rule switched off for B, none for A). */
static void
test_spans (Fixture *f, gconstpointer data)
{
  CpelComparePane *pane;
  GtkWidget *widget;
  CpelSession *session;
  const CpelCompareView *view;
  cairo_surface_t *shown, *hidden;
  double top_a, top_b, ph;
  int lw;

  compare_and_wait (f, f->b);
  widget = cpel_window_get_compare_pane (f->window);
  pane = CPEL_COMPARE_PANE (widget);
  session = cpel_compare_pane_get_session (pane);
  wait_compare_spans (session);
  g_assert_cmpuint (cpel_spans_get_n_spans (cpel_session_get_compare_spans (session)), >, 0);
  cpel_compare_pane_zoom_fit (pane);
  view = cpel_compare_pane_get_view (pane);
  g_assert_true (view->b.spans == cpel_session_get_compare_spans (session));
  cpel_compare_view_pane (view, gtk_widget_get_height (widget), CPEL_COMPARE_A, &top_a, &ph);
  cpel_compare_view_pane (view, gtk_widget_get_height (widget), CPEL_COMPARE_B, &top_b, &ph);
  lw = (int) view->a.label_width + 1;

  shown = image_of (widget);
  cpel_session_set_show_spans (session, FALSE);
  g_assert_null (cpel_compare_pane_get_view (pane)->b.spans);
  hidden = image_of (widget);
  /* span bars in both panes' rows */
  g_assert_cmpuint (count_differences (shown, hidden, lw, (int) top_a, (int) top_b), >, 200);
  g_assert_cmpuint (count_differences (shown, hidden, lw, (int) top_b, (int) (top_b + ph)),
                    >, 200);
  cairo_surface_destroy (shown);
  cairo_surface_destroy (hidden);

  /* Export View draws them too */
  {
    g_autofree char *with = g_build_filename (f->dir, "with.png", NULL);
    g_autofree char *without = g_build_filename (f->dir, "without.png", NULL);
    g_autoptr(GError) error = NULL;

    g_assert_true (cpel_window_export (f->window, without, 1, TRUE, &error));
    cpel_session_set_show_spans (session, TRUE);
    g_assert_true (cpel_window_export (f->window, with, 1, TRUE, &error));
    g_assert_no_error (error);
    shown = cairo_image_surface_create_from_png (with);
    hidden = cairo_image_surface_create_from_png (without);
    g_assert_cmpuint (count_differences (shown, hidden, lw, (int) top_b, (int) (top_b + ph)),
                      >, 200);
    cairo_surface_destroy (shown);
    cairo_surface_destroy (hidden);
    g_unlink (with);
    g_unlink (without);
  }

  /* B's settings switch every built-in rule off: no spans in B, A's kept */
  {
    g_autoptr(CpelViews) views = cpel_views_new (f->b);
    g_auto(GStrv) ids = cpel_span_rules_dup_builtin_ids ();
    g_autoptr(GError) error = NULL;
    g_autoptr(GFile) file = g_file_new_for_path (f->b);

    cpel_views_set_span_settings (views, NULL, (const char *const *) ids);
    g_assert_true (cpel_views_save (views, &error));
    g_assert_no_error (error);
    cpel_window_close_compare (f->window);
    compare_and_wait (f, f->b);
  }
  wait_compare_spans (session);
  g_assert_cmpuint (cpel_spans_get_n_spans (cpel_session_get_compare_spans (session)), ==, 0);
  g_assert_cmpuint (cpel_spans_get_n_spans (cpel_session_get_spans (session)), >, 0);
  cpel_compare_pane_zoom_fit (pane);
  shown = image_of (widget);
  cpel_session_set_show_spans (session, FALSE);
  hidden = image_of (widget);
  g_assert_cmpuint (count_differences (shown, hidden, lw, (int) top_a, (int) top_b), >, 200);
  g_assert_cmpuint (count_differences (shown, hidden, lw, (int) top_b, (int) (top_b + ph)),
                    ==, 0);
  cairo_surface_destroy (shown);
  cairo_surface_destroy (hidden);
}

/* Comparing, a span name's distribution overlays B's histogram on A's
 * bins, and says both captures' figures and their changes (the planted
 * regression: ip4-lookup 100 x 1 µs in A, 90 x 1 µs and 10 x 2 µs in B). */
static void
test_distribution (Fixture *f, gconstpointer data)
{
  CpelSession *session;
  CpelSpanHistogramWindow *window;
  const CpelSpanHistogram *ha, *hb;
  cairo_surface_t *image = NULL;
  const char *text;

  compare_and_wait (f, f->b);
  session = cpel_compare_pane_get_session (CPEL_COMPARE_PANE (
                                             cpel_window_get_compare_pane (f->window)));
  wait_compare_spans (session);
  window = cpel_span_histogram_window_new (session, GTK_WINDOW (f->window), "ip4-lookup",
                                           G_MININT64, G_MAXINT64, NULL, 0, NULL);
  gtk_window_present (GTK_WINDOW (window));
  app_test_wait_until (!cpel_span_histogram_window_is_busy (window), 60);
  ha = cpel_span_histogram_window_get_histogram (window);
  hb = cpel_span_histogram_window_get_histogram_b (window);
  g_assert_nonnull (ha);
  g_assert_nonnull (hb);
  g_assert_cmpuint (ha->n_bins, ==, hb->n_bins);
  for (guint i = 0; i <= ha->n_bins; i++)
    g_assert_cmpint (ha->edges[i], ==, hb->edges[i]);
  g_assert_cmpuint (ha->counts[0], ==, 100);
  g_assert_cmpuint (hb->counts[0], ==, 90);
  g_assert_cmpuint (hb->counts[hb->n_bins - 1], ==, 10);
  text = cpel_span_histogram_window_get_compare_text (window);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "A 100 · B 100 spans (Δ 0)"));
  g_assert_nonnull (strstr (text, "p50 1 µs → 1 µs (0.0 %)"));
  g_assert_nonnull (strstr (text, "p99 1 µs → 2 µs (+100.0 %)"));
  g_assert_nonnull (strstr (text, "mean 1 µs → 1.1 µs (+10.0 %)"));
  /* drawn: B's bars in its colour at the last bin */
  {
    GtkWidget *area = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                  CPEL_TYPE_SPAN_HISTOGRAM_WINDOW,
                                                                  "area"));

    app_test_wait_drawn (area);
    app_test_wait_until ((image = app_test_widget_image (area)) != NULL, 30);
    {
      double px, py, pw, ph;
      int w = gtk_widget_get_width (area), h = gtk_widget_get_height (area);

      cpel_span_histogram_plot_rect (w, h, &px, &py, &pw, &ph);
      /* the last bin's bar (B only, the bin's right half) differs from the
       * background above it */
      int x = (int) (px + pw - pw / hb->n_bins / 4);

      g_assert_cmphex (pixel (image, x, (int) (py + ph - 2)), !=, pixel (image, x, (int) py + 1));
    }
    cairo_surface_destroy (image);
  }
  /* the scatter holds B's spans too: its 10 slow ones are where B's are */
  g_assert_nonnull (cpel_span_histogram_window_get_scatter_b (window));
  g_assert_cmpuint (cpel_span_list_get_n (cpel_span_histogram_window_get_scatter_b (window)), ==,
                    100);
  if (g_getenv ("CPEL_TEST_SHOT_DIR") != NULL)
    {
      g_autofree char *shot = g_build_filename (g_getenv ("CPEL_TEST_SHOT_DIR"),
                                                "compare-distribution.png", NULL);
      app_test_wait_drawn (cpel_span_histogram_window_get_scatter_area (window));
      image = app_test_widget_image (GTK_WIDGET (window));
      if (image != NULL)
        cairo_surface_write_to_png (image, shot);
      g_clear_pointer (&image, cairo_surface_destroy);
    }
  gtk_window_destroy (GTK_WINDOW (window));

  /* not comparing: A's alone */
  cpel_window_close_compare (f->window);
  window = cpel_span_histogram_window_new (session, GTK_WINDOW (f->window), "ip4-lookup",
                                           G_MININT64, G_MAXINT64, NULL, 0, NULL);
  app_test_wait_until (!cpel_span_histogram_window_is_busy (window), 60);
  g_assert_nonnull (cpel_span_histogram_window_get_histogram (window));
  g_assert_null (cpel_span_histogram_window_get_histogram_b (window));
  g_assert_null (cpel_span_histogram_window_get_scatter_b (window));
  g_assert_null (cpel_span_histogram_window_get_compare_text (window));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/compare-view");
  g_test_add ("/app/compare-view/overview", Fixture, GINT_TO_POINTER (FALSE), fixture_setup,
              test_overview, fixture_teardown);
  g_test_add ("/app/compare-view/status", Fixture, GINT_TO_POINTER (FALSE), fixture_setup,
              test_status, fixture_teardown);
  g_test_add ("/app/compare-view/spans", Fixture, GINT_TO_POINTER (TRUE), fixture_setup,
              test_spans, fixture_teardown);
  g_test_add ("/app/compare-view/distribution", Fixture, GINT_TO_POINTER (TRUE), fixture_setup,
              test_distribution, fixture_teardown);
  return g_test_run ();
}
