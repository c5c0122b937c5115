/* cpel-views.h — named saved views of a capture, kept next to it
 *
 * A saved view records what the window shows: the time range, the track
 * rows in display order and the hidden tracks (by track id, which survives
 * reloading, unlike slots), the hidden event codes, the selected event
 * (track id, time, file index) and the vertical scroll.
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

#include "cpel-file.h"

G_BEGIN_DECLS

#define CPEL_VIEWS_SUFFIX ".cpelviews"
/* Sidecar files larger than this are refused (untrusted input). */
#define CPEL_VIEWS_MAX_FILE_SIZE (16u << 20)

typedef struct
{
  char     *name;               /* non-empty UTF-8, unique in a CpelViews */
  gint64    t0;                 /* visible range [t0, t1), ns; t1 > t0 */
  gint64    t1;
  GArray   *track_order;        /* guint32 track ids of the rows, in order; empty = every track */
  GArray   *hidden_tracks;      /* guint32 track ids */
  GArray   *hidden_codes;       /* guint32 event codes */
  gboolean  has_selection;
  guint32   selected_track;     /* track id */
  gint64    selected_time;      /* ns */
  guint64   selected_file_index;
  double    scroll_y;           /* vertical scroll in pixels (as CpelView.scroll_y), >= 0 */
} CpelSavedView;

#define CPEL_TYPE_SAVED_VIEW (cpel_saved_view_get_type ())
GType          cpel_saved_view_get_type (void) G_GNUC_CONST;
/* A view named `name` of [0, 1) with empty lists. */
CpelSavedView *cpel_saved_view_new      (const char *name);
CpelSavedView *cpel_saved_view_copy     (const CpelSavedView *view);
void           cpel_saved_view_free     (CpelSavedView *view);
gboolean       cpel_saved_view_equal    (const CpelSavedView *a, const CpelSavedView *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSavedView, cpel_saved_view_free)

/* Between a view and a loaded file. */
void      cpel_saved_view_set_rows         (CpelSavedView *view, CpelFile *file,
                                            const guint *slots, guint n_slots);
/* The rows as slots: the saved ids the file has, in order (ids it lacks are
 * skipped); NULL with *n_slots = every slot when the order is empty. */
guint    *cpel_saved_view_get_rows         (const CpelSavedView *view, CpelFile *file,
                                            guint *n_slots);
/* hidden_types[type] != 0 for the hidden codes, as CpelView.hidden_types;
 * n_types entries (cpel_file_get_n_types); NULL hidden_types = none. */
void      cpel_saved_view_set_hidden_types (CpelSavedView *view, CpelFile *file,
                                            const guint8 *hidden_types);
guint8   *cpel_saved_view_get_hidden_types (const CpelSavedView *view, CpelFile *file);
/* The selected event in the file: its slot and index; FALSE when the view
 * has no selection or the file has no such event. */
gboolean  cpel_saved_view_find_selection   (const CpelSavedView *view, CpelFile *file,
                                            guint *slot, guint64 *index);

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

G_END_DECLS
