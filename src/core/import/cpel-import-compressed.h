/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import-compressed.h — captures compressed with gzip or zstd, opened
 * directly: decompressed into memory (bounded, see
 * cpel_import_decompress_limit ()), then detected as any file.  xz is
 * recognised and refused with a plain sentence (no liblzma). */
#pragma once

#include <gio/gio.h>

#include "cpel-import.h"

G_BEGIN_DECLS

typedef enum
{
  CPEL_COMPRESSION_NONE,
  CPEL_COMPRESSION_GZIP,
  CPEL_COMPRESSION_ZSTD,
  CPEL_COMPRESSION_XZ,
} CpelCompression;

/* The most a compressed capture may hold once decompressed: 4 GiB, and
 * never more than half of this machine's memory. */
#define CPEL_IMPORT_DECOMPRESS_MAX (G_GUINT64_CONSTANT (4) << 30)

/* Which compression the first bytes announce (its magic number). */
CpelCompression cpel_import_compression_detect (const guint8 *data,
                                                gsize         size);
/* "gzip", "zstd", "xz"; NULL for none. */
const char     *cpel_import_compression_name   (CpelCompression compression);
/* CPEL_IMPORT_DECOMPRESS_MAX, or half the physical memory when less. */
guint64         cpel_import_decompress_limit   (void);

/* The decompressed bytes of `data` (gzip, concatenated members too, or
 * zstd frames), or NULL with an error: xz, or zstd without libzstd
 * (decompress it first); damaged data (with the offset); more than `limit`
 * bytes. */
GBytes         *cpel_import_decompress         (const guint8  *data,
                                                gsize          size,
                                                guint64        limit,
                                                GCancellable  *cancellable,
                                                GError       **error);

/* Not in the table: what cpel_import_detect () returns for a compressed
 * file (the loader decompresses it and detects again). */
extern const CpelImporter cpel_importer_compressed;

G_END_DECLS
