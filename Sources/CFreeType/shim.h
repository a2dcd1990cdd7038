// SegueRender's window onto FreeType (Debian: libfreetype-dev): font files and glyph outlines.
#ifndef SEGUE_CFREETYPE_SHIM_H
#define SEGUE_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H

#endif  // SEGUE_CFREETYPE_SHIM_H
