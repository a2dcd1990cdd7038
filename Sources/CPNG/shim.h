// SegueRender's window onto libpng 1.6 (Debian: libpng-dev), used by the image decoders.
#ifndef SEGUE_CPNG_SHIM_H
#define SEGUE_CPNG_SHIM_H

#include <png.h>

#endif  // SEGUE_CPNG_SHIM_H
