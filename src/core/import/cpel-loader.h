/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-loader.h — opening an event log of any supported format
 *
 * The import layer's entry points: the format is detected from the content
 * (cpel_import_detect ()), a CPEL file goes straight to the core
 * (cpel_file_new_for_cpel_path (): mapped, with the index cache as the
 * options say), any other format through its importer into CPEL made in
 * memory (cpel_file_new_imported ()), whose event texts are made from the
 * source when asked.
 */
#pragma once

#include "cpel-file.h"

G_BEGIN_DECLS

/* The event log at `path` (a file, or a folder for CTF), any supported
 * format; options->ticks_per_second applies to imports too, the cache
 * options to CPEL files only.  Progress covers import and index. */
CpelFile     *cpel_file_new_for_path       (const char             *path,
                                            const CpelLoadOptions  *options,
                                            GCancellable           *cancellable,
                                            CpelProgressFunc        progress,
                                            gpointer                progress_data,
                                            GError                **error);
/* Load from memory, any supported file format (the bytes are kept referenced). */
CpelFile     *cpel_file_new_for_bytes      (GBytes                 *bytes,
                                            const CpelLoadOptions  *options,
                                            GError                **error);

G_END_DECLS
