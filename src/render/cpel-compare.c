/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-compare.c — two captures under one ruler, and two interval
 * distributions overlaid
 *
 * Each row of either pane is drawn by cpel_render_view() as a view of one
 * row (its own file, hidden types, selection, matches) translated to its
 * place, so a pane looks exactly as the single view would; the ruler is
 * A's view without rows, the measure band and the cursor are drawn last
 * over both panes.  Rows alternate their background by their place in the
 * pane (a view of the row twice, scrolled by one row for the odd ones).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cpel-render-private.h"

#define DEFAULT_HEADER_HEIGHT 22
#define MARK_WIDTH 4

static gint64
sat_add (gint64 a,
         gint64 b)
{
  gint64 r;

  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

void
cpel_compare_view_init (CpelCompareView   *cv,
                        CpelFile          *a,
                        CpelFile          *b,
                        const CpelPalette *palette)
{
  g_return_if_fail (cv != NULL);

  memset (cv, 0, sizeof *cv);
  cpel_view_init (&cv->a, a, palette);
  cpel_view_init (&cv->b, b, palette);
  cv->a.t1 = MAX (cv->a.t1, cv->b.t1);
  cv->header_height = DEFAULT_HEADER_HEIGHT;
  cpel_compare_view_sync (cv);
}

void
cpel_compare_view_sync (CpelCompareView *cv)
{
  g_return_if_fail (cv != NULL);

  cv->b.t0 = sat_add (cv->a.t0, cv->offset_b);
  cv->b.t1 = sat_add (cv->a.t1, cv->offset_b);
  if (cv->b.t1 <= cv->b.t0)
    cv->b.t1 = cv->b.t0 + 1;
  cv->b.ruler_origin = sat_add (cv->a.ruler_origin, cv->offset_b);
  cv->b.palette = cv->a.palette;
  cv->b.row_height = cv->a.row_height;
  cv->b.label_width = cv->a.label_width;
  cv->b.ruler_height = cv->a.ruler_height;
  cv->b.font = cv->a.font;
  cv->b.color_by_type = cv->a.color_by_type;
  cv->b.color_mode = cv->a.color_mode;
  cv->b.summary = cv->a.summary;
  /* B's grid on A's ticks (its ruler_origin holds the offset) */
  cv->b.clock = cv->a.clock;
  cv->b.clock_origin = cv->a.clock_origin;
  cv->b.has_measure = FALSE;
  cv->b.has_cursor = FALSE;
}

void
cpel_compare_view_pane (const CpelCompareView *cv,
                        double                 height,
                        CpelCompareSide        side,
                        double                *top,
                        double                *pane_height)
{
  double r = MAX (cv->a.ruler_height, 0);
  double body = MAX (height - r, 0);
  double half = floor (body / 2);

  if (cv->paired)
    {
      *top = r;
      *pane_height = body;
    }
  else if (side == CPEL_COMPARE_A)
    {
      *top = r;
      *pane_height = half;
    }
  else
    {
      *top = r + half;
      *pane_height = body - half;
    }
}

/* Where a pane's rows start (below its header, or both headers). */
static double
rows_top (const CpelCompareView *cv,
          double                 height,
          CpelCompareSide        side)
{
  double top, ph;

  cpel_compare_view_pane (cv, height, side, &top, &ph);
  return top + (cv->paired ? 2 : 1) * cv->header_height;
}

static void
add_row (GArray          *rows,
         CpelCompareSide  side,
         const CpelView  *view,
         guint            r,
         double           y)
{
  CpelCompareRow row = { side, r, cpel_view_get_row_slot (view, r), y };

  g_array_append_val (rows, row);
}

GArray *
cpel_compare_view_rows (const CpelCompareView *cv,
                        double                 height)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (CpelCompareRow));
  double rh = cv->a.row_height;
  guint na = cv->a.file ? cpel_view_get_n_rows (&cv->a) : 0;
  guint nb = cv->b.file ? cpel_view_get_n_rows (&cv->b) : 0;

  if (!cv->paired)
    {
      double ya = rows_top (cv, height, CPEL_COMPARE_A) - cv->a.scroll_y;
      double yb = rows_top (cv, height, CPEL_COMPARE_B) - cv->b.scroll_y;

      for (guint r = 0; r < na; r++)
        add_row (rows, CPEL_COMPARE_A, &cv->a, r, ya + r * rh);
      for (guint r = 0; r < nb; r++)
        add_row (rows, CPEL_COMPARE_B, &cv->b, r, yb + r * rh);
    }
  else
    {
      /* B's rows by label (the first of a label not yet taken) */
      g_autoptr(GHashTable) by_label = g_hash_table_new (g_str_hash, g_str_equal);
      g_autofree guint8 *taken = g_malloc0 (MAX (nb, 1));
      g_autofree guint8 *done = g_malloc0 (MAX (na, 1));
      double y = rows_top (cv, height, CPEL_COMPARE_A) - cv->a.scroll_y;

      for (guint r = nb; r-- > 0;)
        {
          guint slot = cpel_view_get_row_slot (&cv->b, r);

          if (slot != G_MAXUINT)
            g_hash_table_insert (by_label, (gpointer) cpel_file_get_track_label (cv->b.file, slot),
                                 GUINT_TO_POINTER (r + 1));
        }
      for (guint pass = 0; pass < 2; pass++)
        for (guint r = 0; r < na; r++)
          {
            guint slot = cpel_view_get_row_slot (&cv->a, r);
            guint partner = 0;

            if (done[r])
              continue;
            if (slot != G_MAXUINT)
              partner = GPOINTER_TO_UINT (g_hash_table_lookup (by_label,
                                                               cpel_file_get_track_label (cv->a.file, slot)));
            if (partner > 0 && taken[partner - 1])
              partner = 0;
            /* pass 0: the pairs; pass 1: A's rows without a partner */
            if ((pass == 0) != (partner > 0))
              continue;
            add_row (rows, CPEL_COMPARE_A, &cv->a, r, y);
            done[r] = 1;
            y += rh;
            if (partner > 0)
              {
                taken[partner - 1] = 1;
                add_row (rows, CPEL_COMPARE_B, &cv->b, partner - 1, y);
                y += rh;
              }
          }
      for (guint r = 0; r < nb; r++)
        if (!taken[r])
          {
            add_row (rows, CPEL_COMPARE_B, &cv->b, r, y);
            y += rh;
          }
    }
  return rows;
}

double
cpel_compare_view_get_content_height (const CpelCompareView *cv,
                                      CpelCompareSide        side)
{
  guint na = cv->a.file ? cpel_view_get_n_rows (&cv->a) : 0;
  guint nb = cv->b.file ? cpel_view_get_n_rows (&cv->b) : 0;

  if (cv->paired)
    return (na + nb) * cv->a.row_height;
  return (side == CPEL_COMPARE_A ? na : nb) * cv->a.row_height;
}

/* The part of the drawing area where a row of `side` may show. */
static void
row_clip (const CpelCompareView *cv,
          double                 height,
          CpelCompareSide        side,
          double                *y0,
          double                *y1)
{
  double top, ph;

  cpel_compare_view_pane (cv, height, side, &top, &ph);
  *y0 = rows_top (cv, height, side);
  *y1 = top + ph;
}

gboolean
cpel_compare_view_row_at_y (const CpelCompareView *cv,
                            double                 height,
                            double                 y,
                            CpelCompareRow        *row)
{
  g_autoptr(GArray) rows = NULL;

  g_return_val_if_fail (cv != NULL, FALSE);

  rows = cpel_compare_view_rows (cv, height);
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelCompareRow *r = &g_array_index (rows, CpelCompareRow, i);
      double c0, c1;

      row_clip (cv, height, r->side, &c0, &c1);
      if (y >= r->y && y < r->y + cv->a.row_height && y >= c0 && y < c1)
        {
          if (row != NULL)
            *row = *r;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
cpel_compare_view_hit_test (const CpelCompareView *cv,
                            double                 width,
                            double                 height,
                            double                 x,
                            double                 y,
                            double                 radius,
                            CpelCompareSide       *side,
                            guint                 *slot,
                            guint64               *index)
{
  CpelCompareRow row;
  CpelView v;

  g_return_val_if_fail (cv != NULL, FALSE);

  if (!cpel_compare_view_row_at_y (cv, height, y, &row))
    return FALSE;
  /* a view of that one row, as the renderer draws it */
  v = row.side == CPEL_COMPARE_A ? cv->a : cv->b;
  v.rows = &row.slot;
  v.n_rows = 1;
  v.scroll_y = 0;
  if (!cpel_view_hit_test (&v, width, x, v.ruler_height + (y - row.y), radius, slot, index))
    return FALSE;
  if (side != NULL)
    *side = row.side;
  return TRUE;
}

static const CpelRGBA *
side_color (const CpelPalette *pal,
            CpelCompareSide    side)
{
  return side == CPEL_COMPARE_A ? &pal->accent : &pal->highlight;
}

static void
draw_header (CpelRenderCtx         *ctx,
             const CpelCompareView *cv,
             CpelCompareSide        side,
             double                 y,
             double                 width)
{
  cairo_t *cr = ctx->cr;
  const CpelPalette *pal = ctx->pal;
  const CpelView *view = side == CPEL_COMPARE_A ? &cv->a : &cv->b;
  const char *name = side == CPEL_COMPARE_A ? cv->name_a : cv->name_b;
  double h = cv->header_height, hair = 1.0 / ctx->scale, badge;
  g_autofree char *count = NULL;
  g_autofree char *span = NULL;
  g_autofree char *text = NULL;
  PangoLayout *layout;

  if (h <= 0)
    return;
  cpel_render_set_color (cr, &pal->label_bg);
  cairo_rectangle (cr, 0, y, width, h);
  cairo_fill (cr);

  /* the badge: "A" or "B" on the side's colour */
  layout = cpel_render_ctx_text (ctx, side == CPEL_COMPARE_A ? "A" : "B", -1, 0);
  badge = MAX (cpel_render_layout_width (layout) + 10, h - 6);
  cpel_render_rounded_rect (cr, 6, y + 3, badge, h - 6, 3);
  cpel_render_set_color (cr, side_color (pal, side));
  cairo_fill (cr);
  cpel_render_set_color (cr, side == CPEL_COMPARE_A ? &pal->selection_fg : &pal->highlight_fg);
  cairo_move_to (cr, 6 + (badge - cpel_render_layout_width (layout)) / 2,
                 y + (h - ctx->text_height) / 2);
  pango_cairo_show_layout (cr, layout);

  if (view->file != NULL)
    {
      count = cpel_format_count (cpel_file_get_n_events (view->file));
      span = cpel_time_format_kind (cpel_file_get_duration (view->file),
                                    cpel_file_get_time_kind (view->file));
      /* TRANSLATORS: a compared capture's header: "before.cpel · 1,200 events · 2.500 ms" */
      text = g_strdup_printf (_("%s · %s events · %s"),
                              name != NULL ? name : (side == CPEL_COMPARE_A ? "A" : "B"),
                              count, span);
      layout = cpel_render_ctx_text (ctx, text, -1, MAX (width - badge - 24, 1));
      cpel_render_set_color (cr, &pal->foreground);
      cairo_move_to (cr, 6 + badge + 8, y + (h - ctx->text_height) / 2);
      pango_cairo_show_layout (cr, layout);
    }

  cpel_render_set_color (cr, &pal->grid);
  cairo_rectangle (cr, 0, y + h - hair, width, hair);
  cairo_fill (cr);
}

static void
draw_row (cairo_t               *cr,
          double                 width,
          const CpelCompareView *cv,
          const CpelCompareRow  *row,
          guint                  place)
{
  CpelView v = row->side == CPEL_COMPARE_A ? cv->a : cv->b;
  guint rows2[2] = { row->slot, row->slot };

  v.rows = rows2;
  v.n_rows = 2;
  v.scroll_y = (place & 1) ? v.row_height : 0;
  v.ruler_height = 0;
  v.ruler_origin = row->side == CPEL_COMPARE_A ? cv->a.ruler_origin : cv->b.ruler_origin;
  v.has_measure = FALSE;
  v.has_cursor = FALSE;
  cairo_save (cr);
  cairo_translate (cr, 0, row->y);
  cpel_render_view (cr, width, v.row_height, &v);
  cairo_restore (cr);
}

static void
render_compare (cairo_t               *cr,
                double                 width,
                double                 height,
                const CpelCompareView *in)
{
  CpelCompareView cv = *in;
  CpelPalette fallback;
  CpelRenderCtx ctx;
  CpelView ruler;
  g_autoptr(GArray) rows = NULL;
  guint place[2] = { 0, 0 };
  guint dummy = 0;
  double hair;

  if (cv.a.palette == NULL)
    {
      cpel_palette_init_light (&fallback);
      cv.a.palette = &fallback;
    }
  /* on A's clock the ruler reads A's clock, not from the aligned point */
  if (cv.a.clock != CPEL_CLOCK_NONE)
    cv.a.clock_origin = sat_add (cv.a.clock_origin, cv.a.ruler_origin);
  cpel_compare_view_sync (&cv);

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  cpel_render_set_color (cr, &cv.a.palette->background);
  cairo_paint (cr);

  /* the rows, pane by pane (clipped to their pane) */
  rows = cpel_compare_view_rows (&cv, height);
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelCompareRow *r = &g_array_index (rows, CpelCompareRow, i);
      double c0, c1;

      row_clip (&cv, height, r->side, &c0, &c1);
      /* paired: alternate by pair, not by row */
      if (cv.paired && r->side == CPEL_COMPARE_B && i > 0
          && g_array_index (rows, CpelCompareRow, i - 1).side == CPEL_COMPARE_A)
        place[0]--;
      if (r->y + cv.a.row_height > c0 && r->y < c1)
        {
          cairo_save (cr);
          cairo_rectangle (cr, 0, c0, width, c1 - c0);
          cairo_clip (cr);
          draw_row (cr, width, &cv, r, cv.paired ? place[0] : place[r->side]);
          cairo_restore (cr);
        }
      if (cv.paired)
        place[0]++;
      else
        place[r->side]++;
    }

  /* the ruler: A's view without rows */
  ruler = cv.a;
  ruler.rows = &dummy;
  ruler.n_rows = 0;
  ruler.has_measure = FALSE;
  ruler.has_cursor = FALSE;
  cpel_render_view (cr, width, MAX (cv.a.ruler_height, 0), &ruler);

  /* headers, side marks, the line between the panes, measure and cursor */
  cpel_render_ctx_init (&ctx, cr, width, height, &cv.a);
  hair = 1.0 / ctx.scale;
  for (guint s = 0; s < 2; s++)
    {
      double top, ph;

      cpel_compare_view_pane (&cv, height, s, &top, &ph);
      if (cv.paired)
        top += s * cv.header_height;
      else if (s == CPEL_COMPARE_B)
        {
          cpel_render_set_color (cr, &ctx.pal->foreground);
          cairo_rectangle (cr, 0, top - hair, width, 2 * hair);
          cairo_fill (cr);
        }
      draw_header (&ctx, &cv, s, top, width);
    }
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelCompareRow *r = &g_array_index (rows, CpelCompareRow, i);
      double c0, c1, y0, y1;

      row_clip (&cv, height, r->side, &c0, &c1);
      y0 = MAX (r->y, c0);
      y1 = MIN (r->y + cv.a.row_height, c1);
      if (y1 <= y0)
        continue;
      cpel_render_set_color (cr, side_color (ctx.pal, r->side));
      cairo_rectangle (cr, 0, y0, MARK_WIDTH, y1 - y0);
      cairo_fill (cr);
    }
  /* the legend of the states in A's rows shown (else B's), at the lower
   * right */
  if (cv.a.spans != NULL || cv.b.spans != NULL)
    {
      const CpelView *shown = ctx.view;
      CpelCompareSide side = cv.a.spans != NULL ? CPEL_COMPARE_A : CPEL_COMPARE_B;
      CpelView legend = side == CPEL_COMPARE_A ? cv.a : cv.b;

      ctx.view = &legend;
      ctx.n_legend = 0;
      for (guint i = 0; i < rows->len; i++)
        {
          const CpelCompareRow *r = &g_array_index (rows, CpelCompareRow, i);
          double c0, c1;

          row_clip (&cv, height, r->side, &c0, &c1);
          if (r->side == side && r->y + cv.a.row_height > c0 && r->y < c1)
            cpel_render_spans_legend_add_track (&ctx, r->slot, legend.t0, legend.t1);
        }
      cpel_render_spans_legend (&ctx);
      ctx.view = shown;
    }
  if (cv.a.has_measure)
    cpel_render_measure (&ctx);
  if (cv.a.has_cursor)
    cpel_render_cursor (&ctx);
  cpel_render_ctx_clear (&ctx);
  cairo_restore (cr);
}

void
cpel_render_compare (cairo_t               *cr,
                     double                 width,
                     double                 height,
                     const CpelCompareView *cv)
{
  g_return_if_fail (cr != NULL);
  g_return_if_fail (cv != NULL);
  g_return_if_fail (cv->a.t1 > cv->a.t0);

  if (width <= 0 || height <= 0)
    return;
  render_compare (cr, width, height, cv);
}

static void
draw_compare (cairo_t *cr,
              double   width,
              double   height,
              gpointer data)
{
  cpel_render_compare (cr, width, height, data);
}

gboolean
cpel_render_compare_export (const CpelCompareView *cv,
                            CpelExportFormat       format,
                            double                 width,
                            double                 height,
                            double                 scale,
                            const char            *path,
                            gboolean               overwrite,
                            GError               **error)
{
  g_return_val_if_fail (cv != NULL, FALSE);

  if (cv->a.t1 <= cv->a.t0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Invalid export size %g × %g at scale %g"), width, height, scale);
      return FALSE;
    }
  return cpel_render_export_with (draw_compare, (gpointer) cv, format, width, height, scale,
                                  path, overwrite, error);
}

/* ---- the overview strip of both ---------------------------------------- */

/* A capture's whole span in A's time: [first, end). */
static void
side_extent (const CpelCompareView *cv,
             CpelCompareSide        side,
             gint64                *first,
             gint64                *end)
{
  const CpelView *v = side == CPEL_COMPARE_A ? &cv->a : &cv->b;
  gint64 d = v->file != NULL ? cpel_file_get_duration (v->file) : 0;

  *first = side == CPEL_COMPARE_A ? 0 : -cv->offset_b;
  *end = sat_add (*first, CLAMP (d, 0, G_MAXINT64 - 1) + 1);
}

void
cpel_compare_view_overview_extent (const CpelCompareView *cv,
                                   gint64                *t0,
                                   gint64                *t1)
{
  gint64 fa, ea, fb, eb;

  g_return_if_fail (cv != NULL);

  side_extent (cv, CPEL_COMPARE_A, &fa, &ea);
  side_extent (cv, CPEL_COMPARE_B, &fb, &eb);
  *t0 = MIN (fa, fb);
  *t1 = MAX (MAX (ea, eb), *t0 + 1);
}

double
cpel_render_compare_overview_time_to_x (const CpelCompareView *cv,
                                        double                 width,
                                        gint64                 t)
{
  gint64 t0, t1;

  g_return_val_if_fail (cv != NULL, 0);
  cpel_compare_view_overview_extent (cv, &t0, &t1);
  return ((double) t - (double) t0) * width / ((double) t1 - (double) t0);
}

gint64
cpel_render_compare_overview_x_to_time (const CpelCompareView *cv,
                                        double                 width,
                                        double                 x)
{
  gint64 t0, t1;
  double t;

  g_return_val_if_fail (cv != NULL, 0);
  if (width <= 0)
    return 0;
  cpel_compare_view_overview_extent (cv, &t0, &t1);
  t = (double) t0 + floor (x * ((double) t1 - (double) t0) / width);
  return (gint64) CLAMP (t, -9.0e18, 9.0e18);
}

/* One side's density in its band: the single strip's BASE layer of that
 * side's view (its rows and shown types) where its capture lies. */
static void
draw_side_base (cairo_t               *cr,
                double                 width,
                double                 y,
                double                 h,
                const CpelCompareView *cv,
                CpelCompareSide        side)
{
  const CpelPalette *pal = cv->a.palette;
  CpelView v = side == CPEL_COMPARE_A ? cv->a : cv->b;
  gint64 first, end;
  double x0, x1;

  side_extent (cv, side, &first, &end);
  x0 = cpel_render_compare_overview_time_to_x (cv, width, first);
  x1 = cpel_render_compare_overview_time_to_x (cv, width, end);
  v.t0 = 0;
  v.t1 = end - first;
  if (v.file != NULL && x1 - x0 >= 0.5)
    {
      cairo_save (cr);
      cairo_translate (cr, x0, y);
      cpel_render_overview_layers (cr, x1 - x0, h, &v, CPEL_OVERVIEW_LAYER_BASE);
      cairo_restore (cr);
    }
  /* the side's mark, as in the panes' label column */
  cpel_render_set_color (cr, side_color (pal, side));
  cairo_rectangle (cr, 0, y, MARK_WIDTH, h);
  cairo_fill (cr);
}

void
cpel_render_compare_overview_layers (cairo_t               *cr,
                                     double                 width,
                                     double                 height,
                                     const CpelCompareView *in,
                                     CpelOverviewLayer      layers)
{
  CpelCompareView cv;
  CpelPalette fallback;
  const CpelPalette *pal;
  double half = floor (height / 2);

  g_return_if_fail (cr != NULL);
  g_return_if_fail (in != NULL);

  if (width <= 0 || height <= 0)
    return;
  cv = *in;
  if (cv.a.palette == NULL)
    {
      cpel_palette_init_light (&fallback);
      cv.a.palette = &fallback;
    }
  cpel_compare_view_sync (&cv);
  pal = cv.a.palette;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  if (layers & CPEL_OVERVIEW_LAYER_BASE)
    {
      cpel_render_set_color (cr, &pal->ruler_bg);
      cairo_paint (cr);
      draw_side_base (cr, width, 0, half - 1, &cv, CPEL_COMPARE_A);
      draw_side_base (cr, width, half, height - half, &cv, CPEL_COMPARE_B);
      /* a line between the two */
      cpel_render_set_color (cr, &pal->grid);
      cairo_rectangle (cr, 0, half - 1, width, 1);
      cairo_fill (cr);
    }
  if (layers & CPEL_OVERVIEW_LAYER_WINDOW)
    cpel_render_overview_window (cr, width, height,
                                 cpel_render_compare_overview_time_to_x (&cv, width, cv.a.t0),
                                 cpel_render_compare_overview_time_to_x (&cv, width, cv.a.t1),
                                 pal);
  if (layers & CPEL_OVERVIEW_LAYER_TOP)
    cpel_render_overview_top (cr, width, height, cv.a.has_cursor,
                              cv.a.has_cursor
                              ? cpel_render_compare_overview_time_to_x (&cv, width, cv.a.cursor_t)
                              : 0, pal);
  cairo_restore (cr);
}

guint64
cpel_render_compare_overview_shown_hash (const CpelCompareView *cv)
{
  guint64 h;

  g_return_val_if_fail (cv != NULL, 0);
  h = cpel_render_overview_shown_hash (&cv->a);
  h = (h << 7 | h >> 57) ^ cpel_render_overview_shown_hash (&cv->b);
  h ^= (guint64) cv->offset_b * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  h ^= (guint64) (guintptr) cv->b.file;
  return h;
}

/* ---- interval histograms ---------------------------------------------- */

/* Position of d ns (>= 1) on the bin axis, continuous between bins. */
static double
bin_position (double d)
{
  double e;

  if (d < 4)
    return MAX (d, 0);
  e = floor (log2 (d));
  return 4 * e + (d / exp2 (e) - 1) * 4 - 4;
}

static guint64
total_of (const guint64 *h)
{
  guint64 n = 0;

  if (h != NULL)
    for (guint i = 0; i < CPEL_STATS_HISTOGRAM_BINS; i++)
      n += h[i];
  return n;
}

static void
show_text (cairo_t              *cr,
           PangoLayout          *layout,
           const char           *text,
           double                x,
           double                y,
           const CpelRGBA       *color)
{
  pango_layout_set_text (layout, text, -1);
  cpel_render_set_color (cr, color);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

static double
text_width (PangoLayout *layout,
            const char  *text)
{
  PangoRectangle r;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_extents (layout, NULL, &r);
  return (double) r.width / PANGO_SCALE;
}

void
cpel_render_histogram (cairo_t           *cr,
                       double             width,
                       double             height,
                       const CpelPalette *palette,
                       const char        *title,
                       const guint64     *hist_a,
                       const char        *name_a,
                       const guint64     *hist_b,
                       const char        *name_b)
{
  const guint64 *hist[2] = { hist_a, hist_b };
  const char *names[2] = { name_a ? name_a : "A", name_b ? name_b : "B" };
  guint64 total[2] = { total_of (hist_a), total_of (hist_b) };
  CpelPalette fallback;
  PangoLayout *layout;
  PangoFontDescription *font;
  PangoRectangle r;
  double line, left = 12, right, top, bottom, plot_w, plot_h, max_share = 0, bw, legend_x;
  gint lo = -1, hi = -1;

  g_return_if_fail (cr != NULL);
  if (width <= 0 || height <= 0)
    return;
  if (palette == NULL)
    {
      cpel_palette_init_light (&fallback);
      palette = &fallback;
    }

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  cpel_render_set_color (cr, &palette->background);
  cairo_paint (cr);

  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Sans 9");
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "0", -1);
  pango_layout_get_extents (layout, NULL, &r);
  line = (double) r.height / PANGO_SCALE;

  for (guint s = 0; s < 2; s++)
    if (hist[s] != NULL && total[s] > 0)
      for (gint i = 0; i < CPEL_STATS_HISTOGRAM_BINS; i++)
        if (hist[s][i] > 0)
          {
            if (lo < 0 || i < lo)
              lo = i;
            if (i > hi)
              hi = i;
            max_share = MAX (max_share, (double) hist[s][i] / (double) total[s]);
          }

  top = 8;
  if (title != NULL)
    {
      show_text (cr, layout, title, left, top, &palette->foreground);
      top += line + 4;
    }
  /* the legend: a swatch, the name and the number of intervals per side */
  legend_x = left;
  for (guint s = 0; s < 2; s++)
    {
      g_autofree char *n = cpel_format_count (total[s]);
      /* TRANSLATORS: histogram legend: "before.cpel (1,234 intervals)" */
      g_autofree char *text = g_strdup_printf (_("%s (%s intervals)"), names[s], n);

      cpel_render_set_color_alpha (cr, s == 0 ? &palette->accent : &palette->highlight, 0.6);
      cairo_rectangle (cr, legend_x, top + 2, 12, line - 4);
      cairo_fill (cr);
      show_text (cr, layout, text, legend_x + 16, top, &palette->foreground);
      legend_x += 16 + text_width (layout, text) + 16;
    }
  top += line + 8;
  bottom = height - line - 10;
  right = width - 12;
  plot_w = right - left;
  plot_h = bottom - top;

  if (lo < 0 || plot_w < 10 || plot_h < 10)
    {
      if (lo < 0)
        show_text (cr, layout, _("No intervals"), left, MAX (top, 0), &palette->dim);
      g_object_unref (layout);
      pango_font_description_free (font);
      cairo_restore (cr);
      return;
    }

  /* one bin either side, and at least a decade */
  lo = MAX (lo - 1, 0);
  hi = MIN (hi + 1, CPEL_STATS_HISTOGRAM_BINS - 1);
  while (hi - lo + 1 < 14)
    {
      if (lo > 0)
        lo--;
      if (hi - lo + 1 < 14 && hi < CPEL_STATS_HISTOGRAM_BINS - 1)
        hi++;
    }
  bw = plot_w / (hi - lo + 1);

  /* axis and decade ticks (1 ns, 10 ns, ... at their place between bins) */
  cpel_render_set_color (cr, &palette->grid);
  cairo_rectangle (cr, left, bottom, plot_w, 1);
  cairo_fill (cr);
  for (double d = 1; d < 1e19; d *= 10)
    {
      double pos = bin_position (d);
      double x = left + (pos - lo) * bw;
      g_autofree char *label = NULL;

      if (pos < lo || pos > hi + 1)
        continue;
      label = cpel_render_format_axis ((gint64) d, CPEL_TIME_KIND_NS);
      cpel_render_set_color (cr, &palette->grid);
      cairo_rectangle (cr, round (x), top, 1, plot_h + 4);
      cairo_fill (cr);
      show_text (cr, layout, label, MIN (x + 2, right - text_width (layout, label)), bottom + 4,
                 &palette->dim);
    }

  /* the bars: the share of each side's intervals in each bin */
  for (guint s = 0; s < 2; s++)
    {
      const CpelRGBA *color = s == 0 ? &palette->accent : &palette->highlight;

      if (hist[s] == NULL || total[s] == 0)
        continue;
      cpel_render_set_color_alpha (cr, color, 0.45);
      for (gint i = lo; i <= hi; i++)
        {
          double share = (double) hist[s][i] / (double) total[s];
          double h = share / max_share * plot_h;

          if (hist[s][i] == 0)
            continue;
          cairo_rectangle (cr, left + (i - lo) * bw, bottom - h, MAX (bw - 1, 1), h);
        }
      cairo_fill (cr);
      /* the outline, so that where both overlap each reads */
      cpel_render_set_color_alpha (cr, color, 0.95);
      cairo_set_line_width (cr, 1.5);
      cairo_move_to (cr, left, bottom);
      for (gint i = lo; i <= hi; i++)
        {
          double h = (double) hist[s][i] / (double) total[s] / max_share * plot_h;

          cairo_line_to (cr, left + (i - lo) * bw, bottom - h);
          cairo_line_to (cr, left + (i - lo + 1) * bw, bottom - h);
        }
      cairo_line_to (cr, right, bottom);
      cairo_stroke (cr);
    }

  g_object_unref (layout);
  pango_font_description_free (font);
  cairo_restore (cr);
}
