/* SPDX-License-Identifier: Apache-2.0 */
/* test-mapguard.c — the SIGBUS guard for mapped files */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpel-mapguard.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static gsize page;

typedef struct
{
  char        *path;
  int          fd;
  GMappedFile *mapped;
  const guint8 *data;
  gsize        len;
} Mapped;

static guint8
pattern (gsize i)
{
  return (guint8) (i * 7 + 1) | 1;   /* never 0 */
}

/* A temporary file of n_pages pages with a non-zero pattern, mapped. */
static Mapped *
mapped_new (gsize n_pages)
{
  Mapped *m = g_new0 (Mapped, 1);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *buf = g_malloc (n_pages * page);

  for (gsize i = 0; i < n_pages * page; i++)
    buf[i] = pattern (i);
  m->fd = g_file_open_tmp ("cpel-mapguard-XXXXXX", &m->path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (write (m->fd, buf, n_pages * page), ==, (gssize) (n_pages * page));
  m->mapped = g_mapped_file_new_from_fd (m->fd, FALSE, &error);
  g_assert_no_error (error);
  m->data = (const guint8 *) g_mapped_file_get_contents (m->mapped);
  m->len = g_mapped_file_get_length (m->mapped);
  g_assert_cmpuint (m->len, ==, n_pages * page);
  return m;
}

static void
mapped_free (Mapped *m)
{
  g_mapped_file_unref (m->mapped);
  close (m->fd);
  g_unlink (m->path);
  g_free (m->path);
  g_free (m);
}

/* Sum of every byte, read one by one (volatile: every page is touched). */
static guint64
read_all (const guint8 *data,
          gsize         len)
{
  const volatile guint8 *p = data;
  guint64 sum = 0;

  for (gsize i = 0; i < len; i++)
    sum += p[i];
  return sum;
}

static void
test_truncate (void)
{
  Mapped *m = mapped_new (8), *other = mapped_new (2);
  guint id = cpel_mapguard_register (m->data, m->len);
  guint id2 = cpel_mapguard_register (other->data, other->len);
  gsize cut = page + page / 2;

  g_assert_cmpuint (id, !=, 0);
  g_assert_cmpuint (id2, !=, 0);
  g_assert_cmpuint (id, !=, id2);
  g_assert_false (cpel_mapguard_is_damaged (id));
  read_all (m->data, m->len);                    /* all pages resident */

  g_assert_cmpint (ftruncate (m->fd, cut), ==, 0);
  read_all (m->data, m->len);                    /* no SIGBUS death */
  g_assert_true (cpel_mapguard_is_damaged (id));
  g_assert_false (cpel_mapguard_is_damaged (id2));

  /* below the new end: the file's bytes; past it: zeros */
  for (gsize i = 0; i < cut; i++)
    if (m->data[i] != pattern (i))
      g_error ("byte %" G_GSIZE_FORMAT " changed", i);
  for (gsize i = cut; i < m->len; i++)
    if (m->data[i] != 0)
      g_error ("byte %" G_GSIZE_FORMAT " past the end is not 0", i);
  g_assert_cmpuint (read_all (other->data, other->len), >, 0);

  cpel_mapguard_unregister (id);
  cpel_mapguard_unregister (id2);
  g_assert_false (cpel_mapguard_is_damaged (id));   /* stale id */
  mapped_free (m);
  mapped_free (other);
}

/* A page missing in the middle of a read, on another thread, then the
 * mapping is unmapped as usual. */
static gpointer
reader_thread (gpointer data)
{
  Mapped *m = data;

  return GSIZE_TO_POINTER ((gsize) read_all (m->data, m->len));
}

static void
test_thread (void)
{
  Mapped *m = mapped_new (4);
  guint id = cpel_mapguard_register (m->data, m->len);
  GThread *thread;
  guint64 sum, expect = 0;

  for (gsize i = 0; i < page; i++)
    expect += pattern (i);
  g_assert_cmpint (ftruncate (m->fd, page), ==, 0);
  thread = g_thread_new ("reader", reader_thread, m);
  sum = GPOINTER_TO_SIZE (g_thread_join (thread));
  g_assert_cmpuint (sum, ==, expect);
  g_assert_true (cpel_mapguard_is_damaged (id));
  cpel_mapguard_unregister (id);
  mapped_free (m);
}

/* The file shrinks to nothing, then grows back: the pages already replaced
 * stay zeros (the data may be stale), and the flag stays set. */
static void
test_truncate_to_zero (void)
{
  Mapped *m = mapped_new (3);
  guint id = cpel_mapguard_register (m->data, m->len);

  g_assert_cmpint (ftruncate (m->fd, 0), ==, 0);
  g_assert_cmpuint (read_all (m->data, m->len), ==, 0);
  g_assert_true (cpel_mapguard_is_damaged (id));
  g_assert_cmpint (ftruncate (m->fd, 3 * page), ==, 0);
  g_assert_cmpuint (read_all (m->data, m->len), ==, 0);
  g_assert_true (cpel_mapguard_is_damaged (id));
  cpel_mapguard_unregister (id);
  mapped_free (m);
}

/* For a child that dies by SIGBUS without cleaning up: the file leaves the
 * directory at once (its descriptor and mapping keep it). */
static Mapped *
mapped_new_unlinked (gsize n_pages)
{
  Mapped *m = mapped_new (n_pages);

  g_unlink (m->path);
  return m;
}

/* In a child: what happens must be the usual death by SIGBUS. */
static void
expect_child_sigbus (void (*body) (void))
{
  pid_t pid;
  int status;

  fflush (stdout);
  fflush (stderr);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* the expected death may be reported (AddressSanitizer): keep the
       * log free of it */
      int null = open ("/dev/null", O_WRONLY);
      if (null >= 0)
        dup2 (null, STDERR_FILENO);
      body ();
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
#ifdef UNDER_ASAN
  /* AddressSanitizer's own SIGBUS handler reports and exits */
  g_assert_true ((WIFSIGNALED (status) && WTERMSIG (status) == SIGBUS)
                 || (WIFEXITED (status) && WEXITSTATUS (status) != 0));
#else
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGBUS);
#endif
}

static void
child_unregistered (void)
{
  Mapped *guarded = mapped_new_unlinked (1), *m = mapped_new_unlinked (3);

  /* the handler is installed, but this mapping is not registered */
  g_assert_cmpuint (cpel_mapguard_register (guarded->data, guarded->len), !=, 0);
  g_assert_cmpint (ftruncate (m->fd, 0), ==, 0);
  read_all (m->data, m->len);
}

static void
child_after_unregister (void)
{
  Mapped *m = mapped_new_unlinked (3);
  guint id = cpel_mapguard_register (m->data, m->len);

  cpel_mapguard_unregister (id);
  g_assert_cmpint (ftruncate (m->fd, 0), ==, 0);
  read_all (m->data, m->len);
}

static void
child_kill (void)
{
  Mapped *m = mapped_new_unlinked (1);

  g_assert_cmpuint (cpel_mapguard_register (m->data, m->len), !=, 0);
  raise (SIGBUS);
}

static void
test_not_guarded (void)
{
  expect_child_sigbus (child_unregistered);
  expect_child_sigbus (child_after_unregister);
  expect_child_sigbus (child_kill);
}

static void
test_ids (void)
{
  static guint ids[CPEL_MAPGUARD_MAX];
  Mapped *m = mapped_new (2);
  guint id;

  g_assert_cmpuint (cpel_mapguard_register (m->data, 0), ==, 0);
  g_assert_cmpuint (cpel_mapguard_register (m->data + 1, 10), ==, 0);   /* unaligned */
  cpel_mapguard_unregister (0);
  g_assert_false (cpel_mapguard_is_damaged (0));

  /* fill the table: then registering fails softly */
  for (guint i = 0; i < CPEL_MAPGUARD_MAX; i++)
    {
      ids[i] = cpel_mapguard_register (m->data, m->len);
      g_assert_cmpuint (ids[i], !=, 0);
    }
  g_assert_cmpuint (cpel_mapguard_register (m->data, m->len), ==, 0);
  for (guint i = 0; i < CPEL_MAPGUARD_MAX; i++)
    cpel_mapguard_unregister (ids[i]);

  /* a reused slot gets a new id; the old one is stale */
  id = cpel_mapguard_register (m->data, m->len);
  g_assert_cmpuint (id, !=, 0);
  for (guint i = 0; i < CPEL_MAPGUARD_MAX; i++)
    g_assert_cmpuint (id, !=, ids[i]);
  g_assert_cmpint (ftruncate (m->fd, 0), ==, 0);
  read_all (m->data, m->len);
  g_assert_true (cpel_mapguard_is_damaged (id));
  for (guint i = 0; i < CPEL_MAPGUARD_MAX; i++)
    g_assert_false (cpel_mapguard_is_damaged (ids[i]));
  cpel_mapguard_unregister (id);
  mapped_free (m);
}

/* cpel_mapping_drop_pages gives back only the whole pages inside the range:
 * shown on anonymous memory, where a dropped page reads zeros afterwards
 * (on a file mapping it reads the file again, checked after). */
static void
test_drop_pages (void)
{
  gsize len = 4 * page;
  guint8 *mem = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  Mapped *m;

  g_assert_true (mem != MAP_FAILED);
  memset (mem, 0xab, len);
  /* from inside page 0 to inside page 3: pages 1 and 2 go, 0 and 3 stay */
  cpel_mapping_drop_pages (mem + page / 2, mem + 3 * page + page / 2);
  for (gsize i = 0; i < len; i++)
    g_assert_cmpuint (mem[i], ==, (i >= page && i < 3 * page) ? 0 : 0xab);
  /* an empty or reversed range, or one inside a single page, drops nothing */
  memset (mem, 0xab, len);
  cpel_mapping_drop_pages (mem + 2 * page, mem + 2 * page);
  cpel_mapping_drop_pages (mem + 3 * page, mem + page);
  cpel_mapping_drop_pages (mem + 1, mem + page - 1);
  for (gsize i = 0; i < len; i++)
    g_assert_cmpuint (mem[i], ==, 0xab);
  munmap (mem, len);

  /* a file mapping keeps the file's bytes */
  m = mapped_new (4);
  for (gsize i = 0; i < m->len; i++)
    g_assert_cmpuint (m->data[i], ==, pattern (i));
  cpel_mapping_drop_pages (m->data, m->data + m->len);
  for (gsize i = 0; i < m->len; i++)
    g_assert_cmpuint (m->data[i], ==, pattern (i));
  mapped_free (m);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  page = (gsize) sysconf (_SC_PAGESIZE);

  g_test_add_func ("/core/mapguard/truncate", test_truncate);
  g_test_add_func ("/core/mapguard/thread", test_thread);
  g_test_add_func ("/core/mapguard/truncate-to-zero", test_truncate_to_zero);
  g_test_add_func ("/core/mapguard/not-guarded", test_not_guarded);
  g_test_add_func ("/core/mapguard/ids", test_ids);
  g_test_add_func ("/core/mapguard/drop-pages", test_drop_pages);
  return g_test_run ();
}
