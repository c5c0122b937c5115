/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-rules-private.h — the parsed rules, for the span engine */
#pragma once

#include "cpel-span-rules.h"

G_BEGIN_DECLS

typedef enum
{
  CPEL_SPAN_COND_EVENT,   /* event=GLOB */
  CPEL_SPAN_COND_TEXT,    /* text=GLOB */
  CPEL_SPAN_COND_REGEX,   /* text~REGEX */
  CPEL_SPAN_COND_FIELD,   /* field.F=GLOB */
} CpelSpanCondKind;

typedef struct
{
  CpelSpanCondKind kind;
  char            *field;     /* FIELD only */
  char            *pattern;   /* glob or regex as written */
  GRegex          *regex;     /* REGEX only */
} CpelSpanCond;

typedef struct
{
  CpelSpanCond *conds;
  guint         n_conds;
  gboolean      needs_text;   /* a condition other than event= */
  gint          capture;      /* index of the capturing condition, or -1 */
} CpelSpanMatch;

typedef struct
{
  CpelSpanRuleKind kind;
  char            *name;          /* as written (`*` and `\*` kept) */
  gboolean         name_captures; /* NAME holds an unescaped `*` */
  CpelSpanMatch    begin;         /* state: the `on` match */
  CpelSpanMatch    end;
  char            *key;           /* key FIELD, or NULL */
  gboolean         restart;
  gboolean         toggle;        /* begin and end are the same match */
  char           **from;          /* state: `from GLOB…`, the states it may follow; or NULL */
  guint            line;
  guint            index;         /* in its rule set */
} CpelSpanRule;

struct _CpelSpanRules
{
  gint          ref_count;
  GPtrArray    *rules;   /* CpelSpanRule* */
  guint         n_builtin;    /* the first n_builtin rules are built-in ones */
  char         *user_text;    /* the user's rules as written, or NULL */
  char        **disabled;     /* the built-in rules left out (ids), or NULL */
};

/* Glob: `*` any run, `?` one byte, `\c` the byte c.  With `cap` non-NULL:
 * the text the first `*` took (the shortest that lets the rest match). */
gboolean cpel_span_glob_match   (const char  *pattern,
                                 const char  *s,
                                 gsize        len,
                                 const char **cap,
                                 gsize       *cap_len);
/* The value of FIELD in a text: `FIELD=value` or `FIELD = value` at the
 * start or after a blank, ',' '(' or '{'; the value a "quoted" string or
 * up to a blank, ',', ')' or '}'. */
gboolean cpel_span_text_field   (const char  *text,
                                 gsize        len,
                                 const char  *field,
                                 const char **value,
                                 gsize       *value_len);
/* An event name without one trailing ':' (c2cpel's `foo:` names). */
gsize    cpel_span_name_len     (const char  *name);

/* Whether the event's name (NUL-terminated) satisfies every event= condition
 * of `m`; its capture when that condition captures. */
gboolean cpel_span_match_name   (const CpelSpanMatch *m,
                                 const char          *name,
                                 const char         **cap,
                                 gsize               *cap_len);
/* The text conditions of `m` (those that are not event=), on `text`; the
 * capture when a text condition captures (g_free *cap_owned). */
gboolean cpel_span_match_text   (const CpelSpanMatch *m,
                                 const char          *text,
                                 gsize                len,
                                 char               **cap_owned);

G_END_DECLS
