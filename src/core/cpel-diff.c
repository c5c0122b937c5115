/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-diff.c — the differences between two captures
 *
 * Each capture is counted by cpel_stats_compute() with its event types
 * grouped by name (type_groups: every type points at the first type of its
 * name), A in a worker thread while B is counted here.  The two code and
 * track lists are then joined by name in a hash table and sorted.
 */
#include "cpel-diff.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cpel-stats-private.h"
#include "cpel-time.h"

struct _CpelDiff
{
  CpelFile  *a;
  CpelFile  *b;
  CpelStats *stats_a;
  CpelStats *stats_b;
  gint64     from;
  gint64     to;
  GArray    *events;   /* CpelDiffRow */
  GArray    *tracks;   /* CpelDiffRow */
};

typedef struct
{
  CpelFile         *file;
  CpelStatsOptions  options;
  guint            *groups;
  GCancellable     *cancellable;
  CpelStats        *stats;
  GError           *error;
} Count;

/* type_groups by name: the first type (lowest code) of each name. */
static guint *
groups_by_name (CpelFile *file)
{
  guint n = cpel_file_get_n_types (file);
  g_autoptr(GHashTable) first = g_hash_table_new (g_str_hash, g_str_equal);
  guint *groups = g_new (guint, MAX (n, 1));

  for (guint type = 0; type < n; type++)
    {
      const char *name = cpel_file_get_type_name (file, type);
      gpointer found;

      if (g_hash_table_lookup_extended (first, name, NULL, &found))
        groups[type] = GPOINTER_TO_UINT (found);
      else
        {
          groups[type] = type;
          g_hash_table_insert (first, (gpointer) name, GUINT_TO_POINTER (type));
        }
    }
  return groups;
}

static void
count_init (Count                 *c,
            CpelFile              *file,
            const CpelDiffOptions *options,
            const guint8          *hidden,
            GCancellable          *cancellable)
{
  gint64 from = options ? options->from : 0;
  gint64 to = options ? options->to : G_MAXINT64;

  memset (c, 0, sizeof *c);
  c->file = file;
  c->groups = groups_by_name (file);
  c->cancellable = cancellable;
  c->options.t0 = from;
  /* an open end: just after the capture's last event */
  if (to == G_MAXINT64)
    {
      to = MAX (from, cpel_file_get_duration (file));
      if (to < G_MAXINT64)
        to++;
    }
  c->options.t1 = to;
  c->options.hidden_types = hidden;
  c->options.type_groups = c->groups;
  c->options.histograms = options ? options->histograms : FALSE;
}

static gpointer
count_run (gpointer data)
{
  Count *c = data;

  c->stats = cpel_stats_compute (c->file, &c->options, c->cancellable, &c->error);
  return NULL;
}

static gint64
delta (guint64 a,
       guint64 b)
{
  if (b >= a)
    return (gint64) MIN (b - a, (guint64) G_MAXINT64);
  return -(gint64) MIN (a - b, (guint64) G_MAXINT64);
}

static gint
compare_rows (gconstpointer pa,
              gconstpointer pb)
{
  const CpelDiffRow *x = pa;
  const CpelDiffRow *y = pb;
  guint64 ax = x->count_delta < 0 ? -(guint64) x->count_delta : (guint64) x->count_delta;
  guint64 ay = y->count_delta < 0 ? -(guint64) y->count_delta : (guint64) y->count_delta;

  if (ax != ay)
    return ax > ay ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* The row of `name` in `rows`, added when new. */
static CpelDiffRow *
row_for (GArray     *rows,
         GHashTable *index,
         const char *name)
{
  gpointer found;
  CpelDiffRow row = { 0 };

  if (g_hash_table_lookup_extended (index, name, NULL, &found))
    return &g_array_index (rows, CpelDiffRow, GPOINTER_TO_UINT (found));
  row.name = name;
  g_hash_table_insert (index, (gpointer) name, GUINT_TO_POINTER (rows->len));
  g_array_append_val (rows, row);
  return &g_array_index (rows, CpelDiffRow, rows->len - 1);
}

static void
join (CpelDiff *diff)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) labels = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint side = 0; side < 2; side++)
    {
      CpelStats *stats = side == 0 ? diff->stats_a : diff->stats_b;

      for (guint i = 0; i < cpel_stats_get_n_codes (stats); i++)
        {
          const CpelStatsCode *c = cpel_stats_get_code (stats, i);
          CpelDiffRow *row = row_for (diff->events, names, c->name);

          /* one entry per name in each capture (the codes are grouped) */
          if (side == 0)
            {
              row->count_a = c->count;
              row->n_intervals_a = c->n_intervals;
              row->mean_a = c->interval_mean;
              row->histogram_a = c->histogram;
            }
          else
            {
              row->count_b = c->count;
              row->n_intervals_b = c->n_intervals;
              row->mean_b = c->interval_mean;
              row->histogram_b = c->histogram;
            }
        }
      for (guint i = 0; i < cpel_stats_get_n_tracks (stats); i++)
        {
          const CpelStatsTrack *t = cpel_stats_get_track (stats, i);
          CpelDiffRow *row = row_for (diff->tracks, labels, t->label);

          if (side == 0)
            row->count_a += t->count;
          else
            row->count_b += t->count;
        }
    }
  for (guint i = 0; i < diff->events->len; i++)
    {
      CpelDiffRow *row = &g_array_index (diff->events, CpelDiffRow, i);

      row->count_delta = delta (row->count_a, row->count_b);
    }
  for (guint i = 0; i < diff->tracks->len; i++)
    {
      CpelDiffRow *row = &g_array_index (diff->tracks, CpelDiffRow, i);

      row->count_delta = delta (row->count_a, row->count_b);
    }
  g_array_sort (diff->events, compare_rows);
  g_array_sort (diff->tracks, compare_rows);
}

CpelDiff *
cpel_diff_compute (CpelFile              *a,
                   CpelFile              *b,
                   const CpelDiffOptions *options,
                   GCancellable          *cancellable,
                   GError               **error)
{
  g_autoptr(CpelDiff) diff = NULL;
  Count ca, cb;
  GThread *thread;

  g_return_val_if_fail (CPEL_IS_FILE (a), NULL);
  g_return_val_if_fail (CPEL_IS_FILE (b), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  count_init (&ca, a, options, options ? options->hidden_a : NULL, cancellable);
  count_init (&cb, b, options, options ? options->hidden_b : NULL, cancellable);
  thread = g_thread_try_new ("cpel-diff", count_run, &ca, NULL);
  count_run (&cb);
  if (thread != NULL)
    g_thread_join (thread);
  else
    count_run (&ca);
  g_free (ca.groups);
  g_free (cb.groups);
  if (ca.stats == NULL || cb.stats == NULL)
    {
      g_clear_pointer (&ca.stats, cpel_stats_free);
      g_clear_pointer (&cb.stats, cpel_stats_free);
      g_propagate_error (error, ca.error != NULL ? ca.error : cb.error);
      if (ca.error != NULL)
        g_clear_error (&cb.error);
      return NULL;
    }

  diff = g_new0 (CpelDiff, 1);
  diff->a = g_object_ref (a);
  diff->b = g_object_ref (b);
  diff->stats_a = ca.stats;
  diff->stats_b = cb.stats;
  diff->from = options ? options->from : 0;
  diff->to = options ? options->to : G_MAXINT64;
  diff->events = g_array_new (FALSE, FALSE, sizeof (CpelDiffRow));
  diff->tracks = g_array_new (FALSE, FALSE, sizeof (CpelDiffRow));
  join (diff);
  return g_steal_pointer (&diff);
}

void
cpel_diff_free (CpelDiff *diff)
{
  if (diff == NULL)
    return;
  g_clear_pointer (&diff->events, g_array_unref);
  g_clear_pointer (&diff->tracks, g_array_unref);
  g_clear_pointer (&diff->stats_a, cpel_stats_free);
  g_clear_pointer (&diff->stats_b, cpel_stats_free);
  g_clear_object (&diff->a);
  g_clear_object (&diff->b);
  g_free (diff);
}

static GArray *
rows_of (CpelDiff   *diff,
         CpelDiffBy  by)
{
  return by == CPEL_DIFF_BY_TRACKS ? diff->tracks : diff->events;
}

guint
cpel_diff_get_n_rows (CpelDiff   *diff,
                      CpelDiffBy  by)
{
  g_return_val_if_fail (diff != NULL, 0);
  return rows_of (diff, by)->len;
}

const CpelDiffRow *
cpel_diff_get_row (CpelDiff   *diff,
                   CpelDiffBy  by,
                   guint       i)
{
  g_return_val_if_fail (diff != NULL, NULL);
  g_return_val_if_fail (i < rows_of (diff, by)->len, NULL);
  return &g_array_index (rows_of (diff, by), CpelDiffRow, i);
}

const CpelDiffRow *
cpel_diff_lookup (CpelDiff   *diff,
                  CpelDiffBy  by,
                  const char *name)
{
  GArray *rows;

  g_return_val_if_fail (diff != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  rows = rows_of (diff, by);
  for (guint i = 0; i < rows->len; i++)
    if (strcmp (g_array_index (rows, CpelDiffRow, i).name, name) == 0)
      return &g_array_index (rows, CpelDiffRow, i);
  return NULL;
}

guint64
cpel_diff_get_total_a (CpelDiff *diff)
{
  g_return_val_if_fail (diff != NULL, 0);
  return cpel_stats_get_total (diff->stats_a);
}

guint64
cpel_diff_get_total_b (CpelDiff *diff)
{
  g_return_val_if_fail (diff != NULL, 0);
  return cpel_stats_get_total (diff->stats_b);
}

/* ---- output ---------------------------------------------------------- */

char *
cpel_diff_format_mean (guint64 n_intervals,
                       double  mean)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (n_intervals == 0)
    return g_strdup ("");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.3f", mean));
}

char *
cpel_diff_format_pct (const CpelDiffRow *row)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double pct;

  g_return_val_if_fail (row != NULL, NULL);
  /* no change in percent of a mean of 0 ns */
  if (row->n_intervals_a == 0 || row->n_intervals_b == 0 || row->mean_a == 0.0)
    return g_strdup ("");
  pct = (row->mean_b - row->mean_a) / row->mean_a * 100.0;
  g_ascii_formatd (buf, sizeof buf, "%.1f", pct);
  /* a change that rounds to nothing reads 0.0, not -0.0 */
  if (strcmp (buf, "-0.0") == 0)
    return g_strdup ("0.0");
  return g_strdup (buf);
}

static void
csv_row (GString     *out,
         const char **fields,
         guint        n)
{
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      cpel_csv_append_field (out, fields[i]);
    }
  g_string_append (out, "\r\n");
}

char *
cpel_diff_to_csv (CpelDiff   *diff,
                  CpelDiffBy  by)
{
  GArray *rows;
  GString *out;

  g_return_val_if_fail (diff != NULL, NULL);

  rows = rows_of (diff, by);
  out = g_string_new (NULL);
  if (by == CPEL_DIFF_BY_TRACKS)
    {
      static const char *head[] = { "track", "count_a", "count_b", "count_delta" };

      csv_row (out, head, G_N_ELEMENTS (head));
    }
  else
    {
      static const char *head[] = { "event", "count_a", "count_b", "count_delta",
                                    "mean_ns_a", "mean_ns_b", "mean_delta_pct" };

      csv_row (out, head, G_N_ELEMENTS (head));
    }
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelDiffRow *r = &g_array_index (rows, CpelDiffRow, i);
      g_autofree char *name = g_utf8_make_valid (r->name, -1);
      g_autofree char *ca = g_strdup_printf ("%" G_GUINT64_FORMAT, r->count_a);
      g_autofree char *cb = g_strdup_printf ("%" G_GUINT64_FORMAT, r->count_b);
      g_autofree char *cd = g_strdup_printf ("%" G_GINT64_FORMAT, r->count_delta);

      if (by == CPEL_DIFF_BY_TRACKS)
        {
          const char *row[4] = { name, ca, cb, cd };

          csv_row (out, row, 4);
        }
      else
        {
          g_autofree char *ma = cpel_diff_format_mean (r->n_intervals_a, r->mean_a);
          g_autofree char *mb = cpel_diff_format_mean (r->n_intervals_b, r->mean_b);
          g_autofree char *pct = cpel_diff_format_pct (r);
          const char *row[7] = { name, ca, cb, cd, ma, mb, pct };

          csv_row (out, row, 7);
        }
    }
  return g_string_free (out, FALSE);
}

static char *
mean_cell (guint64 n,
           double  mean_ns)
{
  if (n == 0)
    return g_strdup ("-");
  if (!(mean_ns + 0.5 < 9223372036854775807.0))
    return cpel_time_format (G_MAXINT64);
  return cpel_time_format ((gint64) (mean_ns + 0.5));
}

static void
capture_line (GString    *out,
              const char *which,
              const char *name,
              CpelFile   *file,
              CpelStats  *stats)
{
  g_autofree char *shown = cpel_stats_printable (name != NULL ? name : "");
  g_autofree char *span = cpel_time_format (cpel_file_get_duration (file));

  /* TRANSLATORS: "A: before.cpel: 1200 events, span 2.500 ms" */
  g_string_append_printf (out, _("%s: %s: %" PRIu64 " events, span %s\n"),
                          which, shown, cpel_stats_get_total (stats), span);
}

char *
cpel_diff_to_text (CpelDiff   *diff,
                   CpelDiffBy  by,
                   const char *name_a,
                   const char *name_b)
{
  GArray *rows;
  GString *out;
  CpelTextTable t;

  g_return_val_if_fail (diff != NULL, NULL);

  rows = rows_of (diff, by);
  out = g_string_new (NULL);
  capture_line (out, "A", name_a, diff->a, diff->stats_a);
  capture_line (out, "B", name_b, diff->b, diff->stats_b);
  if (diff->from != 0 || diff->to != G_MAXINT64)
    {
      char f[32], e[32];

      g_string_append_printf (out, _("Range: %s to %s after each first event\n"),
                              cpel_time_format_buf (diff->from, f, sizeof f),
                              diff->to == G_MAXINT64 ? _("the end")
                                                     : cpel_time_format_buf (diff->to, e, sizeof e));
    }
  g_string_append_c (out, '\n');

  if (by == CPEL_DIFF_BY_TRACKS)
    {
      cpel_text_table_init (&t, "lrrr");
      cpel_text_table_add (&t, g_strdup (_("Track")));
    }
  else
    {
      cpel_text_table_init (&t, "lrrrrrr");
      cpel_text_table_add (&t, g_strdup (_("Event")));
    }
  cpel_text_table_add (&t, g_strdup (_("Count A")));
  cpel_text_table_add (&t, g_strdup (_("Count B")));
  cpel_text_table_add (&t, g_strdup ("Δ"));
  if (by != CPEL_DIFF_BY_TRACKS)
    {
      cpel_text_table_add (&t, g_strdup (_("Mean A")));
      cpel_text_table_add (&t, g_strdup (_("Mean B")));
      cpel_text_table_add (&t, g_strdup ("Δ %"));
    }
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelDiffRow *r = &g_array_index (rows, CpelDiffRow, i);

      cpel_text_table_add (&t, cpel_stats_printable (r->name));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, r->count_a));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, r->count_b));
      cpel_text_table_add (&t, r->count_delta == 0 ? g_strdup ("0")
                                : g_strdup_printf ("%+" G_GINT64_FORMAT, r->count_delta));
      if (by != CPEL_DIFF_BY_TRACKS)
        {
          g_autofree char *pct = cpel_diff_format_pct (r);

          cpel_text_table_add (&t, mean_cell (r->n_intervals_a, r->mean_a));
          cpel_text_table_add (&t, mean_cell (r->n_intervals_b, r->mean_b));
          if (pct[0] == '\0')
            cpel_text_table_add (&t, g_strdup ("-"));
          else
            cpel_text_table_add (&t, g_strdup_printf ("%s%s %%",
                                                      pct[0] == '-' || strcmp (pct, "0.0") == 0 ? "" : "+",
                                                      pct));
        }
    }
  cpel_text_table_write (&t, out);
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* A view's filters applied to the other capture by name                     */

guint8 *
cpel_diff_map_hidden_types (CpelFile     *from,
                            const guint8 *hidden,
                            CpelFile     *to)
{
  g_autoptr(GHashTable) names = NULL;
  guint8 *out = NULL;
  guint n_from, n_to;

  g_return_val_if_fail (CPEL_IS_FILE (from), NULL);
  g_return_val_if_fail (CPEL_IS_FILE (to), NULL);

  if (hidden == NULL)
    return NULL;
  n_from = cpel_file_get_n_types (from);
  n_to = cpel_file_get_n_types (to);
  names = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint t = 0; t < n_from; t++)
    if (hidden[t] && cpel_file_get_type_name (from, t) != NULL)
      g_hash_table_add (names, (gpointer) cpel_file_get_type_name (from, t));
  if (g_hash_table_size (names) == 0)
    return NULL;
  for (guint t = 0; t < n_to; t++)
    {
      const char *name = cpel_file_get_type_name (to, t);

      if (name == NULL || !g_hash_table_contains (names, name))
        continue;
      if (out == NULL)
        out = g_malloc0 (MAX (n_to, 1));
      out[t] = 1;
    }
  return out;
}

guint *
cpel_diff_map_rows (CpelFile         *from,
                    const guint      *rows,
                    guint             n_rows,
                    CpelFile         *to,
                    CpelDiffKeepFunc  keep_unknown,
                    gpointer          keep_data,
                    guint            *n_out)
{
  g_autoptr(GHashTable) from_labels = NULL;
  g_autoptr(GHashTable) to_by_label = NULL;   /* label -> GArray of slots */
  g_autoptr(GArray) out = NULL;
  g_autofree guint8 *taken = NULL;
  guint n_from, n_to;
  gboolean identity;

  g_return_val_if_fail (CPEL_IS_FILE (from), NULL);
  g_return_val_if_fail (CPEL_IS_FILE (to), NULL);
  g_return_val_if_fail (n_out != NULL, NULL);

  n_from = cpel_file_get_n_tracks (from);
  n_to = cpel_file_get_n_tracks (to);
  *n_out = n_to;
  if (rows == NULL)
    n_rows = n_from;

  from_labels = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint s = 0; s < n_from; s++)
    if (cpel_file_get_track_label (from, s) != NULL)
      g_hash_table_add (from_labels, (gpointer) cpel_file_get_track_label (from, s));
  to_by_label = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                       (GDestroyNotify) g_array_unref);
  for (guint s = 0; s < n_to; s++)
    {
      const char *label = cpel_file_get_track_label (to, s);
      GArray *slots;

      if (label == NULL)
        continue;
      slots = g_hash_table_lookup (to_by_label, label);
      if (slots == NULL)
        {
          slots = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (to_by_label, (gpointer) label, slots);
        }
      g_array_append_val (slots, s);
    }

  out = g_array_new (FALSE, FALSE, sizeof (guint));
  taken = g_malloc0 (MAX (n_to, 1));
  for (guint r = 0; r < n_rows; r++)
    {
      guint slot = rows != NULL ? rows[r] : r;
      const char *label = slot < n_from ? cpel_file_get_track_label (from, slot) : NULL;
      GArray *slots = label != NULL ? g_hash_table_lookup (to_by_label, label) : NULL;

      for (guint i = 0; slots != NULL && i < slots->len; i++)
        {
          guint s = g_array_index (slots, guint, i);

          if (!taken[s])
            {
              taken[s] = 1;
              g_array_append_val (out, s);
            }
        }
    }
  for (guint s = 0; s < n_to; s++)
    {
      const char *label = cpel_file_get_track_label (to, s);

      if (taken[s] || (label != NULL && g_hash_table_contains (from_labels, label)))
        continue;
      if (keep_unknown != NULL && !keep_unknown (s, keep_data))
        continue;
      taken[s] = 1;
      g_array_append_val (out, s);
    }

  identity = out->len == n_to;
  for (guint i = 0; identity && i < out->len; i++)
    identity = g_array_index (out, guint, i) == i;
  *n_out = out->len;
  if (identity)
    return NULL;
  if (out->len == 0)
    return g_new0 (guint, 1);   /* no row: not NULL, which is every row */
  return (guint *) g_array_free (g_steal_pointer (&out), FALSE);
}
