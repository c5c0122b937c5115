/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-follow.h — reading a perf pipe-mode stream while perf writes it
 *
 * `perf record -o - …` writes pipe mode: header records (attrs, tracing
 * formats, features), then the kernel's records as they come.  The
 * follower reads a stream (standard input, a pipe: its end is the writer's
 * exit) or a pipe-mode file that grows (`perf record -o - > FILE`), without
 * waiting, and returns its samples as events in the order perf wrote them:
 * a tracepoint sample on the track "CPU N" with its fields as perf script
 * prints them, any other sample on its thread's track "COMM [TID]" with
 * "PID/TID IP".  Times are perf's clock from the first sample.  A LOST or
 * LOST_SAMPLES record is a gap with perf's own count (exact; the kernel
 * counts a sample the ring had no room for in both, so the loss is the
 * larger of their sums, and a record adds what goes beyond): poll returns
 * it first (info->lost; LOST records with no sample between them are one
 * gap) and stops before the next one, so that each gap stays where perf
 * put it.  A file replaced or shorter than what was read
 * is read again from its start (info->rewritten).
 *
 * The stream is untrusted: the header records are bounded
 * (CPEL_PERF_FOLLOW_HEADER_MAX), every record is checked as the perf.data
 * reader checks a file's, and an error names the byte offset (the samples
 * before the damage are returned first).
 */
#pragma once

#include "cpel-follow.h"

G_BEGIN_DECLS

#define CPEL_PERF_FOLLOW_HEADER_MAX (256u << 20)

typedef struct _CpelPerfFollower CpelPerfFollower;

/* lost: perf's count; rewritten: a file rewritten; gone: the stream ended,
 * or the file was removed; more: after a gap, or max (lost_packets and
 * attached are not used). */
typedef CpelStreamFollowInfo CpelPerfFollowInfo;

/* The follower as a CpelStreamFollowerClass's. */
extern const CpelStreamFollowerClass cpel_perf_follower_class;

/* TRUE when `data` starts like a pipe-mode perf stream (PERFILE2 with a
 * 16-byte header); at least 16 bytes are needed to tell. */
gboolean               cpel_perf_follow_sniff        (const guint8 *data,
                                                      gsize         len);
/* Follows a pipe-mode file (it may be empty yet). */
CpelPerfFollower      *cpel_perf_follower_new        (const char   *path,
                                                      GError      **error);
/* Follows a stream; the fd stays the caller's. */
CpelPerfFollower      *cpel_perf_follower_new_for_fd (int           fd);
/* A stream follower: bytes already read from its fd, read first. */
void                   cpel_perf_follower_push_prefix (CpelPerfFollower *follower,
                                                       const guint8     *data,
                                                       gsize             len);
void                   cpel_perf_follower_free       (CpelPerfFollower *follower);
/* Reads what was written; returns the number of events (at most max),
 * read with cpel_perf_follower_event () until the next poll.  0 and an
 * error (CPEL_ERROR, with the byte offset) for a damaged stream. */
gsize                  cpel_perf_follower_poll       (CpelPerfFollower   *follower,
                                                      gsize               max,
                                                      CpelPerfFollowInfo *info,
                                                      GError            **error);
const CpelFollowEvent *cpel_perf_follower_event      (CpelPerfFollower *follower,
                                                      gsize             i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelPerfFollower, cpel_perf_follower_free)

G_END_DECLS
