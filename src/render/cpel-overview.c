/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-overview.c — whole-capture density summary and the overview strip */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpel-render-private.h"

struct _CpelOverview
{
  gatomicrefcount  ref;
  guint            n_buckets;
  gint64           span;      /* buckets cover [0, span) */
  guint64         *counts;    /* n_buckets */
  guint64         *cum;       /* n_buckets + 1 prefix sums */
};

G_DEFINE_BOXED_TYPE (CpelOverview, cpel_overview, cpel_overview_ref, cpel_overview_unref)

CpelOverview *
cpel_overview_new (CpelFile *file, guint n_buckets, GCancellable *cancellable, GError **error)
{
  CpelOverview *self;
  g_autofree gint64 *bounds = NULL;
  double per_ns;
  guint n_tracks;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n_buckets == 0)
    n_buckets = CPEL_OVERVIEW_DEFAULT_BUCKETS;
  n_buckets = MIN (n_buckets, 1u << 20);

  self = g_new0 (CpelOverview, 1);
  g_atomic_ref_count_init (&self->ref);
  self->n_buckets = n_buckets;
  self->span = cpel_file_get_duration (file);
  self->span = self->span < G_MAXINT64 ? MAX (self->span, 0) + 1 : G_MAXINT64;
  self->counts = g_new0 (guint64, n_buckets);
  self->cum = g_new0 (guint64, n_buckets + 1);

  /* Stored with the index cache (same buckets, checked on load, against
   * the events with the rest of the index): no pass over the events. */
  {
    const guint64 *stored = cpel_file_get_stored_overview (file, n_buckets);

    if (stored != NULL)
      {
        memcpy (self->counts, stored, sizeof (guint64) * n_buckets);
        for (guint b = 0; b < n_buckets; b++)
          self->cum[b + 1] = self->cum[b] + self->counts[b];
        return self;
      }
  }

  /* Bucket boundaries once: bounds[b] is the first time of bucket b. */
  bounds = g_new (gint64, n_buckets + 1);
  for (guint b = 0; b <= n_buckets; b++)
    bounds[b] = cpel_render_column_time (0, self->span, b, n_buckets);
  per_ns = (double) n_buckets / (double) self->span;

  n_tracks = cpel_file_get_n_tracks (file);
  for (guint slot = 0; slot < n_tracks; slot++)
    {
      guint64 n;
      const gint64 *times = cpel_file_get_track_times (file, slot, &n);
      double log_n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          cpel_overview_unref (self);
          return NULL;
        }
      if (n == 0 || times == NULL)
        continue;
      log_n = log2 ((double) n) + 1;
      if ((double) n <= (double) n_buckets * log_n)
        {
          /* Walk the times: O(n).  Sorted times mostly stay in the bucket
           * of the one before; else a multiplication guesses the bucket and
           * the boundaries correct it (no division per event). */
          guint b = 0;

          for (guint64 i = 0; i < n; i++)
            {
              gint64 t = MAX (times[i], 0);

              if (t >= bounds[b + 1] || t < bounds[b])
                {
                  double g = (double) t * per_ns;

                  b = g >= (double) n_buckets ? n_buckets - 1 : (guint) g;
                  while (b > 0 && t < bounds[b])
                    b--;
                  while (b + 1 < n_buckets && t >= bounds[b + 1])
                    b++;
                }
              self->counts[b]++;
            }
        }
      else
        {
          /* A dense track: a search per bucket boundary, O(buckets × log n),
           * starting where the previous bucket's count would put it. */
          guint64 idx = 0, last = 0;
          for (guint b = 0; b < n_buckets && idx < n; b++)
            {
              guint64 j = b + 1 == n_buckets ? n
                          : cpel_render_search_hint (times, idx, n, bounds[b + 1], idx + last);
              self->counts[b] += j - idx;
              last = j - idx;
              idx = j;
            }
        }
    }
  for (guint b = 0; b < n_buckets; b++)
    self->cum[b + 1] = self->cum[b] + self->counts[b];
  return self;
}

CpelOverview *
cpel_overview_ref (CpelOverview *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
cpel_overview_unref (CpelOverview *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref))
    {
      g_free (self->counts);
      g_free (self->cum);
      g_free (self);
    }
}

guint
cpel_overview_get_n_buckets (CpelOverview *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_buckets;
}

guint64
cpel_overview_get_bucket (CpelOverview *self, guint bucket)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (bucket < self->n_buckets, 0);
  return self->counts[bucket];
}

gint64
cpel_overview_get_span (CpelOverview *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->span;
}

/* Events before time t, interpolated inside t's bucket. */
static double
count_before (CpelOverview *self, gint64 t)
{
  double pos;
  guint b;

  if (t <= 0)
    return 0;
  if (t >= self->span)
    return (double) self->cum[self->n_buckets];
  pos = (double) t * self->n_buckets / (double) self->span;
  b = (guint) MIN (floor (pos), (double) self->n_buckets - 1);
  /* Exact on bucket boundaries. */
  if (cpel_render_column_time (0, self->span, b, self->n_buckets) == t)
    return (double) self->cum[b];
  return (double) self->cum[b] + (pos - b) * (double) self->counts[b];
}

double
cpel_overview_count_range (CpelOverview *self, gint64 t0, gint64 t1)
{
  g_return_val_if_fail (self != NULL, 0);
  if (t1 <= t0)
    return 0;
  return MAX (count_before (self, t1) - count_before (self, t0), 0);
}

/* ---- the strip ----------------------------------------------------------- */

static gint64
capture_span (const CpelView *view)
{
  gint64 d;

  if (view->overview != NULL)
    return view->overview->span;
  if (view->file == NULL)
    return 1;
  d = cpel_file_get_duration (view->file);
  return d < G_MAXINT64 ? MAX (d, 0) + 1 : G_MAXINT64;
}

double
cpel_render_overview_time_to_x (const CpelView *view, double width, gint64 t)
{
  g_return_val_if_fail (view != NULL, 0);
  return (double) t * width / (double) capture_span (view);
}

gint64
cpel_render_overview_x_to_time (const CpelView *view, double width, double x)
{
  double t;

  g_return_val_if_fail (view != NULL, 0);
  if (width <= 0)
    return 0;
  t = floor (x * (double) capture_span (view) / width);
  return (gint64) CLAMP (t, -9.0e18, 9.0e18);
}

/* Time of a match (global time order) for binary searches. */
static gint64
match_time (CpelFile *file, CpelSearchResult *matches, guint64 i)
{
  const CpelEventRef *ref = cpel_search_result_get (matches, i);
  guint64 n;
  const gint64 *times;

  if (ref == NULL)
    return G_MAXINT64;
  times = cpel_file_get_track_times (file, ref->slot, &n);
  return ref->index < n ? times[ref->index] : G_MAXINT64;
}

/* First match in [lo, n) at or after t.  Galloping from lo: the strip asks
 * for the next column's first match, which is near when matches are dense,
 * so a step costs O(log distance) time lookups, not O(log n). */
static guint64
match_lower_bound (CpelFile *file, CpelSearchResult *matches, guint64 lo, guint64 n, gint64 t)
{
  guint64 hi, step = 1;

  while (lo < n && match_time (file, matches, lo) < t)
    {
      hi = n - lo > step ? lo + step : n;
      if (hi == n || match_time (file, matches, hi) >= t)
        {
          lo++;   /* times[lo] < t: the answer is in (lo, hi] */
          while (lo < hi)
            {
              guint64 mid = lo + (hi - lo) / 2;
              if (match_time (file, matches, mid) < t)
                lo = mid + 1;
              else
                hi = mid;
            }
          return lo;
        }
      lo = hi;
      step *= 2;
    }
  return lo;
}

void
cpel_render_overview (cairo_t *cr, double width, double height, const CpelView *view)
{
  cpel_render_overview_layers (cr, width, height, view, CPEL_OVERVIEW_LAYER_ALL);
}

/* Columns of the strip in device pixels (at most 65536). */
static guint
overview_columns (cairo_t *cr, double width, double *scale)
{
  *scale = CLAMP (cpel_render_device_scale (cr), 0.25, 8.0);
  return (guint) MIN (ceil (width * *scale - 1e-6), 65536.0);
}

/* Per column, the events a track adds: its times counted between the
 * column boundaries (a galloping search from the previous boundary, O(log)
 * per column); with hidden types, each column's count scaled by the share
 * of shown types among up to `samples` evenly spaced events of it (exact
 * when it holds no more). */
static void
add_track_counts (const CpelView *view, guint slot, const gint64 *bounds, guint nc,
                  gboolean types_hidden, guint samples, double sign, double *col)
{
  CpelFile *file = view->file;
  guint64 n, lo = 0;
  const gint64 *times = cpel_file_get_track_times (file, slot, &n);

  if (n == 0 || times == NULL)
    return;
  lo = cpel_render_gallop (times, 0, n, bounds[0]);
  for (guint c = 0; c < nc && lo < n; c++)
    {
      guint64 hi = cpel_render_gallop (times, lo, n, bounds[c + 1]);
      double count = (double) (hi - lo);

      if (count > 0 && types_hidden)
        {
          guint64 m = MIN (hi - lo, (guint64) samples), shown = 0;

          for (guint64 k = 0; k < m; k++)
            {
              guint64 i = lo + (m == hi - lo ? k : (hi - lo - 1) * k / MAX (m - 1, 1));

              shown += !cpel_view_code_hidden (view, file,
                                               cpel_file_get_track_event_code (file, slot, i));
            }
          count = count * (double) shown / (double) m;
        }
      col[c] += sign * count;
      lo = hi;
    }
}

/* Events per column of what the view shows: its rows (hidden and filtered
 * tracks left out) and its shown event types.  With every track and type
 * shown the capture's summary answers; else the fewer of the shown and the
 * hidden tracks are counted (the hidden ones subtracted from the whole),
 * and with hidden types the shown rows are sampled, at most
 * OVERVIEW_SAMPLE_BUDGET events in all. */
#define OVERVIEW_SAMPLE_BUDGET (4u << 20)

static void
shown_counts (const CpelView *view, CpelOverview *ov, guint nc, double *col)
{
  CpelFile *file = view->file;
  guint n_tracks = cpel_file_get_n_tracks (file);
  gboolean rows_filtered = view->rows != NULL && view->n_rows < n_tracks;
  gboolean types_hidden = cpel_view_any_hidden (view);
  g_autofree gint64 *bounds = g_new (gint64, nc + 1);

  for (guint c = 0; c <= nc; c++)
    bounds[c] = cpel_render_column_time (0, ov->span, c, nc);
  if (!types_hidden && (!rows_filtered || view->n_rows > n_tracks / 2))
    {
      for (guint c = 0; c < nc; c++)
        col[c] = cpel_overview_count_range (ov, bounds[c], bounds[c + 1]);
      if (rows_filtered)
        {
          g_autofree guint8 *shown = g_new0 (guint8, n_tracks);

          for (guint r = 0; r < view->n_rows; r++)
            if (view->rows[r] < n_tracks)
              shown[view->rows[r]] = 1;
          for (guint slot = 0; slot < n_tracks; slot++)
            if (!shown[slot])
              add_track_counts (view, slot, bounds, nc, FALSE, 0, -1.0, col);
          for (guint c = 0; c < nc; c++)
            col[c] = MAX (col[c], 0.0);
        }
      return;
    }

  {
    guint n_rows = rows_filtered ? view->n_rows : n_tracks;
    guint samples = (guint) CLAMP (OVERVIEW_SAMPLE_BUDGET / MAX ((guint64) n_rows * nc, 1), 1,
                                   CPEL_RENDER_DENSITY_SAMPLES);

    for (guint r = 0; r < n_rows; r++)
      {
        guint slot = rows_filtered ? view->rows[r] : r;

        if (slot < n_tracks)
          add_track_counts (view, slot, bounds, nc, types_hidden, samples, 1.0, col);
      }
  }
}

guint64
cpel_render_overview_shown_hash (const CpelView *view)
{
  guint64 h;

  g_return_val_if_fail (view != NULL, 0);

  h = cpel_render_hidden_hash (view);
  if (view->file != NULL && view->rows != NULL && view->n_rows < cpel_file_get_n_tracks (view->file))
    {
      h ^= G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) + view->n_rows;
      for (guint r = 0; r < view->n_rows; r++)
        {
          h ^= view->rows[r];
          h *= G_GUINT64_CONSTANT (0x100000001b3);
        }
    }
  return h;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The strip's full height: the 99th percentile of the non-empty columns'
 * counts (a few bursts beyond it are drawn full and darker), so that a
 * quiet stretch with a tenth of the events is a tenth as high. */
static double
scale_top (const double *col, guint nc)
{
  g_autofree double *sorted = g_new (double, nc);
  guint n = 0;

  for (guint c = 0; c < nc; c++)
    if (col[c] > 0)
      sorted[n++] = col[c];
  if (n == 0)
    return 1;
  qsort (sorted, n, sizeof (double), compare_doubles);
  return MAX (sorted[MIN (n - 1, (guint) ceil (0.99 * n) - 1)], 1.0);
}

static void
draw_base (cairo_t *cr, double width, double height, const CpelView *view, const CpelPalette *pal)
{
  g_autoptr(CpelOverview) own = NULL;
  g_autofree double *col = NULL;
  CpelOverview *ov;
  double scale, top, bar_top = 3, bar_h, alpha = pal->dark ? 0.75 : 0.65;
  guint nc = overview_columns (cr, width, &scale);

  cpel_render_set_color (cr, &pal->ruler_bg);
  cairo_paint (cr);
  if (view->file == NULL || nc == 0)
    return;

  ov = view->overview;
  if (ov == NULL)
    {
      /* No cached summary: build one for this call (O(events)). */
      own = cpel_overview_new (view->file, MIN (MAX (nc, 256u), 4096u), NULL, NULL);
      ov = own;
    }
  col = g_new0 (double, nc);
  shown_counts (view, ov, nc, col);
  top = scale_top (col, nc);

  /* A histogram, linear up to the 99th percentile, baseline at the
   * bottom; any column with an event at least a device pixel high. */
  bar_h = height - bar_top - 1;
  for (guint c = 0; c < nc; c++)
    {
      double hh;

      if (col[c] < 0.5)
        continue;
      hh = MAX (bar_h * MIN (col[c] / top, 1.0), 1.0 / scale);
      cpel_render_set_color_alpha (cr, &pal->density, col[c] > top ? MIN (1.0, alpha + 0.25) : alpha);
      /* One fill per bar: a single path of all bars (every one of them
       * spanning the baseline) costs cairo's rectangle sweep O(bars²). */
      cairo_rectangle (cr, c / scale, height - 1 - hh, 1 / scale, hh);
      cairo_fill (cr);
    }
}

static void
draw_window (cairo_t *cr, double width, double height, const CpelView *view, const CpelPalette *pal)
{
  cpel_render_overview_window (cr, width, height,
                               cpel_render_overview_time_to_x (view, width, view->t0),
                               cpel_render_overview_time_to_x (view, width, view->t1), pal);
}

void
cpel_render_overview_window (cairo_t *cr, double width, double height, double xa, double xb,
                             const CpelPalette *pal)
{
  /* The visible window: the rest is veiled, the window outlined. */
  xa = CLAMP (xa, 0, width);
  xb = CLAMP (xb, 0, width);
  if (xb - xa < 2)
    {
      double mid = (xa + xb) / 2;
      xa = mid - 1;
      xb = mid + 1;
    }
  cpel_render_set_color_alpha (cr, &pal->background, 0.55);
  cairo_rectangle (cr, 0, 0, xa, height);
  cairo_rectangle (cr, xb, 0, width - xb, height);
  cairo_fill (cr);
  cpel_render_set_color_alpha (cr, &pal->accent, 0.10);
  cairo_rectangle (cr, xa, 0, xb - xa, height);
  cairo_fill (cr);
  cpel_render_set_color (cr, &pal->accent);
  cairo_set_line_width (cr, 1.5);
  cpel_render_rounded_rect (cr, xa + 0.75, 0.75, MAX (xb - xa - 1.5, 0.5), height - 1.5, 3);
  cairo_stroke (cr);
}

#define RELEASE_TICKS 64   /* match ticks between giving the index's pages back */

static void
draw_matches (cairo_t *cr, double width, double height, const CpelView *view, const CpelPalette *pal)
{
  /* Search matches: one tick per column that holds any. */
  double scale, hair;
  guint nc = overview_columns (cr, width, &scale);
  guint64 n, p = 0;
  guint run = 0, ticks = 0;
  gint64 span;

  if (view->file == NULL || nc == 0 || view->matches == NULL
      || cpel_search_result_get_n (view->matches) == 0)
    return;
  hair = 1.0 / scale;
  n = cpel_search_result_get_n (view->matches);
  span = capture_span (view);
  cpel_render_set_color (cr, &pal->highlight);
  while (p < n)
    {
      gint64 t = match_time (view->file, view->matches, p);
      gint64 c = cpel_render_time_column (0, span, nc, MAX (t, 0));
      if (c >= (gint64) nc)
        break;
      cairo_rectangle (cr, c / scale - 1, 0, MAX (2.0, hair), height * 0.35);
      if (++run == CPEL_RENDER_RECT_RUN)
        {
          cairo_fill (cr);
          run = 0;
        }
      /* A few dozen times read per column, all over the index: with the
       * kernel's fault-around, 3 GB of a 10^9-event index mapped for a
       * strip of 1,280 columns, unless given back as it goes. */
      if (++ticks % RELEASE_TICKS == 0)
        cpel_file_release_index_pages (view->file);
      p = match_lower_bound (view->file, view->matches, p + 1, n,
                             cpel_render_column_time (0, span, (guint64) c + 1, nc));
    }
  cairo_fill (cr);
  cpel_file_release_index_pages (view->file);
}

static void
draw_top (cairo_t *cr, double width, double height, const CpelView *view, const CpelPalette *pal)
{
  cpel_render_overview_top (cr, width, height, view->has_cursor,
                            view->has_cursor
                            ? cpel_render_overview_time_to_x (view, width, view->cursor_t) : 0,
                            pal);
}

void
cpel_render_overview_top (cairo_t *cr, double width, double height, gboolean has_cursor,
                          double x, const CpelPalette *pal)
{
  double scale, hair;

  overview_columns (cr, width, &scale);
  hair = 1.0 / scale;
  if (has_cursor)
    {
      cpel_render_set_color_alpha (cr, &pal->accent, 0.8);
      cairo_rectangle (cr, round (x * scale) / scale, 0, hair, height);
      cairo_fill (cr);
    }

  /* Bottom border. */
  cpel_render_set_color (cr, &pal->grid);
  cairo_rectangle (cr, 0, height - hair, width, hair);
  cairo_fill (cr);
}

void
cpel_render_overview_layers (cairo_t           *cr,
                             double             width,
                             double             height,
                             const CpelView    *view,
                             CpelOverviewLayer  layers)
{
  CpelPalette fallback;
  const CpelPalette *pal;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (view != NULL);

  if (width <= 0 || height <= 0)
    return;
  pal = view->palette;
  if (pal == NULL)
    {
      cpel_palette_init_light (&fallback);
      pal = &fallback;
    }

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  if (layers & CPEL_OVERVIEW_LAYER_BASE)
    draw_base (cr, width, height, view, pal);
  if (layers & CPEL_OVERVIEW_LAYER_WINDOW)
    draw_window (cr, width, height, view, pal);
  if (layers & CPEL_OVERVIEW_LAYER_MATCHES)
    draw_matches (cr, width, height, view, pal);
  if (layers & CPEL_OVERVIEW_LAYER_TOP)
    draw_top (cr, width, height, view, pal);
  cairo_restore (cr);
}
