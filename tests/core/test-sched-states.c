/* SPDX-License-Identifier: Apache-2.0 */
/* test-sched-states.c — Linux thread states against perf itself
 *
 * Records `perf sched record` of a small workload on this machine, then
 * per thread compares the Running state (count, total, longest) with
 * `perf sched timehist -s` (sched-in count, run-time, max-run: printed in
 * ms, truncated to the µs), and checks that the states tile each thread's
 * track with no gap and no overlap.  timehist counts a switch-out whose
 * switch-in it never saw as a sched-in of 0 ms, and a run whose switch-out
 * was not recorded not at all (lost_switches ()): with those accounted for,
 * the figures are equal.
 */
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

typedef struct
{
  guint64 count;
  guint64 total_us;
  guint64 max_us;
} Want;

/* "12.345" ms -> 12345 µs */
static guint64
ms_to_us (const char *s)
{
  const char *dot = strchr (s, '.');

  g_assert_nonnull (dot);
  g_assert_cmpuint (strspn (dot + 1, "0123456789"), ==, 3);
  return g_ascii_strtoull (s, NULL, 10) * 1000 + g_ascii_strtoull (dot + 1, NULL, 10);
}

/* timehist -s's "Runtime summary": tid -> Want */
static GHashTable *
parse_timehist (const char *out)
{
  /* comm[tid] or comm[tid/pid], parent, sched-in, run-time, min, avg, max, … */
  g_autoptr(GRegex) re = g_regex_new ("^\\s*(.*)\\[(\\d+)(?:/\\d+)?\\]\\s+(-?\\d+)\\s+(\\d+)"
                                      "\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)"
                                      "\\s+([0-9.]+)",
                                      0, 0, NULL);
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  GHashTable *want = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gboolean in = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;

      if (strstr (lines[i], "Runtime summary") != NULL)
        {
          in = TRUE;
          continue;
        }
      if (!in)
        continue;
      /* then "Terminated tasks:"; the summary ends at "Idle stats" */
      if (strstr (lines[i], "Idle stats") != NULL)
        break;
      if (g_regex_match (re, lines[i], 0, &m))
        {
          g_autofree char *tid = g_match_info_fetch (m, 2);
          g_autofree char *count = g_match_info_fetch (m, 4);
          g_autofree char *total = g_match_info_fetch (m, 5);
          g_autofree char *max = g_match_info_fetch (m, 8);
          Want *w = g_new0 (Want, 1);
          guint64 t = g_ascii_strtoull (tid, NULL, 10);

          w->count = g_ascii_strtoull (count, NULL, 10);
          w->total_us = ms_to_us (total);
          w->max_us = ms_to_us (max);
          if (t > 0)
            g_hash_table_insert (want, GUINT_TO_POINTER ((guint) t), w);
          else
            g_free (w);
        }
    }
  return want;
}

typedef struct
{
  guint64 no_in;     /* switch-outs whose switch-in was not recorded */
  guint64 no_in_ns;  /* what timehist counts for them */
  guint64 no_in_max;
  guint64 no_out;    /* runs ended by a switch-in: their switch-out was not recorded */
  guint64 no_out_ns;
  guint64 dead;      /* runs ended by a switch perf recorded in no thread */
  guint64 dead_ns;
  guint64 moved;     /* runs whose CPU switched in between (a switch lost) */
  gint64  moved_ns;  /* timehist's time for them less ours */
} Lost;

/* Per CPU number: the times of its switches (its track's `sched_switch:
 * next` marks), in order. */
static GHashTable *
cpu_switches (CpelFile *file)
{
  GHashTable *cpus = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      const char *label = cpel_file_get_track_label (file, slot);
      GArray *times;

      if (!g_str_has_prefix (label, "CPU "))
        continue;
      times = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
        {
          CpelEvent ev;

          cpel_file_get_track_event (file, slot, i, &ev);
          if (strcmp (cpel_file_get_type_name (file, ev.type), "sched_switch: next") == 0)
            g_array_append_val (times, ev.time_ns);
        }
      g_hash_table_insert (cpus, GUINT_TO_POINTER ((guint) g_ascii_strtoull (label + 4, NULL, 10)),
                           times);
    }
  return cpus;
}

/* perf script's sched_switch lines: per prev_pid, in time order, whether
 * perf recorded the switch in no thread (sample tid -1: the thread was
 * exiting).  timehist counts such a switch for no thread. */
static GHashTable *
orphan_switches (const char *perf,
                 const char *data)
{
  const char *argv[] = { perf, "script", "-F", "tid,event,trace", "-i", data, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *by_tid = g_hash_table_new_full (NULL, NULL, NULL,
                                              (GDestroyNotify) g_array_unref);
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p = strstr (lines[i], "sched:sched_switch:");
      const char *prev;
      gint64 tid;
      guint pid;
      GArray *a;
      gboolean minus1;

      if (p == NULL || (prev = strstr (p, " prev_pid=")) == NULL)
        continue;
      tid = g_ascii_strtoll (lines[i], NULL, 10);
      pid = (guint) g_ascii_strtoull (prev + 10, NULL, 10);
      if (pid == 0)
        continue;
      a = g_hash_table_lookup (by_tid, GUINT_TO_POINTER (pid));
      if (a == NULL)
        {
          a = g_array_new (FALSE, FALSE, sizeof (gboolean));
          g_hash_table_insert (by_tid, GUINT_TO_POINTER (pid), a);
        }
      minus1 = tid == -1;
      g_array_append_val (a, minus1);
    }
  return by_tid;
}

/* perf records CPU by CPU, and a loaded machine loses switches: a thread
 * may be switched out on a CPU with no recorded switch-in, or switched in
 * again with no recorded switch-out.  timehist counts the first as a
 * sched-in that ran since the CPU's switch before (0 ms when none) and
 * ignores the second; our Running state begins at a switch-in and ends at
 * the next switch mark (an out, or an in whose out was lost).  Counts
 * those on a track. */
static Lost
lost_switches (CpelFile   *file,
               GHashTable *cpus,
               GHashTable *orphans,
               guint       tid,
               guint       slot)
{
  Lost l = { 0 };
  GArray *mine = g_hash_table_lookup (orphans, GUINT_TO_POINTER (tid));
  guint n_out = 0;
  gboolean running = FALSE;
  gint64 since = 0;
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
    {
      CpelEvent ev;
      const char *name;

      cpel_file_get_track_event (file, slot, i, &ev);
      name = cpel_file_get_type_name (file, ev.type);
      if (strcmp (name, "sched_switch: in") == 0)
        {
          if (running)
            {
              l.no_out++;
              l.no_out_ns += (guint64) (ev.time_ns - since);
            }
          running = TRUE;
          since = ev.time_ns;
        }
      else if (strcmp (name, "sched_switch: out") == 0)
        {
          g_string_truncate (text, 0);
          cpel_file_append_datum (file, &ev, text);
          g_assert_true (g_str_has_prefix (text->str, "CPU "));
          g_assert_nonnull (mine);
          g_assert_cmpuint (n_out, <, mine->len);
          if (g_array_index (mine, gboolean, n_out++))
            {
              /* an exiting thread's switch: perf records it in no thread
               * (tid -1), timehist counts it for none */
              if (running)
                {
                  l.dead++;
                  l.dead_ns += (guint64) (ev.time_ns - since);
                }
            }
          else
            {
              /* timehist: a run since the CPU's switch before (0 ms when
               * none); ours: since the thread's switch-in, the same time
               * unless a switch of that CPU was lost in between */
              GArray *times = g_hash_table_lookup (cpus, GUINT_TO_POINTER (
                                (guint) g_ascii_strtoull (text->str + 4, NULL, 10)));
              gint64 cpu_prev = -1;

              g_assert_nonnull (times);
              for (guint k = times->len; k > 0; k--)
                if (g_array_index (times, gint64, k - 1) < ev.time_ns)
                  {
                    cpu_prev = g_array_index (times, gint64, k - 1);
                    break;
                  }
              if (!running)
                {
                  guint64 d = cpu_prev >= 0 ? (guint64) (ev.time_ns - cpu_prev) : 0;

                  l.no_in++;
                  l.no_in_ns += d;
                  l.no_in_max = MAX (l.no_in_max, d);
                }
              else if (cpu_prev != since)
                {
                  l.moved++;
                  l.moved_ns += (cpu_prev >= 0 ? ev.time_ns - cpu_prev : 0) - (ev.time_ns - since);
                }
            }
          running = FALSE;
        }
    }
  return l;
}

/* From the first state on, each state begins where the one before ended;
 * only the last is unfinished. */
static void
check_tiling (CpelSpans *spans,
              CpelFile  *file,
              guint      slot)
{
  guint64 n = 0;
  const CpelSpan *a = cpel_spans_get_track_states (spans, slot, &n);

  for (guint64 i = 0; i < n; i++)
    {
      g_assert_true (a[i].flags & CPEL_SPAN_STATE);
      g_assert_cmpint (cpel_spans_end_ns (spans, slot, &a[i]), >=,
                       cpel_spans_begin_ns (spans, slot, &a[i]));
      if (i + 1 < n)
        {
          g_assert_cmpuint (a[i].flags & CPEL_SPAN_ORPHAN, ==, 0);
          g_assert_cmpint (cpel_spans_end_ns (spans, slot, &a[i]), ==,
                           cpel_spans_begin_ns (spans, slot, &a[i + 1]));
          g_assert_cmpuint (a[i].end, ==, a[i + 1].begin);
        }
      else
        g_assert_cmpuint (a[i].flags & CPEL_SPAN_ORPHAN, ==, CPEL_SPAN_NO_END);
    }
  (void) file;
}

static void
test_timehist (void)
{
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GHashTable) want = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpanSummary) sum = NULL;
  g_autoptr(CpelSpans) spans = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) cpus = NULL;
  g_autoptr(GHashTable) orphans = NULL;
  g_autoptr(GHashTable) running = g_hash_table_new (NULL, NULL);
  guint checked = 0, tiled = 0;
  guint64 n_no_in = 0, n_no_out = 0, n_dead = 0;
  int status = 0;

  if (perf == NULL)
    {
      g_test_skip ("perf (Debian linux-perf) is not installed: skipping");
      return;
    }
  dir = g_dir_make_tmp ("cpel-sched-XXXXXX", &error);
  g_assert_no_error (error);
  data = g_build_filename (dir, "sched.perf.data", NULL);
  {
    /* a workload that forks, runs, sleeps and is woken */
    const char *argv[] = { perf, "sched", "record", "-q", "-o", data, "--", "sh", "-c",
                           "for i in 1 2 3 4; do ls -R /usr/share/doc >/dev/null; "
                           "sleep 0.01; done", NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL
                  | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL);
  }
  if (!g_spawn_check_wait_status (status, NULL) || !g_file_test (data, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("perf record is not permitted here (not root, perf_event_paranoid): skipping");
      g_unlink (data);
      g_rmdir (dir);
      return;
    }
  {
    const char *argv[] = { perf, "sched", "timehist", "-s", "-i", data, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                  NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  want = parse_timehist (out);
  g_assert_cmpuint (g_hash_table_size (want), >, 3);

  file = cpel_file_new_for_path (data, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  cpus = cpu_switches (file);
  orphans = orphan_switches (perf, data);
  sum = cpel_span_summary_compute (file, rules, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  /* the Running row of each thread track (none when it never ran) */
  for (guint i = 0; i < cpel_span_summary_get_n_rows (sum, CPEL_SPAN_TABLE_STATES); i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (sum, CPEL_SPAN_TABLE_STATES, i);

      if (strcmp (r->name, "Running") == 0)
        g_hash_table_insert (running, GUINT_TO_POINTER (r->slot), (gpointer) r);
    }
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      const char *label = cpel_file_get_track_label (file, slot);
      const char *b = strrchr (label, '[');
      const CpelSpanRow *r = g_hash_table_lookup (running, GUINT_TO_POINTER (slot));
      guint64 count = r ? r->count : 0, total = r ? r->total_ns : 0;
      guint64 max = r ? (guint64) r->max_ns : 0;
      guint tid;
      Want *w;
      Lost lost;

      if (b == NULL || g_str_has_prefix (label, "CPU "))
        continue;
      tid = (guint) g_ascii_strtoull (b + 1, NULL, 10);
      w = g_hash_table_lookup (want, GUINT_TO_POINTER (tid));
      lost = lost_switches (file, cpus, orphans, tid, slot);
      if (w == NULL)
        {
          /* perf lists every thread that was switched out */
          if (count != lost.no_out + lost.dead || lost.no_in > 0)
            g_error ("%s: Running %" G_GUINT64_FORMAT " times, not in perf sched timehist",
                     label, count);
          continue;
        }
      g_hash_table_add (seen, GUINT_TO_POINTER (tid));
      if (count - lost.no_out - lost.dead + lost.no_in != w->count)
        g_error ("%s: Running %" G_GUINT64_FORMAT " times (%" G_GUINT64_FORMAT " without a "
                 "recorded out, %" G_GUINT64_FORMAT " outs without an in), perf sched "
                 "timehist: %" G_GUINT64_FORMAT, label, count, lost.no_out, lost.no_in,
                 w->count);
      if ((guint64) ((gint64) (total - lost.no_out_ns - lost.dead_ns + lost.no_in_ns)
                     + lost.moved_ns) / 1000 != w->total_us)
        g_error ("%s: Running %" G_GUINT64_FORMAT " ns in all (%" G_GUINT64_FORMAT " ns of "
                 "runs without a recorded out, %" G_GUINT64_FORMAT " ns of runs without "
                 "a recorded in, %" G_GUINT64_FORMAT " ns of last runs, %" G_GINT64_FORMAT
                 " ns moved), perf sched timehist: %" G_GUINT64_FORMAT " us", label, total,
                 lost.no_out_ns, lost.no_in_ns, lost.dead_ns, lost.moved_ns, w->total_us);
      if (lost.no_out == 0 && lost.dead == 0 && lost.moved == 0)
        g_assert_cmpuint (MAX (max, lost.no_in_max) / 1000, ==, w->max_us);
      n_no_in += lost.no_in;
      n_no_out += lost.no_out;
      n_dead += lost.dead;
      checked++;
    }
  /* every thread perf lists has a track here */
  {
    GHashTableIter it;
    gpointer k, v;

    g_hash_table_iter_init (&it, want);
    while (g_hash_table_iter_next (&it, &k, &v))
      if (!g_hash_table_contains (seen, k))
        g_error ("thread %u: in perf sched timehist (%" G_GUINT64_FORMAT " sched-ins), "
                 "no track here", GPOINTER_TO_UINT (k), ((Want *) v)->count);
  }
  g_assert_cmpuint (checked, >, 3);
  g_test_message ("%u threads compared; switches without a recorded in: %" G_GUINT64_FORMAT
                  ", without a recorded out: %" G_GUINT64_FORMAT ", exits: %" G_GUINT64_FORMAT,
                  checked, n_no_in, n_no_out, n_dead);

  spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      guint64 n = 0;

      cpel_spans_get_track_states (spans, slot, &n);
      check_tiling (spans, file, slot);
      tiled += n > 0;
    }
  g_assert_cmpuint (tiled, >, 3);

  g_unlink (data);
  {
    g_autofree char *old = g_strconcat (data, ".old", NULL);

    g_unlink (old);
  }
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/spans/sched-timehist", test_timehist);
  return g_test_run ();
}
