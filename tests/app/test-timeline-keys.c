/* SPDX-License-Identifier: Apache-2.0 */
/* test-timeline-keys.c — the timeline's g2 features: track sort orders, raise / sink
 * with Shift/Ctrl+click and drag to reorder, its context menus, colour and
 * summary modes (on screen, exported, printed), and the whole g2 key set
 * through real key presses (xdotool) */
#include "app-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cpel-application.h"
#include "cpel-print.h"
#include "cpel-saved-view-row.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-timeline-keys", app_test_write_four_tracks,
                          1000, 640, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

#define SKIP_WITHOUT_DISPLAY() \
  G_STMT_START { if (app == NULL) { app_test_skip_no_display (); return; } } G_STMT_END
#define SKIP_WITHOUT_INPUT() \
  G_STMT_START { if (!app_test_can_send_input ()) { g_test_skip ("xdotool or X11 missing"); return; } } G_STMT_END

/* The timeline's rows as track ids, "7,12". */
static char *
row_ids (CpelWindow *window)
{
  const CpelView *view = cpel_timeline_get_view (cpel_window_get_timeline (window));
  CpelFile *file = cpel_window_get_file (window);
  GString *s = g_string_new (NULL);
  guint n = cpel_view_get_n_rows (view);

  for (guint r = 0; r < n; r++)
    g_string_append_printf (s, "%s%u", r > 0 ? "," : "",
                            cpel_file_get_track_id (file, cpel_view_get_row_slot (view, r)));
  return g_string_free (s, FALSE);
}

/* Select the first event of track `id` matching code (or datum). */
static void
select_first (CpelWindow *window, guint32 id, gboolean by_code, guint32 value)
{
  CpelFile *file = cpel_window_get_file (window);
  guint slot;

  g_assert_true (cpel_file_lookup_track (file, id, &slot));
  for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
    if ((by_code ? cpel_file_get_track_event_code (file, slot, i)
                 : cpel_file_get_track_event_datum (file, slot, i)) == value)
      {
        cpel_session_select (cpel_timeline_get_session (cpel_window_get_timeline (window)),
                             slot, i, FALSE);
        return;
      }
  g_assert_not_reached ();
}

static guint
slot_of (CpelWindow *window, guint32 id)
{
  guint slot;

  g_assert_true (cpel_file_lookup_track (cpel_window_get_file (window), id, &slot));
  return slot;
}

static void
wait_chase (CpelWindow *window)
{
  app_test_wait_until (!cpel_window_is_chase_busy (window), 30);
  app_test_drain ();
}

static void
activate (CpelWindow *window, const char *action)
{
  g_assert_true (app_test_action_enabled (GTK_WIDGET (window), action));
  app_test_activate_action (GTK_WIDGET (window), action, NULL);
}

static void
test_sort (Fixture *f, gconstpointer data)
{
  g_autofree char *rows = NULL;
  CpelTrackOrder *order;

  SKIP_WITHOUT_DISPLAY ();
  order = cpel_session_get_track_order (
    cpel_timeline_get_session (cpel_window_get_timeline (f->window)));

#define SORT_IS(key, ids) G_STMT_START { \
    app_test_activate_action (GTK_WIDGET (f->window), "sort-tracks", g_variant_new_string (key)); \
    g_clear_pointer (&rows, g_free); rows = row_ids (f->window); \
    g_assert_cmpstr (rows, ==, ids); } G_STMT_END

  SORT_IS ("name", "12,5,3,7");    /* disk, net 1, net 2, net 10 */
  SORT_IS ("id", "3,5,7,12");
  SORT_IS ("count", "12,7,3,5");   /* 250, 200, 100, 50 */
  /* Hidden and pinned tracks stay so. */
  cpel_track_order_set_hidden (order, slot_of (f->window, 3), TRUE);
  cpel_track_order_set_pinned (order, slot_of (f->window, 5), TRUE);
  SORT_IS ("name", "5,12,7");
  SORT_IS ("default", "5,7,12");
  cpel_track_order_reset (order);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "3,5,7,12");
  /* Raise / sink. */
  cpel_track_order_raise (order, slot_of (f->window, 7), TRUE);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "7,3,5,12");
  cpel_track_order_raise (order, slot_of (f->window, 7), FALSE);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "3,5,12,7");
  /* Place before another track, and at the end. */
  cpel_track_order_place (order, slot_of (f->window, 7), slot_of (f->window, 3));
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "7,3,5,12");
  cpel_track_order_place (order, slot_of (f->window, 3), G_MAXUINT);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "7,5,12,3");
#undef SORT_IS
}

/* Centre of row r's label (widget coordinates). */
static void
label_point (CpelTimeline *timeline, guint r, double *x, double *y)
{
  const CpelView *view = cpel_timeline_get_view (timeline);

  *x = 40;
  *y = cpel_view_get_row_y (view, r) + view->row_height / 2;
}

static void
test_label_input (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  g_autofree char *rows = NULL;
  double x, y, x2, y2;
  int rx, ry, rx2, ry2;

  SKIP_WITHOUT_DISPLAY ();
  SKIP_WITHOUT_INPUT ();
  timeline = cpel_window_get_timeline (f->window);
  app_test_focus (GTK_WIDGET (timeline));

  /* g2: Shift+click raises the track to the top, Ctrl+click sinks it. */
  label_point (timeline, 2, &x, &y);          /* id 7 */
  app_test_pointer_to (GTK_WIDGET (timeline), x, y);
  app_test_xdo ("keydown", "shift", "click", "1", "keyup", "shift", NULL);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "7,3,5,12");
  label_point (timeline, 1, &x, &y);          /* id 3 */
  app_test_pointer_to (GTK_WIDGET (timeline), x, y);
  app_test_xdo ("keydown", "ctrl", "click", "1", "keyup", "ctrl", NULL);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "7,5,12,3");

  /* Drag the last label above the second row. */
  label_point (timeline, 3, &x, &y);
  label_point (timeline, 1, &x2, &y2);
  y2 -= cpel_timeline_get_view (timeline)->row_height / 2 - 2;   /* the boundary 0|1 */
  app_test_to_root (GTK_WIDGET (timeline), x, y, &rx, &ry);
  app_test_to_root (GTK_WIDGET (timeline), x2, y2, &rx2, &ry2);
  {
    g_autofree char *sx = g_strdup_printf ("%d", rx);
    g_autofree char *sy = g_strdup_printf ("%d", ry);
    g_autofree char *my = g_strdup_printf ("%d", (ry + ry2) / 2);
    g_autofree char *ey = g_strdup_printf ("%d", ry2);

    app_test_xdo ("mousemove", "--sync", sx, sy, "mousedown", "1",
                  "mousemove", "--sync", sx, my, "mousemove", "--sync", sx, ey,
                  "mouseup", "1", NULL);
  }
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "7,3,5,12");
  /* A plain click on a label changes nothing. */
  label_point (timeline, 0, &x, &y);
  app_test_pointer_to (GTK_WIDGET (timeline), x, y);
  app_test_xdo ("click", "1", NULL);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "7,3,5,12");
}

static void
assert_shows (CpelWindow *window, gint64 t0, gint64 t1, const char *ids, gboolean recv_hidden,
              guint32 sel_track)
{
  CpelTimeline *timeline = cpel_window_get_timeline (window);
  CpelFile *file = cpel_window_get_file (window);
  const guint8 *hidden = cpel_session_get_hidden_types (cpel_timeline_get_session (timeline));
  g_autofree char *rows = row_ids (window);
  gint64 a, b;
  guint type, slot;

  cpel_timeline_get_range (timeline, &a, &b);
  g_assert_cmpint (a, ==, t0);
  g_assert_cmpint (b, ==, t1);
  g_assert_cmpstr (rows, ==, ids);
  g_assert_true (cpel_file_lookup_type (file, CODE_RECV, &type));
  g_assert_cmpint (hidden != NULL && hidden[type], ==, recv_hidden);
  if (sel_track == G_MAXUINT32)
    g_assert_false (cpel_session_get_selection (cpel_timeline_get_session (timeline), NULL, NULL));
  else
    {
      g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                                 &slot, NULL));
      g_assert_cmpuint (cpel_file_get_track_id (file, slot), ==, sel_track);
    }
}

/* View A: [1000, 9000), tracks 12 and 7, recv hidden, a send of 7 selected.
 * View B: [20000, 30000), every track, nothing hidden or selected. */
static void
make_views (CpelWindow *window)
{
  CpelTimeline *timeline = cpel_window_get_timeline (window);
  CpelTrackOrder *order = cpel_session_get_track_order (cpel_timeline_get_session (timeline));
  CpelFile *file = cpel_window_get_file (window);
  g_autofree guint8 *hidden = g_malloc0 (cpel_file_get_n_types (file));
  g_autoptr(GError) error = NULL;
  guint type;
  const guint rows[] = { slot_of (window, 12), slot_of (window, 7) };

  cpel_timeline_set_range (timeline, 1000, 9000, FALSE);
  cpel_track_order_set_rows (order, rows, 2);
  g_assert_true (cpel_file_lookup_type (file, CODE_RECV, &type));
  hidden[type] = 1;
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
  select_first (window, 7, TRUE, CODE_SEND);
  g_assert_true (cpel_window_save_view (window, "A", &error));
  g_assert_no_error (error);

  cpel_timeline_set_range (timeline, 20000, 30000, FALSE);
  cpel_track_order_reset (order);
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), NULL);
  cpel_session_unselect (cpel_timeline_get_session (timeline));
  g_assert_true (cpel_window_save_view (window, "B", &error));
  g_assert_no_error (error);
}

/* The timeline's context menus come from the window: the selected event's
 * offers the chase, a track's offers Sort Tracks; their win.* actions work
 * from the menu (a popover of the timeline). */
static GMenuModel *
menu_link (GMenuModel *menu, int item, const char *link)
{
  return g_menu_model_get_item_link (menu, item, link);
}

static char *
menu_action (GMenuModel *menu, int item)
{
  char *action = NULL;

  g_menu_model_get_item_attribute (menu, item, G_MENU_ATTRIBUTE_ACTION, "s", &action);
  return action;
}

static void
test_context_menus (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  GtkWidget *popover;
  GMenuModel *menu;
  g_autoptr(GMenuModel) section = NULL;
  g_autoptr(GMenuModel) sort = NULL;
  g_autofree char *action = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *by_name = NULL;
  double x, y;
  int n;

  SKIP_WITHOUT_DISPLAY ();
  SKIP_WITHOUT_INPUT ();
  timeline = cpel_window_get_timeline (f->window);
  app_test_focus (GTK_WIDGET (timeline));

  /* The Menu key on the selected event: Chase Event … No Chase. */
  select_first (f->window, 3, TRUE, CODE_RECV);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.context-menu", NULL));
  popover = app_test_find_descendant (GTK_WIDGET (timeline), GTK_TYPE_POPOVER_MENU);
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (popover));
  menu = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
  section = menu_link (menu, 0, G_MENU_LINK_SECTION);
  action = menu_action (section, 0);
  g_assert_cmpstr (action, ==, "win.chase-event");
  g_assert_true (gtk_widget_activate_action (popover, "win.chase-event", NULL));
  wait_chase (f->window);
  g_assert_true (cpel_window_is_chasing (f->window));
  gtk_popover_popdown (GTK_POPOVER (popover));
  activate (f->window, "no-chase");

  /* A right click on a track's label: the timeline's items, then Sort
   * Tracks and Show All Tracks. */
  app_test_activate_action (GTK_WIDGET (f->window), "sort-tracks", g_variant_new_string ("name"));
  by_name = row_ids (f->window);
  app_test_activate_action (GTK_WIDGET (f->window), "sort-tracks", g_variant_new_string ("default"));
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, !=, by_name);
  g_clear_pointer (&rows, g_free);
  label_point (timeline, 0, &x, &y);
  app_test_pointer_to (GTK_WIDGET (timeline), x, y);
  app_test_xdo ("click", "3", NULL);
  app_test_wait_until (gtk_widget_get_visible (popover), 30);
  menu = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
  g_clear_object (&section);
  section = menu_link (menu, 1, G_MENU_LINK_SECTION);
  n = g_menu_model_get_n_items (section);
  g_assert_cmpint (n, ==, 2);
  g_clear_pointer (&action, g_free);
  action = menu_action (section, 1);
  g_assert_cmpstr (action, ==, "timeline.tracks-reset");
  sort = menu_link (section, 0, G_MENU_LINK_SUBMENU);
  g_assert_nonnull (sort);
  g_assert_cmpint (g_menu_model_get_n_items (sort), ==, 4);
  g_clear_pointer (&action, g_free);
  action = menu_action (sort, 0);
  g_assert_cmpstr (action, ==, "win.sort-tracks");
  g_assert_true (gtk_widget_activate_action (popover, "win.sort-tracks", "s", "name"));
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, by_name);
  gtk_popover_popdown (GTK_POPOVER (popover));
}

static guint32
pixel_at (cairo_surface_t *surface, int x, int y)
{
  unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  return *(guint32 *) (data + y * stride + x * 4) & 0xffffff;
}

static guint32
rgb_of (const CpelRGBA *c)
{
  return ((guint32) lround (c->r * 255) << 16) | ((guint32) lround (c->g * 255) << 8)
         | (guint32) lround (c->b * 255);
}

/* Pixels (RGB) that differ between two images of the same size. */
static guint
count_differences (cairo_surface_t *a, cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  guint n = 0;

  g_assert_cmpint (cairo_image_surface_get_width (b), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (b), ==, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += pixel_at (a, x, y) != pixel_at (b, x, y);
  return n;
}

static cairo_surface_t *
print_page (CpelTimeline *timeline)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 842, 595);
  cairo_t *cr = cairo_create (surface);

  cpel_print_draw_page (cr, 842, 595, cpel_timeline_get_view (timeline),
                        gtk_widget_get_width (GTK_WIDGET (timeline)),
                        gtk_widget_get_height (GTK_WIDGET (timeline)), NULL);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* The timeline's colour and summary modes are in what it draws, in Export
 * View (the same pixels as on screen) and in the printed page. */
static void
test_modes_output (Fixture *f, gconstpointer data)
{
  static const struct { CpelColorMode mode; gboolean summary; const char *name; } modes[] = {
    { CPEL_COLOR_BY_CODE, FALSE, "code.png" },
    { CPEL_COLOR_BY_TRACK, FALSE, "track.png" },
    { CPEL_COLOR_BY_CODE, TRUE, "summary.png" },
  };
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  const CpelView *view;
  cairo_surface_t *screen[G_N_ELEMENTS (modes)], *page[G_N_ELEMENTS (modes)];
  int width;

  SKIP_WITHOUT_DISPLAY ();
  /* The pointer away from the timeline: no cursor line on screen (exports
   * leave it out). */
  if (app_test_can_send_input ())
    app_test_pointer_to (GTK_WIDGET (f->window), 2, 2);
  /* 20 events per track across the timeline: ticks far apart, labels fit. */
  cpel_timeline_set_range (timeline, 0, 6000, FALSE);
  app_test_wait_drawn (GTK_WIDGET (timeline));
  view = cpel_timeline_get_view (timeline);
  g_assert_false (view->has_cursor);
  width = gtk_widget_get_width (GTK_WIDGET (timeline));

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree char *path = g_build_filename (f->dir, modes[i].name, NULL);
      g_autoptr(GError) error = NULL;
      cairo_surface_t *exported;

      cpel_session_set_color_mode (cpel_timeline_get_session (timeline), modes[i].mode);
      cpel_session_set_summary (cpel_timeline_get_session (timeline), modes[i].summary);
      app_test_wait_drawn (GTK_WIDGET (timeline));
      screen[i] = app_test_widget_image (GTK_WIDGET (timeline));
      g_assert_nonnull (screen[i]);
      g_assert_true (cpel_window_export (f->window, path, 1, FALSE, &error));
      g_assert_no_error (error);
      exported = cairo_image_surface_create_from_png (path);
      g_assert_cmpint (cairo_surface_status (exported), ==, CAIRO_STATUS_SUCCESS);
      if (g_getenv ("CPEL_TEST_SAVE_PNG") != NULL)
        {
          g_autofree char *shot = g_strdup_printf ("/tmp/modes-screen-%s", modes[i].name);
          cairo_surface_write_to_png (screen[i], shot);
        }
      /* Exported as shown. */
      g_assert_cmpuint (count_differences (exported, screen[i]), ==, 0);
      cairo_surface_destroy (exported);
      page[i] = print_page (timeline);
    }

  /* Row 0 (id 3): events 8, 9, 20, 21, ... at t = 800, 900, 2000, 2100. */
  {
    double x_tick = cpel_view_time_to_x (view, width, 900);
    double x_next = cpel_view_time_to_x (view, width, 2000);
    int y = (int) (cpel_view_get_row_y (view, 0) + view->row_height / 2);
    int y_empty = (int) cpel_view_get_row_y (view, cpel_view_get_n_rows (view)) + 20;
    int tick_x = (int) lround (x_tick);   /* snapped to whole pixels */
    CpelRGBA track_color;
    gboolean label_drawn = FALSE;

    g_assert_cmpfloat (x_next - x_tick, >, 60);
    g_assert_cmpint (y_empty, <, gtk_widget_get_height (GTK_WIDGET (timeline)));
    /* By code: a label box right of the tick (more than background and
     * grid). */
    for (int x = (int) x_tick + 10; x < (int) x_next - 4; x++)
      if (pixel_at (screen[0], x, y) != pixel_at (screen[0], x, y_empty))
        label_drawn = TRUE;
    g_assert_true (label_drawn);
    /* By track: the tick in the track's colour. */
    cpel_palette_get_track_color (view->palette, cpel_view_get_row_slot (view, 0), &track_color);
    g_assert_cmphex (pixel_at (screen[1], tick_x, y), ==, rgb_of (&track_color));
    g_assert_cmphex (pixel_at (screen[0], tick_x, y), !=, rgb_of (&track_color));
    /* Summary: nothing right of the tick but the row (background and grid);
     * the tick stands on the row's baseline, shorter. */
    for (int x = (int) x_tick + 10; x < (int) x_next - 4; x++)
      g_assert_cmphex (pixel_at (screen[2], x, y), ==, pixel_at (screen[2], x, y_empty));
    g_assert_cmphex (pixel_at (screen[2], tick_x, y + 8), ==, pixel_at (screen[0], tick_x, y + 8));
    g_assert_cmphex (pixel_at (screen[2], tick_x, y - 6), !=, pixel_at (screen[0], tick_x, y - 6));
  }
  /* Rows of other tracks take other colours (slots 0 and 2 differ). */
  {
    CpelRGBA a, b;

    cpel_palette_get_track_color (view->palette, 0, &a);
    cpel_palette_get_track_color (view->palette, 2, &b);
    g_assert_cmphex (rgb_of (&a), !=, rgb_of (&b));
  }
  /* The modes differ on screen, and so do the printed pages. */
  g_assert_cmpuint (count_differences (screen[0], screen[1]), >, 100);
  g_assert_cmpuint (count_differences (screen[0], screen[2]), >, 100);
  g_assert_cmpuint (count_differences (page[0], page[1]), >, 100);
  g_assert_cmpuint (count_differences (page[0], page[2]), >, 100);
  g_assert_cmpuint (count_differences (page[1], page[2]), >, 100);
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      cairo_surface_destroy (screen[i]);
      cairo_surface_destroy (page[i]);
    }
  cpel_session_set_color_mode (cpel_timeline_get_session (timeline), CPEL_COLOR_BY_CODE);
  cpel_session_set_summary (cpel_timeline_get_session (timeline), FALSE);
}

/* The top of row r's event area, as device rows of the widget image: the
 * strip from 3 to 8 px below the row's top. */
static guint
row_top_differences (cairo_surface_t *a, cairo_surface_t *b, const CpelView *view, guint r)
{
  int w = cairo_image_surface_get_width (a);
  int y0 = (int) ceil (cpel_view_get_row_y (view, r)) + 3;
  guint n = 0;

  for (int y = y0; y < y0 + 5; y++)
    for (int x = (int) view->label_width + 1; x < w; x++)
      n += pixel_at (a, x, y) != pixel_at (b, x, y);
  return n;
}

/* Summary mode (win.summary-mode, g2's `e`) looks different on screen at
 * every zoom — also over the whole capture, where every row is drawn as
 * density and there are no labels it could leave out: each row becomes a
 * histogram on a baseline (bars as tall as the column's count), and the
 * status line says "Summary". */
static void
test_summary_visible (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  const CpelView *view = cpel_timeline_get_view (timeline);
  static const gint64 spans[] = { 0, 6000, 400 };   /* 0: the whole capture */

  SKIP_WITHOUT_DISPLAY ();
  /* Narrow enough that the busier tracks are density over the whole
   * capture (200 and 250 events in under 600 / 3 columns). */
  gtk_window_set_default_size (GTK_WINDOW (f->window), 720, 640);
  app_test_wait_until (gtk_widget_get_width (GTK_WIDGET (f->window)) <= 720, 30);
  if (app_test_can_send_input ())
    app_test_pointer_to (GTK_WIDGET (f->window), 2, 2);
  for (guint z = 0; z < G_N_ELEMENTS (spans); z++)
    {
      cairo_surface_t *plain, *summary;
      guint n_density = 0;

      if (spans[z] == 0)
        cpel_session_fit (cpel_timeline_get_session (timeline));
      else
        cpel_timeline_set_range (timeline, 1000, 1000 + spans[z], FALSE);
      app_test_wait_drawn (GTK_WIDGET (timeline));
      g_assert_false (cpel_session_get_summary (cpel_timeline_get_session (timeline)));
      plain = app_test_widget_image (GTK_WIDGET (timeline));

      app_test_activate_action (GTK_WIDGET (f->window), "summary-mode", NULL);
      g_assert_true (cpel_session_get_summary (cpel_timeline_get_session (timeline)));
      g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "Summary");
      app_test_wait_drawn (GTK_WIDGET (timeline));
      summary = app_test_widget_image (GTK_WIDGET (timeline));
      g_assert_nonnull (plain);
      g_assert_nonnull (summary);
      if (g_getenv ("CPEL_TEST_SAVE_PNG") != NULL)
        {
          g_autofree char *a = g_strdup_printf ("/tmp/summary-visible-%u-plain.png", z);
          g_autofree char *b = g_strdup_printf ("/tmp/summary-visible-%u-summary.png", z);

          cairo_surface_write_to_png (plain, a);
          cairo_surface_write_to_png (summary, b);
        }

      /* Not only where labels were: the top of every row that shows an
       * event differs (the bars stand on the baseline; a one-event bar is
       * about half the row), and the baselines run along each row. */
      g_assert_cmpuint (count_differences (plain, summary), >,
                        cpel_view_get_n_rows (view) * (gtk_widget_get_width (GTK_WIDGET (timeline))
                                                        - (int) view->label_width) / 2);
      for (guint r = 0; r < cpel_view_get_n_rows (view); r++)
        {
          guint slot = cpel_view_get_row_slot (view, r);
          guint64 n_shown = cpel_file_track_lower_bound (cpel_window_get_file (f->window), slot, view->t1)
                            - cpel_file_track_lower_bound (cpel_window_get_file (f->window), slot, view->t0);
          double columns = (gtk_widget_get_width (GTK_WIDGET (timeline)) - view->label_width)
                           * gtk_widget_get_scale_factor (GTK_WIDGET (timeline));

          n_density += n_shown * CPEL_RENDER_EVENT_SPACING > columns;
          if (n_shown > 0)
            g_assert_cmpuint (row_top_differences (plain, summary, view, r), >, 0);
        }
      /* The whole capture is drawn as density (where the modes used to
       * look the same). */
      if (spans[z] == 0)
        g_assert_cmpuint (n_density, >=, 2);

      app_test_activate_action (GTK_WIDGET (f->window), "summary-mode", NULL);
      g_assert_false (cpel_session_get_summary (cpel_timeline_get_session (timeline)));
      g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "");
      cairo_surface_destroy (plain);
      cairo_surface_destroy (summary);
    }
}

/* The state of a property action: the window's property of that name. */
static gboolean
bool_state (CpelWindow *window, const char *action)
{
  gboolean state = FALSE;

  g_object_get (window, action, &state, NULL);
  return state;
}

static char *
string_state (CpelWindow *window, const char *action)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (window), action);
  g_auto(GValue) value = G_VALUE_INIT;
  g_autoptr(GEnumClass) enum_class = g_type_class_ref (pspec->value_type);

  g_value_init (&value, pspec->value_type);
  g_object_get_property (G_OBJECT (window), action, &value);
  return g_strdup (g_enum_get_value (enum_class, g_value_get_enum (&value))->value_nick);
}

static void
test_keys (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  GtkAdjustment *vadj;
  g_autofree char *rows = NULL;
  g_autofree char *mode = NULL;
  g_autofree char *sidecar = NULL;
  gint64 s0, t0, t1;
  double rh;

  SKIP_WITHOUT_DISPLAY ();
  SKIP_WITHOUT_INPUT ();
  timeline = cpel_window_get_timeline (f->window);
  vadj = cpel_timeline_get_vadjustment (timeline);
  app_test_pointer_to (GTK_WIDGET (timeline), 5, 5);
  app_test_focus (GTK_WIDGET (timeline));

  /* w / s zoom, a / d pan. */
  s0 = app_test_timeline_span (timeline);
  app_test_xdo ("key", "w", NULL);
  g_assert_cmpint (ABS (app_test_timeline_span (timeline) - s0 / 2), <=, 1);
  app_test_xdo ("key", "d", NULL);
  cpel_timeline_get_range (timeline, &t0, &t1);
  g_assert_cmpint (t0, >, 0);
  app_test_xdo ("key", "a", NULL);
  app_test_xdo ("key", "s", NULL);
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);

  /* t / g: taller / shorter rows (g2: fewer / more tracks on screen). */
  rh = cpel_timeline_get_row_height (timeline);
  app_test_xdo ("key", "t", NULL);
  g_assert_cmpfloat (cpel_timeline_get_row_height (timeline), ==, rh + CPEL_TIMELINE_ROW_HEIGHT_STEP);
  g_assert_cmpfloat (cpel_timeline_get_view (timeline)->row_height, ==, rh + CPEL_TIMELINE_ROW_HEIGHT_STEP);
  app_test_xdo ("key", "g", "g", NULL);
  g_assert_cmpfloat (cpel_timeline_get_row_height (timeline), ==, rh - CPEL_TIMELINE_ROW_HEIGHT_STEP);
  for (int i = 0; i < 20; i++)
    app_test_xdo ("key", "g", NULL);
  g_assert_cmpfloat (cpel_timeline_get_row_height (timeline), ==, CPEL_TIMELINE_MIN_ROW_HEIGHT);
  cpel_timeline_set_row_height (timeline, rh);

  /* r / f scroll the tracks (taller rows so that there is something to scroll). */
  cpel_timeline_set_row_height (timeline, CPEL_TIMELINE_MAX_ROW_HEIGHT);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 300);
  app_test_wait_until (gtk_widget_get_height (GTK_WIDGET (f->window)) <= 300
                       && gtk_adjustment_get_upper (vadj) > gtk_adjustment_get_page_size (vadj), 30);
  app_test_wait_drawn (GTK_WIDGET (timeline));
  gtk_adjustment_set_value (vadj, 0);
  app_test_xdo ("key", "f", NULL);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), >, 0);
  app_test_xdo ("key", "r", NULL);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), ==, 0);
  cpel_timeline_set_row_height (timeline, rh);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 640);
  app_test_wait_until (gtk_widget_get_height (GTK_WIDGET (f->window)) > 300, 30);
  app_test_wait_drawn (GTK_WIDGET (timeline));

  /* e: summary mode; c: colour by track and back. */
  g_assert_false (cpel_session_get_summary (cpel_timeline_get_session (timeline)));
  g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "");
  app_test_xdo ("key", "e", NULL);
  g_assert_true (cpel_session_get_summary (cpel_timeline_get_session (timeline)));
  g_assert_true (cpel_timeline_get_view (timeline)->summary);
  g_assert_true (bool_state (f->window, "summary-mode"));
  /* The status line shows the modes that are on. */
  g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "Summary");
  app_test_xdo ("key", "e", NULL);
  g_assert_false (cpel_session_get_summary (cpel_timeline_get_session (timeline)));
  g_assert_false (cpel_timeline_get_view (timeline)->summary);
  g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "");
  app_test_xdo ("key", "c", NULL);
  g_assert_cmpint (cpel_session_get_color_mode (cpel_timeline_get_session (timeline)),
                   ==, CPEL_COLOR_BY_TRACK);
  g_assert_cmpint (cpel_timeline_get_view (timeline)->color_mode, ==, CPEL_COLOR_BY_TRACK);
  g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "Colored by track");
  mode = string_state (f->window, "color-mode");
  g_assert_cmpstr (mode, ==, "track");
  app_test_xdo ("key", "c", NULL);
  g_assert_cmpint (cpel_session_get_color_mode (cpel_timeline_get_session (timeline)),
                   ==, CPEL_COLOR_BY_CODE);
  /* The menu's radio items set it too. */
  app_test_activate_action (GTK_WIDGET (f->window), "color-mode", g_variant_new_string ("none"));
  g_assert_cmpint (cpel_session_get_color_mode (cpel_timeline_get_session (timeline)),
                   ==, CPEL_COLOR_NONE);
  g_assert_false (cpel_timeline_get_view (timeline)->color_by_type);
  g_assert_cmpint (cpel_timeline_get_view (timeline)->color_mode, ==, CPEL_COLOR_NONE);
  app_test_xdo ("key", "c", NULL);
  g_assert_cmpint (cpel_session_get_color_mode (cpel_timeline_get_session (timeline)),
                   ==, CPEL_COLOR_BY_CODE);

  /* x / z with saved views; p writes them, l rereads them. */
  make_views (f->window);
  cpel_views_set_current (cpel_window_get_views (f->window), -1);
  app_test_focus (GTK_WIDGET (timeline));
  app_test_xdo ("key", "x", NULL);
  assert_shows (f->window, 1000, 9000, "12,7", TRUE, 7);
  app_test_xdo ("key", "x", NULL);
  assert_shows (f->window, 20000, 30000, "3,5,7,12", FALSE, G_MAXUINT32);
  app_test_xdo ("key", "z", NULL);
  assert_shows (f->window, 1000, 9000, "12,7", TRUE, 7);

  sidecar = g_strconcat (f->path, CPEL_VIEWS_SUFFIX, NULL);
  g_assert_cmpint (g_unlink (sidecar), ==, 0);
  app_test_xdo ("key", "p", NULL);
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_IS_REGULAR));
  {
    /* Someone else adds a view to the file; l reads it. */
    g_autoptr(CpelViews) other = cpel_views_new (f->path);
    g_autoptr(CpelSavedView) c = cpel_saved_view_new ("C");

    g_assert_true (cpel_views_load (other, NULL));
    c->t0 = 5000;
    c->t1 = 7000;
    cpel_views_put (other, c);
    g_assert_true (cpel_views_save (other, NULL));
  }
  g_assert_cmpuint (cpel_views_get_n_views (cpel_window_get_views (f->window)), ==, 2);
  app_test_xdo ("key", "l", NULL);
  g_assert_cmpuint (cpel_views_get_n_views (cpel_window_get_views (f->window)), ==, 3);

  /* h / Shift+H / Ctrl+H chase, u: no chase. */
  cpel_track_order_reset (cpel_session_get_track_order (cpel_timeline_get_session (timeline)));
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), NULL);
  cpel_session_fit (cpel_timeline_get_session (timeline));
  select_first (f->window, 3, TRUE, CODE_RECV);
  app_test_focus (GTK_WIDGET (timeline));
  app_test_xdo ("key", "h", NULL);
  wait_chase (f->window);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "3,5");
  app_test_xdo ("key", "u", NULL);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "3,5,7,12");
  select_first (f->window, 12, FALSE, APP_TEST_FOUR_DATUM);
  app_test_xdo ("key", "shift+h", NULL);
  wait_chase (f->window);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "7,12");
  app_test_xdo ("key", "u", "ctrl+h", NULL);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "12,3,5,7");
  app_test_xdo ("key", "u", NULL);
  g_clear_pointer (&rows, g_free);
  rows = row_ids (f->window);
  g_assert_cmpstr (rows, ==, "3,5,7,12");
}

/* w / s zoom at the pointer over the events; g2's keys reach the timeline
 * wherever the focus went (the main menu's button after the menu closed),
 * but a key typed into a text field stays there. */
static void
test_keys_anywhere (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  GtkWidget *menu_button, *focus;
  const CpelView *view;
  double x, width;
  gint64 s0, t_at;

  SKIP_WITHOUT_DISPLAY ();
  SKIP_WITHOUT_INPUT ();
  timeline = cpel_window_get_timeline (f->window);
  cpel_session_fit (cpel_timeline_get_session (timeline));
  app_test_wait_drawn (GTK_WIDGET (timeline));
  view = cpel_timeline_get_view (timeline);
  width = gtk_widget_get_width (GTK_WIDGET (timeline));
  x = view->label_width + (width - view->label_width) / 5;
  t_at = cpel_view_x_to_time (view, width, x);
  app_test_pointer_to (GTK_WIDGET (timeline), x, view->ruler_height + 5);
  app_test_focus (GTK_WIDGET (timeline));

  s0 = app_test_timeline_span (timeline);
  app_test_xdo ("key", "w", NULL);
  g_assert_cmpint (ABS (app_test_timeline_span (timeline) - s0 / 2), <=, 1);
  view = cpel_timeline_get_view (timeline);
  g_assert_cmpint (ABS (cpel_view_x_to_time (view, width, x) - t_at), <=, s0 / width);
  app_test_xdo ("key", "s", NULL);
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);

  /* A still pointer over a view moved by the keys: the status line's
   * cursor time follows. */
  {
    g_autofree char *before = g_strdup (cpel_window_get_cursor_text (f->window));

    g_assert_true (g_str_has_prefix (before, "Cursor "));
    app_test_xdo ("key", "w", "d", NULL);
    g_assert_cmpstr (cpel_window_get_cursor_text (f->window), !=, before);
    app_test_xdo ("key", "a", "s", NULL);
    g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);
  }

  /* The keyboard on the main menu's button. */
  menu_button = app_test_find_descendant (GTK_WIDGET (f->window), GTK_TYPE_MENU_BUTTON);
  g_assert_nonnull (menu_button);
  app_test_focus (menu_button);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)), menu_button));
  app_test_xdo ("key", "w", NULL);
  g_assert_cmpint (ABS (app_test_timeline_span (timeline) - s0 / 2), <=, 1);
  app_test_xdo ("key", "s", NULL);
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);
  app_test_xdo ("key", "e", NULL);
  g_assert_true (cpel_session_get_summary (cpel_timeline_get_session (timeline)));
  app_test_xdo ("key", "e", NULL);
  g_assert_false (cpel_session_get_summary (cpel_timeline_get_session (timeline)));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)), menu_button));

  /* Typed into the search entry: text, not a zoom. */
  app_test_activate_action (GTK_WIDGET (f->window), "search", NULL);
  app_test_wait_until (GTK_IS_EDITABLE (gtk_root_get_focus (GTK_ROOT (f->window)))
                       && gtk_widget_get_mapped (gtk_root_get_focus (GTK_ROOT (f->window))), 30);
  focus = gtk_root_get_focus (GTK_ROOT (f->window));
  g_assert_true (GTK_IS_EDITABLE (focus));
  app_test_xdo ("key", "w", "s", NULL);
  g_assert_cmpint (app_test_timeline_span (timeline), ==, s0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (focus)), ==, "ws");
  gtk_editable_set_text (GTK_EDITABLE (focus), "");
  app_test_xdo ("key", "Escape", NULL);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/timeline");

  app = app_test_new_application ();

#define ADD(path, func) \
  g_test_add ("/app/timeline/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("sort", test_sort);
  ADD ("label-input", test_label_input);
  ADD ("context-menus", test_context_menus);
  ADD ("modes-output", test_modes_output);
  ADD ("summary-visible", test_summary_visible);
  ADD ("g2-keys", test_keys);
  ADD ("g2-keys-anywhere", test_keys_anywhere);
#undef ADD
  return app_test_run (&app);
}
