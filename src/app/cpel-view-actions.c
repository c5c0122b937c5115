/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-view-actions.c — the window's view-mode actions (see the header) */
#include "cpel-view-actions.h"

#include "cpel-window-tools.h"

static void
on_color_mode (CpelTimeline *timeline,
               GParamSpec   *pspec,
               CpelWindow   *window)
{
  const char *mode = cpel_color_mode_to_string (cpel_timeline_get_color_mode (timeline));
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (window), "color-mode");

  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (mode));
}

static void
on_summary (CpelTimeline *timeline,
            GParamSpec   *pspec,
            CpelWindow   *window)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (window), "summary-mode");

  g_simple_action_set_state (G_SIMPLE_ACTION (action),
                             g_variant_new_boolean (cpel_timeline_get_summary (timeline)));
}

static void
change_color_mode (GSimpleAction *action,
                   GVariant      *state,
                   gpointer       data)
{
  CpelColorMode mode;

  if (!cpel_color_mode_from_string (g_variant_get_string (state, NULL), &mode))
    return;
  /* The timeline's notify sets the state. */
  cpel_timeline_set_color_mode (cpel_window_get_timeline (CPEL_WINDOW (data)), mode);
}

static void
change_summary (GSimpleAction *action,
                GVariant      *state,
                gpointer       data)
{
  cpel_timeline_set_summary (cpel_window_get_timeline (CPEL_WINDOW (data)),
                             g_variant_get_boolean (state));
}

static void
action_row_height (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (CPEL_WINDOW (data));
  double step = g_str_equal (g_variant_get_string (parameter, NULL), "taller")
                ? CPEL_TIMELINE_ROW_HEIGHT_STEP : -CPEL_TIMELINE_ROW_HEIGHT_STEP;

  cpel_timeline_set_row_height (timeline, cpel_timeline_get_row_height (timeline) + step);
}

static void
action_sort_tracks (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       data)
{
  CpelTrackOrder *order = cpel_timeline_get_track_order (cpel_window_get_timeline (CPEL_WINDOW (data)));
  const char *key = g_variant_get_string (parameter, NULL);
  CpelTrackSort sort;

  if (order == NULL)
    return;
  if (g_str_equal (key, "name"))
    sort = CPEL_TRACK_SORT_NAME;
  else if (g_str_equal (key, "id"))
    sort = CPEL_TRACK_SORT_ID;
  else if (g_str_equal (key, "count"))
    sort = CPEL_TRACK_SORT_COUNT;
  else if (g_str_equal (key, "default"))
    sort = CPEL_TRACK_SORT_DEFAULT;
  else
    return;
  cpel_track_order_sort (order, sort);
}

static const GActionEntry entries[] = {
  { "color-mode", NULL, "s", "'code'", change_color_mode },
  { "summary-mode", NULL, NULL, "false", change_summary },
};

/* These act on the rows of a file. */
static const GActionEntry file_entries[] = {
  { "row-height", action_row_height, "s" },
  { "sort-tracks", action_sort_tracks, "s" },
};

void
cpel_view_actions_install (CpelWindow *window)
{
  CpelTimeline *timeline;

  g_return_if_fail (CPEL_IS_WINDOW (window));

  timeline = cpel_window_get_timeline (window);
  g_action_map_add_action_entries (G_ACTION_MAP (window), entries, G_N_ELEMENTS (entries), window);
  cpel_window_tools_add_file_actions (window, file_entries, G_N_ELEMENTS (file_entries));
  g_signal_connect_object (timeline, "notify::color-mode", G_CALLBACK (on_color_mode), window, 0);
  g_signal_connect_object (timeline, "notify::summary", G_CALLBACK (on_summary), window, 0);
  on_color_mode (timeline, NULL, window);
  on_summary (timeline, NULL, window);
}
