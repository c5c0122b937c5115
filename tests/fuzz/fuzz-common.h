/* fuzz-common.h — shared by the fuzz targets */
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

/* An invariant of the code under test; a failure is a finding. */
#define FUZZ_CHECK(expr)                                                        \
  G_STMT_START {                                                                \
    if (G_UNLIKELY (!(expr)))                                                   \
      {                                                                         \
        fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #expr); \
        abort ();                                                               \
      }                                                                         \
  } G_STMT_END

/* A g_return_if_fail or g_warning reached from file data is a bug too. */
static inline void
fuzz_init (void)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_FATAL_MASK);
}

int LLVMFuzzerInitialize   (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const unsigned char *data, size_t size);
