/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-print.c — printing the current view
 *
 * The view is copied when printing starts (rows, hidden types, matches are
 * owned by the job), so the timeline may change while the dialog is open.
 * One page, landscape by default; the page is drawn by cpel_render_view,
 * or, while the window compares two captures, by cpel_render_compare (both
 * panes, as on screen).
 */
#include "cpel-print.h"

#include <glib/gi18n.h>

#include "cpel-compare-pane.h"
#include <pango/pangocairo.h>

/* Space between the header line and the view, in page units (points). */
#define HEADER_GAP 8.0

typedef struct
{
  CpelView          view;
  CpelPalette       palette;
  CpelFile         *file;
  guint            *rows;
  guint8           *hidden;
  CpelSearchResult *matches;
  CpelLabels       *labels;
  CpelSpans        *spans;      /* drawn as on screen (a reference) */
  CpelSpanFilter   *span_filter;
  double            width;
  double            height;
  char             *header;
  /* comparing: both panes (A's parts above are the compare view's A) */
  gboolean          compare;
  CpelCompareView   cv;
  CpelFile         *file_b;
  guint            *rows_b;
  guint8           *hidden_b;
  CpelSearchResult *matches_b;
  CpelSpans        *spans_b;
  char             *name_a;
  char             *name_b;
} PrintJob;

static void
print_job_free (PrintJob *job)
{
  g_clear_object (&job->file);
  g_free (job->rows);
  g_free (job->hidden);
  g_clear_pointer (&job->matches, cpel_search_result_unref);
  g_clear_pointer (&job->labels, cpel_labels_unref);
  g_clear_pointer (&job->spans, cpel_spans_free);
  g_clear_pointer (&job->span_filter, cpel_span_filter_free);
  g_free (job->header);
  g_clear_object (&job->file_b);
  g_free (job->rows_b);
  g_free (job->hidden_b);
  g_clear_pointer (&job->matches_b, cpel_search_result_unref);
  g_clear_pointer (&job->spans_b, cpel_spans_free);
  g_free (job->name_a);
  g_free (job->name_b);
  g_free (job);
}

/* The header line and the frame the view is drawn in: FALSE when no room
 * is left for it; else the cairo_t is translated, clipped and scaled, and
 * *width, *height are the laid-out size (cairo_restore after drawing). */
static gboolean
begin_page (cairo_t           *cr,
            double             page_width,
            double             page_height,
            double             view_width,
            double             view_height,
            const char        *header,
            const CpelPalette *palette_in,
            double            *width,
            double            *height)
{
  const CpelPalette palette = *palette_in;
  PangoLayout *layout;
  PangoFontDescription *font;
  int text_width, text_height;
  double top = 0, avail_height, scale;

  view_width = MAX (view_width, 1.0);
  view_height = MAX (view_height, 1.0);
  cairo_save (cr);

  if (header != NULL && *header != '\0')
    {
      layout = pango_cairo_create_layout (cr);
      font = pango_font_description_from_string ("Sans Bold 10");
      pango_layout_set_font_description (layout, font);
      pango_font_description_free (font);
      pango_layout_set_text (layout, header, -1);
      pango_layout_set_width (layout, (int) (page_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      cairo_set_source_rgba (cr, palette.foreground.r, palette.foreground.g,
                             palette.foreground.b, palette.foreground.a);
      cairo_move_to (cr, 0, 0);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);

      top = text_height + HEADER_GAP / 2;
      cairo_set_source_rgba (cr, palette.grid.r, palette.grid.g, palette.grid.b, 1.0);
      cairo_set_line_width (cr, 0.5);
      cairo_move_to (cr, 0, top);
      cairo_line_to (cr, page_width, top);
      cairo_stroke (cr);
      top += HEADER_GAP / 2;
    }

  avail_height = page_height - top;
  if (avail_height <= 1)
    {
      cairo_restore (cr);
      return FALSE;
    }

  /* Fit the on-screen layout to the page, then let the laid-out area grow
   * to the page's shape (more rows or a wider time axis, same range). */
  scale = MIN (page_width / view_width, avail_height / view_height);
  cairo_translate (cr, 0, top);
  cairo_rectangle (cr, 0, 0, page_width, avail_height);
  cairo_clip (cr);
  cairo_scale (cr, scale, scale);
  *width = page_width / scale;
  *height = avail_height / scale;
  return TRUE;
}

void
cpel_print_draw_page (cairo_t        *cr,
                      double          page_width,
                      double          page_height,
                      const CpelView *view,
                      double          view_width,
                      double          view_height,
                      const char     *header)
{
  CpelPalette palette;
  CpelView page_view;
  double width, height;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (view != NULL && view->file != NULL);
  g_return_if_fail (page_width > 0 && page_height > 0);

  cpel_palette_init_light (&palette);
  if (!begin_page (cr, page_width, page_height, view_width, view_height, header, &palette,
                   &width, &height))
    return;
  page_view = *view;
  page_view.palette = &palette;
  page_view.has_cursor = FALSE;
  cpel_render_view (cr, width, height, &page_view);
  cairo_restore (cr);
}

void
cpel_print_draw_compare_page (cairo_t               *cr,
                              double                 page_width,
                              double                 page_height,
                              const CpelCompareView *cv,
                              double                 view_width,
                              double                 view_height,
                              const char            *header)
{
  CpelPalette palette;
  CpelCompareView page_cv;
  double width, height;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (cv != NULL && cv->a.file != NULL && cv->b.file != NULL);
  g_return_if_fail (page_width > 0 && page_height > 0);

  cpel_palette_init_light (&palette);
  if (!begin_page (cr, page_width, page_height, view_width, view_height, header, &palette,
                   &width, &height))
    return;
  page_cv = *cv;
  page_cv.a.palette = &palette;
  page_cv.a.has_cursor = FALSE;
  cpel_compare_view_sync (&page_cv);
  cpel_render_compare (cr, width, height, &page_cv);
  cairo_restore (cr);
}

static char *
display_name (CpelWindow *window)
{
  GFile *location = cpel_window_get_location (window);
  CpelFile *file = cpel_window_get_file (window);
  g_autofree char *basename = NULL;

  if (location != NULL)
    basename = g_file_get_basename (location);
  else if (file != NULL && cpel_file_get_path (file) != NULL)
    basename = g_path_get_basename (cpel_file_get_path (file));
  if (basename == NULL)
    return g_strdup (_("Untitled"));
  return g_filename_display_name (basename);
}

char *
cpel_print_header (CpelWindow *window)
{
  g_autofree char *name = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *span = NULL;
  gint64 t0, t1;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), NULL);

  name = display_name (window);
  cpel_timeline_get_range (cpel_window_get_timeline (window), &t0, &t1);
  if (cpel_window_is_comparing (window))
    {
      const CpelCompareView *cv =
        cpel_compare_pane_get_view (CPEL_COMPARE_PANE (cpel_window_get_compare_pane (window)));

      g_free (name);
      /* TRANSLATORS: printed page header while comparing: "a.cpel — b.cpel" */
      name = g_strdup_printf (_("%s — %s"), cv->name_a ? cv->name_a : "A", cv->name_b ? cv->name_b : "B");
      t0 = cv->a.t0;
      t1 = cv->a.t1;
    }
  a = cpel_time_format (t0);
  b = cpel_time_format (t1);
  span = cpel_time_format (t1 - t0);
  /* TRANSLATORS: printed page header: file name — start – end (span) */
  return g_strdup_printf (_("%s — %s – %s (%s)"), name, a, b, span);
}

static PrintJob *
print_job_new (CpelWindow *window)
{
  CpelTimeline *timeline = cpel_window_get_timeline (window);
  const CpelView *current = cpel_timeline_get_view (timeline);
  PrintJob *job;

  if (current == NULL || current->file == NULL)
    return NULL;

  job = g_new0 (PrintJob, 1);
  job->view = *current;
  job->file = g_object_ref (current->file);
  if (current->rows != NULL)
    job->rows = g_memdup2 (current->rows, sizeof (guint) * MAX (current->n_rows, 1));
  if (current->hidden_types != NULL)
    job->hidden = g_memdup2 (current->hidden_types, MAX (cpel_file_get_n_types (job->file), 1));
  if (current->matches != NULL)
    job->matches = cpel_search_result_ref (current->matches);
  job->view.file = job->file;
  job->view.rows = job->rows;
  job->view.hidden_types = job->hidden;
  job->view.matches = job->matches;
  if (current->labels != NULL)
    job->labels = cpel_labels_ref (current->labels);
  job->view.labels = job->labels;
  job->view.overview = NULL;
  /* The spans, as on screen: the job keeps them (the session may drop
   * its own while the dialog is open: another file, other rules). */
  if (current->spans != NULL)
    job->spans = cpel_spans_ref (current->spans);
  job->view.spans = job->spans;
  if (current->span_filter != NULL)
    job->span_filter = cpel_span_filter_copy (current->span_filter);
  job->view.span_filter = job->span_filter;
  cpel_palette_init_light (&job->palette);
  job->view.palette = &job->palette;

  job->width = gtk_widget_get_width (GTK_WIDGET (timeline));
  job->height = gtk_widget_get_height (GTK_WIDGET (timeline));
  if (job->width < 1 || job->height < 1)
    {
      job->width = 1280;
      job->height = 720;
    }
  job->header = cpel_print_header (window);

  if (cpel_window_is_comparing (window))
    {
      GtkWidget *pane = cpel_window_get_compare_pane (window);
      const CpelCompareView *cv = cpel_compare_pane_get_view (CPEL_COMPARE_PANE (pane));
      CpelView *a = &job->cv.a, *b = &job->cv.b;

      job->compare = TRUE;
      job->cv = *cv;
      /* A's parts: the job's own copies (replacing the timeline's) */
      g_set_object (&job->file, cv->a.file);
      g_clear_pointer (&job->rows, g_free);
      g_clear_pointer (&job->hidden, g_free);
      g_clear_pointer (&job->matches, cpel_search_result_unref);
      if (cv->a.rows != NULL)
        job->rows = g_memdup2 (cv->a.rows, sizeof (guint) * MAX (cv->a.n_rows, 1));
      if (cv->a.hidden_types != NULL)
        job->hidden = g_memdup2 (cv->a.hidden_types, MAX (cpel_file_get_n_types (job->file), 1));
      if (cv->a.matches != NULL)
        job->matches = cpel_search_result_ref (cv->a.matches);
      job->file_b = g_object_ref (cv->b.file);
      if (cv->b.rows != NULL)
        job->rows_b = g_memdup2 (cv->b.rows, sizeof (guint) * MAX (cv->b.n_rows, 1));
      if (cv->b.hidden_types != NULL)
        job->hidden_b = g_memdup2 (cv->b.hidden_types, MAX (cpel_file_get_n_types (job->file_b), 1));
      if (cv->b.matches != NULL)
        job->matches_b = cpel_search_result_ref (cv->b.matches);
      job->name_a = g_strdup (cv->name_a);
      job->name_b = g_strdup (cv->name_b);
      a->file = job->file;
      a->rows = job->rows;
      a->hidden_types = job->hidden;
      a->matches = job->matches;
      a->overview = NULL;
      a->palette = &job->palette;
      g_clear_pointer (&job->spans, cpel_spans_free);
      g_clear_pointer (&job->span_filter, cpel_span_filter_free);
      if (cv->a.spans != NULL)
        job->spans = cpel_spans_ref (cv->a.spans);
      a->spans = job->spans;
      if (cv->a.span_filter != NULL)
        job->span_filter = cpel_span_filter_copy (cv->a.span_filter);
      a->span_filter = job->span_filter;
      if (cv->b.spans != NULL)
        job->spans_b = cpel_spans_ref (cv->b.spans);
      b->spans = job->spans_b;
      b->span_filter = NULL;
      b->file = job->file_b;
      b->rows = job->rows_b;
      b->hidden_types = job->hidden_b;
      b->matches = job->matches_b;
      b->overview = NULL;
      job->cv.name_a = job->name_a;
      job->cv.name_b = job->name_b;
      job->width = gtk_widget_get_width (pane);
      job->height = gtk_widget_get_height (pane);
      if (job->width < 1 || job->height < 1)
        {
          job->width = 1280;
          job->height = 720;
        }
    }
  return job;
}

static void
on_draw_page (GtkPrintOperation *operation,
              GtkPrintContext   *context,
              int                page_nr,
              PrintJob          *job)
{
  if (job->compare)
    cpel_print_draw_compare_page (gtk_print_context_get_cairo_context (context),
                                  gtk_print_context_get_width (context),
                                  gtk_print_context_get_height (context),
                                  &job->cv, job->width, job->height, job->header);
  else
    cpel_print_draw_page (gtk_print_context_get_cairo_context (context),
                          gtk_print_context_get_width (context),
                          gtk_print_context_get_height (context),
                          &job->view, job->width, job->height, job->header);
}

gboolean
cpel_print_draw_window (CpelWindow *window,
                        cairo_t    *cr,
                        double      page_width,
                        double      page_height)
{
  PrintJob *job;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  g_return_val_if_fail (page_width > 0 && page_height > 0, FALSE);

  job = print_job_new (window);
  if (job == NULL)
    return FALSE;
  if (job->compare)
    cpel_print_draw_compare_page (cr, page_width, page_height, &job->cv, job->width,
                                  job->height, job->header);
  else
    cpel_print_draw_page (cr, page_width, page_height, &job->view, job->width, job->height,
                          job->header);
  print_job_free (job);
  return TRUE;
}

static void
on_done (GtkPrintOperation       *operation,
         GtkPrintOperationResult  result,
         CpelWindow              *window)
{
  if (result == GTK_PRINT_OPERATION_RESULT_ERROR)
    {
      g_autoptr(GError) error = NULL;
      AdwMessageDialog *dialog;

      gtk_print_operation_get_error (operation, &error);
      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (window), _("Could Not Print"),
                                                           error != NULL ? error->message : NULL));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
    }
  g_object_unref (operation);
}

gboolean
cpel_print_window (CpelWindow  *window,
                   const char  *pdf_path,
                   GError     **error)
{
  GtkPrintOperation *operation;
  g_autoptr(GtkPageSetup) setup = NULL;
  GtkPrintOperationResult result;
  g_autofree char *name = NULL;
  PrintJob *job;

  g_return_val_if_fail (CPEL_IS_WINDOW (window), FALSE);

  job = print_job_new (window);
  if (job == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No file is open"));
      return FALSE;
    }

  operation = gtk_print_operation_new ();
  name = display_name (window);
  gtk_print_operation_set_job_name (operation, name);
  gtk_print_operation_set_n_pages (operation, 1);
  gtk_print_operation_set_unit (operation, GTK_UNIT_POINTS);
  gtk_print_operation_set_embed_page_setup (operation, TRUE);
  setup = gtk_page_setup_new ();
  gtk_page_setup_set_orientation (setup, GTK_PAGE_ORIENTATION_LANDSCAPE);
  gtk_print_operation_set_default_page_setup (operation, setup);
  g_signal_connect_data (operation, "draw-page", G_CALLBACK (on_draw_page), job,
                         (GClosureNotify) (void (*) (void)) print_job_free, 0);

  if (pdf_path != NULL)
    {
      gtk_print_operation_set_export_filename (operation, pdf_path);
      result = gtk_print_operation_run (operation, GTK_PRINT_OPERATION_ACTION_EXPORT, NULL, error);
      g_object_unref (operation);
      return result != GTK_PRINT_OPERATION_RESULT_ERROR;
    }

  gtk_print_operation_set_allow_async (operation, TRUE);
  g_signal_connect_object (operation, "done", G_CALLBACK (on_done), window, 0);
  result = gtk_print_operation_run (operation, GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG,
                                    GTK_WINDOW (window), error);
  if (result == GTK_PRINT_OPERATION_RESULT_ERROR)
    {
      g_object_unref (operation);
      return FALSE;
    }
  /* IN_PROGRESS: "done" releases the operation; otherwise it is over. */
  if (result != GTK_PRINT_OPERATION_RESULT_IN_PROGRESS)
    g_object_unref (operation);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
