/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-labels.c — which fields of an event make its label (cpel-labels.h) */
#include "cpel-labels.h"

#include <stdlib.h>
#include <string.h>

/* Events looked at, over all tracks, to find each type's first event (a
 * share of it per track, at least SAMPLE_PER_TRACK). */
#define SAMPLE_BUDGET    (1u << 16)
#define SAMPLE_PER_TRACK 64u
/* Texts longer than this are labelled whole (a format reads the start). */
#define MAX_TEXT 8192

#define SCHED_SWITCH_FORMAT "{prev_comm} [{prev_pid}] → {next_comm} [{next_pid}]"
/* LTTng's kernel tracer names them tids */
#define SCHED_SWITCH_TID_FORMAT "{prev_comm} [{prev_tid}] → {next_comm} [{next_tid}]"

typedef struct
{
  gatomicrefcount   ref;
  CpelFile         *file;
  guint             n_types;
  gboolean          perf;
  char            **defaults;   /* per type; "" = the whole label */
  GStrv            *fields;     /* per type, NULL-terminated */
} LabelsBase;

struct _CpelLabels
{
  gatomicrefcount   ref;
  LabelsBase       *base;
  GHashTable       *user;       /* type name → format (both owned) */
  const char      **formats;    /* per type: the user's or the default */
};

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* A field's name at `i`: letters, digits and '_' followed by '=' (not
 * "==") or " = ".  Sets the value's start. */
static gboolean
match_name (const char *t,
            gsize       len,
            gsize       i,
            gsize      *name_end,
            gsize      *value_start)
{
  gsize j = i;

  if (i >= len || !(g_ascii_isalpha (t[i]) || t[i] == '_'))
    return FALSE;
  while (j < len && is_name_char (t[j]))
    j++;
  *name_end = j;
  if (j < len && t[j] == '=' && (j + 1 >= len || t[j + 1] != '='))
    {
      *value_start = j + 1;
      return TRUE;
    }
  if (j + 2 < len && t[j] == ' ' && t[j + 1] == '=' && t[j + 2] == ' ')
    {
      *value_start = j + 3;
      return TRUE;
    }
  return FALSE;
}

/* The end of the quoted or bracketed value at `i` (just after it), or i
 * when it is not closed. */
static gsize
skip_group (const char *t,
            gsize       len,
            gsize       i)
{
  char stack[32];
  guint depth = 0;
  gsize j = i;

  while (j < len)
    {
      char c = t[j];

      if (c == '"')
        {
          j++;
          while (j < len && t[j] != '"')
            j += t[j] == '\\' ? 2 : 1;
          if (j >= len)
            return i;
          if (depth == 0)
            return j + 1;
        }
      else if (c == '(' || c == '[' || c == '{')
        {
          if (depth == G_N_ELEMENTS (stack))
            return i;
          stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
        }
      else if (c == ')' || c == ']' || c == '}')
        {
          if (depth == 0 || stack[depth - 1] != c)
            return i;
          if (--depth == 0)
            return j + 1;
        }
      j++;
    }
  return i;
}

static void
trim_value (CpelLabelField *f)
{
  const char *v = f->value;
  gsize n = f->value_len;

  for (;;)
    {
      if (n > 0 && (v[n - 1] == ' ' || v[n - 1] == ',' || v[n - 1] == '\t'))
        n--;
      else if (n >= 3 && memcmp (v + n - 3, "==>", 3) == 0)
        n -= 3;
      else
        break;
    }
  while (n > 0 && (*v == ' ' || *v == '\t'))
    v++, n--;
  if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
    v++, n -= 2;
  f->value = v;
  f->value_len = n;
}

static gboolean
is_hex (const char *t,
        gsize       len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isxdigit (t[i]))
      return FALSE;
  return TRUE;
}

static void
set_field (CpelLabelField *f,
           const char     *name,
           const char     *value,
           gsize           value_len)
{
  f->name = name;
  f->name_len = strlen (name);
  f->value = value;
  f->value_len = value_len;
}

/* perf script's sample line: "PID/TID IP [SYMBOL [(DSO)]]". */
static guint
parse_perf_sample (const char     *t,
                   gsize           len,
                   CpelLabelField *fields,
                   guint           max)
{
  gsize i = 0, slash, ip, ip_end, rest, dso = 0;
  guint n = 0;

  while (i < len && g_ascii_isdigit (t[i]))
    i++;
  if (i == 0 || i >= len || t[i] != '/')
    return 0;
  slash = i++;
  while (i < len && g_ascii_isdigit (t[i]))
    i++;
  if (i == slash + 1 || i >= len || t[i] != ' ')
    return 0;
  ip = ++i;
  while (i < len && t[i] != ' ')
    i++;
  ip_end = i;
  if (!is_hex (t + ip, ip_end - ip) || max < 5)
    return 0;
  set_field (&fields[n++], "pid", t, slash);
  set_field (&fields[n++], "tid", t + slash + 1, ip - 1 - slash - 1);
  set_field (&fields[n++], "ip", t + ip, ip_end - ip);
  if (ip_end + 1 >= len)
    return n;
  rest = ip_end + 1;
  if (t[len - 1] == ')')
    {
      guint depth = 0;

      for (gsize k = len; k > rest; k--)
        {
          char c = t[k - 1];

          if (c == ')')
            depth++;
          else if (c == '(' && --depth == 0)
            {
              if (k - 1 > rest && t[k - 2] == ' ')
                dso = k - 1;
              break;
            }
        }
    }
  if (dso > 0)
    {
      set_field (&fields[n++], "symbol", t + rest, dso - 1 - rest);
      set_field (&fields[n++], "dso", t + dso + 1, len - dso - 2);
    }
  else
    set_field (&fields[n++], "symbol", t + rest, len - rest);
  return n;
}

guint
cpel_label_fields_parse (const char     *text,
                         gsize           len,
                         gboolean        perf_sample,
                         CpelLabelField *fields,
                         guint           max)
{
  guint n = 0;
  gsize i = 0;

  g_return_val_if_fail (text != NULL || len == 0, 0);
  g_return_val_if_fail (fields != NULL || max == 0, 0);

  if (perf_sample && (n = parse_perf_sample (text, len, fields, max)) > 0)
    return n;
  while (i < len)
    {
      gsize name_end, value_start;

      if ((i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t')
          && match_name (text, len, i, &name_end, &value_start))
        {
          if (n > 0)
            fields[n - 1].value_len = (gsize) (text + i - fields[n - 1].value);
          if (n == max)
            break;
          fields[n].name = text + i;
          fields[n].name_len = name_end - i;
          fields[n].value = text + value_start;
          fields[n].value_len = len - value_start;
          n++;
          i = value_start;
          if (i < len && strchr ("\"([{", text[i]) != NULL)
            i = MAX (skip_group (text, len, i), i + 1);
          continue;
        }
      i++;
    }
  for (guint k = 0; k < n; k++)
    trim_value (&fields[k]);
  return n;
}

/* ------------------------------------------------------------------------ */

static const CpelLabelField *
find_field (const CpelLabelField *fields,
            guint                 n,
            const char           *name,
            gsize                 name_len)
{
  for (guint i = 0; i < n; i++)
    if (fields[i].name_len == name_len && memcmp (fields[i].name, name, name_len) == 0)
      return &fields[i];
  return NULL;
}

/* `format` applied: FALSE when a field it names is missing. */
static gboolean
apply_format (const char           *format,
              const CpelLabelField *fields,
              guint                 n,
              const char           *type_name,
              const char           *text,
              gsize                 text_len,
              GString              *out)
{
  const char *p = format;

  while (*p != '\0')
    {
      const char *close;
      const CpelLabelField *f;
      gsize name_len;

      if (*p != '{' || (close = strchr (p + 1, '}')) == NULL || close == p + 1)
        {
          g_string_append_c (out, *p++);
          continue;
        }
      name_len = (gsize) (close - p - 1);
      f = find_field (fields, n, p + 1, name_len);
      if (f != NULL)
        g_string_append_len (out, f->value, (gssize) f->value_len);
      else if (name_len == 5 && memcmp (p + 1, "event", 5) == 0)
        g_string_append (out, type_name);
      else if (name_len == 4 && memcmp (p + 1, "text", 4) == 0)
        g_string_append_len (out, text, (gssize) text_len);
      else
        return FALSE;
      p = close + 1;
    }
  return TRUE;
}

static const char *
default_format (LabelsBase *base,
                guint       type)
{
  const char *name = cpel_file_get_type_name (base->file, type);
  const char *const *fields = (const char *const *) base->fields[type];

  if (name == NULL)
    return "";
  if (g_str_equal (name, "sched_switch") || g_str_has_suffix (name, ":sched_switch"))
    return g_strv_contains (fields, "prev_tid") ? SCHED_SWITCH_TID_FORMAT : SCHED_SWITCH_FORMAT;
  if (g_str_has_prefix (name, "lttng_ust_tracef:")
      || g_str_has_prefix (name, "lttng_ust_tracelog:"))
    return "{msg}";
  if (base->perf && fields[0] != NULL && g_str_equal (fields[0], "pid")
      && g_strv_contains (fields, "symbol"))
    return g_strv_contains (fields, "dso") ? "{symbol} ({dso})" : "{symbol}";
  return "";
}

/* The fields of each type's first event, found within SAMPLE_BUDGET events. */
static void
sample_fields (LabelsBase *base)
{
  CpelFile *file = base->file;
  guint n_tracks = cpel_file_get_n_tracks (file);
  g_autofree gboolean *found = g_new0 (gboolean, MAX (base->n_types, 1));
  guint n_found = 0;
  guint64 budget = SAMPLE_BUDGET;
  guint64 share = MAX (SAMPLE_BUDGET / MAX (n_tracks, 1), SAMPLE_PER_TRACK);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint slot = 0; slot < n_tracks && n_found < base->n_types && budget > 0; slot++)
    {
      guint64 n = MIN (MIN (cpel_file_get_track_n_events (file, slot), share), budget);

      budget -= n;
      for (guint64 i = 0; i < n && n_found < base->n_types; i++)
        {
          guint type;
          CpelEvent ev;
          CpelLabelField fields[CPEL_LABELS_MAX_FIELDS];
          GStrvBuilder *b;
          guint nf;

          if (!cpel_file_lookup_type (file, cpel_file_get_track_event_code (file, slot, i), &type)
              || type >= base->n_types || found[type])
            continue;
          found[type] = TRUE;
          n_found++;
          cpel_file_get_track_event (file, slot, i, &ev);
          g_string_truncate (text, 0);
          cpel_file_append_datum (file, &ev, text);
          nf = cpel_label_fields_parse (text->str, MIN (text->len, MAX_TEXT), base->perf,
                                        fields, G_N_ELEMENTS (fields));
          b = g_strv_builder_new ();
          for (guint k = 0; k < nf; k++)
            {
              g_autofree char *name = g_strndup (fields[k].name, fields[k].name_len);

              if (find_field (fields, k, fields[k].name, fields[k].name_len) == NULL)
                g_strv_builder_add (b, name);
            }
          g_strfreev (base->fields[type]);
          base->fields[type] = g_strv_builder_end (b);
          g_strv_builder_unref (b);
        }
    }
}

static void
base_unref (LabelsBase *base)
{
  if (!g_atomic_ref_count_dec (&base->ref))
    return;
  for (guint i = 0; i < base->n_types; i++)
    g_strfreev (base->fields[i]);
  g_free (base->fields);
  g_free (base->defaults);
  g_object_unref (base->file);
  g_free (base);
}

static CpelLabels *
labels_new (LabelsBase *base,
            GHashTable *user)
{
  CpelLabels *self = g_new0 (CpelLabels, 1);

  g_atomic_ref_count_init (&self->ref);
  g_atomic_ref_count_inc (&base->ref);
  self->base = base;
  self->user = user;
  self->formats = g_new0 (const char *, MAX (base->n_types, 1));
  for (guint i = 0; i < base->n_types; i++)
    {
      const char *name = cpel_file_get_type_name (base->file, i);
      const char *mine = name != NULL ? g_hash_table_lookup (user, name) : NULL;

      self->formats[i] = mine != NULL ? mine : base->defaults[i];
    }
  return self;
}

static GHashTable *
new_user_table (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

CpelLabels *
cpel_labels_new (CpelFile *file)
{
  LabelsBase *base;
  CpelLabels *self;
  const char *format_id;

  g_return_val_if_fail (CPEL_IS_FILE (file), NULL);

  base = g_new0 (LabelsBase, 1);
  g_atomic_ref_count_init (&base->ref);
  base->file = g_object_ref (file);
  base->n_types = cpel_file_get_n_types (file);
  format_id = cpel_file_get_imported_from (file);
  base->perf = g_strcmp0 (format_id, "perf") == 0;
  base->fields = g_new0 (GStrv, MAX (base->n_types, 1));
  base->defaults = g_new0 (char *, MAX (base->n_types, 1));
  for (guint i = 0; i < base->n_types; i++)
    base->fields[i] = g_new0 (char *, 1);
  sample_fields (base);
  for (guint i = 0; i < base->n_types; i++)
    base->defaults[i] = (char *) default_format (base, i);
  self = labels_new (base, new_user_table ());
  base_unref (base);
  return self;
}

CpelLabels *
cpel_labels_new_with_formats (CpelLabels        *base,
                              const char *const *formats)
{
  GHashTable *user = new_user_table ();

  g_return_val_if_fail (base != NULL, NULL);

  for (guint i = 0; formats != NULL && formats[i] != NULL && formats[i + 1] != NULL; i += 2)
    {
      if (g_hash_table_size (user) >= CPEL_LABELS_MAX_FORMATS)
        break;
      g_hash_table_replace (user, g_strdup (formats[i]), g_strdup (formats[i + 1]));
    }
  return labels_new (base->base, user);
}

CpelLabels *
cpel_labels_new_with_format (CpelLabels *base,
                             guint       type,
                             const char *format)
{
  GHashTable *user = new_user_table ();
  GHashTableIter iter;
  gpointer key, value;
  const char *name;

  g_return_val_if_fail (base != NULL, NULL);

  g_hash_table_iter_init (&iter, base->user);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (user, g_strdup (key), g_strdup (value));
  name = type < base->base->n_types ? cpel_file_get_type_name (base->base->file, type) : NULL;
  if (name != NULL && format != NULL)
    g_hash_table_replace (user, g_strdup (name), g_strdup (format));
  else if (name != NULL)
    g_hash_table_remove (user, name);
  return labels_new (base->base, user);
}

CpelLabels *
cpel_labels_ref (CpelLabels *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
cpel_labels_unref (CpelLabels *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  g_free (self->formats);
  g_hash_table_unref (self->user);
  base_unref (self->base);
  g_free (self);
}

CpelFile *
cpel_labels_get_file (CpelLabels *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->base->file;
}

const char *
cpel_labels_get_format (CpelLabels *self,
                        guint       type)
{
  g_return_val_if_fail (self != NULL, "");
  return type < self->base->n_types ? self->formats[type] : "";
}

const char *
cpel_labels_get_default_format (CpelLabels *self,
                                guint       type)
{
  g_return_val_if_fail (self != NULL, "");
  return type < self->base->n_types ? self->base->defaults[type] : "";
}

gboolean
cpel_labels_is_user_format (CpelLabels *self,
                            guint       type)
{
  const char *name;

  g_return_val_if_fail (self != NULL, FALSE);
  if (type >= self->base->n_types)
    return FALSE;
  name = cpel_file_get_type_name (self->base->file, type);
  return name != NULL && g_hash_table_contains (self->user, name);
}

const char * const *
cpel_labels_get_fields (CpelLabels *self,
                        guint       type)
{
  static const char *const none[] = { NULL };

  g_return_val_if_fail (self != NULL, none);
  return type < self->base->n_types ? (const char *const *) self->base->fields[type] : none;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

char **
cpel_labels_dup_user_formats (CpelLabels *self)
{
  g_autofree gpointer *names = NULL;
  GStrvBuilder *b;
  char **out;
  guint n = 0;

  g_return_val_if_fail (self != NULL, NULL);

  /* sorted: the same choices save the same file */
  names = g_hash_table_get_keys_as_array (self->user, &n);
  qsort (names, n, sizeof *names, compare_names);
  b = g_strv_builder_new ();
  for (guint i = 0; i < n; i++)
    {
      g_strv_builder_add (b, names[i]);
      g_strv_builder_add (b, g_hash_table_lookup (self->user, names[i]));
    }
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

gboolean
cpel_labels_append_formatted (CpelLabels      *self,
                              const CpelEvent *event,
                              GString         *out)
{
  CpelLabelField fields[CPEL_LABELS_MAX_FIELDS];
  char stack[512];
  g_autofree char *heap = NULL;
  const char *format, *name;
  char *text;
  gsize before, len;
  guint n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (event != NULL && out != NULL, FALSE);

  if (event->type >= self->base->n_types)
    return FALSE;
  format = self->formats[event->type];
  if (format == NULL || *format == '\0')
    return FALSE;
  name = cpel_file_get_type_name (self->base->file, event->type);

  /* the text copied out of `out`, which the label is appended to */
  before = out->len;
  cpel_file_append_datum (self->base->file, event, out);
  len = MIN (out->len - before, MAX_TEXT);
  text = len < sizeof stack ? stack : (heap = g_malloc (len));
  memcpy (text, out->str + before, len);
  g_string_truncate (out, before);

  n = cpel_label_fields_parse (text, len, self->base->perf, fields, G_N_ELEMENTS (fields));
  if (!apply_format (format, fields, n, name != NULL ? name : "", text, len, out))
    {
      g_string_truncate (out, before);
      return FALSE;
    }
  return TRUE;
}

void
cpel_labels_append (CpelLabels      *self,
                    const CpelEvent *event,
                    GString         *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (event != NULL && out != NULL);

  if (!cpel_labels_append_formatted (self, event, out))
    cpel_file_append_label (self->base->file, event, out);
}
