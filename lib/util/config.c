/* The settings table: every VSYM_* environment variable is declared once in config_table.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

typedef enum { TYPE_SIZE, TYPE_INT, TYPE_DOUBLE, TYPE_STRING, TYPE_ENUM } setting_type_t;

typedef struct {
    const char *name;
    setting_type_t type;
    const char *def;
    const char *allowed;
    const char *help;
} setting_decl_t;

static const setting_decl_t table[VSYM_CFG_COUNT] = {
#define VSYM_CONFIG_DECL_(id, type, def, allowed, help)                                            \
    {"VSYM_" #id, TYPE_##type, def, allowed, help},
    VSYM_CONFIG_TABLE(VSYM_CONFIG_DECL_)
#undef VSYM_CONFIG_DECL_
};

static const char *const type_names[] = {"size", "int", "double", "string", "enum"};

/* Check one value against its declaration; on success store the parsed number. */
static vsym_status_t parse_value(const setting_decl_t *d, const char *text, long *ival,
                                 size_t *sval, double *dval)
{
    char *end;
    switch (d->type) {
    case TYPE_SIZE:
        /* A size whose default is "auto" is resolved where it is used (SIZE_MAX here). */
        if (strcmp(d->def, "auto") == 0 && strcmp(text, "auto") == 0) {
            *sval = SIZE_MAX;
            return VSYM_OK;
        }
        if (vsym_util_parse_size(text, sval) != VSYM_OK) {
            char why[128];
            snprintf(why, sizeof(why), "%s", vsym_error_detail());
            return vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM, "%s=%s: %s", d->name, text, why);
        }
        return VSYM_OK;
    case TYPE_INT:
        errno = 0;
        *ival = strtol(text, &end, 0);
        if (errno || end == text || *end != '\0')
            return vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM, "%s=%s: not an integer",
                                        d->name, text);
        return VSYM_OK;
    case TYPE_DOUBLE:
        errno = 0;
        *dval = strtod(text, &end);
        if (errno || end == text || *end != '\0')
            return vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM, "%s=%s: not a number", d->name,
                                        text);
        return VSYM_OK;
    case TYPE_ENUM: {
        size_t n = strlen(text);
        const char *p = d->allowed;
        while (p && *p) {
            const char *bar = strchr(p, '|');
            size_t len = bar ? (size_t)(bar - p) : strlen(p);
            if (len == n && strncmp(p, text, n) == 0)
                return VSYM_OK;
            p = bar ? bar + 1 : NULL;
        }
        return vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM, "%s=%s: not one of %s", d->name,
                                    text, d->allowed);
    }
    case TYPE_STRING:
        return VSYM_OK;
    }
    return VSYM_ERR_INVALID_PARAM;
}

static const char *value_text(vsym_config_id_t id, int *from_env)
{
    const char *env = getenv(table[id].name);
    long i;
    size_t s;
    double d;
    if (env != NULL && parse_value(&table[id], env, &i, &s, &d) == VSYM_OK) {
        if (from_env)
            *from_env = 1;
        return env;
    }
    if (from_env)
        *from_env = 0;
    return table[id].def;
}

/* The values in force, parsed once: waits read settings on every call, and getenv plus parsing
 * would cost more than a shared-memory put. vsym_settings_check() (called by vsym_init) reloads
 * them, so a program may change its environment before initialising. */
static struct {
    int valid;
    unsigned long generation;
    long ival[VSYM_CFG_COUNT];
    size_t sval[VSYM_CFG_COUNT];
    double dval[VSYM_CFG_COUNT];
    const char *text[VSYM_CFG_COUNT];
} cache;

static void cache_load(void)
{
    for (int k = 0; k < VSYM_CFG_COUNT; k++) {
        const char *t = value_text((vsym_config_id_t)k, NULL);
        cache.text[k] = t;
        cache.ival[k] = strtol(t, NULL, 0);
        cache.dval[k] = strtod(t, NULL);
        cache.sval[k] = 0;
        if (table[k].type == TYPE_SIZE) {
            long iv;
            double dv;
            parse_value(&table[k], t, &iv, &cache.sval[k], &dv);
        }
    }
    cache.generation++;
    __atomic_store_n(&cache.valid, 1, __ATOMIC_RELEASE);
}

static inline void cache_ensure(void)
{
    if (!__atomic_load_n(&cache.valid, __ATOMIC_ACQUIRE))
        cache_load();
}

long vsym_config_int(vsym_config_id_t id)
{
    cache_ensure();
    return cache.ival[id];
}

size_t vsym_config_size(vsym_config_id_t id)
{
    cache_ensure();
    return cache.sval[id];
}

double vsym_config_double(vsym_config_id_t id)
{
    cache_ensure();
    return cache.dval[id];
}

const char *vsym_config_str(vsym_config_id_t id)
{
    cache_ensure();
    return cache.text[id];
}

unsigned long vsym_config_generation(void)
{
    cache_ensure();
    return cache.generation;
}

const char *vsym_config_name(vsym_config_id_t id)
{
    return table[id].name;
}

VSYM_API int vsym_setting_count(void)
{
    return VSYM_CFG_COUNT;
}

VSYM_API vsym_status_t vsym_setting(int i, vsym_setting_t *setting_p)
{
    vsym_setting_t s;
    if (i < 0 || i >= VSYM_CFG_COUNT || setting_p == NULL)
        return vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM, "setting index %d outside [0, %d)",
                                    i, (int)VSYM_CFG_COUNT);
    s.name = table[i].name;
    s.type = type_names[table[i].type];
    s.def = table[i].def;
    s.help = table[i].help;
    s.value = value_text((vsym_config_id_t)i, &s.from_env);
    *setting_p = s;
    return VSYM_OK;
}

extern char **environ;

VSYM_API vsym_status_t vsym_settings_check(void)
{
    static const char *const level_names[] = {"error", "warn", "info", "debug", "trace"};
    const char *lvl;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
        int found = 0;
        long i;
        size_t s;
        double d;
        if (strncmp(*e, "VSYM_", 5) != 0)
            continue;
        for (int k = 0; k < VSYM_CFG_COUNT; k++) {
            if (strlen(table[k].name) == n && strncmp(table[k].name, *e, n) == 0) {
                found = 1;
                if (parse_value(&table[k], eq ? eq + 1 : "", &i, &s, &d) != VSYM_OK)
                    return VSYM_ERR_INVALID_PARAM; /* detail set by parse_value */
            }
        }
        if (!found)
            return vsym_util_fail_quiet(VSYM_ERR_INVALID_PARAM,
                                        "unknown setting %.*s (vsym-info --config lists them)",
                                        (int)n, *e);
    }
    cache_load();
    lvl = vsym_config_str(VSYM_CFG_LOG_LEVEL);
    for (int k = 0; k < 5; k++)
        if (strcmp(lvl, level_names[k]) == 0)
            vsym_util_log_level = k;
    return VSYM_OK;
}
