#!/usr/bin/env bash
# ptxmc kernel on public library kernels a user fetched: compiles each with nvcc, checks it with
# the launch recorded here, and prints time, peak memory and the answer side by side.
# Usage: bench/library-kernels.sh LIBDIR [BUILD_DIR]
#   LIBDIR holds the libraries as fetched (LIBDIR/cutlass: github.com/NVIDIA/cutlass,
#   LIBDIR/DeepGEMM: github.com/deepseek-ai/DeepGEMM, LIBDIR/ThunderKittens:
#   github.com/HazyResearch/ThunderKittens); a library
#   not there is skipped. Neither the libraries nor their PTX belong in this repository: the PTX
#   goes to a temporary folder. READINGS=1 also checks each kernel with --readings; MUTANTS=0
#   leaves out the PTX mutants (bench/ptx-mutant.py) of the kernels that list them;
#   SM90_WS_PARAMS=FILE: the host's Params dump of bench/library/cutlass_sm90_ws.cu;
#   EX48_PARAMS=FILE: the same file's dump built with -DPTXMC_EX48 (example 48's configuration);
#   KERNELS=REGEX: only the kernels whose names it matches (KERNELS='deepgemm|tk-').
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$(cd "${1:?usage: bench/library-kernels.sh LIBDIR [BUILD_DIR]}" && pwd)
build=${2:-$root/build}
ptxmc=$build/ptxmc
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# compile NAME ARCH SOURCE INCLUDE...: nvcc -ptx -lineinfo -O3 into $work/NAME.ptx (CXX_STD: the
# C++ standard, c++17 unless set; NVCC_DEFINES: -D options)
compile() {
    local name=$1 arch=$2 source=$3
    shift 3
    wanted "$name" || return 1
    local includes=()
    for i in "$@"; do includes+=(-I"$i"); done
    # shellcheck disable=SC2086 # NVCC_DEFINES: words, each a -D option
    "$nvcc" -std=${CXX_STD:-c++17} -arch="$arch" -ptx -lineinfo -O3 --expt-relaxed-constexpr \
        ${NVCC_DEFINES:-} "${includes[@]}" "$source" -o "$work/$name.ptx" 2>"$work/$name.nvcc.log"
}

# wanted NAME: whether KERNELS (an extended regular expression; unset: every kernel) names it
wanted() { [[ -z "${KERNELS:-}" ]] || [[ "$1" =~ $KERNELS ]]; }

# nvcc_failed NAME: says so, unless KERNELS left NAME out (compile then did not run)
nvcc_failed() { ! wanted "$1" || echo "$1: nvcc failed ($work/$1.nvcc.log)"; }

# check NAME OPTIONS...: one row: seconds, peak MiB, exit status, the verdict line
check() {
    local name=$1
    shift
    local out status=0
    /usr/bin/time -o "$work/$name.time" -f "%e %M" "$ptxmc" kernel "$@" "$work/$name.ptx" \
        >"$work/$name.out" 2>&1 || status=$?
    out=$(tail -1 "$work/$name.time")
    local verdict
    verdict=$(grep -m1 -E '^(Verdict|Unknown)|error:' "$work/$name.out" | cut -c1-110 || true)
    printf '%-30s %8s %8s %4s  %s\n' "$name${READINGS_TAG:-}" "$(echo "$out" | cut -d' ' -f1)" \
        "$(( $(echo "$out" | cut -d' ' -f2) / 1024 ))" "$status" "$verdict"
}

run() { # NAME OPTIONS...
    check "$@"
    if [ "${READINGS:-0}" = 1 ]; then
        READINGS_TAG=" --readings" check "$@" --readings
    fi
}

# mutant NAME ENTRY KIND N OPTIONS...: NAME's PTX with one synchronization instruction of
# ENTRY taken away or made wrong (bench/ptx-mutant.py), checked as NAME is; MUTANTS=0 skips.
mutant() {
    local name=$1 entry=$2 kind=$3 n=$4
    shift 4
    [ "${MUTANTS:-1}" != 0 ] || return 0
    local tag
    tag=$name--$(echo "$kind" | tr ':' '-')-$n
    if python3 "$root/bench/ptx-mutant.py" "$kind" "$n" "$entry" "$work/$name.ptx" "$work/$tag.ptx"; then
        check "$tag" --entry "$entry" --timeout "${MUTANT_TIMEOUT:-300}" "$@"
    else
        echo "$tag: no such instruction (the library changed?)"
    fi
}

printf '%-30s %8s %8s %4s  %s\n' kernel s MiB exit answer
cutlass=$lib/cutlass
if [ -d "$cutlass/include/cutlass" ]; then
    inc=("$cutlass/include" "$cutlass/tools/util/include" "$cutlass/examples/common")
    # Fields as --list-params asks for them, filled in its order: 8-byte fields (pointers) 0,
    # the others 128 (sizes, the tile scheduler's divisors).
    fields=(--param 0+1328=0 --param 0+1320=0 --param 0+1956=128 --param 0+1936=128
        --param 0+1940=128 --param 0+1932=128 --param 0+1960=128 --param 0+1964=128
        --param 0+1948=128 --param 0+1952=128 --param 0+1944=128 --param 0+1968=128
        --param 0+12=128)
    if compile cutlass-sm100-1sm sm_100a "$root/bench/library/cutlass_sm100_1sm.cu" "${inc[@]}"; then
        run cutlass-sm100-1sm --grid 2 --tiles 2 "${fields[@]}"
    else
        nvcc_failed cutlass-sm100-1sm
    fi
    if compile cutlass-ex70 sm_100a "$cutlass/examples/70_blackwell_gemm/70_blackwell_fp16_gemm.cu" \
        "${inc[@]}"; then
        # 0+1280: the epilogue's scalar beta (its pointer 0+1288 null), the example's default 0:
        # no C is loaded. One cluster (its 2x2 shape is compiled in), one tile a CTA: with two
        # the encoding passes 4 GB (issue 49). Under cutlass-reading (clean; its encoding needs
        # about 5 GB) with two mutants: the epilogue's fence.proxy.async before its TMA store
        # gone (the 6th of the entry: data-race, caught), and the MMA warp's accumulator-empty
        # wait (the 24th try_wait) on the other parity (a hang: Unknown today, the encoding of
        # executions that hang passes 4 GB; bench/history.md 2026-12-04 (4)).
        ex70=(--cluster 2,2 --grid 2,2 --tiles 1 "${fields[@]}" --param 0+1296=0 --param 0+1288=0
            --param 0+1280=0)
        run cutlass-ex70 --entry device_kernel "${ex70[@]}"
        READINGS_TAG=" cutlass-reading" check cutlass-ex70 --entry device_kernel "${ex70[@]}" \
            --reading cutlass-reading \
            --memory-limit 20000
        entry=$(grep -m1 '^\.entry' "$work/cutlass-ex70.ptx" | sed 's/^\.entry //; s/($//')
        MUTANT_TIMEOUT=600 mutant cutlass-ex70 "$entry" drop:fence.proxy.async 6 "${ex70[@]}" \
            --reading cutlass-reading --memory-limit 20000
        mutant cutlass-ex70 "$entry" flip-parity 24 "${ex70[@]}"
    else
        nvcc_failed cutlass-ex70
    fi
    # CUTLASS's Hopper warp-specialized GEMM (bench/library/cutlass_sm90_ws.cu, example 48's
    # builders on one CTA per cluster; docs/kernel.md walks through it) with the Params its host
    # launched on a Hopper GPU, dumped by the same file (SM90_WS_PARAMS=FILE, M = N = 128 and
    # K = 512 there: 8 k-blocks over 7 stages); skipped without one. Mutants: the consumer's
    # full wait (the 10th try_wait, after its probe) gone or on the other parity, the first
    # wgmma.fence gone.
    if ! wanted cutlass-sm90-ws; then
        :
    elif [ -z "${SM90_WS_PARAMS:-}" ]; then
        echo "cutlass-sm90-ws: no SM90_WS_PARAMS (docs/kernel.md: the host's dump)"
    elif compile cutlass-sm90-ws sm_90a "$root/bench/library/cutlass_sm90_ws.cu" "${inc[@]}" \
        "$root/include"; then
        ws=(--param-bytes 0="$SM90_WS_PARAMS" --cluster 1)
        run cutlass-sm90-ws "${ws[@]}"
        entry=$(grep -m1 '^\.entry' "$work/cutlass-sm90-ws.ptx" | sed 's/^\.entry //; s/($//')
        mutant cutlass-sm90-ws "$entry" drop-wait 10 "${ws[@]}"
        mutant cutlass-sm90-ws "$entry" flip-parity 10 "${ws[@]}"
        mutant cutlass-sm90-ws "$entry" drop:wgmma.fence 1 "${ws[@]}"
    else
        nvcc_failed cutlass-sm90-ws
    fi
    # CUTLASS example 48's configuration (the same file with -DPTXMC_EX48: tf32, 128x128x32
    # tiles, cluster 4x2; docs/kernel.md) with the Params its host dumped (EX48_PARAMS=FILE,
    # M N K = 512 256 128: one tile a CTA, four k-blocks); skipped without one. Its --readings
    # is always run: Q18's variant joins the 8 CTAs' causality (bench/history.md, 2026-12-06 (4)).
    if ! wanted cutlass-ex48; then
        :
    elif [ -z "${EX48_PARAMS:-}" ]; then
        echo "cutlass-ex48: no EX48_PARAMS (docs/kernel.md: the host's dump)"
    elif NVCC_DEFINES="${NVCC_DEFINES:-} -DPTXMC_EX48" compile cutlass-ex48 sm_90a \
        "$root/bench/library/cutlass_sm90_ws.cu" "${inc[@]}" "$root/include"; then
        ex48=(--param-bytes 0="$EX48_PARAMS" --cluster 4,2 --grid 4,2)
        check cutlass-ex48 "${ex48[@]}"
        READINGS_TAG=" --readings" check cutlass-ex48 "${ex48[@]}" --readings
    else
        nvcc_failed cutlass-ex48
    fi
    # cute's Hopper tutorial (TMA + wgmma, one CTA): K (0+8), the TiledMMA's accumulate flag (8)
    # and beta (10). K = 192: every stage waited on, clean; K = 128: its prologue loads a third
    # stage nobody waits on, mbarrier-misuse (docs/kernel.md).
    if compile cute-hopper-tutorial sm_90a "$cutlass/examples/cute/tutorial/hopper/wgmma_tma_sm90.cu" \
        "${inc[@]}"; then
        entry=$(grep -m1 '^\.entry _Z11gemm_device' "$work/cute-hopper-tutorial.ptx" |
            sed 's/^\.entry //; s/($//')
        for k in 192 128; do
            ln -sf cute-hopper-tutorial.ptx "$work/cute-hopper-tutorial-k$k.ptx"
            run cute-hopper-tutorial-k$k --entry "$entry" --param 0+8=$k --param 8=128 --param 10=0
        done
        # Mutants of the clean launch (docs/kernel.md): the consumer's full wait (the first
        # try_wait) gone or on the wrong parity, the first wgmma.fence gone.
        for m in drop-wait flip-parity drop:wgmma.fence; do
            mutant cute-hopper-tutorial "$entry" "$m" 1 --param 0+8=192 --param 8=128 --param 10=0
        done
    else
        nvcc_failed cute-hopper-tutorial
    fi
    # Example 77's Blackwell FMHA forward: the fp16 entry with no mask and the individual tile
    # scheduler; its correction warpgroup rescales O under a branch on data (both ways checked).
    # Sequence lengths, heads, the LSE pointer and the softmax and output scales (1.0f).
    if compile cutlass-ex77-fmha sm_100a "$cutlass/examples/77_blackwell_fmha/77_blackwell_fmha.cu" \
        "${inc[@]}" "$cutlass/examples/77_blackwell_fmha"; then
        entry=$(grep '^\.entry .*Sm100FmhaFwdKernelTmaWarpspecializedIN4cute5tupleIJiii' \
            "$work/cutlass-ex77-fmha.ptx" | grep 'NoMask' | grep 'IndividualTileScheduler' |
            head -1 | sed 's/^\.entry //; s/($//')
        fmha=(--entry "$entry" --param 0=256 --param 0+12=1 --param 0+1280=0
            --param 0+900=1065353216 --param 0+904=1065353216)
        for kv in kv1 kv2; do ln -sf cutlass-ex77-fmha.ptx "$work/cutlass-ex77-fmha-$kv.ptx"; done
        run cutlass-ex77-fmha-kv1 "${fmha[@]}" --param 0+4=128
        # kv2: past its encoding (3.1 GB) the first-execution query ran past 7 minutes
        run cutlass-ex77-fmha-kv2 "${fmha[@]}" --param 0+4=256 --timeout 300
    else
        nvcc_failed cutlass-ex77-fmha
    fi
else
    echo "(no $cutlass: CUTLASS kernels skipped)"
fi
deepgemm=$lib/DeepGEMM
# deepgemm_sm90 NAME WAIT FENCE OPTIONS...: bench/library/NAME.cu (with '-' as '_') checked with
# OPTIONS, and its mutants: the WAITth try_wait gone and flipped, the FENCEth wgmma.fence gone,
# the first fence.proxy.async gone
deepgemm_sm90() {
    local name=$1 wait=$2 fence=$3
    shift 3
    if ! CXX_STD=c++20 compile "$name" sm_90a "$root/bench/library/${name//-/_}.cu" \
        "$deepgemm/deep_gemm/include" "$cutlass/include"; then
        nvcc_failed "$name"
        return 0
    fi
    run "$name" "$@"
    local entry
    entry=$(grep -m1 '^\.entry' "$work/$name.ptx" | sed 's/^\.entry //; s/($//')
    mutant "$name" "$entry" drop-wait "$wait" "$@"
    mutant "$name" "$entry" flip-parity "$wait" "$@"
    mutant "$name" "$entry" drop:wgmma.fence "$fence" "$@"
    mutant "$name" "$entry" drop:fence.proxy.async 1 "$@"
}
if [ -d "$deepgemm/deep_gemm/include" ] && [ -d "$cutlass/include/cute" ]; then
    # Shapes M, N, K (fields 1-3) for one tile per CTA of the 2-CTA cluster.
    if CXX_STD=c++20 compile deepgemm-sm100-bf16 sm_100a "$root/bench/library/deepgemm_sm100_bf16.cu" \
        "$deepgemm/deep_gemm/include" "$cutlass/include"; then
        run deepgemm-sm100-bf16 --cluster 2 --param 1=256 --param 2=128 --param 3=128
    else
        nvcc_failed deepgemm-sm100-bf16
    fi
    # The sm90 GEMMs, each with its mutants (docs/kernel.md): the math warps' full wait this
    # launch runs gone or on the other parity, the wgmma.fence before their first wgmma gone, the
    # epilogue's proxy fence gone. bf16: M, N, K are fields 1-3, one 128x128 block, four
    # k-blocks on four stages; its 8th try_wait is the math warps' first full wait (the first
    # four are the producer's). fp8 with 1D-2D scaling: fields 2-4, two k-blocks; the 16th
    # try_wait and the 9th wgmma.fence (the earlier ones are on paths this launch does not run).
    deepgemm_sm90 deepgemm-sm90-bf16 8 1 --param 1=128 --param 2=128 --param 3=256
    deepgemm_sm90 deepgemm-sm90-fp8 16 9 --param 2=128 --param 3=128 --param 4=256
else
    echo "(no $deepgemm, or no CUTLASS for its cute: DeepGEMM skipped)"
fi
tk=$lib/ThunderKittens
if [ -f "$tk/kernels/gemm/bf16_h100/bf16_h100_gemm.cu" ]; then
    # ThunderKittens' H100 GEMM (its own file, its main's instantiation matmul_template<2,4,8>):
    # the C layout's rows and columns (0+784, 0+792) for one task, K (0+24) for two k-blocks.
    # A hang: its non-leader producer warps wait on every stage's consumer barrier
    # (docs/kernel.md).
    if CXX_STD=c++20 NVCC_DEFINES="-DKITTENS_HOPPER -DNDEBUG" compile tk-h100-gemm sm_90a \
        "$tk/kernels/gemm/bf16_h100/bf16_h100_gemm.cu" "$tk/include" "$tk/prototype"; then
        run tk-h100-gemm --entry matmul_templateILi2ELi4ELi8E --param 0+784=128 --param 0+792=256 \
            --param 0+24=128
    else
        nvcc_failed tk-h100-gemm
    fi
else
    echo "(no $tk: ThunderKittens skipped)"
fi
