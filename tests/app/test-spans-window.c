/* SPDX-License-Identifier: Apache-2.0 */
/* test-spans-window.c — the Spans window: the counts of the built-in
 * rules, a rule switched off, a bad rule refused with its line and column,
 * a good one applied, the settings kept with the capture */
#include "config.h"

#include "app-test-util.h"

#include <string.h>

#include "cpel-spans-window.h"
#include "cpel-test-node-spans.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

/* Track "vpp_main": an ip4-lookup return without its call, an ip4-lookup
 * dispatch, an api-msg, and rx -> tx that no built-in rule pairs. */
static void
write_capture (const char *path)
{
  static const CpelTestNodeEvent events[] = {
    { 0, "ip4-lookup-return" }, { 10000, "ip4-lookup-call" },
    { 22000, "ip4-lookup-return" }, { 30000, "api-msg" }, { 35000, "api-msg-done" },
    { 40000, "rx" }, { 45000, "tx" }, { 50000, "end" },
  };

  cpel_test_node_events_write (path, "vpp_main", events, G_N_ELEMENTS (events));
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-spans-window", write_capture, 900, 600, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

#define SKIP_WITHOUT_DISPLAY() \
  G_STMT_START { if (app == NULL) { app_test_skip_no_display (); return; } } G_STMT_END

/* How many spans named `name` the session has. */
static guint
count_named (CpelSession *session, const char *name)
{
  CpelSpans *spans = cpel_session_get_spans (session);
  const CpelSpan *a;
  guint64 n;
  guint count = 0;

  g_assert_nonnull (spans);
  a = cpel_spans_get_track_spans (spans, 0, &n);
  for (guint64 i = 0; i < n; i++)
    if (g_str_equal (cpel_spans_get_name (spans, a[i].name), name))
      count++;
  return count;
}

static CpelSpansWindow *
find_spans_window (void)
{
  GListModel *list = gtk_window_get_toplevels ();   /* not ours */
  CpelSpansWindow *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (list, i);

      if (CPEL_IS_SPANS_WINDOW (w))
        found = CPEL_SPANS_WINDOW (w);
    }
  return found;
}

static void
test_edit (Fixture *f, gconstpointer data)
{
  CpelSession *session;
  CpelSpansWindow *win;
  CpelSpanRules *before;
  GtkTextBuffer *buffer;
  g_autofree char *sidecar = g_strconcat (f->path, ".cpelviews", NULL);
  const char *good = "# mine\nspan rx begin event=rx end event=tx\n";

  SKIP_WITHOUT_DISPLAY ();
  session = cpel_timeline_get_session (cpel_window_get_timeline (f->window));
  app_test_wait_spans (session);
  g_assert_cmpuint (count_named (session, "api-msg"), ==, 1);
  g_assert_cmpuint (count_named (session, "ip4-lookup"), ==, 2);

  /* the window menu's Spans… (Ctrl+Shift+R) */
  if (app_test_can_send_input ())
    {
      app_test_focus (GTK_WIDGET (cpel_window_get_timeline (f->window)));
      app_test_xdo ("key", "ctrl+shift+r", NULL);
    }
  else
    gtk_widget_activate_action (GTK_WIDGET (f->window), "win.spans", NULL);
  app_test_wait_until ((win = find_spans_window ()) != NULL, 10);
  g_assert_true (cpel_spans_window_get_session (win) == session);
  app_test_wait_drawn (GTK_WIDGET (win));
  g_assert_cmpuint (cpel_spans_window_get_n_builtin (win), >, 10);
  g_assert_cmpstr (cpel_spans_window_get_counts (win, "span *"), ==,
                   "2 spans · 0 without end · 1 without begin");
  g_assert_cmpstr (cpel_spans_window_get_counts (win, "span api-msg"), ==, "1 span");
  g_assert_cmpstr (cpel_spans_window_get_counts (win, "span cli-cmd"), ==, "0 spans");

  /* api-msg off: its spans go, the others stay */
  gtk_switch_set_active (cpel_spans_window_get_switch (win, "span api-msg"), FALSE);
  g_assert_null (cpel_session_get_spans (session));
  app_test_wait_spans (session);
  g_assert_cmpuint (count_named (session, "api-msg"), ==, 0);
  g_assert_cmpuint (count_named (session, "ip4-lookup"), ==, 2);
  g_assert_cmpstr (cpel_spans_window_get_counts (win, "span api-msg"), ==, "Off");
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_IS_REGULAR));

  g_test_message ("switched off");
  /* a bad rule: its line and column shown, the rules left alone */
  before = cpel_session_get_span_rules (session);
  buffer = cpel_spans_window_get_buffer (win);
  gtk_text_buffer_set_text (buffer, "# mine\nspan rx begin evnt=rx end event=tx\n", -1);
  g_assert_nonnull (strstr (cpel_spans_window_get_status (win), ":2:15: "));
  gtk_widget_activate_action (GTK_WIDGET (win), "spans.apply", NULL);
  app_test_drain ();
  g_assert_true (cpel_session_get_span_rules (session) == before);
  g_assert_nonnull (cpel_session_get_spans (session));

  /* a good one: applied, its spans appear and are counted */
  gtk_text_buffer_set_text (buffer, good, -1);
  g_assert_cmpstr (cpel_spans_window_get_status (win), ==, "Not applied yet");
  /* counted as typed, before it is applied */
  app_test_wait_until (g_str_equal (cpel_spans_window_get_status (win),
                                    "Not applied yet: 1 span"), 30);
  g_assert_true (cpel_session_get_span_rules (session) == before);
  /* Ctrl+Enter in the editor applies (no new line) */
  if (app_test_can_send_input ())
    {
      app_test_focus (app_test_find_descendant (GTK_WIDGET (win), GTK_TYPE_TEXT_VIEW));
      app_test_xdo ("key", "ctrl+Return", NULL);
    }
  else
    gtk_widget_activate_action (GTK_WIDGET (win), "spans.apply", NULL);
  g_assert_true (cpel_session_get_span_rules (session) != before);
  {
    GtkTextIter start, end;
    g_autofree char *text = NULL;

    gtk_text_buffer_get_bounds (buffer, &start, &end);
    text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
    g_assert_cmpstr (text, ==, good);
  }
  app_test_wait_spans (session);
  g_assert_cmpuint (count_named (session, "rx"), ==, 1);
  g_assert_cmpuint (count_named (session, "api-msg"), ==, 0);
  g_assert_cmpstr (cpel_spans_window_get_status (win), ==, "Applied");

  /* a switch flipped keeps your rules (in the session and the file) */
  gtk_switch_set_active (cpel_spans_window_get_switch (win, "span cli-cmd"), FALSE);
  app_test_wait_spans (session);
  g_assert_cmpstr (cpel_span_rules_get_user_text (cpel_session_get_span_rules (session)), ==,
                   good);
  g_assert_cmpstr (cpel_views_get_span_rules_text (cpel_session_get_views (session)), ==, good);
  gtk_switch_set_active (cpel_spans_window_get_switch (win, "span cli-cmd"), TRUE);
  app_test_wait_spans (session);
  g_assert_cmpuint (count_named (session, "rx"), ==, 1);

  g_test_message ("applied");
  /* the capture again, in a window of its own: the settings come back
   * from its views file */
  {
    CpelWindow *other = cpel_window_new (app);
    CpelSession *again = cpel_timeline_get_session (cpel_window_get_timeline (other));

    gtk_window_present (GTK_WINDOW (other));
    app_test_open_and_wait (other, f->path);
    app_test_wait_spans (again);
    g_assert_cmpstr (cpel_span_rules_get_user_text (cpel_session_get_span_rules (again)), ==,
                     good);
    g_assert_cmpuint (count_named (again, "rx"), ==, 1);
    g_assert_cmpuint (count_named (again, "api-msg"), ==, 0);
    g_assert_cmpuint (count_named (again, "ip4-lookup"), ==, 2);
    gtk_window_destroy (GTK_WINDOW (other));
  }

  /* the views file changed elsewhere and read again (win.load-views, `l`):
   * its settings apply */
  {
    g_autoptr(CpelViews) elsewhere = cpel_views_new (f->path);
    g_autoptr(GError) error = NULL;

    g_assert_true (cpel_views_load (elsewhere, &error));
    cpel_views_set_span_settings (elsewhere, NULL, NULL);
    g_assert_true (cpel_views_save (elsewhere, &error));
    g_assert_no_error (error);
    gtk_widget_activate_action (GTK_WIDGET (f->window), "win.load-views", NULL);
    g_assert_null (cpel_span_rules_get_user_text (cpel_session_get_span_rules (session)));
    app_test_wait_spans (session);
    g_assert_cmpuint (count_named (session, "api-msg"), ==, 1);
    g_assert_cmpuint (count_named (session, "rx"), ==, 0);
    app_test_wait_until (g_str_equal (cpel_spans_window_get_counts (win, "span api-msg"),
                                      "1 span"), 10);
    g_assert_true (gtk_switch_get_active (cpel_spans_window_get_switch (win, "span api-msg")));
  }
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/spans-window");
  app = app_test_new_application ();
  g_test_add ("/app/spans-window/edit", Fixture, NULL, fixture_setup, test_edit,
              fixture_teardown);
  return app_test_run (&app);
}
