/* SPDX-License-Identifier: Apache-2.0 */
/* test-search-bar.c — the search bar's event-type filter */
#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-anomalies-window.h"
#include "cpel-anomaly-list.h"
#include "cpel-application.h"
#include "cpel-cut-dialog.h"
#include "cpel-event-type-row.h"
#include "cpel-event-types-window.h"
#include "cpel-print.h"
#include "cpel-stats-window.h"
#include "cpel-table.h"
#include "cpel-window.h"

/* Counts as the viewer shows them (with digit grouping). */
static char *
counted (guint64 n, const char *suffix)
{
  g_autofree char *count = cpel_format_count (n);

  return g_strconcat (count, suffix, NULL);
}

static char *
counted_after (const char *prefix, guint64 n)
{
  g_autofree char *count = cpel_format_count (n);

  return g_strconcat (prefix, count, NULL);
}

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-tools", (AppTestWriteFunc) data, 1100, 700, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

static void
test_search_types (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
  CpelFile *file = cpel_window_get_file (f->window);
  g_autofree guint8 *hidden = g_new0 (guint8, cpel_file_get_n_types (file));
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  guint slot;
  guint64 index;

  cpel_search_bar_set_search_mode (bar, TRUE);
  /* Text "2" matches sends and recvs whose datum holds a 2. */
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "2", FALSE);
  while (cpel_search_bar_is_running (bar) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  {
    guint64 all = 0, sends = 0;
    g_autofree char *all_text = NULL;
    g_autofree char *sends_text = NULL;

    for (guint64 i = 0; i < APP_TEST_REG_EVENTS; i++)
      {
        g_autofree char *label = g_strdup_printf (i % 7 == 0 ? "recv: len %u" : "send: %u", (guint) i);

        if (strchr (label, '2') != NULL)
          {
            all++;
            sends += i % 7 != 0;
          }
      }
    all_text = counted (all, " matches");
    sends_text = counted (sends, " matches");
    g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, all_text);

    /* recv hidden: its matches are neither counted nor stepped to. */
    hidden[1] = 1;
    cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
    g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, sends_text);
    cpel_session_unselect (cpel_timeline_get_session (timeline));
    for (guint k = 0; k < 40; k++)
      {
        cpel_search_bar_step (bar, 1);
        g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                                   &slot, &index));
        g_assert_cmpuint (cpel_file_get_track_event_code (file, slot, index), ==, CODE_SEND);
      }
    for (guint k = 0; k < 40; k++)
      {
        cpel_search_bar_step (bar, -1);
        g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                                   &slot, &index));
        g_assert_cmpuint (cpel_file_get_track_event_code (file, slot, index), ==, CODE_SEND);
      }
    /* Stepping shows "n of N" over the shown matches. */
    {
      g_autofree char *of = counted_after (" of ", sends);

      g_assert_true (g_str_has_suffix (cpel_search_bar_get_status (bar), of));
    }

    /* Everything hidden: no matches. */
    memset (hidden, 1, cpel_file_get_n_types (file));
    cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
    g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "No matches");

    /* Shown again: all of them ("k of N" after stepping). */
    cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), NULL);
    {
      g_autofree char *of = counted_after (" of ", all);

      g_assert_true (g_str_has_suffix (cpel_search_bar_get_status (bar), of));
    }

    /* A hidden track (thread 1): its matches are neither counted, nor
     * stepped to, nor highlighted; back when it shows again. */
    {
      CpelTrackOrder *order = cpel_session_get_track_order (cpel_timeline_get_session (timeline));
      guint64 on_1 = 0, n_hl;
      g_autofree char *of = NULL;

      for (guint64 i = 0; i < APP_TEST_REG_EVENTS; i++)
        {
          g_autofree char *label = g_strdup_printf (i % 7 == 0 ? "recv: len %u" : "send: %u", (guint) i);

          on_1 += i % APP_TEST_REG_TRACKS == 1 && strchr (label, '2') != NULL;
        }
      g_assert_cmpuint (on_1, >, 0);
      cpel_track_order_set_hidden (order, 1, TRUE);
      of = counted_after (" of ", all - on_1);
      cpel_session_unselect (cpel_timeline_get_session (timeline));
      for (guint k = 0; k < 30; k++)
        {
          cpel_search_bar_step (bar, 1);
          g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                                     &slot, &index));
          g_assert_cmpuint (slot, !=, 1);
        }
      g_assert_true (g_str_has_suffix (cpel_search_bar_get_status (bar), of));
      g_assert_nonnull (cpel_session_get_matches (cpel_timeline_get_session (timeline)));
      cpel_search_result_get_track (cpel_session_get_matches (cpel_timeline_get_session (timeline)),
                                    1, &n_hl);
      g_assert_cmpuint (n_hl, ==, 0);
      cpel_search_result_get_track (cpel_session_get_matches (cpel_timeline_get_session (timeline)),
                                    0, &n_hl);
      g_assert_cmpuint (n_hl, >, 0);

      cpel_track_order_set_hidden (order, 1, FALSE);
      cpel_search_result_get_track (cpel_session_get_matches (cpel_timeline_get_session (timeline)),
                                    1, &n_hl);
      g_assert_cmpuint (n_hl, ==, on_1);
      g_clear_pointer (&of, g_free);
      of = counted_after (" of ", all);
      g_assert_true (g_str_has_suffix (cpel_search_bar_get_status (bar), of));
    }
  }
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/search-bar");

  app = app_test_new_application ();

#define ADD(path, func, write) \
  g_test_add ("/app/search-bar/" path, Fixture, (gconstpointer) (write), fixture_setup, func, \
              fixture_teardown)
  ADD ("event-types", test_search_types, app_test_write_regular);
#undef ADD
  return app_test_run (&app);
}
