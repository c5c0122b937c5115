#include <glib.h>
int main (int argc, char **argv) { (void) argc; (void) argv; g_printerr ("not yet\n"); return 2; }
