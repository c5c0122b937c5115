/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-export.c — PNG / SVG / PDF of a view, written atomically */
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "cpel-output.h"
#include "cpel-render-private.h"

#define MAX_PIXELS 32767.0   /* cairo image surface limit per side */

gboolean
cpel_render_export_format_for_path (const char *path, CpelExportFormat *format)
{
  static const struct { const char *suffix; CpelExportFormat format; } map[] = {
    { ".png", CPEL_EXPORT_PNG }, { ".svg", CPEL_EXPORT_SVG }, { ".pdf", CPEL_EXPORT_PDF },
  };
  g_autofree char *lower = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  lower = g_ascii_strdown (path, -1);
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (g_str_has_suffix (lower, map[i].suffix))
      {
        if (format != NULL)
          *format = map[i].format;
        return TRUE;
      }
  return FALSE;
}

typedef struct
{
  int fd;
  int saved_errno;
} Sink;

static cairo_status_t
sink_write (void *closure, const unsigned char *data, unsigned int length)
{
  Sink *sink = closure;

  while (length > 0)
    {
      ssize_t n = write (sink->fd, data, length);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (sink->saved_errno == 0)
            sink->saved_errno = errno;
          return CAIRO_STATUS_WRITE_ERROR;
        }
      data += n;
      length -= (unsigned int) n;
    }
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
set_cairo_error (cairo_status_t status, Sink *sink, const char *path, GError **error)
{
  g_autofree char *display = g_filename_display_name (path);

  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  if (status == CAIRO_STATUS_WRITE_ERROR && sink->saved_errno != 0)
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (sink->saved_errno),
                 _("Could not write “%s”: %s"), display, g_strerror (sink->saved_errno));
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                 _("Could not draw “%s”: %s"), display, cairo_status_to_string (status));
  return FALSE;
}

/* Draw into the open temp file. */
static gboolean
write_image (CpelRenderFunc draw, gpointer data, CpelExportFormat format, double width, double height,
             double scale, Sink *sink, const char *path, GError **error)
{
  cairo_surface_t *surface = NULL;
  cairo_status_t status;
  cairo_t *cr;

  switch (format)
    {
    case CPEL_EXPORT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            (int) ceil (width * scale - 1e-9),
                                            (int) ceil (height * scale - 1e-9));
      cairo_surface_set_device_scale (surface, scale, scale);
      break;
    case CPEL_EXPORT_SVG:
      surface = cairo_svg_surface_create_for_stream (sink_write, sink, width, height);
      break;
    case CPEL_EXPORT_PDF:
      /* PDF points: one logical pixel = 0.75 pt (96 dpi) keeps text sizes. */
      surface = cairo_pdf_surface_create_for_stream (sink_write, sink, width * 0.75,
                                                     height * 0.75);
      break;
    default:
      g_assert_not_reached ();
    }

  status = cairo_surface_status (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return set_cairo_error (status, sink, path, error);
    }

  cr = cairo_create (surface);
  if (format == CPEL_EXPORT_PDF)
    cairo_scale (cr, 0.75, 0.75);
  draw (cr, width, height, data);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS)
    {
      if (format == CPEL_EXPORT_PNG)
        status = cairo_surface_write_to_png_stream (surface, sink_write, sink);
      else
        {
          cairo_surface_finish (surface);
          status = cairo_surface_status (surface);
        }
    }
  cairo_surface_destroy (surface);
  return set_cairo_error (status, sink, path, error);
}

static gboolean
io_error (int saved_errno, const char *what, const char *path, GError **error)
{
  g_autofree char *display = g_filename_display_name (path);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               "%s “%s”: %s", what, display, g_strerror (saved_errno));
  return FALSE;
}

/* Callers print the path before the message. */
static gboolean
exists_error (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("This file already exists"));
  return FALSE;
}

/* Move the finished temp file to path: rename when overwriting; otherwise a
 * hard link, which fails atomically when path exists (falling back to a
 * checked rename on file systems without hard links). */
static gboolean
commit (const char *tmp, const char *path, gboolean overwrite, GError **error)
{
  if (overwrite)
    {
      if (g_rename (tmp, path) != 0)
        return io_error (errno, _("Could not save"), path, error);
      return TRUE;
    }
#ifdef G_OS_UNIX
  if (link (tmp, path) == 0)
    {
      g_unlink (tmp);
      return TRUE;
    }
  if (errno == EEXIST)
    return exists_error (error);
#endif
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return exists_error (error);
  if (g_rename (tmp, path) != 0)
    return io_error (errno, _("Could not save"), path, error);
  return TRUE;
}

static void
draw_view (cairo_t *cr, double width, double height, gpointer data)
{
  cpel_render_view (cr, width, height, data);
}

gboolean
cpel_render_export (const CpelView *view, CpelExportFormat format, double width,
                    double height, double scale, const char *path, gboolean overwrite,
                    GError **error)
{
  g_return_val_if_fail (view != NULL, FALSE);

  if (view->t1 <= view->t0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Invalid export size %g × %g at scale %g"), width, height, scale);
      return FALSE;
    }
  return cpel_render_export_with (draw_view, (gpointer) view, format, width, height, scale,
                                  path, overwrite, error);
}

gboolean
cpel_render_export_with (CpelRenderFunc draw, gpointer data, CpelExportFormat format,
                         double width, double height, double scale, const char *path,
                         gboolean overwrite, GError **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *target = NULL;
  Sink sink = { -1, 0 };
  gboolean ok;

  g_return_val_if_fail (draw != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (format != CPEL_EXPORT_PNG && format != CPEL_EXPORT_SVG && format != CPEL_EXPORT_PDF)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("Unknown export format"));
      return FALSE;
    }
  if (format != CPEL_EXPORT_PNG)
    scale = 1;
  if (!(scale > 0 && scale <= 8) || !(width >= 1 && height >= 1)
      || width * scale > MAX_PIXELS || height * scale > MAX_PIXELS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Invalid export size %g × %g at scale %g"), width, height, scale);
      return FALSE;
    }
  /* a PNG is drawn in memory first: 4 bytes a pixel */
  if (format == CPEL_EXPORT_PNG
      && ceil (width * scale - 1e-9) * ceil (height * scale - 1e-9) > CPEL_EXPORT_MAX_PNG_PIXELS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("An image of %g × %g pixels is too large: a PNG may have at most %d "
                     "megapixels (use SVG or PDF, or a smaller size)"),
                   ceil (width * scale - 1e-9), ceil (height * scale - 1e-9),
                   CPEL_EXPORT_MAX_PNG_PIXELS / 1000000);
      return FALSE;
    }
  if (cpel_output_is_stdout (path))
    {
      /* a stream: written as it is made, nothing to commit */
      sink.fd = STDOUT_FILENO;
      return write_image (draw, data, format, width, height, scale, &sink, path, error);
    }
  /* Fail early (the final check is atomic, in commit). */
  if (!overwrite && g_file_test (path, G_FILE_TEST_EXISTS))
    return exists_error (error);
  /* the rename in commit () replaces the file a symbolic link points to,
   * never the link, a device, a FIFO or a folder */
  target = cpel_output_resolve (path, error);
  if (target == NULL)
    return FALSE;
  path = target;

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  tmp = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  /* 0666 & ~umask, like any new file. */
  sink.fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0666);
  if (sink.fd < 0)
    return io_error (errno, _("Could not create a file next to"), path, error);

  ok = write_image (draw, data, format, width, height, scale, &sink, path, error);
  if (ok && fsync (sink.fd) != 0 && errno != EINVAL && errno != EROFS)
    ok = io_error (errno, _("Could not write"), path, error);
  if (close (sink.fd) != 0 && ok)
    ok = io_error (errno, _("Could not write"), path, error);
  if (ok)
    ok = commit (tmp, path, overwrite, error);
  if (!ok)
    g_unlink (tmp);
  return ok;
}

void
cpel_export_options_init (CpelExportOptions *options)
{
  g_return_if_fail (options != NULL);

  *options = (CpelExportOptions) {
    .format = CPEL_EXPORT_PNG,
    .width = CPEL_EXPORT_DEFAULT_WIDTH,
    .scale = 1,
    .color_mode = CPEL_COLOR_BY_CODE,
  };
}

gboolean
cpel_render_export_file (CpelFile                *file,
                         const CpelExportOptions *options,
                         const char              *path,
                         GError                 **error)
{
  CpelFile *file_b;
  CpelPalette palette;
  CpelView view;
  int width, height;
  double scale;
  g_autoptr(CpelLabels) labels = NULL;
  g_autoptr(CpelSpans) spans = NULL;

  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (options->file_b == NULL || CPEL_IS_FILE (options->file_b), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  file_b = options->file_b;
  width = options->width > 0 ? options->width : CPEL_EXPORT_DEFAULT_WIDTH;
  height = options->height;
  scale = options->scale > 0 ? options->scale : 1;

  if (options->dark)
    cpel_palette_init_dark (&palette);
  else
    cpel_palette_init_light (&palette);
  cpel_view_init (&view, file, &palette);
  view.color_mode = options->color_mode;
  view.summary = options->summary;
  if (options->capture_clock && options->file_b == NULL)
    view.clock = cpel_file_get_clock_origin (file, &view.clock_origin);
  if (options->rows != NULL)
    {
      view.rows = options->rows;
      view.n_rows = options->n_rows;
    }

  /* The whole of both captures, unless a time says otherwise. */
  if (options->has_from)
    view.t0 = options->from;
  if (file_b != NULL)
    view.t1 = MAX (view.t1, cpel_file_get_duration (file_b) + 1);
  if (options->has_to)
    view.t1 = options->to;
  else if (view.t1 <= view.t0)
    view.t1 = MAX (view.t0 + 1, MAX (cpel_file_get_duration (file),
                                     file_b != NULL ? cpel_file_get_duration (file_b) : 0) + 1);
  if (view.t1 <= view.t0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The end of the view must come after its start"));
      return FALSE;
    }

  if (file_b != NULL)
    {
      CpelCompareView cv;
      double need;

      cpel_compare_view_init (&cv, file, file_b, &palette);
      cv.a = view;
      cv.name_a = options->name_a;
      cv.name_b = options->name_b;
      cv.paired = options->paired;
      if (options->rows_b != NULL)
        {
          cv.b.rows = options->rows_b;
          cv.b.n_rows = options->n_rows_b;
        }
      cpel_compare_view_sync (&cv);
      if (options->paired)
        need = view.ruler_height + 2 * cv.header_height
               + (view.n_rows + cv.b.n_rows) * view.row_height;
      else
        need = view.ruler_height
               + 2 * (cv.header_height + MAX (view.n_rows, cv.b.n_rows) * view.row_height);
      if (height == 0)
        height = (int) CLAMP (need, view.ruler_height + 2 * (cv.header_height + view.row_height),
                              CPEL_EXPORT_MAX_AUTO_HEIGHT);
      return cpel_render_compare_export (&cv, options->format, width, height, scale, path,
                                         options->overwrite, error);
    }

  /* labels as the viewer shows them */
  if (options->labels != NULL && cpel_labels_get_file (options->labels) == file)
    labels = cpel_labels_ref (options->labels);
  else
    labels = cpel_labels_new (file);
  view.labels = labels;
  if (options->span_rules != NULL)
    {
      spans = cpel_spans_derive (file, options->span_rules, NULL, NULL, error);
      if (spans == NULL)
        return FALSE;
      view.spans = spans;
    }
  /* every row, and the states' legend below them */
  if (height == 0)
    height = (int) CLAMP (view.ruler_height + cpel_view_get_content_height (&view),
                          view.ruler_height + view.row_height, CPEL_EXPORT_MAX_AUTO_HEIGHT);
  return cpel_render_export (&view, options->format, width, height, scale, path,
                             options->overwrite, error);
}
