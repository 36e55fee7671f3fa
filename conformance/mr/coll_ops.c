/* Collectives: every op x dtype x reduction x algorithm on the world team and on sub-teams
 * (a non-power-of-two one and a strided one), against a reference computed here; out of place
 * and in place; counts 0, 1, not a multiple of the team size, and larger than the scratch chunk
 * (the test shrinks VSYM_COLL_SCRATCH to 4 KiB so chunking runs at small sizes); the memory
 * just outside every output untouched; bitwise equality across ranks for random float data;
 * bad arguments. With VSYM_TEST_SCOPE=transport (the VM groups) every algorithm and collective
 * runs on f32 sums, counts from 1 up (the bitwise check still covers f32, f16 and bf16), without
 * the streaming stores' variants.
 *   coll_ops [--slow]   (--slow: larger counts and many repetitions) */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include "harness.h"
#include "coll/coll_internal.h"

enum { GUARD = 64 };
static int slow;
/* VSYM_TEST_SCOPE=transport: what a transport can get wrong is the movement of bytes, the same
 * for every dtype and operation: f32 sum only (the arithmetic of every dtype and operation runs
 * over shared memory in the full scope), no zero count. */
static int transport_scope, full_scope;

static int case_wanted(vsym_dtype_t dt, vsym_red_op_t op)
{
    return !transport_scope || (dt == VSYM_DTYPE_F32 && op == VSYM_RED_SUM);
}

/* An exactly representable value for (rank, index): sums, products, minima and maxima of a few
 * of them are exact in every dtype, so any reduction order gives the reference bits. The i / 5
 * term breaks the period of 3 elements that i * 3 alone has, and every case takes the next seed
 * (next_seed), so data a path failed to move never equals what the last call left behind (in a
 * scratch, a dst) by chance. */
static double value(vsym_dtype_t dt, vsym_red_op_t op, int r, size_t i, int seed)
{
    long v = (long)((r * 7 + (long)i * 3 + (long)(i / 5) + seed) % 9);
    if (op == VSYM_RED_PROD) return (double)(1 + (r + (long)i + (long)(i / 5) + seed) % 3);
    if (dt == VSYM_DTYPE_U64) return (double)v;
    return (double)(v - 4);
}

static double reduce_ref(vsym_dtype_t dt, vsym_red_op_t op, int n, size_t i, int seed, int block)
{
    /* block >= 0: reduce-scatter, element i of block `block` (index block*count + i). */
    double acc = 0;
    for (int r = 0; r < n; r++) {
        double v = value(dt, op, r, i, seed);
        (void)block;
        if (r == 0)
            acc = v;
        else if (op == VSYM_RED_SUM)
            acc += v;
        else if (op == VSYM_RED_PROD)
            acc *= v;
        else if (op == VSYM_RED_MIN)
            acc = v < acc ? v : acc;
        else
            acc = v > acc ? v : acc;
    }
    return acc;
}

/* A buffer of len bytes with guard bytes on both sides. */
static char *gbuf(size_t len)
{
    char *b = malloc(len + 2 * GUARD);
    VSYM_CHECK(b != NULL, "malloc %zu", len);
    memset(b, 0xA5, len + 2 * GUARD);
    return b + GUARD;
}

static void gcheck(char *b, size_t len, const char *what)
{
    for (int i = 0; i < GUARD; i++) {
        VSYM_CHECK((unsigned char)b[-1 - i] == 0xA5, "%s: byte %d before the output changed", what,
                   i + 1);
        VSYM_CHECK((unsigned char)b[len + (size_t)i] == 0xA5,
                   "%s: byte %d after the output changed", what, i + 1);
    }
}

static void gfree(char *b)
{
    free(b - GUARD);
}

static void expect_bytes(const void *got, const void *want, size_t len, size_t es, const char *what)
{
    if (memcmp(got, want, len) == 0) return;
    const unsigned char *g = got, *w = want;
    size_t first = len, last = 0, bad = 0;
    for (size_t e = 0; e < len / es; e++)
        if (memcmp(g + e * es, w + e * es, es) != 0) {
            if (first == len) first = e;
            last = e;
            bad++;
        }
    /* What came instead says where it came from: a stale buffer, a neighbour, or nothing. */
    char gh[40] = "", wh[40] = "";
    for (size_t b = 0; b < es && b < 8; b++) {
        snprintf(gh + 2 * b, sizeof(gh) - 2 * b, "%02x", g[first * es + b]);
        snprintf(wh + 2 * b, sizeof(wh) - 2 * b, "%02x", w[first * es + b]);
    }
    VSYM_CHECK(0,
               "%s: %zu of %zu elements differ from the reference (elements %zu..%zu; "
               "element %zu is %s, expected %s)",
               what, bad, len / es, first, last, first, gh, wh);
}

typedef struct tcase {
    vsym_coll_t *c;
    int me, n;
    vsym_dtype_t dt;
    vsym_red_op_t op;
    vsym_coll_algo_t algo;
    size_t count;
    int seed;
    char what[160];
} tcase_t;

/* A case's seed: the next one of its suite (suite() starts the count again, so that the ranks
 * of a team agree whatever other teams some of them ran before). */
static int seed_calls;
static void next_seed(tcase_t *t)
{
    t->seed = ++seed_calls;
}

static void t_allreduce(tcase_t *t, int inplace)
{
    next_seed(t);
    size_t es = vsym_dtype_size(t->dt), len = t->count * es;
    char *src = gbuf(len), *dst = inplace ? src : gbuf(len), *want = malloc(len + 1);
    for (size_t i = 0; i < t->count; i++) {
        vsym_coll_store_double(t->dt, src, i, value(t->dt, t->op, t->me, i, t->seed));
        vsym_coll_store_double(t->dt, want, i, reduce_ref(t->dt, t->op, t->n, i, t->seed, -1));
    }
    VSYM_CHECK_OK(vsym_coll_allreduce(t->c, src, dst, t->count, t->dt, t->op, t->algo));
    expect_bytes(dst, want, len, es, t->what);
    gcheck(dst, len, t->what);
    if (!inplace) gfree(dst);
    gfree(src);
    free(want);
}

static void t_reduce_scatter(tcase_t *t, int inplace)
{
    next_seed(t);
    size_t es = vsym_dtype_size(t->dt), len = t->count * es, n = (size_t)t->n;
    char *src = gbuf(len * n), *want = malloc(len + 1);
    char *dst = inplace ? src + len * (size_t)t->me : gbuf(len);
    /* Block j element i holds value(index j*count + i): every block differs. */
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < t->count; i++)
            vsym_coll_store_double(t->dt, src, j * t->count + i,
                                   value(t->dt, t->op, t->me, j * t->count + i, t->seed));
    for (size_t i = 0; i < t->count; i++)
        vsym_coll_store_double(
            t->dt, want, i,
            reduce_ref(t->dt, t->op, t->n, (size_t)t->me * t->count + i, t->seed, t->me));
    VSYM_CHECK_OK(vsym_coll_reduce_scatter(t->c, src, dst, t->count, t->dt, t->op, t->algo));
    expect_bytes(dst, want, len, es, t->what);
    if (inplace) {
        gcheck(src, len * n, t->what);
    } else {
        gcheck(dst, len, t->what);
        gfree(dst);
    }
    gfree(src);
    free(want);
}

static void t_allgather(tcase_t *t, int inplace)
{
    next_seed(t);
    size_t es = vsym_dtype_size(t->dt), len = t->count * es, n = (size_t)t->n;
    char *dst = gbuf(len * n), *want = malloc(len * n + 1);
    char *src = inplace ? dst + len * (size_t)t->me : gbuf(len);
    for (size_t i = 0; i < t->count; i++)
        vsym_coll_store_double(t->dt, src, i, value(t->dt, VSYM_RED_SUM, t->me, i, t->seed));
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < t->count; i++)
            vsym_coll_store_double(t->dt, want, r * t->count + i,
                                   value(t->dt, VSYM_RED_SUM, (int)r, i, t->seed));
    VSYM_CHECK_OK(vsym_coll_allgather(t->c, src, dst, t->count, t->dt, t->algo));
    expect_bytes(dst, want, len * n, es, t->what);
    gcheck(dst, len * n, t->what);
    if (!inplace) gfree(src);
    gfree(dst);
    free(want);
}

static void t_broadcast(tcase_t *t, int inplace, int root)
{
    next_seed(t);
    size_t es = vsym_dtype_size(t->dt), len = t->count * es;
    char *dst = gbuf(len), *want = malloc(len + 1);
    char *src = (inplace || t->me != root) ? dst : gbuf(len);
    for (size_t i = 0; i < t->count; i++) {
        vsym_coll_store_double(t->dt, want, i, value(t->dt, VSYM_RED_SUM, root, i, t->seed));
        if (t->me == root)
            vsym_coll_store_double(t->dt, src, i, value(t->dt, VSYM_RED_SUM, root, i, t->seed));
    }
    VSYM_CHECK_OK(
        vsym_coll_broadcast(t->c, t->me == root ? src : NULL, dst, t->count, t->dt, root, t->algo));
    expect_bytes(dst, want, len, es, t->what);
    gcheck(dst, len, t->what);
    if (src != dst) gfree(src);
    gfree(dst);
    free(want);
}

static void t_alltoall(tcase_t *t, int inplace)
{
    next_seed(t);
    size_t es = vsym_dtype_size(t->dt), len = t->count * es, n = (size_t)t->n;
    char *src = gbuf(len * n), *dst = inplace ? src : gbuf(len * n), *want = malloc(len * n + 1);
    /* Block j of rank r: value(rank r, index j*count + i). Rank me receives block me of r. */
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < t->count; i++) {
            vsym_coll_store_double(t->dt, src, j * t->count + i,
                                   value(t->dt, VSYM_RED_SUM, t->me, j * t->count + i, t->seed));
            vsym_coll_store_double(
                t->dt, want, j * t->count + i,
                value(t->dt, VSYM_RED_SUM, (int)j, (size_t)t->me * t->count + i, t->seed));
        }
    VSYM_CHECK_OK(vsym_coll_alltoall(t->c, src, dst, t->count, t->dt, t->algo));
    expect_bytes(dst, want, len * n, es, t->what);
    gcheck(dst, len * n, t->what);
    if (!inplace) gfree(dst);
    gfree(src);
    free(want);
}

/* Random floats (inexact sums): every rank must hold the same bits. */
static void t_bitwise(vsym_coll_t *c, vsym_team_t *team, vsym_dtype_t dt, vsym_coll_algo_t algo,
                      size_t count, unsigned seed)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    size_t es = vsym_dtype_size(dt), len = count * es;
    char *src = malloc(len + 1), *dst = malloc(len + 1);
    uint64_t h = 1469598103934665603ull, *all = malloc((size_t)n * sizeof(h));
    srand(seed * 131u + (unsigned)me);
    for (size_t i = 0; i < count; i++)
        vsym_coll_store_double(dt, src, i, (double)rand() / RAND_MAX * 2.0 - 1.0 + 1e-3 * me);
    VSYM_CHECK_OK(vsym_coll_allreduce(c, src, dst, count, dt, VSYM_RED_SUM, algo));
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)dst[i]) * 1099511628211ull;
    VSYM_CHECK_OK(vsym_team_exchange(team, &h, sizeof(h), all));
    for (int r = 0; r < n; r++)
        VSYM_CHECK(all[r] == h, "bitwise: allreduce %s %s of %zu: rank %d differs from rank %d",
                   vsym_dtype_name(dt), vsym_coll_algo_name(algo), count, r, me);
    free(all);
    free(dst);
    free(src);
}

/* Make a handle reach every peer through the transport calls (vsym_get, vsym_put_signal), as
 * it does over verbs (the paths the shm machine would not exercise otherwise). Uses the
 * handle's internals. */
static void force_remote_path(vsym_coll_t *c)
{
    for (int r = 0; r < c->n; r++)
        if (r != c->me) c->peer[r] = NULL;
    if (c->tmp == NULL) {
        c->tmp = malloc((size_t)c->n * c->chunk);
        VSYM_CHECK(c->tmp != NULL, "malloc");
    }
    c->all_direct = c->n == 1;
}

static void suite(vsym_team_t *team, const char *team_name, int remote)
{
    seed_calls = 0;
    vsym_coll_t *c;
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    if (remote) force_remote_path(c);
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    /* Peers without load/store (remote, verbs in the VM): one-shot goes through push
     * exchanges of up to 64 KiB per peer, so a count above that (in chunks) joins them. */
    size_t counts[] = {0, 1, (size_t)n * 5 + 3, 3001, slow ? 70001 : 17000};
    int ncounts = slow || remote || transport_scope ? 5 : 4;
    int cases = 0;
    for (int a = 0; a < VSYM_COLL_ALGO_COUNT; a++) {
        for (int d = 0; d < VSYM_DTYPE_COUNT; d++) {
            if (!case_wanted((vsym_dtype_t)d, VSYM_RED_SUM)) continue;
            for (int ci = transport_scope ? 1 : 0; ci < ncounts; ci++) {
                tcase_t t = {
                    c,          me,     n, (vsym_dtype_t)d, VSYM_RED_SUM, (vsym_coll_algo_t)a,
                    counts[ci], ci + a, ""};
                for (int o = 0; o < VSYM_RED_COUNT; o++) {
                    int is_int =
                        t.dt == VSYM_DTYPE_I32 || t.dt == VSYM_DTYPE_I64 || t.dt == VSYM_DTYPE_U64;
                    if ((o == VSYM_RED_PROD && !is_int) || !case_wanted(t.dt, (vsym_red_op_t)o))
                        continue;
                    t.op = (vsym_red_op_t)o;
                    for (int ip = 0; ip < 2; ip++) {
                        snprintf(t.what, sizeof(t.what), "%s: allreduce %s %s %s count %zu%s",
                                 team_name, vsym_coll_algo_name(t.algo), vsym_dtype_name(t.dt),
                                 vsym_red_op_name(t.op), t.count, ip ? " in place" : "");
                        t_allreduce(&t, ip);
                        snprintf(t.what, sizeof(t.what), "%s: reduce_scatter %s %s %s count %zu%s",
                                 team_name, vsym_coll_algo_name(t.algo), vsym_dtype_name(t.dt),
                                 vsym_red_op_name(t.op), t.count, ip ? " in place" : "");
                        t_reduce_scatter(&t, ip);
                        cases += 2;
                    }
                }
                for (int ip = 0; ip < 2; ip++) {
                    snprintf(t.what, sizeof(t.what), "%s: allgather %s %s count %zu%s", team_name,
                             vsym_coll_algo_name(t.algo), vsym_dtype_name(t.dt), t.count,
                             ip ? " in place" : "");
                    t_allgather(&t, ip);
                    int root = (ci + ip) % n;
                    snprintf(t.what, sizeof(t.what), "%s: broadcast %s %s count %zu root %d%s",
                             team_name, vsym_coll_algo_name(t.algo), vsym_dtype_name(t.dt), t.count,
                             root, ip ? " in place" : "");
                    t_broadcast(&t, ip, root);
                    snprintf(t.what, sizeof(t.what), "%s: alltoall %s %s count %zu%s", team_name,
                             vsym_coll_algo_name(t.algo), vsym_dtype_name(t.dt), t.count,
                             ip ? " in place" : "");
                    t_alltoall(&t, ip);
                    cases += 3;
                }
            }
        }
        vsym_dtype_t fl[] = {VSYM_DTYPE_F32, VSYM_DTYPE_F16, VSYM_DTYPE_BF16};
        for (int k = 0; k < 3; k++)
            t_bitwise(c, team, fl[k], (vsym_coll_algo_t)a, 2999, (unsigned)(a * 3 + k));
    }
    VSYM_CHECK_OK(vsym_coll_barrier(c));
    /* The push exchange's slots exist once a one-shot ran with peers out of load/store reach,
     * and never on a team whose ranks all reach each other. */
    VSYM_CHECK((c->xch != NULL) == (!c->all_direct && n > 1),
               "%s%s: exchange slots %s after every algorithm ran", team_name,
               remote ? " (as if remote)" : "", c->xch ? "allocated" : "absent");
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    if (me == 0)
        printf("%s (%d ranks%s): %d cases passed%s\n", team_name, n, remote ? ", as if remote" : "",
               cases, transport_scope ? " (VSYM_TEST_SCOPE=transport)" : "");
}

/* dst holds want (bytes of elements of es bytes), and the GUARD bytes on either side of it in
 * the symmetric buffer still hold 0xA5. */
static void expect_guarded(const char *dst, const char *want, size_t bytes, size_t es,
                           const char *what)
{
    expect_bytes(dst, want, bytes, es, what);
    for (int g = 0; g < GUARD; g++)
        VSYM_CHECK((unsigned char)dst[-1 - g] == 0xA5 &&
                       (unsigned char)dst[bytes + (size_t)g] == 0xA5,
                   "%s: guard byte %d changed", what, g);
}

/* All-reduce between symmetric buffers of the handle (read and written in place for large
 * sizes), every dtype and op, each algorithm, both orders of src and dst in the buffers, and in
 * place (src == dst). nt: the label of the VSYM_NT_THRESHOLD in force (the pushes of the result
 * use non-temporal stores from it). */
static void t_symmetric(vsym_team_t *team, const char *nt)
{
    vsym_coll_t *c;
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    /* At least 280 KB of every dtype (twice the elements of the 2-byte ones), and just above the
     * 4 KiB from which the library reads symmetric buffers in place (a few elements per rank,
     * not a multiple of the team size). */
    size_t maxcount = 70001, cap = maxcount * 8 + 2 * GUARD;
    /* Across nodes (the VM's groups, over Soft-RoCE under emulation) the large count runs for
     * every algorithm but one dtype of each element size (f16, f32, f64 sums): what verbs moves
     * depends on the bytes, not on the arithmetic, which the small count and one node's runs
     * cover for every dtype and op. The whole set took 100-118 s of the 498 s coll_ops ran in the
     * VM's 2 pretend nodes x 2 ranks (twice a run), past its time limit there with the rest. */
    const int spans = vsym_team_num_nodes(team) > 1;
    char *a, *d, *want = malloc(maxcount * 8);
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, cap, (void **)&a));
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, cap, (void **)&d));
    int cases = 0;
    for (int al = 0; al < VSYM_COLL_ALGO_COUNT; al++)
        for (int dt = 0; dt < VSYM_DTYPE_COUNT; dt++)
            for (int o = 0; o < VSYM_RED_COUNT; o++) {
                int is_int = dt == VSYM_DTYPE_I32 || dt == VSYM_DTYPE_I64 || dt == VSYM_DTYPE_U64;
                if ((o == VSYM_RED_PROD && !is_int) ||
                    !case_wanted((vsym_dtype_t)dt, (vsym_red_op_t)o))
                    continue;
                size_t es = vsym_dtype_size((vsym_dtype_t)dt);
                const int big_wanted =
                    !spans || (o == VSYM_RED_SUM && (dt == VSYM_DTYPE_F16 || dt == VSYM_DTYPE_F32 ||
                                                     dt == VSYM_DTYPE_F64));
                for (int big = 0; big < 1 + big_wanted; big++)
                    for (int inplace = 0; inplace < 2; inplace++) {
                        size_t count = !big ? 4096 / es + 3 : es == 2 ? 2 * maxcount - 1 : maxcount;
                        char *dst = (al & 1) ? d + GUARD : a + GUARD, *src = inplace    ? dst
                                                                             : (al & 1) ? a + GUARD
                                                                                        : d + GUARD;
                        memset(dst - GUARD, 0xA5, cap);
                        for (size_t i = 0; i < count; i++) {
                            vsym_coll_store_double(
                                (vsym_dtype_t)dt, src, i,
                                value((vsym_dtype_t)dt, (vsym_red_op_t)o, me, i, al));
                            vsym_coll_store_double(
                                (vsym_dtype_t)dt, want, i,
                                reduce_ref((vsym_dtype_t)dt, (vsym_red_op_t)o, n, i, al, -1));
                        }
                        char what[128];
                        snprintf(what, sizeof(what),
                                 "symmetric buffers%s, NT %s: allreduce %s %s %s count %zu",
                                 inplace ? ", in place" : "", nt,
                                 vsym_coll_algo_name((vsym_coll_algo_t)al),
                                 vsym_dtype_name((vsym_dtype_t)dt),
                                 vsym_red_op_name((vsym_red_op_t)o), count);
                        VSYM_CHECK_OK(vsym_coll_allreduce(c, src, dst, count, (vsym_dtype_t)dt,
                                                          (vsym_red_op_t)o, (vsym_coll_algo_t)al));
                        /* src may be rewritten as soon as the call returns: no peer may still
                         * read it (in place or through a transport's put in flight). */
                        if (!inplace) memset(src, 0x5A, count * es);
                        expect_guarded(dst, want, count * es, es, what);
                        cases++;
                    }
            }
    VSYM_CHECK_OK(vsym_coll_buffer_free(c, a));
    VSYM_CHECK_STATUS(vsym_coll_buffer_free(c, a), VSYM_ERR_NOT_FOUND, "not a buffer");
    /* d is freed by destroy */
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    free(want);
    if (me == 0) printf("symmetric buffers (%d ranks, NT %s): %d cases passed\n", n, nt, cases);
}

/* The all-gather, the all-to-all and the reduce-scatter (f32/f64/f16 sums of small integers:
 * exact in any order) from symmetric src buffers: read in place from
 * VSYM_COLL_ZEROCOPY_MIN (4 KiB, the path says so), through the scratch below it and for a
 * forced ring; out of place and (all-gather) in place, three dtypes, sizes up to 70001 elements
 * per block; src rewritten the moment a call returns (no peer may still read it), the bytes
 * around the output untouched. */
static void t_symmetric_gathers(vsym_team_t *team, int remote)
{
    vsym_coll_t *c;
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    if (remote) force_remote_path(c);
    /* Over verbs (the VM groups) smaller blocks, still more than the exchange's 64 KiB pieces. */
    const size_t maxcount = transport_scope ? 17000 : 70001,
                 cap = maxcount * 8 * (size_t)n + 2 * GUARD;
    const int direct = c->all_direct; /* else the push exchange (verbs, or as if remote) */
    char *a, *d, *want = malloc(maxcount * 8 * (size_t)n);
    VSYM_CHECK(want != NULL, "malloc");
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, cap, (void **)&a));
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, cap, (void **)&d));
    const vsym_dtype_t dts[] = {VSYM_DTYPE_F32, VSYM_DTYPE_F64, VSYM_DTYPE_F16};
    const vsym_coll_algo_t algos[] = {VSYM_COLL_AUTO, VSYM_COLL_RING};
    int cases = 0, inplace_runs = 0;
    for (int di = 0; di < 3; di++)
        for (int ci = 0; ci < 3; ci++)
            for (int ai = 0; ai < 2; ai++)
                for (int k = 0; k < 6; k++) {
                    /* all-gather, in place, all-to-all, reduce-scatter, in place, all-to-all in
                     * place */
                    vsym_dtype_t dt = dts[di];
                    size_t es = vsym_dtype_size(dt);
                    size_t count = ci == 0   ? 5
                                   : ci == 1 ? 4096 / es + 3
                                             : maxcount,
                           len = count * es;
                    int a2a = k == 2 || k == 5, rs_ip = k == 4, rs = k == 3 || k == 4;
                    int inplace = k == 1 || k >= 4;
                    vsym_coll_kind_t kind = rs    ? VSYM_COLL_KIND_REDUCE_SCATTER
                                            : a2a ? VSYM_COLL_KIND_ALLTOALL
                                                  : VSYM_COLL_KIND_ALLGATHER;
                    /* In place the all-gather's src is block me of dst, the reduce-scatter's dst
                     * block me of src (which then holds the other blocks unchanged). */
                    char *dst = rs_ip ? d + GUARD + (size_t)me * len : d + GUARD;
                    char *src = rs_ip || k == 5 ? d + GUARD
                                : inplace       ? dst + (size_t)me * len
                                                : a + GUARD;
                    size_t nsrc = a2a || rs ? (size_t)n * count : count,
                           nout = rs_ip ? nsrc
                                  : rs  ? count
                                        : (size_t)n * count;
                    memset(d, 0xA5, cap);
                    for (size_t i = 0; i < nsrc; i++)
                        vsym_coll_store_double(dt, src, i, value(dt, VSYM_RED_SUM, me, i, k));
                    for (size_t i = 0; i < nout; i++) {
                        size_t r = i / count, j = i % count;
                        size_t at = rs_ip ? i : (size_t)me * count + i;
                        vsym_coll_store_double(dt, want, i,
                                               rs_ip && (int)r != me
                                                   ? value(dt, VSYM_RED_SUM, me, i, k)
                                               : rs ? reduce_ref(dt, VSYM_RED_SUM, n, at, k, me)
                                                    : value(dt, VSYM_RED_SUM, (int)r,
                                                            a2a ? (size_t)me * count + j : j, k));
                    }
                    size_t bytes = a2a || rs ? (size_t)n * len : len;
                    /* Small ones through the low-latency protocol where AUTO or one-shot */
                    const int ll =
                        direct && n > 1 &&
                        (algos[ai] == VSYM_COLL_AUTO || algos[ai] == VSYM_COLL_ONESHOT) &&
                        vsym_coll_blk_ll_usable(c, bytes);
                    const char *path = n == 1                                ? "copy"
                                       : algos[ai] == VSYM_COLL_RING && !a2a ? "ring"
                                       : !direct                             ? "oneshot-exchange"
                                       : algos[ai] == VSYM_COLL_AUTO && bytes >= 4096
                                           ? "symmetric-in-place"
                                       : ll ? "oneshot-ll"
                                            : "oneshot";
                    char what[160];
                    snprintf(what, sizeof(what), "symmetric buffers: %s%s %s %s count %zu",
                             vsym_coll_kind_name(kind), inplace ? " in place" : "",
                             vsym_coll_algo_name(algos[ai]), vsym_dtype_name(dt), count);
                    const char *got = vsym_coll_path(c, kind, src, dst, count, dt, 0, algos[ai]);
                    VSYM_CHECK(got != NULL && strcmp(got, path) == 0, "%s: path %s, expected %s",
                               what, got ? got : "NULL", path);
                    if (rs)
                        VSYM_CHECK_OK(vsym_coll_reduce_scatter(c, src, dst, count, dt, VSYM_RED_SUM,
                                                               algos[ai]));
                    else if (a2a)
                        VSYM_CHECK_OK(vsym_coll_alltoall(c, src, dst, count, dt, algos[ai]));
                    else
                        VSYM_CHECK_OK(vsym_coll_allgather(c, src, dst, count, dt, algos[ai]));
                    if (!inplace) memset(src, 0x5A, nsrc * es);
                    expect_guarded(rs_ip ? src : dst, want, nout * es, es, what);
                    cases++;
                    inplace_runs += inplace && strcmp(path, "symmetric-in-place") == 0;
                }
    VSYM_CHECK(
        n == 1 || !direct || inplace_runs == 18,
        "%d in-place all-gathers, reduce-scatters and all-to-alls read in place, expected 18",
        inplace_runs);
    VSYM_CHECK_OK(vsym_coll_destroy(c)); /* frees a and d */
    free(want);
    if (me == 0)
        printf("symmetric all-gather / all-to-all / reduce-scatter (%d ranks%s): %d cases passed\n",
               n, remote ? ", as if remote" : "", cases);
}

/* The broadcast into symmetric dst buffers (read from the root's memory from
 * VSYM_COLL_ZEROCOPY_MIN, 64 KiB with more ranks than cores; the path says so), every root in
 * turn, f32/f64/f16, 5 to 70001 elements, AUTO and a forced chain (which keeps its own path);
 * the root's src: in place, in another symmetric buffer (read by the others where it is), in
 * ordinary memory, overlapping its dst, and its dst at another offset than the others' (the
 * root names where to read). The root rewrites its src the moment the call returns; the bytes
 * around every dst untouched. */
static void t_symmetric_broadcast(vsym_team_t *team, int remote)
{
    vsym_coll_t *c;
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    if (remote) force_remote_path(c);
    const size_t maxcount = transport_scope ? 17000 : 70001, cap = maxcount * 8 + 4 * GUARD;
    const int direct = c->all_direct;
    /* The library's bc_zerocopy_min above VSYM_COLL_ZEROCOPY_MIN (4 KiB). */
    const size_t zc_min = !vsym_util_core_per_rank() ? 65536 : n > 8 ? 32768 : 4096;
    char *a, *d, *want = malloc(maxcount * 8), *plain = malloc(maxcount * 8);
    VSYM_CHECK(want != NULL && plain != NULL, "malloc");
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, cap, (void **)&a));
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, cap, (void **)&d));
    const vsym_dtype_t dts[] = {VSYM_DTYPE_F32, VSYM_DTYPE_F64, VSYM_DTYPE_F16};
    static const char *const kinds[] = {"in place", "src symmetric", "src ordinary",
                                        "src overlapping dst", "root's dst elsewhere"};
    int cases = 0, zc_runs = 0;
    for (int di = 0; di < 3; di++)
        for (int ci = 0; ci < 4; ci++)
            for (int ai = 0; ai < 2; ai++)
                for (int k = 0; k < 5; k++) {
                    int root = (di * 40 + ci * 10 + ai * 5 + k) % n;
                    vsym_dtype_t dt = dts[di];
                    vsym_coll_algo_t algo = ai ? VSYM_COLL_RING : VSYM_COLL_AUTO;
                    size_t es = vsym_dtype_size(dt);
                    size_t count = ci == 0   ? 5
                                   : ci == 1 ? 4096 / es + 3
                                   : ci == 2 ? 65536 / es + 3
                                             : maxcount,
                           len = count * es;
                    /* The root's dst 2 x GUARD bytes further on (k 3, 4); for k 3 its src
                     * starts 3 elements before it (over its leading guard bytes). */
                    char *dst = d + GUARD + (me == root && k >= 3 ? 2 * GUARD : 0);
                    char *src = k == 0   ? dst
                                : k == 1 ? a + GUARD
                                : k == 2 ? plain
                                : k == 3 ? dst - 3 * es
                                         : a + GUARD;
                    memset(d, 0xA5, cap);
                    for (size_t i = 0; i < count; i++)
                        vsym_coll_store_double(dt, want, i, value(dt, VSYM_RED_SUM, root, i, k));
                    if (me == root) memcpy(src, want, len);
                    const char *path = n == 1                           ? "copy"
                                       : ai                             ? "chain"
                                       : direct && len >= zc_min        ? "symmetric-in-place"
                                       : vsym_coll_bc_ll_usable(c, len) ? "oneshot-ll"
                                       : !direct && len <= c->push_max  ? "oneshot-push"
                                       : direct || len <= 65536         ? "oneshot"
                                                                        : "twoshot";
                    char what[160];
                    snprintf(what, sizeof(what),
                             "symmetric buffers: broadcast from %d, %s, %s %s count %zu", root,
                             kinds[k], vsym_coll_algo_name(algo), vsym_dtype_name(dt), count);
                    const char *got = vsym_coll_path(c, VSYM_COLL_KIND_BROADCAST, src, dst, count,
                                                     dt, root, algo);
                    VSYM_CHECK(got != NULL && strcmp(got, path) == 0, "%s: path %s, expected %s",
                               what, got ? got : "NULL", path);
                    VSYM_CHECK_OK(vsym_coll_broadcast(c, me == root ? src : NULL, dst, count, dt,
                                                      root, algo));
                    if (me == root && k != 0 && k != 3) memset(src, 0x5A, len);
                    if (me == root && k == 3)
                        expect_bytes(dst, want, len, es, what);
                    else
                        expect_guarded(dst, want, len, es, what);
                    cases++;
                    zc_runs += strcmp(path, "symmetric-in-place") == 0;
                }
    /* From zc_min: sizes 1-3 of each dtype and kind, 45; from 32 or 64 KiB sizes 2-3, 30, but
     * for f16 at the transport scope's smaller maxcount (34000 bytes), 25. */
    const int zc_expect = zc_min == 4096 ? 45 : transport_scope && zc_min > 34000 ? 25 : 30;
    VSYM_CHECK(n == 1 || !direct || zc_runs == zc_expect,
               "%d broadcasts read from the root's memory, expected %d", zc_runs, zc_expect);
    VSYM_CHECK_OK(vsym_coll_destroy(c)); /* frees a and d */
    free(want);
    free(plain);
    if (me == 0)
        printf("symmetric broadcast (%d ranks%s): %d cases passed\n", n,
               remote ? ", as if remote" : "", cases);
}

/* Symmetric buffers freed in different orders: rank 0 frees the first of two, the others the
 * second, so a position in the handle's list names another buffer on rank 0 than elsewhere. A
 * broadcast from rank 0 into the buffer each rank kept must not copy from the root's freed one:
 * where it reads the root's buffer in place (every peer on shared memory) the others report
 * VSYM_ERR_MISMATCH and the root returns (no rank waits for them); over verbs, where the root's
 * data travels through the scratch, every rank gets it. */
static void t_buffer_order(vsym_team_t *team)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    const size_t count = 16384; /* 64 KiB of f32: the broadcast reads the root's buffer */
    if (n < 2) return;
    vsym_coll_t *c;
    char *x, *y;
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    const int direct = c->all_direct;
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, count * 4, (void **)&x));
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, count * 4, (void **)&y));
    VSYM_CHECK_OK(vsym_coll_buffer_free(c, me == 0 ? x : y));
    char *keep = me == 0 ? y : x;
    memset(keep, me == 0 ? 7 : 0, count * 4);
    const char *path = vsym_coll_path(c, VSYM_COLL_KIND_BROADCAST, keep, keep, count,
                                      VSYM_DTYPE_F32, 0, VSYM_COLL_AUTO);
    const char *want_path = direct ? "symmetric-in-place" : "oneshot";
    VSYM_CHECK(path != NULL && strcmp(path, want_path) == 0,
               "broadcast of 64 KiB between symmetric buffers: path %s, expected %s",
               path ? path : "NULL", want_path);
    vsym_status_t st = vsym_coll_broadcast(c, keep, keep, count, VSYM_DTYPE_F32, 0, VSYM_COLL_AUTO);
    VSYM_CHECK(st == (me == 0 || !direct ? VSYM_OK : VSYM_ERR_MISMATCH),
               "broadcast between buffers freed in different orders: rank %d got %s", me,
               vsym_status_str(st));
    if (!direct) {
        size_t i = 0;
        while (i < count * 4 && keep[i] == 7)
            i++;
        VSYM_CHECK(i == count * 4, "broadcast over verbs: byte %zu is %d, expected 7", i,
                   i < count * 4 ? keep[i] : 7);
    }
    VSYM_CHECK_OK(vsym_coll_buffer_free(c, keep));
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    if (me == 0)
        printf("buffers freed in different orders (%d ranks): %s\n", n,
               direct ? "mismatch reported" : "data delivered (over verbs)");
}

/* Handles made and destroyed one after another get scratch memory that held the last one's
 * low-latency units: a new handle's first calls must not take those for their own. Each round
 * makes a handle, runs one low-latency all-reduce and one broadcast with values of the round,
 * the last rank starting 0.2 ms late (a skew, not a synchronisation: the others then read
 * before it has published), and destroys the handle. */
static void t_fresh_handles(vsym_team_t *team)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team), ll = 0;
    for (int round = 0; round < 40; round++) {
        vsym_coll_t *c;
        VSYM_CHECK_OK(vsym_coll_create(team, &c));
        ll += vsym_coll_ll_usable(c, 8);
        if (me == n - 1) {
            uint64_t t0 = vsym_util_time_ns();
            while (vsym_util_time_ns() - t0 < 200000)
                vsym_util_spin_hint();
        }
        float v[2] = {(float)(round + 1) * (float)(me + 1), (float)round}, r[2];
        VSYM_CHECK_OK(
            vsym_coll_allreduce(c, v, r, 2, VSYM_DTYPE_F32, VSYM_RED_SUM, VSYM_COLL_AUTO));
        float want = (float)(round + 1) * (float)(n * (n + 1) / 2);
        VSYM_CHECK(r[0] == want && r[1] == (float)(round * n),
                   "fresh handle, round %d: all-reduce gave %g %g, expected %g %g", round,
                   (double)r[0], (double)r[1], (double)want, (double)(round * n));
        float b[2] = {me == round % n ? (float)round + 0.5f : -1.0f, (float)me};
        VSYM_CHECK_OK(vsym_coll_broadcast(c, b, b, 2, VSYM_DTYPE_F32, round % n, VSYM_COLL_AUTO));
        VSYM_CHECK(b[0] == (float)round + 0.5f && b[1] == (float)(round % n),
                   "fresh handle, round %d: broadcast from %d gave %g %g", round, round % n,
                   (double)b[0], (double)b[1]);
        VSYM_CHECK_OK(vsym_coll_destroy(c));
    }
    if (me == 0)
        printf("fresh handles (%d ranks): 40 rounds passed, %d through the low-latency protocol\n",
               n, ll);
}

/* An all-reduce of count f32 from src into dst, its result checked: each rank's input its rank +
 * 1 times a pattern of the call, the sum n(n + 1)/2 times the pattern. */
static void ar_checked(vsym_coll_t *c, float *src, float *dst, size_t count, int call,
                       vsym_coll_algo_t algo, const char *what)
{
    const int me = c->me, n = c->n;
    for (size_t i = 0; i < count; i++)
        src[i] = (float)(me + 1) * (float)(call % 64 + (int)(i % 7));
    VSYM_CHECK_OK(vsym_coll_allreduce(c, src, dst, count, VSYM_DTYPE_F32, VSYM_RED_SUM, algo));
    for (size_t i = 0; i < count; i++) {
        const float want = (float)(n * (n + 1) / 2) * (float)(call % 64 + (int)(i % 7));
        if (dst[i] != want) {
            VSYM_CHECK(0, "%s, call %d: element %zu is %g, expected %g", what, call, i,
                       (double)dst[i], (double)want);
            break;
        }
    }
}

/* The line round trip that VSYM_PUBLISH_STREAM auto consults: where auto decides (AMD CPUs) and
 * every rank has a core, ranks 0 and 1 time it at the first collective that publishes 8 KiB or
 * more through the scratch and after every 16 MiB of such calls; where ranks share cores rank 0
 * times it against a thread of its own; every rank sees rank 0's record; elsewhere (and where a
 * peer is reached over verbs, whose lines no core shares) it stays 0.
 * 1100 calls of 16 KiB (two probes; 100 where a peer is over verbs), results checked on every
 * call (a rank that probed when its partner did not would time out instead). */
static void t_line_rtt(vsym_team_t *team)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    const size_t count = 4096; /* 16 KiB of f32: the one-shot through the scratch */
    float *v = malloc(count * sizeof(float)), *r = malloc(count * sizeof(float));
    VSYM_CHECK(v != NULL && r != NULL, "no memory");
    for (int stream = 0; stream < 2; stream++) {
        if (stream) VSYM_CHECK(setenv("VSYM_PUBLISH_STREAM", "off", 1) == 0, "setenv");
        VSYM_CHECK_OK(vsym_settings_check());
        vsym_coll_t *c;
        VSYM_CHECK_OK(vsym_coll_create(team, &c));
        VSYM_CHECK(vsym_coll_line_rtt(c) == 0, "line round trip recorded before any call");
        /* (rank 0 times it alone where ranks share cores: not before every rank has looked) */
        VSYM_CHECK_OK(vsym_coll_barrier(c));
        const int calls = c->all_direct ? 1100 : 100;
        for (int call = 0; call < calls; call++)
            ar_checked(c, v, r, count, call, VSYM_COLL_ONESHOT, "line round trip test");
        /* Where ranks share cores rank 0 times it against a thread of its own, at most once a
         * second, and only where that thread ran on the other CPU within 1 ms: calls go on, every
         * rank following rank 0's word, until it has a time or 6 s have passed. */
        const int shared = n > 1 && c->all_direct && !stream && !vsym_util_core_per_rank() &&
                           vsym_util_publish_auto();
        const uint64_t t0 = vsym_util_time_ns();
        for (int32_t done = !shared; !done;) {
            done =
                me == 0 && (vsym_coll_line_rtt(c) != 0 || vsym_util_time_ns() - t0 > 6000000000u);
            VSYM_CHECK_OK(
                vsym_coll_broadcast(c, &done, &done, 1, VSYM_DTYPE_I32, 0, VSYM_COLL_AUTO));
            for (int call = 0; call < 50 && !done; call++)
                VSYM_CHECK_OK(vsym_coll_allreduce(c, v, r, count, VSYM_DTYPE_F32, VSYM_RED_SUM,
                                                  VSYM_COLL_ONESHOT));
        }
        /* Kept only under 5 us (a round trip through the scheduler is not the lines'). */
        const int timed = n > 1 && c->all_direct && !stream && vsym_util_publish_auto() &&
                          (vsym_util_core_per_rank() || shared);
        const uint64_t rtt = vsym_coll_line_rtt(c);
        /* (qemu's TCG, where the Soft-RoCE VM runs, may take longer than 5 us a round) */
        if (shared && rtt == 0 && vsym_util_emulated_cpu()) {
            if (me == 0) printf("line round trip not checked: ranks share an emulated CPU\n");
        } else {
            VSYM_CHECK(timed ? rtt > 0 && rtt < 5000 : rtt == 0,
                       "VSYM_PUBLISH_STREAM %s, %d ranks%s: line round trip %llu ns, expected %s",
                       stream ? "off" : "auto", n, vsym_util_core_per_rank() ? ", a core each" : "",
                       (unsigned long long)rtt, timed ? "a time" : "none (0)");
        }
        if (me == 0)
            printf("line round trip (%d ranks, VSYM_PUBLISH_STREAM %s): %llu ns\n", n,
                   stream ? "off" : "auto", (unsigned long long)rtt);
        /* A probe whose thread does not run in time (rank 0 bound to its one CPU here, and the
         * probe's limit forced to 0: on the 2-core Zen 5 guest of 2026-12-01 the helper on the
         * other CPU, which the other ranks leave while they wait, answered within 1 ms) is tried
         * again after 10, 20, 40, ... ms: 200 ms of calls make 4-6 tries (at 0, 10, 30, 70, 150 ms
         * after the first), and the record keeps the time it had. */
        if (shared && rtt != 0) {
            cpu_set_t allowed, one;
            const uint64_t tries = c->rtt_tries;
            if (me == 0) {
                VSYM_CHECK(sched_getaffinity(0, sizeof(allowed), &allowed) == 0, "getaffinity");
                CPU_ZERO(&one);
                CPU_SET(sched_getcpu(), &one);
                VSYM_CHECK(sched_setaffinity(0, sizeof(one), &one) == 0, "setaffinity");
                vsym_util_thread_line_rtt_force(0);
                c->rtt_last = vsym_util_time_ns() - 2000000000u; /* due now */
            }
            const uint64_t t1 = vsym_util_time_ns();
            for (int32_t done = 0; !done;) {
                done = me == 0 && vsym_util_time_ns() - t1 > 200000000u;
                VSYM_CHECK_OK(
                    vsym_coll_broadcast(c, &done, &done, 1, VSYM_DTYPE_I32, 0, VSYM_COLL_AUTO));
                for (int call = 0; call < 20 && !done; call++)
                    VSYM_CHECK_OK(vsym_coll_allreduce(c, v, r, count, VSYM_DTYPE_F32, VSYM_RED_SUM,
                                                      VSYM_COLL_ONESHOT));
            }
            if (me == 0) {
                vsym_util_thread_line_rtt_force(UINT64_MAX);
                VSYM_CHECK(sched_setaffinity(0, sizeof(allowed), &allowed) == 0, "setaffinity");
                VSYM_CHECK(c->rtt_tries - tries >= 4 && c->rtt_tries - tries <= 6,
                           "line round trip, rank 0 on one CPU: %llu tries in 200 ms, expected 4-6",
                           (unsigned long long)(c->rtt_tries - tries));
            }
            VSYM_CHECK(vsym_coll_line_rtt(c) == rtt,
                       "line round trip after failed tries: %llu ns, expected %llu kept",
                       (unsigned long long)vsym_coll_line_rtt(c), (unsigned long long)rtt);
        }
        VSYM_CHECK_OK(vsym_coll_destroy(c));
    }
    VSYM_CHECK(unsetenv("VSYM_PUBLISH_STREAM") == 0, "unsetenv");
    VSYM_CHECK_OK(vsym_settings_check());
    free(v);
    free(r);
}

/* The low-latency protocol without barriers: 6000 calls back to back (600 where it is not used),
 * broadcasts from one root
 * for a while (which may then run up to 7 calls ahead of its slowest reader), from rotating roots,
 * and all-reduces, all-gathers, reduce-scatters and all-to-alls in between, sizes of 1 to 64
 * elements (every fifth broadcast 200 to 1099, across the broadcast's limit of 1 or 2 KiB; 1 to
 * 16 a block for the reduce-scatter and all-to-all), every value depending on the call, every
 * result checked on every rank. A root that rewrote its region while a rank still read it, or a
 * reader that took an older call's units, gives wrong values. */
static void t_ll_stress(vsym_team_t *team)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team), ll_calls = 0;
    vsym_coll_t *c;
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    static float buf[1100], out[1100];
    /* Where no call takes the protocol (peers over verbs, an emulated CPU) a tenth of the calls,
     * in the same phases: the paths they take have their own stress tests */
    const int calls = vsym_coll_ll_usable(c, 4) ? 6000 : 600, per = calls / 12;
    for (int i = 0; i < calls; i++) {
        int phase = (i / per) % 3; /* one root; rotating roots; broadcasts and the others */
        int bcast = phase < 2 || i % 3 != 0, root = phase == 0 ? (i / per) % n : (i * 7) % n;
        int count = bcast && i % 5 == 0 ? 200 + (i * 13) % 900 : 1 + (i * 13) % 64;
        /* not a broadcast: an all-reduce, all-gather, reduce-scatter or all-to-all */
        int kind = (i / 3) % 4, blk = 1 + (i * 13) % 16, base = i % 1000;
        ll_calls += bcast       ? vsym_coll_bc_ll_usable(c, (size_t)count * 4)
                    : kind == 0 ? vsym_coll_ll_usable(c, (size_t)count * 4)
                    : kind == 1 ? vsym_coll_blk_ll_usable(c, (size_t)count * 4)
                                : vsym_coll_blk_ll_usable(c, (size_t)(n * blk) * 4);
        if (!bcast && kind >= 2) {
            /* block r of src for rank r: base + k + 7 r + 100 me */
            for (int r = 0; r < n; r++)
                for (int k = 0; k < blk; k++)
                    buf[r * blk + k] = (float)(base + k + 7 * r + 100 * me);
            if (kind == 2)
                VSYM_CHECK_OK(vsym_coll_reduce_scatter(c, buf, out, (size_t)blk, VSYM_DTYPE_F32,
                                                       VSYM_RED_SUM, VSYM_COLL_AUTO));
            else
                VSYM_CHECK_OK(
                    vsym_coll_alltoall(c, buf, out, (size_t)blk, VSYM_DTYPE_F32, VSYM_COLL_AUTO));
            for (int r = 0; r < (kind == 2 ? 1 : n); r++)
                for (int k = 0; k < blk; k++) {
                    float want = kind == 2
                                     ? (float)(n * (base + k + 7 * me) + 100 * n * (n - 1) / 2)
                                     : (float)(base + k + 7 * me + 100 * r);
                    VSYM_CHECK(out[r * blk + k] == want,
                               "low-latency stress, call %d: %s of %d a block: element %d of "
                               "block %d is %g, expected %g",
                               i, kind == 2 ? "reduce-scatter" : "all-to-all", blk, k, r,
                               (double)out[r * blk + k], (double)want);
                }
        } else if (!bcast && kind == 1) {
            for (int k = 0; k < count; k++)
                buf[k] = (float)(base + k + 100 * me);
            VSYM_CHECK_OK(
                vsym_coll_allgather(c, buf, out, (size_t)count, VSYM_DTYPE_F32, VSYM_COLL_AUTO));
            for (int r = 0; r < n; r++)
                for (int k = 0; k < count; k++)
                    VSYM_CHECK(out[r * count + k] == (float)(base + k + 100 * r),
                               "low-latency stress, call %d: all-gather of %d: element %d of "
                               "rank %d is %g, expected %d",
                               i, count, k, r, (double)out[r * count + k], base + k + 100 * r);
        } else if (bcast) {
            for (int k = 0; k < count; k++)
                buf[k] = me == root ? (float)(i * 64 + k) : -1.0f;
            VSYM_CHECK_OK(vsym_coll_broadcast(c, buf, buf, (size_t)count, VSYM_DTYPE_F32, root,
                                              VSYM_COLL_AUTO));
            for (int k = 0; k < count; k++)
                VSYM_CHECK(buf[k] == (float)(i * 64 + k),
                           "low-latency stress, call %d: broadcast of %d from %d: element %d is "
                           "%g, expected %d",
                           i, count, root, k, (double)buf[k], i * 64 + k);
        } else {
            for (int k = 0; k < count; k++)
                buf[k] = (float)((i % 1000) + k + me);
            VSYM_CHECK_OK(vsym_coll_allreduce(c, buf, out, (size_t)count, VSYM_DTYPE_F32,
                                              VSYM_RED_SUM, VSYM_COLL_AUTO));
            for (int k = 0; k < count; k++) {
                float want = (float)(n * ((i % 1000) + k) + n * (n - 1) / 2);
                VSYM_CHECK(out[k] == want,
                           "low-latency stress, call %d: all-reduce of %d: element %d is %g, "
                           "expected %g",
                           i, count, k, (double)out[k], (double)want);
            }
        }
    }
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    if (me == 0)
        printf("low-latency stress (%d ranks): %d calls passed, %d through the protocol\n", n,
               calls, ll_calls);
}

/* The push exchange and the pushed broadcast (peers over verbs) without barriers: 2000 calls
 * back to back, the block per peer crossing VSYM_COLL_NET_LL_MAX (1 KiB) both ways every few
 * calls, so that exchanges of flagged words and of put + counter add alternate on the same
 * slots, and the broadcast crossing VSYM_COLL_NET_BCAST_MAX (16 KiB); one-shot all-reduces of i32
 * (each element names the call), all-gathers and all-to-alls (a different block to each peer),
 * broadcasts from rotating roots and from one root 100 times in a row (it may run ahead of the
 * others by the broadcast's slots), the last rank now and then late. A word of an older exchange
 * taken for this one, raw data read as words, or a counter out of step gives wrong values or a
 * timeout naming the peer. Where every peer is on shared memory the calls take other paths and must
 * still be right; "as if remote" (remote 1) they take those of verbs peers, with the words stored
 * through the peers' mappings. */
static void t_exchange_stress(vsym_team_t *team, int remote)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team), xch = 0;
    vsym_coll_t *c;
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    if (remote) force_remote_path(c);
    /* Elements per rank: up to 320 (1280 bytes); broadcasts up to 5100 (20400 bytes: beyond
     * VSYM_COLL_NET_BCAST_MAX, 16 KiB, every seventh). */
    const size_t cap = 320 * (size_t)n > 5100 ? 320 * (size_t)n : 5100;
    int32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
    VSYM_CHECK(src && dst, "no memory");
    for (int i = 0; i < 2000; i++) {
        /* all-reduce, all-gather, all-to-all, broadcast; calls 1000-1399 broadcasts only, from
         * one root for 100 calls at a time (which then runs ahead of the others) */
        int kind = i >= 1000 && i < 1400 ? 3 : (int)((i % 6) * 4 / 6);
        int root = kind == 3 && i >= 1000 && i < 1400 ? (i / 100) % n : (i * 7) % n;
        size_t count = (size_t)(i % 7 == 0 ? 200 + (i * 37) % 121 : 1 + (i * 13) % 64);
        if (kind == 1 || kind == 2) count = count / 4 + 1;      /* per peer */
        if (kind == 3 && i % 7 == 0 && (i < 1000 || i >= 1400)) /* not in the runs of one root */
            count = 4100 + (size_t)(i * 37) % 1001;
        if (me == n - 1 && i % 97 == 0) {
            uint64_t t0 = vsym_util_time_ns();
            while (vsym_util_time_ns() - t0 < 300000)
                vsym_util_spin_hint();
        }
        const char *path;
        if (kind == 3) {
            for (size_t k = 0; k < count; k++)
                src[k] = me == root ? i * 4096 + (int32_t)k : -1;
            path = vsym_coll_path(c, VSYM_COLL_KIND_BROADCAST, src, src, count, VSYM_DTYPE_I32,
                                  root, VSYM_COLL_AUTO);
            VSYM_CHECK_OK(
                vsym_coll_broadcast(c, src, src, count, VSYM_DTYPE_I32, root, VSYM_COLL_AUTO));
            for (size_t k = 0; k < count; k++)
                VSYM_CHECK(src[k] == i * 4096 + (int32_t)k,
                           "exchange stress, call %d: broadcast of %zu from %d: element %zu is "
                           "%d, expected %d",
                           i, count, root, k, src[k], i * 4096 + (int32_t)k);
        } else if (kind == 0) {
            for (size_t k = 0; k < count; k++)
                src[k] = i * 4096 + (int32_t)k + (me << 24);
            path = vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, src, dst, count, VSYM_DTYPE_I32, 0,
                                  VSYM_COLL_ONESHOT);
            VSYM_CHECK_OK(vsym_coll_allreduce(c, src, dst, count, VSYM_DTYPE_I32, VSYM_RED_SUM,
                                              VSYM_COLL_ONESHOT));
            for (size_t k = 0; k < count; k++) {
                int32_t want = n * (i * 4096 + (int32_t)k) + ((n * (n - 1) / 2) << 24);
                VSYM_CHECK(dst[k] == want,
                           "exchange stress, call %d: all-reduce of %zu: element %zu is %d, "
                           "expected %d",
                           i, count, k, dst[k], want);
            }
        } else {
            /* Element k of the block for rank r: the call, r, the sender and k. */
            for (int r = 0; r < n; r++)
                for (size_t k = 0; k < count; k++)
                    src[(size_t)r * count + k] =
                        i * 4096 + (int32_t)k + (me << 24) + (kind == 2 ? r << 20 : 0);
            vsym_coll_kind_t ck = kind == 1 ? VSYM_COLL_KIND_ALLGATHER : VSYM_COLL_KIND_ALLTOALL;
            path = vsym_coll_path(c, ck, src, dst, count, VSYM_DTYPE_I32, 0, VSYM_COLL_ONESHOT);
            if (kind == 1)
                VSYM_CHECK_OK(
                    vsym_coll_allgather(c, src, dst, count, VSYM_DTYPE_I32, VSYM_COLL_ONESHOT));
            else
                VSYM_CHECK_OK(
                    vsym_coll_alltoall(c, src, dst, count, VSYM_DTYPE_I32, VSYM_COLL_ONESHOT));
            for (int r = 0; r < n; r++)
                for (size_t k = 0; k < count; k++) {
                    int32_t want = i * 4096 + (int32_t)k + (r << 24) + (kind == 2 ? me << 20 : 0);
                    VSYM_CHECK(dst[(size_t)r * count + k] == want,
                               "exchange stress, call %d: %s of %zu per rank: element %zu from "
                               "rank %d is %d, expected %d",
                               i, kind == 1 ? "all-gather" : "all-to-all", count, k, r,
                               dst[(size_t)r * count + k], want);
                }
        }
        xch += path != NULL && (strstr(path, "exchange") != NULL || strstr(path, "push") != NULL);
    }
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    free(src);
    free(dst);
    if (me == 0)
        printf("exchange stress (%d ranks%s): 2000 calls passed, %d through the push exchange or "
               "the pushed broadcast\n",
               n, remote ? ", as if remote" : "", xch);
}

/* A status of a call that waited for a rank that never came: VSYM_ERR_TIMED_OUT naming it. */
static void expect_timeout(vsym_status_t st, int peer, const char *what)
{
    char name[32];
    snprintf(name, sizeof name, "team rank %d ", peer);
    VSYM_CHECK(st == VSYM_ERR_TIMED_OUT && strstr(vsym_error_detail(), name) != NULL,
               "%s without rank %d: %s (%s), expected a timeout naming it", what, peer,
               vsym_status_str(st), vsym_error_detail());
}

/* Every wait of a collective for a peer ends in the handle's timeout and names the peer (each
 * kind of wait of lib/coll, on handles whose timeout is 0.3 s, 1 s with more ranks than cores):
 * rank n - 1 stays out of a small all-reduce (the low-latency units, or the scratch's barrier
 * where they do not run), a one-shot all-gather (the scratch's barrier), and, on a handle whose
 * peers are treated as remote, an all-reduce through the exchange's flagged words and 40 pushed
 * broadcasts from rank 0 (the root waits at call 33 for the count of rank n - 1; the others,
 * having had 33, then wait for the root). Every other rank gets VSYM_ERR_TIMED_OUT naming the
 * rank it waited for; then every rank restores the timeout and destroys the handles together. On
 * one node only: across pretend nodes a rank may wait for a rank of its node that itself waits
 * for rank n - 1, and names that one. */
static void t_missing_rank(vsym_team_t *team)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team), last = n - 1;
    vsym_coll_t *c, *far;
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    VSYM_CHECK_OK(vsym_coll_create(team, &far));
    force_remote_path(far);
    float v[8] = {1, 2, 3, 4, 5, 6, 7, 8}, r[8 * 64];
    /* What a handle makes at its first call of a kind (the exchange's memory) is made with every
     * rank. */
    VSYM_CHECK_OK(vsym_coll_allreduce(far, v, r, 2, VSYM_DTYPE_F32, VSYM_RED_SUM, VSYM_COLL_AUTO));
    VSYM_CHECK_OK(vsym_coll_allreduce(c, v, r, 2, VSYM_DTYPE_F32, VSYM_RED_SUM, VSYM_COLL_AUTO));
    VSYM_CHECK_OK(vsym_coll_allgather(c, v, r, 8, VSYM_DTYPE_F32, VSYM_COLL_ONESHOT));
    /* With more ranks than cores a present rank may wait a while for a core. */
    c->timeout = far->timeout = vsym_util_core_per_rank() ? 0.3 : 1.0;
    if (me != last) {
        expect_timeout(
            vsym_coll_allreduce(c, v, r, 2, VSYM_DTYPE_F32, VSYM_RED_SUM, VSYM_COLL_AUTO), last,
            "small all-reduce");
        expect_timeout(vsym_coll_allgather(c, v, r, 8, VSYM_DTYPE_F32, VSYM_COLL_ONESHOT), last,
                       "one-shot all-gather");
        expect_timeout(
            vsym_coll_allreduce(far, v, r, 2, VSYM_DTYPE_F32, VSYM_RED_SUM, VSYM_COLL_AUTO), last,
            "all-reduce through the flagged words");
        int ok = 0;
        vsym_status_t st = VSYM_OK;
        while (ok < 40 && (st = vsym_coll_broadcast(far, v, r, 2, VSYM_DTYPE_F32, 0,
                                                    VSYM_COLL_AUTO)) == VSYM_OK)
            ok++;
        /* The root sends call 33 to ranks 1 .. n - 2 before it waits for rank n - 1's count. */
        int want = me == 0 ? 32 : 33;
        VSYM_CHECK(ok == want, "pushed broadcasts without rank %d: %d returned, expected %d", last,
                   ok, want);
        expect_timeout(st, me == 0 ? last : 0, "the pushed broadcast after them");
    }
    c->timeout = far->timeout = 0;
    VSYM_CHECK_OK(vsym_coll_destroy(far));
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    if (me == 0) printf("missing rank (%d ranks): every wait timed out naming it\n", n);
}

static void expect_kind_path(vsym_coll_t *c, vsym_coll_kind_t kind, const void *src,
                             const void *dst, size_t count, vsym_coll_algo_t algo, const char *want,
                             const char *what)
{
    const char *got = vsym_coll_path(c, kind, src, dst, count, VSYM_DTYPE_F32, 0, algo);
    VSYM_CHECK(got != NULL && strcmp(got, want) == 0, "%s path, %s (%zu f32, %s): %s, expected %s",
               vsym_coll_kind_name(kind), what, count, vsym_coll_algo_name(algo),
               got ? got : "NULL", want);
}

static void expect_path(vsym_coll_t *c, const void *src, const void *dst, size_t count,
                        vsym_coll_algo_t algo, const char *want, const char *what)
{
    expect_kind_path(c, VSYM_COLL_KIND_ALLREDUCE, src, dst, count, algo, want, what);
}

/* The other collectives' paths, on a handle of n > 1 ranks (direct: every peer by load/store):
 * the algorithms each one has, and those it maps to another. */
static void kind_paths(vsym_coll_t *c, int n, int direct, float *x)
{
    const char *one = direct ? "oneshot" : "oneshot-exchange";
    const int pow2 = (n & (n - 1)) == 0;
    /* 4 f32 a block: AUTO's one-shot through the low-latency protocol where it takes them (the
     * all-gather's 16 B a rank, the others' n blocks); the forced others through the scratch */
    const char *ag_ll = direct && vsym_coll_blk_ll_usable(c, 16) ? "oneshot-ll" : one;
    const char *blk_ll = direct && vsym_coll_blk_ll_usable(c, 16 * (size_t)n) ? "oneshot-ll" : one;
    expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + 64, 4, VSYM_COLL_AUTO, ag_ll, "auto");
    expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + 64, 4, VSYM_COLL_ONESHOT, ag_ll,
                     "one-shot");
    expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, x, x + 64, 4, VSYM_COLL_AUTO, blk_ll, "auto");
    expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + 64, 4, VSYM_COLL_TWOSHOT, one, "two-shot");
    expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + 64, 4, VSYM_COLL_HIER, one, "HIER");
    expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + 64, 4, VSYM_COLL_RING, "ring", "ring");
    expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + 64, 4, VSYM_COLL_RD, pow2 ? "rd" : "ring",
                     "rd");
    expect_kind_path(c, VSYM_COLL_KIND_REDUCE_SCATTER, x, x + 64, 4, VSYM_COLL_AUTO, blk_ll,
                     "auto");
    expect_kind_path(c, VSYM_COLL_KIND_REDUCE_SCATTER, x, x + 64, 4, VSYM_COLL_RD, one, "rd");
    expect_kind_path(c, VSYM_COLL_KIND_REDUCE_SCATTER, x, x + 64, 4, VSYM_COLL_RING, "ring",
                     "ring");
    expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, x, x + 64, 4, VSYM_COLL_RING, one, "ring");
    expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, x, x, 0, VSYM_COLL_AUTO, "none", "count 0");
    /* The broadcast: AUTO one-shot on one node and up to 64 KiB, else scatter + all-gather. */
    expect_kind_path(c, VSYM_COLL_KIND_BROADCAST, x, x, 16384, VSYM_COLL_AUTO, "oneshot", "64 KiB");
    expect_kind_path(c, VSYM_COLL_KIND_BROADCAST, x, x, 16385, VSYM_COLL_AUTO,
                     direct ? "oneshot" : "twoshot", "64 KiB + 4");
    expect_kind_path(c, VSYM_COLL_KIND_BROADCAST, x, x, 4, VSYM_COLL_RING, "chain", "ring");
    expect_kind_path(c, VSYM_COLL_KIND_BROADCAST, x, x, 4, VSYM_COLL_RD, "tree", "rd");
    expect_kind_path(c, VSYM_COLL_KIND_BROADCAST, x, x, 4, VSYM_COLL_HIER, "twoshot", "HIER");
}

/* The all-reduce's process-copy limit a handle of team should have: VSYM_COLL_PCOPY_MIN where
 * set, else 2 MiB between 2 ranks, 1 MiB where more share cores, 4 MiB on 3-4 ranks with a core
 * each, never on more of those nor on AMD CPUs; 0 where some rank is not reached by
 * process-to-process copies. */
static size_t ar_pcopy_expected(vsym_coll_t *c, vsym_team_t *team)
{
    int n = vsym_team_size(team), pcopy = 1;
    for (int r = 0; r < n; r++)
        pcopy &= vsym_team_process_copy(team, r);
    return !pcopy || n < 2                 ? 0
           : getenv("VSYM_COLL_PCOPY_MIN") ? c->pcopy_min
           : vsym_util_cpu_amd()           ? 0
           : n == 2                        ? (size_t)2 << 20
           : !vsym_util_core_per_rank()    ? (size_t)1 << 20
           : n <= 4                        ? (size_t)4 << 20
                                           : 0;
}

/* The all-reduce of ordinary buffers through process-to-process copies (ar_pcopy): AUTO from the
 * limit, in place at any size, out of place while the ranks' src together stay within 32 MiB;
 * not below the limit, not a forced algorithm, not on symmetric buffers read in place. x: room for
 * 4 x big + 64 f32 twice. */
static void ar_pcopy_paths(vsym_coll_t *c, vsym_team_t *team, float *x, size_t big)
{
    const size_t arpc = ar_pcopy_expected(c, team), n = (size_t)vsym_team_size(team);
    VSYM_CHECK(c->ar_pcopy_min == arpc, "all-reduce's process-copy limit %zu, expected %zu",
               c->ar_pcopy_min, arpc);
    /* (and with a core per rank and with ranks sharing cores, whatever this machine has) */
    for (int own = 0; own < 2; own++) {
        vsym_util_core_per_rank_force(own);
        vsym_coll_t *h;
        VSYM_CHECK_OK(vsym_coll_create(team, &h));
        const size_t want = ar_pcopy_expected(h, team);
        VSYM_CHECK(h->ar_pcopy_min == want, "all-reduce's process-copy limit %zu %s, expected %zu",
                   h->ar_pcopy_min, own ? "with a core per rank" : "with ranks sharing cores",
                   want);
        VSYM_CHECK_OK(vsym_coll_destroy(h));
    }
    vsym_util_core_per_rank_force(-1);
    if (arpc == 0) {
        printf("# coll_ops: the all-reduce's process-copy path is not taken here (%s)\n",
               vsym_util_cpu_amd() ? "AMD CPU" : "no copies, or a core per rank beyond 2 ranks");
        return;
    }
    const size_t cnt = arpc / 4, far = 4 * big + 64; /* f32 at the limit; dst that far on */
    if (cnt <= far) {
        if (n * arpc <= ((size_t)32 << 20))
            expect_path(c, x, x + far, cnt, VSYM_COLL_AUTO, "process-copy",
                        "at the process-copy limit, out of place");
        expect_path(c, x, x, cnt, VSYM_COLL_AUTO, "process-copy", "at the limit, in place");
        expect_path(c, x, x + far, cnt, VSYM_COLL_RING, "ring", "at the limit, ring");
        expect_path(c, x, x + far, cnt, VSYM_COLL_TWOSHOT, "twoshot", "at the limit, two-shot");
        const char *ov = vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, x, x + 1, cnt, VSYM_DTYPE_F32,
                                        0, VSYM_COLL_AUTO);
        VSYM_CHECK(ov != NULL && strcmp(ov, "process-copy") != 0,
                   "all-reduce path at the process-copy limit, src and dst overlapping: %s",
                   ov ? ov : "NULL");
    }
    if (cnt - 1 <= far) {
        const char *below = vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, x, x + far, cnt - 1,
                                           VSYM_DTYPE_F32, 0, VSYM_COLL_AUTO);
        VSYM_CHECK(below != NULL && strcmp(below, "process-copy") != 0,
                   "all-reduce path 4 bytes below the process-copy limit: %s",
                   below ? below : "NULL");
    }
    /* Out of place beyond 32 MiB of the ranks' src together: through the scratch (addresses
     * only: vsym_coll_path reads no element). */
    const size_t over = ((size_t)32 << 20) / n / 4 + 1;
    if (over * 4 >= arpc) {
        float *y = malloc(2 * over * sizeof(float));
        VSYM_CHECK(y != NULL, "malloc");
        const char *p = vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, y, y + over, over,
                                       VSYM_DTYPE_F32, 0, VSYM_COLL_AUTO);
        VSYM_CHECK(p != NULL && strcmp(p, "process-copy") != 0,
                   "all-reduce path, %zu bytes a rank out of place (over 32 MiB together): %s",
                   over * 4, p ? p : "NULL");
        p = vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, y, y, over, VSYM_DTYPE_F32, 0,
                           VSYM_COLL_AUTO);
        VSYM_CHECK(p != NULL && strcmp(p, "process-copy") == 0,
                   "all-reduce path, %zu bytes a rank in place: %s, expected process-copy",
                   over * 4, p ? p : "NULL");
        free(y);
    }
}

/* The all-reduce through process-to-process copies (VSYM_COLL_PCOPY_MIN=1K; VSYM_COLL_SCRATCH
 * makes the blocks 4 KiB, so most cases take several): every dtype and op, in place and out of
 * place, segments of unequal length, data checked against the reference with the guard bytes,
 * the ranks' results bitwise the same. */
static void t_ar_pcopy(vsym_team_t *team, const char *name)
{
    int me = vsym_team_rank(team), n = vsym_team_size(team);
    vsym_coll_t *c;
    vsym_test_coll_with(team, "VSYM_COLL_PCOPY_MIN", "1K", &c);
    if (n < 2 || c->ar_pcopy_min == 0 || !c->all_direct) {
        if (me == 0)
            printf("# coll_ops: %s: the all-reduce's process-copy path is not checked (%s)\n", name,
                   n < 2 ? "one rank" : "a peer out of process-to-process copies' reach");
        VSYM_CHECK_OK(vsym_coll_destroy(c));
        return;
    }
    seed_calls = 0;
    const size_t counts[] = {1025, 3001, 40001};
    int cases = 0;
    for (int d = 0; d < VSYM_DTYPE_COUNT; d++)
        for (int o = 0; o < VSYM_RED_COUNT; o++) {
            const vsym_dtype_t dt = (vsym_dtype_t)d;
            const int is_int = dt == VSYM_DTYPE_I32 || dt == VSYM_DTYPE_I64 || dt == VSYM_DTYPE_U64;
            if ((o == VSYM_RED_PROD && !is_int) || !case_wanted(dt, (vsym_red_op_t)o)) continue;
            for (int ci = 0; ci < 3; ci++)
                for (int ip = 0; ip < 2; ip++) {
                    tcase_t t = {c, me, n, dt, (vsym_red_op_t)o, VSYM_COLL_AUTO, counts[ci], 0, ""};
                    snprintf(t.what, sizeof(t.what), "%s: allreduce process-copy %s %s count %zu%s",
                             name, vsym_dtype_name(dt), vsym_red_op_name(t.op), t.count,
                             ip ? " in place" : "");
                    char *b = malloc(2 * counts[ci] * vsym_dtype_size(dt));
                    VSYM_CHECK(b != NULL, "malloc");
                    const char *path = vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, b,
                                                      ip ? b : b + counts[ci] * vsym_dtype_size(dt),
                                                      counts[ci], dt, t.op, VSYM_COLL_AUTO);
                    VSYM_CHECK(path != NULL && strcmp(path, "process-copy") == 0,
                               "%s: path %s, expected process-copy", t.what, path ? path : "NULL");
                    free(b);
                    t_allreduce(&t, ip);
                    cases++;
                }
        }
    vsym_dtype_t fl[] = {VSYM_DTYPE_F32, VSYM_DTYPE_F16, VSYM_DTYPE_BF16};
    for (int k = 0; k < 3; k++)
        t_bitwise(c, team, fl[k], VSYM_COLL_AUTO, 2999, 77u + (unsigned)k);
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    if (me == 0)
        printf("%s (%d ranks): %d all-reduce cases through process-copy passed\n", name, n, cases);
}

/* vsym_coll_path: what AUTO runs by placement (the shm host, verbs on one device, 2 pretend
 * nodes x 2 ranks), forced algorithms, symmetric buffers, the other collectives, errors. */
static void t_paths(vsym_team_t *team)
{
    vsym_coll_t *c;
    int n = vsym_team_size(team), me = vsym_team_rank(team);
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    size_t big = 1 << 18; /* 1 MiB of f32 */
    /* Room for a src and a dst of 1 MiB and a few elements each. */
    /* the process-copy paths' checks: src and dst of up to 4 MiB, far apart */
    const size_t pc_far = 4 * big + 64;
    float *x = calloc(2 * pc_far + 128, sizeof(float)), *s;
    VSYM_CHECK(x != NULL, "calloc");
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, (2 * pc_far + 128) * sizeof(float), (void **)&s));
    int direct = 1;
    for (int r = 0; r < n; r++)
        direct &= vsym_obj_peer_ptr(c->scratch, r) != NULL;
    int nodes = vsym_team_num_nodes(team);
    int regular = nodes > 1 && nodes < n && n % nodes == 0;
    for (int r = 0; regular && r < n; r++)
        regular = vsym_team_node_of(team, r) == r / (n / nodes);
    expect_path(c, x, x, 0, VSYM_COLL_AUTO, "none", "count 0");
    if (n == 1) {
        expect_path(c, x, x + 1, 1, VSYM_COLL_AUTO, "copy", "one rank");
    } else if (direct) {
        expect_path(c, x, x + 8, 2, VSYM_COLL_AUTO,
                    vsym_coll_ll_usable(c, 8) ? "oneshot-ll" : "oneshot", "8 bytes on one node");
        expect_path(c, x, x, big, VSYM_COLL_RING, "ring", "forced");
        /* AUTO, 1 MiB of f32 from ordinary buffers: the ring up to 8 ranks, two-shot beyond;
         * between 2 ranks in place one-shot; and from 2 MiB: */
        if (getenv("VSYM_COLL_ALGO") == NULL) {
            const int amd = vsym_util_cpu_amd();
            const char *large = n <= 8 ? "ring" : "twoshot";
            /* (through process-to-process copies from the limit ar_pcopy_paths checks) */
            const size_t arpc = ar_pcopy_expected(c, team);
            expect_path(c, x, x + big, big, VSYM_COLL_AUTO,
                        arpc && 4 * big >= arpc ? "process-copy" : large, "1 MiB out of place");
            expect_path(c, x, x, big, VSYM_COLL_AUTO,
                        arpc && 4 * big >= arpc ? "process-copy"
                        : n == 2                ? "oneshot"
                                                : large,
                        "1 MiB in place");
            /* The broadcast's reader between 2 ranks asks for the next call's lines up to 2 of
             * them on AMD CPUs, else 5 (56 data bytes a line). */
            VSYM_CHECK(c->ll_next_max == (amd ? 112u : 280u),
                       "broadcast's next-call lines up to %zu bytes, expected %u", c->ll_next_max,
                       amd ? 112u : 280u);
            /* 2 MiB in place: beyond 2 ranks sharing cores two-shot, except on AMD CPUs. */
            const int shared_two = n > 2 && n <= 8 && !vsym_util_core_per_rank() && !amd;
            expect_path(c, x, x, 2 * big, VSYM_COLL_AUTO,
                        arpc && 8 * big >= arpc ? "process-copy"
                        : n == 2                ? "oneshot"
                        : shared_two            ? "twoshot"
                                                : large,
                        "2 MiB in place");
            ar_pcopy_paths(c, team, x, big);
            VSYM_CHECK(strcmp(vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, x, x, big, VSYM_DTYPE_F16,
                                             0, VSYM_COLL_AUTO),
                              n == 2 ? "ring" : "twoshot") == 0,
                       "all-reduce path, 512 KiB of f16 in place: %s",
                       vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, x, x, big, VSYM_DTYPE_F16, 0,
                                      VSYM_COLL_AUTO));
        }
        expect_path(c, x, x, big, VSYM_COLL_RD, "rd", "forced");
        expect_path(c, x, x, big, VSYM_COLL_HIER, "twoshot", "HIER on one node");
        /* Symmetric buffers read and written in place (VSYM_COLL_ZEROCOPY_MIN auto): out of
         * place from 1 MiB, in place from 4 KiB up to 4 ranks, from 256 KiB up to 8, from 1 MiB
         * beyond; on AMD CPUs up to 4 ranks in place from 16 KiB, out of place between 2 ranks
         * with a core each from 16 KiB (from 8 MiB while their cores lie far: t_cores_state) and
         * up to 4 ranks sharing cores from 256 KiB (4 MiB far; beyond 4 ranks 4 MiB); below, the
         * path of ordinary buffers. */
        const int zamd = vsym_util_cpu_amd(), zown = vsym_util_core_per_rank();
        const size_t kib = 1024,
                     out_min = !zamd    ? 1024 * kib
                               : !zown  ? (n <= 4 ? 256 : 4096) * kib
                               : n <= 2 ? 16 * kib
                                        : 1024 * kib,
                     in_min = n > 8   ? 1024 * kib
                              : n > 4 ? 256 * kib
                              : zamd  ? 16 * kib
                                      : 4 * kib;
        const char *plain64 = n == 2 ? "oneshot" : "twoshot"; /* 64 KiB of ordinary buffers */
        VSYM_CHECK(c->ar_zc_min[0] == out_min && c->ar_zc_min[1] == in_min,
                   "all-reduce in place on symmetric buffers from %zu (out of place) and %zu (in "
                   "place), expected %zu and %zu",
                   c->ar_zc_min[0], c->ar_zc_min[1], out_min, in_min);
        /* out of place with the cores far (t_cores_state): on AMD CPUs from 8 MiB between 2
         * ranks with a core each and from 4 MiB up to 4 ranks sharing cores, elsewhere as near */
        const size_t far_min = !zamd              ? out_min
                               : zown             ? (n == 2 ? 8192 * kib : out_min)
                               : n >= 2 && n <= 4 ? 4096 * kib
                                                  : out_min;
        VSYM_CHECK(c->ar_zc_far_min == far_min,
                   "all-reduce out of place on symmetric buffers with the cores far from %zu, "
                   "expected %zu",
                   c->ar_zc_far_min, far_min);
        /* the fused ops' (vsym_coll_fused_zc_min): all-reduce + all-gather in place from 1 MiB
         * on every CPU and core count, reduce-scatter + all-reduce never */
        VSYM_CHECK(vsym_coll_fused_zc_min(c, 1) == 1024 * kib &&
                       vsym_coll_fused_zc_min(c, 0) == SIZE_MAX,
                   "fused ops in place from %zu and %zu, expected 1 MiB and never",
                   vsym_coll_fused_zc_min(c, 1), vsym_coll_fused_zc_min(c, 0));
        expect_path(c, s, s + big, 16384, VSYM_COLL_AUTO,
                    65536 >= out_min ? "symmetric-in-place" : plain64, "symmetric buffers, 64 KiB");
        expect_path(c, s, s + big, big, VSYM_COLL_AUTO,
                    (size_t)big * 4 >= out_min ? "symmetric-in-place"
                    : n <= 8                   ? "ring"
                                               : "twoshot",
                    "symmetric buffers, 1 MiB");
        expect_path(c, s, s, 16384, VSYM_COLL_AUTO,
                    65536 >= in_min ? "symmetric-in-place" : plain64,
                    "symmetric buffers in place, 64 KiB");
        expect_path(c, s, s, big, VSYM_COLL_AUTO, "symmetric-in-place",
                    "symmetric buffers in place, 1 MiB");
        expect_path(c, s, s, 16384, VSYM_COLL_TWOSHOT,
                    65536 >= in_min ? "symmetric-in-place" : "twoshot",
                    "symmetric buffers in place, two-shot");
        /* The others read a symmetric src in place (auto): the all-gather from 2 MiB of output,
         * the reduce-scatter and the all-to-all from 2 MiB of src (the all-to-all in place from
         * 32 KiB), the broadcast never; on AMD CPUs between 2 ranks with a core each the
         * reduce-scatter and the all-to-all from 32 KiB, where ranks share cores the all-to-all
         * in place from 256 KiB and the reduce-scatter never. Counts of f32 either side. */
        const size_t mib2 = (size_t)1 << 19,         /* 2 MiB of f32 */
            nb = (mib2 + (size_t)n - 1) / (size_t)n; /* a block of n that make at least 2 MiB */
        const int amd_own = zamd && zown && n <= 2, amd_shared = zamd && !zown;
        const size_t k32 = (8192 + (size_t)n - 1) / (size_t)n, /* blocks of at least 32 KiB */
            k256 = (65536 + (size_t)n - 1) / (size_t)n;        /* and 256 KiB */
        struct {
            vsym_coll_kind_t kind;
            size_t count; /* per block (the broadcast's whole vector) */
            int in_place, zc;
        } zk[] = {
            {VSYM_COLL_KIND_ALLGATHER, nb, 0, 1},
            {VSYM_COLL_KIND_ALLGATHER, nb / 8, 0, 0},
            {VSYM_COLL_KIND_REDUCE_SCATTER, nb, 0, !amd_shared},
            {VSYM_COLL_KIND_REDUCE_SCATTER, k32, 0, amd_own},
            {VSYM_COLL_KIND_REDUCE_SCATTER, k32 - 1, 0, 0},
            {VSYM_COLL_KIND_ALLTOALL, nb, 0, 1},
            {VSYM_COLL_KIND_ALLTOALL, k32, 0, amd_own},
            {VSYM_COLL_KIND_ALLTOALL, k32 - 1, 0, 0},
            {VSYM_COLL_KIND_ALLTOALL, k32, 1, !amd_shared},
            {VSYM_COLL_KIND_ALLTOALL, k256, 1, 1},
            {VSYM_COLL_KIND_ALLTOALL, k256 - 1, 1, !amd_shared},
            {VSYM_COLL_KIND_ALLTOALL, 2048 / (size_t)n, 1, 0},
            {VSYM_COLL_KIND_BROADCAST, 16384, 0, 0},
            {VSYM_COLL_KIND_BROADCAST, mib2, 1, 0},
        };
        for (size_t k = 0; k < sizeof(zk) / sizeof(zk[0]); k++) {
            /* src at s, dst a little over 2 MiB further (in place: the same buffer; the
             * all-gather's src its rank's block of dst) */
            const float *zs = s, *zd = zk[k].in_place ? s : s + mib2 + 64;
            if (zk[k].kind == VSYM_COLL_KIND_ALLGATHER) zs = zd + (size_t)me * zk[k].count;
            const char *got = vsym_coll_path(c, zk[k].kind, zs, zd, zk[k].count, VSYM_DTYPE_F32, 0,
                                             VSYM_COLL_AUTO);
            VSYM_CHECK(got != NULL && (strcmp(got, "symmetric-in-place") == 0) == zk[k].zc,
                       "%s path, symmetric buffers%s, %zu f32 a block: %s, %sexpected in place",
                       vsym_coll_kind_name(zk[k].kind), zk[k].in_place ? " in place" : "",
                       zk[k].count, got ? got : "NULL", zk[k].zc ? "" : "not ");
        }
        expect_path(c, s, s + big, 16384, VSYM_COLL_RING, "ring", "symmetric buffers, ring");
        expect_path(c, s, s + 100, 16384, VSYM_COLL_AUTO, n == 2 ? "oneshot" : "twoshot",
                    "symmetric buffers overlapping");
        kind_paths(c, n, 1, x);
        /* The all-to-all of ordinary buffers from VSYM_COLL_PCOPY_MIN (auto: 1 MiB of src,
         * between 2 ranks 4 MiB, never on AMD CPUs) reads the peers' src with
         * process-to-process copies: AUTO and one-shot, out of place only. */
        int pcopy = 1;
        for (int r = 0; r < n; r++)
            pcopy &= vsym_team_process_copy(team, r);
        const int pc_amd = vsym_util_cpu_amd();
        size_t pc = !pcopy                          ? 0
                    : getenv("VSYM_COLL_PCOPY_MIN") ? c->pcopy_min
                    : n > 2                         ? 1 << 20
                    : pc_amd                        ? 0
                                                    : 4 << 20;
        VSYM_CHECK(c->pcopy_min == pc, "all-to-all's process-copy limit %zu, expected %zu",
                   c->pcopy_min, pc);
        if (pc == 0)
            printf("# coll_ops: %s: the all-to-all's process-copy path is not checked here\n",
                   !pcopy ? "no process-to-process copies on this node (vsym_team_process_copy)"
                          : "none by default between 2 ranks on AMD CPUs (the suite with "
                            "VSYM_COLL_PCOPY_MIN set checks it)");
        /* f32 per block: the fewest whose n blocks make pc bytes */
        size_t pcount = (pc / 4 + (size_t)n - 1) / (size_t)n;
        if (pc > 0) {
            expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, x, x + pc_far, pcount, VSYM_COLL_AUTO,
                             "process-copy", "all-to-all at the process-copy limit");
            expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, x, x + pc_far, pcount, VSYM_COLL_ONESHOT,
                             "process-copy", "all-to-all at the limit, one-shot");
            expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, x, x + pc_far, pcount, VSYM_COLL_RING,
                             "oneshot", "all-to-all at the limit, ring");
            expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, x, x, pcount, VSYM_COLL_AUTO, "oneshot",
                             "all-to-all at the limit, in place");
            expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, x, x + pc_far, pcount - 1, VSYM_COLL_AUTO,
                             "oneshot", "all-to-all below the process-copy limit");
            /* (symmetric buffers read in place from 2 MiB of src, 32 KiB between 2 ranks with a
             * core each on AMD CPUs: below, the ordinary buffers' path) */
            expect_kind_path(c, VSYM_COLL_KIND_ALLTOALL, s, s + pc_far, pcount, VSYM_COLL_AUTO,
                             pcount * 4 * (size_t)n >= (amd_own ? 32 * kib : 2048 * kib)
                                 ? "symmetric-in-place"
                                 : "process-copy",
                             "all-to-all of symmetric buffers");
        }
        /* The all-gather too, between 2 ranks only, from the setting where set (auto: 2 MiB a
         * rank, never on AMD CPUs) until its stores into dst stream (the ranks' src and dst over
         * twice VSYM_NT_THRESHOLD). */
        size_t gpc = !pcopy                          ? 0
                     : getenv("VSYM_COLL_PCOPY_MIN") ? c->pcopy_min
                     : pc_amd                        ? 0
                                                     : 2 << 20;
        VSYM_CHECK(c->ag_pcopy_min == gpc, "all-gather's process-copy limit %zu, expected %zu",
                   c->ag_pcopy_min, gpc);
        if (gpc >= 8) {
            const size_t gcount = gpc / 4, gb = gcount * 4;
            const int gstream = vsym_util_copy_streams((gb + (size_t)n * gb) * (size_t)n / 2);
            expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + pc_far, gcount, VSYM_COLL_AUTO,
                             n == 2 && !gstream ? "process-copy" : "oneshot",
                             "all-gather at the process-copy limit");
            expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + pc_far, gcount - 1, VSYM_COLL_AUTO,
                             "oneshot", "all-gather below the process-copy limit");
            expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x + (size_t)me * gcount, x, gcount,
                             VSYM_COLL_AUTO, "oneshot", "all-gather at the limit, in place");
            expect_kind_path(c, VSYM_COLL_KIND_ALLGATHER, x, x + pc_far, gcount, VSYM_COLL_RING,
                             "ring", "all-gather at the limit, ring");
        }
        /* VSYM_COLL_STREAM_MIN: auto streams the broadcast's publishes from 32 KiB and the
         * all-gather's from 4 KiB per rank (where ranks share cores) on AMD CPUs of family 25,
         * never elsewhere (family 26 forced too); a size sets both; 0 never (SIZE_MAX). */
        if (getenv("VSYM_COLL_STREAM_MIN") == NULL) {
            const int amd = vsym_util_amd_streams_near();
            size_t bc = amd ? 32768 : SIZE_MAX,
                   ag = amd && !vsym_util_core_per_rank() ? 4096 : SIZE_MAX;
            VSYM_CHECK(c->bc_stream_min == bc && c->ag_stream_min == ag,
                       "streaming limits %zu and %zu, expected %zu and %zu", c->bc_stream_min,
                       c->ag_stream_min, bc, ag);
            vsym_util_cpu_amd_force(1);
            for (int fam = 25; fam <= 26; fam++) {
                vsym_coll_t *c2;
                vsym_util_cpu_family_force(fam);
                VSYM_CHECK_OK(vsym_coll_create(team, &c2));
                const size_t bw = fam == 25 ? 32768 : SIZE_MAX,
                             aw = fam == 25 && !vsym_util_core_per_rank() ? 4096 : SIZE_MAX;
                VSYM_CHECK(c2->bc_stream_min == bw && c2->ag_stream_min == aw,
                           "AMD family %d: streaming limits %zu and %zu, expected %zu and %zu", fam,
                           c2->bc_stream_min, c2->ag_stream_min, bw, aw);
                VSYM_CHECK_OK(vsym_coll_destroy(c2));
            }
            vsym_util_cpu_family_force(-1);
            vsym_util_cpu_amd_force(-1);
            const char *set[] = {"0", "1", "96K"};
            const size_t want[] = {SIZE_MAX, 1, 98304};
            for (int k = 0; k < 3; k++) {
                vsym_coll_t *c2;
                setenv("VSYM_COLL_STREAM_MIN", set[k], 1);
                VSYM_CHECK_OK(vsym_settings_check());
                VSYM_CHECK_OK(vsym_coll_create(team, &c2));
                VSYM_CHECK(c2->bc_stream_min == want[k] && c2->ag_stream_min == want[k],
                           "VSYM_COLL_STREAM_MIN=%s: limits %zu and %zu, expected %zu", set[k],
                           c2->bc_stream_min, c2->ag_stream_min, want[k]);
                VSYM_CHECK_OK(vsym_coll_destroy(c2));
            }
            unsetenv("VSYM_COLL_STREAM_MIN");
            VSYM_CHECK_OK(vsym_settings_check());
        }
        /* The broadcast's own limit of the low-latency protocol: 256 B between 2 ranks, beyond
         * them 1 KiB, 2 KiB with more ranks than cores (VSYM_COLL_LL_MAX where set); up to it
         * and not beyond. */
        size_t bc_ll = 0;
        if (n > 1 && vsym_coll_ll_usable(c, 8))
            bc_ll = getenv("VSYM_COLL_LL_MAX")  ? c->ll_max
                    : n == 2                    ? 256
                    : vsym_util_core_per_rank() ? 1024
                                                : 2048;
        VSYM_CHECK(c->bc_ll_max == bc_ll || bc_ll == 0,
                   "broadcast's low-latency limit %zu, expected %zu", c->bc_ll_max, bc_ll);
        if (bc_ll > 0)
            expect_kind_path(c, VSYM_COLL_KIND_BROADCAST, x, x, bc_ll / 4, VSYM_COLL_AUTO,
                             "oneshot-ll", "at the low-latency limit");
        expect_kind_path(c, VSYM_COLL_KIND_BROADCAST, x, x, bc_ll / 4 + 1, VSYM_COLL_AUTO,
                         "oneshot", "above the low-latency limit");
        /* The same team with every peer treated as out of load/store reach. */
        vsym_coll_t *far;
        VSYM_CHECK_OK(vsym_coll_create(team, &far));
        force_remote_path(far);
        expect_path(far, x, x, 2, VSYM_COLL_AUTO, "oneshot-exchange", "8 bytes as if remote");
        kind_paths(far, n, 0, x);
        VSYM_CHECK_OK(vsym_coll_destroy(far));
    } else if (regular) {
        /* Several nodes of equal size: one-shot once per node up to 4 KiB, then HIER. */
        expect_path(c, x, x, 1024, VSYM_COLL_AUTO, "oneshot-nodes", "4 KiB across nodes");
        expect_path(c, x, x, 1025, VSYM_COLL_AUTO, "hier", "4100 bytes across nodes");
        expect_path(c, s, s + big, big, VSYM_COLL_AUTO, "hier", "symmetric, 1 MiB across nodes");
        expect_path(c, x, x, big, VSYM_COLL_ONESHOT, "oneshot-nodes", "forced across nodes");
        kind_paths(c, n, 0, x);
        /* HIER is an all-reduce: an all-gather asked for it runs without the sub-teams. */
        VSYM_CHECK_OK(vsym_coll_allgather(c, x, x + 64, 4, VSYM_DTYPE_F32, VSYM_COLL_HIER));
        VSYM_CHECK(c->node_coll == NULL && c->inter_coll == NULL,
                   "an all-gather with HIER made the all-reduce's sub-teams");
        VSYM_CHECK_OK(vsym_coll_allreduce(c, x, x + 2048, 1025, VSYM_DTYPE_F32, VSYM_RED_SUM,
                                          VSYM_COLL_HIER));
        VSYM_CHECK(c->node_coll != NULL && c->inter_coll != NULL,
                   "a HIER all-reduce across nodes ran without its sub-teams");
    } else {
        expect_path(c, x, x, 2, VSYM_COLL_AUTO, "oneshot-exchange", "8 bytes over verbs");
        expect_path(c, x, x, big, VSYM_COLL_AUTO, n == 2 ? "oneshot-exchange" : "ring",
                    "1 MiB over verbs");
        expect_path(c, s, s + big, big, VSYM_COLL_HIER, "twoshot", "HIER without nodes");
        kind_paths(c, n, 0, x);
    }
    /* The arguments the call would reject: NULL and the reason. */
    VSYM_CHECK(vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, x, x, 1, (vsym_dtype_t)99, 0,
                              VSYM_COLL_AUTO) == NULL &&
                   strstr(vsym_error_detail(), "unknown dtype") != NULL,
               "path of a bad dtype: %s", vsym_error_detail());
    VSYM_CHECK(vsym_coll_path(c, VSYM_COLL_KIND_ALLGATHER, x, x, 1, VSYM_DTYPE_F32, 0,
                              (vsym_coll_algo_t)42) == NULL &&
                   strstr(vsym_error_detail(), "unknown algorithm") != NULL,
               "path of a bad algorithm: %s", vsym_error_detail());
    VSYM_CHECK(vsym_coll_path(c, (vsym_coll_kind_t)9, x, x, 1, VSYM_DTYPE_F32, 0, VSYM_COLL_AUTO) ==
                       NULL &&
                   strstr(vsym_error_detail(), "unknown collective 9") != NULL,
               "path of a bad collective: %s", vsym_error_detail());
    VSYM_CHECK(vsym_coll_path(c, VSYM_COLL_KIND_BROADCAST, x, x, 1, VSYM_DTYPE_F32, n,
                              VSYM_COLL_AUTO) == NULL &&
                   strstr(vsym_error_detail(), "root") != NULL,
               "path of a broadcast from a root outside the team: %s", vsym_error_detail());
    VSYM_CHECK(vsym_coll_path(c, VSYM_COLL_KIND_REDUCE_SCATTER, NULL, x, 1, VSYM_DTYPE_F32, 0,
                              VSYM_COLL_AUTO) == NULL &&
                   strstr(vsym_error_detail(), "NULL source") != NULL,
               "path of a NULL source: %s", vsym_error_detail());
    /* Only the root reads the broadcast's source. */
    if (n > 1)
        expect_kind_path(c, VSYM_COLL_KIND_BROADCAST, c->me == 1 ? NULL : x, x, 4, VSYM_COLL_AUTO,
                         vsym_coll_bc_ll_usable(c, 16) ? "oneshot-ll"
                         : c->all_direct               ? "oneshot"
                                                       : "oneshot-push",
                         "src NULL off the root");
    VSYM_CHECK(vsym_coll_path(NULL, VSYM_COLL_KIND_ALLREDUCE, x, x, 1, VSYM_DTYPE_F32, 0,
                              VSYM_COLL_AUTO) == NULL,
               "path of a NULL handle");
    VSYM_CHECK_OK(vsym_coll_buffer_free(c, s));
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    free(x);
}

static void bad_arguments(vsym_team_t *team)
{
    vsym_coll_t *c;
    float x[4] = {0};
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    VSYM_CHECK_STATUS(
        vsym_coll_allreduce(c, x, x, 1, (vsym_dtype_t)99, VSYM_RED_SUM, VSYM_COLL_AUTO),
        VSYM_ERR_BAD_DTYPE, "dtype");
    VSYM_CHECK_STATUS(
        vsym_coll_allreduce(c, x, x, 1, VSYM_DTYPE_F32, VSYM_RED_PROD, VSYM_COLL_AUTO),
        VSYM_ERR_BAD_OP, "prod");
    VSYM_CHECK_STATUS(
        vsym_coll_reduce_scatter(c, x, x, 1, VSYM_DTYPE_I32, (vsym_red_op_t)7, VSYM_COLL_AUTO),
        VSYM_ERR_BAD_OP, "op");
    VSYM_CHECK_STATUS(vsym_coll_allgather(c, x, x, 1, VSYM_DTYPE_F32, (vsym_coll_algo_t)42),
                      VSYM_ERR_BAD_MODE, "algorithm");
    VSYM_CHECK_STATUS(
        vsym_coll_allreduce(c, x, x, SIZE_MAX / 2, VSYM_DTYPE_F64, VSYM_RED_SUM, VSYM_COLL_AUTO),
        VSYM_ERR_BAD_SIZE, "overflows");
    /* The first count whose bytes for the whole team (count x 8 x n) overflow. */
    VSYM_CHECK_STATUS(vsym_coll_allgather(c, x, x,
                                          SIZE_MAX / (8 * (size_t)vsym_team_size(team)) + 1,
                                          VSYM_DTYPE_F64, VSYM_COLL_AUTO),
                      VSYM_ERR_BAD_SIZE, "overflows");
    VSYM_CHECK_STATUS(
        vsym_coll_allreduce(c, NULL, x, 1, VSYM_DTYPE_F32, VSYM_RED_SUM, VSYM_COLL_AUTO),
        VSYM_ERR_INVALID_PARAM, "NULL");
    VSYM_CHECK_STATUS(
        vsym_coll_broadcast(c, x, x, 1, VSYM_DTYPE_F32, vsym_team_size(team), VSYM_COLL_AUTO),
        VSYM_ERR_BAD_RANK, "root");
    vsym_dtype_t dt;
    vsym_coll_algo_t al;
    VSYM_CHECK_STATUS(vsym_dtype_from_name("f8", &dt), VSYM_ERR_BAD_DTYPE, "f8");
    VSYM_CHECK_STATUS(vsym_coll_algo_from_name("fastest", &al), VSYM_ERR_BAD_MODE, "fastest");
    /* Zero-length calls succeed and leave the buffer alone. */
    VSYM_CHECK_OK(
        vsym_coll_allreduce(c, NULL, NULL, 0, VSYM_DTYPE_F32, VSYM_RED_SUM, VSYM_COLL_AUTO));
    VSYM_CHECK_OK(vsym_coll_destroy(c));
}

/* One step of main: rank 0 prints how long it took. */
static int step_rank;
#define STEP(call) VSYM_TEST_STEP(step_rank == 0, call)

/* The out-of-place all-reduce of symmetric buffers on AMD CPUs takes its path by the cores' state
 * (between 2 ranks with a core each in place from 16 KiB near, from 8 MiB far; up to 4 ranks
 * sharing cores from 256 KiB near, 4 MiB far). Rank 0 finds the state by timing a line's round
 * trip (with rank 1, or against a thread of its own where ranks share cores) and tells the others
 * at the first such call of 8 KiB or more and again after every 16 MiB of them: every rank must
 * take the same path at every call. Here on any CPU (an AMD CPU forced, and a core per rank
 * between 2 ranks, shared cores with 3 or 4), rank 0's round trips taken as 600 ns (far), then
 * 100 (near): the other ranks, which time none, follow. Each result checked (a rank that took the
 * other path would time out or leave wrong sums). Beyond 4 ranks the state stays unknown and the
 * path that of the cores near. */
static void t_cores_state(vsym_team_t *team)
{
    int n = vsym_team_size(team), me = vsym_team_rank(team);
    const int own = n == 2, shared = n == 3 || n == 4;
    if (own || shared) {
        vsym_util_cpu_amd_force(1);
        vsym_util_core_per_rank_force(own);
    }
    vsym_coll_t *c;
    VSYM_CHECK_OK(vsym_coll_create(team, &c));
    /* 64 KiB of f32 between 2 ranks, 256 KiB where ranks share cores: in place near only */
    const size_t count = own ? 16384 : 65536, bytes = count * sizeof(float);
    const int calls = (int)(((size_t)16 << 20) / bytes) + 1; /* the last one probes again */
    float *s, *x = malloc(2 * bytes);
    VSYM_CHECK(x != NULL, "no memory");
    VSYM_CHECK_OK(vsym_coll_buffer_alloc(c, 2 * bytes, (void **)&s));
    float *d = s + count;
    VSYM_CHECK(c->cores_far == -1, "cores' state %d before any call, expected -1", c->cores_far);
    if (!(own || shared) || !c->all_direct) {
        VSYM_CHECK(
            c->ar_zc_far_min == c->ar_zc_min[0],
            "%d ranks: out of place from %zu with the cores far, %zu near: expected the same", n,
            c->ar_zc_far_min, c->ar_zc_min[0]);
    } else {
        const size_t near_min = own ? 16384 : 262144, far_min = (size_t)(own ? 8 : 4) << 20;
        VSYM_CHECK(c->ar_zc_far_min == far_min && c->ar_zc_min[0] == near_min,
                   "%d ranks%s: out of place from %zu far and %zu near, expected %zu and %zu", n,
                   own ? ", a core each" : " sharing cores", c->ar_zc_far_min, c->ar_zc_min[0],
                   far_min, near_min);
        /* the ordinary buffers' path of the size: the symmetric ones' while the cores lie far */
        const char *plain = vsym_coll_path(c, VSYM_COLL_KIND_ALLREDUCE, x, x + count, count,
                                           VSYM_DTYPE_F32, 0, VSYM_COLL_AUTO);
        VSYM_CHECK(plain != NULL && strcmp(plain, "symmetric-in-place") != 0,
                   "ordinary buffers' path %s", plain ? plain : "(none)");
        expect_path(c, s, d, count, VSYM_COLL_AUTO, "symmetric-in-place", "state unknown");
        if (me == 0) c->rtt_fake = 600;
        /* call 1 probes (far); the calls after it make 16 MiB; the last probes again (near) */
        for (int call = 1; call <= calls; call++) {
            if (call == 2 && me == 0) {
                c->rtt_fake = 100;
                c->rtt_last = vsym_util_time_ns() - 2000000000u; /* rank 0's thread probe due */
            }
            ar_checked(c, s, d, count, call, VSYM_COLL_AUTO, "cores' state test");
            const int far = call < calls;
            if (call == 1 || call == calls - 1 || call == calls) {
                VSYM_CHECK(c->cores_far == far,
                           "rank %d of %d after call %d: cores' state %d, expected %d (rank 0 "
                           "timed %s)",
                           me, n, call, c->cores_far, far, far ? "600 ns" : "100 ns");
                expect_path(c, s, d, count, VSYM_COLL_AUTO, far ? plain : "symmetric-in-place",
                            far ? "cores far" : "cores near");
                expect_path(c, s, s, count, VSYM_COLL_AUTO, "symmetric-in-place",
                            "in place, either state");
            }
        }
        VSYM_CHECK(vsym_coll_line_rtt(c) == 100, "the team's record %llu ns, expected 100",
                   (unsigned long long)vsym_coll_line_rtt(c));
    }
    VSYM_CHECK_OK(vsym_coll_buffer_free(c, s));
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    free(x);
    vsym_util_cpu_amd_force(-1);
    vsym_util_core_per_rank_force(-1);
}

int main(int argc, char **argv)
{
    slow = argc > 1 && strcmp(argv[1], "--slow") == 0;
    transport_scope = vsym_test_scope_is("transport");
    full_scope = vsym_test_scope_is("full");
    /* Small scratch regions make every size above 4 KiB run in several chunks. */
    setenv("VSYM_COLL_SCRATCH", slow ? "64K" : "4K", 1);
    vsym_ctx_t *ctx;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int n = vsym_team_size(world), me = vsym_team_rank(world);
    step_rank = me;
    bad_arguments(world);
    STEP(t_paths(world));
    STEP(t_symmetric(world, "auto"));
    /* Symmetric buffers read (and the all-reduce's written) in place from 4 KiB at every team
     * size and out of place (auto, not on AMD CPUs: the all-reduce out of place from 1 MiB, the
     * all-gather, reduce-scatter and all-to-all from 2 MiB, the broadcast never; t_paths checks
     * those), through the in-place paths' tests below and the streaming stores' block. */
    setenv("VSYM_COLL_ZEROCOPY_MIN", "4K", 1);
    VSYM_CHECK_OK(vsym_settings_check());
    STEP(t_symmetric(world, "auto, in place from 4K"));
    STEP(t_symmetric_gathers(world, 0));
    if (!transport_scope) STEP(t_symmetric_gathers(world, 1));
    STEP(t_fresh_handles(world));
    if (!transport_scope) STEP(t_line_rtt(world));
    if (!transport_scope)
        STEP(t_ll_stress(world)); /* the low-latency protocol is shared memory's */
    STEP(t_exchange_stress(world, 0));
    if (!transport_scope) STEP(t_exchange_stress(world, 1));
    STEP(t_symmetric_broadcast(world, 0));
    /* (one node: across pretend nodes a rank may wait for one that itself waits) */
    if (n > 1 && !transport_scope && vsym_team_num_nodes(world) == 1) STEP(t_missing_rank(world));
    if (!transport_scope) STEP(t_buffer_order(world));
    if (!transport_scope) STEP(t_symmetric_broadcast(world, 1));
    /* Every push of a result non-temporal (and the reduce-scatter's stores, the copies out of
     * the peers' symmetric buffers). Stores of the CPU, not of a transport or a team size: the
     * transport scope (the VM groups, whose emulated CPU runs a streaming store as an ordinary
     * one) and the scale scope (7 and 16 ranks) leave them to the host's runs at 2-4 ranks and
     * the *_full groups. */
    if (full_scope) {
        setenv("VSYM_NT_THRESHOLD", "4K", 1);
        VSYM_CHECK_OK(vsym_settings_check());
        STEP(t_symmetric(world, "4K"));
        STEP(t_symmetric_gathers(world, 0));
        STEP(t_symmetric_broadcast(world, 0));
        /* Through the scratch, the stores into an out-of-place dst of ordinary buffers
         * non-temporal too (from 4 KiB of the ranks' src and dst together). */
        STEP(suite(world, "world (dst streamed from 4K)", 0));
        unsetenv("VSYM_NT_THRESHOLD");
    }
    unsetenv("VSYM_COLL_ZEROCOPY_MIN");
    VSYM_CHECK_OK(vsym_settings_check());
    /* (in the transport scope too: teams whose ranks do not all reach each other by load and
     * store only check that one limit holds, which the VM groups' teams are) */
    STEP(t_cores_state(world));
    /* What every rank publishes into its scratch (copies, the reductions of the two-shot and
     * ring paths) stored with non-temporal stores, as VSYM_PUBLISH_STREAM auto does where the
     * peers' lines are far. */
    if (full_scope) {
        setenv("VSYM_PUBLISH_STREAM", "on", 1);
        VSYM_CHECK_OK(vsym_settings_check());
        STEP(suite(world, "world (published with streaming stores)", 0));
        unsetenv("VSYM_PUBLISH_STREAM");
        VSYM_CHECK_OK(vsym_settings_check());
    }
    STEP(t_ar_pcopy(world, "world"));
    if (n >= 3) {
        vsym_team_t *sub; /* ranks 1..n-1: team ranks that are not world ranks */
        VSYM_CHECK_OK(vsym_team_split_strided(world, 1, 1, n - 1, &sub));
        if (sub != NULL) {
            STEP(t_ar_pcopy(sub, "ranks 1..n-1"));
            VSYM_CHECK_OK(vsym_team_destroy(sub));
        }
    }
    int reps = slow ? 3 : 1;
    for (int rep = 0; rep < reps; rep++) {
        /* The world's all-to-alls of at least 1 KiB read the peers' src with process-to-process
         * copies (where the probe found them; the sub-teams below go through the scratch), and
         * its broadcasts and all-gathers publish with non-temporal stores from 1 byte. */
        setenv("VSYM_COLL_PCOPY_MIN", "1K", 1);
        setenv("VSYM_COLL_STREAM_MIN", "1", 1);
        VSYM_CHECK_OK(vsym_settings_check());
        STEP(suite(world, "world", 0));
        unsetenv("VSYM_COLL_PCOPY_MIN");
        unsetenv("VSYM_COLL_STREAM_MIN");
        VSYM_CHECK_OK(vsym_settings_check());
        STEP(suite(world, "world", 1));
        if (n >= 3) {
            /* Ranks 1..n-1: a team of n-1 ranks (3 of 4: not a power of two). */
            vsym_team_t *sub;
            VSYM_CHECK_OK(vsym_team_split_strided(world, 1, 1, n - 1, &sub));
            if (sub != NULL) {
                STEP(suite(sub, "ranks 1..n-1", 0));
                VSYM_CHECK_OK(vsym_team_destroy(sub));
            }
        }
        if (n >= 4) {
            /* Even ranks and odd ranks: two strided teams running side by side (with n odd,
             * rank n - 1 is in neither). */
            vsym_team_t *even, *odd;
            VSYM_CHECK_OK(vsym_team_split_strided(world, 0, 2, n / 2, &even));
            VSYM_CHECK_OK(vsym_team_split_strided(world, 1, 2, n / 2, &odd));
            if (even != NULL || odd != NULL) {
                STEP(suite(even ? even : odd, even ? "even ranks" : "odd ranks", 0));
                VSYM_CHECK_OK(vsym_team_destroy(even ? even : odd));
            }
        }
    }
    (void)me;
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
