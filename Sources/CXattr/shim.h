// Extended attributes (listxattr, getxattr, fsetxattr): glibc declares them in <sys/xattr.h>,
// which Swift's Glibc module does not include.
#include <sys/xattr.h>
