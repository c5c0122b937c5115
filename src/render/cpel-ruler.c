/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ruler.c — the time ruler: nice 1/2/5 steps, units, labels, ticks */
#include <math.h>
#include <string.h>

#include "cpel-render-private.h"

#define RULER_MIN_PX   64.0   /* minimum distance between labelled ticks */
#define RULER_LABEL_GAP 20.0  /* space after a label before the next tick */
#define MINOR_MIN_PX    6.0

gint64
cpel_render_ruler_step (gint64 t0, gint64 t1, double pixels, double min_px)
{
  static const int mults[] = { 1, 2, 5 };
  double target;
  gint64 pow10 = 1;

  if (t1 <= t0 || pixels <= 0 || !(min_px > 0))
    return 1;
  /* Step s gives ticks s * pixels / span apart: need s >= min_px * span / pixels. */
  target = min_px * ((double) t1 - (double) t0) / pixels;
  for (int k = 0; k <= 18; k++)
    {
      for (guint m = 0; m < G_N_ELEMENTS (mults); m++)
        {
          gint64 s;
          if (k == 18 && mults[m] > 9)
            break;
          s = mults[m] * pow10;
          if ((double) s >= target)
            return s;
        }
      if (k < 18)
        pow10 *= 10;
    }
  return 5 * G_GINT64_CONSTANT (1000000000000000000);
}

static guint64
ipow10 (int k)
{
  guint64 p = 1;
  while (k-- > 0)
    p *= 10;
  return p;
}

/* k with step = m × 10^k (m in 1, 2, 5 — or anything: the power of ten
 * that divides it). */
static int
step_exponent (gint64 step)
{
  int k = 0;
  if (step <= 0)
    return 0;
  while (step % 10 == 0)
    {
      step /= 10;
      k++;
    }
  return k;
}

char *
cpel_render_format_tick (gint64 t, gint64 step, gint64 t_max)
{
  return cpel_render_format_tick_kind (t, step, t_max, CPEL_TIME_KIND_NS);
}

char *
cpel_render_format_tick_kind (gint64 t, gint64 step, gint64 t_max, CpelTimeKind kind)
{
  const char *units[4];
  guint64 mag, a, ip, fp, up;
  int unit, decimals;
  GString *s;

  mag = t_max < 0 ? (guint64) 0 - (guint64) t_max : (guint64) t_max;
  if (mag < 1000)
    unit = 0;
  else if (mag < 1000000)
    unit = 1;
  else if (mag < 1000000000)
    unit = 2;
  else
    unit = 3;
  decimals = MAX (0, unit * 3 - step_exponent (step));
  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    units[u] = cpel_time_unit_name (kind, u);

  s = g_string_new (NULL);
  a = t < 0 ? (guint64) 0 - (guint64) t : (guint64) t;
  if (t == 0)
    {
      g_string_append_printf (s, "0 %s", units[unit]);
      return g_string_free (s, FALSE);
    }
  /* A time between steps (the status line's range) is rounded to the
   * decimals shown, not cut: 2.8888 s is "2.889 s". */
  if (decimals < unit * 3)
    {
      guint64 q = ipow10 (unit * 3 - decimals);
      a = (a / q + (a % q >= q - q / 2)) * q;
    }
  if (t < 0)
    g_string_append_c (s, '-');
  up = ipow10 (unit * 3);
  ip = a / up;
  fp = a % up;
  g_string_append_printf (s, "%" G_GUINT64_FORMAT, ip);
  if (decimals > 0)
    {
      char digits[16];
      /* fp has unit*3 digits; keep the first `decimals`. */
      g_snprintf (digits, sizeof digits, "%0*" G_GUINT64_FORMAT, unit * 3, fp);
      digits[decimals] = '\0';
      g_string_append_c (s, '.');
      for (int i = 0; i < decimals; i++)
        {
          /* Group long fractions (5+ digits) in threes with a thin space. */
          if (i > 0 && i % 3 == 0 && decimals > 4)
            g_string_append (s, "\u2009");
          g_string_append_c (s, digits[i]);
        }
    }
  g_string_append_printf (s, " %s", units[unit]);
  return g_string_free (s, FALSE);
}

char *
cpel_render_format_axis (gint64 t, CpelTimeKind kind)
{
  guint64 mag = t < 0 ? (guint64) 0 - (guint64) t : (guint64) t;
  guint64 up;
  int unit = mag < 1000 ? 0 : mag < 1000000 ? 1 : mag < G_GUINT64_CONSTANT (1000000000) ? 2 : 3;
  char frac[16];
  int n;

  up = ipow10 (unit * 3);
  /* the fraction's digits, without the zeros that end it */
  n = unit * 3;
  g_snprintf (frac, sizeof frac, "%0*" G_GUINT64_FORMAT, n, mag % up);
  while (n > 0 && frac[n - 1] == '0')
    n--;
  frac[n] = '\0';
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT "%s%s %s", t < 0 ? "-" : "", mag / up,
                          n > 0 ? "." : "", frac, cpel_time_unit_name (kind, unit));
}

/* What the ruler's times count: ns, or the ticks of a capture whose clock
 * rate is unknown. */
static CpelTimeKind
ruler_kind (CpelRenderCtx *ctx)
{
  return ctx->file != NULL ? cpel_file_get_time_kind (ctx->file) : CPEL_TIME_KIND_NS;
}

char *
cpel_render_format_span (const CpelView *view, CpelTimeKind kind)
{
  gint64 span;

  g_return_val_if_fail (view != NULL, NULL);

  /* [t0, t1) spans t1 - t0; a window that ends just past the last event
   * (the whole capture, or any window reaching its end) reads up to that
   * event, as `cpel info` reads the capture's span: first to last. */
  span = view->t1 - view->t0;
  if (view->file != NULL && view->t1 == cpel_file_get_duration (view->file) + 1
      && view->t0 < view->t1 - 1)
    span--;
  return cpel_time_format_kind (span, kind);
}

/* Number of minor subdivisions of a major step that stay MINOR_MIN_PX apart. */
static gint64
minor_step (gint64 step, double px_per_ns)
{
  static const int divs[] = { 10, 5, 4, 2 };

  for (guint i = 0; i < G_N_ELEMENTS (divs); i++)
    {
      gint64 m;
      if (step % divs[i] != 0)
        continue;
      m = step / divs[i];
      /* Only subdivisions that land on nice values (1/2/5 × 10^k). */
      {
        gint64 v = m;
        while (v % 10 == 0)
          v /= 10;
        if (v != 1 && v != 2 && v != 5)
          continue;
      }
      if ((double) m * px_per_ns >= MINOR_MIN_PX)
        return m;
    }
  return 0;
}

static gint64
t_max_of (gint64 t0, gint64 t1)
{
  gint64 a = t0 < 0 ? -(t0 + 1) : t0;
  gint64 b = t1 < 0 ? -(t1 + 1) : t1;
  return MAX (a, b);
}

guint
cpel_render_clock_decimals (gint64 step)
{
  return (guint) MAX (0, 9 - step_exponent (step));
}

char *
cpel_render_format_clock_tick (CpelClockKind kind, gint64 abs_ns, gint64 step)
{
  char buf[64];

  cpel_time_format_clock_to (kind, abs_ns, cpel_render_clock_decimals (step), TRUE,
                             buf, sizeof buf);
  return kind == CPEL_CLOCK_SECONDS ? g_strdup_printf ("%s s", buf) : g_strdup (buf);
}

/* What the ruler subtracts from a time to read it: view->ruler_origin, or,
 * on the capture's clock, minus its origin (saturated). */
static gint64
ruler_offset (const CpelView *view)
{
  gint64 o;

  if (view->clock == CPEL_CLOCK_NONE)
    return view->ruler_origin;
  if (__builtin_sub_overflow (view->ruler_origin, view->clock_origin, &o))
    o = view->clock_origin > 0 ? G_MININT64 : G_MAXINT64;
  return o;
}

/* A ruler label: time since the first event, or the clock's. */
static char *
tick_label (CpelRenderCtx *ctx, gint64 s, gint64 step, gint64 t_max)
{
  if (ctx->view->clock != CPEL_CLOCK_NONE)
    return cpel_render_format_clock_tick (ctx->view->clock, s, step);
  return cpel_render_format_tick_kind (s, step, t_max, ruler_kind (ctx));
}

/* The view's range as the ruler reads it: minus ruler_offset ()
 * (saturated). */
static void
ruler_range (const CpelView *view, gint64 *s0, gint64 *s1)
{
  gint64 o = ruler_offset (view);

  if (o == 0)
    {
      *s0 = view->t0;
      *s1 = view->t1;
      return;
    }
  if (__builtin_sub_overflow (view->t0, o, s0))
    *s0 = o > 0 ? G_MININT64 : G_MAXINT64;
  if (__builtin_sub_overflow (view->t1, o, s1))
    *s1 = o > 0 ? G_MININT64 : G_MAXINT64;
  if (*s1 <= *s0)
    *s1 = *s0 < G_MAXINT64 ? *s0 + 1 : *s0;
}

void
cpel_render_ruler_ticks (CpelRenderCtx *ctx, gint64 *step_out, gint64 *minor_out)
{
  const CpelView *view = ctx->view;
  double min_px = RULER_MIN_PX;
  gint64 step = 1;
  gint64 s0, s1;

  ruler_range (view, &s0, &s1);
  /* The label width depends on the step (decimals) and the step on the
   * label width: two rounds settle it. */
  for (int round = 0; round < 3; round++)
    {
      g_autofree char *widest = NULL;
      double w;

      step = cpel_render_ruler_step (s0, s1, MAX (ctx->tw, 1), min_px);
      widest = tick_label (ctx, s1 - 1 - ((s1 - 1) % step), step, t_max_of (s0, s1));
      w = cpel_render_layout_width (cpel_render_ctx_text (ctx, widest, -1, 0));
      if (w + RULER_LABEL_GAP <= min_px)
        break;
      min_px = w + RULER_LABEL_GAP;
    }
  *step_out = step;
  *minor_out = minor_step (step, ctx->tw / ((double) view->t1 - (double) view->t0));
}

/* First multiple of step at or after t. */
static gint64
first_tick (gint64 t, gint64 step)
{
  gint64 q = t / step;
  if (q * step < t)
    q++;
  return q * step;
}

static double
snap (CpelRenderCtx *ctx, double x)
{
  return round (x * ctx->scale) / ctx->scale;
}

void
cpel_render_ruler_grid (CpelRenderCtx *ctx)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  gint64 step, minor;
  double top = view->ruler_height;
  gint64 s0, s1;

  if (ctx->tw <= 0 || ctx->height <= top)
    return;
  ruler_range (view, &s0, &s1);
  cpel_render_ruler_ticks (ctx, &step, &minor);
  cairo_save (cr);
  cairo_rectangle (cr, ctx->x0, top, ctx->tw, ctx->height - top);
  cairo_clip (cr);
  cpel_render_set_color_alpha (cr, &ctx->pal->grid, 0.6);
  for (gint64 t = first_tick (s0, step); t < s1; t += step)
    {
      double x = snap (ctx, cpel_view_time_to_x (view, ctx->width, t + ruler_offset (view)));
      cairo_rectangle (cr, x, top, 1.0 / ctx->scale, ctx->height - top);
      if (t > G_MAXINT64 - step)
        break;
    }
  cairo_fill (cr);
  cairo_restore (cr);
}

void
cpel_render_ruler (CpelRenderCtx *ctx)
{
  const CpelView *view = ctx->view;
  const CpelPalette *pal = ctx->pal;
  cairo_t *cr = ctx->cr;
  double h = view->ruler_height;
  double label_end = -G_MAXDOUBLE;
  gint64 step, minor, t_max, s0, s1;
  double hair = 1.0 / ctx->scale;

  if (h <= 0)
    return;
  ruler_range (view, &s0, &s1);

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, ctx->width, h);
  cairo_clip (cr);

  cpel_render_set_color (cr, &pal->ruler_bg);
  cairo_paint (cr);

  if (ctx->tw > 0)
    {
      cpel_render_ruler_ticks (ctx, &step, &minor);
      t_max = t_max_of (s0, s1);

      cairo_save (cr);
      cairo_rectangle (cr, ctx->x0, 0, ctx->tw, h);
      cairo_clip (cr);

      /* Minor ticks. */
      if (minor > 0)
        {
          cpel_render_set_color_alpha (cr, &pal->dim, 0.5);
          for (gint64 t = first_tick (s0, minor); t < s1; t += minor)
            {
              if (t % step != 0)
                {
                  double x = snap (ctx, cpel_view_time_to_x (view, ctx->width, t + ruler_offset (view)));
                  cairo_rectangle (cr, x, h - 5, hair, 5);
                }
              if (t > G_MAXINT64 - minor)
                break;
            }
          cairo_fill (cr);
        }

      /* Major ticks and labels. */
      for (gint64 t = first_tick (s0, step); t < s1; t += step)
        {
          double x = snap (ctx, cpel_view_time_to_x (view, ctx->width, t + ruler_offset (view)));
          g_autofree char *text = tick_label (ctx, t, step, t_max);
          PangoLayout *layout;
          double w;

          cpel_render_set_color_alpha (cr, &pal->dim, 0.7);
          cairo_rectangle (cr, x, h * 0.35, hair, h * 0.65);
          cairo_fill (cr);

          layout = cpel_render_ctx_text (ctx, text, -1, 0);
          w = cpel_render_layout_width (layout);
          /* A label that would run past the right edge is left out, not
           * cut ("5" of "50 ms" reads as a wrong time). */
          if (x + 4 > label_end && x + 4 + w <= ctx->x0 + ctx->tw)
            {
              cpel_render_set_color (cr, &pal->foreground);
              cairo_move_to (cr, x + 4, MAX (0, (h - 4 - ctx->text_height) / 2));
              pango_cairo_show_layout (cr, layout);
              label_end = x + 4 + w + 6;
            }
          if (t > G_MAXINT64 - step)
            break;
        }
      cairo_restore (cr);
    }

  /* Corner above the label column: the visible span. */
  if (ctx->x0 > 0)
    {
      g_autofree char *text = cpel_render_format_span (view, ruler_kind (ctx));
      PangoLayout *layout;

      cpel_render_set_color (cr, &pal->label_bg);
      cairo_rectangle (cr, 0, 0, ctx->x0, h);
      cairo_fill (cr);
      layout = cpel_render_ctx_text (ctx, text, -1, MAX (ctx->x0 - 20, 1));
      cpel_render_set_color (cr, &pal->dim);
      cairo_move_to (cr, 12, (h - ctx->text_height) / 2);
      pango_cairo_show_layout (cr, layout);
      /* Separator between the corner and the ruler. */
      cpel_render_set_color (cr, &pal->grid);
      cairo_rectangle (cr, snap (ctx, ctx->x0) - hair, 0, hair, h);
      cairo_fill (cr);
    }

  /* Bottom border. */
  cpel_render_set_color (cr, &pal->grid);
  cairo_rectangle (cr, 0, h - hair, ctx->width, hair);
  cairo_fill (cr);

  cairo_restore (cr);
}
