/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-file-chains.c — the call chains extension section (perf record -g)
 *
 * doc/cpel-extensions.md, 0x43500003: per event the word offset of its
 * chain in a chain area; a chain is a length and that many frame numbers;
 * a frame is an address and string offsets of its symbol and binary.  The
 * section is untrusted like the rest of the file: its sizes are checked
 * when it is read (a damaged one is ignored with a warning), every offset
 * and frame number when a chain is read.
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "cpel-file-private.h"

#define HEAD_SIZE  16
#define FRAME_SIZE 16
#define NONE       G_MAXUINT32

static void
ignored (CpelFile        *self,
         CpelSectionInfo *info,
         const char      *why)
{
  cpel_file_warn (self, _("Call chains section at offset %" PRIu64 " ignored: %s"),
                  info->offset, why);
}

/* Every string of the area is valid UTF-8 and the last ends with a NUL. */
static gboolean
strings_valid (const char *s,
               gsize       len)
{
  gsize pos = 0;

  if (len == 0)
    return TRUE;
  if (s[len - 1] != '\0')
    return FALSE;
  while (pos < len)
    {
      const char *nul = memchr (s + pos, '\0', len - pos);
      gsize n = (gsize) (nul - (s + pos));

      if (!g_utf8_validate_len (s + pos, n, NULL))
        return FALSE;
      pos += n + 1;
    }
  return TRUE;
}

void
cpel_file_parse_call_chains (CpelFile        *self,
                             CpelSectionInfo *info)
{
  const guint8 *data = self->data + info->offset + 8;
  guint32 first, count, n_frames, n_words;
  guint64 need;

  if (self->chain_offsets != NULL)
    {
      ignored (self, info, _("there is another one before it"));
      return;
    }
  if (info->length < HEAD_SIZE)
    {
      ignored (self, info, _("it is too short"));
      return;
    }
  first = cpel_file_read32 (self, data);
  count = cpel_file_read32 (self, data + 4);
  n_frames = cpel_file_read32 (self, data + 8);
  n_words = cpel_file_read32 (self, data + 12);
  need = HEAD_SIZE + (guint64) count * 4 + (guint64) n_frames * FRAME_SIZE + (guint64) n_words * 4;
  if (need > info->length)
    {
      ignored (self, info, _("its counts need more bytes than it holds"));
      return;
    }
  if (!strings_valid ((const char *) data + need, info->length - need))
    {
      ignored (self, info, _("its names are not NUL-terminated UTF-8"));
      return;
    }
  info->count = count;
  self->chain_first = first;
  self->chain_count = count;
  self->chain_offsets = data + HEAD_SIZE;
  self->chain_frames = self->chain_offsets + (gsize) count * 4;
  self->chain_n_frames = n_frames;
  self->chain_words = self->chain_frames + (gsize) n_frames * FRAME_SIZE;
  self->chain_n_words = n_words;
  self->chain_strings = (const char *) data + need;
  self->chain_strings_len = info->length - need;
}

gboolean
cpel_file_has_call_chains (CpelFile *self)
{
  g_return_val_if_fail (CPEL_IS_FILE (self), FALSE);
  return self->chain_offsets != NULL && self->chain_count > 0;
}

static const char *
chain_string (const CpelFile *self,
              guint32         offset)
{
  /* the area ends with a NUL (checked on load) */
  return offset < self->chain_strings_len ? self->chain_strings + offset : NULL;
}

guint
cpel_file_get_event_chain (CpelFile       *self,
                           guint64         file_index,
                           CpelChainFrame *frames,
                           guint           n_max)
{
  guint32 off, len;

  g_return_val_if_fail (CPEL_IS_FILE (self), 0);
  g_return_val_if_fail (frames != NULL || n_max == 0, 0);

  if (self->chain_offsets == NULL || file_index < self->chain_first
      || file_index - self->chain_first >= self->chain_count)
    return 0;
  off = cpel_file_read32 (self, self->chain_offsets + (file_index - self->chain_first) * 4);
  if (off == NONE || off >= self->chain_n_words)
    return 0;
  len = cpel_file_read32 (self, self->chain_words + (gsize) off * 4);
  if (len > self->chain_n_words - off - 1)
    return 0;   /* runs past the area: damaged */
  for (guint32 i = 0; i < len && i < n_max; i++)
    {
      guint32 f = cpel_file_read32 (self, self->chain_words + ((gsize) off + 1 + i) * 4);
      CpelChainFrame *fr = &frames[i];

      if (f >= self->chain_n_frames)
        {
          fr->ip = 0;
          fr->symbol = fr->dso = NULL;
          continue;
        }
      const guint8 *p = self->chain_frames + (gsize) f * FRAME_SIZE;
      fr->ip = (guint64) cpel_file_read32 (self, p) << 32 | cpel_file_read32 (self, p + 4);
      fr->symbol = chain_string (self, cpel_file_read32 (self, p + 8));
      fr->dso = chain_string (self, cpel_file_read32 (self, p + 12));
    }
  return len;
}
