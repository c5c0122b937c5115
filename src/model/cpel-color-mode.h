/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-color-mode.h — how event ticks and density are coloured (g2's `c`)
 *
 * A view setting the session keeps and the renderer applies; the names
 * ("code", "track", "none") are cpel-render.h's.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  CPEL_COLOR_BY_CODE,    /* a colour per event code (ticks; density in palette->density) */
  CPEL_COLOR_BY_TRACK,   /* a colour per track (cpel_palette_get_track_color), density too */
  CPEL_COLOR_NONE,       /* one colour: palette->event, density palette->density
                          * (g2's monochrome) */
} CpelColorMode;

#define CPEL_TYPE_COLOR_MODE (cpel_color_mode_get_type ())
GType cpel_color_mode_get_type (void) G_GNUC_CONST;

G_END_DECLS
