/* Put and get between every pair of ranks, at edge sizes and unaligned offsets, blocking and
 * non-blocking; fence ordering. Every byte is checked. */
#include <stdint.h>
#include "harness.h"
#include "util/util.h"

static const size_t sizes[] = {0, 1, 7, 8, 4095, 4096, (1u << 20) + 3};
static const size_t offsets[] = {0, 1, 3, 64};

/* The byte a sender writes at index i of a transfer, unique per (sender, size, offset). */
static unsigned char pattern(int src, size_t size, size_t off, size_t i)
{
    return (unsigned char)(src * 31 + size * 7 + off * 13 + i * 5 + (i >> 8));
}

/* Every size and offset to every other rank: put, then get it back, every byte checked (and the
 * bytes around the put's destination untouched). */
static void put_get_all(vsym_ctx_t *ctx, vsym_team_t *world, vsym_obj_t *obj, unsigned char *src,
                        unsigned char *dst)
{
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    unsigned char *mine = vsym_obj_ptr(obj);
    for (int shift = 1; shift < (n > 1 ? n : 2); shift++) {
        int to = (me + shift) % n, from = (me + n - shift) % n;
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            for (size_t oi = 0; oi < sizeof(offsets) / sizeof(offsets[0]); oi++) {
                size_t size = sizes[si], off = offsets[oi];
                int nbi = (si + oi) % 2;
                memset(mine, 0xEE, size + off + 64);
                VSYM_CHECK_OK(vsym_team_barrier(world, 0));
                for (size_t i = 0; i < size; i++)
                    src[i] = pattern(me, size, off, i);
                if (nbi) {
                    VSYM_CHECK_OK(vsym_put_nbi(obj, to, off, src, size));
                    VSYM_CHECK_OK(vsym_quiet(ctx));
                } else {
                    VSYM_CHECK_OK(vsym_put(obj, to, off, src, size));
                }
                VSYM_CHECK_OK(vsym_team_barrier(world, 0));
                for (size_t i = 0; i < off; i++)
                    VSYM_CHECK(mine[i] == 0xEE, "byte %zu before the put was touched", i);
                for (size_t i = 0; i < size; i++)
                    VSYM_CHECK(mine[off + i] == pattern(from, size, off, i),
                               "put from %d size %zu offset %zu: byte %zu is %u", from, size, off,
                               i, mine[off + i]);
                for (size_t i = 0; i < 64; i++)
                    VSYM_CHECK(mine[off + size + i] == 0xEE, "byte %zu after the put was touched",
                               i);
                /* Get it back from the receiver's copy: the same bytes this rank sent. */
                memset(dst, 0, size + 1);
                if (nbi) {
                    VSYM_CHECK_OK(vsym_get_nbi(obj, to, off, dst, size));
                    VSYM_CHECK_OK(vsym_quiet(ctx));
                } else {
                    VSYM_CHECK_OK(vsym_get(obj, to, off, dst, size));
                }
                for (size_t i = 0; i < size; i++)
                    VSYM_CHECK(dst[i] == pattern(me, size, off, i),
                               "get from %d size %zu offset %zu: byte %zu is %u", to, size, off, i,
                               dst[i]);
                VSYM_CHECK_OK(vsym_team_barrier(world, 0));
            }
        }
    }
}

int main(void)
{
    vsym_ctx_t *ctx;
    vsym_obj_t *obj;
    const size_t cap = (2u << 20);
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    unsigned char *src = malloc(cap), *dst = malloc(cap);
    VSYM_CHECK(src && dst, "out of memory");
    VSYM_CHECK_OK(vsym_alloc(world, cap, &obj));
    unsigned char *mine = vsym_obj_ptr(obj);

    /* Twice: the copies as configured, then with non-temporal stores from 1 KiB (the streaming
     * copies of large puts and gets, at every alignment here). */
    put_get_all(ctx, world, obj, src, dst);
    setenv("VSYM_NT_THRESHOLD", "1K", 1);
    VSYM_CHECK_OK(vsym_settings_check());
    VSYM_CHECK(vsym_util_nt_single_threshold() == 1024,
               "VSYM_NT_THRESHOLD 1K: a put streams from %zu", vsym_util_nt_single_threshold());
    put_get_all(ctx, world, obj, src, dst);
    unsetenv("VSYM_NT_THRESHOLD");
    VSYM_CHECK_OK(vsym_settings_check());

    /* Fence ordering: data, fence, flag; a reader that sees the flag sees the data. */
    if (n > 1) {
        int to = (me + 1) % n;
        uint64_t *flag = (uint64_t *)(void *)(mine + cap - 64);
        *flag = 0;
        VSYM_CHECK_OK(vsym_team_barrier(world, 0));
        for (uint64_t round = 1; round <= 200; round++) {
            uint64_t data[32];
            for (int i = 0; i < 32; i++)
                data[i] = round * 1000 + (uint64_t)i;
            VSYM_CHECK_OK(vsym_put(obj, to, 0, data, sizeof(data)));
            VSYM_CHECK_OK(vsym_fence(ctx));
            VSYM_CHECK_OK(vsym_put(obj, to, cap - 64, &round, sizeof(round)));
            VSYM_CHECK_OK(vsym_wait_until64(obj, cap - 64, VSYM_CMP_GE, round, 0));
            const uint64_t *got = (const uint64_t *)(const void *)mine;
            for (int i = 0; i < 32; i++)
                VSYM_CHECK(got[i] == round * 1000 + (uint64_t)i,
                           "round %llu: word %d is %llu, older than the flag",
                           (unsigned long long)round, i, (unsigned long long)got[i]);
            VSYM_CHECK_OK(vsym_team_barrier(world, 0));
        }
    }
    VSYM_CHECK_OK(vsym_obj_free(obj));
    free(src);
    free(dst);
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
