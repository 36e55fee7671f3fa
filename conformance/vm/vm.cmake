# Conformance over verbs in the Soft-RoCE VM (launch/vsym-softroce; ../shared/softroce.md).
# Included at the end of conformance/CMakeLists.txt, after every fragment registered its tests:
#   VSYM_MR_TESTS     targets of vsym_add_mr_test, run again in the VM (at the rank counts each
#                     one registered: a group of 4 ranks runs only the tests that have _np4)
#   VSYM_VERBS_TESTS  verbs-only multi-rank targets (append names to this cache variable, e.g.
#                     set(VSYM_VERBS_TESTS ${VSYM_VERBS_TESTS} name CACHE INTERNAL "")), run at
#                     2 ranks in vm_verbs_np2
# Each group boots the VM once and runs its list through conformance/vm/run-group. The VM tests
# share one lock (two emulated guests on a small machine would starve each other).
if(NOT VSYM_WITH_VERBS)
  return()
endif()
set(VSYM_SOFTROCE ${CMAKE_SOURCE_DIR}/launch/vsym-softroce)
set(vm_dir ${CMAKE_CURRENT_LIST_DIR})
function(vm_props name timeout)
  set_tests_properties(${name} PROPERTIES LABELS "verbs;vm" RESOURCE_LOCK vsym_softroce_vm
                       SKIP_RETURN_CODE 77 TIMEOUT ${timeout} ENVIRONMENT "${VSYM_TEST_ENV}")
endfunction()

# The multi-rank suite over verbs, one VM boot per configuration.
set(vm_mr ${VSYM_MR_TESTS})
set(vm_verbs ${VSYM_VERBS_TESTS})
list(REMOVE_DUPLICATES vm_mr)
list(REMOVE_DUPLICATES vm_verbs)
# Settings (-D on the cmake command line overrides them):
#   VSYM_VM_TEST_TIMEOUT   seconds each conformance binary may take in the VM (coll_ops took
#                          204 s of the 240 there were in the 2 x 2 group on a slow day of this
#                          shared host, 2026-12-02: 480)
#   VSYM_VM_FULL_TEST_TIMEOUT  the same in the *_full groups (the whole collective matrix:
#                          coll_ops at 4 ranks on 2 pretend nodes took 480-600 s there until its
#                          symmetric all-reduce's large count ran one dtype per element size
#                          across nodes: 256 s since; its log shows each step's seconds). On a
#                          slow day of this shared host the guest's software CPU runs 2-3x slower
#                          (vm_verbs_np4 524 s against 214, 2026-12-03) and coll_ops at 2 ranks
#                          over verbs passed 600 s: 1500 s, with each wait's own timeout (a few
#                          seconds, naming the peer) still catching a hang
#   VSYM_VM_GROUP_TIMEOUT  seconds one VM group (boot included) may take
#   VSYM_VM_FULL_GROUP_TIMEOUT  the same for the *_full groups (vm_vnodes_2x2_full took 672 s on
#                          a normal day)
#   VSYM_VM_ENV            VAR=VALUE settings of every VM group. The guest has 2 GiB and verbs
#                          pins every registered heap: 4 ranks of the default 512 MiB heap would
#                          not fit (and pinning it costs a minute of emulated CPU); tests need less.
if(NOT VSYM_VM_TEST_TIMEOUT)
  set(VSYM_VM_TEST_TIMEOUT 480)
endif()
if(NOT VSYM_VM_FULL_TEST_TIMEOUT)
  set(VSYM_VM_FULL_TEST_TIMEOUT 1500)
endif()
if(NOT VSYM_VM_GROUP_TIMEOUT)
  set(VSYM_VM_GROUP_TIMEOUT 1200)
endif()
if(NOT VSYM_VM_FULL_GROUP_TIMEOUT)
  set(VSYM_VM_FULL_GROUP_TIMEOUT 3600)
endif()
if(NOT DEFINED VSYM_VM_ENV)
  set(VSYM_VM_ENV "VSYM_HEAP_SIZE=64M;VSYM_INTERNAL_SIZE=16M")
endif()

#   VSYM_VM_EXCLUDE        tests left out of the default groups because they are known to fail
#                          over verbs (none since the VM boots a 6.12 kernel, whose Soft-RoCE
#                          keeps its completions; launch/install-deps); the *_full groups (label
#                          slow) run everything, with the whole collective matrix.
if(NOT DEFINED VSYM_VM_EXCLUDE)
  set(VSYM_VM_EXCLUDE "")
endif()

# vm_group(NAME NP ranks [NODES n] [VERBS_EXTRA] [FULL] [EXCLUDE t...] [SCRIPTS "cmd arg"...]
#          ENV VAR=VAL...)
# SCRIPTS: command lines the guest runs before the binaries (run-group --script), each reported
# on its own line: checks that would otherwise boot a guest of their own.
function(vm_group name)
  cmake_parse_arguments(G "VERBS_EXTRA;FULL" "NP;NODES" "ENV;EXCLUDE;SCRIPTS" ${ARGN})
  set(bins "")
  set(skip ${G_EXCLUDE})
  if(NOT G_FULL)
    list(APPEND skip ${VSYM_VM_EXCLUDE})
  endif()
  foreach(t ${vm_mr})
    if(t IN_LIST skip)
      continue()
    endif()
    if(TARGET ${t} AND TEST ${t}_np${G_NP})
      # Long repetitions (label slow) stay out: the emulated CPU is slow enough.
      get_test_property(${t}_np${G_NP} LABELS labels)
      if(NOT "slow" IN_LIST labels)
        list(APPEND bins $<TARGET_FILE:${t}>)
      endif()
    endif()
  endforeach()
  if(G_VERBS_EXTRA)
    foreach(t ${vm_verbs})
      if(TARGET ${t} AND NOT t IN_LIST vm_mr)
        list(APPEND bins $<TARGET_FILE:${t}>)
      endif()
    endforeach()
  endif()
  if(NOT G_NODES)
    set(G_NODES 1)
  endif()
  set(envs "")
  # The default groups test the transport: the collective tests take fewer dtypes and sizes
  # there (VSYM_TEST_SCOPE=transport); the *_full groups run the whole matrix.
  set(scope VSYM_TEST_SCOPE=transport)
  set(bin_timeout ${VSYM_VM_TEST_TIMEOUT})
  set(group_timeout ${VSYM_VM_GROUP_TIMEOUT})
  if(G_FULL)
    set(scope VSYM_TEST_SCOPE=full)
    set(bin_timeout ${VSYM_VM_FULL_TEST_TIMEOUT})
    set(group_timeout ${VSYM_VM_FULL_GROUP_TIMEOUT})
  endif()
  math(EXPR vm_inner_timeout "${group_timeout} - 20")
  # VSYM_TEST_ENV (LeakSanitizer's suppressions of the PMIx library's leaks, for sanitizer
  # builds) reaches the ranks in the guest too.
  foreach(e ${VSYM_TEST_ENV} ${VSYM_VM_ENV} ${scope} ${G_ENV})
    list(APPEND envs --env ${e})
  endforeach()
  set(scripts "")
  foreach(sc ${G_SCRIPTS})
    list(APPEND scripts --script "${sc}")
  endforeach()
  if(bins)
    add_test(NAME ${name}
             COMMAND ${VSYM_SOFTROCE} --nodes ${G_NODES} --mem 4096 --timeout ${vm_inner_timeout} ${envs}
                     -- ${vm_dir}/run-group -n ${G_NP} --timeout ${bin_timeout}
                        --logs ${CMAKE_CURRENT_BINARY_DIR}/vm-logs/${name} ${scripts} -- ${bins}
             WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
  else()
    add_test(NAME ${name} COMMAND sh -c "echo 'no multi-rank tests registered: skipped'; exit 77")
  endif()
  vm_props(${name} ${group_timeout})
endfunction()

# The default groups first check the harness itself (softroce-check: the devices, their GIDs,
# ib_write_bw and mpirun across the two pretend nodes), and the 1-node group that a rank killed
# in the middle of a job over verbs makes its survivor's wait fail naming it, with nothing left
# behind (mr/killed_rank.sh). core_no_pcopy tests shared memory without the kernel's
# process-to-process copy: with every peer over verbs it would only skip (after its ranks'
# start-up, 8-14 s in the guest).
set(killed_rank "")
if(TARGET core_errors AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/mr/killed_rank.sh)
  set(killed_rank
      "${CMAKE_CURRENT_SOURCE_DIR}/mr/killed_rank.sh ${VSYM_RUN} $<TARGET_FILE:core_errors>")
endif()
vm_group(vm_verbs_np2 NP 2 VERBS_EXTRA EXCLUDE core_no_pcopy
         SCRIPTS "${vm_dir}/softroce-check devinfo" ${killed_rank} ENV VSYM_TRANSPORT=verbs)
vm_group(vm_vnodes_2x2 NP 4 NODES 2 SCRIPTS "${vm_dir}/softroce-check two-nodes"
         ENV VSYM_TRANSPORT=auto VSYM_VIRTUAL_NODES=2)
# Longer or known-failing configurations: label slow (launch/run-tests -- -L slow).
vm_group(vm_verbs_np4 NP 4 EXCLUDE core_no_pcopy ENV VSYM_TRANSPORT=verbs)
vm_group(vm_verbs_np2_full NP 2 VERBS_EXTRA FULL EXCLUDE core_no_pcopy ENV VSYM_TRANSPORT=verbs)
vm_group(vm_vnodes_2x2_full NP 4 NODES 2 FULL ENV VSYM_TRANSPORT=auto VSYM_VIRTUAL_NODES=2)
foreach(t vm_verbs_np4 vm_verbs_np2_full vm_vnodes_2x2_full)
  if(TEST ${t})
    set_property(TEST ${t} APPEND PROPERTY LABELS slow)
  endif()
endforeach()
