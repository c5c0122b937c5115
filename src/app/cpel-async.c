/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-async.c — loading a file and running a search in a worker thread */
#include "cpel-async.h"

#include "cpel-loader.h"
#include "cpel-lod.h"
#include "cpel-settings.h"
#include "cpel-render.h"

#include <glib/gi18n.h>

typedef struct
{
  char             *path;
  guint64           clock_rate;
  CpelFile         *file;
  CpelQuery        *query;
  CpelProgressRelay *progress;     /* a reference: the worker reports to it */
  gboolean          use_cache;
  guint64           cache_max_bytes;
  gboolean          verify_later;
} Job;

/* --no-cache: this process never reads or writes the persisted index */
static gboolean cache_allowed = TRUE;

void
cpel_load_set_cache_allowed (gboolean allowed)
{
  cache_allowed = allowed;
}

static void
job_free (Job *job)
{
  g_free (job->path);
  g_clear_object (&job->file);
  g_clear_pointer (&job->query, cpel_query_free);
  g_clear_pointer (&job->progress, cpel_progress_relay_unref);
  g_free (job);
}

typedef struct
{
  CpelFile     *file;
  CpelOverview *overview;
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_clear_object (&loaded->file);
  g_clear_pointer (&loaded->overview, cpel_overview_unref);
  g_free (loaded);
}

static void
load_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  CpelFile *file;

  Loaded *loaded;
  CpelOverview *overview;
  /* an index from the cache: its bulk is checked after the first frame
   * (cpel_run_deferred_cache_async (), from the window) or here */
  CpelLoadOptions options = { .ticks_per_second = job->clock_rate, .use_cache = job->use_cache,
                              .cache_max_bytes = job->cache_max_bytes,
                              .cache_verify_later = TRUE,
                              /* a window's file: written to the cache after
                               * its first frame (cpel_run_deferred_cache_async ()) */
                              .cache_store_later = job->verify_later };

  file = cpel_file_new_for_path (job->path, &options, cancellable,
                                 job->progress != NULL ? cpel_progress_relay_report : NULL, job->progress, &error);
  if (file != NULL && !job->verify_later && !cpel_file_verify_index (file, cancellable))
    {
      /* cancelled, or a damaged cache (removed by now): the index is built
       * again, without it */
      g_clear_object (&file);
      if (!g_cancellable_set_error_if_cancelled (cancellable, &error))
        file = cpel_file_new_for_path (job->path, &options, cancellable,
                                       job->progress != NULL ? cpel_progress_relay_report : NULL, job->progress, &error);
    }
  if (file == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* The overview strip's summary is one more pass over the events: here,
   * not in the UI thread. */
  overview = cpel_overview_new (file, 0, cancellable, &error);
  if (overview == NULL)
    {
      g_object_unref (file);
      g_task_return_error (task, error);
      return;
    }
  loaded = g_new0 (Loaded, 1);
  loaded->file = file;
  loaded->overview = overview;
  g_task_return_pointer (task, loaded, (GDestroyNotify) loaded_free);
}

void
cpel_load_file_async (GFile               *file,
                      guint64              clock_rate,
                      gboolean             verify_later,
                      GCancellable        *cancellable,
                      CpelProgressRelay   *progress,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  Job *job;

  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, cpel_load_file_async);
  g_task_set_name (task, "[cpelview] load");

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("“%s” is not a local file"), uri);
      return;
    }

  job = g_new0 (Job, 1);
  job->path = g_steal_pointer (&path);
  job->clock_rate = clock_rate;
  job->verify_later = verify_later;
  if (cache_allowed)
    {
      g_autoptr(GSettings) settings = cpel_settings_new ();

      job->use_cache = cpel_settings_get_boolean (settings, "index-cache", TRUE);
      job->cache_max_bytes = (guint64) MAX (cpel_settings_get_int (settings, "index-cache-max-size", 4096), 1) << 20;
    }
  job->progress = progress != NULL ? cpel_progress_relay_ref (progress) : NULL;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, load_thread);
}

CpelFile *
cpel_load_file_finish (GAsyncResult  *result,
                       CpelOverview **overview,
                       GError       **error)
{
  Loaded *loaded;
  CpelFile *file;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  loaded = g_task_propagate_pointer (G_TASK (result), error);
  if (loaded == NULL)
    return NULL;
  file = g_steal_pointer (&loaded->file);
  if (overview != NULL)
    *overview = g_steal_pointer (&loaded->overview);
  loaded_free (loaded);
  return file;
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  CpelSearchResult *result;

  result = cpel_search_run (job->file, job->query, cancellable,
                            job->progress != NULL ? cpel_progress_relay_report : NULL, job->progress, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) cpel_search_result_unref);
}

void
cpel_search_async (CpelFile            *file,
                   CpelQuery           *query,
                   GCancellable        *cancellable,
                   CpelProgressRelay   *progress,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (CPEL_IS_FILE (file));
  g_return_if_fail (query != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, cpel_search_async);
  g_task_set_name (task, "[cpelview] search");

  job = g_new0 (Job, 1);
  job->file = g_object_ref (file);
  job->query = query;
  job->progress = progress != NULL ? cpel_progress_relay_ref (progress) : NULL;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, search_thread);
}

CpelSearchResult *
cpel_search_finish (GAsyncResult  *result,
                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* `func` on `file` (the task data) in a low-priority GTask worker. */
static void
run_file_task (CpelFile            *file,
               GCancellable        *cancellable,
               gpointer             source_tag,
               const char          *name,
               GTaskThreadFunc      func,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_name (task, name);
  g_task_set_priority (task, G_PRIORITY_LOW);
  /* the callbacks want to know how it ended, cancelled or not */
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, func);
}

static void
lod_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  cpel_lod_prepare (cpel_lod_get_for_file (task_data), cancellable);
  g_task_return_boolean (task, TRUE);
}

void
cpel_prepare_lod_async (CpelFile     *file,
                        GCancellable *cancellable)
{
  g_return_if_fail (CPEL_IS_FILE (file));

  run_file_task (file, cancellable, cpel_prepare_lod_async, "[cpelview] level of detail", lod_thread,
                 NULL, NULL);
}

/* The application stays while a step of the index cache runs (closing
 * the last window does not end the process in the middle of it). */
typedef struct
{
  GApplication        *app;
  GAsyncReadyCallback  callback;
  gpointer             user_data;
  gboolean             store;     /* it writes the cache: counted in n_stores */
} HeldCall;

/* Writes of the index cache under way (the UI thread's), and the tasks of
 * cpel_index_stores_wait_async () waiting for them to end. */
static guint n_stores;
static GQueue stores_waiting = G_QUEUE_INIT;

static void
store_started (HeldCall *held)
{
  held->store = TRUE;
  n_stores++;
}

/* The spans' stores (their own threads) are waited for in a worker. */
static void
spans_stored_thread (GTask        *task,
                     gpointer      source,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  cpel_spans_wait_stored ();
  g_task_return_boolean (task, TRUE);
}

/* The index's stores have ended: then the spans'. */
static void
wait_spans_then_return (GTask *task)
{
  if (cpel_spans_stores_in_progress () == 0)
    g_task_return_boolean (task, TRUE);
  else
    g_task_run_in_thread (task, spans_stored_thread);
}

static void
store_ended (void)
{
  g_assert (n_stores > 0);
  if (--n_stores > 0)
    return;
  while (!g_queue_is_empty (&stores_waiting))
    {
      g_autoptr(GTask) task = g_queue_pop_head (&stores_waiting);

      wait_spans_then_return (task);
    }
}

guint
cpel_index_stores_in_progress (void)
{
  return n_stores + cpel_spans_stores_in_progress ();
}

void
cpel_index_stores_wait_async (GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, cpel_index_stores_wait_async);
  if (n_stores == 0)
    wait_spans_then_return (task);
  else
    g_queue_push_tail (&stores_waiting, g_steal_pointer (&task));
}

gboolean
cpel_index_stores_wait_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static HeldCall *
held_call_new (GAsyncReadyCallback callback,
               gpointer            user_data)
{
  HeldCall *held = g_new0 (HeldCall, 1);

  held->app = g_application_get_default ();
  if (held->app != NULL)
    g_application_hold (g_object_ref (held->app));
  held->callback = callback;
  held->user_data = user_data;
  return held;
}

static void
on_held_call_done (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  HeldCall *held = data;

  if (held->callback != NULL)
    held->callback (source, result, held->user_data);
  if (held->store)
    store_ended ();
  if (held->app != NULL)
    {
      g_application_release (held->app);
      g_object_unref (held->app);
    }
  g_free (held);
}

void
cpel_store_index_async (CpelFile *file)
{
  g_return_if_fail (CPEL_IS_FILE (file));

  if (cpel_file_index_store_is_pending (file))
    {
      HeldCall *held = held_call_new (NULL, NULL);

      store_started (held);
      cpel_loader_store_cache_async (file, NULL, on_held_call_done, held);
    }
}

void
cpel_run_deferred_cache_async (CpelFile            *file,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  HeldCall *held;

  g_return_if_fail (CPEL_IS_FILE (file));

  held = held_call_new (callback, user_data);
  /* the step writes the cache (rather than check one read from it) */
  if (cpel_file_index_store_is_pending (file))
    store_started (held);
  cpel_loader_run_deferred_cache_async (file, cancellable, on_held_call_done, held);
}
