// Partial evaluation of an entry over one cluster: each thread runs on known values (launch
// shape, parameters, addresses); memory and synchronization instructions are recorded.
#include "kernel/Machine.hpp"

#include "kernel/AddressWindows.hpp"
#include "kernel/Arith.hpp"
#include "kernel/Clc.hpp"
#include "kernel/Extract.hpp"
#include "kernel/LaunchShape.hpp"
#include "kernel/PostDominators.hpp"
#include "kernel/WarpCollectives.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <tuple>
#include <unordered_map>

namespace ptxmc::kernel {

std::string ParamRead::field() const {
    return offset == 0 ? std::to_string(index) : fmt::format("{}+{}", index, offset);
}

std::string missingField(const Extraction& x, const Val& v) {
    if (v.known || v.field == 0 || v.field > x.paramReads.size()) return "";
    const ParamRead& r = x.paramReads[v.field - 1];
    return fmt::format(
        "parameter field {} ({}{}, {} bytes read at {}{}), which --param does "
        "not give: add --param {}=VALUE",
        r.field(), shortName(r.param), r.offset ? "+" + std::to_string(r.offset) : std::string(),
        r.bytes, r.loc.str(),
        r.cuda ? fmt::format(" ({}:{})", r.cuda->userLine().file, r.cuda->userLine().line)
               : std::string(),
        r.field());
}

void failOnValue(const SourceLoc& loc, const std::string& what, const Extraction& x, const Val& v,
                 const std::string& otherwise, const std::string& after) {
    std::string field = missingField(x, v);
    if (field.empty()) throw InputError(loc, what + otherwise + after);
    throw FieldError(loc, what + field + after, x.paramReads[v.field - 1].field());
}

Note noteOf(const InputError& e) {
    const auto* asks = dynamic_cast<const FieldError*>(&e);
    return Note{e.loc(), e.message(), asks ? asks->field() : std::string()};
}

const Function& pickEntry(const Module& m, const std::string& name) {
    std::vector<const Function*> entries;
    for (const Function& f : m.functions)
        if (f.isEntry) entries.push_back(&f);
    if (!name.empty()) {
        for (const Function* f : entries)
            if (f->name == name || f->name.find(name) != std::string::npos) return *f;
        throw InputError(SourceLoc{m.file, 0, 0}, "no entry named '" + name + "' in the module");
    }
    if (entries.size() == 1) return *entries[0];
    std::string names;
    for (const Function* f : entries)
        names += (names.empty() ? "" : ", ") + f->name;
    throw InputError(SourceLoc{m.file, 0, 0},
                     entries.empty() ? std::string("the module has no .entry")
                                     : "the module has " + std::to_string(entries.size()) +
                                           " entries (" + names + "): choose one with --entry");
}

namespace {

using ptx::ModuleOp;
using ptx::ModuleRole;

struct Lane {
    int cta = 0, tid = 0, lane = 0, warp = 0;
    std::unordered_map<std::string, Val> regs;
    std::size_t pc = 0;
    bool done = false;
    std::unordered_map<std::size_t, std::uint64_t> counts;
    std::map<std::uint64_t, std::size_t> clcReads; ///< response slot -> loads of it so far
    /// registers of a wgmma fragment (accumulator, A) -> the fragment's first register
    std::unordered_map<std::string, std::string> wgmmaRegs;
    std::uint64_t wgmmaWindow = 0;                 ///< wgmma instructions executed so far
    std::uint64_t readIn = ~0ULL, wroteIn = ~0ULL; ///< the window of the last recorded access
    std::uint64_t executed = 0;
    std::vector<Step> steps;
    std::map<std::uint64_t, Val> local; ///< what the lane stored to its .local memory, by byte
    /// registers to mark as depending on a probe when the lane reaches a statement: those whose
    /// value differs between the probe's two sides where they meet again
    struct Taint {
        std::size_t pc = 0;
        std::vector<std::string> regs;
        std::vector<std::uint64_t> local; ///< and .local bytes
        std::uint32_t probe = 0;
    };
    std::vector<Taint> taintAt;
    /// a branch on data whose sides differ splits the lane in two, one per way (runWarp): the
    /// way this copy took, the statement where both ways meet again (the branch's immediate
    /// post-dominator; the body's size: the end) and how many steps the lane had then
    struct Fork {
        DataChoice way;
        std::size_t join = 0;
        std::size_t prefix = 0;
    };
    std::vector<Fork> forks;         ///< outermost first
    std::optional<Fork> pendingFork; ///< set by the branch; runWarp splits the lane
    bool atJoin = false;             ///< stands at forks.back().join, waiting for its twin
};

/** An mbarrier try_wait/test_wait whose failure the thread does not answer by waiting again. */
struct Probe {
    SourceLoc loc;
    std::string opcode;
    std::uint64_t barrier = 0, phase = 0;
};

/** Where a speculative run of one side of a branch stopped. */
enum class SideEnd { Joined, Effect, Collective, Done, Trap, Budget };

enum class Outcome { Continue, Collective, Done, SawEvent, Trapped, Fork, AtJoin };

/** Values stored to shared memory by some thread, for loads of another (two passes). */
struct Stored {
    /// by shared address (the rank is in it); nullopt: several values, or unknown ones
    std::map<std::uint64_t, std::optional<std::uint64_t>> values;
    void put(std::uint64_t addr, std::optional<std::uint64_t> v) {
        auto it = values.find(addr);
        if (it == values.end())
            values.emplace(addr, v);
        else if (it->second != v)
            it->second = std::nullopt;
    }
};

/** try_cancel responses written to each shared address, in issue order (two passes). */
using ClcSlots = std::map<std::uint64_t, std::vector<std::uint64_t>>;

class Evaluator {
public:
    Evaluator(const Module& m, const Function& f, const Launch& launch, Extraction& out)
        : m_(m), f_(f), launch_(launch), out_(out) {}

    void run() {
        layout();
        shape();
        // Values passed through shared memory (the tensor-memory address an alloc stores, a
        // broadcast tile index, a try_cancel response) are known on a later pass: a thread that
        // branches on one before the thread that stores it has run ends there, and the
        // evaluation runs again; only the last pass reports such a branch as an error.
        for (pass_ = 0; pass_ < kPasses; ++pass_) {
            Stored before = stored_;
            ClcSlots clcBefore = clcStored_;
            seen_ = Stored{};
            clcSeen_.clear();
            clcRequests_ = 0;
            probes_.clear();
            ways_.clear();
            deferred_ = false;
            allocations_.clear();
            columnsTaken_.clear();
            out_.warps.clear();
            out_.instructions = 0;
            notesThisPass_.clear();
            stops_.clear();
            if (launch_.listParams) {
                try {
                    runCluster();
                } catch (const InputError& e) { // not one thread's: the listing ends here
                    stops_.emplace(e.what(), noteOf(e));
                    break;
                }
            } else {
                runCluster();
            }
            stored_ = seen_;
            clcStored_ = clcSeen_;
            if (!deferred_ && stored_.values == before.values && clcStored_ == clcBefore) break;
        }
        for (auto& n : notesThisPass_)
            out_.notes.push_back(n.second);
        for (auto& n : stops_)
            out_.stops.push_back(n.second);
        unreadFields();
        std::string missing;
        std::size_t count = 0;
        std::set<std::string> fields;
        for (const ParamRead& r : out_.paramReads)
            if (!r.value && fields.insert(r.field()).second && ++count <= 8)
                missing += (missing.empty() ? "" : ", ") + r.field();
        if (count > 0)
            out_.notes.push_back(
                Note{SourceLoc{},
                     fmt::format("{} parameter field(s) not given with --param: {}{} (what depends "
                                 "on them is data; --list-params lists them)",
                                 count, missing, count > 8 ? ", ..." : "")});
    }

private:
    // ---- setup ----
    void layout() {
        std::uint64_t at = 0x400; // the first bytes are reserved on the hardware too
        auto place = [&](const Variable& v) {
            if (v.space != VarSpace::Shared) return;
            std::uint64_t align = std::max<std::uint64_t>(v.align, 1);
            at = (at + align - 1) / align * align;
            std::uint64_t bytes = v.bytes;
            if (v.isExtern || bytes == 0) {
                dynamic_.push_back(&v);
                return;
            }
            out_.layout.shared[v.name] = Layout::Symbol{&v, at, bytes};
            at += bytes;
        };
        for (const Variable& v : m_.globals)
            place(v);
        for (const Variable& v : f_.locals)
            place(v);
        std::uint64_t local = 0;
        for (const Variable& v : f_.locals) {
            if (v.space != VarSpace::Local) continue;
            std::uint64_t a = std::max<std::uint64_t>(v.align, 1);
            local = (local + a - 1) / a * a;
            out_.layout.local[v.name] = Layout::Symbol{&v, local, v.bytes};
            local += v.bytes;
        }
        // Dynamic shared memory follows the static variables; every .extern array starts there.
        std::uint64_t align = 16;
        for (const Variable* v : dynamic_)
            align = std::max(align, v->align);
        at = (at + align - 1) / align * align;
        for (const Variable* v : dynamic_)
            out_.layout.shared[v->name] = Layout::Symbol{v, at, launch_.dynamicShared};
        std::uint64_t p = 0;
        for (const Variable& v : f_.params) {
            std::uint64_t a = std::max<std::uint64_t>(v.align, 1);
            p = (p + a - 1) / a * a;
            out_.layout.params[v.name] = Layout::Symbol{&v, p, v.bytes};
            out_.layout.paramOrder.push_back(&v);
            p += v.bytes;
        }
        for (const auto& [key, value] : launch_.params)
            giveField(key, value, false);
        // a field --param gives too keeps --param's value: the command line edits the file
        for (const auto& [key, value] : launch_.fileParams)
            giveField(key, value, true);
        for (const auto& [name, bytes] : launch_.paramBytes)
            giveBytes(name, bytes);
    }

    /** Whether `given` names parameter `i`: its PTX name, its index or a `_SUFFIX` of it. */
    bool names(std::size_t i, const std::string& given) const {
        const std::string& n = f_.params[i].name;
        return n == given || std::to_string(i) == given ||
               (n.size() > given.size() &&
                n.compare(n.size() - given.size(), given.size(), given) == 0 &&
                n[n.size() - given.size() - 1] == '_');
    }

    /** --param-bytes NAME=FILE: the parameter's bytes, all of them. */
    void giveBytes(const std::string& given, const std::vector<std::uint8_t>& bytes) {
        SourceLoc at{"--param-bytes", 1, 1};
        bool found = false;
        for (std::size_t i = 0; i < f_.params.size(); ++i) {
            if (!names(i, given)) continue;
            found = true;
            if (bytes.size() != f_.params[i].bytes)
                throw InputError(at, fmt::format("--param-bytes {} gives {} bytes; parameter {} "
                                                 "({}) has {}: dump the parameter the entry "
                                                 "takes, whole",
                                                 given, bytes.size(), i,
                                                 shortName(f_.params[i].name), f_.params[i].bytes));
            dumps_[i] = bytes;
        }
        if (!found)
            throw InputError(at, "the entry has no parameter '" + given +
                                     "' (its parameters: " + paramNames() + ")");
    }

    /** Where `key` was given: its --params line, else the command line. */
    SourceLoc givenAt(const std::pair<std::string, std::uint64_t>& key, bool fromFile) const {
        auto it = launch_.paramWhere.find(key);
        return fromFile && it != launch_.paramWhere.end() ? it->second : SourceLoc{"--param", 1, 1};
    }

    /** Records --param NAME+OFFSET=VALUE (or a --params line) for each parameter NAME names. */
    void giveField(const std::pair<std::string, std::uint64_t>& key, std::uint64_t value,
                   bool fromFile) {
        const auto& [given, offset] = key;
        bool found = false;
        for (std::size_t i = 0; i < f_.params.size(); ++i) {
            const std::string& n = f_.params[i].name;
            if (names(i, given)) {
                if (offset >= std::max<std::uint64_t>(f_.params[i].bytes, 1))
                    throw InputError(givenAt(key, fromFile),
                                     fmt::format("parameter {} ({}) has {} bytes: offset {} "
                                                 "is outside it",
                                                 i, shortName(n), f_.params[i].bytes, offset));
                found = true;
                auto field = std::make_pair(i, offset);
                if (fromFile && givenFrom_.count(field) && !givenFrom_.at(field).second) continue;
                auto [old, fresh] = given_.emplace(field, value);
                if (!fresh && old->second != value)
                    throw InputError(
                        givenAt(key, fromFile),
                        fmt::format("{} gives field {} twice, {} and {}",
                                    fromFile ? "--params" : "--param",
                                    offset ? fmt::format("{}+{}", i, offset) : std::to_string(i),
                                    old->second, value));
                givenFrom_.emplace(field, std::make_pair(key, fromFile));
            }
        }
        if (!found)
            throw InputError(givenAt(key, fromFile), "the entry has no parameter '" + given +
                                                         "' (its parameters: " + paramNames() +
                                                         ")");
    }

    /** A warning for each field given that no load of this launch read. */
    void unreadFields() {
        std::set<std::pair<std::size_t, std::uint64_t>> read;
        for (const ParamRead& r : out_.paramReads)
            read.emplace(r.index, r.offset);
        for (const auto& [field, from] : givenFrom_) {
            if (read.count(field)) continue;
            const auto& [key, fromFile] = from;
            std::string name = key.second ? fmt::format("{}+{}", key.first, key.second) : key.first;
            out_.unread.push_back(Note{
                fromFile ? givenAt(key, true) : SourceLoc{},
                fmt::format("{}{}={}: the kernel never reads parameter field {} in this launch",
                            fromFile ? "field " : "--param ", name, given_.at(field),
                            field.second ? fmt::format("{}+{}", field.first, field.second)
                                         : std::to_string(field.first))});
        }
    }
    std::string paramNames() const {
        std::string s;
        for (std::size_t i = 0; i < f_.params.size(); ++i)
            s += (i ? ", " : "") + std::to_string(i) + " = " + f_.params[i].name;
        return s.empty() ? "none" : s;
    }

    void shape() {
        shape_ = launchShape(f_, launch_);
        out_.block = shape_.block;
        out_.cluster = shape_.cluster;
        out_.grid = shape_.grid;
    }

    // ---- the cluster ----
    void runCluster() {
        int ctas = shape_.ctas();
        int threads = shape_.threads();
        for (int cta = 0; cta < ctas; ++cta)
            for (int w = 0; w * 32 < threads; ++w)
                runWarp(cta, w, std::min(32, threads - w * 32));
    }

    void runWarp(int cta, int warp, int count) {
        std::vector<Lane> lanes(static_cast<std::size_t>(count));
        for (int l = 0; l < count; ++l) {
            Lane& L = lanes[static_cast<std::size_t>(l)];
            L.cta = cta;
            L.warp = warp;
            L.lane = l;
            L.tid = warp * 32 + l;
        }
        while (true) {
            // lanes at one warp-collective instruction, in one way of every branch on data
            std::map<std::pair<std::size_t, std::string>, std::vector<std::size_t>> waiting;
            for (std::size_t i = 0; i < lanes.size(); ++i)
                while (!lanes[i].done && !lanes[i].atJoin) {
                    Outcome o = runUntilBlocked(lanes[i]);
                    if (o == Outcome::Fork) {
                        Lane other = splitLane(lanes[i]);
                        lanes.push_back(std::move(other));
                        continue;
                    }
                    if (o == Outcome::Collective)
                        waiting[{lanes[i].pc, waysKey(lanes[i])}].push_back(i);
                    break;
                }
            if (mergeJoined(lanes)) continue;
            if (waiting.empty()) break;
            for (auto& [at, indices] : waiting) {
                std::vector<Lane*> group;
                for (std::size_t i : indices)
                    group.push_back(&lanes[i]);
                collective(group);
            }
        }
        for (const Lane& L : lanes)
            if (!L.forks.empty()) {
                const Statement& b = f_.body[L.forks.back().way.stmt];
                fail(b.loc, fmt::format("the two ways of this branch on data do not meet again "
                                        "(thread {} of CTA {}): one waits for the other's lanes",
                                        L.tid, L.cta));
            }
        WarpTrace t;
        t.cta = cta;
        t.warp = warp;
        for (Lane& L : lanes) {
            out_.instructions += L.executed;
            t.lanes.push_back(std::move(L.steps));
        }
        out_.warps.push_back(std::move(t));
    }

    Outcome runUntilBlocked(Lane& L) {
        while (true) {
            Outcome o;
            if (!launch_.listParams) {
                o = step(L, false);
            } else {
                try {
                    o = step(L, false);
                } catch (const InputError& e) { // the thread stops; the others go on
                    stops_.emplace(e.what(), noteOf(e));
                    L.done = true;
                    return Outcome::Done;
                }
            }
            if (o != Outcome::Continue) return o;
        }
    }

    // ---- one statement ----
    bool lastPass() const { return pass_ == kPasses - 1; }

    [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const {
        throw InputError(loc, msg);
    }

    Outcome step(Lane& L, bool speculative) {
        if (!speculative && !L.forks.empty() && L.pc == L.forks.back().join) {
            L.atJoin = true;
            return Outcome::AtJoin;
        }
        if (L.pc >= f_.body.size()) {
            L.done = true;
            return Outcome::Done;
        }
        if (++L.executed > launch_.maxSteps)
            fail(f_.body[L.pc].loc,
                 fmt::format("thread {} of CTA {} ran {} instructions without ending: a loop "
                             "whose bound is a kernel parameter needs --param NAME=VALUE (its "
                             "parameters: {})",
                             L.tid, L.cta, launch_.maxSteps, paramNames()));
        const Statement& s = f_.body[L.pc];
        if (s.kind == Statement::Kind::Label) {
            ++L.pc;
            return Outcome::Continue;
        }
        const litmus::Instruction& in = s.insn;
        ModuleRole k = s.role;
        if (!L.taintAt.empty()) applyTaints(L);
        std::uint32_t guardProbe = 0;
        if (in.guard) {
            Val g = read(L, in.guard->reg);
            // data: a value read from memory, or from shared memory no thread stores to
            // (a speculative run treats a value stored later as data: the real run defers)
            bool data =
                g.field == 0 || (g.field == kStoredLater && (speculative || pass_ + 1 >= kPasses));
            if (!g.known && g.way) {
                if (auto decided = wayDecides(L, g, in)) {
                    if (k == ModuleRole::Branch) {
                        L.pc = *decided ? target(s) : L.pc + 1;
                        return Outcome::Continue;
                    }
                    g = Val::of(*decided != in.guard->negated ? 1 : 0); // `read` applied no `!`
                } else {
                    if (speculative) return Outcome::Fork;
                    return forkOnWay(L, s, g);
                }
            }
            if (!g.known && k == ModuleRole::Branch && data) return joinSides(L, s, speculative);
            if (g.probe && k == ModuleRole::Branch) return probeBranch(L, s, g);
            if (g.probe && k != ModuleRole::Arith && k != ModuleRole::Data && k != ModuleRole::Setp)
                fail(in.guard->loc, "whether this " + in.opcode +
                                        " runs depends on the result of " + probeText(g.probe) +
                                        ": " + kProbeRule);
            guardProbe = g.probe;
            if (!g.known) {
                if (k == ModuleRole::Arith || k == ModuleRole::Data || k == ModuleRole::Setp) {
                    unknownDests(L, in, g.field);
                    ++L.pc;
                    return Outcome::Continue;
                }
                if (g.field == kStoredLater && !speculative && pass_ + 1 < kPasses) {
                    deferred_ = true; // a value another thread stores: known on the next pass
                    L.done = true;
                    return Outcome::Done;
                }
                if (data) { // data the launch does not decide: both ways
                    if (speculative) return Outcome::Fork;
                    noteOnce(in.loc,
                             fmt::format("the {} at line {} runs only where a value read from {} "
                                         "(its guard @{}) says so: the check explores both ways "
                                         "(a nondet.pred choice), each warp going one way with "
                                         "all its lanes",
                                         in.opcode, in.loc.line, unknownOrigin(), in.guard->reg));
                    return forkOnData(L, s);
                }
                if (!missingField(out_, g).empty()) out_.paramReads[g.field - 1].decides = true;
                failOnValue(
                    in.guard->loc, "whether this " + in.opcode + " runs depends on ", out_, g,
                    "a value read from " + unknownOrigin() + " (its guard @" + in.guard->reg +
                        "): ptxmc follows control flow decided by the launch, "
                        "the parameters and mbarrier waits only");
            }
            if ((g.v != 0) == in.guard->negated) {
                if (guardProbe) taintDests(L, in, guardProbe);
                ++L.pc;
                return Outcome::Continue;
            }
        }
        if (!speculative && !L.wgmmaRegs.empty() && !ptx::isWgmmaOp(s.op))
            wgmmaRegisterAccess(L, s, k);
        switch (k) {
        case ModuleRole::Collective:
            return Outcome::Collective;
        case ModuleRole::Branch:
            L.pc = target(s);
            return Outcome::Continue;
        case ModuleRole::Exit:
            L.done = true;
            return Outcome::Done;
        case ModuleRole::Trap:
            if (speculative) return Outcome::Trapped;
            fail(in.loc, fmt::format("thread {} of CTA {} reaches '{}'{} under this launch", L.tid,
                                     L.cta, in.opcode,
                                     s.op == ModuleOp::Call ? " (a failing device assert)" : ""));
        case ModuleRole::Arith:
            arith(L, s);
            break;
        case ModuleRole::Setp:
            setp(L, s);
            break;
        case ModuleRole::ParamLoad:
            if (in.operands.size() < 2) fail(in.loc, "ld.param needs a destination and an address");
            paramLoad(L, in, value(L, in.operands[1]));
            break;
        case ModuleRole::ClcQuery:
            clcQuery(L, in);
            break;
        case ModuleRole::Ignore:
            unknownDests(L, in);
            break;
        case ModuleRole::Data: // what it computes from a field not given still names the field
            unknownDests(L, in, fieldOf(L, in));
            break;
        case ModuleRole::Unsupported:
            if (s.op == ModuleOp::Call)
                fail(in.loc, "a call to '" +
                                 (in.operands.empty() ? std::string("?") : in.operands[0].name) +
                                 "' is not supported: ptxmc kernel checks entries without calls "
                                 "(inline the callee, e.g. with __forceinline__)");
            fail(in.loc, "'" + in.opcode +
                             "' is not supported by ptxmc kernel: a memory or control "
                             "instruction the model lacks, whose effect could change the "
                             "answer, so the check stops here");
        case ModuleRole::Load:
            if (localAccess(L, in, false)) break;
            // a generic load of a parameter's bytes (cvta.param of a __grid_constant__ struct)
            if (in.operands.size() >= 2) {
                Val a = value(L, in.operands[1]);
                if (a.known && a.v >= Layout::kGenericParam) {
                    paramLoad(L, in, a);
                    break;
                }
            }
            [[fallthrough]];
        case ModuleRole::Store:
            if (k == ModuleRole::Store && localAccess(L, in, true)) break;
            [[fallthrough]];
        case ModuleRole::Atomic:
        case ModuleRole::Event:
        case ModuleRole::Wait:
            if (speculative) return Outcome::SawEvent;
            record(L, s, k);
            break;
        }
        if (guardProbe) taintDests(L, in, guardProbe);
        ++L.pc;
        return Outcome::Continue;
    }

    // ---- branches the launch does not decide ----
    static constexpr int kSideSteps = 100000;
    static constexpr const char* kProbeRule =
        "ptxmc follows a probe's failure side, and lets its result decide only branches whose "
        "two sides run the same instructions but for a wait on the probe's barrier and phase "
        "(docs/kernel.md, \"Probes\")";

    std::string probeText(std::uint32_t probe) const {
        const Probe& p = probes_.at(probe - 1);
        return fmt::format("the mbarrier probe at line {} ('{}')", p.loc.line, p.opcode);
    }

    /** Marks the registers `in` writes as depending on `probe` (a guard on it decided them). */
    void taintDests(Lane& L, const litmus::Instruction& in, std::uint32_t probe) {
        if (in.operands.empty()) return;
        auto mark = [&](const std::string& name) {
            if (name.empty() || name == "_" || name[0] == '!') return;
            L.regs[name].probe = probe;
        };
        const litmus::Operand& d = in.operands[0];
        if (d.kind == litmus::Operand::Kind::Name) mark(d.name);
        for (const auto& e : d.elements)
            if (e.kind == litmus::Operand::Kind::Name) mark(e.name);
    }

    void applyTaints(Lane& L) {
        for (std::size_t i = 0; i < L.taintAt.size();) {
            if (L.taintAt[i].pc != L.pc) {
                ++i;
                continue;
            }
            for (const std::string& r : L.taintAt[i].regs)
                L.regs[r].probe = L.taintAt[i].probe;
            for (std::uint64_t a : L.taintAt[i].local)
                L.local[a].probe = L.taintAt[i].probe;
            L.taintAt.erase(L.taintAt.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }

    /** Whether `c` stands at a wait on the probe's barrier with its phase. */
    bool waitsOn(const Lane& c, const Probe& p) const {
        const litmus::Instruction& in = f_.body[c.pc].insn;
        if (f_.body[c.pc].kind != Statement::Kind::Instruction ||
            f_.body[c.pc].role != ModuleRole::Wait || in.operands.size() < 3)
            return false;
        Val a = address(c, in.operands[1]), ph = value(c, in.operands[2]);
        return a.known && ph.known && a.v == p.barrier && ph.v == p.phase;
    }

    /**
     * Runs a speculative copy of a lane until `joins(pc)`, an instruction with an effect (a
     * memory or synchronization instruction, a warp-collective one, the end) or the step
     * budget. `path`, if given, collects the statements it stood at (the last included); a
     * wait on `allowed`'s barrier and phase counts as returning True, not as an effect.
     */
    template <class Joins>
    SideEnd runSide(Lane& c, Joins&& joins, std::vector<std::size_t>* path, const Probe* allowed) {
        for (int n = 0; n < kSideSteps; ++n) {
            if (joins(c.pc)) return SideEnd::Joined;
            if (path) path->push_back(c.pc);
            if (allowed && c.pc < f_.body.size() && waitsOn(c, *allowed)) {
                const litmus::Operand& d = f_.body[c.pc].insn.operands[0];
                if (d.kind == litmus::Operand::Kind::Name && d.name != "_")
                    c.regs[d.name] = Val::of(1);
                ++c.pc;
                continue;
            }
            switch (step(c, true)) {
            case Outcome::Continue:
                continue;
            case Outcome::Collective:
                return SideEnd::Collective;
            case Outcome::Done:
                return SideEnd::Done;
            case Outcome::SawEvent:
                return SideEnd::Effect;
            case Outcome::Trapped:
                return SideEnd::Trap;
            case Outcome::Fork: // a branch on data whose sides differ: an effect ahead
            case Outcome::AtJoin:
                return SideEnd::Effect;
            }
        }
        return SideEnd::Budget;
    }

    std::string sideText(const Lane& c, SideEnd e) const {
        auto at = [&](const char* what) {
            const Statement& st = f_.body[c.pc];
            return fmt::format("{}'{}' at line {}", what, st.insn.opcode, st.loc.line);
        };
        switch (e) {
        case SideEnd::Effect:
            return at("");
        case SideEnd::Collective:
            return at("the warp-collective ");
        case SideEnd::Done:
            return "the end of the thread";
        case SideEnd::Trap:
            return at("");
        case SideEnd::Budget:
            return fmt::format("{} instructions without meeting the other side", kSideSteps);
        case SideEnd::Joined:
            break;
        }
        return "the other side";
    }

    /** The two sides of a branch at L.pc, started from `first` and `second`, and where they meet.
     */
    struct Sides {
        Lane first, second; ///< each at the meeting point (or where it stopped)
        SideEnd firstEnd = SideEnd::Done, secondEnd = SideEnd::Done;
        std::vector<std::size_t> firstPath, secondPath; ///< to the meeting point
        bool met = false;
    };

    /**
     * Runs both sides of a branch speculatively until the second reaches a statement the first
     * stood at before its first effect; `allowed` lets the second side pass waits on a probe's
     * barrier and phase. Sides that meet ran no memory or synchronization instruction but those.
     */
    Sides runSides(const Lane& L, std::size_t first, std::size_t second, const Probe* allowed) {
        Sides out{L, L, SideEnd::Done, SideEnd::Done, {}, {}, false};
        out.first.pc = first;
        out.first.steps.clear();
        out.firstEnd = runSide(
            out.first, [](std::size_t) { return false; }, &out.firstPath, nullptr);
        std::set<std::size_t> visited(out.firstPath.begin(), out.firstPath.end());
        out.second.pc = second;
        out.second.steps.clear();
        out.secondEnd = runSide(
            out.second, [&](std::size_t pc) { return visited.count(pc) > 0; }, &out.secondPath,
            allowed);
        if (out.secondEnd != SideEnd::Joined) return out;
        out.met = true;
        std::size_t meet = out.second.pc;
        out.first = L; // again, to where the second side met it
        out.first.pc = first;
        out.first.steps.clear();
        out.firstPath.clear();
        runSide(
            out.first, [&](std::size_t pc) { return pc == meet; }, &out.firstPath, nullptr);
        return out;
    }

    /**
     * A branch on data (a value read from memory, floating point): both sides are explored;
     * when they meet before any memory or synchronization instruction, the thread goes on from
     * there with the registers the sides agree on, the others unknown. When they do not, the
     * lane splits in two (Outcome::Fork, runWarp), one per way, until they meet again.
     */
    Outcome joinSides(Lane& L, const Statement& s, bool speculative) {
        const litmus::Instruction& in = s.insn;
        Sides sides = runSides(L, target(s), L.pc + 1, nullptr);
        // A side that traps (a failing device assert) before any effect ends the kernel with an
        // error: the check follows the other side, assuming the assertion holds.
        if (!sides.met && (sides.firstEnd == SideEnd::Trap) != (sides.secondEnd == SideEnd::Trap)) {
            const Lane& trap = sides.firstEnd == SideEnd::Trap ? sides.first : sides.second;
            noteOnce(trap.pc < f_.body.size() ? f_.body[trap.pc].loc : in.loc,
                     fmt::format("the branch at line {} on a value read from memory goes to '{}' "
                                 "(a failing assert) on one side: the check assumes it does not",
                                 in.loc.line, f_.body[trap.pc].insn.opcode));
            L.pc = sides.firstEnd == SideEnd::Trap ? L.pc + 1 : target(s);
            return Outcome::Continue;
        }
        if (!sides.met) {
            if (sides.firstEnd == SideEnd::Done && sides.secondEnd == SideEnd::Done) {
                L.done = true;
                return Outcome::Done;
            }
            if (speculative) return Outcome::Fork;
            return forkAt(L, s, sides);
        }
        std::size_t meet = sides.second.pc;
        replayFragmentAccesses(L, sides.firstPath);
        replayFragmentAccesses(L, sides.secondPath);
        mergeValues(L, sides.first, sides.second);
        L.executed = std::max(sides.first.executed, sides.second.executed);
        L.pc = meet;
        return Outcome::Continue;
    }

    /** Registers and .local bytes where two ways meet: those they agree on, the others data. */
    static void mergeValues(Lane& into, const Lane& a, const Lane& b) {
        std::unordered_map<std::string, Val> merged = a.regs;
        for (auto& [name, v] : merged) {
            auto other = b.regs.find(name);
            Val w = other == b.regs.end() ? Val{} : other->second;
            if (v != w) v = Val{false, v.known ? w.field : v.field, 0, v.probe ? v.probe : w.probe};
        }
        for (const auto& [name, w] : b.regs)
            if (!merged.count(name)) merged[name] = Val{false, w.field, 0, w.probe};
        std::map<std::uint64_t, Val> local = a.local;
        for (auto& [addr, v] : local) {
            auto other = b.local.find(addr);
            if (other == b.local.end() || other->second != v) v = Val{};
        }
        for (const auto& [addr, w] : b.local)
            if (!local.count(addr)) local[addr] = Val{};
        into.local = std::move(local);
        into.regs = std::move(merged);
    }

    // ---- branches on data whose sides differ: one lane per way ----
    /// how deep branches on data may nest in a lane's ways (a loop on data nests once per turn)
    static constexpr std::size_t kMaxWays = 6;

    /**
     * Whether the guard `g` (a predicate a branch on data decides) holds in the way `L` is in:
     * nullopt when L is in neither way of that branch.
     */
    std::optional<bool> wayDecides(const Lane& L, const Val& g,
                                   const litmus::Instruction& in) const {
        const DataChoice& c = ways_.at(g.way - 1);
        for (const Lane::Fork& f : L.forks)
            if (f.way.stmt == c.stmt && f.way.instance == c.instance)
                return (f.way.taken != g.wayNegated) != in.guard->negated;
        return std::nullopt;
    }

    /**
     * An instruction whose guard a branch on data decided, met outside both of that branch's
     * ways: the lane splits on the same choice (the two branches go alike), until the
     * instruction's post-dominator.
     */
    Outcome forkOnWay(Lane& L, const Statement& s, const Val& g) {
        if (L.forks.size() >= kMaxWays)
            fail(s.insn.guard->loc,
                 fmt::format("whether this {} runs depends on data, inside {} branches on data "
                             "whose sides differ: a loop whose trip count depends on data? "
                             "ptxmc splits a thread at most {} deep",
                             s.insn.opcode, L.forks.size(), kMaxWays));
        const DataChoice c = ways_.at(g.way - 1);
        const bool guardHoldsWhenTaken = g.wayNegated == s.insn.guard->negated;
        const bool branch = s.role == ModuleRole::Branch;
        L.pendingFork =
            Lane::Fork{DataChoice{c.stmt, c.instance, true}, postDominator(L.pc), L.steps.size()};
        splitTo_ = {L.pc, L.pc}; // an instruction: each way runs it again, its guard decided
        if (branch) {
            const std::size_t onGuard = target(s), offGuard = L.pc + 1;
            splitTo_ =
                guardHoldsWhenTaken ? std::pair{onGuard, offGuard} : std::pair{offGuard, onGuard};
        }
        return Outcome::Fork;
    }

    /** Marks the branch at L.pc for a split (runWarp), noting what each side reaches. */
    Outcome forkAt(Lane& L, const Statement& s, const Sides& sides) {
        const litmus::Instruction& in = s.insn;
        noteOnce(in.loc,
                 fmt::format("the branch at line {} on a value read from {} (its guard @{}) runs "
                             "both ways: taken, the thread reaches {}; not taken, {}. The check "
                             "explores both (a nondet.pred choice), each warp going one way with "
                             "all its lanes, and identical warps merged into one thread alike",
                             in.loc.line, unknownOrigin(), in.guard->reg,
                             sideText(sides.first, sides.firstEnd),
                             sideText(sides.second, sides.secondEnd)));
        return forkOnData(L, s);
    }

    /**
     * A new choice for the instruction at L.pc, guarded by data: its guard register becomes a
     * predicate that way decides (nonzero exactly on the way the guard holds), and the lane
     * splits on it (forkOnWay).
     */
    Outcome forkOnData(Lane& L, const Statement& s) {
        const litmus::Instruction& in = s.insn;
        Val way; // nonzero exactly where `@p` holds: on the taken way, or off it for `@!p`
        way.way = wayIndex(DataChoice{L.pc, L.counts[L.pc]++, true});
        way.wayNegated = in.guard->negated;
        L.regs[in.guard->reg] = way;
        return forkOnWay(L, s, way);
    }

    /** 1 + the index of branch instance `c` (its way ignored) in ways_. */
    std::uint32_t wayIndex(DataChoice c) {
        c.taken = true;
        for (std::size_t i = 0; i < ways_.size(); ++i)
            if (ways_[i] == c) return static_cast<std::uint32_t>(i + 1);
        ways_.push_back(c);
        return static_cast<std::uint32_t>(ways_.size());
    }

    /** Splits a lane at its pending fork: it goes the taken way (to splitTo_.first), the copy
     *  returned the other (to splitTo_.second). */
    Lane splitLane(Lane& L) {
        Lane::Fork f = *L.pendingFork;
        L.pendingFork.reset();
        Lane other = L;
        L.forks.push_back(f);
        L.pc = splitTo_.first;
        f.way.taken = false;
        other.forks.push_back(f);
        other.pc = splitTo_.second;
        return other;
    }

    /** The ways a lane is in, as a key: lanes in different ways never meet at a collective. */
    static std::string waysKey(const Lane& L) {
        std::string k;
        for (const Lane::Fork& f : L.forks)
            k += fmt::format("{}:{}:{};", f.way.stmt, f.way.instance, f.way.taken ? 1 : 0);
        return k;
    }

    /** Twins: the two ways of one lane's innermost split, both at its join (or ended). */
    static bool twins(const Lane& a, const Lane& b) {
        if (a.lane != b.lane || a.forks.empty() || a.forks.size() != b.forks.size()) return false;
        if (!(a.atJoin || a.done) || !(b.atJoin || b.done)) return false;
        for (std::size_t i = 0; i + 1 < a.forks.size(); ++i)
            if (a.forks[i].way != b.forks[i].way) return false;
        const DataChoice &x = a.forks.back().way, &y = b.forks.back().way;
        return x.stmt == y.stmt && x.instance == y.instance && x.taken != y.taken;
    }

    /**
     * Joins one pair of twins into one lane at their join: the steps before the split, then
     * the taken way's, then the other's (each guarded by its way), and the values they agree
     * on. False when no pair is ready.
     */
    bool mergeJoined(std::vector<Lane>& lanes) {
        for (std::size_t i = 0; i < lanes.size(); ++i)
            for (std::size_t j = i + 1; j < lanes.size(); ++j) {
                if (!twins(lanes[i], lanes[j])) continue;
                const bool firstTaken = lanes[i].forks.back().way.taken;
                Lane& taken = firstTaken ? lanes[i] : lanes[j];
                Lane& other = firstTaken ? lanes[j] : lanes[i];
                Lane joined = taken;
                const Lane::Fork f = taken.forks.back();
                joined.steps.insert(joined.steps.end(),
                                    other.steps.begin() + static_cast<std::ptrdiff_t>(f.prefix),
                                    other.steps.end());
                mergeValues(joined, taken, other);
                for (const auto& [stmt, n] : other.counts)
                    joined.counts[stmt] = std::max(joined.counts[stmt], n);
                for (const auto& [reg, first] : other.wgmmaRegs)
                    joined.wgmmaRegs.emplace(reg, first);
                joined.wgmmaWindow = std::max(taken.wgmmaWindow, other.wgmmaWindow);
                joined.executed = std::max(taken.executed, other.executed);
                joined.forks.pop_back();
                joined.atJoin = false;
                joined.done = taken.done || other.done;
                joined.pc = f.join;
                lanes[i] = std::move(joined);
                lanes.erase(lanes.begin() + static_cast<std::ptrdiff_t>(j));
                return true;
            }
        return false;
    }

    /**
     * The immediate post-dominator of statement `pc` in the entry's control-flow graph: the
     * first statement every path from it reaches (the body's size: the end, or no path).
     */
    std::size_t postDominator(std::size_t pc) {
        if (ipdom_.empty()) {
            std::vector<std::vector<std::size_t>> succ;
            for (std::size_t i = 0; i < f_.body.size(); ++i)
                succ.push_back(successors(i));
            ipdom_ = immediatePostDominators(succ);
        }
        const std::size_t d = ipdom_.at(pc);
        return d == kNoPostDominator ? f_.body.size() : d;
    }

    /** Where statement i may go next (the body's size: the end). */
    std::vector<std::size_t> successors(std::size_t i) const {
        const std::size_t n = f_.body.size();
        const Statement& s = f_.body[i];
        if (s.kind == Statement::Kind::Label) return {i + 1};
        const bool guarded = s.insn.guard.has_value();
        switch (s.role) {
        case ModuleRole::Branch: {
            std::size_t to = n;
            try {
                to = target(s);
            } catch (const InputError&) { // reported when a thread runs it
            }
            return guarded ? std::vector<std::size_t>{to, i + 1} : std::vector<std::size_t>{to};
        }
        case ModuleRole::Exit:
        case ModuleRole::Trap:
            return guarded ? std::vector<std::size_t>{n, i + 1} : std::vector<std::size_t>{n};
        default:
            return {i + 1};
        }
    }

    /** The wgmma fragment accesses of statements a side ran speculatively. */
    void replayFragmentAccesses(Lane& L, const std::vector<std::size_t>& path) {
        if (L.wgmmaRegs.empty()) return;
        std::size_t pc = L.pc;
        for (std::size_t at : path) {
            if (at >= f_.body.size() || f_.body[at].kind != Statement::Kind::Instruction) continue;
            L.pc = at;
            wgmmaRegisterAccess(L, f_.body[at], f_.body[at].role);
        }
        L.pc = pc;
    }

    /**
     * A branch on a probe's result (CUTLASS's `consumer_wait(state, token)`): the thread
     * follows the failure side, which the evaluation took at the probe. That is sound when the
     * other side runs the same instructions less waits on the probe's barrier and phase: the
     * success side acquired at the probe what the failure side acquires at the wait, with the
     * instructions between ordered after it, so its executions are among the failure side's.
     */
    Outcome probeBranch(Lane& L, const Statement& s, const Val& g) {
        const litmus::Instruction& in = s.insn;
        bool takes = (g.v != 0) != in.guard->negated;
        std::size_t failure = takes ? target(s) : L.pc + 1;
        std::size_t other = takes ? L.pc + 1 : target(s);
        const Probe probe =
            probes_.at(g.probe - 1); // a copy: probes_ must not move under the side runs
        Sides sides = runSides(L, other, failure, &probe);
        if (!sides.met && !(sides.firstEnd == SideEnd::Done && sides.secondEnd == SideEnd::Done))
            fail(in.guard->loc,
                 fmt::format("this branch on the result of {} does not only skip a wait on its "
                             "barrier and phase: on the probe's failure side the thread reaches "
                             "{}, on its success side {}; {}",
                             probeText(g.probe), sideText(sides.second, sides.secondEnd),
                             sideText(sides.first, sides.firstEnd), kProbeRule));
        if (sides.met) {
            Lane::Taint t{sides.second.pc, {}, {}, g.probe};
            for (const auto& [a, v] : sides.second.local)
                if (auto o = sides.first.local.find(a);
                    o == sides.first.local.end() || o->second != v)
                    t.local.push_back(a);
            for (const auto& [a, v] : sides.first.local)
                if (!sides.second.local.count(a)) t.local.push_back(a);
            for (const auto& [name, v] : sides.second.regs) {
                auto o = sides.first.regs.find(name);
                if (o == sides.first.regs.end() || o->second != v) t.regs.push_back(name);
            }
            for (const auto& [name, v] : sides.first.regs)
                if (!sides.second.regs.count(name)) t.regs.push_back(name);
            std::sort(t.regs.begin(), t.regs.end());
            if (!t.regs.empty() || !t.local.empty()) L.taintAt.push_back(std::move(t));
        }
        L.pc = failure;
        return Outcome::Continue;
    }

    std::size_t target(const Statement& s) const {
        const litmus::Instruction& in = s.insn;
        if (in.operands.empty() || in.operands[0].kind != litmus::Operand::Kind::Name)
            fail(in.loc, "'" + in.opcode + "' needs a label");
        const std::string& label = in.operands[0].name;
        for (int sc = s.scope; sc >= 0; sc = f_.scopes[static_cast<std::size_t>(sc)].parent) {
            const auto& labels = f_.scopes[static_cast<std::size_t>(sc)].labels;
            auto it = labels.find(label);
            if (it != labels.end()) return it->second;
        }
        fail(in.operands[0].loc, "no label '" + label + "' in scope");
    }

    // ---- values ----
    std::uint64_t sharedBase(int cta) const {
        return static_cast<std::uint64_t>(cta) << Layout::kRankShift;
    }

    std::optional<Val> special(const Lane& L, const std::string& name) const {
        return specialRegister(name, ThreadPlace{L.cta, L.tid, L.lane, L.warp}, shape_);
    }

    Val read(const Lane& L, const std::string& raw) const {
        bool negate = !raw.empty() && raw[0] == '!';
        std::string name = negate ? raw.substr(1) : raw;
        Val v;
        if (auto it = L.regs.find(name); it != L.regs.end())
            v = it->second;
        else if (auto sp = special(L, name))
            v = *sp;
        else if (auto sh = out_.layout.shared.find(name); sh != out_.layout.shared.end())
            v = Val::of(sharedBase(L.cta) | sh->second.offset);
        else if (auto lo = out_.layout.local.find(name); lo != out_.layout.local.end())
            v = Val::of(Layout::kLocal + lo->second.offset);
        else if (auto pa = out_.layout.params.find(name); pa != out_.layout.params.end())
            v = Val::of(Layout::kGenericParam + pa->second.offset);
        if (negate && v.known) v.v = v.v == 0 ? 1 : 0;
        if (negate && v.way) v.wayNegated = !v.wayNegated;
        return v;
    }

    Val value(const Lane& L, const litmus::Operand& o) const {
        switch (o.kind) {
        case litmus::Operand::Kind::Integer:
            return Val::of(static_cast<std::uint64_t>(o.value));
        case litmus::Operand::Kind::Name:
            return read(L, o.name);
        case litmus::Operand::Kind::Memory:
            return address(L, o);
        case litmus::Operand::Kind::Vector: {
            // {lo, hi} packs registers low part first (mov.b64 d, {a, b}).
            std::uint64_t v = 0;
            std::uint32_t probe = 0;
            int width = o.elements.empty() ? 0 : 64 / static_cast<int>(o.elements.size());
            for (std::size_t i = 0; i < o.elements.size(); ++i) {
                Val e = value(L, o.elements[i]);
                if (!e.known) return e;
                v |= mask(e.v, width) << (static_cast<int>(i) * width);
                if (!probe) probe = e.probe;
            }
            Val packed = Val::of(v);
            packed.probe = probe;
            return packed;
        }
        case litmus::Operand::Kind::Sink:
            return Val{};
        }
        return Val{};
    }

    Val address(const Lane& L, const litmus::Operand& o) const {
        Val base = o.name.empty() ? Val::of(0) : read(L, o.name);
        if (!base.known) return base;
        return Val::of(base.v + static_cast<std::uint64_t>(o.value));
    }

    void set(Lane& L, const litmus::Operand& o, Val v) {
        Val unknown{false, v.known ? 0 : v.field, 0, v.probe};
        if (o.kind == litmus::Operand::Kind::Name && !o.name.empty() && o.name[0] != '!')
            L.regs[o.name] = v;
        if (o.kind == litmus::Operand::Kind::Name)
            for (const auto& e : o.elements)
                L.regs[e.name] = unknown;
        if (o.kind == litmus::Operand::Kind::Vector)
            for (const auto& e : o.elements)
                if (e.kind == litmus::Operand::Kind::Name) L.regs[e.name] = unknown;
    }

    void unknownDests(Lane& L, const litmus::Instruction& in, std::uint32_t field = 0) {
        if (!in.operands.empty()) set(L, in.operands[0], Val{false, field, 0});
    }

    /** The first parameter field not given that an input of `in` depends on (0: none). */
    std::uint32_t fieldOf(const Lane& L, const litmus::Instruction& in) const {
        for (std::size_t i = 1; i < in.operands.size(); ++i)
            if (Val v = value(L, in.operands[i]); !v.known && v.field) return v.field;
        return 0;
    }

    // ---- arithmetic ----
    void arith(Lane& L, const Statement& s) {
        const litmus::Instruction& in = s.insn;
        const auto& p = in.parts;
        if (in.operands.empty()) return;
        const litmus::Operand& d = in.operands[0];
        // ptxas refuses an arithmetic result written to a constant or to memory; taking it
        // would drop the result silently.
        if (d.kind == litmus::Operand::Kind::Integer || d.kind == litmus::Operand::Kind::Memory)
            fail(d.loc, fmt::format("'{}' writes its result to a {}, not a register", in.opcode,
                                    d.kind == litmus::Operand::Kind::Integer ? "constant"
                                                                             : "memory operand"));
        if (s.op == ModuleOp::Mov && d.kind == litmus::Operand::Kind::Vector) { // unpack
            Val src = in.operands.size() > 1 ? value(L, in.operands[1]) : Val{};
            int width = 64 / std::max<int>(1, static_cast<int>(d.elements.size()));
            for (std::size_t i = 0; i < d.elements.size(); ++i)
                if (d.elements[i].kind == litmus::Operand::Kind::Name) {
                    Val part = src.known
                                   ? Val::of(mask(src.v >> (static_cast<int>(i) * width), width))
                                   : src;
                    part.probe = src.probe;
                    L.regs[d.elements[i].name] = part;
                }
            return;
        }
        std::vector<Val> ins;
        for (std::size_t i = 1; i < in.operands.size(); ++i)
            ins.push_back(value(L, in.operands[i]));
        Val out;
        if (s.op == ModuleOp::Cvta)
            out = cvtaAddress(p, ins);
        else if (s.op == ModuleOp::Mapa)
            out = mapaAddress(ins);
        else if (s.op == ModuleOp::Getctarank)
            out = ctarankOf(ins);
        else {
            bool known = false;
            if (auto r = arithmetic(s.op, s.value, ins, known)) out = Val::of(*r);
        }
        for (const Val& v : ins) {
            if (!out.known && !out.field && !v.known) out.field = v.field;
            if (!out.probe) out.probe = v.probe;
        }
        if (out.known && s.op != ModuleOp::Mov && s.op != ModuleOp::Cvta &&
            s.op != ModuleOp::Mapa) {
            // keep a result's width: the destination's type
            int bits = s.value.type ? std::min(s.value.type->bits, 64) : 64;
            if (s.op != ModuleOp::Cvt && s.value.product != ptx::ProductPart::Wide)
                out.v = mask(out.v, bits);
        }
        set(L, d, out);
    }

    void setp(Lane& L, const Statement& s) {
        const litmus::Instruction& in = s.insn;
        if (in.operands.size() < 3) fail(in.loc, "setp needs a predicate and two operands");
        Val a = value(L, in.operands[1]), b = value(L, in.operands[2]);
        std::optional<Val> c;
        if (in.operands.size() > 3) c = value(L, in.operands[3]); // .and/.or/.xor's predicate
        Val result = setpValue(s.value, a, b, c);
        const litmus::Operand& d = in.operands[0];
        if (d.kind == litmus::Operand::Kind::Name && d.name != "_") L.regs[d.name] = result;
        if (!d.elements.empty())
            L.regs[d.elements[0].name] = result.known ? Val::of(result.v == 0 ? 1 : 0) : result;
    }

    /**
     * ld.param, or a generic load of a parameter's bytes: each element of the destination
     * reads the field at its offset, as wide as the element. A field --param gives is known;
     * one it does not give is unknown and remembered, so that a branch on it names it.
     */
    void paramLoad(Lane& L, const litmus::Instruction& in, Val addr) {
        const litmus::Operand& d = in.operands[0];
        std::uint64_t bytes = loadBytes(in.parts);
        if (d.kind != litmus::Operand::Kind::Vector) {
            set(L, d, fieldValue(L, in, addr, 0, bytes));
            return;
        }
        for (std::size_t i = 0; i < d.elements.size(); ++i)
            if (d.elements[i].kind == litmus::Operand::Kind::Name)
                L.regs[d.elements[i].name] = fieldValue(L, in, addr, i * bytes, bytes);
    }

    /** A load's element width: its type's (8 bytes where none is written). */
    static std::uint64_t loadBytes(const std::vector<std::string>& parts) {
        return ptx::valueForm(ptx::ModuleOp::Other, parts).bytes();
    }

    /** The `bytes` bytes at `addr + at` of a parameter: given, or unknown naming the field. */
    Val fieldValue(const Lane& L, const litmus::Instruction& in, Val addr, std::uint64_t at,
                   std::uint64_t bytes) {
        if (!addr.known || addr.v < Layout::kGenericParam) return Val{};
        auto p = out_.layout.paramAt(addr.v - Layout::kGenericParam + at);
        if (!p) return Val{};
        std::size_t index = static_cast<std::size_t>(p->first->var - f_.params.data());
        std::uint64_t off = p->second;
        auto given = given_.find({index, off});
        // a load covering another given field, or bytes of a field read wider before
        auto next = given_.upper_bound({index, off});
        std::optional<std::uint64_t> inside;
        if (next != given_.end() && next->first.first == index && next->first.second < off + bytes)
            inside = next->first.second;
        if (given == given_.end() && next != given_.begin()) {
            auto prev = std::prev(next);
            auto width = readBytes_.find(prev->first);
            if (prev->first.first == index && width != readBytes_.end() &&
                prev->first.second + width->second > off)
                inside = prev->first.second;
        }
        auto name = [&](std::uint64_t o) {
            return o == 0 ? std::to_string(index) : fmt::format("{}+{}", index, o);
        };
        if (inside) {
            std::string what =
                given != given_.end() ? fmt::format("which straddle the fields {} and {} given "
                                                    "with --param",
                                                    name(off), name(*inside))
                : *inside > off
                    ? fmt::format("of which --param gives only a part (field {})", name(*inside))
                    : fmt::format("inside field {}, which --param gives and a "
                                  "wider load reads",
                                  name(*inside));
            fail(in.loc, fmt::format("this {}-byte load reads parameter bytes {}..{}, {}: give "
                                     "each field at the offset and width its loads use",
                                     bytes, name(off), name(off + bytes - 1), what));
        }
        std::optional<std::uint64_t> value = dumped(index, off, bytes);
        if (given != given_.end()) {
            std::uint64_t v = given->second;
            int bits = static_cast<int>(bytes * 8);
            if (bits < 64 && (v >> bits) != 0 && (v >> (bits - 1)) != (~0ULL >> (bits - 1)))
                fail(in.loc, fmt::format("--param {}={} does not fit the {}-byte load here",
                                         name(off), v, bytes));
            value = mask(v, bits);
            auto& w = readBytes_[given->first];
            w = std::max(w, bytes);
        }
        auto key = std::make_tuple(index, off, bytes, L.pc);
        auto [it, fresh] = reads_.emplace(key, out_.paramReads.size());
        if (fresh) {
            ParamRead r;
            r.index = index;
            r.param = p->first->var->name;
            r.offset = off;
            r.bytes = bytes;
            r.value = value;
            r.loc = in.loc;
            r.cuda = f_.body[L.pc].cuda;
            out_.paramReads.push_back(r);
        }
        if (value) return Val::of(*value);
        return Val{false, static_cast<std::uint32_t>(it->second + 1), 0};
    }

    /** Bytes `off`.. of parameter `index` from its --param-bytes dump (little-endian). */
    std::optional<std::uint64_t> dumped(std::size_t index, std::uint64_t off,
                                        std::uint64_t bytes) const {
        auto dump = dumps_.find(index);
        if (dump == dumps_.end() || bytes > 8 || off + bytes > dump->second.size())
            return std::nullopt;
        std::uint64_t v = 0;
        for (std::uint64_t b = 0; b < bytes; ++b)
            v |= std::uint64_t{dump->second[off + b]} << (8 * b);
        return v;
    }

    /** "memory", or a hint at the parameter fields not given, which are the likelier cause. */
    std::string unknownOrigin() const {
        for (const ParamRead& r : out_.paramReads)
            if (!r.value)
                return "memory or from a parameter field not given with --param "
                       "(--list-params lists the fields read)";
        return "memory";
    }

    void noteOnce(const SourceLoc& loc, const std::string& text) {
        notesThisPass_.emplace(text, Note{loc, text});
    }

    // ---- collectives: every lane of the group is at the same statement ----
    void collective(std::vector<Lane*>& group) {
        const Statement& s = f_.body[group[0]->pc];
        const litmus::Instruction& in = s.insn;
        std::uint64_t active = 0;
        for (Lane* L : group)
            active |= 1ULL << L->lane;
        if (s.op == ModuleOp::Elect) {
            int leader = group.front()->lane;
            for (Lane* L : group) {
                const litmus::Operand& d = in.operands.at(0);
                if (d.kind == litmus::Operand::Kind::Name && d.name != "_")
                    L->regs[d.name] = Val::of(static_cast<std::uint64_t>(leader));
                if (!d.elements.empty())
                    L->regs[d.elements[0].name] = Val::of(L->lane == leader ? 1 : 0);
            }
        } else if (s.op == ModuleOp::Shfl) {
            shfl(group, in);
        } else if (s.op == ModuleOp::Vote) {
            vote(group, in, active);
        } else if (s.op == ModuleOp::Activemask) {
            for (Lane* L : group)
                set(*L, in.operands.at(0), Val::of(active));
        } else {
            for (Lane* L : group)
                unknownDests(*L, in);
        }
        for (Lane* L : group)
            ++L->pc;
    }

    void shfl(std::vector<Lane*>& group, const litmus::Instruction& in) {
        if (in.operands.size() < 4) fail(in.loc, "shfl.sync needs d, a, b, c and a member mask");
        const ShflMode mode = shflMode(in.parts);
        std::map<int, Val> a;
        std::uint64_t members = 0;
        for (Lane* L : group) {
            a[L->lane] = value(*L, in.operands[1]);
            members |= 1ULL << L->lane;
        }
        std::vector<Val> results;
        for (Lane* L : group) {
            Val b = value(*L, in.operands[2]);
            Val r = b;
            if (b.known) {
                r = a[shflSource(mode, L->lane, b.v, members)];
                if (!r.probe) r.probe = b.probe;
            }
            results.push_back(r);
        }
        for (std::size_t i = 0; i < group.size(); ++i)
            set(*group[i], in.operands[0], results[i]);
    }

    void vote(std::vector<Lane*>& group, const litmus::Instruction& in, std::uint64_t) {
        const VoteMode mode = voteMode(in.parts);
        std::uint64_t ballot = 0;
        bool known = true;
        Val r;
        std::uint32_t probe = 0;
        for (Lane* L : group) {
            Val p = value(*L, in.operands.at(1));
            if (!probe) probe = p.probe;
            if (!p.known) {
                known = false;
                if (!r.field) r.field = p.field;
            } else if (p.v)
                ballot |= 1ULL << L->lane;
        }
        std::uint64_t members = 0;
        for (Lane* L : group)
            members |= 1ULL << L->lane;
        if (known)
            if (auto v = voteResult(mode, ballot, members)) r = Val::of(*v);
        r.probe = probe;
        for (Lane* L : group)
            set(*L, in.operands.at(0), r);
    }

    // ---- memory and synchronization ----
    RawOperand resolve(const Lane& L, const litmus::Operand& o) const {
        RawOperand r;
        r.loc = o.loc;
        switch (o.kind) {
        case litmus::Operand::Kind::Integer:
            r.kind = RawOperand::Kind::Imm;
            r.value = Val::of(static_cast<std::uint64_t>(o.value));
            break;
        case litmus::Operand::Kind::Sink:
            r.kind = RawOperand::Kind::Sink;
            break;
        case litmus::Operand::Kind::Name:
            r.kind = RawOperand::Kind::Reg;
            r.reg = o.name;
            r.value = read(L, o.name);
            for (const auto& e : o.elements)
                r.elements.push_back(resolve(L, e));
            break;
        case litmus::Operand::Kind::Memory:
            r.kind = RawOperand::Kind::Addr;
            r.value = address(L, o);
            r.reg = o.name;
            for (const auto& e : o.elements)
                r.elements.push_back(resolve(L, e));
            break;
        case litmus::Operand::Kind::Vector:
            r.kind = RawOperand::Kind::Vec;
            for (const auto& e : o.elements)
                r.elements.push_back(resolve(L, e));
            break;
        }
        return r;
    }

    // ---- wgmma fragments (9.7.17.7.3, 9.7.17.7.1) ----
    /**
     * A thread's own reads and writes of the registers of a wgmma fragment are what the
     * wgmma-register-race and wgmma-missing-fence rules are about, whatever instruction makes
     * them (cvt, mov, st of an accumulator): each is recorded as a mov of the fragment's first
     * register, the one that stands for the fragment in the program. One read and one write per
     * stretch between two wgmma instructions suffice: the others are in the same place in
     * program order relative to every wgmma event.
     */
    void wgmmaRegisterAccess(Lane& L, const Statement& s, ModuleRole k) {
        const litmus::Instruction& in = s.insn;
        std::string readOf, writeOf;
        auto look = [&](const litmus::Operand& o, bool dest, auto&& self) -> void {
            if (o.kind == litmus::Operand::Kind::Name || o.kind == litmus::Operand::Kind::Memory) {
                auto it = L.wgmmaRegs.find(o.name);
                if (it != L.wgmmaRegs.end()) (dest ? writeOf : readOf) = it->second;
            }
            for (const auto& e : o.elements)
                self(e, dest && o.kind == litmus::Operand::Kind::Vector, self);
        };
        bool firstIsDest = k == ModuleRole::Arith || k == ModuleRole::Data ||
                           k == ModuleRole::Setp || k == ModuleRole::Load ||
                           k == ModuleRole::ParamLoad || k == ModuleRole::Atomic ||
                           k == ModuleRole::Collective || k == ModuleRole::ClcQuery;
        for (std::size_t i = 0; i < in.operands.size(); ++i)
            look(in.operands[i], i == 0 && firstIsDest, look);
        auto note = [&](const std::string& reg, bool write) {
            Step st;
            st.stmt = L.pc;
            // its own instance count (key ~pc): the statement's count is its instruction's
            st.instance = L.counts[~L.pc]++;
            st.opcode = "mov.b32";
            st.op = ModuleOp::Mov;
            st.parts = {"mov", "b32"};
            st.value = ptx::valueForm(st.op, st.parts);
            RawOperand r, v;
            r.kind = RawOperand::Kind::Reg;
            r.reg = write ? reg : "acc";
            r.loc = in.loc;
            v.kind = write ? RawOperand::Kind::Imm : RawOperand::Kind::Reg;
            v.reg = write ? "" : reg;
            v.value = write ? Val::of(0) : Val{};
            v.loc = in.loc;
            st.operands = {r, v};
            L.steps.push_back(std::move(st));
        };
        if (!readOf.empty() && L.readIn != L.wgmmaWindow) {
            L.readIn = L.wgmmaWindow;
            note(readOf, false);
        }
        if (!writeOf.empty() && L.wroteIn != L.wgmmaWindow) {
            L.wroteIn = L.wgmmaWindow;
            note(writeOf, true);
        }
    }

    /** The fragments a wgmma.mma_async names: its accumulator and, from registers, its A. */
    static void wgmmaFragments(Lane& L, const Statement& s) {
        const litmus::Instruction& in = s.insn;
        ++L.wgmmaWindow;
        if (s.op != ModuleOp::WgmmaMmaAsync) return;
        for (std::size_t i = 0; i < 2 && i < in.operands.size(); ++i) {
            const litmus::Operand& o = in.operands[i];
            if (o.kind != litmus::Operand::Kind::Vector || o.elements.empty()) continue;
            const std::string& first = o.elements[0].name;
            for (const auto& e : o.elements)
                if (e.kind == litmus::Operand::Kind::Name) L.wgmmaRegs[e.name] = first;
        }
    }

    // ---- cluster launch control (9.7.15.18, 9.7.15.19) ----
    /**
     * The response a thread's load of a try_cancel response slot reads: the n-th load of the
     * slot by the thread reads the n-th response written there. That is what the protocol
     * guarantees when the load waits for the write (the mbarrier its complete-tx signals) and
     * the slot is not rewritten before the load; a load the protocol does not order so is a
     * data race the check reports.
     */
    std::optional<Val> clcResponseRead(Lane& L, std::uint64_t slot) {
        const std::vector<std::uint64_t>* written = nullptr;
        std::size_t n = L.clcReads[slot];
        for (const ClcSlots* pass : {&clcSeen_, &clcStored_})
            if (auto it = pass->find(slot); it != pass->end() && n < it->second.size()) {
                written = &it->second;
                break;
            }
        if (written == nullptr) return std::nullopt;
        ++L.clcReads[slot];
        return Val::of((*written)[n]);
    }

    /**
     * clusterlaunchcontrol.try_cancel: "asynchronously writes an opaque response to shared
     * memory" and signals a complete-tx of its 16 bytes on the mbarrier; with
     * .multicast::cluster::all in every CTA of the cluster, at the same offsets. Recorded as
     * that write: a 16-byte bulk copy per CTA, from a global location that stands for the
     * responses, with complete-tx on the CTA's mbarrier.
     */
    void clcRequest(Lane& L, const Step& st) {
        const SourceLoc& loc = f_.body[st.stmt].insn.loc;
        if (st.operands.size() < 2 || !st.operands[0].value.known || !st.operands[1].value.known)
            fail(loc, "the response or mbarrier address of this try_cancel is not known from "
                      "the launch");
        auto slot = Layout::sharedAddress(st.operands[0].value.v);
        auto mbar = Layout::sharedAddress(st.operands[1].value.v);
        if (!slot || !mbar) fail(loc, "try_cancel's operands must be shared-memory addresses");
        std::uint64_t k = clcRequests_++;
        if (k >= static_cast<std::uint64_t>(launch_.tiles))
            fail(loc, fmt::format("try_cancel request {} follows a failed one: \"If the executing "
                                  "CTA has already observed the completion of a "
                                  "clusterlaunchcontrol.try_cancel instruction as failed, then "
                                  "the behavior of issuing a subsequent ... is undefined\" "
                                  "(9.7.15.18; --tiles {} makes request {} fail)",
                                  k, launch_.tiles, launch_.tiles - 1));
        noteOnce(loc, fmt::format("clusterlaunchcontrol.try_cancel: an asynchronous 16-byte write "
                                  "of its response with complete-tx on its mbarrier; {}",
                                  launch_.tiles == 1
                                      ? std::string("with --tiles 1 the first request fails")
                                      : fmt::format("with --tiles {} the first {} request(s) "
                                                    "cancel the next cluster(s) of the grid, "
                                                    "then one fails",
                                                    launch_.tiles, launch_.tiles - 1)));
        bool multicast = ptx::hasQualifier(st.parts, "multicast::cluster::all");
        int ctas = shape_.ctas();
        for (int cta = 0; cta < ctas; ++cta) {
            if (!multicast && cta != L.cta) continue;
            std::uint64_t base = sharedBase(cta);
            std::uint64_t dst = base | (*slot & Layout::kOffsetMask);
            clcSeen_[dst].push_back(clc::response(k));
            Step copy = st;
            copy.opcode = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes";
            copy.op = ModuleOp::CpBulk;
            copy.parts = {
                "cp", "async", "bulk", "shared::cluster", "global", "mbarrier::complete_tx::bytes"};
            copy.value = ptx::valueForm(copy.op, copy.parts);
            RawOperand d = st.operands[0], src = st.operands[0], mb = st.operands[1], bytes;
            d.value = Val::of(dst);
            d.space = "shared::cluster";
            src.value = Val::of(Layout::kClcResponses);
            src.reg = "clc_responses";
            src.space = "global";
            bytes.kind = RawOperand::Kind::Imm;
            bytes.value = Val::of(16);
            bytes.loc = loc;
            mb.value = Val::of(base | (*mbar & Layout::kOffsetMask));
            mb.space = "shared::cluster";
            copy.operands = {d, src, bytes, mb};
            L.steps.push_back(std::move(copy));
        }
    }

    /** clusterlaunchcontrol.query_cancel: decodes a response (9.7.15.19). */
    void clcQuery(Lane& L, const litmus::Instruction& in) {
        if (in.operands.size() < 2) fail(in.loc, "query_cancel needs a destination and a response");
        Val resp = value(L, in.operands[1]);
        auto k = resp.known ? clc::requestOf(resp.v) : std::nullopt;
        if (!k) {
            if (!lastPass()) return unknownDests(L, in, resp.field);
            fail(in.operands[1].loc, "'" + in.operands[1].name +
                                         "' is not a response a try_cancel of this cluster "
                                         "wrote: load it from the try_cancel's address after "
                                         "waiting on its mbarrier");
        }
        bool ok = clc::cancelled(*k, launch_.tiles);
        if (ptx::hasQualifier(in.parts, "is_canceled"))
            return set(L, in.operands[0], Val::of(ok ? 1 : 0));
        if (!ok)
            fail(in.loc, "get_first_ctaid of a failed request: \"If the request fails the "
                         "behavior of clusterlaunchcontrol.query_cancel.get_first_ctaid is "
                         "undefined\" (9.7.15.19)");
        clc::FirstCta first = clc::firstCta(*k, out_.grid, out_.cluster);
        if (!first.error.empty()) fail(in.loc, first.error);
        const litmus::Operand& d = in.operands[0];
        if (d.kind == litmus::Operand::Kind::Vector) {
            for (std::size_t i = 0; i < d.elements.size(); ++i)
                if (d.elements[i].kind == litmus::Operand::Kind::Name)
                    L.regs[d.elements[i].name] = i < 3 ? Val::of(first.ctaid[i]) : Val{};
            return;
        }
        for (std::size_t i = 0; i < 3; ++i)
            if (ptx::hasQualifier(in.parts, std::string("get_first_ctaid::") + "xyz"[i]))
                return set(L, d, Val::of(first.ctaid[i]));
        fail(in.loc, "unknown form of clusterlaunchcontrol.query_cancel");
    }

    void record(Lane& L, const Statement& s, ModuleRole k) {
        const litmus::Instruction& in = s.insn;
        Step st;
        st.stmt = L.pc;
        st.instance = L.counts[L.pc]++;
        for (const Lane::Fork& f : L.forks)
            st.guard.push_back(f.way);
        st.opcode = in.opcode;
        st.op = s.op;
        st.parts = in.parts;
        st.value = s.value;
        for (const litmus::Operand& o : in.operands)
            st.operands.push_back(resolve(L, o));
        if (k == ModuleRole::Store && in.operands.size() >= 2 && st.operands[0].value.known) {
            if (auto off = Layout::sharedAddress(st.operands[0].value.v)) {
                Val v = value(L, in.operands[1]);
                seen_.put(*off, v.known ? std::optional(v.v) : std::nullopt);
            }
        }
        if (k == ModuleRole::Load || k == ModuleRole::Atomic) {
            Val v;
            if (k == ModuleRole::Load && in.operands.size() >= 2 && st.operands[1].value.known)
                if (auto off = Layout::sharedAddress(st.operands[1].value.v)) {
                    auto it = stored_.values.find(*off);
                    if (it != stored_.values.end() && it->second) v = Val::of(*it->second);
                    if (it == stored_.values.end()) v.field = kStoredLater;
                    if (auto response = clcResponseRead(L, *off)) v = *response;
                }
            bool host = k == ModuleRole::Load && in.operands.size() >= 2 &&
                        st.operands[1].value.known && hostLoad(L, in, st.operands[1].value.v);
            if (!host && !in.operands.empty()) set(L, in.operands[0], v);
        }
        if (s.op == ModuleOp::ClcTryCancel) {
            clcRequest(L, st);
            return;
        }
        if (ptx::isWgmmaOp(s.op)) wgmmaFragments(L, s);
        if (s.op == ModuleOp::Tcgen05Alloc && !in.operands.empty() && st.operands[0].value.known) {
            // The allocated columns' address, stored for the other warps to load (column base).
            auto key = std::make_pair(L.cta, L.warp * 100000 + static_cast<int>(st.stmt));
            auto [it, fresh] = allocations_.emplace(key, columnsTaken_[L.cta]);
            if (fresh && in.operands.size() > 1) {
                Val cols = value(L, in.operands[1]);
                columnsTaken_[L.cta] += cols.known ? cols.v : 32;
            }
            if (auto off = Layout::sharedAddress(st.operands[0].value.v))
                seen_.put(*off, it->second);
        }
        for (std::size_t i = 0; i < st.operands.size(); ++i) // a first register: a result
            if (const RawOperand& o = st.operands[i];
                i == 0 && (o.kind == RawOperand::Kind::Reg || o.kind == RawOperand::Kind::Vec)) {
                continue;
            } else if (std::uint32_t probe = probeIn(o))
                fail(o.loc, "this " + in.opcode + "'s operand depends on the result of " +
                                probeText(probe) + ": " + kProbeRule);
        if (k == ModuleRole::Wait && !waitSucceeds(L, s, st))
            return; // a probe: it acquired nothing
        if (k == ModuleRole::Event && !in.operands.empty() &&
            (ptx::isMbarrierOp(s.op) || s.op == ModuleOp::AtomAsync ||
             s.op == ModuleOp::RedAsync) &&
            in.operands[0].kind == litmus::Operand::Kind::Name)
            set(L, in.operands[0], Val{});
        L.steps.push_back(std::move(st));
    }

    /**
     * A load of global memory the host wrote before the launch (--global): each element of the
     * destination reads its bytes, little-endian; false where the load is not inside them.
     */
    bool hostLoad(Lane& L, const litmus::Instruction& in, std::uint64_t addr) {
        // global memory: a .global load, or a generic one below the shared and param windows
        bool global =
            ptx::hasQualifier(in.parts, "global") ||
            (!ptx::hasQualifier(in.parts, "shared") && !ptx::hasQualifier(in.parts, "local") &&
             !ptx::hasQualifier(in.parts, "const") && !ptx::hasQualifier(in.parts, "param") &&
             addr < Layout::kGenericShared);
        if (launch_.globals.empty() || !global) return false;
        const litmus::Operand& d = in.operands[0];
        std::uint64_t bytes = loadBytes(in.parts);
        std::size_t count = d.kind == litmus::Operand::Kind::Vector ? d.elements.size() : 1;
        auto it = launch_.globals.upper_bound(addr);
        if (it == launch_.globals.begin()) return false;
        --it;
        const std::vector<std::uint8_t>& buf = it->second;
        std::uint64_t at = addr - it->first;
        if (at >= buf.size()) return false;
        if (at + bytes * count > buf.size())
            fail(in.loc, fmt::format("this {}-byte load at 0x{:x} reads past the end of the {} "
                                     "bytes --global gives at 0x{:x}",
                                     bytes * count, addr, buf.size(), it->first));
        auto element = [&](std::size_t i) {
            std::uint64_t v = 0;
            for (std::uint64_t b = 0; b < bytes && b < 8; ++b)
                v |= std::uint64_t{buf[at + i * bytes + b]} << (8 * b);
            return Val::of(v);
        };
        if (d.kind == litmus::Operand::Kind::Vector) {
            for (std::size_t i = 0; i < count; ++i)
                if (d.elements[i].kind == litmus::Operand::Kind::Name)
                    L.regs[d.elements[i].name] = element(i);
        } else {
            set(L, d, element(0));
        }
        return true;
    }

    /**
     * A load or store of the thread's own .local memory (an array of tile addresses indexed by
     * the stage): followed like registers, element by element. False where it is not one.
     */
    bool localAccess(Lane& L, const litmus::Instruction& in, bool store) {
        if (in.operands.size() < 2) return false;
        const litmus::Operand& m = in.operands[store ? 0 : 1];
        if (m.kind != litmus::Operand::Kind::Memory) return false;
        Val a = address(L, m);
        bool local = ptx::hasQualifier(in.parts, "local") ||
                     (a.known && a.v >= Layout::kLocal && a.v < Layout::kLocal + (1ULL << 32));
        if (!local) return false;
        if (!a.known) // the lane's own memory at an address it cannot tell: data
            failOnValue(m.loc, "the .local address of this " + in.opcode + " depends on ", out_, a,
                        "data", ": ptxmc follows .local memory at addresses the launch decides");
        std::uint64_t bytes = loadBytes(in.parts);
        const litmus::Operand& r = in.operands[store ? 1 : 0];
        std::vector<const litmus::Operand*> regs;
        if (r.kind == litmus::Operand::Kind::Vector)
            for (const auto& e : r.elements)
                regs.push_back(&e);
        else
            regs.push_back(&r);
        for (std::size_t i = 0; i < regs.size(); ++i) {
            std::uint64_t at = a.v + i * bytes;
            if (store) {
                L.local[at] = value(L, *regs[i]);
            } else if (regs[i]->kind == litmus::Operand::Kind::Name) {
                auto it = L.local.find(at);
                L.regs[regs[i]->name] = it == L.local.end() ? Val{} : it->second;
            }
        }
        return true;
    }

    static std::uint32_t probeIn(const RawOperand& o) {
        if (o.value.probe) return o.value.probe;
        for (const RawOperand& e : o.elements)
            if (std::uint32_t p = probeIn(e)) return p;
        return 0;
    }

    /**
     * A wait whose failure path comes back to a wait on the same barrier with the same parity
     * before any other memory or synchronization instruction is the spin idiom: the check
     * models it as one blocking wait, and its result is "complete" (true is returned). Any
     * other is a probe (CUTLASS's try_acquire/try_wait tokens): the evaluation follows its
     * failure side, on which it acquired nothing (false is returned), and its result decides
     * only branches that skip a later wait on the same barrier and phase (probeBranch).
     */
    bool waitSucceeds(Lane& L, const Statement& s, const Step& st) {
        const litmus::Instruction& in = s.insn;
        if (in.operands.size() < 3)
            fail(in.loc, in.opcode + " needs a result, a barrier and a phase");
        const litmus::Operand& d = in.operands[0];
        Lane fork = L;
        fork.steps.clear();
        set(fork, d, Val::of(0));
        if (d.kind == litmus::Operand::Kind::Name && d.name != "_") {
            L.regs[d.name] = Val::of(1);
            fork.regs[d.name] = Val::of(0);
        }
        if (d.kind == litmus::Operand::Kind::Sink) return true; // no result: it cannot fail
        ++fork.pc;
        for (int n = 0; n < kSideSteps; ++n) {
            Outcome o = step(fork, true);
            if (o == Outcome::Continue) continue;
            if (o == Outcome::SawEvent &&
                waitsOn(fork, Probe{{}, {}, st.operands[1].value.v, st.operands[2].value.v}) &&
                st.operands[1].value.known && st.operands[2].value.known)
                return true;
            break;
        }
        if (!st.operands[1].value.known || !st.operands[2].value.known)
            fail(in.loc, "the barrier or phase of this " + in.opcode +
                             " depends on data: ptxmc cannot tell which phase it probes");
        probes_.push_back(Probe{in.loc, in.opcode, st.operands[1].value.v, st.operands[2].value.v});
        if (d.kind == litmus::Operand::Kind::Name && d.name != "_")
            L.regs[d.name] = Val{true, 0, 0, static_cast<std::uint32_t>(probes_.size())};
        noteOnce(in.loc, fmt::format("the {} at line {} is a probe (its failure is not answered "
                                     "by waiting again at once): the check follows its failure "
                                     "side, the later wait on its barrier and phase acquiring",
                                     in.opcode, in.loc.line));
        return false;
    }

    const Module& m_;
    const Function& f_;
    const Launch& launch_;
    Extraction& out_;
    LaunchShape shape_;
    std::vector<const Variable*> dynamic_;
    std::map<std::pair<std::size_t, std::uint64_t>, std::uint64_t> given_; ///< --param
    std::map<std::size_t, std::vector<std::uint8_t>> dumps_; ///< --param-bytes, by index
    /// each given field: how it was named, and whether --params gave it (not --param)
    std::map<std::pair<std::size_t, std::uint64_t>,
             std::pair<std::pair<std::string, std::uint64_t>, bool>>
        givenFrom_;
    /// the widest load of each given field so far: a narrower one inside it is an error
    std::map<std::pair<std::size_t, std::uint64_t>, std::uint64_t> readBytes_;
    /// (parameter, offset, bytes, load statement) -> its index in out_.paramReads
    std::map<std::tuple<std::size_t, std::uint64_t, std::uint64_t, std::size_t>, std::size_t>
        reads_;
    std::map<std::string, Note> stops_; ///< --list-params: this pass's stops, by message
    /// Val::field of a shared-memory load nothing stored to on the previous pass
    static constexpr std::uint32_t kStoredLater = 0xFFFFFFFF;
    static constexpr int kPasses = 4;
    int pass_ = 0;
    /// a thread ended at a branch on a kStoredLater value: run another pass
    bool deferred_ = false;
    Stored stored_, seen_;
    std::map<std::pair<int, int>, std::uint64_t> allocations_;
    std::map<int, std::uint64_t> columnsTaken_;
    std::map<std::string, Note> notesThisPass_;
    ClcSlots clcStored_, clcSeen_;   ///< try_cancel responses: the pass before, this pass
    std::vector<Probe> probes_;      ///< this pass's probes (Val::probe indexes them)
    std::vector<std::size_t> ipdom_; ///< immediate post-dominators (postDominator)
    std::vector<DataChoice> ways_;   ///< branches on data split on (Val::way indexes them)
    /// where the two lanes of the split being made go: the taken way's, the other's
    std::pair<std::size_t, std::size_t> splitTo_;
    std::uint64_t clcRequests_ = 0; ///< try_cancel requests of the cluster so far this pass
};

} // namespace

Extraction evaluate(const Module& m, const Function& entry, const Launch& launch) {
    Extraction out;
    Evaluator(m, entry, launch, out).run();
    return out;
}

} // namespace ptxmc::kernel
