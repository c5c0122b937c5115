/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-app-util.h — small helpers shared by the viewer's widgets */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A count with the locale's digit grouping ("12,345,678"); free with g_free. */
static inline char *
cpel_format_count (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

G_END_DECLS
