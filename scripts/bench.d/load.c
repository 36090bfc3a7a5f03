/* Requests per second for bench.d/serve.py: CLIENTS connections (a thread each), each sending
 * `status` and reading its answer in a loop for SECONDS. A C client, because ten Python clients
 * are the bottleneck themselves: the floor server (bench.d/floor.c, which does nothing) got no
 * more requests a second from them than boomic or MPD did, so that row could not tell the
 * servers apart.
 *
 * load PORT CLIENTS SECONDS   prints the requests a second of all clients together */
#include <pthread.h>
#include <time.h>

#include "status_client.h"

static int port;
static double seconds;
static pthread_barrier_t start;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *client(void *count) {
    char buf[65536];
    int length = 0, fd = connect_status(port);
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
