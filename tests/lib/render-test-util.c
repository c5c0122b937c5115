/* SPDX-License-Identifier: Apache-2.0 */
/* render-test-util.c — small CPEL files built with the writer, and pixel
 * checks */
#include "render-test-util.h"

#include "cpel-loader.h"

GBytes *
test_write_capture (const char    *path,
                    guint          n_tracks,
                    guint64        n_events,
                    TestEventFunc  func,
                    gpointer       data)
{
  g_autoptr(GError) error = NULL;
  /* On disk big-endian and dated, as g2 writes them; in memory little-endian. */
  g_autoptr(CpelWriter) w = cpel_writer_new (path, path == NULL, path != NULL ? 1700000000 : 0, &error);
  guint table;

  g_assert_no_error (error);
  table = cpel_writer_add_string_table (w, "FileStrtab");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, CODE_SEND, "send", "%d");
  cpel_writer_add_event_def (w, CODE_RECV, "recv", "len %d");
  cpel_writer_add_event_def (w, CODE_IDLE, "idle", NULL);
  cpel_writer_begin_track_defs (w, table);
  for (guint i = 0; i < n_tracks; i++)
    cpel_writer_add_track_def (w, i, "thread %d");
  cpel_writer_begin_events (w, table, 1000000000u, (guint32) n_events);
  for (guint64 i = 0; i < n_events; i++)
    {
      TestEvent ev;

      func (i, &ev, data);
      cpel_writer_add_event (w, ev.t, ev.track, ev.code, ev.datum);
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return path == NULL ? cpel_writer_steal_bytes (w) : NULL;
}

CpelFile *
test_file_new_func (guint n_tracks, guint64 n_events, TestEventFunc func, gpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = test_write_capture (NULL, n_tracks, n_events, func, data);
  CpelFile *file;

  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

void
test_events_array_func (guint64 i, TestEvent *event, gpointer data)
{
  *event = ((const TestEvent *) data)[i];
}

CpelFile *
test_file_new (guint n_tracks, const TestEvent *events, guint n_events)
{
  return test_file_new_func (n_tracks, n_events, test_events_array_func, (gpointer) events);
}

/* An image surface with the view drawn on it (scale 1). */
cairo_surface_t *
test_render (const CpelView *view, int width, int height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  cpel_render_view (cr, width, height, view);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (g_getenv ("CPEL_TEST_SAVE_DIR") != NULL)
    {
      /* For looking at a failing test: every rendered frame, numbered. */
      static int n = 0;
      g_autofree char *path = g_strdup_printf ("%s/%s-%02d.png", g_getenv ("CPEL_TEST_SAVE_DIR"),
                                               g_get_prgname (), n++);
      cairo_surface_write_to_png (surface, path);
    }
  return surface;
}

/* Pixel (x, y) as opaque RGB in [0,1] (the surfaces are opaque). */
void
test_pixel (cairo_surface_t *surface, int x, int y, double rgb[3])
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint32 px;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));
  memcpy (&px, data + (gsize) y * stride + (gsize) x * 4, 4);
  rgb[0] = ((px >> 16) & 0xff) / 255.0;
  rgb[1] = ((px >> 8) & 0xff) / 255.0;
  rgb[2] = (px & 0xff) / 255.0;
}

double
test_luma (cairo_surface_t *surface, int x, int y)
{
  double rgb[3];
  test_pixel (surface, x, y, rgb);
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

/* Distance between the pixel and an opaque colour (max over channels). */
double
test_color_distance (cairo_surface_t *surface, int x, int y, const CpelRGBA *c)
{
  double rgb[3];
  test_pixel (surface, x, y, rgb);
  return MAX (fabs (rgb[0] - c->r), MAX (fabs (rgb[1] - c->g), fabs (rgb[2] - c->b)));
}

/* The events of `code` (a code number or name), searched. */
CpelSearchResult *
test_search_code (CpelFile *file, const char *code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelQuery) query = cpel_query_new (file, CPEL_SEARCH_CODE, code, FALSE, &error);
  CpelSearchResult *result;

  g_assert_no_error (error);
  result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return result;
}
