/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-trace.h — CTF traces (DPDK, LTTng, barectf, perf-CTF) read with
 * libbabeltrace2
 *
 * What the user opened (a folder, a trace's `metadata` file or any stream
 * file inside a trace) is resolved to trace directories (folders holding
 * `metadata`, found recursively: an LTTng session nests them); each gets a
 * `source.ctf.fs`, all feed one `filter.utils.muxer`, and a simple sink
 * collects the events in time order:
 *
 *  - track: one per stream for DPDK (its thread name, plus `lcore N` when
 *    cpu_id is not 0xFFFFFFFF); one per thread (`procname [vtid]`) when the
 *    events carry a vtid context; else one per CPU (`CPU n`) from the
 *    packet context; else one per stream file;
 *  - class: the event class name (interned by name);
 *  - text: the payload as `field = value, …` written as babeltrace2's
 *    pretty printer writes it (hex where the metadata says so, strings
 *    quoted and escaped, `[ [0] = …, … ]` arrays, `{ … }` structures,
 *    `( "LABEL" : container = N )` enumerations);
 *  - datum: the first integer field of the payload;
 *  - time: ns from the clock's origin;
 *  - scheduling marks (cpel-ctf-reader.c, doc/spans.md): for each
 *    sched_switch and wake-up of a kernel trace (LTTng, perf-CTF), events
 *    `sched_switch: in` / `out`, `sched_waking: woken`, … on thread tracks
 *    `comm [tid]` and `sched_switch: next` on the CPU's track, from which
 *    the built-in state rules derive the threads' states.
 *
 * Discarded events and packets are counted.  Do not write a TSDL parser:
 * libbabeltrace2 reads the metadata (a broken one is its error, passed on).
 *
 * libbabeltrace2 aborts, loops or exhausts memory on some damaged traces,
 * so it never runs in this process: cpel_ctf_trace_read () checks what can
 * be checked first (cpel-ctf-check.h), then runs the helper program
 * cpel-ctf-reader (libexecdir; the one built beside the program in the
 * build tree; $CPEL_CTF_READER) under RLIMIT_AS 1 GiB and RLIMIT_CPU, reads
 * its output (cpel-ctf-wire.h) as untrusted input, stops it when its
 * resident memory passes 768 MiB (watched every 100 ms: the limit that
 * holds under AddressSanitizer too), when it says nothing for 8 s
 * ($CPEL_CTF_READER_TIMEOUT seconds) or on cancel, and a
 * reader that dies or is stopped gives "This CTF trace is damaged (the trace
 * reader stopped: killed by signal SIGABRT / no progress for 8 s / …)".
 */
#pragma once

#include <gio/gio.h>

#include "cpel-file.h"

G_BEGIN_DECLS

typedef struct
{
  gint64   ns;          /* ns from the clock's origin */
  guint32  track;       /* index into the tracks */
  guint32  cls;         /* index into the classes */
  guint32  datum;       /* first integer payload field (low 32 bits), else 0 */
  guint32  text_len;
  guint64  text_off;    /* into the trace's text buffer */
} CpelCtfEvent;

typedef struct _CpelCtfTrace CpelCtfTrace;

/* TRUE when `data` (a file's first bytes) is CTF metadata (packetized magic
 * 0x75D11D57 in either byte order, or text starting "/ * CTF 1.8" without the space) or a CTF
 * stream packet (magic 0xC1FC1FC1 in either byte order). */
gboolean      cpel_ctf_sniff                  (const guint8 *data, gsize len);
/* TRUE when `path` is a folder holding a CTF trace (its own `metadata`, or
 * one in a sub-folder up to a few levels down), or a file inside one. */
gboolean      cpel_ctf_path_is_trace          (const char *path);

/* The trace directories for what the user opened, sorted; an error when
 * there is none. */
GPtrArray    *cpel_ctf_find_trace_dirs        (const char *path, GError **error);

/* The bytes of the files of the traces `path` holds or is in (see
 * cpel_ctf_find_trace_dirs): every regular file of each trace folder and its
 * sub-folders, symbolic links neither counted nor followed, the walk
 * bounded; 0 when there is no trace. */
guint64       cpel_ctf_source_bytes           (const char *path);

CpelCtfTrace *cpel_ctf_trace_read             (const char        *path,
                                               GCancellable      *cancellable,
                                               CpelProgressFunc   progress,
                                               gpointer           progress_data,
                                               GError           **error);
/* The trace from the reader's output (cpel-ctf-wire.h), checked as
 * untrusted input: for the fuzz target. */
CpelCtfTrace *cpel_ctf_trace_new_from_wire    (const guint8 *data,
                                               gsize         len,
                                               GError      **error);
void          cpel_ctf_trace_free             (CpelCtfTrace *self);

guint64             cpel_ctf_trace_get_n_events   (CpelCtfTrace *self);
const CpelCtfEvent *cpel_ctf_trace_get_events     (CpelCtfTrace *self);
/* The event's text (not NUL-terminated: text_len bytes). */
const char         *cpel_ctf_trace_get_text       (CpelCtfTrace *self, const CpelCtfEvent *event);
guint               cpel_ctf_trace_get_n_tracks   (CpelCtfTrace *self);
const char         *cpel_ctf_trace_get_track_label (CpelCtfTrace *self, guint track);
guint               cpel_ctf_trace_get_n_classes  (CpelCtfTrace *self);
const char         *cpel_ctf_trace_get_class_name (CpelCtfTrace *self, guint cls);
guint64             cpel_ctf_trace_get_discarded_events  (CpelCtfTrace *self);
guint64             cpel_ctf_trace_get_discarded_packets (CpelCtfTrace *self);
/* Trace directories read, and per discarded range a line of text. */
GPtrArray          *cpel_ctf_trace_get_trace_dirs (CpelCtfTrace *self);
GPtrArray          *cpel_ctf_trace_get_notes      (CpelCtfTrace *self);
/* Name of the clock of the first stream (e.g. "monotonic", "dpdk"), its
 * frequency, and whether its origin is the Unix epoch. */
const char         *cpel_ctf_trace_get_clock_name (CpelCtfTrace *self);
guint64             cpel_ctf_trace_get_clock_frequency (CpelCtfTrace *self);
gboolean            cpel_ctf_trace_get_clock_is_unix_epoch (CpelCtfTrace *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelCtfTrace, cpel_ctf_trace_free)

G_END_DECLS
