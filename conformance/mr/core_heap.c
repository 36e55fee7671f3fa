/* The symmetric heap: same offsets everywhere, allocate/free patterns, exhaustion and size
 * mismatches failing on every rank; rendezvous of user memory. */
#include <stdint.h>
#include "harness.h"

int main(void)
{
    vsym_ctx_t *ctx;
    /* A small heap so that exhaustion is quick to reach. */
    setenv("VSYM_HEAP_SIZE", "4M", 1);
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    size_t *offs = calloc((size_t)n, sizeof(size_t));

    /* Patterns: allocate 16 objects of varying size, free every other one, allocate again. */
    vsym_obj_t *objs[16];
    for (int i = 0; i < 16; i++) {
        VSYM_CHECK_OK(vsym_alloc(world, (size_t)(i * 1000 + 1), &objs[i]));
        size_t off = vsym_obj_heap_offset(objs[i]);
        VSYM_CHECK(off % 64 == 0, "offset %zu not aligned", off);
        VSYM_CHECK(((uintptr_t)vsym_obj_ptr(objs[i]) & 63) == 0, "pointer not aligned");
        VSYM_CHECK_OK(vsym_team_exchange(world, &off, sizeof(off), offs));
        for (int r = 0; r < n; r++)
            VSYM_CHECK(offs[r] == off, "object %d: offset %zu on rank %d, %zu here", i, offs[r],
                       r, off);
        memset(vsym_obj_ptr(objs[i]), i, vsym_obj_size(objs[i]));
    }
    for (int i = 0; i < 16; i += 2)
        VSYM_CHECK_OK(vsym_obj_free(objs[i]));
    for (int i = 1; i < 16; i += 2) {
        const unsigned char *p = vsym_obj_ptr(objs[i]);
        for (size_t b = 0; b < vsym_obj_size(objs[i]); b++)
            VSYM_CHECK(p[b] == i, "object %d byte %zu overwritten", i, b);
    }
    /* A rank-dependent free pattern before a new allocation: the offsets still agree. */
    vsym_obj_t *a, *b;
    VSYM_CHECK_OK(vsym_alloc(world, 3000, &a));
    VSYM_CHECK_OK(vsym_alloc(world, 100000, &b));
    size_t off = vsym_obj_heap_offset(b);
    VSYM_CHECK_OK(vsym_team_exchange(world, &off, sizeof(off), offs));
    for (int r = 0; r < n; r++)
        VSYM_CHECK(offs[r] == off, "offset %zu on rank %d, %zu here", offs[r], r, off);

    /* Zero-size objects exist (a pad without memory). */
    vsym_obj_t *z;
    VSYM_CHECK_OK(vsym_alloc(world, 0, &z));
    VSYM_CHECK(vsym_obj_size(z) == 0, "zero-size object size");
    VSYM_CHECK_OK(vsym_obj_free(z));

    /* Exhaustion fails on every rank, naming the heap. */
    vsym_obj_t *huge = NULL;
    VSYM_CHECK_STATUS(vsym_alloc(world, 64u << 20, &huge), VSYM_ERR_HEAP_EXHAUSTED,
                      "VSYM_HEAP_SIZE");
    VSYM_CHECK(huge == NULL, "output set on failure");
    /* Mismatched sizes fail on every rank. */
    VSYM_CHECK_STATUS(vsym_alloc(world, (size_t)(1000 + (me % 2)), &huge),
                      n > 1 ? VSYM_ERR_MISMATCH : VSYM_OK, n > 1 ? "differs" : NULL);
    if (n == 1)
        VSYM_CHECK_OK(vsym_obj_free(huge));
    /* The heap still works after the failures. */
    vsym_obj_t *after;
    VSYM_CHECK_OK(vsym_alloc(world, 512, &after));

    /* Rendezvous of ordinary memory: put/get reach it, atomics on same-node peers are refused;
     * mismatched sizes fail everywhere. */
    size_t len = 100003;
    unsigned char *user = malloc(len);
    memset(user, 0, len);
    vsym_obj_t *ur;
    VSYM_CHECK_OK(vsym_rendezvous(world, user, len, &ur));
    VSYM_CHECK(vsym_obj_ptr(ur) == user && vsym_obj_heap_offset(ur) == SIZE_MAX, "rendezvous");
    unsigned char *src = malloc(len);
    for (size_t i = 0; i < len; i++)
        src[i] = (unsigned char)(i * 3 + (size_t)me);
    int to = (me + 1) % n, from = (me + n - 1) % n;
    VSYM_CHECK_OK(vsym_put(ur, to, 0, src, len));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    for (size_t i = 0; i < len; i++)
        VSYM_CHECK(user[i] == (unsigned char)(i * 3 + (size_t)from), "rendezvous byte %zu", i);
    memset(src, 0, len);
    VSYM_CHECK_OK(vsym_get(ur, to, 17, src, len - 17));
    for (size_t i = 17; i < len; i++)
        VSYM_CHECK(src[i - 17] == (unsigned char)(i * 3 + (size_t)me), "get byte %zu", i);
    /* CPU atomics need load/store access, which user memory on a same-node peer lacks; when any
     * peer is reached over verbs, every atomic of the team goes through the NIC and works. */
    int all_shm = 1;
    for (int r = 0; r < n; r++)
        all_shm &= strcmp(vsym_team_transport_of(world, r), "shm") == 0;
    /* The puts and gets above went through process-to-process copies to every shm peer: the
     * probe at init must say they work there, and nothing over verbs. */
    for (int r = 0; r < n; r++)
        VSYM_CHECK(vsym_team_process_copy(world, r) ==
                       (strcmp(vsym_team_transport_of(world, r), "shm") == 0),
                   "process_copy of rank %d (%s): %d", r, vsym_team_transport_of(world, r),
                   vsym_team_process_copy(world, r));
    VSYM_CHECK(vsym_team_process_copy(world, n) == 0 && vsym_team_process_copy(NULL, 0) == 0,
               "process_copy of a rank outside the team or a NULL team is not 0");
    if (all_shm) {
        uint64_t old;
        VSYM_CHECK_STATUS(vsym_atomic64(ur, to, 0, VSYM_AMO_FETCH_ADD, 1, 0, &old),
                          VSYM_ERR_UNSUPPORTED, "symmetric-heap memory");
    }
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    vsym_obj_t *bad = NULL;
    VSYM_CHECK_STATUS(vsym_rendezvous(world, user, len - (size_t)(me % 2), &bad),
                      n > 1 ? VSYM_ERR_MISMATCH : VSYM_OK, n > 1 ? "differs" : NULL);
    if (n == 1)
        VSYM_CHECK_OK(vsym_obj_free(bad));
    VSYM_CHECK_OK(vsym_obj_free(ur));
    free(user);
    free(src);
    free(offs);
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
