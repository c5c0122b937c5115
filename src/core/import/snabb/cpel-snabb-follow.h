/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-snabb-follow.h — reading a Snabb timeline ring while it is written
 *
 * The ring (doc/import-formats.md, section 2) has no write cursor and no
 * sequence numbers.  The follower finds the newest entry where the TSC
 * drops, then returns, at each poll, the entries written since the last
 * one, in order.  An entry is copied between two reads of its TSC and
 * accepted only if it is newer than the slot before it (the guard) and the
 * guard still holds what it held: the writer stores arguments first and
 * the TSC last, one slot after the other, so it can be rewriting a slot
 * only after it rewrote the one before.  A changed guard (or one newer
 * than the slot after it) means the writer lapped the reader: the entries lost are
 * counted as "at least N" (N the fewest that can have been overwritten,
 * never more than were) and reading resumes at the oldest entry that is
 * safe to read.  A slot whose TSC changed while it was read is read again.
 * A file replaced or rewritten is a new ring; an unlinked one is gone.
 *
 * The file is mapped shared and guarded (cpel-mapguard.h): a file that
 * shrinks reads as zeros and is opened again.  Every read is bounded by the
 * header's sizes, checked against the file's size.
 */
#pragma once

#include <glib.h>

#include "cpel-snabb-message.h"

G_BEGIN_DECLS

typedef struct _CpelSnabbFollower CpelSnabbFollower;

/* One entry as the writer stored it. */
typedef struct
{
  double   tsc;
  guint32  slot;
  guint16  msgid;
  guint16  core_numa;
  double   args[CPEL_SNABB_MAX_ARGS];
} CpelSnabbEntry;

/* What happened before the entries a poll returned. */
typedef struct
{
  guint64  lost;        /* at least this many entries were overwritten before out[0] */
  gboolean new_ring;    /* the writer started a new ring: out[0] is its first entry read */
  gboolean gone;        /* the file was removed and everything in it was returned */
} CpelSnabbPollInfo;

/* Opens a ring file; NULL with an error (CPEL_ERROR) when it cannot be
 * read or is not a Snabb timeline of format 3.  The first polls return
 * the entries already in the ring, oldest first. */
CpelSnabbFollower      *cpel_snabb_follower_new      (const char         *path,
                                                      GError            **error);
void                    cpel_snabb_follower_free     (CpelSnabbFollower  *follower);

/* Copies at most max new entries into out and fills *info; returns how
 * many.  0 with info->gone: the file was removed and nothing is left to read. */
gsize                   cpel_snabb_follower_poll     (CpelSnabbFollower  *follower,
                                                      CpelSnabbEntry     *out,
                                                      gsize               max,
                                                      CpelSnabbPollInfo  *info);

/* The message of id msgid, read from the string table when first asked
 * (Snabb adds messages while it runs); NULL when there is none there. */
const CpelSnabbMessage *cpel_snabb_follower_message  (CpelSnabbFollower  *follower,
                                                      guint16             msgid);

/* Counters since the follower was made: entries returned, entries lost
 * (at least), slots read again because they changed while read, rings. */
void                    cpel_snabb_follower_counts   (CpelSnabbFollower  *follower,
                                                      guint64            *n_read,
                                                      guint64            *n_lost,
                                                      guint64            *n_reread,
                                                      guint              *n_rings);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSnabbFollower, cpel_snabb_follower_free)

G_END_DECLS
