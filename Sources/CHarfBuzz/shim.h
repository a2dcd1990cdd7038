// SegueRender's window onto HarfBuzz (Debian: libharfbuzz-dev): text shaping.
#ifndef SEGUE_CHARFBUZZ_SHIM_H
#define SEGUE_CHARFBUZZ_SHIM_H

#include <hb.h>
#include <hb-ot.h>

#endif  // SEGUE_CHARFBUZZ_SHIM_H
