/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-compare-search.c — one query over both captures of a compare pane
 *
 * The query is compiled per capture (event codes and names are each file's
 * own) and run by cpel_search_async() for each at once; the result of each
 * is filtered to what its pane shows (its rows and its shown event types)
 * and highlighted there.  Stepping goes through A's matches (B's when A has
 * none); the other pane selects its first match at or after the same
 * aligned time, so that the two selections are the "same" place of the two
 * runs.  A newer query, a swap of A and B or a dispose cancels the running
 * searches.
 */
#include "cpel-compare-search.h"

#include <glib/gi18n.h>

#include "cpel-app-util.h"
#include "cpel-async.h"

typedef struct
{
  CpelSearchResult *result;    /* every match */
  CpelSearchResult *visible;   /* on shown rows, of shown types */
  gint64            current;   /* position in visible, or -1 */
} Side;

struct _CpelCompareSearch
{
  GObject          parent_instance;

  CpelComparePane *pane;       /* weak: the pane owns nothing of us */
  Side             sides[2];
  GCancellable    *cancellable;
  guint            generation;
  guint            running;    /* searches in flight */
  gboolean         has_result;
  gboolean         shown;
  /* the last query, run again when the pane's captures change */
  CpelSearchMode   mode;
  char            *text;
  gboolean         case_sensitive;
};

G_DEFINE_FINAL_TYPE (CpelCompareSearch, cpel_compare_search, G_TYPE_OBJECT)

enum
{
  FINISHED,
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->result, cpel_search_result_unref);
  g_clear_pointer (&side->visible, cpel_search_result_unref);
  side->current = -1;
}

static const CpelView *
side_view (CpelCompareSearch *self,
           CpelCompareSide    side)
{
  const CpelCompareView *cv = cpel_compare_pane_get_view (self->pane);

  return side == CPEL_COMPARE_A ? &cv->a : &cv->b;
}

/* The matches on the rows the pane shows and of its shown types. */
static void
refilter_side (CpelCompareSearch *self,
               CpelCompareSide    which)
{
  Side *side = &self->sides[which];
  const CpelView *view = side_view (self, which);
  g_autofree guint8 *hidden_slots = NULL;
  guint n_tracks;

  g_clear_pointer (&side->visible, cpel_search_result_unref);
  side->current = -1;
  if (side->result == NULL || view->file == NULL)
    return;
  n_tracks = cpel_file_get_n_tracks (view->file);
  if (view->rows != NULL && view->n_rows < n_tracks)
    {
      hidden_slots = g_malloc (MAX (n_tracks, 1));
      memset (hidden_slots, 1, n_tracks);
      for (guint r = 0; r < view->n_rows; r++)
        if (view->rows[r] < n_tracks)
          hidden_slots[view->rows[r]] = 0;
    }
  side->visible = cpel_search_result_filter (side->result, view->file, hidden_slots,
                                             view->hidden_types);
}

static void
show (CpelCompareSearch *self)
{
  if (self->pane == NULL)
    return;
  cpel_compare_pane_set_matches (self->pane,
                                 self->shown ? self->sides[CPEL_COMPARE_A].visible : NULL,
                                 self->shown ? self->sides[CPEL_COMPARE_B].visible : NULL);
}

static void
stop (CpelCompareSearch *self)
{
  self->generation++;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->running = 0;
}

typedef struct
{
  CpelCompareSearch *self;
  guint              generation;
  CpelCompareSide    side;
} RunData;

static void
on_search_done (GObject      *source,
                GAsyncResult *res,
                gpointer      user_data)
{
  RunData *data = user_data;
  g_autoptr(CpelCompareSearch) self = data->self;
  g_autoptr(CpelSearchResult) result = NULL;
  CpelCompareSide which = data->side;
  guint generation = data->generation;

  g_free (data);
  result = cpel_search_finish (res, NULL);
  if (generation != self->generation || self->pane == NULL)
    return;   /* superseded */
  self->sides[which].result = g_steal_pointer (&result);
  refilter_side (self, which);
  if (--self->running > 0)
    return;
  g_clear_object (&self->cancellable);
  self->has_result = TRUE;
  show (self);
  g_signal_emit (self, signals[FINISHED], 0);
}

static void
start (CpelCompareSearch *self,
       CpelQuery         *query,
       CpelFile          *file,
       CpelCompareSide    side)
{
  RunData *data = g_new0 (RunData, 1);

  data->self = g_object_ref (self);
  data->generation = self->generation;
  data->side = side;
  self->running++;
  cpel_search_async (file, query, self->cancellable, NULL, on_search_done, data);
}

gboolean
cpel_compare_search_run (CpelCompareSearch *self,
                         CpelSearchMode     mode,
                         const char        *text,
                         gboolean           case_sensitive,
                         GError           **error)
{
  CpelFile *file_a, *file_b;
  g_autoptr(GError) error_a = NULL;
  g_autoptr(GError) error_b = NULL;
  CpelQuery *query_a = NULL, *query_b = NULL;

  g_return_val_if_fail (CPEL_IS_COMPARE_SEARCH (self), FALSE);

  stop (self);
  side_clear (&self->sides[CPEL_COMPARE_A]);
  side_clear (&self->sides[CPEL_COMPARE_B]);
  self->has_result = FALSE;
  if (text != self->text)
    {
      g_free (self->text);
      self->text = g_strdup (text);
    }
  self->mode = mode;
  self->case_sensitive = case_sensitive;
  show (self);
  if (self->pane == NULL || text == NULL || *text == '\0')
    return TRUE;

  file_a = cpel_compare_pane_get_file_a (self->pane);
  file_b = cpel_compare_pane_get_file_b (self->pane);
  if (file_a != NULL)
    query_a = cpel_query_new (file_a, mode, text, case_sensitive, &error_a);
  if (file_b != NULL)
    query_b = cpel_query_new (file_b, mode, text, case_sensitive, &error_b);
  if (query_a == NULL && query_b == NULL)
    {
      if (error_a != NULL)
        g_propagate_error (error, g_steal_pointer (&error_a));
      else if (error_b != NULL)
        g_propagate_error (error, g_steal_pointer (&error_b));
      else
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("Nothing to search"));
      return FALSE;
    }

  self->cancellable = g_cancellable_new ();
  if (query_a != NULL)
    start (self, query_a, file_a, CPEL_COMPARE_A);
  if (query_b != NULL)
    start (self, query_b, file_b, CPEL_COMPARE_B);
  return TRUE;
}

void
cpel_compare_search_cancel (CpelCompareSearch *self)
{
  g_return_if_fail (CPEL_IS_COMPARE_SEARCH (self));
  stop (self);
}

gboolean
cpel_compare_search_is_running (CpelCompareSearch *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_SEARCH (self), FALSE);
  return self->running > 0;
}

gboolean
cpel_compare_search_has_result (CpelCompareSearch *self)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_SEARCH (self), FALSE);
  return self->has_result;
}

void
cpel_compare_search_set_shown (CpelCompareSearch *self,
                               gboolean           shown)
{
  g_return_if_fail (CPEL_IS_COMPARE_SEARCH (self));
  self->shown = !!shown;
  show (self);
}

guint64
cpel_compare_search_get_n (CpelCompareSearch *self,
                           CpelCompareSide    side)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_SEARCH (self), 0);
  return self->sides[side].visible != NULL ? cpel_search_result_get_n (self->sides[side].visible) : 0;
}

gint64
cpel_compare_search_get_current (CpelCompareSearch *self,
                                 CpelCompareSide    side)
{
  g_return_val_if_fail (CPEL_IS_COMPARE_SEARCH (self), -1);
  return self->sides[side].current;
}

/* Time of a match, on A's axis (B's time - offset). */
static gint64
match_time (CpelCompareSearch *self,
            CpelCompareSide    which,
            guint64            pos,
            guint64           *file_index)
{
  const CpelView *view = side_view (self, which);
  const CpelEventRef *ref = cpel_search_result_get (self->sides[which].visible, pos);
  CpelEvent event;

  cpel_file_get_track_event (view->file, ref->slot, ref->index, &event);
  if (file_index != NULL)
    *file_index = event.file_index;
  if (which == CPEL_COMPARE_A)
    return event.time_ns;
  return event.time_ns - cpel_compare_pane_get_view (self->pane)->offset_b;
}

gboolean
cpel_compare_search_step (CpelCompareSearch *self,
                          int                direction)
{
  CpelCompareSide lead, other;
  Side *side;
  const CpelView *view;
  const CpelEventRef *ref;
  guint64 n;
  gint64 pos, t;

  g_return_val_if_fail (CPEL_IS_COMPARE_SEARCH (self), FALSE);

  if (self->pane == NULL || self->running > 0)
    return FALSE;
  lead = cpel_compare_search_get_n (self, CPEL_COMPARE_A) > 0 ? CPEL_COMPARE_A : CPEL_COMPARE_B;
  other = lead == CPEL_COMPARE_A ? CPEL_COMPARE_B : CPEL_COMPARE_A;
  side = &self->sides[lead];
  n = cpel_compare_search_get_n (self, lead);
  if (n == 0)
    return FALSE;
  view = side_view (self, lead);

  if (side->current >= 0 && (guint64) side->current < n)
    pos = side->current + (direction >= 0 ? 1 : -1);
  else if (direction >= 0)
    pos = (gint64) cpel_search_result_find_next (side->visible, view->file, view->t0, 0);
  else
    pos = (gint64) cpel_search_result_find_next (side->visible, view->file, view->t1, 0) - 1;
  if (pos < 0)
    pos = (gint64) n - 1;
  else if ((guint64) pos >= n)
    pos = 0;
  side->current = pos;
  ref = cpel_search_result_get (side->visible, (guint64) pos);
  t = match_time (self, lead, (guint64) pos, NULL);

  /* the other pane: its first match at or after the same aligned time */
  {
    Side *o = &self->sides[other];
    guint64 no = cpel_compare_search_get_n (self, other);

    o->current = -1;
    if (no > 0)
      {
        const CpelView *ov = side_view (self, other);
        gint64 ot = other == CPEL_COMPARE_B ? t + cpel_compare_pane_get_view (self->pane)->offset_b : t;
        guint64 opos = cpel_search_result_find_next (o->visible, ov->file, ot, 0);

        if (opos < no)
          {
            const CpelEventRef *oref = cpel_search_result_get (o->visible, opos);

            o->current = (gint64) opos;
            cpel_compare_pane_select (self->pane, other, oref->slot, oref->index);
          }
      }
    if (o->current < 0)
      cpel_compare_pane_select (self->pane, other, G_MAXUINT, 0);
  }
  /* the lead's match last: the one the details pane shows */
  cpel_compare_pane_select (self->pane, lead, ref->slot, ref->index);
  cpel_compare_pane_center (self->pane, t);
  return TRUE;
}

char *
cpel_compare_search_dup_status (CpelCompareSearch *self)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_return_val_if_fail (CPEL_IS_COMPARE_SEARCH (self), NULL);

  if (!self->has_result)
    return NULL;
  for (CpelCompareSide which = CPEL_COMPARE_A; which <= CPEL_COMPARE_B; which++)
    {
      guint64 n = cpel_compare_search_get_n (self, which);
      gint64 current = self->sides[which].current;
      g_autofree char *total = cpel_format_count (n);
      char *text;

      if (current >= 0)
        {
          g_autofree char *position = cpel_format_count ((guint64) current + 1);

          text = which == CPEL_COMPARE_A
                 /* TRANSLATORS: search matches while comparing: "3 of 120 in A" */
                 ? g_strdup_printf (_("%s of %s in A"), position, total)
                 /* TRANSLATORS: search matches while comparing: "3 of 120 in B" */
                 : g_strdup_printf (_("%s of %s in B"), position, total);
        }
      else
        text = which == CPEL_COMPARE_A
               /* TRANSLATORS: search matches while comparing: "120 in A" */
               ? g_strdup_printf (_("%s in A"), total)
               /* TRANSLATORS: search matches while comparing: "95 in B" */
               : g_strdup_printf (_("%s in B"), total);
      if (which == CPEL_COMPARE_A)
        a = text;
      else
        b = text;
    }
  /* TRANSLATORS: "3 of 120 in A · 0 of 95 in B" */
  return g_strdup_printf (_("%s · %s"), a, b);
}

/* A pane's filters changed: the matches counted and shown follow. */
static void
on_filters_changed (CpelCompareSearch *self)
{
  if (!self->has_result)
    return;
  refilter_side (self, CPEL_COMPARE_A);
  refilter_side (self, CPEL_COMPARE_B);
  show (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* The captures changed (a swap): the same query over them. */
static void
on_files_changed (CpelCompareSearch *self)
{
  g_autofree char *text = g_strdup (self->text);

  if (text != NULL && *text != '\0')
    cpel_compare_search_run (self, self->mode, text, self->case_sensitive, NULL);
}

static void
cpel_compare_search_dispose (GObject *object)
{
  CpelCompareSearch *self = CPEL_COMPARE_SEARCH (object);

  stop (self);
  if (self->pane != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->pane, self);
      g_object_remove_weak_pointer (G_OBJECT (self->pane), (gpointer *) &self->pane);
      self->pane = NULL;
    }
  side_clear (&self->sides[CPEL_COMPARE_A]);
  side_clear (&self->sides[CPEL_COMPARE_B]);
  G_OBJECT_CLASS (cpel_compare_search_parent_class)->dispose (object);
}

static void
cpel_compare_search_finalize (GObject *object)
{
  CpelCompareSearch *self = CPEL_COMPARE_SEARCH (object);

  g_free (self->text);
  G_OBJECT_CLASS (cpel_compare_search_parent_class)->finalize (object);
}

static void
cpel_compare_search_class_init (CpelCompareSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cpel_compare_search_dispose;
  object_class->finalize = cpel_compare_search_finalize;

  /* Both searches are done (not emitted for a search a newer one replaced). */
  signals[FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The counts changed without a new search (a pane's filters). */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
cpel_compare_search_init (CpelCompareSearch *self)
{
  self->sides[CPEL_COMPARE_A].current = -1;
  self->sides[CPEL_COMPARE_B].current = -1;
}

CpelCompareSearch *
cpel_compare_search_new (CpelComparePane *pane)
{
  CpelCompareSearch *self;

  g_return_val_if_fail (CPEL_IS_COMPARE_PANE (pane), NULL);

  self = g_object_new (CPEL_TYPE_COMPARE_SEARCH, NULL);
  self->pane = pane;
  g_object_add_weak_pointer (G_OBJECT (pane), (gpointer *) &self->pane);
  g_signal_connect_swapped (pane, "notify::file-a", G_CALLBACK (on_files_changed), self);
  g_signal_connect_swapped (pane, "notify::filters", G_CALLBACK (on_filters_changed), self);
  return self;
}
