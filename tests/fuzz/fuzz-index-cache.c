/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-index-cache.c — libFuzzer target: the persisted index's reader
 *
 * The input is a cache file (cpel-index-cache-private.h) for a fixed
 * capture made here in memory (two event sections, one not in time order,
 * defined and undefined tracks and codes).  It is read three ways:
 *   1. as it is (checksums checked);
 *   2. with the capture's key written in and every checksum recomputed —
 *      a hostile cache: only the other checks stand between it and use;
 *   3. the same without comparing checksums.
 * Whatever is accepted must satisfy the index's invariants (each track in
 * (time, record) order within [0, duration], record indices in range,
 * counts adding up) and survive every accessor, a merge, level-of-detail
 * lookups and a search; in way 1 it must equal the index built from the
 * capture.  Whatever is rejected must leave the index built from the
 * capture, equal to the reference.  Each way is also read with the check
 * of times and recs deferred (cache_verify_later): what is used unchecked
 * must survive every reader (no invariant holds yet), then
 * cpel_file_verify_index () either passes — and the invariants hold — or
 * marks the file damaged.  The overview stored with an accepted cache must
 * equal the events counted per bucket.
 *
 * Seeds: corpus/index-cache/, written by FUZZ_INDEX_CACHE_SEEDS=DIR
 * fuzz-index-cache-replay (any input file).
 */
#include <stdint.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-lod.h"
#include "cpel-index-cache-private.h"
#include "fuzz-common.h"

static GBytes *capture;
static CpelFile *reference;
static CpelIndexCacheKey key;

static void
put32 (GByteArray *b,
       guint32     v)
{
  guint32 be = GUINT32_TO_BE (v);

  g_byte_array_append (b, (const guint8 *) &be, 4);
}

static void
put_events (GByteArray    *b,
            const guint32 (*ev)[4],
            guint          n,
            guint32        clock)
{
  guint8 name[64] = { 0 };

  put32 (b, CPEL_SECTION_EVENTS);
  put32 (b, 72 + 20 * n);
  g_byte_array_append (b, name, sizeof name);
  put32 (b, n);
  put32 (b, clock);
  for (guint i = 0; i < n; i++)
    {
      put32 (b, 0);          /* time high */
      put32 (b, ev[i][0]);   /* time low */
      put32 (b, ev[i][1]);   /* track */
      put32 (b, ev[i][2]);   /* code */
      put32 (b, ev[i][3]);   /* datum */
    }
}

static GBytes *
make_capture (void)
{
  /* time, track, code, datum */
  static const guint32 a[][4] = {
    { 10, 1, 1, 7 }, { 20, 2, 2, 8 }, { 20, 1, 1, 9 }, { 35, 70000, 5000, 1 },
    { 40, 2, 1, 2 }, { 50, 1, 2, 3 }, { 60, 3, 9, 4 },
  };
  static const guint32 b[][4] = {   /* not in time order, another clock */
    { 30, 2, 2, 5 }, { 5, 1, 1, 6 }, { 30, 1, 2, 7 }, { 90, 70000, 1, 8 }, { 45, 3, 2, 9 },
  };
  GByteArray *buf = g_byte_array_new ();

  g_byte_array_append (buf, (const guint8 *) "\x01\x00\x00\x03", 4);   /* 3 sections */
  put32 (buf, 1700000000);
  put32 (buf, CPEL_SECTION_STRING_TABLE);
  put32 (buf, 12);
  g_byte_array_append (buf, (const guint8 *) "\0rx %d\0tx\0\0", 12);
  put_events (buf, a, G_N_ELEMENTS (a), 1000000000);
  put_events (buf, b, G_N_ELEMENTS (b), 3000000);
  return g_byte_array_free_to_bytes (buf);
}

static void
write_seeds (const char *dir)
{
  g_autoptr(GBytes) good = cpel_index_cache_serialize (reference, &key);
  gsize len;
  const guint8 *data = g_bytes_get_data (good, &len);
  g_autofree guint8 *buf = g_memdup2 (data, len);
  CpelIndexCacheHeader *h = (CpelIndexCacheHeader *) buf;
  struct { const char *name; gsize len; } cuts[] = {
    { "truncated-header", sizeof *h / 2 }, { "truncated-meta", sizeof *h + 40 },
    { "truncated-times", (gsize) h->times_offset + 16 }, { "truncated-recs", len - 3 },
  };

  g_mkdir_with_parents (dir, 0755);
#define SEED(name, d, n) \
  G_STMT_START { g_autofree char *p_ = g_build_filename (dir, name, NULL); \
                 FUZZ_CHECK (g_file_set_contents (p_, (const char *) (d), (gssize) (n), NULL)); } G_STMT_END
  SEED ("valid", data, len);
  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    SEED (cuts[i].name, data, cuts[i].len);
  h->version++;
  cpel_index_cache_reseal (buf, len);
  SEED ("other-version", buf, len);
  memcpy (buf, data, len);
  buf[h->times_offset + 8] ^= 0x04;
  SEED ("bit-flip-times", buf, len);
  memcpy (buf, data, len);
  buf[h->summary_offset + 8 * CPEL_INDEX_CACHE_OVERVIEW_BUCKETS + 40] ^= 0x01;
  SEED ("bit-flip-lod", buf, len);
  memcpy (buf, data, len);
  buf[h->summary_offset + 8 * 3] ^= 0x02;
  SEED ("bit-flip-overview", buf, len);
  memcpy (buf, data, len);
  buf[h->blocks_offset + 3] ^= 0x08;
  SEED ("bit-flip-blocks", buf, len);
  SEED ("truncated-summary", data, (gsize) h->summary_offset + 100);
  memcpy (buf, data, len);
  h->key.mtime_s = 1;
  cpel_index_cache_reseal (buf, len);
  SEED ("stale", buf, len);
#undef SEED
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  const char *seeds = g_getenv ("FUZZ_INDEX_CACHE_SEEDS");

  fuzz_init ();
  capture = make_capture ();
  reference = cpel_file_new_for_bytes (capture, NULL, NULL);
  FUZZ_CHECK (reference != NULL);
  FUZZ_CHECK (cpel_file_get_n_events (reference) == 12 && !cpel_file_is_time_ordered (reference));
  FUZZ_CHECK (cpel_index_cache_compute_key (reference, 0, &key));
  if (seeds != NULL)
    write_seeds (seeds);
  return 0;
}

static gboolean
same_index (CpelFile *a,
            CpelFile *b)
{
  if (a->n_tracks != b->n_tracks || a->n_types != b->n_types || a->base_ns != b->base_ns
      || a->duration != b->duration || a->time_ordered != b->time_ordered)
    return FALSE;
  for (guint s = 0; s < a->n_tracks; s++)
    if (a->tracks[s].id != b->tracks[s].id || a->tracks[s].count != b->tracks[s].count
        || a->tracks[s].first != b->tracks[s].first || strcmp (a->tracks[s].label, b->tracks[s].label) != 0)
      return FALSE;
  for (guint t = 0; t < a->n_types; t++)
    if (a->types[t].code != b->types[t].code || a->types[t].count != b->types[t].count)
      return FALSE;
  for (guint s = 0; s < a->n_evsecs; s++)
    if (a->evsecs[s].sorted != b->evsecs[s].sorted)
      return FALSE;
  return memcmp (a->times, b->times, 8 * a->n_events) == 0
         && memcmp (a->recs, b->recs, 4 * a->n_events) == 0;
}

/* The invariants of an index, and every reader of it. */
static void
exercise (CpelFile *file)
{
  guint64 n = cpel_file_get_n_events (file), sum = 0, merged = 0;
  gint64 duration = cpel_file_get_duration (file);
  g_autoptr(GString) label = g_string_new (NULL);
  g_autoptr(CpelQuery) query = NULL;
  g_autoptr(CpelSearchResult) result = NULL;
  CpelMerge *merge;
  CpelLod *lod;
  CpelEvent ev;

  FUZZ_CHECK (cpel_file_has_index (file));
  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    {
      guint64 count;
      const gint64 *t = cpel_file_get_track_times (file, s, &count);

      sum += count;
      for (guint64 i = 0; i < count; i++)
        {
          FUZZ_CHECK (t[i] >= 0 && t[i] <= duration);
          FUZZ_CHECK (i == 0 || t[i] >= t[i - 1]);
          cpel_file_get_track_event (file, s, i, &ev);
          FUZZ_CHECK (ev.file_index < n && ev.time_ns == t[i]);
          g_string_truncate (label, 0);
          cpel_file_append_label (file, &ev, label);
          (void) cpel_file_get_track_event_code (file, s, i);
          (void) cpel_file_get_track_event_datum (file, s, i);
        }
      FUZZ_CHECK (cpel_file_track_lower_bound (file, s, duration / 2) <= count);
      FUZZ_CHECK (cpel_file_track_count_range (file, s, 0, duration + 1) == count);
    }
  FUZZ_CHECK (sum == n);
  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL))
    merged++;
  cpel_merge_free (merge);
  FUZZ_CHECK (merged == n);

  lod = cpel_lod_get_for_file (file);
  cpel_lod_prepare (lod, NULL);
  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    {
      gint64 bounds[3] = { 0, duration / 3, duration };
      double out[3];

      FUZZ_CHECK (cpel_lod_lower_bound (lod, s, duration / 2)
                  == cpel_file_track_lower_bound (file, s, duration / 2));
      cpel_lod_locate (lod, s, bounds, 3, 0.0, out);
    }

  query = cpel_query_new (file, CPEL_SEARCH_TEXT, "x", FALSE, NULL);
  FUZZ_CHECK (query != NULL);
  result = cpel_search_run (file, query, NULL, NULL, NULL, NULL);
  FUZZ_CHECK (result != NULL);

  /* the overview stored with the cache: the events per bucket */
  {
    const guint64 *ov = cpel_file_get_stored_overview (file, CPEL_INDEX_CACHE_OVERVIEW_BUCKETS);

    if (ov != NULL)
      {
        g_autofree guint64 *count = g_new0 (guint64, CPEL_INDEX_CACHE_OVERVIEW_BUCKETS);
        guint64 span = (guint64) duration + 1;

        for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
          {
            guint64 c;
            const gint64 *t = cpel_file_get_track_times (file, s, &c);

            for (guint64 i = 0; i < c; i++)
              {
                guint b = 0;

                /* the last b with ceil(span·b / B) <= t */
                while (b + 1 < CPEL_INDEX_CACHE_OVERVIEW_BUCKETS
                       && (guint64) (((unsigned __int128) span * (b + 1) + CPEL_INDEX_CACHE_OVERVIEW_BUCKETS - 1)
                                     / CPEL_INDEX_CACHE_OVERVIEW_BUCKETS) <= (guint64) t[i])
                  b++;
                count[b]++;
              }
          }
        FUZZ_CHECK (memcmp (count, ov, sizeof (guint64) * CPEL_INDEX_CACHE_OVERVIEW_BUCKETS) == 0);
      }
  }
}

/* Every reader of an index not checked yet: anything may be in it, and no
 * read may leave the file or the cache. */
static void
exercise_unchecked (CpelFile *file)
{
  gint64 duration = cpel_file_get_duration (file);
  g_autoptr(GString) label = g_string_new (NULL);
  g_autoptr(CpelQuery) query = NULL;
  g_autoptr(CpelSearchResult) result = NULL;
  CpelMerge *merge;
  CpelLod *lod = cpel_lod_get_for_file (file);
  CpelEvent ev;
  guint64 merged = 0;

  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    {
      guint64 count;
      gint64 bounds[4] = { -5, 0, duration / 3, duration + 7 };
      double out[4];

      cpel_file_get_track_times (file, s, &count);
      for (guint64 i = 0; i < count; i++)
        {
          cpel_file_get_track_event (file, s, i, &ev);
          g_string_truncate (label, 0);
          cpel_file_append_label (file, &ev, label);
          (void) cpel_file_get_track_event_code (file, s, i);
          (void) cpel_file_get_track_event_datum (file, s, i);
        }
      FUZZ_CHECK (cpel_file_track_lower_bound (file, s, duration / 2) <= count);
      FUZZ_CHECK (cpel_lod_lower_bound (lod, s, duration / 2) <= count);
      cpel_lod_locate (lod, s, bounds, 4, 0.0, out);
      cpel_lod_locate (lod, s, bounds, 4, 0.5, out);
    }
  merge = cpel_merge_new (file, NULL, 0, 0);
  while (cpel_merge_next (merge, &ev, NULL) && merged <= cpel_file_get_n_events (file))
    merged++;
  cpel_merge_free (merge);
  query = cpel_query_new (file, CPEL_SEARCH_TEXT, "x", FALSE, NULL);
  FUZZ_CHECK (query != NULL);
  result = cpel_search_run (file, query, NULL, NULL, NULL, NULL);
}

static void
try_cache (const guint8 *data,
           size_t        size,
           gboolean      check_sums,
           gboolean      must_match)
{
  g_autoptr(GBytes) cache = g_bytes_new (data, size);
  CpelIndexCacheLoad load = CPEL_INDEX_CACHE_OFF;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_bytes_with_cache (capture, cache, check_sums,
                                                                 &load, &error);

  FUZZ_CHECK (file != NULL && error == NULL);
  FUZZ_CHECK (load != CPEL_INDEX_CACHE_OFF);
  if (load != CPEL_INDEX_CACHE_USED || must_match)
    FUZZ_CHECK (same_index (file, reference));
  exercise (file);
  g_clear_object (&file);

  /* the same with times and recs checked after the first frame */
  file = cpel_file_new_for_bytes_with_cache_full (capture, cache, check_sums, TRUE, &load, &error);
  FUZZ_CHECK (file != NULL && error == NULL);
  if (load == CPEL_INDEX_CACHE_USED)
    {
      FUZZ_CHECK (cpel_file_index_is_unverified (file) && !cpel_file_is_damaged (file));
      exercise_unchecked (file);
      if (cpel_file_verify_index (file, NULL))
        {
          FUZZ_CHECK (!cpel_file_is_damaged (file));
          if (must_match)
            FUZZ_CHECK (same_index (file, reference));
          exercise (file);
        }
      else
        FUZZ_CHECK (cpel_file_is_damaged (file) && cpel_file_index_cache_is_damaged (file));
      FUZZ_CHECK (!cpel_file_index_is_unverified (file));
    }
  else
    {
      FUZZ_CHECK (same_index (file, reference));
      exercise (file);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree guint8 *copy = NULL;

  /* 1. as given: with the checksums, what is used is the real index */
  try_cache (data, size, TRUE, TRUE);
  if (size < sizeof (CpelIndexCacheHeader))
    return 0;
  /* 2. and 3. hostile: the right key, checksums recomputed / ignored */
  copy = g_memdup2 (data, size);
  memcpy (copy + G_STRUCT_OFFSET (CpelIndexCacheHeader, key), &key, sizeof key);
  cpel_index_cache_reseal (copy, size);
  try_cache (copy, size, TRUE, FALSE);
  try_cache (copy, size, FALSE, FALSE);
  return 0;
}
