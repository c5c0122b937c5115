/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-render-draw.c — per-call drawing context, colours, text layouts */
#include <math.h>
#include <string.h>

#include "cpel-render-private.h"

/* Labels longer than this are cut before layout (no row is that wide). */
#define MAX_LABEL_BYTES 512
/* Distinct label layouts kept between frames (per thread). */
#define MAX_CACHED_LABELS 2048
/* Layouts of a retired cache freed per frame. */
#define RETIRED_PER_FRAME 512

/* Text layouts outlive a frame: panning and redraws at one zoom show the
 * same labels again, and shaping is the dearest part of a label.  Pango
 * objects are not thread-safe, so each thread that draws has its own
 * context and cache; pango_cairo_update_context() follows the target's
 * font options and transformation, and the layouts notice such changes
 * themselves. */
typedef struct
{
  PangoContext         *context;
  GHashTable           *labels;   /* text -> PangoLayout */
  GHashTable           *retired;  /* the labels before the last clear, being freed */
  GHashTable           *boxes;    /* BoxKey -> cairo_surface_t (label boxes) */
  char                 *font;
  double                min_advance;  /* of `font`; 0 = not measured yet */
  /* What the context was last updated for (updating bumps its serial and
   * makes every layout lay itself out again, so only do it on change). */
  gboolean              valid;
  cairo_matrix_t        matrix;
  cairo_font_options_t *options;
} TextCache;

static void
text_cache_free (gpointer data)
{
  TextCache *tc = data;
  g_clear_object (&tc->context);
  g_clear_pointer (&tc->labels, g_hash_table_unref);
  g_clear_pointer (&tc->retired, g_hash_table_unref);
  g_clear_pointer (&tc->boxes, g_hash_table_unref);
  g_free (tc->font);
  g_clear_pointer (&tc->options, cairo_font_options_destroy);
  g_free (tc);
}

static GPrivate text_cache_key = G_PRIVATE_INIT (text_cache_free);

/* Label box images kept per thread (cleared when full). */
#define MAX_CACHED_BOXES 1024

typedef struct
{
  guint    w, h;          /* device pixels */
  double   scale;
  CpelRGBA fill, border;
} BoxKey;

static guint
box_key_hash (gconstpointer key)
{
  const BoxKey *k = key;

  return k->w * 31u + k->h * 7919u + (guint) (k->fill.r * 255) + ((guint) (k->fill.g * 255) << 8)
         + ((guint) (k->fill.b * 255) << 16) + (guint) (k->scale * 64);
}

static gboolean
box_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (BoxKey)) == 0;
}

static TextCache *
text_cache_get (cairo_t *cr, const char *font)
{
  TextCache *tc = g_private_get (&text_cache_key);

  if (tc == NULL)
    {
      tc = g_new0 (TextCache, 1);
      tc->context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      tc->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
      tc->boxes = g_hash_table_new_full (box_key_hash, box_key_equal, g_free,
                                         (GDestroyNotify) cairo_surface_destroy);
      g_private_set (&text_cache_key, tc);
    }
  {
    cairo_matrix_t m;
    cairo_font_options_t *options = cairo_font_options_create ();
    cairo_font_options_t *cr_options = cairo_font_options_create ();

    /* What pango_cairo_update_context() looks at: the matrix without its
     * translation, the target's font options merged with the context's. */
    cairo_get_matrix (cr, &m);
    m.x0 = m.y0 = 0;
    cairo_surface_get_font_options (cairo_get_target (cr), options);
    cairo_get_font_options (cr, cr_options);
    cairo_font_options_merge (options, cr_options);
    cairo_font_options_destroy (cr_options);
    if (!tc->valid || memcmp (&m, &tc->matrix, sizeof m) != 0
        || !cairo_font_options_equal (options, tc->options))
      {
        pango_cairo_update_context (cr, tc->context);
        tc->min_advance = 0;
        tc->valid = TRUE;
        tc->matrix = m;
        g_clear_pointer (&tc->options, cairo_font_options_destroy);
        tc->options = options;
      }
    else
      cairo_font_options_destroy (options);
  }
  if (g_strcmp0 (tc->font, font) != 0 || g_hash_table_size (tc->labels) >= MAX_CACHED_LABELS)
    {
      if (g_strcmp0 (tc->font, font) != 0)
        tc->min_advance = 0;
      /* A full cache starts anew; the old layouts are freed a slice per
       * frame below (all 2048 at once cost the frame that overflows
       * several ms). */
      g_clear_pointer (&tc->retired, g_hash_table_unref);
      tc->retired = tc->labels;
      tc->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
      g_free (tc->font);
      tc->font = g_strdup (font);
    }
  if (tc->retired != NULL)
    {
      GHashTableIter iter;
      guint n = 0;

      g_hash_table_iter_init (&iter, tc->retired);
      while (n++ < RETIRED_PER_FRAME && g_hash_table_iter_next (&iter, NULL, NULL))
        g_hash_table_iter_remove (&iter);
      if (g_hash_table_size (tc->retired) == 0)
        g_clear_pointer (&tc->retired, g_hash_table_unref);
    }
  return tc;
}

/* The narrowest advance among printable ASCII glyphs of the font, in user
 * units (0 when it cannot be measured: no lower bound then). */
static double
min_advance (PangoContext *context, const PangoFontDescription *font)
{
  g_autoptr(PangoLayout) layout = pango_layout_new (context);
  PangoLayoutIter *iter;
  char ascii[0x7f - 0x20 + 1];
  int min = G_MAXINT;

  for (int c = 0x20; c < 0x7f; c++)
    ascii[c - 0x20] = (char) c;
  ascii[0x7f - 0x20] = '\0';
  pango_layout_set_font_description (layout, font);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  pango_layout_set_text (layout, ascii, -1);
  iter = pango_layout_get_iter (layout);
  do
    {
      PangoLayoutRun *run = pango_layout_iter_get_run_readonly (iter);

      if (run == NULL)
        continue;
      for (int g = 0; g < run->glyphs->num_glyphs; g++)
        min = MIN (min, run->glyphs->glyphs[g].geometry.width);
    }
  while (pango_layout_iter_next_run (iter));
  pango_layout_iter_free (iter);
  if (min == G_MAXINT || min <= 0)
    return 0;
  return (double) min / PANGO_SCALE;
}

void
cpel_render_ctx_init (CpelRenderCtx *ctx, cairo_t *cr, double width, double height,
                      const CpelView *view)
{
  PangoFontMetrics *metrics;
  PangoContext *pctx;
  double visible_h;

  memset (ctx, 0, sizeof *ctx);
  ctx->cr = cr;
  ctx->view = view;
  ctx->pal = view->palette;
  ctx->file = view->file;
  ctx->width = width;
  ctx->height = height;

  ctx->x0 = MIN (view->label_width, width);
  ctx->tw = MAX (width - ctx->x0, 0);

  /* Device pixels per user unit along x (HiDPI, exports at a scale). */
  ctx->scale = CLAMP (cpel_render_device_scale (cr), 0.25, 8.0);
  /* Columns become image pixels (density): stay within cairo's limit. */
  if (ctx->tw * ctx->scale > 32767)
    ctx->scale = 32767 / ctx->tw;
  ctx->n_columns = (guint) MAX (0.0, ceil (ctx->tw * ctx->scale - 1e-6));

  ctx->n_rows = cpel_view_get_n_rows (view);
  visible_h = height - view->ruler_height;
  if (view->row_height > 0 && visible_h > 0 && ctx->n_rows > 0)
    {
      double first = floor (MAX (view->scroll_y, 0) / view->row_height);
      double end = ceil ((view->scroll_y + visible_h) / view->row_height);
      ctx->first_row = (guint) MIN (first, (double) ctx->n_rows);
      ctx->end_row = (guint) CLAMP (end, (double) ctx->first_row, (double) ctx->n_rows);
    }

  {
    const char *font = view->font != NULL ? view->font : "Sans 9";
    TextCache *tc = text_cache_get (cr, font);

    ctx->font = pango_font_description_from_string (font);
    ctx->layout = pango_layout_new (tc->context);
    ctx->label_cache = g_hash_table_ref (tc->labels);
    if (tc->min_advance <= 0)
      tc->min_advance = min_advance (tc->context, ctx->font);
    ctx->min_advance = tc->min_advance;
  }
  pango_layout_set_font_description (ctx->layout, ctx->font);
  pango_layout_set_single_paragraph_mode (ctx->layout, TRUE);

  pctx = pango_layout_get_context (ctx->layout);
  metrics = pango_context_get_metrics (pctx, ctx->font, NULL);
  ctx->text_height = (double) (pango_font_metrics_get_ascent (metrics)
                               + pango_font_metrics_get_descent (metrics)) / PANGO_SCALE;
  ctx->char_width = (double) pango_font_metrics_get_approximate_digit_width (metrics)
                    / PANGO_SCALE;
  pango_font_metrics_unref (metrics);

  ctx->scratch = g_string_sized_new (128);
  ctx->ellipsis = cpel_render_ctx_label_layout (ctx, "\u2026", &ctx->ellipsis_width);
  ctx->any_hidden = cpel_view_any_hidden (view);
  ctx->color_mode = view->color_mode;
  if (ctx->color_mode == CPEL_COLOR_BY_CODE && !view->color_by_type)
    ctx->color_mode = CPEL_COLOR_NONE;
  else if ((guint) ctx->color_mode > CPEL_COLOR_NONE)
    ctx->color_mode = CPEL_COLOR_BY_CODE;   /* not a mode: the default */
  {
    cairo_surface_type_t type = cairo_surface_get_type (cairo_get_target (cr));
    ctx->raster = type == CAIRO_SURFACE_TYPE_IMAGE || type == CAIRO_SURFACE_TYPE_RECORDING;
  }
}

void
cpel_render_ctx_clear (CpelRenderCtx *ctx)
{
  g_clear_object (&ctx->ellipsis);
  g_clear_pointer (&ctx->label_cache, g_hash_table_unref);
  g_clear_object (&ctx->layout);
  g_clear_pointer (&ctx->font, pango_font_description_free);
  g_clear_pointer (&ctx->span_hl_names, g_free);
  if (ctx->scratch != NULL)
    g_string_free (ctx->scratch, TRUE);
  ctx->scratch = NULL;
}

void
cpel_render_set_color (cairo_t *cr, const CpelRGBA *c)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a);
}

void
cpel_render_set_color_alpha (cairo_t *cr, const CpelRGBA *c, double alpha)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a * alpha);
}

void
cpel_render_rounded_rect (cairo_t *cr, double x, double y, double w, double h, double radius)
{
  radius = MIN (radius, MIN (w, h) / 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - radius, y + radius, radius, -G_PI / 2, 0);
  cairo_arc (cr, x + w - radius, y + h - radius, radius, 0, G_PI / 2);
  cairo_arc (cr, x + radius, y + h - radius, radius, G_PI / 2, G_PI);
  cairo_arc (cr, x + radius, y + radius, radius, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

/* Valid UTF-8, at most MAX_LABEL_BYTES (cut at a character boundary). */
static char *
clean_text (const char *text, gssize len)
{
  char *valid;

  if (len < 0)
    len = strlen (text);
  if (len > MAX_LABEL_BYTES)
    len = MAX_LABEL_BYTES;
  valid = g_utf8_make_valid (text, len);
  if (strlen (valid) > MAX_LABEL_BYTES)
    {
      /* Replacement characters grew it: cut again at a boundary. */
      char *end = valid + MAX_LABEL_BYTES;
      while (end > valid && (((guchar) *end) & 0xc0) == 0x80)
        end--;
      *end = '\0';
    }
  return valid;
}

PangoLayout *
cpel_render_ctx_text (CpelRenderCtx *ctx, const char *text, gssize len, double max_width)
{
  return cpel_render_ctx_text_ellipsized (ctx, text, len, max_width, PANGO_ELLIPSIZE_END);
}

PangoLayout *
cpel_render_ctx_text_ellipsized (CpelRenderCtx *ctx, const char *text, gssize len,
                                 double max_width, PangoEllipsizeMode mode)
{
  g_autofree char *valid = clean_text (text, len);

  pango_layout_set_text (ctx->layout, valid, -1);
  if (max_width > 0)
    {
      pango_layout_set_width (ctx->layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (ctx->layout, mode);
    }
  else
    {
      pango_layout_set_width (ctx->layout, -1);
      pango_layout_set_ellipsize (ctx->layout, PANGO_ELLIPSIZE_NONE);
    }
  return ctx->layout;
}

PangoLayout *
cpel_render_ctx_label_layout (CpelRenderCtx *ctx, const char *text, double *text_width)
{
  PangoLayout *layout;
  g_autofree char *valid = NULL;

  layout = g_hash_table_lookup (ctx->label_cache, text);
  if (layout == NULL)
    {
      valid = clean_text (text, -1);
      layout = pango_layout_new (pango_layout_get_context (ctx->layout));
      pango_layout_set_font_description (layout, ctx->font);
      pango_layout_set_single_paragraph_mode (layout, TRUE);
      pango_layout_set_text (layout, valid, -1);
      /* A full cache keeps what it has until the next frame empties it. */
      if (g_hash_table_size (ctx->label_cache) < MAX_CACHED_LABELS)
        g_hash_table_insert (ctx->label_cache, g_strdup (text), g_object_ref (layout));
    }
  else
    g_object_ref (layout);
  *text_width = cpel_render_layout_width (layout);
  return layout;
}

cairo_surface_t *
cpel_render_ctx_box_image (CpelRenderCtx *ctx, double w, double h, const CpelRGBA *fill,
                           const CpelRGBA *border, double *margin)
{
  TextCache *tc = g_private_get (&text_cache_key);
  BoxKey key;
  cairo_surface_t *image;
  int pad;

  memset (&key, 0, sizeof key);   /* padding bytes take part in equality */
  key.w = (guint) MAX (round (w * ctx->scale), 1.0);
  key.h = (guint) MAX (round (h * ctx->scale), 1.0);
  key.scale = ctx->scale;
  key.fill = *fill;
  key.border = *border;
  /* The border is stroked on the outline: half of it lies outside. */
  pad = (int) ceil (0.5 * ctx->scale) + 1;
  *margin = pad / ctx->scale;

  image = g_hash_table_lookup (tc->boxes, &key);
  if (image == NULL)
    {
      cairo_t *cr;

      if (g_hash_table_size (tc->boxes) >= MAX_CACHED_BOXES)
        g_hash_table_remove_all (tc->boxes);
      image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) key.w + 2 * pad,
                                          (int) key.h + 2 * pad);
      cairo_surface_set_device_scale (image, ctx->scale, ctx->scale);
      cr = cairo_create (image);
      cpel_render_rounded_rect (cr, *margin, *margin, key.w / ctx->scale, key.h / ctx->scale, 3);
      cpel_render_set_color (cr, fill);
      cairo_fill_preserve (cr);
      cpel_render_set_color (cr, border);
      cairo_set_line_width (cr, 1.0);
      cairo_stroke (cr);
      cairo_destroy (cr);
      g_hash_table_insert (tc->boxes, g_memdup2 (&key, sizeof key), image);
    }
  return image;
}

double
cpel_render_ctx_text_min_width (CpelRenderCtx *ctx, const char *text, gsize len)
{
  gsize n = 0;

  for (gsize i = 0; i < len; i++)
    if ((guchar) text[i] >= 0x20 && (guchar) text[i] < 0x7f)
      n++;
  /* Kerning can pull a pair of glyphs together by a fraction of one. */
  return (double) n * ctx->min_advance * 0.75;
}

double
cpel_render_layout_width (PangoLayout *layout)
{
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  return (double) logical.width / PANGO_SCALE;
}

/* ---- direct pixels ------------------------------------------------------ */

static gboolean
on_pixel (double v, int *out)
{
  double r = round (v);

  if (fabs (v - r) > 1e-6 || r < G_MININT / 2 || r > G_MAXINT / 2)
    return FALSE;
  *out = (int) r;
  return TRUE;
}

gboolean
cpel_pixels_begin (CpelPixels *px, cairo_t *cr)
{
  cairo_surface_t *target = cairo_get_target (cr);
  cairo_rectangle_list_t *clip;
  cairo_format_t format;
  cairo_matrix_t m;
  double dsx, dsy, ox, oy;
  gboolean ok = FALSE;

  memset (px, 0, sizeof *px);
  /* Drawing into a pushed group goes elsewhere than the target. */
  if (cairo_get_group_target (cr) != target
      || cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE
      || cairo_get_operator (cr) != CAIRO_OPERATOR_OVER)
    return FALSE;
  format = cairo_image_surface_get_format (target);
  if (format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24)
    return FALSE;
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (target, &dsx, &dsy);
  cairo_surface_get_device_offset (target, &ox, &oy);
  if (m.xy != 0 || m.yx != 0 || m.xx <= 0 || m.yy <= 0 || ox != 0 || oy != 0)
    return FALSE;
  px->xx = m.xx * dsx;
  px->x0 = m.x0 * dsx;
  px->yy = m.yy * dsy;
  px->y0 = m.y0 * dsy;

  /* One clip rectangle on device pixels (what the renderer sets), within
   * the surface. */
  clip = cairo_copy_clip_rectangle_list (cr);
  if (clip->status == CAIRO_STATUS_SUCCESS && clip->num_rectangles == 1)
    {
      const cairo_rectangle_t *r = &clip->rectangles[0];

      ok = on_pixel (px->xx * r->x + px->x0, &px->cx0)
           && on_pixel (px->xx * (r->x + r->width) + px->x0, &px->cx1)
           && on_pixel (px->yy * r->y + px->y0, &px->cy0)
           && on_pixel (px->yy * (r->y + r->height) + px->y0, &px->cy1);
    }
  cairo_rectangle_list_destroy (clip);
  if (!ok)
    return FALSE;
  px->cx0 = MAX (px->cx0, 0);
  px->cy0 = MAX (px->cy0, 0);
  px->cx1 = MIN (px->cx1, cairo_image_surface_get_width (target));
  px->cy1 = MIN (px->cy1, cairo_image_surface_get_height (target));

  /* cairo's drawing so far done; its snapshots of the surface taken. */
  cairo_surface_flush (target);
  px->data = cairo_image_surface_get_data (target);
  px->stride = cairo_image_surface_get_stride (target);
  if (px->data == NULL)
    return FALSE;
  px->surface = target;
  return TRUE;
}

gboolean
cpel_pixels_fill_rect (CpelPixels *px, double x, double y, double w, double h, guint32 argb)
{
  int x0, x1, y0, y1;

  if (px->surface == NULL
      || !on_pixel (px->xx * x + px->x0, &x0) || !on_pixel (px->xx * (x + w) + px->x0, &x1)
      || !on_pixel (px->yy * y + px->y0, &y0) || !on_pixel (px->yy * (y + h) + px->y0, &y1))
    return FALSE;
  x0 = MAX (x0, px->cx0);
  x1 = MIN (x1, px->cx1);
  y0 = MAX (y0, px->cy0);
  y1 = MIN (y1, px->cy1);
  for (int yy = y0; yy < y1; yy++)
    {
      guint32 *row = (guint32 *) (gpointer) (px->data + (gsize) yy * px->stride);

      for (int xx = x0; xx < x1; xx++)
        row[xx] = argb;
    }
  px->dirty |= x0 < x1 && y0 < y1;
  return TRUE;
}

void
cpel_pixels_end (CpelPixels *px)
{
  if (px->surface != NULL && px->dirty)
    cairo_surface_mark_dirty (px->surface);
  px->surface = NULL;
}

guint32
cpel_pixels_color (const CpelRGBA *c)
{
  /* cairo keeps a colour in 16 bits a channel; pixman stores the high 8. */
  guint r = (guint) (CLAMP (c->r, 0.0, 1.0) * 65535.0 + 0.5) >> 8;
  guint g = (guint) (CLAMP (c->g, 0.0, 1.0) * 65535.0 + 0.5) >> 8;
  guint b = (guint) (CLAMP (c->b, 0.0, 1.0) * 65535.0 + 0.5) >> 8;

  return 0xff000000u | (r << 16) | (g << 8) | b;
}

double
cpel_render_device_scale (cairo_t *cr)
{
  double dx = 1, dy = 0, sx = 1, sy = 1;

  cairo_user_to_device_distance (cr, &dx, &dy);
  cairo_surface_get_device_scale (cairo_get_target (cr), &sx, &sy);
  return hypot (dx * sx, dy * sy);
}
