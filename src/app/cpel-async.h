/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-async.h — loading a file, running a search, preparing summaries in a worker thread */
#pragma once

#include <gio/gio.h>

#include "cpel-core.h"
#include "cpel-progress-relay.h"
#include "cpel-render.h"

G_BEGIN_DECLS

/* Loads a local file (cpel_file_new_for_path) and builds its overview
 * summary in a GTask worker.  `clock_rate` (ticks per second, 0 = the
 * file's) reads every event section with that clock.  `progress` (may be
 * NULL) hears from the worker thread; the worker holds a reference to it
 * until it is done (closing it stops the callbacks, not the reports).  An index read from the
 * cache is checked in full here unless `verify_later`: then the caller
 * runs cpel_run_deferred_cache_async () once the first frame is shown (and
 * tells the user to reload when it fails). */
void              cpel_load_file_async  (GFile               *file,
                                         guint64              clock_rate,
                                         gboolean             verify_later,
                                         GCancellable        *cancellable,
                                         CpelProgressRelay   *progress,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
/* --no-cache: no load of this process reads or writes the persisted index
 * (otherwise the "index-cache" setting decides). */
void              cpel_load_set_cache_allowed (gboolean allowed);
CpelFile         *cpel_load_file_finish (GAsyncResult        *result,
                                         CpelOverview       **overview,
                                         GError             **error);

/* Runs `query` (taken: freed when done) over `file` in a GTask worker;
 * `progress` as for cpel_load_file_async (). */
void              cpel_search_async     (CpelFile            *file,
                                         CpelQuery           *query,
                                         GCancellable        *cancellable,
                                         CpelProgressRelay   *progress,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
CpelSearchResult *cpel_search_finish    (GAsyncResult        *result,
                                         GError             **error);

/* Builds the level-of-detail summaries of every track of `file` in a
 * low-priority GTask worker, so that no frame has to (a frame that meets an
 * unbuilt summary still builds it itself). */
void              cpel_prepare_lod_async (CpelFile           *file,
                                          GCancellable       *cancellable);

/* cpel_loader_store_cache_async () of a file the window drops (replaced
 * or closed) when its index is still to be written; not cancelled, and the
 * application stays until it is written. */
void              cpel_store_index_async (CpelFile           *file);

/* cpel_loader_run_deferred_cache_async (), the application staying until
 * it is done (finish with cpel_loader_run_deferred_cache_finish ()). */
void              cpel_run_deferred_cache_async (CpelFile            *file,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);

/* The writes of the index cache under way in this process: the index's
 * (started by the two above) and the derived spans' (cpel_spans_derive ()
 * stores a whole capture's spans in the cache in a thread of its own). */
guint             cpel_index_stores_in_progress (void);
/* Finishes once no write of the index cache is under way (at once when
 * none is): quitting waits for it, so that the cache is complete. */
void              cpel_index_stores_wait_async  (GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean          cpel_index_stores_wait_finish (GAsyncResult        *result,
                                                 GError             **error);

G_END_DECLS
