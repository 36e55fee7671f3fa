/* The kernel's process-to-process copy (process_vm_readv) against memcpy, one process pair:
 * a child holds a buffer of SIZE bytes, the parent reads it CHUNK bytes per call into its own
 * buffer, best of 50; then memcpy between two buffers of the parent, best of 50.
 *   gcc -O2 -o cma_probe cma_probe.c && ./cma_probe SIZE [CHUNK] */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cma_probe SIZE [CHUNK]\n");
        return 2;
    }
    size_t sz = strtoul(argv[1], NULL, 0), chunk = argc > 2 ? strtoul(argv[2], NULL, 0) : sz;
    char *buf = aligned_alloc(4096, sz), *dst = aligned_alloc(4096, sz);
    if (buf == NULL || dst == NULL || chunk == 0 || sz % chunk != 0) {
        fprintf(stderr, "cma_probe: bad size or chunk\n");
        return 2;
    }
    memset(buf, 1, sz);
    memset(dst, 0, sz);
    pid_t p = fork();
    if (p == 0)
        for (;;) pause();
    double best = 1e9, bm = 1e9;
    for (int k = 0; k < 50; k++) {
        double t = now();
        for (size_t o = 0; o < sz; o += chunk) {
            struct iovec l = {dst + o, chunk}, r = {buf + o, chunk};
            if (process_vm_readv(p, &l, 1, &r, 1, 0) != (ssize_t)chunk) {
                perror("process_vm_readv");
                kill(p, SIGKILL);
                return 1;
            }
        }
        t = now() - t;
        if (t < best) best = t;
    }
    for (int k = 0; k < 50; k++) {
        double t = now();
        memcpy(dst, buf, sz);
        t = now() - t;
        if (t < bm) bm = t;
    }
    printf("%zu chunk %zu: cma %.1f us (%.2f GB/s) memcpy %.1f us (%.2f GB/s)\n", sz, chunk,
           best * 1e6, (double)sz / best / 1e9, bm * 1e6, (double)sz / bm / 1e9);
    kill(p, SIGKILL);
    wait(NULL);
    return 0;
}
