/* The floor for `status` and requests/s in bench.d/serve.py: the least any server can do for a
 * request, so that the rows say how much of their time is the server's own. One thread, epoll,
 * one read per ready connection, and for each line in it the same fixed answer (MPD's `status`
 * of a stopped player, given as a file) in one write. No parsing, no state, no allocation.
 *
 * floor PORT ANSWER_FILE */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static const char greeting[] = "OK MPD 0.23.5\n";

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor PORT ANSWER_FILE\n"); return 2; }
    static char answer[16384], buf[65536];
    FILE *f = fopen(argv[2], "rb");
    if (!f) { perror(argv[2]); return 1; }
    size_t answer_length = fread(answer, 1, sizeof answer, f);
    fclose(f);

    int one = 1, listener = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1])),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 256)) {
        perror("floor: listen");
        return 1;
    }
    int poller = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event);
    struct epoll_event ready[64];
    for (;;) {
        int count = epoll_wait(poller, ready, 64, -1);
        for (int i = 0; i < count; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int client = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
                if (client < 0) continue;
                setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                if (write(client, greeting, sizeof greeting - 1) < 0) { close(client); continue; }
                struct epoll_event added = {.events = EPOLLIN, .data.fd = client};
                epoll_ctl(poller, EPOLL_CTL_ADD, client, &added);
                continue;
            }
            ssize_t n = read(fd, buf, sizeof buf);
            if (n <= 0) { close(fd); continue; }
            for (ssize_t j = 0; j < n; j++)
                if (buf[j] == '\n' && write(fd, answer, answer_length) < 0) break;
        }
    }
}
