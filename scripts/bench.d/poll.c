/* `status` round trips on one connection, as fast as the server answers: what
 * bench.d/status_profile.py times (pinned to one CPU) and counts under callgrind. A C client,
 * so that the client's own share of each round trip is as small as it gets.
 *
 * poll PORT COUNT   prints the mean time a round trip, in microseconds */
#include <time.h>

#include "status_client.h"

static char buf[65536];

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: poll PORT COUNT\n"); return 2; }
    int count = atoi(argv[2]), length = 0, fd = connect_status(atoi(argv[1]));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < count; i++) {
        if (write(fd, "status\n", 7) != 7 || !read_answer(fd, buf, sizeof buf, &length)) {
            fprintf(stderr, "poll: the connection ended\n");
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.2f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / (count > 0 ? count : 1));
    return 0;
}
