/* SPDX-License-Identifier: Apache-2.0 */
/* snabb-ring-writer.c — a Snabb timeline ring written live, by hand
 * (snabb-ring-writer.h): to watch `cpel dump --follow` on a ring that is
 * being written, or to lap it.
 *
 * usage: snabb-ring-writer PATH [SLOTS [RATE [COUNT]]]
 *   SLOTS  ring size (default 1000000, as Snabb's)
 *   RATE   entries per second (default 1000; 0: as fast as it can)
 *   COUNT  entries to write, then the ring is removed as Snabb removes it
 *          at exit (default 0: until interrupted, and the ring is kept)
 */
#include <stdio.h>
#include <stdlib.h>

#include "snabb-ring-writer.h"

int
main (int argc, char **argv)
{
  guint32 slots = argc > 2 ? (guint32) strtoul (argv[2], NULL, 10) : 1000000;
  guint64 rate = argc > 3 ? g_ascii_strtoull (argv[3], NULL, 10) : 1000;
  guint64 count = argc > 4 ? g_ascii_strtoull (argv[4], NULL, 10) : 0;
  SnabbRing *ring;
  gint64 t0;

  if (argc < 2 || slots < 2)
    {
      fprintf (stderr, "usage: %s PATH [SLOTS [RATE [COUNT]]]\n", argv[0]);
      return 2;
    }
  ring = snabb_ring_create (argv[1], slots);
  t0 = g_get_monotonic_time ();
  while (count == 0 || snabb_ring_written (ring) < count)
    {
      guint64 n = snabb_ring_written (ring);
      guint64 want = rate == 0 ? n + 1024
                     : (guint64) ((double) (g_get_monotonic_time () - t0) * 1e-6 * rate);

      if (count != 0)
        want = MIN (want, count);
      if (want > n)
        snabb_ring_write (ring, want - n);
      else
        g_usleep (1000);   /* pacing the writer, by hand */
    }
  if (count != 0)
    g_unlink (argv[1]);
  snabb_ring_free (ring);
  return 0;
}
