/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-rules.h — the rules that turn events into spans and states
 *
 * A rule set is a list of rules, a line a rule (doc/spans.md):
 *
 *   span NAME begin COND… end COND… [key FIELD] [restart]
 *   state NAME on COND…
 *
 * COND is `event=GLOB` (the event's name; a trailing ':' of the name, as
 * c2cpel names `foo: %d` events, is ignored), `text=GLOB` (the event's
 * text, its datum as shown), `text~REGEX` or `field.F=GLOB` (the value of
 * the field F=value in the text).  The first `*` of the first glob of a
 * begin (state: on) condition captures; a regex its group 1.  A `*` in NAME
 * is replaced by the capture, and then a span's end must capture the same
 * text (for VPP's `<node>-call` → `<node>-return`).  Built-in rules
 * (VPP, Snabb, DPDK) come from cpel_span_rules_new_builtin ().
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CPEL_SPAN_RULES_ERROR (cpel_span_rules_error_quark ())

typedef enum
{
  CPEL_SPAN_RULES_ERROR_SYNTAX,   /* message: "SOURCE:LINE:COLUMN: what" */
  CPEL_SPAN_RULES_ERROR_IO,
} CpelSpanRulesError;

GQuark cpel_span_rules_error_quark (void);

typedef enum
{
  CPEL_SPAN_RULE_SPAN,
  CPEL_SPAN_RULE_STATE,
} CpelSpanRuleKind;

/* At most this many rules in a set (a rule's index fits the span record). */
#define CPEL_SPAN_RULES_MAX 4096

typedef struct _CpelSpanRules CpelSpanRules;

CpelSpanRules *cpel_span_rules_new          (void);
/* The built-in rules (VPP, Snabb, DPDK), on by default. */
CpelSpanRules *cpel_span_rules_new_builtin  (void);
/* The built-in rules' text, as cpel_span_rules_add_text () reads it. */
const char    *cpel_span_rules_get_builtin_text (void);
CpelSpanRules *cpel_span_rules_ref          (CpelSpanRules *rules);
void           cpel_span_rules_unref        (CpelSpanRules *rules);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpanRules, cpel_span_rules_unref)

/* Parses `text` (`len` bytes, or -1: NUL-terminated) and appends its rules.
 * `source` names it in error messages ("rules.txt:3:14: …").  On an error
 * nothing is appended (the whole text is checked first). */
gboolean       cpel_span_rules_add_text     (CpelSpanRules *rules,
                                             const char    *text,
                                             gssize         len,
                                             const char    *source,
                                             GError       **error);
/* As cpel_span_rules_add_text (), but goes on after an error: each line's
 * error is appended to `errors` (char*, "SOURCE:LINE:COLUMN: …", at most
 * 100); the rules are appended only when there is none (then TRUE). */
gboolean       cpel_span_rules_check_text   (CpelSpanRules *rules,
                                             const char    *text,
                                             gssize         len,
                                             const char    *source,
                                             GPtrArray     *errors);
/* Reads a rules file (at most CPEL_SPAN_RULES_FILE_MAX bytes) and appends
 * its rules. */
#define CPEL_SPAN_RULES_FILE_MAX (1024 * 1024)
gboolean       cpel_span_rules_add_file     (CpelSpanRules *rules,
                                             const char    *path,
                                             GError       **error);

guint          cpel_span_rules_get_n_rules  (CpelSpanRules *rules);
CpelSpanRuleKind cpel_span_rules_get_kind   (CpelSpanRules *rules, guint i);
/* The rule's NAME as written. */
const char    *cpel_span_rules_get_name     (CpelSpanRules *rules, guint i);
/* The rule as a line in its normal form (what `cpel rules check` prints);
 * reading it back gives the same rule. */
char          *cpel_span_rules_dup_line     (CpelSpanRules *rules, guint i);
/* Every rule, a line each. */
char          *cpel_span_rules_to_text      (CpelSpanRules *rules);

/* A rule's id: its kind and NAME as written ("span api-msg",
 * "state Running", "span *"); rules sharing an id are switched together. */
char          *cpel_span_rules_dup_id       (CpelSpanRules *rules, guint i);
/* The built-in rules' ids, each once, in their order. */
GStrv          cpel_span_rules_dup_builtin_ids (void);
/* The built-in rules but those whose id is in `disabled` (NULL: none; ids
 * that are no built-in rule's are kept and ignored), then the rules of
 * `user_text` (NULL or "": none; `source` names it in errors, NULL: "user
 * rules").  Both are kept with the rules (the getters below).  NULL with
 * the parser's error when the text is bad. */
CpelSpanRules *cpel_span_rules_new_with     (const char *const *disabled,
                                             const char        *user_text,
                                             const char        *source,
                                             GError           **error);
/* How many of the first rules are built-in ones. */
guint          cpel_span_rules_get_n_builtin (CpelSpanRules *rules);
/* The user text and disabled ids cpel_span_rules_new_with () was given
 * (NULL when none). */
const char    *cpel_span_rules_get_user_text (CpelSpanRules *rules);
const char *const *cpel_span_rules_get_disabled (CpelSpanRules *rules);

G_END_DECLS
