/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline-actions.c — the timeline.* actions and their keys */
#include "cpel-timeline-private.h"

static void
action_track (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  guint slot = self->context_slot;
  CpelTrackOrder *order = cpel_session_get_track_order (self->session);

  if (order == NULL)
    return;
  if (g_str_equal (name, "timeline.tracks-reset"))
    cpel_track_order_reset (order);
  else if (slot >= cpel_track_order_get_n (order))
    return;
  else if (g_str_equal (name, "timeline.track-pin"))
    cpel_track_order_set_pinned (order, slot, !cpel_track_order_get_pinned (order, slot));
  else if (g_str_equal (name, "timeline.track-up"))
    cpel_track_order_move (order, slot, -1);
  else if (g_str_equal (name, "timeline.track-down"))
    cpel_track_order_move (order, slot, 1);
  else if (g_str_equal (name, "timeline.track-hide"))
    cpel_track_order_set_hidden (order, slot, TRUE);
  else if (g_str_equal (name, "timeline.track-top"))
    cpel_track_order_raise (order, slot, TRUE);
  else if (g_str_equal (name, "timeline.track-bottom"))
    cpel_track_order_raise (order, slot, FALSE);
}

static void
action_context_menu (GtkWidget  *widget,
                     const char *name,
                     GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  double width = gtk_widget_get_width (widget);
  CpelEvent event;
  double x, y;
  int row;

  if (self->file == NULL || !self->view.has_selection)
    return;
  cpel_file_get_track_event (self->file, self->view.selected_slot, self->view.selected_index, &event);
  row = _cpel_timeline_slot_row (self, self->view.selected_slot);
  x = cpel_view_time_to_x (&self->view, width, event.time_ns);
  y = row >= 0 ? cpel_view_get_row_y (&self->view, (guint) row) + self->view.row_height / 2 : -1;
  if (x < self->view.label_width || x >= width || y < self->view.ruler_height
      || y >= gtk_widget_get_height (widget))
    {
      /* Off screen: bring it into view first. */
      cpel_session_reveal_event (self->session, self->view.selected_slot,
                                 self->view.selected_index);
      x = cpel_view_time_to_x (&self->view, width, event.time_ns);
      row = _cpel_timeline_slot_row (self, self->view.selected_slot);
      y = row >= 0 ? cpel_view_get_row_y (&self->view, (guint) row) + self->view.row_height / 2
                   : self->view.ruler_height;
    }
  _cpel_timeline_show_event_menu (self, x, y);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                    */

static void
action_zoom (GtkWidget  *widget,
             const char *name,
             GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  double factor = g_str_equal (name, "timeline.zoom-in") ? CPEL_TIMELINE_ZOOM_STEP
                                                          : 1.0 / CPEL_TIMELINE_ZOOM_STEP;
  double x = -1;

  /* At the pointer when it is over the events (as Ctrl+wheel), else around
   * the selected event when it is in view (keyboard only), else the centre. */
  if (self->pointer_inside && self->pointer_x >= self->view.label_width)
    x = self->pointer_x;
  else if (self->file != NULL && self->view.has_selection)
    {
      CpelEvent event;

      cpel_file_get_track_event (self->file, self->view.selected_slot,
                                 self->view.selected_index, &event);
      if (event.time_ns >= self->view.t0 && event.time_ns < self->view.t1)
        x = cpel_view_time_to_x (&self->view, gtk_widget_get_width (widget), event.time_ns);
    }
  cpel_timeline_zoom (self, factor, x);
}

static void
action_pan (GtkWidget  *widget,
            const char *name,
            GVariant   *parameter)
{
  cpel_timeline_pan (CPEL_TIMELINE (widget),
                     g_str_equal (name, "timeline.pan-left") ? -CPEL_TIMELINE_PAN_STEP
                                                             : CPEL_TIMELINE_PAN_STEP);
}

static void
action_scroll (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  double page = gtk_adjustment_get_page_increment (self->vadjustment);
  double row = self->view.row_height;

  if (g_str_equal (name, "timeline.scroll-up"))
    cpel_timeline_scroll_tracks (self, -row);
  else if (g_str_equal (name, "timeline.scroll-down"))
    cpel_timeline_scroll_tracks (self, row);
  else if (g_str_equal (name, "timeline.page-up"))
    cpel_timeline_scroll_tracks (self, -page);
  else
    cpel_timeline_scroll_tracks (self, page);
}

static void
action_fit (GtkWidget  *widget,
            const char *name,
            GVariant   *parameter)
{
  cpel_session_fit (CPEL_TIMELINE (widget)->session);
}

static void
action_history (GtkWidget  *widget,
                const char *name,
                GVariant   *parameter)
{
  if (g_str_equal (name, "timeline.back"))
    cpel_session_go_back (CPEL_TIMELINE (widget)->session);
  else
    cpel_session_go_forward (CPEL_TIMELINE (widget)->session);
}

static void
action_adjacent (GtkWidget  *widget,
                 const char *name,
                 GVariant   *parameter)
{
  cpel_timeline_select_adjacent (CPEL_TIMELINE (widget),
                                 g_str_equal (name, "timeline.next-event") ? 1 : -1);
}

/* n / Shift+N: the next / previous of the spans highlighted (the session's
 * span filter), selected and centred. */
static void
action_span_match (GtkWidget  *widget,
                   const char *name,
                   GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);

  if (!cpel_session_step_span_match (self->session,
                                     g_str_equal (name, "timeline.next-span-match") ? 1 : -1))
    gtk_widget_error_bell (widget);
}

static void
action_modes (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);

  if (g_str_equal (name, "timeline.taller-rows"))
    cpel_timeline_set_row_height (self, self->view.row_height + CPEL_TIMELINE_ROW_HEIGHT_STEP);
  else if (g_str_equal (name, "timeline.shorter-rows"))
    cpel_timeline_set_row_height (self, self->view.row_height - CPEL_TIMELINE_ROW_HEIGHT_STEP);
  else if (g_str_equal (name, "timeline.cycle-color"))
    /* g2's `c` toggles the colours: by event code <-> by track. */
    cpel_session_set_color_mode (self->session,
                                 cpel_session_get_color_mode (self->session) == CPEL_COLOR_BY_CODE
                                 ? CPEL_COLOR_BY_TRACK : CPEL_COLOR_BY_CODE);
}

static void
action_clear (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);

  if (self->view.has_measure)
    cpel_timeline_clear_measure (self);
  else
    cpel_session_unselect (self->session);
}

static void
add_binding (GtkWidgetClass  *widget_class,
             guint            keyval,
             GdkModifierType  mods,
             const char      *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
}

/* Which timeline.* actions can be used now. */
void
_cpel_timeline_update_actions (CpelTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean has_file = self->file != NULL;
  const CpelRangeLimits *limits = _cpel_timeline_limits (self);
  CpelRange fit;

  cpel_range_fit (&fit, limits);

  gtk_widget_action_set_enabled (widget, "timeline.zoom-in",
                                 has_file && cpel_range_span ((CpelRange *) &self->view.t0)
                                             > limits->min_span);
  gtk_widget_action_set_enabled (widget, "timeline.zoom-out",
                                 has_file && !cpel_range_equal ((CpelRange *) &self->view.t0, &fit));
  gtk_widget_action_set_enabled (widget, "timeline.fit",
                                 has_file && !cpel_range_equal ((CpelRange *) &self->view.t0, &fit));
  gtk_widget_action_set_enabled (widget, "timeline.back",
                                 has_file && cpel_session_can_go_back (self->session));
  gtk_widget_action_set_enabled (widget, "timeline.forward",
                                 has_file && cpel_session_can_go_forward (self->session));
  gtk_widget_action_set_enabled (widget, "timeline.pan-left", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.pan-right", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.scroll-up", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.scroll-down", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.page-up", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.page-down", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.next-event", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.previous-event", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.clear", has_file);
}

void
_cpel_timeline_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, action_pan);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, action_pan);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-up", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-down", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.page-up", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.page-down", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.fit", NULL, action_fit);
  gtk_widget_class_install_action (widget_class, "timeline.back", NULL, action_history);
  gtk_widget_class_install_action (widget_class, "timeline.forward", NULL, action_history);
  gtk_widget_class_install_action (widget_class, "timeline.next-event", NULL, action_adjacent);
  gtk_widget_class_install_action (widget_class, "timeline.previous-event", NULL, action_adjacent);
  gtk_widget_class_install_action (widget_class, "timeline.clear", NULL, action_clear);
  gtk_widget_class_install_action (widget_class, "timeline.next-span-match", NULL,
                                   action_span_match);
  gtk_widget_class_install_action (widget_class, "timeline.previous-span-match", NULL,
                                   action_span_match);
  gtk_widget_class_install_action (widget_class, "timeline.track-pin", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-up", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-down", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-hide", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.tracks-reset", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-top", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-bottom", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.context-menu", NULL, action_context_menu);
  gtk_widget_class_install_action (widget_class, "timeline.taller-rows", NULL, action_modes);
  gtk_widget_class_install_action (widget_class, "timeline.shorter-rows", NULL, action_modes);
  /* A toggle of the property: e. */
  gtk_widget_class_install_property_action (widget_class, "timeline.summary", "summary");
  gtk_widget_class_install_action (widget_class, "timeline.cycle-color", NULL, action_modes);

  add_binding (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_w, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out");
  add_binding (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out");
  add_binding (widget_class, GDK_KEY_s, 0, "timeline.zoom-out");
  add_binding (widget_class, GDK_KEY_Left, 0, "timeline.pan-left");
  add_binding (widget_class, GDK_KEY_KP_Left, 0, "timeline.pan-left");
  add_binding (widget_class, GDK_KEY_a, 0, "timeline.pan-left");
  add_binding (widget_class, GDK_KEY_Right, 0, "timeline.pan-right");
  add_binding (widget_class, GDK_KEY_KP_Right, 0, "timeline.pan-right");
  add_binding (widget_class, GDK_KEY_d, 0, "timeline.pan-right");
  add_binding (widget_class, GDK_KEY_Up, 0, "timeline.scroll-up");
  add_binding (widget_class, GDK_KEY_KP_Up, 0, "timeline.scroll-up");
  add_binding (widget_class, GDK_KEY_r, 0, "timeline.scroll-up");
  add_binding (widget_class, GDK_KEY_Down, 0, "timeline.scroll-down");
  add_binding (widget_class, GDK_KEY_KP_Down, 0, "timeline.scroll-down");
  add_binding (widget_class, GDK_KEY_f, 0, "timeline.scroll-down");
  add_binding (widget_class, GDK_KEY_Page_Up, 0, "timeline.page-up");
  add_binding (widget_class, GDK_KEY_KP_Page_Up, 0, "timeline.page-up");
  add_binding (widget_class, GDK_KEY_Page_Down, 0, "timeline.page-down");
  add_binding (widget_class, GDK_KEY_KP_Page_Down, 0, "timeline.page-down");
  add_binding (widget_class, GDK_KEY_0, 0, "timeline.fit");
  add_binding (widget_class, GDK_KEY_KP_0, 0, "timeline.fit");
  add_binding (widget_class, GDK_KEY_Home, 0, "timeline.fit");
  add_binding (widget_class, GDK_KEY_KP_Home, 0, "timeline.fit");
  add_binding (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "timeline.back");
  add_binding (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "timeline.forward");
  add_binding (widget_class, GDK_KEY_Back, 0, "timeline.back");
  add_binding (widget_class, GDK_KEY_Forward, 0, "timeline.forward");
  add_binding (widget_class, GDK_KEY_Tab, 0, "timeline.next-event");
  add_binding (widget_class, GDK_KEY_KP_Tab, 0, "timeline.next-event");
  add_binding (widget_class, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK, "timeline.previous-event");
  add_binding (widget_class, GDK_KEY_Tab, GDK_SHIFT_MASK, "timeline.previous-event");
  add_binding (widget_class, GDK_KEY_Escape, 0, "timeline.clear");
  add_binding (widget_class, GDK_KEY_Menu, 0, "timeline.context-menu");
  add_binding (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.context-menu");

  /* The rest of g2's keys: t / g fewer / more tracks on screen (taller /
   * shorter rows), e summary mode, c colour mode. */
  add_binding (widget_class, GDK_KEY_t, 0, "timeline.taller-rows");
  add_binding (widget_class, GDK_KEY_g, 0, "timeline.shorter-rows");
  add_binding (widget_class, GDK_KEY_e, 0, "timeline.summary");
  add_binding (widget_class, GDK_KEY_c, 0, "timeline.cycle-color");
  /* n / Shift+N through the spans highlighted (a distribution's selection) */
  add_binding (widget_class, GDK_KEY_n, 0, "timeline.next-span-match");
  add_binding (widget_class, GDK_KEY_N, GDK_SHIFT_MASK, "timeline.previous-span-match");
  /* The window adds the keys of its own actions (saved views, chase,
   * search) to the timeline: cpel-window-actions.c. */
}
