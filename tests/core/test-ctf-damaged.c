/* SPDX-License-Identifier: Apache-2.0 */
/* test-ctf-damaged.c — damaged CTF traces never kill the process that opens
 * them: libbabeltrace2 runs in a child (cpel-ctf-reader) under limits and a
 * watchdog, and what can be checked is checked before it reads.  Recipes
 * from a real LTTng trace (tests/fixtures/ctf/lttng-ust-2.13-pid): its
 * metadata truncated at 412 bytes (libbabeltrace2 2.0.4 loops forever), a
 * packet's content_size overwritten with 0xfffffffffffff000 (it aborts in
 * msg-iter.c), an index entry past the end of its stream (it aborts in
 * data-stream-file.c).  Each is opened through the import API twice: with
 * the checks (a plain error naming the file and byte), and with them
 * skipped (CPEL_CTF_SKIP_CHECKS) so that the reader meets the damage and is
 * stopped: "the trace reader stopped: …".  The watchdog is shortened for
 * the hanging recipe (CPEL_CTF_READER_TIMEOUT); the test waits on the
 * child's end, never on a fixed time.  Two recipes no check can see (the
 * library alone reads event payloads): the length of a dynamic array (a
 * sequence) made 2^28 (it allocates GBs, 3.3 GB in 20 s once) or over
 * G_MAXINT (it crashes); the reader's memory limit or its signal stops
 * them, the memory of this process and its children stays under 1 GiB. */
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-ctf-trace.h"
#include "cpel-ctf-writer.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

#define TRACE "fixtures/ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809"


/* Overwrites 8 bytes at `off` of `file` in `dir`. */
static void
poke64 (const char *dir, const char *file, gsize off, guint64 v)
{
  g_autofree char *p = g_build_filename (dir, file, NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (p, &data, &len, NULL));
  g_assert_cmpuint (len, >=, off + 8);
  memcpy (data + off, &v, 8);
  g_assert_true (g_file_set_contents (p, data, (gssize) len, NULL));
}

/* Overwrites 4 bytes at `off` of `file` in `dir`. */
static void
poke32 (const char *dir, const char *file, gsize off, guint32 v)
{
  g_autofree char *p = g_build_filename (dir, file, NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (p, &data, &len, NULL));
  g_assert_cmpuint (len, >=, off + 4);
  memcpy (data + off, &v, 4);
  g_assert_true (g_file_set_contents (p, data, (gssize) len, NULL));
}

typedef enum
{
  RECIPE_METADATA, RECIPE_PACKET, RECIPE_INDEX, RECIPE_ARRAY, RECIPE_ARRAY_NEGATIVE
} Recipe;

/* The first fixture_app:queue_sample event of ch0_1: its payload's
 * depths[4] (0, 0, 0, 65535), then the u32 length of the dynamic array
 * hist (1), then hist (1). */
static const guint8 queue_sample[] = { 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 0, 0, 0, 1 };

/* The byte offset of hist's length in ch0_1, found by its event's bytes. */
static gsize
array_length_offset (const char *dir)
{
  g_autofree char *p = g_build_filename (dir, "ch0_1", NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (p, &data, &len, NULL));
  for (gsize i = 0; i + sizeof queue_sample <= len; i++)
    if (memcmp (data + i, queue_sample, sizeof queue_sample) == 0)
      return i + 8;
  g_assert_not_reached ();
}

/* A copy of the fixture trace with the recipe's damage; NULL (skipped)
 * without the fixture. */
static char *
make_recipe (Recipe recipe)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, TRACE, NULL);
  g_assert_true (g_file_test (src, G_FILE_TEST_IS_DIR));
  g_autofree char *tmp = g_dir_make_tmp ("cpel-ctf-damaged-XXXXXX", NULL);
  char *dir = g_build_filename (tmp, "trace", NULL);
  cpel_test_copy_tree (src, dir);
  switch (recipe)
    {
    case RECIPE_METADATA:
      {
        g_autofree char *m = g_build_filename (dir, "metadata", NULL);
        g_assert_cmpint (truncate (m, 412), ==, 0);
      }
      break;
    case RECIPE_PACKET:
      /* the first packet's context: content_size at byte 48 (LTTng's layout) */
      poke64 (dir, "ch0_0", 48, GUINT64_TO_LE (G_GUINT64_CONSTANT (0xfffffffffffff000)));
      break;
    case RECIPE_INDEX:
      /* the first index entry's offset, big-endian, at byte 16 */
      poke64 (dir, "index/ch0_0.idx", 16, GUINT64_TO_BE (G_GUINT64_CONSTANT (1) << 30));
      break;
    case RECIPE_ARRAY:
      /* 2^28 elements: libbabeltrace2 2.0.4 allocates its fields, GBs */
      poke32 (dir, "ch0_1", array_length_offset (dir), GUINT32_TO_LE (1u << 28));
      break;
    case RECIPE_ARRAY_NEGATIVE:
      /* over G_MAXINT: a GLib critical, then a NULL dereference */
      poke32 (dir, "ch0_1", array_length_offset (dir), GUINT32_TO_LE (0xfffffff0u));
      break;
    }
  return dir;
}

static void
drop_recipe (const char *dir)
{
  g_autofree char *tmp = g_path_get_dirname (dir);
  cpel_test_remove_tree (tmp);
}

static void
assert_memory_bounded (void)
{
  struct rusage self, children;
  g_assert_cmpint (getrusage (RUSAGE_SELF, &self), ==, 0);
  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &children), ==, 0);
  /* ru_maxrss in KiB: under 1 GiB, the test process and the reader */
  g_assert_cmpint (self.ru_maxrss, <, 1 << 20);
  g_assert_cmpint (children.ru_maxrss, <, 1 << 20);
}

/* Opens the recipe through the import API: an error, the process alive. */
static void
check_recipe (gconstpointer data, gboolean checked, const char *expect)
{
  Recipe recipe = GPOINTER_TO_INT (data);
  g_autofree char *dir = make_recipe (recipe);
  g_autoptr(GError) error = NULL;

  if (checked)
    g_unsetenv ("CPEL_CTF_SKIP_CHECKS");
  else
    g_setenv ("CPEL_CTF_SKIP_CHECKS", "1", TRUE);
  /* the watchdog shortened, except for the runaway memory: the memory
   * limit's to stop (under AddressSanitizer it grows slower) */
  if (recipe != RECIPE_ARRAY)
    g_setenv ("CPEL_CTF_READER_TIMEOUT", "2", TRUE);
  g_autoptr(CpelFile) file = cpel_file_new_for_path (dir, NULL, NULL, NULL, NULL, &error);
  g_unsetenv ("CPEL_CTF_SKIP_CHECKS");
  g_unsetenv ("CPEL_CTF_READER_TIMEOUT");
  g_assert_null (file);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "This CTF trace is damaged ("));
  g_assert_nonnull (strstr (error->message, expect));
  assert_memory_bounded ();
  drop_recipe (dir);
}

static void
test_checked_metadata (gconstpointer data)
{
  check_recipe (data, TRUE, "metadata, byte 0: a metadata packet of 4096 bytes, 412 bytes left");
}

static void
test_checked_packet (gconstpointer data)
{
  check_recipe (data, TRUE, "ch0_0, byte 0: a packet's content of 18446744073709547520 bits");
}

static void
test_checked_index (gconstpointer data)
{
  check_recipe (data, TRUE, "ch0_0.idx, byte 16: an index entry's packet at byte 1073741824");
}

static void
test_isolated_metadata (gconstpointer data)
{
  /* libbabeltrace2 loops: the watchdog stops it */
  check_recipe (data, FALSE, "the trace reader stopped: no progress for 2 s");
}

static void
test_isolated_abort (gconstpointer data)
{
  /* libbabeltrace2 asserts: the reader dies, not this process */
  check_recipe (data, FALSE, "the trace reader stopped: killed by signal SIGABRT");
}

static void
test_array_runaway (gconstpointer data)
{
  /* nothing before the library can tell: the reader's memory limit stops it
   * (RLIMIT_AS, or the parent watching its resident memory) */
  check_recipe (data, TRUE, "the trace reader stopped: memory limit of ");
}

static void
test_array_negative (gconstpointer data)
{
  /* killed by SIGSEGV; under AddressSanitizer, which catches the signal,
   * "exit status 1" */
  check_recipe (data, TRUE, "the trace reader stopped: ");
}

static void
count_progress (double fraction, gpointer data)
{
  guint *calls = data;
  (void) fraction;
  (*calls)++;
}

/* The watchdog stops a reader that says nothing, not one that takes long:
 * a valid trace whose reading takes several times the watchdog's timeout
 * (a million events, read in 1.5 to 5 s here, under a 1 s watchdog) is
 * read in full, the reader's heartbeats and progress keeping it alive. */
static void
test_slow_valid (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("cpel-ctf-slow-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (tmp, "trace", NULL);
  g_autoptr(GError) error = NULL;
  const double timeout_s = 1;
  guint calls = 0;

  cpel_test_ctf_write (dir, 1000000);
  g_setenv ("CPEL_CTF_READER_TIMEOUT", "1", TRUE);
  gint64 start = g_get_monotonic_time ();
  CpelCtfTrace *t = cpel_ctf_trace_read (dir, NULL, count_progress, &calls, &error);
  double took = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  g_unsetenv ("CPEL_CTF_READER_TIMEOUT");
  g_test_message ("read in %.2f s under a %.2f s watchdog, %u progress calls",
                  took, timeout_s, calls);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  g_assert_cmpuint (cpel_ctf_trace_get_n_events (t), ==, 1000000);
  g_assert_cmpuint (calls, >, 1);
  cpel_ctf_trace_free (t);
  cpel_test_remove_tree (tmp);
  if (took < 2 * timeout_s)
    g_test_incomplete ("the trace was read faster than twice the watchdog's timeout: "
                       "a bigger one is needed on this machine");
}

/* The walk for traces is bounded (`cpel info /` once walked the whole file
 * system): a trace 3 folders down is found, the same trace 9 down is not,
 * and the message says where it looked. */
static void
test_walk_depth (void)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, TRACE, NULL);
  g_autofree char *tmp = g_dir_make_tmp ("cpel-ctf-walk-XXXXXX", NULL);
  g_autofree char *near = g_build_filename (tmp, "near", "a", "b", "trace", NULL);
  g_autofree char *far = g_build_filename (tmp, "far", "a", "b", "c", "d", "e", "f", "g", "h",
                                           "trace", NULL);
  g_autofree char *near_top = g_build_filename (tmp, "near", NULL);
  g_autofree char *far_top = g_build_filename (tmp, "far", NULL);
  g_autoptr(GError) error = NULL;

  cpel_test_copy_tree (src, near);
  cpel_test_copy_tree (src, far);
  g_autoptr(GPtrArray) found = cpel_ctf_find_trace_dirs (near_top, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, 1);
  g_assert_cmpstr (found->pdata[0], ==, near);
  g_autoptr(GPtrArray) none = cpel_ctf_find_trace_dirs (far_top, &error);
  g_assert_null (none);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "no CTF trace found in this folder (looked for a "));
  cpel_test_remove_tree (tmp);
}

/* A reader that would loop for a minute stops at once on cancel. */
static void
test_cancel (void)
{
  g_autofree char *dir = make_recipe (RECIPE_METADATA);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_setenv ("CPEL_CTF_SKIP_CHECKS", "1", TRUE);
  g_setenv ("CPEL_CTF_READER_TIMEOUT", "600", TRUE);
  g_cancellable_cancel (cancellable);
  CpelCtfTrace *t = cpel_ctf_trace_read (dir, cancellable, NULL, NULL, &error);
  g_unsetenv ("CPEL_CTF_SKIP_CHECKS");
  g_unsetenv ("CPEL_CTF_READER_TIMEOUT");
  g_assert_null (t);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  drop_recipe (dir);
}

/* A reader that is not there: a plain error, no hang. */
static void
test_no_reader (void)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, TRACE, NULL);
  g_autoptr(GError) error = NULL;

  g_setenv ("CPEL_CTF_READER", "/nonexistent/cpel-ctf-reader", TRUE);
  CpelCtfTrace *t = cpel_ctf_trace_read (src, NULL, NULL, NULL, &error);
  g_unsetenv ("CPEL_CTF_READER");
  g_assert_null (t);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "cannot be started"));
}

/* Several unrelated traces in a folder (LTTng's clock from the Unix epoch,
 * DPDK's from the machine's start): one plain sentence, the library's
 * words as the detail. */
static void
test_unrelated (void)
{
  g_autofree char *a = g_test_build_filename (G_TEST_DIST, TRACE, NULL);
  g_autofree char *b = g_test_build_filename (G_TEST_DIST, "fixtures/ctf/dpdk-22.11-lcores", NULL);
  g_autofree char *tmp = g_dir_make_tmp ("cpel-ctf-unrelated-XXXXXX", NULL);
  g_autofree char *t1 = g_build_filename (tmp, "one", NULL);
  g_autofree char *t2 = g_build_filename (tmp, "two", NULL);
  g_autoptr(GError) error = NULL;

  cpel_test_copy_tree (a, t1);
  cpel_test_copy_tree (b, t2);
  CpelCtfTrace *t = cpel_ctf_trace_read (tmp, NULL, NULL, NULL, &error);
  g_assert_null (t);
  g_test_message ("%s", error->message);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message,
                                   "2 traces with unrelated clocks: open one of them ("));
  g_assert_cmpuint (strlen (error->message), <, 400);
  cpel_test_remove_tree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/core/import/ctf/damaged/metadata-412/checked",
                        GINT_TO_POINTER (RECIPE_METADATA), test_checked_metadata);
  g_test_add_data_func ("/core/import/ctf/damaged/packet-content-size/checked",
                        GINT_TO_POINTER (RECIPE_PACKET), test_checked_packet);
  g_test_add_data_func ("/core/import/ctf/damaged/index-past-end/checked",
                        GINT_TO_POINTER (RECIPE_INDEX), test_checked_index);
  g_test_add_data_func ("/core/import/ctf/damaged/metadata-412/isolated",
                        GINT_TO_POINTER (RECIPE_METADATA), test_isolated_metadata);
  g_test_add_data_func ("/core/import/ctf/damaged/packet-content-size/isolated",
                        GINT_TO_POINTER (RECIPE_PACKET), test_isolated_abort);
  g_test_add_data_func ("/core/import/ctf/damaged/index-past-end/isolated",
                        GINT_TO_POINTER (RECIPE_INDEX), test_isolated_abort);
  g_test_add_data_func ("/core/import/ctf/damaged/array-length/runaway",
                        GINT_TO_POINTER (RECIPE_ARRAY), test_array_runaway);
  g_test_add_data_func ("/core/import/ctf/damaged/array-length/negative",
                        GINT_TO_POINTER (RECIPE_ARRAY_NEGATIVE), test_array_negative);
  g_test_add_func ("/core/import/ctf/damaged/cancel", test_cancel);
  g_test_add_func ("/core/import/ctf/watchdog/slow-valid", test_slow_valid);
  g_test_add_func ("/core/import/ctf/walk/depth", test_walk_depth);
  g_test_add_func ("/core/import/ctf/damaged/no-reader", test_no_reader);
  g_test_add_func ("/core/import/ctf/damaged/unrelated", test_unrelated);
  return g_test_run ();
}
