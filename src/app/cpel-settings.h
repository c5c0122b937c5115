/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-settings.h — the app's GSettings, when its schema is installed
 *
 * Tests and uninstalled runs may have no schema: every helper accepts a NULL
 * settings object (and keys missing from the schema) and then does nothing
 * or returns the fallback.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A new reference to the app's settings, or NULL without a schema. */
GSettings *cpel_settings_new         (void);

gint       cpel_settings_get_int     (GSettings   *settings,
                                      const char  *key,
                                      gint         fallback);
void       cpel_settings_set_int     (GSettings   *settings,
                                      const char  *key,
                                      gint         value);
gboolean   cpel_settings_get_boolean (GSettings   *settings,
                                      const char  *key,
                                      gboolean     fallback);
void       cpel_settings_set_boolean (GSettings   *settings,
                                      const char  *key,
                                      gboolean     value);
/* NULL when unset or unavailable. */
char      *cpel_settings_get_string  (GSettings   *settings,
                                      const char  *key);
void       cpel_settings_set_string  (GSettings   *settings,
                                      const char  *key,
                                      const char  *value);
/* NULL-terminated; never NULL. */
char     **cpel_settings_get_strv    (GSettings   *settings,
                                      const char  *key);
void       cpel_settings_set_strv    (GSettings   *settings,
                                      const char  *key,
                                      const char * const *value);

G_END_DECLS
