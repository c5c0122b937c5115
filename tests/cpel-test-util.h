/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-util.h — shared helpers for the test programs (cpel-test-util.c,
 * compiled once into the tests' helper library) */
#pragma once

#include <glib.h>

/* Path of a file under ../shared (CPEL_SHARED_DIR), or NULL after marking the
 * test skipped with a message when it is absent. Free with g_free. */
char *cpel_test_shared_file (const char *relative);
