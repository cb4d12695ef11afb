// Emits one litmus thread: addresses first, then the timing prologue, the body and the epilogue.
#include "hw/Emit.hpp"
#include "lower/Lowerer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>

namespace ptxmc::validate {

using litmus::Operand;
using Space = ir::Space;

std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08xu", v);
    return buf;
}

std::string ident(const std::string& name) {
    std::string out;
    for (char c : name)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return out;
}

/** IEEE half bits of a small integer (exact for |v| <= 2048). */
static std::uint32_t halfBits(std::int64_t v) {
    if (v == 0) return 0;
    std::uint32_t sign = v < 0 ? 0x8000u : 0;
    std::uint64_t m = static_cast<std::uint64_t>(v < 0 ? -v : v);
    int e = 0;
    while ((m >> e) > 1)
        ++e;
    std::uint32_t frac = static_cast<std::uint32_t>((m << 10 >> e) & 0x3ffu);
    return sign | static_cast<std::uint32_t>(e + 15) << 10 | frac;
}

std::uint32_t encodeConstant(std::int64_t v, Encoding e, const SourceLoc& at) {
    switch (e) {
    case Encoding::Int:
        return static_cast<std::uint32_t>(v);
    case Encoding::F16:
        if (v < -2048 || v > 2048)
            throw Refused(at, std::to_string(v) + " is not exact in f16 (mma operands)");
        return halfBits(v);
    case Encoding::F32: {
        if (v < -(1 << 24) || v > (1 << 24))
            throw Refused(at, std::to_string(v) + " is not exact in f32 (mma accumulators)");
        float f = static_cast<float>(v);
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        return bits;
    }
    case Encoding::TmemAddr:
        return 0xffffffffu; // "no address written yet"
    }
    return 0;
}

std::string decodeExpr(const std::string& raw, const LocPlan& loc) {
    switch (loc.encoding) {
    case Encoding::Int:
        return raw;
    case Encoding::F16:
        return "static_cast<unsigned>(litmus::decodeF16(" + raw + "))";
    case Encoding::F32:
        return "static_cast<unsigned>(litmus::decodeF32(" + raw + "))";
    case Encoding::TmemAddr:
        return "(" + raw + " == 0xffffffffu ? " + hex(static_cast<std::uint32_t>(loc.init[0])) +
               " : " + hex(static_cast<std::uint32_t>(loc.allocToken)) + ")";
    }
    return raw;
}

std::vector<ObsRef> observedRefs(const ptx::Program& test, const Plan& plan) {
    std::vector<ObsRef> out;
    std::set<std::string> seen;
    auto add = [&](const litmus::Ref& r) {
        ObsRef o;
        o.name = lower::refName(r);
        if (!seen.insert(o.name).second) return;
        if (r.kind == litmus::Ref::Kind::Register) {
            o.isRegister = true;
            for (std::size_t i = 0; i < test.threads.size(); ++i)
                if (test.threads[i].id == r.thread) o.thread = static_cast<int>(i);
            o.reg = r.name;
        } else {
            o.loc = plan.arrays.count(r.name)
                        ? &plan.loc(Plan::elementName(r.name, r.row.value_or(0)))
                        : &plan.loc(r.name);
            if (o.loc->mapOf >= 0)
                throw Refused(r.loc, "the final value of the tensor map '" + o.loc->name +
                                         "' is a version: on the device every version is the "
                                         "runner's one map, so it cannot be read back");
            o.cta = r.cta ? *r.cta : o.loc->ctas.empty() ? -1 : o.loc->ctas[0];
            o.row = plan.arrays.count(r.name) ? 0 : r.row.value_or(0);
            if (o.loc->space == Space::Tmem && plan.tcMode && o.row >= 32)
                throw Refused(r.loc, "row " + std::to_string(o.row) + " is beyond TMEM lane 31");
        }
        out.push_back(o);
    };
    std::function<void(const litmus::Prop&)> walk = [&](const litmus::Prop& p) {
        if (p.kind == litmus::Prop::Kind::Eq || p.kind == litmus::Prop::Kind::Ne) {
            add(p.lhs);
            if (p.rhsRef) add(*p.rhsRef);
        }
        for (const auto& a : p.args)
            walk(*a);
    };
    walk(*test.condition->prop);
    for (const auto& r : test.observed)
        add(r);
    return out;
}

namespace {

/** The registers an instruction reads (its guard's too). */
std::vector<std::string> readRegisters(const ptx::CodeItem& item) {
    std::vector<std::string> out;
    if (item.guard) out.push_back(item.guard->reg);
    const Insn& in = item.insn();
    for (std::size_t k = 1; k < in.operands.size(); ++k)
        if (in.operand(k).kind == Operand::Kind::Name) out.push_back(in.operand(k).name);
    return out;
}

/** The greatest set of registers closed under definitions by mov, arithmetic and setp from
 *  constants and each other (a loop counter feeds itself): everything else is removed. */
std::set<std::string> uniformRegisters(const ptx::Thread& thread) {
    std::set<std::string> uniform;
    for (const auto& i : thread.code)
        if (!i.isLabel() && i.decoded)
            for (const Operand& o : i.decoded->operands)
                if (o.kind == Operand::Kind::Name) uniform.insert(o.name);
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto& i : thread.code) {
            if (i.isLabel() || !i.decoded) continue;
            const Insn& in = *i.decoded;
            for (std::size_t k = 0; k < in.operands.size(); ++k) {
                const Operand& dst = in.operand(k);
                // every register an instruction writes: its first operand, vector elements
                // (elect's predicate, tcgen05.ld.red's value and a wait's report pair `p|q` are
                // written after operand 0)
                std::vector<std::string> written;
                const bool allWritten = in.is<ptx::Elect>() || in.is<ptx::Tcgen05Ld>();
                if ((k == 0 || allWritten) && dst.kind == Operand::Kind::Name)
                    written.push_back(dst.name);
                if (dst.kind == Operand::Kind::Vector || dst.kind == Operand::Kind::Name)
                    for (const Operand& e : dst.elements)
                        if (e.kind == Operand::Kind::Name) written.push_back(e.name);
                bool fromUniform = in.is<ptx::Mov>() || in.is<ptx::Arith>() || in.is<ptx::Setp>();
                if (fromUniform)
                    for (const std::string& r : readRegisters(i))
                        fromUniform = fromUniform && uniform.count(r) > 0;
                for (const std::string& w : written)
                    if (!(k == 0 && fromUniform) && uniform.erase(w)) changed = true;
            }
        }
    }
    return uniform;
}

/** Labels, branches or guards: a thread with control flow. */
bool hasControlFlow(const ptx::Thread& thread) {
    return std::any_of(thread.code.begin(), thread.code.end(), [](const auto& i) {
        return i.isLabel() || i.guard ||
               (i.decoded && (i.decoded->template is<ptx::Bra>() ||
                              i.decoded->template is<ptx::CompareBranch>()));
    });
}

/** A register-indexed address (`[a+k*r]`): its register must be alike in every lane. */
bool indexesArrays(const ptx::Thread& thread) {
    for (const auto& i : thread.code)
        if (!i.isLabel() && i.decoded)
            for (const Operand& o : i.decoded->operands)
                if (o.indexReg) return true;
    return false;
}

} // namespace

ThreadEmitter::ThreadEmitter(const Plan& plan, const ptx::Program& test, std::size_t threadIndex,
                             const std::vector<ObsRef>& observed)
    : plan_(plan), test_(test), thread_(test.threads[threadIndex]), threadIndex_(threadIndex),
      cta_(plan.ctas.at(test.threads[threadIndex].cta)), observed_(observed) {
    // wgmma accumulators: registers as wide as the widest mma that writes them
    for (const auto& i : thread_.code)
        if (const auto* w = i.decoded ? i.decoded->as<ptx::WgmmaMma>() : nullptr) {
            const Insn& in = i.insn();
            if (in.operands.empty() || in.operand(0).kind != Operand::Kind::Vector) continue;
            for (const Operand& e : in.operand(0).elements)
                if (e.kind == Operand::Kind::Name)
                    accRegs_[e.name] =
                        std::max(accRegs_[e.name], static_cast<unsigned>(std::max(1, w->n / 2)));
        }
    // only a thread with control flow or register-indexed addresses computes its uniform
    // registers in every lane (the others keep the emission they had: lane 0 alone)
    if (plan_.single() && (hasControlFlow(thread_) || indexesArrays(thread_)))
        uniform_ = uniformRegisters(thread_);
    // the items from a label to a later branch back to it
    looped_.assign(thread_.code.size(), false);
    for (std::size_t k = 0; k < thread_.code.size(); ++k) {
        const auto& item = thread_.code[k];
        if (item.isLabel() || !item.decoded) continue;
        const Insn& in = *item.decoded;
        const std::size_t target = in.is<ptx::Bra>()             ? 0
                                   : in.is<ptx::CompareBranch>() ? 2
                                                                 : in.operands.size();
        if (target >= in.operands.size()) continue;
        for (std::size_t l = 0; l < k; ++l)
            if (thread_.code[l].label && *thread_.code[l].label == in.operand(target).name)
                std::fill(looped_.begin() + static_cast<std::ptrdiff_t>(l),
                          looped_.begin() + static_cast<std::ptrdiff_t>(k) + 1, true);
    }
}

bool ThreadEmitter::inLoop() const {
    if (!inst_) return false;
    const auto at = static_cast<std::size_t>(inst_ - thread_.code.data());
    return at < looped_.size() && looped_[at];
}

bool ThreadEmitter::definesUniform(const Insn& in) const {
    return (in.is<ptx::Mov>() || in.is<ptx::Arith>() || in.is<ptx::Setp>()) &&
           !in.operands.empty() && in.operand(0).kind == Operand::Kind::Name &&
           uniform_.count(in.operand(0).name) > 0;
}

void ThreadEmitter::refuse(const std::string& why) const {
    throw Refused(inst_ ? inst_->loc : thread_.loc, why);
}

void ThreadEmitter::unfaithful(const std::string& why) const {
    plan_.notFaithful(inst_ ? inst_->loc : thread_.loc, why);
}

void ThreadEmitter::line(const std::string& s) {
    body_ << "    " << s << '\n';
}

void ThreadEmitter::asmStmt(const std::string& ptx, const std::vector<std::string>& outs,
                            const std::vector<std::string>& ins) {
    std::string s = "asm volatile(\"" + ptx + "\" :";
    for (std::size_t i = 0; i < outs.size(); ++i)
        s += (i ? ", " : " ") + outs[i];
    s += " :";
    for (std::size_t i = 0; i < ins.size(); ++i)
        s += (i ? ", " : " ") + ins[i];
    s += " : \"memory\");";
    line(s);
}

void ThreadEmitter::perThread() {
    if (!plan_.single() || laneZeroOpen_) return;
    if (plan_.wgMode) {
        // the warpgroup's earlier collective work is done in all four warps first
        warpgroupSync();
        line("if (threadIdx.x % 128u == 0) {");
        laneZeroOpen_ = true;
        return;
    }
    line("if (lane == 0) {");
    laneZeroOpen_ = true;
}

void ThreadEmitter::allLanes() {
    if (!laneZeroOpen_) return;
    line("}");
    laneZeroOpen_ = false;
}

void ThreadEmitter::collective() {
    if (!plan_.single()) return;
    allLanes();
    if (plan_.wgMode) return warpgroupSync(); // thread 0's work is done before the warpgroup's
    line("__syncwarp();");
}

std::string ThreadEmitter::hoist(const std::string& prefix, const std::string& type,
                                 const std::string& expr) {
    std::string name = prefix;
    if (declared_.insert(name).second)
        decls_.push_back("const " + type + " " + name + " = " + expr + ";");
    return name;
}

ThreadEmitter::Target ThreadEmitter::target(const Operand& op) {
    if (op.kind != Operand::Kind::Name && op.kind != Operand::Kind::Memory)
        throw Refused(op.loc, "expected a location");
    Target t;
    auto array = plan_.arrays.find(op.name);
    if (array != plan_.arrays.end()) {
        const ArrayPlan& a = array->second;
        if (op.indexReg) {
            // A warp-wide thread's lanes must agree on the element: its index is a register
            // every lane computes (set from constants and each other only).
            if (plan_.single() && !uniform_.count(*op.indexReg))
                throw Refused(op.indexLoc, "'" + *op.indexReg + "' indexes '" + op.name +
                                               "' in a warp-wide thread but is not computed "
                                               "from constants alone: its lanes could pick "
                                               "different elements");
            t.loc = &plan_.locs.at(static_cast<std::size_t>(a.first));
            t.array = &a;
            Operand reg;
            reg.name = *op.indexReg;
            reg.loc = op.indexLoc;
            t.index = "litmus::element(static_cast<long long>(static_cast<int>(" + intValue(reg) +
                      ")) * " + std::to_string(op.indexScale) + "LL + " + std::to_string(op.value) +
                      "LL, " + std::to_string(a.stride) + ", " + std::to_string(a.elements) + ")";
        } else {
            t.loc = &plan_.loc(op.name, op.value, op.loc);
        }
    } else {
        t.loc = &plan_.loc(op.name);
        t.row = static_cast<int>(op.value);
    }
    if (t.loc->space == Space::Global) return t;
    if (op.cta)
        t.cta = *op.cta;
    else if (t.loc->ctas.size() == 1)
        t.cta = t.loc->ctas[0];
    else
        t.cta = thread_.cta;
    t.remote = t.cta != thread_.cta;
    if (t.remote) {
        const CtaPlan& other = plan_.ctas.at(t.cta);
        if (other.litmusCluster != cta_.litmusCluster)
            throw Refused(op.loc, "'" + op.name + "@" + std::to_string(t.cta) +
                                      "' is in another cluster: hardware reaches only the "
                                      "shared memory of CTAs in its own cluster");
        t.rank = other.rank;
    } else {
        t.rank = cta_.rank;
    }
    return t;
}

std::string ThreadEmitter::indexed(const Target& t,
                                   std::string (ThreadEmitter::*addr)(const Target&)) {
    // A ternary chain over the elements' hoisted addresses; an index off the array (which the
    // model refuses, so only a value hardware alone produced gets here) marks the instance stuck.
    const ArrayPlan& a = *t.array;
    auto element = [&](int i) {
        Target e = t;
        e.array = nullptr;
        e.index.clear();
        e.loc = &plan_.locs.at(static_cast<std::size_t>(a.first + i));
        return (this->*addr)(e);
    };
    std::string chain = "(stuck = true, " + element(0) + ")";
    for (int i = a.elements - 1; i >= 0; --i)
        chain =
            "(" + t.index + " == " + std::to_string(i) + " ? " + element(i) + " : " + chain + ")";
    return chain;
}

std::string ThreadEmitter::globalAddr(const Target& t) {
    if (t.array) return indexed(t, &ThreadEmitter::globalAddr);
    return hoist("g_" + ident(t.loc->name), "unsigned long long",
                 "reinterpret_cast<unsigned long long>(litmus::globalCell(p, inst, " +
                     std::to_string(t.loc->index) + ", kGlobals, kGlobalSlotWords))");
}

std::string ThreadEmitter::sharedAddr(const Target& t) {
    if (t.array) return indexed(t, &ThreadEmitter::sharedAddr);
    return hoist("s_" + ident(t.loc->name), "unsigned",
                 "smem + " + std::to_string(t.loc->offset) + "u + litmus::sharedSlot(p, local, " +
                     std::to_string(plan_.locIndex.at(t.loc->name)) + "u, kPerCta) * " +
                     std::to_string(t.loc->slotBytes) + "u");
}

std::string ThreadEmitter::clusterAddr(const Target& t) {
    if (t.array) return indexed(t, &ThreadEmitter::clusterAddr);
    std::string own = sharedAddr(t);
    if (!t.remote) return own;
    return hoist("c_" + ident(t.loc->name) + "_" + std::to_string(t.cta), "unsigned",
                 "litmus::mapShared(" + own + ", " + std::to_string(t.rank) + "u)");
}

std::string ThreadEmitter::genericAddr(const Target& t) {
    if (t.array) return indexed(t, &ThreadEmitter::genericAddr);
    if (t.loc->space == Space::Global) return globalAddr(t);
    std::string own = sharedAddr(t);
    if (!t.remote)
        return hoist("gs_" + ident(t.loc->name), "unsigned long long",
                     "litmus::genericShared(" + own + ")");
    return hoist("gc_" + ident(t.loc->name) + "_" + std::to_string(t.cta), "unsigned long long",
                 "litmus::genericRemote(" + own + ", " + std::to_string(t.rank) + "u)");
}

std::string ThreadEmitter::intValue(const Operand& op) {
    if (op.kind == Operand::Kind::Integer) return hex(static_cast<std::uint32_t>(op.value));
    if (op.kind != Operand::Kind::Name) throw Refused(op.loc, "expected a register or integer");
    if (isAcc(op.name))
        return "static_cast<unsigned>(litmus::decodeF32(__float_as_uint(" + accCell(op.name) +
               ")))";
    auto it = kinds_.find(op.name);
    if (it == kinds_.end()) return regVar(op.name, RegKind::Int); // initialised register
    if (it->second == RegKind::Pending) {
        // Row 0 is lane 0's own load result: using it before the wait is a true register
        // dependency (PTX ISA {Tcgen05RegisterDependency}), kept as such. Other rows need a
        // shuffle, which only the wait makes valid.
        for (const PendingLoad& pl : pending_)
            for (const auto& [reg, row] : pl.regs)
                if (reg == op.name) {
                    if (row != 0)
                        plan_.notFaithful(op.loc, "register " + op.name +
                                                      " (a row other than 0 of a tcgen05.ld) is "
                                                      "used before tcgen05.wait::ld: the harness "
                                                      "gathers other rows only after the wait");
                    return decodeExpr(pl.var, *pl.loc);
                }
        throw Refused(op.loc, "register " + op.name + " is pending but has no load");
    }
    if (it->second != RegKind::Int)
        plan_.notFaithful(op.loc, "register " + op.name +
                                      " holds a phase token or a TMEM address here, not a number");
    return regVar(op.name, RegKind::Int);
}

std::string ThreadEmitter::encodedValue(const Operand& op, const LocPlan& loc) {
    if (loc.encoding == Encoding::TmemAddr)
        unfaithful("'" + loc.name +
                   "' holds a TMEM address; storing a number there would break "
                   "the token mapping");
    if (op.kind == Operand::Kind::Integer)
        return hex(encodeConstant(op.value, loc.encoding, op.loc));
    std::string v = intValue(op);
    if (loc.encoding == Encoding::F16) return "litmus::encodeF16(static_cast<int>(" + v + "))";
    if (loc.encoding == Encoding::F32) return "litmus::encodeF32(static_cast<int>(" + v + "))";
    return v;
}

std::string ThreadEmitter::regVar(const std::string& reg, RegKind kind) {
    return (kind == RegKind::Token ? "t_" : "r_") + ident(reg);
}

void ThreadEmitter::define(const Operand& op, const std::string& expr, RegKind kind,
                           const LocPlan* from) {
    if (op.kind == Operand::Kind::Sink) return;
    if (plan_.wgMode) {
        writtenSinceWgFence_.insert(op.name);
        if (pendingA_.count(op.name))
            unfaithful("register " + op.name +
                       " is written while an mma may still read it as A: the harness hands the mma "
                       "a copy of the register, so the race would not happen on hardware");
    }
    if (isAcc(op.name)) {
        if (kind != RegKind::Int)
            refuse("wgmma accumulator " + op.name + " can only hold numbers here");
        line(accCell(op.name) + " = __uint_as_float(litmus::encodeF32(static_cast<int>(" + expr +
             ")));");
        return;
    }
    kinds_[op.name] = kind;
    if (kind == RegKind::Address) addressSource_[op.name] = from;
    line(regVar(op.name, kind) + " = " + expr + ";");
}

// ---------------------------------------------------------------------------------------------

std::string ThreadEmitter::emit() {
    for (const auto& item : thread_.code)
        instruction(item);
    inst_ = nullptr;
    if (exitUsed_) line(exitLabel() + ":;"); // exit, or a loop out of time, leaves the body here
    epilogue();
    allLanes();
    std::ostringstream out;
    // Registers: every name the thread uses, with its initial value (0 unless initialised).
    std::map<std::string, std::int64_t> init;
    for (const auto& r : test_.registers)
        if (r.thread == thread_.id) init[r.reg] = r.value;
    std::set<std::string> names;
    for (const auto& [name, kind] : kinds_)
        names.insert(name);
    for (const auto& [name, v] : init)
        names.insert(name);
    for (const auto& o : observed_)
        if (o.isRegister && o.thread == static_cast<int>(threadIndex_)) names.insert(o.reg);
    for (const std::string& n : names) {
        std::int64_t v = init.count(n) ? init[n] : 0;
        if (isAcc(n)) {
            // f32 fragments of the warpgroup's accumulator: thread 0's first one is D[0][0]
            out << "    float f_" << ident(n) << "[" << accRegs_.at(n) << "] = {};\n";
            out << "    " << accCell(n) << " = __uint_as_float("
                << hex(encodeConstant(v, Encoding::F32, thread_.loc)) << ");\n";
            continue;
        }
        out << "    unsigned " << regVar(n, RegKind::Int) << " = "
            << hex(static_cast<std::uint32_t>(v)) << ";\n";
        out << "    (void)" << regVar(n, RegKind::Int) << ";\n";
        if (tokens_.count(n))
            out << "    unsigned long long " << regVar(n, RegKind::Token) << " = 0;\n";
    }
    if (usedWgmma_) // the tensor-core backlog's accumulator (litmus::wgmmaBacklog)
        out << "    float wgBacklog[litmus::kBacklogFragments] = {};\n";
    for (const std::string& d : decls_)
        out << "    " << d << '\n';
    out << "    litmus::startLine(p);\n";
    out << "    litmus::preDelay(p, warpKey);\n";
    out << "    const unsigned long long deadline = litmus::globalTimer() + p.timeoutNs;\n";
    out << "    (void)deadline;\n";
    out << body_.str();
    return out.str();
}

namespace {
template <class... F> struct Overloaded : F... { using F::operator()...; };
template <class... F> Overloaded(F...) -> Overloaded<F...>;
} // namespace

void ThreadEmitter::instruction(const ptx::CodeItem& inst) {
    inst_ = &inst;
    if (inst.label) return label(*inst.label);
    const Insn& in = inst.insn();
    // a uniform register is computed by every lane: a branch of any lane may read it
    if (plan_.single() && definesUniform(in)) allLanes();
    if (inst.guard) {
        // `@p bra L` is a conditional goto; any other guarded instruction runs under an if
        if (in.is<ptx::Bra>()) return branch(in.operand(0).name, guardCondition(*inst.guard));
        if (plan_.single() && !definesUniform(in))
            needsOwnThread("a guard on an instruction that is not uniform arithmetic");
        line("if (" + guardCondition(*inst.guard) + ") {");
    }
    if (step_ > 0) {
        if (plan_.single() && !laneZeroOpen_) {
            line("litmus::jitter(p, warpKey, " + std::to_string(step_) + "u);");
        } else if (!plan_.single()) {
            line("litmus::jitter(p, warpKey, " + std::to_string(step_) + "u);");
        }
    }
    ++step_;
    line("// " + in.opcode);
    dispatch(in);
    if (inst.guard) line("}");
}

void ThreadEmitter::noMapping(const Insn& in) const {
    refuse("'" + in.opcode + "' has no CUDA mapping");
}

// No catch-all: an instruction added to ptx::Op without a case here does not compile.
void ThreadEmitter::dispatch(const Insn& in) {
    // nanosleep.u32 t: an immediate is written in the text, a register is an input operand
    auto sleepFor = [&] {
        const Operand& t = in.operand(0);
        std::string text = opcode(ptx::Nanosleep{});
        if (t.kind == Operand::Kind::Integer)
            return asmStmt(text + " " + std::to_string(static_cast<std::uint32_t>(t.value)) + ";",
                           {}, {});
        asmStmt(text + " %0;", {}, {"\"r\"(" + intValue(t) + ")"});
    };
    std::visit(
        Overloaded{
            [&](const ptx::Ld& ld) {
                ld.name == ptx::LdName::Ld ? memoryAccess(in, "ld") : noMapping(in);
            },
            [&](const ptx::St& st) {
                if (st.async && st.sem == ptx::Sem::Release)
                    return refuse("st.async.release (sm_100) has no CUDA mapping yet");
                if (st.async) return stAsync(in, st);
                st.name == ptx::StName::St ? memoryAccess(in, "st") : noMapping(in);
            },
            [&](const ptx::Atom& at) {
                if (at.name == ptx::AtomName::Atom) return atomic(in, true);
                if (at.name == ptx::AtomName::Red) return atomic(in, false);
                noMapping(in);
            },
            [&](const ptx::Fence&) { fence(in); },
            [&](const ptx::Membar&) { fence(in); },
            [&](const ptx::ProxyFence&) { fence(in); },
            [&](const ptx::Barrier&) { barrier(in); },
            [&](const ptx::Arith&) { arithmetic(in); },
            [&](const ptx::TensormapReplace& r) { tensormapReplace(in, r); },
            [&](const ptx::TensormapCopy&) { tensormapCopy(in); },
            [&](const ptx::RedAsync& r) { redAsync(in, r); },
            [&](const ptx::Multimem&) {
                refuse("multimem.* accesses a location on each of several GPUs through a "
                       "multicast object: the harness runs on one GPU");
            },
            // warp-collective (.sync.aligned, 16-byte rows from eight lanes' addresses):
            // the harness gives a litmus thread one lane and 4-byte cells
            [&](const ptx::Matrix& m) {
                refuse(std::string(m.store ? "stmatrix" : "ldmatrix") +
                       " is warp-collective over 16-byte rows: no CUDA mapping yet");
            },
            [&](const ptx::MbarrierInit& i) { mbarrierInitialise(in, i); },
            [&](const ptx::MbarrierArrive&) { mbarrier(in); },
            [&](const ptx::MbarrierTx&) { mbarrier(in); },
            [&](const ptx::MbarrierWait&) { mbarrierWait(in); },
            [&](const ptx::CpAsyncArrive&) { cpAsyncArrive(in); },
            [&](const ptx::MbarrierCheckLayout&) {
                refuse("mbarrier.check_layout (PTX ISA 9.3): ptxas 13.0 does not know it");
            },
            [&](const ptx::MbarrierPendingCount&) {
                refuse("mbarrier.pending_count's count is not modelled: no CUDA mapping");
            },
            [&](const ptx::BulkPrefetch&) {
                refuse("cp.async.bulk.prefetch is a cache hint: no CUDA mapping yet");
            },
            [&](const ptx::ClcTryCancel&) {
                refuse("clusterlaunchcontrol needs sm_100 and a grid with clusters left to "
                       "cancel: no mapping for the Hopper harness");
            },
            [&](const ptx::ClcQueryCancel&) {
                refuse("clusterlaunchcontrol needs sm_100: no mapping for the Hopper harness");
            },
            [&](const ptx::BulkCopy& c) { bulkCopy(in, c); },
            [&](const ptx::BulkCommit& c) { c.nonBulk ? cpAsyncGroup(in, nullptr) : bulkCommit(); },
            [&](const ptx::BulkWait& w) { w.nonBulk ? cpAsyncGroup(in, &w) : bulkWait(in, w); },
            [&](const ptx::CpAsync&) { cpAsync(in); },
            [&](const ptx::Tcgen05Alloc&) { tcAlloc(in); },
            [&](const ptx::Tcgen05Relinquish&) { tcAlloc(in); },
            [&](const ptx::Tcgen05Mma&) { tcMma(in); },
            [&](const ptx::Tcgen05Cp&) { tcCp(in); },
            [&](const ptx::Tcgen05Shift&) { tcShift(in); },
            [&](const ptx::Tcgen05Ld&) { tcLd(in); },
            [&](const ptx::Tcgen05St&) { tcSt(in); },
            [&](const ptx::Tcgen05Wait& w) { tcWait(w); },
            [&](const ptx::Tcgen05Commit&) { tcCommit(in); },
            [&](const ptx::Tcgen05Fence& f) { tcFence(f); },
            [&](const ptx::WgmmaFence& f) {
                writtenSinceWgFence_.clear();
                wgSync(opcode(f));
            },
            [&](const ptx::WgmmaMma&) { wgMma(in); },
            [&](const ptx::WgmmaCommit& c) { wgSync(opcode(c)); },
            [&](const ptx::WgmmaWait& w) {
                if (in.operand(0).value == 0) pendingA_.clear();
                wgSync(opcode(w) + " " + std::to_string(in.operand(0).value));
            },
            [&](const ptx::Bra&) { branch(in.operand(0).name, "true"); },
            [&](const ptx::CompareBranch& b) { compareBranch(in, b); },
            [&](const ptx::Setp& sp) { setp(in, sp); },
            [&](const ptx::Mov&) {
                // register or immediate copy: C++ on 32-bit registers
                if (in.operands.size() != 2 || in.operand(0).kind != Operand::Kind::Name)
                    noMapping(in);
                define(in.operand(0), intValue(in.operand(1)), RegKind::Int);
            },
            [&](const ptx::Elect&) { elect(in); },
            [&](const ptx::Nondet&) { noMapping(in); },      // refused by checkSupported
            [&](const ptx::Vote&) { noMapping(in); },        // refused by checkSupported
            [&](const ptx::Match&) { noMapping(in); },       // refused by checkSupported
            [&](const ptx::Activemask&) { noMapping(in); },  // refused by checkSupported
            [&](const ptx::Redux&) { noMapping(in); },       // refused by checkSupported
            [&](const ptx::BarWarpSync&) { noMapping(in); }, // refused by checkSupported
            [&](const ptx::Nanosleep&) { sleepFor(); },
            // register-count and grid-launch hints: as written (no operand but the count)
            [&](const ptx::Setmaxnreg&) {
                asmStmt(opcode(in.op) + " " + std::to_string(in.operand(0).value) + ";", {}, {});
            },
            [&](const ptx::Griddepcontrol&) { asmStmt(opcode(in.op) + ";", {}, {}); },
            [&](const ptx::Exit&) { exitThread(); },
        },
        in.op);
}

/** `sem` when the CUDA side spells it, else none (the emitted text leaves it out). */
static ptx::Sem spelled(ptx::Sem sem, std::initializer_list<ptx::Sem> sems) {
    return std::find(sems.begin(), sems.end(), sem) != sems.end() ? sem : ptx::Sem::None;
}

/** The space as emitted: .shared is written .shared::cta (None = generic addressing). */
static ptx::StateSpace emittedSpace(ptx::StateSpace space) {
    return space == ptx::StateSpace::Shared ? ptx::StateSpace::SharedCta : space;
}

std::pair<std::string, std::string> ThreadEmitter::accessAddress(const Target& t,
                                                                 ptx::StateSpace space) {
    switch (emittedSpace(space)) {
    case ptx::StateSpace::Global:
        return {"l", globalAddr(t)};
    case ptx::StateSpace::Shared:
    case ptx::StateSpace::SharedCta:
        return {"r", sharedAddr(t)};
    case ptx::StateSpace::SharedCluster:
        return {"r", clusterAddr(t)};
    case ptx::StateSpace::None:
        break;
    }
    return {"l", genericAddr(t)};
}

void ThreadEmitter::memoryAccess(const Insn& in, const std::string& kind) {
    using S = ptx::Sem;
    auto* ld = in.as<ptx::Ld>();
    auto* st = in.as<ptx::St>();
    ptx::Sem sem = ld ? ld->sem : st->sem;
    ptx::Scope scope = ld ? ld->scope : st->scope;
    const Operand& locOp = in.operand(kind == "ld" ? 1 : 0);
    if (kind == "ld" && locOp.kind == Operand::Kind::Integer) { // Dat3M's `ld.weak r0, 1`
        define(in.operand(0), hex(static_cast<std::uint32_t>(locOp.value)), RegKind::Int);
        return;
    }
    Target t = target(locOp);
    ptx::StateSpace sp = emittedSpace(ld ? ld->space : st->space);
    if (sp == ptx::StateSpace::SharedCta && t.remote)
        refuse("'" + locOp.name + "' lives in CTA " + std::to_string(t.cta) +
               ", which .shared::cta cannot reach");
    auto [constraint, addr] = accessAddress(t, sp);
    ptx::Sem written = spelled(sem, {S::Weak, S::Relaxed, S::Acquire, S::Release, S::Volatile});
    std::vector<ptx::Type> b32 = {ptx::Type{'b', 32}};
    std::string ptx = kind == "ld" ? opcode(ptx::Ld{ptx::LdName::Ld, written, scope, sp, b32})
                                   : opcode(ptx::St{ptx::StName::St, written, scope, sp, b32});
    if (kind == "ld") {
        perThread();
        std::string raw = "v" + std::to_string(tmp_++);
        line("unsigned " + raw + ";");
        asmStmt(ptx + " %0, [%1];", {"\"=r\"(" + raw + ")"},
                {"\"" + constraint + "\"(" + addr + ")"});
        if (t.loc->encoding == Encoding::TmemAddr)
            define(in.operand(0), raw, RegKind::Address, t.loc);
        else
            define(in.operand(0), decodeExpr(raw, *t.loc), RegKind::Int);
    } else {
        std::string v = encodedValue(in.operand(1), *t.loc);
        perThread();
        asmStmt(ptx + " [%0], %1;", {},
                {"\"" + constraint + "\"(" + addr + ")", "\"r\"(" + v + ")"});
    }
}

void ThreadEmitter::atomic(const Insn& in, bool returns) {
    using S = ptx::Sem;
    const ptx::Atom& at = *in.as<ptx::Atom>();
    std::size_t first = returns ? 1 : 0;
    Target t = target(in.operand(first));
    if (t.loc->encoding != Encoding::Int)
        unfaithful("atomics on '" + t.loc->name +
                   "', whose device value is not the integer itself");
    if (emittedSpace(at.space) == ptx::StateSpace::SharedCta && t.remote)
        refuse("remote location with .shared::cta");
    // the harness's cells are 4 bytes: a 128-bit exch or cas would run as a 32-bit one and
    // compare nothing of the instruction the test names
    if (at.types.size() == 1 && at.types[0].bits == 128)
        refuse("atom .b128: the harness's cells are 4 bytes");
    ptx::AtomOp ptxOp = at.op;
    ptx::Type type{'b', 32};
    std::string arg = intValue(in.operand(first + 1));
    if (at.op == ptx::AtomOp::Add) type = {'u', 32};
    // the model compares .u32 unsigned and every other type (and none) signed; .inc/.dec are .u32
    if (at.op == ptx::AtomOp::Max || at.op == ptx::AtomOp::Min)
        type = at.types.size() == 1 && at.types[0].kind == 'u' ? ptx::Type{'u', 32}
                                                               : ptx::Type{'s', 32};
    if (at.op == ptx::AtomOp::Inc || at.op == ptx::AtomOp::Dec) type = {'u', 32};
    if (at.types.size() == 1 && at.types[0] == ptx::Type{'f', 32}) {
        // a binary32 add on the word's bits, as the model computes it
        if (at.noftz) refuse("'.add.noftz.f32' (PTX ISA 9.4): ptxas 13.0 rejects .noftz on .f32");
        type = {'f', 32};
    }
    if (at.op == ptx::AtomOp::Sub) { // PTX has no atom.sub
        ptxOp = ptx::AtomOp::Add;
        type = {'u', 32};
        arg = "(0u - " + arg + ")";
    }
    auto [constraint, addr] = accessAddress(t, at.space);
    std::string ptx =
        opcode(ptx::Atom{returns ? ptx::AtomName::Atom : ptx::AtomName::Red,
                         spelled(at.sem, {S::Relaxed, S::Acquire, S::Release, S::AcqRel}),
                         at.scope,
                         emittedSpace(at.space),
                         ptxOp,
                         {type},
                         false});
    std::vector<std::string> ins = {"\"" + constraint + "\"(" + addr + ")", "\"r\"(" + arg + ")"};
    std::string operands =
        " [%" + std::to_string(returns ? 1 : 0) + "], %" + std::to_string(returns ? 2 : 1);
    if (at.op == ptx::AtomOp::Cas) {
        ins.push_back("\"r\"(" + intValue(in.operand(first + 2)) + ")");
        operands += ", %3";
    }
    perThread();
    if (returns) {
        std::string raw = "v" + std::to_string(tmp_++);
        line("unsigned " + raw + ";");
        asmStmt(ptx + " %0," + operands + ";", {"\"=r\"(" + raw + ")"}, ins);
        define(in.operand(0), raw, RegKind::Int);
    } else {
        asmStmt(ptx + operands + ";", {}, ins);
    }
}

void ThreadEmitter::fence(const Insn& in) {
    std::string ptx;
    if (in.is<ptx::Membar>()) {
        ptx = ptx::printOpcode(in.op);
    } else if (auto* pf = in.as<ptx::ProxyFence>()) {
        // Plan refuses the other proxy fences; the .sync_restrict forms and the tensormap
        // fences are written as they are
        ptx = pf->syncRestrict != ptx::StateSpace::None || pf->kind == ptx::ProxyKind::Tensormap
                  ? opcode(*pf)
                  : opcode(ptx::ProxyFence{ptx::ProxyKind::Async, emittedSpace(pf->space)});
    } else {
        // A fence without .sem is the acquire-release one; .acquire/.release and
        // .sync_restrict are written as they are (sm_90)
        ptx::Fence f = *in.as<ptx::Fence>();
        if (!f.mbarrierInit && f.sem == ptx::Sem::None) f.sem = ptx::Sem::AcqRel;
        ptx = opcode(f);
    }
    if (plan_.single()) allLanes(); // every lane fences (the warp/warpgroup is the thread)
    if (const auto* pf = in.as<ptx::ProxyFence>();
        pf && pf->kind == ptx::ProxyKind::Tensormap && pf->sem != ptx::Sem::Release) {
        // the acquire names its map (a generic address) and the map's size
        Target t = target(in.operand(0));
        if (t.loc->space != Space::Global) refuse("a tensormap acquire fence on a shared map");
        return asmStmt(ptx + " [%0], 128;", {}, {"\"l\"(" + mapAddress(t) + ")"});
    }
    asmStmt(ptx + ";", {}, {});
}

/** red.async: .relaxed.cluster on another CTA's shared memory with its mbarrier (sm_90), or
 * .release.{gpu,sys}.global (sm_100). */
void ThreadEmitter::redAsync(const Insn& in, const ptx::RedAsync& r) {
    Target t = target(in.operand(0));
    if (t.loc->encoding != Encoding::Int)
        unfaithful("red.async on '" + t.loc->name +
                   "', whose device value is not the integer itself");
    std::string arg = intValue(in.operand(1));
    ptx::RedAsync e = r;
    if (r.sem == ptx::Sem::Release) {
        e.space = ptx::StateSpace::Global;
        perThread();
        asmStmt(opcode(e) + " [%0], %1;", {},
                {"\"l\"(" + globalAddr(t) + ")", "\"r\"(" + arg + ")"});
        return;
    }
    Target mb = target(in.operand(2));
    e.space = ptx::StateSpace::SharedCluster;
    e.mbarrierWritten = true;
    perThread();
    asmStmt(
        opcode(e) + " [%0], %1, [%2];", {},
        {"\"r\"(" + clusterAddr(t) + ")", "\"r\"(" + arg + ")", "\"r\"(" + clusterAddr(mb) + ")"});
}

/** st.async (sm_90): a 4-byte store into another CTA's shared memory that completes its bytes
 *  on an mbarrier there, as red.async's cluster form. */
void ThreadEmitter::stAsync(const Insn& in, const ptx::St& st) {
    if (st.vec != 1 || st.types.size() != 1 || st.types.front().bits != 32)
        refuse("st.async of other than one 32-bit value: the harness's cells are 4 bytes");
    Target t = target(in.operand(0));
    Target mb = target(in.operand(2));
    const std::string value = encodedValue(in.operand(1), *t.loc);
    perThread();
    asmStmt(opcode(in.op) + " [%0], %1, [%2];", {},
            {"\"r\"(" + clusterAddr(t) + ")", "\"r\"(" + value + ")",
             "\"r\"(" + clusterAddr(mb) + ")"});
}

void ThreadEmitter::barrier(const Insn& in) {
    if (const auto* b = in.as<ptx::Barrier>(); b->cluster) {
        // as written but not .aligned: a warp's lanes (instances) may reach it apart; the
        // cluster's other threads run as many pairs (Plan::clusterPhases)
        ptx::Barrier c = *b;
        c.aligned = false;
        if (plan_.tcMode) allLanes();
        return asmStmt(opcode(c) + ";", {}, {});
    }
    int id = plan_.barrierIds.at(static_cast<int>(in.operand(0).value));
    // bar.sync counts threads; a litmus thread is a warp per row of instances.
    unsigned warps = 0;
    if (in.operands.size() == 2)
        warps = static_cast<unsigned>(in.operand(1).value / 32);
    else
        warps = static_cast<unsigned>(cta_.threads.size());
    unsigned count = 32 * warps * plan_.rows;
    if (plan_.wgMode)
        refuse("bar.sync in a wgmma test: a litmus thread is a warpgroup, not mapped yet");
    if (plan_.tcMode) allLanes();
    ptx::Barrier sync;
    sync.barrierSpelling = true; // barrier.sync: unlike bar.sync, not .aligned
    asmStmt(opcode(sync) + " " + std::to_string(id) + ", " + std::to_string(count) + ";", {}, {});
}

void ThreadEmitter::arithmetic(const Insn& in) {
    std::string x = intValue(in.operand(1)), y = intValue(in.operand(2));
    ptx::ArithOp a = in.as<ptx::Arith>()->op;
    static const std::array<const char*, 6> ops = {" + ", " - ", " * ", " & ", " | ", " ^ "};
    const char* op = ops[static_cast<std::size_t>(a)];
    define(in.operand(0), x + op + y, RegKind::Int);
}

// ---------------------------------------------------------------------------------------------
// mbarrier
// ---------------------------------------------------------------------------------------------

void ThreadEmitter::mbarrierInitialise(const Insn& in, const ptx::MbarrierInit& init) {
    if (init.inval) refuse("mbarrier.inval has no CUDA mapping yet");
    Target t = target(in.operand(0));
    if (t.remote) refuse("mbarrier.init of another CTA's mbarrier (PTX: .shared::cta only)");
    perThread();
    asmStmt(opcode(mbarrierInit()) + " [%0], " + std::to_string(in.operand(1).value) + ";", {},
            {"\"r\"(" + sharedAddr(t) + ")"});
}

void ThreadEmitter::mbarrier(const Insn& in) {
    // The mbarrier multicast forms are "supported on ... sm_107f or higher in the same family"
    // (PTX ISA 9.4 {MbarrierArrive}); the harness compiles for sm_90a and sm_100a.
    if (const auto* a = in.as<ptx::MbarrierArrive>(); a && a->multicast)
        refuse("'" + in.opcode + "' (.multicast::cluster::32b) needs sm_107f; no CUDA mapping");
    if (const auto* t = in.as<ptx::MbarrierTx>(); t && t->multicast)
        refuse("'" + in.opcode + "' (.multicast::cluster::32b) needs sm_107f; no CUDA mapping");
    if (const auto* a = in.as<ptx::MbarrierArrive>();
        a && (a->drop || (!a->expectTx && !a->noComplete && in.operands.size() == 3)))
        refuse("'" + in.opcode + "' (arrive_drop, or an arrival count) has no CUDA mapping yet");
    auto* arrive = in.as<ptx::MbarrierArrive>();
    auto* tx = in.as<ptx::MbarrierTx>();
    const ptx::MbarrierOperand& mbq = arrive ? arrive->mb : tx->mb;
    const Operand& mbOp = in.operand(arrive ? 1 : 0);
    Target t = target(mbOp);
    bool cluster = t.remote || mbq.space == ptx::StateSpace::SharedCluster;
    std::string addr = cluster ? clusterAddr(t) : sharedAddr(t);
    ptx::MbarrierOperand mb{cluster ? ptx::StateSpace::SharedCluster : ptx::StateSpace::SharedCta,
                            true};
    if (tx) {
        // expect_tx/complete_tx are written .relaxed with a scope (.cta when none is given)
        ptx::Scope scope = tx->scope == ptx::Scope::None ? ptx::Scope::Cta : tx->scope;
        perThread();
        asmStmt(opcode(ptx::MbarrierTx{tx->complete, true, scope, mb}) + " [%0], " +
                    std::to_string(in.operand(1).value) + ";",
                {}, {"\"r\"(" + addr + ")"});
        return;
    }
    std::string ptx = opcode(ptx::MbarrierArrive{arrive->expectTx, arrive->sem, arrive->scope, mb,
                                                 false, arrive->noComplete});
    // .expect_tx's byte count, or .noComplete's arrival count: an immediate either way
    std::string txText =
        arrive->expectTx || arrive->noComplete ? ", " + std::to_string(in.operand(2).value) : "";
    const Operand& state = in.operand(0);
    perThread();
    if (cluster) {
        if (state.kind != Operand::Kind::Sink)
            refuse("an arrive on a .shared::cluster mbarrier returns no phase token (write _)");
        asmStmt(ptx + " _, [%0]" + txText + ";", {}, {"\"r\"(" + addr + ")"});
        return;
    }
    if (state.kind == Operand::Kind::Sink) {
        asmStmt(ptx + " _, [%0]" + txText + ";", {}, {"\"r\"(" + addr + ")"});
        return;
    }
    kinds_[state.name] = RegKind::Token;
    tokens_.insert(state.name);
    asmStmt(ptx + " %0, [%1]" + txText + ";",
            {"\"=l\"(" + regVar(state.name, RegKind::Token) + ")"}, {"\"r\"(" + addr + ")"});
}

void ThreadEmitter::mbarrierWait(const Insn& in) {
    const ptx::MbarrierWait& w = *in.as<ptx::MbarrierWait>();
    if (!in.operands.empty() && !in.operands[0].elements.empty())
        refuse("the report form of a wait (waitComplete|reportPredicate, 9.3) has no CUDA mapping "
               "yet");
    Target t = target(in.operand(1));
    if (t.remote || w.mb.space == ptx::StateSpace::SharedCluster)
        refuse("waits on another CTA's mbarrier: test_wait/try_wait take .shared::cta only");
    bool parity = w.parity;
    std::string ptx = opcode(
        ptx::MbarrierWait{w.tryWait, parity, w.sem, w.scope, {ptx::StateSpace::SharedCta, true}});
    const Operand& arg = in.operand(2);
    std::string argIn;
    if (parity) {
        argIn = "\"r\"(" + intValue(arg) + ")";
    } else {
        if (arg.kind != Operand::Kind::Name || kinds_[arg.name] != RegKind::Token)
            refuse("the token operand must come from an mbarrier.arrive of this thread");
        argIn = "\"l\"(" + regVar(arg.name, RegKind::Token) + ")";
    }
    std::string addr = sharedAddr(t);
    // In tcgen05 and wgmma tests every lane waits, as real producer/consumer warps do.
    if (plan_.single()) allLanes();
    std::string ok = "v" + std::to_string(tmp_++);
    // declared, then set: a goto over this wait (control flow) may not skip an initialisation
    line("unsigned " + ok + ";");
    line(ok + " = 0;");
    std::string stmt = "asm volatile(\"{ .reg .pred P; " + ptx +
                       " P, [%1], %2; selp.u32 %0, 1, 0, P; }\" : \"=r\"(" + ok + ") : \"r\"(" +
                       addr + "), " + argIn + " : \"memory\");";
    const Operand& dst = in.operand(0);
    if (dst.kind == Operand::Kind::Sink) {
        // The retry loop with its deadline is one asm statement, as CUTLASS's barrier wait: C++
        // wait loops between a warpgroup's wgmmas (with a vote in a loop's exit) made ptxas
        // serialize them (C7520), and a dropped wgmma.wait_group could then never show.
        line("asm volatile(\"{ .reg .pred P, T; .reg .u64 t; LAB_WAIT: " + ptx +
             " P, [%1], %2; @P bra DONE; mov.u64 t, %%globaltimer; setp.gt.u64 T, t, %3; @!T "
             "bra LAB_WAIT; DONE: selp.u32 %0, 1, 0, P; }\" : \"=r\"(" +
             ok + ") : \"r\"(" + addr + "), " + argIn + ", \"l\"(deadline) : \"memory\");");
        line("if (!" + ok + ") stuck = true;");
    } else {
        line(stmt);
        if (plan_.wgMode)
            unfaithful("a one-attempt wait in a wgmma test: its four warps could see different "
                       "answers");
        if (plan_.tcMode) line(ok + " = __shfl_sync(0xffffffffu, " + ok + ", 0);");
        define(dst, ok, RegKind::Int);
    }
}

// ---------------------------------------------------------------------------------------------
// Bulk copies
// ---------------------------------------------------------------------------------------------

void ThreadEmitter::bulkCommit() {
    perThread();
    asmStmt(opcode(ptx::BulkCommit{}) + ";", {}, {});
}

void ThreadEmitter::bulkWait(const Insn& in, const ptx::BulkWait& wait) {
    perThread();
    asmStmt(opcode(ptx::BulkWait{wait.read}) + " " + std::to_string(in.operand(0).value) + ";", {},
            {});
}

void ThreadEmitter::bulkTensorCopy(const Insn& in, const ptx::BulkCopy& copy) {
    // The copy is emitted as written, with its tensor's map from the harness's map array. The
    // runner builds each map over the whole global array as rows of mapWidth words, so the
    // coordinates name this instance's slot: the model moves the location's `bytes N` whatever
    // coordinates the test writes.
    const bool store = copy.dst == ptx::StateSpace::Global;
    const Operand& tensor = *tensorOperand(in);
    Target map = target(tensor);
    if (map.loc->space != Space::Global) refuse("a tensor copy's tensor is a global location");
    const std::string words =
        "((" + globalAddr(map) + " - reinterpret_cast<unsigned long long>(p.gmem)) / 4ull)";
    std::vector<std::string> ins;
    auto slot = [&ins](const std::string& constraint, const std::string& expr) {
        ins.push_back("\"" + constraint + "\"(" + expr + ")");
        return "%" + std::to_string(ins.size() - 1);
    };
    auto mapOperand = [&] {
        std::string text = "[";
        text += slot("l", "p.tensorMaps + " + std::to_string(128 * map.loc->index) + "ull");
        text += ", {";
        for (std::size_t k = 0; k < tensor.elements.size(); ++k) {
            if (k) text += ", ";
            std::string coordinate = "0u";
            if (map.loc->mapRank == 1)
                coordinate = "static_cast<unsigned>(" + words + ")";
            else if (k == 1)
                coordinate = "static_cast<unsigned>(" + words + " / " +
                             std::to_string(map.loc->mapWidth) + "ull)";
            text += slot("r", coordinate);
        }
        return text + "}]";
    };
    perThread();
    if (store) {
        Target src = target(in.operand(1));
        if (src.remote) refuse("the source of a tensor store is the issuing CTA's shared memory");
        usedBulkGroup_ = true;
        std::string text = opcode(in.op) + " ";
        text += mapOperand();
        text += ", [";
        text += slot("r", sharedAddr(src));
        text += "];";
        asmStmt(text, {}, ins);
        return;
    }
    Target dst = target(in.operand(0)), mb = target(in.operand(2));
    const bool ownCta = copy.dst == ptx::StateSpace::SharedCta && !dst.remote;
    // one statement per operand: the numbering follows the text
    std::string text = opcode(in.op) + " [";
    text += slot("r", copy.multicast || ownCta ? sharedAddr(dst) : clusterAddr(dst));
    text += "], ";
    text += mapOperand();
    text += ", [";
    text += slot("r", copy.multicast || !mb.remote ? sharedAddr(mb) : clusterAddr(mb));
    text += "]";
    if (copy.multicast)
        text += ", " + slot("h", "static_cast<unsigned short>(" +
                                     hex(static_cast<std::uint32_t>(in.operand(3).value)) + ")");
    asmStmt(text + ";", {}, ins);
}

// ---------------------------------------------------------------------------------------------
// Tensor maps in memory: the model's versions of a map do not change what a copy moves, so each
// is the runner's one map of the tensor (Plan::mapOf), and a replaced global_address is the
// tensor's array again
// ---------------------------------------------------------------------------------------------

std::string ThreadEmitter::mapAddress(const Target& t) {
    if (t.loc->mapOf < 0) refuse("'" + t.loc->name + "' holds no tensor map");
    if (t.loc->space == Space::Shared) return sharedAddr(t);
    const LocPlan& tensor = plan_.locs.at(static_cast<std::size_t>(t.loc->mapOf));
    return hoist("map_" + ident(t.loc->name), "unsigned long long",
                 "p.tensorMaps + " + std::to_string(128 * tensor.index) + "ull");
}

void ThreadEmitter::tensormapReplace(const Insn& in, const ptx::TensormapReplace& r) {
    Target t = target(in.operand(0));
    if (t.remote) refuse("a tensor map in another CTA's shared memory");
    const bool shared = t.loc->space == Space::Shared;
    if ((r.space == ptx::StateSpace::Global && shared) ||
        (r.space == ptx::StateSpace::SharedCta && !shared))
        refuse("tensormap.replace names the wrong state space for '" + t.loc->name + "'");
    std::string addr = mapAddress(t);
    if (shared && r.space == ptx::StateSpace::None)
        addr = hoist("gs_" + ident(t.loc->name), "unsigned long long",
                     "litmus::genericShared(" + addr + ")");
    perThread();
    asmStmt(
        opcode(r) + " [%0], %1;", {},
        {std::string(shared && r.space != ptx::StateSpace::None ? "\"r\"(" : "\"l\"(") + addr + ")",
         "\"l\"(reinterpret_cast<unsigned long long>(p.gmem))"});
}

void ThreadEmitter::tensormapCopy(const Insn& in) {
    Target dst = target(in.operand(0)), src = target(in.operand(1));
    if (dst.loc->space != Space::Global || src.loc->space != Space::Shared || src.remote)
        refuse("tensormap.cp_fenceproxy copies from this CTA's shared memory to global memory");
    if (!plan_.single() && plan_.lanes != 32)
        refuse("tensormap.cp_fenceproxy is .sync.aligned: every lane of the warp runs it, and "
               "this test runs fewer instances per warp");
    // .sync.aligned: the warp (every lane an instance, or the litmus thread) runs it converged
    if (plan_.single())
        collective();
    else
        line("__syncwarp();");
    asmStmt(opcode(in.op) + " [%0], [%1], 128;", {},
            {"\"l\"(" + mapAddress(dst) + ")", "\"r\"(" + mapAddress(src) + ")"});
}

void ThreadEmitter::refuseElementCopy(const Insn& in, std::int64_t size) const {
    for (std::size_t i : {std::size_t{0}, std::size_t{1}}) {
        auto array = plan_.arrays.find(in.operand(i).name);
        if (array != plan_.arrays.end() && array->second.stride < size)
            refuse("a " + std::to_string(size) + "-byte copy reaches each " +
                   std::to_string(array->second.stride) + "-byte element of '" +
                   in.operand(i).name +
                   "', and the harness gives each element a slot of its own: no CUDA mapping yet");
    }
}

void ThreadEmitter::bulkCopy(const Insn& in, const ptx::BulkCopy& copy) {
    if (copy.dims > 0) return bulkTensorCopy(in, copy);
    if (copy.ignoreOob) refuse("cp.async.bulk .ignore_oob has no CUDA mapping yet");
    if (copy.cpMask) refuse("cp.async.bulk .cp_mask has no CUDA mapping yet");
    if (copy.report != ptx::ReportMechanism::Disabled)
        refuse("cp.async.bulk .report_mechanism needs sm_107f, and the harness runs on sm_90");
    refuseElementCopy(in, in.operand(2).value);
    Target dst = target(in.operand(0)), src = target(in.operand(1));
    std::string size = std::to_string(in.operand(2).value);
    bool fromGlobal = copy.src == ptx::StateSpace::Global;
    if (copy.dst == ptx::StateSpace::Global) {
        if (fromGlobal) refuse("global-to-global bulk copies do not exist in PTX");
        if (src.remote)
            refuse("the source of a bulk store must be the issuing CTA's shared memory");
        usedBulkGroup_ = true;
        perThread();
        // cp.reduce.async.bulk prints as written: the same operands as the copy
        if (copy.noftz) refuse("'.add.noftz.f32' (PTX ISA 9.4): ptxas 13.0 rejects .noftz on .f32");
        ptx::BulkCopy store;
        store.dst = ptx::StateSpace::Global;
        store.src = ptx::StateSpace::SharedCta;
        std::string text = opcode(copy.reduce ? in.op : ptx::Op{store});
        asmStmt(text + " [%0], [%1], " + size + ";", {},
                {"\"l\"(" + globalAddr(dst) + ")", "\"r\"(" + sharedAddr(src) + ")"});
        return;
    }
    if (!copy.viaMbarrier)
        refuse(
            std::string("a bulk copy into shared memory tracked by a bulk group (.bulk_group) is "
                        "not emitted: ptxas rejects it for sm_90a") +
            (plan_.wgMode ? ", where wgmma lives" : ""));
    bool multicast = copy.multicast;
    Target mb = target(in.operand(3));
    bool ownCta = copy.dst == ptx::StateSpace::SharedCta; // else written .shared::cluster
    if (ownCta && dst.remote) refuse("a .shared::cta destination must be the issuing CTA's");
    if (mb.cta != dst.cta && !multicast)
        refuse("the mbarrier of a bulk copy must live in the destination's CTA");
    std::string dstAddr = multicast || ownCta ? sharedAddr(dst) : clusterAddr(dst);
    std::string mbAddr = multicast || ownCta ? sharedAddr(mb) : clusterAddr(mb);
    std::string srcIn;
    if (fromGlobal) {
        srcIn = "\"l\"(" + globalAddr(src) + ")";
    } else {
        if (src.remote || multicast)
            refuse("a shared-to-shared bulk copy reads the issuing CTA's shared memory");
        srcIn = "\"r\"(" + sharedAddr(src) + ")";
    }
    ptx::BulkCopy load;
    load.dst = ownCta ? ptx::StateSpace::SharedCta : ptx::StateSpace::SharedCluster;
    load.src = fromGlobal ? ptx::StateSpace::Global : ptx::StateSpace::SharedCta;
    load.viaMbarrier = true;
    load.multicast = multicast;
    std::string ptx = opcode(copy.reduce ? in.op : ptx::Op{load}) + " [%0], [%1], " + size +
                      ", [%2]" + (multicast ? ", %3;" : ";");
    std::vector<std::string> ins = {"\"r\"(" + dstAddr + ")", srcIn, "\"r\"(" + mbAddr + ")"};
    if (multicast)
        ins.push_back("\"h\"(static_cast<unsigned short>(" +
                      hex(static_cast<std::uint32_t>(in.operand(4).value)) + "))");
    perThread();
    asmStmt(ptx, {}, ins);
}

// ---------------------------------------------------------------------------------------------
// Non-bulk cp.async: written as the test writes it, with the thread's own slots
// ---------------------------------------------------------------------------------------------

void ThreadEmitter::cpAsync(const Insn& in) {
    Target dst = target(in.operand(0)), src = target(in.operand(1));
    if (dst.remote) refuse("cp.async writes the issuing CTA's shared memory");
    if (src.loc->space != Space::Global) refuse("cp.async reads global memory");
    if (const auto* c = in.as<ptx::CpAsync>(); c->srcSize || c->ignoreSrc)
        refuse("cp.async's src-size / ignore-src operand has no CUDA mapping yet");
    const std::int64_t size = in.operand(2).value; // 4, 8 or 16: lowering checked it
    refuseElementCopy(in, size);
    // .L2::cache_hint is a hint with no memory-model effect ({CpAsync}): written without it,
    // since its cache-policy operand is no register of the harness (ptxas: arguments mismatch)
    ptx::CpAsync emitted = *in.as<ptx::CpAsync>();
    emitted.cacheHint = false;
    usedCpAsync_ = true;
    perThread();
    asmStmt(opcode(emitted) + " [%0], [%1], " + std::to_string(size) + ";", {},
            {"\"r\"(" + sharedAddr(dst) + ")", "\"l\"(" + globalAddr(src) + ")"});
}

void ThreadEmitter::cpAsyncGroup(const Insn& in, const ptx::BulkWait* wait) {
    perThread();
    if (wait == nullptr || wait->all)
        asmStmt(opcode(in.op) + ";", {}, {});
    else
        asmStmt(opcode(in.op) + " " + std::to_string(in.operand(0).value) + ";", {}, {});
}

void ThreadEmitter::cpAsyncArrive(const Insn& in) {
    Target mb = target(in.operand(0));
    if (mb.remote) refuse("cp.async.mbarrier.arrive takes the issuing CTA's mbarrier");
    usedCpAsync_ = true;
    perThread();
    asmStmt(opcode(in.op) + " [%0];", {}, {"\"r\"(" + sharedAddr(mb) + ")"});
}

// ---------------------------------------------------------------------------------------------

void ThreadEmitter::epilogue() {
    line("// epilogue: complete what the thread left in flight, then record its registers");
    if (usedCpAsync_) { // the final state reads what every cp.async wrote
        perThread();
        asmStmt(opcode(ptx::BulkWait{false, true, true}) + ";", {}, {});
    }
    if (usedBulkGroup_) {
        perThread();
        asmStmt(opcode(ptx::BulkCommit{}) + ";", {}, {});
        asmStmt(opcode(ptx::BulkWait{}) + " 0;", {}, {});
    }
    if (plan_.tcMode) {
        if (plan_.asyncIssuers.count(static_cast<int>(threadIndex_))) {
            // commit tracks every earlier mma/cp/shift of this thread; wait until they are done
            auto k = std::find(cta_.threads.begin(), cta_.threads.end(),
                               static_cast<int>(threadIndex_)) -
                     cta_.threads.begin();
            std::string mb =
                hoist("h_mb", "unsigned",
                      "smem + " + std::to_string(plan_.harnessOffset + 16 + 8 * k) + "u");
            perThread();
            asmStmt(
                opcode(ptx::Tcgen05Commit{plan_.ctaGroup, ptx::StateSpace::SharedCluster, false}) +
                    " [%0];",
                {}, {"\"r\"(" + mb + ")"});
            allLanes();
            line("while (true) {");
            line("    unsigned done;");
            line("    asm volatile(\"{ .reg .pred P; " +
                 opcode(ptx::MbarrierWait{true,
                                          true,
                                          ptx::Sem::None,
                                          ptx::Scope::None,
                                          {ptx::StateSpace::SharedCta, true}}) +
                 " P, [%1], 0; selp.u32 %0, 1, 0, P; }\" : \"=r\"(done) : \"r\"(" + mb +
                 ") : \"memory\");");
            line("    if (done) break;");
            line("    if (litmus::globalTimer() > deadline) { stuck = true; break; }");
            line("}");
        }
        if (usedTmemLd_ || !pending_.empty()) {
            collective();
            asmStmt(opcode(ptx::Tcgen05Wait{true}) + ";", {}, {});
            resolvePending();
        }
        if (usedTmemSt_) {
            collective();
            asmStmt(opcode(ptx::Tcgen05Wait{false}) + ";", {}, {});
        }
    }
    if (usedWgmma_) {
        // every mma completes (and writes its accumulator) before registers are recorded
        wgSync(opcode(ptx::WgmmaCommit{}));
        wgSync(opcode(ptx::WgmmaWait{}) + " 0");
        line("litmus::keepBacklog(p, wgBacklog);");
    }
    for (std::size_t i = 0; i < observed_.size(); ++i) {
        const ObsRef& o = observed_[i];
        if (!o.isRegister || o.thread != static_cast<int>(threadIndex_)) continue;
        auto it = kinds_.find(o.reg);
        std::string value = regVar(o.reg, RegKind::Int);
        if (isAcc(o.reg)) {
            Operand reg;
            reg.name = o.reg;
            value = intValue(reg);
        }
        if (it != kinds_.end() && it->second == RegKind::Token)
            plan_.notFaithful(thread_.loc,
                              "P" + std::to_string(thread_.id) + ":" + o.reg +
                                  " is a phase token: its bits are opaque on hardware");
        if (it != kinds_.end() && it->second == RegKind::Address)
            value = decodeExpr(value, *addressSource_.at(o.reg));
        perThread();
        line("p.out[inst * kOut + " + std::to_string(i) + "u] = " + value + ";");
    }
    perThread();
    line("if (stuck) atomicOr(p.out + inst * kOut + kObserved, litmus::kFlagStuck);");
}

} // namespace ptxmc::validate
