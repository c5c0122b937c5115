/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-common.h — shared by the fuzz targets */
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

/* FUZZ_TOLERATE_KNOWN is defined in the libFuzzer builds only: there a
 * reported, not yet fixed bug (tests/fuzz/pending/) is let through so that
 * fuzzing goes on past it; the replay builds stay strict. */

/* An invariant of the code under test; a failure is a finding. */
#define FUZZ_CHECK(expr)                                                        \
  G_STMT_START {                                                                \
    if (G_UNLIKELY (!(expr)))                                                   \
      {                                                                         \
        fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #expr); \
        abort ();                                                               \
      }                                                                         \
  } G_STMT_END

/* A g_return_if_fail, g_warning or g_error reached from the input is a bug
 * too: abort() (not GLib's breakpoint trap, which libFuzzer does not catch)
 * so that the input is kept. */
static GLogWriterOutput
fuzz_log_writer (GLogLevelFlags   level,
                 const GLogField *fields,
                 gsize            n_fields,
                 gpointer         user_data)
{
  GLogWriterOutput out = g_log_writer_standard_streams (level, fields, n_fields, user_data);

  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    abort ();
  return out;
}

static inline void
fuzz_init (void)
{
  g_log_set_writer_func (fuzz_log_writer, NULL, NULL);
}

int LLVMFuzzerInitialize   (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);
