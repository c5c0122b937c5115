/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-parse.c — reading and checking a CPEL file's sections: the
 * header, the section table, string tables, definitions (event types,
 * tracks, symbols), source information, event texts and the event
 * sections; the definitions applied once the index knows every id and code
 * (moved out of cpel-file.c) */
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "cpel-file-private.h"

#define TABLE_NAME_LEN 64

/* A NUL-terminated string at `offset` in the table, bounded by the table: the
 * string's bytes and length (up to the NUL or the end of the table). */
static gboolean
strtab_string (const CpelStrtab *tab,
               guint32           offset,
               const char      **str,
               gsize            *len)
{
  const char *end;

  if (tab == NULL || offset >= tab->len)
    return FALSE;
  *str = tab->data + offset;
  end = memchr (*str, '\0', tab->len - offset);
  *len = end ? (gsize) (end - *str) : tab->len - offset;
  return TRUE;
}

static const CpelStrtab *
find_strtab (CpelFile   *self,
             const char *name)
{
  for (guint i = 0; i < self->strtabs->len; i++)
    {
      CpelStrtabEntry *e = &g_array_index (self->strtabs, CpelStrtabEntry, i);
      if (strcmp (e->name, name) == 0)
        return &e->tab;
    }
  return NULL;
}

/* Compile the format at `offset` of `tab`; offset 0 means `fallback`. */
static CpelFormat *
compile_format (const CpelStrtab *tab,
                guint32           offset,
                const char       *fallback)
{
  const char *s;
  gsize len;

  if (offset == 0)
    return cpel_format_new (fallback, -1);
  if (!strtab_string (tab, offset, &s, &len))
    {
      g_autofree char *marker = g_strdup_printf ("<bad string offset 0x%x>", offset);
      return cpel_format_new (marker, -1);
    }
  return cpel_format_new (s, len);
}

static char *
apply_format (CpelFormat       *format,
              guint32           value,
              const CpelStrtab *tab,
              const CpelSymtab *symtab)
{
  GString *out = g_string_new (NULL);

  cpel_format_append (format, value, tab, symtab, out);
  return g_string_free (out, FALSE);
}

#define SECTION_FAIL(code, ...) \
  G_STMT_START { g_set_error (error, CPEL_ERROR, code, __VA_ARGS__); return FALSE; } G_STMT_END

gboolean
cpel_file_parse_header (CpelFile  *self,
                        guint     *n_sections,
                        GError   **error)
{
  if (self->size == 0)
    SECTION_FAIL (CPEL_ERROR_EMPTY,
                  _("It has no bytes; a CPEL file starts with an 8-byte header at offset 0"));

  self->little_endian = (self->data[0] & 0x80) != 0;
  self->version = self->data[0] & 0x7f;
  if (self->version == 0 && self->size >= 8)
    SECTION_FAIL (CPEL_ERROR_GIST,
                  _("Version 0 at offset 0: this looks like an old “Gist” event log, not a CPEL file"));
  if (self->version != 1)
    SECTION_FAIL (CPEL_ERROR_VERSION, _("Unknown CPEL version %u at offset 0"), self->version);
  if (self->size < 8)
    SECTION_FAIL (CPEL_ERROR_TRUNCATED,
                  _("File header truncated at offset %" PRIu64 ": 8 bytes needed"),
                  (guint64) self->size);

  *n_sections = self->little_endian
                  ? (guint) (self->data[2] | self->data[3] << 8)
                  : (guint) (self->data[2] << 8 | self->data[3]);
  self->date = cpel_file_read32 (self, self->data + 4);
  return TRUE;
}

/* Walk the section TLVs and validate their extent. */
gboolean
cpel_file_parse_sections (CpelFile  *self,
                          guint      n_sections,
                          GError   **error)
{
  guint64 off = 8;

  for (guint i = 0; i < n_sections; i++)
    {
      CpelSectionInfo info = { 0 };

      if (self->size - off < 8)
        SECTION_FAIL (CPEL_ERROR_TRUNCATED,
                      _("Section %u of %u: header truncated at offset %" PRIu64
                        " (the file ends at %" PRIu64 ")"),
                      i + 1, n_sections, off, (guint64) self->size);
      info.offset = off;
      info.type = cpel_file_read32 (self, self->data + off);
      info.length = cpel_file_read32 (self, self->data + off + 4);
      /* A first section whose type is no small number (CPEL's are 1–5; a
       * later version might add a few) and that does not fit either: some
       * other kind of file whose first byte happens to read as version 1. */
      if (self->size - off - 8 < info.length)
        SECTION_FAIL (i == 0 && (info.type == 0 || info.type > 0xff)
                        ? CPEL_ERROR_NOT_CPEL : CPEL_ERROR_TRUNCATED,
                      _("Section %u of %u at offset %" PRIu64 ": its %u data bytes run past "
                        "the end of the file (%" PRIu64 " bytes)"),
                      i + 1, n_sections, off, info.length, (guint64) self->size);
      g_array_append_val (self->sections, info);
      off += 8 + (guint64) info.length;
    }

  if (off < self->size)
    cpel_file_warn (self, _("%" PRIu64 " bytes after the last section (offset %" PRIu64
                            ") are ignored"),
                    (guint64) self->size - off, off);
  return TRUE;
}

gboolean
cpel_file_parse_string_tables (CpelFile  *self,
                               GError   **error)
{
  for (guint i = 0; i < self->sections->len; i++)
    {
      CpelSectionInfo *info = &g_array_index (self->sections, CpelSectionInfo, i);
      CpelStrtabEntry e;
      const char *data = (const char *) self->data + info->offset + 8;
      const char *nul;

      if (info->type != CPEL_SECTION_STRING_TABLE)
        continue;
      nul = memchr (data, '\0', info->length);
      if (nul == NULL)
        {
          cpel_file_warn (self, _("String table at offset %" PRIu64 " has no NUL-terminated name"),
                          info->offset);
          e.name = g_string_chunk_insert_len (self->chunk, data, info->length);
        }
      else
        e.name = g_string_chunk_insert (self->chunk, data);
      e.tab.data = data;
      e.tab.len = info->length;
      info->table_name = e.name;
      if (find_strtab (self, e.name) != NULL)
        cpel_file_warn (self, _("String table “%s” at offset %" PRIu64 " repeats a name; "
                                "references use the first one"),
                        e.name, info->offset);
      g_array_append_val (self->strtabs, e);
    }
  return TRUE;
}

/* Common prefix of sections 2-5: table name + count (+ clock); checks that
 * `count` records of `record_size` fit. Returns the first record. */
static const guint8 *
parse_table_section (CpelFile          *self,
                     CpelSectionInfo   *info,
                     gsize              header_size,
                     gsize              record_size,
                     const CpelStrtab **tab,
                     GError           **error)
{
  const guint8 *data = self->data + info->offset + 8;
  char name[TABLE_NAME_LEN + 1];
  guint64 room;

  if (info->length < header_size)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                   _("Section of type %u at offset %" PRIu64 " is too short: %u bytes, "
                     "at least %" PRIu64 " needed"),
                   info->type, info->offset, info->length, (guint64) header_size);
      return NULL;
    }
  memcpy (name, data, TABLE_NAME_LEN);
  name[TABLE_NAME_LEN] = '\0';
  info->table_name = g_string_chunk_insert (self->chunk, name);
  info->count = cpel_file_read32 (self, data + TABLE_NAME_LEN);

  room = (info->length - header_size) / record_size;
  if (info->count > room)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                   _("Section of type %u at offset %" PRIu64 " claims %u records but holds "
                     "only %" PRIu64 " (%u data bytes)"),
                   info->type, info->offset, info->count, room, info->length);
      return NULL;
    }

  *tab = find_strtab (self, name);
  if (*tab == NULL && info->count > 0)
    cpel_file_warn (self, _("Section of type %u at offset %" PRIu64 " names string table “%s”, "
                            "which does not exist"),
                    info->type, info->offset, name);
  return data + header_size;
}

static int
compare_symbols (gconstpointer a,
                 gconstpointer b)
{
  const CpelSymbol *sa = a, *sb = b;

  if (sa->value != sb->value)
    return sa->value < sb->value ? -1 : 1;
  /* keep file order among equal values: names are in the mapping in order */
  return sa->name < sb->name ? -1 : sa->name > sb->name;
}

/* Extension: the source format's header, key/value strings
 * (doc/cpel-extensions.md).  Only the first such section counts. */
static void
parse_source_info (CpelFile        *self,
                   CpelSectionInfo *info)
{
  const char *p = (const char *) self->data + info->offset + 8;
  const char *end = p + info->length;

  if (self->source_info != NULL)
    {
      cpel_file_warn (self, _("Another source information section at offset %" PRIu64
                              " is ignored"), info->offset);
      return;
    }
  self->source_info = g_ptr_array_new_with_free_func (g_free);
  while (p < end)
    {
      const char *key = p, *value, *nul;

      nul = memchr (key, '\0', end - key);
      if (nul == NULL || nul == key)
        break;   /* padding, or a damaged tail */
      value = nul + 1;
      nul = value < end ? memchr (value, '\0', end - value) : NULL;
      if (nul == NULL)
        {
          cpel_file_warn (self, _("Source information section at offset %" PRIu64
                                  " ends inside a value"), info->offset);
          break;
        }
      g_ptr_array_add (self->source_info, g_utf8_make_valid (key, -1));
      g_ptr_array_add (self->source_info, g_utf8_make_valid (value, -1));
      p = nul + 1;
    }
}

/* Extension: each event's full text.  A damaged section is ignored with a
 * warning (the datums still read through their formats). */
static void
parse_event_texts (CpelFile        *self,
                   CpelSectionInfo *info)
{
  const guint8 *data = self->data + info->offset + 8;
  guint32 first, count;

  if (self->text_offsets != NULL)
    {
      cpel_file_warn (self, _("Another event texts section at offset %" PRIu64 " is ignored"),
                      info->offset);
      return;
    }
  if (info->length < 8)
    {
      cpel_file_warn (self, _("Event texts section at offset %" PRIu64 " is too short; ignored"),
                      info->offset);
      return;
    }
  first = cpel_file_read32 (self, data);
  count = cpel_file_read32 (self, data + 4);
  if ((guint64) count * 4 > info->length - 8)
    {
      cpel_file_warn (self, _("Event texts section at offset %" PRIu64 " claims %u texts but "
                              "holds only %u bytes; ignored"),
                      info->offset, count, info->length);
      return;
    }
  info->count = count;
  self->text_first = first;
  self->text_count = count;
  self->text_offsets = data + 8;
  self->texts = (const char *) data + 8 + (gsize) count * 4;
  self->texts_len = info->length - 8 - (gsize) count * 4;
}


gboolean
cpel_file_parse_definitions (CpelFile  *self,
                             GArray    *event_defs,
                             GArray    *track_defs,
                             GError   **error)
{
  g_autoptr(CpelU32Map) seen_codes = cpel_u32map_new ();
  g_autoptr(CpelU32Map) seen_tracks = cpel_u32map_new ();
  gboolean unsorted = FALSE;
  gsize n_symbols = 0;

  /* First count symbols so the array is allocated once, bounded by the file. */
  for (guint i = 0; i < self->sections->len; i++)
    {
      CpelSectionInfo *info = &g_array_index (self->sections, CpelSectionInfo, i);

      if (info->type == CPEL_SECTION_SYMBOL_TABLE && info->length >= TABLE_NAME_LEN + 4)
        n_symbols += (info->length - TABLE_NAME_LEN - 4) / 8;
    }
  self->symbols = g_new (CpelSymbol, MAX (n_symbols, 1));

  for (guint i = 0; i < self->sections->len; i++)
    {
      CpelSectionInfo *info = &g_array_index (self->sections, CpelSectionInfo, i);
      const CpelStrtab *tab = NULL;
      const guint8 *rec;

      switch (info->type)
        {
        case CPEL_SECTION_STRING_TABLE:
        case CPEL_SECTION_EVENTS:
          break;

        case CPEL_SECTION_SYMBOL_TABLE:
          rec = parse_table_section (self, info, TABLE_NAME_LEN + 4, 8, &tab, error);
          if (rec == NULL)
            return FALSE;
          for (guint32 j = 0; j < info->count; j++, rec += 8)
            {
              CpelSymbol *sym = &self->symbols[self->n_symbols++];
              guint32 name_off = cpel_file_read32 (self, rec + 4);
              const char *s;
              gsize len;

              sym->value = cpel_file_read32 (self, rec);
              if (!strtab_string (tab, name_off, &s, &len))
                {
                  s = "<bad symbol name>";
                  len = strlen (s);
                }
              sym->name = s;
              sym->name_len = (guint32) MIN (len, CPEL_FORMAT_MAX_STRING);
              if (self->n_symbols > 1 && sym[-1].value > sym->value)
                unsorted = TRUE;
            }
          break;

        case CPEL_SECTION_EVENT_DEFS:
          rec = parse_table_section (self, info, TABLE_NAME_LEN + 4, 12, &tab, error);
          if (rec == NULL)
            return FALSE;
          for (guint32 j = 0; j < info->count; j++, rec += 12)
            {
              PendingDef def = { 0 };

              def.key = cpel_file_read32 (self, rec);
              if (cpel_u32map_get (seen_codes, def.key) != CPEL_U32MAP_NONE)
                {
                  cpel_file_warn (self, _("Event code %u is defined again at offset %" PRIu64
                                          "; the first definition is kept"),
                                  def.key, (guint64) (rec - self->data));
                  continue;
                }
              cpel_u32map_insert (seen_codes, def.key, 1);
              def.format1 = compile_format (tab, cpel_file_read32 (self, rec + 4), "E%d");
              def.format2 = compile_format (tab, cpel_file_read32 (self, rec + 8), "");
              def.tab = tab;
              g_array_append_val (event_defs, def);
            }
          break;

        case CPEL_SECTION_TRACK_DEFS:
          rec = parse_table_section (self, info, TABLE_NAME_LEN + 4, 8, &tab, error);
          if (rec == NULL)
            return FALSE;
          for (guint32 j = 0; j < info->count; j++, rec += 8)
            {
              PendingDef def = { 0 };
              guint32 fmt;

              def.key = cpel_file_read32 (self, rec);
              if (cpel_u32map_get (seen_tracks, def.key) != CPEL_U32MAP_NONE)
                {
                  cpel_file_warn (self, _("Track %u is defined again at offset %" PRIu64
                                          "; the first definition is kept"),
                                  def.key, (guint64) (rec - self->data));
                  continue;
                }
              cpel_u32map_insert (seen_tracks, def.key, 1);
              fmt = cpel_file_read32 (self, rec + 4);
              def.format1 = fmt ? compile_format (tab, fmt, "") : NULL;
              def.tab = tab;
              g_array_append_val (track_defs, def);
            }
          break;

        case CPEL_SECTION_EXT_SOURCE_INFO:
          parse_source_info (self, info);
          break;

        case CPEL_SECTION_EXT_EVENT_TEXTS:
          parse_event_texts (self, info);
          break;

        case CPEL_SECTION_EXT_CALL_CHAINS:
          cpel_file_parse_call_chains (self, info);
          break;

        default:
          cpel_file_warn (self, _("Unknown section type %u at offset %" PRIu64 " skipped"),
                          info->type, info->offset);
          break;
        }
    }

  if (unsorted)
    cpel_file_warn (self, _("Symbols are not sorted by value; they were sorted"));
  qsort (self->symbols, self->n_symbols, sizeof (CpelSymbol), compare_symbols);
  self->symtab.symbols = self->symbols;
  self->symtab.n_symbols = self->n_symbols;
  return TRUE;
}

gboolean
cpel_file_parse_event_sections (CpelFile               *self,
                                const CpelLoadOptions  *options,
                                GError                **error)
{
  guint n = 0;

  for (guint i = 0; i < self->sections->len; i++)
    if (g_array_index (self->sections, CpelSectionInfo, i).type == CPEL_SECTION_EVENTS)
      n++;
  self->evsecs = g_new0 (CpelEventSection, MAX (n, 1));

  for (guint i = 0; i < self->sections->len; i++)
    {
      CpelSectionInfo *info = &g_array_index (self->sections, CpelSectionInfo, i);
      CpelEventSection *es;
      const CpelStrtab *tab = NULL;
      const guint8 *rec;
      guint32 clock;

      if (info->type != CPEL_SECTION_EVENTS)
        continue;
      rec = parse_table_section (self, info, TABLE_NAME_LEN + 8, CPEL_EVENT_RECORD_SIZE, &tab, error);
      if (rec == NULL)
        return FALSE;
      clock = cpel_file_read32 (self, self->data + info->offset + 8 + TABLE_NAME_LEN + 4);

      es = &self->evsecs[self->n_evsecs++];
      es->records = rec;
      es->count = info->count;
      es->first_index = self->n_events;
      es->strtab = tab;
      if (options && options->ticks_per_second)
        es->tps = options->ticks_per_second;
      else if (clock == 0)
        {
          if (info->count == 0)
            es->tps = 1000000000;
          else
            SECTION_FAIL (CPEL_ERROR_CLOCK,
                          _("Event section at offset %" PRIu64 " has a clock rate of 0"),
                          info->offset);
        }
      else if (clock < 100000)
        {
          es->tps = (guint64) clock * 1000000;
          info->clock_per_us = TRUE;
          cpel_file_warn (self, _("Event section at offset %" PRIu64 ": clock %u is read as ticks "
                                  "per microsecond (%" PRIu64 " per second)"),
                          info->offset, clock, es->tps);
        }
      else
        es->tps = clock;
      info->ticks_per_second = es->tps;

      self->n_events += info->count;
      if (self->n_events > CPEL_MAX_EVENTS)
        SECTION_FAIL (CPEL_ERROR_TOO_LARGE,
                      _("Event section at offset %" PRIu64 ": more than %" PRIu64
                        " events in all"),
                      info->offset, CPEL_MAX_EVENTS);
    }
  if (self->n_evsecs == 0)
    {
      self->evsecs[0].tps = 1000000000;
      cpel_file_warn (self, _("The file has no event section"));
    }
  return TRUE;
}

/* Labels of tracks and names of types, once the index knows every id/code. */
void
cpel_file_apply_definitions (CpelFile *self,
                             GArray   *event_defs,
                             GArray   *track_defs)
{
  for (guint i = 0; i < track_defs->len; i++)
    {
      PendingDef *def = &g_array_index (track_defs, PendingDef, i);
      guint32 slot = cpel_u32map_get (self->track_map, def->key);

      if (slot != CPEL_U32MAP_NONE && def->format1 != NULL)
        self->tracks[slot].label = apply_format (def->format1, def->key, def->tab, &self->symtab);
      g_clear_pointer (&def->format1, cpel_format_free);
    }
  for (guint slot = 0; slot < self->n_tracks; slot++)
    if (self->tracks[slot].label == NULL)
      {
        guint32 id = self->tracks[slot].id;
        self->tracks[slot].label = id <= 65535 ? g_strdup_printf ("%u", id) : g_strdup_printf ("0x%08x", id);
      }

  for (guint i = 0; i < event_defs->len; i++)
    {
      PendingDef *def = &g_array_index (event_defs, PendingDef, i);
      guint32 type = cpel_u32map_get (self->type_map, def->key);
      CpelType *t;

      g_assert (type != CPEL_U32MAP_NONE);
      t = &self->types[type];
      t->defined = TRUE;
      t->name = apply_format (def->format1, def->key, def->tab, &self->symtab);
      t->datum_format = g_steal_pointer (&def->format2);
      g_clear_pointer (&def->format1, cpel_format_free);
    }
  for (guint i = 0; i < self->n_types; i++)
    if (!self->types[i].defined)
      {
        self->types[i].name = g_strdup_printf ("E%d", (gint32) self->types[i].code);
        self->types[i].datum_format = cpel_format_new ("", 0);
      }
}

void
cpel_file_clear_pending_def (gpointer p)
{
  PendingDef *def = p;

  g_clear_pointer (&def->format1, cpel_format_free);
  g_clear_pointer (&def->format2, cpel_format_free);
}

/* Called by the index once it knows the event codes: register defined codes
 * too, then number all codes in ascending order. */
void
cpel_file_add_defined_keys (GArray *defs,
                            GArray *keys)
{
  for (guint i = 0; i < defs->len; i++)
    g_array_append_val (keys, g_array_index (defs, PendingDef, i).key);
}
