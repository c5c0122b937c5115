/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-snabb-follow.c — a Snabb timeline ring read while written
 *
 * See cpel-snabb-follow.h for the method.  Positions: `next` is the slot
 * read next, `guard` the slot before it and `guard_tsc` the TSC it must
 * still hold for `next` to be read safely; `last_tsc` is the TSC of the
 * last entry returned: a slot holds a new entry when its TSC is greater.
 *
 * Counting a lap.  Say the guard held entry number s (entries numbered in
 * write order, entry s in slot s mod N).  Its TSC changed, so the writer
 * wrote entry s + N at least.  The first slot after the guard whose TSC is
 * below the guard's new one is found by bisection, d slots on: the slot
 * before it, W = guard + d − 1, holds an entry at least as new, so its
 * number is at least s + N + d − 1.  The slot after W may be being written
 * (it holds the oldest entry); reading resumes at W + 2, whose entry is
 * number s_W − N + 2 or later.  Entries s + 1 … s_W − N + 1 are thus not
 * returned: at least d of them.
 */
#include "cpel-snabb-follow.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"
#include "cpel-mapguard.h"

#define HEADER_SIZE  64
#define ENTRY_SIZE   64
#define KEY_SIZE     24      /* magic, version, sizes: a ring is the same while they are */
#define MAX_REREADS  64
#define MAX_LAPS     64      /* per poll: a writer that keeps lapping the reader */
#define STRINGS_MAX  (16u * 0xFFFFu)

static const guint8 snabb_magic[8] = { 0x01, 0x00, 0x1d, 0x44, 0x23, 0x72, 0xff, 0xa3 };

struct _CpelSnabbFollower
{
  char             *path;
  int               fd;
  dev_t             dev;
  ino_t             ino;
  const guint8     *map;
  gsize             map_size;
  guint             guard_id;     /* cpel-mapguard registration */
  guint8            key[KEY_SIZE];
  guint32           n_slots;
  guint32           strings_bytes;

  guint32           next;
  guint32           guard;
  double            guard_tsc;
  double            last_tsc;
  guint64           pending_lost;
  gboolean          pending_new_ring;

  CpelSnabbMessage *msgs;         /* by id, parsed when first asked */
  guint8           *msg_tried;
  guint32           n_msgs;

  guint64           n_read, n_lost, n_reread;
  guint             n_rings;
};

static inline double
bits_f64 (guint64 v)
{
  double d;

  v = GUINT64_FROM_LE (v);
  memcpy (&d, &v, 8);
  return d;
}

/* The TSC of a slot, with acquire (the entry's bytes are read after it). */
static inline double
slot_tsc (const CpelSnabbFollower *f,
          guint32                  slot,
          int                      order)
{
  const guint64 *p = (const guint64 *) (f->map + HEADER_SIZE + (gsize) slot * ENTRY_SIZE);

  return bits_f64 (__atomic_load_n (p, order));
}

/* Forgets the messages read (a new ring may have others). */
static void
clear_messages (CpelSnabbFollower *f)
{
  for (guint32 id = 0; id < f->n_msgs; id++)
    cpel_snabb_message_clear (&f->msgs[id]);
  if (f->n_msgs > 0)
    {
      memset (f->msgs, 0, sizeof *f->msgs * f->n_msgs);
      memset (f->msg_tried, 0, f->n_msgs);
    }
}

static void
unmap (CpelSnabbFollower *f)
{
  if (f->map != NULL)
    {
      cpel_mapguard_unregister (f->guard_id);
      munmap ((void *) f->map, f->map_size);
      f->map = NULL;
      f->guard_id = 0;
    }
  if (f->fd >= 0)
    close (f->fd);
  f->fd = -1;
  clear_messages (f);
  g_clear_pointer (&f->msgs, g_free);
  g_clear_pointer (&f->msg_tried, g_free);
  f->n_msgs = 0;
}

static void sync_ring (CpelSnabbFollower *f);

/* Opens and maps the file at f->path, checks its header and finds where
 * reading starts (what is in the ring then is read; anything the writer
 * overwrites from now on before it is read is counted as lost). */
static gboolean
map_ring (CpelSnabbFollower *f,
          GError           **error)
{
  struct stat st;
  const guint8 *h;
  guint32 log_bytes, strings_bytes;
  guint16 major;
  void *map;
  int fd;

  fd = g_open (f->path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int e = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", g_strerror (e));
      return FALSE;
    }
  if (!S_ISREG (st.st_mode) || st.st_size < HEADER_SIZE)
    {
      close (fd);
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("Snabb timeline: the header is truncated at offset %" PRId64
                     " (64 bytes needed)"), (gint64) st.st_size);
      return FALSE;
    }
  map = mmap (NULL, (gsize) st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    {
      int e = errno;

      close (fd);
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", g_strerror (e));
      return FALSE;
    }
  f->fd = fd;
  f->dev = st.st_dev;
  f->ino = st.st_ino;
  f->map = map;
  f->map_size = (gsize) st.st_size;
  f->guard_id = cpel_mapguard_register (map, f->map_size);

  h = f->map;
  memcpy (f->key, h, KEY_SIZE);
  major = (guint16) (h[8] | h[9] << 8);
  log_bytes = (guint32) h[12] | (guint32) h[13] << 8 | (guint32) h[14] << 16
              | (guint32) h[15] << 24;
  strings_bytes = (guint32) h[16] | (guint32) h[17] << 8 | (guint32) h[18] << 16
                  | (guint32) h[19] << 24;
  if (memcmp (h, snabb_magic, 8) != 0)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL,
                   _("This is not a Snabb timeline (no magic at offset 0)"));
      goto fail;
    }
  if (major != 3)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
                   _("Snabb timeline: unknown format version %u at offset 8; only 3.x is "
                     "supported"), major);
      goto fail;
    }
  if (log_bytes % ENTRY_SIZE != 0 || log_bytes < 2 * ENTRY_SIZE
      || (guint64) HEADER_SIZE + log_bytes + strings_bytes > f->map_size)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("Snabb timeline: the header (offset 12) announces %u entry bytes and %u "
                     "string bytes, which do not fit a ring in the file's %" PRIu64
                     " bytes"), log_bytes, strings_bytes, (guint64) f->map_size);
      goto fail;
    }
  f->n_slots = log_bytes / ENTRY_SIZE;
  f->strings_bytes = MIN (strings_bytes, STRINGS_MAX);
  f->n_msgs = f->strings_bytes / 16 + 1;
  f->msgs = g_new0 (CpelSnabbMessage, f->n_msgs);
  f->msg_tried = g_new0 (guint8, f->n_msgs);
  sync_ring (f);
  return TRUE;

fail:
  unmap (f);
  return FALSE;
}

CpelSnabbFollower *
cpel_snabb_follower_new (const char *path,
                         GError    **error)
{
  g_autoptr(CpelSnabbFollower) f = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  f = g_new0 (CpelSnabbFollower, 1);
  f->fd = -1;
  f->path = g_strdup (path);
  if (!map_ring (f, error))
    return NULL;
  f->n_rings = 1;
  return g_steal_pointer (&f);
}

void
cpel_snabb_follower_free (CpelSnabbFollower *f)
{
  if (f == NULL)
    return;
  unmap (f);
  g_free (f->path);
  g_free (f);
}

/* The first offset d in [1, n_slots) from `from` whose slot's TSC is below
 * `tsc` (an unwritten slot's 0 too), n_slots if none: a bisection over the
 * ring seen from `from`, where newer entries come first. */
static guint32
find_drop (CpelSnabbFollower *f,
           guint32            from,
           double             tsc)
{
  guint32 lo = 1, hi = f->n_slots;   /* the answer is in [lo, hi] */

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;
      double t = slot_tsc (f, (guint32) (((guint64) from + mid) % f->n_slots),
                           __ATOMIC_ACQUIRE);

      if (!(t >= tsc))
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* Where reading starts in a ring: its oldest entry that is safe to read. */
static void
sync_ring (CpelSnabbFollower *f)
{
  guint32 n = f->n_slots;
  double t0 = slot_tsc (f, 0, __ATOMIC_ACQUIRE);

  f->last_tsc = 0;
  clear_messages (f);
  if (!(t0 > 0))
    {
      /* empty: entries will come from slot 0 */
      f->next = 0;
      f->guard = n - 1;
      f->guard_tsc = slot_tsc (f, n - 1, __ATOMIC_ACQUIRE);
      return;
    }
  {
    guint32 w = find_drop (f, 0, t0) - 1;   /* the newest */
    guint32 oldest = w + 1 == n ? 0 : w + 1;
    double t = slot_tsc (f, oldest, __ATOMIC_ACQUIRE);

    if (!(t > 0))
      {
        /* not wrapped: slots 0..w */
        f->next = 0;
        f->guard = n - 1;
        f->guard_tsc = slot_tsc (f, n - 1, __ATOMIC_ACQUIRE);
      }
    else
      {
        /* wrapped: the oldest slot may be being rewritten, skip it */
        f->guard = oldest;
        f->guard_tsc = t;
        f->next = oldest + 1 == n ? 0 : oldest + 1;
      }
  }
}

/* The guard changed to tsc: the writer lapped us.  Counts the loss and
 * moves to the oldest safe entry. */
static void
resync_lapped (CpelSnabbFollower *f,
               double             tsc)
{
  guint32 n = f->n_slots;
  guint32 d = find_drop (f, f->guard, tsc);
  guint32 w = (guint32) (((guint64) f->guard + d - 1) % n);
  guint32 skip = w + 1 == n ? 0 : w + 1;

  f->pending_lost += d;
  f->n_lost += d;
  f->guard = skip;
  f->guard_tsc = slot_tsc (f, skip, __ATOMIC_ACQUIRE);
  f->next = skip + 1 == n ? 0 : skip + 1;
}

/* Is the file at the path still ours, unchanged?  FALSE when it was
 * removed (*gone) or replaced by another file (*replaced: the old one is
 * still mapped, whole), shrunk or given a new header (a new ring). */
static gboolean
check_file (CpelSnabbFollower *f,
            gboolean          *gone,
            gboolean          *replaced)
{
  struct stat st, fst;

  *gone = *replaced = FALSE;
  if (g_stat (f->path, &st) != 0)
    {
      *gone = TRUE;
      return FALSE;
    }
  if (st.st_dev != f->dev || st.st_ino != f->ino)
    {
      *replaced = TRUE;
      return FALSE;
    }
  if (fstat (f->fd, &fst) != 0 || fst.st_nlink == 0)
    {
      *gone = TRUE;
      return FALSE;
    }
  if ((gsize) fst.st_size < f->map_size || cpel_mapguard_is_damaged (f->guard_id))
    return FALSE;
  return memcmp (f->map, f->key, KEY_SIZE) == 0;
}

/* Reads new entries from the current mapping into out; stops at max, when
 * caught up, or at a lap or a new ring once something was read. */
static gsize
read_entries (CpelSnabbFollower *f,
              CpelSnabbEntry    *out,
              gsize              max,
              CpelSnabbPollInfo *info)
{
  gsize count = 0;
  guint32 n = f->n_slots;
  guint laps = 0;

  while (count < max)
    {
      const guint8 *e = f->map + HEADER_SIZE + (gsize) f->next * ENTRY_SIZE;
      const guint64 *words = (const guint64 *) e;
      guint64 copy[8];
      double t1, t2, g;
      guint tries;

      for (tries = 0; ; tries++)
        {
          double lap_tsc = 0;

          t1 = slot_tsc (f, f->next, __ATOMIC_ACQUIRE);
          if (!(t1 > f->last_tsc) || !isfinite (t1))
            {
              /* caught up; unless the guard went back in time: the ring
               * was emptied and started again */
              g = slot_tsc (f, f->guard, __ATOMIC_ACQUIRE);
              if (g < f->guard_tsc || (g != f->guard_tsc && !(g > 0)))
                {
                  sync_ring (f);
                  f->pending_new_ring = TRUE;
                  f->n_rings++;
                }
              return count;
            }
          if (!(t1 > f->guard_tsc))
            {
              /* the guard holds a newer entry than the slot after it: the
               * writer went past the guard (since a resync) */
              lap_tsc = f->guard_tsc;
            }
          else
            {
              /* acquire loads: the TSC and the guard below are read after
               * them (plain loads on x86, as the writer's stores are) */
              for (guint i = 1; i < 8; i++)
                copy[i] = __atomic_load_n (&words[i], __ATOMIC_ACQUIRE);
              t2 = slot_tsc (f, f->next, __ATOMIC_RELAXED);
              g = slot_tsc (f, f->guard, __ATOMIC_RELAXED);
              if (g != f->guard_tsc && !(isnan (g) && isnan (f->guard_tsc)))
                {
                  if (!(g > f->guard_tsc))
                    {
                      /* the guard went back in time: the ring was started again */
                      sync_ring (f);
                      f->pending_new_ring = TRUE;
                      f->n_rings++;
                      return count;
                    }
                  lap_tsc = g;
                }
              else if (t2 == t1)
                break;   /* whole */
              else
                {
                  f->n_reread++;
                  if (tries >= MAX_REREADS)
                    return count;   /* the writer keeps rewriting it: next poll */
                  continue;
                }
            }

          /* lapped: nothing of this slot is used */
          resync_lapped (f, lap_tsc);
          if (count > 0 || ++laps > MAX_LAPS)
            return count;   /* the loss goes before the next poll's entries */
          info->lost += f->pending_lost;
          f->pending_lost = 0;
          e = f->map + HEADER_SIZE + (gsize) f->next * ENTRY_SIZE;
          words = (const guint64 *) e;
          tries = 0;
        }

      {
        CpelSnabbEntry *out_e = &out[count++];
        guint64 w1 = GUINT64_FROM_LE (copy[1]);

        out_e->tsc = t1;
        out_e->slot = f->next;
        out_e->msgid = (guint16) w1;
        out_e->core_numa = (guint16) (w1 >> 16);
        for (guint i = 0; i < CPEL_SNABB_MAX_ARGS; i++)
          out_e->args[i] = bits_f64 (copy[2 + i]);
      }
      f->last_tsc = t1;
      f->guard = f->next;
      f->guard_tsc = t1;
      f->next = f->next + 1 == n ? 0 : f->next + 1;
    }
  return count;
}

gsize
cpel_snabb_follower_poll (CpelSnabbFollower *f,
                          CpelSnabbEntry    *out,
                          gsize              max,
                          CpelSnabbPollInfo *info)
{
  gsize count = 0;
  gboolean gone = FALSE, replaced = FALSE;

  g_return_val_if_fail (f != NULL, 0);
  g_return_val_if_fail (out != NULL || max == 0, 0);
  g_return_val_if_fail (info != NULL, 0);

  memset (info, 0, sizeof *info);
  info->lost = f->pending_lost;
  f->pending_lost = 0;
  if (f->pending_new_ring && f->map != NULL)
    {
      info->new_ring = TRUE;
      f->pending_new_ring = FALSE;
    }
  if (f->map != NULL)
    {
      gboolean same = check_file (f, &gone, &replaced);

      /* a file removed or replaced stays mapped, whole: what is left in it first */
      if (same || gone || replaced)
        count = read_entries (f, out, max, info);
      if (same || count > 0)
        goto done;
      unmap (f);
    }
  if (gone)
    {
      info->gone = TRUE;
      goto done;
    }
  /* replaced, shrunk, rewritten, or not open: a new ring once it reads */
  if (g_file_test (f->path, G_FILE_TEST_EXISTS))
    {
      if (map_ring (f, NULL))
        {
          f->n_rings++;
          info->new_ring = TRUE;
          count = read_entries (f, out, max, info);
        }
    }
  else
    info->gone = TRUE;

done:
  f->n_read += count;
  return count;
}

const CpelSnabbMessage *
cpel_snabb_follower_message (CpelSnabbFollower *f,
                             guint16            msgid)
{
  CpelSnabbMessage *m;
  gsize off = (gsize) msgid * 16;
  const guint8 *strings, *s, *nul;

  g_return_val_if_fail (f != NULL, NULL);

  if (f->map == NULL || msgid >= f->n_msgs || off >= f->strings_bytes)
    return NULL;
  m = &f->msgs[msgid];
  if (m->valid)
    return m;
  if (f->msg_tried[msgid])
    return NULL;
  strings = f->map + HEADER_SIZE + (gsize) f->n_slots * ENTRY_SIZE;
  s = strings + off;
  if (s[0] == 0 || (off > 0 && s[-1] != 0))
    return NULL;   /* not yet written, or not the start of a message */
  nul = memchr (s, 0, f->strings_bytes - off);
  if (nul == NULL)
    return NULL;
  f->msg_tried[msgid] = 1;
  if (!cpel_snabb_message_parse ((const char *) s, nul - s, m))
    return NULL;
  return m;
}

void
cpel_snabb_follower_counts (CpelSnabbFollower *f,
                            guint64           *n_read,
                            guint64           *n_lost,
                            guint64           *n_reread,
                            guint             *n_rings)
{
  g_return_if_fail (f != NULL);

  if (n_read)
    *n_read = f->n_read;
  if (n_lost)
    *n_lost = f->n_lost;
  if (n_reread)
    *n_reread = f->n_reread;
  if (n_rings)
    *n_rings = f->n_rings;
}
