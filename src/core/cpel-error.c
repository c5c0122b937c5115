/* SPDX-License-Identifier: Apache-2.0 */
#include "cpel-error.h"

G_DEFINE_QUARK (cpel-error-quark, cpel_error)
