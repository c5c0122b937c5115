/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-gen.c — synthetic CPEL files for tests, benchmarks and the demo
 *
 * Synthetic mode streams n_events events over n_tracks tracks straight to
 * the writer (constant memory): a global clock advancing by random gaps
 * (occasional idle gaps), events in runs on one track at a time, a handful
 * of event types, and a small fraction of adjacent events swapped across
 * tracks so that sections are mostly — not entirely — time-sorted, as in
 * real captures merged from per-CPU buffers (or, with `sorted`, none: every
 * section in time order, which the CLI can stream).  Per track, times
 * increase.
 *
 * Demo mode builds a VPP-like dataplane capture (~10^5 events) in memory,
 * then writes it: worker threads dispatching graph nodes in bursts with idle
 * gaps, rx/tx queues, a main thread with API messages and barriers, three
 * string tables, a symbol table, and two event sections with different
 * clocks (a 2.6 GHz TSC and nanoseconds).
 *
 * Everything is deterministic for a given seed (own PRNG, fixed file date).
 */
#include <inttypes.h>
#include "cpel-gen.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "cpel-error.h"
#include "cpel-file.h"
#include "cpel-writer.h"

#define GEN_DATE           1735689600u   /* 2025-01-01, fixed: output depends on the seed only */
#define MAX_SECTION_EVENTS ((G_MAXUINT32 - 72u) / 20u)
#define MAX_GEN_TRACKS     (1u << 24)

/* ---- PRNG: splitmix64 (fast, good enough, portable) ----------------------- */

typedef struct
{
  guint64 state;
} Rng;

static inline guint64
rng_next (Rng *rng)
{
  guint64 z = (rng->state += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0; the bias is negligible for our n). */
static inline guint32
rng_below (Rng *rng, guint32 n)
{
  return (guint32) (((rng_next (rng) >> 32) * (guint64) n) >> 32);
}

static inline guint32
rng_range (Rng *rng, guint32 lo, guint32 hi)   /* [lo, hi] */
{
  return lo + rng_below (rng, hi - lo + 1);
}

/* ---- shared bits ----------------------------------------------------------- */

static const char * const symbol_names[] = {
  "vlib_main_loop", "vlib_worker_loop", "dispatch_node", "dispatch_pending_node",
  "vlib_frame_queue_dequeue", "dpdk_input_node_fn", "dpdk_device_input",
  "ethernet_input_node_fn", "ip4_input_node_fn", "ip4_lookup_node_fn",
  "ip4_rewrite_node_fn", "ip4_local_node_fn", "ip4_icmp_input_node_fn",
  "arp_input_node_fn", "interface_output_node_fn", "dpdk_interface_tx",
  "vlib_buffer_alloc_from_pool", "vlib_buffer_free", "error_drop_node_fn",
  "l2_input_node_fn", "l2_fwd_node_fn", "vnet_interface_output_node",
  "vlib_process_startup", "vl_api_clnt_process", "ip4_neighbor_scan_process",
  "lldp_process", "dhcp_client_process", "stat_segment_collector_process",
  "vlib_worker_thread_barrier_sync_int", "vlib_worker_thread_barrier_release",
  "clib_mem_alloc", "clib_mem_free", "vec_resize_allocate_memory",
  "hash_get_mem", "mhash_set_mem", "bihash_add_del_8_8", "bihash_search_16_8",
  "fib_table_lookup", "adj_nbr_update_rewrite", "timing_wheel_expire",
};
#define SYMBOL_BASE 0x00401000u

/* Symbols at increasing addresses with varied sizes (deterministic). */
static void
write_symbols (CpelWriter *w, guint table, guint32 *values)
{
  guint32 value = SYMBOL_BASE;

  cpel_writer_begin_symbols (w, table);
  for (guint i = 0; i < G_N_ELEMENTS (symbol_names); i++)
    {
      values[i] = value;
      cpel_writer_add_symbol (w, value, symbol_names[i]);
      value += 0x180 + ((i * 0x2f3) & 0xfc0);
    }
}

/* ---- synthetic mode -------------------------------------------------------- */

static const char * const syn_nodes[] = {
  "dpdk-input", "ethernet-input", "ip4-input", "ip4-lookup", "ip4-rewrite",
  "ip4-local", "ip6-input", "ip6-lookup", "arp-input", "l2-input", "l2-fwd",
  "interface-output", "error-drop", "gtpu4-input", "vxlan4-input", "tcp4-established",
};

enum
{
  SYN_DISPATCH = 1, SYN_RX, SYN_TX, SYN_ENQUEUE, SYN_CALL, SYN_LOCK, SYN_IDLE, SYN_ERROR,
};

typedef struct
{
  guint64 ticks;
  guint32 track, code, datum;
} GenEvent;

typedef struct
{
  CpelWriter *w;
  Rng         rng;
  GenEvent    held;
  gboolean    has_held;
  gboolean    sorted;
} Emitter;

static inline void
emit_now (Emitter *e, const GenEvent *ev)
{
  cpel_writer_add_event (e->w, ev->ticks, ev->track, ev->code, ev->datum);
}

/* Writes `ev`, now or — rarely — after the next event of another track. */
static inline void
emit (Emitter *e, const GenEvent *ev)
{
  if (e->has_held)
    {
      e->has_held = FALSE;
      if (ev->track != e->held.track)
        {
          emit_now (e, ev);
          emit_now (e, &e->held);
        }
      else
        {
          emit_now (e, &e->held);
          emit_now (e, ev);
        }
    }
  else if ((rng_next (&e->rng) & 0x1ff) == 0 && !e->sorted)
    {
      e->held = *ev;
      e->has_held = TRUE;
    }
  else
    emit_now (e, ev);
}

static void
emit_flush (Emitter *e)
{
  if (e->has_held)
    emit_now (e, &e->held);
  e->has_held = FALSE;
}

static gboolean
gen_synthetic (CpelWriter *w, const CpelGenOptions *opt, GError **error)
{
  static const char * const track_formats[] = {
    "thread %d", "cpu %u", "worker %d", "queue 0x%x",
  };
  guint defs, strings;
  guint32 node_offsets[G_N_ELEMENTS (syn_nodes)];
  guint32 symbol_values[G_N_ELEMENTS (symbol_names)];
  guint32 symbol_span;
  Emitter e = { w, { opt->seed ^ G_GUINT64_CONSTANT (0x5eed5eed5eed5eed) }, { 0 }, FALSE, opt->sorted };
  guint64 remaining = opt->n_events;
  guint64 t = G_GUINT64_CONSTANT (0x123456789ab);   /* > 32 bits: exercises time_hi */
  guint32 track = 0, run = 0;
  guint32 n_hot = MAX (1, opt->n_tracks / 8);

  if (opt->n_events > 0 && opt->n_tracks == 0)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_INVALID,
                   _("Cannot generate events on zero tracks"));
      return FALSE;
    }
  if (opt->n_tracks > MAX_GEN_TRACKS)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                   _("At most %u tracks can be generated"), MAX_GEN_TRACKS);
      return FALSE;
    }

  defs = cpel_writer_add_string_table (w, "FileStrtab");
  strings = cpel_writer_add_string_table (w, "EventStrings");
  for (guint i = 0; i < G_N_ELEMENTS (syn_nodes); i++)
    node_offsets[i] = cpel_writer_add_string (w, strings, syn_nodes[i]);

  write_symbols (w, defs, symbol_values);
  symbol_span = symbol_values[G_N_ELEMENTS (symbol_values) - 1] + 0x400 - SYMBOL_BASE;

  cpel_writer_begin_event_defs (w, defs);
  cpel_writer_add_event_def (w, SYN_DISPATCH, "dispatch", "%s");
  cpel_writer_add_event_def (w, SYN_RX, "rx-burst", "%d packets");
  cpel_writer_add_event_def (w, SYN_TX, "tx-burst", "%d packets");
  cpel_writer_add_event_def (w, SYN_ENQUEUE, "enqueue", "buffer 0x%08x");
  cpel_writer_add_event_def (w, SYN_CALL, "call", "%k");
  cpel_writer_add_event_def (w, SYN_LOCK, "lock-wait", "%u cycles");
  cpel_writer_add_event_def (w, SYN_IDLE, "idle", NULL);
  cpel_writer_add_event_def (w, SYN_ERROR, "error", "errno %d");

  cpel_writer_begin_track_defs (w, defs);
  for (guint i = 0; i < opt->n_tracks; i++)
    cpel_writer_add_track_def (w, i, track_formats[i % G_N_ELEMENTS (track_formats)]);

  while (remaining > 0 || opt->n_events == 0)
    {
      guint32 n = (guint32) MIN (remaining, (guint64) MAX_SECTION_EVENTS);

      cpel_writer_begin_events (w, strings, 2400000000u, n);
      for (guint32 i = 0; i < n; i++)
        {
          GenEvent ev;
          guint64 r = rng_next (&e.rng);
          guint32 pick;

          if (run == 0)
            {
              /* Runs of 1..16 events on one track; a quarter of them on a
               * small set of hot tracks. */
              track = (r & 3) == 0 ? rng_below (&e.rng, n_hot)
                                   : rng_below (&e.rng, opt->n_tracks);
              run = 1 + ((r >> 2) & 15);
            }
          run--;

          if (((r >> 8) & 0x3ff) == 0)
            t += 24000 + rng_below (&e.rng, 2400000);   /* idle: 10 µs .. 1 ms */
          else
            t += 20 + ((r >> 18) % 480);                /* 8 ns .. 208 ns */

          ev.ticks = t;
          ev.track = track;
          pick = (r >> 32) & 0xff;
          if (pick < 96)
            {
              ev.code = SYN_DISPATCH;
              ev.datum = node_offsets[(r >> 40) % G_N_ELEMENTS (syn_nodes)];
            }
          else if (pick < 136)
            {
              ev.code = SYN_RX;
              ev.datum = 1 + ((r >> 40) & 255);
            }
          else if (pick < 170)
            {
              ev.code = SYN_TX;
              ev.datum = 1 + ((r >> 40) & 255);
            }
          else if (pick < 200)
            {
              ev.code = SYN_ENQUEUE;
              ev.datum = (guint32) (r >> 24);
            }
          else if (pick < 230)
            {
              ev.code = SYN_CALL;
              ev.datum = SYMBOL_BASE + (guint32) ((r >> 40) % symbol_span);
            }
          else if (pick < 245)
            {
              ev.code = SYN_LOCK;
              ev.datum = (guint32) ((r >> 40) & 0xffff);
            }
          else if (pick < 254)
            {
              ev.code = SYN_IDLE;
              ev.datum = 0;
            }
          else
            {
              ev.code = SYN_ERROR;
              ev.datum = -(gint32) (1 + ((r >> 40) % 120));
            }
          emit (&e, &ev);
        }
      emit_flush (&e);
      remaining -= n;
      if (remaining == 0)
        break;
    }

  return cpel_writer_finish (w, error);
}

/* ---- demo mode ------------------------------------------------------------- */

/* Section A (workers, queues): a 2.6 GHz TSC.  Section B (main thread, API,
 * stats): nanoseconds.  Internally every time is in ns. */
#define DEMO_TSC_HZ     2600000000u
#define DEMO_NS_HZ      1000000000u
#define DEMO_BASE_NS    G_GUINT64_CONSTANT (3725000000000)   /* ~1 h of uptime */
#define DEMO_SPAN_NS    G_GUINT64_CONSTANT (50000000)        /* 50 ms capture */
#define DEMO_WORKERS    8

enum
{
  /* section A: workers and queues */
  D_DISPATCH = 1, D_VECTORS, D_RX_BURST, D_TX_BURST, D_DROP, D_SUSPEND,
  D_HANDOFF, D_CALL, D_BUFFER_ALLOC, D_BARRIER_WAIT,
  /* section B: main thread, API, stats */
  D_API_MSG = 20, D_BARRIER_SYNC, D_BARRIER_RELEASE, D_PROCESS, D_STATS, D_CLI,
};

enum
{
  T_MAIN = 0,
  T_WORKER = 1,            /* 1..8 */
  T_STATS = 16,
  T_API = 17,
  T_RX = 0x100,            /* rx queues, one per worker */
  T_TX = 0x200,            /* tx queues */
  T_UNDEFINED = 0x80000001 /* no definition: labelled by id */
};

typedef struct
{
  guint64 ns;
  guint32 seq;
  guint32 track, code, datum;
} DemoEvent;

typedef struct
{
  Rng     rng;
  GArray *a;     /* DemoEvent: section A */
  GArray *b;     /* DemoEvent: section B */
  guint32 node[32];
  guint32 api[16];
  guint32 cli[8];
  guint32 sym[G_N_ELEMENTS (symbol_names)];
} Demo;

static void
demo_add (GArray *events, guint64 ns, guint32 track, guint32 code, guint32 datum)
{
  DemoEvent ev = { ns, events->len, track, code, datum };

  g_array_append_val (events, ev);
}

static int
demo_event_cmp (gconstpointer pa, gconstpointer pb)
{
  const DemoEvent *a = pa, *b = pb;

  if (a->ns != b->ns)
    return a->ns < b->ns ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static const char * const demo_nodes[] = {
  "dpdk-input", "ethernet-input", "ip4-input-no-checksum", "ip4-lookup",
  "ip4-rewrite", "TenGigabitEthernet3/0/0-output", "TenGigabitEthernet3/0/0-tx",
  "ip4-local", "ip4-icmp-input", "arp-input", "error-drop", "worker-handoff",
  "ip6-input", "ip6-lookup", "ip6-rewrite", "l2-input", "l2-fwd",
};
enum
{
  N_DPDK_INPUT, N_ETH_INPUT, N_IP4_INPUT, N_IP4_LOOKUP, N_IP4_REWRITE, N_IF_OUTPUT,
  N_IF_TX, N_IP4_LOCAL, N_ICMP, N_ARP, N_DROP, N_HANDOFF, N_IP6_INPUT, N_IP6_LOOKUP,
  N_IP6_REWRITE, N_L2_INPUT, N_L2_FWD,
};

static const char * const demo_api[] = {
  "sw_interface_dump", "sw_interface_details", "ip_route_add_del",
  "want_interface_events", "control_ping", "show_version", "acl_add_replace",
  "ip_neighbor_dump", "memclnt_keepalive", "sw_interface_set_flags",
};

static const char * const demo_cli[] = {
  "show runtime", "show interface", "clear runtime", "show errors",
};

/* A node's dispatch on a worker: the node name, then at its end the number
 * of packets (vectors) it handled.  Returns the end time. */
static guint64
demo_node (Demo *d, guint64 t, guint32 worker_track, guint node, guint32 pkts)
{
  guint64 cost = 120 + (guint64) pkts * (node == N_IP4_LOOKUP ? 22 : 9)
                 + rng_below (&d->rng, 80);

  demo_add (d->a, t, worker_track, D_DISPATCH, d->node[node]);
  demo_add (d->a, t + cost, worker_track, D_VECTORS, pkts);
  return t + cost + 15 + rng_below (&d->rng, 30);
}

static void
demo_worker (Demo *d, guint w, const guint64 *barriers, guint n_barriers)
{
  guint32 wt = T_WORKER + w, rx = T_RX + w, tx = T_TX + w;
  guint64 t = DEMO_BASE_NS + rng_below (&d->rng, 20000);
  guint64 end = DEMO_BASE_NS + DEMO_SPAN_NS;
  guint b = 0;

  while (t < end)
    {
      /* A traffic burst of 30..90 loops, then an idle gap of 1..6 ms in
       * which the worker sleeps in interrupt mode. */
      guint loops = rng_range (&d->rng, 30, 90);
      guint32 load = rng_range (&d->rng, 8, 256);   /* typical vector size */

      for (guint i = 0; i < loops && t < end; i++)
        {
          guint32 pkts = load / 2 + rng_below (&d->rng, load);   /* not inside MIN: evaluated once */
          guint32 drops;

          pkts = CLAMP (pkts, 1, 256);
          /* A barrier from the main thread stops every worker. */
          while (b < n_barriers && barriers[b] <= t)
            {
              guint64 held = 8000 + (barriers[b] % 30000);

              demo_add (d->a, t, wt, D_BARRIER_WAIT, (guint32) held);
              t += held;
              b++;
            }

          demo_add (d->a, t, rx, D_RX_BURST, pkts);
          if ((rng_next (&d->rng) & 63) == 0)
            {
              demo_add (d->a, t + 40, wt, D_BUFFER_ALLOC, 0x2c000 + rng_below (&d->rng, 0x40000));
              demo_add (d->a, t + 60, wt, D_CALL, d->sym[16] + 4 * rng_below (&d->rng, 24));
            }
          t = demo_node (d, t, wt, N_DPDK_INPUT, pkts);

          if ((rng_next (&d->rng) & 15) == 0)
            {
              /* Mostly IPv6 this time. */
              t = demo_node (d, t, wt, N_ETH_INPUT, pkts);
              t = demo_node (d, t, wt, N_IP6_INPUT, pkts);
              t = demo_node (d, t, wt, N_IP6_LOOKUP, pkts);
              t = demo_node (d, t, wt, N_IP6_REWRITE, pkts);
            }
          else
            {
              guint32 local = (rng_next (&d->rng) & 7) == 0 ? 1 + rng_below (&d->rng, 4) : 0;

              t = demo_node (d, t, wt, N_ETH_INPUT, pkts);
              if ((rng_next (&d->rng) & 31) == 0)
                t = demo_node (d, t, wt, N_ARP, 1);
              t = demo_node (d, t, wt, N_IP4_INPUT, pkts);
              t = demo_node (d, t, wt, N_IP4_LOOKUP, pkts);
              if (local > 0)
                {
                  t = demo_node (d, t, wt, N_IP4_LOCAL, local);
                  t = demo_node (d, t, wt, N_ICMP, local);
                }
              if ((rng_next (&d->rng) & 15) == 0)
                {
                  guint32 other = (w + 1 + rng_below (&d->rng, DEMO_WORKERS - 1)) % DEMO_WORKERS;

                  t = demo_node (d, t, wt, N_HANDOFF, MAX (1, pkts / 8));
                  demo_add (d->a, t, wt, D_HANDOFF, other);
                }
              t = demo_node (d, t, wt, N_IP4_REWRITE, pkts);
            }
          t = demo_node (d, t, wt, N_IF_OUTPUT, pkts);
          t = demo_node (d, t, wt, N_IF_TX, pkts);
          drops = (rng_next (&d->rng) % 97) == 0 ? 1 + rng_below (&d->rng, pkts) : 0;
          demo_add (d->a, t, tx, D_TX_BURST, pkts - drops);
          if (drops > 0)
            {
              demo_add (d->a, t + 20, tx, D_DROP, drops);
              t = demo_node (d, t + 40, wt, N_DROP, drops);
            }
          /* Gap to the next poll: short when loaded. */
          t += 150 + rng_below (&d->rng, load < 64 ? 4000 : 600);
        }

      /* Idle: the worker suspends, waking up every 100..400 µs to poll. */
      {
        guint64 idle_end = t + rng_range (&d->rng, 1000000, 6000000);

        while (t < idle_end && t < end)
          {
            guint32 us = rng_range (&d->rng, 100, 400);

            demo_add (d->a, t, wt, D_SUSPEND, us);
            t += (guint64) us * 1000;
            demo_add (d->a, t, rx, D_RX_BURST, 0);
            t += 200;
          }
        /* Barriers taken while asleep cost nothing. */
        while (b < n_barriers && barriers[b] <= t)
          b++;
      }
    }
}

static void
demo_main_thread (Demo *d, GArray *barriers)
{
  guint64 t = DEMO_BASE_NS + 5000;
  guint64 end = DEMO_BASE_NS + DEMO_SPAN_NS;
  guint64 next_stats = t + 1000000;

  while (t < end)
    {
      guint32 r = rng_below (&d->rng, 100);

      /* Process nodes run from the timer wheel every ~250 µs. */
      demo_add (d->b, t, T_MAIN, D_PROCESS, d->sym[22 + rng_below (&d->rng, 6)]);
      t += 2000 + rng_below (&d->rng, 8000);
      if (r < 12)
        {
          /* An API message; some need the worker barrier. */
          guint msg = rng_below (&d->rng, G_N_ELEMENTS (demo_api));

          demo_add (d->b, t, T_API, D_API_MSG, d->api[msg]);
          demo_add (d->b, t + 1500, T_MAIN, D_API_MSG, d->api[msg]);
          t += 1500;
          if (msg == 2 || msg == 6 || msg == 9)
            {
              guint64 held = 8000 + (t % 30000);
              guint64 at = t;

              g_array_append_val (barriers, at);
              demo_add (d->b, t, T_MAIN, D_BARRIER_SYNC, DEMO_WORKERS);
              t += held;
              demo_add (d->b, t, T_MAIN, D_BARRIER_RELEASE, (guint32) (held / 1000));
            }
          t += 3000 + rng_below (&d->rng, 20000);
        }
      else if (r < 14)
        {
          demo_add (d->b, t, T_MAIN, D_CLI, d->cli[rng_below (&d->rng, G_N_ELEMENTS (demo_cli))]);
          t += 40000 + rng_below (&d->rng, 200000);
        }
      if (t >= next_stats)
        {
          demo_add (d->b, t, T_STATS, D_STATS, 1800 + rng_below (&d->rng, 400));
          next_stats += 1000000;
        }
      t += 200000 + rng_below (&d->rng, 100000);
    }
}

static void
demo_write_events (CpelWriter *w, guint table, guint32 clock, GArray *events, gboolean tsc)
{
  g_array_sort (events, demo_event_cmp);
  cpel_writer_begin_events (w, table, clock, events->len);
  for (guint i = 0; i < events->len; i++)
    {
      const DemoEvent *ev = &g_array_index (events, DemoEvent, i);
      /* ns -> TSC ticks: exact (2.6 ticks per ns), so a reader gets ns back. */
      guint64 ticks = tsc ? ev->ns * 26 / 10 : ev->ns;

      cpel_writer_add_event (w, ticks, ev->track, ev->code, ev->datum);
    }
}

static gboolean
gen_demo (CpelWriter *w, const CpelGenOptions *opt, GError **error)
{
  Demo d = { { opt->seed ^ G_GUINT64_CONSTANT (0xd3e0d3e0d3e0d3e0) }, NULL, NULL };
  g_autoptr(GArray) a = g_array_new (FALSE, FALSE, sizeof (DemoEvent));
  g_autoptr(GArray) b = g_array_new (FALSE, FALSE, sizeof (DemoEvent));
  g_autoptr(GArray) barriers = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint file_strtab, nodes, main_strtab;

  d.a = a;
  d.b = b;

  /* Three string tables: definitions, node names (section A's %s), and the
   * main thread's definitions and API message names (section B's %s). */
  file_strtab = cpel_writer_add_string_table (w, "FileStrtab");
  nodes = cpel_writer_add_string_table (w, "NodeNames");
  for (guint i = 0; i < G_N_ELEMENTS (demo_nodes); i++)
    d.node[i] = cpel_writer_add_string (w, nodes, demo_nodes[i]);
  main_strtab = cpel_writer_add_string_table (w, "MainStrtab");
  for (guint i = 0; i < G_N_ELEMENTS (demo_api); i++)
    d.api[i] = cpel_writer_add_string (w, main_strtab, demo_api[i]);
  for (guint i = 0; i < G_N_ELEMENTS (demo_cli); i++)
    d.cli[i] = cpel_writer_add_string (w, main_strtab, demo_cli[i]);

  write_symbols (w, file_strtab, d.sym);

  cpel_writer_begin_event_defs (w, file_strtab);
  cpel_writer_add_event_def (w, D_DISPATCH, "dispatch", "%s");
  cpel_writer_add_event_def (w, D_VECTORS, "vectors", "%d pkts");
  cpel_writer_add_event_def (w, D_RX_BURST, "rx-burst", "%d pkts");
  cpel_writer_add_event_def (w, D_TX_BURST, "tx-burst", "%d pkts");
  cpel_writer_add_event_def (w, D_DROP, "tx-drop", "%d pkts");
  cpel_writer_add_event_def (w, D_SUSPEND, "suspend", "%d us");
  cpel_writer_add_event_def (w, D_HANDOFF, "handoff", "to vpp_wk_%d");
  cpel_writer_add_event_def (w, D_CALL, "call", "%k");
  cpel_writer_add_event_def (w, D_BUFFER_ALLOC, "buffer-alloc", "index 0x%08x");
  cpel_writer_add_event_def (w, D_BARRIER_WAIT, "barrier-wait", "%d ns");

  cpel_writer_begin_event_defs (w, main_strtab);
  cpel_writer_add_event_def (w, D_API_MSG, "api-msg", "%s");
  cpel_writer_add_event_def (w, D_BARRIER_SYNC, "barrier-sync", "%d workers");
  cpel_writer_add_event_def (w, D_BARRIER_RELEASE, "barrier-release", "held %d us");
  cpel_writer_add_event_def (w, D_PROCESS, "process", "%k");
  cpel_writer_add_event_def (w, D_STATS, "stats-collect", "%d counters");
  cpel_writer_add_event_def (w, D_CLI, "cli", "%s");

  cpel_writer_begin_track_defs (w, file_strtab);
  cpel_writer_add_track_def (w, T_MAIN, "vpp_main");
  for (guint i = 0; i < DEMO_WORKERS; i++)
    {
      char label[64];

      g_snprintf (label, sizeof label, "vpp_wk_%u", i);
      cpel_writer_add_track_def (w, T_WORKER + i, label);
      g_snprintf (label, sizeof label, "rx q%u TenGigE3/0/0", i);
      cpel_writer_add_track_def (w, T_RX + i, label);
      g_snprintf (label, sizeof label, "tx q%u TenGigE3/0/0", i);
      cpel_writer_add_track_def (w, T_TX + i, label);
    }
  cpel_writer_begin_track_defs (w, main_strtab);
  cpel_writer_add_track_def (w, T_STATS, "vpp_stats");
  cpel_writer_add_track_def (w, T_API, "api-rx");

  demo_main_thread (&d, barriers);
  for (guint i = 0; i < DEMO_WORKERS; i++)
    demo_worker (&d, i, (const guint64 *) barriers->data, barriers->len);
  /* A few events on a track nobody defined (shown by its id). */
  for (guint i = 0; i < 12; i++)
    demo_add (a, DEMO_BASE_NS + 4000000 * (guint64) i + 777, T_UNDEFINED, D_CALL,
              d.sym[39]);

  demo_write_events (w, nodes, DEMO_TSC_HZ, a, TRUE);
  demo_write_events (w, main_strtab, DEMO_NS_HZ, b, FALSE);

  return cpel_writer_finish (w, error);
}

/* ---- entry point ----------------------------------------------------------- */

gboolean
cpel_gen_write (const char            *path,
                const CpelGenOptions  *options,
                GError               **error)
{
  g_autoptr(CpelWriter) w = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!options->demo && options->n_events > CPEL_MAX_EVENTS)
    {
      g_set_error (error, CPEL_ERROR, CPEL_ERROR_TOO_LARGE,
                   _("At most %" PRIu64 " events can be generated"),
                   (guint64) CPEL_MAX_EVENTS);
      return FALSE;
    }
  /* Fail before generating anything (finish checks again, atomically). */
  if (!options->overwrite && g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("This file already exists"));
      return FALSE;
    }

  w = cpel_writer_new (path, options->little_endian, GEN_DATE, error);
  if (w == NULL)
    return FALSE;
  cpel_writer_set_overwrite (w, options->overwrite);

  return options->demo ? gen_demo (w, options, error)
                       : gen_synthetic (w, options, error);
}
