/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cli-common.c — option parsing, errors, opening files, stdout */
#include "cpel-cli.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cpel-loader.h"

#define STDOUT_BUFFER_SIZE (1u << 20)

void
cpel_cli_common_clear (CpelCliCommon *common)
{
  g_clear_pointer (&common->from_text, g_free);
  g_clear_pointer (&common->to_text, g_free);
  g_clear_pointer (&common->tracks, g_free);
  common->clock_rate = 0;
}

static gboolean
parse_common_clock_rate (const char  *name,
                         const char  *value,
                         gpointer     data,
                         GError     **error)
{
  CpelCliCommon *common = data;

  return cpel_cli_parse_clock_rate (name, value, &common->clock_rate, error);
}

/* --no-cache: one process, one setting */
static gboolean no_cache;

void
cpel_cli_cache_options (CpelLoadOptions *options)
{
  const char *min = g_getenv ("CPEL_CACHE_MIN_EVENTS");
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  options->use_cache = !no_cache;
  /* the viewer's settings, when its schema is installed */
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, BASE_ID, TRUE);
  if (schema != NULL && g_settings_schema_has_key (schema, "index-cache")
      && g_settings_schema_has_key (schema, "index-cache-max-size"))
    {
      g_autoptr(GSettings) settings = g_settings_new_full (schema, NULL, NULL);

      if (!g_settings_get_boolean (settings, "index-cache"))
        options->use_cache = FALSE;
      options->cache_max_bytes = (guint64) MAX (g_settings_get_int (settings, "index-cache-max-size"), 1) << 20;
    }
  /* tests: small files cached too */
  if (min != NULL)
    options->cache_min_events = g_ascii_strtoull (min, NULL, 10);
}

/* The shared options' entries (one help text for every command). */
static void
add_shared_entries (GOptionGroup   *group,
                    CpelCliOptions  shared,
                    CpelCliCommon  *common)
{
  const GOptionEntry range[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &common->from_text,
      N_("Start of the range, since the first event (e.g. 1.5ms; default 0)"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &common->to_text,
      N_("End of the range, excluded (default: after the last event)"), N_("TIME") },
    { NULL }
  };
  const GOptionEntry tracks[] = {
    { "tracks", 0, 0, G_OPTION_ARG_STRING, &common->tracks,
      N_("Only the tracks whose label matches this regular expression"), N_("REGEX") },
    { NULL }
  };
  const GOptionEntry clock[] = {
    { "clock-rate", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) parse_common_clock_rate,
      N_("Read every event section with this clock (ticks per second)"), N_("HZ") },
    { "no-cache", 0, 0, G_OPTION_ARG_NONE, &no_cache,
      N_("Neither read nor write the persisted index (see “cpel cache”)"), NULL },
    { NULL }
  };

  if (shared & CPEL_CLI_OPTION_RANGE)
    g_option_group_add_entries (group, range);
  if (shared & CPEL_CLI_OPTION_TRACKS)
    g_option_group_add_entries (group, tracks);
  if (shared & CPEL_CLI_OPTION_CLOCK_RATE)
    g_option_group_add_entries (group, clock);
}

GOptionContext *
cpel_cli_context_new (const char         *command,
                      const char         *parameter,
                      const char         *summary,
                      const GOptionEntry *entries,
                      CpelCliOptions      shared,
                      CpelCliCommon      *common)
{
  g_autofree char *prgname = g_strdup_printf ("cpel %s", command);
  GOptionContext *context = g_option_context_new (parameter);

  g_assert (shared == 0 || common != NULL);

  /* The usage line reads "cpel COMMAND [OPTION…] PARAMETER". */
  g_set_prgname (prgname);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (summary != NULL)
    g_option_context_set_summary (context, summary);
  if (entries != NULL || shared != 0)
    {
      GOptionGroup *group = g_option_group_new (NULL, NULL, NULL, common, NULL);

      g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
      if (entries != NULL)
        g_option_group_add_entries (group, entries);
      if (shared != 0)
        add_shared_entries (group, shared, common);
      g_option_context_set_main_group (context, group);
    }
  return context;
}

gboolean
cpel_cli_parse (GOptionContext   *context,
                const char       *command,
                int              *argc,
                char           ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      cpel_cli_usage_error (command, "%s", error->message);
      return FALSE;
    }
  return TRUE;
}

int
cpel_cli_usage_error (const char *command,
                      const char *format,
                      ...)
{
  g_autofree char *raw = NULL;
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  raw = g_strdup_vprintf (format, args);
  va_end (args);
  /* it may quote what was typed: control characters escaped */
  message = cpel_cli_escape (raw);

  fflush (stdout);
  if (command != NULL)
    {
      g_printerr ("cpel %s: %s\n", command, message);
      g_printerr (_("Try “cpel %s --help” for more information.\n"), command);
    }
  else
    {
      g_printerr ("cpel: %s\n", message);
      g_printerr (_("Try “cpel --help” for more information.\n"));
    }
  return CPEL_EXIT_USAGE;
}

int
cpel_cli_file_error (const char   *path,
                     const GError *error)
{
  g_autofree char *raw = cpel_error_dup_line (error);
  /* a file name (and a message quoting it) may hold any byte but NUL */
  g_autofree char *line = cpel_cli_escape (raw);
  g_autofree char *name = cpel_cli_escape (path);

  fflush (stdout);
  if (g_error_matches (error, CPEL_ERROR, CPEL_ERROR_CLOCK))
    /* TRANSLATORS: after “Event section at offset 8 has a clock rate of 0”;
       --clock-rate is the option's name, keep it */
    g_printerr ("cpel: %s: %s; %s\n", name, line,
                _("read it with --clock-rate HZ, e.g. --clock-rate 2.6GHz"));
  else
    g_printerr ("cpel: %s: %s\n", name, line);
  return CPEL_EXIT_INVALID;
}

/* value × multiplier of an optional k/M/G suffix, or FALSE. */
static gboolean
parse_scaled (const char *text, const char *unit, double *value)
{
  char *end = NULL;
  double v, mult = 1;

  if (text == NULL || *text == '\0' || g_ascii_isspace (*text) || *text == '-')
    return FALSE;
  errno = 0;
  v = g_ascii_strtod (text, &end);
  if (end == text || errno != 0 || !isfinite (v))
    return FALSE;
  switch (*end)
    {
    case 'k': case 'K': mult = 1e3; end++; break;
    case 'M':           mult = 1e6; end++; break;
    case 'G': case 'g': mult = 1e9; end++; break;
    default: break;
    }
  if (unit != NULL && g_ascii_strcasecmp (end, unit) == 0)
    end += strlen (end);
  if (*end != '\0')
    return FALSE;
  *value = v * mult;
  return TRUE;
}

static gboolean
all_digits (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

gboolean
cpel_cli_parse_count (const char *text,
                      guint64    *value)
{
  double v;

  if (text != NULL && all_digits (text))
    {
      guint64 n;

      if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &n, NULL))
        return FALSE;
      *value = n;
      return TRUE;
    }
  if (!parse_scaled (text, NULL, &v) || v < 0 || v >= 1.8e19 || v != floor (v))
    return FALSE;
  *value = (guint64) v;
  return TRUE;
}

gboolean
cpel_cli_parse_clock_rate (const char  *name,
                           const char  *value,
                           gpointer     data,
                           GError     **error)
{
  guint64 *rate = data;

  if (cpel_clock_rate_parse (value, rate))
    return TRUE;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("Invalid clock rate “%s” for %s: give ticks per second, e.g. 1000000000 or 2.6GHz"),
               value, name);
  return FALSE;
}

gboolean
cpel_cli_parse_time (const char  *option,
                     const char  *text,
                     gint64      *ns,
                     GError     **error)
{
  if (!cpel_time_parse (text, ns))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Invalid time “%s” for %s: use e.g. 1500, 1.5us, 2ms or 0.3s"),
                   text, option);
      return FALSE;
    }
  if (*ns < 0)
    {
      /* times count from the first event: nothing comes before 0 */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Invalid time “%s” for %s: times count from the first event and are "
                     "never negative"),
                   text, option);
      return FALSE;
    }
  return TRUE;
}

gboolean
cpel_cli_parse_u32 (const char *text,
                    guint32    *value)
{
  guint64 v;

  if (text == NULL)
    return FALSE;
  if (g_str_has_prefix (text, "0x") || g_str_has_prefix (text, "0X"))
    {
      if (!g_ascii_isxdigit (text[2])
          || !g_ascii_string_to_unsigned (text + 2, 16, 0, G_MAXUINT32, &v, NULL))
        return FALSE;
    }
  else if (!all_digits (text) || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &v, NULL))
    return FALSE;
  *value = (guint32) v;
  return TRUE;
}

gboolean
cpel_cli_parse_range (const char  *from_text,
                      const char  *to_text,
                      gint64      *t0,
                      gint64      *t1,
                      GError     **error)
{
  if ((from_text != NULL && !cpel_cli_parse_time ("--from", from_text, t0, error))
      || (to_text != NULL && !cpel_cli_parse_time ("--to", to_text, t1, error)))
    return FALSE;
  if (from_text != NULL && to_text != NULL && *t1 <= *t0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("The end of the range must come after its start"));
      return FALSE;
    }
  return TRUE;
}

GArray *
cpel_cli_match_tracks (CpelFile    *file,
                       const char  *pattern,
                       GError     **error)
{
  g_autoptr(GError) local = NULL;
  /* no G_REGEX_OPTIMIZE: a few labels do not pay for JIT code (which
   * valgrind also sees reading past a label's end, a false alarm) */
  g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, &local);
  g_autoptr(GArray) slots = NULL;

  if (regex == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Invalid regular expression for --tracks: %s"), local->message);
      return NULL;
    }
  slots = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      gboolean matched = g_regex_match_full (regex, cpel_file_get_track_label (file, slot), -1, 0,
                                             0, NULL, &local);

      if (local != NULL)
        {
          /* the backtracking limit: each label would take as long */
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("Invalid regular expression for --tracks: %s"),
                       _("The regular expression is too complex: matching it gave up "
                         "(simplify it, e.g. no nested repeats like (a+)+)"));
          return NULL;
        }
      if (matched)
        g_array_append_val (slots, slot);
    }
  if (slots->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("No track label matches “%s”"), pattern);
      return NULL;
    }
  return g_steal_pointer (&slots);
}

static char *
fold_name (const char *s)
{
  g_autofree char *stripped = g_strstrip (g_strdup (s));

  if (g_utf8_validate (stripped, -1, NULL))
    return g_utf8_casefold (stripped, -1);
  return g_ascii_strdown (stripped, -1);
}

GArray *
cpel_cli_resolve_codes (CpelFile    *file,
                        const char  *text,
                        GError     **error)
{
  g_autoptr(GArray) codes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  g_autofree char *key = NULL;
  guint32 code;
  gboolean numeric = cpel_cli_parse_u32 (stripped, &code);

  if (numeric && cpel_file_lookup_type (file, code, NULL))
    {
      g_array_append_val (codes, code);
      return g_steal_pointer (&codes);
    }
  key = fold_name (stripped);
  for (guint type = 0; stripped[0] != '\0' && type < cpel_file_get_n_types (file); type++)
    {
      g_autofree char *name = fold_name (cpel_file_get_type_name (file, type));

      if (strcmp (name, key) == 0)
        {
          code = cpel_file_get_type_code (file, type);
          g_array_append_val (codes, code);
        }
    }
  /* A code the file does not use (no type of that name either): itself,
   * it has no events. */
  if (codes->len == 0 && numeric)
    g_array_append_val (codes, code);
  if (codes->len == 0)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("No event code or event type named “%s” in this file"), stripped);
      return NULL;
    }
  return g_steal_pointer (&codes);
}

CpelFile *
cpel_cli_open (const char  *path,
               guint64      clock_rate,
               GError     **error)
{
  CpelLoadOptions options = { .ticks_per_second = clock_rate, .n_threads = 0 };

  cpel_cli_cache_options (&options);
  return cpel_file_new_for_path (path, &options, NULL, NULL, NULL, error);
}

CpelFile *
cpel_cli_open_stream (const char  *path,
                      guint64      clock_rate,
                      GError     **error)
{
  CpelLoadOptions options = { .ticks_per_second = clock_rate, .defer_index = TRUE };
  g_autoptr(CpelFile) file = NULL;

  cpel_cli_cache_options (&options);
  file = cpel_file_new_for_path (path, &options, NULL, NULL, NULL, error);

  /* nearly in time order (a few events out of place) streams too; an
   * index read from the cache is used as it is */
  if (file != NULL && !cpel_file_has_index (file)
      && !cpel_file_check_nearly_ordered (file, NULL)
      && !cpel_file_ensure_index (file, NULL, error))
    return NULL;
  /* an index built here goes to the cache (a step of its own: the file
   * never writes it by itself) */
  if (file != NULL)
    cpel_file_store_index (file, NULL);
  return g_steal_pointer (&file);
}

CpelFile *
cpel_cli_open_summary (const char  *path,
                       guint64      clock_rate,
                       GError     **error)
{
  CpelLoadOptions options = { .ticks_per_second = clock_rate, .defer_index = TRUE };

  return cpel_file_new_for_path (path, &options, NULL, NULL, NULL, error);
}

gboolean
cpel_cli_report_damage (CpelFile   *file,
                        const char *path)
{
  g_autofree char *name = NULL;

  if (!cpel_file_is_damaged (file))
    return FALSE;
  name = cpel_cli_escape (path);
  fflush (stdout);
  g_printerr ("cpel: %s: %s\n", name,
              _("The file changed on disk while it was read: the output is not reliable"));
  return TRUE;
}

void
cpel_cli_setup_stdout (void)
{
  static char *buffer;

  if (buffer == NULL)
    buffer = g_malloc (STDOUT_BUFFER_SIZE);
  setvbuf (stdout, buffer, _IOFBF, STDOUT_BUFFER_SIZE);
}

gboolean
cpel_cli_flush_stdout (void)
{
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      int saved = errno;

      g_printerr (_("cpel: error writing to standard output: %s\n"), g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}
