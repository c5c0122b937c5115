/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-info.c — the File Information window */
#include <inttypes.h>
#include "cpel-file-info.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "cpel-app-util.h"

static void
add_row (AdwPreferencesGroup *group,
         const char          *title,
         const char          *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_hexpand (label, TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
}

static void
add_subtitle_row (AdwPreferencesGroup *group,
                  const char          *title,
                  const char          *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  adw_preferences_group_add (group, row);
}

static const char *
section_name (guint32 type)
{
  switch (type)
    {
    case CPEL_SECTION_STRING_TABLE:
      return _("String table");
    case CPEL_SECTION_SYMBOL_TABLE:
      return _("Symbol table");
    case CPEL_SECTION_EVENT_DEFS:
      return _("Event definitions");
    case CPEL_SECTION_TRACK_DEFS:
      return _("Track definitions");
    case CPEL_SECTION_EVENTS:
      return _("Events");
    default:
      return _("Unknown section");
    }
}

GtkWindow *
cpel_file_info_new (GtkWindow *parent,
                    CpelFile  *file,
                    GFile     *location)
{
  AdwPreferencesWindow *window;
  AdwPreferencesPage *page;
  AdwPreferencesGroup *group;
  const char * const *warnings;
  g_autofree char *s = NULL;
  guint n_sections;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);

  window = ADW_PREFERENCES_WINDOW (adw_preferences_window_new ());
  gtk_window_set_title (GTK_WINDOW (window), _("File Information"));
  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 560, 640);
  adw_preferences_window_set_search_enabled (window, FALSE);

  page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  adw_preferences_window_add (window, page);

  /* The file */
  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _("File"));
  adw_preferences_page_add (page, group);
  if (location != NULL)
    {
      g_autofree char *name = g_file_get_parse_name (location);
      add_row (group, _("Location"), name);
    }
  s = g_format_size_full (cpel_file_get_size (file), G_FORMAT_SIZE_LONG_FORMAT);
  add_row (group, _("Size"), s);
  g_clear_pointer (&s, g_free);
  s = g_strdup_printf ("%u", cpel_file_get_version (file));
  add_row (group, _("Format version"), s);
  g_clear_pointer (&s, g_free);
  add_row (group, _("Byte order"),
           cpel_file_is_little_endian (file) ? _("Little-endian") : _("Big-endian"));
  if (cpel_file_get_date (file) != 0)
    {
      g_autoptr(GDateTime) date = g_date_time_new_from_unix_local (cpel_file_get_date (file));

      /* Local time with its zone ("2016-02-04 22:43:14 CET"; `cpel info`
       * gives UTC): unambiguous next to other logs. */
      s = date != NULL ? g_date_time_format (date, "%Y-%m-%d %H:%M:%S %Z") : NULL;
      if (s != NULL)
        add_row (group, _("Date"), s);
      g_clear_pointer (&s, g_free);
    }

  /* What it holds */
  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _("Contents"));
  adw_preferences_page_add (page, group);
  s = cpel_format_count (cpel_file_get_n_events (file));
  add_row (group, _("Events"), s);
  g_clear_pointer (&s, g_free);
  s = cpel_format_count (cpel_file_get_n_tracks (file));
  add_row (group, _("Tracks"), s);
  g_clear_pointer (&s, g_free);
  s = cpel_format_count (cpel_file_get_n_types (file));
  add_row (group, _("Event types"), s);
  g_clear_pointer (&s, g_free);
  s = cpel_time_format (cpel_file_get_duration (file));
  add_row (group, _("Duration"), s);
  g_clear_pointer (&s, g_free);

  /* Sections */
  n_sections = cpel_file_get_n_sections (file);
  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _("Sections"));
  adw_preferences_page_add (page, group);
  for (guint i = 0; i < n_sections && i < 1000; i++)
    {
      const CpelSectionInfo *info = cpel_file_get_section (file, i);
      g_autofree char *title = NULL;
      g_autoptr(GString) subtitle = g_string_new (NULL);

      if (info == NULL)
        continue;
      if (info->table_name != NULL && *info->table_name)
        /* TRANSLATORS: section kind and the string table it uses, e.g. Events “FileStrtab” */
        title = g_strdup_printf (_("%s “%s”"), section_name (info->type), info->table_name);
      else
        title = g_strdup (section_name (info->type));

      /* TRANSLATORS: section position and size in the file (decimal, as
       * `cpel info` and the loader's messages) */
      g_string_append_printf (subtitle, _("Type %u at offset %" PRIu64 ", %'u bytes"),
                              info->type, info->offset, info->length);
      if (info->count > 0)
        {
          g_string_append (subtitle, " · ");
          g_string_append_printf (subtitle, ngettext ("%'u record", "%'u records", info->count),
                                  info->count);
        }
      if (info->type == CPEL_SECTION_EVENTS)
        {
          g_string_append (subtitle, " · ");
          /* In MHz where they are whole ("clock 2600 MHz"): a number of
           * ten digits and "ticks/s" wrapped inside the unit. */
          if (info->ticks_per_second >= 1000000 && info->ticks_per_second % 1000000 == 0)
            g_string_append_printf (subtitle, _("clock %" PRIu64 " MHz"),
                                    info->ticks_per_second / 1000000);
          else
            g_string_append_printf (subtitle, _("clock %'" PRIu64 " ticks/s"),
                                    info->ticks_per_second);
          if (info->clock_per_us)
            g_string_append_printf (subtitle, " %s", _("(file gives ticks/µs)"));
        }
      add_subtitle_row (group, title, subtitle->str);
    }
  if (n_sections > 1000)
    {
      s = g_strdup_printf (_("%'u more sections not shown"), n_sections - 1000);
      add_subtitle_row (group, _("…"), s);
      g_clear_pointer (&s, g_free);
    }

  /* Diagnostics */
  warnings = cpel_file_get_warnings (file);
  if (warnings != NULL && warnings[0] != NULL)
    {
      guint i;

      group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
      adw_preferences_group_set_title (group, _("Warnings"));
      adw_preferences_page_add (page, group);
      for (i = 0; warnings[i] != NULL && i < 200; i++)
        {
          GtkWidget *row = adw_action_row_new ();
          GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

          gtk_widget_add_css_class (icon, "warning");
          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), warnings[i]);
          adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
          adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
          adw_preferences_group_add (group, row);
        }
    }

  return GTK_WINDOW (window);
}
