/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-views.c — libFuzzer target: a saved-views file (*.cpelviews)
 *
 * The input is the file's bytes.  cpel_views_read_file must accept it or
 * fail with an error; what it accepts must satisfy the documented
 * invariants (non-empty unique UTF-8 names, t1 > t0, scroll >= 0 and
 * finite, current < n; label formats in UTF-8 pairs), survive a write /
 * read round trip unchanged, and apply to a loaded capture: rows, hidden
 * types and selection in range, and set_rows / set_hidden_types of the
 * result give back the same slots.
 * The scratch files live in a private temporary directory.
 */
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-saved-view.h"
#include "cpel-views-private.h"
#include "fuzz-common.h"

static char *in_path;
static char *out_path;
static CpelFile *capture;

static void
put32 (GByteArray *b,
       guint32     v)
{
  guint32 be = GUINT32_TO_BE (v);
  g_byte_array_append (b, (const guint8 *) &be, 4);
}

/* A small capture: tracks 0, 7, 70000; codes 1, 2, 5000; 4 events. */
static CpelFile *
make_capture (void)
{
  static const guint32 events[4][5] = {
    { 0, 10, 0, 1, 1 }, { 0, 20, 7, 2, 2 }, { 0, 30, 70000, 5000, 3 }, { 0, 30, 7, 1, 4 },
  };
  GByteArray *b = g_byte_array_new ();
  guint8 name[64] = { 'T' };
  GBytes *bytes;
  GError *error = NULL;
  CpelFile *file;

  g_byte_array_append (b, (const guint8 *) "\x01\x00\x00\x02", 4);
  put32 (b, 1700000000);
  put32 (b, CPEL_SECTION_STRING_TABLE);
  put32 (b, 4);
  g_byte_array_append (b, (const guint8 *) "T\0\0\0", 4);
  put32 (b, CPEL_SECTION_EVENTS);
  put32 (b, 72 + 20 * G_N_ELEMENTS (events));
  g_byte_array_append (b, name, sizeof name);
  put32 (b, G_N_ELEMENTS (events));
  put32 (b, 1000000000);
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    for (guint j = 0; j < 5; j++)
      put32 (b, events[i][j]);
  bytes = g_byte_array_free_to_bytes (b);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  FUZZ_CHECK (file != NULL && error == NULL);
  FUZZ_CHECK (cpel_file_get_n_tracks (file) == 3 && cpel_file_get_n_events (file) == 4);
  g_bytes_unref (bytes);
  return file;
}

static char *scratch_dir;

/* The scratch files and their directory go when the fuzzer exits (the end
 * of -runs, or the replay driver's last input). */
static void
remove_scratch (void)
{
  g_unlink (in_path);
  g_unlink (out_path);
  g_rmdir (scratch_dir);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  scratch_dir = g_dir_make_tmp ("cpel-fuzz-views-XXXXXX", NULL);
  FUZZ_CHECK (scratch_dir != NULL);
  in_path = g_build_filename (scratch_dir, "in.cpelviews", NULL);
  out_path = g_build_filename (scratch_dir, "out.cpelviews", NULL);
  atexit (remove_scratch);
  capture = make_capture ();
  return 0;
}

static void
check_view (const CpelSavedView *v)
{
  guint n_tracks = cpel_file_get_n_tracks (capture);
  guint n_types = cpel_file_get_n_types (capture);
  guint n_rows, slot;
  guint64 index;
  guint *rows;
  guint8 *hidden;
  CpelSavedView *copy;

  FUZZ_CHECK (v->name != NULL && v->name[0] != '\0' && g_utf8_validate (v->name, -1, NULL));
  FUZZ_CHECK (v->t1 > v->t0);
  FUZZ_CHECK (isfinite (v->scroll_y) && v->scroll_y >= 0);
  FUZZ_CHECK (v->track_order && v->hidden_tracks && v->hidden_codes);

  copy = cpel_saved_view_copy (v);
  FUZZ_CHECK (cpel_saved_view_equal (v, copy));

  rows = cpel_saved_view_get_rows (v, capture, &n_rows);
  FUZZ_CHECK (rows != NULL || v->track_order->len == 0);
  FUZZ_CHECK (n_rows <= MAX (n_tracks, v->track_order->len));
  for (guint i = 0; rows && i < n_rows; i++)
    FUZZ_CHECK (rows[i] < n_tracks);
  /* (no row at all would read back as "every track") */
  if (rows && n_rows > 0)
    {
      guint *again, n_again;

      cpel_saved_view_set_rows (copy, capture, rows, n_rows);
      again = cpel_saved_view_get_rows (copy, capture, &n_again);
      FUZZ_CHECK (again != NULL && n_again == n_rows && memcmp (again, rows, n_rows * sizeof (guint)) == 0);
      g_free (again);
    }
  g_free (rows);

  hidden = cpel_saved_view_get_hidden_types (v, capture);
  if (hidden)
    {
      guint8 *again;

      cpel_saved_view_set_hidden_types (copy, capture, hidden);
      again = cpel_saved_view_get_hidden_types (copy, capture);
      FUZZ_CHECK (again != NULL && memcmp (again, hidden, n_types) == 0);
      g_free (again);
    }
  g_free (hidden);

  if (cpel_saved_view_find_selection (v, capture, &slot, &index))
    {
      FUZZ_CHECK (v->has_selection);
      FUZZ_CHECK (slot < n_tracks && index < cpel_file_get_track_n_events (capture, slot));
    }
  cpel_saved_view_free (copy);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GError *error = NULL;
  GPtrArray *views, *again;
  int current = -2, current2 = -2;
  CpelViewsSpanSettings spans = { NULL, NULL, NULL }, spans2 = { NULL, NULL, NULL };

  FUZZ_CHECK (g_file_set_contents (in_path, (const char *) data, size, NULL));
  views = cpel_views_read_file_full (in_path, &current, &spans, &error);
  if (views == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message[0] != '\0');
      g_error_free (error);
      return 0;
    }
  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK (current >= -1 && current < (int) views->len);
  /* the span settings: UTF-8, no empty id */
  FUZZ_CHECK (spans.user_rules == NULL || g_utf8_validate (spans.user_rules, -1, NULL));
  for (guint i = 0; spans.disabled != NULL && spans.disabled[i] != NULL; i++)
    FUZZ_CHECK (spans.disabled[i][0] != '\0' && g_utf8_validate (spans.disabled[i], -1, NULL));
  /* the label formats: type, format pairs in UTF-8 */
  FUZZ_CHECK (spans.labels == NULL || g_strv_length (spans.labels) % 2 == 0);
  for (guint i = 0; spans.labels != NULL && spans.labels[i] != NULL; i++)
    FUZZ_CHECK (g_utf8_validate (spans.labels[i], -1, NULL));

  for (guint i = 0; i < views->len; i++)
    {
      const CpelSavedView *v = g_ptr_array_index (views, i);

      check_view (v);
      for (guint j = 0; j < i; j++)
        FUZZ_CHECK (strcmp (v->name, ((const CpelSavedView *) g_ptr_array_index (views, j))->name) != 0);
    }

  /* round trip */
  FUZZ_CHECK (cpel_views_write_file_full (out_path, views, current, &spans, NULL));
  again = cpel_views_read_file_full (out_path, &current2, &spans2, &error);
  if (again == NULL)
    {
      fprintf (stderr, "the written views do not read back: %s\n", error->message);
      FUZZ_CHECK (!"written views read back");
    }
  FUZZ_CHECK (current2 == current);
  FUZZ_CHECK (g_strcmp0 (spans.user_rules, spans2.user_rules) == 0);
  FUZZ_CHECK ((spans.disabled == NULL) == (spans2.disabled == NULL));
  FUZZ_CHECK (spans.disabled == NULL
              || g_strv_equal ((const char *const *) spans.disabled,
                               (const char *const *) spans2.disabled));
  FUZZ_CHECK ((spans.labels == NULL) == (spans2.labels == NULL));
  FUZZ_CHECK (spans.labels == NULL
              || g_strv_equal ((const char *const *) spans.labels,
                               (const char *const *) spans2.labels));
  cpel_views_span_settings_clear (&spans);
  cpel_views_span_settings_clear (&spans2);
  FUZZ_CHECK (again->len == views->len);
  for (guint i = 0; i < views->len; i++)
    {
      const CpelSavedView *a = g_ptr_array_index (views, i), *b = g_ptr_array_index (again, i);
      if (!cpel_saved_view_equal (a, b))
        {
          fprintf (stderr, "view %u changed: name \"%s\" -> \"%s\", scroll %.17g -> %.17g\n",
                   i, a->name, b->name, a->scroll_y, b->scroll_y);
          FUZZ_CHECK (!"a view survives writing and reading");
        }
    }
  g_ptr_array_unref (again);
  g_ptr_array_unref (views);
  return 0;
}
