/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-private.h — CpelFile internals shared by the loader, the index,
 * the merge iterator and search */
#pragma once

#include "cpel-file.h"
#include "cpel-u32map.h"

#include <string.h>

G_BEGIN_DECLS

#define CPEL_EVENT_RECORD_SIZE 20

typedef struct
{
  const char *name;       /* the table's first string (points into the mapping) */
  CpelStrtab  tab;
} CpelStrtabEntry;

typedef struct
{
  const guint8     *records;      /* first record in the mapping */
  guint32           count;
  guint64           first_index;  /* file_index of the first record */
  guint64           tps;          /* ticks per second used */
  const CpelStrtab *strtab;       /* table for %s in datums, or NULL */
} CpelEventSection;

typedef struct
{
  guint32  id;
  char    *label;
  guint64  first;     /* first position in times[] / recs[] */
  guint64  count;
} CpelTrack;

typedef struct
{
  guint32     code;
  gboolean    defined;
  char       *name;
  CpelFormat *datum_format;
  guint64     count;
} CpelType;

struct _CpelFile
{
  GObject parent_instance;

  char             *path;
  GMappedFile      *mapped;
  guint             guard_id;       /* cpel-mapguard registration, 0 = none */
  GBytes           *bytes;
  const guint8     *data;
  gsize             size;

  gboolean          little_endian;
  guint             version;
  guint32           date;

  GArray           *sections;       /* CpelSectionInfo */
  GStringChunk     *chunk;          /* table names of sections */
  guint             n_warnings;     /* including the ones not kept */
  GPtrArray        *warnings;       /* char*, NULL-terminated */

  GArray           *strtabs;        /* CpelStrtabEntry */
  CpelSymbol       *symbols;
  gsize             n_symbols;
  CpelSymtab        symtab;

  CpelEventSection *evsecs;
  guint             n_evsecs;
  guint64           n_events;

  CpelTrack        *tracks;
  guint             n_tracks;
  CpelU32Map       *track_map;      /* id -> slot */

  CpelType         *types;
  guint             n_types;
  CpelU32Map       *type_map;       /* code -> type */

  gint64           *times;          /* n_events, track-major, each track in time order */
  guint32          *recs;           /* n_events, file index of each */

  gint64            base_ns;
  gint64            duration;
};

static inline guint32
cpel_file_read32 (const CpelFile *self, const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return self->little_endian ? GUINT32_FROM_LE (v) : GUINT32_FROM_BE (v);
}

/* The event section holding file_index. */
static inline const CpelEventSection *
cpel_file_section_of (const CpelFile *self, guint64 file_index, guint *section)
{
  guint lo = 0, hi = self->n_evsecs;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (self->evsecs[mid].first_index <= file_index)
        lo = mid;
      else
        hi = mid;
    }
  if (section)
    *section = lo;
  return &self->evsecs[lo];
}

static inline const guint8 *
cpel_file_record (const CpelFile *self, guint64 file_index, guint *section)
{
  const CpelEventSection *s = cpel_file_section_of (self, file_index, section);

  return s->records + (file_index - s->first_index) * CPEL_EVENT_RECORD_SIZE;
}

/* floor(ticks * 10^9 / tps), exact, saturating at G_MAXINT64. */
gint64   cpel_ticks_to_ns        (guint64 ticks, guint64 tps);

void     cpel_file_warn          (CpelFile *self, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Gives back the mapped pages wholly inside [from, to) once a pass over
 * the records has read them: they stay in the page cache, and touching
 * them again maps them again without reading the disk.  So a pass over all
 * records (the index build, a search) does not leave the whole mapping
 * resident: 20 bytes per event.  Files loaded from memory are left alone. */
void     cpel_file_drop_pages    (const CpelFile *self, const guint8 *from, const guint8 *to);
/* Build the per-track index from the validated event sections. */
gboolean cpel_file_build_index   (CpelFile *self, guint n_threads, GCancellable *cancellable,
                                  CpelProgressFunc progress, gpointer progress_data,
                                  GError **error);

G_END_DECLS
