/* SPDX-License-Identifier: Apache-2.0 */
/* lttng-tracef-writer.c — an LTTng user-space application for the LTTng live
 * tests (tests/lib/cpel-test-lttng.c): writes N events with lttng-ust's
 * tracef(), "seq=I" for I = 0 … N-1, one every `gap_us` µs (0: as fast as
 * it can, to make LTTng discard events), from one thread pinned to the
 * first CPU it may run on (one stream: a loss lies between the events
 * around it).  With FIRST, I runs from FIRST.
 *
 * Usage: lttng-tracef-writer N GAP_US [FIRST] */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <lttng/tracef.h>

int
main (int argc, char **argv)
{
  if (argc != 3 && argc != 4)
    {
      fprintf (stderr, "usage: lttng-tracef-writer N GAP_US [FIRST]\n");
      return 2;
    }
  long n = strtol (argv[1], NULL, 10), gap_us = strtol (argv[2], NULL, 10);
  long first = argc == 4 ? strtol (argv[3], NULL, 10) : 0;
  cpu_set_t set;
  if (sched_getaffinity (0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
      if (CPU_ISSET (cpu, &set))
        {
          CPU_ZERO (&set);
          CPU_SET (cpu, &set);
          sched_setaffinity (0, sizeof set, &set);
          break;
        }
  for (long i = first; i < first + n; i++)
    {
      tracef ("seq=%ld", i);
      if (gap_us > 0)
        usleep ((useconds_t) gap_us);
    }
  return 0;
}
