/* Stop 33: what the two CPUs of this guest cost each other. Two threads pinned to CPUs 0 and 1:
 * one-way latency of a cache line passed back and forth (100000 round trips), then 1 MiB
 * written on CPU 0 and read on CPU 1, written with ordinary stores (memset) or non-temporal
 * ones, ten times each: the reader's time, and the writer's time for lines the reader holds.
 *   gcc -O2 -mavx512f -pthread -o /tmp/c2c_probe results/coll/dev-2core-zen4-2026-11-27-stop33/c2c_probe.c
 *   /tmp/c2c_probe */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static volatile long flag __attribute__((aligned(64)));
static volatile int stage __attribute__((aligned(64)));
static char *buf;
static const size_t BS = 1 << 20;

static void pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof(s), &s);
}

static void *reader(void *arg)
{
    (void)arg;
    pin(1);
    for (long i = 1; i <= 200000; i += 2) {
        while (flag != i)
            ;
        flag = i + 1;
    }
    for (int k = 0; k < 20; k++) {
        while (stage != 2 * k + 1)
            ;
        volatile long sum = 0;
        for (size_t i = 0; i < BS; i += 64)
            sum += buf[i];
        stage = 2 * k + 2;
    }
    return NULL;
}

int main(void)
{
    pin(0);
    buf = aligned_alloc(4096, BS);
    memset(buf, 0, BS);
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    double t0 = now();
    for (long i = 0; i < 200000; i += 2) {
        flag = i + 1;
        while (flag != i + 2)
            ;
    }
    double lat = (now() - t0) / 200000 * 1e9;
    double rd[2] = {0, 0}, wr[2] = {0, 0};
    for (int k = 0; k < 20; k++) {
        int nt = k >= 10;
        double w = now();
        if (nt) {
            __m512i v = _mm512_set1_epi8((char)k);
            for (size_t i = 0; i < BS; i += 64)
                _mm512_stream_si512((__m512i *)(void *)(buf + i), v);
            _mm_sfence();
        } else {
            memset(buf, k, BS);
        }
        wr[nt] += now() - w;
        double r = now();
        stage = 2 * k + 1;
        while (stage != 2 * k + 2)
            ;
        rd[nt] += now() - r;
    }
    pthread_join(t, NULL);
    printf("one-way %.0f ns; 1 MiB read there: cached %.0f us, streamed %.0f us; written here: "
           "cached %.0f streamed %.0f\n",
           lat, rd[0] / 10 * 1e6, rd[1] / 10 * 1e6, wr[0] / 10 * 1e6, wr[1] / 10 * 1e6);
    free(buf);
    return 0;
}
