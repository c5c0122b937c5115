/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tsan-private.h — GLib's locks and hand-overs told to ThreadSanitizer
 *
 * GLib 2.74's GMutex and GCond are futexes and its main context's sources
 * are dispatched under its own locks, none of which ThreadSanitizer sees
 * (GLib is not built with it): the accesses they order would be reported
 * as races.  These wrappers say what they order (__tsan_acquire and
 * __tsan_release on the lock's, or the handed-over data's, address) when
 * built with -fsanitize=thread, and are the plain calls otherwise.
 */
#pragma once

#include <glib.h>

#if defined(__SANITIZE_THREAD__)
#define CPEL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CPEL_TSAN 1
#endif
#endif

G_BEGIN_DECLS

#ifdef CPEL_TSAN
void __tsan_acquire (void *addr);
void __tsan_release (void *addr);

/* `data` was handed to another thread (through a GSource, a queue…):
 * what this thread did before cpel_tsan_handed () is seen by the one that
 * calls cpel_tsan_taken () on the same address. */
static inline void cpel_tsan_handed (gpointer data) { __tsan_release (data); }
static inline void cpel_tsan_taken  (gpointer data) { __tsan_acquire (data); }
#else
static inline void cpel_tsan_handed (gpointer data) { (void) data; }
static inline void cpel_tsan_taken  (gpointer data) { (void) data; }
#endif

static inline void
cpel_mutex_lock (GMutex *mutex)
{
  g_mutex_lock (mutex);
  cpel_tsan_taken (mutex);
}

static inline void
cpel_mutex_unlock (GMutex *mutex)
{
  cpel_tsan_handed (mutex);
  g_mutex_unlock (mutex);
}

static inline void
cpel_cond_wait (GCond  *cond,
                GMutex *mutex)
{
  cpel_tsan_handed (mutex);
  g_cond_wait (cond, mutex);
  cpel_tsan_taken (mutex);
}

static inline gboolean
cpel_cond_wait_until (GCond  *cond,
                      GMutex *mutex,
                      gint64  end_time)
{
  gboolean signalled;

  cpel_tsan_handed (mutex);
  signalled = g_cond_wait_until (cond, mutex, end_time);
  cpel_tsan_taken (mutex);
  return signalled;
}

G_END_DECLS
