// SegueRender's window onto fontconfig (Debian: libfontconfig-dev): installed fonts by name.
#ifndef SEGUE_CFONTCONFIG_SHIM_H
#define SEGUE_CFONTCONFIG_SHIM_H

#include <fontconfig/fontconfig.h>

#endif  // SEGUE_CFONTCONFIG_SHIM_H
