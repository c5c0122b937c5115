/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-data.c — a reader of Linux perf.data files
 *
 * Layout: doc/import-formats.md section 4 and the kernel's
 * tools/perf/Documentation/perf.data-file-format.txt.  Every number read
 * from the file is checked before it is used as a count, an offset or a
 * length.
 */
#include "cpel-perf-data.h"

#include "cpel-perf-data-private.h"

gboolean
cpel_perf_data_sniff (const guint8 *data, gsize len)
{
  if (len < 8)
    return FALSE;
  return memcmp (data, "PERFILE2", 8) == 0
      || memcmp (data, "2ELIFREP", 8) == 0
      || memcmp (data, "PERFFILE", 8) == 0;
}

gboolean
_cpel_perf_error (GError **error, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error_literal (error, CPEL_ERROR, code, msg);
  return FALSE;
}

/* A perf header string: u32 length, then that many bytes (NUL padded). */
static char *
read_perf_string (const guint8 *base, guint64 *pos, guint64 end, guint64 file_off, GError **error)
{
  if (!in_range (*pos, 4, end))
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: a string at offset %" PRIu64 " runs past its section"),
                  file_off + *pos);
      return NULL;
    }
  guint32 len = rd32 (base + *pos);
  if (!in_range (*pos + 4, len, end))
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: a string of %u bytes at offset %" PRIu64 " runs past its section"),
                  len, file_off + *pos);
      return NULL;
    }
  const char *s = (const char *) base + *pos + 4;
  char *r = g_strndup (s, strnlen (s, len));
  *pos += 4 + (guint64) len;
  if (!g_utf8_validate (r, -1, NULL))
    {
      char *v = g_utf8_make_valid (r, -1);
      g_free (r);
      r = v;
    }
  return r;
}

/* A NUL-padded name of at most `max` bytes, as valid UTF-8. */
static char *
read_record_name (const char *s, guint64 max)
{
  char *r = g_strndup (s, strnlen (s, max));
  if (!g_utf8_validate (r, -1, NULL))
    {
      char *v = g_utf8_make_valid (r, -1);
      g_free (r);
      r = v;
    }
  return r;
}

/* --- features ----------------------------------------------------------- */

static gboolean
has_feature (CpelPerfData *self, guint bit)
{
  return (self->features[bit / 64] >> (bit % 64)) & 1;
}

static gboolean
parse_event_desc (CpelPerfData *self, guint64 off, guint64 size, GError **error)
{
  const guint8 *p = self->data + off;
  guint64 pos = 0;
  if (size < 8)
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: EVENT_DESC at offset %" PRIu64 " is too short"), off);
  guint32 nr = rd32 (p);
  guint32 asz = rd32 (p + 4);
  pos = 8;
  if (asz < 8 || asz > PERF_ATTR_MAX)
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: EVENT_DESC at offset %" PRIu64 ": attr size %u"), off, asz);
  for (guint32 i = 0; i < nr; i++)
    {
      if (!in_range (pos, (guint64) asz + 4, size))
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: EVENT_DESC entry %u at offset %" PRIu64 " runs past the section"),
                           i, off + pos);
      pos += asz;
      guint32 nr_ids = rd32 (p + pos);
      pos += 4;
      g_autofree char *name = read_perf_string (p, &pos, size, off, error);
      if (name == NULL)
        return FALSE;
      if (!in_range (pos, (guint64) nr_ids * 8, size))
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: EVENT_DESC entry %u: %u ids at offset %" PRIu64 " run past the section"),
                           i, nr_ids, off + pos);
      /* the attr this name belongs to: by its first id, else by position */
      guint idx = G_MAXUINT;
      if (nr_ids > 0)
        {
          guint64 id = rd64 (p + pos);
          gpointer v = g_hash_table_lookup (self->id_to_attr, &id);
          if (v != NULL)
            idx = GPOINTER_TO_UINT (v) - 1;
        }
      if (idx == G_MAXUINT && nr == self->n_attrs)
        idx = i;
      pos += (guint64) nr_ids * 8;
      if (idx < self->n_attrs && name[0])
        {
          g_free (self->attrs[idx].name);
          self->attrs[idx].name = g_steal_pointer (&name);
        }
    }
  return TRUE;
}

/* BUILD_ID: perf_record_header_build_id entries — header (8), pid (4),
 * build_id (20 + size byte + 3 reserved), filename up to header.size. */
static gboolean
parse_build_ids (CpelPerfData *self, guint64 off, guint64 size, GError **error)
{
  const guint8 *p = self->data + off;
  guint64 pos = 0;
  if (self->build_ids == NULL)
    self->build_ids = g_array_new (FALSE, TRUE, sizeof (CpelPerfBuildId));
  while (size - pos >= 8)
    {
      guint16 misc = rd16 (p + pos + 4);
      guint16 len = rd16 (p + pos + 6);
      if (len < 8 + 4 + 24 + 1 || len > size - pos)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: the build id entry at offset %" PRIu64 " has size %u (%" PRIu64
                             " bytes left in its section)"),
                           off + pos, len, size - pos);
      const char *name = (const char *) p + pos + 36;
      if (memchr (name, 0, len - 36) == NULL)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: the file name of the build id entry at offset %" PRIu64
                             " runs past its end"),
                           off + pos);
      CpelPerfBuildId e = { 0 };
      e.pid = rd32 (p + pos + 8);
      e.misc = misc;
      memcpy (e.build_id, p + pos + 12, 20);
      /* PERF_RECORD_MISC_BUILD_ID_SIZE: the size byte after the 20 is valid */
      e.build_id_size = (misc & (1u << 15)) ? MIN (p[pos + 32], 20) : 20;
      e.filename = name;
      g_array_append_val (self->build_ids, e);
      pos += len;
    }
  return TRUE;
}

static gboolean parse_feature_sections (CpelPerfData *self, const guint64 *sec_off,
                                        const guint64 *sec_size, GError **error);

static gboolean
parse_features (CpelPerfData *self, GError **error)
{
  guint n = 0;
  for (guint b = 0; b < 256; b++)
    if (has_feature (self, b))
      n++;
  if (n == 0)
    return TRUE;
  guint64 table = self->data_offset + self->data_size;
  if (!in_range (table, (guint64) n * 16, self->size))
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: the table of %u feature sections at offset %" PRIu64
                         " runs past the end of the file (%zu bytes)"),
                       n, table, self->size);

  guint i = 0;
  guint64 sec_off[256] = { 0 }, sec_size[256] = { 0 };
  for (guint b = 0; b < 256; b++)
    {
      if (!has_feature (self, b))
        continue;
      guint64 e = table + (guint64) i * 16;
      sec_off[b] = rd64 (self->data + e);
      sec_size[b] = rd64 (self->data + e + 8);
      if (!in_range (sec_off[b], sec_size[b], self->size))
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: feature section %u (%" PRIu64 " bytes at offset %"
                             PRIu64 ") runs past the end of the file"),
                           b, sec_size[b], sec_off[b]);
      i++;
    }
  return parse_feature_sections (self, sec_off, sec_size, error);
}

/* The feature sections this reader uses, at [sec_off[b], + sec_size[b]) for
 * each feature bit b that is set (checked to lie within the file). */
static gboolean
parse_feature_sections (CpelPerfData *self, const guint64 *sec_off, const guint64 *sec_size,
                        GError **error)
{
  if (has_feature (self, FEAT_DIR_FORMAT))
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_UNSUPPORTED,
                       _("perf.data: a directory-mode recording (perf record --threading): not supported yet"));
  const guint8 *d = self->data;
  guint64 pos;
  if (has_feature (self, FEAT_COMPRESSED))
    {
      if (sec_size[FEAT_COMPRESSED] < 8)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: feature COMPRESSED at offset %" PRIu64 " is too short"),
                           sec_off[FEAT_COMPRESSED]);
      guint32 type = rd32 (d + sec_off[FEAT_COMPRESSED] + 4);
      if (type != 1)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_UNSUPPORTED,
                           _("perf.data: records compressed with method %u (only Zstd is known): not supported yet"),
                           type);
      self->compressed = TRUE;
    }
  if (has_feature (self, FEAT_HOSTNAME))
    {
      pos = 0;
      self->hostname = read_perf_string (d + sec_off[FEAT_HOSTNAME], &pos, sec_size[FEAT_HOSTNAME],
                                         sec_off[FEAT_HOSTNAME], error);
      if (self->hostname == NULL)
        return FALSE;
    }
  if (has_feature (self, FEAT_OSRELEASE))
    {
      pos = 0;
      self->os_release = read_perf_string (d + sec_off[FEAT_OSRELEASE], &pos, sec_size[FEAT_OSRELEASE],
                                           sec_off[FEAT_OSRELEASE], error);
      if (self->os_release == NULL)
        return FALSE;
    }
  if (has_feature (self, FEAT_VERSION))
    {
      pos = 0;
      self->perf_version = read_perf_string (d + sec_off[FEAT_VERSION], &pos, sec_size[FEAT_VERSION],
                                             sec_off[FEAT_VERSION], error);
      if (self->perf_version == NULL)
        return FALSE;
    }
  if (has_feature (self, FEAT_NRCPUS) && sec_size[FEAT_NRCPUS] >= 8)
    self->nr_cpus = rd32 (d + sec_off[FEAT_NRCPUS] + 4);
  if (has_feature (self, FEAT_CMDLINE))
    {
      const guint8 *p = d + sec_off[FEAT_CMDLINE];
      guint64 sz = sec_size[FEAT_CMDLINE];
      if (sz < 4)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: feature CMDLINE at offset %" PRIu64 " is too short"),
                           sec_off[FEAT_CMDLINE]);
      guint32 nr = rd32 (p);
      pos = 4;
      g_autoptr(GString) s = g_string_new (NULL);
      for (guint32 k = 0; k < nr; k++)
        {
          g_autofree char *arg = read_perf_string (p, &pos, sz, sec_off[FEAT_CMDLINE], error);
          if (arg == NULL)
            return FALSE;
          if (k > 0)
            g_string_append_c (s, ' ');
          g_string_append (s, arg);
        }
      self->cmdline = g_string_free (g_steal_pointer (&s), FALSE);
    }
  if (has_feature (self, FEAT_CLOCK_DATA))
    {
      if (sec_size[FEAT_CLOCK_DATA] < 24)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                           _("perf.data: feature CLOCK_DATA at offset %" PRIu64 " is too short"),
                           sec_off[FEAT_CLOCK_DATA]);
      const guint8 *p = d + sec_off[FEAT_CLOCK_DATA];
      if (rd32 (p) == 1)
        {
          self->has_clock_data = TRUE;
          self->clock_data_clockid = (gint) rd32 (p + 4);
          self->tod_ns = rd64 (p + 8);
          self->clock_ns = rd64 (p + 16);
        }
    }
  if (has_feature (self, FEAT_TRACING_DATA))
    if (!_cpel_perf_parse_tracing_data (self, sec_off[FEAT_TRACING_DATA], sec_size[FEAT_TRACING_DATA], error))
      return FALSE;
  if (has_feature (self, FEAT_BUILD_ID))
    if (!parse_build_ids (self, sec_off[FEAT_BUILD_ID], sec_size[FEAT_BUILD_ID], error))
      return FALSE;
  if (has_feature (self, FEAT_EVENT_DESC))
    if (!parse_event_desc (self, sec_off[FEAT_EVENT_DESC], sec_size[FEAT_EVENT_DESC], error))
      return FALSE;
  return TRUE;
}

/* --- header and attrs --------------------------------------------------- */

static const char *
generic_name (const PerfAttr *a)
{
  static const char *const hw[] = { "cycles", "instructions", "cache-references", "cache-misses",
                                    "branches", "branch-misses", "bus-cycles",
                                    "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles" };
  static const char *const sw[] = { "cpu-clock", "task-clock", "page-faults", "context-switches",
                                    "cpu-migrations", "minor-faults", "major-faults",
                                    "alignment-faults", "emulation-faults", "dummy", "bpf-output",
                                    "cgroup-switches" };
  if (a->type == 0 && a->config < G_N_ELEMENTS (hw))
    return hw[a->config];
  if (a->type == 1 && a->config < G_N_ELEMENTS (sw))
    return sw[a->config];
  return NULL;
}

/* Attr i from `asz` bytes of a perf_event_attr at `p`; its ids are n_ids u64s
 * at file offset ids_off (checked by the caller). */
static void
set_attr (CpelPerfData *self, guint i, const guint8 *p, guint32 asz, guint64 ids_off,
          guint64 n_ids)
{
  guint8 buf[PERF_ATTR_MAX] = { 0 };
  memcpy (buf, p, MIN (asz, sizeof buf));
  PerfAttr *a = &self->attrs[i];
  a->type = rd32 (buf);
  a->size = asz;
  a->config = rd64 (buf + 8);
  a->sample_type = rd64 (buf + 24);
  a->read_format = rd64 (buf + 32);
  a->flags = rd64 (buf + 40);
  a->clockid = (gint32) rd32 (buf + 92);
  a->ids_offset = ids_off;
  a->n_ids = n_ids;
  for (guint64 k = 0; k < n_ids; k++)
    {
      guint64 *id = g_new (guint64, 1);
      *id = rd64 (self->data + ids_off + 8 * k);
      g_hash_table_insert (self->id_to_attr, id, GUINT_TO_POINTER (i + 1));
    }
}

/* Where a sample's id is, once every attr is known. */
static gboolean
finish_attrs (CpelPerfData *self, GError **error)
{
  /* where the id is: perf requires every attr to agree (evlist id_pos) */
  guint64 st = self->attrs[0].sample_type;
  if (st & CPEL_PERF_SAMPLE_IDENTIFIER)
    {
      self->id_pos = 0;
      self->id_back = 0;
    }
  else if (st & CPEL_PERF_SAMPLE_ID)
    {
      int n = 0;
      if (st & CPEL_PERF_SAMPLE_IP) n++;
      if (st & CPEL_PERF_SAMPLE_TID) n++;
      if (st & CPEL_PERF_SAMPLE_TIME) n++;
      if (st & CPEL_PERF_SAMPLE_ADDR) n++;
      self->id_pos = n;
      n = 0;
      if (st & CPEL_PERF_SAMPLE_CPU) n++;
      if (st & CPEL_PERF_SAMPLE_STREAM_ID) n++;
      self->id_back = n;
    }
  for (guint i = 1; i < self->n_attrs; i++)
    {
      guint64 sti = self->attrs[i].sample_type;
      gboolean same = (st & CPEL_PERF_SAMPLE_IDENTIFIER)
                      ? (sti & CPEL_PERF_SAMPLE_IDENTIFIER) != 0
                      : (sti & (CPEL_PERF_SAMPLE_IP | CPEL_PERF_SAMPLE_TID | CPEL_PERF_SAMPLE_TIME
                                | CPEL_PERF_SAMPLE_ADDR | CPEL_PERF_SAMPLE_ID))
                        == (st & (CPEL_PERF_SAMPLE_IP | CPEL_PERF_SAMPLE_TID | CPEL_PERF_SAMPLE_TIME
                                  | CPEL_PERF_SAMPLE_ADDR | CPEL_PERF_SAMPLE_ID));
      if (!same || self->id_pos < 0)
        {
          _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                      _("perf.data: %u attrs whose samples cannot be told apart (attr %u has sample_type 0x%"
                        PRIx64 ", attr 0 0x%" PRIx64 ")"),
                      self->n_attrs, i, sti, st);
          return FALSE;
        }
    }
return TRUE;
}

/* Names: EVENT_DESC (or pipe mode's EVENT_UPDATE) when given, else the
 * tracepoint's system:name, else a generic one. */
static void
name_attrs (CpelPerfData *self)
{
  for (guint i = 0; i < self->n_attrs; i++)
    {
      PerfAttr *a = &self->attrs[i];
      if (a->type == PERF_TYPE_TRACEPOINT && a->config <= G_MAXINT)
        a->tp = tep_find_event (self->tep, (int) a->config);
      if (a->name == NULL && a->tp != NULL)
        a->name = g_strdup_printf ("%s:%s", a->tp->system, a->tp->name);
      if (a->name == NULL && generic_name (a) != NULL)
        a->name = g_strdup (generic_name (a));
      if (a->name == NULL)
        a->name = g_strdup_printf ("type%u/config 0x%" PRIx64 "", a->type, a->config);
    }
}

/* --- pipe mode ----------------------------------------------------------- */

/* Pipe mode (perf record -o -): a 16-byte header, then one stream of
 * records in which HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA (its
 * text follows the record, outside its size), HEADER_BUILD_ID and
 * EVENT_UPDATE carry what a file's header sections hold.  One pass finds
 * them; then the attrs and feature sections are read as in file mode. */
static gboolean
parse_pipe (CpelPerfData *self, GError **error)
{
  const guint8 *d = self->data;
  guint64 sec_off[256] = { 0 }, sec_size[256] = { 0 };
  g_autoptr(GArray) attr_recs = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) updates = g_array_new (FALSE, FALSE, sizeof (guint64));
  gboolean have_tracing = FALSE;

  self->pipe = TRUE;
  self->data_offset = PERF_PIPE_HEADER_SIZE;
  self->data_size = self->size - PERF_PIPE_HEADER_SIZE;
  guint64 pos = PERF_PIPE_HEADER_SIZE;
  while (self->size - pos >= 8)
    {
      guint32 type = rd32 (d + pos);
      guint16 size = rd16 (d + pos + 6);
      if (size < 8 || size > self->size - pos)
        break;   /* the record reader reports it */
      const guint8 *b = d + pos + 8;
      guint64 blen = size - 8;
      guint64 step = size;
      switch (type)
        {
        case PERF_RECORD_HEADER_ATTR:
          if (attr_recs->len >= PERF_MAX_ATTRS)
            return _cpel_perf_error (error, CPEL_ERROR_TOO_LARGE,
                                     _("perf.data: more than %d attrs (offset %" PRIu64 ")"),
                                     PERF_MAX_ATTRS, pos);
          g_array_append_val (attr_recs, pos);
          break;
        case PERF_RECORD_HEADER_TRACING_DATA:
          {
            if (blen < 4)
              return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                                       _("perf.data: the tracing data record at offset %"
                                         PRIu64 " is too short"), pos);
            guint32 tsize = rd32 (b);
            if (!in_range (pos + size, tsize, self->size))
              return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                                       _("perf.data: the tracing data (%u bytes after the record"
                                         " at offset %" PRIu64 ") runs past the end of the file"),
                                       tsize, pos);
            if (!have_tracing)
              {
                self->features[FEAT_TRACING_DATA / 64] |= G_GUINT64_CONSTANT (1)
                                                          << (FEAT_TRACING_DATA % 64);
                sec_off[FEAT_TRACING_DATA] = pos + size;
                sec_size[FEAT_TRACING_DATA] = tsize;
                have_tracing = TRUE;
              }
            step += tsize;
          }
          break;
        case PERF_RECORD_HEADER_BUILD_ID:
          if (!parse_build_ids (self, pos, size, error))
            return FALSE;
          break;
        case PERF_RECORD_EVENT_UPDATE:
          g_array_append_val (updates, pos);
          break;
        case PERF_RECORD_HEADER_FEATURE:
          if (blen >= 8 && rd64 (b) < 256 && rd64 (b) != FEAT_TRACING_DATA
              && rd64 (b) != FEAT_BUILD_ID)
            {
              guint f = (guint) rd64 (b);
              self->features[f / 64] |= G_GUINT64_CONSTANT (1) << (f % 64);
              sec_off[f] = pos + 16;
              sec_size[f] = blen - 8;
            }
          break;
        default:
          break;
        }
      pos += step;
    }

  if (attr_recs->len == 0)
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                             _("perf.data: a pipe-mode recording without an attr record"
                               " (%zu bytes)"), self->size);
  self->n_attrs = attr_recs->len;
  self->attrs = g_new0 (PerfAttr, self->n_attrs);
  for (guint i = 0; i < self->n_attrs; i++)
    {
      guint64 off = g_array_index (attr_recs, guint64, i);
      guint64 blen = rd16 (d + off + 6) - 8;
      guint32 asz = blen >= 8 ? rd32 (d + off + 8 + 4) : 0;
      if (asz == 0)
        asz = PERF_ATTR_SIZE_VER0;
      if (asz > blen || asz > PERF_ATTR_MAX)
        return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                                 _("perf.data: the attr record at offset %" PRIu64
                                   " says its attr is %u bytes, more than its %" PRIu64),
                                 off, asz, blen);
      set_attr (self, i, d + off + 8, asz, off + 8 + asz, (blen - asz) / 8);
    }
  if (!finish_attrs (self, error))
    return FALSE;
  self->tep = tep_alloc ();
  tep_set_loglevel (TEP_LOG_NONE);
  if (!parse_feature_sections (self, sec_off, sec_size, error))
    return FALSE;

  /* EVENT_UPDATE NAME (type 2): u64 type, u64 id, the name */
  for (guint i = 0; i < updates->len; i++)
    {
      guint64 off = g_array_index (updates, guint64, i);
      guint64 blen = rd16 (d + off + 6) - 8;
      if (blen < 17 || rd64 (d + off + 8) != 2)
        continue;
      guint64 id = rd64 (d + off + 16);
      gpointer v = g_hash_table_lookup (self->id_to_attr, &id);
      if (v == NULL)
        continue;
      const char *name = (const char *) d + off + 24;
      PerfAttr *a = &self->attrs[GPOINTER_TO_UINT (v) - 1];
      if (a->name == NULL && name[0] != 0)
        a->name = read_record_name (name, blen - 16);
    }
  name_attrs (self);
  return TRUE;
}

CpelPerfData *
cpel_perf_data_new (GBytes *bytes, GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);

  g_autoptr(CpelPerfData) self = g_new0 (CpelPerfData, 1);
  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->size);
  self->id_to_attr = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->id_pos = -1;
  self->id_back = -1;

  const guint8 *d = self->data;
  if (self->size < 16)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: the header ends after %zu bytes"), self->size);
      return NULL;
    }
  if (memcmp (d, "PERFFILE", 8) == 0)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_UNSUPPORTED,
                  _("perf.data: version 1 (PERFFILE), from perf before 2010: not supported"));
      return NULL;
    }
  if (rd64 (d) == PERF_MAGIC2_SWAPPED)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_UNSUPPORTED,
                  _("perf.data: recorded on a machine of the other byte order: not supported yet"));
      return NULL;
    }
  if (rd64 (d) != PERF_MAGIC2)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_UNSUPPORTED, _("not a perf.data file (no PERFILE2 magic at offset 0)"));
      return NULL;
    }
  guint64 hsize = rd64 (d + 8);
  if (hsize == PERF_PIPE_HEADER_SIZE)
    {
      if (!parse_pipe (self, error))
        return NULL;
      return g_steal_pointer (&self);
    }
  if (hsize < PERF_HEADER_SIZE || self->size < PERF_HEADER_SIZE)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: the header (%" PRIu64 " bytes at offset 0) is shorter than %d bytes or the file ends inside it"),
                  hsize, PERF_HEADER_SIZE);
      return NULL;
    }
  self->attr_size = rd64 (d + 16);
  guint64 attrs_off = rd64 (d + 24), attrs_size = rd64 (d + 32);
  self->data_offset = rd64 (d + 40);
  self->data_size = rd64 (d + 48);
  for (guint i = 0; i < 4; i++)
    self->features[i] = rd64 (d + 72 + 8 * i);

  if (self->attr_size < 16 + 8 || self->attr_size > 16 + PERF_ATTR_MAX)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: attr_size %" PRIu64 " at offset 16 is not a possible size (24–%d)"),
                  self->attr_size, 16 + PERF_ATTR_MAX);
      return NULL;
    }
  if (!in_range (attrs_off, attrs_size, self->size))
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: the attrs section (%" PRIu64 " bytes at offset %" PRIu64
                    ") runs past the end of the file (%zu bytes)"),
                  attrs_size, attrs_off, self->size);
      return NULL;
    }
  if (attrs_size % self->attr_size != 0 || attrs_size == 0)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: the attrs section (%" PRIu64 " bytes at offset %" PRIu64
                    ") is not a multiple of attr_size %" PRIu64),
                  attrs_size, attrs_off, self->attr_size);
      return NULL;
    }
  if (!in_range (self->data_offset, self->data_size, self->size))
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: the data section (%" PRIu64 " bytes at offset %" PRIu64
                    ") runs past the end of the file (%zu bytes)"),
                  self->data_size, self->data_offset, self->size);
      return NULL;
    }
  guint64 n_attrs = attrs_size / self->attr_size;
  if (n_attrs > PERF_MAX_ATTRS)
    {
      _cpel_perf_error (error, CPEL_ERROR_TOO_LARGE,
                  _("perf.data: %" PRIu64 " attrs (at most %d)"), n_attrs, PERF_MAX_ATTRS);
      return NULL;
    }
  self->n_attrs = (guint) n_attrs;
  self->attrs = g_new0 (PerfAttr, self->n_attrs);

  for (guint i = 0; i < self->n_attrs; i++)
    {
      guint64 off = attrs_off + (guint64) i * self->attr_size;
      guint32 asz = rd32 (d + off + 4);
      if (asz == 0)
        asz = PERF_ATTR_SIZE_VER0;
      if (asz > self->attr_size - 16)
        {
          _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                      _("perf.data: attr %u at offset %" PRIu64 " says it is %u bytes, more than the %"
                        PRIu64 " the file's attr_size leaves"),
                      i, off, asz, self->attr_size - 16);
          return NULL;
        }
      guint64 ids_off = rd64 (d + off + self->attr_size - 16);
      guint64 ids_size = rd64 (d + off + self->attr_size - 8);
      if (!in_range (ids_off, ids_size, self->size) || ids_size % 8 != 0)
        {
          _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                      _("perf.data: the ids of attr %u (%" PRIu64 " bytes at offset %" PRIu64
                        ") run past the end of the file or are not whole u64s"),
                      i, ids_size, ids_off);
          return NULL;
        }
      set_attr (self, i, d + off, asz, ids_off, ids_size / 8);
    }

  if (!finish_attrs (self, error))
    return NULL;
  self->tep = tep_alloc ();
  tep_set_loglevel (TEP_LOG_NONE);
  if (!parse_features (self, error))
    return NULL;
  name_attrs (self);
  return g_steal_pointer (&self);
}

void
cpel_perf_data_free (CpelPerfData *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_attrs; i++)
    g_free (self->attrs[i].name);
  g_free (self->attrs);
  g_clear_pointer (&self->id_to_attr, g_hash_table_unref);
  if (self->tep != NULL)
    tep_free (self->tep);
  g_free (self->hostname);
  g_free (self->os_release);
  g_free (self->perf_version);
  g_free (self->cmdline);
  g_free (self->scratch);
  g_clear_pointer (&self->build_ids, g_array_unref);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_free (self);
}

/* --- accessors ---------------------------------------------------------- */

guint
cpel_perf_data_get_n_attrs (CpelPerfData *self)
{
  return self->n_attrs;
}

const char *
cpel_perf_data_get_attr_name (CpelPerfData *self, guint attr)
{
  g_return_val_if_fail (attr < self->n_attrs, NULL);
  return self->attrs[attr].name;
}

guint64
cpel_perf_data_get_attr_sample_type (CpelPerfData *self, guint attr)
{
  g_return_val_if_fail (attr < self->n_attrs, 0);
  return self->attrs[attr].sample_type;
}

guint32
cpel_perf_data_get_attr_type (CpelPerfData *self, guint attr)
{
  g_return_val_if_fail (attr < self->n_attrs, 0);
  return self->attrs[attr].type;
}

guint64
cpel_perf_data_get_attr_config (CpelPerfData *self, guint attr)
{
  g_return_val_if_fail (attr < self->n_attrs, 0);
  return self->attrs[attr].config;
}

gboolean
cpel_perf_data_attr_is_tracepoint (CpelPerfData *self, guint attr)
{
  g_return_val_if_fail (attr < self->n_attrs, FALSE);
  return self->attrs[attr].tp != NULL;
}

const char *
cpel_perf_data_get_hostname (CpelPerfData *self)
{
  return self->hostname;
}

const char *
cpel_perf_data_get_os_release (CpelPerfData *self)
{
  return self->os_release;
}

const char *
cpel_perf_data_get_perf_version (CpelPerfData *self)
{
  return self->perf_version;
}

const char *
cpel_perf_data_get_cmdline (CpelPerfData *self)
{
  return self->cmdline;
}

guint32
cpel_perf_data_get_nr_cpus (CpelPerfData *self)
{
  return self->nr_cpus;
}

gboolean
cpel_perf_data_get_clock_data (CpelPerfData *self, gint *clockid, guint64 *tod_ns, guint64 *clock_ns)
{
  if (!self->has_clock_data)
    return FALSE;
  if (clockid)
    *clockid = self->clock_data_clockid;
  if (tod_ns)
    *tod_ns = self->tod_ns;
  if (clock_ns)
    *clock_ns = self->clock_ns;
  return TRUE;
}

gint
cpel_perf_data_get_clockid (CpelPerfData *self)
{
  for (guint i = 0; i < self->n_attrs; i++)
    if (self->attrs[i].flags & (G_GUINT64_CONSTANT (1) << 25))   /* use_clockid */
      return self->attrs[i].clockid;
  return -1;
}

gboolean
cpel_perf_data_is_compressed (CpelPerfData *self)
{
  return self->compressed;
}

guint
cpel_perf_data_get_n_build_ids (CpelPerfData *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->build_ids ? self->build_ids->len : 0;
}

const CpelPerfBuildId *
cpel_perf_data_get_build_id (CpelPerfData *self, guint i)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->build_ids != NULL && i < self->build_ids->len, NULL);
  return &g_array_index (self->build_ids, CpelPerfBuildId, i);
}

guint64
cpel_perf_data_get_data_size (CpelPerfData *self)
{
  return self->data_size;
}

gssize
cpel_perf_data_pipe_header_len (const guint8 *data, gsize len, gsize max)
{
  if (len < PERF_PIPE_HEADER_SIZE)
    return len >= 8 && memcmp (data, "PERFILE2", MIN (len, 8)) != 0 ? -1 : 0;
  if (rd64 (data) != PERF_MAGIC2 || rd64 (data + 8) != PERF_PIPE_HEADER_SIZE)
    return -1;
  guint64 pos = PERF_PIPE_HEADER_SIZE;
  while (TRUE)
    {
      if (pos > max)
        return -1;
      if (len - pos < 8)
        return 0;
      guint32 type = rd32 (data + pos);
      guint16 size = rd16 (data + pos + 6);
      if (size < 8)
        return -1;
      if (type < PERF_RECORD_HEADER_ATTR)
        return (gssize) pos;   /* the kernel's records start */
      if (size > len - pos)
        return 0;
      guint64 step = size;
      if (type == PERF_RECORD_HEADER_TRACING_DATA)
        {
          if (size < 12)
            return -1;
          step += rd32 (data + pos + 8);
        }
      if (step > max || pos + step > max)
        return -1;
      if (step > len - pos)
        return 0;
      pos += step;
      if (type == PERF_RECORD_FINISHED_INIT)
        return (gssize) pos;
    }
}
