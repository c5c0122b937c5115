/* cpel-cli-common.c — option parsing, errors, opening files, stdout */
#include "cpel-cli.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#define STDOUT_BUFFER_SIZE (1u << 20)

GOptionContext *
cpel_cli_context_new (const char         *command,
                      const char         *parameter,
                      const char         *summary,
                      const GOptionEntry *entries,
                      gpointer            callback_data)
{
  g_autofree char *prgname = g_strdup_printf ("cpel %s", command);
  GOptionContext *context = g_option_context_new (parameter);

  /* The usage line reads "cpel COMMAND [OPTION…] PARAMETER". */
  g_set_prgname (prgname);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (summary != NULL)
    g_option_context_set_summary (context, summary);
  if (entries != NULL)
    {
      GOptionGroup *group = g_option_group_new (NULL, NULL, NULL, callback_data, NULL);

      g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
      g_option_group_add_entries (group, entries);
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
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

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
  fflush (stdout);
  g_printerr ("cpel: %s: %s\n", path, error->message);
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
  double v;

  if (value != NULL && all_digits (value))
    {
      guint64 n;

      if (g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT64 / 2, &n, NULL))
        {
          *rate = n;
          return TRUE;
        }
    }
  else if (parse_scaled (value, "Hz", &v) && v >= 1 && v < 9.2e18)
    {
      *rate = (guint64) llround (v);
      return TRUE;
    }
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
  return TRUE;
}

CpelFile *
cpel_cli_open (const char  *path,
               guint64      clock_rate,
               GError     **error)
{
  CpelLoadOptions options = { .ticks_per_second = clock_rate, .n_threads = 0 };

  return cpel_file_new_for_path (path, &options, NULL, NULL, NULL, error);
}

gboolean
cpel_cli_report_damage (CpelFile   *file,
                        const char *path)
{
  if (!cpel_file_is_damaged (file))
    return FALSE;
  fflush (stdout);
  g_printerr ("cpel: %s: %s\n", path,
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
