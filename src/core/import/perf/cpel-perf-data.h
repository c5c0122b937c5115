/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-data.h — a reader of Linux perf.data files (perf record)
 *
 * Parsed directly (Debian 12 has no reading library): header, attrs sized
 * by the file's attr_size, their id arrays, the feature sections this
 * viewer uses (EVENT_DESC, TRACING_DATA, HOSTNAME, OSRELEASE, CMDLINE,
 * NRCPUS, CLOCKID, CLOCK_DATA, COMPRESSED) and the data section's records,
 * PERF_RECORD_COMPRESSED ones inflated with libzstd.  Tracepoint payloads
 * are printed by libtraceevent from the format texts stored in the file,
 * as perf script prints them.
 *
 * The file is untrusted: every count, offset and length is checked against
 * the bytes present; problems are CPEL_ERROR errors naming the byte offset.
 * Pipe-mode files (perf record -o - > file) are read too: their header
 * records (HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA, ...) stand for
 * the sections.  Directory-mode (--threading) and other-endian files are
 * refused as "not supported yet".
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _CpelPerfData CpelPerfData;

/* perf_event_attr.sample_type bits (include/uapi/linux/perf_event.h) */
#define CPEL_PERF_SAMPLE_IP          (G_GUINT64_CONSTANT (1) << 0)
#define CPEL_PERF_SAMPLE_TID         (G_GUINT64_CONSTANT (1) << 1)
#define CPEL_PERF_SAMPLE_TIME        (G_GUINT64_CONSTANT (1) << 2)
#define CPEL_PERF_SAMPLE_ADDR        (G_GUINT64_CONSTANT (1) << 3)
#define CPEL_PERF_SAMPLE_READ        (G_GUINT64_CONSTANT (1) << 4)
#define CPEL_PERF_SAMPLE_CALLCHAIN   (G_GUINT64_CONSTANT (1) << 5)
#define CPEL_PERF_SAMPLE_ID          (G_GUINT64_CONSTANT (1) << 6)
#define CPEL_PERF_SAMPLE_CPU         (G_GUINT64_CONSTANT (1) << 7)
#define CPEL_PERF_SAMPLE_PERIOD      (G_GUINT64_CONSTANT (1) << 8)
#define CPEL_PERF_SAMPLE_STREAM_ID   (G_GUINT64_CONSTANT (1) << 9)
#define CPEL_PERF_SAMPLE_RAW         (G_GUINT64_CONSTANT (1) << 10)
#define CPEL_PERF_SAMPLE_IDENTIFIER  (G_GUINT64_CONSTANT (1) << 16)

/* Record types this reader reports (others are skipped). */
enum
{
  CPEL_PERF_RECORD_MMAP         = 1,
  CPEL_PERF_RECORD_LOST         = 2,
  CPEL_PERF_RECORD_COMM         = 3,
  CPEL_PERF_RECORD_EXIT         = 4,
  CPEL_PERF_RECORD_FORK         = 7,
  CPEL_PERF_RECORD_SAMPLE       = 9,
  CPEL_PERF_RECORD_MMAP2        = 10,
  CPEL_PERF_RECORD_LOST_SAMPLES = 13,
  CPEL_PERF_RECORD_COMPRESSED   = 81,
};

/* perf_event_header.misc */
#define CPEL_PERF_MISC_CPUMODE_MASK  0x7
#define CPEL_PERF_MISC_KERNEL        1
#define CPEL_PERF_MISC_USER          2
#define CPEL_PERF_MISC_COMM_EXEC     (1u << 13)   /* COMM */
#define CPEL_PERF_MISC_MMAP_DATA     (1u << 13)   /* MMAP, MMAP2: not executable */

typedef struct
{
  guint32      type;          /* CPEL_PERF_RECORD_* */
  guint16      misc;
  guint64      offset;        /* byte offset of the record in the file (for records
                                 * inside a COMPRESSED record: that record's offset) */
  guint        attr;          /* index of the attr the record belongs to */
  gboolean     has_time;
  guint64      time;          /* perf clock ns (sample TIME or the sample_id_all trailer) */
  gboolean     has_cpu;
  guint32      cpu;
  gboolean     has_tid;
  guint32      pid, tid;      /* SAMPLE, COMM, FORK, EXIT (own pid/tid) */
  /* SAMPLE */
  gboolean     has_ip;
  guint64      ip;
  guint64      period;
  guint64      id;
  const guint8 *raw;          /* RAW payload (tracepoint record) or NULL */
  guint32      raw_size;
  guint64      callchain_nr;
  const guint8 *callchain;    /* callchain_nr unaligned u64s */
  /* COMM */
  const char  *comm;          /* NUL-terminated within the record */
  /* FORK / EXIT */
  guint32      ppid, ptid;
  /* LOST / LOST_SAMPLES */
  guint64      lost;
  /* MMAP / MMAP2 (pid, tid above) */
  guint64      map_start, map_len, map_pgoff;
  const char  *filename;      /* NUL-terminated within the record */
  const guint8 *build_id;     /* MMAP2 with a build id, else NULL */
  guint        build_id_size; /* <= 20 */
} CpelPerfRecord;

/* An entry of the BUILD_ID feature: the build id of a binary samples hit. */
typedef struct
{
  guint32      pid;
  guint16      misc;          /* cpumode: CPEL_PERF_MISC_KERNEL for the kernel and its modules */
  guint8       build_id[20];
  guint        build_id_size;
  const char  *filename;      /* "[kernel.kallsyms]", a path */
} CpelPerfBuildId;

/* Return FALSE with *error set to stop. */
typedef gboolean (*CpelPerfRecordFunc) (const CpelPerfRecord *record,
                                        gpointer              user_data,
                                        GError              **error);

/* TRUE when `data` starts like a perf.data file of any kind (PERFILE2 in
 * either byte order, or the obsolete PERFFILE). */
gboolean      cpel_perf_data_sniff        (const guint8 *data, gsize len);

/* Parses the header, attrs and feature sections.  The bytes are kept. */
CpelPerfData *cpel_perf_data_new          (GBytes        *bytes,
                                           GError       **error);
void          cpel_perf_data_free         (CpelPerfData  *self);

/* Calls `func` for every SAMPLE, MMAP, MMAP2, COMM, FORK, EXIT, LOST and LOST_SAMPLES
 * record of the data section in file order (COMPRESSED records inflated in
 * place).  `progress` (may be NULL) gets the fraction of the data section
 * read. */
gboolean      cpel_perf_data_read_records (CpelPerfData       *self,
                                           CpelPerfRecordFunc  func,
                                           gpointer            user_data,
                                           GCancellable       *cancellable,
                                           void              (*progress) (double fraction, gpointer data),
                                           gpointer            progress_data,
                                           GError            **error);

/* Pipe mode, followed: the whole records of the stream's bytes
 * [offset, offset + len) at `p` (after those cpel_perf_data_new read),
 * handed to `func` as read_records does; *consumed: the bytes of the whole
 * records (a partial one at the end waits for more). */
gboolean      cpel_perf_data_read_stream  (CpelPerfData       *self,
                                           const guint8       *p,
                                           gsize               len,
                                           guint64             offset,
                                           CpelPerfRecordFunc  func,
                                           gpointer            user_data,
                                           gsize              *consumed,
                                           GError            **error);
/* Pipe mode: the length of the stream's header records at the start of
 * `data` (they end at FINISHED_INIT or the first record of the kernel's),
 * 0 while more bytes are needed, -1 when `data` is no pipe-mode stream or
 * the header grows past `max`. */
gssize        cpel_perf_data_pipe_header_len (const guint8 *data, gsize len, gsize max);

guint         cpel_perf_data_get_n_attrs      (CpelPerfData *self);
/* The event's name as perf script prints it (EVENT_DESC, else the
 * tracepoint's system:name, else a generic name from type and config). */
const char   *cpel_perf_data_get_attr_name    (CpelPerfData *self, guint attr);
guint64       cpel_perf_data_get_attr_sample_type (CpelPerfData *self, guint attr);
guint32       cpel_perf_data_get_attr_type    (CpelPerfData *self, guint attr);
guint64       cpel_perf_data_get_attr_config  (CpelPerfData *self, guint attr);
/* TRUE for a tracepoint attr whose format the file holds. */
gboolean      cpel_perf_data_attr_is_tracepoint (CpelPerfData *self, guint attr);

/* Prints a tracepoint record's fields as perf script does (print fmt of
 * the file's format text) into `out`.  `num` gets the first integer field
 * after the common ones (or, when named `next_pid`, that one) when
 * `num` is not NULL.  Fields whose offsets run past the record are an
 * error (no partial print). */
gboolean      cpel_perf_data_format_tracepoint (CpelPerfData  *self,
                                                guint          attr,
                                                const guint8  *raw,
                                                guint32        raw_size,
                                                GString       *out,
                                                gint64        *num,
                                                GError       **error);
/* Reads field `name` of a tracepoint record as an integer (FALSE when the
 * event has no such integer field or it lies outside the record). */
gboolean      cpel_perf_data_tracepoint_int    (CpelPerfData  *self,
                                                guint          attr,
                                                const guint8  *raw,
                                                guint32        raw_size,
                                                const char    *name,
                                                gint64        *value);
/* Reads a fixed char array field (comm) into `out` (cleared first). */
gboolean      cpel_perf_data_tracepoint_str    (CpelPerfData  *self,
                                                guint          attr,
                                                const guint8  *raw,
                                                guint32        raw_size,
                                                const char    *name,
                                                GString       *out);

/* Header information (NULL / 0 when the feature is absent). */
const char   *cpel_perf_data_get_hostname     (CpelPerfData *self);
const char   *cpel_perf_data_get_os_release   (CpelPerfData *self);
const char   *cpel_perf_data_get_perf_version (CpelPerfData *self);
const char   *cpel_perf_data_get_cmdline      (CpelPerfData *self);
guint32       cpel_perf_data_get_nr_cpus      (CpelPerfData *self);   /* online */
/* CLOCK_DATA: perf clock ns `clock_ns` was wall time `tod_ns` (FALSE when absent). */
gboolean      cpel_perf_data_get_clock_data   (CpelPerfData *self, gint *clockid,
                                               guint64 *tod_ns, guint64 *clock_ns);
/* attr.clockid when use_clockid is set on the attrs, else -1 (perf clock). */
gint          cpel_perf_data_get_clockid      (CpelPerfData *self);
gboolean      cpel_perf_data_is_compressed    (CpelPerfData *self);
/* BUILD_ID feature entries (0 when absent). */
guint         cpel_perf_data_get_n_build_ids  (CpelPerfData *self);
const CpelPerfBuildId *cpel_perf_data_get_build_id (CpelPerfData *self, guint i);
guint64       cpel_perf_data_get_data_size    (CpelPerfData *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelPerfData, cpel_perf_data_free)

G_END_DECLS
