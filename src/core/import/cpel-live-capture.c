/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-live-capture.c — a capture followed while it is written (see the header) */
#include "config.h"

#include "cpel-live-capture.h"
#include "cpel-tsan-private.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "cpel-follow.h"
#include "cpel-import.h"
#include "cpel-loader.h"
#include "cpel-snabb-follow.h"
#if HAVE_PERF
#include "cpel-perf-follow.h"
#endif
#if HAVE_CTF
#include "cpel-ctf-follow.h"
#endif

/* ---- the store: blocks that never move -------------------------------------- */

typedef struct
{
  gint64  t;          /* ticks or ns, any origin */
  guint32 track;
  guint32 code;
  guint32 datum;
  guint32 text_len;   /* | TEXT_ARGS: the bytes are a Snabb entry's arguments */
  guint64 text_off;   /* chunk * TEXT_CHUNK + offset */
} LiveEvent;

/* A Snabb entry's text is made when asked, from its arguments (doubles)
 * and its message's argument names: reading the ring stays cheap. */
#define TEXT_ARGS        0x80000000u

#define EV_BLOCK_SHIFT   16
#define EV_BLOCK         (1u << EV_BLOCK_SHIFT)
#define EV_BLOCKS_MAX    ((guint) ((CPEL_MAX_EVENTS >> EV_BLOCK_SHIFT) + 1))
#define TEXT_CHUNK       (4u << 20)
#define TEXT_CHUNKS_MAX  16384u     /* 64 GiB of texts */
#define TEXT_MAX         4096u      /* bytes of one event's text kept */
#define BATCH            4096
#define BATCHES_MAX      256        /* per poll: then the worker lets others in */

typedef struct
{
  gatomicrefcount ref;
  LiveEvent     **blocks;    /* EV_BLOCKS_MAX, filled in order */
  guint64         n;         /* events (written by the worker under the lock) */
  char          **chunks;    /* TEXT_CHUNKS_MAX */
  guint           n_chunks;
  guint32         chunk_used;
  GMutex          names_lock;
  GHashTable     *arg_names;  /* code -> its arguments' names (strv), Snabb */
} Store;

static Store *
store_new (void)
{
  Store *s = g_new0 (Store, 1);

  g_atomic_ref_count_init (&s->ref);
  s->blocks = g_new0 (LiveEvent *, EV_BLOCKS_MAX);
  s->chunks = g_new0 (char *, TEXT_CHUNKS_MAX);
  g_mutex_init (&s->names_lock);
  s->arg_names = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_strfreev);
  return s;
}

static Store *
store_ref (Store *s)
{
  g_atomic_ref_count_inc (&s->ref);
  return s;
}

static void
store_unref (gpointer data)
{
  Store *s = data;

  if (!g_atomic_ref_count_dec (&s->ref))
    return;
  for (guint i = 0; i < EV_BLOCKS_MAX && s->blocks[i] != NULL; i++)
    g_free (s->blocks[i]);
  for (guint i = 0; i < s->n_chunks; i++)
    g_free (s->chunks[i]);
  g_free (s->blocks);
  g_free (s->chunks);
  g_hash_table_unref (s->arg_names);
  g_mutex_clear (&s->names_lock);
  g_free (s);
}

static const LiveEvent *
store_event (const Store *s,
             guint64      i)
{
  return &s->blocks[i >> EV_BLOCK_SHIFT][i & (EV_BLOCK - 1)];
}

/* FALSE when the store is full (CPEL_MAX_EVENTS, or the texts' room). */
static gboolean
store_append (Store      *s,
              gint64      t,
              guint32     track,
              guint32     code,
              guint32     datum,
              const char *text,
              gsize       len,
              gboolean    args)
{
  LiveEvent *e;
  guint b = (guint) (s->n >> EV_BLOCK_SHIFT);

  if (s->n >= CPEL_MAX_EVENTS)
    return FALSE;
  len = MIN (len, TEXT_MAX);
  if (s->n_chunks == 0 || s->chunk_used + len > TEXT_CHUNK)
    {
      if (s->n_chunks == TEXT_CHUNKS_MAX)
        return FALSE;
      s->chunks[s->n_chunks++] = g_malloc (TEXT_CHUNK);
      s->chunk_used = 0;
    }
  if (s->blocks[b] == NULL)
    s->blocks[b] = g_new (LiveEvent, EV_BLOCK);
  e = &s->blocks[b][s->n & (EV_BLOCK - 1)];
  e->t = t;
  e->track = track;
  e->code = code;
  e->datum = datum;
  e->text_len = (guint32) len | (args ? TEXT_ARGS : 0);
  e->text_off = (guint64) (s->n_chunks - 1) * TEXT_CHUNK + s->chunk_used;
  memcpy (s->chunks[s->n_chunks - 1] + s->chunk_used, text, len);
  s->chunk_used += (guint32) len;
  s->n++;
  return TRUE;
}

static const char *
store_text (const Store     *s,
            const LiveEvent *e)
{
  return s->chunks[e->text_off / TEXT_CHUNK] + e->text_off % TEXT_CHUNK;
}

/* The names of code's arguments (Snabb), once. */
static void
store_set_arg_names (Store              *s,
                     guint32             code,
                     const char * const *names,
                     guint               n)
{
  cpel_mutex_lock (&s->names_lock);
  if (!g_hash_table_contains (s->arg_names, GUINT_TO_POINTER (code)))
    {
      char **v = g_new0 (char *, n + 1);

      for (guint k = 0; k < n; k++)
        v[k] = g_strdup (names[k]);
      g_hash_table_insert (s->arg_names, GUINT_TO_POINTER (code), v);
    }
  cpel_mutex_unlock (&s->names_lock);
}

static void
store_format_text (Store           *s,
                   const LiveEvent *e,
                   GString         *out)
{
  const char *p = store_text (s, e);
  guint len = e->text_len & ~TEXT_ARGS;

  if (!(e->text_len & TEXT_ARGS))
    {
      g_string_append_len (out, p, len);
      return;
    }
  /* NAME=value …, as `cpel dump --follow` shows them */
  cpel_mutex_lock (&s->names_lock);
  {
    char **names = g_hash_table_lookup (s->arg_names, GUINT_TO_POINTER (e->code));

    for (guint k = 0; names != NULL && names[k] != NULL && (k + 1) * 8 <= len; k++)
      {
        double v;

        memcpy (&v, p + k * 8, 8);
        if (k > 0)
          g_string_append_c (out, ' ');
        g_string_append (out, names[k]);
        g_string_append_c (out, '=');
        cpel_snabb_append_number (out, v);
      }
  }
  cpel_mutex_unlock (&s->names_lock);
}

/* CpelTextSource of a snapshot: the events below its count never change. */
static gboolean
store_append_text (gconstpointer state,
                   guint64       file_index,
                   GString      *out)
{
  Store *s = (Store *) state;   /* only its names' lock is taken */
  const LiveEvent *e;

  if ((file_index >> EV_BLOCK_SHIFT) >= EV_BLOCKS_MAX
      || g_atomic_pointer_get (&s->blocks[file_index >> EV_BLOCK_SHIFT]) == NULL)
    return FALSE;
  e = store_event (s, file_index);
  store_format_text (s, e, out);
  return TRUE;
}

/* ---- the capture ------------------------------------------------------------ */

typedef struct
{
  guint32  id;
  char    *label;
} TrackDef;

typedef struct
{
  guint32  code;
  char    *name;
  gboolean has_args;
} TypeDef;

/* A Snabb message id of the current ring, resolved. */
typedef struct
{
  gboolean                known;
  guint32                 code;
  guint32                 track;
  const CpelSnabbMessage *m;
} MsgInfo;

typedef enum
{
  KIND_SNABB,
  KIND_CPEL,
  KIND_PERF,
  KIND_LTTNG,    /* an LTTng live session */
  KIND_STDIN,    /* until its first bytes tell (then CPEL or perf) */
  KIND_REREAD,   /* another format's file, imported again whole when it changed */
  KIND_PENDING,  /* a file too short yet to tell what it is */
} Kind;

struct _CpelLiveCapture
{
  gatomicrefcount     ref;
  char               *source;
  char               *path;
  guint64             clock_rate;
  Kind                kind;
  CpelLiveSourceKind  source_kind;

  GMutex              lock;        /* everything below */
  GCond               cond;
  Store              *store;
  GArray             *tracks;      /* TrackDef */
  GHashTable         *track_by_id;     /* id -> index + 1 */
  GHashTable         *track_by_label;  /* label -> id + 1 (Snabb) */
  GArray             *types;       /* TypeDef */
  GHashTable         *type_by_code;    /* code -> index + 1 */
  GHashTable         *code_by_name;    /* name -> code + 1 (Snabb) */
  GArray             *gaps;        /* CpelLiveGap (index; time as t, mapped when read) */
  gint64              t_min, t_last;
  CpelLiveStatus      status;
  GError             *failure;     /* status.failed: why */
  gboolean            full;
  gboolean            dirty;       /* events since the last capture made */
  gboolean            status_dirty;

  /* Snabb */
  CpelSnabbFollower  *snabb;
  CpelSnabbEntry     *entries;
  MsgInfo            *msgs;        /* 65536, the current ring's */
  gboolean            have_tsc0;
  double              tsc0;
  gint64              ring_base;
  gboolean            have_mono;
  double              mono_t[2], mono_ns[2];

  /* CPEL */
  CpelFollower       *cpel;

  /* perf pipe mode */
#if HAVE_PERF
  CpelPerfFollower   *perf;
#endif
  /* an LTTng live session */
#if HAVE_CTF
  CpelCtfFollower    *lttng;
#endif

  /* a file read again whole: its state when last seen and when last read;
   * the newest time kept on the capture's clock, and how many events at it */
  struct stat         reread_seen;
  struct stat         reread_read;
  gboolean            reread_have_max;
  gint64              reread_max;
  GHashTable         *reread_at_max;   /* track id -> events kept at reread_max */
  CpelClockKind       reread_clock;
  gint64              reread_missing_us;   /* since when the file is not there (0: it is) */

  /* standard input, until its first bytes say what it is */
  GByteArray         *sniff;
  gboolean            sniff_eof;

  /* rate */
  gint64              rate_t0;
  guint64             rate_n0;

  /* the worker */
  GThread            *thread;
  GThread            *builder;     /* makes the captures: the reader never waits for it */
  GCond               build_cond;
  gboolean            build_wanted;
  gboolean            building;
  gboolean            stopping;
  GMainContext       *context;
  guint               interval_ms;
  CpelLiveUpdateFunc  func;
  gpointer            func_data;
  gboolean            stopped;     /* main context only: no more calls */
};

static void
track_def_clear (gpointer p)
{
  g_free (((TrackDef *) p)->label);
}

static void
type_def_clear (gpointer p)
{
  g_free (((TypeDef *) p)->name);
}

/* snabb:PID -> the ring of that process. */
static char *
snabb_ring_of (const char *pid,
               GError    **error)
{
  const char *root = g_getenv ("SNABB_SHM_ROOT");
  static const char * const names[] = { "events.timeline", "engine/timeline" };
  g_autofree char *dir = NULL;

  if (*pid == '\0' || strspn (pid, "0123456789") != strlen (pid))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("“snabb:” must be followed by a process id"));
      return NULL;
    }
  dir = g_build_filename (root != NULL && *root ? root : "/var/run/snabb", pid, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char *path = g_build_filename (dir, names[i], NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return path;
      g_free (path);
    }
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO,
               _("No timeline of Snabb process %s in %s (is SNABB_TIMELINE_ENABLE set?)"),
               pid, dir);
  return NULL;
}

/* The first bytes of a file (without waiting on a FIFO); 0 when it cannot be read. */
static gsize
read_head (const char *path,
           guint8     *head,
           gsize       len)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
  gssize r;

  if (fd < 0)
    return 0;
  do
    r = pread (fd, head, len, 0);
  while (r < 0 && errno == EINTR);
  close (fd);
  return r > 0 ? (gsize) r : 0;
}

/* A perf.data start (PERFILE2, at least 16 bytes): TRUE when it is pipe
 * mode (followed); else an error that says how to follow perf. */
static gboolean
perf_head_followed (const guint8 *head,
                    gsize         n,
                    GError      **error)
{
#if HAVE_PERF
  if (cpel_perf_follow_sniff (head, n))
    return TRUE;
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
               _("This perf.data file is complete only when perf exits: to follow "
                 "perf while it records, use pipe mode (perf record -o - …)"));
#else
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
               _("This build reads no perf.data"));
#endif
  return FALSE;
}

gboolean
cpel_live_stream_sniff (const guint8 *head,
                        gsize         n,
                        gboolean     *is_perf,
                        GError      **error)
{
  g_return_val_if_fail (head != NULL || n == 0, FALSE);
  g_return_val_if_fail (is_perf != NULL, FALSE);

  *is_perf = n >= 8 && memcmp (head, "PERFILE2", 8) == 0;
  return !*is_perf || perf_head_followed (head, n, error);
}

char *
cpel_live_source_resolve (const char         *source,
                          CpelLiveSourceKind *kind,
                          GError            **error)
{
  static const guint8 snabb_magic[8] = { 0x01, 0x00, 0x1d, 0x44, 0x23, 0x72, 0xff, 0xa3 };
  g_autofree char *path = NULL;
  guint8 head[16];
  gsize n;

  g_return_val_if_fail (source != NULL && kind != NULL, NULL);
  *kind = CPEL_LIVE_SOURCE_CPEL;
  if (strcmp (source, "-") == 0)
    {
      *kind = CPEL_LIVE_SOURCE_STDIN;
      return g_strdup (source);
    }
  if (g_str_has_prefix (source, "net://") || g_str_has_prefix (source, "net4://")
      || g_str_has_prefix (source, "net6://"))
    {
#if HAVE_CTF
      *kind = CPEL_LIVE_SOURCE_LTTNG;
      return g_strdup (source);
#else
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
                   _("%s: following an LTTng live session needs CTF support, "
                     "which this build does not have (libbabeltrace2)"), source);
      return NULL;
#endif
    }
  if (g_str_has_prefix (source, "snabb:"))
    path = snabb_ring_of (source + 6, error);
  else
    path = g_strdup (source);
  if (path == NULL)
    return NULL;
  n = read_head (path, head, sizeof head);
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR)
      && (n == 0 || (n < 16 && memcmp (head, "PERFILE2", MIN (n, 8)) == 0)))
    *kind = CPEL_LIVE_SOURCE_PENDING;   /* perf (pipe mode or not) or CPEL: not yet known */
  else if (n >= 8 && memcmp (head, snabb_magic, 8) == 0)
    *kind = CPEL_LIVE_SOURCE_SNABB;
  else if (n >= 8 && memcmp (head, "PERFILE2", 8) == 0)
    {
      if (!perf_head_followed (head, n, error))
        return NULL;
      *kind = CPEL_LIVE_SOURCE_PERF;
    }
  else if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      const CpelImporter *importer = cpel_import_detect (path, NULL);

      /* CPEL grows by sections; every other format is saved whole */
      if (importer != NULL && strcmp (importer->id, "cpel") != 0)
        *kind = CPEL_LIVE_SOURCE_REREAD;
    }
  return g_steal_pointer (&path);
}

static void
defs_reset (CpelLiveCapture *self)
{
  g_array_set_size (self->tracks, 0);
  g_array_set_size (self->types, 0);
  g_array_set_size (self->gaps, 0);
  g_hash_table_remove_all (self->track_by_id);
  g_hash_table_remove_all (self->track_by_label);
  g_hash_table_remove_all (self->type_by_code);
  g_hash_table_remove_all (self->code_by_name);
  self->t_min = G_MAXINT64;
  self->t_last = G_MININT64;
}

/* The follower of a source of that kind (the lock held, or not yet
 * shared). */
static gboolean
setup_kind (CpelLiveCapture    *self,
            CpelLiveSourceKind  kind,
            GError            **error)
{
  self->source_kind = kind;
  switch (kind)
    {
    case CPEL_LIVE_SOURCE_SNABB:
      self->kind = KIND_SNABB;
      self->snabb = cpel_snabb_follower_new (self->path, error);
      if (self->snabb == NULL)
        return FALSE;
      self->entries = g_new (CpelSnabbEntry, BATCH);
      self->msgs = g_new0 (MsgInfo, G_MAXUINT16 + 1);
      self->status.lost_exact = FALSE;
      break;
    case CPEL_LIVE_SOURCE_PERF:
#if HAVE_PERF
      self->kind = KIND_PERF;
      self->perf = cpel_perf_follower_new (self->path, error);
      if (self->perf == NULL)
        return FALSE;
#else
      g_assert_not_reached ();   /* resolve refuses perf.data then */
#endif
      break;
    case CPEL_LIVE_SOURCE_LTTNG:
#if HAVE_CTF
      self->kind = KIND_LTTNG;
      self->lttng = cpel_ctf_follower_new (self->path, error);
      if (self->lttng == NULL)
        return FALSE;
      self->status.connecting = TRUE;
#else
      g_assert_not_reached ();   /* resolve refuses the URL then */
#endif
      break;
    case CPEL_LIVE_SOURCE_REREAD:
      self->kind = KIND_REREAD;   /* read by the first poll */
      break;
    case CPEL_LIVE_SOURCE_PENDING:
      self->kind = KIND_PENDING;   /* told by a later poll */
      break;
    case CPEL_LIVE_SOURCE_STDIN:
      self->kind = KIND_STDIN;   /* read by the worker only: nothing is read here */
      self->sniff = g_byte_array_new ();
      break;
    case CPEL_LIVE_SOURCE_CPEL:
      self->kind = KIND_CPEL;
      self->cpel = cpel_follower_new (self->path, self->clock_rate, error);
      if (self->cpel == NULL)
        return FALSE;
      break;
    }
  return TRUE;
}

CpelLiveCapture *
cpel_live_capture_new (const char *source,
                       guint64     clock_rate,
                       GError    **error)
{
  g_autoptr(CpelLiveCapture) self = NULL;
  CpelLiveSourceKind kind;

  g_return_val_if_fail (source != NULL, NULL);

  self = g_new0 (CpelLiveCapture, 1);
  g_atomic_ref_count_init (&self->ref);
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  g_cond_init (&self->build_cond);
  self->source = g_strdup (source);
  self->clock_rate = clock_rate;
  self->store = store_new ();
  self->tracks = g_array_new (FALSE, FALSE, sizeof (TrackDef));
  g_array_set_clear_func (self->tracks, track_def_clear);
  self->types = g_array_new (FALSE, FALSE, sizeof (TypeDef));
  g_array_set_clear_func (self->types, type_def_clear);
  self->gaps = g_array_new (FALSE, FALSE, sizeof (CpelLiveGap));
  self->track_by_id = g_hash_table_new (NULL, NULL);
  self->track_by_label = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->type_by_code = g_hash_table_new (NULL, NULL);
  self->code_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->status.lost_exact = TRUE;
  self->reread_at_max = g_hash_table_new (NULL, NULL);
  defs_reset (self);

  self->path = cpel_live_source_resolve (source, &kind, error);
  if (self->path == NULL)
    return NULL;
  if (!setup_kind (self, kind, error))
    return NULL;
  return g_steal_pointer (&self);
}

CpelLiveCapture *
cpel_live_capture_ref (CpelLiveCapture *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
cpel_live_capture_unref (CpelLiveCapture *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  /* the worker holds no reference of its own: stop joins it */
  cpel_live_capture_stop (self);
  g_clear_pointer (&self->snabb, cpel_snabb_follower_free);
  g_clear_pointer (&self->cpel, cpel_follower_free);
#if HAVE_PERF
  g_clear_pointer (&self->perf, cpel_perf_follower_free);
#endif
#if HAVE_CTF
  g_clear_pointer (&self->lttng, cpel_ctf_follower_free);
#endif
  g_clear_pointer (&self->sniff, g_byte_array_unref);
  g_clear_error (&self->failure);
  g_clear_pointer (&self->reread_at_max, g_hash_table_unref);
  g_clear_pointer (&self->store, store_unref);
  g_array_unref (self->tracks);
  g_array_unref (self->types);
  g_array_unref (self->gaps);
  g_hash_table_unref (self->track_by_id);
  g_hash_table_unref (self->track_by_label);
  g_hash_table_unref (self->type_by_code);
  g_hash_table_unref (self->code_by_name);
  g_free (self->entries);
  g_free (self->msgs);
  g_free (self->source);
  g_free (self->path);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_cond_clear (&self->build_cond);
  g_free (self);
}

const char *
cpel_live_capture_get_source (CpelLiveCapture *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->source;
}

/* ---- reading (the lock held) ------------------------------------------------- */

static guint32
track_for_id (CpelLiveCapture *self,
              guint32          id,
              const char      *label)
{
  if (!g_hash_table_contains (self->track_by_id, GUINT_TO_POINTER (id)))
    {
      TrackDef d = { id, g_strdup (label) };

      g_array_append_val (self->tracks, d);
      g_hash_table_insert (self->track_by_id, GUINT_TO_POINTER (id),
                           GUINT_TO_POINTER (self->tracks->len));
    }
  return id;
}

static guint32
track_for_label (CpelLiveCapture *self,
                 const char      *label)
{
  gpointer v = g_hash_table_lookup (self->track_by_label, label);

  if (v == NULL)
    {
      guint32 id = g_hash_table_size (self->track_by_label);

      g_hash_table_insert (self->track_by_label, g_strdup (label), GUINT_TO_POINTER (id + 1));
      return track_for_id (self, id, label);
    }
  return GPOINTER_TO_UINT (v) - 1;
}

static void
type_for_code (CpelLiveCapture *self,
               guint32          code,
               const char      *name,
               gboolean         has_args)
{
  if (!g_hash_table_contains (self->type_by_code, GUINT_TO_POINTER (code)))
    {
      TypeDef d = { code, g_strdup (name), has_args };

      g_array_append_val (self->types, d);
      g_hash_table_insert (self->type_by_code, GUINT_TO_POINTER (code),
                           GUINT_TO_POINTER (self->types->len));
    }
}

/* The code of a Snabb message named `name`: its id when that is free
 * (the first ring's codes are its ids), else one above the ids. */
static guint32
code_for_name (CpelLiveCapture *self,
               guint16          msgid,
               const char      *name,
               gboolean         has_args)
{
  gpointer v = g_hash_table_lookup (self->code_by_name, name);
  guint32 code;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  code = msgid;
  while (g_hash_table_contains (self->type_by_code, GUINT_TO_POINTER (code)))
    code = code < 0x10000 ? 0x10000 : code + 1;
  g_hash_table_insert (self->code_by_name, g_strdup (name), GUINT_TO_POINTER (code + 1));
  type_for_code (self, code, name, has_args);
  return code;
}

static void
note_time (CpelLiveCapture *self,
           gint64           t)
{
  self->t_min = MIN (self->t_min, t);
  self->t_last = t;
}

static void
add_gap (CpelLiveCapture *self,
         guint64          n_lost)
{
  CpelLiveGap g = { self->store->n, n_lost, 0 };

  g_array_append_val (self->gaps, g);
  self->status.n_lost += n_lost;
  self->status.n_gaps++;
  self->status_dirty = TRUE;
}

static void
snabb_entry (CpelLiveCapture      *self,
             const CpelSnabbEntry *e)
{
  MsgInfo *mi = &self->msgs[e->msgid];
  double a0 = e->args[0];
  guint32 datum = 0;
  gint64 t;

  if (!mi->known)
    {
      const CpelSnabbMessage *m = cpel_snabb_follower_message (self->snabb, e->msgid);
      g_autofree char *unknown = NULL;

      if (m == NULL)
        unknown = g_strdup_printf (_("message %u"), e->msgid);
      mi->m = m;
      mi->track = track_for_label (self, m != NULL ? m->track : _("unknown"));
      mi->code = code_for_name (self, e->msgid, m != NULL ? m->name : unknown,
                                m != NULL && m->n_args > 0);
      mi->known = m != NULL;   /* a message not (yet) in the table is looked up again */
      if (m != NULL)
        store_set_arg_names (self->store, mi->code, (const char * const *) m->arg_names,
                             m->n_args);
    }
  if (!self->have_tsc0)
    {
      self->tsc0 = e->tsc;
      self->have_tsc0 = TRUE;
    }
  t = self->ring_base + (gint64) llround (e->tsc - self->tsc0);
  if (mi->m != NULL && g_strcmp0 (mi->m->name, "engine.got_monotonic_time") == 0)
    {
      int k = self->have_mono ? 1 : 0;

      self->mono_t[k] = (double) t;
      self->mono_ns[k] = a0;
      if (!self->have_mono)
        {
          self->mono_t[1] = self->mono_t[0];
          self->mono_ns[1] = self->mono_ns[0];
        }
      self->have_mono = TRUE;
    }
  if (a0 == floor (a0) && fabs (a0) < 9.2e18)
    datum = (guint32) (gint64) a0;
  /* the arguments as they are: the text is made when asked */
  if (!store_append (self->store, t, mi->track, mi->code, datum, (const char *) e->args,
                     mi->m != NULL ? mi->m->n_args * sizeof (double) : 0, TRUE))
    self->full = TRUE;
  else
    note_time (self, t);
}

static guint64
snabb_poll (CpelLiveCapture *self)
{
  guint64 added = 0;

  for (guint b = 0; b < BATCHES_MAX && !self->full; b++)
    {
      CpelSnabbPollInfo info;
      gsize n = cpel_snabb_follower_poll (self->snabb, self->entries, BATCH, &info);

      if (info.new_ring)
        {
          /* its times continue after the last one seen; its ids are its own */
          self->ring_base = self->t_last == G_MININT64 ? 0 : self->t_last + 1;
          self->have_tsc0 = FALSE;
          self->have_mono = FALSE;
          memset (self->msgs, 0, sizeof (MsgInfo) * (G_MAXUINT16 + 1));
          self->status.n_new_rings++;
          self->status_dirty = TRUE;
        }
      if (info.lost > 0)
        add_gap (self, info.lost);
      for (gsize i = 0; i < n && !self->full; i++)
        snabb_entry (self, &self->entries[i]);
      added += n;
      if (info.gone)
        {
          self->status.gone = TRUE;
          self->status_dirty = TRUE;
          break;
        }
      if (n < BATCH)
        break;
    }
  return added;
}

/* A rewritten file: the same events again, or others; the capture starts again. */
static void
restart (CpelLiveCapture *self)
{
  g_clear_pointer (&self->store, store_unref);
  self->store = store_new ();
  defs_reset (self);
  self->status.n_lost = 0;
  self->status.n_gaps = 0;
  self->status.n_rewritten++;
  self->status_dirty = TRUE;
  self->dirty = TRUE;
}

/* An event of a CPEL or perf follower, kept with its text. */
static void
follow_event (CpelLiveCapture       *self,
              const CpelFollowEvent *ev)
{
  track_for_id (self, ev->track_id, ev->track_label);
  type_for_code (self, ev->code, ev->name, FALSE);
  if (!store_append (self->store, ev->time_ns, ev->track_id, ev->code,
                     ev->datum_value, ev->datum, strlen (ev->datum), FALSE))
    self->full = TRUE;
  else
    note_time (self, ev->time_ns);
}

/* A damaged source: what was read stays; nothing more is. */
static void
source_failed (CpelLiveCapture *self,
               const GError    *error)
{
  g_debug ("%s: %s", self->source, error->message);
  g_clear_error (&self->failure);
  self->failure = g_error_copy (error);
  self->status.gone = TRUE;
  self->status.failed = TRUE;
  self->status_dirty = TRUE;
}

static guint64
cpel_poll (CpelLiveCapture *self)
{
  guint64 added = 0;

  for (guint b = 0; b < BATCHES_MAX && !self->full; b++)
    {
      CpelFollowInfo info;
      g_autoptr(GError) error = NULL;
      gsize n = cpel_follower_poll (self->cpel, BATCH, &info, &error);

      if (error != NULL)
        {
          source_failed (self, error);
          break;
        }
      if (info.rewritten)
        restart (self);
      for (gsize i = 0; i < n && !self->full; i++)
        follow_event (self, cpel_follower_event (self->cpel, i));
      added += n;
      if (info.gone)
        {
          self->status.gone = TRUE;
          self->status_dirty = TRUE;
          break;
        }
      if (n < BATCH)
        break;
    }
  return added;
}

#if HAVE_PERF || HAVE_CTF
/* Reads a stream follower: its gaps (the source's own count: exact) and
 * its events, batch by batch. */
static guint64
stream_poll (CpelLiveCapture               *self,
             const CpelStreamFollowerClass *klass,
             gpointer                       follower)
{
  guint64 added = 0;

  for (guint b = 0; b < BATCHES_MAX && !self->full; b++)
    {
      CpelStreamFollowInfo info = { 0 };
      g_autoptr(GError) error = NULL;
      gsize n = klass->poll (follower, BATCH, &info, &error);

      if (error != NULL)
        {
          source_failed (self, error);
          break;
        }
      if (info.attached && self->status.connecting)
        {
          self->status.connecting = FALSE;
          self->status_dirty = TRUE;
        }
      if (info.rewritten)
        restart (self);
      if (info.lost > 0 || info.lost_packets > 0)
        add_gap (self, info.lost);
      if (info.lost_packets > 0)
        self->status.lost_exact = FALSE;   /* the count is a lower bound now */
      for (gsize i = 0; i < n && !self->full; i++)
        follow_event (self, klass->event (follower, i));
      added += n;
      if (info.gone)
        {
          self->status.gone = TRUE;
          self->status_dirty = TRUE;
          break;
        }
      if (n < BATCH && !info.more)
        break;
    }
  return added;
}
#endif

/* Standard input: its first 16 bytes tell a perf pipe-mode stream from a
 * CPEL stream (read here, in the worker, never where the capture is made). */
static void
stdin_sniff (CpelLiveCapture *self)
{
  g_autoptr(GError) error = NULL;
  gboolean is_perf;

  cpel_follow_read_available (STDIN_FILENO, self->sniff, 16 - MIN (self->sniff->len, 16),
                              &self->sniff_eof, &error);
  if (error != NULL)
    {
      source_failed (self, error);
      return;
    }
  if (self->sniff->len < 16 && !self->sniff_eof)
    return;
  if (self->sniff->len == 0)
    {
      self->status.gone = TRUE;   /* ended empty */
      self->status_dirty = TRUE;
      return;
    }
  if (!cpel_live_stream_sniff (self->sniff->data, self->sniff->len, &is_perf, &error))
    {
      source_failed (self, error);
      return;
    }
#if HAVE_PERF
  if (is_perf)
    {
      self->kind = KIND_PERF;
      self->perf = cpel_perf_follower_new_for_fd (STDIN_FILENO);
      cpel_perf_follower_push_prefix (self->perf, self->sniff->data, self->sniff->len);
      return;
    }
#endif
  self->kind = KIND_CPEL;
  self->cpel = cpel_follower_new_for_fd (STDIN_FILENO, self->clock_rate);
  cpel_follower_push_prefix (self->cpel, self->sniff->data, self->sniff->len);
}

/* A file too short to tell when the capture was made: told once it
 * holds enough (a perf recording or a CPEL writer has just made it). */
static void
pending_poll (CpelLiveCapture *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  CpelLiveSourceKind kind;

  path = cpel_live_source_resolve (self->path, &kind, &error);
  if (path == NULL || (kind != CPEL_LIVE_SOURCE_PENDING && !setup_kind (self, kind, &error)))
    {
      if (!g_file_test (self->path, G_FILE_TEST_EXISTS))
        {
          self->status.gone = TRUE;   /* removed before it was written */
          self->status_dirty = TRUE;
          return;
        }
      source_failed (self, error);
    }
}

/* ---- a file of another format, read again whole ---- */

static gboolean
same_state (const struct stat *a,
            const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size
         && a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Does `file` name a track or type that the capture knows by another
 * name?  (A VPP started again numbers its tracks and types anew.) */
static gboolean
renamed (CpelLiveCapture *self,
         CpelFile        *file)
{
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      gpointer v = g_hash_table_lookup (self->track_by_id,
                                        GUINT_TO_POINTER (cpel_file_get_track_id (file, slot)));

      if (v != NULL
          && g_strcmp0 (g_array_index (self->tracks, TrackDef, GPOINTER_TO_UINT (v) - 1).label,
                        cpel_file_get_track_label (file, slot)) != 0)
        return TRUE;
    }
  for (guint type = 0; type < cpel_file_get_n_types (file); type++)
    {
      gpointer v = g_hash_table_lookup (self->type_by_code,
                                        GUINT_TO_POINTER (cpel_file_get_type_code (file, type)));

      if (v != NULL
          && g_strcmp0 (g_array_index (self->types, TypeDef, GPOINTER_TO_UINT (v) - 1).name,
                        cpel_file_get_type_name (file, type)) != 0)
        return TRUE;
    }
  return FALSE;
}

/* The events of `file` after the newest kept, by the capture's own clock
 * (an elog's wall clock): a save of the same ring holds the events seen
 * before and those logged since; of the events at the newest time kept,
 * each track's first ones are those kept already.  A capture whose clock
 * is not known or another one, that ends before the newest event kept, or
 * that names its tracks or types otherwise (the writer started again)
 * starts the capture again. */
static void
reread_take (CpelLiveCapture *self,
             CpelFile        *file)
{
  gint64 origin = 0, last = G_MININT64, new_max;
  CpelClockKind clock = cpel_file_get_clock_origin (file, &origin);
  guint n_tracks = cpel_file_get_n_tracks (file);
  g_autoptr(GHashTable) skip = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint slot = 0; slot < n_tracks; slot++)
    {
      guint64 n = cpel_file_get_track_n_events (file, slot);
      CpelEvent ev;

      if (n == 0)
        continue;
      cpel_file_get_track_event (file, slot, n - 1, &ev);
      last = MAX (last, origin + ev.time_ns);
    }
  if (self->store->n > 0
      && (clock == CPEL_CLOCK_NONE || clock != self->reread_clock || last < self->reread_max
          || renamed (self, file)))
    {
      restart (self);
      self->reread_have_max = FALSE;
    }
  self->reread_clock = clock;

  /* the events at the newest time kept, per track: skipped */
  skip = self->reread_have_max ? g_hash_table_ref (self->reread_at_max)
                               : g_hash_table_new (NULL, NULL);
  self->reread_at_max = (g_hash_table_unref (self->reread_at_max),
                         g_hash_table_new (NULL, NULL));
  new_max = self->reread_have_max ? self->reread_max : G_MININT64;
  for (guint slot = 0; slot < n_tracks && !self->full; slot++)
    {
      guint64 n = cpel_file_get_track_n_events (file, slot);
      guint32 id = cpel_file_get_track_id (file, slot);
      guint skip_here = GPOINTER_TO_UINT (g_hash_table_lookup (skip, GUINT_TO_POINTER (id)));

      for (guint64 i = 0; i < n && !self->full; i++)
        {
          CpelEvent ev;
          gint64 t;

          cpel_file_get_track_event (file, slot, i, &ev);
          t = origin + ev.time_ns;
          if (self->reread_have_max && t < self->reread_max)
            continue;   /* kept already */
          if (self->reread_have_max && t == self->reread_max && skip_here > 0)
            {
              skip_here--;
              continue;
            }
          track_for_id (self, id, cpel_file_get_track_label (file, slot));
          type_for_code (self, ev.code, cpel_file_get_type_name (file, ev.type), FALSE);
          g_string_truncate (text, 0);
          cpel_file_append_datum (file, &ev, text);
          if (!store_append (self->store, t, id, ev.code, ev.datum, text->str, text->len, FALSE))
            {
              self->full = TRUE;
              break;
            }
          note_time (self, t);
          new_max = MAX (new_max, t);
        }
    }

  /* how many events each track has at the newest time, now */
  if (new_max != G_MININT64)
    {
      for (guint slot = 0; slot < n_tracks; slot++)
        {
          guint64 n = cpel_file_get_track_n_events (file, slot), at = 0;
          CpelEvent ev;

          for (guint64 i = n; i > 0; i--, at++)
            {
              cpel_file_get_track_event (file, slot, i - 1, &ev);
              if (origin + ev.time_ns != new_max)
                break;
            }
          if (at > 0)
            g_hash_table_insert (self->reread_at_max,
                                 GUINT_TO_POINTER (cpel_file_get_track_id (file, slot)),
                                 GUINT_TO_POINTER ((guint) MIN (at, G_MAXUINT)));
        }
      self->reread_max = new_max;
      self->reread_have_max = TRUE;
    }
}

/* Reads the file again once it changed and then held still for a poll
 * (a writer may be in the middle of it); a file that cannot be read
 * (damaged, or still being written) is said in the status and tried again
 * when it changes; a file not there for a second (not a save that
 * replaces it) is gone.  Called with the lock held, which it lets go while
 * the file is read. */
static void
reread_poll (CpelLiveCapture *self)
{
  struct stat st;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  CpelLoadOptions options = { .n_threads = 1 };   /* no cache: off by default */
  gint64 now = g_get_monotonic_time ();

  if (g_stat (self->path, &st) != 0)
    {
      if (self->reread_missing_us == 0)
        self->reread_missing_us = now;
      else if (now - self->reread_missing_us >= G_USEC_PER_SEC)
        {
          self->status.gone = TRUE;
          self->status_dirty = TRUE;
        }
      return;
    }
  self->reread_missing_us = 0;
  if (same_state (&st, &self->reread_read))
    return;
  if (!same_state (&st, &self->reread_seen))
    {
      self->reread_seen = st;
      return;
    }
  self->reread_read = st;
  /* read without the lock: the main context asks for the counts meanwhile
   * (only this thread changes what is kept) */
  cpel_mutex_unlock (&self->lock);
  file = cpel_file_new_for_path (self->path, &options, NULL, NULL, NULL, &error);
  cpel_mutex_lock (&self->lock);
  if (self->stopping || self->status.paused)
    {
      /* paused (or stopped) meanwhile: this save is read again on resuming */
      memset (&self->reread_read, 0, sizeof self->reread_read);
      return;
    }
  if (self->status.unreadable != (file == NULL))
    {
      self->status.unreadable = file == NULL;
      self->status_dirty = TRUE;
    }
  if (file == NULL)
    {
      g_debug ("%s: %s (read again when it changes)", self->source, error->message);
      return;
    }
  reread_take (self, file);
}

static guint64
poll_locked (CpelLiveCapture *self)
{
  guint64 before = self->store->n, added;
  gint64 now = g_get_monotonic_time ();

  if (self->status.gone || self->full)
    return 0;
  if (self->kind == KIND_STDIN)
    stdin_sniff (self);
  else if (self->kind == KIND_PENDING)
    pending_poll (self);
  if (self->kind == KIND_SNABB)
    snabb_poll (self);
#if HAVE_PERF
  else if (self->kind == KIND_PERF)
    stream_poll (self, &cpel_perf_follower_class, self->perf);
#endif
#if HAVE_CTF
  else if (self->kind == KIND_LTTNG)
    stream_poll (self, &cpel_ctf_follower_class, self->lttng);
#endif
  else if (self->kind == KIND_CPEL)
    cpel_poll (self);
  else if (self->kind == KIND_REREAD)
    reread_poll (self);
  added = self->store->n >= before ? self->store->n - before : self->store->n;
  if (added > 0)
    {
      self->dirty = TRUE;
      self->status.read_us = now;
    }
  self->status.n_events = self->store->n;
  if (self->rate_t0 == 0)
    {
      self->rate_t0 = now;
      self->rate_n0 = self->store->n;
    }
  else if (now - self->rate_t0 >= G_USEC_PER_SEC)
    {
      double rate = (double) (self->store->n - MIN (self->rate_n0, self->store->n))
                    * G_USEC_PER_SEC / (double) (now - self->rate_t0);

      if (rate != self->status.rate)
        self->status_dirty = TRUE;
      self->status.rate = rate;
      self->rate_t0 = now;
      self->rate_n0 = self->store->n;
    }
  return added;
}

guint64
cpel_live_capture_poll (CpelLiveCapture *self)
{
  guint64 added;

  g_return_val_if_fail (self != NULL, 0);
  cpel_mutex_lock (&self->lock);
  added = poll_locked (self);
  cpel_mutex_unlock (&self->lock);
  return added;
}

/* ---- making CPEL ---------------------------------------------------------------- */

/* What a capture is made of, copied under the lock; the events below n
 * never change, so the build runs without it. */
typedef struct
{
  Kind     kind;
  Store   *store;
  guint64  n;
  GArray  *tracks;    /* TrackDef, strings borrowed from the copy's own */
  GArray  *types;
  GPtrArray *strings; /* owns the labels and names */
  guint64  n_lost;
  gint64   t_min;
  double   hz;        /* ticks per second; 0: the times are ns (CPEL) or unknown */
  gboolean ticks;     /* Snabb without a rate */
  gboolean with_texts;
  /* LTTng: the session's clock (a CTF clock's), its reading at t_min */
  gboolean clock_known;
  gboolean clock_unix;
  gint64   clock_origin;
  char    *clock_desc;
} Build;

static void
build_clear (Build *b)
{
  g_clear_pointer (&b->store, store_unref);
  g_clear_pointer (&b->tracks, g_array_unref);
  g_clear_pointer (&b->types, g_array_unref);
  g_clear_pointer (&b->strings, g_ptr_array_unref);
  g_clear_pointer (&b->clock_desc, g_free);
}

static void
build_copy (CpelLiveCapture *self,
            Build           *b,
            gboolean         with_texts)
{
  memset (b, 0, sizeof *b);
  b->kind = self->kind;
  b->store = store_ref (self->store);
  b->n = self->store->n;
  b->strings = g_ptr_array_new_with_free_func (g_free);
  b->tracks = g_array_sized_new (FALSE, FALSE, sizeof (TrackDef), self->tracks->len);
  for (guint i = 0; i < self->tracks->len; i++)
    {
      TrackDef d = g_array_index (self->tracks, TrackDef, i);

      d.label = g_strdup (d.label);
      g_ptr_array_add (b->strings, d.label);
      g_array_append_val (b->tracks, d);
    }
  b->types = g_array_sized_new (FALSE, FALSE, sizeof (TypeDef), self->types->len);
  for (guint i = 0; i < self->types->len; i++)
    {
      TypeDef d = g_array_index (self->types, TypeDef, i);

      d.name = g_strdup (d.name);
      g_ptr_array_add (b->strings, d.name);
      g_array_append_val (b->types, d);
    }
  b->n_lost = self->status.n_lost;
  b->t_min = b->n > 0 ? self->t_min : 0;
  b->with_texts = with_texts;
#if HAVE_CTF
  if (self->kind == KIND_LTTNG && b->n > 0)
    {
      gint64 origin;
      const char *name;
      guint64 freq;

      b->clock_known = cpel_ctf_follower_get_clock (self->lttng, &origin, &b->clock_unix,
                                                    &name, &freq)
                       && !__builtin_add_overflow (origin, b->t_min, &b->clock_origin);
      if (b->clock_known)
        b->clock_desc = g_strdup_printf (_("CTF clock “%s”, %" PRIu64 " Hz, %s"), name,
                                         freq, b->clock_unix ? _("origin the Unix epoch")
                                                             : _("origin not the Unix epoch"));
    }
#endif
  if (self->kind == KIND_SNABB)
    {
      if (self->have_mono && self->mono_ns[1] > self->mono_ns[0]
          && self->mono_t[1] > self->mono_t[0])
        b->hz = (self->mono_t[1] - self->mono_t[0]) / (self->mono_ns[1] - self->mono_ns[0]) * 1e9;
      else if (self->clock_rate)
        b->hz = (double) self->clock_rate;
      b->ticks = b->hz <= 0;
    }
}

static guint64
build_ns (const Build *b,
          gint64       t)
{
  double d = (double) (t - b->t_min);

  if (b->hz > 0)
    d = d * 1e9 / b->hz;
  return (guint64) llround (d);
}

static gboolean
import_live (const CpelImportSource  *src,
             const CpelImportOptions *options,
             CpelImportBuilder       *builder,
             GCancellable            *cancellable,
             GError                 **error)
{
  /* the build is handed over as the source's data (never a file's bytes) */
  const Build *b = (const Build *) src->data;
  g_autoptr(GString) text = g_string_new (NULL);

  if (b->kind == KIND_SNABB)
    {
      if (b->ticks)
        cpel_import_builder_set_clock (builder, CPEL_IMPORT_CLOCK_UNKNOWN,
                                       _("TSC rate unknown (no engine.got_monotonic_time events): "
                                         "times are shown as ticks; give the rate with "
                                         "--clock-rate or “Set Clock Rate…”"));
      else
        {
          g_autofree char *s = g_strdup_printf (_("TSC rate %.3f Hz"), b->hz);

          cpel_import_builder_set_clock (builder, CPEL_IMPORT_CLOCK_DERIVED, s);
        }
    }
  cpel_import_builder_add_info (builder, N_("Followed"), src->path);
  if (b->clock_known)
    {
      /* the session's clock, as a CTF trace opened from disk gives it */
      cpel_import_builder_set_clock (builder, CPEL_IMPORT_CLOCK_EXACT, b->clock_desc);
      if (b->clock_unix && b->clock_origin >= 0)
        {
          g_autofree char *start = g_strdup_printf ("%" G_GINT64_FORMAT, b->clock_origin);

          cpel_import_builder_add_info (builder, "start-unix-ns", start);
        }
      cpel_import_builder_set_clock_origin (builder,
                                            b->clock_unix ? CPEL_CLOCK_WALL : CPEL_CLOCK_SECONDS,
                                            b->clock_origin);
    }
  for (guint i = 0; i < b->tracks->len; i++)
    {
      const TrackDef *d = &g_array_index (b->tracks, TrackDef, i);

      cpel_import_builder_add_track (builder, d->id, d->label);
    }
  for (guint i = 0; i < b->types->len; i++)
    {
      const TypeDef *d = &g_array_index (b->types, TypeDef, i);

      cpel_import_builder_add_type (builder, d->code, d->name, d->has_args ? "%d" : NULL);
    }
  if (!cpel_import_builder_begin_events (builder, b->n, error))
    return FALSE;
  for (guint64 i = 0; i < b->n; i++)
    {
      const LiveEvent *e = store_event (b->store, i);

      if (b->with_texts)
        {
          g_string_truncate (text, 0);
          store_format_text (b->store, e, text);
        }
      cpel_import_builder_add_event (builder, build_ns (b, e->t), e->track, e->code, e->datum,
                                     b->with_texts ? text->str : NULL,
                                     b->with_texts ? (gssize) text->len : 0);
      if ((i & 0xffff) == 0xffff && !cpel_import_check_cancel (builder, error))
        return FALSE;
    }
  if (b->n_lost > 0)
    cpel_import_builder_add_lost (builder, b->n_lost);
  return TRUE;
}

static const CpelImporter live_snabb = {
  .id = "snabb",
  .name = N_("Snabb timeline"),
  .import = import_live,
};

static const CpelImporter live_cpel = {
  .id = "cpel-follow",
  .name = N_("CPEL"),
  .import = import_live,
};

static const CpelImporter live_perf = {
  .id = "perf-follow",
  .name = N_("perf.data"),
  .import = import_live,
};

static const CpelImporter live_lttng = {
  .id = "ctf-follow",
  .name = N_("LTTng live"),
  .import = import_live,
};

static const CpelImporter *
importer_for (Kind kind)
{
  switch (kind)
    {
    case KIND_LTTNG:
      return &live_lttng;
    case KIND_SNABB:
      return &live_snabb;
    case KIND_PERF:
      return &live_perf;
    case KIND_CPEL:
    case KIND_STDIN:
    default:
      return &live_cpel;
    }
}

static GBytes *
build_bytes (CpelLiveCapture *self,
             const Build     *b,
             GError         **error)
{
  CpelImportSource src = { self->source, (const guint8 *) b, sizeof *b, NULL };
  CpelImportOptions options = { .little_endian = TRUE };

  return cpel_import_run (importer_for (b->kind), &src, &options,
                          NULL, NULL, NULL, error);
}

CpelFile *
cpel_live_capture_snapshot (CpelLiveCapture *self,
                            GError         **error)
{
  Build b;
  g_autoptr(GBytes) bytes = NULL;
  CpelLoadOptions options = { .n_threads = 1 };
  CpelTextSource texts = { store_append_text, NULL, store_unref, NULL };
  CpelFileOrigin origin = { self->source, NULL, 0, &texts };
  CpelFile *file;

  g_return_val_if_fail (self != NULL, NULL);
  cpel_mutex_lock (&self->lock);
  build_copy (self, &b, FALSE);
  cpel_mutex_unlock (&self->lock);
  bytes = build_bytes (self, &b, error);
  if (bytes != NULL)
    {
      origin.imported_from = importer_for (b.kind)->id;
      texts.state = store_ref (b.store);   /* the file owns it from here, also on failure */
      file = cpel_file_new_imported (bytes, &origin, &options, NULL, NULL, NULL, error);
    }
  else
    file = NULL;
  build_clear (&b);
  return file;
}

gboolean
cpel_live_capture_save (CpelLiveCapture *self,
                        const char      *path,
                        GError         **error)
{
  Build b;
  g_autoptr(GBytes) bytes = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  cpel_mutex_lock (&self->lock);
  build_copy (self, &b, TRUE);
  cpel_mutex_unlock (&self->lock);
  bytes = build_bytes (self, &b, error);
  if (bytes != NULL)
    {
      g_autoptr(GError) local = NULL;

      ok = g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                (gssize) g_bytes_get_size (bytes), &local);
      if (!ok)
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", local->message);
    }
  build_clear (&b);
  return ok;
}

void
cpel_live_capture_get_status (CpelLiveCapture *self,
                              CpelLiveStatus  *status)
{
  g_return_if_fail (self != NULL && status != NULL);
  cpel_mutex_lock (&self->lock);
  *status = self->status;
  cpel_mutex_unlock (&self->lock);
}

GError *
cpel_live_capture_dup_error (CpelLiveCapture *self)
{
  GError *error;

  g_return_val_if_fail (self != NULL, NULL);
  cpel_mutex_lock (&self->lock);
  error = self->failure != NULL ? g_error_copy (self->failure) : NULL;
  cpel_mutex_unlock (&self->lock);
  return error;
}

CpelLiveSourceKind
cpel_live_capture_get_kind (CpelLiveCapture *self)
{
  CpelLiveSourceKind kind;

  g_return_val_if_fail (self != NULL, CPEL_LIVE_SOURCE_CPEL);
  cpel_mutex_lock (&self->lock);
  kind = self->source_kind;
  cpel_mutex_unlock (&self->lock);
  return kind;
}

GArray *
cpel_live_capture_dup_gaps (CpelLiveCapture *self)
{
  GArray *out;
  Build b = { 0 };

  g_return_val_if_fail (self != NULL, NULL);
  cpel_mutex_lock (&self->lock);
  out = g_array_copy (self->gaps);
  b.kind = self->kind;
  b.t_min = self->t_min;
  if (self->kind == KIND_SNABB)
    {
      if (self->have_mono && self->mono_ns[1] > self->mono_ns[0]
          && self->mono_t[1] > self->mono_t[0])
        b.hz = (self->mono_t[1] - self->mono_t[0]) / (self->mono_ns[1] - self->mono_ns[0]) * 1e9;
      else if (self->clock_rate)
        b.hz = (double) self->clock_rate;
    }
  for (guint i = 0; i < out->len; i++)
    {
      CpelLiveGap *g = &g_array_index (out, CpelLiveGap, i);

      /* the time of the event after it (or the last one's) */
      if (self->store->n > 0)
        g->time_ns = (gint64) build_ns (&b, store_event (self->store,
                                                         MIN (g->index,
                                                              self->store->n - 1))->t);
    }
  cpel_mutex_unlock (&self->lock);
  return out;
}

/* ---- the worker ----------------------------------------------------------------- */

typedef struct
{
  CpelLiveCapture *self;
  CpelFile        *file;
  CpelLiveStatus   status;
} Update;

static void
update_free (gpointer data)
{
  Update *u = data;

  cpel_tsan_taken (u);   /* also when it was never dispatched */
  g_clear_object (&u->file);
  cpel_live_capture_unref (u->self);
  g_free (u);
}

static gboolean
update_in_context (gpointer data)
{
  Update *u = data;

  cpel_tsan_taken (u);
  if (!u->self->stopped && u->self->func != NULL)
    u->self->func (u->file, &u->status, u->self->func_data);
  return G_SOURCE_REMOVE;
}

static void
post (CpelLiveCapture *self,
      CpelFile        *file)
{
  Update *u = g_new0 (Update, 1);
  GSource *source;

  u->file = file;
  u->status = self->status;
  /* the reference is dropped in the context: never the last one here */
  u->self = cpel_live_capture_ref (self);
  /* always a source of that context, never a call in this thread (which
   * g_main_context_invoke () makes when the context is free here) */
  cpel_tsan_handed (u);
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, update_in_context, u, update_free);
  g_source_set_static_name (source, "cpel-live-capture update");
  g_source_attach (source, self->context);
  g_source_unref (source);
}

/* The reader: polls the source every CPEL_LIVE_POLL_MS (the lock held
 * while it appends), asks the builder for a capture at most every
 * interval_ms, posts changes of the counts. */
static gpointer
worker (gpointer data)
{
  CpelLiveCapture *self = data;
  gint64 last = 0;

  cpel_mutex_lock (&self->lock);
  while (!self->stopping)
    {
      gint64 now;

      if (!self->status.paused)
        poll_locked (self);
      now = g_get_monotonic_time ();
      if (self->dirty && !self->building && now - last >= (gint64) self->interval_ms * 1000)
        {
          self->dirty = FALSE;
          self->status_dirty = FALSE;   /* the capture brings the counts */
          self->building = TRUE;
          self->build_wanted = TRUE;
          g_cond_signal (&self->build_cond);
          last = now;
        }
      else if (self->status_dirty && !self->building)
        {
          self->status_dirty = FALSE;
          post (self, NULL);
        }
      if (self->stopping)
        break;
      cpel_cond_wait_until (&self->cond, &self->lock,
                         g_get_monotonic_time () + CPEL_LIVE_POLL_MS * G_TIME_SPAN_MILLISECOND);
    }
  cpel_mutex_unlock (&self->lock);
  return NULL;
}

/* The builder: a CpelFile of everything kept, when the reader asks. */
static gpointer
builder (gpointer data)
{
  CpelLiveCapture *self = data;

  cpel_mutex_lock (&self->lock);
  while (!self->stopping)
    {
      g_autoptr(GError) error = NULL;
      CpelFile *file;

      if (!self->build_wanted)
        {
          cpel_cond_wait (&self->build_cond, &self->lock);
          continue;
        }
      self->build_wanted = FALSE;
      cpel_mutex_unlock (&self->lock);
      file = cpel_live_capture_snapshot (self, &error);
      if (file == NULL)
        g_warning ("%s: %s", self->source, error->message);
      cpel_mutex_lock (&self->lock);
      self->building = FALSE;
      post (self, file);
    }
  cpel_mutex_unlock (&self->lock);
  return NULL;
}

void
cpel_live_capture_start (CpelLiveCapture    *self,
                         GMainContext       *context,
                         guint               interval_ms,
                         CpelLiveUpdateFunc  func,
                         gpointer            user_data)
{
  g_return_if_fail (self != NULL && self->thread == NULL && func != NULL);

  self->context = context != NULL ? g_main_context_ref (context)
                                  : g_main_context_ref_thread_default ();
  self->interval_ms = interval_ms;
  self->func = func;
  self->func_data = user_data;
  self->thread = g_thread_new ("cpel-follow", worker, self);
  self->builder = g_thread_new ("cpel-follow-make", builder, self);
}

void
cpel_live_capture_stop (CpelLiveCapture *self)
{
  g_return_if_fail (self != NULL);
  self->stopped = TRUE;
  if (self->thread == NULL)
    return;
  cpel_mutex_lock (&self->lock);
  self->stopping = TRUE;
  g_cond_signal (&self->cond);
  g_cond_signal (&self->build_cond);
  cpel_mutex_unlock (&self->lock);
  g_thread_join (self->thread);
  g_thread_join (self->builder);
  self->thread = NULL;
  self->builder = NULL;
}

void
cpel_live_capture_set_paused (CpelLiveCapture *self,
                              gboolean         paused)
{
  g_return_if_fail (self != NULL);
  cpel_mutex_lock (&self->lock);
  if (self->status.paused != !!paused)
    {
      self->status.paused = !!paused;
      self->status_dirty = TRUE;
      self->rate_t0 = 0;
      self->status.rate = 0;
      g_cond_signal (&self->cond);
    }
  cpel_mutex_unlock (&self->lock);
}
