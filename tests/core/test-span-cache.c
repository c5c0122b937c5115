/* SPDX-License-Identifier: Apache-2.0 */
/* test-span-cache.c — derived spans kept beside the index: a warm re-open
 * reads them, other rules or another version of the file derive again,
 * and a damaged cache file is never used */
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-span-cache-private.h"
#include "cpel-spans-private.h"
#include "cpel-test-util.h"

#define RULES "span x begin event=b end event=e\n" \
              "span k begin event=kb end event=ke key id restart\n" \
              "state * on event=st field.s=*\n"

typedef struct
{
  char *dir;
  char *cache_dir;
  char *path;
} Fixture;

typedef struct
{
  guint64     t;
  guint32     track;
  const char *event;
  const char *text;
} Ev;

/* nesting, orphans at both ends, an interrupted keyed span, states */
static const Ev evs[] = {
  { 0, 1, "e", NULL }, { 5, 1, "b", NULL }, { 8, 1, "b", NULL }, { 9, 2, "st", "s=run" },
  { 10, 1, "e", NULL }, { 12, 2, "kb", "id=1" }, { 14, 2, "kb", "id=1" }, { 15, 2, "ke", "id=1" },
  { 20, 2, "st", "s=wait" }, { 25, 3, "kb", "id=7" }, { 30, 1, "e", NULL }, { 40, 1, "b", NULL },
  { 50, 2, "st", "s=run" }, { 60, 3, "z", NULL },
};

static void
write_capture (const char *path,
               const Ev   *ev,
               guint       n,
               guint64     shift)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  g_autoptr(GHashTable) codes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree guint32 *datums = g_new0 (guint32, n);
  guint t = cpel_writer_add_string_table (w, "T");
  FILE *out;

  cpel_writer_begin_event_defs (w, t);
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (codes, ev[i].event))
      {
        guint code = g_hash_table_size (codes) + 1;

        g_hash_table_insert (codes, (gpointer) ev[i].event, GUINT_TO_POINTER (code));
        cpel_writer_add_event_def (w, code, ev[i].event, "%s");
      }
  cpel_writer_begin_track_defs (w, t);
  for (guint track = 1; track <= 3; track++)
    {
      g_autofree char *label = g_strdup_printf ("track %u", track);

      cpel_writer_add_track_def (w, track, label);
    }
  for (guint i = 0; i < n; i++)
    datums[i] = cpel_writer_add_string (w, t, ev[i].text ? ev[i].text : "");
  cpel_writer_begin_events (w, t, 1000000000, n);
  for (guint i = 0; i < n; i++)
    cpel_writer_add_event (w, ev[i].t + shift, ev[i].track,
                           GPOINTER_TO_UINT (g_hash_table_lookup (codes, ev[i].event)), datums[i]);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  bytes = cpel_writer_steal_bytes (w);
  /* in place: the same inode, as a capture rewritten */
  out = fopen (path, "wb");
  g_assert_nonnull (out);
  g_assert_cmpuint (fwrite (g_bytes_get_data (bytes, NULL), 1, g_bytes_get_size (bytes), out), ==,
                    g_bytes_get_size (bytes));
  g_assert_cmpint (fclose (out), ==, 0);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("cpel-span-cache-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->cache_dir = g_build_filename (f->dir, "cache", NULL);
  f->path = g_build_filename (f->dir, "capture.cpel", NULL);
  write_capture (f->path, evs, G_N_ELEMENTS (evs), 0);
}

static void
remove_dir (const char *path)
{
  g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_dir (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  remove_dir (f->dir);
  g_free (f->dir);
  g_free (f->cache_dir);
  g_free (f->path);
}

static CpelFile *
open_file (Fixture  *f,
           gboolean  cache)
{
  CpelLoadOptions options = { .use_cache = cache, .cache_dir = f->cache_dir,
                              .cache_min_events = 1 };
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_path (f->path, &options, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

static CpelSpans *
derive (CpelFile      *file,
        CpelSpanRules *rules)
{
  g_autoptr(GError) error = NULL;
  CpelSpans *spans = cpel_spans_derive (file, rules, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (spans);
  /* a store started by this derivation has ended */
  cpel_span_cache_wait ();
  return spans;
}

/* Every span and state, with its times, depth, flags, name and key. */
static char *
describe (CpelFile  *file,
          CpelSpans *spans)
{
  GString *out = g_string_new (NULL);

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    for (int k = 0; k < 2; k++)
      {
        guint64 n;
        const CpelSpan *a = k ? cpel_spans_get_track_states (spans, slot, &n)
                              : cpel_spans_get_track_spans (spans, slot, &n);

        for (guint64 i = 0; i < n; i++)
          {
            g_autofree char *field = NULL;
            g_autofree char *value = NULL;

            g_string_append_printf (out, "%u:%s[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "]d%uf%u",
                                    slot, cpel_spans_get_name (spans, a[i].name),
                                    cpel_spans_begin_ns (spans, slot, &a[i]),
                                    cpel_spans_end_ns (spans, slot, &a[i]), a[i].depth,
                                    a[i].flags);
            if (cpel_spans_dup_key (spans, slot, &a[i], &field, &value))
              g_string_append_printf (out, "{%s=%s}", field, value);
            g_string_append_c (out, ' ');
          }
      }
  g_string_append_printf (out, "n=%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                          cpel_spans_get_n_spans (spans), cpel_spans_get_n_states (spans));
  return g_string_free (out, FALSE);
}

static guint
count_span_caches (Fixture *f)
{
  return cpel_test_count_suffix (f->cache_dir, CPEL_SPAN_CACHE_SUFFIX);
}

static char *
span_cache_path (Fixture *f)
{
  g_autoptr(GDir) d = g_dir_open (f->cache_dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, CPEL_SPAN_CACHE_SUFFIX))
      return g_build_filename (f->cache_dir, name, NULL);
  return NULL;
}

static void
test_reopen (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
  g_autofree char *first = NULL, *again = NULL;

  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);
    g_autoptr(CpelSpans) spans = derive (file, rules);

    g_assert_false (cpel_spans_is_from_cache (spans));
    first = describe (file, spans);
    g_assert_cmpuint (count_span_caches (f), ==, 1);
  }
  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);
    g_autoptr(CpelSpanRules) same = cpel_test_span_rules_new (RULES);
    g_autoptr(CpelSpans) spans = derive (file, same);
    CpelSpanRuleCount counts[3];

    /* read, not derived: the same spans, names, keys and counts */
    g_assert_true (cpel_spans_is_from_cache (spans));
    again = describe (file, spans);
    g_assert_cmpstr (again, ==, first);
    cpel_spans_count_by_rule (spans, counts, 3);
    g_assert_cmpuint (counts[0].spans, ==, 4);
    g_assert_cmpuint (counts[0].orphan_ends, ==, 1);
    g_assert_cmpuint (counts[1].spans, ==, 3);
    g_assert_cmpuint (counts[2].spans, ==, 3);
    g_assert_cmpuint (count_span_caches (f), ==, 1);
  }
  /* what the spans are, checked once here */
  g_assert_true (strstr (first, "0:x[0,0]d0f1 ") != NULL);       /* the end without a begin */
  g_assert_true (strstr (first, "0:x[40,60]d0f2 ") != NULL);     /* the begin without an end */
  g_assert_true (strstr (first, "1:k[12,14]d0f4{id=1} ") != NULL); /* interrupted */
  g_assert_true (strstr (first, "1:wait[20,50]d0f8 ") != NULL);
  g_assert_true (g_str_has_suffix (first, "n=10/3"));

  /* without the cache: neither read nor written */
  {
    g_autoptr(CpelFile) file = open_file (f, FALSE);
    g_autoptr(CpelSpans) spans = derive (file, rules);

    g_assert_false (cpel_spans_is_from_cache (spans));
    g_assert_false (cpel_span_cache_wanted (file));
  }
}

static void
test_rules_and_range (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
  g_autoptr(CpelSpanRules) other = cpel_test_span_rules_new ("span x begin event=b end event=e\n");
  g_autoptr(CpelFile) file = open_file (f, TRUE);
  CpelSpansOptions range = { .t0 = 0, .t1 = 30 };
  guint slot = 1;
  CpelSpansOptions tracks = { .slots = &slot, .n_slots = 1 };
  g_autoptr(GError) error = NULL;

  cpel_spans_free (derive (file, rules));
  g_assert_cmpuint (count_span_caches (f), ==, 1);
  /* other rules: derived again, and they replace the file (one per
   * capture), which the first rules then do not read */
  {
    g_autoptr(CpelSpans) spans = derive (file, other);
    g_autoptr(CpelSpans) again = NULL;
    CpelIndexCacheLoad status;

    g_assert_false (cpel_spans_is_from_cache (spans));
    g_assert_cmpuint (cpel_spans_get_n_spans (spans), ==, 4);
    g_assert_cmpuint (count_span_caches (f), ==, 1);
    again = cpel_span_cache_load (file, rules, &status);
    g_assert_null (again);
    g_assert_cmpint (status, ==, CPEL_INDEX_CACHE_STALE);
  }
  /* the whole capture asked not to be kept: read, not stored */
  {
    g_autoptr(CpelSpanRules) third =
      cpel_test_span_rules_new ("span y begin event=kb end event=ke\n");
    CpelSpansOptions no_store = { .no_store = TRUE };
    g_autoptr(CpelSpans) a = cpel_spans_derive (file, third, &no_store, NULL, &error);
    g_autoptr(CpelSpans) b = cpel_spans_derive (file, other, &no_store, NULL, &error);

    g_assert_no_error (error);
    cpel_span_cache_wait ();
    g_assert_false (cpel_spans_is_from_cache (a));
    g_assert_true (cpel_spans_is_from_cache (b));
    g_assert_cmpuint (count_span_caches (f), ==, 1);
  }
  /* a part of the capture: never read from, nor stored in, the cache */
  {
    g_autoptr(CpelSpans) a = cpel_spans_derive (file, rules, &range, NULL, &error);
    g_autoptr(CpelSpans) b = cpel_spans_derive (file, rules, &tracks, NULL, &error);

    g_assert_no_error (error);
    cpel_span_cache_wait ();
    g_assert_false (cpel_spans_is_from_cache (a));
    g_assert_false (cpel_spans_is_from_cache (b));
    g_assert_cmpuint (cpel_spans_get_n_spans (b), ==, 5);
    g_assert_cmpuint (count_span_caches (f), ==, 1);
  }
}

static void
test_file_changed (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
  CpelIndexCacheLoad status;

  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);

    cpel_spans_free (derive (file, rules));
  }
  /* the same events later in time: the same indices, other times */
  write_capture (f->path, evs, G_N_ELEMENTS (evs), 1000);
  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);
    g_autoptr(CpelSpans) stale = NULL;
    g_autoptr(CpelSpans) spans = NULL;

    g_assert_true (cpel_file_ensure_index (file, NULL, NULL));
    stale = cpel_span_cache_load (file, rules, &status);
    g_assert_null (stale);
    g_assert_cmpint (status, ==, CPEL_INDEX_CACHE_STALE);
    spans = derive (file, rules);
    g_assert_false (cpel_spans_is_from_cache (spans));
  }
  /* stored again over the stale one */
  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);
    g_autoptr(CpelSpans) spans = cpel_span_cache_load (file, rules, &status);

    g_assert_nonnull (spans);
    g_assert_cmpint (status, ==, CPEL_INDEX_CACHE_USED);
    g_assert_cmpuint (count_span_caches (f), ==, 1);
  }
}

/* Loads `data` as the cache of `file`; what is accepted must survive
 * every reader. */
static gboolean
try_load (CpelFile                *file,
          CpelSpanRules           *rules,
          const CpelIndexCacheKey *key,
          const guint8            *data,
          gsize                    len,
          CpelIndexCacheLoad      *status)
{
  g_autoptr(CpelSpans) spans = cpel_span_cache_load_data (file, rules, key, data, len, status);

  if (spans == NULL)
    return FALSE;
  g_free (describe (file, spans));
  return TRUE;
}

static void
test_damaged (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
  g_autoptr(CpelFile) file = open_file (f, TRUE);
  g_autoptr(CpelSpans) spans = derive (file, rules);
  g_autofree char *expected = describe (file, spans);
  CpelIndexCacheKey key;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = span_cache_path (f);
  g_autofree gchar *stored = NULL;
  gsize len, stored_len;
  const guint8 *good;
  g_autofree guint8 *bad = NULL;
  CpelIndexCacheLoad status;
  CpelSpanCacheHeader h;

  g_assert_true (cpel_index_cache_compute_key (file, 0, &key));
  bytes = cpel_span_cache_serialize (spans, &key);
  good = g_bytes_get_data (bytes, &len);
  /* the stored file is exactly that */
  g_assert_nonnull (path);
  g_assert_true (g_file_get_contents (path, &stored, &stored_len, NULL));
  g_assert_cmpmem (stored, stored_len, good, len);
  {
    g_autoptr(CpelSpans) back = cpel_span_cache_load_data (file, rules, &key, good, len, &status);
    g_autofree char *got = NULL;

    g_assert_nonnull (back);
    got = describe (file, back);
    g_assert_cmpstr (got, ==, expected);
  }

  /* every truncation */
  for (gsize n = 0; n < len; n++)
    g_assert_false (try_load (file, rules, &key, good, n, &status));
  /* every bit of every byte flipped: a checksum or a check fails */
  bad = g_memdup2 (good, len);
  for (gsize i = 0; i < len; i++)
    for (int bit = 0; bit < 8; bit++)
      {
        bad[i] ^= 1 << bit;
        g_assert_false (try_load (file, rules, &key, bad, len, &status));
        bad[i] ^= 1 << bit;
      }
  /* hostile: every byte of the names and records set to each of a few
   * values with the sums made right — only the checks stand */
  memcpy (&h, good, sizeof h);
  for (gsize i = h.names_offset; i < len; i++)
    {
      static const guint8 values[] = { 0x00, 0x01, 0x0f, 0x10, 0x7f, 0xff };

      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          memcpy (bad, good, len);
          bad[i] = values[v];
          g_assert_true (cpel_span_cache_reseal (bad, len));
          try_load (file, rules, &key, bad, len, &status);
        }
    }
  /* a record pointing past its track's events, sums made right */
  memcpy (bad, good, len);
  ((CpelSpan *) (bad + h.records_offset))->end = 1000;
  g_assert_true (cpel_span_cache_reseal (bad, len));
  g_assert_false (try_load (file, rules, &key, bad, len, &status));
  g_assert_cmpint (status, ==, CPEL_INDEX_CACHE_DAMAGED);
  /* another version of the format, another file, other rules */
  memcpy (bad, good, len);
  ((CpelSpanCacheHeader *) bad)->version++;
  g_assert_true (cpel_span_cache_reseal (bad, len));
  g_assert_false (try_load (file, rules, &key, bad, len, &status));
  g_assert_cmpint (status, ==, CPEL_INDEX_CACHE_OTHER_VERSION);
  {
    CpelIndexCacheKey other = key;
    g_autoptr(CpelSpanRules) fewer =
      cpel_test_span_rules_new ("span x begin event=b end event=e\n");

    other.size++;
    g_assert_false (try_load (file, rules, &other, good, len, &status));
    g_assert_cmpint (status, ==, CPEL_INDEX_CACHE_STALE);
    g_assert_false (try_load (file, fewer, &key, good, len, &status));
    g_assert_cmpint (status, ==, CPEL_INDEX_CACHE_STALE);
  }

  /* a damaged file in the cache dir: derived again, and replaced */
  bad[0] = 'X';
  g_assert_true (g_file_set_contents (path, (const char *) bad, (gssize) len, NULL));
  {
    g_autoptr(CpelFile) again = open_file (f, TRUE);
    g_autoptr(CpelSpans) derived = derive (again, rules);
    g_autoptr(CpelSpans) read = NULL;

    g_assert_false (cpel_spans_is_from_cache (derived));
    read = derive (again, rules);
    g_assert_true (cpel_spans_is_from_cache (read));
  }
}

/* A FIFO (or a link) where the cache file goes is never opened: the spans
 * are derived, and stored in its place. */
static void
test_fifo (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
  g_autofree char *path = NULL;

  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);

    cpel_spans_free (derive (file, rules));
  }
  path = span_cache_path (f);
  g_assert_nonnull (path);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);
    g_autoptr(CpelSpans) spans = derive (file, rules);

    g_assert_false (cpel_spans_is_from_cache (spans));
    g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  }
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (symlink (f->path, path), ==, 0);
  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);
    g_autoptr(CpelSpans) spans = derive (file, rules);

    g_assert_false (cpel_spans_is_from_cache (spans));
  }
}

/* The cache dir's usage, clear and trim count the span caches too. */
static void
test_dir (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(CpelSpanRules) rules = cpel_test_span_rules_new (RULES);
  guint n_files = 0;
  guint64 bytes = 0;

  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);

    cpel_spans_free (derive (file, rules));
  }
  g_assert_true (cpel_index_cache_get_usage (f->cache_dir, &n_files, &bytes, NULL));
  g_assert_cmpuint (count_span_caches (f), ==, 1);
  g_assert_cmpuint (n_files, ==,
                    cpel_test_count_suffix (f->cache_dir, CPEL_INDEX_CACHE_SUFFIX) + 1);
  g_assert_cmpuint (bytes, >, 0);
  cpel_index_cache_trim (f->cache_dir, 0);
  g_assert_cmpuint (count_span_caches (f), ==, 0);
  {
    g_autoptr(CpelFile) file = open_file (f, TRUE);

    cpel_spans_free (derive (file, rules));
  }
  g_assert_cmpuint (count_span_caches (f), ==, 1);
  g_assert_true (cpel_index_cache_clear (f->cache_dir, NULL, NULL, NULL));
  g_assert_cmpuint (count_span_caches (f), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/core/span-cache/reopen", Fixture, NULL, fixture_setup, test_reopen,
              fixture_teardown);
  g_test_add ("/core/span-cache/rules-and-range", Fixture, NULL, fixture_setup,
              test_rules_and_range, fixture_teardown);
  g_test_add ("/core/span-cache/file-changed", Fixture, NULL, fixture_setup, test_file_changed,
              fixture_teardown);
  g_test_add ("/core/span-cache/damaged", Fixture, NULL, fixture_setup, test_damaged,
              fixture_teardown);
  g_test_add ("/core/span-cache/dir", Fixture, NULL, fixture_setup, test_dir, fixture_teardown);
  g_test_add ("/core/span-cache/fifo", Fixture, NULL, fixture_setup, test_fifo, fixture_teardown);
  return g_test_run ();
}
