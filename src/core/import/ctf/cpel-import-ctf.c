/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import-ctf.c — CTF traces (DPDK, LTTng, barectf, perf-CTF) as an
 * event log, read by libbabeltrace2 (cpel-ctf-trace.c: the tracks, names,
 * texts and data it produces are described there).  The source is a folder
 * (a trace or a session holding several), a trace's `metadata` file or any
 * stream file of a trace. */
#include "cpel-import.h"

#include <string.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include "cpel-error.h"
#include "cpel-ctf-trace.h"

static gboolean
probe_ctf (const guint8 *data, gsize size, const char *path)
{
  if (data == NULL)
    return path != NULL && cpel_ctf_path_is_trace (path);
  /* a file: CTF's magic, and a trace around it */
  return cpel_ctf_sniff (data, size) && (path == NULL || cpel_ctf_path_is_trace (path));
}

static gint
cmp_keys (gconstpointer a, gconstpointer b, gpointer data)
{
  GPtrArray *keys = data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  int c = strcmp (keys->pdata[x], keys->pdata[y]);
  return c != 0 ? c : (x < y ? -1 : x > y);
}

static void
report (double fraction, gpointer data)
{
  cpel_import_report_progress (data, fraction * 0.9);
}

static gboolean
import_ctf (const CpelImportSource  *src,
            const CpelImportOptions *options,
            CpelImportBuilder       *b,
            GCancellable            *cancellable,
            GError                 **error)
{
  if (src->path == NULL)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("A CTF trace is a folder: open the folder (or its “metadata” file), not bytes"));
      return FALSE;
    }
  g_autoptr(CpelCtfTrace) t = cpel_ctf_trace_read (src->path, cancellable, report, b, error);
  if (t == NULL)
    return FALSE;

  GPtrArray *dirs = cpel_ctf_trace_get_trace_dirs (t);
  for (guint i = 0; i < dirs->len; i++)
    cpel_import_builder_add_info (b, dirs->len > 1 ? _("Trace folder") : _("Trace"), dirs->pdata[i]);
  const char *clock = cpel_ctf_trace_get_clock_name (t);
  if (clock != NULL)
    {
      g_autofree char *desc = g_strdup_printf (_("CTF clock “%s”, %" PRIu64 " Hz, %s"), clock,
                                               cpel_ctf_trace_get_clock_frequency (t),
                                               cpel_ctf_trace_get_clock_is_unix_epoch (t)
                                               ? _("origin the Unix epoch") : _("origin not the Unix epoch"));
      cpel_import_builder_set_clock (b, CPEL_IMPORT_CLOCK_EXACT, desc);
    }
  guint64 discarded = cpel_ctf_trace_get_discarded_events (t);
  cpel_import_builder_add_lost (b, discarded);
  if (discarded > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" PRIu64, discarded);
      cpel_import_builder_add_info (b, _("Discarded events"), n);
    }
  if (cpel_ctf_trace_get_discarded_packets (t) > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" PRIu64, cpel_ctf_trace_get_discarded_packets (t));
      cpel_import_builder_add_info (b, _("Discarded packets"), n);
    }
  GPtrArray *notes = cpel_ctf_trace_get_notes (t);
  for (guint i = 0; i < notes->len; i++)
    cpel_import_builder_add_info (b, _("Discarded"), notes->pdata[i]);

  /* track ids in the labels' natural order (CPU 2 before CPU 10) */
  guint n_tracks = cpel_ctf_trace_get_n_tracks (t);
  g_autofree guint32 *track_id = g_new (guint32, MAX (n_tracks, 1));
  {
    g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
    for (guint i = 0; i < n_tracks; i++)
      g_ptr_array_add (keys, g_utf8_collate_key_for_filename (cpel_ctf_trace_get_track_label (t, i), -1));
    g_autofree guint *order = g_new (guint, MAX (n_tracks, 1));
    for (guint i = 0; i < n_tracks; i++)
      order[i] = i;
    g_qsort_with_data (order, n_tracks, sizeof (guint), cmp_keys, keys);
    for (guint i = 0; i < n_tracks; i++)
      track_id[order[i]] = i;
    for (guint i = 0; i < n_tracks; i++)
      cpel_import_builder_add_track (b, i, cpel_ctf_trace_get_track_label (t, order[i]));
  }
  for (guint i = 0; i < cpel_ctf_trace_get_n_classes (t); i++)
    cpel_import_builder_add_type (b, i, cpel_ctf_trace_get_class_name (t, i), "%d");

  guint64 n = cpel_ctf_trace_get_n_events (t);
  const CpelCtfEvent *ev = cpel_ctf_trace_get_events (t);
  /* times from the clock's origin; shifted when some precede it */
  gint64 min = 0;
  for (guint64 i = 0; i < n; i++)
    min = MIN (min, ev[i].ns);
  /* the capture's start (a reserved key): a clock counting from 1970 dates it */
  if (n > 0 && cpel_ctf_trace_get_clock_is_unix_epoch (t))
    {
      gint64 first = G_MAXINT64;

      for (guint64 i = 0; i < n; i++)
        first = MIN (first, ev[i].ns);
      if (first >= 0)
        {
          g_autofree char *s = g_strdup_printf ("%" G_GINT64_FORMAT, first);

          cpel_import_builder_add_info (b, "start-unix-ns", s);
        }
    }
  /* the clock's own reading (babeltrace2 --clock-seconds): time + min */
  cpel_import_builder_set_clock_origin (b, cpel_ctf_trace_get_clock_is_unix_epoch (t)
                                           ? CPEL_CLOCK_WALL : CPEL_CLOCK_SECONDS, min);
  if (!cpel_import_builder_begin_events (b, n, error))
    return FALSE;
  for (guint64 i = 0; i < n; i++)
    {
      cpel_import_builder_add_event (b, (guint64) (ev[i].ns - min), track_id[ev[i].track], ev[i].cls, ev[i].datum,
                                     cpel_ctf_trace_get_text (t, &ev[i]), ev[i].text_len);
      if ((i & 0xffff) == 0xffff)
        {
          if (!cpel_import_check_cancel (b, error))
            return FALSE;
          cpel_import_report_progress (b, 0.9 + 0.1 * (double) i / (double) n);
        }
    }
  return TRUE;
}

const CpelImporter cpel_importer_ctf = {
  .id = "ctf",
  .name = N_("CTF trace"),
  .mime_type = "application/x-ctf-metadata",
  .patterns = (const char * const[]) { "metadata", NULL },
  .directory = TRUE,
  .probe = probe_ctf,
  .import = import_ctf,
  .source_size = cpel_ctf_source_bytes,
};
