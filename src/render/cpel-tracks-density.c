/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks-density.c — how many events a track row holds per column:
 * counts (from the times or the level-of-detail summary), bursts in tick
 * rows, the density shading, and the summary mode's bars (moved out of
 * cpel-tracks.c) */
#include <math.h>
#include <string.h>

#include "cpel-lod.h"
#include "cpel-tracks-private.h"

#define DENSITY_MIN_ALPHA 0.22
/* Summary mode: a column's bar is this share of the row's height for one
 * event, up to the whole height for the densest column on screen (log
 * scale, as the shade in the normal mode); never under 2 device px. */
#define SUMMARY_MIN_BAR 0.3
#define SUMMARY_BASELINE_ALPHA 0.35  /* of palette->dim */
/* Events close together from which a tick row shades them as density. */
#define BURST_MIN_EVENTS 3

/* Column counts of a density row; returns the largest. */
float
cpel_tracks_density_counts (CpelRenderCtx *ctx, RowInfo *row)
{
  const CpelView *view = ctx->view;
  guint nc = ctx->n_columns;
  guint64 idx = row->lo;
  guint64 last_cnt = 0;
  gint64 last_c = -2;
  float max = 0;

  memset (row->counts, 0, sizeof (float) * nc);
  while (idx < row->hi)
    {
      /* Jump straight to the column of the next event: empty columns cost
       * nothing, each non-empty one a galloping search. */
      gint64 c = cpel_render_time_column (view->t0, view->t1, nc, row->times[idx]);
      gint64 tb;
      guint64 j, cnt;
      float value;

      if (c < 0)
        c = 0;
      if (c >= (gint64) nc)
        break;
      tb = cpel_render_column_time (view->t0, view->t1, (guint64) c + 1, nc);
      /* Neighbouring columns hold similar counts: search from there. */
      j = c == last_c + 1 ? cpel_render_search_hint (row->times, idx, row->hi, tb, idx + last_cnt)
                          : cpel_render_gallop (row->times, idx, row->hi, tb);
      if (j <= idx)
        j = idx + 1;
      cnt = j - idx;
      last_cnt = cnt;
      last_c = c;
      value = (float) cnt;
      if (ctx->any_hidden)
        {
          guint64 samples = MIN (cnt, (guint64) CPEL_RENDER_DENSITY_SAMPLES);
          guint64 visible = 0;
          for (guint64 k = 0; k < samples; k++)
            {
              /* Evenly spaced over the column (exact when cnt <= samples). */
              guint64 i = idx + (samples == cnt ? k : (cnt * (2 * k + 1)) / (2 * samples));
              if (!event_hidden (ctx, row->slot, i))
                visible++;
            }
          value = (float) ((double) cnt * (double) visible / (double) samples);
        }
      row->counts[c] += value;
      if (row->counts[c] > max)
        max = row->counts[c];
      idx = j;
    }
  return max;
}

/* The same from the level-of-detail summary: O(columns) reads of the
 * summary, plus exact searches inside one bucket where a column holds few
 * events.  `bounds` are the n_columns + 1 column start times. */
float
cpel_tracks_density_counts_lod (CpelRenderCtx *ctx, RowInfo *row, const gint64 *bounds, double *pos)
{
  guint nc = ctx->n_columns;
  float max = 0;

  cpel_lod_locate (cpel_lod_get_for_file (ctx->file), row->slot, bounds, nc + 1,
                   LOD_TOLERANCE, pos);
  for (guint c = 0; c < nc; c++)
    {
      double cnt = pos[c + 1] - pos[c];
      float value;

      if (cnt <= 0)
        {
          row->counts[c] = 0;
          continue;
        }
      value = (float) cnt;
      if (ctx->any_hidden)
        {
          guint64 idx = (guint64) (pos[c] + 0.5);
          guint64 end = (guint64) (pos[c + 1] + 0.5);
          guint64 n = end > idx ? end - idx : 0;
          guint64 samples = MIN (n, (guint64) CPEL_RENDER_DENSITY_SAMPLES);
          guint64 visible = 0;

          for (guint64 k = 0; k < samples; k++)
            {
              guint64 i = idx + (samples == n ? k : (n * (2 * k + 1)) / (2 * samples));
              if (!event_hidden (ctx, row->slot, i))
                visible++;
            }
          value = samples > 0 ? (float) (cnt * (double) visible / (double) samples) : 0;
        }
      row->counts[c] = value;
      max = MAX (max, value);
    }
  return max;
}

/* A tick row whose events are sparse on average may still hold bursts:
 * runs of BURST_MIN_EVENTS or more visible events each closer than
 * CPEL_RENDER_EVENT_SPACING columns to the one before.  Drawn tick by tick
 * they would merge into a solid block; they are shaded as density instead
 * (row->counts, row->in_burst), the events around them stay ticks with
 * labels.  The row has at most columns / spacing events: one pass.
 * Returns the largest column count, 0 when the row has no burst. */
float
cpel_tracks_find_bursts (CpelRenderCtx *ctx, RowInfo *row)
{
  const CpelView *view = ctx->view;
  guint nc = ctx->n_columns;
  guint64 n = row->hi - row->lo, m = 0, j = 0;
  g_autofree guint64 *idx = g_new (guint64, n);
  g_autofree gint64 *col = g_new (gint64, n);
  float max = 0;

  for (guint64 i = row->lo; i < row->hi; i++)
    {
      if (event_hidden (ctx, row->slot, i))
        continue;
      idx[m] = i;
      col[m] = CLAMP (cpel_render_time_column (view->t0, view->t1, nc, row->times[i]),
                      0, (gint64) nc - 1);
      m++;
    }
  while (j < m)
    {
      guint64 k = j + 1;

      while (k < m && (double) (col[k] - col[k - 1]) < CPEL_RENDER_EVENT_SPACING)
        k++;
      if (k - j >= BURST_MIN_EVENTS)
        {
          if (row->in_burst == NULL)
            {
              row->in_burst = g_new0 (guint8, n);
              row->counts = g_new0 (float, nc);
            }
          for (guint64 t = j; t < k; t++)
            {
              row->in_burst[idx[t] - row->lo] = 1;
              row->counts[col[t]] += 1;
              max = MAX (max, row->counts[col[t]]);
            }
        }
      j = k;
    }
  return max;
}

gboolean
cpel_tracks_in_burst (const RowInfo *row, guint64 i)
{
  return row->in_burst != NULL && row->in_burst[i - row->lo];
}

/* All density rows at once: one device pixel per column and row in an
 * image (shade = log scale of the count), stretched over each row with
 * nearest-neighbour filtering — a handful of blits instead of a rectangle
 * per column. */
void
cpel_tracks_draw_density_rows (CpelRenderCtx *ctx, RowInfo *rows, guint n_vis, guint n_density, float max)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  double norm = log1p (MAX ((double) max, DENSITY_FLOOR_MAX));
  double h = view->row_height - 2 * TICK_INSET;
  guint nc = ctx->n_columns;
  cairo_surface_t *image;
  cairo_pattern_t *pattern;
  guint8 *data;
  int stride;
  guint j = 0;

  if (h <= 0 || n_density == 0)
    return;
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) nc, (int) n_density);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (image);
      return;
    }
  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);

  for (guint k = 0; k < n_vis; k++)
    {
      guint32 *line;
      CpelRGBA by_track;
      const CpelRGBA *color = &ctx->pal->density;

      if (rows[k].counts == NULL)
        continue;
      if (ctx->color_mode == CPEL_COLOR_BY_TRACK)
        {
          /* The track's colour, as translucent as the palette's density. */
          by_track = rows[k].track_color;
          by_track.a *= ctx->pal->density.a;
          color = &by_track;
        }
      if (rows[k].spans_dense)
        {
          /* faint over spans drawn per column: their colours and busy share
           * show through */
          by_track = *color;
          by_track.a *= 0.3;
          color = &by_track;
        }
      line = (guint32 *) (gpointer) (data + (gsize) j * stride);
      for (guint c = 0; c < nc; c++)
        {
          double a;
          guint32 pa;

          if (rows[k].counts[c] <= 0)
            {
              line[c] = 0;
              continue;
            }
          a = (DENSITY_MIN_ALPHA + (1 - DENSITY_MIN_ALPHA) * log1p (rows[k].counts[c]) / norm)
              * color->a;
          a = CLAMP (a, 0, 1);
          pa = (guint32) (a * 255 + 0.5);
          line[c] = pa << 24 | (guint32) (color->r * a * 255 + 0.5) << 16
                    | (guint32) (color->g * a * 255 + 0.5) << 8
                    | (guint32) (color->b * a * 255 + 0.5);
        }
      rows[k].density_line = j++;
    }
  cairo_surface_mark_dirty (image);

  pattern = cairo_pattern_create_for_surface (image);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_PAD);
  for (guint k = 0; k < n_vis; k++)
    {
      cairo_matrix_t m;
      double top = rows[k].y + TICK_INSET;

      if (rows[k].counts == NULL)
        continue;
      /* user (x0 + c / scale, top + f * h) -> pattern (c, line + f) */
      cairo_matrix_init (&m, ctx->scale, 0, 0, 1.0 / h, -ctx->x0 * ctx->scale,
                         rows[k].density_line - top / h);
      cairo_pattern_set_matrix (pattern, &m);
      cairo_set_source (cr, pattern);
      cairo_rectangle (cr, ctx->x0, top, ctx->tw, h);
      cairo_fill (cr);
    }
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (image);
}

/* Summary mode (g2's `e`): every row is a histogram on a baseline.  A
 * column's bar rises from the row's bottom, as high as cpel_tracks_summary_bar_px()
 * says for its count, in the colour the normal mode shades with (solid: the
 * height tells the count); lone events are ticks of a one-event bar's
 * height (batch_flush).  So the mode looks different at every zoom, down to
 * a frame of density only.  One image of n_shaded × hp lines, as
 * cpel_tracks_draw_density_rows. */
int
cpel_tracks_summary_bar_px (double count, double norm, int hp)
{
  double f;

  if (count <= 0)
    return 0;
  f = SUMMARY_MIN_BAR + (1 - SUMMARY_MIN_BAR) * log1p (count) / norm;
  return CLAMP ((int) lround (f * hp), MIN (2, hp), hp);
}

/* The rows' height for bars in device pixels (at least 1). */
int
cpel_tracks_summary_height_px (CpelRenderCtx *ctx)
{
  return MAX (1, (int) lround ((ctx->view->row_height - 2 * TICK_INSET) * ctx->scale));
}

void
cpel_tracks_draw_summary_baselines (CpelRenderCtx *ctx, RowInfo *rows, guint n_vis)
{
  cairo_t *cr = ctx->cr;

  if (ctx->view->row_height - 2 * TICK_INSET <= 0)
    return;
  cpel_render_set_color_alpha (cr, &ctx->pal->dim, SUMMARY_BASELINE_ALPHA);
  for (guint k = 0; k < n_vis; k++)
    if (rows[k].slot != G_MAXUINT)
      cairo_rectangle (cr, ctx->x0, rows[k].y + ctx->view->row_height - TICK_INSET,
                       ctx->tw, hair (ctx));
  cairo_fill (cr);
}

void
cpel_tracks_draw_summary_bars (CpelRenderCtx *ctx, RowInfo *rows, guint n_vis, guint n_shaded, double norm)
{
  cairo_t *cr = ctx->cr;
  double h = ctx->view->row_height - 2 * TICK_INSET;
  int hp = cpel_tracks_summary_height_px (ctx);
  guint nc = ctx->n_columns;
  cairo_surface_t *image;
  cairo_pattern_t *pattern;
  guint8 *data;
  int stride;
  guint j = 0;

  if (h <= 0 || n_shaded == 0 || (gsize) n_shaded * (gsize) hp > G_MAXINT)
    return;
  /* A mask (a byte per device pixel, a quarter of a colour image: the bars
   * cover about as many pixels as the rows), painted per row in its colour. */
  image = cairo_image_surface_create (CAIRO_FORMAT_A8, (int) nc, (int) n_shaded * hp);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (image);
      return;
    }
  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);
  memset (data, 0, (gsize) stride * n_shaded * hp);

  for (guint k = 0; k < n_vis; k++)
    {
      if (rows[k].counts == NULL)
        continue;
      for (guint c = 0; c < nc; c++)
        {
          int bar = cpel_tracks_summary_bar_px (rows[k].counts[c], norm, hp);

          for (int y = hp - bar; y < hp; y++)
            data[((gsize) j * hp + y) * stride + c] = 0xff;
        }
      rows[k].density_line = j++;
    }
  cairo_surface_mark_dirty (image);

  pattern = cairo_pattern_create_for_surface (image);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_NONE);
  for (guint k = 0; k < n_vis; k++)
    {
      cairo_matrix_t m;
      double bottom = rows[k].y + TICK_INSET + h;

      if (rows[k].counts == NULL)
        continue;
      /* user (x0 + c / scale, bottom - d / scale) -> mask (c, (line + 1) hp - d) */
      cairo_matrix_init (&m, ctx->scale, 0, 0, ctx->scale, -ctx->x0 * ctx->scale,
                         (double) (rows[k].density_line + 1) * hp - bottom * ctx->scale);
      cairo_pattern_set_matrix (pattern, &m);
      cairo_save (cr);
      cairo_rectangle (cr, ctx->x0, bottom - (double) hp / ctx->scale, ctx->tw,
                       (double) hp / ctx->scale);
      cairo_clip (cr);
      cpel_render_set_color (cr, ctx->color_mode == CPEL_COLOR_BY_TRACK ? &rows[k].track_color
                                                                        : &ctx->pal->density);
      cairo_mask (cr, pattern);
      cairo_restore (cr);
    }
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (image);
}
