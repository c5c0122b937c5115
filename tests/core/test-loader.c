/* SPDX-License-Identifier: Apache-2.0 */
/* test-loader.c — CpelLoader: a file loaded in a worker, step by step
 * (detect, import, index), its step, format and progress notified in the
 * caller's thread, cancellable; the same file as cpel_file_new_for_path (). */
#include <string.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-loader.h"
#include "import-writers.h"

typedef struct
{
  GPtrArray    *steps;      /* the "step" values seen, as nicks */
  double        last_fraction;
  gboolean      fraction_decreased;
  guint         n_fraction;
  char         *format_at_import;
  CpelFile     *file;
  GError       *error;
  gboolean      done;
  GThread      *main_thread;
} Watch;

static void
watch_clear (Watch *w)
{
  g_ptr_array_unref (w->steps);
  g_free (w->format_at_import);
  g_clear_object (&w->file);
  g_clear_error (&w->error);
}

static void
on_step (CpelLoader *loader,
         GParamSpec *pspec,
         Watch      *w)
{
  GEnumClass *klass = g_type_class_ref (CPEL_TYPE_LOADER_STEP);
  GEnumValue *v = g_enum_get_value (klass, cpel_loader_get_step (loader));

  g_assert_true (g_thread_self () == w->main_thread);
  g_ptr_array_add (w->steps, (gpointer) v->value_nick);
  if (cpel_loader_get_step (loader) == CPEL_LOADER_STEP_IMPORT)
    w->format_at_import = g_strdup (cpel_loader_get_format (loader));
  g_type_class_unref (klass);
}

static void
on_fraction (CpelLoader *loader,
             GParamSpec *pspec,
             Watch      *w)
{
  double f = cpel_loader_get_fraction (loader);

  g_assert_true (g_thread_self () == w->main_thread);
  if (f < w->last_fraction)
    w->fraction_decreased = TRUE;
  w->last_fraction = f;
  w->n_fraction++;
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Watch *w = user_data;

  w->file = cpel_loader_load_finish (CPEL_LOADER (source), result, &w->error);
  w->done = TRUE;
}

/* Loads `path` to the end, watching; the steps seen joined by spaces. */
static char *
run (const char   *path,
     GCancellable *cancellable,
     Watch        *w)
{
  g_autoptr(CpelLoader) loader = cpel_loader_new (path, NULL);

  memset (w, 0, sizeof *w);
  w->steps = g_ptr_array_new ();
  w->main_thread = g_thread_self ();
  g_assert_cmpint (cpel_loader_get_step (loader), ==, CPEL_LOADER_STEP_NONE);
  g_assert_null (cpel_loader_get_format (loader));
  g_assert_cmpstr (cpel_loader_get_path (loader), ==, path);
  g_signal_connect (loader, "notify::step", G_CALLBACK (on_step), w);
  g_signal_connect (loader, "notify::fraction", G_CALLBACK (on_fraction), w);
  cpel_loader_load_async (loader, cancellable, on_loaded, w);
  while (!w->done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (cpel_loader_get_step (loader), ==, CPEL_LOADER_STEP_DONE);
  g_ptr_array_add (w->steps, NULL);
  return g_strjoinv (" ", (char **) w->steps->pdata);
}

static char *
tmp_file (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-loader-XXXXXX", &error);

  g_assert_no_error (error);
  return g_build_filename (dir, name, NULL);
}

static void
remove_tmp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* CPEL: detected, then indexed; no import step. */
static void
test_cpel (void)
{
  g_autofree char *path = tmp_file ("gen.cpel");
  CpelGenOptions gen = { .n_events = 20000, .n_tracks = 4, .seed = 7 };
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) direct = NULL;
  g_autofree char *steps = NULL;
  Watch w;

  g_assert_true (cpel_gen_write (path, &gen, &error));
  g_assert_no_error (error);
  steps = run (path, NULL, &w);
  g_assert_no_error (w.error);
  g_assert_nonnull (w.file);
  g_assert_cmpstr (steps, ==, "detect index done");
  g_assert_false (w.fraction_decreased);
  g_assert_cmpfloat (w.last_fraction, ==, 1.0);
  g_assert_cmpuint (w.n_fraction, >=, 1);
  g_assert_null (cpel_file_get_imported_from (w.file));

  direct = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (w.file), ==, cpel_file_get_n_events (direct));
  g_assert_cmpuint (cpel_file_get_n_events (w.file), ==, 20000);
  g_assert_cmpint (cpel_file_get_duration (w.file), ==, cpel_file_get_duration (direct));
  watch_clear (&w);
  remove_tmp (path);
}

/* Another format: detected (the format known from then on), imported,
 * indexed; the texts made from the source when asked. */
static void
test_import (void)
{
  g_autofree char *path = tmp_file ("engine.timeline");
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *steps = NULL;
  Snabbw sw;
  guint16 m;
  Watch w;

  snabbw_init (&sw, 8, 256, 3);
  m = snabbw_message (&sw, "5,9|lane.step lane=a: seq");
  for (guint s = 0; s < 8; s++)
    {
      double arg = s;

      snabbw_entry (&sw, s, 1000.0 * (s + 1), m, 0, &arg, 1);
    }
  g_assert_true (g_file_set_contents (path, (const char *) sw.a->data, sw.a->len, &error));
  g_byte_array_unref (sw.a);

  steps = run (path, NULL, &w);
  g_assert_no_error (w.error);
  g_assert_nonnull (w.file);
  g_assert_cmpstr (steps, ==, "detect import index done");
  g_assert_cmpstr (w.format_at_import, ==, "snabb");
  g_assert_false (w.fraction_decreased);
  g_assert_cmpfloat (w.last_fraction, ==, 1.0);
  g_assert_cmpstr (cpel_file_get_imported_from (w.file), ==, "snabb");
  g_assert_cmpstr (cpel_file_get_path (w.file), ==, path);
  g_assert_cmpuint (cpel_file_get_n_events (w.file), ==, 8);
  g_assert_true (cpel_file_has_event_texts (w.file));
  watch_clear (&w);
  remove_tmp (path);
}

/* Not an event log: detection fails, the loader ends. */
static void
test_unsupported (void)
{
  g_autofree char *path = tmp_file ("notes.txt");
  g_autoptr(GError) error = NULL;
  g_autofree char *steps = NULL;
  Watch w;

  g_assert_true (g_file_set_contents (path, "hello\n", -1, &error));
  steps = run (path, NULL, &w);
  g_assert_null (w.file);
  g_assert_error (w.error, CPEL_ERROR, CPEL_ERROR_NOT_CPEL);
  g_assert_nonnull (strstr (w.error->message, "none of the formats this program reads"));
  g_assert_cmpstr (steps, ==, "detect done");
  watch_clear (&w);
  remove_tmp (path);
}

/* Cancelled: G_IO_ERROR_CANCELLED, no file. */
static void
test_cancel (void)
{
  g_autofree char *path = tmp_file ("gen.cpel");
  CpelGenOptions gen = { .n_events = 1000, .n_tracks = 2, .seed = 3 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *steps = NULL;
  Watch w;

  g_assert_true (cpel_gen_write (path, &gen, &error));
  g_cancellable_cancel (cancellable);
  steps = run (path, cancellable, &w);
  g_assert_null (w.file);
  g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpstr (steps, ==, "done");
  watch_clear (&w);
  remove_tmp (path);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/loader/cpel", test_cpel);
  g_test_add_func ("/core/loader/import", test_import);
  g_test_add_func ("/core/loader/unsupported", test_unsupported);
  g_test_add_func ("/core/loader/cancel", test_cancel);
  return g_test_run ();
}
