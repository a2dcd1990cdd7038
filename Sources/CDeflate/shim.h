// SegueRender's window onto libdeflate (Debian: libdeflate-dev): whole-buffer DEFLATE, zlib and
// gzip compression, and its CRC-32 and Adler-32.
#ifndef SEGUE_CDEFLATE_SHIM_H
#define SEGUE_CDEFLATE_SHIM_H

#include <libdeflate.h>

#endif  // SEGUE_CDEFLATE_SHIM_H
