/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-node-spans.c — captures of VPP-style node dispatches */
#include "cpel-test-node-spans.h"

#include <string.h>

typedef struct
{
  gint64   t;
  guint32  track;
  guint32  order;     /* at equal times: 0 a return, 1 a call, 2 the return of a
                       * span of 0 ns */
  guint32  code;
} Ev;

static gint
ev_cmp (gconstpointer pa,
        gconstpointer pb)
{
  const Ev *a = pa, *b = pb;

  if (a->t != b->t)
    return a->t < b->t ? -1 : 1;
  if (a->track != b->track)
    return a->track < b->track ? -1 : 1;
  return (gint) a->order - (gint) b->order;
}

/* Writes `evs` (in time order, 1 tick = 1 ns) as the events section and
 * finishes `w` (in memory); its bytes. */
static GBytes *
finish_bytes (CpelWriter   *w,
              guint         table,
              const GArray *evs)
{
  g_autoptr(GError) error = NULL;

  cpel_writer_begin_events (w, table, 1000000000, evs->len);
  for (guint i = 0; i < evs->len; i++)
    {
      const Ev *ev = &g_array_index (evs, Ev, i);

      cpel_writer_add_event (w, (guint64) ev->t, ev->track, ev->code, 0);
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return cpel_writer_steal_bytes (w);
}

GBytes *
cpel_test_node_spans_bytes (const CpelTestNodeSpan *spans,
                            guint                   n)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, NULL);
  g_autoptr(GHashTable) codes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) tracks = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  guint table = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_event_defs (w, table);
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (codes, spans[i].node))
      {
        guint code = g_hash_table_size (codes) + 1;
        g_autofree char *call = g_strdup_printf ("%s-call", spans[i].node);
        g_autofree char *ret = g_strdup_printf ("%s-return", spans[i].node);

        g_hash_table_insert (codes, (gpointer) spans[i].node, GUINT_TO_POINTER (code));
        cpel_writer_add_event_def (w, 2 * code, call, "%d");
        cpel_writer_add_event_def (w, 2 * code + 1, ret, "%d");
      }
  if (n == 0)
    cpel_writer_add_event_def (w, 1, "none", "%d");
  cpel_writer_begin_track_defs (w, table);
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (tracks, GUINT_TO_POINTER (spans[i].track)))
      {
        g_autofree char *label = g_strdup_printf ("vpp_wk_%u", spans[i].track);

        g_hash_table_add (tracks, GUINT_TO_POINTER (spans[i].track));
        cpel_writer_add_track_def (w, spans[i].track, label);
      }
  for (guint i = 0; i < n; i++)
    {
      guint code = GPOINTER_TO_UINT (g_hash_table_lookup (codes, spans[i].node));
      Ev b = { spans[i].begin_ns, spans[i].track, 1, 2 * code };
      Ev e = { spans[i].begin_ns + spans[i].duration_ns, spans[i].track,
                spans[i].duration_ns == 0 ? 2 : 0, 2 * code + 1 };

      g_array_append_val (evs, b);
      g_array_append_val (evs, e);
    }
  g_array_sort (evs, ev_cmp);
  return finish_bytes (w, table, evs);
}

/* Writes `bytes` to `path`; fails the test on an error. */
static void
write_bytes (const char *path,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);

  g_assert_true (g_file_set_contents (path, data, (gssize) len, &error));
  g_assert_no_error (error);
}

void
cpel_test_node_spans_write (const char             *path,
                            const CpelTestNodeSpan *spans,
                            guint                   n)
{
  g_autoptr(GBytes) bytes = cpel_test_node_spans_bytes (spans, n);

  write_bytes (path, bytes);
}

void
cpel_test_node_events_write (const char              *path,
                             const char              *track,
                             const CpelTestNodeEvent *events,
                             guint                    n)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, TRUE, 0, NULL);
  g_autoptr(GHashTable) codes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) evs = g_array_sized_new (FALSE, FALSE, sizeof (Ev), n);
  g_autoptr(GBytes) bytes = NULL;
  guint table = cpel_writer_add_string_table (w, "FileStrtab");

  cpel_writer_begin_event_defs (w, table);
  for (guint i = 0; i < n; i++)
    {
      guint code = GPOINTER_TO_UINT (g_hash_table_lookup (codes, events[i].name));
      Ev ev = { events[i].t, 1, 0, 0 };

      if (code == 0)
        {
          code = g_hash_table_size (codes) + 1;
          g_hash_table_insert (codes, (gpointer) events[i].name, GUINT_TO_POINTER (code));
          cpel_writer_add_event_def (w, code, events[i].name, NULL);
        }
      ev.code = code;
      g_array_append_val (evs, ev);
    }
  cpel_writer_begin_track_defs (w, table);
  cpel_writer_add_track_def (w, 1, track);
  bytes = finish_bytes (w, table, evs);
  write_bytes (path, bytes);
}

gint64
cpel_test_node_spans_append (GArray       *out,
                             guint32       track,
                             const char   *node,
                             gint64        t0,
                             gint64        gap,
                             const gint64 *durations,
                             guint         n)
{
  gint64 t = t0;

  for (guint i = 0; i < n; i++)
    {
      CpelTestNodeSpan s = { track, node, t, durations[i] };

      g_array_append_val (out, s);
      t += durations[i] + gap;
    }
  return t;
}

static gint64
append_n (GArray     *out,
          guint32     track,
          const char *node,
          gint64      t,
          guint       n,
          gint64      d)
{
  for (guint i = 0; i < n; i++)
    t = cpel_test_node_spans_append (out, track, node, t, 50, &d, 1);
  return t;
}

GArray *
cpel_test_node_spans_planted (gboolean b)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (CpelTestNodeSpan));
  gint64 t = 0;

  t = append_n (out, 1, "l2-input", t, 10, b ? 150 : 200);
  t = append_n (out, 1, "arp-input", t, 1, b ? 17 : 16);
  t = append_n (out, 1, "dpdk-input", t, 50, b ? 303 : 300);
  t = append_n (out, 1, "ethernet-input", t, 100, 500);
  if (b)
    append_n (out, 1, "ip4-rewrite", t, 10, 400);
  else
    append_n (out, 1, "ip6-lookup", t, 5, 123);
  t = append_n (out, 2, "ip4-lookup", 0, b ? 90 : 100, 1000);
  if (b)
    append_n (out, 2, "ip4-lookup", t, 10, 2000);
  return out;
}
