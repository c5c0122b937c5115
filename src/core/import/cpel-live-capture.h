/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-live-capture.h — a capture followed while it is written, kept in memory
 *
 * The source is what `cpel dump --follow` reads: a Snabb timeline ring (a
 * file, or `snabb:PID`), a CPEL file that grows, a perf pipe-mode file
 * that grows, an LTTng live session (its net:// URL), standard input (a
 * CPEL or perf pipe-mode stream), or a file of another format that is
 * saved again and again (VPP's `event-logger save`): read again whole
 * each time it changed, the events after the last
 * one seen on the capture's own clock kept.  A worker thread polls
 * it every CPEL_LIVE_POLL_MS and appends what is new to an in-memory store
 * (times, track, code, datum and each event's text; blocks that never move,
 * so that the texts of the captures already handed out are read without a
 * lock).  At most every `interval_ms` a second thread makes a CpelFile of
 * everything kept (a rebuild of the CPEL and its index: the simple design,
 * its cost grows with the events kept; see doc/performance.md; the reader
 * keeps reading meanwhile) and hands it, with the counts, to a callback in
 * the caller's main context.
 *
 * Nothing is invented: entries the writer overwrote before they were read
 * are counted ("at least N" for a Snabb ring, which has no sequence
 * numbers) and kept as gaps (where, how many); a new ring continues after
 * the last time seen; a rewritten CPEL file starts the capture again.
 * Paused, the source is not read (a ring may lap the reader meanwhile: the
 * loss is then counted on resuming); everything seen stays.
 */
#pragma once

#include "cpel-file.h"

G_BEGIN_DECLS

#define CPEL_LIVE_POLL_MS 20

typedef struct _CpelLiveCapture CpelLiveCapture;

typedef struct
{
  guint64  n_events;     /* kept */
  guint64  n_lost;       /* entries overwritten before they were read (at least) */
  gboolean lost_exact;   /* FALSE: a Snabb ring's loss is a lower bound */
  guint    n_gaps;       /* places where entries were lost */
  guint    n_new_rings;  /* times the writer started again (Snabb) */
  guint    n_rewritten;  /* times the file was rewritten (CPEL: the capture restarted) */
  gboolean gone;         /* the source was removed: the writer has exited */
  gboolean unreadable;   /* a file read again whole: its last save could not be read */
  gboolean failed;       /* the source cannot be read (damaged, a session that is not
                          * there): cpel_live_capture_dup_error () says why; what was
                          * read stays, nothing more is */
  gboolean paused;
  gboolean connecting;   /* an LTTng live session not read yet (its reader attaches) */
  double   rate;         /* events per second read, over the last second or so */
  gint64   read_us;      /* monotonic time of the last read that found events (0: none) */
} CpelLiveStatus;

/* A place where entries were lost, before event `index` (file order). */
typedef struct
{
  guint64 index;
  guint64 n_lost;
  gint64  time_ns;       /* the time of the event after the gap, in the capture's time */
} CpelLiveGap;

/* Called in the main context given to start: the newest capture (a
 * reference for the callee to take, or NULL when nothing new was made) and
 * the counts. */
typedef void (*CpelLiveUpdateFunc) (CpelFile             *file,
                                    const CpelLiveStatus *status,
                                    gpointer              user_data);

typedef enum
{
  CPEL_LIVE_SOURCE_CPEL,    /* a CPEL file that grows */
  CPEL_LIVE_SOURCE_SNABB,   /* a Snabb timeline ring */
  CPEL_LIVE_SOURCE_PERF,    /* a perf pipe-mode file that grows (perf record -o - > FILE) */
  CPEL_LIVE_SOURCE_STDIN,   /* `-`: a CPEL or perf pipe-mode stream, its first bytes tell */
  CPEL_LIVE_SOURCE_REREAD,  /* a file of another format (VPP elog), read again when rewritten */
  CPEL_LIVE_SOURCE_PENDING, /* a file too short yet to tell (empty, or a perf header begun) */
  CPEL_LIVE_SOURCE_LTTNG,   /* an LTTng live session: net://HOST/host/HOSTNAME/SESSION */
} CpelLiveSourceKind;

/* The file SOURCE names (`snabb:PID`: that process's ring, or NULL with
 * an error when there is none; `-`: standard input; a net:// URL: itself,
 * an LTTng live session) and what it holds, by
 * its first bytes (else it is read as CPEL).  A perf.data file written to
 * a file (not pipe mode: it is complete only when perf exits) is refused
 * with an error.  A file too short yet to tell (a writer has just made
 * it) is PENDING: ask again once it holds more.  `cpel dump --follow`
 * too. */
char            *cpel_live_source_resolve    (const char          *source,
                                              CpelLiveSourceKind  *kind,
                                              GError             **error);
/* A stream's first bytes (16, or fewer when it ended): *is_perf for a perf
 * pipe-mode stream, else CPEL; FALSE with an error for a perf.data
 * written to a file (not pipe mode), which cannot be followed.  Standard
 * input of the viewer and of `cpel dump --follow -`. */
gboolean         cpel_live_stream_sniff      (const guint8        *head,
                                              gsize                n,
                                              gboolean            *is_perf,
                                              GError             **error);
/* Opens SOURCE: a Snabb ring file, `snabb:PID` ($SNABB_SHM_ROOT or
 * /var/run/snabb), a CPEL file (it may not hold events yet), a perf
 * pipe-mode file, an LTTng live URL, or `-` (standard input, read by
 * the worker only).
 * clock_rate: ticks per second (0: the source's; a Snabb ring's TSC rate
 * is derived from its engine.got_monotonic_time events, else times are
 * ticks).  NULL with an error (CPEL_ERROR) when it cannot be read. */
CpelLiveCapture *cpel_live_capture_new       (const char          *source,
                                              guint64              clock_rate,
                                              GError             **error);
CpelLiveCapture *cpel_live_capture_ref       (CpelLiveCapture     *self);
/* The last unref stops the worker. */
void             cpel_live_capture_unref     (CpelLiveCapture     *self);
const char      *cpel_live_capture_get_source (CpelLiveCapture    *self);

/* Starts the worker (once).  func is called in `context` (NULL: the
 * default) with each new capture, at most every interval_ms, and whenever
 * the counts change (pause, gone).  It is never called after stop. */
void             cpel_live_capture_start     (CpelLiveCapture     *self,
                                              GMainContext        *context,
                                              guint                interval_ms,
                                              CpelLiveUpdateFunc   func,
                                              gpointer             user_data);
/* Stops the worker and waits for it; the events kept stay. */
void             cpel_live_capture_stop      (CpelLiveCapture     *self);
void             cpel_live_capture_set_paused (CpelLiveCapture    *self,
                                               gboolean            paused);
void             cpel_live_capture_get_status (CpelLiveCapture    *self,
                                               CpelLiveStatus     *status);
/* Why the source cannot be read (status.failed), or NULL. */
GError          *cpel_live_capture_dup_error (CpelLiveCapture     *self);
/* What the source is (as cpel_live_source_resolve () told it; STDIN stays
 * STDIN once its first bytes are read). */
CpelLiveSourceKind cpel_live_capture_get_kind (CpelLiveCapture    *self);
/* The gaps so far (free with g_array_unref). */
GArray          *cpel_live_capture_dup_gaps  (CpelLiveCapture     *self);

/* Reads what is new now, in the caller's thread (a capture not started:
 * tests and benchmarks); returns how many events were added. */
guint64          cpel_live_capture_poll      (CpelLiveCapture     *self);
/* A CpelFile of everything kept now (any thread). */
CpelFile        *cpel_live_capture_snapshot  (CpelLiveCapture     *self,
                                              GError             **error);
/* Writes everything kept as a CPEL file with its texts (any thread; also
 * after the writer is gone); `path` replaced atomically. */
gboolean         cpel_live_capture_save      (CpelLiveCapture     *self,
                                              const char          *path,
                                              GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelLiveCapture, cpel_live_capture_unref)

G_END_DECLS
