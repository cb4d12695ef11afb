// Builds the program to check from an evaluated entry: locations for mbarriers and async
// buffers, one thread per synchronizing warp, lanes merged, arrival counts scaled to warps.
#include "kernel/Extract.hpp"

#include "kernel/Repeats.hpp"
#include "kernel/StepForms.hpp"
#include "kernel/TmemSlices.hpp"
#include "ptx/Decode.hpp"
#include "ptx/Print.hpp"
#include "ptx/Tables.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

namespace ptxmc::kernel {

std::string shortName(const std::string& m) {
    std::string out = m;
    if (m.rfind("_ZZ", 0) == 0) {
        // _ZZ<len><function>...E<len><name>: the last length-prefixed name after the 'E'
        std::size_t e = m.rfind('E');
        std::size_t i = e == std::string::npos ? m.size() : e + 1;
        std::size_t len = 0, j = i;
        while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j])))
            len = len * 10 + static_cast<std::size_t>(m[j++] - '0');
        if (len > 0 && j + len <= m.size()) out = m.substr(j, len);
    } else if (auto p = m.find("_param_"); p != std::string::npos) {
        out = m.substr(p + 1);
    } else if (m.rfind("_Z", 0) == 0) { // _Z<len><name><signature>
        std::size_t len = 0, j = 2;
        while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j])))
            len = len * 10 + static_cast<std::size_t>(m[j++] - '0');
        if (len > 0 && j + len <= m.size()) out = m.substr(j, len);
    }
    std::string clean;
    for (char c : out)
        clean += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (clean.empty() || std::isdigit(static_cast<unsigned char>(clean[0]))) clean = "s" + clean;
    return clean;
}

namespace {

using OperandKind = RawOperand::Kind;

/** A recorded instruction read as the decoder reads it, where it is a bulk or tensor copy. */
std::optional<ptx::BulkCopy> bulkCopyOf(const litmus::Instruction& in) {
    ptx::Insn decoded = ptx::decode(in);
    if (auto* copy = std::get_if<ptx::BulkCopy>(&decoded.op)) return std::move(*copy);
    return std::nullopt;
}

/** A bulk or tensor copy from shared to global memory (a TMA store): it writes no shared
 *  memory. */
bool copiesSharedToGlobal(const litmus::Instruction& in) {
    const auto copy = bulkCopyOf(in);
    return copy && copy->dst == ptx::StateSpace::Global && copy->src != ptx::StateSpace::Global;
}

using ptx::ModuleOp;

struct Region {
    std::uint64_t start = 0, end = 0; ///< CTA-relative offsets
    std::string name;
};

class Builder {
public:
    Builder(const Module& m, const Extraction& x) : m_(m), x_(x) {}

    KernelProgram build() {
        KernelProgram k;
        findObjects();
        makeRegions();
        k.test.arch = "PTX";
        k.test.file = m_.file;
        int ctas = x_.cluster[0] * x_.cluster[1] * x_.cluster[2];
        partitionWrites();
        for (const WarpTrace& w : x_.warps) {
            std::vector<Item> merged = mergeLanes(w);
            if (merged.empty()) continue;
            warps_.push_back({w.cta, {w.warp}, std::move(merged)});
        }
        mergeRoles();
        coarsenTmem();
        scaleArrivals();
        scaleNamedBarriers();
        for (const WarpCode& w : warps_) {
            litmus::Thread t;
            t.id = static_cast<int>(k.test.threads.size());
            t.cta = w.cta;
            t.gpu = 0;
            if (ctas > 1) t.cluster = 0;
            Ways ways;
            for (const Item& it : w.items)
                for (int r = 0; r < it.repeat; ++r)
                    t.code.push_back(guarded(it, ways, t.code));
            k.stats.events += t.code.size();
            k.threadNames.push_back(roleName(w));
            k.test.threads.push_back(std::move(t));
        }
        declare(k.test);
        k.notes = x_.notes;
        for (auto& n : notes_)
            k.notes.push_back(n.second);
        k.stats.ctas = ctas;
        k.stats.warps = static_cast<int>(x_.warps.size());
        k.stats.threads = static_cast<int>(k.test.threads.size());
        k.stats.executed = x_.instructions;
        k.stats.droppedData = dropped_;
        return k;
    }

private:
    struct Item {
        std::string key;
        litmus::Instruction insn;
        ModuleOp op = ModuleOp::Other; ///< the recorded instruction's row of ptx/ModuleOps.def
        int lanes = 1;
        int repeat = 1;
        std::string arriveOn; ///< the mbarrier an arrive counts on (scaled by lanes)
        bool init = false;
        bool writesTmemQuarter = false; ///< a tcgen05.st of the warp's own lane quarter
        std::vector<DataChoice> guard;  ///< the ways of branches on data it runs under
    };
    struct WarpCode {
        int cta;
        std::vector<int> warps; ///< the warps this thread stands for (identical code)
        std::vector<Item> items;
    };

    static std::string roleName(const WarpCode& w) {
        if (w.warps.size() == 1) return fmt::format("CTA {} warp {}", w.cta, w.warps[0]);
        std::string list;
        for (int x : w.warps)
            list += (list.empty() ? "" : ",") + std::to_string(x);
        return fmt::format("CTA {} warps {} (identical)", w.cta, list);
    }

    [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const {
        throw InputError(loc, msg);
    }
    void note(const SourceLoc& loc, const std::string& text) {
        notes_.emplace(text, Note{loc, text});
    }

    // ---- which addresses are what ----
    void findObjects() {
        for (const WarpTrace& w : x_.warps)
            for (const auto& lane : w.lanes)
                for (const Step& s : lane) {
                    if (auto i = mbarrierOperand(s); i && s.operands[*i].value.known)
                        if (auto a = Layout::sharedAddress(s.operands[*i].value.v))
                            mbarriers_.insert(*a & Layout::kOffsetMask);
                    bufferStarts(s);
                    tmemStart(s);
                }
        for (const WarpTrace& w : x_.warps)
            for (const auto& lane : w.lanes)
                for (const Step& s : lane)
                    tmemWrites(s, w.warp);
    }

    void addStart(const RawOperand& o, std::optional<std::uint64_t> bytes, int tier) {
        if (!o.value.known) return;
        auto a = Layout::sharedAddress(o.value.v);
        if (!a) return;
        starts_.push_back({*a & Layout::kOffsetMask, bytes, tier});
    }

    /**
     * Records that copy `s` reads or writes the buffer at `offset`. Copies are stages of one
     * ring where they are in one shared variable and come from one tensor map (its box is one
     * size) or, without one, from one instruction.
     */
    void ringSite(const Step& s, std::uint64_t offset) {
        auto sym = x_.layout.sharedAt(offset);
        if (!sym) return;
        RingKey key{0, s.stmt, sym->first->offset};
        for (const RawOperand& o : s.operands)
            if (o.kind == OperandKind::Addr && !o.elements.empty() && o.value.known)
                key = {o.value.v, SIZE_MAX, sym->first->offset};
        ringSites_.try_emplace(key, std::set<std::uint64_t>{}, s.stmt)
            .first->second.first.insert(offset);
    }

    std::optional<std::uint64_t> known(const RawOperand& o) const {
        if (o.value.known) return o.value.v;
        return std::nullopt;
    }

    void bufferStarts(const Step& s) {
        auto a = addrOperands(s);
        if (isBulkCopy(s) || isReduceBulk(s)) {
            // dst, src: whichever is shared memory is an async buffer
            std::optional<std::uint64_t> bytes;
            if (!isTensor(s) && s.operands.size() > 2) bytes = known(s.operands[2]);
            for (std::size_t k = 0; k < std::min<std::size_t>(a.size(), 2); ++k)
                if (!(isTensor(s) && !s.operands[a[k]].elements.empty())) {
                    const std::size_t before = starts_.size();
                    addStart(s.operands[a[k]], bytes, 1);
                    if (!bytes && starts_.size() > before) ringSite(s, starts_.back().offset);
                }
        } else if (isNonBulkAsync(s) && !a.empty()) { // cp.async.ca/cg
            addStart(s.operands[a[0]], s.operands.size() > 2 ? known(s.operands[2]) : std::nullopt,
                     1);
        } else if (s.op == ModuleOp::WgmmaMmaAsync) {
            for (std::size_t k : {1, 2})
                if (k < s.operands.size() && s.operands[k].kind == OperandKind::Reg)
                    descriptorPoint(s.operands[k]);
        } else if (s.op == ModuleOp::Tcgen05Mma) {
            for (std::size_t k : {1, 2})
                if (k < s.operands.size() && s.operands[k].kind == OperandKind::Reg)
                    descriptorPoint(s.operands[k]);
        } else if (s.op == ModuleOp::Tcgen05Alloc && !a.empty()) {
            addStart(s.operands[a[0]], 4, 1); // the cell the allocated address is written to
        } else if (s.op == ModuleOp::Ldmatrix || s.op == ModuleOp::Stmatrix) {
            for (std::size_t k : a)
                addStart(s.operands[k], std::nullopt, 2);
        }
    }

    static std::optional<std::uint64_t> descriptorAddr(const RawOperand& o) {
        if (!o.value.known) return std::nullopt;
        return (o.value.v & 0x3FFF) << 4; // bits 13-0: the start address >> 4
    }

    void descriptorPoint(const RawOperand& o) {
        if (auto a = descriptorAddr(o)) starts_.push_back({*a, std::nullopt, 2});
    }

    /**
     * Per buffer start, the least distance between two buffers the copies of one ring write
     * (ringSite: copies of one tensor map move boxes of one size, which the PTX does not hold). The
     * ring's last stage used then ends that far after its start, not at the next buffer: with fewer
     * k-blocks than stages the unused stages' buffers are unknown, and a scalar after the last
     * stage (DeepGEMM's scale factors of B after those of A) would fall inside it.
     */
    std::map<std::uint64_t, std::pair<std::uint64_t, std::size_t>> ringStrides() const {
        std::map<std::uint64_t, std::pair<std::uint64_t, std::size_t>> out;
        for (const auto& [key, site] : ringSites_) {
            const auto& [offsets, stmt] = site;
            if (offsets.size() < 2) continue;
            std::uint64_t stride = UINT64_MAX;
            for (auto a = offsets.begin(), b = std::next(a); b != offsets.end(); ++a, ++b)
                stride = std::min(stride, *b - *a);
            for (std::uint64_t o : offsets) {
                auto [it, fresh] = out.emplace(o, std::pair{stride, stmt});
                if (!fresh && stride < it->second.first) it->second = {stride, stmt};
            }
        }
        return out;
    }

    void makeRegions() {
        const auto strides = ringStrides();
        // Tier 1 (copies) first: each extends to its bytes, else to the next start of its symbol.
        std::sort(starts_.begin(), starts_.end(), [](const Start& a, const Start& b) {
            return std::tie(a.tier, a.offset) < std::tie(b.tier, b.offset);
        });
        for (int tier : {1, 2}) {
            std::vector<std::uint64_t> all;
            for (const Start& s : starts_)
                if (s.tier <= tier) all.push_back(s.offset);
            std::sort(all.begin(), all.end());
            for (const Start& s : starts_) {
                if (s.tier != tier || regionAt(s.offset)) continue;
                auto sym = x_.layout.sharedAt(s.offset);
                if (!sym) continue;
                std::uint64_t symEnd = sym->first->offset + sym->first->bytes;
                std::uint64_t end = symEnd;
                if (s.bytes)
                    end = std::min(symEnd, s.offset + std::max<std::uint64_t>(*s.bytes, 1));
                else {
                    auto next = std::upper_bound(all.begin(), all.end(), s.offset);
                    for (; next != all.end(); ++next)
                        if (!regionAt(*next) || *next >= end) break;
                    if (next != all.end()) end = std::min(end, *next);
                }
                for (const Region& r : regions_) // never overlap an earlier region
                    if (r.start > s.offset) end = std::min(end, r.start);
                if (auto ring = strides.find(s.offset); ring != strides.end() && s.tier == 1 &&
                                                        !s.bytes &&
                                                        s.offset + ring->second.first < end) {
                    end = s.offset + ring->second.first;
                    note(entry().body[ring->second.second].insn.loc,
                         fmt::format("the last stage the copies of line {} write ends {} bytes "
                                     "after its start, as far apart as their stages (one tensor "
                                     "map: one box size)",
                                     entry().body[ring->second.second].insn.loc.line,
                                     ring->second.first));
                }
                // nor an mbarrier placed after the last stage (in one .extern array)
                if (auto mb = mbarriers_.upper_bound(s.offset); mb != mbarriers_.end())
                    end = std::min(end, *mb);
                Region r{s.offset, std::max(end, s.offset + 1), ""};
                std::string base = shortName(sym->first->var->name);
                r.name =
                    uniqueName(s.offset == sym->first->offset && end == symEnd
                                   ? base
                                   : base + "_" + std::to_string(s.offset - sym->first->offset));
                regions_.push_back(r);
            }
        }
        for (std::uint64_t mb : mbarriers_) {
            if (regionAt(mb))
                fail(SourceLoc{m_.file, 0, 0},
                     fmt::format("shared address {:#x} is used both as an mbarrier and as an async "
                                 "buffer",
                                 mb));
            auto sym = x_.layout.sharedAt(mb);
            std::string base =
                sym ? shortName(sym->first->var->name) : fmt::format("mbar_{:x}", mb);
            std::string name = base;
            if (sym && (sym->first->bytes > 8 || sym->first->var->isExtern))
                name = base + "_" + std::to_string(sym->second / 8);
            mbarNames_[mb] = uniqueName(name);
        }
    }

    const Region* regionAt(std::uint64_t off) const {
        for (const Region& r : regions_)
            if (off >= r.start && off < r.end) return &r;
        return nullptr;
    }

    std::string uniqueName(std::string n) {
        std::string u = n;
        for (int k = 2; names_.count(u); ++k)
            u = n + "_" + std::to_string(k);
        names_.insert(u);
        return u;
    }

    // ---- rendering ----
    /** `[name]` or `[name@C]` for the location at shared address `a` seen from CTA `cta`. */
    std::optional<litmus::Operand> sharedRef(std::uint64_t a, int cta, const SourceLoc& loc,
                                             bool mbar) {
        int rank = static_cast<int>((a >> Layout::kRankShift) & 0x7F);
        std::uint64_t off = a & Layout::kOffsetMask;
        litmus::Operand o;
        o.kind = litmus::Operand::Kind::Memory;
        o.loc = loc;
        if (mbar) {
            auto it = mbarNames_.find(off);
            if (it == mbarNames_.end()) return std::nullopt;
            o.name = it->second;
        } else {
            const Region* r = regionAt(off);
            if (!r) return std::nullopt;
            o.name = r->name;
        }
        if (rank != cta) o.cta = rank;
        usedIn_[o.name].insert(rank);
        spaceOf_[o.name] = mbar ? ir::Space::Mbarrier : ir::Space::Shared;
        return o;
    }

    litmus::Operand imm(std::uint64_t v, const SourceLoc& loc) const {
        litmus::Operand o;
        o.kind = litmus::Operand::Kind::Integer;
        o.value = static_cast<std::int64_t>(v);
        o.loc = loc;
        return o;
    }
    litmus::Operand sink(const SourceLoc& loc) const {
        litmus::Operand o;
        o.kind = litmus::Operand::Kind::Sink;
        o.loc = loc;
        return o;
    }
    static std::string regName(const std::string& r) {
        std::string s;
        for (char c : r.substr(!r.empty() && r[0] == '%' ? 1 : 0))
            s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
        if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "r" + s;
        return s;
    }
    litmus::Operand reg(const RawOperand& r) const {
        litmus::Operand o;
        o.kind = litmus::Operand::Kind::Name;
        o.name = regName(r.reg);
        o.loc = r.loc;
        return o;
    }
    /** Fails with `what` and what `v` comes from: a parameter field not given, else `otherwise`. */
    [[noreturn]] void failOn(const SourceLoc& loc, const std::string& what, const Val& v,
                             const std::string& otherwise) const {
        failOnValue(loc, what, x_, v, otherwise);
    }

    /** An input: its value when known, else the register (data). */
    litmus::Operand input(const RawOperand& r, const Step& s, bool mustKnow) const {
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
    litmus::Operand output(const RawOperand& r) const {
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

    std::optional<Item> render(const Step& s, int cta, const SourceLoc& loc) {
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
                        fail(o.loc,
                             "the mbarrier address of this " + s.opcode + " is not resolved");
                    it.arriveOn = mb->name + "@" + std::to_string(mb->cta.value_or(cta));
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
            it.init = op == ModuleOp::MbarrierInit;
            if (it.init)
                it.arriveOn =
                    in.operands[0].name + "@" + std::to_string(in.operands[0].cta.value_or(cta));
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
            if (op == ModuleOp::CpAsyncMbarrier) { // cp.async.mbarrier.arrive
                if (!ptx::hasQualifier(s.parts, "noinc") && !in.operands.empty())
                    it.arriveOn = in.operands[0].name + "@" +
                                  std::to_string(in.operands[0].cta.value_or(cta));
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
                    auto ref =
                        sharedRef((static_cast<std::uint64_t>(cta) << Layout::kRankShift) | *a, cta,
                                  o.loc, false);
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
        } else if (op ==
                   ModuleOp::Mov) { // a thread's access of a wgmma fragment register (Machine)
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

    static std::string text(const litmus::Instruction& in) {
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
                    t += "," + (e.kind == litmus::Operand::Kind::Integer ? std::to_string(e.value)
                                                                         : e.name);
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

    /**
     * A tensor map is its tensor: the parameter that holds it and, in a struct of several (a
     * CUTLASS Params holds those of A, B, C, D at +0, +128, ...), its offset there; a map that
     * is not a parameter is named by its address. Tiles of different maps are different memory.
     */
    std::string tensorMapName(const RawOperand& tmap) const {
        if (!tmap.value.known) return "tensor";
        if (tmap.value.v >= Layout::kGenericParam)
            if (auto p = x_.layout.paramAt(tmap.value.v - Layout::kGenericParam)) {
                std::string name = shortName(p->first->var->name);
                bool alone = p->second == 0 && p->first->bytes <= kTensorMapBytes;
                return alone ? name : name + "_" + std::to_string(p->second);
            }
        return fmt::format("tensor_{:x}", tmap.value.v);
    }
    /** "A tensor-map is a 128-byte opaque object" ({TensorMap}). */
    static constexpr std::uint64_t kTensorMapBytes = 128;

    litmus::Operand tensorTile(const Step& s, const RawOperand& tmap,
                               const std::vector<RawOperand>&) {
        std::string param = tensorMapName(tmap);
        std::string name = param;
        litmus::Operand o;
        o.kind = litmus::Operand::Kind::Memory;
        o.loc = tmap.loc;
        for (const RawOperand& c : tmap.elements) {
            if (!c.value.known)
                failOn(c.loc, "coordinate '" + c.reg + "' of this " + s.opcode + " depends on ",
                       c.value, "a value read from memory");
            name += "_" + std::to_string(c.value.v);
            o.elements.push_back(imm(c.value.v, c.loc));
        }
        auto it = tiles_.find(name);
        if (it == tiles_.end()) it = tiles_.emplace(name, Tile{uniqueName(name), param}).first;
        o.name = it->second.name;
        return o;
    }

    std::optional<litmus::Operand> globalRef(const Step& s, const RawOperand& o) {
        std::string name = !o.value.known ? fmt::format("g_line{}", o.loc.line)
                           : o.value.v == Layout::kClcResponses ? std::string("clc_responses")
                                                                : fmt::format("g_{:x}", o.value.v);
        auto it = globals_.find(name);
        if (it == globals_.end()) it = globals_.emplace(name, uniqueName(name)).first;
        litmus::Operand r;
        r.kind = litmus::Operand::Kind::Memory;
        r.loc = o.loc;
        r.name = it->second;
        (void)s;
        return r;
    }

    // ---- branches on data: nondet.pred choices ----
    /** The register of a branch's choice: `way_l88_1`, its second run at PTX line 88. */
    std::string wayName(const DataChoice& c) const {
        return fmt::format("way_l{}_{}", entry().body[c.stmt].insn.loc.line, c.instance);
    }

    /** What a thread defined so far: its choices, and a register per guard of several ways. */
    static inline const ptx::Op kMovB32 = ptx::Mov{ptx::Type{'b', 32}};

    struct Ways {
        std::set<std::string> chosen;
        std::map<std::string, std::string> conjunctions;
    };

    /** An instruction the extraction adds, spelled by the one instruction table (ptx/Print). */
    static litmus::Instruction pseudo(ptx::Op op, std::vector<litmus::Operand> operands,
                                      const SourceLoc& loc) {
        litmus::Instruction in;
        ptx::writeBack(ptx::Insn{std::move(op), std::move(operands), loc, ""}, in);
        in.loc = loc;
        return in;
    }

    litmus::Operand named(const std::string& name, const SourceLoc& loc) const {
        litmus::Operand o;
        o.kind = litmus::Operand::Kind::Name;
        o.name = name;
        o.loc = loc;
        return o;
    }

    /**
     * `it`'s instruction under its ways: each choice a `nondet.pred` before its first use, one
     * way a guard `@way` / `@!way`, several a register set to 1 and cleared by every way that
     * does not hold (appended to `code` first).
     */
    litmus::Instruction guarded(const Item& it, Ways& ways,
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

    // ---- lanes to warps ----
    std::vector<Item> mergeLanes(const WarpTrace& w) {
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

    const Function& entry() const { return *entry_; }

    // ---- buffers written by several warps in disjoint parts ----
    /**
     * A buffer that several warps of a CTA write with generic stores or stmatrix, each its own
     * bytes (an epilogue staging tile), is one location per writer: the stores of different warps
     * do not conflict, and an async operation on the buffer is one copy per part.
     */
    void partitionWrites() {
        std::map<std::pair<int, std::string>, std::map<std::uint64_t, int>> owner;
        std::set<std::pair<int, std::string>> overlap;
        for (const WarpTrace& w : x_.warps)
            for (std::size_t laneId = 0; laneId < w.lanes.size(); ++laneId)
                for (const Step& s : w.lanes[laneId]) {
                    const ModuleOp op = s.op;
                    bool store = ((ptx::isStOp(op) || ptx::isRedOp(op)) &&
                                  !ptx::hasQualifier(s.parts, "async")) ||
                                 op == ModuleOp::Stmatrix;
                    if (!store && !ptx::isAtomOp(op)) continue;
                    if (op == ModuleOp::Stmatrix && laneId >= stmatrixAddressLanes(s)) continue;
                    std::size_t at = ptx::isAtomOp(op) ? 1 : 0;
                    if (at >= s.operands.size() || !s.operands[at].value.known) continue;
                    auto a = Layout::sharedAddress(s.operands[at].value.v);
                    if (!a) continue;
                    const Region* reg = regionAt(*a & Layout::kOffsetMask);
                    if (!reg) continue;
                    int cta = static_cast<int>((*a >> Layout::kRankShift) & 0x7F);
                    auto key = std::make_pair(cta, reg->name);
                    for (int b = 0; b < accessBytes(s); ++b) {
                        auto [it, fresh] = owner[key].emplace(
                            (*a & Layout::kOffsetMask) + static_cast<std::uint64_t>(b), w.warp);
                        if (!fresh && it->second != w.warp) overlap.insert(key);
                    }
                }
        for (auto& [key, bytes] : owner) {
            std::set<int> writers;
            for (auto& [b, w] : bytes)
                writers.insert(w);
            if (writers.size() < 2 || overlap.count(key)) continue;
            parts_[key] = bytes;
            for (int w : writers) {
                std::string part = key.second + "_w" + std::to_string(w);
                names_.insert(part);
                partWarp_[part] = w;
                partRegion_[part] = key.second;
            }
        }
    }

    /** Renames a generic access's location to the part its bytes belong to. */
    void partOf(litmus::Operand& o, const RawOperand& raw, int cta, bool store) {
        int rank = o.cta.value_or(cta);
        auto it = parts_.find({rank, o.name});
        if (it == parts_.end()) return;
        auto a = Layout::sharedAddress(raw.value.v);
        auto owner = it->second.find(*a & Layout::kOffsetMask);
        int w = store ? warp_ : (owner != it->second.end() ? owner->second : -1);
        if (w < 0) return;
        std::string region = o.name;
        o.name = region + "_w" + std::to_string(w);
        usedIn_[o.name].insert(rank);
        spaceOf_[o.name] = ir::Space::Shared;
    }

    /** An async operation on a partitioned buffer: one copy per part. */
    std::vector<Item> expandParts(Item item, int cta) {
        std::vector<Item> out;
        for (std::size_t i = 0; i < item.insn.operands.size(); ++i) {
            const litmus::Operand& o = item.insn.operands[i];
            if (o.kind != litmus::Operand::Kind::Memory) continue;
            auto it = parts_.find({o.cta.value_or(cta), o.name});
            if (it == parts_.end()) continue;
            std::set<int> writers;
            for (auto& [b, w] : it->second)
                writers.insert(w);
            for (int w : writers) {
                Item copy = item;
                copy.insn.operands[i].name = o.name + "_w" + std::to_string(w);
                usedIn_[copy.insn.operands[i].name].insert(o.cta.value_or(cta));
                spaceOf_[copy.insn.operands[i].name] = ir::Space::Shared;
                // the other side of the copy (a global tile) is split the same way: the
                // copies are parts of one operation and do not conflict with each other
                for (std::size_t j = 0; j < copy.insn.operands.size(); ++j) {
                    litmus::Operand& g = copy.insn.operands[j];
                    if (j == i || g.kind != litmus::Operand::Kind::Memory || !isGlobal(g.name))
                        continue;
                    std::string piece = g.name + "_w" + std::to_string(w);
                    globalParts_.emplace(piece, g.name);
                    names_.insert(piece);
                    g.name = piece;
                }
                copy.key = item.key + "#part" + std::to_string(w);
                out.push_back(copy);
            }
            return out;
        }
        out.push_back(std::move(item));
        return out;
    }

    // ---- tensor memory (TmemSlices) ----
    void tmemStart(const Step& s) {
        if (s.op == ModuleOp::Tcgen05Mma && !s.operands.empty() &&
            s.operands[0].kind == OperandKind::Addr && s.operands[0].value.known)
            tmem_.addAccumulator(s.operands[0].value.v & 0xFFFF);
    }

    /** The lanes and columns a tcgen05 instruction's tensor-memory operand `o` covers. */
    static TmemSlices::Span tmemSpan(const Step& s, const RawOperand& o, int warp, bool mmaA,
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
            span.hi = col + (ptx::hasQualifier(s.parts, "128x256b") ||
                                     ptx::hasQualifier(s.parts, "4x256b")
                                 ? 8
                                 : 4);
        }
        return span;
    }

    /** Pass 2: writes other than an mma's slice their accumulator; mma D ends cut it. */
    void tmemWrites(const Step& s, int warp) {
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

    /** The instruction descriptor of a tcgen05.mma: its fourth operand, after D, A and B. */
    static const RawOperand& mmaDescriptor(const Step& s) { return s.operands.at(3); }

    /**
     * The tensor-memory locations an operand covers: one (a Memory operand) or several slices
     * of an accumulator (a list the lowering reads as one access of each).
     */
    litmus::Operand tmemRef(const RawOperand& o, int cta, const Step& s, bool mmaA = false,
                            std::uint64_t mmaN = 0) {
        Val v = o.value;
        if (!v.known)
            failOn(o.loc, "the tensor-memory address of this " + s.opcode + " depends on ", v,
                   "a value read from memory that ptxmc could not follow");
        std::vector<std::string> names = tmem_.names(tmemSpan(s, o, warp_, mmaA, mmaN));
        for (const std::string& n : names)
            declareTmem(n, cta);
        return tmemOperand(names, o.loc);
    }

    void declareTmem(const std::string& name, int cta) {
        names_.insert(name);
        usedIn_[name].insert(cta);
        spaceOf_[name] = ir::Space::Tmem;
    }

    litmus::Operand descriptorRef(const RawOperand& o, int cta, const Step& s) {
        auto a = descriptorAddr(o);
        if (!a)
            fail(o.loc, "the shared-memory descriptor '" + o.reg + "' of this " + s.opcode +
                            " is not known from the launch");
        auto ref = sharedRef((static_cast<std::uint64_t>(cta) << Layout::kRankShift) | *a, cta,
                             o.loc, false);
        if (!ref) fail(o.loc, "descriptor '" + o.reg + "' points outside the shared buffers");
        return *ref;
    }

    template <typename Addr>
    void renderTcgen05(const Step& s, const std::vector<RawOperand>& ops, litmus::Instruction& in,
                       Item& it, int cta, Addr& addr) {
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
                if (op == ModuleOp::Tcgen05St && ownsQuarter(o, warp_ % 4))
                    it.writesTmemQuarter = true;
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
                it.arriveOn = mb->name + "@" + std::to_string(mb->cta.value_or(cta));
                in.operands.push_back(*mb);
            }
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

    bool isGlobal(const std::string& name) const {
        for (const auto& [k, t] : tiles_)
            if (t.name == name) return true;
        for (const auto& [k, g] : globals_)
            if (g == name) return true;
        return false;
    }

    // ---- warps with the same code are one role ----
    std::string signature(const WarpCode& w) const {
        std::string sig;
        for (const Item& it : w.items) {
            litmus::Instruction in = it.insn;
            for (auto& o : in.operands) {
                if (auto p = partWarp_.find(o.name);
                    p != partWarp_.end() && p->second == w.warps[0])
                    o.name = partRegion_.at(o.name) + "_wSELF";
                // a warp's own lane quarter: the warps of a warpgroup run the same code on
                // their own lanes
                if (isTmemOperand(o) && ownsQuarter(o, w.warps[0] % 4))
                    o = inQuarters(o, {}, "_lSELF");
            }
            sig += fmt::format("{}x{}|{}\n", it.lanes, it.repeat, text(in));
        }
        return sig;
    }

    /** Whether k warps with this code may stand as one: no shared write but to their own part. */
    bool mergeable(const WarpCode& w) const {
        for (const Item& it : w.items) {
            bool writes =
                ptx::isStOp(it.op) || ptx::isAtomOp(it.op) || ptx::isRedOp(it.op) ||
                (ptx::isCpOp(it.op) && !it.insn.operands.empty() && !copiesSharedToGlobal(it.insn));
            if (!writes) continue;
            for (const auto& o : it.insn.operands) {
                if (o.kind != litmus::Operand::Kind::Memory) continue;
                auto part = partWarp_.find(o.name);
                if (part == partWarp_.end() || part->second != w.warps[0]) return false;
                break;
            }
        }
        return true;
    }

    /**
     * Warps of one lane quarter that store to their quarter's slices may write the same cells:
     * only warps of different quarters stand as one role for such code.
     */
    static bool quarterFree(const WarpCode& role, const WarpCode& w) {
        bool writes = std::any_of(w.items.begin(), w.items.end(),
                                  [](const Item& it) { return it.writesTmemQuarter; });
        if (!writes) return true;
        return std::none_of(role.warps.begin(), role.warps.end(),
                            [&](int r) { return r % 4 == w.warps[0] % 4; });
    }

    /** A role's accesses of its first warp's lane quarter stand for every warp's own quarter. */
    void spreadQuarters(Item& it, int first, const std::set<int>& quarters) {
        for (auto& o : it.insn.operands) {
            if (!ownsQuarter(o, first)) continue;
            std::size_t rows = 0;
            for (const std::string& n : tmemOperandNames(o))
                if (auto r = tmemRows_.find(n); r != tmemRows_.end())
                    rows = std::max(rows, r->second);
            std::set<int> cts;
            for (const std::string& n : tmemOperandNames(o))
                cts.insert(usedIn_[n].begin(), usedIn_[n].end());
            o = inQuarters(o, quarters);
            for (const std::string& n : tmemOperandNames(o)) {
                for (int c : cts)
                    declareTmem(n, c);
                if (rows) tmemRows_[n] = std::max(tmemRows_[n], rows);
            }
        }
    }

    void mergeRoles() {
        std::vector<WarpCode> roles;
        std::map<std::pair<int, std::string>, std::size_t> bySig;
        std::map<std::string, std::string> renamed; ///< a merged warp's part -> the role's
        for (WarpCode& w : warps_) {
            auto key = std::make_pair(w.cta, signature(w));
            auto it = bySig.find(key);
            if (it != bySig.end() && mergeable(w) && mergeable(roles[it->second]) &&
                quarterFree(roles[it->second], w)) {
                WarpCode& role = roles[it->second];
                const std::string from = "_w" + std::to_string(w.warps[0]);
                const std::string to = "_w" + std::to_string(role.warps[0]);
                for (auto& [part, warp] : partWarp_)
                    if (warp == w.warps[0]) renamed[part] = partRegion_.at(part) + to;
                // the global side of a copy of the merged part is the role's piece too, so that
                // the copies of the merged parts are one copy (its bytes: shareBytes)
                for (const auto& [piece, whole] : globalParts_)
                    if (piece == whole + from) renamed[piece] = whole + to;
                role.warps.push_back(w.warps[0]);
                continue;
            }
            bySig.emplace(key, roles.size());
            roles.push_back(std::move(w));
        }
        for (WarpCode& role : roles) {
            int k = static_cast<int>(role.warps.size());
            std::set<int> quarters;
            for (int warp : role.warps)
                quarters.insert(warp % 4);
            std::vector<Item> items;
            for (Item& it : role.items) {
                it.lanes *= k;
                if (k > 1) spreadQuarters(it, role.warps[0] % 4, quarters);
                for (auto& o : it.insn.operands)
                    if (auto r = renamed.find(o.name); r != renamed.end()) o.name = r->second;
                std::string t = text(it.insn);
                // copies of an async operation on parts that merged into one
                if (!items.empty() && text(items.back().insn) == t &&
                    it.key.find("#part") != std::string::npos)
                    continue;
                items.push_back(std::move(it));
            }
            role.items = std::move(items);
        }
        for (const auto& [from, to] : renamed)
            usedIn_.erase(from);
        warps_ = std::move(roles);
    }

    /**
     * Slices that every operand names together are one location: a role standing for a whole
     * warpgroup covers all four lane quarters, and column ranges that no store tells apart need
     * no cut. Two operands overlap exactly when they did before; the program is smaller.
     */
    void coarsenTmem() {
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

    /** A group's name: the accumulator's, a column range's, or its first slice's. */
    static std::string groupName(const std::vector<std::string>& members,
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

    template <typename F> void forEachTmemOperand(F f) {
        for (WarpCode& w : warps_)
            for (Item& it : w.items)
                if (ptx::isTcgen05Op(it.op))
                    for (auto& o : it.insn.operands)
                        if (isTmemOperand(o)) f(o);
    }

    /** A tensor-memory location, or a list of an accumulator's slices. */
    bool isTmemOperand(const litmus::Operand& o) const {
        auto tmem = [&](const std::string& n) {
            auto it = spaceOf_.find(n);
            return it != spaceOf_.end() && it->second == ir::Space::Tmem;
        };
        if (o.kind == litmus::Operand::Kind::Memory) return tmem(o.name);
        return o.kind == litmus::Operand::Kind::Vector && !o.elements.empty() &&
               tmem(o.elements[0].name);
    }

    /** `bar.sync N, count`: the count is in threads, a litmus thread is a warp (or a role). */
    void scaleNamedBarriers() {
        // per CTA: a named barrier is a CTA's (every CTA of a cluster runs its own instances)
        std::map<std::pair<int, long>, int> participants, warps;
        for (const WarpCode& w : warps_) {
            std::set<long> ids;
            for (const Item& it : w.items)
                if (ptx::isBarOp(it.op) && it.insn.operands.size() == 2 &&
                    it.insn.operands[0].kind == litmus::Operand::Kind::Integer)
                    ids.insert(it.insn.operands[0].value);
            for (long id : ids) {
                participants[{w.cta, id}] += 1;
                warps[{w.cta, id}] += static_cast<int>(w.warps.size());
            }
        }
        for (WarpCode& w : warps_)
            for (Item& it : w.items) {
                if (!(ptx::isBarOp(it.op) && it.insn.operands.size() == 2)) continue;
                litmus::Operand& count = it.insn.operands[1];
                auto key = std::make_pair(w.cta, static_cast<long>(it.insn.operands[0].value));
                if (count.kind != litmus::Operand::Kind::Integer || warps[key] * 32 != count.value)
                    continue;
                count.value = 32L * participants[key];
            }
    }

    /**
     * A warp's instruction stands for the lanes that executed it. Arrivals count per thread, so
     * each barrier's expected count and its arrivals are divided by their greatest common
     * divisor (128 threads = 4 warps of 32 arriving: count 4, one arrive per warp).
     */
    void scaleArrivals() {
        std::map<std::string, long> g;
        for (const WarpCode& w : warps_)
            for (const Item& it : w.items) {
                if (it.arriveOn.empty()) continue;
                long v = it.init ? static_cast<long>(it.insn.operands.at(1).value) : it.lanes;
                g[it.arriveOn] = std::gcd(g[it.arriveOn], v);
            }
        for (WarpCode& w : warps_)
            for (Item& it : w.items) {
                if (it.arriveOn.empty()) continue;
                long d = std::max(1L, g[it.arriveOn]);
                if (it.init) {
                    it.insn.operands.at(1).value /= d;
                    if (it.lanes > 1)
                        note(it.insn.loc, fmt::format("mbarrier.init at line {} runs on {} lanes; "
                                                      "one initialisation is kept",
                                                      it.insn.loc.line, it.lanes));
                } else {
                    it.repeat = static_cast<int>(it.lanes / d);
                    if (d > 1)
                        note(it.insn.loc, fmt::format("arrive counts scaled by {} on {} (whole "
                                                      "warps arrive)",
                                                      d, it.arriveOn));
                }
            }
    }

    void declare(litmus::Test& t) {
        std::set<std::string> referenced;
        for (const WarpCode& w : warps_)
            for (const Item& it : w.items)
                for (const auto& o : it.insn.operands) {
                    if (o.kind == litmus::Operand::Kind::Memory) referenced.insert(o.name);
                    if (o.kind == litmus::Operand::Kind::Vector) // slices of an accumulator
                        for (const auto& e : o.elements)
                            if (spaceOf_.count(e.name)) referenced.insert(e.name);
                }
        for (const auto& [name, ctas] : usedIn_) {
            if (!referenced.count(name)) continue;
            litmus::LocationDecl d;
            d.name = name;
            d.space = spaceOf_[name];
            d.ctas.assign(ctas.begin(), ctas.end());
            if (auto rows = tmemRows_.find(name); rows != tmemRows_.end())
                d.rows = static_cast<int>(rows->second);
            // every CTA of the cluster has its copy of a shared variable
            int n = x_.cluster[0] * x_.cluster[1] * x_.cluster[2];
            d.ctas.clear();
            for (int c = 0; c < n; ++c)
                d.ctas.push_back(c);
            t.locations.push_back(d);
        }
        for (const auto& [key, tile] : tiles_) {
            litmus::LocationDecl d;
            d.name = tile.name;
            d.space = ir::Space::Global;
            d.bytes = tileBytes(tile.name);
            t.locations.push_back(d);
        }
        std::set<std::string> used;
        for (const WarpCode& w : warps_)
            for (const Item& it : w.items)
                for (const auto& o : it.insn.operands)
                    if (o.kind == litmus::Operand::Kind::Memory) used.insert(o.name);
        for (const auto& part : globalParts_) {
            const std::string& piece = part.first;
            if (!used.count(piece)) continue;
            litmus::LocationDecl d;
            d.name = piece;
            d.space = ir::Space::Global;
            // a piece is its own copy of the phase's bytes (shareBytes), so that the pieces
            // of one copy into a split buffer bring what its expect_tx announces
            d.bytes = tileBytes(piece);
            t.locations.push_back(d);
        }
        for (const auto& [key, name] : globals_) {
            litmus::LocationDecl d;
            d.name = name;
            d.space = ir::Space::Global;
            t.locations.push_back(d);
        }
    }

    /**
     * The bytes a tensor copy moves are in its tensor map, which the PTX does not hold: each
     * copy completing on a barrier is given an equal share of what the barrier's expect_tx
     * announce, so that the copies of a phase complete exactly its transaction count.
     */
    std::int64_t tileBytes(const std::string& tile) {
        if (tileBytes_.empty()) shareBytes();
        auto it = tileBytes_.find(tile);
        return it == tileBytes_.end() ? 16 : it->second;
    }

    static bool completesTensorCopy(const Item& it) {
        if (it.op != ModuleOp::CpBulkTensor || it.insn.operands.size() < 3) return false;
        const auto copy = bulkCopyOf(it.insn);
        return copy && copy->dst != ptx::StateSpace::Global && copy->viaMbarrier;
    }

    /**
     * The CTAs whose barrier a tensor copy issued in CTA `cta` completes on: with
     * .multicast::cluster every CTA its ctaMask names (".cta_group::1 : The mbarrier signal is
     * multicast to the same shared memory offset as mbar in the destination CTA",
     * {CpAsyncBulkTensor}); otherwise the barrier operand's own. The extracted program is one
     * cluster, so a rank is a CTA number. With .cta_group::2 9.4 sends each destination's
     * signal to it or its peer by the rank parity of mbar's CTA; the check (lowerCopy) takes the
     * destination's, and so does this count.
     */
    std::vector<int> copyDestinations(const litmus::Instruction& in, int cta) const {
        const int own = in.operands[2].cta.value_or(cta);
        if (const auto copy = bulkCopyOf(in); !copy || !copy->multicast) return {own};
        // the mask is the first integer after [mbar] (an im2col copy's offsets are a vector)
        const litmus::Operand* mask = nullptr;
        for (std::size_t i = 3; i < in.operands.size() && !mask; ++i)
            if (in.operands[i].kind == litmus::Operand::Kind::Integer) mask = &in.operands[i];
        if (!mask || mask->value <= 0) return {own}; // the check rejects it (multicastTargets)
        const int n = x_.cluster[0] * x_.cluster[1] * x_.cluster[2];
        std::vector<int> out;
        for (int rank = 0; rank < n && rank < 32; ++rank)
            if ((mask->value >> rank) & 1) out.push_back(rank);
        // the issuing CTA's barrier first: its share is the copy's size (shareBytes)
        std::stable_partition(out.begin(), out.end(), [&](int c) { return c == own; });
        return out.empty() ? std::vector<int>{own} : out;
    }

    /**
     * The barrier and the bytes of an expect_tx: `mbarrier.arrive.expect_tx` (state, [bar],
     * bytes) or `mbarrier.expect_tx` ([bar], bytes: CUTLASS's expect_transaction, its
     * epilogues' loads of C), scaled by the warps it stands for; none for anything else.
     */
    static std::optional<std::pair<const litmus::Operand*, std::int64_t>>
    expectTxOf(const Item& it) {
        const auto& in = it.insn;
        if (!ptx::hasQualifier(in.parts, "expect_tx") || in.operands.size() < 2)
            return std::nullopt;
        const litmus::Operand& bar = in.operands[in.operands.size() - 2];
        if (bar.kind != litmus::Operand::Kind::Memory) return std::nullopt;
        return std::pair{&bar, in.operands.back().value * it.repeat};
    }

    /** A barrier operand as name@cta, `cta` where the operand names none (its own CTA). */
    static std::string barrierKey(const litmus::Operand& o, int cta) {
        return o.name + "@" + std::to_string(o.cta.value_or(cta));
    }

    /**
     * The barriers on which warp `w` issues its tensor copies before their expect_tx
     * (DeepGEMM's loads, then `arrive_and_expect_tx`; the tx-count may go below zero in
     * between: its minimum is -(2^20 - 1), 9.7.15.16.3) rather than after it (CUTLASS's): the
     * first of the two on each.
     */
    std::set<std::string> copiesBeforeExpect(const WarpCode& w) const {
        std::set<std::string> seen, out;
        for (const Item& it : w.items) {
            const auto& in = it.insn;
            if (const auto expect = expectTxOf(it)) seen.insert(barrierKey(*expect->first, w.cta));
            if (!completesTensorCopy(it)) continue;
            const std::vector<int> dests = copyDestinations(in, w.cta);
            const std::string bar = in.operands[2].name + "@" + std::to_string(dests.front());
            if (dests.size() == 1 && seen.insert(bar).second) out.insert(bar);
        }
        return out;
    }

    /**
     * Splits each phase's expect_tx among the tensor copies its warp issues on that barrier
     * after it, or before it where the warp copies first (copiesBeforeExpect), in multiples of
     * 16 bytes, the last copy taking the rest. A barrier that copies of
     * other warps complete too (a peer CTA's half of a 2-SM stage, through mapa, or a peer's
     * multicast copy) shares what its expect_tx announce in all equally among all its copies:
     * the announcing warp's own copies do not bring the peer's bytes. A multicast copy counts
     * at every destination CTA's barrier, since its bytes complete on each of them.
     */
    void shareBytes() {
        std::map<std::string, std::int64_t> announced, copies;
        std::map<std::string, std::string> barOf;    ///< tile -> its barrier (name@cta)
        std::map<std::string, std::int64_t> phaseOf; ///< tile -> its share of its phase
        std::set<std::string> shared;                ///< barriers that peers' copies complete
        for (const WarpCode& w : warps_) {
            std::map<std::string, std::pair<std::int64_t, std::vector<std::string>>> open;
            const std::set<std::string> copiesFirst = copiesBeforeExpect(w);
            std::map<std::string, std::vector<std::string>>
                pending; ///< copies before their expect_tx
            auto flush = [&](const std::string& bar) {
                auto g = open.find(bar);
                if (g == open.end() || g->second.second.empty()) return;
                const auto n = static_cast<std::int64_t>(g->second.second.size());
                std::int64_t share = g->second.first / n / 16 * 16;
                for (std::size_t k = 0; k < g->second.second.size(); ++k) {
                    std::int64_t bytes = k + 1 == g->second.second.size()
                                             ? g->second.first - share * (n - 1)
                                             : share;
                    phaseOf.emplace(g->second.second[k], std::max<std::int64_t>(bytes, 16));
                }
                open.erase(g);
            };
            for (const Item& it : w.items) {
                const auto& in = it.insn;
                if (const auto expect = expectTxOf(it)) {
                    const std::string bar = barrierKey(*expect->first, w.cta);
                    flush(bar);
                    open[bar] = {expect->second, {}};
                    announced[bar] += expect->second;
                    if (copiesFirst.count(bar)) { // the copies before it are its phase's
                        open[bar].second = std::move(pending[bar]);
                        pending.erase(bar);
                        flush(bar);
                    }
                }
                if (completesTensorCopy(it)) {
                    const std::string& tile = in.operands[1].name;
                    const std::vector<int> dests = copyDestinations(in, w.cta);
                    for (int d : dests) {
                        const std::string bar = in.operands[2].name + "@" + std::to_string(d);
                        copies[bar] += 1;
                        barOf.emplace(tile, bar);
                        auto g = open.find(bar);
                        if (dests.size() == 1 && copiesFirst.count(bar))
                            pending[bar].push_back(tile);
                        else if (g != open.end() && dests.size() == 1)
                            g->second.second.push_back(tile);
                        else // a multicast copy's barriers see bytes no one warp announces
                            shared.insert(bar);
                    }
                }
            }
            for (auto& [bar, group] : std::map(open))
                flush(bar);
            for (const auto& [bar, tiles] : pending) // copies no later expect_tx announces
                if (!tiles.empty()) shared.insert(bar);
        }
        for (const auto& [tile, bar] : barOf) {
            auto phase = phaseOf.find(tile);
            if (phase != phaseOf.end() && !shared.count(bar))
                tileBytes_.emplace(tile, phase->second);
            else if (copies[bar] > 0)
                tileBytes_.emplace(
                    tile, std::max<std::int64_t>(announced[bar] / copies[bar] / 16 * 16, 16));
        }
        note(SourceLoc{m_.file, 0, 0},
             "tensor copies: the copies a phase's expect_tx announces share its bytes, in "
             "multiples of 16 (the tensor map is not in the PTX)");
    }

    struct Start {
        std::uint64_t offset;
        std::optional<std::uint64_t> bytes;
        int tier;
    };
    struct Tile {
        std::string name, param;
    };

public:
    const Function* entry_ = nullptr;

private:
    const Module& m_;
    const Extraction& x_;
    std::set<std::uint64_t> mbarriers_;
    std::vector<Start> starts_;
    /// a ring (ringSite): its tensor map's address (0: none), else its copy's statement
    /// (SIZE_MAX: a tensor map), and its shared variable's offset
    using RingKey = std::tuple<std::uint64_t, std::size_t, std::uint64_t>;
    /// per ring, the buffer starts its copies write or read, and its first copy's statement
    std::map<RingKey, std::pair<std::set<std::uint64_t>, std::size_t>> ringSites_;
    std::vector<Region> regions_;
    std::map<std::uint64_t, std::string> mbarNames_;
    std::set<std::string> names_;
    TmemSlices tmem_;                               ///< the accumulators and their slices
    std::map<std::string, std::int64_t> tileBytes_; ///< a tensor copy's global tile -> bytes
    std::map<std::string, std::set<int>> usedIn_;
    std::map<std::string, ir::Space> spaceOf_;
    std::map<std::string, std::size_t> tmemRows_; ///< tensor memory: registers per thread moved
    std::map<std::string, Tile> tiles_;
    std::map<std::string, std::string> globals_;
    std::vector<WarpCode> warps_;
    std::map<std::string, Note> notes_;
    std::size_t dropped_ = 0;
    int warp_ = 0; ///< the warp being rendered
    std::map<std::pair<int, std::string>, std::map<std::uint64_t, int>> parts_; ///< byte -> writer
    std::map<std::string, int> partWarp_;
    std::map<std::string, std::string> partRegion_;
    std::map<std::string, std::string> globalParts_; ///< a copy's piece of a global -> the whole
};

/** Into `out`, the declared locations `o` names (a barrier, a buffer, a list of slices). */
void namedLocations(const litmus::Operand& o, const std::set<std::string>& declared,
                    std::set<std::string>& out) {
    if ((o.kind == litmus::Operand::Kind::Memory || o.kind == litmus::Operand::Kind::Name) &&
        declared.count(o.name))
        out.insert(o.name);
    for (const litmus::Operand& e : o.elements)
        namedLocations(e, declared, out);
}

/** KernelProgram::locationsAt and firstUse, from the built program's instructions. */
void indexLocations(KernelProgram& k) {
    std::set<std::string> declared;
    for (const litmus::LocationDecl& d : k.test.locations)
        declared.insert(d.name);
    for (const litmus::Thread& t : k.test.threads)
        for (const litmus::Instruction& insn : t.code) {
            std::set<std::string> names;
            for (const litmus::Operand& o : insn.operands)
                namedLocations(o, declared, names);
            for (const std::string& name : names) {
                k.locationsAt[insn.loc.line].insert(name);
                auto [it, fresh] = k.firstUse.emplace(name, std::make_pair(insn.loc, insn.opcode));
                if (!fresh && insn.loc.line < it->second.first.line)
                    it->second = std::make_pair(insn.loc, insn.opcode);
            }
        }
}

} // namespace

std::string wayWords(const std::string& note) {
    static const std::string kWay = "nondet.pred way_l";
    std::string out;
    std::size_t at = 0;
    while (true) {
        const std::size_t way = note.find(kWay, at);
        const std::size_t close = way == std::string::npos ? way : note.find(") is ", way);
        if (close == std::string::npos || close + 5 >= note.size()) break;
        unsigned line = 0, run = 0;
        if (std::sscanf(note.c_str() + way + kWay.size(), "%u_%u", &line, &run) != 2) break;
        out += note.substr(at, way - at);
        out += fmt::format("the guard at line {} {}", line,
                           note[close + 5] == '1' ? "holds" : "fails");
        if (run > 0) out += fmt::format(" (its run {})", run + 1);
        at = close + 6;
    }
    return out + note.substr(at);
}

KernelProgram extractKernel(const Module& m, const Launch& launch) {
    const Function& f = pickEntry(m, launch.entry);
    Extraction x = evaluate(m, f, launch);
    Builder b(m, x);
    b.entry_ = &f;
    KernelProgram k = b.build();
    k.stats.repeatedAccesses = dropRepeatedAccesses(k.test);
    k.stats.events -= k.stats.repeatedAccesses;
    k.test.name = shortName(f.name);
    k.unread = x.unread;
    // Properties, not final values: the condition holds in every execution that completes.
    litmus::Condition c;
    c.quantifier = ir::Quantifier::Exists;
    auto prop = std::make_shared<litmus::Prop>();
    prop->kind = litmus::Prop::Kind::True;
    prop->loc = f.loc;
    c.prop = prop;
    c.loc = f.loc;
    k.test.condition = c;
    for (const Statement& s : f.body)
        if (s.cuda && s.kind == Statement::Kind::Instruction) k.cudaLines[s.loc.line] = *s.cuda;
    indexLocations(k);
    return k;
}

} // namespace ptxmc::kernel
