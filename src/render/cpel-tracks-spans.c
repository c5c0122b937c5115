/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks-spans.c — spans and states in their tracks' rows
 *
 * A row with spans shows them as bars under its events, nested spans
 * stacked by depth in lanes from the top (more depths than lanes of
 * SPAN_LANE_MIN px fit: the last lane is a grey "+n" band for the deeper
 * ones), each labelled "name duration" when it is wide enough (the events
 * of such a row keep their ticks, their labels give way).  A row with
 * states shows them as a band at its bottom.  Orphans (no begin, no end,
 * interrupted) fade out towards the end they lack.
 *
 * The cost stays O(pixels): only the spans of the visible range are read
 * (a lower bound on t0, plus the spans still open at t0: back from it to
 * the first span of depth 0, which no earlier span can cover); a row with
 * more of them than half its pixel columns is drawn per column, as the
 * share of SPAN_SAMPLES sample times a span covers, from binary searches
 * (a column where spans begin that no sample hits: half strength);
 * states narrower than a pixel are drawn as the state at each column's
 * middle.
 */
#include <math.h>
#include <string.h>

#include "cpel-tracks-private.h"

#define SPAN_LANE_MIN   4.0    /* px: a lane is at least this tall */
#define SPAN_SAMPLES    4      /* sample times per column in a dense row */
#define SPAN_SCAN_MAX   256    /* spans read back from t0 for those open at t0 */
#define SPAN_FADE       28.0   /* px: an orphan's fading end */
#define SPAN_LABEL_MIN  24.0   /* px: a bar narrower has no label */
#define SPAN_TRACE_ALPHA 0.5   /* a dense column with spans no sample hit */
#define SPAN_LEGEND_SCAN 4096  /* states read per track for a compare view's legend */
#define SPAN_DIM_ALPHA  0.7    /* background over a span a highlight leaves out */
#define SPAN_HL_SCAN    64     /* spans beginning in a dense column checked for a highlight */
#define COVERAGE_MIN_BUCKETS 2 /* a dense column read from the spans' coverage when it holds more */

/* ---- colours ------------------------------------------------------------- */

static void
rgb_hex (CpelRGBA *c, guint32 rgb)
{
  c->r = ((rgb >> 16) & 0xff) / 255.0;
  c->g = ((rgb >> 8) & 0xff) / 255.0;
  c->b = (rgb & 0xff) / 255.0;
  c->a = 1.0;
}

/* Soft colours that event ticks and dark text read on (light), and darker
 * ones that light text reads on (dark); neighbours apart. */
static const guint32 span_colors_light[] = {
  0x99c1f1, 0xf9c890, 0xa3e4b8, 0xdcb6ef, 0xf7a8a8, 0xb5e8e0,
  0xf5dc8c, 0xc8c0f0, 0xd6e6a0, 0xf0b8d8, 0xb8d4e8, 0xe8c8a8,
};
static const guint32 span_colors_dark[] = {
  0x1c4f8c, 0x8a4b0c, 0x1f6b3c, 0x5d3278, 0x8a2a2a, 0x1c6660,
  0x7a6212, 0x433b86, 0x56661c, 0x7a2a5a, 0x2f5a78, 0x6b4a2a,
};

void
cpel_palette_get_span_color (const CpelPalette *palette,
                             const char        *name,
                             CpelRGBA          *color)
{
  guint h;

  g_return_if_fail (palette != NULL);
  g_return_if_fail (color != NULL);

  /* the multiplier and shift keep VPP's dispatch nodes, its main thread's
   * spans and Snabb's apart */
  h = g_str_hash (name != NULL ? name : "");
  h = (h * 0x27D4EB2Fu) >> 22;
  if (palette->dark)
    rgb_hex (color, span_colors_dark[h % G_N_ELEMENTS (span_colors_dark)]);
  else
    rgb_hex (color, span_colors_light[h % G_N_ELEMENTS (span_colors_light)]);
}

/* Thread states by name: light, dark. */
static const struct
{
  const char *prefix;
  guint32     light, dark;
} state_colors[] = {
  { "Running", 0x33b864, 0x2ec27e },
  { "Runnable", 0xf5a623, 0xe5a50a },
  { "Preempted", 0xf5a623, 0xe5a50a },
  { "Sleeping", 0x8fb8ee, 0x3f6fb0 },
  { "Uninterruptible", 0xe0343e, 0xe64553 },
  { "Stopped", 0xa865c9, 0x9a5fc0 },
  { "Dead", 0x5e5c64, 0x9a9996 },
  { "Off CPU", 0xc0bfbc, 0x5e5c64 },
  { "Idle", 0xdeddda, 0x48464e },
  { "Parked", 0xb8b0c8, 0x4a4458 },
  { "Unknown", 0xe8e7e5, 0x38363c },
  /* a DPDK lcore: running a launched function, or waiting for one */
  { "lcore running", 0x33b864, 0x2ec27e },
  { "lcore ready", 0xdeddda, 0x48464e },
  { "lcore stopped", 0xdeddda, 0x48464e },
};

void
cpel_palette_get_state_color (const CpelPalette *palette,
                              const char        *name,
                              CpelRGBA          *color)
{
  g_return_if_fail (palette != NULL);
  g_return_if_fail (color != NULL);

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (state_colors); i++)
    if (g_ascii_strncasecmp (name, state_colors[i].prefix,
                             strlen (state_colors[i].prefix)) == 0)
      {
        rgb_hex (color, palette->dark ? state_colors[i].dark : state_colors[i].light);
        return;
      }
  /* other states: by name, from the event colours */
  *color = palette->type_colors[((g_str_hash (name != NULL ? name : "") * 0x9E3779B1u) >> 28)
                                % CPEL_PALETTE_N_TYPE_COLORS];
}

static void
text_on (const CpelRGBA *fill, CpelRGBA *text)
{
  double luma = 0.2126 * fill->r + 0.7152 * fill->g + 0.0722 * fill->b;

  text->r = text->g = text->b = luma > 0.5 ? 0.0 : 1.0;
  text->a = luma > 0.5 ? 0.85 : 0.95;
}

/* ---- geometry, shared by drawing and hit testing -------------------------- */

typedef struct
{
  const CpelSpan *a;
  guint64         n;
  guint64         first;      /* the first span that may show (open at t0 or later) */
  guint64         hi;         /* spans beginning before t1: [first, hi) */
  gboolean        dense;      /* drawn per column */
  guint           max_depth;  /* deepest span shown (not dense) */
  guint           n_lanes;
  gboolean        overflow;   /* the last lane is the "+n" band */
  double          top;        /* the span area */
  double          height;
  double          lane_h;
  double          state_top;  /* the state band (state_h 0: none) */
  double          state_h;
  /* the track's event times and the orphans' edges: sr_begin () / sr_end ()
   * as cpel_spans_begin_ns () / _end_ns (), inline (a frame reads millions) */
  const gint64   *times;
  guint64         n_events;
  gint64          edge_begin;
  gint64          edge_end;
} SpanRow;

static inline gint64
sr_time (const SpanRow *sr,
         guint32        index)
{
  return index < sr->n_events ? sr->times[index] : sr->edge_end;
}

static inline gint64
sr_begin (const SpanRow  *sr,
          const CpelSpan *s)
{
  if (G_UNLIKELY (s->flags & CPEL_SPAN_NO_BEGIN))
    return MIN (sr->edge_begin, sr_time (sr, s->end));
  return sr_time (sr, s->begin);
}

static inline gint64
sr_end (const SpanRow  *sr,
        const CpelSpan *s)
{
  if (G_UNLIKELY (s->flags & CPEL_SPAN_NO_END))
    return MAX (sr->edge_end, sr_time (sr, s->begin));
  return sr_time (sr, s->end);
}

static gboolean
span_row_layout (const CpelView *view,
                 double          pixels,
                 guint           slot,
                 double          y,
                 SpanRow        *sr)
{
  CpelSpans *spans = view->spans;
  guint64 n_states = 0, lo, k;
  double h = view->row_height;

  memset (sr, 0, sizeof *sr);
  if (spans == NULL || slot == G_MAXUINT)
    return FALSE;
  sr->times = cpel_file_get_track_times (view->file, slot, &sr->n_events);
  if (sr->times == NULL)
    sr->n_events = 0;
  cpel_spans_get_edges (spans, &sr->edge_begin, &sr->edge_end);
  sr->a = cpel_spans_get_track_spans (spans, slot, &sr->n);
  if (sr->a == NULL)
    sr->n = 0;
  if (cpel_spans_get_track_states (spans, slot, &n_states) == NULL)
    n_states = 0;
  if (sr->n == 0 && n_states == 0)
    return FALSE;

  if (n_states > 0)
    {
      sr->state_h = CLAMP (floor (h * 0.22), 3.0, 6.0);
      /* states alone (a thread's, a CPU's): two thirds of the row, room
       * for their labels */
      if (sr->n == 0)
        sr->state_h = floor (MAX (h - 2.0, 1.0) * 2 / 3);
      sr->state_top = y + h - 1.0 - sr->state_h;
    }
  sr->top = y + 1.0;
  sr->height = h - 2.0 - (sr->state_h > 0 ? sr->state_h + 1.0 : 0.0);
  if (sr->n == 0 || sr->height < 1.0)
    {
      sr->n = 0;
      return TRUE;
    }

  lo = cpel_spans_track_lower_bound (spans, slot, view->t0);
  sr->hi = cpel_spans_track_lower_bound (spans, slot, view->t1);
  /* back to the first span of depth 0: no span before it is open at t0 */
  sr->first = lo;
  for (k = 0; k < SPAN_SCAN_MAX && sr->first > 0; k++)
    {
      sr->first--;
      if (sr->a[sr->first].depth == 0)
        break;
    }
  sr->dense = (double) (sr->hi - sr->first) * 2 > pixels;
  if (!sr->dense)
    for (k = sr->first; k < sr->hi; k++)
      if (sr_end (sr, &sr->a[k]) >= view->t0)
        sr->max_depth = MAX (sr->max_depth, sr->a[k].depth);

  {
    guint max_lanes = MAX ((guint) floor (sr->height / SPAN_LANE_MIN), 1);
    guint want = sr->dense ? 1 : sr->max_depth + 1;

    sr->overflow = want > max_lanes;
    sr->n_lanes = MIN (want, max_lanes);
    sr->lane_h = sr->height / sr->n_lanes;
  }
  return TRUE;
}

static guint
span_lane (const SpanRow *sr, const CpelSpan *s)
{
  return MIN ((guint) s->depth, sr->n_lanes - 1);
}

/* The first span from `lo` on beginning at or after t, galloping from lo
 * (the spans before lo begin before t): a few nearby reads when the answer
 * is close, as it is for the next sample of a frame. */
static guint64
gallop_lower_bound (CpelSpans *spans, guint slot, const SpanRow *sr, guint64 lo, gint64 t)
{
  guint64 hi = lo, step = 1;

  while (hi < sr->n && sr_begin (sr, &sr->a[hi]) < t)
    {
      lo = hi + 1;
      hi = lo + step;
      step *= 2;
    }
  hi = MIN (hi, sr->n);
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (sr_begin (sr, &sr->a[mid]) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The span covering t (innermost first), reading back from the last span
 * beginning at or before t to one of depth 0; G_MAXUINT64 when none.
 * *hint: a lower bound of where the last span beginning at or before t
 * is found (0, or the value left by a call for an earlier time). */
static guint64
span_at (CpelSpans *spans, guint slot, const SpanRow *sr, gint64 t, guint64 *hint)
{
  guint64 k = gallop_lower_bound (spans, slot, sr, *hint, t == G_MAXINT64 ? t : t + 1);

  *hint = k;
  for (guint i = 0; i < SPAN_SCAN_MAX && k > 0; i++)
    {
      const CpelSpan *s = &sr->a[--k];

      if (sr_end (sr, s) > t)
        return k;
      if (s->depth == 0)
        break;
    }
  return G_MAXUINT64;
}

/* The first state beginning at or after t (n when none); O(log n). */
static guint64
states_lower_bound (CpelSpans *spans, guint slot, const CpelSpan *a, guint64 n, gint64 t)
{
  guint64 lo = 0, hi = n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (cpel_spans_begin_ns (spans, slot, &a[mid]) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* ---- drawing ------------------------------------------------------------- */

/* A gradient over [a, b) from alpha `from` to `to` (of c), drawn over
 * [x0, x1) of it. */
static void
fade_rect (cairo_t *cr, const CpelRGBA *c, double a, double b, double from, double to,
           double x0, double x1, double y, double h)
{
  cairo_pattern_t *p;

  x0 = MAX (x0, a);
  x1 = MIN (x1, b);
  if (x1 <= x0)
    return;
  p = cairo_pattern_create_linear (a, 0, b, 0);
  cairo_pattern_add_color_stop_rgba (p, 0, c->r, c->g, c->b, c->a * from);
  cairo_pattern_add_color_stop_rgba (p, 1, c->r, c->g, c->b, c->a * to);
  cairo_set_source (cr, p);
  cairo_rectangle (cr, x0, y, x1 - x0, h);
  cairo_fill (cr);
  cairo_pattern_destroy (p);
}

/* An orphan fades out towards the end it lacks (bx0, bx1: its drawn ends;
 * [x0, x1): the part drawn).  Each fade is a gradient of its own few
 * pixels: one across a span thousands of pixels wide loses its stops. */
static void
fill_orphan (CpelRenderCtx *ctx, const CpelSpan *s, double x0, double x1, double y, double h,
             double bx0, double bx1, const CpelRGBA *c)
{
  cairo_t *cr = ctx->cr;
  gboolean left = (s->flags & CPEL_SPAN_NO_BEGIN) != 0;
  gboolean right = (s->flags & (CPEL_SPAN_NO_END | CPEL_SPAN_INTERRUPTED)) != 0;
  double f = MIN (SPAN_FADE, (bx1 - bx0) * (left && right ? 0.3 : 0.6));
  double s0 = left ? bx0 + f : bx0, s1 = right ? bx1 - f : bx1;

  if (left)
    fade_rect (cr, c, bx0, bx0 + f, 0.0, 1.0, x0, x1, y, h);
  if (right)
    fade_rect (cr, c, bx1 - f, bx1, 1.0, 0.0, x0, x1, y, h);
  s0 = MAX (s0, x0);
  s1 = MIN (s1, x1);
  if (s1 > s0)
    {
      cpel_render_set_color (cr, c);
      cairo_rectangle (cr, s0, y, s1 - s0, h);
      cairo_fill (cr);
    }
}

static void
span_label (CpelRenderCtx *ctx, CpelSpans *spans, guint slot, const CpelSpan *s,
            double x0, double x1, double y, double h, const CpelRGBA *fill)
{
  cairo_t *cr = ctx->cr;
  const char *name = cpel_spans_get_name (spans, s->name);
  gint64 d = cpel_spans_end_ns (spans, slot, s) - cpel_spans_begin_ns (spans, slot, s);
  CpelTimeKind kind = cpel_file_get_time_kind (ctx->file);
  g_autofree char *dur = cpel_time_format_kind (d, kind);
  /* an orphan lasted at least what is drawn */
  g_autofree char *text = g_strdup_printf ((s->flags & (CPEL_SPAN_NO_BEGIN | CPEL_SPAN_NO_END))
                                           ? "%s ≥%s" : "%s %s", name, dur);
  double room = x1 - x0 - 6, w;
  PangoLayout *layout;
  CpelRGBA fg;

  if (room < SPAN_LABEL_MIN - 6 || h < ctx->text_height - 3)
    return;
  layout = cpel_render_ctx_text (ctx, text, -1, 0);
  w = cpel_render_layout_width (layout);
  if (w > room)
    {
      layout = cpel_render_ctx_text (ctx, name, -1, room);
      w = cpel_render_layout_width (layout);
      if (w > room || pango_layout_is_ellipsized (layout)
          || g_utf8_strlen (name, -1) <= 1)
        {
          /* an ellipsized name when at least a few characters show */
          if (room < 4 * ctx->char_width)
            return;
          w = room;
        }
    }
  text_on (fill, &fg);
  cairo_save (cr);
  cairo_rectangle (cr, x0, y, x1 - x0, h);
  cairo_clip (cr);
  cpel_render_set_color (cr, &fg);
  cairo_move_to (cr, x0 + 3, y + (h - ctx->text_height) / 2);
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
}

static gboolean
is_selected (const CpelView *view, guint slot, gboolean state, guint64 k)
{
  return view->has_span_selection && view->selected_span_slot == slot
         && !!view->selected_span_state == !!state && view->selected_span_index == k;
}

/* Whether view->span_filter lets span s through (no filter: FALSE). */
static gboolean
is_highlighted (CpelRenderCtx *ctx, CpelSpans *spans, guint slot, const CpelSpan *s)
{
  const CpelSpanFilter *f = ctx->view->span_filter;
  gint64 b, d;

  if (f == NULL || (s->flags & (CPEL_SPAN_ORPHAN | CPEL_SPAN_STATE)) != 0
      || s->name >= ctx->span_hl_n_names || !ctx->span_hl_names[s->name])
    return FALSE;
  b = cpel_spans_begin_ns (spans, slot, s);
  d = cpel_spans_end_ns (spans, slot, s) - b;
  return d >= f->min_ns && d <= f->max_ns && b >= f->from_ns && b <= f->to_ns;
}

/* A highlighted span's frame: two pixels of the accent colour. */
static void
outline_highlight (CpelRenderCtx *ctx, double x0, double x1, double y, double h)
{
  cairo_t *cr = ctx->cr;

  cpel_render_set_color (cr, &ctx->pal->accent);
  if (x1 - x0 < 4 || h < 4)
    {
      cairo_rectangle (cr, x0, y, MAX (x1 - x0, 2.0 / ctx->scale), h);
      cairo_fill (cr);
      return;
    }
  cairo_set_line_width (cr, 2.0);
  cairo_rectangle (cr, x0 + 1, y + 1, x1 - x0 - 2, h - 2);
  cairo_stroke (cr);
}

static void
outline (CpelRenderCtx *ctx, double x0, double x1, double y, double h)
{
  cairo_t *cr = ctx->cr;

  cairo_save (cr);
  cpel_render_set_color (cr, &ctx->pal->selection);
  cairo_set_line_width (cr, 2.0);
  cairo_rectangle (cr, x0 + 1, y + 1, MAX (x1 - x0 - 2, 0.5), MAX (h - 2, 0.5));
  cairo_stroke (cr);
  /* and a hairline inside in the text colour: the selection's blue alone
   * hardly shows on a blue span */
  if (x1 - x0 > 6 && h > 6)
    {
      cpel_render_set_color (cr, &ctx->pal->foreground);
      cairo_set_line_width (cr, 1.0);
      cairo_rectangle (cr, x0 + 2.5, y + 2.5, x1 - x0 - 5, h - 5);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

static void
draw_sparse (CpelRenderCtx *ctx, CpelSpans *spans, guint slot, const SpanRow *sr)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  double xl = ctx->x0, xr = ctx->x0 + ctx->tw, px = 1.0 / ctx->scale;
  double sel_x0 = 0, sel_x1 = 0, sel_y = 0;
  gboolean sel = FALSE;
  guint64 more = 0;

  for (guint64 k = sr->first; k < sr->hi; k++)
    {
      const CpelSpan *s = &sr->a[k];
      gint64 b = cpel_spans_begin_ns (spans, slot, s);
      gint64 e = cpel_spans_end_ns (spans, slot, s);
      double bx0, bx1, x0, x1, y;
      guint lane;
      CpelRGBA c;

      if (e < view->t0 || (e == view->t0 && b < e))
        continue;
      bx0 = cpel_view_time_to_x (view, ctx->width, b);
      bx1 = cpel_view_time_to_x (view, ctx->width, e);
      x0 = MAX (bx0, xl - SPAN_FADE);
      x1 = MIN (MAX (bx1, bx0 + px), xr + SPAN_FADE);
      lane = span_lane (sr, s);
      y = sr->top + lane * sr->lane_h;
      if (sr->overflow && lane == sr->n_lanes - 1)
        {
          /* the "+n" band: the deeper spans in one grey lane */
          more = MAX (more, (guint64) s->depth - lane + 1);
          cpel_render_set_color_alpha (cr, &ctx->pal->dim, 0.45);
          cairo_rectangle (cr, x0, y, x1 - x0, sr->lane_h);
          cairo_fill (cr);
          continue;
        }
      cpel_palette_get_span_color (ctx->pal, cpel_spans_get_name (spans, s->name), &c);
      if (s->flags & CPEL_SPAN_ORPHAN)
        fill_orphan (ctx, s, x0, x1, y, sr->lane_h, bx0, MAX (bx1, bx0 + px), &c);
      else
        {
          cpel_render_set_color (cr, &c);
          cairo_rectangle (cr, x0, y, x1 - x0, sr->lane_h);
          cairo_fill (cr);
        }
      /* a line between spans back to back */
      if (x1 - x0 > 4 && bx0 >= xl)
        {
          cpel_render_set_color_alpha (cr, &ctx->pal->background, 0.9);
          cairo_rectangle (cr, x0, y, px, sr->lane_h);
          cairo_fill (cr);
        }
      span_label (ctx, spans, slot, s,
                  MAX (x0 + ((s->flags & CPEL_SPAN_NO_BEGIN) ? MIN (SPAN_FADE, (x1 - x0) / 3) : 0),
                       xl),
                  MIN (x1, xr), y, sr->lane_h, &c);
      if (view->span_filter != NULL)
        {
          if (is_highlighted (ctx, spans, slot, s))
            outline_highlight (ctx, x0, x1, y, sr->lane_h);
          else
            {
              cpel_render_set_color_alpha (cr, &ctx->pal->background, SPAN_DIM_ALPHA);
              cairo_rectangle (cr, x0, y, x1 - x0, sr->lane_h);
              cairo_fill (cr);
            }
        }
      if (is_selected (view, slot, FALSE, k))
        {
          sel = TRUE;
          sel_x0 = x0;
          sel_x1 = x1;
          sel_y = y;
        }
    }
  if (more > 0 && sr->lane_h >= 3)
    {
      g_autofree char *text = g_strdup_printf ("+%" G_GUINT64_FORMAT, more);
      PangoLayout *layout = cpel_render_ctx_text (ctx, text, -1, 0);
      double w = cpel_render_layout_width (layout) + 6;
      double hh = MIN (ctx->text_height, sr->height);
      /* a pill on the band at the row's left, kept inside the row */
      double y = MAX (sr->top + sr->height - hh, sr->top);

      cairo_save (cr);
      cairo_rectangle (cr, xl, sr->top, ctx->tw, sr->height);
      cairo_clip (cr);
      cpel_render_rounded_rect (cr, xl + 2, y, w, hh, 3);
      cpel_render_set_color_alpha (cr, &ctx->pal->label_bg, 0.85);
      cairo_fill (cr);
      cpel_render_set_color (cr, &ctx->pal->foreground);
      cairo_move_to (cr, xl + 5, y + (hh - ctx->text_height) / 2);
      pango_cairo_show_layout (cr, layout);
      cairo_restore (cr);
    }
  if (sel)
    outline (ctx, sel_x0, sel_x1, sel_y, sr->lane_h);
}

/* The share of [c0, c1) the track's spans cover, from the buckets it
 * overlaps (partly covered ones in proportion), and in *name the name of
 * the first of them that a span covers (G_MAXUINT32: none). */
static double
coverage_share (const CpelSpanCoverage *cov,
                guint64                 n,
                guint                   shift,
                gint64                  c0,
                gint64                  c1,
                guint                  *name)
{
  guint64 k0 = (guint64) c0 >> shift, k1 = (guint64) (c1 - 1) >> shift;
  double sum = 0;

  *name = G_MAXUINT32;
  for (guint64 k = k0; k <= k1 && k < n; k++)
    {
      double lo = MAX ((double) c0, (double) (k << shift));
      double hi = MIN ((double) c1, (double) ((k + 1) << shift));

      if (cov[k].covered <= 0)
        continue;
      if (*name == G_MAXUINT32)
        *name = cov[k].name;
      sum += cov[k].covered * (hi - lo);
    }
  return sum / (double) (c1 - c0);
}

/* Per device column: the share of its sample times a span covers, in the
 * colour of the first covering span; into an image a pixel high, drawn
 * stretched over the span area in one paint (a fill per column costs
 * cairo microseconds each). */
static void
draw_dense (CpelRenderCtx *ctx, CpelSpans *spans, guint slot, const SpanRow *sr)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  guint nc = ctx->n_columns;
  cairo_surface_t *image;
  cairo_pattern_t *pattern;
  cairo_matrix_t m;
  guint32 *line;
  guint last_name = G_MAXUINT;
  CpelRGBA col = { 0 };
  guint64 hint = sr->first;
  /* a lower bound of the first span beginning in the column: found only
   * for a column no sample hit or for a highlight (a dense column is
   * mostly covered: two searches per column saved) */
  guint64 begun = sr->first;
  guint shift = 0;
  guint64 n_buckets = 0;
  const CpelSpanCoverage *cov = cpel_spans_get_coverage (spans, slot, &shift, &n_buckets);

  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) nc, 1);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (image);
      return;
    }
  cairo_surface_flush (image);
  line = (guint32 *) (gpointer) cairo_image_surface_get_data (image);
  for (guint c = 0; c < nc; c++)
    {
      gint64 c0 = cpel_render_column_time (view->t0, view->t1, c, nc);
      gint64 c1 = cpel_render_column_time (view->t0, view->t1, c + 1, nc);
      guint name = G_MAXUINT, level = 0;
      guint64 next_begun = begun;
      gboolean hl = FALSE;
      double a;

      /* many buckets of the coverage in the column: read them, not the spans
       * (at 10^8 events, samples of the spans are cache misses each) */
      if (cov != NULL && view->span_filter == NULL && c0 >= 0 && c1 > c0
          && (guint64) (c1 - c0) >= ((guint64) COVERAGE_MIN_BUCKETS << shift))
        {
          double share = coverage_share (cov, n_buckets, shift, c0, c1, &name);

          if (name == G_MAXUINT32)
            {
              line[c] = 0;
              continue;
            }
          /* as the samples would: a share in steps of SPAN_SAMPLES, a
           * column with less than a step faint */
          level = (guint) floor (share * SPAN_SAMPLES + 0.5);
          a = level > 0 ? (double) MIN (level, SPAN_SAMPLES) / SPAN_SAMPLES : SPAN_TRACE_ALPHA;
          if (name != last_name)
            {
              cpel_palette_get_span_color (ctx->pal, cpel_spans_get_name (spans, name), &col);
              last_name = name;
            }
          line[c] = (guint32) (a * 255 + 0.5) << 24 | (guint32) (col.r * a * 255 + 0.5) << 16
                    | (guint32) (col.g * a * 255 + 0.5) << 8 | (guint32) (col.b * a * 255 + 0.5);
          continue;
        }
      for (guint j = 0; j < SPAN_SAMPLES; j++)
        {
          gint64 t = c0 + (gint64) (((double) j + 0.5) * (double) (c1 - c0) / SPAN_SAMPLES);
          guint64 k = span_at (spans, slot, sr, t, &hint);

          if (k == G_MAXUINT64)
            continue;
          level++;
          if (name == G_MAXUINT)
            name = sr->a[k].name;
          if (view->span_filter != NULL && !hl)
            hl = is_highlighted (ctx, spans, slot, &sr->a[k]);
        }
      if (view->span_filter != NULL || level == 0)
        {
          begun = gallop_lower_bound (spans, slot, sr, begun, c0);
          next_begun = gallop_lower_bound (spans, slot, sr, begun, c1);
        }
      for (guint64 k = begun; view->span_filter != NULL && !hl && k < next_begun
           && k < begun + SPAN_HL_SCAN; k++)
        hl = is_highlighted (ctx, spans, slot, &sr->a[k]);
      if (hl)
        {
          line[c] = cpel_pixels_color (&ctx->pal->accent);
          begun = next_begun;
          continue;
        }
      /* spans too short for any sample still mark their column, faintly */
      if (level == 0 && next_begun > begun)
        name = sr->a[begun].name;
      begun = next_begun;
      if (name == G_MAXUINT)
        {
          line[c] = 0;
          continue;
        }
      if (name != last_name)
        {
          cpel_palette_get_span_color (ctx->pal, cpel_spans_get_name (spans, name), &col);
          last_name = name;
        }
      a = level > 0 ? (double) level / SPAN_SAMPLES : SPAN_TRACE_ALPHA;
      if (view->span_filter != NULL)
        a *= 1.0 - SPAN_DIM_ALPHA;
      line[c] = (guint32) (a * 255 + 0.5) << 24 | (guint32) (col.r * a * 255 + 0.5) << 16
                | (guint32) (col.g * a * 255 + 0.5) << 8 | (guint32) (col.b * a * 255 + 0.5);
    }
  cairo_surface_mark_dirty (image);

  pattern = cairo_pattern_create_for_surface (image);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_PAD);
  /* user (x0 + c / scale, top + f * height) -> pattern (c, f) */
  cairo_matrix_init (&m, ctx->scale, 0, 0, 1.0 / sr->height, -ctx->x0 * ctx->scale,
                     -sr->top / sr->height);
  cairo_pattern_set_matrix (pattern, &m);
  cairo_set_source (cr, pattern);
  cairo_rectangle (cr, ctx->x0, sr->top, ctx->tw, sr->height);
  cairo_fill (cr);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (image);
}

static guint legend_rank (const char *name);

/* Known states only: a CPU's states are its threads, not for a legend. */
static void
legend_add (CpelRenderCtx *ctx, guint name)
{
  if (legend_rank (cpel_spans_get_name (ctx->view->spans, name)) >= G_N_ELEMENTS (state_colors))
    return;
  for (guint i = 0; i < ctx->n_legend; i++)
    if (ctx->legend[i] == name)
      return;
  if (ctx->n_legend < CPEL_RENDER_LEGEND_MAX)
    ctx->legend[ctx->n_legend++] = name;
}

/* Where a state's name comes in the legend: the known ones in their
 * table's order, then the others. */
static guint
legend_rank (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (state_colors); i++)
    if (g_ascii_strncasecmp (name, state_colors[i].prefix, strlen (state_colors[i].prefix)) == 0)
      return i;
  return G_N_ELEMENTS (state_colors);
}

void
cpel_render_spans_legend_add_track (CpelRenderCtx *ctx,
                                    guint          slot,
                                    gint64         t0,
                                    gint64         t1)
{
  CpelSpans *spans = ctx->view->spans;
  const CpelSpan *a;
  guint64 n = 0, i;

  if (spans == NULL)
    return;
  a = cpel_spans_get_track_states (spans, slot, &n);
  if (a == NULL || n == 0)
    return;
  i = states_lower_bound (spans, slot, a, n, t0);
  if (i > 0)
    i--;
  for (guint k = 0; i < n && k < SPAN_LEGEND_SCAN; i++, k++)
    {
      if (cpel_spans_begin_ns (spans, slot, &a[i]) >= t1)
        break;
      legend_add (ctx, a[i].name);
    }
}

/* "■ Running  ■ Off CPU …" in a box at the timeline's lower right. */
void
cpel_render_spans_legend (CpelRenderCtx *ctx)
{
  cairo_t *cr = ctx->cr;
  CpelSpans *spans = ctx->view->spans;
  double sw = 10, gap = 12, pad = 6, w = pad, h = ctx->text_height + 2 * 3, x, y, rows_end;
  double widths[CPEL_RENDER_LEGEND_MAX];
  struct { guint *names; guint n; } l = { ctx->legend, ctx->n_legend }, *legend = &l;

  if (spans == NULL || legend->n == 0)
    return;
  /* insertion sort by rank, then name */
  for (guint i = 1; i < legend->n; i++)
    for (guint j = i; j > 0; j--)
      {
        const char *a = cpel_spans_get_name (spans, legend->names[j - 1]);
        const char *b = cpel_spans_get_name (spans, legend->names[j]);
        guint ra = legend_rank (a), rb = legend_rank (b);
        guint t;

        if (ra < rb || (ra == rb && strcmp (a, b) <= 0))
          break;
        t = legend->names[j - 1];
        legend->names[j - 1] = legend->names[j];
        legend->names[j] = t;
      }
  for (guint i = 0; i < legend->n; i++)
    {
      PangoLayout *layout = cpel_render_ctx_text (ctx, cpel_spans_get_name (spans,
                                                                            legend->names[i]),
                                                  -1, 160);

      widths[i] = cpel_render_layout_width (layout);
      w += sw + 4 + widths[i] + (i + 1 < legend->n ? gap : pad);
    }
  /* Below the last row when there is room (cpel_view_get_legend_room
   * keeps some when scrolled to the end), else over the rows' bottom. */
  h = MIN (h, CPEL_VIEW_LEGEND_ROOM - 4);
  rows_end = cpel_view_get_row_y (ctx->view, ctx->n_rows);
  x = ctx->x0 + ctx->tw - w - 8;
  y = ctx->height - h - 8;
  if (y < rows_end + 2 && ctx->height - rows_end >= h + 4)
    y = rows_end + (ctx->height - rows_end - h) / 2;
  if (x < ctx->x0 || y < ctx->view->ruler_height)
    return;
  cairo_save (cr);
  cpel_render_rounded_rect (cr, x, y, w, h, 4);
  cpel_render_set_color_alpha (cr, &ctx->pal->label_bg, 0.92);
  cairo_fill_preserve (cr);
  cpel_render_set_color (cr, &ctx->pal->grid);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  x += pad;
  for (guint i = 0; i < legend->n; i++)
    {
      const char *name = cpel_spans_get_name (spans, legend->names[i]);
      PangoLayout *layout;
      CpelRGBA c;

      cpel_palette_get_state_color (ctx->pal, name, &c);
      cpel_render_set_color (cr, &c);
      cairo_rectangle (cr, x, y + (h - sw) / 2, sw, sw);
      cairo_fill (cr);
      x += sw + 4;
      layout = cpel_render_ctx_text (ctx, name, -1, 160);
      cpel_render_set_color (cr, &ctx->pal->foreground);
      cairo_move_to (cr, x, y + 3);
      pango_cairo_show_layout (cr, layout);
      x += widths[i] + gap;
    }
  cairo_restore (cr);
}

static void
draw_states (CpelRenderCtx *ctx, CpelSpans *spans, guint slot, const SpanRow *sr)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  guint64 n = 0, i;
  const CpelSpan *a = cpel_spans_get_track_states (spans, slot, &n);
  guint nc = ctx->n_columns;
  double px = 1.0 / ctx->scale, xr = ctx->x0 + ctx->tw;

  if (a == NULL || n == 0 || sr->state_h <= 0)
    return;
  i = states_lower_bound (spans, slot, a, n, view->t0);
  if (i > 0)
    i--;
  while (i < n)
    {
      const CpelSpan *s = &a[i];
      gint64 b = cpel_spans_begin_ns (spans, slot, s);
      gint64 e = cpel_spans_end_ns (spans, slot, s);
      double x0, x1;
      CpelRGBA col;

      if (b >= view->t1)
        break;
      x0 = MAX (cpel_view_time_to_x (view, ctx->width, b), ctx->x0);
      x1 = MIN (cpel_view_time_to_x (view, ctx->width, e), xr);
      if (e <= view->t0)
        {
          i++;
          continue;
        }
      if (x1 - x0 >= px)
        {
          cpel_palette_get_state_color (ctx->pal, cpel_spans_get_name (spans, s->name), &col);
          legend_add (ctx, s->name);
          cpel_render_set_color (cr, &col);
          cairo_rectangle (cr, x0, sr->state_top, x1 - x0, sr->state_h);
          cairo_fill (cr);
          span_label (ctx, spans, slot, s, x0, x1, sr->state_top, sr->state_h, &col);
          if (is_selected (view, slot, TRUE, i))
            outline (ctx, x0, MAX (x1, x0 + 4), sr->state_top - 1, sr->state_h + 2);
          i++;
        }
      else
        {
          /* narrower than a pixel: the column shows the state at its middle */
          gint64 col_i = cpel_render_time_column (view->t0, view->t1, nc, MAX (b, view->t0));
          gint64 c0, c1, mid;
          guint64 j, next;

          if (col_i < 0)
            col_i = 0;
          if ((guint64) col_i >= nc)
            break;
          c0 = cpel_render_column_time (view->t0, view->t1, col_i, nc);
          c1 = cpel_render_column_time (view->t0, view->t1, col_i + 1, nc);
          mid = c0 + (c1 - c0) / 2;
          j = states_lower_bound (spans, slot, a, n, mid + 1);
          j = j > 0 ? j - 1 : 0;
          cpel_palette_get_state_color (ctx->pal, cpel_spans_get_name (spans, a[j].name), &col);
          legend_add (ctx, a[j].name);
          cpel_render_set_color (cr, &col);
          cairo_rectangle (cr, ctx->x0 + (double) col_i * ctx->tw / nc, sr->state_top,
                           ctx->tw / nc, sr->state_h);
          cairo_fill (cr);
          /* on from the state at the next column's start */
          next = states_lower_bound (spans, slot, a, n, c1 + 1);
          next = next > 0 ? next - 1 : 0;
          i = MAX (i + 1, next);
        }
    }
}

void
cpel_render_rows_spans (CpelRenderCtx *ctx)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  CpelSpans *spans = view->spans;

  if (spans == NULL || ctx->file == NULL || ctx->tw <= 0 || ctx->n_columns == 0)
    return;
  if (view->span_filter != NULL)
    {
      guint n = cpel_spans_get_n_names (spans);

      g_free (ctx->span_hl_names);
      ctx->span_hl_names = g_new0 (guint8, MAX (n, 1));
      ctx->span_hl_n_names = n;
      for (guint i = 0; i < n; i++)
        ctx->span_hl_names[i] = cpel_span_filter_match_name (view->span_filter,
                                                             cpel_spans_get_name (spans, i));
    }
  cairo_save (cr);
  cairo_rectangle (cr, ctx->x0, view->ruler_height, ctx->tw, ctx->height - view->ruler_height);
  cairo_clip (cr);
  for (guint r = ctx->first_row; r < ctx->end_row; r++)
    {
      guint slot = cpel_view_get_row_slot (view, r);
      SpanRow sr;

      if (!span_row_layout (view, ctx->tw, slot, cpel_view_get_row_y (view, r), &sr))
        continue;
      if (sr.n > 0)
        {
          if (sr.dense)
            draw_dense (ctx, spans, slot, &sr);
          else
            draw_sparse (ctx, spans, slot, &sr);
        }
      draw_states (ctx, spans, slot, &sr);
    }
  cairo_restore (cr);
}

gboolean
cpel_view_span_hit_test (const CpelView *view,
                         double          width,
                         double          x,
                         double          y,
                         guint          *slot_out,
                         gboolean       *state_out,
                         guint64        *index_out)
{
  CpelSpans *spans;
  SpanRow sr;
  gint64 t, slack;
  int r;
  guint slot;

  g_return_val_if_fail (view != NULL, FALSE);

  spans = view->spans;
  if (spans == NULL || view->file == NULL || x < view->label_width || x >= width)
    return FALSE;
  r = cpel_view_row_at_y (view, y);
  if (r < 0)
    return FALSE;
  slot = cpel_view_get_row_slot (view, (guint) r);
  if (!span_row_layout (view, width - view->label_width, slot,
                        cpel_view_get_row_y (view, (guint) r), &sr))
    return FALSE;
  t = cpel_view_x_to_time (view, width, x);
  /* half a pixel either way: a span narrower than a pixel is drawn one wide */
  slack = (gint64) ceil ((double) (view->t1 - view->t0) / MAX (width - view->label_width, 1)
                         / 2);

  if (sr.state_h > 0 && y >= sr.state_top - 1 && y < sr.state_top + sr.state_h + 1)
    {
      guint64 n = 0, k;
      const CpelSpan *a = cpel_spans_get_track_states (spans, slot, &n);

      if (a == NULL)
        return FALSE;
      k = states_lower_bound (spans, slot, a, n, t + 1);
      if (k == 0)
        return FALSE;
      k--;
      if (cpel_spans_end_ns (spans, slot, &a[k]) <= t)
        return FALSE;
      *slot_out = slot;
      *state_out = TRUE;
      *index_out = k;
      return TRUE;
    }
  if (sr.n == 0 || sr.dense || y < sr.top || y >= sr.top + sr.height)
    return FALSE;
  {
    guint lane = MIN ((guint) floor ((y - sr.top) / sr.lane_h), sr.n_lanes - 1);
    guint64 k = cpel_spans_track_lower_bound (spans, slot, t + slack + 1);

    if (sr.overflow && lane == sr.n_lanes - 1)
      return FALSE;
    for (guint i = 0; i < SPAN_SCAN_MAX && k > 0; i++)
      {
        const CpelSpan *s = &sr.a[--k];
        gint64 e = cpel_spans_end_ns (spans, slot, s);

        if (span_lane (&sr, s) == lane && e >= t - slack
            && cpel_spans_begin_ns (spans, slot, s) <= t + slack)
          {
            *slot_out = slot;
            *state_out = FALSE;
            *index_out = k;
            return TRUE;
          }
        if (s->depth == 0 && e < t - slack)
          break;
      }
  }
  return FALSE;
}

/* An edge at e: the nearest so far when within d of t. */
static void
snap_consider (gint64 e, gint64 t, gint64 d, gint64 *best, gint64 *best_d)
{
  gint64 dist = e > t ? e - t : t - e;

  if (dist <= d && dist < *best_d)
    {
      *best = e;
      *best_d = dist;
    }
}

gboolean
cpel_view_span_snap (const CpelView *view,
                     double          width,
                     double          x,
                     double          y,
                     double          max_px,
                     gint64         *t_out)
{
  CpelSpans *spans;
  const CpelSpan *a;
  guint64 n = 0, k;
  gint64 t, d, best = 0, best_d = G_MAXINT64;
  guint slot;
  int r;

  g_return_val_if_fail (view != NULL, FALSE);
  g_return_val_if_fail (t_out != NULL, FALSE);

  spans = view->spans;
  if (spans == NULL || view->file == NULL || width <= view->label_width || max_px < 0)
    return FALSE;
  r = cpel_view_row_at_y (view, y);
  if (r < 0)
    return FALSE;
  slot = cpel_view_get_row_slot (view, (guint) r);
  if (slot == G_MAXUINT)
    return FALSE;
  t = cpel_view_x_to_time (view, width, x);
  d = (gint64) ceil ((double) (view->t1 - view->t0) / (width - view->label_width) * max_px);

  /* states tile the track: those from the one holding t - d on */
  a = cpel_spans_get_track_states (spans, slot, &n);
  if (a != NULL)
    {
      k = states_lower_bound (spans, slot, a, n, t - d);
      if (k > 0)
        k--;
      for (guint i = 0; k < n && i < SPAN_SCAN_MAX; k++, i++)
        {
          gint64 b = cpel_spans_begin_ns (spans, slot, &a[k]);

          if (b > t + d)
            break;
          snap_consider (b, t, d, &best, &best_d);
          snap_consider (cpel_spans_end_ns (spans, slot, &a[k]), t, d, &best, &best_d);
        }
    }
  /* spans beginning up to t + d, back to one at depth 0 that ended before
   * t - d (every earlier span ended before it began) */
  a = cpel_spans_get_track_spans (spans, slot, &n);
  if (a != NULL)
    {
      k = cpel_spans_track_lower_bound (spans, slot, t + d + 1);
      for (guint i = 0; i < SPAN_SCAN_MAX && k > 0; i++)
        {
          const CpelSpan *s = &a[--k];
          gint64 e = cpel_spans_end_ns (spans, slot, s);

          snap_consider (cpel_spans_begin_ns (spans, slot, s), t, d, &best, &best_d);
          snap_consider (e, t, d, &best, &best_d);
          if (s->depth == 0 && e < t - d)
            break;
        }
    }
  if (best_d == G_MAXINT64)
    return FALSE;
  *t_out = best;
  return TRUE;
}
