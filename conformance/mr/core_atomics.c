/* Atomics under contention from every rank, with exact final counts; 32 and 64 bits. */
#include <stdint.h>
#include "harness.h"

#define ITERS 300
#define NBI_K 300 /* non-blocking atomics per rank and target: over two rings of them (verbs) */

/* Non-blocking atomics: every rank issues NBI_K fetch_add_nbi(1) and add_nbi(2) to every rank
 * (itself included), then one quiet. Every target's counters come out exact and its n * NBI_K
 * tickets are each handed out once; fetch and compare-swap complete by quiet too; SET and a
 * missing result pointer are refused. */
static void nbi_atomics(vsym_team_t *world)
{
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    size_t size = 64 + (size_t)n * NBI_K * 8;
    vsym_obj_t *obj;
    VSYM_CHECK_OK(vsym_alloc(world, size, &obj));
    uint64_t *w = vsym_obj_ptr(obj);
    memset(w, 0, size);
    uint64_t *tickets = calloc((size_t)n * NBI_K, sizeof(*tickets));
    VSYM_CHECK(tickets != NULL, "calloc");
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    for (int i = 0; i < NBI_K; i++)
        for (int t = 0; t < n; t++) {
            VSYM_CHECK_OK(vsym_atomic64_nbi(obj, t, 0, VSYM_AMO_FETCH_ADD, 1, 0,
                                            &tickets[(size_t)t * NBI_K + (size_t)i]));
            VSYM_CHECK_OK(vsym_atomic64_nbi(obj, t, 8, VSYM_AMO_ADD, 2, 0, NULL));
        }
    VSYM_CHECK_OK(vsym_quiet(vsym_team_ctx(world)));
    for (int t = 0; t < n; t++)
        VSYM_CHECK_OK(vsym_put(obj, t, 64 + (size_t)me * NBI_K * 8, &tickets[(size_t)t * NBI_K],
                               NBI_K * 8));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    VSYM_CHECK(w[0] == (uint64_t)n * NBI_K, "fetch_add_nbi total %llu, expected %d",
               (unsigned long long)w[0], n * NBI_K);
    VSYM_CHECK(w[1] == 2ull * n * NBI_K, "add_nbi total %llu, expected %d",
               (unsigned long long)w[1], 2 * n * NBI_K);
    uint8_t *hit = calloc((size_t)n * NBI_K, 1);
    VSYM_CHECK(hit != NULL, "calloc");
    for (size_t i = 0; i < (size_t)n * NBI_K; i++) {
        uint64_t v = w[8 + i];
        VSYM_CHECK(v < (uint64_t)n * NBI_K && !hit[v],
                   "fetch_add_nbi ticket %llu (from rank %zu) duplicated or out of range",
                   (unsigned long long)v, i / NBI_K);
        hit[v] = 1;
    }
    free(hit);

    /* fetch and compare-swap on the next rank's word 2 (only this rank touches it). */
    int to = (me + 1) % n;
    uint64_t got = 99, old1 = 99, old2 = 99;
    VSYM_CHECK_OK(vsym_atomic64_nbi(obj, to, 0, VSYM_AMO_FETCH, 0, 0, &got));
    VSYM_CHECK_OK(vsym_atomic64_nbi(obj, to, 16, VSYM_AMO_CSWAP, 7, 0, &old1));
    VSYM_CHECK_OK(vsym_quiet(vsym_team_ctx(world)));
    VSYM_CHECK_OK(vsym_atomic64_nbi(obj, to, 16, VSYM_AMO_CSWAP, 9, 0, &old2));
    VSYM_CHECK_OK(vsym_quiet(vsym_team_ctx(world)));
    VSYM_CHECK(got == (uint64_t)n * NBI_K, "fetch_nbi returned %llu", (unsigned long long)got);
    VSYM_CHECK(old1 == 0 && old2 == 7, "cswap_nbi returned %llu then %llu, expected 0 then 7",
               (unsigned long long)old1, (unsigned long long)old2);
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    VSYM_CHECK(w[2] == 7, "word after the cswap_nbi pair: %llu", (unsigned long long)w[2]);

    VSYM_CHECK_STATUS(vsym_atomic64_nbi(obj, to, 0, VSYM_AMO_SET, 1, 0, NULL), VSYM_ERR_BAD_OP,
                      "SET and SWAP are blocking only");
    VSYM_CHECK_STATUS(vsym_atomic64_nbi(obj, to, 0, VSYM_AMO_FETCH_ADD, 1, 0, NULL),
                      VSYM_ERR_INVALID_PARAM, "NULL old_p");
    VSYM_CHECK_STATUS(vsym_atomic64_nbi(obj, n, 0, VSYM_AMO_ADD, 1, 0, NULL), VSYM_ERR_BAD_RANK,
                      "rank");
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    free(tickets);
    VSYM_CHECK_OK(vsym_obj_free(obj));
}

int main(void)
{
    vsym_ctx_t *ctx;
    vsym_obj_t *obj;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    /* Counters and words in the first 4 KiB, then 50 tickets of every rank (any team size). */
    const size_t bytes = 4096 + (size_t)n * 50 * 8;
    VSYM_CHECK_OK(vsym_alloc(world, bytes, &obj));
    uint64_t *w = vsym_obj_ptr(obj);
    memset(w, 0, bytes);
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));

    /* Every rank hammers rank 0's words: fetch_add (word 0), add (word 1), 32-bit fetch_add
     * (bytes 16..19) and a compare-swap-built counter (word 3). */
    uint8_t *seen = calloc((size_t)n * ITERS, 1);
    for (int i = 0; i < ITERS; i++) {
        uint64_t old;
        uint32_t old32;
        VSYM_CHECK_OK(vsym_atomic64(obj, 0, 0, VSYM_AMO_FETCH_ADD, 1, 0, &old));
        VSYM_CHECK(old < (uint64_t)n * ITERS, "fetch_add returned %llu", (unsigned long long)old);
        VSYM_CHECK_OK(vsym_atomic64(obj, 0, 8, VSYM_AMO_ADD, 3, 0, NULL));
        VSYM_CHECK_OK(vsym_atomic32(obj, 0, 16, VSYM_AMO_FETCH_ADD, 2, 0, &old32));
        for (;;) {
            uint64_t cur, prev;
            VSYM_CHECK_OK(vsym_atomic64(obj, 0, 24, VSYM_AMO_FETCH, 0, 0, &cur));
            VSYM_CHECK_OK(vsym_atomic64(obj, 0, 24, VSYM_AMO_CSWAP, cur + 5, cur, &prev));
            if (prev == cur)
                break;
        }
        /* The neighbouring 32-bit word must never be disturbed by the 32-bit atomics. */
    }
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    if (me == 0) {
        VSYM_CHECK(w[0] == (uint64_t)n * ITERS, "fetch_add total %llu, expected %d",
                   (unsigned long long)w[0], n * ITERS);
        VSYM_CHECK(w[1] == 3ull * n * ITERS, "add total %llu", (unsigned long long)w[1]);
        uint32_t *w32 = (uint32_t *)(void *)&w[2];
        VSYM_CHECK(w32[0] == 2u * n * ITERS, "32-bit fetch_add total %u", w32[0]);
        VSYM_CHECK(w32[1] == 0, "the word beside the 32-bit counter changed to %u", w32[1]);
        VSYM_CHECK(w[3] == 5ull * n * ITERS, "cswap counter %llu", (unsigned long long)w[3]);
    }
    free(seen);

    /* Fetch-add hands out distinct tickets: gather them at rank 0 through puts and check that
     * each value 0..n*k-1 was handed out exactly once. */
    const int k = 50;
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    if (me == 0)
        w[4] = 0;
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    uint64_t tickets[50];
    for (int i = 0; i < k; i++)
        VSYM_CHECK_OK(vsym_atomic64(obj, 0, 32, VSYM_AMO_FETCH_ADD, 1, 0, &tickets[i]));
    VSYM_CHECK_OK(vsym_put(obj, 0, 4096 + (size_t)me * k * 8, tickets, sizeof(tickets)));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    if (me == 0) {
        uint8_t *hit = calloc((size_t)n * k, 1);
        for (int i = 0; i < n * k; i++) {
            uint64_t t = w[512 + i];
            VSYM_CHECK(t < (uint64_t)n * k && !hit[t], "ticket %llu duplicated or out of range",
                       (unsigned long long)t);
            hit[t] = 1;
        }
        free(hit);
    }

    /* swap and set on the next rank, fetch back. */
    int to = (me + 1) % n;
    uint64_t old;
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    VSYM_CHECK_OK(vsym_atomic64(obj, to, 4000, VSYM_AMO_SET, 77, 0, NULL));
    VSYM_CHECK_OK(vsym_atomic64(obj, to, 4000, VSYM_AMO_SWAP, 1000 + (uint64_t)me, 0, &old));
    VSYM_CHECK(old == 77, "swap returned %llu, expected 77", (unsigned long long)old);
    VSYM_CHECK_OK(vsym_atomic64(obj, to, 4000, VSYM_AMO_FETCH, 0, 0, &old));
    VSYM_CHECK(old == 1000 + (uint64_t)me, "fetch returned %llu", (unsigned long long)old);
    uint32_t o32;
    VSYM_CHECK_OK(vsym_atomic32(obj, to, 4008, VSYM_AMO_SET, 5, 0, NULL));
    VSYM_CHECK_OK(vsym_atomic32(obj, to, 4008, VSYM_AMO_CSWAP, 9, 4, &o32));
    VSYM_CHECK(o32 == 5, "failed cswap returned %u", o32);
    VSYM_CHECK_OK(vsym_atomic32(obj, to, 4008, VSYM_AMO_CSWAP, 9, 5, &o32));
    VSYM_CHECK_OK(vsym_atomic32(obj, to, 4008, VSYM_AMO_SWAP, 11, 0, &o32));
    VSYM_CHECK(o32 == 9, "swap32 returned %u", o32);
    VSYM_CHECK_OK(vsym_atomic32(obj, to, 4012, VSYM_AMO_SET, 0xFFFFFFFFu, 0, NULL));
    VSYM_CHECK_OK(vsym_atomic32(obj, to, 4008, VSYM_AMO_FETCH, 0, 0, &o32));
    VSYM_CHECK(o32 == 11, "fetch32 after a write of the neighbour returned %u", o32);
    VSYM_CHECK_OK(vsym_obj_free(obj));
    nbi_atomics(world);
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
