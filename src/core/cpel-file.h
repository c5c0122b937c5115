/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file.h — a loaded, validated and indexed CPEL file
 *
 * The file is memory-mapped; every count, offset and length is checked
 * before use.  Events of all event sections are merged into one timeline:
 * times are 64-bit nanoseconds relative to the earliest event (which is at
 * 0), computed exactly per section as floor(ticks * 10^9 / ticks_per_second).
 *
 * Tracks are numbered by "slot" 0..n_tracks-1 in ascending track-id order;
 * every defined track and every track id used by an event has a slot.
 * Event types are numbered 0..n_types-1 in ascending code order; every
 * defined code and every code used by an event has a type.
 *
 * Each track's events are kept in time order (stable: file order breaks
 * ties) and addressed by their index 0..n-1 within the track.
 */
#pragma once

#include <gio/gio.h>

#include "cpel-error.h"
#include "cpel-format.h"
#include "cpel-time.h"

G_BEGIN_DECLS

#define CPEL_TYPE_FILE (cpel_file_get_type ())
G_DECLARE_FINAL_TYPE (CpelFile, cpel_file, CPEL, FILE, GObject)

/* Limits; a file beyond them is rejected with CPEL_ERROR_TOO_LARGE. */
#define CPEL_MAX_EVENTS  G_GUINT64_CONSTANT (0xFFFFFFFF)   /* 2^32 - 1 */

typedef struct
{
  /* Override every event section's clock (ticks per second); 0 = the file's. */
  guint64  ticks_per_second;
  /* Threads used to build the index; 0 = number of processors. */
  guint    n_threads;
  /* Only the first pass over the events (tracks, types, counts, time span,
   * whether the event sections are in time order): the per-track index is
   * built by cpel_file_ensure_index ().  For streaming (cpel_merge_*() on a
   * time-ordered file needs no index); every other reader of the events
   * needs cpel_file_ensure_index () first. */
  gboolean defer_index;
  /* The persisted index (cpel-index-cache.h): read the index from a valid
   * cache file when there is one, write one after building it.  Only for
   * CPEL files opened by path; off by default. */
  gboolean    use_cache;
  const char *cache_dir;         /* NULL: cpel_index_cache_get_default_dir () */
  guint64     cache_max_bytes;   /* cap on the dir's total; 0: the default */
  guint64     cache_min_events;  /* smaller files are not cached; 0: the default */
  /* With a cache: check its small parts (meta, overview, level-of-detail
   * summaries, block table) on load, but its times and record indices
   * (12 bytes per event) only in cpel_file_verify_index (), called later,
   * so that a re-open is not bounded by the event count.  Until then the
   * index is memory-safe (every record index is bounds-checked on use)
   * but not known to be right; see cpel_file_verify_index (). */
  gboolean    cache_verify_later;
  /* With a cache: an index that fits in memory (below a quarter of it, as
   * without a cache) is built in memory and written to the cache by
   * cpel_file_store_index (), called later (a viewer: after its first
   * frame), instead of being built in the cache file (whose first writes
   * cost the build about as much again).  Bigger ones are built in the
   * cache file as usual, and their cache too is completed (its head, the
   * rename) by cpel_file_store_index ().  Without it, cpel_file_new_for_path ()
   * stores the cache as its last step (CPEL_LOADER_STEP_STORE); a CpelFile
   * itself never writes the cache. */
  gboolean    cache_store_later;
} CpelLoadOptions;

/* Called from the thread doing the work (loading, searching) with a fraction
 * in [0,1], non-decreasing. */
typedef void (*CpelProgressFunc) (double fraction, gpointer user_data);

typedef enum
{
  CPEL_SECTION_STRING_TABLE = 1,
  CPEL_SECTION_SYMBOL_TABLE = 2,
  CPEL_SECTION_EVENT_DEFS   = 3,
  CPEL_SECTION_TRACK_DEFS   = 4,
  CPEL_SECTION_EVENTS       = 5,
} CpelSectionType;

/* Extension section types (doc/cpel-extensions.md); other readers skip them. */
#define CPEL_SECTION_EXT_SOURCE_INFO 0x43500001u   /* "CP" 00 01 */
#define CPEL_SECTION_EXT_EVENT_TEXTS 0x43500002u   /* "CP" 00 02 */
#define CPEL_SECTION_EXT_CALL_CHAINS 0x43500003u   /* "CP" 00 03 */

typedef struct
{
  guint32      type;            /* CpelSectionType or unknown */
  guint64      offset;          /* file offset of the section's 8-octet TLV header */
  guint32      length;          /* data length N */
  guint32      count;           /* records (symbols, defs, events); 0 otherwise */
  const char  *table_name;      /* string table name (own name for type 1), or NULL */
  guint64      ticks_per_second;/* events sections: the rate used */
  gboolean     clock_per_us;    /* events sections: the file's value was read as ticks/µs */
} CpelSectionInfo;

/* One event, as read from the file. */
typedef struct
{
  gint64   time_ns;     /* ns since the earliest event in the file */
  guint64  file_index;  /* position in file order over all event sections */
  guint32  track_id;
  guint32  code;
  guint32  datum;
  guint    track_slot;
  guint    type;        /* event type index */
  guint    section;     /* event section number (0-based, among event sections) */
} CpelEvent;

/* Files of any supported format open through the import layer
 * (cpel-loader.h: cpel_file_new_for_path (), cpel_file_new_for_bytes ()),
 * which detects the format and comes here with CPEL. */

/* A CPEL file on disk, mapped (CpelLoadOptions: the index cache too). */
CpelFile     *cpel_file_new_for_cpel_path  (const char             *path,
                                            const CpelLoadOptions  *options,
                                            GCancellable           *cancellable,
                                            CpelProgressFunc        progress,
                                            gpointer                progress_data,
                                            GError                **error);
/* The regular file at `path` mapped read-only, or NULL with a short message
 * for the usual failures ("No such file", "This is a folder, not a file",
 * …: the caller names the path; GLib's own messages repeat it). */
GMappedFile  *cpel_map_regular_file        (const char             *path,
                                            GError                **error);
/* CPEL in memory (the bytes are kept referenced). */
CpelFile     *cpel_file_new_for_cpel_bytes (GBytes                 *bytes,
                                            const CpelLoadOptions  *options,
                                            GError                **error);

/* Where the texts of an imported file's events come from when its CPEL has
 * no texts section: they are made from the source when asked. */
typedef struct
{
  /* Appends the text of event `file_index` (CPEL file order); FALSE: none.
   * Any thread, at any time while the file lives; read-only on state. */
  gboolean (*append_text) (gconstpointer state, guint64 file_index, GString *out);
  /* Optional: TRUE once what the texts are made from changed under them
   * (cpel_file_is_damaged () then says so). */
  gboolean (*is_damaged)  (gconstpointer state);
  void     (*destroy)     (gpointer state);
  gpointer   state;
} CpelTextSource;

/* What CPEL made in memory from another format was made from. */
typedef struct
{
  const char            *path;          /* the source (file or folder), or NULL */
  const char            *imported_from; /* the importer's id ("elog", …) */
  guint64                source_size;   /* bytes of the source (a folder's: its files') */
  /* NULL: the texts, if any, are in the bytes.  Copied; the file owns
   * texts->state from the call on, also when it fails. */
  const CpelTextSource  *texts;
} CpelFileOrigin;

/* CPEL bytes an importer made (kept referenced).  Of the options only
 * n_threads counts: the importer applied the clock, no cache is used. */
CpelFile     *cpel_file_new_imported       (GBytes                 *bytes,
                                            const CpelFileOrigin   *origin,
                                            const CpelLoadOptions  *options,
                                            GCancellable           *cancellable,
                                            CpelProgressFunc        progress,
                                            gpointer                progress_data,
                                            GError                **error);

/* TRUE when the mapped file shrank while open (someone truncated or rewrote
 * it): the data from some point on reads as zeros. The view should offer to
 * reload. Never TRUE for files loaded from bytes. */
/* Whether the per-track index is built (always, unless defer_index). */
gboolean      cpel_file_has_index          (CpelFile *self);
/* Builds a deferred index (safe from several threads); TRUE at once when it
 * is there.  FALSE only when cancelled. */
gboolean      cpel_file_ensure_index       (CpelFile *self, GCancellable *cancellable,
                                            GError **error);
/* Whether every event section is in time order (file order within each):
 * then the file can be read in time order as a merge of its sections. */
gboolean      cpel_file_is_time_ordered    (CpelFile *self);
/* Whether a file whose sections are not all in time order is nearly so, as
 * captures merged from per-CPU buffers are: in every event section each
 * record at or after every record CPEL_REORDER_WINDOW or more places before
 * it.  Reads the sections that are out of order once, sequentially, giving
 * the pages back (stops at the first record too far out of place).  When
 * TRUE the file is read without an index like a time-ordered one
 * (cpel_merge_*(), cpel_stats_compute()), each such section through a
 * reorder heap of its window: the same events in the same order.  TRUE at
 * once for a time-ordered file; FALSE when cancelled or out of order.
 * Call it before the file is shared between threads. */
#define CPEL_REORDER_WINDOW 4096
gboolean      cpel_file_check_nearly_ordered (CpelFile *self, GCancellable *cancellable);
/* The file can be read in time order without its index: time-ordered, or
 * found nearly ordered by cpel_file_check_nearly_ordered(). */
gboolean      cpel_file_can_stream         (CpelFile *self);
gboolean      cpel_file_is_damaged         (CpelFile *self);
/* What happened with the persisted index on load (CpelLoadOptions.use_cache)
 * and after the index was built. */
int           cpel_file_get_cache_load     (CpelFile *self);   /* CpelIndexCacheLoad */
/* Checks what CpelLoadOptions.cache_verify_later left unchecked (at once:
 * TRUE when nothing is left).  FALSE when cancelled (still unchecked) or
 * when the check failed: then the cache file is removed (so that a reload
 * rebuilds the index), cpel_file_is_damaged () and
 * cpel_file_index_cache_is_damaged () are TRUE from then on, and the
 * caller should tell the user to reload.  Thread-safe; for a worker. */
gboolean      cpel_file_verify_index       (CpelFile     *self,
                                            GCancellable *cancellable);
/* Writes the index built here to the cache, once (later calls return FALSE
 * at once); see cpel_file_get_cache_write ().  FALSE when there was nothing
 * to write, when cancelled (nothing is left behind) or when it could not be
 * written.  The write runs in a thread of its own at the lowest CPU and I/O
 * priority, in bounded chunks, and this waits for it.  Thread-safe against
 * readers of the file; for a worker. */
gboolean      cpel_file_store_index        (CpelFile     *self,
                                            GCancellable *cancellable);
/* TRUE while cpel_file_store_index () has an index to write. */
gboolean      cpel_file_index_store_is_pending (CpelFile *self);
/* TRUE once, to the first caller, when the load left a step of the index
 * cache for later (an index from the cache to check, or one built in memory
 * to write); FALSE after that and for other files.  The caller runs the
 * steps (cpel_loader_run_deferred_cache_async ()).  Any thread. */
gboolean      cpel_file_claim_deferred_cache (CpelFile *self);
/* TRUE when the file's index came from a cache not checked in full yet. */
gboolean      cpel_file_index_is_unverified (CpelFile *self);
/* A frame of this file was just drawn: cpel_file_verify_index () steps aside
 * (sleeps between its blocks) until no frame came for a moment, so that a
 * user zooming a re-opened capture gets the disk and the CPU; after a
 * second of stepping aside it takes its turn for a while (a view that never
 * stops drawing does not stop the check).  Any thread. */
void          cpel_file_note_frame         (CpelFile *self);
/* TRUE once cpel_file_verify_index () found the cache damaged. */
gboolean      cpel_file_index_cache_is_damaged (CpelFile *self);
/* The overview's CPEL_INDEX_CACHE_OVERVIEW_BUCKETS (4096) bucket counts as
 * stored with the index, or counted when the index was written to the cache
 * or built in a file (events per bucket b of [0, duration + 1), bucket b
 * starting at ceil((duration + 1) · b / 4096)), or NULL when there is none:
 * the overview need not read the events. */
const guint64 *cpel_file_get_stored_overview (CpelFile *self, guint n_buckets);
int           cpel_file_get_cache_write    (CpelFile *self);   /* CpelIndexCacheWrite */

/* The drawing layer's per-file cache (src/render keeps the last frame's
 * density counts there): made by create () on the first call, freed by
 * destroy () with the file.  Later calls return the same pointer (create
 * and destroy must be the same every call).  Any thread. */
gpointer      cpel_file_ensure_render_cache (CpelFile       *self,
                                             gpointer      (*create) (void),
                                             GDestroyNotify  destroy);

/* Imported files (doc/cpel-extensions.md).  A VPP elog, Snabb timeline, …
 * opens through its importer (the import layer, src/core/import): the file
 * is then CPEL made in memory, with two extension sections that a converted
 * file keeps. */
/* The importer id ("elog", "snabb", …) when the file on disk was not CPEL, else NULL. */
const char   *cpel_file_get_imported_from  (CpelFile *self);
/* Size of the file on disk (the source file for imported files; for a
 * folder, a CTF trace, the bytes of its files). */
guint64       cpel_file_get_source_size    (CpelFile *self);
/* The source format's display name (translated) when the file is or was
 * imported (also for a converted file), else NULL. */
const char   *cpel_file_get_source_format  (CpelFile *self);
/* A value of the source-information section: "clock" (exact, derived,
 * user, unknown), "clock-description", "lost-events", or a header key. */
const char   *cpel_file_get_source_value   (CpelFile *self, const char *key);
/* CPEL_TIME_KIND_TICKS when the source's clock rate is unknown ("clock" is
 * "unknown") and no rate was given on opening: the times are ticks, read as
 * one tick = one ns, to be shown as ticks (cpel_time_format_kind). */
CpelTimeKind  cpel_file_get_time_kind      (CpelFile *self);
/* Whether the times count ticks of a clock whose rate a reader may set
 * ("Read with Different Clock Rate…", --clock-rate): a CPEL file's own
 * sections, a source whose rate was given or is unknown (Snabb without
 * engine.got_monotonic_time).  FALSE for sources whose times are seconds
 * or ns already (elog, perf, CTF, and files converted from them) and for a
 * rate the source gives (Snabb's derived TSC rate). */
gboolean      cpel_file_has_clock_rate     (CpelFile *self);
/* When the capture started, in ns since 1970 UTC, as its source says (an
 * elog's wall-clock start, a perf.data recording with a wall-clock
 * reference, a CTF clock counting from the Unix epoch); FALSE when it does
 * not say (never the file's modification time). */
gboolean      cpel_file_get_capture_start  (CpelFile *self,
                                            gint64   *unix_ns);
/* The capture's own clock at t = 0 (the earliest event), as its source
 * says (doc/cpel-extensions.md, `clock-origin`): perf.data's sample clock
 * (seconds since boot by default, what `perf script` prints), an elog's
 * wall clock, a CTF clock (its offset from its origin applied), a Snabb
 * timeline's CLOCK_MONOTONIC (from engine.got_monotonic_time).  An event's
 * time on that clock is *origin_ns + its time.  CPEL_CLOCK_NONE (origin 0)
 * when the source does not say, or the times were read with another clock
 * rate. */
CpelClockKind cpel_file_get_clock_origin   (CpelFile *self,
                                            gint64   *origin_ns);
/* The capture's clock in words, for File Information and `cpel info`:
 * "seconds since boot, first event at 2584.361365612 s" (perf, Snabb),
 * "seconds of the source’s clock, first event at 12.5 s" (other sources),
 * "wall clock, first event at 2026-11-26 09:11:13.604387861 UTC"; NULL
 * when the capture has none (cpel_file_get_clock_origin). */
char         *cpel_file_describe_clock_origin (CpelFile *self);
/* The source format's header: key, value, key, value, …, NULL (g_strfreev). */
char        **cpel_file_dup_source_header  (CpelFile *self);
/* TRUE when events carry their full text (the datum shown is that text). */
gboolean      cpel_file_has_event_texts    (CpelFile *self);

/* Call chains (perf record -g; the call chains extension section): the
 * stack of an event, innermost frame first, as `perf script` prints it. */
typedef struct
{
  guint64      ip;         /* the address sampled or returned to */
  const char  *symbol;     /* the function, or NULL when unknown ("[unknown]") */
  const char  *dso;        /* the binary ("[kernel.kallsyms]", a path), or NULL */
} CpelChainFrame;

/* TRUE when some events carry a call chain. */
gboolean      cpel_file_has_call_chains    (CpelFile *self);
/* The number of frames of the call chain of event `file_index` (0: none);
 * the first min(that, n_max) of them are stored in `frames` (may be NULL
 * when n_max is 0).  The strings live as long as the file.  Any thread. */
guint         cpel_file_get_event_chain    (CpelFile       *self,
                                            guint64         file_index,
                                            CpelChainFrame *frames,
                                            guint           n_max);

/* Header */
const char   *cpel_file_get_path           (CpelFile *self);   /* NULL for bytes */
guint64       cpel_file_get_size           (CpelFile *self);
guint         cpel_file_get_version        (CpelFile *self);
gboolean      cpel_file_is_little_endian   (CpelFile *self);
guint32       cpel_file_get_date           (CpelFile *self);

/* Sections in file order */
guint                  cpel_file_get_n_sections (CpelFile *self);
const CpelSectionInfo *cpel_file_get_section    (CpelFile *self, guint i);

/* Diagnostics that are not fatal (duplicate definitions, odd clock, unknown
 * sections, unsorted symbols...), each a translated, human-readable line. */
const char * const *cpel_file_get_warnings (CpelFile *self);   /* NULL-terminated */

/* Time.  An event's time is in ns since the earliest event, at most
 * CPEL_TIME_MAX (2^60 ns, about 36 years): a later one (a damaged
 * timestamp) reads as CPEL_TIME_MAX, with a warning, so that sums of a few
 * times and spans fit in 64 bits. */
#define CPEL_TIME_MAX (G_GINT64_CONSTANT (1) << 60)

guint64       cpel_file_get_n_events       (CpelFile *self);
gint64        cpel_file_get_duration       (CpelFile *self);   /* last event time (ns) */
gint64        cpel_file_get_base_ns        (CpelFile *self);   /* absolute ns of the earliest */

/* Tracks */
guint         cpel_file_get_n_tracks       (CpelFile *self);
guint32       cpel_file_get_track_id       (CpelFile *self, guint slot);
const char   *cpel_file_get_track_label    (CpelFile *self, guint slot);
gboolean      cpel_file_lookup_track       (CpelFile *self, guint32 id, guint *slot);
guint64       cpel_file_get_track_n_events (CpelFile *self, guint slot);
/* The track's event times in time order (n_events entries); valid for the
 * file's lifetime.  Read-only. */
const gint64 *cpel_file_get_track_times    (CpelFile *self, guint slot, guint64 *n_events);
/* First index whose time >= t (n_events when none). O(log n). */
guint64       cpel_file_track_lower_bound  (CpelFile *self, guint slot, gint64 t);
/* Number of events with t0 <= time < t1. O(log n). */
guint64       cpel_file_track_count_range  (CpelFile *self, guint slot, gint64 t0, gint64 t1);
/* Fill `event` with the index-th event of the track. */
void          cpel_file_get_track_event    (CpelFile *self, guint slot, guint64 index,
                                            CpelEvent *event);
/* The event's code / datum without filling a whole CpelEvent (hot paths). */
guint32       cpel_file_get_track_event_code  (CpelFile *self, guint slot, guint64 index);
guint32       cpel_file_get_track_event_datum (CpelFile *self, guint slot, guint64 index);
/* The track's events [lo, hi) are about to be read: their records' pages
 * read ahead without waiting (madvise MADV_WILLNEED), so that the rows of
 * a frame wait for one round of reads from the disk, not one per event.
 * For a few records (a frame's sparse rows); nothing for a file in memory. */
void          cpel_file_prefetch_track_records (CpelFile *self, guint slot, guint64 lo, guint64 hi);
/* A pass that read all over the index (the overview's search ticks: a
 * time per column, all over the capture) is done: an index in a file gives
 * its mapped pages back (they stay in the page cache, so reading them again
 * costs a minor fault, not the disk); nothing for an index in memory.
 * Any thread. */
void          cpel_file_release_index_pages (CpelFile *self);

/* Event types */
guint         cpel_file_get_n_types        (CpelFile *self);
guint32       cpel_file_get_type_code      (CpelFile *self, guint type);
const char   *cpel_file_get_type_name      (CpelFile *self, guint type);  /* event format applied */
guint64       cpel_file_get_type_n_events  (CpelFile *self, guint type);
gboolean      cpel_file_get_type_defined   (CpelFile *self, guint type);
gboolean      cpel_file_lookup_type        (CpelFile *self, guint32 code, guint *type);
/* The compiled datum format of a type (never NULL; empty when undefined). */
const CpelFormat *cpel_file_get_type_datum_format (CpelFile *self, guint type);

/* Labels */
/* Append the decoded datum of `event` (datum format applied to its datum). */
void          cpel_file_append_datum       (CpelFile *self, const CpelEvent *event, GString *out);
/* Append "name: datum", or "name" when the datum is empty. */
void          cpel_file_append_label       (CpelFile *self, const CpelEvent *event, GString *out);
/* The string table that %s in the datum of an event of `section` refers to. */
const CpelStrtab *cpel_file_get_event_strtab (CpelFile *self, guint section);
/* All symbols of all symbol tables, sorted by value. */
const CpelSymtab *cpel_file_get_symtab     (CpelFile *self);

/* Global time order: a k-way merge over tracks (stable: file order breaks
 * ties).  Iterate with cpel_merge_next().  On a file loaded without its
 * index that is in time order, a streaming merge over the event sections
 * (same order, bounded memory; `track_index` must then be NULL); on one
 * that is not, the index is built first. */
typedef struct _CpelMerge CpelMerge;
/* `slots` NULL = every track. Starts at the first event with time >= from. */
CpelMerge    *cpel_merge_new               (CpelFile *self, const guint *slots, guint n_slots,
                                            gint64 from);
gboolean      cpel_merge_next              (CpelMerge *merge, CpelEvent *event,
                                            guint64 *track_index);
void          cpel_merge_free              (CpelMerge *merge);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelMerge, cpel_merge_free)

G_END_DECLS
