/* Every VSYM_* setting, declared once: X(id, type, default, allowed, help).
 * type: SIZE (accepts 4K, 1M, 1G), INT, DOUBLE, STRING, ENUM (allowed: "a|b|c").
 * vsym-info --config prints this table with the values in force. */
#define VSYM_CONFIG_TABLE(X)                                                                       \
    X(LOG_LEVEL, ENUM, "warn", "error|warn|info|debug|trace",                                      \
      "Lowest level of log messages printed to stderr.")                                           \
    X(HEAP_SIZE, SIZE, "512M", "", "Size of each rank's symmetric heap.")                          \
    X(INTERNAL_SIZE, SIZE, "64M", "",                                                              \
      "Size of each rank's internal shared region (signal pads, the teams' barrier pads and "      \
      "exchange slots; the collective scratch is on the symmetric heap).")                         \
    X(TIMEOUT, DOUBLE, "60", "",                                                                   \
      "Seconds any wait for a peer may last before it fails naming the peer.")                     \
    X(SIGNAL_CHANNELS, INT, "32", "", "Channels of every signal pad (1..1024).")                   \
    X(TRANSPORT, ENUM, "auto", "auto|shm|verbs",                                                   \
      "auto: shm inside a node, verbs between nodes; verbs: verbs for every peer; shm: fail "      \
      "when a peer is on another node.")                                                           \
    X(VIRTUAL_NODES, INT, "0", "",                                                                 \
      "Split the ranks of each node into this many pretend nodes (0: off); peers in different "    \
      "pretend nodes use verbs.")                                                                  \
    X(SPIN_COUNT, INT, "-1", "",                                                                   \
      "Polls before a wait starts yielding (-1: chosen from the core count and ranks per node).")  \
    X(SPIN_PAUSE, ENUM, "auto", "auto|on|off",                                                     \
      "x86 pause in spin loops (auto: on, except on a CPU emulated by qemu TCG, where each pause " \
      "enters qemu's main loop and slows the other vCPUs).")                                       \
    X(PROCESS_COPY, ENUM, "auto", "auto|keep|off",                                                 \
      "Process-to-process copies between the ranks of a node (process_vm_readv/writev: puts and "  \
      "gets to rendezvous memory, the all-to-all's and the all-gather's process-copy paths, the "  \
      "copy service's writes "                                                                     \
      "in place). auto: each rank lets any process of its user read it (PR_SET_PTRACER_ANY, for "  \
      "Yama's ptrace_scope 1) and they are used where they work; keep: Yama's rule is left as it " \
      "is and they are used where it allows them; off: none (such puts and gets fail, the "        \
      "collectives keep to their scratch, the copy service stages).")                              \
    X(NT_THRESHOLD, SIZE, "auto", "",                                                              \
      "Shared-memory copies of at least this size use non-temporal stores, and so do the copy "    \
      "service's rows and local copies once a run moves that many bytes, and a collective's "      \
      "stores into its results once the ranks' buffers together reach twice it, out of place "     \
      "(auto: half the last-level cache of the rank's CPU, from sysfs, at most 48 MiB counted "    \
      "for each CPU sharing it, 16 MiB where sysfs has none, and for a put or get at most 48 "     \
      "MiB; 0: never).")                                                                           \
    X(PUBLISH_STREAM, ENUM, "auto", "auto|on|off",                                                 \
      "How a rank stores what it publishes for its peers into its collective scratch (copies and " \
      "reductions): auto: on AMD CPUs, from 8 KiB, the first 4 KiB of one copy in 16 with "        \
      "ordinary stores, timed, and where that took 1 us or more (the lines are held by a core "    \
      "far away, and each ordinary store waits for one, or where another rank of the team found "  \
      "that twice in a row within 5 ms, or where the team's last timed line round trip is over "   \
      "250 ns: between its ranks 0 and 1 every 16 MiB of such collectives where every rank has a " \
      "core, else between rank 0's CPU and another, against a thread of rank 0, at most once a "   \
      "second) the rest, the next 15 copies and the reductions after them with "                   \
      "non-temporal stores, else ordinary stores, and on AMD CPUs of family 25 (Zen 3-4) where "   \
      "every rank has a core, copies and reductions of 16-128 KiB with non-temporal stores; on: "  \
      "non-temporal stores at every size; off: ordinary stores (VSYM_NT_THRESHOLD still "          \
      "applies).")                                                                                 \
    X(DEVICE, STRING, "", "",                                                                      \
      "RDMA device to use (empty: the active device closest to the CPUs; a list rxe0,rxe1: "       \
      "entry node modulo the count, the pretend node under VSYM_VIRTUAL_NODES).")                  \
    X(PORT, INT, "0", "", "RDMA port number (0: the first active port).")                          \
    X(GID_INDEX, INT, "-1", "",                                                                    \
      "RoCE GID index (-1: choose RoCE v2, IPv4-mapped first, else link-local).")                  \
    X(QPS_PER_PEER, INT, "1", "", "RC queue pairs per peer (puts are spread over them).")          \
    X(SQ_DEPTH, INT, "256", "", "Send queue depth of every RC queue pair.")                        \
    X(ACK_TIMEOUT, INT, "20", "",                                                                  \
      "RC retransmission timeout exponent, 1..31: 4.096 us x 2^N (20: 4.3 s, 7 tries).")           \
    X(CM, ENUM, "pmix", "pmix|rdmacm",                                                             \
      "How verbs connections are set up: exchange through PMIx, or librdmacm.")                    \
    X(COLL_ALGO, STRING, "auto", "",                                                               \
      "Collective algorithm (auto, oneshot, twoshot, ring, rd, hier).")                            \
    X(COLL_SCRATCH, SIZE, "512K", "",                                                              \
      "Bytes of each of the four scratch regions of a collective handle (the chunk of large "      \
      "collectives).")                                                                             \
    X(COLL_LL_MAX, INT, "-1", "",                                                                  \
      "Largest input (bytes per rank, at most 16384) that collectives send with the low-latency "  \
      "protocol on shared memory (-1: 256, the all-gather, reduce-scatter and all-to-all 56 "      \
      "between 2 ranks; a broadcast 256 between 2 ranks, beyond 1024, 2048 with more ranks than "  \
      "cores; 0: never).")                                                                         \
    X(COLL_NET_LL_MAX, SIZE, "1K", "",                                                             \
      "Largest block per peer (bytes) that the collectives' push exchange sends to peers over "    \
      "verbs as 8-byte words each carrying 4 data bytes and a flag of the call: one RDMA write, "  \
      "no atomic (larger blocks: a put and a counter add; 0: never).")                             \
    X(COLL_NET_BCAST_MAX, SIZE, "16K", "",                                                         \
      "Largest broadcast (bytes, at most 64K) whose root, with peers over verbs, writes the "      \
      "vector as such flagged words to every rank, no barrier (larger: through the scratch; 0: "   \
      "never).")                                                                                   \
    X(COLL_ZEROCOPY_MIN, SIZE, "auto", "",                                                         \
      "Smallest all-reduce (bytes per rank) read and written in place when src and dst lie in "    \
      "symmetric buffers of the handle and every peer is on shared memory; also the smallest "     \
      "all-gather (bytes per rank), all-to-all and reduce-scatter (bytes of the src) read from a " \
      "symmetric src in place, and fused op (bytes of input) whose two-shot modes run in place; "  \
      "auto: the all-reduce out of place from 1M, in place from 4K (beyond 4 ranks 256K, beyond "  \
      "8 1M), the all-gather from 2M of output, reduce-scatter and all-to-all from 2M of src "     \
      "(all-to-all in place 32K), broadcast never, fused all-reduce + all-gather from 1M, "        \
      "reduce-scatter + all-reduce never; on AMD CPUs the all-reduce up to 4 ranks in place from " \
      "16K, out of place between 2 ranks with a core each 16K with their cores near and 8M "       \
      "far, up to 4 ranks sharing cores 256K near and 4M far (rank 0 times a line's round "        \
      "trip and tells the others), more ranks sharing cores 4M, "                                  \
      "the reduce-scatter and all-to-all between 2 ranks with a core each from 32K, where ranks "  \
      "share cores the all-to-all in place from 256K and the reduce-scatter never.")               \
    X(COLL_PCOPY_MIN, SIZE, "auto", "",                                                            \
      "Smallest all-to-all (bytes of the src) from ordinary buffers on one node in which every "   \
      "rank reads its blocks straight from its peers' src with process-to-process copies (one "    \
      "copy of each byte; below: two, through the scratch; 0: never), and all-gather between 2 "   \
      "ranks (bytes per rank; until its stores into dst stream), and all-reduce (bytes per rank; " \
      "out of place up to 32 MiB of all ranks' src together); auto: the all-to-all from 1 MiB "    \
      "beyond 2 ranks; between 2 ranks the all-to-all from 4 MiB and the all-gather and the "      \
      "all-reduce from 2 MiB; the all-reduce beyond 2 ranks from 1 MiB where ranks share cores, "  \
      "from 4 MiB on 3-4 ranks with a core each, never on more of those; never on AMD CPUs.")      \
    X(COLL_STREAM_MIN, SIZE, "auto", "",                                                           \
      "Smallest broadcast (bytes) and all-gather (bytes per rank) through the scratch whose "      \
      "publishing copies use non-temporal stores, so that readers on other cores find the data "   \
      "in memory instead of snooping it out of the writer's cache (auto: on AMD CPUs of "          \
      "family 25 (Zen 3-4) broadcast 32K and, where ranks share cores, all-gather 4K, "            \
      "elsewhere never; 0: never).")                                                               \
    X(FUSED_MODE, STRING, "auto", "",                                                              \
      "Fused collective mode (auto: the autotune table, else a size rule; or oneshot, twoshot, "   \
      "fewest_bytes, baseline).")                                                                  \
    X(AUTOTUNE_FILE, STRING, "", "", "Autotune table to load (and save to, after tuning).")        \
    X(COPY_CHUNK, SIZE, "0", "",                                                                   \
      "Copy service: tasks larger than this are segmented (0: from the staging size).")            \
    X(COPY_STAGING, SIZE, "8M", "",                                                                \
      "Copy service: size of each staging slot (two receive slots per rank, on the heap).")        \
    X(COPY_ZERO_COPY, INT, "1", "",                                                                \
      "Copy service: 1 writes straight into receive buffers where possible; 0 always stages.")     \
    X(STRICT, INT, "0", "", "Tests: 1 turns skipped tests into failures.")                         \
    X(TEST_SCOPE, ENUM, "full", "full|transport|scale",                                            \
      "Tests: transport runs the collective tests on fewer dtypes, operations and sizes (every "   \
      "algorithm and collective still), for runs where the transport is under test (the VM); "     \
      "scale leaves out their streaming-store variants, for runs at large team sizes.")
