/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-elf-symbols.c — function symbols of an ELF file, through libelf
 *
 * What perf takes from a binary (tools/perf/util/symbol-elf.c): STT_FUNC and
 * STT_GNU_IFUNC symbols, and named STT_NOTYPE labels, defined in an
 * executable section; .symtab when present, else .dynsym.  Aliases and
 * unsized symbols are settled by cpel_sym_table_finish as perf settles them
 * (symbols__fixup_end, symbols__fixup_duplicate).
 */
#include "cpel-perf-elf-symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cpel-error.h"

#define ELF_FILE_MAX       (G_GUINT64_CONSTANT (2) << 30)   /* 2 GiB */
#define ELF_NAMES_MAX      (G_GUINT64_CONSTANT (1) << 30)
#define DEMANGLE_MAX       4096   /* longer C++ names are shown as they are */

typedef struct
{
  guint64 offset, filesz, memsz, vaddr;
} Segment;

struct _CpelPerfElfSymbols
{
  Elf     *elf;
  int      fd;          /* -1 for data */
  guint8  *copy;        /* the copy read by elf_memory, or NULL */
  guint8   build_id[64];
  gsize    build_id_size;
  GArray  *segments;    /* Segment */
  GArray  *syms;        /* CpelSym */
  GArray  *plt;         /* CpelSym: name@plt entries synthesized from .rela.plt */
  GString *names;
  GHashTable *demangled;  /* name offset -> C++ name as perf prints it, or "" */
};

/* --- the table ------------------------------------------------------------ */

static gint
cmp_start (gconstpointer a, gconstpointer b, gpointer unused)
{
  const CpelSym *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

static guint
underscores (const char *s)
{
  guint n = 0;
  while (s[n] == '_')
    n++;
  return n;
}

/* TRUE when perf keeps `a` rather than `b` (choose_best_symbol). */
static gboolean
prefer_first (const CpelSym *a, const CpelSym *b, const char *names)
{
  guint64 sa = a->end - a->start, sb = b->end - b->start;
  if (sb == 0 && sa > 0)
    return TRUE;
  if (sa == 0 && sb > 0)
    return FALSE;
  gboolean wa = a->binding == STB_WEAK, wb = b->binding == STB_WEAK;
  if (wb && !wa)
    return TRUE;
  if (wa && !wb)
    return FALSE;
  gboolean ga = a->binding == STB_GLOBAL, gb = b->binding == STB_GLOBAL;
  if (ga && !gb)
    return TRUE;
  if (gb && !ga)
    return FALSE;
  guint ua = underscores (names + a->name), ub = underscores (names + b->name);
  if (ub > ua)
    return TRUE;
  if (ua > ub)
    return FALSE;
  return strlen (names + a->name) >= strlen (names + b->name);
}

static gboolean
is_module (const char *names, const CpelSym *s)
{
  return s->module != 0;
}

void
cpel_sym_table_finish (GArray *syms, const char *names, gboolean kallsyms)
{
  if (syms->len == 0)
    return;
  /* insertion order breaks ties, as in perf's tree */
  CpelSym *v = (CpelSym *) syms->data;
  guint n = syms->len;
  g_qsort_with_data (v, (gint) n, sizeof (CpelSym), cmp_start, NULL);   /* a stable merge sort */

  /* symbols__fixup_end */
  for (guint i = 1; i < n; i++)
    {
      CpelSym *prev = &v[i - 1], *curr = &v[i];
      if (prev->end == prev->start)
        {
          if (kallsyms && is_module (names, prev) != is_module (names, curr))
            prev->end = ((prev->end + 4096) + 4095) & ~G_GUINT64_CONSTANT (4095);
          else
            prev->end = curr->start;
        }
    }
  if (v[n - 1].end == v[n - 1].start)
    v[n - 1].end = (v[n - 1].start & ~G_GUINT64_CONSTANT (4095)) + 4096
                   + ((v[n - 1].start & 4095) ? 4096 : 0);
  for (guint i = 0; i < n; i++)
    if (v[i].end < v[i].start)     /* wrapped near the top of the address space */
      v[i].end = G_MAXUINT64;

  /* symbols__fixup_duplicate: one symbol per start */
  guint out = 0;
  for (guint i = 0; i < n; i++)
    {
      if (out > 0 && v[out - 1].start == v[i].start)
        {
          if (!prefer_first (&v[out - 1], &v[i], names))
            v[out - 1] = v[i];
          continue;
        }
      v[out++] = v[i];
    }
  g_array_set_size (syms, out);
}

const CpelSym *
cpel_sym_table_lookup (GArray *syms, guint64 addr)
{
  if (syms == NULL || syms->len == 0)
    return NULL;
  const CpelSym *v = (const CpelSym *) syms->data;
  guint lo = 0, hi = syms->len;   /* first with start > addr */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (v[mid].start <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  const CpelSym *s = &v[lo - 1];
  if (addr < s->end || addr == s->start)
    return s;
  return NULL;
}

/* --- reading -------------------------------------------------------------- */

static gboolean
elf_error (GError **error, const char *what)
{
  g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
               _("ELF file: %s (%s)"), what, elf_errmsg (-1));
  return FALSE;
}

static void
read_build_id_notes (CpelPerfElfSymbols *self, Elf_Data *data)
{
  if (data == NULL || data->d_buf == NULL)
    return;
  size_t off = 0;
  GElf_Nhdr nhdr;
  size_t name_off, desc_off;
  /* gelf_getnote checks each note against the data's size */
  for (guint guard = 0; guard < 4096 && off < data->d_size; guard++)
    {
      size_t next = gelf_getnote (data, off, &nhdr, &name_off, &desc_off);
      if (next == 0 || next <= off)
        return;
      if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4
          && name_off + 4 <= data->d_size && memcmp ((const char *) data->d_buf + name_off, "GNU", 4) == 0
          && nhdr.n_descsz > 0 && nhdr.n_descsz <= sizeof self->build_id
          && desc_off + nhdr.n_descsz <= data->d_size)
        {
          memcpy (self->build_id, (const guint8 *) data->d_buf + desc_off, nhdr.n_descsz);
          self->build_id_size = nhdr.n_descsz;
          return;
        }
      off = next;
    }
}

static gboolean
read_segments_and_notes (CpelPerfElfSymbols *self, GError **error)
{
  size_t n_phdr = 0;
  if (elf_getphdrnum (self->elf, &n_phdr) != 0)
    n_phdr = 0;
  for (size_t i = 0; i < n_phdr && i < 65536; i++)
    {
      GElf_Phdr ph;
      if (gelf_getphdr (self->elf, (int) i, &ph) == NULL)
        return elf_error (error, _("a program header cannot be read"));
      if (ph.p_type == PT_LOAD && MAX (ph.p_filesz, ph.p_memsz) > 0)
        {
          Segment s = { ph.p_offset, ph.p_filesz, ph.p_memsz, ph.p_vaddr };
          g_array_append_val (self->segments, s);
        }
    }

  /* the build id: note sections, else PT_NOTE segments */
  Elf_Scn *scn = NULL;
  while (self->build_id_size == 0 && (scn = elf_nextscn (self->elf, scn)) != NULL)
    {
      GElf_Shdr sh;
      if (gelf_getshdr (scn, &sh) != NULL && sh.sh_type == SHT_NOTE)
        read_build_id_notes (self, elf_getdata (scn, NULL));
    }
  for (size_t i = 0; self->build_id_size == 0 && i < n_phdr && i < 65536; i++)
    {
      GElf_Phdr ph;
      if (gelf_getphdr (self->elf, (int) i, &ph) != NULL && ph.p_type == PT_NOTE)
        /* elf_getdata_rawchunk refuses ranges outside the file */
        read_build_id_notes (self, elf_getdata_rawchunk (self->elf, (int64_t) ph.p_offset,
                                                         ph.p_filesz, ELF_T_NHDR));
    }
  return TRUE;
}

static gboolean
section_is_text (Elf *elf, size_t shndx)
{
  Elf_Scn *scn = elf_getscn (elf, shndx);   /* NULL for an index past the table */
  GElf_Shdr sh;
  return scn != NULL && gelf_getshdr (scn, &sh) != NULL && (sh.sh_flags & SHF_EXECINSTR) != 0;
}

static gboolean
add_name (CpelPerfElfSymbols *self, const char *name, const char *suffix)
{
  gsize len = strlen (name), slen = strlen (suffix);
  if (self->names->len + len + slen + 1 > ELF_NAMES_MAX)
    return FALSE;
  if (g_utf8_validate (name, (gssize) len, NULL))
    g_string_append_len (self->names, name, (gssize) len);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (name, (gssize) len);
      g_string_append (self->names, valid);
    }
  g_string_append (self->names, suffix);
  g_string_append_c (self->names, '\0');
  return TRUE;
}

static gboolean
read_symbols (CpelPerfElfSymbols *self, GError **error)
{
  Elf_Scn *symtab = NULL, *dynsym = NULL, *scn = NULL;
  GElf_Shdr sh;
  while ((scn = elf_nextscn (self->elf, scn)) != NULL)
    {
      if (gelf_getshdr (scn, &sh) == NULL)
        return elf_error (error, _("a section header cannot be read"));
      if (sh.sh_type == SHT_SYMTAB && symtab == NULL)
        symtab = scn;
      else if (sh.sh_type == SHT_DYNSYM && dynsym == NULL)
        dynsym = scn;
    }
  scn = symtab != NULL ? symtab : dynsym;
  if (scn == NULL)
    return TRUE;
  if (gelf_getshdr (scn, &sh) == NULL)
    return elf_error (error, _("a section header cannot be read"));
  Elf_Data *data = elf_getdata (scn, NULL);
  if (data == NULL || data->d_buf == NULL)
    return TRUE;   /* NOBITS or empty: no symbols */
  gsize entsize = gelf_fsize (self->elf, ELF_T_SYM, 1, EV_CURRENT);
  if (entsize == 0)
    return elf_error (error, _("the symbol size is unknown"));
  gsize n = data->d_size / entsize;    /* bounded by the table's bytes */
  size_t strndx = sh.sh_link;
  size_t shnum = 0;
  if (elf_getshdrnum (self->elf, &shnum) != 0 || strndx == 0 || strndx >= shnum)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("ELF file: the symbol table names string table %zu of %zu"), strndx, shnum);
      return FALSE;
    }
  /* text sections, looked up once each */
  g_autofree guint8 *text = g_malloc0 (MIN (shnum, 65536));
  for (size_t i = 1; i < shnum && i < 65536; i++)
    text[i] = section_is_text (self->elf, i) ? 1 : 2;

  for (gsize i = 0; i < n; i++)
    {
      GElf_Sym sym;
      if (gelf_getsym (data, (int) MIN (i, G_MAXINT), &sym) == NULL)
        break;
      int type = GELF_ST_TYPE (sym.st_info);
      if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
        continue;
      if (sym.st_name == 0 || sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS
          || sym.st_shndx >= SHN_LORESERVE || sym.st_shndx >= shnum || text[sym.st_shndx] != 1)
        continue;
      const char *name = elf_strptr (self->elf, strndx, sym.st_name);   /* bounds-checked */
      if (name == NULL || name[0] == '\0' || name[0] == '$')
        continue;
      CpelSym s = { sym.st_value, sym.st_value + sym.st_size, (guint32) self->names->len, 0, 0 };
      if (s.end < s.start)
        s.end = G_MAXUINT64;
      int bind = GELF_ST_BIND (sym.st_info);
      s.binding = bind == STB_GLOBAL ? 1 : bind == STB_WEAK ? 2 : 0;
      if (!add_name (self, name, ""))
        break;
      g_array_append_val (self->syms, s);
    }
  cpel_sym_table_finish (self->syms, self->names->str, FALSE);
  return TRUE;
}

static Elf_Scn *
section_by_name (Elf *elf, const char *want, GElf_Shdr *out)
{
  size_t shstrndx;
  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    return NULL;
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      if (gelf_getshdr (scn, out) == NULL)
        return NULL;
      const char *name = elf_strptr (elf, shstrndx, out->sh_name);
      if (name != NULL && strcmp (name, want) == 0)
        return scn;
    }
  return NULL;
}

/* perf's dso__synthesize_plt_symbols: the n-th .rela.plt (.rel.plt)
 * relocation is the n-th entry of .plt.sec, else of .plt after its header,
 * named `symbol@plt`. */
static void
read_plt (CpelPerfElfSymbols *self)
{
  GElf_Ehdr eh;
  if (gelf_getehdr (self->elf, &eh) == NULL)
    return;
  guint64 header, entry;
  switch (eh.e_machine)
    {
    case EM_X86_64:
    case EM_386:
      header = 16;
      entry = 16;
      break;
    case EM_AARCH64:
      header = 32;
      entry = 16;
      break;
    default:
      return;
    }
  GElf_Shdr plt_sh, rel_sh, sym_sh;
  Elf_Scn *plt = section_by_name (self->elf, ".plt.sec", &plt_sh);
  if (plt != NULL)
    header = 0;
  else if ((plt = section_by_name (self->elf, ".plt", &plt_sh)) == NULL)
    return;
  if (plt_sh.sh_type != SHT_PROGBITS)
    return;
  Elf_Scn *rel = section_by_name (self->elf, ".rela.plt", &rel_sh);
  if (rel == NULL)
    rel = section_by_name (self->elf, ".rel.plt", &rel_sh);
  if (rel == NULL || (rel_sh.sh_type != SHT_RELA && rel_sh.sh_type != SHT_REL))
    return;
  Elf_Scn *dynsym = elf_getscn (self->elf, rel_sh.sh_link);
  if (dynsym == NULL || gelf_getshdr (dynsym, &sym_sh) == NULL || sym_sh.sh_type != SHT_DYNSYM)
    return;
  Elf_Data *rd = elf_getdata (rel, NULL), *sd = elf_getdata (dynsym, NULL);
  if (rd == NULL || rd->d_buf == NULL || sd == NULL || sd->d_buf == NULL)
    return;
  gboolean rela = rel_sh.sh_type == SHT_RELA;
  gsize relsize = gelf_fsize (self->elf, rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
  if (relsize == 0)
    return;
  /* as many entries as both the relocations and the section hold */
  guint64 n = rd->d_size / relsize;
  if (plt_sh.sh_size < header)
    return;
  n = MIN (n, (plt_sh.sh_size - header) / entry);
  for (guint64 i = 0; i < n && i < G_MAXINT; i++)
    {
      guint64 sym_index;
      if (rela)
        {
          GElf_Rela r;
          if (gelf_getrela (rd, (int) i, &r) == NULL)
            break;
          sym_index = GELF_R_SYM (r.r_info);
        }
      else
        {
          GElf_Rel r;
          if (gelf_getrel (rd, (int) i, &r) == NULL)
            break;
          sym_index = GELF_R_SYM (r.r_info);
        }
      GElf_Sym sym;
      if (sym_index > G_MAXINT || gelf_getsym (sd, (int) sym_index, &sym) == NULL)
        continue;
      /* perf names an entry without a symbol (IRELATIVE) "@plt" */
      const char *name = sym.st_name ? elf_strptr (self->elf, sym_sh.sh_link, sym.st_name) : "";
      if (name == NULL)
        continue;
      g_autofree char *cxx = NULL;
      if (name[0] == '_' && name[1] == 'Z' && strlen (name) <= DEMANGLE_MAX)
        cxx = cplus_demangle (name, DMGL_NO_OPTS);
      guint64 start = plt_sh.sh_addr + header + i * entry;
      CpelSym s = { start, start + entry, (guint32) self->names->len, 1, 0 };
      if (s.end < s.start || !add_name (self, cxx ? cxx : name, "@plt"))
        break;
      g_array_append_val (self->plt, s);
    }
  cpel_sym_table_finish (self->plt, self->names->str, FALSE);
}

static CpelPerfElfSymbols *
finish_new (CpelPerfElfSymbols *self_, GError **error)
{
  g_autoptr(CpelPerfElfSymbols) self = self_;
  if (self->elf == NULL)
    {
      elf_error (error, _("not readable"));
      return NULL;
    }
  if (elf_kind (self->elf) != ELF_K_ELF)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED, _("not an ELF file"));
      return NULL;
    }
  if (!read_segments_and_notes (self, error) || !read_symbols (self, error))
    return NULL;
  read_plt (self);
  return g_steal_pointer (&self);
}

static CpelPerfElfSymbols *
elf_symbols_alloc (void)
{
  CpelPerfElfSymbols *self = g_new0 (CpelPerfElfSymbols, 1);
  self->fd = -1;
  self->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  self->syms = g_array_new (FALSE, FALSE, sizeof (CpelSym));
  self->plt = g_array_new (FALSE, FALSE, sizeof (CpelSym));
  self->names = g_string_new (NULL);
  self->demangled = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return self;
}

CpelPerfElfSymbols *
cpel_perf_elf_symbols_new_from_data (const guint8 *data, gsize size, GError **error)
{
  g_return_val_if_fail (data != NULL || size == 0, NULL);
  elf_version (EV_CURRENT);
  CpelPerfElfSymbols *self = elf_symbols_alloc ();
  /* elf_memory may convert the image in place: give it a private copy */
  self->copy = g_memdup2 (size ? data : (const guint8 *) "", MAX (size, 1));
  self->elf = elf_memory ((char *) self->copy, size);
  return finish_new (self, error);
}

CpelPerfElfSymbols *
cpel_perf_elf_symbols_new_for_path (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  elf_version (EV_CURRENT);
  /* O_NONBLOCK: a FIFO named by a hostile file must not block the open */
  int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return NULL;
    }
  struct stat st;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || (guint64) st.st_size > ELF_FILE_MAX)
    {
      close (fd);
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
                   _("%s: not a regular file of at most 2 GiB"), path);
      return NULL;
    }
  CpelPerfElfSymbols *self = elf_symbols_alloc ();
  self->fd = fd;
  self->elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  return finish_new (self, error);
}

void
cpel_perf_elf_symbols_free (CpelPerfElfSymbols *self)
{
  if (self == NULL)
    return;
  if (self->elf != NULL)
    elf_end (self->elf);
  if (self->fd >= 0)
    close (self->fd);
  g_free (self->copy);
  g_array_unref (self->segments);
  g_array_unref (self->syms);
  g_array_unref (self->plt);
  g_string_free (self->names, TRUE);
  g_hash_table_unref (self->demangled);
  g_free (self);
}

const guint8 *
cpel_perf_elf_symbols_get_build_id (CpelPerfElfSymbols *self, gsize *size)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (size)
    *size = self->build_id_size;
  return self->build_id_size ? self->build_id : NULL;
}

guint
cpel_perf_elf_symbols_get_n_symbols (CpelPerfElfSymbols *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->syms->len;
}

gboolean
cpel_perf_elf_symbols_offset_to_address (CpelPerfElfSymbols *self, guint64 offset, guint64 *address)
{
  g_return_val_if_fail (self != NULL, FALSE);
  /* the file's bytes; then the sizes in memory, as a debug file keeps
   * them while its file sizes shrank with the code left out */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->segments->len; i++)
      {
        const Segment *s = &g_array_index (self->segments, Segment, i);
        if (offset >= s->offset && offset - s->offset < (pass == 0 ? s->filesz : s->memsz))
          {
            *address = offset - s->offset + s->vaddr;
            return TRUE;
          }
      }
  return FALSE;
}

const char *
cpel_perf_elf_symbols_lookup_plt (CpelPerfElfSymbols *self, guint64 address, guint64 *offset)
{
  g_return_val_if_fail (self != NULL, NULL);
  const CpelSym *s = cpel_sym_table_lookup (self->plt, address);
  if (s == NULL)
    return NULL;
  if (offset)
    *offset = address - s->start;
  return self->names->str + s->name;
}


/* A C++ name without its parameters, as perf script shows it (libiberty,
 * whose recursion limit is on); names are demangled when first shown. */
static const char *
demangle (CpelPerfElfSymbols *self, const CpelSym *s)
{
  const char *name = self->names->str + s->name;
  if (name[0] != '_' || name[1] != 'Z' || strlen (name) > DEMANGLE_MAX)
    return name;
  const char *d = g_hash_table_lookup (self->demangled, GUINT_TO_POINTER (s->name));
  if (d == NULL)
    {
      char *m = cplus_demangle (name, DMGL_NO_OPTS);
      char *v = m != NULL ? g_utf8_make_valid (m, -1) : g_strdup ("");
      free (m);
      g_hash_table_insert (self->demangled, GUINT_TO_POINTER (s->name), v);
      d = v;
    }
  return d[0] ? d : name;
}

const char *
cpel_perf_elf_symbols_lookup (CpelPerfElfSymbols *self, guint64 address, guint64 *offset)
{
  g_return_val_if_fail (self != NULL, NULL);
  const char *plt = cpel_perf_elf_symbols_lookup_plt (self, address, offset);
  if (plt != NULL)
    return plt;
  const CpelSym *s = cpel_sym_table_lookup (self->syms, address);
  if (s == NULL)
    return NULL;
  if (offset)
    *offset = address - s->start;
  return demangle (self, s);
}
