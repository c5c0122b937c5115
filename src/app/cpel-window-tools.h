/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-tools.h — small helpers for the window's action sets
 * (chase, view modes, saved views, print, statistics, anomalies, cut) that
 * live outside cpel-window.c */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

static inline void
cpel_window_tools_enable (GActionMap *map,
                          const char *name,
                          gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (map, name);

  if (G_IS_SIMPLE_ACTION (action))
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

static inline void
cpel_window_tools_file_actions_update (CpelWindow *window,
                                       GParamSpec *pspec,
                                       char      **names)
{
  for (guint i = 0; names[i] != NULL; i++)
    cpel_window_tools_enable (G_ACTION_MAP (window), names[i], cpel_window_get_file (window) != NULL);
}

/* Adds `entries` to the window's actions, enabled only while it shows a
 * file (activated with the window as user data). */
static inline void
cpel_window_tools_add_file_actions (CpelWindow         *window,
                                    const GActionEntry *entries,
                                    guint               n_entries)
{
  char **names = g_new0 (char *, n_entries + 1);

  for (guint i = 0; i < n_entries; i++)
    names[i] = g_strdup (entries[i].name);
  g_action_map_add_action_entries (G_ACTION_MAP (window), entries, (gint) n_entries, window);
  g_signal_connect_data (window, "notify::file", G_CALLBACK (cpel_window_tools_file_actions_update),
                         names, (GClosureNotify) (void (*) (void)) g_strfreev, 0);
  cpel_window_tools_file_actions_update (window, NULL, names);
}

G_END_DECLS
