/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-export-chooser.c — what the Export View file chooser's answer means,
 * and the order of its Scale menu */
#include "cpel-export-chooser.h"

#include <string.h>

#include "cpel-render.h"

char *
cpel_export_dialog_path (const char *path,
                         const char *suggested,
                         const char *filter_suffix,
                         gboolean   *overwrite)
{
  g_autofree char *basename = NULL;
  const char *dot;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (overwrite != NULL, NULL);

  *overwrite = TRUE;
  basename = g_path_get_basename (path);
  dot = strrchr (path, '.');
  if (filter_suffix != NULL && suggested != NULL && g_str_equal (basename, suggested)
      && dot != NULL && strchr (dot, G_DIR_SEPARATOR) == NULL && !g_str_equal (dot + 1, filter_suffix))
    {
      *overwrite = FALSE;
      return g_strdup_printf ("%.*s.%s", (int) (dot - path), path, filter_suffix);
    }
  if (!cpel_render_export_format_for_path (path, NULL))
    {
      *overwrite = FALSE;
      return g_strconcat (path, ".", filter_suffix != NULL ? filter_suffix : "png", NULL);
    }
  return g_strdup (path);
}

void
cpel_export_scale_order (int   scale,
                         guint order[4])
{
  guint n = 0;

  g_return_if_fail (order != NULL);
  scale = CLAMP (scale, 1, 4);
  order[n++] = (guint) scale;
  for (guint s = 1; s <= 4; s++)
    if (s != (guint) scale)
      order[n++] = s;
}
