// A kernel finding's locations in the code's terms: which a flag's witnesses touch, the line
// that names each (kernel/CodeNames) and the instruction that first names it.
#pragma once

#include "engine/Result.hpp"
#include "kernel/CodeNames.hpp"
#include "kernel/Extract.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ptxmc::cli {

/**
 * The locations a flag's witnesses name, in the order the events name them: an mbarrier
 * operation's barrier, and the locations its instruction's text names ("(write response_0)";
 * among those its PTX line names in any thread or iteration).
 */
std::vector<std::string> locationsOf(const engine::RaisedFlag& f, const kernel::KernelProgram& k);

/**
 * "full_bar_0: the barrier first named at k.cu:60, by mbarrier.init... at k.ptx:60:2
 * (ptx_sync.cuh:15, inlined at k.cu:60)": where a location the extraction named comes from in
 * the code (`names`: kernel::codeNames(k)).
 */
std::string firstUseText(const std::string& name, const kernel::KernelProgram& k,
                         const std::map<std::string, kernel::CodeName>& names);

/** JSON: the CUDA lines of PTX line `ptxLine`, the innermost first, then its call sites. */
nlohmann::ordered_json sourcesJson(int ptxLine, const kernel::KernelProgram& k);

/** JSON: a location, the line that names it and the first instruction that names it. */
nlohmann::ordered_json firstUseJson(const std::string& name, const kernel::KernelProgram& k,
                                    const std::map<std::string, kernel::CodeName>& names);

/** `cutlass::smem+33792` for a location named after a mangled variable (`_ZN7cutlass4smemE_
 *  33792`); "" for any other name. `slot`: the suffix is an mbarrier's 8-byte slot, not a byte
 *  offset (`_ZN7cutlass4smemE_7`: `cutlass::smem+56`). */
std::string readableName(const std::string& name, bool slot = false);

} // namespace ptxmc::cli
