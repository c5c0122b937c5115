/* SPDX-License-Identifier: Apache-2.0 */
/* bench-bare-window.c — the yardstick of the viewer's start-up: a bare
 * libadwaita window (an AdwApplication, a header bar and a label, the
 * viewer's default size), timed as `cpelview --benchmark` times itself,
 * from main () to the end of its first frame (the frame clock's
 * "after-paint").  Prints {"start_to_first_frame_ms": N} and quits.
 * run-startup.sh runs it beside the viewer. */
#include <adwaita.h>
#include <stdio.h>

static gint64 start_us;

static void
on_after_paint (GdkFrameClock  *clock,
                GtkApplication *app)
{
  printf ("{\"start_to_first_frame_ms\": %.3f}\n", (g_get_monotonic_time () - start_us) / 1e3);
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, app);
  g_application_quit (G_APPLICATION (app));
}

static void
on_map (GtkWidget      *window,
        GtkApplication *app)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_after_paint), app);
}

static void
on_activate (GtkApplication *app)
{
  GtkWidget *window = adw_application_window_new (app);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), gtk_label_new ("bare"));
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  g_signal_connect (window, "map", G_CALLBACK (on_map), app);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = NULL;

  start_us = g_get_monotonic_time ();
  app = adw_application_new ("io.github.cpelview.BareWindow", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
