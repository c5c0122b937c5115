/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window.c — a viewer window: one file, its timeline, search and details */
#include "cpel-window-private.h"

#include "cpel-keycaps.h"

#include <glib/gi18n.h>

#include "cpel-app-util.h"
#include "cpel-async.h"
#include "cpel-key-capture.h"
#include "cpel-settings.h"
#include "cpel-tracks-window.h"

G_DEFINE_FINAL_TYPE (CpelWindow, cpel_window, ADW_TYPE_APPLICATION_WINDOW)

enum
{
  PROP_0,
  PROP_FILE,
  PROP_LOADING,
  PROP_SHOW_DETAILS,
  PROP_COLOR_MODE,
  PROP_SUMMARY_MODE,
  PROP_SHOW_SPANS,
  PROP_CAPTURE_CLOCK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GSettings *
_cpel_window_get_settings (CpelWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!CPEL_IS_APPLICATION (app))
    return NULL;
  return cpel_application_get_settings (CPEL_APPLICATION (app));
}

char *
_cpel_window_display_name (GFile *location)
{
  g_autofree char *basename = NULL;

  if (location == NULL)
    return g_strdup (_("Untitled"));
  basename = g_file_get_basename (location);
  return g_filename_display_name (basename != NULL ? basename : "");
}

void
_cpel_window_notify_loading (CpelWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/* ------------------------------------------------------------------------ */
/* Status line and details                                                    */

/* Times on a status line, as precise as a pixel of a view of [t0, t1)
 * `pixels` wide (the single view's and the compare view's); on a capture's
 * clock when `clock` is one (`origin`: its reading at 0; the wall clock's
 * date only when `date`, in UTC). */
char *
_cpel_window_format_status_time (CpelFile      *file,
                                 CpelClockKind  clock,
                                 gint64         origin,
                                 gint64         t,
                                 gint64         t0,
                                 gint64         t1,
                                 double         pixels,
                                 gboolean       date)
{
  pixels = MAX (pixels, 1.0);
  if (clock != CPEL_CLOCK_NONE)
    {
      guint decimals = cpel_render_clock_decimals (cpel_render_ruler_step (t0, t1, pixels, 1.0));
      char buf[64];

      cpel_time_format_clock_to (clock, origin + t, decimals, !date, buf, sizeof buf);
      return clock == CPEL_CLOCK_SECONDS ? g_strdup_printf ("%s s", buf) : g_strdup (buf);
    }
  return cpel_render_format_tick_kind (t, cpel_render_ruler_step (t0, t1, pixels, 1.0),
                                       MAX (ABS (t0), ABS (t1)),
                                       file != NULL ? cpel_file_get_time_kind (file)
                                                    : CPEL_TIME_KIND_NS);
}

char *
_cpel_window_range_text (CpelFile      *file,
                         CpelClockKind  clock,
                         gint64         origin,
                         gint64         t0,
                         gint64         t1,
                         double         pixels)
{
  g_autofree char *a = _cpel_window_format_status_time (file, clock, origin, t0, t0, t1, pixels,
                                                        TRUE);
  g_autofree char *b = _cpel_window_format_status_time (file, clock, origin, t1, t0, t1, pixels,
                                                        FALSE);
  g_autofree char *span = cpel_time_format_kind (t1 - t0, cpel_file_get_time_kind (file));

  if (clock == CPEL_CLOCK_WALL)
    /* TRANSLATORS: the visible range on the wall clock: start – end UTC (span) */
    return g_strdup_printf (_("%s – %s UTC (%s)"), a, b, span);
  /* TRANSLATORS: the visible range: start – end (span) */
  return g_strdup_printf (_("%s – %s (%s)"), a, b, span);
}

char *
_cpel_window_cursor_text (CpelFile      *file,
                          CpelClockKind  clock,
                          gint64         origin,
                          gint64         t,
                          gint64         t0,
                          gint64         t1,
                          double         pixels)
{
  g_autofree char *time = _cpel_window_format_status_time (file, clock, origin, t, t0, t1,
                                                           pixels, FALSE);

  /* TRANSLATORS: time under the pointer */
  return g_strdup_printf (_("Cursor %s"), time);
}

char *
_cpel_window_delta_text (CpelFile *file,
                         gint64    dt)
{
  g_autofree char *text = cpel_time_format_kind (dt, cpel_file_get_time_kind (file));
  char buf[32];

  g_strlcpy (buf, text, sizeof buf);
  return g_strdup (buf);
}

/* The single view's timeline width, for the precision of its times. */
static double
view_pixels (CpelWindow *self)
{
  return gtk_widget_get_width (GTK_WIDGET (self->timeline))
         - cpel_timeline_get_label_width (self->timeline);
}

static void
update_range_label (CpelWindow *self)
{
  const CpelRange *range = cpel_session_get_range (self->session);
  g_autofree char *text = NULL;
  gint64 origin = 0;
  CpelClockKind clock;

  if (self->file == NULL)
    {
      gtk_label_set_text (self->range_label, "");
      return;
    }
  clock = cpel_session_get_time_clock (self->session, &origin);
  text = _cpel_window_range_text (self->file, clock, origin, range->t0, range->t1,
                                  view_pixels (self));
  gtk_label_set_text (self->range_label, text);
}

static void
update_pointer_labels (CpelWindow *self)
{
  const CpelRange *range = cpel_session_get_range (self->session);
  gint64 t, m0, m1;
  guint64 count;

  if (self->file != NULL && cpel_timeline_get_cursor_time (self->timeline, &t))
    {
      gint64 origin = 0;
      CpelClockKind clock = cpel_session_get_time_clock (self->session, &origin);
      g_autofree char *text = _cpel_window_cursor_text (self->file, clock, origin, t, range->t0,
                                                        range->t1, view_pixels (self));

      gtk_label_set_text (self->cursor_label, text);
    }
  else
    gtk_label_set_text (self->cursor_label, "");

  if (self->file != NULL && cpel_timeline_get_measure (self->timeline, &m0, &m1, &count))
    {
      g_autofree char *n = cpel_format_count (count);
      g_autofree char *text = NULL;
      g_autofree char *dt = _cpel_window_delta_text (self->file, m1 - m0);

      /* TRANSLATORS: a measured interval and the number of events in it */
      text = g_strdup_printf (ngettext ("Δt %s · %s event", "Δt %s · %s events", count), dt, n);
      gtk_label_set_text (self->measure_label, text);
    }
  else
    gtk_label_set_text (self->measure_label, "");
}

/* The details pane shows the single view's selected event, or while
 * comparing the compare pane's (its side selected last). */
static void
update_details (CpelWindow *self)
{
  guint slot;
  guint64 index;
  CpelSessionSpanRef ref;

  cpel_details_set_labels (self->details, cpel_session_get_labels (self->session));
  if (cpel_window_is_comparing (self))
    {
      CpelCompareSide side;

      if (cpel_compare_pane_get_selection (self->compare.pane, &side, &slot, &index))
        {
          CpelFile *file = side == CPEL_COMPARE_A
                           ? cpel_compare_pane_get_file_a (self->compare.pane)
                           : cpel_compare_pane_get_file_b (self->compare.pane);

          /* the headline by the formats of the event's own capture */
          if (self->compare.labels_b != NULL
              && cpel_labels_get_file (self->compare.labels_b) == file)
            cpel_details_set_labels (self->details, self->compare.labels_b);
          cpel_details_set_event (self->details, file, slot, index);
        }
      else
        cpel_details_clear (self->details);
    }
  else if (self->file != NULL && cpel_session_get_selection (self->session, &slot, &index))
    cpel_details_set_event (self->details, self->file, slot, index);
  else if (self->file != NULL && cpel_session_get_span_selection (self->session, &ref) != NULL)
    cpel_details_set_span (self->details, self->file, cpel_session_get_spans (self->session),
                           ref.slot, ref.state, ref.index);
  else
    cpel_details_clear (self->details);
}

void
_cpel_window_update_details (CpelWindow *self)
{
  update_details (self);
}

/* The details pane beside the view or the compare view (not beside the
 * empty, loading or no-events pages). */
static void
update_details_revealed (CpelWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (self->main_stack);

  gtk_revealer_set_reveal_child (self->details_revealer,
                                 self->show_details
                                 && (g_strcmp0 (page, "view") == 0
                                     || g_strcmp0 (page, "compare") == 0));
}

static void
on_main_page_changed (CpelWindow *self)
{
  update_details_revealed (self);
  update_details (self);
}

/* ------------------------------------------------------------------------ */
/* Files                                                                      */

CpelWindow *
cpel_window_new (CpelApplication *application)
{
  CpelWindow *self = g_object_new (CPEL_TYPE_WINDOW, "application", application, NULL);
  GSettings *settings = _cpel_window_get_settings (self);
  gboolean show_details;

  /* Restore what the settings remember (nothing without a schema). */
  gtk_window_set_default_size (GTK_WINDOW (self),
                               cpel_settings_get_int (settings, "window-width", 1100),
                               cpel_settings_get_int (settings, "window-height", 700));
  if (cpel_settings_get_boolean (settings, "window-maximized", FALSE))
    gtk_window_maximize (GTK_WINDOW (self));
  show_details = cpel_settings_get_boolean (settings, "details-visible", FALSE);
  _cpel_window_set_show_details (self, show_details);

  if (application != NULL)
    g_menu_append_section (self->recent_submenu, NULL,
                           cpel_application_get_recent_menu (application));
  return self;
}

/* "1,234 events · 12 tracks", and what the view leaves out: "· 5 of 12
 * tracks shown", "· 2 event types hidden" (a filter is easy to forget). */
static void
update_subtitle (CpelWindow *self)
{
  CpelFile *file = self->file;
  const CpelView *view;
  const guint8 *hidden_types;
  guint n_tracks, n_shown, n_hidden_types = 0;
  g_autofree char *events = NULL;
  g_autofree char *tracks = NULL;
  g_autofree char *events_text = NULL;
  g_autofree char *tracks_text = NULL;
  g_autofree char *subtitle = NULL;

  if (file == NULL || cpel_window_is_comparing (self))
    return;   /* comparing: _cpel_window_update_title() says both */
  view = cpel_timeline_get_view (self->timeline);
  n_tracks = cpel_file_get_n_tracks (file);
  n_shown = view != NULL ? cpel_view_get_n_rows (view) : n_tracks;
  hidden_types = cpel_session_get_hidden_types (self->session);
  for (guint t = 0; hidden_types != NULL && t < cpel_file_get_n_types (file); t++)
    n_hidden_types += hidden_types[t] != 0;
  if (file == self->subtitle_file && n_shown == self->subtitle_shown
      && n_hidden_types == self->subtitle_hidden_types)
    return;   /* a scroll or a zoom: nothing to say anew */
  self->subtitle_file = file;
  self->subtitle_shown = n_shown;
  self->subtitle_hidden_types = n_hidden_types;

  events = cpel_format_count (cpel_file_get_n_events (file));
  tracks = cpel_format_count (n_tracks);
  events_text = g_strdup_printf (ngettext ("%s event", "%s events",
                                           cpel_file_get_n_events (file)), events);
  if (n_shown < n_tracks)
    {
      g_autofree char *shown = cpel_format_count (n_shown);

      /* TRANSLATORS: window subtitle: "5 of 12 tracks shown" */
      tracks_text = g_strdup_printf (ngettext ("%s of %s track shown", "%s of %s tracks shown", n_tracks),
                                     shown, tracks);
    }
  else
    tracks_text = g_strdup_printf (ngettext ("%s track", "%s tracks", n_tracks), tracks);
  /* TRANSLATORS: window subtitle: "1,234 events · 12 tracks" */
  subtitle = g_strdup_printf (_("%s · %s"), events_text, tracks_text);
  if (n_hidden_types > 0)
    {
      g_autofree char *n = cpel_format_count (n_hidden_types);
      g_autofree char *types = g_strdup_printf (ngettext ("%s event type hidden", "%s event types hidden",
                                                          n_hidden_types), n);
      g_autofree char *longer = g_strdup_printf (_("%s · %s"), subtitle, types);

      g_free (subtitle);
      subtitle = g_steal_pointer (&longer);
    }
  if (g_strcmp0 (adw_window_title_get_subtitle (self->window_title), subtitle) != 0)
    adw_window_title_set_subtitle (self->window_title, subtitle);
}

/* A's name: the file's, or its path when it has no location. */
char *
_cpel_window_name_a (CpelWindow *self)
{
  if (self->location != NULL)
    return _cpel_window_display_name (self->location);
  if (self->file != NULL && g_strcmp0 (cpel_file_get_path (self->file), "-") == 0)
    return g_strdup (_("Standard Input"));   /* followed: cpelview --follow - */
  if (self->file != NULL && cpel_file_get_path (self->file) != NULL)
    return g_strdup (cpel_file_get_path (self->file));
  return g_strdup (_("Untitled"));
}

/* The title names the capture shown; comparing, both ("a.cpel — b.cpel",
 * A first as in the panes) with each one's events in the subtitle. */
void
_cpel_window_update_title (CpelWindow *self)
{
  g_autofree char *title = NULL;

  if (self->file == NULL)
    return;
  if (cpel_window_is_comparing (self))
    {
      const CpelCompareView *view = cpel_compare_pane_get_view (self->compare.pane);
      g_autofree char *count_a = cpel_format_count (cpel_file_get_n_events (view->a.file));
      g_autofree char *count_b = cpel_format_count (cpel_file_get_n_events (view->b.file));
      g_autofree char *events_a = NULL;
      g_autofree char *events_b = NULL;
      g_autofree char *subtitle = NULL;

      /* TRANSLATORS: window title while comparing: "before.cpel — after.cpel" */
      title = g_strdup_printf (_("%s — %s"), view->name_a, view->name_b);
      /* TRANSLATORS: part of the subtitle while comparing: "A: 1,234 events" */
      events_a = g_strdup_printf (ngettext ("A: %s event", "A: %s events",
                                            cpel_file_get_n_events (view->a.file)), count_a);
      /* TRANSLATORS: part of the subtitle while comparing: "B: 1,234 events" */
      events_b = g_strdup_printf (ngettext ("B: %s event", "B: %s events",
                                            cpel_file_get_n_events (view->b.file)), count_b);
      subtitle = g_strdup_printf (_("%s · %s"), events_a, events_b);
      adw_window_title_set_subtitle (self->window_title, subtitle);
      self->subtitle_file = NULL;   /* the single view's subtitle is written anew */
    }
  else
    {
      title = _cpel_window_name_a (self);
      update_subtitle (self);
    }
  adw_window_title_set_title (self->window_title, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* The Tracks and Event Types windows edit the timeline's track order and
 * types of one file: a new file (a reload too) gets new ones, open again
 * where they were open. */
static void
close_tool (GtkWindow **slot,
            gboolean   *was_open)
{
  GtkWindow *window = *slot;

  *was_open = window != NULL && gtk_widget_get_visible (GTK_WIDGET (window));
  if (window == NULL)
    return;
  g_object_remove_weak_pointer (G_OBJECT (window), (gpointer *) slot);
  *slot = NULL;
  gtk_window_destroy (window);
}

void
_cpel_window_present_tool (CpelWindow  *self,
                           GtkWindow  **slot,
                           GtkWindow  *(*create) (CpelWindow *self))
{
  if (self->file == NULL)
    return;
  if (*slot == NULL)
    {
      *slot = create (self);
      g_object_add_weak_pointer (G_OBJECT (*slot), (gpointer *) slot);
    }
  gtk_window_present (*slot);
}

const char *
_cpel_window_view_page (CpelWindow *self)
{
  /* following: what the source says until its first events */
  if (self->follow.capture != NULL
      && (self->file == NULL || cpel_file_get_n_events (self->file) == 0))
    return "waiting";
  if (self->file == NULL)
    return "empty";
  return cpel_file_get_n_events (self->file) == 0 ? "no-events" : "view";
}

/* A capture without events: a page that says so (and why, when its source
 * tells), not empty rows on a ruler of no span. */
static void
update_no_events_page (CpelWindow *self)
{
  const char *reason;

  if (self->file == NULL || cpel_file_get_n_events (self->file) > 0)
    return;
  reason = cpel_file_get_source_value (self->file, "empty-reason");
  adw_status_page_set_description (self->no_events_page,
                                   reason != NULL && *reason != '\0'
                                   ? reason
                                   : _("The file was read without errors, but it holds no "
                                       "events to show."));
}

void
_cpel_window_on_ticks_bar_response (CpelWindow *self,
                                    int         response)
{
  gtk_info_bar_set_revealed (self->ticks_bar, FALSE);
}

gboolean
cpel_window_is_ticks_bar_shown (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return gtk_info_bar_get_revealed (self->ticks_bar);
}

void
cpel_window_set_file (CpelWindow   *self,
                      CpelFile     *file,
                      CpelOverview *overview,
                      GFile        *location)
{
  GSettings *settings;
  gboolean tracks_open, types_open;

  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (CPEL_IS_FILE (file));

  /* a file replaced before its first frame still gets its cache */
  if (self->file != NULL && self->file != file)
    cpel_store_index_async (self->file);
  g_set_object (&self->file, file);
  g_set_object (&self->location, location);

  /* The first frame is drawn first; the summaries of the tracks it does
   * not show are built meanwhile, before anyone scrolls to them. */
  if (self->lod_cancellable != NULL)
    g_cancellable_cancel (self->lod_cancellable);
  g_clear_object (&self->lod_cancellable);
  self->lod_cancellable = g_cancellable_new ();
  cpel_prepare_lod_async (file, self->lod_cancellable);

  settings = _cpel_window_get_settings (self);
  close_tool (&self->tracks, &tracks_open);
  close_tool (&self->event_types, &types_open);
  cpel_timeline_set_file_full (self->timeline, file, overview);
  cpel_timeline_set_label_width (self->timeline,
                                 cpel_settings_get_int (settings, "label-width", 160));

  /* No crossfade into the capture: its first frame is the whole capture,
   * not a blend with the page before that lasts another 200 ms (and costs
   * every frame in between twice). */
  update_no_events_page (self);
  /* Times in ticks of an unknown rate: said above them, with the way out. */
  gtk_info_bar_set_revealed (self->ticks_bar,
                             cpel_file_get_time_kind (file) == CPEL_TIME_KIND_TICKS);
  gtk_stack_set_visible_child_full (self->main_stack, _cpel_window_view_page (self),
                                    GTK_STACK_TRANSITION_TYPE_NONE);
  _cpel_window_update_title (self);
  update_range_label (self);
  update_pointer_labels (self);
  update_details (self);
  if (!self->follow.updating)   /* a newer capture of the one followed: the focus stays */
    gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
  if (types_open)
    _cpel_window_present_tool (self, &self->event_types, _cpel_window_new_event_types);
  if (tracks_open)
    _cpel_window_present_tool (self, &self->tracks, _cpel_window_new_tracks);

  /* The window's parts follow the new file, before anyone else hears of it. */
  _cpel_window_chase_file_changed (self);
  _cpel_window_views_file_changed (self);
  _cpel_window_watch_file_changed (self);
  _cpel_window_follow_file_changed (self);
  _cpel_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);

  /* Problems that did not stop the load are listed in File Information:
   * say that there are some. */
  {
    const char * const *warnings = cpel_file_get_warnings (file);
    guint n = warnings != NULL ? g_strv_length ((char **) warnings) : 0;

    if (n > 0)
      {
        g_autofree char *text = g_strdup_printf (ngettext ("The file has %u warning",
                                                           "The file has %u warnings", n), n);

        cpel_toaster_show_full (self->toaster, text, CPEL_TOASTER_TIMEOUT,
                                _("Details"), "win.file-info", NULL);
      }
  }
}

CpelFile *
cpel_window_get_file (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->file;
}

GFile *
cpel_window_get_location (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->location;
}

/* ------------------------------------------------------------------------ */

/* The track scrollbar shows only when there is something to scroll (its
 * width does not change the page height: no feedback loop).  The
 * adjustment changes while the timeline is being allocated, so the
 * scrollbar's visibility follows in an idle, outside the layout. */
static gboolean
update_scrollbar_idle (gpointer data)
{
  CpelWindow *self = data;
  GtkAdjustment *adj = cpel_timeline_get_vadjustment (self->timeline);

  self->scrollbar_idle = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->vscrollbar),
                          gtk_adjustment_get_upper (adj) - gtk_adjustment_get_lower (adj)
                          > gtk_adjustment_get_page_size (adj) + 0.5);
  return G_SOURCE_REMOVE;
}

static void
update_scrollbar (CpelWindow *self)
{
  if (self->scrollbar_idle == 0)
    self->scrollbar_idle = g_idle_add (update_scrollbar_idle, self);
}

void
_cpel_window_set_show_details (CpelWindow *self,
                               gboolean    show)
{
  gboolean changed = self->show_details != !!show;

  self->show_details = !!show;
  update_details_revealed (self);
  cpel_settings_set_boolean (_cpel_window_get_settings (self), "details-visible", show);
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_DETAILS]);
}

/* g2's `c` and `e` leave a trace: the status line names the display modes
 * that are not the default in the Display menu's words ("Summary · Colored
 * by track"), in the accent colour, with a tooltip saying which key turns
 * each back. */
static void
update_modes (CpelWindow *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) tip = g_string_new (NULL);

  if (cpel_session_get_summary (self->session))
    {
      g_string_append (text, _("Summary"));
      g_string_append (tip, _("Summary mode: each row a histogram of its events, no labels (e)"));
    }
  switch (cpel_session_get_color_mode (self->session))
    {
    case CPEL_COLOR_BY_TRACK:
      g_string_append (text, text->len > 0 ? " · " : "");
      g_string_append (text, _("Colored by track"));
      g_string_append (tip, tip->len > 0 ? "\n" : "");
      g_string_append (tip, _("Events colored by track (c)"));
      break;
    case CPEL_COLOR_NONE:
      g_string_append (text, text->len > 0 ? " · " : "");
      g_string_append (text, _("Monochrome"));
      g_string_append (tip, tip->len > 0 ? "\n" : "");
      g_string_append (tip, _("Events in one color (c)"));
      break;
    case CPEL_COLOR_BY_CODE:
    default:
      break;
    }
  if (cpel_session_get_time_clock (self->session, NULL) != CPEL_CLOCK_NONE)
    {
      g_string_append (text, text->len > 0 ? " · " : "");
      g_string_append (text, _("Capture clock"));
      g_string_append (tip, tip->len > 0 ? "\n" : "");
      g_string_append (tip, _("Times on the capture’s own clock (Display ▸ Capture Clock)"));
    }
  gtk_label_set_text (self->modes_label, text->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->modes_label), tip->len > 0 ? tip->str : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->modes_label), text->len > 0);
}

static void
on_color_mode_changed (CpelWindow *self)
{
  update_modes (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_MODE]);
}

static void
on_summary_changed (CpelWindow *self)
{
  update_modes (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUMMARY_MODE]);
}

/* The status line's clock toggle says why it cannot be used. */
static void
update_clock_button (CpelWindow *self)
{
  gboolean has = cpel_session_has_capture_clock (self->session);

  gtk_widget_set_tooltip_text (self->clock_button,
                               has ? _("Show times on the capture’s own clock (perf: seconds "
                                       "since boot, as perf script prints them; wall clocks "
                                       "in UTC)")
                                   : _("This capture does not say what its clock read: times "
                                       "count from its first event"));
}

static void
on_capture_clock_changed (CpelWindow *self)
{
  update_modes (self);
  update_range_label (self);
  update_pointer_labels (self);
  update_clock_button (self);
  _cpel_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAPTURE_CLOCK]);
}

static void
on_show_spans_changed (CpelWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SPANS]);
}

static void
on_search_mode_changed (CpelWindow *self)
{
  /* Closing the search bar gives the keyboard back to the timeline. */
  if (!cpel_search_bar_get_search_mode (self->search_bar) && self->file != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

static gboolean
cpel_window_close_request (GtkWindow *window)
{
  CpelWindow *self = CPEL_WINDOW (window);
  GSettings *settings = _cpel_window_get_settings (self);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  cpel_settings_set_int (settings, "window-width", width);
  cpel_settings_set_int (settings, "window-height", height);
  cpel_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
  if (self->file != NULL)
    cpel_settings_set_int (settings, "label-width",
                           (int) cpel_timeline_get_label_width (self->timeline));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  cpel_search_bar_cancel (self->search_bar);

  return GTK_WINDOW_CLASS (cpel_window_parent_class)->close_request (window);
}

static void
cpel_window_dispose (GObject *object)
{
  CpelWindow *self = CPEL_WINDOW (object);

  /* Nothing running may call back into the window: loads, the chase's
   * lookup, a cut, a reload, the file monitor. */
  _cpel_window_load_dispose (self);
  _cpel_window_chase_dispose (self);
  _cpel_window_views_dispose (self);
  _cpel_window_cut_dispose (self);
  _cpel_window_watch_dispose (self);
  _cpel_window_follow_dispose (self);
  _cpel_window_compare_dispose (self);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->export_suggested, g_free);
  {
    gboolean was_open;

    close_tool (&self->event_types, &was_open);
    close_tool (&self->tracks, &was_open);
  }
  /* Statistics and Anomalies close with the window (cpel_close_with_parent). */
  g_clear_weak_pointer (&self->statistics);
  if (self->spans != NULL)
    {
      GtkWindow *spans = self->spans;

      g_clear_weak_pointer (&self->spans);
      gtk_window_destroy (spans);
    }
  g_clear_weak_pointer (&self->anomalies);

  if (self->timeline != NULL)
    {
      g_signal_handlers_disconnect_by_data (cpel_timeline_get_vadjustment (self->timeline), self);
      g_signal_handlers_disconnect_by_data (self->timeline, self);
    }
  g_clear_handle_id (&self->scrollbar_idle, g_source_remove);
  g_clear_object (&self->toaster);
  gtk_widget_dispose_template (GTK_WIDGET (self), CPEL_TYPE_WINDOW);

  g_clear_object (&self->file);
  g_clear_object (&self->location);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (cpel_window_parent_class)->dispose (object);
}

static void
cpel_window_finalize (GObject *object)
{
  CpelWindow *self = CPEL_WINDOW (object);

  _cpel_window_views_finalize (self);
  _cpel_window_watch_finalize (self);

  G_OBJECT_CLASS (cpel_window_parent_class)->finalize (object);
}

static void
cpel_window_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CpelWindow *self = CPEL_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->load_cancellable != NULL);
      break;
    case PROP_SHOW_DETAILS:
      g_value_set_boolean (value, self->show_details);
      break;
    case PROP_COLOR_MODE:
      /* Asked for by the property action also before and after the template. */
      g_value_set_enum (value, self->session != NULL ? cpel_session_get_color_mode (self->session)
                                                     : CPEL_COLOR_BY_CODE);
      break;
    case PROP_SUMMARY_MODE:
      g_value_set_boolean (value,
                           self->session != NULL && cpel_session_get_summary (self->session));
      break;
    case PROP_SHOW_SPANS:
      g_value_set_boolean (value,
                           self->session == NULL || cpel_session_get_show_spans (self->session));
      break;
    case PROP_CAPTURE_CLOCK:
      g_value_set_boolean (value,
                           self->session != NULL && cpel_session_get_capture_clock (self->session));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_window_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  CpelWindow *self = CPEL_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SHOW_DETAILS:
      _cpel_window_set_show_details (self, g_value_get_boolean (value));
      break;
    case PROP_COLOR_MODE:
      /* The session's notify tells. */
      if (self->session != NULL)
        cpel_session_set_color_mode (self->session, g_value_get_enum (value));
      break;
    case PROP_SUMMARY_MODE:
      if (self->session != NULL)
        cpel_session_set_summary (self->session, g_value_get_boolean (value));
      break;
    case PROP_SHOW_SPANS:
      if (self->session != NULL)
        cpel_session_set_show_spans (self->session, g_value_get_boolean (value));
      break;
    case PROP_CAPTURE_CLOCK:
      if (self->session != NULL)
        cpel_session_set_capture_clock (self->session, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_window_class_init (CpelWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cpel_window_dispose;
  object_class->finalize = cpel_window_finalize;
  object_class->get_property = cpel_window_get_property;
  object_class->set_property = cpel_window_set_property;
  window_class->close_request = cpel_window_close_request;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, CPEL_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The details pane is shown (win.show-details; remembered). */
  properties[PROP_SHOW_DETAILS] =
    g_param_spec_boolean ("show-details", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The timeline's colour and summary modes (win.color-mode, win.summary-mode). */
  properties[PROP_COLOR_MODE] =
    g_param_spec_enum ("color-mode", NULL, NULL, CPEL_TYPE_COLOR_MODE, CPEL_COLOR_BY_CODE,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SUMMARY_MODE] =
    g_param_spec_boolean ("summary-mode", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Spans and states drawn in the rows (win.show-spans). */
  properties[PROP_SHOW_SPANS] =
    g_param_spec_boolean ("show-spans", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Times on the capture's own clock (win.capture-clock). */
  properties[PROP_CAPTURE_CLOCK] =
    g_param_spec_boolean ("capture-clock", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CPEL_TYPE_TIMELINE);
  g_type_ensure (CPEL_TYPE_OVERVIEW_STRIP);
  g_type_ensure (CPEL_TYPE_DETAILS);
  g_type_ensure (CPEL_TYPE_SEARCH_BAR);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, details_button);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, open_section);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, recent_submenu);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, reload_bar);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, reload_label);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, reload_button);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, load_progress);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, ticks_bar);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, ticks_label);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, no_events_button);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, no_events_page);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, loading_progress);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, vscrollbar);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, details_revealer);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, details);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, range_label);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, cursor_label);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, measure_label);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, modes_label);
  gtk_widget_class_bind_template_child (widget_class, CpelWindow, clock_button);
  gtk_widget_class_bind_template_callback (widget_class, _cpel_window_on_reload_bar_response);
  gtk_widget_class_bind_template_callback (widget_class, _cpel_window_on_ticks_bar_response);

  _cpel_window_class_actions_init (klass);
  _cpel_window_follow_class_init (klass);
}

static void
create_primary_menu (GtkMenuButton *button,
                     gpointer       data)
{
  CpelWindow *self = data;

  /* asked again each time it opens: made once */
  if (gtk_menu_button_get_popover (button) == NULL)
    gtk_menu_button_set_menu_model (button, self->primary_menu);
}

static void
cpel_window_init (CpelWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* A build without a folder format (CTF) offers no "Open Folder…" */
  if (!_cpel_window_can_open_folders ())
    g_menu_remove (self->open_section, 1);
  /* The main menu's popover is made when it first opens: its items' widgets
   * are not worth building before the first frame. */
  gtk_menu_button_set_create_popup_func (self->menu_button, create_primary_menu, self, NULL);
  /* The view state the timeline and the tool windows share. */
  self->session = cpel_session_new ();
  cpel_timeline_set_session (self->timeline, self->session);
  self->toaster = cpel_toaster_new (self->toast_overlay);

  _cpel_window_watch_init (self);
  _cpel_window_follow_init (self);

  cpel_search_bar_set_session (self->search_bar, self->session);
  _cpel_window_add_timeline_keys (self);
  cpel_key_capture_install (GTK_WINDOW (self), GTK_WIDGET (self->timeline));
  gtk_scrollbar_set_adjustment (self->vscrollbar, cpel_timeline_get_vadjustment (self->timeline));
  g_signal_connect_swapped (cpel_timeline_get_vadjustment (self->timeline), "changed",
                            G_CALLBACK (update_scrollbar), self);
  update_scrollbar (self);

  g_object_bind_property (self->search_button, "active",
                          self->search_bar, "search-mode-enabled",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->search_bar, "notify::search-mode-enabled",
                            G_CALLBACK (on_search_mode_changed), self);

  g_signal_connect_swapped (self->timeline, "view-changed",
                            G_CALLBACK (update_range_label), self);
  g_signal_connect_swapped (self->timeline, "view-changed",
                            G_CALLBACK (update_subtitle), self);
  /* The time under a still pointer changes when the keys move the view. */
  g_signal_connect_swapped (self->timeline, "view-changed",
                            G_CALLBACK (update_pointer_labels), self);
  g_signal_connect_swapped (self->timeline, "pointer-changed",
                            G_CALLBACK (update_pointer_labels), self);
  g_signal_connect_swapped (self->timeline, "selection-changed",
                            G_CALLBACK (update_details), self);
  g_signal_connect_swapped (self->main_stack, "notify::visible-child",
                            G_CALLBACK (on_main_page_changed), self);

  /* win.color-mode and win.summary-mode follow the session (the timeline's
   * keys change it). */
  g_signal_connect_swapped (self->session, "notify::color-mode",
                            G_CALLBACK (on_color_mode_changed), self);
  g_signal_connect_swapped (self->session, "notify::summary",
                            G_CALLBACK (on_summary_changed), self);
  g_signal_connect_swapped (self->session, "notify::show-spans",
                            G_CALLBACK (on_show_spans_changed), self);
  g_signal_connect_swapped (self->session, "notify::capture-clock",
                            G_CALLBACK (on_capture_clock_changed), self);
  g_signal_connect_swapped (self->session, "notify::has-capture-clock",
                            G_CALLBACK (on_capture_clock_changed), self);
  gtk_button_set_icon_name (GTK_BUTTON (self->clock_button), "preferences-system-time-symbolic");
  update_clock_button (self);
  g_signal_connect_swapped (self->session, "notify::labels",
                            G_CALLBACK (update_details), self);

  _cpel_window_dnd_init (self);

  /* The app's own symbolic icon: in the resources (GtkApplication adds their
   * icons/ to the icon theme), so not looked up before the first frame. */
  adw_status_page_set_icon_name (self->empty_page, BASE_ID "-symbolic");
  /* A development build says so (the header bar's stripes). */
  if (g_str_equal (PROFILE, "development"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  /* texts too long for a line of the template */
  gtk_label_set_text (self->ticks_label, _("Times are clock ticks: this capture does not say "
                                           "how fast its clock runs."));
  adw_status_page_set_title (self->no_events_page, _("This capture has no events"));
  gtk_button_set_label (self->no_events_button, _("File _Information"));

  gtk_stack_set_visible_child_name (self->main_stack, "empty");
  _cpel_window_update_actions (self);
}

CpelTimeline *
cpel_window_get_timeline (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->timeline;
}

CpelSearchBar *
cpel_window_get_search_bar (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->search_bar;
}

CpelToaster *
cpel_window_get_toaster (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->toaster;
}

CpelDetails *
cpel_window_get_details (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->details;
}

const char *
cpel_window_get_range_text (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  if (cpel_window_is_comparing (self))
    return gtk_label_get_text (self->compare.range_label);
  return gtk_label_get_text (self->range_label);
}

const char *
cpel_window_get_cursor_text (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  if (cpel_window_is_comparing (self))
    return gtk_label_get_text (self->compare.cursor_label);
  return gtk_label_get_text (self->cursor_label);
}

const char *
cpel_window_get_measure_text (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  if (cpel_window_is_comparing (self))
    return gtk_label_get_text (self->compare.measure_label);
  return gtk_label_get_text (self->measure_label);
}

const char *
cpel_window_get_modes_text (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->modes_label))
         ? gtk_label_get_text (self->modes_label) : "";
}

GtkWindow *
cpel_window_get_statistics (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->statistics;
}

GtkWindow *
cpel_window_get_anomalies (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->anomalies;
}
