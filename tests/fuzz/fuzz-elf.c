/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-elf.c — libFuzzer target: the symbol sources of perf sample names
 *
 * The input is read twice: as an ELF file (cpel-perf-elf-symbols.c, through
 * libelf: segments, build id, .symtab / .dynsym, PLT entries) and as a
 * kallsyms text (cpel-perf-symbols.c).  Both must accept it or fail with
 * an error; every lookup must give a symbol that holds the address (start
 * <= address, offset = address - start) with a NUL-terminated UTF-8 name.
 */
#include <stdint.h>
#include <string.h>

#include "cpel-perf-elf-symbols.h"
#include "cpel-perf-symbols.h"
#include "fuzz-common.h"

static guint64
rd64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return v;
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{

  /* addresses to look up: the last 64 bytes of the input, 8 at a time */
  guint64 probes[10] = { 0, 1, 0x1000 };
  guint n_probes = 3;
  for (size_t off = size >= 64 ? size - 64 : 0; off + 8 <= size && n_probes < G_N_ELEMENTS (probes); off += 8)
    probes[n_probes++] = rd64 (data + off);

  GError *error = NULL;
  CpelPerfElfSymbols *elf = cpel_perf_elf_symbols_new_from_data (data, size, &error);
  if (elf == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message != NULL);
      g_clear_error (&error);
    }
  else
    {
      FUZZ_CHECK (error == NULL);
      gsize bid_size = 0;
      const guint8 *bid = cpel_perf_elf_symbols_get_build_id (elf, &bid_size);
      FUZZ_CHECK ((bid == NULL) == (bid_size == 0));
      for (guint i = 0; i < n_probes; i++)
        {
          guint64 addr = probes[i], off = G_MAXUINT64;
          const char *name = cpel_perf_elf_symbols_lookup (elf, addr, &off);
          if (name != NULL)
            {
              FUZZ_CHECK (off <= addr);
              FUZZ_CHECK (g_utf8_validate (name, -1, NULL));
            }
          guint64 a;
          if (cpel_perf_elf_symbols_offset_to_address (elf, addr, &a))
            (void) cpel_perf_elf_symbols_lookup (elf, a, &off);
        }
      cpel_perf_elf_symbols_free (elf);
    }

  CpelPerfSymbols *ps = cpel_perf_symbols_new ();
  guint n = cpel_perf_symbols_set_kallsyms (ps, (const char *) data, size);
  for (guint i = 0; i < n_probes; i++)
    {
      guint64 off = G_MAXUINT64;
      const char *dso = NULL;
      const char *name = cpel_perf_symbols_lookup (ps, 1, TRUE, probes[i], 0, &off, &dso);
      FUZZ_CHECK (name == NULL || n > 0);
      if (name != NULL)
        {
          FUZZ_CHECK (off <= probes[i]);
          FUZZ_CHECK (dso != NULL && g_utf8_validate (name, -1, NULL) && g_utf8_validate (dso, -1, NULL));
        }
    }
  cpel_perf_symbols_free (ps);
  return 0;
}
