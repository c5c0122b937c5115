/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-print.h — printing the current view (GtkPrintOperation, drawn by
 * cpel_render_view in the light palette, fitted to the page under a
 * header line with the file name and the time range).
 */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

/* Draw one page of `page_width` × `page_height` (user units of `cr`): the
 * header line, then the view — laid out at `view_width` × `view_height`
 * logical px, as on screen — scaled to fit the rest of the page (the
 * laid-out area grows to fill the page's shape).  `view`'s palette is
 * ignored: the light one is used. */
void     cpel_print_draw_page   (cairo_t        *cr,
                                 double          page_width,
                                 double          page_height,
                                 const CpelView *view,
                                 double          view_width,
                                 double          view_height,
                                 const char     *header);

/* The same for two captures compared (cpel_render_compare: both panes). */
void     cpel_print_draw_compare_page (cairo_t               *cr,
                                       double                 page_width,
                                       double                 page_height,
                                       const CpelCompareView *cv,
                                       double                 view_width,
                                       double                 view_height,
                                       const char            *header);
/* The header line of `window`'s current view: "name — start – end (span)". */
char    *cpel_print_header      (CpelWindow     *window);

/* Draw the page printing `window` would print now (its view copied as a
 * print job copies it: rows, spans, …).  FALSE when no file is open. */
gboolean cpel_print_draw_window (CpelWindow     *window,
                                 cairo_t        *cr,
                                 double          page_width,
                                 double          page_height);

/* Print `window`'s current view: the print dialog, or with `pdf_path`
 * straight into that PDF file (no dialog; for scripts and tests).  FALSE
 * with an error when printing could not start or the export failed. */
gboolean cpel_print_window      (CpelWindow     *window,
                                 const char     *pdf_path,
                                 GError        **error);

G_END_DECLS
