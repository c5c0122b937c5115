/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-tracepoint.c — perf.data tracepoints: the TRACING_DATA feature's
 * format texts (checked, then handed to libtraceevent) and each RAW payload
 * printed as perf script prints it, after checking that every field lies
 * inside the record */
#include "cpel-perf-data-private.h"

#include <errno.h>

/* --- TRACING_DATA ------------------------------------------------------- */

typedef struct
{
  const guint8 *p;
  guint64       pos, end, file_off;
} Cursor;

static gboolean
cur_need (Cursor *c, guint64 n, const char *what, GError **error)
{
  if (in_range (c->pos, n, c->end))
    return TRUE;
  return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                     _("perf.data: tracing data: %s at offset %" PRIu64 " runs past the section"),
                     what, c->file_off + c->pos);
}

static const char *
cur_cstring (Cursor *c, const char *what, GError **error)
{
  const guint8 *s = c->p + c->pos;
  const guint8 *nul = memchr (s, 0, c->end - c->pos);
  if (nul == NULL)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: tracing data: %s at offset %" PRIu64 " has no end"),
                  what, c->file_off + c->pos);
      return NULL;
    }
  c->pos += (guint64) (nul - s) + 1;
  return (const char *) s;
}

/* u64 (or u32) size then text; returns a NUL-terminated copy. */
static char *
cur_sized_text (Cursor *c, guint width, const char *what, gsize *len_out, GError **error)
{
  if (!cur_need (c, width, what, error))
    return NULL;
  guint64 len = width == 8 ? rd64 (c->p + c->pos) : rd32 (c->p + c->pos);
  c->pos += width;
  if (!cur_need (c, len, what, error))
    return NULL;
  char *t = g_malloc (len + 1);
  memcpy (t, c->p + c->pos, len);
  t[len] = 0;
  c->pos += len;
  if (len_out)
    *len_out = len;
  return t;
}

/* The print format's arguments, token by token, before libtraceevent's
 * parser sees them (it follows NULL on shapes like `REC->0rev_state` or
 * `R/C->prev_comm`, found by fuzzing): `->` only in `REC->field` with a
 * field of this format, a call only of a helper libtraceevent knows,
 * numbers that end where they should, no character C would not have here.
 * Anything else is not an error of the file: the event is printed field by
 * field instead. */
static gboolean
print_args_are_plain (const char *p, GHashTable *fields)
{
  static const char *const helpers[] = {
    "__print_flags", "__print_symbolic", "__print_hex", "__print_hex_str", "__print_array",
    "__get_str", "__get_rel_str", "__get_bitmask", "__get_rel_bitmask", "__get_cpumask",
    "__get_rel_cpumask", "__get_dynamic_array", "__get_rel_dynamic_array",
    "__get_dynamic_array_len", "__get_rel_dynamic_array_len", "__get_sockaddr",
    "__get_rel_sockaddr",
  };
  gboolean after_arrow = FALSE, after_rec = FALSE;
  while (*p)
    {
      if (*p == ' ')
        {
          p++;
          continue;
        }
      if (after_rec && !(p[0] == '-' && p[1] == '>'))
        return FALSE;
      if (*p == '"')
        {
          /* closed and escaped as format_is_well_formed checked */
          for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1] != 0)
              p++;
          if (*p != '"' || after_arrow)
            return FALSE;
          p++;
          continue;
        }
      if (*p == '\'')
        {
          if (after_arrow)
            return FALSE;
          p += p[1] == '\\' ? 4 : 3;
          continue;
        }
      if (g_ascii_isalpha (*p) || *p == '_')
        {
          const char *start = p;
          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          g_autofree char *word = g_strndup (start, p - start);
          const char *q = p;
          while (*q == ' ')
            q++;
          if (after_arrow)
            {
              if (!g_hash_table_contains (fields, word))
                return FALSE;
              after_arrow = FALSE;
            }
          else if (strcmp (word, "REC") == 0)
            after_rec = TRUE;
          else if (*q == '(')
            {
              gboolean known = FALSE;
              for (guint i = 0; i < G_N_ELEMENTS (helpers) && !known; i++)
                known = strcmp (word, helpers[i]) == 0;
              if (!known)
                return FALSE;
            }
          continue;
        }
      if (after_arrow)
        return FALSE;
      if (g_ascii_isdigit (*p))
        {
          if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
            {
              p += 2;
              if (!g_ascii_isxdigit (*p))
                return FALSE;
              while (g_ascii_isxdigit (*p))
                p++;
            }
          else
            while (g_ascii_isdigit (*p))
              p++;
          while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
            p++;
          if (g_ascii_isalnum (*p) || *p == '_' || *p == '.')
            return FALSE;
          continue;
        }
      if (p[0] == '-' && p[1] == '>')
        {
          if (!after_rec)
            return FALSE;
          after_rec = FALSE;
          after_arrow = TRUE;
          p += 2;
          continue;
        }
      if (strchr ("()[]{},?:+-*/%<>=!&|^~", *p) == NULL)
        return FALSE;
      p++;
    }
  return !after_arrow && !after_rec;
}

/* libtraceevent's format parser is not safe on malformed text (fuzzing
 * made tep_parse_event dereference NULL on a damaged "print fmt:" line), so
 * a format reaches it only when it has the kernel's exact shape: `name:`,
 * `ID:`, `format:`, field lines `\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;`,
 * blank lines, and a last `print fmt:` line with a quoted format, balanced
 * brackets and closed strings; printable ASCII only. */
static gboolean
format_is_well_formed (const char *text, gsize len, gboolean *args_plain)
{
  static GRegex *line_re[4], *rec_re, *name_re;
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
      line_re[0] = g_regex_new ("^name: [A-Za-z0-9_]{1,128}$", G_REGEX_OPTIMIZE, 0, NULL);
      line_re[1] = g_regex_new ("^ID: [0-9]{1,9}$", G_REGEX_OPTIMIZE, 0, NULL);
      line_re[2] = g_regex_new ("^format:$", G_REGEX_OPTIMIZE, 0, NULL);
      line_re[3] = g_regex_new ("^\tfield:[A-Za-z_][A-Za-z0-9_ *\\[\\]]{0,200} [A-Za-z_][A-Za-z0-9_]{0,127}"
                                "(\\[[0-9]{0,5}\\])?;\toffset:[0-9]{1,5};\tsize:[0-9]{1,5};\tsigned:[01];$",
                                G_REGEX_OPTIMIZE, 0, NULL);
      rec_re = g_regex_new ("REC->([A-Za-z_][A-Za-z0-9_]*)", G_REGEX_OPTIMIZE, 0, NULL);
      name_re = g_regex_new (" ([A-Za-z_][A-Za-z0-9_]*)(\\[[0-9]*\\])?;\toffset:", G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&once, 1);
    }
  for (gsize i = 0; i < len; i++)
    if ((text[i] < 0x20 || text[i] > 0x7e) && text[i] != '\t' && text[i] != '\n')
      return FALSE;
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);
  while (n > 0 && lines[n - 1][0] == 0)
    n--;
  if (n < 4)
    return FALSE;
  for (guint i = 0; i < 3; i++)
    if (!g_regex_match (line_re[i], lines[i], 0, NULL))
      return FALSE;
  g_autoptr(GHashTable) fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 3; i + 1 < n; i++)
    {
      if (lines[i][0] == 0)
        continue;
      g_autoptr(GMatchInfo) m = NULL;
      if (!g_regex_match (line_re[3], lines[i], 0, NULL) || !g_regex_match (name_re, lines[i], 0, &m))
        return FALSE;
      char *name = g_match_info_fetch (m, 1);
      if (!g_hash_table_add (fields, name))
        return FALSE;   /* a field named twice */
    }
  /* every REC->field of the print format is a field (libtraceevent follows a
   * NULL field otherwise) */
  {
    g_autoptr(GMatchInfo) m = NULL;
    g_regex_match (rec_re, lines[n - 1], 0, &m);
    while (g_match_info_matches (m))
      {
        g_autofree char *ref = g_match_info_fetch (m, 1);
        if (!g_hash_table_contains (fields, ref))
          return FALSE;
        g_match_info_next (m, NULL);
      }
  }
  const char *p = lines[n - 1];
  if (!g_str_has_prefix (p, "print fmt: \""))
    return FALSE;
  p += strlen ("print fmt: ");
  char stack[64];
  guint depth = 0;
  gboolean quoted = FALSE;
  for (; *p; p++)
    {
      if (quoted)
        {
          if (*p == '\\')
            {
              if (p[1] == 0)
                return FALSE;
              p++;
            }
          else if (*p == '"')
            quoted = FALSE;
          continue;
        }
      switch (*p)
        {
        case '"': quoted = TRUE; break;
        case '\'':
          /* a character constant: 'x' or '\x' */
          if (p[1] == '\\' && p[2] && p[3] == '\'')
            p += 3;
          else if (p[1] && p[1] != '\\' && p[2] == '\'')
            p += 2;
          else
            return FALSE;
          break;
        case '(': case '{': case '[':
          if (depth == sizeof stack)
            return FALSE;
          stack[depth++] = *p == '(' ? ')' : *p == '{' ? '}' : ']';
          break;
        case ')': case '}': case ']':
          if (depth == 0 || stack[--depth] != *p)
            return FALSE;
          break;
        default: break;
        }
    }
  if (quoted || depth != 0)
    return FALSE;
  const char *args = lines[n - 1] + strlen ("print fmt: \"");
  for (; *args && *args != '"'; args++)
    if (*args == '\\' && args[1] != 0)
      args++;
  *args_plain = *args == '"' && print_args_are_plain (args + 1, fields);
  return TRUE;
}

/* --- print formats libtraceevent may evaluate ----------------------------
 *
 * libtraceevent evaluates a print format's expressions on each record with
 * no guard: `REC->a / REC->b` divides by zero (SIGFPE, found by fuzzing),
 * `REC->arr[REC->i]` and `__print_hex(p, REC->len)` read as far as the
 * record says.  A format is printed through its expressions only when every
 * divisor is a non-zero constant, every index a constant inside its array,
 * every length a constant or the dynamic array's own, and every conversion
 * of the quoted text one printf knows with a small width; otherwise the
 * event is marked to be printed field by field (libtraceevent's raw
 * printer, which reads only the fields checked against each record). */

#define SAFE_MAX_DEPTH 64
#define SAFE_MAX_LEN 4096   /* the zero padding after each record's copy */

static gboolean
const_value (struct tep_print_arg *a, guint depth, guint64 *v)
{
  if (a == NULL || depth > SAFE_MAX_DEPTH)
    return FALSE;
  switch (a->type)
    {
    case TEP_PRINT_ATOM:
      {
        const char *s = a->atom.atom;
        char *end = NULL;
        if (s == NULL || !g_ascii_isdigit (s[0]))
          return FALSE;
        errno = 0;
        *v = g_ascii_strtoull (s, &end, 0);
        if (errno != 0)
          return FALSE;
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
          end++;
        return *end == 0;
      }
    case TEP_PRINT_TYPE:
      return const_value (a->typecast.item, depth + 1, v);
    case TEP_PRINT_OP:
      {
        const char *op = a->op.op;
        guint64 l = 0, r = 0;
        if (op == NULL || !const_value (a->op.right, depth + 1, &r))
          return FALSE;
        if (a->op.left == NULL)
          {
            if (strcmp (op, "~") == 0) { *v = ~r; return TRUE; }
            if (strcmp (op, "!") == 0) { *v = !r; return TRUE; }
            if (strcmp (op, "-") == 0) { *v = -r; return TRUE; }
            return FALSE;
          }
        if (!const_value (a->op.left, depth + 1, &l))
          return FALSE;
        if (strcmp (op, "+") == 0) *v = l + r;
        else if (strcmp (op, "-") == 0) *v = l - r;
        else if (strcmp (op, "*") == 0) *v = l * r;
        else if (strcmp (op, "&") == 0) *v = l & r;
        else if (strcmp (op, "|") == 0) *v = l | r;
        else if (strcmp (op, "^") == 0) *v = l ^ r;
        else if (strcmp (op, "<<") == 0) *v = r < 64 ? l << r : 0;
        else if (strcmp (op, ">>") == 0) *v = r < 64 ? l >> r : 0;
        else if (strcmp (op, "/") == 0 && r != 0) *v = l / r;
        else if (strcmp (op, "%") == 0 && r != 0) *v = l % r;
        else
          return FALSE;
        return TRUE;
      }
    default:
      return FALSE;
    }
}

static gboolean
const_at_most (struct tep_print_arg *a, guint64 max)
{
  guint64 v;
  return const_value (a, 0, &v) && v <= max;
}

static gboolean
is_dynamic_len (struct tep_print_arg *a)
{
  return a != NULL && a->type == TEP_PRINT_DYNAMIC_ARRAY_LEN;
}

static gboolean args_are_safe (struct tep_event *ev, struct tep_print_arg *a, guint depth);

static gboolean
arg_is_safe (struct tep_event *ev, struct tep_print_arg *a, guint depth)
{
  if (depth > SAFE_MAX_DEPTH)
    return FALSE;
  switch (a->type)
    {
    case TEP_PRINT_NULL:
    case TEP_PRINT_ATOM:
    case TEP_PRINT_FIELD:
    case TEP_PRINT_STRING:
    case TEP_PRINT_BSTRING:
    case TEP_PRINT_BITMASK:
    case TEP_PRINT_CPUMASK:
    case TEP_PRINT_DYNAMIC_ARRAY_LEN:
      return TRUE;
    case TEP_PRINT_DYNAMIC_ARRAY:
      return a->dynarray.index == NULL;
    case TEP_PRINT_FLAGS:
      return a->flags.field == NULL || args_are_safe (ev, a->flags.field, depth + 1);
    case TEP_PRINT_SYMBOL:
      return a->symbol.field == NULL || args_are_safe (ev, a->symbol.field, depth + 1);
    case TEP_PRINT_TYPE:
      return a->typecast.item == NULL || args_are_safe (ev, a->typecast.item, depth + 1);
    case TEP_PRINT_HEX:
    case TEP_PRINT_HEX_STR:
      return a->hex.field != NULL && args_are_safe (ev, a->hex.field, depth + 1)
             && (is_dynamic_len (a->hex.size) || const_at_most (a->hex.size, SAFE_MAX_LEN));
    case TEP_PRINT_INT_ARRAY:
      {
        guint64 el = 0, count = 0;
        if (a->int_array.field == NULL || !args_are_safe (ev, a->int_array.field, depth + 1)
            || !const_value (a->int_array.el_size, 0, &el) || el == 0 || el > 8)
          return FALSE;
        if (const_value (a->int_array.count, 0, &count))
          return count <= SAFE_MAX_LEN / el;
        /* __get_dynamic_array_len (x) / el_size */
        struct tep_print_arg *c = a->int_array.count;
        guint64 div = 0;
        return c != NULL && c->type == TEP_PRINT_OP && c->op.op != NULL && strcmp (c->op.op, "/") == 0
               && is_dynamic_len (c->op.left) && const_value (c->op.right, 0, &div) && div >= el;
      }
    case TEP_PRINT_OP:
      {
        const char *op = a->op.op;
        if (op == NULL)
          return FALSE;
        if (strcmp (op, "/") == 0 || strcmp (op, "%") == 0)
          {
            guint64 r;
            if (!const_value (a->op.right, 0, &r) || r == 0)
              return FALSE;
            return a->op.left == NULL || args_are_safe (ev, a->op.left, depth + 1);
          }
        if (strcmp (op, "[") == 0)
          {
            /* REC->array[constant] inside the array */
            struct tep_print_arg *l = a->op.left;
            while (l != NULL && l->type == TEP_PRINT_TYPE)
              l = l->typecast.item;
            if (l == NULL || l->type != TEP_PRINT_FIELD || l->field.name == NULL)
              return FALSE;
            struct tep_format_field *f = tep_find_any_field (ev, l->field.name);
            guint64 i;
            return f != NULL && (f->flags & TEP_FIELD_IS_ARRAY) && f->elementsize > 0
                   && const_value (a->op.right, 0, &i)
                   && i < (guint64) f->arraylen
                   && (i + 1) * (guint64) f->elementsize <= (guint64) f->size;
          }
        return (a->op.left == NULL || args_are_safe (ev, a->op.left, depth + 1))
               && (a->op.right == NULL || args_are_safe (ev, a->op.right, depth + 1));
      }
    case TEP_PRINT_FUNC:
    default:
      return FALSE;
    }
}

static gboolean
args_are_safe (struct tep_event *ev, struct tep_print_arg *a, guint depth)
{
  guint n = 0;
  for (; a != NULL; a = a->next)
    if (++n > 256 || !arg_is_safe (ev, a, depth))
      return FALSE;
  return TRUE;
}

/* Every conversion of the quoted text: %%, or flags, a width and precision
 * of at most three digits (or `*` with %p and `.*`), a length, and one of
 * diouxXcsp (%p with its letters).  No %n, no width that asks for megabytes. */
static gboolean
conversions_are_safe (const char *fmt)
{
  if (fmt == NULL)
    return FALSE;
  for (const char *p = fmt; *p; p++)
    {
      if (*p != '%')
        continue;
      p++;
      if (*p == '%')
        continue;
      while (*p && strchr ("-+ #0", *p))
        p++;
      gboolean star = FALSE;
      if (*p == '*')
        star = TRUE, p++;
      else
        for (guint d = 0; g_ascii_isdigit (*p); p++)
          if (++d > 3)
            return FALSE;
      if (*p == '.')
        {
          p++;
          if (*p == '*')
            p++;
          else
            for (guint d = 0; g_ascii_isdigit (*p); p++)
              if (++d > 3)
                return FALSE;
        }
      while (*p && strchr ("hlzLjtq", *p))
        p++;
      if (*p == 0 || !strchr ("diouxXcsp", *p))
        return FALSE;
      if (star && *p != 'p')
        return FALSE;
    }
  return TRUE;
}

/* The text test, before libtraceevent sees the format: outside quotes,
 * each `/` and `%` is followed by a decimal or hex number in 1..2^32 and
 * then by `)`, `,`, `?`, `:` or the end — so no parse-time folding and no
 * precedence reading can divide by zero or by -1. */
static gboolean
divisions_are_plain (const char *p)
{
  gboolean quoted = FALSE;
  for (; *p && *p != '\n'; p++)
    {
      if (quoted)
        {
          if (*p == '\\' && p[1] != 0)
            p++;
          else if (*p == '"')
            quoted = FALSE;
          continue;
        }
      if (*p == '"')
        {
          quoted = TRUE;
          continue;
        }
      if (*p == '\'')
        {
          /* a character constant, checked by format_is_well_formed */
          p += p[1] == '\\' ? 3 : 2;
          continue;
        }
      if (*p != '/' && *p != '%')
        continue;
      const char *q = p + 1;
      while (*q == ' ')
        q++;
      if (!g_ascii_isdigit (*q))
        return FALSE;
      char *end = NULL;
      errno = 0;
      guint64 v = g_ascii_strtoull (q, &end, 0);
      if (errno != 0 || v == 0 || v > G_MAXUINT32 || end == q)
        return FALSE;
      while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
        end++;
      while (*end == ' ')
        end++;
      if (*end != 0 && *end != '\n' && !strchr ("),?:", *end))
        return FALSE;
      p = end - 1;
    }
  return TRUE;
}

static gboolean
print_fmt_is_safe (struct tep_event *ev)
{
  /* an empty format (or one emptied by divisions_are_plain) shows nothing */
  return ev->print_fmt.format != NULL && ev->print_fmt.format[0] != 0
         && conversions_are_safe (ev->print_fmt.format)
         && args_are_safe (ev, ev->print_fmt.args, 0);
}

gboolean
_cpel_perf_parse_tracing_data (CpelPerfData *self, guint64 off, guint64 size, GError **error)
{
  Cursor c = { self->data + off, 0, size, off };
  static const guint8 magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

  if (!cur_need (&c, 10, "magic", error))
    return FALSE;
  if (memcmp (c.p, magic, 10) != 0)
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: tracing data at offset %" PRIu64 " does not start with its magic"), off);
  c.pos = 10;
  const char *version = cur_cstring (&c, "version", error);
  if (version == NULL)
    return FALSE;
  if (!cur_need (&c, 6, "byte order", error))
    return FALSE;
  guint8 big = c.p[c.pos];
  guint8 long_size = c.p[c.pos + 1];
  guint32 page_size = rd32 (c.p + c.pos + 2);
  c.pos += 6;
  if (big != (G_BYTE_ORDER == G_BIG_ENDIAN))
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_UNSUPPORTED,
                       _("perf.data: tracing data in the other byte order: not supported yet"));
  if (long_size != 4 && long_size != 8)
    return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                       _("perf.data: tracing data at offset %" PRIu64 ": long size %u"),
                       off, long_size);

  tep_set_long_size (self->tep, long_size);
  tep_set_page_size (self->tep, page_size);
  tep_set_file_bigendian (self->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);

  const char *name = cur_cstring (&c, "header_page", error);
  if (name == NULL)
    return FALSE;
  gsize tlen;
  g_autofree char *header_page = cur_sized_text (&c, 8, "header_page", &tlen, error);
  if (header_page == NULL)
    return FALSE;
  /* header_page describes the ring buffer's pages: not needed here, and
   * not handed to libtraceevent (hostile text) */
  name = cur_cstring (&c, "header_event", error);
  if (name == NULL)
    return FALSE;
  g_autofree char *header_event = cur_sized_text (&c, 8, "header_event", NULL, error);
  if (header_event == NULL)
    return FALSE;

  /* ftrace formats: not needed */
  if (!cur_need (&c, 4, "ftrace format count", error))
    return FALSE;
  guint32 n = rd32 (c.p + c.pos);
  c.pos += 4;
  for (guint32 i = 0; i < n; i++)
    {
      g_autofree char *t = cur_sized_text (&c, 8, "ftrace format", NULL, error);
      if (t == NULL)
        return FALSE;
    }

  if (!cur_need (&c, 4, "system count", error))
    return FALSE;
  guint32 n_sys = rd32 (c.p + c.pos);
  c.pos += 4;
  for (guint32 s = 0; s < n_sys; s++)
    {
      const char *sys = cur_cstring (&c, "system name", error);
      if (sys == NULL)
        return FALSE;
      g_autofree char *system = g_strdup (sys);
      for (const char *q = system; *q; q++)
        if (!g_ascii_isalnum (*q) && *q != '_' && *q != '-')
          return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                             _("perf.data: tracing data: a system name at offset %" PRIu64 " is not a name"),
                             c.file_off + c.pos);
      if (!cur_need (&c, 4, "event count", error))
        return FALSE;
      guint32 n_ev = rd32 (c.p + c.pos);
      c.pos += 4;
      for (guint32 e = 0; e < n_ev; e++)
        {
          guint64 at = c.file_off + c.pos;
          g_autofree char *fmt = cur_sized_text (&c, 8, "event format", &tlen, error);
          if (fmt == NULL)
            return FALSE;
          gboolean args_plain = FALSE;
          if (strlen (fmt) != tlen || !format_is_well_formed (fmt, tlen, &args_plain))
            return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                               _("perf.data: the tracepoint format at offset %" PRIu64 " (system %s) cannot be parsed"),
                               at, system);
          /* libtraceevent folds constant expressions while it parses: a
           * print format that divides by anything but a plain non-zero
           * number, or whose arguments are not plain (print_args_are_plain),
           * is replaced by an empty one (printed field by field) */
          char *pf = strstr (fmt, "\nprint fmt: ");
          if (pf != NULL && (!args_plain || !divisions_are_plain (pf + strlen ("\nprint fmt: "))))
            {
              strcpy (pf, "\nprint fmt: \"\"\n");
              tlen = strlen (fmt);
            }
          if (tep_parse_event (self->tep, fmt, tlen, system) != 0)
            return _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                               _("perf.data: the tracepoint format at offset %" PRIu64 " (system %s) cannot be parsed"),
                               at, system);
        }
    }

  /* formats libtraceevent must not evaluate are printed field by field */
  {
    /* the handle's own sorted list: not ours to free */
    struct tep_event **events = tep_list_events (self->tep, TEP_EVENT_SORT_ID);
    for (guint i = 0; events != NULL && events[i] != NULL; i++)
      if (!print_fmt_is_safe (events[i]))
        events[i]->flags |= TEP_EVENT_FL_PRINTRAW;
  }

  /* kallsyms, printk formats and saved cmdlines follow: not read.
   * libtraceevent's parsers of them are not safe on hostile input (fuzzing
   * found tep_parse_printk_formats reading past its buffer), and the
   * tracepoints printed here need neither. */
  return TRUE;
}

/* --- tracepoints -------------------------------------------------------- */

static gboolean
check_fields (struct tep_format_field *f, const guint8 *raw, guint32 raw_size, const char **bad)
{
  for (; f != NULL; f = f->next)
    {
      if (f->offset < 0 || f->size < 0 || !in_range ((guint64) f->offset, (guint64) f->size, raw_size))
        {
          *bad = f->name;
          return FALSE;
        }
      if (f->flags & TEP_FIELD_IS_DYNAMIC)
        {
          guint32 loc;
          if (f->size == 4)
            loc = rd32 (raw + f->offset);
          else if (f->size == 2)
            loc = rd16 (raw + f->offset);
          else
            {
              *bad = f->name;
              return FALSE;
            }
          guint64 o = loc & 0xffff, l = f->size == 4 ? loc >> 16 : 0;
          if (f->flags & TEP_FIELD_IS_RELATIVE)
            o += (guint64) f->offset + (guint64) f->size;
          if (!in_range (o, l, raw_size))
            {
              *bad = f->name;
              return FALSE;
            }
        }
    }
  return TRUE;
}

static struct tep_event *
checked_event (CpelPerfData *self, guint attr, const guint8 *raw, guint32 raw_size, GError **error)
{
  struct tep_event *ev = attr < self->n_attrs ? self->attrs[attr].tp : NULL;
  const char *bad = NULL;
  if (ev == NULL)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED, _("perf.data: no tracepoint format for attr %u"), attr);
      return NULL;
    }
  if (raw_size < 2 || rd16 (raw) != (guint16) ev->id)
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: a %s record whose common_type is not the format's id %d"), ev->name, ev->id);
      return NULL;
    }
  if (!check_fields (ev->format.common_fields, raw, raw_size, &bad)
      || !check_fields (ev->format.fields, raw, raw_size, &bad))
    {
      _cpel_perf_error (error, CPEL_ERROR_SOURCE_DAMAGED,
                  _("perf.data: field %s of %s lies past the %u-byte tracepoint record"),
                  bad ? bad : "?", ev->name, raw_size);
      return NULL;
    }
  return ev;
}

/* libtraceevent reads strings up to their NUL: give it a zero-padded copy. */
static guint8 *
scratch_copy (CpelPerfData *self, const guint8 *raw, guint32 raw_size)
{
  gsize need = (gsize) raw_size + 4096;
  if (self->scratch_size < need)
    {
      g_free (self->scratch);
      self->scratch_size = MAX (need, 65536 + 4096);
      self->scratch = g_malloc (self->scratch_size);
    }
  memcpy (self->scratch, raw, raw_size);
  memset (self->scratch + raw_size, 0, 4096);
  return self->scratch;
}

static gboolean
read_int_field (struct tep_format_field *f, const guint8 *raw, gint64 *value)
{
  if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_POINTER))
    return FALSE;
  gboolean sign = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
  switch (f->size)
    {
    case 1: *value = sign ? (gint64) (gint8) raw[f->offset] : raw[f->offset]; return TRUE;
    case 2: *value = sign ? (gint64) (gint16) rd16 (raw + f->offset) : rd16 (raw + f->offset); return TRUE;
    case 4: *value = sign ? (gint64) (gint32) rd32 (raw + f->offset) : rd32 (raw + f->offset); return TRUE;
    case 8: *value = (gint64) rd64 (raw + f->offset); return TRUE;
    default: return FALSE;
    }
}

gboolean
cpel_perf_data_format_tracepoint (CpelPerfData  *self,
                                  guint          attr,
                                  const guint8  *raw,
                                  guint32        raw_size,
                                  GString       *out,
                                  gint64        *num,
                                  GError       **error)
{
  struct tep_event *ev = checked_event (self, attr, raw, raw_size, error);
  if (ev == NULL)
    return FALSE;
  guint8 *copy = scratch_copy (self, raw, raw_size);
  struct tep_record rec = { 0 };
  rec.data = copy;
  rec.size = (int) raw_size;
  struct trace_seq s;
  trace_seq_init (&s);
  tep_print_event (self->tep, &s, &rec, "%s", TEP_PRINT_INFO);
  trace_seq_terminate (&s);
  /* the field-by-field printer starts with a space */
  guint skip = 0;
  while (s.buffer != NULL && skip < s.len && s.buffer[skip] == ' ')
    skip++;
  if (s.buffer != NULL && s.len > skip)
    {
      const char *end = NULL;
      if (g_utf8_validate (s.buffer + skip, s.len - skip, &end))
        g_string_append_len (out, s.buffer + skip, s.len - skip);
      else
        {
          g_autofree char *v = g_utf8_make_valid (s.buffer + skip, s.len - skip);
          g_string_append (out, v);
        }
    }
  trace_seq_destroy (&s);
  if (num != NULL)
    {
      *num = 0;
      struct tep_format_field *f = tep_find_field (ev, "next_pid");
      if (f == NULL || !read_int_field (f, raw, num))
        for (f = ev->format.fields; f != NULL; f = f->next)
          if (read_int_field (f, raw, num))
            break;
    }
  return TRUE;
}

gboolean
cpel_perf_data_tracepoint_int (CpelPerfData *self, guint attr, const guint8 *raw, guint32 raw_size,
                               const char *name, gint64 *value)
{
  struct tep_event *ev = checked_event (self, attr, raw, raw_size, NULL);
  if (ev == NULL)
    return FALSE;
  struct tep_format_field *f = tep_find_field (ev, name);
  return f != NULL && read_int_field (f, raw, value);
}

gboolean
cpel_perf_data_tracepoint_str (CpelPerfData *self, guint attr, const guint8 *raw, guint32 raw_size,
                               const char *name, GString *out)
{
  g_string_truncate (out, 0);
  struct tep_event *ev = checked_event (self, attr, raw, raw_size, NULL);
  if (ev == NULL)
    return FALSE;
  struct tep_format_field *f = tep_find_field (ev, name);
  if (f == NULL || (f->flags & TEP_FIELD_IS_DYNAMIC) || !(f->flags & TEP_FIELD_IS_ARRAY))
    return FALSE;
  const char *s = (const char *) raw + f->offset;
  gsize n = strnlen (s, f->size);
  if (g_utf8_validate (s, n, NULL))
    g_string_append_len (out, s, n);
  else
    {
      g_autofree char *v = g_utf8_make_valid (s, n);
      g_string_append (out, v);
    }
  return TRUE;
}
