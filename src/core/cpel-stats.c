/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats.c — per event code and per track statistics over a time range
 *
 * One pass per chosen track over its events in [t0, t1) (two binary searches
 * bound them): the code of each event is read from its record, its type
 * found through the file's code map (the last lookup is cached: runs of one
 * code are common), and the per-type accumulators updated.  The interval
 * of a code on a track needs the time of that code's previous event on the
 * same track: one (stamp, time) pair per type, the stamp naming the track
 * being walked, so nothing is reset between tracks.
 *
 * A file loaded without its index (CpelLoadOptions.defer_index) that is in
 * time order is read in one merge over its sections instead: the events of
 * a track come in the same order, so the figures are the same; the last time
 * per (track, type) is kept in a table (dense when small, hashed otherwise).
 */
#include "cpel-stats.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "cpel-file-private.h"
#include "cpel-stats-private.h"
#include "cpel-time.h"

#define CANCEL_CHECK_MASK 0xffff
#define PREFETCH_AHEAD    32

typedef struct
{
  guint64           count;
  guint64           n_intervals;
  gint64            min;
  gint64            max;
  unsigned __int128 sum;
  guint             stamp;      /* 1 + index of the track whose last event is `last` */
  gint64            last;
  guint64          *histogram;  /* CPEL_STATS_HISTOGRAM_BINS, or NULL */
} Acc;

struct _CpelStats
{
  CpelFile       *file;
  gint64          t0;
  gint64          t1;
  GArray         *codes;     /* CpelStatsCode */
  GArray         *tracks;    /* CpelStatsTrack */
  guint64        *histograms; /* CPEL_STATS_HISTOGRAM_BINS per type, or NULL */
  guint64         total;
  guint           n_busy;
};

guint
cpel_stats_histogram_bin (gint64 d)
{
  guint e;

  if (d < 4)
    return d < 0 ? 0 : (guint) d;
  e = 63 - __builtin_clzll ((guint64) d);
  return 4 * e + (guint) (((guint64) d >> (e - 2)) & 3) - 4;
}

gint64
cpel_stats_histogram_bin_start (guint bin)
{
  guint e;

  g_return_val_if_fail (bin < CPEL_STATS_HISTOGRAM_BINS, G_MAXINT64);
  if (bin < 4)
    return bin;
  e = (bin + 4) / 4;
  if (e > 62)
    return G_MAXINT64;
  return (gint64) ((guint64) (4 + (bin + 4) % 4) << (e - 2));
}

static gboolean
check_groups (CpelFile               *file,
              const CpelStatsOptions *options,
              GError                **error)
{
  if (options == NULL || options->type_groups == NULL)
    return TRUE;
  for (guint type = 0; type < file->n_types; type++)
    if (options->type_groups[type] > type)
      {
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                     "Event type %u is grouped under a later type %u",
                     type, options->type_groups[type]);
        return FALSE;
      }
  return TRUE;
}

/* Walks one track's events in [t0, t1); returns the count, or G_MAXUINT64
 * when cancelled. */
static guint64
walk_track (CpelFile      *file,
            guint          slot,
            guint          stamp,
            gint64         t0,
            gint64         t1,
            const guint8  *hidden,
            const guint   *groups,
            Acc           *acc,
            GCancellable  *cancellable)
{
  const CpelTrack *track = &file->tracks[slot];
  const gint64 *times = file->times + track->first;
  const guint32 *recs = file->recs + track->first;
  guint64 a = cpel_file_track_lower_bound (file, slot, t0);
  guint64 b = t1 > t0 ? cpel_file_track_lower_bound (file, slot, t1) : a;
  guint32 cached_code = 0;
  guint32 cached_type = CPEL_U32MAP_NONE;
  guint64 count = 0;

  for (guint64 i = a; i < b; i++)
    {
      const guint8 *rec = cpel_file_record (file, recs[i], NULL);

      /* records are visited in time order, scattered over the mapping */
      if (G_LIKELY (i + PREFETCH_AHEAD < b))
        __builtin_prefetch (cpel_file_record (file, recs[i + PREFETCH_AHEAD], NULL) + 12);
      guint32 code = cpel_file_read32 (file, rec + 12);
      guint32 type;
      Acc *c;

      if (G_UNLIKELY ((i & CANCEL_CHECK_MASK) == CANCEL_CHECK_MASK)
          && g_cancellable_is_cancelled (cancellable))
        return G_MAXUINT64;

      if (code != cached_code || cached_type == CPEL_U32MAP_NONE)
        {
          cached_code = code;
          cached_type = cpel_u32map_get (file->type_map, code);
        }
      type = cached_type;
      /* a code missing from the map: the mapping was damaged under us */
      if (G_UNLIKELY (type >= file->n_types) || (hidden != NULL && hidden[type]))
        continue;

      c = &acc[groups != NULL ? groups[type] : type];
      c->count++;
      count++;
      if (c->stamp == stamp)
        {
          gint64 d = times[i] - c->last;

          if (c->n_intervals == 0 || d < c->min)
            c->min = d;
          if (c->n_intervals == 0 || d > c->max)
            c->max = d;
          c->sum += (guint64) d;
          c->n_intervals++;
          if (c->histogram != NULL)
            c->histogram[cpel_stats_histogram_bin (d)]++;
        }
      c->stamp = stamp;
      c->last = times[i];
    }
  return count;
}

/* The last event's time per (track, type): a dense table when small. */
#define DENSE_MAX (1u << 22)

typedef struct
{
  guint       n_types;
  gint64     *dense;      /* [slot * n_types + type], or NULL */
  guint8     *dense_set;
  GHashTable *sparse;     /* (slot << 32 | type) -> index in `times` */
  GArray     *times;      /* gint64 */
} LastTimes;

static guint
pair_hash (gconstpointer key)
{
  guint64 k = (guint64) *(const guint64 *) key;

  return (guint) ((k * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32);
}

static gboolean
pair_equal (gconstpointer a,
            gconstpointer b)
{
  return *(const guint64 *) a == *(const guint64 *) b;
}

/* The previous time of (slot, type) or FALSE; records `t` as the new one. */
static inline gboolean
last_swap (LastTimes *lt,
           guint      slot,
           guint      type,
           gint64     t,
           gint64    *prev)
{
  if (lt->dense != NULL)
    {
      gsize i = (gsize) slot * lt->n_types + type;
      gboolean had = lt->dense_set[i];

      *prev = lt->dense[i];
      lt->dense[i] = t;
      lt->dense_set[i] = 1;
      return had;
    }
  else
    {
      guint64 key = (guint64) slot << 32 | type;
      gpointer idx;

      if (g_hash_table_lookup_extended (lt->sparse, &key, NULL, &idx))
        {
          gint64 *slot_time = &g_array_index (lt->times, gint64, GPOINTER_TO_UINT (idx));

          *prev = *slot_time;
          *slot_time = t;
          return TRUE;
        }
      g_hash_table_insert (lt->sparse, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (lt->times->len));
      g_array_append_val (lt->times, t);
      return FALSE;
    }
}

/* Every event of the chosen tracks in [t0, t1) in time order: per track
 * counts into stats->tracks and per type accumulators, as walk_track. */
static gboolean
stream (CpelFile               *file,
        const CpelStatsOptions *options,
        CpelStats              *stats,
        Acc                    *acc,
        GCancellable           *cancellable,
        GError                **error)
{
  const guint8 *hidden = options ? options->hidden_types : NULL;
  const guint *groups = options ? options->type_groups : NULL;
  const guint *slots = options && options->slots ? options->slots : NULL;
  guint n = slots ? options->n_slots : file->n_tracks;
  g_autofree guint64 *counts = g_new0 (guint64, MAX (file->n_tracks, 1));
  g_autoptr(CpelMerge) merge = NULL;
  LastTimes lt = { MAX (file->n_types, 1) };
  gboolean ok = TRUE;
  guint64 i = 0;
  CpelEvent ev;

  if ((guint64) MAX (file->n_tracks, 1) * lt.n_types <= DENSE_MAX)
    {
      lt.dense = g_new (gint64, (gsize) MAX (file->n_tracks, 1) * lt.n_types);
      lt.dense_set = g_malloc0 ((gsize) MAX (file->n_tracks, 1) * lt.n_types);
    }
  else
    {
      lt.sparse = g_hash_table_new_full (pair_hash, pair_equal, g_free, NULL);
      lt.times = g_array_new (FALSE, FALSE, sizeof (gint64));
    }

  if (stats->t1 > stats->t0)
    {
      merge = cpel_merge_new (file, slots, slots ? n : 0, stats->t0);
      while (cpel_merge_next (merge, &ev, NULL) && ev.time_ns < stats->t1)
        {
          Acc *c;
          gint64 prev;

          if (G_UNLIKELY ((++i & CANCEL_CHECK_MASK) == 0)
              && g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              ok = FALSE;
              break;
            }
          /* a code or track missing from the map: the mapping was damaged */
          if (G_UNLIKELY (ev.type >= file->n_types || ev.track_slot >= file->n_tracks)
              || (hidden != NULL && hidden[ev.type]))
            continue;
          guint group = groups != NULL ? groups[ev.type] : ev.type;

          c = &acc[group];
          c->count++;
          counts[ev.track_slot]++;
          if (last_swap (&lt, ev.track_slot, group, ev.time_ns, &prev))
            {
              gint64 d = ev.time_ns - prev;

              if (c->n_intervals == 0 || d < c->min)
                c->min = d;
              if (c->n_intervals == 0 || d > c->max)
                c->max = d;
              c->sum += (guint64) d;
              c->n_intervals++;
              if (c->histogram != NULL)
                c->histogram[cpel_stats_histogram_bin (d)]++;
            }
        }
    }

  if (ok)
    for (guint k = 0; k < n; k++)
      {
        guint slot = slots ? slots[k] : k;
        CpelStatsTrack t;

        t.slot = slot;
        t.track_id = file->tracks[slot].id;
        t.label = file->tracks[slot].label;
        t.count = counts[slot];
        stats->total += t.count;
        if (t.count > 0)
          stats->n_busy++;
        g_array_append_val (stats->tracks, t);
      }

  g_free (lt.dense);
  g_free (lt.dense_set);
  g_clear_pointer (&lt.sparse, g_hash_table_unref);
  g_clear_pointer (&lt.times, g_array_unref);
  return ok;
}

static double
mean_of (unsigned __int128 sum,
         guint64           n)
{
  unsigned __int128 q = sum / n;

  return (double) q + (double) (guint64) (sum % n) / (double) n;
}

CpelStats *
cpel_stats_compute (CpelFile               *file,
                    const CpelStatsOptions *options,
                    GCancellable           *cancellable,
                    GError                **error)
{
  g_autoptr(CpelStats) stats = NULL;
  g_autofree Acc *acc = NULL;
  guint n;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((options != NULL
       && !cpel_file_check_slots (file, options->slots, options->n_slots, error))
      || !check_groups (file, options, error))
    return NULL;

  stats = g_new0 (CpelStats, 1);
  stats->file = g_object_ref (file);
  stats->t0 = options ? options->t0 : 0;
  stats->t1 = options ? options->t1 : (file->n_events ? file->duration + 1 : 0);
  stats->codes = g_array_new (FALSE, FALSE, sizeof (CpelStatsCode));
  stats->tracks = g_array_new (FALSE, FALSE, sizeof (CpelStatsTrack));

  acc = g_new0 (Acc, MAX (file->n_types, 1));
  if (options != NULL && options->histograms)
    {
      stats->histograms = g_new0 (guint64, (gsize) MAX (file->n_types, 1) * CPEL_STATS_HISTOGRAM_BINS);
      for (guint type = 0; type < file->n_types; type++)
        acc[type].histogram = stats->histograms + (gsize) type * CPEL_STATS_HISTOGRAM_BINS;
    }
  n = options && options->slots ? options->n_slots : file->n_tracks;
  if (!cpel_file_has_index (file) && cpel_file_can_stream (file))
    {
      if (!stream (file, options, stats, acc, cancellable, error))
        return NULL;
    }
  else
    {
      if (!cpel_file_ensure_index (file, cancellable, error))
        return NULL;
      for (guint i = 0; i < n; i++)
        {
          guint slot = options && options->slots ? options->slots[i] : i;
          CpelStatsTrack t;

          t.slot = slot;
          t.track_id = file->tracks[slot].id;
          t.label = file->tracks[slot].label;
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return NULL;
          t.count = walk_track (file, slot, i + 1, stats->t0, stats->t1,
                                options ? options->hidden_types : NULL,
                                options ? options->type_groups : NULL, acc, cancellable);
          if (t.count == G_MAXUINT64)
            {
              g_cancellable_set_error_if_cancelled (cancellable, error);
              return NULL;
            }
          stats->total += t.count;
          if (t.count > 0)
            stats->n_busy++;
          g_array_append_val (stats->tracks, t);
        }
    }

  /* types are numbered in ascending code order */
  for (guint type = 0; type < file->n_types; type++)
    {
      CpelStatsCode c = { 0 };

      if (acc[type].count == 0)
        continue;
      c.code = file->types[type].code;
      c.type = type;
      c.name = file->types[type].name;
      c.count = acc[type].count;
      c.n_intervals = acc[type].n_intervals;
      if (c.n_intervals > 0)
        {
          c.interval_min = acc[type].min;
          c.interval_max = acc[type].max;
          c.interval_mean = mean_of (acc[type].sum, c.n_intervals);
        }
      c.histogram = acc[type].histogram;
      g_array_append_val (stats->codes, c);
    }
  return g_steal_pointer (&stats);
}

void
cpel_stats_free (CpelStats *stats)
{
  if (stats == NULL)
    return;
  g_clear_object (&stats->file);
  g_clear_pointer (&stats->codes, g_array_unref);
  g_clear_pointer (&stats->tracks, g_array_unref);
  g_clear_pointer (&stats->histograms, g_free);
  g_free (stats);
}

gint64
cpel_stats_get_t0 (CpelStats *stats)
{
  g_return_val_if_fail (stats != NULL, 0);
  return stats->t0;
}

gint64
cpel_stats_get_t1 (CpelStats *stats)
{
  g_return_val_if_fail (stats != NULL, 0);
  return stats->t1;
}

guint
cpel_stats_get_n_codes (CpelStats *stats)
{
  g_return_val_if_fail (stats != NULL, 0);
  return stats->codes->len;
}

const CpelStatsCode *
cpel_stats_get_code (CpelStats *stats,
                     guint      i)
{
  g_return_val_if_fail (stats != NULL, NULL);
  g_return_val_if_fail (i < stats->codes->len, NULL);
  return &g_array_index (stats->codes, CpelStatsCode, i);
}

guint
cpel_stats_get_n_tracks (CpelStats *stats)
{
  g_return_val_if_fail (stats != NULL, 0);
  return stats->tracks->len;
}

const CpelStatsTrack *
cpel_stats_get_track (CpelStats *stats,
                      guint      i)
{
  g_return_val_if_fail (stats != NULL, NULL);
  g_return_val_if_fail (i < stats->tracks->len, NULL);
  return &g_array_index (stats->tracks, CpelStatsTrack, i);
}

guint64
cpel_stats_get_total (CpelStats *stats)
{
  g_return_val_if_fail (stats != NULL, 0);
  return stats->total;
}

guint
cpel_stats_get_n_busy_tracks (CpelStats *stats)
{
  g_return_val_if_fail (stats != NULL, 0);
  return stats->n_busy;
}

/* ---- output ---------------------------------------------------------- */

/* Names and labels come from the file: control characters are escaped and
 * invalid UTF-8 replaced, so a table stays one line per row. */
char *
cpel_stats_printable (const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);
  GString *out = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p; p++)
    {
      guchar c = *p;

      if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, c);
    }
  return g_string_free (out, FALSE);
}

void
cpel_text_table_init (CpelTextTable *t,
                      const char    *align)
{
  t->n_cols = strlen (align);
  t->right = align;
  t->cells = g_ptr_array_new_with_free_func (g_free);
}

void
cpel_text_table_add (CpelTextTable *t,
                     char          *cell)
{
  g_ptr_array_add (t->cells, cell);
}

void
cpel_text_table_write (CpelTextTable *t,
                       GString       *out)
{
  g_autofree gsize *width = g_new0 (gsize, t->n_cols);
  guint n_rows = t->cells->len / t->n_cols;

  for (guint i = 0; i < t->cells->len; i++)
    width[i % t->n_cols] = MAX (width[i % t->n_cols],
                                (gsize) g_utf8_strlen (g_ptr_array_index (t->cells, i), -1));
  for (guint r = 0; r < n_rows; r++)
    {
      gsize line_start = out->len;

      for (guint c = 0; c < t->n_cols; c++)
        {
          const char *cell = g_ptr_array_index (t->cells, r * t->n_cols + c);
          gsize pad = width[c] - g_utf8_strlen (cell, -1);

          if (c > 0)
            g_string_append (out, "  ");
          if (t->right[c] == 'r')
            {
              for (gsize k = 0; k < pad; k++)
                g_string_append_c (out, ' ');
              g_string_append (out, cell);
            }
          else
            {
              g_string_append (out, cell);
              if (c + 1 < t->n_cols)
                for (gsize k = 0; k < pad; k++)
                  g_string_append_c (out, ' ');
            }
        }
      while (out->len > line_start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
  g_ptr_array_unref (t->cells);
}

static char *
time_cell (gint64 ns)
{
  return cpel_time_format (ns);
}

static char *
mean_cell (double mean_ns)
{
  /* the mean rounded to the nearest ns, shown in the same units; a mean
   * past what gint64 holds (intervals near 2^63 ns) saturates */
  if (!(mean_ns + 0.5 < 9223372036854775807.0))
    return cpel_time_format (G_MAXINT64);
  return cpel_time_format ((gint64) (mean_ns + 0.5));
}

static void
summary_text (CpelStats *stats,
              GString   *out)
{
  char a[32], b[32], d[32];
  guint64 span = 0;

  /* in 64-bit unsigned: [G_MININT64, G_MAXINT64) spans more than gint64 holds */
  if (stats->t1 > stats->t0)
    span = MIN ((guint64) stats->t1 - (guint64) stats->t0, (guint64) G_MAXINT64);
  g_string_append_printf (out, _("Range: %s to %s (%s)\n"),
                          cpel_time_format_range_end (stats->t0, stats->t1, a, sizeof a),
                          cpel_time_format_range_end (stats->t1, stats->t0, b, sizeof b),
                          cpel_time_format_buf ((gint64) span, d, sizeof d));
  {
    g_autofree char *busy = g_strdup_printf ("%u", stats->n_busy);
    g_autofree char *all = g_strdup_printf ("%u", stats->tracks->len);
    g_autofree char *n_codes = g_strdup_printf ("%u", stats->codes->len);
    g_autofree char *tracks = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s track", "%s of %s tracks",
                                                         stats->tracks->len), busy, all);
    g_autofree char *codes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event code", "%s event codes",
                                                        stats->codes->len), n_codes);

    /* TRANSLATORS: "Events: 67 on 2 of 2 tracks, 1 event code" */
    g_string_append_printf (out, _("Events: %" PRIu64 " on %s, %s\n"), stats->total, tracks, codes);
  }
}

static void
codes_text (CpelStats *stats,
            GString   *out)
{
  CpelTextTable t;

  cpel_text_table_init (&t, "rlrrrrr");
  cpel_text_table_add (&t, g_strdup (_("Code")));
  cpel_text_table_add (&t, g_strdup (_("Event")));
  cpel_text_table_add (&t, g_strdup (_("Count")));
  cpel_text_table_add (&t, g_strdup (_("Intervals")));
  cpel_text_table_add (&t, g_strdup (_("Min")));
  cpel_text_table_add (&t, g_strdup (_("Mean")));
  cpel_text_table_add (&t, g_strdup (_("Max")));
  for (guint i = 0; i < stats->codes->len; i++)
    {
      const CpelStatsCode *c = &g_array_index (stats->codes, CpelStatsCode, i);
      gboolean has = c->n_intervals > 0;

      cpel_text_table_add (&t, g_strdup_printf ("%u", c->code));
      cpel_text_table_add (&t, cpel_stats_printable (c->name));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, c->count));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, c->n_intervals));
      cpel_text_table_add (&t, has ? time_cell (c->interval_min) : g_strdup ("-"));
      cpel_text_table_add (&t, has ? mean_cell (c->interval_mean) : g_strdup ("-"));
      cpel_text_table_add (&t, has ? time_cell (c->interval_max) : g_strdup ("-"));
    }
  cpel_text_table_write (&t, out);
}

static void
tracks_text (CpelStats *stats,
             GString   *out)
{
  CpelTextTable t;

  cpel_text_table_init (&t, "rlr");
  cpel_text_table_add (&t, g_strdup (_("Track")));
  cpel_text_table_add (&t, g_strdup (_("Label")));
  cpel_text_table_add (&t, g_strdup (_("Events")));
  for (guint i = 0; i < stats->tracks->len; i++)
    {
      const CpelStatsTrack *tr = &g_array_index (stats->tracks, CpelStatsTrack, i);

      cpel_text_table_add (&t, g_strdup_printf ("%u", tr->track_id));
      cpel_text_table_add (&t, cpel_stats_printable (tr->label));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, tr->count));
    }
  cpel_text_table_add (&t, g_strdup (""));
  cpel_text_table_add (&t, g_strdup (_("Total")));
  cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, stats->total));
  cpel_text_table_write (&t, out);
}

char *
cpel_stats_to_text (CpelStats *stats)
{
  GString *out;

  g_return_val_if_fail (stats != NULL, NULL);

  out = g_string_new (NULL);
  summary_text (stats, out);
  g_string_append_c (out, '\n');
  codes_text (stats, out);
  g_string_append_c (out, '\n');
  tracks_text (stats, out);
  return g_string_free (out, FALSE);
}

char *
cpel_stats_table_to_text (CpelStats         *stats,
                          CpelStatsCsvTable  table)
{
  GString *out;

  g_return_val_if_fail (stats != NULL, NULL);

  out = g_string_new (NULL);
  summary_text (stats, out);
  g_string_append_c (out, '\n');
  if (table == CPEL_STATS_CSV_TRACKS)
    tracks_text (stats, out);
  else
    codes_text (stats, out);
  return g_string_free (out, FALSE);
}

void
cpel_csv_append_field (GString    *out,
                       const char *field)
{
  g_return_if_fail (out != NULL);

  if (field == NULL)
    return;
  if (strpbrk (field, ",\"\r\n") == NULL)
    {
      g_string_append (out, field);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = field; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
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
cpel_stats_to_csv (CpelStats         *stats,
                   CpelStatsCsvTable  table)
{
  GString *out;

  g_return_val_if_fail (stats != NULL, NULL);

  out = g_string_new (NULL);
  if (table == CPEL_STATS_CSV_CODES)
    {
      static const char *head[] = { "code", "event", "count", "intervals", "min_ns", "mean_ns", "max_ns" };

      csv_row (out, head, G_N_ELEMENTS (head));
      for (guint i = 0; i < stats->codes->len; i++)
        {
          const CpelStatsCode *c = &g_array_index (stats->codes, CpelStatsCode, i);
          g_autofree char *code = g_strdup_printf ("%u", c->code);
          g_autofree char *name = g_utf8_make_valid (c->name, -1);
          g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, c->count);
          g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, c->n_intervals);
          g_autofree char *min = c->n_intervals ? g_strdup_printf ("%" G_GINT64_FORMAT, c->interval_min) : g_strdup ("");
          g_autofree char *max = c->n_intervals ? g_strdup_printf ("%" G_GINT64_FORMAT, c->interval_max) : g_strdup ("");
          char mean[G_ASCII_DTOSTR_BUF_SIZE] = "";
          const char *row[7];

          if (c->n_intervals)
            g_ascii_formatd (mean, sizeof mean, "%.3f", c->interval_mean);
          row[0] = code; row[1] = name; row[2] = count; row[3] = n;
          row[4] = min; row[5] = mean; row[6] = max;
          csv_row (out, row, 7);
        }
    }
  else
    {
      static const char *head[] = { "slot", "track", "label", "count" };

      csv_row (out, head, G_N_ELEMENTS (head));
      for (guint i = 0; i < stats->tracks->len; i++)
        {
          const CpelStatsTrack *tr = &g_array_index (stats->tracks, CpelStatsTrack, i);
          g_autofree char *slot = g_strdup_printf ("%u", tr->slot);
          g_autofree char *id = g_strdup_printf ("%u", tr->track_id);
          g_autofree char *label = g_utf8_make_valid (tr->label, -1);
          g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, tr->count);
          const char *row[4] = { slot, id, label, count };

          csv_row (out, row, 4);
        }
    }
  return g_string_free (out, FALSE);
}
