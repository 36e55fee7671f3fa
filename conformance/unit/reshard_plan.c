/* Reshard planner: element coverage, byte conservation and per-rank agreement over TP, PP, DP,
 * EP and rank-order changes; merging; replica balancing; local copies; tied embeddings. */
#include "harness.h"
#include "reshard_check.h"

/* Dimensions are multiples of 12 where partitioned, so tp 1, 2, 3, 4, 6 all divide them. */
static const char *const model_json =
    "{\"name\": \"tiny\", \"params\": [\n"
    " {\"name\": \"emb\", \"shape\": [24, 4], \"partition_dim\": 0, \"stage\": \"first\"},\n"
    " {\"name\": \"l0.norm\", \"shape\": [4], \"dtype\": \"fp32\", \"layer\": 0},\n"
    " {\"name\": \"l0.qkv\", \"shape\": [48, 4], \"partition_dim\": 0,\n"
    "  \"partition_sizes\": [24, 12, 12], \"layer\": 0},\n"
    " {\"name\": \"l0.proj\", \"shape\": [4, 24], \"partition_dim\": 1, \"layer\": 0},\n"
    " {\"name\": \"l0.fc1\", \"shape\": [48, 4], \"partition_dim\": 0, \"partition_stride\": 2,\n"
    "  \"layer\": 0},\n"
    " {\"name\": \"l0.fc2\", \"shape\": [4, 24], \"partition_dim\": 1, \"layer\": 0},\n"
    " {\"name\": \"l0.conv\", \"shape\": [2, 12, 3], \"partition_dim\": 1, \"layer\": 0},\n"
    " {\"name\": \"l1.norm\", \"shape\": [4], \"layer\": 1},\n"
    " {\"name\": \"l1.qkv\", \"shape\": [48, 4], \"partition_dim\": 0,\n"
    "  \"partition_sizes\": [24, 12, 12], \"layer\": 1},\n"
    " {\"name\": \"l1.router\", \"shape\": [4, 4], \"layer\": 1},\n"
    " {\"name\": \"l1.experts.fc1.weight\", \"shape\": [24, 4], \"partition_dim\": 0,\n"
    "  \"partition_stride\": 2, \"layer\": 1, \"expert\": true, \"num_experts\": 4},\n"
    " {\"name\": \"l1.experts.fc2.weight\", \"shape\": [4, 12], \"partition_dim\": 1,\n"
    "  \"layer\": 1, \"expert\": true, \"num_experts\": 4},\n"
    " {\"name\": \"l1.experts.bias\", \"shape\": [4], \"layer\": 1, \"expert\": true,\n"
    "  \"num_experts\": 4},\n"
    " {\"name\": \"final_norm\", \"shape\": [4], \"stage\": \"last\"},\n"
    " {\"name\": \"out\", \"shape\": [24, 4], \"partition_dim\": 0, \"stage\": \"last\",\n"
    "  \"tied_to\": \"emb\"}\n"
    "]}\n";

static const char *const pairs[][2] = {
    /* TP changes */
    {"tp=2", "tp=1"},
    {"tp=1", "tp=2"},
    {"tp=2", "tp=4"},
    {"tp=4", "tp=2"},
    {"tp=2", "tp=3"},
    {"tp=3", "tp=2"},
    {"tp=4", "tp=6"},
    /* PP and DP changes */
    {"tp=1,pp=2", "tp=2,pp=1"},
    {"tp=2,pp=2,dp=2", "tp=4,pp=1,dp=2"},
    {"tp=1,pp=1,dp=4", "tp=2,pp=2,dp=1"},
    {"tp=2,pp=2", "tp=1,pp=2,dp=2"},
    /* EP changes (experts renamed by global index), expert TP */
    {"tp=1,dp=4,ep=4", "tp=1,dp=4,ep=2"},
    {"tp=1,dp=4,ep=2", "tp=2,dp=2,ep=4,etp=1"},
    {"tp=2,dp=2,ep=2,etp=1,pp=2", "tp=4,dp=1,ep=1,pp=1"},
    {"tp=2,dp=2,ep=4,etp=1", "tp=1,dp=4,ep=1"},
    /* rank orders */
    {"tp=2,dp=2,pp=2,order=dp-tp-pp", "tp=2,dp=2,pp=2"},
    {"tp=2,dp=2,pp=2,order=pp-dp-tp", "tp=4,dp=1,pp=2,order=tp-pp-dp"},
    /* disjoint rank sets */
    {"tp=2,dp=2", "tp=4,first=4"},
    {"tp=1,pp=2,dp=2", "tp=2,pp=2,first=4"},
};

static int count_ops(const vsym_reshard_plan_t *p)
{
    return (int)vsym_reshard_plan_num_ops(p);
}

int main(void)
{
    vsym_reshard_model_t *m;
    VSYM_CHECK_OK(vsym_reshard_model_parse(model_json, "tiny.json", &m));
    VSYM_CHECK(vsym_reshard_model_num_tensors(m) == 15 + 3 * 3, "%d tensors",
               vsym_reshard_model_num_tensors(m));

    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        for (int b = 0; b < 2; b++) {
            vsym_reshard_stats_t st =
                check_plan(m, layout(pairs[i][0]), layout(pairs[i][1]),
                           b ? VSYM_RESHARD_BALANCE_ROUNDROBIN : VSYM_RESHARD_BALANCE_BYTES);
            printf("%-32s -> %-30s %-10s transfers %4" PRIu64 " local %4" PRIu64
                   " send imbalance %.2f\n",
                   pairs[i][0], pairs[i][1], b ? "roundrobin" : "bytes", st.num_transfers,
                   st.num_local, st.send_imbalance);
        }
    }

    /* Merging: TP 2 -> 3 of a [6] vector needs 4 ops, where LCM micro-tiles give 6. */
    {
        vsym_reshard_model_t *v;
        VSYM_CHECK_OK(vsym_reshard_model_parse(
            "{\"params\": [{\"name\": \"v\", \"shape\": [6], \"partition_dim\": 0, "
            "\"layer\": 0}]}",
            "v.json", &v));
        vsym_reshard_layout_t s = layout("tp=2,first=0"), d = layout("tp=3,first=2");
        vsym_reshard_stats_t st = check_plan(v, s, d, VSYM_RESHARD_BALANCE_BYTES);
        VSYM_CHECK(st.num_transfers == 4 && st.num_local == 0, "%" PRIu64 " transfers",
                   st.num_transfers);
        /* In place, TP 2 -> 1: rank 0 copies its half locally, rank 1 sends the other. */
        st = check_plan(v, layout("tp=2"), layout("tp=1"), VSYM_RESHARD_BALANCE_BYTES);
        VSYM_CHECK(st.num_transfers == 1 && st.num_local == 1 && st.bytes_moved == 6,
                   "tp2->1: %" PRIu64 " transfers %" PRIu64 " local", st.num_transfers,
                   st.num_local);
        vsym_reshard_model_destroy(v);
    }

    /* DP balancing: 16 destinations (disjoint) each need the whole tensor, held by two source
     * DP replicas: 8 and 8. */
    {
        vsym_reshard_model_t *v;
        VSYM_CHECK_OK(vsym_reshard_model_parse(
            "{\"params\": [{\"name\": \"w\", \"shape\": [8, 8], \"partition_dim\": 0, "
            "\"layer\": 0}]}",
            "w.json", &v));
        vsym_reshard_layout_t s = layout("tp=1,dp=2"), d = layout("tp=1,dp=16,first=2");
        check_plan(v, s, d, VSYM_RESHARD_BALANCE_BYTES);
        vsym_reshard_options_t opt = {VSYM_RESHARD_BALANCE_BYTES, -1};
        vsym_reshard_plan_t *p;
        VSYM_CHECK_OK(vsym_reshard_plan_create(v, &s, &d, &opt, &p));
        uint64_t s0, s1, ops0, ops1;
        VSYM_CHECK_OK(vsym_reshard_plan_rank_stats(p, 0, &s0, NULL, NULL, &ops0));
        VSYM_CHECK_OK(vsym_reshard_plan_rank_stats(p, 1, &s1, NULL, NULL, &ops1));
        VSYM_CHECK(ops0 == 8 && ops1 == 8 && s0 == 8 * 128 && s1 == 8 * 128,
                   "split %" PRIu64 "/%" PRIu64 " ops, %" PRIu64 "/%" PRIu64 " bytes", ops0, ops1,
                   s0, s1);
        vsym_reshard_plan_destroy(p);
        /* The same, with 4 source replicas and 8 destination TP shards x 2 replicas. */
        s = layout("tp=2,dp=4");
        d = layout("tp=4,dp=4,first=8");
        VSYM_CHECK_OK(vsym_reshard_plan_create(v, &s, &d, &opt, &p));
        vsym_reshard_stats_t st;
        vsym_reshard_plan_stats(p, &st);
        VSYM_CHECK(st.send_imbalance < 1.0001, "imbalance %.3f", st.send_imbalance);
        vsym_reshard_plan_destroy(p);
        /* In place with equal layouts everything is a local copy. */
        st = check_plan(v, layout("tp=2,dp=2"), layout("tp=2,dp=2"), VSYM_RESHARD_BALANCE_BYTES);
        VSYM_CHECK(st.num_transfers == 0 && st.num_local == 4, "%" PRIu64 " transfers",
                   st.num_transfers);
        vsym_reshard_model_destroy(v);
    }

    /* EP renaming: ep 4 -> 2 in place, tp=1,dp=4: expert e moves from rank e to the ranks of
     * EP group e/2: rank 0 (ep 0) receives experts 0 and 1 of each expert parameter. */
    {
        vsym_reshard_layout_t s = layout("tp=1,dp=4,ep=4"), d = layout("tp=1,dp=4,ep=2");
        vsym_reshard_options_t opt = {VSYM_RESHARD_BALANCE_BYTES, 0};
        vsym_reshard_plan_t *p;
        VSYM_CHECK_OK(vsym_reshard_plan_create(m, &s, &d, &opt, &p));
        int seen[4] = {0};
        char name[128];
        for (int i = 0; i < count_ops(p); i++) {
            vsym_reshard_op_t op;
            VSYM_CHECK_OK(vsym_reshard_plan_op(p, (size_t)i, NULL, &op));
            vsym_reshard_tensor_info_t info;
            VSYM_CHECK_OK(vsym_reshard_model_tensor(m, op.tensor, &info));
            if (info.expert < 0 || op.dir == VSYM_RESHARD_SEND) continue;
            VSYM_CHECK(info.expert < 2, "rank 0 receives expert %d", info.expert);
            vsym_reshard_tensor_name(m, op.tensor, name, sizeof(name));
            char want[128];
            snprintf(want, sizeof(want), "%s%d", info.param_name, info.expert);
            VSYM_CHECK(strcmp(name, want) == 0, "name %s", name);
            /* Expert 0 is already on rank 0; expert 1 comes from rank 1 (its only holder). */
            VSYM_CHECK(info.expert == 0 ? op.dir == VSYM_RESHARD_LOCAL
                                        : op.dir == VSYM_RESHARD_RECV && op.peer == 1,
                       "expert %d: dir %d peer %d", info.expert, op.dir, op.peer);
            seen[info.expert]++;
        }
        VSYM_CHECK(seen[0] == 3 && seen[1] == 3, "experts seen %d %d", seen[0], seen[1]);
        vsym_reshard_plan_destroy(p);
    }

    /* Tied output head: pp 1 -> 2 takes it from the embedding's holders; pp 2 -> 1 drops it;
     * pp 2 -> 2 copies it locally. */
    {
        int emb = -1, out = -1;
        for (int t = 0; t < vsym_reshard_model_num_tensors(m); t++) {
            vsym_reshard_tensor_info_t info;
            VSYM_CHECK_OK(vsym_reshard_model_tensor(m, t, &info));
            if (strcmp(info.param_name, "emb") == 0) emb = t;
            if (strcmp(info.param_name, "out") == 0) {
                out = t;
                VSYM_CHECK(info.tied_to == emb, "out tied to %d", info.tied_to);
            }
        }
        const char *cases[3][2] = {{"pp=1,dp=2", "pp=2"}, {"pp=2", "pp=1,dp=2"}, {"pp=2", "pp=2"}};
        for (int c = 0; c < 3; c++) {
            vsym_reshard_layout_t s = layout(cases[c][0]), d = layout(cases[c][1]);
            check_plan(m, s, d, VSYM_RESHARD_BALANCE_BYTES);
            vsym_reshard_options_t opt = {VSYM_RESHARD_BALANCE_BYTES, VSYM_RESHARD_KEEP_ALL};
            vsym_reshard_plan_t *p;
            VSYM_CHECK_OK(vsym_reshard_plan_create(m, &s, &d, &opt, &p));
            int outs = 0;
            for (int i = 0; i < count_ops(p); i++) {
                vsym_reshard_op_t op;
                VSYM_CHECK_OK(vsym_reshard_plan_op(p, (size_t)i, NULL, &op));
                if (op.tensor != out) continue;
                outs++;
                VSYM_CHECK(op.src_tensor == (c == 0 ? emb : out), "case %d: source %d", c,
                           op.src_tensor);
                VSYM_CHECK(c != 2 || op.dir == VSYM_RESHARD_LOCAL, "pp 2->2 not local");
            }
            VSYM_CHECK(c == 1 ? outs == 0 : outs > 0, "case %d: %d ops for out", c, outs);
            vsym_reshard_plan_destroy(p);
        }
    }

    /* A plan over a layout that fails the rules is refused. */
    {
        vsym_reshard_layout_t s = layout("tp=5"), d = layout("tp=1");
        vsym_reshard_plan_t *p = NULL;
        VSYM_CHECK_STATUS(vsym_reshard_plan_create(m, &s, &d, NULL, &p), VSYM_ERR_BAD_LAYOUT,
                          "tp must divide");
        VSYM_CHECK(p == NULL, "output set on failure");
    }
    vsym_reshard_model_destroy(m);

#ifdef VSYM_RESHARD_MODELS
    /* The shipped example model file. */
    VSYM_CHECK_OK(vsym_reshard_model_load(VSYM_RESHARD_MODELS "/tiny-moe.json", &m));
    check_plan(m, layout("tp=2,pp=2,dp=2,ep=2"), layout("tp=4,dp=2,ep=4,etp=1"),
               VSYM_RESHARD_BALANCE_BYTES);
    check_plan(m, layout("tp=1,dp=8,ep=8"), layout("tp=2,pp=2,dp=2,ep=2,first=8"),
               VSYM_RESHARD_BALANCE_BYTES);
    vsym_reshard_model_destroy(m);
#endif
    printf("reshard_plan: ok\n");
    return 0;
}
