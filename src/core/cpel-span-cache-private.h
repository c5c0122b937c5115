/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-cache-private.h — the derived spans, persisted beside the index
 *
 * Deriving the spans reads every event again; a warm re-open reads them
 * from a cache file instead.  One file per captured file and clock
 * override, in the index cache's dir and under its cap (cpel-index-cache.h):
 * "<32 hex digits>.cpelspans", the digits from the file's device, inode and
 * clock override; it holds the spans of one set of rules (their SHA-256 in
 * its header), and a store with other rules replaces it.  Used only
 * where the index cache is (CpelLoadOptions.use_cache, a CPEL file opened by
 * path with enough events) and only for the whole capture.
 *
 * Layout (native byte order, marked in the header; another order reads as
 * another version):
 *   header  CpelSpanCacheHeader (8-byte fields)
 *   table   per track { n_spans, n_states }                    (u64 each)
 *   names   per name its rule (u64), then every name NUL-terminated
 *           (names_size bytes), padded to 8 bytes
 *   records CpelSpan × n_records, each track's spans
 *           then its states, track after track
 * Checksums (cpel-index-cache-private.h's chain) of the table, the names,
 * the records and the header.
 *
 * Like any input, a cache file is checked in full before use: the key
 * (the captured file's identity, as for the index) and the rules' digest,
 * every count, offset and size against the file's length and the capture,
 * every record's event indices against its track's events, its name and
 * flags, and every checksum.  A file that fails is ignored (and replaced
 * by the next store).  The records are read into memory, never mapped: a
 * cache file changed afterwards cannot reach the viewer.
 */
#pragma once

#include "cpel-index-cache-private.h"
#include "cpel-spans.h"

G_BEGIN_DECLS

#define CPEL_SPAN_CACHE_MAGIC   "CPELSPN\n"
/* Also raised whenever the engine would derive other spans from the same
 * events and rules. */
#define CPEL_SPAN_CACHE_VERSION 1

typedef struct
{
  char              magic[8];
  guint64           version;
  guint64           byte_order;
  guint64           header_size;
  CpelIndexCacheKey key;
  guint8            rules_digest[32];
  guint64           n_tracks;
  guint64           n_events;
  guint64           n_names;
  guint64           names_size;     /* the names' bytes, NULs included */
  guint64           n_records;
  guint64           table_offset;
  guint64           names_offset;
  guint64           records_offset;
  guint64           file_size;
  guint64           table_sum;
  guint64           names_sum;
  guint64           records_sum;
  guint64           header_sum;     /* of every field above */
} CpelSpanCacheHeader;


/* Whether `file` keeps its spans (the index cache is on for it). */
gboolean   cpel_span_cache_wanted       (CpelFile *file);
/* The spans of the whole of `file` by `rules` from the cache, or NULL
 * (*status, when given, says why). */
CpelSpans *cpel_span_cache_load         (CpelFile           *file,
                                         CpelSpanRules      *rules,
                                         CpelIndexCacheLoad *status);
/* The same from a cache file's bytes and the key `file` must have
 * (tests, the fuzzer). */
CpelSpans *cpel_span_cache_load_data    (CpelFile                *file,
                                         CpelSpanRules           *rules,
                                         const CpelIndexCacheKey *key,
                                         const guint8            *data,
                                         gsize                    len,
                                         CpelIndexCacheLoad      *status);
/* Removes the cache file of `file`'s spans (its index was found damaged:
 * spans derived from it are not to be read again). */
void       cpel_span_cache_forget       (CpelFile *file);
/* Writes the cache file of `spans` (of a whole file) now. */
gboolean   cpel_span_cache_store        (CpelSpans *spans);
/* The bytes of that file under `key` (tests, the fuzzer's seeds). */
GBytes    *cpel_span_cache_serialize    (CpelSpans               *spans,
                                         const CpelIndexCacheKey *key);
/* Recomputes every checksum of a cache file's bytes in place, as a
 * hostile writer would (tests, the fuzzer); FALSE when its offsets do not
 * allow it. */
gboolean   cpel_span_cache_reseal       (guint8 *data, gsize len);
/* Writes it in a thread of its own (holding a reference to `spans`). */
void       cpel_span_cache_store_in_background (CpelSpans *spans);
/* The stores started in the background and not ended yet. */
guint      cpel_span_cache_get_n_running (void);
/* Waits until every store started in the background has ended. */
void       cpel_span_cache_wait         (void);

G_END_DECLS
