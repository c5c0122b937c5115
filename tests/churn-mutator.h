/* SPDX-License-Identifier: Apache-2.0 */
/* churn-mutator.h — a thread that changes a capture on disk the ways a
 * capture changes under a reader, for the churn tests (tests/cli,
 * tests/app): bytes overwritten in place (then put back), the file cut
 * short (then restored), another capture copied over it as cp does
 * (truncated, written in pieces; then the original copied back).  It waits
 * for mutator_go, changes the file until `stop` is set, and leaves the
 * original content behind.  `steps` (under `lock`, `cond` signalled) counts
 * the changes. */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib.h>

typedef struct
{
  char    *path;         /* the file changed */
  GBytes  *orig;         /* its content */
  GBytes  *other;        /* another capture of its format, copied over it */
  GRand   *rand;
  GMutex   lock;
  GCond    cond;
  guint    steps;        /* changes made (under lock) */
  gboolean go;           /* under lock: changes may start */
  gint     stop;         /* atomic */
} Mutator;

static inline void
write_all (int fd, const guint8 *p, gsize len, goffset at)
{
  while (len > 0)
    {
      ssize_t n = pwrite (fd, p, MIN (len, 4096), at);
      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      p += n;
      at += n;
      len -= (gsize) n;
    }
}

/* Copies `content` over the file as cp does: truncated, then written. */
static inline void
copy_over (const char *path, GBytes *content)
{
  int fd = open (path, O_WRONLY | O_TRUNC);
  gsize len;
  const guint8 *p = g_bytes_get_data (content, &len);

  g_assert_cmpint (fd, >=, 0);
  write_all (fd, p, len, 0);
  close (fd);
}

static inline void
mutate_once (Mutator *m, guint step)
{
  gsize len;
  const guint8 *orig = g_bytes_get_data (m->orig, &len);
  int fd;

  switch (step % 3)
    {
    case 0:
      {
        /* bytes overwritten in place, then put back */
        guint8 junk[64];
        gsize at = (gsize) g_rand_int_range (m->rand, 0, (gint32) len);
        gsize n = MIN (sizeof junk, len - at);
        for (gsize i = 0; i < n; i++)
          junk[i] = (guint8) g_rand_int (m->rand);
        fd = open (m->path, O_WRONLY);
        g_assert_cmpint (fd, >=, 0);
        write_all (fd, junk, n, (goffset) at);
        write_all (fd, orig + at, n, (goffset) at);
        close (fd);
      }
      break;
    case 1:
      /* cut short, then restored */
      fd = open (m->path, O_WRONLY);
      g_assert_cmpint (fd, >=, 0);
      g_assert_cmpint (ftruncate (fd, g_rand_int_range (m->rand, 0, (gint32) len)), ==, 0);
      write_all (fd, orig, len, 0);
      close (fd);
      break;
    default:
      /* another capture copied over it, then the original */
      copy_over (m->path, m->other);
      copy_over (m->path, m->orig);
      break;
    }
}

static inline gpointer
mutate_thread (gpointer data)
{
  Mutator *m = data;
  guint step = 0;

  g_mutex_lock (&m->lock);
  while (!m->go)
    g_cond_wait (&m->cond, &m->lock);
  g_mutex_unlock (&m->lock);
  while (!g_atomic_int_get (&m->stop))
    {
      mutate_once (m, step++);
      g_mutex_lock (&m->lock);
      m->steps++;
      g_cond_broadcast (&m->cond);
      g_mutex_unlock (&m->lock);
    }
  copy_over (m->path, m->orig);
  return NULL;
}

static inline void
mutator_go (Mutator *m)
{
  g_mutex_lock (&m->lock);
  m->go = TRUE;
  g_cond_broadcast (&m->cond);
  g_mutex_unlock (&m->lock);
}

