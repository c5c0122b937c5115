/* SPDX-License-Identifier: Apache-2.0 */
/* test-context-menu.c — context menus opened from the keyboard
 *
 * Shift+F10 (and Menu) on every focusable widget that has a context menu
 * — the timeline, the search entry, the details' selectable values, the
 * entries of the tool windows — in the main window and in tool windows:
 * the menu opens pointing inside its widget; with the window made very
 * small, or with a tool window closing in the same moment, a menu opens
 * inside its widget or none does.  Under the window manager the tests run
 * under (build-aux/with-wm.sh).  Real keys through XTEST on the test's
 * own display connection.
 */
#include "app-test-util.h"

#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "cpel-details.h"
#include "cpel-search-bar.h"
#include "cpel-timeline.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
capture_event (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i * 100;
  ev->track = (guint32) (i % 3);
  ev->code = i % 7 == 0 ? CODE_RECV : CODE_SEND;
  ev->datum = (guint32) i;
}

static void
write_capture (const char *path)
{
  test_write_capture (path, 3, 3000, capture_event, NULL);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-context-menu", write_capture, 1000, 640, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

/* ---- input ------------------------------------------------------------------ */

static void
fake_key (KeySym keysym, gboolean press)
{
  XTestFakeKeyEvent (app_test_xdisplay (), XKeysymToKeycode (app_test_xdisplay (), keysym), press, CurrentTime);
}

/* Shift+F10, or the Menu key, sent (not yet handled). */
static void
send_menu_key (gboolean menu_key)
{
  if (menu_key)
    {
      fake_key (XK_Menu, TRUE);
      fake_key (XK_Menu, FALSE);
      return;
    }
  fake_key (XK_Shift_L, TRUE);
  fake_key (XK_F10, TRUE);
  fake_key (XK_F10, FALSE);
  fake_key (XK_Shift_L, FALSE);
}

/* The keyboard to `window` (as a click on its title would). */
static void
focus_window (GtkWindow *window)
{
  gtk_window_present (window);
  XSetInputFocus (app_test_xdisplay (), app_test_xid (GTK_WIDGET (window)), RevertToParent, CurrentTime);
  app_test_settle ();
}

static void
collect_popovers (GtkWidget *widget, GPtrArray *out)
{
  if (GTK_IS_POPOVER (widget) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (out, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_popovers (c, out);
}

/* The open popovers of `window`. */
static GPtrArray *
open_popovers (GtkWindow *window)
{
  GPtrArray *out = g_ptr_array_new ();

  collect_popovers (GTK_WIDGET (window), out);
  return out;
}

/* Widgets of `window` whose context menu the keyboard opens. */
static void
collect_targets (GtkWidget *widget, GPtrArray *out)
{
  if (gtk_widget_get_mapped (widget) && gtk_widget_get_focusable (widget)
      && (GTK_IS_TEXT (widget) || CPEL_IS_TIMELINE (widget)
          || (GTK_IS_LABEL (widget) && gtk_label_get_selectable (GTK_LABEL (widget)))))
    g_ptr_array_add (out, widget);
  if (GTK_IS_POPOVER (widget))
    return;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_targets (c, out);
}

typedef enum
{
  EXPECT_MENU,      /* a menu opens inside its widget */
  EXPECT_ANY,       /* very small: a menu inside its widget, or none */
} Expect;

/* Shift+F10 (and the Menu key) on each target of `window`; returns how
 * many menus opened. */
static guint
menus_of (GtkWindow *window, Expect expect)
{
  g_autoptr(GPtrArray) targets = g_ptr_array_new_with_free_func (g_object_unref);
  guint opened = 0;

  collect_targets (GTK_WIDGET (window), targets);
  for (guint i = 0; i < targets->len; i++)
    g_object_ref (g_ptr_array_index (targets, i));
  g_assert_cmpuint (targets->len, >, 0);
  for (guint i = 0; i < targets->len * 2; i++)
    {
      GtkWidget *target = g_ptr_array_index (targets, i / 2);
      g_autoptr(GPtrArray) popovers = NULL;

      if (!gtk_widget_get_mapped (target))
        continue;
      focus_window (window);
      gtk_widget_grab_focus (target);
      app_test_settle ();
      send_menu_key (i % 2 == 1);
      app_test_settle ();
      popovers = open_popovers (window);
      g_test_message ("%s: %s → %u menus", G_OBJECT_TYPE_NAME (window), G_OBJECT_TYPE_NAME (target),
                      popovers->len);
      if (expect == EXPECT_MENU)
        g_assert_cmpuint (popovers->len, ==, 1);
      for (guint j = 0; j < popovers->len; j++)
        {
          GtkPopover *popover = g_ptr_array_index (popovers, j);
          GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (popover));
          GdkRectangle rect;

          /* It points inside the widget it belongs to. */
          g_assert_true (parent == target || gtk_widget_is_ancestor (target, parent));
          /* (no rectangle set: it points at the whole widget) */
          if (!gtk_popover_get_pointing_to (popover, &rect))
            rect = (GdkRectangle) { 0, 0, gtk_widget_get_width (parent), gtk_widget_get_height (parent) };
          g_assert_cmpint (rect.x, >=, 0);
          g_assert_cmpint (rect.y, >=, 0);
          g_assert_cmpint (rect.x + rect.width, <=, gtk_widget_get_width (parent));
          g_assert_cmpint (rect.y + rect.height, <=, gtk_widget_get_height (parent));
          gtk_popover_popdown (popover);
          opened++;
        }
      app_test_settle ();
    }
  return opened;
}

/* The main window with a selected event and the search bar open, so
 * that the timeline, the search entry and the details' values are all
 * there. */
static void
prepare_main (CpelWindow *window)
{
  CpelTimeline *timeline = cpel_window_get_timeline (window);

  focus_window (GTK_WINDOW (window));
  app_test_activate_action (GTK_WIDGET (window), "search", NULL);
  app_test_activate_action (GTK_WIDGET (window), "show-details", NULL);
  gtk_widget_grab_focus (GTK_WIDGET (timeline));
  cpel_session_select (cpel_timeline_get_session (timeline), 0, 100, TRUE);
  app_test_settle ();
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), NULL, NULL));
  app_test_wait_drawn (GTK_WIDGET (window));
}

static void
test_main_window (Fixture *f, gconstpointer data)
{
  GtkWindow *window = GTK_WINDOW (f->window);

  if (app == NULL || !app_test_can_send_input ())
    {
      g_test_skip ("no display");
      return;
    }
  prepare_main (f->window);
  g_assert_cmpuint (menus_of (window, EXPECT_MENU), >, 0);
}

static void
test_small_window (Fixture *f, gconstpointer data)
{
  GtkWindow *window = GTK_WINDOW (f->window);

  if (app == NULL || !app_test_can_send_input ())
    {
      g_test_skip ("no display");
      return;
    }
  prepare_main (f->window);
  /* As small as its content lets it be, then smaller still (a window
   * manager may force that). */
  gtk_window_set_default_size (window, 1, 1);
  app_test_settle ();
  menus_of (window, EXPECT_ANY);
  XResizeWindow (app_test_xdisplay (), app_test_xid (GTK_WIDGET (window)), 40, 30);
  app_test_settle ();
  menus_of (window, EXPECT_ANY);
}

/* A tool window by its action, shown and drawn, with the keyboard. */
static GtkWindow *
open_tool (CpelWindow *window, const char *action, GtkWindow *(*get) (CpelWindow *))
{
  GtkWindow *tool = NULL;

  focus_window (GTK_WINDOW (window));
  app_test_activate_action (GTK_WIDGET (window), action, NULL);
  app_test_wait_until ((tool = get (window)) != NULL && gtk_widget_get_mapped (GTK_WIDGET (tool)), 20);
  app_test_wait_drawn (GTK_WIDGET (tool));
  focus_window (tool);
  return tool;
}

static void
test_tool_windows (Fixture *f, gconstpointer data)
{
  GtkWindow *stats;

  if (app == NULL || !app_test_can_send_input ())
    {
      g_test_skip ("no display");
      return;
    }
  stats = open_tool (f->window, "statistics", cpel_window_get_statistics);
  g_assert_cmpuint (menus_of (stats, EXPECT_MENU), >, 0);

  /* The key and the close in one moment: the menu's window is going. */
  for (int i = 0; i < 4; i++)
    {
      g_autoptr(GPtrArray) targets = g_ptr_array_new ();

      collect_targets (GTK_WIDGET (stats), targets);
      g_assert_cmpuint (targets->len, >, 0);
      gtk_widget_grab_focus (g_ptr_array_index (targets, 0));
      send_menu_key (i % 2 == 1);
      XSync (app_test_xdisplay (), False);
      if (i < 2)
        gtk_window_close (stats);
      else
        {
          app_test_drain ();
          gtk_window_close (stats);
        }
      app_test_settle ();
      stats = open_tool (f->window, "statistics", cpel_window_get_statistics);
    }
}

int
main (int argc, char *argv[])
{
  gboolean display = app_test_init (&argc, &argv);

  if (!display || !GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return app_test_run_no_display ("/app/context-menu");

  app = app_test_new_application ();
  g_test_add ("/app/context-menu/main-window", Fixture, NULL, fixture_setup, test_main_window, fixture_teardown);
  g_test_add ("/app/context-menu/small-window", Fixture, NULL, fixture_setup, test_small_window, fixture_teardown);
  g_test_add ("/app/context-menu/tool-windows", Fixture, NULL, fixture_setup, test_tool_windows, fixture_teardown);
  return app_test_run (&app);
}
