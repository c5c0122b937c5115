/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-stats-window-export.c — the Statistics window's Copy and Save
 *
 * "Copy as Text" and "Save as CSV…" use the core's text and CSV forms of
 * the page shown (statistics or, while comparing, the diff); "Save
 * Histogram…" draws the Compare page's selected row as a PNG.  Every Save
 * goes through one file chooser (at most one open) whose response writes
 * the file with the page's writer and says how it went in a toast.
 */
#include "cpel-stats-window-private.h"

#include <string.h>

#include <glib/gi18n.h>

static void
show_toast (CpelStatsWindow *self,
            const char      *message)
{
  cpel_toaster_show_full (self->toaster, message, 3, NULL, NULL, NULL);
}

char *
cpel_stats_window_get_text (CpelStatsWindow *self)
{
  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), NULL);

  switch (_cpel_stats_window_current_compare (self))
    {
    case CPEL_DIFF_BY_EVENTS:
      return cpel_diff_to_text (self->diff, CPEL_DIFF_BY_EVENTS, self->name_a, self->name_b);
    case CPEL_DIFF_BY_TRACKS:
      return cpel_diff_to_text (self->diff, CPEL_DIFF_BY_TRACKS, self->name_a, self->name_b);
    default:
      break;
    }
  {
    const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

    /* The Spans pages: their tables, as `cpel spans` prints them. */
    if (self->span_summary != NULL && g_strcmp0 (page, "spans") == 0)
      return cpel_span_summary_to_text (self->span_summary, CPEL_SPAN_TABLE_SPANS);
    if (self->span_summary != NULL && g_strcmp0 (page, "states") == 0)
      return cpel_span_summary_to_text (self->span_summary, CPEL_SPAN_TABLE_STATES);
    /* The Functions page: as `cpel top` prints it. */
    if (self->top != NULL && g_strcmp0 (page, "functions") == 0)
      return cpel_top_to_text (self->top, 0);
  }
  return self->stats != NULL ? cpel_stats_to_text (self->stats) : NULL;
}

void
_cpel_stats_window_copy_clicked (CpelStatsWindow *self)
{
  g_autofree char *text = cpel_stats_window_get_text (self);

  if (text == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  show_toast (self, _("Statistics copied"));
}

void
_cpel_stats_window_action_copy (GtkWidget  *widget,
                                const char *action_name,
                                GVariant   *parameter)
{
  _cpel_stats_window_copy_clicked (CPEL_STATS_WINDOW (widget));
}

/* ------------------------------------------------------------------------ */
/* Writing files                                                              */

/* Written to a temporary file renamed over the target: a failed write
 * leaves any existing file as it was. */
static gboolean
replace_contents (GFile       *file,
                  const char  *data,
                  gsize        length,
                  GError     **error)
{
  return g_file_replace_contents (file, data, length, NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

gboolean
cpel_stats_window_save_csv (CpelStatsWindow   *self,
                            GFile             *file,
                            CpelStatsCsvTable  table,
                            GError           **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->stats == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No statistics to save yet"));
      return FALSE;
    }
  csv = cpel_stats_to_csv (self->stats, table);
  return replace_contents (file, csv, strlen (csv), error);
}

gboolean
cpel_stats_window_save_span_csv (CpelStatsWindow  *self,
                                 GFile            *file,
                                 CpelSpanTable     table,
                                 GError          **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->span_summary == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No statistics to save yet"));
      return FALSE;
    }
  csv = cpel_span_summary_to_csv (self->span_summary, table);
  return replace_contents (file, csv, strlen (csv), error);
}

gboolean
cpel_stats_window_save_compare_csv (CpelStatsWindow  *self,
                                    GFile            *file,
                                    CpelDiffBy        by,
                                    GError          **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->diff == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No comparison to save yet"));
      return FALSE;
    }
  csv = cpel_diff_to_csv (self->diff, by);
  return replace_contents (file, csv, strlen (csv), error);
}

static cairo_status_t
append_png (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
cpel_stats_window_save_histogram (CpelStatsWindow  *self,
                                  GFile            *file,
                                  int               width,
                                  int               height,
                                  GError          **error)
{
  const CpelDiffRow *row;
  cairo_surface_t *surface;
  cairo_t *cr;
  CpelPalette palette;
  g_autoptr(GByteArray) png = NULL;
  cairo_status_t status;

  g_return_val_if_fail (CPEL_IS_STATS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  row = _cpel_stats_window_selected_diff_row (self);
  if (row == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No histogram to save yet"));
      return FALSE;
    }
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cr = cairo_create (surface);
  cpel_palette_init_light (&palette);
  _cpel_stats_window_render_histogram (self, row, cr, width, height, &palette);
  cairo_destroy (cr);
  png = g_byte_array_new ();
  status = cairo_surface_write_to_png_stream (surface, append_png, png);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("Could not draw the histogram: %s"),
                   cairo_status_to_string (status));
      return FALSE;
    }
  return replace_contents (file, (const char *) png->data, png->len, error);
}

/* ------------------------------------------------------------------------ */
/* The file chooser                                                           */

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     CpelStatsWindow *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *display = g_filename_display_name (name != NULL ? name : "");
      g_autofree char *message = NULL;

      if (self->chooser_save (self, GTK_FILE_CHOOSER (dialog), file, &error))
        /* TRANSLATORS: %s is a file name */
        message = g_strdup_printf (_("Saved “%s”"), display);
      else
        /* TRANSLATORS: %s is a file name, then the reason */
        message = g_strdup_printf (_("Could not save “%s”: %s"), display, error->message);
      show_toast (self, message);
    }
  g_clear_object (&self->chooser);
}

/* A new Save chooser (instead of one still open) whose Save writes the
 * chosen file with `save`; shown by the caller once it has its choices.
 * `csv`: with a filter for CSV files. */
static GtkFileChooser *
new_chooser (CpelStatsWindow   *self,
             const char        *title,
             const char        *file_name,
             gboolean           csv,
             CpelStatsSaveFunc  save)
{
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (csv)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _("CSV Files"));
      gtk_file_filter_add_mime_type (filter, "text/csv");
      gtk_file_filter_add_suffix (filter, "csv");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), file_name);
  self->chooser_save = save;
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  return GTK_FILE_CHOOSER (self->chooser);
}

static gboolean
save_table (CpelStatsWindow  *self,
            GtkFileChooser   *chooser,
            GFile            *file,
            GError          **error)
{
  const char *choice = gtk_file_chooser_get_choice (chooser, "table");

  return cpel_stats_window_save_csv (self, file,
                                     g_strcmp0 (choice, "tracks") == 0 ? CPEL_STATS_CSV_TRACKS
                                                                       : CPEL_STATS_CSV_CODES,
                                     error);
}

static gboolean
save_spans (CpelStatsWindow  *self,
            GtkFileChooser   *chooser,
            GFile            *file,
            GError          **error)
{
  return cpel_stats_window_save_span_csv (self, file, self->chooser_span_table, error);
}

static gboolean
save_functions (CpelStatsWindow  *self,
                GtkFileChooser   *chooser,
                GFile            *file,
                GError          **error)
{
  g_autofree char *csv = NULL;

  if (self->top == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No statistics to save yet"));
      return FALSE;
    }
  csv = cpel_top_to_csv (self->top, 0);
  return replace_contents (file, csv, strlen (csv), error);
}

static gboolean
save_compare (CpelStatsWindow  *self,
              GtkFileChooser   *chooser,
              GFile            *file,
              GError          **error)
{
  return cpel_stats_window_save_compare_csv (self, file, self->chooser_by, error);
}

static gboolean
save_histogram (CpelStatsWindow  *self,
                GtkFileChooser   *chooser,
                GFile            *file,
                GError          **error)
{
  return cpel_stats_window_save_histogram (self, file, 1200, 600, error);
}

/* "Save as CSV…": the table shown (either statistics table, offered as a
 * choice, or a Compare page's). */
void
_cpel_stats_window_save_clicked (CpelStatsWindow *self)
{
  int compare = _cpel_stats_window_current_compare (self);
  GtkFileChooser *chooser;

  if (self->stats == NULL)
    return;
  if (compare >= 0)
    {
      chooser = new_chooser (self, _("Save Comparison as CSV"),
                             compare == CPEL_DIFF_BY_TRACKS ? "compare-tracks.csv" : "compare-events.csv",
                             TRUE, save_compare);
      self->chooser_by = (CpelDiffBy) compare;
    }
  else if (self->span_summary != NULL
           && (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "spans") == 0
               || g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack),
                             "states") == 0))
    {
      /* The Spans pages: their table, as `cpel spans --csv` writes it. */
      gboolean states = g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack),
                                   "states") == 0;

      chooser = new_chooser (self, _("Save Spans as CSV"),
                             states ? "thread-states.csv" : "spans.csv", TRUE, save_spans);
      self->chooser_span_table = states ? CPEL_SPAN_TABLE_STATES : CPEL_SPAN_TABLE_SPANS;
    }
  else if (self->top != NULL
           && g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack),
                         "functions") == 0)
    /* TRANSLATORS: file chooser title; the file name suggested is functions.csv */
    chooser = new_chooser (self, _("Save Functions as CSV"), "functions.csv", TRUE,
                           save_functions);
  else if (self->chooser != NULL && self->chooser_save == save_table)
    chooser = GTK_FILE_CHOOSER (self->chooser);   /* still open: to the front */
  else
    {
      gboolean tracks = g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "tracks") == 0;
      /* The table shown comes first: GTK 4.8's fallback dialog starts on
       * the first option whatever gtk_file_chooser_set_choice() says. */
      const char *ids[] = { tracks ? "tracks" : "codes", tracks ? "codes" : "tracks", NULL };
      const char *labels[] = { tracks ? _("Tracks") : _("Event codes"),
                               tracks ? _("Event codes") : _("Tracks"), NULL };

      chooser = new_chooser (self, _("Save Statistics as CSV"),
                             tracks ? "statistics-tracks.csv" : "statistics-codes.csv", TRUE, save_table);
      gtk_file_chooser_add_choice (chooser, "table", _("Table"), ids, labels);
      gtk_file_chooser_set_choice (chooser, "table", ids[0]);
    }
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_cpel_stats_window_save_histogram_clicked (CpelStatsWindow *self)
{
  const CpelDiffRow *row = _cpel_stats_window_selected_diff_row (self);
  g_autofree char *name = NULL;

  if (row == NULL || self->chooser != NULL)
    return;
  /* TRANSLATORS: file name suggested for a saved histogram; %s is an event name */
  name = g_strdup_printf (_("intervals-%s.png"), row->name);
  g_strdelimit (name, "/\\", '_');
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (new_chooser (self, _("Save Histogram as PNG"), name,
                                                          FALSE, save_histogram)));
}
