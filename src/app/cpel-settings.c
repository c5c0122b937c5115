/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-settings.c — the app's GSettings, when its schema is installed */
#include "cpel-settings.h"

GSettings *
cpel_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, BASE_ID, TRUE);
  if (schema == NULL)
    {
      g_debug ("GSettings schema %s is not installed: settings are not kept", BASE_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

/* TRUE when `key` exists with the given type. */
static gboolean
has_key (GSettings          *settings,
         const char         *key,
         const GVariantType *type)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) schema_key = NULL;

  if (settings == NULL)
    return FALSE;
  g_object_get (settings, "settings-schema", &schema, NULL);
  if (schema == NULL || !g_settings_schema_has_key (schema, key))
    return FALSE;
  schema_key = g_settings_schema_get_key (schema, key);
  return g_variant_type_equal (g_settings_schema_key_get_value_type (schema_key), type);
}

gint
cpel_settings_get_int (GSettings  *settings,
                       const char *key,
                       gint        fallback)
{
  if (!has_key (settings, key, G_VARIANT_TYPE_INT32))
    return fallback;
  return g_settings_get_int (settings, key);
}

void
cpel_settings_set_int (GSettings  *settings,
                       const char *key,
                       gint        value)
{
  if (has_key (settings, key, G_VARIANT_TYPE_INT32))
    g_settings_set_int (settings, key, value);
}

gboolean
cpel_settings_get_boolean (GSettings  *settings,
                           const char *key,
                           gboolean    fallback)
{
  if (!has_key (settings, key, G_VARIANT_TYPE_BOOLEAN))
    return fallback;
  return g_settings_get_boolean (settings, key);
}

void
cpel_settings_set_boolean (GSettings  *settings,
                           const char *key,
                           gboolean    value)
{
  if (has_key (settings, key, G_VARIANT_TYPE_BOOLEAN))
    g_settings_set_boolean (settings, key, value);
}

char *
cpel_settings_get_string (GSettings  *settings,
                          const char *key)
{
  g_autofree char *value = NULL;

  if (!has_key (settings, key, G_VARIANT_TYPE_STRING))
    return NULL;
  value = g_settings_get_string (settings, key);
  if (value == NULL || *value == '\0')
    return NULL;
  return g_steal_pointer (&value);
}

void
cpel_settings_set_string (GSettings  *settings,
                          const char *key,
                          const char *value)
{
  if (has_key (settings, key, G_VARIANT_TYPE_STRING))
    g_settings_set_string (settings, key, value != NULL ? value : "");
}

char **
cpel_settings_get_strv (GSettings  *settings,
                        const char *key)
{
  if (!has_key (settings, key, G_VARIANT_TYPE_STRING_ARRAY))
    return g_new0 (char *, 1);
  return g_settings_get_strv (settings, key);
}

void
cpel_settings_set_strv (GSettings          *settings,
                        const char         *key,
                        const char * const *value)
{
  if (has_key (settings, key, G_VARIANT_TYPE_STRING_ARRAY))
    g_settings_set_strv (settings, key, value);
}
