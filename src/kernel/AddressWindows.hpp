// Address arithmetic on Layout's windows: cvta between shared and generic addresses, mapa to a
// peer CTA's shared memory, getctarank of a shared address.
#pragma once

#include "kernel/Machine.hpp"

#include <string>
#include <vector>

namespace ptxmc::kernel {

/**
 * cvta's result for input `in[0]` (cvta.shared to generic, cvta.to.shared back); an address of
 * another state space passes through (global and generic addresses are the same numbers).
 */
Val cvtaAddress(const std::vector<std::string>& parts, const std::vector<Val>& in);

/** mapa's result: the address `in[0]` names in the shared memory of cluster rank `in[1]`. */
Val mapaAddress(const std::vector<Val>& in);

/** getctarank's result: the cluster rank whose shared memory `in[0]` is in. */
Val ctarankOf(const std::vector<Val>& in);

} // namespace ptxmc::kernel
