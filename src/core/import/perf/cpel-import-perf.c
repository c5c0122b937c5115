/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import-perf.c — Linux perf.data (perf record) as an event log
 *
 * Read by cpel-perf-data.c.  Samples with a CPU field (system-wide
 * recordings, --sample-cpu) go on one track per CPU (`CPU n`), the others on
 * one track per thread (`comm [tid]`, the name from the COMM records);
 * event = the event's name as perf script prints it; text = a tracepoint's
 * fields as perf script prints them, else `pid/tid ip sym+0xoff (dso)` as
 * perf script names the address (cpel-perf-symbols.c: kallsyms of the
 * recording's kernel, the mapped binaries' symbols); datum = the first
 * integer field (sched_switch: next_pid), else the tid; time = the sample's
 * time in ns (the loader counts from the earliest).  LOST and LOST_SAMPLES
 * records are counted (the larger of their sums: the kernel counts a
 * sample lost in the ring in both).  Each sched_switch also marks, on the threads'
 * tracks, when they ran: `sched_switch: in` on the next thread's track and
 * `sched_switch: out` on the previous one's (datum: the CPU; text `CPU n,
 * prev_state=S`, the state as one letter: R, R+, S, D, T, t, X, Z, P, I or
 * ? for another), and on the CPU's track `sched_switch: next` (text: the
 * next thread, `comm [tid]`).  A wake-up (sched_waking, sched_wakeup,
 * sched_wakeup_new) marks the woken thread's track with `NAME: woken`
 * (datum: the waker's tid; text `waker="comm [tid]", CPU n`).  The built-in
 * state rules (cpel-span-rules.c) turn these into thread states and the
 * threads each CPU ran.
 */
#include "cpel-import.h"

#include <string.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <sys/utsname.h>

#include "cpel-error.h"
#include "cpel-perf-data.h"
#include "cpel-perf-symbols.h"

/* Track keys: CPU n is n, thread t is THREAD_KEY | t; track ids are given
 * in key order (CPUs first, then threads by tid), counting from 0. */
#define THREAD_KEY 0x40000000u

typedef struct
{
  char    *comm;
  guint64  time;         /* of the COMM record that named it */
  guint32  parent;       /* FORK: the tid it was forked from (its name until a COMM) */
  gboolean has_parent;
} Thread;

static void
thread_free (gpointer p)
{
  Thread *t = p;
  g_free (t->comm);
  g_free (t);
}

typedef struct
{
  CpelPerfData      *pd;
  CpelImportBuilder *b;
  GHashTable        *threads;     /* tid -> Thread */
  GHashTable        *tracks;      /* track key -> track id + 1 (first pass: 0) */
  guint64            n_samples;
  guint64            n_switch_marks;  /* switch in / out events on thread tracks */
  guint              switch_attr;     /* the sched:sched_switch attr, or G_MAXUINT */
  guint              wake_attr[3];    /* sched_waking, sched_wakeup, sched_wakeup_new */
  guint64            n_wake_marks[3]; /* wake-up marks on the woken threads' tracks */
  guint64            n_cpu_marks;     /* sched_switch: next, on CPU tracks */
  GString           *comm;
  /* direct-mapped cache of `tracks` (key -> value + 1): a hash lookup per
   * sample was a tenth of the import */
  guint32            cache_key[1024];
  guint32            cache_val[1024];
  guint64            lost;            /* MAX (lost_records, lost_samples) */
  guint64            lost_records;    /* the sums of the LOST and LOST_SAMPLES records */
  guint64            lost_samples;
  guint64            done;
  GString           *text;
  guint64            data_size;
  CpelPerfSymbols   *syms;
  guint64            n_kernel_ips;    /* kernel-mode samples with an IP */
  guint64            kernel_text;     /* _text when recorded (kernel MMAP pgoff), or 0 */
  const char        *kernel_ref;      /* "_text" / "_stext" */
  guint64            first_time;     /* the earliest sample's time (has_first) */
  gboolean           has_first;
  GArray            *chain;           /* guint32 frame numbers of the sample's call chain */
  /* direct-mapped caches of frame numbers: kernel frames by address (their
   * names do not change), user frames by address and the names found (the
   * strings the symbols keep for the import) */
  struct { guint64 ip; guint32 frame; } *kframes;                     /* 4096 */
  struct { guint64 ip; const char *sym, *dso; guint32 frame; } *uframes; /* 4096 */
} PerfImport;

/* Call chain context markers (include/uapi/linux/perf_event.h): the
 * frames after one are in that mode; any value from PERF_CONTEXT_MAX up
 * is a marker, not an address. */
#define CONTEXT_HV      ((guint64) -32)
#define CONTEXT_KERNEL  ((guint64) -128)
#define CONTEXT_USER    ((guint64) -512)
#define CONTEXT_MAX     ((guint64) -4095)

static inline guint64
chain_ip (const CpelPerfRecord *r, guint64 i)
{
  guint64 v;
  memcpy (&v, r->callchain + i * 8, 8);   /* the reader refuses other-endian files */
  return v;
}

/* The sample's call chain as perf script prints it (callee first; the
 * markers set the mode of the frames after them, user mode before any, as
 * perf does): each address named like the sample's own.  Its length is
 * bounded by the record's (the reader checked it). */
static void
add_chain (PerfImport *pi, const CpelPerfRecord *r)
{
  guint mode = CPEL_PERF_MISC_USER;
  guint64 time = r->has_time ? r->time : 0;

  g_array_set_size (pi->chain, 0);
  for (guint64 i = 0; i < r->callchain_nr; i++)
    {
      guint64 ip = chain_ip (r, i), off = 0;
      const char *sym = NULL, *dso = NULL;

      if (ip >= CONTEXT_MAX)
        {
          mode = ip == CONTEXT_KERNEL ? CPEL_PERF_MISC_KERNEL
                 : ip == CONTEXT_USER ? CPEL_PERF_MISC_USER : 0;   /* hypervisor, guest */
          continue;
        }
      guint slot = (guint) ((ip ^ (ip >> 12) ^ (ip >> 24)) & 4095);
      guint32 f;

      if (mode == CPEL_PERF_MISC_KERNEL && pi->kframes[slot].frame != 0
          && pi->kframes[slot].ip == ip)
        f = pi->kframes[slot].frame - 1;
      else
        {
          if (mode == CPEL_PERF_MISC_KERNEL || mode == CPEL_PERF_MISC_USER)
            {
              gboolean kernel = mode == CPEL_PERF_MISC_KERNEL;
              sym = cpel_perf_symbols_lookup_frame (pi->syms, r->pid, kernel, ip, time, &off,
                                                    &dso);
              if (dso == NULL && kernel)
                dso = "[kernel.kallsyms]";   /* as perf script: even without its symbols */
            }
          if (mode != CPEL_PERF_MISC_KERNEL && pi->uframes[slot].frame != 0
              && pi->uframes[slot].ip == ip && pi->uframes[slot].sym == sym
              && pi->uframes[slot].dso == dso)
            f = pi->uframes[slot].frame - 1;
          else
            {
              f = cpel_import_builder_add_frame (pi->b, ip, sym, dso);
              if (f == G_MAXUINT32)
                return;   /* the section is full */
              if (mode == CPEL_PERF_MISC_KERNEL)
                {
                  pi->kframes[slot].ip = ip;
                  pi->kframes[slot].frame = f + 1;
                }
              else
                {
                  pi->uframes[slot].ip = ip;
                  pi->uframes[slot].sym = sym;
                  pi->uframes[slot].dso = dso;
                  pi->uframes[slot].frame = f + 1;
                }
            }
        }
      g_array_append_val (pi->chain, f);
    }
  cpel_import_builder_set_chain (pi->b, (const guint32 *) (gpointer) pi->chain->data,
                                 pi->chain->len);
}

/* TRUE when the chain has kernel frames. */
static gboolean
chain_has_kernel (const CpelPerfRecord *r)
{
  for (guint64 i = 0; i < r->callchain_nr; i++)
    if (chain_ip (r, i) == CONTEXT_KERNEL)
      return TRUE;
  return FALSE;
}

static Thread *
thread_get (PerfImport *pi, guint32 tid)
{
  Thread *t = g_hash_table_lookup (pi->threads, GUINT_TO_POINTER (tid));
  if (t == NULL)
    {
      t = g_new0 (Thread, 1);
      g_hash_table_insert (pi->threads, GUINT_TO_POINTER (tid), t);
    }
  return t;
}

static guint32
sample_key (const CpelPerfRecord *r)
{
  if (r->has_cpu)
    return MIN (r->cpu, THREAD_KEY - 1);
  return THREAD_KEY | (r->tid & (THREAD_KEY - 1));
}

/* First pass: remember the key; second pass: its track id. */
static inline void
track_seen (PerfImport *pi, guint32 key)
{
  guint slot = (key ^ (key >> 10)) & 1023;
  if (pi->cache_val[slot] != 0 && pi->cache_key[slot] == key)
    return;
  g_hash_table_insert (pi->tracks, GUINT_TO_POINTER (key), NULL);
  pi->cache_key[slot] = key;
  pi->cache_val[slot] = 1;
}

static inline guint32
track_id (PerfImport *pi, guint32 key)
{
  guint slot = (key ^ (key >> 10)) & 1023;
  if (pi->cache_val[slot] != 0 && pi->cache_key[slot] == key)
    return pi->cache_val[slot] - 1;
  guint32 v = GPOINTER_TO_UINT (g_hash_table_lookup (pi->tracks, GUINT_TO_POINTER (key)));
  pi->cache_key[slot] = key;
  pi->cache_val[slot] = v;
  return v - 1;
}

static gint
cmp_key (gconstpointer a, gconstpointer b)
{
  guint32 x = GPOINTER_TO_UINT (a), y = GPOINTER_TO_UINT (b);
  return x < y ? -1 : x > y;
}

/* sched_switch: prev_pid and next_pid (FALSE when the record lacks them). */
static gboolean
switch_pids (PerfImport *pi, const CpelPerfRecord *r, gint64 *prev, gint64 *next)
{
  return r->attr == pi->switch_attr && r->raw != NULL
         && cpel_perf_data_tracepoint_int (pi->pd, r->attr, r->raw, r->raw_size, "prev_pid", prev)
         && cpel_perf_data_tracepoint_int (pi->pd, r->attr, r->raw, r->raw_size, "next_pid", next);
}

/* sched_waking / sched_wakeup / sched_wakeup_new: 0..2 and the woken tid,
 * or -1. */
static gint
wake_kind (PerfImport *pi, const CpelPerfRecord *r, gint64 *pid)
{
  if (r->raw == NULL)
    return -1;
  for (gint k = 0; k < 3; k++)
    if (r->attr == pi->wake_attr[k])
      return cpel_perf_data_tracepoint_int (pi->pd, r->attr, r->raw, r->raw_size, "pid", pid)
             && *pid > 0 ? k : -1;
  return -1;
}

/* A thread seen only in sched_switch fields is named by them. */
static void
name_from_switch (PerfImport *pi, const CpelPerfRecord *r, const char *field, guint32 tid)
{
  Thread *t = thread_get (pi, tid);
  if (t->comm == NULL && cpel_perf_data_tracepoint_str (pi->pd, r->attr, r->raw, r->raw_size, field, pi->comm))
    {
      t->comm = g_strdup (pi->comm->str);
      t->time = 0;
    }
}

static gboolean
first_pass (const CpelPerfRecord *r, gpointer data, GError **error)
{
  PerfImport *pi = data;
  gint64 prev, next;

  switch (r->type)
    {
    case CPEL_PERF_RECORD_SAMPLE:
      pi->n_samples++;
      if (switch_pids (pi, r, &prev, &next))
        {
          /* when each thread ran: switch-out on prev's track, switch-in on next's
           * (the idle task, pid 0, gets none) */
          if (prev > 0)
            {
              pi->n_switch_marks++;
              track_seen (pi, THREAD_KEY | ((guint32) prev & (THREAD_KEY - 1)));
              name_from_switch (pi, r, "prev_comm", (guint32) prev);
            }
          if (next > 0)
            {
              pi->n_switch_marks++;
              track_seen (pi, THREAD_KEY | ((guint32) next & (THREAD_KEY - 1)));
              name_from_switch (pi, r, "next_comm", (guint32) next);
            }
          if (r->has_cpu)
            pi->n_cpu_marks++;
        }
      else
        {
          gint k = wake_kind (pi, r, &next);
          if (k >= 0)
            {
              pi->n_wake_marks[k]++;
              track_seen (pi, THREAD_KEY | ((guint32) next & (THREAD_KEY - 1)));
              name_from_switch (pi, r, "comm", (guint32) next);
            }
        }
      track_seen (pi, sample_key (r));
      /* samples whose text names their IP (tracepoints print their fields) */
      if (r->has_ip && (r->misc & CPEL_PERF_MISC_CPUMODE_MASK) == CPEL_PERF_MISC_KERNEL
          && !(r->raw != NULL && cpel_perf_data_attr_is_tracepoint (pi->pd, r->attr)))
        pi->n_kernel_ips++;
      else if (pi->n_kernel_ips == 0 && chain_has_kernel (r))
        pi->n_kernel_ips++;   /* kernel frames to name */
      break;
    case CPEL_PERF_RECORD_MMAP:
    case CPEL_PERF_RECORD_MMAP2:
      if (r->misc & CPEL_PERF_MISC_MMAP_DATA)
        break;
      if (g_str_has_prefix (r->filename, "[kernel.kallsyms]"))
        {
          /* the kernel's map: pgoff is the address of _text (or _stext) */
          const char *ref = r->filename + strlen ("[kernel.kallsyms]");
          if (strcmp (ref, "_text") == 0 || strcmp (ref, "_stext") == 0)
            {
              pi->kernel_text = r->map_pgoff;
              pi->kernel_ref = ref[1] == 't' ? "_text" : "_stext";
            }
          break;
        }
      if ((r->misc & CPEL_PERF_MISC_CPUMODE_MASK) == CPEL_PERF_MISC_KERNEL)
        break;   /* modules: named by kallsyms */
      cpel_perf_symbols_add_map (pi->syms, r->pid, r->has_time ? r->time : 0, r->map_start,
                                 r->map_len, r->map_pgoff, r->filename, r->build_id, r->build_id_size);
      break;
    case CPEL_PERF_RECORD_COMM:
      if (r->misc & CPEL_PERF_MISC_COMM_EXEC)
        cpel_perf_symbols_add_exec (pi->syms, r->pid, r->has_time ? r->time : 0);
      {
        Thread *t = thread_get (pi, r->tid);
        guint64 time = r->has_time ? r->time : 0;
        /* the latest name (exec renames); records are not time-ordered */
        if (t->comm == NULL || time >= t->time)
          {
            g_free (t->comm);
            t->comm = g_utf8_make_valid (r->comm, -1);
            t->time = time;
          }
      }
      break;
    case CPEL_PERF_RECORD_FORK:
      cpel_perf_symbols_add_fork (pi->syms, r->pid, r->ppid, r->has_time ? r->time : 0);
      {
        Thread *t = thread_get (pi, r->tid);
        if (!t->has_parent && r->ptid != r->tid)
          {
            t->parent = r->ptid;
            t->has_parent = TRUE;
          }
      }
      break;
    case CPEL_PERF_RECORD_LOST:
      pi->lost_records += r->lost;
      pi->lost = MAX (pi->lost_records, pi->lost_samples);
      break;
    case CPEL_PERF_RECORD_LOST_SAMPLES:
      /* the same samples as the LOST records' (the kernel counts a sample
       * the ring had no room for in both): the loss is the larger sum */
      pi->lost_samples += r->lost;
      pi->lost = MAX (pi->lost_records, pi->lost_samples);
      break;
    default:
      break;
    }
  return TRUE;
}

static const char *
thread_name (PerfImport *pi, guint32 tid)
{
  /* follow FORK parents (bounded: a hostile file may loop) */
  for (guint hops = 0; hops < 64; hops++)
    {
      Thread *t = g_hash_table_lookup (pi->threads, GUINT_TO_POINTER (tid));
      if (t == NULL)
        return NULL;
      if (t->comm != NULL)
        return t->comm;
      if (!t->has_parent)
        return NULL;
      tid = t->parent;
    }
  return NULL;
}

static void
append_hex (GString *s, guint64 v)
{
  char buf[17];
  int i = 16;
  buf[16] = 0;
  do
    {
      buf[--i] = "0123456789abcdef"[v & 15];
      v >>= 4;
    }
  while (v != 0);
  g_string_append_len (s, buf + i, 16 - i);
}

static void
append_uint (GString *s, guint32 v)
{
  char buf[11];
  int i = 10;
  buf[10] = 0;
  do
    {
      buf[--i] = (char) ('0' + v % 10);
      v /= 10;
    }
  while (v != 0);
  g_string_append_len (s, buf + i, 10 - i);
}

/* `comm [tid]` as the thread's track is labelled; `field` of the record
 * names a thread without a track (the idle task, `swapper/0 [0]`). */
static void
append_thread (PerfImport *pi, const CpelPerfRecord *r, const char *field, guint32 tid,
               GString *s)
{
  const char *comm = tid > 0 ? thread_name (pi, tid) : NULL;
  if (comm == NULL && field != NULL
      && cpel_perf_data_tracepoint_str (pi->pd, r->attr, r->raw, r->raw_size, field, pi->comm))
    comm = pi->comm->str;
  if (comm == NULL && tid == 0)
    comm = "swapper";   /* the idle task, as perf script names it */
  g_string_append (s, comm != NULL ? comm : ":");
  g_string_append (s, " [");
  append_uint (s, tid);
  g_string_append_c (s, ']');
}

/* perf script's prev_state (`S`, `R+`, `D|K`, …) as one letter: R, R+, S,
 * D, T, t, X (x too), Z, P, I, or ? for another. */
static const char *
state_letter (const char *text, gsize len)
{
  const char *p = g_strstr_len (text, (gssize) len, "prev_state=");
  if (p == NULL)
    return "?";
  p += strlen ("prev_state=");
  switch (*p)
    {
    case 'R':
      return p[1] == '+' ? "R+" : "R";
    case 'S': return "S";
    case 'D': return "D";
    case 'T': return "T";
    case 't': return "t";
    case 'X':
    case 'x': return "X";
    case 'Z': return "Z";
    case 'P': return "P";
    case 'I': return "I";
    default:  return "?";
    }
}

static gboolean
second_pass (const CpelPerfRecord *r, gpointer data, GError **error)
{
  PerfImport *pi = data;

  if (r->type != CPEL_PERF_RECORD_SAMPLE)
    return TRUE;
  GString *s = pi->text;
  g_string_truncate (s, 0);
  guint32 datum = r->tid;
  if (r->raw != NULL && cpel_perf_data_attr_is_tracepoint (pi->pd, r->attr))
    {
      gint64 num = 0;
      if (!cpel_perf_data_format_tracepoint (pi->pd, r->attr, r->raw, r->raw_size, s, &num, error))
        {
          g_prefix_error (error, _("The sample at offset %" PRIu64 ": "), r->offset);
          return FALSE;
        }
      datum = (guint32) num;
    }
  else
    {
      append_uint (s, r->pid);
      g_string_append_c (s, '/');
      append_uint (s, r->tid);
      if (r->has_ip)
        {
          g_string_append_c (s, ' ');
          append_hex (s, r->ip);
          guint mode = r->misc & CPEL_PERF_MISC_CPUMODE_MASK;
          if (mode == CPEL_PERF_MISC_KERNEL || mode == CPEL_PERF_MISC_USER)
            cpel_perf_symbols_append (pi->syms, r->pid, mode == CPEL_PERF_MISC_KERNEL, r->ip,
                                      r->has_time ? r->time : 0, s);
        }
    }
  guint32 track = track_id (pi, sample_key (r));
  if (r->has_time && (!pi->has_first || r->time < pi->first_time))
    {
      pi->first_time = r->time;
      pi->has_first = TRUE;
    }
  cpel_import_builder_add_event (pi->b, r->has_time ? r->time : 0, track,
                                 r->attr, datum, s->str, (gssize) s->len);
  if (r->callchain_nr > 0)
    add_chain (pi, r);
  gint64 prev, next;
  if (switch_pids (pi, r, &prev, &next))
    {
      guint32 n_attrs = cpel_perf_data_get_n_attrs (pi->pd);
      guint64 time = r->has_time ? r->time : 0;
      char cpu[64];
      gsize len = 0;
      if (r->has_cpu)
        len = (gsize) g_snprintf (cpu, sizeof cpu, "CPU %u", r->cpu);
      cpu[len] = '\0';
      if (prev > 0)
        {
          guint32 t = track_id (pi, THREAD_KEY | ((guint32) prev & (THREAD_KEY - 1)));
          char out[96];
          gsize olen = (gsize) g_snprintf (out, sizeof out, "%s%sprev_state=%s", cpu,
                                           len > 0 ? ", " : "", state_letter (s->str, s->len));
          cpel_import_builder_add_event (pi->b, time, t, n_attrs + 1, r->cpu, out, (gssize) olen);
        }
      if (next > 0)
        {
          guint32 t = track_id (pi, THREAD_KEY | ((guint32) next & (THREAD_KEY - 1)));
          cpel_import_builder_add_event (pi->b, time, t, n_attrs, r->cpu, cpu, (gssize) len);
        }
      if (r->has_cpu)
        {
          g_string_truncate (s, 0);
          append_thread (pi, r, "next_comm", (guint32) MAX (next, 0), s);
          cpel_import_builder_add_event (pi->b, time, track, n_attrs + 2, (guint32) MAX (next, 0),
                                         s->str, (gssize) s->len);
        }
    }
  else
    {
      gint k = wake_kind (pi, r, &next);
      if (k >= 0)
        {
          guint32 n_attrs = cpel_perf_data_get_n_attrs (pi->pd);
          guint32 t = track_id (pi, THREAD_KEY | ((guint32) next & (THREAD_KEY - 1)));
          g_string_truncate (s, 0);
          g_string_append (s, "waker=\"");
          append_thread (pi, r, NULL, r->tid, s);
          g_string_append_c (s, '"');
          if (r->has_cpu)
            g_string_append_printf (s, ", CPU %u", r->cpu);
          cpel_import_builder_add_event (pi->b, r->has_time ? r->time : 0, t, n_attrs + 3 + (guint) k,
                                         r->tid, s->str, (gssize) s->len);
        }
    }
  if ((++pi->done & 0xffff) == 0 && !cpel_import_check_cancel (pi->b, error))
    return FALSE;
  return TRUE;
}

static void
first_progress (double fraction, gpointer data)
{
  cpel_import_report_progress (data, fraction * 0.3);
}

static void
second_progress (double fraction, gpointer data)
{
  cpel_import_report_progress (data, 0.3 + fraction * 0.7);
}

static gboolean
probe_perf (const guint8 *data, gsize size, const char *path)
{
  return data != NULL && cpel_perf_data_sniff (data, size);
}

static void
add_header_info (PerfImport *pi)
{
  CpelPerfData *pd = pi->pd;
  CpelImportBuilder *b = pi->b;

  if (cpel_perf_data_get_hostname (pd))
    cpel_import_builder_add_info (b, _("Host"), cpel_perf_data_get_hostname (pd));
  if (cpel_perf_data_get_os_release (pd))
    cpel_import_builder_add_info (b, _("OS release"), cpel_perf_data_get_os_release (pd));
  if (cpel_perf_data_get_perf_version (pd))
    cpel_import_builder_add_info (b, _("perf version"), cpel_perf_data_get_perf_version (pd));
  if (cpel_perf_data_get_cmdline (pd))
    cpel_import_builder_add_info (b, _("Command line"), cpel_perf_data_get_cmdline (pd));
  if (cpel_perf_data_get_nr_cpus (pd))
    {
      g_autofree char *n = g_strdup_printf ("%u", cpel_perf_data_get_nr_cpus (pd));
      cpel_import_builder_add_info (b, _("CPUs online"), n);
    }
  g_autoptr(GString) ev = g_string_new (NULL);
  for (guint i = 0; i < cpel_perf_data_get_n_attrs (pd); i++)
    g_string_append_printf (ev, "%s%s", i ? ", " : "", cpel_perf_data_get_attr_name (pd, i));
  cpel_import_builder_add_info (b, _("Events"), ev->str);
  if (cpel_perf_data_is_compressed (pd))
    cpel_import_builder_add_info (b, _("Compression"), "Zstd (perf record -z)");
  g_autofree char *samples = g_strdup_printf ("%" PRIu64, pi->n_samples);
  cpel_import_builder_add_info (b, _("Samples"), samples);
  if (pi->lost > 0)
    {
      g_autofree char *lost = g_strdup_printf ("%" PRIu64, pi->lost);
      cpel_import_builder_add_info (b, _("Lost samples"), lost);
    }

  gint clockid = cpel_perf_data_get_clockid (pd);
  g_autofree char *clock = NULL;
  switch (clockid)
    {
    case -1: clock = g_strdup (_("perf clock: ns since boot (not wall time)")); break;
    case 0:  clock = g_strdup (_("CLOCK_REALTIME (perf record -k realtime)")); break;
    case 1:  clock = g_strdup (_("CLOCK_MONOTONIC (perf record -k mono)")); break;
    case 4:  clock = g_strdup (_("CLOCK_MONOTONIC_RAW (perf record -k raw)")); break;
    case 7:  clock = g_strdup (_("CLOCK_BOOTTIME (perf record -k boot)")); break;
    case 11: clock = g_strdup (_("CLOCK_TAI (perf record -k tai)")); break;
    default: clock = g_strdup_printf (_("clock id %d"), clockid); break;
    }
  cpel_import_builder_set_clock (b, CPEL_IMPORT_CLOCK_EXACT, clock);

  guint64 tod, clk;
  if (cpel_perf_data_get_clock_data (pd, NULL, &tod, &clk))
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc ((gint64) (tod / 1000000000));
      g_autofree char *when = dt ? g_date_time_format (dt, "%Y-%m-%d %H:%M:%S") : g_strdup ("?");
      g_autofree char *ref = g_strdup_printf ("%s.%09" PRIu64 " UTC = %" PRIu64 ".%09"
                                              PRIu64 " s of the recording's clock",
                                              when, tod % 1000000000, clk / 1000000000, clk % 1000000000);
      cpel_import_builder_add_info (b, _("Wall-clock reference"), ref);
    }
}

/* The capture's start in ns since 1970 (a reserved key, `cpel info`'s and
 * File Information's Date): the first sample on a CLOCK_REALTIME
 * recording, or through the wall-clock reference perf record -k writes;
 * perf's default clock (ns since boot) tells no date. */
static void
add_start (CpelPerfData      *pd,
           guint64            first,
           CpelImportBuilder *b)
{
  guint64 tod, clk, start;
  g_autofree char *s = NULL;

  if (cpel_perf_data_get_clockid (pd) == 0)
    start = first;
  else if (cpel_perf_data_get_clock_data (pd, NULL, &tod, &clk))
    {
      if (first >= clk ? __builtin_add_overflow (tod, first - clk, &start)
                       : __builtin_sub_overflow (tod, clk - first, &start))
        return;
    }
  else
    return;
  if (start > G_MAXINT64)
    return;
  s = g_strdup_printf ("%" PRIu64, start);
  cpel_import_builder_add_info (b, "start-unix-ns", s);
}

/* The running kernel's GNU build id from /sys/kernel/notes (FALSE when
 * unreadable). */
static gboolean
running_kernel_build_id (guint8 *bid, gsize *size)
{
  g_autofree char *notes = NULL;
  gsize len = 0;
  if (!g_file_get_contents ("/sys/kernel/notes", &notes, &len, NULL))
    return FALSE;
  const guint8 *p = (const guint8 *) notes;
  gsize pos = 0;
  while (len - pos >= 12)
    {
      guint32 namesz, descsz, type;
      memcpy (&namesz, p + pos, 4);
      memcpy (&descsz, p + pos + 4, 4);
      memcpy (&type, p + pos + 8, 4);
      guint64 name_end = pos + 12 + (((guint64) namesz + 3) & ~G_GUINT64_CONSTANT (3));
      guint64 desc_end = name_end + (((guint64) descsz + 3) & ~G_GUINT64_CONSTANT (3));
      if (name_end > len || desc_end > len)
        return FALSE;
      if (type == 3 && namesz == 4 && memcmp (p + pos + 12, "GNU", 4) == 0 && descsz > 0 && descsz <= 20)
        {
          memcpy (bid, p + name_end, descsz);
          *size = descsz;
          return TRUE;
        }
      pos = desc_end;
    }
  return FALSE;
}

/* Kernel symbols only from the recording's kernel: perf's build-id cache
 * copy of its kallsyms, or this machine's when it runs that kernel (same
 * build id; without one in the file, the same release). */
static const char *
load_kernel_symbols (PerfImport *pi)
{
  CpelPerfData *pd = pi->pd;
  const CpelPerfBuildId *kbid = NULL;
  for (guint i = 0; i < cpel_perf_data_get_n_build_ids (pd); i++)
    {
      const CpelPerfBuildId *e = cpel_perf_data_get_build_id (pd, i);
      if ((e->misc & CPEL_PERF_MISC_CPUMODE_MASK) == CPEL_PERF_MISC_KERNEL
          && strcmp (e->filename, "[kernel.kallsyms]") == 0)
        kbid = e;
    }
  g_autofree char *text = NULL;
  gsize len = 0;
  const char *from = NULL;
  if (kbid != NULL)
    {
      g_autoptr(GString) h = g_string_new (NULL);
      for (guint i = 0; i < kbid->build_id_size; i++)
        g_string_append_printf (h, "%02x", kbid->build_id[i]);
      g_autofree char *cache = g_strdup_printf ("%s/.debug/[kernel.kallsyms]/%s/kallsyms",
                                                g_get_home_dir (), h->str);
      GStatBuf st;
      if (h->len > 0 && g_stat (cache, &st) == 0 && S_ISREG (st.st_mode) && st.st_size < (256 << 20)
          && g_file_get_contents (cache, &text, &len, NULL))
        from = N_("the recorded kernel's kallsyms in perf's build-id cache (~/.debug)");
      guint8 run[20];
      gsize run_size = 0;
      if (text == NULL && running_kernel_build_id (run, &run_size)
          && run_size == kbid->build_id_size && memcmp (run, kbid->build_id, run_size) == 0
          && g_file_get_contents ("/proc/kallsyms", &text, &len, NULL))
        from = N_("/proc/kallsyms (this machine runs the recorded kernel: same build id)");
      if (text == NULL)
        return N_("none: recorded on another kernel (build id differs, not in ~/.debug)");
    }
  else
    {
      struct utsname u;
      const char *rel = cpel_perf_data_get_os_release (pd);
      if (rel != NULL && uname (&u) == 0 && strcmp (rel, u.release) == 0
          && g_file_get_contents ("/proc/kallsyms", &text, &len, NULL))
        from = N_("/proc/kallsyms (this machine runs the recorded kernel release)");
      if (text == NULL)
        return N_("none: the recording's kernel is not this machine's");
    }
  if (cpel_perf_symbols_set_kallsyms (pi->syms, text, len) == 0)
    return N_("none: kallsyms without symbols");
  guint64 now;
  if (pi->kernel_ref == NULL || !cpel_perf_symbols_kallsyms_address (pi->syms, pi->kernel_ref, &now))
    {
      if (!cpel_perf_symbols_kallsyms_address (pi->syms, "_text", &now))
        {
          cpel_perf_symbols_set_kallsyms (pi->syms, NULL, 0);
          return N_("none: kallsyms hides the addresses (kptr_restrict)");
        }
      return from;
    }
  if (pi->kernel_text != 0)
    cpel_perf_symbols_set_kernel_reloc (pi->syms, (gint64) (pi->kernel_text - now));
  return from;
}

static gboolean
import_perf (const CpelImportSource  *src,
             const CpelImportOptions *options,
             CpelImportBuilder       *b,
             GCancellable            *cancellable,
             GError                 **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (src->data, src->size);
  g_autoptr(CpelPerfData) pd = cpel_perf_data_new (bytes, error);
  if (pd == NULL)
    return FALSE;

  PerfImport pi = { 0 };
  pi.pd = pd;
  pi.b = b;
  pi.threads = g_hash_table_new_full (NULL, NULL, NULL, thread_free);
  pi.tracks = g_hash_table_new (NULL, NULL);
  pi.text = g_string_sized_new (256);
  pi.comm = g_string_new (NULL);
  pi.switch_attr = G_MAXUINT;
  static const char *const wake_names[3] = {
    "sched:sched_waking", "sched:sched_wakeup", "sched:sched_wakeup_new"
  };
  for (guint k = 0; k < 3; k++)
    pi.wake_attr[k] = G_MAXUINT;
  pi.syms = cpel_perf_symbols_new ();
  pi.chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  pi.kframes = g_malloc0 (4096 * sizeof *pi.kframes);
  pi.uframes = g_malloc0 (4096 * sizeof *pi.uframes);
  for (guint i = 0; i < cpel_perf_data_get_n_attrs (pd); i++)
    if (cpel_perf_data_attr_is_tracepoint (pd, i))
      {
        const char *name = cpel_perf_data_get_attr_name (pd, i);
        if (strcmp (name, "sched:sched_switch") == 0)
          pi.switch_attr = i;
        for (guint k = 0; k < 3; k++)
          if (strcmp (name, wake_names[k]) == 0)
            pi.wake_attr[k] = i;
      }
  gboolean ok = cpel_perf_data_read_records (pd, first_pass, &pi, cancellable, first_progress, b, error);

  if (ok)
    {
      for (guint i = 0; i < cpel_perf_data_get_n_build_ids (pd); i++)
        {
          const CpelPerfBuildId *e = cpel_perf_data_get_build_id (pd, i);
          cpel_perf_symbols_add_build_id (pi.syms, e->filename, e->build_id, e->build_id_size);
        }
      const char *kernel_symbols = pi.n_kernel_ips > 0 ? load_kernel_symbols (&pi) : NULL;
      cpel_perf_symbols_prepare (pi.syms);
      add_header_info (&pi);
      if (kernel_symbols != NULL)
        cpel_import_builder_add_info (b, N_("Kernel symbols"), _(kernel_symbols));
      cpel_import_builder_add_lost (b, pi.lost);

      /* tracks: CPUs, then threads by tid */
      GList *keys = g_list_sort (g_hash_table_get_keys (pi.tracks), cmp_key);
      guint32 id = 0;
      for (GList *l = keys; l != NULL; l = l->next, id++)
        {
          guint32 key = GPOINTER_TO_UINT (l->data);
          g_autofree char *label = NULL;
          g_hash_table_insert (pi.tracks, l->data, GUINT_TO_POINTER (id + 1));
          if (key < THREAD_KEY)
            label = g_strdup_printf (_("CPU %u"), key);
          else
            {
              guint32 tid = key & (THREAD_KEY - 1);
              const char *comm = thread_name (&pi, tid);
              label = g_strdup_printf ("%s [%u]", comm ? comm : ":", tid);
            }
          cpel_import_builder_add_track (b, id, label);
        }
      g_list_free (keys);
      memset (pi.cache_val, 0, sizeof pi.cache_val);
      for (guint i = 0; i < cpel_perf_data_get_n_attrs (pd); i++)
        cpel_import_builder_add_type (b, i, cpel_perf_data_get_attr_name (pd, i), "%d");
      if (pi.n_switch_marks > 0)
        {
          /* the timeline draws events, not spans: a thread ran from its
           * switch-in to its switch-out */
          guint n = cpel_perf_data_get_n_attrs (pd);
          cpel_import_builder_add_type (b, n, "sched_switch: in", "CPU %d");
          cpel_import_builder_add_type (b, n + 1, "sched_switch: out", "CPU %d");
        }
      if (pi.n_cpu_marks > 0)
        cpel_import_builder_add_type (pi.b, cpel_perf_data_get_n_attrs (pd) + 2,
                                      "sched_switch: next", "%d");
      for (guint k = 0; k < 3; k++)
        if (pi.n_wake_marks[k] > 0)
          {
            g_autofree char *mark = g_strconcat (wake_names[k] + strlen ("sched:"), ": woken",
                                                 NULL);
            cpel_import_builder_add_type (pi.b, cpel_perf_data_get_n_attrs (pd) + 3 + k, mark,
                                          "%d");
          }
      guint64 n_marks = pi.n_switch_marks + pi.n_cpu_marks + pi.n_wake_marks[0]
                        + pi.n_wake_marks[1] + pi.n_wake_marks[2];
      ok = cpel_import_builder_begin_events (b, pi.n_samples + n_marks, error)
           && cpel_perf_data_read_records (pd, second_pass, &pi, cancellable, second_progress, b, error);
      if (ok && pi.has_first)
        {
          add_start (pd, pi.first_time, b);
          /* times are the recording clock's ns, as `perf script` prints them */
          cpel_import_builder_set_clock_origin (b, CPEL_CLOCK_SECONDS, 0);
        }
      guint found, not_found;
      cpel_perf_symbols_get_file_counts (pi.syms, &found, &not_found);
      if (ok && found + not_found > 0)
        {
          /* TRANSLATORS: symbols of the binaries sampled: read from N, M not found */
          g_autofree char *files = g_strdup_printf (_("read from %u, %u not found or another build"),
                                                    found, not_found);
          cpel_import_builder_add_info (b, N_("Binaries' symbols"), files);
        }
    }
  g_hash_table_unref (pi.threads);
  g_hash_table_unref (pi.tracks);
  g_string_free (pi.text, TRUE);
  g_string_free (pi.comm, TRUE);
  cpel_perf_symbols_free (pi.syms);
  g_array_unref (pi.chain);
  g_free (pi.kframes);
  g_free (pi.uframes);
  return ok;
}

const CpelImporter cpel_importer_perf = {
  .id = "perf",
  .name = N_("Linux perf.data"),
  .mime_type = "application/x-perf-data",
  .patterns = (const char * const[]) { "*.data", "perf.data*", NULL },
  .directory = FALSE,
  .probe = probe_perf,
  .import = import_perf,
};
