/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-toaster.c — the one way to show a toast in a toast overlay
 *
 * libadwaita 1.2's AdwToastOverlay frees a toast when its hide animation
 * ends, even when its show animation still runs; that animation's next
 * frame then touches freed memory (SIGSEGV in g_object_unref under
 * adw_animation_skip).  A toast added while another one hides shows in
 * 500 ms and hides in 300 ms, so dismissing it within 200 ms crashes; a
 * high-priority toast postpones the one shown, and a postponed toast shown
 * again before its hide animation is over aborts
 * (adw-toast-overlay.c:244 show_toast: assertion failed: (!info->widget)).
 * Quick keys (h u h u …, x z x z …) did both.
 *
 * So the overlay never gets a second toast or an early dismissal from
 * here:
 *  - at most one toast of ours is in the overlay; a new message while it
 *    is shown changes its title, button and timeout in place (adding the
 *    same toast again only restarts its timeout);
 *  - a message that comes while a dismissed toast still hides waits until
 *    the overlay holds no toast widget any more (checked each frame), then
 *    is shown as a new toast (it then shows in 300 ms, not 500);
 *  - withdrawing a message dismisses its toast only once the overlay's
 *    frame clock has passed the end of its show animation;
 *  - no toast has high priority (none postpones another).
 * A toast the user closes (or whose button is pressed) is forgotten at
 * once; the next message waits for its widget to go as above.
 */
#include "cpel-toaster.h"

/* The show animation lasts 300 ms (500 ms replacing one that hides): a
 * frame this much later is past it. */
#define SETTLE_USEC (600 * G_TIME_SPAN_MILLISECOND)

typedef struct
{
  guint     id;
  char     *text;
  guint     timeout;
  char     *button;
  char     *action;
  GVariant *target;
} Message;

struct _CpelToaster
{
  GObject          parent_instance;

  AdwToastOverlay *overlay;            /* weak */
  AdwToast        *toast;              /* ours in the overlay, until dismissed */
  guint            shown_id;           /* the message it shows */
  char            *shown_text;
  gint64           shown_frame_time;   /* the overlay's frame time when added */
  gboolean         settled;            /* its show animation is over */
  guint            withdraw_id;        /* dismiss it once settled (its message) */
  Message         *pending;            /* waits for the overlay to be empty */
  guint            next_id;
  guint            tick_id;
  guint            idle_id;
};

G_DEFINE_FINAL_TYPE (CpelToaster, cpel_toaster, G_TYPE_OBJECT)

static void sync_state (CpelToaster *self);

static void
message_free (Message *message)
{
  g_free (message->text);
  g_free (message->button);
  g_free (message->action);
  g_clear_pointer (&message->target, g_variant_unref);
  g_free (message);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Message, message_free)

/* Does the overlay hold a toast widget (shown or hiding)? */
static gboolean
overlay_busy (AdwToastOverlay *overlay)
{
  GtkWidget *content = adw_toast_overlay_get_child (overlay);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (overlay));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child != content)
      return TRUE;
  return FALSE;
}

static void
apply_message (AdwToast      *toast,
               const Message *message)
{
  g_autofree char *escaped = g_markup_escape_text (message->text, -1);

  adw_toast_set_title (toast, escaped);
  adw_toast_set_button_label (toast, message->button);
  adw_toast_set_action_name (toast, message->button != NULL ? message->action : NULL);
  adw_toast_set_action_target_value (toast, message->button != NULL ? message->target : NULL);
  adw_toast_set_timeout (toast, message->timeout);
}

/* Our toast is gone from our hands (dismissed, or its button pressed: the
 * overlay dismisses it right after). */
static void
forget_toast (CpelToaster *self)
{
  if (self->toast == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->toast, self);
  g_clear_object (&self->toast);
  g_clear_pointer (&self->shown_text, g_free);
  self->shown_id = 0;
  self->withdraw_id = 0;
  self->settled = FALSE;
}

static void
on_toast_gone (AdwToast    *toast,
               CpelToaster *self)
{
  if (toast == self->toast)
    forget_toast (self);
}

static gboolean
on_idle (gpointer data)
{
  CpelToaster *self = data;

  self->idle_id = 0;
  sync_state (self);
  return G_SOURCE_REMOVE;
}

static void
queue_sync (CpelToaster *self)
{
  if (self->idle_id == 0)
    self->idle_id = g_idle_add (on_idle, self);
}

/* Each frame while something waits: is the show animation over, is the
 * overlay empty?  The work itself is done after the frame. */
static gboolean
on_tick (GtkWidget     *overlay,
         GdkFrameClock *clock,
         gpointer       data)
{
  CpelToaster *self = data;

  if (self->toast != NULL && !self->settled
      && gdk_frame_clock_get_frame_time (clock) >= self->shown_frame_time + SETTLE_USEC)
    self->settled = TRUE;
  queue_sync (self);
  return G_SOURCE_CONTINUE;
}

static void
set_ticking (CpelToaster *self,
             gboolean     ticking)
{
  if (ticking && self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->overlay), on_tick, self, NULL);
  else if (!ticking && self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->overlay), self->tick_id);
      self->tick_id = 0;
    }
}

static void
add_toast (CpelToaster *self,
           Message     *message)
{
  AdwToast *toast = adw_toast_new ("");
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->overlay));

  apply_message (toast, message);
  self->toast = g_object_ref (toast);
  self->shown_id = message->id;
  self->shown_text = g_strdup (message->text);
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_toast_gone), self);
  g_signal_connect (toast, "button-clicked", G_CALLBACK (on_toast_gone), self);
  adw_toast_overlay_add_toast (self->overlay, toast);
  /* Unmapped, the overlay skipped the animation; mapped, it started it at
   * a frame time no later than this one. */
  self->settled = clock == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self->overlay));
  self->shown_frame_time = clock != NULL ? gdk_frame_clock_get_frame_time (clock) : 0;
}

static void
sync_state (CpelToaster *self)
{
  gboolean waiting = FALSE;

  if (self->overlay == NULL)
    return;
  if (self->toast == NULL && self->pending != NULL)
    {
      if (overlay_busy (self->overlay))
        waiting = TRUE;
      else
        {
          g_autoptr(Message) message = g_steal_pointer (&self->pending);

          add_toast (self, message);
        }
    }
  if (self->toast != NULL && self->withdraw_id != 0 && self->withdraw_id == self->shown_id)
    {
      if (self->settled || !gtk_widget_get_mapped (GTK_WIDGET (self->overlay)))
        {
          g_autoptr(AdwToast) toast = g_object_ref (self->toast);

          forget_toast (self);
          adw_toast_dismiss (toast);
        }
      else
        waiting = TRUE;
    }
  set_ticking (self, waiting);
}

guint
cpel_toaster_show_full (CpelToaster *self,
                        const char  *text,
                        guint        timeout,
                        const char  *button,
                        const char  *action,
                        GVariant    *target)
{
  g_autoptr(Message) message = NULL;

  g_return_val_if_fail (CPEL_IS_TOASTER (self), 0);
  g_return_val_if_fail (text != NULL, 0);
  g_return_val_if_fail (button == NULL || action != NULL, 0);

  message = g_new0 (Message, 1);
  if (++self->next_id == 0)
    self->next_id = 1;
  message->id = self->next_id;
  message->text = g_strdup (text);
  message->timeout = timeout;
  message->button = g_strdup (button);
  message->action = g_strdup (action);
  message->target = target != NULL ? g_variant_ref_sink (target) : NULL;

  self->withdraw_id = 0;
  if (self->overlay == NULL)
    return message->id;
  if (self->toast != NULL)
    {
      /* In place: the same toast, added again, restarts its timeout. */
      apply_message (self->toast, message);
      self->shown_id = message->id;
      g_free (self->shown_text);
      self->shown_text = g_strdup (text);
      adw_toast_overlay_add_toast (self->overlay, g_object_ref (self->toast));
      return message->id;
    }
  g_clear_pointer (&self->pending, message_free);
  self->pending = g_steal_pointer (&message);
  sync_state (self);
  return self->next_id;
}

guint
cpel_toaster_show (CpelToaster *self,
                   const char  *text)
{
  return cpel_toaster_show_full (self, text, CPEL_TOASTER_TIMEOUT, NULL, NULL, NULL);
}

void
cpel_toaster_withdraw (CpelToaster *self,
                       guint        id)
{
  g_return_if_fail (CPEL_IS_TOASTER (self));

  if (id == 0)
    return;
  if (self->pending != NULL && self->pending->id == id)
    g_clear_pointer (&self->pending, message_free);
  if (self->toast != NULL && self->shown_id == id)
    self->withdraw_id = id;
  sync_state (self);
}

const char *
cpel_toaster_get_text (CpelToaster *self)
{
  g_return_val_if_fail (CPEL_IS_TOASTER (self), NULL);

  if (self->pending != NULL)
    return self->pending->text;
  return self->shown_text;
}

CpelToaster *
cpel_toaster_new (AdwToastOverlay *overlay)
{
  CpelToaster *self;

  g_return_val_if_fail (ADW_IS_TOAST_OVERLAY (overlay), NULL);

  self = g_object_new (CPEL_TYPE_TOASTER, NULL);
  g_set_weak_pointer (&self->overlay, overlay);
  return self;
}

static void
cpel_toaster_dispose (GObject *object)
{
  CpelToaster *self = CPEL_TOASTER (object);

  if (self->overlay != NULL)
    set_ticking (self, FALSE);
  self->tick_id = 0;   /* gone with the overlay otherwise */
  g_clear_handle_id (&self->idle_id, g_source_remove);
  forget_toast (self);
  g_clear_pointer (&self->pending, message_free);
  g_clear_weak_pointer (&self->overlay);

  G_OBJECT_CLASS (cpel_toaster_parent_class)->dispose (object);
}

static void
cpel_toaster_class_init (CpelToasterClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = cpel_toaster_dispose;
}

static void
cpel_toaster_init (CpelToaster *self)
{
}
