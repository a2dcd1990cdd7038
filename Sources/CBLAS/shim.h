// Segue's window onto the CBLAS API.
//
// Debian's `libblas-dev` (reference BLAS) installs `cblas.h` through the alternatives system, and
// OpenBLAS can replace the library at run time the same way. Debian's header guards itself with
// `CBLAS_H`, so this shim uses a guard of its own.
#ifndef SEGUE_CBLAS_SHIM_H
#define SEGUE_CBLAS_SHIM_H

#include <cblas.h>

#endif  // SEGUE_CBLAS_SHIM_H
