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
 * order perf writes them), LOST records as "lost N events" on stderr.  An
 * LTTng live URL (net://HOST/host/HOSTNAME/SESSION) is read through
 * lttng-relayd; the events LTTng discarded are "lost N events" there too,
 * and the session's end ends the command.
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
#include "cpel-perf-follow.h"
#endif
#if HAVE_CTF
#include "cpel-ctf-follow.h"
#endif

#define POLL_MS        20
#define BATCH          4096
#define BATCHES_MAX    64      /* per tick: then stdout is flushed and the loop runs */
#define TRACK_PAD_MAX  28

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

  /* a file too short yet to tell what it is */
  char          *pending;

  /* standard input, until its first bytes say what it is */
  gboolean       sniffing;
  GByteArray    *inbuf;
  gboolean       in_eof;

#if HAVE_PERF
  CpelPerfFollower *perf;   /* a perf pipe-mode stream */
#endif
#if HAVE_CTF
  CpelCtfFollower  *lttng;  /* an LTTng live session */
  gboolean          attached;
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
      ticks = ticks && f->perf == NULL;
#endif
#if HAVE_CTF
      ticks = ticks && f->lttng == NULL;
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

#if HAVE_PERF || HAVE_CTF
static void
say_lost (Follow *f, guint64 n)
{
  g_autofree char *num = g_strdup_printf ("%" PRIu64, n);
  g_autofree char *s = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "lost %s event",
                                                     "lost %s events", n), num);
  say (f, s);
}

static gboolean
stream_tick (Follow                        *f,
             const CpelStreamFollowerClass *klass,
             gpointer                       follower,
             const char                    *gone_message)
{
  for (guint b = 0; b < BATCHES_MAX; b++)
    {
      CpelStreamFollowInfo info = { 0 };
      g_autoptr(GError) error = NULL;
      gsize n = klass->poll (follower, BATCH, &info, &error);

      if (error != NULL)
        {
          flush_out (f);
          cpel_cli_file_error (f->source, error);
          f->status = CPEL_EXIT_INVALID;
          return FALSE;
        }
#if HAVE_CTF
      if (info.attached && !f->attached)
        {
          /* libbabeltrace2 reads a live session from the newest data on */
          f->attached = TRUE;
          say (f, _("reading the LTTng session: what it records from now on follows"));
        }
#endif
      if (info.rewritten)
        say (f, _("the file was rewritten: reading it again from the start"));
      if (info.lost > 0)
        say_lost (f, info.lost);
      if (info.lost_packets > 0)
        {
          g_autofree char *num = g_strdup_printf ("%" PRIu64, info.lost_packets);
          g_autofree char *s = g_strdup_printf (
            g_dngettext (GETTEXT_PACKAGE, "lost %s packet (its events are not counted)",
                         "lost %s packets (their events are not counted)", info.lost_packets),
            num);
          say (f, s);
        }
      for (gsize i = 0; i < n; i++)
        {
          const CpelFollowEvent *ev = klass->event (follower, i);

          put_line (f, ev->time_ns, ev->track_id, ev->track_label, ev->code, ev->name,
                    ev->datum);
        }
      if (info.gone)
        {
          if (gone_message != NULL)
            say (f, gone_message);
          return FALSE;
        }
      if (n < BATCH && !info.more)
        break;
    }
  return TRUE;
}
#endif

#if HAVE_PERF
static gboolean
perf_tick (Follow *f)
{
  /* standard input ended: like cat, silently */
  return stream_tick (f, &cpel_perf_follower_class, f->perf,
                      strcmp (f->source, "-") != 0 ? _("the file was removed") : NULL);
}
#endif

#if HAVE_CTF
static gboolean
lttng_tick (Follow *f)
{
  return stream_tick (f, &cpel_ctf_follower_class, f->lttng, _("the LTTng session ended"));
}
#endif

/* Standard input: a perf pipe-mode stream ("PERFILE2", header size 16) or
 * a CPEL stream, told by its first 16 bytes (cpel_live_stream_sniff). */
static gboolean
sniff_tick (Follow *f)
{
  g_autoptr(GError) error = NULL;
  gboolean is_perf;

  cpel_follow_read_available (STDIN_FILENO, f->inbuf, 16 - MIN (f->inbuf->len, 16), &f->in_eof,
                              &error);
  if (error != NULL)
    {
      g_printerr ("cpel: -: %s\n", error->message);
      f->status = CPEL_EXIT_INVALID;
      return FALSE;
    }
  if (f->inbuf->len < 16 && !f->in_eof)
    return TRUE;
  if (f->inbuf->len == 0)
    return FALSE;   /* empty: like cat, silently */
  f->sniffing = FALSE;
  if (!cpel_live_stream_sniff (f->inbuf->data, f->inbuf->len, &is_perf, &error))
    {
      cpel_cli_file_error (f->source, error);
      f->status = CPEL_EXIT_INVALID;
      return FALSE;
    }
#if HAVE_PERF
  if (is_perf)
    {
      f->perf = cpel_perf_follower_new_for_fd (STDIN_FILENO);
      cpel_perf_follower_push_prefix (f->perf, f->inbuf->data, f->inbuf->len);
      g_byte_array_set_size (f->inbuf, 0);
      return perf_tick (f);
    }
#endif
  f->cpel = cpel_follower_new_for_fd (STDIN_FILENO, f->clock_rate);   /* a CPEL stream */
  cpel_follower_push_prefix (f->cpel, f->inbuf->data, f->inbuf->len);
  g_byte_array_set_size (f->inbuf, 0);
  return cpel_tick (f);
}

/* The follower of SOURCE, by what it is; a file too short yet to tell
 * (PENDING) is looked at again at each tick. */
static gboolean
start_source (Follow             *f,
              const char         *path,
              CpelLiveSourceKind  kind,
              GError            **error)
{
  switch (kind)
    {
    case CPEL_LIVE_SOURCE_STDIN:
      f->sniffing = TRUE;   /* CPEL or perf: its first bytes tell */
      break;
    case CPEL_LIVE_SOURCE_PENDING:
      f->pending = g_strdup (path);
      break;
    case CPEL_LIVE_SOURCE_SNABB:
      f->snabb = cpel_snabb_follower_new (path, error);
      if (f->snabb == NULL)
        return FALSE;
      f->entries = g_new (CpelSnabbEntry, BATCH);
      f->track_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      f->types = g_new0 (SnabbType *, G_MAXUINT16 + 1);
      f->text = g_string_new (NULL);
      break;
    case CPEL_LIVE_SOURCE_PERF:
#if HAVE_PERF
      f->perf = cpel_perf_follower_new (path, error);
      if (f->perf == NULL)
        return FALSE;
#else
      g_assert_not_reached ();   /* resolve refuses perf.data then */
#endif
      break;
    case CPEL_LIVE_SOURCE_LTTNG:
#if HAVE_CTF
      f->lttng = cpel_ctf_follower_new (path, error);
      if (f->lttng == NULL)
        return FALSE;
#else
      g_assert_not_reached ();   /* resolve refuses the URL then */
#endif
      break;
    case CPEL_LIVE_SOURCE_REREAD:
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
                   _("This file is saved whole, not appended to (a VPP elog): cpel dump "
                     "--follow reads a Snabb ring, a CPEL or perf pipe-mode file or stream; "
                     "cpelview --follow reads it again each time it is saved"));
      return FALSE;
    case CPEL_LIVE_SOURCE_CPEL:
      f->cpel = cpel_follower_new (path, f->clock_rate, error);
      if (f->cpel == NULL)
        return FALSE;
      break;
    }
  return TRUE;
}

/* A file too short to tell what it is when the command started. */
static gboolean
pending_tick (Follow *f)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *pending = NULL;
  CpelLiveSourceKind kind;

  path = cpel_live_source_resolve (f->pending, &kind, &error);
  if (path != NULL && kind == CPEL_LIVE_SOURCE_PENDING)
    return TRUE;
  pending = g_steal_pointer (&f->pending);
  if (path == NULL || !start_source (f, path, kind, &error))
    {
      cpel_cli_file_error (f->source, error);
      f->status = CPEL_EXIT_INVALID;
      return FALSE;
    }
  return TRUE;
}

static gboolean
on_tick (gpointer data)
{
  Follow *f = data;
  gboolean go_on;

  if (f->sniffing)
    go_on = sniff_tick (f);
  else if (f->pending != NULL)
    go_on = pending_tick (f);
#if HAVE_PERF
  else if (f->perf != NULL)
    go_on = perf_tick (f);
#endif
#if HAVE_CTF
  else if (f->lttng != NULL)
    go_on = lttng_tick (f);
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
  CpelLiveSourceKind kind;
  guint sig_int, sig_term;

  path = cpel_live_source_resolve (source, &kind, &error);
  if (path == NULL)
    return cpel_cli_file_error (source, error);
  if (!start_source (&f, path, kind, &error))
    return cpel_cli_file_error (source, error);

  f.inbuf = g_byte_array_new ();
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
  g_free (f.pending);
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
  g_clear_pointer (&f.perf, cpel_perf_follower_free);
#endif
#if HAVE_CTF
  g_clear_pointer (&f.lttng, cpel_ctf_follower_free);
#endif
  return f.status;
}
