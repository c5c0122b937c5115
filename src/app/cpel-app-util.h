/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-app-util.h — small helpers shared by the viewer's widgets */
#pragma once

#include <glib.h>

/* cpel_format_count (): counts with the locale's digit grouping */
#include "cpel-count.h"
