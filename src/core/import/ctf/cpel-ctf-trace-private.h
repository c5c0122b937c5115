/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-trace-private.h — the reader child and its output, shared by
 * cpel-ctf-trace.c (a trace read whole) and cpel-ctf-follow.c (an LTTng
 * live session followed) */
#pragma once

#include "cpel-ctf-trace.h"

G_BEGIN_DECLS

/* The reader is stopped when its resident memory passes this (checked by
 * whoever reads it, every 100 ms or so). */
#define CPEL_CTF_READER_MAX_RSS ((guint64) 768 << 20)

/* Where the events stood when the reader told its discarded counts (an
 * 'X' record): the loss lies before event `index`. */
typedef struct
{
  guint64 index;
  guint64 discarded_events;   /* so far */
  guint64 discarded_packets;  /* so far */
} CpelCtfDiscardMark;

CpelCtfTrace  *cpel_ctf_trace_new_empty          (void);
/* Drops the events, their texts, the notes and the marks (the tracks and
 * classes stay): what a follower has handed out. */
void           cpel_ctf_trace_drain              (CpelCtfTrace *self);
GArray        *cpel_ctf_trace_get_discard_marks  (CpelCtfTrace *self);
/* TRUE once the reader said it reads a live session ('A'). */
gboolean       cpel_ctf_trace_is_attached        (CpelCtfTrace *self);

/* The reader's output read back, record by record, as untrusted input. */
typedef struct _CpelCtfWireIn CpelCtfWireIn;

CpelCtfWireIn *cpel_ctf_wire_in_new              (CpelCtfTrace  *trace);
void           cpel_ctf_wire_in_free             (CpelCtfWireIn *in);
/* Appends what the trace's records say; FALSE with an error on a record
 * that does not hold together. */
gboolean       cpel_ctf_wire_in_feed             (CpelCtfWireIn *in,
                                                  const guint8  *data,
                                                  gsize          len,
                                                  GError       **error);
/* TRUE once the last record ('Z' or 'R') is read. */
gboolean       cpel_ctf_wire_in_is_done          (CpelCtfWireIn *in);
/* The reader's own error ('R'), or NULL. */
GError        *cpel_ctf_wire_in_take_failure     (CpelCtfWireIn *in);

/* Starts the reader on `args` (trace folders; with `live`, one LTTng live
 * URL) under its limits (no CPU time limit for `live`: it runs as long as
 * the session). */
gboolean       cpel_ctf_reader_spawn             (const char *const *args,
                                                  gboolean           live,
                                                  GPid              *pid,
                                                  int               *out_fd,
                                                  int               *err_fd,
                                                  GError           **error);
guint64        cpel_ctf_reader_rss               (GPid               pid);
/* How long the reader may say nothing ($CPEL_CTF_READER_TIMEOUT). */
gint64         cpel_ctf_reader_timeout_us        (void);
/* Why a reader ended without its last record, for "the trace reader
 * stopped: …". */
char          *cpel_ctf_reader_exit_reason       (int                status,
                                                  const char        *err_tail);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelCtfWireIn, cpel_ctf_wire_in_free)

G_END_DECLS
