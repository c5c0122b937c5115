/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-index-cache-writer.c — writing a cache file without competing with
 * what the user sees
 *
 * A cache of 10^8 events is 1.2 GB.  Written at once, it takes a CPU and,
 * when the kernel writes the page cache back, the disk, in bursts that
 * stall the viewer's frames and searches.  So the write runs in a thread of
 * its own at the lowest CPU priority (SCHED_IDLE: it gets a CPU only when
 * no other thread wants it) and the idle I/O class (ioprio), and writes in
 * bounded chunks: each chunk's write-back is started as soon as it is
 * written and waited for one chunk later, then its pages are dropped from
 * the page cache (they are not read again), so that dirty pages never pile
 * up.  A thread of its own, not a pool thread: an unprivileged thread
 * cannot leave SCHED_IDLE again.  On a busy machine such a thread gets
 * almost no CPU: when someone waits for the write (an application
 * quitting: cpel_index_cache_hurry ()), the idle thread stops after its
 * piece and the caller's thread writes the rest.  Linux only; elsewhere a
 * plain write.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* SCHED_IDLE, sync_file_range */
#endif

#include "cpel-index-cache-private.h"

#include <errno.h>
#include <fcntl.h>

#ifdef G_OS_UNIX
#include <unistd.h>
#endif
#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#endif

#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_IDLE  3
#define IOPRIO_WHO_PROCESS 1

#define WRITE_MAX ((guint64) 1 << 30)

static guint64 write_chunk = CPEL_INDEX_CACHE_WRITE_CHUNK;
static gint hurried;

void
cpel_index_cache_hurry (void)
{
  g_atomic_int_set (&hurried, TRUE);
}

gboolean
cpel_index_cache_is_hurried (void)
{
  return g_atomic_int_get (&hurried);
}

void
cpel_index_cache_set_write_chunk (guint64 bytes)
{
  write_chunk = bytes;
}

void
cpel_index_cache_writer_init (CpelIndexCacheWriter *w,
                              int                   fd)
{
  memset (w, 0, sizeof *w);
  w->fd = fd;
  w->chunk = write_chunk;
}

#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
#define HAVE_SYNC_FILE_RANGE 1
#endif

/* Waits for the write-back of [from, to) and drops its pages. */
static void
settle (CpelIndexCacheWriter *w,
        guint64               from,
        guint64               to)
{
  if (to <= from)
    return;
#ifdef HAVE_SYNC_FILE_RANGE
  sync_file_range (w->fd, (off_t) from, (off_t) (to - from),
                   SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE
                   | SYNC_FILE_RANGE_WAIT_AFTER);
#endif
#if defined(G_OS_UNIX) && defined(POSIX_FADV_DONTNEED)
  posix_fadvise (w->fd, (off_t) from, (off_t) (to - from), POSIX_FADV_DONTNEED);
#endif
}

/* [w->started, end) is written: once it is a chunk, its write-back is
 * started and the chunk before it settled. */
static void
wrote_up_to (CpelIndexCacheWriter *w,
             guint64               end,
             gboolean              last)
{
  if (w->chunk == 0 || end < w->started)
    return;
  if (!last && end - w->started < w->chunk)
    return;
#ifdef HAVE_SYNC_FILE_RANGE
  sync_file_range (w->fd, (off_t) w->started, (off_t) (end - w->started), SYNC_FILE_RANGE_WRITE);
#endif
  settle (w, w->settled, w->started);
  w->settled = w->started;
  w->started = end;
  w->n_chunks++;
  if (last)
    {
      settle (w, w->settled, end);
      w->settled = end;
    }
}

gboolean
cpel_index_cache_writer_write (CpelIndexCacheWriter *w,
                               const guint8         *p,
                               guint64               n,
                               guint64               offset,
                               GCancellable         *cancellable)
{
  guint64 piece = w->chunk != 0 ? MIN (w->chunk, WRITE_MAX) : WRITE_MAX;

  /* the writes come in file order; a gap (a range left to zeros) is written
   * back with what follows it */
  while (n > 0)
    {
      gssize r;

      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if (w->may_stop && g_atomic_int_get (&hurried))
        {
          w->stopped = TRUE;
          return FALSE;
        }
      r = pwrite (w->fd, p, (gsize) MIN (n, piece), (off_t) offset);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return FALSE;
      p += r;
      n -= (guint64) r;
      offset += (guint64) r;
      w->end = MAX (w->end, offset);
      wrote_up_to (w, offset, FALSE);
    }
  w->end = MAX (w->end, offset);
  return TRUE;
}

void
cpel_index_cache_writer_finish (CpelIndexCacheWriter *w)
{
  wrote_up_to (w, w->end, TRUE);
}

/* ---- the writer's thread ---- */

typedef struct
{
  CpelIndexCacheIdleFunc  func;
  gpointer                data;
  int                     policy;
  int                     ioprio;
} IdleJob;

static gpointer
idle_thread (gpointer user_data)
{
  IdleJob *job = user_data;

#ifdef __linux__
  {
    struct sched_param param = { 0 };

    pthread_setschedparam (pthread_self (), SCHED_IDLE, &param);
#ifdef SYS_ioprio_set
    /* this thread only (who 0: the calling thread) */
    syscall (SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
    job->ioprio = (int) syscall (SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
#endif
    job->policy = sched_getscheduler (0);
  }
#endif
  job->func (job->data);
  return NULL;
}

void
cpel_index_cache_run_idle (CpelIndexCacheIdleFunc  func,
                           gpointer                data,
                           int                    *policy,
                           int                    *ioprio)
{
  IdleJob job = { func, data, -1, -1 };
  GThread *thread = g_thread_try_new ("cpel-cache-write", idle_thread, &job, NULL);

  if (thread != NULL)
    g_thread_join (thread);
  else
    func (data);   /* no thread to be had: written as any other work */
  if (policy != NULL)
    *policy = job.policy;
  if (ioprio != NULL)
    *ioprio = job.ioprio;
}
