/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-loader.c — detection, then the core's CPEL constructors, or an
 * importer and the CPEL it made */
#include "cpel-loader.h"

#include <glib/gstdio.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include "cpel-import.h"
#include "cpel-mapguard.h"

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
               CpelProgressFunc         progress,
               gpointer                 progress_data,
               GError                 **error)
{
  CpelImportOptions iopts = { 0 };
  ProgressPart first = { progress, progress_data, 0.0, 0.5 };
  ProgressPart second = { progress, progress_data, 0.5, 0.5 };
  CpelImportTexts *texts = NULL;
  g_autoptr(GBytes) bytes = NULL;
  CpelFileOrigin origin = { 0 };
  CpelTextSource text_source = { 0 };
  CpelFile *file;
  GStatBuf st;

  iopts.ticks_per_second = options ? options->ticks_per_second : 0;
  if (src->path != NULL && g_stat (src->path, &st) == 0)
    iopts.date = (guint32) st.st_mtime;
  bytes = cpel_import_run_lazy (importer, src, &iopts, cancellable,
                                progress ? progress_part : NULL, &first, &texts, error);
  if (bytes == NULL)
    return NULL;

  origin.path = src->path;
  origin.imported_from = importer->id;
  /* A folder's size: its files' (src->size is 0 for folders). */
  if (importer->directory)
    origin.source_size = importer->source_size != NULL && src->path != NULL
                         ? importer->source_size (src->path) : 0;
  else
    origin.source_size = src->size;
  if (texts != NULL)
    {
      SourceTexts *state = g_new0 (SourceTexts, 1);

      state->texts = texts;
      if (guard_source)
        state->guard_id = cpel_mapguard_register (src->data, src->size);
      text_source.append_text = source_texts_append;
      text_source.is_damaged = source_texts_is_damaged;
      text_source.destroy = source_texts_free;
      text_source.state = state;
      origin.texts = &text_source;
    }
  file = cpel_file_new_imported (bytes, &origin, options, cancellable,
                                 progress ? progress_part : NULL, &second, error);
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
  /* The import read the whole source: give its pages back (they stay in
   * the page cache and are mapped again when a text is made), as
   * cpel_file_drop_pages () does for CPEL records. */
  if (file != NULL && texts != NULL && guard_source)
    madvise ((void *) src->data, src->size, MADV_DONTNEED);
#endif
  return file;
}

CpelFile *
cpel_file_new_for_path (const char             *path,
                        const CpelLoadOptions  *options,
                        GCancellable           *cancellable,
                        CpelProgressFunc        progress,
                        gpointer                progress_data,
                        GError                **error)
{
  const CpelImporter *importer;
  CpelImportSource src = { path, NULL, 0, NULL };
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) owner = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  importer = cpel_import_detect (path, error);
  if (importer == NULL)
    return NULL;
  if (importer->import == NULL)
    return cpel_file_new_for_cpel_path (path, options, cancellable, progress, progress_data,
                                        error);

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
  return load_imported (importer, &src, src.owner != NULL, options, cancellable,
                        progress, progress_data, error);
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
  if (importer->import != NULL)
    {
      CpelImportSource src = { NULL, data, size, bytes };

      return load_imported (importer, &src, FALSE, options, NULL, NULL, NULL, error);
    }
  return cpel_file_new_for_cpel_bytes (bytes, options, error);
}
