/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-top.c — the functions the call chains of a time range hold */
#include "cpel-top.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cpel-count.h"
#include "cpel-stats.h"

typedef struct
{
  CpelTopEntry  e;
  guint64       stamp;   /* the last sample counted in total, + 1 */
} Entry;

struct _CpelTop
{
  guint64     n_samples;
  GArray     *entries;   /* CpelTopEntry, sorted */
};

/* Functions are told apart by their strings; the file keeps each string
 * once (cpel-import.c), so the pointers do. */
typedef struct
{
  const char *symbol, *dso;
} Key;

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;

  return g_direct_hash (k->symbol) * 31u + g_direct_hash (k->dso);
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  const Key *x = a, *y = b;

  return x->symbol == y->symbol && x->dso == y->dso;
}

const char *
cpel_top_entry_symbol (const CpelTopEntry *entry)
{
  return entry->symbol != NULL ? entry->symbol : "[unknown]";
}

const char *
cpel_top_entry_dso (const CpelTopEntry *entry)
{
  return entry->dso != NULL ? entry->dso : "[unknown]";
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const CpelTopEntry *x = a, *y = b;
  int c;

  if (x->self != y->self)
    return x->self > y->self ? -1 : 1;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  c = strcmp (cpel_top_entry_symbol (x), cpel_top_entry_symbol (y));
  return c != 0 ? c : strcmp (cpel_top_entry_dso (x), cpel_top_entry_dso (y));
}

static Entry *
entry_for (GHashTable           *map,
           const CpelChainFrame *f)
{
  Key k = { f->symbol, f->dso };
  Entry *e = g_hash_table_lookup (map, &k);

  if (e == NULL)
    {
      Key *nk = g_new (Key, 1);

      *nk = k;
      e = g_new0 (Entry, 1);
      e->e.symbol = f->symbol;
      e->e.dso = f->dso;
      g_hash_table_insert (map, nk, e);
    }
  return e;
}

CpelTop *
cpel_top_compute (CpelFile      *file,
                  gint64         t0,
                  gint64         t1,
                  const guint   *slots,
                  guint          n_slots,
                  GCancellable  *cancellable,
                  GError       **error)
{
  CpelStatsOptions options = { t0, t1, slots, n_slots, NULL, NULL, FALSE };

  return cpel_top_compute_scope (file, &options, cancellable, error);
}

CpelTop *
cpel_top_compute_scope (CpelFile               *file,
                        const CpelStatsOptions *options,
                        GCancellable           *cancellable,
                        GError                **error)
{
  gint64 t0 = options != NULL ? options->t0 : G_MININT64;
  gint64 t1 = options != NULL ? options->t1 : G_MAXINT64;
  const guint *slots = options != NULL ? options->slots : NULL;
  guint n_slots = options != NULL ? options->n_slots : 0;
  const guint8 *hidden = options != NULL ? options->hidden_types : NULL;
  g_autoptr(GHashTable) map = NULL;
  g_autoptr(GArray) frames = NULL;
  CpelTop *top;
  guint n = slots != NULL ? n_slots : cpel_file_get_n_tracks (file);
  guint64 done = 0;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  for (guint i = 0; slots != NULL && i < n_slots; i++)
    if (slots[i] >= cpel_file_get_n_tracks (file))
      {
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No track %u"), slots[i]);
        return NULL;
      }

  map = g_hash_table_new_full (key_hash, key_equal, g_free, g_free);
  frames = g_array_new (FALSE, FALSE, sizeof (CpelChainFrame));
  top = g_new0 (CpelTop, 1);
  top->entries = g_array_new (FALSE, FALSE, sizeof (CpelTopEntry));
  for (guint s = 0; s < n && cpel_file_has_call_chains (file) && t0 < t1; s++)
    {
      guint slot = slots != NULL ? slots[s] : s;
      guint64 lo = cpel_file_track_lower_bound (file, slot, t0);
      guint64 hi = cpel_file_track_lower_bound (file, slot, t1);

      for (guint64 i = lo; i < hi; i++)
        {
          CpelEvent ev;
          guint len;

          if ((++done & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              cpel_top_free (top);
              return NULL;
            }
          cpel_file_get_track_event (file, slot, i, &ev);
          if (hidden != NULL && hidden[ev.type])
            continue;
          len = cpel_file_get_event_chain (file, ev.file_index, NULL, 0);
          if (len == 0)
            continue;
          g_array_set_size (frames, len);
          cpel_file_get_event_chain (file, ev.file_index,
                                     (CpelChainFrame *) (gpointer) frames->data, len);
          top->n_samples++;
          entry_for (map, &g_array_index (frames, CpelChainFrame, 0))->e.self++;
          for (guint k = 0; k < len; k++)
            {
              Entry *e = entry_for (map, &g_array_index (frames, CpelChainFrame, k));

              if (e->stamp != top->n_samples)
                {
                  e->stamp = top->n_samples;
                  if (e->e.total == 0 || ev.time_ns < e->e.first_time)
                    {
                      e->e.first_slot = slot;
                      e->e.first_index = i;
                      e->e.first_time = ev.time_ns;
                    }
                  e->e.total++;
                }
            }
        }
    }

  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init (&it, map);
  while (g_hash_table_iter_next (&it, NULL, &v))
    g_array_append_val (top->entries, ((Entry *) v)->e);
  g_array_sort (top->entries, compare_entries);
  return top;
}

void
cpel_top_free (CpelTop *top)
{
  if (top == NULL)
    return;
  g_array_unref (top->entries);
  g_free (top);
}

guint64
cpel_top_get_n_samples (CpelTop *top)
{
  g_return_val_if_fail (top != NULL, 0);
  return top->n_samples;
}

guint
cpel_top_get_n_entries (CpelTop *top)
{
  g_return_val_if_fail (top != NULL, 0);
  return top->entries->len;
}

const CpelTopEntry *
cpel_top_get_entry (CpelTop *top,
                    guint    i)
{
  g_return_val_if_fail (top != NULL && i < top->entries->len, NULL);
  return &g_array_index (top->entries, CpelTopEntry, i);
}

static double
percent (guint64 part,
         guint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

char *
cpel_top_to_text (CpelTop *top,
                  guint    limit)
{
  GString *out;
  guint n;

  g_return_val_if_fail (top != NULL, NULL);
  out = g_string_new (NULL);
  g_autofree char *count = cpel_format_count (top->n_samples);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s sample with a call chain\n",
                                            "%s samples with a call chain\n",
                                            (gulong) top->n_samples),
                          count);
  if (top->n_samples == 0)
    return g_string_free (out, FALSE);
  n = limit > 0 ? MIN (limit, top->entries->len) : top->entries->len;
  /* TRANSLATORS: column headings of `cpel top` */
  g_string_append_printf (out, "%8s %8s %9s %9s  %s  %s\n", _("Self"), _("Total"), _("Samples"),
                          _("In chain"), _("Function"), _("Binary"));
  for (guint i = 0; i < n; i++)
    {
      const CpelTopEntry *e = &g_array_index (top->entries, CpelTopEntry, i);

      g_string_append_printf (out, "%7.2f%% %7.2f%% %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
                              "  %s  %s\n", percent (e->self, top->n_samples),
                              percent (e->total, top->n_samples), e->self, e->total,
                              cpel_top_entry_symbol (e), cpel_top_entry_dso (e));
    }
  return g_string_free (out, FALSE);
}

char *
cpel_top_to_csv (CpelTop *top,
                 guint    limit)
{
  static const char *head[] = { "self_percent", "total_percent", "self", "total", "symbol", "dso" };
  GString *out;
  guint n;

  g_return_val_if_fail (top != NULL, NULL);
  out = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (head); i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      cpel_csv_append_field (out, head[i]);
    }
  g_string_append (out, "\r\n");
  n = limit > 0 ? MIN (limit, top->entries->len) : top->entries->len;
  for (guint i = 0; i < n; i++)
    {
      const CpelTopEntry *e = &g_array_index (top->entries, CpelTopEntry, i);
      char self[G_ASCII_DTOSTR_BUF_SIZE], total[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (self, sizeof self, "%.4f", percent (e->self, top->n_samples));
      g_ascii_formatd (total, sizeof total, "%.4f", percent (e->total, top->n_samples));
      g_string_append_printf (out, "%s,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                              self, total, e->self, e->total);
      cpel_csv_append_field (out, cpel_top_entry_symbol (e));
      g_string_append_c (out, ',');
      cpel_csv_append_field (out, cpel_top_entry_dso (e));
      g_string_append (out, "\r\n");
    }
  return g_string_free (out, FALSE);
}
