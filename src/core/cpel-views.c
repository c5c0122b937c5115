/* cpel-views.c — named saved views of a capture, kept next to it
 *
 * The key file:
 *
 *   [CpelViews]
 *   Version=1
 *   Current=0
 *
 *   [View 1]
 *   Name=before the drop
 *   Start=1200000
 *   End=3400000
 *   TrackOrder=3;1;2
 *   HiddenTracks=7
 *   HiddenCodes=12;13
 *   SelectedTrack=3                 (the three Selected* keys: when selected)
 *   SelectedTime=1500000
 *   SelectedFileIndex=42
 *   ScrollY=48
 *
 * Views are the "View N" groups in file order.  Every number is checked;
 * a malformed file is an error, never a partial load.
 */
#include "cpel-views.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-file-private.h"

#define HEADER_GROUP  "CpelViews"
#define VIEW_GROUP    "View "
#define VERSION       1
#define MAX_VIEWS     10000

/* ---- CpelSavedView ------------------------------------------------------ */

G_DEFINE_BOXED_TYPE (CpelSavedView, cpel_saved_view, cpel_saved_view_copy, cpel_saved_view_free)

static GArray *
id_array (void)
{
  return g_array_new (FALSE, FALSE, sizeof (guint32));
}

CpelSavedView *
cpel_saved_view_new (const char *name)
{
  CpelSavedView *view;

  g_return_val_if_fail (name != NULL, NULL);

  view = g_new0 (CpelSavedView, 1);
  view->name = g_strdup (name);
  view->t1 = 1;
  view->track_order = id_array ();
  view->hidden_tracks = id_array ();
  view->hidden_codes = id_array ();
  return view;
}

static GArray *
copy_ids (GArray *ids)
{
  GArray *copy = id_array ();

  if (ids != NULL)
    g_array_append_vals (copy, ids->data, ids->len);
  return copy;
}

CpelSavedView *
cpel_saved_view_copy (const CpelSavedView *view)
{
  CpelSavedView *copy;

  g_return_val_if_fail (view != NULL, NULL);

  copy = g_memdup2 (view, sizeof *view);
  copy->name = g_strdup (view->name);
  copy->track_order = copy_ids (view->track_order);
  copy->hidden_tracks = copy_ids (view->hidden_tracks);
  copy->hidden_codes = copy_ids (view->hidden_codes);
  return copy;
}

void
cpel_saved_view_free (CpelSavedView *view)
{
  if (view == NULL)
    return;
  g_free (view->name);
  g_clear_pointer (&view->track_order, g_array_unref);
  g_clear_pointer (&view->hidden_tracks, g_array_unref);
  g_clear_pointer (&view->hidden_codes, g_array_unref);
  g_free (view);
}

static gboolean
ids_equal (GArray *a,
           GArray *b)
{
  guint na = a ? a->len : 0, nb = b ? b->len : 0;

  return na == nb && (na == 0 || memcmp (a->data, b->data, na * sizeof (guint32)) == 0);
}

gboolean
cpel_saved_view_equal (const CpelSavedView *a,
                       const CpelSavedView *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return g_strcmp0 (a->name, b->name) == 0
         && a->t0 == b->t0 && a->t1 == b->t1
         && ids_equal (a->track_order, b->track_order)
         && ids_equal (a->hidden_tracks, b->hidden_tracks)
         && ids_equal (a->hidden_codes, b->hidden_codes)
         && a->has_selection == b->has_selection
         && (!a->has_selection
             || (a->selected_track == b->selected_track
                 && a->selected_time == b->selected_time
                 && a->selected_file_index == b->selected_file_index))
         && a->scroll_y == b->scroll_y;
}

void
cpel_saved_view_set_rows (CpelSavedView *view,
                          CpelFile      *file,
                          const guint   *slots,
                          guint          n_slots)
{
  g_return_if_fail (view != NULL);
  g_return_if_fail (CPEL_IS_FILE (file));

  g_array_set_size (view->track_order, 0);
  for (guint i = 0; slots != NULL && i < n_slots; i++)
    {
      guint32 id;

      g_return_if_fail (slots[i] < file->n_tracks);
      id = file->tracks[slots[i]].id;
      g_array_append_val (view->track_order, id);
    }
}

guint *
cpel_saved_view_get_rows (const CpelSavedView *view,
                          CpelFile            *file,
                          guint               *n_slots)
{
  guint *slots;
  guint n = 0;

  g_return_val_if_fail (view != NULL, NULL);
  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (n_slots != NULL, NULL);

  if (view->track_order == NULL || view->track_order->len == 0)
    {
      *n_slots = file->n_tracks;
      return NULL;
    }
  slots = g_new (guint, view->track_order->len);
  for (guint i = 0; i < view->track_order->len; i++)
    if (cpel_file_lookup_track (file, g_array_index (view->track_order, guint32, i), &slots[n]))
      n++;
  *n_slots = n;
  return slots;
}

void
cpel_saved_view_set_hidden_types (CpelSavedView *view,
                                  CpelFile      *file,
                                  const guint8  *hidden_types)
{
  g_return_if_fail (view != NULL);
  g_return_if_fail (CPEL_IS_FILE (file));

  g_array_set_size (view->hidden_codes, 0);
  for (guint type = 0; hidden_types != NULL && type < file->n_types; type++)
    if (hidden_types[type])
      g_array_append_val (view->hidden_codes, file->types[type].code);
}

guint8 *
cpel_saved_view_get_hidden_types (const CpelSavedView *view,
                                  CpelFile            *file)
{
  guint8 *hidden;

  g_return_val_if_fail (view != NULL, NULL);
  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);

  hidden = g_malloc0 (MAX (file->n_types, 1));
  for (guint i = 0; view->hidden_codes != NULL && i < view->hidden_codes->len; i++)
    {
      guint type;

      if (cpel_file_lookup_type (file, g_array_index (view->hidden_codes, guint32, i), &type))
        hidden[type] = 1;
    }
  return hidden;
}

gboolean
cpel_saved_view_find_selection (const CpelSavedView *view,
                                CpelFile            *file,
                                guint               *slot,
                                guint64             *index)
{
  const CpelTrack *track;
  guint s;

  g_return_val_if_fail (view != NULL, FALSE);
  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);

  if (!view->has_selection || !cpel_file_lookup_track (file, view->selected_track, &s))
    return FALSE;
  track = &file->tracks[s];
  for (guint64 i = cpel_file_track_lower_bound (file, s, view->selected_time);
       i < track->count && file->times[track->first + i] == view->selected_time; i++)
    if (file->recs[track->first + i] == view->selected_file_index)
      {
        if (slot)
          *slot = s;
        if (index)
          *index = i;
        return TRUE;
      }
  return FALSE;
}

/* ---- key file ------------------------------------------------------------- */

static char *
ids_to_string (GArray *ids)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; ids != NULL && i < ids->len; i++)
    g_string_append_printf (s, i ? ";%u" : "%u", g_array_index (ids, guint32, i));
  return g_string_free (s, FALSE);
}

static void
write_view (GKeyFile            *kf,
            guint                n,
            const CpelSavedView *v)
{
  g_autofree char *group = g_strdup_printf (VIEW_GROUP "%u", n);
  g_autofree char *order = ids_to_string (v->track_order);
  g_autofree char *tracks = ids_to_string (v->hidden_tracks);
  g_autofree char *codes = ids_to_string (v->hidden_codes);

  g_key_file_set_string (kf, group, "Name", v->name);
  g_key_file_set_int64 (kf, group, "Start", v->t0);
  g_key_file_set_int64 (kf, group, "End", v->t1);
  g_key_file_set_string (kf, group, "TrackOrder", order);
  g_key_file_set_string (kf, group, "HiddenTracks", tracks);
  g_key_file_set_string (kf, group, "HiddenCodes", codes);
  if (v->has_selection)
    {
      g_key_file_set_uint64 (kf, group, "SelectedTrack", v->selected_track);
      g_key_file_set_int64 (kf, group, "SelectedTime", v->selected_time);
      g_key_file_set_uint64 (kf, group, "SelectedFileIndex", v->selected_file_index);
    }
  g_key_file_set_double (kf, group, "ScrollY", v->scroll_y);
}

static char *
views_to_data (GPtrArray *views,
               int        current,
               gsize     *len)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();

  g_key_file_set_integer (kf, HEADER_GROUP, "Version", VERSION);
  g_key_file_set_integer (kf, HEADER_GROUP, "Current", current);
  for (guint i = 0; i < views->len; i++)
    write_view (kf, i + 1, g_ptr_array_index (views, i));
  return g_key_file_to_data (kf, len, NULL);
}

G_GNUC_PRINTF (4, 5) static void
bad_value (GError    **error,
           const char *group,
           const char *key,
           const char *format,
           ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("[%s] %s: %s"), group, key, what);
}

static gboolean
get_signed (GKeyFile   *kf,
            const char *group,
            const char *key,
            gint64      min,
            gint64      max,
            gint64     *out,
            GError    **error)
{
  g_autofree char *s = g_key_file_get_string (kf, group, key, error);

  if (s == NULL)
    return FALSE;
  g_strstrip (s);
  if (!g_ascii_string_to_signed (s, 10, min, max, out, NULL))
    {
      bad_value (error, group, key, _("“%s” is not a valid number"), s);
      return FALSE;
    }
  return TRUE;
}

static gboolean
get_unsigned (GKeyFile   *kf,
              const char *group,
              const char *key,
              guint64     max,
              guint64    *out,
              GError    **error)
{
  g_autofree char *s = g_key_file_get_string (kf, group, key, error);

  if (s == NULL)
    return FALSE;
  g_strstrip (s);
  if (!g_ascii_string_to_unsigned (s, 10, 0, max, out, NULL))
    {
      bad_value (error, group, key, _("“%s” is not a valid number"), s);
      return FALSE;
    }
  return TRUE;
}

static GArray *
get_ids (GKeyFile   *kf,
         const char *group,
         const char *key,
         GError    **error)
{
  g_autofree char *s = g_key_file_get_string (kf, group, key, error);
  g_auto(GStrv) parts = NULL;
  g_autoptr(GArray) ids = id_array ();

  if (s == NULL)
    return NULL;
  parts = g_strsplit (s, ";", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 v;
      guint32 id;

      g_strstrip (parts[i]);
      if (parts[i][0] == '\0')
        continue;
      if (!g_ascii_string_to_unsigned (parts[i], 10, 0, G_MAXUINT32, &v, NULL))
        {
          bad_value (error, group, key, _("“%s” is not a valid id"), parts[i]);
          return NULL;
        }
      id = (guint32) v;
      g_array_append_val (ids, id);
    }
  return g_steal_pointer (&ids);
}

static CpelSavedView *
read_view (GKeyFile   *kf,
           const char *group,
           GError    **error)
{
  g_autoptr(CpelSavedView) v = g_new0 (CpelSavedView, 1);
  g_autofree char *scroll = NULL;
  char *end = NULL;
  guint64 u;

  v->name = g_key_file_get_string (kf, group, "Name", error);
  if (v->name == NULL)
    return NULL;
  if (v->name[0] == '\0')
    {
      bad_value (error, group, "Name", _("the name is empty"));
      return NULL;
    }
  if (!get_signed (kf, group, "Start", G_MININT64, G_MAXINT64, &v->t0, error) ||
      !get_signed (kf, group, "End", G_MININT64, G_MAXINT64, &v->t1, error))
    return NULL;
  if (v->t1 <= v->t0)
    {
      bad_value (error, group, "End", _("the range is empty"));
      return NULL;
    }
  if ((v->track_order = get_ids (kf, group, "TrackOrder", error)) == NULL ||
      (v->hidden_tracks = get_ids (kf, group, "HiddenTracks", error)) == NULL ||
      (v->hidden_codes = get_ids (kf, group, "HiddenCodes", error)) == NULL)
    return NULL;

  v->has_selection = g_key_file_has_key (kf, group, "SelectedTrack", NULL);
  if (v->has_selection)
    {
      if (!get_unsigned (kf, group, "SelectedTrack", G_MAXUINT32, &u, error) ||
          !get_signed (kf, group, "SelectedTime", G_MININT64, G_MAXINT64, &v->selected_time, error) ||
          !get_unsigned (kf, group, "SelectedFileIndex", G_MAXUINT64, &v->selected_file_index, error))
        return NULL;
      v->selected_track = (guint32) u;
    }

  scroll = g_key_file_get_string (kf, group, "ScrollY", error);
  if (scroll == NULL)
    return NULL;
  g_strstrip (scroll);
  v->scroll_y = g_ascii_strtod (scroll, &end);
  if (end == scroll || *end != '\0' || !isfinite (v->scroll_y) || v->scroll_y < 0)
    {
      bad_value (error, group, "ScrollY", _("“%s” is not a valid scroll position"), scroll);
      return NULL;
    }
  return g_steal_pointer (&v);
}

/* Parses a views file: its views (in order) and current index. */
static GPtrArray *
views_from_data (const char  *data,
                 gsize        len,
                 int         *current,
                 GError     **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GPtrArray) views = g_ptr_array_new_with_free_func ((GDestroyNotify) cpel_saved_view_free);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) groups = NULL;
  gint64 version, cur = -1;

  if (!g_key_file_load_from_data (kf, data, len, G_KEY_FILE_NONE, error))
    return NULL;
  if (!get_signed (kf, HEADER_GROUP, "Version", 0, G_MAXINT, &version, error))
    return NULL;
  if (version != VERSION)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("Saved views of version %d are not supported"), (int) version);
      return NULL;
    }
  if (g_key_file_has_key (kf, HEADER_GROUP, "Current", NULL) &&
      !get_signed (kf, HEADER_GROUP, "Current", -1, MAX_VIEWS, &cur, error))
    return NULL;

  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      CpelSavedView *v;

      if (!g_str_has_prefix (groups[i], VIEW_GROUP))
        continue;
      if (views->len >= MAX_VIEWS)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                       _("More than %d saved views"), MAX_VIEWS);
          return NULL;
        }
      v = read_view (kf, groups[i], error);
      if (v == NULL)
        return NULL;
      g_ptr_array_add (views, v);
      if (!g_hash_table_add (names, v->name))
        {
          bad_value (error, groups[i], "Name", _("“%s” is the name of another view"), v->name);
          return NULL;
        }
    }
  *current = cur < (gint64) views->len ? (int) cur : -1;
  return g_steal_pointer (&views);
}

static GPtrArray *
read_views_file (const char  *path,
                 int         *current,
                 GError     **error)
{
  g_autofree char *data = NULL;
  gsize len;
  GStatBuf st;
  GPtrArray *views;

  if (g_stat (path, &st) == 0 && st.st_size > CPEL_VIEWS_MAX_FILE_SIZE)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                   _("%s: larger than %u bytes"), path, CPEL_VIEWS_MAX_FILE_SIZE);
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &len, error))
    return NULL;
  if (len > CPEL_VIEWS_MAX_FILE_SIZE)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                   _("%s: larger than %u bytes"), path, CPEL_VIEWS_MAX_FILE_SIZE);
      return NULL;
    }
  views = views_from_data (data, len, current, error);
  if (views == NULL)
    g_prefix_error (error, "%s: ", path);
  return views;
}

static gboolean
write_views_file (const char  *path,
                  GPtrArray   *views,
                  int          current,
                  GError     **error)
{
  g_autofree char *data = NULL;
  gsize len;

  data = views_to_data (views, current, &len);
  return g_file_set_contents (path, data, len, error);
}

/* ---- CpelViews -------------------------------------------------------------- */

struct _CpelViews
{
  GObject                parent_instance;

  char                  *capture_path;
  GPtrArray             *views;          /* CpelSavedView* */
  int                    current;

  CpelViewsWritableFunc  writable;
  gpointer               writable_data;
  GDestroyNotify         writable_destroy;
};

G_DEFINE_FINAL_TYPE (CpelViews, cpel_views, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_CAPTURE_PATH,
  PROP_N_VIEWS,
  PROP_CURRENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
cpel_views_finalize (GObject *object)
{
  CpelViews *self = CPEL_VIEWS (object);

  if (self->writable_destroy != NULL)
    self->writable_destroy (self->writable_data);
  g_clear_pointer (&self->views, g_ptr_array_unref);
  g_clear_pointer (&self->capture_path, g_free);

  G_OBJECT_CLASS (cpel_views_parent_class)->finalize (object);
}

static void
cpel_views_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  CpelViews *self = CPEL_VIEWS (object);

  switch (prop_id)
    {
    case PROP_CAPTURE_PATH:
      g_value_set_string (value, self->capture_path);
      break;
    case PROP_N_VIEWS:
      g_value_set_uint (value, self->views->len);
      break;
    case PROP_CURRENT:
      g_value_set_int (value, self->current);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_views_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  CpelViews *self = CPEL_VIEWS (object);

  switch (prop_id)
    {
    case PROP_CAPTURE_PATH:
      self->capture_path = g_canonicalize_filename (g_value_get_string (value), NULL);
      break;
    case PROP_CURRENT:
      cpel_views_set_current (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_views_class_init (CpelViewsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cpel_views_finalize;
  object_class->get_property = cpel_views_get_property;
  object_class->set_property = cpel_views_set_property;

  properties[PROP_CAPTURE_PATH] =
    g_param_spec_string ("capture-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_VIEWS] =
    g_param_spec_uint ("n-views", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CURRENT] =
    g_param_spec_int ("current", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
cpel_views_init (CpelViews *self)
{
  self->views = g_ptr_array_new_with_free_func ((GDestroyNotify) cpel_saved_view_free);
  self->current = -1;
}

CpelViews *
cpel_views_new (const char *capture_path)
{
  g_return_val_if_fail (capture_path != NULL, NULL);

  return g_object_new (CPEL_TYPE_VIEWS, "capture-path", capture_path, NULL);
}

const char *
cpel_views_get_capture_path (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);
  return self->capture_path;
}

void
cpel_views_set_writable_func (CpelViews             *self,
                              CpelViewsWritableFunc  func,
                              gpointer               user_data,
                              GDestroyNotify         destroy)
{
  g_return_if_fail (CPEL_IS_VIEWS (self));

  if (self->writable_destroy != NULL)
    self->writable_destroy (self->writable_data);
  self->writable = func;
  self->writable_data = user_data;
  self->writable_destroy = destroy;
}

char *
cpel_views_get_sidecar_path (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);
  return g_strconcat (self->capture_path, CPEL_VIEWS_SUFFIX, NULL);
}

char *
cpel_views_get_fallback_path (CpelViews *self)
{
  g_autofree char *hash = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);

  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, self->capture_path, -1);
  name = g_strconcat (hash, CPEL_VIEWS_SUFFIX, NULL);
  return g_build_filename (g_get_user_data_dir (), "cpelview", "views", name, NULL);
}

static gboolean
sidecar_dir_writable (CpelViews *self)
{
  g_autofree char *dir = g_path_get_dirname (self->capture_path);

  if (self->writable != NULL)
    return self->writable (dir, self->writable_data);
  return g_access (dir, W_OK) == 0;
}

char *
cpel_views_get_save_path (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);

  return sidecar_dir_writable (self) ? cpel_views_get_sidecar_path (self)
                                     : cpel_views_get_fallback_path (self);
}

static void
set_current (CpelViews *self,
             int        current)
{
  if (self->current == current)
    return;
  self->current = current;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT]);
}

/* Replace the views by `views`; signals. */
static void
replace_views (CpelViews *self,
               GPtrArray *views,
               int        current)
{
  guint before = self->views->len;

  g_ptr_array_unref (self->views);
  self->views = views;
  set_current (self, current);
  if (before != views->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_VIEWS]);
  g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
cpel_views_load (CpelViews  *self,
                 GError    **error)
{
  g_autofree char *save = NULL;
  g_autofree char *sidecar = NULL;
  g_autofree char *fallback = NULL;
  const char *path = NULL;
  GPtrArray *views;
  int current = -1;

  g_return_val_if_fail (CPEL_IS_VIEWS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  save = cpel_views_get_save_path (self);
  sidecar = cpel_views_get_sidecar_path (self);
  fallback = cpel_views_get_fallback_path (self);
  if (g_file_test (save, G_FILE_TEST_EXISTS))
    path = save;
  else if (g_file_test (sidecar, G_FILE_TEST_EXISTS))
    path = sidecar;
  else if (g_file_test (fallback, G_FILE_TEST_EXISTS))
    path = fallback;

  if (path == NULL)
    views = g_ptr_array_new_with_free_func ((GDestroyNotify) cpel_saved_view_free);
  else if ((views = read_views_file (path, &current, error)) == NULL)
    return FALSE;
  replace_views (self, views, current);
  return TRUE;
}

static gboolean
remove_file (const char  *path,
             GError     **error)
{
  int saved_errno;

  if (g_unlink (path) == 0)
    return TRUE;
  saved_errno = errno;
  if (saved_errno == ENOENT)
    return TRUE;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               _("Could not remove %s: %s"), path, g_strerror (saved_errno));
  return FALSE;
}

gboolean
cpel_views_save (CpelViews  *self,
                 GError    **error)
{
  g_autofree char *sidecar = NULL;
  g_autofree char *fallback = NULL;
  gboolean to_sidecar;

  g_return_val_if_fail (CPEL_IS_VIEWS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  sidecar = cpel_views_get_sidecar_path (self);
  fallback = cpel_views_get_fallback_path (self);
  to_sidecar = sidecar_dir_writable (self);

  if (self->views->len == 0)
    {
      /* nothing to keep: no file, so that no stale one is read later */
      if (!remove_file (to_sidecar ? sidecar : fallback, error))
        return FALSE;
      if (to_sidecar)
        remove_file (fallback, NULL);
      return TRUE;
    }

  if (!to_sidecar)
    {
      g_autofree char *dir = g_path_get_dirname (fallback);

      if (g_mkdir_with_parents (dir, 0700) != 0)
        {
          int saved_errno = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       _("Could not create %s: %s"), dir, g_strerror (saved_errno));
          return FALSE;
        }
    }
  if (!write_views_file (to_sidecar ? sidecar : fallback, self->views, self->current, error))
    return FALSE;
  /* the sidecar supersedes a copy saved while the directory was read-only */
  if (to_sidecar)
    remove_file (fallback, NULL);
  return TRUE;
}

gboolean
cpel_views_export (CpelViews   *self,
                   const char  *path,
                   GError     **error)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return write_views_file (path, self->views, self->current, error);
}

static guint
put_view (CpelViews     *self,
          CpelSavedView *view)
{
  guint index;

  if (cpel_views_lookup (self, view->name, &index))
    {
      cpel_saved_view_free (g_ptr_array_index (self->views, index));
      g_ptr_array_index (self->views, index) = view;
      return index;
    }
  g_ptr_array_add (self->views, view);
  return self->views->len - 1;
}

gboolean
cpel_views_import (CpelViews   *self,
                   const char  *path,
                   GError     **error)
{
  g_autoptr(GPtrArray) views = NULL;
  guint before;
  int current;

  g_return_val_if_fail (CPEL_IS_VIEWS (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  views = read_views_file (path, &current, error);
  if (views == NULL)
    return FALSE;
  if (self->views->len + views->len > MAX_VIEWS)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE, _("More than %d saved views"), MAX_VIEWS);
      return FALSE;
    }
  before = self->views->len;
  for (guint i = 0; i < views->len; i++)
    put_view (self, g_steal_pointer (&g_ptr_array_index (views, i)));
  g_ptr_array_set_free_func (views, NULL);
  if (before != self->views->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_VIEWS]);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

guint
cpel_views_get_n_views (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), 0);
  return self->views->len;
}

const CpelSavedView *
cpel_views_get_view (CpelViews *self,
                     guint      i)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);
  g_return_val_if_fail (i < self->views->len, NULL);
  return g_ptr_array_index (self->views, i);
}

gboolean
cpel_views_lookup (CpelViews  *self,
                   const char *name,
                   guint      *index)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < self->views->len; i++)
    if (g_str_equal (((CpelSavedView *) g_ptr_array_index (self->views, i))->name, name))
      {
        if (index)
          *index = i;
        return TRUE;
      }
  return FALSE;
}

guint
cpel_views_put (CpelViews           *self,
                const CpelSavedView *view)
{
  guint before, index;

  g_return_val_if_fail (CPEL_IS_VIEWS (self), 0);
  g_return_val_if_fail (view != NULL && view->name != NULL && view->name[0] != '\0', 0);

  before = self->views->len;
  index = put_view (self, cpel_saved_view_copy (view));
  set_current (self, (int) index);
  if (before != self->views->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_VIEWS]);
  g_signal_emit (self, signals[CHANGED], 0);
  return index;
}

gboolean
cpel_views_remove (CpelViews  *self,
                   const char *name)
{
  guint index;
  int current;

  g_return_val_if_fail (CPEL_IS_VIEWS (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!cpel_views_lookup (self, name, &index))
    return FALSE;
  g_ptr_array_remove_index (self->views, index);
  current = self->current;
  if (current > (int) index || current >= (int) self->views->len)
    current--;
  set_current (self, current);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_VIEWS]);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

gboolean
cpel_views_rename (CpelViews   *self,
                   const char  *old_name,
                   const char  *new_name,
                   GError     **error)
{
  CpelSavedView *view;
  guint index;

  g_return_val_if_fail (CPEL_IS_VIEWS (self), FALSE);
  g_return_val_if_fail (old_name != NULL && new_name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!cpel_views_lookup (self, old_name, &index))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("There is no view named “%s”"), old_name);
      return FALSE;
    }
  if (g_str_equal (old_name, new_name))
    return TRUE;
  if (new_name[0] == '\0' || !g_utf8_validate (new_name, -1, NULL))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("A view needs a name"));
      return FALSE;
    }
  if (cpel_views_lookup (self, new_name, NULL))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("There is already a view named “%s”"), new_name);
      return FALSE;
    }
  view = g_ptr_array_index (self->views, index);
  g_free (view->name);
  view->name = g_strdup (new_name);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

int
cpel_views_get_current (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), -1);
  return self->current;
}

void
cpel_views_set_current (CpelViews *self,
                        int        index)
{
  g_return_if_fail (CPEL_IS_VIEWS (self));
  g_return_if_fail (index >= -1 && index < (int) self->views->len);

  set_current (self, index);
}

const CpelSavedView *
cpel_views_next (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);

  if (self->views->len == 0)
    return NULL;
  set_current (self, (self->current + 1) % (int) self->views->len);
  return g_ptr_array_index (self->views, self->current);
}

const CpelSavedView *
cpel_views_previous (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);

  if (self->views->len == 0)
    return NULL;
  set_current (self, self->current <= 0 ? (int) self->views->len - 1 : self->current - 1);
  return g_ptr_array_index (self->views, self->current);
}
