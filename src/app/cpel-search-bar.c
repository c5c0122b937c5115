/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-bar.c — the search bar
 *
 * Typing (debounced by GtkSearchEntry), changing the mode or the case toggle
 * compiles a CpelQuery on the main thread — a bad regex or an unknown code
 * shows an inline error — and runs it in a GTask worker with a
 * GCancellable; a newer query cancels the running one.  Progress shows only
 * when a search takes long enough to notice.
 *
 * In text mode a duration condition (`ip4-lookup dur>5us`) makes the query
 * a filter of spans (cpel_span_filter_parse ()): no worker, the session's
 * span filter while the bar is open; its spans are the matches ("n of N",
 * Enter steps through them: cpel_session_step_span_match ()).
 *
 * Keys typed right after Ctrl+F go into the entry even before the bar is on
 * screen: until the revealer has mapped the entry, GTK drops the key
 * events of an unmapped focus widget, so a controller on the window
 * (cpel_key_capture_new_search_keys) gives them to the entry.
 */
#include "cpel-search-bar-private.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "cpel-app-util.h"
#include "cpel-async.h"
#include "cpel-key-capture.h"

/* Show the progress bar when a search takes longer than this. */
#define PROGRESS_DELAY_MS 200

G_DEFINE_FINAL_TYPE (CpelSearchBar, cpel_search_bar, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_SEARCH_MODE_ENABLED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SEARCH_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The progress bar and the Stop button keep their place while hidden (only
 * faded out and inert), so that nothing in the bar moves sideways when a
 * long search shows them. */
static void
show_busy (CpelSearchBar *self,
           gboolean       busy)
{
  gtk_widget_set_opacity (GTK_WIDGET (self->progress_bar), busy ? 1.0 : 0.0);
  gtk_widget_set_opacity (GTK_WIDGET (self->cancel_button), busy ? 1.0 : 0.0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), busy);
  gtk_widget_set_can_target (GTK_WIDGET (self->cancel_button), busy);
}

gboolean
cpel_search_bar_is_busy_shown (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), FALSE);
  return gtk_widget_get_opacity (GTK_WIDGET (self->progress_bar)) > 0;
}

static void
set_status (CpelSearchBar *self,
            const char    *text)
{
  gtk_label_set_text (self->count_label, text != NULL ? text : "");
}


gboolean
_cpel_search_bar_span_filter_shown (CpelSearchBar *self)
{
  return self->span_filter != NULL && self->session != NULL
         && cpel_span_filter_equal (cpel_session_get_span_filter (self->session),
                                    self->span_filter);
}

/* The duration filter's spans highlighted while the bar is open (another's
 * span filter, a distribution's selection, left alone). */
static void
show_span_filter (CpelSearchBar *self)
{
  gboolean shown = gtk_search_bar_get_search_mode (self->search_bar);

  if (self->session == NULL)
    return;
  if (self->span_filter != NULL && shown)
    cpel_session_set_span_filter (self->session, self->span_filter);
}

static void
hide_span_filter (CpelSearchBar *self)
{
  if (_cpel_search_bar_span_filter_shown (self))
    cpel_session_set_span_filter (self->session, NULL);
}

static void
show_matches (CpelSearchBar *self)
{
  if (self->compare == NULL && self->span_filter != NULL)
    {
      if (gtk_search_bar_get_search_mode (self->search_bar))
        show_span_filter (self);
      else
        hide_span_filter (self);
    }
  if (self->compare != NULL)
    cpel_compare_search_set_shown (self->compare, gtk_search_bar_get_search_mode (self->search_bar));
  else if (self->session != NULL)
    cpel_session_set_matches (self->session, gtk_search_bar_get_search_mode (self->search_bar)
                                             ? self->visible : NULL);
}

void
_cpel_search_bar_update_status (CpelSearchBar *self)
{
  guint64 n;
  g_autofree char *total = NULL;
  g_autofree char *text = NULL;

  if (self->error != NULL)
    return;   /* the error's summary stays in the count's place */
  if (self->compare == NULL && self->span_filter != NULL)
    {
      gint64 pos;

      if (!_cpel_search_bar_span_filter_shown (self))
        {
          set_status (self, NULL);
          return;
        }
      if (cpel_session_get_spans (self->session) == NULL)
        {
          set_status (self, cpel_session_get_spans_pending (self->session)
                            ? _("Finding spans…") : _("No spans"));
          return;
        }
      cpel_session_get_span_matches (self->session, &n);
      total = cpel_format_count (n);
      pos = cpel_session_get_span_match_position (self->session);
      if (n == 0)
        text = g_strdup (_("No matches"));
      else if (pos >= 0)
        {
          g_autofree char *position = cpel_format_count ((guint64) pos + 1);

          text = g_strdup_printf (_("%s of %s"), position, total);
        }
      else
        /* TRANSLATORS: spans found by a duration filter ("ip4-lookup dur>5us") */
        text = g_strdup_printf (ngettext ("%s span", "%s spans", n), total);
      set_status (self, text);
      return;
    }
  if (self->compare != NULL)
    {
      text = cpel_compare_search_dup_status (self->compare);
      if (text != NULL && cpel_compare_search_get_n (self->compare, CPEL_COMPARE_A) == 0
          && cpel_compare_search_get_n (self->compare, CPEL_COMPARE_B) == 0)
        {
          g_free (text);
          text = g_strdup (_("No matches"));
        }
      set_status (self, text);
      return;
    }
  if (self->visible == NULL)
    {
      set_status (self, NULL);
      return;
    }
  n = cpel_search_result_get_n (self->visible);
  total = cpel_format_count (n);
  if (n == 0)
    text = g_strdup (_("No matches"));
  else if (self->current >= 0)
    {
      g_autofree char *position = cpel_format_count ((guint64) self->current + 1);
      /* TRANSLATORS: "3 of 1,024" search matches */
      text = g_strdup_printf (_("%s of %s"), position, total);
    }
  else
    text = g_strdup_printf (ngettext ("%s match", "%s matches", n), total);
  set_status (self, text);
}

/* An error stays on the bar's line: the entry turns red, the count's place
 * says what is wrong in a few words (`summary`) and the whole message is
 * the tooltip of both (and the entry's accessible description) — a line
 * of its own would push the timeline down and up again while one types a
 * pattern. */
static void
show_error (CpelSearchBar *self,
            const char    *message,
            const char    *summary)
{
  GtkWidget *entry = GTK_WIDGET (self->entry), *count = GTK_WIDGET (self->count_label);

  g_clear_pointer (&self->error, g_free);
  if (message != NULL)
    {
      self->error = g_strdup (message);
      gtk_widget_add_css_class (entry, "error");
      gtk_widget_remove_css_class (count, "dim-label");
      gtk_widget_add_css_class (count, "error");
      gtk_widget_set_tooltip_text (entry, message);
      gtk_widget_set_tooltip_text (count, message);
      gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      message, -1);
      set_status (self, summary);
    }
  else
    {
      gtk_widget_remove_css_class (entry, "error");
      gtk_widget_remove_css_class (count, "error");
      gtk_widget_add_css_class (count, "dim-label");
      gtk_widget_set_tooltip_text (entry, NULL);
      gtk_widget_set_tooltip_text (count, NULL);
      gtk_accessible_reset_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    }
}

static void
set_running (CpelSearchBar *self,
             gboolean       running)
{
  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  if (!running)
    {
      show_busy (self, FALSE);
    }
}

static gboolean
show_progress (gpointer data)
{
  CpelSearchBar *self = data;

  self->progress_timeout = 0;
  show_busy (self, TRUE);
  set_status (self, _("Searching…"));
  return G_SOURCE_REMOVE;
}

static void
on_progress (double   fraction,
             gpointer data)
{
  CpelSearchBar *self = data;

  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
}

static void
stop_running (CpelSearchBar *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->compare != NULL)
    cpel_compare_search_cancel (self->compare);
  if (self->relay != NULL)
    cpel_progress_relay_close (self->relay);
  g_clear_pointer (&self->relay, cpel_progress_relay_unref);
  set_running (self, FALSE);
}

static void
set_result (CpelSearchBar    *self,
            CpelSearchResult *result)
{
  g_clear_pointer (&self->result, cpel_search_result_unref);
  self->result = result != NULL ? cpel_search_result_ref (result) : NULL;
  self->current = -1;
  /* the same query again on a newer capture of the source followed: the
   * match stepped to keeps its place (the refilter finds it) */
  if (!self->keep_ref)
    self->current_ref.slot = G_MAXUINT;
  self->keep_ref = FALSE;
  _cpel_search_bar_refilter (self, TRUE);
  if (self->session != NULL && gtk_search_bar_get_search_mode (self->search_bar))
    show_matches (self);
  _cpel_search_bar_update_status (self);
}

/* The search settled (a result, no query, an error or a stop):
 * "search-finished"; with `step`, then the step Enter asked for while it
 * ran, else that step is dropped. */
static void
settle (CpelSearchBar *self,
        gboolean       step)
{
  if (!step)
    self->pending_step = 0;
  g_signal_emit (self, signals[SEARCH_FINISHED], 0);
  if (step && self->pending_step != 0)
    {
      int direction = self->pending_step;

      self->pending_step = 0;
      cpel_search_bar_step (self, direction);
    }
}

/* A query that did not compile, in a few words */
static const char *
query_error_summary (CpelSearchMode mode)
{
  switch (mode)
    {
    case CPEL_SEARCH_REGEX:
      return _("Invalid pattern");
    case CPEL_SEARCH_CODE:
      return _("No such event");
    default:
      return _("Search failed");
    }
}

typedef struct
{
  CpelSearchBar *self;
  guint          generation;
} SearchData;

static void
on_search_done (GObject      *source,
                GAsyncResult *res,
                gpointer      user_data)
{
  SearchData *data = user_data;
  g_autoptr(CpelSearchBar) self = data->self;
  g_autoptr(CpelSearchResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint generation = data->generation;

  g_free (data);
  result = cpel_search_finish (res, &error);
  if (generation != self->generation)
    return;   /* superseded */

  stop_running (self);
  if (result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_status (self, _("Stopped"));
      else
        show_error (self, error->message, _("Search failed"));
      settle (self, FALSE);
      return;
    }

  set_result (self, result);
  settle (self, TRUE);
}

static CpelSearchMode
get_mode (CpelSearchBar *self)
{
  switch (gtk_drop_down_get_selected (self->mode_dropdown))
    {
    case 1:
      return CPEL_SEARCH_REGEX;
    case 2:
      return CPEL_SEARCH_CODE;
    default:
      return CPEL_SEARCH_TEXT;
    }
}

/* Whether a word of `text` is a duration condition: "dur" and an
 * operator (cpel_span_filter_parse ()). */
static gboolean
has_duration_condition (const char *text)
{
  for (const char *p = text; (p = strstr (p, "dur")) != NULL; p += 3)
    {
      const char *q = p + 3;

      if (p > text && !g_ascii_isspace (p[-1]))
        continue;
      while (*q == ' ' || *q == '\t')
        q++;
      if (*q == '<' || *q == '>' || *q == '=')
        return TRUE;
    }
  return FALSE;
}

static void
start_search (CpelSearchBar *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  CpelFile *file = self->session != NULL ? cpel_session_get_file (self->session) : NULL;
  CpelSearchMode mode = get_mode (self);
  g_autoptr(GError) error = NULL;
  CpelQuery *query;
  SearchData *data;

  self->generation++;
  stop_running (self);
  g_free (self->searched_text);
  self->searched_text = g_strdup (text);
  show_error (self, NULL, NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->case_button), mode != CPEL_SEARCH_CODE);

  if (self->compare != NULL)
    {
      set_status (self, NULL);
      if (!cpel_compare_search_run (self->compare, mode, text,
                                    mode != CPEL_SEARCH_CODE && gtk_toggle_button_get_active (self->case_button),
                                    &error))
        {
          show_error (self, error->message, query_error_summary (mode));
          settle (self, FALSE);
        }
      else if (!cpel_compare_search_is_running (self->compare))
        {
          /* nothing to search: an empty text */
          _cpel_search_bar_update_status (self);
          settle (self, FALSE);
        }
      return;
    }

  /* a duration condition (text mode): a filter of spans */
  if (mode == CPEL_SEARCH_TEXT && text != NULL && has_duration_condition (text))
    {
      guint column = 0;
      g_autoptr(CpelSpanFilter) filter = cpel_span_filter_parse (text, &column, &error);

      hide_span_filter (self);
      g_clear_pointer (&self->span_filter, cpel_span_filter_free);
      set_result (self, NULL);
      if (filter == NULL)
        {
          /* TRANSLATORS: the search bar's short error for a bad duration filter */
          show_error (self, error->message, _("Not a duration filter"));
          settle (self, FALSE);
          return;
        }
      self->span_filter = g_steal_pointer (&filter);
      show_matches (self);
      _cpel_search_bar_update_status (self);
      settle (self, FALSE);
      return;
    }
  hide_span_filter (self);
  g_clear_pointer (&self->span_filter, cpel_span_filter_free);

  if (file == NULL || text == NULL || *text == '\0')
    {
      set_result (self, NULL);
      settle (self, FALSE);
      return;
    }

  query = cpel_query_new (file, mode, text,
                          mode != CPEL_SEARCH_CODE && gtk_toggle_button_get_active (self->case_button),
                          &error);
  if (query == NULL)
    {
      set_result (self, NULL);
      show_error (self, error->message, query_error_summary (mode));
      settle (self, FALSE);
      return;
    }

  self->cancellable = g_cancellable_new ();
  self->relay = cpel_progress_relay_new (on_progress, self);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  self->progress_timeout = g_timeout_add (PROGRESS_DELAY_MS, show_progress, self);

  data = g_new0 (SearchData, 1);
  data->self = g_object_ref (self);
  data->generation = self->generation;
  cpel_search_async (file, query, self->cancellable,
                     self->relay,
                     on_search_done, data);
}

static void
on_search_changed (CpelSearchBar *self)
{
  /* Not again for a text that Enter already searched (below). */
  if (!self->setting_query
      && g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->searched_text) != 0)
    start_search (self);
}

static void
on_mode_changed (CpelSearchBar *self)
{
  if (!self->setting_query)
    start_search (self);
}

/* Enter / Shift+Enter in the entry.  Typed before the entry's
 * search-changed delay has passed, the text has not been searched yet:
 * search it now; the step follows when the search finishes. */
static void
step_from_entry (CpelSearchBar *self,
                 int            direction)
{
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->searched_text) != 0)
    start_search (self);
  cpel_search_bar_step (self, direction);
}

static void
on_entry_activate (CpelSearchBar *self)
{
  step_from_entry (self, 1);
}

static void
on_entry_previous (CpelSearchBar *self)
{
  step_from_entry (self, -1);
}

static void
on_stop_search (CpelSearchBar *self)
{
  cpel_search_bar_set_search_mode (self, FALSE);
}

static void
on_cancel_clicked (CpelSearchBar *self)
{
  cpel_search_bar_cancel (self);
}

static gboolean
on_shift_enter (GtkWidget *widget,
                GVariant  *args,
                gpointer   data)
{
  step_from_entry (CPEL_SEARCH_BAR (data), -1);
  return TRUE;
}

/* ------------------------------------------------------------------------ */

GtkWidget *
cpel_search_bar_new (void)
{
  return g_object_new (CPEL_TYPE_SEARCH_BAR, NULL);
}

/* The session's (new) file holds the event stepped to at the same place:
 * the same track label, time and code. */
static gboolean
current_event_still_there (CpelSearchBar *self)
{
  CpelFile *file = self->session != NULL ? cpel_session_get_file (self->session) : NULL;
  CpelEvent event;

  if (file == NULL || self->current_track == NULL
      || self->current_ref.slot >= cpel_file_get_n_tracks (file)
      || self->current_ref.index >= cpel_file_get_track_n_events (file, self->current_ref.slot)
      || g_strcmp0 (cpel_file_get_track_label (file, self->current_ref.slot),
                    self->current_track) != 0)
    return FALSE;
  cpel_file_get_track_event (file, self->current_ref.slot, self->current_ref.index, &event);
  return event.time_ns == self->current_time && event.code == self->current_code;
}

static void
on_file_changed (CpelSearchBar *self)
{
  /* A new file: the old result means nothing; the match stepped to stays
   * where the new file holds the same event there (a newer capture of a
   * source followed: its events only grow). */
  gboolean same = current_event_still_there (self);

  self->generation++;
  stop_running (self);
  g_clear_pointer (&self->result, cpel_search_result_unref);
  g_clear_pointer (&self->searched_text, g_free);
  self->current = -1;
  self->keep_ref = same && gtk_search_bar_get_search_mode (self->search_bar);
  if (!self->keep_ref)
    self->current_ref.slot = G_MAXUINT;
  _cpel_search_bar_refilter (self, TRUE);
  _cpel_search_bar_update_status (self);
  if (gtk_search_bar_get_search_mode (self->search_bar))
    start_search (self);
}

/* The hidden event types or tracks changed (a view change, a track
 * order change): the shown matches follow. */
static void
on_filters_changed (CpelSearchBar *self)
{
  if (!_cpel_search_bar_refilter (self, FALSE))
    return;
  show_matches (self);
  _cpel_search_bar_update_status (self);
}

void
cpel_search_bar_set_session (CpelSearchBar *self,
                             CpelSession   *session)
{
  g_return_if_fail (CPEL_IS_SEARCH_BAR (self));
  g_return_if_fail (session == NULL || CPEL_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      g_signal_connect_swapped (session, "notify::file", G_CALLBACK (on_file_changed), self);
      g_signal_connect_swapped (session, "tracks-changed", G_CALLBACK (on_filters_changed), self);
      g_signal_connect_swapped (session, "types-changed", G_CALLBACK (on_filters_changed), self);
      /* the duration filter's count and position */
      g_signal_connect_swapped (session, "notify::spans",
                                G_CALLBACK (_cpel_search_bar_update_status), self);
      g_signal_connect_swapped (session, "notify::span-filter",
                                G_CALLBACK (_cpel_search_bar_update_status), self);
      g_signal_connect_swapped (session, "selection-changed",
                                G_CALLBACK (_cpel_search_bar_update_status), self);
    }
  on_file_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

CpelSession *
cpel_search_bar_get_session (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), NULL);
  return self->session;
}

static void
on_compare_finished (CpelSearchBar *self)
{
  _cpel_search_bar_update_status (self);
  settle (self, TRUE);
}

void
cpel_search_bar_set_compare (CpelSearchBar     *self,
                             CpelCompareSearch *compare)
{
  g_return_if_fail (CPEL_IS_SEARCH_BAR (self));
  g_return_if_fail (compare == NULL || CPEL_IS_COMPARE_SEARCH (compare));

  if (self->compare == compare)
    return;
  self->generation++;
  stop_running (self);
  if (self->compare != NULL)
    {
      cpel_compare_search_set_shown (self->compare, FALSE);
      g_signal_handlers_disconnect_by_data (self->compare, self);
    }
  g_set_object (&self->compare, compare);
  if (compare != NULL)
    {
      g_signal_connect_swapped (compare, "finished", G_CALLBACK (on_compare_finished), self);
      g_signal_connect_swapped (compare, "changed", G_CALLBACK (_cpel_search_bar_update_status), self);
    }
  self->pending_step = 0;
  show_error (self, NULL, NULL);
  if (gtk_search_bar_get_search_mode (self->search_bar))
    start_search (self);
  else
    {
      show_matches (self);
      _cpel_search_bar_update_status (self);
    }
}

CpelCompareSearch *
cpel_search_bar_get_compare (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), NULL);
  return self->compare;
}

gboolean
cpel_search_bar_get_search_mode (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), FALSE);
  return gtk_search_bar_get_search_mode (self->search_bar);
}

void
cpel_search_bar_set_search_mode (CpelSearchBar *self,
                                 gboolean       enabled)
{
  g_return_if_fail (CPEL_IS_SEARCH_BAR (self));

  gtk_search_bar_set_search_mode (self->search_bar, enabled);
  if (enabled)
    {
      gtk_widget_grab_focus (GTK_WIDGET (self->entry));
      gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
    }
}

void
cpel_search_bar_search (CpelSearchBar  *self,
                        CpelSearchMode  mode,
                        const char     *text,
                        gboolean        case_sensitive)
{
  guint position = mode == CPEL_SEARCH_REGEX ? 1 : mode == CPEL_SEARCH_CODE ? 2 : 0;

  g_return_if_fail (CPEL_IS_SEARCH_BAR (self));

  self->setting_query = TRUE;
  gtk_drop_down_set_selected (self->mode_dropdown, position);
  gtk_toggle_button_set_active (self->case_button, case_sensitive);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text != NULL ? text : "");
  self->setting_query = FALSE;
  start_search (self);
}

gboolean
cpel_search_bar_is_running (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), FALSE);
  return self->cancellable != NULL
         || (self->compare != NULL && cpel_compare_search_is_running (self->compare));
}

void
cpel_search_bar_cancel (CpelSearchBar *self)
{
  g_return_if_fail (CPEL_IS_SEARCH_BAR (self));
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->compare != NULL && cpel_compare_search_is_running (self->compare))
    {
      cpel_compare_search_cancel (self->compare);
      set_status (self, _("Stopped"));
      g_signal_emit (self, signals[SEARCH_FINISHED], 0);
    }
  self->pending_step = 0;
}


const char *
cpel_search_bar_get_error (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), NULL);
  return self->error;
}

const char *
cpel_search_bar_get_status (CpelSearchBar *self)
{
  g_return_val_if_fail (CPEL_IS_SEARCH_BAR (self), NULL);
  return gtk_label_get_text (self->count_label);
}


/* ------------------------------------------------------------------------ */
/* Type-ahead: keys for the entry while it is not mapped yet (Ctrl+F and
 * typing at once), given to it from the window                             */

static void
cpel_search_bar_root (GtkWidget *widget)
{
  CpelSearchBar *self = CPEL_SEARCH_BAR (widget);

  GTK_WIDGET_CLASS (cpel_search_bar_parent_class)->root (widget);

  g_assert (self->type_ahead == NULL);
  self->type_ahead = cpel_key_capture_new_search_keys (self->search_bar, GTK_EDITABLE (self->entry));
  gtk_widget_add_controller (GTK_WIDGET (gtk_widget_get_root (widget)), self->type_ahead);
}

static void
cpel_search_bar_unroot (GtkWidget *widget)
{
  CpelSearchBar *self = CPEL_SEARCH_BAR (widget);

  if (self->type_ahead != NULL)
    {
      GtkWidget *root = gtk_event_controller_get_widget (self->type_ahead);

      gtk_widget_remove_controller (root, self->type_ahead);
      self->type_ahead = NULL;
    }

  GTK_WIDGET_CLASS (cpel_search_bar_parent_class)->unroot (widget);
}

/* ------------------------------------------------------------------------ */

static void
on_search_mode_notify (CpelSearchBar *self)
{
  /* Highlights show while the bar is open; the result is kept for when it
   * opens again. */
  show_matches (self);
  /* comparing: the query is run in both when the bar opens again */
  if (self->compare != NULL && gtk_search_bar_get_search_mode (self->search_bar)
      && !cpel_compare_search_has_result (self->compare)
      && !cpel_compare_search_is_running (self->compare))
    start_search (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_MODE_ENABLED]);
}

static void
cpel_search_bar_dispose (GObject *object)
{
  CpelSearchBar *self = CPEL_SEARCH_BAR (object);

  self->generation++;
  stop_running (self);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->compare != NULL)
    g_signal_handlers_disconnect_by_data (self->compare, self);
  g_clear_object (&self->compare);
  g_clear_pointer (&self->current_track, g_free);
  g_clear_pointer (&self->result, cpel_search_result_unref);
  g_clear_pointer (&self->visible, cpel_search_result_unref);
  g_clear_pointer (&self->hidden_types_for, g_free);
  g_clear_pointer (&self->hidden_slots_for, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->searched_text, g_free);
  g_clear_pointer (&self->span_filter, cpel_span_filter_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), CPEL_TYPE_SEARCH_BAR);

  G_OBJECT_CLASS (cpel_search_bar_parent_class)->dispose (object);
}

static void
cpel_search_bar_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  CpelSearchBar *self = CPEL_SEARCH_BAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_SEARCH_MODE_ENABLED:
      g_value_set_boolean (value, gtk_search_bar_get_search_mode (self->search_bar));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_search_bar_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  CpelSearchBar *self = CPEL_SEARCH_BAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      cpel_search_bar_set_session (self, g_value_get_object (value));
      break;
    case PROP_SEARCH_MODE_ENABLED:
      cpel_search_bar_set_search_mode (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_search_bar_class_init (CpelSearchBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cpel_search_bar_dispose;
  object_class->get_property = cpel_search_bar_get_property;
  object_class->set_property = cpel_search_bar_set_property;
  widget_class->root = cpel_search_bar_root;
  widget_class->unroot = cpel_search_bar_unroot;

  /* The view state searched and highlighted in: its file, its hidden
   * tracks and types; the matches are set on it. */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, CPEL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SEARCH_MODE_ENABLED] =
    g_param_spec_boolean ("search-mode-enabled", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The search settled: a result, no query, an error or a stop (not
   * emitted for a search that a newer one replaced). */
  signals[SEARCH_FINISHED] =
    g_signal_new ("search-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-search-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelSearchBar, search_bar);
  gtk_widget_class_bind_template_child (widget_class, CpelSearchBar, entry);
  gtk_widget_class_bind_template_child (widget_class, CpelSearchBar, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CpelSearchBar, case_button);
  gtk_widget_class_bind_template_child (widget_class, CpelSearchBar, count_label);
  gtk_widget_class_bind_template_child (widget_class, CpelSearchBar, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, CpelSearchBar, cancel_button);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_mode_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_previous);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "cpelsearchbar");
}

static void
cpel_search_bar_init (CpelSearchBar *self)
{
  GtkEventController *shortcuts;
  GtkShortcut *shortcut;

  self->current = -1;
  self->current_ref.slot = G_MAXUINT;
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->entry));
  g_signal_connect_swapped (self->search_bar, "notify::search-mode-enabled",
                            G_CALLBACK (on_search_mode_notify), self);

  /* Shift+Enter: previous match. */
  shortcuts = gtk_shortcut_controller_new ();
  shortcut = gtk_shortcut_new (gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_SHIFT_MASK),
                                                            gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_SHIFT_MASK)),
                               gtk_callback_action_new (on_shift_enter, self, NULL));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), shortcuts);
}

