// A recorded step as a litmus instruction; a warp's lanes merged; branches on data as guarded
// choices.
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

litmus::Operand Builder::imm(std::uint64_t v, const SourceLoc& loc) const {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Integer;
    o.value = static_cast<std::int64_t>(v);
    o.loc = loc;
    return o;
}

litmus::Operand Builder::sink(const SourceLoc& loc) const {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Sink;
    o.loc = loc;
    return o;
}

std::string Builder::regName(const std::string& r) {
    std::string s;
    for (char c : r.substr(!r.empty() && r[0] == '%' ? 1 : 0))
        s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "r" + s;
    return s;
}

litmus::Operand Builder::reg(const RawOperand& r) const {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Name;
    o.name = regName(r.reg);
    o.loc = r.loc;
    return o;
}

void Builder::failOn(const SourceLoc& loc, const std::string& what, const Val& v,
                     const std::string& otherwise) const {
    failOnValue(loc, what, x_, v, otherwise);
}

litmus::Operand Builder::input(const RawOperand& r, const Step& s, bool mustKnow) const {
    if (r.kind == OperandKind::Imm || (r.kind == OperandKind::Reg && r.value.known))
        return imm(r.value.v, r.loc);
    if (r.kind == OperandKind::Sink) return sink(r.loc);
    if (mustKnow)
        failOn(r.loc, "operand '" + r.reg + "' of this " + s.opcode + " depends on ", r.value,
               "a value read from memory: ptxmc needs it known");
    // Data the evaluation does not follow (a value computed from memory): its value
    // does not matter to the properties checked, so a constant stands for it.
    if (r.kind == OperandKind::Vec) {
        litmus::Operand o;
        o.kind = litmus::Operand::Kind::Vector;
        o.loc = r.loc;
        for (const RawOperand& e : r.elements)
            o.elements.push_back(e.value.known ? imm(e.value.v, e.loc) : imm(1, e.loc));
        return o;
    }
    return imm(1, r.loc);
}

litmus::Operand Builder::output(const RawOperand& r) const {
    if (r.kind == OperandKind::Vec) {
        litmus::Operand o;
        o.kind = litmus::Operand::Kind::Vector;
        o.loc = r.loc;
        for (const RawOperand& e : r.elements)
            o.elements.push_back(e.kind == OperandKind::Sink ? sink(e.loc) : reg(e));
        return o;
    }
    if (r.kind == OperandKind::Sink) return sink(r.loc);
    return reg(r);
}

std::optional<Builder::Item> Builder::render(const Step& s, int cta, const SourceLoc& loc) {
    Item it;
    it.op = s.op;
    litmus::Instruction& in = it.insn;
    in.loc = loc;
    std::vector<RawOperand> ops = s.operands;
    stripHints(in, ops, s);
    const ModuleOp op = s.op;
    auto addr = [&](const RawOperand& o, bool mbar) -> std::optional<litmus::Operand> {
        if (!o.value.known) return std::nullopt;
        auto a = Layout::sharedAddress(o.value.v);
        if (!a) return std::nullopt;
        return sharedRef(*a, cta, o.loc, mbar);
    };
    bool stores = ptx::isStOp(op) || ptx::isRedOp(op) || op == ModuleOp::Stmatrix;
    if (ptx::isLdOp(op) || stores || ptx::isAtomOp(op) || op == ModuleOp::Ldmatrix) {
        bool asyncSt = ptx::isStOp(op) && ptx::hasQualifier(s.parts, "async");
        bool asyncRed = ptx::isRedOp(op) && ptx::hasQualifier(s.parts, "async");
        std::size_t at = stores ? 0 : 1;
        if (ops.size() <= at) fail(loc, s.opcode + ": missing address operand");
        auto loc0 = addr(ops[at], false);
        if (loc0) partOf(*loc0, ops[at], cta, stores || ptx::isAtomOp(op));
        if (!loc0) {
            if (asyncSt || asyncRed)
                fail(ops[at].loc, "the address of this " + s.opcode +
                                      " is not a shared "
                                      "buffer ptxmc could resolve");
            ++dropped_;
            return std::nullopt;
        }
        for (std::size_t i = 0; i < ops.size(); ++i) {
            if (i == at)
                in.operands.push_back(*loc0);
            else if (i == 0 && at == 1)
                in.operands.push_back(output(ops[i]));
            else if (ops[i].kind == OperandKind::Addr) {
                auto mb = addr(ops[i], true);
                if (!mb) fail(ops[i].loc, "this " + s.opcode + "'s mbarrier is not resolved");
                in.operands.push_back(*mb);
            } else
                in.operands.push_back(input(ops[i], s, false));
        }
        if ((ptx::isLdOp(op) || ptx::isStOp(op)) && narrowWide(in))
            note(loc, "a vector or 128-bit access (.v2/.v4/.v8, .b128) is checked as one "
                      "access of its location");
        if ((ptx::isLdOp(op) || ptx::isStOp(op)) && widenSubWord(in))
            note(loc, "an 8- or 16-bit access is checked as an access of its whole "
                      "location, a buffer whose values are data");
    } else if (ptx::isMbarrierOp(op)) {
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const RawOperand& o = ops[i];
            if (o.kind == OperandKind::Addr) {
                auto mb = addr(o, true);
                if (!mb)
                    fail(o.loc, "the mbarrier address of this " + s.opcode + " is not resolved");
                it.arriveOn = {mb->name + "@" + std::to_string(mb->cta.value_or(cta))};
                in.operands.push_back(*mb);
            } else if (i == 0 &&
                       (op == ModuleOp::MbarrierArrive || op == ModuleOp::MbarrierArriveDrop ||
                        op == ModuleOp::MbarrierTryWait || op == ModuleOp::MbarrierTestWait)) {
                in.operands.push_back(sink(o.loc));
            } else {
                in.operands.push_back(input(o, s, true));
            }
        }
        if (op == ModuleOp::MbarrierTryWait && in.operands.size() > 3) in.operands.resize(3);
        bool arrives = (op == ModuleOp::MbarrierArrive || op == ModuleOp::MbarrierArriveDrop) &&
                       !ptx::hasQualifier(s.parts, "noComplete");
        if (!arrives) it.arriveOn.clear();
        // .multicast::cluster::32b (9.4): an arrival on the barrier of every CTA of the mask
        if (arrives && ptx::hasQualifier(in.parts, "multicast::cluster") &&
            in.operands.back().kind == litmus::Operand::Kind::Integer)
            it.arriveOn = arrivalsOfMask(in.operands[1].name, in.operands.back().value);
        it.init = op == ModuleOp::MbarrierInit;
        if (it.init)
            it.arriveOn = {in.operands[0].name + "@" +
                           std::to_string(in.operands[0].cta.value_or(cta))};
    } else if (isBulkCopy(s) || isReduceBulk(s) || isNonBulkAsync(s)) {
        // cp.async.{ca,cg}'s fourth operand is src-size or ignore-src by its register's type;
        // its value alone (what the launch gives) would read a predicate as src-size
        bool nonBulk = s.op == ModuleOp::CpAsync;
        if (nonBulk && ops.size() > 3)
            fail(ops[3].loc, "cp.async's src-size / ignore-src operand is not followed by "
                             "ptxmc kernel");
        auto mbIndex = mbarrierOperand(s);
        bool tensor = isTensor(s);
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const RawOperand& o = ops[i];
            if (o.kind == OperandKind::Addr) {
                bool mb = mbIndex && *mbIndex == i;
                if (tensor && !o.elements.empty()) {
                    in.operands.push_back(tensorTile(s, o, ops));
                    continue;
                }
                auto ref = addr(o, mb);
                if (!ref && !mb) ref = globalRef(s, o);
                if (!ref) fail(o.loc, "this " + s.opcode + "'s address is not resolved");
                in.operands.push_back(*ref);
            } else {
                in.operands.push_back(input(o, s, true));
            }
        }
        // cp.async.mbarrier.arrive: with .noinc its arrival counts against the init count; without,
        // the pending count is raised first, a net zero change ({CpAsyncMbarrierArrive}), so only
        // the .noinc form is an arrival to scale
        if (op == ModuleOp::CpAsyncMbarrier) {
            if (ptx::hasQualifier(s.parts, "noinc") && !in.operands.empty())
                it.arriveOn = {in.operands[0].name + "@" +
                               std::to_string(in.operands[0].cta.value_or(cta))};
        }
    } else if (op == ModuleOp::WgmmaMmaAsync) {
        // The Machine tracks d's and A's fragment registers, not sp-meta (wgmma.cat's rules).
        if (std::find(in.parts.begin(), in.parts.end(), "sp") != in.parts.end())
            fail(entry().body[s.stmt].insn.loc,
                 "ptxmc kernel does not follow wgmma.mma_async.sp yet: its sparsity-metadata "
                 "register is not tracked as a fragment register (litmus tests take it)");
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const RawOperand& o = ops[i];
            if (i == 0) {
                litmus::Operand d = output(o);
                if (d.kind == litmus::Operand::Kind::Vector && d.elements.size() > 1)
                    d.elements.resize(1); // one accumulator register stands for the fragment
                in.operands.push_back(d);
            } else if ((i == 1 || i == 2) && o.kind == OperandKind::Reg) {
                auto a = descriptorAddr(o);
                if (!a)
                    fail(o.loc, "the shared-memory descriptor '" + o.reg +
                                    "' of this "
                                    "wgmma.mma_async is not known from the launch");
                auto ref = sharedRef((static_cast<std::uint64_t>(cta) << Layout::kRankShift) | *a,
                                     cta, o.loc, false);
                if (!ref)
                    fail(o.loc, "descriptor '" + o.reg + "' points outside the shared buffers");
                in.operands.push_back(*ref);
            } else if (i == 1 && o.kind == OperandKind::Vec) {
                in.operands.push_back(input(o, s, false));
            } else {
                in.operands.push_back(input(o, s, true));
            }
        }
    } else if (ptx::isTcgen05Op(op)) {
        renderTcgen05(s, ops, in, it, cta, addr);
    } else if (op == ModuleOp::Mov) { // a thread's access of a wgmma fragment register (Machine)
        in.operands.push_back(output(ops.at(0)));
        in.operands.push_back(ops.at(1).kind == OperandKind::Reg ? reg(ops[1])
                                                                 : input(ops[1], s, false));
    } else {
        for (const RawOperand& o : ops) {
            if (o.kind == OperandKind::Addr) {
                auto ref = addr(o, false);
                if (!ref) ref = addr(o, true);
                if (!ref) fail(o.loc, "the address of this " + s.opcode + " is not resolved");
                in.operands.push_back(*ref);
            } else {
                in.operands.push_back(input(o, s, true));
            }
        }
    }
    it.key = fmt::format("{}#{}#{}", s.stmt, s.instance, text(in));
    return it;
}

std::string Builder::text(const litmus::Instruction& in) {
    std::string t = in.opcode;
    for (const auto& o : in.operands) {
        t += " ";
        switch (o.kind) {
        case litmus::Operand::Kind::Integer:
            t += std::to_string(o.value);
            break;
        case litmus::Operand::Kind::Memory:
            t += "[" + o.name + (o.cta ? "@" + std::to_string(*o.cta) : "") + "]";
            for (const auto& e : o.elements)
                t += "," +
                     (e.kind == litmus::Operand::Kind::Integer ? std::to_string(e.value) : e.name);
            break;
        case litmus::Operand::Kind::Vector:
            for (const auto& e : o.elements)
                t += e.name + ",";
            break;
        default:
            t += o.name;
        }
    }
    return t;
}

std::string Builder::wayName(const DataChoice& c) const {
    return fmt::format("way_l{}_{}", entry().body[c.stmt].insn.loc.line, c.instance);
}

litmus::Instruction Builder::pseudo(ptx::Op op, std::vector<litmus::Operand> operands,
                                    const SourceLoc& loc) {
    litmus::Instruction in;
    ptx::writeBack(ptx::Insn{std::move(op), std::move(operands), loc, ""}, in);
    in.loc = loc;
    return in;
}

litmus::Operand Builder::named(const std::string& name, const SourceLoc& loc) const {
    litmus::Operand o;
    o.kind = litmus::Operand::Kind::Name;
    o.name = name;
    o.loc = loc;
    return o;
}

litmus::Instruction Builder::guarded(const Item& it, Ways& ways,
                                     std::vector<litmus::Instruction>& code) {
    litmus::Instruction in = it.insn;
    if (it.guard.empty()) return in;
    const SourceLoc& loc = in.loc;
    for (const DataChoice& c : it.guard) // the choice stands at its branch
        if (ways.chosen.insert(wayName(c)).second) {
            const SourceLoc& branch = entry().body[c.stmt].insn.loc;
            code.push_back(pseudo(ptx::Nondet{}, {named(wayName(c), branch)}, branch));
        }
    if (it.guard.size() == 1) {
        in.guard = litmus::Predicate{wayName(it.guard[0]), !it.guard[0].taken, loc};
        return in;
    }
    std::string key;
    for (const DataChoice& c : it.guard)
        key += (c.taken ? "+" : "-") + wayName(c);
    auto [at, fresh] =
        ways.conjunctions.emplace(key, fmt::format("ways_{}", ways.conjunctions.size()));
    const std::string& reg = at->second;
    if (fresh) {
        code.push_back(pseudo(kMovB32, {named(reg, loc), imm(1, loc)}, loc));
        for (const DataChoice& c : it.guard) {
            litmus::Instruction clear = pseudo(kMovB32, {named(reg, loc), imm(0, loc)}, loc);
            clear.guard = litmus::Predicate{wayName(c), c.taken, loc};
            code.push_back(std::move(clear));
        }
    }
    in.guard = litmus::Predicate{reg, false, loc};
    return in;
}

std::vector<Builder::Item> Builder::mergeLanes(const WarpTrace& w) {
    std::vector<Item> out;
    for (const auto& lane : w.lanes) {
        std::size_t pos = 0;
        for (const Step& s : lane) {
            const Statement& st = entry().body[s.stmt];
            warp_ = w.warp;
            auto rendered = render(s, w.cta, st.insn.loc);
            if (!rendered) continue;
            if (!s.guard.empty()) {
                rendered->guard = s.guard;
                for (const DataChoice& c : s.guard)
                    rendered->key += "@" + (c.taken ? "" : std::string("!")) + wayName(c);
            }
            for (Item& item : expandParts(*rendered, w.cta)) {
                std::size_t j = pos;
                while (j < out.size() && out[j].key != item.key)
                    ++j;
                if (j < out.size()) {
                    ++out[j].lanes;
                    pos = j + 1;
                } else {
                    out.insert(out.begin() + static_cast<std::ptrdiff_t>(pos), std::move(item));
                    ++pos;
                }
            }
        }
    }
    return out;
}

} // namespace ptxmc::kernel
