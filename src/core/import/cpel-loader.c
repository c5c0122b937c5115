/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-loader.c — detection, then the core's CPEL constructors, or an
 * importer and the CPEL it made; in the caller's thread or, with
 * CpelLoader, step by step in a worker */
#include "cpel-loader.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include "cpel-import.h"
#include "cpel-import-compressed.h"
#include "cpel-index-cache.h"
#include "cpel-mapguard.h"

/* What a load tells on its way: the step (with the format, once known) and
 * the progress of the whole. */
typedef struct
{
  void             (*step) (CpelLoaderStep step, const CpelImporter *importer, gpointer data);
  CpelProgressFunc   progress;
  gpointer           data;
} LoadHooks;

static void
hooks_step (const LoadHooks    *hooks,
            CpelLoaderStep      step,
            const CpelImporter *importer)
{
  if (hooks->step != NULL)
    hooks->step (step, importer, hooks->data);
}

typedef struct
{
  CpelProgressFunc progress;
  gpointer         data;
  double           from, span;
} ProgressPart;

static void
progress_part (double   fraction,
               gpointer user_data)
{
  ProgressPart *part = user_data;

  part->progress (part->from + part->span * fraction, part->data);
}

/* The texts of an imported file, made from its source when asked; the
 * source mapping guarded (a file shrunk under it gives zeros and markers in
 * the texts, not SIGBUS). */
typedef struct
{
  CpelImportTexts *texts;
  guint            guard_id;
} SourceTexts;

static gboolean
source_texts_append (gconstpointer  state,
                     guint64        file_index,
                     GString       *out)
{
  const SourceTexts *st = state;

  return cpel_import_texts_append (st->texts, file_index, out);
}

static gboolean
source_texts_is_damaged (gconstpointer state)
{
  const SourceTexts *st = state;

  return cpel_mapguard_is_damaged (st->guard_id);
}

static void
source_texts_free (gpointer state)
{
  SourceTexts *st = state;

  cpel_import_texts_free (st->texts);
  cpel_mapguard_unregister (st->guard_id);
  g_free (st);
}

/* Run a non-CPEL importer on `src` and load its CPEL.  guard_source: src
 * is a file mapping (its pages given back after the import, guarded while
 * texts are made from it). */
static CpelFile *
load_imported (const CpelImporter      *importer,
               const CpelImportSource  *src,
               gboolean                 guard_source,
               const CpelLoadOptions   *options,
               GCancellable            *cancellable,
               const LoadHooks         *hooks,
               GError                 **error)
{
  CpelImportOptions iopts = { 0 };
  ProgressPart first = { hooks->progress, hooks->data, 0.0, 0.5 };
  ProgressPart second = { hooks->progress, hooks->data, 0.5, 0.5 };
  CpelImportTexts *texts = NULL;
  g_autoptr(GBytes) bytes = NULL;
  CpelFileOrigin origin = { 0 };
  CpelTextSource text_source = { 0 };
  CpelFile *file;
  guint guard_id = 0;
  GStatBuf st;
  gboolean have_st = FALSE;

  hooks_step (hooks, CPEL_LOADER_STEP_IMPORT, importer);
  iopts.ticks_per_second = options ? options->ticks_per_second : 0;
  if (src->path != NULL && g_stat (src->path, &st) == 0)
    {
      iopts.date = (guint32) st.st_mtime;
      have_st = TRUE;
    }
  /* Guarded from the moment it is read: the importer reads the mapping, and
   * a file shrunk under it gives zeros, not SIGBUS (the texts read it later
   * too, under the same guard). */
  if (guard_source)
    guard_id = cpel_mapguard_register (src->data, src->size);
  bytes = cpel_import_run_lazy (importer, src, &iopts, cancellable,
                                hooks->progress ? progress_part : NULL, &first, &texts, error);
  if (guard_id != 0 && cpel_mapguard_is_damaged (guard_id))
    {
      /* whatever the importer made of the zeros */
      g_clear_pointer (&bytes, g_bytes_unref);
      g_clear_pointer (&texts, cpel_import_texts_free);
      g_clear_error (error);
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_IO,
                           _("The file changed on disk while it was read"));
    }
  if (bytes == NULL || texts == NULL)
    {
      cpel_mapguard_unregister (guard_id);
      guard_id = 0;
    }
  if (bytes == NULL)
    return NULL;

  origin.path = src->path;
  origin.imported_from = importer->id;
  /* A folder's size: its files' (src->size is 0 for folders). */
  if (importer->directory)
    origin.source_size = importer->source_size != NULL && src->path != NULL
                         ? importer->source_size (src->path) : 0;
  else if (have_st && !guard_source && S_ISREG (st.st_mode))
    origin.source_size = (guint64) st.st_size;   /* compressed: the file's, not its content's */
  else
    origin.source_size = src->size;
  if (texts != NULL)
    {
      SourceTexts *state = g_new0 (SourceTexts, 1);

      state->texts = texts;
      state->guard_id = guard_id;
      text_source.append_text = source_texts_append;
      text_source.is_damaged = source_texts_is_damaged;
      text_source.destroy = source_texts_free;
      text_source.state = state;
      origin.texts = &text_source;
    }
  hooks_step (hooks, CPEL_LOADER_STEP_INDEX, importer);
  file = cpel_file_new_imported (bytes, &origin, options, cancellable,
                                 hooks->progress ? progress_part : NULL, &second, error);
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
  /* The import read the whole source: give its pages back (they stay in
   * the page cache and are mapped again when a text is made), as
   * cpel_file_drop_pages () does for CPEL records. */
  if (file != NULL && texts != NULL && guard_source)
    madvise ((void *) src->data, src->size, MADV_DONTNEED);
#endif
  return file;
}

/* A compressed capture: decompressed into memory (bounded), its content
 * detected again and loaded as any file's (once: no compressed file inside
 * a compressed one). */
static CpelFile *
load_compressed (const char             *path,
                 const guint8           *data,
                 gsize                   size,
                 const CpelLoadOptions  *options,
                 GCancellable           *cancellable,
                 const LoadHooks        *hooks,
                 GError                **error)
{
  g_autoptr(GBytes) bytes = NULL;
  const CpelImporter *importer;
  const guint8 *inner;
  gsize inner_size;

  bytes = cpel_import_decompress (data, size, cpel_import_decompress_limit (), cancellable,
                                  error);
  if (bytes == NULL)
    return NULL;
  inner = g_bytes_get_data (bytes, &inner_size);
  if (inner == NULL)
    inner = (const guint8 *) "";
  importer = cpel_import_detect_bytes (inner, inner_size, error);
  if (importer == NULL)
    return NULL;
  if (importer == &cpel_importer_compressed)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                           _("This compressed file holds another compressed file: decompress "
                             "it first"));
      return NULL;
    }
  if (importer->import != NULL)
    {
      CpelImportSource src = { path, inner, inner_size, bytes };

      return load_imported (importer, &src, FALSE, options, cancellable, hooks, error);
    }
  hooks_step (hooks, CPEL_LOADER_STEP_INDEX, importer);
  return cpel_file_new_for_cpel_bytes (bytes, options, error);
}

static CpelFile *
load_path (const char             *path,
           const CpelLoadOptions  *options,
           GCancellable           *cancellable,
           const LoadHooks        *hooks,
           GError                **error)
{
  const CpelImporter *importer;
  CpelImportSource src = { path, NULL, 0, NULL };
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) owner = NULL;

  hooks_step (hooks, CPEL_LOADER_STEP_DETECT, NULL);
  importer = cpel_import_detect (path, error);
  if (importer == NULL)
    return NULL;
  if (importer->import == NULL && importer != &cpel_importer_compressed)
    {
      CpelFile *file;

      /* the cache dir is opened: first the temporary files of writers that
       * died go */
      if (options != NULL && options->use_cache)
        cpel_index_cache_remove_stale_tmps (options->cache_dir);
      hooks_step (hooks, CPEL_LOADER_STEP_INDEX, importer);
      file = cpel_file_new_for_cpel_path (path, options, cancellable, hooks->progress,
                                          hooks->data, error);
      /* the index cache, a step of its own (a viewer takes it after its
       * first frame: cache_store_later) */
      if (file != NULL && cpel_file_index_store_is_pending (file)
          && !(options != NULL && options->cache_store_later))
        {
          hooks_step (hooks, CPEL_LOADER_STEP_STORE, importer);
          cpel_file_store_index (file, cancellable);
        }
      return file;
    }

  if (!importer->directory)
    {
      mapped = cpel_map_regular_file (path, error);
      if (mapped == NULL)
        return NULL;
      src.data = (const guint8 *) g_mapped_file_get_contents (mapped);
      src.size = g_mapped_file_get_length (mapped);
      if (src.data == NULL)
        src.data = (const guint8 *) "";
      else
        src.owner = owner = g_mapped_file_get_bytes (mapped);
    }
  if (importer == &cpel_importer_compressed)
    return load_compressed (path, src.data, src.size, options, cancellable, hooks, error);
  return load_imported (importer, &src, src.owner != NULL, options, cancellable, hooks, error);
}

CpelFile *
cpel_file_new_for_path (const char             *path,
                        const CpelLoadOptions  *options,
                        GCancellable           *cancellable,
                        CpelProgressFunc        progress,
                        gpointer                progress_data,
                        GError                **error)
{
  LoadHooks hooks = { NULL, progress, progress_data };

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_path (path, options, cancellable, &hooks, error);
}

CpelFile *
cpel_file_new_for_bytes (GBytes                 *bytes,
                         const CpelLoadOptions  *options,
                         GError                **error)
{
  const CpelImporter *importer;
  const guint8 *data;
  gsize size;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (bytes, &size);
  if (data == NULL)
    data = (const guint8 *) "";
  importer = cpel_import_detect_bytes (data, size, error);
  if (importer == NULL)
    return NULL;
  if (importer == &cpel_importer_compressed)
    {
      LoadHooks hooks = { NULL, NULL, NULL };

      return load_compressed (NULL, data, size, options, NULL, &hooks, error);
    }
  if (importer->import != NULL)
    {
      CpelImportSource src = { NULL, data, size, bytes };
      LoadHooks hooks = { NULL, NULL, NULL };

      return load_imported (importer, &src, FALSE, options, NULL, &hooks, error);
    }
  return cpel_file_new_for_cpel_bytes (bytes, options, error);
}

/* ---- CpelLoader ------------------------------------------------------------- */

G_DEFINE_ENUM_TYPE (CpelLoaderStep, cpel_loader_step,
  G_DEFINE_ENUM_VALUE (CPEL_LOADER_STEP_NONE, "none"),
  G_DEFINE_ENUM_VALUE (CPEL_LOADER_STEP_DETECT, "detect"),
  G_DEFINE_ENUM_VALUE (CPEL_LOADER_STEP_IMPORT, "import"),
  G_DEFINE_ENUM_VALUE (CPEL_LOADER_STEP_INDEX, "index"),
  G_DEFINE_ENUM_VALUE (CPEL_LOADER_STEP_STORE, "store"),
  G_DEFINE_ENUM_VALUE (CPEL_LOADER_STEP_DONE, "done"))

struct _CpelLoader
{
  GObject          parent_instance;

  char            *path;
  CpelLoadOptions  options;
  char            *cache_dir;      /* options.cache_dir points here */
  gboolean         started;

  /* What the properties show (the caller's thread) */
  CpelLoaderStep   step;
  double           fraction;
  const char      *format;         /* an importer's id (static) */

  /* What the worker reports, applied in the caller's context: each step
   * in its turn, the progress coalesced (one update queued at a time) */
  GMutex           lock;
  GMainContext    *context;
  double           w_fraction;
  gboolean         update_pending;
};

G_DEFINE_FINAL_TYPE (CpelLoader, cpel_loader, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_PATH,
  PROP_STEP,
  PROP_FRACTION,
  PROP_FORMAT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
cpel_loader_finalize (GObject *object)
{
  CpelLoader *self = CPEL_LOADER (object);

  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  g_free (self->cache_dir);
  g_free (self->path);

  G_OBJECT_CLASS (cpel_loader_parent_class)->finalize (object);
}

static void
cpel_loader_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CpelLoader *self = CPEL_LOADER (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_STEP:
      g_value_set_enum (value, self->step);
      break;
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    case PROP_FORMAT:
      g_value_set_string (value, self->format);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_loader_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  CpelLoader *self = CPEL_LOADER (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_loader_class_init (CpelLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cpel_loader_finalize;
  object_class->get_property = cpel_loader_get_property;
  object_class->set_property = cpel_loader_set_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STEP] =
    g_param_spec_enum ("step", NULL, NULL, CPEL_TYPE_LOADER_STEP, CPEL_LOADER_STEP_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FORMAT] =
    g_param_spec_string ("format", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cpel_loader_init (CpelLoader *self)
{
  g_mutex_init (&self->lock);
}

CpelLoader *
cpel_loader_new (const char             *path,
                 const CpelLoadOptions  *options)
{
  CpelLoader *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (CPEL_TYPE_LOADER, "path", path, NULL);
  if (options != NULL)
    {
      self->options = *options;
      self->cache_dir = g_strdup (options->cache_dir);
      self->options.cache_dir = self->cache_dir;
    }
  return self;
}

const char *
cpel_loader_get_path (CpelLoader *self)
{
  g_return_val_if_fail (CPEL_IS_LOADER (self), NULL);
  return self->path;
}

CpelLoaderStep
cpel_loader_get_step (CpelLoader *self)
{
  g_return_val_if_fail (CPEL_IS_LOADER (self), CPEL_LOADER_STEP_NONE);
  return self->step;
}

double
cpel_loader_get_fraction (CpelLoader *self)
{
  g_return_val_if_fail (CPEL_IS_LOADER (self), 0.0);
  return self->fraction;
}

const char *
cpel_loader_get_format (CpelLoader *self)
{
  g_return_val_if_fail (CPEL_IS_LOADER (self), NULL);
  return self->format;
}

static void
set_step (CpelLoader     *self,
          CpelLoaderStep  step,
          const char     *format)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (format != NULL && g_strcmp0 (format, self->format) != 0)
    {
      self->format = format;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FORMAT]);
    }
  if (step != self->step)
    {
      self->step = step;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* In the caller's thread: the worker's progress, as the property. */
static void
apply_fraction (CpelLoader *self)
{
  double fraction;

  g_mutex_lock (&self->lock);
  fraction = self->w_fraction;
  self->update_pending = FALSE;
  g_mutex_unlock (&self->lock);
  if (fraction > self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
}

static gboolean
apply_fraction_cb (gpointer user_data)
{
  apply_fraction (user_data);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  CpelLoader     *self;
  CpelLoaderStep  step;
  const char     *format;
} StepUpdate;

static void
step_update_free (gpointer data)
{
  StepUpdate *u = data;

  g_object_unref (u->self);
  g_free (u);
}

static gboolean
apply_step_cb (gpointer data)
{
  StepUpdate *u = data;

  /* never after the end (same priority as the task's, queued before it) */
  if (u->self->step != CPEL_LOADER_STEP_DONE)
    set_step (u->self, u->step, u->format);
  return G_SOURCE_REMOVE;
}

/* In the worker: a source in the caller's context, at the priority of the
 * task's own completion, so that every update comes before the end. */
static void
queue (CpelLoader     *self,
       GSourceFunc     func,
       gpointer        data,
       GDestroyNotify  destroy)
{
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, destroy);
  g_source_set_static_name (source, "[cpel] loader update");
  g_source_attach (source, self->context);
  g_source_unref (source);
}

static void
worker_step (CpelLoaderStep      step,
             const CpelImporter *importer,
             gpointer            data)
{
  CpelLoader *self = data;
  StepUpdate *u = g_new0 (StepUpdate, 1);

  u->self = g_object_ref (self);
  u->step = step;
  u->format = importer != NULL ? importer->id : NULL;
  queue (self, apply_step_cb, u, step_update_free);
}

static void
worker_progress (double   fraction,
                 gpointer data)
{
  CpelLoader *self = data;

  g_mutex_lock (&self->lock);
  if (fraction > self->w_fraction)
    {
      self->w_fraction = MIN (fraction, 1.0);
      if (!self->update_pending)
        {
          self->update_pending = TRUE;
          queue (self, apply_fraction_cb, g_object_ref (self), g_object_unref);
        }
    }
  g_mutex_unlock (&self->lock);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  CpelLoader *self = source_object;
  LoadHooks hooks = { worker_step, worker_progress, self };
  GError *error = NULL;
  CpelFile *file;

  if (g_task_return_error_if_cancelled (task))
    return;
  file = load_path (self->path, &self->options, cancellable, &hooks, &error);
  if (file == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, file, g_object_unref);
}

void
cpel_loader_load_async (CpelLoader           *self,
                        GCancellable         *cancellable,
                        GAsyncReadyCallback   callback,
                        gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CPEL_IS_LOADER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (!self->started);

  self->started = TRUE;
  self->context = g_main_context_ref_thread_default ();
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cpel_loader_load_async);
  g_task_run_in_thread (task, load_thread);
}

CpelFile *
cpel_loader_load_finish (CpelLoader    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  CpelFile *file;

  g_return_val_if_fail (CPEL_IS_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_task_propagate_pointer (G_TASK (result), error);
  /* The worker is done: its last progress, then the end (an update still
   * queued finds nothing new). */
  g_mutex_lock (&self->lock);
  if (file != NULL)
    self->w_fraction = 1.0;
  g_mutex_unlock (&self->lock);
  apply_fraction (self);
  set_step (self, CPEL_LOADER_STEP_DONE, NULL);
  return file;
}

/* ---- the index cache after the load ------------------------------------ */

static GTask *
file_task_new (CpelFile            *file,
               GCancellable        *cancellable,
               gpointer             source_tag,
               const char          *name,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  GTask *task = g_task_new (file, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_name (task, name);
  g_task_set_priority (task, G_PRIORITY_LOW);
  /* the callbacks want to know how it ended, cancelled or not */
  g_task_set_check_cancellable (task, FALSE);
  return task;
}

static void
deferred_cache_thread (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  CpelFile *file = source_object;

  if (cpel_file_index_is_unverified (file))
    {
      if (cpel_file_verify_index (file, cancellable))
        g_task_return_boolean (task, TRUE);
      else if (cpel_file_index_cache_is_damaged (file))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                 _("The index cache of %s is damaged"),
                                 cpel_file_get_path (file) != NULL ? cpel_file_get_path (file)
                                                                   : "(memory)");
      else
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 _("The check of the index cache was cancelled"));
      return;
    }
  cpel_file_store_index (file, NULL);
  g_task_return_boolean (task, TRUE);
}

void
cpel_loader_run_deferred_cache_async (CpelFile             *file,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CPEL_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = file_task_new (file, cancellable, cpel_loader_run_deferred_cache_async,
                        "[cpel] deferred index cache", callback, user_data);
  g_task_run_in_thread (task, deferred_cache_thread);
}

gboolean
cpel_loader_run_deferred_cache_finish (CpelFile      *file,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
store_cache_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  g_task_return_boolean (task, cpel_file_store_index (source_object, cancellable));
}

void
cpel_loader_store_cache_async (CpelFile             *file,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CPEL_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = file_task_new (file, cancellable, cpel_loader_store_cache_async,
                        "[cpel] store index cache", callback, user_data);
  g_task_run_in_thread (task, store_cache_thread);
}

gboolean
cpel_loader_store_cache_finish (CpelFile      *file,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
