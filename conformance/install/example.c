#include <stdio.h>
#include <vsym/vsym.h>

int main(void)
{
    vsym_ctx_t *ctx;
    vsym_obj_t *obj;
    if (vsym_init(&ctx) != VSYM_OK)
        return fprintf(stderr, "init: %s\n", vsym_error_detail()), 1;
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    vsym_alloc(world, sizeof(long), &obj);          /* same offset on every rank */
    long v = 100 + me, *mine = vsym_obj_ptr(obj);
    vsym_put(obj, (me + 1) % n, 0, &v, sizeof(v));  /* into the next rank's copy */
    vsym_team_barrier(world, 0);                    /* completes the put everywhere */
    int ok = *mine == 100 + (me + n - 1) % n;
    printf("rank %d of %d got %ld: %s\n", me, n, *mine, ok ? "ok" : "WRONG");
    vsym_obj_free(obj);
    vsym_finalize(ctx);
    return ok ? 0 : 1;
}
