/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-private.h — CpelFile internals shared by the loader, the index,
 * the merge iterator and search */
#pragma once

#include "cpel-file.h"
#include "cpel-u32map.h"

/* Track ids below this are looked up in a direct table (256 KB a map): the
 * index build looks one up for every event, and captures of 10^4 threads
 * or CPUs number them from 0. */
#define CPEL_FILE_TRACKS_DIRECT 65536u

#include <string.h>

G_BEGIN_DECLS

#define CPEL_EVENT_RECORD_SIZE 20

typedef struct
{
  const char *name;       /* the table's first string (points into the mapping) */
  CpelStrtab  tab;
} CpelStrtabEntry;

typedef struct
{
  const guint8     *records;      /* first record in the mapping */
  guint32           count;
  guint64           first_index;  /* file_index of the first record */
  guint64           tps;          /* ticks per second used */
  const CpelStrtab *strtab;       /* table for %s in datums, or NULL */
  gboolean          sorted;       /* records in time order (known after the first pass) */
  guint32           window;       /* cpel_file_check_nearly_ordered: each record is at or
                                   * after every record `window` or more before it */
} CpelEventSection;

typedef struct
{
  guint32  id;
  char    *label;
  guint64  first;     /* first position in times[] / recs[] */
  guint64  count;
} CpelTrack;

typedef struct
{
  guint32     code;
  gboolean    defined;
  char       *name;
  CpelFormat *datum_format;
  guint64     count;
} CpelType;

struct _CpelFile
{
  GObject parent_instance;

  char             *path;
  GMappedFile      *mapped;
  guint             guard_id;       /* cpel-mapguard registration, 0 = none */
  GBytes           *bytes;
  const guint8     *data;
  gsize             size;

  gboolean          little_endian;
  guint             version;
  guint32           date;

  GArray           *sections;       /* CpelSectionInfo */
  GStringChunk     *chunk;          /* table names of sections */
  guint             n_warnings;     /* including the ones not kept */
  GPtrArray        *warnings;       /* char*, NULL-terminated */

  GArray           *strtabs;        /* CpelStrtabEntry */
  CpelSymbol       *symbols;
  gsize             n_symbols;
  CpelSymtab        symtab;

  CpelEventSection *evsecs;
  guint             n_evsecs;
  guint64           n_events;

  CpelTrack        *tracks;
  guint             n_tracks;
  CpelU32Map       *track_map;      /* id -> slot */

  CpelType         *types;
  guint             n_types;
  CpelU32Map       *type_map;       /* code -> type */

  gint64           *times;          /* n_events, track-major, each track in time order */
  guint32          *recs;           /* n_events, file index of each */
  /* Where times / recs live when this file built them (cpel-index-store.c) */
  int               index_home;     /* CpelIndexHome */
  guint8           *index_map;      /* a shared file mapping: times, then recs */
  gsize             index_map_len;
  guint             index_guard_id; /* its cpel-mapguard registration */
  int               index_fd;       /* the cache file being written (CACHE_FILE), or -1 */
  char             *index_tmp;      /* its temporary name, renamed when stored */
  guint64           index_times_offset; /* where times start in it */

  /* A deferred index (CpelLoadOptions.defer_index): the first pass is done,
   * times / recs are NULL until cpel_file_ensure_index(). */
  GMutex            index_lock;
  guint             n_threads;
  guint             n_deferred_chunks;
  guint64          *deferred_next;  /* per chunk, per slot: first write position */
  gboolean          time_ordered;   /* every event section is in time order */
  gint              tracks_in_file_order; /* atomic: 0 not known yet, 1 every track's
                                           * events in time order in file order (its
                                           * recs[] ascending), 2 not (cpel-file.c) */
  gboolean          nearly_ordered; /* checked: each section within its window */

  gint64            base_ns;
  gint64            duration;

  /* Extension sections (doc/cpel-extensions.md) */
  const guint8     *text_offsets;   /* event texts: u32 per event, file order */
  guint64           text_first;     /* file_index of the first offset */
  guint64           text_count;
  const char       *texts;          /* the texts area */
  gsize             texts_len;
  GPtrArray        *source_info;    /* char*: key, value, … (NULL = no section) */
  /* call chains (cpel-file-chains.c) */
  const guint8     *chain_offsets;  /* u32 per event: word offset of its chain, or ~0 */
  guint64           chain_first;
  guint64           chain_count;
  const guint8     *chain_frames;   /* 16 octets each: ip (high, low word), symbol, dso */
  guint32           chain_n_frames;
  const guint8     *chain_words;    /* chains: a length, then that many frame numbers */
  guint32           chain_n_words;
  const char       *chain_strings;  /* NUL-terminated UTF-8, the area ends with a NUL */
  gsize             chain_strings_len;
  CpelTextSource   *lazy_texts;     /* imported: texts made from the source when asked */
  const char       *imported_from;  /* importer id when the file on disk was not CPEL */
  guint64           source_size;    /* size of that file (a folder's: its files') */

  /* The persisted index (cpel-index-cache.c) */
  gboolean          cache_wanted;
  char             *cache_dir;
  guint64           cache_max_bytes;
  guint64           cache_min_events;
  guint64           cache_tps;      /* the clock override the index was built with */
  GMappedFile      *cache_mapped;   /* times / recs point into it (or into cache_bytes) */
  GBytes           *cache_bytes;    /* cache given in memory (tests, fuzzing) */
  gboolean          cache_check_sums;
  guint             cache_guard_id;
  int               cache_load;     /* CpelIndexCacheLoad */
  int               cache_write;    /* CpelIndexCacheWrite */
  gboolean          cache_verify_later; /* CpelLoadOptions.cache_verify_later */
  gboolean          cache_store_later;  /* CpelLoadOptions.cache_store_later */
  gint              cache_store_pending; /* built in memory, cpel_file_store_index () to write it (atomic) */
  gint              cache_deferred_claimed; /* cpel_file_claim_deferred_cache () (atomic) */
  int               cache_writer_policy; /* the last store's thread (-1: none yet) */
  int               cache_writer_ioprio;
  guint             cache_write_chunks;
  struct _CpelLodStored *cache_lod; /* n_tracks summaries from the cache (cum into it), or NULL */
  const guint64    *cache_overview; /* CPEL_INDEX_CACHE_OVERVIEW_BUCKETS counts in the cache, or NULL */
  guint64          *overview_counts; /* the same counted from an index built here, or NULL */
  struct _CpelIndexCacheBulk *cache_bulk; /* times / recs not checked yet (verify later), or NULL */
  gint              cache_bad;      /* atomic: the deferred check failed */
  gint64            frame_at_us;    /* atomic (__atomic_*): cpel_file_note_frame () */

  /* Derived data built on first use, freed with the file (each made under
   * its maker's lock) */
  struct _CpelLod  *lod;            /* cpel_lod_get_for_file () */
  struct _CpelSearchFileInfo *search_info; /* cpel-search-scan.c */
  GMutex            render_cache_lock;
  gpointer          render_cache;   /* cpel_file_ensure_render_cache () */
  GDestroyNotify    render_cache_destroy;
};

/* Whether every track's events are in time order in file order, so that
 * the index gives each track's events in file order (its recs[] ascending):
 * known from the index build, else found once with a pass over recs[]
 * (an index read from a cache).  FALSE without an index. */
gboolean cpel_file_tracks_in_file_order (CpelFile *self);

/* Free the derived data above (their makers' files). */
void cpel_lod_free         (struct _CpelLod *lod);
void cpel_search_file_info_free (struct _CpelSearchFileInfo *info);

/* A track's level-of-detail summary as the cache stores it (cpel-lod.c). */
typedef struct _CpelLodStored
{
  gint64          origin;
  guint64         span;
  guint           shift;
  guint64         n_buckets;
  const guint32  *cum;              /* n_buckets + 1 */
} CpelLodStored;

/* The summary of track `slot` (built now if not built yet), for the cache
 * writer: *out points into the summaries, which the file keeps. */
void     cpel_lod_export_stored  (CpelFile *self, guint slot, CpelLodStored *out);

/* Appends the event's full text (the texts extension, or made from the
 * imported source when asked); FALSE when the event has none.  Any thread. */
gboolean cpel_file_append_event_text (const CpelFile *self, guint64 file_index, GString *out);
/* The call chains extension section (cpel-file-chains.c): checked, or
 * ignored with a warning. */
void     cpel_file_parse_call_chains (CpelFile *self, CpelSectionInfo *info);
void     _cpel_label_drop_repeated_name (GString *out, gsize text_start, const char *name);

static inline guint32
cpel_file_read32 (const CpelFile *self, const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return self->little_endian ? GUINT32_FROM_LE (v) : GUINT32_FROM_BE (v);
}

/* The event section holding file_index. */
static inline const CpelEventSection *
cpel_file_section_of (const CpelFile *self, guint64 file_index, guint *section)
{
  guint lo = 0, hi = self->n_evsecs;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (self->evsecs[mid].first_index <= file_index)
        lo = mid;
      else
        hi = mid;
    }
  if (section)
    *section = lo;
  return &self->evsecs[lo];
}

static inline const guint8 *
cpel_file_record (const CpelFile *self, guint64 file_index, guint *section)
{
  const CpelEventSection *s;

  /* A record index from a cache not verified yet (cache_verify_later) may
   * be anything: never read outside the records. */
  if (G_UNLIKELY (file_index >= self->n_events) && self->n_events > 0)
    file_index = self->n_events - 1;
  s = cpel_file_section_of (self, file_index, section);
  return s->records + (file_index - s->first_index) * CPEL_EVENT_RECORD_SIZE;
}

/* floor(ticks * 10^9 / tps), exact, saturating at G_MAXINT64. */
gint64   cpel_ticks_to_ns        (guint64 ticks, guint64 tps);

/* Exact division by a divisor fixed per event section, without a divide
 * instruction: a multiply-high by a precomputed magic number (Granlund &
 * Montgomery; the "branchfree" unsigned 64-bit form as in libdivide).
 * Valid for every 64-bit numerator. */
typedef struct
{
  guint64 d;
  guint64 m;
  guint   shift;
  gboolean pow2;
} CpelDiv64;

static inline void
cpel_div64_init (CpelDiv64 *dv,
                 guint64    d)
{
  guint l;

  g_assert (d > 0);
  dv->d = d;
  dv->m = 0;
  if ((d & (d - 1)) == 0)
    {
      dv->pow2 = TRUE;
      dv->shift = (guint) __builtin_ctzll (d);
      return;
    }
  l = 64 - (guint) __builtin_clzll (d);                 /* 2^(l-1) < d < 2^l */
  dv->pow2 = FALSE;
  dv->shift = l - 1;
  /* m = floor(2^64 * (2^l - d) / d) + 1 */
  dv->m = (guint64) ((((unsigned __int128) ((l == 64 ? 0 : G_GUINT64_CONSTANT (1) << l) - d)) << 64) / d) + 1;
}

static inline guint64
cpel_div64 (const CpelDiv64 *dv,
            guint64          n)
{
  guint64 q, t;

  if (dv->pow2)
    return n >> dv->shift;
  q = (guint64) (((unsigned __int128) n * dv->m) >> 64);
  t = ((n - q) >> 1) + q;
  return t >> dv->shift;
}

/* cpel_ticks_to_ns () with the section's divider: floor(ticks * 10^9 / tps),
 * saturating. */
static inline gint64
cpel_div64_ticks_to_ns (const CpelDiv64 *dv,
                        guint64          ticks)
{
  guint64 q, r;

  if (dv->d >= G_GUINT64_CONSTANT (18000000000))
    return cpel_ticks_to_ns (ticks, dv->d);
  q = cpel_div64 (dv, ticks);
  r = ticks - q * dv->d;
  if (q > (guint64) G_MAXINT64 / 1000000000)
    return G_MAXINT64;
  q *= 1000000000;
  r = cpel_div64 (dv, r * 1000000000);   /* r * 10^9 < 2^64 */
  if (q > (guint64) G_MAXINT64 - r)
    return G_MAXINT64;
  return (gint64) (q + r);
}

static inline guint64
cpel_file_record_ticks (const CpelFile *self,
                        const guint8   *rec)
{
  return (guint64) cpel_file_read32 (self, rec) << 32 | cpel_file_read32 (self, rec + 4);
}

void     cpel_file_warn          (CpelFile *self, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Gives back the mapped pages wholly inside [from, to) once a pass over
 * the records has read them: they stay in the page cache, and touching
 * them again maps them again without reading the disk.  So a pass over all
 * records (the index build, a search) does not leave the whole mapping
 * resident: 20 bytes per event.  Files loaded from memory are left alone. */
void     cpel_file_drop_pages    (const CpelFile *self, const guint8 *from, const guint8 *to);
/* Build the per-track index from the validated event sections; with
 * `defer`, only the first pass (tracks, types, counts, time span, which
 * sections are in time order): cpel_file_fill_index () does the rest. */
gboolean cpel_file_build_index   (CpelFile *self, guint n_threads, gboolean defer,
                                  GCancellable *cancellable,
                                  CpelProgressFunc progress, gpointer progress_data,
                                  GError **error);
/* The rest of a deferred build: times[] and recs[]. */
gboolean cpel_file_fill_index    (CpelFile *self, GCancellable *cancellable,
                                  CpelProgressFunc progress, gpointer progress_data,
                                  GError **error);
/* In a time-ordered event section: the first record whose time (as in the
 * index: ns since the earliest event) is >= t. */
guint64  cpel_file_section_lower_bound (CpelFile *self, guint section, gint64 t);
/* Index memory: anonymous, with transparent huge pages asked for. */
gpointer cpel_index_alloc        (gsize size);
void     cpel_index_free         (gpointer mem, gsize size);

/* ---- cpel-index-store.c: where a built index lives ---- */
typedef enum
{
  CPEL_INDEX_HOME_NONE,         /* not built here (none yet, or the cache's) */
  CPEL_INDEX_HOME_MEMORY,       /* anonymous memory */
  CPEL_INDEX_HOME_TEMP_FILE,    /* an unlinked temporary file, mapped shared */
  CPEL_INDEX_HOME_CACHE_FILE,   /* the cache file being written, mapped shared */
} CpelIndexHome;

/* Sets times / recs (n_events each) for a build: in the cache file being
 * written when the cache is wanted, in a temporary file when the index is
 * big for this machine, else in anonymous memory. */
void     cpel_index_store_alloc  (CpelFile *self);
/* Frees what cpel_index_store_alloc () set (the cache file being written:
 * removed unless stored). */
void     cpel_index_store_free   (CpelFile *self);
/* A pass over the index is done with [from, to) of times or recs: a home
 * in a file gives those pages back (they stay in the page cache, and the
 * kernel writes them back when it needs the memory); memory keeps them. */
void     cpel_index_store_drop   (const CpelFile *self, const void *from, const void *to);
/* Bytes of a file index above which it goes to a temporary file: a
 * quarter of the machine's memory, or CPEL_INDEX_FILE_MIN_MB. */
guint64  cpel_index_store_file_min (void);

/* The persisted index (cpel-index-cache.c).  In load(): tries the cache as
 * the options say; TRUE when the index came from it (tracks, types, times,
 * recs, time span and section order all set), FALSE with `self` untouched. */
gboolean cpel_index_cache_try_load (CpelFile *self, const CpelLoadOptions *options);
/* For a deferred index (cpel_file_ensure_index ()): times and recs from a
 * cache that agrees with the first pass; FALSE: fill as usual. */
gboolean cpel_index_cache_try_fill (CpelFile *self);
/* For an index built here: its CPEL_INDEX_CACHE_OVERVIEW_BUCKETS overview
 * counts into overview_counts (once; one pass over the times, their pages
 * given back).  Done when the cache is written, and for an index in a
 * file: the viewer's overview then reads no event time. */
void     cpel_index_cache_count_overview (CpelFile *self);
/* Before the index is built: when the cache is wanted and may hold it,
 * creates the cache file's temporary file with room for the index at
 * *times_offset (its place whatever the summaries' size), and returns its
 * descriptor; else -1.  *tmp_path: its name (g_free). */
int      cpel_index_cache_begin    (CpelFile *self, guint64 *times_offset, char **tmp_path);
/* After the whole index was built: when the cache is wanted, marks it to
 * be written by cpel_file_store_index () (for an index built in the cache
 * file: its head, then the rename), which the loader or the viewer calls
 * as a step of its own. */
void     cpel_index_cache_store    (CpelFile *self);
/* In finalize: drops the cache mapping (times / recs with it). */
void     cpel_index_cache_release  (CpelFile *self);
/* Whether times / recs belong to a cache (not to be freed). */
#define  cpel_file_index_is_cached(self) ((self)->cache_mapped != NULL || (self)->cache_bytes != NULL)
/* Whether times / recs are in a file mapping (built in one, or the cache's):
 * their pages may have to come from the disk. */
#define  cpel_file_index_in_file(self) ((self)->index_map != NULL || (self)->cache_mapped != NULL)

/* cpel_merge_new () over event section `section` alone, of a file read
 * without its index that can stream (cpel_file_can_stream ()): that
 * section's events from `from` on in (time, file index) order, a nearly
 * ordered one through its reorder heap (the cut's streaming path). */
CpelMerge *cpel_merge_new_section (CpelFile *self, guint section, const guint *slots,
                                   guint n_slots, gint64 from);

/* The track slots an analysis is limited to (NULL: every track): each must
 * exist and come once, else FALSE with CPEL_ERROR_INVALID in *error. */
gboolean cpel_file_check_slots   (CpelFile *self, const guint *slots, guint n_slots,
                                  GError **error);

/* ---- cpel-file-parse.c: the sections read and checked, in this order ---- */

/* A definition waiting for the index: a track's or an event type's key and
 * formats. */
typedef struct
{
  guint32     key;
  CpelFormat *format1;   /* event format / track format */
  CpelFormat *format2;   /* datum format */
  const CpelStrtab *tab;
} PendingDef;

gboolean cpel_file_parse_header         (CpelFile               *self,
                                         guint                  *n_sections,
                                         GError                **error);
gboolean cpel_file_parse_sections       (CpelFile               *self,
                                         guint                   n_sections,
                                         GError                **error);
gboolean cpel_file_parse_string_tables  (CpelFile               *self,
                                         GError                **error);
/* Event type and track definitions into `event_defs` / `track_defs`
 * (PendingDef, cleared with cpel_file_clear_pending_def). */
gboolean cpel_file_parse_definitions    (CpelFile               *self,
                                         GArray                 *event_defs,
                                         GArray                 *track_defs,
                                         GError                **error);
gboolean cpel_file_parse_event_sections (CpelFile               *self,
                                         const CpelLoadOptions  *options,
                                         GError                **error);
/* The keys of `defs` appended to `keys` (guint32). */
void     cpel_file_add_defined_keys     (GArray                 *defs,
                                         GArray                 *keys);
void     cpel_file_clear_pending_def    (gpointer                def);
/* Labels of tracks and names of types, once the index knows every id/code. */
void     cpel_file_apply_definitions    (CpelFile               *self,
                                         GArray                 *event_defs,
                                         GArray                 *track_defs);

G_END_DECLS
