/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-settings.c — a capture's span rules in the viewer */
#include "cpel-span-settings.h"

#include <glib/gi18n.h>

/* The --rules files' rules, in the normal form (one rule a line). */
static GString *extra_rules;

gboolean
cpel_span_settings_add_rules_file (const char  *path,
                                   GError     **error)
{
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autofree char *text = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  if (!cpel_span_rules_add_file (rules, path, error))
    return FALSE;
  text = cpel_span_rules_to_text (rules);
  if (extra_rules == NULL)
    extra_rules = g_string_new (NULL);
  g_string_append (extra_rules, text);
  return TRUE;
}

CpelSpanRules *
cpel_span_settings_make_rules (const char *const *disabled,
                               const char        *user_text,
                               GError           **error)
{
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_with (disabled, user_text,
                                                             _("your rules"), error);

  if (rules == NULL)
    return NULL;
  if (extra_rules != NULL && extra_rules->len > 0
      && !cpel_span_rules_add_text (rules, extra_rules->str, (gssize) extra_rules->len,
                                    "--rules", error))
    return NULL;
  return g_steal_pointer (&rules);
}

static gboolean
same_rules (CpelSpanRules *a,
            CpelSpanRules *b)
{
  g_autofree char *ta = NULL;
  g_autofree char *tb = NULL;

  if (a == NULL || b == NULL)
    return a == b;
  if (g_strcmp0 (cpel_span_rules_get_user_text (a), cpel_span_rules_get_user_text (b)) != 0)
    return FALSE;
  ta = cpel_span_rules_to_text (a);
  tb = cpel_span_rules_to_text (b);
  return g_str_equal (ta, tb);
}

gboolean
cpel_span_settings_apply (CpelSession  *session,
                          CpelViews    *views,
                          GError      **error)
{
  g_autoptr(CpelSpanRules) rules = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (CPEL_IS_SESSION (session), FALSE);
  g_return_val_if_fail (views == NULL || CPEL_IS_VIEWS (views), FALSE);

  if (views != NULL)
    rules = cpel_span_settings_make_rules (cpel_views_get_disabled_rules (views),
                                           cpel_views_get_span_rules_text (views), &local);
  else
    rules = cpel_span_settings_make_rules (NULL, NULL, NULL);
  if (rules == NULL)
    rules = cpel_span_settings_make_rules (NULL, NULL, NULL);
  /* the same settings: keep the spans derived already */
  if (!same_rules (cpel_session_get_span_rules (session), rules))
    cpel_session_set_span_rules (session, rules);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}
