/* SPDX-License-Identifier: Apache-2.0 */
/* bench-scan.c — the floor for a first open: one pass that maps a CPEL
 * file and byte-swaps every event record (times, tracks, codes, datums),
 * with nothing built.  Best of RUNS, wall time on the monotonic clock.
 *
 * usage: bench-scan FILE [RUNS]
 * Prints key=value lines: events, scan_best_s, checksum (so the pass is not
 * optimised away).  Only CPEL event sections (type 5) are read; their
 * counts are bounded by the section lengths.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

static inline guint32
rd (const guint8 *p, gboolean le)
{
  guint32 v;

  memcpy (&v, p, 4);
  return le ? GUINT32_FROM_LE (v) : GUINT32_FROM_BE (v);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  const guint8 *data;
  gsize size;
  guint runs = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 3;
  double best = -1;
  guint64 events = 0, sum = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE [RUNS]\n", argv[0]);
      return 2;
    }
  for (guint r = 0; r < MAX (runs, 1); r++)
    {
      gint64 start = g_get_monotonic_time ();
      gboolean le;
      guint n_sections;
      guint64 off = 8;

      mapped = g_mapped_file_new (argv[1], FALSE, &error);
      if (mapped == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      data = (const guint8 *) g_mapped_file_get_contents (mapped);
      size = g_mapped_file_get_length (mapped);
      if (size < 8)
        return 1;
      le = (data[0] & 0x80) != 0;
      n_sections = le ? (guint) (data[2] | data[3] << 8) : (guint) (data[2] << 8 | data[3]);
      events = 0;
      for (guint s = 0; s < n_sections && size - off >= 8; s++)
        {
          guint32 type = rd (data + off, le), len = rd (data + off + 4, le);
          const guint8 *rec;
          guint32 count;

          if (size - off - 8 < len)
            break;
          if (type == 5 && len >= 72)
            {
              count = MIN (rd (data + off + 8 + 64, le), (len - 72) / 20);
              rec = data + off + 8 + 72;
              for (guint32 i = 0; i < count; i++, rec += 20)
                sum += ((guint64) rd (rec, le) << 32 | rd (rec + 4, le))
                       ^ rd (rec + 8, le) ^ rd (rec + 12, le) ^ rd (rec + 16, le);
              events += count;
            }
          off += 8 + (guint64) len;
        }
      g_clear_pointer (&mapped, g_mapped_file_unref);
      {
        double s = (double) (g_get_monotonic_time () - start) / 1e6;
        if (best < 0 || s < best)
          best = s;
      }
    }
  printf ("events=%" G_GUINT64_FORMAT "\nscan_best_s=%.3f\nchecksum=%" G_GUINT64_FORMAT "\n",
          events, best, sum);
  return 0;
}
