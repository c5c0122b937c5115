/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-views.c — the saved views of one capture: an ordered list with a
 * current view, kept in a sidecar file next to the capture (or in the user
 * data dir); the file format is in cpel-views-keyfile.c */
#include "cpel-views-private.h"

#include <errno.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"

struct _CpelViews
{
  GObject                parent_instance;

  char                  *capture_path;
  GPtrArray             *views;          /* CpelSavedView* */
  int                    current;
  CpelViewsSpanSettings  spans;

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
  cpel_views_span_settings_clear (&self->spans);

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
  CpelViewsSpanSettings spans = { NULL, NULL, NULL };

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
  else if ((views = cpel_views_read_file_full (path, &current, &spans, error)) == NULL)
    return FALSE;
  cpel_views_span_settings_clear (&self->spans);
  self->spans = spans;
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

  if (self->views->len == 0 && self->spans.user_rules == NULL && self->spans.disabled == NULL
      && self->spans.labels == NULL)
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
  if (!cpel_views_write_file_full (to_sidecar ? sidecar : fallback, self->views, self->current,
                                   &self->spans, error))
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

  return cpel_views_write_file (path, self->views, self->current, error);
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

  views = cpel_views_read_file (path, &current, error);
  if (views == NULL)
    return FALSE;
  if (self->views->len + views->len > CPEL_VIEWS_MAX)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE, _("More than %d saved views"), CPEL_VIEWS_MAX);
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

const char *
cpel_views_get_span_rules_text (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);
  return self->spans.user_rules;
}

const char *const *
cpel_views_get_disabled_rules (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);
  return (const char *const *) self->spans.disabled;
}

void
cpel_views_set_span_settings (CpelViews         *self,
                              const char        *user_rules,
                              const char *const *disabled)
{
  CpelViewsSpanSettings now = { NULL, NULL, NULL };

  g_return_if_fail (CPEL_IS_VIEWS (self));

  /* copied first: the arguments may be the settings' own */
  if (user_rules != NULL && user_rules[0] != '\0')
    now.user_rules = g_strdup (user_rules);
  if (disabled != NULL && disabled[0] != NULL)
    now.disabled = g_strdupv ((char **) disabled);
  now.labels = g_steal_pointer (&self->spans.labels);
  cpel_views_span_settings_clear (&self->spans);
  self->spans = now;
}

const char *const *
cpel_views_get_label_formats (CpelViews *self)
{
  g_return_val_if_fail (CPEL_IS_VIEWS (self), NULL);
  return (const char *const *) self->spans.labels;
}

void
cpel_views_set_label_formats (CpelViews         *self,
                              const char *const *formats)
{
  char **now = NULL;

  g_return_if_fail (CPEL_IS_VIEWS (self));

  if (formats != NULL && formats[0] != NULL)
    now = g_strdupv ((char **) formats);
  g_strfreev (self->spans.labels);
  self->spans.labels = now;
}
