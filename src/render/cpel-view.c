/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-view.c — view defaults and geometry (time <-> x, rows, hit testing) */
#include <math.h>
#include <string.h>

#include "cpel-render-private.h"

void
cpel_view_init (CpelView *view, CpelFile *file, const CpelPalette *palette)
{
  g_return_if_fail (view != NULL);

  memset (view, 0, sizeof *view);
  view->file = file;
  view->palette = palette;
  view->t0 = 0;
  view->t1 = 1;
  if (file != NULL && cpel_file_get_duration (file) > 0)
    view->t1 = cpel_file_get_duration (file) + 1;
  view->rows = NULL;
  view->n_rows = file != NULL ? cpel_file_get_n_tracks (file) : 0;
  view->row_height = 24;
  view->label_width = 160;
  view->ruler_height = 28;
  view->font = NULL;
  view->color_by_type = TRUE;
  view->color_mode = CPEL_COLOR_BY_CODE;
  view->summary = FALSE;
}

static double
timeline_width (const CpelView *view, double width)
{
  return MAX (width - view->label_width, 1.0);
}

double
cpel_view_time_to_x (const CpelView *view, double width, gint64 t)
{
  double span;

  g_return_val_if_fail (view != NULL, 0.0);

  span = (double) view->t1 - (double) view->t0;
  if (span <= 0)
    span = 1;
  /* t - t0 in double: exact below 2^53 ns, which is what matters on screen. */
  return view->label_width + ((double) t - (double) view->t0) * timeline_width (view, width) / span;
}

gint64
cpel_view_x_to_time (const CpelView *view, double width, double x)
{
  double span, t;

  g_return_val_if_fail (view != NULL, 0);

  span = (double) view->t1 - (double) view->t0;
  if (span <= 0)
    span = 1;
  t = floor ((x - view->label_width) * span / timeline_width (view, width));
  /* Offset relative to t0 first so the result is exact near t0. */
  if (t >= (double) G_MAXINT64 - (double) view->t0)
    return G_MAXINT64;
  if (t <= (double) G_MININT64 - (double) view->t0)
    return G_MININT64;
  return view->t0 + (gint64) t;
}

guint
cpel_view_get_n_rows (const CpelView *view)
{
  g_return_val_if_fail (view != NULL, 0);

  if (view->rows != NULL)
    return view->n_rows;
  return view->file != NULL ? cpel_file_get_n_tracks (view->file) : 0;
}

guint
cpel_view_get_row_slot (const CpelView *view, guint r)
{
  guint slot;

  g_return_val_if_fail (view != NULL, G_MAXUINT);

  if (view->file == NULL || r >= cpel_view_get_n_rows (view))
    return G_MAXUINT;
  slot = view->rows != NULL ? view->rows[r] : r;
  if (slot >= cpel_file_get_n_tracks (view->file))
    return G_MAXUINT;
  return slot;
}

double
cpel_view_get_row_y (const CpelView *view, guint r)
{
  g_return_val_if_fail (view != NULL, 0.0);

  return view->ruler_height + r * view->row_height - view->scroll_y;
}

double
cpel_view_get_content_height (const CpelView *view)
{
  g_return_val_if_fail (view != NULL, 0.0);

  return cpel_view_get_n_rows (view) * view->row_height + cpel_view_get_legend_room (view);
}

double
cpel_view_get_legend_room (const CpelView *view)
{
  g_return_val_if_fail (view != NULL, 0.0);

  if (view->spans == NULL || cpel_spans_get_n_states (view->spans) == 0)
    return 0.0;
  return CPEL_VIEW_LEGEND_ROOM;
}

int
cpel_view_row_at_y (const CpelView *view, double y)
{
  double r;

  g_return_val_if_fail (view != NULL, -1);

  if (y < view->ruler_height || view->row_height <= 0)
    return -1;
  r = floor ((y - view->ruler_height + view->scroll_y) / view->row_height);
  if (r < 0 || r >= cpel_view_get_n_rows (view) || r > G_MAXINT)
    return -1;
  return (int) r;
}

gboolean
cpel_view_any_hidden (const CpelView *view)
{
  guint n;

  if (view->hidden_types == NULL || view->file == NULL)
    return FALSE;
  n = cpel_file_get_n_types (view->file);
  for (guint i = 0; i < n; i++)
    if (view->hidden_types[i])
      return TRUE;
  return FALSE;
}

gboolean
cpel_view_type_hidden (const CpelView *view, CpelFile *file, guint type)
{
  return view->hidden_types != NULL && type < cpel_file_get_n_types (file)
         && view->hidden_types[type] != 0;
}

gboolean
cpel_view_code_hidden (const CpelView *view, CpelFile *file, guint32 code)
{
  guint type;

  if (view->hidden_types == NULL)
    return FALSE;
  if (!cpel_file_lookup_type (file, code, &type))
    return FALSE;
  return view->hidden_types[type] != 0;
}

gint64
cpel_render_column_time (gint64 t0, gint64 t1, guint64 c, guint64 n)
{
  guint64 span = (guint64) t1 - (guint64) t0;

  if (n == 0)
    return t0;
#ifdef __SIZEOF_INT128__
  {
    unsigned __int128 p = (unsigned __int128) span * c;
    unsigned __int128 q = (p + n - 1) / n;
    return (gint64) ((guint64) t0 + (guint64) q);
  }
#else
  return t0 + (gint64) ceil ((double) span * (double) c / (double) n);
#endif
}

gint64
cpel_render_time_column (gint64 t0, gint64 t1, guint64 n, gint64 t)
{
  guint64 span = (guint64) t1 - (guint64) t0;

  if (span == 0)
    return 0;
  if (t < t0)
    return -1;
#ifdef __SIZEOF_INT128__
  {
    unsigned __int128 d = (unsigned __int128) ((guint64) t - (guint64) t0) * n / span;
    return d > (unsigned __int128) G_MAXINT64 ? G_MAXINT64 : (gint64) d;
  }
#else
  return (gint64) floor ((double) ((guint64) t - (guint64) t0) * (double) n / (double) span);
#endif
}

guint64
cpel_render_gallop (const gint64 *times, guint64 lo, guint64 n, gint64 t)
{
  guint64 step = 16, hi;

  /* A short linear probe first: sequential reads are cheap and most
   * columns hold few events. */
  for (guint k = 0; k < 16; k++, lo++)
    if (lo >= n || times[lo] >= t)
      return lo;
  /* times[lo - 1] < t: find hi with times[hi] >= t (or n), doubling. */
  lo--;
  hi = (n - lo > step) ? lo + step : n;
  while (hi < n && times[hi] < t)
    {
      lo = hi;
      step *= 2;
      hi = (n - lo > step) ? lo + step : n;
    }
  /* Invariant: times[lo] < t, times[hi] >= t or hi == n. */
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;
      if (times[mid] < t)
        lo = mid;
      else
        hi = mid;
    }
  return hi;
}

guint64
cpel_render_search_hint (const gint64 *times, guint64 lo, guint64 n, gint64 t, guint64 hint)
{
  guint64 a, b, step;

  if (hint <= lo + 16 || hint >= n)
    return cpel_render_gallop (times, lo, n, t);
  if (times[hint] < t)
    return cpel_render_gallop (times, hint + 1, n, t);
  if (times[hint - 1] < t)
    return hint;
  /* The answer is in [lo, hint - 1]: gallop backwards from b. */
  b = hint - 1;               /* times[b] >= t */
  step = 2;
  for (;;)
    {
      a = (b - lo > step) ? b - step : lo;
      if (times[a] < t)
        break;
      if (a == lo)
        return lo;
      b = a;
      step *= 2;
    }
  /* times[a] < t <= times[b] */
  while (b - a > 1)
    {
      guint64 mid = a + (b - a) / 2;
      if (times[mid] < t)
        a = mid;
      else
        b = mid;
    }
  return b;
}

gboolean
cpel_view_hit_test (const CpelView *view, double width, double x, double y,
                    double radius, guint *slot_out, guint64 *index_out)
{
  const gint64 *times;
  guint64 n, mid, best = G_MAXUINT64;
  double best_d = G_MAXDOUBLE;
  gint64 t;
  int r;
  guint slot;
  const guint cap = 4096;   /* hidden events skipped per direction at most */

  g_return_val_if_fail (view != NULL, FALSE);

  if (view->file == NULL || x < view->label_width || x >= width)
    return FALSE;
  r = cpel_view_row_at_y (view, y);
  if (r < 0)
    return FALSE;
  slot = cpel_view_get_row_slot (view, (guint) r);
  if (slot == G_MAXUINT)
    return FALSE;
  times = cpel_file_get_track_times (view->file, slot, &n);
  if (n == 0)
    return FALSE;

  t = cpel_view_x_to_time (view, width, x);
  mid = cpel_file_track_lower_bound (view->file, slot, t);

  /* Walk right from mid and left from mid-1 while within the radius,
   * skipping hidden types; the first visible event on each side is the
   * nearest on that side. */
  for (guint64 i = mid, k = 0; i < n && k < cap; i++, k++)
    {
      double d = fabs (cpel_view_time_to_x (view, width, times[i]) - x);
      if (d > radius)
        break;
      if (view->hidden_types != NULL
          && cpel_view_code_hidden (view, view->file,
                                    cpel_file_get_track_event_code (view->file, slot, i)))
        continue;
      best = i;
      best_d = d;
      break;
    }
  for (guint64 i = mid, k = 0; i > 0 && k < cap; i--, k++)
    {
      double d = fabs (cpel_view_time_to_x (view, width, times[i - 1]) - x);
      if (d > radius || d > best_d)
        break;
      if (view->hidden_types != NULL
          && cpel_view_code_hidden (view, view->file,
                                    cpel_file_get_track_event_code (view->file, slot, i - 1)))
        continue;
      /* Ties go to the earlier event: the first visible one of its time. */
      best = i - 1;
      best_d = d;
      for (guint64 j = best; j > 0 && times[j - 1] == times[best] && k < cap; j--, k++)
        if (view->hidden_types == NULL
            || !cpel_view_code_hidden (view, view->file,
                                       cpel_file_get_track_event_code (view->file, slot, j - 1)))
          best = j - 1;
      break;
    }
  if (best == G_MAXUINT64)
    return FALSE;
  if (slot_out != NULL)
    *slot_out = slot;
  if (index_out != NULL)
    *index_out = best;
  return TRUE;
}

guint64
cpel_view_count_range (const CpelView *view, gint64 t0, gint64 t1)
{
  guint n_rows;
  guint64 total = 0;
  gint64 end;

  g_return_val_if_fail (view != NULL, 0);

  if (view->file == NULL || t1 < t0)
    return 0;
  end = t1 == G_MAXINT64 ? G_MAXINT64 : t1 + 1;
  n_rows = cpel_view_get_n_rows (view);
  for (guint r = 0; r < n_rows; r++)
    {
      guint slot = cpel_view_get_row_slot (view, r);
      if (slot == G_MAXUINT)
        continue;
      total += cpel_file_track_count_range (view->file, slot, t0, end);
      if (end == G_MAXINT64)
        {
          guint64 n;
          const gint64 *times = cpel_file_get_track_times (view->file, slot, &n);
          if (n > 0 && times[n - 1] == G_MAXINT64)
            total++;
        }
    }
  return total;
}
