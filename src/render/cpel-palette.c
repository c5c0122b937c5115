/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-palette.c — light and dark palettes in the GNOME / libadwaita style */
#include <string.h>

#include "cpel-render-private.h"

static void
rgba_hex (CpelRGBA *c, guint32 rgb, double alpha)
{
  c->r = ((rgb >> 16) & 0xff) / 255.0;
  c->g = ((rgb >> 8) & 0xff) / 255.0;
  c->b = (rgb & 0xff) / 255.0;
  c->a = alpha;
}

/* Sixteen colours of high mutual contrast (after Kelly's list), in an order
 * that puts neighbours apart.  Blue is left out — the density shading, the
 * default tick colour and the selection are blue — and yellow too: it is
 * the search highlight (Kelly's orange-yellow becomes a darker gold, his
 * violet a magenta).  The dark palette lightens the darkest ones. */
static const guint32 type_colors_light[CPEL_PALETTE_N_TYPE_COLORS] = {
  0x008856, 0xf38400, 0x875692, 0xbe0032, 0x8db600, 0xc0007a, 0xe25822, 0x848482,
  0xe68fac, 0x2b3d26, 0x9a6700, 0x882d17, 0xb3446c, 0xc2b280, 0x654522, 0xf99379,
};
static const guint32 type_colors_dark[CPEL_PALETTE_N_TYPE_COLORS] = {
  0x2ec27e, 0xf38400, 0xb58ac4, 0xf0455a, 0x8db600, 0xff5fbf, 0xe25822, 0xa8a8a2,
  0xe68fac, 0x7fa05a, 0xd4a017, 0xa0522d, 0xd8688f, 0xc2b280, 0xb08a5a, 0xf99379,
};

void
cpel_palette_init_light (CpelPalette *p)
{
  g_return_if_fail (p != NULL);

  memset (p, 0, sizeof *p);
  rgba_hex (&p->background, 0xffffff, 1.0);
  rgba_hex (&p->row_alt, 0xf6f6f7, 1.0);
  rgba_hex (&p->foreground, 0x000000, 0.80);
  rgba_hex (&p->dim, 0x000000, 0.55);
  rgba_hex (&p->grid, 0x000000, 0.09);
  rgba_hex (&p->ruler_bg, 0xfafafa, 1.0);
  rgba_hex (&p->label_bg, 0xfafafa, 1.0);
  rgba_hex (&p->event, 0x1c71d8, 1.0);
  rgba_hex (&p->event_label_bg, 0xffffff, 0.94);
  rgba_hex (&p->event_label_border, 0x000000, 0.16);
  rgba_hex (&p->selection, 0x3584e4, 1.0);
  rgba_hex (&p->highlight, 0xf5c211, 1.0);
  rgba_hex (&p->measure, 0x3584e4, 0.14);
  rgba_hex (&p->accent, 0x3584e4, 1.0);
  rgba_hex (&p->selection_fg, 0xffffff, 1.0);
  rgba_hex (&p->highlight_fg, 0x000000, 0.85);
  rgba_hex (&p->density, 0x1a5fb4, 1.0);
  for (guint i = 0; i < CPEL_PALETTE_N_TYPE_COLORS; i++)
    rgba_hex (&p->type_colors[i], type_colors_light[i], 1.0);
  p->dark = FALSE;
}

void
cpel_palette_init_dark (CpelPalette *p)
{
  g_return_if_fail (p != NULL);

  memset (p, 0, sizeof *p);
  rgba_hex (&p->background, 0x1e1e1e, 1.0);
  rgba_hex (&p->row_alt, 0x262626, 1.0);
  rgba_hex (&p->foreground, 0xffffff, 0.90);
  rgba_hex (&p->dim, 0xffffff, 0.55);
  rgba_hex (&p->grid, 0xffffff, 0.09);
  rgba_hex (&p->ruler_bg, 0x2a2a2a, 1.0);
  rgba_hex (&p->label_bg, 0x242424, 1.0);
  rgba_hex (&p->event, 0x78aeed, 1.0);
  rgba_hex (&p->event_label_bg, 0x363636, 0.94);
  rgba_hex (&p->event_label_border, 0xffffff, 0.14);
  rgba_hex (&p->selection, 0x3584e4, 1.0);
  rgba_hex (&p->highlight, 0xf6d32d, 1.0);
  rgba_hex (&p->measure, 0x78aeed, 0.16);
  rgba_hex (&p->accent, 0x78aeed, 1.0);
  rgba_hex (&p->selection_fg, 0xffffff, 1.0);
  rgba_hex (&p->highlight_fg, 0x000000, 0.85);
  rgba_hex (&p->density, 0x99c1f1, 1.0);
  for (guint i = 0; i < CPEL_PALETTE_N_TYPE_COLORS; i++)
    rgba_hex (&p->type_colors[i], type_colors_dark[i], 1.0);
  p->dark = TRUE;
}

void
cpel_palette_get_type_color (const CpelPalette *palette,
                             CpelFile          *file,
                             guint32            code,
                             CpelRGBA          *color)
{
  guint type;

  g_return_if_fail (palette != NULL);
  g_return_if_fail (color != NULL);

  if (file != NULL && cpel_file_lookup_type (file, code, &type))
    *color = palette->type_colors[type % CPEL_PALETTE_N_TYPE_COLORS];
  else
    /* Fibonacci hashing: consecutive codes land on different colours. */
    *color = palette->type_colors[((code * 0x9E3779B1u) >> 28) % CPEL_PALETTE_N_TYPE_COLORS];
}

void
cpel_palette_get_track_color (const CpelPalette *palette,
                              guint              slot,
                              CpelRGBA          *color)
{
  g_return_if_fail (palette != NULL);
  g_return_if_fail (color != NULL);
  /* From the middle of the list: the first track and the first type (often
   * the only ones that busy) do not look alike in the two modes. */
  *color = palette->type_colors[(slot + CPEL_PALETTE_N_TYPE_COLORS / 2) % CPEL_PALETTE_N_TYPE_COLORS];
}

const char *
cpel_color_mode_to_string (CpelColorMode mode)
{
  switch (mode)
    {
    case CPEL_COLOR_BY_CODE:
      return "code";
    case CPEL_COLOR_BY_TRACK:
      return "track";
    case CPEL_COLOR_NONE:
      return "none";
    default:
      return NULL;
    }
}

gboolean
cpel_color_mode_from_string (const char *name, CpelColorMode *mode)
{
  for (CpelColorMode m = CPEL_COLOR_BY_CODE; m <= CPEL_COLOR_NONE; m++)
    if (g_strcmp0 (name, cpel_color_mode_to_string (m)) == 0)
      {
        if (mode != NULL)
          *mode = m;
        return TRUE;
      }
  return FALSE;
}
