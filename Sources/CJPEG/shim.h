// SegueRender's window onto libjpeg-turbo (Debian: libjpeg62-turbo-dev), used by the image
// decoders. jpeglib.h needs FILE and size_t declared first.
#ifndef SEGUE_CJPEG_SHIM_H
#define SEGUE_CJPEG_SHIM_H

#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

#endif  // SEGUE_CJPEG_SHIM_H
