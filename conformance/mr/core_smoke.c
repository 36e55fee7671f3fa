/* Smoke test: every rank puts its rank into the next rank's object, then checks what it got. */
#include "harness.h"

int main(void)
{
    vsym_ctx_t *ctx;
    vsym_obj_t *obj;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    VSYM_CHECK_OK(vsym_alloc(world, 4096, &obj));
    uint64_t v = 1000 + (uint64_t)me;
    VSYM_CHECK_OK(vsym_put(obj, (me + 1) % n, 0, &v, sizeof(v)));
    VSYM_CHECK_OK(vsym_team_barrier(world, 0));
    uint64_t got = *(uint64_t *)vsym_obj_ptr(obj);
    VSYM_CHECK(got == 1000 + (uint64_t)((me + n - 1) % n), "got %llu", (unsigned long long)got);
    VSYM_CHECK_OK(vsym_obj_free(obj));
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
