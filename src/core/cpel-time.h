/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-time.h — times shown to people */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Format a duration/time in nanoseconds in the largest unit that keeps 3+
 * significant digits: "0 ns", "850 ns", "1.234 µs", "12.345 ms", "3.210 s".
 * Negative values get a leading '-'. Returns a newly allocated string. */
char    *cpel_time_format        (gint64       ns);

/* Same, into a caller buffer (at least 32 bytes); returns buf. */
char    *cpel_time_format_buf    (gint64       ns,
                                  char        *buf,
                                  gsize        len);
/* Same, into buf[CPEL_TIME_FORMAT_SIZE], not NUL-terminated: returns the
 * length (hot paths: `cpel dump` formats one time per event). */
#define CPEL_TIME_FORMAT_SIZE 32
gsize    cpel_time_format_to     (gint64       ns,
                                  char        *buf);

/* One end `t` of a range whose other end is `other`: as cpel_time_format,
 * but a 0 takes the unit of the other end ("0 ms" with "50.330 ms", not
 * "0 ns").  Into a caller buffer (at least 32 bytes); returns buf. */
char    *cpel_time_format_range_end (gint64  t,
                                     gint64  other,
                                     char   *buf,
                                     gsize   len);

/* What a capture's times count: nanoseconds, or ticks of a clock whose rate
 * is unknown (a Snabb timeline without engine.got_monotonic_time events),
 * which are read as one tick = one ns and must never be labelled as
 * seconds (cpel_file_get_time_kind). */
typedef enum
{
  CPEL_TIME_KIND_NS,
  CPEL_TIME_KIND_TICKS,
} CpelTimeKind;

/* The name of unit 0..3 of a kind: ns, µs, ms, s; or ticks, kticks, Mticks,
 * Gticks (translated); larger units are 3. */
const char *cpel_time_unit_name  (CpelTimeKind kind,
                                  guint        unit);

/* cpel_time_format() of a time of that kind: ticks keep the digits and
 * take the units ticks, kticks, Mticks, Gticks (translated): "850 ticks",
 * "1.234 kticks".  Returns a newly allocated string. */
char    *cpel_time_format_kind   (gint64       t,
                                  CpelTimeKind kind);

/* Every digit of t, in the unit cpel_time_format() picks for `scale` (a
 * capture's duration, so that a column of times shares one unit), so that
 * times 1 ns apart read apart: "28.121210 ms", "0.000001234 s", "850 ns"
 * (ticks: "28.121210 Mticks").  Into buf (NUL-terminated, truncated to
 * len - 1 bytes); returns the length. */
gsize    cpel_time_format_exact_to (gint64        t,
                                    gint64        scale,
                                    CpelTimeKind  kind,
                                    char         *buf,
                                    gsize         len);

/* The capture's own clock (cpel_file_get_clock_origin): what an absolute
 * time counts.  SECONDS: seconds of the source's clock from its own origin
 * (perf's default clock: since boot, as `perf script` prints them; a CTF
 * clock not counting from 1970); WALL: ns since 1970-01-01 00:00 UTC (an
 * elog's wall clock, a CTF clock from the Unix epoch); NONE: not known
 * (only the time since the first event). */
typedef enum
{
  CPEL_CLOCK_NONE,
  CPEL_CLOCK_SECONDS,
  CPEL_CLOCK_WALL,
} CpelClockKind;

/* An absolute time `abs_ns` of a clock of that kind with `decimals` (0-9)
 * digits of the second, cut, not rounded, as `perf script` does:
 * SECONDS "2584.361365" (decimals 6); WALL, in UTC,
 * "2026-12-02 16:40:01.123456789" (decimals 9), or only the time of day
 * "16:40:01.123" when `time_only`.  Negative times count back from the
 * origin (floor).  Into buf (NUL-terminated, cut to len - 1 bytes); returns
 * the length.  NONE gives "". */
gsize    cpel_time_format_clock_to (CpelClockKind  kind,
                                    gint64         abs_ns,
                                    guint          decimals,
                                    gboolean       time_only,
                                    char          *buf,
                                    gsize          len);
/* Newly allocated. */
char    *cpel_time_format_clock    (CpelClockKind  kind,
                                    gint64         abs_ns,
                                    guint          decimals);

/* Parse "123", "123ns", "1.5us", "1.5µs", "2ms", "0.3s" into ns. */
gboolean cpel_time_parse         (const char  *text,
                                  gint64      *ns);

/* Parse a clock rate in ticks per second: "1000000000", "1e9", "2.6GHz",
 * "2.6G", "500MHz", "33.3kHz" (surrounding blanks allowed); FALSE for
 * anything else or a rate below 1 or of 2^63 and more. */
gboolean cpel_clock_rate_parse   (const char  *text,
                                  guint64     *rate);

G_END_DECLS
