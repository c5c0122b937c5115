/* SPDX-License-Identifier: Apache-2.0 */
/* perf-script-util.h — the tests' reader of `perf script` text, the oracle
 * the perf.data reader and importer are checked against:
 * `comm tid [cpu] secs.frac: [period] event: rest`; callchain lines
 * (tab-indented) and empty lines are skipped.  The fraction has 9 digits
 * with --ns, else 6 (µs); a tid of -1 (perf's "none") reads as 0xffffffff. */
#pragma once

#include <string.h>

#include <glib.h>

typedef struct
{
  char    *comm;
  guint32  tid;
  gint     cpu;       /* -1 = none */
  guint64  time_ns;
  char    *event;
  char    *text;      /* the rest of the line */
} CpelPerfScriptLine;

static inline void
cpel_perf_script_line_free (gpointer p)
{
  CpelPerfScriptLine *l = p;

  g_free (l->comm);
  g_free (l->event);
  g_free (l->text);
  g_free (l);
}

/* The lines of the file at `path`, in file order (CpelPerfScriptLine). */
static inline GPtrArray *
cpel_perf_script_parse (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) re = NULL;
  g_auto(GStrv) rows = NULL;
  GPtrArray *lines;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  re = g_regex_new ("^\\s*(.+?)\\s+(-?\\d+)\\s+(?:\\[(\\d+)\\]\\s+)?(\\d+)\\.(\\d+):\\s+(?:\\d+\\s+)?(\\S+):\\s?(.*)$",
                    0, 0, &error);
  g_assert_no_error (error);
  lines = g_ptr_array_new_with_free_func (cpel_perf_script_line_free);
  rows = g_strsplit (text, "\n", -1);
  for (guint i = 0; rows[i]; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *tid = NULL, *cpu = NULL, *sec = NULL, *frac = NULL;
      CpelPerfScriptLine *l;
      guint64 f;

      if (rows[i][0] == '\t' || rows[i][0] == 0)
        continue;
      if (!g_regex_match (re, rows[i], 0, &m))
        g_error ("%s: not a perf script line: %s", path, rows[i]);
      l = g_new0 (CpelPerfScriptLine, 1);
      l->comm = g_match_info_fetch (m, 1);
      tid = g_match_info_fetch (m, 2);
      cpu = g_match_info_fetch (m, 3);
      sec = g_match_info_fetch (m, 4);
      frac = g_match_info_fetch (m, 5);
      l->event = g_match_info_fetch (m, 6);
      l->text = g_match_info_fetch (m, 7);
      l->tid = (guint32) g_ascii_strtoll (tid, NULL, 10);
      l->cpu = cpu[0] ? (gint) g_ascii_strtoull (cpu, NULL, 10) : -1;
      f = g_ascii_strtoull (frac, NULL, 10);
      for (gsize k = strlen (frac); k < 9; k++)
        f *= 10;
      l->time_ns = g_ascii_strtoull (sec, NULL, 10) * 1000000000 + f;
      g_ptr_array_add (lines, l);
    }
  return lines;
}
