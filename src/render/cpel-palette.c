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

/* GNOME HIG palette: Blue, Green, Orange, Red, Purple, Brown, Teal, Slate.
 * Yellow is left out: it is the search highlight. */
static const guint32 type_colors_light[CPEL_PALETTE_N_TYPE_COLORS] = {
  0x1c71d8, 0x26a269, 0xc64600, 0xc01c28, 0x813d9c, 0x865e3c, 0x1f7f8f, 0x5e5c64,
};
static const guint32 type_colors_dark[CPEL_PALETTE_N_TYPE_COLORS] = {
  0x62a0ea, 0x57e389, 0xffa348, 0xf66151, 0xc061cb, 0xcdab8f, 0x5bc8d8, 0xc0bfbc,
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
cpel_palette_get_type_color (const CpelPalette *palette, guint32 code, CpelRGBA *color)
{
  guint32 h;

  g_return_if_fail (palette != NULL);
  g_return_if_fail (color != NULL);

  /* Fibonacci hashing: consecutive codes land on different colours. */
  h = (code * 0x9E3779B1u) >> 29;
  *color = palette->type_colors[h % CPEL_PALETTE_N_TYPE_COLORS];
}

void
cpel_palette_get_track_color (const CpelPalette *palette, guint32 track_id, CpelRGBA *color)
{
  /* The code colours, picked by track id the same way. */
  cpel_palette_get_type_color (palette, track_id, color);
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
