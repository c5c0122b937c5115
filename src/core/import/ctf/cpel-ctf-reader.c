/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-reader.c — the CTF reader, a helper program: reads the trace
 * folders named on its command line with libbabeltrace2 and writes what it
 * finds to its standard output (cpel-ctf-wire.h).  It runs as a child of the
 * viewer or `cpel` (cpel-ctf-trace.c), under memory and CPU limits and a
 * watchdog: libbabeltrace2 aborts, loops or exhausts memory on some damaged
 * traces, and only this process dies then.
 *
 * `cpel-ctf-reader --live URL` follows an LTTng live session instead
 * (libbabeltrace2's source.ctf.lttng-live, through lttng-relayd;
 * cpel-ctf-follow.c): events are sent at most CTF_LIVE_FLUSH_US after they
 * were read, each discarded range's counts ('X') right after the events
 * before it, and 'Z' when the session ends.
 *
 * The tracks, names, texts and data are those cpel-ctf-trace.h describes. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <inttypes.h>
#include <locale.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <babeltrace2/babeltrace.h>

#include "cpel-ctf-payload.h"
#include "cpel-ctf-wire.h"
#include "cpel-error.h"

#define CTF_MAX_TEXT         (G_GUINT64_CONSTANT (1) << 34)   /* 16 GiB of event text */
#define CTF_FLUSH_EVENTS     4096       /* events sent in one record at most */
#define CTF_FLUSH_TEXT       (1u << 20) /* text bytes buffered before a record */
#define CTF_HEARTBEAT_US     (G_USEC_PER_SEC / 4)
/* Following an LTTng live session: events are sent at most this late, and
 * the graph, when the relay daemon has nothing new, is run again after
 * CTF_LIVE_RETRY_US */
#define CTF_LIVE_FLUSH_US    (G_USEC_PER_SEC / 20)
#define CTF_LIVE_RETRY_US    (G_USEC_PER_SEC / 100)

/* TRUE with --live: the discarded counts are sent as they change */
static gboolean live_mode;

typedef struct
{
  gint64   ns;
  guint32  track;
  guint32  cls;
  guint32  datum;
  guint32  text_len;
  guint64  text_off;    /* into the text buffered */
} ReaderEvent;

typedef struct
{
  GArray      *events;        /* ReaderEvent, not yet sent */
  GString     *text;          /* their text */
  guint64      n_sent;        /* events sent */
  guint64      text_sent;     /* text bytes sent */
  gint64       last_send;     /* monotonic µs */
  GPtrArray   *track_labels;
  GHashTable  *track_keys;    /* key string -> index + 1 */
  GPtrArray   *class_names;
  GHashTable  *class_index;   /* name -> index + 1 */
  guint64      discarded_events;
  guint64      discarded_packets;
  char        *clock_name;
  guint64      clock_freq;
  gboolean     clock_unix;
} ReaderTrace;

/* ---- the output ------------------------------------------------------------ */

static GByteArray *out_buf;

static void
out_flush (void)
{
  gsize done = 0;
  while (done < out_buf->len)
    {
      ssize_t n = write (STDOUT_FILENO, out_buf->data + done, out_buf->len - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit (2);    /* the parent is gone */
      done += (gsize) n;
    }
  g_byte_array_set_size (out_buf, 0);
}

static void
send_record (char type, const void *data, gsize len)
{
  guint8 head[8] = { (guint8) type, 0, 0, 0 };
  guint32 l = (guint32) len;

  g_assert (len <= CPEL_CTF_WIRE_MAX_RECORD);
  memcpy (head + 4, &l, 4);
  g_byte_array_append (out_buf, head, 8);
  if (len > 0)
    g_byte_array_append (out_buf, data, (guint) len);
  if (out_buf->len >= 65536 || type == 'H' || type == 'P')
    out_flush ();
}

/* Sends the events buffered (all of them with `force`, else when enough
 * are), or a heartbeat when the last record is a while ago. */
static void
flush_events (ReaderTrace *t, gboolean force)
{
  gint64 now = g_get_monotonic_time ();
  guint i = 0;

  if (!force && t->events->len < CTF_FLUSH_EVENTS && t->text->len < CTF_FLUSH_TEXT)
    {
      if (live_mode && t->events->len > 0 && now - t->last_send >= CTF_LIVE_FLUSH_US)
        force = TRUE;
      else if (now - t->last_send >= CTF_HEARTBEAT_US)
        {
          if (t->events->len > 0)
            force = TRUE;
          else
            {
              send_record ('H', NULL, 0);
              t->last_send = now;
            }
        }
      if (!force)
        return;
    }
  while (i < t->events->len)
    {
      g_autoptr(GByteArray) rec = g_byte_array_new ();
      guint32 n = 0;
      g_byte_array_set_size (rec, 4);
      gsize text_bytes = 0;
      guint first = i;
      for (; i < t->events->len && n < CTF_FLUSH_EVENTS; i++, n++)
        {
          const ReaderEvent *e = &g_array_index (t->events, ReaderEvent, i);
          if (n > 0 && 4 + (gsize) (n + 1) * CPEL_CTF_WIRE_EVENT_SIZE + text_bytes + e->text_len
                       > CPEL_CTF_WIRE_MAX_RECORD)
            break;
          if (4 + CPEL_CTF_WIRE_EVENT_SIZE + (gsize) e->text_len > CPEL_CTF_WIRE_MAX_RECORD)
            {
              /* one event's text over the record size: cut (never on real traces) */
              ReaderEvent *w = &g_array_index (t->events, ReaderEvent, i);
              w->text_len = CPEL_CTF_WIRE_MAX_RECORD - 4 - CPEL_CTF_WIRE_EVENT_SIZE;
            }
          guint8 raw[CPEL_CTF_WIRE_EVENT_SIZE];
          memcpy (raw, &e->ns, 8);
          memcpy (raw + 8, &e->track, 4);
          memcpy (raw + 12, &e->cls, 4);
          memcpy (raw + 16, &e->datum, 4);
          memcpy (raw + 20, &e->text_len, 4);
          g_byte_array_append (rec, raw, sizeof raw);
          text_bytes += e->text_len;
        }
      memcpy (rec->data, &n, 4);
      for (guint j = first; j < i; j++)
        {
          const ReaderEvent *e = &g_array_index (t->events, ReaderEvent, j);
          g_byte_array_append (rec, (const guint8 *) t->text->str + e->text_off, e->text_len);
        }
      send_record ('E', rec->data, rec->len);
      t->n_sent += n;
    }
  out_flush ();
  t->text_sent += t->text->len;
  g_array_set_size (t->events, 0);
  g_string_truncate (t->text, 0);
  t->last_send = now;
}

static void
send_failure (CpelErrorCode code, const char *message)
{
  gsize len = MIN (strlen (message), CPEL_CTF_WIRE_MAX_NAME);
  g_autofree guint8 *rec = g_malloc (4 + len);
  guint32 c = (guint32) code;
  memcpy (rec, &c, 4);
  memcpy (rec + 4, message, len);
  send_record ('R', rec, 4 + len);
  out_flush ();
}

/* ---- the graph ------------------------------------------------------------ */

typedef struct
{
  ReaderTrace     *trace;
  GError           *error;
  GHashTable       *streams;       /* const bt_stream * -> stream index + 1 */
  guint             n_streams;
  GHashTable       *trace_index;   /* const bt_trace * -> index + 1 */
  GHashTable       *sized;         /* streams whose packets give their size */
  guint             n_traces_seen;
  guint64           bytes_total;
  guint64           bytes_seen;
  double            last_fraction;
  GString          *scratch;
  GString          *key;
  guint             n_trace_dirs;
  GHashTable       *held;          /* const bt_stream * -> HeldDiscard */
} SinkState;

static guint
intern_class (ReaderTrace *t, const char *name)
{
  gpointer v = g_hash_table_lookup (t->class_index, name);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  char *copy = g_strdup (name);
  g_ptr_array_add (t->class_names, copy);
  g_hash_table_insert (t->class_index, copy, GUINT_TO_POINTER (t->class_names->len));
  send_record ('C', copy, MIN (strlen (copy), CPEL_CTF_WIRE_MAX_NAME));
  return t->class_names->len - 1;
}

static guint
intern_track (ReaderTrace *t, const char *key, const char *label)
{
  gpointer v = g_hash_table_lookup (t->track_keys, key);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  g_ptr_array_add (t->track_labels, g_strdup (label));
  send_record ('T', label, MIN (strlen (label), CPEL_CTF_WIRE_MAX_NAME));
  g_hash_table_insert (t->track_keys, g_strdup (key), GUINT_TO_POINTER (t->track_labels->len));
  return t->track_labels->len - 1;
}

static const bt_field *
struct_member (const bt_field *f, const char *name)
{
  if (f == NULL || bt_field_get_class_type (f) != BT_FIELD_CLASS_TYPE_STRUCTURE)
    return NULL;
  return bt_field_structure_borrow_member_field_by_name_const (f, name);
}

static gboolean
field_uint (const bt_field *f, guint64 *v)
{
  if (f == NULL)
    return FALSE;
  bt_field_class_type t = bt_field_get_class_type (f);
  if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
    *v = bt_field_integer_unsigned_get_value (f);
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
    *v = (guint64) bt_field_integer_signed_get_value (f);
  else
    return FALSE;
  return TRUE;
}

static const char *
field_string (const bt_field *f)
{
  if (f == NULL || bt_field_get_class_type (f) != BT_FIELD_CLASS_TYPE_STRING)
    return NULL;
  return bt_field_string_get_value (f);
}

/* "trace-dir/stream-file" of a stream (ctf.fs names streams by path). */
static char *
stream_short_name (const bt_stream *stream)
{
  const char *name = bt_stream_get_name (stream);
  if (name == NULL)
    return g_strdup ("?");
  g_autofree char *dir = g_path_get_dirname (name);
  g_autofree char *dbase = g_path_get_basename (dir);
  g_autofree char *base = g_path_get_basename (name);
  return g_build_filename (dbase, base, NULL);
}

/* The trace's environment entry `name` when it is a string. */
static const char *
trace_env_string (const bt_trace *trace, const char *name)
{
  const bt_value *v = bt_trace_borrow_environment_entry_value_by_name_const (trace, name);
  if (v == NULL || bt_value_get_type (v) != BT_VALUE_TYPE_STRING)
    return NULL;
  return bt_value_string_get (v);
}

static guint
stream_index (SinkState *st, const bt_stream *stream)
{
  gpointer v = g_hash_table_lookup (st->streams, stream);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  g_hash_table_insert (st->streams, (gpointer) stream, GUINT_TO_POINTER (++st->n_streams));
  return st->n_streams - 1;
}

static guint
trace_index (SinkState *st, const bt_trace *trace)
{
  gpointer v = g_hash_table_lookup (st->trace_index, trace);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  g_hash_table_insert (st->trace_index, (gpointer) trace, GUINT_TO_POINTER (++st->n_traces_seen));
  return st->n_traces_seen - 1;
}

static void
report_progress (SinkState *st)
{
  if (st->bytes_total == 0)
    return;
  double f = MIN (0.99, (double) st->bytes_seen / (double) st->bytes_total);
  if (f >= st->last_fraction + 0.01)
    {
      st->last_fraction = f;
      guint32 millionths = (guint32) (f * 1e6);
      send_record ('P', &millionths, sizeof millionths);
    }
}

/* ---- scheduling marks ------------------------------------------------------ */

/* As the perf.data importer marks them (cpel-import-perf.c), so that the
 * built-in state rules give the threads' states and the CPUs' threads: for a
 * sched_switch (LTTng: `sched_switch`, perf-CTF: `sched:sched_switch`),
 * `sched_switch: in` on the next thread's track (`comm [tid]`), `sched_switch:
 * out` on the previous one's (text `CPU n, prev_state=L`) and `sched_switch:
 * next` on the CPU's track (text `comm [tid]`); for a wake-up, `NAME:
 * woken` on the woken thread's track (text `waker="comm [tid]", CPU n`
 * when the event says who ran: perf-CTF's perf_tid, LTTng's tid context). */

static gboolean
sched_name (const char *cname, const char *want)
{
  const char *colon = strrchr (cname, ':');
  return strcmp (colon != NULL ? colon + 1 : cname, want) == 0;
}

/* The kernel's prev_state as perf prints it, one letter.  The encoding of
 * Linux 4.14 and later (TASK_REPORT: S 1, D 2, T 4, t 8, X 16, Z 32, P 64,
 * I 128, preempted 256), and of older kernels where they differ (TASK_IDLE
 * = NOLOAD 1024 | D; preempted = TASK_STATE_MAX, a power of two from 2048). */
static const char *
sched_state_letter (guint64 v)
{
  if (v == 0)
    return "R";
  if ((v & 1026) == 1026)
    return "I";
  if (v & 1) return "S";
  if (v & 2) return "D";
  if (v & 4) return "T";
  if (v & 8) return "t";
  if (v & 16) return "X";
  if (v & 32) return "Z";
  if (v == 64) return "P";
  if (v == 128) return "I";
  if (v == 256 || (v >= 2048 && (v & (v - 1)) == 0))
    return "R+";
  return "?";
}

static void
push_mark (ReaderTrace *t, gint64 ns, guint track, const char *cls, guint32 datum,
           const char *text)
{
  gsize before = t->text->len;
  g_string_append (t->text, text);
  ReaderEvent e = { ns, track, intern_class (t, cls), datum,
                    (guint32) MIN (t->text->len - before, G_MAXUINT32), before };
  g_array_append_val (t->events, e);
}

static guint
thread_track (SinkState *st, guint tidx, guint64 tid, const char *comm)
{
  g_string_printf (st->key, "t%u/%" PRIu64, tidx, tid);
  g_string_printf (st->scratch, "%s [%" PRIu64 "]", comm != NULL ? comm : ":", tid);
  if (!g_utf8_validate (st->scratch->str, st->scratch->len, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (st->scratch->str, st->scratch->len);
      g_string_assign (st->scratch, valid);
    }
  return intern_track (st->trace, st->key->str, st->scratch->str);
}

static void
sched_marks (SinkState *st, const char *cname, const bt_field *payload, const bt_field *cctx,
             gint64 ns, guint track, gboolean cpu_track, gboolean has_cpu, guint64 cpu,
             guint tidx)
{
  ReaderTrace *t = st->trace;
  char where[32] = "";
  if (has_cpu)
    g_snprintf (where, sizeof where, "CPU %" PRIu64, cpu);
  if (sched_name (cname, "sched_switch"))
    {
      guint64 prev, next, state = 0;
      const char *pc = field_string (struct_member (payload, "prev_comm"));
      const char *nc = field_string (struct_member (payload, "next_comm"));
      if (!(field_uint (struct_member (payload, "prev_tid"), &prev)
            || field_uint (struct_member (payload, "prev_pid"), &prev))
          || !(field_uint (struct_member (payload, "next_tid"), &next)
               || field_uint (struct_member (payload, "next_pid"), &next)))
        return;
      field_uint (struct_member (payload, "prev_state"), &state);
      if (prev > 0 && prev < G_MAXUINT32)
        {
          g_autofree char *text = g_strdup_printf ("%s%sprev_state=%s", where,
                                                   has_cpu ? ", " : "", sched_state_letter (state));
          push_mark (t, ns, thread_track (st, tidx, prev, pc), "sched_switch: out",
                     (guint32) cpu, text);
        }
      guint nt = G_MAXUINT;
      if (next > 0 && next < G_MAXUINT32)
        {
          nt = thread_track (st, tidx, next, nc);
          push_mark (t, ns, nt, "sched_switch: in", (guint32) cpu, where);
        }
      if (cpu_track && next < G_MAXUINT32)
        {
          /* the thread as its track is labelled (its first comm) */
          g_autofree char *text = nt != G_MAXUINT
            ? g_strdup (g_ptr_array_index (t->track_labels, nt))
            : g_strdup_printf ("%s [%" PRIu64 "]", nc != NULL ? nc : ":", next);
          push_mark (t, ns, track, "sched_switch: next", (guint32) next, text);
        }
      return;
    }
  static const char *const wakes[] = { "sched_waking", "sched_wakeup", "sched_wakeup_new" };
  for (guint k = 0; k < G_N_ELEMENTS (wakes); k++)
    if (sched_name (cname, wakes[k]))
      {
        guint64 tid, waker;
        if (!(field_uint (struct_member (payload, "tid"), &tid)
              || field_uint (struct_member (payload, "pid"), &tid))
            || tid == 0 || tid >= G_MAXUINT32)
          return;
        guint wt = thread_track (st, tidx, tid, field_string (struct_member (payload, "comm")));
        g_autoptr(GString) text = g_string_new (NULL);
        gboolean has_waker = field_uint (struct_member (payload, "perf_tid"), &waker)
                             || field_uint (struct_member (cctx, "tid"), &waker)
                             || field_uint (struct_member (cctx, "vtid"), &waker);
        if (has_waker)
          {
            /* the waker's name: its track's label when it has one */
            g_string_printf (st->key, "t%u/%" PRIu64, tidx, waker);
            gpointer v = g_hash_table_lookup (t->track_keys, st->key->str);
            if (v != NULL)
              g_string_append_printf (text, "waker=\"%s\"",
                                      (const char *) g_ptr_array_index (t->track_labels,
                                                                        GPOINTER_TO_UINT (v) - 1));
            else
              g_string_append_printf (text, "waker=\": [%" PRIu64 "]\"", waker);
          }
        if (has_cpu)
          g_string_append_printf (text, "%s%s", has_waker ? ", " : "", where);
        g_autofree char *mark = g_strconcat (wakes[k], ": woken", NULL);
        push_mark (t, ns, wt, mark, has_waker ? (guint32) waker : 0, text->str);
        return;
      }
}

static gboolean
handle_event (SinkState *st, const bt_message *msg)
{
  ReaderTrace *t = st->trace;
  const bt_event *ev = bt_message_event_borrow_event_const (msg);
  const bt_event_class *ec = bt_event_borrow_class_const (ev);
  const bt_stream *stream = bt_event_borrow_stream_const (ev);
  const bt_trace *trace = bt_stream_borrow_trace_const (stream);
  const char *cname = bt_event_class_get_name (ec);
  g_autofree char *unnamed = NULL;
  if (cname == NULL)
    cname = unnamed = g_strdup_printf ("event %" PRIu64, bt_event_class_get_id (ec));

  if (bt_message_event_borrow_stream_class_default_clock_class_const (msg) == NULL)
    {
      g_set_error (&st->error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
                   _("CTF: the events of stream “%s” have no clock: not supported"),
                   bt_stream_get_name (stream) ? bt_stream_get_name (stream) : "?");
      return FALSE;
    }
  const bt_clock_snapshot *cs = bt_message_event_borrow_default_clock_snapshot_const (msg);
  int64_t ns = 0;
  if (bt_clock_snapshot_get_ns_from_origin (cs, &ns) != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
    {
      bt_current_thread_clear_error ();
      g_set_error (&st->error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("CTF: event %" PRIu64 " (%s): its time in ns from the clock's origin overflows 64 bits"),
                   t->n_sent + t->events->len, cname);
      return FALSE;
    }

  /* track */
  const bt_packet *packet = bt_event_borrow_packet_const (ev);
  const bt_field *pctx = packet ? bt_packet_borrow_context_field_const (packet) : NULL;
  const bt_field *cctx = bt_event_borrow_common_context_field_const (ev);
  guint64 cpu = 0, vtid = 0;
  gboolean has_cpu = field_uint (struct_member (pctx, "cpu_id"), &cpu);
  const char *thread_name = field_string (struct_member (pctx, "name"));
  gboolean has_vtid = field_uint (struct_member (cctx, "vtid"), &vtid);
  const char *procname = field_string (struct_member (cctx, "procname"));
  guint sidx = stream_index (st, stream);
  guint tidx = trace_index (st, trace);
  const char *trace_name = bt_trace_get_name (trace);
  GString *key = st->key, *label = st->scratch;
  gboolean cpu_track = FALSE;
  g_string_truncate (key, 0);
  g_string_truncate (label, 0);
  if (thread_name != NULL)
    {
      /* DPDK: one track per stream file (names repeat) */
      g_string_printf (key, "s%u", sidx);
      g_string_append (label, thread_name);
      if (has_cpu && cpu != 0xFFFFFFFFu)
        g_string_append_printf (label, " lcore %" PRIu64, cpu);
    }
  else if (has_vtid)
    {
      g_string_printf (key, "t%u/%" PRIu64, tidx, vtid);
      if (procname == NULL)
        procname = trace_env_string (trace, "procname");
      if (procname == NULL || !*procname)
        procname = trace_name && *trace_name ? trace_name : "thread";
      g_string_append_printf (label, "%s [%" PRIu64 "]", procname, vtid);
    }
  else if (has_cpu)
    {
      cpu_track = TRUE;
      g_string_printf (key, "c%u/%" PRIu64, tidx, cpu);
      if (st->n_trace_dirs > 1)
        {
          /* several traces: say which (the folder holding the stream) */
          g_autofree char *sname = stream_short_name (stream);
          g_autofree char *tdir = g_path_get_dirname (sname);
          g_string_append_printf (label, "%s CPU %" PRIu64, tdir, cpu);
        }
      else
        g_string_append_printf (label, "CPU %" PRIu64, cpu);
    }
  else
    {
      const char *sname = bt_stream_get_name (stream);
      g_autofree char *base = sname ? g_path_get_basename (sname) : g_strdup_printf ("stream %u", sidx);
      g_string_printf (key, "s%u", sidx);
      g_string_append (label, base);
    }
  if (!g_utf8_validate (label->str, label->len, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (label->str, label->len);
      g_string_assign (label, valid);
    }
  guint track = intern_track (t, key->str, label->str);

  /* text and datum */
  CpelCtfFirstInt first = { FALSE, 0 };
  gsize before = t->text->len;
  const bt_field *payload = bt_event_borrow_payload_field_const (ev);
  if (payload != NULL && bt_field_get_class_type (payload) == BT_FIELD_CLASS_TYPE_STRUCTURE)
    cpel_ctf_payload_append_members (t->text, payload, &first, 0);
  else if (payload != NULL)
    cpel_ctf_payload_append_field (t->text, payload, &first, 0);
  if (t->text_sent + t->text->len > CTF_MAX_TEXT)
    {
      g_set_error (&st->error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                   _("CTF: the events' text exceeds %" PRIu64 " bytes"), CTF_MAX_TEXT);
      return FALSE;
    }
  ReaderEvent e = { ns, track, intern_class (t, cname), (guint32) first.value,
                     (guint32) MIN (t->text->len - before, G_MAXUINT32), before };
  g_array_append_val (t->events, e);
  sched_marks (st, cname, payload, cctx, ns, track, cpu_track, has_cpu, cpu, tidx);
  return TRUE;
}

/* Events a stream discarded, told once the packet they are counted in has
 * ended: CTF's events_discarded is a snapshot, taken when a packet closes,
 * of the events that could not be written, so the loss libbabeltrace2
 * announces before packet k (the count of k less that of k-1) lies after
 * packet k's last event when the ring was full at its end (the usual
 * case), and partly before its first event only when a packet was closed
 * while events were being discarded (LTTng's live or switch timer): told
 * after the packet, a loss is never told before it happened and is late by
 * at most a packet (the LTTng live tests check both against the writer's
 * sequence numbers; babeltrace2's own place is a packet early in the usual
 * case). */
typedef struct
{
  guint64  count;
  gboolean known;
  char    *stream_name;
} HeldDiscard;

static void
held_discard_free (gpointer p)
{
  HeldDiscard *h = p;
  g_free (h->stream_name);
  g_free (h);
}

static gint
held_discard_cmp (gconstpointer a, gconstpointer b)
{
  return strcmp (((const HeldDiscard *) a)->stream_name, ((const HeldDiscard *) b)->stream_name);
}

/* Sends a discarded range: its note, and live, the counts so far right
 * after the events before it. */
static void
tell_discarded (SinkState *st, const char *sname, gboolean packets, gboolean known,
                guint64 count)
{
  if (live_mode)
    flush_events (st->trace, TRUE);
  if (known && packets)
    st->trace->discarded_packets += count;
  else if (known)
    st->trace->discarded_events += count;
  char *note;
  if (known)
    note = g_strdup_printf (packets ? _("%s: %" PRIu64 " packets discarded")
                                    : _("%s: %" PRIu64 " events discarded"),
                            sname, count);
  else
    note = g_strdup_printf (packets ? _("%s: packets discarded (how many is not known)")
                                    : _("%s: events discarded (how many is not known)"),
                            sname);
  send_record ('N', note, MIN (strlen (note), CPEL_CTF_WIRE_MAX_NAME));
  g_free (note);
  if (live_mode)
    {
      guint64 discarded[2] = { st->trace->discarded_events, st->trace->discarded_packets };
      send_record ('X', discarded, sizeof discarded);
    }
}

static void
note_discarded (SinkState *st, const bt_message *msg, gboolean packets)
{
  guint64 count = 0;
  gboolean known;
  const bt_stream *stream;
  if (packets)
    {
      known = bt_message_discarded_packets_get_count (msg, &count) == BT_PROPERTY_AVAILABILITY_AVAILABLE;
      stream = bt_message_discarded_packets_borrow_stream_const (msg);
      g_autofree char *sname = stream_short_name (stream);
      tell_discarded (st, sname, TRUE, known, count);
      return;
    }
  known = bt_message_discarded_events_get_count (msg, &count) == BT_PROPERTY_AVAILABILITY_AVAILABLE;
  stream = bt_message_discarded_events_borrow_stream_const (msg);
  HeldDiscard *h = g_hash_table_lookup (st->held, stream);
  if (h == NULL)
    {
      h = g_new0 (HeldDiscard, 1);
      h->known = TRUE;
      h->stream_name = stream_short_name (stream);
      g_hash_table_insert (st->held, (gpointer) stream, h);
    }
  h->count += known ? count : 0;
  h->known = h->known && known;
}

/* The packet of `stream` ended (or the stream did): its held loss told. */
static void
release_discarded (SinkState *st, const bt_stream *stream)
{
  HeldDiscard *h = g_hash_table_lookup (st->held, stream);
  if (h == NULL)
    return;
  tell_discarded (st, h->stream_name, FALSE, h->known, h->count);
  g_hash_table_remove (st->held, stream);
}

static void
send_clock (ReaderTrace *t)
{
  gsize len = MIN (strlen (t->clock_name), CPEL_CTF_WIRE_MAX_NAME);
  g_autofree guint8 *rec = g_malloc (12 + len);
  guint32 unix_epoch = t->clock_unix ? 1 : 0;
  memcpy (rec, &t->clock_freq, 8);
  memcpy (rec + 8, &unix_epoch, 4);
  memcpy (rec + 12, t->clock_name, len);
  send_record ('K', rec, 12 + len);
}

static void
note_clock (SinkState *st, const bt_stream *stream)
{
  if (st->trace->clock_name != NULL)
    return;
  const bt_stream_class *sc = bt_stream_borrow_class_const (stream);
  const bt_clock_class *cc = bt_stream_class_borrow_default_clock_class_const (sc);
  if (cc == NULL)
    return;
  const char *name = bt_clock_class_get_name (cc);
  st->trace->clock_name = g_strdup (name ? name : "");
  st->trace->clock_freq = bt_clock_class_get_frequency (cc);
  st->trace->clock_unix = bt_clock_class_origin_is_unix_epoch (cc);
  /* live: said now (a session has no end to say it at) */
  if (live_mode)
    send_clock (st->trace);
}

static guint64
file_size (const char *path)
{
  GStatBuf sb;
  if (path != NULL && g_stat (path, &sb) == 0 && S_ISREG (sb.st_mode))
    return (guint64) sb.st_size;
  return 0;
}

static bt_graph_simple_sink_component_consume_func_status
sink_consume (bt_message_iterator *it, void *data)
{
  SinkState *st = data;
  bt_message_array_const msgs;
  uint64_t count = 0;
  gboolean failed = FALSE;

  switch (bt_message_iterator_next (it, &msgs, &count))
    {
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_ERROR:
      return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
    default:
      break;
    }
  for (uint64_t i = 0; i < count; i++)
    {
      const bt_message *msg = msgs[i];
      if (!failed)
        switch (bt_message_get_type (msg))
          {
          case BT_MESSAGE_TYPE_EVENT:
            if (!handle_event (st, msg))
              failed = TRUE;
            break;
          case BT_MESSAGE_TYPE_STREAM_BEGINNING:
            {
              const bt_stream *s = bt_message_stream_beginning_borrow_stream_const (msg);
              stream_index (st, s);
              note_clock (st, s);
            }
            break;
          case BT_MESSAGE_TYPE_PACKET_END:
            release_discarded (st, bt_packet_borrow_stream_const (
                                     bt_message_packet_end_borrow_packet_const (msg)));
            break;
          case BT_MESSAGE_TYPE_STREAM_END:
            {
              /* its pointer may be reused by a later stream */
              const bt_stream *s = bt_message_stream_end_borrow_stream_const (msg);
              release_discarded (st, s);
              g_hash_table_remove (st->streams, s);
              if (!g_hash_table_remove (st->sized, s))
                st->bytes_seen += file_size (bt_stream_get_name (s));
              report_progress (st);
            }
            break;
          case BT_MESSAGE_TYPE_PACKET_BEGINNING:
            {
              const bt_packet *p = bt_message_packet_beginning_borrow_packet_const (msg);
              const bt_field *ctx = bt_packet_borrow_context_field_const (p);
              guint64 bits = 0;
              /* streams whose packets have no size count at their end */
              if (field_uint (struct_member (ctx, "packet_size"), &bits))
                {
                  st->bytes_seen += bits / 8;
                  g_hash_table_add (st->sized, (gpointer) bt_packet_borrow_stream_const (p));
                }
              report_progress (st);
            }
            break;
          case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
            note_discarded (st, msg, FALSE);
            break;
          case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
            note_discarded (st, msg, TRUE);
            break;
          default:
            break;
          }
      bt_message_put_ref (msg);
    }
  if (failed)
    return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
  flush_events (st->trace, FALSE);
  return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* Three causes of libbabeltrace2's current error; in *clock_cause (when not
 * NULL) the root cause when it is the muxer's about clock classes. */
static char *
take_bt_error_full (char **clock_cause)
{
  const bt_error *err = bt_current_thread_take_error ();
  if (err == NULL)
    return g_strdup (_("libbabeltrace2 failed without saying why"));
  g_autoptr(GString) s = g_string_new (NULL);
  guint64 n = bt_error_get_cause_count (err);
  for (guint64 i = 0; clock_cause != NULL && *clock_cause == NULL && i < n; i++)
    {
      const char *m = bt_error_cause_get_message (bt_error_borrow_cause_by_index (err, i));
      /* 2.0.4's muxer says this on clock classes it cannot compare */
      if (m != NULL && (strstr (m, "clock class") != NULL
                        || strstr (m, "youngest upstream message iterator") != NULL))
        *clock_cause = g_utf8_make_valid (m, MIN (strlen (m), 300));
    }
  /* cause 0 is the most recent (outermost); the last is the root cause */
  for (guint64 i = n; i > 0 && i > n - MIN (n, 3); i--)
    {
      const bt_error_cause *c = bt_error_borrow_cause_by_index (err, i - 1);
      const char *m = bt_error_cause_get_message (c);
      if (m == NULL || !*m)
        continue;
      /* the graph's own wrapper ("Component initialization method failed:
       * status=ERROR, comp-addr=0x…, …") says nothing to a user */
      if (strstr (m, "comp-addr=") != NULL && n > 1)
        continue;
      if (s->len)
        g_string_append (s, "; ");
      g_string_append (s, m);
    }
  bt_error_release (err);
  if (!g_utf8_validate (s->str, s->len, NULL))
    return g_utf8_make_valid (s->str, s->len);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
take_bt_error (void)
{
  return take_bt_error_full (NULL);
}

/* The first causes libbabeltrace2 recorded (index 0 is the first one: the
 * root cause, e.g. "Connection failed: Connection refused"), without the
 * library's own wrappers. */
static char *
take_bt_root_cause (void)
{
  const bt_error *err = bt_current_thread_take_error ();
  if (err == NULL)
    return g_strdup (_("libbabeltrace2 failed without saying why"));
  g_autoptr(GString) s = g_string_new (NULL);
  guint64 n = bt_error_get_cause_count (err);
  for (guint64 i = 0, used = 0; i < n && used < 2; i++)
    {
      const char *m = bt_error_cause_get_message (bt_error_borrow_cause_by_index (err, i));
      if (m == NULL || !*m || strstr (m, "-addr=") != NULL)
        continue;
      g_string_append_printf (s, "%s%s", s->len ? "; " : "", m);
      used++;
    }
  bt_error_release (err);
  return g_utf8_make_valid (s->str, (gssize) s->len);
}

/* The plugins, loaded once for the process (loading them scans the plugin
 * folder; they are never unloaded). */
static gboolean
find_plugins (const bt_plugin **ctf, const bt_plugin **utils)
{
  static gsize once = 0;
  static const bt_plugin *plugins[2];
  if (g_once_init_enter (&once))
    {
      if (bt_plugin_find ("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &plugins[0]) != BT_PLUGIN_FIND_STATUS_OK
          || bt_plugin_find ("utils", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &plugins[1]) != BT_PLUGIN_FIND_STATUS_OK)
        bt_current_thread_clear_error ();
      g_once_init_leave (&once, 1);
    }
  *ctf = plugins[0];
  *utils = plugins[1];
  return plugins[0] != NULL && plugins[1] != NULL;
}

static guint64
trace_dir_bytes (const char *dir)
{
  guint64 total = 0;
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      if (strcmp (name, "metadata") == 0)
        continue;
      g_autofree char *p = g_build_filename (dir, name, NULL);
      total += file_size (p);
    }
  return total;
}

/* ---- the program ------------------------------------------------------------ */

/* Live: asks the relay daemon of `url` (net://HOST[:PORT]/host/HOSTNAME/
 * SESSION) which sessions it serves, so that a relay daemon that cannot
 * be reached or a session that is not there is said in words a user
 * reads (the graph's own error is a muxer's iterator that failed). */
static gboolean
check_live_session (const bt_component_class_source *cls, const char *url, GError **error)
{
  const char *host = strstr (url, "://");
  const char *path = host != NULL ? strstr (host + 3, "/host/") : NULL;
  if (path == NULL)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("“%s” is not an LTTng live URL (net://HOST/host/HOSTNAME/SESSION)"), url);
      return FALSE;
    }
  g_autofree char *relay = g_strndup (url, (gsize) (path - url));
  bt_value *params = bt_value_map_create ();
  bt_value_map_insert_string_entry (params, "url", relay);
  bt_query_executor *q =
    bt_query_executor_create (bt_component_class_source_as_component_class_const (cls),
                              "sessions", params);
  bt_value_put_ref (params);
  const bt_value *result = NULL;
  bt_query_executor_query_status qs = BT_QUERY_EXECUTOR_QUERY_STATUS_ERROR;
  for (guint tries = 0; q != NULL && tries < 100; tries++)
    {
      qs = bt_query_executor_query (q, &result);
      if (qs != BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN)
        break;
      g_usleep (CTF_LIVE_RETRY_US);
    }
  bt_query_executor_put_ref (q);
  if (qs != BT_QUERY_EXECUTOR_QUERY_STATUS_OK || result == NULL
      || bt_value_get_type (result) != BT_VALUE_TYPE_ARRAY)
    {
      g_autofree char *why = take_bt_root_cause ();
      bt_value_put_ref (result);
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO,
                   _("The LTTng relay daemon at %s cannot be reached: %s"), relay, why);
      return FALSE;
    }
  g_autoptr(GString) known = g_string_new (NULL);
  gboolean found = FALSE;
  for (guint64 i = 0; i < bt_value_array_get_length (result); i++)
    {
      const bt_value *m = bt_value_array_borrow_element_by_index_const (result, i);
      const bt_value *u = bt_value_get_type (m) == BT_VALUE_TYPE_MAP
                          ? bt_value_map_borrow_entry_value_const (m, "url") : NULL;
      if (u == NULL || bt_value_get_type (u) != BT_VALUE_TYPE_STRING)
        continue;
      if (strcmp (bt_value_string_get (u), url) == 0)
        found = TRUE;
      if (known->len < 2048)
        g_string_append_printf (known, "%s%s", known->len ? ", " : "", bt_value_string_get (u));
    }
  bt_value_put_ref (result);
  if (!found)
    {
      if (known->len == 0)
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO,
                     _("No LTTng live session %s: the relay daemon at %s serves none "
                       "(create one with “lttng create --live”)"), url, relay);
      else
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO,
                     _("No LTTng live session %s: the relay daemon serves %s"), url, known->str);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_traces (char **dirs, guint n_dirs, ReaderTrace *self, GError **error)
{
  const bt_plugin *ctf = NULL, *utils = NULL;
  if (!find_plugins (&ctf, &utils))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO,
                   _("CTF: libbabeltrace2's “ctf” and “utils” plugins are not installed (Debian: libbabeltrace2-0)"));
      return FALSE;
    }
  /* alive: loading the plugins took a while */
  flush_events (self, FALSE);
  if (live_mode
      && !check_live_session (
           bt_plugin_borrow_source_component_class_by_name_const (ctf, "lttng-live"), dirs[0],
           error))
    return FALSE;
  /* live: one LTTng live URL, read through lttng-relayd */
  const bt_component_class_source *fs_cls =
    bt_plugin_borrow_source_component_class_by_name_const (ctf, live_mode ? "lttng-live" : "fs");
  const bt_component_class_filter *mux_cls = bt_plugin_borrow_filter_component_class_by_name_const (utils, "muxer");

  SinkState st = { 0 };
  st.trace = self;
  st.streams = g_hash_table_new (NULL, NULL);
  st.trace_index = g_hash_table_new (NULL, NULL);
  st.sized = g_hash_table_new (NULL, NULL);
  st.held = g_hash_table_new_full (NULL, NULL, NULL, held_discard_free);
  st.scratch = g_string_new (NULL);
  st.key = g_string_new (NULL);
  st.n_trace_dirs = n_dirs;
  for (guint i = 0; !live_mode && i < n_dirs; i++)
    st.bytes_total += trace_dir_bytes (dirs[i]);

  bt_graph *graph = bt_graph_create (0);
  gboolean ok = graph != NULL && fs_cls != NULL && mux_cls != NULL;
  const bt_component_filter *mux = NULL;
  const bt_component_sink *sink = NULL;
  GError *local = NULL;

  if (ok && (bt_graph_add_filter_component (graph, mux_cls, "muxer", NULL, BT_LOGGING_LEVEL_NONE, &mux)
             != BT_GRAPH_ADD_COMPONENT_STATUS_OK
             || bt_graph_add_simple_sink_component (graph, "cpel", NULL, sink_consume, NULL, &st, &sink)
                != BT_GRAPH_ADD_COMPONENT_STATUS_OK))
    {
      g_autofree char *why = take_bt_error ();
      local = g_error_new (CPEL_ERROR, CPEL_ERROR_IO, _("CTF: libbabeltrace2 graph: %s"), why);
      ok = FALSE;
    }
  for (guint i = 0; ok && i < n_dirs; i++)
    {
      const char *dir = dirs[i];
      bt_value *params = bt_value_map_create ();
      bt_value *inputs = NULL;
      bt_value_map_insert_empty_array_entry (params, "inputs", &inputs);
      bt_value_array_append_string_element (inputs, dir);
      /* a session that is not there is an error, not a wait without end */
      if (live_mode)
        bt_value_map_insert_string_entry (params, "session-not-found-action", "fail");
      g_autofree char *cname = g_strdup_printf ("src%u", i);
      const bt_component_source *src = NULL;
      bt_graph_add_component_status rc =
        bt_graph_add_source_component (graph, fs_cls, cname, params, BT_LOGGING_LEVEL_NONE, &src);
      bt_value_put_ref (params);
      if (rc != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
        {
          g_autofree char *why = take_bt_error ();
          local = live_mode
            ? g_error_new (CPEL_ERROR, CPEL_ERROR_IO,
                           _("LTTng live session %s cannot be read: %s"), dir, why)
            : g_error_new (CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                           _("CTF trace %s cannot be read: %s"), dir, why);
          ok = FALSE;
          break;
        }
      guint64 n_out = bt_component_source_get_output_port_count (src);
      for (guint64 p = 0; ok && p < n_out; p++)
        {
          const bt_port_output *out = bt_component_source_borrow_output_port_by_index_const (src, p);
          guint64 n_in = bt_component_filter_get_input_port_count (mux);
          const bt_port_input *in = bt_component_filter_borrow_input_port_by_index_const (mux, n_in - 1);
          if (bt_graph_connect_ports (graph, out, in, NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
            {
              g_autofree char *why = take_bt_error ();
              local = g_error_new (CPEL_ERROR, CPEL_ERROR_IO, _("CTF: libbabeltrace2 graph: %s"), why);
              ok = FALSE;
            }
        }
      flush_events (self, FALSE);
    }
  if (ok)
    {
      const bt_port_output *out = bt_component_filter_borrow_output_port_by_index_const (mux, 0);
      const bt_port_input *in = bt_component_sink_borrow_input_port_by_index_const (sink, 0);
      if (bt_graph_connect_ports (graph, out, in, NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
        {
          g_autofree char *why = take_bt_error ();
          local = g_error_new (CPEL_ERROR, CPEL_ERROR_IO, _("CTF: libbabeltrace2 graph: %s"), why);
          ok = FALSE;
        }
    }
  gboolean attached = FALSE;
  while (ok)
    {
      bt_graph_run_status rs = bt_graph_run (graph);
      /* live: the first run attached the session (its iterator is made) */
      if (live_mode && !attached
          && (rs == BT_GRAPH_RUN_STATUS_OK || rs == BT_GRAPH_RUN_STATUS_AGAIN))
        {
          attached = TRUE;
          flush_events (self, TRUE);
          send_record ('A', NULL, 0);
          out_flush ();
        }
      if (rs == BT_GRAPH_RUN_STATUS_OK)
        break;
      if (rs == BT_GRAPH_RUN_STATUS_AGAIN)
        {
          /* live: the relay daemon has nothing new yet */
          if (live_mode)
            {
              flush_events (self, FALSE);
              g_usleep (CTF_LIVE_RETRY_US);
            }
          continue;
        }
      ok = FALSE;
      if (st.error != NULL)
        {
          bt_current_thread_clear_error ();
          local = g_steal_pointer (&st.error);
        }
      else
        {
          g_autofree char *clock_cause = NULL;
          g_autofree char *why = take_bt_error_full (&clock_cause);
          if (n_dirs > 1 && clock_cause != NULL)
            /* the muxer cannot order events of unrelated clocks: the
             * library's own words as the detail, not its whole stack */
            local = g_error_new (CPEL_ERROR, CPEL_ERROR_INVALID,
                                 _("%u traces with unrelated clocks: open one of them "
                                   "(libbabeltrace2: %s)"), n_dirs, clock_cause);
          else
            local = g_error_new (CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                                 _("CTF: reading the trace failed: %s"), why);
        }
    }

  /* a loss held for a packet that never ended (a trace cut short) */
  if (ok)
    {
      g_autoptr(GList) held = g_hash_table_get_values (st.held);
      held = g_list_sort (held, held_discard_cmp);
      for (GList *l = held; l != NULL; l = l->next)
        {
          HeldDiscard *h = l->data;
          tell_discarded (&st, h->stream_name, FALSE, h->known, h->count);
        }
    }
  g_hash_table_unref (st.held);
  bt_graph_put_ref (graph);
  g_hash_table_unref (st.streams);
  g_hash_table_unref (st.trace_index);
  g_hash_table_unref (st.sized);
  g_string_free (st.scratch, TRUE);
  g_string_free (st.key, TRUE);
  g_clear_error (&st.error);
  if (!ok)
    {
      if (local == NULL)
        local = g_error_new (CPEL_ERROR, CPEL_ERROR_IO, _("CTF: libbabeltrace2 is missing a component"));
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  signal (SIGPIPE, SIG_IGN);

  out_buf = g_byte_array_new ();
  g_byte_array_append (out_buf, (const guint8 *) CPEL_CTF_WIRE_MAGIC, 8);
  if (argc == 3 && strcmp (argv[1], "--live") == 0)
    {
      live_mode = TRUE;
      argv++;
      argc--;
    }
  if (argc < 2 || (argc == 2 && strcmp (argv[1], "--live") == 0))
    {
      send_failure (CPEL_ERROR_INVALID,
                    "usage: cpel-ctf-reader TRACE-FOLDER… | cpel-ctf-reader --live URL");
      return 2;
    }

  ReaderTrace t = { 0 };
  t.events = g_array_new (FALSE, FALSE, sizeof (ReaderEvent));
  t.text = g_string_new (NULL);
  t.track_labels = g_ptr_array_new_with_free_func (g_free);
  t.track_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  t.class_names = g_ptr_array_new_with_free_func (g_free);
  t.class_index = g_hash_table_new (g_str_hash, g_str_equal);
  t.last_send = g_get_monotonic_time ();
  out_flush ();

  g_autoptr(GError) error = NULL;
  if (!read_traces (argv + 1, (guint) (argc - 1), &t, &error))
    {
      send_failure (error->domain == CPEL_ERROR ? (CpelErrorCode) error->code
                                                : CPEL_ERROR_SOURCE_DAMAGED,
                    error->message);
      return 0;
    }
  flush_events (&t, TRUE);
  if (t.clock_name != NULL && !live_mode)
    send_clock (&t);
  guint64 discarded[2] = { t.discarded_events, t.discarded_packets };
  send_record ('X', discarded, sizeof discarded);
  send_record ('Z', NULL, 0);
  out_flush ();
  return 0;
}
