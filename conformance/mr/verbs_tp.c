/* The verbs transport on its own (no core): put/get at inline and bounce boundary sizes, more
 * outstanding requests than the send queue holds, reads larger than the MTU, NIC atomics from
 * every rank with exact counts (32-bit halves included), fence ordering, and the error paths
 * (bad rkey, out-of-range address, unaligned atomic, bad rank). Built twice: verbs_tp (boot
 * exchange) and verbs_cm (rdma_cm connection set-up). Skips when no RDMA device exists. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "boot/boot.h"
#include "harness.h"
#include "tp/tp.h"
#include "tp/verbs/verbs.h"

#define ARENA_SIZE (8u << 20)
/* Arena layout (offsets). */
#define OFF_RECV 0u                /* 2 MiB: data put by the left neighbour */
#define OFF_SRC (2u << 20)         /* 2 MiB: registered source / pattern to get */
#define OFF_GET (4u << 20)         /* 2 MiB: destination of gets */
#define OFF_ATOM (6u << 20)        /* atomic words */
#define OFF_FLAG ((6u << 20) + 4096u)

static vsym_boot_t boot;
static vsym_tp_arena_t arena;
static int me, n;

static uint8_t pattern(int rank, size_t i, unsigned salt)
{
    return (uint8_t)(rank * 31 + (int)(i * 7) + (int)(i >> 9) + (int)salt);
}

static vsym_tp_raddr_t arena_addr(uint64_t off)
{
    vsym_tp_raddr_t a = {off, 0, VSYM_TP_ADDR_ARENA};
    return a;
}

static void barrier(void)
{
    VSYM_CHECK_OK(vsym_boot_barrier(&boot));
}

static char *A(size_t off)
{
    return (char *)arena.base + off;
}

/* Blocking and non-blocking puts of boundary sizes, from malloc'd (bounce) and arena (zero
 * copy) sources; the source is scribbled right after a blocking put returns. */
static void test_put_sizes(vsym_tp_t *tp)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    uint32_t mi = t->max_inline;
    size_t sizes[] = {1, 7, 8, 63, mi ? mi - 1 : 1, mi ? mi : 2, mi + 1, 1000, 4096,
                      VERBS_SMALL_BOUNCE - 1, VERBS_SMALL_BOUNCE, VERBS_SMALL_BOUNCE + 1,
                      VERBS_SLOT_SIZE, VERBS_SLOT_SIZE + 3, 100000, 700000};
    int right = (me + 1) % n, left = (me + n - 1) % n;
    char *heap = malloc(1 << 20);
    VSYM_CHECK(heap != NULL, "malloc");

    for (unsigned mode = 0; mode < 4; mode++) {
        int from_arena = mode & 1;
        unsigned flags = (mode & 2) ? VSYM_TP_NBI : 0;
        memset(A(OFF_RECV), 0, 2u << 20);
        barrier();
        size_t off = 0;
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            size_t len = sizes[k];
            char *src = from_arena ? A(OFF_SRC) + off : heap + off;
            for (size_t i = 0; i < len; i++)
                src[i] = (char)pattern(me, i, (unsigned)(k + mode));
            vsym_tp_raddr_t dst = arena_addr(OFF_RECV + off);
            VSYM_CHECK_OK(tp->ops->put(tp, right, &dst, src, len, flags));
            if (!flags)
                memset(src, 0xee, len); /* blocking: the source is ours again */
            off += (len + 63) & ~(size_t)63;
        }
        VSYM_CHECK_OK(tp->ops->quiet(tp, -1));
        barrier();
        off = 0;
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            size_t len = sizes[k];
            for (size_t i = 0; i < len; i++)
                VSYM_CHECK((uint8_t)A(OFF_RECV + off)[i] == pattern(left, i, (unsigned)(k + mode)),
                           "mode %u size %zu byte %zu from rank %d: got 0x%02x", mode, len, i,
                           left, (uint8_t)A(OFF_RECV + off)[i]);
            off += (len + 63) & ~(size_t)63;
        }
        barrier();
    }
    free(heap);
}

/* Many more outstanding non-blocking puts than the send queue holds: none is lost. */
static void test_backpressure(vsym_tp_t *tp)
{
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;
    int right = (me + 1) % n, left = (me + n - 1) % n;
    size_t count = (size_t)t->sq_depth * 8; /* 8-byte inline puts */
    uint64_t *words = (uint64_t *)A(OFF_RECV);
    char *heap = malloc(64 * 1024);
    VSYM_CHECK(heap != NULL, "malloc");

    memset(A(OFF_RECV), 0, 2u << 20);
    barrier();
    for (size_t i = 0; i < count; i++) {
        uint64_t v = ((uint64_t)me << 48) | (i + 1);
        vsym_tp_raddr_t dst = arena_addr(OFF_RECV + i * 8);
        VSYM_CHECK_OK(tp->ops->put(tp, right, &dst, &v, 8, VSYM_TP_NBI));
    }
    /* 1 KiB non-inline puts through bounce slots (malloc'd source), also many. */
    size_t base = count * 8;
    for (size_t i = 0; i < count / 4; i++) {
        char *src = heap + (i % 64) * 1024;
        memset(src, (int)(i & 0xff), 1024);
        vsym_tp_raddr_t dst = arena_addr(OFF_RECV + base + (i % 512) * 1024);
        VSYM_CHECK_OK(tp->ops->put(tp, right, &dst, src, 1024, 0));
    }
    VSYM_CHECK_OK(tp->ops->quiet(tp, right));
    barrier();
    for (size_t i = 0; i < count; i++)
        VSYM_CHECK(words[i] == (((uint64_t)left << 48) | (i + 1)),
                   "inline put %zu of %zu lost: 0x%llx", i, count, (unsigned long long)words[i]);
    /* Slot j was last written by put i = the largest i < count/4 with i % 512 == j. */
    for (size_t j = 0; j < 512 && j < count / 4; j++) {
        size_t last = j + ((count / 4 - 1 - j) / 512) * 512;
        for (size_t k = 0; k < 1024; k++)
            VSYM_CHECK((uint8_t)A(OFF_RECV + base + j * 1024)[k] == (uint8_t)(last & 0xff),
                       "bounce put slot %zu byte %zu: 0x%02x, want 0x%02x", j, k,
                       (uint8_t)A(OFF_RECV + base + j * 1024)[k], (unsigned)(last & 0xff));
    }
    barrier();
    free(heap);
}

/* Gets larger than the MTU, into the arena (zero copy) and into malloc'd memory (bounce),
 * blocking and non-blocking. */
static void test_get(vsym_tp_t *tp)
{
    int right = (me + 1) % n;
    size_t sizes[] = {8, 1000, 1025, 4097, 65536, 100003, 1u << 20};
    char *heap = malloc(1u << 20);
    VSYM_CHECK(heap != NULL, "malloc");

    for (size_t i = 0; i < (2u << 20); i++)
        A(OFF_SRC)[i] = (char)pattern(me, i, 99);
    barrier();
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t len = sizes[k];
        for (int mode = 0; mode < 4; mode++) {
            char *dst = (mode & 1) ? heap : A(OFF_GET);
            unsigned flags = (mode & 2) ? VSYM_TP_NBI : 0;
            size_t roff = (k * 4096 + 8 * (size_t)mode) % (1u << 20);
            memset(dst, 0, len);
            vsym_tp_raddr_t src = arena_addr(OFF_SRC + roff);
            VSYM_CHECK_OK(tp->ops->get(tp, right, &src, dst, len, flags));
            if (flags)
                VSYM_CHECK_OK(tp->ops->quiet(tp, right));
            for (size_t i = 0; i < len; i++)
                VSYM_CHECK((uint8_t)dst[i] == pattern(right, roff + i, 99),
                           "get of %zu bytes (mode %d) byte %zu: 0x%02x", len, mode, i,
                           (uint8_t)dst[i]);
        }
    }
    barrier();
    free(heap);
}

#define AMO_ITERS 200

static void test_atomics(vsym_tp_t *tp)
{
    uint64_t *w = (uint64_t *)A(OFF_ATOM);
    uint64_t old = 0, prev = 0;
    uint32_t old32 = 0;

    if (me == 0) {
        w[0] = 0;                         /* fetch-add counter */
        w[1] = 0x12345678fffffff0ull;     /* low half: 32-bit add with wrap */
        w[2] = 0xfffffff000000005ull;     /* high half: 32-bit add with wrap */
        w[3] = 0;                         /* compare-swap increments */
        w[4] = 0;                         /* swap target */
    }
    barrier();
    vsym_tp_raddr_t c0 = arena_addr(OFF_ATOM), c1 = arena_addr(OFF_ATOM + 8),
                    c1hi = arena_addr(OFF_ATOM + 12), c2hi = arena_addr(OFF_ATOM + 20),
                    c3 = arena_addr(OFF_ATOM + 24), c4 = arena_addr(OFF_ATOM + 32);
    for (int i = 0; i < AMO_ITERS; i++) {
        VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c0, VSYM_AMO_FETCH_ADD, 1, 0, &old));
        VSYM_CHECK(i == 0 || old > prev, "fetch-add results not increasing: %llu after %llu",
                   (unsigned long long)old, (unsigned long long)prev);
        prev = old;
        VSYM_CHECK_OK(tp->ops->atomic32(tp, 0, &c1, VSYM_AMO_ADD, 1, 0, NULL));
        VSYM_CHECK_OK(tp->ops->atomic32(tp, 0, &c2hi, VSYM_AMO_FETCH_ADD, 1, 0, &old32));
        /* Increment through compare-swap: read, then swap in old + 1 until nobody raced. */
        uint64_t cur = 0;
        VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c3, VSYM_AMO_FETCH, 0, 0, &cur));
        for (;;) {
            VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c3, VSYM_AMO_CSWAP, cur + 1, cur, &old));
            if (old == cur)
                break;
            cur = old;
        }
        VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c4, VSYM_AMO_SWAP, (uint64_t)me + 1, 0, &old));
        VSYM_CHECK(old <= (uint64_t)n, "swap returned %llu", (unsigned long long)old);
    }
    VSYM_CHECK_OK(tp->ops->quiet(tp, -1));
    barrier();
    uint64_t total = (uint64_t)n * AMO_ITERS;
    VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c0, VSYM_AMO_FETCH, 0, 0, &old));
    VSYM_CHECK(old == total, "fetch-add counter %llu, want %llu", (unsigned long long)old,
               (unsigned long long)total);
    VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c1, VSYM_AMO_FETCH, 0, 0, &old));
    VSYM_CHECK(old == (0x12345678ull << 32 | (uint32_t)(0xfffffff0u + total)),
               "32-bit low-half adds: word 0x%016llx", (unsigned long long)old);
    VSYM_CHECK_OK(tp->ops->atomic32(tp, 0, &c1hi, VSYM_AMO_FETCH, 0, 0, &old32));
    VSYM_CHECK(old32 == 0x12345678u, "high half touched by low-half adds: 0x%08x", old32);
    vsym_tp_raddr_t c2 = arena_addr(OFF_ATOM + 16);
    VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c2, VSYM_AMO_FETCH, 0, 0, &old));
    VSYM_CHECK(old == ((uint64_t)(uint32_t)(0xfffffff0u + total) << 32 | 5),
               "32-bit high-half adds: word 0x%016llx", (unsigned long long)old);
    VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c3, VSYM_AMO_FETCH, 0, 0, &old));
    VSYM_CHECK(old == total, "compare-swap counter %llu, want %llu", (unsigned long long)old,
               (unsigned long long)total);
    barrier();
    /* Single-rank semantics of SET, SWAP, CSWAP (failing), 32-bit CSWAP and SET. */
    if (me == n - 1) {
        vsym_tp_raddr_t c = arena_addr(OFF_ATOM + 40);
        VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c, VSYM_AMO_SET, 77, 0, NULL));
        VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c, VSYM_AMO_SWAP, 88, 0, &old));
        VSYM_CHECK(old == 77, "swap old %llu", (unsigned long long)old);
        VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c, VSYM_AMO_CSWAP, 1, 5, &old));
        VSYM_CHECK(old == 88, "failed cswap old %llu", (unsigned long long)old);
        vsym_tp_raddr_t h = arena_addr(OFF_ATOM + 44);
        VSYM_CHECK_OK(tp->ops->atomic32(tp, 0, &h, VSYM_AMO_CSWAP, 9, 0, &old32));
        VSYM_CHECK(old32 == 0, "32-bit cswap old %u", old32);
        VSYM_CHECK_OK(tp->ops->atomic32(tp, 0, &c, VSYM_AMO_SET, 3, 0, NULL));
        VSYM_CHECK_OK(tp->ops->atomic64(tp, 0, &c, VSYM_AMO_FETCH, 0, 0, &old));
        VSYM_CHECK(old == (9ull << 32 | 3), "after 32-bit ops: 0x%llx", (unsigned long long)old);
    }
    barrier();
}

/* Data put before a fence is visible when the flag put after it is. */
static void test_fence(vsym_tp_t *tp)
{
    int right = (me + 1) % n, left = (me + n - 1) % n;
    volatile uint64_t *flag = (volatile uint64_t *)A(OFF_FLAG);

    *flag = 0;
    barrier();
    for (uint64_t round = 1; round <= 5; round++) {
        size_t len = 65536;
        for (size_t i = 0; i < len; i++)
            A(OFF_SRC)[i] = (char)pattern(me, i, (unsigned)round);
        vsym_tp_raddr_t dst = arena_addr(OFF_RECV), fl = arena_addr(OFF_FLAG);
        VSYM_CHECK_OK(tp->ops->put(tp, right, &dst, A(OFF_SRC), len, VSYM_TP_NBI));
        VSYM_CHECK_OK(tp->ops->fence(tp, right));
        VSYM_CHECK_OK(tp->ops->put(tp, right, &fl, &round, 8, 0));
        vsym_backoff_t b;
        vsym_backoff_init(&b, 20);
        while (*flag < round)
            VSYM_CHECK(vsym_backoff_step(&b), "flag %llu from rank %d never came",
                       (unsigned long long)round, left);
        for (size_t i = 0; i < len; i++)
            VSYM_CHECK((uint8_t)A(OFF_RECV)[i] == pattern(left, i, (unsigned)round),
                       "round %llu: byte %zu visible after the flag is stale",
                       (unsigned long long)round, i);
        VSYM_CHECK_OK(tp->ops->quiet(tp, -1)); /* our source may be rewritten next round */
        barrier();
    }
}

/* Error paths, on a transport of their own (a remote access error breaks the connection). */
static void test_errors(vsym_tp_t *good)
{
    uint8_t *need = calloc((size_t)n, 1);
    vsym_tp_t *tp;
    uint64_t v = 0;
    char buf[64];

    for (int r = 0; r < n; r++)
        need[r] = 1;
    VSYM_CHECK_OK(vsym_tp_verbs_create(&boot, &arena, need, &tp));
    vsym_tp_verbs_t *t = (vsym_tp_verbs_t *)tp;

    /* Caught locally, no traffic. */
    vsym_tp_raddr_t beyond = arena_addr(ARENA_SIZE - 4);
    VSYM_CHECK_STATUS(tp->ops->put(tp, 0, &beyond, buf, 8, 0), VSYM_ERR_OUT_OF_BOUNDS, "rank 0");
    vsym_tp_raddr_t odd = arena_addr(OFF_ATOM + 4);
    VSYM_CHECK_STATUS(tp->ops->atomic64(tp, 0, &odd, VSYM_AMO_ADD, 1, 0, NULL),
                      VSYM_ERR_UNALIGNED, "aligned");
    vsym_tp_raddr_t ok = arena_addr(0);
    VSYM_CHECK_STATUS(tp->ops->put(tp, n, &ok, buf, 8, 0), VSYM_ERR_BAD_RANK, "rank");
    barrier();

    if (me == 0 && n > 1) {
        /* A wrong rkey: the NIC refuses, the status and detail say so, naming the peer. */
        vsym_tp_raddr_t bad = {t->peers[1].arena_addr, t->peers[1].arena_rkey + 0x1000u, 0};
        VSYM_CHECK_STATUS(tp->ops->get(tp, 1, &bad, buf, 8, 0), VSYM_ERR_REMOTE_ACCESS,
                          "peer 1");
        printf("bad rkey: %s\n", vsym_error_detail());
        VSYM_CHECK(strstr(vsym_error_detail(), "get") != NULL, "detail names no operation");
        /* The connection stays failed and says so, cleanly, on the next calls. */
        VSYM_CHECK_STATUS(tp->ops->put(tp, 1, &ok, buf, 8, 0), VSYM_ERR_REMOTE_ACCESS,
                          "peer 1");
        VSYM_CHECK_STATUS(tp->ops->quiet(tp, 1), VSYM_ERR_REMOTE_ACCESS, "peer 1");
    }
    if (me == n - 1) {
        /* Out of range of a valid key (own arena, through the loopback queue pair). */
        vsym_tp_raddr_t past = {t->peers[me].arena_addr + ARENA_SIZE, t->peers[me].arena_rkey,
                                0};
        VSYM_CHECK_OK(tp->ops->put(tp, me, &past, buf, 64, 0)); /* inline: fails at quiet */
        VSYM_CHECK_STATUS(tp->ops->quiet(tp, me), VSYM_ERR_REMOTE_ACCESS, "remote access");
        printf("out of range: %s\n", vsym_error_detail());
        VSYM_CHECK_STATUS(tp->ops->atomic64(tp, me, &ok, VSYM_AMO_FETCH, 0, 0, &v),
                          VSYM_ERR_REMOTE_ACCESS, "peer");
    }
    barrier();
    tp->ops->destroy(tp);
    free(need);

    /* The other transport's connections are untouched. */
    int right = (me + 1) % n;
    uint64_t x = 0x5151515151515151ull + (uint64_t)me;
    vsym_tp_raddr_t dst = arena_addr(OFF_RECV + 8 * (size_t)me);
    VSYM_CHECK_OK(good->ops->put(good, right, &dst, &x, 8, 0));
    VSYM_CHECK_OK(good->ops->quiet(good, -1));
    VSYM_CHECK_OK(good->ops->get(good, right, &dst, &v, 8, 0));
    VSYM_CHECK(v == x, "after the error test: read back 0x%llx", (unsigned long long)v);
    barrier();
}

int main(void)
{
    vsym_tp_t *tp;
    vsym_status_t st;

#ifdef VERBS_TEST_CM
    setenv("VSYM_CM", "rdmacm", 1);
#endif
    setenv("VSYM_TIMEOUT", "30", 0);
    VSYM_CHECK_OK(vsym_boot_init(&boot));
    me = boot.rank;
    n = boot.size;
    vsym_util_log_set_identity(me, "");
    if (n < 2)
        vsym_test_skip("needs at least 2 ranks (start it with launch/vsym-run -n 2)");

    arena.memfd = memfd_create("vsym-verbs-test", MFD_CLOEXEC);
    VSYM_CHECK(arena.memfd >= 0, "memfd_create");
    VSYM_CHECK(ftruncate(arena.memfd, ARENA_SIZE) == 0, "ftruncate");
    arena.size = ARENA_SIZE;
    arena.base = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, arena.memfd, 0);
    VSYM_CHECK(arena.base != MAP_FAILED, "mmap");

    uint8_t *need = calloc((size_t)n, 1);
    for (int r = 0; r < n; r++)
        need[r] = 1;
    st = vsym_tp_verbs_create(&boot, &arena, need, &tp);
    if (st == VSYM_ERR_NO_DEVICE) {
        char reason[600];
        snprintf(reason, sizeof(reason), "no RDMA device (run under launch/vsym-softroce): %s",
                 vsym_error_detail());
        free(need);
        vsym_test_skip(reason);
    }
    VSYM_CHECK_OK(st);
    printf("rank %d verbs: %s, inline %u, sq depth %u\n", me, vsym_tp_verbs_describe(tp),
               ((vsym_tp_verbs_t *)tp)->max_inline, ((vsym_tp_verbs_t *)tp)->sq_depth);

    test_put_sizes(tp);
    if (me == 0)
        printf("put sizes: ok\n");
    test_backpressure(tp);
    if (me == 0)
        printf("back-pressure: ok\n");
    test_get(tp);
    if (me == 0)
        printf("get: ok\n");
    test_atomics(tp);
    if (me == 0)
        printf("atomics: ok\n");
    test_fence(tp);
    if (me == 0)
        printf("fence: ok\n");
    test_errors(tp);
    if (me == 0)
        printf("errors: ok\n");

    tp->ops->destroy(tp);

    /* A retransmission timeout outside what the wire format holds is refused by every rank,
     * naming the setting, before any queue pair exists. */
    setenv("VSYM_ACK_TIMEOUT", "32", 1);
    (void)vsym_settings_check();
    vsym_tp_t *bad = NULL;
    st = vsym_tp_verbs_create(&boot, &arena, need, &bad);
    VSYM_CHECK(st == VSYM_ERR_INVALID_PARAM && bad == NULL &&
                   strstr(vsym_error_detail(), "VSYM_ACK_TIMEOUT=32") != NULL,
               "VSYM_ACK_TIMEOUT=32: got %s (%s)", vsym_status_name(st), vsym_error_detail());
    unsetenv("VSYM_ACK_TIMEOUT");
    (void)vsym_settings_check();
    if (me == 0)
        printf("bad ack timeout: ok\n");
    free(need);
    munmap(arena.base, ARENA_SIZE);
    close(arena.memfd);
    vsym_boot_finalize(&boot);
    if (me == 0)
        printf("verbs_tp: PASS\n");
    return 0;
}
