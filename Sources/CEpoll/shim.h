// epoll and eventfd, for the MPD front's own event loop (`SocketLoop`): glibc declares them in
// <sys/epoll.h> and <sys/eventfd.h>, which Swift's Glibc module does not include.
#include <sys/epoll.h>
#include <sys/eventfd.h>
