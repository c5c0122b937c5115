/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-dist.c — duration filters, histograms, span lists and duration
 * anomalies over the span engine's spans (cpel_spans_run) */
#include "cpel-span-dist.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "cpel-durations-private.h"
#include "cpel-error.h"
#include "cpel-span-rules-private.h"
#include "cpel-spans-private.h"
#include "cpel-stats.h"
#include "cpel-stats-private.h"
#include "cpel-time.h"

/* ---- durations and filters ------------------------------------------------ */

gboolean
cpel_span_duration_parse (const char *text,
                          gint64     *ns)
{
  const char *p;
  gint64 v;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (ns != NULL, FALSE);
  for (p = text; *p == ' ' || *p == '\t'; p++)
    ;
  if (!g_ascii_isdigit (*p) && *p != '.')
    return FALSE;
  if (!cpel_time_parse (text, &v) || v < 0)
    return FALSE;
  *ns = v;
  return TRUE;
}

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

static const char *
skip_blanks (const char *p)
{
  while (is_blank (*p))
    p++;
  return p;
}

/* A condition starts here: "dur", blanks, then an operator character. */
static gboolean
at_condition (const char *p)
{
  if (strncmp (p, "dur", 3) != 0)
    return FALSE;
  p = skip_blanks (p + 3);
  return *p == '<' || *p == '>' || *p == '=' || *p == '!';
}

static gboolean
filter_error (GError    **error,
              guint      *column,
              const char *text,
              const char *at,
              const char *message)
{
  guint col = (guint) g_utf8_pointer_to_offset (text, at) + 1;

  if (column != NULL)
    *column = col;
  /* TRANSLATORS: an error in a duration filter such as “ip4-lookup dur>5us” */
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("column %u: %s"), col, message);
  return FALSE;
}

CpelSpanFilter *
cpel_span_filter_new (const char *name,
                      gint64      min_ns,
                      gint64      max_ns)
{
  CpelSpanFilter *f = g_new0 (CpelSpanFilter, 1);

  f->min_ns = min_ns;
  f->max_ns = max_ns;
  f->from_ns = G_MININT64;
  f->to_ns = G_MAXINT64;
  if (name != NULL)
    {
      GString *glob = g_string_new (NULL);

      for (const char *p = name; *p; p++)
        {
          if (*p == '*' || *p == '?' || *p == '\\')
            g_string_append_c (glob, '\\');
          g_string_append_c (glob, *p);
        }
      f->name = g_string_free (glob, FALSE);
    }
  return f;
}

CpelSpanFilter *
cpel_span_filter_copy (const CpelSpanFilter *filter)
{
  CpelSpanFilter *f;

  g_return_val_if_fail (filter != NULL, NULL);
  f = g_memdup2 (filter, sizeof *filter);
  f->name = g_strdup (filter->name);
  return f;
}

gboolean
cpel_span_filter_equal (const CpelSpanFilter *a,
                        const CpelSpanFilter *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return g_strcmp0 (a->name, b->name) == 0 && a->min_ns == b->min_ns && a->max_ns == b->max_ns
         && a->from_ns == b->from_ns && a->to_ns == b->to_ns;
}

void
cpel_span_filter_free (CpelSpanFilter *filter)
{
  if (filter == NULL)
    return;
  g_free (filter->name);
  g_free (filter);
}

CpelSpanFilter *
cpel_span_filter_parse (const char *text,
                        guint      *column,
                        GError    **error)
{
  g_autoptr(CpelSpanFilter) f = g_new0 (CpelSpanFilter, 1);
  g_autoptr(GString) name = g_string_new (NULL);
  const char *p = text, *end = NULL;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (column != NULL)
    *column = 0;
  f->min_ns = 0;
  f->max_ns = G_MAXINT64;
  f->from_ns = G_MININT64;
  f->to_ns = G_MAXINT64;
  if (!g_utf8_validate (text, -1, &end))
    {
      filter_error (error, column, text, end, _("not valid UTF-8"));
      return NULL;
    }
  for (;;)
    {
      p = skip_blanks (p);
      if (*p == '\0')
        break;
      if (at_condition (p))
        {
          const char *op, *v;
          g_autofree char *value = NULL;
          g_autofree char *message = NULL;
          gboolean lt = FALSE, gt = FALSE, eq = FALSE;
          gint64 d;

          op = skip_blanks (p + 3);
          if (op[0] == '<' || op[0] == '>')
            {
              lt = op[0] == '<';
              gt = op[0] == '>';
              eq = op[1] == '=';
              p = op + (eq ? 2 : 1);
            }
          else if (op[0] == '=')
            {
              eq = TRUE;
              p = op + (op[1] == '=' ? 2 : 1);
            }
          else
            {
              filter_error (error, column, text, op,
                            _("expected <, <=, >, >= or = after “dur”"));
              return NULL;
            }
          p = skip_blanks (p);
          v = p;
          while (*p != '\0' && !is_blank (*p))
            p++;
          if (p == v)
            {
              filter_error (error, column, text, v,
                            _("expected a duration such as 5us after the operator"));
              return NULL;
            }
          value = g_strndup (v, (gsize) (p - v));
          if (!cpel_span_duration_parse (value, &d))
            {
              message = g_strdup_printf (_("“%s” is not a duration "
                                           "(such as 250ns, 5us, 1ms or 2s)"), value);
              filter_error (error, column, text, v, message);
              return NULL;
            }
          if (gt && !eq)
            f->min_ns = MAX (f->min_ns, d + 1);   /* d < 2^63 - 1 is known */
          else if (gt || (eq && !lt))
            f->min_ns = MAX (f->min_ns, d);
          if (lt && !eq)
            f->max_ns = MIN (f->max_ns, d - 1);
          else if (lt || (eq && !gt))
            f->max_ns = MIN (f->max_ns, d);
          continue;
        }
      if (*p == '<' || *p == '>' || *p == '=')
        {
          filter_error (error, column, text, p,
                        _("a condition starts with “dur”, as in dur>5us"));
          return NULL;
        }
      /* a word of the name: quoted parts keep their blanks */
      if (name->len > 0)
        g_string_append_c (name, ' ');
      while (*p != '\0' && !is_blank (*p))
        {
          if (*p == '"')
            {
              const char *q = p++;

              while (*p != '\0' && *p != '"')
                {
                  if (p[0] == '\\' && p[1] == '"')
                    p++;
                  g_string_append_c (name, *p++);
                }
              if (*p != '"')
                {
                  filter_error (error, column, text, q, _("the quote is not closed"));
                  return NULL;
                }
              p++;
            }
          else
            g_string_append_c (name, *p++);
        }
    }
  if (name->len > 0)
    f->name = g_string_free (g_steal_pointer (&name), FALSE);
  return g_steal_pointer (&f);
}

gboolean
cpel_span_filter_match_name (const CpelSpanFilter *filter,
                             const char           *name)
{
  g_return_val_if_fail (filter != NULL && name != NULL, FALSE);
  return filter->name == NULL
         || cpel_span_glob_match (filter->name, name, strlen (name), NULL, NULL);
}

gboolean
cpel_span_filter_match (const CpelSpanFilter *filter,
                        const char           *name,
                        gint64                duration_ns)
{
  g_return_val_if_fail (filter != NULL && name != NULL, FALSE);
  return duration_ns >= filter->min_ns && duration_ns <= filter->max_ns
         && cpel_span_filter_match_name (filter, name);
}

gboolean
cpel_span_filter_match_span (const CpelSpanFilter *filter,
                             const char           *name,
                             gint64                begin_ns,
                             gint64                end_ns)
{
  g_return_val_if_fail (filter != NULL && name != NULL, FALSE);
  return begin_ns >= filter->from_ns && begin_ns <= filter->to_ns
         && cpel_span_filter_match (filter, name, end_ns - begin_ns);
}

/* ---- shared --------------------------------------------------------------- */

/* Whether name id `id` is wanted: decided once per id (-1 unknown). */
static gboolean
name_wanted (GArray         *cache,
             CpelSpanNames  *names,
             guint32         id,
             gboolean      (*want) (gpointer data, const char *name),
             gpointer        data)
{
  gint8 *c;

  if (id >= cache->len)
    {
      guint old = cache->len;

      g_array_set_size (cache, id + 1);
      memset (&g_array_index (cache, gint8, old), -1, id + 1 - old);
    }
  c = &g_array_index (cache, gint8, id);
  if (*c < 0)
    *c = want (data, cpel_span_names_get (names, id)) ? 1 : 0;
  return *c > 0;
}

static gboolean
finished_span (const CpelSpan *span)
{
  return (span->flags & (CPEL_SPAN_STATE | CPEL_SPAN_ORPHAN)) == 0;
}

/* The walk every pass makes: the finished spans (no states, no orphans)
 * whose names `want` takes, each handed to `visit` as it completes. */
typedef struct
{
  CpelSpanNames     *names;
  GArray            *cache;      /* gint8 per name id */
  gboolean         (*want) (gpointer data, const char *name);
  CpelSpanSinkFunc   visit;
  gpointer           data;
} SpanWalk;

static void
walk_sink (gpointer        data,
           guint           slot,
           const CpelSpan *span,
           gint64          tb,
           gint64          te)
{
  SpanWalk *walk = data;

  if (finished_span (span)
      && name_wanted (walk->cache, walk->names, span->name, walk->want, walk->data))
    walk->visit (walk->data, slot, span, tb, te);
}

/* Runs the span engine over `file`, calling `visit` (with `data`) for each
 * finished span whose name `want` takes (asked once per name); name ids
 * are `names`'. */
static gboolean
walk_spans (CpelFile               *file,
            CpelSpanRules          *rules,
            const CpelSpansOptions *options,
            CpelSpanNames          *names,
            gboolean              (*want) (gpointer data, const char *name),
            CpelSpanSinkFunc        visit,
            gpointer                data,
            GCancellable           *cancellable,
            GError                **error)
{
  g_autoptr(GArray) cache = g_array_new (FALSE, FALSE, sizeof (gint8));
  SpanWalk walk = { names, cache, want, visit, data };

  return cpel_spans_run (file, rules, options, names, walk_sink, &walk, cancellable, error);
}

/* ---- histograms ----------------------------------------------------------- */

typedef struct
{
  CpelSpanHistogram  h;
  GArray            *edges;
  GArray            *counts;
  GArray            *totals;
} Hist;

struct _CpelSpanHistograms
{
  CpelSpanNames *names;
  GArray        *hists;      /* Hist */
};

typedef struct
{
  const char    *name;
  GPtrArray     *durations;  /* per name id: CpelDurations, or NULL */
} HistRun;

static gboolean
hist_want (gpointer    data,
           const char *name)
{
  HistRun *run = data;

  return run->name == NULL || strcmp (run->name, name) == 0;
}

static void
hist_sink (gpointer        data,
           guint           slot,
           const CpelSpan *span,
           gint64          tb,
           gint64          te)
{
  HistRun *run = data;
  CpelDurations *a;
  gint64 d = MAX (te - tb, 0);

  (void) slot;
  if (span->name >= run->durations->len)
    g_ptr_array_set_size (run->durations, span->name + 1);
  a = g_ptr_array_index (run->durations, span->name);
  if (a == NULL)
    {
      a = g_new (CpelDurations, 1);
      cpel_durations_init (a);
      g_ptr_array_index (run->durations, span->name) = a;
    }
  cpel_durations_append (a, d);
}

static void
durations_free (gpointer p)
{
  if (p != NULL)
    {
      cpel_durations_clear (p);
      g_free (p);
    }
}

/* The edges of [lo, hi) in n bins on the axis. */
static void
make_edges (GArray           *edges,
            gint64            lo,
            gint64            hi,
            guint             n,
            CpelSpanHistAxis  axis)
{
  if (axis == CPEL_SPAN_HIST_LINEAR)
    {
      guint64 span = (guint64) hi - (guint64) lo;
      guint64 w = (span + n - 1) / n;
      guint64 bins = (span + w - 1) / w;

      for (guint64 i = 0; i < bins; i++)
        {
          gint64 e = lo + (gint64) (i * w);

          g_array_append_val (edges, e);
        }
      g_array_append_val (edges, hi);
      return;
    }
  if (lo == 0)
    {
      g_array_append_val (edges, lo);
      lo = 1;
      if (hi == 1 || n == 1)
        {
          g_array_append_val (edges, hi);
          return;
        }
      n--;
    }
  g_array_append_val (edges, lo);
  {
    double l0 = log ((double) lo), l1 = log ((double) hi);

    for (guint i = 1; i < n; i++)
      {
        double x = exp (l0 + (l1 - l0) * i / n);
        gint64 e, last = g_array_index (edges, gint64, edges->len - 1);

        if (!(x < (double) hi))
          break;
        e = (gint64) llround (x);
        if (e > last && e < hi)
          g_array_append_val (edges, e);
      }
  }
  g_array_append_val (edges, hi);
}

/* The bin of d: the last edge <= d. */
static guint
bin_of (const gint64 *edges,
        guint         n_bins,
        gint64        d)
{
  guint lo = 0, hi = n_bins;

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (edges[mid] <= d)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static gint
hist_cmp (gconstpointer pa,
          gconstpointer pb)
{
  const Hist *a = pa, *b = pb;

  if (a->h.total_ns != b->h.total_ns)
    return a->h.total_ns > b->h.total_ns ? -1 : 1;
  return strcmp (a->h.name, b->h.name);
}

/* The durations of every span name (with `name`: of that one) of `file`,
 * indexed by hs->names' ids. */
static gboolean
collect_durations (CpelFile               *file,
                   CpelSpanRules          *rules,
                   const CpelSpansOptions *options,
                   const char             *name,
                   CpelSpanHistograms     *hs,
                   GPtrArray              *durations,
                   GCancellable           *cancellable,
                   GError                **error)
{
  HistRun run;

  run.name = name;
  run.durations = durations;
  return walk_spans (file, rules, options, hs->names, hist_want, hist_sink, &run,
                     cancellable, error);
}

static CpelSpanHistograms *
histograms_new (void)
{
  CpelSpanHistograms *hs = g_new0 (CpelSpanHistograms, 1);

  hs->names = cpel_span_names_new ();
  hs->hists = g_array_new (FALSE, TRUE, sizeof (Hist));
  return hs;
}

static void
durations_min_max (CpelDurations *a,
                   gint64        *min,
                   gint64        *max)
{
  *min = *max = *cpel_durations_at (a, 0);
  for (guint64 i = 1; i < a->n; i++)
    {
      gint64 v = *cpel_durations_at (a, i);

      *min = MIN (*min, v);
      *max = MAX (*max, v);
    }
}

/* Name `id`'s histogram of the durations `a` (not empty) over bins of
 * [min, max + 1), appended to hs. */
static void
add_histogram (CpelSpanHistograms *hs,
               guint               id,
               CpelDurations      *a,
               gint64              min,
               gint64              max,
               guint               n_bins,
               CpelSpanHistAxis    axis)
{
  unsigned __int128 total = 0;
  Hist h = { { 0 } };

  h.h.name = cpel_span_names_get (hs->names, id);
  h.h.count = a->n;
  durations_min_max (a, &h.h.min_ns, &h.h.max_ns);
  for (guint64 i = 0; i < a->n; i++)
    total += (guint64) *cpel_durations_at (a, i);
  h.h.total_ns = total > G_MAXUINT64 ? G_MAXUINT64 : (guint64) total;
  h.edges = g_array_new (FALSE, FALSE, sizeof (gint64));
  /* a longest duration of 2^63 - 1 ns: its bin ends there, inclusive */
  make_edges (h.edges, min, max == G_MAXINT64 ? G_MAXINT64 : max + 1, n_bins, axis);
  h.h.n_bins = h.edges->len - 1;
  h.counts = g_array_sized_new (FALSE, TRUE, sizeof (guint64), h.h.n_bins);
  h.totals = g_array_sized_new (FALSE, TRUE, sizeof (guint64), h.h.n_bins);
  g_array_set_size (h.counts, h.h.n_bins);
  g_array_set_size (h.totals, h.h.n_bins);
  for (guint64 i = 0; i < a->n; i++)
    {
      gint64 v = *cpel_durations_at (a, i);
      guint b = bin_of ((const gint64 *) h.edges->data, h.h.n_bins, v);
      guint64 *t = &g_array_index (h.totals, guint64, b);

      g_array_index (h.counts, guint64, b)++;
      *t = *t > G_MAXUINT64 - (guint64) v ? G_MAXUINT64 : *t + (guint64) v;
    }
  h.h.edges = (const gint64 *) h.edges->data;
  h.h.counts = (const guint64 *) h.counts->data;
  h.h.totals = (const guint64 *) h.totals->data;
  g_array_append_val (hs->hists, h);
}

CpelSpanHistograms *
cpel_span_histograms_compute (CpelFile               *file,
                              CpelSpanRules          *rules,
                              const CpelSpansOptions *options,
                              const char             *name,
                              guint                   n_bins,
                              CpelSpanHistAxis        axis,
                              GCancellable           *cancellable,
                              GError                **error)
{
  g_autoptr(CpelSpanHistograms) hs = NULL;
  g_autoptr(GPtrArray) durations = g_ptr_array_new_with_free_func (durations_free);

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (rules != NULL, NULL);
  g_return_val_if_fail (n_bins >= 1 && n_bins <= CPEL_SPAN_HIST_MAX_BINS, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  hs = histograms_new ();
  if (!collect_durations (file, rules, options, name, hs, durations, cancellable, error))
    return NULL;
  for (guint id = 0; id < durations->len; id++)
    {
      CpelDurations *a = g_ptr_array_index (durations, id);
      gint64 min, max;

      if (a == NULL || a->n == 0)
        continue;
      durations_min_max (a, &min, &max);
      add_histogram (hs, id, a, min, max, n_bins, axis);
      g_ptr_array_index (durations, id) = NULL;
      durations_free (a);
    }
  g_array_sort (hs->hists, hist_cmp);
  return g_steal_pointer (&hs);
}

/* The durations of `name` among those collected (NULL: none), its id. */
static CpelDurations *
named_durations (CpelSpanHistograms *hs,
                 GPtrArray          *durations,
                 const char         *name,
                 guint              *id)
{
  for (guint i = 0; i < durations->len; i++)
    {
      CpelDurations *a = g_ptr_array_index (durations, i);

      if (a != NULL && a->n > 0 && strcmp (cpel_span_names_get (hs->names, i), name) == 0)
        {
          *id = i;
          return a;
        }
    }
  return NULL;
}

gboolean
cpel_span_histograms_compute_pair (CpelFile               *file_a,
                                   CpelSpanRules          *rules_a,
                                   const CpelSpansOptions *options_a,
                                   CpelFile               *file_b,
                                   CpelSpanRules          *rules_b,
                                   const CpelSpansOptions *options_b,
                                   const char             *name,
                                   guint                   n_bins,
                                   CpelSpanHistAxis        axis,
                                   CpelSpanHistograms    **out_a,
                                   CpelSpanHistograms    **out_b,
                                   GCancellable           *cancellable,
                                   GError                **error)
{
  g_autoptr(CpelSpanHistograms) ha = NULL;
  g_autoptr(CpelSpanHistograms) hb = NULL;
  g_autoptr(GPtrArray) da = g_ptr_array_new_with_free_func (durations_free);
  g_autoptr(GPtrArray) db = g_ptr_array_new_with_free_func (durations_free);
  CpelDurations *a, *b;
  guint id_a = 0, id_b = 0;
  gint64 min = G_MAXINT64, max = G_MININT64;

  g_return_val_if_fail (CPEL_IS_FILE (file_a) && CPEL_IS_FILE (file_b), FALSE);
  g_return_val_if_fail (rules_a != NULL && rules_b != NULL && name != NULL, FALSE);
  g_return_val_if_fail (n_bins >= 1 && n_bins <= CPEL_SPAN_HIST_MAX_BINS, FALSE);
  g_return_val_if_fail (out_a != NULL && out_b != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ha = histograms_new ();
  hb = histograms_new ();
  if (!collect_durations (file_a, rules_a, options_a, name, ha, da, cancellable, error)
      || !collect_durations (file_b, rules_b, options_b, name, hb, db, cancellable, error))
    return FALSE;
  a = named_durations (ha, da, name, &id_a);
  b = named_durations (hb, db, name, &id_b);
  for (guint i = 0; i < 2; i++)
    {
      CpelDurations *d = i == 0 ? a : b;
      gint64 lo, hi;

      if (d == NULL)
        continue;
      durations_min_max (d, &lo, &hi);
      min = MIN (min, lo);
      max = MAX (max, hi);
    }
  if (a != NULL)
    add_histogram (ha, id_a, a, min, max, n_bins, axis);
  if (b != NULL)
    add_histogram (hb, id_b, b, min, max, n_bins, axis);
  *out_a = g_steal_pointer (&ha);
  *out_b = g_steal_pointer (&hb);
  return TRUE;
}

void
cpel_span_histograms_free (CpelSpanHistograms *hists)
{
  if (hists == NULL)
    return;
  if (hists->hists != NULL)
    for (guint i = 0; i < hists->hists->len; i++)
      {
        Hist *h = &g_array_index (hists->hists, Hist, i);

        g_array_unref (h->edges);
        g_array_unref (h->counts);
        g_array_unref (h->totals);
      }
  g_clear_pointer (&hists->hists, g_array_unref);
  g_clear_pointer (&hists->names, cpel_span_names_free);
  g_free (hists);
}

guint
cpel_span_histograms_get_n (CpelSpanHistograms *hists)
{
  g_return_val_if_fail (hists != NULL, 0);
  return hists->hists->len;
}

const CpelSpanHistogram *
cpel_span_histograms_get (CpelSpanHistograms *hists,
                          guint               i)
{
  g_return_val_if_fail (hists != NULL, NULL);
  g_return_val_if_fail (i < hists->hists->len, NULL);
  return &g_array_index (hists->hists, Hist, i).h;
}

CpelSpanFilter *
cpel_span_histogram_selection (const CpelSpanHistogram *h,
                               guint                    first,
                               guint                    last)
{
  g_return_val_if_fail (h != NULL, NULL);
  g_return_val_if_fail (first <= last && last < h->n_bins, NULL);
  /* the last edge may be 2^63 - 1 itself (a bin that holds it) */
  return cpel_span_filter_new (h->name, h->edges[first],
                               h->edges[last + 1] == G_MAXINT64 && last + 1 == h->n_bins
                               ? G_MAXINT64 : h->edges[last + 1] - 1);
}

char *
cpel_span_histograms_to_csv (CpelSpanHistograms *hists)
{
  GString *out;

  g_return_val_if_fail (hists != NULL, NULL);
  out = g_string_new ("span,bin_lo_ns,bin_hi_ns,count\r\n");
  for (guint i = 0; i < hists->hists->len; i++)
    {
      const CpelSpanHistogram *h = &g_array_index (hists->hists, Hist, i).h;
      g_autofree char *name = g_utf8_make_valid (h->name, -1);

      for (guint b = 0; b < h->n_bins; b++)
        {
          cpel_csv_append_field (out, name);
          g_string_append_printf (out, ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                                  ",%" G_GUINT64_FORMAT "\r\n",
                                  h->edges[b], h->edges[b + 1], h->counts[b]);
        }
    }
  return g_string_free (out, FALSE);
}

char *
cpel_span_histograms_to_text (CpelSpanHistograms *hists)
{
  GString *out;
  CpelTextTable t;

  g_return_val_if_fail (hists != NULL, NULL);
  out = g_string_new (NULL);
  cpel_text_table_init (&t, "lrrr");
  cpel_text_table_add (&t, g_strdup (_("Span")));
  /* TRANSLATORS: a histogram bin's lower edge (included) */
  cpel_text_table_add (&t, g_strdup (_("From")));
  /* TRANSLATORS: a histogram bin's upper edge (excluded) */
  cpel_text_table_add (&t, g_strdup (_("Below")));
  cpel_text_table_add (&t, g_strdup (_("Count")));
  for (guint i = 0; i < hists->hists->len; i++)
    {
      const CpelSpanHistogram *h = &g_array_index (hists->hists, Hist, i).h;

      for (guint b = 0; b < h->n_bins; b++)
        {
          cpel_text_table_add (&t, cpel_stats_printable (h->name));
          cpel_text_table_add (&t, cpel_time_format (h->edges[b]));
          cpel_text_table_add (&t, cpel_time_format (h->edges[b + 1]));
          cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, h->counts[b]));
        }
    }
  cpel_text_table_write (&t, out);
  return g_string_free (out, FALSE);
}

/* ---- lists ---------------------------------------------------------------- */

struct _CpelSpanList
{
  CpelFile      *file;
  CpelSpanNames *names;
  GArray        *items;     /* CpelSpanItem */
  guint64        n_seen;
};

typedef struct
{
  CpelSpanList         *list;
  const CpelSpanFilter *filter;
  guint64               top;
} ListRun;

static gboolean
list_want (gpointer    data,
           const char *name)
{
  ListRun *run = data;

  return run->filter == NULL || cpel_span_filter_match_name (run->filter, name);
}

static gint64
item_dur (const CpelSpanItem *a)
{
  return a->end_ns - a->begin_ns;
}

/* Longer first, then earlier, then the lower slot, the name, the event. */
static gint
top_cmp (const CpelSpanItem *a,
         const CpelSpanItem *b)
{
  gint64 da = item_dur (a), db = item_dur (b);
  gint c;

  if (da != db)
    return da > db ? -1 : 1;
  if (a->begin_ns != b->begin_ns)
    return a->begin_ns < b->begin_ns ? -1 : 1;
  if (a->slot != b->slot)
    return a->slot < b->slot ? -1 : 1;
  c = strcmp (a->name, b->name);
  if (c != 0)
    return c;
  return a->begin < b->begin ? -1 : a->begin > b->begin;
}

static gint
top_cmp_sort (gconstpointer a,
              gconstpointer b)
{
  return top_cmp (a, b);
}

/* Earlier first, then the lower slot, the earlier end, the name. */
static gint
time_cmp (gconstpointer pa,
          gconstpointer pb)
{
  const CpelSpanItem *a = pa, *b = pb;

  if (a->begin_ns != b->begin_ns)
    return a->begin_ns < b->begin_ns ? -1 : 1;
  if (a->slot != b->slot)
    return a->slot < b->slot ? -1 : 1;
  if (a->end_ns != b->end_ns)
    return a->end_ns < b->end_ns ? -1 : 1;
  return strcmp (a->name, b->name);
}

/* The heap's root is the worst kept: the one that top_cmp puts last. */
static void
heap_sift_down (CpelSpanItem *h,
                guint64       n,
                guint64       i)
{
  for (;;)
    {
      guint64 l = 2 * i + 1, r = l + 1, m = i;
      CpelSpanItem tmp;

      if (l < n && top_cmp (&h[l], &h[m]) > 0)
        m = l;
      if (r < n && top_cmp (&h[r], &h[m]) > 0)
        m = r;
      if (m == i)
        return;
      tmp = h[i];
      h[i] = h[m];
      h[m] = tmp;
      i = m;
    }
}

static void
heap_sift_up (CpelSpanItem *h,
              guint64       i)
{
  while (i > 0)
    {
      guint64 p = (i - 1) / 2;
      CpelSpanItem tmp;

      if (top_cmp (&h[i], &h[p]) <= 0)
        return;
      tmp = h[i];
      h[i] = h[p];
      h[p] = tmp;
      i = p;
    }
}

static void
list_sink (gpointer        data,
           guint           slot,
           const CpelSpan *span,
           gint64          tb,
           gint64          te)
{
  ListRun *run = data;
  GArray *items = run->list->items;
  CpelSpanItem it;

  run->list->n_seen++;
  if (run->filter != NULL && (te - tb < run->filter->min_ns || te - tb > run->filter->max_ns
                              || tb < run->filter->from_ns || tb > run->filter->to_ns))
    return;
  it.begin_ns = tb;
  it.end_ns = te;
  it.slot = slot;
  it.begin = span->begin;
  it.name = cpel_span_names_get (run->list->names, span->name);
  if (run->top == 0 || items->len < run->top)
    {
      g_array_append_val (items, it);
      if (run->top > 0)
        heap_sift_up ((CpelSpanItem *) items->data, items->len - 1);
      return;
    }
  if (top_cmp (&it, &g_array_index (items, CpelSpanItem, 0)) < 0)
    {
      g_array_index (items, CpelSpanItem, 0) = it;
      heap_sift_down ((CpelSpanItem *) items->data, items->len, 0);
    }
}

CpelSpanList *
cpel_span_list_compute (CpelFile               *file,
                        CpelSpanRules          *rules,
                        const CpelSpansOptions *options,
                        const CpelSpanFilter   *filter,
                        guint64                 top,
                        GCancellable           *cancellable,
                        GError                **error)
{
  g_autoptr(CpelSpanList) list = g_new0 (CpelSpanList, 1);
  ListRun run;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (rules != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  list->file = g_object_ref (file);
  list->names = cpel_span_names_new ();
  list->items = g_array_new (FALSE, FALSE, sizeof (CpelSpanItem));
  run.list = list;
  run.filter = filter;
  run.top = MIN (top, (guint64) G_MAXUINT / 2);
  if (!walk_spans (file, rules, options, list->names, list_want, list_sink, &run,
                   cancellable, error))
    return NULL;
  g_array_sort (list->items, top > 0 ? top_cmp_sort : time_cmp);
  return g_steal_pointer (&list);
}

void
cpel_span_list_free (CpelSpanList *list)
{
  if (list == NULL)
    return;
  g_clear_pointer (&list->items, g_array_unref);
  g_clear_pointer (&list->names, cpel_span_names_free);
  g_clear_object (&list->file);
  g_free (list);
}

guint64
cpel_span_list_get_n (CpelSpanList *list)
{
  g_return_val_if_fail (list != NULL, 0);
  return list->items->len;
}

const CpelSpanItem *
cpel_span_list_get (CpelSpanList *list,
                    guint64       i)
{
  g_return_val_if_fail (list != NULL, NULL);
  g_return_val_if_fail (i < list->items->len, NULL);
  return &g_array_index (list->items, CpelSpanItem, i);
}

guint64
cpel_span_list_get_n_seen (CpelSpanList *list)
{
  g_return_val_if_fail (list != NULL, 0);
  return list->n_seen;
}

/* A label or name for a TSV field: valid UTF-8, tabs and line breaks as
 * blanks. */
static char *
tsv_field (const char *s)
{
  char *v = g_utf8_make_valid (s != NULL ? s : "", -1);

  for (char *p = v; *p; p++)
    if (*p == '\t' || *p == '\n' || *p == '\r')
      *p = ' ';
  return v;
}

char *
cpel_span_list_to_text (CpelSpanList *list,
                        gboolean      tsv)
{
  GString *out;
  CpelTextTable t;

  g_return_val_if_fail (list != NULL, NULL);
  out = g_string_new (NULL);
  if (tsv)
    g_string_append (out, "begin_ns\tend_ns\tduration_ns\ttrack\tspan\n");
  else
    cpel_text_table_init (&t, "rrrll");
  for (guint i = 0; i < list->items->len; i++)
    {
      const CpelSpanItem *it = &g_array_index (list->items, CpelSpanItem, i);
      const char *label = cpel_file_get_track_label (list->file, it->slot);

      if (tsv)
        {
          g_autofree char *track = tsv_field (label);
          g_autofree char *name = tsv_field (it->name);

          g_string_append_printf (out, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT
                                  "\t%" G_GINT64_FORMAT "\t%s\t%s\n",
                                  it->begin_ns, it->end_ns, item_dur (it), track, name);
          continue;
        }
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GINT64_FORMAT, it->begin_ns));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GINT64_FORMAT, it->end_ns));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GINT64_FORMAT, item_dur (it)));
      cpel_text_table_add (&t, cpel_stats_printable (label != NULL ? label : ""));
      cpel_text_table_add (&t, cpel_stats_printable (it->name));
    }
  if (!tsv)
    cpel_text_table_write (&t, out);
  return g_string_free (out, FALSE);
}

/* ---- duration anomalies --------------------------------------------------- */

typedef struct
{
  guint64  n;
  double   mean;
  double   m2;
  double   sigma;
  CpelDurations *durations;   /* ABOVE */
  gint64   threshold;   /* ABOVE: the percentile */
} TrackAcc;

struct _CpelSpanAnomalies
{
  CpelFile              *file;
  CpelSpanNames         *names;
  GArray                *items;      /* CpelSpanAnomaly */
  TrackAcc              *tracks;     /* per slot */
  guint                  n_tracks;
  guint64                n_spans;
  CpelSpanAnomalyMethod  method;
  double                 k;
};

typedef struct
{
  CpelSpanAnomalies *an;
  const char        *name;
  CpelSpanNames     *names;
} AnomalyRun;

static gboolean
anomaly_want (gpointer    data,
              const char *name)
{
  AnomalyRun *run = data;

  return strcmp (run->name, name) == 0;
}

static void
anomaly_count_sink (gpointer        data,
                    guint           slot,
                    const CpelSpan *span,
                    gint64          tb,
                    gint64          te)
{
  AnomalyRun *run = data;
  TrackAcc *acc;
  gint64 d = MAX (te - tb, 0);
  double delta;

  acc = &run->an->tracks[slot];
  run->an->n_spans++;
  acc->n++;
  delta = (double) d - acc->mean;
  acc->mean += delta / (double) acc->n;
  acc->m2 += delta * ((double) d - acc->mean);
  if (run->an->method == CPEL_SPAN_ANOMALY_ABOVE)
    {
      if (acc->durations == NULL)
        {
          acc->durations = g_new (CpelDurations, 1);
          cpel_durations_init (acc->durations);
        }
      cpel_durations_append (acc->durations, d);
    }
}

static void
anomaly_find_sink (gpointer        data,
                   guint           slot,
                   const CpelSpan *span,
                   gint64          tb,
                   gint64          te)
{
  AnomalyRun *run = data;
  CpelSpanAnomalies *an = run->an;
  const TrackAcc *acc;
  gint64 d = MAX (te - tb, 0);
  gboolean unusual;
  CpelSpanAnomaly a;

  acc = &an->tracks[slot];
  if (an->method == CPEL_SPAN_ANOMALY_SIGMA)
    unusual = acc->n >= 2 && acc->sigma > 0 && fabs ((double) d - acc->mean) > an->k * acc->sigma;
  else
    unusual = d > acc->threshold;
  if (!unusual)
    return;
  a.span.begin_ns = tb;
  a.span.end_ns = te;
  a.span.slot = slot;
  a.span.begin = span->begin;
  a.span.name = cpel_span_names_get (run->names, span->name);
  a.duration_ns = d;
  a.z = acc->sigma > 0 ? ((double) d - acc->mean) / acc->sigma : 0;
  g_array_append_val (an->items, a);
}

static gint
anomaly_cmp (gconstpointer pa,
             gconstpointer pb)
{
  const CpelSpanAnomaly *a = pa, *b = pb;

  if (a->span.begin_ns != b->span.begin_ns)
    return a->span.begin_ns < b->span.begin_ns ? -1 : 1;
  if (a->span.slot != b->span.slot)
    return a->span.slot < b->span.slot ? -1 : 1;
  if (a->span.begin != b->span.begin)
    return a->span.begin < b->span.begin ? -1 : 1;
  return a->span.end_ns < b->span.end_ns ? -1 : a->span.end_ns > b->span.end_ns;
}

CpelSpanAnomalies *
cpel_span_anomalies_find (CpelFile               *file,
                          CpelSpanRules          *rules,
                          const CpelSpansOptions *options,
                          const char             *name,
                          CpelSpanAnomalyMethod   method,
                          double                  k_or_p,
                          GCancellable           *cancellable,
                          GError                **error)
{
  g_autoptr(CpelSpanAnomalies) an = g_new0 (CpelSpanAnomalies, 1);
  g_autoptr(CpelSpanNames) names1 = cpel_span_names_new ();
  AnomalyRun run;
  guint64 per_100k;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (rules != NULL && name != NULL, NULL);
  g_return_val_if_fail (method == CPEL_SPAN_ANOMALY_SIGMA ? k_or_p > 0
                                                          : k_or_p > 0 && k_or_p < 100, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  an->file = g_object_ref (file);
  an->method = method;
  an->k = k_or_p;
  an->n_tracks = cpel_file_get_n_tracks (file);
  an->tracks = g_new0 (TrackAcc, MAX (an->n_tracks, 1));
  an->items = g_array_new (FALSE, FALSE, sizeof (CpelSpanAnomaly));
  run.an = an;
  run.name = name;
  run.names = names1;
  if (!walk_spans (file, rules, options, names1, anomaly_want, anomaly_count_sink, &run,
                   cancellable, error))
    return NULL;
  /* the percentile in thousandths of a percent: ceil (p n / 100) exactly */
  per_100k = (guint64) llround (k_or_p * 1000);
  for (guint s = 0; s < an->n_tracks; s++)
    {
      TrackAcc *acc = &an->tracks[s];

      if (acc->n == 0)
        continue;
      acc->sigma = sqrt (acc->m2 / (double) acc->n);
      if (acc->durations != NULL)
        {
          guint64 n = acc->durations->n;
          guint64 rank = (guint64) (((unsigned __int128) n * per_100k + 99999) / 100000);

          rank = CLAMP (rank, 1, n);
          acc->threshold = cpel_durations_select (acc->durations, 0, n - 1, rank - 1);
          g_clear_pointer (&acc->durations, durations_free);
        }
    }
  an->names = cpel_span_names_new ();
  run.names = an->names;
  if (!walk_spans (file, rules, options, an->names, anomaly_want, anomaly_find_sink, &run,
                   cancellable, error))
    return NULL;
  g_array_sort (an->items, anomaly_cmp);
  return g_steal_pointer (&an);
}

void
cpel_span_anomalies_free (CpelSpanAnomalies *anomalies)
{
  if (anomalies == NULL)
    return;
  if (anomalies->tracks != NULL)
    for (guint s = 0; s < anomalies->n_tracks; s++)
      g_clear_pointer (&anomalies->tracks[s].durations, durations_free);
  g_free (anomalies->tracks);
  g_clear_pointer (&anomalies->items, g_array_unref);
  g_clear_pointer (&anomalies->names, cpel_span_names_free);
  g_clear_object (&anomalies->file);
  g_free (anomalies);
}

guint64
cpel_span_anomalies_get_n (CpelSpanAnomalies *anomalies)
{
  g_return_val_if_fail (anomalies != NULL, 0);
  return anomalies->items->len;
}

const CpelSpanAnomaly *
cpel_span_anomalies_get (CpelSpanAnomalies *anomalies,
                         guint64            i)
{
  g_return_val_if_fail (anomalies != NULL, NULL);
  g_return_val_if_fail (i < anomalies->items->len, NULL);
  return &g_array_index (anomalies->items, CpelSpanAnomaly, i);
}

guint64
cpel_span_anomalies_get_n_spans (CpelSpanAnomalies *anomalies)
{
  g_return_val_if_fail (anomalies != NULL, 0);
  return anomalies->n_spans;
}

gboolean
cpel_span_anomalies_get_track (CpelSpanAnomalies *anomalies,
                               guint              slot,
                               guint64           *n,
                               double            *mean,
                               double            *sigma,
                               gint64            *percentile_ns)
{
  const TrackAcc *acc;

  g_return_val_if_fail (anomalies != NULL, FALSE);
  if (slot >= anomalies->n_tracks || anomalies->tracks[slot].n == 0)
    return FALSE;
  acc = &anomalies->tracks[slot];
  if (n != NULL)
    *n = acc->n;
  if (mean != NULL)
    *mean = acc->mean;
  if (sigma != NULL)
    *sigma = acc->sigma;
  if (percentile_ns != NULL)
    *percentile_ns = acc->threshold;
  return TRUE;
}
