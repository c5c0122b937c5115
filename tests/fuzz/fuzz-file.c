/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-file.c — libFuzzer target: a whole CPEL file from bytes
 *
 * Loads the input with cpel_file_new_for_bytes (retrying with a clock
 * override when the file's clock is 0, as a user would), then walks
 * everything a viewer reaches: header, sections, warnings, tracks, types,
 * the per-track index (times, lower bound, range counts), a global merge
 * and a partial merge, and the label of every event.  Besides the
 * sanitizers, it checks the index's invariants and aborts when one fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "fuzz-common.h"

/* Largest output of one conversion: a capped string or symbol name plus a
 * short suffix, or `width` bytes. */
#define MAX_CONV_OUTPUT (CPEL_FORMAT_MAX_STRING + CPEL_FORMAT_MAX_WIDTH + 32)

static void
check_event (CpelFile        *file,
             const CpelEvent *ev,
             guint            slot,
             guint64          index)
{
  CpelEvent again;

  FUZZ_CHECK (ev->track_slot == slot);
  FUZZ_CHECK (cpel_file_get_track_id (file, slot) == ev->track_id);
  FUZZ_CHECK (ev->type < cpel_file_get_n_types (file));
  FUZZ_CHECK (cpel_file_get_type_code (file, ev->type) == ev->code);
  FUZZ_CHECK (ev->file_index < cpel_file_get_n_events (file));
  FUZZ_CHECK (ev->time_ns >= 0 && ev->time_ns <= cpel_file_get_duration (file));
  FUZZ_CHECK (cpel_file_get_track_event_code (file, slot, index) == ev->code);
  FUZZ_CHECK (cpel_file_get_track_event_datum (file, slot, index) == ev->datum);
  cpel_file_get_track_event (file, slot, index, &again);
  FUZZ_CHECK (memcmp (&again, ev, sizeof again) == 0);
}

static void
walk (CpelFile *file)
{
  guint n_tracks = cpel_file_get_n_tracks (file);
  guint n_types = cpel_file_get_n_types (file);
  guint64 n_events = cpel_file_get_n_events (file);
  guint64 total = 0, seen = 0;
  gint64 duration = cpel_file_get_duration (file);
  const char * const *warnings;
  GString *label = g_string_new (NULL);
  CpelMerge *merge;
  CpelEvent ev, prev = { 0 };
  guint64 track_index;
  gboolean have_prev = FALSE;
  /* A format comes from the file: it has fewer than size bytes, and every
   * conversion takes 2 of them. */
  guint64 size = cpel_file_get_size (file);
  guint64 max_label = size + size / 2 * MAX_CONV_OUTPUT + 64;

  /* header and sections */
  (void) cpel_file_get_version (file);
  (void) cpel_file_is_little_endian (file);
  (void) cpel_file_get_date (file);
  (void) cpel_file_get_base_ns (file);
  FUZZ_CHECK (cpel_file_get_path (file) == NULL);
  FUZZ_CHECK (duration >= 0);
  for (guint i = 0; i < cpel_file_get_n_sections (file); i++)
    {
      const CpelSectionInfo *info = cpel_file_get_section (file, i);
      FUZZ_CHECK (info != NULL);
      FUZZ_CHECK (info->offset + 8 + info->length <= cpel_file_get_size (file));
      if (info->table_name)
        FUZZ_CHECK (strlen (info->table_name) <= max_label);
    }
  warnings = cpel_file_get_warnings (file);
  FUZZ_CHECK (warnings != NULL);
  for (guint i = 0; warnings[i]; i++)
    FUZZ_CHECK (strlen (warnings[i]) <= max_label);
  (void) cpel_file_get_event_strtab (file, 0);
  (void) cpel_file_get_symtab (file);

  /* types */
  for (guint t = 0; t < n_types; t++)
    {
      guint found;
      const char *name = cpel_file_get_type_name (file, t);

      FUZZ_CHECK (name != NULL);
      FUZZ_CHECK (strlen (name) <= max_label);
      FUZZ_CHECK (cpel_file_get_type_datum_format (file, t) != NULL);
      FUZZ_CHECK (cpel_file_lookup_type (file, cpel_file_get_type_code (file, t), &found) && found == t);
      if (t > 0)
        FUZZ_CHECK (cpel_file_get_type_code (file, t - 1) < cpel_file_get_type_code (file, t));
      (void) cpel_file_get_type_defined (file, t);
      total += cpel_file_get_type_n_events (file, t);
    }
  FUZZ_CHECK (total == n_events);

  /* tracks and their index */
  total = 0;
  for (guint s = 0; s < n_tracks; s++)
    {
      guint64 n;
      const gint64 *times = cpel_file_get_track_times (file, s, &n);
      const char *tl = cpel_file_get_track_label (file, s);
      guint found;

      FUZZ_CHECK (tl != NULL);
      FUZZ_CHECK (strlen (tl) <= max_label);
      FUZZ_CHECK (n == cpel_file_get_track_n_events (file, s));
      FUZZ_CHECK (cpel_file_lookup_track (file, cpel_file_get_track_id (file, s), &found) && found == s);
      if (s > 0)
        FUZZ_CHECK (cpel_file_get_track_id (file, s - 1) < cpel_file_get_track_id (file, s));
      for (guint64 i = 0; i < n; i++)
        {
          CpelEvent tev;

          FUZZ_CHECK (times[i] >= 0 && times[i] <= duration);
          FUZZ_CHECK (i == 0 || times[i - 1] <= times[i]);
          cpel_file_get_track_event (file, s, i, &tev);
          FUZZ_CHECK (tev.time_ns == times[i]);
          /* stable: file order breaks ties */
          if (i > 0 && times[i - 1] == times[i])
            {
              CpelEvent pev;
              cpel_file_get_track_event (file, s, i - 1, &pev);
              FUZZ_CHECK (pev.file_index < tev.file_index);
            }
          check_event (file, &tev, s, i);
        }
      if (n > 0)
        {
          gint64 mid = times[n / 2];
          guint64 lb = cpel_file_track_lower_bound (file, s, mid);

          FUZZ_CHECK (lb <= n / 2 && times[lb] == mid && (lb == 0 || times[lb - 1] < mid));
          FUZZ_CHECK (cpel_file_track_lower_bound (file, s, G_MININT64) == 0);
          FUZZ_CHECK (cpel_file_track_lower_bound (file, s, G_MAXINT64) == n
                      || times[n - 1] == G_MAXINT64);
          FUZZ_CHECK (cpel_file_track_count_range (file, s, G_MININT64, G_MAXINT64) == n
                      || times[n - 1] == G_MAXINT64);
          FUZZ_CHECK (cpel_file_track_count_range (file, s, mid, mid) == 0);
          if (mid < G_MAXINT64)
            FUZZ_CHECK (cpel_file_track_count_range (file, s, times[0], mid + 1) >= n / 2 + 1);
        }
      total += n;
    }
  FUZZ_CHECK (total == n_events);

  /* global merge: time order, file order among equal times; label each */
  merge = cpel_merge_new (file, NULL, 0, G_MININT64);
  while (cpel_merge_next (merge, &ev, &track_index))
    {
      gsize before;

      check_event (file, &ev, ev.track_slot, track_index);
      if (have_prev)
        FUZZ_CHECK (prev.time_ns < ev.time_ns
                    || (prev.time_ns == ev.time_ns && prev.file_index < ev.file_index));
      prev = ev;
      have_prev = TRUE;
      seen++;

      g_string_truncate (label, 0);
      cpel_file_append_label (file, &ev, label);
      before = strlen (cpel_file_get_type_name (file, ev.type));
      FUZZ_CHECK (label->len >= before);
      FUZZ_CHECK (label->len <= before + 2 + max_label);
      g_string_truncate (label, 0);
      cpel_file_append_datum (file, &ev, label);

      /* its call chain: no longer than its section, names valid UTF-8 */
      {
        CpelChainFrame frames[64];
        guint n = cpel_file_get_event_chain (file, ev.file_index, frames, G_N_ELEMENTS (frames));

        FUZZ_CHECK (n <= size / 4);
        for (guint k = 0; k < MIN (n, G_N_ELEMENTS (frames)); k++)
          {
            FUZZ_CHECK (frames[k].symbol == NULL || g_utf8_validate (frames[k].symbol, -1, NULL));
            FUZZ_CHECK (frames[k].dso == NULL || g_utf8_validate (frames[k].dso, -1, NULL));
          }
      }
    }
  cpel_merge_free (merge);
  FUZZ_CHECK (seen == n_events);

  /* the functions the chains hold */
  {
    CpelTop *top = cpel_top_compute (file, G_MININT64, G_MAXINT64, NULL, 0, NULL, NULL);
    guint64 self = 0;

    FUZZ_CHECK (top != NULL);
    for (guint i = 0; i < cpel_top_get_n_entries (top); i++)
      {
        const CpelTopEntry *e = cpel_top_get_entry (top, i);

        FUZZ_CHECK (e->self <= e->total && e->total <= cpel_top_get_n_samples (top));
        self += e->self;
      }
    FUZZ_CHECK (self == cpel_top_get_n_samples (top));
    cpel_top_free (top);
  }

  /* a partial merge: every other track, from the middle of the timeline */
  if (n_tracks > 0)
    {
      guint *slots = g_new (guint, n_tracks);
      guint n_slots = 0;
      gint64 from = duration / 2;
      guint64 expect = 0;

      for (guint s = 0; s < n_tracks; s += 2)
        {
          slots[n_slots++] = s;
          expect += cpel_file_get_track_n_events (file, s)
                    - cpel_file_track_lower_bound (file, s, from);
        }
      merge = cpel_merge_new (file, slots, n_slots, from);
      seen = 0;
      while (cpel_merge_next (merge, &ev, NULL))
        {
          FUZZ_CHECK (ev.track_slot % 2 == 0 && ev.time_ns >= from);
          seen++;
        }
      cpel_merge_free (merge);
      FUZZ_CHECK (seen == expect);
      g_free (slots);
    }

  g_string_free (label, TRUE);
}

/* The same bytes loaded without the index: a time-ordered file is merged
 * over its sections, any other builds its index on demand; the events come
 * out as from the index, field for field. */
static void
stream (CpelFile              *indexed,
        GBytes                *bytes,
        const CpelLoadOptions *options)
{
  CpelLoadOptions deferred = *options;
  GError *error = NULL;
  CpelFile *file;
  CpelMerge *a, *b;
  CpelEvent ea, eb;
  guint64 n = 0;
  gboolean had_index;

  deferred.defer_index = TRUE;
  file = cpel_file_new_for_bytes (bytes, &deferred, &error);
  FUZZ_CHECK (file != NULL && error == NULL);
  FUZZ_CHECK (cpel_file_get_n_events (file) == cpel_file_get_n_events (indexed));
  FUZZ_CHECK (cpel_file_get_n_tracks (file) == cpel_file_get_n_tracks (indexed));
  FUZZ_CHECK (cpel_file_get_duration (file) == cpel_file_get_duration (indexed));
  FUZZ_CHECK (cpel_file_is_time_ordered (file) == cpel_file_is_time_ordered (indexed));

  a = cpel_merge_new (indexed, NULL, 0, cpel_file_get_duration (indexed) / 3);
  b = cpel_merge_new (file, NULL, 0, cpel_file_get_duration (indexed) / 3);
  while (cpel_merge_next (a, &ea, NULL) && n++ < 200000)
    {
      FUZZ_CHECK (cpel_merge_next (b, &eb, NULL));
      FUZZ_CHECK (ea.time_ns == eb.time_ns && ea.file_index == eb.file_index);
      FUZZ_CHECK (ea.track_slot == eb.track_slot && ea.type == eb.type);
      FUZZ_CHECK (ea.datum == eb.datum && ea.section == eb.section);
    }
  cpel_merge_free (a);
  cpel_merge_free (b);

  FUZZ_CHECK (cpel_file_ensure_index (file, NULL, NULL));
  FUZZ_CHECK (cpel_file_has_index (file));
  g_object_unref (file);

  /* nearly in order: streamed through each section's reorder heap, the
   * same events in the same order, from the start and from a third in */
  file = cpel_file_new_for_bytes (bytes, &deferred, &error);
  FUZZ_CHECK (file != NULL && error == NULL);
  had_index = cpel_file_has_index (file);   /* imported formats come indexed */
  if (cpel_file_check_nearly_ordered (file, NULL))
    for (int k = 0; k < 2; k++)
      {
        gint64 from = k == 0 ? G_MININT64 : cpel_file_get_duration (indexed) / 3;

        FUZZ_CHECK (cpel_file_can_stream (file));
        n = 0;
        a = cpel_merge_new (indexed, NULL, 0, from);
        b = cpel_merge_new (file, NULL, 0, from);
        while (cpel_merge_next (a, &ea, NULL) && n++ < 200000)
          {
            FUZZ_CHECK (cpel_merge_next (b, &eb, NULL));
            FUZZ_CHECK (ea.time_ns == eb.time_ns && ea.file_index == eb.file_index);
            FUZZ_CHECK (ea.track_slot == eb.track_slot && ea.type == eb.type);
            FUZZ_CHECK (ea.datum == eb.datum && ea.section == eb.section);
          }
        if (n <= 200000)
          FUZZ_CHECK (!cpel_merge_next (b, &eb, NULL));
        cpel_merge_free (a);
        cpel_merge_free (b);
        FUZZ_CHECK (cpel_file_has_index (file) == had_index);
      }
  g_object_unref (file);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* A private copy: the loader must never read past `size`, and ASan sees
   * an exact-size heap block. */
  GBytes *bytes = g_bytes_new (data, size);
  CpelLoadOptions options = { 0, 1 };
  GError *error = NULL;
  CpelFile *file;

  file = cpel_file_new_for_bytes (bytes, &options, &error);
  if (file == NULL && g_error_matches (error, CPEL_ERROR, CPEL_ERROR_CLOCK))
    {
      /* what the user does next: give a rate */
      g_clear_error (&error);
      options.ticks_per_second = 2600000000u;
      file = cpel_file_new_for_bytes (bytes, &options, &error);
    }
  if (file == NULL)
    {
      FUZZ_CHECK (error != NULL && error->domain == CPEL_ERROR);
      FUZZ_CHECK (error->message != NULL && error->message[0] != '\0');
      g_error_free (error);
    }
  else
    {
      FUZZ_CHECK (error == NULL);
      /* an imported format (perf.data, VPP elog…) is CPEL made in memory */
      if (cpel_file_get_imported_from (file) != NULL)
        FUZZ_CHECK (cpel_file_get_source_size (file) == size);
      else
        FUZZ_CHECK (cpel_file_get_size (file) == size);
      walk (file);
      stream (file, bytes, &options);
      g_object_unref (file);
    }
  g_bytes_unref (bytes);
  return 0;
}
