/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks.c — track rows: backgrounds, label column, events (ticks and
 * labels), search highlights and the selected event; the density and the
 * summary mode's bars are in cpel-tracks-density.c */
#include <math.h>
#include <string.h>

#include "cpel-lod.h"
#include "cpel-tracks-private.h"

#define LABEL_GAP     3.0    /* between a tick and its label box */
#define LABEL_PAD     4.0    /* inside a label box, left and right */
#define LABEL_MIN_ELLIPSIZED 64.0 /* narrowest ellipsized label box */
#define SELECTED_NEXT_LOOKAHEAD 4096 /* events looked at for the selection's neighbour */
#define SELECTED_CALLOUT_ALPHA 0.78  /* the selection's callout: ticks show through */
/* From this many visible events per column on average, a density row's
 * counts come from the track's level-of-detail summary (cpel-lod.h): the
 * columns are then far apart in the times array, and searching it costs a
 * cache miss or more per read. */
#define LOD_EVENTS_PER_COLUMN 32
/* Tracks with this many events find the visible range through the summary. */
#define LOD_MIN_TRACK_EVENTS (1u << 16)

static double
snap (CpelRenderCtx *ctx, double x)
{
  return round (x * ctx->scale) / ctx->scale;
}

static gboolean
row_selected (CpelRenderCtx *ctx, guint slot)
{
  return ctx->view->has_selection && ctx->view->selected_slot == slot;
}

void
cpel_render_rows_background (CpelRenderCtx *ctx)
{
  const CpelView *view = ctx->view;
  const CpelPalette *pal = ctx->pal;
  cairo_t *cr = ctx->cr;
  double rh = view->row_height;

  cpel_render_set_color (cr, &pal->background);
  cairo_rectangle (cr, ctx->x0, view->ruler_height, ctx->tw, ctx->height - view->ruler_height);
  cairo_fill (cr);

  for (guint r = ctx->first_row; r < ctx->end_row; r++)
    {
      double y = cpel_view_get_row_y (view, r);
      guint slot = cpel_view_get_row_slot (view, r);

      if (r % 2 == 1)
        {
          cpel_render_set_color (cr, &pal->row_alt);
          cairo_rectangle (cr, ctx->x0, y, ctx->tw, rh);
          cairo_fill (cr);
        }
      if (slot != G_MAXUINT && row_selected (ctx, slot))
        {
          cpel_render_set_color_alpha (cr, &pal->selection, pal->dark ? 0.16 : 0.10);
          cairo_rectangle (cr, ctx->x0, y, ctx->tw, rh);
          cairo_fill (cr);
        }
      /* Separator under the row. */
      cpel_render_set_color_alpha (cr, &pal->grid, 0.7);
      cairo_rectangle (cr, ctx->x0, snap (ctx, y + rh) - hair (ctx), ctx->tw, hair (ctx));
      cairo_fill (cr);
    }
}

/* Where a track label's distinguishing suffix starts: a trailing " [...]"
 * (perf's "comm [tid]"), at most TRACK_SUFFIX_MAX bytes; -1 when none. */
#define TRACK_SUFFIX_MAX 32

static gssize
track_label_suffix (const char *label)
{
  gsize len = strlen (label);
  const char *open;

  if (len < 3 || label[len - 1] != ']')
    return -1;
  open = g_strrstr_len (label, (gssize) len, " [");
  if (open == NULL || open == label || len - (gsize) (open - label) > TRACK_SUFFIX_MAX
      || memchr (open + 2, '[', len - (gsize) (open - label) - 2) != NULL)
    return -1;
  return open - label;
}

/* A track label at (x, y), at most max_width wide.  Labels of tracks often
 * differ only at the end ("memfd:sealed-91 [1234]" and "… [9876]", "node-a
 * CPU 0" and "… CPU 1"): a label too wide is cut in its head, keeping a
 * trailing " [...]" whole when it leaves a third of the width to the head,
 * or else in the middle, never at its end. */
static void
draw_track_label (CpelRenderCtx *ctx, const char *label, double x, double y, double max_width)
{
  cairo_t *cr = ctx->cr;
  PangoLayout *layout;
  gssize cut;

  layout = cpel_render_ctx_text (ctx, label, -1, 0);
  if (cpel_render_layout_width (layout) <= max_width)
    {
      cairo_move_to (cr, x, y);
      pango_cairo_show_layout (cr, layout);
      return;
    }
  cut = track_label_suffix (label);
  if (cut > 0)
    {
      double suffix_width;

      layout = cpel_render_ctx_text (ctx, label + cut, -1, 0);
      suffix_width = cpel_render_layout_width (layout);
      if (suffix_width <= max_width * 2 / 3)
        {
          PangoRectangle ink, logical;
          double head_width;

          layout = cpel_render_ctx_text (ctx, label, cut, max_width - suffix_width);
          /* The head is always cut (with the suffix it is wider than
           * max_width), and Pango gives an ellipsized line the logical
           * width it was allowed: the suffix follows the ink of the "…". */
          pango_layout_line_get_extents (pango_layout_get_line_readonly (layout, 0), &ink, &logical);
          head_width = (double) (ink.x + ink.width) / PANGO_SCALE + 1;
          cairo_move_to (cr, x, y);
          pango_cairo_show_layout (cr, layout);
          layout = cpel_render_ctx_text (ctx, label + cut, -1, 0);
          cairo_move_to (cr, x + head_width, y);
          pango_cairo_show_layout (cr, layout);
          return;
        }
    }
  layout = cpel_render_ctx_text_ellipsized (ctx, label, -1, max_width, PANGO_ELLIPSIZE_MIDDLE);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

void
cpel_render_label_column (CpelRenderCtx *ctx)
{
  const CpelView *view = ctx->view;
  const CpelPalette *pal = ctx->pal;
  cairo_t *cr = ctx->cr;
  double rh = view->row_height;
  double top = view->ruler_height;

  if (ctx->x0 <= 0 || ctx->height <= top)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, 0, top, ctx->x0, ctx->height - top);
  cairo_clip (cr);
  cpel_render_set_color (cr, &pal->label_bg);
  cairo_paint (cr);

  for (guint r = ctx->first_row; r < ctx->end_row; r++)
    {
      double y = cpel_view_get_row_y (view, r);
      guint slot = cpel_view_get_row_slot (view, r);
      gboolean selected = slot != G_MAXUINT && row_selected (ctx, slot);
      const char *label;

      if (r % 2 == 1)
        {
          cpel_render_set_color_alpha (cr, &pal->foreground, pal->dark ? 0.035 : 0.03);
          cairo_rectangle (cr, 0, y, ctx->x0, rh);
          cairo_fill (cr);
        }
      if (selected)
        {
          cpel_render_set_color_alpha (cr, &pal->selection, pal->dark ? 0.22 : 0.14);
          cairo_rectangle (cr, 0, y, ctx->x0, rh);
          cairo_fill (cr);
          cpel_render_set_color (cr, &pal->selection);
          cairo_rectangle (cr, 0, y, 3, rh);
          cairo_fill (cr);
        }
      cpel_render_set_color_alpha (cr, &pal->grid, 0.7);
      cairo_rectangle (cr, 0, snap (ctx, y + rh) - hair (ctx), ctx->x0, hair (ctx));
      cairo_fill (cr);

      if (slot == G_MAXUINT)
        continue;
      label = cpel_file_get_track_label (ctx->file, slot);
      if (label == NULL)
        continue;
      cpel_render_set_color (cr, &pal->foreground);
      draw_track_label (ctx, label, 12, y + (rh - ctx->text_height) / 2, MAX (ctx->x0 - 24, 1));
    }

  /* Border between the label column and the timeline. */
  cpel_render_set_color (cr, &pal->grid);
  cairo_rectangle (cr, snap (ctx, ctx->x0) - hair (ctx), top, hair (ctx), ctx->height - top);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* ---- events ------------------------------------------------------------ */

/* First position p in sorted m[0..n) with m[p] >= v. */
static guint64
u32_lower_bound (const guint32 *m, guint64 lo, guint64 n, guint64 v)
{
  guint64 hi = n;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (m[mid] < v)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The same, galloping from lo: O(log distance) reads, near lo first (the
 * next column's first match is close when matches are dense). */
static guint64
u32_gallop (const guint32 *m, guint64 lo, guint64 n, guint64 v)
{
  guint64 step = 1, hi;

  while (lo < n && m[lo] < v)
    {
      hi = n - lo > step ? lo + step : n;
      if (hi == n || m[hi] >= v)
        return u32_lower_bound (m, lo + 1, hi, v);
      lo = hi;
      step *= 2;
    }
  return lo;
}

static gboolean
is_match (RowInfo *row, guint64 i)
{
  guint64 p;
  if (row->n_matches == 0)
    return FALSE;
  p = u32_lower_bound (row->matches, 0, row->n_matches, i);
  return p < row->n_matches && row->matches[p] == i;
}

/* Match bands of one row, merged into spans where they touch. */
typedef struct
{
  CpelRenderCtx *ctx;
  RowInfo       *row;
  double         x0, x1;
  guint          run;
} Bands;

static void
bands_flush_span (Bands *b)
{
  if (b->x1 <= b->x0)
    return;
  cairo_rectangle (b->ctx->cr, b->x0, b->row->y + 1, b->x1 - b->x0, b->ctx->view->row_height - 2);
  if (++b->run == CPEL_RENDER_RECT_RUN)
    {
      cairo_fill (b->ctx->cr);
      b->run = 0;
    }
}

static void
bands_add_column (Bands *b, gint64 c)
{
  double x = b->ctx->x0 + c / b->ctx->scale, w = 1 / b->ctx->scale, min_w = 3.0;

  if (w < min_w)
    {
      x -= (min_w - w) / 2;
      w = min_w;
    }
  if (x <= b->x1)
    b->x1 = MAX (b->x1, x + w);
  else
    {
      bands_flush_span (b);
      b->x0 = x;
      b->x1 = x + w;
    }
}

/* Any bit set in [a, b)? */
static gboolean
any_bit (const guint64 *bits, guint64 a, guint64 b)
{
  guint64 wa = a >> 6, wb = b >> 6;

  if (a >= b)
    return FALSE;
  if (wa == wb)
    return (bits[wa] >> (a & 63)) & ((G_GUINT64_CONSTANT (1) << (b - a)) - 1);
  if (bits[wa] >> (a & 63))
    return TRUE;
  for (guint64 w = wa + 1; w < wb; w++)
    if (bits[w] != 0)
      return TRUE;
  return (b & 63) != 0 && (bits[wb] & ((G_GUINT64_CONSTANT (1) << (b & 63)) - 1)) != 0;
}

/* Warm bands behind matches: at most one per device column, merged into
 * spans where they touch (translucent: nothing is painted twice, whatever
 * the fill runs). */
static void
draw_highlights (CpelRenderCtx *ctx, RowInfo *row)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  guint nc = MAX (ctx->n_columns, 1);
  guint64 p, q;
  CpelLod *lod = NULL;
  const guint64 *bits = NULL;
  Bands b = { ctx, row, 0, -G_MAXDOUBLE, 0 };

  if (row->n_matches == 0 || row->lo >= row->hi)
    return;
  p = u32_lower_bound (row->matches, 0, row->n_matches, row->lo);
  q = u32_lower_bound (row->matches, p, row->n_matches, row->hi);
  if (p >= q)
    return;
  if ((double) (row->hi - row->lo) >= (double) LOD_EVENTS_PER_COLUMN * nc)
    {
      lod = cpel_lod_get_for_file (ctx->file);
      bits = cpel_search_result_get_track_bits (view->matches, row->slot);
    }
  cpel_render_set_color_alpha (cr, &ctx->pal->highlight, ctx->pal->dark ? 0.55 : 0.60);
  if (bits != NULL && row->matches[q - 1] < row->n)
    {
      /* Many events a column, matches dense: column by column, its events
       * from the summary and any set bit among them (neighbouring words),
       * rather than a search per column in the times and the matches. */
      gint64 c_first = cpel_render_time_column (view->t0, view->t1, nc, row->times[row->matches[p]]);
      gint64 c_last = cpel_render_time_column (view->t0, view->t1, nc, row->times[row->matches[q - 1]]);
      g_autofree gint64 *bounds = NULL;
      g_autofree double *pos = NULL;
      guint nb;

      c_first = CLAMP (c_first, 0, (gint64) nc - 1);
      c_last = CLAMP (c_last, c_first, (gint64) nc - 1);
      /* Every column boundary located at once, the summary's searches
       * overlapping their cache misses, as closely as the density drawn
       * under the bands: a column's band covers its events give or take
       * an eighth of them (a column boundary located exactly reads a page
       * of times, and the kernel maps up to 16 around it: 64 rows of a
       * 10^9-event capture at the whole-capture view read 5 GB of the
       * index and took 0.46 s). */
      nb = (guint) (c_last - c_first + 2);
      bounds = g_new (gint64, nb);
      pos = g_new (double, nb);
      for (guint j = 0; j < nb; j++)
        bounds[j] = cpel_render_column_time (view->t0, view->t1, (guint64) c_first + j, nc);
      cpel_lod_locate (lod, row->slot, bounds, nb, LOD_TOLERANCE, pos);
      for (guint j = 0; j + 1 < nb; j++)
        {
          guint64 e = (guint64) pos[j], next = (guint64) pos[j + 1];

          next = CLAMP (next, e, row->n);
          if (any_bit (bits, MAX (e, row->lo), MIN (next, row->hi)))
            bands_add_column (&b, c_first + j);
        }
    }
  else
    while (p < q)
      {
        guint64 idx = row->matches[p];
        gint64 c, tb;

        if (idx >= row->n)
          break;
        c = cpel_render_time_column (view->t0, view->t1, nc, row->times[idx]);
        c = CLAMP (c, 0, (gint64) nc - 1);
        bands_add_column (&b, c);
        /* Next match in a later column.  Dense rows jump ~events/columns
         * ahead: the summary's bucket is two cache lines where a gallop
         * over the times touches a dozen (a new page per column on a big
         * capture). */
        tb = cpel_render_column_time (view->t0, view->t1, (guint64) c + 1, nc);
        idx = lod != NULL ? MAX (cpel_lod_lower_bound (lod, row->slot, tb), idx + 1)
                          : cpel_render_gallop (row->times, idx, row->hi, tb);
        p = u32_gallop (row->matches, p + 1, q, idx);
      }
  bands_flush_span (&b);
  cairo_fill (cr);
}

static void
tick_color (CpelRenderCtx *ctx, RowInfo *row, guint32 code, CpelRGBA *color)
{
  switch (ctx->color_mode)
    {
    case CPEL_COLOR_BY_CODE:
      cpel_palette_get_type_color (ctx->pal, ctx->file, code, color);
      break;
    case CPEL_COLOR_BY_TRACK:
      *color = row->track_color;
      break;
    case CPEL_COLOR_NONE:
    default:
      *color = ctx->pal->event;
      break;
    }
}

/* Zoomed-in rows are drawn in batches: every tick of a colour in one fill,
 * then the label boxes, then their texts.  Nothing of one
 * event overlaps another's (a label ends before the next event's tick and
 * stays inside its row), so the picture is the one drawn event by event,
 * at a fraction of the cairo calls. */
typedef struct
{
  double x;             /* snapped tick position */
  double y;             /* row top */
  guint  color;         /* index into Batch.colors */
  guint  layer;         /* drawn after the ticks of lower layers */
} Tick;

typedef struct
{
  double       x;       /* box left */
  double       y;       /* box top */
  double       w, h;
  double       cut;     /* text width kept before the ellipsis; < 0 = whole */
  PangoLayout *layout;  /* a reference */
  gboolean     match;   /* highlight fill */
} Label;

#define BATCH_MAX_COLORS 16

typedef struct
{
  GArray   *ticks;      /* Tick */
  GArray   *labels;     /* Label */
  CpelRGBA  colors[BATCH_MAX_COLORS];
  guint     n_colors;
  guint     n_layers;
  double    tick_dy;    /* tick top below the row top */
  double    tick_h;     /* tick height */
} Batch;

/* Ticks span the row less its insets; in summary mode they are bars of one
 * event (cpel_tracks_summary_bar_px of 1) standing on the baseline. */
static void
batch_init (CpelRenderCtx *ctx, Batch *b, double norm)
{
  double h = ctx->view->row_height - 2 * TICK_INSET;

  b->ticks = g_array_new (FALSE, FALSE, sizeof (Tick));
  b->labels = g_array_new (FALSE, FALSE, sizeof (Label));
  b->n_colors = 0;
  b->n_layers = 1;
  b->tick_dy = TICK_INSET;
  b->tick_h = h;
  if (ctx->view->summary && h > 0)
    {
      int hp = cpel_tracks_summary_height_px (ctx);

      b->tick_h = cpel_tracks_summary_bar_px (1, norm, hp) / ctx->scale;
      b->tick_dy = TICK_INSET + h - b->tick_h;
    }
}

static guint
batch_color (Batch *b, const CpelRGBA *c)
{
  for (guint i = 0; i < b->n_colors; i++)
    if (memcmp (&b->colors[i], c, sizeof *c) == 0)
      return i;
  if (b->n_colors == BATCH_MAX_COLORS)
    return G_MAXUINT;
  b->colors[b->n_colors] = *c;
  return b->n_colors++;
}

/* A row's ticks come in time order.  One on exactly the pixel of the one
 * before replaces it (it would cover it); one that overlaps it otherwise
 * (fractional device scales, translucent colours) goes on a layer above, so
 * the later event stays on top as when drawn one by one. */
static void
batch_tick (CpelRenderCtx *ctx, Batch *b, double x, double y, const CpelRGBA *color)
{
  Tick tick = { snap (ctx, x), y, batch_color (b, color), 0 };
  Tick *prev = b->ticks->len > 0 ? &g_array_index (b->ticks, Tick, b->ticks->len - 1) : NULL;

  if (tick.color == G_MAXUINT)
    {
      /* More colours than a batch holds (not with the palettes): at once. */
      cpel_render_set_color (ctx->cr, color);
      cairo_rectangle (ctx->cr, tick.x, y + b->tick_dy, 1.0, b->tick_h);
      cairo_fill (ctx->cr);
      return;
    }
  if (prev != NULL && prev->y == y && tick.x - prev->x < 1.0)
    {
      if (tick.x == prev->x && color->a >= 1.0)
        {
          prev->color = tick.color;
          return;
        }
      /* Translucent ones blend twice, as one by one. */
      tick.layer = prev->layer + (tick.color != prev->color || color->a < 1.0);
      b->n_layers = MAX (b->n_layers, tick.layer + 1);
    }
  g_array_append_val (b->ticks, tick);
}

/* Runs of blanks (spaces, tabs, line breaks) in a label read as one space,
 * and blanks at either end as none: a datum padded with long runs of spaces
 * would otherwise fill its box with nothing but the ellipsis. */
static void
collapse_blanks (GString *text)
{
  gsize out = 0;
  gboolean blank = TRUE;   /* drops blanks at the start */

  for (gsize k = 0; k < text->len; k++)
    {
      char c = text->str[k];

      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
        {
          if (!blank)
            text->str[out++] = ' ';
          blank = TRUE;
          continue;
        }
      text->str[out++] = c;
      blank = FALSE;
    }
  if (out > 0 && text->str[out - 1] == ' ')
    out--;
  g_string_truncate (text, out);
}

/* The label of event i right of its tick at x, with `room` px up to the next
 * event: fills `label` and returns TRUE when there is one to draw.
 * A label that does not fit is cut at a character boundary and ends in an
 * ellipsis when at least LABEL_MIN_ELLIPSIZED px are free (the cached layout
 * is clipped rather than laid out again: no reshaping per frame); with less
 * room there is no label.  `force` makes one anyway (the selected event). */
static gboolean
prepare_label (CpelRenderCtx *ctx, RowInfo *row, guint64 i, double x, double room,
               gboolean force, Label *label)
{
  CpelEvent ev;
  PangoLayout *layout;
  double text_w, cut = -1, ell_w = 0, box_w, box_h, avail;

  avail = room - LABEL_GAP - 2;
  if (!force && avail < 2 * LABEL_PAD + 2 * ctx->char_width)
    return FALSE;

  cpel_file_get_track_event (ctx->file, row->slot, i, &ev);
  g_string_truncate (ctx->scratch, 0);
  if (ctx->view->labels != NULL)
    cpel_labels_append (ctx->view->labels, &ev, ctx->scratch);
  else
    cpel_file_append_label (ctx->file, &ev, ctx->scratch);
  collapse_blanks (ctx->scratch);
  if (ctx->scratch->len == 0)
    return FALSE;
  /* Too narrow for an ellipsis and certainly too narrow for the text: no
   * need to shape it to know. */
  if (!force && avail < LABEL_MIN_ELLIPSIZED
      && cpel_render_ctx_text_min_width (ctx, ctx->scratch->str, ctx->scratch->len)
         + 2 * LABEL_PAD > avail)
    return FALSE;
  layout = cpel_render_ctx_label_layout (ctx, ctx->scratch->str, &text_w);
  box_w = text_w + 2 * LABEL_PAD;
  if (box_w > avail)
    {
      int index, trailing;
      PangoRectangle pos;

      if (avail < LABEL_MIN_ELLIPSIZED)
        {
          if (!force)
            {
              g_object_unref (layout);
              return FALSE;
            }
          avail = LABEL_MIN_ELLIPSIZED;
        }
      ell_w = ctx->ellipsis_width;
      /* The first character that does not fit before the ellipsis. */
      pango_layout_xy_to_index (layout, (int) ((avail - 2 * LABEL_PAD - ell_w) * PANGO_SCALE), 0,
                                &index, &trailing);
      pango_layout_index_to_pos (layout, index, &pos);
      cut = MAX (0.0, (double) pos.x / PANGO_SCALE);
      box_w = cut + ell_w + 2 * LABEL_PAD;
    }

  box_h = MIN (ctx->text_height + 4, ctx->view->row_height - 2);
  label->x = x + LABEL_GAP;
  label->y = row->y + (ctx->view->row_height - box_h) / 2;
  label->w = box_w;
  label->h = box_h;
  if (ctx->raster && !force)
    {
      /* Whole device pixels, so that one cached image serves every box of
       * a size (the text keeps its place inside). */
      label->x = snap (ctx, label->x);
      label->y = snap (ctx, label->y);
      label->w = ceil (label->w * ctx->scale - 1e-6) / ctx->scale;
      label->h = MAX (round (label->h * ctx->scale), 1.0) / ctx->scale;
    }
  label->cut = cut;
  label->layout = layout;
  label->match = FALSE;
  return TRUE;
}

static void
label_box_path (cairo_t *cr, const Label *label)
{
  cpel_render_rounded_rect (cr, label->x, label->y, label->w, label->h, 3);
}

static void
label_text (CpelRenderCtx *ctx, const Label *label)
{
  cairo_t *cr = ctx->cr;
  double tx = label->x + LABEL_PAD;
  double ty = label->y + (label->h - ctx->text_height) / 2;

  if (label->cut < 0)
    {
      cairo_move_to (cr, tx, ty);
      pango_cairo_show_layout (cr, label->layout);
    }
  else
    {
      cairo_save (cr);
      cairo_rectangle (cr, tx, label->y, label->cut, label->h);
      cairo_clip (cr);
      cairo_move_to (cr, tx, ty);
      pango_cairo_show_layout (cr, label->layout);
      cairo_restore (cr);
      cairo_move_to (cr, tx + label->cut, ty);
      pango_cairo_show_layout (cr, ctx->ellipsis);
    }
}

/* One label at once (the selected event's, over everything else). */
static void
paint_label (CpelRenderCtx *ctx, const Label *label, const CpelRGBA *fill,
             const CpelRGBA *text_color)
{
  cairo_t *cr = ctx->cr;

  label_box_path (cr, label);
  cpel_render_set_color (cr, fill);
  cairo_fill_preserve (cr);
  cpel_render_set_color (cr, &ctx->pal->event_label_border);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  cpel_render_set_color (cr, text_color);
  label_text (ctx, label);
}

static void
draw_tick (CpelRenderCtx *ctx, RowInfo *row, double x, const CpelRGBA *color, double w)
{
  cairo_t *cr = ctx->cr;

  cpel_render_set_color (cr, color);
  cairo_rectangle (cr, snap (ctx, x) - (w > 1 ? (w - 1) / 2 : 0), row->y + TICK_INSET,
                   w, ctx->view->row_height - 2 * TICK_INSET);
  cairo_fill (cr);
}

static void
batch_event (CpelRenderCtx *ctx, Batch *batch, RowInfo *row, guint64 i, double x_next)
{
  double x = cpel_view_time_to_x (ctx->view, ctx->width, row->times[i]);
  guint32 code = cpel_file_get_track_event_code (ctx->file, row->slot, i);
  CpelRGBA color;
  Label label;

  /* A label ends at the timeline's right edge: shortened with an ellipsis
   * there, or left out, never cut mid-letter by the clip. */
  x_next = MIN (x_next, ctx->x0 + ctx->tw);
  tick_color (ctx, row, code, &color);
  batch_tick (ctx, batch, x, row->y, &color);
  /* Summary mode: ticks only.  The selected event's label is drawn over
   * everything by draw_selected: not here as well, where its ellipsis could
   * peek out from under it. */
  if (!ctx->view->summary && !row->span_row
      && !(row_selected (ctx, row->slot) && i == ctx->view->selected_index)
      && prepare_label (ctx, row, i, snap (ctx, x), x_next - snap (ctx, x), FALSE, &label))
    {
      /* Under the selection's callout a label would show through it, read
       * as the selection's: it gives way. */
      if (label.x < row->sel_x1 && label.x + label.w > row->sel_x0)
        {
          g_object_unref (label.layout);
          return;
        }
      label.match = is_match (row, i);
      g_array_append_val (batch->labels, label);
    }
}

/* Zoomed in: a tick per event and a label where it fits before the next
 * (visible) event.  Only called with hi - lo <= columns / spacing. */
static void
batch_events (CpelRenderCtx *ctx, Batch *batch, RowInfo *row)
{
  const CpelView *view = ctx->view;
  guint64 prev = G_MAXUINT64;
  double x_next;

  for (guint64 i = row->lo; i < row->hi; i++)
    {
      if (event_hidden (ctx, row->slot, i))
        continue;
      if (prev != G_MAXUINT64 && !cpel_tracks_in_burst (row, prev))
        batch_event (ctx, batch, row, prev, cpel_view_time_to_x (view, ctx->width, row->times[i]));
      prev = i;
    }
  if (prev == G_MAXUINT64 || cpel_tracks_in_burst (row, prev))
    return;
  /* The last visible one: its room ends at the next visible event past the
   * window (looked for over a bounded number of events), else far away. */
  x_next = G_MAXDOUBLE / 4;
  for (guint64 j = row->hi; j < row->n && j < row->hi + 64; j++)
    if (!event_hidden (ctx, row->slot, j))
      {
        x_next = cpel_view_time_to_x (view, ctx->width, row->times[j]);
        break;
      }
  batch_event (ctx, batch, row, prev, x_next);
}

static void
batch_flush (CpelRenderCtx *ctx, Batch *batch)
{
  const CpelPalette *pal = ctx->pal;
  cairo_t *cr = ctx->cr;
  Tick *ticks = (Tick *) (gpointer) batch->ticks->data;
  Label *labels = (Label *) (gpointer) batch->labels->data;
  const CpelRGBA *text_color = NULL;

  CpelPixels px;
  gboolean direct = batch->ticks->len > 0 && cpel_pixels_begin (&px, cr);

  for (guint l = 0; l < batch->n_layers; l++)
    for (guint c = 0; c < batch->n_colors; c++)
      {
        gboolean opaque = direct && batch->colors[c].a >= 1.0;
        guint32 argb = opaque ? cpel_pixels_color (&batch->colors[c]) : 0;
        guint run = 0;

        for (guint k = 0; k < batch->ticks->len; k++)
          if (ticks[k].color == c && ticks[k].layer == l)
            {
              if (opaque && cpel_pixels_fill_rect (&px, ticks[k].x, ticks[k].y + batch->tick_dy, 1.0,
                                                   batch->tick_h, argb))
                continue;
              if (run == 0)
                cpel_render_set_color (cr, &batch->colors[c]);
              cairo_rectangle (cr, ticks[k].x, ticks[k].y + batch->tick_dy, 1.0, batch->tick_h);
              if (++run == CPEL_RENDER_RECT_RUN)
                {
                  cairo_fill (cr);
                  run = 0;
                }
            }
        if (run > 0)
          cairo_fill (cr);
      }
  if (direct)
    cpel_pixels_end (&px);

  if (batch->labels->len > 0)
    {
      /* Boxes one by one (one path over the whole frame rasterises slower
       * than many small ones); on raster targets as cached images, a blit
       * each instead of rasterising a rounded outline and its border
       * (7 of a dense frame's 15 ms). */
      cairo_set_line_width (cr, 1.0);
      for (guint k = 0; k < batch->labels->len; k++)
        {
          const CpelRGBA *fill = labels[k].match ? &pal->highlight : &pal->event_label_bg;

          if (ctx->raster)
            {
              double m;
              cairo_surface_t *image = cpel_render_ctx_box_image (ctx, labels[k].w, labels[k].h, fill,
                                                                  &pal->event_label_border, &m);

              cairo_set_source_surface (cr, image, labels[k].x - m, labels[k].y - m);
              cairo_rectangle (cr, labels[k].x - m, labels[k].y - m, labels[k].w + 2 * m,
                               labels[k].h + 2 * m);
              cairo_fill (cr);
              continue;
            }
          label_box_path (cr, &labels[k]);
          cpel_render_set_color (cr, fill);
          cairo_fill_preserve (cr);
          cpel_render_set_color (cr, &pal->event_label_border);
          cairo_stroke (cr);
        }
      for (guint k = 0; k < batch->labels->len; k++)
        {
          const CpelRGBA *color = labels[k].match ? &pal->highlight_fg : &pal->foreground;

          if (color != text_color)
            {
              cpel_render_set_color (cr, color);
              text_color = color;
            }
          label_text (ctx, &labels[k]);
        }
    }

  for (guint k = 0; k < batch->labels->len; k++)
    g_object_unref (labels[k].layout);
  g_array_unref (batch->ticks);
  g_array_unref (batch->labels);
}

/* The selected event's label when `row` holds it in view: in the row up to
 * the next shown event (as wide as the zoom leaves room, ellipsized), or,
 * where that room is too small for a label, a callout over the events that
 * follow it, still inside its row (never over the row above or below: those
 * are other tracks), at most a third of the timeline wide; *callout tells
 * which.  Returns FALSE when there is none; else label->layout is a
 * reference.  *x_out: the selected tick. */
static gboolean
selected_label (CpelRenderCtx *ctx, RowInfo *row, Label *label, gboolean *callout,
                double *x_out)
{
  const CpelView *view = ctx->view;
  guint64 i = view->selected_index;
  double x, room;

  if (!row_selected (ctx, row->slot) || i >= row->n)
    return FALSE;
  if (row->times[i] < view->t0 || row->times[i] >= view->t1)
    return FALSE;
  x = snap (ctx, cpel_view_time_to_x (view, ctx->width, row->times[i]));
  *x_out = x;
  room = ctx->x0 + ctx->tw - x;
  for (guint64 j = i + 1; j < row->n && j < i + 1 + SELECTED_NEXT_LOOKAHEAD; j++)
    if (!event_hidden (ctx, row->slot, j))
      {
        room = MIN (room, cpel_view_time_to_x (view, ctx->width, row->times[j]) - x);
        break;
      }
  *callout = FALSE;
  if (prepare_label (ctx, row, i, x + 1, room, FALSE, label))
    return TRUE;
  room = MIN (ctx->x0 + ctx->tw - x, MAX (ctx->tw / 3, LABEL_MIN_ELLIPSIZED + 2 * LABEL_PAD));
  if (!prepare_label (ctx, row, i, x + 1, room, TRUE, label))
    return FALSE;
  label->x = MAX (ctx->x0 + 2, MIN (label->x, ctx->x0 + ctx->tw - label->w - 2));
  *callout = TRUE;
  return TRUE;
}

/* Where the selection's callout will be, for the labels under it to give
 * way (row->sel_x0/sel_x1). */
static void
mark_selected_callout (CpelRenderCtx *ctx, RowInfo *row)
{
  Label label;
  gboolean callout;
  double x;

  row->sel_x0 = row->sel_x1 = 0;
  if (ctx->view->summary || !selected_label (ctx, row, &label, &callout, &x))
    return;
  if (callout)
    {
      row->sel_x0 = label.x;
      row->sel_x1 = label.x + label.w;
    }
  g_object_unref (label.layout);
}

static void
draw_selected (CpelRenderCtx *ctx, RowInfo *row)
{
  const CpelView *view = ctx->view;
  const CpelPalette *pal = ctx->pal;
  cairo_t *cr = ctx->cr;
  guint64 i = view->selected_index;
  Label label;
  gboolean callout, has_label;
  double x;

  if (!row_selected (ctx, row->slot) || i >= row->n)
    return;
  if (row->times[i] < view->t0 || row->times[i] >= view->t1)
    return;
  has_label = selected_label (ctx, row, &label, &callout, &x);
  x = snap (ctx, cpel_view_time_to_x (view, ctx->width, row->times[i]));
  /* A halo, then a 3 px tick and a marker on top of the row. */
  cpel_render_set_color_alpha (cr, &pal->selection, 0.25);
  cairo_rectangle (cr, x - 3, row->y + 1, 7, view->row_height - 2);
  cairo_fill (cr);
  draw_tick (ctx, row, x, &pal->selection, 3.0);
  cairo_move_to (cr, x - 4, row->y + 1);
  cairo_line_to (cr, x + 5, row->y + 1);
  cairo_line_to (cr, x + 0.5, row->y + 6);
  cairo_close_path (cr);
  cpel_render_set_color (cr, &pal->selection);
  cairo_fill (cr);

  /* Its label hides no event it need not: in its room, else translucent,
   * so that the ticks under it show through. */
  if (!has_label)
    return;
  if (!callout)
    paint_label (ctx, &label, &pal->selection, &pal->selection_fg);
  else
    {
      CpelRGBA fill = pal->selection;

      fill.a *= SELECTED_CALLOUT_ALPHA;
      paint_label (ctx, &label, &fill, &pal->selection_fg);
    }
  g_object_unref (label.layout);
}

void
cpel_render_rows_events (CpelRenderCtx *ctx)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  guint n_vis = ctx->end_row - ctx->first_row;
  g_autofree RowInfo *rows = NULL;
  g_autofree float *counts = NULL;
  guint n_density = 0, n_shaded;
  float max = 0;
  double norm;

  if (ctx->file == NULL || n_vis == 0 || ctx->tw <= 0 || ctx->n_columns == 0)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, ctx->x0, view->ruler_height, ctx->tw, ctx->height - view->ruler_height);
  cairo_clip (cr);

  /* An index in a file: the pages every big row will read, asked for
   * together before any is read (one round of reads from the disk for a
   * place not looked at yet, not one per row; nothing for an index in
   * memory): all of the times of a row whose density counts each event
   * (fewer than LOD_EVENTS_PER_COLUMN a column). */
  {
    CpelLod *lod = cpel_lod_get_for_file (ctx->file);
    guint nc = MAX (ctx->n_columns, 1);
    g_autofree gint64 *bounds = g_new (gint64, nc + 1);

    /* the column boundaries a density row locates in its times */
    for (guint c = 0; c <= nc; c++)
      bounds[c] = cpel_render_column_time (view->t0, view->t1, c, nc);
    for (guint k = 0; k < n_vis; k++)
      {
        guint slot = cpel_view_get_row_slot (view, ctx->first_row + k);

        if (slot != G_MAXUINT && cpel_file_get_track_n_events (ctx->file, slot) >= LOD_MIN_TRACK_EVENTS)
          {
            cpel_lod_prefetch (lod, slot, view->t0, view->t1, (guint64) LOD_EVENTS_PER_COLUMN * nc);
            cpel_lod_prefetch_locate (lod, slot, bounds, nc + 1, LOD_TOLERANCE);
          }
      }
  }

  rows = g_new0 (RowInfo, n_vis);
  for (guint k = 0; k < n_vis; k++)
    {
      RowInfo *row = &rows[k];
      guint r = ctx->first_row + k;

      row->slot = cpel_view_get_row_slot (view, r);
      row->y = cpel_view_get_row_y (view, r);
      if (row->slot == G_MAXUINT)
        continue;
      if (ctx->color_mode == CPEL_COLOR_BY_TRACK)
        cpel_palette_get_track_color (ctx->pal, row->slot, &row->track_color);
      if (view->spans != NULL)
        {
          guint64 n_spans = 0;

          guint64 n_states = 0;

          row->span_row = cpel_spans_get_track_spans (view->spans, row->slot, &n_spans) != NULL
                          && n_spans > 0;
          if (row->span_row)
            row->spans_dense =
              (double) (cpel_spans_track_lower_bound (view->spans, row->slot, view->t1)
                        - cpel_spans_track_lower_bound (view->spans, row->slot, view->t0)) * 2
              > ctx->tw;
          /* states labelled too: the events' labels give way to them */
          if (cpel_spans_get_track_states (view->spans, row->slot, &n_states) != NULL
              && n_states > 0)
            row->span_row = TRUE;
        }
      row->times = cpel_file_get_track_times (ctx->file, row->slot, &row->n);
      if (row->n == 0 || row->times == NULL)
        {
          row->n = 0;
          continue;
        }
      if (row->n >= LOD_MIN_TRACK_EVENTS)
        {
          /* Big tracks: a search in one bucket, not across the track. */
          CpelLod *lod = cpel_lod_get_for_file (ctx->file);
          row->lo = cpel_lod_lower_bound (lod, row->slot, view->t0);
          row->hi = cpel_lod_lower_bound (lod, row->slot, view->t1);
        }
      else
        {
          row->lo = cpel_file_track_lower_bound (ctx->file, row->slot, view->t0);
          row->hi = cpel_file_track_lower_bound (ctx->file, row->slot, view->t1);
        }
      row->density = (double) (row->hi - row->lo) * CPEL_RENDER_EVENT_SPACING
                     > (double) ctx->n_columns;
      if (row->density)
        n_density++;
      if (view->matches != NULL)
        row->matches = cpel_search_result_get_track (view->matches, row->slot, &row->n_matches);
      if (row->matches == NULL)
        row->n_matches = 0;
    }

  /* The records the sparse rows will draw, asked for together (their
   * times and record indices were, above). */
  for (guint k = 0; k < n_vis; k++)
    if (rows[k].n > 0 && !rows[k].density && rows[k].hi > rows[k].lo)
      cpel_file_prefetch_track_records (ctx->file, rows[k].slot, rows[k].lo, rows[k].hi);

  /* Density rows and bursts share one log scale, normalised to the densest
   * column on screen, so rows compare with each other. */
  n_shaded = n_density;
  for (guint k = 0; k < n_vis; k++)
    if (rows[k].n > 0 && !rows[k].density && rows[k].hi > rows[k].lo)
      {
        max = MAX (max, cpel_tracks_find_bursts (ctx, &rows[k]));
        n_shaded += rows[k].in_burst != NULL;
      }
  if (n_density > 0)
    {
      guint64 hidden_hash = ctx->any_hidden ? cpel_render_hidden_hash (view) : 0;
      g_autofree gint64 *bounds = NULL;
      g_autofree double *pos = NULL;
      float *next;
      counts = g_new (float, (gsize) n_density * ctx->n_columns);
      next = counts;
      for (guint k = 0; k < n_vis; k++)
        if (rows[k].n > 0 && rows[k].density)
          {
            float m;
            rows[k].counts = next;
            next += ctx->n_columns;
            if (!cpel_render_density_cache_get (ctx, rows[k].slot, hidden_hash, rows[k].counts, &m))
              {
                if ((double) (rows[k].hi - rows[k].lo) >= (double) LOD_EVENTS_PER_COLUMN * ctx->n_columns)
                  {
                    if (bounds == NULL)
                      {
                        bounds = g_new (gint64, ctx->n_columns + 1);
                        pos = g_new (double, ctx->n_columns + 1);
                        for (guint c = 0; c <= ctx->n_columns; c++)
                          bounds[c] = cpel_render_column_time (view->t0, view->t1, c, ctx->n_columns);
                      }
                    m = cpel_tracks_density_counts_lod (ctx, &rows[k], bounds, pos);
                  }
                else
                  m = cpel_tracks_density_counts (ctx, &rows[k]);
                cpel_render_density_cache_put (ctx, rows[k].slot, hidden_hash, rows[k].counts, m);
              }
            max = MAX (max, m);
          }
    }

  for (guint k = 0; k < n_vis; k++)
    if (rows[k].n > 0)
      draw_highlights (ctx, &rows[k]);
  norm = log1p (MAX ((double) max, DENSITY_FLOOR_MAX));
  if (view->summary)
    {
      cpel_tracks_draw_summary_baselines (ctx, rows, n_vis);
      cpel_tracks_draw_summary_bars (ctx, rows, n_vis, n_shaded, norm);
    }
  else
    cpel_tracks_draw_density_rows (ctx, rows, n_vis, n_shaded, max);
  {
    Batch batch;

    batch_init (ctx, &batch, norm);
    for (guint k = 0; k < n_vis; k++)
      if (rows[k].n > 0 && !rows[k].density)
        {
          mark_selected_callout (ctx, &rows[k]);
          batch_events (ctx, &batch, &rows[k]);
        }
    batch_flush (ctx, &batch);
  }
  for (guint k = 0; k < n_vis; k++)
    if (rows[k].n > 0)
      draw_selected (ctx, &rows[k]);
  for (guint k = 0; k < n_vis; k++)
    if (rows[k].in_burst != NULL)
      {
        g_free (rows[k].in_burst);
        g_free (rows[k].counts);
      }

  cairo_restore (cr);
}
