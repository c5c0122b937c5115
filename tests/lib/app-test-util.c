/* SPDX-License-Identifier: Apache-2.0 */
/* app-test-util.c — helpers for the viewer's widget tests (see the header) */
#include "app-test-util.h"

#include <glib/gstdio.h>

void
app_test_remove_dir (const char *dir)
{
  cpel_test_remove_tree (dir);
}

void
app_test_remove_tree (const char *dir)
{
  cpel_test_remove_tree (dir);
}

void
app_test_destroy_windows (GApplication *app)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free (windows);
}

gboolean
app_test_init (int *argc, char ***argv)
{
  g_test_init (argc, argv, NULL);
  /* Any warning from GTK or the app (markup errors, bad sizes...) fails. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  (void) cpelview_get_resource ();
  if (!gtk_init_check ())
    return FALSE;
  adw_init ();
  return TRUE;
}

void
app_test_skip_no_display (void)
{
  g_test_skip ("no display: run under xvfb-run (build-aux/test.sh does)");
}

int
app_test_run_no_display (const char *prefix)
{
  g_autofree char *path = g_strconcat (prefix, "/no-display", NULL);

  g_test_add_func (path, app_test_skip_no_display);
  return g_test_run ();
}

int
app_test_run (CpelApplication **app)
{
  int status = g_test_run ();

  g_clear_object (app);
  return status;
}

void
app_test_drain (void)
{
  for (guint i = 0; i < 10000 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

gboolean
app_test_wakeup (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

gboolean
app_test_wait_flag (const gboolean *flag, guint timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
  guint wakeup = g_timeout_add (10, app_test_wakeup, NULL);

  while (!*flag && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wakeup);
  return *flag;
}

void
app_test_on_after_paint (GdkFrameClock *clock, guint *count)
{
  (*count)++;
}

void
app_test_wait_frames (GtkWidget *widget, guint n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  guint count = 0;
  gulong id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (app_test_on_after_paint), &count);
  while (count < n && g_get_monotonic_time () < end)
    {
      gtk_widget_queue_draw (widget);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, id);
  g_assert_cmpuint (count, >=, n);
}

void
app_test_wait_spans (CpelSession *session)
{
  while (cpel_session_get_spans (session) == NULL)
    {
      gboolean notified = FALSE;
      gulong id = g_signal_connect (session, "notify::spans",
                                    G_CALLBACK (app_test_on_notify_flag), &notified);

      g_assert_true (app_test_wait_flag (&notified, 30000));
      g_signal_handler_disconnect (session, id);
    }
}

void
app_test_wait_drawn (GtkWidget *widget)
{
  app_test_wait_frames (widget, 1);
  app_test_drain ();
}

void
app_test_wait_allocated (GtkWidget *widget, int min_width)
{
  gint64 end = g_get_monotonic_time () + 30 * G_TIME_SPAN_SECOND;
  guint wakeup = g_timeout_add (10, app_test_wakeup, NULL);

  while (gtk_widget_get_width (widget) < min_width && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wakeup);
  if (gtk_widget_get_width (widget) < min_width)
    {
      /* say what the widget and its window were, for a wait that gave up */
      GtkNative *native = gtk_widget_get_native (widget);
      GdkSurface *surface = native != NULL ? gtk_native_get_surface (native) : NULL;
      g_autofree char *load = NULL;
      int default_width = 0, default_height = 0;

      if (!g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
        load = g_strdup ("?");
      g_strchomp (load);
      if (GTK_IS_WINDOW (native))
        gtk_window_get_default_size (GTK_WINDOW (native), &default_width, &default_height);
      g_error ("%s is %dx%d after 30 s, not %d px wide (visible %d, mapped %d, "
               "window surface %dx%d%s, default size %dx%d, load %s)",
               G_OBJECT_TYPE_NAME (widget), gtk_widget_get_width (widget),
               gtk_widget_get_height (widget), min_width, gtk_widget_get_visible (widget),
               gtk_widget_get_mapped (widget),
               surface != NULL ? gdk_surface_get_width (surface) : -1,
               surface != NULL ? gdk_surface_get_height (surface) : -1,
               surface != NULL && gdk_surface_get_mapped (surface) ? ", mapped" : "",
               default_width, default_height, load);
    }
  app_test_wait_drawn (widget);
}

/* ---- real input through xdotool ---------------------------------------- */

Display *
app_test_xdisplay (void)
{
  return gdk_x11_display_get_xdisplay (gdk_display_get_default ());
}

gboolean
app_test_can_send_input (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");

  return xdotool != NULL && GDK_IS_X11_DISPLAY (gdk_display_get_default ());
}

gulong
app_test_xid (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);

  return gdk_x11_surface_get_xid (gtk_native_get_surface (native));
}

void
app_test_round_trips (void)
{
  for (guint round = 0; round < 100; round++)
    {
      guint handled = 0;

      XSync (app_test_xdisplay (), False);
      while (handled < 10000 && g_main_context_iteration (NULL, FALSE))
        handled++;
      if (handled == 0)
        break;
    }
}

void
app_test_settle (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  app_test_round_trips ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (gtk_widget_get_mapped (w))
        app_test_wait_frames (w, 1);
    }
  app_test_round_trips ();
}

char *
app_test_xdotool (void)
{
  return g_find_program_in_path ("xdotool");
}

void
app_test_xdo (const char *first, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  int status = 0;
  va_list ap;

  g_ptr_array_add (argv, app_test_xdotool ());
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, g_strdup (a));
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  app_test_settle ();
}

void
app_test_to_root (GtkWidget *widget, double x, double y, int *rx, int *ry)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t p;
  double sx, sy;
  Window child;
  int ox = 0, oy = 0;
  GdkSurface *surface = gtk_native_get_surface (native);
  Display *xdisplay = gdk_x11_display_get_xdisplay (gdk_surface_get_display (surface));

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native),
                                           &GRAPHENE_POINT_INIT ((float) x, (float) y), &p));
  gtk_native_get_surface_transform (native, &sx, &sy);
  XTranslateCoordinates (xdisplay, gdk_x11_surface_get_xid (surface),
                         DefaultRootWindow (xdisplay), 0, 0, &ox, &oy, &child);
  *rx = ox + (int) (p.x + sx);
  *ry = oy + (int) (p.y + sy);
}

void
app_test_pointer_to (GtkWidget *widget, double x, double y)
{
  int rx, ry;
  g_autofree char *sx = NULL;
  g_autofree char *sy = NULL;

  app_test_to_root (widget, x, y, &rx, &ry);
  sx = g_strdup_printf ("%d", rx);
  sy = g_strdup_printf ("%d", ry);
  app_test_xdo ("mousemove", "--sync", sx, sy, NULL);
}

void
app_test_focus (GtkWidget *widget)
{
  g_autofree char *xid = g_strdup_printf ("%lu", app_test_xid (widget));

  app_test_xdo ("windowfocus", "--sync", xid, NULL);
  gtk_widget_grab_focus (widget);
  app_test_wait_drawn (widget);
}

cairo_surface_t *
app_test_widget_image (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  cairo_surface_t *surface;
  cairo_t *cr;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return NULL;   /* nothing drawn yet (a redraw pending) */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  gsk_render_node_unref (node);
  cairo_surface_flush (surface);
  return surface;
}

void
app_test_on_notify_flag (GObject *object, GParamSpec *pspec, gboolean *flag)
{
  *flag = TRUE;
}

GtkWindow *
app_test_find_toplevel (const char *title, guint *count)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *found = NULL;
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_window_get_title (w), title) == 0 && gtk_widget_get_visible (GTK_WIDGET (w)))
        {
          found = w;
          n++;
        }
    }
  if (count != NULL)
    *count = n;
  return found;
}

void
app_test_open_and_wait (CpelWindow *window, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  gboolean done = FALSE;
  gulong id;

  id = g_signal_connect (window, "notify::loading", G_CALLBACK (app_test_on_notify_flag), &done);
  cpel_window_open (window, file, 0);
  while (cpel_window_is_loading (window))
    {
      done = FALSE;
      g_assert_true (app_test_wait_flag (&done, 60000));
    }
  g_signal_handler_disconnect (window, id);
  if (gtk_widget_get_mapped (GTK_WIDGET (window)))
    app_test_wait_drawn (GTK_WIDGET (window));
  else
    app_test_drain ();
}

CpelApplication *
app_test_new_application (void)
{
  CpelApplication *app = cpel_application_new (g_get_monotonic_time ());

  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  return app;
}

void
app_test_fixture_cleanup (CpelApplication *app, char *dir, char *path)
{
  app_test_destroy_windows (G_APPLICATION (app));
  app_test_drain ();
  app_test_remove_dir (dir);
  g_free (dir);
  g_free (path);
}

gboolean
app_test_action_enabled (GtkWidget *window, const char *name)
{
  return cpel_window_get_action_enabled (CPEL_WINDOW (window), name);
}

void
app_test_activate_action (GtkWidget *window, const char *name, GVariant *parameter)
{
  g_autofree char *full = g_strconcat ("win.", name, NULL);

  if (parameter != NULL)
    g_variant_ref_sink (parameter);
  g_assert_true (gtk_widget_activate_action_variant (window, full, parameter));
  if (parameter != NULL)
    g_variant_unref (parameter);
}

/* ---- the shared fixture ------------------------------------------------- */

void
app_test_fixture_setup (AppTestFixture   *f,
                        CpelApplication  *app,
                        const char       *prefix,
                        AppTestWriteFunc  write,
                        int               width,
                        int               height,
                        gboolean          open)
{
  g_autofree char *template = g_strconcat (prefix, "-XXXXXX", NULL);

  f->dir = g_dir_make_tmp (template, NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "capture.cpel", NULL);
  write (f->path);

  f->window = cpel_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), width, height);
  gtk_window_present (GTK_WINDOW (f->window));
  app_test_wait_drawn (GTK_WIDGET (f->window));
  if (open)
    {
      app_test_open_and_wait (f->window, f->path);
      g_assert_nonnull (cpel_window_get_file (f->window));
      app_test_wait_allocated (GTK_WIDGET (cpel_window_get_timeline (f->window)), 400);
    }
}

void
app_test_fixture_teardown (AppTestFixture  *f,
                           CpelApplication *app)
{
  app_test_fixture_cleanup (app, g_steal_pointer (&f->dir), g_steal_pointer (&f->path));
  f->window = NULL;
}

GtkWidget *
app_test_find_widget (GtkWidget *widget,
                      gboolean (*match) (GtkWidget *widget, gconstpointer data),
                      gconstpointer data)
{
  if (match (widget, data))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = app_test_find_widget (c, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_of_type (GtkWidget *widget, gconstpointer type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type));
}

GtkWidget *
app_test_find_descendant (GtkWidget *widget, GType type)
{
  return app_test_find_widget (widget, is_of_type, GSIZE_TO_POINTER (type));
}

gint64
app_test_timeline_span (CpelTimeline *timeline)
{
  gint64 t0, t1;

  cpel_timeline_get_range (timeline, &t0, &t1);
  return t1 - t0;
}

/* ---- the four-track capture -------------------------------------------- */

static const guint32 four_track_ids[] = { 7, 3, 12, 5 };
static const char *four_track_labels[] = { "net 10", "net 2", "disk", "net 1" };
static const guint four_pattern[12] = { 0, 0, 0, 2, 2, 2, 2, 2, 1, 1, 3, 0 };

void
app_test_four_tracks_event (guint64 i, TestEvent *ev)
{
  guint t = four_pattern[i % 12];

  ev->t = i * APP_TEST_FOUR_STEP_NS;
  ev->track = four_track_ids[t];
  /* recv only on ids 3 and 5 */
  ev->code = (t == 1 || t == 3) && i % 2 == 0 ? CODE_RECV : CODE_SEND;
  /* the chased datum only on ids 7 and 12 */
  ev->datum = i % 50 == 0 && (t == 0 || t == 2) ? APP_TEST_FOUR_DATUM : (guint32) (i % 1000);
}

void
app_test_write_four_tracks (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (path, FALSE, 1700000000, &error);
  guint table;

  g_assert_no_error (error);
  table = cpel_writer_add_string_table (w, "FileStrtab");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, CODE_SEND, "send", "%d");
  cpel_writer_add_event_def (w, CODE_RECV, "recv", "len %d");
  cpel_writer_add_event_def (w, CODE_IDLE, "idle", NULL);
  cpel_writer_begin_track_defs (w, table);
  for (guint i = 0; i < G_N_ELEMENTS (four_track_ids); i++)
    cpel_writer_add_track_def (w, four_track_ids[i], four_track_labels[i]);
  cpel_writer_begin_events (w, table, 1000000000u, APP_TEST_FOUR_N_EVENTS);
  for (guint64 i = 0; i < APP_TEST_FOUR_N_EVENTS; i++)
    {
      TestEvent ev;

      app_test_four_tracks_event (i, &ev);
      cpel_writer_add_event (w, ev.t, ev.track, ev.code, ev.datum);
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
}

/* ---- the regular capture ----------------------------------------------- */

void
app_test_regular_event (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i * APP_TEST_REG_STEP;
  ev->track = (guint32) (i % APP_TEST_REG_TRACKS);
  ev->code = i % 7 == 0 ? CODE_RECV : CODE_SEND;
  ev->datum = (guint32) i;
}

void
app_test_write_regular (const char *path)
{
  test_write_capture (path, APP_TEST_REG_TRACKS, APP_TEST_REG_EVENTS, app_test_regular_event, NULL);
}
