// Tensor memory in the extracted program: accumulators cut into slices, tcgen05 operands named.
#include "kernel/Builder.hpp"
#include "kernel/StepForms.hpp"
#include "ptx/Print.hpp"
#include "ptx/Tables.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

namespace ptxmc::kernel {

using ptx::ModuleOp;
using OperandKind = RawOperand::Kind;

void Builder::tmemStart(const Step& s) {
    if (s.op == ModuleOp::Tcgen05Mma && !s.operands.empty() &&
        s.operands[0].kind == OperandKind::Addr && s.operands[0].value.known)
        tmem_.addAccumulator(s.operands[0].value.v & 0xFFFF);
}

TmemSlices::Span Builder::tmemSpan(const Step& s, const RawOperand& o, int warp, bool mmaA,
                                   std::uint64_t mmaN) {
    std::uint64_t col = o.value.v & 0xFFFF;
    TmemSlices::Span span{col, TmemSlices::kEnd, TmemSlices::kAllQuarters};
    const ModuleOp op = s.op;
    if (op == ModuleOp::Tcgen05Ld || op == ModuleOp::Tcgen05St) {
        // "A lane of the Tensor Memory can be accessed by a single warp in the warpgroup":
        // warp w reaches lanes 32 (w % 4) to 32 (w % 4) + 31 ({Tcgen05AccessRestrictions})
        span.quarter = warp % 4;
        std::uint64_t n = tmemColumns(s.parts);
        if (n != TmemSlices::kEnd) span.hi = col + n;
    } else if (op == ModuleOp::Tcgen05Mma && mmaA) {
        span.hi = col + 8; // A from tensor memory: M x K elements, K * bits = 256 a row
    } else if (op == ModuleOp::Tcgen05Mma && mmaN) {
        span.hi = col + mmaN;
    } else if (op == ModuleOp::Tcgen05Cp) {
        span.hi =
            col + (ptx::hasQualifier(s.parts, "128x256b") || ptx::hasQualifier(s.parts, "4x256b")
                       ? 8
                       : 4);
    }
    return span;
}

void Builder::tmemWrites(const Step& s, int warp) {
    if (!ptx::isTcgen05Op(s.op) || s.operands.empty()) return;
    const ModuleOp op = s.op;
    if (op == ModuleOp::Tcgen05Mma && s.operands[0].value.known && s.operands.size() > 3) {
        const RawOperand& idesc = mmaDescriptor(s);
        if (idesc.value.known)
            if (std::uint64_t n = mmaColumns(idesc.value.v))
                tmem_.addBound((s.operands[0].value.v & 0xFFFF) + n);
        return;
    }
    if (op != ModuleOp::Tcgen05St && op != ModuleOp::Tcgen05Cp && op != ModuleOp::Tcgen05Shift)
        return;
    for (const RawOperand& o : s.operands)
        if (o.kind == OperandKind::Addr && o.value.known) {
            tmem_.addWrite(tmemSpan(s, o, warp, false, 0));
            return;
        }
}

litmus::Operand Builder::tmemRef(const RawOperand& o, int cta, const Step& s, bool mmaA,
                                 std::uint64_t mmaN) {
    Val v = o.value;
    if (!v.known)
        failOn(o.loc, "the tensor-memory address of this " + s.opcode + " depends on ", v,
               "a value read from memory that ptxmc could not follow");
    std::vector<std::string> names = tmem_.names(tmemSpan(s, o, warp_, mmaA, mmaN));
    for (const std::string& n : names)
        declareTmem(n, cta);
    return tmemOperand(names, o.loc);
}

void Builder::declareTmem(const std::string& name, int cta) {
    names_.insert(name);
    usedIn_[name].insert(cta);
    spaceOf_[name] = ir::Space::Tmem;
}

litmus::Operand Builder::descriptorRef(const RawOperand& o, int cta, const Step& s) {
    auto a = descriptorAddr(o);
    if (!a)
        fail(o.loc, "the shared-memory descriptor '" + o.reg + "' of this " + s.opcode +
                        " is not known from the launch");
    auto ref =
        sharedRef((static_cast<std::uint64_t>(cta) << Layout::kRankShift) | *a, cta, o.loc, false);
    if (!ref) fail(o.loc, "descriptor '" + o.reg + "' points outside the shared buffers");
    return *ref;
}

void Builder::renderTcgen05(const Step& s, const std::vector<RawOperand>& ops,
                            litmus::Instruction& in, Item& it, int cta, const SharedAddr& addr) {
    const ModuleOp op = s.op;
    if (op == ModuleOp::Tcgen05Mma) {
        // Their metadata, scale and look-up operands are tensor-memory columns that the
        // accumulator-based naming below would fold into an accumulator stage.
        for (std::string_view q : ptx::kMmaExtraTmemForms)
            if (ptx::hasQualifier(in.parts, q))
                fail(entry().body[s.stmt].insn.loc,
                     "ptxmc kernel does not follow tcgen05.mma." + std::string(q) +
                         " yet: its tensor-memory operands besides A and D are not mapped "
                         "to locations (litmus tests take it)");
        // the disable-output-lane vector (after the instruction descriptor) is dropped:
        // lanes are not told apart
        std::vector<const RawOperand*> kept;
        for (std::size_t i = 0; i < ops.size(); ++i)
            if (!(i == 4 && ops[i].kind == OperandKind::Vec)) kept.push_back(&ops[i]);
        for (std::size_t i = 0; i < kept.size() && i < 5; ++i) {
            const RawOperand& o = *kept[i];
            if (i == 0 || (i == 1 && o.kind == OperandKind::Addr)) { // D; A from tensor memory
                const RawOperand& idesc = mmaDescriptor(s);
                std::uint64_t n = idesc.value.known ? mmaColumns(idesc.value.v) : 0;
                in.operands.push_back(tmemRef(o, cta, s, i == 1, n));
            } else if ((i == 1 || i == 2) && o.kind == OperandKind::Reg) {
                in.operands.push_back(descriptorRef(o, cta, s));
            } else if (i == 3) { // the instruction descriptor: a name per shape
                litmus::Operand d;
                d.kind = litmus::Operand::Kind::Name;
                d.loc = o.loc;
                d.name = o.value.known ? fmt::format("I{:x}", o.value.v) : std::string("I");
                in.operands.push_back(d);
            } else {
                in.operands.push_back(input(o, s, true));
            }
        }
    } else if (op == ModuleOp::Tcgen05Ld || op == ModuleOp::Tcgen05St) {
        std::size_t repetitions = oneRepetition(in);
        for (const RawOperand& o : ops) {
            if (o.kind == OperandKind::Addr) {
                in.operands.push_back(tmemRef(o, cta, s));
            } else if (o.kind == OperandKind::Vec) {
                litmus::Operand v = op == ModuleOp::Tcgen05Ld ? output(o) : input(o, s, false);
                std::size_t keep = std::max<std::size_t>(v.elements.size() / repetitions, 1);
                if (v.elements.size() > keep) v.elements.resize(keep);
                in.operands.push_back(v);
            } else {
                litmus::Operand v = input(o, s, false);
                // .16x32bx2's immHalfSplitoff: the slice of a split access runs to the end
                // of the allocation (tmemColumns), so both halves are the slice's rows
                if (v.kind == litmus::Operand::Kind::Integer &&
                    ptx::hasQualifier(s.parts, "16x32bx2"))
                    v.value = 0;
                in.operands.push_back(v);
            }
        }
        // the location has a row per register a thread moves (the lowering's rows)
        std::size_t regs = 1;
        for (const auto& o : in.operands)
            if (o.kind == litmus::Operand::Kind::Vector) regs = o.elements.size();
        for (const auto& o : in.operands) {
            if (o.kind != litmus::Operand::Kind::Memory && !ownsQuarter(o, warp_ % 4)) continue;
            for (const std::string& n : tmemOperandNames(o))
                tmemRows_[n] = std::max<std::size_t>(tmemRows_[n], regs);
            if (op == ModuleOp::Tcgen05St && ownsQuarter(o, warp_ % 4)) it.writesTmemQuarter = true;
        }
    } else if (op == ModuleOp::Tcgen05Alloc) {
        auto slot = ops.empty() ? std::nullopt : addr(ops[0], false);
        if (!slot)
            fail(entry().body[s.stmt].insn.loc,
                 "the shared-memory cell this tcgen05.alloc writes is not resolved");
        in.operands.push_back(*slot);
        for (std::size_t i = 1; i < ops.size(); ++i)
            in.operands.push_back(input(ops[i], s, true));
    } else if (op == ModuleOp::Tcgen05Commit) {
        for (const RawOperand& o : ops) {
            if (o.kind != OperandKind::Addr) {
                in.operands.push_back(input(o, s, true));
                continue;
            }
            auto mb = addr(o, true);
            if (!mb) fail(o.loc, "the mbarrier of this tcgen05.commit is not resolved");
            it.arriveOn = {mb->name + "@" + std::to_string(mb->cta.value_or(cta))};
            in.operands.push_back(*mb);
        }
        // .multicast::cluster: "the signal is multicast to the same offset as mbar in the shared
        // memory of each destination CTA" ({Tcgen05Commit}): an arrival on each
        if (ptx::hasQualifier(in.parts, "multicast::cluster") && in.operands.size() == 2 &&
            in.operands[1].kind == litmus::Operand::Kind::Integer)
            it.arriveOn = arrivalsOfMask(in.operands[0].name, in.operands[1].value);
    } else if (op == ModuleOp::Tcgen05Cp || op == ModuleOp::Tcgen05Shift) {
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const RawOperand& o = ops[i];
            if (o.kind == OperandKind::Addr)
                in.operands.push_back(tmemRef(o, cta, s));
            else if (i == 1 && o.kind == OperandKind::Reg)
                in.operands.push_back(descriptorRef(o, cta, s));
            else
                in.operands.push_back(input(o, s, true));
        }
    } else { // fence, wait, relinquish_alloc_permit, dealloc: constants
        for (const RawOperand& o : ops)
            in.operands.push_back(input(o, s, true));
    }
}

void Builder::coarsenTmem() {
    std::map<std::string, std::vector<int>> occurrences;   ///< slice -> the operands naming it
    std::map<std::string, std::set<std::string>> slicesOf; ///< accumulator -> its slices
    int id = 0;
    forEachTmemOperand([&](litmus::Operand& o) {
        for (const std::string& n : tmemOperandNames(o))
            if (TmemSlices::quarterOf(n) != TmemSlices::kAllQuarters) {
                occurrences[n].push_back(id);
                slicesOf[n.substr(0, n.rfind("_l"))].insert(n);
            }
        ++id;
    });
    std::map<std::vector<int>, std::vector<std::string>> groups;
    for (const auto& [n, ids] : occurrences)
        groups[ids].push_back(n);
    std::map<std::string, std::string> to;
    for (const auto& [ids, members] : groups) {
        std::string name = groupName(members, slicesOf);
        for (const std::string& m : members)
            to[m] = name;
    }
    forEachTmemOperand([&](litmus::Operand& o) {
        std::vector<std::string> names;
        for (const std::string& n : tmemOperandNames(o)) {
            std::string r = to.count(n) ? to.at(n) : n;
            if (std::find(names.begin(), names.end(), r) == names.end()) names.push_back(r);
        }
        o = tmemOperand(names, o.loc);
    });
    for (const auto& [from, name] : to) {
        if (from == name) continue;
        for (int c : usedIn_[from])
            declareTmem(name, c);
        if (auto r = tmemRows_.find(from); r != tmemRows_.end())
            tmemRows_[name] = std::max(tmemRows_[name], r->second);
    }
}

std::string Builder::groupName(const std::vector<std::string>& members,
                               const std::map<std::string, std::set<std::string>>& slicesOf) {
    const std::string& first = members.front();
    std::string acc = first.substr(0, first.rfind("_l"));
    if (members.size() == slicesOf.at(acc).size()) return acc;
    std::set<std::string> columns;
    for (const std::string& m : members)
        columns.insert(m.substr(m.rfind("_c")));
    if (columns.size() == 1 && members.size() == 4) return acc + *columns.begin();
    return first;
}

bool Builder::isTmemOperand(const litmus::Operand& o) const {
    auto tmem = [&](const std::string& n) {
        auto it = spaceOf_.find(n);
        return it != spaceOf_.end() && it->second == ir::Space::Tmem;
    };
    if (o.kind == litmus::Operand::Kind::Memory) return tmem(o.name);
    return o.kind == litmus::Operand::Kind::Vector && !o.elements.empty() &&
           tmem(o.elements[0].name);
}

} // namespace ptxmc::kernel
