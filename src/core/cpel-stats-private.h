/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-private.h — the text tables of cpel-stats.c, shared with
 * cpel-diff.c */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint       n_cols;
  const char *right;       /* per column: 'r' right-aligned, 'l' left */
  GPtrArray  *cells;       /* char*, row-major */
} CpelTextTable;

/* `align`: one letter per column, 'r' or 'l'; the string must outlive t. */
void  cpel_text_table_init  (CpelTextTable *t, const char *align);
/* Takes the cell (row-major). */
void  cpel_text_table_add   (CpelTextTable *t, char *cell);
/* Writes the rows with columns padded to their widest cell, two spaces
 * apart, trailing blanks cut; frees the table's cells. */
void  cpel_text_table_write (CpelTextTable *t, GString *out);

/* A name or label from a file made printable: invalid UTF-8 replaced,
 * control characters escaped (\t \n \r \xHH). */
char *cpel_stats_printable  (const char *s);

G_END_DECLS
