/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-data-records.c — the records of a perf.data file's data
 * section: samples (their attr by id, the sample fields) and the
 * sample_id_all trailer of the others, COMPRESSED records inflated with a
 * bound on the total, each record handed to the caller in file order.
 * Every length is checked against the record, the record against the
 * section.
 */
#include "cpel-perf-data.h"

#include "cpel-perf-data-private.h"

/* --- records ------------------------------------------------------------ */

static gboolean
lookup_attr (CpelPerfData *self, guint64 id, guint *attr)
{
  gpointer v = g_hash_table_lookup (self->id_to_attr, &id);
  if (v == NULL)
    return FALSE;
  *attr = GPOINTER_TO_UINT (v) - 1;
  return TRUE;
}

static gboolean
record_error (GError **error, guint64 offset, const char *what)
{
  return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                     _("perf.data: the record at offset %" PRIu64 ": %s runs past its end"),
                     offset, what);
}

static gboolean
decode_sample (CpelPerfData *self, const guint8 *b, guint64 len, CpelPerfRecord *r, GError **error)
{
  guint64 pos = 0;
  guint attr = 0;

  if (self->n_attrs > 1 || self->id_pos >= 0)
    {
      if (self->id_pos >= 0)
        {
          if (!in_range ((guint64) self->id_pos * 8, 8, len))
            return record_error (error, r->offset, "the sample id");
          guint64 id = rd64 (b + self->id_pos * 8);
          if (!lookup_attr (self, id, &attr))
            {
              if (self->n_attrs > 1)
                return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                                   _("perf.data: the sample at offset %" PRIu64 " has id %" PRIu64
                                     ", which no attr lists"), r->offset, id);
              attr = 0;
            }
        }
    }
  r->attr = attr;
  guint64 st = self->attrs[attr].sample_type;

#define NEED(n, what) G_STMT_START { if (!in_range (pos, (n), len)) return record_error (error, r->offset, what); } G_STMT_END
  if (st & CPEL_PERF_SAMPLE_IDENTIFIER)
    {
      NEED (8, "IDENTIFIER");
      r->id = rd64 (b + pos);
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_IP)
    {
      NEED (8, "IP");
      r->has_ip = TRUE;
      r->ip = rd64 (b + pos);
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_TID)
    {
      NEED (8, "TID");
      r->has_tid = TRUE;
      r->pid = rd32 (b + pos);
      r->tid = rd32 (b + pos + 4);
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_TIME)
    {
      NEED (8, "TIME");
      r->has_time = TRUE;
      r->time = rd64 (b + pos);
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_ADDR)
    {
      NEED (8, "ADDR");
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_ID)
    {
      NEED (8, "ID");
      r->id = rd64 (b + pos);
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_STREAM_ID)
    {
      NEED (8, "STREAM_ID");
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_CPU)
    {
      NEED (8, "CPU");
      r->has_cpu = TRUE;
      r->cpu = rd32 (b + pos);
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_PERIOD)
    {
      NEED (8, "PERIOD");
      r->period = rd64 (b + pos);
      pos += 8;
    }
  if (st & CPEL_PERF_SAMPLE_READ)
    {
      guint64 rf = self->attrs[attr].read_format;
      guint per = ((rf & 4) ? 1 : 0) + ((rf & 16) ? 1 : 0);   /* ID, LOST */
      guint extra = ((rf & 1) ? 1 : 0) + ((rf & 2) ? 1 : 0);  /* TOTAL_TIME_ENABLED/RUNNING */
      if (rf & 8)   /* GROUP */
        {
          NEED (8, "READ");
          guint64 nr = rd64 (b + pos);
          pos += 8;
          NEED ((guint64) extra * 8, "READ");
          pos += (guint64) extra * 8;
          if (nr > len / 8 / (1 + per))
            return record_error (error, r->offset, "READ");
          NEED (nr * 8 * (1 + per), "READ");
          pos += nr * 8 * (1 + per);
        }
      else
        {
          NEED ((guint64) (1 + extra + per) * 8, "READ");
          pos += (guint64) (1 + extra + per) * 8;
        }
    }
  if (st & CPEL_PERF_SAMPLE_CALLCHAIN)
    {
      NEED (8, "CALLCHAIN");
      guint64 nr = rd64 (b + pos);
      pos += 8;
      if (nr > len / 8)
        return record_error (error, r->offset, "CALLCHAIN");
      NEED (nr * 8, "CALLCHAIN");
      r->callchain_nr = nr;
      r->callchain = b + pos;
      pos += nr * 8;
    }
  if (st & CPEL_PERF_SAMPLE_RAW)
    {
      NEED (4, "RAW");
      guint32 sz = rd32 (b + pos);
      pos += 4;
      NEED (sz, "RAW");
      r->raw = b + pos;
      r->raw_size = sz;
      pos += sz;
    }
#undef NEED
  return TRUE;
}

/* sample_id_all trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER at the end. */
static void
decode_trailer (CpelPerfData *self, const guint8 *b, guint64 len, guint64 body_used, CpelPerfRecord *r)
{
  guint attr = 0;
  if (self->n_attrs > 1)
    {
      if (self->id_back < 0 || len < 8 * (guint64) (self->id_back + 1))
        return;
      guint64 id = rd64 (b + len - 8 * (self->id_back + 1));
      if (!lookup_attr (self, id, &attr))
        return;
    }
  const PerfAttr *a = &self->attrs[attr];
  if (!(a->flags & (G_GUINT64_CONSTANT (1) << 18)))   /* sample_id_all */
    return;
  guint64 st = a->sample_type;
  guint n = 0;
  if (st & CPEL_PERF_SAMPLE_TID) n++;
  if (st & CPEL_PERF_SAMPLE_TIME) n++;
  if (st & CPEL_PERF_SAMPLE_ID) n++;
  if (st & CPEL_PERF_SAMPLE_STREAM_ID) n++;
  if (st & CPEL_PERF_SAMPLE_CPU) n++;
  if (st & CPEL_PERF_SAMPLE_IDENTIFIER) n++;
  if (len < body_used || len - body_used < 8 * (guint64) n)
    return;
  const guint8 *p = b + len - 8 * (guint64) n;
  r->attr = attr;
  if (st & CPEL_PERF_SAMPLE_TID)
    p += 8;   /* the record's own pid/tid are in its body */
  if (st & CPEL_PERF_SAMPLE_TIME)
    {
      r->has_time = TRUE;
      r->time = rd64 (p);
      p += 8;
    }
  if (st & CPEL_PERF_SAMPLE_ID)
    p += 8;
  if (st & CPEL_PERF_SAMPLE_STREAM_ID)
    p += 8;
  if (st & CPEL_PERF_SAMPLE_CPU)
    {
      r->has_cpu = TRUE;
      r->cpu = rd32 (p);
    }
}

typedef struct
{
  CpelPerfRecordFunc func;
  gpointer           user_data;
  GCancellable      *cancellable;
  ZSTD_DStream      *zstd;
  guint64            inflated;
  guint64            inflate_limit;
  guint64            n;
  gboolean           stream;     /* a partial record at the end waits for more bytes */
} ReadState;

static gboolean read_records (CpelPerfData *self, ReadState *st, const guint8 *p, guint64 len,
                              guint64 file_off, gboolean inside, guint64 *consumed,
                              void (*progress) (double, gpointer), gpointer progress_data,
                              GError **error);

static gboolean
inflate_record (CpelPerfData *self, ReadState *st, const guint8 *p, guint64 len, guint64 offset,
                GByteArray *carry, GError **error)
{
  if (st->zstd == NULL)
    {
      st->zstd = ZSTD_createDStream ();
      ZSTD_initDStream (st->zstd);
    }
  ZSTD_inBuffer in = { p, len, 0 };
  gsize chunk = MAX (ZSTD_DStreamOutSize (), 1 << 20);
  gboolean full = FALSE;
  while (in.pos < in.size || full)
    {
      gsize old = carry->len;
      g_byte_array_set_size (carry, old + chunk);
      ZSTD_outBuffer out = { carry->data + old, chunk, 0 };
      size_t rc = ZSTD_decompressStream (st->zstd, &out, &in);
      g_byte_array_set_size (carry, old + out.pos);
      if (ZSTD_isError (rc))
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: the compressed record at offset %" PRIu64 " does not inflate: %s"),
                           offset, ZSTD_getErrorName (rc));
      full = out.pos == chunk;
      st->inflated += out.pos;
      if (st->inflated > st->inflate_limit)
        return _cpel_perf_error (error, CPEL_ERROR_TOO_LARGE,
                           _("perf.data: the compressed records up to offset %" PRIu64
                             " inflate to more than %" PRIu64 " bytes"),
                           offset, st->inflate_limit);
      /* the whole records so far; a partial one waits for more output */
      guint64 used = 0;
      if (!read_records (self, st, carry->data, carry->len, offset, TRUE, &used, NULL, NULL, error))
        return FALSE;
      g_byte_array_remove_range (carry, 0, (guint) used);
    }
  return TRUE;
}

static gboolean
read_records (CpelPerfData *self, ReadState *st, const guint8 *p, guint64 len, guint64 file_off,
              gboolean inside, guint64 *consumed,
              void (*progress) (double, gpointer), gpointer progress_data, GError **error)
{
  guint64 pos = 0;
  g_autoptr(GByteArray) carry = NULL;

  while (pos < len)
    {
      guint64 rec_off = inside ? file_off : file_off + pos;
      if (len - pos < 8)
        {
          if (inside || st->stream)
            break;
          return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                             _("perf.data: the record header at offset %" PRIu64 " runs past the data section"),
                             rec_off);
        }
      guint32 type = rd32 (p + pos);
      guint16 misc = rd16 (p + pos + 4);
      guint16 size = rd16 (p + pos + 6);
      if (size < 8)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: the record at offset %" PRIu64 " has size %u (less than its header)"),
                           rec_off, size);
      if (size > len - pos)
        {
          if (inside || st->stream)
            break;
          return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                             _("perf.data: the record at offset %" PRIu64 " (%u bytes) runs past the data section"),
                             rec_off, size);
        }
      const guint8 *b = p + pos + 8;
      guint64 blen = size - 8;
      /* pipe mode: the tracing data follows its record (read by the header pass) */
      guint64 extra = 0;
      if (type == PERF_RECORD_HEADER_TRACING_DATA && self->pipe && !inside)
        {
          if (blen < 4)
            return record_error (error, rec_off, "the tracing data");
          extra = rd32 (b);
          if (!in_range (pos + size, extra, len))
            {
              if (st->stream)
                break;
              return record_error (error, rec_off, "the tracing data");
            }
        }
      if (type == CPEL_PERF_RECORD_COMPRESSED && st->stream)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_UNSUPPORTED,
                                 _("perf.data: compressed records (perf record -z) in a stream "
                                   "(offset %" PRIu64 "): not supported yet"), rec_off);
      CpelPerfRecord r = { 0 };
      r.type = type;
      r.misc = misc;
      r.offset = rec_off;
      gboolean report = FALSE;

      switch (type)
        {
        case CPEL_PERF_RECORD_SAMPLE:
          if (!decode_sample (self, b, blen, &r, error))
            return FALSE;
          report = TRUE;
          break;
        case CPEL_PERF_RECORD_COMM:
          {
            if (blen < 9)
              return record_error (error, rec_off, "COMM");
            r.has_tid = TRUE;
            r.pid = rd32 (b);
            r.tid = rd32 (b + 4);
            const char *c = (const char *) b + 8;
            const char *nul = memchr (c, 0, blen - 8);
            if (nul == NULL)
              return record_error (error, rec_off, "the COMM name");
            r.comm = c;
            guint64 used = 8 + (((guint64) (nul - c) + 1 + 7) & ~G_GUINT64_CONSTANT (7));
            decode_trailer (self, b, blen, MIN (used, blen), &r);
            report = TRUE;
          }
          break;
        case CPEL_PERF_RECORD_MMAP:
        case CPEL_PERF_RECORD_MMAP2:
          {
            /* pid, tid, addr, len, pgoff; MMAP2: maj/min/ino/ino_generation or
             * build_id_size + 3 reserved + build_id[20], prot, flags; filename */
            guint64 name_at = type == CPEL_PERF_RECORD_MMAP ? 32 : 64;
            if (blen < name_at + 1)
              return record_error (error, rec_off, type == CPEL_PERF_RECORD_MMAP ? "MMAP" : "MMAP2");
            r.has_tid = TRUE;
            r.pid = rd32 (b);
            r.tid = rd32 (b + 4);
            r.map_start = rd64 (b + 8);
            r.map_len = rd64 (b + 16);
            r.map_pgoff = rd64 (b + 24);
            if (type == CPEL_PERF_RECORD_MMAP2 && (misc & (1u << 14)))   /* MMAP_BUILD_ID */
              {
                r.build_id_size = MIN (b[32], 20);
                r.build_id = b + 36;
              }
            const char *c = (const char *) b + name_at;
            const char *nul = memchr (c, 0, blen - name_at);
            if (nul == NULL)
              return record_error (error, rec_off, "the mapped file's name");
            r.filename = c;
            guint64 used = name_at + (((guint64) (nul - c) + 1 + 7) & ~G_GUINT64_CONSTANT (7));
            decode_trailer (self, b, blen, MIN (used, blen), &r);
            report = TRUE;
          }
          break;
        case CPEL_PERF_RECORD_FORK:
        case CPEL_PERF_RECORD_EXIT:
          if (blen < 24)
            return record_error (error, rec_off, type == CPEL_PERF_RECORD_FORK ? "FORK" : "EXIT");
          r.has_tid = TRUE;
          r.pid = rd32 (b);
          r.ppid = rd32 (b + 4);
          r.tid = rd32 (b + 8);
          r.ptid = rd32 (b + 12);
          r.has_time = TRUE;
          r.time = rd64 (b + 16);
          decode_trailer (self, b, blen, 24, &r);
          report = TRUE;
          break;
        case CPEL_PERF_RECORD_LOST:
          if (blen < 16)
            return record_error (error, rec_off, "LOST");
          r.id = rd64 (b);
          r.lost = rd64 (b + 8);
          decode_trailer (self, b, blen, 16, &r);
          report = TRUE;
          break;
        case CPEL_PERF_RECORD_LOST_SAMPLES:
          if (blen < 8)
            return record_error (error, rec_off, "LOST_SAMPLES");
          r.lost = rd64 (b);
          decode_trailer (self, b, blen, 8, &r);
          report = TRUE;
          break;
        case CPEL_PERF_RECORD_COMPRESSED:
          if (inside)
            return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                               _("perf.data: a compressed record inside the compressed record at offset %" PRIu64),
                               rec_off);
          if (carry == NULL)
            carry = g_byte_array_new ();
          if (!inflate_record (self, st, b, blen, rec_off, carry, error))
            return FALSE;
          break;
        default:
          break;
        }
      if (report && !st->func (&r, st->user_data, error))
        return FALSE;
      pos += size + extra;
      if ((++st->n & 0xffff) == 0)
        {
          if (g_cancellable_set_error_if_cancelled (st->cancellable, error))
            return FALSE;
          if (progress != NULL)
            progress ((double) pos / (double) len, progress_data);
        }
    }
  if (carry != NULL && carry->len > 0)
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: the compressed records end inside a record (%u bytes left over)"),
                       carry->len);
  if (consumed)
    *consumed = pos;
  return TRUE;
}

gboolean
cpel_perf_data_read_records (CpelPerfData       *self,
                             CpelPerfRecordFunc  func,
                             gpointer            user_data,
                             GCancellable       *cancellable,
                             void              (*progress) (double fraction, gpointer data),
                             gpointer            progress_data,
                             GError            **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  ReadState st = { func, user_data, cancellable, NULL, 0, 0, 0 };
  guint64 ratio_limit = self->data_size > PERF_INFLATE_MAX / PERF_INFLATE_RATIO
                        ? PERF_INFLATE_MAX : self->data_size * PERF_INFLATE_RATIO;
  st.inflate_limit = MIN (PERF_INFLATE_MAX, MAX (ratio_limit, 64 << 20));
  gboolean ok = read_records (self, &st, self->data + self->data_offset, self->data_size,
                              self->data_offset, FALSE, NULL, progress, progress_data, error);
  if (st.zstd != NULL)
    ZSTD_freeDStream (st.zstd);
  if (ok && progress != NULL)
    progress (1.0, progress_data);
  return ok;
}

gboolean
cpel_perf_data_read_stream (CpelPerfData       *self,
                            const guint8       *p,
                            gsize               len,
                            guint64             offset,
                            CpelPerfRecordFunc  func,
                            gpointer            user_data,
                            gsize              *consumed,
                            GError            **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);
  g_return_val_if_fail (consumed != NULL, FALSE);

  ReadState st = { func, user_data, NULL, NULL, 0, 0, 0, TRUE };
  guint64 used = 0;
  *consumed = 0;
  if (!read_records (self, &st, p, len, offset, FALSE, &used, NULL, NULL, error))
    return FALSE;
  *consumed = (gsize) used;
  return TRUE;
}
