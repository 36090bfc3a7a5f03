/* `status` round trips on one connection, as fast as the server answers: what
 * bench.d/status_profile.py times (pinned to one CPU) and counts under callgrind. A C client,
 * so that the client's own share of each round trip is as small as it gets.
 *
 * poll PORT COUNT   prints the mean time a round trip, in microseconds */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char buf[65536];
static int length = 0;

/* Reads up to the answer's closing `OK` line; 0 when the connection ends first. */
static int read_answer(int fd) {
    for (;;) {
        buf[length] = 0;
        char *ok = strstr(buf, "OK\n");
        while (ok && ok != buf && ok[-1] != '\n') ok = strstr(ok + 1, "OK\n");
        if (ok) {
            int used = (int)(ok + 3 - buf);
            memmove(buf, buf + used, length - used);
            length -= used;
            return 1;
        }
        ssize_t n = read(fd, buf + length, sizeof buf - 1 - length);
        if (n <= 0) return 0;
        length += (int)n;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: poll PORT COUNT\n"); return 2; }
    int count = atoi(argv[2]), one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1])),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&address, sizeof address)) { perror("connect"); return 1; }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char c;
    while (read(fd, &c, 1) == 1 && c != '\n') {}  /* the greeting */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < count; i++) {
        if (write(fd, "status\n", 7) != 7 || !read_answer(fd)) { fprintf(stderr, "poll: the connection ended\n"); return 1; }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.2f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / (count > 0 ? count : 1));
    return 0;
}
