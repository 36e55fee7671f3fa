/* memcpy of 8 MiB from one source into three destinations in turn (32 MiB in all, the size of
 * the host's L3): the copy speed once source and destination leave the cache. Median of 30
 * copies per destination; with an argument, a thread copies another 8 MiB pair on the other
 * core meanwhile. The destinations: malloc memory, and the two halves of a 16 MiB memfd (shared
 * memory, as a peer's heap is). Against it, one pair copied again and again (memcpy-bench).
 *   cc -O2 -o memcpy_cycle memcpy_cycle.c -lpthread && ./memcpy_cycle && ./memcpy_cycle loaded */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define SIZE ((size_t)8 << 20)
#define REPS 30

static volatile int stop;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void *helper(void *arg)
{
    (void)arg;
    char *s = malloc(SIZE), *d = malloc(SIZE);
    if (s == NULL || d == NULL) return NULL;
    memset(s, 1, SIZE);
    memset(d, 2, SIZE);
    while (!stop)
        memcpy(d, s, SIZE);
    free(s);
    free(d);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int loaded = argc > 1;
    pthread_t th;
    if (loaded && pthread_create(&th, NULL, helper, NULL) != 0) return 1;
    char *src = malloc(SIZE), *anon = malloc(SIZE);
    int fd = memfd_create("memcpy_cycle", 0);
    if (src == NULL || anon == NULL || fd < 0 || ftruncate(fd, (off_t)(2 * SIZE)) != 0) return 1;
    char *shm1 = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    char *shm2 = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)SIZE);
    if (shm1 == MAP_FAILED || shm2 == MAP_FAILED) return 1;
    memset(src, 3, SIZE);
    memset(anon, 0, SIZE);
    memset(shm1, 0, SIZE);
    memset(shm2, 0, SIZE);
    char *dst[3] = {anon, shm1, shm2};
    double t[3][REPS];
    for (int i = 0; i < REPS; i++)
        for (int k = 0; k < 3; k++) {
            double t0 = now_us();
            memcpy(dst[k], src, SIZE);
            t[k][i] = now_us() - t0;
        }
    for (int k = 0; k < 3; k++)
        qsort(t[k], REPS, sizeof(double), cmp);
    printf("loaded=%d: 8 MiB memcpy, median us: into malloc %.0f, memfd half 1 %.0f, half 2 %.0f\n",
           loaded, t[0][REPS / 2], t[1][REPS / 2], t[2][REPS / 2]);
    stop = 1;
    if (loaded) pthread_join(th, NULL);
    close(fd);
    return 0;
}
