/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-mapguard.h — surviving a mapped file that shrinks under its reader
 *
 * When a memory-mapped file is truncated by someone else, reading a page
 * past its new end raises SIGBUS.  A registered mapping is guarded: a
 * process-wide SIGBUS handler (installed on the first registration) maps
 * anonymous zero pages over the mapping from the faulting page to its end
 * and marks it damaged, so the read returns zeros and the program goes on;
 * the owner checks cpel_mapguard_is_damaged() and tells the user.  A SIGBUS
 * anywhere else goes to the handler that was installed before (or kills the
 * process, the default action).
 *
 * For read-only mappings whose start is page-aligned (GMappedFile's are).
 * Unregister before unmapping.  Up to CPEL_MAPGUARD_MAX mappings at once.
 * POSIX only (sigaction, mmap).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CPEL_MAPGUARD_MAX 1024

/* Guards [start, start + length).  Returns an id (never 0), or 0 when the
 * mapping cannot be guarded (length 0, unaligned start, table full, or no
 * guard on this platform): reading then works as before, unguarded. */
guint    cpel_mapguard_register    (const void *start,
                                    gsize       length);
/* Stops guarding; id 0 is ignored. */
void     cpel_mapguard_unregister  (guint       id);
/* TRUE once a fault in the mapping was repaired with zero pages: the data
 * from some page on is zeros, not the file's.  FALSE for id 0 or an id no
 * longer registered. */
gboolean cpel_mapguard_is_damaged  (guint       id);

/* Gives back the whole pages inside [from, to) of a read-only file mapping
 * (madvise MADV_DONTNEED): the kernel drops them and a later read faults
 * them in from the file again.  Only for file mappings — on anonymous or
 * heap memory it would zero the data.  Does nothing where unsupported. */
void     cpel_mapping_drop_pages   (const void *from,
                                    const void *to);
/* Asks the kernel to read the pages of a file mapping that hold
 * [from, to) into the page cache now, without waiting (madvise
 * MADV_WILLNEED): reads about to happen at several places are then
 * submitted together rather than one page fault after another.  Does
 * nothing where unsupported. */
void     cpel_mapping_will_need    (const void *from,
                                    const void *to);

G_END_DECLS
