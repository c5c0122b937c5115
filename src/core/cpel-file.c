/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file.c — loading a CPEL file (mapping, the parse of
 * cpel-file-parse.c, the index), and its accessors */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include "cpel-file-private.h"
#include "cpel-index-cache-private.h"
#include "cpel-mapguard.h"

#define MAX_WARNINGS 200

G_DEFINE_FINAL_TYPE (CpelFile, cpel_file, G_TYPE_OBJECT)

static void
cpel_file_finalize (GObject *object)
{
  CpelFile *self = CPEL_FILE (object);

  /* (derived from the index and the tracks: first) */
  g_clear_pointer (&self->lod, cpel_lod_free);
  g_clear_pointer (&self->search_info, cpel_search_file_info_free);
  if (self->render_cache != NULL && self->render_cache_destroy != NULL)
    self->render_cache_destroy (self->render_cache);
  self->render_cache = NULL;
  g_mutex_clear (&self->render_cache_lock);
  for (guint i = 0; i < self->n_tracks; i++)
    g_free (self->tracks[i].label);
  for (guint i = 0; i < self->n_types; i++)
    {
      g_free (self->types[i].name);
      g_clear_pointer (&self->types[i].datum_format, cpel_format_free);
    }
  g_clear_pointer (&self->tracks, g_free);
  g_clear_pointer (&self->types, g_free);
  g_clear_pointer (&self->track_map, cpel_u32map_free);
  g_clear_pointer (&self->type_map, cpel_u32map_free);
  cpel_index_store_free (self);   /* a cache's index: nothing (released below) */
  self->times = NULL;
  self->recs = NULL;
  cpel_index_cache_release (self);
  g_clear_pointer (&self->deferred_next, g_free);
  g_mutex_clear (&self->index_lock);
  g_clear_pointer (&self->evsecs, g_free);
  g_clear_pointer (&self->symbols, g_free);
  g_clear_pointer (&self->strtabs, g_array_unref);
  g_clear_pointer (&self->sections, g_array_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->chunk, g_string_chunk_free);
  g_clear_pointer (&self->source_info, g_ptr_array_unref);
  if (self->lazy_texts != NULL && self->lazy_texts->destroy != NULL)
    self->lazy_texts->destroy (self->lazy_texts->state);
  g_clear_pointer (&self->lazy_texts, g_free);
  cpel_mapguard_unregister (self->guard_id);
  g_clear_pointer (&self->mapped, g_mapped_file_unref);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (cpel_file_parent_class)->finalize (object);
}

static void
cpel_file_class_init (CpelFileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cpel_file_finalize;
}

static void
cpel_file_init (CpelFile *self)
{
  self->sections = g_array_new (FALSE, TRUE, sizeof (CpelSectionInfo));
  self->strtabs = g_array_new (FALSE, TRUE, sizeof (CpelStrtabEntry));
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->warnings, NULL);
  self->chunk = g_string_chunk_new (256);
  g_mutex_init (&self->index_lock);
  g_mutex_init (&self->render_cache_lock);
  self->index_fd = -1;
  self->cache_writer_policy = -1;
  self->cache_writer_ioprio = -1;
}

void
cpel_file_warn (CpelFile   *self,
                const char *format,
                ...)
{
  va_list args;

  self->n_warnings++;
  if (self->n_warnings > MAX_WARNINGS)
    return;

  /* keep the array NULL-terminated */
  g_ptr_array_remove_index (self->warnings, self->warnings->len - 1);
  va_start (args, format);
  if (self->n_warnings == MAX_WARNINGS)
    g_ptr_array_add (self->warnings, g_strdup (_("Further warnings omitted")));
  else
    g_ptr_array_add (self->warnings, g_strdup_vprintf (format, args));
  va_end (args);
  g_ptr_array_add (self->warnings, NULL);
}

gint64
cpel_ticks_to_ns (guint64 ticks,
                  guint64 tps)
{
  guint64 q, r;

  g_assert (tps > 0);

  if (tps == 1000000000)
    return ticks > G_MAXINT64 ? G_MAXINT64 : (gint64) ticks;

  q = ticks / tps;
  r = ticks % tps;
  if (q > (guint64) G_MAXINT64 / 1000000000)
    return G_MAXINT64;
  q *= 1000000000;
  /* r < tps: r * 10^9 fits in 64 bits while tps < 1.8e10 */
  if (tps < G_GUINT64_CONSTANT (18000000000))
    r = r * 1000000000 / tps;
  else
    r = (guint64) (((unsigned __int128) r * 1000000000) / tps);
  if (q > (guint64) G_MAXINT64 - r)
    return G_MAXINT64;
  return (gint64) (q + r);
}

static gboolean
load (CpelFile               *self,
      const CpelLoadOptions  *options,
      GCancellable           *cancellable,
      CpelProgressFunc        progress,
      gpointer                progress_data,
      GError                **error)
{
  g_autoptr(GArray) event_defs = g_array_new (FALSE, TRUE, sizeof (PendingDef));
  g_autoptr(GArray) track_defs = g_array_new (FALSE, TRUE, sizeof (PendingDef));
  g_autoptr(GArray) keys = NULL;
  guint n_sections;

  g_array_set_clear_func (event_defs, cpel_file_clear_pending_def);
  g_array_set_clear_func (track_defs, cpel_file_clear_pending_def);

  if (!cpel_file_parse_header (self, &n_sections, error) ||
      !cpel_file_parse_sections (self, n_sections, error) ||
      !cpel_file_parse_string_tables (self, error) ||
      !cpel_file_parse_definitions (self, event_defs, track_defs, error) ||
      !cpel_file_parse_event_sections (self, options, error))
    return FALSE;

  /* Defined ids and codes get slots/types even without events. */
  self->track_map = cpel_u32map_new_direct (CPEL_FILE_TRACKS_DIRECT);
  self->type_map = cpel_u32map_new ();
  keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  cpel_file_add_defined_keys (track_defs, keys);
  for (guint i = 0; i < keys->len; i++)
    cpel_u32map_insert (self->track_map, g_array_index (keys, guint32, i), 0);
  g_array_set_size (keys, 0);
  cpel_file_add_defined_keys (event_defs, keys);
  for (guint i = 0; i < keys->len; i++)
    cpel_u32map_insert (self->type_map, g_array_index (keys, guint32, i), 0);

  if (!cpel_index_cache_try_load (self, options))
    {
      gboolean defer = options ? options->defer_index : FALSE;

      if (!cpel_file_build_index (self, options ? options->n_threads : 0, defer, cancellable,
                                  progress, progress_data, error))
        return FALSE;
      if (!defer)
        cpel_index_cache_store (self);
    }
  else if (progress)
    progress (1.0, progress_data);

  cpel_file_apply_definitions (self, event_defs, track_defs);
  return TRUE;
}

GMappedFile *
cpel_map_regular_file (const char  *path,
                       GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  GStatBuf st;
  GMappedFile *mapped;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_stat (path, &st) == 0 && S_ISDIR (st.st_mode))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("This is a folder, not a file"));
      return NULL;
    }
  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("This is not a regular file"));
      return NULL;
    }
  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped != NULL)
    return mapped;
  if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("No such file"));
  else if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_ACCES))
    g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("Permission denied"));
  else
    g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", local_error->message);
  return NULL;
}

CpelFile *
cpel_file_new_for_cpel_path (const char             *path,
                             const CpelLoadOptions  *options,
                             GCancellable           *cancellable,
                             CpelProgressFunc        progress,
                             gpointer                progress_data,
                             GError                **error)
{
  g_autoptr(CpelFile) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (CPEL_TYPE_FILE, NULL);
  self->path = g_strdup (path);
  self->mapped = cpel_map_regular_file (path, error);
  if (self->mapped == NULL)
    return NULL;
  self->data = (const guint8 *) g_mapped_file_get_contents (self->mapped);
  self->size = g_mapped_file_get_length (self->mapped);
  if (self->data == NULL)
    self->data = (const guint8 *) "";
  else
    self->guard_id = cpel_mapguard_register (self->data, self->size);

  if (!load (self, options, cancellable, progress, progress_data, error))
    return NULL;
  if (cpel_file_is_damaged (self))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO,
                   _("The file changed on disk while it was read"));
      return NULL;
    }
  return g_steal_pointer (&self);
}

CpelFile *
cpel_file_new_imported (GBytes                 *bytes,
                        const CpelFileOrigin   *origin,
                        const CpelLoadOptions  *options,
                        GCancellable           *cancellable,
                        CpelProgressFunc        progress,
                        gpointer                progress_data,
                        GError                **error)
{
  g_autoptr(CpelFile) self = NULL;
  CpelLoadOptions lopts = { 0 };

  g_return_val_if_fail (bytes != NULL && origin != NULL && origin->imported_from != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (CPEL_TYPE_FILE, NULL);
  /* The file owns the text source from here on, also when loading fails. */
  if (origin->texts != NULL)
    self->lazy_texts = g_memdup2 (origin->texts, sizeof *origin->texts);
  self->path = g_strdup (origin->path);
  self->imported_from = g_intern_string (origin->imported_from);
  self->source_size = origin->source_size;
  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (self->bytes, &self->size);
  if (self->data == NULL)
    self->data = (const guint8 *) "";
  /* The importer applied the user's clock; the CPEL it made is in ns. */
  lopts.n_threads = options ? options->n_threads : 0;
  if (!load (self, &lopts, cancellable, progress, progress_data, error))
    return NULL;
  return g_steal_pointer (&self);
}

gboolean
cpel_file_has_index (CpelFile *self)
{
  gboolean has;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  g_mutex_lock (&self->index_lock);
  has = self->deferred_next == NULL;
  g_mutex_unlock (&self->index_lock);
  return has;
}

gboolean
cpel_file_ensure_index (CpelFile      *self,
                        GCancellable  *cancellable,
                        GError       **error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_mutex_lock (&self->index_lock);
  if (self->deferred_next != NULL)
    {
      if (cpel_index_cache_try_fill (self))
        g_clear_pointer (&self->deferred_next, g_free);
      else
        {
          ok = cpel_file_fill_index (self, cancellable, NULL, NULL, error);
          if (ok)
            cpel_index_cache_store (self);
        }
    }
  g_mutex_unlock (&self->index_lock);
  return ok;
}

gboolean
cpel_file_tracks_in_file_order (CpelFile *self)
{
  gint known = g_atomic_int_get (&self->tracks_in_file_order);

  if (self->times == NULL || self->recs == NULL)
    return FALSE;
  if (known == 0)
    {
      gboolean in_order = TRUE;

      /* racing callers find the same answer */
      for (guint s = 0; s < self->n_tracks && in_order; s++)
        {
          const guint32 *r = self->recs + self->tracks[s].first;

          for (guint64 i = 1; i < self->tracks[s].count && in_order; i++)
            in_order = r[i - 1] < r[i];
        }
      known = in_order ? 1 : 2;
      g_atomic_int_set (&self->tracks_in_file_order, known);
      /* an index read from its cache file: its pages are the file's, read
       * once here (4 B/event), not kept */
      if (self->cache_mapped != NULL)
        cpel_mapping_drop_pages (self->recs, self->recs + self->n_events);
    }
  return known == 1;
}

gboolean
cpel_file_is_time_ordered (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return self->time_ordered;
}

gboolean
cpel_file_is_damaged (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return cpel_mapguard_is_damaged (self->guard_id)
         || (self->lazy_texts != NULL && self->lazy_texts->is_damaged != NULL
             && self->lazy_texts->is_damaged (self->lazy_texts->state))
         || cpel_mapguard_is_damaged (self->cache_guard_id)
         || g_atomic_int_get (&self->cache_bad);
}

CpelFile *
cpel_file_new_for_cpel_bytes (GBytes                 *bytes,
                              const CpelLoadOptions  *options,
                              GError                **error)
{
  g_autoptr(CpelFile) self = NULL;
  const guint8 *data;
  gsize size;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (bytes, &size);
  self = g_object_new (CPEL_TYPE_FILE, NULL);
  self->bytes = g_bytes_ref (bytes);
  self->data = data ? data : (const guint8 *) "";
  self->size = size;

  if (!load (self, options, NULL, NULL, NULL, error))
    return NULL;
  return g_steal_pointer (&self);
}

CpelFile *
cpel_file_new_for_bytes_with_cache (GBytes              *bytes,
                                    GBytes              *cache,
                                    gboolean             check_sums,
                                    CpelIndexCacheLoad  *result,
                                    GError             **error)
{
  return cpel_file_new_for_bytes_with_cache_full (bytes, cache, check_sums, FALSE, result, error);
}

CpelFile *
cpel_file_new_for_bytes_with_cache_full (GBytes              *bytes,
                                         GBytes              *cache,
                                         gboolean             check_sums,
                                         gboolean             verify_later,
                                         CpelIndexCacheLoad  *result,
                                         GError             **error)
{
  g_autoptr(CpelFile) self = NULL;
  const guint8 *data;
  gsize size;

  g_return_val_if_fail (bytes != NULL && cache != NULL, NULL);

  data = g_bytes_get_data (bytes, &size);
  self = g_object_new (CPEL_TYPE_FILE, NULL);
  self->bytes = g_bytes_ref (bytes);
  self->data = data ? data : (const guint8 *) "";
  self->size = size;
  self->cache_bytes = g_bytes_ref (cache);
  self->cache_check_sums = check_sums;
  self->cache_verify_later = verify_later;
  if (!load (self, NULL, NULL, NULL, NULL, error))
    return NULL;
  *result = self->cache_load;
  return g_steal_pointer (&self);
}

const char *
cpel_file_get_imported_from (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  return self->imported_from;
}

guint64
cpel_file_get_source_size (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  return self->imported_from ? self->source_size : self->size;
}

const char *
cpel_file_get_source_value (CpelFile   *self,
                            const char *key)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  if (self->source_info == NULL)
    return NULL;
  for (guint i = 0; i + 1 < self->source_info->len; i += 2)
    if (strcmp (g_ptr_array_index (self->source_info, i), key) == 0)
      return g_ptr_array_index (self->source_info, i + 1);
  return NULL;
}

CpelTimeKind
cpel_file_get_time_kind (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), CPEL_TIME_KIND_NS);

  if (g_strcmp0 (cpel_file_get_source_value (self, "clock"), "unknown") != 0)
    return CPEL_TIME_KIND_NS;
  /* read with a clock rate given (--clock-rate, "Read with Different Clock
   * Rate…"): the times are ns again */
  for (guint i = 0; i < cpel_file_get_n_sections (self); i++)
    {
      const CpelSectionInfo *s = cpel_file_get_section (self, i);

      if (s->type == CPEL_SECTION_EVENTS && s->ticks_per_second != G_GUINT64_CONSTANT (1000000000))
        return CPEL_TIME_KIND_NS;
    }
  return CPEL_TIME_KIND_TICKS;
}

gboolean
cpel_file_get_capture_start (CpelFile *self,
                             gint64   *unix_ns)
{
  const char *start;
  guint64 ns;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);

  start = cpel_file_get_source_value (self, "start-unix-ns");
  if (start == NULL || !g_ascii_string_to_unsigned (start, 10, 0, G_MAXINT64, &ns, NULL))
    return FALSE;
  if (unix_ns != NULL)
    *unix_ns = (gint64) ns;
  return TRUE;
}

CpelClockKind
cpel_file_get_clock_origin (CpelFile *self,
                            gint64   *origin_ns)
{
  const char *kind, *offset;
  CpelClockKind k;
  gint64 off, origin;

  g_return_val_if_fail (CPEL_IS_FILE (self), CPEL_CLOCK_NONE);

  if (origin_ns != NULL)
    *origin_ns = 0;
  kind = cpel_file_get_source_value (self, "clock-origin");
  offset = cpel_file_get_source_value (self, "clock-offset-ns");
  if (g_strcmp0 (kind, "seconds") == 0)
    k = CPEL_CLOCK_SECONDS;
  else if (g_strcmp0 (kind, "unix") == 0)
    k = CPEL_CLOCK_WALL;
  else
    return CPEL_CLOCK_NONE;
  if (offset == NULL
      || !g_ascii_string_to_signed (offset, 10, G_MININT64, G_MAXINT64, &off, NULL))
    return CPEL_CLOCK_NONE;
  /* times read with a clock rate of the reader's are on no clock of the source's */
  for (guint i = 0; i < cpel_file_get_n_sections (self); i++)
    {
      const CpelSectionInfo *s = cpel_file_get_section (self, i);

      if (s->type == CPEL_SECTION_EVENTS && s->ticks_per_second != G_GUINT64_CONSTANT (1000000000))
        return CPEL_CLOCK_NONE;
    }
  /* an origin any event time (at most CPEL_TIME_MAX) can be added to */
  if (__builtin_add_overflow (cpel_file_get_base_ns (self), off, &origin)
      || origin > G_MAXINT64 - CPEL_TIME_MAX || origin < G_MININT64 + CPEL_TIME_MAX)
    return CPEL_CLOCK_NONE;
  if (origin_ns != NULL)
    *origin_ns = origin;
  return k;
}

char *
cpel_file_describe_clock_origin (CpelFile *self)
{
  g_autofree char *at = NULL;
  const char *id;
  gint64 origin;
  CpelClockKind kind;

  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);

  kind = cpel_file_get_clock_origin (self, &origin);
  if (kind == CPEL_CLOCK_NONE)
    return NULL;
  at = cpel_time_format_clock (kind, origin, 9);
  if (kind == CPEL_CLOCK_WALL)
    /* TRANSLATORS: a capture's clock; the time is in UTC */
    return g_strdup_printf (_("wall clock, first event at %s UTC"), at);
  /* perf's default clock and Snabb's CLOCK_MONOTONIC count from boot */
  id = cpel_file_get_source_value (self, "format-id");
  if (g_strcmp0 (id, "perf") == 0 || g_strcmp0 (id, "snabb") == 0)
    /* TRANSLATORS: a capture's clock, as `perf script` prints its times */
    return g_strdup_printf (_("seconds since boot, first event at %s s"), at);
  /* TRANSLATORS: a capture's clock counting seconds from an origin of its own */
  return g_strdup_printf (_("seconds of the source’s clock, first event at %s s"), at);
}

gboolean
cpel_file_has_clock_rate (CpelFile *self)
{
  const char *clock;

  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);

  /* CPEL's own ticks, or a source's rate that was given or is unknown (an
   * importer ignores a rate for times in seconds or a rate it derived) */
  clock = cpel_file_get_source_value (self, "clock");
  return clock == NULL || g_str_equal (clock, "user") || g_str_equal (clock, "unknown");
}

const char *
cpel_file_get_source_format (CpelFile *self)
{
  const char *name;

  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);

  /* The importer's display name, stored untranslated (N_() in the table) */
  name = cpel_file_get_source_value (self, "format");
  return name != NULL && *name != '\0' ? _(name) : name;
}

static gboolean
is_reserved_key (const char *key)
{
  static const char * const reserved[] = {
    "format-id", "format", "clock", "clock-description", "lost-events", "start-unix-ns",
    "empty-reason", "clock-origin", "clock-offset-ns", NULL
  };

  return g_strv_contains (reserved, key);
}

char **
cpel_file_dup_source_header (CpelFile *self)
{
  GPtrArray *out;

  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);

  out = g_ptr_array_new ();
  if (self->source_info != NULL)
    for (guint i = 0; i + 1 < self->source_info->len; i += 2)
      if (!is_reserved_key (g_ptr_array_index (self->source_info, i)))
        {
          /* keys are stored untranslated (N_() in the importers) */
          g_ptr_array_add (out, g_strdup (_(g_ptr_array_index (self->source_info, i))));
          g_ptr_array_add (out, g_strdup (g_ptr_array_index (self->source_info, i + 1)));
        }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

gboolean
cpel_file_has_event_texts (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return self->text_offsets != NULL || (self->lazy_texts != NULL && self->n_events > 0);
}

gboolean
cpel_file_append_event_text (const CpelFile *self,
                             guint64         file_index,
                             GString        *out)
{
  guint32 off;
  const char *s, *end;

  if (self->lazy_texts != NULL)
    return self->lazy_texts->append_text (self->lazy_texts->state, file_index, out);
  if (G_LIKELY (self->text_offsets == NULL)
      || file_index - self->text_first >= self->text_count
      || file_index < self->text_first)
    return FALSE;
  memcpy (&off, self->text_offsets + (file_index - self->text_first) * 4, 4);
  off = self->little_endian ? GUINT32_FROM_LE (off) : GUINT32_FROM_BE (off);
  if (off >= self->texts_len)
    return FALSE;   /* 0xffffffff: no text; other values were checked at load */
  s = self->texts + off;
  end = memchr (s, '\0', self->texts_len - off);
  g_string_append_len (out, s, end ? (gsize) (end - s) : self->texts_len - off);
  return TRUE;
}

gpointer
cpel_file_ensure_render_cache (CpelFile       *self,
                               gpointer      (*create) (void),
                               GDestroyNotify  destroy)
{
  gpointer cache;

  g_return_val_if_fail (CPEL_IS_FILE (self), NULL);
  g_return_val_if_fail (create != NULL, NULL);

  g_mutex_lock (&self->render_cache_lock);
  if (self->render_cache == NULL)
    {
      self->render_cache = create ();
      self->render_cache_destroy = destroy;
    }
  g_assert (self->render_cache_destroy == destroy);
  cache = self->render_cache;
  g_mutex_unlock (&self->render_cache_lock);
  return cache;
}
