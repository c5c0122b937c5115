/* cpel-track-order.c — which tracks a timeline shows, and in what order */
#include "cpel-track-order.h"

#include <string.h>

struct _CpelTrackOrder
{
  GObject    parent_instance;

  CpelFile  *file;
  guint      n;
  guint     *order;      /* position -> slot */
  guint     *position;   /* slot -> position */
  guint8    *hidden;
  guint8    *pinned;
  char      *filter;     /* casefolded, NULL = none */
  char     **folded;     /* casefolded labels, built on first filter */
  guint     *rows;
  guint      n_rows;
  gboolean   identity;
};

G_DEFINE_FINAL_TYPE (CpelTrackOrder, cpel_track_order, G_TYPE_OBJECT)

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
matches (CpelTrackOrder *self,
         guint           slot)
{
  if (self->filter == NULL)
    return TRUE;
  if (self->folded == NULL)
    {
      self->folded = g_new0 (char *, self->n + 1);
      for (guint i = 0; i < self->n; i++)
        {
          const char *label = cpel_file_get_track_label (self->file, i);
          g_autofree char *valid = g_utf8_make_valid (label != NULL ? label : "", -1);

          self->folded[i] = g_utf8_casefold (valid, -1);
        }
    }
  return strstr (self->folded[slot], self->filter) != NULL;
}

static void
rebuild (CpelTrackOrder *self)
{
  guint n = 0;

  self->identity = self->filter == NULL;
  for (guint p = 0; p < self->n && self->identity; p++)
    if (self->order[p] != p || self->hidden[p] || self->pinned[p])
      self->identity = FALSE;

  if (!self->identity)
    {
      /* Pinned first (they ignore the filter), then the rest. */
      for (guint p = 0; p < self->n; p++)
        {
          guint slot = self->order[p];

          if (self->pinned[slot] && !self->hidden[slot])
            self->rows[n++] = slot;
        }
      for (guint p = 0; p < self->n; p++)
        {
          guint slot = self->order[p];

          if (!self->pinned[slot] && !self->hidden[slot] && matches (self, slot))
            self->rows[n++] = slot;
        }
    }
  self->n_rows = self->identity ? self->n : n;
  g_signal_emit (self, signals[CHANGED], 0);
}

CpelTrackOrder *
cpel_track_order_new (CpelFile *file)
{
  CpelTrackOrder *self;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);

  self = g_object_new (CPEL_TYPE_TRACK_ORDER, NULL);
  self->file = g_object_ref (file);
  self->n = cpel_file_get_n_tracks (file);
  self->order = g_new (guint, MAX (self->n, 1));
  self->position = g_new (guint, MAX (self->n, 1));
  self->hidden = g_malloc0 (MAX (self->n, 1));
  self->pinned = g_malloc0 (MAX (self->n, 1));
  self->rows = g_new (guint, MAX (self->n, 1));
  for (guint i = 0; i < self->n; i++)
    self->order[i] = self->position[i] = i;
  self->identity = TRUE;
  self->n_rows = self->n;
  return self;
}

guint
cpel_track_order_get_n (CpelTrackOrder *self)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), 0);
  return self->n;
}

guint
cpel_track_order_get_slot (CpelTrackOrder *self,
                           guint           position)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), 0);
  g_return_val_if_fail (position < self->n, 0);
  return self->order[position];
}

void
cpel_track_order_move (CpelTrackOrder *self,
                       guint           slot,
                       int             delta)
{
  gint64 from, to, p;
  int step;

  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));
  g_return_if_fail (slot < self->n);

  /* Step over `delta` tracks of the same group (pinned or not): those are
   * the neighbours the user sees. */
  from = to = self->position[slot];
  step = delta < 0 ? -1 : 1;
  for (int moved = 0; moved != delta; moved += step)
    {
      for (p = to + step; p >= 0 && p < (gint64) self->n; p += step)
        if (self->pinned[self->order[p]] == self->pinned[slot])
          break;
      if (p < 0 || p >= (gint64) self->n)
        break;
      to = p;
    }
  if (to == from)
    return;
  if (to < from)
    memmove (&self->order[to + 1], &self->order[to], (from - to) * sizeof (guint));
  else
    memmove (&self->order[from], &self->order[from + 1], (to - from) * sizeof (guint));
  self->order[to] = slot;
  for (p = MIN (from, to); p <= MAX (from, to); p++)
    self->position[self->order[p]] = (guint) p;
  rebuild (self);
}

void
cpel_track_order_set_hidden (CpelTrackOrder *self,
                             guint           slot,
                             gboolean        hidden)
{
  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));
  g_return_if_fail (slot < self->n);
  if (self->hidden[slot] == !!hidden)
    return;
  self->hidden[slot] = !!hidden;
  rebuild (self);
}

gboolean
cpel_track_order_get_hidden (CpelTrackOrder *self,
                             guint           slot)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), FALSE);
  g_return_val_if_fail (slot < self->n, FALSE);
  return self->hidden[slot];
}

void
cpel_track_order_set_pinned (CpelTrackOrder *self,
                             guint           slot,
                             gboolean        pinned)
{
  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));
  g_return_if_fail (slot < self->n);
  if (self->pinned[slot] == !!pinned)
    return;
  self->pinned[slot] = !!pinned;
  rebuild (self);
}

gboolean
cpel_track_order_get_pinned (CpelTrackOrder *self,
                             guint           slot)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), FALSE);
  g_return_val_if_fail (slot < self->n, FALSE);
  return self->pinned[slot];
}

void
cpel_track_order_set_filter (CpelTrackOrder *self,
                             const char     *text)
{
  g_autofree char *folded = NULL;

  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));

  if (text != NULL && *text != '\0')
    {
      g_autofree char *valid = g_utf8_make_valid (text, -1);
      folded = g_utf8_casefold (valid, -1);
    }
  if (g_strcmp0 (folded, self->filter) == 0)
    return;
  g_free (self->filter);
  self->filter = g_steal_pointer (&folded);
  rebuild (self);
}

const char *
cpel_track_order_get_filter (CpelTrackOrder *self)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), NULL);
  return self->filter;
}

gboolean
cpel_track_order_matches (CpelTrackOrder *self,
                          guint           slot)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), FALSE);
  g_return_val_if_fail (slot < self->n, FALSE);
  return matches (self, slot);
}

void
cpel_track_order_reset (CpelTrackOrder *self)
{
  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));

  for (guint i = 0; i < self->n; i++)
    self->order[i] = self->position[i] = i;
  memset (self->hidden, 0, self->n);
  memset (self->pinned, 0, self->n);
  g_clear_pointer (&self->filter, g_free);
  rebuild (self);
}

const guint *
cpel_track_order_get_rows (CpelTrackOrder *self,
                           guint          *n_rows)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), NULL);
  if (n_rows != NULL)
    *n_rows = self->n_rows;
  return self->identity ? NULL : self->rows;
}

static void
cpel_track_order_finalize (GObject *object)
{
  CpelTrackOrder *self = CPEL_TRACK_ORDER (object);

  g_clear_object (&self->file);
  g_free (self->order);
  g_free (self->position);
  g_free (self->hidden);
  g_free (self->pinned);
  g_free (self->rows);
  g_free (self->filter);
  g_strfreev (self->folded);

  G_OBJECT_CLASS (cpel_track_order_parent_class)->finalize (object);
}

static void
cpel_track_order_class_init (CpelTrackOrderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cpel_track_order_finalize;

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
cpel_track_order_init (CpelTrackOrder *self)
{
}
