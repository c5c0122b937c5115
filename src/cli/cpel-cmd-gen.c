/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-gen.c — `cpel gen`: synthetic or demo files */
#include <inttypes.h>
#include "cpel-cli.h"

#include <glib/gi18n.h>

#include "cpel-gen.h"

#define DEFAULT_EVENTS 1000000
#define DEFAULT_TRACKS 16

int
cpel_cmd_gen (int argc, char **argv)
{
  g_autofree char *events_text = NULL;
  g_autofree char *tracks_text = NULL;
  g_autofree char *seed_text = NULL;
  gboolean little_endian = FALSE, demo = FALSE, force = FALSE, sorted = FALSE;
  const GOptionEntry entries[] = {
    { "events", 'n', 0, G_OPTION_ARG_STRING, &events_text,
      N_("Number of events (e.g. 1000000, 1e7, 10M; default 1000000)"), N_("N") },
    { "tracks", 0, 0, G_OPTION_ARG_STRING, &tracks_text,
      N_("Number of tracks (default 16)"), N_("T") },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed_text,
      N_("Random seed: the same seed gives the same file (default 1)"), N_("S") },
    { "little-endian", 0, 0, G_OPTION_ARG_NONE, &little_endian,
      N_("Write a little-endian file (default: big-endian, as VPP does)"), NULL },
    { "sorted", 0, 0, G_OPTION_ARG_NONE, &sorted,
      N_("Every event section in time order (by default a few events are swapped, as in captures merged from per-CPU buffers)"), NULL },
    { "demo", 0, 0, G_OPTION_ARG_NONE, &demo,
      N_("A realistic VPP-like dataplane capture instead (ignores --events and --tracks)"), NULL },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force,
      N_("Replace OUTPUT if it exists"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  CpelGenOptions options = {
    .n_events = DEFAULT_EVENTS, .n_tracks = DEFAULT_TRACKS, .seed = 1,
  };

  context = cpel_cli_context_new ("gen", _("OUTPUT"),
                                  _("Write a synthetic CPEL file for tests and benchmarks, or a demo capture."),
                                  entries, 0, NULL);
  if (!cpel_cli_parse (context, "gen", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("gen", argc < 2 ? _("Missing OUTPUT") : _("Too many arguments"));

  if (events_text != NULL
      && (!cpel_cli_parse_count (events_text, &options.n_events)
          || options.n_events > CPEL_MAX_EVENTS))
    return cpel_cli_usage_error ("gen", _("Invalid number of events “%s” (at most %" PRIu64 ")"),
                                 events_text, (guint64) CPEL_MAX_EVENTS);
  if (tracks_text != NULL)
    {
      guint64 t;

      if (!cpel_cli_parse_count (tracks_text, &t) || t == 0 || t > (1u << 24))
        return cpel_cli_usage_error ("gen", _("Invalid number of tracks “%s” (1 to %u)"),
                                     tracks_text, 1u << 24);
      options.n_tracks = t;
    }
  if (seed_text != NULL
      && !(g_str_has_prefix (seed_text, "0x")
           ? g_ascii_string_to_unsigned (seed_text + 2, 16, 0, G_MAXUINT64, &options.seed, NULL)
           : g_ascii_string_to_unsigned (seed_text, 10, 0, G_MAXUINT64, &options.seed, NULL)))
    return cpel_cli_usage_error ("gen", _("Invalid seed “%s”"), seed_text);

  options.little_endian = little_endian;
  options.demo = demo;
  options.sorted = sorted;
  options.overwrite = force;

  if (!cpel_gen_write (argv[1], &options, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        {
          g_autofree char *name = cpel_cli_escape (argv[1]);

          g_printerr ("cpel: %s: %s\n", name, error->message);
          g_printerr (_("Use --force to replace it.\n"));
          return CPEL_EXIT_INVALID;
        }
      return cpel_cli_file_error (argv[1], error);
    }
  return CPEL_EXIT_OK;
}
