/* SPDX-License-Identifier: Apache-2.0 */
/* test-perf-symbols.c — names of perf sample addresses
 *
 * cpel-perf-elf-symbols.c on the fuzz seeds (a small shared object and its debug
 * file, tests/fuzz/make-elf-seeds.sh) and on hostile variants of them;
 * cpel-perf-symbols.c on a kallsyms text and on mappings over time; and
 * the importer against this machine's `perf script` (a new recording):
 * every sample's `ip sym+0xoff (dso)` as perf script prints it.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-perf-elf-symbols.h"
#include "cpel-perf-symbols.h"
#include "cpel-test-util.h"

static GBytes *
seed (const char *name)
{
  g_autofree char *path = g_build_filename (CPEL_TEST_ELF_SEEDS, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

static char *
sym_at (CpelPerfElfSymbols *e, guint64 addr)
{
  guint64 off = 0;
  const char *name = cpel_perf_elf_symbols_lookup (e, addr, &off);
  return name ? g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", name, off) : g_strdup ("-");
}

static void
test_elf_seed (void)
{
  g_autoptr(GBytes) so = seed ("seed-so");
  g_autoptr(GBytes) dbg = seed ("seed-debug");
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelPerfElfSymbols) e =
    cpel_perf_elf_symbols_new_from_data (g_bytes_get_data (so, NULL), g_bytes_get_size (so),
                                         &error);
  g_assert_no_error (error);
  g_autoptr(CpelPerfElfSymbols) d =
    cpel_perf_elf_symbols_new_from_data (g_bytes_get_data (dbg, NULL), g_bytes_get_size (dbg),
                                         &error);
  g_assert_no_error (error);

  /* readelf -s: weak_fn 0x3c0/4 WEAK, alias_name = alias_target 0x3c4/36,
   * _under 0x3e8/17, _ZN3foo3barEi 0x3f9/3; .plt 0x380 with a 16-byte
   * header, then ext_b, ext_a, weak_fn */
  const struct { guint64 addr; const char *want; } cases[] = {
    { 0x3c0, "weak_fn+0x0" }, { 0x3c3, "weak_fn+0x3" },
    { 0x3c4, "alias_target+0x0" },            /* aliases: the longer name, as perf */
    { 0x3e7, "alias_target+0x23" },
    { 0x3e8, "_under+0x0" },
    { 0x3fa, "foo::bar+0x1" },                /* demangled without parameters */
    { 0x3fc, "-" }, { 0x0, "-" }, { 0x385, "-" },
    { 0x390, "ext_b@plt+0x0" }, { 0x3af, "ext_a@plt+0xf" }, { 0x3b0, "weak_fn@plt+0x0" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = sym_at (e, cases[i].addr);
      g_assert_cmpstr (got, ==, cases[i].want);
    }
  g_assert_cmpuint (cpel_perf_elf_symbols_get_n_symbols (e), ==, 4);

  guint64 a;
  g_assert_true (cpel_perf_elf_symbols_offset_to_address (e, 0x3c0, &a));
  g_assert_cmpuint (a, ==, 0x3c0);
  g_assert_true (cpel_perf_elf_symbols_offset_to_address (e, 0xef8, &a));
  g_assert_cmpuint (a, ==, 0x1ef8);
  g_assert_false (cpel_perf_elf_symbols_offset_to_address (e, 0x5000, &a));

  /* the debug file: the same build id and symbols, no PLT data */
  gsize n1, n2;
  const guint8 *b1 = cpel_perf_elf_symbols_get_build_id (e, &n1);
  const guint8 *b2 = cpel_perf_elf_symbols_get_build_id (d, &n2);
  g_assert_cmpuint (n1, ==, 20);
  g_assert_cmpmem (b1, n1, b2, n2);
  g_autofree char *d1 = sym_at (d, 0x3c4);
  g_autofree char *d2 = sym_at (d, 0x395);
  g_assert_cmpstr (d1, ==, "alias_target+0x0");
  g_assert_cmpstr (d2, ==, "-");
}

/* Truncations and overwritten bytes of the seeds: an error or a table,
 * never a crash or a read outside the copy (ASan in sanitize.sh). */
static void
test_elf_hostile (void)
{
  const char *names[] = { "seed-so", "seed-debug" };
  for (guint f = 0; f < G_N_ELEMENTS (names); f++)
    {
      g_autoptr(GBytes) b = seed (names[f]);
      gsize size = g_bytes_get_size (b);
      const guint8 *orig = g_bytes_get_data (b, NULL);
      g_autofree guint8 *buf = g_malloc (size);
      guint ok = 0, failed = 0;
      for (gsize len = 0; len <= size; len += (len < 128 ? 1 : 37))
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(CpelPerfElfSymbols) e = cpel_perf_elf_symbols_new_from_data (orig, len, &error);
          if (e == NULL)
            {
              g_assert_nonnull (error);
              failed++;
              continue;
            }
          ok++;
          for (guint64 a = 0x340; a < 0x400; a += 3)
            {
              g_autofree char *s = sym_at (e, a);
              g_assert_true (g_utf8_validate (s, -1, NULL));
            }
        }
      g_assert_cmpuint (failed, >, 0);
      g_assert_cmpuint (ok, >, 0);

      /* header fields, section headers, symbols and relocations overwritten */
      GRand *rand = g_rand_new_with_seed (14 + f);
      const guint32 values[] = { 0, 1, 0xff, 0xffff, 0x7fffffff, 0xffffffff, 24, 0x1000 };
      for (guint round = 0; round < 3000; round++)
        {
          memcpy (buf, orig, size);
          guint n = 1 + g_rand_int_range (rand, 0, 4);
          for (guint k = 0; k < n; k++)
            {
              gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) size - 4) & ~(gsize) 3;
              guint32 v = g_rand_boolean (rand) ? values[g_rand_int_range (rand, 0, G_N_ELEMENTS (values))]
                                                : g_rand_int (rand);
              memcpy (buf + at, &v, 4);
            }
          g_autoptr(GError) error = NULL;
          g_autoptr(CpelPerfElfSymbols) e = cpel_perf_elf_symbols_new_from_data (buf, size, &error);
          if (e == NULL)
            {
              g_assert_nonnull (error);
              continue;
            }
          for (guint64 a = 0x340; a < 0x400; a += 5)
            {
              g_autofree char *s = sym_at (e, a);
              g_assert_true (g_utf8_validate (s, -1, NULL));
            }
          guint64 addr;
          (void) cpel_perf_elf_symbols_offset_to_address (e, 0x3c0, &addr);
        }
      g_rand_free (rand);
    }

  /* not regular files: an error at once, never a blocking open */
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-elf-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  const char *paths[] = { fifo, dir, "/dev/zero", "/nonexistent/lib.so" };
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GError) e2 = NULL;
      g_assert_null (cpel_perf_elf_symbols_new_for_path (paths[i], &e2));
      g_assert_nonnull (e2);
    }
  g_unlink (fifo);
  g_rmdir (dir);
}

static char *
kname (CpelPerfSymbols *ps, guint64 ip)
{
  guint64 off = 0;
  const char *dso = NULL;
  const char *name = cpel_perf_symbols_lookup (ps, 0, TRUE, ip, 0, &off, &dso);
  if (name == NULL)
    return g_strdup (dso ? dso : "-");
  return g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x %s", name, off, dso);
}

static void
test_kallsyms (void)
{
  const char *text =
    "ffffffff81000000 T srso_alias_untrain_ret\n"
    "ffffffff81000000 T _stext\n"
    "ffffffff81000000 T _text\n"
    "ffffffff81001000 t local_a\n"
    "ffffffff81001000 W weak_a\n"
    "ffffffff81001040 T __global_b\n"
    "ffffffff81001040 T global_b\n"
    "ffffffff81002000 D some_data\n"
    "ffffffff81003000 B some_bss\n"
    "ffffffff81004000 r skipped_rodata\n"
    "not a line\n"
    "ffffffff8100 T\n"
    "1ffffffff81000000 T seventeen_digits\n"
    "ffffffffc0000000 t mod_fn\t[mod_a]\n"
    "ffffffffc0000100 T mod_fn2\t[mod_a]\n"
    "ffffffffc0001000 t other_mod_fn\t[mod_b]";   /* no newline at the end */
  g_autoptr(CpelPerfSymbols) ps = cpel_perf_symbols_new ();
  /* 12 taken, aliases merged: _text, weak_a, global_b, some_data, some_bss,
   * mod_fn, mod_fn2, other_mod_fn */
  g_assert_cmpuint (cpel_perf_symbols_set_kallsyms (ps, text, strlen (text)), ==, 8);
  guint64 a = 0;
  g_assert_true (cpel_perf_symbols_kallsyms_address (ps, "_text", &a));
  g_assert_cmpuint (a, ==, G_GUINT64_CONSTANT (0xffffffff81000000));

  const struct { guint64 ip; const char *want; } cases[] = {
    /* perf: unsized (all of kallsyms) loses to sized, so the last alias wins */
    { G_GUINT64_CONSTANT (0xffffffff81000010), "_text+0x10 [kernel.kallsyms]" },
    { G_GUINT64_CONSTANT (0xffffffff81001000), "weak_a+0x0 [kernel.kallsyms]" },
    { G_GUINT64_CONSTANT (0xffffffff81001041), "global_b+0x1 [kernel.kallsyms]" },
    /* the last before the modules ends at the next page */
    { G_GUINT64_CONSTANT (0xffffffff81003fff), "some_bss+0xfff [kernel.kallsyms]" },
    { G_GUINT64_CONSTANT (0xffffffff81004000), "[kernel.kallsyms]" },
    { G_GUINT64_CONSTANT (0xffffffffc0000104), "mod_fn2+0x4 [mod_a]" },
    { G_GUINT64_CONSTANT (0xffffffffc0001fff), "other_mod_fn+0xfff [mod_b]" },
    { G_GUINT64_CONSTANT (0xffffffffc0002000), "[kernel.kallsyms]" },
    { 0x1000, "[kernel.kallsyms]" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = kname (ps, cases[i].ip);
      g_assert_cmpstr (got, ==, cases[i].want);
    }
  /* KASLR: the recording's _text 16 MiB higher */
  cpel_perf_symbols_set_kernel_reloc (ps, 0x1000000);
  g_autofree char *moved = kname (ps, G_GUINT64_CONSTANT (0xffffffff82001041));
  g_assert_cmpstr (moved, ==, "global_b+0x1 [kernel.kallsyms]");

  /* garbage: nothing kept, no crash */
  const char garbage[] = "ffffffff81000000 T \0name\nzz T x\n\t\t\n ffffffff81000000 T y\n";
  g_assert_cmpuint (cpel_perf_symbols_set_kallsyms (ps, garbage, sizeof garbage - 1), ==, 0);
  g_autofree char *none = kname (ps, G_GUINT64_CONSTANT (0xffffffff81000000));
  g_assert_cmpstr (none, ==, "-");
}

static char *
uname_at (CpelPerfSymbols *ps, guint32 pid, guint64 ip, guint64 time)
{
  g_autoptr(GString) s = g_string_new (NULL);
  if (!cpel_perf_symbols_append (ps, pid, FALSE, ip, time, s))
    return g_strdup ("-");
  return g_strdup (s->str);
}

/* Mappings over time, fork and exec, build ids and debug files, with the
 * seed under a private root. */
static void
test_maps (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("cpel-root-XXXXXX", &error);
  g_assert_no_error (error);
  g_autoptr(GBytes) so = seed ("seed-so");
  g_autoptr(CpelPerfElfSymbols) e =
    cpel_perf_elf_symbols_new_from_data (g_bytes_get_data (so, NULL), g_bytes_get_size (so), NULL);
  gsize bid_size;
  const guint8 *bid = cpel_perf_elf_symbols_get_build_id (e, &bid_size);
  g_autofree char *libdir = g_build_filename (root, "lib", NULL);
  g_assert_cmpint (g_mkdir (libdir, 0700), ==, 0);
  g_autofree char *lib = g_build_filename (libdir, "seed.so", NULL);
  g_assert_true (g_file_set_contents (lib, g_bytes_get_data (so, NULL), g_bytes_get_size (so), NULL));

  g_autoptr(CpelPerfSymbols) ps = cpel_perf_symbols_new ();
  cpel_perf_symbols_set_root (ps, root);
  const guint64 base = G_GUINT64_CONSTANT (0x7f0000000000);
  cpel_perf_symbols_add_map (ps, 10, 100, base, 0x1000, 0, "/lib/seed.so", NULL, 0);
  /* a later mapping over it, of a binary not on disk */
  cpel_perf_symbols_add_map (ps, 10, 1000, base, 0x1000, 0, "/lib/gone.so", NULL, 0);
  cpel_perf_symbols_add_fork (ps, 11, 10, 200);
  cpel_perf_symbols_add_exec (ps, 11, 400);
  cpel_perf_symbols_add_fork (ps, 12, 10, 50);        /* before the mapping */
  /* the same file recorded with another build id: not this file */
  guint8 other[20];
  memset (other, 0x5a, sizeof other);
  cpel_perf_symbols_add_map (ps, 13, 0, base, 0x1000, 0, "/lib/seed.so", other, 20);
  /* the right build id, and the pgoff of a second mapping */
  cpel_perf_symbols_add_map (ps, 14, 0, base + 0x10000, 0x1000, 0x1000, "/lib/seed.so", bid, bid_size);
  cpel_perf_symbols_add_map (ps, 14, 0, base, 0x1000, 0, "[vdso]", NULL, 0);
  cpel_perf_symbols_prepare (ps);

  const struct { guint32 pid; guint64 ip, time; const char *want; } cases[] = {
    { 10, base + 0x3c4, 150, " alias_target+0x0 (/lib/seed.so)" },
    { 10, base + 0x3c4, 99, "-" },                                  /* not mapped yet */
    { 10, base + 0x3c4, 1000, " [unknown] (/lib/gone.so)" },        /* the newer mapping */
    { 10, base + 0x1000, 150, "-" },                                /* past its end */
    { 11, base + 0x3e9, 300, " _under+0x1 (/lib/seed.so)" },        /* the parent's, after fork */
    { 11, base + 0x3e9, 500, "-" },                                 /* gone with exec */
    { 12, base + 0x3e9, 300, "-" },                                 /* forked before the mapping */
    { 13, base + 0x3c4, 0, " [unknown] (/lib/seed.so)" },        /* build id differs */
    { 14, base + 0x103c0, 0, " [unknown] (/lib/seed.so)" },        /* offset 0x13c0: no segment */
    { 14, base + 0xf3c0, 0, "-" },                                  /* below the mapping */
    { 14, base + 0x10000, 0, " [unknown] (/lib/seed.so)" },        /* offset 0x1000: data, no symbol */
    { 14, base + 0x10, 0, " [unknown] ([vdso])" },
    { 99, base + 0x3c4, 0, "-" },                                   /* unknown process */
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = uname_at (ps, cases[i].pid, cases[i].ip, cases[i].time);
      if (g_strcmp0 (got, cases[i].want) != 0)
        g_error ("case %u: got '%s', want '%s'", i, got, cases[i].want);
    }

  /* a stripped binary names its symbols through its debug file */
  g_autoptr(GBytes) dbg = seed ("seed-debug");
  g_autofree char *hexid = g_malloc0 (2 * bid_size + 1);
  for (gsize i = 0; i < bid_size; i++)
    g_snprintf (hexid + 2 * i, 3, "%02x", bid[i]);
  g_autofree char *ddir = g_strdup_printf ("%s/usr/lib/debug/.build-id/%.2s", root, hexid);
  g_assert_cmpint (g_mkdir_with_parents (ddir, 0700), ==, 0);
  g_autofree char *dpath = g_strdup_printf ("%s/%s.debug", ddir, hexid + 2);
  g_assert_true (g_file_set_contents (dpath, g_bytes_get_data (dbg, NULL), g_bytes_get_size (dbg), NULL));
  g_autoptr(CpelPerfSymbols) ps2 = cpel_perf_symbols_new ();
  cpel_perf_symbols_set_root (ps2, root);
  /* the binary is not on disk under this name: its symbols from the debug
   * file, its segments too */
  cpel_perf_symbols_add_build_id (ps2, "/lib/elsewhere.so", bid, bid_size);
  cpel_perf_symbols_add_map (ps2, 1, 0, base, 0x1000, 0, "/lib/elsewhere.so", NULL, 0);
  cpel_perf_symbols_prepare (ps2);
  g_autofree char *via_debug = uname_at (ps2, 1, base + 0x3fa, 0);
  g_assert_cmpstr (via_debug, ==, " foo::bar+0x1 (/lib/elsewhere.so)");

  g_autofree char *rm = g_strdup_printf ("rm -rf %s", root);
  g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL);
}

/* perf script's `ip sym+0xoff (dso)` per sample, [unknown] left out as the
 * importer leaves it out; keyed by time and tid. */
static GHashTable *
perf_script_symbols (const char *perf, const char *data, const char *out)
{
  g_autofree char *cmd = g_strdup_printf ("sh -c '%s script -i %s -F tid,time,ip,sym,symoff,dso --ns > %s 2>/dev/null'",
                                          perf, data, out);
  int status = 0;
  g_autoptr(GError) error = NULL;
  g_spawn_command_line_sync (cmd, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  g_autoptr(GRegex) re = g_regex_new ("^\\s*(\\d+)\\s+(\\d+)\\.(\\d{9}):\\s+([0-9a-f]+)\\s+(.*?)\\s*$", 0, 0, &error);
  g_assert_no_error (error);
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) rows = g_strsplit (text, "\n", -1);
  for (guint i = 0; rows[i]; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      if (!g_regex_match (re, rows[i], 0, &m))
        continue;
      g_autofree char *tid = g_match_info_fetch (m, 1);
      g_autofree char *sec = g_match_info_fetch (m, 2);
      g_autofree char *ns = g_match_info_fetch (m, 3);
      g_autofree char *ip = g_match_info_fetch (m, 4);
      g_autofree char *rest = g_match_info_fetch (m, 5);
      guint64 t = g_ascii_strtoull (sec, NULL, 10) * 1000000000 + g_ascii_strtoull (ns, NULL, 10);
      const char *r = rest;   /* "[unknown] (dso)" too: printed as perf prints it */
      g_hash_table_insert (h, g_strdup_printf ("%" G_GUINT64_FORMAT " %s", t, tid),
                           g_strdup_printf ("%s %s", ip, r));
    }
  return h;
}

static void
test_live (void)
{
  g_autofree char *perf = g_find_program_in_path ("perf");
  if (perf == NULL)
    {
      g_test_skip ("perf (Debian linux-perf) is not installed: skipping");
      return;
    }
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-perfsym-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *out = g_build_filename (dir, "live.perf.data", NULL);
  g_autofree char *script = g_build_filename (dir, "live.txt", NULL);
  /* kernel and user time in sh, gzip (stripped: its debug file when
   * installed, else .dynsym) and ls */
  g_autofree char *cmd = g_strdup_printf ("%s record -q -o %s -F 2999 -e cpu-clock -- sh -c 'for i in 1 2 3; do "
                                          "gzip -9 -c /usr/share/common-licenses/GPL-3 >/dev/null; done; "
                                          "ls -lR /usr/share/doc >/dev/null' >/dev/null 2>&1", perf, out);
  int status = 0;
  g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL);
  if (!g_spawn_check_wait_status (status, NULL) || !g_file_test (out, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("perf record is not permitted here (not root, perf_event_paranoid): skipping");
      g_unlink (out);
      g_rmdir (dir);
      return;
    }
  g_autoptr(GHashTable) ref = perf_script_symbols (perf, out, script);

  g_autoptr(CpelFile) file = cpel_file_new_for_path (out, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* where the names came from, for File Information and `cpel info` */
  const char *ksrc = cpel_file_get_source_value (file, "Kernel symbols");
  const char *files = cpel_file_get_source_value (file, "Binaries' symbols");
  g_test_message ("Kernel symbols: %s; Binaries' symbols: %s", ksrc, files);
  g_assert_nonnull (files);
  g_assert_true (g_str_has_prefix (files, "read from "));
  g_assert_true (ksrc == NULL || strstr (ksrc, "kallsyms") != NULL || g_str_has_prefix (ksrc, "none: "));
  guint64 first = G_MAXUINT64;
  GHashTableIter it;
  gpointer k;
  g_hash_table_iter_init (&it, ref);
  while (g_hash_table_iter_next (&it, &k, NULL))
    first = MIN (first, g_ascii_strtoull (k, NULL, 10));

  g_autoptr(CpelMerge) merge = cpel_merge_new (file, NULL, 0, 0);
  CpelEvent ev;
  guint64 idx, n = 0, named_kernel = 0, named_user = 0;
  g_autoptr(GString) s = g_string_new (NULL);
  while (cpel_merge_next (merge, &ev, &idx))
    {
      g_string_truncate (s, 0);
      cpel_file_append_datum (file, &ev, s);
      /* "pid/tid ip sym+0xoff (dso)" */
      const char *slash = strchr (s->str, '/'), *sp = strchr (s->str, ' ');
      g_assert_nonnull (slash);
      g_assert_nonnull (sp);
      g_autofree char *tid = g_strndup (slash + 1, (gsize) (sp - slash - 1));
      g_autofree char *key = g_strdup_printf ("%" G_GUINT64_FORMAT " %s", first + (guint64) ev.time_ns, tid);
      const char *want = g_hash_table_lookup (ref, key);
      if (want == NULL)
        g_error ("no perf script sample at %s: %s", key, s->str);
      if (strstr (want, "(/tmp/perf-") == NULL)   /* JIT symbol files: not read */
        g_assert_cmpstr (sp + 1, ==, want);
      if (strstr (want, "+0x") != NULL)
        {
          if (strstr (want, "([kernel.kallsyms])") != NULL)
            named_kernel++;
          else
            named_user++;
        }
      n++;
    }
  g_assert_cmpuint (n, ==, g_hash_table_size (ref));
  g_test_message ("%" G_GUINT64_FORMAT " samples, perf named %" G_GUINT64_FORMAT " in the kernel and %"
                  G_GUINT64_FORMAT " in user space: the same names", n, named_kernel, named_user);
  /* not a vacuous comparison: perf names some (user space always: libc's
   * .dynsym at least) */
  g_assert_cmpuint (named_user, >, 0);

  g_unlink (script);
  g_unlink (out);
  g_autofree char *old = g_strconcat (out, ".old", NULL);
  g_unlink (old);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/import/perf/symbols/elf-seed", test_elf_seed);
  g_test_add_func ("/core/import/perf/symbols/elf-hostile", test_elf_hostile);
  g_test_add_func ("/core/import/perf/symbols/kallsyms", test_kallsyms);
  g_test_add_func ("/core/import/perf/symbols/maps", test_maps);
  g_test_add_func ("/core/import/perf/symbols/live", test_live);
  return g_test_run ();
}
