/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-compare-pane-input.c — the compare pane's input
 *
 * Ctrl+wheel zooms around the pointer, Shift+wheel and the horizontal wheel
 * pan, the wheel scrolls the pane under the pointer (both when paired);
 * keys: + and - zoom, Left and Right pan, Home or F fits both, Alt+Left and
 * Right (Back, Forward) go through the zoom history.  A drag across the
 * ruler measures.  A click selects the event under it in its pane (each
 * pane has its own selection); the right click's menu aligns the selected
 * events or resets the alignment.
 */
#include "cpel-compare-pane-private.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "cpel-context-menu.h"

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           CpelComparePane          *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));

  if (mods & GDK_CONTROL_MASK)
    {
      gint64 center = cpel_view_x_to_time (&self->view.a, width, self->pointer_x);

      _cpel_compare_pane_zoom (self, dy > 0 ? 1.25 : 0.8, center, 2);
      return TRUE;
    }
  if ((mods & GDK_SHIFT_MASK) || dx != 0)
    {
      _cpel_compare_pane_pan (self, 0.1 * ((mods & GDK_SHIFT_MASK) ? dy : dx), 2);
      return TRUE;
    }
  {
    double top, ph;
    CpelCompareSide side = CPEL_COMPARE_A;
    CpelView *v;
    double max;

    if (!self->view.paired)
      {
        cpel_compare_view_pane (&self->view, height, CPEL_COMPARE_B, &top, &ph);
        if (self->pointer_y >= top)
          side = CPEL_COMPARE_B;
      }
    cpel_compare_view_pane (&self->view, height, side, &top, &ph);
    v = side == CPEL_COMPARE_A ? &self->view.a : &self->view.b;
    max = MAX (0, cpel_compare_view_get_content_height (&self->view, side)
                  - (ph - (self->view.paired ? 2 : 1) * self->view.header_height));
    v->scroll_y = CLAMP (v->scroll_y + dy * v->row_height, 0, max);
    _cpel_compare_pane_changed (self, FALSE);
  }
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           CpelComparePane          *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  gboolean has = self->a != NULL && x >= self->view.a.label_width && x < width;

  self->pointer_x = x;
  self->pointer_y = y;
  /* the cursor line at the pointer's time, across both panes */
  _cpel_compare_pane_set_cursor (self, has, has ? cpel_view_x_to_time (&self->view.a, width, x)
                                                : 0);
}

static void
on_leave (GtkEventControllerMotion *controller,
          CpelComparePane          *self)
{
  _cpel_compare_pane_set_cursor (self, FALSE, 0);
}

/* Measuring: a drag across the ruler; the band crosses both panes. */
static void
on_drag_begin (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               CpelComparePane *self)
{
  if (self->a == NULL || y >= self->view.a.ruler_height || x < self->view.a.label_width)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->measuring = TRUE;
  self->drag_x = x;
}

static void
on_drag_update (GtkGestureDrag  *gesture,
                double           dx,
                double           dy,
                CpelComparePane *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double x0, x1;

  if (!self->measuring)
    return;
  x0 = MAX (self->drag_x, self->view.a.label_width);
  x1 = CLAMP (self->drag_x + dx, self->view.a.label_width, width);
  cpel_compare_pane_set_measure (self, cpel_view_x_to_time (&self->view.a, width, MIN (x0, x1)),
                                 cpel_view_x_to_time (&self->view.a, width, MAX (x0, x1)));
}

static void
on_drag_end (GtkGestureDrag  *gesture,
             double           dx,
             double           dy,
             CpelComparePane *self)
{
  if (self->measuring && fabs (dx) < 3)
    cpel_compare_pane_clear_measure (self);   /* a click on the ruler */
  self->measuring = FALSE;
}

static gboolean
on_key (GtkEventControllerKey *controller,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        CpelComparePane       *self)
{
  gint64 center = self->view.a.t0 + (self->view.a.t1 - self->view.a.t0) / 2;

  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;   /* Alt+Left and Right: the history (class bindings) */
  switch (keyval)
    {
    case GDK_KEY_Escape:
      if (!self->view.a.has_measure)
        return FALSE;
      cpel_compare_pane_clear_measure (self);
      return TRUE;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      cpel_compare_pane_zoom (self, 0.5, center);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      cpel_compare_pane_zoom (self, 2.0, center);
      return TRUE;
    case GDK_KEY_Left:
      _cpel_compare_pane_pan (self, -0.1, 2);
      return TRUE;
    case GDK_KEY_Right:
      _cpel_compare_pane_pan (self, 0.1, 2);
      return TRUE;
    case GDK_KEY_Home:
    case GDK_KEY_f:
      cpel_compare_pane_zoom_fit (self);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
popup_menu (CpelComparePane *self,
            double           x,
            double           y)
{
  g_autoptr(GMenu) menu = NULL;

  if (self->context_menu == NULL)
    {
      menu = g_menu_new ();
      g_menu_append (menu, _("_Align Here"), "compare.align");
      g_menu_append (menu, _("_Reset Alignment"), "compare.reset-alignment");
    }
  _cpel_compare_pane_update_actions (self);
  cpel_context_menu_popup (&self->context_menu, GTK_WIDGET (self), G_MENU_MODEL (menu), x, y);
}

static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            CpelComparePane *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  CpelCompareSide side;
  guint slot;
  guint64 index;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->a != NULL && self->b != NULL
      && cpel_compare_view_hit_test (cpel_compare_pane_get_view (self),
                                     gtk_widget_get_width (GTK_WIDGET (self)),
                                     gtk_widget_get_height (GTK_WIDGET (self)),
                                     x, y, CPEL_VIEW_HIT_RADIUS, &side, &slot, &index))
    cpel_compare_pane_select (self, side, slot, index);
  else if (button == GDK_BUTTON_PRIMARY)
    {
      /* a click beside the events of a pane unselects there */
      CpelCompareRow row;

      if (cpel_compare_view_row_at_y (&self->view, gtk_widget_get_height (GTK_WIDGET (self)), y, &row))
        cpel_compare_pane_select (self, row.side, G_MAXUINT, 0);
    }
  if (button == GDK_BUTTON_SECONDARY)
    popup_menu (self, x, y);
}

static void
action_align (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  CpelComparePane *self = CPEL_COMPARE_PANE (widget);

  if (g_str_equal (name, "compare.align"))
    cpel_compare_pane_align_selected (self);
  else if (g_str_equal (name, "compare.back"))
    cpel_compare_pane_go_back (self);
  else if (g_str_equal (name, "compare.forward"))
    cpel_compare_pane_go_forward (self);
  else
    cpel_compare_pane_set_alignment (self, 0, 0);
}

void
_cpel_compare_pane_class_init_input (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "compare.align", NULL, action_align);
  gtk_widget_class_install_action (widget_class, "compare.reset-alignment", NULL, action_align);
  /* the timeline's keys for the zoom history (in the shortcuts window) */
  gtk_widget_class_install_action (widget_class, "compare.back", NULL, action_align);
  gtk_widget_class_install_action (widget_class, "compare.forward", NULL, action_align);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "compare.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "compare.forward", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Back, 0, "compare.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Forward, 0, "compare.forward", NULL);
}

void
_cpel_compare_pane_init_input (CpelComparePane *self)
{
  GtkEventController *scroll;
  GtkEventController *motion;
  GtkEventController *key;
  GtkGesture *click;
  GtkGesture *drag;

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES
                                            | GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

