/* api mode: a compact form of the library's conformance checks, as one program that users run on
 * their own cluster: put/get at several sizes between every pair of ranks (self included),
 * non-blocking RMA, atomics with exact counts, signals and put-with-signal, barriers, teams, and
 * the error statuses of bad calls. Every rank runs every collective call whatever happened
 * before, so that one failed check never leaves the others waiting; each rank's outcome is
 * gathered to rank 0 with vsym_team_exchange. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conform.h"
#include "util/util.h"

#define API_CHECKS(X)                                                                              \
    X(RMA, "put_get_all_pairs")                                                                    \
    X(NBI, "put_get_nbi")                                                                          \
    X(ATOMICS, "atomics_exact_counts")                                                             \
    X(SIGNALS, "signals")                                                                          \
    X(BARRIER, "barrier")                                                                          \
    X(TEAMS, "teams")                                                                              \
    X(ERRORS, "error_statuses")

enum {
#define API_ENUM_(id, name) API_##id,
    API_CHECKS(API_ENUM_)
#undef API_ENUM_
        API_COUNT
};
static const char *const api_names[] = {
#define API_NAME_(id, name) name,
    API_CHECKS(API_NAME_)
#undef API_NAME_
};

typedef struct api_rank {
    int32_t failed[API_COUNT];
    int32_t asserts[API_COUNT];
    double time_s[API_COUNT];
    char msg[API_COUNT][120];
} api_rank_t;

static api_rank_t R;

static void expect(int id, int cond, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void expect(int id, int cond, const char *fmt, ...)
{
    R.asserts[id]++;
    if (cond || R.failed[id]++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(R.msg[id], sizeof(R.msg[id]), fmt, ap);
    va_end(ap);
}

#define OK(id, expr)                                                                               \
    do {                                                                                           \
        vsym_status_t st_ = (expr);                                                                \
        expect(id, st_ == VSYM_OK, "%s: %s: %s", #expr, vsym_status_name(st_),                    \
               vsym_error_detail());                                                               \
    } while (0)
#define STATUS(id, expr, want)                                                                     \
    do {                                                                                           \
        vsym_status_t st_ = (expr);                                                                \
        expect(id, st_ == (want), "%s returned %s, expected %s (%s)", #expr,                      \
               vsym_status_name(st_), #want, vsym_error_detail());                                 \
    } while (0)

static void pattern(uint8_t *buf, size_t len, int src, int dst, size_t size)
{
    uint32_t x = (uint32_t)(src * 7919 + dst * 104729 + (int)size) | 1u;
    for (size_t i = 0; i < len; i++) {
        x = x * 1664525u + 1013904223u;
        buf[i] = (uint8_t)(x >> 24);
    }
}

static void check_rma(vsym_team_t *w, double T)
{
    int me = vsym_team_rank(w), n = vsym_team_size(w);
    size_t max = (size_t)1 << 20;
    while (max > 4096 && max * (size_t)n > ((size_t)32 << 20))
        max /= 2;
    const size_t sizes[] = {1, 8, 100, 4096, 65536, max};
    vsym_obj_t *obj = NULL;
    uint8_t *buf = malloc(max), *exp = malloc(max);
    OK(API_RMA, vsym_alloc(w, max * (size_t)n, &obj));
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]) && obj && buf && exp; k++) {
        size_t s = sizes[k] < max ? sizes[k] : max;
        for (int j = 0; j < n; j++) {
            pattern(buf, s, me, j, s);
            OK(API_RMA, vsym_put(obj, j, (size_t)me * max, buf, s));
        }
        OK(API_RMA, vsym_team_barrier(w, T));
        uint8_t *mem = vsym_obj_ptr(obj);
        for (int j = 0; j < n; j++) {
            pattern(exp, s, j, me, s);
            expect(API_RMA, memcmp(mem + (size_t)j * max, exp, s) == 0,
                   "put of %zu bytes from rank %d: data wrong", s, j);
        }
        for (int j = 0; j < n; j++) {
            OK(API_RMA, vsym_get(obj, j, (size_t)me * max, buf, s));
            pattern(exp, s, me, j, s);
            expect(API_RMA, memcmp(buf, exp, s) == 0, "get of %zu bytes from rank %d: data wrong",
                   s, j);
        }
        OK(API_RMA, vsym_team_barrier(w, T));
    }
    if (obj) {
        /* Non-blocking forms: every rank writes its block to every peer, quiet, barrier. */
        size_t s = max < 4096 ? max : 4096;
        for (int j = 0; j < n; j++) {
            pattern(buf + 0, s, me, j, s + 1);
            OK(API_NBI, vsym_put_nbi(obj, j, (size_t)me * max, buf, s));
            OK(API_NBI, vsym_quiet(vsym_team_ctx(w)));
        }
        OK(API_NBI, vsym_team_barrier(w, T));
        for (int j = 0; j < n; j++) {
            OK(API_NBI, vsym_get_nbi(obj, j, (size_t)me * max, buf, s));
            OK(API_NBI, vsym_quiet(vsym_team_ctx(w)));
            pattern(exp, s, me, j, s + 1);
            expect(API_NBI, memcmp(buf, exp, s) == 0, "get_nbi from rank %d: data wrong", j);
        }
        OK(API_NBI, vsym_team_barrier(w, T));
    }
    OK(API_RMA, vsym_obj_free(obj));
    free(buf);
    free(exp);
}

static void check_atomics(vsym_team_t *w, double T)
{
    int me = vsym_team_rank(w), n = vsym_team_size(w);
    const uint64_t K = 50;
    vsym_obj_t *obj = NULL;
    uint64_t old = 0, v = 0;
    OK(API_ATOMICS, vsym_alloc(w, 64, &obj));
    if (obj)
        memset(vsym_obj_ptr(obj), 0, 64);
    OK(API_ATOMICS, vsym_team_barrier(w, T));
    for (int j = 0; j < n && obj; j++) {
        int64_t prev = -1;
        for (uint64_t k = 0; k < K; k++) {
            OK(API_ATOMICS, vsym_atomic64(obj, j, 0, VSYM_AMO_FETCH_ADD, 1, 0, &old));
            expect(API_ATOMICS, (int64_t)old > prev, "fetch-add on rank %d returned %llu after "
                   "%lld", j, (unsigned long long)old, (long long)prev);
            prev = (int64_t)old;
        }
        uint32_t old32 = 0;
        OK(API_ATOMICS, vsym_atomic32(obj, j, 16, VSYM_AMO_FETCH_ADD, 3, 0, &old32));
    }
    if (obj)
        OK(API_ATOMICS, vsym_atomic64(obj, 0, 8, VSYM_AMO_CSWAP, (uint64_t)me + 1, 0, &old));
    int32_t won = obj && old == 0, *all = calloc((size_t)n, sizeof(int32_t));
    OK(API_ATOMICS, vsym_team_barrier(w, T));
    if (obj) {
        OK(API_ATOMICS, vsym_atomic64(obj, me, 0, VSYM_AMO_FETCH, 0, 0, &v));
        expect(API_ATOMICS, v == (uint64_t)n * K, "counter %llu after %d ranks x %llu "
               "fetch-adds", (unsigned long long)v, n, (unsigned long long)K);
        uint32_t v32 = 0;
        OK(API_ATOMICS, vsym_atomic32(obj, me, 16, VSYM_AMO_FETCH, 0, 0, &v32));
        expect(API_ATOMICS, v32 == 3u * (uint32_t)n, "32-bit counter %u, expected %u", v32,
               3u * (uint32_t)n);
    }
    OK(API_ATOMICS, vsym_team_exchange(w, &won, sizeof(won), all));
    int winners = 0;
    for (int j = 0; j < n; j++)
        winners += all[j];
    expect(API_ATOMICS, winners == 1, "%d ranks won one compare-swap", winners);
    free(all);
    OK(API_ATOMICS, vsym_obj_free(obj));
}

static void check_signals(vsym_team_t *w, double T)
{
    int me = vsym_team_rank(w), n = vsym_team_size(w), right = (me + 1) % n,
        left = (me + n - 1) % n;
    vsym_obj_t *obj = NULL;
    uint8_t buf[4096], exp[4096];
    OK(API_SIGNALS, vsym_alloc(w, 2 * 4096 + 64, &obj));
    if (obj)
        memset(vsym_obj_ptr(obj), 0, 2 * 4096 + 64);
    OK(API_SIGNALS, vsym_team_barrier(w, T));
    if (obj) {
        for (int round = 0; round < 3; round++) {
            pattern(buf, sizeof(buf), me, right, (size_t)round);
            OK(API_SIGNALS, vsym_put_with_signal(obj, right, 0, buf, sizeof(buf), 2, T));
            OK(API_SIGNALS, vsym_signal_wait(obj, left, 2, T));
            pattern(exp, sizeof(exp), left, me, (size_t)round);
            expect(API_SIGNALS, memcmp(vsym_obj_ptr(obj), exp, sizeof(exp)) == 0,
                   "put_with_signal from rank %d: data wrong when the signal arrived", left);
            /* The next round's put must not land before the check above. */
            OK(API_SIGNALS, vsym_signal_put(obj, left, 4, T));
            OK(API_SIGNALS, vsym_signal_wait(obj, right, 4, T));
        }
        uint64_t slot = 1;
        OK(API_SIGNALS, vsym_signal_peek(obj, left, 2, &slot));
        expect(API_SIGNALS, slot == 0, "signal pad slot [2][%d] is %llu after the wait", left,
               (unsigned long long)slot);
        /* OpenSHMEM-style put with a signal word. */
        pattern(buf, 256, me, right, 256);
        OK(API_SIGNALS, vsym_put_signal(obj, right, 4096, buf, 256, obj, 2 * 4096,
                                        (uint64_t)me + 1, VSYM_SIGNAL_SET));
        OK(API_SIGNALS, vsym_wait_until64(obj, 2 * 4096, VSYM_CMP_EQ, (uint64_t)left + 1, T));
        pattern(exp, 256, left, me, 256);
        expect(API_SIGNALS, memcmp((uint8_t *)vsym_obj_ptr(obj) + 4096, exp, 256) == 0,
               "put_signal from rank %d: data wrong when the signal word was set", left);
    }
    OK(API_SIGNALS, vsym_team_barrier(w, T));
    OK(API_SIGNALS, vsym_obj_free(obj));
}

static void check_barrier(vsym_team_t *w, double T)
{
    vsym_obj_t *obj = NULL;
    OK(API_BARRIER, vsym_alloc(w, 0, &obj));
    for (int i = 0; i < 20; i++) {
        OK(API_BARRIER, vsym_team_barrier(w, T));
        if (obj)
            OK(API_BARRIER, vsym_signal_barrier(obj, 3, T));
    }
    for (int r = 0; obj && r < vsym_team_size(w); r++) {
        uint64_t slot = 1;
        OK(API_BARRIER, vsym_signal_peek(obj, r, 3, &slot));
        expect(API_BARRIER, slot == 0, "pad slot [3][%d] is %llu after the barriers", r,
               (unsigned long long)slot);
    }
    OK(API_BARRIER, vsym_obj_free(obj));
}

static void check_teams(vsym_ctx_t *ctx, double T)
{
    vsym_team_t *w = vsym_team_world(ctx), *node = vsym_team_node(ctx), *even = NULL;
    int me = vsym_team_rank(w), n = vsym_team_size(w), size = (n + 1) / 2;
    OK(API_TEAMS, vsym_team_split_strided(w, 0, 2, size, &even));
    if (me % 2 == 0) {
        expect(API_TEAMS, even != NULL, "rank %d is not in the even team", me);
        if (even) {
            expect(API_TEAMS, vsym_team_rank(even) == me / 2 && vsym_team_size(even) == size,
                   "even team: rank %d of %d, expected %d of %d", vsym_team_rank(even),
                   vsym_team_size(even), me / 2, size);
            expect(API_TEAMS, vsym_team_world_rank(even, vsym_team_rank(even)) == me,
                   "even team: world rank of own team rank is %d",
                   vsym_team_world_rank(even, vsym_team_rank(even)));
            OK(API_TEAMS, vsym_team_barrier(even, T));
        }
    } else {
        expect(API_TEAMS, even == NULL, "odd rank %d got a team", me);
    }
    OK(API_TEAMS, vsym_team_destroy(even));
    int nn = vsym_team_size(node), count = 0;
    for (int r = 0; r < n; r++)
        count += vsym_team_node_of(w, r) == vsym_team_node_of(w, me);
    expect(API_TEAMS, nn == count, "node team of %d ranks, %d ranks share node %d", nn, count,
           vsym_team_node_of(w, me));
    expect(API_TEAMS, vsym_team_num_nodes(w) >= 1 && vsym_team_node_of(w, n) == -1,
           "num_nodes %d, node_of(%d) %d", vsym_team_num_nodes(w), n, vsym_team_node_of(w, n));
}

static void check_errors(vsym_team_t *w, double T)
{
    int n = vsym_team_size(w), me = vsym_team_rank(w);
    vsym_obj_t *obj = NULL;
    uint8_t buf[64] = {0};
    uint64_t old;
    OK(API_ERRORS, vsym_alloc(w, 1024, &obj));
    if (obj) {
        memset(vsym_obj_ptr(obj), 0, 1024);
        STATUS(API_ERRORS, vsym_put(obj, n, 0, buf, 8), VSYM_ERR_BAD_RANK);
        STATUS(API_ERRORS, vsym_get(obj, -1, 0, buf, 8), VSYM_ERR_BAD_RANK);
        STATUS(API_ERRORS, vsym_put(obj, 0, 1020, buf, 8), VSYM_ERR_OUT_OF_BOUNDS);
        STATUS(API_ERRORS, vsym_put(obj, 0, 0, NULL, 8), VSYM_ERR_INVALID_PARAM);
        STATUS(API_ERRORS, vsym_atomic64(obj, 0, 4, VSYM_AMO_FETCH_ADD, 1, 0, &old),
               VSYM_ERR_UNALIGNED);
        STATUS(API_ERRORS, vsym_signal_put(obj, 0, vsym_signal_channels(vsym_team_ctx(w)), T),
               VSYM_ERR_BAD_CHANNEL);
        /* Nobody writes this word: the wait must end with a timeout, not hang. */
        STATUS(API_ERRORS, vsym_wait_until64(obj, 64, VSYM_CMP_EQ, 42, 0.05), VSYM_ERR_TIMED_OUT);
    }
    OK(API_ERRORS, vsym_team_barrier(w, T));
    OK(API_ERRORS, vsym_obj_free(obj));
    if (n > 1) {
        /* Sizes that differ between ranks are refused on every rank. */
        vsym_obj_t *bad = NULL;
        STATUS(API_ERRORS, vsym_alloc(w, me == 0 ? 128 : 256, &bad), VSYM_ERR_MISMATCH);
        if (bad)
            vsym_obj_free(bad);
        OK(API_ERRORS, vsym_team_barrier(w, T));
    }
}

int conform_api_checks(vsym_ctx_t *ctx, const conform_config_t *cfg, conform_report_t *rep)
{
    vsym_team_t *w = vsym_team_world(ctx);
    int me = vsym_team_rank(w), n = vsym_team_size(w);
    double T = cfg->timeout_s;
    uint64_t t0;
    memset(&R, 0, sizeof(R));
#define TIMED(id, call)                                                                            \
    t0 = vsym_util_time_ns();                                                                      \
    call;                                                                                          \
    R.time_s[id] = (double)(vsym_util_time_ns() - t0) / 1e9
    TIMED(API_RMA, check_rma(w, T));
    TIMED(API_ATOMICS, check_atomics(w, T));
    TIMED(API_SIGNALS, check_signals(w, T));
    TIMED(API_BARRIER, check_barrier(w, T));
    TIMED(API_TEAMS, check_teams(ctx, T));
    /* The bad calls are expected to fail: keep their error lines out of the log. */
    int level = vsym_util_log_level;
    vsym_util_log_level = -1;
    TIMED(API_ERRORS, check_errors(w, T));
    vsym_util_log_level = level;
    api_rank_t *all = calloc((size_t)n, sizeof(*all));
    vsym_status_t st = vsym_team_exchange(w, &R, sizeof(R), all);
    if (st != VSYM_OK) {
        fprintf(stderr, "vsym-conform: rank %d: gathering the API results failed: %s\n", me,
                vsym_error_detail());
        free(all);
        return -1;
    }
    if (me == 0) {
        for (int id = 0; id < API_COUNT; id++) {
            int bad = -1, asserts = 0;
            double t = 0;
            for (int r = 0; r < n; r++) {
                asserts += all[r].asserts[id];
                if (all[r].failed[id] && bad < 0)
                    bad = r;
                if (all[r].time_s[id] > t)
                    t = all[r].time_s[id];
            }
            if (id == API_NBI)
                t = 0; /* timed with put_get_all_pairs */
            char name[128];
            if (bad >= 0)
                conform_report_add(rep, "api", api_names[id], "world", CK_FAIL, t,
                                   "%s: %d of its checks failed, first: %s",
                                   conform_rank_name(rep->ranks, bad, name, sizeof(name)),
                                   all[bad].failed[id], all[bad].msg[id]);
            else
                conform_report_add(rep, "api", api_names[id], "world", CK_PASS, t,
                                   "%d checks on %d ranks passed", asserts, n);
        }
    }
    free(all);
    return 0;
}
