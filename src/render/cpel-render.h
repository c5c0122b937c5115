/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-render.h — draws a view of a CpelFile onto any cairo_t (no GTK)
 *
 * Layout of the drawing area (width × height, in user units = logical px):
 *
 *   +-------------+---------------------------------------------+
 *   |             | time ruler (ruler_height)                    |
 *   +-------------+---------------------------------------------+
 *   | track label | events of track order[first]  (row_height)  |
 *   | column      | ...                                          |
 *   | label_width |                                              |
 *   +-------------+---------------------------------------------+
 *
 * The timeline area spans x in [label_width, width): time t maps to
 * x = label_width + (t - t0) * (width - label_width) / (t1 - t0).
 * Row r (0-based index into rows) spans
 * y in [ruler_height + r * row_height - scroll_y, ... + row_height).
 * A frame costs O(visible tracks × pixel columns): zoomed out, each column's
 * count comes from binary searches (cpel_file_track_count_range) and is
 * drawn as density; zoomed in, each event is a tick with a boxed label
 * "name: datum" when there is room before the next event.
 *
 * A row is drawn event by event when its visible events are on average at
 * least CPEL_RENDER_EVENT_SPACING device pixels apart, else as density (a
 * shade per device pixel column, log scale, darker = more events).  In a
 * row drawn event by event, bursts (three or more events each closer than
 * that to the one before) are shaded as density too, never a solid block
 * of ticks.
 *
 * Hidden event types (view->hidden_types) are skipped when drawing events,
 * hit testing and walking; in density rows a column's count of visible-type
 * events is exact when the column holds at most CPEL_RENDER_DENSITY_SAMPLES
 * events, else estimated from that many evenly spaced samples of the column
 * (so the cost stays O(columns) per row).  cpel_view_count_range() and the
 * overview count every event, hidden types included.
 *
 * view->color_mode colours ticks by event code, by track or in one colour
 * (density rows: by track in the track's colour, else palette->density);
 * view->summary draws each row as a histogram on a baseline: a column's bar
 * as tall as its count (the density's log scale, solid), a lone event a
 * tick of one event's height, no event labels — different from the normal
 * mode at every zoom, density-only frames included.  Both are part of the frame,
 * so whatever draws the view (window, print, export) shows them alike, at
 * no extra cost per frame.
 *
 * Between calls the renderer keeps, on the CpelFile (object data), the
 * density counts of the last zoom level (t0, t1, columns, hidden types), so
 * redraws at one zoom (cursor, selection, scrolling) do no searching; and,
 * per thread, the text layouts of recent labels.  Both are thread-safe.
 */
#pragma once

#include <cairo.h>

#include "cpel-core.h"
#include "cpel-color-mode.h"
#include "cpel-labels.h"

G_BEGIN_DECLS

typedef struct
{
  double r, g, b, a;
} CpelRGBA;

typedef struct
{
  CpelRGBA background;       /* timeline background */
  CpelRGBA row_alt;          /* every other row */
  CpelRGBA foreground;       /* text */
  CpelRGBA dim;              /* secondary text, ruler ticks */
  CpelRGBA grid;             /* grid lines, separators */
  CpelRGBA ruler_bg;
  CpelRGBA label_bg;         /* track label column */
  CpelRGBA event;            /* event ticks; density uses it with alpha */
  CpelRGBA event_label_bg;   /* boxed label fill */
  CpelRGBA event_label_border;
  CpelRGBA selection;        /* selected event and its row */
  CpelRGBA highlight;        /* search matches */
  CpelRGBA measure;          /* ruler measurement band */
  CpelRGBA accent;           /* overview window, cursors */

  /* Added after the first contract (fields are only ever appended). */
  CpelRGBA selection_fg;     /* text on a selection fill */
  CpelRGBA highlight_fg;     /* text on a highlight fill */
  CpelRGBA density;          /* density shading (used with alpha) */
#define CPEL_PALETTE_N_TYPE_COLORS 16
  CpelRGBA type_colors[CPEL_PALETTE_N_TYPE_COLORS];  /* event ticks by type */
  gboolean dark;
} CpelPalette;

void cpel_palette_init_light (CpelPalette *palette);
void cpel_palette_init_dark  (CpelPalette *palette);
/* Tick colour of the events with `code` in `file`: the palette's colours in
 * the order of the file's event types, so that its first
 * CPEL_PALETTE_N_TYPE_COLORS types all differ; a code the file does not
 * define (or no file) by the code itself. */
void cpel_palette_get_type_color (const CpelPalette *palette, CpelFile *file, guint32 code,
                                  CpelRGBA *color);
/* Tick colour of the events of the track in `slot` when colouring by
 * track: the same colours in slot order, from the middle of the list
 * (neighbouring tracks apart). */
void cpel_palette_get_track_color (const CpelPalette *palette, guint slot, CpelRGBA *color);

/* A span's colour by its name (the same name, the same colour), and a
 * thread state's: Running green, Runnable (Preempted) orange, Sleeping
 * blue, Uninterruptible red, Stopped violet, Dead, Off CPU, Idle and
 * Unknown greys (by the start of the name, any case); other states by
 * name.  Each palette has its own, light and dark. */
void cpel_palette_get_span_color  (const CpelPalette *palette, const char *name,
                                   CpelRGBA *color);
void cpel_palette_get_state_color (const CpelPalette *palette, const char *name,
                                   CpelRGBA *color);

/* How event ticks and density are coloured (g2's `c`): CpelColorMode, in
 * cpel-color-mode.h (src/model). */

/* Colour modes by name, as `--color-by` and the viewer's action state take
 * them: "code", "track", "none".  From a string: FALSE (mode untouched) for
 * anything else; mode may be NULL to only check. */
const char *cpel_color_mode_to_string   (CpelColorMode mode);
gboolean    cpel_color_mode_from_string (const char *name, CpelColorMode *mode);

/* Whole-capture density summary for the overview strip: per bucket of a fixed
 * resolution, the number of events of all tracks.  Built once per file in one
 * pass (O(events), or O(buckets × log n) per track when that is less), so it
 * may be built in a worker thread; immutable and thread-safe once built.
 * The widget keeps one per file and passes it in view->overview. */
typedef struct _CpelOverview CpelOverview;

#define CPEL_OVERVIEW_DEFAULT_BUCKETS 4096

#define CPEL_TYPE_OVERVIEW (cpel_overview_get_type ())
GType          cpel_overview_get_type        (void) G_GNUC_CONST;
/* NULL with G_IO_ERROR_CANCELLED when cancelled.  n_buckets 0 = default. */
CpelOverview  *cpel_overview_new             (CpelFile      *file,
                                              guint          n_buckets,
                                              GCancellable  *cancellable,
                                              GError       **error);
CpelOverview  *cpel_overview_ref             (CpelOverview  *overview);
void           cpel_overview_unref           (CpelOverview  *overview);
guint          cpel_overview_get_n_buckets   (CpelOverview  *overview);
guint64        cpel_overview_get_bucket      (CpelOverview  *overview, guint bucket);
/* The time range [0, span) the buckets cover (span = duration + 1). */
gint64         cpel_overview_get_span        (CpelOverview  *overview);
/* Events in [t0, t1), interpolated inside partial buckets (exact on bucket
 * boundaries). */
double         cpel_overview_count_range     (CpelOverview  *overview, gint64 t0, gint64 t1);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelOverview, cpel_overview_unref)

typedef struct
{
  CpelFile          *file;
  const CpelPalette *palette;

  /* Visible time range [t0, t1) in ns since the earliest event; t1 > t0. */
  gint64             t0;
  gint64             t1;

  /* Track rows in display order (slots); NULL = every slot in order. */
  const guint       *rows;
  guint              n_rows;
  /* Vertical scroll in pixels from the top of row 0. */
  double             scroll_y;

  double             row_height;     /* default 24 */
  double             label_width;    /* default 160 */
  double             ruler_height;   /* default 28 */
  const char        *font;           /* Pango font description; NULL = "Sans 9" */

  /* Event types to hide: hidden_types[type] != 0 (NULL = all visible). */
  const guint8      *hidden_types;

  /* Selection (has_selection FALSE = none). */
  gboolean           has_selection;
  guint              selected_slot;
  guint64            selected_index;

  /* Search matches to highlight (NULL = none). */
  CpelSearchResult  *matches;

  /* Ruler measurement [measure_t0, measure_t1] (has_measure FALSE = none). */
  gboolean           has_measure;
  gint64             measure_t0;
  gint64             measure_t1;

  /* Cursor line at a time (has_cursor FALSE = none). */
  gboolean           has_cursor;
  gint64             cursor_t;

  /* Added after the first contract (fields are only ever appended; set by
   * cpel_view_init). */
  gboolean           color_by_type;  /* ticks in per-type colours (default TRUE) */
  CpelOverview      *overview;       /* for cpel_render_overview; NULL = built per call (slow) */
  /* How ticks and density are coloured (default CPEL_COLOR_BY_CODE).  With
   * CPEL_COLOR_BY_CODE, color_by_type FALSE (the older field) still means one
   * colour, as CPEL_COLOR_NONE; the other modes ignore color_by_type. */
  CpelColorMode      color_mode;
  /* Summary mode (g2's `e`): rows as histograms, no event labels (the
   * selected event keeps its label); default FALSE. */
  gboolean           summary;
  /* The ruler and the grid read time minus ruler_origin (negative before
   * it): comparing two captures, the aligned point reads 0.  Default 0. */
  gint64             ruler_origin;
  /* Spans and states drawn in their tracks' rows, under the events (NULL:
   * none; cpel-spans.h); the selected one outlined: index into its track's
   * spans, or states when selected_span_state. */
  CpelSpans         *spans;
  gboolean           has_span_selection;
  guint              selected_span_slot;
  gboolean           selected_span_state;
  guint64            selected_span_index;
  /* The ruler reads the capture's own clock (cpel_file_get_clock_origin):
   * clock_origin + time, on ticks that are round on that clock; labels as
   * cpel_render_format_clock_tick ().  Default CPEL_CLOCK_NONE: time since
   * the first event (minus ruler_origin). */
  CpelClockKind      clock;
  gint64             clock_origin;
  /* Spans highlighted (a distribution's selection, a duration search;
   * NULL: none): the finished spans it lets through (name, duration, begin)
   * outlined in the accent colour, the other spans dimmed.  Rows drawn
   * per column show a highlighted span sampled in a column, or beginning
   * in it (the first few of a column), in the accent colour. */
  const CpelSpanFilter *span_filter;
  /* Label formats per event type (cpel-labels.h; NULL: the whole labels). */
  CpelLabels        *labels;
} CpelView;

/* Average device-pixel spacing of a row's visible events from which they are
 * drawn one by one (below: density). */
#define CPEL_RENDER_EVENT_SPACING 3.0
/* Events inspected per density column when some types are hidden. */
#define CPEL_RENDER_DENSITY_SAMPLES 16

/* Sensible defaults (row/label/ruler sizes, whole capture, all rows). */
void     cpel_view_init         (CpelView *view, CpelFile *file, const CpelPalette *palette);

/* Geometry helpers shared by the widget's input handling. */
double   cpel_view_time_to_x    (const CpelView *view, double width, gint64 t);
gint64   cpel_view_x_to_time    (const CpelView *view, double width, double x);
/* Row (index into rows) at y, or -1 (ruler / below the last row). */
int      cpel_view_row_at_y     (const CpelView *view, double y);
/* Nearest event to (x, y) within `radius` px on the row under y. */
#define CPEL_VIEW_HIT_RADIUS 6.0   /* what a click picks from, in px */
gboolean cpel_view_hit_test     (const CpelView *view, double width, double x, double y,
                                 double radius, guint *slot, guint64 *index);

/* The span or state drawn at (x, y) (view->spans): its slot, whether it is
 * a state, its index in the track's spans (states).  Spans drawn per column
 * (too many in the range) are not picked. */
gboolean cpel_view_span_hit_test (const CpelView *view, double width, double x, double y,
                                  guint *slot, gboolean *state, guint64 *index);
/* The begin or end time of a span or state of the track in the row at y
 * (view->spans) nearest to x, if within max_px pixels of it: for the
 * measure tool to snap to.  FALSE when none is that close. */
gboolean cpel_view_span_snap (const CpelView *view, double width, double x, double y,
                              double max_px, gint64 *t);

/* Number of rows (n_rows, or the file's track count when rows is NULL). */
guint    cpel_view_get_n_rows   (const CpelView *view);
/* Track slot shown in row r (G_MAXUINT when r is out of range or invalid). */
guint    cpel_view_get_row_slot (const CpelView *view, guint r);
/* Top y of row r in the drawing area (may be off screen). */
double   cpel_view_get_row_y    (const CpelView *view, guint r);
/* Height of all rows and the legend's room below them (for the vertical
 * scroll range). */
double   cpel_view_get_content_height (const CpelView *view);
/* Room kept below the last row for the thread states' legend, so that it
 * never has to cover a row when scrolled (or exported) to the end:
 * CPEL_VIEW_LEGEND_ROOM when view->spans has states, else 0. */
#define CPEL_VIEW_LEGEND_ROOM 32.0
double   cpel_view_get_legend_room (const CpelView *view);
/* Events on the shown rows with t0 <= time <= t1 (hidden types included);
 * O(rows × log n).  For the ruler measurement. */
guint64  cpel_view_count_range  (const CpelView *view, gint64 t0, gint64 t1);

/* The whole view: ruler, label column, rows, selection, highlights, measure. */
void     cpel_render_view       (cairo_t *cr, double width, double height, const CpelView *view);

/* Whole-capture density strip (all tracks summed), with the view's [t0,t1)
 * window drawn on it and match ticks from view->matches.  The capture
 * [0, duration] spans x in [0, width). */
void     cpel_render_overview   (cairo_t *cr, double width, double height, const CpelView *view);
/* The strip's layers, bottom to top; cpel_render_overview() draws them all.
 * BASE (background and density) and MATCHES (match ticks, on a transparent
 * background) depend only on the capture, the matches, the size and the
 * palette: a widget draws them once into images and repaints only WINDOW
 * (the view's window and the veil around it) and TOP (cursor, border). */
typedef enum
{
  CPEL_OVERVIEW_LAYER_BASE    = 1 << 0,
  CPEL_OVERVIEW_LAYER_WINDOW  = 1 << 1,
  CPEL_OVERVIEW_LAYER_MATCHES = 1 << 2,
  CPEL_OVERVIEW_LAYER_TOP     = 1 << 3,
  CPEL_OVERVIEW_LAYER_ALL     = 0xf,
} CpelOverviewLayer;
void     cpel_render_overview_layers (cairo_t *cr, double width, double height, const CpelView *view,
                                      CpelOverviewLayer layers);
/* The BASE layer shows what the view shows: the events of its rows (hidden
 * and filtered-out tracks left out) and of its shown event types.  A hash of
 * those, for a widget to know when to redraw it (0: everything shown). */
guint64  cpel_render_overview_shown_hash (const CpelView *view);
/* Geometry of the overview strip (for clicks and drags on it). */
double   cpel_render_overview_time_to_x (const CpelView *view, double width, gint64 t);
gint64   cpel_render_overview_x_to_time (const CpelView *view, double width, double x);

/* Nice ruler step: the smallest 1/2/5 × 10^k ns step (>= 1 ns) whose ticks
 * are at least min_px apart over [t0,t1) across `pixels`. */
gint64   cpel_render_ruler_step (gint64 t0, gint64 t1, double pixels, double min_px);
/* A ruler label for time t (ns since the capture start), on a ruler of step
 * `step` whose visible times reach `t_max` in magnitude: the unit (ns, µs,
 * ms, s) follows t_max, the decimals follow the step ("12.3456 s"); a time
 * between steps is rounded to them.  Returns a newly allocated string. */
char    *cpel_render_format_tick (gint64 t, gint64 step, gint64 t_max);
/* The same for times of a kind: ticks (a clock of unknown rate) read
 * "850 ticks", "12.5 kticks", never as seconds. */
char    *cpel_render_format_tick_kind (gint64 t, gint64 step, gint64 t_max, CpelTimeKind kind);
/* A ruler label on a capture's clock (CpelView.clock): the clock's time
 * `abs_ns` with the decimals of the step (cut, as `perf script` does):
 * seconds "2584.3614 s"; the wall clock as the time of day in UTC
 * "16:40:01.123".  Returns a newly allocated string. */
char    *cpel_render_format_clock_tick (CpelClockKind kind, gint64 abs_ns, gint64 step);
/* The decimals of a second a step of `step` ns needs (0-9). */
guint    cpel_render_clock_decimals (gint64 step);
/* An axis label (the histogram's decades): in the largest unit the value
 * reaches, with no needless decimals: "10 µs", "2.5 ms", "100 ns", "1 s"
 * (ticks: "10 kticks").  Returns a newly allocated string. */
char    *cpel_render_format_axis (gint64 t, CpelTimeKind kind);
/* The view's span as the ruler's corner shows it: t1 - t0, but a window
 * ending just past the capture's last event (t1 = duration + 1, what fitting
 * the whole capture gives) reads up to that event, as `cpel info` reads the
 * capture's span.  Returns a newly allocated string. */
char    *cpel_render_format_span (const CpelView *view, CpelTimeKind kind);

/* Export the view as PNG / SVG / PDF (by `path` suffix or explicit format)
 * atomically: temp file + rename; never overwrites unless `overwrite`. */
typedef enum { CPEL_EXPORT_PNG, CPEL_EXPORT_SVG, CPEL_EXPORT_PDF } CpelExportFormat;
/* width/height in logical px (PNG: times scale device px, scale in (0, 8];
 * at most CPEL_EXPORT_MAX_PNG_PIXELS device pixels in all, 400 MB drawn).
 * `path` "-" is standard output; a path that is a device, FIFO or folder is
 * refused (G_IO_ERROR_NOT_REGULAR_FILE), a symbolic link written through.
 * Errors: G_IO_ERROR_EXISTS (path exists and !overwrite),
 * G_IO_ERROR_INVALID_ARGUMENT (size), other G_IO_ERRORs from writing; the
 * temp file is removed and an existing file left intact on any failure. */
#define CPEL_EXPORT_MAX_PNG_PIXELS 100000000
gboolean cpel_render_export     (const CpelView *view, CpelExportFormat format,
                                 double width, double height, double scale,
                                 const char *path, gboolean overwrite, GError **error);
/* The same for anything drawn by `draw` (a compare view, a histogram). */
typedef void (*CpelRenderFunc) (cairo_t *cr, double width, double height, gpointer data);
gboolean cpel_render_export_with (CpelRenderFunc draw, gpointer data, CpelExportFormat format,
                                  double width, double height, double scale,
                                  const char *path, gboolean overwrite, GError **error);
/* Format from the path's suffix (.png, .svg, .pdf, any case); FALSE if none. */
gboolean cpel_render_export_format_for_path (const char *path, CpelExportFormat *format);

/* ---- A capture drawn into a file, headless (cpel-export.c) ----------------
 *
 * `cpel export` and `cpelview --export-png` both draw through
 * cpel_render_export_file (): one set of options, one default size — 1920
 * logical pixels wide, as tall as every track needs (ruler, then one row
 * per track) but at most 8192. */
#define CPEL_EXPORT_DEFAULT_WIDTH   1920
#define CPEL_EXPORT_MAX_AUTO_HEIGHT 8192

typedef struct
{
  CpelExportFormat format;
  int              width;       /* logical px; 0: CPEL_EXPORT_DEFAULT_WIDTH */
  int              height;      /* logical px; 0: every track, at most
                                 * CPEL_EXPORT_MAX_AUTO_HEIGHT */
  double           scale;       /* PNG: device px per logical px; 0: 1 */
  gboolean         has_from;    /* the view starts at `from` (else at the first event) */
  gboolean         has_to;      /* the view ends at `to` (else after the last event) */
  gint64           from, to;
  gboolean         dark;
  CpelColorMode    color_mode;
  gboolean         summary;
  gboolean         overwrite;
  const guint     *rows;        /* the tracks shown, in order (NULL: every track) */
  guint            n_rows;
  /* Compare: `file_b` drawn under `file`, both from their first event. */
  CpelFile        *file_b;
  const char      *name_a, *name_b;
  const guint     *rows_b;      /* B's tracks (NULL: every track) */
  guint            n_rows_b;
  gboolean         paired;      /* tracks of the same label next to each other */
  /* Spans and states drawn (not comparing): derived from `file` by these
   * rules (NULL: none). */
  CpelSpanRules   *span_rules;
  /* The ruler on the capture's own clock (CpelView.clock; not comparing). */
  gboolean         capture_clock;
  /* Label formats of `file` (not comparing); NULL: the file's defaults. */
  CpelLabels      *labels;
} CpelExportOptions;

/* Defaults: PNG, CPEL_EXPORT_DEFAULT_WIDTH, automatic height, scale 1,
 * the whole capture, light colours by code. */
void     cpel_export_options_init (CpelExportOptions *options);
/* Draws `file` (and options->file_b) into `path`, written atomically.
 * Errors: G_IO_ERROR_INVALID_ARGUMENT (the view's end not after its start,
 * a size out of range), G_IO_ERROR_EXISTS (without options->overwrite),
 * other G_IO_ERRORs from writing. */
gboolean cpel_render_export_file  (CpelFile                *file,
                                   const CpelExportOptions *options,
                                   const char              *path,
                                   GError                 **error);

/* ---- Two captures compared (cpel-compare.c) -------------------------------
 *
 *   +-------------+---------------------------------------------+
 *   |             | one ruler (A's view; reads time - a.ruler_origin)
 *   +-------------+---------------------------------------------+
 *   | A  name · events · span                      (header)     |
 *   | A's labels  | A's rows (a.scroll_y)                        |
 *   +-------------+---------------------------------------------+
 *   | B  name · events · span                      (header)     |
 *   | B's labels  | B's rows (b.scroll_y)                        |
 *   +-------------+---------------------------------------------+
 *
 * The panes share the height below the ruler half and half.  B's times are
 * A's plus offset_b (0: both from their first event), so an event of B at
 * time tb is drawn where A's time tb - offset_b is.  Paired: one list
 * under both headers (scrolled by a.scroll_y): each of A's rows directly
 * above B's row of the same label, then the rows of A and then of B that
 * have no partner; a mark in the label column tells A (accent) from B.
 * The measure band and the cursor (from A's view) cross both panes.
 * A's clock (a.clock, clock_origin: A's capture clock) makes the ruler read
 * A's clock at A's times (the aligned point ignored), B's grid on its ticks;
 * each side's labels are its view's (a.labels, b.labels). */
typedef enum
{
  CPEL_COMPARE_A,
  CPEL_COMPARE_B,
} CpelCompareSide;

typedef struct
{
  CpelView     a;              /* t0/t1, ruler_origin, measure, cursor, sizes: A's */
  CpelView     b;              /* rows, hidden types, selection, matches, scroll_y: B's;
                                * t0, t1, ruler_origin and sizes follow A's (sync) */
  gint64       offset_b;       /* B's time = A's time + offset_b */
  const char  *name_a;         /* header text (e.g. the file names); NULL = "A" / "B" */
  const char  *name_b;
  gboolean     paired;
  double       header_height;  /* default 22 */
} CpelCompareView;

/* Both whole, relative alignment, default sizes; the range spans the longer. */
void     cpel_compare_view_init (CpelCompareView *cv, CpelFile *a, CpelFile *b,
                                 const CpelPalette *palette);
/* Copies A's range, origin and sizes to B (offset applied).  The render and
 * geometry calls below do it on a copy: call it to read B's range. */
void     cpel_compare_view_sync (CpelCompareView *cv);

typedef struct
{
  CpelCompareSide side;
  guint           row;      /* index into that side's rows */
  guint           slot;     /* its track slot */
  double          y;        /* top in the drawing area (may be off screen) */
} CpelCompareRow;

/* Where rows are: pane p's top (below the ruler) and height; the row under
 * y (FALSE: ruler, a header, or no row). */
void     cpel_compare_view_pane (const CpelCompareView *cv, double height, CpelCompareSide side,
                                 double *top, double *pane_height);
gboolean cpel_compare_view_row_at_y (const CpelCompareView *cv, double height, double y,
                                     CpelCompareRow *row);
/* The nearest event to (x, y) within `radius` px in the row under y, as
 * drawn (the view synced): its side, slot and index. */
gboolean cpel_compare_view_hit_test (const CpelCompareView *cv, double width, double height,
                                     double x, double y, double radius,
                                     CpelCompareSide *side, guint *slot, guint64 *index);
/* The rows in drawing order (CpelCompareRow), for paired mode or not. */
GArray  *cpel_compare_view_rows (const CpelCompareView *cv, double height);
/* Height of the rows of a pane (paired: of the one list), for scrolling. */
double   cpel_compare_view_get_content_height (const CpelCompareView *cv, CpelCompareSide side);

void     cpel_render_compare    (cairo_t *cr, double width, double height,
                                 const CpelCompareView *cv);
gboolean cpel_render_compare_export (const CpelCompareView *cv, CpelExportFormat format,
                                     double width, double height, double scale,
                                     const char *path, gboolean overwrite, GError **error);

/* The compare view's overview strip: both captures on one axis of A's time,
 * from the earlier capture's start to the later one's end (the extent), A's
 * density in the upper half and B's (moved by the offset) in the lower,
 * each with its side's mark; the view's window (A's t0, t1) and cursor
 * across both.  Layers as cpel_render_overview_layers (no MATCHES). */
void     cpel_compare_view_overview_extent (const CpelCompareView *cv, gint64 *t0, gint64 *t1);
void     cpel_render_compare_overview_layers (cairo_t *cr, double width, double height,
                                              const CpelCompareView *cv,
                                              CpelOverviewLayer layers);
/* What the BASE layer depends on besides the size and palette (0 only by
 * chance). */
guint64  cpel_render_compare_overview_shown_hash (const CpelCompareView *cv);
double   cpel_render_compare_overview_time_to_x (const CpelCompareView *cv, double width,
                                                 gint64 t);
gint64   cpel_render_compare_overview_x_to_time (const CpelCompareView *cv, double width,
                                                 double x);

/* Two interval distributions overlaid (CPEL_STATS_HISTOGRAM_BINS bins each,
 * either may be NULL), as the share of each one's intervals per bin over a
 * log time axis; A in the accent colour, B in the highlight colour, a
 * legend naming them.  `title` above (may be NULL). */
void     cpel_render_histogram  (cairo_t *cr, double width, double height,
                                 const CpelPalette *palette, const char *title,
                                 const guint64 *hist_a, const char *name_a,
                                 const guint64 *hist_b, const char *name_b);

G_END_DECLS
