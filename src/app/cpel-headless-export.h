/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-headless-export.h — `cpelview --export-png`: export without a display */
#pragma once

#include "cpel-render.h"

G_BEGIN_DECLS

typedef struct
{
  int            width, height;   /* pixels; 0: the default (cpel_render_export_file) */
  const char    *from, *to;       /* times as typed, or NULL */
  gboolean       dark;
  CpelColorMode  color_mode;
  gboolean       summary;
  gboolean       force;           /* replace OUT when it exists */
  guint64        clock_rate;      /* ticks per second of every event section; 0 = the file's */
} CpelHeadlessExport;

/* Headless `cpelview --export-png OUT FILE`: load, then draw the whole
 * capture (or [from, to]) through cpel_render_export_file (), as `cpel
 * export` does, with its defaults; an existing OUT only with `force`.  Returns the process
 * exit status; messages go to stderr. */
int         cpel_export_headless        (const char               *file_path,
                                         const char               *out_path,
                                         const CpelHeadlessExport *options);

G_END_DECLS
