// The PCRE2 API that the CPCRE2 system module exposes to Swift (FlowPattern is its only user).
// pcre2.h requires the code unit width before it is included: flowrun matches UTF-8 text, so
// the 8-bit library (libpcre2-8, the pcre2_*_8 functions) is the one linked.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
