/* SPDX-License-Identifier: Apache-2.0 */
/* test-keycaps.c — the Keyboard Shortcuts window: every g2 key is in it,
 * and its key caps read as GTK's accelerator labels (cpel-keycaps.c) */
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
  app_test_fixture_setup (f, app, "cpelview-keycaps", app_test_write_four_tracks,
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

/* Every g2 key and the new shortcuts are in the Keyboard Shortcuts window. */
static void
test_shortcuts_window (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GtkBuilder) builder = NULL;
  g_autoptr(GPtrArray) accels = g_ptr_array_new_with_free_func (g_free);
  const char *keys[] = { "w", "s", "a", "d", "r", "f", "t", "g", "e", "c", "p", "l", "x", "z",
                         "h", "<Shift>h", "<Control>h", "u", "<Control>d", "<Control>b" };
  GSList *objects;

  if (app == NULL)
    {
      app_test_skip_no_display ();
      return;
    }
  builder = gtk_builder_new_from_resource ("/io/github/cpelview/CpelView/cpel-shortcuts.ui");
  objects = gtk_builder_get_objects (builder);
  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *accel = NULL;

        g_object_get (l->data, "accelerator", &accel, NULL);
        if (accel != NULL)
          {
            g_auto(GStrv) parts = g_strsplit (accel, " ", -1);

            for (guint i = 0; parts[i] != NULL; i++)
              g_ptr_array_add (accels, g_strdup (parts[i]));
          }
      }
  g_slist_free (objects);
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < accels->len && !found; i++)
        found = g_str_equal (accels->pdata[i], keys[k]);
      if (!found)
        g_error ("“%s” is not in the shortcuts window", keys[k]);
    }
}

static void
collect_keycap_texts (GtkWidget *w, GString *out)
{
  if (GTK_IS_LABEL (w) && gtk_widget_has_css_class (w, "keycap"))
    g_string_append_printf (out, "[%s]", gtk_label_get_text (GTK_LABEL (w)));
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_keycap_texts (c, out);
}

/* The Keyboard Shortcuts window's key caps are GTK's accelerator labels
 * ("Page Up", not "Page_Up"), a bare letter is lower case (an upper-case
 * W would read as Shift+W) and opening it in dark mode warns about nothing
 * (a warning is fatal here). */
static void
test_shortcuts_keycaps (Fixture *f, gconstpointer data)
{
  GtkShortcutsWindow *help;
  AdwStyleManager *style = adw_style_manager_get_default ();
  AdwColorScheme before = adw_style_manager_get_color_scheme (style);
  g_autoptr(GString) caps = g_string_new (NULL);

  /* built when first asked for, not with the window (its start-up) */
  g_assert_null (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (f->window)));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-help-overlay", NULL);
  help = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (f->window));
  g_assert_nonnull (help);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (help)));
  gtk_widget_set_visible (GTK_WIDGET (help), FALSE);
  collect_keycap_texts (GTK_WIDGET (help), caps);
  g_test_message ("%s", caps->str);
  g_assert_nonnull (strstr (caps->str, "[Page Up][Page Down]"));
  g_assert_null (strstr (caps->str, "Page_"));
  g_assert_nonnull (strstr (caps->str, "[+][w]"));
  g_assert_nonnull (strstr (caps->str, "[Shift][H]"));
  g_assert_nonnull (strstr (caps->str, "[Ctrl][O]"));
  g_assert_nonnull (strstr (caps->str, "[-][s][←][a][→][d]"));

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-help-overlay", NULL);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (help)));
  app_test_wait_frames (GTK_WIDGET (help), 3);
  gtk_widget_set_visible (GTK_WIDGET (help), FALSE);
  adw_style_manager_set_color_scheme (style, before);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/keycaps");

  app = app_test_new_application ();

#define ADD(path, func) \
  g_test_add ("/app/keycaps/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("help-overlay", test_shortcuts_keycaps);
#undef ADD
  g_test_add_func ("/app/keycaps/shortcuts-window", test_shortcuts_window);
  return app_test_run (&app);
}
