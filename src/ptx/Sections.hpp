// The PTX ISA section that defines each synchronising instruction, with its HTML anchor.
#pragma once

#include "ptx/Insn.hpp"

#include <string>

namespace ptxmc::ptx {

/** A section of the PTX ISA text: number and anchor, e.g. {"9.7.13.4", "parallel-...-membar"}. */
struct Section {
    std::string number;
    std::string anchor;
};

/**
 * The section defining a synchronising instruction (fences, barriers, mbarrier operations,
 * commits and waits, release and acquire accesses); empty for the others.
 */
Section sectionOf(const Insn& insn);

/** "PTX ISA 9.7.13.4 #anchor", or "" for an empty section. */
std::string citation(const Section& s);

} // namespace ptxmc::ptx
