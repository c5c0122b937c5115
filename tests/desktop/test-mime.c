/* SPDX-License-Identifier: Apache-2.0 */
/* test-mime.c — the shared-mime-info definition built in data/ makes GIO
 * recognise CPEL files, by name and by content (magic), and nothing else.
 *
 * Usage (from meson): test-mime BUILT-MIME-XML UPDATE-MIME-DATABASE
 * The XML is installed into a private XDG_DATA_HOME, compiled with
 * update-mime-database, and only then is GIO's MIME machinery touched. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cpel-test-util.h"

#define CPEL_TYPE "application/x-cpel"

static char *data_home;   /* private XDG_DATA_HOME with our database */
static char *work_dir;    /* scratch files */

static char *
write_file (const char *name, const guint8 *data, gsize len)
{
  char *path = g_build_filename (work_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) data, len, &error);
  g_assert_no_error (error);
  return path;
}

/* content type of a file on disk, the way a file chooser or Files sees it */
static char *
content_type_of (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_CONTENT_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, &error);
  g_assert_no_error (error);
  return g_strdup (g_file_info_get_content_type (info));
}

static char *
copy_sample (const char *name)
{
  g_autofree char *sample = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (sample, &contents, &len, &error);
  g_assert_no_error (error);
  return write_file (name, (const guint8 *) contents, len);
}

static void
test_glob (void)
{
  /* the suffix alone is enough, whatever the content */
  static const guint8 junk[] = "not really an event log\n";
  g_autofree char *path = write_file ("junk.cpel", junk, sizeof junk - 1);
  g_autofree char *type = content_type_of (path);
  g_autofree char *guessed = g_content_type_guess ("capture.cpel", NULL, 0, NULL);

  g_assert_cmpstr (type, ==, CPEL_TYPE);
  g_assert_cmpstr (guessed, ==, CPEL_TYPE);
}

static void
test_sample (void)
{
  g_autofree char *path = copy_sample ("vpp-sample.cpel");
  g_autofree char *type = NULL;

  type = content_type_of (path);
  g_assert_cmpstr (type, ==, CPEL_TYPE);
}

static void
test_magic_big_endian (void)
{
  /* the real sample without its suffix: only the magic can tell */
  g_autofree char *path = copy_sample ("vpp-capture");
  g_autofree char *type = NULL;

  type = content_type_of (path);
  g_assert_cmpstr (type, ==, CPEL_TYPE);
}

static void
test_magic_little_endian (void)
{
  /* little-endian header (0x81), 1 section: an empty string table */
  static const guint8 le[] = {
    0x81, 0x00, 0x01, 0x00,  0x78, 0x56, 0x34, 0x12,
    0x01, 0x00, 0x00, 0x00,  0x04, 0x00, 0x00, 0x00,
    'S', 't', 'r', 0x00,
  };
  g_autofree char *path = write_file ("le-capture", le, sizeof le);
  g_autofree char *type = content_type_of (path);
  g_autofree char *guessed = NULL;
  gboolean uncertain = TRUE;

  g_assert_cmpstr (type, ==, CPEL_TYPE);

  /* data alone, no name */
  guessed = g_content_type_guess (NULL, le, sizeof le, &uncertain);
  g_assert_cmpstr (guessed, ==, CPEL_TYPE);
  g_assert_false (uncertain);
}

static void
test_magic_rejects (void)
{
  /* version octet right, but the first section type is absurd */
  static const guint8 bad_section[] = {
    0x01, 0x00, 0x00, 0x01,  0x56, 0xb3, 0xc5, 0xf2,
    0x12, 0x34, 0x56, 0x78,  0x00, 0x00, 0x00, 0x00,
  };
  /* little-endian flag with the section type in big-endian order */
  static const guint8 wrong_order[] = {
    0x81, 0x00, 0x01, 0x00,  0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01,  0x00, 0x00, 0x00, 0x00,
  };
  /* version 0: the older Gist format, not CPEL */
  static const guint8 gist[] = {
    0x00, 0x00, 0x00, 0x10,  0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01,  0x00, 0x00, 0x00, 0x00,
  };
  const struct { const char *name; const guint8 *data; gsize len; } cases[] = {
    { "bad-section", bad_section, sizeof bad_section },
    { "wrong-order", wrong_order, sizeof wrong_order },
    { "gist", gist, sizeof gist },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_file (cases[i].name, cases[i].data, cases[i].len);
      g_autofree char *type = content_type_of (path);

      g_test_message ("%s: %s", cases[i].name, type);
      g_assert_cmpstr (type, !=, CPEL_TYPE);
    }
}

/* perf.data by its magic, and a CTF trace's metadata file (text and
 * packetized) by theirs, whatever the name. */
static void
test_perf_and_ctf (void)
{
  static const guint8 perf[] = "PERFILE2\x68\0\0\0\0\0\0\0\x90\0\0\0\0\0\0\0";
  static const guint8 tsdl[] = "/* CTF 1.8 */\n\ntrace { major = 1; minor = 8; };\n";
  static const guint8 packet_le[] = { 0x57, 0x1d, 0xd1, 0x75, 0, 0, 0, 0, 0, 0, 0, 0 };
  static const guint8 packet_be[] = { 0x75, 0xd1, 0x1d, 0x57, 0, 0, 0, 0, 0, 0, 0, 0 };
  const struct { const char *name; const guint8 *data; gsize len; const char *type; } cases[] = {
    { "recording", perf, sizeof perf - 1, "application/x-perf-data" },
    { "metadata", tsdl, sizeof tsdl - 1, "application/x-ctf-metadata" },
    { "meta-le", packet_le, sizeof packet_le, "application/x-ctf-metadata" },
    { "meta-be", packet_be, sizeof packet_be, "application/x-ctf-metadata" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_file (cases[i].name, cases[i].data, cases[i].len);
      g_autofree char *type = content_type_of (path);

      g_assert_cmpstr (type, ==, cases[i].type);
    }
  g_autofree char *guessed = g_content_type_guess ("perf.data", NULL, 0, NULL);
  g_assert_cmpstr (guessed, ==, "application/x-perf-data");
}

/* The imported formats: by suffix, and by magic without a name. */
static void
test_imported_formats (void)
{
  static const struct { const char *rel, *type, *suffix; } cases[] = {
    { "vpp-elog/tiny.elog", "application/x-vpp-elog", "elog" },
    { "snabb-timeline/ring64-wrapped.timeline", "application/x-snabb-timeline", "timeline" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *sample = cpel_test_fixture_file (cases[i].rel);
      g_autofree char *contents = NULL, *named = NULL, *bare = NULL, *t1 = NULL, *t2 = NULL;
      g_autofree char *guessed = NULL, *name = NULL;
      gsize len = 0;

      g_assert_true (g_file_get_contents (sample, &contents, &len, NULL));
      name = g_strdup_printf ("capture.%s", cases[i].suffix);
      named = write_file (name, (const guint8 *) contents, len);
      bare = write_file (cases[i].suffix, (const guint8 *) contents, len);
      t1 = content_type_of (named);
      t2 = content_type_of (bare);
      g_assert_cmpstr (t1, ==, cases[i].type);
      g_assert_cmpstr (t2, ==, cases[i].type);
      guessed = g_content_type_guess (name, NULL, 0, NULL);
      g_assert_cmpstr (guessed, ==, cases[i].type);
    }
}

static void
test_description (void)
{
  g_autofree char *desc = NULL;

  g_setenv ("LANGUAGE", "C", TRUE);
  desc = g_content_type_get_description (CPEL_TYPE);
  g_assert_cmpstr (desc, ==, "CPEL event log");
  g_assert_true (g_content_type_is_a (CPEL_TYPE, "application/octet-stream"));
}

static void
install_database (const char *xml, const char *update_mime_database)
{
  g_autofree char *packages = g_build_filename (data_home, "mime", "packages", NULL);
  g_autofree char *dest = g_build_filename (packages, "io.github.cpelview.CpelView.xml", NULL);
  g_autofree char *mime_dir = g_build_filename (data_home, "mime", NULL);
  g_autofree char *contents = NULL;
  gsize len = 0;
  int status = 0;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { update_mime_database, mime_dir, NULL };

  g_assert_cmpint (g_mkdir_with_parents (packages, 0700), ==, 0);
  g_file_get_contents (xml, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (dest, contents, len, &error);
  g_assert_no_error (error);

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
}


int
main (int argc, char **argv)
{
  g_autofree char *tmp = NULL;
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  if (argc != 3)
    {
      g_printerr ("usage: %s MIME-XML UPDATE-MIME-DATABASE\n", argv[0]);
      return 2;
    }

  tmp = g_dir_make_tmp ("cpel-mime-XXXXXX", &error);
  g_assert_no_error (error);
  data_home = g_build_filename (tmp, "data", NULL);
  work_dir = g_build_filename (tmp, "files", NULL);
  g_assert_cmpint (g_mkdir_with_parents (work_dir, 0700), ==, 0);
  install_database (argv[1], argv[2]);

  /* Only the system database besides ours: a copy installed under
   * /usr/local by an earlier `meson install` must not make this pass. */
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_DATA_DIRS", "/usr/share", TRUE);

  g_test_add_func ("/desktop/mime/glob", test_glob);
  g_test_add_func ("/desktop/mime/sample", test_sample);
  g_test_add_func ("/desktop/mime/magic-big-endian", test_magic_big_endian);
  g_test_add_func ("/desktop/mime/magic-little-endian", test_magic_little_endian);
  g_test_add_func ("/desktop/mime/magic-rejects", test_magic_rejects);
  g_test_add_func ("/desktop/mime/perf-and-ctf", test_perf_and_ctf);
  g_test_add_func ("/desktop/mime/description", test_description);
  g_test_add_func ("/desktop/mime/imported-formats", test_imported_formats);

  ret = g_test_run ();

  cpel_test_remove_tree (tmp);
  g_free (data_home);
  g_free (work_dir);
  return ret;
}
