/* What bench.d/poll.c and bench.d/load.c share: a connection to an MPD server on loopback past
 * its greeting, and reading an answer up to its closing `OK` line. */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A connection to 127.0.0.1:PORT (TCP_NODELAY), its greeting read; exits when refused. */
static int connect_status(int port) {
    int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&address, sizeof address)) { perror("connect"); exit(1); }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char c;
    while (read(fd, &c, 1) == 1 && c != '\n') {}  /* the greeting */
    return fd;
}

/* Reads up to the answer's closing `OK` line into `buf` (holding `*length` bytes, which keeps
 * what came after it); 0 when the connection ends first. */
static int read_answer(int fd, char *buf, size_t size, int *length) {
    for (;;) {
        buf[*length] = 0;
        char *ok = strstr(buf, "OK\n");
        while (ok && ok != buf && ok[-1] != '\n') ok = strstr(ok + 1, "OK\n");
        if (ok) {
            int used = (int)(ok + 3 - buf);
            memmove(buf, buf + used, *length - used);
            *length -= used;
            return 1;
        }
        ssize_t n = read(fd, buf + *length, size - 1 - *length);
        if (n <= 0) return 0;
        *length += (int)n;
    }
}
