/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-info-window.c — the File Information window
 *
 * The template holds the fixed rows (CpelFileInfoRow: a title and its
 * value); the sections and warnings, one row each, are added for the file.
 */
#include "cpel-file-info-window.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "cpel-app-util.h"
#include "cpel-file-info-row.h"
#include "cpel-import.h"

/* Rows listed at most. */
#define MAX_SECTIONS 1000
#define MAX_WARNINGS 200

struct _CpelFileInfoWindow
{
  AdwPreferencesWindow  parent_instance;

  /* template */
  CpelFileInfoRow      *location_row;
  CpelFileInfoRow      *size_row;
  CpelFileInfoRow      *version_row;
  AdwPreferencesGroup  *source_group;
  CpelFileInfoRow      *byte_order_row;
  CpelFileInfoRow      *date_row;
  CpelFileInfoRow      *events_row;
  CpelFileInfoRow      *tracks_row;
  CpelFileInfoRow      *types_row;
  CpelFileInfoRow      *duration_row;
  AdwPreferencesGroup  *sections_group;
  AdwPreferencesGroup  *warnings_group;
  GtkButton            *clock_rate_button;

  CpelFile             *file;
  GFile                *location;
};

G_DEFINE_FINAL_TYPE (CpelFileInfoWindow, cpel_file_info_window, ADW_TYPE_PREFERENCES_WINDOW)

enum
{
  PROP_0,
  PROP_FILE,
  PROP_LOCATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_value_take (CpelFileInfoRow *row,
                char            *value)
{
  cpel_file_info_row_set_value (row, value);
  g_free (value);
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
    case CPEL_SECTION_EXT_SOURCE_INFO:
      return _("Source information");
    case CPEL_SECTION_EXT_EVENT_TEXTS:
      return _("Event texts");
    case CPEL_SECTION_EXT_CALL_CHAINS:
      return _("Call chains");
    default:
      return _("Unknown section");
    }
}

static void
fill_file (CpelFileInfoWindow *self)
{
  CpelFile *file = self->file;

  if (self->location != NULL)
    {
      set_value_take (self->location_row, g_file_get_parse_name (self->location));
      /* only for times in ticks of a rate that may be given (not elog,
       * perf or CTF, whose times are seconds or ns already) */
      gtk_widget_set_visible (GTK_WIDGET (self->clock_rate_button),
                              cpel_file_has_clock_rate (file));
      gtk_widget_set_visible (GTK_WIDGET (self->location_row), TRUE);
    }
  {
    /* As g_format_size_full's long format, with the bytes grouped as every
     * count here ("2.0 MB (2 019 612 bytes)"). */
    guint64 size = cpel_file_get_source_size (file);
    g_autofree char *bytes = cpel_format_count (size);

    if (size < 1000)
      /* TRANSLATORS: a file size under a kilobyte */
      set_value_take (self->size_row,
                      g_strdup_printf (ngettext ("%s byte", "%s bytes", (gulong) size), bytes));
    else
      {
        g_autofree char *human = g_format_size (size);

        /* TRANSLATORS: a file size, rounded and exact, e.g. "2.0 MB (2 019 612 bytes)" */
        set_value_take (self->size_row,
                        g_strdup_printf (ngettext ("%s (%s byte)", "%s (%s bytes)", (gulong) MIN (size, G_MAXULONG)),
                                         human, bytes));
      }
  }
  if (cpel_file_get_imported_from (file) != NULL)
    {
      /* Not a CPEL file on disk: its format instead of a CPEL version and byte order. */
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->version_row), _("Format"));
      cpel_file_info_row_set_value (self->version_row, cpel_file_get_source_format (file));
      gtk_widget_set_visible (GTK_WIDGET (self->byte_order_row), FALSE);
    }
  else
    {
      set_value_take (self->version_row, g_strdup_printf ("%u", cpel_file_get_version (file)));
      cpel_file_info_row_set_value (self->byte_order_row, cpel_file_is_little_endian (file)
                                                          ? _("Little-endian") : _("Big-endian"));
    }
  if (cpel_file_get_imported_from (file) != NULL)
    {
      /* The capture's start as its source says it, never the file's mtime. */
      gint64 start_ns;
      g_autoptr(GDateTime) date = NULL;

      if (cpel_file_get_capture_start (file, &start_ns))
        date = g_date_time_new_from_unix_local (start_ns / 1000000000);
      set_value_take (self->date_row, date != NULL
                                      ? g_date_time_format (date, "%Y-%m-%d %H:%M:%S %Z")
                                      : g_strdup (_("unknown")));
      gtk_widget_set_visible (GTK_WIDGET (self->date_row), TRUE);
    }
  else if (cpel_file_get_date (file) != 0)
    {
      g_autoptr(GDateTime) date = g_date_time_new_from_unix_local (cpel_file_get_date (file));

      /* Local time with its zone ("2016-02-04 22:43:14 CET"; `cpel info`
       * gives UTC): unambiguous next to other logs. */
      if (date != NULL)
        {
          set_value_take (self->date_row, g_date_time_format (date, "%Y-%m-%d %H:%M:%S %Z"));
          gtk_widget_set_visible (GTK_WIDGET (self->date_row),
                                  cpel_file_info_row_get_value (self->date_row) != NULL);
        }
    }

  set_value_take (self->events_row, cpel_format_count (cpel_file_get_n_events (file)));
  set_value_take (self->tracks_row, cpel_format_count (cpel_file_get_n_tracks (file)));
  set_value_take (self->types_row, cpel_format_count (cpel_file_get_n_types (file)));
  set_value_take (self->duration_row, cpel_time_format_kind (cpel_file_get_duration (file),
                                                             cpel_file_get_time_kind (file)));
}

/* Imported (or converted) files: the source format, its clock and header. */
static void
fill_source (CpelFileInfoWindow *self)
{
  CpelFile *file = self->file;
  const char *format = cpel_file_get_source_format (file);
  const char *clock = cpel_file_get_source_value (file, "clock-description");
  const char *lost = cpel_file_get_source_value (file, "lost-events");
  g_auto(GStrv) header = NULL;

  if (format == NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->source_group), TRUE);
  add_subtitle_row (self->source_group,
                    cpel_file_get_imported_from (file) ? _("Format") : _("Converted from"), format);
  if (clock != NULL)
    add_subtitle_row (self->source_group, _("Clock"), clock);
  {
    g_autofree char *origin = cpel_file_describe_clock_origin (file);

    add_subtitle_row (self->source_group, _("Capture clock"),
                      origin != NULL ? origin
                                     : _("none (the source does not say what its clock read)"));
  }
  if (lost != NULL && strcmp (lost, "0") != 0)
    add_subtitle_row (self->source_group, _("Lost events"), lost);
  header = cpel_file_dup_source_header (file);
  for (guint i = 0; header[i] != NULL && header[i + 1] != NULL; i += 2)
    add_subtitle_row (self->source_group, header[i], header[i + 1]);
}

static void
fill_sections (CpelFileInfoWindow *self)
{
  guint n_sections = cpel_file_get_n_sections (self->file);

  for (guint i = 0; i < n_sections && i < MAX_SECTIONS; i++)
    {
      const CpelSectionInfo *info = cpel_file_get_section (self->file, i);
      g_autofree char *title = NULL;
      g_autoptr(GString) subtitle = g_string_new (NULL);
      g_autofree char *bytes = NULL;

      if (info == NULL)
        continue;
      if (info->table_name != NULL && *info->table_name)
        /* TRANSLATORS: section kind and the string table it uses, e.g. Events “FileStrtab” */
        title = g_strdup_printf (_("%s “%s”"), section_name (info->type), info->table_name);
      else
        title = g_strdup (section_name (info->type));

      /* TRANSLATORS: section position and size in the file (decimal, as
       * `cpel info` and the loader's messages) */
      bytes = cpel_format_count (info->length);
      g_string_append_printf (subtitle, _("Type %u at offset %" PRIu64 ", %s bytes"),
                              info->type, info->offset, bytes);
      if (info->count > 0)
        {
          g_autofree char *records = cpel_format_count (info->count);

          g_string_append (subtitle, " · ");
          g_string_append_printf (subtitle, ngettext ("%s record", "%s records", info->count),
                                  records);
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
            {
              g_autofree char *rate = cpel_format_count (info->ticks_per_second);

              g_string_append_printf (subtitle, _("clock %s ticks/s"), rate);
            }
          if (info->clock_per_us)
            g_string_append_printf (subtitle, " %s", _("(file gives ticks/µs)"));
        }
      add_subtitle_row (self->sections_group, title, subtitle->str);
    }
  if (n_sections > MAX_SECTIONS)
    {
      g_autofree char *more = cpel_format_count (n_sections - MAX_SECTIONS);
      g_autofree char *s = g_strdup_printf (_("%s more sections not shown"), more);

      add_subtitle_row (self->sections_group, _("…"), s);
    }
}

static void
fill_warnings (CpelFileInfoWindow *self)
{
  const char * const *warnings = cpel_file_get_warnings (self->file);

  if (warnings == NULL || warnings[0] == NULL)
    return;
  for (guint i = 0; warnings[i] != NULL && i < MAX_WARNINGS; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), warnings[i]);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      adw_preferences_group_add (self->warnings_group, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->warnings_group), TRUE);
}

CpelFileInfoWindow *
cpel_file_info_window_new (CpelWindow *parent)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (cpel_window_get_file (parent) != NULL, NULL);

  return g_object_new (CPEL_TYPE_FILE_INFO_WINDOW,
                       "transient-for", parent,
                       "file", cpel_window_get_file (parent),
                       "location", cpel_window_get_location (parent),
                       NULL);
}

CpelFile *
cpel_file_info_window_get_file (CpelFileInfoWindow *self)
{
  g_return_val_if_fail (CPEL_IS_FILE_INFO_WINDOW (self), NULL);
  return self->file;
}

GFile *
cpel_file_info_window_get_location (CpelFileInfoWindow *self)
{
  g_return_val_if_fail (CPEL_IS_FILE_INFO_WINDOW (self), NULL);
  return self->location;
}

static void
cpel_file_info_window_constructed (GObject *object)
{
  CpelFileInfoWindow *self = CPEL_FILE_INFO_WINDOW (object);

  G_OBJECT_CLASS (cpel_file_info_window_parent_class)->constructed (object);

  g_return_if_fail (CPEL_IS_FILE (self->file));
  fill_file (self);
  fill_source (self);
  if (cpel_file_get_imported_from (self->file) == NULL)
    fill_sections (self);
  else
    {
      /* An imported capture is described by its source (the Source group:
       * the importer's account of the format's header), not by the CPEL
       * sections made in memory to hold it; the clock rate goes with the
       * source. */
      GtkWidget *button = GTK_WIDGET (self->clock_rate_button);

      g_object_ref (button);
      adw_preferences_group_set_header_suffix (self->sections_group, NULL);
      adw_preferences_group_set_header_suffix (self->source_group, button);
      g_object_unref (button);
      gtk_widget_set_visible (GTK_WIDGET (self->sections_group), FALSE);
    }
  fill_warnings (self);
}

static void
cpel_file_info_window_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  CpelFileInfoWindow *self = CPEL_FILE_INFO_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_LOCATION:
      g_value_set_object (value, self->location);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_file_info_window_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  CpelFileInfoWindow *self = CPEL_FILE_INFO_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    case PROP_LOCATION:
      self->location = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_file_info_window_dispose (GObject *object)
{
  CpelFileInfoWindow *self = CPEL_FILE_INFO_WINDOW (object);

  g_clear_object (&self->file);
  g_clear_object (&self->location);

  G_OBJECT_CLASS (cpel_file_info_window_parent_class)->dispose (object);
}

/* g2's "read with different clock rate": File Information closes, and the
 * window that shows the file asks for the rate (the first event section's
 * filled in) and reads the file again with it. */
static void
on_clock_rate_clicked (CpelFileInfoWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  guint64 suggested = 0;

  if (!CPEL_IS_WINDOW (parent) || self->location == NULL)
    return;
  for (guint i = 0; i < cpel_file_get_n_sections (self->file); i++)
    {
      const CpelSectionInfo *info = cpel_file_get_section (self->file, i);

      if (info != NULL && info->type == CPEL_SECTION_EVENTS)
        {
          suggested = info->ticks_per_second;
          break;
        }
    }
  g_object_ref (parent);
  gtk_window_close (GTK_WINDOW (self));
  cpel_window_ask_clock_rate (CPEL_WINDOW (parent), self->location, suggested);
  g_object_unref (parent);
}

static void
cpel_file_info_window_class_init (CpelFileInfoWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_file_info_window_constructed;
  object_class->get_property = cpel_file_info_window_get_property;
  object_class->set_property = cpel_file_info_window_set_property;
  object_class->dispose = cpel_file_info_window_dispose;

  /* The file described. */
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, CPEL_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Where it was read from; NULL: not from a file (no Location row). */
  properties[PROP_LOCATION] =
    g_param_spec_object ("location", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CPEL_TYPE_FILE_INFO_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-file-info-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, location_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, size_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, version_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, source_group);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, byte_order_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, date_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, events_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, tracks_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, types_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, duration_row);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, sections_group);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, warnings_group);
  gtk_widget_class_bind_template_child (widget_class, CpelFileInfoWindow, clock_rate_button);
  gtk_widget_class_bind_template_callback (widget_class, on_clock_rate_clicked);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cpel_file_info_window_init (CpelFileInfoWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
