/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-follow.h — reading a CPEL file while sections are appended to it
 *
 * The follower reads the file's sections in order (doc/cpel-format.md) as
 * they become complete: string tables, event and track definitions are
 * kept, and each events section's records are returned as events, in file
 * order, formatted as the viewer labels them.  The header's section count
 * is not trusted (a writer that appends may update it last, or never); a
 * section is read once all its bytes are there.  A file replaced, shortened
 * or changed before the point already read is a rewritten file: it is read
 * again from the start.  Reads are pread()s, one section at a time, each
 * at most CPEL_FOLLOW_SECTION_MAX bytes.
 */
#pragma once

#include <glib.h>
#include <sys/stat.h>

G_BEGIN_DECLS

#define CPEL_FOLLOW_SECTION_MAX (256u << 20)

typedef struct _CpelFollower CpelFollower;

/* One event, valid until the next poll. */
typedef struct
{
  gint64      time_ns;      /* from the first event read */
  guint32     track_id;
  guint32     code;
  guint32     datum_value;
  const char *track_label;
  const char *name;         /* the event type's name */
  const char *datum;        /* the datum formatted */
} CpelFollowEvent;

typedef struct
{
  gboolean rewritten;   /* the file was rewritten: events from its start again */
  gboolean gone;        /* the file was removed; a stream ended */
} CpelFollowInfo;

/* What a poll of a stream follower says (perf pipe mode, LTTng live). */
typedef struct
{
  guint64  lost;          /* events the source lost before the first event returned
                           * (its own count: exact) */
  guint64  lost_packets;  /* LTTng: packets lost there too, their events not counted */
  gboolean rewritten;     /* a file rewritten: its events from the start again */
  gboolean attached;      /* LTTng: the session is read (set from then on) */
  gboolean gone;          /* the stream ended, the file was removed, the session ended */
  gboolean more;          /* more is read already: poll again now */
} CpelStreamFollowInfo;

/* A stream follower for whoever reads several kinds alike (the live
 * capture, `cpel dump --follow`): poll returns the number of events (at
 * most max), read with event () until the next poll; 0 and an error for a
 * source that cannot be read. */
typedef struct
{
  gsize                  (*poll)  (gpointer               follower,
                                   gsize                  max,
                                   CpelStreamFollowInfo  *info,
                                   GError               **error);
  const CpelFollowEvent *(*event) (gpointer               follower,
                                   gsize                  i);
} CpelStreamFollowerClass;

/* Opens a CPEL file (it may be empty yet, or hold only its header).
 * clock_rate, when not 0, replaces every events section's rate. */
CpelFollower          *cpel_follower_new    (const char      *path,
                                             guint64          clock_rate,
                                             GError         **error);
/* Follows a stream (a pipe, standard input): the bytes are read as they
 * come, without waiting, and the end of the stream is info->gone.  The fd
 * stays the caller's. */
CpelFollower          *cpel_follower_new_for_fd (int          fd,
                                                 guint64      clock_rate);
/* A stream follower: bytes already read from its fd (to tell what the
 * stream is), read first. */
void                   cpel_follower_push_prefix (CpelFollower *follower,
                                                  const guint8 *data,
                                                  gsize         len);
void                   cpel_follower_free   (CpelFollower    *follower);
/* Reads what was appended; returns the number of events (at most max),
 * then read with cpel_follower_event ().  0 and an error (CPEL_ERROR, with
 * the byte offset) for a damaged file. */
gsize                  cpel_follower_poll   (CpelFollower    *follower,
                                             gsize            max,
                                             CpelFollowInfo  *info,
                                             GError         **error);
const CpelFollowEvent *cpel_follower_event  (CpelFollower    *follower,
                                             gsize            i);

/* Appends to `into` what `fd` (a pipe, standard input) holds now, at most
 * `max` bytes, without waiting; *eof is set at the end of the stream (and
 * on a read error, with `error` set).  Returns the bytes appended.  The
 * stream followers and `cpel dump --follow -` read their input with it. */
gsize                  cpel_follow_read_available (int          fd,
                                                   GByteArray  *into,
                                                   gsize        max,
                                                   gboolean    *eof,
                                                   GError     **error);

/* Opens a file to follow: read-only, close-on-exec, with `flags` added
 * (O_NONBLOCK…); *st filled (its device and inode tell a replacement).
 * -1 with an error (CPEL_ERROR_IO) when it cannot be read or is not a
 * regular file. */
int                    cpel_follow_open_regular (const char  *path,
                                                 int          flags,
                                                 struct stat *st,
                                                 GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelFollower, cpel_follower_free)

G_END_DECLS
