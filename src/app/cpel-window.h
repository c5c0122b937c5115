/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window.h — a viewer window: one file, its timeline, search and details */
#pragma once

#include <adwaita.h>

#include "cpel-application.h"
#include "cpel-details.h"
#include "cpel-search-bar.h"
#include "cpel-timeline.h"
#include "cpel-toaster.h"

G_BEGIN_DECLS

#define CPEL_TYPE_WINDOW (cpel_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelWindow, cpel_window, CPEL, WINDOW, AdwApplicationWindow)

CpelWindow    *cpel_window_new           (CpelApplication *application);

/* Load `location` in a worker; shown here when this window has no file yet,
 * else in a new window.  Errors are reported in this window. */
void           cpel_window_open          (CpelWindow      *self,
                                          GFile           *location);
/* Show an already loaded file (`overview`: its summary, or NULL to build
 * it now; `location` may be NULL). */
void           cpel_window_set_file      (CpelWindow      *self,
                                          CpelFile        *file,
                                          CpelOverview    *overview,
                                          GFile           *location);
CpelFile      *cpel_window_get_file      (CpelWindow      *self);
GFile         *cpel_window_get_location  (CpelWindow      *self);
gboolean       cpel_window_is_loading    (CpelWindow      *self);

/* Export the current view (format from the suffix) at the timeline's size,
 * `scale` device pixels per logical one (0: the screen's scale factor). */
gboolean       cpel_window_export        (CpelWindow      *self,
                                          const char      *path,
                                          double           scale,
                                          gboolean         overwrite,
                                          GError         **error);

CpelTimeline  *cpel_window_get_timeline  (CpelWindow      *self);
CpelSearchBar *cpel_window_get_search_bar (CpelWindow     *self);
CpelDetails   *cpel_window_get_details   (CpelWindow      *self);
/* Every toast of the window goes through it. */
CpelToaster   *cpel_window_get_toaster   (CpelWindow      *self);
/* The status line's texts (tests). */
const char    *cpel_window_get_status    (CpelWindow      *self,
                                          const char      *which);   /* "range", "cursor", "measure" */

G_END_DECLS
