#include "ctaglib.h"
extern "C" int ctl_version(void) { return 1; }
