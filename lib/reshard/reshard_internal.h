/* Internal state of the reshard module: the model representation shared by the model parser,
 * the presets, the layout rules, the planner and the executor. */
#ifndef VSYM_RESHARD_INTERNAL_H
#define VSYM_RESHARD_INTERNAL_H

#include <stdint.h>
#include <vsym/reshard.h>

typedef struct reshard_param {
    char *name;
    int ndim;
    int64_t shape[VSYM_RESHARD_MAX_DIMS];
    const char *dtype; /* static string */
    size_t elem_size;
    int partition_dim; /* -1: replicated */
    int stride;
    int explicit_sizes; /* blocks came from partition_sizes, not from the stride */
    int num_blocks;     /* >= 1 when partitioned */
    int64_t *blocks;    /* sizes of the blocks along partition_dim */
    vsym_reshard_stage_t stage;
    int layer;
    int num_experts; /* 0: not an expert parameter */
    int tied_to;     /* parameter index, or -1 */
    int first_tensor;
} reshard_param_t;

struct vsym_reshard_model {
    char *name;
    int num_layers;
    int num_params;
    int cap_params;
    reshard_param_t *params;
    int num_tensors;
    int *tensor_param; /* tensor -> parameter */
};

/* Building models (presets, parser, scaling). */
vsym_reshard_model_t *vsym_reshard_model_new(const char *name);
/* Append a parameter (copies name and blocks); returns its index or -1 when out of memory. */
int vsym_reshard_model_add(vsym_reshard_model_t *m, const reshard_param_t *p);
/* Number the tensors after the last parameter was added. */
vsym_status_t vsym_reshard_model_finish(vsym_reshard_model_t *m);

/* Element size of a dtype name, 0 when unknown; the static spelling through *canon_p. */
size_t vsym_reshard_dtype_size(const char *dtype, const char **canon_p);

/* The pipeline stage of a parameter under pp stages of num_layers layers. */
int vsym_reshard_stage_of(const vsym_reshard_model_t *m, const reshard_param_t *p, int pp);

static inline uint64_t reshard_param_elements(const reshard_param_t *p)
{
    uint64_t n = 1;
    for (int d = 0; d < p->ndim; d++)
        n *= (uint64_t)p->shape[d];
    return n;
}

/* ---- Layout arithmetic (layout.c) --------------------------------------------------------- */

/* Strides of each coordinate in a layout's rank numbering, dense and expert decompositions. */
typedef struct reshard_grid {
    int world, first;
    int tp, pp, dp, ep, etp, edp;
    int s_tp, s_dp, s_pp;          /* dense */
    int s_etp, s_ep, s_edp, s_epp; /* expert */
} reshard_grid_t;

void vsym_reshard_grid(const vsym_reshard_layout_t *l, reshard_grid_t *g);

/* Coordinates of job rank r (-1 everywhere when r is outside the layout). */
typedef struct reshard_coords {
    int tp, dp, pp, etp, ep, edp;
} reshard_coords_t;
void vsym_reshard_coords(const reshard_grid_t *g, int rank, reshard_coords_t *c);

/* Is tensor t of parameter p stored separately under this layout? (A tied parameter is stored
 * only where it lands on another stage than the parameter it is tied to.) */
int vsym_reshard_materialised(const vsym_reshard_model_t *m, const reshard_param_t *p, int pp);

/* ---- Plans (plan.c), read by the executor ---------------------------------------------- */

typedef struct plan_op {
    uint64_t task_id;
    int64_t my_off, peer_off, len; /* along the partition dim (the whole dim 0 when replicated) */
    int32_t tensor, src_tensor;
    int32_t rank, peer;
    int32_t dir;
} plan_op_t;

struct vsym_reshard_plan {
    const vsym_reshard_model_t *model;
    vsym_reshard_layout_t src, dst;
    reshard_grid_t gs, gd;
    vsym_reshard_options_t opt;
    int num_ranks;
    plan_op_t *ops;
    size_t num_ops, cap_ops;
    uint64_t *sent, *received, *local, *rank_ops;
    uint64_t next_task;
    /* Replica groups (the ranks holding one source shard, in candidate order), found by
     * their member list: for the balance bound and the largest-first assignment. */
    struct reshard_group {
        int *members;
        int size;
        uint64_t hash, bytes;
    } * groups;
    size_t num_groups, cap_groups;
    uint32_t *group_slots; /* open addressing: group index + 1, 0 when free */
    size_t cap_slots;
    /* Largest-first replica choice (VSYM_RESHARD_BALANCE_BYTES): pass 1 of the walk collects
     * the remote requests, they are assigned largest first to the least-loaded member of their
     * group, and pass 2 replays the walk with those choices. */
    int pass;
    struct reshard_request {
        uint64_t bytes;
        uint32_t seq, group;
    } * requests;
    size_t num_requests, cap_requests, next_request;
    int32_t *choice;
    vsym_reshard_stats_t stats;
};

#endif
