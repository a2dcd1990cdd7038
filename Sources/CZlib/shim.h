// SegueRender's window onto zlib (Debian: zlib1g-dev, present on every Debian image).
#ifndef SEGUE_CZLIB_SHIM_H
#define SEGUE_CZLIB_SHIM_H

#include <zlib.h>

#endif  // SEGUE_CZLIB_SHIM_H
