/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import-compressed.c — gzip (GIO's GZlibDecompressor) and zstd
 * (libzstd, when built with it) captures decompressed into memory */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <inttypes.h>

#include <glib/gi18n-lib.h>
#if HAVE_ZSTD
#include <zstd.h>
#endif

#include "cpel-error.h"
#include "cpel-import-compressed.h"

/* Output grows by this much at a time (and the limit is checked as often). */
#define CHUNK (1u << 20)

CpelCompression
cpel_import_compression_detect (const guint8 *data,
                                gsize         size)
{
  static const guint8 xz[6] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };

  if (size >= 3 && data[0] == 0x1f && data[1] == 0x8b && data[2] == 8)
    return CPEL_COMPRESSION_GZIP;
  if (size >= 4 && data[0] == 0x28 && data[1] == 0xb5 && data[2] == 0x2f && data[3] == 0xfd)
    return CPEL_COMPRESSION_ZSTD;
  if (size >= sizeof xz && memcmp (data, xz, sizeof xz) == 0)
    return CPEL_COMPRESSION_XZ;
  return CPEL_COMPRESSION_NONE;
}

const char *
cpel_import_compression_name (CpelCompression compression)
{
  switch (compression)
    {
    case CPEL_COMPRESSION_GZIP:
      return "gzip";
    case CPEL_COMPRESSION_ZSTD:
      return "zstd";
    case CPEL_COMPRESSION_XZ:
      return "xz";
    case CPEL_COMPRESSION_NONE:
    default:
      return NULL;
    }
}

guint64
cpel_import_decompress_limit (void)
{
  guint64 limit = CPEL_IMPORT_DECOMPRESS_MAX;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  long pages = sysconf (_SC_PHYS_PAGES);
  long page = sysconf (_SC_PAGESIZE);

  if (pages > 0 && page > 0)
    limit = MIN (limit, (guint64) pages * (guint64) page / 2);
#endif
  return limit;
}

static void
set_too_large (GError     **error,
               const char  *name,
               guint64      limit)
{
  g_autofree char *size = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);

  g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
               _("This %s-compressed file holds more than %s once decompressed, the most this "
                 "program decompresses in memory: decompress it first"), name, size);
}

static GBytes *
gunzip (const guint8  *data,
        gsize          size,
        guint64        limit,
        GCancellable  *cancellable,
        GError       **error)
{
  g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize in_pos = 0;

  for (;;)
    {
      g_autoptr(GError) local = NULL;
      gsize read = 0, written = 0, room;
      GConverterResult r;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (out->len >= limit)
        {
          set_too_large (error, "gzip", limit);
          return NULL;
        }
      room = (gsize) MIN ((guint64) CHUNK, limit - out->len);
      g_byte_array_set_size (out, out->len + room);
      r = g_converter_convert (G_CONVERTER (z), data + in_pos, size - in_pos,
                               out->data + out->len - room, room,
                               G_CONVERTER_INPUT_AT_END, &read, &written, &local);
      g_byte_array_set_size (out, out->len - room + written);
      in_pos += read;
      if (r == G_CONVERTER_ERROR)
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
            continue;   /* room was too small for one step: the limit decides */
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                       _("The gzip data is damaged near offset %" PRIu64 " of the file (%s)"),
                       (guint64) in_pos, local->message);
          return NULL;
        }
      if (r == G_CONVERTER_FINISHED)
        {
          /* gzip -c a b > c: members one after the other */
          if (size - in_pos >= 3
              && cpel_import_compression_detect (data + in_pos, size - in_pos)
                 == CPEL_COMPRESSION_GZIP)
            {
              g_converter_reset (G_CONVERTER (z));
              continue;
            }
          break;
        }
      if (read == 0 && written == 0 && in_pos == size)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                       _("The gzip data ends early, at offset %" PRIu64), (guint64) size);
          return NULL;
        }
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

#if HAVE_ZSTD
static GBytes *
unzstd (const guint8  *data,
        gsize          size,
        guint64        limit,
        GCancellable  *cancellable,
        GError       **error)
{
  ZSTD_DCtx *z = ZSTD_createDCtx ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  ZSTD_inBuffer in = { data, size, 0 };
  size_t last = 0;

  if (z == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, g_strerror (ENOMEM));
      return NULL;
    }
  while (in.pos < in.size)
    {
      ZSTD_outBuffer o;
      gsize room;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ZSTD_freeDCtx (z);
          return NULL;
        }
      if (out->len >= limit)
        {
          ZSTD_freeDCtx (z);
          set_too_large (error, "zstd", limit);
          return NULL;
        }
      room = (gsize) MIN ((guint64) CHUNK, limit - out->len);
      g_byte_array_set_size (out, out->len + room);
      o.dst = out->data + out->len - room;
      o.size = room;
      o.pos = 0;
      last = ZSTD_decompressStream (z, &o, &in);
      g_byte_array_set_size (out, out->len - room + o.pos);
      if (ZSTD_isError (last))
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                       _("The zstd data is damaged near offset %" PRIu64 " of the file (%s)"),
                       (guint64) in.pos, ZSTD_getErrorName (last));
          ZSTD_freeDCtx (z);
          return NULL;
        }
    }
  /* the output may still hold the end of the last frame */
  while (last != 0)
    {
      ZSTD_outBuffer o;
      gsize room;

      if (out->len >= limit)
        {
          ZSTD_freeDCtx (z);
          set_too_large (error, "zstd", limit);
          return NULL;
        }
      room = (gsize) MIN ((guint64) CHUNK, limit - out->len);
      g_byte_array_set_size (out, out->len + room);
      o.dst = out->data + out->len - room;
      o.size = room;
      o.pos = 0;
      last = ZSTD_decompressStream (z, &o, &in);
      g_byte_array_set_size (out, out->len - room + o.pos);
      if (ZSTD_isError (last) || (o.pos == 0 && last != 0))
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                       _("The zstd data ends early, at offset %" PRIu64), (guint64) size);
          ZSTD_freeDCtx (z);
          return NULL;
        }
    }
  ZSTD_freeDCtx (z);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
#endif

GBytes *
cpel_import_decompress (const guint8  *data,
                        gsize          size,
                        guint64        limit,
                        GCancellable  *cancellable,
                        GError       **error)
{
  CpelCompression c;

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  c = cpel_import_compression_detect (data, size);
  switch (c)
    {
    case CPEL_COMPRESSION_GZIP:
      return gunzip (data, size, limit, cancellable, error);
    case CPEL_COMPRESSION_ZSTD:
#if HAVE_ZSTD
      return unzstd (data, size, limit, cancellable, error);
#else
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                           _("This is a zstd-compressed file: decompress it first "
                             "(this program was built without libzstd)"));
      return NULL;
#endif
    case CPEL_COMPRESSION_XZ:
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                           _("This is an xz-compressed file: decompress it first (unxz)"));
      return NULL;
    case CPEL_COMPRESSION_NONE:
    default:
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                           _("This is not a compressed file"));
      return NULL;
    }
}

static gboolean
probe_compressed (const guint8 *data,
                  gsize         size,
                  const char   *path)
{
  return cpel_import_compression_detect (data, size) != CPEL_COMPRESSION_NONE;
}

const CpelImporter cpel_importer_compressed = {
  .id = "compressed",
  .name = N_("compressed file"),
  .mime_type = "application/gzip",
  .patterns = (const char * const[]) { "*.gz", "*.zst", NULL },
  .directory = FALSE,
  .probe = probe_compressed,
  .import = NULL,
};
