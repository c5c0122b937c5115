/* cpel-view-modes.h — drawing a view in the timeline's colour and summary
 * modes
 *
 * The renderer colours ticks by event code or in one colour and always
 * labels events where they fit.  Colouring by track and summary mode (no
 * event labels, g2's `e`) are drawn here with extra cpel_render_view()
 * passes (same zoom: the renderer's density cache and label layouts are
 * reused), until CpelView has fields for them.
 */
#pragma once

#include "cpel-timeline.h"

G_BEGIN_DECLS

void cpel_view_modes_render (cairo_t        *cr,
                             double          width,
                             double          height,
                             const CpelView *view,
                             CpelColorMode   mode,
                             gboolean        summary);

/* The tick colour of a track in CPEL_COLOR_BY_TRACK. */
void cpel_view_modes_track_color (const CpelPalette *palette,
                                  CpelFile          *file,
                                  guint              slot,
                                  CpelRGBA          *color);

G_END_DECLS
