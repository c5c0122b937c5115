/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-mapguard.c — SIGBUS guard for mapped files (see cpel-mapguard.h)
 *
 * The registry is a fixed table read by the signal handler without locks:
 * each slot's state goes FREE -> BUSY (claimed by a CAS, fields being
 * written) -> ACTIVE (visible to the handler) and back.  Ids carry the
 * slot's generation so a stale id never reads a reused slot.  The handler
 * uses only atomics, mmap() and sigaction(), which are safe there on the
 * systems we build for (they are plain system calls).
 */
#include "cpel-mapguard.h"

#ifdef G_OS_UNIX

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum
{
  SLOT_FREE,
  SLOT_BUSY,
  SLOT_ACTIVE,
};

#define SLOT_BITS 10
#define GEN_MASK  ((1u << (32 - SLOT_BITS)) - 1)

G_STATIC_ASSERT (CPEL_MAPGUARD_MAX <= (1 << SLOT_BITS));

typedef struct
{
  gint      state;     /* SLOT_* */
  gint      damaged;
  gint      gen;       /* 1..GEN_MASK; the id's upper bits */
  gpointer  start;
  gpointer  end;
} Slot;

static Slot slots[CPEL_MAPGUARD_MAX];
static struct sigaction previous;
static guintptr page_mask;
static gboolean installed;

static void
chain (int        sig,
       siginfo_t *info,
       void      *context)
{
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL)
    {
      previous.sa_sigaction (sig, info, context);
      return;
    }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN)
    {
      previous.sa_handler (sig);
      return;
    }
  /* The default action: on return the faulting access runs again and the
   * signal kills the process as if there were no guard; a signal sent with
   * kill() is raised again. */
  {
    struct sigaction dfl;

    memset (&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset (&dfl.sa_mask);
    sigaction (sig, &dfl, NULL);
    if (info == NULL || info->si_code <= 0)
      raise (sig);
  }
}

static void
on_sigbus (int        sig,
           siginfo_t *info,
           void      *context)
{
  int saved_errno = errno;

  /* si_addr is meaningful only for a fault raised by the kernel */
  if (info != NULL && info->si_code > 0)
    {
      guintptr addr = (guintptr) info->si_addr;

      for (guint i = 0; i < CPEL_MAPGUARD_MAX; i++)
        {
          Slot *slot = &slots[i];
          guintptr start, end, page, stop;

          if (g_atomic_int_get (&slot->state) != SLOT_ACTIVE)
            continue;
          start = (guintptr) g_atomic_pointer_get (&slot->start);
          end = (guintptr) g_atomic_pointer_get (&slot->end);
          if (addr < start || addr >= end)
            continue;

          page = addr & ~page_mask;
          stop = (end + page_mask) & ~page_mask;
          if (mmap ((void *) page, stop - page, PROT_READ,
                    MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED)
            {
              g_atomic_int_set (&slot->damaged, 1);
              errno = saved_errno;
              return;
            }
          break;
        }
    }
  errno = saved_errno;
  chain (sig, info, context);
}

static gboolean
install (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      struct sigaction action;
      long page = sysconf (_SC_PAGESIZE);

      page_mask = (guintptr) (page > 0 ? page : 4096) - 1;
      memset (&action, 0, sizeof action);
      action.sa_sigaction = on_sigbus;
      action.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset (&action.sa_mask);
      installed = sigaction (SIGBUS, &action, &previous) == 0;
      if (!installed)
        g_debug ("cpel-mapguard: sigaction failed: %s", g_strerror (errno));
      g_once_init_leave (&once, 1);
    }
  return installed;
}

guint
cpel_mapguard_register (const void *start,
                        gsize       length)
{
  g_return_val_if_fail (start != NULL || length == 0, 0);

  if (length == 0 || !install () || ((guintptr) start & page_mask) != 0
      || (guintptr) start + length < (guintptr) start)
    return 0;

  for (guint i = 0; i < CPEL_MAPGUARD_MAX; i++)
    {
      Slot *slot = &slots[i];
      guint gen;

      if (!g_atomic_int_compare_and_exchange (&slot->state, SLOT_FREE, SLOT_BUSY))
        continue;
      gen = ((guint) g_atomic_int_get (&slot->gen) + 1) & GEN_MASK;
      if (gen == 0)
        gen = 1;
      g_atomic_int_set (&slot->gen, (gint) gen);
      g_atomic_int_set (&slot->damaged, 0);
      g_atomic_pointer_set (&slot->start, (gpointer) start);
      g_atomic_pointer_set (&slot->end, (gpointer) ((const guint8 *) start + length));
      g_atomic_int_set (&slot->state, SLOT_ACTIVE);
      return gen << SLOT_BITS | i;
    }
  g_debug ("cpel-mapguard: more than %d mappings: not guarded", CPEL_MAPGUARD_MAX);
  return 0;
}

static Slot *
slot_of (guint id)
{
  guint index = id & ((1u << SLOT_BITS) - 1);
  Slot *slot;

  if (id == 0 || index >= CPEL_MAPGUARD_MAX)
    return NULL;
  slot = &slots[index];
  if (g_atomic_int_get (&slot->state) != SLOT_ACTIVE
      || (guint) g_atomic_int_get (&slot->gen) != id >> SLOT_BITS)
    return NULL;
  return slot;
}

void
cpel_mapguard_unregister (guint id)
{
  Slot *slot = slot_of (id);

  if (id == 0)
    return;
  g_return_if_fail (slot != NULL);
  if (!g_atomic_int_compare_and_exchange (&slot->state, SLOT_ACTIVE, SLOT_BUSY))
    g_return_if_reached ();
  g_atomic_pointer_set (&slot->start, NULL);
  g_atomic_pointer_set (&slot->end, NULL);
  g_atomic_int_set (&slot->state, SLOT_FREE);
}

gboolean
cpel_mapguard_is_damaged (guint id)
{
  Slot *slot = slot_of (id);

  return slot != NULL && g_atomic_int_get (&slot->damaged) != 0;
}

#else /* !G_OS_UNIX */

guint
cpel_mapguard_register (const void *start,
                        gsize       length)
{
  return 0;
}

void
cpel_mapguard_unregister (guint id)
{
}

gboolean
cpel_mapguard_is_damaged (guint id)
{
  return FALSE;
}

#endif

void
cpel_mapping_drop_pages (const void *from,
                         const void *to)
{
#if defined(G_OS_UNIX) && defined(MADV_DONTNEED)
  static gsize page;
  guintptr a, b;

  if (to <= from)
    return;
  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  a = ((guintptr) from + page - 1) & ~(guintptr) (page - 1);
  b = (guintptr) to & ~(guintptr) (page - 1);
  if (b > a)
    madvise ((void *) a, b - a, MADV_DONTNEED);
#endif
}

/* CPEL_INDEX_PREFETCH=0: no read-ahead (the benchmarks' before/after
 * comparison) */
static gboolean
will_need_wanted (void)
{
  static gsize once;
  static gboolean wanted;

  if (g_once_init_enter (&once))
    {
      wanted = g_strcmp0 (g_getenv ("CPEL_INDEX_PREFETCH"), "0") != 0;
      g_once_init_leave (&once, 1);
    }
  return wanted;
}

void
cpel_mapping_will_need (const void *from,
                        const void *to)
{
#if defined(G_OS_UNIX) && defined(MADV_WILLNEED)
  static gsize page;
  guintptr a, b;

  if (to <= from || !will_need_wanted ())
    return;
  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  a = (guintptr) from & ~(guintptr) (page - 1);
  b = ((guintptr) to + page - 1) & ~(guintptr) (page - 1);
  madvise ((void *) a, b - a, MADV_WILLNEED);
#endif
}
