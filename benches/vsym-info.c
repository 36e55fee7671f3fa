/* vsym-info: the facts of this machine as vsym sees them, and every setting.
 *   vsym-info            system facts, version, transports available
 *   vsym-info --config   every VSYM_* setting: name, type, default, value in force, help
 *   vsym-info --json     the same facts as one JSON object */
#include <stdio.h>
#include <string.h>
#include <jansson.h>
#include <vsym/vsym.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: vsym-info [--config | --json | --help]\n");
}

static void print_config(void)
{
    int n = vsym_setting_count();
    printf("%-22s %-7s %-8s %-10s %s\n", "setting", "type", "default", "value", "help");
    for (int i = 0; i < n; i++) {
        vsym_setting_t s;
        if (vsym_setting(i, &s) != VSYM_OK) continue;
        printf("%-22s %-7s %-8s %-10s %s%s\n", s.name, s.type, s.def[0] ? s.def : "\"\"",
               s.value[0] ? s.value : "\"\"", s.help, s.from_env ? " [from environment]" : "");
    }
}

int main(int argc, char **argv)
{
    vsym_sysinfo_t si;
    int json = 0;
    if (argc > 2) {
        usage(stderr);
        return 2;
    }
    if (argc == 2) {
        if (strcmp(argv[1], "--config") == 0) {
            print_config();
            return 0;
        } else if (strcmp(argv[1], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "vsym-info: unknown option '%s'\n", argv[1]);
            usage(stderr);
            return 2;
        }
    }
    if (vsym_settings_check() != VSYM_OK) {
        fprintf(stderr, "vsym-info: %s\n", vsym_error_detail());
        return 2;
    }
    if (vsym_sysinfo_get(&si) != VSYM_OK) {
        fprintf(stderr, "vsym-info: %s\n", vsym_error_detail());
        return 1;
    }
    char freq_cur[32] = "unknown", freq_max[32] = "unknown";
    if (si.freq_cur_khz > 0)
        snprintf(freq_cur, sizeof(freq_cur), "%.0f MHz", si.freq_cur_khz / 1000.0);
    if (si.freq_max_khz > 0)
        snprintf(freq_max, sizeof(freq_max), "%.0f MHz", si.freq_max_khz / 1000.0);
    if (json) {
        json_t *o = json_pack(
            "{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:s, s:s, s:I, s:I, s:s, s:s, s:I, s:I}",
            "version", vsym_version(), "commit", vsym_build_commit(), "host", si.host, "cpu_model",
            si.cpu_model, "cores", si.cores_online, "numa_nodes", si.numa_nodes, "numa_node",
            si.numa_node, "cpus_allowed", si.cpus_allowed, "governor", si.governor, "freq_cur_khz",
            (json_int_t)si.freq_cur_khz, "freq_max_khz", (json_int_t)si.freq_max_khz, "kernel",
            si.kernel, "clock", si.clock, "nt_threshold", (json_int_t)si.nt_threshold,
            "nt_single_threshold", (json_int_t)si.nt_single_threshold);
        if (o == NULL) return 1;
        json_dumpf(o, stdout, JSON_COMPACT);
        printf("\n");
        json_decref(o);
        return 0;
    }
    char numa[32] = "several";
    if (si.numa_node >= 0) snprintf(numa, sizeof(numa), "%d", si.numa_node);
    printf("vsym %s (commit %s)\n", vsym_version(), vsym_build_commit());
    printf("host          %s\n", si.host);
    printf("cpu           %s\n", si.cpu_model);
    printf("cores online  %d\n", si.cores_online);
    printf("cpus allowed  %s\n", si.cpus_allowed);
    printf("numa nodes    %d (this process: %s)\n", si.numa_nodes, numa);
    printf("governor      %s\n", si.governor);
    printf("frequency     %s (max %s)\n", freq_cur, freq_max);
    printf("kernel        %s\n", si.kernel);
    printf("clock         %s\n", si.clock);
    if (si.nt_threshold > 0)
        printf("nt threshold  %zu bytes (%.1f MiB: non-temporal copies from this size)\n",
               si.nt_threshold, (double)si.nt_threshold / (1 << 20));
    else
        printf("nt threshold  0 (no non-temporal copies)\n");
    if (si.nt_single_threshold > 0)
        printf("nt single     %zu bytes (%.1f MiB: a put's or a get's non-temporal copies)\n",
               si.nt_single_threshold, (double)si.nt_single_threshold / (1 << 20));
    return 0;
}
