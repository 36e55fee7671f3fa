/* stop 31's alias_probe.c with the dtype as a third argument (stop 32: bf16 against f32): two
 * symmetric buffers of S + PAD bytes, so dst lies S + PAD bytes after src, 200 untimed then 2000
 * timed all-reduces of S bytes of DTYPE, out of place; per-call median and the loop's mean.
 *   gcc -O2 -Ilib/include -o /tmp/dtype_probe results/coll/dev-2core-zen4-2026-11-27-stop32/dtype_probe.c \
 *       build/lib/libvsym.so -Wl,-rpath,$PWD/build/lib
 *   launch/vsym-run -n 2 -- /tmp/dtype_probe 1048576 64 bf16     (S, PAD, DTYPE) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vsym/vsym.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 4) return 2;
    size_t S = strtoul(argv[1], NULL, 0), pad = strtoul(argv[2], NULL, 0);
    vsym_dtype_t dt;
    if (vsym_dtype_from_name(argv[3], &dt) != VSYM_OK) return 2;
    size_t count = S / vsym_dtype_size(dt);
    enum { N = 2000 };
    static double t[N];
    vsym_ctx_t *ctx;
    vsym_coll_t *c;
    void *a, *d;
    if (vsym_init(&ctx) != VSYM_OK) return 1;
    if (vsym_coll_create(vsym_team_world(ctx), &c) != VSYM_OK ||
        vsym_coll_buffer_alloc(c, S + pad, &a) != VSYM_OK ||
        vsym_coll_buffer_alloc(c, S + pad, &d) != VSYM_OK)
        return 1;
    memset(a, 0, S);
    memset(d, 0, S);
    for (int i = 0; i < 200; i++)
        if (vsym_coll_allreduce(c, a, d, count, dt, VSYM_RED_SUM, VSYM_COLL_AUTO))
            return 1;
    double t0 = now_us();
    for (int i = 0; i < N; i++) {
        double s = now_us();
        if (vsym_coll_allreduce(c, a, d, count, dt, VSYM_RED_SUM, VSYM_COLL_AUTO))
            return 1;
        t[i] = now_us() - s;
    }
    double mean = (now_us() - t0) / N;
    qsort(t, N, sizeof(double), cmp);
    printf("%s S %zu dst-src %ld: per call min %.1f median %.1f p90 %.1f us, loop mean %.1f us\n", argv[3], S,
           (long)((char *)d - (char *)a), t[0], t[N / 2], t[9 * N / 10], mean);
    vsym_coll_buffer_free(c, a);
    vsym_coll_buffer_free(c, d);
    vsym_coll_destroy(c);
    vsym_finalize(ctx);
    return 0;
}
