/* vsym reshard: move a model's parameters from one parallel layout to another.
 *
 * Model. A model is a list of parameters (weights). Each has a global shape, a data type, an
 * optional tensor-parallel (TP) partition dimension cut into equal parts (with a stride, or in
 * uneven blocks each cut separately), a pipeline placement (a layer index, or the first / last
 * stage), optionally an expert count (the parameter then stands for that many per-expert
 * tensors, spread over the expert-parallel (EP) ranks) and optionally the parameter it is tied to
 * (an output head sharing the input embedding). A parameter expands to one TENSOR per expert (or
 * one tensor); tensors are numbered 0..num_tensors-1 in model order, and transfer ops name them.
 * Models come from a JSON model file (see vsym_reshard_model_load) or a built-in preset.
 *
 * Layout. tp x pp x dp ranks (the world), with EP carved out of DP for experts (Megatron's
 * expert decomposition: tp*dp ranks of a stage regrouped as etp x ep x edp) and a rank order.
 *
 * Plan. A pure function of (model, source layout, destination layout, options): no I/O and no
 * communication, so every rank computes the same plan, and one machine can plan for thousands of
 * ranks. Per rank: transfer ops (tensor, peer, direction, my slice, peer slice, task id) whose
 * receives cover every destination element exactly once; task ids are the same on both sides
 * of a transfer without any exchange.
 *
 * Local tensors are row-major over their local shape. A rank holding a TP-partitioned tensor
 * holds, along the partition dimension, its part of every block, concatenated in block order.
 *
 * Threads: model, layout and plan functions are reentrant; a handle may be read by several
 * threads at once and must not be destroyed while in use. */
#ifndef VSYM_RESHARD_H
#define VSYM_RESHARD_H

#include <stddef.h>
#include <stdint.h>
#include <vsym/status.h>
#include <vsym/core.h>
#include <vsym/copy.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VSYM_RESHARD_MAX_DIMS 4

typedef struct vsym_reshard_model vsym_reshard_model_t;
typedef struct vsym_reshard_plan vsym_reshard_plan_t;
typedef struct vsym_reshard_exec vsym_reshard_exec_t;

/* ---- Models ------------------------------------------------------------------------------- */

/* Where a parameter lives in the pipeline. */
typedef enum vsym_reshard_stage {
    VSYM_RESHARD_STAGE_LAYER, /* in the stage holding its layer */
    VSYM_RESHARD_STAGE_FIRST, /* first stage (embedding) */
    VSYM_RESHARD_STAGE_LAST,  /* last stage (final norm, output head) */
} vsym_reshard_stage_t;

/* One tensor of a model, as returned by vsym_reshard_model_tensor(). Pointers stay valid while
 * the model lives. */
typedef struct vsym_reshard_tensor_info {
    const char *param_name; /* the parameter's name ("...linear_fc1.weight") */
    int param;              /* index of the parameter in the model */
    int expert;             /* global expert index, or -1 for a non-expert parameter */
    int ndim;
    int64_t shape[VSYM_RESHARD_MAX_DIMS]; /* global shape */
    const char *dtype;                    /* "bf16", "fp16", "fp32", "fp8", "int8", "fp64" */
    size_t elem_size;
    int partition_dim;    /* -1: not partitioned (replicated over TP) */
    int partition_stride; /* >= 1 */
    int num_blocks;       /* blocks along the partition dim (stride or uneven sizes) */
    vsym_reshard_stage_t stage;
    int layer;       /* for VSYM_RESHARD_STAGE_LAYER, else -1 */
    int num_experts; /* 0 for a non-expert parameter */
    int tied_to;     /* tensor index this one is tied to, or -1 */
} vsym_reshard_tensor_info_t;

/* Load a JSON model file:
 *   {"name": "m", "num_layers": 2, "params": [
 *      {"name": "embedding.weight", "shape": [1024, 64], "dtype": "bf16", "partition_dim": 0,
 *       "stage": "first"},
 *      {"name": "layers.0.qkv.weight", "shape": [192, 64], "dtype": "bf16", "partition_dim": 0,
 *       "partition_sizes": [64, 64, 64], "layer": 0},
 *      {"name": "layers.0.fc1.weight", "shape": [256, 64], "partition_dim": 0,
 *       "partition_stride": 2, "layer": 0},
 *      {"name": "layers.1.experts.fc1.weight", "shape": [128, 64], "partition_dim": 0,
 *       "layer": 1, "expert": true, "num_experts": 8},
 *      {"name": "output.weight", "shape": [1024, 64], "partition_dim": 0, "stage": "last",
 *       "tied_to": "embedding.weight"}]}
 * partition_stride S cuts the partition dim into S equal blocks; partition_sizes gives blocks
 * of their own sizes (a fused [q; k; v] with GQA); each block is cut into TP parts and a TP
 * rank holds its part of every block. An expert parameter stands for num_experts tensors of
 * that shape, cut by the expert TP size. "stage" is "first" or "last" for parameters outside
 * the layers; the layers are spread evenly over the pipeline stages.
 * Defaults: dtype bf16, partition_dim -1, partition_stride 1. num_layers defaults to the
 * largest layer + 1. Per-expert tensors are named param_name + the global expert index
 * (Megatron's weightK renaming). Returns VSYM_ERR_BAD_MODEL with a detail naming the file, the
 * line and the field ('m.json:12: params[3] (name) field "partition_dim": ...'), VSYM_ERR_IO when
 * the file cannot be read, VSYM_ERR_NO_MEMORY. */
VSYM_API vsym_status_t vsym_reshard_model_load(const char *path, vsym_reshard_model_t **model_p);

/* The same from JSON text in memory; source_name names it in error details. */
VSYM_API vsym_status_t vsym_reshard_model_parse(const char *json_text, const char *source_name,
                                                vsym_reshard_model_t **model_p);

/* A built-in model computed from published hyper-parameters: "llama3-8b", "llama3-70b",
 * "llama3-405b", "mixtral-8x7b", "deepseek-v3". VSYM_ERR_NOT_FOUND for another name (the
 * detail lists the presets). */
VSYM_API vsym_status_t vsym_reshard_model_preset(const char *name, vsym_reshard_model_t **model_p);

/* The preset names, NULL-terminated. */
VSYM_API const char *const *vsym_reshard_model_presets(void);

/* Write a model as a model file that vsym_reshard_model_load() reads back. VSYM_ERR_IO. */
VSYM_API vsym_status_t vsym_reshard_model_save(const vsym_reshard_model_t *model, const char *path);

/* A copy of the model with every dimension of every parameter divided by divisor (1/divisor of
 * each dimension, so a matrix shrinks divisor^2 times) and the experts and layers kept; each
 * block of a partition dimension stays a multiple of quantum, so that TP sizes dividing
 * quantum still divide it. VSYM_ERR_INVALID_PARAM for divisor < 1 or quantum < 1. */
VSYM_API vsym_status_t vsym_reshard_model_scale(const vsym_reshard_model_t *model, int divisor,
                                                int quantum, vsym_reshard_model_t **model_p);

VSYM_API void vsym_reshard_model_destroy(vsym_reshard_model_t *model);

VSYM_API const char *vsym_reshard_model_name(const vsym_reshard_model_t *model);
VSYM_API int vsym_reshard_model_num_params(const vsym_reshard_model_t *model);
VSYM_API int vsym_reshard_model_num_tensors(const vsym_reshard_model_t *model);
VSYM_API int vsym_reshard_model_num_layers(const vsym_reshard_model_t *model);
/* Elements of all parameters, experts included, tied parameters counted once. */
VSYM_API uint64_t vsym_reshard_model_num_elements(const vsym_reshard_model_t *model);
/* Bytes of all parameters, counted as vsym_reshard_model_num_elements(). */
VSYM_API uint64_t vsym_reshard_model_num_bytes(const vsym_reshard_model_t *model);

/* Describe tensor t (0..num_tensors-1). VSYM_ERR_INVALID_PARAM for t out of range. */
VSYM_API vsym_status_t vsym_reshard_model_tensor(const vsym_reshard_model_t *model, int t,
                                                 vsym_reshard_tensor_info_t *info_p);

/* The full name of tensor t (per-expert tensors carry the expert index) into buf. */
VSYM_API const char *vsym_reshard_tensor_name(const vsym_reshard_model_t *model, int t, char *buf,
                                              size_t len);

/* ---- Layouts ------------------------------------------------------------------------------ */

/* A parallel layout. world = tp*pp*dp. Experts: the tp*dp ranks of a stage are regrouped as
 * etp x ep x edp (edp = tp*dp/(etp*ep)). order lists the dimensions from fastest to slowest
 * varying: 'T' tp, 'E' ep, 'D' dp, 'P' pp (e.g. "TEDP", the default "tp-ep-dp-pp"); in the
 * expert decomposition tp stands for etp and dp for edp. first_rank places the layout's ranks
 * at first_rank..first_rank+world-1 of the job (disjoint source and destination sets). */
typedef struct vsym_reshard_layout {
    int tp, pp, dp, ep, etp;
    char order[5];
    int first_rank;
} vsym_reshard_layout_t;

/* Parse "tp=8,pp=4,dp=2[,ep=2][,etp=1][,order=tp-dp-pp][,first=0]". Missing tp/pp/ep/etp
 * default to 1, etp to tp; a missing dp is filled in by vsym_reshard_layout_check() from the
 * world size (0 here). VSYM_ERR_BAD_LAYOUT naming the bad key or value. */
VSYM_API vsym_status_t vsym_reshard_layout_parse(const char *text, vsym_reshard_layout_t *layout_p);

/* Check a layout against a world size and a model (model may be NULL: size rules only), and
 * fill in a dp of 0. Rules, each named in the detail on failure (VSYM_ERR_BAD_LAYOUT):
 * "tp*pp*dp must equal the world size", "tp must divide ... of parameter P", "pp must not
 * exceed the layers", "ep must divide the experts", "etp*ep must divide tp*dp", "etp must
 * divide ...", "ep > 1 needs a model with experts", "pipeline stage must agree between the
 * dense and expert rank orders". */
VSYM_API vsym_status_t vsym_reshard_layout_check(vsym_reshard_layout_t *layout, int world,
                                                 const vsym_reshard_model_t *model);

/* "tp=8,pp=4,dp=2,ep=1,etp=8,order=tp-ep-dp-pp" into buf. */
VSYM_API const char *vsym_reshard_layout_format(const vsym_reshard_layout_t *layout, char *buf,
                                                size_t len);

/* What rank r (a job rank) holds of tensor t under a layout: *held_p = 0 when nothing. Else the
 * local shape, and along the partition dimension the pieces [global_offset, +length) stored at
 * local_offset (num_pieces of them, at most max_pieces written). Lets a caller fill or check
 * its local shards. VSYM_ERR_INVALID_PARAM for a bad t. */
typedef struct vsym_reshard_piece {
    int64_t global_offset, local_offset, length;
} vsym_reshard_piece_t;
VSYM_API vsym_status_t vsym_reshard_local_shard(const vsym_reshard_model_t *model,
                                                const vsym_reshard_layout_t *layout, int rank,
                                                int t, int *held_p, int64_t *local_shape,
                                                vsym_reshard_piece_t *pieces, int max_pieces,
                                                int *num_pieces_p);

/* ---- Plans -------------------------------------------------------------------------------- */

typedef enum vsym_reshard_balance {
    VSYM_RESHARD_BALANCE_BYTES,      /* local copy first, else the least-loaded replica */
    VSYM_RESHARD_BALANCE_ROUNDROBIN, /* Megatron's rule: replica by destination rank index */
} vsym_reshard_balance_t;

typedef enum vsym_reshard_dir {
    VSYM_RESHARD_SEND,
    VSYM_RESHARD_RECV,
    VSYM_RESHARD_LOCAL, /* copy from my source tensor to my destination tensor */
} vsym_reshard_dir_t;

/* A slice: [offset, offset+length) in each dimension of a local tensor. */
typedef struct vsym_reshard_slice {
    int ndim;
    int64_t offset[VSYM_RESHARD_MAX_DIMS];
    int64_t length[VSYM_RESHARD_MAX_DIMS];
} vsym_reshard_slice_t;

/* One transfer (Megatron's TransferOp). For SEND my_slice is in my source tensor and peer_slice
 * in the peer's destination tensor; for RECV my_slice is in my destination tensor and
 * peer_slice in the peer's source tensor; for LOCAL my_slice is in my destination tensor and
 * peer_slice in my source tensor (peer == me). A tied tensor's source may be the tensor it is
 * tied to: src_tensor names the source tensor. */
typedef struct vsym_reshard_op {
    uint64_t task_id;
    int tensor;     /* destination tensor */
    int src_tensor; /* source tensor (== tensor unless tied) */
    int peer;
    vsym_reshard_dir_t dir;
    vsym_reshard_slice_t my_slice;
    vsym_reshard_slice_t peer_slice;
    size_t bytes;
} vsym_reshard_op_t;

/* Planning options. keep_rank: the rank whose ops the plan keeps (-1: none, statistics only;
 * VSYM_RESHARD_KEEP_ALL: every rank's). */
#define VSYM_RESHARD_KEEP_ALL (-2)
typedef struct vsym_reshard_options {
    vsym_reshard_balance_t balance;
    int keep_rank;
} vsym_reshard_options_t;

/* Plan moving every tensor of model from layout src to layout dst (both checked as by
 * vsym_reshard_layout_check against their own world). Pure: every rank gets the same ops for
 * itself that the others compute for it. Returns VSYM_ERR_BAD_LAYOUT, VSYM_ERR_NO_MEMORY. */
VSYM_API vsym_status_t vsym_reshard_plan_create(const vsym_reshard_model_t *model,
                                                const vsym_reshard_layout_t *src,
                                                const vsym_reshard_layout_t *dst,
                                                const vsym_reshard_options_t *options,
                                                vsym_reshard_plan_t **plan_p);

VSYM_API void vsym_reshard_plan_destroy(vsym_reshard_plan_t *plan);

/* Ops kept (those of keep_rank, or of every rank in walk order for VSYM_RESHARD_KEEP_ALL). */
VSYM_API size_t vsym_reshard_plan_num_ops(const vsym_reshard_plan_t *plan);
/* Op i and, for KEEP_ALL, the rank it belongs to. VSYM_ERR_INVALID_PARAM for i out of range. */
VSYM_API vsym_status_t vsym_reshard_plan_op(const vsym_reshard_plan_t *plan, size_t i, int *rank_p,
                                            vsym_reshard_op_t *op_p);

/* Plan statistics over every rank of the job (ranks 0..num_ranks-1). Bytes exclude local
 * copies (counted apart). imbalance = max / mean. */
typedef struct vsym_reshard_stats {
    int num_ranks;
    uint64_t num_transfers; /* send/receive pairs */
    uint64_t num_local;     /* local copies */
    uint64_t bytes_moved;   /* over all transfers */
    uint64_t bytes_local;   /* over all local copies */
    uint64_t max_sent, max_received;
    double mean_sent;     /* bytes_moved / ranks of the source layout */
    double mean_received; /* bytes_moved / ranks of the destination layout */
    double send_imbalance, recv_imbalance;
    int busiest_sender, busiest_receiver;
    /* The least send imbalance any replica choice could reach with these layouts (local copies
     * kept): max over replica groups of (bytes the group sends / its size) / mean_sent. */
    double send_imbalance_bound;
    uint64_t max_ops_per_rank;
} vsym_reshard_stats_t;
VSYM_API void vsym_reshard_plan_stats(const vsym_reshard_plan_t *plan,
                                      vsym_reshard_stats_t *stats_p);

/* Per-rank figures: bytes sent, received, copied locally, ops (send+recv+local). Ranks beyond
 * the plan's ranks get zeros. VSYM_ERR_BAD_RANK for a negative rank. */
VSYM_API vsym_status_t vsym_reshard_plan_rank_stats(const vsym_reshard_plan_t *plan, int rank,
                                                    uint64_t *sent_p, uint64_t *received_p,
                                                    uint64_t *local_p, uint64_t *ops_p);

/* ---- Execution ---------------------------------------------------------------------------- */

/* Optional settings of vsym_reshard_exec_create(). dst_arena: when every destination tensor of
 * this rank lies inside [dst_arena, dst_arena + dst_arena_size), receives are registered against
 * that one buffer, so the copy service makes one region reachable instead of one per tensor. */
typedef struct vsym_reshard_exec_options {
    void *dst_arena;
    size_t dst_arena_size;
} vsym_reshard_exec_options_t;

/* Prepare this rank's transfers (the plan must have been created with keep_rank = my rank in
 * team; plan ranks are team ranks) over a copy service of team. src[t] is my local shard of
 * tensor t in the source layout (NULL where I hold none), dst[t] my shard in the destination
 * layout. Slices move straight between the tensors (zero copy on the receiving side where the
 * copy service can expose it); strided slices are registered as rows of the copy service
 * (vsym_copy_register_*_rows), so no packing pass; local ops are copied directly. Source and destination rank
 * sets may be the same ranks or disjoint ones. options may be NULL. Collective over team
 * (schedules the copy service). Returns VSYM_ERR_INVALID_PARAM (a needed buffer is NULL, the plan
 * belongs to another rank, the team is smaller than the plan's ranks, a tensor outside
 * dst_arena), VSYM_ERR_NO_MEMORY, and the statuses of vsym_copy_create/register/schedule. */
VSYM_API vsym_status_t vsym_reshard_exec_create(vsym_team_t *team, const vsym_reshard_plan_t *plan,
                                                void *const *src, void *const *dst,
                                                const vsym_reshard_exec_options_t *options,
                                                vsym_reshard_exec_t **exec_p);

/* Move the data once (repeatable, e.g. a weight refit per training step). Collective over the
 * team; on return my destination tensors hold their data and my source tensors may change. */
VSYM_API vsym_status_t vsym_reshard_exec_run(vsym_reshard_exec_t *exec);

/* This rank's bytes per run: sent to peers, received from peers, copied locally. */
VSYM_API void vsym_reshard_exec_bytes(const vsym_reshard_exec_t *exec, uint64_t *sent_p,
                                      uint64_t *received_p, uint64_t *local_p);

/* The copy service the executor drives (for its statistics). */
VSYM_API vsym_copy_t *vsym_reshard_exec_copy(const vsym_reshard_exec_t *exec);

/* Free the execution state and its copy service. Collective over the team. NULL is a no-op. */
VSYM_API vsym_status_t vsym_reshard_exec_destroy(vsym_reshard_exec_t *exec);

/* ---- Test patterns ------------------------------------------------------------------------ */

/* Bytes of rank's local shard of tensor t under layout (0 when it holds none). */
VSYM_API size_t vsym_reshard_shard_bytes(const vsym_reshard_model_t *model,
                                         const vsym_reshard_layout_t *layout, int rank, int t);

/* Fill rank's local shard of tensor t (buf, vsym_reshard_shard_bytes() bytes) with the test
 * pattern: each element's bytes are a function of the parameter's name (the name of the tensor
 * it is tied to, for a tied one; expert tensors by their renamed name) and its GLOBAL index, so
 * that the same element has the same value in every layout. */
VSYM_API vsym_status_t vsym_reshard_pattern_fill(const vsym_reshard_model_t *model,
                                                 const vsym_reshard_layout_t *layout, int rank,
                                                 int t, void *buf);

/* Count the elements of rank's shard of tensor t that differ from the pattern (*wrong_p), and
 * the local linear index of the first (*first_p, -1 when none). */
VSYM_API vsym_status_t vsym_reshard_pattern_check(const vsym_reshard_model_t *model,
                                                  const vsym_reshard_layout_t *layout, int rank,
                                                  int t, const void *buf, uint64_t *wrong_p,
                                                  int64_t *first_p);

#ifdef __cplusplus
}
#endif
#endif
