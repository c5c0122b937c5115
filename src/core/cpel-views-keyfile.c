/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-views-keyfile.c — saved views to and from a GKeyFile
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
 *   [Spans]                         (when the capture has span settings)
 *   UserRules=span req begin event=rx end event=tx\nstate Up on event=up
 *   DisabledRules=span api-msg\nstate Running
 *
 *   [Labels]                        (when the user chose label formats)
 *   Formats=sched:sched_switch;{next_comm} [{next_pid}];cycles;{symbol}
 *
 * Views are the "View N" groups in file order.  Every number is checked;
 * a malformed file is an error, never a partial load.
 */
#include "cpel-views-private.h"

#include <math.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"
#include "cpel-labels.h"

#define HEADER_GROUP  "CpelViews"
#define VIEW_GROUP    "View "
#define SPANS_GROUP   "Spans"
#define LABELS_GROUP  "Labels"
/* At most this many disabled rule ids. */
#define MAX_DISABLED  4096
#define VERSION       1

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
  if (v->has_alignment)
    {
      g_key_file_set_int64 (kf, group, "CompareOffset", v->compare_offset);
      g_key_file_set_int64 (kf, group, "CompareOrigin", v->compare_origin);
    }
}

void
cpel_views_span_settings_clear (CpelViewsSpanSettings *s)
{
  g_clear_pointer (&s->user_rules, g_free);
  g_clear_pointer (&s->disabled, g_strfreev);
  g_clear_pointer (&s->labels, g_strfreev);
}

static char *
views_to_data (GPtrArray                   *views,
               int                          current,
               const CpelViewsSpanSettings *spans,
               gsize                       *len)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();

  g_key_file_set_integer (kf, HEADER_GROUP, "Version", VERSION);
  g_key_file_set_integer (kf, HEADER_GROUP, "Current", current);
  for (guint i = 0; i < views->len; i++)
    write_view (kf, i + 1, g_ptr_array_index (views, i));
  if (spans != NULL && spans->user_rules != NULL)
    g_key_file_set_string (kf, SPANS_GROUP, "UserRules", spans->user_rules);
  if (spans != NULL && spans->disabled != NULL)
    {
      g_autofree char *joined = g_strjoinv ("\n", spans->disabled);

      g_key_file_set_string (kf, SPANS_GROUP, "DisabledRules", joined);
    }
  if (spans != NULL && spans->labels != NULL)
    g_key_file_set_string_list (kf, LABELS_GROUP, "Formats",
                                (const char *const *) spans->labels,
                                g_strv_length (spans->labels));
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

/* GKeyFile unescapes \s \n \t \r and \\ in a string value (and \; in a
 * list).  GLib 2.74 sets its error twice on a value holding an unknown
 * escape and a trailing backslash (a GLib warning), so the raw value is
 * checked here first. */
static gboolean
check_escapes (const char  *raw,
               gboolean     list,
               const char  *group,
               const char  *key,
               GError     **error)
{
  for (const char *p = raw; *p != '\0'; p++)
    {
      if (*p != '\\')
        continue;
      p++;
      if (*p == '\0')
        {
          bad_value (error, group, key, _("the value ends with an escape character"));
          return FALSE;
        }
      if (strchr (list ? "sntr\\;" : "sntr\\", *p) == NULL)
        {
          bad_value (error, group, key, _("the value holds an unknown escape sequence"));
          return FALSE;
        }
    }
  return TRUE;
}

/* g_key_file_get_string, except that a value it cannot unescape is an
 * error only: NULL. */
static char *
get_string (GKeyFile   *kf,
            const char *group,
            const char *key,
            GError    **error)
{
  g_autofree char *raw = g_key_file_get_value (kf, group, key, error);

  if (raw == NULL || !check_escapes (raw, FALSE, group, key, error))
    return NULL;
  return g_key_file_get_string (kf, group, key, error);
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
  g_autofree char *s = get_string (kf, group, key, error);

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
  g_autofree char *s = get_string (kf, group, key, error);

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
  g_autofree char *s = get_string (kf, group, key, error);
  g_auto(GStrv) parts = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));

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

  v->name = get_string (kf, group, "Name", error);
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

  scroll = get_string (kf, group, "ScrollY", error);
  if (scroll == NULL)
    return NULL;
  g_strstrip (scroll);
  v->scroll_y = g_ascii_strtod (scroll, &end);
  if (end == scroll || *end != '\0' || !isfinite (v->scroll_y) || v->scroll_y < 0)
    {
      bad_value (error, group, "ScrollY", _("“%s” is not a valid scroll position"), scroll);
      return NULL;
    }

  /* the alignment of a comparison: both keys or neither */
  v->has_alignment = g_key_file_has_key (kf, group, "CompareOffset", NULL)
                     || g_key_file_has_key (kf, group, "CompareOrigin", NULL);
  if (v->has_alignment
      && (!get_signed (kf, group, "CompareOffset", G_MININT64, G_MAXINT64, &v->compare_offset, error)
          || !get_signed (kf, group, "CompareOrigin", G_MININT64, G_MAXINT64, &v->compare_origin, error)))
    return NULL;
  return g_steal_pointer (&v);
}

static gboolean
read_spans (GKeyFile               *kf,
            CpelViewsSpanSettings  *spans,
            GError                **error)
{
  g_autofree char *user = NULL;
  g_autofree char *disabled = NULL;
  g_auto(GStrv) ids = NULL;
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  guint n = 0;

  if (g_key_file_has_key (kf, SPANS_GROUP, "UserRules", NULL))
    {
      user = get_string (kf, SPANS_GROUP, "UserRules", error);
      if (user == NULL)
        return FALSE;
      if (!g_utf8_validate (user, -1, NULL))
        {
          bad_value (error, SPANS_GROUP, "UserRules", _("the text is not valid UTF-8"));
          return FALSE;
        }
    }
  if (g_key_file_has_key (kf, SPANS_GROUP, "DisabledRules", NULL))
    {
      disabled = get_string (kf, SPANS_GROUP, "DisabledRules", error);
      if (disabled == NULL)
        return FALSE;
      ids = g_strsplit (disabled, "\n", -1);
      for (guint i = 0; ids[i] != NULL; i++)
        {
          if (ids[i][0] == '\0')
            continue;
          if (!g_utf8_validate (ids[i], -1, NULL))
            {
              bad_value (error, SPANS_GROUP, "DisabledRules", _("the text is not valid UTF-8"));
              return FALSE;
            }
          if (++n > MAX_DISABLED)
            {
              bad_value (error, SPANS_GROUP, "DisabledRules", _("more than %d rules"),
                         MAX_DISABLED);
              return FALSE;
            }
          g_strv_builder_add (b, ids[i]);
        }
    }
  if (spans != NULL)
    {
      spans->user_rules = g_steal_pointer (&user);
      spans->disabled = disabled != NULL ? g_strv_builder_end (b) : NULL;
    }
  return TRUE;
}

static gboolean
read_labels (GKeyFile   *kf,
             char     ***labels,
             GError    **error)
{
  g_auto(GStrv) list = NULL;
  g_autofree char *raw = NULL;
  gsize n = 0;

  if (!g_key_file_has_key (kf, LABELS_GROUP, "Formats", NULL))
    return TRUE;
  /* its escapes checked first, as get_string () does */
  raw = g_key_file_get_value (kf, LABELS_GROUP, "Formats", error);
  if (raw == NULL || !check_escapes (raw, TRUE, LABELS_GROUP, "Formats", error))
    return FALSE;
  list = g_key_file_get_string_list (kf, LABELS_GROUP, "Formats", &n, error);
  if (list == NULL)
    return FALSE;
  if (n % 2 != 0)
    {
      bad_value (error, LABELS_GROUP, "Formats", _("an event type without its format"));
      return FALSE;
    }
  if (n / 2 > CPEL_LABELS_MAX_FORMATS)
    {
      bad_value (error, LABELS_GROUP, "Formats", _("more than %d formats"),
                 CPEL_LABELS_MAX_FORMATS);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    if (!g_utf8_validate (list[i], -1, NULL))
      {
        bad_value (error, LABELS_GROUP, "Formats", _("the text is not valid UTF-8"));
        return FALSE;
      }
  if (labels != NULL && n > 0)
    *labels = g_steal_pointer (&list);
  return TRUE;
}

/* Parses a views file: its views (in order), current index, span
 * settings and label formats. */
static GPtrArray *
views_from_data (const char             *data,
                 gsize                   len,
                 int                    *current,
                 CpelViewsSpanSettings  *spans,
                 GError                **error)
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
      !get_signed (kf, HEADER_GROUP, "Current", -1, CPEL_VIEWS_MAX, &cur, error))
    return NULL;

  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      CpelSavedView *v;

      if (!g_str_has_prefix (groups[i], VIEW_GROUP))
        continue;
      if (views->len >= CPEL_VIEWS_MAX)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                       _("More than %d saved views"), CPEL_VIEWS_MAX);
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
  if (!read_spans (kf, spans, error)
      || !read_labels (kf, spans != NULL ? &spans->labels : NULL, error))
    return NULL;
  *current = cur < (gint64) views->len ? (int) cur : -1;
  return g_steal_pointer (&views);
}

GPtrArray *
cpel_views_read_file (const char  *path,
                      int         *current,
                      GError     **error)
{
  return cpel_views_read_file_full (path, current, NULL, error);
}

GPtrArray *
cpel_views_read_file_full (const char             *path,
                           int                    *current,
                           CpelViewsSpanSettings  *spans,
                           GError                **error)
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
  views = views_from_data (data, len, current, spans, error);
  if (views == NULL)
    g_prefix_error (error, "%s: ", path);
  return views;
}

gboolean
cpel_views_write_file (const char  *path,
                       GPtrArray   *views,
                       int          current,
                       GError     **error)
{
  return cpel_views_write_file_full (path, views, current, NULL, error);
}

gboolean
cpel_views_write_file_full (const char                  *path,
                            GPtrArray                   *views,
                            int                          current,
                            const CpelViewsSpanSettings *spans,
                            GError                     **error)
{
  g_autofree char *data = NULL;
  gsize len;

  data = views_to_data (views, current, spans, &len);
  return g_file_set_contents (path, data, len, error);
}
