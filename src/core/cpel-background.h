/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-background.h — analyses that run beside the drawing
 *
 * A GTask's thread function run by a pool of threads of their own at a
 * lower CPU priority (CPEL_BACKGROUND_NICE above the process's), instead of
 * GLib's pool: on a machine of two CPUs, two counts and the main thread
 * share them, and the frames drawn meanwhile keep their pace (bench-spans,
 * nice +5: frames p95 4.9–5.4 ms instead of 9.2–9.6 ms while the Statistics
 * window counts 10^7 events, the counts 5–10 % longer; nice +10 leaves a
 * thread of the default priority about nine tenths of a CPU it shares
 * with one of these, against three quarters).  A thread's priority once
 * lowered cannot be raised again without privileges: the pool's threads
 * only ever run such work.  Where the priority cannot be changed, the work
 * runs as it would in GLib's pool.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CPEL_BACKGROUND_NICE 10

/* As g_task_run_in_thread (): `func` runs in another thread with the
 * task's source object, data and cancellable, and returns the task's
 * result; the task is referenced until it has. */
void     cpel_background_run          (GTask           *task,
                                       GTaskThreadFunc  func);
/* Whether the calling thread is one of the pool's that runs at the lower
 * priority (FALSE where it could not be lowered). */
gboolean cpel_background_is_lowered   (void);

G_END_DECLS
