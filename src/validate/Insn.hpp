// A litmus instruction split into its name and a set of qualifiers, for the CUDA generator.
#pragma once

#include "litmus/Ast.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::validate {

/** Lowering already checked every qualifier; the generator only asks which ones are there. */
struct Insn {
    const litmus::Instruction* inst = nullptr;
    std::string op;             ///< "ld", "mbarrier.arrive", "cp.async.bulk", "tcgen05.mma", ...
    std::vector<std::string> q; ///< the other qualifiers, in written order

    explicit Insn(const litmus::Instruction& i) : inst(&i) {
        const auto& p = i.parts;
        std::size_t skip = 1;
        if (p[0] == "mbarrier" || p[0] == "tcgen05") skip = 2;
        if (p.size() >= 3 && p[0] == "cp" && p[1] == "async" && p[2] == "bulk") {
            skip = 3;
            if (p.size() >= 4 && (p[3] == "commit_group" || p[3] == "wait_group")) skip = 4;
        }
        skip = std::min(skip, p.size());
        for (std::size_t k = 0; k < skip; ++k)
            op += (k ? "." : "") + p[k];
        q.assign(p.begin() + static_cast<std::ptrdiff_t>(skip), p.end());
    }

    bool has(const std::string& s) const { return std::find(q.begin(), q.end(), s) != q.end(); }

    std::optional<std::string> oneOf(std::initializer_list<const char*> options) const {
        for (const std::string& s : q)
            for (const char* o : options)
                if (s == o) return s;
        return std::nullopt;
    }

    std::optional<std::string> prefixed(const std::string& prefix) const {
        for (const std::string& s : q)
            if (s.rfind(prefix, 0) == 0) return s.substr(prefix.size());
        return std::nullopt;
    }

    const litmus::Operand& operand(std::size_t i) const { return inst->operands.at(i); }
    std::size_t operands() const { return inst->operands.size(); }
    const SourceLoc& loc() const { return inst->loc; }
};

} // namespace ptxmc::validate
