/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-views.h — named saved views of a capture, kept next to it
 *
 * CpelViews holds the views of one capture, in order, with a current one
 * for next/previous.  They persist in a GKeyFile: the sidecar
 * "<capture>.cpelviews" next to the capture when its directory is writable,
 * else g_get_user_data_dir()/cpelview/views/<sha256 of the capture's
 * absolute path>.cpelviews.  Loading reads the place saving would write,
 * else the other one.  Saving is atomic; saving no view removes the file.
 */
#pragma once

#include <gio/gio.h>

#include "cpel-saved-view.h"

G_BEGIN_DECLS

#define CPEL_VIEWS_SUFFIX ".cpelviews"
/* Sidecar files larger than this are refused (untrusted input). */
#define CPEL_VIEWS_MAX_FILE_SIZE (16u << 20)

#define CPEL_TYPE_VIEWS (cpel_views_get_type ())
G_DECLARE_FINAL_TYPE (CpelViews, cpel_views, CPEL, VIEWS, GObject)

/* Whether files may be created in `dir`; the default is access (dir, W_OK). */
typedef gboolean (*CpelViewsWritableFunc) (const char *dir, gpointer user_data);

/* Properties: "capture-path" (construct-only), "n-views", "current".
 * Signal "changed": the list of views changed (added, replaced, removed,
 * renamed, loaded, imported). */
CpelViews           *cpel_views_new              (const char *capture_path);
const char          *cpel_views_get_capture_path (CpelViews *self);   /* absolute */
void                 cpel_views_set_writable_func (CpelViews *self, CpelViewsWritableFunc func,
                                                   gpointer user_data, GDestroyNotify destroy);

char                *cpel_views_get_sidecar_path  (CpelViews *self);
char                *cpel_views_get_fallback_path (CpelViews *self);
/* Where cpel_views_save writes now. */
char                *cpel_views_get_save_path     (CpelViews *self);

/* Replace the views by the saved ones (none saved: no view, TRUE).  On
 * error (unreadable or bad file) the views are left as they were. */
gboolean             cpel_views_load             (CpelViews *self, GError **error);
gboolean             cpel_views_save             (CpelViews *self, GError **error);
/* Write the views to / add the views of any file (same format); imported
 * views replace the ones of the same name. */
gboolean             cpel_views_export           (CpelViews *self, const char *path, GError **error);
gboolean             cpel_views_import           (CpelViews *self, const char *path, GError **error);

guint                cpel_views_get_n_views      (CpelViews *self);
const CpelSavedView *cpel_views_get_view         (CpelViews *self, guint i);
gboolean             cpel_views_lookup           (CpelViews *self, const char *name, guint *index);
/* Add a copy of `view`, or replace the view of the same name in place.
 * It becomes the current view.  Returns its index. */
guint                cpel_views_put              (CpelViews *self, const CpelSavedView *view);
gboolean             cpel_views_remove           (CpelViews *self, const char *name);
/* FALSE with CPEL_ERROR_INVALID when `old_name` is absent or `new_name`
 * empty or taken. */
gboolean             cpel_views_rename           (CpelViews *self, const char *old_name,
                                                  const char *new_name, GError **error);

/* The current view's index, -1 = none. */
int                  cpel_views_get_current      (CpelViews *self);
void                 cpel_views_set_current      (CpelViews *self, int index);
/* Make the next / previous view current (wrapping; from none: the first /
 * the last) and return it; NULL when there is no view. */
const CpelSavedView *cpel_views_next             (CpelViews *self);
const CpelSavedView *cpel_views_previous         (CpelViews *self);

/* The capture's span settings, loaded and saved with its views (a file
 * is kept while there are views or settings): the user's span rules text
 * and the ids of the built-in rules switched off (cpel-span-rules.h).
 * NULL when none; setting "" or an empty list clears them.  Setting does
 * not save. */
const char          *cpel_views_get_span_rules_text (CpelViews *self);
const char *const   *cpel_views_get_disabled_rules  (CpelViews *self);
void                 cpel_views_set_span_settings   (CpelViews         *self,
                                                     const char        *user_rules,
                                                     const char *const *disabled);

/* The capture's label formats (cpel-labels.h: type name, format, …, NULL),
 * loaded and saved with its views; NULL when none.  Setting does not save. */
const char *const   *cpel_views_get_label_formats   (CpelViews         *self);
void                 cpel_views_set_label_formats   (CpelViews         *self,
                                                     const char *const *formats);

G_END_DECLS
