/* SPDX-License-Identifier: Apache-2.0 */
/* test-schema.c — the GSettings schema compiled into <builddir>/data holds the
 * keys the app relies on, with the agreed types and defaults, and works
 * through GSETTINGS_SCHEMA_DIR the way uninstalled runs and app tests use it.
 *
 * Usage (from meson): test-schema COMPILED-SCHEMA-DIR */
#include <gio/gio.h>

#define SCHEMA_ID "io.github.cpelview.CpelView"

static const char *schema_dir;

static GSettingsSchema *
lookup_schema (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettingsSchemaSource) source = NULL;
  GSettingsSchema *schema;

  source = g_settings_schema_source_new_from_directory (schema_dir, NULL, TRUE, &error);
  g_assert_no_error (error);
  schema = g_settings_schema_source_lookup (source, SCHEMA_ID, FALSE);
  g_assert_nonnull (schema);
  return schema;
}

static void
test_keys (void)
{
  static const struct { const char *key; const char *type; const char *def; } expected[] = {
    { "window-width",      "i",  "1100" },
    { "window-height",     "i",  "720" },
    { "window-maximized",  "b",  "false" },
    { "details-visible",   "b",  "false" },
    { "label-width",       "i",  "160" },
    { "last-folder",       "s",  "''" },
    { "recent-views",      "as", "@as []" },
    { "color-scheme",      "s",  "'default'" },
    { "show-event-labels", "b",  "true" },
    { "index-cache",       "b",  "true" },
    { "index-cache-max-size", "i", "4096" },
  };
  g_autoptr(GSettingsSchema) schema = lookup_schema ();
  g_auto(GStrv) keys = g_settings_schema_list_keys (schema);

  g_assert_cmpstr (g_settings_schema_get_path (schema), ==, "/io/github/cpelview/CpelView/");
  g_assert_cmpuint (g_strv_length (keys), ==, G_N_ELEMENTS (expected));

  for (gsize i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(GSettingsSchemaKey) key = NULL;
      g_autoptr(GVariant) def = NULL;
      g_autofree char *printed = NULL;

      g_test_message ("key %s", expected[i].key);
      g_assert_true (g_settings_schema_has_key (schema, expected[i].key));
      key = g_settings_schema_get_key (schema, expected[i].key);
      g_assert_cmpstr (g_variant_type_peek_string (g_settings_schema_key_get_value_type (key)),
                       ==, expected[i].type);
      def = g_settings_schema_key_get_default_value (key);
      printed = g_variant_print (def, TRUE);
      g_assert_cmpstr (printed, ==, expected[i].def);
    }
}

static void
test_color_scheme_choices (void)
{
  g_autoptr(GSettingsSchema) schema = lookup_schema ();
  g_autoptr(GSettingsSchemaKey) key = g_settings_schema_get_key (schema, "color-scheme");
  g_autoptr(GVariant) range = g_settings_schema_key_get_range (key);
  const char *kind = NULL;
  g_autoptr(GVariant) values = NULL;
  g_autoptr(GVariant) bad = g_variant_new_string ("purple");
  const char *good[] = { "default", "light", "dark" };

  g_variant_get (range, "(&sv)", &kind, &values);
  g_assert_cmpstr (kind, ==, "enum");
  g_assert_cmpuint (g_variant_n_children (values), ==, G_N_ELEMENTS (good));
  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GVariant) v = g_variant_new_string (good[i]);
      g_assert_true (g_settings_schema_key_range_check (key, v));
    }
  g_assert_false (g_settings_schema_key_range_check (key, bad));
}

/* through GSETTINGS_SCHEMA_DIR, with the memory backend: what app tests do */
static void
test_settings_object (void)
{
  g_autoptr(GSettings) settings = NULL;
  g_auto(GStrv) recent = NULL;
  g_autofree char *scheme = NULL;
  const char *uris[] = { "file:///tmp/a.cpel", "file:///tmp/b.cpel", NULL };

  settings = g_settings_new (SCHEMA_ID);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1100);
  g_assert_true (g_settings_get_boolean (settings, "show-event-labels"));

  g_assert_true (g_settings_set_strv (settings, "recent-views", uris));
  recent = g_settings_get_strv (settings, "recent-views");
  g_assert_cmpstrv (recent, uris);
  g_assert_true (g_settings_set_string (settings, "color-scheme", "dark"));
  scheme = g_settings_get_string (settings, "color-scheme");
  g_assert_cmpstr (scheme, ==, "dark");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  if (argc != 2)
    {
      g_printerr ("usage: %s COMPILED-SCHEMA-DIR\n", argv[0]);
      return 2;
    }
  schema_dir = argv[1];
  g_setenv ("GSETTINGS_SCHEMA_DIR", schema_dir, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  g_test_add_func ("/desktop/schema/keys", test_keys);
  g_test_add_func ("/desktop/schema/color-scheme-choices", test_color_scheme_choices);
  g_test_add_func ("/desktop/schema/settings-object", test_settings_object);

  return g_test_run ();
}
