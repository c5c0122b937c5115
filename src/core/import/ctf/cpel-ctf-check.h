/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-check.h — what can be checked of a CTF trace before
 * libbabeltrace2 reads it (it aborts or loops on some of these damages):
 *
 *  - a packetized `metadata` file: each packet's header (CTF 1.8 §7.1:
 *    magic, UUID, checksum, content and packet sizes in bits, schemes,
 *    version) whole, its content within the packet and the packet within
 *    the file;
 *  - LTTng's `index/NAME.idx` files (magic 0xC1F1DCC1, big-endian): each
 *    entry's packet within the stream file NAME, its content within the
 *    packet; and where the stream's packet context is LTTng's (its packet
 *    size at byte 56 of the packet equals the index's), the content size
 *    written there too.
 *
 * Errors name the file and the byte offset. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean cpel_ctf_check_trace_dir (const char *dir, GError **error);

G_END_DECLS
