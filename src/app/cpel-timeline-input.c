/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline-input.c — pointer, wheel, drags (pan, ruler zoom, label
 * column, track reorder), measuring, pinch and the context menus */
#include "cpel-timeline-private.h"

#include "cpel-context-menu.h"

/* ------------------------------------------------------------------------ */
/* Input                                                                      */

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           CpelTimeline             *self)
{
  gboolean on_edge = self->file != NULL && fabs (x - self->view.label_width) <= RESIZE_GRIP;

  self->pointer_inside = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self),
                                   on_edge || self->drag_mode == DRAG_RESIZE ? "col-resize" : NULL);
  _cpel_timeline_update_cursor (self);
  if (self->file != NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self));   /* the cursor only: the frame is reused */
  g_signal_emit (self, _cpel_timeline_signals[POINTER_CHANGED], 0);
}

static void
on_leave (GtkEventControllerMotion *controller,
          CpelTimeline             *self)
{
  self->pointer_inside = FALSE;
  _cpel_timeline_update_cursor (self);
  if (self->file != NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self));   /* the cursor only: the frame is reused */
  g_signal_emit (self, _cpel_timeline_signals[POINTER_CHANGED], 0);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           CpelTimeline             *self)
{
  GdkModifierType state;
  gboolean wheel;

  if (self->file == NULL)
    return FALSE;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;

  if (state & GDK_CONTROL_MASK)
    {
      double factor = wheel ? pow (1.25, -dy) : exp (-dy / 100.0);
      double x = self->pointer_inside ? self->pointer_x : -1;

      if (factor != 1.0)
        cpel_timeline_zoom (self, factor, x);
      return TRUE;
    }

  if (state & GDK_SHIFT_MASK)
    {
      /* Shift+wheel pans in time. */
      dx = dx != 0 ? dx : dy;
      dy = 0;
    }

  if (dx != 0)
    {
      double width = _cpel_timeline_time_area_width (self);
      double fraction = wheel ? dx * CPEL_TIMELINE_PAN_STEP
                              : (width > 0 ? dx / width : 0);
      cpel_timeline_pan (self, fraction);
    }
  if (dy != 0)
    cpel_timeline_scroll_tracks (self, wheel ? dy * WHEEL_ROWS * self->view.row_height : dy);
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               CpelTimeline   *self)
{
  if (self->file == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x = x;
  self->drag_y = y;
  self->drag_moved = FALSE;
  self->drag_range = *_cpel_timeline_view_range (self);
  self->drag_scroll = gtk_adjustment_get_value (self->vadjustment);
  self->drag_label_width = self->label_width;
  self->drag_state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  self->reorder_row = -1;

  if (fabs (x - self->view.label_width) <= RESIZE_GRIP)
    self->drag_mode = DRAG_RESIZE;
  else if (x < self->view.label_width && y >= self->view.ruler_height
           && cpel_view_row_at_y (&self->view, y) >= 0)
    {
      /* A track label: a click raises / sinks it (g2), a drag moves it. */
      self->drag_mode = DRAG_REORDER;
      self->reorder_slot = _cpel_timeline_row_slot (self, (guint) cpel_view_row_at_y (&self->view, y));
    }
  else if (x < self->view.label_width)
    self->drag_mode = DRAG_SCROLL;
  else if (y < self->view.ruler_height)
    self->drag_mode = DRAG_RULER;
  else
    self->drag_mode = DRAG_PAN;
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                CpelTimeline   *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  if (self->drag_mode == DRAG_NONE)
    return;
  if (!self->drag_moved && fabs (dx) < CLICK_SLOP && fabs (dy) < CLICK_SLOP)
    return;
  self->drag_moved = TRUE;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);

  switch (self->drag_mode)
    {
    case DRAG_PAN:
      {
        CpelRange range = self->drag_range;
        double tw = width - self->view.label_width;

        if (tw > 0)
          cpel_range_pan (&range,
                          (gint64) llround (-dx * (double) cpel_range_span (&range) / tw),
                          _cpel_timeline_limits (self));
        _cpel_timeline_apply_range (self, &range, 2);
        gtk_adjustment_set_value (self->vadjustment, self->drag_scroll - dy);
        gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
      }
      break;

    case DRAG_SCROLL:
      gtk_adjustment_set_value (self->vadjustment, self->drag_scroll - dy);
      break;

    case DRAG_RULER:
      {
        /* The band being chosen, drawn as a measurement. */
        double x0 = MAX (self->drag_x, self->view.label_width);
        double x1 = CLAMP (self->drag_x + dx, self->view.label_width, width);

        cpel_session_set_measure (self->session, cpel_view_x_to_time (&self->view, width, x0),
                                  cpel_view_x_to_time (&self->view, width, x1));
      }
      break;

    case DRAG_RESIZE:
      cpel_timeline_set_label_width (self, self->drag_label_width + dx);
      break;

    case DRAG_REORDER:
      {
        double y = self->drag_y + dy;
        double height = gtk_widget_get_height (GTK_WIDGET (self));
        double rh = self->view.row_height;
        double pos;

        /* Near the top or bottom edge the tracks scroll along. */
        if (y < self->view.ruler_height + rh / 2)
          cpel_timeline_scroll_tracks (self, -rh / 2);
        else if (y > height - rh / 2)
          cpel_timeline_scroll_tracks (self, rh / 2);
        self->view.scroll_y = gtk_adjustment_get_value (self->vadjustment);
        pos = (y - self->view.ruler_height + self->view.scroll_y) / rh;
        self->reorder_row = (int) CLAMP (floor (pos + 0.5), 0, (double) _cpel_timeline_n_rows (self));
        gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
        gtk_widget_queue_draw (GTK_WIDGET (self));
      }
      break;

    case DRAG_NONE:
    default:
      break;
    }
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             CpelTimeline   *self)
{
  DragMode mode = self->drag_mode;

  self->drag_mode = DRAG_NONE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), NULL);
  if (self->file == NULL)
    return;

  if (mode == DRAG_REORDER)
    {
      int row = self->reorder_row;
      CpelTrackOrder *order = cpel_session_get_track_order (self->session);

      self->reorder_row = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      if (order == NULL || self->reorder_slot >= cpel_track_order_get_n (order))
        return;
      if (self->drag_moved && row >= 0)
        {
          guint before = (guint) row < _cpel_timeline_n_rows (self) ? _cpel_timeline_row_slot (self, (guint) row) : G_MAXUINT;

          cpel_track_order_place (order, self->reorder_slot, before);
          return;
        }
      if (!self->drag_moved && (self->drag_state & GDK_SHIFT_MASK))
        {
          cpel_track_order_raise (order, self->reorder_slot, TRUE);
          return;
        }
      if (!self->drag_moved && (self->drag_state & GDK_CONTROL_MASK))
        {
          cpel_track_order_raise (order, self->reorder_slot, FALSE);
          return;
        }
    }

  if (!self->drag_moved)
    {
      /* A click. */
      if (mode == DRAG_PAN || mode == DRAG_SCROLL || mode == DRAG_REORDER)
        {
          if (!cpel_timeline_select_at (self, self->drag_x, self->drag_y)
              && !cpel_timeline_select_span_at (self, self->drag_x, self->drag_y))
            cpel_session_unselect (self->session);
          cpel_timeline_clear_measure (self);
        }
      return;
    }

  if (mode == DRAG_RULER)
    {
      gint64 a = MIN (self->view.measure_t0, self->view.measure_t1);
      gint64 b = MAX (self->view.measure_t0, self->view.measure_t1);

      cpel_session_clear_measure (self->session);
      if (b > a)
        cpel_timeline_set_range (self, a, b, TRUE);
      _cpel_timeline_invalidate (self);
    }
}

static void
show_track_menu (CpelTimeline *self,
                 guint         slot,
                 double        x,
                 double        y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  gboolean pinned = cpel_track_order_get_pinned (cpel_session_get_track_order (self->session),
                                                 slot);

  self->context_slot = slot;
  g_menu_append (section, pinned ? _("_Unpin") : _("_Pin to Top"), "timeline.track-pin");
  g_menu_append (section, _("Move _Up"), "timeline.track-up");
  g_menu_append (section, _("Move _Down"), "timeline.track-down");
  g_menu_append (section, _("Move to _Top"), "timeline.track-top");
  g_menu_append (section, _("Move to _Bottom"), "timeline.track-bottom");
  g_menu_append (section, _("_Hide Track"), "timeline.track-hide");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);
  section = g_menu_new ();
  for (int i = 0; self->track_menu != NULL && i < g_menu_model_get_n_items (self->track_menu); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new_from_model (self->track_menu, i);

      g_menu_append_item (section, item);
    }
  g_menu_append (section, _("_Show All Tracks"), "timeline.tracks-reset");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  cpel_context_menu_popup (&self->context_menu, GTK_WIDGET (self), G_MENU_MODEL (menu), x, y);
}

/* The selected event's menu (right click on an event, Menu key): the
 * owner's (the window's chase). */
void
_cpel_timeline_show_event_menu (CpelTimeline *self,
                 double        x,
                 double        y)
{
  if (self->event_menu != NULL)
    cpel_context_menu_popup (&self->context_menu, GTK_WIDGET (self), self->event_menu, x, y);
}

/* The time a measurement's end at (x, y) reads: a span's (state's) begin
 * or end in the row at y when one is within MEASURE_SNAP_PX, else x's. */
gint64
_cpel_timeline_measure_time (CpelTimeline *self,
                             double        x,
                             double        y)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  gint64 t;

  if (cpel_view_span_snap (&self->view, width, x, y, MEASURE_SNAP_PX, &t))
    return t;
  return cpel_view_x_to_time (&self->view, width, x);
}

static void
on_measure_begin (GtkGestureDrag *gesture,
                  double          x,
                  double          y,
                  CpelTimeline   *self)
{
  if (self->file == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  if (x < self->view.label_width)
    {
      int row = cpel_view_row_at_y (&self->view, y);

      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      if (row >= 0)
        show_track_menu (self, _cpel_timeline_row_slot (self, (guint) row), x, y);
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->measuring = TRUE;
  self->drag_x = x;
  self->drag_y = y;
  self->drag_moved = FALSE;
}

static void
on_measure_update (GtkGestureDrag *gesture,
                   double          dx,
                   double          dy,
                   CpelTimeline   *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double x1;

  if (!self->measuring)
    return;
  if (!self->drag_moved && fabs (dx) < CLICK_SLOP)
    return;
  self->drag_moved = TRUE;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);

  x1 = CLAMP (self->drag_x + dx, self->view.label_width, width);
  cpel_session_set_measure (self->session,
                            _cpel_timeline_measure_time (self, self->drag_x, self->drag_y),
                            _cpel_timeline_measure_time (self, x1, self->drag_y + dy));
}

static void
on_measure_end (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                CpelTimeline   *self)
{
  if (!self->measuring)
    return;
  self->measuring = FALSE;
  /* A right click without a drag clears the measurement; on an event it
   * selects it and opens its menu (chase). */
  if (!self->drag_moved)
    {
      cpel_timeline_clear_measure (self);
      if (self->drag_y >= self->view.ruler_height
          && cpel_timeline_select_at (self, self->drag_x, self->drag_y))
        _cpel_timeline_show_event_menu (self, self->drag_x, self->drag_y);
    }
}

static void
on_pinch_begin (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                CpelTimeline     *self)
{
  double x, y;

  if (self->file == NULL)
    {
      gtk_gesture_set_state (gesture, GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->pinch_range = *_cpel_timeline_view_range (self);
  if (!gtk_gesture_get_bounding_box_center (gesture, &x, &y) || x < self->view.label_width)
    self->pinch_anchor = self->pinch_range.t0 + cpel_range_span (&self->pinch_range) / 2;
  else
    self->pinch_anchor = cpel_view_x_to_time (&self->view,
                                              gtk_widget_get_width (GTK_WIDGET (self)), x);
}

static void
on_pinch_scale_changed (GtkGestureZoom *gesture,
                        double          scale,
                        CpelTimeline   *self)
{
  CpelRange range = self->pinch_range;

  if (self->file == NULL || scale <= 0)
    return;
  cpel_range_zoom (&range, scale, self->pinch_anchor, _cpel_timeline_limits (self));
  _cpel_timeline_apply_range (self, &range, 2);
}

void
_cpel_timeline_input_init (CpelTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_measure_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_measure_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_measure_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (on_pinch_begin), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (on_pinch_scale_changed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}
