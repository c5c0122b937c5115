/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-util.h — shared helpers for the test programs (cpel-test-util.c,
 * compiled once into the tests' helper library) */
#pragma once

#include <glib.h>

#include "cpel-file.h"
#include "cpel-writer.h"

/* Path of a file under tests/fixtures (CPEL_FIXTURES_DIR), e.g.
 * "vpp-elog/tiny.elog"; a missing fixture fails the test with its path.
 * Free with g_free. */
char *cpel_test_fixture_file (const char *relative);
/* The same for a folder under tests/fixtures (a CTF trace). */
char *cpel_test_fixture_dir (const char *relative);

/* Copies the folder `from` (a CTF trace) to `to`, made with its parents;
 * fails the test on an error. */
void cpel_test_copy_tree (const char *from, const char *to);
/* Removes the folder `dir` with everything in it (symbolic links, not what
 * they point to); quietly when it is not there. */
void cpel_test_remove_tree (const char *dir);

/* How many entries the directory `dir` holds; fails the test when it
 * cannot be read. */
guint cpel_test_count_entries (const char *dir);
/* How many of them have a name ending in `suffix`; 0 when `dir` cannot be
 * read (not there yet). */
guint cpel_test_count_suffix (const char *dir, const char *suffix);

/* A field of /proc/self/status in KiB ("RssFile:", "VmHWM:"…), or -1
 * where there is none. */
gint64 cpel_test_status_kb (const char *key);
/* Resident kB of the mapping that holds `addr` (/proc/self/smaps), or -1. */
gint64 cpel_test_mapping_rss_kb (const void *addr);
/* Whether the VmFlags of the mapping holding addr (/proc/self/smaps) have
 * `flag` ("hg": huge pages asked for): 1 or 0; -1 when unknown. */
int      cpel_test_mapping_has_flag (const void *addr, const char *flag);

/* `a` and `b` (arrays of strings) hold the same lines: the first that
 * differs is named, then the counts compared. */
void cpel_test_assert_same_lines (GPtrArray *a, GPtrArray *b);

/* Span rules of `text` alone (no built-in ones); fails the test on an
 * error. */
struct _CpelSpanRules *cpel_test_span_rules_new (const char *text);

/* `bytes` loaded with `options` (or NULL); fails the test on an error. */
CpelFile *cpel_test_file_for_bytes (GBytes                *bytes,
                                    const CpelLoadOptions *options);

/* Finishes `w` (a writer to memory) and loads what it wrote; fails the
 * test on an error. */
CpelFile *cpel_test_writer_file (CpelWriter *w);
