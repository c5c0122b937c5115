/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-gen.h — synthetic CPEL files for tests, benchmarks and the demo */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64  n_events;       /* total events (synthetic mode) */
  guint    n_tracks;       /* tracks (synthetic mode) */
  guint64  seed;
  gboolean little_endian;
  gboolean demo;           /* a realistic VPP-like dataplane capture (~10^5 events) */
  gboolean overwrite;      /* replace an existing file */
  gboolean sorted;         /* synthetic: every section in time order (no swapped events) */
} CpelGenOptions;

/* Writes the file atomically (streaming: memory does not grow with events). */
gboolean cpel_gen_write (const char            *path,
                         const CpelGenOptions  *options,
                         GError               **error);

G_END_DECLS
