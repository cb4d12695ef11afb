// Applying strengthenings to a test's source, and saying what they do.
#include "ptx/Decode.hpp"
#include "ptx/Print.hpp"
#include "ptx/Strengthen.hpp"
#include "support/SourceLoc.hpp"

#include <algorithm>
#include <map>

namespace ptxmc::ptx {

namespace {

using Kind = Strengthening::Kind;

/** The fence or wait a strengthening inserts. */
Op inserted(const Strengthening& s) {
    switch (s.kind) {
    case Kind::Wait:
        if (s.waitFor == 0) return BulkWait{false, true, true};
        if (s.waitFor >= 3) return BulkWait{s.waitFor == 3, false, false};
        return Tcgen05Wait{s.waitFor == 1};
    case Kind::After:
        return Tcgen05Fence{false};
    case Kind::Before:
        return Tcgen05Fence{true};
    case Kind::Proxy:
        return ProxyFence{ProxyKind::Async, StateSpace::None, Sem::None, Scope::None};
    default:
        return Fence{Sem::AcqRel, Scope::Gpu, false};
    }
}

/** `i` with .acquire or .release (a missing scope becomes .gpu; mbarrier ops keep theirs). */
Insn withSem(Insn i, Kind k) {
    const Sem sem = k == Kind::Acquire ? Sem::Acquire : Sem::Release;
    auto scoped = [](Scope& s, Scope dflt) {
        if (s == Scope::None) s = dflt;
    };
    if (auto* l = std::get_if<Ld>(&i.op)) l->sem = sem, scoped(l->scope, Scope::Gpu);
    if (auto* s = std::get_if<St>(&i.op)) s->sem = sem, scoped(s->scope, Scope::Gpu);
    if (auto* a = std::get_if<Atom>(&i.op)) a->sem = sem, scoped(a->scope, Scope::Gpu);
    if (auto* w = std::get_if<MbarrierWait>(&i.op)) w->sem = sem;
    if (auto* a = std::get_if<MbarrierArrive>(&i.op)) a->sem = sem;
    if (auto* b = std::get_if<Barrier>(&i.op)) b->sem = sem;
    return i;
}

/** `i` with scope `to`, or its own when that is wider (so the order of changes is moot). An
 *  mbarrier op without .release/.acquire written gets its default one spelled out. */
Insn withScope(Insn i, Scope to) {
    auto widen = [to](Scope& s) { s = std::max(s, to); };
    auto sem = [](Sem& s, Sem dflt) {
        if (s == Sem::None) s = dflt;
    };
    if (auto* l = std::get_if<Ld>(&i.op)) widen(l->scope);
    if (auto* s = std::get_if<St>(&i.op)) widen(s->scope);
    if (auto* a = std::get_if<Atom>(&i.op)) widen(a->scope);
    if (auto* f = std::get_if<Fence>(&i.op)) widen(f->scope);
    if (auto* w = std::get_if<MbarrierWait>(&i.op)) widen(w->scope), sem(w->sem, Sem::Acquire);
    if (auto* a = std::get_if<MbarrierArrive>(&i.op)) widen(a->scope), sem(a->sem, Sem::Release);
    return i;
}

litmus::Thread& threadOf(litmus::Test& test, int id) {
    auto t = std::find_if(test.threads.begin(), test.threads.end(),
                          [&](const litmus::Thread& th) { return th.id == id; });
    if (t == test.threads.end()) throw InputError(SourceLoc{test.file, 1, 1}, "no such thread");
    return *t;
}

const litmus::Instruction& instructionAt(const litmus::Test& test, int thread, int index) {
    const auto& code = threadOf(const_cast<litmus::Test&>(test), thread).code;
    if (index < 0 || index >= static_cast<int>(code.size()))
        throw InputError(SourceLoc{test.file, 1, 1}, "no instruction to strengthen there");
    return code[static_cast<std::size_t>(index)];
}

/** The instruction `s` inserts or rewrites to (decoding the one it rewrites or copies). */
litmus::Instruction changedInstruction(const litmus::Test& test, const Strengthening& s) {
    const litmus::Instruction& at = instructionAt(test, s.thread, s.index);
    litmus::Instruction out;
    switch (s.kind) {
    case Kind::Acquire:
    case Kind::Release:
        out = at;
        writeBack(withSem(decode(at), s.kind), out); // the decoder's error if malformed
        return out;
    case Kind::Widen:
        out = at;
        writeBack(withScope(decode(at), s.scope), out);
        return out;
    case Kind::MbarrierWait: {
        out = instructionAt(test, s.copyThread < 0 ? s.thread : s.copyThread, s.copyOf);
        out.guard.reset();
        out.operands.at(0).kind = litmus::Operand::Kind::Sink; // a blocking wait: no result
        out.operands.at(0).elements.clear();
        litmus::Operand& parity = out.operands.at(2); // then try_wait's time hint, if any
        if (s.parityRegister.empty()) {
            parity.kind = litmus::Operand::Kind::Integer;
            parity.value = s.parity;
        } else {
            parity.kind = litmus::Operand::Kind::Name;
            parity.name = s.parityRegister;
        }
        if (s.barrier) out.operands.at(1) = *s.barrier;
        out.loc = at.loc;
        for (auto& o : out.operands)
            o.loc = at.loc, o.indexLoc = at.loc;
        return out;
    }
    default: {
        out.loc = at.loc;
        std::vector<litmus::Operand> operands;
        if (s.kind == Kind::Wait && s.waitFor >= 3) // wait_group{.read} 0: none pending
        {
            litmus::Operand zero;
            zero.kind = litmus::Operand::Kind::Integer;
            zero.loc = at.loc;
            operands.push_back(zero);
        }
        writeBack(Insn{inserted(s), operands, out.loc, ""}, out);
        return out;
    }
    }
}

std::string linesText(const std::vector<int>& lines) {
    std::string out = lines.size() == 1 ? "line " : "lines ";
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += (i ? ", " : "") + std::to_string(lines[i]);
    return out;
}

/** The action `s` takes, without where: "fence.proxy.async before", "made .acquire". */
std::string actionOf(const litmus::Test& test, const Strengthening& s) {
    switch (s.kind) {
    case Kind::Acquire:
        return "made .acquire";
    case Kind::Release:
        return "made .release";
    case Kind::Widen:
        return std::string("made .") + (s.scope == Scope::Cluster ? "cluster"
                                        : s.scope == Scope::Gpu   ? "gpu"
                                                                  : "sys");
    default:
        return changedText(test, s) + " before";
    }
}

} // namespace

bool Strengthening::inserts() const {
    return kind != Kind::Acquire && kind != Kind::Release && kind != Kind::Widen;
}

litmus::Test applyStrengthenings(const litmus::Test& test, std::vector<Strengthening> changes) {
    // Later places first, and at one place the rewrite before the insertions, so that every
    // index still names the instruction it named in `test`.
    std::stable_sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) {
        if (a.thread != b.thread) return a.thread < b.thread;
        if (a.index != b.index) return a.index > b.index;
        return !a.inserts() && b.inserts();
    });
    litmus::Test out = test;
    for (const Strengthening& s : changes) {
        // an insertion is made from the test as given (a copied wait's index is the test's);
        // a rewrite from `out`, where its index is still its own (later places go first)
        litmus::Instruction changed = changedInstruction(s.inserts() ? test : out, s);
        auto& code = threadOf(out, s.thread).code;
        auto at = code.begin() + static_cast<std::ptrdiff_t>(s.index);
        if (s.inserts())
            code.insert(at, changed);
        else
            *at = changed;
    }
    return out;
}

std::string instructionText(const litmus::Instruction& i) {
    std::string text =
        i.guard ? std::string("@") + (i.guard->negated ? "!" : "") + i.guard->reg + " " : "";
    text += i.opcode;
    for (std::size_t k = 0; k < i.operands.size(); ++k)
        text += (k ? ", " : " ") + printOperand(i.operands[k]);
    return text;
}

std::string changedText(const litmus::Test& test, const Strengthening& s) {
    return instructionText(changedInstruction(test, s));
}

std::string waitIdentity(const litmus::Test& test, const Strengthening& s) {
    const litmus::Instruction wait = changedInstruction(test, s);
    return printOperand(wait.operands.at(1)) + " " + printOperand(wait.operands.at(2));
}

std::string patternOf(const litmus::Test& test, const Strengthening& s) {
    const litmus::Instruction& at = instructionAt(test, s.thread, s.index);
    std::string target = at.opcode;
    for (const auto& o : at.operands)
        target += " " + printOperand(o);
    return actionOf(test, s) + "|" + target;
}

std::string describe(const litmus::Test& test, const std::vector<Strengthening>& changes) {
    // action -> opcode -> thread -> lines, in the order first met
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::pair<int, std::vector<int>>>> where;
    std::map<std::string, std::pair<std::string, std::string>> words; // key -> action, opcode
    for (const Strengthening& s : changes) {
        const litmus::Instruction& at = instructionAt(test, s.thread, s.index);
        const std::string action = actionOf(test, s);
        const std::string key = action + "|" + at.opcode;
        if (!where.count(key)) order.push_back(key), words[key] = {action, at.opcode};
        auto& threads = where[key];
        if (threads.empty() || threads.back().first != s.thread) threads.push_back({s.thread, {}});
        threads.back().second.push_back(at.loc.line);
    }
    std::string out;
    for (const std::string& key : order) {
        const auto& [action, opcode] = words[key];
        const bool before = !action.starts_with("made ");
        std::string places;
        const auto& threads = where[key];
        for (std::size_t t = 0; t < threads.size(); ++t) {
            places += (t == 0                    ? ""
                       : t + 1 == threads.size() ? " and "
                                                 : ", ") +
                      std::string("P") + std::to_string(threads[t].first) + "'s " +
                      (t == 0 ? opcode + " " : "") + "(" + linesText(threads[t].second) + ")";
        }
        out += (out.empty() ? "" : "; ") + (before ? action + " " + places : places + " " + action);
    }
    return out;
}

} // namespace ptxmc::ptx
