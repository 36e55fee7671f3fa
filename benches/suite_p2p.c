/* Point-to-point suites: put, get, put-nbi, get-nbi, put-signal, put-signal-nbi, signal.
 *
 * Rank pair_a initiates, pair_b is the target. Latency ("lat"):
 *   put, put-nbi, put-signal-nbi
 *                  a put (or put_nbi, put_signal_nbi) then quiet, per op: the cost of a put that
 *                  is complete at
 *                  the target; the put suite also reports "pingpong", half the round trip of
 *                  puts each way with the receiver polling its memory (what perftest's
 *                  ib_write_lat measures): at 8 B the data word itself carries the unit's number
 *                  (one write each way, as ib_write_lat); at other sizes the data goes as a
 *                  put_nbi, then a fence and an 8-byte put of the number to the flag word;
 *   get, get-nbi   a get (or get_nbi + quiet), per op: a get is a round trip by itself;
 *   put-signal     half the round trip of put_signal (signal ADD 1) each way (the target waits
 *                  until the signal word counts the unit);
 *   signal         half the round trip of vsym_signal_put / vsym_signal_wait each way.
 * Bandwidth ("bw"): a window of puts or gets (blocking or _nbi as the suite says) then quiet;
 * put-signal, put-signal-nbi: a window of put_signal (or put_signal_nbi; signal ADD 1) then
 * quiet; --check also counts the signals that arrived.
 * Buffers come from the symmetric heap: "data" (the target's memory) and "local" (the
 * initiator's source for puts, destination for gets). --check fills the source with a pattern
 * per size and validates what arrived after the run; --test-corrupt flips one source byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "util/util.h"

enum { KIND_PUT, KIND_GET, KIND_PUT_NBI, KIND_GET_NBI, KIND_PUT_SIGNAL, KIND_PUT_SIGNAL_NBI,
       KIND_SIGNAL };

#define STOP_BIT (1ull << 63)
#define FLAG_PING 0 /* offset in flag of the word the initiator writes at the target */
#define FLAG_PONG 8 /* offset of the word the target writes back at the initiator */
#define FLAG_STOP 16
#define SIGNAL_CHANNEL 1 /* channel 0 is vsym_bench_pair_sync()'s */

typedef struct p2p {
    vsym_bench_t *b;
    int kind;
    vsym_obj_t *data;  /* max_size: the target's memory */
    vsym_obj_t *local; /* max_size: source of puts, destination of gets */
    vsym_obj_t *flag;  /* ping-pong words */
    size_t size;
    long window;
    int peer;
    double timeout_s;
} p2p_t;

static vsym_status_t quiet(p2p_t *p)
{
    return vsym_quiet(vsym_team_ctx(vsym_obj_team(p->data)));
}

/* ---- Units -------------------------------------------------------------------------------- */

static vsym_status_t unit_put_quiet(void *arg, long i)
{
    p2p_t *p = arg;
    vsym_status_t st = vsym_put(p->data, p->peer, 0, vsym_obj_ptr(p->local), p->size);
    (void)i;
    return st != VSYM_OK ? st : quiet(p);
}

static vsym_status_t unit_put_nbi_quiet(void *arg, long i)
{
    p2p_t *p = arg;
    vsym_status_t st = vsym_put_nbi(p->data, p->peer, 0, vsym_obj_ptr(p->local), p->size);
    (void)i;
    return st != VSYM_OK ? st : quiet(p);
}

static vsym_status_t unit_put_signal_nbi_quiet(void *arg, long i)
{
    p2p_t *p = arg;
    vsym_status_t st = vsym_put_signal_nbi(p->data, p->peer, 0, vsym_obj_ptr(p->local), p->size,
                                           p->flag, FLAG_PING, 1, VSYM_SIGNAL_ADD);
    (void)i;
    return st != VSYM_OK ? st : quiet(p);
}

static vsym_status_t unit_get(void *arg, long i)
{
    p2p_t *p = arg;
    (void)i;
    return vsym_get(p->data, p->peer, 0, vsym_obj_ptr(p->local), p->size);
}

static vsym_status_t unit_get_nbi_quiet(void *arg, long i)
{
    p2p_t *p = arg;
    vsym_status_t st = vsym_get_nbi(p->data, p->peer, 0, vsym_obj_ptr(p->local), p->size);
    (void)i;
    return st != VSYM_OK ? st : quiet(p);
}

static vsym_status_t unit_window(void *arg, long i)
{
    p2p_t *p = arg;
    void *buf = vsym_obj_ptr(p->local);
    vsym_status_t st = VSYM_OK;
    (void)i;
    for (long w = 0; w < p->window && st == VSYM_OK; w++) {
        switch (p->kind) {
        case KIND_PUT:
            st = vsym_put(p->data, p->peer, 0, buf, p->size);
            break;
        case KIND_PUT_NBI:
            st = vsym_put_nbi(p->data, p->peer, 0, buf, p->size);
            break;
        case KIND_GET:
            st = vsym_get(p->data, p->peer, 0, buf, p->size);
            break;
        case KIND_GET_NBI:
            st = vsym_get_nbi(p->data, p->peer, 0, buf, p->size);
            break;
        case KIND_PUT_SIGNAL_NBI:
            st = vsym_put_signal_nbi(p->data, p->peer, 0, buf, p->size, p->flag, FLAG_PING, 1,
                                     VSYM_SIGNAL_ADD);
            break;
        default:
            st = vsym_put_signal(p->data, p->peer, 0, buf, p->size, p->flag, FLAG_PING, 1,
                                 VSYM_SIGNAL_ADD);
            break;
        }
    }
    return st != VSYM_OK ? st : quiet(p);
}

/* At 8 B the put ping-pong's data word is its flag (see the top of this file). */
static int word_mode(const p2p_t *p)
{
    return p->kind == KIND_PUT && p->size == 8;
}

/* One ping-pong message to the peer: the data, then the word at off of its flag (in word mode
 * the data word itself) set to v (put suite) or grown by v (put-signal suite, signal ADD). */
static vsym_status_t pp_send(p2p_t *p, size_t off, uint64_t v)
{
    const void *src = vsym_obj_ptr(p->local);
    vsym_status_t st;

    if (p->kind == KIND_PUT_SIGNAL)
        return vsym_put_signal(p->data, p->peer, 0, src, p->size, p->flag, off, v,
                               VSYM_SIGNAL_ADD);
    if (word_mode(p))
        return vsym_put(p->data, p->peer, 0, &v, sizeof(v));
    if ((st = vsym_put_nbi(p->data, p->peer, 0, src, p->size)) != VSYM_OK ||
        (st = vsym_fence(vsym_team_ctx(vsym_obj_team(p->data)))) != VSYM_OK)
        return st;
    return vsym_put(p->flag, p->peer, off, &v, sizeof(v));
}

/* Wait until this rank's word at off (in word mode: its data word) reaches v; *got_p = it. */
static vsym_status_t pp_wait(p2p_t *p, size_t off, uint64_t v, uint64_t *got_p)
{
    vsym_obj_t *o = word_mode(p) ? p->data : p->flag;
    size_t at = word_mode(p) ? 0 : off;
    vsym_status_t st = vsym_wait_until64(o, at, VSYM_CMP_GE, v, p->timeout_s);
    if (st == VSYM_OK && got_p != NULL)
        *got_p = *(volatile uint64_t *)((char *)vsym_obj_ptr(o) + at);
    return st;
}

/* Unit i of a ping-pong: both words count 1, 2, 3... (i runs on through warm-up and timing),
 * so a word left from the previous unit never satisfies the wait. */
static vsym_status_t unit_pingpong(void *arg, long i)
{
    p2p_t *p = arg;
    uint64_t v = (uint64_t)i + 1;
    vsym_status_t st = pp_send(p, FLAG_PING, p->kind == KIND_PUT_SIGNAL ? 1 : v);
    if (st != VSYM_OK) return st;
    return pp_wait(p, FLAG_PONG, v, NULL);
}

static vsym_status_t unit_signal_pingpong(void *arg, long i)
{
    p2p_t *p = arg;
    vsym_status_t st = vsym_signal_put(p->data, p->peer, SIGNAL_CHANNEL, p->timeout_s);
    (void)i;
    if (st != VSYM_OK) return st;
    return vsym_signal_wait(p->data, p->peer, SIGNAL_CHANNEL, p->timeout_s);
}

/* The target's side of a ping-pong: answer until the initiator's stop. */
static vsym_status_t answer_pingpong(p2p_t *p)
{
    uint64_t next = 1, v = 0;
    vsym_status_t st;

    for (;;) {
        if ((st = pp_wait(p, FLAG_PING, next, &v)) != VSYM_OK)
            return st;
        if (v & STOP_BIT) return VSYM_OK;
        if ((st = pp_send(p, FLAG_PONG, p->kind == KIND_PUT_SIGNAL ? 1 : v)) != VSYM_OK)
            return st;
        next = v + 1;
    }
}

static vsym_status_t answer_signal(p2p_t *p)
{
    volatile uint64_t *stop = (volatile uint64_t *)((char *)vsym_obj_ptr(p->flag) + FLAG_STOP);
    vsym_status_t st;

    for (;;) {
        st = vsym_signal_wait(p->data, p->peer, SIGNAL_CHANNEL, p->timeout_s);
        if (st != VSYM_OK) return st;
        /* The initiator puts the stop word before its last signal: visible now. */
        if (*stop) return VSYM_OK;
        st = vsym_signal_put(p->data, p->peer, SIGNAL_CHANNEL, p->timeout_s);
        if (st != VSYM_OK) return st;
    }
}

static vsym_status_t send_stop(p2p_t *p, int signal)
{
    uint64_t one = 1;
    vsym_status_t st;

    if (signal) {
        st = vsym_put(p->flag, p->peer, FLAG_STOP, &one, sizeof(one));
        if (st == VSYM_OK) st = vsym_quiet(vsym_team_ctx(vsym_obj_team(p->flag)));
        if (st == VSYM_OK) st = vsym_signal_put(p->data, p->peer, SIGNAL_CHANNEL, p->timeout_s);
        return st;
    }
    return pp_send(p, FLAG_PING, STOP_BIT);
}

/* ---- One measurement ---------------------------------------------------------------------- */

enum { PLAN_PER_OP, PLAN_PINGPONG, PLAN_WINDOW };

/* Sum of the wrong counts of both ranks of the pair (collective over the world). */
static vsym_status_t pair_wrong(vsym_bench_t *b, long mine, long *sum_p)
{
    long a = b->rank == b->pair_a ? mine : 0, c = b->rank == b->pair_b ? mine : 0;
    vsym_status_t st = vsym_bench_share_long(b, b->pair_a, &a);
    if (st == VSYM_OK) st = vsym_bench_share_long(b, b->pair_b, &c);
    if (st == VSYM_OK) *sum_p = a + c;
    return st;
}

static vsym_status_t run_one(p2p_t *p, int plan, const char *op, const char *mode)
{
    vsym_bench_t *b = p->b;
    vsym_bench_stats_t st;
    vsym_bench_timing_t t;
    vsym_status_t rc = VSYM_OK;
    int initiator = b->rank == b->pair_a;
    int is_get = p->kind == KIND_GET || p->kind == KIND_GET_NBI;
    int check = b->opts->check && p->kind != KIND_SIGNAL;
    uint64_t seed_a = p->size * 2 + 1, seed_b = p->size * 2 + 2;
    long mine = 0, count = 0;
    int counted =
        plan == PLAN_WINDOW && (p->kind == KIND_PUT_SIGNAL || p->kind == KIND_PUT_SIGNAL_NBI);

    vsym_bench_stats_init(&st, p->size);
    memset(&t, 0, sizeof(t));
    t.arg = p;
    t.bytes_per_unit = (double)p->size;
    t.ops_per_unit = 1;
    t.lat_divisor = 1;
    p->window = 0;
    if (plan == PLAN_WINDOW) {
        p->window = vsym_bench_window(b, p->size);
        st.window = p->window;
        t.unit = unit_window;
        t.bytes_per_unit = (double)p->size * (double)p->window;
        t.ops_per_unit = (double)p->window;
        t.lat_divisor = (double)p->window;
    } else if (plan == PLAN_PINGPONG) {
        t.unit = p->kind == KIND_SIGNAL ? unit_signal_pingpong : unit_pingpong;
        t.lat_divisor = 2;
    } else {
        t.unit = p->kind == KIND_PUT              ? unit_put_quiet
                 : p->kind == KIND_PUT_NBI        ? unit_put_nbi_quiet
                 : p->kind == KIND_PUT_SIGNAL_NBI ? unit_put_signal_nbi_quiet
                 : p->kind == KIND_GET            ? unit_get
                                                  : unit_get_nbi_quiet;
    }
    if (b->in_pair) {
        void *loc = vsym_obj_ptr(p->local), *dat = vsym_obj_ptr(p->data);
        p->peer = b->peer;
        if (check) {
            /* The source of every transfer holds its sender's pattern; destinations are
             * cleared so that a transfer that did not happen is seen. */
            if (is_get) {
                memset(loc, 0, p->size);
                vsym_bench_pattern_fill(dat, p->size, initiator ? seed_a : seed_b);
            } else {
                memset(dat, 0, p->size);
                vsym_bench_pattern_fill(loc, p->size, initiator ? seed_a : seed_b);
            }
            if (b->opts->test_corrupt && p->size > 0 && (is_get ? !initiator : initiator))
                ((unsigned char *)(is_get ? dat : loc))[p->size / 2] ^= 0x5a;
        }
        /* A word-mode ping-pong polls the data word: it must start below 1. */
        if (plan == PLAN_PINGPONG && word_mode(p)) memset(dat, 0, 8);
        rc = vsym_bench_pair_sync(b);
        if (rc == VSYM_OK) {
            if (initiator) {
                rc = vsym_bench_measure(b, &t, &st);
                if (rc == VSYM_OK && plan == PLAN_PINGPONG)
                    rc = send_stop(p, p->kind == KIND_SIGNAL);
                if (rc == VSYM_OK) rc = quiet(p);
            } else if (plan == PLAN_PINGPONG) {
                rc = p->kind == KIND_SIGNAL ? answer_signal(p) : answer_pingpong(p);
            }
        }
        if (rc == VSYM_OK) rc = vsym_bench_pair_sync(b);
        if (rc == VSYM_OK && check) {
            /* Puts land in the target's data (ping-pongs also in the initiator's); gets land
             * in the initiator's local buffer. */
            if (is_get) {
                if (initiator) mine = vsym_bench_pattern_check(loc, p->size, seed_b);
            } else if (plan == PLAN_PINGPONG && word_mode(p)) {
                /* The data word carried the numbers: the target's holds the stop word, the
                 * initiator's the last number answered (>= 1). */
                uint64_t w = *(volatile uint64_t *)dat;
                mine = initiator ? w == 0 || (w & STOP_BIT) : w != STOP_BIT;
            } else if (!initiator) {
                mine = vsym_bench_pattern_check(dat, p->size, seed_a);
            } else if (plan == PLAN_PINGPONG) {
                mine = vsym_bench_pattern_check(dat, p->size, seed_b);
            }
        }
        if (rc == VSYM_OK && counted && !initiator)
            count = (long)*(volatile uint64_t *)((char *)vsym_obj_ptr(p->flag) + FLAG_PING);
        /* Ping-pong words back to zero for the next measurement; nobody writes them now. */
        memset(vsym_obj_ptr(p->flag), 0, 24);
        if (rc == VSYM_OK) rc = vsym_bench_pair_sync(b);
    }
    if (check) {
        long sum = 0;
        vsym_status_t s2 = pair_wrong(b, mine, &sum);
        if (s2 == VSYM_OK && counted) {
            /* every put_signal(_nbi) of the run added 1 at the target: compare with the units the
             * initiator issued (warm-up included) */
            long expected = (st.iterations + (st.warmup > 0 ? st.warmup : 1)) * st.window;
            s2 = vsym_bench_share_long(b, b->pair_b, &count);
            if (s2 == VSYM_OK) s2 = vsym_bench_share_long(b, b->pair_a, &expected);
            sum += count != expected;
        }
        if (s2 != VSYM_OK) return s2;
        if (initiator) st.wrong = sum;
    }
    if (rc != VSYM_OK) st.valid = 0;
    {
        vsym_status_t s2 = vsym_bench_report(b, op, mode, &st, b->pair_a, NULL);
        return rc != VSYM_OK ? rc : s2;
    }
}

/* ---- Suites ------------------------------------------------------------------------------- */

static int run_kind(vsym_bench_t *b, int kind)
{
    p2p_t p;
    vsym_status_t st;
    size_t bytes = b->max_size > 0 ? b->max_size : 8;

    memset(&p, 0, sizeof(p));
    p.b = b;
    p.kind = kind;
    p.timeout_s = b->opts->timeout_s;
    st = vsym_alloc(b->world, bytes, &p.data);
    if (st == VSYM_OK) st = vsym_alloc(b->world, bytes, &p.local);
    if (st == VSYM_OK) st = vsym_alloc(b->world, 64, &p.flag);
    if (st == VSYM_OK) {
        /* Touch every page: a source never written could read from pages the kernel has not
         * backed yet, which flatters the bandwidth. */
        memset(vsym_obj_ptr(p.data), 0x11, bytes);
        memset(vsym_obj_ptr(p.local), 0x22, bytes);
        memset(vsym_obj_ptr(p.flag), 0, 64);
    }
    if (st == VSYM_OK) st = vsym_team_barrier(b->world, b->opts->timeout_s);
    /* Each measurement (plan, op, mode) sweeps all sizes, so that it prints as one table. */
    struct {
        int plan;
        const char *op;
        const char *mode;
    } items[3];
    int nitems = 0;
    if (b->opts->modes & VSYM_BENCH_LAT) {
        if (kind == KIND_PUT_SIGNAL || kind == KIND_SIGNAL) {
            items[nitems].plan = PLAN_PINGPONG;
            items[nitems].op = NULL;
            items[nitems++].mode = "lat";
        } else {
            items[nitems].plan = PLAN_PER_OP;
            items[nitems].op = NULL;
            items[nitems++].mode = "lat";
        }
        if (kind == KIND_PUT) {
            items[nitems].plan = PLAN_PINGPONG;
            items[nitems].op = "pingpong";
            items[nitems++].mode = "lat";
        }
    }
    if ((b->opts->modes & VSYM_BENCH_BW) && kind != KIND_SIGNAL) {
        items[nitems].plan = PLAN_WINDOW;
        items[nitems].op = NULL;
        items[nitems++].mode = "bw";
    }
    for (vsym_bench_pair_first(b); st == VSYM_OK && vsym_bench_pair_valid(b);
         vsym_bench_pair_next(b)) {
        for (int it = 0; st == VSYM_OK && it < nitems; it++) {
            for (int k = 0; st == VSYM_OK && k < b->nsizes; k++) {
                p.size = b->sizes[k];
                st = run_one(&p, items[it].plan, items[it].op, items[it].mode);
            }
        }
    }
    if (st == VSYM_OK) st = vsym_obj_free(p.flag);
    if (st == VSYM_OK) st = vsym_obj_free(p.local);
    if (st == VSYM_OK) st = vsym_obj_free(p.data);
    return st == VSYM_OK ? 0 : (int)st;
}

static int run_put(vsym_bench_t *b)
{
    return run_kind(b, KIND_PUT);
}
static int run_get(vsym_bench_t *b)
{
    return run_kind(b, KIND_GET);
}
static int run_put_nbi(vsym_bench_t *b)
{
    return run_kind(b, KIND_PUT_NBI);
}
static int run_get_nbi(vsym_bench_t *b)
{
    return run_kind(b, KIND_GET_NBI);
}
static int run_put_signal(vsym_bench_t *b)
{
    return run_kind(b, KIND_PUT_SIGNAL);
}
static int run_put_signal_nbi(vsym_bench_t *b)
{
    return run_kind(b, KIND_PUT_SIGNAL_NBI);
}
static int run_signal(vsym_bench_t *b)
{
    return run_kind(b, KIND_SIGNAL);
}

/* Two buffers of the largest size must fit in the symmetric heap: say so before starting. */
static int p2p_check_opts(const vsym_bench_opts_t *o, char *err, size_t errlen)
{
    size_t max = o->sizes_given ? o->max_size : 4u << 20;
    size_t heap = vsym_config_size(VSYM_CFG_HEAP_SIZE);
    size_t need = 2 * max + (1u << 20); /* the two buffers, flags and the library's own */
    char a[32], c[32];

    if (max > (SIZE_MAX - (1u << 20)) / 2 || need > heap) {
        snprintf(err, errlen, "size %s needs VSYM_HEAP_SIZE of at least %s (it is %s)",
                 vsym_util_format_size(max, a, sizeof(a)),
                 vsym_util_format_size((need + (1u << 20) - 1) & ~(size_t)((1u << 20) - 1), c,
                                       sizeof(c)),
                 vsym_config_str(VSYM_CFG_HEAP_SIZE));
        return -1;
    }
    return 0;
}

#define P2P_SUITE(id, name_, help_, fn, sizeless_)                                                 \
    const vsym_bench_suite_t vsym_bench_suite_##id = {                                             \
        .name = name_,                                                                             \
        .help = help_,                                                                             \
        .min_ranks = 2,                                                                            \
        .max_ranks = VSYM_BENCH_MAX_RANKS,                                                         \
        .default_min_size = 8,                                                                     \
        .default_max_size = 4u << 20,                                                              \
        .sizeless = sizeless_,                                                                     \
        .check_opts = p2p_check_opts,                                                              \
        .run = fn,                                                                                 \
    };

P2P_SUITE(put, "put", "put + quiet latency, put ping-pong, put window bandwidth", run_put, 0)
P2P_SUITE(get, "get", "get latency, get window bandwidth", run_get, 0)
P2P_SUITE(put_nbi, "put-nbi", "put_nbi + quiet latency, put_nbi window bandwidth", run_put_nbi, 0)
P2P_SUITE(get_nbi, "get-nbi", "get_nbi + quiet latency, get_nbi window bandwidth", run_get_nbi, 0)
P2P_SUITE(put_signal, "put-signal", "put_signal ping-pong latency, put_signal window bandwidth",
          run_put_signal, 0)
P2P_SUITE(put_signal_nbi, "put-signal-nbi",
          "put_signal_nbi + quiet latency, put_signal_nbi window bandwidth", run_put_signal_nbi, 0)
P2P_SUITE(signal, "signal", "vsym_signal_put / vsym_signal_wait ping-pong latency", run_signal, 1)
