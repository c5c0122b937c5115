/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-keycaps.c — key caps of the Keyboard Shortcuts window */
#include "cpel-keycaps.h"

#include <string.h>

char *
cpel_keycaps_label (guint           key,
                    GdkModifierType mods)
{
  gunichar ch = gdk_keyval_to_unicode (key);

  /* A letter typed alone is the lower-case letter; with modifiers GTK's
   * capital, as every shortcuts window shows ("Ctrl + O", "Shift + H"). */
  if (ch != 0 && g_unichar_isalpha (ch) && mods == 0)
    {
      char buf[8] = { 0 };

      g_unichar_to_utf8 (g_unichar_tolower (ch), buf);
      return g_strdup (buf);
    }
  return gtk_accelerator_get_label (key, 0);
}

/* The key caps (GtkLabels of style class "keycap", or inside a widget of
 * that class) under `w`, in order. */
static void
collect_keycaps (GtkWidget *w, GPtrArray *out)
{
  if (gtk_widget_has_css_class (w, "keycap"))
    {
      if (GTK_IS_LABEL (w))
        g_ptr_array_add (out, w);
      else
        for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
          if (GTK_IS_LABEL (c))
            g_ptr_array_add (out, c);
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_keycaps (c, out);
}

static void
fix_shortcut_label (GtkShortcutLabel *label)
{
  const char *accel = gtk_shortcut_label_get_accelerator (label);
  g_autoptr(GPtrArray) caps = g_ptr_array_new ();
  g_auto(GStrv) alternatives = NULL;
  guint next = 0;

  if (accel == NULL)
    return;
  collect_keycaps (GTK_WIDGET (label), caps);
  /* "plus w", "Page_Up Page_Down", "<Shift>Return <Shift>F3": per
   * alternative, one cap per modifier, then the key's.  Sequences and
   * ranges ("+", "...") are not used here: leave them as they are. */
  if (strchr (accel, '&') != NULL || strstr (accel, "...") != NULL)
    return;
  alternatives = g_strsplit (accel, " ", -1);
  for (guint i = 0; alternatives[i] != NULL; i++)
    {
      guint key = 0;
      GdkModifierType mods = 0;
      guint n_mods;
      g_autofree char *text = NULL;

      if (*alternatives[i] == '\0')
        continue;
      if (!gtk_accelerator_parse (alternatives[i], &key, &mods) || key == 0)
        return;
      n_mods = __builtin_popcount (mods & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK |
                                           GDK_SUPER_MASK | GDK_HYPER_MASK | GDK_META_MASK));
      if (next + n_mods >= caps->len)
        return;   /* not laid out as expected: leave it */
      next += n_mods;
      text = cpel_keycaps_label (key, mods);
      /* Arrows, Return and the like keep GTK's symbols. */
      if (key != GDK_KEY_Left && key != GDK_KEY_Right && key != GDK_KEY_Up && key != GDK_KEY_Down
          && key != GDK_KEY_Return && key != GDK_KEY_space)
        gtk_label_set_text (caps->pdata[next], text);
      next++;
    }
}

static void
fix_all (GtkWidget *w)
{
  if (GTK_IS_SHORTCUT_LABEL (w))
    {
      fix_shortcut_label (GTK_SHORTCUT_LABEL (w));
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    fix_all (c);
}

void
cpel_keycaps_fix (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));
  fix_all (root);
}
