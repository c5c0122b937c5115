/* SPDX-License-Identifier: Apache-2.0 */
/* test-perf-follow.c — a perf pipe-mode stream followed while it is written
 * (cpel-perf-follow.h), and the live capture the viewer follows on it
 * (cpel-live-capture.h): the sched-wakeup fixture written again in pipe
 * mode, fed through a pipe in pieces or appended to a file, gives every
 * sample once, in order, as the file-mode fixture holds it; LOST records
 * are gaps with perf's count, where perf put them; a file rewritten is read
 * again, a file removed is gone; a damaged stream is an error with its
 * offset. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-live-capture.h"
#include "cpel-perf-data.h"
#include "cpel-perf-follow.h"
#include "cpel-test-util.h"
#include "cpel-perf-pipe-writer.h"

#define N_SAMPLES 147   /* the sched-wakeup fixture's */

typedef struct
{
  CpelPerfData *pd;
  GPtrArray    *lines;
  gboolean      have_t0;
  guint64       t0;
} Expect;

/* A sample as the follower gives it: "TIME TRACK NAME: TEXT". */
static char *
line_of (gint64      time_ns,
         const char *track,
         const char *name,
         const char *text)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT " %s %s: %s", time_ns, track, name, text);
}

static gboolean
expect_record (const CpelPerfRecord *r,
               gpointer              data,
               GError              **error)
{
  Expect *x = data;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *track = NULL;

  if (r->type != CPEL_PERF_RECORD_SAMPLE)
    return TRUE;
  g_assert_true (cpel_perf_data_attr_is_tracepoint (x->pd, r->attr));
  g_assert_true (r->has_time && r->has_cpu);
  if (!x->have_t0)
    {
      x->t0 = r->time;
      x->have_t0 = TRUE;
    }
  if (!cpel_perf_data_format_tracepoint (x->pd, r->attr, r->raw, r->raw_size, text, NULL, error))
    return FALSE;
  track = g_strdup_printf ("CPU %u", r->cpu);
  g_ptr_array_add (x->lines, line_of ((gint64) (r->time - x->t0), track,
                                      cpel_perf_data_get_attr_name (x->pd, r->attr), text->str));
  return TRUE;
}

/* The fixture's samples, read from the file-mode original. */
static GPtrArray *
expected_lines (GBytes *file)
{
  g_autoptr(GError) error = NULL;
  Expect x = { 0 };

  x.pd = cpel_perf_data_new (file, &error);
  g_assert_no_error (error);
  x.lines = g_ptr_array_new_with_free_func (g_free);
  g_assert_true (cpel_perf_data_read_records (x.pd, expect_record, &x, NULL, NULL, NULL,
                                              &error));
  g_assert_no_error (error);
  cpel_perf_data_free (x.pd);
  g_assert_cmpuint (x.lines->len, ==, N_SAMPLES);
  return x.lines;
}

static GBytes *
fixture_file (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* The end of the header records and of each record after them. */
static GArray *
record_ends (GBytes *pbytes)
{
  gsize len;
  const guint8 *p = g_bytes_get_data (pbytes, &len);
  gssize pos = cpel_perf_data_pipe_header_len (p, len, len);
  GArray *ends = g_array_new (FALSE, FALSE, sizeof (gsize));

  g_assert_cmpint (pos, >, 16);
  g_array_append_val (ends, pos);
  while ((gsize) pos < len)
    {
      guint16 size;

      memcpy (&size, p + pos + 6, 2);
      g_assert_cmpuint (size, >=, 8);
      pos += size;
      g_array_append_val (ends, pos);
    }
  g_assert_cmpuint ((gsize) pos, ==, len);
  return ends;
}

static gboolean
is_sample_at (GBytes *pbytes,
              gsize   pos)
{
  const guint8 *p = g_bytes_get_data (pbytes, NULL);
  guint32 type;

  memcpy (&type, p + pos, 4);
  return type == 9;
}

/* The end of the stream's n-th sample record. */
static gsize
sample_end (GBytes *pbytes,
            GArray *ends,
            guint   n)
{
  for (guint i = 0; i + 1 < ends->len; i++)
    if (is_sample_at (pbytes, g_array_index (ends, gsize, i)) && n-- == 0)
      return g_array_index (ends, gsize, i + 1);
  g_assert_not_reached ();
}

/* A LOST record of n events. */
static void
put_lost (GByteArray *a,
          guint64     n)
{
  guint64 id = 0;

  cpel_test_pipe_hdr (a, 2, 0, 24);
  g_byte_array_append (a, (const guint8 *) &id, 8);
  g_byte_array_append (a, (const guint8 *) &n, 8);
}

/* A LOST_SAMPLES record of n events (perf writes them at its end). */
static void
put_lost_samples (GByteArray *a,
                  guint64     n)
{
  cpel_test_pipe_hdr (a, 13, 0, 16);
  g_byte_array_append (a, (const guint8 *) &n, 8);
}

/* Everything a poll gives, as lines ("lost N" for a gap). */
static gsize
drain (CpelPerfFollower *f,
       GPtrArray        *got,
       CpelPerfFollowInfo *last)
{
  gsize total = 0;

  while (TRUE)
    {
      g_autoptr(GError) error = NULL;
      CpelPerfFollowInfo info;
      gsize n = cpel_perf_follower_poll (f, 64, &info, &error);

      g_assert_no_error (error);
      if (info.lost > 0)
        g_ptr_array_add (got, g_strdup_printf ("lost %" G_GUINT64_FORMAT, info.lost));
      for (gsize i = 0; i < n; i++)
        {
          const CpelFollowEvent *ev = cpel_perf_follower_event (f, i);

          g_ptr_array_add (got, line_of (ev->time_ns, ev->track_label, ev->name, ev->datum));
        }
      total += n;
      if (last != NULL)
        *last = info;
      if (info.gone || info.rewritten || (n == 0 && info.lost == 0 && !info.more))
        return total;
    }
}

static void
assert_lines (GPtrArray *got,
              GPtrArray *want)
{
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < got->len; i++)
    g_assert_cmpstr (got->pdata[i], ==, want->pdata[i]);
}

/* The stream through a pipe in pieces of a few sizes (a poll after each,
 * when nothing is whole yet too): the samples of the file-mode fixture,
 * once, in order, with their tracks and texts; the end of the stream is
 * `gone`.  LOST records after the first sample (two in a row: one gap of
 * their sum) and before the last: gaps exactly there. */
static void
test_pieces (void)
{
  g_autoptr(GBytes) file = fixture_file ();
  g_autoptr(GBytes) pbytes = cpel_test_perf_to_pipe (file, NULL);
  g_autoptr(GPtrArray) want = expected_lines (file);
  g_autoptr(GArray) ends = record_ends (pbytes);
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GPtrArray) want_lost = g_ptr_array_new ();
  const guint8 *p = g_bytes_get_data (pbytes, NULL);
  static const gsize pieces[] = { 7, 61, 4096 };
  guint samples = 0;

  /* the stream with its LOST records, and the lines it must give */
  g_byte_array_append (stream, p, (guint) g_array_index (ends, gsize, 0));
  for (guint i = 0; i + 1 < ends->len; i++)
    {
      gsize a = g_array_index (ends, gsize, i), b = g_array_index (ends, gsize, i + 1);

      if (is_sample_at (pbytes, a) && samples == N_SAMPLES - 1)
        {
          put_lost (stream, 3);
          g_ptr_array_add (want_lost, "lost 3");
        }
      g_byte_array_append (stream, p + a, (guint) (b - a));
      if (is_sample_at (pbytes, a))
        {
          g_ptr_array_add (want_lost, want->pdata[samples]);
          if (++samples == 1)
            {
              put_lost (stream, 7);
              put_lost (stream, 5);
              g_ptr_array_add (want_lost, "lost 12");
            }
        }
    }
  g_assert_cmpuint (samples, ==, N_SAMPLES);

  for (guint k = 0; k < G_N_ELEMENTS (pieces); k++)
    {
      int fds[2];
      g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(CpelPerfFollower) f = NULL;
      CpelPerfFollowInfo info = { 0 };

      g_assert_cmpint (pipe (fds), ==, 0);
      f = cpel_perf_follower_new_for_fd (fds[0]);
      for (gsize pos = 0; pos < stream->len; pos += pieces[k])
        {
          gsize n = MIN (pieces[k], stream->len - pos);

          g_assert_cmpint (write (fds[1], stream->data + pos, n), ==, (gssize) n);
          drain (f, got, &info);
          g_assert_false (info.gone);
        }
      close (fds[1]);
      drain (f, got, &info);
      g_assert_true (info.gone);
      assert_lines (got, want_lost);
      close (fds[0]);
    }
}

/* A pipe-mode file that grows (perf record -o - > FILE): what is whole is
 * read, the rest when it is there; rewritten (a new file in its place, or
 * cut shorter), read again from its start; removed: gone. */
static void
test_file (void)
{
  g_autoptr(GBytes) file = fixture_file ();
  g_autoptr(GBytes) pbytes = cpel_test_perf_to_pipe (file, NULL);
  g_autoptr(GPtrArray) want = expected_lines (file);
  g_autofree char *dir = g_dir_make_tmp ("cpel-perf-follow-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "live.perf.data", NULL);
  g_autofree char *tmp = g_build_filename (dir, "new.perf.data", NULL);
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfFollower) f = NULL;
  CpelLiveSourceKind kind;
  CpelPerfFollowInfo info;
  g_autoptr(GArray) ends = record_ends (pbytes);
  gsize len;
  const guint8 *p = g_bytes_get_data (pbytes, &len);
  gsize cut = sample_end (pbytes, ends, N_SAMPLES / 2) + 5;
  g_autofree char *resolved = NULL;

  /* the header and part of the records, cut inside one */
  g_assert_true (g_file_set_contents (path, (const char *) p, (gssize) cut, &error));
  resolved = cpel_live_source_resolve (path, &kind, &error);
  g_assert_no_error (error);
  g_assert_cmpint (kind, ==, CPEL_LIVE_SOURCE_PERF);
  f = cpel_perf_follower_new (path, &error);
  g_assert_no_error (error);
  drain (f, got, &info);
  g_assert_cmpuint (got->len, >, 0);
  g_assert_cmpuint (got->len, <, N_SAMPLES);
  {
    FILE *fp = fopen (path, "ab");

    g_assert_nonnull (fp);
    g_assert_cmpuint (fwrite (p + cut, 1, len - cut, fp), ==, len - cut);
    fclose (fp);
  }
  drain (f, got, &info);
  g_assert_false (info.gone);
  assert_lines (got, want);

  /* a new file in its place: the samples again from the start */
  g_assert_true (g_file_set_contents (tmp, (const char *) p, (gssize) len, &error));
  g_assert_cmpint (g_rename (tmp, path), ==, 0);
  g_ptr_array_set_size (got, 0);
  drain (f, got, &info);
  g_assert_true (info.rewritten);
  drain (f, got, &info);
  assert_lines (got, want);

  /* cut shorter in place: rewritten too */
  g_assert_cmpint (truncate (path, (off_t) cut), ==, 0);
  g_ptr_array_set_size (got, 0);
  drain (f, got, &info);
  g_assert_true (info.rewritten);

  g_assert_cmpint (g_unlink (path), ==, 0);
  drain (f, got, &info);
  g_assert_true (info.gone);
  g_rmdir (dir);

  /* a perf.data written to a file (not pipe mode) cannot be followed */
  {
    g_autofree char *fixture = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
    g_autofree char *none = cpel_live_source_resolve (fixture, &kind, &error);

    g_assert_null (none);
    g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "pipe mode"));
  }
}

/* Damage: a record shorter than its header, and a stream that ends inside
 * a record: errors that name the offset, after the samples before it. */
static void
test_damaged (void)
{
  g_autoptr(GBytes) file = fixture_file ();
  g_autoptr(GBytes) pbytes = cpel_test_perf_to_pipe (file, NULL);
  g_autoptr(GArray) ends = record_ends (pbytes);
  const guint8 *p = g_bytes_get_data (pbytes, NULL);
  gsize cut = sample_end (pbytes, ends, 19);
  guint before = 20;

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GByteArray) s = g_byte_array_new ();
      g_autoptr(CpelPerfFollower) f = NULL;
      g_autoptr(GError) error = NULL;
      CpelPerfFollowInfo info;
      gsize n = 0, got;
      int fds[2];

      g_byte_array_append (s, p, (guint) cut);
      if (k == 0)
        cpel_test_pipe_hdr (s, 9, 0, 4);   /* a SAMPLE of 4 bytes */
      else
        g_byte_array_append (s, p + cut, 11);   /* then the stream ends */
      g_assert_cmpint (pipe (fds), ==, 0);
      g_assert_cmpint (write (fds[1], s->data, s->len), ==, (gssize) s->len);
      close (fds[1]);
      f = cpel_perf_follower_new_for_fd (fds[0]);
      while ((got = cpel_perf_follower_poll (f, 4, &info, &error)) > 0 || info.more)
        n += got;
      g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, "offset"));
      g_assert_cmpuint (n, ==, before);   /* the samples before the damage */
      close (fds[0]);
    }
}

/* A pipe-mode file whose last record is a LOST_SAMPLES (perf writes them
 * when it ends): the gap is told once a read finds nothing more.  The
 * kernel counts a sample the ring had no room for in its LOST records and
 * in the LOST_SAMPLES count: 4 lost in LOST records, then LOST_SAMPLES of
 * 6, is a loss of 6, not 10. */
static void
test_trailing_gap (void)
{
  g_autoptr(GBytes) file = fixture_file ();
  g_autoptr(GBytes) pbytes = cpel_test_perf_to_pipe (file, NULL);
  g_autofree char *dir = g_dir_make_tmp ("cpel-perf-follow-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "live.perf.data", NULL);
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfFollower) f = NULL;
  CpelPerfFollowInfo info;

  g_byte_array_append (s, g_bytes_get_data (pbytes, NULL), (guint) g_bytes_get_size (pbytes));
  put_lost (s, 4);
  put_lost_samples (s, 6);
  g_assert_true (g_file_set_contents (path, (const char *) s->data, s->len, &error));
  f = cpel_perf_follower_new (path, &error);
  g_assert_no_error (error);
  drain (f, got, &info);
  drain (f, got, &info);   /* a read that finds nothing more */
  g_assert_cmpuint (got->len, ==, N_SAMPLES + 1);
  g_assert_cmpstr (got->pdata[N_SAMPLES], ==, "lost 6");
  g_unlink (path);
  g_rmdir (dir);
}

/* Written again in place from the start (`> FILE` once more) and already
 * longer than what was read: its first bytes changed, it is read again
 * from its start (not taken for damage at the old offset). */
static void
test_rewritten_in_place (void)
{
  g_autoptr(GBytes) file = fixture_file ();
  g_autoptr(GBytes) pbytes = cpel_test_perf_to_pipe (file, NULL);
  g_autoptr(GPtrArray) want = expected_lines (file);
  g_autofree char *first_path = cpel_test_fixture_file ("perf/gzip-callgraph.perf.data");
  g_autofree char *first_data = NULL;
  g_autoptr(GBytes) first = NULL;
  g_autoptr(GBytes) first_pipe = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-perf-follow-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "live.perf.data", NULL);
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfFollower) f = NULL;
  CpelPerfFollowInfo info;
  gsize len;
  FILE *fp;

  /* a short recording first (gzip with call chains), then the longer one */
  g_assert_true (g_file_get_contents (first_path, &first_data, &len, NULL));
  first = g_bytes_new_take (g_steal_pointer (&first_data), len);
  first_pipe = cpel_test_perf_to_pipe (first, NULL);
  g_assert_cmpuint (g_bytes_get_size (pbytes), >, g_bytes_get_size (first_pipe));
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (first_pipe, NULL),
                                      (gssize) g_bytes_get_size (first_pipe), &error));
  f = cpel_perf_follower_new (path, &error);
  g_assert_no_error (error);
  drain (f, got, &info);
  g_assert_cmpuint (got->len, >, 0);

  fp = fopen (path, "r+b");   /* the same file, written from its start */
  g_assert_nonnull (fp);
  g_assert_cmpuint (fwrite (g_bytes_get_data (pbytes, NULL), 1, g_bytes_get_size (pbytes), fp),
                    ==, g_bytes_get_size (pbytes));
  fclose (fp);
  g_ptr_array_set_size (got, 0);
  drain (f, got, &info);
  g_assert_true (info.rewritten);
  drain (f, got, &info);
  assert_lines (got, want);
  g_unlink (path);
  g_rmdir (dir);
}

/* Hostile: a tracing-data record after the header that claims 4 GiB: an
 * error once a record held exceeds its bound, not a buffer that grows
 * with the stream; every poll after an error says it again and hands out
 * nothing. */
static void
test_hostile_record (void)
{
  g_autoptr(GBytes) file = fixture_file ();
  g_autoptr(GBytes) pbytes = cpel_test_perf_to_pipe (file, NULL);
  g_autoptr(GArray) ends = record_ends (pbytes);
  const guint8 *p = g_bytes_get_data (pbytes, NULL);
  gsize cut = sample_end (pbytes, ends, 3);
  g_autoptr(GByteArray) junk = g_byte_array_new ();
  g_autoptr(CpelPerfFollower) f = NULL;
  g_autoptr(GError) error = NULL;
  CpelPerfFollowInfo info;
  guint32 extra = 0xfffffff0u;
  gsize written = 0, n = 0;
  int fds[2];

  g_assert_cmpint (pipe (fds), ==, 0);
  f = cpel_perf_follower_new_for_fd (fds[0]);
  g_byte_array_append (junk, p, (guint) cut);
  cpel_test_pipe_hdr (junk, 66, 0, 12);
  g_byte_array_append (junk, (const guint8 *) &extra, 4);
  g_byte_array_set_size (junk, cut + 16 + 4096);
  /* in pieces a pipe holds, each read before the next */
  for (gsize pos = 0; pos < junk->len && error == NULL; pos += 4096)
    {
      gsize m = MIN (4096, junk->len - pos);

      g_assert_cmpint (write (fds[1], junk->data + pos, m), ==, (gssize) m);
      n += cpel_perf_follower_poll (f, 64, &info, &error);
    }
  g_byte_array_set_size (junk, 4096);
  memset (junk->data, 0x5a, junk->len);
  while (error == NULL)
    {
      g_assert_cmpuint (written, <, 64u << 20);   /* bounded well before this */
      g_assert_cmpint (write (fds[1], junk->data, junk->len), ==, (gssize) junk->len);
      written += junk->len;
      while (error == NULL)
        {
          gsize got = cpel_perf_follower_poll (f, 64, &info, &error);

          n += got;
          if (got == 0 && !info.more)
            break;
        }
    }
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
  g_test_message ("%s (after %zu bytes)", error->message, written);
  g_assert_nonnull (strstr (error->message, "larger than"));
  g_assert_cmpuint (n, ==, 4);
  g_clear_error (&error);
  g_assert_cmpuint (cpel_perf_follower_poll (f, 64, &info, &error), ==, 0);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
  close (fds[1]);
  close (fds[0]);
}

/* The viewer's live capture on a growing pipe-mode file: every sample
 * kept, the capture made of them with the same texts; a LOST record is a
 * gap with perf's exact count. */
static void
test_live_file (void)
{
  g_autoptr(GBytes) file = fixture_file ();
  g_autoptr(GBytes) pbytes = cpel_test_perf_to_pipe (file, NULL);
  g_autoptr(GPtrArray) want = expected_lines (file);
  g_autoptr(GArray) ends = record_ends (pbytes);
  g_autofree char *dir = g_dir_make_tmp ("cpel-perf-live-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "live.perf.data", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelFile) cf = NULL;
  g_autoptr(GByteArray) more = g_byte_array_new ();
  g_autoptr(GArray) gaps = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  const guint8 *p = g_bytes_get_data (pbytes, NULL);
  gsize half = sample_end (pbytes, ends, N_SAMPLES / 2), len = g_bytes_get_size (pbytes);
  CpelLiveStatus status;
  guint64 first;

  g_assert_true (g_file_set_contents (path, (const char *) p, (gssize) half, &error));
  cap = cpel_live_capture_new (path, 0, &error);
  g_assert_no_error (error);
  first = cpel_live_capture_poll (cap);
  g_assert_cmpuint (first, >, 0);
  put_lost (more, 9);
  g_byte_array_append (more, p + half, (guint) (len - half));
  {
    FILE *fp = fopen (path, "ab");

    g_assert_nonnull (fp);
    g_assert_cmpuint (fwrite (more->data, 1, more->len, fp), ==, more->len);
    fclose (fp);
  }
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, N_SAMPLES - first);
  cpel_live_capture_get_status (cap, &status);
  g_assert_cmpuint (status.n_events, ==, N_SAMPLES);
  g_assert_cmpuint (status.n_lost, ==, 9);
  g_assert_true (status.lost_exact);
  gaps = cpel_live_capture_dup_gaps (cap);
  g_assert_cmpuint (gaps->len, ==, 1);
  g_assert_cmpuint (g_array_index (gaps, CpelLiveGap, 0).index, ==, first);
  g_assert_cmpuint (g_array_index (gaps, CpelLiveGap, 0).n_lost, ==, 9);

  cf = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (cf), ==, N_SAMPLES);
  /* every sample's text and type as the file-mode fixture has them */
  {
    g_autoptr(GHashTable) texts = g_hash_table_new (g_str_hash, g_str_equal);
    guint64 seen = 0;

    for (guint i = 0; i < want->len; i++)
      {
        const char *colon = strstr (want->pdata[i], ": ");

        g_hash_table_add (texts, (char *) colon + 2);
      }
    for (guint slot = 0; slot < cpel_file_get_n_tracks (cf); slot++)
      {
        g_assert_true (g_str_has_prefix (cpel_file_get_track_label (cf, slot), "CPU "));
        for (guint64 i = 0; i < cpel_file_get_track_n_events (cf, slot); i++)
          {
            CpelEvent ev;

            cpel_file_get_track_event (cf, slot, i, &ev);
            g_string_truncate (text, 0);
            cpel_file_append_datum (cf, &ev, text);
            g_assert_true (g_hash_table_contains (texts, text->str));
            seen++;
          }
      }
    g_assert_cmpuint (seen, ==, N_SAMPLES);
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* `-`: standard input, told a perf stream by its first bytes in the
 * worker's poll (nothing is read when the capture is made); its end is
 * `gone`, with every sample kept. */
static void
test_live_stdin (void)
{
  g_autoptr(GBytes) file = fixture_file ();
  g_autoptr(GBytes) pbytes = cpel_test_perf_to_pipe (file, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelLiveCapture) cap = NULL;
  g_autoptr(CpelFile) cf = NULL;
  CpelLiveStatus status;
  int fds[2], saved = dup (STDIN_FILENO);
  gsize len;
  const guint8 *p = g_bytes_get_data (pbytes, &len);
  guint64 total = 0;

  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (dup2 (fds[0], STDIN_FILENO), ==, STDIN_FILENO);
  close (fds[0]);
  cap = cpel_live_capture_new ("-", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, 0);   /* nothing written yet */
  g_assert_cmpint (write (fds[1], p, 10), ==, 10);   /* not enough to tell */
  g_assert_cmpuint (cpel_live_capture_poll (cap), ==, 0);
  for (gsize pos = 10; pos < len; pos += 4096)   /* a pipe holds 64 KiB: read between */
    {
      gsize n = MIN (4096, len - pos);

      g_assert_cmpint (write (fds[1], p + pos, n), ==, (gssize) n);
      total += cpel_live_capture_poll (cap);
    }
  close (fds[1]);
  for (guint i = 0; i < 1000; i++)   /* all is in the pipe: a few polls */
    {
      total += cpel_live_capture_poll (cap);
      cpel_live_capture_get_status (cap, &status);
      if (status.gone)
        break;
    }
  g_assert_true (status.gone);
  g_assert_cmpuint (total, ==, N_SAMPLES);
  g_assert_cmpuint (status.n_events, ==, N_SAMPLES);
  cf = cpel_live_capture_snapshot (cap, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (cf), ==, N_SAMPLES);
  g_assert_cmpint (dup2 (saved, STDIN_FILENO), ==, STDIN_FILENO);
  close (saved);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/perf/follow/pieces", test_pieces);
  g_test_add_func ("/core/import/perf/follow/file", test_file);
  g_test_add_func ("/core/import/perf/follow/damaged", test_damaged);
  g_test_add_func ("/core/import/perf/follow/trailing-gap", test_trailing_gap);
  g_test_add_func ("/core/import/perf/follow/rewritten-in-place", test_rewritten_in_place);
  g_test_add_func ("/core/import/perf/follow/hostile-record", test_hostile_record);
  g_test_add_func ("/core/live-capture/perf/file", test_live_file);
  g_test_add_func ("/core/live-capture/perf/stdin", test_live_stdin);
  return g_test_run ();
}
