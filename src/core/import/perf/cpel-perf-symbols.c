/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-symbols.c — names for perf sample addresses
 *
 * The way perf script names them (tools/perf/util/{machine,map,symbol}.c),
 * reduced to what a perf.data file and this machine's disk hold: kallsyms
 * symbols of types T, W, D and B (module symbols named by their module);
 * per process the executable mappings, looked up at the sample's time; a
 * binary's symbols from its debug file (/usr/lib/debug/.build-id/xx/y.debug)
 * or itself, and never from a file whose build id differs from the
 * recorded one.  Every file is untrusted: kallsyms lines are parsed with
 * bounds, ELF files by cpel-perf-elf-symbols.c; at most DSO_LOAD_MAX binaries are
 * opened per import.
 */
#include "cpel-perf-symbols.h"

#include <string.h>
#include <inttypes.h>

#include "cpel-perf-elf-symbols.h"

#define DSO_LOAD_MAX      4096
#define MAP_SCAN_MAX      256     /* overlapping mappings examined per lookup */
#define PROC_HOPS_MAX     16      /* fork parents followed per lookup */
#define KALLSYMS_NAMES_MAX (G_GUINT64_CONSTANT (1) << 30)

typedef struct
{
  char           *path;          /* as recorded: a path, "[vdso]", "//anon" */
  guint8          build_id[20];
  gsize           build_id_size;
  gboolean        loaded;
  CpelPerfElfSymbols *runtime;       /* the binary: its segments */
  CpelPerfElfSymbols *debug;         /* its debug file: symbols */
} Dso;

typedef struct
{
  guint64  start, end, pgoff, time;
  Dso     *dso;
} Map;

typedef struct
{
  GArray  *maps;                 /* Map, sorted by start after prepare */
  GArray  *execs;                /* guint64 times, sorted after prepare */
  guint32  parent;
  gboolean has_parent;
  guint64  fork_time;
} Proc;

struct _CpelPerfSymbols
{
  /* kernel */
  GArray      *ksyms;            /* CpelSym */
  GString     *knames;
  gint64       kreloc;
  guint64      ktext, kstext;     /* _text, _stext (0 = absent) */
  /* user */
  GHashTable  *procs;            /* pid -> Proc */
  GHashTable  *dsos;             /* "path\nbuild id" -> Dso */
  GHashTable  *build_ids;        /* path -> GBytes */
  guint        n_loaded;
  char        *root;
  guint32      last_pid;
  Proc        *last_proc;
};

static void
dso_free (gpointer p)
{
  Dso *d = p;
  g_free (d->path);
  g_clear_pointer (&d->runtime, cpel_perf_elf_symbols_free);
  g_clear_pointer (&d->debug, cpel_perf_elf_symbols_free);
  g_free (d);
}

static void
proc_free (gpointer p)
{
  Proc *pr = p;
  g_array_unref (pr->maps);
  g_array_unref (pr->execs);
  g_free (pr);
}

CpelPerfSymbols *
cpel_perf_symbols_new (void)
{
  CpelPerfSymbols *self = g_new0 (CpelPerfSymbols, 1);
  self->ksyms = g_array_new (FALSE, FALSE, sizeof (CpelSym));
  self->knames = g_string_new (NULL);
  self->procs = g_hash_table_new_full (NULL, NULL, NULL, proc_free);
  self->dsos = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, dso_free);
  self->build_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  self->root = g_strdup ("");
  return self;
}

void
cpel_perf_symbols_free (CpelPerfSymbols *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->ksyms);
  g_string_free (self->knames, TRUE);
  g_hash_table_unref (self->procs);
  g_hash_table_unref (self->dsos);
  g_hash_table_unref (self->build_ids);
  g_free (self->root);
  g_free (self);
}

void
cpel_perf_symbols_set_root (CpelPerfSymbols *self, const char *root)
{
  g_return_if_fail (self != NULL);
  g_free (self->root);
  self->root = g_strdup (root ? root : "");
}

/* --- kernel ---------------------------------------------------------------- */

static int
hexval (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

guint
cpel_perf_symbols_set_kallsyms (CpelPerfSymbols *self, const char *text, gsize len)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (text != NULL || len == 0, 0);
  g_array_set_size (self->ksyms, 0);
  g_string_truncate (self->knames, 0);
  self->ktext = self->kstext = 0;

  gsize pos = 0;
  while (pos < len)
    {
      const char *line = text + pos;
      const char *nl = memchr (line, '\n', len - pos);
      gsize n = nl ? (gsize) (nl - line) : len - pos;
      pos += n + 1;
      /* addr: 1..16 hex digits, a space, the type, a space, the name,
       * optionally a tab and [module] */
      gsize i = 0;
      guint64 addr = 0;
      while (i < n && i < 16 && hexval (line[i]) >= 0)
        addr = (addr << 4) | (guint64) hexval (line[i++]);
      if (i == 0 || i + 3 > n || line[i] != ' ' || line[i + 2] != ' ')
        continue;
      char type = g_ascii_toupper (line[i + 1]);
      if (type != 'T' && type != 'W' && type != 'D' && type != 'B')
        continue;
      const char *name = line + i + 3;
      gsize rest = n - (i + 3);
      const char *tab = memchr (name, '\t', rest);
      gsize name_len = tab ? (gsize) (tab - name) : rest;
      if (name_len == 0 || memchr (name, '\0', name_len) != NULL)
        continue;
      const char *mod = NULL;
      gsize mod_len = 0;
      if (tab != NULL)
        {
          mod = tab + 1;
          mod_len = rest - name_len - 1;
          if (mod_len < 3 || mod[0] != '[' || mod[mod_len - 1] != ']' || memchr (mod, '\0', mod_len))
            mod = NULL;
        }
      if (self->knames->len + name_len + mod_len + 2 > KALLSYMS_NAMES_MAX)
        break;
      if (mod == NULL && name_len == 5 && memcmp (name, "_text", 5) == 0)
        self->ktext = addr;
      else if (mod == NULL && name_len == 6 && memcmp (name, "_stext", 6) == 0)
        self->kstext = addr;
      CpelSym s = { addr, addr, (guint32) self->knames->len, 0, mod != NULL };
      char t = line[i + 1];
      s.binding = t == 'W' || t == 'w' ? 2 : g_ascii_isupper (t) ? 1 : 0;
      g_string_append_len (self->knames, name, (gssize) name_len);
      g_string_append_c (self->knames, '\0');
      if (mod != NULL)
        {
          g_string_append_len (self->knames, mod, (gssize) mod_len);
          g_string_append_c (self->knames, '\0');
        }
      g_array_append_val (self->ksyms, s);
    }
  if (!g_utf8_validate_len (self->knames->str, self->knames->len, NULL))
    for (gsize k = 0; k < self->knames->len; k++)
      if ((guchar) self->knames->str[k] >= 0x80)
        self->knames->str[k] = '?';
  cpel_sym_table_finish (self->ksyms, self->knames->str, TRUE);
  return self->ksyms->len;
}

gboolean
cpel_perf_symbols_kallsyms_address (CpelPerfSymbols *self, const char *name, guint64 *address)
{
  g_return_val_if_fail (self != NULL && name != NULL, FALSE);
  guint64 a = strcmp (name, "_text") == 0 ? self->ktext : strcmp (name, "_stext") == 0 ? self->kstext : 0;
  if (a == 0)
    return FALSE;
  *address = a;
  return TRUE;
}

void
cpel_perf_symbols_set_kernel_reloc (CpelPerfSymbols *self, gint64 reloc)
{
  g_return_if_fail (self != NULL);
  self->kreloc = reloc;
}

/* --- user ------------------------------------------------------------------ */

static Proc *
proc_get (CpelPerfSymbols *self, guint32 pid, gboolean create)
{
  if (self->last_proc != NULL && self->last_pid == pid)
    return self->last_proc;
  Proc *p = g_hash_table_lookup (self->procs, GUINT_TO_POINTER (pid));
  if (p == NULL && create)
    {
      p = g_new0 (Proc, 1);
      p->maps = g_array_new (FALSE, FALSE, sizeof (Map));
      p->execs = g_array_new (FALSE, FALSE, sizeof (guint64));
      g_hash_table_insert (self->procs, GUINT_TO_POINTER (pid), p);
    }
  if (p != NULL)
    {
      self->last_pid = pid;
      self->last_proc = p;
    }
  return p;
}

void
cpel_perf_symbols_add_build_id (CpelPerfSymbols *self, const char *path,
                                const guint8 *build_id, gsize size)
{
  g_return_if_fail (self != NULL && path != NULL);
  if (size == 0 || size > 20 || g_hash_table_contains (self->build_ids, path))
    return;
  g_hash_table_insert (self->build_ids, g_strdup (path), g_bytes_new (build_id, size));
}

static char *
hex (const guint8 *b, gsize n)
{
  GString *s = g_string_sized_new (2 * n);
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, "%02x", b[i]);
  return g_string_free (s, FALSE);
}

void
cpel_perf_symbols_add_map (CpelPerfSymbols *self, guint32 pid, guint64 time,
                           guint64 start, guint64 len, guint64 pgoff,
                           const char *filename, const guint8 *build_id, gsize build_id_size)
{
  g_return_if_fail (self != NULL && filename != NULL);
  if (len == 0 || start + len < start || build_id_size > 20)
    return;
  g_autofree char *bid = hex (build_id, build_id_size);
  g_autofree char *key = g_strconcat (filename, "\n", bid, NULL);
  Dso *d = g_hash_table_lookup (self->dsos, key);
  if (d == NULL)
    {
      d = g_new0 (Dso, 1);
      d->path = g_utf8_make_valid (filename, -1);
      if (build_id_size)
        memcpy (d->build_id, build_id, build_id_size);
      d->build_id_size = build_id_size;
      g_hash_table_insert (self->dsos, g_steal_pointer (&key), d);
    }
  Proc *p = proc_get (self, pid, TRUE);
  Map m = { start, start + len, pgoff, time, d };
  g_array_append_val (p->maps, m);
}

void
cpel_perf_symbols_add_fork (CpelPerfSymbols *self, guint32 pid, guint32 ppid, guint64 time)
{
  g_return_if_fail (self != NULL);
  if (pid == ppid)
    return;   /* a thread: it shares the process's mappings */
  Proc *p = proc_get (self, pid, TRUE);
  if (!p->has_parent)
    {
      p->parent = ppid;
      p->has_parent = TRUE;
      p->fork_time = time;
    }
}

void
cpel_perf_symbols_add_exec (CpelPerfSymbols *self, guint32 pid, guint64 time)
{
  g_return_if_fail (self != NULL);
  Proc *p = proc_get (self, pid, TRUE);
  g_array_append_val (p->execs, time);
}

static int
cmp_map (gconstpointer a, gconstpointer b)
{
  const Map *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

static int
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

void
cpel_perf_symbols_prepare (CpelPerfSymbols *self)
{
  g_return_if_fail (self != NULL);
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init (&it, self->procs);
  while (g_hash_table_iter_next (&it, NULL, &v))
    {
      Proc *p = v;
      g_array_sort (p->maps, cmp_map);
      g_array_sort (p->execs, cmp_u64);
    }
}

/* The Dso's files, opened on first use. */
static void
dso_load (CpelPerfSymbols *self, Dso *d)
{
  d->loaded = TRUE;
  gboolean vdso = strcmp (d->path, "[vdso]") == 0;
  if ((d->path[0] != '/' && !vdso) || self->n_loaded >= DSO_LOAD_MAX)
    return;
  self->n_loaded++;

  guint8 bid[20];
  gsize bid_size = d->build_id_size;
  memcpy (bid, d->build_id, bid_size);
  if (bid_size == 0)
    {
      GBytes *b = g_hash_table_lookup (self->build_ids, d->path);
      if (b != NULL)
        {
          bid_size = g_bytes_get_size (b);
          memcpy (bid, g_bytes_get_data (b, NULL), bid_size);
        }
    }
  g_autofree char *bid_hex = bid_size ? hex (bid, bid_size) : NULL;

  /* the binary: the file named, else perf's build-id cache (the only
   * place a [vdso] is kept) */
  if (!vdso)
    {
      g_autofree char *p = g_strconcat (self->root, d->path, NULL);
      d->runtime = cpel_perf_elf_symbols_new_for_path (p, NULL);
    }
  if (d->runtime != NULL && bid_size > 0)
    {
      gsize n;
      const guint8 *b = cpel_perf_elf_symbols_get_build_id (d->runtime, &n);
      if (b == NULL || n != bid_size || memcmp (b, bid, n) != 0)
        g_clear_pointer (&d->runtime, cpel_perf_elf_symbols_free);   /* another build */
    }
  if (d->runtime == NULL && bid_hex != NULL)
    {
      g_autofree char *p = NULL;
      if (vdso)
        p = g_strdup_printf ("%s/.debug/[vdso]/%s/vdso", g_get_home_dir (), bid_hex);
      else
        p = g_strdup_printf ("%s/.debug/.build-id/%.2s/%s/elf", g_get_home_dir (), bid_hex, bid_hex + 2);
      d->runtime = cpel_perf_elf_symbols_new_for_path (p, NULL);
      gsize n;
      const guint8 *b = d->runtime ? cpel_perf_elf_symbols_get_build_id (d->runtime, &n) : NULL;
      if (d->runtime != NULL && (b == NULL || n != bid_size || memcmp (b, bid, n) != 0))
        g_clear_pointer (&d->runtime, cpel_perf_elf_symbols_free);
    }
  if (bid_hex == NULL && d->runtime != NULL)
    {
      const guint8 *b = cpel_perf_elf_symbols_get_build_id (d->runtime, &bid_size);
      if (b != NULL && bid_size <= sizeof bid)
        {
          memcpy (bid, b, bid_size);
          bid_hex = hex (bid, bid_size);
        }
    }
  /* its debug file (Debian's -dbg / -dbgsym packages) */
  if (bid_hex != NULL && strlen (bid_hex) > 2)
    {
      g_autofree char *p = g_strdup_printf ("%s/usr/lib/debug/.build-id/%.2s/%s.debug",
                                            self->root, bid_hex, bid_hex + 2);
      d->debug = cpel_perf_elf_symbols_new_for_path (p, NULL);
      gsize n;
      const guint8 *b = d->debug ? cpel_perf_elf_symbols_get_build_id (d->debug, &n) : NULL;
      if (d->debug != NULL && (b == NULL || n != bid_size || memcmp (b, bid, n) != 0
                               || cpel_perf_elf_symbols_get_n_symbols (d->debug) == 0))
        g_clear_pointer (&d->debug, cpel_perf_elf_symbols_free);
    }
}

static const Map *
find_map (Proc *p, guint64 ip, guint64 time, guint64 epoch)
{
  const Map *v = (const Map *) p->maps->data;
  guint lo = 0, hi = p->maps->len;   /* first with start > ip */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (v[mid].start <= ip)
        lo = mid + 1;
      else
        hi = mid;
    }
  const Map *best = NULL;
  for (guint k = 0; k < MAP_SCAN_MAX && lo > 0; k++, lo--)
    {
      const Map *m = &v[lo - 1];
      if (ip < m->end && m->time <= time && m->time >= epoch
          && (best == NULL || m->time >= best->time))
        best = m;
    }
  return best;
}

static const char *
lookup (CpelPerfSymbols *self, guint32 pid, gboolean kernel, guint64 ip, guint64 time,
        gboolean over_exec, guint64 *offset, const char **dso);

const char *
cpel_perf_symbols_lookup (CpelPerfSymbols *self, guint32 pid, gboolean kernel,
                          guint64 ip, guint64 time, guint64 *offset, const char **dso)
{
  g_return_val_if_fail (self != NULL, NULL);
  return lookup (self, pid, kernel, ip, time, FALSE, offset, dso);
}

const char *
cpel_perf_symbols_lookup_frame (CpelPerfSymbols *self, guint32 pid, gboolean kernel,
                                guint64 ip, guint64 time, guint64 *offset, const char **dso)
{
  g_return_val_if_fail (self != NULL, NULL);
  return lookup (self, pid, kernel, ip, time, TRUE, offset, dso);
}

static const char *
lookup (CpelPerfSymbols *self, guint32 pid, gboolean kernel, guint64 ip, guint64 time,
        gboolean over_exec, guint64 *offset, const char **dso)
{
  *dso = NULL;
  if (kernel)
    {
      if (self->ksyms->len == 0)
        return NULL;
      guint64 addr = ip - (guint64) self->kreloc;
      const CpelSym *s = cpel_sym_table_lookup (self->ksyms, addr);
      *dso = "[kernel.kallsyms]";
      if (s == NULL)
        return NULL;
      const char *name = self->knames->str + s->name;
      if (s->module)
        *dso = name + strlen (name) + 1;
      *offset = addr - s->start;
      return name;
    }

  Proc *p = proc_get (self, pid, FALSE);
  const Map *m = NULL;
  for (guint hops = 0; p != NULL && hops < PROC_HOPS_MAX; hops++)
    {
      guint64 epoch = 0;
      gboolean execd = FALSE;
      for (guint i = 0; !over_exec && i < p->execs->len; i++)
        if (g_array_index (p->execs, guint64, i) <= time)
          {
            epoch = g_array_index (p->execs, guint64, i);
            execd = TRUE;
          }
      m = find_map (p, ip, time, epoch);
      if (m != NULL || execd || !p->has_parent)
        break;
      time = MIN (time, p->fork_time);
      p = g_hash_table_lookup (self->procs, GUINT_TO_POINTER (p->parent));
    }
  if (m == NULL)
    return NULL;
  Dso *d = m->dso;
  *dso = d->path;
  if (!d->loaded)
    dso_load (self, d);
  CpelPerfElfSymbols *segs = d->runtime ? d->runtime : d->debug;
  CpelPerfElfSymbols *syms = d->debug ? d->debug : d->runtime;
  guint64 addr;
  if (segs == NULL
      || !cpel_perf_elf_symbols_offset_to_address (segs, ip - m->start + m->pgoff, &addr))
    return NULL;
  /* PLT entries are synthesized from the binary's relocations (a debug
   * file has no section data for them) */
  const char *plt = d->runtime ? cpel_perf_elf_symbols_lookup_plt (d->runtime, addr, offset) : NULL;
  return plt != NULL ? plt : cpel_perf_elf_symbols_lookup (syms, addr, offset);
}

void
cpel_perf_symbols_get_file_counts (CpelPerfSymbols *self, guint *found, guint *not_found)
{
  g_return_if_fail (self != NULL);
  *found = *not_found = 0;
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init (&it, self->dsos);
  while (g_hash_table_iter_next (&it, NULL, &v))
    {
      Dso *d = v;
      if (!d->loaded || d->path[0] != '/' || g_str_has_prefix (d->path, "//"))
        continue;
      if (d->runtime != NULL || d->debug != NULL)
        (*found)++;
      else
        (*not_found)++;
    }
}

gboolean
cpel_perf_symbols_append (CpelPerfSymbols *self, guint32 pid, gboolean kernel,
                          guint64 ip, guint64 time, GString *out)
{
  guint64 off = 0;
  const char *dso = NULL;
  const char *sym = cpel_perf_symbols_lookup (self, pid, kernel, ip, time, &off, &dso);
  /* as perf script: a kernel address is in [kernel.kallsyms] even without
   * its symbols; what is not known reads "[unknown]" */
  gboolean known = sym != NULL || dso != NULL;
  if (dso == NULL)
    dso = kernel ? "[kernel.kallsyms]" : "[unknown]";
  /* by hand: printf was most of the cost per sample */
  if (sym != NULL)
    {
      char hexbuf[17];
      int i = 16;
      hexbuf[16] = '\0';
      do
        {
          hexbuf[--i] = "0123456789abcdef"[off & 15];
          off >>= 4;
        }
      while (off != 0);
      g_string_append_c (out, ' ');
      g_string_append (out, sym);
      g_string_append_len (out, "+0x", 3);
      g_string_append_len (out, hexbuf + i, 16 - i);
    }
  else
    g_string_append_len (out, " [unknown]", 10);
  g_string_append_len (out, " (", 2);
  g_string_append (out, dso);
  g_string_append_c (out, ')');
  return known;
}
