// The C headers that the CLibEdit system module exposes to Swift and to CLibEditShim.
// histedit.h is libedit's native API (el_*, history*); pkg-config adds -I/usr/include/editline.
#include <stdio.h>
#include <histedit.h>
