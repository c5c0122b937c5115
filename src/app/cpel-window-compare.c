/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-compare.c — comparing the shown capture with a second one
 *
 * B is read by cpel_load_file_async() like any file; the compare view is a
 * CpelComparePane, with an overview strip of both above it and a status
 * line below, added to the window's main stack as page "compare" the
 * first time.  B's spans are derived by B's own span settings.  A file
 * that cannot be read leaves A shown and says which (a dialog naming B, as
 * the main view's).  Closing B returns to the single view ("view").
 */
#include "cpel-window-private.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "cpel-async.h"
#include "cpel-diff.h"
#include "cpel-overview-strip.h"
#include "cpel-search-bar.h"
#include "cpel-span-settings.h"
#include "cpel-stats-window.h"
#include "cpel-toaster.h"

typedef struct
{
  CpelWindow   *self;
  GFile        *location;
  GCancellable *cancellable;
} CompareLoad;

static void
compare_load_free (CompareLoad *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->location);
  g_clear_object (&data->cancellable);
  g_free (data);
}

/* The single view's filters apply to both panes by name: its hidden event
 * types hide the types of those names, its shown tracks (in its order)
 * show the tracks of those labels; a track whose label the single view's
 * capture has not is shown when the track filter (if any) keeps it. */
typedef struct
{
  CpelTrackOrder *order;   /* `to`'s, with the single view's filter */
} KeepData;

static gboolean
keep_unknown (guint    slot,
              gpointer data)
{
  KeepData *keep = data;

  return keep->order == NULL || cpel_track_order_matches (keep->order, slot);
}

static void
apply_filters_to (CpelWindow      *self,
                  CpelCompareSide  side,
                  CpelFile        *to)
{
  CpelFile *from = cpel_timeline_get_file (self->timeline);
  const guint8 *hidden = cpel_session_get_hidden_types (cpel_timeline_get_session (self->timeline));
  CpelTrackOrder *order = cpel_session_get_track_order (cpel_timeline_get_session (self->timeline));
  const guint *rows = NULL;
  guint n_rows = 0;
  guint8 *hidden_to;
  guint *rows_to;

  if (from == NULL || to == NULL)
    return;
  if (order != NULL)
    rows = cpel_track_order_get_rows (order, &n_rows);
  if (to == from)
    {
      hidden_to = hidden != NULL ? g_memdup2 (hidden, cpel_file_get_n_types (from)) : NULL;
      rows_to = rows != NULL ? g_memdup2 (rows, MAX (n_rows, 1) * sizeof (guint)) : NULL;
    }
  else
    {
      KeepData keep = { NULL };
      const char *filter = order != NULL ? cpel_track_order_get_filter (order) : NULL;

      if (filter != NULL)
        {
          keep.order = cpel_track_order_new (to);
          if (cpel_track_order_get_filter_is_regex (order))
            cpel_track_order_set_filter_regex (keep.order, filter, NULL);
          else
            cpel_track_order_set_filter (keep.order, filter);
        }
      hidden_to = cpel_diff_map_hidden_types (from, hidden, to);
      rows_to = cpel_diff_map_rows (from, rows, n_rows, to, keep_unknown, &keep, &n_rows);
      g_clear_object (&keep.order);
    }
  cpel_compare_pane_set_filters (self->compare.pane, side, hidden_to, rows_to, n_rows);
}

static void
apply_filters (CpelWindow *self)
{
  if (!cpel_window_is_comparing (self))
    return;
  apply_filters_to (self, CPEL_COMPARE_A, cpel_compare_pane_get_file_a (self->compare.pane));
  apply_filters_to (self, CPEL_COMPARE_B, cpel_compare_pane_get_file_b (self->compare.pane));
}

/* The search bar searches both panes while they show. */
static void
on_page_changed (CpelWindow *self)
{
  if (self->compare.search == NULL)
    return;   /* disposed */
  cpel_search_bar_set_compare (self->search_bar,
                               cpel_window_is_comparing (self) ? self->compare.search : NULL);
}

/* The Statistics window, when open, counts the new pair (or A alone). */
static void
refresh_statistics (CpelWindow *self)
{
  if (self->statistics != NULL && gtk_widget_get_visible (GTK_WIDGET (self->statistics)))
    cpel_stats_window_refresh (CPEL_STATS_WINDOW (self->statistics));
}

/* The compare view's status line, worded and formatted as the single
 * view's (the same functions): the visible range and the cursor as the
 * ruler reads them (from the aligned point; on Display ▸ Capture Clock,
 * A's clock, said so, and the cursor on B's own clock too when B has
 * one), a measurement's Δt with the events of A and of B in it. */
static void
update_compare_status (CpelWindow *self)
{
  CpelComparePane *pane = self->compare.pane;
  const CpelCompareView *view;
  const CpelRange *m;
  CpelFile *file, *file_b;
  gint64 origin, t0, t1, t;
  double pixels;
  g_autofree char *range = NULL;
  g_autofree char *cursor = NULL;
  g_autofree char *measure = NULL;

  if (pane == NULL || self->compare.range_label == NULL)
    return;
  file = cpel_compare_pane_get_file_a (pane);
  file_b = cpel_compare_pane_get_file_b (pane);
  if (file != NULL && file_b != NULL)
    {
      CpelClockKind clock_b = CPEL_CLOCK_NONE;
      gint64 clock_origin_b = 0;

      view = cpel_compare_pane_get_view (pane);
      /* on A's clock: A's times; else from the aligned point */
      origin = view->a.clock != CPEL_CLOCK_NONE ? 0 : view->a.ruler_origin;
      t0 = view->a.t0 - origin;
      t1 = view->a.t1 - origin;
      pixels = gtk_widget_get_width (GTK_WIDGET (pane)) - view->a.label_width;
      range = _cpel_window_range_text (file, view->a.clock, view->a.clock_origin, t0, t1,
                                       pixels);
      if (view->a.clock != CPEL_CLOCK_NONE)
        {
          g_autofree char *on_a = g_steal_pointer (&range);

          /* TRANSLATORS: the compare view's visible range on A's capture clock */
          range = g_strdup_printf (_("A’s clock: %s"), on_a);
          clock_b = cpel_file_get_clock_origin (file_b, &clock_origin_b);
        }
      if (cpel_compare_pane_get_cursor (pane, &t))
        {
          cursor = _cpel_window_cursor_text (file, view->a.clock, view->a.clock_origin,
                                             t - origin, t0, t1, pixels);
          if (clock_b != CPEL_CLOCK_NONE)
            {
              gint64 tb = t + view->offset_b;
              g_autofree char *ta = _cpel_window_format_status_time (
                file, view->a.clock, view->a.clock_origin, t, t0, t1, pixels, FALSE);
              g_autofree char *on_b = _cpel_window_format_status_time (
                file_b, clock_b, clock_origin_b, tb, t0 + view->offset_b,
                t1 + view->offset_b, pixels, FALSE);

              g_free (cursor);
              /* TRANSLATORS: the time under the pointer on A's and on B's
               * capture clock */
              cursor = g_strdup_printf (_("Cursor A %s · B %s"), ta, on_b);
            }
        }
      m = cpel_session_get_compare_measure (self->session);
      if (m != NULL)
        {
          guint64 na = cpel_view_count_range (&view->a, m->t0, m->t1);
          guint64 nb = cpel_view_count_range (&view->b, m->t0 + view->offset_b,
                                              m->t1 + view->offset_b);
          g_autofree char *dt = _cpel_window_delta_text (file, m->t1 - m->t0);
          g_autofree char *ca = cpel_format_count (na);
          g_autofree char *cb = cpel_format_count (nb);
          g_autofree char *ea = g_strdup_printf (ngettext ("A: %s event", "A: %s events", na),
                                                 ca);
          g_autofree char *eb = g_strdup_printf (ngettext ("B: %s event", "B: %s events", nb),
                                                 cb);

          /* TRANSLATORS: a measured interval in the compare view and the
           * events of A and of B in it: "Δt 1.5 µs · A: 3 events · B: 4 events" */
          measure = g_strdup_printf (_("Δt %s · %s · %s"), dt, ea, eb);
        }
    }
  gtk_label_set_text (self->compare.range_label, range != NULL ? range : "");
  gtk_label_set_text (self->compare.cursor_label, cursor != NULL ? cursor : "");
  gtk_label_set_text (self->compare.measure_label, measure != NULL ? measure : "");
}

static GtkLabel *
add_status_label (GtkBox     *box,
                  const char *style,
                  gboolean    hexpand)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, hexpand);
  gtk_widget_add_css_class (label, "numeric");
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  gtk_box_append (box, label);
  return GTK_LABEL (label);
}

/* The compare page, as the single view's: the overview strip (both
 * captures), the pane, the status line. */
static void
make_compare_page (CpelWindow *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *status = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 18);

  self->compare.strip = cpel_overview_strip_new ();
  cpel_overview_strip_set_compare_pane (CPEL_OVERVIEW_STRIP (self->compare.strip),
                                        self->compare.pane);
  gtk_box_append (GTK_BOX (page), self->compare.strip);
  gtk_box_append (GTK_BOX (page), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->compare.pane));
  gtk_box_append (GTK_BOX (page), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_widget_add_css_class (status, "status-bar");
  self->compare.range_label = add_status_label (GTK_BOX (status), NULL, FALSE);
  self->compare.cursor_label = add_status_label (GTK_BOX (status), "dim-label", FALSE);
  self->compare.measure_label = add_status_label (GTK_BOX (status), "accent", TRUE);
  {
    /* the zoom buttons, as the single view's (win.zoom-* act on the
     * compare view while it shows) */
    static const struct { const char *icon, *tooltip, *action; } buttons[] = {
      { "zoom-out-symbolic", N_("Zoom Out"), "win.zoom-out" },
      { "zoom-fit-best-symbolic", N_("Fit Whole Capture"), "win.zoom-fit" },
      { "zoom-in-symbolic", N_("Zoom In"), "win.zoom-in" },
    };
    GtkWidget *linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

    gtk_widget_add_css_class (linked, "linked");
    for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
      {
        GtkWidget *button = gtk_button_new_from_icon_name (buttons[i].icon);

        gtk_widget_set_tooltip_text (button, _(buttons[i].tooltip));
        gtk_actionable_set_action_name (GTK_ACTIONABLE (button), buttons[i].action);
        gtk_widget_set_focus_on_click (button, FALSE);
        gtk_widget_add_css_class (button, "flat");
        gtk_box_append (GTK_BOX (linked), button);
      }
    gtk_box_append (GTK_BOX (status), linked);
  }
  gtk_box_append (GTK_BOX (page), status);
  self->compare.page = page;
  gtk_stack_add_named (self->main_stack, page, "compare");

  g_signal_connect_object (self->compare.pane, "notify::t0",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->compare.pane, "notify::t1",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->compare.pane, "notify::offset",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->compare.pane, "notify::filters",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->compare.pane, "notify::cursor",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->compare.pane, "notify::file-a",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::compare-measure",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::compare-origin",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
  /* (after the pane, which connected first, has taken the clock) */
  g_signal_connect_object (self->session, "notify::capture-clock",
                           G_CALLBACK (update_compare_status), self, G_CONNECT_SWAPPED);
}

/* Each side's label formats: A's the session's (the single view's, as the
 * user set them), B's from its views file; after a swap each follows its
 * file. */
static void
set_labels (CpelWindow *self)
{
  if (self->compare.pane == NULL)
    return;
  cpel_compare_pane_set_labels (self->compare.pane, cpel_session_get_labels (self->session),
                                self->compare.labels_b);
}

/* Each side's density summary: A's the timeline's (when it is the file
 * shown), B's from its load. */
static void
set_overviews (CpelWindow *self)
{
  CpelComparePane *pane = self->compare.pane;
  const CpelView *single = cpel_timeline_get_view (self->timeline);
  CpelOverview *ov[2] = { NULL, NULL };
  CpelFile *files[2] = { cpel_compare_pane_get_file_a (pane),
                         cpel_compare_pane_get_file_b (pane) };

  for (guint i = 0; i < 2; i++)
    {
      if (single != NULL && files[i] == single->file)
        ov[i] = single->overview;
      else if (files[i] == self->compare.file_b)
        ov[i] = self->compare.overview_b;
    }
  cpel_compare_pane_set_overviews (pane, ov[0], ov[1]);
}

static void
show_compare (CpelWindow *self)
{
  g_autofree char *name_a = NULL;
  g_autofree char *name_b = NULL;

  if (self->file == NULL || self->compare.file_b == NULL)
    return;
  if (self->compare.pane == NULL)
    {
      self->compare.pane = CPEL_COMPARE_PANE (cpel_compare_pane_new ());
      /* the alignment and pairing are the session's */
      cpel_compare_pane_set_session (self->compare.pane, self->session);
      make_compare_page (self);
      self->compare.search = cpel_compare_search_new (self->compare.pane);
      g_signal_connect_object (self->main_stack, "notify::visible-child",
                               G_CALLBACK (on_page_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->timeline, "view-changed",
                               G_CALLBACK (apply_filters), self, G_CONNECT_SWAPPED);
      /* A's label formats changed (Event Types) */
      g_signal_connect_object (self->session, "notify::labels",
                               G_CALLBACK (set_labels), self, G_CONNECT_SWAPPED);
      /* the details pane shows the compare view's selected event */
      g_signal_connect_object (self->compare.pane, "notify::selection",
                               G_CALLBACK (_cpel_window_update_details), self,
                               G_CONNECT_SWAPPED);
    }
  name_a = _cpel_window_name_a (self);
  name_b = _cpel_window_display_name (self->compare.location_b);
  cpel_compare_pane_set_files (self->compare.pane, self->file, name_a,
                               self->compare.file_b, name_b);
  set_overviews (self);
  set_labels (self);
  update_compare_status (self);
  /* No crossfade between the two views, as into the capture (cpel-window.c):
   * a 200 ms blend of two views of 10^7 events costs GSK's cairo renderer
   * 15-20 ms a frame at 1280x800 (measured: compare-view-bench's p95 was
   * those frames), and the user's first zoom would wait for it. */
  gtk_stack_set_visible_child_full (self->main_stack, "compare", GTK_STACK_TRANSITION_TYPE_NONE);
  apply_filters (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->compare.pane));
  _cpel_window_update_title (self);
  _cpel_window_update_actions (self);
  refresh_statistics (self);
}

static void
on_file_changed (CpelWindow *self)
{
  if (self->file == NULL)
    return;
  g_clear_signal_handler (&self->compare.file_handler, self);
  show_compare (self);
}

static void
on_b_loaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  CompareLoad *data = user_data;
  CpelWindow *self = data->self;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelOverview) overview = NULL;
  g_autoptr(GError) error = NULL;

  file = cpel_load_file_finish (result, &overview, &error);
  if (data->cancellable != self->compare.cancellable)
    {
      compare_load_free (data);
      return;
    }
  g_clear_object (&self->compare.cancellable);
  if (file == NULL)
    {
      /* as the main view's: what is wrong, then the detail, until closed */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _cpel_window_show_load_error (self, data->location, error, TRUE);
      _cpel_window_update_actions (self);
      compare_load_free (data);
      return;
    }

  g_set_object (&self->compare.file_b, file);
  g_clear_pointer (&self->compare.overview_b, cpel_overview_unref);
  self->compare.overview_b = g_steal_pointer (&overview);
  cpel_session_set_compare_file (self->session, file);
  /* B's spans by B's own rules (its saved settings, as when it is opened) */
  cpel_session_set_compare_span_rules (self->session, NULL);
  {
    g_autofree char *path = g_file_get_path (data->location);
    g_autoptr(CpelViews) views = path != NULL ? cpel_views_new (path) : NULL;
    g_autoptr(CpelSpanRules) rules = NULL;

    if (views != NULL && !cpel_views_load (views, NULL))
      g_clear_object (&views);
    rules = cpel_span_settings_make_rules (views != NULL
                                           ? cpel_views_get_disabled_rules (views) : NULL,
                                           views != NULL
                                           ? cpel_views_get_span_rules_text (views) : NULL,
                                           NULL);
    if (rules == NULL)
      rules = cpel_span_settings_make_rules (NULL, NULL, NULL);
    cpel_session_set_compare_span_rules (self->session, rules);
    /* B's labels by B's own formats (its defaults, then the user's) */
    {
      g_autoptr(CpelLabels) defaults = cpel_labels_new (file);

      g_clear_pointer (&self->compare.labels_b, cpel_labels_unref);
      self->compare.labels_b = cpel_labels_new_with_formats (
        defaults, views != NULL ? cpel_views_get_label_formats (views) : NULL);
    }
  }
  g_set_object (&self->compare.location_b, data->location);
  if (self->file != NULL)
    show_compare (self);
  else if (self->compare.file_handler == 0)
    self->compare.file_handler = g_signal_connect_swapped (self, "notify::file",
                                                           G_CALLBACK (on_file_changed), self);
  compare_load_free (data);
}

void
cpel_window_compare_with (CpelWindow *self,
                          GFile      *b)
{
  CompareLoad *data;

  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (b));

  if (self->compare.cancellable != NULL)
    g_cancellable_cancel (self->compare.cancellable);
  g_clear_object (&self->compare.cancellable);
  self->compare.cancellable = g_cancellable_new ();

  data = g_new0 (CompareLoad, 1);
  data->self = g_object_ref (self);
  data->location = g_object_ref (b);
  data->cancellable = g_object_ref (self->compare.cancellable);
  cpel_load_file_async (b, self->clock_rate, FALSE, self->compare.cancellable, NULL,
                        on_b_loaded, data);
}

void
cpel_window_close_compare (CpelWindow *self)
{
  g_return_if_fail (CPEL_IS_WINDOW (self));

  if (self->compare.cancellable != NULL)
    g_cancellable_cancel (self->compare.cancellable);
  g_clear_object (&self->compare.cancellable);
  g_clear_signal_handler (&self->compare.file_handler, self);
  g_clear_object (&self->compare.file_b);
  g_clear_pointer (&self->compare.overview_b, cpel_overview_unref);
  g_clear_pointer (&self->compare.labels_b, cpel_labels_unref);
  cpel_session_set_compare_file (self->session, NULL);
  cpel_session_set_compare_span_rules (self->session, NULL);
  g_clear_object (&self->compare.location_b);
  if (self->compare.pane != NULL
      && gtk_stack_get_visible_child (self->main_stack) == self->compare.page)
    {
      gtk_stack_set_visible_child_full (self->main_stack, _cpel_window_view_page (self),
                                        GTK_STACK_TRANSITION_TYPE_NONE);
      if (self->timeline != NULL)
        gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
    }
  _cpel_window_update_title (self);
  _cpel_window_update_actions (self);
  refresh_statistics (self);
}

gboolean
cpel_window_is_comparing (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->compare.pane != NULL && self->compare.file_b != NULL
         && gtk_stack_get_visible_child (self->main_stack) == self->compare.page;
}

CpelFile *
cpel_window_get_compare_file (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->compare.file_b;
}

GtkWidget *
cpel_window_get_compare_pane (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return (GtkWidget *) self->compare.pane;
}

GtkWidget *
cpel_window_get_compare_strip (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), NULL);
  return self->compare.strip;
}

gboolean
cpel_window_is_loading_compare (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->compare.cancellable != NULL;
}

void
_cpel_window_swap_compare (CpelWindow *self)
{
  CpelComparePane *pane = self->compare.pane;
  const CpelCompareView *view;
  g_autofree char *name_a = NULL;
  g_autofree char *name_b = NULL;
  gint64 offset, origin, t0, t1;

  if (!cpel_window_is_comparing (self))
    return;
  view = cpel_compare_pane_get_view (pane);
  name_a = g_strdup (view->name_a);
  name_b = g_strdup (view->name_b);
  offset = cpel_session_get_compare_offset (self->session);
  origin = cpel_session_get_compare_origin (self->session);
  t0 = view->b.t0;
  t1 = view->b.t1;
  cpel_compare_pane_set_files (pane, cpel_compare_pane_get_file_b (pane), name_b,
                               cpel_compare_pane_get_file_a (pane), name_a);
  /* the same alignment and range seen from the other side */
  set_overviews (self);
  cpel_session_set_compare_alignment (self->session, -offset, origin + offset);
  cpel_compare_pane_set_range (pane, t0, t1);
  apply_filters (self);
  _cpel_window_update_title (self);
  refresh_statistics (self);
}

void
_cpel_window_toggle_paired (CpelWindow *self)
{
  if (!cpel_window_is_comparing (self))
    return;
  cpel_session_set_compare_paired (self->session,
                                   !cpel_session_get_compare_paired (self->session));
}

/* How much later than A B is drawn: "1.5ms", "-200ns", "+3us" (B's time
 * = A's time - that). */
gboolean
_cpel_window_set_compare_offset (CpelWindow *self,
                                 const char *text)
{
  gboolean negative = FALSE;
  gint64 ns;

  if (!cpel_window_is_comparing (self) || text == NULL)
    return FALSE;
  while (g_ascii_isspace (*text))
    text++;
  if (*text == '-' || *text == '+')
    negative = *text++ == '-';
  if (!cpel_time_parse (text, &ns))
    return FALSE;
  cpel_session_set_compare_offset (self->session, negative ? ns : -ns);
  return TRUE;
}

static void
on_offset_changed (GtkEditable      *entry,
                   AdwMessageDialog *dialog)
{
  const char *text = gtk_editable_get_text (entry);
  gint64 ns;

  while (*text == ' ' || *text == '-' || *text == '+')
    text++;
  adw_message_dialog_set_response_enabled (dialog, "apply", cpel_time_parse (text, &ns));
}

/* Enter in the entry answers as the Apply button does: the response, then
 * the dialog closes (adw_message_dialog_response() alone leaves it open). */
static void
on_offset_activate (GtkEntry         *entry,
                    AdwMessageDialog *dialog)
{
  if (!adw_message_dialog_get_response_enabled (dialog, "apply"))
    return;
  adw_message_dialog_response (dialog, "apply");
  gtk_window_close (GTK_WINDOW (dialog));
}

static void
on_offset_response (AdwMessageDialog *dialog,
                    const char       *response,
                    CpelWindow       *self)
{
  GtkWidget *entry = adw_message_dialog_get_extra_child (dialog);

  if (g_str_equal (response, "apply"))
    _cpel_window_set_compare_offset (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

void
_cpel_window_ask_compare_offset (CpelWindow *self)
{
  AdwMessageDialog *dialog;
  GtkWidget *entry;
  g_autofree char *current = NULL;

  if (!cpel_window_is_comparing (self))
    return;
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Offset of B"), NULL));
  adw_message_dialog_set_body (dialog,
                               _("B is drawn this much later than A (negative: earlier), "
                                 "e.g. 1.5ms or -200ns; 0 aligns their first events."));
  entry = gtk_entry_new ();
  current = g_strdup_printf ("%" G_GINT64_FORMAT "ns",
                             -cpel_session_get_compare_offset (self->session));
  gtk_editable_set_text (GTK_EDITABLE (entry), current);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Offset of B"), -1);
  adw_message_dialog_set_extra_child (dialog, entry);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "apply", _("_Apply"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "apply", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "apply");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_offset_changed), dialog, 0);
  g_signal_connect_object (entry, "activate", G_CALLBACK (on_offset_activate), dialog, 0);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_offset_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     CpelWindow      *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        cpel_window_compare_with (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->compare.chooser);
}

void
_cpel_window_choose_compare (CpelWindow *self)
{
  if (self->file == NULL)
    return;
  if (self->compare.chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->compare.chooser));
      return;
    }
  self->compare.chooser = gtk_file_chooser_native_new (_("Compare With"), GTK_WINDOW (self),
                                                       GTK_FILE_CHOOSER_ACTION_OPEN,
                                                       _("_Compare"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->compare.chooser), TRUE);
  g_signal_connect (self->compare.chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->compare.chooser));
}

void
_cpel_window_compare_dispose (CpelWindow *self)
{
  if (self->compare.cancellable != NULL)
    g_cancellable_cancel (self->compare.cancellable);
  g_clear_object (&self->compare.cancellable);
  g_clear_signal_handler (&self->compare.file_handler, self);
  if (self->compare.chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->compare.chooser));
  g_clear_object (&self->compare.chooser);
  g_clear_object (&self->compare.file_b);
  g_clear_pointer (&self->compare.overview_b, cpel_overview_unref);
  g_clear_pointer (&self->compare.labels_b, cpel_labels_unref);
  g_clear_object (&self->compare.location_b);
  if (self->search_bar != NULL)
    cpel_search_bar_set_compare (self->search_bar, NULL);
  g_clear_object (&self->compare.search);
  /* children of the stack */
  self->compare.pane = NULL;
  self->compare.page = NULL;
  self->compare.strip = NULL;
  self->compare.range_label = NULL;
  self->compare.cursor_label = NULL;
  self->compare.measure_label = NULL;
}
