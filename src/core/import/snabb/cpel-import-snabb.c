/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import-snabb.c — Snabb core.timeline files (format 3.x)
 *
 * Layout, clock and traps: doc/import-formats.md, section 2.
 * The file is a 64-byte header, a ring of 64-byte entries and a string
 * table of messages on a 16-byte grid.  Entries are ordered by their TSC
 * (the write cursor is not stored: a wrapped ring is rotated at its one
 * descent, anything else is sorted); the TSC rate comes from the
 * engine.got_monotonic_time events, else from the user, else ticks are read
 * as ns and the file says so.
 */
#include "cpel-import.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cpel-error.h"
#include "cpel-snabb-message.h"

#define HEADER_SIZE 64
#define ENTRY_SIZE  64
#define MSGID_FULL  0xFFFF

static const guint8 snabb_magic[8] = { 0x01, 0x00, 0x1d, 0x44, 0x23, 0x72, 0xff, 0xa3 };

static gboolean
probe_snabb (const guint8 *data,
             gsize         size,
             const char   *path)
{
  return size >= 8 && memcmp (data, snabb_magic, 8) == 0;
}

static inline guint16
le16 (const guint8 *p)
{
  return (guint16) (p[0] | p[1] << 8);
}

static inline guint32
le32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static inline double
lef64 (const guint8 *p)
{
  guint64 v;
  double d;

  memcpy (&v, p, 8);
  v = GUINT64_FROM_LE (v);
  memcpy (&d, &v, 8);
  return d;
}

typedef struct
{
  double  tsc;
  guint32 slot;
} Entry;

static void
reverse_slots (guint32 *slots,
               guint64  from,
               guint64  to)
{
  while (from + 1 < to)
    {
      guint32 t = slots[from];
      slots[from++] = slots[--to];
      slots[to] = t;
    }
}

/* (guint64) llround (x), without the call in the usual range. */
static inline guint64
round_ns (double x)
{
  guint64 v;

  if (G_UNLIKELY (!(x >= 0 && x < 9.2e18)))
    return (guint64) llround (x);
  v = (guint64) x;
  return v + (x - (double) v >= 0.5);   /* exact: x - trunc (x) */
}

/* What an entry's text needs, kept for texts made when asked. */
typedef struct
{
  CpelSnabbMessage  *msgs;
  guint32   n_msgs;
  gsize     log_offset;   /* of slot 0 in the source */
  guint32   n_slots;
} SnabbTexts;

static void
snabb_texts_free (gpointer state)
{
  SnabbTexts *t = state;

  for (guint32 id = 0; id < t->n_msgs; id++)
    cpel_snabb_message_clear (&t->msgs[id]);
  g_free (t->msgs);
  g_free (t);
}

/* "name=value …" of the entry in slot `ref`, read again from the source. */
static void
snabb_format_text (gconstpointer  state,
                   const guint8  *data,
                   gsize          size,
                   guint64        ref,
                   GString       *out)
{
  const SnabbTexts *t = state;
  const guint8 *e;
  guint16 msgid;
  const CpelSnabbMessage *m;

  if (ref >= t->n_slots || t->log_offset + (ref + 1) * ENTRY_SIZE > size)
    return;
  e = data + t->log_offset + ref * ENTRY_SIZE;
  msgid = le16 (e + 8);
  if (msgid == MSGID_FULL)
    return;
  if (msgid >= t->n_msgs || !t->msgs[msgid].valid)
    {
      g_string_append_printf (out, _("<message id %u: the file changed>"), msgid);
      return;
    }
  m = &t->msgs[msgid];
  for (guint k = 0; k < m->n_args; k++)
    {
      if (k > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, m->arg_names[k]);
      g_string_append_c (out, '=');
      cpel_snabb_append_number (out, lef64 (e + 16 + 8 * k));
    }
}

static const CpelImportTextFuncs snabb_text_funcs = { snabb_format_text, snabb_texts_free };

static int
compare_entries (const void *a,
                 const void *b)
{
  const Entry *x = a, *y = b;

  if (x->tsc != y->tsc)
    return x->tsc < y->tsc ? -1 : 1;
  return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static gboolean
import_snabb (const CpelImportSource  *src,
              const CpelImportOptions *options,
              CpelImportBuilder       *b,
              GCancellable            *cancellable,
              GError                 **error)
{
  const guint8 *data = src->data;
  guint16 major, minor;
  guint32 log_bytes, strings_bytes, n_slots, n_msgs, n_used = 0, n_tracks;
  const guint8 *log, *strings;
  CpelSnabbMessage *msgs = NULL;
  g_autoptr(GHashTable) track_ids = NULL;
  g_autofree guint32 *slots = NULL;   /* the entries' slots in time order */
  gboolean any_full = FALSE;
  SnabbTexts *texts;
  guint64 n = 0, descents = 0;
  guint32 mono_msg_first = G_MAXUINT32;
  double hz = 0, tsc0 = 0;
  gboolean derived = FALSE;
  gboolean ok = FALSE, wrapped, msgs_owned = TRUE;
  gint64 mono_count = 0;
  double mono_tsc[2] = { 0 }, mono_ns[2] = { 0 };

  if (src->size < HEADER_SIZE)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("Snabb timeline: the header is truncated at offset %" PRIu64
                     " (64 bytes needed)"), src->size);
      return FALSE;
    }
  major = le16 (data + 8);
  minor = le16 (data + 10);
  if (major == 1 || major == 2)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
                   _("Snabb timeline: format %u.%u at offset 8 is an old layout (%s) that this "
                     "viewer does not read; only format 3 (Snabb since 2017) is supported"),
                   major, minor, major == 1 ? _("the 2016 “v1” branch") : _("February 2017, 64-bit integer timestamps"));
      return FALSE;
    }
  if (major != 3)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_UNSUPPORTED,
                   _("Snabb timeline: unknown format version %u.%u at offset 8; only 3.x is "
                     "supported"), major, minor);
      return FALSE;
    }
  log_bytes = le32 (data + 12);
  strings_bytes = le32 (data + 16);
  if (log_bytes % ENTRY_SIZE != 0)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("Snabb timeline: log_bytes %u at offset 12 is not a multiple of %u"),
                   log_bytes, ENTRY_SIZE);
      return FALSE;
    }
  if ((guint64) HEADER_SIZE + log_bytes + strings_bytes > src->size)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                   _("Snabb timeline: the header (offset 12) announces %u entry bytes and %u "
                     "string bytes, %" PRIu64 " bytes in all, but the file has %"
                     PRIu64), log_bytes, strings_bytes,
                   (guint64) HEADER_SIZE + log_bytes + strings_bytes, src->size);
      return FALSE;
    }
  n_slots = log_bytes / ENTRY_SIZE;
  log = data + HEADER_SIZE;
  strings = log + log_bytes;

  /* Messages: one may start at each 16-byte boundary after a NUL. */
  n_msgs = strings_bytes / 16 + (strings_bytes % 16 != 0);
  n_msgs = MIN (n_msgs, MSGID_FULL);
  msgs = g_new0 (CpelSnabbMessage, (gsize) n_msgs + 1);
  track_ids = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint32 id = 0; id < n_msgs; id++)
    {
      gsize off = (gsize) id * 16;
      const guint8 *s = strings + off, *nul;

      if (s[0] == 0 || (off > 0 && s[-1] != 0))
        continue;
      nul = memchr (s, 0, strings_bytes - off);
      if (!cpel_snabb_message_parse ((const char *) s, nul ? (gsize) (nul - s) : strings_bytes - off, &msgs[id]))
        continue;
      msgs[id].is_mono = strcmp (msgs[id].name, "engine.got_monotonic_time") == 0;
      if (msgs[id].is_mono && mono_msg_first == G_MAXUINT32)
        mono_msg_first = id;
      if (!g_hash_table_contains (track_ids, msgs[id].track))
        g_hash_table_insert (track_ids, msgs[id].track,
                             GUINT_TO_POINTER (g_hash_table_size (track_ids)));
      msgs[id].track_id = GPOINTER_TO_UINT (g_hash_table_lookup (track_ids, msgs[id].track));
    }

  /* Entries in time order: the slots (what the events' texts refer to).
   * One pass over the ring checks every entry, lists the used slots and
   * the engine.got_monotonic_time ones; the order is then the slot order,
   * a rotation of it (a wrapped ring) or, only otherwise, a sort. */
  {
    /* engine.got_monotonic_time positions: the first and the last, the
     * first since the last descent and the last before it */
    guint64 first_mono = G_MAXUINT64, last_mono = G_MAXUINT64;
    guint64 first_since = G_MAXUINT64, last_before = G_MAXUINT64;
    double first_tsc = 0, prev_tsc = 0;
    guint64 rot = 0;
    gboolean sorted = FALSE;

    slots = g_new (guint32, MAX (n_slots, 1));
    for (guint32 slot = 0; slot < n_slots; slot++)
      {
        const guint8 *e = log + (gsize) slot * ENTRY_SIZE;
        double tsc = lef64 (e);
        guint16 msgid;

        if (tsc == 0.0)
          continue;
        msgid = le16 (e + 8);
        if (G_UNLIKELY (!isfinite (tsc) || tsc < 0))
          {
            g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                         _("Snabb timeline: the entry in slot %u (offset %" PRIu64 ") has "
                           "an impossible timestamp"), slot, (gsize) (e - data));
            goto out;
          }
        if (msgid == MSGID_FULL)
          any_full = TRUE;
        else if (G_UNLIKELY (msgid >= n_msgs || !msgs[msgid].valid))
          {
            g_set_error (error, CPEL_ERROR, CPEL_ERROR_SOURCE_DAMAGED,
                         _("Snabb timeline: the entry in slot %u (offset %" PRIu64 ") has "
                           "message id %u (string offset %u), which is not the start of a message "
                           "in the %u-byte string table"),
                         slot, (gsize) (e - data) + 8, msgid, msgid * 16u, strings_bytes);
            goto out;
          }
        if (n == 0)
          first_tsc = tsc;
        else if (tsc < prev_tsc)
          {
            descents++;
            rot = n;
            last_before = last_mono;
            first_since = G_MAXUINT64;
          }
        if (msgid != MSGID_FULL && msgs[msgid].is_mono)
          {
            if (first_mono == G_MAXUINT64)
              first_mono = n;
            if (first_since == G_MAXUINT64)
              first_since = n;
            last_mono = n;
            mono_count++;
          }
        prev_tsc = tsc;
        slots[n++] = slot;
      }
    wrapped = n == n_slots && n > 0 && descents > 0;
    if (descents == 0)
      rot = 0;
    else if (descents == 1 && prev_tsc <= first_tsc)
      {
        /* one wrapped ring: rotated left by rot (the oldest entry is the
         * one after the newest), in place by three reversals */
        reverse_slots (slots, 0, rot);
        reverse_slots (slots, rot, n);
        reverse_slots (slots, 0, n);
      }
    else
      {
        g_autofree Entry *order = g_new (Entry, MAX (n, 1));

        for (guint64 k = 0; k < n; k++)
          {
            order[k].tsc = lef64 (log + (gsize) slots[k] * ENTRY_SIZE);
            order[k].slot = slots[k];
          }
        qsort (order, n, sizeof (Entry), compare_entries);
        for (guint64 k = 0; k < n; k++)
          slots[k] = order[k].slot;
        sorted = TRUE;
      }

    /* The clock: the first and the last engine.got_monotonic_time in time order. */
    if (sorted)
      {
        mono_count = 0;
        for (guint64 i = 0; i < n; i++)
          {
            const guint8 *e = log + (gsize) slots[i] * ENTRY_SIZE;
            guint16 msgid = le16 (e + 8);

            if (msgid != MSGID_FULL && msgs[msgid].is_mono)
              {
                int k = mono_count == 0 ? 0 : 1;
                mono_tsc[k] = lef64 (e);
                mono_ns[k] = lef64 (e + 16);
                if (mono_count == 0)
                  {
                    mono_tsc[1] = mono_tsc[0];
                    mono_ns[1] = mono_ns[0];
                  }
                mono_count++;
              }
          }
      }
    else if (mono_count > 0)
      {
        /* slot order (rot 0), or rotated: the positions from rot come first */
        guint64 lo = rot > 0 && first_since != G_MAXUINT64 ? first_since : first_mono;
        guint64 hi = rot > 0 && last_before != G_MAXUINT64 ? last_before : last_mono;

        lo = (lo + n - rot) % n;   /* positions in time order */
        hi = (hi + n - rot) % n;
        mono_tsc[0] = lef64 (log + (gsize) slots[lo] * ENTRY_SIZE);
        mono_ns[0] = lef64 (log + (gsize) slots[lo] * ENTRY_SIZE + 16);
        mono_tsc[1] = lef64 (log + (gsize) slots[hi] * ENTRY_SIZE);
        mono_ns[1] = lef64 (log + (gsize) slots[hi] * ENTRY_SIZE + 16);
      }
  }
  if (mono_count >= 2 && mono_ns[1] > mono_ns[0] && mono_tsc[1] > mono_tsc[0])
    {
      g_autofree char *s = NULL;

      hz = (mono_tsc[1] - mono_tsc[0]) / (mono_ns[1] - mono_ns[0]) * 1e9;
      derived = TRUE;
      s = g_strdup_printf (_("TSC rate %.3f Hz, derived from %" PRId64
                             " engine.got_monotonic_time events"), hz, mono_count);
      cpel_import_builder_set_clock (b, CPEL_IMPORT_CLOCK_DERIVED, s);
      if (options->ticks_per_second)
        cpel_import_builder_add_info (b, N_("Clock rate option"),
                                      _("ignored: the file gives its TSC rate"));
    }
  else if (options->ticks_per_second)
    {
      g_autofree char *s = g_strdup_printf (_("TSC rate %" PRIu64 " Hz, given by the user"),
                                            options->ticks_per_second);
      hz = (double) options->ticks_per_second;
      cpel_import_builder_set_clock (b, CPEL_IMPORT_CLOCK_USER, s);
    }
  else
    cpel_import_builder_set_clock (b, CPEL_IMPORT_CLOCK_UNKNOWN,
                                   _("TSC rate unknown (no engine.got_monotonic_time events): "
                                     "times are shown as ticks; give the rate with "
                                     "--clock-rate or “Set Clock Rate…”"));

  /* Header information. */
  {
    g_autofree char *s = NULL;

    s = g_strdup_printf ("%u.%u", major, minor);
    cpel_import_builder_add_info (b, N_("Format version"), s);
    g_clear_pointer (&s, g_free);
    s = g_strdup_printf (_("%" PRIu64 " of %u slots used%s"), n, n_slots,
                         wrapped ? _(", wrapped") : "");
    cpel_import_builder_add_info (b, N_("Entries"), s);
    g_clear_pointer (&s, g_free);
    if (n > 0)
      {
        s = g_strdup_printf (_("oldest slot %u, newest slot %u"), slots[0], slots[n - 1]);
        cpel_import_builder_add_info (b, N_("Ring"), s);
        g_clear_pointer (&s, g_free);
      }
    {
      guint count = 0;
      for (guint32 id = 0; id < n_msgs; id++)
        count += msgs[id].valid;
      s = g_strdup_printf (_("%u bytes, %u messages"), strings_bytes, count);
    }
    cpel_import_builder_add_info (b, N_("String table"), s);
    g_clear_pointer (&s, g_free);
    if (n > 0)
      {
        guint16 cn = le16 (log + (gsize) slots[0] * ENTRY_SIZE + 10);
        s = g_strdup_printf (_("%u (cpu %u, node %u; may be meaningless on virtual machines)"),
                             cn, cn & 0xfff, cn >> 12);
        cpel_import_builder_add_info (b, N_("core_numa of the first entry"), s);
      }
  }

  /* Tracks and types. */
  {
    GHashTableIter it;
    gpointer key, value;
    g_autofree const char **labels = g_new0 (const char *, g_hash_table_size (track_ids) + 1);

    g_hash_table_iter_init (&it, track_ids);
    while (g_hash_table_iter_next (&it, &key, &value))
      labels[GPOINTER_TO_UINT (value)] = key;
    for (guint i = 0; i < g_hash_table_size (track_ids); i++)
      cpel_import_builder_add_track (b, i, labels[i]);
  }
  for (guint32 id = 0; id < n_msgs; id++)
    if (msgs[id].valid)
      cpel_import_builder_add_type (b, id, msgs[id].name, msgs[id].n_args ? "%d" : NULL);
  {
    if (any_full)
      {
        cpel_import_builder_add_track (b, g_hash_table_size (track_ids), _("unknown"));
        cpel_import_builder_add_type (b, MSGID_FULL, _("unknown message (string table full)"), NULL);
      }
  }

  /* from here on the builder owns the messages */
  texts = g_new0 (SnabbTexts, 1);
  texts->msgs = g_steal_pointer (&msgs);
  texts->n_msgs = n_msgs;
  texts->log_offset = HEADER_SIZE;
  texts->n_slots = n_slots;
  cpel_import_builder_set_text_source (b, &snabb_text_funcs, texts, n_slots);
  msgs = texts->msgs;   /* still read below, freed by the builder */
  msgs_owned = FALSE;
  if (!cpel_import_builder_begin_events (b, n, error))
    goto out;
  n_tracks = g_hash_table_size (track_ids);
  if (n > 0)
    tsc0 = lef64 (log + (gsize) slots[0] * ENTRY_SIZE);
  /* A rate from engine.got_monotonic_time: the first of them reads its
   * argument, CLOCK_MONOTONIC (seconds since boot), on the capture's clock */
  if (derived)
    {
      /* both terms in [0, 9.2e18) ns, so is their difference: a damaged
       * file's first entry far before the clock event has no origin */
      double since = (mono_tsc[0] - tsc0) * 1e9 / hz;

      if (since >= 0 && since < 9.2e18 && mono_ns[0] >= 0 && mono_ns[0] < 9.2e18)
        cpel_import_builder_set_clock_origin (b, CPEL_CLOCK_SECONDS,
                                              (gint64) round_ns (mono_ns[0])
                                              - (gint64) round_ns (since));
    }
  for (guint64 i = 0; i < n; i++)
    {
      const guint8 *e = log + (gsize) slots[i] * ENTRY_SIZE;
      guint16 msgid = le16 (e + 8);
      const CpelSnabbMessage *m = msgid == MSGID_FULL ? NULL : &msgs[msgid];
      double d = lef64 (e) - tsc0;
      double a0 = lef64 (e + 16);
      guint64 ns;
      guint32 datum = 0;

      ns = round_ns (hz > 0 ? d * 1e9 / hz : d);
      if (a0 == floor (a0) && fabs (a0) < 9.2e18)
        datum = (guint32) (gint64) a0;
      cpel_import_builder_add_event_ref (b, ns, m ? m->track_id : n_tracks, msgid, datum,
                                         slots[i]);
      n_used++;
      if ((i & 0xffff) == 0xffff)
        {
          if (!cpel_import_check_cancel (b, error))
            goto out;
          cpel_import_report_progress (b, (double) i / n);
        }
    }
  ok = TRUE;

out:
  if (msgs_owned)
    {
      for (guint32 id = 0; id < n_msgs; id++)
        cpel_snabb_message_clear (&msgs[id]);
      g_free (msgs);
    }
  return ok;
}

const CpelImporter cpel_importer_snabb = {
  .id = "snabb",
  .name = N_("Snabb timeline"),
  .mime_type = "application/x-snabb-timeline",
  .patterns = (const char * const[]) { "*.timeline", NULL },
  .directory = FALSE,
  .probe = probe_snabb,
  .import = import_snabb,
};
