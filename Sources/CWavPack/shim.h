#include <stdint.h>
#include <wavpack/wavpack.h>
