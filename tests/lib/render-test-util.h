/* SPDX-License-Identifier: Apache-2.0 */
/* render-test-util.h — small CPEL files built with the writer (in memory or
 * on disk), and pixel checks (render-test-util.c, compiled once for the
 * render and app suites) */
#pragma once

#include <math.h>
#include <string.h>

#include "cpel-render.h"

/* Event codes of the test files and their formats. */
#define CODE_SEND 1   /* "send" datum "%d" */
#define CODE_RECV 2   /* "recv" datum "len %d" */
#define CODE_IDLE 3   /* "idle", no datum */

typedef struct
{
  guint64 t;        /* ns (the clock is 10^9 ticks per second) */
  guint32 track;    /* track id */
  guint32 code;
  guint32 datum;
} TestEvent;

typedef void (*TestEventFunc) (guint64 i, TestEvent *event, gpointer data);

/* The test capture: event types send, recv and idle (CODE_*), `n_tracks`
 * defined tracks (ids 0..n-1, "thread %d") and `n_events` events produced
 * by `func`, streamed through the writer into `path` (time stamp
 * 1700000000), or into memory when `path` is NULL: then its bytes are
 * returned. */
GBytes *test_write_capture (const char    *path,
                            guint          n_tracks,
                            guint64        n_events,
                            TestEventFunc  func,
                            gpointer       data);

/* That capture in memory, opened. */
CpelFile *test_file_new_func (guint n_tracks, guint64 n_events, TestEventFunc func, gpointer data);

/* A TestEventFunc over an array of TestEvent (`data`). */
void test_events_array_func (guint64 i, TestEvent *event, gpointer data);

CpelFile *test_file_new (guint n_tracks, const TestEvent *events, guint n_events);

/* An image surface with the view drawn on it (scale 1). */
cairo_surface_t *test_render (const CpelView *view, int width, int height);

/* Pixel (x, y) as opaque RGB in [0,1] (the surfaces are opaque). */
void test_pixel (cairo_surface_t *surface, int x, int y, double rgb[3]);

double test_luma (cairo_surface_t *surface, int x, int y);

/* Distance between the pixel and an opaque colour (max over channels). */
double test_color_distance (cairo_surface_t *surface, int x, int y, const CpelRGBA *c);

#define test_assert_color(s, x, y, c) \
  g_assert_cmpfloat (test_color_distance ((s), (x), (y), (c)), <, 0.02)
#define test_assert_not_color(s, x, y, c) \
  g_assert_cmpfloat (test_color_distance ((s), (x), (y), (c)), >, 0.1)

/* The events of `code` (a code number or name), searched. */
CpelSearchResult *test_search_code (CpelFile *file, const char *code);
