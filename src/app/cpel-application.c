/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-application.c — the CPEL Viewer application: one window per file
 *
 * Command line: `cpelview [FILE...]` opens each file in a window (a second
 * instance forwards them to the first); `--export-png OUT FILE` renders
 * headless and exits before any display is opened; `--benchmark FILE`
 * replays a fixed navigation script and prints JSON timings.
 */
#include "cpel-application.h"

#include <glib/gi18n.h>

#include "cpel-async.h"
#include "cpel-benchmark.h"
#include "cpel-context-menu.h"
#include "cpel-headless-export.h"
#include "cpel-live-capture.h"
#include "cpel-settings.h"
#include "cpel-span-settings.h"
#include "cpel-toaster.h"
#include "cpel-window.h"
#include "cpelview-resources.h"

#define MAX_RECENT 10

struct _CpelApplication
{
  AdwApplication  parent_instance;

  gint64          start_us;
  GSettings      *settings;
  GMenu          *recent_menu;
  GPtrArray      *pending;          /* GFile to open at activation */
  char           *benchmark_path;
  char           *benchmark_compare;   /* --benchmark A --compare B: B */
  char           *view_name;        /* --view: saved view to open at */
  gboolean        compare;          /* --compare A B: the pending two, compared */
  guint64         clock_rate;       /* --clock-rate: read the files with it; 0 = their own */
  char           *follow_source;    /* --follow: the source to follow at activation */
  gboolean        quitting;         /* app.quit waits for the index cache to be written */
};

G_DEFINE_FINAL_TYPE (CpelApplication, cpel_application, ADW_TYPE_APPLICATION)

static const GOptionEntry options[] = {
  { "export-png", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Render FILE to the image OUT (PNG, or SVG/PDF by suffix) and exit; no display needed"),
    N_("OUT") },
  { "width", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("Width of the exported image (default 1920)"), N_("PX") },
  { "height", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("Height of the exported image (default: room for every track, at most 8192)"), N_("PX") },
  { "from", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Start of the exported range, e.g. 1.5ms"), N_("TIME") },
  { "to", 0, 0, G_OPTION_ARG_STRING, NULL, N_("End of the exported range"), N_("TIME") },
  { "dark", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Export with the dark palette"), NULL },
  { "color-by", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Colour the events by MODE: code, track or none (one colour; default code)"), N_("MODE") },
  { "summary", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Summary mode: each row as a histogram of its events, no event labels"), NULL },
  { "force", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Replace OUT if it exists"), NULL },
  { "benchmark", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Open FILE, replay a fixed navigation script, print timings as JSON and exit"), N_("FILE") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Show the version and exit"), NULL },
  { "compare", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Open the first FILE and compare it with the second in two panes"), NULL },
  { "view", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Open each FILE at its saved view NAME"), N_("NAME") },
  { "clock-rate", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Read every event section with this clock (ticks per second, e.g. 2.6GHz or 1e9)"),
    N_("HZ") },
  { "rules", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL,
    N_("Derive spans by the rules of FILE too (after the built-in ones; may be repeated)"),
    N_("FILE") },
  { "follow", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Follow SOURCE while it is written: a Snabb timeline ring, snabb:PID or a growing "
       "CPEL file"), N_("SOURCE") },
  { "no-cache", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Neither read nor write the persisted index of big files"), NULL },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, N_("[FILE…]") },
  { NULL }
};

CpelApplication *
cpel_application_new (gint64 start_us)
{
  CpelApplication *self = g_object_new (CPEL_TYPE_APPLICATION,
                                        "application-id", APP_ID,
                                        "flags", G_APPLICATION_HANDLES_OPEN,
                                        "resource-base-path", "/io/github/cpelview/CpelView",
                                        NULL);
  self->start_us = start_us;
  return self;
}

GSettings *
cpel_application_get_settings (CpelApplication *self)
{
  g_return_val_if_fail (CPEL_IS_APPLICATION (self), NULL);
  return self->settings;
}

GMenuModel *
cpel_application_get_recent_menu (CpelApplication *self)
{
  g_return_val_if_fail (CPEL_IS_APPLICATION (self), NULL);
  return G_MENU_MODEL (self->recent_menu);
}

GtkWindow *
cpel_application_new_window (CpelApplication *self)
{
  g_return_val_if_fail (CPEL_IS_APPLICATION (self), NULL);
  return GTK_WINDOW (cpel_window_new (self));
}

/* ------------------------------------------------------------------------ */
/* Recent files                                                               */

static char **
recent_uris (CpelApplication *self)
{
  if (self->settings != NULL)
    return cpel_settings_get_strv (self->settings, "recent-views");
  return g_new0 (char *, 1);
}

static void
rebuild_recent_menu (CpelApplication *self)
{
  g_auto(GStrv) uris = recent_uris (self);
  guint n = 0;

  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; uris[i] != NULL && n < MAX_RECENT; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);
      g_autofree char *basename = g_file_get_basename (file);
      g_autofree char *name = g_filename_display_name (basename != NULL ? basename : uris[i]);
      g_autoptr(GString) label = g_string_new (NULL);
      g_autoptr(GMenuItem) item = NULL;

      /* Keep a file name's underscores out of mnemonics. */
      for (const char *p = name; *p; p++)
        {
          if (*p == '_')
            g_string_append_c (label, '_');
          g_string_append_c (label, *p);
        }
      item = g_menu_item_new (label->str, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent",
                                               g_variant_new_string (uris[i]));
      g_menu_append_item (self->recent_menu, item);
      n++;
    }
  if (n == 0)
    /* An item without a usable action shows greyed out. */
    g_menu_append (self->recent_menu, _("No Recent Files"), "win.no-recent-files");
}

void
cpel_application_add_recent (CpelApplication *self,
                             GFile           *file)
{
  g_autofree char *uri = NULL;
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) uris = NULL;
  guint n = 1;

  g_return_if_fail (CPEL_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));

  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);

  if (self->settings == NULL)
    {
      /* No schema: keep this session's list in memory only. */
      g_autoptr(GMenuItem) item = NULL;
      g_autofree char *basename = g_file_get_basename (file);
      g_autofree char *name = g_filename_display_name (basename);
      int count = g_menu_model_get_n_items (G_MENU_MODEL (self->recent_menu));

      for (int i = count - 1; i >= 0; i--)
        {
          g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (G_MENU_MODEL (self->recent_menu),
                                                                              i, G_MENU_ATTRIBUTE_TARGET, NULL);
          if (target == NULL || g_strcmp0 (g_variant_get_string (target, NULL), uri) == 0)
            g_menu_remove (self->recent_menu, i);
        }
      item = g_menu_item_new (name, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (uri));
      g_menu_prepend_item (self->recent_menu, item);
      while (g_menu_model_get_n_items (G_MENU_MODEL (self->recent_menu)) > MAX_RECENT)
        g_menu_remove (self->recent_menu, MAX_RECENT);
      return;
    }

  old = recent_uris (self);
  g_strv_builder_add (builder, uri);
  for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
    if (g_strcmp0 (old[i], uri) != 0)
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  uris = g_strv_builder_end (builder);
  cpel_settings_set_strv (self->settings, "recent-views", (const char * const *) uris);
  rebuild_recent_menu (self);
}

/* ------------------------------------------------------------------------ */
/* Windows                                                                    */

static CpelWindow *
window_for (CpelApplication *self,
            GFile           *file)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    {
      GFile *location;

      if (!CPEL_IS_WINDOW (l->data))
        continue;
      location = cpel_window_get_location (l->data);
      if (location != NULL && g_file_equal (location, file))
        return l->data;
    }
  return NULL;
}

static CpelWindow *
empty_window (CpelApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    if (CPEL_IS_WINDOW (l->data)
        && cpel_window_get_file (l->data) == NULL
        && !cpel_window_is_loading (l->data))
      return l->data;
  return NULL;
}

/* A remote instance passes --view NAME and --clock-rate HZ as the hint,
 * lines "view:NAME" and "clock-rate:TICKS". */
#define VIEW_HINT "view:"
#define CLOCK_RATE_HINT "clock-rate:"

static void
open_files (CpelApplication  *self,
            GFile           **files,
            int               n_files,
            const char       *view_name,
            guint64           clock_rate)
{
  for (int i = 0; i < n_files; i++)
    {
      CpelWindow *window = window_for (self, files[i]);

      if (window == NULL)
        {
          window = empty_window (self);
          if (window == NULL)
            window = cpel_window_new (self);
          cpel_window_open (window, files[i], clock_rate);
        }
      if (view_name != NULL && *view_name != '\0')
        cpel_window_open_view (window, view_name);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
cpel_application_open (GApplication  *application,
                       GFile        **files,
                       int            n_files,
                       const char    *hint)
{
  g_auto(GStrv) lines = g_strsplit (hint != NULL ? hint : "", "\n", -1);
  const char *view_name = NULL;
  guint64 clock_rate = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], VIEW_HINT))
      view_name = lines[i] + strlen (VIEW_HINT);
    else if (g_str_has_prefix (lines[i], CLOCK_RATE_HINT)
             && !cpel_clock_rate_parse (lines[i] + strlen (CLOCK_RATE_HINT), &clock_rate))
      clock_rate = 0;
  open_files (CPEL_APPLICATION (application), files, n_files, view_name, clock_rate);
}

static void
cpel_application_activate (GApplication *application)
{
  CpelApplication *self = CPEL_APPLICATION (application);
  GtkWindow *window;

  if (self->benchmark_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (self->benchmark_path);
      g_autoptr(GFile) compare = self->benchmark_compare != NULL
                                 ? g_file_new_for_commandline_arg (self->benchmark_compare) : NULL;

      window = GTK_WINDOW (cpel_window_new (self));
      /* opened before it is shown, as open_files () does */
      cpel_benchmark_start (CPEL_WINDOW (window), file, compare, self->start_us);
      gtk_window_present (window);
      g_clear_pointer (&self->benchmark_path, g_free);
      g_clear_pointer (&self->benchmark_compare, g_free);
      return;
    }

  if (self->follow_source != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *source = g_steal_pointer (&self->follow_source);
      CpelWindow *follow_window = cpel_window_new (self);

      gtk_window_present (GTK_WINDOW (follow_window));
      if (!cpel_window_follow (follow_window, source, self->clock_rate, &error))
        {
          /* said where it was asked, as `cpel dump --follow` says it */
          g_printerr ("cpelview: %s: %s\n", source, error->message);
          gtk_window_destroy (GTK_WINDOW (follow_window));
        }
      return;
    }

  if (self->compare && self->pending != NULL && self->pending->len == 2)
    {
      CpelWindow *compare_window = cpel_window_new (self);

      cpel_window_open (compare_window, g_ptr_array_index (self->pending, 0), self->clock_rate);
      cpel_window_compare_with (compare_window, g_ptr_array_index (self->pending, 1));
      gtk_window_present (GTK_WINDOW (compare_window));
      g_ptr_array_set_size (self->pending, 0);
      self->compare = FALSE;
      return;
    }

  if (self->pending != NULL && self->pending->len > 0)
    {
      open_files (self, (GFile **) self->pending->pdata, (int) self->pending->len, self->view_name,
                  self->clock_rate);
      g_ptr_array_set_size (self->pending, 0);
      g_clear_pointer (&self->view_name, g_free);
      return;
    }

  window = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (window == NULL)
    window = GTK_WINDOW (cpel_window_new (self));
  gtk_window_present (window);
}

/* ------------------------------------------------------------------------ */
/* App actions                                                                */

/* Closes each window (so that it saves its state) but `keep`. */
static void
close_windows (CpelApplication *self,
               GtkWindow       *keep)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  for (GList *l = windows; l != NULL; l = l->next)
    if (l->data != keep)
      gtk_window_close (l->data);
  g_list_free (windows);
}

static void
on_stores_done (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  g_autoptr(CpelApplication) self = data;

  cpel_index_stores_wait_finish (result, NULL);
  if (!self->quitting)
    return;   /* quit already */
  close_windows (self, NULL);
  g_application_quit (G_APPLICATION (self));
}

/* Quits once the index cache being written is complete (the next open of
 * a big capture then starts warm): every window but the active one closes
 * at once, the active one says why it stays.  Quitting again while
 * waiting quits at once (the temporary file left is removed at the next
 * open). */
void
cpel_application_quit (CpelApplication *self)
{
  GList *windows;
  GtkWindow *keep;

  g_return_if_fail (CPEL_IS_APPLICATION (self));

  if (!self->quitting)
    {
      /* what a window has still to write goes now */
      windows = gtk_application_get_windows (GTK_APPLICATION (self));
      for (GList *l = windows; l != NULL; l = l->next)
        if (CPEL_IS_WINDOW (l->data) && cpel_window_get_file (l->data) != NULL)
          cpel_store_index_async (cpel_window_get_file (l->data));
      if (cpel_index_stores_in_progress () > 0)
        {
          self->quitting = TRUE;
          /* the user waits: the write leaves its idle priority */
          cpel_index_cache_hurry ();
          /* the active viewer window (not a tool window or a dialog) */
          keep = gtk_application_get_active_window (GTK_APPLICATION (self));
          for (GList *l = windows; l != NULL && !CPEL_IS_WINDOW (keep); l = l->next)
            keep = l->data;
          close_windows (self, keep);
          if (CPEL_IS_WINDOW (keep))
            cpel_toaster_show_full (cpel_window_get_toaster (CPEL_WINDOW (keep)),
                                    _("Quitting once the index cache is written…"), 0,
                                    NULL, NULL, NULL);
          cpel_index_stores_wait_async (NULL, on_stores_done, g_object_ref (self));
          return;
        }
    }
  self->quitting = FALSE;
  close_windows (self, NULL);
  g_application_quit (G_APPLICATION (self));
}

static void
action_quit (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       data)
{
  cpel_application_quit (data);
}

static void
action_about (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       data)
{
  CpelApplication *self = data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  const char *developers[] = { _("The CPEL Viewer developers"), NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "application-name", _("CPEL Viewer"),
                        "application-icon", BASE_ID,
                        "version", PACKAGE_VERSION,
                        "developer-name", _("The CPEL Viewer developers"),
                        "developers", developers,
                        "comments", _("View CPEL performance event logs: every track on one time axis, "
                                      "from the whole capture down to single nanoseconds. "
                                      "A successor of the g2 viewer of the VPP project."),
                        "license-type", GTK_LICENSE_APACHE_2_0,
                        "copyright", "© 2024 The CPEL Viewer developers",
                        "translator-credits", _("translator-credits"),
                        "transient-for", parent,
                        "modal", TRUE,
                        NULL);
  adw_about_window_add_acknowledgement_section (ADW_ABOUT_WINDOW (about),
                                                _("Based on"),
                                                (const char *[]) { _("The g2 event viewer and the CPEL format of the FD.io VPP project"), NULL });
  gtk_window_present (GTK_WINDOW (about));
}

static void
action_new_window (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       data)
{
  gtk_window_present (cpel_application_new_window (CPEL_APPLICATION (data)));
}

static void
apply_color_scheme (const char *scheme)
{
  AdwColorScheme value = ADW_COLOR_SCHEME_DEFAULT;

  if (g_strcmp0 (scheme, "light") == 0)
    value = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_strcmp0 (scheme, "dark") == 0)
    value = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), value);
}

static void
change_color_scheme (GSimpleAction *action,
                     GVariant      *state,
                     gpointer       data)
{
  CpelApplication *self = data;
  const char *scheme = g_variant_get_string (state, NULL);

  if (!g_str_equal (scheme, "default") && !g_str_equal (scheme, "light")
      && !g_str_equal (scheme, "dark"))
    return;
  g_simple_action_set_state (action, state);
  apply_color_scheme (scheme);
  cpel_settings_set_string (self->settings, "color-scheme", scheme);
}

static const GActionEntry app_entries[] = {
  { "quit", action_quit },
  { "about", action_about },
  { "new-window", action_new_window },
  { "color-scheme", NULL, "s", "'default'", change_color_scheme },
};

static void
cpel_application_startup (GApplication *application)
{
  CpelApplication *self = CPEL_APPLICATION (application);
  GtkApplication *app = GTK_APPLICATION (application);

  /* Without a session bus the application has no D-Bus object path, and
   * GTK 4.8's accessibility (AT-SPI) names its objects after that path:
   * every accessibility event then is a GLib-GIO CRITICAL
   * (g_dbus_connection_emit_signal: object_path != NULL), and looking for
   * the accessibility bus through the session bus warns "Unable to acquire
   * session bus".  AT-SPI cannot work without the session bus anyway: turn
   * it off (before GTK starts; a GTK_A11Y the user set is kept). */
  if (g_application_get_dbus_object_path (application) == NULL)
    g_setenv ("GTK_A11Y", "none", FALSE);

  G_APPLICATION_CLASS (cpel_application_parent_class)->startup (application);
  /* No menu opens from the keyboard where no monitor shows it. */
  cpel_context_menu_install ();

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_entries,
                                   G_N_ELEMENTS (app_entries), self);

  gtk_application_set_accels_for_action (app, "app.quit", (const char *[]) { "<Control>q", NULL });
  gtk_application_set_accels_for_action (app, "app.new-window", (const char *[]) { "<Control>n", NULL });
  gtk_application_set_accels_for_action (app, "win.open", (const char *[]) { "<Control>o", NULL });
  gtk_application_set_accels_for_action (app, "window.close", (const char *[]) { "<Control>w", NULL });
  gtk_application_set_accels_for_action (app, "win.export", (const char *[]) { "<Control>e", NULL });
  gtk_application_set_accels_for_action (app, "win.search", (const char *[]) { "<Control>f", NULL });
  gtk_application_set_accels_for_action (app, "win.search-next",
                                         (const char *[]) { "F3", "<Control>g", NULL });
  gtk_application_set_accels_for_action (app, "win.search-previous",
                                         (const char *[]) { "<Shift>F3", "<Control><Shift>g", NULL });
  gtk_application_set_accels_for_action (app, "win.show-details", (const char *[]) { "F9", NULL });
  gtk_application_set_accels_for_action (app, "win.file-info", (const char *[]) { "<Control>i", NULL });
  gtk_application_set_accels_for_action (app, "win.event-types", (const char *[]) { "<Control>t", NULL });
  gtk_application_set_accels_for_action (app, "win.tracks", (const char *[]) { "<Control><Shift>t", NULL });
  gtk_application_set_accels_for_action (app, "win.print", (const char *[]) { "<Control>p", NULL });
  gtk_application_set_accels_for_action (app, "win.save-range", (const char *[]) { "<Control><Shift>s", NULL });
  gtk_application_set_accels_for_action (app, "win.statistics", (const char *[]) { "<Control><Shift>m", NULL });
  gtk_application_set_accels_for_action (app, "win.anomalies", (const char *[]) { "<Control><Shift>a", NULL });
  gtk_application_set_accels_for_action (app, "win.spans",
                                         (const char *[]) { "<Control><Shift>r", NULL });
  gtk_application_set_accels_for_action (app, "win.anomaly-next", (const char *[]) { "F4", NULL });
  gtk_application_set_accels_for_action (app, "win.anomaly-previous", (const char *[]) { "<Shift>F4", NULL });
  gtk_application_set_accels_for_action (app, "win.save-view", (const char *[]) { "<Control>d", NULL });
  gtk_application_set_accels_for_action (app, "win.saved-views", (const char *[]) { "<Control>b", NULL });
  gtk_application_set_accels_for_action (app, "win.show-help-overlay",
                                         (const char *[]) { "<Control>question", "<Control>slash", NULL });

  self->settings = cpel_settings_new ();
  if (self->settings != NULL)
    g_signal_connect_swapped (self->settings, "changed::recent-views",
                              G_CALLBACK (rebuild_recent_menu), self);
  rebuild_recent_menu (self);

  {
    g_autofree char *scheme = cpel_settings_get_string (self->settings, "color-scheme");

    if (scheme != NULL)
      g_action_group_change_action_state (G_ACTION_GROUP (self), "color-scheme",
                                          g_variant_new_string (scheme));
  }
}

/* ------------------------------------------------------------------------ */
/* Command line                                                               */

static gint
cpel_application_handle_local_options (GApplication *application,
                                       GVariantDict *dict)
{
  CpelApplication *self = CPEL_APPLICATION (application);
  g_autofree char *export_path = NULL;
  g_autofree char *benchmark = NULL;
  g_autofree char **files = NULL;   /* strings owned by the dict's variant */
  g_autoptr(GVariant) remaining = NULL;
  gsize n_files = 0;
  const char *clock_rate_text = NULL;

  if (g_variant_dict_contains (dict, "version"))
    {
      g_print ("cpelview %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (g_variant_dict_contains (dict, "no-cache"))
    cpel_load_set_cache_allowed (FALSE);

  remaining = g_variant_dict_lookup_value (dict, G_OPTION_REMAINING, G_VARIANT_TYPE_BYTESTRING_ARRAY);
  if (remaining != NULL)
    files = (char **) g_variant_get_bytestring_array (remaining, &n_files);

  if (g_variant_dict_lookup (dict, "clock-rate", "&s", &clock_rate_text)
      && !cpel_clock_rate_parse (clock_rate_text, &self->clock_rate))
    {
      g_autofree char *message = g_strdup_printf (_("Invalid clock rate “%s” for --clock-rate: give ticks "
                                                    "per second, e.g. 1000000000 or 2.6GHz"),
                                                  clock_rate_text);

      g_printerr ("%s\n", message);
      return 2;
    }

  if (g_variant_dict_contains (dict, "rules"))
    {
      g_autofree char **rules_files = NULL;   /* owned by the variant */
      g_autoptr(GVariant) rules_value = NULL;

      rules_value = g_variant_dict_lookup_value (dict, "rules", G_VARIANT_TYPE_BYTESTRING_ARRAY);

      if (rules_value != NULL)
        rules_files = (char **) g_variant_get_bytestring_array (rules_value, NULL);
      for (guint i = 0; rules_files != NULL && rules_files[i] != NULL; i++)
        {
          g_autoptr(GError) error = NULL;

          if (!cpel_span_settings_add_rules_file (rules_files[i], &error))
            {
              g_printerr ("%s\n", error->message);
              return 2;
            }
        }
      /* the rules are this instance's: never hand the files to another */
      g_application_set_flags (application,
                               g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
    }

  if (g_variant_dict_lookup (dict, "export-png", "^ay", &export_path))
    {
      CpelHeadlessExport export = { .color_mode = CPEL_COLOR_BY_CODE };
      const char *color_by = NULL;

      if (n_files != 1)
        {
          g_printerr (_("Usage: cpelview --export-png OUT [--width PX] [--height PX] FILE\n"));
          return 2;
        }
      g_variant_dict_lookup (dict, "width", "i", &export.width);
      g_variant_dict_lookup (dict, "height", "i", &export.height);
      g_variant_dict_lookup (dict, "from", "&s", &export.from);
      g_variant_dict_lookup (dict, "to", "&s", &export.to);
      if (g_variant_dict_lookup (dict, "color-by", "&s", &color_by)
          && !cpel_color_mode_from_string (color_by, &export.color_mode))
        {
          g_autofree char *message = g_strdup_printf (_("Unknown colour mode “%s”: use code, track or none"),
                                                      color_by);

          g_printerr ("%s\n", message);
          return 2;
        }
      export.dark = g_variant_dict_contains (dict, "dark");
      export.summary = g_variant_dict_contains (dict, "summary");
      export.force = g_variant_dict_contains (dict, "force");
      export.clock_rate = self->clock_rate;
      /* Headless: no GTK, no display, no D-Bus. */
      return cpel_export_headless (files[0], export_path, &export);
    }

  if (g_variant_dict_lookup (dict, "benchmark", "^ay", &benchmark))
    {
      /* A private instance: never forwarded to a running viewer. */
      g_application_set_flags (application,
                               g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
      /* `--benchmark A --compare B`; `--benchmark --compare A B` too (the
       * option parser then takes "--compare" as --benchmark's FILE) */
      if (g_str_equal (benchmark, "--compare") && n_files == 2)
        {
          self->benchmark_path = g_strdup (files[0]);
          self->benchmark_compare = g_strdup (files[1]);
        }
      else if (g_variant_dict_contains (dict, "compare"))
        {
          if (n_files != 1)
            {
              g_printerr ("%s\n", _("Usage: cpelview --benchmark A --compare B"));
              return 2;
            }
          self->benchmark_path = g_steal_pointer (&benchmark);
          self->benchmark_compare = g_strdup (files[0]);
        }
      else
        self->benchmark_path = g_steal_pointer (&benchmark);
      return -1;
    }

  if (g_variant_dict_lookup (dict, "follow", "^ay", &self->follow_source))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelLiveCapture) probe = NULL;
      g_autofree char *resolved = NULL;
      CpelLiveSourceKind kind;

      /* a source that cannot be read is said here, with a status, as the CLI
       * does; an LTTng live session is not opened twice (its reader attaches
       * to the session: the window's says what it finds) */
      resolved = cpel_live_source_resolve (self->follow_source, &kind, &error);
      if (resolved != NULL && kind != CPEL_LIVE_SOURCE_LTTNG)
        probe = cpel_live_capture_new (self->follow_source, self->clock_rate, &error);
      if (resolved == NULL || (probe == NULL && kind != CPEL_LIVE_SOURCE_LTTNG))
        {
          g_printerr ("cpelview: %s: %s\n", self->follow_source, error->message);
          return 1;
        }
      /* a window of this instance's own: the source is read here */
      g_application_set_flags (application,
                               g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
      return -1;
    }

  if (g_variant_dict_contains (dict, "compare"))
    {
      if (n_files != 2)
        {
          g_printerr ("%s\n", _("--compare takes two files, A and B"));
          return 2;
        }
      /* its own instance: two files for one window, never handed on */
      g_application_set_flags (application,
                               g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
      self->compare = TRUE;
    }

  if (n_files > 0)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) gfiles = g_ptr_array_new_with_free_func (g_object_unref);

      for (gsize i = 0; i < n_files; i++)
        g_ptr_array_add (gfiles, g_file_new_for_commandline_arg (files[i]));

      if (!g_application_register (application, NULL, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      if (g_application_get_is_remote (application))
        {
          /* Hand the files (and --view) to the running viewer. */
          const char *view = NULL;
          g_autofree char *hint = NULL;

          g_variant_dict_lookup (dict, "view", "&s", &view);
          hint = g_strdup_printf ("%s%s\n%s%" G_GUINT64_FORMAT, VIEW_HINT, view != NULL ? view : "",
                                  CLOCK_RATE_HINT, self->clock_rate);
          g_application_open (application, (GFile **) gfiles->pdata, (int) gfiles->len, hint);
          return 0;
        }
      g_variant_dict_lookup (dict, "view", "s", &self->view_name);
      /* Opened on activation (files given as G_OPTION_REMAINING are not
       * passed to ::open by GApplication). */
      g_ptr_array_extend_and_steal (self->pending, g_steal_pointer (&gfiles));
    }
  return -1;
}

static void
cpel_application_dispose (GObject *object)
{
  CpelApplication *self = CPEL_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->recent_menu);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->benchmark_path, g_free);
  g_clear_pointer (&self->benchmark_compare, g_free);
  g_clear_pointer (&self->view_name, g_free);
  g_clear_pointer (&self->follow_source, g_free);

  G_OBJECT_CLASS (cpel_application_parent_class)->dispose (object);
}

static void
cpel_application_class_init (CpelApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = cpel_application_dispose;
  app_class->startup = cpel_application_startup;
  app_class->activate = cpel_application_activate;
  app_class->open = cpel_application_open;
  app_class->handle_local_options = cpel_application_handle_local_options;

  /* Keep the resource bundle linked in from the static library. */
  (void) cpelview_get_resource ();
}

static void
cpel_application_init (CpelApplication *self)
{
  self->recent_menu = g_menu_new ();
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->start_us = g_get_monotonic_time ();

  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("View CPEL performance event logs."));
}
