/* Requests per second for bench.d/serve.py: CLIENTS connections (a thread each), each sending
 * `status` and reading its answer in a loop for SECONDS. A C client, because ten Python clients
 * are the bottleneck themselves: the floor server (bench.d/floor.c, which does nothing) got no
 * more requests a second from them than boomic or MPD did, so that row could not tell the
 * servers apart.
 *
 * load PORT CLIENTS SECONDS   prints the requests a second of all clients together */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port;
static double seconds;
static pthread_barrier_t start;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Reads up to the answer's closing `OK` line into `buf` (holding `*length` bytes); 0 when the
 * connection ends first. */
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

static void *client(void *count) {
    char buf[65536];
    int length = 0, one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&address, sizeof address)) { perror("load: connect"); exit(1); }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char c;
    while (read(fd, &c, 1) == 1 && c != '\n') {}  /* the greeting */
    pthread_barrier_wait(&start);
    long n = 0;
    double end = now() + seconds;
    while (now() < end) {
        if (write(fd, "status\n", 7) != 7 || !read_answer(fd, buf, sizeof buf, &length)) {
            fprintf(stderr, "load: the connection ended\n");
            exit(1);
        }
        n++;
    }
    close(fd);
    *(long *)count = n;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: load PORT CLIENTS SECONDS\n"); return 2; }
    port = atoi(argv[1]);
    int clients = atoi(argv[2]);
    seconds = atof(argv[3]);
    if (clients < 1 || clients > 1000 || seconds <= 0) { fprintf(stderr, "load: bad arguments\n"); return 2; }
    pthread_t threads[1000];
    long counts[1000];
    pthread_barrier_init(&start, NULL, clients + 1);
    for (int i = 0; i < clients; i++) pthread_create(&threads[i], NULL, client, &counts[i]);
    pthread_barrier_wait(&start);
    double t0 = now();
    long total = 0;
    for (int i = 0; i < clients; i++) {
        pthread_join(threads[i], NULL);
        total += counts[i];
    }
    printf("%.0f\n", total / (now() - t0));
    return 0;
}
