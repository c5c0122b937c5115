/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-symbols.h — names for perf sample addresses
 *
 * Kernel addresses by a kallsyms text (the running kernel's /proc/kallsyms
 * or perf's build-id cache copy, only when it is the recording's kernel);
 * user addresses by the mapping (MMAP/MMAP2 records per process, inherited
 * on fork, dropped on exec, chosen by time) and the mapped binary's symbol
 * table (its detached debug file in /usr/lib/debug/.build-id when present,
 * else the file itself; a file whose build id differs from the recorded one
 * is not used).  Names as perf script prints them: `sym+0xoff`.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CpelPerfSymbols CpelPerfSymbols;

CpelPerfSymbols *cpel_perf_symbols_new         (void);
void             cpel_perf_symbols_free        (CpelPerfSymbols *self);

/* Kernel symbols from a kallsyms text (`addr type name [module]` lines;
 * damaged lines are skipped).  Returns the number of symbols kept. */
guint            cpel_perf_symbols_set_kallsyms (CpelPerfSymbols *self,
                                                 const char      *text,
                                                 gsize            len);
/* The address of `name` ("_text" or "_stext", the symbols perf relocates
 * the kernel by) in the kallsyms given (FALSE when absent or 0, as
 * /proc/kallsyms shows them to whom may not see addresses). */
gboolean         cpel_perf_symbols_kallsyms_address (CpelPerfSymbols *self,
                                                     const char      *name,
                                                     guint64         *address);
/* Added to every kallsyms address: the KASLR difference between the text
 * and the recording. */
void             cpel_perf_symbols_set_kernel_reloc (CpelPerfSymbols *self,
                                                     gint64           reloc);

/* A build id for a path (BUILD_ID feature), used when its maps carry none. */
void             cpel_perf_symbols_add_build_id (CpelPerfSymbols *self,
                                                 const char      *path,
                                                 const guint8    *build_id,
                                                 gsize            size);
/* An executable mapping of process `pid` from `time` on. */
void             cpel_perf_symbols_add_map      (CpelPerfSymbols *self,
                                                 guint32          pid,
                                                 guint64          time,
                                                 guint64          start,
                                                 guint64          len,
                                                 guint64          pgoff,
                                                 const char      *filename,
                                                 const guint8    *build_id,
                                                 gsize            build_id_size);
/* Process `pid` was forked from `ppid` at `time` (it has the parent's
 * mappings until it execs). */
void             cpel_perf_symbols_add_fork     (CpelPerfSymbols *self,
                                                 guint32          pid,
                                                 guint32          ppid,
                                                 guint64          time);
/* Process `pid` exec'd at `time`: older mappings are gone. */
void             cpel_perf_symbols_add_exec     (CpelPerfSymbols *self,
                                                 guint32          pid,
                                                 guint64          time);
/* Call once after the last add_*, before lookups. */
void             cpel_perf_symbols_prepare      (CpelPerfSymbols *self);

/* Appends ` sym+0xoff (dso)` for `ip` of process `pid` at `time` to `out`,
 * as perf script prints it: ` [unknown] (dso)` when only the mapping is
 * known (a kernel address: [kernel.kallsyms]), ` [unknown] ([unknown])` when
 * nothing is.  FALSE when neither symbol nor mapping is known.  `kernel`: a
 * kernel-mode sample. */
gboolean         cpel_perf_symbols_append       (CpelPerfSymbols *self,
                                                 guint32          pid,
                                                 gboolean         kernel,
                                                 guint64          ip,
                                                 guint64          time,
                                                 GString         *out);
/* The same, separately: the symbol (NULL when unknown), its offset and
 * the dso's name (NULL when no mapping). */
const char      *cpel_perf_symbols_lookup       (CpelPerfSymbols *self,
                                                 guint32          pid,
                                                 gboolean         kernel,
                                                 guint64          ip,
                                                 guint64          time,
                                                 guint64         *offset,
                                                 const char     **dso);

/* The same for a call chain frame, as perf names them: a process keeps
 * its mappings over exec until newer ones cover them (perf drops none at
 * exec), so that the frames of a sample taken inside execve () name the old
 * image the call came from. */
const char      *cpel_perf_symbols_lookup_frame (CpelPerfSymbols *self,
                                                 guint32          pid,
                                                 gboolean         kernel,
                                                 guint64          ip,
                                                 guint64          time,
                                                 guint64         *offset,
                                                 const char     **dso);

/* Of the mapped files looked up so far (paths only, not [vdso] or
 * //anon): how many gave symbols, how many were not found (missing, not
 * ELF, another build). */
void             cpel_perf_symbols_get_file_counts (CpelPerfSymbols *self,
                                                    guint           *found,
                                                    guint           *not_found);

/* Where binaries and debug files are looked up: a prefix for absolute
 * paths ("" = the root, the default) — for the tests. */
void             cpel_perf_symbols_set_root     (CpelPerfSymbols *self,
                                                 const char      *root);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelPerfSymbols, cpel_perf_symbols_free)

G_END_DECLS
