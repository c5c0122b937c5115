/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import.h — opening other event logs (VPP elog, Snabb timeline, …)
 *
 * Every importer turns its format into CPEL bytes in memory, made with the
 * CpelWriter through a CpelImportBuilder, which also writes two extension
 * sections (doc/cpel-extensions.md): each event's full text, and the source
 * format's header.  The loader (cpel-loader.h: cpel_file_new_for_path ())
 * calls cpel_import_detect () and hands the bytes the importer returns to
 * the core (cpel_file_new_imported ()), so every `cpel` command and the
 * viewer read an imported file as they read CPEL.
 *
 * This is a layer of its own, libcpelimport (src/core/import/meson.build):
 * it uses the core, the core never includes its headers.  Each format lives
 * in its folder, src/core/import/NAME/, with its helpers named after it
 * (cpel-NAME-….c); this folder holds what they share: this table and the
 * builder (cpel-import.c), and the loader (cpel-loader.c).
 *
 * ADDING A FORMAT — one folder, one line in the table, its MIME type:
 *
 *   1. src/core/import/NAME/cpel-import-NAME.c (and its cpel-NAME-*.c
 *      helpers; list them in import_sources and add 'NAME' to
 *      import_format_dirs in src/core/import/meson.build — inside an
 *      `if have_NAME` block with a `feature` option in meson_options.txt
 *      and a HAVE_NAME in config.h when it needs a library of its own, as
 *      ctf/ and perf/ do; its tests are then built only with it) defines
 *
 *        const CpelImporter cpel_importer_NAME = {
 *          .id = "name", .name = N_("Display name"),
 *          .mime_type = "application/x-…", .patterns = (const char *[]) { "*.ext", NULL },
 *          .directory = FALSE,         // TRUE: the source is a folder (CTF)
 *          .probe = probe_name,        // magic check on the first bytes
 *          .import = import_name,      // source -> builder
 *          .source_size = size_name,   // folders only, optional: bytes of its files
 *        };
 *
 *      probe() sees the first CPEL_IMPORT_PROBE_SIZE bytes of a file (or,
 *      for .directory importers, data == NULL and the folder's path; they
 *      are also asked about files, with the bytes and the file's path, and
 *      may claim one inside their folder: import() then gets that path) and
 *      answers by content, never by name.  import() reads the source (the
 *      whole file mapped: src->data/src->size; or src->path for folders),
 *      treats every byte as hostile (check each count, offset and length,
 *      errors name the byte offset), and describes tracks, event types and
 *      events to the builder:
 *
 *        cpel_import_builder_add_track (b, id, "label");
 *        cpel_import_builder_add_type (b, code, "name", "%u" or NULL);
 *        cpel_import_builder_begin_events (b, n);       // the exact count
 *        cpel_import_builder_add_event (b, ns, track, code, datum, "full text", len);
 *        cpel_import_builder_add_info (b, N_("Key"), "value");   // for `cpel info`;
 *                                      // the key untranslated: shown in the reader's language
 *        cpel_import_builder_set_clock (b, CPEL_IMPORT_CLOCK_…, "how");
 *        cpel_import_builder_add_lost (b, n);
 *        cpel_import_builder_set_clock_origin (b, CPEL_CLOCK_…, offset);  // optional
 *
 *      Times are absolute ns (any origin; the loader counts from the
 *      earliest); the datum is the numeric value stats and anomalies use;
 *      the text is what `dump` shows as datum and the viewer as label.
 *
 *      Texts made when asked (what VPP elog and Snabb do: formatting every
 *      event's text at import costs 10-30x the import and a text per event
 *      in memory): describe each event by a reference into the source
 *      (e.g. its byte offset) and give the function that makes its text:
 *
 *        cpel_import_builder_set_text_source (b, &funcs, state, max_ref);
 *        cpel_import_builder_add_event_ref (b, ns, track, code, datum, ref);
 *
 *      When a file is opened for viewing, the source stays mapped and the
 *      text of an event is made when a label, search, export or cut asks
 *      for it; `cpel convert` makes them all at once (the same bytes as
 *      cpel_import_builder_add_event with the text).  Call
 *      cpel_import_check_cancel() / cpel_import_report_progress() now and
 *      then.  Everything else (byte order, the extension sections, the
 *      options) is the builder's business.
 *
 *   2. Add `&cpel_importer_NAME,` to the table in cpel-import.c, in the place
 *      of the detection order it needs (strong magics before CPEL, whose
 *      magic is one byte), inside `#if HAVE_NAME` for an optional format,
 *      and its name to the list /core/import/table expects
 *      (tests/core/test-import-table.c).  The "not a supported event log
 *      (…)" message, the Open dialog filters, `cpel info` and File
 *      Information all follow the table.
 *
 *   3. Its MIME type: in data/….mime.xml.in (by magic) and in
 *      desktop_mime_types (data/meson.build: the .desktop file's MimeType);
 *      and its name in the list tests/cli/test-cli.c expects in the message.
 *
 * This interface is stable: the CTF and perf.data importers are written
 * against it as any new format is.
 */
#pragma once

#include <gio/gio.h>

#include "cpel-file.h"

G_BEGIN_DECLS

/* Bytes of a file a probe sees (fewer when the file is shorter). */
#define CPEL_IMPORT_PROBE_SIZE 64

/* The extension section types (CPEL_SECTION_EXT_*) are the core's (cpel-file.h). */

typedef struct
{
  /* The user's clock rate (--clock-rate, "read with a different clock"),
   * ticks per second; 0 = none. Importers whose clock is unknown use it. */
  guint64   ticks_per_second;
  /* Byte order of the CPEL made (only matters for `cpel convert`). */
  gboolean  little_endian;
  /* VPP elog only: write exactly what VPP's c2cpel writes. */
  gboolean  c2cpel;
  /* CPEL file date; 0 = now. */
  guint32   date;
} CpelImportOptions;

typedef enum
{
  CPEL_IMPORT_CLOCK_EXACT,     /* the format's times are ns or seconds */
  CPEL_IMPORT_CLOCK_DERIVED,   /* rate computed from the file (e.g. TSC from wall-clock events) */
  CPEL_IMPORT_CLOCK_USER,      /* rate given by the user */
  CPEL_IMPORT_CLOCK_UNKNOWN,   /* no rate: ticks are shown as ns */
} CpelImportClock;

typedef struct
{
  const char    *path;   /* file or folder */
  const guint8  *data;   /* the whole file (NULL for folders) */
  gsize          size;
  /* What owns data (NULL: data lives only during the import).  With it, a
   * file opened for viewing keeps the source and makes texts when asked
   * (cpel_import_builder_set_text_source). */
  GBytes        *owner;
} CpelImportSource;

typedef struct _CpelImportBuilder CpelImportBuilder;

typedef struct
{
  const char          *id;          /* "elog": stable, in the extension section */
  const char          *name;        /* N_("VPP elog"): translated when shown */
  const char          *mime_type;
  const char * const  *patterns;    /* glob patterns for file choosers, NULL-terminated */
  gboolean             directory;   /* the source is a folder */
  gboolean           (*probe)  (const guint8 *data, gsize size, const char *path);
  gboolean           (*import) (const CpelImportSource  *src,
                                const CpelImportOptions *options,
                                CpelImportBuilder       *builder,
                                GCancellable            *cancellable,
                                GError                 **error);
  /* Folder importers (optional): the bytes of the source's files, for
   * `path` as given to import() (the folder, or a file inside it that the
   * probe claimed); a bounded walk that never follows a symbolic link.
   * Without it a folder's size is not known (0). */
  guint64            (*source_size) (const char *path);
} CpelImporter;

/* The table, in detection order, NULL-terminated; the last entry is CPEL itself. */
const CpelImporter * const *cpel_importers (void);
/* The entry for id ("cpel", "elog", "snabb", …) or NULL. */
const CpelImporter *cpel_importer_lookup (const char *id);

/* The importer whose probe accepts the path (CPEL included), or NULL with
 * "not a supported event log (CPEL, VPP elog, …): found …". */
const CpelImporter *cpel_import_detect (const char *path, GError **error);
/* Same on bytes already read (a file's start). */
const CpelImporter *cpel_import_detect_bytes (const guint8 *data, gsize size, GError **error);

/* Run `importer` on `src`: CPEL bytes (with the extension sections). */
GBytes *cpel_import_run (const CpelImporter      *importer,
                         const CpelImportSource  *src,
                         const CpelImportOptions *options,
                         GCancellable            *cancellable,
                         CpelProgressFunc         progress,
                         gpointer                 progress_data,
                         GError                 **error);

/* The texts of an import whose texts are made when asked. */
typedef struct _CpelImportTexts CpelImportTexts;

/* As cpel_import_run, but when the importer makes texts from references and
 * src->owner is set, the CPEL has no texts section: *texts (else NULL)
 * makes them, keeping a reference on src->owner. */
GBytes *cpel_import_run_lazy (const CpelImporter      *importer,
                              const CpelImportSource  *src,
                              const CpelImportOptions *options,
                              GCancellable            *cancellable,
                              CpelProgressFunc         progress,
                              gpointer                 progress_data,
                              CpelImportTexts        **texts,
                              GError                 **error);
/* Appends the text of event `index` (CPEL file order); FALSE: none. */
gboolean cpel_import_texts_append (const CpelImportTexts *texts, guint64 index, GString *out);
void     cpel_import_texts_free   (CpelImportTexts *texts);

/* `cpel convert`: import `path` (any supported format but CPEL) and write
 * the CPEL to `output` atomically (a temporary file next to it, then a
 * rename); an existing output is replaced only when `overwrite`
 * (else G_IO_ERROR_EXISTS).  *importer_out: the format found. */
gboolean cpel_import_convert (const char              *path,
                              const char              *output,
                              const CpelImportOptions *options,
                              gboolean                 overwrite,
                              const CpelImporter     **importer_out,
                              GCancellable            *cancellable,
                              CpelProgressFunc         progress,
                              gpointer                 progress_data,
                              GError                 **error);

/* ---- for importers --------------------------------------------------------- */

void     cpel_import_builder_add_info     (CpelImportBuilder *b, const char *key, const char *value);
void     cpel_import_builder_set_clock    (CpelImportBuilder *b, CpelImportClock clock,
                                           const char *description);
void     cpel_import_builder_add_lost     (CpelImportBuilder *b, guint64 n_lost);
/* The source's own clock (cpel_file_get_clock_origin): an event added
 * with time ns reads ns + offset_ns on a clock of that kind (SECONDS: the
 * source's seconds, e.g. perf's since boot; WALL: ns since 1970 UTC). */
void     cpel_import_builder_set_clock_origin (CpelImportBuilder *b, CpelClockKind kind,
                                               gint64 offset_ns);

void     cpel_import_builder_add_track    (CpelImportBuilder *b, guint32 id, const char *label);
/* datum_format: how readers without the text extension show the datum
 * (NULL = nothing). The name is used verbatim (a '%' in it is escaped). */
void     cpel_import_builder_add_type     (CpelImportBuilder *b, guint32 code, const char *name,
                                           const char *datum_format);
/* Exactly n events follow (at most 2^32 - 1). */
gboolean cpel_import_builder_begin_events (CpelImportBuilder *b, guint64 n, GError **error);
/* ns: absolute (any origin, >= 0). text: NULL = none. */
void     cpel_import_builder_add_event    (CpelImportBuilder *b, guint64 ns, guint32 track,
                                           guint32 code, guint32 datum,
                                           const char *text, gssize text_len);
const CpelImportOptions *cpel_import_builder_get_options (CpelImportBuilder *b);

typedef struct
{
  /* Appends the text of the event described by `ref`.  Called long after
   * the import, from any thread, on the source bytes as they are then:
   * bounded like the import itself (a mapping may change under it: garbage
   * gives a marker, never a read outside the source), read-only on state. */
  void (*format) (gconstpointer state, const guint8 *data, gsize size, guint64 ref, GString *out);
  void (*free)   (gpointer state);
} CpelImportTextFuncs;

/* Before begin_events: events will be added with add_event_ref, their texts
 * made by funcs->format (state: the importer's, freed with funcs->free by
 * the builder or, for a viewed file, when the file goes; it must not point
 * into the source except through format()'s data).  max_ref: the largest
 * ref that will be given. */
void     cpel_import_builder_set_text_source (CpelImportBuilder *b, const CpelImportTextFuncs *funcs,
                                              gpointer state, guint64 max_ref);
/* As add_event, the text made from `ref` now or when asked. */
void     cpel_import_builder_add_event_ref (CpelImportBuilder *b, guint64 ns, guint32 track,
                                            guint32 code, guint32 datum, guint64 ref);
/* Call chains (perf record -g; doc/cpel-extensions.md): a frame by its
 * address, symbol and binary (NULL: unknown), the same frame given again
 * gets the same number; then the chain of the event added last, innermost
 * frame first.  Only a capture with a chain gets the section.  Chains past
 * what one section holds (4 GiB) are dropped. */
guint32  cpel_import_builder_add_frame     (CpelImportBuilder *b, guint64 ip, const char *symbol,
                                            const char *dso);
void     cpel_import_builder_set_chain     (CpelImportBuilder *b, const guint32 *frames,
                                            guint n_frames);
/* Replace the whole output by these CPEL bytes (c2cpel-compatible mode). */
void     cpel_import_builder_set_raw_output (CpelImportBuilder *b, GBytes *cpel);

/* FALSE with G_IO_ERROR_CANCELLED when cancelled (cheap: call every ~64k events). */
gboolean cpel_import_check_cancel         (CpelImportBuilder *b, GError **error);
/* Progress of the import itself, fraction in [0,1]. */
void     cpel_import_report_progress      (CpelImportBuilder *b, double fraction);

/* ---- the formats ------------------------------------------------------------ */

extern const CpelImporter cpel_importer_ctf;
extern const CpelImporter cpel_importer_elog;
extern const CpelImporter cpel_importer_perf;
extern const CpelImporter cpel_importer_snabb;

G_END_DECLS
