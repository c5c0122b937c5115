/* cpel-export.h — `cpelview --export-png`: export without a display */
#pragma once

#include "cpel-render.h"

G_BEGIN_DECLS

/* Headless `cpelview --export-png OUT FILE`: load, fit (or [from, to]),
 * render in the given colour and summary modes, write atomically.  Returns
 * the process exit status; messages go to stderr. */
int         cpel_export_headless        (const char        *file_path,
                                         const char        *out_path,
                                         int                width,
                                         int                height,
                                         const char        *from,
                                         const char        *to,
                                         gboolean           dark,
                                         CpelColorMode      color_mode,
                                         gboolean           summary);

G_END_DECLS
