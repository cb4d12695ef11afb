// decodeProgram(): the litmus front end's test, with each instruction decoded once.
#include "ptx/Program.hpp"

#include "ptx/Decode.hpp"

namespace ptxmc::ptx {

const Insn& CodeItem::insn() const {
    if (error) throw *error;
    return decoded.value();
}

CodeItem decodeItem(const litmus::Instruction& inst) {
    CodeItem item;
    item.label = inst.label;
    item.guard = inst.guard;
    item.loc = inst.loc;
    if (item.label) return item;
    try {
        item.decoded = decode(inst, [&](int group) { item.ctaGroup = group; });
    } catch (const InputError& e) {
        item.error = e;
    }
    return item;
}

Program decodeProgram(const litmus::Test& test) {
    Program p;
    p.name = test.name;
    p.file = test.file;
    p.docs = test.docs;
    p.locations = test.locations;
    p.registers = test.registers;
    p.observed = test.observed;
    p.condition = test.condition;
    for (const litmus::Thread& t : test.threads) {
        Thread thread{t.id, t.cta, t.gpu, t.cluster, {}, t.loc};
        for (const litmus::Instruction& inst : t.code)
            thread.code.push_back(decodeItem(inst));
        p.threads.push_back(std::move(thread));
    }
    return p;
}

} // namespace ptxmc::ptx
