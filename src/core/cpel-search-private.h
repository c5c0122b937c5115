/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-private.h — what the parts of the search share
 *
 * The search is split along its passes:
 *   cpel-search-query.c   what a query matches (labels, codes, which types
 *                         can match at all)
 *   cpel-search-scan.c    pass 1 and 2: the scan of the records in file
 *                         order, and cpel_search_run
 *   cpel-search-result.c  pass 3 and after: the global time order of the
 *                         matches, and what a result answers
 */
#pragma once

#include "cpel-file-private.h"
#include "cpel-search.h"

G_BEGIN_DECLS

#define CHECK_INTERVAL   0x10000u    /* events between cancel/progress checks */
#define MIN_PER_THREAD   (1u << 18)  /* no threads for small files */
#define MAX_THREADS      8

struct _CpelQuery
{
  CpelFile       *file;
  CpelSearchMode  mode;
  gboolean        case_sensitive;

  /* text */
  char           *needle;        /* casefolded unless case_sensitive */
  gsize           needle_len;

  /* regex */
  GRegex         *regex;
  gint            gave_up;       /* atomic: a match hit PCRE2's backtracking limit */

  /* code */
  guint8         *type_match;    /* n_types flags */
  guint32        *codes;         /* the matching codes */
  guint           n_codes;
};

struct _CpelSearchResult
{
  gatomicrefcount  ref_count;
  guint            n_tracks;
  guint64         *track_offsets;   /* n_tracks + 1 */
  guint32         *track_matches;   /* per track, sorted track indices */
  guint64        **track_bits;      /* per track: matched indices as bits, or NULL */
  CpelEventRef    *refs;            /* global time order */
  guint64          n;
};

G_STATIC_ASSERT (CPEL_MAX_EVENTS <= G_MAXUINT32);
G_STATIC_ASSERT (sizeof (CpelEventRef) == 8);

/* cpel-search-query.c */
gboolean  _cpel_query_label_matches (const CpelQuery *query,
                                     const char      *label,
                                     gsize            len,
                                     GString         *scratch);
void      _cpel_query_build_event_label (CpelFile *file, guint type, guint32 datum,
                                         const CpelStrtab *strtab, guint64 file_index,
                                         GString *out);
void      _cpel_query_build_label   (CpelFile         *file,
                                     guint             type,
                                     guint32           datum,
                                     const CpelStrtab *strtab,
                                     GString          *out);
gboolean  _cpel_query_type_may_match (CpelQuery *query,
                                      guint      type);

/* cpel-search-result.c */
gboolean  _cpel_search_result_order (CpelFile         *file,
                                     CpelSearchResult *result,
                                     GCancellable     *cancellable);
void      _cpel_search_result_build_track_bits (CpelFile         *file,
                                                CpelSearchResult *result);

G_END_DECLS
