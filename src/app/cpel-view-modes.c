/* cpel-view-modes.c — drawing a view in the timeline's colour and summary
 * modes (see the header) */
#include "cpel-view-modes.h"

#include <math.h>

void
cpel_view_modes_track_color (const CpelPalette *palette,
                             CpelFile          *file,
                             guint              slot,
                             CpelRGBA          *color)
{
  /* The palette's code colours, picked by track id: stable across files
   * and sessions, neighbouring ids apart. */
  cpel_palette_get_type_color (palette, cpel_file_get_track_id (file, slot), color);
}

/* `over` drawn on opaque `under`. */
static CpelRGBA
composite (const CpelRGBA *under,
           const CpelRGBA *over)
{
  CpelRGBA c;

  c.r = under->r * (1 - over->a) + over->r * over->a;
  c.g = under->g * (1 - over->a) + over->g * over->a;
  c.b = under->b * (1 - over->a) + over->b * over->a;
  c.a = 1.0;
  return c;
}

/* No event labels: their boxes and texts transparent.  The selected event
 * keeps its label (selection colours). */
static void
summary_palette (CpelPalette *pal)
{
  pal->foreground.a = 0;
  pal->event_label_bg.a = 0;
  pal->event_label_border.a = 0;
  pal->highlight_fg.a = 0;
}

void
cpel_view_modes_render (cairo_t        *cr,
                        double          width,
                        double          height,
                        const CpelView *view,
                        CpelColorMode   mode,
                        gboolean        summary)
{
  CpelView v = *view;
  CpelPalette pal = *view->palette;
  double x0 = MIN (view->label_width, width);
  double top = view->ruler_height;

  v.color_by_type = mode == CPEL_COLOR_BY_CODE;
  if (!summary && mode != CPEL_COLOR_BY_TRACK)
    {
      cpel_render_view (cr, width, height, &v);
      return;
    }
  if (width <= x0 || height <= top)
    {
      cpel_render_view (cr, width, height, &v);
      return;
    }

  /* Ruler and label column as usual (the rows' time area is drawn again
   * below: this pass fills the density cache the next ones reuse). */
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_rectangle (cr, x0, top, width - x0, height - top);
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_EVEN_ODD);
  cairo_clip (cr);
  cpel_render_view (cr, width, height, &v);
  cairo_restore (cr);

  if (summary)
    summary_palette (&pal);

  if (mode != CPEL_COLOR_BY_TRACK)
    {
      v.palette = &pal;
      cairo_save (cr);
      cairo_rectangle (cr, x0, top, width - x0, height - top);
      cairo_clip (cr);
      cpel_render_view (cr, width, height, &v);
      cairo_restore (cr);
      return;
    }

  /* By track: each visible row alone, in its track's colour. */
  {
    guint n = cpel_view_get_n_rows (view);
    double rh = view->row_height;
    guint first = 0, end = 0;
    CpelRGBA alt = composite (&view->palette->background, &view->palette->row_alt);

    if (rh > 0 && n > 0)
      {
        first = (guint) MIN (floor (MAX (view->scroll_y, 0) / rh), (double) n);
        end = (guint) CLAMP (ceil ((view->scroll_y + height - top) / rh), (double) first, (double) n);
      }

    /* Below the last row: the empty background. */
    {
      double bottom = cpel_view_get_row_y (view, n);

      if (bottom < height)
        {
          cairo_save (cr);
          cairo_rectangle (cr, x0, MAX (bottom, top), width - x0, height - MAX (bottom, top));
          cairo_set_source_rgba (cr, pal.background.r, pal.background.g, pal.background.b,
                                 pal.background.a);
          cairo_fill (cr);
          cairo_restore (cr);
        }
    }

    for (guint r = first; r < end; r++)
      {
        guint slot = cpel_view_get_row_slot (view, r);
        double y = cpel_view_get_row_y (view, r);
        double y0 = MAX (y, top), y1 = MIN (y + rh, height);
        CpelPalette row_pal = pal;
        CpelView rv = v;

        if (slot == G_MAXUINT || y1 <= y0)
          continue;
        cpel_view_modes_track_color (view->palette, view->file, slot, &row_pal.event);
        row_pal.density = row_pal.event;
        row_pal.density.a = view->palette->density.a;
        if (r % 2 == 1)
          row_pal.background = alt;
        rv.palette = &row_pal;
        rv.color_by_type = FALSE;
        rv.rows = &slot;
        rv.n_rows = 1;
        rv.scroll_y = 0;
        rv.ruler_height = 0;   /* no ruler to draw again */

        cairo_save (cr);
        cairo_rectangle (cr, x0, y0, width - x0, y1 - y0);
        cairo_clip (cr);
        /* Row 0 of a one-row view without ruler lands at `y`. */
        cairo_translate (cr, 0, y);
        cpel_render_view (cr, width, rh, &rv);
        cairo_restore (cr);
      }
  }
}
