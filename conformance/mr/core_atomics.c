/* Atomics under contention from every rank, with exact final counts; 32 and 64 bits. */
#include <stdint.h>
#include "harness.h"

#define ITERS 300

int main(void)
{
    vsym_ctx_t *ctx;
    vsym_obj_t *obj;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    VSYM_CHECK_OK(vsym_alloc(world, 4096, &obj));
    uint64_t *w = vsym_obj_ptr(obj);
    memset(w, 0, 4096);
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
    VSYM_CHECK_OK(vsym_put(obj, 0, 64 + (size_t)me * k * 8, tickets, sizeof(tickets)));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    if (me == 0) {
        uint8_t *hit = calloc((size_t)n * k, 1);
        for (int i = 0; i < n * k; i++) {
            uint64_t t = w[8 + i];
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
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
