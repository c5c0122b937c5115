/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-search-query.c — what a search query matches: text, regex or event code */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cpel-search-private.h"

/* Substring test for short haystacks (labels) and needles: cheaper than
 * memmem's set-up. */
static inline gboolean
contains (const char *hay,
          gsize       hay_len,
          const char *needle,
          gsize       needle_len)
{
  const char *p, *last;

  if (needle_len == 0)
    return TRUE;
  if (needle_len > hay_len)
    return FALSE;
  last = hay + (hay_len - needle_len);
  for (p = hay; p <= last; p++)
    {
      p = memchr (p, needle[0], last - p + 1);
      if (p == NULL)
        return FALSE;
      if (memcmp (p + 1, needle + 1, needle_len - 1) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A case-insensitive key for `s`: Unicode casefolding for valid UTF-8,
 * ASCII lowering otherwise. */
static char *
fold (const char *s,
      gssize      len)
{
  if (len < 0)
    len = strlen (s);
  if (g_utf8_validate_len (s, len, NULL))
    return g_utf8_casefold (s, len);
  return g_ascii_strdown (s, len);
}

static gboolean
setup_code (CpelQuery   *query,
            const char  *text,
            GError     **error)
{
  CpelFile *file = query->file;
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  g_autofree char *key = NULL;
  GArray *codes = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 number;
  guint type;
  gboolean numeric;

  query->type_match = g_new0 (guint8, MAX (file->n_types, 1));

  /* A number: decimal or 0x hex. */
  numeric = (g_str_has_prefix (stripped, "0x") || g_str_has_prefix (stripped, "0X"))
            ? g_ascii_string_to_unsigned (stripped + 2, 16, 0, G_MAXUINT32, &number, NULL)
            : g_ascii_string_to_unsigned (stripped, 10, 0, G_MAXUINT32, &number, NULL);
  if (numeric)
    {
      if (cpel_file_lookup_type (file, (guint32) number, &type))
        {
          query->type_match[type] = 1;
          g_array_append_val (codes, file->types[type].code);
        }
    }

  /* Otherwise an event type name, case-insensitive. */
  if (codes->len == 0 && stripped[0] != '\0')
    {
      key = fold (stripped, -1);
      for (guint t = 0; t < file->n_types; t++)
        {
          g_autofree char *name = g_strstrip (g_strdup (file->types[t].name));
          g_autofree char *name_key = fold (name, -1);

          if (strcmp (name_key, key) == 0)
            {
              query->type_match[t] = 1;
              g_array_append_val (codes, file->types[t].code);
            }
        }
    }

  query->n_codes = codes->len;
  query->codes = (guint32 *) g_array_free (codes, FALSE);
  /* A code the file does not use matches nothing; a name must exist. */
  if (query->n_codes == 0 && !numeric)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("No event code or event type named “%s” in this file"), stripped);
      return FALSE;
    }
  return TRUE;
}

CpelQuery *
cpel_query_new (CpelFile        *file,
                CpelSearchMode   mode,
                const char      *text,
                gboolean         case_sensitive,
                GError         **error)
{
  g_autoptr(CpelQuery) query = NULL;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  query = g_new0 (CpelQuery, 1);
  query->file = g_object_ref (file);
  query->mode = mode;
  query->case_sensitive = case_sensitive;

  switch (mode)
    {
    case CPEL_SEARCH_TEXT:
      query->needle = case_sensitive ? g_strdup (text) : fold (text, -1);
      query->needle_len = strlen (query->needle);
      break;

    case CPEL_SEARCH_REGEX:
      {
        g_autoptr(GError) local = NULL;
        GRegexCompileFlags flags = G_REGEX_OPTIMIZE;

        if (!case_sensitive)
          flags |= G_REGEX_CASELESS;
        query->regex = g_regex_new (text, flags, 0, &local);
        if (query->regex == NULL)
          {
            g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                         _("Invalid regular expression: %s"), local->message);
            return NULL;
          }
      }
      break;

    case CPEL_SEARCH_CODE:
      if (!setup_code (query, text, error))
        return NULL;
      break;

    default:
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("Unknown search mode %d"), (int) mode);
      return NULL;
    }

  return g_steal_pointer (&query);
}

gboolean
cpel_query_check (CpelQuery  *query,
                  GError    **error)
{
  g_return_val_if_fail (query != NULL, FALSE);

  if (!g_atomic_int_get (&query->gave_up))
    return TRUE;
  g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                       _("The regular expression is too complex: matching it gave up "
                         "(simplify it, e.g. no nested repeats like (a+)+)"));
  return FALSE;
}

void
cpel_query_free (CpelQuery *query)
{
  if (query == NULL)
    return;
  g_clear_object (&query->file);
  g_free (query->needle);
  g_clear_pointer (&query->regex, g_regex_unref);
  g_free (query->type_match);
  g_free (query->codes);
  g_free (query);
}

/* Does the label (text or regex mode) match?  `scratch` is working space. */
gboolean
_cpel_query_label_matches (const CpelQuery *query,
               const char      *label,
               gsize            len,
               GString         *scratch)
{
  if (query->mode == CPEL_SEARCH_REGEX)
    {
      GError *local = NULL;
      gboolean matched;

      if (G_UNLIKELY (g_atomic_int_get (&query->gave_up)))
        return FALSE;
      if (G_LIKELY (g_utf8_validate_len (label, len, NULL)))
        matched = g_regex_match_full (query->regex, label, len, 0, 0, NULL, &local);
      else
        {
          g_autofree char *valid = g_utf8_make_valid (label, len);
          matched = g_regex_match_full (query->regex, valid, -1, 0, 0, NULL, &local);
        }
      if (G_UNLIKELY (local != NULL))
        {
          /* PCRE2's backtracking limit (10^7 steps, some 0.1 s): one label
           * like that and the next ones would each take as long — the
           * search stops (cpel_query_check ()) */
          g_atomic_int_set (&((CpelQuery *) query)->gave_up, 1);
          g_error_free (local);
          return FALSE;
        }
      return matched;
    }

  if (query->needle_len == 0)
    return TRUE;
  if (query->case_sensitive)
    return contains (label, len, query->needle, query->needle_len);

  /* ASCII labels (the usual): lower in one pass, noticing other bytes. */
  {
    char *dst;
    guchar high = 0;

    g_string_set_size (scratch, len);
    dst = scratch->str;
    for (gsize i = 0; i < len; i++)
      {
        guchar ch = label[i];

        high |= ch;
        dst[i] = (ch >= 'A' && ch <= 'Z') ? ch + ('a' - 'A') : ch;
      }
    if (G_LIKELY (high < 0x80))
      return contains (dst, len, query->needle, query->needle_len);
  }
  {
    g_autofree char *key = fold (label, len);
    return strstr (key, query->needle) != NULL;
  }
}

/* "name: datum", or "name" when the datum is empty (as cpel_file_append_label). */
void
_cpel_query_build_label (CpelFile         *file,
             guint             type,
             guint32           datum,
             const CpelStrtab *strtab,
             GString          *out)
{
  gsize before;

  g_string_truncate (out, 0);
  g_string_append (out, file->types[type].name);
  g_string_append_len (out, ": ", 2);
  before = out->len;
  cpel_format_append (file->types[type].datum_format, datum, strtab, &file->symtab, out);
  if (out->len == before)
    g_string_truncate (out, before - 2);
}

/* As _cpel_query_build_label, with the event's full text (the texts
 * extension of imported files) in place of the formatted datum; a text that
 * starts with the name is the label alone (as cpel_file_append_label). */
void
_cpel_query_build_event_label (CpelFile         *file,
                               guint             type,
                               guint32           datum,
                               const CpelStrtab *strtab,
                               guint64           file_index,
                               GString          *out)
{
  gsize before;

  g_string_truncate (out, 0);
  g_string_append (out, file->types[type].name);
  g_string_append_len (out, ": ", 2);
  before = out->len;
  if (!cpel_file_append_event_text (file, file_index, out))
    {
      _cpel_query_build_label (file, type, datum, strtab, out);
      return;
    }
  _cpel_label_drop_repeated_name (out, before, file->types[type].name);
}

gboolean
cpel_query_match (CpelQuery       *query,
                  const CpelEvent *event)
{
  g_autoptr(GString) label = NULL;
  g_autoptr(GString) scratch = NULL;

  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (event->type >= query->file->n_types)
    return FALSE;
  if (query->mode == CPEL_SEARCH_CODE)
    return query->type_match[event->type] != 0;

  label = g_string_sized_new (64);
  scratch = g_string_sized_new (64);
  _cpel_query_build_event_label (query->file, event->type, event->datum,
                                 cpel_file_get_event_strtab (query->file, event->section),
                                 event->file_index, label);
  return _cpel_query_label_matches (query, label->str, label->len, scratch);
}

/* ---- what a type's label can hold (text mode) ---------------------------- */

/* Text mode: can the label "name: datum" of `type` contain the needle at
 * all?  FALSE only when the needle has a byte that neither the name nor
 * anything the datum format can produce holds: then no event of the type
 * needs formatting.  (The search for "ip4-lookup" need not format a single
 * "buffer 0x%08x" or "%u cycles" datum.) */
gboolean
_cpel_query_type_may_match (CpelQuery *query,
                guint      type)
{
  CpelFile *file = query->file;
  const CpelType *t = &file->types[type];
  static const guint32 samples[] = { 0, 1, 7, 12345, 0x7fffffff, 0x80000000, 0xdeadbeef, 0xffffffff };
  g_autoptr(GString) out = NULL;
  CpelByteSet set = { { 0 } };

  for (gsize i = 0; i < query->needle_len; i++)
    if ((guchar) query->needle[i] >= 0x80)
      return TRUE;   /* casefolding of non-ASCII text: not worth second-guessing */

  cpel_byte_set_add_len (&set, t->name, strlen (t->name));
  cpel_byte_set_add_len (&set, ": ", 2);
  cpel_format_alphabet (t->datum_format, &file->symtab, &set);

  /* What the compiled format really prints must be in the set; if not, the
   * reading above is wrong somewhere: no shortcut. */
  out = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_string_truncate (out, 0);
      cpel_format_append (t->datum_format, samples[i], cpel_file_get_event_strtab (file, 0),
                          &file->symtab, out);
      for (gsize k = 0; k < out->len; k++)
        if (!cpel_byte_set_has (&set, (guchar) out->str[k]))
          return TRUE;
    }

  if (!query->case_sensitive)
    {
      /* Labels are compared lowered (ASCII) or casefolded (other text,
       * which can fold to ASCII letters: the Kelvin sign to "k"). */
      gboolean other = FALSE;

      for (guint c = 0x80; c < 0x100; c++)
        other |= cpel_byte_set_has (&set, (guchar) c);
      for (guint c = 'A'; c <= 'Z'; c++)
        if (other || cpel_byte_set_has (&set, (guchar) c) || cpel_byte_set_has (&set, (guchar) (c + 32)))
          {
            cpel_byte_set_add (&set, (guchar) c);
            cpel_byte_set_add (&set, (guchar) (c + 32));
          }
    }
  for (gsize i = 0; i < query->needle_len; i++)
    if (!cpel_byte_set_has (&set, (guchar) query->needle[i]))
      return FALSE;
  return TRUE;
}
