/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-loader.h — opening an event log of any supported format
 *
 * The import layer's entry points: the format is detected from the content
 * (cpel_import_detect ()), a CPEL file goes straight to the core
 * (cpel_file_new_for_cpel_path (): mapped, with the index cache as the
 * options say), any other format through its importer into CPEL made in
 * memory (cpel_file_new_imported ()), whose event texts are made from the
 * source when asked.
 *
 * CpelLoader does the same in a worker thread, one step after the other
 * (detect, import, index, store the index cache), its step and progress as properties notified in
 * the thread that started it, cancellable at any point.
 */
#pragma once

#include "cpel-file.h"

G_BEGIN_DECLS

/* The event log at `path` (a file, or a folder for CTF), any supported
 * format; options->ticks_per_second applies to imports too, the cache
 * options to CPEL files only.  Progress covers import and index. */
CpelFile     *cpel_file_new_for_path       (const char             *path,
                                            const CpelLoadOptions  *options,
                                            GCancellable           *cancellable,
                                            CpelProgressFunc        progress,
                                            gpointer                progress_data,
                                            GError                **error);
/* Load from memory, any supported file format (the bytes are kept referenced). */
CpelFile     *cpel_file_new_for_bytes      (GBytes                 *bytes,
                                            const CpelLoadOptions  *options,
                                            GError                **error);

typedef enum
{
  CPEL_LOADER_STEP_NONE,     /* not started */
  CPEL_LOADER_STEP_DETECT,   /* which format: the first bytes (or a folder) read */
  CPEL_LOADER_STEP_IMPORT,   /* another format made into CPEL in memory (not for CPEL) */
  CPEL_LOADER_STEP_INDEX,    /* the CPEL checked and indexed (or its index read from the cache) */
  CPEL_LOADER_STEP_STORE,    /* the index written to the cache (unless cache_store_later) */
  CPEL_LOADER_STEP_DONE,     /* finished: loaded, failed or cancelled */
} CpelLoaderStep;

#define CPEL_TYPE_LOADER_STEP (cpel_loader_step_get_type ())
GType cpel_loader_step_get_type (void) G_GNUC_CONST;

#define CPEL_TYPE_LOADER (cpel_loader_get_type ())
G_DECLARE_FINAL_TYPE (CpelLoader, cpel_loader, CPEL, LOADER, GObject)

/* Loads `path` as cpel_file_new_for_path () does (options copied; NULL:
 * the defaults). */
CpelLoader     *cpel_loader_new           (const char             *path,
                                           const CpelLoadOptions  *options);
const char     *cpel_loader_get_path      (CpelLoader *self);
/* The step under way ("step", notified in the thread that called
 * cpel_loader_load_async ()). */
CpelLoaderStep  cpel_loader_get_step      (CpelLoader *self);
/* The whole load's progress in [0,1], non-decreasing ("fraction"). */
double          cpel_loader_get_fraction  (CpelLoader *self);
/* The importer id ("cpel", "elog", …) once detected, else NULL ("format"). */
const char     *cpel_loader_get_format    (CpelLoader *self);
/* Once per loader. */
void            cpel_loader_load_async    (CpelLoader           *self,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
CpelFile       *cpel_loader_load_finish   (CpelLoader    *self,
                                           GAsyncResult  *result,
                                           GError       **error);

/* The index cache after the load.  A load with cache_verify_later /
 * cache_store_later leaves a step of the index cache for when the file is
 * first shown: the full check of an index read from the cache, or writing
 * an index built in memory to the cache (a file has one or the other).  A
 * viewer asks after each frame: when cpel_file_claim_deferred_cache ()
 * says so (once per file), it runs the step with
 * cpel_loader_run_deferred_cache_async (); a viewer dropping a file it
 * showed (replaced, or closed) calls cpel_loader_store_cache_async (): an
 * index not written yet still is.  Both run in a low-priority worker. */

/* The check runs under `cancellable`; the write does not (it is the
 * file's cache, whoever stops looking at it).  Finish: FALSE with an error
 * when the check was cancelled (G_IO_ERROR_CANCELLED) or found the cache
 * damaged (G_IO_ERROR_INVALID_DATA: the cache file is gone and the file is
 * damaged, cpel_file_index_cache_is_damaged ()). */
void            cpel_loader_run_deferred_cache_async  (CpelFile             *file,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean        cpel_loader_run_deferred_cache_finish (CpelFile      *file,
                                                       GAsyncResult  *result,
                                                       GError       **error);
/* cpel_file_store_index (): finish says whether it wrote the cache (FALSE
 * with no error when there was nothing to write). */
void            cpel_loader_store_cache_async         (CpelFile             *file,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean        cpel_loader_store_cache_finish        (CpelFile      *file,
                                                       GAsyncResult  *result,
                                                       GError       **error);

G_END_DECLS
