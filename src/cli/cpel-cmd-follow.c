/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cmd-follow.c — `cpel dump --follow`: events as they are written
 *
 * Like `tail -f`: the source is read every POLL_MS from a GLib main loop;
 * what is new is printed as `dump` prints it and stdout flushed.  A gap
 * (entries the writer overwrote before they were read) is a line on stderr,
 * "lost at least N events"; a new ring or a rewritten file is said there
 * too.  SIGINT and SIGTERM end it with status 0, and so does the source's
 * removal (a Snabb ring is unlinked when Snabb exits).
 *
 * Sources: a Snabb timeline ring (a file, or `snabb:PID`: the ring of that
 * process under $SNABB_SHM_ROOT or /var/run/snabb), or a CPEL file that
 * grows (sections appended).  Standard input (`-`) is a CPEL stream or a
 * perf pipe-mode stream (`perf record -o - … | cpel dump --follow -`), told
 * apart by its first bytes: its samples are printed as they come (in the
 * order perf writes them), LOST records as "lost N events" on stderr.
 */
#include "cpel-cli.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <poll.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "cpel-follow.h"
#include "cpel-live-capture.h"
#include "cpel-snabb-follow.h"
#if HAVE_PERF
#include "cpel-perf-data.h"
#endif

#define POLL_MS        20
#define BATCH          4096
#define BATCHES_MAX    64      /* per tick: then stdout is flushed and the loop runs */
#define TRACK_PAD_MAX  28
#define STDIN_READ_MAX (4 << 20)    /* bytes read from standard input per tick */
#define PERF_HEADER_MAX (256 << 20) /* a perf stream's header records (tracing formats) */

/* What every line of a message shares, escaped once for the output format. */
typedef struct
{
  char    *tsv_mid;     /* "\tTRACK\tLABEL\tCODE\tEVENT\t" */
  char    *label;       /* text lines: the track label */
  guint    label_width;
  char    *name;        /* text lines: the event */
  char    *arg_eq[CPEL_SNABB_MAX_ARGS];   /* "NAME=" */
  guint    n_args;
} SnabbType;

static void
snabb_type_free (SnabbType *t)
{
  g_free (t->tsv_mid);
  g_free (t->label);
  g_free (t->name);
  for (guint k = 0; k < t->n_args; k++)
    g_free (t->arg_eq[k]);
  g_free (t);
}

typedef struct
{
  const char        *source;
  gboolean           tsv;
  guint64            clock_rate;
  GMainLoop         *loop;
  int                status;
  GString           *out;
  guint              track_width;
  guint              timeout_id;

  /* Snabb */
  CpelSnabbFollower *snabb;
  CpelSnabbEntry    *entries;
  GHashTable        *track_ids;     /* label -> id + 1 */
  SnabbType        **types;         /* by message id, made when first seen */
  gboolean           have_t0;
  double             tsc0;
  GString           *text;

  /* CPEL */
  CpelFollower  *cpel;

  /* standard input, until its first bytes say what it is */
  gboolean       sniffing;
  GByteArray    *inbuf;
  gboolean       in_eof;

#if HAVE_PERF
  /* a perf pipe-mode stream */
  gboolean       perf;
  CpelPerfData  *pd;
  guint64        perf_offset;      /* stream offset of inbuf's first byte */
  gboolean       have_perf_t0;
  guint64        perf_t0;
  GHashTable    *comms;            /* tid -> comm */
  GHashTable    *perf_tracks;      /* label -> id + 1 */
  GString       *perf_text;
#endif
} Follow;

static void
put_line (Follow     *f,
          gint64      time,
          guint32     track,
          const char *track_label,
          guint32     code,
          const char *event,
          const char *datum)
{
  if (f->tsv)
    {
      g_string_append_printf (f->out, "%" PRId64 "\t%u\t", time, track);
      cpel_cli_escape_append (f->out, track_label, strlen (track_label));
      g_string_append_printf (f->out, "\t%u\t", code);
      cpel_cli_escape_append (f->out, event, strlen (event));
      g_string_append_c (f->out, '\t');
      cpel_cli_escape_append (f->out, datum, strlen (datum));
      g_string_append_c (f->out, '\n');
    }
  else
    {
      char buf[64];
      g_autofree char *label = cpel_cli_escape (track_label);
      g_autofree char *name = cpel_cli_escape (event);
      g_autofree char *text = cpel_cli_escape (datum);
      guint width = (guint) g_utf8_strlen (label, -1);

      gboolean ticks = f->clock_rate == 0 && f->cpel == NULL;
#if HAVE_PERF
      ticks = ticks && !f->perf;
#endif

      /* one unit for the whole run: seconds, or plain ticks */
      cpel_time_format_exact_to (time, ticks ? 1 : 1000000000,
                                 ticks ? CPEL_TIME_KIND_TICKS : CPEL_TIME_KIND_NS,
                                 buf, sizeof buf);
      if (width > f->track_width)
        f->track_width = MIN (width, TRACK_PAD_MAX);
      g_string_append_printf (f->out, "%14s  %s%*s  %s%s%s\n", buf, label,
                              width < f->track_width ? (int) (f->track_width - width) : 0, "",
                              name, *text ? ": " : "", text);
    }
}

static gboolean
flush_out (Follow *f)
{
  if (f->out->len > 0)
    {
      if (fwrite (f->out->str, 1, f->out->len, stdout) != f->out->len)
        return FALSE;
      g_string_truncate (f->out, 0);
    }
  return fflush (stdout) == 0;
}

static void
say (Follow     *f,
     const char *message)
{
  /* what came before it first, so that the gap is where it belongs */
  flush_out (f);
  g_printerr ("cpel: %s\n", message);
}

/* ---- Snabb ---- */

static char *
escape_mode (const char *s,
             gboolean    tsv)
{
  GString *out;

  if (!tsv)
    return cpel_cli_escape (s);
  out = g_string_new (NULL);
  cpel_cli_escape_append (out, s, strlen (s));
  return g_string_free (out, FALSE);
}

static void
snabb_types_clear (Follow *f)
{
  for (guint id = 0; id <= G_MAXUINT16; id++)
    g_clear_pointer (&f->types[id], snabb_type_free);
}

static SnabbType *
snabb_type (Follow  *f,
            guint16  msgid)
{
  const CpelSnabbMessage *m;
  const char *label;
  g_autofree char *unknown = NULL, *esc_label = NULL, *esc_name = NULL;
  SnabbType *t = f->types[msgid];
  gpointer id;

  if (t != NULL)
    return t;
  m = cpel_snabb_follower_message (f->snabb, msgid);
  label = m != NULL ? m->track : _("unknown");
  if (m == NULL)
    unknown = g_strdup_printf (_("message %u"), msgid);
  id = g_hash_table_lookup (f->track_ids, label);
  if (id == NULL)
    {
      id = GUINT_TO_POINTER (g_hash_table_size (f->track_ids) + 1);
      g_hash_table_insert (f->track_ids, g_strdup (label), id);
    }
  t = g_new0 (SnabbType, 1);
  esc_label = escape_mode (label, f->tsv);
  esc_name = escape_mode (m != NULL ? m->name : unknown, f->tsv);
  t->tsv_mid = g_strdup_printf ("\t%u\t%s\t%u\t%s\t", GPOINTER_TO_UINT (id) - 1, esc_label,
                                msgid, esc_name);
  t->label_width = (guint) g_utf8_strlen (esc_label, -1);
  t->label = g_steal_pointer (&esc_label);
  t->name = g_steal_pointer (&esc_name);
  if (m != NULL)
    for (guint k = 0; k < m->n_args; k++)
      {
        g_autofree char *eq = g_strconcat (m->arg_names[k], "=", NULL);

        t->arg_eq[t->n_args++] = escape_mode (eq, f->tsv);
      }
  if (m != NULL)
    f->types[msgid] = t;   /* a message not (yet) in the table is looked up again */
  return t;
}

/* One entry's line; what its message shares is made once (snabb_type). */
static void
snabb_entry (Follow               *f,
             const CpelSnabbEntry *e)
{
  SnabbType *t = snabb_type (f, e->msgid);
  double d;
  gint64 time;

  if (!f->have_t0)
    {
      f->tsc0 = e->tsc;
      f->have_t0 = TRUE;
    }
  d = e->tsc - f->tsc0;
  if (f->clock_rate)
    d = d * 1e9 / (double) f->clock_rate;
  time = (gint64) d;

  /* the text: NAME=value …, numbers need no escaping */
  g_string_truncate (f->text, 0);
  for (guint k = 0; k < t->n_args; k++)
    {
      if (k > 0)
        g_string_append_c (f->text, ' ');
      g_string_append (f->text, t->arg_eq[k]);
      cpel_snabb_append_number (f->text, e->args[k]);
    }
  if (f->tsv)
    {
      g_string_append_printf (f->out, "%" PRId64, time);
      g_string_append (f->out, t->tsv_mid);
      g_string_append_len (f->out, f->text->str, f->text->len);
      g_string_append_c (f->out, '\n');
    }
  else
    {
      char buf[64];

      cpel_time_format_exact_to (time, f->clock_rate ? 1000000000 : 1,
                                 f->clock_rate ? CPEL_TIME_KIND_NS : CPEL_TIME_KIND_TICKS,
                                 buf, sizeof buf);
      if (t->label_width > f->track_width)
        f->track_width = MIN (t->label_width, TRACK_PAD_MAX);
      g_string_append_printf (f->out, "%14s  %s%*s  %s%s%s\n", buf, t->label,
                              t->label_width < f->track_width
                              ? (int) (f->track_width - t->label_width) : 0, "",
                              t->name, f->text->len ? ": " : "", f->text->str);
    }
  if (f->types[e->msgid] != t)
    snabb_type_free (t);
}

static gboolean
snabb_tick (Follow *f)
{
  for (guint b = 0; b < BATCHES_MAX; b++)
    {
      CpelSnabbPollInfo info;
      gsize n = cpel_snabb_follower_poll (f->snabb, f->entries, BATCH, &info);

      if (info.new_ring)
        {
          say (f, _("new ring: the writer started again"));
          f->have_t0 = FALSE;
          snabb_types_clear (f);   /* its messages may be others */
        }
      if (info.lost > 0)
        {
          g_autofree char *s = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "lost at least %" PRIu64
                                                             " event",
                                                             "lost at least %" PRIu64
                                                             " events", info.lost), info.lost);
          say (f, s);
        }
      for (gsize i = 0; i < n; i++)
        snabb_entry (f, &f->entries[i]);
      if (info.gone)
        {
          say (f, _("the ring file was removed: the writer has exited"));
          return FALSE;
        }
      if (n < BATCH)
        break;
    }
  return TRUE;
}

/* ---- CPEL ---- */

static gboolean
cpel_tick (Follow *f)
{
  for (guint b = 0; b < BATCHES_MAX; b++)
    {
      CpelFollowInfo info;
      g_autoptr(GError) error = NULL;
      gsize n = cpel_follower_poll (f->cpel, BATCH, &info, &error);

      if (error != NULL)
        {
          flush_out (f);
          cpel_cli_file_error (f->source, error);
          f->status = CPEL_EXIT_INVALID;
          return FALSE;
        }
      if (info.rewritten)
        say (f, _("the file was rewritten: reading it again from the start"));
      for (gsize i = 0; i < n; i++)
        {
          const CpelFollowEvent *ev = cpel_follower_event (f->cpel, i);

          put_line (f, ev->time_ns, ev->track_id, ev->track_label, ev->code, ev->name,
                    ev->datum);
        }
      if (info.gone)
        {
          if (strcmp (f->source, "-") != 0)
            say (f, _("the file was removed"));
          return FALSE;   /* standard input ended: like cat, silently */
        }
      if (n < BATCH)
        break;
    }
  return TRUE;
}

/* ---- standard input ---- */

/* Reads what standard input has now, without waiting (at most
 * STDIN_READ_MAX bytes). */
static gboolean
stdin_fill (Follow *f)
{
  gsize got = 0;

  while (!f->in_eof && got < STDIN_READ_MAX)
    {
      struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
      guint8 chunk[65536];
      gssize r;

      if (poll (&pfd, 1, 0) <= 0)
        break;
      r = read (STDIN_FILENO, chunk, sizeof chunk);
      if (r < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (r < 0)
        {
          flush_out (f);
          g_printerr ("cpel: -: %s\n", g_strerror (errno));
          f->status = CPEL_EXIT_INVALID;
          return FALSE;
        }
      if (r == 0)
        f->in_eof = TRUE;
      g_byte_array_append (f->inbuf, chunk, (guint) r);
      got += (gsize) r;
    }
  return TRUE;
}

#if HAVE_PERF
static void
say_lost (Follow *f, guint64 n)
{
  g_autofree char *num = g_strdup_printf ("%" PRIu64, n);
  g_autofree char *s = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "lost %s event",
                                                     "lost %s events", n), num);
  say (f, s);
}

static gboolean
perf_record (const CpelPerfRecord *r, gpointer data, GError **error)
{
  Follow *f = data;

  switch (r->type)
    {
    case CPEL_PERF_RECORD_COMM:
      g_hash_table_insert (f->comms, GUINT_TO_POINTER (r->tid), g_strdup (r->comm));
      return TRUE;
    case CPEL_PERF_RECORD_LOST:
    case CPEL_PERF_RECORD_LOST_SAMPLES:
      say_lost (f, r->lost);
      return TRUE;
    case CPEL_PERF_RECORD_SAMPLE:
      break;
    default:
      return TRUE;
    }

  gboolean tp = cpel_perf_data_attr_is_tracepoint (f->pd, r->attr);
  g_autofree char *label = NULL;
  if (tp && r->has_cpu)
    label = g_strdup_printf (_("CPU %u"), r->cpu);
  else
    {
      const char *comm = g_hash_table_lookup (f->comms, GUINT_TO_POINTER (r->tid));
      label = g_strdup_printf ("%s [%u]", comm != NULL ? comm : ":", r->tid);
    }
  gpointer id = g_hash_table_lookup (f->perf_tracks, label);
  if (id == NULL)
    {
      id = GUINT_TO_POINTER (g_hash_table_size (f->perf_tracks) + 1);
      g_hash_table_insert (f->perf_tracks, g_strdup (label), id);
    }
  g_string_truncate (f->perf_text, 0);
  if (tp)
    {
      if (!cpel_perf_data_format_tracepoint (f->pd, r->attr, r->raw, r->raw_size, f->perf_text,
                                             NULL, error))
        return FALSE;
    }
  else
    g_string_append_printf (f->perf_text, "%u/%u %" PRIx64, r->pid, r->tid, r->ip);
  if (!f->have_perf_t0 && r->has_time)
    {
      f->perf_t0 = r->time;
      f->have_perf_t0 = TRUE;
    }
  gint64 time = r->has_time ? (gint64) (r->time - f->perf_t0) : 0;
  put_line (f, time, GPOINTER_TO_UINT (id) - 1, label, r->attr,
            cpel_perf_data_get_attr_name (f->pd, r->attr), f->perf_text->str);
  return TRUE;
}

static gboolean
perf_error (Follow *f, GError *error)
{
  flush_out (f);
  cpel_cli_file_error ("-", error);
  f->status = CPEL_EXIT_INVALID;
  return FALSE;
}

static gboolean
perf_tick (Follow *f)
{
  g_autoptr(GError) error = NULL;

  if (f->pd == NULL)
    {
      gssize hl = cpel_perf_data_pipe_header_len (f->inbuf->data, f->inbuf->len,
                                                  PERF_HEADER_MAX);
      if (hl < 0)
        {
          g_set_error (&error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: the stream's header records are damaged or larger "
                         "than %d MiB"), PERF_HEADER_MAX >> 20);
          return perf_error (f, error);
        }
      if (hl == 0)
        {
          if (!f->in_eof)
            return TRUE;
          hl = (gssize) f->inbuf->len;   /* ended in its header: say what is wrong */
        }
      g_autoptr(GBytes) head = g_bytes_new (f->inbuf->data, (gsize) hl);
      f->pd = cpel_perf_data_new (head, &error);
      if (f->pd == NULL)
        return perf_error (f, error);
      g_byte_array_remove_range (f->inbuf, 0, (guint) hl);
      f->perf_offset = (guint64) hl;
    }

  gsize used = 0;
  if (!cpel_perf_data_read_stream (f->pd, f->inbuf->data, f->inbuf->len, f->perf_offset,
                                   perf_record, f, &used, &error))
    return perf_error (f, error);
  g_byte_array_remove_range (f->inbuf, 0, (guint) used);
  f->perf_offset += used;
  if (f->in_eof)
    {
      if (f->inbuf->len > 0)
        {
          g_set_error (&error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: the stream ends inside the record at offset %" PRIu64),
                       f->perf_offset);
          return perf_error (f, error);
        }
      return FALSE;   /* standard input ended: like cat, silently */
    }
  return TRUE;
}
#endif

/* Standard input: a perf pipe-mode stream ("PERFILE2", header size 16) or
 * a CPEL stream, told by its first 8 bytes. */
static gboolean
sniff_tick (Follow *f)
{
  if (!stdin_fill (f))
    return FALSE;
  if (f->inbuf->len < 8 && !f->in_eof)
    return TRUE;
  if (f->inbuf->len == 0)
    return FALSE;   /* empty: like cat, silently */
  f->sniffing = FALSE;
#if HAVE_PERF
  if (f->inbuf->len >= 8 && memcmp (f->inbuf->data, "PERFILE2", 8) == 0)
    {
      f->perf = TRUE;
      f->comms = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      f->perf_tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      f->perf_text = g_string_new (NULL);
      return perf_tick (f);
    }
#endif
  f->cpel = cpel_follower_new_for_fd (STDIN_FILENO, f->clock_rate);   /* a CPEL stream */
  cpel_follower_push_prefix (f->cpel, f->inbuf->data, f->inbuf->len);
  g_byte_array_set_size (f->inbuf, 0);
  return cpel_tick (f);
}

static gboolean
on_tick (gpointer data)
{
  Follow *f = data;
  gboolean go_on;

  if (f->sniffing)
    go_on = sniff_tick (f);
#if HAVE_PERF
  else if (f->perf)
    go_on = stdin_fill (f) && perf_tick (f);
#endif
  else
    go_on = f->snabb != NULL ? snabb_tick (f) : cpel_tick (f);

  if (!flush_out (f))
    {
      g_printerr ("cpel: %s\n", _("Could not write to standard output"));
      f->status = CPEL_EXIT_INVALID;
      go_on = FALSE;
    }
  if (!go_on)
    {
      g_main_loop_quit (f->loop);
      f->timeout_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_signal (gpointer data)
{
  Follow *f = data;

  g_main_loop_quit (f->loop);
  return G_SOURCE_CONTINUE;
}

int
cpel_cli_follow (const char *source,
                 gboolean    tsv,
                 guint64     clock_rate)
{
  Follow f = { .source = source, .tsv = tsv, .clock_rate = clock_rate };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  gboolean snabb = FALSE;
  guint sig_int, sig_term;

  f.inbuf = g_byte_array_new ();
  if (strcmp (source, "-") == 0)
    f.sniffing = TRUE;   /* CPEL or perf: its first bytes tell */
  else
    {
      path = cpel_live_source_resolve (source, &snabb, &error);
      if (path == NULL)
        return cpel_cli_file_error (source, error);
    }

  if (path != NULL && snabb)
    {
      f.snabb = cpel_snabb_follower_new (path, &error);
      if (f.snabb == NULL)
        return cpel_cli_file_error (source, error);
      f.entries = g_new (CpelSnabbEntry, BATCH);
      f.track_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      f.types = g_new0 (SnabbType *, G_MAXUINT16 + 1);
      f.text = g_string_new (NULL);
    }
  else if (path != NULL)
    {
      f.cpel = cpel_follower_new (path, clock_rate, &error);
      if (f.cpel == NULL)
        return cpel_cli_file_error (source, error);
    }

  f.out = g_string_new (NULL);
  f.loop = g_main_loop_new (NULL, FALSE);
  if (tsv)
    g_string_append (f.out, "time_ns\ttrack\ttrack_label\tcode\tevent\tdatum\n");
  sig_int = g_unix_signal_add (SIGINT, on_signal, &f);
  sig_term = g_unix_signal_add (SIGTERM, on_signal, &f);
  if (on_tick (&f))
    {
      f.timeout_id = g_timeout_add (POLL_MS, on_tick, &f);
      g_main_loop_run (f.loop);
    }
  if (f.timeout_id != 0)
    g_source_remove (f.timeout_id);
  g_source_remove (sig_int);
  g_source_remove (sig_term);
  if (!flush_out (&f) && f.status == CPEL_EXIT_OK)
    f.status = CPEL_EXIT_INVALID;

  g_main_loop_unref (f.loop);
  g_string_free (f.out, TRUE);
  g_clear_pointer (&f.snabb, cpel_snabb_follower_free);
  g_clear_pointer (&f.cpel, cpel_follower_free);
  g_clear_pointer (&f.track_ids, g_hash_table_unref);
  if (f.types != NULL)
    snabb_types_clear (&f);
  g_free (f.types);
  if (f.text != NULL)
    g_string_free (f.text, TRUE);
  g_free (f.entries);
  g_byte_array_unref (f.inbuf);
#if HAVE_PERF
  g_clear_pointer (&f.pd, cpel_perf_data_free);
  g_clear_pointer (&f.comms, g_hash_table_unref);
  g_clear_pointer (&f.perf_tracks, g_hash_table_unref);
  if (f.perf_text != NULL)
    g_string_free (f.perf_text, TRUE);
#endif
  return f.status;
}
