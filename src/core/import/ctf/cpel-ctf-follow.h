/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-follow.h — following an LTTng live session
 *
 * An LTTng session created with `lttng create --live` sends its trace to
 * lttng-relayd, which serves it to readers while it is recorded, at a URL
 * `net://HOST[:PORT]/host/TRACED-HOST/SESSION`.  The follower reads it
 * with libbabeltrace2's source.ctf.lttng-live in the CTF reader child
 * (cpel-ctf-reader --live URL: a library that may abort on a damaged
 * trace never runs in this process) and returns its events, without
 * waiting, as cpel-ctf-trace.h describes them (tracks per thread or CPU,
 * the payload as text, scheduling marks).  Times are ns from the first
 * event.  Events the tracer discarded (its ring was full) are a gap with
 * LTTng's own count (exact), after the packet that counts them: where they
 * were lost in the usual case, at most a packet late when a packet was
 * closed while events were being discarded (cpel-ctf-reader.c); never
 * before.  Packets lost on the way (info->lost_packets) are a gap too,
 * whose events are not counted.  Poll returns a gap first and stops before
 * the events after the next gap.  The end of
 * the session (destroyed, or lttng-relayd gone) is info->gone.
 *
 * What the reader writes is read as untrusted input (cpel-ctf-wire.h); a
 * reader that dies, says nothing for $CPEL_CTF_READER_TIMEOUT seconds or
 * grows past its memory limit is stopped, and the error says why (the
 * events before were returned first).
 */
#pragma once

#include "cpel-follow.h"

G_BEGIN_DECLS

typedef struct _CpelCtfFollower CpelCtfFollower;

/* lost: the events LTTng discarded; lost_packets: packets lost there too;
 * attached: the reader reads the session (what it records from now on is
 * returned); gone: the session ended (rewritten is not used). */
typedef CpelStreamFollowInfo CpelCtfFollowInfo;

/* The follower as a CpelStreamFollowerClass's. */
extern const CpelStreamFollowerClass cpel_ctf_follower_class;

/* TRUE when `source` is an LTTng live URL (net://, net4://, net6://). */
gboolean               cpel_ctf_follow_is_url       (const char        *source);
/* Starts reading the session at `url`; the connection is made by the
 * reader: an unknown session or relay daemon is an error of a later poll. */
CpelCtfFollower       *cpel_ctf_follower_new        (const char        *url,
                                                     GError           **error);
/* Stops the reader. */
void                   cpel_ctf_follower_free       (CpelCtfFollower   *follower);
/* Reads what the reader sent; returns the number of events (at most max),
 * read with cpel_ctf_follower_event () until the next poll.  0 and an
 * error (CPEL_ERROR) once the reader failed, at this poll and every later
 * one. */
gsize                  cpel_ctf_follower_poll       (CpelCtfFollower   *follower,
                                                     gsize              max,
                                                     CpelCtfFollowInfo *info,
                                                     GError           **error);
const CpelFollowEvent *cpel_ctf_follower_event      (CpelCtfFollower   *follower,
                                                     gsize              i);
/* Waits until the reader has written more (it says something every
 * quarter of a second while it runs) or has ended, at most timeout_ms (-1:
 * no limit); TRUE when a poll has something to read.  For callers that
 * have nothing else to wait on (the tests). */
gboolean               cpel_ctf_follower_wait       (CpelCtfFollower   *follower,
                                                     gint               timeout_ms);
/* The session's clock once its first event was returned: the ns from the
 * clock's origin of time 0 (the first event), whether that origin is the
 * Unix epoch, the clock's name and frequency; FALSE before. */
gboolean               cpel_ctf_follower_get_clock  (CpelCtfFollower   *follower,
                                                     gint64            *origin_ns,
                                                     gboolean          *unix_epoch,
                                                     const char       **name,
                                                     guint64           *frequency);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelCtfFollower, cpel_ctf_follower_free)

G_END_DECLS
