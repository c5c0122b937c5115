/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-chase.c — `cpel chase`: the tracks an event code or datum runs through */
#include "cpel-cli.h"

#include <string.h>

#include <glib/gi18n.h>

static int
compare_slots (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

int
cpel_cmd_chase (int argc, char **argv)
{
  g_auto(CpelCliCommon) common = { 0 };
  g_autofree char *code_text = NULL;
  g_autofree char *datum_text = NULL;
  gboolean tsv = FALSE;
  const GOptionEntry entries[] = {
    { "code", 0, 0, G_OPTION_ARG_STRING, &code_text,
      N_("Tracks with an event of this code (decimal or 0x hex) or event name"), N_("CODE") },
    { "datum", 0, 0, G_OPTION_ARG_STRING, &datum_text,
      N_("Tracks with an event of this datum (decimal or 0x hex)"), N_("DATUM") },
    { "tsv", 't', 0, G_OPTION_ARG_NONE, &tsv,
      N_("Tab-separated values: track, track_label"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(GArray) codes = NULL;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GString) line = g_string_new (NULL);
  CpelChaseQuery query = { 0 };
  guint id_width = 1;

  context = cpel_cli_context_new ("chase", _("FILE"),
                                  _("List the tracks holding at least one event of the code (--code), of the\n"
                                    "datum (--datum), or of both when both are given, like g2's chase."),
                                  entries, CPEL_CLI_OPTIONS_FILE, &common);
  if (!cpel_cli_parse (context, "chase", &argc, &argv))
    return CPEL_EXIT_USAGE;
  if (argc != 2)
    return cpel_cli_usage_error ("chase", argc < 2 ? _("Missing FILE") : _("Too many arguments"));
  if (code_text == NULL && datum_text == NULL)
    return cpel_cli_usage_error ("chase", _("Give what to chase: --code, --datum or both"));
  if (datum_text != NULL && !cpel_cli_parse_u32 (datum_text, &query.datum))
    return cpel_cli_usage_error ("chase", _("Invalid datum “%s”: give a 32-bit number, decimal or 0x hex"),
                                 datum_text);
  query.match_datum = datum_text != NULL;

  file = cpel_cli_open (argv[1], common.clock_rate, &error);
  if (file == NULL)
    return cpel_cli_file_error (argv[1], error);

  if (code_text != NULL)
    {
      codes = cpel_cli_resolve_codes (file, code_text, &error);
      if (codes == NULL)
        return cpel_cli_usage_error ("chase", "%s", error->message);
      query.match_code = TRUE;
    }

  /* a name may stand for several codes: the union of their tracks */
  for (guint i = 0; i < (codes != NULL ? codes->len : 1); i++)
    {
      g_autofree guint *slots = NULL;
      guint n = 0;

      if (codes != NULL)
        query.code = g_array_index (codes, guint32, i);
      slots = cpel_chase_find_tracks (file, &query, &n, NULL, &error);
      if (slots == NULL)
        return cpel_cli_file_error (argv[1], error);
      g_array_append_vals (found, slots, n);
    }
  g_array_sort (found, compare_slots);

  for (guint i = 0; i < found->len; i++)
    {
      g_autofree char *id = g_strdup_printf ("%u", cpel_file_get_track_id (file, g_array_index (found, guint, i)));

      id_width = MAX (id_width, (guint) strlen (id));
    }
  if (tsv)
    g_print ("track\ttrack_label\n");
  for (guint i = 0; i < found->len; i++)
    {
      guint slot = g_array_index (found, guint, i);
      const char *label = cpel_file_get_track_label (file, slot);

      if (i > 0 && slot == g_array_index (found, guint, i - 1))
        continue;
      g_string_truncate (line, 0);
      if (tsv)
        g_string_append_printf (line, "%u\t", cpel_file_get_track_id (file, slot));
      else
        g_string_append_printf (line, "%*u  ", (int) id_width, cpel_file_get_track_id (file, slot));
      cpel_cli_escape_append (line, label, strlen (label));
      g_string_append_c (line, '\n');
      fputs (line->str, stdout);
    }

  if (!cpel_cli_flush_stdout ())
    return CPEL_EXIT_INVALID;
  return cpel_cli_report_damage (file, argv[1]) ? CPEL_EXIT_INVALID : CPEL_EXIT_OK;
}
