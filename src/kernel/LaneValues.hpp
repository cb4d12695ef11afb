// What a lane's operands read: its registers, the special registers, the addresses of variables.
#pragma once

#include "kernel/Lane.hpp"
#include "kernel/LaunchShape.hpp"
#include "kernel/Machine.hpp"
#include "litmus/Ast.hpp"

#include <cstdint>
#include <string>

namespace ptxmc::kernel {

/** Operand values of one lane, where the launch shape and the variables' layout are fixed. */
class LaneValues {
public:
    LaneValues(const Layout& layout, const LaunchShape& shape) : layout_(layout), shape_(shape) {}

    /** Register `raw` (`!p` negates a predicate), a special register or a variable's address. */
    Val read(const Lane& L, const std::string& raw) const;
    /** An operand's value: an immediate, a register, an address, a packed `{lo, hi}` vector. */
    Val value(const Lane& L, const litmus::Operand& o) const;
    /** `[base+offset]`'s address. */
    Val address(const Lane& L, const litmus::Operand& o) const;
    /** An operand resolved as far as the lane's values go, as a recorded step keeps it. */
    RawOperand resolve(const Lane& L, const litmus::Operand& o) const;
    /** The first parameter field not given that an input of `in` depends on (0: none). */
    std::uint32_t fieldOf(const Lane& L, const litmus::Instruction& in) const;

    /** Writes `v` to destination `o`; the elements of a vector destination become unknown. */
    static void set(Lane& L, const litmus::Operand& o, Val v);
    /** `in`'s destination becomes unknown (depending on parameter field `field`, if any). */
    static void unknownDests(Lane& L, const litmus::Instruction& in, std::uint32_t field = 0);

    /** Where CTA `cta`'s shared memory starts in the shared window. */
    static std::uint64_t sharedBase(int cta) {
        return static_cast<std::uint64_t>(cta) << Layout::kRankShift;
    }

    const LaunchShape& shape() const { return shape_; }

private:
    const Layout& layout_;
    const LaunchShape& shape_;
};

} // namespace ptxmc::kernel
