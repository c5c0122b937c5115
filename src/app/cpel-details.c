/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-details.c — the details pane: everything about the selected event */
#include "cpel-details.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cpel-app-util.h"

typedef enum
{
  FIELD_TIME,
  FIELD_CLOCK,      /* the time on the capture's own clock, when it has one */
  FIELD_TRACK,
  FIELD_CODE,
  FIELD_EVENT,
  FIELD_DATUM_HEX,
  FIELD_DATUM_DEC,
  FIELD_DECODED,
  FIELD_DELTA,
  /* a span's */
  FIELD_SPAN_BEGIN,
  FIELD_SPAN_END,
  FIELD_SPAN_DURATION,
  FIELD_SPAN_SELF,
  FIELD_SPAN_DEPTH,
  FIELD_SPAN_FLAGS,
  FIELD_SPAN_BEGIN_EVENT,
  FIELD_SPAN_END_EVENT,
  FIELD_SPAN_KEY,       /* when the span's rule has a key */
  FIELD_SPAN_WAKER,     /* a state a wake-up began */
  N_FIELDS
} Field;

#define FIRST_SPAN_FIELD FIELD_SPAN_BEGIN
/* Spans read for a span's self time at most. */
#define DETAILS_CHILDREN_MAX 100000

static const struct
{
  const char *id;
  const char *title;
} fields[N_FIELDS] = {
  [FIELD_TIME]      = { "time",      N_("Time") },
  [FIELD_CLOCK]     = { "clock",     N_("Capture clock") },
  [FIELD_TRACK]     = { "track",     N_("Track") },
  [FIELD_CODE]      = { "code",      N_("Code") },
  [FIELD_EVENT]     = { "event",     N_("Event") },
  [FIELD_DATUM_HEX] = { "datum-hex", N_("Datum (hex)") },
  [FIELD_DATUM_DEC] = { "datum-dec", N_("Datum (decimal)") },
  [FIELD_DECODED]   = { "decoded",   N_("Decoded datum") },
  [FIELD_DELTA]     = { "delta",     N_("Since previous on track") },
  [FIELD_SPAN_BEGIN] = { "begin",    N_("Begin") },
  [FIELD_SPAN_END]   = { "end",      N_("End") },
  [FIELD_SPAN_DURATION] = { "duration", N_("Duration") },
  [FIELD_SPAN_SELF]  = { "self",     N_("Self time") },
  [FIELD_SPAN_DEPTH] = { "depth",    N_("Depth") },
  [FIELD_SPAN_FLAGS] = { "flags",    N_("Completeness") },
  [FIELD_SPAN_BEGIN_EVENT] = { "begin-event", N_("Begin event") },
  [FIELD_SPAN_END_EVENT]   = { "end-event",   N_("End event") },
  [FIELD_SPAN_KEY]         = { "key",         N_("Key") },
  [FIELD_SPAN_WAKER]       = { "waker",       N_("Woken by") },
};

struct _CpelDetails
{
  GtkWidget  parent_instance;

  GtkStack  *stack;
  GtkLabel  *title_label;   /* headline: the event's name */
  GtkLabel  *label_label;   /* the whole label "event: datum", body text */
  GtkGrid   *grid;
  GtkWidget *chain_box;     /* "Call Chain": hidden for events without one */
  GtkLabel  *chain_label;
  GtkLabel  *values[N_FIELDS];
  GtkWidget *titles[N_FIELDS];
  CpelLabels *labels;
};

G_DEFINE_FINAL_TYPE (CpelDetails, cpel_details, GTK_TYPE_WIDGET)

GtkWidget *
cpel_details_new (void)
{
  return g_object_new (CPEL_TYPE_DETAILS, NULL);
}

static void
set_value (CpelDetails *self,
           Field        field,
           const char  *text)
{
  gtk_label_set_text (self->values[field], text);
}

/* Event fields or span fields (the track is both's); a state has no self
 * time or depth. */
static void
show_fields (CpelDetails *self,
             gboolean     span,
             gboolean     state)
{
  for (guint i = 0; i < N_FIELDS; i++)
    {
      gboolean show = i == FIELD_TRACK || (i >= FIRST_SPAN_FIELD) == span;

      if (state && (i == FIELD_SPAN_SELF || i == FIELD_SPAN_DEPTH))
        show = FALSE;

      gtk_widget_set_visible (self->titles[i], show);
      gtk_widget_set_visible (GTK_WIDGET (self->values[i]), show);
    }
}

static char *
format_time (CpelFile *file,
             gint64    t)
{
  g_autofree char *time = cpel_time_format_kind (t, cpel_file_get_time_kind (file));
  g_autofree char *exact = cpel_format_count ((guint64) MAX (t, 0));

  if (cpel_file_get_time_kind (file) == CPEL_TIME_KIND_TICKS)
    return g_strdup_printf (_("%s (%s ticks)"), time, exact);
  return g_strdup_printf (_("%s (%s ns)"), time, exact);
}

/* The capture clock's row: perf's seconds as perf script prints them (ns),
 * a wall clock in UTC; no row without a clock. */
static void
set_clock_value (CpelDetails *self,
                 CpelFile    *file,
                 gint64       t)
{
  gint64 origin;
  CpelClockKind clock = cpel_file_get_clock_origin (file, &origin);
  g_autofree char *s = NULL;

  if (clock != CPEL_CLOCK_NONE)
    {
      g_autofree char *time = cpel_time_format_clock (clock, origin + t, 9);

      /* TRANSLATORS: a time on a clock counting seconds; on the wall clock, in UTC */
      s = clock == CPEL_CLOCK_SECONDS ? g_strdup_printf (_("%s s"), time)
                                      : g_strdup_printf (_("%s UTC"), time);
    }
  set_value (self, FIELD_CLOCK, s != NULL ? s : "");
  gtk_widget_set_visible (self->titles[FIELD_CLOCK], s != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->values[FIELD_CLOCK]), s != NULL);
}

static char *
event_text (CpelFile *file,
            guint     slot,
            guint64   index)
{
  GString *text = g_string_new (NULL);
  CpelEvent event;

  cpel_file_get_track_event (file, slot, index, &event);
  cpel_file_append_label (file, &event, text);
  return g_string_free (text, FALSE);
}

void
cpel_details_set_span (CpelDetails *self,
                       CpelFile    *file,
                       CpelSpans   *spans,
                       guint        slot,
                       gboolean     state,
                       guint64      index)
{
  const CpelSpan *a, *span;
  guint64 n = 0;
  gint64 begin, end;
  const char *label;
  g_autofree char *s = NULL;
  g_autoptr(GString) flags = g_string_new (NULL);

  g_return_if_fail (CPEL_IS_DETAILS (self));

  if (file == NULL || spans == NULL || slot >= cpel_file_get_n_tracks (file))
    {
      cpel_details_clear (self);
      return;
    }
  a = state ? cpel_spans_get_track_states (spans, slot, &n)
            : cpel_spans_get_track_spans (spans, slot, &n);
  if (a == NULL || index >= n)
    {
      cpel_details_clear (self);
      return;
    }
  span = &a[index];
  begin = cpel_spans_begin_ns (spans, slot, span);
  end = cpel_spans_end_ns (spans, slot, span);

  gtk_label_set_text (self->title_label, cpel_spans_get_name (spans, span->name));
  gtk_label_set_text (self->label_label, state ? _("Thread state") : _("Span"));

  label = cpel_file_get_track_label (file, slot);
  s = g_strdup_printf (_("%s (id %u)"), label != NULL && *label ? label : "—",
                       cpel_file_get_track_id (file, slot));
  set_value (self, FIELD_TRACK, s);
  g_clear_pointer (&s, g_free);

  s = format_time (file, begin);
  set_value (self, FIELD_SPAN_BEGIN, s);
  g_clear_pointer (&s, g_free);
  s = format_time (file, end);
  set_value (self, FIELD_SPAN_END, s);
  g_clear_pointer (&s, g_free);
  s = cpel_time_format_kind (end - begin, cpel_file_get_time_kind (file));
  set_value (self, FIELD_SPAN_DURATION, s);
  g_clear_pointer (&s, g_free);
  /* self time: the duration less its children's (the spans one deeper
   * that begin inside it, read up to a bound) */
  if (!state)
    {
      gint64 children = 0;
      guint64 k;

      for (k = index + 1; k < n && k < index + 1 + DETAILS_CHILDREN_MAX; k++)
        {
          gint64 b = cpel_spans_begin_ns (spans, slot, &a[k]);

          if (b >= end)
            break;
          if (a[k].depth == span->depth + 1)
            children += MIN (cpel_spans_end_ns (spans, slot, &a[k]), end) - b;
        }
      if (k < n && k == index + 1 + DETAILS_CHILDREN_MAX
          && cpel_spans_begin_ns (spans, slot, &a[k]) < end)
        set_value (self, FIELD_SPAN_SELF, "—");
      else
        {
          s = cpel_time_format_kind (MAX (end - begin - children, 0),
                                     cpel_file_get_time_kind (file));
          set_value (self, FIELD_SPAN_SELF, s);
          g_clear_pointer (&s, g_free);
        }
    }
  else
    set_value (self, FIELD_SPAN_SELF, "—");

  s = g_strdup_printf ("%u", span->depth);
  set_value (self, FIELD_SPAN_DEPTH, s);
  g_clear_pointer (&s, g_free);

  if (span->flags & CPEL_SPAN_NO_BEGIN)
    g_string_append (flags, _("No begin: the capture started inside it"));
  if (span->flags & CPEL_SPAN_NO_END)
    {
      if (flags->len > 0)
        g_string_append_c (flags, '\n');
      g_string_append (flags, _("No end: the capture ended inside it"));
    }
  if (span->flags & CPEL_SPAN_INTERRUPTED)
    {
      if (flags->len > 0)
        g_string_append_c (flags, '\n');
      g_string_append (flags, _("Interrupted by the next begin"));
    }
  set_value (self, FIELD_SPAN_FLAGS, flags->len > 0 ? flags->str : _("Complete"));

  if (span->flags & CPEL_SPAN_NO_BEGIN)
    set_value (self, FIELD_SPAN_BEGIN_EVENT, "—");
  else
    {
      s = event_text (file, slot, span->begin);
      set_value (self, FIELD_SPAN_BEGIN_EVENT, s);
      g_clear_pointer (&s, g_free);
    }
  if (span->flags & CPEL_SPAN_NO_END)
    set_value (self, FIELD_SPAN_END_EVENT, "—");
  else
    {
      s = event_text (file, slot, span->end);
      set_value (self, FIELD_SPAN_END_EVENT, s);
      g_clear_pointer (&s, g_free);
    }

  show_fields (self, TRUE, state);
  {
    g_autofree char *field = NULL;
    g_autofree char *value = NULL;
    g_autofree char *waker = NULL;
    gboolean has_key = cpel_spans_dup_key (spans, slot, span, &field, &value);

    if (has_key)
      {
        /* TRANSLATORS: a span's key in the details pane: "breath = 42" */
        s = g_strdup_printf (_("%s = %s"), field, *value != '\0' ? value : "—");
        set_value (self, FIELD_SPAN_KEY, s);
        g_clear_pointer (&s, g_free);
      }
    else
      set_value (self, FIELD_SPAN_KEY, "");
    gtk_widget_set_visible (self->titles[FIELD_SPAN_KEY], has_key);
    gtk_widget_set_visible (GTK_WIDGET (self->values[FIELD_SPAN_KEY]), has_key);
    waker = state ? cpel_spans_dup_waker (spans, slot, span) : NULL;
    set_value (self, FIELD_SPAN_WAKER, waker != NULL ? waker : "");
    gtk_widget_set_visible (self->titles[FIELD_SPAN_WAKER], waker != NULL);
    gtk_widget_set_visible (GTK_WIDGET (self->values[FIELD_SPAN_WAKER]), waker != NULL);
  }
  gtk_widget_set_visible (self->chain_box, FALSE);   /* an event's only */
  gtk_stack_set_visible_child_name (self->stack, "event");
}

/* ---- the call chain -------------------------------------------------------- */

/* Frames shown at most (perf records up to 127 by default). */
#define CHAIN_FRAMES_MAX 512

/* A perf sample's call chain, innermost frame first, as lines: each
 * binary dimmed, the symbols of its consecutive frames below it, indented
 * (an unknown one with its address, as perf script prints it); hidden
 * when the event has none. */
static void
show_chain (CpelDetails     *self,
            CpelFile        *file,
            const CpelEvent *event)
{
  guint n = cpel_file_get_event_chain (file, event->file_index, NULL, 0);
  g_autofree CpelChainFrame *frames = NULL;
  g_autoptr(GString) markup = NULL;
  guint shown = MIN (n, CHAIN_FRAMES_MAX);
  const char *last_dso = NULL;

  gtk_widget_set_visible (self->chain_box, n > 0);
  if (n == 0)
    {
      gtk_label_set_text (self->chain_label, "");
      return;
    }
  frames = g_new0 (CpelChainFrame, shown);
  cpel_file_get_event_chain (file, event->file_index, frames, shown);
  markup = g_string_new (NULL);
  for (guint i = 0; i < shown; i++)
    {
      const char *dso = frames[i].dso ? frames[i].dso : "[unknown]";
      g_autofree char *sym = g_markup_escape_text (frames[i].symbol ? frames[i].symbol
                                                                    : "[unknown]", -1);

      if (i == 0 || strcmp (dso, last_dso) != 0)
        {
          g_autofree char *escaped = g_markup_escape_text (dso, -1);

          g_string_append_printf (markup, "%s<span alpha=\"55%%\" size=\"small\">%s</span>",
                                  i > 0 ? "\n" : "", escaped);
        }
      last_dso = dso;
      /* an em space: the symbols stand under their binary; an unknown
       * one's address follows it, dimmed */
      g_string_append_printf (markup, "\n\u2003%s", sym);
      if (frames[i].symbol == NULL)
        g_string_append_printf (markup, " <span alpha=\"55%%\" size=\"small\">%"
                                G_GINT64_MODIFIER "x</span>", frames[i].ip);
    }
  if (shown < n)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "… %u more frame",
                                                            "… %u more frames", n - shown),
                                               n - shown);
      g_autofree char *escaped = g_markup_escape_text (more, -1);

      g_string_append_printf (markup, "\n%s", escaped);
    }
  gtk_label_set_markup (self->chain_label, markup->str);
}

void
cpel_details_set_event (CpelDetails *self,
                        CpelFile    *file,
                        guint        slot,
                        guint64      index)
{
  CpelEvent event;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *time = NULL;
  g_autofree char *exact = NULL;
  g_autofree char *s = NULL;
  const char *label;
  const char *name;

  g_return_if_fail (CPEL_IS_DETAILS (self));

  if (file == NULL || slot >= cpel_file_get_n_tracks (file)
      || index >= cpel_file_get_track_n_events (file, slot))
    {
      cpel_details_clear (self);
      return;
    }

  cpel_file_get_track_event (file, slot, index, &event);

  cpel_file_append_label (file, &event, text);
  gtk_label_set_text (self->label_label, text->str);

  time = cpel_time_format_kind (event.time_ns, cpel_file_get_time_kind (file));
  exact = cpel_format_count ((guint64) MAX (event.time_ns, 0));
  if (cpel_file_get_time_kind (file) == CPEL_TIME_KIND_TICKS)
    /* TRANSLATORS: a time of an unknown clock, then the same in ticks */
    s = g_strdup_printf (_("%s (%s ticks)"), time, exact);
  else
    /* TRANSLATORS: a time, then the same time in nanoseconds */
    s = g_strdup_printf (_("%s (%s ns)"), time, exact);
  set_value (self, FIELD_TIME, s);
  g_clear_pointer (&s, g_free);

  label = cpel_file_get_track_label (file, slot);
  /* TRANSLATORS: track label and its numeric id */
  s = g_strdup_printf (_("%s (id %u)"), label != NULL && *label ? label : "—", event.track_id);
  set_value (self, FIELD_TRACK, s);
  g_clear_pointer (&s, g_free);

  s = g_strdup_printf ("%u (0x%x)", event.code, event.code);
  set_value (self, FIELD_CODE, s);
  g_clear_pointer (&s, g_free);

  name = cpel_file_get_type_name (file, event.type);
  g_string_truncate (text, 0);
  if (self->labels != NULL && cpel_labels_get_file (self->labels) == file
      && cpel_labels_append_formatted (self->labels, &event, text))
    gtk_label_set_text (self->title_label, text->str);   /* the whole label follows */
  else if (name != NULL && *name)
    gtk_label_set_text (self->title_label, name);
  else
    {
      s = g_strdup_printf (_("Event %u"), event.code);
      gtk_label_set_text (self->title_label, s);
      g_clear_pointer (&s, g_free);
    }
  if (!cpel_file_get_type_defined (file, event.type))
    {
      /* TRANSLATORS: an event whose code has no definition in the file */
      s = g_strdup_printf (_("%s (undefined)"), name != NULL ? name : "");
      set_value (self, FIELD_EVENT, s);
      g_clear_pointer (&s, g_free);
    }
  else
    set_value (self, FIELD_EVENT, name != NULL ? name : "");

  s = g_strdup_printf ("0x%08x", event.datum);
  set_value (self, FIELD_DATUM_HEX, s);
  g_clear_pointer (&s, g_free);

  s = g_strdup_printf ("%u", event.datum);
  set_value (self, FIELD_DATUM_DEC, s);
  g_clear_pointer (&s, g_free);

  g_string_truncate (text, 0);
  cpel_file_append_datum (file, &event, text);
  set_value (self, FIELD_DECODED, text->len > 0 ? text->str : "—");

  if (index > 0)
    {
      CpelEvent previous;

      cpel_file_get_track_event (file, slot, index - 1, &previous);
      s = cpel_time_format_kind (event.time_ns - previous.time_ns, cpel_file_get_time_kind (file));
      set_value (self, FIELD_DELTA, s);
      g_clear_pointer (&s, g_free);
    }
  else
    set_value (self, FIELD_DELTA, _("First event on the track"));

  show_fields (self, FALSE, FALSE);
  set_clock_value (self, file, event.time_ns);
  show_chain (self, file, &event);
  gtk_stack_set_visible_child_name (self->stack, "event");
}

void
cpel_details_clear (CpelDetails *self)
{
  g_return_if_fail (CPEL_IS_DETAILS (self));

  for (guint i = 0; i < N_FIELDS; i++)
    gtk_label_set_text (self->values[i], "");
  gtk_label_set_text (self->title_label, "");
  gtk_label_set_text (self->label_label, "");
  gtk_label_set_text (self->chain_label, "");
  gtk_widget_set_visible (self->chain_box, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

const char *
cpel_details_get_value (CpelDetails *self,
                        const char  *field)
{
  g_return_val_if_fail (CPEL_IS_DETAILS (self), NULL);

  if (g_str_equal (field, "headline"))
    return gtk_label_get_text (self->title_label);
  if (g_str_equal (field, "label"))
    return gtk_label_get_text (self->label_label);
  if (g_str_equal (field, "call-chain"))
    return gtk_label_get_text (self->chain_label);
  for (guint i = 0; i < N_FIELDS; i++)
    if (g_str_equal (fields[i].id, field))
      return gtk_label_get_text (self->values[i]);
  return NULL;
}

void
cpel_details_set_labels (CpelDetails *self,
                         CpelLabels  *labels)
{
  g_return_if_fail (CPEL_IS_DETAILS (self));

  if (labels != NULL)
    cpel_labels_ref (labels);
  g_clear_pointer (&self->labels, cpel_labels_unref);
  self->labels = labels;
}

static void
cpel_details_dispose (GObject *object)
{
  g_clear_pointer (&CPEL_DETAILS (object)->labels, cpel_labels_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), CPEL_TYPE_DETAILS);
  G_OBJECT_CLASS (cpel_details_parent_class)->dispose (object);
}

static void
cpel_details_class_init (CpelDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cpel_details_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/cpelview/CpelView/cpel-details.ui");
  gtk_widget_class_bind_template_child (widget_class, CpelDetails, stack);
  gtk_widget_class_bind_template_child (widget_class, CpelDetails, title_label);
  gtk_widget_class_bind_template_child (widget_class, CpelDetails, label_label);
  gtk_widget_class_bind_template_child (widget_class, CpelDetails, grid);
  gtk_widget_class_bind_template_child (widget_class, CpelDetails, chain_box);
  gtk_widget_class_bind_template_child (widget_class, CpelDetails, chain_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "details");
}

static void
cpel_details_init (CpelDetails *self)
{
  /* Names like "stat_segment_collector_process" wrap anywhere, without a
   * hyphen that is not in the name. */
  g_autoptr(PangoAttrList) no_hyphens = pango_attr_list_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  pango_attr_list_insert (no_hyphens, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (self->title_label, no_hyphens);
  gtk_label_set_attributes (self->label_label, no_hyphens);
  gtk_label_set_attributes (self->chain_label, no_hyphens);

  for (guint i = 0; i < N_FIELDS; i++)
    {
      GtkWidget *title = gtk_label_new (_(fields[i].title));
      GtkWidget *value = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_widget_set_valign (title, GTK_ALIGN_START);
      gtk_widget_add_css_class (title, "dim-label");
      gtk_widget_add_css_class (title, "caption-heading");

      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_attributes (GTK_LABEL (value), no_hyphens);
      gtk_widget_set_hexpand (value, TRUE);
      gtk_widget_add_css_class (value, "details-value");

      /* Title above value: the pane is narrow. */
      gtk_grid_attach (self->grid, title, 0, 2 * i, 1, 1);
      gtk_grid_attach (self->grid, value, 0, 2 * i + 1, 1, 1);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (value),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, title, NULL,
                                      -1);
      self->values[i] = GTK_LABEL (value);
      self->titles[i] = title;
    }
  show_fields (self, FALSE, FALSE);
}
