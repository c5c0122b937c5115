/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-wire.h — what the CTF reader (cpel-ctf-reader, a child process:
 * libbabeltrace2 may abort, loop or eat memory on a damaged trace) writes
 * to its standard output, read back by cpel-ctf-trace.c as untrusted input.
 *
 * The stream opens with CPEL_CTF_WIRE_MAGIC (8 bytes), then records: a type
 * byte, three zero bytes, a u32 length (host order: the same machine), the
 * payload (at most CPEL_CTF_WIRE_MAX_RECORD bytes):
 *
 *  - 'H' heartbeat: empty (the reader is alive and making progress);
 *  - 'P' progress: u32, millionths of the trace read;
 *  - 'T' track: its label (the next track index);  'C' class: its name;
 *  - 'E' events: u32 n, then n × { i64 ns, u32 track, u32 class, u32 datum,
 *    u32 text_len }, then the events' texts one after the other;
 *  - 'K' clock: u64 frequency, u32 origin is the Unix epoch, the name (once:
 *    at the end, or following a live session as soon as it is known);
 *  - 'N' a note (a discarded range);  'X' u64 discarded events, u64 packets
 *    so far (at the end; following a live session, also after each 'N': the
 *    loss lies between the events sent before it and those after);
 *  - 'R' failure: u32 error code (CpelError), the message; the last record;
 *  - 'Z' the end of a trace read in full; the last record;
 *  - 'A' empty: following a live session, the reader has attached to it
 *    (what the session records from now on is read).
 */
#pragma once

#define CPEL_CTF_WIRE_MAGIC       "CPELCTF1"
#define CPEL_CTF_WIRE_MAX_RECORD  (16u << 20)
#define CPEL_CTF_WIRE_EVENT_SIZE  24u
#define CPEL_CTF_WIRE_MAX_NAME    65536u
