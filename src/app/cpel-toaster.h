/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-toaster.h — the one way to show a toast (see the .c for why) */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CPEL_TYPE_TOASTER (cpel_toaster_get_type ())
G_DECLARE_FINAL_TYPE (CpelToaster, cpel_toaster, CPEL, TOASTER, GObject)

/* The default time a toast stays, in seconds. */
#define CPEL_TOASTER_TIMEOUT 5

CpelToaster *cpel_toaster_new           (AdwToastOverlay *overlay);

/* Shows `text` (plain text, not markup) for `timeout` seconds (0: until
 * closed), with a button `button` activating `action` (with `target`,
 * which may be NULL; a floating reference is sunk) when `button` is not
 * NULL.  The message replaces the one shown.  Returns the message's id
 * (never 0) for cpel_toaster_withdraw. */
guint        cpel_toaster_show_full     (CpelToaster     *self,
                                         const char      *text,
                                         guint            timeout,
                                         const char      *button,
                                         const char      *action,
                                         GVariant        *target);
/* `text` for CPEL_TOASTER_TIMEOUT seconds, without a button. */
guint        cpel_toaster_show          (CpelToaster     *self,
                                         const char      *text);
/* Takes message `id` away if it is still shown (or still waiting to be). */
void         cpel_toaster_withdraw      (CpelToaster     *self,
                                         guint            id);
/* The text shown (or about to be), or NULL (tests). */
const char  *cpel_toaster_get_text      (CpelToaster     *self);

G_END_DECLS
