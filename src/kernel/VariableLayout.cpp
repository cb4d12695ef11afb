// Places an entry's shared, local and parameter variables in their windows (Layout).
#include "kernel/VariableLayout.hpp"

#include <algorithm>

namespace ptxmc::kernel {

namespace {

std::uint64_t alignUp(std::uint64_t at, std::uint64_t align) {
    align = std::max<std::uint64_t>(align, 1);
    return (at + align - 1) / align * align;
}

} // namespace

Layout layoutVariables(const Module& m, const Function& entry, std::uint64_t dynamicShared) {
    Layout out;
    std::vector<const Variable*> dynamic;
    std::uint64_t at = 0x400; // the first bytes are reserved on the hardware too
    auto place = [&](const Variable& v) {
        if (v.space != VarSpace::Shared) return;
        at = alignUp(at, v.align);
        if (v.isExtern || v.bytes == 0) {
            dynamic.push_back(&v);
            return;
        }
        out.shared[v.name] = Layout::Symbol{&v, at, v.bytes};
        at += v.bytes;
    };
    for (const Variable& v : m.globals)
        place(v);
    for (const Variable& v : entry.locals)
        place(v);
    std::uint64_t local = 0;
    for (const Variable& v : entry.locals) {
        if (v.space != VarSpace::Local) continue;
        local = alignUp(local, v.align);
        out.local[v.name] = Layout::Symbol{&v, local, v.bytes};
        local += v.bytes;
    }
    // Dynamic shared memory follows the static variables; every .extern array starts there.
    std::uint64_t align = 16;
    for (const Variable* v : dynamic)
        align = std::max(align, v->align);
    at = alignUp(at, align);
    for (const Variable* v : dynamic)
        out.shared[v->name] = Layout::Symbol{v, at, dynamicShared};
    std::uint64_t p = 0;
    for (const Variable& v : entry.params) {
        p = alignUp(p, v.align);
        out.params[v.name] = Layout::Symbol{&v, p, v.bytes};
        out.paramOrder.push_back(&v);
        p += v.bytes;
    }
    return out;
}

} // namespace ptxmc::kernel
