/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-analysis.c — libFuzzer target: what the viewer computes on a file
 *
 * Loads the input as fuzz-file does, then checks the analysis modules
 * against brute force over the merged events:
 *  - search (text, regex, code) = the events cpel_query_match() accepts,
 *    and for case-sensitive text, the labels holding the text; time order;
 *  - statistics over the whole file and over a range of every other track;
 *  - cut: the whole file and a range of every other track, in memory; the
 *    cut must succeed, load, and hold the same events with the same labels;
 *  - level-of-detail lower bounds and exact locate = the index's;
 *  - anomalies and chase for the first event code.
 */
#include <stdint.h>
#include <string.h>

#include "cpel-core.h"
#include "cpel-anomaly.h"
#include "cpel-chase.h"
#include "cpel-cut.h"
#include "cpel-loader.h"
#include "cpel-lod.h"
#include "cpel-stats.h"
#include "fuzz-common.h"

typedef struct
{
  CpelEvent ev;
  char     *label;
} Item;

static void
item_clear (gpointer p)
{
  g_free (((Item *) p)->label);
}

/* Every event in time order with its label; events on `slots` (NULL: all)
 * with t0 <= time < t1 (t1 = ALL: no upper bound, G_MAXINT64 included). */
#define ALL G_MININT64
static GArray *
collect (CpelFile    *file,
         const guint *slots,
         guint        n_slots,
         gint64       t0,
         gint64       t1)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (Item));
  CpelMerge *merge = cpel_merge_new (file, slots, n_slots, t0);
  Item it;

  g_array_set_clear_func (items, item_clear);
  while (cpel_merge_next (merge, &it.ev, NULL))
    {
      GString *s;

      if (t1 != ALL && it.ev.time_ns >= t1)
        break;
      s = g_string_new (NULL);
      cpel_file_append_label (file, &it.ev, s);
      it.label = g_string_free (s, FALSE);
      g_array_append_val (items, it);
    }
  cpel_merge_free (merge);
  return items;
}

static void
check_search (CpelFile       *file,
              GArray         *all,
              CpelSearchMode  mode,
              const char     *text,
              gboolean        case_sensitive)
{
  GError *error = NULL;
  CpelQuery *query = cpel_query_new (file, mode, text, case_sensitive, &error);
  CpelSearchResult *result;
  guint64 n = 0, j = 0;

  if (query == NULL)
    {
      FUZZ_CHECK (g_error_matches (error, CPEL_ERROR, CPEL_ERROR_INVALID));
      g_error_free (error);
      return;
    }
  result = cpel_search_run (file, query, NULL, NULL, NULL, &error);
  FUZZ_CHECK (result != NULL && error == NULL);

  /* in time order, file order among equal times: no event twice */
  for (guint64 i = 1; i < cpel_search_result_get_n (result); i++)
    {
      const CpelEventRef *ra = cpel_search_result_get (result, i - 1);
      const CpelEventRef *rb = cpel_search_result_get (result, i);
      CpelEvent a, b;

      cpel_file_get_track_event (file, ra->slot, ra->index, &a);
      cpel_file_get_track_event (file, rb->slot, rb->index, &b);
      if (!(a.time_ns < b.time_ns || (a.time_ns == b.time_ns && a.file_index < b.file_index)))
        {
          fprintf (stderr, "search mode %d \"%s\": result %" G_GUINT64_FORMAT " (slot %u index %u"
                   ", t %" G_GINT64_FORMAT ", event %" G_GUINT64_FORMAT ") then (slot %u index %u"
                   ", t %" G_GINT64_FORMAT ", event %" G_GUINT64_FORMAT ")\n",
                   mode, text, i - 1, ra->slot, ra->index, a.time_ns, a.file_index,
                   rb->slot, rb->index, b.time_ns, b.file_index);
          FUZZ_CHECK (!"search results are in time order, each once");
        }
    }

  for (guint i = 0; i < all->len; i++)
    {
      Item *it = &g_array_index (all, Item, i);
      gboolean match = cpel_query_match (query, &it->ev);

      if (mode == CPEL_SEARCH_TEXT && case_sensitive)
        FUZZ_CHECK (match == (strstr (it->label, text) != NULL));
      if (match)
        {
          const CpelEventRef *ref;
          CpelEvent ev;

          if (j >= cpel_search_result_get_n (result))
            fprintf (stderr, "search mode %d \"%s\" (case %s): event %" G_GUINT64_FORMAT
                     " \"%s\" matches but is not found\n", mode, text,
                     case_sensitive ? "sensitive" : "insensitive", it->ev.file_index, it->label);
          FUZZ_CHECK (j < cpel_search_result_get_n (result));
          ref = cpel_search_result_get (result, j++);
          cpel_file_get_track_event (file, ref->slot, ref->index, &ev);
          FUZZ_CHECK (ev.file_index == it->ev.file_index);
          n++;
        }
    }
  if (cpel_search_result_get_n (result) != n)
    {
      fprintf (stderr, "search mode %d \"%s\" (case %s): %" G_GUINT64_FORMAT " results, %"
               G_GUINT64_FORMAT " events match\n", mode, text, case_sensitive ? "sensitive" : "insensitive",
               cpel_search_result_get_n (result), n);
      for (guint64 i = 0; i < cpel_search_result_get_n (result); i++)
        {
          const CpelEventRef *ref = cpel_search_result_get (result, i);
          CpelEvent ev;

          cpel_file_get_track_event (file, ref->slot, ref->index, &ev);
          if (!cpel_query_match (query, &ev))
            {
              GString *l = g_string_new (NULL);
              cpel_file_append_label (file, &ev, l);
              fprintf (stderr, "  found, not matching: event %" G_GUINT64_FORMAT " \"%s\"\n",
                       ev.file_index, l->str);
              g_string_free (l, TRUE);
            }
        }
      FUZZ_CHECK (!"the search finds the events that match");
    }
  if (n > 0)
    {
      Item *first = &g_array_index (all, Item, 0);
      guint64 k = cpel_search_result_find_next (result, file, first->ev.time_ns, first->ev.file_index);
      FUZZ_CHECK (k < n);
    }

  /* Filtered by hidden tracks (every other slot) and types (every third):
   * exactly the other matches, in the same order. */
  {
    guint n_tracks = cpel_file_get_n_tracks (file), n_types = cpel_file_get_n_types (file);
    guint8 *hs = g_new0 (guint8, MAX (n_tracks, 1));
    guint8 *ht = g_new0 (guint8, MAX (n_types, 1));
    CpelSearchResult *f;
    guint64 m = 0;

    for (guint s = 0; s < n_tracks; s += 2)
      hs[s] = 1;
    for (guint t = 1; t < n_types; t += 3)
      ht[t] = 1;
    f = cpel_search_result_filter (result, file, hs, ht);
    for (guint64 i = 0; i < cpel_search_result_get_n (result); i++)
      {
        const CpelEventRef *ref = cpel_search_result_get (result, i);
        CpelEvent ev;

        cpel_file_get_track_event (file, ref->slot, ref->index, &ev);
        if (hs[ref->slot] || (ev.type < n_types && ht[ev.type]))
          continue;
        FUZZ_CHECK (m < cpel_search_result_get_n (f));
        FUZZ_CHECK (cpel_search_result_get (f, m)->slot == ref->slot
                    && cpel_search_result_get (f, m)->index == ref->index);
        m++;
      }
    FUZZ_CHECK (m == cpel_search_result_get_n (f));
    cpel_search_result_unref (f);
    g_free (hs);
    g_free (ht);
  }
  cpel_search_result_unref (result);
  cpel_query_free (query);
}

static void
check_stats (CpelFile    *file,
             const guint *slots,
             guint        n_slots,
             gint64       t0,
             gint64       t1)
{
  CpelStatsOptions options = { t0, t1, slots, n_slots, NULL };
  GError *error = NULL;
  CpelStats *stats = cpel_stats_compute (file, &options, NULL, &error);
  GArray *items;
  guint64 sum = 0;
  char *s;

  FUZZ_CHECK (stats != NULL && error == NULL);
  items = collect (file, slots, n_slots, t0, t1);
  FUZZ_CHECK (cpel_stats_get_total (stats) == items->len);
  for (guint i = 0; i < cpel_stats_get_n_codes (stats); i++)
    {
      const CpelStatsCode *c = cpel_stats_get_code (stats, i);
      FUZZ_CHECK (c->count > 0);
      FUZZ_CHECK (c->n_intervals == 0 || c->interval_min <= c->interval_max);
      sum += c->count;
    }
  FUZZ_CHECK (sum == items->len);
  sum = 0;
  for (guint i = 0; i < cpel_stats_get_n_tracks (stats); i++)
    sum += cpel_stats_get_track (stats, i)->count;
  FUZZ_CHECK (sum == items->len);
  s = cpel_stats_to_text (stats);
  g_free (s);
  s = cpel_stats_to_csv (stats, CPEL_STATS_CSV_CODES);
  g_free (s);
  s = cpel_stats_to_csv (stats, CPEL_STATS_CSV_TRACKS);
  g_free (s);
  g_array_unref (items);
  cpel_stats_free (stats);
}

static void
check_cut (CpelFile              *file,
           const CpelLoadOptions *load,
           const guint           *slots,
           guint                  n_slots,
           gint64                 t0,
           gint64                 t1)
{
  CpelCutOptions options = { t0, t1, slots, n_slots, FALSE };
  GError *error = NULL;
  GBytes *bytes = cpel_cut_to_bytes (file, &options, NULL, &error);
  CpelFile *cut;
  GArray *want, *got;
  gint64 shift;

  if (bytes == NULL)
    {
      /* a cut in memory fails only for bad slots or when cancelled */
      fprintf (stderr, "cut failed: %s (%s %d)\n", error->message,
               g_quark_to_string (error->domain), error->code);
      FUZZ_CHECK (!"a cut succeeds");
    }
  want = collect (file, slots, n_slots, t0, t1);
  /* with the options of the source: the clock fields are copied */
  cut = cpel_file_new_for_bytes (bytes, load, &error);
  if (cut == NULL)
    {
      fprintf (stderr, "the cut does not load: %s\n", error->message);
      FUZZ_CHECK (!"the cut of a file loads");
    }
  got = collect (cut, NULL, 0, G_MININT64, ALL);
  FUZZ_CHECK (got->len == want->len);
  /* times are relative to the earliest event of each file */
  shift = want->len ? g_array_index (want, Item, 0).ev.time_ns : 0;
  for (guint i = 0; i < got->len; i++)
    {
      Item *a = &g_array_index (want, Item, i), *b = &g_array_index (got, Item, i);

      FUZZ_CHECK (a->ev.time_ns - shift == b->ev.time_ns);
      FUZZ_CHECK (a->ev.track_id == b->ev.track_id);
      FUZZ_CHECK (a->ev.code == b->ev.code);
      FUZZ_CHECK (a->ev.datum == b->ev.datum);
      if (strcmp (a->label, b->label) != 0)
        {
          fprintf (stderr, "event %u: label \"%s\" became \"%s\"\n", i, a->label, b->label);
          FUZZ_CHECK (!"a cut keeps every label");
        }
      FUZZ_CHECK (strcmp (cpel_file_get_track_label (file, a->ev.track_slot),
                          cpel_file_get_track_label (cut, b->ev.track_slot)) == 0);
    }
  g_array_unref (got);
  g_array_unref (want);
  g_object_unref (cut);
  g_bytes_unref (bytes);
}

static void
check_lod (CpelFile *file)
{
  CpelLod *lod = cpel_lod_get_for_file (file);

  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    {
      guint64 n;
      const gint64 *times = cpel_file_get_track_times (file, s, &n);
      gint64 bounds[6];
      double out[6];

      if (n == 0)
        continue;
      bounds[0] = G_MININT64;
      bounds[1] = times[0];
      bounds[2] = times[n / 3];
      bounds[3] = times[n / 2] + (times[n / 2] < G_MAXINT64);
      bounds[4] = MAX (times[n - 1], bounds[3]);
      bounds[5] = G_MAXINT64;
      for (guint j = 0; j < G_N_ELEMENTS (bounds); j++)
        FUZZ_CHECK (cpel_lod_lower_bound (lod, s, bounds[j])
                    == cpel_file_track_lower_bound (file, s, bounds[j]));
      cpel_lod_locate (lod, s, bounds, G_N_ELEMENTS (bounds), 0.0, out);
      for (guint j = 0; j < G_N_ELEMENTS (bounds); j++)
        FUZZ_CHECK (out[j] == (double) cpel_file_track_lower_bound (file, s, bounds[j]));
      cpel_lod_locate (lod, s, bounds, G_N_ELEMENTS (bounds), 0.25, out);
      for (guint j = 1; j < G_N_ELEMENTS (bounds); j++)
        FUZZ_CHECK (out[j] >= out[j - 1] && out[j] <= (double) n);
    }
}

static void
check_anomaly_chase (CpelFile *file,
                     GArray   *all)
{
  const Item *first = &g_array_index (all, Item, 0);
  guint32 code = first->ev.code;
  GError *error = NULL;
  guint n_slots;
  guint *slots;

  for (int m = CPEL_ANOMALY_DATUM; m <= CPEL_ANOMALY_INTERVAL; m++)
    {
      CpelAnomalyResult *r = cpel_anomaly_find (file, code, m, 0, NULL, &error);

      /* A text datum (%s) has no datum statistics: refused, nothing else. */
      if (m == CPEL_ANOMALY_DATUM && !cpel_anomaly_datum_is_number (file, code))
        {
          FUZZ_CHECK (r == NULL && g_error_matches (error, CPEL_ERROR, CPEL_ERROR_INVALID));
          g_clear_error (&error);
          continue;
        }
      FUZZ_CHECK (r != NULL && error == NULL);
      for (guint64 i = 1; i < cpel_anomaly_result_get_n (r); i++)
        {
          const CpelAnomaly *a = cpel_anomaly_result_get (r, i - 1), *b = cpel_anomaly_result_get (r, i);
          FUZZ_CHECK (a->time_ns < b->time_ns || (a->time_ns == b->time_ns && a->file_index < b->file_index));
        }
      cpel_anomaly_result_free (r);
    }

  slots = cpel_chase_tracks_with_code (file, code, &n_slots);
  {
    guint expect = 0;
    gboolean *has = g_new0 (gboolean, cpel_file_get_n_tracks (file));

    for (guint i = 0; i < all->len; i++)
      {
        const Item *it = &g_array_index (all, Item, i);
        if (it->ev.code == code && !has[it->ev.track_slot])
          {
            has[it->ev.track_slot] = TRUE;
            expect++;
          }
      }
    FUZZ_CHECK (n_slots == expect);
    for (guint i = 0; i < n_slots; i++)
      FUZZ_CHECK (slots[i] < cpel_file_get_n_tracks (file) && has[slots[i]]);
    g_free (has);
  }
  g_free (slots);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GBytes *bytes = g_bytes_new (data, size);
  CpelLoadOptions options = { 0, 1 };
  GError *error = NULL;
  CpelFile *file;
  GArray *all;
  guint n_tracks, *odd, n_odd = 0;
  gint64 duration;

  file = cpel_file_new_for_bytes (bytes, &options, &error);
  if (file == NULL && g_error_matches (error, CPEL_ERROR, CPEL_ERROR_CLOCK))
    {
      g_clear_error (&error);
      options.ticks_per_second = 2600000000u;
      file = cpel_file_new_for_bytes (bytes, &options, &error);
    }
  g_bytes_unref (bytes);
  if (file == NULL)
    {
      g_error_free (error);
      return 0;
    }

  all = collect (file, NULL, 0, G_MININT64, ALL);
  n_tracks = cpel_file_get_n_tracks (file);
  duration = cpel_file_get_duration (file);
  odd = g_new (guint, MAX (n_tracks, 1));
  for (guint s = 1; s < n_tracks; s += 2)
    odd[n_odd++] = s;

  if (all->len > 0)
    {
      const Item *first = &g_array_index (all, Item, 0);
      char text[3] = { 0 };
      char code[16];

      /* a piece of a real label: at least one match */
      memcpy (text, first->label, MIN (strlen (first->label), 2));
      check_search (file, all, CPEL_SEARCH_TEXT, text, TRUE);
      check_search (file, all, CPEL_SEARCH_TEXT, text, FALSE);
      check_search (file, all, CPEL_SEARCH_REGEX, "[0-9]+$", FALSE);
      g_snprintf (code, sizeof code, "%u", first->ev.code);
      check_search (file, all, CPEL_SEARCH_CODE, code, FALSE);
      check_search (file, all, CPEL_SEARCH_CODE, cpel_file_get_type_name (file, first->ev.type), FALSE);
      check_anomaly_chase (file, all);
    }

  check_stats (file, NULL, 0, G_MININT64, G_MAXINT64);
  check_stats (file, odd, n_odd, duration / 3, duration / 3 * 2 + 1);
  check_cut (file, &options, NULL, 0, 0, G_MAXINT64);
  check_cut (file, &options, odd, n_odd, duration / 3, duration / 3 * 2 + 1);
  check_lod (file);

  g_free (odd);
  g_array_unref (all);
  g_object_unref (file);
  return 0;
}
