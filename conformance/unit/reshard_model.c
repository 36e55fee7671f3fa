/* Reshard models and layouts: preset parameter counts against the published ones, model-file
 * round trip, bad model files (file, line and field named), layout rules (each rule named),
 * and a full-scale plan (Llama-3 405B, 1024 ranks) conserving bytes. */
#include <math.h>
#include <unistd.h>
#include "harness.h"
#include "reshard_check.h"

static void check_count(const char *preset, double published, double tolerance)
{
    vsym_reshard_model_t *m;
    VSYM_CHECK_OK(vsym_reshard_model_preset(preset, &m));
    double n = (double)vsym_reshard_model_num_elements(m);
    printf("%-14s %8.3f B parameters (published %.3f B)\n", preset, n / 1e9, published / 1e9);
    VSYM_CHECK(fabs(n - published) <= tolerance * published, "%s: %.4g parameters, published %.4g",
               preset, n, published);
    vsym_reshard_model_destroy(m);
}

static void bad_model(const char *text, const char *what)
{
    vsym_reshard_model_t *m = NULL;
    VSYM_CHECK_STATUS(vsym_reshard_model_parse(text, "bad.json", &m), VSYM_ERR_BAD_MODEL, what);
    VSYM_CHECK(m == NULL, "output set on failure");
}

static void bad_layout(const vsym_reshard_model_t *m, const char *text, int world, const char *what)
{
    vsym_reshard_layout_t l;
    vsym_status_t st = vsym_reshard_layout_parse(text, &l);
    if (st == VSYM_OK) st = vsym_reshard_layout_check(&l, world, m);
    VSYM_CHECK(st == VSYM_ERR_BAD_LAYOUT, "layout %s world %d: %s", text, world,
               vsym_status_name(st));
    VSYM_CHECK(strstr(vsym_error_detail(), what) != NULL, "layout %s: detail \"%s\" lacks \"%s\"",
               text, vsym_error_detail(), what);
}

int main(void)
{
    /* Published totals: Llama 3 8B 8.03B, 70B 70.6B, 405B 405.9B (Meta's model cards), Mixtral
     * 8x7B 46.7B, DeepSeek-V3 671B (without its 14B multi-token-prediction module). */
    check_count("llama3-8b", 8.03e9, 0.002);
    check_count("llama3-70b", 70.55e9, 0.002);
    check_count("llama3-405b", 405.85e9, 0.002);
    check_count("mixtral-8x7b", 46.7e9, 0.002);
    check_count("deepseek-v3", 671e9, 0.002);
    vsym_reshard_model_t *m = NULL;
    VSYM_CHECK_STATUS(vsym_reshard_model_preset("gpt-5", &m), VSYM_ERR_NOT_FOUND, "llama3-8b");

    /* True shapes and partitioning of a few Llama-3-8B weights. */
    VSYM_CHECK_OK(vsym_reshard_model_preset("llama3-8b", &m));
    int found = 0;
    for (int t = 0; t < vsym_reshard_model_num_tensors(m); t++) {
        vsym_reshard_tensor_info_t i;
        VSYM_CHECK_OK(vsym_reshard_model_tensor(m, t, &i));
        if (strcmp(i.param_name, "decoder.layers.0.self_attention.linear_qkv.weight") == 0) {
            VSYM_CHECK(i.shape[0] == 6144 && i.shape[1] == 4096 && i.partition_dim == 0 &&
                           i.num_blocks == 3,
                       "qkv shape");
            found++;
        } else if (strcmp(i.param_name, "decoder.layers.31.mlp.linear_fc2.weight") == 0) {
            VSYM_CHECK(i.shape[0] == 4096 && i.shape[1] == 14336 && i.partition_dim == 1,
                       "fc2 shape");
            found++;
        } else if (strcmp(i.param_name, "decoder.layers.5.mlp.linear_fc1.weight") == 0) {
            VSYM_CHECK(i.shape[0] == 28672 && i.partition_stride == 2, "fc1 shape");
            found++;
        } else if (strcmp(i.param_name, "embedding.word_embeddings.weight") == 0) {
            VSYM_CHECK(i.shape[0] == 128256 && i.stage == VSYM_RESHARD_STAGE_FIRST, "embedding");
            found++;
        }
    }
    VSYM_CHECK(found == 4, "found %d of 4 weights", found);

    /* Dump and load back: the same model. */
    char path[] = "/tmp/vsym-reshard-model-XXXXXX";
    int fd = mkstemp(path);
    VSYM_CHECK(fd >= 0, "mkstemp");
    vsym_test_tmp_keep(path);
    close(fd);
    vsym_reshard_model_t *mx;
    VSYM_CHECK_OK(vsym_reshard_model_preset("mixtral-8x7b", &mx));
    VSYM_CHECK_OK(vsym_reshard_model_save(mx, path));
    vsym_reshard_model_t *back;
    vsym_status_t st = vsym_reshard_model_load(path, &back);
    unlink(path);
    VSYM_CHECK_OK(st);
    VSYM_CHECK(vsym_reshard_model_num_tensors(back) == vsym_reshard_model_num_tensors(mx) &&
                   vsym_reshard_model_num_elements(back) == vsym_reshard_model_num_elements(mx) &&
                   vsym_reshard_model_num_layers(back) == 32,
               "round trip differs");
    for (int t = 0; t < vsym_reshard_model_num_tensors(mx); t++) {
        vsym_reshard_tensor_info_t a, b;
        VSYM_CHECK_OK(vsym_reshard_model_tensor(mx, t, &a));
        VSYM_CHECK_OK(vsym_reshard_model_tensor(back, t, &b));
        VSYM_CHECK(strcmp(a.param_name, b.param_name) == 0 && a.partition_dim == b.partition_dim &&
                       a.num_blocks == b.num_blocks && a.expert == b.expert && a.layer == b.layer &&
                       a.stage == b.stage && a.shape[0] == b.shape[0],
                   "tensor %d differs", t);
    }
    vsym_reshard_model_destroy(back);
    VSYM_CHECK_STATUS(vsym_reshard_model_load("/nonexistent/m.json", &back), VSYM_ERR_IO,
                      "/nonexistent/m.json");

    /* Bad model files: the detail names the file, the line and the field. */
    bad_model("{\"params\": [\n  {\"name\": \"a\", \"shape\": [4],, \"layer\": 0}]}",
              "bad.json:2:");
    bad_model("{\"params\": [\n {\"name\": \"a\", \"shape\": [4], \"layer\": 0},\n"
              " {\"name\": \"b\", \"shape\": [4],\n  \"partitoin_dim\": 0, \"layer\": 0}]}",
              "bad.json:4: params[1] (b) field \"partitoin_dim\": unknown field");
    bad_model("{\"params\": [\n {\"name\": \"a\", \"shape\": [4, 4],\n"
              "  \"partition_dim\": 2, \"layer\": 0}]}",
              "bad.json:3: params[0] (a) field \"partition_dim\"");
    bad_model("{\"params\": [{\"name\": \"a\", \"shape\": [12], \"partition_dim\": 0,\n"
              "  \"partition_sizes\": [4, 4], \"layer\": 0}]}",
              "bad.json:2: params[0] (a) field \"partition_sizes\": sizes add up to 8");
    bad_model("{\"params\": [{\"name\": \"a\", \"shape\": [12], \"partition_dim\": 0,\n"
              "  \"partition_stride\": 5, \"layer\": 0}]}",
              "field \"partition_stride\": stride 5 does not divide");
    bad_model("{\"params\": [{\"name\": \"a\", \"shape\": [12], \"layer\": 0,\n"
              "  \"tied_to\": \"nothing\"}]}",
              "bad.json:2: params[0] (a) field \"tied_to\"");
    bad_model("{\"params\": [{\"name\": \"a\", \"shape\": [12], \"layer\": 0},\n"
              "  {\"name\": \"a\", \"shape\": [12], \"layer\": 0}]}",
              "bad.json:2: params[1] (a) field \"name\": duplicate");
    bad_model("{\"params\": [{\"name\": \"a\", \"shape\": [12]}]}",
              "params[0] (a) field \"layer\"");
    bad_model(
        "{\"params\": [{\"name\": \"a\", \"shape\": [12], \"dtype\": \"fp7\", \"layer\": 0}]}",
        "field \"dtype\": unknown dtype \"fp7\"");
    bad_model("{\"params\": [{\"name\": \"a\", \"shape\": [0], \"layer\": 0}]}", "field \"shape\"");
    bad_model("{\"params\": [{\"name\": \"a\", \"shape\": [4], \"layer\": 0, \"expert\": true}]}",
              "field \"num_experts\"");
    bad_model("{\"params\": []}", "field \"params\"");

    /* Layout rules, each named. */
    bad_layout(m, "tp=8,pp=4,dp=2", 32, "tp*pp*dp must equal the world size");
    bad_layout(m, "tp=3,dp=1", 3, "tp must divide the partitioned dimension");
    bad_layout(m, "tp=1,pp=33", 33, "pp must not exceed the layers");
    bad_layout(m, "tp=1,dp=4,ep=2", 4, "ep > 1 needs a model with experts");
    bad_layout(mx, "tp=1,dp=6,ep=3", 6, "ep must divide the experts");
    bad_layout(mx, "tp=2,dp=2,ep=8", 4, "etp*ep must divide tp*dp");
    bad_layout(mx, "tp=4,dp=2,etp=3", 8, "etp*ep must divide tp*dp");
    bad_layout(mx, "tp=2,pp=2,dp=2,etp=1,order=tp-pp-dp", 8, "pipeline stage must agree");
    bad_layout(m, "tp=2,cp=2", 4, "unknown key \"cp\"");
    bad_layout(m, "tp=two", 2, "tp=two is not a positive integer");
    bad_layout(m, "tp=2,order=tp-dp", 2, "order must name tp, dp and pp");
    bad_layout(m, "tp=2,tp=4", 2, "\"tp\" given twice");
    bad_layout(m, "tp=3,pp=1", 8, "tp*pp=3 must divide the world size 8");

    /* Full scale: Llama-3 405B, tp=8,pp=16,dp=8 -> tp=16,pp=8,dp=8 on 1024 ranks conserves
     * bytes (every destination replica gets the whole model) and balances better than the
     * round-robin rule. */
    vsym_reshard_model_t *big;
    VSYM_CHECK_OK(vsym_reshard_model_preset("llama3-405b", &big));
    vsym_reshard_layout_t ls, ld;
    VSYM_CHECK_OK(vsym_reshard_layout_parse("tp=8,pp=16,dp=8", &ls));
    VSYM_CHECK_OK(vsym_reshard_layout_parse("tp=16,pp=8,dp=8", &ld));
    VSYM_CHECK_OK(vsym_reshard_layout_check(&ls, 1024, big));
    VSYM_CHECK_OK(vsym_reshard_layout_check(&ld, 1024, big));
    vsym_reshard_options_t opt = {VSYM_RESHARD_BALANCE_BYTES, -1};
    vsym_reshard_plan_t *p;
    VSYM_CHECK_OK(vsym_reshard_plan_create(big, &ls, &ld, &opt, &p));
    vsym_reshard_stats_t s, rr;
    vsym_reshard_plan_stats(p, &s);
    vsym_reshard_plan_destroy(p);
    /* Every destination replica holds the model; replicated weights (norms) once per TP rank. */
    uint64_t want = 0;
    for (int t = 0; t < vsym_reshard_model_num_tensors(big); t++) {
        vsym_reshard_tensor_info_t i;
        VSYM_CHECK_OK(vsym_reshard_model_tensor(big, t, &i));
        uint64_t b = i.elem_size * (uint64_t)i.shape[0] * (uint64_t)(i.ndim > 1 ? i.shape[1] : 1);
        want += b * 8 * (i.partition_dim < 0 ? 16 : 1);
    }
    VSYM_CHECK(s.bytes_moved + s.bytes_local == want,
               "405B: %" PRIu64 " bytes delivered, %" PRIu64 " needed",
               s.bytes_moved + s.bytes_local, want);
    opt.balance = VSYM_RESHARD_BALANCE_ROUNDROBIN;
    VSYM_CHECK_OK(vsym_reshard_plan_create(big, &ls, &ld, &opt, &p));
    vsym_reshard_plan_stats(p, &rr);
    vsym_reshard_plan_destroy(p);
    printf("405B 1024 ranks: send imbalance %.3f (bytes), %.3f (roundrobin)\n", s.send_imbalance,
           rr.send_imbalance);
    VSYM_CHECK(s.send_imbalance < 1.2 && rr.send_imbalance > 2 * s.send_imbalance,
               "imbalance %.3f vs %.3f", s.send_imbalance, rr.send_imbalance);
    /* One rank's plan is its share of the whole plan (spot checks at full scale). */
    opt.balance = VSYM_RESHARD_BALANCE_BYTES;
    for (int r = 0; r < 1024; r += 341) {
        opt.keep_rank = r;
        VSYM_CHECK_OK(vsym_reshard_plan_create(big, &ls, &ld, &opt, &p));
        uint64_t ops;
        VSYM_CHECK_OK(vsym_reshard_plan_rank_stats(p, r, NULL, NULL, NULL, &ops));
        VSYM_CHECK(ops == vsym_reshard_plan_num_ops(p), "rank %d: %" PRIu64 " vs %zu", r, ops,
                   vsym_reshard_plan_num_ops(p));
        vsym_reshard_plan_destroy(p);
    }
    vsym_reshard_model_destroy(big);

    /* The scaled model keeps its structure and stays plannable at tp up to the quantum. */
    vsym_reshard_model_t *small;
    VSYM_CHECK_OK(vsym_reshard_model_scale(mx, 64, 8, &small));
    VSYM_CHECK(vsym_reshard_model_num_tensors(small) == vsym_reshard_model_num_tensors(mx),
               "scaled tensors");
    check_plan(small, layout("tp=2,dp=2,ep=2"), layout("tp=4,ep=4,etp=1"),
               VSYM_RESHARD_BALANCE_BYTES);
    vsym_reshard_model_destroy(small);

    vsym_reshard_model_destroy(mx);
    vsym_reshard_model_destroy(m);
    printf("reshard_model: ok\n");
    return 0;
}
