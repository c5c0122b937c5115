/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-view.h — one saved view of a capture (a boxed type)
 *
 * A saved view records what the window shows: the time range, the track
 * rows in display order and the hidden tracks (by track id, which survives
 * reloading, unlike slots), the hidden event codes, the selected event
 * (track id, time, file index), the vertical scroll, and, when saved while
 * comparing, the alignment of the two captures.  CpelViews (in
 * cpel-views.h) keeps a capture's views and their file.
 */
#pragma once

#include <glib-object.h>

#include "cpel-file.h"

G_BEGIN_DECLS

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
  /* Saved while comparing with a second capture: how it was aligned (as
   * CpelCompareView: B's time = A's time + compare_offset; the ruler reads
   * A's time - compare_origin).  Keys CompareOffset, CompareOrigin. */
  gboolean  has_alignment;
  gint64    compare_offset;
  gint64    compare_origin;
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

G_END_DECLS
