/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-follow.c — following an LTTng live session (see the header) */
#include "cpel-ctf-follow.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-ctf-trace-private.h"
#include "cpel-error.h"
#include "cpel-file.h"

#define READ_MAX       (4u << 20)   /* bytes of the reader's output read by one poll */
#define ERR_TAIL_MAX   4096
#define RSS_CHECK_US   (G_USEC_PER_SEC / 10)

struct _CpelCtfFollower
{
  char          *url;
  GPid           pid;
  gboolean       reaped;
  int            out_fd;
  int            err_fd;
  gboolean       eof;
  CpelCtfTrace  *trace;       /* what the reader sent and was not yet handed out */
  CpelCtfWireIn *in;
  GByteArray    *buf;
  GString       *err_tail;
  guint64        next;        /* the next event of the trace to hand out */
  guint          next_mark;   /* the next discard mark to count */
  guint64        discarded_told;
  guint64        packets_told;
  guint64        lost_carry;  /* counted, not yet told */
  guint64        packets_carry;
  GArray        *events;      /* CpelFollowEvent, of this poll */
  GString       *texts;       /* their texts, NUL-terminated */
  gboolean       have_t0;
  gint64         t0;
  gint64         heard_us;    /* when the reader last wrote */
  gint64         rss_us;
  gboolean       ended;       /* the session ended ('Z') */
  GError        *damage;      /* told once the events before it are handed out */
  GError        *failed;      /* told by every poll after */
};

gboolean
cpel_ctf_follow_is_url (const char *source)
{
  g_return_val_if_fail (source != NULL, FALSE);
  return g_str_has_prefix (source, "net://") || g_str_has_prefix (source, "net4://")
         || g_str_has_prefix (source, "net6://");
}

CpelCtfFollower *
cpel_ctf_follower_new (const char *url,
                       GError    **error)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!cpel_ctf_follow_is_url (url))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("“%s” is not an LTTng live URL (net://HOST/host/HOSTNAME/SESSION)"), url);
      return NULL;
    }
  const char *args[] = { url, NULL };
  GPid pid;
  int out_fd = -1, err_fd = -1;
  if (!cpel_ctf_reader_spawn (args, TRUE, &pid, &out_fd, &err_fd, error))
    return NULL;

  CpelCtfFollower *f = g_new0 (CpelCtfFollower, 1);
  f->url = g_strdup (url);
  f->pid = pid;
  f->out_fd = out_fd;
  f->err_fd = err_fd;
  f->trace = cpel_ctf_trace_new_empty ();
  f->in = cpel_ctf_wire_in_new (f->trace);
  f->buf = g_byte_array_new ();
  f->err_tail = g_string_new (NULL);
  f->events = g_array_new (FALSE, FALSE, sizeof (CpelFollowEvent));
  f->texts = g_string_new (NULL);
  f->heard_us = f->rss_us = g_get_monotonic_time ();
  return f;
}

/* Waits for the reader (it has ended, or is stopped: never a wait for a
 * reader that lingers, the capture's lock may be held); its status. */
static int
reap (CpelCtfFollower *f,
      gboolean         stop)
{
  int status = 0;
  pid_t got;

  if (f->reaped)
    return 0;
  if (!stop)
    {
      /* its output ended: it exits, or is about to */
      for (guint tries = 0; tries < 50; tries++)
        {
          while ((got = waitpid (f->pid, &status, WNOHANG)) < 0 && errno == EINTR)
            ;
          if (got == f->pid)
            break;
          g_usleep (G_USEC_PER_SEC / 1000);
        }
      stop = got != f->pid;
    }
  if (stop)
    {
      kill (f->pid, SIGKILL);
      while (waitpid (f->pid, &status, 0) < 0 && errno == EINTR)
        ;
    }
  g_spawn_close_pid (f->pid);
  f->reaped = TRUE;
  if (f->out_fd >= 0)
    g_close (f->out_fd, NULL);
  if (f->err_fd >= 0)
    g_close (f->err_fd, NULL);
  f->out_fd = f->err_fd = -1;
  return status;
}

void
cpel_ctf_follower_free (CpelCtfFollower *f)
{
  if (f == NULL)
    return;
  reap (f, TRUE);
  cpel_ctf_wire_in_free (f->in);
  cpel_ctf_trace_free (f->trace);
  g_byte_array_unref (f->buf);
  g_string_free (f->err_tail, TRUE);
  g_array_unref (f->events);
  g_string_free (f->texts, TRUE);
  g_clear_error (&f->damage);
  g_clear_error (&f->failed);
  g_free (f->url);
  g_free (f);
}

static void
stopped (CpelCtfFollower *f,
         const char      *why)
{
  g_clear_error (&f->damage);
  f->damage = g_error_new (CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                           _("LTTng live session %s: the trace reader stopped: %s"), f->url, why);
}

/* Reads what the reader wrote since the last poll, without waiting. */
static void
fill (CpelCtfFollower *f)
{
  gint64 now = g_get_monotonic_time ();
  g_autoptr(GError) local = NULL;
  gsize got;

  if (f->reaped)
    return;
  if (f->err_fd >= 0)
    {
      g_autoptr(GByteArray) err = g_byte_array_new ();
      gboolean err_eof = FALSE;

      cpel_follow_read_available (f->err_fd, err, 65536, &err_eof, NULL);
      g_string_append_len (f->err_tail, (const char *) err->data, err->len);
      if (f->err_tail->len > ERR_TAIL_MAX)
        g_string_erase (f->err_tail, 0, (gssize) (f->err_tail->len - ERR_TAIL_MAX));
      if (err_eof)
        {
          g_close (f->err_fd, NULL);
          f->err_fd = -1;
        }
    }
  g_byte_array_set_size (f->buf, 0);
  got = cpel_follow_read_available (f->out_fd, f->buf, READ_MAX, &f->eof, NULL);
  if (got > 0)
    {
      f->heard_us = now;
      if (!cpel_ctf_wire_in_feed (f->in, f->buf->data, f->buf->len, &local))
        {
          reap (f, TRUE);
          g_clear_error (&f->damage);
          f->damage = g_error_new (CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                                   _("LTTng live session %s: %s"), f->url, local->message);
          return;
        }
    }
  if (f->eof || cpel_ctf_wire_in_is_done (f->in))
    {
      /* the reader has said its last record, or its output ended */
      gboolean done = cpel_ctf_wire_in_is_done (f->in);
      int status = reap (f, done);
      g_autoptr(GError) failure = cpel_ctf_wire_in_take_failure (f->in);

      if (failure != NULL)
        f->damage = g_steal_pointer (&failure);
      else if (done)
        f->ended = TRUE;
      else
        {
          g_autofree char *why = cpel_ctf_reader_exit_reason (status, f->err_tail->str);
          stopped (f, why);
        }
      return;
    }
  if (now - f->heard_us >= cpel_ctf_reader_timeout_us ())
    {
      /* the reader sends a heartbeat every quarter of a second */
      g_autofree char *why = g_strdup_printf (_("no progress for %g s"),
                                              (double) cpel_ctf_reader_timeout_us ()
                                              / G_USEC_PER_SEC);
      reap (f, TRUE);
      stopped (f, why);
      return;
    }
  if (now - f->rss_us >= RSS_CHECK_US)
    {
      f->rss_us = now;
      if (cpel_ctf_reader_rss (f->pid) > CPEL_CTF_READER_MAX_RSS)
        {
          g_autofree char *why = g_strdup_printf (_("memory limit of %u MiB"),
                                                  (guint) (CPEL_CTF_READER_MAX_RSS >> 20));
          reap (f, TRUE);
          stopped (f, why);
        }
    }
}

/* Counts the losses told before event `next`. */
static void
count_marks (CpelCtfFollower *f)
{
  GArray *marks = cpel_ctf_trace_get_discard_marks (f->trace);

  while (f->next_mark < marks->len)
    {
      const CpelCtfDiscardMark *m = &g_array_index (marks, CpelCtfDiscardMark, f->next_mark);

      if (m->index > f->next)
        break;
      if (m->discarded_events > f->discarded_told)
        {
          f->lost_carry += m->discarded_events - f->discarded_told;
          f->discarded_told = m->discarded_events;
        }
      if (m->discarded_packets > f->packets_told)
        {
          f->packets_carry += m->discarded_packets - f->packets_told;
          f->packets_told = m->discarded_packets;
        }
      f->next_mark++;
    }
}

gsize
cpel_ctf_follower_poll (CpelCtfFollower   *f,
                        gsize              max,
                        CpelCtfFollowInfo *info,
                        GError           **error)
{
  g_return_val_if_fail (f != NULL, 0);
  g_return_val_if_fail (info != NULL, 0);
  g_return_val_if_fail (error == NULL || *error == NULL, 0);

  memset (info, 0, sizeof *info);
  g_array_set_size (f->events, 0);
  g_string_truncate (f->texts, 0);

  info->attached = cpel_ctf_trace_is_attached (f->trace);
  if (f->failed != NULL)
    {
      g_propagate_error (error, g_error_copy (f->failed));
      return 0;
    }
  guint64 n_events = cpel_ctf_trace_get_n_events (f->trace);
  if (f->next >= n_events)
    {
      count_marks (f);
      if (f->damage != NULL && f->lost_carry == 0 && f->packets_carry == 0)
        {
          /* the events before the failure were handed out: now the error */
          f->failed = g_error_copy (f->damage);
          g_propagate_error (error, g_steal_pointer (&f->damage));
          return 0;
        }
      if (f->lost_carry == 0 && f->packets_carry == 0)
        {
          /* everything handed out: dropped, then what is new */
          cpel_ctf_trace_drain (f->trace);
          f->next = 0;
          f->next_mark = 0;
          if (f->damage == NULL)
            fill (f);
          n_events = cpel_ctf_trace_get_n_events (f->trace);
          info->attached = cpel_ctf_trace_is_attached (f->trace);
        }
    }

  /* a gap first, then the events up to the next one */
  count_marks (f);
  info->lost = f->lost_carry;
  info->lost_packets = f->packets_carry;
  f->lost_carry = f->packets_carry = 0;
  const CpelCtfEvent *events = cpel_ctf_trace_get_events (f->trace);
  guint64 first = f->next;
  while (f->events->len < max && f->next < n_events)
    {
      if (f->next > first)
        {
          count_marks (f);
          if (f->lost_carry > 0 || f->packets_carry > 0)
            break;
        }
      const CpelCtfEvent *e = &events[f->next];
      CpelFollowEvent ev = { 0 };

      if (!f->have_t0)
        {
          f->have_t0 = TRUE;
          f->t0 = e->ns;
        }
      /* untrusted times: the difference saturates (then bounded as any time) */
      gint64 d;
      if (__builtin_sub_overflow (e->ns, f->t0, &d))
        d = e->ns < f->t0 ? -CPEL_TIME_MAX : CPEL_TIME_MAX;
      ev.time_ns = CLAMP (d, -CPEL_TIME_MAX, CPEL_TIME_MAX);
      ev.track_id = e->track;
      ev.code = e->cls;
      ev.datum_value = e->datum;
      ev.track_label = cpel_ctf_trace_get_track_label (f->trace, e->track);
      ev.name = cpel_ctf_trace_get_class_name (f->trace, e->cls);
      /* the text's offset for now: pointers once every text is copied */
      ev.datum = GSIZE_TO_POINTER (f->texts->len);
      g_string_append_len (f->texts, cpel_ctf_trace_get_text (f->trace, e), e->text_len);
      g_string_append_c (f->texts, '\0');
      g_array_append_val (f->events, ev);
      f->next++;
    }
  for (guint i = 0; i < f->events->len; i++)
    {
      CpelFollowEvent *ev = &g_array_index (f->events, CpelFollowEvent, i);
      ev->datum = f->texts->str + GPOINTER_TO_SIZE (ev->datum);
    }
  /* a loss after the last event read: told by the next poll, before the end */
  if (f->next >= n_events)
    count_marks (f);
  info->more = f->next < n_events || f->lost_carry > 0 || f->packets_carry > 0
               || f->damage != NULL;
  info->gone = f->ended && !info->more;
  return f->events->len;
}

const CpelFollowEvent *
cpel_ctf_follower_event (CpelCtfFollower *f,
                         gsize            i)
{
  g_return_val_if_fail (f != NULL, NULL);
  g_return_val_if_fail (i < f->events->len, NULL);

  return &g_array_index (f->events, CpelFollowEvent, i);
}

gboolean
cpel_ctf_follower_wait (CpelCtfFollower *f,
                        gint             timeout_ms)
{
  g_return_val_if_fail (f != NULL, FALSE);

  if (f->reaped || f->damage != NULL || f->failed != NULL)
    return TRUE;   /* what is left is told at once */
  struct pollfd pfd = { .fd = f->out_fd, .events = POLLIN };
  int r;
  while ((r = poll (&pfd, 1, timeout_ms)) < 0 && errno == EINTR)
    ;
  return r > 0;
}

gboolean
cpel_ctf_follower_get_clock (CpelCtfFollower *f,
                             gint64          *origin_ns,
                             gboolean        *unix_epoch,
                             const char     **name,
                             guint64         *frequency)
{
  g_return_val_if_fail (f != NULL, FALSE);

  if (!f->have_t0 || cpel_ctf_trace_get_clock_name (f->trace) == NULL)
    return FALSE;
  *origin_ns = f->t0;
  *unix_epoch = cpel_ctf_trace_get_clock_is_unix_epoch (f->trace);
  *name = cpel_ctf_trace_get_clock_name (f->trace);
  *frequency = cpel_ctf_trace_get_clock_frequency (f->trace);
  return TRUE;
}

static gsize
stream_poll (gpointer               follower,
             gsize                  max,
             CpelStreamFollowInfo  *info,
             GError               **error)
{
  return cpel_ctf_follower_poll (follower, max, info, error);
}

static const CpelFollowEvent *
stream_event (gpointer follower,
              gsize    i)
{
  return cpel_ctf_follower_event (follower, i);
}

const CpelStreamFollowerClass cpel_ctf_follower_class = { stream_poll, stream_event };
