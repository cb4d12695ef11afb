// Which shared addresses are what: mbarriers, async buffers (rings, parts per writer), global
// tiles.
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

void Builder::findObjects() {
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

void Builder::addStart(const RawOperand& o, std::optional<std::uint64_t> bytes, int tier) {
    if (!o.value.known) return;
    auto a = Layout::sharedAddress(o.value.v);
    if (!a) return;
    starts_.push_back({*a & Layout::kOffsetMask, bytes, tier});
}

void Builder::ringSite(const Step& s, std::uint64_t offset) {
    auto sym = x_.layout.sharedAt(offset);
    if (!sym) return;
    RingKey key{0, s.stmt, sym->first->offset};
    for (const RawOperand& o : s.operands)
        if (o.kind == OperandKind::Addr && !o.elements.empty() && o.value.known)
            key = {o.value.v, SIZE_MAX, sym->first->offset};
    ringSites_.try_emplace(key, std::set<std::uint64_t>{}, s.stmt)
        .first->second.first.insert(offset);
}

std::optional<std::uint64_t> Builder::known(const RawOperand& o) const {
    if (o.value.known) return o.value.v;
    return std::nullopt;
}

void Builder::bufferStarts(const Step& s) {
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
        addStart(s.operands[a[0]], s.operands.size() > 2 ? known(s.operands[2]) : std::nullopt, 1);
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

std::optional<std::uint64_t> Builder::descriptorAddr(const RawOperand& o) {
    if (!o.value.known) return std::nullopt;
    return (o.value.v & 0x3FFF) << 4; // bits 13-0: the start address >> 4
}

void Builder::descriptorPoint(const RawOperand& o) {
    if (auto a = descriptorAddr(o)) starts_.push_back({*a, std::nullopt, 2});
}

std::map<std::uint64_t, std::pair<std::uint64_t, std::size_t>> Builder::ringStrides() const {
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

void Builder::makeRegions() {
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
            r.name = uniqueName(s.offset == sym->first->offset && end == symEnd
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
        std::string base = sym ? shortName(sym->first->var->name) : fmt::format("mbar_{:x}", mb);
        std::string name = base;
        if (sym && (sym->first->bytes > 8 || sym->first->var->isExtern))
            name = base + "_" + std::to_string(sym->second / 8);
        mbarNames_[mb] = uniqueName(name);
    }
}

const Region* Builder::regionAt(std::uint64_t off) const {
    for (const Region& r : regions_)
        if (off >= r.start && off < r.end) return &r;
    return nullptr;
}

std::string Builder::uniqueName(std::string n) {
    std::string u = n;
    for (int k = 2; names_.count(u); ++k)
        u = n + "_" + std::to_string(k);
    names_.insert(u);
    return u;
}

std::optional<litmus::Operand> Builder::sharedRef(std::uint64_t a, int cta, const SourceLoc& loc,
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

std::string Builder::tensorMapName(const RawOperand& tmap) const {
    if (!tmap.value.known) return "tensor";
    if (tmap.value.v >= Layout::kGenericParam)
        if (auto p = x_.layout.paramAt(tmap.value.v - Layout::kGenericParam)) {
            std::string name = shortName(p->first->var->name);
            bool alone = p->second == 0 && p->first->bytes <= kTensorMapBytes;
            return alone ? name : name + "_" + std::to_string(p->second);
        }
    return fmt::format("tensor_{:x}", tmap.value.v);
}

litmus::Operand Builder::tensorTile(const Step& s, const RawOperand& tmap,
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

std::optional<litmus::Operand> Builder::globalRef(const Step& s, const RawOperand& o) {
    std::string name = !o.value.known                       ? fmt::format("g_line{}", o.loc.line)
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

void Builder::partitionWrites() {
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

void Builder::partOf(litmus::Operand& o, const RawOperand& raw, int cta, bool store) {
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

std::vector<Builder::Item> Builder::expandParts(Item item, int cta) {
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

bool Builder::isGlobal(const std::string& name) const {
    for (const auto& [k, t] : tiles_)
        if (t.name == name) return true;
    for (const auto& [k, g] : globals_)
        if (g == name) return true;
    return false;
}

void Builder::declare(litmus::Test& t) {
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

} // namespace ptxmc::kernel
