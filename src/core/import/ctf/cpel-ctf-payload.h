/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-payload.h — a CTF event's payload as text, the way babeltrace2's
 * text output shows it (`a = 1, b = "x", c = [ [0] = 1 ]`), for the CTF
 * reader (cpel-ctf-trace.c); nesting deeper than 64 levels shows as `…`. */
#pragma once

#include <glib.h>
#include <babeltrace2/babeltrace.h>

G_BEGIN_DECLS

/* The payload's first integer field, in order of appearance: the event's
 * datum. */
typedef struct
{
  gboolean have;
  guint64  value;
} CpelCtfFirstInt;

/* Members of a structure as `a = 1, b = 2` (no braces). */
void cpel_ctf_payload_append_members (GString         *s,
                                      const bt_field  *f,
                                      CpelCtfFirstInt *first,
                                      guint            depth);

/* Any field: booleans, bit arrays, integers, enumerations, reals, strings
 * (quoted, escaped), structures (in braces), arrays, options, variants.
 * The first integer met (depth-first) goes to `first` unless it has one. */
void cpel_ctf_payload_append_field (GString         *s,
                                    const bt_field  *f,
                                    CpelCtfFirstInt *first,
                                    guint            depth);

G_END_DECLS
