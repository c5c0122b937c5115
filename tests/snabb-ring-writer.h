/* SPDX-License-Identifier: Apache-2.0 */
/* snabb-ring-writer.h — a Snabb timeline v3 ring written live, as Snabb's
 * timeline.dasl writes it, for the tests and benchmarks of the follower
 *
 * The file is laid out as doc/import-formats.md, section 2 says (64-byte
 * header, 64-byte entries, a string table of messages on a 16-byte grid)
 * and mapped shared; entries go into the slots one after the other, from
 * slot 0, wrapping at the end, and each is stored as Snabb stores it: the
 * arguments and the message id first, the TSC last (a release store).
 *
 * Entry number `seq` (from 0) has TSC snabb_ring_tsc (seq), argument 0 =
 * seq and arguments 1–5 = snabb_ring_check (seq, i): a reader checks every
 * entry it returns with snabb_ring_entry_ok ().  Messages: id 0
 * "test.seq" (even seq), id 3 "test.odd core=7" (odd seq).
 */
#pragma once

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#define SNABB_RING_STRINGS_BYTES 128

typedef struct
{
  char    *path;
  guint8  *map;
  gsize    size;
  guint32  n_slots;
  guint32  cursor;     /* the next slot written */
  guint64  seq;        /* the next entry's number; atomic (other threads read it) */
} SnabbRing;

static inline double
snabb_ring_tsc (guint64 seq)
{
  return 1000.0 + 3.0 * (double) seq;
}

static inline double
snabb_ring_check (guint64 seq,
                  guint   i)
{
  return (double) ((seq * 2654435761u + i * 40503u + 17u) & 0xffffffffu);
}

static inline guint16
snabb_ring_msgid (guint64 seq)
{
  return seq % 2 ? 3 : 0;
}

static inline void
snabb_ring_store (guint8 *p,
                  guint64 v,
                  int     order)
{
  v = GUINT64_TO_LE (v);
  __atomic_store_n ((guint64 *) p, v, order);
}

static inline guint64
snabb_ring_f64_bits (double d)
{
  guint64 v;

  memcpy (&v, &d, 8);
  return v;
}

/* Creates PATH (replacing it: a new file, a new inode) holding an empty
 * ring of n_slots entries, mapped for writing. */
static inline SnabbRing *
snabb_ring_create (const char *path,
                   guint32     n_slots)
{
  static const char *const messages[] = {
    "1,5|test.seq: seq c1 c2 c3 c4 c5",
    "2,3|test.odd core=7: seq c1 c2 c3 c4 c5",
  };
  SnabbRing *r = g_new0 (SnabbRing, 1);
  g_autofree char *tmp = g_strconcat (path, ".new", NULL);
  guint8 header[64] = { 0x01, 0x00, 0x1d, 0x44, 0x23, 0x72, 0xff, 0xa3, 3, 0, 0, 0 };
  guint8 strings[SNABB_RING_STRINGS_BYTES] = { 0 };
  guint32 log_bytes = n_slots * 64, strings_bytes = SNABB_RING_STRINGS_BYTES;
  int fd;

  r->path = g_strdup (path);
  r->n_slots = n_slots;
  r->size = 64 + (gsize) log_bytes + strings_bytes;
  memcpy (header + 12, &(guint32) { GUINT32_TO_LE (log_bytes) }, 4);
  memcpy (header + 16, &(guint32) { GUINT32_TO_LE (strings_bytes) }, 4);
  memcpy (strings, messages[0], strlen (messages[0]));
  memcpy (strings + 48, messages[1], strlen (messages[1]));
  fd = open (tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) r->size), ==, 0);
  g_assert_cmpint (pwrite (fd, header, 64, 0), ==, 64);
  g_assert_cmpint (pwrite (fd, strings, strings_bytes, 64 + (off_t) log_bytes), ==,
                   strings_bytes);
  r->map = mmap (NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  g_assert_true (r->map != MAP_FAILED);
  close (fd);
  g_assert_cmpint (g_rename (tmp, path), ==, 0);
  return r;
}

/* Writes n entries, each as Snabb does: arguments and message id, then the TSC. */
static inline void
snabb_ring_write (SnabbRing *r,
                  guint64    n)
{
  for (guint64 k = 0; k < n; k++)
    {
      guint64 seq = __atomic_load_n (&r->seq, __ATOMIC_RELAXED);
      guint8 *e = r->map + 64 + (gsize) r->cursor * 64;
      guint64 word1 = snabb_ring_msgid (seq) | (guint64) (seq % 4) << 16;

      /* release stores: the previous entry's TSC is visible before any of
       * this one's bytes (plain stores on x86, as Snabb's) */
      snabb_ring_store (e + 16, snabb_ring_f64_bits ((double) seq), __ATOMIC_RELEASE);
      snabb_ring_store (e + 8, word1, __ATOMIC_RELEASE);
      for (guint i = 1; i < 6; i++)
        snabb_ring_store (e + 16 + 8 * i, snabb_ring_f64_bits (snabb_ring_check (seq, i)),
                          __ATOMIC_RELEASE);
      snabb_ring_store (e, snabb_ring_f64_bits (snabb_ring_tsc (seq)), __ATOMIC_RELEASE);
      r->cursor = r->cursor + 1 == r->n_slots ? 0 : r->cursor + 1;
      __atomic_store_n (&r->seq, seq + 1, __ATOMIC_RELEASE);
    }
}

/* Entries written so far (from any thread). */
static inline guint64
snabb_ring_written (SnabbRing *r)
{
  return __atomic_load_n (&r->seq, __ATOMIC_ACQUIRE);
}

/* TRUE when (tsc, args) is an entry as snabb_ring_write () wrote it, whole;
 * *seq its number. */
static inline gboolean
snabb_ring_entry_ok (double        tsc,
                     guint16       msgid,
                     const double *args,
                     guint64      *seq)
{
  guint64 s;

  if (!(args[0] >= 0 && args[0] < 9e15))
    return FALSE;
  s = (guint64) args[0];
  *seq = s;
  if (tsc != snabb_ring_tsc (s) || msgid != snabb_ring_msgid (s))
    return FALSE;
  for (guint i = 1; i < 6; i++)
    if (args[i] != snabb_ring_check (s, i))
      return FALSE;
  return TRUE;
}

static inline void
snabb_ring_free (SnabbRing *r)
{
  munmap (r->map, r->size);
  g_free (r->path);
  g_free (r);
}
