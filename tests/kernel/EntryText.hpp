// A one-entry PTX module around a body, for the evaluator units' tests.
#pragma once

#include "kernel/LaneValues.hpp"
#include "kernel/Module.hpp"

#include <string>

namespace ptxmc::testing {

/**
 * Entry `k` with parameters `k_param_0` (a 32-byte struct) and `k_param_1` (a .u64), 32
 * threads, registers %r, %rd, %rs, %p and %f, the declarations `decls`, then `body`; the module
 * declares `moduleDecls` before the entry.
 */
inline kernel::Module entryModule(const std::string& body, const std::string& decls = "",
                                  const std::string& moduleDecls = "") {
    const std::string text = ".version 8.7\n.target sm_100a\n.address_size 64\n" + moduleDecls +
                             ".visible .entry k(\n"
                             "\t.param .align 8 .b8 k_param_0[32],\n"
                             "\t.param .u64 k_param_1\n"
                             ")\n.reqntid 32, 1, 1\n{\n"
                             "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n"
                             "\t.reg .b64 %rd<32>;\n\t.reg .f32 %f<8>; .reg .b16 %rs<8>;\n" +
                             decls + body + "}\n";
    return kernel::parseModule(text, "k.ptx");
}

/** The index in `f`'s body of the first instruction whose opcode starts with `prefix`. */
inline std::size_t statementAt(const kernel::Function& f, const std::string& prefix) {
    for (std::size_t i = 0; i < f.body.size(); ++i)
        if (f.body[i].kind == kernel::Statement::Kind::Instruction &&
            f.body[i].insn.opcode.rfind(prefix, 0) == 0)
            return i;
    return f.body.size();
}

/** A lane's operand values with an empty layout and a one-thread launch (no variables). */
struct BareValues {
    kernel::Layout layout;
    kernel::LaunchShape shape;
    kernel::LaneValues values{layout, shape};
};

} // namespace ptxmc::testing
