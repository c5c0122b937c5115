/* cpel-render.h — draws a view of a CpelFile onto any cairo_t (no GTK)
 *
 * Layout of the drawing area (width × height, in user units = logical px):
 *
 *   +-------------+---------------------------------------------+
 *   |             | time ruler (ruler_height)                    |
 *   +-------------+---------------------------------------------+
 *   | track label | events of track order[first]  (row_height)  |
 *   | column      | ...                                          |
 *   | label_width |                                              |
 *   +-------------+---------------------------------------------+
 *
 * The timeline area spans x in [label_width, width): time t maps to
 * x = label_width + (t - t0) * (width - label_width) / (t1 - t0).
 * Row r (0-based among visible rows) spans
 * y in [ruler_height + r * row_height - scroll_y_frac, ...).
 * A frame costs O(visible tracks × pixel columns): zoomed out, each column's
 * count comes from binary searches (cpel_file_track_count_range) and is
 * drawn as density; zoomed in, each event is a tick with a boxed label
 * "name: datum" when there is room before the next event.
 */
#pragma once

#include <cairo.h>

#include "cpel-core.h"

G_BEGIN_DECLS

typedef struct
{
  double r, g, b, a;
} CpelRGBA;

typedef struct
{
  CpelRGBA background;       /* timeline background */
  CpelRGBA row_alt;          /* every other row */
  CpelRGBA foreground;       /* text */
  CpelRGBA dim;              /* secondary text, ruler ticks */
  CpelRGBA grid;             /* grid lines, separators */
  CpelRGBA ruler_bg;
  CpelRGBA label_bg;         /* track label column */
  CpelRGBA event;            /* event ticks; density uses it with alpha */
  CpelRGBA event_label_bg;   /* boxed label fill */
  CpelRGBA event_label_border;
  CpelRGBA selection;        /* selected event and its row */
  CpelRGBA highlight;        /* search matches */
  CpelRGBA measure;          /* ruler measurement band */
  CpelRGBA accent;           /* overview window, cursors */
} CpelPalette;

void cpel_palette_init_light (CpelPalette *palette);
void cpel_palette_init_dark  (CpelPalette *palette);

typedef struct
{
  CpelFile          *file;
  const CpelPalette *palette;

  /* Visible time range [t0, t1) in ns since the earliest event; t1 > t0. */
  gint64             t0;
  gint64             t1;

  /* Track rows in display order (slots); NULL = every slot in order. */
  const guint       *rows;
  guint              n_rows;
  /* Vertical scroll in pixels from the top of row 0. */
  double             scroll_y;

  double             row_height;     /* default 24 */
  double             label_width;    /* default 160 */
  double             ruler_height;   /* default 28 */
  const char        *font;           /* Pango font description; NULL = "Sans 9" */

  /* Event types to hide: hidden_types[type] != 0 (NULL = all visible). */
  const guint8      *hidden_types;

  /* Selection (has_selection FALSE = none). */
  gboolean           has_selection;
  guint              selected_slot;
  guint64            selected_index;

  /* Search matches to highlight (NULL = none). */
  CpelSearchResult  *matches;

  /* Ruler measurement [measure_t0, measure_t1] (has_measure FALSE = none). */
  gboolean           has_measure;
  gint64             measure_t0;
  gint64             measure_t1;

  /* Cursor line at a time (has_cursor FALSE = none). */
  gboolean           has_cursor;
  gint64             cursor_t;
} CpelView;

/* Sensible defaults (row/label/ruler sizes, whole capture, all rows). */
void     cpel_view_init         (CpelView *view, CpelFile *file, const CpelPalette *palette);

/* Geometry helpers shared by the widget's input handling. */
double   cpel_view_time_to_x    (const CpelView *view, double width, gint64 t);
gint64   cpel_view_x_to_time    (const CpelView *view, double width, double x);
/* Row (index into rows) at y, or -1 (ruler / below the last row). */
int      cpel_view_row_at_y     (const CpelView *view, double y);
/* Nearest event to (x, y) within `radius` px on the row under y. */
gboolean cpel_view_hit_test     (const CpelView *view, double width, double x, double y,
                                 double radius, guint *slot, guint64 *index);

/* The whole view: ruler, label column, rows, selection, highlights, measure. */
void     cpel_render_view       (cairo_t *cr, double width, double height, const CpelView *view);

/* Whole-capture density strip (all tracks summed), with the view's [t0,t1)
 * window drawn on it and match ticks from view->matches. */
void     cpel_render_overview   (cairo_t *cr, double width, double height, const CpelView *view);

/* Nice ruler step: the largest 1/2/5 × 10^k ns step giving ticks at least
 * min_px apart over [t0,t1) across `pixels`. */
gint64   cpel_render_ruler_step (gint64 t0, gint64 t1, double pixels, double min_px);

/* Export the view as PNG / SVG / PDF (by `path` suffix or explicit format)
 * atomically: temp file + rename; never overwrites unless `overwrite`. */
typedef enum { CPEL_EXPORT_PNG, CPEL_EXPORT_SVG, CPEL_EXPORT_PDF } CpelExportFormat;
gboolean cpel_render_export     (const CpelView *view, CpelExportFormat format,
                                 double width, double height, double scale,
                                 const char *path, gboolean overwrite, GError **error);

G_END_DECLS
