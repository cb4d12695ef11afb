#!/usr/bin/env bash
# Growth of `ptxmc kernel` per knob of a library-shaped kernel (bench/growth/growth_kernel.cu):
# time and memory per value, one knob at a time, fitted exponents, plot (about 40 min on 2 cores,
# three runs a point).
# Usage: bench/growth.sh [BUILD_DIR]   (GROWTH_AXES, GROWTH_VALUES_<axis>, GROWTH_TIMEOUT,
#        GROWTH_MEMORY, GROWTH_RUNS, GROWTH_PHASES, GROWTH_APPEND, GROWTH_OUT, GROWTH_ARGS: below)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
ptxmc=$build/ptxmc
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
out=${GROWTH_OUT:-$root/bench/growth}
# Axes to run, each varying one knob from the base point; the values are the issue's ranges.
axes=${GROWTH_AXES:-"k_blocks tiles stages consumers epi_warps cluster stages_wrap cluster_mc"}
timeout=${GROWTH_TIMEOUT:-90}  # per run, seconds: past it the point is Unknown (capped)
memory=${GROWTH_MEMORY:-4096}   # per run, MiB
# Runs per point: the fastest one's time (and the extraction's), the largest memory. One run of
# the same binary took 3.2 to 6.3 s at cluster_mc = 4 on this 2-core machine (bench/history.md,
# 2026-12-05 (6)); with two points an axis's exponent moved by 1 with that alone.
runs=${GROWTH_RUNS:-3}
[ "$runs" -ge 1 ] 2>/dev/null || { echo "GROWTH_RUNS must be a whole number, at least 1" >&2; exit 2; }
# Phase breakdown (ptxmc check --stats on the extracted litmus test): "ends" at each axis's
# smallest and largest answered points, "all" at every answered point, "none".
phases=${GROWTH_PHASES:-ends}
# More options for every run, e.g. GROWTH_ARGS="--reading q18-mbarrier-scope-is-cluster": the
# growth under one reading (with GROWTH_OUT elsewhere, so the default's results stay).
read -r -a extra_args <<<"${GROWTH_ARGS:-}"
declare -A base=([stages]=2 [consumers]=1 [epi_warps]=4 [cluster]=1 [k_blocks]=3 [tiles]=1)
declare -A values=(
    [k_blocks]="1 2 3 4 6 8 12 16 24 32" [tiles]="1 2 3 4" [stages]="2 3 4 6 8"
    [consumers]="1 2 3 4" [epi_warps]="1 2 4 8 16" [cluster]="1 2 4 8 16"
    # stages with k_blocks = stages + 1: every stage filled and the first one refilled once
    [stages_wrap]="2 3 4 6 8"
    # the cluster with A multicast (GROWTH_MULTICAST=1 in the kernel; ptxmc's answer is false)
    [cluster_mc]="2 4")
for a in "${!values[@]}"; do # GROWTH_VALUES_<axis>="1 2" replaces an axis's values
    var=GROWTH_VALUES_$a
    [ -z "${!var:-}" ] || values[$a]=${!var}
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
csv=$out/results.csv
phase_txt=$out/phases.txt
stamp="commit $(git -C "$root" rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ)"
if [ -n "${GROWTH_APPEND:-}" ] && [ -f "$csv" ]; then
    # GROWTH_APPEND=1: re-run these axes into the existing results, their old rows dropped
    for axis in $axes; do sed -i "/^$axis,/d" "$csv"; sed -i "/^$axis=/d" "$phase_txt"; done
    echo "# re-run $axes: $stamp, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$csv"
else {
    echo "# ptxmc kernel on bench/growth/growth_kernel.cu, one knob at a time from the base point"
    echo "# $stamp, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
        "load $(cut -d' ' -f1-3 /proc/loadavg), cap ${timeout} s / ${memory} MiB, fastest of $runs run(s)${GROWTH_ARGS:+, options $GROWTH_ARGS}"
    echo "axis,value,stages,consumers,epi_warps,cluster,k_blocks,tiles,warps,threads,instructions,extract_s,check_s,seconds,mib,answer"
} >"$csv"
echo "# ptxmc check --stats on the extracted program ($stamp)" >"$phase_txt"
fi

ptx_for() { # STAGES CONSUMERS EPI CLUSTER MULTICAST -> the compiled PTX (compiled once)
    local f=$work/s$1-c$2-e$3-cl$4-mc$5.ptx
    [ -f "$f" ] || "$nvcc" -arch=sm_100a -ptx -lineinfo -O3 -I"$root/tests/kernel" \
        -DGROWTH_STAGES="$1" -DGROWTH_CONSUMERS="$2" -DGROWTH_EPI_WARPS="$3" \
        -DGROWTH_CLUSTER="$4" -DGROWTH_MULTICAST="$5" "$root/bench/growth/growth_kernel.cu" -o "$f"
    echo "$f"
}

phase() { # AXIS VALUE PTX ARGS...: the per-phase figures of ptxmc check --stats
    local axis=$1 value=$2 ptx=$3
    shift 3
    "$ptxmc" kernel --emit-litmus "$@" "$ptx" >"$work/p.litmus" 2>/dev/null || return 0
    { nice -n 10 "$ptxmc" check --stats --timeout "$timeout" --memory-limit "$memory" \
        ${extra_args[@]+"${extra_args[@]}"} "$work/p.litmus" || true; } >"$work/p.out" 2>&1
    # a check stopped by a limit prints no Stats lines: its reason instead
    { grep -E '^(Stats |Unknown: )' "$work/p.out" || echo "Stats - no figures"; } |
        sed -e "s/^Stats [^ ]*/$axis=$value/" -e "s/^Unknown: /$axis=$value Unknown: /" >>"$phase_txt"
}

printf '%-12s %5s %6s %6s %8s %8s %8s %7s  %s\n' axis value thr/wp instr extract_s check_s seconds MiB answer
for axis in $axes; do
    capped=""
    last=""
    for v in ${values[$axis]}; do
        declare -A k=()
        for n in "${!base[@]}"; do k[$n]=${base[$n]}; done
        case $axis in
        stages_wrap) k[stages]=$v; k[k_blocks]=$((v + 1)) ;;
        cluster_mc) k[cluster]=$v ;;
        *) k[$axis]=$v ;;
        esac
        row="${k[stages]},${k[consumers]},${k[epi_warps]},${k[cluster]},${k[k_blocks]},${k[tiles]}"
        if [ -n "$capped" ]; then # a larger value than a capped one: not run, said so
            echo "$axis,$v,$row,,,,,,,,skipped (a smaller value was capped)" >>"$csv"
            continue
        fi
        mc=0
        [ "$axis" != cluster_mc ] || mc=1
        ptx=$(ptx_for "${k[stages]}" "${k[consumers]}" "${k[epi_warps]}" "${k[cluster]}" "$mc") || {
            echo "$axis,$v,$row,,,,,,,,nvcc failed" >>"$csv"; continue; }
        args=(--cluster "${k[cluster]}" --param "3=${k[k_blocks]}" --param "4=${k[tiles]}")
        # The run a user makes, without --stats (its relation sizes alone took 1.2 of 8.3 s at
        # cluster_mc = 4): time and memory. A violated property or an Unknown exits non-zero:
        # the answer column reports it.
        secs="" kib=0
        for ((run = 0; run < runs; run++)); do
            /usr/bin/time -o "$work/time" -f "TIME %e %M" nice -n 10 "$ptxmc" kernel \
                --timeout "$timeout" --memory-limit "$memory" "${args[@]}" \
                ${extra_args[@]+"${extra_args[@]}"} "$ptx" >"$work/out" 2>&1 || true
            read -r _ run_s run_kib < <(grep '^TIME' "$work/time" || echo "TIME - 0")
            kib=$((run_kib > kib ? run_kib : kib))
            # A run past a limit is the point's answer, with its own time, and is not repeated;
            # a run /usr/bin/time did not report (TIME -) gives no time.
            if grep -q '^Verdict: Unknown' "$work/out"; then secs=$run_s; break; fi
            [ "$run_s" != - ] || continue
            secs=$(awk -v a="${secs:-$run_s}" -v b="$run_s" 'BEGIN { print (b < a ? b : a) }')
        done
        [ -n "$secs" ] && [ "$secs" != - ] || secs=0
        mib=$((kib / 1024))
        header=$(grep -m1 '^Kernel ' "$work/out" || true)
        # "N warps; M of them synchronize": M threads in the checked program
        warps=$(echo "$header" | sed -n 's/.* \([0-9]*\) warps;.*/\1/p')
        threads=$(echo "$header" | sed -n 's/.*; \([0-9]*\) of them synchronize.*/\1/p')
        instr=$(echo "$header" | sed -n 's/.*(\([0-9]*\) instructions checked).*/\1/p')
        # The extraction alone (--emit-litmus), and the rest of the run's time the check's.
        ext=""
        for ((run = 0; run < runs; run++)); do
            /usr/bin/time -o "$work/etime" -f "TIME %e" "$ptxmc" kernel --emit-litmus "${args[@]}" \
                "$ptx" >/dev/null 2>&1 || true
            e=$(sed -n 's/^TIME //p' "$work/etime")
            [ -n "$e" ] || continue
            ext=$(awk -v a="${ext:-$e}" -v b="$e" 'BEGIN { print (b < a ? b : a) }')
        done
        chk=$(awk -v s="$secs" -v e="${ext:-0}" 'BEGIN { d = s - e; printf "%.2f", d < 0 ? 0 : d }')
        verdict=$(sed -n 's/^Verdict: //p' "$work/out")
        case "$verdict" in
        clean*) answer=clean ;;
        Unknown*)
            answer="Unknown: $(sed -n 's/^Unknown: \([^:]*\).*/\1/p' "$work/out" | head -1)"
            capped=1 ;;
        "") answer="error: $(grep -m1 -i 'error' "$work/out" | cut -c1-120 | tr ',' ';')"
            capped=1 ;;
        *) answer=$(echo "$verdict" | tr ',' ';') ;;
        esac
        echo "$axis,$v,$row,$warps,$threads,$instr,$ext,$chk,$secs,$mib,$answer" >>"$csv"
        printf '%-12s %5s %6s %6s %8s %8s %8s %7s  %s\n' "$axis" "$v" "${threads:--}/${warps:--}" \
            "${instr:--}" "${ext:--}" "${chk:--}" "$secs" "$mib" "$answer"
        if [ -z "$capped" ]; then
            last="$v ${ptx} ${args[*]}"
            if [ "$phases" = all ] || { [ "$phases" = ends ] && [ "$v" = "${values[$axis]%% *}" ]; }; then
                # shellcheck disable=SC2086
                phase "$axis" $last
            fi
        fi
    done
    if [ "$phases" = ends ] && [ -n "$last" ] && [ "${last%% *}" != "${values[$axis]%% *}" ]; then
        # shellcheck disable=SC2086
        phase "$axis" $last
    fi
done
python3 "$root/bench/growth/plot.py" "$csv" "$out/growth.svg"
