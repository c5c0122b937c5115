/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-event-types-window.c — the Event Types window
 *
 * One row per event type (CpelEventTypeRow: name, code, event count, label
 * format, colour) with a check box; the window's search filters the rows.
 * A label format chosen applies to the session's labels and is saved in
 * the capture's views file.  Changes apply to
 * the session at once, and the rows follow the session's hidden types when
 * they change elsewhere (a saved view, the anomaly search).
 */
#include "cpel-event-types-window.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cpel-count.h"

#include "cpel-event-type-row.h"

/* Types listed at most (a file may define very many). */
#define MAX_ROWS 5000

struct _CpelEventTypesWindow
{
  AdwPreferencesWindow  parent_instance;

  /* template */
  AdwPreferencesGroup  *group;

  CpelSession          *session;
  CpelFile             *file;       /* the session's when the window was made */
  GPtrArray            *rows;       /* CpelEventTypeRow per listed type, index = type */
  guint                 n_types;
  gboolean              syncing;    /* rows set from the session */
};

G_DEFINE_FINAL_TYPE (CpelEventTypesWindow, cpel_event_types_window, ADW_TYPE_PREFERENCES_WINDOW)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
same_file (CpelEventTypesWindow *self)
{
  return cpel_session_get_file (self->session) == self->file && self->file != NULL;
}

static void
on_row_shown (CpelEventTypeRow     *row,
              GParamSpec           *pspec,
              CpelEventTypesWindow *self)
{
  guint type = cpel_event_type_row_get_type_index (row);

  g_assert (type < self->n_types);
  if (!self->syncing && same_file (self))
    cpel_session_set_type_hidden (self->session, type, !cpel_event_type_row_get_shown (row));
}

static void
set_all (CpelEventTypesWindow *self,
         gboolean              shown)
{
  g_autofree guint8 *hidden = NULL;

  if (!same_file (self))
    return;
  hidden = g_malloc (MAX (self->n_types, 1));
  memset (hidden, shown ? 0 : 1, self->n_types);
  cpel_session_set_hidden_types (self->session, hidden);
}

static void
on_show_all_clicked (CpelEventTypesWindow *self)
{
  set_all (self, TRUE);
}

static void
on_hide_all_clicked (CpelEventTypesWindow *self)
{
  set_all (self, FALSE);
}

/* A type's label format chosen: the session's labels, and the capture's
 * views file that keeps them. */
static void
on_row_format (CpelEventTypeRow     *row,
               const char           *format,
               CpelEventTypesWindow *self)
{
  CpelLabels *labels;
  g_autoptr(CpelLabels) mine = NULL;
  g_auto(GStrv) formats = NULL;
  CpelViews *views;
  g_autoptr(GError) error = NULL;

  if (!same_file (self) || (labels = cpel_session_get_labels (self->session)) == NULL)
    return;
  mine = cpel_labels_new_with_format (labels, cpel_event_type_row_get_type_index (row), format);
  cpel_session_set_labels (self->session, mine);
  views = cpel_session_get_views (self->session);
  if (views == NULL)
    return;
  formats = cpel_labels_dup_user_formats (mine);
  cpel_views_set_label_formats (views, (const char *const *) formats);
  if (!cpel_views_save (views, &error))
    g_warning ("%s", error->message);
}

static void
on_labels_changed (CpelEventTypesWindow *self)
{
  CpelLabels *labels = cpel_session_get_labels (self->session);

  if (!same_file (self) || labels == NULL)
    return;
  for (guint i = 0; i < self->rows->len; i++)
    cpel_event_type_row_set_labels (g_ptr_array_index (self->rows, i), labels);
}

/* The rows follow the session's hidden types (changed here, by a saved
 * view, by the anomaly search). */
static void
on_types_changed (CpelEventTypesWindow *self)
{
  if (!same_file (self))
    return;
  self->syncing = TRUE;
  for (guint i = 0; i < self->rows->len; i++)
    cpel_event_type_row_set_shown (g_ptr_array_index (self->rows, i),
                                   !cpel_session_get_type_hidden (self->session, i));
  self->syncing = FALSE;
}

CpelEventTypesWindow *
cpel_event_types_window_new (CpelSession *session,
                             GtkWindow   *parent)
{
  g_return_val_if_fail (CPEL_IS_SESSION (session), NULL);
  g_return_val_if_fail (cpel_session_get_file (session) != NULL, NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (CPEL_TYPE_EVENT_TYPES_WINDOW,
                       "transient-for", parent,
                       "session", session,
                       NULL);
}

CpelSession *
cpel_event_types_window_get_session (CpelEventTypesWindow *self)
{
  g_return_val_if_fail (CPEL_IS_EVENT_TYPES_WINDOW (self), NULL);
  return self->session;
}

static void
cpel_event_types_window_constructed (GObject *object)
{
  CpelEventTypesWindow *self = CPEL_EVENT_TYPES_WINDOW (object);
  guint n_listed;

  G_OBJECT_CLASS (cpel_event_types_window_parent_class)->constructed (object);

  g_assert (CPEL_IS_SESSION (self->session));
  self->file = cpel_session_get_file (self->session);
  g_return_if_fail (self->file != NULL);
  g_object_ref (self->file);

  self->n_types = cpel_file_get_n_types (self->file);

  n_listed = MIN (self->n_types, MAX_ROWS);
  for (guint type = 0; type < n_listed; type++)
    {
      CpelEventTypeRow *row = cpel_event_type_row_new (self->file, type);

      cpel_event_type_row_set_shown (row, !cpel_session_get_type_hidden (self->session, type));
      g_signal_connect (row, "notify::shown", G_CALLBACK (on_row_shown), self);
      g_signal_connect (row, "format-changed", G_CALLBACK (on_row_format), self);
      adw_preferences_group_add (self->group, GTK_WIDGET (row));
      g_ptr_array_add (self->rows, row);
    }
  if (self->n_types > n_listed)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *more = cpel_format_count (self->n_types - n_listed);
      g_autofree char *text = g_strdup_printf (_("%s more types are not listed"), more);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
      adw_preferences_group_add (self->group, row);
    }

  g_signal_connect_object (self->session, "types-changed", G_CALLBACK (on_types_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::labels", G_CALLBACK (on_labels_changed), self,
                           G_CONNECT_SWAPPED);
  on_labels_changed (self);
}

static void
cpel_event_types_window_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  CpelEventTypesWindow *self = CPEL_EVENT_TYPES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_event_types_window_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  CpelEventTypesWindow *self = CPEL_EVENT_TYPES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_event_types_window_dispose (GObject *object)
{
  CpelEventTypesWindow *self = CPEL_EVENT_TYPES_WINDOW (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->file);
  g_ptr_array_set_size (self->rows, 0);

  G_OBJECT_CLASS (cpel_event_types_window_parent_class)->dispose (object);
}

static void
cpel_event_types_window_finalize (GObject *object)
{
  CpelEventTypesWindow *self = CPEL_EVENT_TYPES_WINDOW (object);

  g_ptr_array_unref (self->rows);

  G_OBJECT_CLASS (cpel_event_types_window_parent_class)->finalize (object);
}

static void
cpel_event_types_window_class_init (CpelEventTypesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_event_types_window_constructed;
  object_class->get_property = cpel_event_types_window_get_property;
  object_class->set_property = cpel_event_types_window_set_property;
  object_class->dispose = cpel_event_types_window_dispose;
  object_class->finalize = cpel_event_types_window_finalize;

  /* The session whose hidden types the window edits (its file's). */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, CPEL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-event-types-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelEventTypesWindow, group);
  gtk_widget_class_bind_template_callback (widget_class, on_show_all_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_hide_all_clicked);

  /* Escape closes (after the search and subpages had it). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cpel_event_types_window_init (CpelEventTypesWindow *self)
{
  /* The rows belong to the group; this only finds them by type. */
  self->rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}
