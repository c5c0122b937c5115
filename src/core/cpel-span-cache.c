/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-cache.c — the derived spans, persisted beside the index
 * (the layout and the checks: cpel-span-cache-private.h) */
#include "cpel-span-cache-private.h"
#include "cpel-tsan-private.h"

#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>

#include "cpel-span-rules.h"
#include "cpel-spans-private.h"

#ifdef G_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>
#endif


#define VALID_FLAGS \
  (CPEL_SPAN_NO_BEGIN | CPEL_SPAN_NO_END | CPEL_SPAN_INTERRUPTED | CPEL_SPAN_STATE)
/* Records read and checked at a time */
#define CHUNK_RECORDS (G_GUINT64_CONSTANT (1) << 20)

static guint64
header_sum (const CpelSpanCacheHeader *h)
{
  return cpel_index_cache_sum_bytes ((const guint8 *) h,
                                     G_STRUCT_OFFSET (CpelSpanCacheHeader, header_sum));
}

gboolean
cpel_span_cache_reseal (guint8 *data,
                          gsize   len)
{
  CpelSpanCacheHeader h;
  guint64 names_bytes;

  if (len < sizeof h)
    return FALSE;
  memcpy (&h, data, sizeof h);
  if (h.table_offset > len || h.n_tracks > (len - h.table_offset) / 16
      || h.names_offset > len || h.records_offset > len || h.records_offset < h.names_offset
      || (h.records_offset - h.names_offset) % 8 != 0
      || h.n_records > (len - h.records_offset) / sizeof (CpelSpan))
    return FALSE;
  names_bytes = h.records_offset - h.names_offset;
  h.table_sum = cpel_index_cache_sum_words (CPEL_INDEX_CACHE_SUM_SEED,
                                            data + h.table_offset, 16 * h.n_tracks);
  h.names_sum = cpel_index_cache_sum_words (CPEL_INDEX_CACHE_SUM_SEED,
                                            data + h.names_offset, names_bytes);
  h.records_sum = cpel_index_cache_sum_words (CPEL_INDEX_CACHE_SUM_SEED, data + h.records_offset,
                                              h.n_records * sizeof (CpelSpan));
  h.header_sum = header_sum (&h);
  memcpy (data, &h, sizeof h);
  return TRUE;
}

static void
rules_digest (CpelSpanRules *rules,
              guint8         digest[32])
{
  g_autofree char *text = cpel_span_rules_to_text (rules);
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = 32;

  g_checksum_update (sum, (const guchar *) text, strlen (text));
  g_checksum_get_digest (sum, digest, &len);
}

/* One file per capture and clock override, whatever the rules (those of
 * its header): other rules replace it, so that trying rules never fills
 * the cache dir and pushes the index out. */
static char *
path_for (CpelFile                *file,
          const CpelIndexCacheKey *key)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint64 id[3] = { key->dev, key->ino, key->tps_override };
  g_autofree char *name = NULL;
  char hex[33];

  g_checksum_update (sum, (const guchar *) id, sizeof id);
  g_checksum_update (sum, (const guchar *) "spans", 5);
  g_strlcpy (hex, g_checksum_get_string (sum), sizeof hex);
  name = g_strconcat (hex, CPEL_SPAN_CACHE_SUFFIX, NULL);
  return g_build_filename (file->cache_dir, name, NULL);
}

gboolean
cpel_span_cache_wanted (CpelFile *file)
{
  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);
  return file->cache_wanted && file->cache_dir != NULL && file->path != NULL
         && file->mapped != NULL && file->n_events >= file->cache_min_events
         && !g_atomic_int_get (&file->cache_bad);
}

/* ---- writing ------------------------------------------------------------- */

/* The header of `spans` under `key`, its sums and the table and names. */
static void
make_head (CpelSpans               *spans,
           const CpelIndexCacheKey *key,
           CpelSpanCacheHeader     *h,
           GByteArray              *table,
           GByteArray              *names)
{
  CpelFile *file = cpel_spans_get_file (spans);
  guint n_names = cpel_spans_get_n_names (spans);
  guint64 records_sum = CPEL_INDEX_CACHE_SUM_SEED;
  guint64 names_size = 0;

  memset (h, 0, sizeof *h);
  memcpy (h->magic, CPEL_SPAN_CACHE_MAGIC, 8);
  h->version = CPEL_SPAN_CACHE_VERSION;
  h->byte_order = CPEL_INDEX_CACHE_BYTE_ORDER_MARK;
  h->header_size = sizeof *h;
  h->key = *key;
  rules_digest (cpel_spans_get_rules (spans), h->rules_digest);
  h->n_tracks = file->n_tracks;
  h->n_events = file->n_events;
  h->n_names = n_names;
  h->n_records = cpel_spans_get_n_spans (spans);

  for (guint s = 0; s < file->n_tracks; s++)
    {
      guint64 v[2];
      const CpelSpan *a;

      a = cpel_spans_get_track_spans (spans, s, &v[0]);
      if (v[0] > 0)
        records_sum = cpel_index_cache_sum_words (records_sum,
                                                  (const guint8 *) a, v[0] * sizeof (CpelSpan));
      a = cpel_spans_get_track_states (spans, s, &v[1]);
      if (v[1] > 0)
        records_sum = cpel_index_cache_sum_words (records_sum,
                                                  (const guint8 *) a, v[1] * sizeof (CpelSpan));
      g_byte_array_append (table, (const guint8 *) v, sizeof v);
    }
  for (guint i = 0; i < n_names; i++)
    {
      guint64 r = cpel_spans_get_name_rule (spans, i);

      g_byte_array_append (names, (const guint8 *) &r, 8);
    }
  for (guint i = 0; i < n_names; i++)
    {
      const char *name = cpel_spans_get_name (spans, i);
      gsize len = strlen (name) + 1;

      g_byte_array_append (names, (const guint8 *) name, len);
      names_size += len;
    }
  h->names_size = names_size;
  /* the names padded to 8 bytes (the sum is over whole words) */
  while (names->len % 8 != 0)
    g_byte_array_append (names, (const guint8 *) "", 1);
  h->table_offset = sizeof *h;
  h->names_offset = h->table_offset + table->len;
  h->records_offset = h->names_offset + names->len;
  h->file_size = h->records_offset + h->n_records * sizeof (CpelSpan);
  h->table_sum = cpel_index_cache_sum_words (CPEL_INDEX_CACHE_SUM_SEED, table->data, table->len);
  h->names_sum = cpel_index_cache_sum_words (CPEL_INDEX_CACHE_SUM_SEED, names->data, names->len);
  h->records_sum = records_sum;
  h->header_sum = header_sum (h);
}

/* The file's parts in file order: the header, the table, the names, then
 * each track's spans and states where they are. */
typedef struct
{
  const guint8 *p;
  guint64       n;
  guint64       offset;
} Part;

typedef struct
{
  CpelFile            *file;
  CpelSpanCacheHeader  h;
  GByteArray          *table;
  GByteArray          *names;
  GArray              *parts;
  /* writing a file */
  CpelIndexCacheWriter w;
  char                *tmp;
  char                *path;
  guint                part;
  gboolean             ok;
  gboolean             done;
} Store;

static void
store_init (Store                   *st,
            CpelSpans               *spans,
            const CpelIndexCacheKey *key)
{
  CpelFile *file = cpel_spans_get_file (spans);
  guint64 at;

  memset (st, 0, sizeof *st);
  st->file = file;
  st->table = g_byte_array_new ();
  st->names = g_byte_array_new ();
  st->parts = g_array_new (FALSE, FALSE, sizeof (Part));
  make_head (spans, key, &st->h, st->table, st->names);
  g_array_append_val (st->parts, ((Part) { (const guint8 *) &st->h, sizeof st->h, 0 }));
  /* (an empty part has no data pointer: left out) */
  if (st->table->len > 0)
    g_array_append_val (st->parts,
                        ((Part) { st->table->data, st->table->len, st->h.table_offset }));
  if (st->names->len > 0)
    g_array_append_val (st->parts,
                        ((Part) { st->names->data, st->names->len, st->h.names_offset }));
  at = st->h.records_offset;
  for (guint s = 0; s < file->n_tracks; s++)
    for (int k = 0; k < 2; k++)
      {
        guint64 n;
        const CpelSpan *a = k ? cpel_spans_get_track_states (spans, s, &n)
                              : cpel_spans_get_track_spans (spans, s, &n);

        if (n == 0)
          continue;
        g_array_append_val (st->parts, ((Part) { (const guint8 *) a, n * sizeof (CpelSpan), at }));
        at += n * sizeof (CpelSpan);
      }
  g_assert (at == st->h.file_size);
  st->ok = TRUE;
}

static void
store_clear (Store *st)
{
  g_clear_pointer (&st->table, g_byte_array_unref);
  g_clear_pointer (&st->names, g_byte_array_unref);
  g_clear_pointer (&st->parts, g_array_unref);
  g_clear_pointer (&st->tmp, g_free);
  g_clear_pointer (&st->path, g_free);
}

GBytes *
cpel_span_cache_serialize (CpelSpans               *spans,
                           const CpelIndexCacheKey *key)
{
  GByteArray *out = g_byte_array_new ();
  Store st;

  g_return_val_if_fail (spans != NULL && key != NULL, NULL);
  store_init (&st, spans, key);
  for (guint i = 0; i < st.parts->len; i++)
    {
      const Part *part = &g_array_index (st.parts, Part, i);

      g_assert (out->len == part->offset);
      g_byte_array_append (out, part->p, part->n);
    }
  store_clear (&st);
  return g_byte_array_free_to_bytes (out);
}

/* Writes on from where the writer stopped; with may_stop, stops (done
 * FALSE) once an application waits (cpel_index_cache_hurry ()). */
static void
store_step (Store    *st,
            gboolean  may_stop)
{
  st->w.may_stop = may_stop;
  while (st->ok && st->part < st->parts->len)
    {
      const Part *part = &g_array_index (st->parts, Part, st->part);
      guint64 at = MAX (st->w.end, part->offset) - part->offset;   /* written of this part */

      st->ok = cpel_index_cache_writer_write (&st->w, part->p + at, part->n - at,
                                              part->offset + at, NULL);
      if (!st->ok && st->w.stopped)
        {
          st->ok = TRUE;   /* to be gone on with */
          st->w.stopped = FALSE;
          return;
        }
      st->part++;
    }
  if (st->ok)
    cpel_index_cache_writer_finish (&st->w);
  /* spans derived from an index found damaged meanwhile are not kept */
  st->ok = st->ok && !g_atomic_int_get (&st->file->cache_bad);
  st->ok = cpel_index_cache_commit_tmp (st->w.fd, st->tmp, st->path, st->ok);
  if (st->ok && g_atomic_int_get (&st->file->cache_bad))
    {
      g_unlink (st->path);   /* found damaged while renamed (the check forgets the rest) */
      st->ok = FALSE;
    }
  st->done = TRUE;
}

static void
store_idle (gpointer data)
{
  store_step (data, TRUE);
}

gboolean
cpel_span_cache_store (CpelSpans *spans)
{
  CpelFile *file;
  CpelIndexCacheKey key;
  gboolean ok;
  int fd;
  Store st;

  g_return_val_if_fail (spans != NULL, FALSE);
  file = cpel_spans_get_file (spans);
  if (!cpel_span_cache_wanted (file) || !cpel_index_cache_compute_key (file, file->cache_tps, &key))
    return FALSE;
  store_init (&st, spans, &key);
  st.path = path_for (file, &key);
  fd = cpel_index_cache_create_tmp (file, st.h.file_size, &st.tmp);
  if (fd < 0)
    {
      store_clear (&st);
      return FALSE;
    }
  cpel_index_cache_writer_init (&st.w, fd);
  /* at the lowest CPU and I/O priority, in chunks written back as they
   * go (cpel-index-cache-writer.c); when someone waits, this thread goes on */
  cpel_index_cache_run_idle (store_idle, &st, NULL, NULL);
  if (!st.done)
    store_step (&st, FALSE);
  ok = st.ok;
  store_clear (&st);
  if (ok)
    cpel_index_cache_trim (file->cache_dir, file->cache_max_bytes);
  return ok;
}

/* ---- in the background --------------------------------------------------- */

static GMutex store_lock;
static GCond  store_cond;
static guint  stores_running;

static gpointer
store_thread (gpointer data)
{
  CpelSpans *spans = data;

  cpel_span_cache_store (spans);
  cpel_spans_free (spans);
  cpel_mutex_lock (&store_lock);
  stores_running--;
  g_cond_broadcast (&store_cond);
  cpel_mutex_unlock (&store_lock);
  return NULL;
}

void
cpel_span_cache_store_in_background (CpelSpans *spans)
{
  g_autoptr(GError) error = NULL;
  GThread *thread;

  g_return_if_fail (spans != NULL);
  cpel_mutex_lock (&store_lock);
  stores_running++;
  cpel_mutex_unlock (&store_lock);
  thread = g_thread_try_new ("cpel-span-cache", store_thread, cpel_spans_ref (spans), &error);
  if (thread != NULL)
    {
      g_thread_unref (thread);
      return;
    }
  /* no thread: no cache this time */
  cpel_spans_free (spans);
  cpel_mutex_lock (&store_lock);
  stores_running--;
  g_cond_broadcast (&store_cond);
  cpel_mutex_unlock (&store_lock);
}

guint
cpel_span_cache_get_n_running (void)
{
  guint n;

  cpel_mutex_lock (&store_lock);
  n = stores_running;
  cpel_mutex_unlock (&store_lock);
  return n;
}

void
cpel_span_cache_wait (void)
{
  cpel_mutex_lock (&store_lock);
  while (stores_running > 0)
    cpel_cond_wait (&store_cond, &store_lock);
  cpel_mutex_unlock (&store_lock);
}

/* ---- reading ------------------------------------------------------------- */

/* Where the bytes come from: a file (fd, size) or memory (data, size). */
typedef struct
{
  int           fd;
  const guint8 *data;
  guint64       size;
} In;

static gboolean
in_read (const In *in,
         guint64   offset,
         void     *dst,
         gsize     n)
{
  guint8 *b = dst;

  if (offset > in->size || n > in->size - offset)
    return FALSE;
  if (in->data != NULL)
    {
      memcpy (dst, in->data + offset, n);
      return TRUE;
    }
#ifdef G_OS_UNIX
  while (n > 0)
    {
      gssize r = pread (in->fd, b, MIN (n, (gsize) 1 << 26), (off_t) offset);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return FALSE;
      b += r;
      offset += (guint64) r;
      n -= (gsize) r;
    }
  return TRUE;
#else
  return FALSE;
#endif
}

/* Checks records [0, n) of track `slot`'s spans (or states). */
static gboolean
records_ok (const CpelSpan *a,
            guint64         n,
            guint64         n_events,
            guint64         n_names,
            gboolean        states)
{
  for (guint64 i = 0; i < n; i++)
    {
      const CpelSpan *r = &a[i];

      if (r->begin >= n_events || r->end >= n_events || r->name >= n_names
          || (r->flags & ~VALID_FLAGS) != 0 || ((r->flags & CPEL_SPAN_STATE) != 0) != states)
        return FALSE;
    }
  return TRUE;
}

static CpelSpans *
load (CpelFile                *file,
      CpelSpanRules           *rules,
      const CpelIndexCacheKey *key,
      const In                *in,
      CpelIndexCacheLoad      *status)
{
  CpelSpanCacheHeader h;
  guint8 digest[32];
  g_autofree guint64 *table = NULL;
  g_autofree guint8 *names = NULL;
  g_autofree const char **name_ptrs = NULL;
  g_autofree guint32 *name_rules = NULL;
  g_autofree CpelSpan *block = NULL;
  guint64 names_bytes, total = 0, sum = CPEL_INDEX_CACHE_SUM_SEED;
  guint n_rules = cpel_span_rules_get_n_rules (rules);
  CpelSpans *spans;
  const char *p, *end;

  *status = CPEL_INDEX_CACHE_TRUNCATED;
  if (!in_read (in, 0, &h, sizeof h))
    return NULL;
  *status = CPEL_INDEX_CACHE_OTHER_VERSION;
  if (memcmp (h.magic, CPEL_SPAN_CACHE_MAGIC, 8) != 0 || h.version != CPEL_SPAN_CACHE_VERSION
      || h.byte_order != CPEL_INDEX_CACHE_BYTE_ORDER_MARK || h.header_size != sizeof h)
    return NULL;
  *status = CPEL_INDEX_CACHE_DAMAGED;
  if (h.header_sum != header_sum (&h))
    return NULL;
  /* another version of the captured file, or other rules */
  rules_digest (rules, digest);
  *status = CPEL_INDEX_CACHE_STALE;
  if (memcmp (&h.key, key, sizeof *key) != 0 || memcmp (h.rules_digest, digest, 32) != 0
      || h.n_tracks != file->n_tracks || h.n_events != file->n_events)
    return NULL;

  /* every offset and size, before any allocation they bound: no larger
   * than a writer may write; a name is a span's, or one a rule gives an
   * event type (known before any event) */
  *status = CPEL_INDEX_CACHE_DAMAGED;
  if ((file->cache_max_bytes != 0 && in->size > file->cache_max_bytes)
      || h.n_names > h.n_records + (guint64) file->n_types * MAX (n_rules, 1))
    return NULL;
  if (h.table_offset != sizeof h || h.n_tracks > (in->size - h.table_offset) / 16
      || h.names_offset != h.table_offset + 16 * h.n_tracks
      || h.n_names > G_MAXUINT32 || h.n_names > (in->size - h.names_offset) / 8
      || h.names_size > in->size - h.names_offset - 8 * h.n_names
      || h.n_names > h.names_size)
    return NULL;
  names_bytes = 8 * h.n_names + h.names_size;
  names_bytes = (names_bytes + 7) & ~(guint64) 7;
  if (h.records_offset != h.names_offset + names_bytes || h.records_offset > in->size
      || h.n_records > (in->size - h.records_offset) / sizeof (CpelSpan)
      || h.file_size != h.records_offset + h.n_records * sizeof (CpelSpan)
      || h.file_size != in->size)
    {
      *status = h.file_size > in->size ? CPEL_INDEX_CACHE_TRUNCATED : CPEL_INDEX_CACHE_DAMAGED;
      return NULL;
    }

  /* the table: each track's counts add up to the records */
  table = g_new (guint64, 2 * MAX (h.n_tracks, 1));
  if (!in_read (in, h.table_offset, table, 16 * h.n_tracks)
      || cpel_index_cache_sum_words (CPEL_INDEX_CACHE_SUM_SEED,
                                     (const guint8 *) table, 16 * h.n_tracks)
         != h.table_sum)
    return NULL;
  for (guint64 s = 0; s < 2 * h.n_tracks; s++)
    {
      if (table[s] > h.n_records - total)
        return NULL;
      total += table[s];
    }
  if (total != h.n_records)
    return NULL;

  /* the names: each rule known, each name NUL-terminated inside the area */
  names = g_malloc (MAX (names_bytes, 1));
  if (!in_read (in, h.names_offset, names, names_bytes)
      || cpel_index_cache_sum_words (CPEL_INDEX_CACHE_SUM_SEED, names, names_bytes) != h.names_sum)
    return NULL;
  name_ptrs = g_new (const char *, MAX (h.n_names, 1));
  name_rules = g_new (guint32, MAX (h.n_names, 1));
  p = (const char *) names + 8 * h.n_names;
  end = p + h.names_size;
  for (guint64 i = 0; i < h.n_names; i++)
    {
      guint64 r;
      const char *nul = memchr (p, 0, (gsize) (end - p));

      memcpy (&r, names + 8 * i, 8);
      if (r >= n_rules || nul == NULL || !g_utf8_validate (p, nul - p, NULL))
        return NULL;
      name_ptrs[i] = p;
      name_rules[i] = (guint32) r;
      p = nul + 1;
    }
  if (p != end)
    return NULL;

  /* the records, a chunk at a time: read, summed, checked */
  block = g_try_malloc (MAX (h.n_records, 1) * sizeof (CpelSpan));
  if (block == NULL)
    return NULL;
  {
    guint64 at = 0;

    for (guint s = 0; s < file->n_tracks; s++)
      for (int k = 0; k < 2; k++)
        {
          guint64 n = table[2 * s + k];
          guint64 n_events = cpel_file_get_track_n_events (file, s);

          for (guint64 i = 0; i < n; i += CHUNK_RECORDS)
            {
              guint64 m = MIN (CHUNK_RECORDS, n - i);
              CpelSpan *chunk = block + at + i;

              if (!in_read (in, h.records_offset + (at + i) * sizeof (CpelSpan), chunk,
                            m * sizeof (CpelSpan)))
                return NULL;
              sum = cpel_index_cache_sum_words (sum, (const guint8 *) chunk, m * sizeof (CpelSpan));
              if (!records_ok (chunk, m, n_events, h.n_names, k == 1))
                return NULL;
            }
          at += n;
        }
  }
  if (sum != h.records_sum)
    return NULL;

  spans = cpel_spans_new_from_parts (file, rules, name_ptrs, name_rules, (guint) h.n_names,
                                     block, table);
  if (spans == NULL)
    return NULL;
  g_steal_pointer (&block);
  *status = CPEL_INDEX_CACHE_USED;
  return spans;
}

CpelSpans *
cpel_span_cache_load_data (CpelFile                *file,
                           CpelSpanRules           *rules,
                           const CpelIndexCacheKey *key,
                           const guint8            *data,
                           gsize                    len,
                           CpelIndexCacheLoad      *status)
{
  In in = { -1, data ? data : (const guint8 *) "", len };
  CpelIndexCacheLoad local;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (rules != NULL && key != NULL, NULL);
  g_return_val_if_fail (cpel_file_has_index (file), NULL);

  return load (file, rules, key, &in, status ? status : &local);
}

void
cpel_span_cache_forget (CpelFile *file)
{
  CpelIndexCacheKey key;
  g_autofree char *path = NULL;

  g_return_if_fail (CPEL_IS_FILE (file));
  if (!file->cache_wanted || file->cache_dir == NULL || file->path == NULL
      || !cpel_index_cache_compute_key (file, file->cache_tps, &key))
    return;
  path = path_for (file, &key);
  g_unlink (path);
}

CpelSpans *
cpel_span_cache_load (CpelFile           *file,
                      CpelSpanRules      *rules,
                      CpelIndexCacheLoad *status)
{
  CpelIndexCacheLoad local;
  CpelIndexCacheKey key;
  g_autofree char *path = NULL;
  CpelSpans *spans = NULL;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (rules != NULL, NULL);
  g_return_val_if_fail (cpel_file_has_index (file), NULL);

  if (status == NULL)
    status = &local;
  *status = CPEL_INDEX_CACHE_OFF;
  if (!cpel_span_cache_wanted (file) || !cpel_index_cache_compute_key (file, file->cache_tps, &key))
    return NULL;
  path = path_for (file, &key);
  *status = CPEL_INDEX_CACHE_MISSING;
#ifdef G_OS_UNIX
  {
    struct stat st;
    /* not a FIFO's endless wait, nor a link's target */
    int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);

    if (fd < 0)
      return NULL;
    if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
      {
        In in = { fd, NULL, (guint64) st.st_size };

        spans = load (file, rules, &key, &in, status);
      }
    g_close (fd, NULL);
    /* used: it counts as recently used for the cap's trim */
    if (spans != NULL)
      g_utime (path, NULL);
  }
#endif
  return spans;
}
