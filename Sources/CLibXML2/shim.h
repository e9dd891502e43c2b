#ifndef CATALOGCHECK_CLIBXML2_SHIM_H
#define CATALOGCHECK_CLIBXML2_SHIM_H

// libxml2 built with ICU pulls the system ICU headers, which clash with the ICU that Foundation
// ships. None of the ICU-dependent API is used here, so turn it off before the real headers load.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlwriter.h>
#include <libxml/HTMLparser.h>

#endif
