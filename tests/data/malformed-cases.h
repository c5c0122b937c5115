/* SPDX-License-Identifier: Apache-2.0 */
/* malformed-cases.h — the malformed-file corpus, byte by byte
 *
 * Every case builds a small CPEL file with explicit bytes and states what
 * loading it must give: a CPEL_ERROR code and a piece of the message that
 * names the offset of the fault, or (code -1) a successful load whose
 * warnings / labels `check` verifies.  Used by test-malformed.c (the
 * loader), test-malformed-cli.c (`cpel info` / `cpel dump`) and
 * test-leaks.c; `test-malformed --write DIR` writes them out as files (the
 * fuzz corpus holds them as regression seeds).
 */
#pragma once

#include <string.h>

#include "cpel-core.h"

typedef struct
{
  GByteArray *b;
  gboolean    le;
} W;

static inline void
w_bytes (W *w, const void *p, gsize n)
{
  g_byte_array_append (w->b, p, (guint) n);
}

static inline void
w_u8 (W *w, guint8 v)
{
  w_bytes (w, &v, 1);
}

static inline void
w_u32 (W *w, guint32 v)
{
  guint32 x = w->le ? GUINT32_TO_LE (v) : GUINT32_TO_BE (v);
  w_bytes (w, &x, 4);
}

/* File header: version, number of sections, date. */
static inline void
w_header (W *w, guint8 version, guint16 n_sections)
{
  w_u8 (w, version | (w->le ? 0x80 : 0));
  w_u8 (w, 0);
  if (w->le)
    {
      w_u8 (w, n_sections & 0xff);
      w_u8 (w, n_sections >> 8);
    }
  else
    {
      w_u8 (w, n_sections >> 8);
      w_u8 (w, n_sections & 0xff);
    }
  w_u32 (w, 1700000000);
}

/* Section TLV header. */
static inline void
w_section (W *w, guint32 type, guint32 length)
{
  w_u32 (w, type);
  w_u32 (w, length);
}

/* A 64-octet table name field. */
static inline void
w_name (W *w, const char *name)
{
  guint8 field[64] = { 0 };
  memcpy (field, name, MIN (strlen (name), sizeof field));
  w_bytes (w, field, sizeof field);
}

/* A string table section "T" holding exactly `n` bytes (name included). */
static inline void
w_strtab (W *w, const char *bytes, guint32 n)
{
  w_section (w, CPEL_SECTION_STRING_TABLE, n);
  w_bytes (w, bytes, n);
}

/* One 20-octet event record. */
static inline void
w_event (W *w, guint64 ticks, guint32 track, guint32 code, guint32 datum)
{
  w_u32 (w, ticks >> 32);
  w_u32 (w, ticks & 0xffffffff);
  w_u32 (w, track);
  w_u32 (w, code);
  w_u32 (w, datum);
}

/* ---- the files -------------------------------------------------------- */

static void
mk_empty (W *w)
{
}

static void
mk_header_truncated (W *w)
{
  w_bytes (w, "\x01\x00\x00", 3);
}

static void
mk_header_7_bytes (W *w)
{
  w_bytes (w, "\x01\x00\x00\x01\x65\x5f\x00", 7);
}

/* one section announced, 4 of its 8 header octets present */
static void
mk_section_header_truncated (W *w)
{
  w_header (w, 1, 1);
  w_u32 (w, CPEL_SECTION_STRING_TABLE);
}

/* a good string table, then event definitions claiming 200 data octets of 20 */
static void
mk_section_truncated (W *w)
{
  w_header (w, 1, 2);
  w_strtab (w, "T\0\0\0E%d\0\0", 8);                     /* offset 8, 16 octets */
  w_section (w, CPEL_SECTION_EVENT_DEFS, 200);            /* offset 24 */
  w_name (w, "T");
  w_u32 (w, 1);
}

/* an events section of 2 records whose second record is cut after 10 octets */
static void
mk_event_truncated (W *w)
{
  w_header (w, 1, 2);
  w_strtab (w, "T\0\0\0", 4);                             /* offset 8 */
  w_section (w, CPEL_SECTION_EVENTS, 72 + 40);            /* offset 20 */
  w_name (w, "T");
  w_u32 (w, 2);
  w_u32 (w, 1000000000);
  w_event (w, 100, 1, 1, 0);
  w_u32 (w, 0);
  w_u32 (w, 200);
  w_u8 (w, 0);
  w_u8 (w, 0);
}

/* an events section claiming 3 records but long enough for 2 */
static void
mk_count_past_section (W *w)
{
  w_header (w, 1, 2);
  w_strtab (w, "T\0\0\0", 4);
  w_section (w, CPEL_SECTION_EVENTS, 72 + 40);            /* offset 20 */
  w_name (w, "T");
  w_u32 (w, 3);
  w_u32 (w, 1000000000);
  w_event (w, 100, 1, 1, 0);
  w_event (w, 200, 1, 1, 0);
}

/* a symbol table claiming 2^32-1 symbols in 8 octets */
static void
mk_symbols_count_huge (W *w)
{
  w_header (w, 1, 1);
  w_section (w, CPEL_SECTION_SYMBOL_TABLE, 68 + 8);       /* offset 8 */
  w_name (w, "T");
  w_u32 (w, 0xffffffff);
  w_u32 (w, 0x1000);
  w_u32 (w, 1);
}

/* an events section claiming 2^32-1 events in 20 octets */
static void
mk_events_count_huge (W *w)
{
  w_header (w, 1, 1);
  w_section (w, CPEL_SECTION_EVENTS, 72 + 20);            /* offset 8 */
  w_name (w, "T");
  w_u32 (w, 0xffffffff);
  w_u32 (w, 1000000000);
  w_event (w, 1, 1, 1, 1);
}

/* 65535 sections announced in a 16-octet file */
static void
mk_sections_65535 (W *w)
{
  w_header (w, 1, 65535);
  w_section (w, 77, 0);                                   /* offset 8 */
}

/* an old Gist log: its first 4 octets are an event count */
static void
mk_gist (W *w)
{
  w->le = FALSE;
  w_u32 (w, 3);
  w_event (w, 1, 0, 1, 0);
}

static void
mk_version_2 (W *w)
{
  w_header (w, 2, 0);
}

static void
mk_version_127_le (W *w)
{
  w->le = TRUE;
  w_header (w, 127, 0);
}

/* an events section whose clock is 0 */
static void
mk_clock_0 (W *w)
{
  w_header (w, 1, 1);
  w_section (w, CPEL_SECTION_EVENTS, 72 + 20);            /* offset 8 */
  w_name (w, "T");
  w_u32 (w, 1);
  w_u32 (w, 0);
  w_event (w, 5, 1, 1, 0);
}

/* a string table claiming 4 GB in a 24-octet file */
static void
mk_strtab_4gb (W *w)
{
  w_header (w, 1, 1);
  w_section (w, CPEL_SECTION_STRING_TABLE, 0xfffffff0);   /* offset 8 */
  w_bytes (w, "T\0\0\0hello\0\0\0", 12);
}

/* the same, little-endian, after a good section */
static void
mk_strtab_4gb_le (W *w)
{
  w->le = TRUE;
  w_header (w, 1, 2);
  w_strtab (w, "A\0\0\0", 4);                             /* offset 8 */
  w_section (w, CPEL_SECTION_STRING_TABLE, 0xffffffff);   /* offset 20 */
  w_bytes (w, "T\0\0\0", 4);
}

/* event definitions 10 octets long: shorter than their own header */
static void
mk_defs_too_short (W *w)
{
  w_header (w, 1, 1);
  w_section (w, CPEL_SECTION_EVENT_DEFS, 10);             /* offset 8 */
  w_bytes (w, "T\0\0\0\0\0\0\0\0\0", 10);
}

/* an events section shorter than its 72-octet header */
static void
mk_events_too_short (W *w)
{
  w->le = TRUE;
  w_header (w, 1, 2);
  w_strtab (w, "T\0\0\0", 4);
  w_section (w, CPEL_SECTION_EVENTS, 68);                 /* offset 20 */
  w_name (w, "T");
  w_u32 (w, 0);
}

/* ---- files that load ---- */

/* every string offset points past its table */
static void
mk_offsets_past_table (W *w)
{
  w_header (w, 1, 5);
  w_strtab (w, "T\0\0\0%s\0\0", 8);                       /* offset 8; "%s" at 4 */
  w_section (w, CPEL_SECTION_SYMBOL_TABLE, 68 + 8);
  w_name (w, "T");
  w_u32 (w, 1);
  w_u32 (w, 0x1000);
  w_u32 (w, 0x400);                                       /* name past the table */
  w_section (w, CPEL_SECTION_EVENT_DEFS, 68 + 24);
  w_name (w, "T");
  w_u32 (w, 2);
  w_u32 (w, 1); w_u32 (w, 0x100); w_u32 (w, 0x200);       /* both formats past the table */
  w_u32 (w, 0x99); w_u32 (w, 4); w_u32 (w, 4);            /* "%s" and "%s" */
  w_section (w, CPEL_SECTION_TRACK_DEFS, 68 + 8);
  w_name (w, "T");
  w_u32 (w, 1);
  w_u32 (w, 7); w_u32 (w, 0x300);
  w_section (w, CPEL_SECTION_EVENTS, 72 + 40);
  w_name (w, "T");
  w_u32 (w, 2);
  w_u32 (w, 1000000000);
  w_event (w, 10, 7, 1, 0);
  w_event (w, 20, 7, 0x99, 0xdead);
}

/* a string table with no NUL at all; a format running to the end of its table */
static void
mk_strings_without_nul (W *w)
{
  w_header (w, 1, 4);
  w_strtab (w, "NONUL", 5);                               /* offset 8: no NUL anywhere */
  w_strtab (w, "T\0%s\0E-no-nul", 13);                    /* "%s" at 2, "E-no-nul" at 5, unterminated */
  w_section (w, CPEL_SECTION_EVENT_DEFS, 68 + 12);
  w_name (w, "T");
  w_u32 (w, 1);
  w_u32 (w, 1); w_u32 (w, 5); w_u32 (w, 2);
  w_section (w, CPEL_SECTION_EVENTS, 72 + 20);
  w_name (w, "T");
  w_u32 (w, 1);
  w_u32 (w, 1000000000);
  w_event (w, 10, 0, 1, 5);
}

static void
mk_no_sections (W *w)
{
  w_header (w, 1, 0);
}

/* an unknown section type and bytes after the last section */
static void
mk_unknown_section_trailing (W *w)
{
  w_header (w, 1, 1);
  w_section (w, 9, 4);                                    /* offset 8 */
  w_u32 (w, 0);
  w_bytes (w, "junk", 4);                                 /* offset 20 */
}

/* a table name filling its 64 octets with no NUL, naming no table */
static void
mk_name_without_nul (W *w)
{
  w_header (w, 1, 1);
  w_section (w, CPEL_SECTION_EVENTS, 72 + 20);
  w_bytes (w, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 64);
  w_u32 (w, 1);
  w_u32 (w, 1000000000);
  w_event (w, 10, 3, 4, 5);
}

/* a clock below 100000: read as ticks per microsecond */
static void
mk_clock_per_us (W *w)
{
  w->le = TRUE;
  w_header (w, 1, 1);
  w_section (w, CPEL_SECTION_EVENTS, 72 + 40);
  w_name (w, "T");
  w_u32 (w, 2);
  w_u32 (w, 1000);
  w_event (w, 0, 1, 1, 0);
  w_event (w, 1000, 1, 1, 0);
}

/* a track label and an event name ending inside a UTF-8 sequence */
static void
mk_label_invalid_utf8 (W *w)
{
  w_header (w, 1, 4);
  w_strtab (w, "T\0abc\xf0\0ev\xf0\0\0", 12);              /* "abc\xf0" at 2, "ev\xf0" at 7 */
  w_section (w, CPEL_SECTION_EVENT_DEFS, 68 + 12);
  w_name (w, "T");
  w_u32 (w, 1);
  w_u32 (w, 1); w_u32 (w, 7); w_u32 (w, 2);
  w_section (w, CPEL_SECTION_TRACK_DEFS, 68 + 8);
  w_name (w, "T");
  w_u32 (w, 1);
  w_u32 (w, 0); w_u32 (w, 2);
  w_section (w, CPEL_SECTION_EVENTS, 72 + 20);
  w_name (w, "T");
  w_u32 (w, 1);
  w_u32 (w, 1000000000);
  w_event (w, 10, 0, 1, 0);
}

/* ---- expectations for the files that load ---- */

static inline char *
malformed_label (CpelFile *file, guint64 nth)
{
  CpelMerge *merge = cpel_merge_new (file, NULL, 0, 0);
  CpelEvent ev;
  GString *s = g_string_new (NULL);

  for (guint64 i = 0; i <= nth; i++)
    g_assert_true (cpel_merge_next (merge, &ev, NULL));
  cpel_merge_free (merge);
  cpel_file_append_label (file, &ev, s);
  return g_string_free (s, FALSE);
}

static inline gboolean
malformed_has_warning (CpelFile *file, const char *needle)
{
  const char * const *w = cpel_file_get_warnings (file);

  for (guint i = 0; w[i]; i++)
    if (strstr (w[i], needle))
      return TRUE;
  return FALSE;
}

static void
check_offsets_past_table (CpelFile *file)
{
  char *l0 = malformed_label (file, 0), *l1 = malformed_label (file, 1);
  const CpelSymtab *sym = cpel_file_get_symtab (file);

  g_assert_cmpstr (l0, ==, "<bad string offset 0x100>: <bad string offset 0x200>");
  g_assert_cmpstr (l1, ==, "<bad string offset 0x99>: <bad string offset 0xdead>");
  g_assert_cmpstr (cpel_file_get_track_label (file, 0), ==, "<bad string offset 0x300>");
  g_assert_cmpuint (sym->n_symbols, ==, 1);
  g_assert_cmpmem (sym->symbols[0].name, sym->symbols[0].name_len, "<bad symbol name>", 17);
  g_free (l0);
  g_free (l1);
}

static void
check_strings_without_nul (CpelFile *file)
{
  char *l0 = malformed_label (file, 0);

  g_assert_true (malformed_has_warning (file, "offset 8 has no NUL"));
  g_assert_cmpstr (l0, ==, "E-no-nul: E-no-nul");
  g_free (l0);
}

static void
check_no_sections (CpelFile *file)
{
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 0);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 0);
  g_assert_true (malformed_has_warning (file, "no event section"));
}

static void
check_unknown_section_trailing (CpelFile *file)
{
  g_assert_true (malformed_has_warning (file, "type 9 at offset 8"));
  g_assert_true (malformed_has_warning (file, "offset 20"));
}

static void
check_name_without_nul (CpelFile *file)
{
  char *l0 = malformed_label (file, 0);

  g_assert_cmpuint (cpel_file_get_n_events (file), ==, 1);
  g_assert_true (malformed_has_warning (file, "does not exist"));
  g_assert_cmpuint (strlen (cpel_file_get_section (file, 0)->table_name), ==, 64);
  g_assert_cmpstr (l0, ==, "E4");
  g_free (l0);
}

static void
check_clock_per_us (CpelFile *file)
{
  g_assert_true (malformed_has_warning (file, "per microsecond"));
  g_assert_cmpint (cpel_file_get_duration (file), ==, 1000);
}

/* The core keeps a label's bytes as the file has them; showing them is the
 * caller's business (it must not assume UTF-8). */
static void
check_label_invalid_utf8 (CpelFile *file)
{
  char *l0 = malformed_label (file, 0);

  g_assert_cmpstr (cpel_file_get_track_label (file, 0), ==, "abc\xf0");
  g_assert_cmpstr (l0, ==, "ev\xf0: abc\xf0");
  g_free (l0);
}

typedef struct
{
  const char *name;
  void      (*build) (W *w);
  int         code;        /* CpelErrorCode, or -1: the file loads */
  const char *needle;      /* in the error message (errors) */
  void      (*check) (CpelFile *file);
} MalformedCase;

static const MalformedCase malformed_cases[] = {
  { "empty",                    mk_empty,                    CPEL_ERROR_EMPTY,     "offset 0", NULL },
  { "header-truncated",         mk_header_truncated,         CPEL_ERROR_TRUNCATED, "offset 3", NULL },
  { "header-7-bytes",           mk_header_7_bytes,           CPEL_ERROR_TRUNCATED, "offset 7", NULL },
  { "section-header-truncated", mk_section_header_truncated, CPEL_ERROR_TRUNCATED, "offset 8", NULL },
  { "section-truncated",        mk_section_truncated,        CPEL_ERROR_TRUNCATED, "offset 24", NULL },
  { "event-truncated",          mk_event_truncated,          CPEL_ERROR_TRUNCATED, "offset 20", NULL },
  { "count-past-section",       mk_count_past_section,       CPEL_ERROR_SECTION,   "offset 20", NULL },
  { "symbols-count-huge",       mk_symbols_count_huge,       CPEL_ERROR_SECTION,   "offset 8", NULL },
  { "events-count-huge",        mk_events_count_huge,        CPEL_ERROR_SECTION,   "offset 8", NULL },
  { "sections-65535",           mk_sections_65535,           CPEL_ERROR_TRUNCATED, "offset 16", NULL },
  { "gist",                     mk_gist,                     CPEL_ERROR_GIST,      "offset 0", NULL },
  { "version-2",                mk_version_2,                CPEL_ERROR_VERSION,   "offset 0", NULL },
  { "version-127-le",           mk_version_127_le,           CPEL_ERROR_VERSION,   "offset 0", NULL },
  { "clock-0",                  mk_clock_0,                  CPEL_ERROR_CLOCK,     "offset 8", NULL },
  { "strtab-4gb",               mk_strtab_4gb,               CPEL_ERROR_TRUNCATED, "offset 8", NULL },
  { "strtab-4gb-le",            mk_strtab_4gb_le,            CPEL_ERROR_TRUNCATED, "offset 20", NULL },
  { "defs-too-short",           mk_defs_too_short,           CPEL_ERROR_SECTION,   "offset 8", NULL },
  { "events-too-short",         mk_events_too_short,         CPEL_ERROR_SECTION,   "offset 20", NULL },
  { "offsets-past-table",       mk_offsets_past_table,       -1, NULL, check_offsets_past_table },
  { "strings-without-nul",      mk_strings_without_nul,      -1, NULL, check_strings_without_nul },
  { "no-sections",              mk_no_sections,              -1, NULL, check_no_sections },
  { "unknown-section-trailing", mk_unknown_section_trailing, -1, NULL, check_unknown_section_trailing },
  { "name-without-nul",         mk_name_without_nul,         -1, NULL, check_name_without_nul },
  { "clock-per-us",             mk_clock_per_us,             -1, NULL, check_clock_per_us },
  { "label-invalid-utf8",       mk_label_invalid_utf8,       -1, NULL, check_label_invalid_utf8 },
};

static inline GBytes *
malformed_build (const MalformedCase *c)
{
  W w = { g_byte_array_new (), FALSE };

  c->build (&w);
  return g_byte_array_free_to_bytes (w.b);
}
