/* SPDX-License-Identifier: Apache-2.0 */
/* test-views.c — saved views: model, sidecar / fallback persistence, bad files */
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-views.h"

typedef struct
{
  char *dir;        /* a temporary directory holding the capture */
  char *capture;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("cpel-views-XXXXXX", &error);
  g_assert_no_error (error);
  f->capture = g_build_filename (f->dir, "capture.cpel", NULL);
  g_assert_true (g_file_set_contents (f->capture, "not read by the views", -1, NULL));
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d == NULL)
    {
      g_unlink (path);
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      remove_tree (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_chmod (f->dir, 0755);
  remove_tree (f->dir);
  g_free (f->capture);
  g_free (f->dir);
}

static CpelSavedView *
full_view (const char *name, gint64 t0)
{
  CpelSavedView *v = cpel_saved_view_new (name);
  guint32 order[] = { 7, 3, 0xfffffffe, 0 };
  guint32 hidden[] = { 5 };
  guint32 codes[] = { 12, 4000000000u };

  v->t0 = t0;
  v->t1 = t0 + 123456789;
  g_array_append_vals (v->track_order, order, G_N_ELEMENTS (order));
  g_array_append_vals (v->hidden_tracks, hidden, G_N_ELEMENTS (hidden));
  g_array_append_vals (v->hidden_codes, codes, G_N_ELEMENTS (codes));
  v->has_selection = TRUE;
  v->selected_track = 3;
  v->selected_time = t0 + 99;
  v->selected_file_index = G_GUINT64_CONSTANT (5000000000);
  v->scroll_y = 48.25;
  return v;
}

static gboolean
never_writable (const char *dir, gpointer data)
{
  guint *calls = data;

  if (calls)
    (*calls)++;
  return FALSE;
}

/* ---- model ------------------------------------------------------------ */

static void
test_model (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);
  g_autoptr(CpelSavedView) a = full_view ("alpha", 0);
  g_autoptr(CpelSavedView) b = cpel_saved_view_new ("beta");
  g_autoptr(CpelSavedView) c = cpel_saved_view_new ("gamma");
  g_autoptr(CpelSavedView) a2 = full_view ("alpha", 1000);
  g_autoptr(GError) error = NULL;
  guint index;

  g_assert_cmpstr (cpel_views_get_capture_path (views), ==, f->capture);
  g_assert_cmpint (cpel_views_get_current (views), ==, -1);
  g_assert_null (cpel_views_next (views));
  g_assert_null (cpel_views_previous (views));

  g_assert_cmpuint (cpel_views_put (views, a), ==, 0);
  g_assert_cmpuint (cpel_views_put (views, b), ==, 1);
  g_assert_cmpuint (cpel_views_put (views, c), ==, 2);
  g_assert_cmpuint (cpel_views_get_n_views (views), ==, 3);
  g_assert_cmpint (cpel_views_get_current (views), ==, 2);
  g_assert_true (cpel_saved_view_equal (cpel_views_get_view (views, 0), a));

  /* replace by name, in place */
  g_assert_cmpuint (cpel_views_put (views, a2), ==, 0);
  g_assert_cmpuint (cpel_views_get_n_views (views), ==, 3);
  g_assert_cmpint (cpel_views_get_view (views, 0)->t0, ==, 1000);
  g_assert_false (cpel_saved_view_equal (cpel_views_get_view (views, 0), a));

  /* next / previous wrap */
  g_assert_cmpstr (cpel_views_next (views)->name, ==, "beta");
  g_assert_cmpstr (cpel_views_next (views)->name, ==, "gamma");
  g_assert_cmpstr (cpel_views_next (views)->name, ==, "alpha");
  g_assert_cmpstr (cpel_views_previous (views)->name, ==, "gamma");
  cpel_views_set_current (views, -1);
  g_assert_cmpstr (cpel_views_previous (views)->name, ==, "gamma");
  cpel_views_set_current (views, -1);
  g_assert_cmpstr (cpel_views_next (views)->name, ==, "alpha");

  /* lookup, rename, remove */
  g_assert_true (cpel_views_lookup (views, "gamma", &index));
  g_assert_cmpuint (index, ==, 2);
  g_assert_false (cpel_views_lookup (views, "delta", NULL));
  g_assert_false (cpel_views_rename (views, "gamma", "beta", &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (cpel_views_rename (views, "delta", "x", &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (cpel_views_rename (views, "gamma", "", &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (cpel_views_rename (views, "gamma", "delta", &error));
  g_assert_no_error (error);
  g_assert_true (cpel_views_lookup (views, "delta", &index));
  g_assert_cmpuint (index, ==, 2);

  cpel_views_set_current (views, 2);
  g_assert_true (cpel_views_remove (views, "beta"));
  g_assert_cmpint (cpel_views_get_current (views), ==, 1);   /* still "delta" */
  g_assert_true (cpel_views_remove (views, "delta"));
  g_assert_cmpint (cpel_views_get_current (views), ==, 0);
  g_assert_false (cpel_views_remove (views, "delta"));
  g_assert_true (cpel_views_remove (views, "alpha"));
  g_assert_cmpint (cpel_views_get_current (views), ==, -1);
  g_assert_cmpuint (cpel_views_get_n_views (views), ==, 0);
}

static void
count_signal (gpointer instance, gpointer data)
{
  (*(guint *) data)++;
}

static void
count_notify (GObject *object, GParamSpec *pspec, gpointer data)
{
  (*(guint *) data)++;
}

static void
test_signals (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);
  g_autoptr(CpelSavedView) a = cpel_saved_view_new ("a");
  guint changed = 0, n_views = 0, current = 0;

  g_signal_connect (views, "changed", G_CALLBACK (count_signal), &changed);
  g_signal_connect (views, "notify::n-views", G_CALLBACK (count_notify), &n_views);
  g_signal_connect (views, "notify::current", G_CALLBACK (count_notify), &current);
  cpel_views_put (views, a);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (n_views, ==, 1);
  g_assert_cmpuint (current, ==, 1);
  cpel_views_put (views, a);              /* replace: no new count, same current */
  g_assert_cmpuint (changed, ==, 2);
  g_assert_cmpuint (n_views, ==, 1);
  g_assert_cmpuint (current, ==, 1);
  g_object_set (views, "current", -1, NULL);
  g_assert_cmpuint (current, ==, 2);
  g_object_set (views, "current", -1, NULL);
  g_assert_cmpuint (current, ==, 2);      /* explicit notify: unchanged, no signal */
  cpel_views_remove (views, "a");
  g_assert_cmpuint (changed, ==, 3);
  g_assert_cmpuint (n_views, ==, 2);
}

/* ---- persistence -------------------------------------------------------- */

static void
test_round_trip (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);
  g_autoptr(CpelViews) again = cpel_views_new (f->capture);
  g_autoptr(CpelSavedView) a = full_view ("before the drop", -5);
  g_autoptr(CpelSavedView) b = cpel_saved_view_new ("odd [name] = x;\ny\t\"q\" caf\303\251 #1");
  g_autoptr(GError) error = NULL;
  g_autofree char *sidecar = g_strconcat (f->capture, ".cpelviews", NULL);
  g_autofree char *path = NULL;

  b->t0 = G_MININT64;
  b->t1 = G_MAXINT64;
  b->scroll_y = 0;
  /* saved while comparing: the alignment */
  b->has_alignment = TRUE;
  b->compare_offset = G_MININT64;
  b->compare_origin = -250;
  cpel_views_put (views, a);
  cpel_views_put (views, b);
  cpel_views_set_current (views, 0);

  path = cpel_views_get_save_path (views);
  g_assert_cmpstr (path, ==, sidecar);
  g_assert_true (cpel_views_save (views, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_IS_REGULAR));

  g_assert_true (cpel_views_load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_views_get_n_views (again), ==, 2);
  g_assert_true (cpel_saved_view_equal (cpel_views_get_view (again, 0), a));
  g_assert_true (cpel_saved_view_equal (cpel_views_get_view (again, 1), b));
  g_assert_true (cpel_views_get_view (again, 1)->has_alignment);
  g_assert_cmpint (cpel_views_get_view (again, 1)->compare_offset, ==, G_MININT64);
  g_assert_cmpint (cpel_views_get_view (again, 1)->compare_origin, ==, -250);
  g_assert_false (cpel_views_get_view (again, 0)->has_alignment);
  g_assert_cmpint (cpel_views_get_current (again), ==, 0);

  /* a relative capture path names the same sidecar */
  {
    g_autofree char *cwd = g_get_current_dir ();
    g_autoptr(CpelViews) rel = NULL;
    g_autofree char *rel_sidecar = NULL;

    g_assert_cmpint (g_chdir (f->dir), ==, 0);
    rel = cpel_views_new ("./sub/../capture.cpel");
    rel_sidecar = cpel_views_get_sidecar_path (rel);
    g_assert_cmpstr (rel_sidecar, ==, sidecar);
    g_assert_true (cpel_views_load (rel, &error));
    g_assert_cmpuint (cpel_views_get_n_views (rel), ==, 2);
    g_assert_cmpint (g_chdir (cwd), ==, 0);
  }

  /* saving no view removes the file */
  cpel_views_remove (again, a->name);
  cpel_views_remove (again, b->name);
  g_assert_true (cpel_views_save (again, &error));
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  g_assert_true (cpel_views_load (views, &error));
  g_assert_cmpuint (cpel_views_get_n_views (views), ==, 0);
}

static void
test_export_import (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);
  g_autofree char *other_capture = g_build_filename (f->dir, "other.cpel", NULL);
  g_autoptr(CpelViews) other = cpel_views_new (other_capture);
  g_autoptr(CpelSavedView) a = full_view ("a", 10);
  g_autoptr(CpelSavedView) b = full_view ("b", 20);
  g_autoptr(CpelSavedView) old_a = cpel_saved_view_new ("a");
  g_autoptr(CpelSavedView) c = cpel_saved_view_new ("c");
  g_autofree char *path = g_build_filename (f->dir, "exported views.ini", NULL);
  g_autofree char *sidecar = NULL;
  g_autoptr(GError) error = NULL;

  cpel_views_put (views, a);
  cpel_views_put (views, b);
  g_assert_true (cpel_views_export (views, path, &error));
  g_assert_no_error (error);

  cpel_views_put (other, old_a);
  cpel_views_put (other, c);
  g_assert_true (cpel_views_import (other, path, &error));
  g_assert_no_error (error);
  /* "a" replaced in place, "c" kept, "b" added */
  g_assert_cmpuint (cpel_views_get_n_views (other), ==, 3);
  g_assert_true (cpel_saved_view_equal (cpel_views_get_view (other, 0), a));
  g_assert_true (cpel_saved_view_equal (cpel_views_get_view (other, 1), c));
  g_assert_true (cpel_saved_view_equal (cpel_views_get_view (other, 2), b));
  /* exporting wrote no sidecar */
  sidecar = cpel_views_get_sidecar_path (views);
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));
}

/* The capture's directory is read-only: the views go to the user data dir,
 * under the SHA-256 of the capture's path. */
static void
check_fallback (Fixture *f, CpelViews *views)
{
  g_autoptr(CpelSavedView) a = full_view ("a", 10);
  g_autoptr(CpelViews) again = cpel_views_new (f->capture);
  g_autoptr(GError) error = NULL;
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, f->capture, -1);
  g_autofree char *name = g_strconcat (hash, ".cpelviews", NULL);
  g_autofree char *want = g_build_filename (g_get_user_data_dir (), "cpelview", "views", name, NULL);
  g_autofree char *save = cpel_views_get_save_path (views);
  g_autofree char *fallback = cpel_views_get_fallback_path (views);
  g_autofree char *sidecar = cpel_views_get_sidecar_path (views);

  g_assert_cmpstr (fallback, ==, want);
  g_assert_cmpstr (save, ==, want);
  cpel_views_put (views, a);
  g_assert_true (cpel_views_save (views, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (want, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));

  /* found again (this model has the default writability check: as root it
   * sees a writable directory, finds no sidecar, and reads the fallback) */
  g_assert_true (cpel_views_load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_views_get_n_views (again), ==, 1);
  g_assert_true (cpel_saved_view_equal (cpel_views_get_view (again, 0), a));

  /* once the directory is writable again, the sidecar supersedes it */
  g_assert_cmpint (g_chmod (f->dir, 0755), ==, 0);
  g_assert_true (cpel_views_save (again, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (want, G_FILE_TEST_EXISTS));
}

static void
test_fallback_injected (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);
  guint calls = 0;

  cpel_views_set_writable_func (views, never_writable, &calls, NULL);
  check_fallback (f, views);
  g_assert_cmpuint (calls, >, 0);
}

static void
test_fallback_chmod (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);

  g_assert_cmpint (g_chmod (f->dir, 0555), ==, 0);
  if (g_access (f->dir, W_OK) == 0)
    {
      /* root: permissions do not stop writes; /core/views/fallback-injected
       * covers the logic */
      g_test_skip ("running as root: a 0555 directory is still writable");
      return;
    }
  check_fallback (f, views);
}

static void
test_bad_files (Fixture *f, gconstpointer data)
{
  static const char *bad[] = {
    "\x01\x02garbage \xff\xfe [[[ not a key file",
    "[CpelViews]\nVersion=1\n[View 1\nName=x\n",
    "[View 1]\nName=x\n",                                             /* no header */
    "[CpelViews]\nVersion=2\n",                                       /* newer */
    "[CpelViews]\nVersion=1\n[View 1]\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=zero\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=5\nEnd=5\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=99999999999999999999\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=1;x;3\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=4294967296\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=-1\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=nan\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=-3\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nSelectedTrack=1\nScrollY=0\n",
    /* an alignment: both keys, numbers */
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\nCompareOffset=5\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\nCompareOrigin=5\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\nCompareOffset=1e3\nCompareOrigin=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\nCompareOffset=0\nCompareOrigin=9223372036854775808\n",
    /* two views of one name */
    ("[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n"
     "[View 2]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n"),
    "[CpelViews]\nVersion=1\n[View 1]\nName=\xc3\x28\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    /* values GKeyFile cannot unescape (it returns a string and an error) */
    "[CpelViews]\nVersion=1\n[View 1]\nName=bad \\{ escape\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\\q\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
    "[CpelViews]\nVersion=1\n[View 1]\nName=a\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\\\n",
    /* an unknown escape and a trailing backslash: GLib 2.74 sets its error
     * twice (a warning, fatal here); found by fuzz-views */
    "[CpelViews]\nVersion=1\n[View 1]\nName=\\Dspaced \\\nStart=0\nEnd=1\nTrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n",
  };
  g_autofree char *sidecar = g_strconcat (f->capture, ".cpelviews", NULL);
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);
  g_autoptr(CpelSavedView) keep = cpel_saved_view_new ("kept");
  g_autoptr(GError) error = NULL;

  cpel_views_put (views, keep);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_true (g_file_set_contents (sidecar, bad[i], -1, NULL));
      g_assert_false (cpel_views_load (views, &error));
      g_assert_nonnull (error);
      g_test_message ("bad file %u: %s", i, error->message);
      g_clear_error (&error);
      /* the model is left as it was */
      g_assert_cmpuint (cpel_views_get_n_views (views), ==, 1);
      g_assert_cmpstr (cpel_views_get_view (views, 0)->name, ==, "kept");
      /* importing it fails the same way */
      g_assert_false (cpel_views_import (views, sidecar, &error));
      g_assert_nonnull (error);
      g_clear_error (&error);
      g_assert_cmpuint (cpel_views_get_n_views (views), ==, 1);
    }

  /* the minimal valid file, unknown keys and groups ignored */
  g_assert_true (g_file_set_contents (sidecar,
                                      "# comment\n[CpelViews]\nVersion=1\nFuture=yes\n[Other]\nx=1\n"
                                      "[View 9]\nName=ok\nStart= 0 \nEnd=1\nTrackOrder=;1;;2;\n"
                                      "HiddenTracks=\nHiddenCodes=\nScrollY=1e2\nColor=red\n", -1, NULL));
  g_assert_true (cpel_views_load (views, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_views_get_n_views (views), ==, 1);
  g_assert_cmpstr (cpel_views_get_view (views, 0)->name, ==, "ok");
  g_assert_cmpuint (cpel_views_get_view (views, 0)->track_order->len, ==, 2);
  g_assert_cmpfloat (cpel_views_get_view (views, 0)->scroll_y, ==, 100.0);
  g_assert_false (cpel_views_get_view (views, 0)->has_selection);
  g_assert_cmpint (cpel_views_get_current (views), ==, -1);

  /* too large: refused before parsing */
  {
    gsize size = CPEL_VIEWS_MAX_FILE_SIZE + 1;
    g_autofree char *big = g_malloc (size);

    memset (big, '#', size);
    g_assert_true (g_file_set_contents (sidecar, big, size, NULL));
    g_assert_false (cpel_views_load (views, &error));
    g_assert_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE);
    g_clear_error (&error);
  }

  /* a directory in the sidecar's place: an error, no crash */
  g_assert_cmpint (g_unlink (sidecar), ==, 0);
  g_assert_cmpint (g_mkdir (sidecar, 0700), ==, 0);
  g_assert_false (cpel_views_load (views, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (cpel_views_save (views, &error));
  g_assert_nonnull (error);
}

/* ---- against a file --------------------------------------------------------- */

static CpelFile *
small_file (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  CpelFile *file;

  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "a", NULL);
  cpel_writer_add_event_def (w, 2, "b", NULL);
  cpel_writer_add_event_def (w, 3, "c", NULL);
  cpel_writer_begin_events (w, t, 1000000000, 5);
  cpel_writer_add_event (w, 100, 30, 1, 0);
  cpel_writer_add_event (w, 200, 10, 2, 0);
  cpel_writer_add_event (w, 200, 10, 3, 0);   /* tie: file index 2 */
  cpel_writer_add_event (w, 300, 20, 1, 0);
  cpel_writer_add_event (w, 200, 10, 1, 0);   /* tie: file index 4 */
  g_assert_true (cpel_writer_finish (w, &error));
  bytes = cpel_writer_steal_bytes (w);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  return file;
}

static void
test_with_file (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelFile) file = small_file ();   /* slots: 10 -> 0, 20 -> 1, 30 -> 2 */
  g_autoptr(CpelSavedView) v = cpel_saved_view_new ("v");
  g_autofree guint *rows = NULL;
  g_autofree guint8 *hidden = NULL;
  guint slots[] = { 2, 0 };
  guint8 hide[3] = { 0, 1, 1 };
  guint n, slot;
  guint64 index;

  cpel_saved_view_set_rows (v, file, slots, 2);
  g_assert_cmpuint (v->track_order->len, ==, 2);
  g_assert_cmpuint (g_array_index (v->track_order, guint32, 0), ==, 30);
  g_assert_cmpuint (g_array_index (v->track_order, guint32, 1), ==, 10);
  g_array_append_val (v->track_order, (guint32) { 99 });   /* an id the file lacks */
  rows = cpel_saved_view_get_rows (v, file, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (rows[0], ==, 2);
  g_assert_cmpuint (rows[1], ==, 0);
  g_array_set_size (v->track_order, 0);
  g_assert_null (cpel_saved_view_get_rows (v, file, &n));
  g_assert_cmpuint (n, ==, 3);

  cpel_saved_view_set_hidden_types (v, file, hide);
  g_assert_cmpuint (v->hidden_codes->len, ==, 2);
  g_assert_cmpuint (g_array_index (v->hidden_codes, guint32, 0), ==, 2);
  g_assert_cmpuint (g_array_index (v->hidden_codes, guint32, 1), ==, 3);
  g_array_append_val (v->hidden_codes, (guint32) { 77 });   /* unknown code */
  hidden = cpel_saved_view_get_hidden_types (v, file);
  g_assert_cmpmem (hidden, 3, hide, 3);

  /* the selection: track 10, time 100 (relative), file index 4 — the last
   * of three tied events */
  v->has_selection = TRUE;
  v->selected_track = 10;
  v->selected_time = 100;
  v->selected_file_index = 4;
  g_assert_true (cpel_saved_view_find_selection (v, file, &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 2);
  v->selected_file_index = 2;
  g_assert_true (cpel_saved_view_find_selection (v, file, &slot, &index));
  g_assert_cmpuint (index, ==, 1);
  v->selected_file_index = 3;   /* that event is on track 20 */
  g_assert_false (cpel_saved_view_find_selection (v, file, &slot, &index));
  v->selected_file_index = 4;
  v->selected_track = 99;
  g_assert_false (cpel_saved_view_find_selection (v, file, &slot, &index));
  v->has_selection = FALSE;
  v->selected_track = 10;
  g_assert_false (cpel_saved_view_find_selection (v, file, NULL, NULL));
}

/* span settings live in the views file, with or without views */
static void
test_span_settings (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);
  g_autoptr(CpelViews) again = cpel_views_new (f->capture);
  g_autoptr(GError) error = NULL;
  g_autofree char *sidecar = g_strconcat (f->capture, ".cpelviews", NULL);
  const char *user = "span req begin event=rx end event=tx # a \"comment\"\n\tstate Up on x=1;y\n";
  const char *const disabled[] = { "span api-msg", "state Runnable (Preempted)", NULL };
  const char *const *got;
  const char old[] = "[CpelViews]\nVersion=1\n\n[View 1]\nName=v\nStart=0\nEnd=5\n"
                     "TrackOrder=\nHiddenTracks=\nHiddenCodes=\nScrollY=0\n";

  g_assert_null (cpel_views_get_span_rules_text (views));
  g_assert_null (cpel_views_get_disabled_rules (views));
  cpel_views_set_span_settings (views, user, disabled);
  g_assert_true (cpel_views_save (views, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_IS_REGULAR));
  g_assert_true (cpel_views_load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_views_get_n_views (again), ==, 0);
  g_assert_cmpstr (cpel_views_get_span_rules_text (again), ==, user);
  got = cpel_views_get_disabled_rules (again);
  g_assert_nonnull (got);
  g_assert_true (g_strv_equal (got, disabled));
  /* set to its own values: unchanged */
  cpel_views_set_span_settings (again, cpel_views_get_span_rules_text (again),
                                cpel_views_get_disabled_rules (again));
  g_assert_cmpstr (cpel_views_get_span_rules_text (again), ==, user);
  g_assert_true (g_strv_equal (cpel_views_get_disabled_rules (again), disabled));

  /* cleared: nothing left to keep, no file */
  cpel_views_set_span_settings (again, "", NULL);
  g_assert_null (cpel_views_get_span_rules_text (again));
  g_assert_true (cpel_views_save (again, &error));
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  g_assert_true (cpel_views_load (views, &error));
  g_assert_null (cpel_views_get_span_rules_text (views));
  g_assert_null (cpel_views_get_disabled_rules (views));

  /* an older file (no [Spans] group) reads as before */
  g_assert_true (g_file_set_contents (sidecar, old, -1, NULL));
  g_assert_true (cpel_views_load (views, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_views_get_n_views (views), ==, 1);
  g_assert_null (cpel_views_get_span_rules_text (views));

  /* a bad value is an error, the settings stay as they were */
  cpel_views_set_span_settings (views, "span a begin event=a end event=b", NULL);
  {
    g_autofree char *bad = g_strconcat (old, "[Spans]\nUserRules=x\\q\n", NULL);

    g_assert_true (g_file_set_contents (sidecar, bad, -1, NULL));
    g_assert_false (cpel_views_load (views, &error));
    g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
    g_clear_error (&error);
    g_assert_cmpstr (cpel_views_get_span_rules_text (views), ==,
                     "span a begin event=a end event=b");
  }
}

/* label formats live in the views file too, kept apart from the spans' */
static void
test_label_formats (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelViews) views = cpel_views_new (f->capture);
  g_autoptr(CpelViews) again = cpel_views_new (f->capture);
  g_autoptr(GError) error = NULL;
  g_autofree char *sidecar = g_strconcat (f->capture, ".cpelviews", NULL);
  const char *const formats[] = {
    "sched:sched_switch", "{prev_comm} → {next_comm}; [{next_pid}]",
    "odd=name [x]", "", NULL
  };
  const char old[] = "[CpelViews]\nVersion=1\n";

  g_assert_null (cpel_views_get_label_formats (views));
  cpel_views_set_label_formats (views, formats);
  cpel_views_set_span_settings (views, "span a begin event=a end event=b", NULL);
  g_assert_true (g_strv_equal (cpel_views_get_label_formats (views), formats));
  g_assert_true (cpel_views_save (views, &error));
  g_assert_no_error (error);
  g_assert_true (cpel_views_load (again, &error));
  g_assert_no_error (error);
  g_assert_nonnull (cpel_views_get_label_formats (again));
  g_assert_true (g_strv_equal (cpel_views_get_label_formats (again), formats));
  g_assert_cmpstr (cpel_views_get_span_rules_text (again), ==, "span a begin event=a end event=b");

  /* formats alone keep the file */
  cpel_views_set_span_settings (again, NULL, NULL);
  g_assert_true (cpel_views_save (again, &error));
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_IS_REGULAR));
  g_assert_true (cpel_views_load (views, &error));
  g_assert_true (g_strv_equal (cpel_views_get_label_formats (views), formats));
  cpel_views_set_label_formats (views, NULL);
  g_assert_true (cpel_views_save (views, &error));
  g_assert_false (g_file_test (sidecar, G_FILE_TEST_EXISTS));

  /* a type without its format is an error */
  {
    g_autofree char *bad = g_strconcat (old, "[Labels]\nFormats=a;{b};c;\n", NULL);

    g_assert_true (g_file_set_contents (sidecar, bad, -1, NULL));
    g_assert_false (cpel_views_load (views, &error));
    g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  }
}

static void
test_copy_equal (void)
{
  g_autoptr(CpelSavedView) a = full_view ("a", 5);
  g_autoptr(CpelSavedView) b = cpel_saved_view_copy (a);
  GValue value = G_VALUE_INIT;

  g_assert_true (cpel_saved_view_equal (a, b));
  g_assert_true (a->track_order != b->track_order);
  g_array_index (b->hidden_codes, guint32, 1) = 1;
  g_assert_false (cpel_saved_view_equal (a, b));
  g_array_index (b->hidden_codes, guint32, 1) = 4000000000u;
  b->selected_time++;
  g_assert_false (cpel_saved_view_equal (a, b));
  b->has_selection = a->has_selection = FALSE;
  g_assert_true (cpel_saved_view_equal (a, b));

  g_value_init (&value, CPEL_TYPE_SAVED_VIEW);
  g_value_set_boxed (&value, a);
  g_assert_true (cpel_saved_view_equal (g_value_get_boxed (&value), a));
  g_value_unset (&value);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/core/views/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("model", test_model);
  ADD ("signals", test_signals);
  ADD ("round-trip", test_round_trip);
  ADD ("export-import", test_export_import);
  ADD ("fallback-injected", test_fallback_injected);
  ADD ("fallback-chmod", test_fallback_chmod);
  ADD ("bad-files", test_bad_files);
  ADD ("with-file", test_with_file);
  ADD ("span-settings", test_span_settings);
  ADD ("label-formats", test_label_formats);
#undef ADD
  g_test_add_func ("/core/views/copy-equal", test_copy_equal);
  return g_test_run ();
}
