/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-rules.c — the span rule language: parser, normal form, matching
 *
 * A line is split into words at blanks; a "quoted" part of a word keeps its
 * blanks (\" is a quote in it, every other backslash stays for the glob).
 * A word starting with # starts a comment.  Errors name the line and the
 * column (bytes, from 1) of the word at fault.
 */
#include "cpel-span-rules-private.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#define RULES_FILE_MAX CPEL_SPAN_RULES_FILE_MAX
#define MAX_WORDS 256

G_DEFINE_QUARK (cpel-span-rules-error-quark, cpel_span_rules_error)

#define OUT(name, state) \
  "state " name " on \"event=sched_switch: out\" field.prev_state=" state "\n"
#define WAKE(event) \
  "state Runnable on \"event=" event ": woken\"" \
  " from Sleeping Uninterr* Stopped Idle Parked Off*\n"

static const char builtin_text[] =
  "# VPP (elog and CPEL): vlib's dispatch tracing, per thread track\n"
  "span * begin event=*-call end event=*-return restart\n"
  "span \"process tw\" begin event=process \"text=*tw start\" "
  "end event=process \"text=*tw end*\" restart\n"
  "span api-msg begin event=api-msg end event=api-msg-done restart\n"
  "# cli-cmd is logged before and after a command: a toggle\n"
  "span cli-cmd begin event=cli-cmd end event=cli-cmd restart\n"
  "# Snabb: breaths (same core: the engine track; same breath number), apps\n"
  "span engine.breath begin event=engine.breath_start end event=engine.breath_end "
  "key breath restart\n"
  "span app.pull begin event=app.pull end event=app.pulled restart\n"
  "span app.push begin event=app.push end event=app.pushed restart\n"
  "span app.tick begin event=app.tick end event=app.ticked restart\n"
  "span engine.sleep begin event=engine.sleep_* end event=engine.wakeup_from_sleep restart\n"
  "# DPDK trace: a service's run on an lcore\n"
  "span lib.eal.service.run begin event=lib.eal.service.run.begin "
  "end event=lib.eal.service.run.end key id restart\n"
  "# DPDK trace: an lcore's thread, ready once started, then (DPDK 23.03 on)\n"
  "# running the function launched on it and stopped when it returned\n"
  "state \"lcore ready\" on event=lib.eal.thread.lcore.ready\n"
  "state \"lcore running\" on event=lib.eal.thread.lcore.running\n"
  "state \"lcore stopped\" on event=lib.eal.thread.lcore.stopped\n"
  "# Linux scheduling (perf.data, CTF): a thread runs from its sched_switch in to its\n"
  "# next out; then it is in the state prev_state names (R and R+: preempted)\n"
  "state Running on \"event=sched_switch: in\"\n"
  OUT ("\"Runnable (Preempted)\"", "R*")
  OUT ("Sleeping", "S")
  OUT ("\"Uninterruptible Sleep\"", "D")
  OUT ("Stopped", "T")
  OUT ("Stopped", "t")
  OUT ("Dead", "X")
  OUT ("Dead", "Z")
  OUT ("Idle", "I")
  OUT ("Parked", "P")
  OUT ("\"Off CPU\"", "\\?")
  "# a wake-up makes a blocked thread runnable (sched_waking comes first; a\n"
  "# sched_wakeup after it finds the thread runnable already)\n"
  WAKE ("sched_waking")
  WAKE ("sched_wakeup")
  "state Runnable on \"event=sched_wakeup_new: woken\"\n"
  "# which thread runs on a CPU (on the CPU's track)\n"
  "state * on \"event=sched_switch: next\" text=*\n";

const char *
cpel_span_rules_get_builtin_text (void)
{
  return builtin_text;
}

/* ---- matching ---------------------------------------------------------- */

gsize
cpel_span_name_len (const char *name)
{
  gsize n = strlen (name);

  if (n > 1 && name[n - 1] == ':')
    n--;
  return n;
}

/* One pattern element at p: its length in the pattern and, for a literal,
 * the byte. */
static inline gsize
glob_elem (const char *p, char *lit)
{
  if (p[0] == '\\' && p[1] != '\0')
    {
      *lit = p[1];
      return 2;
    }
  *lit = p[0];
  return 1;
}

/* Iterative wildcard match (backtracking to the last `*` only): O(|p|·|s|). */
static gboolean
glob_plain (const char *p,
            const char *s,
            gsize       len)
{
  const char *star_p = NULL;
  gsize star_s = 0, i = 0;

  while (i < len)
    {
      char lit;
      gsize el;

      if (*p == '*')
        {
          star_p = ++p;
          star_s = i;
          continue;
        }
      if (*p != '\0')
        {
          el = glob_elem (p, &lit);
          if ((*p == '?' && el == 1) || lit == s[i])
            {
              p += el;
              i++;
              continue;
            }
        }
      if (star_p == NULL)
        return FALSE;
      p = star_p;
      i = ++star_s;
    }
  while (*p == '*')
    p++;
  return *p == '\0';
}

gboolean
cpel_span_glob_match (const char  *pattern,
                      const char  *s,
                      gsize        len,
                      const char **cap,
                      gsize       *cap_len)
{
  const char *p = pattern;
  gsize i = 0;

  if (cap == NULL)
    return glob_plain (pattern, s, len);
  /* the literal head up to the first `*` */
  while (*p != '\0' && *p != '*')
    {
      char lit;
      gsize el = glob_elem (p, &lit);

      if (i >= len || !((*p == '?' && el == 1) || lit == s[i]))
        return FALSE;
      p += el;
      i++;
    }
  if (*p == '\0')
    {
      *cap = s + len;
      *cap_len = 0;
      return i == len;
    }
  /* the first `*`: the shortest run that lets the rest match */
  for (gsize k = i; k <= len; k++)
    if (glob_plain (p + 1, s + k, len - k))
      {
        *cap = s + i;
        *cap_len = k - i;
        return TRUE;
      }
  return FALSE;
}

gboolean
cpel_span_text_field (const char  *text,
                      gsize        len,
                      const char  *field,
                      const char **value,
                      gsize       *value_len)
{
  gsize flen = strlen (field);

  if (flen == 0)
    return FALSE;
  for (gsize i = 0; i + flen < len; i++)
    {
      gsize j;

      if (memcmp (text + i, field, flen) != 0)
        continue;
      if (i > 0 && strchr (" \t,({", text[i - 1]) == NULL)
        continue;
      j = i + flen;
      while (j < len && text[j] == ' ')
        j++;
      if (j >= len || text[j] != '=')
        continue;
      j++;
      while (j < len && text[j] == ' ')
        j++;
      if (j < len && text[j] == '"')
        {
          gsize k = j + 1;

          while (k < len && text[k] != '"')
            k++;
          *value = text + j + 1;
          *value_len = k - j - 1;
          return TRUE;
        }
      else
        {
          gsize k = j;

          while (k < len && strchr (" \t,)}", text[k]) == NULL)
            k++;
          *value = text + j;
          *value_len = k - j;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
cpel_span_match_name (const CpelSpanMatch *m,
                      const char          *name,
                      const char         **cap,
                      gsize               *cap_len)
{
  gsize len = cpel_span_name_len (name);

  for (guint i = 0; i < m->n_conds; i++)
    {
      const CpelSpanCond *c = &m->conds[i];
      gboolean want = (gint) i == m->capture;

      if (c->kind != CPEL_SPAN_COND_EVENT)
        continue;
      /* the name as given, else without its trailing ':' */
      if (!cpel_span_glob_match (c->pattern, name, len, want ? cap : NULL, cap_len)
          && (len == strlen (name)
              || !cpel_span_glob_match (c->pattern, name, strlen (name),
                                        want ? cap : NULL, cap_len)))
        return FALSE;
    }
  return TRUE;
}

gboolean
cpel_span_match_text (const CpelSpanMatch *m,
                      const char          *text,
                      gsize                len,
                      char               **cap_owned)
{
  for (guint i = 0; i < m->n_conds; i++)
    {
      const CpelSpanCond *c = &m->conds[i];
      gboolean want = (gint) i == m->capture && cap_owned != NULL;
      const char *cap = NULL, *v;
      gsize cap_len = 0, vlen;

      switch (c->kind)
        {
        case CPEL_SPAN_COND_EVENT:
          continue;
        case CPEL_SPAN_COND_TEXT:
          if (!cpel_span_glob_match (c->pattern, text, len, want ? &cap : NULL, &cap_len))
            return FALSE;
          break;
        case CPEL_SPAN_COND_FIELD:
          if (!cpel_span_text_field (text, len, c->field, &v, &vlen)
              || !cpel_span_glob_match (c->pattern, v, vlen, want ? &cap : NULL, &cap_len))
            return FALSE;
          break;
        case CPEL_SPAN_COND_REGEX:
          {
            g_autoptr(GMatchInfo) info = NULL;
            gint a, b;

            if (!g_regex_match_full (c->regex, text, (gssize) len, 0, 0, &info, NULL))
              return FALSE;
            if (want && g_match_info_fetch_pos (info, 1, &a, &b) && a >= 0)
              {
                cap = text + a;
                cap_len = (gsize) (b - a);
              }
            else if (want)
              {
                cap = text;
                cap_len = 0;
              }
          }
          break;
        }
      if (want)
        {
          g_free (*cap_owned);
          *cap_owned = g_strndup (cap, cap_len);
        }
    }
  return TRUE;
}

/* ---- the rule set -------------------------------------------------------- */

static void
match_clear (CpelSpanMatch *m)
{
  for (guint i = 0; i < m->n_conds; i++)
    {
      g_free (m->conds[i].field);
      g_free (m->conds[i].pattern);
      g_clear_pointer (&m->conds[i].regex, g_regex_unref);
    }
  g_clear_pointer (&m->conds, g_free);
  m->n_conds = 0;
}

static void
rule_free (gpointer data)
{
  CpelSpanRule *r = data;

  g_free (r->name);
  match_clear (&r->begin);
  match_clear (&r->end);
  g_free (r->key);
  g_strfreev (r->from);
  g_free (r);
}

CpelSpanRules *
cpel_span_rules_new (void)
{
  CpelSpanRules *rules = g_new0 (CpelSpanRules, 1);

  rules->ref_count = 1;
  rules->rules = g_ptr_array_new_with_free_func (rule_free);
  return rules;
}

CpelSpanRules *
cpel_span_rules_new_builtin (void)
{
  CpelSpanRules *rules = cpel_span_rules_new ();
  g_autoptr(GError) error = NULL;

  if (!cpel_span_rules_add_text (rules, builtin_text, -1, "built-in", &error))
    g_error ("built-in span rules: %s", error->message);
  rules->n_builtin = rules->rules->len;
  return rules;
}

CpelSpanRules *
cpel_span_rules_ref (CpelSpanRules *rules)
{
  g_return_val_if_fail (rules != NULL, NULL);
  g_atomic_int_inc (&rules->ref_count);
  return rules;
}

void
cpel_span_rules_unref (CpelSpanRules *rules)
{
  if (rules == NULL || !g_atomic_int_dec_and_test (&rules->ref_count))
    return;
  g_ptr_array_unref (rules->rules);
  g_free (rules->user_text);
  g_strfreev (rules->disabled);
  g_free (rules);
}

char *
cpel_span_rules_dup_id (CpelSpanRules *rules,
                        guint          i)
{
  const CpelSpanRule *r;

  g_return_val_if_fail (rules != NULL, NULL);
  g_return_val_if_fail (i < rules->rules->len, NULL);
  r = g_ptr_array_index (rules->rules, i);
  return g_strconcat (r->kind == CPEL_SPAN_RULE_STATE ? "state " : "span ", r->name, NULL);
}

GStrv
cpel_span_rules_dup_builtin_ids (void)
{
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < rules->rules->len; i++)
    {
      char *id = cpel_span_rules_dup_id (rules, i);

      if (g_hash_table_add (seen, id))
        g_strv_builder_add (b, id);
    }
  return g_strv_builder_end (b);
}

CpelSpanRules *
cpel_span_rules_new_with (const char *const *disabled,
                          const char        *user_text,
                          const char        *source,
                          GError           **error)
{
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();

  if (disabled != NULL && disabled[0] != NULL)
    {
      for (guint i = 0; i < rules->rules->len; i++)
        {
          g_autofree char *id = cpel_span_rules_dup_id (rules, i);

          if (g_strv_contains (disabled, id))
            g_ptr_array_remove_index (rules->rules, i--);
        }
      for (guint i = 0; i < rules->rules->len; i++)
        ((CpelSpanRule *) g_ptr_array_index (rules->rules, i))->index = i;
      rules->disabled = g_strdupv ((char **) disabled);
    }
  rules->n_builtin = rules->rules->len;
  if (user_text != NULL && user_text[0] != '\0')
    {
      if (!cpel_span_rules_add_text (rules, user_text, -1,
                                     source != NULL ? source : _("user rules"), error))
        return NULL;
      rules->user_text = g_strdup (user_text);
    }
  return g_steal_pointer (&rules);
}

guint
cpel_span_rules_get_n_builtin (CpelSpanRules *rules)
{
  g_return_val_if_fail (rules != NULL, 0);
  return rules->n_builtin;
}

const char *
cpel_span_rules_get_user_text (CpelSpanRules *rules)
{
  g_return_val_if_fail (rules != NULL, NULL);
  return rules->user_text;
}

const char *const *
cpel_span_rules_get_disabled (CpelSpanRules *rules)
{
  g_return_val_if_fail (rules != NULL, NULL);
  return (const char *const *) rules->disabled;
}

guint
cpel_span_rules_get_n_rules (CpelSpanRules *rules)
{
  g_return_val_if_fail (rules != NULL, 0);
  return rules->rules->len;
}

CpelSpanRuleKind
cpel_span_rules_get_kind (CpelSpanRules *rules,
                          guint          i)
{
  g_return_val_if_fail (rules != NULL && i < rules->rules->len, CPEL_SPAN_RULE_SPAN);
  return ((CpelSpanRule *) g_ptr_array_index (rules->rules, i))->kind;
}

const char *
cpel_span_rules_get_name (CpelSpanRules *rules,
                          guint          i)
{
  g_return_val_if_fail (rules != NULL && i < rules->rules->len, NULL);
  return ((CpelSpanRule *) g_ptr_array_index (rules->rules, i))->name;
}

/* ---- parsing ------------------------------------------------------------- */

typedef struct
{
  char  *text;     /* quotes removed */
  guint  column;   /* 1-based byte column of its first byte */
} Word;

typedef struct
{
  const char *source;
  guint       line;
  GError    **error;
} Ctx;

static gboolean
fail (Ctx *ctx, guint column, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (Ctx        *ctx,
      guint       column,
      const char *format,
      ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (ctx->error, CPEL_SPAN_RULES_ERROR, CPEL_SPAN_RULES_ERROR_SYNTAX,
               "%s:%u:%u: %s", ctx->source, ctx->line, column, msg);
  return FALSE;
}

/* Splits one line into words; FALSE on an unterminated quote. */
static gboolean
split_words (Ctx        *ctx,
             const char *line,
             gsize       len,
             GArray     *words)
{
  gsize i = 0;

  while (i < len)
    {
      GString *w;
      Word word;

      while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
        i++;
      if (i >= len || line[i] == '#')
        break;
      if (words->len >= MAX_WORDS)
        return fail (ctx, (guint) i + 1, _("too many words in a rule (at most %u)"), MAX_WORDS);
      w = g_string_new (NULL);
      word.column = (guint) i + 1;
      while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
        {
          if (line[i] == '"')
            {
              gsize open = i++;

              while (i < len && line[i] != '"')
                {
                  if (line[i] == '\\' && i + 1 < len && line[i + 1] == '"')
                    i++;
                  g_string_append_c (w, line[i]);
                  i++;
                }
              if (i >= len)
                {
                  g_string_free (w, TRUE);
                  return fail (ctx, (guint) open + 1, _("the quote is not closed"));
                }
              i++;
            }
          else
            g_string_append_c (w, line[i++]);
        }
      word.text = g_string_free (w, FALSE);
      g_array_append_val (words, word);
    }
  return TRUE;
}

static gboolean
valid_field_name (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '-' && *s != '.')
      return FALSE;
  return TRUE;
}

/* The position of the first unescaped `*` of a glob, or -1. */
static gssize
first_star (const char *p)
{
  for (gsize i = 0; p[i]; i++)
    {
      if (p[i] == '\\' && p[i + 1] != '\0')
        i++;
      else if (p[i] == '*')
        return (gssize) i;
    }
  return -1;
}

static gboolean
parse_cond (Ctx          *ctx,
            const Word   *w,
            CpelSpanCond *c)
{
  const char *t = w->text;

  memset (c, 0, sizeof *c);
  if (g_str_has_prefix (t, "event="))
    {
      c->kind = CPEL_SPAN_COND_EVENT;
      c->pattern = g_strdup (t + 6);
    }
  else if (g_str_has_prefix (t, "text="))
    {
      c->kind = CPEL_SPAN_COND_TEXT;
      c->pattern = g_strdup (t + 5);
    }
  else if (g_str_has_prefix (t, "text~"))
    {
      g_autoptr(GError) rerr = NULL;

      c->kind = CPEL_SPAN_COND_REGEX;
      c->pattern = g_strdup (t + 5);
      c->regex = g_regex_new (c->pattern, G_REGEX_OPTIMIZE | G_REGEX_RAW, 0, &rerr);
      if (c->regex == NULL)
        {
          g_clear_pointer (&c->pattern, g_free);
          return fail (ctx, w->column + 5, _("bad regular expression: %s"), rerr->message);
        }
    }
  else if (g_str_has_prefix (t, "field."))
    {
      const char *eq = strchr (t + 6, '=');

      if (eq == NULL)
        return fail (ctx, w->column, _("a field condition reads field.NAME=GLOB"));
      c->kind = CPEL_SPAN_COND_FIELD;
      c->field = g_strndup (t + 6, (gsize) (eq - t - 6));
      if (!valid_field_name (c->field))
        {
          g_clear_pointer (&c->field, g_free);
          return fail (ctx, w->column + 6,
                       _("a field name is letters, digits, '_', '-' and '.'"));
        }
      c->pattern = g_strdup (eq + 1);
    }
  else
    return fail (ctx, w->column,
                 _("expected a condition (event=GLOB, text=GLOB, text~REGEX, "
                   "field.NAME=GLOB), not “%s”"), t);
  return TRUE;
}

/* Conditions from words[*i] up to a keyword of `stops` (or the end). */
static gboolean
parse_match (Ctx           *ctx,
             GArray        *words,
             guint         *i,
             const char   **stops,
             guint          column_before,
             const char    *what,
             CpelSpanMatch *m)
{
  GArray *conds = g_array_new (FALSE, TRUE, sizeof (CpelSpanCond));

  m->capture = -1;
  while (*i < words->len)
    {
      const Word *w = &g_array_index (words, Word, *i);
      CpelSpanCond c;
      gboolean stop = FALSE;

      for (guint s = 0; stops[s]; s++)
        if (strcmp (w->text, stops[s]) == 0)
          stop = TRUE;
      if (stop)
        break;
      if (!parse_cond (ctx, w, &c))
        {
          m->conds = (CpelSpanCond *) conds->data;
          m->n_conds = conds->len;
          g_array_free (conds, FALSE);
          return FALSE;
        }
      g_array_append_val (conds, c);
      (*i)++;
    }
  m->n_conds = conds->len;
  m->conds = (CpelSpanCond *) g_array_free (conds, FALSE);
  if (m->n_conds == 0)
    return fail (ctx, column_before, _("“%s” needs at least one condition"), what);
  /* the capture: the first event glob with a `*`, else the first text
   * condition that captures */
  for (guint k = 0; k < m->n_conds && m->capture < 0; k++)
    if (m->conds[k].kind == CPEL_SPAN_COND_EVENT && first_star (m->conds[k].pattern) >= 0)
      m->capture = (gint) k;
  for (guint k = 0; k < m->n_conds && m->capture < 0; k++)
    if ((m->conds[k].kind == CPEL_SPAN_COND_REGEX)
        || (m->conds[k].kind != CPEL_SPAN_COND_EVENT && first_star (m->conds[k].pattern) >= 0))
      m->capture = (gint) k;
  for (guint k = 0; k < m->n_conds; k++)
    if (m->conds[k].kind != CPEL_SPAN_COND_EVENT)
      m->needs_text = TRUE;
  return TRUE;
}

static char *match_to_text (const CpelSpanMatch *m);

static gboolean
parse_rule (Ctx          *ctx,
            GArray       *words,
            CpelSpanRule *r)
{
  const Word *w0 = &g_array_index (words, Word, 0);
  guint i = 1;

  if (strcmp (w0->text, "span") == 0)
    r->kind = CPEL_SPAN_RULE_SPAN;
  else if (strcmp (w0->text, "state") == 0)
    r->kind = CPEL_SPAN_RULE_STATE;
  else
    return fail (ctx, w0->column, _("a rule starts with “span” or “state”, not “%s”"),
                 w0->text);
  if (i >= words->len)
    return fail (ctx, w0->column + (guint) strlen (w0->text), _("the rule needs a NAME"));
  {
    const Word *wn = &g_array_index (words, Word, i);

    if (wn->text[0] == '\0')
      return fail (ctx, wn->column, _("the NAME is empty"));
    r->name = g_strdup (wn->text);
    r->name_captures = first_star (r->name) >= 0;
    i++;
  }

  if (r->kind == CPEL_SPAN_RULE_STATE)
    {
      static const char *stops[] = { "from", NULL };
      const Word *prev = &g_array_index (words, Word, i - 1);

      if (i >= words->len || strcmp (g_array_index (words, Word, i).text, "on") != 0)
        return fail (ctx, i < words->len ? g_array_index (words, Word, i).column
                                         : prev->column + (guint) strlen (prev->text),
                     _("expected “on” after the state's NAME"));
      i++;
      if (!parse_match (ctx, words, &i, stops, g_array_index (words, Word, i - 1).column,
                        "on", &r->begin))
        return FALSE;
      if (i < words->len)
        {
          const Word *wf = &g_array_index (words, Word, i);
          GPtrArray *from = g_ptr_array_new ();

          /* `from GLOB…`: only when the track's state is one of these */
          for (i++; i < words->len; i++)
            g_ptr_array_add (from, g_strdup (g_array_index (words, Word, i).text));
          g_ptr_array_add (from, NULL);
          r->from = (char **) g_ptr_array_free (from, FALSE);
          if (r->from[0] == NULL)
            return fail (ctx, wf->column + 4, _("“from” needs at least one state"));
        }
    }
  else
    {
      static const char *stops_begin[] = { "end", NULL };
      static const char *stops_end[] = { "key", "restart", NULL };
      const Word *prev = &g_array_index (words, Word, i - 1);

      if (i >= words->len || strcmp (g_array_index (words, Word, i).text, "begin") != 0)
        return fail (ctx, i < words->len ? g_array_index (words, Word, i).column
                                         : prev->column + (guint) strlen (prev->text),
                     _("expected “begin” after the span's NAME"));
      i++;
      if (!parse_match (ctx, words, &i, stops_begin, g_array_index (words, Word, i - 1).column,
                        "begin", &r->begin))
        return FALSE;
      if (i >= words->len)
        {
          prev = &g_array_index (words, Word, i - 1);
          return fail (ctx, prev->column + (guint) strlen (prev->text),
                       _("expected “end” and its conditions"));
        }
      i++;
      if (!parse_match (ctx, words, &i, stops_end, g_array_index (words, Word, i - 1).column,
                        "end", &r->end))
        return FALSE;
      while (i < words->len)
        {
          const Word *w = &g_array_index (words, Word, i);

          if (strcmp (w->text, "key") == 0)
            {
              if (r->key != NULL)
                return fail (ctx, w->column, _("“key” is given twice"));
              if (i + 1 >= words->len)
                return fail (ctx, w->column + 3, _("“key” needs a FIELD"));
              w = &g_array_index (words, Word, i + 1);
              if (!valid_field_name (w->text))
                return fail (ctx, w->column,
                             _("a field name is letters, digits, '_', '-' and '.'"));
              r->key = g_strdup (w->text);
              i += 2;
            }
          else if (strcmp (w->text, "restart") == 0)
            {
              if (r->restart)
                return fail (ctx, w->column, _("“restart” is given twice"));
              r->restart = TRUE;
              i++;
            }
          else
            return fail (ctx, w->column, _("expected “key FIELD” or “restart”, not “%s”"),
                         w->text);
        }
      {
        g_autofree char *b = match_to_text (&r->begin);
        g_autofree char *e = match_to_text (&r->end);

        r->toggle = strcmp (b, e) == 0;
      }
    }
  if (i < words->len)
    {
      const Word *w = &g_array_index (words, Word, i);

      return fail (ctx, w->column, _("unexpected “%s” at the end of the rule"), w->text);
    }
  if (r->name_captures && r->begin.capture < 0)
    return fail (ctx, g_array_index (words, Word, 1).column,
                 _("the NAME has a “*” but no begin condition captures one"));
  if (r->name_captures && r->kind == CPEL_SPAN_RULE_SPAN && r->end.capture < 0)
    return fail (ctx, g_array_index (words, Word, 1).column,
                 _("the NAME has a “*” but no end condition captures one"));
  return TRUE;
}

static void
words_clear (GArray *words)
{
  for (guint i = 0; i < words->len; i++)
    g_free (g_array_index (words, Word, i).text);
  g_array_set_size (words, 0);
}

#define MAX_ERRORS 100

/* Parses `text`; with `errors`, goes on after a line's error (its message
 * appended) up to MAX_ERRORS.  The rules are appended when there was no
 * error. */
static gboolean
parse_text (CpelSpanRules *rules,
            const char    *text,
            gssize         len,
            const char    *source,
            GPtrArray     *errors,
            GError       **error)
{
  g_autoptr(GPtrArray) parsed = g_ptr_array_new_with_free_func (rule_free);
  g_autoptr(GArray) words = g_array_new (FALSE, FALSE, sizeof (Word));
  GError *local = NULL;
  Ctx ctx = { source ? source : "rules", 0, &local };
  gboolean any_error = FALSE;
  gsize n, pos = 0;

  n = len < 0 ? strlen (text) : (gsize) len;
  while (pos < n)
    {
      const char *line = text + pos;
      const char *nl = memchr (line, '\n', n - pos);
      gsize llen = nl ? (gsize) (nl - line) : n - pos;
      const char *bad;
      CpelSpanRule *r = NULL;
      gboolean ok;

      pos += llen + (nl ? 1 : 0);
      ctx.line++;
      words_clear (words);
      if (!g_utf8_validate (line, (gssize) llen, &bad))
        ok = fail (&ctx, (guint) (bad - line) + 1, _("the line is not valid UTF-8"));
      else if (memchr (line, '\0', llen) != NULL)
        ok = fail (&ctx, (guint) ((const char *) memchr (line, '\0', llen) - line) + 1,
                   _("the line holds a NUL byte"));
      else
        ok = split_words (&ctx, line, llen, words);
      if (ok && words->len == 0)
        continue;
      if (ok && rules->rules->len + parsed->len >= CPEL_SPAN_RULES_MAX)
        ok = fail (&ctx, 1, _("too many rules (at most %u)"), CPEL_SPAN_RULES_MAX);
      if (ok)
        {
          r = g_new0 (CpelSpanRule, 1);
          r->line = ctx.line;
          r->begin.capture = r->end.capture = -1;
          ok = parse_rule (&ctx, words, r);
        }
      words_clear (words);
      if (ok)
        {
          g_ptr_array_add (parsed, r);
          continue;
        }
      if (r != NULL)
        rule_free (r);
      any_error = TRUE;
      if (errors == NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      g_ptr_array_add (errors, g_strdup (local->message));
      g_clear_error (&local);
      if (errors->len >= MAX_ERRORS)
        break;
    }
  if (any_error)
    return FALSE;
  for (guint i = 0; i < parsed->len; i++)
    {
      CpelSpanRule *r = g_ptr_array_steal_index (parsed, i--);

      r->index = rules->rules->len;
      g_ptr_array_add (rules->rules, r);
    }
  return TRUE;
}

gboolean
cpel_span_rules_add_text (CpelSpanRules *rules,
                          const char    *text,
                          gssize         len,
                          const char    *source,
                          GError       **error)
{
  g_return_val_if_fail (rules != NULL, FALSE);
  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return parse_text (rules, text ? text : "", len, source, NULL, error);
}

gboolean
cpel_span_rules_check_text (CpelSpanRules *rules,
                            const char    *text,
                            gssize         len,
                            const char    *source,
                            GPtrArray     *errors)
{
  g_return_val_if_fail (rules != NULL, FALSE);
  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (errors != NULL, FALSE);

  return parse_text (rules, text ? text : "", len, source, errors, NULL);
}

gboolean
cpel_span_rules_add_file (CpelSpanRules *rules,
                          const char    *path,
                          GError       **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *display = NULL;
  gsize len = 0;
  GError *local = NULL;

  g_return_val_if_fail (rules != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!g_file_get_contents (path, &contents, &len, &local))
    {
      g_set_error (error, CPEL_SPAN_RULES_ERROR, CPEL_SPAN_RULES_ERROR_IO, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  display = g_filename_display_name (path);
  if (len > RULES_FILE_MAX)
    {
      g_set_error (error, CPEL_SPAN_RULES_ERROR, CPEL_SPAN_RULES_ERROR_IO,
                   _("%s: a rules file has at most %u bytes"), display, RULES_FILE_MAX);
      return FALSE;
    }
  return cpel_span_rules_add_text (rules, contents, (gssize) len, display, error);
}

/* ---- normal form --------------------------------------------------------- */

static void
append_word (GString    *out,
             const char *w)
{
  gboolean quote = *w == '\0' || *w == '#' || strpbrk (w, " \t\r\"") != NULL;

  if (out->len > 0 && out->str[out->len - 1] != '\n')
    g_string_append_c (out, ' ');
  if (!quote)
    {
      g_string_append (out, w);
      return;
    }
  /* trailing backslashes go after the closing quote (inside it, the last
   * one would escape it) */
  {
    gsize n = strlen (w), k = n;

    while (k > 0 && w[k - 1] == '\\')
      k--;
    g_string_append_c (out, '"');
    for (gsize i = 0; i < k; i++)
      {
        if (w[i] == '"')
          g_string_append_c (out, '\\');
        g_string_append_c (out, w[i]);
      }
    g_string_append_c (out, '"');
    g_string_append (out, w + k);
  }
}

static void
append_match (GString             *out,
              const CpelSpanMatch *m)
{
  for (guint i = 0; i < m->n_conds; i++)
    {
      const CpelSpanCond *c = &m->conds[i];
      g_autofree char *w = NULL;

      switch (c->kind)
        {
        case CPEL_SPAN_COND_EVENT: w = g_strconcat ("event=", c->pattern, NULL); break;
        case CPEL_SPAN_COND_TEXT:  w = g_strconcat ("text=", c->pattern, NULL); break;
        case CPEL_SPAN_COND_REGEX: w = g_strconcat ("text~", c->pattern, NULL); break;
        case CPEL_SPAN_COND_FIELD:
          w = g_strconcat ("field.", c->field, "=", c->pattern, NULL);
          break;
        }
      append_word (out, w);
    }
}

static char *
match_to_text (const CpelSpanMatch *m)
{
  GString *out = g_string_new (NULL);

  append_match (out, m);
  return g_string_free (out, FALSE);
}

static void
append_rule (GString            *out,
             const CpelSpanRule *r)
{
  gsize start = out->len;

  g_string_append (out, r->kind == CPEL_SPAN_RULE_SPAN ? "span" : "state");
  (void) start;
  append_word (out, r->name);
  append_word (out, r->kind == CPEL_SPAN_RULE_SPAN ? "begin" : "on");
  append_match (out, &r->begin);
  if (r->from != NULL)
    {
      append_word (out, "from");
      for (guint k = 0; r->from[k] != NULL; k++)
        append_word (out, r->from[k]);
    }
  if (r->kind == CPEL_SPAN_RULE_SPAN)
    {
      append_word (out, "end");
      append_match (out, &r->end);
      if (r->key != NULL)
        {
          append_word (out, "key");
          append_word (out, r->key);
        }
      if (r->restart)
        append_word (out, "restart");
    }
}

char *
cpel_span_rules_dup_line (CpelSpanRules *rules,
                          guint          i)
{
  GString *out;

  g_return_val_if_fail (rules != NULL && i < rules->rules->len, NULL);
  out = g_string_new (NULL);
  append_rule (out, g_ptr_array_index (rules->rules, i));
  return g_string_free (out, FALSE);
}

char *
cpel_span_rules_to_text (CpelSpanRules *rules)
{
  GString *out;

  g_return_val_if_fail (rules != NULL, NULL);
  out = g_string_new (NULL);
  for (guint i = 0; i < rules->rules->len; i++)
    {
      append_rule (out, g_ptr_array_index (rules->rules, i));
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
