/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-lttng.h — an LTTng live session for the tests (cpel-test-lttng.c)
 *
 * Starts what a user would: a session daemon (unless one answers already;
 * root's is the machine's one, at /var/run/lttng), a relay daemon of the
 * test's own on free local ports, and a live session (live timer 100 ms)
 * recording lttng-ust's tracef events with the vtid and procname contexts.
 * The events come from tests/lttng-tracef-writer ($CPEL_LTTNG_WRITER).
 * Where LTTng cannot run (lttng-tools not installed, the writer not built:
 * no lttng-ust) new returns NULL and says why; the caller skips. */
#pragma once

#include <glib.h>

typedef struct _CpelTestLttng CpelTestLttng;

/* subbuf_size: the channel's sub-buffer size in bytes (4096 with 2
 * sub-buffers: small enough that a writer without pauses makes LTTng
 * discard events), 0 for LTTng's default channel. */
CpelTestLttng *cpel_test_lttng_new        (guint          subbuf_size,
                                           char         **why_not);
/* The session's live URL: net://127.0.0.1:PORT/host/HOSTNAME/SESSION. */
const char    *cpel_test_lttng_get_url    (CpelTestLttng *t);
/* The relay daemon's live URL: net://127.0.0.1:PORT. */
const char    *cpel_test_lttng_get_relay  (CpelTestLttng *t);
/* Runs the writer (n events, gap_us apart, seq=first…) and waits for it. */
void           cpel_test_lttng_write      (CpelTestLttng *t,
                                           guint          n,
                                           guint          gap_us,
                                           guint          first);
/* Starts the writer without waiting for it; cpel_test_lttng_writer_done
 * tells when it has ended (with status 0, else the test fails). */
void           cpel_test_lttng_start_writer (CpelTestLttng *t,
                                             guint          n,
                                             guint          gap_us);
gboolean       cpel_test_lttng_writer_done  (CpelTestLttng *t);
/* Waits for the writer started to end (status 0, else the test fails). */
void           cpel_test_lttng_wait_writer  (CpelTestLttng *t);
/* Stops the session (its data flushed to the relay daemon) and destroys
 * it: a live reader then reads what is left and ends.  (A reader that
 * attaches only after that finds a closed session and ends at once: the
 * tests end a session once their reader has read from it.) */
void           cpel_test_lttng_end        (CpelTestLttng *t);
/* Ends the session if that was not done, stops the relay daemon, and the
 * session daemon when this started it. */
void           cpel_test_lttng_free       (CpelTestLttng *t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelTestLttng, cpel_test_lttng_free)
