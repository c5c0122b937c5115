/* SPDX-License-Identifier: Apache-2.0 */
/* test-import-perf.c — perf.data opened as an event log (cpel-import-perf.c):
 * what cpel_file_new_for_path makes of the fixtures, against perf script's
 * text: count, event names, times (ns from the earliest sample), tracks
 * (`CPU n` when the sample has a CPU, else `comm [tid]`), tracepoint text,
 * and the numeric datum. */
#include <string.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"
#include "perf-script-util.h"

typedef CpelPerfScriptLine Ref;

static gint
ref_cmp (gconstpointer a, gconstpointer b)
{
  const Ref *x = *(const Ref * const *) a, *y = *(const Ref * const *) b;
  if (x->time_ns / 1000 != y->time_ns / 1000)
    return x->time_ns / 1000 < y->time_ns / 1000 ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  return strcmp (x->event, y->event);
}

typedef struct
{
  gint64   ns;
  guint32  tid;
  char    *event;
  char    *track;
  char    *datum;
  guint32  num;
} Got;

static void
got_free (gpointer p)
{
  Got *g = p;
  g_free (g->event);
  g_free (g->track);
  g_free (g->datum);
  g_free (g);
}

/* A sample's IP reads as perf script prints it: `addr sym+0xoff (dso)`, or,
 * where this machine lacks the symbols, `addr [unknown] (dso)` — never the
 * bare address. */
static void
check_sample_ip (const char *datum, GPtrArray *texts, const Ref *f)
{
  const Ref *t = NULL;

  for (guint j = 0; j < texts->len && t == NULL; j++)
    {
      const Ref *c = texts->pdata[j];
      if (c->time_ns / 1000 == f->time_ns / 1000 && c->tid == f->tid
          && strcmp (c->event, f->event) == 0)
        t = c;
    }
  g_assert_nonnull (t);
  const char *want = t->text + strspn (t->text, " ");
  if (*want == '\0')
    return;   /* a call chain follows on lines of its own */
  const char *sp = strchr (want, ' ');
  const char *par = strrchr (want, '(');
  g_assert_nonnull (sp);
  g_assert_nonnull (par);
  g_autofree char *addr = g_strndup (want, (gsize) (sp - want));
  g_autofree char *key = g_strdup_printf (" %s ", addr);
  const char *at = strstr (datum, key);
  g_assert_nonnull (at);
  const char *got = at + strlen (key);
  g_autofree char *unknown = g_strdup_printf ("[unknown] %s", par);
  if (strcmp (got, sp + 1) != 0)
    g_assert_cmpstr (got, ==, unknown);
}

static void
check_fixture (const char *name, guint expected, gboolean tracepoints_have_cpu)
{
  g_autofree char *rel = g_strdup_printf ("perf/%s.perf.data", name);
  g_autofree char *path = cpel_test_fixture_file (rel);
  gsize stem = strlen (path) - strlen (".perf.data");
  g_autofree char *fields_path = g_strdup_printf ("%.*s.perf-script-fields.txt", (int) stem, path);
  g_autofree char *text_path = g_strdup_printf ("%.*s.perf-script.txt", (int) stem, path);

  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cpel_file_get_imported_from (file), ==, "perf");
  g_assert_true (cpel_file_has_event_texts (file));
  g_assert_cmpstr (cpel_file_get_source_value (file, "lost-events"), ==, "0");
  if (strcmp (name, "sched-wakeup") != 0)
    {
      /* cpu-clock samples in the kernel: where their names come from —
       * nowhere, as the fixtures come from another kernel build, unless
       * this machine is the one that recorded them */
      const char *ksrc = cpel_file_get_source_value (file, "Kernel symbols");
      g_assert_nonnull (ksrc);
      g_assert_true (g_str_has_prefix (ksrc, "none: ") || strstr (ksrc, "kallsyms") != NULL);
    }

  g_autoptr(GPtrArray) fields = cpel_perf_script_parse (fields_path);
  g_autoptr(GPtrArray) texts = cpel_perf_script_parse (text_path);
  g_assert_cmpuint (fields->len, ==, expected);
  g_ptr_array_sort (fields, ref_cmp);
  g_ptr_array_sort (texts, ref_cmp);

  /* every event, with its text and its track's label */
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (got_free);
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  CpelEvent ev;
  guint64 idx;
  GString *s = g_string_new (NULL);
  guint64 marks = 0;
  while (cpel_merge_next (merge, &ev, &idx))
    {
      /* the marks (switch in/out/next, wake-ups; perf's own names are
       * `sched:…`): tested below */
      if (g_str_has_prefix (cpel_file_get_type_name (file, ev.type), "sched_"))
        {
          marks++;
          continue;
        }
      Got *g = g_new0 (Got, 1);
      g->ns = ev.time_ns;
      g->event = g_strdup (cpel_file_get_type_name (file, ev.type));
      g->track = g_strdup (cpel_file_get_track_label (file, ev.track_slot));
      g_string_truncate (s, 0);
      cpel_file_append_datum (file, &ev, s);
      g->datum = g_strdup (s->str);
      g->num = ev.datum;
      g_ptr_array_add (got, g);
    }
  g_string_free (s, TRUE);
  g_assert_cmpuint (got->len, ==, expected);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, expected + marks);

  guint64 first = ((Ref *) fields->pdata[0])->time_ns;
  for (guint i = 0; i < got->len; i++)
    {
      Got *g = got->pdata[i];
      /* the tid: from the track (threads) or the text (samples) */
      const char *br = strrchr (g->track, '[');
      if (br != NULL)
        g->tid = (guint32) g_ascii_strtoull (br + 1, NULL, 10);
    }
  for (guint i = 0; i < expected; i++)
    {
      Ref *f = fields->pdata[i];
      gboolean found = FALSE;
      /* the event at this exact time with this name */
      for (guint k = 0; k < got->len && !found; k++)
        {
          Got *g = got->pdata[k];
          if ((guint64) g->ns != f->time_ns - first || strcmp (g->event, f->event) != 0)
            continue;
          if (g_str_has_prefix (g->track, "CPU "))
            {
              /* tracepoints: their CPU, their fields as perf script prints them */
              g_assert_true (tracepoints_have_cpu);
              Ref *t = NULL;
              for (guint j = 0; j < texts->len && t == NULL; j++)
                {
                  Ref *c = texts->pdata[j];
                  if (c->time_ns / 1000 == f->time_ns / 1000 && c->tid == f->tid && strcmp (c->event, f->event) == 0)
                    t = c;
                }
              g_assert_nonnull (t);
              g_autofree char *cpu = g_strdup_printf ("CPU %d", t->cpu);
              if (strcmp (g->track, cpu) != 0 || strcmp (g->datum, t->text) != 0)
                continue;
            }
          else
            {
              /* samples: the thread's track (named by its last COMM: perf
               * script shows the name at the sample's time), pid/tid, IP */
              g_autofree char *label = g_strdup_printf (" [%u]", f->tid);
              g_autofree char *tid = g_strdup_printf ("/%u ", f->tid);
              if (!g_str_has_suffix (g->track, label) || strstr (g->datum, tid) == NULL)
                continue;
              gboolean named = FALSE;
              g_autofree char *comm = g_strndup (g->track, strlen (g->track) - strlen (label));
              for (guint j = 0; j < fields->len; j++)
                {
                  Ref *c = fields->pdata[j];
                  named |= c->tid == f->tid && strcmp (c->comm, comm) == 0;
                }
              g_assert_true (named);
              g_assert_cmpuint (g->num, ==, f->tid);
              check_sample_ip (g->datum, texts, f);
            }
          found = TRUE;
        }
      if (!found)
        g_error ("%s: no event like perf script's %s %u %" G_GUINT64_FORMAT " %s", name, f->comm, f->tid,
                 f->time_ns, f->event);
    }
}

static void
test_sched_wakeup (void)
{
  check_fixture ("sched-wakeup", 147, TRUE);
}

static void
test_gzip_callgraph (void)
{
  check_fixture ("gzip-callgraph", 53, FALSE);
}

static void
test_zstd_mono (void)
{
  check_fixture ("zstd-mono", 38, TRUE);
}

/* sched_switch's numeric datum is next_pid; the header is kept. */
static void
test_datum_and_header (void)
{
  g_autofree char *path = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  CpelEvent ev;
  guint64 idx;
  guint n = 0;
  g_autoptr(GString) s = g_string_new (NULL);
  while (cpel_merge_next (merge, &ev, &idx))
    if (strcmp (cpel_file_get_type_name (file, ev.type), "sched:sched_switch") == 0)
      {
        g_string_truncate (s, 0);
        cpel_file_append_datum (file, &ev, s);
        g_autofree char *want = g_strdup_printf (" next_pid=%d ", (gint32) ev.datum);
        g_assert_nonnull (strstr (s->str, want));
        n++;
      }
  g_assert_cmpuint (n, ==, 100);

  /* when each thread ran: an `in` on next_pid's track and an `out` on
   * prev_pid's at every switch, none for the idle task (pid 0) */
  g_autofree char *text_path = cpel_test_fixture_file ("perf/sched-wakeup.perf-script.txt");
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (text_path, &text, NULL, NULL));
  guint64 ins = 0, outs = 0;
  for (const char *p = strstr (text, "prev_pid="); p != NULL; p = strstr (p + 1, "prev_pid="))
    outs += strncmp (p, "prev_pid=0 ", 11) != 0;
  for (const char *p = strstr (text, "next_pid="); p != NULL; p = strstr (p + 1, "next_pid="))
    ins += strncmp (p, "next_pid=0 ", 11) != 0;
  guint64 got_in = 0, got_out = 0;
  for (guint t = 0; t < cpel_file_get_n_types (file); t++)
    {
      if (strcmp (cpel_file_get_type_name (file, t), "sched_switch: in") == 0)
        got_in = cpel_file_get_type_n_events (file, t);
      if (strcmp (cpel_file_get_type_name (file, t), "sched_switch: out") == 0)
        got_out = cpel_file_get_type_n_events (file, t);
    }
  g_assert_cmpuint (got_in, ==, ins);
  g_assert_cmpuint (got_out, ==, outs);
  g_assert_cmpuint (got_in, ==, 73);
  /* the marks sit on the threads' tracks, at the switch's time */
  g_autoptr(CpelMerge) again = cpel_merge_new (file, NULL, 0, 0);
  gint64 last_switch = -1, last_wake_time = -1;
  guint32 last_next = 0, last_wakee = 0;
  guint last_slot = 0;
  guint64 n_out = 0, n_next = 0, n_wake = 0, n_idle_waker = 0;
  g_autofree char *last_text = NULL;
  while (cpel_merge_next (again, &ev, &idx))
    {
      const char *tn = cpel_file_get_type_name (file, ev.type);
      if (strcmp (tn, "sched:sched_switch") == 0)
        {
          last_switch = ev.time_ns;
          last_next = ev.datum;   /* next_pid */
        }
      else if (strcmp (tn, "sched_switch: in") == 0)
        {
          g_autofree char *want = g_strdup_printf (" [%u]", last_next);
          g_assert_true (g_str_has_suffix (cpel_file_get_track_label (file, ev.track_slot), want));
          g_assert_cmpint (ev.time_ns, ==, last_switch);
        }
      else if (strcmp (tn, "sched_switch: out") == 0)
        {
          /* the CPU and prev_state, as the switch's text has them */
          g_string_truncate (s, 0);
          cpel_file_append_datum (file, &ev, s);
          g_assert_cmpint (ev.time_ns, ==, last_switch);
          g_assert_nonnull (strstr (last_text, s->str + strlen ("CPU 0, ")));
          g_assert_true (g_str_has_prefix (s->str, "CPU "));
          n_out++;
        }
      else if (strcmp (tn, "sched_switch: next") == 0)
        {
          /* on the switch's CPU track: the next thread, `comm [tid]` */
          g_string_truncate (s, 0);
          cpel_file_append_datum (file, &ev, s);
          g_assert_cmpint (ev.time_ns, ==, last_switch);
          g_assert_cmpuint (ev.datum, ==, last_next);
          g_assert_cmpuint (ev.track_slot, ==, last_slot);
          g_autofree char *want = g_strdup_printf (" [%u]", last_next);
          g_assert_true (g_str_has_suffix (s->str, want));
          if (last_next == 0)
            g_assert_true (g_str_has_prefix (s->str, "swapper/"));
          n_next++;
        }
      else if (strcmp (tn, "sched:sched_wakeup") == 0)
        {
          g_string_truncate (s, 0);
          cpel_file_append_datum (file, &ev, s);
          last_wake_time = ev.time_ns;
          last_wakee = (guint32) g_ascii_strtoull (strstr (s->str, " pid=") + 5, NULL, 10);
        }
      else if (strcmp (tn, "sched_wakeup: woken") == 0)
        {
          /* on the woken thread's track, the waker in the text */
          g_autofree char *want = g_strdup_printf (" [%u]", last_wakee);
          g_assert_true (g_str_has_suffix (cpel_file_get_track_label (file, ev.track_slot), want));
          g_assert_cmpint (ev.time_ns, ==, last_wake_time);
          g_string_truncate (s, 0);
          cpel_file_append_datum (file, &ev, s);
          g_assert_true (g_str_has_prefix (s->str, "waker=\""));
          /* the waker: the sample's thread (the idle task's: swapper) */
          g_autofree char *waker = g_strdup_printf (" [%u]\", CPU ", ev.datum);
          g_assert_nonnull (strstr (s->str, waker));
          if (ev.datum == 0)
            g_assert_true (g_str_has_prefix (s->str, "waker=\"swapper [0]\""));
          n_wake++;
          n_idle_waker += ev.datum == 0;
        }
      if (strcmp (tn, "sched:sched_switch") == 0)
        {
          g_string_truncate (s, 0);
          cpel_file_append_datum (file, &ev, s);
          g_free (last_text);
          last_text = g_strdup (s->str);
          last_slot = ev.track_slot;
        }
    }
  g_assert_cmpuint (n_out, ==, outs);
  g_assert_cmpuint (n_next, ==, 100);
  g_assert_cmpuint (n_wake, >, 0);
  g_assert_cmpuint (n_idle_waker, >, 0);
  g_assert_cmpstr (cpel_file_get_source_value (file, "Host"), ==, "vm");
  g_assert_cmpstr (cpel_file_get_source_value (file, "perf version"), ==, "6.1.187");
  /* tracepoints only: their texts are their fields, no address is named */
  g_assert_null (cpel_file_get_source_value (file, "Kernel symbols"));
  g_assert_nonnull (strstr (cpel_file_get_source_value (file, "clock-description"), "since boot"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/perf-file/sched-wakeup", test_sched_wakeup);
  g_test_add_func ("/core/import/perf-file/gzip-callgraph", test_gzip_callgraph);
  g_test_add_func ("/core/import/perf-file/zstd-mono", test_zstd_mono);
  g_test_add_func ("/core/import/perf-file/datum-and-header", test_datum_and_header);
  return g_test_run ();
}
