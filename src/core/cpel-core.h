/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-core.h — the core library: GLib only, no GTK, no cairo */
#pragma once

#include "cpel-anomaly.h"
#include "cpel-chase.h"
#include "cpel-count.h"
#include "cpel-cut.h"
#include "cpel-diff.h"
#include "cpel-error.h"
#include "cpel-file.h"
#include "cpel-index-cache.h"
#include "cpel-format.h"
#include "cpel-labels.h"
#include "cpel-saved-view.h"
#include "cpel-search.h"
#include "cpel-span-diff.h"
#include "cpel-span-dist.h"
#include "cpel-span-rules.h"
#include "cpel-spans.h"
#include "cpel-stats.h"
#include "cpel-time.h"
#include "cpel-views.h"
#include "cpel-writer.h"
