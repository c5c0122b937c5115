/* SPDX-License-Identifier: Apache-2.0 */
/* test-random-input.c — random user input on the real viewer window
 *
 * From a fixed seed, thousands of actions a user could take, in any order
 * and at any speed: g2 keys (w s a d r f t g e c x z p l h H u …), the
 * window's shortcuts (Ctrl+F, Ctrl+Shift+T, Ctrl+E then Escape, F9 …),
 * typing, clicks, double clicks, right clicks, wheel turns (plain, Ctrl,
 * Shift) and drags on the timeline, its ruler and track labels and the
 * overview; tool windows and dialogs opened, used and closed; reloads
 * while the window loads.  The input is real X input (XTEST on the
 * window's own display connection): GDK gets the same events as from a
 * keyboard and a mouse, so gestures, key bindings, shortcuts, popovers and
 * focus all take their real paths.  Some actions follow each other
 * without waiting for the previous one to be handled (quick typing).
 *
 * The test fails on a crash, an abort, an X error (GDK reports it as a
 * warning, then exits) and on any GLib WARNING or CRITICAL: the last
 * actions are printed first, with the seed that replays them.
 *
 * Environment: CPEL_RANDOM_SEEDS (how many seeds, 1..N; default 6),
 * CPEL_RANDOM_ACTIONS (actions a seed; default 400), CPEL_RANDOM_SEED
 * (only this seed, to replay a failure), CPEL_RANDOM_VERBOSE=1 (print
 * every action).  build-aux/sanitize.sh runs a longer variant.
 */
#include "app-test-util.h"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>

#include "cpel-gen.h"
#include "cpel-overview-strip.h"

#define RING 48

static CpelApplication *app;
static char *scratch;
static char *demo_path;
static char *small_path;
static char *elog_path;
static char *snabb_path;

/* What was done, for the report of a failure. */
static char   *ring[RING];
static guint   ring_next;
static guint64 current_seed;
static guint   current_action;
static gboolean verbose;

/* ---- failure reports ---------------------------------------------------- */

static void
dump_actions (void)
{
  char head[160];
  int n = g_snprintf (head, sizeof head,
                      "\n# random input: seed %" G_GUINT64_FORMAT ", failed at action %u;"
                      " the last actions (replay: CPEL_RANDOM_SEED=%" G_GUINT64_FORMAT "):\n",
                      current_seed, current_action, current_seed);

  if (write (2, head, (size_t) n) < 0)
    return;
  for (guint i = 0; i < RING; i++)
    {
      const char *line = ring[(ring_next + i) % RING];

      if (line != NULL && (write (2, "#   ", 4) < 0 || write (2, line, strlen (line)) < 0
                           || write (2, "\n", 1) < 0))
        return;
    }
}

/* Where the message came from: the sanitizers' symbolized trace in a
 * sanitizer build (a stale instance read inside GLib or GTK is not
 * instrumented, so ASan says nothing itself), glibc's otherwise. */
extern void __sanitizer_print_stack_trace (void) __attribute__ ((weak));

static void
dump_stack (void)
{
  if (__sanitizer_print_stack_trace != NULL)
    __sanitizer_print_stack_trace ();
  else
    {
      void *frames[64];

      backtrace_symbols_fd (frames, backtrace (frames, G_N_ELEMENTS (frames)), 2);
    }
}

static void
on_fatal_signal (int sig)
{
  dump_actions ();
  signal (sig, SIG_DFL);
  raise (sig);
}

/* GTK 4's own accounting of a pointer button's "active" state goes wrong
 * when a press and its release do not reach the same widgets: a press that
 * closes a popover (the release then lands on the widget under it), a
 * press whose release lands in a popover or window that opened meanwhile.
 * Every GTK 4 application prints it for such clicks (GTK 4.8 up to at
 * least 4.18: https://discourse.gnome.org/t/what-does-broken-accounting-of-active-state/24474);
 * it is counted and reported, not fatal. */
static guint n_gtk_active_state;

/* GTK 4.8's tooltip popup timeout asks the pointer position of the native
 * it started over (gtk_tooltip_show_tooltip): when that window was closed
 * before the timeout ran — here, a seed's windows closed while the pointer
 * rested on a widget with a tooltip — its surface is gone and GDK prints
 * this CRITICAL, then GTK the same for the widget it looks for there
 * (_gtk_widget_find_at_coords).  The application calls neither; seen about
 * once in ten default runs at load ~10, always at a seed change.  Counted
 * and reported, not fatal. */
static guint n_gtk_tooltip_surface;

/* The popovers shown under `widget`, and where they point. */
static void
dump_popovers (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_POPOVER (c) && gtk_widget_get_visible (c))
        {
          GdkRectangle at = { 0 };
          int rx = 0, ry = 0;

          gtk_popover_get_pointing_to (GTK_POPOVER (c), &at);
          if (gtk_widget_get_realized (widget))
            app_test_to_root (widget, at.x, at.y, &rx, &ry);
          g_printerr ("#     popover %s on %s, pointing to %d,%d (root %d,%d)\n", G_OBJECT_TYPE_NAME (c),
                      G_OBJECT_TYPE_NAME (widget), at.x, at.y, rx, ry);
        }
      dump_popovers (c);
    }
}

/* The windows open at a failure, where, what has the keyboard in each and
 * the popovers shown: the actions name screen positions, not the window
 * they reached.  (Not from the signal handlers: it asks GTK; once: a
 * failure in here comes back through the log writer.) */
static void
dump_windows (void)
{
  static gboolean dumped;
  GListModel *toplevels = gtk_window_get_toplevels ();

  if (dumped)
    return;
  dumped = TRUE;
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);
      GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (w));
      int rx = 0, ry = 0;

      if (gtk_widget_get_realized (GTK_WIDGET (w)))
        app_test_to_root (GTK_WIDGET (w), 0, 0, &rx, &ry);
      g_printerr ("#   window %s '%s' at %d,%d%s%s, focus %s\n", G_OBJECT_TYPE_NAME (w),
                  gtk_window_get_title (w) != NULL ? gtk_window_get_title (w) : "", rx, ry,
                  gtk_widget_get_visible (GTK_WIDGET (w)) ? "" : " (hidden)",
                  gtk_window_is_active (w) ? " (active)" : "",
                  focus != NULL ? G_OBJECT_TYPE_NAME (focus) : "none");
      dump_popovers (GTK_WIDGET (w));
    }
}

static const char *
log_message (const GLogField *fields,
             gsize            n_fields)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
      return fields[i].value;
  return NULL;
}

static gboolean
is_known_gtk_warning (const GLogField *fields,
                      gsize            n_fields)
{
  const char *m = log_message (fields, n_fields);
  return m != NULL && g_str_has_prefix (m, "Broken accounting of active state for widget ");
}

static gboolean
is_known_gtk_tooltip_critical (const GLogField *fields,
                               gsize            n_fields)
{
  const char *m = log_message (fields, n_fields);
  /* gtk_tooltip_show_tooltip () asks the pointer position on its last
   * surface, then the widget there: the same stale surface, two messages
   * (the second seen once in ten loaded runs of the suite) */
  return m != NULL
         && (strcmp (m, "gdk_surface_get_device_position: assertion 'GDK_IS_SURFACE (surface)' failed") == 0
             || strcmp (m, "_gtk_widget_find_at_coords: assertion 'GDK_IS_SURFACE (surface)' failed") == 0);
}

/* Every message goes through here: a WARNING, CRITICAL or ERROR (GDK's X
 * error handler warns before it exits) fails the test at once. */
static GLogWriterOutput
log_writer (GLogLevelFlags   level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         data)
{
  if ((level & G_LOG_LEVEL_WARNING) != 0 && is_known_gtk_warning (fields, n_fields))
    {
      n_gtk_active_state++;
      return G_LOG_WRITER_HANDLED;
    }
  if ((level & G_LOG_LEVEL_CRITICAL) != 0 && is_known_gtk_tooltip_critical (fields, n_fields))
    {
      n_gtk_tooltip_surface++;
      return G_LOG_WRITER_HANDLED;
    }
  if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)) != 0)
    {
      dump_actions ();
      dump_windows ();
      g_log_writer_default (level, fields, n_fields, data);
      dump_stack ();
      signal (SIGABRT, SIG_DFL);
      abort ();
    }
  return g_log_writer_default (level, fields, n_fields, data);
}

static void
note (const char *format, ...) G_GNUC_PRINTF (1, 2);

static void
note (const char *format, ...)
{
  va_list ap;
  char *line;

  va_start (ap, format);
  line = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_free (ring[ring_next]);
  ring[ring_next] = g_strdup_printf ("%u: %s", current_action, line);
  ring_next = (ring_next + 1) % RING;
  if (verbose)
    g_printerr ("# %u: %s\n", current_action, line);
  g_free (line);
}

/* ---- X input ------------------------------------------------------------ */

/* Every event sent so far has reached the server (and its answers are
 * queued for GDK). */
static void
flush_input (void)
{
  XSync (app_test_xdisplay (), False);
}

/* Handle what is pending: the injected events, the redraws, the work they
 * queued, until the main context has nothing ready (or after a bound on
 * the iterations: an animation keeps it busy). */
static void
drain (void)
{
  flush_input ();
  for (guint i = 0; i < 400 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

enum
{
  MOD_SHIFT = 1 << 0,
  MOD_CTRL  = 1 << 1,
  MOD_ALT   = 1 << 2,
};

static void
fake_keysym (KeySym keysym, gboolean press)
{
  KeyCode code = XKeysymToKeycode (app_test_xdisplay (), keysym);

  if (code != 0)
    XTestFakeKeyEvent (app_test_xdisplay (), code, press, CurrentTime);
}

/* A key press and release with `mods` held (and Shift when the keysym is
 * on the key's shifted level, as '?' or '+'). */
static void
send_key (KeySym keysym, guint mods)
{
  KeyCode code = XKeysymToKeycode (app_test_xdisplay (), keysym);

  if (code == 0)
    return;
  if (XkbKeycodeToKeysym (app_test_xdisplay (), code, 0, 0) != keysym
      && XkbKeycodeToKeysym (app_test_xdisplay (), code, 0, 1) == keysym)
    mods |= MOD_SHIFT;
  if (mods & MOD_CTRL)
    fake_keysym (XK_Control_L, TRUE);
  if (mods & MOD_ALT)
    fake_keysym (XK_Alt_L, TRUE);
  if (mods & MOD_SHIFT)
    fake_keysym (XK_Shift_L, TRUE);
  XTestFakeKeyEvent (app_test_xdisplay (), code, True, CurrentTime);
  XTestFakeKeyEvent (app_test_xdisplay (), code, False, CurrentTime);
  if (mods & MOD_SHIFT)
    fake_keysym (XK_Shift_L, FALSE);
  if (mods & MOD_ALT)
    fake_keysym (XK_Alt_L, FALSE);
  if (mods & MOD_CTRL)
    fake_keysym (XK_Control_L, FALSE);
}

static void
move_to (int x, int y)
{
  XTestFakeMotionEvent (app_test_xdisplay (), -1, x, y, CurrentTime);
}

static void
button (guint b, gboolean press)
{
  XTestFakeButtonEvent (app_test_xdisplay (), b, press, CurrentTime);
}

/* ---- the window and its parts -------------------------------------------- */

typedef enum
{
  AREA_TIMELINE,
  AREA_RULER,
  AREA_LABELS,
  AREA_OVERVIEW,
  AREA_DETAILS,
  AREA_CONTENT,
  N_AREAS
} Area;

static const char *area_names[] = { "timeline", "ruler", "labels", "overview", "details", "content" };

/* A random point of `area` in root coordinates; FALSE when the area is
 * not on screen now. */
static gboolean
pick_point (CpelWindow *window, GRand *rand, Area area, int *rx, int *ry)
{
  GtkWidget *timeline = GTK_WIDGET (cpel_window_get_timeline (window));
  GtkWidget *widget = timeline;
  double x0 = 0, y0 = 0, x1, y1;

  switch (area)
    {
    case AREA_TIMELINE:
      x0 = 160;
      y0 = 30;
      break;
    case AREA_RULER:
      x0 = 160;
      y1 = 26;
      break;
    case AREA_LABELS:
      x1 = 150;
      y0 = 30;
      break;
    case AREA_OVERVIEW:
      widget = app_test_find_descendant (GTK_WIDGET (window), CPEL_TYPE_OVERVIEW_STRIP);
      break;
    case AREA_DETAILS:
      widget = GTK_WIDGET (cpel_window_get_details (window));
      break;
    case AREA_CONTENT:
      /* Everything under the header bar: the search bar, the panes, the
       * status line, a toast and its buttons. */
      widget = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
      y0 = 50;
      break;
    default:
      g_assert_not_reached ();
    }
  if (widget == NULL || !gtk_widget_get_mapped (widget)
      || !gtk_widget_get_mapped (GTK_WIDGET (window)))
    return FALSE;
  if (area != AREA_LABELS)
    x1 = gtk_widget_get_width (widget);
  if (area != AREA_RULER)
    y1 = gtk_widget_get_height (widget);
  x1 = MIN (x1, gtk_widget_get_width (widget));
  y1 = MIN (y1, gtk_widget_get_height (widget));
  if (x1 - x0 < 4 || y1 - y0 < 4)
    return FALSE;
  app_test_to_root (widget, g_rand_double_range (rand, x0, x1 - 1),
                    g_rand_double_range (rand, y0, y1 - 1), rx, ry);
  return TRUE;
}

/* ---- the actions --------------------------------------------------------- */

typedef struct
{
  const char *name;
  KeySym      keysym;
  guint       mods;
} Key;

/* g2's keys and the timeline's other keys. */
static const Key view_keys[] = {
  { "w", XK_w }, { "s", XK_s }, { "a", XK_a }, { "d", XK_d }, { "r", XK_r }, { "f", XK_f },
  { "t", XK_t }, { "g", XK_g }, { "e", XK_e }, { "c", XK_c }, { "x", XK_x }, { "z", XK_z },
  { "p", XK_p }, { "l", XK_l }, { "h", XK_h }, { "H", XK_h, MOD_SHIFT }, { "u", XK_u },
  { "Ctrl+h", XK_h, MOD_CTRL }, { "Tab", XK_Tab }, { "Shift+Tab", XK_Tab, MOD_SHIFT },
  { "Left", XK_Left }, { "Right", XK_Right }, { "Up", XK_Up }, { "Down", XK_Down },
  { "Home", XK_Home }, { "0", XK_0 }, { "plus", XK_plus }, { "minus", XK_minus },
  { "Page_Up", XK_Page_Up }, { "Page_Down", XK_Page_Down }, { "Alt+Left", XK_Left, MOD_ALT },
  { "Alt+Right", XK_Right, MOD_ALT }, { "Return", XK_Return }, { "Shift+Return", XK_Return, MOD_SHIFT },
  { "F3", XK_F3 }, { "Shift+F3", XK_F3, MOD_SHIFT }, { "Escape", XK_Escape }, { "space", XK_space },
  { "Delete", XK_Delete }, { "BackSpace", XK_BackSpace }, { "End", XK_End },
};

/* The window's shortcuts (not Ctrl+W and Ctrl+Q: they end the session). */
static const Key shortcut_keys[] = {
  { "Ctrl+f", XK_f, MOD_CTRL }, { "Ctrl+Shift+t", XK_t, MOD_CTRL | MOD_SHIFT },
  { "Ctrl+t", XK_t, MOD_CTRL }, { "Ctrl+i", XK_i, MOD_CTRL },
  { "F9", XK_F9 }, { "Ctrl+Shift+m", XK_m, MOD_CTRL | MOD_SHIFT },
  { "Ctrl+Shift+a", XK_a, MOD_CTRL | MOD_SHIFT }, { "F4", XK_F4 }, { "Shift+F4", XK_F4, MOD_SHIFT },
  { "Ctrl+d", XK_d, MOD_CTRL }, { "Ctrl+b", XK_b, MOD_CTRL }, { "Ctrl+question", XK_question, MOD_CTRL },
  { "Shift+F10", XK_F10, MOD_SHIFT }, { "Menu", XK_Menu }, { "F10", XK_F10 },
  { "Ctrl+n", XK_n, MOD_CTRL }, { "Ctrl+a", XK_a, MOD_CTRL },
  /* GTK's own dialogs last (see dialog_keys in run_action). */
  { "Ctrl+o", XK_o, MOD_CTRL }, { "Ctrl+e", XK_e, MOD_CTRL },
  { "Ctrl+Shift+s", XK_s, MOD_CTRL | MOD_SHIFT }, { "Ctrl+p", XK_p, MOD_CTRL },
};

/* The last four shortcuts open GTK's file chooser or print dialog (and
 * clicks may open them too: see close_gtk_dialogs).  GTK
 * 4.8's in-process file chooser (GtkFileChooserNative without a portal, as
 * here) crashes now and then when input goes on while its folder loads:
 * SIGSEGV or "g_file_equal: assertion 'G_IS_FILE (file1)' failed" in a
 * GtkFileChooserWidget handler of a GtkFileSystemModel signal; typing into
 * it can give "gtk_widget_is_ancestor: assertion 'GTK_IS_WIDGET (widget)'".  With
 * xdg-desktop-portal (a GNOME session) the chooser runs in another
 * process.  So they are left out unless CPEL_RANDOM_DIALOGS=1. */
#define N_DIALOG_KEYS 4
static gboolean with_dialogs;

static void
action_key (GRand *rand, const Key *keys, guint n_keys)
{
  const Key *key = &keys[g_rand_int_range (rand, 0, (gint32) n_keys)];

  note ("key %s", key->name);
  send_key (key->keysym, key->mods);
}

/* A few characters, as typed into whatever has the keyboard (the search
 * entry, a filter, a file name). */
static void
action_type (GRand *rand)
{
  static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789._*[(^$ ";
  char text[8];
  guint n = (guint) g_rand_int_range (rand, 1, 7);

  for (guint i = 0; i < n; i++)
    text[i] = chars[g_rand_int_range (rand, 0, sizeof chars - 1)];
  text[n] = '\0';
  note ("type '%s'", text);
  for (guint i = 0; i < n; i++)
    {
      static const struct { char c; KeySym sym; } special[] = {
        { '.', XK_period }, { '_', XK_underscore }, { '*', XK_asterisk }, { '[', XK_bracketleft },
        { '(', XK_parenleft }, { '^', XK_asciicircum }, { '$', XK_dollar }, { ' ', XK_space },
      };
      KeySym sym = (KeySym) text[i];

      for (guint j = 0; j < G_N_ELEMENTS (special); j++)
        if (special[j].c == text[i])
          sym = special[j].sym;
      send_key (sym, 0);
    }
}

static Area
random_area (GRand *rand)
{
  static const Area weights[] = {
    AREA_TIMELINE, AREA_TIMELINE, AREA_TIMELINE, AREA_TIMELINE, AREA_RULER, AREA_RULER,
    AREA_LABELS, AREA_OVERVIEW, AREA_OVERVIEW, AREA_DETAILS, AREA_CONTENT, AREA_CONTENT,
  };

  return weights[g_rand_int_range (rand, 0, G_N_ELEMENTS (weights))];
}

static guint
random_mods (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 8))
    {
    case 0:
      return MOD_CTRL;
    case 1:
      return MOD_SHIFT;
    default:
      return 0;
    }
}

static void
hold_mods (guint mods, gboolean press)
{
  if (mods & MOD_CTRL)
    fake_keysym (XK_Control_L, press);
  if (mods & MOD_SHIFT)
    fake_keysym (XK_Shift_L, press);
}

static void
action_click (CpelWindow *window, GRand *rand)
{
  Area area = random_area (rand);
  guint b = g_rand_int_range (rand, 0, 6) == 0 ? 3 : g_rand_int_range (rand, 0, 12) == 0 ? 2 : 1;
  guint clicks = g_rand_int_range (rand, 0, 5) == 0 ? 2 : 1;
  guint mods = random_mods (rand);
  int x, y;

  if (!pick_point (window, rand, area, &x, &y))
    return;
  note ("click %u×%u on %s at %d,%d (mods %u)", b, clicks, area_names[area], x, y, mods);
  move_to (x, y);
  hold_mods (mods, TRUE);
  for (guint i = 0; i < clicks; i++)
    {
      button (b, TRUE);
      button (b, FALSE);
    }
  hold_mods (mods, FALSE);
}

static void
action_wheel (CpelWindow *window, GRand *rand)
{
  Area area = random_area (rand);
  guint b = g_rand_boolean (rand) ? 4 : 5;
  guint n = (guint) g_rand_int_range (rand, 1, 6);
  guint mods = random_mods (rand);
  int x, y;

  if (g_rand_int_range (rand, 0, 5) == 0)
    b = g_rand_boolean (rand) ? 6 : 7;   /* horizontal */
  if (!pick_point (window, rand, area, &x, &y))
    return;
  note ("wheel %u×%u on %s at %d,%d (mods %u)", b, n, area_names[area], x, y, mods);
  move_to (x, y);
  hold_mods (mods, TRUE);
  for (guint i = 0; i < n; i++)
    {
      button (b, TRUE);
      button (b, FALSE);
    }
  hold_mods (mods, FALSE);
}

/* Press, move in steps (handled between them, or not), release. */
static void
action_drag (CpelWindow *window, GRand *rand)
{
  Area area = random_area (rand);
  guint b = g_rand_int_range (rand, 0, 6) == 0 ? 3 : 1;
  guint steps = (guint) g_rand_int_range (rand, 1, 8);
  guint mods = random_mods (rand);
  gboolean quick = g_rand_boolean (rand);
  int x0, y0, x1, y1;

  if (!pick_point (window, rand, area, &x0, &y0))
    return;
  if (!pick_point (window, rand, g_rand_int_range (rand, 0, 3) == 0 ? random_area (rand) : area, &x1, &y1))
    {
      x1 = x0 + g_rand_int_range (rand, -200, 200);
      y1 = y0 + g_rand_int_range (rand, -50, 50);
    }
  note ("drag %u on %s from %d,%d to %d,%d in %u steps (mods %u%s)",
        b, area_names[area], x0, y0, x1, y1, steps, mods, quick ? ", quick" : "");
  move_to (x0, y0);
  hold_mods (mods, TRUE);
  button (b, TRUE);
  for (guint i = 1; i <= steps; i++)
    {
      move_to (x0 + (x1 - x0) * (int) i / (int) steps, y0 + (y1 - y0) * (int) i / (int) steps);
      if (!quick)
        drain ();
    }
  button (b, FALSE);
  hold_mods (mods, FALSE);
}

/* The keyboard back to the main window (as a click on its title would). */
static void
action_focus_main (CpelWindow *window)
{
  note ("focus the main window");
  gtk_window_present (GTK_WINDOW (window));
  XSetInputFocus (app_test_xdisplay (), app_test_xid (GTK_WIDGET (window)), RevertToParent, CurrentTime);
}

/* Close another window (a tool window, a dialog, a new window), as its
 * close button does. */
static void
action_close_other (CpelWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  g_autoptr(GtkWindow) other = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (w != GTK_WINDOW (window) && gtk_widget_get_visible (GTK_WIDGET (w)))
        g_set_object (&other, w);
    }
  if (other == NULL)
    return;
  note ("close the window '%s' (%s)", gtk_window_get_title (other), G_OBJECT_TYPE_NAME (other));
  gtk_window_close (other);
}

/* GTK's file chooser or print dialog (in-process here: see
 * N_DIALOG_KEYS). */
static gboolean
is_gtk_dialog (GtkWindow *window)
{
  GType print = g_type_from_name ("GtkPrintUnixDialog");

  return GTK_IS_FILE_CHOOSER_DIALOG (window) || (print != 0 && g_type_is_a (G_OBJECT_TYPE (window), print));
}

/* Without CPEL_RANDOM_DIALOGS=1, GTK's dialogs that a click opened (the
 * header bar's Open button, the empty window's, a menu's item) are closed
 * before the next action, as those the dialog keys would open are never
 * opened.  Seed 88: Shift+Tab and space in the Open chooser, on a column
 * header of its empty Recent list: Gtk-CRITICAL
 * gtk_tree_sortable_get_sort_column_id, GTK 4.8's own (gtktreeviewcolumn.c,
 * gtk_tree_view_column_sort asks the sort order of the tree view's model
 * without checking that there is one; gtkfilechooserwidget.c,
 * recent_start_loading, leaves the file list without a model when there
 * are no recent files, and stop_loading_and_clear_list_model while a
 * folder loads, with the columns still sortable).  Seed 56: Ctrl+N, then
 * space on the new empty window's Open button, then typing into the
 * chooser: the SIGSEGV or g_file_equal CRITICAL described above. */
static void
close_gtk_dialogs (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  g_autoptr(GPtrArray) dialogs = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (gtk_widget_get_visible (GTK_WIDGET (w)) && is_gtk_dialog (w))
        g_ptr_array_add (dialogs, g_steal_pointer (&w));
    }
  for (guint i = 0; i < dialogs->len; i++)
    {
      GtkWindow *dialog = dialogs->pdata[i];

      /* Once mapped: closed before, a file chooser left its parent deaf
       * to its accelerators in GTK 4.8. */
      app_test_wait_until (gtk_widget_get_mapped (GTK_WIDGET (dialog))
                           || !gtk_widget_get_visible (GTK_WIDGET (dialog)), 30);
      if (!gtk_widget_get_visible (GTK_WIDGET (dialog)))
        continue;
      note ("close GTK's dialog '%s' (%s): CPEL_RANDOM_DIALOGS is not 1", gtk_window_get_title (dialog),
            G_OBJECT_TYPE_NAME (dialog));
      gtk_window_close (dialog);
    }
}

/* The file changes on disk (the window offers to reload), or the reload
 * itself (the bar's button): the window loads while input goes on. */
static void
action_reload (CpelWindow *window, GRand *rand, const char *path)
{
  if (path == NULL || cpel_window_get_file (window) == NULL)
    return;
  if (g_rand_boolean (rand))
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GFileInfo) info = g_file_info_new ();
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

      note ("touch the file");
      g_file_info_set_modification_date_time (info, now);
      g_file_set_attributes_from_info (file, info, G_FILE_QUERY_INFO_NONE, NULL, NULL);
    }
  else
    {
      note ("reload");
      gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL);
    }
}

/* The seed's end: every window of the application destroyed the
 * application's way (dialogs and tool windows go with their parents). */
static void
close_all_windows (void)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  for (GList *l = windows; l != NULL; l = l->next)
    g_object_ref (l->data);
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free_full (windows, g_object_unref);
}

static void
run_action (CpelWindow *window, GRand *rand, const char *path)
{
  guint r = (guint) g_rand_int_range (rand, 0, 1000);

  if (r < 380)
    action_key (rand, view_keys, G_N_ELEMENTS (view_keys));
  else if (r < 470)
    action_key (rand, shortcut_keys, G_N_ELEMENTS (shortcut_keys) - (with_dialogs ? 0 : N_DIALOG_KEYS));
  else if (r < 530)
    action_type (rand);
  else if (r < 700)
    action_click (window, rand);
  else if (r < 800)
    action_wheel (window, rand);
  else if (r < 900)
    action_drag (window, rand);
  else if (r < 950)
    action_focus_main (window);
  else if (r < 980)
    action_close_other (window);
  else
    action_reload (window, rand, path);
}

/* ---- the runs ------------------------------------------------------------ */

static guint
env_uint (const char *name, guint fallback)
{
  const char *value = g_getenv (name);

  return value != NULL && *value != '\0' ? (guint) g_ascii_strtoull (value, NULL, 10) : fallback;
}

/* Seed n's file, in turns of six: the demo capture twice, a VPP elog
 * file, none (an empty window), a Snabb timeline, a small file.  The
 * imported ones are copies of fixtures (tests/fixtures). */
static const char *
seed_path (guint64 seed)
{
  switch ((seed - 1) % 6)
    {
    case 2:
      return elog_path;
    case 3:
      return NULL;
    case 4:
      return snabb_path;
    case 5:
      return small_path;
    default:
      return demo_path;
    }
}

/* A copy of `*path` in the scratch directory (a touch changes no shared
 * file), in its place. */
static void
copy_to_scratch (char **path)
{
  g_autoptr(GFile) from = NULL;
  g_autoptr(GFile) to = NULL;
  g_autofree char *name = NULL;
  g_autofree char *copy = NULL;
  g_autoptr(GError) error = NULL;

  name = g_path_get_basename (*path);
  copy = g_build_filename (scratch, name, NULL);
  from = g_file_new_for_path (*path);
  to = g_file_new_for_path (copy);
  g_assert_true (g_file_copy (from, to, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error));
  g_free (*path);
  *path = g_steal_pointer (&copy);
}

/* An absolute path to fixture `relative` (tests/fixtures); a missing one
 * fails the run. */
static char *
fixture_path (const char *relative)
{
  g_autofree char *path = cpel_test_fixture_file (relative);

  return g_canonicalize_filename (path, NULL);
}

static void
test_seed (gconstpointer data)
{
  guint64 seed = GPOINTER_TO_SIZE (data);
  guint n_actions = env_uint ("CPEL_RANDOM_ACTIONS", 400);
  const char *path = seed_path (seed);
  g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) seed);
  CpelWindow *window;

  current_seed = seed;
  current_action = 0;
  window = cpel_window_new (app);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  gtk_window_present (GTK_WINDOW (window));
  if (path != NULL)
    {
      app_test_open_and_wait (window, path);
      app_test_wait_allocated (GTK_WIDGET (cpel_window_get_timeline (window)), 400);
    }
  else
    app_test_wait_allocated (GTK_WIDGET (window), 400);
  action_focus_main (window);
  drain ();

  for (current_action = 1; current_action <= n_actions; current_action++)
    {
      g_assert_nonnull (window);   /* nothing here closes it */
      if (!with_dialogs)
        close_gtk_dialogs ();
      run_action (window, rand, path);
      /* Now and then the next action follows before this one is handled. */
      if (g_rand_int_range (rand, 0, 4) != 0)
        drain ();
      else
        flush_input ();
    }
  drain ();
  note ("end");
  if (n_gtk_active_state > 0)
    g_test_message ("GTK's \"Broken accounting of active state\" warning: %u times (not fatal)",
                    n_gtk_active_state);
  n_gtk_active_state = 0;
  /* Every window closed as the application closes them. */
  close_all_windows ();
  /* Gone once the work it started (loads, lookups) lets go of it. */
  app_test_wait_until (window == NULL, 30);
  if (n_gtk_tooltip_surface > 0)
    g_test_message ("GTK's tooltip CRITICAL on a closed window's surface: %u times so far (not fatal)",
                    n_gtk_tooltip_surface);
}

int
main (int argc, char *argv[])
{
  gboolean display;
  guint n_seeds;
  guint64 only;

  g_log_set_writer_func (log_writer, NULL, NULL);
  verbose = env_uint ("CPEL_RANDOM_VERBOSE", 0) != 0;
  with_dialogs = env_uint ("CPEL_RANDOM_DIALOGS", 0) != 0;
  /* File choosers and the print dialog start at home: a scratch one. */
  /* (before the move to the scratch directory: the path may be relative) */
  elog_path = fixture_path ("vpp-elog/workers.elog");
  snabb_path = fixture_path ("snabb-timeline/engine-pipeline.timeline");
  scratch = g_dir_make_tmp ("cpel-random-input-XXXXXX", NULL);
  g_assert_nonnull (scratch);
  copy_to_scratch (&elog_path);
  copy_to_scratch (&snabb_path);
  g_setenv ("HOME", scratch, TRUE);
  g_setenv ("XDG_CONFIG_HOME", scratch, TRUE);
  g_setenv ("XDG_DATA_HOME", scratch, TRUE);
  g_setenv ("XDG_CACHE_HOME", scratch, TRUE);
  g_setenv ("XDG_STATE_HOME", scratch, TRUE);
  g_assert_cmpint (g_chdir (scratch), ==, 0);

  display = app_test_init (&argc, &argv);
  /* app_test_init makes every WARNING and CRITICAL fatal in GLib itself,
   * which aborts after log_writer has returned even for the tolerated GTK
   * messages above; log_writer decides alone (and aborts on the rest). */
  g_log_set_always_fatal (G_LOG_FATAL_MASK);
  if (!display || !GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return app_test_run_no_display ("/app/random-input");
  {
    int event, error, major, minor;

    if (!XTestQueryExtension (app_test_xdisplay (), &event, &error, &major, &minor))
      return app_test_run_no_display ("/app/random-input");
  }
#ifndef __SANITIZE_ADDRESS__
  signal (SIGSEGV, on_fatal_signal);
  signal (SIGBUS, on_fatal_signal);
  signal (SIGFPE, on_fatal_signal);
#endif
  signal (SIGABRT, on_fatal_signal);

  {
    CpelGenOptions demo = { .seed = 1, .demo = TRUE, .overwrite = TRUE };
    CpelGenOptions small = { .n_events = 2000, .n_tracks = 3, .seed = 2, .overwrite = TRUE };
    g_autoptr(GError) error = NULL;

    demo_path = g_build_filename (scratch, "demo.cpel", NULL);
    small_path = g_build_filename (scratch, "small.cpel", NULL);
    g_assert_true (cpel_gen_write (demo_path, &demo, &error));
    g_assert_true (cpel_gen_write (small_path, &small, &error));
  }

  app = app_test_new_application ();
  n_seeds = env_uint ("CPEL_RANDOM_SEEDS", 6);
  only = env_uint ("CPEL_RANDOM_SEED", 0);
  for (guint64 seed = 1; seed <= n_seeds; seed++)
    {
      g_autofree char *name = NULL;

      if (only != 0 && seed != only)
        continue;
      name = g_strdup_printf ("/app/random-input/seed-%" G_GUINT64_FORMAT, seed);
      g_test_add_data_func (name, GSIZE_TO_POINTER (seed), test_seed);
    }
  if (only > n_seeds)
    {
      g_autofree char *name = g_strdup_printf ("/app/random-input/seed-%" G_GUINT64_FORMAT, only);

      g_test_add_data_func (name, GSIZE_TO_POINTER (only), test_seed);
    }
  {
    int status = g_test_run ();

    g_clear_object (&app);
    app_test_remove_tree (scratch);
    return status;
  }
}
