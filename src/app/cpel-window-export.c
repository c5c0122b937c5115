/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-export.c — exporting the view as an image, and the Open and
 * Export choosers (they remember the last folder) */
#include "cpel-window-private.h"

#include <string.h>

#include "cpel-import.h"
#include "cpel-import-compressed.h"

#include <glib/gi18n.h>

#include "cpel-export-chooser.h"
#include "cpel-settings.h"

gboolean
cpel_window_export (CpelWindow  *self,
                    const char  *path,
                    double       scale,
                    gboolean     overwrite,
                    GError     **error)
{
  const CpelView *current;
  CpelView view;
  CpelExportFormat format;
  double width, height;

  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  current = cpel_timeline_get_view (self->timeline);
  if (current == NULL)
    {
      g_set_error_literal (error, CPEL_ERROR, CPEL_ERROR_INVALID, _("No file is open"));
      return FALSE;
    }
  if (!cpel_render_export_format_for_path (path, &format))
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("Unknown image format for “%s”: use .png, .svg or .pdf"), path);
      return FALSE;
    }

  /* Comparing: both panes, as the compare view shows them. */
  if (cpel_window_is_comparing (self))
    {
      GtkWidget *pane = GTK_WIDGET (self->compare.pane);
      CpelCompareView both = *cpel_compare_pane_get_view (self->compare.pane);

      both.a.has_cursor = FALSE;
      width = gtk_widget_get_width (pane);
      height = gtk_widget_get_height (pane);
      if (width < 1 || height < 1)
        {
          width = 1280;
          height = 720;
        }
      if (scale <= 0)
        scale = gtk_widget_get_scale_factor (pane);
      return cpel_render_compare_export (&both, format, width, height, scale, path, overwrite, error);
    }

  /* What is on screen, without the pointer's cursor line. */
  view = *current;
  view.has_cursor = FALSE;
  width = gtk_widget_get_width (GTK_WIDGET (self->timeline));
  height = gtk_widget_get_height (GTK_WIDGET (self->timeline));
  if (width < 1 || height < 1)
    {
      width = 1280;
      height = 720;
    }
  if (scale <= 0)
    scale = gtk_widget_get_scale_factor (GTK_WIDGET (self->timeline));
  return cpel_render_export (&view, format, width, height, scale, path, overwrite, error);
}

void
_cpel_window_export_and_report (CpelWindow *self,
                                const char *path,
                                double      scale,
                                gboolean    overwrite)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_filename_display_basename (path);
  g_autofree char *message = NULL;

  if (!cpel_window_export (self, path, scale, overwrite, &error))
    /* TRANSLATORS: %s is a file name, then the reason */
    message = g_strdup_printf (_("Could not export “%s”: %s"), name, error->message);
  else
    message = g_strdup_printf (_("View exported as “%s”"), name);
  cpel_toaster_show (self->toaster, message);
}

static void
remember_folder (CpelWindow *self,
                 GFile      *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *uri = parent != NULL ? g_file_get_uri (parent) : NULL;

  if (uri != NULL)
    cpel_settings_set_string (_cpel_window_get_settings (self), "last-folder", uri);
}

static void
set_initial_folder (CpelWindow     *self,
                    GtkFileChooser *chooser)
{
  g_autofree char *folder = cpel_settings_get_string (_cpel_window_get_settings (self), "last-folder");
  g_autoptr(GFile) dir = NULL;

  if (folder != NULL)
    {
      dir = g_file_new_for_uri (folder);
      if (g_file_query_file_type (dir, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_DIRECTORY)
        g_clear_object (&dir);
    }
  if (dir == NULL && self->location != NULL)
    dir = g_file_get_parent (self->location);
  if (dir != NULL)
    gtk_file_chooser_set_current_folder (chooser, dir, NULL);
}

/* The Export chooser's filters, in this order. */
static const char *const export_suffixes[] = { "png", "svg", "pdf" };

/* The suffix of the chosen filter (NULL: none chosen). */
static const char *
filter_suffix (GtkFileChooser *chooser,
               GtkFileFilter  *chosen)
{
  g_autoptr(GListModel) filters = gtk_file_chooser_get_filters (chooser);

  for (guint i = 0; chosen != NULL && i < g_list_model_get_n_items (filters)
                    && i < G_N_ELEMENTS (export_suffixes); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, i);

      if (filter == chosen)
        return export_suffixes[i];
    }
  return NULL;
}

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    CpelWindow      *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  const char *scale_choice;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    path = g_file_get_path (file);

  if (path != NULL)
    {
      GtkFileFilter *chosen = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
      const char *chosen_suffix = filter_suffix (GTK_FILE_CHOOSER (dialog), chosen);
      gboolean overwrite;
      char *resolved = cpel_export_dialog_path (path, self->export_suggested,
                                                chosen_suffix, &overwrite);

      remember_folder (self, file);
      g_free (path);
      path = resolved;
      scale_choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "scale");
      _cpel_window_export_and_report (self, path, scale_choice != NULL ? g_ascii_strtod (scale_choice, NULL) : 0,
                         overwrite);
    }
  g_clear_object (&self->chooser);
}

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *mime_type,
            const char     *suffix)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strconcat ("*.", suffix, NULL);

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_chooser_add_filter (chooser, filter);
}

void
_cpel_window_choose_export (CpelWindow *self)
{
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;
  g_autofree char *suggested = NULL;
  char *dot;

  if (self->file == NULL)
    return;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }

  name = self->location != NULL ? g_file_get_basename (self->location) : g_strdup ("capture");
  dot = strrchr (name, '.');
  base = dot != NULL && dot != name ? g_strndup (name, dot - name) : g_strdup (name);
  suggested = g_strdup_printf ("%s-view.png", base);

  self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (_("Export View"),
                                                                  GTK_WINDOW (self),
                                                                  GTK_FILE_CHOOSER_ACTION_SAVE,
                                                                  _("_Export"), _("_Cancel")));
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  add_filter (GTK_FILE_CHOOSER (self->chooser), _("PNG Image"), "image/png", export_suffixes[0]);
  add_filter (GTK_FILE_CHOOSER (self->chooser), _("SVG Image"), "image/svg+xml", export_suffixes[1]);
  add_filter (GTK_FILE_CHOOSER (self->chooser), _("PDF Document"), "application/pdf", export_suffixes[2]);
  set_initial_folder (self, GTK_FILE_CHOOSER (self->chooser));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested);
  g_free (self->export_suggested);
  self->export_suggested = g_strdup (suggested);
  {
    /* The image's pixel density (PNG); SVG and PDF are vector anyway.  The
     * screen's comes first (see cpel_export_scale_order). */
    static const char *all_ids[] = { "1", "2", "3", "4" };
    const char *all_labels[] = { C_("image scale", "1×"), C_("image scale", "2×"),
                                 C_("image scale", "3×"), C_("image scale", "4×") };
    const char *ids[5] = { NULL }, *labels[5] = { NULL };
    guint order[4];

    cpel_export_scale_order (gtk_widget_get_scale_factor (GTK_WIDGET (self->timeline)), order);
    for (guint i = 0; i < 4; i++)
      {
        ids[i] = all_ids[order[i] - 1];
        labels[i] = all_labels[order[i] - 1];
      }
    gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (self->chooser), "scale", _("Scale"), ids, labels);
    gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (self->chooser), "scale", ids[0]);
  }
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (self->chooser);
}

/* ------------------------------------------------------------------------ */
/* Opening                                                                    */

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  CpelWindow      *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      guint n = g_list_model_get_n_items (files);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          if (i == 0)
            remember_folder (self, file);
          cpel_window_open (self, file, 0);
        }
    }
  g_clear_object (&self->chooser);
}

/* A folder: a CTF trace (DPDK, LTTng: the folder holding `metadata`, or a
 * session folder holding several traces). */
static void
on_open_folder_response (GtkNativeDialog *dialog,
                         int              response,
                         CpelWindow      *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (folder != NULL)
        {
          remember_folder (self, folder);
          cpel_window_open (self, folder, 0);
        }
    }
  g_clear_object (&self->chooser);
}

void
_cpel_window_choose_open_folder (CpelWindow *self)
{
  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }
  self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (_("Open Trace Folder"),
                                                                  GTK_WINDOW (self),
                                                                  GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                                  _("_Open"), _("_Cancel")));
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  set_initial_folder (self, GTK_FILE_CHOOSER (self->chooser));
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_open_folder_response), self);
  gtk_native_dialog_show (self->chooser);
}

GListModel *
cpel_window_new_open_filters (void)
{
  GListStore *filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) supported = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all_filter = gtk_file_filter_new ();
  const CpelImporter * const *importers = cpel_importers ();

  /* "All supported event logs", then one filter per format of the importer
   * table (CPEL first), then all files.  A folder importer's patterns name
   * a file that opens its folder (CTF: the trace's "metadata"). */
  gtk_file_filter_set_name (supported, _("All supported event logs"));
  g_list_store_append (filters, supported);
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; importers[i] != NULL; i++)
      {
        const CpelImporter *imp = importers[i];
        g_autoptr(GtkFileFilter) filter = NULL;

        if ((pass == 0) != (strcmp (imp->id, "cpel") == 0))
          continue;
        if (imp->directory && (imp->patterns == NULL || imp->patterns[0] == NULL))
          continue;
        filter = gtk_file_filter_new ();
        gtk_file_filter_set_name (filter, _(imp->name));
        gtk_file_filter_add_mime_type (filter, imp->mime_type);
        gtk_file_filter_add_mime_type (supported, imp->mime_type);
        for (guint k = 0; imp->patterns && imp->patterns[k]; k++)
          {
            gtk_file_filter_add_pattern (filter, imp->patterns[k]);
            gtk_file_filter_add_pattern (supported, imp->patterns[k]);
          }
        g_list_store_append (filters, filter);
      }
  /* compressed captures (gzip, zstd) open directly: among the supported */
  for (guint k = 0; cpel_importer_compressed.patterns[k] != NULL; k++)
    gtk_file_filter_add_pattern (supported, cpel_importer_compressed.patterns[k]);
  gtk_file_filter_add_mime_type (supported, "application/gzip");
  gtk_file_filter_add_mime_type (supported, "application/zstd");
  gtk_file_filter_set_name (all_filter, _("All Files"));
  gtk_file_filter_add_pattern (all_filter, "*");
  g_list_store_append (filters, all_filter);
  return G_LIST_MODEL (filters);
}

void
_cpel_window_choose_open (CpelWindow *self)
{
  g_autoptr(GListModel) filters = NULL;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }

  self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (_("Open Event Log"),
                                                                  GTK_WINDOW (self),
                                                                  GTK_FILE_CHOOSER_ACTION_OPEN,
                                                                  _("_Open"), _("_Cancel")));
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);

  filters = cpel_window_new_open_filters ();
  for (guint i = 0; i < g_list_model_get_n_items (filters); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
      if (i == 0)
        gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (self->chooser), filter);
    }
  set_initial_folder (self, GTK_FILE_CHOOSER (self->chooser));

  g_signal_connect (self->chooser, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (self->chooser);
}
