/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-progress-relay.c — progress from a worker thread, delivered in the UI */
#include "cpel-progress-relay.h"

struct _CpelProgressRelay
{
  gint                   ref_count;
  gint                   permille;      /* last reported, atomic */
  gint                   pending;       /* an idle is scheduled, atomic */
  gint                   closed;        /* atomic */
  gint                   delivered;     /* main thread only */
  GMainContext          *context;
  CpelProgressRelayFunc  func;
  gpointer               user_data;
};

CpelProgressRelay *
cpel_progress_relay_new (CpelProgressRelayFunc func,
                         gpointer              user_data)
{
  CpelProgressRelay *relay = g_new0 (CpelProgressRelay, 1);

  relay->ref_count = 1;
  relay->permille = -1;
  relay->delivered = -1;
  relay->context = g_main_context_ref_thread_default ();
  relay->func = func;
  relay->user_data = user_data;
  return relay;
}

CpelProgressRelay *
cpel_progress_relay_ref (CpelProgressRelay *relay)
{
  g_return_val_if_fail (relay != NULL, NULL);
  g_atomic_int_inc (&relay->ref_count);
  return relay;
}

void
cpel_progress_relay_unref (CpelProgressRelay *relay)
{
  g_return_if_fail (relay != NULL);
  if (g_atomic_int_dec_and_test (&relay->ref_count))
    {
      g_main_context_unref (relay->context);
      g_free (relay);
    }
}

void
cpel_progress_relay_close (CpelProgressRelay *relay)
{
  g_return_if_fail (relay != NULL);
  g_atomic_int_set (&relay->closed, 1);
}

static gboolean
deliver (gpointer data)
{
  CpelProgressRelay *relay = data;
  int permille;

  g_atomic_int_set (&relay->pending, 0);
  permille = g_atomic_int_get (&relay->permille);
  if (!g_atomic_int_get (&relay->closed) && permille != relay->delivered)
    {
      relay->delivered = permille;
      relay->func (permille / 1000.0, relay->user_data);
    }
  return G_SOURCE_REMOVE;
}

void
cpel_progress_relay_report (double   fraction,
                            gpointer data)
{
  CpelProgressRelay *relay = data;
  int permille;
  GSource *source;

  if (relay == NULL || g_atomic_int_get (&relay->closed))
    return;

  fraction = CLAMP (fraction, 0.0, 1.0);
  permille = (int) (fraction * 1000.0);
  if (g_atomic_int_get (&relay->permille) == permille)
    return;
  g_atomic_int_set (&relay->permille, permille);

  if (!g_atomic_int_compare_and_exchange (&relay->pending, 0, 1))
    return;

  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, deliver, cpel_progress_relay_ref (relay),
                         (GDestroyNotify) cpel_progress_relay_unref);
  g_source_set_static_name (source, "[cpelview] progress");
  g_source_attach (source, relay->context);
  g_source_unref (source);
}
