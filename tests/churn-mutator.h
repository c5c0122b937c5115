/* SPDX-License-Identifier: Apache-2.0 */
/* churn-mutator.h — a thread that changes a capture on disk the ways a
 * capture changes under a reader, for the churn tests (tests/cli,
 * tests/app): bytes overwritten in place (then put back), the file cut
 * short (then restored), another capture copied over it as cp does
 * (truncated, written in pieces; then the original copied back).  It waits
 * for mutator_go, changes the file until `stop` is set, and leaves the
 * original content behind.  `steps` (under `lock`, `cond` signalled) counts
 * the changes.  Both tests prepare their copy, start and stop the thread
 * with the functions at the end. */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cpel-test-util.h"

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


/* Waits until the mutator has made at least one more change. */
static inline void
mutator_wait_step (Mutator *m)
{
  g_mutex_lock (&m->lock);
  guint before = m->steps;
  while (m->steps == before)
    g_cond_wait (&m->cond, &m->lock);
  g_mutex_unlock (&m->lock);
}

/* Starts the thread; when `early`, it is at work (one change made) on
 * return, else it waits for mutator_go. */
static inline GThread *
mutator_start (Mutator *m, gboolean early)
{
  g_atomic_int_set (&m->stop, 0);
  m->go = FALSE;
  GThread *thread = g_thread_new ("mutator", mutate_thread, m);
  if (early)
    {
      mutator_go (m);
      mutator_wait_step (m);
    }
  return thread;
}

/* Stops the thread: the original content is back on return. */
static inline void
mutator_stop (Mutator *m, GThread *thread)
{
  g_atomic_int_set (&m->stop, 1);
  g_thread_join (thread);
}

static inline GBytes *
churn_read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 0);
  return g_bytes_new_take (data, len);
}

static inline void
churn_copy_file (const char *from, const char *to)
{
  g_autoptr(GBytes) b = churn_read_bytes (from);
  g_assert_true (g_file_set_contents (to, g_bytes_get_data (b, NULL),
                                      (gssize) g_bytes_get_size (b), NULL));
}

/* Prepares `m` for a copy in `tmp` of the fixture `file` (a trace's stream
 * when `trace`, the trace's folder, is not NULL; the folder is copied) with
 * `other` (a fixture, or NULL: the file itself) copied over it; or, when
 * `file` is NULL, for the generated `gen_path` with `gen_other`.  Returns
 * what is opened: the copy, or the copied trace's folder. */
static inline char *
mutator_init (Mutator *m, const char *tmp, const char *file, const char *other,
              const char *trace, const char *gen_path, const char *gen_other)
{
  g_autofree char *other_path = NULL;
  char *open_path;

  memset (m, 0, sizeof *m);
  if (file == NULL)
    {
      m->path = g_strdup (gen_path);
      open_path = g_strdup (gen_path);
      other_path = g_strdup (gen_other);
    }
  else if (trace != NULL)
    {
      g_autofree char *src = cpel_test_fixture_dir (trace);
      g_autofree char *base = g_path_get_basename (file);
      open_path = g_build_filename (tmp, "trace", NULL);
      cpel_test_copy_tree (src, open_path);
      m->path = g_build_filename (open_path, base, NULL);
    }
  else
    {
      g_autofree char *src = cpel_test_fixture_file (file);
      g_autofree char *base = g_path_get_basename (file);
      m->path = g_build_filename (tmp, base, NULL);
      churn_copy_file (src, m->path);
      open_path = g_strdup (m->path);
    }
  if (other_path == NULL && other != NULL)
    other_path = cpel_test_fixture_file (other);

  m->orig = churn_read_bytes (m->path);
  m->other = other_path != NULL ? churn_read_bytes (other_path) : g_bytes_ref (m->orig);
  m->rand = g_rand_new_with_seed (0x5eed);
  g_mutex_init (&m->lock);
  g_cond_init (&m->cond);
  return open_path;
}

static inline void
mutator_clear (Mutator *m)
{
  g_mutex_clear (&m->lock);
  g_cond_clear (&m->cond);
  g_rand_free (m->rand);
  g_bytes_unref (m->orig);
  g_bytes_unref (m->other);
  g_free (m->path);
}
