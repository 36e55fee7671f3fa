/* Built-in models computed from the published hyper-parameters (the models' config files and
 * papers), with Megatron-LM's parameter names and partitioning:
 *   column-parallel linears (q/k/v, gate/up) are cut on dim 0 of [out, in], row-parallel ones
 *   (attention output, down) on dim 1; the fused QKV holds [q; k; v] as three uneven blocks
 *   (GQA: k and v are smaller than q) and the fused gate/up ([gate; up]) uses stride 2; the
 *   vocabulary-parallel embedding and output head are cut on dim 0; norms and routers are
 *   replicated; per-expert tensors are EP-distributed (experts) and ETP-cut like dense MLPs. */
#include <stdio.h>
#include <string.h>
#include "util/util.h"
#include "reshard/reshard_internal.h"

typedef struct builder {
    vsym_reshard_model_t *m;
    int failed;
} builder_t;

static void add(builder_t *b, const char *name, int ndim, int64_t d0, int64_t d1, int pdim,
                int stride, vsym_reshard_stage_t stage, int layer, int experts,
                const int64_t *sizes, int nsizes, const char *dtype)
{
    reshard_param_t p;
    memset(&p, 0, sizeof(p));
    p.name = (char *)name;
    p.ndim = ndim;
    p.shape[0] = d0;
    p.shape[1] = d1;
    p.elem_size = vsym_reshard_dtype_size(dtype ? dtype : "bf16", &p.dtype);
    p.partition_dim = pdim;
    p.stride = stride;
    p.stage = stage;
    p.layer = stage == VSYM_RESHARD_STAGE_LAYER ? layer : -1;
    p.num_experts = experts;
    p.tied_to = -1;
    if (sizes) {
        p.explicit_sizes = 1;
        p.num_blocks = nsizes;
        p.blocks = (int64_t *)sizes;
    }
    if (!b->failed && vsym_reshard_model_add(b->m, &p) < 0) b->failed = 1;
}

#define LAYER VSYM_RESHARD_STAGE_LAYER

static void layer_param(builder_t *b, int l, const char *suffix, int ndim, int64_t d0, int64_t d1,
                        int pdim, int stride, int experts, const int64_t *sizes, int nsizes,
                        const char *dtype)
{
    char name[160];
    snprintf(name, sizeof(name), "decoder.layers.%d.%s", l, suffix);
    add(b, name, ndim, d0, d1, pdim, stride, LAYER, l, experts, sizes, nsizes, dtype);
}

typedef struct hparams {
    int64_t vocab, hidden, ffn, heads, kv_heads, head_dim;
    int layers;
    int tied;
    /* MoE (Mixtral style when mla == 0) */
    int experts;
    int64_t moe_ffn;
    int first_dense; /* leading dense layers before the MoE ones */
    int shared_experts;
    /* DeepSeek multi-head latent attention */
    int mla;
    int64_t q_lora, kv_lora, qk_nope, qk_rope, v_head;
} hparams_t;

static void gqa_attention(builder_t *b, const hparams_t *h, int l)
{
    int64_t q = h->heads * h->head_dim, kv = h->kv_heads * h->head_dim;
    const int64_t sizes[3] = {q, kv, kv};
    layer_param(b, l, "self_attention.linear_qkv.layer_norm_weight", 1, h->hidden, 0, -1, 1, 0,
                NULL, 0, NULL);
    layer_param(b, l, "self_attention.linear_qkv.weight", 2, q + 2 * kv, h->hidden, 0, 1, 0, sizes,
                3, NULL);
    layer_param(b, l, "self_attention.linear_proj.weight", 2, h->hidden, q, 1, 1, 0, NULL, 0, NULL);
}

static void mla_attention(builder_t *b, const hparams_t *h, int l)
{
    int64_t qk_head = h->qk_nope + h->qk_rope;
    layer_param(b, l, "input_layernorm.weight", 1, h->hidden, 0, -1, 1, 0, NULL, 0, NULL);
    /* The down projections are small and replicated over TP (Megatron's "duplicated"). */
    layer_param(b, l, "self_attention.linear_q_down_proj.weight", 2, h->q_lora, h->hidden, -1, 1, 0,
                NULL, 0, NULL);
    layer_param(b, l, "self_attention.linear_q_up_proj.layer_norm_weight", 1, h->q_lora, 0, -1, 1,
                0, NULL, 0, NULL);
    layer_param(b, l, "self_attention.linear_q_up_proj.weight", 2, h->heads * qk_head, h->q_lora, 0,
                1, 0, NULL, 0, NULL);
    layer_param(b, l, "self_attention.linear_kv_down_proj.weight", 2, h->kv_lora + h->qk_rope,
                h->hidden, -1, 1, 0, NULL, 0, NULL);
    layer_param(b, l, "self_attention.linear_kv_up_proj.layer_norm_weight", 1, h->kv_lora, 0, -1, 1,
                0, NULL, 0, NULL);
    layer_param(b, l, "self_attention.linear_kv_up_proj.weight", 2,
                h->heads * (h->qk_nope + h->v_head), h->kv_lora, 0, 1, 0, NULL, 0, NULL);
    layer_param(b, l, "self_attention.linear_proj.weight", 2, h->hidden, h->heads * h->v_head, 1, 1,
                0, NULL, 0, NULL);
}

static void dense_mlp(builder_t *b, const hparams_t *h, int l, const char *prefix, int64_t ffn,
                      int fused_norm)
{
    char name[128];
    if (fused_norm) {
        snprintf(name, sizeof(name), "%s.linear_fc1.layer_norm_weight", prefix);
        layer_param(b, l, name, 1, h->hidden, 0, -1, 1, 0, NULL, 0, NULL);
    }
    snprintf(name, sizeof(name), "%s.linear_fc1.weight", prefix);
    layer_param(b, l, name, 2, 2 * ffn, h->hidden, 0, 2, 0, NULL, 0, NULL);
    snprintf(name, sizeof(name), "%s.linear_fc2.weight", prefix);
    layer_param(b, l, name, 2, h->hidden, ffn, 1, 1, 0, NULL, 0, NULL);
}

static void moe_mlp(builder_t *b, const hparams_t *h, int l)
{
    layer_param(b, l, "pre_mlp_layernorm.weight", 1, h->hidden, 0, -1, 1, 0, NULL, 0, NULL);
    layer_param(b, l, "mlp.router.weight", 2, h->experts, h->hidden, -1, 1, 0, NULL, 0, NULL);
    if (h->mla) /* DeepSeek-V3's aux-loss-free balancing bias, kept in fp32 */
        layer_param(b, l, "mlp.router.expert_bias", 1, h->experts, 0, -1, 1, 0, NULL, 0, "fp32");
    /* TEGroupedMLP per-expert tensors: "...linear_fc1.weight<global expert index>". */
    layer_param(b, l, "mlp.experts.linear_fc1.weight", 2, 2 * h->moe_ffn, h->hidden, 0, 2,
                h->experts, NULL, 0, NULL);
    layer_param(b, l, "mlp.experts.linear_fc2.weight", 2, h->hidden, h->moe_ffn, 1, 1, h->experts,
                NULL, 0, NULL);
    if (h->shared_experts)
        dense_mlp(b, h, l, "mlp.shared_experts", h->moe_ffn * h->shared_experts, 0);
}

static vsym_status_t build(const char *name, const hparams_t *h, vsym_reshard_model_t **model_p)
{
    builder_t b = {.m = vsym_reshard_model_new(name)};
    if (!b.m) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "preset %s: no memory", name);
    b.m->num_layers = h->layers;
    add(&b, "embedding.word_embeddings.weight", 2, h->vocab, h->hidden, 0, 1,
        VSYM_RESHARD_STAGE_FIRST, -1, 0, NULL, 0, NULL);
    for (int l = 0; l < h->layers; l++) {
        if (h->mla)
            mla_attention(&b, h, l);
        else
            gqa_attention(&b, h, l);
        if (h->experts > 0 && l >= h->first_dense) {
            moe_mlp(&b, h, l);
        } else if (h->mla) {
            layer_param(&b, l, "pre_mlp_layernorm.weight", 1, h->hidden, 0, -1, 1, 0, NULL, 0,
                        NULL);
            dense_mlp(&b, h, l, "mlp", h->ffn, 0);
        } else {
            dense_mlp(&b, h, l, "mlp", h->ffn, 1);
        }
    }
    add(&b, "decoder.final_layernorm.weight", 1, h->hidden, 0, -1, 1, VSYM_RESHARD_STAGE_LAST, -1,
        0, NULL, 0, NULL);
    add(&b, "output_layer.weight", 2, h->vocab, h->hidden, 0, 1, VSYM_RESHARD_STAGE_LAST, -1, 0,
        NULL, 0, NULL);
    if (!b.failed && h->tied) {
        b.m->params[b.m->num_params - 1].tied_to = 0;
    }
    vsym_status_t st = b.failed ? VSYM_FAIL(VSYM_ERR_NO_MEMORY, "preset %s: no memory", name)
                                : vsym_reshard_model_finish(b.m);
    if (st != VSYM_OK) {
        vsym_reshard_model_destroy(b.m);
        return st;
    }
    *model_p = b.m;
    return VSYM_OK;
}

static const char *const preset_names[] = {"llama3-8b",    "llama3-70b",  "llama3-405b",
                                           "mixtral-8x7b", "deepseek-v3", NULL};

VSYM_API const char *const *vsym_reshard_model_presets(void)
{
    return preset_names;
}

VSYM_API vsym_status_t vsym_reshard_model_preset(const char *name, vsym_reshard_model_t **model_p)
{
    if (!name || !model_p) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "model_preset: NULL argument");
    hparams_t h;
    memset(&h, 0, sizeof(h));
    /* Llama 3 / 3.1 (config.json of the released checkpoints): vocabulary 128256, head_dim
     * 128, 8 KV heads, untied output head. */
    h.vocab = 128256;
    h.head_dim = 128;
    h.kv_heads = 8;
    if (strcmp(name, "llama3-8b") == 0) {
        h.hidden = 4096, h.ffn = 14336, h.heads = 32, h.layers = 32;
    } else if (strcmp(name, "llama3-70b") == 0) {
        h.hidden = 8192, h.ffn = 28672, h.heads = 64, h.layers = 80;
    } else if (strcmp(name, "llama3-405b") == 0) {
        h.hidden = 16384, h.ffn = 53248, h.heads = 128, h.layers = 126;
    } else if (strcmp(name, "mixtral-8x7b") == 0) {
        /* Mixtral 8x7B: Mistral-7B attention, 8 experts of ffn 14336, vocabulary 32000. */
        h.vocab = 32000, h.hidden = 4096, h.heads = 32, h.layers = 32;
        h.experts = 8, h.moe_ffn = 14336;
    } else if (strcmp(name, "deepseek-v3") == 0) {
        /* DeepSeek-V3 (671B, without the multi-token-prediction module): 61 layers, the first
         * 3 dense (ffn 18432), then 256 routed experts of ffn 2048 and 1 shared expert; MLA
         * with q_lora 1536, kv_lora 512, 128 heads of 128 (+64 rope) dims. */
        h.vocab = 129280, h.hidden = 7168, h.ffn = 18432, h.heads = 128, h.layers = 61;
        h.experts = 256, h.moe_ffn = 2048, h.first_dense = 3, h.shared_experts = 1;
        h.mla = 1, h.q_lora = 1536, h.kv_lora = 512, h.qk_nope = 128, h.qk_rope = 64;
        h.v_head = 128;
    } else {
        return vsym_util_fail_quiet(VSYM_ERR_NOT_FOUND,
                                    "unknown model preset \"%s\" (llama3-8b, llama3-70b, "
                                    "llama3-405b, mixtral-8x7b, deepseek-v3)",
                                    name);
    }
    return build(name, &h, model_p);
}
