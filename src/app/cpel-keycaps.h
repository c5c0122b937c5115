/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-keycaps.h — key caps of the Keyboard Shortcuts window as GTK's
 * accelerator labels say them */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Rewrites the key caps under `root` (a GtkShortcutsWindow): GTK 4.8's
 * shortcut labels show Page_Up / Page_Down with their keysym names in
 * English (an untranslated msgid) and every letter upper-case, so that a
 * bare "w" reads as Shift+W.  A key without modifiers gets
 * gtk_accelerator_get_label()'s text, in lower case when it is a letter
 * ("w", "Page Up"); a key with modifiers keeps its capital ("Shift + H",
 * "Ctrl + O"). */
void cpel_keycaps_fix (GtkWidget *root);

/* The key cap text for `key` with `mods` (what cpel_keycaps_fix writes). */
char *cpel_keycaps_label (guint key, GdkModifierType mods);

G_END_DECLS
