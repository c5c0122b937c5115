/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import.c — the table of formats, detection, and the builder that
 * turns an importer's tracks, types and events into CPEL bytes */
#include "config.h"

#include "cpel-import.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"
#include "cpel-import-compressed.h"
#include "cpel-mapguard.h"
#include "cpel-output.h"
#include "cpel-writer.h"

/* ---- CPEL itself (loaded by the core, no import step) ---------------------- */

/* The file's first section, from its first 16 bytes: holds sections, the
 * first of a small type (CPEL's are 1–5; a later version might add a few),
 * as cpel_file_parse_sections () tells CPEL from other files.  Only the
 * file's start is known here, not its size. */
static gboolean
first_section_plausible (const guint8 *data)
{
  gboolean le = (data[0] & 0x80) != 0;
  guint n_sections;
  guint32 type;

  n_sections = le ? (guint) (data[2] | data[3] << 8) : (guint) (data[2] << 8 | data[3]);
  type = le ? (guint32) data[8] | (guint32) data[9] << 8 | (guint32) data[10] << 16
                | (guint32) data[11] << 24
            : (guint32) data[8] << 24 | (guint32) data[9] << 16 | (guint32) data[10] << 8
                | (guint32) data[11];
  return n_sections == 0 || (type >= 1 && type <= 0xff);
}

/* A CPEL header of any version but 0 (Gist): its pad byte 0, and a
 * plausible first section when the file is long enough to tell. */
static gboolean
looks_like_cpel_header (const guint8 *data,
                        gsize         size)
{
  if (size < 8 || (data[0] & 0x7f) == 0 || data[1] != 0)
    return FALSE;
  return size < 16 || first_section_plausible (data);
}

static gboolean
probe_cpel (const guint8 *data,
            gsize         size,
            const char   *path)
{
  /* Version 1 in either byte order; an empty or short file is CPEL's to
   * report.  Bytes whose first section is of no CPEL type are some other
   * kind of file: "not a supported event log", not a section error. */
  if (size == 0)
    return TRUE;
  if ((data[0] & 0x7f) != 1)
    return FALSE;
  return size < 16 || first_section_plausible (data);
}

static const CpelImporter cpel_importer_cpel = {
  .id = "cpel",
  .name = N_("CPEL"),
  .mime_type = "application/x-cpel",
  .patterns = (const char * const[]) { "*.cpel", NULL },
  .probe = probe_cpel,
  .import = NULL,
};

/* ---- the table: detection order --------------------------------------------
 * Strong magics first; CPEL last (its signature is one byte: the Snabb
 * timeline's magic starts with the same 0x01). */
static const CpelImporter * const importers[] = {
#if HAVE_PERF
  &cpel_importer_perf,
#endif
#if HAVE_CTF
  &cpel_importer_ctf,
#endif
  &cpel_importer_elog,
  &cpel_importer_snabb,
  &cpel_importer_cpel,
  NULL
};

const CpelImporter * const *
cpel_importers (void)
{
  return importers;
}

const CpelImporter *
cpel_importer_lookup (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; importers[i] != NULL; i++)
    if (strcmp (importers[i]->id, id) == 0)
      return importers[i];
  return NULL;
}

/* "CPEL, VPP elog, Snabb timeline", in table order with CPEL first. */
static char *
format_list (void)
{
  GString *s = g_string_new (_(cpel_importer_cpel.name));

  for (guint i = 0; importers[i] != NULL; i++)
    if (importers[i] != &cpel_importer_cpel)
      g_string_append_printf (s, ", %s", _(importers[i]->name));
  return g_string_free (s, FALSE);
}

/* What the first bytes look like: hex plus printable text. */
static char *
describe_bytes (const guint8 *data,
                gsize         size)
{
  GString *s = g_string_new (NULL);
  gsize n = MIN (size, 8);

  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, i ? " %02x" : "%02x", data[i]);
  g_string_append (s, " “");
  for (gsize i = 0; i < n; i++)
    g_string_append_c (s, data[i] >= 0x20 && data[i] < 0x7f ? (char) data[i] : '.');
  g_string_append (s, "”");
  return g_string_free (s, FALSE);
}

static void
set_unsupported (GError      **error,
                 const guint8 *data,
                 gsize         size)
{
  g_autofree char *list = format_list ();
  g_autofree char *found = describe_bytes (data, size);

  if (data[0] == 0)
    g_set_error (error, CPEL_ERROR, CPEL_ERROR_GIST,
                 _("Not a supported event log (%s): it starts with %s at offset 0, like an old Gist "
                   "log"), list, found);
  else if (looks_like_cpel_header (data, size))
    g_set_error (error, CPEL_ERROR, CPEL_ERROR_VERSION,
                 _("This is a CPEL file of version %u (its header at offset 0 says so), which "
                   "this program does not read: it reads version 1"), data[0] & 0x7f);
  else
    g_set_error (error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL,
                 _("It is none of the formats this program reads (%s): the file starts with %s "
                   "at offset 0"), list, found);
}

const CpelImporter *
cpel_import_detect_bytes (const guint8  *data,
                          gsize          size,
                          GError       **error)
{
  g_return_val_if_fail (data != NULL || size == 0, NULL);

  /* decompressed and detected again by the loader */
  if (cpel_importer_compressed.probe (data, size, NULL))
    return &cpel_importer_compressed;
  for (guint i = 0; importers[i] != NULL; i++)
    if (!importers[i]->directory && importers[i]->probe (data, size, NULL))
      return importers[i];
  set_unsupported (error, data, size);
  return NULL;
}

const CpelImporter *
cpel_import_detect (const char  *path,
                    GError     **error)
{
  guint8 head[CPEL_IMPORT_PROBE_SIZE];
  GStatBuf st;
  gssize n;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s",
                   saved == ENOENT ? _("No such file")
                   : saved == EACCES ? _("Permission denied") : g_strerror (saved));
      return NULL;
    }
  if (S_ISDIR (st.st_mode))
    {
      /* a folder we may not read: say so, not what it is not */
      if (g_access (path, R_OK | X_OK) != 0 && errno == EACCES)
        {
          g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_IO, _("Permission denied"));
          return NULL;
        }
      for (guint i = 0; importers[i] != NULL; i++)
        if (importers[i]->directory && importers[i]->probe (NULL, 0, path))
          return importers[i];
#if HAVE_CTF
      /* the one format that is a folder: the walk for it is bounded */
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO,
                   _("This is a folder, not a file: no CTF trace found in this folder"));
#else
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("This is a folder, not a file"));
#endif
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, _("This is not a regular file"));
      return NULL;
    }

  fd = g_open (path, O_RDONLY, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s",
                   saved == EACCES ? _("Permission denied") : g_strerror (saved));
      return NULL;
    }
  do
    n = read (fd, head, sizeof head);
  while (n < 0 && errno == EINTR);
  close (fd);
  if (n < 0)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", g_strerror (errno));
      return NULL;
    }
  /* A folder importer may also claim a file inside its folder (CTF: a
   * trace's metadata or stream file) by its content and its path. */
  for (guint i = 0; importers[i] != NULL; i++)
    if (importers[i]->directory && importers[i]->probe (head, (gsize) n, path))
      return importers[i];
  return cpel_import_detect_bytes (head, (gsize) n, error);
}

/* ---- the builder ------------------------------------------------------------- */

typedef struct
{
  guint32  key;
  char    *name;
  char    *format;
} Def;

struct _CpelImportBuilder
{
  const CpelImporter *importer;
  CpelImportOptions   options;
  CpelWriter         *writer;
  guint               strtab;

  GArray             *tracks;       /* Def */
  GArray             *types;        /* Def */

  gboolean            in_events;
  guint64             n_declared;
  guint64             n_added;

  GArray             *text_offsets; /* guint32, in the CPEL's byte order */
  GString            *texts;
  gboolean            any_text;

  GPtrArray          *info;         /* key, value, … */
  CpelImportClock     clock;
  char               *clock_description;
  CpelClockKind       origin_kind;
  gint64              origin_offset;
  guint64             n_lost;

  GBytes             *raw_output;

  /* call chains (cpel_import_builder_add_frame / _set_chain) */
  GHashTable         *chain_string_ids;  /* string -> offset + 1 */
  GString            *chain_strings;
  GHashTable         *frame_ids;         /* ChainFrameKey -> number + 1 */
  GArray             *chain_frames;      /* ChainFrameKey */
  GArray             *chain_words;       /* guint32: length, frame numbers, … */
  GHashTable         *chain_ids;         /* a chain's hash -> its word offset + 1 */
  GArray             *chain_offsets;     /* guint32 per event, ~0 = none */
  gboolean            chains_full;

  /* texts made from references (set_text_source) */
  const CpelImportSource    *src;
  const CpelImportTextFuncs *text_funcs;
  gpointer                   text_state;
  gboolean                   want_lazy;   /* run_lazy: keep refs if possible */
  gboolean                   lazy;        /* refs kept, no texts section */
  guint32                   *refs;        /* n_declared */
  GString                   *scratch;

  GCancellable       *cancellable;
  CpelProgressFunc    progress;
  gpointer            progress_data;
  double              last_progress;
};

static void
def_clear (gpointer p)
{
  Def *d = p;

  g_free (d->name);
  g_free (d->format);
}

typedef struct
{
  guint64 ip;
  guint32 symbol;   /* string offset, or ~0 */
  guint32 dso;
} ChainFrameKey;

static guint
frame_key_hash (gconstpointer p)
{
  const ChainFrameKey *k = p;

  return (guint) (k->ip ^ (k->ip >> 32)) * 31u + k->symbol * 17u + k->dso;
}

static gboolean
frame_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const ChainFrameKey *x = a, *y = b;

  return x->ip == y->ip && x->symbol == y->symbol && x->dso == y->dso;
}

static void
builder_free (CpelImportBuilder *b)
{
  g_clear_pointer (&b->writer, cpel_writer_free);
  g_clear_pointer (&b->tracks, g_array_unref);
  g_clear_pointer (&b->types, g_array_unref);
  g_clear_pointer (&b->text_offsets, g_array_unref);
  if (b->texts)
    g_string_free (b->texts, TRUE);
  g_clear_pointer (&b->info, g_ptr_array_unref);
  g_clear_pointer (&b->clock_description, g_free);
  g_clear_pointer (&b->raw_output, g_bytes_unref);
  g_clear_pointer (&b->chain_string_ids, g_hash_table_unref);
  if (b->chain_strings)
    g_string_free (b->chain_strings, TRUE);
  g_clear_pointer (&b->frame_ids, g_hash_table_unref);
  g_clear_pointer (&b->chain_frames, g_array_unref);
  g_clear_pointer (&b->chain_words, g_array_unref);
  g_clear_pointer (&b->chain_ids, g_hash_table_unref);
  g_clear_pointer (&b->chain_offsets, g_array_unref);
  if (b->text_funcs && b->text_state && b->text_funcs->free)
    b->text_funcs->free (b->text_state);
  g_free (b->refs);
  if (b->scratch)
    g_string_free (b->scratch, TRUE);
  g_free (b);
}

struct _CpelImportTexts
{
  const CpelImportTextFuncs *funcs;
  gpointer                   state;
  GBytes                    *owner;
  const guint8              *data;
  gsize                      size;
  guint32                   *refs;
  guint64                    n;
};

void
cpel_import_texts_free (CpelImportTexts *texts)
{
  if (texts == NULL)
    return;
  if (texts->funcs->free)
    texts->funcs->free (texts->state);
  g_bytes_unref (texts->owner);
  g_free (texts->refs);
  g_free (texts);
}

gboolean
cpel_import_texts_append (const CpelImportTexts *texts,
                          guint64                index,
                          GString               *out)
{
  g_return_val_if_fail (texts != NULL && out != NULL, FALSE);

  if (index >= texts->n)
    return FALSE;
  texts->funcs->format (texts->state, texts->data, texts->size, texts->refs[index], out);
  return TRUE;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelImportBuilder, builder_free)

const CpelImportOptions *
cpel_import_builder_get_options (CpelImportBuilder *b)
{
  return &b->options;
}

void
cpel_import_builder_add_info (CpelImportBuilder *b,
                              const char        *key,
                              const char        *value)
{
  g_return_if_fail (b != NULL && key != NULL && key[0] != '\0' && value != NULL);

  g_ptr_array_add (b->info, g_strdup (key));
  g_ptr_array_add (b->info, g_strdup (value));
}

void
cpel_import_builder_set_clock (CpelImportBuilder *b,
                               CpelImportClock    clock,
                               const char        *description)
{
  g_return_if_fail (b != NULL);

  b->clock = clock;
  g_free (b->clock_description);
  b->clock_description = g_strdup (description);
}

void
cpel_import_builder_set_clock_origin (CpelImportBuilder *b,
                                      CpelClockKind      kind,
                                      gint64             offset_ns)
{
  g_return_if_fail (b != NULL);

  b->origin_kind = kind;
  b->origin_offset = offset_ns;
}

void
cpel_import_builder_add_lost (CpelImportBuilder *b,
                              guint64            n_lost)
{
  g_return_if_fail (b != NULL);
  b->n_lost += n_lost;
}

/* A name used verbatim as a CPEL format: '%' doubled. */
static char *
escape_format (const char *s)
{
  GString *out;

  if (strchr (s, '%') == NULL)
    return g_strdup (s);
  out = g_string_new (NULL);
  for (; *s; s++)
    {
      if (*s == '%')
        g_string_append_c (out, '%');
      g_string_append_c (out, *s);
    }
  return g_string_free (out, FALSE);
}

void
cpel_import_builder_add_track (CpelImportBuilder *b,
                               guint32            id,
                               const char        *label)
{
  Def d = { id, escape_format (label ? label : ""), NULL };

  g_return_if_fail (b != NULL && !b->in_events);
  g_array_append_val (b->tracks, d);
}

void
cpel_import_builder_add_type (CpelImportBuilder *b,
                              guint32            code,
                              const char        *name,
                              const char        *datum_format)
{
  Def d = { code, escape_format (name ? name : ""), g_strdup (datum_format) };

  g_return_if_fail (b != NULL && !b->in_events);
  g_array_append_val (b->types, d);
}

gboolean
cpel_import_builder_begin_events (CpelImportBuilder  *b,
                                  guint64             n,
                                  GError            **error)
{
  g_return_val_if_fail (b != NULL && !b->in_events, FALSE);

  if (n > CPEL_MAX_EVENTS || n > (G_MAXUINT32 - 72) / 20)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                   _("%" PRIu64 " events: more than this viewer reads from one file "
                     "(%u)"), n, (G_MAXUINT32 - 72) / 20);
      return FALSE;
    }
  if (b->tracks->len > 0)
    {
      cpel_writer_begin_track_defs (b->writer, b->strtab);
      for (guint i = 0; i < b->tracks->len; i++)
        {
          Def *d = &g_array_index (b->tracks, Def, i);
          cpel_writer_add_track_def (b->writer, d->key, d->name);
        }
    }
  if (b->types->len > 0)
    {
      cpel_writer_begin_event_defs (b->writer, b->strtab);
      for (guint i = 0; i < b->types->len; i++)
        {
          Def *d = &g_array_index (b->types, Def, i);
          cpel_writer_add_event_def (b->writer, d->key, d->name, d->format);
        }
    }
  cpel_writer_begin_events (b->writer, b->strtab, 1000000000, (guint32) n);
  b->in_events = TRUE;
  b->n_declared = n;
  g_array_set_size (b->text_offsets, 0);
  if (b->lazy)
    b->refs = g_new (guint32, MAX (n, 1));
  else if (n > 0)
    {
      /* Sized once: the count was checked against the file by the importer. */
      g_array_set_size (b->text_offsets, n);
      g_array_set_size (b->text_offsets, 0);
    }
  return TRUE;
}

void
cpel_import_builder_add_event (CpelImportBuilder *b,
                               guint64            ns,
                               guint32            track,
                               guint32            code,
                               guint32            datum,
                               const char        *text,
                               gssize             text_len)
{
  guint32 off = G_MAXUINT32;

  if (G_UNLIKELY (b->n_added >= b->n_declared))
    {
      b->n_added++;   /* reported at finish */
      return;
    }
  b->n_added++;
  cpel_writer_add_event (b->writer, ns, track, code, datum);

  if (text != NULL)
    {
      gsize len = text_len < 0 ? strlen (text) : (gsize) text_len;

      if (G_LIKELY (b->texts->len + len + 1 < G_MAXUINT32))
        {
          off = (guint32) b->texts->len;
          g_string_append_len (b->texts, text, len);
          g_string_append_c (b->texts, '\0');
          b->any_text = TRUE;
        }
    }
  off = b->options.little_endian ? GUINT32_TO_LE (off) : GUINT32_TO_BE (off);
  g_array_append_val (b->text_offsets, off);
}

void
cpel_import_builder_set_text_source (CpelImportBuilder         *b,
                                     const CpelImportTextFuncs *funcs,
                                     gpointer                   state,
                                     guint64                    max_ref)
{
  g_return_if_fail (b != NULL && !b->in_events && b->text_funcs == NULL);
  g_return_if_fail (funcs != NULL && funcs->format != NULL);

  b->text_funcs = funcs;
  b->text_state = state;
  b->lazy = b->want_lazy && b->src->owner != NULL && max_ref <= G_MAXUINT32;
  if (!b->lazy)
    b->scratch = g_string_sized_new (256);
}

void
cpel_import_builder_add_event_ref (CpelImportBuilder *b,
                                   guint64            ns,
                                   guint32            track,
                                   guint32            code,
                                   guint32            datum,
                                   guint64            ref)
{
  g_assert (b->text_funcs != NULL);

  if (G_LIKELY (b->lazy))
    {
      if (G_UNLIKELY (b->n_added >= b->n_declared))
        {
          b->n_added++;   /* reported at finish */
          return;
        }
      b->refs[b->n_added++] = (guint32) ref;
      cpel_writer_add_event (b->writer, ns, track, code, datum);
      return;
    }
  g_string_truncate (b->scratch, 0);
  b->text_funcs->format (b->text_state, b->src->data, b->src->size, ref, b->scratch);
  cpel_import_builder_add_event (b, ns, track, code, datum, b->scratch->str, b->scratch->len);
}

/* Bytes the chains section would take with `more` bytes added. */
static guint64
chains_size (CpelImportBuilder *b,
             guint64            more)
{
  return 16 + (guint64) MAX (b->n_declared, b->n_added) * 4 + (guint64) b->chain_frames->len * 16
         + (guint64) b->chain_words->len * 4 + b->chain_strings->len + more;
}

static guint32
chain_string (CpelImportBuilder *b,
              const char        *s)
{
  gpointer v;
  gsize len;
  guint32 off;

  if (s == NULL)
    return G_MAXUINT32;
  if (g_hash_table_lookup_extended (b->chain_string_ids, s, NULL, &v))
    return GPOINTER_TO_UINT (v) - 1;
  len = strlen (s);
  if (chains_size (b, len + 1 + 16) >= G_MAXUINT32)
    {
      b->chains_full = TRUE;
      return G_MAXUINT32;
    }
  off = (guint32) b->chain_strings->len;
  if (g_utf8_validate_len (s, len, NULL))
    g_string_append_len (b->chain_strings, s, (gssize) len);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (s, (gssize) len);
      g_string_append (b->chain_strings, valid);
    }
  g_string_append_c (b->chain_strings, '\0');
  g_hash_table_insert (b->chain_string_ids, g_strdup (s), GUINT_TO_POINTER (off + 1));
  return off;
}

guint32
cpel_import_builder_add_frame (CpelImportBuilder *b,
                               guint64            ip,
                               const char        *symbol,
                               const char        *dso)
{
  ChainFrameKey key;
  gpointer v;

  g_return_val_if_fail (b != NULL, G_MAXUINT32);
  if (b->chain_frames == NULL)
    {
      b->chain_string_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      b->chain_strings = g_string_new (NULL);
      b->frame_ids = g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free, NULL);
      b->chain_frames = g_array_new (FALSE, FALSE, sizeof (ChainFrameKey));
      b->chain_words = g_array_new (FALSE, FALSE, sizeof (guint32));
      b->chain_ids = g_hash_table_new (NULL, NULL);
      b->chain_offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
    }
  if (b->chains_full)
    return G_MAXUINT32;
  key.ip = ip;
  key.symbol = chain_string (b, symbol);
  key.dso = chain_string (b, dso);
  if (g_hash_table_lookup_extended (b->frame_ids, &key, NULL, &v))
    return GPOINTER_TO_UINT (v) - 1;
  if (b->chains_full || chains_size (b, 16) >= G_MAXUINT32)
    {
      b->chains_full = TRUE;
      return G_MAXUINT32;
    }
  g_array_append_val (b->chain_frames, key);
  g_hash_table_insert (b->frame_ids, g_memdup2 (&key, sizeof key),
                       GUINT_TO_POINTER (b->chain_frames->len));
  return b->chain_frames->len - 1;
}

/* FNV-1a over the frame numbers: chains are told apart by it, and checked
 * word by word (a chain whose hash another holds is stored again). */
static gpointer
chain_hash (const guint32 *frames,
            guint          n)
{
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325) ^ n;

  for (guint i = 0; i < n; i++)
    h = (h ^ frames[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  return GSIZE_TO_POINTER ((gsize) (h | 1));   /* never NULL */
}

void
cpel_import_builder_set_chain (CpelImportBuilder *b,
                               const guint32     *frames,
                               guint              n_frames)
{
  guint32 off = G_MAXUINT32, none = G_MAXUINT32;
  gpointer key;
  gpointer v;

  g_return_if_fail (b != NULL && (frames != NULL || n_frames == 0));
  if (b->chain_frames == NULL || b->chains_full || n_frames == 0
      || b->n_added == 0 || b->n_added > b->n_declared)
    return;
  for (guint i = 0; i < n_frames; i++)
    if (frames[i] >= b->chain_frames->len)
      return;   /* a frame dropped as the section was full */
  key = chain_hash (frames, n_frames);
  v = g_hash_table_lookup (b->chain_ids, key);
  if (v != NULL)
    {
      const guint32 *w = &g_array_index (b->chain_words, guint32, GPOINTER_TO_UINT (v) - 1);

      if (w[0] == n_frames && memcmp (w + 1, frames, (gsize) n_frames * 4) == 0)
        off = GPOINTER_TO_UINT (v) - 1;
    }
  if (off == G_MAXUINT32)
    {
      if (chains_size (b, 4 + (guint64) n_frames * 4) >= G_MAXUINT32)
        {
          b->chains_full = TRUE;
          return;
        }
      off = b->chain_words->len;
      g_array_append_val (b->chain_words, n_frames);
      g_array_append_vals (b->chain_words, frames, n_frames);
      if (v == NULL)
        g_hash_table_insert (b->chain_ids, key, GUINT_TO_POINTER (off + 1));
    }
  while (b->chain_offsets->len + 1 < b->n_added)
    g_array_append_val (b->chain_offsets, none);
  if (b->chain_offsets->len + 1 == b->n_added)
    g_array_append_val (b->chain_offsets, off);
}

void
cpel_import_builder_set_raw_output (CpelImportBuilder *b,
                                    GBytes            *cpel)
{
  g_return_if_fail (b != NULL && cpel != NULL);
  g_clear_pointer (&b->raw_output, g_bytes_unref);
  b->raw_output = g_bytes_ref (cpel);
}

gboolean
cpel_import_check_cancel (CpelImportBuilder  *b,
                          GError            **error)
{
  return !g_cancellable_set_error_if_cancelled (b->cancellable, error);
}

void
cpel_import_report_progress (CpelImportBuilder *b,
                             double             fraction)
{
  fraction = CLAMP (fraction, 0.0, 1.0);
  if (b->progress == NULL || fraction < b->last_progress + 0.01)
    return;
  b->last_progress = fraction;
  b->progress (fraction, b->progress_data);
}

static guint32
to_file_order (const CpelImportBuilder *b,
               guint32                  v)
{
  return b->options.little_endian ? GUINT32_TO_LE (v) : GUINT32_TO_BE (v);
}

static const char *
clock_keyword (CpelImportClock clock)
{
  switch (clock)
    {
    case CPEL_IMPORT_CLOCK_EXACT:   return "exact";
    case CPEL_IMPORT_CLOCK_DERIVED: return "derived";
    case CPEL_IMPORT_CLOCK_USER:    return "user";
    case CPEL_IMPORT_CLOCK_UNKNOWN: return "unknown";
    default:                        return "unknown";
    }
}

static void
put_pair (GString    *s,
          const char *key,
          const char *value)
{
  g_string_append_len (s, key, strlen (key) + 1);
  g_string_append_len (s, value, strlen (value) + 1);
}

/* The call chains section (doc/cpel-extensions.md), in the CPEL's byte
 * order; its size was kept below 4 GiB as it grew. */
static void
write_chains (CpelImportBuilder *b)
{
  guint32 none = G_MAXUINT32;
  GArray *w;

  while (b->chain_offsets->len < b->n_added)
    g_array_append_val (b->chain_offsets, none);
  w = g_array_sized_new (FALSE, FALSE, sizeof (guint32),
                         (guint) (chains_size (b, 0) / 4 + 1));
  guint32 head[4] = { 0, b->chain_offsets->len, b->chain_frames->len, b->chain_words->len };
  for (guint i = 0; i < 4; i++)
    head[i] = to_file_order (b, head[i]);
  g_array_append_vals (w, head, 4);
  for (guint i = 0; i < b->chain_offsets->len; i++)
    {
      guint32 v = to_file_order (b, g_array_index (b->chain_offsets, guint32, i));
      g_array_append_val (w, v);
    }
  for (guint i = 0; i < b->chain_frames->len; i++)
    {
      const ChainFrameKey *k = &g_array_index (b->chain_frames, ChainFrameKey, i);
      guint32 f[4] = { to_file_order (b, (guint32) (k->ip >> 32)),
                       to_file_order (b, (guint32) k->ip),
                       to_file_order (b, k->symbol), to_file_order (b, k->dso) };
      g_array_append_vals (w, f, 4);
    }
  for (guint i = 0; i < b->chain_words->len; i++)
    {
      guint32 v = to_file_order (b, g_array_index (b->chain_words, guint32, i));
      g_array_append_val (w, v);
    }
  gsize n_words = 0;
  guint32 *words = g_array_steal (w, &n_words);
  g_autoptr(GBytes) head_part = g_bytes_new_take (words, n_words * 4);
  /* the strings end with a NUL; the section is padded to whole words */
  while (b->chain_strings->len % 4)
    g_string_append_c (b->chain_strings, '\0');
  g_autoptr(GBytes) strings = g_bytes_new (b->chain_strings->str, b->chain_strings->len);
  GBytes *parts[2] = { head_part, strings };
  g_array_unref (w);
  cpel_writer_add_raw_section_parts (b->writer, CPEL_SECTION_EXT_CALL_CHAINS, parts, 2);
}

static GBytes *
builder_finish (CpelImportBuilder  *b,
                GError            **error)
{
  g_autoptr(GString) info = g_string_new (NULL);
  g_autofree char *lost = NULL;

  if (b->raw_output != NULL)
    return g_bytes_ref (b->raw_output);

  if (!b->in_events && !cpel_import_builder_begin_events (b, 0, error))
    return NULL;
  if (b->n_added != b->n_declared)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SECTION,
                   _("The importer declared %" PRIu64 " events but gave %"
                     PRIu64), b->n_declared, b->n_added);
      return NULL;
    }

  if (b->any_text)
    {
      guint32 head[2] = { to_file_order (b, 0), to_file_order (b, (guint32) b->n_added) };
      guint64 len = sizeof head + (guint64) b->text_offsets->len * 4 + b->texts->len;
      g_autoptr(GBytes) h = NULL, o = NULL, t = NULL;
      GBytes *parts[3];

      if (len > G_MAXUINT32)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                       _("The events' texts take more than 4 GiB"));
          return NULL;
        }
      h = g_bytes_new (head, sizeof head);
      o = g_bytes_new_take (g_array_steal (b->text_offsets, NULL), b->n_added * 4);
      t = g_bytes_new_take (g_string_free (g_steal_pointer (&b->texts), FALSE), len - 8 - b->n_added * 4);
      parts[0] = h; parts[1] = o; parts[2] = t;
      cpel_writer_add_raw_section_parts (b->writer, CPEL_SECTION_EXT_EVENT_TEXTS, parts, 3);
    }

  if (b->chain_offsets != NULL && b->chain_offsets->len > 0)
    write_chains (b);

  put_pair (info, "format-id", b->importer->id);
  put_pair (info, "format", b->importer->name);
  put_pair (info, "clock", clock_keyword (b->clock));
  if (b->clock_description)
    put_pair (info, "clock-description", b->clock_description);
  lost = g_strdup_printf ("%" PRIu64, b->n_lost);
  put_pair (info, "lost-events", lost);
  if (b->origin_kind != CPEL_CLOCK_NONE)
    {
      g_autofree char *offset = g_strdup_printf ("%" G_GINT64_FORMAT, b->origin_offset);

      put_pair (info, "clock-origin", b->origin_kind == CPEL_CLOCK_WALL ? "unix" : "seconds");
      put_pair (info, "clock-offset-ns", offset);
    }
  for (guint i = 0; i + 1 < b->info->len; i += 2)
    put_pair (info, g_ptr_array_index (b->info, i), g_ptr_array_index (b->info, i + 1));
  while (info->len % 4)
    g_string_append_c (info, '\0');
  cpel_writer_add_raw_section (b->writer, CPEL_SECTION_EXT_SOURCE_INFO, info->str, info->len);

  if (!cpel_writer_finish (b->writer, error))
    return NULL;
  return cpel_writer_steal_bytes (b->writer);
}

GBytes *
cpel_import_run (const CpelImporter      *importer,
                 const CpelImportSource  *src,
                 const CpelImportOptions *options,
                 GCancellable            *cancellable,
                 CpelProgressFunc         progress,
                 gpointer                 progress_data,
                 GError                 **error)
{
  return cpel_import_run_lazy (importer, src, options, cancellable, progress, progress_data,
                               NULL, error);
}

GBytes *
cpel_import_run_lazy (const CpelImporter      *importer,
                      const CpelImportSource  *src,
                      const CpelImportOptions *options,
                      GCancellable            *cancellable,
                      CpelProgressFunc         progress,
                      gpointer                 progress_data,
                      CpelImportTexts        **texts,
                      GError                 **error)
{
  g_autoptr(CpelImportBuilder) b = NULL;
  static const CpelImportOptions defaults = { 0 };
  GBytes *out;

  g_return_val_if_fail (importer != NULL && importer->import != NULL, NULL);
  g_return_val_if_fail (src != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (texts)
    *texts = NULL;
  b = g_new0 (CpelImportBuilder, 1);
  b->importer = importer;
  b->src = src;
  b->want_lazy = texts != NULL && !(options && options->c2cpel);
  b->options = options ? *options : defaults;
  b->writer = cpel_writer_new (NULL, b->options.little_endian,
                               b->options.date ? b->options.date : (guint32) (g_get_real_time () / G_USEC_PER_SEC),
                               error);
  if (b->writer == NULL)
    return NULL;
  b->strtab = cpel_writer_add_string_table (b->writer, "ImportStrtab");
  b->tracks = g_array_new (FALSE, FALSE, sizeof (Def));
  g_array_set_clear_func (b->tracks, def_clear);
  b->types = g_array_new (FALSE, FALSE, sizeof (Def));
  g_array_set_clear_func (b->types, def_clear);
  b->text_offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->texts = g_string_new (NULL);
  b->info = g_ptr_array_new_with_free_func (g_free);
  b->clock = CPEL_IMPORT_CLOCK_EXACT;
  b->cancellable = cancellable;
  b->progress = progress;
  b->progress_data = progress_data;

  if (!importer->import (src, &b->options, b, cancellable, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  out = builder_finish (b, error);
  if (out != NULL && b->lazy && b->raw_output == NULL)
    {
      CpelImportTexts *t = g_new0 (CpelImportTexts, 1);

      t->funcs = b->text_funcs;
      t->state = g_steal_pointer (&b->text_state);
      t->owner = g_bytes_ref (src->owner);
      t->data = src->data;
      t->size = src->size;
      t->refs = g_steal_pointer (&b->refs);
      t->n = b->n_added;
      *texts = t;
    }
  return out;
}

/* ---- cpel convert ------------------------------------------------------------- */

static gboolean
write_atomically (const char  *output,
                  GBytes      *bytes,
                  gboolean     overwrite,
                  GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (output);
  g_autofree char *base = g_path_get_basename (output);
  g_autofree char *tmpl = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  int fd, saved;

  fd = g_mkstemp_full (tmpl, O_WRONLY, 0666 & ~0022);
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s", g_strerror (saved));
      return FALSE;
    }
  while (len > 0)
    {
      gssize n = write (fd, data, MIN (len, (gsize) 1 << 30));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          saved = errno;
          close (fd);
          g_unlink (tmpl);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s", g_strerror (saved));
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  if (close (fd) != 0)
    {
      saved = errno;
      g_unlink (tmpl);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s", g_strerror (saved));
      return FALSE;
    }
  if (overwrite ? g_rename (tmpl, output) == 0 : link (tmpl, output) == 0)
    {
      if (!overwrite)
        g_unlink (tmpl);
      return TRUE;
    }
  saved = errno;
  g_unlink (tmpl);
  if (saved == EEXIST)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("This file already exists"));
  else
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s", g_strerror (saved));
  return FALSE;
}

gboolean
cpel_import_convert (const char              *path,
                     const char              *output,
                     const CpelImportOptions *options,
                     gboolean                 overwrite,
                     const CpelImporter     **importer_out,
                     GCancellable            *cancellable,
                     CpelProgressFunc         progress,
                     gpointer                 progress_data,
                     GError                 **error)
{
  const CpelImporter *importer;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;
  CpelImportSource src = { path, NULL, 0 };
  guint guard = 0;
  gboolean damaged;
  g_autofree char *target = NULL;

  g_return_val_if_fail (path != NULL && output != NULL, FALSE);

  importer = cpel_import_detect (path, error);
  if (importer == NULL)
    return FALSE;
  if (importer_out)
    *importer_out = importer;
  if (importer->import == NULL)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("This is a CPEL file already: nothing to convert"));
      return FALSE;
    }
  if (options && options->c2cpel && strcmp (importer->id, "elog") != 0)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("--c2cpel is for VPP elog files; this is a %s file"), _(importer->name));
      return FALSE;
    }
  if (!importer->directory)
    {
      g_autoptr(GError) local = NULL;

      mapped = g_mapped_file_new (path, FALSE, &local);
      if (mapped == NULL)
        {
          g_set_error (error, CPEL_ERROR, CPEL_ERROR_IO, "%s", local->message);
          return FALSE;
        }
      src.data = (const guint8 *) g_mapped_file_get_contents (mapped);
      src.size = g_mapped_file_get_length (mapped);
      if (src.data == NULL)
        src.data = (const guint8 *) "";
      else
        guard = cpel_mapguard_register (src.data, src.size);
    }
  bytes = cpel_import_run (importer, &src, options, cancellable, progress, progress_data, error);
  damaged = cpel_mapguard_is_damaged (guard);
  cpel_mapguard_unregister (guard);
  if (damaged)
    {
      g_clear_error (error);
      g_clear_pointer (&bytes, g_bytes_unref);
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_IO,
                           _("The file changed on disk while it was read"));
    }
  if (bytes == NULL)
    return FALSE;
  if (cpel_output_is_stdout (output))
    return cpel_output_write_stdout (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                     error);
  /* never a rename over a device, FIFO or link (a link is written through) */
  target = cpel_output_resolve (output, error);
  return target != NULL && write_atomically (target, bytes, overwrite, error);
}
