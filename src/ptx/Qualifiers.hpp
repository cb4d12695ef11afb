// Consumes the dotted qualifiers of an instruction, so that any qualifier left over is an error.
#pragma once

#include "litmus/Ast.hpp"

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::ptx {

class Qualifiers {
public:
    /** Qualifiers of `inst` after its first `skip` opcode parts (the instruction name). */
    Qualifiers(const litmus::Instruction& inst, std::size_t skip);

    /** True (and consumed) when `q` is present. */
    bool take(const std::string& q);
    /** The first present qualifier among `options` (consumed), if any. */
    std::optional<std::string> takeOneOf(std::initializer_list<const char*> options);
    /** The first present qualifier satisfying `match` (consumed), if any. */
    std::optional<std::string> takeIf(const std::function<bool(const std::string&)>& match);
    /** The first qualifier starting with `prefix` (consumed), without the prefix. */
    std::optional<std::string> takePrefixed(const std::string& prefix);
    /** Consumes PTX type suffixes (.u32, .b64, .s32, .f32, ...); returns them in written order. */
    std::vector<std::string> takeTypes();
    /** Throws InputError naming the first qualifier nobody consumed. */
    void finish() const;

    SourceLoc locOf(std::size_t part) const;

private:
    const litmus::Instruction& inst_;
    std::vector<bool> used_;
    std::size_t skip_;
};

} // namespace ptxmc::ptx
