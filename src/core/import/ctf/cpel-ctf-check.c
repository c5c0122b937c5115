/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-check.c — a CTF trace's metadata packets and LTTng index checked
 * before libbabeltrace2 reads the trace (see the header) */
#include "cpel-ctf-check.h"

#include <string.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"
#include "cpel-mapguard.h"

#define META_HEADER_BYTES   37u
#define INDEX_HEADER_BYTES  16u
#define INDEX_MAGIC         0xC1F1DCC1u
#define INDEX_MIN_ENTRY     56u          /* offset, sizes, times, discarded: 7 × u64 */
#define INDEX_MAX_ENTRY     4096u
#define CHECK_MAX_INDEXES   65536u       /* index files looked at */

static guint32
rd32 (const guint8 *p, gboolean be)
{
  guint32 v;
  memcpy (&v, p, 4);
  return be ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

static guint64
rd64 (const guint8 *p, gboolean be)
{
  guint64 v;
  memcpy (&v, p, 8);
  return be ? GUINT64_FROM_BE (v) : GUINT64_FROM_LE (v);
}

static gboolean
damaged (GError **error, const char *file, guint64 offset, const char *what)
{
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
               _("This CTF trace is damaged (%s, byte %" PRIu64 ": %s)"), file, offset, what);
  return FALSE;
}

/* A file mapped and guarded (cpel-mapguard.h): one that shrinks while it
 * is checked reads zeros from there on instead of raising SIGBUS, and the
 * check then says the file changed. */
typedef struct
{
  GMappedFile  *map;
  guint         guard;
  const guint8 *p;
  guint64       size;
} Mapped;

static gboolean
mapped_open (Mapped *m, const char *path)
{
  m->map = g_mapped_file_new (path, FALSE, NULL);
  if (m->map == NULL)
    return FALSE;
  m->p = (const guint8 *) g_mapped_file_get_contents (m->map);
  m->size = g_mapped_file_get_length (m->map);
  if (m->size > 0)
    m->guard = cpel_mapguard_register (m->p, m->size);
  return TRUE;
}

static void
mapped_close (Mapped *m)
{
  cpel_mapguard_unregister (m->guard);
  m->guard = 0;
  g_clear_pointer (&m->map, g_mapped_file_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Mapped, mapped_close)

/* The check's verdict `ok` (its error in `local`), unless the file shrank
 * under it: then that. */
static gboolean
mapped_verdict (Mapped *m, const char *path, gboolean ok, GError *local, GError **error)
{
  if (cpel_mapguard_is_damaged (m->guard))
    {
      g_clear_error (&local);
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s: %s", path,
                   _("The file changed on disk while it was read"));
      return FALSE;
    }
  if (local != NULL)
    g_propagate_error (error, local);
  return ok;
}

static gboolean
check_metadata_bytes (const char *path, const guint8 *p, guint64 size, GError **error)
{
  if (size < 4)
    return TRUE;
  gboolean be;
  if (rd32 (p, FALSE) == 0x75D11D57u)
    be = FALSE;
  else if (rd32 (p, TRUE) == 0x75D11D57u)
    be = TRUE;
  else
    return TRUE;      /* text metadata */

  guint64 off = 0;
  while (off < size)
    {
      g_autofree char *what = NULL;
      if (size - off < META_HEADER_BYTES)
        what = g_strdup_printf (_("a metadata packet header of %u bytes, %" PRIu64
                                  " bytes left in the file"), META_HEADER_BYTES, size - off);
      else if (rd32 (p + off, be) != 0x75D11D57u)
        what = g_strdup (_("a metadata packet without its magic number 0x75D11D57"));
      else
        {
          guint64 content = rd32 (p + off + 24, be), packet = rd32 (p + off + 28, be);
          if (packet % 8 != 0 || content % 8 != 0 || packet < META_HEADER_BYTES * 8)
            what = g_strdup_printf (_("a metadata packet of %" PRIu64 " bits, content %" PRIu64
                                      " bits: not whole bytes or shorter than its header"),
                                    packet, content);
          else if (content < META_HEADER_BYTES * 8 || content > packet)
            what = g_strdup_printf (_("a metadata packet's content of %" PRIu64
                                      " bits is outside its %" PRIu64 " bits"), content, packet);
          else if (packet / 8 > size - off)
            what = g_strdup_printf (_("a metadata packet of %" PRIu64 " bytes, %" PRIu64
                                      " bytes left in the file"), packet / 8, size - off);
          else if (p[off + 32] != 0 || p[off + 33] != 0 || p[off + 34] != 0)
            what = g_strdup (_("a compressed, encrypted or checksummed metadata packet"));
          else
            {
              off += packet / 8;
              continue;
            }
        }
      return damaged (error, path, off, what);
    }
  return TRUE;
}

static guint64
file_bytes (const char *path)
{
  GStatBuf st;
  return g_stat (path, &st) == 0 && S_ISREG (st.st_mode) ? (guint64) st.st_size : 0;
}

/* The content size written in the stream's packet at `off` when the packet
 * context is LTTng's (packet header 32 bytes, then timestamp_begin,
 * timestamp_end, content_size, packet_size: the last equal to the index's). */
static gboolean
check_stream_packet (FILE *f, const char *stream, guint64 off, guint64 packet_bits,
                     GError **error)
{
  guint8 b[64];
  if (fseeko (f, (off_t) off, SEEK_SET) != 0 || fread (b, 1, sizeof b, f) != sizeof b)
    return TRUE;
  if (rd32 (b, FALSE) != 0xC1FC1FC1u && rd32 (b, TRUE) != 0xC1FC1FC1u)
    return TRUE;
  gboolean be = rd32 (b, TRUE) == 0xC1FC1FC1u;
  if (rd64 (b + 56, be) != packet_bits)
    return TRUE;      /* not LTTng's layout: libbabeltrace2 checks */
  guint64 content = rd64 (b + 48, be);
  if (content > packet_bits)
    {
      g_autofree char *what = g_strdup_printf (_("a packet's content of %" PRIu64
                                                 " bits exceeds its %" PRIu64 " bits"),
                                               content, packet_bits);
      return damaged (error, stream, off, what);
    }
  return TRUE;
}

static gboolean
check_metadata (const char *dir, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "metadata", NULL);
  g_auto(Mapped) m = { 0 };
  GError *local = NULL;
  if (!mapped_open (&m, path))
    return TRUE;      /* the reader says why */
  gboolean ok = check_metadata_bytes (path, m.p, m.size, &local);
  return mapped_verdict (&m, path, ok, local, error);
}

static gboolean
check_index_bytes (const char *path, const char *stream, const char *sname,
                   guint64 stream_size, const guint8 *p, guint64 size, GError **error)
{
  if (size < INDEX_HEADER_BYTES || rd32 (p, TRUE) != INDEX_MAGIC)
    return TRUE;      /* not an index libbabeltrace2 uses */
  guint32 entry = rd32 (p + 12, TRUE);
  if (entry < INDEX_MIN_ENTRY || entry > INDEX_MAX_ENTRY)
    {
      g_autofree char *what = g_strdup_printf (_("index entries of %u bytes"), entry);
      return damaged (error, path, 12, what);
    }
  FILE *f = g_fopen (stream, "rb");
  gboolean ok = TRUE;
  for (guint64 off = INDEX_HEADER_BYTES; ok && size - off >= entry; off += entry)
    {
      guint64 poff = rd64 (p + off, TRUE), psize = rd64 (p + off + 8, TRUE);
      guint64 csize = rd64 (p + off + 16, TRUE);
      g_autofree char *what = NULL;
      if (psize == 0 || psize % 8 != 0)
        what = g_strdup_printf (_("an index entry's packet of %" PRIu64 " bits"), psize);
      else if (csize > psize)
        what = g_strdup_printf (_("an index entry's content of %" PRIu64
                                  " bits exceeds its packet of %" PRIu64 " bits"), csize, psize);
      else if (poff > stream_size || psize / 8 > stream_size - poff)
        what = g_strdup_printf (_("an index entry's packet at byte %" PRIu64 ", %" PRIu64
                                  " bytes, past the end of %s (%" PRIu64 " bytes)"),
                                poff, psize / 8, sname, stream_size);
      if (what != NULL)
        ok = damaged (error, path, off, what);
      else if (f != NULL)
        ok = check_stream_packet (f, stream, poff, psize, error);
    }
  if (f != NULL)
    fclose (f);
  return ok;
}

static gboolean
check_index (const char *dir, const char *name, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "index", name, NULL);
  g_autofree char *sname = g_strndup (name, strlen (name) - 4);
  g_autofree char *stream = g_build_filename (dir, sname, NULL);
  guint64 stream_size = file_bytes (stream);
  g_auto(Mapped) m = { 0 };
  GError *local = NULL;
  if (!g_file_test (stream, G_FILE_TEST_IS_REGULAR) || !mapped_open (&m, path))
    return TRUE;
  gboolean ok = check_index_bytes (path, stream, sname, stream_size, m.p, m.size, &local);
  return mapped_verdict (&m, path, ok, local, error);
}

gboolean
cpel_ctf_check_trace_dir (const char *dir, GError **error)
{
  g_return_val_if_fail (dir != NULL, FALSE);
  if (!check_metadata (dir, error))
    return FALSE;
  g_autofree char *idx = g_build_filename (dir, "index", NULL);
  g_autoptr(GDir) d = g_dir_open (idx, 0, NULL);
  const char *name;
  guint n = 0;
  while (d != NULL && n++ < CHECK_MAX_INDEXES && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".idx") && strlen (name) > 4 && !check_index (dir, name, error))
      return FALSE;
  return TRUE;
}
