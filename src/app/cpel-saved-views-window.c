/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-views-window.c — the Saved Views window
 *
 * A boxed list of the capture's views (CpelSavedViewRow, the current one
 * marked): activating a row shows the view; each row renames (a popover
 * with an entry) and deletes.  The header bar saves the current view and,
 * in its menu, imports, exports, writes and rereads the views file.  Its
 * buttons and rows use its views.* actions, which activate the viewer
 * window's win.* actions of the same name (the window it is transient for).
 */
#include "cpel-saved-views-window.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cpel-saved-view-row.h"

struct _CpelSavedViewsWindow
{
  AdwWindow    parent_instance;

  /* template */
  GtkStack    *stack;
  GtkListBox  *list_box;

  CpelSession *session;
  CpelViews   *views;      /* the session's views, followed */
};

G_DEFINE_FINAL_TYPE (CpelSavedViewsWindow, cpel_saved_views_window, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
describe (CpelSavedViewsWindow *self,
          const CpelSavedView  *view)
{
  CpelFile *file = cpel_session_get_file (self->session);
  guint n_file = file != NULL ? cpel_file_get_n_tracks (file) : 0;
  g_autofree char *t0 = cpel_time_format (view->t0);
  g_autofree char *t1 = cpel_time_format (view->t1);
  guint n_tracks = view->track_order->len > 0 ? view->track_order->len
                   : n_file - MIN (view->hidden_tracks->len, n_file);
  g_autofree char *tracks = g_strdup_printf (ngettext ("%u track", "%u tracks", n_tracks), n_tracks);

  if (view->hidden_codes->len > 0)
    {
      g_autofree char *types = g_strdup_printf (ngettext ("%u event type hidden",
                                                          "%u event types hidden",
                                                          view->hidden_codes->len),
                                                view->hidden_codes->len);

      /* TRANSLATORS: a saved view: "start – end · n tracks · n event types hidden" */
      return g_strdup_printf (_("%s – %s · %s · %s"), t0, t1, tracks, types);
    }
  /* TRANSLATORS: a saved view: "start – end · n tracks" */
  return g_strdup_printf (_("%s – %s · %s"), t0, t1, tracks);
}

static void
refill (CpelSavedViewsWindow *self)
{
  guint n = self->views != NULL ? cpel_views_get_n_views (self->views) : 0;
  int current = self->views != NULL ? cpel_views_get_current (self->views) : -1;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))) != NULL)
    gtk_list_box_remove (self->list_box, child);

  for (guint i = 0; i < n; i++)
    {
      const CpelSavedView *view = cpel_views_get_view (self->views, i);
      g_autofree char *subtitle = describe (self, view);
      CpelSavedViewRow *row = cpel_saved_view_row_new (self->views, view->name);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      cpel_saved_view_row_set_current (row, (int) i == current);
      gtk_list_box_append (self->list_box, GTK_WIDGET (row));
    }
  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "list" : "empty");
  /* (the viewer window enables them alike) */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "views.export-views", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "views.show-view", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "views.delete-view", n > 0);
}

/* views.NAME: the viewer window's win.NAME. */
static void
forward_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (widget));
  g_autofree char *name = NULL;

  g_assert (g_str_has_prefix (action_name, "views."));
  if (parent == NULL)
    return;
  name = g_strconcat ("win.", action_name + strlen ("views."), NULL);
  gtk_widget_activate_action_variant (GTK_WIDGET (parent), name, parameter);
}

CpelSavedViewsWindow *
cpel_saved_views_window_new (GtkWindow   *parent,
                             CpelSession *session)
{
  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (CPEL_IS_SESSION (session), NULL);

  return g_object_new (CPEL_TYPE_SAVED_VIEWS_WINDOW,
                       "transient-for", parent,
                       "session", session,
                       NULL);
}

CpelSession *
cpel_saved_views_window_get_session (CpelSavedViewsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SAVED_VIEWS_WINDOW (self), NULL);
  return self->session;
}

CpelViews *
cpel_saved_views_window_get_views (CpelSavedViewsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SAVED_VIEWS_WINDOW (self), NULL);
  return self->views;
}

/* The session's views changed (another capture's, or none): list those. */
static void
on_views_notify (CpelSavedViewsWindow *self)
{
  CpelViews *views = cpel_session_get_views (self->session);

  if (views != self->views)
    {
      if (self->views != NULL)
        g_signal_handlers_disconnect_by_data (self->views, self);
      g_set_object (&self->views, views);
      if (views != NULL)
        {
          g_signal_connect_swapped (views, "changed", G_CALLBACK (refill), self);
          g_signal_connect_swapped (views, "notify::current", G_CALLBACK (refill), self);
        }
    }
  refill (self);
}

static void
cpel_saved_views_window_constructed (GObject *object)
{
  CpelSavedViewsWindow *self = CPEL_SAVED_VIEWS_WINDOW (object);

  G_OBJECT_CLASS (cpel_saved_views_window_parent_class)->constructed (object);

  g_assert (CPEL_IS_SESSION (self->session));
  g_signal_connect_object (self->session, "notify::views", G_CALLBACK (on_views_notify), self,
                           G_CONNECT_SWAPPED);
  on_views_notify (self);
}

static void
cpel_saved_views_window_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  CpelSavedViewsWindow *self = CPEL_SAVED_VIEWS_WINDOW (object);

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
cpel_saved_views_window_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  CpelSavedViewsWindow *self = CPEL_SAVED_VIEWS_WINDOW (object);

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
cpel_saved_views_window_dispose (GObject *object)
{
  CpelSavedViewsWindow *self = CPEL_SAVED_VIEWS_WINDOW (object);

  if (self->views != NULL)
    g_signal_handlers_disconnect_by_data (self->views, self);
  g_clear_object (&self->views);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (cpel_saved_views_window_parent_class)->dispose (object);
}

static void
cpel_saved_views_window_class_init (CpelSavedViewsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_saved_views_window_constructed;
  object_class->get_property = cpel_saved_views_window_get_property;
  object_class->set_property = cpel_saved_views_window_set_property;
  object_class->dispose = cpel_saved_views_window_dispose;

  /* The session whose saved views are listed (the rows follow their
   * changes; its file tells how many tracks a view shows). */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, CPEL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-saved-views-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelSavedViewsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, CpelSavedViewsWindow, list_box);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  gtk_widget_class_install_action (widget_class, "views.save-view", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "views.show-view", "s", forward_action);
  gtk_widget_class_install_action (widget_class, "views.delete-view", "s", forward_action);
  gtk_widget_class_install_action (widget_class, "views.write-views", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "views.save-views", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "views.load-views", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "views.import-views", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "views.export-views", NULL, forward_action);
}

static void
cpel_saved_views_window_init (CpelSavedViewsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
