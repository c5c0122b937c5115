/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-spans-window.c — the Spans window
 *
 * Two groups: your rules (a text editor checked on every change — errors
 * with line and column under it, the Apply button enabled only for a good
 * text that differs from the one applied — and a row per rule applied,
 * with its counts), and the built-in rules, a row per id with a switch and
 * its counts.  A switch flipped or Apply sets the session's span rules
 * (cpel-span-settings.h) and saves the settings with the capture's views.
 * The counts follow the session's "spans" (derived off the main thread).
 */
#include "cpel-spans-window.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cpel-app-util.h"
#include "cpel-span-settings.h"
#include "cpel-spans.h"

struct _CpelSpansWindow
{
  AdwWindow      parent_instance;

  /* template */
  GtkSpinner    *spinner;
  GtkTextView   *editor;
  GtkLabel      *status;
  GtkWidget     *apply_button;
  GtkListBox    *user_list;
  GtkListBox    *builtin_list;

  CpelSession   *session;
  GStrv          ids;          /* the built-in rules' ids */
  GPtrArray     *rows;         /* AdwActionRow per id */
  GPtrArray     *switches;     /* GtkSwitch per id */
  gboolean       syncing;      /* setting the switches from the rules */
  gboolean       text_ok;      /* the editor's text parses */
  char          *error_text;   /* the editor's errors, or NULL */
  GCancellable  *live;         /* counting the editor's rules, or NULL */
  char          *live_counts;  /* what the editor's rules give, or NULL */
};

G_DEFINE_FINAL_TYPE (CpelSpansWindow, cpel_spans_window, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
editor_text (CpelSpansWindow *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->editor);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static const char *
applied_text (CpelSpansWindow *self)
{
  CpelSpanRules *rules = cpel_session_get_span_rules (self->session);
  const char *text = rules != NULL ? cpel_span_rules_get_user_text (rules) : NULL;

  return text != NULL ? text : "";
}

static char *
format_counts (const CpelSpanRuleCount *c)
{
  g_autofree char *n = cpel_format_count (c->spans);

  if (c->orphan_begins == 0 && c->orphan_ends == 0)
    return g_strdup_printf (ngettext ("%s span", "%s spans", c->spans), n);
  {
    g_autofree char *b = cpel_format_count (c->orphan_begins);
    g_autofree char *e = cpel_format_count (c->orphan_ends);

    /* TRANSLATORS: a rule's counts: "12 spans · 1 without end · 2 without begin" */
    return g_strdup_printf (ngettext ("%s span · %s without end · %s without begin",
                                      "%s spans · %s without end · %s without begin", c->spans),
                            n, b, e);
  }
}

/* The status line under the editor: the errors, or what applying does. */
static void
update_status (CpelSpansWindow *self)
{
  g_autofree char *text = editor_text (self);
  gboolean changed = g_strcmp0 (text, applied_text (self)) != 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "spans.apply", self->text_ok && changed);
  if (!self->text_ok)
    {
      gtk_label_set_text (self->status, self->error_text);
      gtk_widget_add_css_class (GTK_WIDGET (self->status), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
  if (changed && self->live_counts != NULL)
    {
      /* TRANSLATORS: the counts of the rules typed, not applied yet */
      g_autofree char *line = g_strdup_printf (_("Not applied yet: %s"), self->live_counts);

      gtk_label_set_text (self->status, line);
    }
  else if (changed)
    gtk_label_set_text (self->status, _("Not applied yet"));
  else if (cpel_session_get_spans_pending (self->session))
    gtk_label_set_text (self->status, _("Deriving spans…"));
  else
    gtk_label_set_text (self->status, _("Applied"));
}

/* ---- the live count: the editor's rules alone, derived in a thread ---- */

typedef struct
{
  CpelFile      *file;
  CpelSpanRules *rules;
} LiveData;

static void
live_data_free (LiveData *d)
{
  g_clear_object (&d->file);
  g_clear_pointer (&d->rules, cpel_span_rules_unref);
  g_free (d);
}

static void
live_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LiveData *d = task_data;
  g_autoptr(GError) error = NULL;
  /* the whole capture, not kept in the cache: a count per edit */
  CpelSpansOptions options = { .no_store = TRUE };
  g_autoptr(CpelSpans) spans = cpel_spans_derive (d->file, d->rules, &options, cancellable,
                                                  &error);
  guint n = cpel_span_rules_get_n_rules (d->rules);
  g_autofree CpelSpanRuleCount *counts = g_new0 (CpelSpanRuleCount, MAX (n, 1));
  CpelSpanRuleCount *total = g_new0 (CpelSpanRuleCount, 1);

  if (spans == NULL)
    {
      g_free (total);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  cpel_spans_count_by_rule (spans, counts, n);
  for (guint i = 0; i < n; i++)
    {
      total->spans += counts[i].spans;
      total->orphan_begins += counts[i].orphan_begins;
      total->orphan_ends += counts[i].orphan_ends;
    }
  g_task_return_pointer (task, total, g_free);
}

static void
on_live_counted (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  CpelSpansWindow *self = CPEL_SPANS_WINDOW (source);
  g_autofree CpelSpanRuleCount *total = g_task_propagate_pointer (G_TASK (result), NULL);

  if (total == NULL || g_task_get_cancellable (G_TASK (result)) != self->live)
    return;
  g_clear_object (&self->live);
  self->live_counts = format_counts (total);
  update_status (self);
}

static void
start_live_count (CpelSpansWindow *self,
                  const char      *text)
{
  CpelFile *file = cpel_session_get_file (self->session);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(GTask) task = NULL;
  LiveData *d;

  if (file == NULL || !cpel_span_rules_add_text (rules, text, -1, NULL, NULL)
      || cpel_span_rules_get_n_rules (rules) == 0)
    return;
  self->live = g_cancellable_new ();
  task = g_task_new (self, self->live, on_live_counted, NULL);
  g_task_set_source_tag (task, start_live_count);
  d = g_new0 (LiveData, 1);
  d->file = g_object_ref (file);
  d->rules = g_steal_pointer (&rules);
  g_task_set_task_data (task, d, (GDestroyNotify) live_data_free);
  cpel_background_run (task, live_thread);
}

static void
check_text (CpelSpansWindow *self)
{
  g_autofree char *text = editor_text (self);
  g_autoptr(CpelSpanRules) scratch = cpel_span_rules_new ();
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);

  g_clear_pointer (&self->error_text, g_free);
  g_cancellable_cancel (self->live);
  g_clear_object (&self->live);
  g_clear_pointer (&self->live_counts, g_free);
  self->text_ok = cpel_span_rules_check_text (scratch, text, -1, _("your rules"), errors);
  if (self->text_ok && g_strcmp0 (text, applied_text (self)) != 0)
    start_live_count (self, text);
  if (!self->text_ok)
    {
      g_ptr_array_add (errors, NULL);
      self->error_text = g_strjoinv ("\n", (char **) errors->pdata);
    }
  update_status (self);
}

static void
on_text_changed (CpelSpansWindow *self)
{
  check_text (self);
}

/* The counts of the spans the session has now (derived by its rules). */
static void
refresh_counts (CpelSpansWindow *self)
{
  CpelSpanRules *rules = cpel_session_get_span_rules (self->session);
  CpelSpans *spans = cpel_session_get_spans (self->session);
  gboolean pending = cpel_session_get_spans_pending (self->session);
  guint n = rules != NULL ? cpel_span_rules_get_n_rules (rules) : 0;
  guint n_builtin = rules != NULL ? cpel_span_rules_get_n_builtin (rules) : 0;
  g_autofree CpelSpanRuleCount *counts = g_new0 (CpelSpanRuleCount, MAX (n, 1));
  g_autofree CpelSpanRuleCount *by_id = g_new0 (CpelSpanRuleCount, MAX (self->rows->len, 1));
  g_autofree gboolean *on = g_new0 (gboolean, MAX (self->rows->len, 1));
  GtkWidget *child;
  guint n_user = 0;

  gtk_spinner_set_spinning (self->spinner, pending);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), pending);
  if (spans != NULL)
    cpel_spans_count_by_rule (spans, counts, n);

  for (guint i = 0; i < n_builtin; i++)
    {
      g_autofree char *id = cpel_span_rules_dup_id (rules, i);

      for (guint k = 0; k < self->rows->len; k++)
        if (g_str_equal (id, self->ids[k]))
          {
            by_id[k].spans += counts[i].spans;
            by_id[k].orphan_begins += counts[i].orphan_begins;
            by_id[k].orphan_ends += counts[i].orphan_ends;
            on[k] = TRUE;
            break;
          }
    }
  self->syncing = TRUE;
  for (guint k = 0; k < self->rows->len; k++)
    {
      g_autofree char *subtitle = NULL;

      if (!on[k])
        subtitle = g_strdup (_("Off"));
      else if (spans == NULL)
        subtitle = g_strdup (pending ? _("Deriving spans…") : "");
      else
        subtitle = format_counts (&by_id[k]);
      adw_action_row_set_subtitle (g_ptr_array_index (self->rows, k), subtitle);
      gtk_switch_set_active (g_ptr_array_index (self->switches, k), on[k]);
    }
  self->syncing = FALSE;

  /* the rules beyond the built-in ones: yours, then the --rules files' */
  {
    g_autoptr(CpelSpanRules) mine = cpel_span_rules_new ();

    if (cpel_span_rules_add_text (mine, applied_text (self), -1, NULL, NULL))
      n_user = cpel_span_rules_get_n_rules (mine);
  }
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->user_list))) != NULL)
    gtk_list_box_remove (self->user_list, child);
  for (guint i = n_builtin; i < n; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *line = cpel_span_rules_dup_line (rules, i);
      g_autofree char *title = g_markup_escape_text (line, -1);
      g_autofree char *subtitle = spans != NULL ? format_counts (&counts[i])
                                  : g_strdup (pending ? _("Deriving spans…") : "");

      if (i >= n_builtin + n_user)
        {
          /* TRANSLATORS: a rule of a `cpelview --rules FILE` file, then its counts */
          g_autofree char *from = g_strdup_printf (_("From --rules · %s"), subtitle);

          g_free (subtitle);
          subtitle = g_steal_pointer (&from);
        }

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 2);
      gtk_list_box_append (self->user_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->user_list), n > n_builtin);
  update_status (self);
}

static void
on_rules_changed (CpelSpansWindow *self)
{
  g_autofree char *text = editor_text (self);
  const char *applied = applied_text (self);

  /* new rules from elsewhere (another capture): show their text */
  if (g_strcmp0 (text, applied) != 0 && !gtk_widget_has_focus (GTK_WIDGET (self->editor)))
    gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->editor), applied, -1);
  refresh_counts (self);
}

static GStrv
disabled_ids (CpelSpansWindow *self)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  for (guint k = 0; k < self->switches->len; k++)
    if (!gtk_switch_get_active (g_ptr_array_index (self->switches, k)))
      g_strv_builder_add (b, self->ids[k]);
  return g_strv_builder_end (b);
}

/* Sets the session's rules for these settings and saves them with the
 * capture's views.  The text must parse. */
static void
apply (CpelSpansWindow *self,
       const char      *text)
{
  /* (`text` may be the session's rules' own, gone with them) */
  g_autofree char *user_text = g_strdup (text);
  g_auto(GStrv) disabled = disabled_ids (self);
  g_autoptr(CpelSpanRules) rules = NULL;
  g_autoptr(GError) error = NULL;
  CpelViews *views = cpel_session_get_views (self->session);

  rules = cpel_span_settings_make_rules ((const char *const *) disabled, user_text, &error);
  if (rules == NULL)
    {
      gtk_label_set_text (self->status, error->message);
      return;
    }
  cpel_session_set_span_rules (self->session, rules);
  if (views != NULL)
    {
      cpel_views_set_span_settings (views, user_text, (const char *const *) disabled);
      if (!cpel_views_save (views, &error))
        {
          g_autofree char *message = g_strdup_printf (_("Could not save the span rules: %s"),
                                                      error->message);

          gtk_label_set_text (self->status, message);
        }
    }
}

static void
action_apply (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  CpelSpansWindow *self = CPEL_SPANS_WINDOW (widget);
  g_autofree char *text = editor_text (self);

  if (!self->text_ok)
    return;
  apply (self, text);
}

static void
on_switch_active (CpelSpansWindow *self)
{
  if (self->syncing)
    return;
  apply (self, applied_text (self));
}

static void
build_rows (CpelSpansWindow *self)
{
  g_autoptr(CpelSpanRules) builtin = cpel_span_rules_new_builtin ();
  guint n = cpel_span_rules_get_n_rules (builtin);

  self->ids = cpel_span_rules_dup_builtin_ids ();
  for (guint k = 0; self->ids[k] != NULL; k++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *sw = gtk_switch_new ();
      g_autofree char *title = NULL;
      g_autoptr(GString) lines = g_string_new (NULL);

      for (guint i = 0; i < n; i++)
        {
          g_autofree char *id = cpel_span_rules_dup_id (builtin, i);

          if (g_str_equal (id, self->ids[k]))
            {
              g_autofree char *line = cpel_span_rules_dup_line (builtin, i);

              g_string_append_printf (lines, "%s%s", lines->len ? "\n" : "", line);
            }
        }
      /* the first of its rules, as written in a rules file */
      {
        const char *first = lines->len > 0 ? lines->str : self->ids[k];

        title = g_markup_escape_text (first, (gssize) strcspn (first, "\n"));
      }
      gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
      gtk_switch_set_active (GTK_SWITCH (sw), TRUE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (sw), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      self->ids[k], -1);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 2);
      gtk_widget_set_tooltip_text (row, lines->str);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), sw);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), sw);
      g_signal_connect_swapped (sw, "notify::active", G_CALLBACK (on_switch_active), self);
      gtk_list_box_append (self->builtin_list, row);
      g_ptr_array_add (self->rows, row);
      g_ptr_array_add (self->switches, sw);
    }
}

CpelSpansWindow *
cpel_spans_window_new (CpelSession *session,
                       GtkWindow   *parent)
{
  g_return_val_if_fail (CPEL_IS_SESSION (session), NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (CPEL_TYPE_SPANS_WINDOW,
                       "transient-for", parent,
                       "session", session,
                       NULL);
}

CpelSession *
cpel_spans_window_get_session (CpelSpansWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPANS_WINDOW (self), NULL);
  return self->session;
}

guint
cpel_spans_window_get_n_builtin (CpelSpansWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPANS_WINDOW (self), 0);
  return self->rows->len;
}

const char *
cpel_spans_window_get_builtin_id (CpelSpansWindow *self,
                                  guint            i)
{
  g_return_val_if_fail (CPEL_IS_SPANS_WINDOW (self), NULL);
  g_return_val_if_fail (i < self->rows->len, NULL);
  return self->ids[i];
}

static int
find_id (CpelSpansWindow *self,
         const char      *id)
{
  for (guint k = 0; k < self->rows->len; k++)
    if (g_str_equal (self->ids[k], id))
      return (int) k;
  return -1;
}

GtkSwitch *
cpel_spans_window_get_switch (CpelSpansWindow *self,
                              const char      *id)
{
  int k;

  g_return_val_if_fail (CPEL_IS_SPANS_WINDOW (self), NULL);
  k = find_id (self, id);
  return k >= 0 ? g_ptr_array_index (self->switches, k) : NULL;
}

const char *
cpel_spans_window_get_counts (CpelSpansWindow *self,
                              const char      *id)
{
  int k;

  g_return_val_if_fail (CPEL_IS_SPANS_WINDOW (self), NULL);
  k = find_id (self, id);
  return k >= 0 ? adw_action_row_get_subtitle (g_ptr_array_index (self->rows, k)) : NULL;
}

GtkTextBuffer *
cpel_spans_window_get_buffer (CpelSpansWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPANS_WINDOW (self), NULL);
  return gtk_text_view_get_buffer (self->editor);
}

const char *
cpel_spans_window_get_status (CpelSpansWindow *self)
{
  g_return_val_if_fail (CPEL_IS_SPANS_WINDOW (self), NULL);
  return gtk_label_get_text (self->status);
}

static void
cpel_spans_window_constructed (GObject *object)
{
  CpelSpansWindow *self = CPEL_SPANS_WINDOW (object);

  G_OBJECT_CLASS (cpel_spans_window_parent_class)->constructed (object);

  g_signal_connect_object (self->session, "notify::span-rules", G_CALLBACK (on_rules_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::spans", G_CALLBACK (refresh_counts),
                           self, G_CONNECT_SWAPPED);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->editor), applied_text (self), -1);
  check_text (self);
  refresh_counts (self);
}

static void
cpel_spans_window_dispose (GObject *object)
{
  CpelSpansWindow *self = CPEL_SPANS_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CPEL_TYPE_SPANS_WINDOW);
  g_clear_object (&self->session);
  g_clear_pointer (&self->ids, g_strfreev);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->switches, g_ptr_array_unref);
  g_clear_pointer (&self->error_text, g_free);
  g_cancellable_cancel (self->live);
  g_clear_object (&self->live);
  g_clear_pointer (&self->live_counts, g_free);

  G_OBJECT_CLASS (cpel_spans_window_parent_class)->dispose (object);
}

static void
cpel_spans_window_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  CpelSpansWindow *self = CPEL_SPANS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_spans_window_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  CpelSpansWindow *self = CPEL_SPANS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_spans_window_class_init (CpelSpansWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cpel_spans_window_constructed;
  object_class->dispose = cpel_spans_window_dispose;
  object_class->get_property = cpel_spans_window_get_property;
  object_class->set_property = cpel_spans_window_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, CPEL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS
                         | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-spans-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelSpansWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, CpelSpansWindow, editor);
  gtk_widget_class_bind_template_child (widget_class, CpelSpansWindow, status);
  gtk_widget_class_bind_template_child (widget_class, CpelSpansWindow, apply_button);
  gtk_widget_class_bind_template_child (widget_class, CpelSpansWindow, user_list);
  gtk_widget_class_bind_template_child (widget_class, CpelSpansWindow, builtin_list);
  gtk_widget_class_install_action (widget_class, "spans.apply", NULL, action_apply);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "spans.apply", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cpel_spans_window_init (CpelSpansWindow *self)
{
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Ctrl+Enter applies (before the editor takes it for a new line) */
  keys = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (
    GTK_SHORTCUT_CONTROLLER (keys),
    gtk_shortcut_new (gtk_alternative_trigger_new (
                        gtk_keyval_trigger_new (GDK_KEY_Return, GDK_CONTROL_MASK),
                        gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_CONTROL_MASK)),
                      gtk_named_action_new ("spans.apply")));
  gtk_widget_add_controller (GTK_WIDGET (self->editor), keys);
  self->rows = g_ptr_array_new ();
  self->switches = g_ptr_array_new ();
  build_rows (self);
  g_signal_connect_swapped (gtk_text_view_get_buffer (self->editor), "changed",
                            G_CALLBACK (on_text_changed), self);
}
