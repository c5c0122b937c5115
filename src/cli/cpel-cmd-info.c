/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-info.c — `cpel info`: header, sections, counts, span, clock, diagnostics */
#include "cpel-cli.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cpel-import.h"

#define LABEL_COLUMNS 14

/* "Label:" padded to a fixed number of columns (labels are translated),
 * then the value. */
G_GNUC_PRINTF (2, 3) static void
print_field (const char *label, const char *format, ...)
{
  g_autofree char *value = NULL;
  va_list args;
  glong cols = g_utf8_strlen (label, -1) + 1;

  va_start (args, format);
  value = g_strdup_vprintf (format, args);
  va_end (args);
  g_print ("%s:", label);
  for (glong i = cols; i < LABEL_COLUMNS; i++)
    g_print (" ");
  g_print (" %s\n", value);
}

static const char *
section_type_name (guint32 type)
{
  switch (type)
    {
    case CPEL_SECTION_STRING_TABLE: return _("string table");
    case CPEL_SECTION_SYMBOL_TABLE: return _("symbol table");
    case CPEL_SECTION_EVENT_DEFS:   return _("event defs");
    case CPEL_SECTION_TRACK_DEFS:   return _("track defs");
    case CPEL_SECTION_EVENTS:       return _("events");
    case CPEL_SECTION_EXT_SOURCE_INFO: return _("source info");
    case CPEL_SECTION_EXT_EVENT_TEXTS: return _("event texts");
    case CPEL_SECTION_EXT_CALL_CHAINS: return _("call chains");
    default:                        return _("unknown");
    }
}

/* Only printable characters of a name taken from the file. */
static char *
clean (const char *s)
{
  GString *out = g_string_new (NULL);

  if (s != NULL)
    cpel_cli_escape_append (out, s, strlen (s));
  return g_string_free (out, FALSE);
}

static void
print_sections (CpelFile *file)
{
  guint n = cpel_file_get_n_sections (file);

  print_field (_("Sections"), "%u", n);
  g_print ("  %5s  %12s  %-13s  %10s  %10s  %-20s  %s\n",
           "#", _("offset"), _("type"), _("length"), _("count"), _("table"), _("clock (ticks/s)"));
  for (guint i = 0; i < n; i++)
    {
      const CpelSectionInfo *s = cpel_file_get_section (file, i);
      g_autofree char *table = clean (s->table_name);
      g_autofree char *type = NULL;
      char count[24] = "-", clock[64] = "";

      if (s->type >= CPEL_SECTION_SYMBOL_TABLE && s->type <= CPEL_SECTION_EVENTS)
        g_snprintf (count, sizeof count, "%u", s->count);
      if (s->type == CPEL_SECTION_EVENTS)
        g_snprintf (clock, sizeof clock, "%" G_GUINT64_FORMAT "%s", s->ticks_per_second,
                    s->clock_per_us ? _(" (file: ticks/µs)") : "");
      if (s->type == CPEL_SECTION_EXT_EVENT_TEXTS || s->type == CPEL_SECTION_EXT_CALL_CHAINS)
        g_snprintf (count, sizeof count, "%u", s->count);
      if ((s->type > CPEL_SECTION_EVENTS || s->type == 0)
          && s->type != CPEL_SECTION_EXT_SOURCE_INFO && s->type != CPEL_SECTION_EXT_EVENT_TEXTS
          && s->type != CPEL_SECTION_EXT_CALL_CHAINS)
        type = g_strdup_printf ("%s (%u)", section_type_name (s->type), s->type);
      else
        type = g_strdup (section_type_name (s->type));
      g_print ("  %5u  %12" G_GUINT64_FORMAT "  %-13s  %10u  %10s  %-20s  %s\n",
               i + 1, s->offset, type, s->length, count, table, clock);   /* from 1, as the loader's messages */
    }
}

static void
print_clock (CpelFile *file, guint64 override)
{
  g_autoptr(GArray) rates = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < cpel_file_get_n_sections (file); i++)
    {
      const CpelSectionInfo *s = cpel_file_get_section (file, i);
      gboolean seen = FALSE;

      if (s->type != CPEL_SECTION_EVENTS)
        continue;
      for (guint j = 0; j < rates->len; j++)
        seen |= g_array_index (rates, guint64, j) == s->ticks_per_second;
      if (!seen)
        g_array_append_val (rates, s->ticks_per_second);
    }
  for (guint j = 0; j < rates->len; j++)
    {
      guint64 r = g_array_index (rates, guint64, j);

      if (j > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%" G_GUINT64_FORMAT " %s", r, _("ticks/s"));
      if (r % 1000000 == 0)
        g_string_append_printf (text, _(" (%g MHz)"), r / 1e6);
      else
        g_string_append_printf (text, _(" (%.4g GHz)"), r / 1e9);
    }
  if (rates->len == 0)
    g_string_append (text, _("none (no event section)"));
  if (cpel_file_get_time_kind (file) == CPEL_TIME_KIND_TICKS)
    {
      /* the sections' 10^9 is a stand-in: times are the source's ticks */
      g_string_assign (text, _("unknown: times are the source's ticks, shown as ticks "
                               "(give the rate with --clock-rate)"));
    }
  print_field (_("Clock"), "%s%s", text->str,
           override ? _(", set by --clock-rate") : "");
  {
    g_autofree char *origin = cpel_file_describe_clock_origin (file);

    print_field (_("Capture clock"), "%s",
                 origin != NULL ? origin
                                : _("none (the source does not say what its clock read)"));
  }
}

/* Where the events came from: the importer's format and the source's header. */
static void
print_source (CpelFile *file)
{
  const char *format = cpel_file_get_source_format (file);
  const char *clock = cpel_file_get_source_value (file, "clock-description");
  const char *lost = cpel_file_get_source_value (file, "lost-events");
  g_auto(GStrv) header = NULL;

  if (format == NULL)
    return;
  if (cpel_file_get_imported_from (file) == NULL)
    print_field (_("Converted from"), "%s", format);
  if (clock != NULL)
    {
      g_autofree char *c = clean (clock);
      print_field (_("Source clock"), "%s", c);
    }
  if (lost != NULL && strcmp (lost, "0") != 0)
    print_field (_("Lost events"), "%s", lost);
  header = cpel_file_dup_source_header (file);
  if (header[0] == NULL)
    return;
  g_print ("%s:\n", _("Source header"));
  for (guint i = 0; header[i] != NULL && header[i + 1] != NULL; i += 2)
    {
      g_autofree char *k = clean (header[i]);
      g_autofree char *v = clean (header[i + 1]);
      g_print ("  %s: %s\n", k, v);
    }
}

static void
print_types (CpelFile *file)
{
  guint n = cpel_file_get_n_types (file);

  print_field (_("Event types"), "%u", n);
  if (n == 0)
    return;
  g_print ("  %10s  %12s  %s\n", _("code"), _("events"), _("name"));
  for (guint t = 0; t < n; t++)
    {
      g_autofree char *name = clean (cpel_file_get_type_name (file, t));

      g_print ("  %10u  %12" G_GUINT64_FORMAT "  %s%s\n",
               cpel_file_get_type_code (file, t), cpel_file_get_type_n_events (file, t),
               name, cpel_file_get_type_defined (file, t) ? "" : _(" (no definition)"));
    }
}

static void
print_tracks (CpelFile *file)
{
  guint n = cpel_file_get_n_tracks (file);

  g_print ("  %10s  %12s  %s\n", _("id"), _("events"), _("label"));
  for (guint slot = 0; slot < n; slot++)
    {
      g_autofree char *label = clean (cpel_file_get_track_label (file, slot));

      g_print ("  %10u  %12" G_GUINT64_FORMAT "  %s\n",
               cpel_file_get_track_id (file, slot),
               cpel_file_get_track_n_events (file, slot), label);
    }
}

int
cpel_cmd_info (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  gboolean list_tracks = FALSE;
  const GOptionEntry entries[] = {
    { "tracks", 0, 0, G_OPTION_ARG_NONE, &list_tracks,
      N_("Also list every track with its event count"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GDateTime) date = NULL;
  g_autofree char *date_text = NULL;
  g_autofree char *span = NULL;
  const char * const *warnings;

  context = cpel_cli_context_new ("info", _("FILE"),
                                  _("Print the header, sections, counts, time span, clock and diagnostics."),
                                  entries, CPEL_CLI_OPTIONS_FILE, &common);
  if (!cpel_cli_parse (context, "info", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("info", argc < 2 ? _("Missing FILE") : _("Too many arguments"));

  file = cpel_cli_open_summary (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);

  date = g_date_time_new_from_unix_utc (cpel_file_get_date (file));
  date_text = date != NULL ? g_date_time_format (date, "%Y-%m-%d %H:%M:%S UTC") : g_strdup ("?");
  span = cpel_time_format_kind (cpel_file_get_duration (file), cpel_file_get_time_kind (file));

  {
    g_autofree char *name = cpel_cli_escape (argv[1]);

    print_field (_("File"), "%s", name);
  }
  print_field (_("Size"), "%" G_GUINT64_FORMAT " %s", cpel_file_get_source_size (file), _("bytes"));
  if (cpel_file_get_imported_from (file) != NULL)
    print_field (_("Format"), _("%s (read as CPEL made in memory: %" PRIu64 " bytes)"),
                 cpel_file_get_source_format (file), cpel_file_get_size (file));
  else
    print_field (_("Format"), "%s %u, %s", _("CPEL version"), cpel_file_get_version (file),
                 cpel_file_is_little_endian (file) ? _("little-endian") : _("big-endian"));
  /* An imported capture's date is its start as its source says it, to the
   * ns; "unknown" when the source does not say (never the file's mtime). */
  if (cpel_file_get_imported_from (file) != NULL)
    {
      gint64 start_ns;
      g_autoptr(GDateTime) when = NULL;
      g_autofree char *day = NULL;

      if (cpel_file_get_capture_start (file, &start_ns))
        when = g_date_time_new_from_unix_utc (start_ns / 1000000000);
      day = when != NULL ? g_date_time_format (when, "%Y-%m-%d %H:%M:%S") : NULL;
      if (day != NULL)
        print_field (_("Date"), "%s.%09u UTC", day, (guint) (start_ns % 1000000000));
      else
        print_field (_("Date"), "%s", _("unknown (the source does not say when it was captured)"));
    }
  else
    print_field (_("Date"), "%s (%u)", date_text, cpel_file_get_date (file));
  print_field (_("Events"), "%" G_GUINT64_FORMAT, cpel_file_get_n_events (file));
  print_field (_("Tracks"), "%u", cpel_file_get_n_tracks (file));
  if (cpel_file_get_time_kind (file) == CPEL_TIME_KIND_TICKS)
    print_field (_("Time span"), _("%s (%" PRId64 " ticks)"), span, cpel_file_get_duration (file));
  else
    print_field (_("Time span"), "%s (%" G_GINT64_FORMAT " ns)", span,
                 cpel_file_get_duration (file));
  print_clock (file, common.clock_rate);
  print_source (file);
  print_sections (file);
  print_types (file);
  if (list_tracks)
    print_tracks (file);

  warnings = cpel_file_get_warnings (file);
  if (warnings == NULL || warnings[0] == NULL)
    print_field (_("Diagnostics"), "%s", _("none"));
  else
    {
      g_print ("%s:\n", _("Diagnostics"));
      for (guint i = 0; warnings[i] != NULL; i++)
        g_print ("  %s\n", warnings[i]);
    }

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
