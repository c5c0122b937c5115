/* SPDX-License-Identifier: Apache-2.0 */
/* test-print.c — printing: the page drawn onto an image surface; PDF export */
#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-anomalies-window.h"
#include "cpel-anomaly-list.h"
#include "cpel-application.h"
#include "cpel-cut-dialog.h"
#include "cpel-event-type-row.h"
#include "cpel-event-types-window.h"
#include "cpel-print.h"
#include "cpel-stats-window.h"
#include "cpel-table.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-tools", (AppTestWriteFunc) data, 1100, 700, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

enum { DARK, LIGHT, COLOURED };

/* Any pixel in [x0, x1) × [y0, y1) that is dark, light or coloured. */
static gboolean
region_has (cairo_surface_t *surface, int x0, int y0, int x1, int y1, int what)
{
  const guint8 *data;
  int stride;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        guint32 p = *(const guint32 *) (data + y * stride + x * 4);
        int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
        int lum = (r * 3 + g * 6 + b) / 10;

        int sat = MAX (r, MAX (g, b)) - MIN (r, MIN (g, b));

        if ((what == DARK && lum < 90) || (what == LIGHT && lum > 200) || (what == COLOURED && sat > 60))
          return TRUE;
      }
  return FALSE;
}

static void
test_print (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelPalette dark;
  CpelView view;
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autofree char *header = NULL;
  g_autofree char *pdf_path = g_build_filename (f->dir, "print.pdf", NULL);
  g_autofree char *pdf = NULL;
  g_autoptr(GError) error = NULL;
  gsize pdf_len;
  const int W = 842, H = 595;

  cpel_timeline_set_range (timeline, 0, 5000, FALSE);
  header = cpel_print_header (f->window);
  g_assert_true (g_str_has_prefix (header, "capture.cpel — 0 ns – 5.000 µs"));

  /* The page from the draw-page code: a dark view prints light. */
  view = *cpel_timeline_get_view (timeline);
  cpel_palette_init_dark (&dark);
  view.palette = &dark;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cpel_print_draw_page (cr, W, H, &view, 1100, 600, header);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);

  /* Header text on top; the ruler and rows below it, light. */
  g_assert_true (region_has (surface, 0, 0, W / 2, 14, DARK));
  g_assert_false (region_has (surface, W / 2 + 200, 0, W, 12, DARK));
  g_assert_false (region_has (surface, 0, 0, W, 14, COLOURED));
  g_assert_true (region_has (surface, 200, 60, W, H, LIGHT));
  /* The track labels, dark on light, in the label column. */
  g_assert_true (region_has (surface, 0, 50, 100, 120, DARK));
  /* Events drawn: coloured ticks right of the label column (160 of 1100
   * px on screen, scaled to the page). */
  g_assert_true (region_has (surface, 130, 50, W, H, COLOURED));
  g_assert_false (region_has (surface, 0, 50, 100, H, COLOURED));
  /* Fit to the page: the view fills the width (the ruler's background
   * reaches the right edge below the header). */
  g_assert_true (region_has (surface, W - 3, 30, W, 60, LIGHT));
  /* To look at the page: CPEL_TEST_SHOT_DIR=dir. */
  if (g_getenv ("CPEL_TEST_SHOT_DIR") != NULL)
    {
      g_autofree char *png = g_build_filename (g_getenv ("CPEL_TEST_SHOT_DIR"), "print-page.png", NULL);

      g_assert_cmpint (cairo_surface_write_to_png (surface, png), ==, CAIRO_STATUS_SUCCESS);
    }
  cairo_surface_destroy (surface);

  /* Without a header the view starts at the top. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_paint (cr);
  cpel_print_draw_page (cr, W, H, &view, 1100, 600, NULL);
  cairo_destroy (cr);
  g_assert_true (region_has (surface, 0, 0, W, 3, LIGHT));
  cairo_surface_destroy (surface);

  /* Through GtkPrintOperation into a PDF. */
  g_assert_true (cpel_print_window (f->window, pdf_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (pdf_path, &pdf, &pdf_len, NULL));
  g_assert_cmpuint (pdf_len, >, 1000);
  g_assert_true (g_str_has_prefix (pdf, "%PDF"));
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), "print"));
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/print");

  app = app_test_new_application ();

#define ADD(path, func, write) \
  g_test_add ("/app/print/" path, Fixture, (gconstpointer) (write), fixture_setup, func, \
              fixture_teardown)
  ADD ("page", test_print, app_test_write_regular);
#undef ADD
  return app_test_run (&app);
}
