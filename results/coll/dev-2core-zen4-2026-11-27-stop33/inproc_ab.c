/* Stop 33: the collectives storing into an out-of-place dst with non-temporal stores beyond the
 * streaming threshold, timed inside one launch: blocks of K=6 calls taking turns between
 * VSYM_NT_THRESHOLD=0 (never: the code before) and auto (or 4K with XON set), the first two
 * calls of each block untimed; N timed calls of each; the medians and minima of rank 0.
 * KIND: ar, ag, rs, a2a, bc; S: bytes of a src (all-reduce, all-gather, broadcast) or of one
 * block (reduce-scatter, all-to-all); ALGO: the vsym_coll_algo_t number (0 auto).
 *   gcc -O2 -Ilib/include -o /tmp/inproc_ab
 * results/coll/dev-2core-zen4-2026-11-27-stop33/inproc_ab.c \ build/lib/libvsym.so
 * -Wl,-rpath,$PWD/build/lib launch/vsym-run -n 2 -- /tmp/inproc_ab ar 16777216 12 0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vsym/vsym.h>
static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
static int cmp(const void *a, const void *b)
{
    double x = *(double *)a, y = *(double *)b;
    return x < y ? -1 : x > y;
}
int main(int argc, char **argv)
{
    const char *k = argv[1];
    size_t S = strtoul(argv[2], 0, 0);
    int N = atoi(argv[3]);
    int algo = atoi(argv[4]);
    vsym_ctx_t *ctx;
    vsym_coll_t *c;
    if (vsym_init(&ctx)) return 1;
    if (vsym_coll_create(vsym_team_world(ctx), &c)) return 1;
    int n = vsym_team_size(vsym_team_world(ctx)), me = vsym_team_rank(vsym_team_world(ctx));
    size_t cnt = S / 4;
    size_t sl = S, dl = S;
    if (!strcmp(k, "ag")) dl = S * n;
    if (!strcmp(k, "rs")) sl = S * n;
    if (!strcmp(k, "a2a")) {
        sl = dl = S * n;
    }
    float *a = malloc(sl), *d = malloc(dl);
    for (size_t i = 0; i < sl / 4; i++)
        a[i] = 1;
    memset(d, 0, dl);
    double *t[2];
    t[0] = malloc(N * 8);
    t[1] = malloc(N * 8);
    vsym_status_t st = 0;
    int K = 6, ni[2] = {0, 0};
    for (int i = 0; i < (N / (K - 2) + 1) * 2 * K; i++) {
        int md = (i / K) & 1;
        if (i % K == 0) {
            setenv("VSYM_NT_THRESHOLD", md ? (getenv("XON") ? "4K" : "auto") : "0", 1);
            if (vsym_settings_check()) return 3;
        }
        double w = now_us();
        if (!strcmp(k, "ar"))
            st = vsym_coll_allreduce(c, a, d, cnt, VSYM_DTYPE_F32, VSYM_RED_SUM,
                                     (vsym_coll_algo_t)algo);
        else if (!strcmp(k, "ag"))
            st = vsym_coll_allgather(c, a, d, cnt, VSYM_DTYPE_F32, (vsym_coll_algo_t)algo);
        else if (!strcmp(k, "rs"))
            st = vsym_coll_reduce_scatter(c, a, d, cnt, VSYM_DTYPE_F32, VSYM_RED_SUM,
                                          (vsym_coll_algo_t)algo);
        else if (!strcmp(k, "a2a"))
            st = vsym_coll_alltoall(c, a, d, cnt, VSYM_DTYPE_F32, (vsym_coll_algo_t)algo);
        else
            st = vsym_coll_broadcast(c, a, d, cnt, VSYM_DTYPE_F32, 0, (vsym_coll_algo_t)algo);
        if (st) return 1;
        w = now_us() - w;
        if (i % K >= 2 && ni[md] < N) t[md][ni[md]++] = w;
    }
    vsym_coll_barrier(c);
    qsort(t[0], N, 8, cmp);
    qsort(t[1], N, 8, cmp);
    if (me == 0)
        printf(
            "%s S %zuM n %d algo %d: off median %.0f min %.0f | auto median %.0f min %.0f | %.2f\n",
            k, S >> 20, n, algo, t[0][N / 2], t[0][0], t[1][N / 2], t[1][0],
            t[1][N / 2] / t[0][N / 2]);
    vsym_coll_destroy(c);
    vsym_finalize(ctx);
    return 0;
}
