/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-benchmark.h — `cpelview --benchmark FILE`: a fixed navigation script
 * timed with the frame clock, printed as JSON. */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

/* Load `file` into `window` (presented) — compared with `compare` when it
 * is not NULL —, replay the script, print JSON on stdout and quit the
 * application.  `start_us`: process start. */
void cpel_benchmark_start (CpelWindow *window,
                           GFile      *file,
                           GFile      *compare,
                           gint64      start_us);

G_END_DECLS
