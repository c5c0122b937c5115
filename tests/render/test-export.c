/* SPDX-License-Identifier: Apache-2.0 */
/* test-export.c — PNG / SVG / PDF export: sizes, formats, atomic writes,
 * the view's colour and summary modes */
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>

#include "cpel-test-util.h"
#include "render-test-util.h"

static CpelPalette light;

static const TestEvent events[] = {
  { 0, 0, CODE_SEND, 1 },
  { 1000, 1, CODE_RECV, 5 },
  { 1500, 0, CODE_IDLE, 0 },
};

typedef struct
{
  char     *dir;
  CpelFile *file;
  CpelView  view;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("cpel-export-XXXXXX", &error);
  g_assert_no_error (error);
  f->file = test_file_new (2, events, G_N_ELEMENTS (events));
  cpel_view_init (&f->view, f->file, &light);
  f->view.t1 = 2000;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_autoptr(GDir) d = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (f->dir, name, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        g_rmdir (p);
      else
        g_unlink (p);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_object_unref (f->file);
}

static void
test_png (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "view.png", NULL);
  cairo_surface_t *s;

  g_assert_true (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 800, 300, 1, path, FALSE, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, 800);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 300);
  /* The view is in it: the ruler background at the top right. */
  test_assert_color (s, 790, 2, &light.ruler_bg);
  cairo_surface_destroy (s);
  /* Only the file: the temp file is gone. */
  g_assert_cmpuint (cpel_test_count_entries (f->dir), ==, 1);
}

static void
test_png_hidpi (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "view@2.png", NULL);
  g_autofree char *path15 = g_build_filename (f->dir, "view@1.5.png", NULL);
  cairo_surface_t *s;

  g_assert_true (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 640, 200, 2, path, FALSE, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, 1280);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 400);
  /* The same layout at twice the size: t = 1000 of [0, 2000) on the
   * 480 px timeline is at x = 160 + 240, in row 1; device x 800. */
  {
    CpelRGBA c;
    cpel_palette_get_type_color (&light, f->file, CODE_RECV, &c);
    test_assert_color (s, 800, 2 * (28 + 24 + 6), &c);
  }
  cairo_surface_destroy (s);

  g_assert_true (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 641, 201, 1.5, path15, FALSE,
                                     &error));
  s = cairo_image_surface_create_from_png (path15);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, 962);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 302);
  cairo_surface_destroy (s);
}

static void
test_no_overwrite (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "old.png", NULL);
  g_autofree char *contents = NULL;
  cairo_surface_t *s;

  g_assert_true (g_file_set_contents (path, "precious", -1, NULL));
  g_assert_false (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 100, 100, 1, path, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "precious");
  g_assert_cmpuint (cpel_test_count_entries (f->dir), ==, 1);

  /* With overwrite: replaced by a PNG. */
  g_clear_error (&error);
  g_assert_true (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 100, 50, 1, path, TRUE, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 50);
  cairo_surface_destroy (s);
  g_assert_cmpuint (cpel_test_count_entries (f->dir), ==, 1);
}

static void
test_failure_leaves_nothing (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sub = g_build_filename (f->dir, "sub", NULL);
  g_autofree char *missing = g_build_filename (f->dir, "no-such-dir", "x.png", NULL);
  g_autofree char *ok = g_build_filename (f->dir, "x.png", NULL);

  /* The target is a directory: the rename fails, the directory stays and
   * the temp file is removed. */
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_false (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 100, 100, 1, sub, TRUE, &error));
  g_assert_nonnull (error);
  g_assert_true (g_file_test (sub, G_FILE_TEST_IS_DIR));
  g_assert_cmpuint (cpel_test_count_entries (f->dir), ==, 1);
  g_clear_error (&error);

  /* Without overwrite the directory is an existing file. */
  g_assert_false (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 100, 100, 1, sub, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);

  /* No directory to write in. */
  g_assert_false (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 100, 100, 1, missing, FALSE,
                                      &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Bad sizes. */
  g_assert_false (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 0, 100, 1, ok, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 20000, 100, 2, ok, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 100, 100, 0, ok, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (g_file_test (ok, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (cpel_test_count_entries (f->dir), ==, 1);
}

static void
assert_file_starts (const char *path, const char *prefix)
{
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, >, strlen (prefix));
  g_assert_true (g_str_has_prefix (contents, prefix));
}

static gboolean
has_bytes (const char *data, gsize len, const char *needle)
{
  gsize n = strlen (needle);
  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (data + i, needle, n) == 0)
      return TRUE;
  return FALSE;
}

static void
test_svg_pdf (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *svg = g_build_filename (f->dir, "view.svg", NULL);
  g_autofree char *pdf = g_build_filename (f->dir, "view.pdf", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  const char *mediabox = "/MediaBox [ 0 0 600 225 ]";

  g_assert_true (cpel_render_export (&f->view, CPEL_EXPORT_SVG, 800, 300, 1, svg, FALSE, &error));
  g_assert_no_error (error);
  assert_file_starts (svg, "<?xml");
  g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_nonnull (strstr (contents, "width=\"800"));
  g_assert_nonnull (strstr (contents, "</svg>"));

  g_assert_true (cpel_render_export (&f->view, CPEL_EXPORT_PDF, 800, 300, 1, pdf, FALSE, &error));
  g_assert_no_error (error);
  assert_file_starts (pdf, "%PDF-");
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (pdf, &contents, &len, NULL));
  /* 800 × 300 px at 96 dpi = 600 × 225 pt (the file holds binary streams). */
  g_assert_true (has_bytes (contents, len, mediabox));
  g_assert_cmpuint (cpel_test_count_entries (f->dir), ==, 2);
}

static void
test_format_for_path (void)
{
  CpelExportFormat format = 99;

  g_assert_true (cpel_render_export_format_for_path ("a/b.png", &format));
  g_assert_cmpint (format, ==, CPEL_EXPORT_PNG);
  g_assert_true (cpel_render_export_format_for_path ("B.SVG", &format));
  g_assert_cmpint (format, ==, CPEL_EXPORT_SVG);
  g_assert_true (cpel_render_export_format_for_path ("x.Pdf", &format));
  g_assert_cmpint (format, ==, CPEL_EXPORT_PDF);
  g_assert_false (cpel_render_export_format_for_path ("x.jpg", &format));
  g_assert_false (cpel_render_export_format_for_path ("png", &format));
}

/* A disk that fills up mid-write (simulated with RLIMIT_FSIZE, which makes
 * writes past the limit fail with EFBIG): replacing an existing file fails,
 * the old file is intact and no temporary file is left. */
static void
test_disk_full (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "view.png", NULL);
  static const char old_contents[] = "the user's old file";

  g_assert_true (g_file_set_contents (path, old_contents, -1, NULL));
  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      struct rlimit limit = { 2048, 2048 };
      gboolean ok;

      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
      ok = cpel_render_export (&f->view, CPEL_EXPORT_PNG, 1600, 1200, 1, path, TRUE, &error);
      g_assert_false (ok);
      g_assert_nonnull (error);
      /* the subprocess has its own fixture (directory): check there */
      {
        g_autofree char *contents = NULL;

        g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
        g_assert_cmpstr (contents, ==, old_contents);
        g_assert_cmpuint (cpel_test_count_entries (f->dir), ==, 1);
      }
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* Pixels of two same-sized ARGB32 images that differ. */
static guint
count_differences (cairo_surface_t *a, cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  int sa = cairo_image_surface_get_stride (a), sb = cairo_image_surface_get_stride (b);
  const guint8 *da = cairo_image_surface_get_data (a), *db = cairo_image_surface_get_data (b);
  guint n = 0;

  g_assert_cmpint (cairo_image_surface_get_width (b), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (b), ==, h);
  for (int y = 0; y < h; y++)
    if (memcmp (da + (gsize) y * sa, db + (gsize) y * sb, (gsize) w * 4) != 0)
      for (int x = 0; x < w; x++)
        n += memcmp (da + (gsize) y * sa + x * 4, db + (gsize) y * sb + x * 4, 4) != 0;
  return n;
}

static cairo_surface_t *
export_png (Fixture *f, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  cairo_surface_t *s;

  g_assert_true (cpel_render_export (&f->view, CPEL_EXPORT_PNG, 800, 120, 1, path, FALSE, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  return s;
}

/* An export shows the view's modes, pixel for pixel as the same view drawn
 * on screen (an image surface, as the timeline draws). */
static void
test_modes (Fixture *f, gconstpointer data)
{
  cairo_surface_t *by_code, *by_track, *summary, *screen;
  CpelRGBA t1;
  int y1 = 28 + 24 + 8;

  f->view.color_mode = CPEL_COLOR_BY_CODE;
  by_code = export_png (f, "code.png");
  f->view.color_mode = CPEL_COLOR_BY_TRACK;
  by_track = export_png (f, "track.png");
  screen = test_render (&f->view, 800, 120);
  g_assert_cmpuint (count_differences (by_track, screen), ==, 0);
  cairo_surface_destroy (screen);

  /* The ticks changed colour, nothing else: 3 ticks of 1 × 18 px. */
  g_assert_cmpuint (count_differences (by_code, by_track), ==, 3 * 18);
  /* recv on track 1 at t = 1000: x = 160 + 320. */
  cpel_palette_get_track_color (&light, 1, &t1);
  test_assert_color (by_track, 480, y1, &t1);
  test_assert_not_color (by_code, 480, y1, &t1);

  f->view.summary = TRUE;
  summary = export_png (f, "summary.png");
  screen = test_render (&f->view, 800, 120);
  g_assert_cmpuint (count_differences (summary, screen), ==, 0);
  /* The labels are gone, the ticks stay (shorter, on the row's baseline). */
  g_assert_cmpuint (count_differences (summary, by_track), >, 100);
  test_assert_color (summary, 480, 28 + 24 + 19, &t1);
  cairo_surface_destroy (screen);
  cairo_surface_destroy (summary);
  cairo_surface_destroy (by_code);
  cairo_surface_destroy (by_track);
}

/* A PNG is drawn in memory (4 bytes a pixel): above the pixel budget
 * (CPEL_EXPORT_MAX_PNG_PIXELS, in device pixels) it is refused before
 * anything is allocated or written. */
static void
test_pixel_budget (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "huge.png", NULL);
  const double sizes[][3] = { { 32767, 32767, 1 }, { 10001, 10000, 1 }, { 5001, 5000, 2 } };

  g_assert_cmpint (CPEL_EXPORT_MAX_PNG_PIXELS, ==, 100000000);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (cpel_render_export (&f->view, CPEL_EXPORT_PNG, sizes[i][0], sizes[i][1],
                                          sizes[i][2], path, TRUE, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "too large"));
      g_assert_cmpuint (cpel_test_count_entries (f->dir), ==, 0);
    }
}

static void
assert_png_size (const char *path, int width, int height)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, height);
  cairo_surface_destroy (s);
}

/* cpel_render_export_file (), what `cpel export` and `cpelview
 * --export-png` both draw with: its one default size (1920 wide, a row per
 * track under the ruler), the tracks chosen, a range, a compare view. */
static void
test_export_file (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "file.png", NULL);
  g_autofree char *rows_path = g_build_filename (f->dir, "rows.png", NULL);
  g_autofree char *compare_path = g_build_filename (f->dir, "compare.png", NULL);
  g_autofree char *bad_path = g_build_filename (f->dir, "bad.png", NULL);
  const guint one_row[] = { 1 };
  CpelExportOptions options;
  CpelCompareView cv;
  CpelView view;
  int ruler, row;

  cpel_view_init (&view, f->file, &light);
  ruler = (int) view.ruler_height;
  row = (int) view.row_height;

  cpel_export_options_init (&options);
  g_assert_cmpint (options.width, ==, 1920);
  g_assert_true (cpel_render_export_file (f->file, &options, path, &error));
  g_assert_no_error (error);
  assert_png_size (path, CPEL_EXPORT_DEFAULT_WIDTH, ruler + 2 * row);
  /* never over a file without `overwrite` */
  g_assert_false (cpel_render_export_file (f->file, &options, path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);

  options.rows = one_row;
  options.n_rows = 1;
  options.width = 300;
  g_assert_true (cpel_render_export_file (f->file, &options, rows_path, &error));
  g_assert_no_error (error);
  assert_png_size (rows_path, 300, ruler + row);

  /* The end before the start: nothing written. */
  options.has_from = options.has_to = TRUE;
  options.from = 1500;
  options.to = 1000;
  g_assert_false (cpel_render_export_file (f->file, &options, bad_path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (g_file_test (bad_path, G_FILE_TEST_EXISTS));

  /* Two panes, each with room for its rows. */
  cpel_export_options_init (&options);
  options.file_b = f->file;
  options.name_a = "a";
  options.name_b = "b";
  g_assert_true (cpel_render_export_file (f->file, &options, compare_path, &error));
  g_assert_no_error (error);
  cpel_compare_view_init (&cv, f->file, f->file, &light);
  assert_png_size (compare_path, CPEL_EXPORT_DEFAULT_WIDTH,
                   ruler + 2 * ((int) cv.header_height + 2 * row));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  cpel_palette_init_light (&light);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/render/export/png", test_png);
  ADD ("/render/export/png-hidpi", test_png_hidpi);
  ADD ("/render/export/no-overwrite", test_no_overwrite);
  ADD ("/render/export/failure", test_failure_leaves_nothing);
  ADD ("/render/export/disk-full", test_disk_full);
  ADD ("/render/export/svg-pdf", test_svg_pdf);
  ADD ("/render/export/modes", test_modes);
  ADD ("/render/export/pixel-budget", test_pixel_budget);
  ADD ("/render/export/file", test_export_file);
  g_test_add_func ("/render/export/format-for-path", test_format_for_path);
  return g_test_run ();
}
