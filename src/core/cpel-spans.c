/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-spans.c — the span engine: rules applied to each track's events
 *
 * Per event type, the rules whose event= conditions its name satisfies are
 * found once (with the name's capture); an event of a type no rule wants
 * costs a lookup.  The event's text is made only when a rule needs it (a
 * text condition or a key field).  Open spans are stacks in a hash table per
 * track, keyed by "rule, capture, key value"; an emptied stack stays until
 * the table grows large (then empty ones are dropped), so call/return pairs
 * allocate nothing.  Completed spans go to a sink: the store (per-track
 * arrays of 16-byte records, sorted by begin at the end) or the summary
 * (per name and per track accumulators, durations kept for percentiles).
 */
#include "cpel-spans.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "cpel-durations-private.h"
#include "cpel-file-private.h"
#include "cpel-span-cache-private.h"
#include "cpel-span-rules-private.h"
#include "cpel-spans-private.h"
#include "cpel-stats.h"
#include "cpel-stats-private.h"
#include "cpel-time.h"
#include "cpel-tsan-private.h"

#define CANCEL_CHECK_MASK 0xffff
#define OPEN_PURGE_AT     4096
#define PREFETCH_AHEAD    32

/* ---- names ------------------------------------------------------------- */

typedef struct
{
  GHashTable *ids;     /* char* -> id + 1 */
  GPtrArray  *names;   /* char* */
  GArray     *rules;   /* guint32 per name: the rule that made it first */
  GMutex      lock;    /* the tracks may be read by several threads */
} Names;

static void
names_init (Names *n)
{
  n->names = g_ptr_array_new_with_free_func (g_free);
  n->rules = g_array_new (FALSE, FALSE, sizeof (guint32));
  n->ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_mutex_init (&n->lock);
}

static void
names_clear (Names *n)
{
  g_clear_pointer (&n->ids, g_hash_table_unref);
  g_clear_pointer (&n->names, g_ptr_array_unref);
  g_clear_pointer (&n->rules, g_array_unref);
  g_mutex_clear (&n->lock);
}

static guint32
names_intern (Names      *n,
              const char *s,
              guint32     rule)
{
  gpointer v;
  char *copy;
  guint32 id;

  cpel_mutex_lock (&n->lock);
  v = g_hash_table_lookup (n->ids, s);
  if (v != NULL)
    {
      cpel_mutex_unlock (&n->lock);
      return GPOINTER_TO_UINT (v) - 1;
    }
  copy = g_strdup (s);
  g_ptr_array_add (n->names, copy);
  g_array_append_val (n->rules, rule);
  g_hash_table_insert (n->ids, copy, GUINT_TO_POINTER (n->names->len));
  id = n->names->len - 1;
  cpel_mutex_unlock (&n->lock);
  return id;
}

/* ---- the engine ---------------------------------------------------------- */

typedef struct
{
  guint32  begin;
  guint32  name;
  gint64   t;
  guint16  depth;
} Open;

typedef struct
{
  GHashTable *open;        /* (rule << 32 | name) -> GArray of Open (rules without a key) */
  GHashTable *open_keyed;  /* "rule name value" -> GArray of Open (rules with a key) */
  GPtrArray  *stacks;      /* Engine.stack_ids -> GArray of Open, or NULL */
  guint       n_open;
  gboolean    has_state;
  guint32     state_name;
  guint32     state_begin;
  gint64      state_t;
  guint64     next_index;  /* streaming: the index of the track's next event */
} TrackState;

typedef struct
{
  guint     rule;
  gboolean  begin_ok;      /* the event= conditions of the begin hold */
  gboolean  end_ok;
  char     *cap_begin;     /* the name's capture, when an event= condition captures */
  char     *cap_end;
  gint64    name_begin;    /* the span's name id when known from the type alone, else -1 */
  gint64    name_end;
  gint64    stack_begin;   /* the stack's index in TrackState.stacks when known, else -1 */
  gint64    stack_end;
} Hit;

typedef void (*SinkFunc) (gpointer data, guint slot, const CpelSpan *span,
                          gint64 t_begin, gint64 t_end);

typedef struct
{
  CpelFile       *file;
  CpelSpanRules  *rules;
  GArray        **hits;    /* per type: Hit, or NULL */
  Names          *names;
  gint64          edge_begin;
  gint64          edge_end;
  GString        *key;
  GString        *text;
  GString        *name;
  SinkFunc        sink;
  gpointer        sink_data;
  GHashTable     *stack_ids;   /* (rule << 32 | name) -> index + 1 */
} Engine;

static gint64
stack_id (Engine  *e,
          guint    rule,
          guint32  name)
{
  guint64 k = (guint64) rule << 32 | name;
  gpointer v = g_hash_table_lookup (e->stack_ids, &k);

  if (v == NULL)
    {
      v = GUINT_TO_POINTER (g_hash_table_size (e->stack_ids) + 1);
      g_hash_table_insert (e->stack_ids, g_memdup2 (&k, sizeof k), v);
    }
  return (gint64) GPOINTER_TO_UINT (v) - 1;
}

static void
hit_clear (gpointer p)
{
  Hit *h = p;

  g_free (h->cap_begin);
  g_free (h->cap_end);
}

static guint32 span_name (Engine *e, const CpelSpanRule *rule, const char *cap);

static void
engine_init (Engine        *e,
             CpelFile      *file,
             CpelSpanRules *rules,
             Names         *names,
             gint64         edge_begin,
             gint64         edge_end)
{
  memset (e, 0, sizeof *e);
  e->file = file;
  e->rules = rules;
  e->names = names;
  e->edge_begin = edge_begin;
  e->edge_end = edge_end;
  e->key = g_string_new (NULL);
  e->text = g_string_new (NULL);
  e->name = g_string_new (NULL);
  e->hits = g_new0 (GArray *, MAX (file->n_types, 1));
  e->stack_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint type = 0; type < file->n_types; type++)
    {
      const char *tname = file->types[type].name ? file->types[type].name : "";

      for (guint r = 0; r < rules->rules->len; r++)
        {
          const CpelSpanRule *rule = g_ptr_array_index (rules->rules, r);
          const char *cb = NULL, *ce = NULL;
          gsize lb = 0, le = 0;
          Hit h = { r, FALSE, FALSE, NULL, NULL, -1, -1, -1, -1 };

          h.begin_ok = cpel_span_match_name (&rule->begin, tname, &cb, &lb);
          if (rule->kind == CPEL_SPAN_RULE_SPAN)
            h.end_ok = cpel_span_match_name (&rule->end, tname, &ce, &le);
          if (!h.begin_ok && !h.end_ok)
            continue;
          if (h.begin_ok && rule->begin.capture >= 0
              && rule->begin.conds[rule->begin.capture].kind == CPEL_SPAN_COND_EVENT)
            h.cap_begin = g_strndup (cb, lb);
          if (h.end_ok && rule->end.capture >= 0
              && rule->end.conds[rule->end.capture].kind == CPEL_SPAN_COND_EVENT)
            h.cap_end = g_strndup (ce, le);
          /* the name needs no text: no capture, or one from the name */
          if (!rule->name_captures || h.cap_begin != NULL)
            h.name_begin = span_name (e, rule, h.cap_begin);
          if (!rule->name_captures || h.cap_end != NULL)
            h.name_end = span_name (e, rule, h.cap_end);
          /* a rule without a key: the (rule, name) stack found by index */
          if (rule->key == NULL && h.name_begin >= 0)
            h.stack_begin = stack_id (e, r, (guint32) h.name_begin);
          if (rule->key == NULL && h.name_end >= 0)
            h.stack_end = stack_id (e, r, (guint32) h.name_end);
          if (e->hits[type] == NULL)
            {
              e->hits[type] = g_array_new (FALSE, FALSE, sizeof (Hit));
              g_array_set_clear_func (e->hits[type], hit_clear);
            }
          g_array_append_val (e->hits[type], h);
        }
    }
}

static void
engine_clear (Engine *e)
{
  if (e->hits != NULL)
    for (guint type = 0; type < e->file->n_types; type++)
      if (e->hits[type] != NULL)
        g_array_unref (e->hits[type]);
  g_clear_pointer (&e->hits, g_free);
  g_clear_pointer (&e->stack_ids, g_hash_table_unref);
  g_string_free (e->key, TRUE);
  g_string_free (e->text, TRUE);
  g_string_free (e->name, TRUE);
}

static void
stack_free (gpointer p)
{
  g_array_unref (p);
}

static void
stack_free_or_null (gpointer p)
{
  if (p != NULL)
    g_array_unref (p);
}

static void
track_state_init (TrackState *ts)
{
  memset (ts, 0, sizeof *ts);
  ts->open = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, stack_free);
  ts->open_keyed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, stack_free);
  ts->stacks = g_ptr_array_new_with_free_func (stack_free_or_null);
}

static void
track_state_clear (TrackState *ts)
{
  g_clear_pointer (&ts->open, g_hash_table_unref);
  g_clear_pointer (&ts->open_keyed, g_hash_table_unref);
  g_clear_pointer (&ts->stacks, g_ptr_array_unref);
}

/* The rule's NAME with its `*` replaced by the capture (`\*` a star). */
static guint32
span_name (Engine             *e,
           const CpelSpanRule *rule,
           const char         *cap)
{
  const char *p = rule->name;
  gboolean done = FALSE;

  if (!rule->name_captures && strchr (p, '\\') == NULL)
    return names_intern (e->names, p, rule->index);
  g_string_truncate (e->name, 0);
  for (; *p; p++)
    {
      if (*p == '\\' && p[1] != '\0')
        g_string_append_c (e->name, *++p);
      else if (*p == '*' && !done)
        {
          g_string_append (e->name, cap ? cap : "");
          done = TRUE;
        }
      else
        g_string_append_c (e->name, *p);
    }
  return names_intern (e->names, e->name->str, rule->index);
}

static inline void
emit (Engine     *e,
      guint       slot,
      guint32     begin,
      guint32     end,
      guint32     name,
      guint16     depth,
      guint16     flags,
      gint64      tb,
      gint64      te)
{
  CpelSpan s = { begin, end, name, depth, flags };

  e->sink (e->sink_data, slot, &s, tb, te);
}

static void
purge_empty (GHashTable *table)
{
  GHashTableIter it;
  gpointer v;

  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, NULL, &v))
    if (((GArray *) v)->len == 0)
      g_hash_table_iter_remove (&it);
}

/* The stack of open spans of (rule, name[, key value]). */
static GArray *
stack_of (Engine     *e,
          TrackState *ts,
          gint64      id,
          guint       rule,
          guint32     name,
          const char *kv,
          gsize       kvlen,
          gboolean    keyed,
          gboolean    create)
{
  GHashTable *table = keyed ? ts->open_keyed : ts->open;
  guint64 k = (guint64) rule << 32 | name;
  GArray *st;

  if (id >= 0)
    {
      if ((guint64) id >= ts->stacks->len)
        {
          if (!create)
            return NULL;
          g_ptr_array_set_size (ts->stacks, (guint) id + 1);
        }
      st = g_ptr_array_index (ts->stacks, (guint) id);
      if (st == NULL && create)
        {
          st = g_array_new (FALSE, FALSE, sizeof (Open));
          g_ptr_array_index (ts->stacks, (guint) id) = st;
        }
      return st;
    }
  if (keyed)
    {
      g_string_printf (e->key, "%u %u ", rule, name);
      g_string_append_len (e->key, kv, (gssize) kvlen);
      st = g_hash_table_lookup (table, e->key->str);
    }
  else
    st = g_hash_table_lookup (table, &k);
  if (st == NULL && create)
    {
      if (g_hash_table_size (table) >= OPEN_PURGE_AT)
        purge_empty (table);
      st = g_array_new (FALSE, FALSE, sizeof (Open));
      if (keyed)
        g_hash_table_insert (table, g_strdup (e->key->str), st);
      else
        g_hash_table_insert (table, g_memdup2 (&k, sizeof k), st);
    }
  return st;
}

/* The event's text, made once per event. */
static const char *
event_text (Engine          *e,
            const CpelEvent *ev,
            gboolean        *made)
{
  if (!*made)
    {
      g_string_truncate (e->text, 0);
      cpel_file_append_datum (e->file, ev, e->text);
      *made = TRUE;
    }
  return e->text->str;
}

/* A `from` state rule: whether the track's state is one it may follow. */
static gboolean
state_follows (Engine             *e,
               const TrackState   *ts,
               const CpelSpanRule *rule)
{
  const char *cur;

  if (!ts->has_state)
    return FALSE;
  cpel_mutex_lock (&e->names->lock);
  cur = g_ptr_array_index (e->names->names, ts->state_name);
  cpel_mutex_unlock (&e->names->lock);
  for (guint k = 0; rule->from[k] != NULL; k++)
    if (cpel_span_glob_match (rule->from[k], cur, strlen (cur), NULL, NULL))
      return TRUE;
  return FALSE;
}

static void
engine_event (Engine          *e,
              TrackState      *ts,
              guint            slot,
              guint64          index,
              const CpelEvent *ev)
{
  GArray *hits;
  gboolean made = FALSE;
  guint32 idx = (guint32) MIN (index, (guint64) G_MAXUINT32);

  if (G_UNLIKELY (ev->type >= e->file->n_types))
    return;
  hits = e->hits[ev->type];
  if (hits == NULL)
    return;
  for (guint h = 0; h < hits->len; h++)
    {
      const Hit *hit = &g_array_index (hits, Hit, h);
      const CpelSpanRule *rule = g_ptr_array_index (e->rules->rules, hit->rule);
      g_autofree char *tcap_b = NULL;
      g_autofree char *tcap_e = NULL;
      gboolean is_b = hit->begin_ok, is_e = hit->end_ok;
      const char *cap_b, *cap_e, *kv = "";
      gsize kvlen = 0;
      GArray *st;

      if (is_b && rule->begin.needs_text)
        {
          const char *t = event_text (e, ev, &made);

          is_b = cpel_span_match_text (&rule->begin, t, e->text->len, &tcap_b);
        }
      if (is_e && rule->end.needs_text)
        {
          const char *t = event_text (e, ev, &made);

          is_e = cpel_span_match_text (&rule->end, t, e->text->len, &tcap_e);
        }
      if (!is_b && !is_e)
        continue;
      cap_b = tcap_b ? tcap_b : hit->cap_begin;
      cap_e = tcap_e ? tcap_e : hit->cap_end;

      if (rule->kind == CPEL_SPAN_RULE_STATE)
        {
          guint32 name;

          if (rule->from != NULL && !state_follows (e, ts, rule))
            continue;
          name = hit->name_begin >= 0 ? (guint32) hit->name_begin : span_name (e, rule, cap_b);
          if (ts->has_state)
            emit (e, slot, ts->state_begin, idx, ts->state_name, 0, CPEL_SPAN_STATE,
                  ts->state_t, ev->time_ns);
          ts->has_state = TRUE;
          ts->state_name = name;
          ts->state_begin = idx;
          ts->state_t = ev->time_ns;
          continue;
        }

      if (rule->key != NULL)
        {
          const char *t = event_text (e, ev, &made);

          if (!cpel_span_text_field (t, e->text->len, rule->key, &kv, &kvlen))
            {
              kv = "";
              kvlen = 0;
            }
        }

      /* an end when it can end something (or is no begin) */
      if (is_e)
        {
          guint32 name = hit->name_end >= 0 ? (guint32) hit->name_end
                                            : span_name (e, rule, cap_e);

          st = stack_of (e, ts, hit->name_end >= 0 ? hit->stack_end : -1, hit->rule, name,
                         kv, kvlen, rule->key != NULL, FALSE);
          if (st != NULL && st->len > 0)
            {
              Open *o = &g_array_index (st, Open, st->len - 1);

              emit (e, slot, o->begin, idx, o->name, o->depth, 0, o->t, ev->time_ns);
              g_array_set_size (st, st->len - 1);
              ts->n_open--;
              continue;
            }
          if (!is_b)
            {
              emit (e, slot, idx, idx, name, (guint16) MIN (ts->n_open, G_MAXUINT16),
                    CPEL_SPAN_NO_BEGIN, e->edge_begin, ev->time_ns);
              continue;
            }
        }

      /* a begin */
      {
        guint32 name = hit->name_begin >= 0 ? (guint32) hit->name_begin
                                            : span_name (e, rule, cap_b);
        Open o;

        st = stack_of (e, ts, hit->name_begin >= 0 ? hit->stack_begin : -1, hit->rule, name,
                       kv, kvlen, rule->key != NULL, TRUE);
        if (rule->restart)
          while (st->len > 0)
            {
              Open *p = &g_array_index (st, Open, st->len - 1);

              emit (e, slot, p->begin, idx, p->name, p->depth, CPEL_SPAN_INTERRUPTED,
                    p->t, ev->time_ns);
              g_array_set_size (st, st->len - 1);
              ts->n_open--;
            }
        o.begin = idx;
        o.name = name;
        o.t = ev->time_ns;
        o.depth = (guint16) MIN (ts->n_open, G_MAXUINT16);
        g_array_append_val (st, o);
        ts->n_open++;
      }
    }
}

static void
finish_collect (GArray     *out,
                GHashTable *table)
{
  GHashTableIter it;
  gpointer v;

  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, NULL, &v))
    g_array_append_vals (out, ((GArray *) v)->data, ((GArray *) v)->len);
  g_hash_table_remove_all (table);
}

/* Innermost first: the latest begun, then the deeper. */
static gint
open_cmp_last_first (gconstpointer pa,
                     gconstpointer pb)
{
  const Open *a = pa, *b = pb;

  if (a->begin != b->begin)
    return a->begin > b->begin ? -1 : 1;
  return (gint) b->depth - (gint) a->depth;
}

/* The range read ended: what is open stays unfinished, told as if it all
 * ended there, innermost first (children before their parents, as spans
 * that end are told: the self times of unfinished spans). */
static void
engine_finish_track (Engine     *e,
                     TrackState *ts,
                     guint       slot)
{
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (Open));

  for (guint i = 0; i < ts->stacks->len; i++)
    {
      GArray *st = g_ptr_array_index (ts->stacks, i);

      if (st != NULL)
        {
          g_array_append_vals (open, st->data, st->len);
          g_array_set_size (st, 0);
        }
    }
  finish_collect (open, ts->open);
  finish_collect (open, ts->open_keyed);
  g_array_sort (open, open_cmp_last_first);
  for (guint i = 0; i < open->len; i++)
    {
      const Open *o = &g_array_index (open, Open, i);

      emit (e, slot, o->begin, o->begin, o->name, o->depth, CPEL_SPAN_NO_END,
            o->t, MAX (e->edge_end, o->t));
    }
  ts->n_open = 0;
  if (ts->has_state)
    emit (e, slot, ts->state_begin, ts->state_begin, ts->state_name, 0,
          CPEL_SPAN_STATE | CPEL_SPAN_NO_END, ts->state_t, MAX (e->edge_end, ts->state_t));
  ts->has_state = FALSE;
}

/* ---- drivers ------------------------------------------------------------- */

static void
range_of (CpelFile               *file,
          const CpelSpansOptions *options,
          gint64                 *t0,
          gint64                 *t1)
{
  *t0 = 0;
  *t1 = file->n_events ? file->duration + 1 : 0;
  if (options != NULL && options->t1 > options->t0)
    {
      *t0 = options->t0;
      *t1 = options->t1;
    }
}

/* The tracks `options` chooses (every track: *all, the caller's to free). */
static const guint *
slots_of (CpelFile               *file,
          const CpelSpansOptions *options,
          guint                 **all,
          guint                  *n)
{
  if (options != NULL && options->slots != NULL)
    {
      *n = options->n_slots;
      return options->slots;
    }
  *all = g_new (guint, MAX (file->n_tracks, 1));
  for (guint k = 0; k < file->n_tracks; k++)
    (*all)[k] = k;
  *n = file->n_tracks;
  return *all;
}

/* The edges orphans are drawn to: the range's start, and its end or the
 * last event, whichever comes first. */
static void
edges_of (CpelFile *file,
          gint64    t0,
          gint64    t1,
          gint64   *edge_begin,
          gint64   *edge_end)
{
  *edge_begin = MAX (t0, 0);
  *edge_end = MIN (t1, file->duration);
}

/* Track by track through the index. */
static gboolean
drive_indexed (Engine                 *e,
               const guint            *slots,
               guint                   n,
               gint64                  t0,
               gint64                  t1,
               GCancellable           *cancellable,
               GError                **error)
{
  CpelFile *file = e->file;
  TrackState ts;

  track_state_init (&ts);
  for (guint k = 0; k < n; k++)
    {
      guint slot = slots[k];
      const CpelTrack *track = &file->tracks[slot];
      const gint64 *times = file->times + track->first;
      const guint32 *recs = file->recs + track->first;
      guint64 a = cpel_file_track_lower_bound (file, slot, t0);
      guint64 b = t1 > t0 ? cpel_file_track_lower_bound (file, slot, t1) : a;
      guint32 cached_code = 0, cached_type = CPEL_U32MAP_NONE;

      for (guint64 i = a; i < b; i++)
        {
          const guint8 *rec;
          guint section;
          guint32 code;
          CpelEvent ev;

          if (G_UNLIKELY ((i & CANCEL_CHECK_MASK) == CANCEL_CHECK_MASK)
              && g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              track_state_clear (&ts);
              return FALSE;
            }
          rec = cpel_file_record (file, recs[i], &section);
          /* records are visited in time order, scattered over the mapping */
          if (G_LIKELY (i + PREFETCH_AHEAD < b))
            __builtin_prefetch (cpel_file_record (file, recs[i + PREFETCH_AHEAD], NULL) + 12);
          code = cpel_file_read32 (file, rec + 12);
          if (code != cached_code || cached_type == CPEL_U32MAP_NONE)
            {
              cached_code = code;
              cached_type = cpel_u32map_get (file->type_map, code);
            }
          if (cached_type >= file->n_types || e->hits[cached_type] == NULL)
            continue;
          ev.time_ns = times[i];
          ev.file_index = recs[i];
          ev.track_id = track->id;
          ev.code = code;
          ev.datum = cpel_file_read32 (file, rec + 16);
          ev.track_slot = slot;
          ev.type = cached_type;
          ev.section = section;
          engine_event (e, &ts, slot, i, &ev);
        }
      engine_finish_track (e, &ts, slot);
    }
  track_state_clear (&ts);
  return TRUE;
}

/* One merge over the event sections (a file that can stream). */
static gboolean
drive_stream (Engine                 *e,
              const CpelSpansOptions *options,
              gint64                  t0,
              gint64                  t1,
              GCancellable           *cancellable,
              GError                **error)
{
  CpelFile *file = e->file;
  const guint *slots = options && options->slots ? options->slots : NULL;
  guint n_slots = slots ? options->n_slots : 0;
  g_autofree TrackState *states = g_new0 (TrackState, MAX (file->n_tracks, 1));
  g_autofree guint8 *chosen = NULL;
  g_autoptr(CpelMerge) merge = NULL;
  gboolean ok = TRUE;
  guint64 i = 0;
  CpelEvent ev;

  if (t1 > t0)
    {
      merge = cpel_merge_new (file, slots, n_slots, t0);
      while (cpel_merge_next (merge, &ev, NULL) && ev.time_ns < t1)
        {
          TrackState *ts;

          if (G_UNLIKELY ((++i & CANCEL_CHECK_MASK) == 0)
              && g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              ok = FALSE;
              break;
            }
          if (G_UNLIKELY (ev.track_slot >= file->n_tracks))
            continue;
          ts = &states[ev.track_slot];
          if (ts->open == NULL)
            track_state_init (ts);
          engine_event (e, ts, ev.track_slot, ts->next_index++, &ev);
        }
    }
  for (guint s = 0; s < file->n_tracks; s++)
    if (states[s].open != NULL)
      {
        if (ok)
          engine_finish_track (e, &states[s], s);
        track_state_clear (&states[s]);
      }
  (void) chosen;
  return ok;
}

/* A file whose tracks each hold their events in time order in file order
 * (cpel_file_tracks_in_file_order: as in a capture in time order, or one
 * merged from per-CPU buffers) is read in file order (sequential reads,
 * the pages given back behind the reader), each track's index and times
 * followed with a cursor: its n-th record in file order is its n-th in the
 * index.  A file of one section in time order starts and stops at the
 * range; any other is read whole, each track's records before the range
 * counted and skipped. */
/* Where the chosen tracks' events in [t0, t1) are: file indices [*lo,
 * *hi) (their tracks in file order: each track's first and last of them);
 * returns how many they are. */
static guint64
sequential_extent (CpelFile    *file,
                   const guint *slots,
                   guint        n,
                   gint64       t0,
                   gint64       t1,
                   guint64     *lo,
                   guint64     *hi)
{
  guint64 wanted = 0;

  *lo = G_MAXUINT64;
  *hi = 0;
  for (guint k = 0; k < n; k++)
    {
      const CpelTrack *track = &file->tracks[slots[k]];
      guint64 a = cpel_file_track_lower_bound (file, slots[k], t0);
      guint64 b = t1 > t0 ? cpel_file_track_lower_bound (file, slots[k], t1) : a;

      if (b > a)
        {
          *lo = MIN (*lo, file->recs[track->first + a]);
          *hi = MAX (*hi, (guint64) file->recs[track->first + b - 1] + 1);
          wanted += b - a;
        }
    }
  *hi = MIN (*hi, file->n_events);
  if (*lo >= *hi)
    *lo = *hi = 0;
  return wanted;
}

/* In file order when the tracks allow it and the records read would not
 * be many more than the events asked for (a short range or a few tracks
 * of a big capture: through the index). */
#define SEQUENTIAL_MAX_SPREAD 4

static gboolean
can_read_sequentially (CpelFile    *file,
                       const guint *slots,
                       guint        n,
                       gint64       t0,
                       gint64       t1)
{
  guint64 lo, hi, wanted;

  if (!cpel_file_tracks_in_file_order (file))
    return FALSE;
  wanted = sequential_extent (file, slots, n, t0, t1, &lo, &hi);
  return wanted > 0 && (hi - lo) / SEQUENTIAL_MAX_SPREAD <= wanted;
}

/* The first of a track's events (in file order) at or after file index
 * `at`. */
static guint64
track_lower_bound_rec (CpelFile *file,
                       guint     slot,
                       guint64   at)
{
  const guint32 *r = file->recs + file->tracks[slot].first;
  guint64 a = 0, b = file->tracks[slot].count;

  while (a < b)
    {
      guint64 m = a + (b - a) / 2;

      if (r[m] < at)
        a = m + 1;
      else
        b = m;
    }
  return a;
}

#define SEQUENTIAL_DROP_EVERY (1u << 16)   /* records: 1.3 MB */
#define PARALLEL_MAX_THREADS 8

/* The readers of one file in file order (a thread per share of the tracks,
 * each reading every record): the pages are given back behind the last of
 * them (given back behind each, the others would map them again). */
typedef struct
{
  guint   n;
  guint64 at[PARALLEL_MAX_THREADS]; /* atomic: each reader's file index */
  guint64 dropped;                  /* atomic: records given back below it */
} Readers;

/* Reader `r` is at file index `at` (G_MAXUINT64: done): gives back the
 * records every reader has passed. */
static void
readers_at (Readers  *readers,
            CpelFile *file,
            guint     r,
            guint64   at)
{
  guint64 low = G_MAXUINT64, from;

  /* sequentially consistent: of two readers finishing at once, one sees
   * that the other is done too */
  __atomic_store_n (&readers->at[r], at, __ATOMIC_SEQ_CST);
  for (guint k = 0; k < readers->n; k++)
    low = MIN (low, __atomic_load_n (&readers->at[k], __ATOMIC_SEQ_CST));
  low = MIN (low, file->n_events);
  from = __atomic_load_n (&readers->dropped, __ATOMIC_SEQ_CST);
  /* one reader gives back each stretch (a failed exchange reloads `from`) */
  do
    if (low <= from)
      return;
  while (!__atomic_compare_exchange_n (&readers->dropped, &from, low, FALSE,
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
  for (guint s = 0; s < file->n_evsecs; s++)
    {
      const CpelEventSection *sec = &file->evsecs[s];
      guint64 a = MAX (from, sec->first_index), b = MIN (low, sec->first_index + sec->count);

      if (a < b)
        cpel_file_drop_pages (file, sec->records + (a - sec->first_index) * CPEL_EVENT_RECORD_SIZE,
                              sec->records + (b - sec->first_index) * CPEL_EVENT_RECORD_SIZE);
    }
}

static gboolean
drive_sequential (Engine       *e,
                  const guint  *slots,
                  guint         n,
                  gint64        t0,
                  gint64        t1,
                  Readers      *readers,
                  guint         reader,
                  GCancellable *cancellable,
                  GError      **error)
{
  CpelFile *file = e->file;
  g_autofree TrackState *states = g_new0 (TrackState, MAX (file->n_tracks, 1));
  g_autofree guint64 *next = g_new0 (guint64, MAX (file->n_tracks, 1));
  g_autofree guint64 *from = g_new0 (guint64, MAX (file->n_tracks, 1));
  g_autofree guint64 *stop = g_new0 (guint64, MAX (file->n_tracks, 1));
  g_autofree guint8 *chosen = g_new0 (guint8, MAX (file->n_tracks, 1));
  guint32 cached_code = 0, cached_type = CPEL_U32MAP_NONE;
  guint32 cached_id = 0, cached_slot = CPEL_U32MAP_NONE;
  guint64 lo, hi, seen = 0;
  gboolean ok = TRUE;

  /* the records from the first event asked for to the last, each track's
   * cursor at its first record there (its n-th record in file order is its
   * n-th in the index) */
  sequential_extent (file, slots, n, t0, t1, &lo, &hi);
  for (guint k = 0; k < n; k++)
    {
      guint slot = slots[k];

      chosen[slot] = 1;
      from[slot] = cpel_file_track_lower_bound (file, slot, t0);
      stop[slot] = t1 > t0 ? cpel_file_track_lower_bound (file, slot, t1) : from[slot];
      next[slot] = MIN (track_lower_bound_rec (file, slot, lo), from[slot]);
    }
  for (guint s = 0; s < file->n_evsecs && ok; s++)
    {
      const CpelEventSection *sec = &file->evsecs[s];
      guint64 a = MAX (lo, sec->first_index), b = MIN (hi, sec->first_index + sec->count);

      if (a >= b)
        continue;
      a -= sec->first_index;
      b -= sec->first_index;
      for (guint64 i = a; i < b; i++)
        {
          const guint8 *rec = sec->records + i * CPEL_EVENT_RECORD_SIZE;
          guint32 id = cpel_file_read32 (file, rec + 8);
          guint32 code = cpel_file_read32 (file, rec + 12);
          guint32 slot;
          guint64 idx;
          CpelEvent ev;

          if (G_UNLIKELY ((++seen & CANCEL_CHECK_MASK) == 0))
            {
              if (g_cancellable_set_error_if_cancelled (cancellable, error))
                {
                  ok = FALSE;
                  break;
                }
              G_STATIC_ASSERT (SEQUENTIAL_DROP_EVERY == CANCEL_CHECK_MASK + 1);
              readers_at (readers, file, reader, sec->first_index + i);
            }
          if (id != cached_id || cached_slot == CPEL_U32MAP_NONE)
            {
              cached_id = id;
              cached_slot = cpel_u32map_get (file->track_map, id);
            }
          slot = cached_slot;
          if (G_UNLIKELY (slot >= file->n_tracks) || !chosen[slot] || next[slot] >= stop[slot])
            continue;
          idx = next[slot]++;
          if (idx < from[slot])
            continue;
          if (code != cached_code || cached_type == CPEL_U32MAP_NONE)
            {
              cached_code = code;
              cached_type = cpel_u32map_get (file->type_map, code);
            }
          if (cached_type >= file->n_types || e->hits[cached_type] == NULL)
            continue;
          ev.time_ns = file->times[file->tracks[slot].first + idx];
          ev.file_index = sec->first_index + i;
          ev.track_id = id;
          ev.code = code;
          ev.datum = cpel_file_read32 (file, rec + 16);
          ev.track_slot = slot;
          ev.type = cached_type;
          ev.section = s;
          if (states[slot].open == NULL)
            track_state_init (&states[slot]);
          engine_event (e, &states[slot], slot, idx, &ev);
        }
    }
  readers_at (readers, file, reader, G_MAXUINT64);
  for (guint k = 0; k < n; k++)
    {
      TrackState *ts = &states[slots[k]];

      if (ts->open == NULL)
        continue;
      if (ok)
        engine_finish_track (e, ts, slots[k]);
      track_state_clear (ts);
    }
  return ok;
}

/* A share of the tracks read by a thread of its own. */
typedef struct
{
  Engine        e;          /* the engine's tables, scratch strings of its own */
  const guint  *slots;
  guint         n_slots;
  gint64        t0, t1;
  gboolean      sequential; /* the whole section in file order, its tracks' events only */
  Readers      *readers;    /* sequential: every share's place in the file */
  guint         reader;
  GCancellable *cancellable;
  GError       *error;
  gboolean      ok;
} Share;

static gpointer
share_run (gpointer data)
{
  Share *sh = data;

  if (sh->sequential)
    sh->ok = drive_sequential (&sh->e, sh->slots, sh->n_slots, sh->t0, sh->t1, sh->readers,
                               sh->reader, sh->cancellable, &sh->error);
  else
    sh->ok = drive_indexed (&sh->e, sh->slots, sh->n_slots, sh->t0, sh->t1, sh->cancellable,
                            &sh->error);
  return NULL;
}

#define PARALLEL_MIN_EVENTS (1u << 18)

/* `parallel`: the sink may be called from several threads for different
 * tracks (each track is read by one thread). */
static gboolean
drive (CpelFile               *file,
       CpelSpanRules          *rules,
       const CpelSpansOptions *options,
       gboolean                may_stream,
       gboolean                parallel,
       Names                  *names,
       SinkFunc                sink,
       gpointer                sink_data,
       GCancellable           *cancellable,
       GError                **error)
{
  Engine e;
  gint64 t0, t1, eb, ee;
  gboolean ok = TRUE;
  g_autofree guint *all = NULL;
  const guint *slots;
  guint n, n_threads;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  range_of (file, options, &t0, &t1);
  edges_of (file, t0, t1, &eb, &ee);
  engine_init (&e, file, rules, names, eb, ee);
  e.sink = sink;
  e.sink_data = sink_data;
  if (may_stream && !cpel_file_has_index (file) && cpel_file_can_stream (file))
    {
      ok = drive_stream (&e, options, t0, t1, cancellable, error);
      engine_clear (&e);
      return ok;
    }
  if (!cpel_file_ensure_index (file, cancellable, error))
    {
      engine_clear (&e);
      return FALSE;
    }
  slots = slots_of (file, options, &all, &n);
  n_threads = MIN (MIN (g_get_num_processors (), PARALLEL_MAX_THREADS), n);
  if (!parallel || n_threads < 2 || file->n_events < PARALLEL_MIN_EVENTS)
    {
      Readers readers = { 1, { 0 }, 0 };

      if (can_read_sequentially (file, slots, n, t0, t1))
        ok = drive_sequential (&e, slots, n, t0, t1, &readers, 0, cancellable, error);
      else
        ok = drive_indexed (&e, slots, n, t0, t1, cancellable, error);
    }
  else
    {
      Share shares[PARALLEL_MAX_THREADS];
      Readers readers = { n_threads, { 0 }, 0 };
      GThread *threads[PARALLEL_MAX_THREADS] = { NULL };
      guint64 total = 0, acc = 0;
      guint first = 0, k = 0;
      gboolean sequential = can_read_sequentially (file, slots, n, t0, t1);

      /* contiguous shares of about equal numbers of events */
      for (guint i = 0; i < n; i++)
        total += file->tracks[slots[i]].count;
      for (guint t = 0; t < n_threads; t++)
        {
          guint64 goal = total * (t + 1) / n_threads;

          while (k < n && (acc < goal || t + 1 == n_threads))
            acc += file->tracks[slots[k++]].count;
          shares[t].e = e;
          shares[t].e.key = g_string_new (NULL);
          shares[t].e.text = g_string_new (NULL);
          shares[t].e.name = g_string_new (NULL);
          shares[t].slots = slots + first;
          shares[t].n_slots = k - first;
          shares[t].t0 = t0;
          shares[t].t1 = t1;
          /* tracks in file order: each thread reads the file in file
           * order (the index's scattered reads cost more than the records
           * of the other threads' tracks skipped) */
          shares[t].sequential = sequential;
          shares[t].readers = &readers;
          shares[t].reader = t;
          shares[t].cancellable = cancellable;
          shares[t].error = NULL;
          shares[t].ok = TRUE;
          first = k;
        }
      for (guint t = 1; t < n_threads; t++)
        threads[t] = g_thread_new ("cpel-spans", share_run, &shares[t]);
      share_run (&shares[0]);
      for (guint t = 0; t < n_threads; t++)
        {
          if (threads[t] != NULL)
            g_thread_join (threads[t]);
          if (!shares[t].ok && ok)
            {
              ok = FALSE;
              g_propagate_error (error, g_steal_pointer (&shares[t].error));
            }
          g_clear_error (&shares[t].error);
          g_string_free (shares[t].e.key, TRUE);
          g_string_free (shares[t].e.text, TRUE);
          g_string_free (shares[t].e.name, TRUE);
        }
    }
  engine_clear (&e);
  return ok;
}

/* ---- the driver for other analyses ---------------------------------------- */

struct _CpelSpanNames
{
  Names names;
};

CpelSpanNames *
cpel_span_names_new (void)
{
  CpelSpanNames *n = g_new0 (CpelSpanNames, 1);

  names_init (&n->names);
  return n;
}

void
cpel_span_names_free (CpelSpanNames *names)
{
  if (names == NULL)
    return;
  names_clear (&names->names);
  g_free (names);
}

guint
cpel_span_names_get_n (CpelSpanNames *names)
{
  guint n;

  cpel_mutex_lock (&names->names.lock);
  n = names->names.names->len;
  cpel_mutex_unlock (&names->names.lock);
  return n;
}

const char *
cpel_span_names_get (CpelSpanNames *names,
                     guint32        id)
{
  const char *name = NULL;

  cpel_mutex_lock (&names->names.lock);
  if (id < names->names.names->len)
    name = g_ptr_array_index (names->names.names, id);
  cpel_mutex_unlock (&names->names.lock);
  g_return_val_if_fail (name != NULL, NULL);
  return name;
}

gboolean
cpel_spans_run (CpelFile               *file,
                CpelSpanRules          *rules,
                const CpelSpansOptions *options,
                CpelSpanNames          *names,
                CpelSpanSinkFunc        sink,
                gpointer                data,
                GCancellable           *cancellable,
                GError                **error)
{
  g_return_val_if_fail (CPEL_IS_FILE (file), FALSE);
  g_return_val_if_fail (rules != NULL && names != NULL && sink != NULL, FALSE);

  if (options != NULL && !cpel_file_check_slots (file, options->slots, options->n_slots, error))
    return FALSE;
  return drive (file, rules, options, TRUE, FALSE, &names->names, sink, data, cancellable,
                error);
}

/* ---- the store ----------------------------------------------------------- */

typedef struct
{
  GArray   *spans;    /* CpelSpan, while deriving */
  GArray   *states;
  CpelSpan *span_data;   /* then: exactly as many as there are */
  guint64   n_spans;
  CpelSpan *state_data;
  guint64   n_states;
  CpelSpanCoverage *coverage;   /* zoomed out (cpel_spans_get_coverage ()), or NULL */
  guint64   n_buckets;
  guint     shift;
  /* For a replay over a range (cpel_spans_replay ()): the orphan ends that
   * lead span_data, and per REACH_SPANS spans after them the greatest end
   * index + 1 of a span that has both (finished or interrupted; 0: none),
   * to find the spans that began before a range and end in it without
   * reading every span before it. */
  guint64   n_head;
  guint32  *reach;
} TrackSpans;

/* The array's records in a block of their size (the array's doubling
 * would leave up to half of it unused). */
static CpelSpan *
shrink (GArray  *a,
        guint64 *n)
{
  gsize len = 0;
  CpelSpan *data;

  *n = 0;
  if (a == NULL)
    return NULL;
  data = g_array_steal (a, &len);
  g_array_unref (a);
  *n = len;
  if (len == 0)
    {
      g_free (data);
      return NULL;
    }
  return g_realloc (data, len * sizeof (CpelSpan));
}

struct _CpelSpans
{
  gint         ref_count;
  CpelFile    *file;
  CpelSpanRules *rules;   /* derived by (a reference): their key fields */
  Names        names;
  TrackSpans  *tracks;     /* n_tracks */
  gint64       edge_begin;
  gint64       edge_end;
  guint64      n_spans;
  guint64      n_states;
  CpelSpan    *block;       /* read from the cache: every track's records, or NULL */
  gboolean     whole;       /* of every track over the whole capture */
};

static gint span_cmp (gconstpointer pa, gconstpointer pb);

/* Spans arrive in the order they end: in begin order unless they nest (an
 * outer span ends after its inner ones) or were interrupted.  Each is put
 * in its place as it comes, usually at the end; else found by a binary
 * search and moved in (as far back as the spans it holds). */
static void
store_sink (gpointer        data,
            guint           slot,
            const CpelSpan *span,
            gint64          tb,
            gint64          te)
{
  CpelSpans *s = data;
  TrackSpans *t = &s->tracks[slot];
  GArray **a = (span->flags & CPEL_SPAN_STATE) ? &t->states : &t->spans;
  guint lo, hi;

  (void) tb;
  (void) te;
  if (*a == NULL)
    *a = g_array_new (FALSE, FALSE, sizeof (CpelSpan));
  if ((*a)->len == 0 || span_cmp (&g_array_index (*a, CpelSpan, (*a)->len - 1), span) <= 0)
    {
      g_array_append_val (*a, *span);
      return;
    }
  lo = 0;
  hi = (*a)->len - 1;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (span_cmp (&g_array_index (*a, CpelSpan, mid), span) <= 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_array_insert_val (*a, lo, *span);
}

/* Begin order: orphan ends first (drawn from the range's start) by their
 * end, then by begin index, then end index (an interrupted or unfinished
 * span: its own end index). */
static gint
span_cmp (gconstpointer pa,
          gconstpointer pb)
{
  const CpelSpan *a = pa, *b = pb;
  gboolean na = (a->flags & CPEL_SPAN_NO_BEGIN) != 0;
  gboolean nb = (b->flags & CPEL_SPAN_NO_BEGIN) != 0;

  if (na != nb)
    return na ? -1 : 1;
  if (a->begin != b->begin)
    return a->begin < b->begin ? -1 : 1;
  if (a->end != b->end)
    return a->end < b->end ? -1 : 1;
  return (gint) a->depth - (gint) b->depth;
}

/* Each track's coverage by its spans, per bucket of 2^shift ns from 0:
 * the union of the spans (read in begin order, each clipped to what the
 * ones before left uncovered), with the name of the first span in the
 * bucket.  Tracks of fewer than CPEL_SPAN_COVERAGE_MIN spans have none. */
#define COVERAGE_SPANS_PER_BUCKET 16

static void
coverage_build (CpelSpans *spans)
{
  CpelFile *file = spans->file;

  if (file->times == NULL)
    return;
  for (guint slot = 0; slot < file->n_tracks; slot++)
    {
      TrackSpans *t = &spans->tracks[slot];
      const CpelTrack *track = &file->tracks[slot];
      const gint64 *times = file->times + track->first;
      guint64 want = t->n_spans / COVERAGE_SPANS_PER_BUCKET, n;
      gint64 frontier = G_MININT64, end_t = MAX (spans->edge_end, 0);
      guint shift = 0;
      double *covered;

      if (t->n_spans < CPEL_SPAN_COVERAGE_MIN)
        continue;
      while (((guint64) end_t >> shift) + 1 > want && shift < 62)
        shift++;
      n = ((guint64) end_t >> shift) + 1;
      covered = g_new0 (double, n);
      t->coverage = g_new (CpelSpanCoverage, n);
      for (guint64 i = 0; i < n; i++)
        t->coverage[i].name = G_MAXUINT32;
      for (guint64 i = 0; i < t->n_spans; i++)
        {
          const CpelSpan *sp = &t->span_data[i];
          gint64 b, e;

          /* cpel_spans_begin_ns () / _end_ns (), inline: 10^8 of them */
          if (G_UNLIKELY (sp->flags & (CPEL_SPAN_NO_BEGIN | CPEL_SPAN_NO_END)))
            {
              b = cpel_spans_begin_ns (spans, slot, sp);
              e = cpel_spans_end_ns (spans, slot, sp);
            }
          else
            {
              b = sp->begin < track->count ? times[sp->begin] : spans->edge_end;
              e = sp->end < track->count ? times[sp->end] : spans->edge_end;
            }
          b = MAX (b, frontier);
          e = MIN (e, end_t + 1);

          b = MAX (b, 0);
          if (e <= b)
            continue;
          frontier = e;
          for (guint64 k = (guint64) b >> shift; k < n && (gint64) (k << shift) < e; k++)
            {
              gint64 lo = MAX (b, (gint64) (k << shift));
              gint64 hi = MIN (e, (gint64) ((k + 1) << shift));

              covered[k] += (double) (hi - lo);
              if (t->coverage[k].name == G_MAXUINT32)
                t->coverage[k].name = sp->name;
            }
        }
      for (guint64 i = 0; i < n; i++)
        t->coverage[i].covered = (float) (covered[i] / (double) ((guint64) 1 << shift));
      g_free (covered);
      t->n_buckets = n;
      t->shift = shift;
    }
}

/* One reach per this many spans (TrackSpans.reach). */
#define REACH_SHIFT 6
#define REACH_SPANS (1u << REACH_SHIFT)

static void
reach_build (CpelSpans *spans)
{
  for (guint slot = 0; slot < spans->file->n_tracks; slot++)
    {
      TrackSpans *t = &spans->tracks[slot];
      guint64 h = 0, n;

      while (h < t->n_spans && (t->span_data[h].flags & CPEL_SPAN_NO_BEGIN))
        h++;
      t->n_head = h;
      n = t->n_spans - h;
      if (n == 0)
        continue;
      t->reach = g_new0 (guint32, (n + REACH_SPANS - 1) >> REACH_SHIFT);
      for (guint64 i = 0; i < n; i++)
        {
          const CpelSpan *sp = &t->span_data[h + i];
          guint32 *r = &t->reach[i >> REACH_SHIFT];

          if (!(sp->flags & (CPEL_SPAN_NO_BEGIN | CPEL_SPAN_NO_END)) && sp->end >= *r)
            *r = sp->end == G_MAXUINT32 ? G_MAXUINT32 : sp->end + 1;
        }
    }
}


const CpelSpanCoverage *
cpel_spans_get_coverage (CpelSpans *spans,
                         guint      slot,
                         guint     *shift,
                         guint64   *n_buckets)
{
  g_return_val_if_fail (spans != NULL, NULL);
  g_return_val_if_fail (slot < spans->file->n_tracks, NULL);
  if (shift != NULL)
    *shift = spans->tracks[slot].shift;
  if (n_buckets != NULL)
    *n_buckets = spans->tracks[slot].n_buckets;
  return spans->tracks[slot].coverage;
}

CpelSpans *
cpel_spans_derive (CpelFile               *file,
                   CpelSpanRules          *rules,
                   const CpelSpansOptions *options,
                   GCancellable           *cancellable,
                   GError                **error)
{
  g_autoptr(CpelSpans) spans = NULL;
  gint64 t0, t1;
  gboolean whole;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (rules != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options != NULL && !cpel_file_check_slots (file, options->slots, options->n_slots, error))
    return NULL;
  whole = options == NULL || (options->slots == NULL && options->t1 <= options->t0);
  if (whole && cpel_span_cache_wanted (file))
    {
      CpelSpans *cached;

      if (!cpel_file_ensure_index (file, cancellable, error))
        return NULL;
      cached = cpel_span_cache_load (file, rules, NULL);
      if (cached != NULL)
        return cached;
    }
  spans = g_new0 (CpelSpans, 1);
  spans->ref_count = 1;
  spans->file = g_object_ref (file);
  spans->rules = cpel_span_rules_ref (rules);
  names_init (&spans->names);
  spans->tracks = g_new0 (TrackSpans, MAX (file->n_tracks, 1));
  range_of (file, options, &t0, &t1);
  edges_of (file, t0, t1, &spans->edge_begin, &spans->edge_end);
  if (!drive (file, rules, options, FALSE, TRUE, &spans->names, store_sink, spans,
              cancellable, error))
    return NULL;
  for (guint s = 0; s < file->n_tracks; s++)
    {
      TrackSpans *t = &spans->tracks[s];

      t->span_data = shrink (g_steal_pointer (&t->spans), &t->n_spans);
      t->state_data = shrink (g_steal_pointer (&t->states), &t->n_states);
      spans->n_spans += t->n_spans + t->n_states;
      spans->n_states += t->n_states;
    }
  coverage_build (spans);
  reach_build (spans);
  spans->whole = whole;
  if (whole && (options == NULL || !options->no_store) && cpel_span_cache_wanted (file))
    cpel_span_cache_store_in_background (spans);
  return g_steal_pointer (&spans);
}

/* ---- for the cache (cpel-span-cache.c) ----------------------------------- */

void
cpel_spans_wait_stored (void)
{
  cpel_span_cache_wait ();
}

guint
cpel_spans_stores_in_progress (void)
{
  return cpel_span_cache_get_n_running ();
}

guint32
cpel_spans_get_name_rule (CpelSpans *spans,
                          guint      name)
{
  g_return_val_if_fail (spans != NULL, 0);
  g_return_val_if_fail (name < spans->names.rules->len, 0);
  return g_array_index (spans->names.rules, guint32, name);
}

CpelFile *
cpel_spans_get_file (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, NULL);
  return spans->file;
}

CpelSpanRules *
cpel_spans_get_rules (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, NULL);
  return spans->rules;
}

gboolean
cpel_spans_is_from_cache (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, FALSE);
  return spans->block != NULL;
}

CpelSpans *
cpel_spans_new_from_parts (CpelFile       *file,
                           CpelSpanRules  *rules,
                           const char    **names,
                           const guint32  *name_rules,
                           guint           n_names,
                           CpelSpan       *block,
                           const guint64  *counts)
{
  g_autoptr(CpelSpans) spans = NULL;
  CpelSpan *p = block;
  gint64 t0, t1;

  g_assert (block != NULL);
  spans = g_new0 (CpelSpans, 1);
  spans->ref_count = 1;
  spans->file = g_object_ref (file);
  spans->rules = cpel_span_rules_ref (rules);
  spans->block = block;
  names_init (&spans->names);
  spans->tracks = g_new0 (TrackSpans, MAX (file->n_tracks, 1));
  range_of (file, NULL, &t0, &t1);
  edges_of (file, t0, t1, &spans->edge_begin, &spans->edge_end);
  for (guint i = 0; i < n_names; i++)
    if (names_intern (&spans->names, names[i], name_rules[i]) != i)
      {
        /* the same name twice: the records' ids would not be theirs */
        spans->block = NULL;
        return NULL;
      }
  for (guint s = 0; s < file->n_tracks; s++)
    {
      TrackSpans *t = &spans->tracks[s];

      t->n_spans = counts[2 * s];
      t->span_data = t->n_spans ? p : NULL;
      p += t->n_spans;
      t->n_states = counts[2 * s + 1];
      t->state_data = t->n_states ? p : NULL;
      p += t->n_states;
      spans->n_spans += t->n_spans + t->n_states;
      spans->n_states += t->n_states;
    }
  coverage_build (spans);
  reach_build (spans);
  spans->whole = TRUE;
  return g_steal_pointer (&spans);
}

CpelSpans *
cpel_spans_ref (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, NULL);
  g_atomic_int_inc (&spans->ref_count);
  return spans;
}

void
cpel_spans_free (CpelSpans *spans)
{
  if (spans == NULL || !g_atomic_int_dec_and_test (&spans->ref_count))
    return;
  if (spans->tracks != NULL && spans->block == NULL)
    for (guint s = 0; s < spans->file->n_tracks; s++)
      {
        g_clear_pointer (&spans->tracks[s].spans, g_array_unref);
        g_clear_pointer (&spans->tracks[s].states, g_array_unref);
        g_free (spans->tracks[s].span_data);
        g_free (spans->tracks[s].state_data);
      }
  if (spans->tracks != NULL)
    for (guint s = 0; s < spans->file->n_tracks; s++)
      {
        g_free (spans->tracks[s].coverage);
        g_free (spans->tracks[s].reach);
      }
  g_free (spans->block);
  g_free (spans->tracks);
  names_clear (&spans->names);
  g_clear_object (&spans->file);
  g_clear_pointer (&spans->rules, cpel_span_rules_unref);
  g_free (spans);
}

/* The value of `field` in the text of event `index` of track `slot`. */
static char *
dup_event_field (CpelFile   *file,
                 guint       slot,
                 guint32     index,
                 const char *field)
{
  g_autoptr(GString) text = g_string_new (NULL);
  CpelEvent ev;
  const char *v;
  gsize len;

  cpel_file_get_track_event (file, slot, index, &ev);
  cpel_file_append_datum (file, &ev, text);
  if (!cpel_span_text_field (text->str, text->len, field, &v, &len))
    return NULL;
  return g_strndup (v, len);
}

gboolean
cpel_spans_dup_key (CpelSpans       *spans,
                    guint            slot,
                    const CpelSpan  *span,
                    char           **field,
                    char           **value)
{
  const CpelSpanRule *rule;
  guint32 r;

  g_return_val_if_fail (spans != NULL && span != NULL, FALSE);
  g_return_val_if_fail (field != NULL && value != NULL, FALSE);

  *field = *value = NULL;
  if (slot >= spans->file->n_tracks || span->name >= spans->names.rules->len
      || (span->flags & CPEL_SPAN_STATE))
    return FALSE;
  r = g_array_index (spans->names.rules, guint32, span->name);
  if (spans->rules == NULL || r >= spans->rules->rules->len)
    return FALSE;
  rule = g_ptr_array_index (spans->rules->rules, r);
  if (rule->key == NULL)
    return FALSE;
  *field = g_strdup (rule->key);
  /* the begin event's (an orphan end's: its own, begin holds its index) */
  *value = dup_event_field (spans->file, slot, span->begin, rule->key);
  if (*value == NULL)
    *value = g_strdup ("");
  return TRUE;
}

char *
cpel_spans_dup_waker (CpelSpans      *spans,
                      guint           slot,
                      const CpelSpan *state)
{
  g_return_val_if_fail (spans != NULL && state != NULL, NULL);

  if (slot >= spans->file->n_tracks || !(state->flags & CPEL_SPAN_STATE)
      || (state->flags & CPEL_SPAN_NO_BEGIN))
    return NULL;
  return dup_event_field (spans->file, slot, state->begin, "waker");
}

guint64
cpel_spans_get_n_states (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, 0);
  return spans->n_states;
}

guint
cpel_spans_get_n_names (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, 0);
  return spans->names.names->len;
}

const char *
cpel_spans_get_name (CpelSpans *spans,
                     guint      name)
{
  g_return_val_if_fail (spans != NULL, NULL);
  g_return_val_if_fail (name < spans->names.names->len, NULL);
  return g_ptr_array_index (spans->names.names, name);
}

const CpelSpan *
cpel_spans_get_track_spans (CpelSpans *spans,
                            guint      slot,
                            guint64   *n)
{
  g_return_val_if_fail (spans != NULL, NULL);
  g_return_val_if_fail (slot < spans->file->n_tracks, NULL);
  if (n != NULL)
    *n = spans->tracks[slot].n_spans;
  return spans->tracks[slot].span_data;
}

static void
count_array (const GArray      *rule_of,
             const CpelSpan    *a,
             guint64            n,
             CpelSpanRuleCount *counts,
             guint              n_rules)
{
  for (guint64 i = 0; i < n; i++)
    {
      guint32 r;

      if (a[i].name >= rule_of->len)
        continue;
      r = g_array_index (rule_of, guint32, a[i].name);
      if (r >= n_rules)
        continue;
      counts[r].spans++;
      if (a[i].flags & (CPEL_SPAN_NO_END | CPEL_SPAN_INTERRUPTED))
        counts[r].orphan_begins++;
      if (a[i].flags & CPEL_SPAN_NO_BEGIN)
        counts[r].orphan_ends++;
    }
}

void
cpel_spans_count_by_rule (CpelSpans         *spans,
                          CpelSpanRuleCount *counts,
                          guint              n_rules)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_if_fail (spans != NULL);
  g_return_if_fail (counts != NULL || n_rules == 0);
  memset (counts, 0, n_rules * sizeof *counts);
  locker = g_mutex_locker_new (&spans->names.lock);
  for (guint slot = 0; slot < spans->file->n_tracks; slot++)
    {
      const TrackSpans *t = &spans->tracks[slot];

      count_array (spans->names.rules, t->span_data, t->n_spans, counts, n_rules);
      count_array (spans->names.rules, t->state_data, t->n_states, counts, n_rules);
    }
}

const CpelSpan *
cpel_spans_get_track_states (CpelSpans *spans,
                             guint      slot,
                             guint64   *n)
{
  g_return_val_if_fail (spans != NULL, NULL);
  g_return_val_if_fail (slot < spans->file->n_tracks, NULL);
  if (n != NULL)
    *n = spans->tracks[slot].n_states;
  return spans->tracks[slot].state_data;
}

static gint64
track_time (CpelSpans *spans,
            guint      slot,
            guint32    index)
{
  const CpelTrack *t = &spans->file->tracks[slot];

  if (index >= t->count)
    return spans->edge_end;
  return spans->file->times[t->first + index];
}

gint64
cpel_spans_begin_ns (CpelSpans      *spans,
                     guint           slot,
                     const CpelSpan *span)
{
  g_return_val_if_fail (spans != NULL && span != NULL, 0);
  g_return_val_if_fail (slot < spans->file->n_tracks, 0);
  if (span->flags & CPEL_SPAN_NO_BEGIN)
    return MIN (spans->edge_begin, track_time (spans, slot, span->end));
  return track_time (spans, slot, span->begin);
}

gint64
cpel_spans_end_ns (CpelSpans      *spans,
                   guint           slot,
                   const CpelSpan *span)
{
  g_return_val_if_fail (spans != NULL && span != NULL, 0);
  g_return_val_if_fail (slot < spans->file->n_tracks, 0);
  if (span->flags & CPEL_SPAN_NO_END)
    return MAX (spans->edge_end, track_time (spans, slot, span->begin));
  return track_time (spans, slot, span->end);
}

void
cpel_spans_get_edges (CpelSpans *spans,
                      gint64    *edge_begin,
                      gint64    *edge_end)
{
  g_return_if_fail (spans != NULL);
  if (edge_begin != NULL)
    *edge_begin = spans->edge_begin;
  if (edge_end != NULL)
    *edge_end = spans->edge_end;
}

guint64
cpel_spans_track_lower_bound (CpelSpans *spans,
                              guint      slot,
                              gint64     t)
{
  guint64 n, lo = 0, hi;
  const CpelSpan *a;

  g_return_val_if_fail (spans != NULL, 0);
  g_return_val_if_fail (slot < spans->file->n_tracks, 0);
  a = cpel_spans_get_track_spans (spans, slot, &n);
  hi = n;
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (cpel_spans_begin_ns (spans, slot, &a[mid]) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint64
cpel_spans_get_n_spans (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, 0);
  return spans->n_spans;
}

guint64
cpel_spans_get_bytes (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, 0);
  return spans->n_spans * sizeof (CpelSpan);
}

/* ---- replay: derived spans over a range ---------------------------------- */

/* A span waiting to be told, in the order the engine would tell it: by
 * its end event, then as it came (in begin order); REPLAY_LAST (unfinished,
 * told when the range's events are all read): the latest begun first. */
#define REPLAY_LAST G_MAXUINT64

typedef struct
{
  guint64  key;
  guint64  seq;
  CpelSpan span;
  gint64   tb, te;
} Pending;

static inline gboolean
pending_before (const Pending *a,
                const Pending *b)
{
  if (a->key != b->key)
    return a->key < b->key;
  /* unfinished: innermost first, as the engine tells them */
  return a->key == REPLAY_LAST ? a->seq > b->seq : a->seq < b->seq;
}

/* A binary heap of what waits: the spans open at a time, a few. */
typedef struct
{
  Pending *v;
  guint    len;
  guint    cap;
} PendingHeap;

static void
pending_push (PendingHeap   *heap,
              const Pending *p)
{
  guint i = heap->len++;

  if (heap->len > heap->cap)
    {
      heap->cap = MAX (16, heap->cap * 2);
      heap->v = g_renew (Pending, heap->v, heap->cap);
    }
  while (i > 0)
    {
      guint up = (i - 1) / 2;

      if (!pending_before (p, &heap->v[up]))
        break;
      heap->v[i] = heap->v[up];
      i = up;
    }
  heap->v[i] = *p;
}

static void
pending_pop (PendingHeap *heap,
             Pending     *out)
{
  const Pending *last;
  guint i = 0, n;

  *out = heap->v[0];
  n = --heap->len;
  if (n == 0)
    return;
  last = &heap->v[n];
  for (;;)
    {
      guint c = 2 * i + 1;

      if (c >= n)
        break;
      if (c + 1 < n && pending_before (&heap->v[c + 1], &heap->v[c]))
        c++;
      if (!pending_before (&heap->v[c], last))
        break;
      heap->v[i] = heap->v[c];
      i = c;
    }
  heap->v[i] = *last;
}

typedef struct
{
  CpelSpans        *spans;
  PendingHeap       heap;
  guint64           seq;
  guint64           a, b;       /* the range's events of the track */
  gint64            edge_begin;
  gint64            edge_end;
  const gint64     *times;      /* the track's */
  guint64           count;
  CpelSpanSinkFunc  sink;
  gpointer          data;
} Replay;

/* The time of the track's event `index` (an index the engine saturated:
 * the range's end). */
static inline gint64
replay_time (const Replay *r,
             guint32       index)
{
  return index < r->count ? r->times[index] : r->edge_end;
}

static void
replay_add (Replay         *r,
            const CpelSpan *sp,
            guint64         key,
            guint16         flags,
            gint64          tb,
            gint64          te)
{
  Pending p = { key, r->seq++, *sp, tb, te };

  p.span.flags = flags;
  if (flags & CPEL_SPAN_NO_BEGIN)
    p.span.begin = p.span.end;
  if (flags & CPEL_SPAN_NO_END)
    p.span.end = p.span.begin;
  pending_push (&r->heap, &p);
}

/* Tells what ended at or before event `upto`. */
static void
replay_flush (Replay  *r,
              guint    slot,
              guint64  upto)
{
  while (r->heap.len > 0 && r->heap.v[0].key <= upto)
    {
      Pending p;

      pending_pop (&r->heap, &p);
      r->sink (r->data, slot, &p.span, p.tb, p.te);
    }
}

/* A span of the whole capture, as reading only the range's events would
 * have made it. */
static void
replay_span (Replay         *r,
             const CpelSpan *sp)
{
  gint64 tb = replay_time (r, sp->begin);

  if (sp->flags & CPEL_SPAN_NO_END)
    replay_add (r, sp, REPLAY_LAST, CPEL_SPAN_NO_END, tb, MAX (r->edge_end, tb));
  else if (sp->end >= r->b)
    /* it ends after the range: unfinished there */
    replay_add (r, sp, REPLAY_LAST, CPEL_SPAN_NO_END, tb, MAX (r->edge_end, tb));
  else
    replay_add (r, sp, sp->end, sp->flags, tb, replay_time (r, sp->end));
}

/* The first of spans[lo, hi) (in order of their end, `by_end`, or of their
 * begin) whose end (begin) event is at or after `index`. */
static guint64
first_from (const CpelSpan *spans,
            guint64         lo,
            guint64         hi,
            gboolean        by_end,
            guint64         index)
{
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if ((by_end ? spans[mid].end : spans[mid].begin) < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
replay_track (Replay        *r,
              guint          slot,
              GCancellable  *cancellable,
              GError       **error)
{
  const TrackSpans *t = &r->spans->tracks[slot];
  const CpelSpan *sd = t->span_data;
  guint64 lo, pos;

  /* the whole capture's orphan ends (sorted by end) read in the range */
  lo = first_from (sd, 0, t->n_head, TRUE, r->a);
  for (guint64 i = lo; i < t->n_head && sd[i].end < r->b; i++)
    replay_add (r, &sd[i], sd[i].end, CPEL_SPAN_NO_BEGIN, r->edge_begin,
                replay_time (r, sd[i].end));

  /* the first span that begins in the range */
  pos = first_from (sd, t->n_head, t->n_spans, FALSE, r->a);

  /* spans that began before it and end in it (those of a block whose reach
   * stops before the range are skipped): a finished one is an orphan end
   * there; an interrupted one is nothing there (its second begin just
   * begins), told unseen for the depths of what it held */
  for (guint64 j = pos; j > t->n_head;)
    {
      guint64 blk = (j - 1 - t->n_head) >> REACH_SHIFT;
      guint64 start = t->n_head + (blk << REACH_SHIFT);

      if (t->reach[blk] > r->a)
        for (guint64 i = j; i > start; i--)
          {
            const CpelSpan *sp = &sd[i - 1];

            if (sp->end < r->a || sp->end >= r->b)
              continue;
            if (!(sp->flags & CPEL_SPAN_ORPHAN))
              replay_add (r, sp, sp->end, CPEL_SPAN_NO_BEGIN, r->edge_begin,
                          replay_time (r, sp->end));
            else if (sp->flags == CPEL_SPAN_INTERRUPTED)
              replay_add (r, sp, sp->end, CPEL_SPAN_INTERRUPTED | CPEL_SPAN_REPLAY_UNSEEN,
                          r->edge_begin, replay_time (r, sp->end));
          }
      j = start;
    }

  for (guint64 i = pos; i < t->n_spans && sd[i].begin < r->b; i++)
    {
      const CpelSpan *sp = &sd[i];

      if (G_UNLIKELY ((i & CANCEL_CHECK_MASK) == CANCEL_CHECK_MASK)
          && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (r->heap.len > 0)
        replay_flush (r, slot, sp->begin);
      /* nothing waits and it ends before the next begins (spans that do not
       * nest, most of them): told now */
      if (r->heap.len == 0 && sp->flags == 0 && sp->end < r->b
          && (i + 1 == t->n_spans || sd[i + 1].begin >= sp->end))
        r->sink (r->data, slot, sp, replay_time (r, sp->begin), replay_time (r, sp->end));
      else
        replay_span (r, sp);
    }
  replay_flush (r, slot, REPLAY_LAST);

  /* states: those that begin in the range, in order (they tile the track) */
  lo = first_from (t->state_data, 0, t->n_states, FALSE, r->a);
  for (guint64 i = lo; i < t->n_states && t->state_data[i].begin < r->b; i++)
    {
      const CpelSpan *st = &t->state_data[i];
      CpelSpan copy = *st;
      gint64 tb = replay_time (r, st->begin), te;

      if ((st->flags & CPEL_SPAN_NO_END) || st->end >= r->b)
        {
          copy.flags = CPEL_SPAN_STATE | CPEL_SPAN_NO_END;
          copy.end = copy.begin;
          te = MAX (r->edge_end, tb);
        }
      else
        te = replay_time (r, st->end);
      r->sink (r->data, slot, &copy, tb, te);
    }
  return TRUE;
}

gboolean
cpel_spans_replay (CpelSpans              *spans,
                   const CpelSpansOptions *options,
                   CpelSpanSinkFunc        sink,
                   gpointer                data,
                   GCancellable           *cancellable,
                   GError                **error)
{
  CpelFile *file;
  g_autofree guint *all = NULL;
  const guint *slots;
  guint n;
  gint64 t0, t1;
  Replay r = { 0 };
  gboolean ok = TRUE;

  g_return_val_if_fail (spans != NULL && sink != NULL, FALSE);
  g_return_val_if_fail (spans->whole, FALSE);
  file = spans->file;
  if (options != NULL && !cpel_file_check_slots (file, options->slots, options->n_slots, error))
    return FALSE;
  if (!cpel_file_ensure_index (file, cancellable, error))
    return FALSE;
  slots = slots_of (file, options, &all, &n);
  range_of (file, options, &t0, &t1);
  r.spans = spans;
  r.sink = sink;
  r.data = data;
  edges_of (file, t0, t1, &r.edge_begin, &r.edge_end);
  for (guint k = 0; k < n && ok; k++)
    {
      guint slot = slots[k];

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      r.a = cpel_file_track_lower_bound (file, slot, t0);
      r.b = t1 > t0 ? cpel_file_track_lower_bound (file, slot, t1) : r.a;
      r.times = file->times + file->tracks[slot].first;
      r.count = file->tracks[slot].count;
      r.heap.len = 0;
      ok = replay_track (&r, slot, cancellable, error);
    }
  g_free (r.heap.v);
  return ok;
}

/* ---- the summary --------------------------------------------------------- */

typedef struct
{
  guint64            count;
  unsigned __int128  total;
  gint64             min, max;
  guint64            orphan_begins;
  guint64            orphan_ends;
  CpelDurations     *durations;   /* per name only */
  unsigned __int128  self_total;  /* durations less their children's */
  /* the squares' sum, exact until it would pass 2^128 (durations of hours
   * by the billion), then in long double */
  unsigned __int128  squares;
  long double        squares_wide;
  gboolean           wide;
} Acc;

static void
durations_free (CpelDurations *d)
{
  cpel_durations_clear (d);
  g_free (d);
}

struct _CpelSpanSummary
{
  CpelFile   *file;
  Names       names;
  gboolean    unfinished;
  GArray     *by_name;     /* Acc per name id */
  GHashTable *by_track;    /* (slot << 32 | name) -> Acc* */
  GHashTable *by_state;
  /* the same Acc* by slot, then name (GPtrArray of GPtrArray): a span
   * finds its rows without hashing */
  GPtrArray  *track_index;
  GPtrArray  *state_index;
  GArray     *rows[3];     /* CpelSpanRow */
  /* self time: per track (GArray of guint64 by depth, by slot) the summed
   * durations of the spans that ended since the last span one less deep
   * did (spans are emitted when they end: children before their parent) */
  GPtrArray  *children;
};

static void
acc_free (gpointer p)
{
  g_free (p);
}

static void
acc_add (Acc            *a,
         const CpelSpan *span,
         gint64          d,
         gint64          self,
         gboolean        unfinished,
         gboolean        keep)
{
  unsigned __int128 sq;

  if (span->flags & CPEL_SPAN_NO_BEGIN)
    a->orphan_ends++;
  if (span->flags & (CPEL_SPAN_NO_END | CPEL_SPAN_INTERRUPTED))
    a->orphan_begins++;
  if ((span->flags & CPEL_SPAN_ORPHAN) && !unfinished)
    return;
  if (d < 0)
    d = 0;
  if (a->count == 0 || d < a->min)
    a->min = d;
  if (a->count == 0 || d > a->max)
    a->max = d;
  a->count++;
  a->total += (guint64) d;
  a->self_total += (guint64) CLAMP (self, 0, d);
  /* no division a span (what a running mean costs, twice a span) */
  sq = (unsigned __int128) d * (guint64) d;
  if (G_LIKELY (!a->wide) && G_UNLIKELY (__builtin_add_overflow (a->squares, sq, &a->squares)))
    {
      a->wide = TRUE;
      a->squares_wide = (long double) a->squares;   /* the sum before this span */
    }
  if (G_UNLIKELY (a->wide))
    a->squares_wide += (long double) d * (long double) d;
  if (keep)
    {
      if (a->durations == NULL)
        {
          a->durations = g_new (CpelDurations, 1);
          cpel_durations_init (a->durations);
        }
      cpel_durations_append (a->durations, d);
    }
}

static void
ptr_array_unref0 (gpointer p)
{
  if (p != NULL)
    g_ptr_array_unref (p);
}

static void
array_unref0 (gpointer p)
{
  if (p != NULL)
    g_array_unref (p);
}

static Acc *
pair_acc (GHashTable *table,
          GPtrArray  *index,
          guint       slot,
          guint32     name)
{
  GPtrArray *row = slot < index->len ? g_ptr_array_index (index, slot) : NULL;
  guint64 key;
  Acc *a;

  if (row != NULL && name < row->len && g_ptr_array_index (row, name) != NULL)
    return g_ptr_array_index (row, name);
  key = (guint64) slot << 32 | name;
  a = g_new0 (Acc, 1);
  g_hash_table_insert (table, g_memdup2 (&key, sizeof key), a);   /* owns it */
  if (slot >= index->len)
    g_ptr_array_set_size (index, (gint) slot + 1);
  row = g_ptr_array_index (index, slot);
  if (row == NULL)
    {
      row = g_ptr_array_new ();
      g_ptr_array_index (index, slot) = row;
    }
  if (name >= row->len)
    g_ptr_array_set_size (row, (gint) name + 1);
  g_ptr_array_index (row, name) = a;
  return a;
}

static void
summary_sink (gpointer        data,
              guint           slot,
              const CpelSpan *span,
              gint64          tb,
              gint64          te)
{
  CpelSpanSummary *s = data;
  gint64 d = te - tb, self = d;
  GArray *kids;
  guint k = span->depth;

  if (span->flags & CPEL_SPAN_STATE)
    {
      acc_add (pair_acc (s->by_state, s->state_index, slot, span->name), span, d, d,
               s->unfinished, FALSE);
      return;
    }
  /* its children (one deeper) ended before it: their sum is its own
   * time's complement; it counts for its parent (one less deep) */
  if (slot >= s->children->len)
    g_ptr_array_set_size (s->children, (gint) slot + 1);
  kids = g_ptr_array_index (s->children, slot);
  if (kids == NULL)
    {
      kids = g_array_new (FALSE, TRUE, sizeof (guint64));
      g_ptr_array_index (s->children, slot) = kids;
    }
  if (kids->len < k + 2)
    g_array_set_size (kids, k + 2);
  self = d - (gint64) MIN (g_array_index (kids, guint64, k + 1), (guint64) G_MAXINT64);
  g_array_index (kids, guint64, k + 1) = 0;
  g_array_index (kids, guint64, k) += (guint64) MAX (d, 0);
  if (span->flags & CPEL_SPAN_REPLAY_UNSEEN)
    return;
  if (span->name >= s->by_name->len)
    g_array_set_size (s->by_name, span->name + 1);
  acc_add (&g_array_index (s->by_name, Acc, span->name), span, d, self, s->unfinished, TRUE);
  acc_add (pair_acc (s->by_track, s->track_index, slot, span->name), span, d, self,
           s->unfinished, FALSE);
}

static guint
u64_hash (gconstpointer p)
{
  guint64 k = *(const guint64 *) p;

  return (guint) ((k * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32);
}

static gboolean
u64_equal (gconstpointer a,
           gconstpointer b)
{
  return *(const guint64 *) a == *(const guint64 *) b;
}

/* Nearest rank: the smallest d with at least p % of the values <= d, the
 * ceil(p n / 100)-th smallest. */
static guint64
rank_of (guint64 n,
         guint   p)
{
  guint64 rank = (guint64) (((unsigned __int128) n * p + 99) / 100);

  return rank == 0 ? 0 : rank - 1;
}

/* The population standard deviation, rounded to the ns: (Σd² − (Σd)²/n) / n
 * in long double (64-bit mantissa: sums exact to 2^-64 of their size). */
static gint64
stddev_of (const Acc *a)
{
  long double n = (long double) a->count;
  long double sum = (long double) a->total;
  long double squares = a->wide ? a->squares_wide : (long double) a->squares;
  long double var = (squares - sum * (sum / n)) / n;

  return (gint64) llroundl (sqrtl (MAX (var, 0.0L)));
}

static void
row_fill (CpelSpanRow *r,
          Acc         *a)
{
  r->count = a->count;
  r->total_ns = a->total > G_MAXUINT64 ? G_MAXUINT64 : (guint64) a->total;
  r->orphan_begins = a->orphan_begins;
  r->orphan_ends = a->orphan_ends;
  r->self_ns = a->self_total > G_MAXUINT64 ? G_MAXUINT64 : (guint64) a->self_total;
  if (a->count > 0)
    {
      r->min_ns = a->min;
      r->max_ns = a->max;
      r->mean_ns = (gint64) ((a->total + a->count / 2) / a->count);
      r->stddev_ns = stddev_of (a);
    }
}

static gint
row_cmp_spans (gconstpointer pa,
               gconstpointer pb)
{
  const CpelSpanRow *a = pa, *b = pb;

  if (a->total_ns != b->total_ns)
    return a->total_ns > b->total_ns ? -1 : 1;
  return strcmp (a->name, b->name);
}

static gint
row_cmp_tracks (gconstpointer pa,
                gconstpointer pb)
{
  const CpelSpanRow *a = pa, *b = pb;
  gint c = strcmp (a->track, b->track);

  if (c != 0)
    return c;
  if (a->slot != b->slot)
    return a->slot < b->slot ? -1 : 1;
  return strcmp (a->name, b->name);
}

static void
pair_rows (CpelSpanSummary *s,
           GHashTable      *table,
           GArray          *rows)
{
  GHashTableIter it;
  gpointer k, v;

  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      guint64 key = *(const guint64 *) k;
      CpelSpanRow r = { 0 };

      r.slot = (guint) (key >> 32);
      r.track = s->file->tracks[r.slot].label ? s->file->tracks[r.slot].label : "";
      r.name = g_ptr_array_index (s->names.names, (guint) (key & 0xffffffff));
      row_fill (&r, v);
      g_array_append_val (rows, r);
    }
  g_array_sort (rows, row_cmp_tracks);
}

static CpelSpanSummary *
summary_new (CpelFile *file,
             gboolean  unfinished)
{
  CpelSpanSummary *s = g_new0 (CpelSpanSummary, 1);

  s->file = g_object_ref (file);
  s->unfinished = unfinished;
  names_init (&s->names);
  s->by_name = g_array_new (FALSE, TRUE, sizeof (Acc));
  s->by_track = g_hash_table_new_full (u64_hash, u64_equal, g_free, acc_free);
  s->by_state = g_hash_table_new_full (u64_hash, u64_equal, g_free, acc_free);
  /* slots without spans stay NULL */
  s->track_index = g_ptr_array_new_with_free_func (ptr_array_unref0);
  s->state_index = g_ptr_array_new_with_free_func (ptr_array_unref0);
  s->children = g_ptr_array_new_with_free_func (array_unref0);
  for (guint t = 0; t < 3; t++)
    s->rows[t] = g_array_new (FALSE, TRUE, sizeof (CpelSpanRow));
  return s;
}

/* The rows, once every span is in. */
static void
summary_finish (CpelSpanSummary *s)
{
  for (guint n = 0; n < s->by_name->len; n++)
    {
      Acc *a = &g_array_index (s->by_name, Acc, n);
      CpelSpanRow r = { 0 };

      if (a->count == 0 && a->orphan_begins == 0 && a->orphan_ends == 0)
        continue;
      r.slot = G_MAXUINT;
      r.name = g_ptr_array_index (s->names.names, n);
      row_fill (&r, a);
      if (a->durations != NULL && a->durations->n > 0)
        {
          CpelDurations *v = a->durations;
          guint64 ranks[3] = { rank_of (v->n, 50), rank_of (v->n, 90), rank_of (v->n, 99) };
          gint64 p[3];

          /* the durations kept are the ones counted: within [min, max] */
          cpel_durations_select_ranks (v, a->min, a->max, ranks, 3, p);
          r.p50_ns = p[0];
          r.p90_ns = p[1];
          r.p99_ns = p[2];
        }
      g_clear_pointer (&a->durations, durations_free);
      g_array_append_val (s->rows[CPEL_SPAN_TABLE_SPANS], r);
    }
  g_array_sort (s->rows[CPEL_SPAN_TABLE_SPANS], row_cmp_spans);
  pair_rows (s, s->by_track, s->rows[CPEL_SPAN_TABLE_TRACKS]);
  pair_rows (s, s->by_state, s->rows[CPEL_SPAN_TABLE_STATES]);
}

CpelSpanSummary *
cpel_span_summary_compute (CpelFile               *file,
                           CpelSpanRules          *rules,
                           const CpelSpansOptions *options,
                           gboolean                unfinished,
                           GCancellable           *cancellable,
                           GError                **error)
{
  g_autoptr(CpelSpanSummary) s = NULL;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (rules != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options != NULL && !cpel_file_check_slots (file, options->slots, options->n_slots, error))
    return NULL;
  s = summary_new (file, unfinished);
  if (!drive (file, rules, options, TRUE, FALSE, &s->names, summary_sink, s, cancellable,
              error))
    return NULL;
  summary_finish (s);
  return g_steal_pointer (&s);
}

CpelSpanSummary *
cpel_span_summary_compute_from_spans (CpelSpans              *spans,
                                      const CpelSpansOptions *options,
                                      gboolean                unfinished,
                                      GCancellable           *cancellable,
                                      GError                **error)
{
  g_autoptr(CpelSpanSummary) s = NULL;

  g_return_val_if_fail (spans != NULL, NULL);
  g_return_val_if_fail (cpel_spans_is_whole (spans), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  s = summary_new (spans->file, unfinished);
  /* the same ids as the spans' names */
  for (guint i = 0; i < spans->names.names->len; i++)
    names_intern (&s->names, g_ptr_array_index (spans->names.names, i),
                  g_array_index (spans->names.rules, guint32, i));
  if (!cpel_spans_replay (spans, options, summary_sink, s, cancellable, error))
    return NULL;
  summary_finish (s);
  return g_steal_pointer (&s);
}

gboolean
cpel_spans_is_whole (CpelSpans *spans)
{
  g_return_val_if_fail (spans != NULL, FALSE);
  return spans->whole;
}

void
cpel_span_summary_free (CpelSpanSummary *s)
{
  if (s == NULL)
    return;
  if (s->by_name != NULL)
    for (guint n = 0; n < s->by_name->len; n++)
      g_clear_pointer (&g_array_index (s->by_name, Acc, n).durations, durations_free);
  g_clear_pointer (&s->by_name, g_array_unref);
  g_clear_pointer (&s->by_track, g_hash_table_unref);
  g_clear_pointer (&s->by_state, g_hash_table_unref);
  g_clear_pointer (&s->children, g_ptr_array_unref);
  g_clear_pointer (&s->track_index, g_ptr_array_unref);
  g_clear_pointer (&s->state_index, g_ptr_array_unref);
  for (guint t = 0; t < 3; t++)
    g_clear_pointer (&s->rows[t], g_array_unref);
  names_clear (&s->names);
  g_clear_object (&s->file);
  g_free (s);
}

guint
cpel_span_summary_get_n_rows (CpelSpanSummary *summary,
                              CpelSpanTable    table)
{
  g_return_val_if_fail (summary != NULL, 0);
  g_return_val_if_fail (table <= CPEL_SPAN_TABLE_CPUS, 0);
  return summary->rows[MIN (table, CPEL_SPAN_TABLE_STATES)]->len;
}

const CpelSpanRow *
cpel_span_summary_get_row (CpelSpanSummary *summary,
                           CpelSpanTable    table,
                           guint            i)
{
  g_return_val_if_fail (summary != NULL, NULL);
  g_return_val_if_fail (table <= CPEL_SPAN_TABLE_CPUS, NULL);
  table = MIN (table, CPEL_SPAN_TABLE_STATES);
  g_return_val_if_fail (i < summary->rows[table]->len, NULL);
  return &g_array_index (summary->rows[table], CpelSpanRow, i);
}

static char *
ns_field (const CpelSpanRow *r,
          gint64             v)
{
  return r->count > 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, v) : g_strdup ("");
}

static void
csv_line (GString *out,
          char   **fields)
{
  for (guint i = 0; fields[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      cpel_csv_append_field (out, fields[i]);
    }
  g_string_append (out, "\r\n");
}

char *
cpel_span_summary_to_csv (CpelSpanSummary *summary,
                          CpelSpanTable    table)
{
  GString *out;
  GArray *rows;
  gboolean cpus;

  g_return_val_if_fail (summary != NULL, NULL);
  g_return_val_if_fail (table <= CPEL_SPAN_TABLE_CPUS, NULL);
  out = g_string_new (NULL);
  rows = summary->rows[MIN (table, CPEL_SPAN_TABLE_STATES)];
  cpus = table == CPEL_SPAN_TABLE_CPUS;
  if (cpus)
    table = CPEL_SPAN_TABLE_STATES;
  if (table == CPEL_SPAN_TABLE_SPANS)
    g_string_append (out, "span,count,total_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,"
                          "orphan_begins,orphan_ends\r\n");
  else if (table == CPEL_SPAN_TABLE_TRACKS)
    g_string_append (out, "track,span,count,total_ns,min_ns,mean_ns,max_ns,"
                          "orphan_begins,orphan_ends\r\n");
  else if (cpus)
    g_string_append (out, "cpu,thread,count,total_ns,min_ns,mean_ns,max_ns\r\n");
  else
    g_string_append (out, "track,state,count,total_ns,min_ns,mean_ns,max_ns\r\n");
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelSpanRow *r = &g_array_index (rows, CpelSpanRow, i);
      g_autoptr(GPtrArray) f = g_ptr_array_new_with_free_func (g_free);

      if (table != CPEL_SPAN_TABLE_SPANS)
        g_ptr_array_add (f, g_utf8_make_valid (r->track, -1));
      g_ptr_array_add (f, g_utf8_make_valid (r->name, -1));
      g_ptr_array_add (f, g_strdup_printf ("%" G_GUINT64_FORMAT, r->count));
      g_ptr_array_add (f, g_strdup_printf ("%" G_GUINT64_FORMAT, r->total_ns));
      g_ptr_array_add (f, ns_field (r, r->min_ns));
      if (table == CPEL_SPAN_TABLE_SPANS)
        {
          g_ptr_array_add (f, ns_field (r, r->p50_ns));
          g_ptr_array_add (f, ns_field (r, r->p90_ns));
          g_ptr_array_add (f, ns_field (r, r->p99_ns));
          g_ptr_array_add (f, ns_field (r, r->max_ns));
          g_ptr_array_add (f, ns_field (r, r->mean_ns));
        }
      else
        {
          g_ptr_array_add (f, ns_field (r, r->mean_ns));
          g_ptr_array_add (f, ns_field (r, r->max_ns));
        }
      if (table != CPEL_SPAN_TABLE_STATES)
        {
          g_ptr_array_add (f, g_strdup_printf ("%" G_GUINT64_FORMAT, r->orphan_begins));
          g_ptr_array_add (f, g_strdup_printf ("%" G_GUINT64_FORMAT, r->orphan_ends));
        }
      g_ptr_array_add (f, NULL);
      csv_line (out, (char **) f->pdata);
    }
  return g_string_free (out, FALSE);
}

static char *
time_cell (const CpelSpanRow *r,
           gint64             v)
{
  return r->count > 0 ? cpel_time_format (v) : g_strdup ("-");
}

char *
cpel_span_summary_to_text (CpelSpanSummary *summary,
                           CpelSpanTable    table)
{
  GString *out;
  GArray *rows;
  CpelTextTable t;
  gboolean cpus;

  g_return_val_if_fail (summary != NULL, NULL);
  g_return_val_if_fail (table <= CPEL_SPAN_TABLE_CPUS, NULL);
  out = g_string_new (NULL);
  rows = summary->rows[MIN (table, CPEL_SPAN_TABLE_STATES)];
  cpus = table == CPEL_SPAN_TABLE_CPUS;
  if (cpus)
    table = CPEL_SPAN_TABLE_STATES;
  if (table == CPEL_SPAN_TABLE_SPANS)
    {
      cpel_text_table_init (&t, "lrrrrrrrrrr");
      cpel_text_table_add (&t, g_strdup (_("Span")));
    }
  else
    {
      cpel_text_table_init (&t, table == CPEL_SPAN_TABLE_TRACKS ? "llrrrrrrr" : "llrrrrr");
      cpel_text_table_add (&t, g_strdup (cpus ? _("CPU") : _("Track")));
      cpel_text_table_add (&t, g_strdup (table == CPEL_SPAN_TABLE_TRACKS ? _("Span")
                                         : cpus ? _("Thread") : _("State")));
    }
  cpel_text_table_add (&t, g_strdup (_("Count")));
  cpel_text_table_add (&t, g_strdup (_("Total")));
  cpel_text_table_add (&t, g_strdup (_("Min")));
  if (table == CPEL_SPAN_TABLE_SPANS)
    {
      cpel_text_table_add (&t, g_strdup ("p50"));
      cpel_text_table_add (&t, g_strdup ("p90"));
      cpel_text_table_add (&t, g_strdup ("p99"));
      cpel_text_table_add (&t, g_strdup (_("Max")));
      cpel_text_table_add (&t, g_strdup (_("Mean")));
    }
  else
    {
      cpel_text_table_add (&t, g_strdup (_("Mean")));
      cpel_text_table_add (&t, g_strdup (_("Max")));
    }
  if (table != CPEL_SPAN_TABLE_STATES)
    {
      cpel_text_table_add (&t, g_strdup (_("No end")));
      cpel_text_table_add (&t, g_strdup (_("No begin")));
    }
  for (guint i = 0; i < rows->len; i++)
    {
      const CpelSpanRow *r = &g_array_index (rows, CpelSpanRow, i);

      if (table != CPEL_SPAN_TABLE_SPANS)
        cpel_text_table_add (&t, cpel_stats_printable (r->track));
      cpel_text_table_add (&t, cpel_stats_printable (r->name));
      cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, r->count));
      cpel_text_table_add (&t, cpel_time_format ((gint64) MIN (r->total_ns,
                                                                (guint64) G_MAXINT64)));
      cpel_text_table_add (&t, time_cell (r, r->min_ns));
      if (table == CPEL_SPAN_TABLE_SPANS)
        {
          cpel_text_table_add (&t, time_cell (r, r->p50_ns));
          cpel_text_table_add (&t, time_cell (r, r->p90_ns));
          cpel_text_table_add (&t, time_cell (r, r->p99_ns));
          cpel_text_table_add (&t, time_cell (r, r->max_ns));
          cpel_text_table_add (&t, time_cell (r, r->mean_ns));
        }
      else
        {
          cpel_text_table_add (&t, time_cell (r, r->mean_ns));
          cpel_text_table_add (&t, time_cell (r, r->max_ns));
        }
      if (table != CPEL_SPAN_TABLE_STATES)
        {
          cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, r->orphan_begins));
          cpel_text_table_add (&t, g_strdup_printf ("%" G_GUINT64_FORMAT, r->orphan_ends));
        }
    }
  cpel_text_table_write (&t, out);
  return g_string_free (out, FALSE);
}
