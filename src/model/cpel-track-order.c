/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-track-order.c — which tracks a timeline shows, and in what order */
#include "cpel-track-order.h"

#include <glib/gi18n-lib.h>
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
  char      *filter;     /* casefolded text, or the pattern; NULL = none */
  GRegex    *regex;      /* the compiled pattern of a regex filter */
  gboolean   gave_up;    /* matching it hit the backtracking limit on a label */
  char     **folded;     /* casefolded labels, built on first text filter */
  char     **labels;     /* valid UTF-8 labels, built on first regex filter */
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
  if (self->regex != NULL)
    {
      if (self->labels == NULL)
        {
          self->labels = g_new0 (char *, self->n + 1);
          for (guint i = 0; i < self->n; i++)
            {
              const char *label = cpel_file_get_track_label (self->file, i);

              self->labels[i] = g_utf8_make_valid (label != NULL ? label : "", -1);
            }
        }
      {
        GError *local = NULL;
        gboolean matched;

        /* one label at PCRE2's backtracking limit (some 0.1 s): the next
         * ones would each take as long; none matches from then on */
        if (self->gave_up)
          return FALSE;
        matched = g_regex_match_full (self->regex, self->labels[slot], -1, 0, 0, NULL, &local);
        if (local != NULL)
          {
            self->gave_up = TRUE;
            g_error_free (local);
          }
        return matched;
      }
    }
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

gboolean
cpel_track_order_can_move (CpelTrackOrder *self,
                           guint           slot,
                           int             delta)
{
  guint p;

  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), FALSE);
  g_return_val_if_fail (slot < self->n, FALSE);

  p = self->position[slot];
  if (delta < 0)
    {
      for (guint q = p; q-- > 0;)
        if (self->pinned[self->order[q]] == self->pinned[slot])
          return TRUE;
    }
  else if (delta > 0)
    {
      for (guint q = p + 1; q < self->n; q++)
        if (self->pinned[self->order[q]] == self->pinned[slot])
          return TRUE;
    }
  return FALSE;
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
  if (self->regex == NULL && g_strcmp0 (folded, self->filter) == 0)
    return;
  g_clear_pointer (&self->regex, g_regex_unref);
  g_free (self->filter);
  self->filter = g_steal_pointer (&folded);
  rebuild (self);
}

gboolean
cpel_track_order_set_filter_regex (CpelTrackOrder  *self,
                                   const char      *pattern,
                                   GError         **error)
{
  g_autoptr(GRegex) regex = NULL;
  g_autofree char *valid = NULL;

  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (pattern == NULL || *pattern == '\0')
    {
      cpel_track_order_set_filter (self, NULL);
      return TRUE;
    }
  valid = g_utf8_make_valid (pattern, -1);
  if (self->regex != NULL && g_strcmp0 (valid, self->filter) == 0)
    return TRUE;
  /* No G_REGEX_OPTIMIZE: a few thousand short labels do not need the JIT. */
  regex = g_regex_new (valid, G_REGEX_CASELESS, 0, error);
  if (regex == NULL)
    return FALSE;
  g_clear_pointer (&self->regex, g_regex_unref);
  self->regex = g_steal_pointer (&regex);
  self->gave_up = FALSE;
  g_free (self->filter);
  self->filter = g_steal_pointer (&valid);
  rebuild (self);
  if (self->gave_up)
    {
      cpel_track_order_set_filter (self, NULL);
      g_set_error_literal (error, G_REGEX_ERROR, G_REGEX_ERROR_MATCH,
                           _("The regular expression is too complex: matching it gave up "
                             "(simplify it, e.g. no nested repeats like (a+)+)"));
      return FALSE;
    }
  return TRUE;
}

gboolean
cpel_track_order_get_filter_is_regex (CpelTrackOrder *self)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), FALSE);
  return self->regex != NULL;
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
  g_clear_pointer (&self->regex, g_regex_unref);
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

/* Move the track at position `from` to position `to` of the full order. */
static void
shift (CpelTrackOrder *self,
       guint           from,
       guint           to)
{
  guint slot = self->order[from];

  if (to < from)
    memmove (&self->order[to + 1], &self->order[to], (from - to) * sizeof (guint));
  else if (to > from)
    memmove (&self->order[from], &self->order[from + 1], (to - from) * sizeof (guint));
  self->order[to] = slot;
  for (guint p = MIN (from, to); p <= MAX (from, to); p++)
    self->position[self->order[p]] = p;
}

void
cpel_track_order_raise (CpelTrackOrder *self,
                        guint           slot,
                        gboolean        to_top)
{
  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));
  g_return_if_fail (slot < self->n);
  cpel_track_order_move (self, slot, to_top ? -(int) MIN (self->n, G_MAXINT) : (int) MIN (self->n, G_MAXINT));
}

void
cpel_track_order_place (CpelTrackOrder *self,
                        guint           slot,
                        guint           before)
{
  guint from, to;
  gboolean pinned;

  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));
  g_return_if_fail (slot < self->n);
  g_return_if_fail (before == G_MAXUINT || before < self->n);

  if (before == slot)
    return;
  from = self->position[slot];
  if (before == G_MAXUINT)
    {
      to = self->n - 1;
      pinned = FALSE;
    }
  else
    {
      to = self->position[before];
      if (to > from)
        to--;   /* the slots after `from` move up one */
      pinned = self->pinned[before];
    }
  if (to == from && self->pinned[slot] == pinned)
    return;
  shift (self, from, to);
  self->pinned[slot] = pinned;
  rebuild (self);
}

typedef struct
{
  CpelTrackOrder *self;
  CpelTrackSort   key;
  char          **keys;   /* NAME: collation keys per slot */
} SortData;

static int
compare_slots (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const SortData *data = user_data;
  guint sa = *(const guint *) a;
  guint sb = *(const guint *) b;
  int c = 0;

  switch (data->key)
    {
    case CPEL_TRACK_SORT_NAME:
      c = strcmp (data->keys[sa], data->keys[sb]);
      break;
    case CPEL_TRACK_SORT_ID:
      {
        guint32 ia = cpel_file_get_track_id (data->self->file, sa);
        guint32 ib = cpel_file_get_track_id (data->self->file, sb);

        c = ia < ib ? -1 : ia > ib;
      }
      break;
    case CPEL_TRACK_SORT_COUNT:
      {
        guint64 na = cpel_file_get_track_n_events (data->self->file, sa);
        guint64 nb = cpel_file_get_track_n_events (data->self->file, sb);

        c = na > nb ? -1 : na < nb;
      }
      break;
    case CPEL_TRACK_SORT_DEFAULT:
    default:
      break;
    }
  return c != 0 ? c : (sa < sb ? -1 : sa > sb);
}

void
cpel_track_order_sort (CpelTrackOrder *self,
                       CpelTrackSort   key)
{
  SortData data = { self, key, NULL };

  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));

  if (key == CPEL_TRACK_SORT_NAME)
    {
      data.keys = g_new0 (char *, self->n + 1);
      for (guint i = 0; i < self->n; i++)
        {
          const char *label = cpel_file_get_track_label (self->file, i);
          g_autofree char *valid = g_utf8_make_valid (label != NULL ? label : "", -1);

          /* The file-name key sorts "thread 2" before "thread 10". */
          data.keys[i] = g_utf8_collate_key_for_filename (valid, -1);
        }
    }
  for (guint i = 0; i < self->n; i++)
    self->order[i] = i;
  g_qsort_with_data (self->order, (gint) self->n, sizeof (guint), compare_slots, &data);
  for (guint p = 0; p < self->n; p++)
    self->position[self->order[p]] = p;
  g_strfreev (data.keys);
  rebuild (self);
}

void
cpel_track_order_set_rows (CpelTrackOrder *self,
                           const guint    *slots,
                           guint           n_slots)
{
  guint p = 0;

  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));
  g_return_if_fail (slots != NULL || n_slots == 0);

  memset (self->hidden, 1, self->n);
  memset (self->pinned, 0, self->n);
  g_clear_pointer (&self->filter, g_free);
  g_clear_pointer (&self->regex, g_regex_unref);
  for (guint i = 0; i < n_slots; i++)
    if (slots[i] < self->n && self->hidden[slots[i]])
      {
        self->hidden[slots[i]] = 0;
        self->order[p++] = slots[i];
      }
  for (guint slot = 0; slot < self->n; slot++)
    if (self->hidden[slot])
      self->order[p++] = slot;
  for (p = 0; p < self->n; p++)
    self->position[self->order[p]] = p;
  rebuild (self);
}

CpelTrackOrder *
cpel_track_order_copy (CpelTrackOrder *self)
{
  CpelTrackOrder *copy;

  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), NULL);
  copy = cpel_track_order_new (self->file);
  cpel_track_order_assign (copy, self);
  return copy;
}

void
cpel_track_order_assign (CpelTrackOrder *self,
                         CpelTrackOrder *from)
{
  g_return_if_fail (CPEL_IS_TRACK_ORDER (self));
  g_return_if_fail (CPEL_IS_TRACK_ORDER (from));
  g_return_if_fail (from->n == self->n);

  if (self == from)
    return;
  memcpy (self->order, from->order, self->n * sizeof (guint));
  memcpy (self->position, from->position, self->n * sizeof (guint));
  memcpy (self->hidden, from->hidden, self->n);
  memcpy (self->pinned, from->pinned, self->n);
  g_free (self->filter);
  self->filter = g_strdup (from->filter);
  g_clear_pointer (&self->regex, g_regex_unref);
  if (from->regex != NULL)
    self->regex = g_regex_ref (from->regex);
  rebuild (self);
}

gboolean
cpel_track_order_equal (CpelTrackOrder *a,
                        CpelTrackOrder *b)
{
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (a), FALSE);
  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (b), FALSE);

  return a->n == b->n
         && memcmp (a->order, b->order, a->n * sizeof (guint)) == 0
         && memcmp (a->hidden, b->hidden, a->n) == 0
         && memcmp (a->pinned, b->pinned, a->n) == 0
         && g_strcmp0 (a->filter, b->filter) == 0
         && (a->regex != NULL) == (b->regex != NULL);
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
  g_clear_pointer (&self->regex, g_regex_unref);
  g_strfreev (self->folded);
  g_strfreev (self->labels);

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

guint *
cpel_track_order_get_listed (CpelTrackOrder *self,
                             guint          *n_slots)
{
  guint *slots;
  guint n = 0;

  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), NULL);
  g_return_val_if_fail (n_slots != NULL, NULL);

  slots = g_new (guint, MAX (self->n, 1));
  for (int pass = 0; pass < 2; pass++)
    for (guint p = 0; p < self->n; p++)
      {
        guint slot = self->order[p];
        gboolean pinned = self->pinned[slot] != 0;

        if (pass == 0 ? pinned : !pinned && matches (self, slot))
          slots[n++] = slot;
      }
  *n_slots = n;
  return slots;
}

guint
cpel_track_order_first_shown_match (CpelTrackOrder *self)
{
  const guint *rows;
  guint n_rows;

  g_return_val_if_fail (CPEL_IS_TRACK_ORDER (self), G_MAXUINT);
  rows = cpel_track_order_get_rows (self, &n_rows);
  for (guint r = 0; r < n_rows; r++)
    {
      guint slot = rows != NULL ? rows[r] : r;

      if (matches (self, slot))
        return slot;
    }
  return G_MAXUINT;
}
