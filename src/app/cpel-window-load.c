/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-load.c — opening a file in a worker, with progress */
#include "cpel-window-private.h"

#include <glib/gi18n.h>

#include "cpel-async.h"

static void
on_load_progress (double   fraction,
                  gpointer data)
{
  CpelWindow *self = data;

  gtk_progress_bar_set_fraction (self->loading_progress, fraction);
  gtk_progress_bar_set_fraction (self->load_progress, fraction);
}

static void
stop_loading (CpelWindow *self)
{
  if (self->load_relay != NULL)
    cpel_progress_relay_close (self->load_relay);
  g_clear_pointer (&self->load_relay, cpel_progress_relay_unref);
  g_clear_object (&self->load_cancellable);
  gtk_widget_set_visible (GTK_WIDGET (self->load_progress), FALSE);
  /* B read before A (cpelview --compare): the compare view A's new file
   * opened stays */
  if (!cpel_window_is_comparing (self))
    gtk_stack_set_visible_child_name (self->main_stack, _cpel_window_view_page (self));
  _cpel_window_update_actions (self);
  _cpel_window_notify_loading (self);
}

typedef struct
{
  CpelWindow   *self;
  GFile        *location;
  GCancellable *cancellable;
  guint64       clock_rate;   /* 0: the file's own */
  gboolean      replace;      /* the window's own file read again: shown here */
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_object_unref (data->self);
  g_object_unref (data->location);
  g_object_unref (data->cancellable);
  g_free (data);
}

/* A file name in a dialog heading: at most NAME_MAX_CHARS characters,
 * shortened in the middle ("version_ze…gist.cpel"), never hyphenated nor
 * broken where the heading wraps (markup). */
#define NAME_MAX_CHARS 21   /* with its quotes, one line of a 310 px heading */

char *
_cpel_window_heading_name_markup (const char *name)
{
  g_autofree char *shown = NULL;
  g_autofree char *escaped = NULL;
  glong n = g_utf8_strlen (name, -1);

  if (n > NAME_MAX_CHARS)
    {
      glong head = (NAME_MAX_CHARS - 1) / 2, tail = NAME_MAX_CHARS - 1 - head;
      g_autofree char *a = g_utf8_substring (name, 0, head);
      g_autofree char *b = g_utf8_substring (name, n - tail, n);

      shown = g_strconcat (a, "…", b, NULL);
    }
  else
    shown = g_strdup (name);
  /* U+2060 WORD JOINER between every two characters: the name and its
   * quotes wrap as one word, never after the ellipsis, at a space or a
   * hyphen inside the name. */
  {
    GString *joined = g_string_new (NULL);

    for (const char *c = shown; *c != '\0'; c = g_utf8_next_char (c))
      {
        if (c != shown)
          g_string_append (joined, "\u2060");
        g_string_append_len (joined, c, g_utf8_next_char (c) - c);
      }
    escaped = g_markup_escape_text (joined->str, -1);
    g_string_free (joined, TRUE);
  }
  return g_strdup_printf ("<span insert_hyphens=\"false\">“\u2060%s\u2060”</span>", escaped);
}

/* ------------------------------------------------------------------------ */
/* Asking for a clock rate                                                    */

typedef struct
{
  CpelWindow *self;
  GFile      *location;
  GtkEntry   *entry;
} ClockRateAsk;

static void
clock_rate_ask_free (gpointer data,
                     GClosure *closure)
{
  ClockRateAsk *ask = data;

  g_object_unref (ask->self);
  g_object_unref (ask->location);
  g_free (ask);
}

static void
on_clock_rate_changed (GtkEditable      *entry,
                       AdwMessageDialog *dialog)
{
  guint64 rate;
  gboolean ok = cpel_clock_rate_parse (gtk_editable_get_text (entry), &rate);

  adw_message_dialog_set_response_enabled (dialog, "open", ok);
  if (ok || *gtk_editable_get_text (entry) == '\0')
    gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
}

static void
on_clock_rate_response (AdwMessageDialog *dialog,
                        const char       *response,
                        ClockRateAsk     *ask)
{
  guint64 rate;

  if (g_strcmp0 (response, "open") == 0
      && cpel_clock_rate_parse (gtk_editable_get_text (GTK_EDITABLE (ask->entry)), &rate))
    cpel_window_open (ask->self, ask->location, rate);
}

/* Enter in the entry answers as the Open button does: the response, then
 * the dialog closes (adw_message_dialog_response() alone leaves it open). */
static void
on_clock_rate_activate (GtkEntry         *entry,
                        AdwMessageDialog *dialog)
{
  if (!adw_message_dialog_get_response_enabled (dialog, "open"))
    return;
  adw_message_dialog_response (dialog, "open");
  gtk_window_close (GTK_WINDOW (dialog));
}

void
cpel_window_ask_clock_rate (CpelWindow *self,
                            GFile      *location,
                            guint64     suggested)
{
  g_autofree char *heading = NULL;
  AdwMessageDialog *dialog;
  ClockRateAsk *ask;
  GtkWidget *entry;
  gboolean again;

  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (location));

  again = self->location != NULL && g_file_equal (self->location, location) && self->file != NULL;
  heading = again ? g_strdup (_("Read with Different Clock Rate"))
                  : g_strdup (_("Open with Clock Rate"));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, NULL));
  adw_message_dialog_set_body (dialog,
                               _("How many ticks per second the file's clock counts, e.g. "
                                 "2.6GHz, 1e9 or 1000000000. Every event section is read "
                                 "with it."));
  entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "2.6GHz");
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Clock rate"), -1);
  if (suggested > 0)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, suggested);

      gtk_editable_set_text (GTK_EDITABLE (entry), text);
    }
  adw_message_dialog_set_extra_child (dialog, entry);
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "open", again ? _("_Read") : _("_Open"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "open", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "open");
  adw_message_dialog_set_close_response (dialog, "cancel");
  on_clock_rate_changed (GTK_EDITABLE (entry), dialog);

  ask = g_new0 (ClockRateAsk, 1);
  ask->self = g_object_ref (self);
  ask->location = g_object_ref (location);
  ask->entry = GTK_ENTRY (entry);
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_clock_rate_changed), dialog, 0);
  g_signal_connect_object (entry, "activate", G_CALLBACK (on_clock_rate_activate), dialog, 0);
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_clock_rate_response), ask,
                         clock_rate_ask_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                     */

typedef struct
{
  CpelWindow *self;
  GFile      *location;
} ErrorResponse;

static void
error_response_free (gpointer data,
                     GClosure *closure)
{
  ErrorResponse *r = data;

  g_object_unref (r->self);
  g_object_unref (r->location);
  g_free (r);
}

static void
on_error_response (AdwMessageDialog *dialog,
                   const char       *response,
                   ErrorResponse    *r)
{
  if (g_strcmp0 (response, "clock-rate") == 0)
    cpel_window_ask_clock_rate (r->self, r->location, 0);
}

/* The heading names the file; the body's first sentence says plainly what
 * is wrong ("This is not a CPEL file."), the technical detail (with its
 * offset) follows as smaller, selectable text.  A file without a clock
 * rate can be opened with one given here. */
static char *
error_heading (const char *name,
               gboolean    compare)
{
  if (compare)
    /* TRANSLATORS: dialog heading; %s is a file name in quotes (markup) */
    return g_strdup_printf (_("Could Not Compare With %s"), name);
  /* TRANSLATORS: dialog heading; %s is a file name in quotes (markup) */
  return g_strdup_printf (_("Could Not Open %s"), name);
}

void
_cpel_window_show_load_error (CpelWindow *self,
                              GFile      *location,
                              GError     *error,
                              gboolean    compare)
{
  g_autofree char *name = _cpel_window_display_name (location);
  g_autofree char *name_markup = _cpel_window_heading_name_markup (name);
  g_autofree char *heading = NULL;
  const char *summary = cpel_error_get_summary (error);
  AdwMessageDialog *dialog;
  ErrorResponse *r;

  heading = error_heading (name_markup, compare);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), NULL, NULL));
  adw_message_dialog_set_heading_use_markup (dialog, TRUE);
  adw_message_dialog_set_heading (dialog, heading);
  /* The window's title (a window list's, a screen reader's) is the heading
   * as plain text: the whole name, without the joiners that keep it on one
   * line of the heading. */
  {
    g_autofree char *quoted = g_strdup_printf ("“%s”", name);
    g_autofree char *title = error_heading (quoted, compare);

    gtk_window_set_title (GTK_WINDOW (dialog), title);
  }
  if (summary != NULL)
    {
      GtkWidget *detail = gtk_label_new (error->message);

      adw_message_dialog_set_body (dialog, summary);
      gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (detail), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (detail), TRUE);
      gtk_label_set_justify (GTK_LABEL (detail), GTK_JUSTIFY_CENTER);
      gtk_label_set_max_width_chars (GTK_LABEL (detail), 40);
      gtk_widget_add_css_class (detail, "caption");
      gtk_widget_add_css_class (detail, "dim-label");
      gtk_widget_set_name (detail, "error-detail");
      adw_message_dialog_set_extra_child (dialog, detail);
    }
  else
    adw_message_dialog_set_body (dialog, error->message);
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  adw_message_dialog_set_default_response (dialog, "close");
  adw_message_dialog_set_close_response (dialog, "close");
  if (!compare && g_error_matches (error, CPEL_ERROR, CPEL_ERROR_CLOCK))
    {
      adw_message_dialog_add_response (dialog, "clock-rate", _("Open with _Clock Rate…"));
      adw_message_dialog_set_response_appearance (dialog, "clock-rate", ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (dialog, "clock-rate");
      r = g_new0 (ErrorResponse, 1);
      r->self = g_object_ref (self);
      r->location = g_object_ref (location);
      g_signal_connect_data (dialog, "response", G_CALLBACK (on_error_response), r,
                             error_response_free, 0);
    }
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  LoadData *data = user_data;
  CpelWindow *self = data->self;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelOverview) overview = NULL;
  g_autoptr(GError) error = NULL;
  gboolean current = data->cancellable == self->load_cancellable;

  file = cpel_load_file_finish (result, &overview, &error);
  if (file == NULL)
    {
      if (current)
        stop_loading (self);
      if (current && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _cpel_window_show_load_error (self, data->location, error, FALSE);
      load_data_free (data);
      return;
    }

  if (!current)
    {
      /* Superseded or the window went away. */
      load_data_free (data);
      return;
    }

  if (self->file == NULL || data->replace)
    {
      self->clock_rate = data->clock_rate;
      cpel_window_set_file (self, file, overview, data->location);
    }
  else
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      GtkWindow *window;

      if (!CPEL_IS_APPLICATION (app))
        {
          stop_loading (self);
          load_data_free (data);
          return;
        }
      window = cpel_application_new_window (CPEL_APPLICATION (app));
      CPEL_WINDOW (window)->clock_rate = data->clock_rate;
      cpel_window_set_file (CPEL_WINDOW (window), file, overview, data->location);
      gtk_window_present (window);
    }

  stop_loading (self);
  {
    GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

    if (CPEL_IS_APPLICATION (app))
      cpel_application_add_recent (CPEL_APPLICATION (app), data->location);
  }
  load_data_free (data);
}

void
cpel_window_open (CpelWindow *self,
                  GFile      *location,
                  guint64     clock_rate)
{
  g_autofree char *name = NULL;
  LoadData *data;

  g_return_if_fail (CPEL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (location));

  /* A newer request replaces a running one. */
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->load_relay != NULL)
    cpel_progress_relay_close (self->load_relay);
  g_clear_pointer (&self->load_relay, cpel_progress_relay_unref);
  g_clear_object (&self->load_cancellable);

  self->load_cancellable = g_cancellable_new ();
  self->load_relay = cpel_progress_relay_new (on_load_progress, self);
  gtk_progress_bar_set_fraction (self->loading_progress, 0);
  gtk_progress_bar_set_fraction (self->load_progress, 0);

  name = _cpel_window_display_name (location);
  if (self->file == NULL)
    {
      /* The description is markup; a file name may hold '&' or '<'. */
      g_autofree char *escaped = g_markup_escape_text (name, -1);

      adw_status_page_set_description (self->loading_page, escaped);
      gtk_stack_set_visible_child_name (self->main_stack, "loading");
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->load_progress), TRUE);
  _cpel_window_update_actions (self);
  _cpel_window_notify_loading (self);

  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->location = g_object_ref (location);
  data->cancellable = g_object_ref (self->load_cancellable);
  data->clock_rate = clock_rate;
  /* The window's own file read with another clock: replaced here. */
  data->replace = clock_rate != 0 && self->file != NULL && self->location != NULL
                  && g_file_equal (self->location, location);
  cpel_load_file_async (location, clock_rate, TRUE, self->load_cancellable,
                        self->load_relay,
                        on_loaded, data);
}

guint64
cpel_window_get_clock_rate (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), 0);
  return self->clock_rate;
}

gboolean
cpel_window_is_loading (CpelWindow *self)
{
  g_return_val_if_fail (CPEL_IS_WINDOW (self), FALSE);
  return self->load_cancellable != NULL;
}

void
_cpel_window_cancel_load (CpelWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
}

/* The window goes away: no load calls back into it. */
void
_cpel_window_load_dispose (CpelWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->load_relay != NULL)
    cpel_progress_relay_close (self->load_relay);
  g_clear_pointer (&self->load_relay, cpel_progress_relay_unref);
  g_clear_object (&self->load_cancellable);
  if (self->lod_cancellable != NULL)
    g_cancellable_cancel (self->lod_cancellable);
  g_clear_object (&self->lod_cancellable);
}
