// The mutants file (`gen-cuda --derive-mutants`): each forbidden test's mutations, or why none.
#pragma once

#include "ptx/Mutation.hpp"

#include <map>
#include <string>

namespace ptxmc::validate {

struct MutantList {
    std::multimap<std::string, ptx::Mutation> mutations; ///< by test path (normalised)
    std::map<std::string, std::string> none; ///< test path -> why it has no mutant (`# P: why`)
};

/** Reads `PATH MUTATION  # comment` lines and `# PATH.litmus: why` lines; other comments and
 *  blank lines are skipped; a bad line is an InputError at its line. */
MutantList readMutantList(const std::string& file);

} // namespace ptxmc::validate
