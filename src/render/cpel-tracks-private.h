/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks-private.h — what the track rows' drawing shares between
 * cpel-tracks.c (rows, events, highlights, selection) and
 * cpel-tracks-density.c (density counts and shading, summary bars) */
#pragma once

#include "cpel-render-private.h"

#define TICK_INSET    3.0    /* tick and density inset from the row edges */
#define DENSITY_FLOOR_MAX 8.0  /* log scale is normalised to at least this count */
/* Relative error allowed in a column's count from the summary (the shade
 * is a log scale: 1/8 moves it by a few percent of one step at most), and
 * in where a column of dense search matches begins and ends. */
#define LOD_TOLERANCE (1.0 / 8)

/* One visible row while events are drawn. */
typedef struct
{
  guint          slot;
  double         y;
  const gint64  *times;
  guint64        n;
  guint64        lo;        /* first event with time >= t0 */
  guint64        hi;        /* first event with time >= t1 */
  gboolean       density;
  float         *counts;    /* density rows and rows with bursts: n_columns counts */
  guint8        *in_burst;  /* tick rows with bursts: hi - lo flags, else NULL */
  guint          density_line;  /* its line in the density image */
  const guint32 *matches;   /* sorted track indices of search matches */
  guint64        n_matches;
  CpelRGBA       track_color;   /* CPEL_COLOR_BY_TRACK: its ticks' colour */
  double         sel_x0;    /* the selected event's callout [sel_x0, sel_x1), */
  double         sel_x1;    /* which other labels give way to (none: equal) */
  gboolean       span_row;  /* spans or states drawn in it: their labels, not the events' */
  gboolean       spans_dense;  /* more spans in range than half its columns */
} RowInfo;

static inline double
hair (CpelRenderCtx *ctx)
{
  return 1.0 / ctx->scale;
}

static inline gboolean
event_hidden (CpelRenderCtx *ctx, guint slot, guint64 i)
{
  if (!ctx->any_hidden)
    return FALSE;
  return cpel_view_code_hidden (ctx->view, ctx->file,
                                cpel_file_get_track_event_code (ctx->file, slot, i));
}

/* Column counts of a density row; returns the largest. */
float cpel_tracks_density_counts (CpelRenderCtx *ctx, RowInfo *row);

/* The same from the track's level-of-detail summary (cpel-lod.h). */
float cpel_tracks_density_counts_lod (CpelRenderCtx *ctx, RowInfo *row,
                                      const gint64 *bounds, double *pos);

/* A tick row's bursts (BURST_MIN_EVENTS close together) counted per column
 * and flagged per event; returns the largest count. */
float cpel_tracks_find_bursts (CpelRenderCtx *ctx, RowInfo *row);

/* Whether event i of the row is in a burst. */
gboolean cpel_tracks_in_burst (const RowInfo *row, guint64 i);

/* The density rows' shades (n_density of the n_vis rows). */
void cpel_tracks_draw_density_rows (CpelRenderCtx *ctx, RowInfo *rows, guint n_vis,
                                    guint n_density, float max);

/* Summary mode: a column's bar height in device px for `count` events. */
int cpel_tracks_summary_bar_px (double count, double norm, int hp);

/* Summary mode: the rows' height for bars in device pixels (at least 1). */
int cpel_tracks_summary_height_px (CpelRenderCtx *ctx);

void cpel_tracks_draw_summary_baselines (CpelRenderCtx *ctx, RowInfo *rows, guint n_vis);

void cpel_tracks_draw_summary_bars (CpelRenderCtx *ctx, RowInfo *rows, guint n_vis,
                                    guint n_shaded, double norm);
