/* SPDX-License-Identifier: Apache-2.0 */
/* test-background.c — GTasks run by the lower-priority pool */
#define _GNU_SOURCE 1
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpel-background.h"

typedef struct
{
  int      nice;      /* the thread's, as it ran */
  gboolean lowered;
  gboolean main_thread;
} Seen;

static GThread *main_thread;

static void
work (GTask        *task,
      gpointer      source,
      gpointer      data,
      GCancellable *cancellable)
{
  Seen *seen = g_new0 (Seen, 1);

  g_assert_true (GPOINTER_TO_UINT (data) == 42);
  seen->nice = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
  seen->lowered = cpel_background_is_lowered ();
  seen->main_thread = g_thread_self () == main_thread;
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_free (seen);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
    }
  else
    g_task_return_pointer (task, seen, g_free);
}

static void
done (GObject      *source,
      GAsyncResult *result,
      gpointer      user_data)
{
  GAsyncResult **out = user_data;

  g_assert_true (g_thread_self () == main_thread);
  *out = g_object_ref (result);
}

/* The work runs in another thread whose nice value is the process's plus
 * CPEL_BACKGROUND_NICE; the result comes back in the task's context; a
 * cancelled task still runs its function, which says so; the main
 * thread's priority is untouched. */
static void
test_run (void)
{
  int before = getpriority (PRIO_PROCESS, 0);

  main_thread = g_thread_self ();
  for (guint i = 0; i < 6; i++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GTask) task = NULL;
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree Seen *seen = NULL;

      if (i == 5)
        g_cancellable_cancel (cancellable);
      task = g_task_new (NULL, cancellable, done, &result);
      g_task_set_task_data (task, GUINT_TO_POINTER (42), NULL);
      cpel_background_run (task, work);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);
      seen = g_task_propagate_pointer (G_TASK (result), &error);
      if (i == 5)
        {
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          continue;
        }
      g_assert_no_error (error);
      g_assert_false (seen->main_thread);
      g_assert_true (seen->lowered);
      g_assert_cmpint (seen->nice, ==, MIN (before + CPEL_BACKGROUND_NICE, 19));
    }
  g_assert_cmpint (getpriority (PRIO_PROCESS, 0), ==, before);
  g_assert_false (cpel_background_is_lowered ());
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/background/run", test_run);
  return g_test_run ();
}
