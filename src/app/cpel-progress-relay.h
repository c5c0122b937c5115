/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-progress-relay.h — progress from a worker thread, delivered in the UI
 *
 * A worker calls cpel_progress_relay_report() (a CpelProgressFunc) as often
 * as it likes; the UI callback runs in the main context at most once per
 * pending change of a thousandth.  cpel_progress_relay_close() from the main
 * thread stops any further callback (call it before the receiver goes away).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CpelProgressRelay CpelProgressRelay;

typedef void (*CpelProgressRelayFunc) (double fraction, gpointer user_data);

CpelProgressRelay *cpel_progress_relay_new    (CpelProgressRelayFunc  func,
                                               gpointer               user_data);
CpelProgressRelay *cpel_progress_relay_ref    (CpelProgressRelay     *relay);
void               cpel_progress_relay_unref  (CpelProgressRelay     *relay);
/* Main thread: no more callbacks after this. */
void               cpel_progress_relay_close  (CpelProgressRelay     *relay);
/* Any thread; `relay` is the user data (a CpelProgressFunc). */
void               cpel_progress_relay_report (double                 fraction,
                                               gpointer               relay);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelProgressRelay, cpel_progress_relay_unref)

G_END_DECLS
