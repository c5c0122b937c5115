/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-elf-symbols.h — the function symbols of an ELF file (libelf)
 *
 * Used to name perf sample addresses: the symbol table (.symtab, else
 * .dynsym) of a binary or its detached debug file, its loadable segments
 * (to turn a file offset into an address) and its GNU build id.  The file
 * is untrusted: libelf reads it, every index and size it returns is checked
 * before use, the number of symbols is bounded by the bytes of their table.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CpelPerfElfSymbols CpelPerfElfSymbols;

/* Reads a copy of `data` (the fuzz target and the tests). */
CpelPerfElfSymbols *cpel_perf_elf_symbols_new_from_data (const guint8 *data,
                                                gsize         size,
                                                GError      **error);
/* Opens a regular file (not a FIFO, device or directory; at most 2 GiB). */
CpelPerfElfSymbols *cpel_perf_elf_symbols_new_for_path  (const char   *path,
                                                GError      **error);
void            cpel_perf_elf_symbols_free          (CpelPerfElfSymbols *self);

/* The GNU build id (NULL when the file has none). */
const guint8   *cpel_perf_elf_symbols_get_build_id  (CpelPerfElfSymbols *self,
                                                gsize          *size);
guint           cpel_perf_elf_symbols_get_n_symbols (CpelPerfElfSymbols *self);

/* The address a file offset is loaded at (PT_LOAD segments); FALSE when
 * no segment holds it. */
gboolean        cpel_perf_elf_symbols_offset_to_address (CpelPerfElfSymbols *self,
                                                    guint64         offset,
                                                    guint64        *address);

/* The function symbol holding `address` (name and offset into it), chosen
 * among aliases and sized as perf does, a PLT entry (`name@plt`) first;
 * NULL when none. */
const char     *cpel_perf_elf_symbols_lookup        (CpelPerfElfSymbols *self,
                                                guint64         address,
                                                guint64        *offset);

/* Only the PLT entries. */
const char     *cpel_perf_elf_symbols_lookup_plt    (CpelPerfElfSymbols *self,
                                                guint64         address,
                                                guint64        *offset);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelPerfElfSymbols, cpel_perf_elf_symbols_free)

/* --- shared with cpel-perf-symbols.c: a sorted table of symbols -------- */

typedef struct
{
  guint64 start, end;
  guint32 name;         /* offset in the names chunk */
  guint8  binding;      /* 0 local, 1 global, 2 weak (ELF STB_*) */
  guint8  module;       /* kallsyms: a module's symbol */
} CpelSym;

/* Sorts `syms` by start (stable), keeps one of each group of aliases (the
 * one perf keeps: sized over unsized, global over weak over local, fewer
 * leading underscores, the longer name), and gives unsized symbols the
 * start of the next as their end (`kallsyms`: module-aware, last one to the
 * next page, as perf does for the kernel). */
void            cpel_sym_table_finish          (GArray       *syms,
                                                const char   *names,
                                                gboolean      kallsyms);
/* The symbol with start <= addr < end, or NULL. */
const CpelSym  *cpel_sym_table_lookup          (GArray       *syms,
                                                guint64       addr);

G_END_DECLS
