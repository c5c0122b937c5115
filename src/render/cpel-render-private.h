/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-render-private.h — internals shared by the render sources */
#pragma once

#include <pango/pangocairo.h>

#include "cpel-render.h"

G_BEGIN_DECLS

/* State of one drawing call: geometry, the shared layout and font, scratch
 * buffers.  Built once per cpel_render_view / cpel_render_overview call so
 * nothing is allocated per event. */
typedef struct
{
  cairo_t              *cr;
  const CpelView       *view;
  const CpelPalette    *pal;
  CpelFile             *file;
  double                width;
  double                height;

  /* Timeline area: x in [x0, x0 + tw), device scale `scale`, n_columns
   * device pixel columns. */
  double                x0;
  double                tw;
  double                scale;
  guint                 n_columns;

  /* Rows: [first_row, end_row) intersect the drawing area. */
  guint                 n_rows;
  guint                 first_row;
  guint                 end_row;

  PangoFontDescription *font;
  PangoLayout          *layout;       /* scratch layout, text set per use */
  double                text_height;  /* logical height of one line */
  double                char_width;   /* approximate width of a digit */
  GHashTable           *label_cache;  /* label text -> PangoLayout (per thread, kept between calls) */
  GString              *scratch;
  PangoLayout          *ellipsis;     /* "…" */
  double                ellipsis_width;
  double                min_advance;  /* narrowest printable ASCII glyph (lower bounds) */

  gboolean              any_hidden;   /* some type is hidden */
  CpelColorMode         color_mode;   /* view->color_mode, with color_by_type applied */
  gboolean              raster;       /* target is an image or recording surface */
  /* The states drawn (names in view->spans), for their legend. */
#define CPEL_RENDER_LEGEND_MAX 12
  guint                 legend[CPEL_RENDER_LEGEND_MAX];
  guint                 n_legend;
  /* view->span_filter's verdict per span name (cpel-tracks-spans.c) */
  guint8               *span_hl_names;
  guint                 span_hl_n_names;
} CpelRenderCtx;

void         cpel_render_ctx_init          (CpelRenderCtx *ctx, cairo_t *cr, double width,
                                            double height, const CpelView *view);
void         cpel_render_ctx_clear         (CpelRenderCtx *ctx);

/* Direct access to an image target's pixels for the primitive drawn by the
 * thousand: opaque rectangles whose edges fall on device pixels (the ticks).
 * cairo spends microseconds per fill on what is a few stores; whatever is
 * not such a rectangle, or not on an image surface, the caller draws with
 * cairo as before — the pixels are the same either way. */
typedef struct
{
  cairo_surface_t *surface;     /* NULL: no direct access */
  guint8          *data;
  int              stride;
  double           xx, x0, yy, y0;             /* user to device */
  int              cx0, cy0, cx1, cy1;         /* device clip */
  gboolean         dirty;
} CpelPixels;

gboolean     cpel_pixels_begin             (CpelPixels *px, cairo_t *cr);
/* Stores `argb` (from cpel_pixels_color) over [x, x+w) × [y, y+h) in user
 * units; FALSE (nothing drawn) when an edge is not on a device pixel. */
gboolean     cpel_pixels_fill_rect         (CpelPixels *px, double x, double y, double w,
                                            double h, guint32 argb);
void         cpel_pixels_end               (CpelPixels *px);
/* An opaque colour as cairo stores it in an ARGB32 pixel. */
guint32      cpel_pixels_color             (const CpelRGBA *color);

/* Device pixels per user unit along x: the transformation and the target
 * surface's device scale (a HiDPI window, an export at a scale), which
 * cairo_user_to_device_distance() leaves out. */
double       cpel_render_device_scale      (cairo_t *cr);

/* Drawing helpers (cpel-render-draw.c). */
/* Many rectangles are filled in runs of at most this many: cairo 1.16
 * sweeps a fill's boxes with a sorted active list after an unstable sort
 * by top, so one fill of n boxes sharing a row costs O(n²) (a row of 500
 * ticks: milliseconds); runs keep it O(n × run). */
#define CPEL_RENDER_RECT_RUN 32
void         cpel_render_set_color         (cairo_t *cr, const CpelRGBA *color);
void         cpel_render_set_color_alpha   (cairo_t *cr, const CpelRGBA *color, double alpha);
void         cpel_render_rounded_rect      (cairo_t *cr, double x, double y, double w,
                                            double h, double radius);
/* Set the scratch layout's text (made valid UTF-8, capped in length); no
 * width limit unless max_width > 0 (then ellipsized at the end). */
PangoLayout *cpel_render_ctx_text          (CpelRenderCtx *ctx, const char *text, gssize len,
                                            double max_width);
/* As cpel_render_ctx_text, ellipsized as `mode` says when max_width > 0. */
PangoLayout *cpel_render_ctx_text_ellipsized (CpelRenderCtx *ctx, const char *text, gssize len,
                                              double max_width, PangoEllipsizeMode mode);
/* A layout for an event label, from the cache when it was laid out before;
 * the caller owns the returned reference. */
PangoLayout *cpel_render_ctx_label_layout  (CpelRenderCtx *ctx, const char *text,
                                            double *text_width);
/* A lower bound of the width `text` takes in the font, without shaping it
 * (printable ASCII characters times the narrowest one's advance, less a
 * margin for kerning). */
double       cpel_render_ctx_text_min_width (CpelRenderCtx *ctx, const char *text, gsize len);
/* A label box (rounded rectangle, fill and 1-unit border) of w × h user
 * units at device scale ctx->scale, as a cached image (per thread, kept
 * between frames): drawing it is a blit instead of rasterising a path.  Only
 * for raster targets (ctx->raster); w and h whole device pixels.  The image
 * covers the box grown by the returned margin (user units) on every side. */
cairo_surface_t *cpel_render_ctx_box_image (CpelRenderCtx *ctx, double w, double h,
                                            const CpelRGBA *fill, const CpelRGBA *border,
                                            double *margin);
/* Width in user units of a layout's logical extents. */
double       cpel_render_layout_width      (PangoLayout *layout);

/* Geometry (cpel-view.c). */
gboolean     cpel_view_type_hidden         (const CpelView *view, CpelFile *file, guint type);
gboolean     cpel_view_code_hidden         (const CpelView *view, CpelFile *file, guint32 code);
gboolean     cpel_view_any_hidden          (const CpelView *view);
/* Start time of device column c of n over [t0, t1): t0 + ceil(c * span / n). */
gint64       cpel_render_column_time       (gint64 t0, gint64 t1, guint64 c, guint64 n);
/* Column (may be < 0 or >= n) of time t. */
gint64       cpel_render_time_column       (gint64 t0, gint64 t1, guint64 n, gint64 t);
/* lower bound on a sorted times array in [lo, n), galloping from lo. */
guint64      cpel_render_gallop            (const gint64 *times, guint64 lo, guint64 n, gint64 t);
/* The same, starting from a guess `hint` of the answer (e.g. where the
 * previous column's count would put it): few, nearby reads when it is close. */
guint64      cpel_render_search_hint       (const gint64 *times, guint64 lo, guint64 n, gint64 t,
                                            guint64 hint);

/* Density counts of the current zoom level, kept on the file between
 * frames (cpel-density-cache.c). */
guint64      cpel_render_hidden_hash       (const CpelView *view);
gboolean     cpel_render_density_cache_get (CpelRenderCtx *ctx, guint slot, guint64 hidden_hash,
                                            float *counts, float *max);
void         cpel_render_density_cache_put (CpelRenderCtx *ctx, guint slot, guint64 hidden_hash,
                                            const float *counts, float max);

/* Parts of a frame. */
/* The overview strip's window [xa, xb) (the rest veiled) and its top layer
 * (the cursor at x, the bottom border), for any strip's geometry. */
void         cpel_render_overview_window   (cairo_t *cr, double width, double height,
                                            double xa, double xb, const CpelPalette *pal);
void         cpel_render_overview_top      (cairo_t *cr, double width, double height,
                                            gboolean has_cursor, double x,
                                            const CpelPalette *pal);
void         cpel_render_ruler             (CpelRenderCtx *ctx);
/* The measure band and the cursor line over the whole height (cpel-render.c). */
void         cpel_render_measure           (CpelRenderCtx *ctx);
void         cpel_render_cursor            (CpelRenderCtx *ctx);
void         cpel_render_ruler_grid        (CpelRenderCtx *ctx);
void         cpel_render_rows_background   (CpelRenderCtx *ctx);
void         cpel_render_rows_events       (CpelRenderCtx *ctx);
/* view->spans in their rows, under the events (cpel-tracks-spans.c). */
void         cpel_render_rows_spans        (CpelRenderCtx *ctx);
/* The legend of the states drawn, over the rows' events. */
void         cpel_render_spans_legend      (CpelRenderCtx *ctx);
/* Adds the states of view->spans that track `slot` has in [t0, t1) (the
 * first few thousand) to the legend: a compare view draws its rows as
 * views of their own, and collects its legend so. */
void         cpel_render_spans_legend_add_track (CpelRenderCtx *ctx, guint slot,
                                                 gint64 t0, gint64 t1);
void         cpel_render_label_column      (CpelRenderCtx *ctx);

/* Ruler unit helpers (cpel-ruler.c). */
void         cpel_render_ruler_ticks       (CpelRenderCtx *ctx, gint64 *step, gint64 *minor);

G_END_DECLS
