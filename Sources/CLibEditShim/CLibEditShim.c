#include "CLibEditShim.h"
