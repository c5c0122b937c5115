/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-data-private.h — what the perf.data reader's files share:
 * cpel-perf-data.c (header, attrs, features), cpel-perf-data-records.c
 * (the data section's records) and cpel-perf-tracepoint.c (TRACING_DATA
 * formats and tracepoint payloads, through libtraceevent) */
#pragma once

#include "cpel-perf-data.h"

#include <string.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <event-parse.h>
#include <trace-seq.h>
#include <zstd.h>

#include "cpel-error.h"

#define PERF_MAGIC2          G_GUINT64_CONSTANT (0x32454c4946524550)   /* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED  G_GUINT64_CONSTANT (0x50455246494c4532)
#define PERF_HEADER_SIZE     104
#define PERF_PIPE_HEADER_SIZE 16
#define PERF_ATTR_SIZE_VER0  64
#define PERF_ATTR_MAX        512          /* larger attrs than any kernel's */
#define PERF_MAX_ATTRS       65536

/* feature bits */
enum
{
  FEAT_TRACING_DATA = 1,
  FEAT_BUILD_ID     = 2,
  FEAT_HOSTNAME     = 3,
  FEAT_OSRELEASE    = 4,
  FEAT_VERSION      = 5,
  FEAT_NRCPUS       = 7,
  FEAT_CMDLINE      = 11,
  FEAT_EVENT_DESC   = 12,
  FEAT_CLOCKID      = 23,
  FEAT_DIR_FORMAT   = 24,
  FEAT_COMPRESSED   = 27,
  FEAT_CLOCK_DATA   = 29,
};

#define PERF_TYPE_TRACEPOINT 2

/* records of pipe mode (perf's user-space record types) */
enum
{
  PERF_RECORD_HEADER_ATTR         = 64,
  PERF_RECORD_HEADER_TRACING_DATA = 66,
  PERF_RECORD_HEADER_BUILD_ID     = 67,
  PERF_RECORD_EVENT_UPDATE        = 78,
  PERF_RECORD_HEADER_FEATURE      = 80,
  PERF_RECORD_FINISHED_INIT       = 82,
};

/* Bound on what COMPRESSED records may inflate to in total. */
#define PERF_INFLATE_MAX       (G_GUINT64_CONSTANT (1) << 32)   /* 4 GiB */
#define PERF_INFLATE_RATIO     4096

typedef struct
{
  guint32  type;
  guint32  size;
  guint64  config;
  guint64  sample_type;
  guint64  read_format;
  guint64  flags;
  gint32   clockid;
  guint64  ids_offset;       /* file offset of the ids array */
  guint64  n_ids;
  char    *name;
  struct tep_event *tp;      /* tracepoint format, or NULL */
} PerfAttr;

struct _CpelPerfData
{
  GBytes        *bytes;
  const guint8  *data;
  gsize          size;
  guint64        attr_size;
  guint64        data_offset;
  guint64        data_size;
  guint64        features[4];
  gboolean       pipe;           /* pipe mode: the data section is the whole stream */
  PerfAttr      *attrs;
  guint          n_attrs;
  GHashTable    *id_to_attr;     /* u64 id -> attr index + 1 */
  int            id_pos;         /* index of the id in a SAMPLE (u64s), -1 = none */
  int            id_back;        /* index from the end of a sample_id_all trailer, -1 = none */
  struct tep_handle *tep;
  char          *hostname;
  char          *os_release;
  char          *perf_version;
  char          *cmdline;
  guint32        nr_cpus;
  gboolean       has_clock_data;
  gint           clock_data_clockid;
  guint64        tod_ns;
  guint64        clock_ns;
  gboolean       compressed;
  GArray        *build_ids;      /* CpelPerfBuildId (filenames point into the file) */
  guint8        *scratch;        /* tracepoint record copy, zero padded */
  gsize          scratch_size;
};

static inline guint64
rd64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return v;
}

static inline guint32
rd32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return v;
}

static inline guint16
rd16 (const guint8 *p)
{
  guint16 v;
  memcpy (&v, p, 2);
  return v;
}

/* offset + len within [0, limit]? (no overflow) */
static inline gboolean
in_range (guint64 offset, guint64 len, guint64 limit)
{
  return offset <= limit && len <= limit - offset;
}


gboolean _cpel_perf_error (GError **error, int code, const char *fmt, ...) G_GNUC_PRINTF (3, 4);
/* The TRACING_DATA feature section at [off, off + size): formats to libtraceevent. */
gboolean _cpel_perf_parse_tracing_data (CpelPerfData *self, guint64 off, guint64 size,
                                        GError **error);
