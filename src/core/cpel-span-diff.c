/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-diff.c — span durations of two captures, paired by name */
#include "cpel-span-diff.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cpel-stats.h"
#include "cpel-stats-private.h"
#include "cpel-time.h"

struct _CpelSpanDiff
{
  CpelSpanSummary *a;
  CpelSpanSummary *b;
  GArray          *rows;   /* CpelSpanDiffRow */
};

typedef struct
{
  CpelFile               *file;
  CpelSpanRules          *rules;
  const CpelSpansOptions *options;
  GCancellable           *cancellable;
  CpelSpanSummary        *summary;
  GError                 *error;
} Side;

static gpointer
side_run (gpointer data)
{
  Side *s = data;

  s->summary = cpel_span_summary_compute (s->file, s->rules, s->options, FALSE, s->cancellable,
                                          &s->error);
  return NULL;
}

gboolean
cpel_span_diff_pct10 (gint64  a,
                      gint64  b,
                      gint64 *pct10)
{
  __int128 num, q, r;

  if (a <= 0)
    return FALSE;
  num = ((__int128) b - a) * 1000;
  q = num / a;
  r = num % a;
  /* halves away from zero */
  if (2 * (r < 0 ? -r : r) >= a)
    q += num < 0 ? -1 : 1;
  *pct10 = (gint64) q;
  return TRUE;
}

char *
cpel_span_diff_format_pct (gboolean has,
                           gint64   pct10)
{
  guint64 m;

  if (!has)
    return g_strdup ("");
  m = pct10 < 0 ? (guint64) 0 - (guint64) pct10 : (guint64) pct10;
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%u", pct10 < 0 ? "-" : "", m / 10,
                          (guint) (m % 10));
}

static void
fill_side (GHashTable        *rows,
           GArray            *array,
           CpelSpanSummary   *s,
           gboolean           is_b)
{
  for (guint i = 0; i < cpel_span_summary_get_n_rows (s, CPEL_SPAN_TABLE_SPANS); i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (s, CPEL_SPAN_TABLE_SPANS, i);
      gpointer v;
      CpelSpanDiffRow *d;

      if (r->count == 0)
        continue;
      if (!g_hash_table_lookup_extended (rows, r->name, NULL, &v))
        {
          CpelSpanDiffRow z = { 0 };

          z.name = r->name;
          g_array_append_val (array, z);
          v = GUINT_TO_POINTER (array->len - 1);
          g_hash_table_insert (rows, (gpointer) r->name, v);
        }
      d = &g_array_index (array, CpelSpanDiffRow, GPOINTER_TO_UINT (v));
      if (is_b)
        {
          d->count_b = r->count;
          d->mean_ns_b = r->mean_ns;
          d->p50_ns_b = r->p50_ns;
          d->p99_ns_b = r->p99_ns;
          d->max_ns_b = r->max_ns;
        }
      else
        {
          d->count_a = r->count;
          d->mean_ns_a = r->mean_ns;
          d->p50_ns_a = r->p50_ns;
          d->p99_ns_a = r->p99_ns;
          d->max_ns_a = r->max_ns;
        }
    }
}

static guint64
abs64 (gint64 v)
{
  return v < 0 ? (guint64) 0 - (guint64) v : (guint64) v;
}

static gint
row_cmp (gconstpointer pa,
         gconstpointer pb)
{
  const CpelSpanDiffRow *a = pa, *b = pb;

  if (a->has_mean_pct != b->has_mean_pct)
    return a->has_mean_pct ? -1 : 1;
  if (a->has_mean_pct && abs64 (a->mean_pct10) != abs64 (b->mean_pct10))
    return abs64 (a->mean_pct10) > abs64 (b->mean_pct10) ? -1 : 1;
  return strcmp (a->name, b->name);
}

CpelSpanDiff *
cpel_span_diff_compute (CpelFile               *a,
                        CpelFile               *b,
                        CpelSpanRules          *rules,
                        const CpelSpansOptions *options,
                        GCancellable           *cancellable,
                        GError                **error)
{
  g_autoptr(CpelSpanDiff) diff = NULL;
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  Side sa = { a, rules, options, cancellable, NULL, NULL };
  Side sb = { b, rules, options, cancellable, NULL, NULL };
  GThread *thread;

  g_return_val_if_fail (CPEL_IS_FILE (a) && CPEL_IS_FILE (b), NULL);
  g_return_val_if_fail (rules != NULL, NULL);
  g_return_val_if_fail (options == NULL || options->slots == NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* A and B at the same time */
  thread = g_thread_try_new ("cpel-span-diff", side_run, &sb, NULL);
  side_run (&sa);
  if (thread != NULL)
    g_thread_join (thread);
  else
    side_run (&sb);
  if (sa.summary == NULL || sb.summary == NULL)
    {
      g_clear_pointer (&sa.summary, cpel_span_summary_free);
      g_clear_pointer (&sb.summary, cpel_span_summary_free);
      g_propagate_error (error, sa.error != NULL ? g_steal_pointer (&sa.error)
                                                 : g_steal_pointer (&sb.error));
      g_clear_error (&sa.error);
      g_clear_error (&sb.error);
      return NULL;
    }
  diff = g_new0 (CpelSpanDiff, 1);
  diff->a = sa.summary;
  diff->b = sb.summary;
  diff->rows = g_array_new (FALSE, TRUE, sizeof (CpelSpanDiffRow));
  fill_side (by_name, diff->rows, diff->a, FALSE);
  fill_side (by_name, diff->rows, diff->b, TRUE);
  for (guint i = 0; i < diff->rows->len; i++)
    {
      CpelSpanDiffRow *r = &g_array_index (diff->rows, CpelSpanDiffRow, i);
      gboolean both = r->count_a > 0 && r->count_b > 0;

      if (r->count_b >= r->count_a)
        r->count_delta = (gint64) MIN (r->count_b - r->count_a, (guint64) G_MAXINT64);
      else
        r->count_delta = -(gint64) MIN (r->count_a - r->count_b, (guint64) G_MAXINT64);
      r->has_mean_pct = both && cpel_span_diff_pct10 (r->mean_ns_a, r->mean_ns_b,
                                                       &r->mean_pct10);
      r->has_p99_pct = both && cpel_span_diff_pct10 (r->p99_ns_a, r->p99_ns_b, &r->p99_pct10);
    }
  g_array_sort (diff->rows, row_cmp);
  return g_steal_pointer (&diff);
}

void
cpel_span_diff_free (CpelSpanDiff *diff)
{
  if (diff == NULL)
    return;
  g_clear_pointer (&diff->rows, g_array_unref);
  g_clear_pointer (&diff->a, cpel_span_summary_free);
  g_clear_pointer (&diff->b, cpel_span_summary_free);
  g_free (diff);
}

guint
cpel_span_diff_get_n_rows (CpelSpanDiff *diff)
{
  g_return_val_if_fail (diff != NULL, 0);
  return diff->rows->len;
}

const CpelSpanDiffRow *
cpel_span_diff_get_row (CpelSpanDiff *diff,
                        guint         i)
{
  g_return_val_if_fail (diff != NULL, NULL);
  g_return_val_if_fail (i < diff->rows->len, NULL);
  return &g_array_index (diff->rows, CpelSpanDiffRow, i);
}

const CpelSpanDiffRow *
cpel_span_diff_lookup (CpelSpanDiff *diff,
                       const char   *name)
{
  g_return_val_if_fail (diff != NULL && name != NULL, NULL);
  for (guint i = 0; i < diff->rows->len; i++)
    if (strcmp (g_array_index (diff->rows, CpelSpanDiffRow, i).name, name) == 0)
      return &g_array_index (diff->rows, CpelSpanDiffRow, i);
  return NULL;
}

static char *
ns_field (guint64 count,
          gint64  v)
{
  return count > 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, v) : g_strdup ("");
}

char *
cpel_span_diff_to_csv (CpelSpanDiff *diff)
{
  GString *out;

  g_return_val_if_fail (diff != NULL, NULL);
  out = g_string_new ("span,count_a,count_b,count_delta,mean_ns_a,mean_ns_b,mean_delta_pct,"
                      "p99_ns_a,p99_ns_b,p99_delta_pct\r\n");
  for (guint i = 0; i < diff->rows->len; i++)
    {
      const CpelSpanDiffRow *r = &g_array_index (diff->rows, CpelSpanDiffRow, i);
      g_autofree char *name = g_utf8_make_valid (r->name, -1);
      char *f[9];

      f[0] = g_strdup_printf ("%" G_GUINT64_FORMAT, r->count_a);
      f[1] = g_strdup_printf ("%" G_GUINT64_FORMAT, r->count_b);
      f[2] = g_strdup_printf ("%" G_GINT64_FORMAT, r->count_delta);
      f[3] = ns_field (r->count_a, r->mean_ns_a);
      f[4] = ns_field (r->count_b, r->mean_ns_b);
      f[5] = cpel_span_diff_format_pct (r->has_mean_pct, r->mean_pct10);
      f[6] = ns_field (r->count_a, r->p99_ns_a);
      f[7] = ns_field (r->count_b, r->p99_ns_b);
      f[8] = cpel_span_diff_format_pct (r->has_p99_pct, r->p99_pct10);
      cpel_csv_append_field (out, name);
      for (guint k = 0; k < 9; k++)
        {
          g_string_append_c (out, ',');
          g_string_append (out, f[k]);
          g_free (f[k]);
        }
      g_string_append (out, "\r\n");
    }
  return g_string_free (out, FALSE);
}

static char *
time_cell (guint64 count,
           gint64  v)
{
  return count > 0 ? cpel_time_format (v) : g_strdup ("-");
}

static char *
pct_cell (gboolean has,
          gint64   pct10)
{
  g_autofree char *p = cpel_span_diff_format_pct (has, pct10);

  if (!has)
    return g_strdup ("-");
  return g_strdup_printf ("%s%s %%", pct10 > 0 ? "+" : "", p);
}

char *
cpel_span_diff_to_text (CpelSpanDiff *diff,
                        const char   *name_a,
                        const char   *name_b)
{
  GString *out;
  CpelTextTable t;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_return_val_if_fail (diff != NULL, NULL);
  a = cpel_stats_printable (name_a != NULL ? name_a : "");
  b = cpel_stats_printable (name_b != NULL ? name_b : "");
  out = g_string_new (NULL);
  g_string_append_printf (out, "A: %s\nB: %s\n\n", a, b);
  cpel_text_table_init (&t, "lrrrrrrrrr");
  cpel_text_table_add (&t, g_strdup (_("Span")));
  cpel_text_table_add (&t, g_strdup (_("Count A")));
  cpel_text_table_add (&t, g_strdup (_("Count B")));
  cpel_text_table_add (&t, g_strdup ("Δ"));
  cpel_text_table_add (&t, g_strdup (_("Mean A")));
  cpel_text_table_add (&t, g_strdup (_("Mean B")));
  cpel_text_table_add (&t, g_strdup ("Δ %"));
  cpel_text_table_add (&t, g_strdup ("p99 A"));
  cpel_text_table_add (&t, g_strdup ("p99 B"));
  cpel_text_table_add (&t, g_strdup ("Δ %"));
  for (guint i = 0; i < diff->rows->len; i++)
    {
      const CpelSpanDiffRow *r = &g_array_index (diff->rows, CpelSpanDiffRow, i);

      cpel_text_table_add (&t, cpel_stats_printable (r->name));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, r->count_a));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, r->count_b));
      cpel_text_table_add (&t, r->count_delta == 0 ? g_strdup ("0")
                                : g_strdup_printf ("%+" G_GINT64_FORMAT, r->count_delta));
      cpel_text_table_add (&t, time_cell (r->count_a, r->mean_ns_a));
      cpel_text_table_add (&t, time_cell (r->count_b, r->mean_ns_b));
      cpel_text_table_add (&t, pct_cell (r->has_mean_pct, r->mean_pct10));
      cpel_text_table_add (&t, time_cell (r->count_a, r->p99_ns_a));
      cpel_text_table_add (&t, time_cell (r->count_b, r->p99_ns_b));
      cpel_text_table_add (&t, pct_cell (r->has_p99_pct, r->p99_pct10));
    }
  cpel_text_table_write (&t, out);
  return g_string_free (out, FALSE);
}
