/* Stop 52: reads of a buffer that malloc + memset(0) left as the kernel's zero page, then of the
 * same buffer once written. gcc -O2 -o zero_page zero_page.c; ./zero_page MiB reps PLAN, where
 * each letter of PLAN is one round: '.' times as it is, 'A' first writes zeros into a, 'B' zeros
 * into b, '1' ones into a, 'Z' one byte a page of a. Each round times memcpy(b, a) and a read of
 * one word a line of a. */
#include <stdint.h>
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

static volatile uint64_t sink;

int main(int argc, char **argv)
{
    if (argc != 4) return 2;
    size_t size = (size_t)atoi(argv[1]) << 20;
    int reps = atoi(argv[2]);
    const char *plan = argv[3];
    char *a = malloc(size + 64), *b = malloc(size + 64);
    if (a == NULL || b == NULL) return 1;
    memset(a, 0, size + 64); /* folded into calloc by the compiler: a stays the zero page */
    memset(b, 0, size + 64);
    for (int round = 0; plan[round]; round++) {
        char p = plan[round];
        if (p == 'A') memset(a, 0, size);
        if (p == 'B') memset(b, 0, size);
        if (p == '1') memset(a, 1, size);
        if (p == 'Z')
            for (size_t o = 0; o < size; o += 4096)
                a[o] = 0;
        double t0 = now();
        for (int i = 0; i < reps; i++) {
            memcpy(b, a, size);
            __asm__ volatile("" ::"r"(b) : "memory");
        }
        double t1 = now();
        uint64_t s = 0;
        for (int i = 0; i < reps; i++) {
            const volatile uint64_t *q = (const uint64_t *)a;
            for (size_t k = 0; k < size / 8; k += 8)
                s += q[k];
        }
        double t2 = now();
        sink += s;
        printf("%c: copy %.1f us read %.1f us\n", p, (t1 - t0) / reps * 1e6, (t2 - t1) / reps * 1e6);
    }
    free(a);
    free(b);
    return 0;
}
