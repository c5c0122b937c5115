/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-background.c — a pool of lower-priority threads for GTasks */
#define _GNU_SOURCE 1   /* gettid */
#include "cpel-background.h"
#include "cpel-tsan-private.h"

#include <errno.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

typedef struct
{
  GTask           *task;
  GTaskThreadFunc  func;
} Work;

static __thread gboolean lowered;
static __thread gboolean tried;

/* Lowers this thread's CPU priority (Linux: the nice value is the
 * thread's own), once. */
static void
lower_once (void)
{
  if (tried)
    return;
  tried = TRUE;
#ifdef __linux__
  {
    pid_t tid = (pid_t) syscall (SYS_gettid);
    int now;

    errno = 0;
    now = getpriority (PRIO_PROCESS, (id_t) tid);
    if (errno == 0)
      lowered = setpriority (PRIO_PROCESS, (id_t) tid,
                             MIN (now + CPEL_BACKGROUND_NICE, 19)) == 0;
  }
#endif
}

static void
run_work (gpointer data,
          gpointer user_data)
{
  Work *w = data;

  cpel_tsan_taken (w);
  lower_once ();
  w->func (w->task, g_task_get_source_object (w->task), g_task_get_task_data (w->task),
           g_task_get_cancellable (w->task));
  g_object_unref (w->task);
  g_free (w);
}

static GThreadPool *
pool_get (void)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    {
      /* as many threads as CPUs (at least two: a count and the spans'),
       * kept: they only ever run this work */
      GThreadPool *p = g_thread_pool_new (run_work, NULL, MAX (2, (gint) g_get_num_processors ()),
                                          FALSE, NULL);

      g_once_init_leave (&pool, p);
    }
  return pool;
}

void
cpel_background_run (GTask           *task,
                     GTaskThreadFunc  func)
{
  Work *w;

  g_return_if_fail (G_IS_TASK (task) && func != NULL);
  w = g_new (Work, 1);
  w->task = g_object_ref (task);
  w->func = func;
  cpel_tsan_handed (w);
  g_thread_pool_push (pool_get (), w, NULL);
}

gboolean
cpel_background_is_lowered (void)
{
  return lowered;
}
