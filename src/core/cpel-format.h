/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-format.h — the CPEL label formatter (see doc/cpel-format.md)
 *
 * A file's format string is compiled once into a CpelFormat and then applied
 * to 32-bit values; it is never handed to printf.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Width and precision are capped at this value. */
#define CPEL_FORMAT_MAX_WIDTH 256

/* A string table: the section data of a type-1 section (the table's name is
 * its first string).  `%s` reads the NUL-terminated string at `value` bytes
 * from `data`; a string running to `len` without a NUL ends there; an offset
 * >= len renders as "<bad string offset 0x%x>". */
typedef struct
{
  const char *data;
  gsize       len;
} CpelStrtab;

/* One symbol; `name` need not be NUL-terminated. */
typedef struct
{
  guint32     value;
  guint32     name_len;
  const char *name;
} CpelSymbol;

/* Symbols sorted by value (ascending; ties keep their order). */
typedef struct
{
  const CpelSymbol *symbols;
  gsize             n_symbols;
} CpelSymtab;

typedef struct _CpelFormat CpelFormat;

/* Compile `fmt` (`len` bytes, or NUL-terminated when len < 0). Never fails. */
CpelFormat *cpel_format_new          (const char        *fmt,
                                      gssize             len);
void        cpel_format_free         (CpelFormat        *format);

/* TRUE when the format produces no output at all (empty string). */
gboolean    cpel_format_is_empty     (const CpelFormat  *format);
/* TRUE when it contains a %s conversion (output depends on a string table). */
gboolean    cpel_format_uses_string  (const CpelFormat  *format);
/* TRUE when the output is the same whatever the value (no conversions but %%). */
gboolean    cpel_format_is_constant  (const CpelFormat  *format);

/* Append the format applied to `value` to `out`.  `strtab` / `symtab` may be
 * NULL: %s then renders "<no string table>", %k renders 0x%08x. Output per
 * conversion is bounded (width cap; %s strings capped at CPEL_FORMAT_MAX_STRING). */
void        cpel_format_append       (const CpelFormat  *format,
                                      guint32            value,
                                      const CpelStrtab  *strtab,
                                      const CpelSymtab  *symtab,
                                      GString           *out);

/* A set of bytes: byte b is bit (b & 63) of w[b >> 6]. */
typedef struct
{
  guint64 w[4];
} CpelByteSet;

static inline void
cpel_byte_set_add (CpelByteSet *set,
                   guchar       c)
{
  set->w[c >> 6] |= G_GUINT64_CONSTANT (1) << (c & 63);
}

static inline gboolean
cpel_byte_set_has (const CpelByteSet *set,
                   guchar             c)
{
  return (set->w[c >> 6] >> (c & 63)) & 1;
}

static inline void
cpel_byte_set_add_len (CpelByteSet *set,
                       const char  *p,
                       gsize        len)
{
  for (gsize i = 0; i < len; i++)
    cpel_byte_set_add (set, (guchar) p[i]);
}

/* Adds to `set` every byte the format can produce for some value (a
 * superset): its literal text; digits, signs, hex letters, "0x" prefixes
 * and padding of numbers; %k's symbol names (from `symtab`, may be NULL);
 * every byte for %c and %s.  Search uses it to skip formatting labels that
 * cannot hold the text it looks for. */
void        cpel_format_alphabet     (const CpelFormat  *format,
                                      const CpelSymtab  *symtab,
                                      CpelByteSet       *set);

/* Longest %s string copied into a label (bytes). */
#define CPEL_FORMAT_MAX_STRING 4096

/* Index of the symbol with the greatest value <= `value`, or -1. */
gssize      cpel_symtab_lookup       (const CpelSymtab  *symtab,
                                      guint32            value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelFormat, cpel_format_free)

G_END_DECLS
