/* Real resharding between layouts on the launched ranks: scaled-down models (a small model with
 * every partitioning kind, Llama-3-8B and Mixtral-8x7B at reduced width), TP/PP/DP/EP changes,
 * in place and between disjoint rank sets. Every destination element is checked against the
 * pattern (a function of the parameter's name and the element's global index), after two runs
 * (the second over a poisoned destination). */
#include <inttypes.h>
#include "harness.h"

static const char *const tiny_json =
    "{\"name\": \"tiny\", \"params\": [\n"
    " {\"name\": \"emb\", \"shape\": [48, 8], \"partition_dim\": 0, \"stage\": \"first\"},\n"
    " {\"name\": \"l0.norm\", \"shape\": [8], \"dtype\": \"fp32\", \"layer\": 0},\n"
    " {\"name\": \"l0.qkv\", \"shape\": [96, 8], \"partition_dim\": 0,\n"
    "  \"partition_sizes\": [48, 24, 24], \"layer\": 0},\n"
    " {\"name\": \"l0.proj\", \"shape\": [8, 48], \"partition_dim\": 1, \"layer\": 0},\n"
    " {\"name\": \"l0.fc1\", \"shape\": [96, 8], \"partition_dim\": 0, \"partition_stride\": 2,\n"
    "  \"layer\": 0},\n"
    " {\"name\": \"l0.fc2\", \"shape\": [8, 48], \"partition_dim\": 1, \"layer\": 0},\n"
    " {\"name\": \"l0.conv\", \"shape\": [2, 24, 3], \"partition_dim\": 1, \"dtype\": \"fp32\",\n"
    "  \"layer\": 0},\n"
    " {\"name\": \"l1.qkv\", \"shape\": [96, 8], \"partition_dim\": 0,\n"
    "  \"partition_sizes\": [48, 24, 24], \"layer\": 1},\n"
    " {\"name\": \"l1.router\", \"shape\": [4, 8], \"layer\": 1},\n"
    " {\"name\": \"l1.experts.fc1.weight\", \"shape\": [48, 8], \"partition_dim\": 0,\n"
    "  \"partition_stride\": 2, \"layer\": 1, \"expert\": true, \"num_experts\": 4},\n"
    " {\"name\": \"l1.experts.fc2.weight\", \"shape\": [8, 24], \"partition_dim\": 1,\n"
    "  \"layer\": 1, \"expert\": true, \"num_experts\": 4},\n"
    " {\"name\": \"final_norm\", \"shape\": [8], \"stage\": \"last\"},\n"
    " {\"name\": \"out\", \"shape\": [48, 8], \"partition_dim\": 0, \"stage\": \"last\",\n"
    "  \"tied_to\": \"emb\"}\n"
    "]}\n";

typedef struct reshard_case {
    const char *model; /* "tiny" or a preset (scaled) */
    int min_ranks;
    const char *from;
    int from_world; /* 0: all ranks */
    const char *to;
    int to_world; /* 0: all ranks; <0: the ranks after the source ones (disjoint) */
} reshard_case_t;

static const reshard_case_t cases[] = {
    {"tiny", 1, "tp=1", 0, "tp=1", 0},
    {"tiny", 2, "tp=2", 0, "tp=1,pp=2", 0},
    {"tiny", 2, "tp=1,pp=2", 0, "tp=2", 0},
    {"tiny", 2, "tp=1", 1, "tp=1", -1},
    {"tiny", 4, "tp=2,pp=2", 0, "tp=4", 0},
    {"tiny", 4, "tp=4", 0, "tp=1,pp=2", 0},
    {"tiny", 4, "tp=1,ep=4", 0, "tp=2,ep=2,etp=1", 0},
    {"tiny", 4, "tp=2", 2, "tp=1,pp=2", -1},
    {"tiny", 3, "tp=3", 3, "tp=2", 2},
    {"llama3-8b", 2, "tp=2", 0, "tp=1,pp=2", 0},
    {"llama3-8b", 4, "tp=2,pp=2", 0, "tp=4", 0},
    {"llama3-8b", 4, "tp=2", 2, "tp=2", -1},
    {"mixtral-8x7b", 4, "tp=2,ep=2", 0, "tp=1,pp=2,ep=2", 0},
    {"mixtral-8x7b", 4, "tp=4,ep=1", 0, "tp=2,ep=2,etp=1", 0},
};

/* Runs the case when its layouts fit this rank count (dp is sized to the world); returns 0 when
 * they do not (the same decision on every rank). */
static int run_case(vsym_team_t *world, const vsym_reshard_model_t *m, const reshard_case_t *c)
{
    int me = vsym_team_rank(world), n = vsym_team_size(world);
    int ws = c->from_world ? c->from_world : n;
    int wd = c->to_world > 0 ? c->to_world : c->to_world < 0 ? n - ws : n;
    if (n < c->min_ranks || ws > n || wd < 1 || (c->to_world < 0 ? ws + wd : wd) > n) return 0;
    vsym_reshard_layout_t ls, ld;
    VSYM_CHECK_OK(vsym_reshard_layout_parse(c->from, &ls));
    VSYM_CHECK_OK(vsym_reshard_layout_parse(c->to, &ld));
    if (c->to_world < 0) ld.first_rank = ws;
    if (vsym_reshard_layout_check(&ls, ws, m) != VSYM_OK ||
        vsym_reshard_layout_check(&ld, wd, m) != VSYM_OK)
        return 0;
    vsym_reshard_options_t opt = {VSYM_RESHARD_BALANCE_BYTES, me};
    vsym_reshard_plan_t *plan;
    VSYM_CHECK_OK(vsym_reshard_plan_create(m, &ls, &ld, &opt, &plan));

    int nt = vsym_reshard_model_num_tensors(m);
    void **src = calloc((size_t)nt, sizeof(void *)), **dst = calloc((size_t)nt, sizeof(void *));
    size_t src_total = 0, dst_total = 0;
    for (int t = 0; t < nt; t++) {
        src_total += vsym_reshard_shard_bytes(m, &ls, me, t);
        dst_total += vsym_reshard_shard_bytes(m, &ld, me, t);
    }
    char *src_arena = malloc(src_total + 1), *dst_arena = malloc(dst_total + 1);
    VSYM_CHECK(src && dst && src_arena && dst_arena, "no memory");
    size_t so = 0, dof = 0;
    for (int t = 0; t < nt; t++) {
        size_t sb = vsym_reshard_shard_bytes(m, &ls, me, t);
        size_t db = vsym_reshard_shard_bytes(m, &ld, me, t);
        if (sb) {
            src[t] = src_arena + so, so += sb;
            VSYM_CHECK_OK(vsym_reshard_pattern_fill(m, &ls, me, t, src[t]));
        }
        if (db) dst[t] = dst_arena + dof, dof += db;
    }
    vsym_reshard_exec_options_t xo = {dst_arena, dst_total};
    vsym_reshard_exec_t *x;
    VSYM_CHECK_OK(vsym_reshard_exec_create(world, plan, src, dst, &xo, &x));
    uint64_t sent, received, local, psent, preceived, plocal;
    vsym_reshard_exec_bytes(x, &sent, &received, &local);
    VSYM_CHECK_OK(vsym_reshard_plan_rank_stats(plan, me, &psent, &preceived, &plocal, NULL));
    VSYM_CHECK(sent == psent && received == preceived && local == plocal,
               "rank %d: executor bytes %" PRIu64 "/%" PRIu64 "/%" PRIu64 " vs plan", me, sent,
               received, local);
    for (int round = 0; round < 2; round++) {
        memset(dst_arena, 0xA5, dst_total);
        VSYM_CHECK_OK(vsym_reshard_exec_run(x));
        uint64_t wrong_total = 0;
        for (int t = 0; t < nt; t++) {
            if (!dst[t]) continue;
            uint64_t wrong;
            int64_t first;
            VSYM_CHECK_OK(vsym_reshard_pattern_check(m, &ld, me, t, dst[t], &wrong, &first));
            if (wrong) {
                char name[256];
                fprintf(stderr, "rank %d: %s: %" PRIu64 " wrong elements, first at %" PRId64 "\n",
                        me, vsym_reshard_tensor_name(m, t, name, sizeof(name)), wrong, first);
            }
            wrong_total += wrong;
        }
        VSYM_CHECK(wrong_total == 0, "%s %s -> %s, run %d: %" PRIu64 " wrong elements on rank %d",
                   c->model, c->from, c->to, round, wrong_total, me);
    }
    VSYM_CHECK_OK(vsym_reshard_exec_destroy(x));
    if (me == 0)
        printf("%-13s %-18s (%d ranks) -> %-20s (%d ranks%s): ok, rank 0 sent %" PRIu64
               " received %" PRIu64 " local %" PRIu64 "\n",
               c->model, c->from, ws, c->to, wd, c->to_world < 0 ? ", disjoint" : "", sent,
               received, local);
    free(src_arena);
    free(dst_arena);
    free(src);
    free(dst);
    vsym_reshard_plan_destroy(plan);
    return 1;
}

int main(void)
{
    vsym_ctx_t *ctx;
    VSYM_CHECK_OK(vsym_init(&ctx));
    vsym_team_t *world = vsym_team_world(ctx);
    vsym_reshard_model_t *tiny, *llama, *mixtral, *full;
    VSYM_CHECK_OK(vsym_reshard_model_parse(tiny_json, "tiny.json", &tiny));
    VSYM_CHECK_OK(vsym_reshard_model_preset("llama3-8b", &full));
    VSYM_CHECK_OK(vsym_reshard_model_scale(full, 64, 8, &llama));
    vsym_reshard_model_destroy(full);
    VSYM_CHECK_OK(vsym_reshard_model_preset("mixtral-8x7b", &full));
    VSYM_CHECK_OK(vsym_reshard_model_scale(full, 128, 8, &mixtral));
    vsym_reshard_model_destroy(full);
    int ran = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const reshard_case_t *c = &cases[i];
        const vsym_reshard_model_t *m = strcmp(c->model, "tiny") == 0        ? tiny
                                        : strcmp(c->model, "llama3-8b") == 0 ? llama
                                                                             : mixtral;
        ran += run_case(world, m, c);
    }
    VSYM_CHECK(ran > 0, "no case ran");
    vsym_reshard_model_destroy(tiny);
    vsym_reshard_model_destroy(llama);
    vsym_reshard_model_destroy(mixtral);
    VSYM_CHECK_OK(vsym_finalize(ctx));
    return 0;
}
