/* Teams: world, node, strided splits (nested), team exchange, RMA with team ranks. */
#include <stdint.h>
#include "harness.h"

int main(void)
{
    vsym_ctx_t *ctx;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx), *node = vsym_team_node(ctx);
    int me = vsym_team_rank(world), n = vsym_team_size(world);

    VSYM_CHECK(vsym_team_ctx(world) == ctx, "team ctx");
    VSYM_CHECK(vsym_team_world_rank(world, me) == me, "world rank of self");
    VSYM_CHECK(vsym_team_world_rank(world, n) == -1, "world rank outside");
    VSYM_CHECK(vsym_team_size(node) >= 1 && vsym_team_size(node) <= n, "node size %d",
               vsym_team_size(node));
    VSYM_CHECK(vsym_team_world_rank(node, vsym_team_rank(node)) == me, "node team self");
    for (int r = 0; r < n; r++) {
        const char *tp = vsym_team_transport_of(world, r);
        VSYM_CHECK(tp != NULL && (strcmp(tp, "shm") == 0 || strcmp(tp, "verbs") == 0),
                   "transport of %d is %s", r, tp ? tp : "NULL");
        VSYM_CHECK(vsym_team_node_of(world, r) >= 0, "node of %d", r);
    }

    /* Exchange: every rank contributes its rank squared. */
    int in = me * me, *out = calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    VSYM_CHECK_OK(vsym_team_exchange(world, &in, sizeof(in), out));
    for (int r = 0; r < n; r++)
        VSYM_CHECK(out[r] == r * r, "exchange block %d is %d", r, out[r]);
    free(out);
    /* Longer than one slot of the team's exchange memory (several rounds), many times in a row
     * with changing data: a round must not overwrite a half a member still reads. */
    enum { BIG = 3000, TIMES = 50 };
    unsigned char *big = malloc(BIG), *all = malloc((size_t)n * BIG);
    for (int k = 0; k < TIMES; k++) {
        for (int i = 0; i < BIG; i++)
            big[i] = (unsigned char)(me * 31 + i * 7 + k);
        VSYM_CHECK_OK(vsym_team_exchange(world, big, BIG, all));
        for (int r = 0; r < n; r++)
            for (int i = 0; i < BIG; i++)
                if (all[(size_t)r * BIG + i] != (unsigned char)(r * 31 + i * 7 + k))
                    VSYM_CHECK(0, "exchange %d: byte %d of rank %d is %d, expected %d", k, i, r,
                               all[(size_t)r * BIG + i], (unsigned char)(r * 31 + i * 7 + k));
    }
    free(big);
    free(all);
    VSYM_CHECK_OK(vsym_team_exchange(world, NULL, 0, NULL));
    /* Lengths that differ: every member learns it, and the team stays usable. */
    if (n > 1) {
        uint64_t two[2] = {1, 2}, got[2 * 64];
        VSYM_CHECK(n <= 64, "at most 64 ranks here");
        VSYM_CHECK_STATUS(vsym_team_exchange(world, two, me == n - 1 ? 16 : 8, got),
                          VSYM_ERR_MISMATCH, " from this rank");
        VSYM_CHECK_OK(vsym_team_exchange(world, two, 8, got));
        for (int r = 0; r < n; r++)
            VSYM_CHECK(got[r] == 1, "after the mismatch, block %d is %llu", r,
                       (unsigned long long)got[r]);
    }

    /* Even ranks, odd ranks. */
    vsym_team_t *even = NULL, *odd = NULL;
    VSYM_CHECK_OK(vsym_team_split_strided(world, 0, 2, (n + 1) / 2, &even));
    if (n > 1) VSYM_CHECK_OK(vsym_team_split_strided(world, 1, 2, n / 2, &odd));
    vsym_team_t *mine = (me % 2 == 0) ? even : odd;
    VSYM_CHECK(mine != NULL, "rank %d got no team", me);
    VSYM_CHECK((me % 2 == 0) ? odd == NULL : even == NULL, "rank %d got a team it is not in", me);
    VSYM_CHECK(vsym_team_rank(mine) == me / 2, "team rank %d, expected %d", vsym_team_rank(mine),
               me / 2);
    int tn = vsym_team_size(mine), tr = vsym_team_rank(mine);
    for (int r = 0; r < tn; r++)
        VSYM_CHECK(vsym_team_world_rank(mine, r) == r * 2 + me % 2, "member %d", r);

    /* RMA addressed by team rank inside the sub-team. */
    vsym_obj_t *obj;
    VSYM_CHECK_OK(vsym_alloc(mine, 64, &obj));
    uint64_t v = 500 + (uint64_t)me;
    VSYM_CHECK_OK(vsym_put(obj, (tr + 1) % tn, 0, &v, 8));
    VSYM_CHECK_OK(vsym_team_barrier(mine, 0));
    uint64_t expect = 500 + (uint64_t)vsym_team_world_rank(mine, (tr + tn - 1) % tn);
    VSYM_CHECK(*(uint64_t *)vsym_obj_ptr(obj) == expect, "sub-team put got %llu, expected %llu",
               (unsigned long long)*(uint64_t *)vsym_obj_ptr(obj), (unsigned long long)expect);
    VSYM_CHECK_OK(vsym_obj_free(obj));

    /* A nested split: the first rank of my parity team alone. */
    vsym_team_t *solo = NULL;
    VSYM_CHECK_OK(vsym_team_split_strided(mine, 0, 1, 1, &solo));
    VSYM_CHECK((tr == 0) == (solo != NULL), "nested split membership");
    if (solo) {
        VSYM_CHECK(vsym_team_size(solo) == 1 && vsym_team_rank(solo) == 0, "solo team");
        VSYM_CHECK_OK(vsym_team_barrier(solo, 0));
        VSYM_CHECK_OK(vsym_team_destroy(solo));
    }

    /* Bad splits fail on the spot, with the numbers in the detail. */
    vsym_team_t *bad = NULL;
    VSYM_CHECK_STATUS(vsym_team_split_strided(world, 0, 1, n + 1, &bad), VSYM_ERR_INVALID_PARAM,
                      "leave the parent");
    VSYM_CHECK_STATUS(vsym_team_split_strided(world, -1, 1, 1, &bad), VSYM_ERR_INVALID_PARAM,
                      "start -1");
    VSYM_CHECK_STATUS(vsym_team_split_strided(world, 0, 0, 1, &bad), VSYM_ERR_INVALID_PARAM,
                      "stride 0");
    VSYM_CHECK_STATUS(vsym_team_destroy(world), VSYM_ERR_INVALID_PARAM, "belong to the context");

    VSYM_CHECK_OK(vsym_team_destroy(even));
    VSYM_CHECK_OK(vsym_team_destroy(odd));
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
