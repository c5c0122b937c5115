/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-follow.c — a perf pipe-mode stream read while perf writes it */
#include "config.h"

#include "cpel-perf-follow.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"
#include "cpel-file.h"
#include "cpel-perf-data.h"

#define READ_MAX (4u << 20)   /* bytes read per poll: what one poll queues is bounded */
/* Bytes held for a record not yet whole: a record is at most 64 KiB but
 * tracing data, which only the header records hold (bounded apart) */
#define PENDING_MAX (1u << 20)
#define TAIL_CHECK 64         /* a file's last bytes read, compared to notice a rewrite */

/* A queued sample, or a gap (lost > 0, no event). */
typedef struct
{
  gint64      time_ns;
  guint64     lost;
  const char *track_label;   /* a key of `tracks` */
  guint32     track_id;
  guint32     code;
  gsize       text_off;      /* in `texts` */
} Item;

struct _CpelPerfFollower
{
  char         *path;          /* a file; NULL: a stream */
  int           fd;
  dev_t         dev;
  ino_t         ino;
  gboolean      eof;           /* a stream: its end was read */

  GByteArray   *inbuf;         /* bytes not yet consumed */
  guint64       in_offset;     /* stream offset of inbuf's first byte */
  CpelPerfData *pd;            /* once the header records are in */
  gboolean      have_t0;
  guint64       t0;
  gint64        t_last;
  GHashTable   *comms;         /* tid -> comm */
  GHashTable   *tracks;        /* label -> id + 1 */
  GString      *text;

  GArray       *queue;         /* Item: what the last read made, handed out in order */
  guint         next;
  GString      *texts;         /* the queued samples' texts, NUL-separated */
  GArray       *events;        /* CpelFollowEvent: the last poll's */
  guint64       lost_records;  /* the sums of perf's LOST and LOST_SAMPLES records */
  guint64       lost_samples;
  guint64       lost_told;     /* the larger of them, queued as gaps so far */
  guint64       lost_carry;    /* a gap at the end of what was read, not told yet */
  gboolean      fill_empty;    /* the last read found nothing new */
  guint8        tail[TAIL_CHECK];   /* a file: the bytes before the read point, as read */
  guint         tail_len;
  GError       *damage;        /* found by the last read: told once the samples before it are out */
  char         *failed;        /* the error once told: later polls tell it again */
};

gboolean
cpel_perf_follow_sniff (const guint8 *data,
                        gsize         len)
{
  return cpel_perf_data_pipe_header_len (data, len, CPEL_PERF_FOLLOW_HEADER_MAX) >= 0
         && len >= 16;
}

static void
reset (CpelPerfFollower *f)
{
  g_byte_array_set_size (f->inbuf, 0);
  f->in_offset = 0;
  f->eof = FALSE;
  g_clear_pointer (&f->pd, cpel_perf_data_free);
  f->have_t0 = FALSE;
  f->t_last = 0;
  g_hash_table_remove_all (f->comms);
  g_hash_table_remove_all (f->tracks);
  g_array_set_size (f->queue, 0);
  f->next = 0;
  g_string_truncate (f->texts, 0);
  f->lost_carry = 0;
  f->lost_records = f->lost_samples = f->lost_told = 0;
  f->tail_len = 0;
}

static CpelPerfFollower *
follower_new (void)
{
  CpelPerfFollower *f = g_new0 (CpelPerfFollower, 1);

  f->fd = -1;
  f->inbuf = g_byte_array_new ();
  f->comms = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  f->tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->text = g_string_new (NULL);
  f->queue = g_array_new (FALSE, FALSE, sizeof (Item));
  f->texts = g_string_new (NULL);
  f->events = g_array_new (FALSE, FALSE, sizeof (CpelFollowEvent));
  return f;
}

static gboolean
open_file (CpelPerfFollower *f,
           GError          **error)
{
  struct stat st;
  int fd = cpel_follow_open_regular (f->path, O_NONBLOCK, &st, error);

  if (fd < 0)
    return FALSE;
  if (f->fd >= 0)
    close (f->fd);
  f->fd = fd;
  f->dev = st.st_dev;
  f->ino = st.st_ino;
  reset (f);
  return TRUE;
}

CpelPerfFollower *
cpel_perf_follower_new (const char *path,
                        GError    **error)
{
  CpelPerfFollower *f;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  f = follower_new ();
  f->path = g_strdup (path);
  if (!open_file (f, error))
    {
      cpel_perf_follower_free (f);
      return NULL;
    }
  return f;
}

CpelPerfFollower *
cpel_perf_follower_new_for_fd (int fd)
{
  CpelPerfFollower *f;

  g_return_val_if_fail (fd >= 0, NULL);

  f = follower_new ();
  f->fd = fd;
  return f;
}

void
cpel_perf_follower_push_prefix (CpelPerfFollower *f,
                                const guint8     *data,
                                gsize             len)
{
  g_return_if_fail (f != NULL && f->path == NULL);
  g_return_if_fail (data != NULL || len == 0);

  g_byte_array_append (f->inbuf, data, (guint) len);
}

void
cpel_perf_follower_free (CpelPerfFollower *f)
{
  if (f == NULL)
    return;
  if (f->path != NULL && f->fd >= 0)
    close (f->fd);
  g_free (f->path);
  g_byte_array_unref (f->inbuf);
  g_clear_pointer (&f->pd, cpel_perf_data_free);
  g_hash_table_unref (f->comms);
  g_hash_table_unref (f->tracks);
  g_string_free (f->text, TRUE);
  g_array_unref (f->queue);
  g_string_free (f->texts, TRUE);
  g_array_unref (f->events);
  g_clear_error (&f->damage);
  g_free (f->failed);
  g_free (f);
}

/* ---- records to items ---------------------------------------------------- */

static gboolean
on_record (const CpelPerfRecord *r,
           gpointer              data,
           GError              **error)
{
  CpelPerfFollower *f = data;
  Item it = { 0 };
  gboolean tp;
  gpointer id;
  char *key;

  switch (r->type)
    {
    case CPEL_PERF_RECORD_COMM:
      g_hash_table_insert (f->comms, GUINT_TO_POINTER (r->tid), g_strdup (r->comm));
      return TRUE;
    case CPEL_PERF_RECORD_LOST:
    case CPEL_PERF_RECORD_LOST_SAMPLES:
      {
        /* the kernel counts a sample the ring had no room for twice: in the
         * ring's LOST records and in the event's lost samples, which perf
         * writes as LOST_SAMPLES when it ends: the loss is the larger sum */
        guint64 *sum = r->type == CPEL_PERF_RECORD_LOST ? &f->lost_records : &f->lost_samples;
        guint64 total;

        *sum = *sum > G_MAXUINT64 - r->lost ? G_MAXUINT64 : *sum + r->lost;
        total = MAX (f->lost_records, f->lost_samples);
        if (total <= f->lost_told)
          return TRUE;
        it.lost = total - f->lost_told;
        f->lost_told = total;
        g_array_append_val (f->queue, it);
        return TRUE;
      }
    case CPEL_PERF_RECORD_SAMPLE:
      break;
    default:
      return TRUE;
    }

  tp = cpel_perf_data_attr_is_tracepoint (f->pd, r->attr);
  g_string_truncate (f->text, 0);
  if (tp && r->has_cpu)
    g_string_printf (f->text, _("CPU %u"), r->cpu);
  else
    {
      const char *comm = g_hash_table_lookup (f->comms, GUINT_TO_POINTER (r->tid));

      g_string_printf (f->text, "%s [%u]", comm != NULL ? comm : ":", r->tid);
    }
  if (!g_hash_table_lookup_extended (f->tracks, f->text->str, (gpointer *) &key, &id))
    {
      key = g_strdup (f->text->str);
      id = GUINT_TO_POINTER (g_hash_table_size (f->tracks) + 1);
      g_hash_table_insert (f->tracks, key, id);
    }
  it.track_label = key;
  it.track_id = GPOINTER_TO_UINT (id) - 1;
  it.code = r->attr;

  it.text_off = f->texts->len;
  g_string_truncate (f->text, 0);
  if (tp)
    {
      if (!cpel_perf_data_format_tracepoint (f->pd, r->attr, r->raw, r->raw_size, f->text,
                                             NULL, error))
        return FALSE;
    }
  else
    g_string_append_printf (f->text, "%u/%u %" PRIx64, r->pid, r->tid, r->ip);
  g_string_append_len (f->texts, f->text->str, (gssize) f->text->len + 1);   /* with its NUL */

  if (r->has_time)
    {
      if (!f->have_t0)
        {
          f->t0 = r->time;
          f->have_t0 = TRUE;
        }
      /* perf's clock from the first sample; an earlier sample (another CPU's
       * buffer) is before it; bounded so that differences cannot overflow */
      f->t_last = r->time >= f->t0 ? (gint64) MIN (r->time - f->t0, (guint64) CPEL_TIME_MAX)
                                   : -(gint64) MIN (f->t0 - r->time, (guint64) CPEL_TIME_MAX);
    }
  it.time_ns = f->t_last;   /* a sample without a time: the last one seen */
  g_array_append_val (f->queue, it);
  return TRUE;
}

/* ---- reading --------------------------------------------------------------- */

/* A file: still the one read so far, not shorter?  *gone when it is no
 * longer there. */
static gboolean
file_unchanged (CpelPerfFollower *f,
                gboolean         *gone)
{
  struct stat st;

  guint8 now[TAIL_CHECK];

  *gone = g_stat (f->path, &st) != 0;
  if (*gone)
    return FALSE;
  if (st.st_dev != f->dev || st.st_ino != f->ino
      || (guint64) st.st_size < f->in_offset + f->inbuf->len)
    return FALSE;
  /* written again from the start in place (`> FILE` once more) and as
   * long already: the bytes before the read point changed (samples,
   * times; the header records of the same command may not) */
  return f->tail_len == 0
         || (pread (f->fd, now, f->tail_len, (off_t) (f->in_offset + f->inbuf->len - f->tail_len))
             == (gssize) f->tail_len
             && memcmp (now, f->tail, f->tail_len) == 0);
}

static gboolean
file_fill (CpelPerfFollower *f,
           GError          **error)
{
  guint old = f->inbuf->len;   /* below PENDING_MAX or the header's bound: no overflow */
  gsize done = 0;

  g_byte_array_set_size (f->inbuf, old + READ_MAX);
  while (done < READ_MAX)
    {
      gssize r = pread (f->fd, f->inbuf->data + old + done, READ_MAX - done,
                        (off_t) (f->in_offset + old + done));

      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          g_byte_array_set_size (f->inbuf, old + (guint) done);
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", g_strerror (errno));
          return FALSE;
        }
      if (r == 0)
        break;   /* what was written so far */
      done += (gsize) r;
    }
  g_byte_array_set_size (f->inbuf, old + (guint) done);
  f->fill_empty = done == 0;
  if (done > 0 || f->tail_len == 0)
    {
      f->tail_len = MIN (f->inbuf->len, TAIL_CHECK);
      memcpy (f->tail, f->inbuf->data + f->inbuf->len - f->tail_len, f->tail_len);
    }
  return TRUE;
}

/* Reads what is there and queues its samples and gaps. */
static gboolean
fill (CpelPerfFollower   *f,
      CpelPerfFollowInfo *info,
      GError            **error)
{
  gsize used = 0;

  if (f->path != NULL)
    {
      gboolean gone;

      if (!file_unchanged (f, &gone))
        {
          if (gone)
            {
              info->gone = TRUE;
              return TRUE;
            }
          if (!open_file (f, error))
            return FALSE;
          info->rewritten = TRUE;
        }
      if (!file_fill (f, error))
        return FALSE;
    }
  else
    {
      f->fill_empty = cpel_follow_read_available (f->fd, f->inbuf, READ_MAX, &f->eof,
                                                  error) == 0;
      if (error != NULL && *error != NULL)
        return FALSE;
    }

  if (f->pd == NULL)
    {
      gssize hl = cpel_perf_data_pipe_header_len (f->inbuf->data, f->inbuf->len,
                                                  CPEL_PERF_FOLLOW_HEADER_MAX);
      g_autoptr(GBytes) head = NULL;

      if (hl < 0)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: the stream's header records are damaged or larger "
                         "than %d MiB"), (int) (CPEL_PERF_FOLLOW_HEADER_MAX >> 20));
          return FALSE;
        }
      if (hl == 0)
        {
          if (!f->eof || f->inbuf->len == 0)
            return TRUE;   /* more is needed (a stream that ended empty is just gone) */
          hl = (gssize) f->inbuf->len;   /* ended in its header: say what is wrong */
        }
      head = g_bytes_new (f->inbuf->data, (gsize) hl);
      f->pd = cpel_perf_data_new (head, error);
      if (f->pd == NULL)
        return FALSE;
      g_byte_array_remove_range (f->inbuf, 0, (guint) hl);
      f->in_offset = (guint64) hl;
    }

  if (!cpel_perf_data_read_stream (f->pd, f->inbuf->data, f->inbuf->len, f->in_offset,
                                   on_record, f, &used, error))
    return FALSE;
  g_byte_array_remove_range (f->inbuf, 0, (guint) used);
  f->in_offset += used;
  if (f->inbuf->len > PENDING_MAX)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("perf.data: the record at offset %" PRIu64 " is larger than %u KiB"),
                   f->in_offset, PENDING_MAX >> 10);
      return FALSE;
    }
  if (f->eof && f->inbuf->len > 0)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("perf.data: the stream ends inside the record at offset %" PRIu64),
                   f->in_offset);
      return FALSE;
    }
  return TRUE;
}

/* A stream whose every byte was read and used. */
static gboolean
stream_over (CpelPerfFollower *f)
{
  return f->path == NULL && f->eof && f->inbuf->len == 0;
}

gsize
cpel_perf_follower_poll (CpelPerfFollower   *f,
                         gsize               max,
                         CpelPerfFollowInfo *info,
                         GError            **error)
{
  g_return_val_if_fail (f != NULL, 0);
  g_return_val_if_fail (info != NULL, 0);
  g_return_val_if_fail (error == NULL || *error == NULL, 0);

  memset (info, 0, sizeof *info);
  g_array_set_size (f->events, 0);

  if (f->failed != NULL)
    {
      /* damaged: nothing more is read (the samples before were handed out) */
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED, f->failed);
      return 0;
    }
  if (f->next >= f->queue->len)
    {
      if (f->damage != NULL)
        {
          /* the samples before the damage were handed out: now the error */
          f->failed = g_strdup (f->damage->message);
          g_propagate_error (error, g_steal_pointer (&f->damage));
          return 0;
        }
      g_array_set_size (f->queue, 0);
      f->next = 0;
      g_string_truncate (f->texts, 0);
      if (!fill (f, info, &f->damage) && f->queue->len == 0)
        {
          f->failed = g_strdup (f->damage->message);
          g_propagate_error (error, g_steal_pointer (&f->damage));
          return 0;
        }
    }

  /* one gap first, then the samples up to the next gap; LOST records with
   * no sample between them are one gap, also when they came in two reads:
   * a gap at the end of what was read waits for what follows it */
  while (f->next < f->queue->len)
    {
      const Item *it = &g_array_index (f->queue, Item, f->next);

      if (it->lost == 0)
        break;
      f->lost_carry += it->lost;
      f->next++;
    }
  /* told once a sample follows, or nothing more came (perf writes its
   * LOST_SAMPLES at its end), or at the end */
  if (f->lost_carry > 0
      && (f->next < f->queue->len || f->damage != NULL || stream_over (f) || f->fill_empty
          || info->gone))
    {
      info->lost = f->lost_carry;
      f->lost_carry = 0;
    }
  while (f->events->len < max && f->next < f->queue->len)
    {
      const Item *it = &g_array_index (f->queue, Item, f->next);
      CpelFollowEvent ev = { 0 };

      if (it->lost > 0)
        break;
      ev.time_ns = it->time_ns;
      ev.track_id = it->track_id;
      ev.code = it->code;
      ev.track_label = it->track_label;
      ev.name = cpel_perf_data_get_attr_name (f->pd, it->code);
      ev.datum = f->texts->str + it->text_off;
      g_array_append_val (f->events, ev);
      f->next++;
    }
  info->more = f->next < f->queue->len || f->damage != NULL;
  if (f->next >= f->queue->len && stream_over (f))
    info->gone = TRUE;
  return f->events->len;
}

const CpelFollowEvent *
cpel_perf_follower_event (CpelPerfFollower *f,
                          gsize             i)
{
  g_return_val_if_fail (f != NULL, NULL);
  g_return_val_if_fail (i < f->events->len, NULL);

  return &g_array_index (f->events, CpelFollowEvent, i);
}

static gsize
stream_poll (gpointer               follower,
             gsize                  max,
             CpelStreamFollowInfo  *info,
             GError               **error)
{
  return cpel_perf_follower_poll (follower, max, info, error);
}

static const CpelFollowEvent *
stream_event (gpointer follower,
              gsize    i)
{
  return cpel_perf_follower_event (follower, i);
}

const CpelStreamFollowerClass cpel_perf_follower_class = { stream_poll, stream_event };
