/* All-reduce through the collectives' scratch in two chunks (VSYM_COLL_SCRATCH=4K), 300 calls
 * of i64 (each rank's contribution in its own 20-bit field, so a wrong element says which rank's
 * data was stale) and of f16 (small integers, exact): the get / signal-barrier pattern of the
 * one-shot algorithm, meant for VSYM_TRANSPORT=verbs in the Soft-RoCE VM. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <vsym/coll.h>
#include "harness.h"
#include "coll/coll_internal.h"

int main(void)
{
    setenv("VSYM_COLL_SCRATCH", "4K", 1);
    vsym_ctx_t *ctx;
    vsym_coll_t *c;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    VSYM_CHECK_OK(vsym_coll_create(world, &c));
    size_t count = 751; /* 6008 bytes: chunks of 4096 and 1912 */
    int64_t *src = malloc(count * 8), *dst = malloc(count * 8);
    for (int call = 0; call < 300; call++) {
        for (size_t i = 0; i < count; i++)
            src[i] = ((int64_t)1 << (me * 20)) * (int64_t)(call * 1000 + (int)i + 1);
        VSYM_CHECK_OK(vsym_coll_allreduce(c, src, dst, count, VSYM_DTYPE_I64, VSYM_RED_SUM,
                                          VSYM_COLL_ONESHOT));
        for (size_t i = 0; i < count; i++) {
            int64_t want = 0;
            for (int r = 0; r < n; r++)
                want += ((int64_t)1 << (r * 20)) * (int64_t)(call * 1000 + (int)i + 1);
            if (dst[i] != want) {
                fprintf(stderr, "call %d elem %zu: got", call, i);
                for (int r = 0; r < n; r++)
                    fprintf(stderr, " r%d:%lld", r,
                            (long long)((dst[i] >> (r * 20)) & 0xfffff));
                fprintf(stderr, " want per-rank %d\n", call * 1000 + (int)i + 1);
                exit(1);
            }
        }
    }
    /* The same in f16 (integers below 2048 are exact), 3001 elements: 4096 + 1906 bytes. */
    size_t n16 = 3001;
    uint16_t *s16 = malloc(n16 * 2), *d16 = malloc(n16 * 2);
    for (int call = 0; call < 300; call++) {
        for (size_t i = 0; i < n16; i++)
            s16[i] = vsym_coll_f32_to_f16((float)(((size_t)call * 7 + i) % 500 + (size_t)me * 500));
        VSYM_CHECK_OK(vsym_coll_allreduce(c, s16, d16, n16, VSYM_DTYPE_F16, VSYM_RED_SUM,
                                          call % 2 ? VSYM_COLL_ONESHOT : VSYM_COLL_AUTO));
        for (size_t i = 0; i < n16; i++) {
            float want = 0;
            for (int r = 0; r < n; r++)
                want += (float)(((size_t)call * 7 + i) % 500 + (size_t)r * 500);
            float got = vsym_coll_f16_to_f32(d16[i]);
            VSYM_CHECK(got == want, "f16 call %d elem %zu: got %g want %g", call, i, got, want);
        }
    }
    free(src);
    free(dst);
    free(s16);
    free(d16);
    VSYM_CHECK_OK(vsym_coll_destroy(c));
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
