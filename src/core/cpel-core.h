/* cpel-core.h — the core library: GLib only, no GTK, no cairo */
#pragma once

#include "cpel-error.h"
#include "cpel-file.h"
#include "cpel-format.h"
#include "cpel-search.h"
#include "cpel-time.h"
#include "cpel-writer.h"
