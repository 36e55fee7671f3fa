/* vsym-conform: is this set of nodes fit to deploy? Launched like every vsym program
 * (srun --mpi=pmix, mpirun, launch/vsym-run), in one of two modes:
 *   deploy  node checks, pairwise fabric checks, an all-reduce check; report; exit 0/1
 *   api     the library's conformance checks as one program; report; exit 0/1
 * Exit status: 0 nothing failed (warnings allowed), 1 something failed, 2 bad usage. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "conform.h"
#include "util/util.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vsym-conform deploy|api [--config FILE] [--init-config FILE] [--out DIR]\n"
            "  deploy               node checks, pairwise fabric checks and an all-reduce check\n"
            "  api                  the library's conformance checks (RMA, atomics, signals, ...)\n"
            "  --config FILE        expectations and thresholds (JSON, keys in README.md)\n"
            "  --init-config FILE   deploy, then write FILE from what this cluster has (baseline)\n"
            "  --out DIR            report folder (default ./vsym-conform-<UTC date>)\n"
            "  --simulate-failure R (testing) rank R >= 1 kills itself as the fabric checks "
            "start\n"
            "Launch: srun --mpi=pmix vsym-conform deploy | mpirun -np N vsym-conform deploy |\n"
            "        launch/vsym-run -n N -- vsym-conform deploy\n"
            "Exit status: 0 nothing failed, 1 a check failed, 2 bad usage.\n");
}

/* Usage errors are printed by one rank only (every rank finds the same error). */
static int first_rank(void)
{
    const char *r = getenv("PMIX_RANK");
    return r == NULL || strcmp(r, "0") == 0;
}

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...)
{
    if (first_rank()) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "vsym-conform: ");
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n");
        va_end(ap);
        usage(stderr);
    }
    return 2;
}

int main(int argc, char **argv)
{
    const char *mode = NULL, *config = NULL, *init_config = NULL, *out = NULL;
    int kill_rank = -1;
    conform_config_t cfg;
    conform_report_t rep;
    vsym_ctx_t *ctx = NULL;
    vsym_status_t st;
    char err[512];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            if (first_rank())
                usage(stdout);
            return 0;
        } else if (strcmp(a, "--config") == 0 || strcmp(a, "--init-config") == 0 ||
                   strcmp(a, "--out") == 0 || strcmp(a, "--simulate-failure") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0')
                return bad_usage("%s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "--config") == 0)
                config = v;
            else if (strcmp(a, "--init-config") == 0)
                init_config = v;
            else if (strcmp(a, "--out") == 0)
                out = v;
            else {
                char *end;
                long r = strtol(v, &end, 10);
                if (*end || r < 1)
                    return bad_usage("--simulate-failure needs a rank >= 1, got '%s'", v);
                kill_rank = (int)r;
            }
        } else if (a[0] == '-') {
            return bad_usage("unknown option '%s'", a);
        } else if (mode == NULL) {
            mode = a;
        } else {
            return bad_usage("unexpected argument '%s'", a);
        }
    }
    if (mode == NULL)
        return bad_usage("%s", "a mode is needed: deploy or api");
    if (strcmp(mode, "deploy") != 0 && strcmp(mode, "api") != 0)
        return bad_usage("unknown mode '%s' (deploy or api)", mode);
    if (init_config && strcmp(mode, "deploy") != 0)
        return bad_usage("%s", "--init-config needs the deploy mode");
    conform_config_defaults(&cfg);
    if (config && conform_config_load(config, &cfg, err, sizeof(err)) != 0)
        return bad_usage("%s", err);

    if ((st = vsym_init(&ctx)) != VSYM_OK) {
        fprintf(stderr, "vsym-conform: vsym_init failed: %s: %s\n", vsym_status_name(st),
                vsym_error_detail());
        return 1;
    }
    vsym_team_t *world = vsym_team_world(ctx);
    int me = vsym_team_rank(world);
    memset(&rep, 0, sizeof(rep));
    rep.cfg = &cfg;
    rep.mode = mode;
    if (out) {
        snprintf(rep.out_dir, sizeof(rep.out_dir), "%s", out);
    } else {
        char date[32];
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm);
        snprintf(rep.out_dir, sizeof(rep.out_dir), "./vsym-conform-%s", date);
    }

    int failed_ranks = 0;
    if (conform_node_checks(ctx, &cfg, &rep) != 0) {
        vsym_finalize(ctx);
        return 1;
    }
    if (strcmp(mode, "api") == 0) {
        rep.nchecks = 0; /* the node probe only named the ranks; api mode reports API checks */
        if (conform_api_checks(ctx, &cfg, &rep) != 0)
            failed_ranks = 1;
    } else {
        if (conform_fabric_checks(ctx, &cfg, &rep, kill_rank) != 0)
            failed_ranks = 1;
    }
    int status = 0;
    if (me == 0) {
        status = conform_report_write(&rep);
        if (init_config && conform_config_write_baseline(&rep, init_config) != 0)
            status = 1;
    }
    if (failed_ranks) {
        /* Some rank did not answer: finalizing would wait for it again. Leave at once. */
        fflush(stdout);
        fflush(stderr);
        _exit(1);
    }
    conform_report_free(&rep);
    /* Rank 0 writes the report (and runs gnuplot) while the others wait here: a wait longer
     * than finalize's VSYM_TIMEOUT, since a slow file system or an emulated CPU may take a
     * while. */
    if ((st = vsym_team_barrier(world, 600)) != VSYM_OK) {
        fprintf(stderr, "vsym-conform: rank %d: waiting for rank 0 to write the report: %s\n", me,
                vsym_error_detail());
        fflush(stderr);
        _exit(1);
    }
    if ((st = vsym_finalize(ctx)) != VSYM_OK && status == 0) {
        fprintf(stderr, "vsym-conform: rank %d: vsym_finalize failed: %s\n", me,
                vsym_error_detail());
        status = 1;
    }
    return status;
}
