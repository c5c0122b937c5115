/* SPDX-License-Identifier: Apache-2.0 */
/* app-test-util.h — the helper of the viewer's widget tests (run under Xvfb;
 * app-test-util.c, compiled once for the app suite)
 *
 * Test files are built with the writer (render-test-util.h); the shared
 * fixture gives each test a scratch directory, the capture and a window.
 * Real input goes through xdotool (XTEST) to the test's own window, so
 * gestures, scroll controllers and key bindings are exercised as a user
 * would.
 *
 * Tests wait on conditions, never on the clock: a flag a signal raises, a
 * property, the frame clock's after-paint, the events of a round trip to
 * the X server.  Every wait has a generous bound that fails the test.
 */
#pragma once

#include <glib/gstdio.h>
#include <adwaita.h>
#include <gdk/x11/gdkx.h>

#include "cpel-test-util.h"
#include "render-test-util.h"
#include "cpelview-resources.h"
#include "cpel-application.h"
#include "cpel-window.h"
#include "cpel-window-test.h"

/* ---- the program ---------------------------------------------------------- */

/* g_test_init, warnings fatal, memory settings; gtk + libadwaita, or FALSE
 * (then every test is skipped) without a display. */
gboolean app_test_init (int *argc, char ***argv);

/* A test's body without a display. */
void app_test_skip_no_display (void);

/* Without a display: registers the one test `prefix`/no-display (it is
 * skipped, with a message) and runs it. */
int app_test_run_no_display (const char *prefix);

/* g_test_run, then `*app` (the program's application, may be NULL)
 * released; returns g_test_run's status. */
int app_test_run (CpelApplication **app);

/* The application of a test program: its own instance (never forwarded to
 * a running viewer), registered, opening files. */
CpelApplication *app_test_new_application (void);

/* ---- the regular capture ----------------------------------------------- */

/* APP_TEST_REG_EVENTS events APP_TEST_REG_STEP ns apart on
 * APP_TEST_REG_TRACKS tracks in turn; every 7th a recv, the others send;
 * the datum is the event's index. */
#define APP_TEST_REG_EVENTS 3000
#define APP_TEST_REG_TRACKS 3
#define APP_TEST_REG_STEP   100

/* Event `i` of the regular capture (a TestEventFunc). */
void app_test_regular_event (guint64 i, TestEvent *ev, gpointer data);

/* Writes the regular capture to `path` (an AppTestWriteFunc). */
void app_test_write_regular (const char *path);

/* ---- the four-track capture -------------------------------------------- */

/* Four tracks defined in the order ids 7, 3, 12, 5 ("net 10", "net 2",
 * "disk", "net 1"); APP_TEST_FOUR_N_EVENTS events APP_TEST_FOUR_STEP_NS
 * apart, their track following a 12-step pattern: counts 200, 100, 250, 50.
 * The loader keeps tracks in id order: slots 0..3 are ids 3, 5, 7, 12.
 * recv (every other event) only on ids 3 and 5; the datum
 * APP_TEST_FOUR_DATUM every 50th event on ids 7 and 12. */
#define APP_TEST_FOUR_N_EVENTS 600
#define APP_TEST_FOUR_STEP_NS  100
#define APP_TEST_FOUR_DATUM    0xabc

/* Event `i` of the four-track capture. */
void app_test_four_tracks_event (guint64 i, TestEvent *ev);

/* Writes the four-track capture to `path` (an AppTestWriteFunc). */
void app_test_write_four_tracks (const char *path);

/* ---- the shared fixture ------------------------------------------------- */

/* Writes a test capture to `path` (e.g. with test_write_capture). */
typedef void (*AppTestWriteFunc) (const char *path);

typedef struct
{
  char       *dir;      /* the test's scratch directory */
  char       *path;     /* its capture: dir/capture.cpel */
  CpelWindow *window;
} AppTestFixture;

/* A scratch directory named after `prefix`, the capture `write` puts at
 * f->path, a window of `app` of `width` x `height` presented and drawn;
 * with `open`, the capture loaded in it and its timeline allocated. */
void app_test_fixture_setup (AppTestFixture   *f,
                             CpelApplication  *app,
                             const char       *prefix,
                             AppTestWriteFunc  write,
                             int               width,
                             int               height,
                             gboolean          open);

/* Every window of the test (dialogs and tool windows go with their
 * parents), then the scratch directory. */
void app_test_fixture_teardown (AppTestFixture *f, CpelApplication *app);

/* The same for fixtures of their own: frees `dir` and `path`. */
void app_test_fixture_cleanup (CpelApplication *app, char *dir, char *path);

/* Removes a test's scratch directory and the files in it. */
void app_test_remove_dir (const char *dir);

/* Removes `dir` and everything under it (a scratch home). */
void app_test_remove_tree (const char *dir);

/* Destroys every window of the application (dialogs, new windows). */
void app_test_destroy_windows (GApplication *app);

/* ---- waiting on conditions ---------------------------------------------- */

/* Handle what is ready now (events already received, idles, the results
 * of finished work) without waiting for anything else. */
void app_test_drain (void);

/* A timeout callback that only wakes the main loop up. */
gboolean app_test_wakeup (gpointer data);

/* Iterate until `expr` holds; fails after `seconds` (a generous bound:
 * the condition ends the wait).  A wakeup now and then re-checks
 * conditions that no event announces (a layout, a thread's flag). */
#define app_test_wait_until(expr, seconds) \
  G_STMT_START { \
    gint64 _end = g_get_monotonic_time () + (seconds) * G_TIME_SPAN_SECOND; \
    guint _wakeup = g_timeout_add (10, app_test_wakeup, NULL); \
    while (!(expr) && g_get_monotonic_time () < _end) \
      g_main_context_iteration (NULL, TRUE); \
    g_source_remove (_wakeup); \
    if (!(expr)) \
      g_error ("%s:%d: still not true after %d s: %s", __FILE__, __LINE__, (int) (seconds), #expr); \
  } G_STMT_END

/* Iterate until *flag or the timeout (ms); returns *flag. */
gboolean app_test_wait_flag (const gboolean *flag, guint timeout_ms);

/* Iterate until *flag or `timeout_ms`; fails the test on the timeout
 * (a generous bound: the condition, not the time, ends the wait). */
#define app_test_await_flag(flag, timeout_ms) \
  g_assert_true (app_test_wait_flag ((flag), (timeout_ms)))

/* A "notify" handler that raises a flag (for app_test_wait_flag). */
void app_test_on_notify_flag (GObject *object, GParamSpec *pspec, gboolean *flag);

/* An "after-paint" handler that counts frames. */
void app_test_on_after_paint (GdkFrameClock *clock, guint *count);

/* Let `widget`'s window paint `n` frames (a redraw is queued first), with
 * an overall bound of 10 s that fails the test. */
void app_test_wait_frames (GtkWidget *widget, guint n);

/* `widget`'s window has painted a frame (a redraw queued first) and what
 * followed has been handled. */
void app_test_wait_drawn (GtkWidget *widget);

/* Waits for `session`'s spans (derived in a worker thread): "notify::spans"
 * until there are some; fails the test after a generous bound. */
void app_test_wait_spans (CpelSession *session);

/* Iterate until `widget` has been allocated and drawn at least once. */
void app_test_wait_allocated (GtkWidget *widget, int min_width);

/* Opens `path` in `window` and waits for the worker to finish loading it. */
void app_test_open_and_wait (CpelWindow *window, const char *path);

/* The first of `widget` and its descendants (depth first) that `match`es,
 * or NULL. */
GtkWidget *app_test_find_widget (GtkWidget *widget,
                                 gboolean (*match) (GtkWidget *widget, gconstpointer data),
                                 gconstpointer data);

/* The first of `widget` and its descendants (depth first) of `type` (or a
 * subtype), or NULL. */
GtkWidget *app_test_find_descendant (GtkWidget *widget, GType type);

/* The length of the timeline's visible range (ns). */
gint64 app_test_timeline_span (CpelTimeline *timeline);

/* The visible toplevel titled `title` (the last one listed), or NULL;
 * `count` gets how many there are. */
GtkWindow *app_test_find_toplevel (const char *title, guint *count);

/* ---- real input through xdotool ----------------------------------------- */

Display *app_test_xdisplay (void);

/* TRUE when real input can be sent: an X11 display and xdotool. */
gboolean app_test_can_send_input (void);

/* The X window of `widget`'s native. */
gulong app_test_xid (GtkWidget *widget);

/* Round trips to the X server until one brings nothing to handle: what
 * handling an event sends back to this client (the input method's
 * forwarded keys, a focus change) comes in too. */
void app_test_round_trips (void);

/* Let injected input arrive and be handled: a round trip to the X server
 * (it queues the events XTEST made before its reply), the events and what
 * they queued handled, then a frame painted by every shown window. */
void app_test_settle (void);

/* xdotool's path, or NULL. */
char *app_test_xdotool (void);

/* Real input through xdotool (XTEST) with `args` (NULL-terminated), then
 * the events handled: xdotool's requests are all processed when it exits
 * (XCloseDisplay syncs), and app_test_settle's round trips bring the
 * events they caused. */
void app_test_xdo (const char *first, ...) G_GNUC_NULL_TERMINATED;

/* Widget coordinates (x, y) to root coordinates (the window's surface
 * origin comes from the X server). */
void app_test_to_root (GtkWidget *widget, double x, double y, int *rx, int *ry);

/* The pointer to (x, y) of `widget`. */
void app_test_pointer_to (GtkWidget *widget, double x, double y);

/* Give the keyboard to `widget`'s window and `widget`. */
void app_test_focus (GtkWidget *widget);

/* ---- what the window shows and does ------------------------------------- */

/* What the widget shows: its render nodes drawn on an image; NULL while it
 * waits for a redraw. */
cairo_surface_t *app_test_widget_image (GtkWidget *widget);

/* The window's actions are widget actions (win.NAME), outside its own
 * GActionGroup: whether `name` (without "win.") is enabled. */
gboolean app_test_action_enabled (GtkWidget *window, const char *name);

/* Activate win.`name` (a floating `parameter` is consumed). */
void app_test_activate_action (GtkWidget *window, const char *name, GVariant *parameter);
