#include <sys/types.h>
#include <mpg123.h>
