/* Model descriptions: the in-memory model, the JSON model file (read with jansson, written back
 * by vsym_reshard_model_save), scaling, and the accessors. Presets are in presets.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "util/util.h"
#include "reshard/reshard_internal.h"

static const struct {
    const char *name;
    size_t size;
} dtypes[] = {
    {"bf16", 2}, {"fp16", 2}, {"fp32", 4}, {"fp64", 8}, {"fp8", 1}, {"int8", 1},
};

size_t vsym_reshard_dtype_size(const char *dtype, const char **canon_p)
{
    for (size_t i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++) {
        if (strcmp(dtype, dtypes[i].name) == 0) {
            if (canon_p) *canon_p = dtypes[i].name;
            return dtypes[i].size;
        }
    }
    return 0;
}

vsym_reshard_model_t *vsym_reshard_model_new(const char *name)
{
    vsym_reshard_model_t *m = calloc(1, sizeof(*m));
    if (!m) return NULL;
    m->name = strdup(name ? name : "model");
    if (!m->name) {
        free(m);
        return NULL;
    }
    return m;
}

int vsym_reshard_model_add(vsym_reshard_model_t *m, const reshard_param_t *p)
{
    if (m->num_params == m->cap_params) {
        int cap = m->cap_params ? 2 * m->cap_params : 64;
        reshard_param_t *np = realloc(m->params, (size_t)cap * sizeof(*np));
        if (!np) return -1;
        m->params = np;
        m->cap_params = cap;
    }
    reshard_param_t *q = &m->params[m->num_params];
    *q = *p;
    q->name = strdup(p->name);
    q->blocks = NULL;
    if (!q->name) return -1;
    if (p->partition_dim >= 0) {
        /* A stride S is S equal blocks: both kinds go through the same block code. */
        int nb = p->explicit_sizes ? p->num_blocks : p->stride;
        q->num_blocks = nb;
        q->blocks = malloc((size_t)nb * sizeof(int64_t));
        if (!q->blocks) {
            free(q->name);
            return -1;
        }
        for (int b = 0; b < nb; b++)
            q->blocks[b] = p->explicit_sizes ? p->blocks[b] : p->shape[p->partition_dim] / nb;
    } else {
        q->num_blocks = 0;
    }
    return m->num_params++;
}

vsym_status_t vsym_reshard_model_finish(vsym_reshard_model_t *m)
{
    int n = 0;
    for (int i = 0; i < m->num_params; i++) {
        m->params[i].first_tensor = n;
        n += m->params[i].num_experts > 0 ? m->params[i].num_experts : 1;
    }
    free(m->tensor_param);
    m->tensor_param = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!m->tensor_param)
        return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "model %s: no memory for %d tensors", m->name, n);
    for (int i = 0; i < m->num_params; i++) {
        int k = m->params[i].num_experts > 0 ? m->params[i].num_experts : 1;
        for (int e = 0; e < k; e++)
            m->tensor_param[m->params[i].first_tensor + e] = i;
    }
    m->num_tensors = n;
    int max_layer = -1;
    for (int i = 0; i < m->num_params; i++)
        if (m->params[i].stage == VSYM_RESHARD_STAGE_LAYER && m->params[i].layer > max_layer)
            max_layer = m->params[i].layer;
    if (m->num_layers <= max_layer) m->num_layers = max_layer + 1;
    return VSYM_OK;
}

VSYM_API void vsym_reshard_model_destroy(vsym_reshard_model_t *m)
{
    if (!m) return;
    for (int i = 0; i < m->num_params; i++) {
        free(m->params[i].name);
        free(m->params[i].blocks);
    }
    free(m->params);
    free(m->tensor_param);
    free(m->name);
    free(m);
}

int vsym_reshard_stage_of(const vsym_reshard_model_t *m, const reshard_param_t *p, int pp)
{
    switch (p->stage) {
    case VSYM_RESHARD_STAGE_FIRST:
        return 0;
    case VSYM_RESHARD_STAGE_LAST:
        return pp - 1;
    default:
        /* Layers spread as evenly as possible: stage s holds the layers l with
         * floor(l * pp / L) == s (126 layers over 16 stages: 7 or 8 each). */
        return (int)((int64_t)p->layer * pp / (m->num_layers > 0 ? m->num_layers : 1));
    }
}

/* ---- Locating a field in the JSON text for error messages ---------------------------------- */

/* jansson keeps no source positions for values, so the line of params[index].key is found by
 * scanning the text once more (strings, nesting and keys only). Returns the line of the key,
 * else of the start of params[index], else 0. */
static int locate_line(const char *text, int index, const char *key)
{
    enum { MAXD = 64 };
    char kind[MAXD];      /* '{' or '[' */
    int elem[MAXD];       /* element index inside an array */
    int expect_key[MAXD]; /* inside an object, the next string is a key */
    int in_params = 0;    /* the depth-1 key last read is "params" */
    int depth = 0, line = 1, elem_line = 0;
    for (const char *c = text; *c; c++) {
        if (*c == '\n') {
            line++;
        } else if (*c == '"') {
            const char *start = c + 1;
            for (c++; *c && *c != '"'; c++) {
                if (*c == '\\' && c[1])
                    c++;
                else if (*c == '\n')
                    line++;
            }
            if (!*c) break;
            size_t len = (size_t)(c - start);
            if (depth > 0 && kind[depth - 1] == '{' && expect_key[depth - 1]) {
                expect_key[depth - 1] = 0;
                if (depth == 1)
                    in_params = len == 6 && strncmp(start, "params", 6) == 0;
                else if (depth == 3 && in_params && elem[1] == index && key && strlen(key) == len &&
                         strncmp(start, key, len) == 0)
                    return line;
            }
        } else if (*c == '{' || *c == '[') {
            if (depth == 2 && in_params && kind[1] == '[' && elem[1] == index) elem_line = line;
            if (depth == MAXD) return elem_line;
            kind[depth] = *c;
            elem[depth] = 0;
            expect_key[depth] = *c == '{';
            depth++;
        } else if (*c == '}' || *c == ']') {
            if (depth > 0) depth--;
            if (depth == 2 && in_params && elem[1] == index && elem_line) return elem_line;
        } else if (*c == ',' && depth > 0) {
            elem[depth - 1]++;
            if (kind[depth - 1] == '{') expect_key[depth - 1] = 1;
        }
    }
    return elem_line;
}

typedef struct parse_ctx {
    const char *source;
    const char *text;
} parse_ctx_t;

/* VSYM_ERR_BAD_MODEL naming source, line, params[i] and the field. */
__attribute__((format(printf, 5, 6))) static vsym_status_t bad_field(const parse_ctx_t *pc,
                                                                     int index, const char *pname,
                                                                     const char *field,
                                                                     const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    int line = index >= 0 ? locate_line(pc->text, index, field) : 0;
    char where[64] = "";
    if (line > 0) snprintf(where, sizeof(where), ":%d", line);
    if (index < 0)
        return vsym_util_fail_quiet(VSYM_ERR_BAD_MODEL, "%s%s: field \"%s\": %s", pc->source, where,
                                    field, why);
    return vsym_util_fail_quiet(VSYM_ERR_BAD_MODEL, "%s%s: params[%d]%s%s%s field \"%s\": %s",
                                pc->source, where, index, pname ? " (" : "", pname ? pname : "",
                                pname ? ")" : "", field, why);
}

static int json_is_int_in(const json_t *v, long long lo, long long hi)
{
    return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

static const char *const param_keys[] = {
    "name",  "shape", "dtype",  "partition_dim", "partition_stride", "partition_sizes",
    "layer", "stage", "expert", "num_experts",   "tied_to",          NULL};

static vsym_status_t parse_param(const parse_ctx_t *pc, int i, json_t *o, reshard_param_t *p,
                                 int64_t *blocks, int max_blocks)
{
    memset(p, 0, sizeof(*p));
    p->partition_dim = -1;
    p->stride = 1;
    p->tied_to = -1;
    p->layer = -1;
    if (!json_is_object(o))
        return bad_field(pc, i, NULL, "params", "each parameter must be a JSON object");
    json_t *v = json_object_get(o, "name");
    if (!json_is_string(v) || json_string_length(v) == 0)
        return bad_field(pc, i, NULL, "name", "a non-empty string is required");
    const char *name = json_string_value(v);
    p->name = (char *)name;

    const char *key;
    json_t *val;
    json_object_foreach(o, key, val)
    {
        int known = 0;
        for (int k = 0; param_keys[k]; k++)
            known |= strcmp(key, param_keys[k]) == 0;
        if (!known) return bad_field(pc, i, name, key, "unknown field");
    }

    v = json_object_get(o, "shape");
    if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > VSYM_RESHARD_MAX_DIMS)
        return bad_field(pc, i, name, "shape", "an array of 1 to %d positive integers is required",
                         VSYM_RESHARD_MAX_DIMS);
    p->ndim = (int)json_array_size(v);
    for (int d = 0; d < p->ndim; d++) {
        json_t *x = json_array_get(v, (size_t)d);
        if (!json_is_int_in(x, 1, (long long)1 << 40))
            return bad_field(pc, i, name, "shape", "dimension %d is not a positive integer", d);
        p->shape[d] = (int64_t)json_integer_value(x);
    }

    v = json_object_get(o, "dtype");
    const char *dt = "bf16";
    if (v) {
        if (!json_is_string(v)) return bad_field(pc, i, name, "dtype", "a string is required");
        dt = json_string_value(v);
    }
    p->elem_size = vsym_reshard_dtype_size(dt, &p->dtype);
    if (!p->elem_size)
        return bad_field(pc, i, name, "dtype",
                         "unknown dtype \"%s\" (bf16, fp16, fp32, fp64, fp8, int8)", dt);

    v = json_object_get(o, "partition_dim");
    if (v) {
        if (!json_is_int_in(v, -1, p->ndim - 1))
            return bad_field(pc, i, name, "partition_dim",
                             "must be -1 (replicated) or a dimension of the %d-dimensional shape",
                             p->ndim);
        p->partition_dim = (int)json_integer_value(v);
    }
    v = json_object_get(o, "partition_stride");
    if (v) {
        if (!json_is_int_in(v, 1, 1 << 20))
            return bad_field(pc, i, name, "partition_stride", "must be a positive integer");
        p->stride = (int)json_integer_value(v);
        if (p->partition_dim < 0 && p->stride != 1)
            return bad_field(pc, i, name, "partition_stride", "needs a partition_dim");
        if (p->partition_dim >= 0 && p->shape[p->partition_dim] % p->stride != 0)
            return bad_field(pc, i, name, "partition_stride",
                             "stride %d does not divide dimension %d of size %" PRId64, p->stride,
                             p->partition_dim, p->shape[p->partition_dim]);
    }
    v = json_object_get(o, "partition_sizes");
    if (v) {
        if (p->partition_dim < 0)
            return bad_field(pc, i, name, "partition_sizes", "needs a partition_dim");
        if (p->stride != 1)
            return bad_field(pc, i, name, "partition_sizes",
                             "cannot be combined with partition_stride %d", p->stride);
        if (!json_is_array(v) || json_array_size(v) < 1 || (int)json_array_size(v) > max_blocks)
            return bad_field(pc, i, name, "partition_sizes",
                             "an array of 1 to %d positive integers is required", max_blocks);
        int64_t sum = 0;
        p->num_blocks = (int)json_array_size(v);
        for (int b = 0; b < p->num_blocks; b++) {
            json_t *x = json_array_get(v, (size_t)b);
            if (!json_is_int_in(x, 1, (long long)1 << 40))
                return bad_field(pc, i, name, "partition_sizes",
                                 "entry %d is not a positive integer", b);
            blocks[b] = (int64_t)json_integer_value(x);
            sum += blocks[b];
        }
        if (sum != p->shape[p->partition_dim])
            return bad_field(pc, i, name, "partition_sizes",
                             "sizes add up to %" PRId64 ", not to dimension %d of size %" PRId64,
                             sum, p->partition_dim, p->shape[p->partition_dim]);
        p->explicit_sizes = 1;
        p->blocks = blocks;
    }

    json_t *layer = json_object_get(o, "layer");
    json_t *stage = json_object_get(o, "stage");
    p->stage = VSYM_RESHARD_STAGE_LAYER;
    if (stage) {
        const char *s = json_is_string(stage) ? json_string_value(stage) : "";
        if (strcmp(s, "first") == 0)
            p->stage = VSYM_RESHARD_STAGE_FIRST;
        else if (strcmp(s, "last") == 0)
            p->stage = VSYM_RESHARD_STAGE_LAST;
        else if (strcmp(s, "layer") != 0)
            return bad_field(pc, i, name, "stage", "must be \"first\", \"last\" or \"layer\"");
    }
    if (p->stage == VSYM_RESHARD_STAGE_LAYER) {
        if (!layer)
            return bad_field(pc, i, name, "layer",
                             "a layer index (or \"stage\": \"first\" / \"last\") is required");
        if (!json_is_int_in(layer, 0, 1 << 24))
            return bad_field(pc, i, name, "layer", "must be a non-negative integer");
        p->layer = (int)json_integer_value(layer);
    } else if (layer) {
        return bad_field(pc, i, name, "layer", "cannot be combined with stage \"%s\"",
                         json_string_value(stage));
    }

    json_t *expert = json_object_get(o, "expert");
    json_t *nexp = json_object_get(o, "num_experts");
    if (expert && !json_is_boolean(expert))
        return bad_field(pc, i, name, "expert", "must be true or false");
    if (expert && json_is_true(expert)) {
        if (!json_is_int_in(nexp, 1, 1 << 20))
            return bad_field(pc, i, name, "num_experts",
                             "an expert parameter needs a positive num_experts");
        p->num_experts = (int)json_integer_value(nexp);
    } else if (nexp) {
        return bad_field(pc, i, name, "num_experts", "given without \"expert\": true");
    }
    return VSYM_OK;
}

static vsym_status_t parse_root(const parse_ctx_t *pc, json_t *root, vsym_reshard_model_t **model_p)
{
    if (!json_is_object(root))
        return bad_field(pc, -1, NULL, "(top)", "the model must be a JSON object");
    json_t *params = json_object_get(root, "params");
    if (!json_is_array(params) || json_array_size(params) == 0)
        return bad_field(pc, -1, NULL, "params", "a non-empty array of parameters is required");
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val)
    {
        if (strcmp(key, "name") && strcmp(key, "num_layers") && strcmp(key, "params") &&
            strcmp(key, "format"))
            return bad_field(pc, -1, NULL, key, "unknown field");
    }
    json_t *name = json_object_get(root, "name");
    if (name && !json_is_string(name)) return bad_field(pc, -1, NULL, "name", "must be a string");
    json_t *nl = json_object_get(root, "num_layers");
    if (nl && !json_is_int_in(nl, 0, 1 << 24))
        return bad_field(pc, -1, NULL, "num_layers", "must be a non-negative integer");

    vsym_reshard_model_t *m = vsym_reshard_model_new(name ? json_string_value(name) : pc->source);
    if (!m) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "%s: no memory for the model", pc->source);
    vsym_status_t st = VSYM_OK;
    enum { MAX_BLOCKS = 4096 };
    int64_t *blocks = malloc(MAX_BLOCKS * sizeof(int64_t));
    size_t n = json_array_size(params);
    if (!blocks) {
        st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "%s: no memory", pc->source);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        reshard_param_t p;
        st = parse_param(pc, (int)i, json_array_get(params, i), &p, blocks, MAX_BLOCKS);
        if (st != VSYM_OK) goto out;
        for (int j = 0; j < m->num_params; j++) {
            if (strcmp(m->params[j].name, p.name) == 0) {
                st = bad_field(pc, (int)i, p.name, "name", "duplicate of params[%d]", j);
                goto out;
            }
        }
        if (vsym_reshard_model_add(m, &p) < 0) {
            st = VSYM_FAIL(VSYM_ERR_NO_MEMORY, "%s: no memory", pc->source);
            goto out;
        }
    }
    /* Ties are resolved once every parameter is known: a tie may point forward. */
    for (size_t i = 0; i < n; i++) {
        reshard_param_t *p = &m->params[i];
        json_t *t = json_object_get(json_array_get(params, i), "tied_to");
        if (!t) continue;
        if (!json_is_string(t)) {
            st = bad_field(pc, (int)i, p->name, "tied_to", "must be a parameter name");
            goto out;
        }
        int target = -1;
        for (int j = 0; j < m->num_params; j++)
            if (strcmp(m->params[j].name, json_string_value(t)) == 0) target = j;
        if (target < 0 || target == (int)i) {
            st = bad_field(pc, (int)i, p->name, "tied_to", "\"%s\" is not another parameter",
                           json_string_value(t));
            goto out;
        }
        reshard_param_t *q = &m->params[target];
        int same = p->ndim == q->ndim && p->elem_size == q->elem_size &&
                   p->partition_dim == q->partition_dim && p->num_blocks == q->num_blocks &&
                   p->num_experts == 0 && q->num_experts == 0 &&
                   json_object_get(json_array_get(params, (size_t)target), "tied_to") == NULL;
        for (int d = 0; same && d < p->ndim; d++)
            same = p->shape[d] == q->shape[d];
        for (int b = 0; same && b < p->num_blocks; b++)
            same = p->blocks[b] == q->blocks[b];
        if (!same) {
            st = bad_field(pc, (int)i, p->name, "tied_to",
                           "\"%s\" differs in shape, dtype or partitioning, is an expert, or is "
                           "tied itself",
                           q->name);
            goto out;
        }
        p->tied_to = target;
    }
    if (nl) m->num_layers = (int)json_integer_value(nl);
    for (int i = 0; i < m->num_params; i++) {
        if (m->params[i].stage == VSYM_RESHARD_STAGE_LAYER && nl &&
            m->params[i].layer >= m->num_layers) {
            st = bad_field(pc, i, m->params[i].name, "layer", "layer %d is not below num_layers %d",
                           m->params[i].layer, m->num_layers);
            goto out;
        }
    }
    st = vsym_reshard_model_finish(m);
out:
    free(blocks);
    if (st != VSYM_OK) {
        vsym_reshard_model_destroy(m);
        return st;
    }
    *model_p = m;
    return VSYM_OK;
}

static vsym_status_t parse_text(const char *text, const char *source,
                                vsym_reshard_model_t **model_p)
{
    json_error_t err;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    if (!root)
        return vsym_util_fail_quiet(VSYM_ERR_BAD_MODEL, "%s:%d:%d: invalid JSON: %s", source,
                                    err.line, err.column, err.text);
    parse_ctx_t pc = {.source = source, .text = text};
    vsym_status_t st = parse_root(&pc, root, model_p);
    json_decref(root);
    return st;
}

VSYM_API vsym_status_t vsym_reshard_model_parse(const char *json_text, const char *source_name,
                                                vsym_reshard_model_t **model_p)
{
    if (!json_text || !model_p)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "model_parse: NULL argument");
    return parse_text(json_text, source_name ? source_name : "(model)", model_p);
}

VSYM_API vsym_status_t vsym_reshard_model_load(const char *path, vsym_reshard_model_t **model_p)
{
    if (!path || !model_p) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "model_load: NULL argument");
    /* The text is read once and handed to jansson (json_loads reports line and column of
     * syntax errors exactly as json_load_file does) and kept for locating semantic errors. */
    FILE *f = fopen(path, "rb");
    if (!f)
        return vsym_util_fail_quiet(VSYM_ERR_IO, "%s: cannot open the model file: %s", path,
                                    strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    while (text) {
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (len < cap - 1) break;
        char *bigger = realloc(text, cap * 2);
        if (!bigger) {
            free(text);
            text = NULL;
            break;
        }
        text = bigger;
        cap *= 2;
    }
    int read_error = ferror(f);
    fclose(f);
    if (!text) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "%s: no memory to read the model file", path);
    if (read_error) {
        free(text);
        return vsym_util_fail_quiet(VSYM_ERR_IO, "%s: read error", path);
    }
    text[len] = '\0';
    vsym_status_t st = parse_text(text, path, model_p);
    free(text);
    return st;
}

static const char *stage_name(vsym_reshard_stage_t s)
{
    return s == VSYM_RESHARD_STAGE_FIRST  ? "first"
           : s == VSYM_RESHARD_STAGE_LAST ? "last"
                                          : "layer";
}

VSYM_API vsym_status_t vsym_reshard_model_save(const vsym_reshard_model_t *m, const char *path)
{
    if (!m || !path) return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "model_save: NULL argument");
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f)
        return vsym_util_fail_quiet(VSYM_ERR_IO, "%s: cannot create the model file: %s", path,
                                    strerror(errno));
    /* One parameter per line: small diffs, and error lines point at one parameter. */
    json_t *jname = json_string(m->name);
    char *qname = json_dumps(jname, JSON_ENCODE_ANY);
    json_decref(jname);
    fprintf(f, "{\"format\": \"vsym-model-1\", \"name\": %s, \"num_layers\": %d, \"params\": [\n",
            qname ? qname : "\"model\"", m->num_layers);
    free(qname);
    for (int i = 0; i < m->num_params; i++) {
        const reshard_param_t *p = &m->params[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(p->name));
        json_t *shape = json_array();
        for (int d = 0; d < p->ndim; d++)
            json_array_append_new(shape, json_integer(p->shape[d]));
        json_object_set_new(o, "shape", shape);
        json_object_set_new(o, "dtype", json_string(p->dtype));
        if (p->partition_dim >= 0) {
            json_object_set_new(o, "partition_dim", json_integer(p->partition_dim));
            if (p->explicit_sizes) {
                json_t *sz = json_array();
                for (int b = 0; b < p->num_blocks; b++)
                    json_array_append_new(sz, json_integer(p->blocks[b]));
                json_object_set_new(o, "partition_sizes", sz);
            } else if (p->stride > 1) {
                json_object_set_new(o, "partition_stride", json_integer(p->stride));
            }
        }
        if (p->stage == VSYM_RESHARD_STAGE_LAYER)
            json_object_set_new(o, "layer", json_integer(p->layer));
        else
            json_object_set_new(o, "stage", json_string(stage_name(p->stage)));
        if (p->num_experts > 0) {
            json_object_set_new(o, "expert", json_true());
            json_object_set_new(o, "num_experts", json_integer(p->num_experts));
        }
        if (p->tied_to >= 0)
            json_object_set_new(o, "tied_to", json_string(m->params[p->tied_to].name));
        char *s = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT);
        json_decref(o);
        if (!s) {
            if (f != stdout) fclose(f);
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "model_save: no memory");
        }
        fprintf(f, "  %s%s\n", s, i + 1 < m->num_params ? "," : "");
        free(s);
    }
    fprintf(f, "]}\n");
    int bad = ferror(f);
    if (f != stdout)
        bad |= fclose(f) != 0;
    else
        fflush(f);
    if (bad) return vsym_util_fail_quiet(VSYM_ERR_IO, "%s: write error", path);
    return VSYM_OK;
}

/* d / divisor rounded to the nearest multiple of quantum, at least quantum. */
static int64_t scale_dim(int64_t d, int divisor, int64_t quantum)
{
    int64_t s = (d / divisor + quantum / 2) / quantum * quantum;
    return s < quantum ? quantum : s;
}

VSYM_API vsym_status_t vsym_reshard_model_scale(const vsym_reshard_model_t *m, int divisor,
                                                int quantum, vsym_reshard_model_t **model_p)
{
    if (!m || !model_p || divisor < 1 || quantum < 1)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "model_scale: divisor %d, quantum %d", divisor,
                         quantum);
    char name[256];
    snprintf(name, sizeof(name), "%s/%d", m->name, divisor);
    vsym_reshard_model_t *s = vsym_reshard_model_new(name);
    if (!s) return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "model_scale: no memory");
    s->num_layers = m->num_layers;
    for (int i = 0; i < m->num_params; i++) {
        reshard_param_t p = m->params[i];
        int64_t blocks[p.num_blocks > 0 ? p.num_blocks : 1];
        for (int d = 0; d < p.ndim; d++) {
            if (d != p.partition_dim) {
                p.shape[d] = p.shape[d] / divisor > 0 ? p.shape[d] / divisor : 1;
                continue;
            }
            /* Every block stays a multiple of quantum, so TP sizes dividing quantum divide
             * every block of the scaled parameter. */
            p.shape[d] = 0;
            for (int b = 0; b < p.num_blocks; b++) {
                blocks[b] = scale_dim(m->params[i].blocks[b], divisor, quantum);
                p.shape[d] += blocks[b];
            }
        }
        p.blocks = blocks;
        p.explicit_sizes = p.partition_dim >= 0 && m->params[i].explicit_sizes;
        if (vsym_reshard_model_add(s, &p) < 0) {
            vsym_reshard_model_destroy(s);
            return VSYM_FAIL(VSYM_ERR_NO_MEMORY, "model_scale: no memory");
        }
    }
    vsym_status_t st = vsym_reshard_model_finish(s);
    if (st != VSYM_OK) {
        vsym_reshard_model_destroy(s);
        return st;
    }
    *model_p = s;
    return VSYM_OK;
}

/* ---- Accessors ---------------------------------------------------------------------------- */

VSYM_API const char *vsym_reshard_model_name(const vsym_reshard_model_t *m)
{
    return m->name;
}

VSYM_API int vsym_reshard_model_num_params(const vsym_reshard_model_t *m)
{
    return m->num_params;
}

VSYM_API int vsym_reshard_model_num_tensors(const vsym_reshard_model_t *m)
{
    return m->num_tensors;
}

VSYM_API int vsym_reshard_model_num_layers(const vsym_reshard_model_t *m)
{
    return m->num_layers;
}

VSYM_API uint64_t vsym_reshard_model_num_elements(const vsym_reshard_model_t *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->num_params; i++) {
        const reshard_param_t *p = &m->params[i];
        if (p->tied_to < 0)
            n += reshard_param_elements(p) * (uint64_t)(p->num_experts > 0 ? p->num_experts : 1);
    }
    return n;
}

VSYM_API uint64_t vsym_reshard_model_num_bytes(const vsym_reshard_model_t *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->num_params; i++) {
        const reshard_param_t *p = &m->params[i];
        if (p->tied_to < 0)
            n += reshard_param_elements(p) * p->elem_size *
                 (uint64_t)(p->num_experts > 0 ? p->num_experts : 1);
    }
    return n;
}

VSYM_API vsym_status_t vsym_reshard_model_tensor(const vsym_reshard_model_t *m, int t,
                                                 vsym_reshard_tensor_info_t *info_p)
{
    if (!m || !info_p || t < 0 || t >= m->num_tensors)
        return VSYM_FAIL(VSYM_ERR_INVALID_PARAM, "model_tensor: tensor %d outside 0..%d", t,
                         m ? m->num_tensors - 1 : -1);
    const reshard_param_t *p = &m->params[m->tensor_param[t]];
    vsym_reshard_tensor_info_t info = {
        .param_name = p->name,
        .param = m->tensor_param[t],
        .expert = p->num_experts > 0 ? t - p->first_tensor : -1,
        .ndim = p->ndim,
        .dtype = p->dtype,
        .elem_size = p->elem_size,
        .partition_dim = p->partition_dim,
        .partition_stride = p->stride,
        .num_blocks = p->num_blocks,
        .stage = p->stage,
        .layer = p->layer,
        .num_experts = p->num_experts,
        .tied_to = p->tied_to >= 0 ? m->params[p->tied_to].first_tensor : -1,
    };
    for (int d = 0; d < p->ndim; d++)
        info.shape[d] = p->shape[d];
    *info_p = info;
    return VSYM_OK;
}

VSYM_API const char *vsym_reshard_tensor_name(const vsym_reshard_model_t *m, int t, char *buf,
                                              size_t len)
{
    if (!m || t < 0 || t >= m->num_tensors) {
        snprintf(buf, len, "(tensor %d)", t);
        return buf;
    }
    const reshard_param_t *p = &m->params[m->tensor_param[t]];
    if (p->num_experts > 0)
        snprintf(buf, len, "%s%d", p->name, t - p->first_tensor);
    else
        snprintf(buf, len, "%s", p->name);
    return buf;
}
