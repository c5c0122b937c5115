/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-application.h — the CPEL Viewer application: one window per file */
#pragma once

#include <adwaita.h>

#include "cpel-span-rules.h"

G_BEGIN_DECLS

#define CPEL_TYPE_APPLICATION (cpel_application_get_type ())
G_DECLARE_FINAL_TYPE (CpelApplication, cpel_application, CPEL, APPLICATION, AdwApplication)

/* `start_us`: g_get_monotonic_time() at process start (for --benchmark). */
CpelApplication *cpel_application_new          (gint64           start_us);
/* The app's settings, or NULL when the schema is not installed. */
GSettings       *cpel_application_get_settings (CpelApplication *self);
/* The shared "Open Recent" menu. */
GMenuModel      *cpel_application_get_recent_menu (CpelApplication *self);
/* Remember an opened file (GSettings recent-views and GtkRecentManager). */
void             cpel_application_add_recent   (CpelApplication *self,
                                                GFile           *file);
/* The span rules of --rules (the built-in ones and the file's), or NULL:
 * the built-in ones. */
/* A new, not yet presented window. */
GtkWindow       *cpel_application_new_window   (CpelApplication *self);
/* app.quit: quits once the index cache being written is complete (the
 * active window says so meanwhile); called again while waiting: at once. */
void             cpel_application_quit         (CpelApplication *self);

G_END_DECLS
