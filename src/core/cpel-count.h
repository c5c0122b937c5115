/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-count.h — counts as people read them: with digit grouping */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* n with the locale's digit grouping ("12,345,678" in English,
 * "12.345.678" in German); where the locale has no grouping (C, POSIX) in
 * threes with a narrow no-break space, as SI writes numbers and as the
 * ruler groups its fractions ("12 345 678", "1 000").  Free with g_free. */
char *cpel_format_count (guint64 n);

G_END_DECLS
