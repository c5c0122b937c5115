/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-trace.c — CTF traces read with libbabeltrace2 (see the header) */
#include "cpel-ctf-trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <inttypes.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-ctf-check.h"
#include "cpel-ctf-trace-private.h"
#include "cpel-ctf-wire.h"
#include "cpel-error.h"

#define CTF_MAX_DEPTH        8          /* folder levels searched for traces */
#define CTF_MAX_WALK         8192       /* folder entries looked at for traces */
#define CTF_MAX_TRACES       4096
#define CTF_MAX_SIZE_ENTRIES 65536      /* folder entries looked at for a source's size */
#define CTF_MAX_TEXT         (G_GUINT64_CONSTANT (1) << 34)   /* 16 GiB of event text */
#define CTF_MAX_NAMES        (1u << 24) /* tracks, classes or notes */

/* The reader's limits: its address space, CPU time, and the wall-clock
 * time it may go without saying anything (CPEL_CTF_READER_TIMEOUT, in
 * seconds, overrides the last: tests shorten it). */
#define CTF_READER_MAX_MEMORY ((rlim_t) 1 << 30)
#define CTF_READER_MAX_CPU_S  3600
#define CTF_READER_TIMEOUT_S  8
/* The reader's resident memory, watched by the parent every
 * CTF_READER_POLL_MS: RLIMIT_AS is not set under AddressSanitizer (its
 * shadow is reserved address space), and a runaway allocation is stopped
 * this way there too, before the machine feels it. */
#define CTF_READER_POLL_MS    100

struct _CpelCtfTrace
{
  GArray      *events;        /* CpelCtfEvent */
  GString     *text;
  GPtrArray   *track_labels;
  GPtrArray   *class_names;
  GPtrArray   *trace_dirs;
  GPtrArray   *notes;
  guint64      discarded_events;
  guint64      discarded_packets;
  GArray      *discard_marks;  /* CpelCtfDiscardMark, one per 'X' record */
  gboolean     attached;       /* 'A': a live session is being read */
  char        *clock_name;
  guint64      clock_freq;
  gboolean     clock_unix;
};

/* ---- detection ------------------------------------------------------------ */

gboolean
cpel_ctf_sniff (const guint8 *data, gsize len)
{
  static const guint8 meta_le[4] = { 0x57, 0x1d, 0xd1, 0x75 }, meta_be[4] = { 0x75, 0xd1, 0x1d, 0x57 };
  static const guint8 pkt[4] = { 0xc1, 0x1f, 0xfc, 0xc1 };
  if (len >= 4 && (memcmp (data, meta_le, 4) == 0 || memcmp (data, meta_be, 4) == 0
                   || memcmp (data, pkt, 4) == 0))
    return TRUE;
  return len >= 10 && memcmp (data, "/* CTF 1.8", 10) == 0;
}

/* A regular file `metadata` in `dir` that starts as CTF metadata does, or
 * too short to tell (a damaged trace's); any other file of that name is not
 * a trace's. */
static gboolean
dir_has_metadata (const char *dir)
{
  g_autofree char *m = g_build_filename (dir, "metadata", NULL);
  if (!g_file_test (m, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  guint8 head[16];
  FILE *f = g_fopen (m, "rb");
  if (f == NULL)
    return FALSE;
  gsize n = fread (head, 1, sizeof head, f);
  fclose (f);
  return n < 4 || cpel_ctf_sniff (head, n);
}

/* The trace folders in `dir` and below: CTF_MAX_DEPTH levels, *budget
 * folder entries looked at. */
static void
find_traces (const char *dir, guint depth, guint *budget, GPtrArray *out)
{
  if (out->len >= CTF_MAX_TRACES)
    return;
  if (dir_has_metadata (dir))
    {
      g_ptr_array_add (out, g_strdup (dir));
      return;
    }
  if (depth >= CTF_MAX_DEPTH)
    return;
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  const char *name;
  while (*budget > 0 && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (dir, name, NULL);
      GStatBuf st;
      (*budget)--;
      /* never follow symbolic links: no loops */
      if (g_lstat (sub, &st) == 0 && S_ISDIR (st.st_mode))
        find_traces (sub, depth + 1, budget, out);
    }
}

static gint
cmp_str (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

GPtrArray *
cpel_ctf_find_trace_dirs (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_free);

  gboolean folder = g_file_test (path, G_FILE_TEST_IS_DIR);
  guint budget = CTF_MAX_WALK;
  if (folder)
    find_traces (path, 0, &budget, out);
  else
    {
      /* a trace's metadata or any stream file: the folder holding it */
      g_autofree char *dir = g_path_get_dirname (path);
      if (dir_has_metadata (dir))
        g_ptr_array_add (out, g_steal_pointer (&dir));
    }
  if (out->len == 0)
    {
      if (folder)
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                     _("%s: no CTF trace found in this folder (looked for a “metadata” file "
                       "%u levels down, at %u entries)"), path, CTF_MAX_DEPTH, CTF_MAX_WALK);
      else
        g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                     _("%s: no CTF trace (a folder holding a “metadata” file) found there"),
                     path);
      return NULL;
    }
  g_ptr_array_sort (out, cmp_str);
  return g_steal_pointer (&out);
}

/* Adds the sizes of the regular files in `dir` and its sub-folders (the
 * trace's metadata, streams, LTTng's index/) to *total: symbolic links
 * neither counted nor followed, CTF_MAX_DEPTH levels, *budget entries. */
static void
add_tree_bytes (const char *dir, guint depth, guint *budget, guint64 *total)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && *budget > 0 && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (dir, name, NULL);
      GStatBuf st;

      (*budget)--;
      if (g_lstat (sub, &st) != 0)
        continue;
      if (S_ISREG (st.st_mode))
        *total += (guint64) st.st_size;
      else if (S_ISDIR (st.st_mode) && depth + 1 < CTF_MAX_DEPTH)
        add_tree_bytes (sub, depth + 1, budget, total);
    }
}

guint64
cpel_ctf_source_bytes (const char *path)
{
  g_autoptr(GPtrArray) dirs = NULL;
  guint budget = CTF_MAX_SIZE_ENTRIES;
  guint64 total = 0;

  g_return_val_if_fail (path != NULL, 0);
  dirs = cpel_ctf_find_trace_dirs (path, NULL);
  for (guint i = 0; dirs != NULL && i < dirs->len; i++)
    add_tree_bytes (dirs->pdata[i], 0, &budget, &total);
  return total;
}

gboolean
cpel_ctf_path_is_trace (const char *path)
{
  g_autoptr(GPtrArray) dirs = cpel_ctf_find_trace_dirs (path, NULL);
  return dirs != NULL;
}

/* ---- the reader, a child process ------------------------------------------ */

/* The reader program: $CPEL_CTF_READER; else, for a program run from the
 * build tree, the one built beside it; else the installed one. */
static char *
reader_path (void)
{
  const char *env = g_getenv ("CPEL_CTF_READER");
  if (env != NULL && *env != '\0')
    return g_strdup (env);
#ifdef CPEL_CTF_READER_BUILD
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  if (exe != NULL && g_str_has_prefix (exe, CPEL_BUILD_ROOT "/")
      && g_file_test (CPEL_CTF_READER_BUILD, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (CPEL_CTF_READER_BUILD);
#endif
  return g_strdup (CPEL_CTF_READER_INSTALLED);
}

/* The watchdog: the reader is stopped when it says nothing for this long. */
gint64
cpel_ctf_reader_timeout_us (void)
{
  const char *env = g_getenv ("CPEL_CTF_READER_TIMEOUT");
  if (env != NULL && *env != '\0')
    {
      double s = g_ascii_strtod (env, NULL);
      if (s > 0 && s < 86400)
        return (gint64) (s * G_USEC_PER_SEC);
    }
  return CTF_READER_TIMEOUT_S * G_USEC_PER_SEC;
}

/* data: non-NULL for a reader that follows a live session, which runs as
 * long as the session does: no CPU time limit then */
static void
reader_child_setup (gpointer data)
{
  struct rlimit mem = { CTF_READER_MAX_MEMORY, CTF_READER_MAX_MEMORY };
  struct rlimit cpu = { CTF_READER_MAX_CPU_S, CTF_READER_MAX_CPU_S + 5 };
  struct rlimit core = { 0, 0 };
  (void) mem;
#ifndef CPEL_CTF_READER_NO_AS_LIMIT
  setrlimit (RLIMIT_AS, &mem);
#endif
  if (data == NULL)
    setrlimit (RLIMIT_CPU, &cpu);
  setrlimit (RLIMIT_CORE, &core);
}

gboolean
cpel_ctf_reader_spawn (const char *const *args,
                       gboolean           live,
                       GPid              *pid,
                       int               *out_fd,
                       int               *err_fd,
                       GError           **error)
{
  g_autofree char *reader = reader_path ();
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) spawn_error = NULL;

  g_ptr_array_add (argv, reader);
  if (live)
    g_ptr_array_add (argv, (char *) "--live");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_async_with_pipes (NULL, (char **) argv->pdata, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CLOEXEC_PIPES,
                                 reader_child_setup, live ? GINT_TO_POINTER (1) : NULL,
                                 pid, NULL, out_fd, err_fd, &spawn_error))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO,
                   _("CTF: the trace reader %s cannot be started: %s"), reader,
                   spawn_error->message);
      return FALSE;
    }
  return TRUE;
}

/* The reader's resident memory in bytes; 0 when it cannot be told. */
guint64
cpel_ctf_reader_rss (GPid pid)
{
  char path[64], text[128];
  guint64 size = 0, resident = 0;
  g_snprintf (path, sizeof path, "/proc/%d/statm", (int) pid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, text, sizeof text - 1);
  close (fd);
  if (n <= 0)
    return 0;
  text[n] = '\0';
  if (sscanf (text, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &size, &resident) != 2)
    return 0;
  return resident * (guint64) sysconf (_SC_PAGESIZE);
}

static const char *
signal_name (int sig)
{
  switch (sig)
    {
    case SIGABRT: return "SIGABRT";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGXCPU: return "SIGXCPU";
    default: return NULL;
    }
}

typedef struct _CpelCtfWireIn
{
  CpelCtfTrace     *trace;
  GByteArray       *in;
  gsize             in_off;
  GString          *err_tail;    /* the end of the reader's standard error */
  gboolean          magic_seen;
  gboolean          done;        /* 'Z' or 'R' received */
  GError           *failure;     /* the reader's own error ('R') */
  CpelProgressFunc  progress;
  gpointer          progress_data;
} ReaderIn;

static gboolean
wire_fail (GError **error, const char *what)
{
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
               _("This CTF trace is damaged (the trace reader stopped: %s)"), what);
  return FALSE;
}

static char *
wire_string (const guint8 *p, guint32 len)
{
  if (g_utf8_validate ((const char *) p, len, NULL))
    return g_strndup ((const char *) p, len);
  return g_utf8_make_valid ((const char *) p, len);
}

/* One record from the reader, checked: every length, count and index. */
static gboolean
wire_record (ReaderIn *r, char type, const guint8 *p, guint32 len, GError **error)
{
  CpelCtfTrace *t = r->trace;
  if (r->done)
    return wire_fail (error, _("it wrote past its end"));
  switch (type)
    {
    case 'H':
      return TRUE;
    case 'P':
      if (len != 4)
        break;
      {
        guint32 m;
        memcpy (&m, p, 4);
        if (r->progress != NULL && m <= 1000000)
          r->progress ((double) m / 1e6, r->progress_data);
      }
      return TRUE;
    case 'T':
    case 'C':
    case 'N':
      if (len > CPEL_CTF_WIRE_MAX_NAME)
        break;
      {
        GPtrArray *a = type == 'T' ? t->track_labels : type == 'C' ? t->class_names : t->notes;
        if (a->len >= CTF_MAX_NAMES)
          return wire_fail (error, _("too many tracks or event classes"));
        g_ptr_array_add (a, wire_string (p, len));
      }
      return TRUE;
    case 'E':
      {
        guint32 n;
        if (len < 4)
          break;
        memcpy (&n, p, 4);
        if (n == 0 || (guint64) n * CPEL_CTF_WIRE_EVENT_SIZE > len - 4)
          break;
        const guint8 *text = p + 4 + (gsize) n * CPEL_CTF_WIRE_EVENT_SIZE;
        guint64 text_len = len - 4 - (guint64) n * CPEL_CTF_WIRE_EVENT_SIZE, used = 0;
        guint64 base = t->text->len;
        guint first = t->events->len;
        if (base + text_len > CTF_MAX_TEXT)
          return wire_fail (error, _("the events' text is too large"));
        /* the events of a record that does not hold together are not kept:
         * a follower hands out what came before a failure */
        for (guint32 i = 0; i < n; i++)
          {
            const guint8 *q = p + 4 + (gsize) i * CPEL_CTF_WIRE_EVENT_SIZE;
            CpelCtfEvent e;
            memcpy (&e.ns, q, 8);
            memcpy (&e.track, q + 8, 4);
            memcpy (&e.cls, q + 12, 4);
            memcpy (&e.datum, q + 16, 4);
            memcpy (&e.text_len, q + 20, 4);
            if (e.track >= t->track_labels->len || e.cls >= t->class_names->len
                || e.text_len > text_len - used)
              {
                g_array_set_size (t->events, first);
                return wire_fail (error, _("it wrote an event that does not hold together"));
              }
            e.text_off = base + used;
            used += e.text_len;
            g_array_append_val (t->events, e);
          }
        if (used != text_len)
          {
            g_array_set_size (t->events, first);
            break;
          }
        g_string_append_len (t->text, (const char *) text, (gssize) text_len);
      }
      return TRUE;
    case 'K':
      if (len < 12 || len > 12 + CPEL_CTF_WIRE_MAX_NAME || t->clock_name != NULL)
        break;
      {
        guint32 unix_epoch;
        memcpy (&t->clock_freq, p, 8);
        memcpy (&unix_epoch, p + 8, 4);
        t->clock_unix = unix_epoch != 0;
        t->clock_name = wire_string (p + 12, len - 12);
      }
      return TRUE;
    case 'X':
      if (len != 16)
        break;
      memcpy (&t->discarded_events, p, 8);
      memcpy (&t->discarded_packets, p + 8, 8);
      if (t->discard_marks->len >= CTF_MAX_NAMES)
        return wire_fail (error, _("it told too many discarded ranges"));
      {
        CpelCtfDiscardMark m = { t->events->len, t->discarded_events, t->discarded_packets };
        g_array_append_val (t->discard_marks, m);
      }
      return TRUE;
    case 'R':
      if (len < 4 || len > 4 + CPEL_CTF_WIRE_MAX_NAME)
        break;
      {
        guint32 code;
        memcpy (&code, p, 4);
        g_autofree char *msg = wire_string (p + 4, len - 4);
        if (code > CPEL_ERROR_SOURCE_UNSUPPORTED)
          code = CPEL_ERROR_SOURCE_DAMAGED;
        r->failure = g_error_new_literal (CPEL_ERROR, (gint) code, msg);
        r->done = TRUE;
      }
      return TRUE;
    case 'Z':
      if (len != 0)
        break;
      r->done = TRUE;
      return TRUE;
    case 'A':
      if (len != 0)
        break;
      t->attached = TRUE;
      return TRUE;
    default:
      break;
    }
  return wire_fail (error, _("it wrote a record that does not hold together"));
}

/* Consumes the complete records in r->in. */
static gboolean
wire_parse (ReaderIn *r, GError **error)
{
  if (!r->magic_seen)
    {
      if (r->in->len < 8)
        return TRUE;
      if (memcmp (r->in->data, CPEL_CTF_WIRE_MAGIC, 8) != 0)
        return wire_fail (error, _("it is not the reader this program expects"));
      r->magic_seen = TRUE;
      r->in_off = 8;
    }
  while (r->in->len - r->in_off >= 8)
    {
      const guint8 *h = r->in->data + r->in_off;
      guint32 len;
      memcpy (&len, h + 4, 4);
      if (h[1] != 0 || h[2] != 0 || h[3] != 0 || len > CPEL_CTF_WIRE_MAX_RECORD)
        return wire_fail (error, _("it wrote a record that does not hold together"));
      if (r->in->len - r->in_off - 8 < len)
        break;
      if (!wire_record (r, (char) h[0], h + 8, len, error))
        return FALSE;
      r->in_off += 8 + (gsize) len;
    }
  if (r->in_off > 0 && r->in_off >= r->in->len / 2)
    {
      g_byte_array_remove_range (r->in, 0, (guint) r->in_off);
      r->in_off = 0;
    }
  return TRUE;
}

CpelCtfTrace *
cpel_ctf_trace_new_empty (void)
{
  CpelCtfTrace *self = g_new0 (CpelCtfTrace, 1);
  self->events = g_array_new (FALSE, FALSE, sizeof (CpelCtfEvent));
  self->text = g_string_new (NULL);
  self->track_labels = g_ptr_array_new_with_free_func (g_free);
  self->class_names = g_ptr_array_new_with_free_func (g_free);
  self->trace_dirs = g_ptr_array_new_with_free_func (g_free);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  self->discard_marks = g_array_new (FALSE, FALSE, sizeof (CpelCtfDiscardMark));
  return self;
}

void
cpel_ctf_trace_drain (CpelCtfTrace *self)
{
  g_return_if_fail (self != NULL);
  g_array_set_size (self->events, 0);
  g_string_truncate (self->text, 0);
  g_ptr_array_set_size (self->notes, 0);
  g_array_set_size (self->discard_marks, 0);
}

gboolean
cpel_ctf_trace_is_attached (CpelCtfTrace *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->attached;
}

GArray *
cpel_ctf_trace_get_discard_marks (CpelCtfTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->discard_marks;
}

CpelCtfWireIn *
cpel_ctf_wire_in_new (CpelCtfTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  CpelCtfWireIn *r = g_new0 (CpelCtfWireIn, 1);
  r->trace = trace;
  r->in = g_byte_array_new ();
  r->err_tail = g_string_new (NULL);
  return r;
}

void
cpel_ctf_wire_in_free (CpelCtfWireIn *r)
{
  if (r == NULL)
    return;
  g_byte_array_unref (r->in);
  g_string_free (r->err_tail, TRUE);
  g_clear_error (&r->failure);
  g_free (r);
}

gboolean
cpel_ctf_wire_in_feed (CpelCtfWireIn *r, const guint8 *data, gsize len, GError **error)
{
  g_return_val_if_fail (r != NULL, FALSE);
  g_byte_array_append (r->in, data, (guint) len);
  return wire_parse (r, error);
}

gboolean
cpel_ctf_wire_in_is_done (CpelCtfWireIn *r)
{
  g_return_val_if_fail (r != NULL, FALSE);
  return r->done;
}

GError *
cpel_ctf_wire_in_take_failure (CpelCtfWireIn *r)
{
  g_return_val_if_fail (r != NULL, NULL);
  return g_steal_pointer (&r->failure);
}

/* Why the reader ended without its last record: by its exit status and
 * the end of what it wrote to its standard error. */
char *
cpel_ctf_reader_exit_reason (int status, const char *err_tail)
{
  int sig = WIFSIGNALED (status) ? WTERMSIG (status) : 0;
  if (strstr (err_tail, "failed to allocate") != NULL
      || strstr (err_tail, "Cannot allocate memory") != NULL
      || strstr (err_tail, "out of memory") != NULL
      /* AddressSanitizer's allocator, which has no RLIMIT_AS */
      || strstr (err_tail, "allocation-size-too-big") != NULL)
    return g_strdup_printf (_("memory limit of %u MiB"), (guint) (CTF_READER_MAX_MEMORY >> 20));
  if (sig == SIGXCPU)
    return g_strdup_printf (_("CPU time limit of %u s"), (guint) CTF_READER_MAX_CPU_S);
  if (sig != 0 && signal_name (sig) != NULL)
    return g_strdup_printf (_("killed by signal %s"), signal_name (sig));
  if (sig != 0)
    return g_strdup_printf (_("killed by signal %d"), sig);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 127)
    {
      g_autofree char *reader = reader_path ();
      return g_strdup_printf (_("%s cannot be run"), reader);
    }
  return g_strdup_printf (_("exit status %d"), WIFEXITED (status) ? WEXITSTATUS (status) : -1);
}

CpelCtfTrace *
cpel_ctf_trace_new_from_wire (const guint8 *data, gsize len, GError **error)
{
  g_return_val_if_fail (data != NULL || len == 0, NULL);

  g_autoptr(CpelCtfTrace) self = cpel_ctf_trace_new_empty ();

  ReaderIn r = { 0 };
  r.trace = self;
  r.in = g_byte_array_new ();
  gboolean ok = TRUE;
  /* in pieces, as from the pipe */
  for (gsize off = 0; ok && off < len; off += 4096)
    {
      g_byte_array_append (r.in, data + off, (guint) MIN (4096, len - off));
      ok = wire_parse (&r, error);
    }
  g_byte_array_unref (r.in);
  if (ok && r.failure != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&r.failure));
      ok = FALSE;
    }
  else if (ok && !r.done)
    ok = wire_fail (error, _("it wrote past its end"));
  g_clear_error (&r.failure);
  return ok ? g_steal_pointer (&self) : NULL;
}

/* Reads the traces `dirs` in a child process (see cpel-ctf-wire.h). */
static gboolean
read_in_child (CpelCtfTrace *self, GPtrArray *dirs, GCancellable *cancellable,
               CpelProgressFunc progress, gpointer progress_data, GError **error)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  for (guint i = 0; i < dirs->len; i++)
    g_ptr_array_add (args, dirs->pdata[i]);
  g_ptr_array_add (args, NULL);

  GPid pid;
  int out_fd = -1, err_fd = -1;
  if (!cpel_ctf_reader_spawn ((const char *const *) args->pdata, FALSE, &pid, &out_fd, &err_fd,
                              error))
    return FALSE;

  ReaderIn r = { 0 };
  r.trace = self;
  r.in = g_byte_array_new ();
  r.err_tail = g_string_new (NULL);
  r.progress = progress;
  r.progress_data = progress_data;

  GPollFD fds[3] = { { out_fd, G_IO_IN, 0 }, { err_fd, G_IO_IN, 0 }, { -1, G_IO_IN, 0 } };
  gboolean have_cancel = cancellable != NULL && g_cancellable_make_pollfd (cancellable, &fds[2]);
  gint64 timeout = cpel_ctf_reader_timeout_us ();
  gint64 last = g_get_monotonic_time ();
  g_autofree char *stopped = NULL;     /* why the parent stopped the reader */
  gboolean cancelled = FALSE, ok = TRUE;
  GError *local = NULL;
  guint8 buf[65536];

  while (out_fd >= 0 || err_fd >= 0)
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          cancelled = TRUE;
          break;
        }
      gint64 now = g_get_monotonic_time ();
      if (out_fd >= 0 && cpel_ctf_reader_rss (pid) > CPEL_CTF_READER_MAX_RSS)
        {
          stopped = g_strdup_printf (_("memory limit of %u MiB"),
                                     (guint) (CPEL_CTF_READER_MAX_RSS >> 20));
          break;
        }
      fds[0].fd = out_fd;
      fds[1].fd = err_fd;
      fds[0].revents = fds[1].revents = fds[2].revents = 0;
      gint wait_ms = out_fd >= 0 ? (gint) CLAMP ((timeout - (now - last)) / 1000 + 1,
                                                 0, CTF_READER_POLL_MS) : 1000;
      if (g_poll (fds, have_cancel ? 3 : 2, wait_ms) < 0 && errno != EINTR)
        break;
      /* silent for the timeout: judged after a poll that found nothing to
       * read, so that a parent that was not scheduled for a while (a loaded
       * machine) does not take its own delay for the reader's */
      if (out_fd >= 0 && fds[0].revents == 0 && g_get_monotonic_time () - last >= timeout)
        {
          /* (a reader that has said its last record and lingers — the leak
           * check of a sanitizer build — is stopped without blame) */
          if (!r.done)
            stopped = g_strdup_printf (_("no progress for %g s"),
                                       (double) timeout / G_USEC_PER_SEC);
          break;
        }
      if (fds[1].revents != 0)
        {
          gssize n = read (err_fd, buf, sizeof buf);
          if (n > 0)
            {
              g_string_append_len (r.err_tail, (const char *) buf, n);
              if (r.err_tail->len > 4096)
                g_string_erase (r.err_tail, 0, (gssize) r.err_tail->len - 4096);
            }
          else if (n == 0 || errno != EINTR)
            {
              g_close (err_fd, NULL);
              err_fd = -1;
            }
        }
      if (fds[0].revents != 0)
        {
          gssize n = read (out_fd, buf, sizeof buf);
          if (n > 0)
            {
              last = g_get_monotonic_time ();
              g_byte_array_append (r.in, buf, (guint) n);
              if (!wire_parse (&r, &local))
                {
                  ok = FALSE;
                  break;
                }
            }
          else if (n == 0 || errno != EINTR)
            {
              g_close (out_fd, NULL);
              out_fd = -1;
            }
        }
    }
  if (have_cancel)
    g_cancellable_release_fd (cancellable);

  /* a reader still running is stopped; then its status */
  int status = 0;
  if (cancelled || stopped != NULL || !ok || out_fd >= 0)
    kill (pid, SIGKILL);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (pid);
  if (out_fd >= 0)
    g_close (out_fd, NULL);
  if (err_fd >= 0)
    g_close (err_fd, NULL);

  if (cancelled)
    {
      g_clear_error (&local);
      local = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
    }
  else if (local == NULL && stopped != NULL)
    wire_fail (&local, stopped);
  else if (local == NULL && r.failure != NULL)
    local = g_steal_pointer (&r.failure);
  else if (local == NULL && !r.done)
    {
      g_autofree char *why = cpel_ctf_reader_exit_reason (status, r.err_tail->str);
      wire_fail (&local, why);
    }
  g_byte_array_unref (r.in);
  g_string_free (r.err_tail, TRUE);
  g_clear_error (&r.failure);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

CpelCtfTrace *
cpel_ctf_trace_read (const char       *path,
                     GCancellable     *cancellable,
                     CpelProgressFunc  progress,
                     gpointer          progress_data,
                     GError          **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  g_autoptr(GPtrArray) dirs = cpel_ctf_find_trace_dirs (path, error);
  if (dirs == NULL)
    return NULL;
  /* CPEL_CTF_SKIP_CHECKS: the tests hand damaged traces to the reader */
  for (guint i = 0; g_getenv ("CPEL_CTF_SKIP_CHECKS") == NULL && i < dirs->len; i++)
    if (!cpel_ctf_check_trace_dir (dirs->pdata[i], error))
      return NULL;

  g_autoptr(CpelCtfTrace) self = cpel_ctf_trace_new_empty ();
  g_ptr_array_unref (self->trace_dirs);
  self->trace_dirs = g_ptr_array_ref (dirs);

  if (!read_in_child (self, dirs, cancellable, progress, progress_data, error))
    return NULL;
  if (progress != NULL)
    progress (1.0, progress_data);
  return g_steal_pointer (&self);
}

void
cpel_ctf_trace_free (CpelCtfTrace *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->events, g_array_unref);
  if (self->text != NULL)
    g_string_free (self->text, TRUE);
  g_clear_pointer (&self->track_labels, g_ptr_array_unref);
  g_clear_pointer (&self->class_names, g_ptr_array_unref);
  g_clear_pointer (&self->discard_marks, g_array_unref);
  g_clear_pointer (&self->trace_dirs, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_free (self->clock_name);
  g_free (self);
}

guint64
cpel_ctf_trace_get_n_events (CpelCtfTrace *self)
{
  return self->events->len;
}

const CpelCtfEvent *
cpel_ctf_trace_get_events (CpelCtfTrace *self)
{
  return (const CpelCtfEvent *) self->events->data;
}

const char *
cpel_ctf_trace_get_text (CpelCtfTrace *self, const CpelCtfEvent *event)
{
  return self->text->str + event->text_off;
}

guint
cpel_ctf_trace_get_n_tracks (CpelCtfTrace *self)
{
  return self->track_labels->len;
}

const char *
cpel_ctf_trace_get_track_label (CpelCtfTrace *self, guint track)
{
  g_return_val_if_fail (track < self->track_labels->len, NULL);
  return self->track_labels->pdata[track];
}

guint
cpel_ctf_trace_get_n_classes (CpelCtfTrace *self)
{
  return self->class_names->len;
}

const char *
cpel_ctf_trace_get_class_name (CpelCtfTrace *self, guint cls)
{
  g_return_val_if_fail (cls < self->class_names->len, NULL);
  return self->class_names->pdata[cls];
}

guint64
cpel_ctf_trace_get_discarded_events (CpelCtfTrace *self)
{
  return self->discarded_events;
}

guint64
cpel_ctf_trace_get_discarded_packets (CpelCtfTrace *self)
{
  return self->discarded_packets;
}

GPtrArray *
cpel_ctf_trace_get_trace_dirs (CpelCtfTrace *self)
{
  return self->trace_dirs;
}

GPtrArray *
cpel_ctf_trace_get_notes (CpelCtfTrace *self)
{
  return self->notes;
}

const char *
cpel_ctf_trace_get_clock_name (CpelCtfTrace *self)
{
  return self->clock_name;
}

guint64
cpel_ctf_trace_get_clock_frequency (CpelCtfTrace *self)
{
  return self->clock_freq;
}

gboolean
cpel_ctf_trace_get_clock_is_unix_epoch (CpelCtfTrace *self)
{
  return self->clock_unix;
}
