/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-cli.h — shared pieces of the `cpel` command-line tool */
#pragma once

#include <stdio.h>

#include <glib.h>

#include "cpel-core.h"

G_BEGIN_DECLS

enum
{
  CPEL_EXIT_OK      = 0,
  CPEL_EXIT_INVALID = 1,   /* not a valid CPEL file, or the command failed */
  CPEL_EXIT_USAGE   = 2,
};

/* Subcommands: argv[0] is the command name. */
int  cpel_cmd_info   (int argc, char **argv);
int  cpel_cmd_dump   (int argc, char **argv);
int  cpel_cmd_search (int argc, char **argv);
int  cpel_cmd_gen    (int argc, char **argv);
int  cpel_cmd_export (int argc, char **argv);
int  cpel_cmd_cut    (int argc, char **argv);
int  cpel_cmd_convert (int argc, char **argv);
int  cpel_cmd_stats  (int argc, char **argv);
int  cpel_cmd_anomaly (int argc, char **argv);
int  cpel_cmd_chase  (int argc, char **argv);
int  cpel_cmd_diff   (int argc, char **argv);
int  cpel_cmd_cache  (int argc, char **argv);
int  cpel_cmd_spans  (int argc, char **argv);
int  cpel_cmd_states (int argc, char **argv);
int  cpel_cmd_rules  (int argc, char **argv);
int  cpel_cmd_top    (int argc, char **argv);

/* `cpel dump --follow SOURCE` (cpel-cmd-follow.c): returns the exit status. */
int  cpel_cli_follow (const char *source,
                      gboolean    tsv,
                      guint64     clock_rate);

/* ---- cpel-cli-common.c ---- */

/* The options several commands share, defined once with one help text. */
typedef enum
{
  CPEL_CLI_OPTION_CLOCK_RATE = 1 << 0,   /* --clock-rate HZ */
  CPEL_CLI_OPTION_RANGE      = 1 << 1,   /* --from TIME, --to TIME */
  CPEL_CLI_OPTION_TRACKS     = 1 << 2,   /* --tracks REGEX */
} CpelCliOptions;

#define CPEL_CLI_OPTIONS_FILE (CPEL_CLI_OPTION_CLOCK_RATE)
#define CPEL_CLI_OPTIONS_VIEW (CPEL_CLI_OPTION_CLOCK_RATE | CPEL_CLI_OPTION_RANGE | \
                               CPEL_CLI_OPTION_TRACKS)

/* What the shared options hold after parsing. */
typedef struct
{
  guint64  clock_rate;   /* 0 = the file's own */
  char    *from_text;    /* NULL when not given */
  char    *to_text;
  char    *tracks;
} CpelCliCommon;

void            cpel_cli_common_clear  (CpelCliCommon   *common);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CpelCliCommon, cpel_cli_common_clear)

/* An option context for "cpel COMMAND"; parameter e.g. "FILE".  `entries`
 * are the command's own options (may be NULL); the shared options named by
 * `shared` follow them in the same group and fill `common` (NULL when
 * `shared` is 0). */
GOptionContext *cpel_cli_context_new   (const char      *command,
                                        const char      *parameter,
                                        const char      *summary,
                                        const GOptionEntry *entries,
                                        CpelCliOptions   shared,
                                        CpelCliCommon   *common);
/* Parses; on a usage error prints it and returns FALSE (exit 2). */
gboolean        cpel_cli_parse         (GOptionContext  *context,
                                        const char      *command,
                                        int             *argc,
                                        char          ***argv);
/* "cpel COMMAND: message" + a hint to --help on stderr; returns 2. */
int             cpel_cli_usage_error   (const char      *command,
                                        const char      *format,
                                        ...) G_GNUC_PRINTF (2, 3);
/* "cpel: PATH: message" on stderr; returns 1. */
int             cpel_cli_file_error    (const char      *path,
                                        const GError    *error);

/* The --clock-rate option: parsed into *(guint64 *) data. */
gboolean        cpel_cli_parse_clock_rate (const char   *name,
                                           const char   *value,
                                           gpointer      data,
                                           GError      **error);
/* A count such as "10000000", "1e7", "10M", "500k". */
gboolean        cpel_cli_parse_count   (const char      *text,
                                        guint64         *value);
/* A time for --from/--to (cpel_time_parse: "1.5ms", "250us", "42"). */
gboolean        cpel_cli_parse_time    (const char      *option,
                                        const char      *text,
                                        gint64          *ns,
                                        GError         **error);

/* A 32-bit number: decimal or 0x hex. */
gboolean        cpel_cli_parse_u32     (const char      *text,
                                        guint32         *value);
/* --from / --to: each given one parsed into *t0 / *t1 (left as they are
 * otherwise); FALSE with a usage message in *error, also when both are
 * given and the end does not come after the start. */
gboolean        cpel_cli_parse_range   (const char      *from_text,
                                        const char      *to_text,
                                        gint64          *t0,
                                        gint64          *t1,
                                        GError         **error);
/* Slots of the tracks whose label matches the regular expression `pattern`,
 * in slot order (guint).  NULL with a message in *error for a bad pattern or
 * when no track matches (both usage errors). */
GArray         *cpel_cli_match_tracks  (CpelFile        *file,
                                        const char      *pattern,
                                        GError         **error);
/* The event codes (guint32) that CODE|NAME gives: a number (decimal or 0x
 * hex) that is a code of the file, else the codes of the event types whose
 * name equals it, ignoring case (several types may share a name), else the
 * number itself (a code without events).  NULL with a message in *error for
 * a name no type has. */
GArray         *cpel_cli_resolve_codes (CpelFile        *file,
                                        const char      *text,
                                        GError         **error);

/* The persisted index: on unless --no-cache or the viewer's setting
 * (index-cache, index-cache-max-size) says otherwise. */
void            cpel_cli_cache_options (CpelLoadOptions *options);

/* Opens and indexes a file (clock_rate 0 = the file's). */
CpelFile       *cpel_cli_open          (const char      *path,
                                        guint64          clock_rate,
                                        GError         **error);

/* Opens a file for one pass in time order (cpel_merge_*): without the
 * per-track index when the file is in time order (bounded memory), with it
 * otherwise. */
CpelFile       *cpel_cli_open_stream   (const char      *path,
                                        guint64          clock_rate,
                                        GError         **error);

/* Opens a file for what the first pass over the events knows (counts per
 * track and type, time span, diagnostics): the index is never built. */
CpelFile       *cpel_cli_open_summary  (const char      *path,
                                        guint64          clock_rate,
                                        GError         **error);

/* The built-in span rules (unless no_builtin) and those of each FILE of
 * `files` (NULL-terminated, may be NULL); NULL after printing the error
 * ("cpel COMMAND: …"; exit status CPEL_EXIT_INVALID). */
CpelSpanRules  *cpel_cli_load_span_rules (const char    *command,
                                          char         **files,
                                          gboolean       no_builtin);

/* After using `file`: when it shrank on disk meanwhile (its data then reads
 * as zeros), says so on stderr ("cpel: PATH: ...") and returns TRUE. */
gboolean        cpel_cli_report_damage (CpelFile        *file,
                                        const char      *path);

/* Standard output with a large, fully buffered stdio buffer. */
void            cpel_cli_setup_stdout  (void);
/* Flushes stdout; reports a write error (returns FALSE). */
gboolean        cpel_cli_flush_stdout  (void);

/* ---- cpel-cli-lines.c: one line per event (dump and search) ---- */

typedef struct _CpelLinePrinter CpelLinePrinter;

CpelLinePrinter *cpel_line_printer_new   (CpelFile         *file,
                                          gboolean          tsv);
/* Times on the capture's own clock (cpel_file_get_clock_origin): the human
 * format prints them as cpel_time_format_clock () with 9 decimals, TSV's
 * first column is then clock_ns (origin + time).  Before the header. */
void             cpel_line_printer_set_clock (CpelLinePrinter *printer,
                                              CpelClockKind    clock,
                                              gint64           origin_ns);
/* The TSV header line (nothing in the human format). */
void             cpel_line_printer_header (CpelLinePrinter *printer);
void             cpel_line_printer_event (CpelLinePrinter  *printer,
                                          const CpelEvent  *event);
/* The TSV header followed by `extra` (e.g. "\tvalue\tz"); nothing in the
 * human format. */
void             cpel_line_printer_header_extra (CpelLinePrinter *printer,
                                                 const char      *extra);
/* The event's line with `suffix` appended as is before the newline. */
void             cpel_line_printer_event_suffix (CpelLinePrinter *printer,
                                                 const CpelEvent *event,
                                                 const char      *suffix);
/* Writes what is buffered to stdout. */
void             cpel_line_printer_flush (CpelLinePrinter  *printer);
void             cpel_line_printer_free  (CpelLinePrinter  *printer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelLinePrinter, cpel_line_printer_free)

/* `s` (a file name, a message) for the terminal: control bytes (< 0x20,
 * 0x7f) as \t \r \n or \xHH, as labels are printed; never NULL. */
char            *cpel_cli_escape         (const char       *s);

/* Appends `len` bytes of `s` with \\ \t \r \n and \xHH for other control
 * bytes (< 0x20, 0x7f). */
void             cpel_cli_escape_append  (GString          *out,
                                          const char       *s,
                                          gsize             len);

G_END_DECLS
