/* SPDX-License-Identifier: Apache-2.0 */
/* bench-run.c — run a command a few times: wall time (monotonic clock),
 * user and system CPU time and peak RSS of each run, from wait4().
 *
 * usage: bench-run RUNS COMMAND [ARG…]
 * The command's standard output goes to /dev/null.  Prints key=value lines:
 *   best_s (the fastest run's wall time), user_s, sys_s (of that run),
 *   peak_kb (the largest peak RSS of all runs), runs_s (every wall time),
 *   status (the last non-zero exit status, or 0).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

int
main (int argc, char **argv)
{
  guint runs;
  double best = -1, best_user = 0, best_sys = 0;
  long peak_kb = 0;
  int status_out = 0;
  g_autoptr(GString) all = g_string_new (NULL);

  if (argc < 3 || (runs = (guint) g_ascii_strtoull (argv[1], NULL, 10)) == 0)
    {
      fprintf (stderr, "usage: %s RUNS COMMAND [ARG…]\n", argv[0]);
      return 2;
    }

  for (guint r = 0; r < runs; r++)
    {
      gint64 start = g_get_monotonic_time ();
      struct rusage ru;
      int status;
      pid_t pid = fork ();
      double wall, user, sys;

      if (pid < 0)
        return 1;
      if (pid == 0)
        {
          int null = open ("/dev/null", O_WRONLY);

          dup2 (null, 1);
          execvp (argv[2], argv + 2);
          _exit (127);
        }
      if (wait4 (pid, &status, 0, &ru) != pid)
        return 1;
      wall = (double) (g_get_monotonic_time () - start) / 1e6;
      user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
      sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
      if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        status_out = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
      if (best < 0 || wall < best)
        {
          best = wall;
          best_user = user;
          best_sys = sys;
        }
      peak_kb = MAX (peak_kb, ru.ru_maxrss);
      g_string_append_printf (all, "%s%.3f", r ? "," : "", wall);
    }
  printf ("best_s=%.3f\nuser_s=%.3f\nsys_s=%.3f\npeak_kb=%ld\nruns_s=%s\nstatus=%d\n",
          best, best_user, best_sys, peak_kb, all->str, status_out);
  return 0;
}
